#pragma once
/// \file The fft_norm_mode factor of ATen's _fft_r2c/_fft_c2r/_fft_c2c, shared by the reference
/// kernels (FftKernels.cpp) and the OpenCL device externs (DeviceFft.cpp) so that both scale
/// by the same number.

#include <cmath>
#include <cstdint>

namespace fxkit {

/// The factor a transform of `n` elements is scaled by: 1/sqrt(n) for normalization 1, 1/n for 2,
/// 1 otherwise (0).
inline double fftNormFactor(int64_t normalization, int64_t n) {
  switch (normalization) {
  case 1:
    return 1.0 / std::sqrt(static_cast<double>(n));
  case 2:
    return 1.0 / static_cast<double>(n);
  default:
    return 1.0;
  }
}

} // namespace fxkit
