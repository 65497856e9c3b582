#include "ir/Tensor.h"

#include "ir/Try.h"

#include <bit>
#include <cassert>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <optional>
#include <random>
#include <sstream>
#include <unistd.h>

namespace fxkit {

//===----------------------------------------------------------------------===//
// float16 / bfloat16
//===----------------------------------------------------------------------===//

uint16_t floatToHalfBits(float value) {
  uint32_t x = std::bit_cast<uint32_t>(value);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  uint32_t absx = x & 0x7fffffffu;
  if (absx > 0x7f800000u) // NaN: canonical quiet NaN, like c10's software path
    return sign | 0x7e00u;
  // 65520 is halfway between the largest half (65504, odd mantissa) and 2^16: ties go to even,
  // which is infinity; so everything from there on (infinity included) becomes infinity.
  if (absx >= 0x477ff000u)
    return sign | 0x7c00u;
  uint32_t biasedExp = absx >> 23;
  uint32_t mantissa = absx & 0x7fffffu;
  if (absx >= 0x38800000u) { // normal half: |value| >= 2^-14
    uint32_t h = ((biasedExp - 127 + 15) << 10) | (mantissa >> 13);
    uint32_t rest = mantissa & 0x1fffu;
    // A carry out of the mantissa correctly bumps the exponent.
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
      ++h;
    return static_cast<uint16_t>(sign | h);
  }
  // Subnormal half: count units of 2^-24. The float is mantissa' * 2^(biasedExp - 150) with
  // the implicit bit, i.e. mantissa' >> (126 - biasedExp) units.
  uint32_t shift = 126 - biasedExp; // >= 14 here
  if (shift > 24)                   // below 2^-25: rounds to zero (float subnormals included)
    return sign;
  uint32_t full = mantissa | 0x800000u;
  uint32_t h = full >> shift;
  uint32_t rest = full & ((1u << shift) - 1);
  uint32_t halfway = 1u << (shift - 1);
  // Rounding up out of the largest subnormal gives 0x400, the smallest normal: still right.
  if (rest > halfway || (rest == halfway && (h & 1u)))
    ++h;
  return static_cast<uint16_t>(sign | h);
}

float halfBitsToFloat(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  uint32_t exp = (bits >> 10) & 0x1fu;
  uint32_t mantissa = bits & 0x3ffu;
  if (exp == 0) {
    // Zero or subnormal: mantissa * 2^-24 is exact in float (at most 10 significant bits).
    float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
    return std::bit_cast<float>(sign | std::bit_cast<uint32_t>(magnitude));
  }
  if (exp == 31) // infinity or NaN, payload kept
    return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  return std::bit_cast<float>(sign | ((exp + 127 - 15) << 23) | (mantissa << 13));
}

uint16_t floatToBFloat16Bits(float value) {
  uint32_t x = std::bit_cast<uint32_t>(value);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return 0x7fc0u;
  // Adding 0x7fff plus the lowest kept bit rounds to nearest even; a carry into the exponent
  // is right too (up to infinity for the largest floats).
  uint32_t bias = 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>((x + bias) >> 16);
}

float bfloat16BitsToFloat(uint16_t bits) {
  return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
}

//===----------------------------------------------------------------------===//
// dtypes
//===----------------------------------------------------------------------===//

bool dtypeIsComputable(DType dtype) {
  switch (dtype) {
  case DType::Float32:
  case DType::Float16:
  case DType::BFloat16:
  case DType::Float64:
  case DType::Int64:
  case DType::Int32:
  case DType::Int16:
  case DType::Int8:
  case DType::UInt8:
  case DType::Bool:
    return true;
  case DType::Complex64:
  case DType::Complex128:
  case DType::Float8E4M3FN:
  case DType::Float8E5M2:
    return false;
  }
  return false;
}

Status checkComputable(DType dtype, std::string_view what) {
  if (dtypeIsComputable(dtype))
    return Status::ok();
  return Error(std::string(what) + ": dtype " + std::string(dtypeName(dtype)) +
               " is not supported by the reference interpreter (it computes with float32, "
               "float16, bfloat16, float64, int64, int32 and bool)");
}

namespace {

/// double -> int64 without undefined behaviour: truncation, saturation, NaN -> 0.
int64_t saturatingToInt64(double v) {
  if (std::isnan(v))
    return 0;
  if (v >= 0x1p63)
    return std::numeric_limits<int64_t>::max();
  if (v < -0x1p63)
    return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

int32_t saturatingToInt32(double v) {
  if (std::isnan(v))
    return 0;
  if (v >= 0x1p31)
    return std::numeric_limits<int32_t>::max();
  if (v < -0x1p31)
    return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(v);
}

template <typename T> T loadAs(const std::byte *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T> void storeAs(std::byte *p, T v) { std::memcpy(p, &v, sizeof(T)); }

/// The element at `p` of an integer dtype (bool as 0 or 1) widened to int64; nullopt for the
/// floating and other dtypes. What loadInt returns and loadDouble converts.
std::optional<int64_t> loadInteger(const std::byte *p, DType dtype) {
  switch (dtype) {
  case DType::Int64:
    return loadAs<int64_t>(p);
  case DType::Int32:
    return loadAs<int32_t>(p);
  case DType::Int16:
    return loadAs<int16_t>(p);
  case DType::Int8:
    return loadAs<int8_t>(p);
  case DType::UInt8:
    return loadAs<uint8_t>(p);
  case DType::Bool:
    return loadAs<uint8_t>(p) != 0 ? 1 : 0;
  case DType::Float32:
  case DType::Float16:
  case DType::BFloat16:
  case DType::Float64:
  case DType::Complex64:
  case DType::Complex128:
  case DType::Float8E4M3FN:
  case DType::Float8E5M2:
    return std::nullopt;
  }
  return std::nullopt;
}

bool mulOverflows(int64_t a, int64_t b, int64_t &out) { return __builtin_mul_overflow(a, b, &out); }
bool addOverflows(int64_t a, int64_t b, int64_t &out) { return __builtin_add_overflow(a, b, &out); }

std::string formatSizes(std::span<const int64_t> sizes) {
  std::string s = "[";
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(sizes[i]);
  }
  return s + "]";
}

} // namespace

double roundToFloating(double v, DType dtype) {
  switch (dtype) {
  case DType::Float32:
    return static_cast<double>(static_cast<float>(v));
  case DType::Float16:
    return halfBitsToFloat(floatToHalfBits(static_cast<float>(v)));
  case DType::BFloat16:
    return bfloat16BitsToFloat(floatToBFloat16Bits(static_cast<float>(v)));
  default:
    return v;
  }
}

uint64_t tensorByteLimit() {
  // Read once: the environment does not change under a run.
  static const uint64_t limit = [] {
    if (const char *text = std::getenv("FXKIT_MAX_TENSOR_BYTES")) {
      char *end = nullptr;
      errno = 0;
      unsigned long long v = std::strtoull(text, &end, 10);
      if (errno == 0 && end != text && *end == '\0' && v > 0)
        return static_cast<uint64_t>(v);
    }
    long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
    if (pages > 0 && pageSize > 0)
      return static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize);
    return std::numeric_limits<uint64_t>::max();
  }();
  return limit;
}

namespace {

/// numel, checking for negative sizes, overflow of the byte size, and the byte limit of one
/// tensor (tensorByteLimit): a size no machine here can hold is refused with the figures
/// before anything is allocated, rather than failing (or swapping) half-way.
Expected<int64_t> checkedNumel(DType dtype, std::span<const int64_t> sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) {
    if (s < 0)
      return Error("tensor sizes " + formatSizes(sizes) + " contain a negative size");
    if (mulOverflows(n, s, n))
      return Error("tensor sizes " + formatSizes(sizes) + " overflow the element count");
  }
  int64_t bytes;
  if (mulOverflows(n, dtypeItemSize(dtype), bytes))
    return Error("tensor sizes " + formatSizes(sizes) + " overflow the byte size");
  if (uint64_t limit = tensorByteLimit(); static_cast<uint64_t>(bytes) > limit)
    return Error("a tensor of sizes " + formatSizes(sizes) + " (" + std::string(dtypeName(dtype)) +
                 ") needs " + std::to_string(bytes) + " bytes, more than the limit of " +
                 std::to_string(limit) +
                 " (this machine's memory; FXKIT_MAX_TENSOR_BYTES sets another)");
  return n;
}

std::vector<int64_t> contiguousStridesOf(const std::vector<int64_t> &sizes) {
  std::vector<int64_t> strides(sizes.size());
  int64_t acc = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = acc;
    acc *= std::max<int64_t>(sizes[i], 1);
  }
  return strides;
}

