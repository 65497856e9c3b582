#pragma once
/// \file A CPU tensor value for the reference interpreter: a dtype, concrete sizes and element
/// strides (possibly non-contiguous or expanded with stride 0), a storage offset, and storage
/// shared between views. Also the float16/bfloat16 conversions, tolerance comparison and the
/// seeded random fill used for generated inputs.

#include "ir/DType.h"
#include "ir/Error.h"
#include "ir/TensorType.h"

#include <complex>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fxkit {

/// IEEE binary16 from float, round to nearest even; NaN becomes a quiet NaN (sign kept,
/// payload 0x200, as c10::Half does), overflow becomes infinity.
uint16_t floatToHalfBits(float value);
/// Exact: every binary16 value (subnormals, infinities, NaN payloads) is a float.
float halfBitsToFloat(uint16_t bits);
/// bfloat16 (the top half of a float) from float, round to nearest even; NaN becomes 0x7FC0
/// as in c10::BFloat16.
uint16_t floatToBFloat16Bits(float value);
/// Exact.
float bfloat16BitsToFloat(uint16_t bits);

/// `v` rounded as a store of floating dtype `dtype` rounds it (float16 and bfloat16 through
/// float, as c10 converts); for any other dtype, `v` unchanged.
double roundToFloating(double v, DType dtype);

/// The dtypes the interpreter computes with: float32, float16, bfloat16, float64, int64, int32
/// and bool.
bool dtypeIsComputable(DType dtype);
/// An error naming the dtype and `what` (e.g. "aten.add.Tensor") when it is not computable.
Status checkComputable(DType dtype, std::string_view what);

/// The most bytes one tensor may take: the machine's physical memory, or FXKIT_MAX_TENSOR_BYTES
/// where set. Allocations past it are refused with the figures (an error, not an abort or a
/// machine swapping itself to a halt).
uint64_t tensorByteLimit();

/// Bytes shared between a tensor and its views.
using TensorStorage = std::vector<std::byte>;

/// A strided view of shared CPU storage. Sizes and strides count elements, as in PyTorch.
/// Element access (get/set) requires a computable dtype (see dtypeIsComputable); everything
/// else (views, contiguous(), bytes) works for every dtype since it only moves bytes.
class Tensor {
public:
  /// A float32 tensor of shape [0]; real tensors come from the factories.
  Tensor();

  /// A contiguous tensor of zeros. Errors on negative sizes or a byte size that overflows.
  static Expected<Tensor> zeros(DType dtype, std::vector<int64_t> sizes);
  /// Same as zeros: storage is always initialized, so "empty" costs nothing more.
  static Expected<Tensor> empty(DType dtype, std::vector<int64_t> sizes) {
    return zeros(dtype, std::move(sizes));
  }
  /// A contiguous tensor copied from little-endian element bytes; bytes.size() must equal
  /// numel * itemsize.
  static Expected<Tensor> fromBytes(DType dtype, std::vector<int64_t> sizes,
                                    std::span<const std::byte> bytes);
  /// A contiguous tensor whose numel * itemsize little-endian element bytes `fill` writes in
  /// place: a reader fills storage straight from a file, after the sizes were checked against
  /// the tensor size limit and before any byte was read.
  static Expected<Tensor> fromFill(DType dtype, std::vector<int64_t> sizes,
                                   const std::function<Status(std::span<std::byte>)> &fill);
  /// A 0-d tensor holding value (converted as setDouble does).
  static Expected<Tensor> scalar(DType dtype, double value);
  /// A contiguous tensor of normal(0, 1) floats, or integers uniform in [intLow, intHigh], or
  /// fair bools, all drawn from std::mt19937_64 seeded with seed (deterministic per seed).
  static Expected<Tensor> random(DType dtype, std::vector<int64_t> sizes, uint64_t seed,
                                 int64_t intLow = 0, int64_t intHigh = 9);

  DType dtype() const { return dtype_; }
  const std::vector<int64_t> &sizes() const { return sizes_; }
  const std::vector<int64_t> &strides() const { return strides_; }
  int64_t size(size_t dim) const { return sizes_[dim]; }
  int64_t stride(size_t dim) const { return strides_[dim]; }
  int64_t dim() const { return static_cast<int64_t>(sizes_.size()); }
  int64_t storageOffset() const { return offset_; }
  int64_t numel() const;
  int itemSize() const { return dtypeItemSize(dtype_); }
  /// Row-major with no gaps (size-1 dimensions may have any stride, as in PyTorch).
  bool isContiguous() const;
  const std::shared_ptr<TensorStorage> &storage() const { return storage_; }
  /// True when both tensors view the same storage object.
  bool sharesStorageWith(const Tensor &other) const { return storage_ == other.storage_; }

  /// Storage element offset of a multi-index (one entry per dimension, each in range).
  int64_t offsetOf(std::span<const int64_t> index) const;

