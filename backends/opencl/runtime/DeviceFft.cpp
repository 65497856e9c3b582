/// \file The FFT family on the device: _fft_r2c, _fft_c2r and _fft_c2c as direct DFTs in double,
/// with the reference kernels' semantics and order of operations (backends/interp/FftKernels.cpp,
/// aten/src/ATen/native/mkl/SpectralOps.cpp): the input loaded into a dense complex double
/// work array, one transformed dimension after another (a work-item per element of the
/// transformed array sums its line with twiddles exp(+-2 pi i (jk mod n) / n)), then the
/// result stored through the output's strides times the normalization; c2r's last dimension
/// reads the Hermitian extension of its first last_dim_size / 2 + 1 bins. Built only on
/// devices with cl_khr_fp64. view_as_real and view_as_complex, which the lowering turns into
/// extern copies (complex tensors have no loop code), copy the float pairs on the device.
///
/// Tensors of up to 6 dimensions run as 6-d ones with unit leading sizes.

#include "backends/interp/FftNorm.h"
#include "backends/opencl/runtime/DeviceExternSupport.h"

#include "ir/Try.h"

#include <cmath>

namespace fxkit::opencl::device_externs {

namespace {

constexpr std::string_view kSource = R"CL(
/// Element e of a dense array of sizes n0..n5 as an element offset through strides s0..s5.
inline long fx_offset6(long e, long n0, long n1, long n2, long n3, long n4, long n5, long s0,
                       long s1, long s2, long s3, long s4, long s5) {
  long o = (e % n5) * s5;
  e /= n5;
  o += (e % n4) * s4;
  e /= n4;
  o += (e % n3) * s3;
  e /= n3;
  o += (e % n2) * s2;
  e /= n2;
  o += (e % n1) * s1;
  e /= n1;
  return o + e * s0;
}
#define FX_OFFSET6(e, n, s) fx_offset6(e, n##0, n##1, n##2, n##3, n##4, n##5, s##0, s##1, s##2, s##3, s##4, s##5)
/// The parameters the kernels take after their buffers: the element count, the 6 sizes n0..n5
/// and one view's strides s0..s5 (FX_FFT_SHAPE_S); with a second view's t0..t5 (FX_FFT_SHAPE_ST).
#define FX_FFT_SHAPE_S                                                                          \
    const long xnumel, const long n0, const long n1, const long n2, const long n3, const long n4, \
    const long n5, const long s0, const long s1, const long s2, const long s3, const long s4,    \
    const long s5
#define FX_FFT_SHAPE_ST                                                                         \
    FX_FFT_SHAPE_S, const long t0, const long t1, const long t2, const long t3, const long t4,    \
    const long t5

#ifdef FX_FP64
/// A complex element (cplx 1: complex64, 2: complex128) or a real one (cplx 0, dtype dt).
inline double2 fx_ldc(__global const uchar *p, long i, long dt, long cplx) {
  if (cplx == 1)
    return (double2)(((__global const float *)p)[2 * i], ((__global const float *)p)[2 * i + 1]);
  if (cplx == 2)
    return ((__global const double2 *)p)[i];
  return (double2)(fx_ldd(p, i, dt), 0.0);
}
inline void fx_stc(__global uchar *p, long i, long cplx, double2 v) {
  if (cplx == 1) {
    ((__global float *)p)[2 * i] = (float)v.x;
    ((__global float *)p)[2 * i + 1] = (float)v.y;
  } else {
    ((__global double2 *)p)[i] = v;
  }
}
inline double2 fx_cmul(double2 a, double2 b) {
  return (double2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
/// exp(sign 2 pi i m / n), the angle computed as the reference kernel does.
inline double2 fx_twiddle(long sign, long m, long n) {
  const double angle = (double)sign * 2.0 * M_PI * (double)m / (double)n;
  return (double2)(cos(angle), sin(angle));
}
#endif

// The input (real or complex) into the dense work array.
__kernel void FX_NAME(fx_fft_load)(
    __global const uchar *in_base, const ulong in_off, __global uchar *w_base, const ulong w_off,
    FX_FFT_SHAPE_S, const long dt, const long cplx) {
#ifdef FX_FP64
  __global const uchar *in = in_base + in_off;
  __global double2 *w = (__global double2 *)(w_base + w_off);
  for (long e = get_global_id(0); e < xnumel; e += get_global_size(0))
    w[e] = fx_ldc(in, FX_OFFSET6(e, n, s), dt, cplx);
#endif
}

// The twiddles exp(sign 2 pi i m / n), m < n, of one transformed dimension (as the reference
// kernel tabulates them).
__kernel void FX_NAME(fx_fft_twiddles)(__global uchar *t_base, const ulong t_off, const long xnumel,
                                       const long sign) {
#ifdef FX_FP64
  __global double2 *table = (__global double2 *)(t_base + t_off);
  for (long m = get_global_id(0); m < xnumel; m += get_global_size(0))
    table[m] = fx_twiddle(sign, m, xnumel);
#endif
}

// One transformed dimension (n points, `inner` elements apart): dst[o, k, i] = sum_j
// src[o, j, i] table[(jk) mod n].
__kernel void FX_NAME(fx_fft_dft)(
    __global const uchar *a_base, const ulong a_off, __global uchar *b_base, const ulong b_off,
    __global const uchar *t_base, const ulong t_off, const long xnumel, const long n,
    const long inner) {
#ifdef FX_FP64
  __global const double2 *src = (__global const double2 *)(a_base + a_off);
  __global double2 *dst = (__global double2 *)(b_base + b_off);
  __global const double2 *table = (__global const double2 *)(t_base + t_off);
  for (long e = get_global_id(0); e < xnumel; e += get_global_size(0)) {
    const long i = e % inner, k = (e / inner) % n, o = e / (inner * n);
    __global const double2 *line = src + o * n * inner + i;
    double2 sum = (double2)(0.0, 0.0);
    for (long j = 0, m = 0; j < n; ++j, m = m + k < n ? m + k : m + k - n)
      sum += fx_cmul(line[j * inner], table[m]);
    dst[e] = sum;
  }
#endif
}

// The same for a power of two n: a work-item per line, an iterative radix-2 FFT (the line
// copied in bit-reversed order, then log2 n rounds of butterflies), O(n log n) per line.
__kernel void FX_NAME(fx_fft_radix2)(
    __global const uchar *a_base, const ulong a_off, __global uchar *b_base, const ulong b_off,
    const long xnumel, const long n, const long inner, const long sign, const long logn) {
#ifdef FX_FP64
  __global const double2 *src = (__global const double2 *)(a_base + a_off);
  __global double2 *dst = (__global double2 *)(b_base + b_off);
  for (long e = get_global_id(0); e < xnumel; e += get_global_size(0)) {
    const long i = e % inner, o = e / inner;
    __global const double2 *in = src + o * n * inner + i;
    __global double2 *line = dst + o * n * inner + i;
    for (long j = 0; j < n; ++j) {
      long r = 0;
      for (long b = 0; b < logn; ++b)
        r |= ((j >> b) & 1) << (logn - 1 - b);
      line[r * inner] = in[j * inner];
    }
    for (long m = 2; m <= n; m <<= 1) {
      const long h = m >> 1;
      for (long k = 0; k < h; ++k) {
        const double2 w = fx_twiddle(sign, k, m);
        for (long start = 0; start < n; start += m) {
          const double2 u = line[(start + k) * inner];
          const double2 t = fx_cmul(w, line[(start + k + h) * inner]);
          line[(start + k) * inner] = u + t;
          line[(start + k + h) * inner] = u - t;
        }
      }
    }
  }
#endif
}

// The output's elements (sizes n, strides s) from the work array (dense strides t) times scale.
__kernel void FX_NAME(fx_fft_store)(
    __global const uchar *w_base, const ulong w_off, __global uchar *o_base, const ulong o_off,
    FX_FFT_SHAPE_ST, const long cplx, const long scale_bits) {
#ifdef FX_FP64
  __global const double2 *w = (__global const double2 *)(w_base + w_off);
  const double scale = as_double(scale_bits);
  for (long e = get_global_id(0); e < xnumel; e += get_global_size(0))
    fx_stc(o_base + o_off, FX_OFFSET6(e, n, s), cplx, w[FX_OFFSET6(e, n, t)] * scale);
#endif
}

// c2r's last dimension (dimension `last` of 6, `inner` work elements apart): the real part of
// the backward transform of the Hermitian extension of the first `halfBins` bins.
__kernel void FX_NAME(fx_fft_c2r)(
    __global const uchar *w_base, const ulong w_off, __global uchar *o_base, const ulong o_off,
    FX_FFT_SHAPE_ST, const long lastSize, const long last, const long halfBins, const long dt,
    const long scale_bits) {
#ifdef FX_FP64
  __global const double2 *w = (__global const double2 *)(w_base + w_off);
  const double scale = as_double(scale_bits);
  const long sizes[6] = {n0, n1, n2, n3, n4, n5}, ts[6] = {t0, t1, t2, t3, t4, t5};
  const long os[6] = {s0, s1, s2, s3, s4, s5};
  for (long e = get_global_id(0); e < xnumel; e += get_global_size(0)) {
    long r = e, base = 0, out = 0, m = 0;
    for (int d = 5; d >= 0; --d) {
      const long idx = r % sizes[d];
      r /= sizes[d];
      out += idx * os[d];
      if (d == last)
        m = idx;
      else
        base += idx * ts[d];
    }
    const long inner = ts[last];
    double sum = 0.0;
    for (long k = 0; k < lastSize; ++k) {
      double2 bin = k < halfBins ? w[base + k * inner] : w[base + (lastSize - k) * inner];
      if (k >= halfBins)
        bin.y = -bin.y;
      const double2 tw = fx_twiddle(1, (k * m) % lastSize, lastSize);
      sum += bin.x * tw.x - bin.y * tw.y;
    }
    fx_std(o_base + o_off, out, dt, sum * scale);
  }
#endif
}

// view_as_real / view_as_complex: float pairs copied between two views of the same sizes
// (strides in floats), bits unchanged.
__kernel void FX_NAME(fx_pair_copy)(
    __global const uchar *a_base, const ulong a_off, __global uchar *b_base, const ulong b_off,
    FX_FFT_SHAPE_ST, const long item) {
  for (long e = get_global_id(0); e < xnumel; e += get_global_size(0))
    fx_copy(b_base + b_off, FX_OFFSET6(e, n, t), a_base + a_off, FX_OFFSET6(e, n, s), item);
}
)CL";

constexpr size_t kMaxRank = 6;

bool isComplex(DType d) { return d == DType::Complex64 || d == DType::Complex128; }

/// 0 for a real dtype, 1 for complex64, 2 for complex128.
int64_t complexCode(DType d) { return d == DType::Complex64 ? 1 : d == DType::Complex128 ? 2 : 0; }

/// `values` padded in front to 6 entries with `fill`.
std::vector<int64_t> padded(std::vector<int64_t> values, int64_t fill) {
  while (values.size() < kMaxRank)
    values.insert(values.begin(), fill);
  return values;
}

std::vector<int64_t> denseStrides(const std::vector<int64_t> &sizes) {
  std::vector<int64_t> s(sizes.size(), 1);
  for (size_t i = sizes.size(); i-- > 1;)
    s[i - 1] = s[i] * sizes[i];
  return s;
}

void pushAll(std::vector<LaunchArg> &a, const std::vector<int64_t> &values) {
  for (int64_t v : values)
    a.push_back(longArg(v));
}

enum class Kind : uint8_t { R2c, C2r, C2c };

} // namespace

FamilySource fftSource() {
  return {kSource,
          {{"fx_fft_load", false},
           {"fx_fft_twiddles", false},
           {"fx_fft_dft", false},
           {"fx_fft_radix2", false},
           {"fx_fft_store", false},
           {"fx_fft_c2r", false},
           {"fx_pair_copy", false}},
          {Variant::Float, Variant::Double},
          ""};
}

Expected<bool> runFft(const Call &call, const LauncherFor &launcherFor, std::string_view which) {
  Kind kind = which == "_fft_r2c" ? Kind::R2c : which == "_fft_c2r" ? Kind::C2r : Kind::C2c;
  if (kind == Kind::C2c && which != "_fft_c2c")
    return false;
  const BoundArgs &args = call.args();
  auto self = call.input("self");
  auto out = call.output(0);
  auto dimList = args.intList("dim");
  auto normalization = args.integer("normalization");
  if (!self || !out || !dimList || !*dimList || !normalization || !call.device().hasFp64)
    return false;
  size_t rank = self->sizes.size();
  if (rank > kMaxRank || out->sizes.size() != rank || self->numel() == 0 || out->numel() == 0)
    return false;
  // Dtypes: r2c real -> complex, c2r complex -> real, c2c complex -> complex.
  bool inComplex = isComplex(self->dtype), outComplex = isComplex(out->dtype);
  if (inComplex != (kind != Kind::R2c) || outComplex != (kind != Kind::C2r) ||
      (!inComplex && !dtypeIsFloating(self->dtype)) ||
      (!outComplex && !dtypeIsFloating(out->dtype)))
    return false;
  std::vector<size_t> dims;
  for (int64_t d : **dimList) {
    int64_t w = d < 0 ? d + static_cast<int64_t>(rank) : d;
    if (w < 0 || w >= static_cast<int64_t>(rank))
      return false;
    dims.push_back(static_cast<size_t>(w));
  }
  if (dims.empty())
    return false;
  int sign = -1;
  int64_t lastDimSize = 0;
  if (kind == Kind::C2c) {
    auto forward = args.boolean("forward");
    if (!forward)
      return false;
    sign = *forward ? -1 : 1;
  } else if (kind == Kind::C2r) {
    auto l = call.integer("last_dim_size");
    if (!l || *l < 1 || self->sizes[dims.back()] < *l / 2 + 1 || out->sizes[dims.back()] != *l)
      return false;
    lastDimSize = *l;
    sign = 1;
  }
  // The work array has the input's sizes; the output takes its leading part (r2c's onesided
  // bins) or, for c2r, the same sizes but along the last transformed dim.
  for (size_t d = 0; d < rank; ++d)
    if (kind == Kind::C2r ? d != dims.back() && out->sizes[d] != self->sizes[d]
                          : out->sizes[d] > self->sizes[d])
      return false;
  std::vector<int64_t> workSizes = self->sizes, workStrides = denseStrides(workSizes);
  int64_t workNumel = self->numel();
  size_t bytes = static_cast<size_t>(workNumel) * 2 * sizeof(double);
  FXKIT_ASSIGN_OR_RETURN(auto workA, TempBuffer::create(call.context(), bytes));
  FXKIT_ASSIGN_OR_RETURN(auto workB, TempBuffer::create(call.context(), bytes));
  FXKIT_ASSIGN_OR_RETURN(auto launcher, launcherFor(Variant::Double));
  DeviceBuffer cur = workA.buffer(), next = workB.buffer();
  std::vector<LaunchArg> load = {bufferArg(*self, false), bufferArg(cur, true), longArg(workNumel)};
  pushAll(load, padded(self->sizes, 1));
  pushAll(load, padded(self->strides, 0));
  load.push_back(longArg(inComplex ? 0 : dtypeCode(self->dtype)));
  load.push_back(longArg(complexCode(self->dtype)));
  FXKIT_TRY(launcher.launch("fx_fft_load", load, workNumel, 1));
  int64_t n = kind == Kind::C2r ? lastDimSize : 1;
  size_t transformed = kind == Kind::C2r ? dims.size() - 1 : dims.size();
  for (size_t i = 0; i < transformed; ++i) {
    size_t d = dims[i];
    n *= self->sizes[d];
    if (self->sizes[d] <= 1)
      continue;
    int64_t size = self->sizes[d];
    std::vector<LaunchArg> dft = {bufferArg(cur, false), bufferArg(next, true)};
    if ((size & (size - 1)) == 0) {
      // A power of two: radix-2, a work-item per line.
      int64_t lines = workNumel / size, logn = 0;
      while ((int64_t{1} << logn) < size)
        ++logn;
      for (int64_t v : {lines, size, workStrides[d], int64_t{sign}, logn})
        dft.push_back(longArg(v));
      FXKIT_TRY(launcher.launch("fx_fft_radix2", dft, lines, 1));
    } else {
      auto table =
          TempBuffer::create(call.context(), static_cast<size_t>(size) * 2 * sizeof(double));
      FXKIT_TRY(table);
      std::vector<LaunchArg> tw = {bufferArg(table->buffer(), true), longArg(size), longArg(sign)};
      FXKIT_TRY(launcher.launch("fx_fft_twiddles", tw, size, 1));
      dft.push_back(bufferArg(table->buffer(), false));
      for (int64_t v : {workNumel, size, workStrides[d]})
        dft.push_back(longArg(v));
      FXKIT_TRY(launcher.launch("fx_fft_dft", dft, workNumel, 1));
    }
    std::swap(cur, next);
  }
  double scale = fftNormFactor(*normalization, n);
  std::vector<LaunchArg> store = {bufferArg(cur, false), bufferArg(*out, true),
                                  longArg(out->numel())};
  pushAll(store, padded(out->sizes, 1));
  pushAll(store, padded(out->strides, 0));
  pushAll(store, padded(workStrides, 0));
  if (kind == Kind::C2r) {
    store.push_back(longArg(lastDimSize));
    store.push_back(longArg(static_cast<int64_t>(dims.back() + kMaxRank - rank)));
    store.push_back(longArg(lastDimSize / 2 + 1));
    store.push_back(longArg(dtypeCode(out->dtype)));
    store.push_back(floatArg(scale, Variant::Double));
    FXKIT_TRY(launcher.launch("fx_fft_c2r", store, out->numel(), 1));
  } else {
    store.push_back(longArg(complexCode(out->dtype)));
    store.push_back(floatArg(scale, Variant::Double));
    FXKIT_TRY(launcher.launch("fx_fft_store", store, out->numel(), 1));
  }
  return true;
}

Expected<bool> runComplexView(const Call &call, const LauncherFor &launcherFor, bool toReal) {
  auto self = call.input("self");
  auto out = call.output(0);
  if (!self || !out || self->numel() == 0)
    return false;
  // Both as views of float pairs: the complex side gains a trailing dim of 2 (stride 1) and
  // doubles its strides.
  const Operand &cplx = toReal ? *self : *out, &real = toReal ? *out : *self;
  if (!isComplex(cplx.dtype) ||
      real.dtype != (cplx.dtype == DType::Complex128 ? DType::Float64 : DType::Float32) ||
      real.dim() != cplx.dim() + 1 || real.sizes.back() != 2 || real.strides.back() != 1)
    return false;
  std::vector<int64_t> sizes = cplx.sizes, cstrides;
  for (int64_t s : cplx.strides)
    cstrides.push_back(2 * s);
  sizes.push_back(2);
  cstrides.push_back(1);
  if (sizes != real.sizes || sizes.size() > kMaxRank)
    return false;
  // view_as_complex's own checks (even strides but the last) stay with the host kernel.
  if (!toReal)
    for (size_t d = 0; d + 1 < real.strides.size(); ++d)
      if (real.strides[d] % 2 != 0)
        return false;
  std::optional<Variant> variant = floatingVariant(real.dtype, call.device());
  if (!variant)
    return false;
  FXKIT_ASSIGN_OR_RETURN(auto launcher, launcherFor(*variant));
  std::vector<LaunchArg> a = {bufferArg(*self, false), bufferArg(*out, true),
                              longArg(real.numel())};
  pushAll(a, padded(sizes, 1));
  pushAll(a, padded(toReal ? cstrides : real.strides, 0));
  pushAll(a, padded(toReal ? real.strides : cstrides, 0));
  a.push_back(longArg(dtypeItemSize(real.dtype)));
  FXKIT_TRY(launcher.launch("fx_pair_copy", a, real.numel(), 1));
  return true;
}

} // namespace fxkit::opencl::device_externs
