/// \file Reference kernels of the FFT family (ir/ops/FftOps.cpp): _fft_r2c, _fft_c2r, _fft_c2c
/// as direct DFTs in double (O(n^2) per transformed line, one dimension after another, with
/// exact twiddles exp(+-2 pi i (jk mod n) / n)), and the views view_as_real/view_as_complex,
/// which alias the input's storage.
///
/// Semantics of aten/src/ATen/native/mkl/SpectralOps.cpp: r2c is the forward DFT of a real
/// signal, keeping n/2 + 1 bins of the last transformed dim when onesided; c2c is forward
/// (exp(-...)) or backward (exp(+...)); c2r is a backward c2c over all but the last dim, then a
/// backward real transform of the last dim that reads its first last_dim_size / 2 + 1 bins as
/// a Hermitian half spectrum (the imaginary parts of bin 0 and, for even sizes, bin n/2 do not
/// matter). normalization scales by 1 (0), 1/sqrt(n) (1) or 1/n (2), n the product of the
/// signal sizes (the output's for c2r).

#include "backends/interp/FftNorm.h"
#include "backends/interp/KernelSupport.h"
#include "backends/interp/OpFamilyKernels.h"

#include <cmath>
#include <complex>
#include <numbers>

namespace fxkit {
namespace fft_kernels {
namespace {

using Complex = std::complex<double>;

/// A dense row-major complex array of `sizes`: the working copy every transform runs on.
struct Work {
  std::vector<int64_t> sizes;
  std::vector<Complex> data;

  int64_t stride(size_t d) const {
    int64_t s = 1;
    for (size_t i = d + 1; i < sizes.size(); ++i)
      s *= sizes[i];
    return s;
  }
};

/// The tensor's elements, real or complex, as complex doubles.
Work load(const Tensor &t) {
  Work w{t.sizes(), {}};
  w.data.reserve(static_cast<size_t>(t.numel()));
  const bool complex = t.dtype() == DType::Complex64 || t.dtype() == DType::Complex128;
  Tensor::forEachIndex(t.sizes(), [&](std::span<const int64_t> index) {
    int64_t off = t.offsetOf(index);
    w.data.push_back(complex ? t.loadComplex(off) : Complex(t.loadDouble(off), 0.0));
  });
  return w;
}

/// In place along dimension d: X[k] = sum_j x[j] exp(sign 2 pi i jk / n).
void dftAlong(Work &w, size_t d, int sign) {
  const int64_t n = w.sizes[d];
  if (n <= 1 || w.data.empty())
    return;
  std::vector<Complex> twiddle(static_cast<size_t>(n));
  for (int64_t m = 0; m < n; ++m) {
    double angle = sign * 2.0 * std::numbers::pi * static_cast<double>(m) / static_cast<double>(n);
    twiddle[m] = Complex(std::cos(angle), std::sin(angle));
  }
  const int64_t inner = w.stride(d);
  const int64_t outer = static_cast<int64_t>(w.data.size()) / (n * inner);
  std::vector<Complex> line(static_cast<size_t>(n)), result(static_cast<size_t>(n));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      Complex *base = w.data.data() + o * n * inner + i;
      for (int64_t j = 0; j < n; ++j)
        line[j] = base[j * inner];
      for (int64_t k = 0; k < n; ++k) {
        Complex sum = 0;
        for (int64_t j = 0; j < n; ++j)
          sum += line[j] * twiddle[(j * k) % n];
        result[k] = sum;
      }
      for (int64_t k = 0; k < n; ++k)
        base[k * inner] = result[k];
    }
}

/// The `dim` list wrapped (inference checked the range), each transformed size non-zero.
Expected<std::vector<size_t>> dimsOf(KernelContext &ctx, const Tensor &t) {
  FXKIT_ASSIGN_OR_RETURN(auto list, ctx.intList("dim"));
  std::vector<size_t> dims;
  for (int64_t d : list) {
    int64_t w = d < 0 ? d + t.dim() : d;
    if (w < 0 || w >= t.dim())
      return ctx.error("dim " + std::to_string(d) + " out of range for a " +
                       std::to_string(t.dim()) + "-d tensor");
    if (t.size(w) == 0)
      return ctx.error("Invalid number of data points (0) specified");
    dims.push_back(static_cast<size_t>(w));
  }
  return dims;
}

/// Stores w's elements at the output's indices (each within w's sizes) times `scale`.
void storeScaled(const Work &w, Tensor &out, double scale) {
  Tensor::forEachIndex(out.sizes(), [&](std::span<const int64_t> index) {
    int64_t flat = 0;
    for (size_t d = 0; d < index.size(); ++d)
      flat += index[d] * w.stride(d);
    out.storeComplex(out.offsetOf(index), w.data[flat] * scale);
  });
}

/// r2c and c2c: the transform along each of `dims`, forward (r2c, or c2c with forward true) or
/// backward, scaled. `forwardArg` names c2c's `forward` argument; r2c (nullptr) is forward.
Status transformKernel(KernelContext &ctx, const char *forwardArg) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dims, dimsOf(ctx, self));
  FXKIT_ASSIGN_OR_RETURN(auto normalization, ctx.integer("normalization"));
  bool forward = true;
  if (forwardArg) {
    FXKIT_ASSIGN_OR_RETURN(forward, ctx.boolean(forwardArg));
  }
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  Work w = load(self);
  int64_t n = 1;
  for (size_t d : dims) {
    dftAlong(w, d, forward ? -1 : 1);
    n *= self.size(static_cast<int64_t>(d));
  }
  storeScaled(w, out, fftNormFactor(normalization, n));
  ctx.result.v = std::move(out);
  return Status::ok();
}

