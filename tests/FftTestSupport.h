#pragma once
/// \file What the FFT tests share: FftOpsTest (inference, reference kernels, formats) and
/// FftLoweringTest (the compiled backends) check the same complex graph and read complex
/// elements alike.

#include "ir/Tensor.h"

#include <complex>
#include <cstdint>
#include <span>
#include <vector>

namespace fxkit::testing {

/// The complex elements of `t` in row-major order.
inline std::vector<std::complex<double>> complexValues(const Tensor &t) {
  std::vector<std::complex<double>> out;
  Tensor::forEachIndex(t.sizes(), [&](std::span<const int64_t> index) {
    out.push_back(t.loadComplex(t.offsetOf(index)));
  });
  return out;
}

/// A graph through complex tensors and back, typed as inference types it: r2c, view_as_real, a
/// float op, view_as_complex, c2r (c2r(2 * r2c(x)) is 2x). FftOpsTest round-trips it through
/// the text formats; FftLoweringTest compiles it for every backend.
inline constexpr const char *kComplexFftGraph =
    "graph():\n"
    "    %x : Tensor \"f32[2, 8][8, 1]cpu\"[num_users=1] = placeholder[target=x]\n"
    "    %_fft_r2c : Tensor \"c64[2, 5][5, 1]cpu\"[num_users=1] = "
    "call_function[target=torch.ops.aten._fft_r2c.default](args = (%x, [1], 1, True), "
    "kwargs = {})\n"
    "    %view_as_real : Tensor \"f32[2, 5, 2][10, 2, 1]cpu\"[num_users=1] = "
    "call_function[target=torch.ops.aten.view_as_real.default](args = (%_fft_r2c,), kwargs = "
    "{})\n"
    "    %mul : Tensor \"f32[2, 5, 2][10, 2, 1]cpu\"[num_users=1] = "
    "call_function[target=torch.ops.aten.mul.Tensor](args = (%view_as_real, 2), kwargs = {})\n"
    "    %view_as_complex : Tensor \"c64[2, 5][5, 1]cpu\"[num_users=1] = "
    "call_function[target=torch.ops.aten.view_as_complex.default](args = (%mul,), kwargs = "
    "{})\n"
    "    %_fft_c2r : Tensor \"f32[2, 8][8, 1]cpu\"[num_users=1] = "
    "call_function[target=torch.ops.aten._fft_c2r.default](args = (%view_as_complex, [1], 1, "
    "8), kwargs = {})\n"
    "    return (_fft_c2r, _fft_r2c)\n";

} // namespace fxkit::testing