/// Calls fn(storage element offset) for every element in row-major order.
template <typename Fn>
void forEachOffset(const std::vector<int64_t> &sizes, const std::vector<int64_t> &strides,
                   int64_t base, Fn &&fn) {
  for (int64_t s : sizes)
    if (s == 0)
      return;
  std::vector<int64_t> index(sizes.size(), 0);
  int64_t offset = base;
  while (true) {
    fn(offset);
    // Odometer step: bump the last dimension, carrying into earlier ones.
    size_t d = sizes.size();
    while (d > 0) {
      --d;
      if (++index[d] < sizes[d]) {
        offset += strides[d];
        break;
      }
      offset -= strides[d] * (sizes[d] - 1);
      index[d] = 0;
      if (d == 0)
        return;
    }
    if (sizes.empty())
      return;
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

Tensor::Tensor() : sizes_{0}, strides_{1}, storage_(std::make_shared<TensorStorage>()) {}

Tensor::Tensor(DType dtype, std::vector<int64_t> sizes, std::vector<int64_t> strides,
               int64_t offset, std::shared_ptr<TensorStorage> storage)
    : dtype_(dtype), sizes_(std::move(sizes)), strides_(std::move(strides)), offset_(offset),
      storage_(std::move(storage)) {}

Expected<Tensor> Tensor::zeros(DType dtype, std::vector<int64_t> sizes) {
  FXKIT_ASSIGN_OR_RETURN(auto n, checkedNumel(dtype, sizes));
  std::shared_ptr<TensorStorage> storage;
  try {
    storage = std::make_shared<TensorStorage>(static_cast<size_t>(n * dtypeItemSize(dtype)));
  } catch (const std::bad_alloc &) {
    return Error("cannot allocate a tensor of sizes " + formatSizes(sizes) + " (" +
                 std::string(dtypeName(dtype)) + ")");
  }
  std::vector<int64_t> strides = contiguousStridesOf(sizes);
  return Tensor(dtype, std::move(sizes), std::move(strides), 0, std::move(storage));
}

Expected<Tensor> Tensor::fromBytes(DType dtype, std::vector<int64_t> sizes,
                                   std::span<const std::byte> bytes) {
  FXKIT_ASSIGN_OR_RETURN(auto n, checkedNumel(dtype, sizes));
  uint64_t want = static_cast<uint64_t>(n) * static_cast<uint64_t>(dtypeItemSize(dtype));
  if (bytes.size() != want)
    return Error("tensor of sizes " + formatSizes(sizes) + " and dtype " +
                 std::string(dtypeName(dtype)) + " needs " + std::to_string(want) + " bytes, got " +
                 std::to_string(bytes.size()));
  Expected<Tensor> t = zeros(dtype, std::move(sizes));
  FXKIT_TRY(t);
  if (!bytes.empty())
    std::memcpy(t->storage_->data(), bytes.data(), bytes.size());
  return t;
}

Expected<Tensor> Tensor::fromFill(DType dtype, std::vector<int64_t> sizes,
                                  const std::function<Status(std::span<std::byte>)> &fill) {
  Expected<Tensor> t = zeros(dtype, std::move(sizes));
  FXKIT_TRY(t);
  size_t bytes = static_cast<size_t>(t->numel()) * dtypeItemSize(dtype);
  if (bytes > 0)
    FXKIT_TRY(fill(std::span<std::byte>(t->storage_->data(), bytes)));
  return t;
}

Expected<Tensor> Tensor::scalar(DType dtype, double value) {
  FXKIT_TRY(checkComputable(dtype, "Tensor::scalar"));
  Expected<Tensor> t = zeros(dtype, {});
  if (t)
    t->storeDouble(0, value);
  return t;
}

Expected<Tensor> Tensor::random(DType dtype, std::vector<int64_t> sizes, uint64_t seed,
                                int64_t intLow, int64_t intHigh) {
  Expected<Tensor> t = zeros(dtype, std::move(sizes));
  FXKIT_TRY(t);
  FXKIT_TRY(fillRandom(*t, seed, intLow, intHigh));
  return t;
}

int64_t Tensor::numel() const {
  int64_t n = 1;
  for (int64_t s : sizes_)
    n *= s;
  return n;
}

bool Tensor::isContiguous() const {
  int64_t expected = 1;
  for (size_t i = sizes_.size(); i-- > 0;) {
    if (sizes_[i] == 0)
      return true;
    if (sizes_[i] == 1)
      continue;
    if (strides_[i] != expected)
      return false;
    expected *= sizes_[i];
  }
  return true;
}

int64_t Tensor::offsetOf(std::span<const int64_t> index) const {
  assert(index.size() == sizes_.size() && "index rank does not match the tensor");
  int64_t off = offset_;
  for (size_t i = 0; i < index.size(); ++i) {
    assert(index[i] >= 0 && index[i] < sizes_[i] && "index out of range");
    off += index[i] * strides_[i];
  }
  return off;
}

std::byte *Tensor::at(int64_t elementOffset) const {
  assert(elementOffset >= 0 &&
         static_cast<size_t>((elementOffset + 1) * itemSize()) <= storage_->size() &&
         "element offset beyond the storage");
  return storage_->data() + elementOffset * itemSize();
}

double Tensor::loadDouble(int64_t elementOffset) const {
  const std::byte *p = at(elementOffset);
  switch (dtype_) {
  case DType::Float32:
    return loadAs<float>(p);
  case DType::Float16:
    return halfBitsToFloat(loadAs<uint16_t>(p));
  case DType::BFloat16:
    return bfloat16BitsToFloat(loadAs<uint16_t>(p));
  case DType::Float64:
    return loadAs<double>(p);
  default:
    if (auto i = loadInteger(p, dtype_))
      return static_cast<double>(*i);
    assert(false && "element access needs a computable dtype (checkComputable)");
    return 0;
  }
}

int64_t Tensor::loadInt(int64_t elementOffset) const {
  if (auto i = loadInteger(at(elementOffset), dtype_))
    return *i;
  return saturatingToInt64(loadDouble(elementOffset));
}

void Tensor::storeDouble(int64_t elementOffset, double value) {
  std::byte *p = at(elementOffset);
  switch (dtype_) {
  case DType::Float32:
    storeAs<float>(p, static_cast<float>(value));
    break;
  case DType::Float16:
    // Through float, as c10::Half(double) does, so results match PyTorch bit for bit.
    storeAs<uint16_t>(p, floatToHalfBits(static_cast<float>(value)));
    break;
  case DType::BFloat16:
    storeAs<uint16_t>(p, floatToBFloat16Bits(static_cast<float>(value)));
    break;
  case DType::Float64:
    storeAs<double>(p, value);
    break;
  case DType::Int64:
    storeAs<int64_t>(p, saturatingToInt64(value));
    break;
  case DType::Int32:
    storeAs<int32_t>(p, saturatingToInt32(value));
    break;
  case DType::Int16:
  case DType::Int8:
  case DType::UInt8:
    // A float converted to a narrow integer: through int64 and wrapped, as c10's casts do on
    // the usual platforms (the C++ conversion itself is undefined out of range).
    storeInt(elementOffset, saturatingToInt64(value));
    break;
  case DType::Bool:
    storeAs<uint8_t>(p, value != 0 ? 1 : 0);
    break;
  default:
    assert(false && "element access needs a computable dtype (checkComputable)");
  }
}

void Tensor::storeInt(int64_t elementOffset, int64_t value) {
  std::byte *p = at(elementOffset);
  switch (dtype_) {
  case DType::Int64:
    storeAs<int64_t>(p, value);
    break;
  case DType::Int32:
    // Wraps modulo 2^32 like an integer cast in C++ and PyTorch.
    storeAs<int32_t>(p, static_cast<int32_t>(value));
    break;
  case DType::Int16:
    storeAs<int16_t>(p, static_cast<int16_t>(value));
    break;
  case DType::Int8:
    storeAs<int8_t>(p, static_cast<int8_t>(value));
    break;
  case DType::UInt8:
    storeAs<uint8_t>(p, static_cast<uint8_t>(value));
    break;
  case DType::Bool:
    storeAs<uint8_t>(p, value != 0 ? 1 : 0);
    break;
  default:
    storeDouble(elementOffset, static_cast<double>(value));
  }
}

Tensor Tensor::contiguous() const {
  std::vector<int64_t> strides = contiguousStridesOf(sizes_);
  auto storage = std::make_shared<TensorStorage>(static_cast<size_t>(numel() * itemSize()));
  std::byte *out = storage->data();
  const int item = itemSize();
  const std::byte *in = storage_->data();
  forEachOffset(sizes_, strides_, offset_, [&](int64_t off) {
    std::memcpy(out, in + off * item, item);
    out += item;
  });
  return Tensor(dtype_, sizes_, std::move(strides), 0, std::move(storage));
}

Expected<Tensor> Tensor::asStrided(std::vector<int64_t> sizes, std::vector<int64_t> strides,
                                   int64_t storageOffset) const {
  auto describe = [&] {
    return "as_strided(sizes " + formatSizes(sizes) + ", strides " + formatSizes(strides) +
           ", offset " + std::to_string(storageOffset) + ")";
  };
  if (sizes.size() != strides.size())
    return Error(describe() + ": sizes and strides differ in length");
  if (storageOffset < 0)
    return Error(describe() + ": negative storage offset");
  Expected<int64_t> n = checkedNumel(dtype_, sizes);
  if (!n)
    return Error(describe() + ": " + n.error().message);
  int64_t last = storageOffset;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (strides[i] < 0)
      return Error(describe() + ": negative stride");
    int64_t step;
    if (sizes[i] > 0 &&
        (mulOverflows(sizes[i] - 1, strides[i], step) || addOverflows(last, step, last)))
      return Error(describe() + ": element offsets overflow");
  }
  int64_t available = static_cast<int64_t>(storage_->size()) / itemSize();
  if (*n > 0 && last >= available)
    return Error(describe() + ": reaches element " + std::to_string(last) + " of a storage of " +
                 std::to_string(available) + " elements");
  return Tensor(dtype_, std::move(sizes), std::move(strides), storageOffset, storage_);
}

Expected<Tensor> Tensor::reinterpretAs(DType dtype, std::vector<int64_t> sizes,
                                       std::vector<int64_t> strides, int64_t storageOffset) const {
  return Tensor(dtype, {0}, {1}, 0, storage_)
      .asStrided(std::move(sizes), std::move(strides), storageOffset);
}

void Tensor::copyElementsFrom(const Tensor &src) {
  assert(src.sizes() == sizes_ && "copyElementsFrom needs equal sizes");
  if (src.dtype() == dtype_) {
    const size_t item = static_cast<size_t>(itemSize());
    forEachIndex(sizes_, [&](std::span<const int64_t> index) {
      std::memcpy(at(offsetOf(index)), src.at(src.offsetOf(index)), item);
    });
  } else if (!dtypeIsFloating(dtype_) && !dtypeIsFloating(src.dtype())) {
    forEachIndex(sizes_, [&](std::span<const int64_t> index) {
      storeInt(offsetOf(index), src.getInt(index));
    });
  } else {
    forEachIndex(sizes_, [&](std::span<const int64_t> index) {
      storeDouble(offsetOf(index), src.getDouble(index));
    });
  }
}

std::complex<double> Tensor::loadComplex(int64_t elementOffset) const {
  const std::byte *p = at(elementOffset);
  if (dtype_ == DType::Complex64)
    return {loadAs<float>(p), loadAs<float>(p + sizeof(float))};
  assert(dtype_ == DType::Complex128 && "loadComplex needs a complex dtype");
  return {loadAs<double>(p), loadAs<double>(p + sizeof(double))};
}

void Tensor::storeComplex(int64_t elementOffset, std::complex<double> value) {
  std::byte *p = at(elementOffset);
  if (dtype_ == DType::Complex64) {
    storeAs<float>(p, static_cast<float>(value.real()));
    storeAs<float>(p + sizeof(float), static_cast<float>(value.imag()));
    return;
  }
  assert(dtype_ == DType::Complex128 && "storeComplex needs a complex dtype");
  storeAs<double>(p, value.real());
  storeAs<double>(p + sizeof(double), value.imag());
}

Expected<Tensor> Tensor::to(DType dtype) const {
  FXKIT_TRY(checkComputable(dtype_, "Tensor::to"));
  FXKIT_TRY(checkComputable(dtype, "Tensor::to"));
  Expected<Tensor> out = zeros(dtype, sizes_);
  FXKIT_TRY(out);
  // Integers go through int64 so that large int64 values survive int64 -> int64/int32.
  bool viaInt = !dtypeIsFloating(dtype_) && !dtypeIsFloating(dtype);
  int64_t o = 0;
  forEachOffset(sizes_, strides_, offset_, [&](int64_t off) {
    if (viaInt)
      out->storeInt(o++, loadInt(off));
    else
      out->storeDouble(o++, loadDouble(off));
  });
  return out;
}

std::span<const std::byte> Tensor::bytes() const {
  assert(isContiguous() && "bytes() needs a contiguous tensor");
  if (numel() == 0) // an empty view's offset may lie past the storage
    return {};
  return {storage_->data() + offset_ * itemSize(), static_cast<size_t>(numel() * itemSize())};
}

bool Tensor::bitwiseEqual(const Tensor &other) const {
  if (dtype_ != other.dtype_ || sizes_ != other.sizes_)
    return false;
  Tensor a = contiguous(), b = other.contiguous();
  auto x = a.bytes(), y = b.bytes();
  return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), x.size()) == 0);
}