  /// Element at a multi-index as double (int64 beyond 2^53 loses precision; bool is 0 or 1).
  double getDouble(std::span<const int64_t> index) const { return loadDouble(offsetOf(index)); }
  /// Element as int64: exact for integer dtypes and bool; floats are truncated toward zero
  /// (saturating, NaN gives 0).
  int64_t getInt(std::span<const int64_t> index) const { return loadInt(offsetOf(index)); }
  bool getBool(std::span<const int64_t> index) const { return loadDouble(offsetOf(index)) != 0; }
  /// Stores value converted to the dtype: float16/bfloat16 round through float (as c10 does),
  /// integers truncate toward zero (saturating, NaN gives 0), bool is value != 0.
  void setDouble(std::span<const int64_t> index, double value) {
    storeDouble(offsetOf(index), value);
  }
  void setInt(std::span<const int64_t> index, int64_t value) { storeInt(offsetOf(index), value); }
  void setBool(std::span<const int64_t> index, bool value) {
    storeInt(offsetOf(index), value ? 1 : 0);
  }
  /// The same, addressed by storage element offset (offsetOf); for loops that step strides.
  double loadDouble(int64_t elementOffset) const;
  int64_t loadInt(int64_t elementOffset) const;
  void storeDouble(int64_t elementOffset, double value);
  void storeInt(int64_t elementOffset, int64_t value);
  /// A complex64/complex128 element as (real, imaginary) in double. Complex dtypes are not
  /// computable (loadDouble and the generic kernels refuse them rather than drop the imaginary
  /// part); the kernels that take complex values (FFTs, view_as_real, abs) read both parts
  /// here. Asserts on other dtypes.
  std::complex<double> loadComplex(int64_t elementOffset) const;
  /// Stores both parts, rounded through float for complex64.
  void storeComplex(int64_t elementOffset, std::complex<double> value);

  /// A new contiguous tensor with its own storage holding a copy of the elements (always
  /// copies, so the result may be written without touching this tensor's views).
  Tensor contiguous() const;
  /// A view of the same storage; errors on negative sizes, strides or offset, or elements
  /// beyond the storage.
  Expected<Tensor> asStrided(std::vector<int64_t> sizes, std::vector<int64_t> strides,
                             int64_t storageOffset) const;
  /// Copies src's elements (same sizes) into this view: element bytes when the dtypes agree
  /// (exact, and the only way for complex), integers exactly, else converted as storeDouble.
  void copyElementsFrom(const Tensor &src);
  /// A view of the same storage bytes read as `dtype` (sizes, strides and offset counted in
  /// `dtype`'s elements), checked as asStrided: view_as_real and view_as_complex.
  Expected<Tensor> reinterpretAs(DType dtype, std::vector<int64_t> sizes,
                                 std::vector<int64_t> strides, int64_t storageOffset) const;
  /// A contiguous copy converted to another computable dtype.
  Expected<Tensor> to(DType dtype) const;
  /// The element bytes of a contiguous tensor (contiguous() first otherwise).
  std::span<const std::byte> bytes() const;
  /// Same dtype and sizes and identical element bytes (strides may differ).
  bool bitwiseEqual(const Tensor &other) const;

  /// The IR type: dtype, constant sizes and strides, and the given device.
  TensorType typeOf(Device device = {}) const;

  /// Calls fn with every multi-index of sizes in row-major order (once, with an empty index,
  /// for 0-d; never for zero elements).
  static void forEachIndex(std::span<const int64_t> sizes,
                           const std::function<void(std::span<const int64_t>)> &fn);

private:
  Tensor(DType dtype, std::vector<int64_t> sizes, std::vector<int64_t> strides, int64_t offset,
         std::shared_ptr<TensorStorage> storage);
  std::byte *at(int64_t elementOffset) const;

  DType dtype_ = DType::Float32;
  std::vector<int64_t> sizes_;
  std::vector<int64_t> strides_;
  int64_t offset_ = 0;
  std::shared_ptr<TensorStorage> storage_;
};

/// Fills every element of t (views included) from std::mt19937_64 seeded with seed: normal(0,
/// 1) for floats, uniform integers in [intLow, intHigh], fair bools. Errors on a dtype that is
/// not computable or intLow > intHigh.
Status fillRandom(Tensor &t, uint64_t seed, int64_t intLow = 0, int64_t intHigh = 9);

/// The result of compareTensors.
struct TensorComparison {
  double maxAbsError = 0; ///< infinity where a NaN or infinity mismatches
  double maxRelError = 0; ///< |a - e| / |e|; infinity where e == 0 and a != e
  bool allClose = true;   ///< every element has |a - e| <= atol + rtol * |e|
  int64_t mismatches = 0;
  std::vector<int64_t> firstMismatch; ///< index of the first failing element
  double firstActual = 0, firstExpected = 0;
  /// The failing element with the largest absolute error (the first of equals; a NaN or
  /// infinity mismatch counts as infinite), for `fxkit bisect`'s report.
  std::vector<int64_t> worstMismatch;
  double worstActual = 0, worstExpected = 0;

  /// "max abs error 1e-3, max rel error 2e-3, 4 of 12 elements differ, first at [0, 1]: ..."
  std::string str() const;
};

/// Compares element-wise. Floats: NaN matches NaN only at the same place, infinities match
/// only the same infinity; integers and bools must be exact (rtol/atol ignored); complex
/// tensors compare part by part (as their [..., 2] float view). Errors when dtypes or sizes
/// differ or the dtype is neither computable nor complex.
Expected<TensorComparison> compareTensors(const Tensor &actual, const Tensor &expected, double rtol,
                                          double atol);

/// The tolerance (rtol, atol) of a dtype, as `run --check` and `fxkit bisect` compare: the
/// corpus's for float32 and float64 (1e-4 relative and absolute); float16 and bfloat16 get the
/// rounding error of one op on top (1e-3 and 1.6e-2 relative, 1e-3 absolute). Integers and
/// bools compare exactly (compareTensors ignores the tolerance).
std::pair<double, double> defaultTolerance(DType dtype);

} // namespace fxkit
