#pragma once
/// \file Which input elements pooling and upsampling read, as PyTorch's CPU kernels pick them:
/// pooling windows, adaptive windows and the source indices of nearest and bilinear
/// upsampling. One home for the reference kernels (backends/interp/NnKernels.cpp) and the loop
/// lowering (transforms/lowering/PoolingLowering.cpp), so both read the same elements; the
/// source indices are computed in float as PyTorch does, which an index expression cannot
/// reproduce in general, so the lowering checks its closed forms against these.

#include "ir/Error.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace fxkit {

class BoundArgs;

/// A pooling window over the last nd dims.
struct PoolWindow {
  std::vector<int64_t> kernel, stride, padding, dilation;
  bool ceil = false;
};

/// Reads an int list argument by name (empty for None).
using IntListReader = std::function<Expected<std::vector<int64_t>>(std::string_view name)>;

/// kernel_size, stride (empty: the kernel), padding (empty: 0), dilation (1 where the schema
/// has none) and ceil_mode (false where it has none), each expanded to nd entries (a single
/// value stands for every dim). Kernel, stride and dilation must be positive. The lists are
/// read with `read` (the interpreter binds symbolic entries), else as constants.
Expected<PoolWindow> readPoolWindow(const BoundArgs &b, size_t nd,
                                    const IntListReader &read = nullptr);

/// Adaptive pooling's window along one dim: [floor(o * in / out), ceil((o + 1) * in / out))
/// (start_index / end_index of aten/src/ATen/native/AdaptivePooling.h).
inline std::pair<int64_t, int64_t> adaptiveRange(int64_t o, int64_t in, int64_t out) {
  int64_t start = (o / out) * in + ((o % out) * in) / out;
  int64_t end = 1 + ((o + 1) * in - 1) / out;
  return {start, end};
}

/// The `float[]? scale_factors` entry of upsampling for spatial dim d, if given and positive
/// (PyTorch then scales source indices by 1 / scale instead of in / out).
Expected<std::optional<double>> upsampleScale(const BoundArgs &b, size_t d);

/// upsample_nearest's source index (nearest_idx of aten/src/ATen/native/UpSample.h): the same
/// size and an exact doubling are exact; otherwise min(floor(o * scale), in - 1) in float, with
/// scale = 1 / scale_factor if given, else in / out.
inline float nearestScale(int64_t in, int64_t out, std::optional<double> scale) {
  return scale ? static_cast<float>(1.0 / *scale)
               : static_cast<float>(in) / static_cast<float>(out);
}
inline int64_t nearestSourceIndex(int64_t o, int64_t in, int64_t out, std::optional<double> scale) {
  if (out == in)
    return o;
  if (out == 2 * in)
    return o >> 1;
  float s = nearestScale(in, out, scale);
  return std::min(static_cast<int64_t>(std::floor(static_cast<float>(o) * s)), in - 1);
}

/// _upsample_nearest_exact's source index (nearest_neighbor_exact_compute_source_index, as CUDA
/// and Inductor's decomposition compute it): min(floor((o + 0.5) * scale), in - 1) in float.
inline int64_t nearestExactSourceIndex(int64_t o, int64_t in, int64_t out,
                                       std::optional<double> scale) {
  float s = nearestScale(in, out, scale); // no shortcut for equal sizes, as PyTorch has none

  return std::min(static_cast<int64_t>(std::floor((static_cast<float>(o) + 0.5f) * s)), in - 1);
}

/// area_pixel_compute_scale of linear upsampling, in the kernel's precision F (float; double
/// for float64 inputs).
template <typename F>
F linearScale(int64_t in, int64_t out, bool alignCorners, std::optional<double> scale) {
  if (alignCorners)
    return out > 1 ? static_cast<F>(in - 1) / static_cast<F>(out - 1) : F(0);
  return scale ? static_cast<F>(1.0 / *scale) : static_cast<F>(in) / static_cast<F>(out);
}

/// area_pixel_compute_source_index before linear modes clamp it at 0: s * o (align_corners) or
/// s * (o + 0.5) - 0.5, in F.
template <typename F> F areaPixelSource(F s, int64_t o, bool alignCorners) {
  return alignCorners ? s * static_cast<F>(o) : s * (static_cast<F>(o) + F(0.5)) - F(0.5);
}

/// One axis of linear interpolation: the two source positions and the weight of the second.
template <typename F> struct LinearSource {
  int64_t i0, i1;
  F lambda1;
};

/// area_pixel_compute_source_index and the taps of PyTorch's linear upsampling kernels, in F:
/// src = s * o (align_corners) or max(s * (o + 0.5) - 0.5, 0); i0 = (int)src, i1 = i0 + 1 up to
/// the last element, lambda1 = clamp(src - i0, 0, 1).
template <typename F>
LinearSource<F> linearSource(int64_t o, int64_t in, int64_t out, bool alignCorners,
                             std::optional<double> scale) {
  F src = areaPixelSource(linearScale<F>(in, out, alignCorners, scale), o, alignCorners);
  if (!alignCorners && src < 0)
    src = 0;
  int64_t i0 = static_cast<int64_t>(src);
  F lambda = std::min(std::max(src - static_cast<F>(i0), F(0)), F(1));
  return {i0, i0 + (i0 < in - 1 ? 1 : 0), lambda};
}

/// One axis of PyTorch's bicubic upsampling, in F: src = s * o (align_corners) or
/// s * (o + 0.5) - 0.5, not clamped (area_pixel_compute_source_index with cubic); i0 =
/// min(floor(src), in - 1) and t = clamp(src - i0, 0, 1) (guard_index_and_lambda); the taps are
/// i0 - 1 .. i0 + 2, each clamped into the input (upsample_get_value_bounded).
template <typename F> struct CubicSource {
  int64_t i0;
  F t;
};
template <typename F>
CubicSource<F> cubicSource(int64_t o, int64_t in, int64_t out, bool alignCorners,
                           std::optional<double> scale) {
  F src = areaPixelSource(linearScale<F>(in, out, alignCorners, scale), o, alignCorners);
  int64_t i0 = std::min(static_cast<int64_t>(std::floor(src)), in - 1);
  return {i0, std::min(std::max(src - static_cast<F>(i0), F(0)), F(1))};
}

} // namespace fxkit