TensorType Tensor::typeOf(Device device) const {
  TensorType t;
  t.dtype = dtype_;
  t.sizes.assign(sizes_.begin(), sizes_.end());
  t.strides.assign(strides_.begin(), strides_.end());
  t.device = device;
  return t;
}

void Tensor::forEachIndex(std::span<const int64_t> sizes,
                          const std::function<void(std::span<const int64_t>)> &fn) {
  for (int64_t s : sizes)
    if (s <= 0)
      return;
  std::vector<int64_t> index(sizes.size(), 0);
  while (true) {
    fn(index);
    size_t d = sizes.size();
    while (true) {
      if (d == 0)
        return;
      --d;
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
}

//===----------------------------------------------------------------------===//
// Random fill and comparison
//===----------------------------------------------------------------------===//

Status fillRandom(Tensor &t, uint64_t seed, int64_t intLow, int64_t intHigh) {
  FXKIT_TRY(checkComputable(t.dtype(), "fillRandom"));
  if (intLow > intHigh)
    return Error("fillRandom: empty integer range [" + std::to_string(intLow) + ", " +
                 std::to_string(intHigh) + "]");
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_int_distribution<int64_t> ints(intLow, intHigh);
  DType dtype = t.dtype();
  forEachOffset(t.sizes(), t.strides(), t.storageOffset(), [&](int64_t off) {
    if (dtype == DType::Bool)
      t.storeInt(off, static_cast<int64_t>(rng() >> 63));
    else if (dtypeIsFloating(dtype))
      t.storeDouble(off, normal(rng));
    else
      t.storeInt(off, ints(rng));
  });
  return Status::ok();
}

std::string TensorComparison::str() const {
  std::ostringstream os;
  os << "max abs error " << maxAbsError << ", max rel error " << maxRelError;
  if (mismatches == 0) {
    os << ", all elements close";
    return os.str();
  }
  os << ", " << mismatches << " element" << (mismatches == 1 ? "" : "s") << " not close, first at "
     << formatSizes(firstMismatch) << ": actual " << firstActual << ", expected " << firstExpected;
  return os.str();
}

std::pair<double, double> defaultTolerance(DType dtype) {
  switch (dtype) {
  case DType::Float16:
    return {1e-3, 1e-3};
  case DType::BFloat16:
    return {1.6e-2, 1e-3};
  default:
    return {1e-4, 1e-4};
  }
}

Expected<TensorComparison> compareTensors(const Tensor &actual, const Tensor &expected, double rtol,
                                          double atol) {
  if (actual.dtype() != expected.dtype())
    return Error("compareTensors: dtype " + std::string(dtypeName(actual.dtype())) +
                 " differs from the expected " + std::string(dtypeName(expected.dtype())));
  if (actual.sizes() != expected.sizes())
    return Error("compareTensors: sizes " + formatSizes(actual.sizes()) +
                 " differ from the expected " + formatSizes(expected.sizes()));
  // Complex tensors compare as their real and imaginary parts (view_as_real's [..., 2] float
  // view, so a mismatch index ends in 0 for the real part, 1 for the imaginary part).
  if (actual.dtype() == DType::Complex64 || actual.dtype() == DType::Complex128) {
    const DType real = actual.dtype() == DType::Complex64 ? DType::Float32 : DType::Float64;
    auto floats = [&](const Tensor &t) {
      std::vector<int64_t> sizes = t.sizes(), strides;
      sizes.push_back(2);
      for (int64_t st : t.strides())
        strides.push_back(st * 2);
      strides.push_back(1);
      return t.reinterpretAs(real, sizes, strides, t.storageOffset() * 2);
    };
    Expected<Tensor> a = floats(actual), e = floats(expected);
    FXKIT_TRY(a);
    FXKIT_TRY(e);
    return compareTensors(*a, *e, rtol, atol);
  }
  FXKIT_TRY(checkComputable(actual.dtype(), "compareTensors"));
  const bool exact = !dtypeIsFloating(actual.dtype());
  constexpr double inf = std::numeric_limits<double>::infinity();
  TensorComparison r;
  double worstError = 0;
  Tensor::forEachIndex(actual.sizes(), [&](std::span<const int64_t> idx) {
    double a, e, absErr, relErr;
    bool close;
    if (exact) {
      int64_t ai = actual.getInt(idx), ei = expected.getInt(idx);
      a = static_cast<double>(ai);
      e = static_cast<double>(ei);
      close = ai == ei;
      absErr = std::fabs(a - e);
      relErr = close ? 0 : (ei == 0 ? inf : absErr / std::fabs(e));
    } else {
      a = actual.getDouble(idx);
      e = expected.getDouble(idx);
      if (std::isnan(a) || std::isnan(e)) {
        close = std::isnan(a) && std::isnan(e);
        absErr = relErr = close ? 0 : inf;
      } else if (a == e) { // also the same infinity, where a - e would be NaN
        close = true;
        absErr = relErr = 0;
      } else {
        absErr = std::fabs(a - e);
        relErr = e == 0 ? inf : absErr / std::fabs(e);
        // An infinite expected value is matched only by itself (handled above).
        close = std::isfinite(e) && absErr <= atol + rtol * std::fabs(e);
      }
    }
    r.maxAbsError = std::max(r.maxAbsError, absErr);
    r.maxRelError = std::max(r.maxRelError, relErr);
    if (!close) {
      if (r.mismatches == 0) {
        r.firstMismatch.assign(idx.begin(), idx.end());
        r.firstActual = a;
        r.firstExpected = e;
      }
      if (r.mismatches == 0 || absErr > worstError) {
        worstError = absErr;
        r.worstMismatch.assign(idx.begin(), idx.end());
        r.worstActual = a;
        r.worstExpected = e;
      }
      ++r.mismatches;
      r.allClose = false;
    }
  });
  return r;
}

} // namespace fxkit