Status fftR2cKernel(KernelContext &ctx) { return transformKernel(ctx, nullptr); }

Status fftC2cKernel(KernelContext &ctx) { return transformKernel(ctx, "forward"); }

Status fftC2rKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dims, dimsOf(ctx, self));
  FXKIT_ASSIGN_OR_RETURN(auto normalization, ctx.integer("normalization"));
  FXKIT_ASSIGN_OR_RETURN(auto lastDimSize, ctx.integer("last_dim_size"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  const size_t last = dims.back();
  const int64_t half = lastDimSize / 2 + 1;
  if (self.size(static_cast<int64_t>(last)) < half)
    return ctx.error("last_dim_size " + std::to_string(lastDimSize) + " needs " +
                     std::to_string(half) + " bins along dim " + std::to_string(last) +
                     ", the input has " + std::to_string(self.size(static_cast<int64_t>(last))));
  Work w = load(self);
  int64_t n = lastDimSize;
  for (size_t i = 0; i + 1 < dims.size(); ++i) {
    dftAlong(w, dims[i], 1);
    n *= self.size(static_cast<int64_t>(dims[i]));
  }
  // The Hermitian extension of the first `half` bins, transformed backward; the real part.
  std::vector<Complex> twiddle(static_cast<size_t>(lastDimSize));
  for (int64_t m = 0; m < lastDimSize; ++m) {
    double angle = 2.0 * std::numbers::pi * static_cast<double>(m) / lastDimSize;
    twiddle[m] = Complex(std::cos(angle), std::sin(angle));
  }
  const double scale = fftNormFactor(normalization, n);
  const int64_t inner = w.stride(last);
  std::vector<Complex> spectrum(static_cast<size_t>(lastDimSize));
  Tensor::forEachIndex(out.sizes(), [&](std::span<const int64_t> index) {
    int64_t base = 0;
    for (size_t d = 0; d < index.size(); ++d)
      if (d != last)
        base += index[d] * w.stride(d);
    for (int64_t k = 0; k < lastDimSize; ++k)
      spectrum[k] =
          k < half ? w.data[base + k * inner] : std::conj(w.data[base + (lastDimSize - k) * inner]);
    const int64_t m = index[last];
    Complex sum = 0;
    for (int64_t k = 0; k < lastDimSize; ++k)
      sum += spectrum[k] * twiddle[(k * m) % lastDimSize];
    out.storeDouble(out.offsetOf(index), sum.real() * scale);
  });
  ctx.result.v = std::move(out);
  return Status::ok();
}

Status viewAsRealKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  std::vector<int64_t> sizes = self.sizes(), strides;
  sizes.push_back(2);
  for (int64_t s : self.strides())
    strides.push_back(s * 2);
  strides.push_back(1);
  DType real = self.dtype() == DType::Complex128 ? DType::Float64 : DType::Float32;
  FXKIT_ASSIGN_OR_RETURN(auto view,
                         self.reinterpretAs(real, sizes, strides, self.storageOffset() * 2));
  ctx.result.v = std::move(view);
  return Status::ok();
}

Status viewAsComplexKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  if (self.storageOffset() % 2 != 0)
    return ctx.error("Tensor must have a storage_offset divisible by 2");
  std::vector<int64_t> sizes(self.sizes().begin(), self.sizes().end() - 1), strides;
  for (int64_t d = 0; d + 1 < self.dim(); ++d) {
    if (self.stride(d) % 2 != 0)
      return ctx.error("Tensor must have a stride divisible by 2 for all but last dimension");
    strides.push_back(self.stride(d) / 2);
  }
  DType complex = self.dtype() == DType::Float64 ? DType::Complex128 : DType::Complex64;
  FXKIT_ASSIGN_OR_RETURN(auto view,
                         self.reinterpretAs(complex, sizes, strides, self.storageOffset() / 2));
  ctx.result.v = std::move(view);
  return Status::ok();
}

} // namespace
} // namespace fft_kernels

void registerFftKernels() {
  using namespace fft_kernels;
  static const std::pair<std::string_view, KernelFn> table[] = {
      {"torch.ops.aten._fft_r2c.default", fftR2cKernel},
      {"torch.ops.aten._fft_c2r.default", fftC2rKernel},
      {"torch.ops.aten._fft_c2c.default", fftC2cKernel},
      {"torch.ops.aten.view_as_real.default", viewAsRealKernel},
      {"torch.ops.aten.view_as_complex.default", viewAsComplexKernel},
  };
  kernels::registerKernelList(table);
}

} // namespace fxkit
