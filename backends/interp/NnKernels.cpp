/// \file Reference kernels of the Nn op family (ir/ops/NnOps.cpp): pooling (max, average and
/// adaptive average over any number of spatial dims, forward and backward, and Inductor's
/// low-memory max-pool prims), convolution backward, upsampling, grid sampling, col2im,
/// distances and embedding bags. Each follows PyTorch's CPU kernel (its windows, NaN rules and
/// tie breaking); floats are computed in double and rounded once when stored, gradients
/// accumulate in double.

#include "backends/interp/KernelSupport.h"
#include "backends/interp/OpFamilyKernels.h"
#include "ir/Try.h"
#include "ir/ops/PoolingWindows.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

namespace fxkit {
namespace nn_kernels {

namespace {

using kernels::sizesStr;

// ---- Addressing ----

/// Row-major strides of a shape.
std::vector<int64_t> denseStrides(std::span<const int64_t> sizes) {
  std::vector<int64_t> strides(sizes.size(), 1);
  for (size_t i = sizes.size(); i-- > 1;)
    strides[i - 1] = strides[i] * sizes[i];
  return strides;
}

int64_t product(std::span<const int64_t> v) {
  int64_t p = 1;
  for (int64_t x : v)
    p *= x;
  return p;
}

/// Python's floor division and modulo (b > 0).
int64_t floorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
int64_t floorMod(int64_t a, int64_t b) { return a - floorDiv(a, b) * b; }

/// Steps a row-major multi-index over `sizes`; false after the last one.
bool nextIndex(std::vector<int64_t> &index, std::span<const int64_t> sizes) {
  for (size_t d = index.size(); d-- > 0;) {
    if (++index[d] < sizes[d])
      return true;
    index[d] = 0;
  }
  return false;
}

/// Calls fn(index) for every multi-index of `sizes` in row-major order (none if a size is 0;
/// once, with an empty index, for no dims).
template <typename Fn> void forEach(std::span<const int64_t> sizes, Fn fn) {
  if (std::any_of(sizes.begin(), sizes.end(), [](int64_t s) { return s <= 0; }))
    return;
  std::vector<int64_t> index(sizes.size(), 0);
  do
    fn(std::span<const int64_t>(index));
  while (nextIndex(index, sizes));
}

/// The last `nd` sizes of a tensor (its spatial dims).
std::vector<int64_t> spatialSizes(const Tensor &t, size_t nd) {
  return {t.sizes().end() - static_cast<int64_t>(nd), t.sizes().end()};
}

/// Storage offset of spatial position `pos` relative to the plane's base.
int64_t spatialOffset(const Tensor &t, std::span<const int64_t> pos) {
  int64_t offset = 0, lead = t.dim() - static_cast<int64_t>(pos.size());
  for (size_t d = 0; d < pos.size(); ++d)
    offset += pos[d] * t.stride(lead + d);
  return offset;
}

/// Calls fn(bases, plane) for every index of the leading (non-spatial) dims that `tensors`
/// share, with each tensor's storage offset of that plane and the plane's row-major number.
template <typename Fn>
void forEachPlane(std::initializer_list<const Tensor *> tensors, size_t nd, Fn fn) {
  const Tensor &first = **tensors.begin();
  std::vector<int64_t> lead(first.sizes().begin(), first.sizes().end() - static_cast<int64_t>(nd));
  std::vector<int64_t> bases(tensors.size());
  int64_t plane = 0;
  forEach(lead, [&](std::span<const int64_t> index) {
    size_t k = 0;
    for (const Tensor *t : tensors) {
      bases[k] = t->storageOffset();
      for (size_t d = 0; d < index.size(); ++d)
        bases[k] += index[d] * t->stride(d);
      ++k;
    }
    fn(std::span<const int64_t>(bases), plane++);
  });
}

/// A double buffer in the row-major order of a shape: gradients accumulate here and are
/// stored (rounded once) into a tensor of that shape, whatever its strides.
struct Accumulator {
  std::vector<int64_t> sizes, strides;
  std::vector<double> values;
  explicit Accumulator(std::span<const int64_t> shape)
      : sizes(shape.begin(), shape.end()), strides(denseStrides(shape)),
        values(static_cast<size_t>(product(shape)), 0.0) {}
  void storeInto(Tensor &t) const {
    size_t i = 0;
    Tensor::forEachIndex(t.sizes(),
                         [&](std::span<const int64_t> index) { t.setDouble(index, values[i++]); });
  }
};

/// Reads a tensor into a row-major double buffer.
std::vector<double> denseValues(const Tensor &t) {
  std::vector<double> out;
  out.reserve(static_cast<size_t>(t.numel()));
  Tensor::forEachIndex(t.sizes(),
                       [&](std::span<const int64_t> index) { out.push_back(t.getDouble(index)); });
  return out;
}

/// Elements as double (floating dtypes) or exactly as int64 (integers and bool).
template <typename T> T load(const Tensor &t, int64_t offset) {
  if constexpr (std::is_floating_point_v<T>)
    return t.loadDouble(offset);
  else
    return t.loadInt(offset);
}
template <typename T> void store(Tensor &t, int64_t offset, T value) {
  if constexpr (std::is_floating_point_v<T>)
    t.storeDouble(offset, value);
  else
    t.storeInt(offset, value);
}

/// Copies one element without rounding through double for integers.
void copyElement(Tensor &dst, int64_t dstOffset, const Tensor &src, int64_t srcOffset) {
  if (dtypeIsFloating(src.dtype()))
    dst.storeDouble(dstOffset, src.loadDouble(srcOffset));
  else
    dst.storeInt(dstOffset, src.loadInt(srcOffset));
}

Status requireRank(const KernelContext &ctx, const Tensor &t, std::string_view name, int64_t low,
                   int64_t high) {
  if (t.dim() >= low && t.dim() <= high)
    return Status::ok();
  return ctx.error(std::string(name) + " must have " + std::to_string(low) +
                   (low == high ? "" : " to " + std::to_string(high)) + " dims, got " +
                   sizesStr(t.sizes()));
}

/// The same leading (non-spatial) sizes: inference guarantees them; the check keeps a kernel
/// called on mismatched buffers from reading out of range.
Status requireSameLead(const KernelContext &ctx, const Tensor &a, const Tensor &b, size_t nd) {
  if (a.dim() == b.dim() && a.dim() >= static_cast<int64_t>(nd) &&
      std::equal(a.sizes().begin(), a.sizes().end() - static_cast<int64_t>(nd), b.sizes().begin()))
    return Status::ok();
  return ctx.error("tensors " + sizesStr(a.sizes()) + " and " + sizesStr(b.sizes()) +
                   " differ in their leading dims");
}

// ---- Pooling windows ----

/// A window list expanded to nd entries: a single value repeats; empty gives `fill`.
Expected<std::vector<int64_t>> spatialArg(const KernelContext &ctx, std::string_view name,
                                          size_t nd, const std::vector<int64_t> &fill) {
  FXKIT_ASSIGN_OR_RETURN(auto v, ctx.intList(name));
  if (v.empty())
    return fill;
  if (v.size() == 1)
    return std::vector<int64_t>(nd, v[0]);
  if (v.size() != nd)
    return ctx.error(std::string(name) + " has " + std::to_string(v.size()) + " entries for " +
                     std::to_string(nd) + " spatial dims");
  return v;
}

using Window = PoolWindow;

/// The window arguments of a pooling op (see readPoolWindow).
Expected<Window> readWindow(const KernelContext &ctx, size_t nd) {
  return readPoolWindow(ctx.args, nd, [&ctx](std::string_view name) { return ctx.intList(name); });
}

/// The taps of a max-pooling window inside the input along each dim: taps k in
/// [first, first + count) read position base + k * dilation (PyTorch skips the padding).
struct Taps {
  std::vector<int64_t> base, first, count;
};

void clipTaps(const Window &w, std::span<const int64_t> in, std::span<const int64_t> o, Taps &t) {
  size_t nd = in.size();
  t.base.resize(nd);
  t.first.resize(nd);
  t.count.resize(nd);
  for (size_t d = 0; d < nd; ++d) {
    int64_t base = o[d] * w.stride[d] - w.padding[d], dil = w.dilation[d];
    int64_t first = base >= 0 ? 0 : (-base + dil - 1) / dil;
    int64_t last = in[d] - base <= 0 ? 0 : std::min(w.kernel[d], (in[d] - base + dil - 1) / dil);
    t.base[d] = base;
    t.first[d] = first;
    t.count[d] = std::max<int64_t>(0, last - first);
  }
}

/// The average-pooling window of output position `o`, clipped to the input, and PyTorch's
/// divisor of its sum: divisor_override, else the window counted with its padding
/// (count_include_pad), else the elements inside. Empty when no element is inside.
struct AvgWindow {
  std::vector<int64_t> start, size;
  int64_t divisor = 1;
  bool empty = false;
};

AvgWindow avgWindow(const Window &w, std::span<const int64_t> in, std::span<const int64_t> o,
                    bool includePad, std::optional<int64_t> divisorOverride) {
  AvgWindow a;
  int64_t poolSize = 1, inside = 1;
  for (size_t d = 0; d < in.size(); ++d) {
    int64_t start = o[d] * w.stride[d] - w.padding[d];
    int64_t end = std::min(start + w.kernel[d], in[d] + w.padding[d]);
    poolSize *= end - start;
    start = std::max<int64_t>(start, 0);
    end = std::min(end, in[d]);
    a.empty = a.empty || start >= end;
    a.start.push_back(start);
    a.size.push_back(std::max<int64_t>(0, end - start));
    inside *= std::max<int64_t>(0, end - start);
  }
  a.divisor = divisorOverride ? *divisorOverride : includePad ? poolSize : inside;
  return a;
}

AvgWindow adaptiveWindow(std::span<const int64_t> in, std::span<const int64_t> out,
                         std::span<const int64_t> o) {
  AvgWindow a;
  for (size_t d = 0; d < in.size(); ++d) {
    auto [start, end] = adaptiveRange(o[d], in[d], out[d]);
    a.start.push_back(start);
    a.size.push_back(end - start);
    a.divisor *= end - start;
  }
  return a;
}

/// Calls fn(storageOffset relative to the plane, positionIndex) for each element of a window.
template <typename Fn> void forEachInWindow(const Tensor &t, const AvgWindow &w, Fn fn) {
  std::vector<int64_t> pos(w.start.size());
  forEach(w.size, [&](std::span<const int64_t> k) {
    for (size_t d = 0; d < pos.size(); ++d)
      pos[d] = w.start[d] + k[d];
    fn(spatialOffset(t, pos), std::span<const int64_t>(pos));
  });
}

// ---- Max pooling ----

/// The maximum of one clipped window of the plane at `base` (the first of equal maxima; a NaN
/// wins, the last NaN, as PyTorch's kernels compare `val > max || isnan(val)`), and its tap.
/// With no tap inside, -inf (the lowest integer) at the first tap.
template <typename T>
T windowMax(const Tensor &self, int64_t base, const Window &w, const Taps &taps,
            std::vector<int64_t> &bestTap) {
  size_t nd = taps.base.size();
  T best = std::numeric_limits<T>::lowest();
  if constexpr (std::is_floating_point_v<T>)
    best = -std::numeric_limits<T>::infinity();
  bestTap = taps.first;
  std::vector<int64_t> pos(nd);
  forEach(taps.count, [&](std::span<const int64_t> k) {
    for (size_t d = 0; d < nd; ++d)
      pos[d] = taps.base[d] + (taps.first[d] + k[d]) * w.dilation[d];
    T v = load<T>(self, base + spatialOffset(self, pos));
    bool nan = false;
    if constexpr (std::is_floating_point_v<T>)
      nan = std::isnan(v);
    if (v > best || nan) {
      best = v;
      for (size_t d = 0; d < nd; ++d)
        bestTap[d] = taps.first[d] + k[d];
    }
  });
  return best;
}

/// Max pooling over the last nd dims: each window's maximum and where it was: its index within
/// the input plane (max_pool*_with_indices) or its offset within the window (the low-memory
/// prim's int8 offsets).
Status maxPool(KernelContext &ctx, size_t nd, bool offsets) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto w, readWindow(ctx, nd));
  FXKIT_ASSIGN_OR_RETURN(auto values, ctx.allocateOutput(0));
  FXKIT_ASSIGN_OR_RETURN(auto where, ctx.allocateOutput(1));
  if (self.dtype() == DType::Bool)
    return ctx.error("max pooling is not implemented for bool tensors");
  FXKIT_TRY(requireSameLead(ctx, self, values, nd));
  std::vector<int64_t> in = spatialSizes(self, nd), out = spatialSizes(values, nd);
  std::vector<int64_t> inDense = denseStrides(in), kernelDense = denseStrides(w.kernel);
  auto run = [&](auto zero) {
    using T = decltype(zero);
    Taps taps;
    std::vector<int64_t> tap(nd);
    forEachPlane({&self, &values, &where}, nd, [&](std::span<const int64_t> base, int64_t) {
      forEach(out, [&](std::span<const int64_t> o) {
        clipTaps(w, in, o, taps);
        T best = windowMax<T>(self, base[0], w, taps, tap);
        int64_t flat = 0;
        for (size_t d = 0; d < nd; ++d)
          flat += offsets ? tap[d] * kernelDense[d]
                          : (taps.base[d] + tap[d] * w.dilation[d]) * inDense[d];
        store<T>(values, base[1] + spatialOffset(values, o), best);
        where.storeInt(base[2] + spatialOffset(where, o), flat);
      });
    });
  };
  if (dtypeIsFloating(self.dtype()))
    run(0.0);
  else
    run(int64_t{0});
  ctx.result.v = std::vector<std::optional<Tensor>>{std::move(values), std::move(where)};
  return Status::ok();
}

/// adaptive_max_pool{2,3}d: each adaptive window's maximum (windowMax, as PyTorch's kernels
/// compare) and its position flattened over the input plane or volume.
template <size_t nd> Status adaptiveMaxPoolKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto values, ctx.allocateOutput(0));
  FXKIT_ASSIGN_OR_RETURN(auto where, ctx.allocateOutput(1));
  FXKIT_TRY(requireSameLead(ctx, self, values, nd));
  if (!dtypeIsFloating(self.dtype()))
    return ctx.error("adaptive max pooling is implemented for floating-point tensors only");
  std::vector<int64_t> in = spatialSizes(self, nd), out = spatialSizes(values, nd);
  std::vector<int64_t> inDense = denseStrides(in);
  Window w;
  w.dilation.assign(nd, 1);
  Taps taps{std::vector<int64_t>(nd), std::vector<int64_t>(nd), std::vector<int64_t>(nd)};
  std::vector<int64_t> tap(nd);
  forEachPlane({&self, &values, &where}, nd, [&](std::span<const int64_t> base, int64_t) {
    forEach(out, [&](std::span<const int64_t> o) {
      for (size_t d = 0; d < nd; ++d) {
        auto [start, end] = adaptiveRange(o[d], in[d], out[d]);
        taps.base[d] = start;
        taps.count[d] = end - start;
      }
      double best = windowMax<double>(self, base[0], w, taps, tap);
      int64_t flat = 0;
      for (size_t d = 0; d < nd; ++d)
        flat += (taps.base[d] + tap[d]) * inDense[d];
      store<double>(values, base[1] + spatialOffset(values, o), best);
      where.storeInt(base[2] + spatialOffset(where, o), flat);
    });
  });
  ctx.result.v = std::vector<std::optional<Tensor>>{std::move(values), std::move(where)};
  return Status::ok();
}

Status maxPool2dWithIndicesKernel(KernelContext &ctx) { return maxPool(ctx, 2, false); }
Status maxPool3dWithIndicesKernel(KernelContext &ctx) { return maxPool(ctx, 3, false); }

Status lowMemoryMaxPoolWithOffsetsKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto kernel, ctx.intList("kernel_size"));
  return maxPool(ctx, kernel.size(), true);
}

/// prims._low_memory_max_pool_offsets_to_indices: offset -> window tap -> input position
/// (o * stride - padding + tap * dilation per dim) -> index flattened over input_size.
Status lowMemoryOffsetsToIndicesKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto offsets, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto kernel, ctx.intList("kernel_size"));
  FXKIT_ASSIGN_OR_RETURN(auto inputSize, ctx.intList("input_size"));
  FXKIT_ASSIGN_OR_RETURN(auto stride, ctx.intList("stride"));
  FXKIT_ASSIGN_OR_RETURN(auto padding, ctx.intList("padding"));
  FXKIT_ASSIGN_OR_RETURN(auto dilation, ctx.intList("dilation"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  size_t nd = kernel.size();
  if (offsets.dim() < static_cast<int64_t>(nd) || inputSize.size() < nd || stride.size() < nd ||
      padding.size() < nd || dilation.size() < nd)
    return ctx.error("offsets " + sizesStr(offsets.sizes()) + " and the window lists must cover " +
                     std::to_string(nd) + " spatial dims");
  std::vector<int64_t> kernelDense = denseStrides(kernel);
  int64_t lead = offsets.dim() - static_cast<int64_t>(nd);
  Tensor::forEachIndex(offsets.sizes(), [&](std::span<const int64_t> index) {
    int64_t offset = offsets.getInt(index), flat = 0;
    for (size_t d = 0; d < nd; ++d) {
      // _flattened_index_to_nd, with Python's floor division and modulo.
      int64_t rest = d == 0 ? offset : floorMod(offset, kernelDense[d - 1]);
      int64_t tap = floorDiv(rest, kernelDense[d]);
      int64_t pos = index[lead + d] * stride[d] - padding[d] + tap * dilation[d];
      flat = d == 0 ? pos : flat * inputSize[d] + pos;
    }
    out.setInt(index, flat);
  });
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// max_pool2d_with_indices_backward: each output gradient goes to the input element its index
/// names (indices flattened within the plane); gradients of one element add up.
Status maxPool2dBackwardKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto grad, ctx.tensor("grad_output"));
  FXKIT_ASSIGN_OR_RETURN(auto indices, ctx.tensor("indices"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  const size_t nd = 2;
  FXKIT_TRY(requireSameLead(ctx, grad, out, nd));
  if (indices.sizes() != grad.sizes())
    return ctx.error("indices " + sizesStr(indices.sizes()) + " must have grad_output's sizes " +
                     sizesStr(grad.sizes()));
  Accumulator acc(out.sizes());
  int64_t planeSize = product(spatialSizes(out, nd));
  std::vector<int64_t> outSpatial = spatialSizes(grad, nd);
  std::optional<Error> failure;
  forEachPlane({&grad, &indices}, nd, [&](std::span<const int64_t> base, int64_t plane) {
    forEach(outSpatial, [&](std::span<const int64_t> o) {
      int64_t index = indices.loadInt(base[1] + spatialOffset(indices, o));
      if (index < 0 || index >= planeSize) {
        if (!failure)
          failure = ctx.error("max_pool2d_with_indices_backward: index " + std::to_string(index) +
                              " out of range for an input plane of " + std::to_string(planeSize) +
                              " elements");
        return;
      }
      acc.values[plane * planeSize + index] += grad.loadDouble(base[0] + spatialOffset(grad, o));
    });
  });
  if (failure)
    return *failure;
  acc.storeInto(out);
  ctx.result.v = std::move(out);
  return Status::ok();
}

// ---- Average pooling ----

/// The trailing arguments of avg_pool: count_include_pad and divisor_override (absent from
/// avg_pool1d's schema: none).
struct AvgArgs {
  bool includePad = true;
  std::optional<int64_t> divisor;
};

Expected<AvgArgs> readAvgArgs(const KernelContext &ctx) {
  AvgArgs a;
  FXKIT_ASSIGN_OR_RETURN(auto includePad, ctx.boolean("count_include_pad"));
  a.includePad = includePad;
  if (ctx.args.op().schema.indexOf("divisor_override") >= 0) {
    FXKIT_ASSIGN_OR_RETURN(auto divisor, ctx.optionalInteger("divisor_override"));
    a.divisor = divisor;
  }
  if (a.divisor && *a.divisor == 0)
    return ctx.error("divisor must be not zero");
  return a;
}

/// The mean of each output element's window, window(in, outSpatial, o), over the window's
/// divisor: integer tensors sum exactly and divide with C++'s truncation, as PyTorch's integer
/// kernels do; an empty window gives 0. `what` names the pooling in the bool refusal.
template <typename WindowFn>
Status meanPoolInto(KernelContext &ctx, size_t nd, const Tensor &self, Tensor out, const char *what,
                    WindowFn &&window) {
  if (self.dtype() == DType::Bool)
    return ctx.error(std::string(what) + " is not implemented for bool tensors");
  FXKIT_TRY(requireSameLead(ctx, self, out, nd));
  std::vector<int64_t> in = spatialSizes(self, nd), outSpatial = spatialSizes(out, nd);
  auto run = [&](auto zero) {
    using T = decltype(zero);
    forEachPlane({&self, &out}, nd, [&](std::span<const int64_t> base, int64_t) {
      forEach(outSpatial, [&](std::span<const int64_t> o) {
        AvgWindow a = window(in, outSpatial, o);
        T sum = 0;
        if (!a.empty)
          forEachInWindow(self, a, [&](int64_t offset, std::span<const int64_t>) {
            sum += load<T>(self, base[0] + offset);
          });
        store<T>(out, base[1] + spatialOffset(out, o),
                 a.empty ? T(0) : sum / static_cast<T>(a.divisor));
      });
    });
  };
  if (dtypeIsFloating(self.dtype()))
    run(0.0);
  else
    run(int64_t{0});
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// avg_pool{1,2,3}d: the mean of each window (with count_include_pad and divisor_override).
Status avgPoolKernel(KernelContext &ctx, size_t nd) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto w, readWindow(ctx, nd));
  FXKIT_ASSIGN_OR_RETURN(auto args, readAvgArgs(ctx));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  return meanPoolInto(ctx, nd, self, std::move(out), "average pooling",
                      [&](const std::vector<int64_t> &in, const std::vector<int64_t> &,
                          std::span<const int64_t> o) {
                        return avgWindow(w, in, o, args.includePad, args.divisor);
                      });
}

Status avgPool1dKernel(KernelContext &ctx) { return avgPoolKernel(ctx, 1); }
Status avgPool2dKernel(KernelContext &ctx) { return avgPoolKernel(ctx, 2); }
Status avgPool3dKernel(KernelContext &ctx) { return avgPoolKernel(ctx, 3); }

/// The backward of a 2-d average pooling into `out` (the input's gradient): each output
/// gradient, over its window's divisor, spreads over the window's elements inside the input.
/// window(in, outSpatial, o) is the window of output position o (empty windows spread nothing).
template <typename WindowFn>
Status avgPool2dBackwardInto(KernelContext &ctx, const Tensor &grad, Tensor out,
                             WindowFn &&window) {
  FXKIT_TRY(requireSameLead(ctx, grad, out, 2));
  std::vector<int64_t> in = spatialSizes(out, 2), outSpatial = spatialSizes(grad, 2);
  Accumulator acc(out.sizes());
  int64_t planeSize = product(in);
  forEachPlane({&grad}, 2, [&](std::span<const int64_t> base, int64_t plane) {
    forEach(outSpatial, [&](std::span<const int64_t> o) {
      AvgWindow a = window(in, outSpatial, o);
      if (a.empty)
        return;
      double g = grad.loadDouble(base[0] + spatialOffset(grad, o)) / static_cast<double>(a.divisor);
      forEach(a.size, [&](std::span<const int64_t> k) {
        acc.values[plane * planeSize + (a.start[0] + k[0]) * in[1] + a.start[1] + k[1]] += g;
      });
    });
  });
  acc.storeInto(out);
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// avg_pool2d_backward: each output gradient, over its window's divisor, spreads over the
/// window's elements inside the input.
Status avgPool2dBackwardKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto grad, ctx.tensor("grad_output"));
  FXKIT_ASSIGN_OR_RETURN(auto w, readWindow(ctx, 2));
  FXKIT_ASSIGN_OR_RETURN(auto args, readAvgArgs(ctx));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  return avgPool2dBackwardInto(ctx, grad, std::move(out),
                               [&](const std::vector<int64_t> &in, const std::vector<int64_t> &,
                                   std::span<const int64_t> o) {
                                 return avgWindow(w, in, o, args.includePad, args.divisor);
                               });
}

// ---- Adaptive average pooling ----

/// adaptive_avg_pool{1,2,3}d: the mean of each output element's adaptive window (integers
/// divide with truncation).
Status adaptiveAvgPoolKernel(KernelContext &ctx, size_t nd) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  return meanPoolInto(ctx, nd, self, std::move(out), "adaptive average pooling",
                      [](const std::vector<int64_t> &in, const std::vector<int64_t> &outSpatial,
                         std::span<const int64_t> o) { return adaptiveWindow(in, outSpatial, o); });
}

Status adaptiveAvgPool1dKernel(KernelContext &ctx) { return adaptiveAvgPoolKernel(ctx, 1); }
Status adaptiveAvgPool2dKernel(KernelContext &ctx) { return adaptiveAvgPoolKernel(ctx, 2); }
Status adaptiveAvgPool3dKernel(KernelContext &ctx) { return adaptiveAvgPoolKernel(ctx, 3); }

Status adaptiveAvgPool2dBackwardKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto grad, ctx.tensor("grad_output"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  return avgPool2dBackwardInto(
      ctx, grad, std::move(out),
      [](const std::vector<int64_t> &in, const std::vector<int64_t> &outSpatial,
         std::span<const int64_t> o) { return adaptiveWindow(in, outSpatial, o); });
}

// ---- Convolution backward ----

/// The geometry of a convolution as a bilinear form: a "small" side S (the output of a
/// convolution, the input of a transposed one), a "large" side L, and a weight
/// W[c_small, c_large_in_group, k...], with S[n, cs, x] paired with L[n, cl, x * stride -
/// padding + k * dilation] for every cl of cs's group.
struct ConvGeometry {
  int64_t batch = 0, smallChannels = 0, largeChannels = 0, groups = 1;
  std::vector<int64_t> small, large, kernel, stride, padding, dilation;
};

/// Calls fn(s, l, w) with the dense row-major indices into S, L and W of every product the
/// convolution sums.
template <typename Fn> void forEachConvTerm(const ConvGeometry &g, Fn fn) {
  size_t nd = g.small.size();
  int64_t smallPlane = product(g.small), largePlane = product(g.large), taps = product(g.kernel);
  int64_t smallPerGroup = g.smallChannels / g.groups, largePerGroup = g.largeChannels / g.groups;
  std::vector<int64_t> largeDense = denseStrides(g.large);
  std::vector<int64_t> pos(nd);
  int64_t x = 0;
  forEach(g.small, [&](std::span<const int64_t> xi) {
    int64_t k = 0;
    forEach(g.kernel, [&](std::span<const int64_t> ki) {
      int64_t y = 0;
      bool inside = true;
      for (size_t d = 0; d < nd && inside; ++d) {
        int64_t p = xi[d] * g.stride[d] - g.padding[d] + ki[d] * g.dilation[d];
        inside = p >= 0 && p < g.large[d];
        y += p * largeDense[d];
      }
      if (inside)
        for (int64_t n = 0; n < g.batch; ++n)
          for (int64_t cs = 0; cs < g.smallChannels; ++cs) {
            int64_t group = cs / smallPerGroup;
            for (int64_t c = 0; c < largePerGroup; ++c) {
              int64_t cl = group * largePerGroup + c;
              fn((n * g.smallChannels + cs) * smallPlane + x,
                 (n * g.largeChannels + cl) * largePlane + y, (cs * largePerGroup + c) * taps + k);
            }
          }
      ++k;
    });
    ++x;
  });
}

/// Checks grad_output against the convolution of input and weight and fills the geometry.
Expected<ConvGeometry> convGeometry(const KernelContext &ctx, const Tensor &grad,
                                    const Tensor &input, const Tensor &weight) {
  FXKIT_ASSIGN_OR_RETURN(auto transposed, ctx.boolean("transposed"));
  FXKIT_ASSIGN_OR_RETURN(auto groups, ctx.integer("groups"));
  size_t nd = static_cast<size_t>(std::max<int64_t>(input.dim() - 2, 0));
  if (input.dim() < 3 || weight.dim() != input.dim() || grad.dim() != input.dim())
    return ctx.error("convolution_backward expects grad_output, input and weight of the same rank "
                     "(at least 3), got " +
                     sizesStr(grad.sizes()) + ", " + sizesStr(input.sizes()) + " and " +
                     sizesStr(weight.sizes()));
  FXKIT_ASSIGN_OR_RETURN(auto stride, spatialArg(ctx, "stride", nd, std::vector<int64_t>(nd, 1)));
  FXKIT_ASSIGN_OR_RETURN(auto padding, spatialArg(ctx, "padding", nd, std::vector<int64_t>(nd, 0)));
  FXKIT_ASSIGN_OR_RETURN(auto dilation,
                         spatialArg(ctx, "dilation", nd, std::vector<int64_t>(nd, 1)));
  const Tensor &smallT = transposed ? input : grad, &largeT = transposed ? grad : input;
  ConvGeometry g{input.size(0),
                 smallT.size(1),
                 largeT.size(1),
                 groups,
                 spatialSizes(smallT, nd),
                 spatialSizes(largeT, nd),
                 spatialSizes(weight, nd),
                 stride,
                 padding,
                 dilation};
  if (groups < 1 || g.smallChannels % groups || g.largeChannels % groups ||
      weight.size(0) != g.smallChannels || weight.size(1) * groups != g.largeChannels ||
      grad.size(0) != input.size(0))
    return ctx.error("grad_output " + sizesStr(grad.sizes()) + ", input " +
                     sizesStr(input.sizes()) + " and weight " + sizesStr(weight.sizes()) +
                     " do not fit a convolution with groups " + std::to_string(groups));
  for (size_t d = 0; d < nd; ++d) {
    if (stride[d] <= 0 || dilation[d] <= 0 || padding[d] < 0)
      return ctx.error("convolution_backward: stride and dilation must be positive and padding "
                       "non-negative");
    // The small side has exactly the positions whose window starts inside the padded large
    // side (a transposed convolution's output_padding only adds large positions).
    int64_t span = dilation[d] * (g.kernel[d] - 1) + 1;
    int64_t expected = (g.large[d] + 2 * padding[d] - span) / stride[d] + 1;
    bool ok = transposed ? g.large[d] >= (g.small[d] - 1) * stride[d] - 2 * padding[d] + span &&
                               g.large[d] < (g.small[d] - 1) * stride[d] - 2 * padding[d] + span +
                                                std::max(stride[d], dilation[d])
                         : g.small[d] == expected;
    if (!ok)
      return ctx.error("grad_output " + sizesStr(grad.sizes()) +
                       " does not have the convolution's output size for input " +
                       sizesStr(input.sizes()) + " and weight " + sizesStr(weight.sizes()));
  }
  return g;
}

/// grad_bias: grad_output (row-major values) summed over every dim but the channels.
Status storeBiasGradient(const KernelContext &ctx, const Tensor &grad,
                         const std::vector<double> &gradValues, Tensor &out) {
  int64_t channels = grad.size(1);
  if (out.numel() != channels)
    return ctx.error("bias_sizes " + sizesStr(out.sizes()) + " must hold " +
                     std::to_string(channels) + " elements (grad_output's channels)");
  std::vector<double> sums(static_cast<size_t>(channels), 0.0);
  int64_t plane = product(spatialSizes(grad, grad.dim() - 2));
  for (size_t i = 0; i < gradValues.size(); ++i)
    sums[(static_cast<int64_t>(i) / plane) % channels] += gradValues[i];
  size_t i = 0;
  Tensor::forEachIndex(out.sizes(),
                       [&](std::span<const int64_t> index) { out.setDouble(index, sums[i++]); });
  return Status::ok();
}

/// convolution_backward: the gradients of the convolution's input (the adjoint convolution),
/// weight (the correlation of input and grad_output) and bias, each where output_mask asks for
/// it.
Status convolutionBackwardKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto grad, ctx.tensor("grad_output"));
  FXKIT_ASSIGN_OR_RETURN(auto input, ctx.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto weight, ctx.tensor("weight"));
  FXKIT_ASSIGN_OR_RETURN(auto transposed, ctx.boolean("transposed"));
  FXKIT_ASSIGN_OR_RETURN(auto g, convGeometry(ctx, grad, input, weight));
  // Results masked off by output_mask are None: allocate the others from their types.
  const auto *types = ctx.node().value().tensors();
  if (!types || types->size() != 3)
    return ctx.error("convolution_backward must have three inferred results");
  std::vector<std::optional<Tensor>> results(3);
  for (size_t i = 0; i < 3; ++i)
    if ((*types)[i]) {
      FXKIT_ASSIGN_OR_RETURN(auto t, allocateTensor(*(*types)[i], ctx.bindings));
      results[i] = std::move(t);
    }
  std::vector<double> gradValues = denseValues(grad), inputValues = denseValues(input),
                      weightValues = denseValues(weight);
  const std::vector<double> &smallValues = transposed ? inputValues : gradValues;
  const std::vector<double> &largeValues = transposed ? gradValues : inputValues;
  Accumulator gradInput(input.sizes()), gradWeight(weight.sizes());
  if (results[0] || results[1])
    forEachConvTerm(g, [&](int64_t s, int64_t l, int64_t w) {
      // The derivatives of S * L * W: the input is L for a convolution, S for a transposed one.
      if (results[0] && transposed)
        gradInput.values[s] += largeValues[l] * weightValues[w];
      else if (results[0])
        gradInput.values[l] += smallValues[s] * weightValues[w];
      if (results[1])
        gradWeight.values[w] += smallValues[s] * largeValues[l];
    });
  if (results[0])
    gradInput.storeInto(*results[0]);
  if (results[1])
    gradWeight.storeInto(*results[1]);
  if (results[2])
    FXKIT_TRY(storeBiasGradient(ctx, grad, gradValues, *results[2]));
  ctx.result.v = std::move(results);
  return Status::ok();
}

// ---- Upsampling ----

Status upsampleNearest2dKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto input, ctx.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  FXKIT_TRY(requireSameLead(ctx, input, out, 2));
  std::vector<int64_t> in = spatialSizes(input, 2), outSpatial = spatialSizes(out, 2);
  std::vector<std::vector<int64_t>> source(2);
  const bool exact = ctx.args.op().schema.name == "_upsample_nearest_exact2d";
  for (size_t d = 0; d < 2; ++d) {
    FXKIT_ASSIGN_OR_RETURN(auto scale, upsampleScale(ctx.args, d));
    for (int64_t o = 0; o < outSpatial[d]; ++o)
      source[d].push_back(exact ? nearestExactSourceIndex(o, in[d], outSpatial[d], scale)
                                : nearestSourceIndex(o, in[d], outSpatial[d], scale));
  }
  std::vector<int64_t> pos(2);
  forEachPlane({&input, &out}, 2, [&](std::span<const int64_t> base, int64_t) {
    forEach(outSpatial, [&](std::span<const int64_t> o) {
      pos = {source[0][o[0]], source[1][o[1]]};
      copyElement(out, base[1] + spatialOffset(out, o), input, base[0] + spatialOffset(input, pos));
    });
  });
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// One axis of linear interpolation (see linearSource), its weight widened to double.
struct LinearTap {
  int64_t i0, i1;
  double lambda1;
};

template <typename F>
LinearTap linearTap(int64_t o, int64_t in, int64_t out, bool alignCorners,
                    std::optional<double> scale) {
  LinearSource<F> s = linearSource<F>(o, in, out, alignCorners, scale);
  return {s.i0, s.i1, static_cast<double>(s.lambda1)};
}

Status upsampleBilinear2dKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto input, ctx.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto alignCorners, ctx.boolean("align_corners"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  FXKIT_TRY(requireSameLead(ctx, input, out, 2));
  if (!dtypeIsFloating(input.dtype()))
    return ctx.error("upsample_bilinear2d takes floating-point inputs");
  std::vector<int64_t> in = spatialSizes(input, 2), outSpatial = spatialSizes(out, 2);
  std::vector<std::vector<LinearTap>> taps(2);
  for (size_t d = 0; d < 2; ++d) {
    FXKIT_ASSIGN_OR_RETURN(auto scale, upsampleScale(ctx.args, d));
    for (int64_t o = 0; o < outSpatial[d]; ++o)
      taps[d].push_back(input.dtype() == DType::Float64
                            ? linearTap<double>(o, in[d], outSpatial[d], alignCorners, scale)
                            : linearTap<float>(o, in[d], outSpatial[d], alignCorners, scale));
  }
  forEachPlane({&input, &out}, 2, [&](std::span<const int64_t> base, int64_t) {
    auto at = [&](int64_t h, int64_t w) {
      return input.loadDouble(base[0] + h * input.stride(input.dim() - 2) +
                              w * input.stride(input.dim() - 1));
    };
    forEach(outSpatial, [&](std::span<const int64_t> o) {
      const LinearTap &h = taps[0][o[0]], &w = taps[1][o[1]];
      double top = (1 - w.lambda1) * at(h.i0, w.i0) + w.lambda1 * at(h.i0, w.i1);
      double bottom = (1 - w.lambda1) * at(h.i1, w.i0) + w.lambda1 * at(h.i1, w.i1);
      out.storeDouble(base[1] + spatialOffset(out, o), (1 - h.lambda1) * top + h.lambda1 * bottom);
    });
  });
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// The cubic convolution weights of offset t (A = -0.75), as PyTorch's bicubic kernels.
std::array<double, 4> cubicWeights(double t) {
  const double A = -0.75;
  auto near = [&](double x) { return ((A + 2) * x - (A + 3)) * x * x + 1; };
  auto far = [&](double x) { return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A; };
  return {far(t + 1), near(t), near(1 - t), far(2 - t)};
}

/// upsample_bicubic2d: 4 x 4 taps (cubicSource's, each clamped into the input) weighted by
/// cubicWeights, the coordinates in the kernel's precision (float; double for float64), the
/// blend in double.
Status upsampleBicubic2dKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto input, ctx.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto alignCorners, ctx.boolean("align_corners"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  FXKIT_TRY(requireSameLead(ctx, input, out, 2));
  if (!dtypeIsFloating(input.dtype()))
    return ctx.error("upsample_bicubic2d takes floating-point inputs");
  std::vector<int64_t> in = spatialSizes(input, 2), outSpatial = spatialSizes(out, 2);
  // Per axis and output index: the first tap and the four weights.
  std::vector<std::vector<std::pair<int64_t, std::array<double, 4>>>> taps(2);
  for (size_t d = 0; d < 2; ++d) {
    FXKIT_ASSIGN_OR_RETURN(auto scale, upsampleScale(ctx.args, d));
    for (int64_t o = 0; o < outSpatial[d]; ++o) {
      auto [i0, t] = input.dtype() == DType::Float64
                         ? cubicSource<double>(o, in[d], outSpatial[d], alignCorners, scale)
                         : [&] {
                             auto c =
                                 cubicSource<float>(o, in[d], outSpatial[d], alignCorners, scale);
                             return CubicSource<double>{c.i0, static_cast<double>(c.t)};
                           }();
      taps[d].push_back({i0, cubicWeights(t)});
    }
  }
  auto clampTo = [](int64_t i, int64_t n) { return std::max<int64_t>(0, std::min(i, n - 1)); };
  forEachPlane({&input, &out}, 2, [&](std::span<const int64_t> base, int64_t) {
    forEach(outSpatial, [&](std::span<const int64_t> o) {
      const auto &[y0, wy] = taps[0][o[0]];
      const auto &[x0, wx] = taps[1][o[1]];
      double sum = 0;
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          sum += wy[i] * wx[j] *
                 input.loadDouble(base[0] +
                                  clampTo(y0 - 1 + i, in[0]) * input.stride(input.dim() - 2) +
                                  clampTo(x0 - 1 + j, in[1]) * input.stride(input.dim() - 1));
      out.storeDouble(base[1] + spatialOffset(out, o), sum);
    });
  });
  ctx.result.v = std::move(out);
  return Status::ok();
}

// ---- Grid sampling ----

enum class GridPadding : uint8_t { Zeros, Border, Reflection };

// The coordinate arithmetic runs in the grid's precision T (float for float32 grids), as
// PyTorch's CPU kernels compute it in scalar_t: far outside the input, reflection lands on
// another pixel in float than in double (a grid of 1e9 reflects onto pixel 0 in float32).

/// reflect_coordinates: reflects x into [low / 2, high / 2] (bounds given doubled).
template <typename T> T reflect(T x, int64_t twiceLow, int64_t twiceHigh) {
  if (twiceLow == twiceHigh)
    return 0;
  T low = static_cast<T>(twiceLow) / 2;
  T span = static_cast<T>(twiceHigh - twiceLow) / 2;
  x = std::fabs(x - low);
  T extra = std::fmod(x, span);
  // The parity of the flips in T: converting a non-finite or huge quotient to an integer is
  // undefined (PyTorch's int cast; x86 yields an even INT_MIN there, as T's parity says).
  bool evenFlips = std::fmod(std::floor(x / span), T(2)) == 0;
  return evenFlips ? extra + low : span - extra + low;
}

/// compute_coordinates: border clips into [0, size - 1], reflection reflects then clips;
/// a non-finite coordinate becomes -100 (outside), as safe_downgrade_to_int_range does.
template <typename T> T padCoordinate(T x, int64_t size, GridPadding padding, bool alignCorners) {
  switch (padding) {
  case GridPadding::Zeros:
    break;
  case GridPadding::Border:
    x = std::clamp(x, T(0), static_cast<T>(size - 1));
    break;
  case GridPadding::Reflection:
    x = alignCorners ? reflect<T>(x, 0, 2 * (size - 1)) : reflect<T>(x, -1, 2 * size - 1);
    x = std::clamp(x, T(0), static_cast<T>(size - 1));
    break;
  }
  return std::isfinite(x) && std::fabs(x) < T(2e9) ? x : T(-100);
}

/// grid_sampler_unnormalize: [-1, 1] to pixel coordinates (corner pixels' centres, or their
/// outer edges without align_corners).
template <typename T> T unnormalize(T x, int64_t size, bool alignCorners) {
  return alignCorners ? (x + 1) / 2 * static_cast<T>(size - 1)
                      : ((x + 1) * static_cast<T>(size) - 1) / 2;
}

/// One (n, c) plane of grid_sampler_2d's input, read with the op's padding rules.
struct GridPlane {
  const Tensor &input;
  int64_t base, H, W;
  GridPadding padding;
  bool alignCorners;

  /// A pixel; 0 outside the input.
  double pixel(int64_t y, int64_t x) const {
    if (y < 0 || y >= H || x < 0 || x >= W)
      return 0.0;
    return input.loadDouble(base + y * input.stride(2) + x * input.stride(3));
  }
  /// A bicubic tap: each coordinate padded on its own (get_value_bounded).
  template <typename T> double bounded(T y, T x) const {
    y = padCoordinate<T>(y, H, padding, alignCorners);
    x = padCoordinate<T>(x, W, padding, alignCorners);
    return pixel(static_cast<int64_t>(y), static_cast<int64_t>(x));
  }
  /// The sample at grid point (gx, gy): bilinear (0), nearest with round half to even (1) or
  /// bicubic (2); coordinates computed in T (the grid's precision), the blend in double.
  template <typename T> double sample(int64_t mode, T gx, T gy) const {
    T x = unnormalize<T>(gx, W, alignCorners), y = unnormalize<T>(gy, H, alignCorners);
    if (mode == 2) {
      T x0 = std::floor(x), y0 = std::floor(y);
      double value = 0;
      std::array<double, 4> wx = cubicWeights(x - x0), wy = cubicWeights(y - y0);
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          value +=
              wy[i] * wx[j] * bounded<T>(y0 - 1 + static_cast<T>(i), x0 - 1 + static_cast<T>(j));
      return value;
    }
    x = padCoordinate<T>(x, W, padding, alignCorners);
    y = padCoordinate<T>(y, H, padding, alignCorners);
    if (mode == 1)
      return pixel(static_cast<int64_t>(std::nearbyint(y)),
                   static_cast<int64_t>(std::nearbyint(x)));
    int64_t x0 = static_cast<int64_t>(std::floor(x)), y0 = static_cast<int64_t>(std::floor(y));
    double tx = x - static_cast<double>(x0), ty = y - static_cast<double>(y0);
    return (1 - ty) * ((1 - tx) * pixel(y0, x0) + tx * pixel(y0, x0 + 1)) +
           ty * ((1 - tx) * pixel(y0 + 1, x0) + tx * pixel(y0 + 1, x0 + 1));
  }
};

/// grid_sampler_2d: samples input (N, C, H, W) at grid (N, Ho, Wo, 2) = (x, y) in [-1, 1],
/// with zeros, border or reflection padding.
Status gridSampler2dKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto input, ctx.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto grid, ctx.tensor("grid"));
  FXKIT_ASSIGN_OR_RETURN(auto mode, ctx.integer("interpolation_mode"));
  FXKIT_ASSIGN_OR_RETURN(auto paddingMode, ctx.integer("padding_mode"));
  FXKIT_ASSIGN_OR_RETURN(auto alignCorners, ctx.boolean("align_corners"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  if (input.dim() != 4 || grid.dim() != 4 || grid.size(0) != input.size(0) || grid.size(3) != 2)
    return ctx.error("grid_sampler_2d expects input (N, C, H, W) and grid (N, H, W, 2), got " +
                     sizesStr(input.sizes()) + " and " + sizesStr(grid.sizes()));
  if (mode < 0 || mode > 2 || paddingMode < 0 || paddingMode > 2)
    return ctx.error("grid_sampler_2d: bad interpolation or padding mode");
  Tensor::forEachIndex(out.sizes(), [&](std::span<const int64_t> index) {
    int64_t n = index[0], c = index[1];
    GridPlane plane{input,
                    input.storageOffset() + n * input.stride(0) + c * input.stride(1),
                    input.size(2),
                    input.size(3),
                    static_cast<GridPadding>(paddingMode),
                    alignCorners};
    int64_t g = grid.storageOffset() + n * grid.stride(0) + index[2] * grid.stride(1) +
                index[3] * grid.stride(2);
    double gx = grid.loadDouble(g), gy = grid.loadDouble(g + grid.stride(3));
    out.setDouble(index,
                  grid.dtype() == DType::Float64
                      ? plane.sample<double>(mode, gx, gy)
                      : plane.sample<float>(mode, static_cast<float>(gx), static_cast<float>(gy)));
  });
  ctx.result.v = std::move(out);
  return Status::ok();
}

// ---- RoI align (torchvision) ----

/// torchvision::roi_align's CPU kernel in precision T (float for float32 and half, double for
/// float64): per box (batch index, x1, y1, x2, y2, scaled by spatial_scale and shifted by half a
/// pixel where aligned; unaligned boxes at least 1 x 1), each output bin averages bilinear
/// samples on a grid of sampling_ratio points a side (or ceil(box size / pooled size)); samples
/// outside [-1, size] weigh 0, those past the last row or column read it.
template <typename T>
Status roiAlignInto(KernelContext &ctx, const Tensor &input, const Tensor &rois, Tensor &out,
                    T scale, int64_t sampling, bool aligned) {
  const int64_t K = out.size(0), C = out.size(1), PH = out.size(2), PW = out.size(3);
  const int64_t N = input.size(0), H = input.size(2), W = input.size(3);
  auto roi = [&](int64_t k, int64_t j) {
    return static_cast<T>(
        rois.loadDouble(rois.storageOffset() + k * rois.stride(0) + j * rois.stride(1)));
  };
  struct Tap {
    int64_t pos[4] = {0, 0, 0, 0};
    T w[4] = {0, 0, 0, 0};
  };
  for (int64_t k = 0; k < K; ++k) {
    // The batch index truncated to an int, as torchvision's kernel reads it.
    const T batch = roi(k, 0);
    if (!(batch > -1 && batch < static_cast<T>(N)))
      return ctx.error("roi_align: box " + std::to_string(k) + " names batch index " +
                       std::to_string(static_cast<double>(batch)) + " of an input of " +
                       std::to_string(N));
    const int64_t n = static_cast<int64_t>(batch);
    const T offset = aligned ? T(0.5) : T(0);
    const T startW = roi(k, 1) * scale - offset, startH = roi(k, 2) * scale - offset;
    const T endW = roi(k, 3) * scale - offset, endH = roi(k, 4) * scale - offset;
    T width = endW - startW, height = endH - startH;
    if (!aligned) {
      width = std::max(width, T(1));
      height = std::max(height, T(1));
    }
    const T binH = height / static_cast<T>(PH), binW = width / static_cast<T>(PW);
    const int64_t gridH = sampling > 0 ? sampling : static_cast<int64_t>(std::ceil(height / PH));
    const int64_t gridW = sampling > 0 ? sampling : static_cast<int64_t>(std::ceil(width / PW));
    const T count = static_cast<T>(std::max<int64_t>(gridH * gridW, 1));
    // The taps of every sample, shared by the channels.
    std::vector<Tap> taps;
    taps.reserve(static_cast<size_t>(std::max<int64_t>(PH * PW * gridH * gridW, 0)));
    for (int64_t ph = 0; ph < PH; ++ph)
      for (int64_t pw = 0; pw < PW; ++pw)
        for (int64_t iy = 0; iy < gridH; ++iy) {
          const T yy = startH + static_cast<T>(ph) * binH +
                       static_cast<T>(static_cast<float>(iy) + .5f) * binH / static_cast<T>(gridH);
          for (int64_t ix = 0; ix < gridW; ++ix) {
            T x = startW + static_cast<T>(pw) * binW +
                  static_cast<T>(static_cast<float>(ix) + .5f) * binW / static_cast<T>(gridW);
            T y = yy;
            Tap t;
            if (y >= -1.0 && y <= static_cast<T>(H) && x >= -1.0 && x <= static_cast<T>(W)) {
              y = std::max(y, T(0));
              x = std::max(x, T(0));
              int64_t yl = static_cast<int64_t>(y), xl = static_cast<int64_t>(x), yh, xh;
              if (yl >= H - 1) {
                yh = yl = H - 1;
                y = static_cast<T>(yl);
              } else {
                yh = yl + 1;
              }
              if (xl >= W - 1) {
                xh = xl = W - 1;
                x = static_cast<T>(xl);
              } else {
                xh = xl + 1;
              }
              const T ly = y - static_cast<T>(yl), lx = x - static_cast<T>(xl);
              const T hy = T(1) - ly, hx = T(1) - lx;
              t = Tap{{yl * W + xl, yl * W + xh, yh * W + xl, yh * W + xh},
                      {hy * hx, hy * lx, ly * hx, ly * lx}};
            }
            taps.push_back(t);
          }
        }
    for (int64_t c = 0; c < C; ++c) {
      const int64_t plane = input.storageOffset() + n * input.stride(0) + c * input.stride(1);
      auto at = [&](int64_t pos) {
        return static_cast<T>(
            input.loadDouble(plane + (pos / W) * input.stride(2) + (pos % W) * input.stride(3)));
      };
      size_t tap = 0;
      for (int64_t ph = 0; ph < PH; ++ph)
        for (int64_t pw = 0; pw < PW; ++pw) {
          T value = 0;
          for (int64_t s = 0; s < gridH * gridW; ++s, ++tap) {
            const Tap &t = taps[tap];
            value += t.w[0] * at(t.pos[0]) + t.w[1] * at(t.pos[1]) + t.w[2] * at(t.pos[2]) +
                     t.w[3] * at(t.pos[3]);
          }
          out.storeDouble(((k * C + c) * PH + ph) * PW + pw, static_cast<double>(value / count));
        }
    }
  }
  return Status::ok();
}

Status roiAlignKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto input, ctx.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto rois, ctx.tensor("rois"));
  FXKIT_ASSIGN_OR_RETURN(double scale, ctx.scalar("spatial_scale"));
  FXKIT_ASSIGN_OR_RETURN(int64_t sampling, ctx.integer("sampling_ratio"));
  FXKIT_ASSIGN_OR_RETURN(bool aligned, ctx.boolean("aligned"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  if (input.dtype() == DType::Float64)
    FXKIT_TRY(roiAlignInto<double>(ctx, input, rois, out, scale, sampling, aligned));
  else
    FXKIT_TRY(
        roiAlignInto<float>(ctx, input, rois, out, static_cast<float>(scale), sampling, aligned));
  ctx.result.v = std::move(out);
  return Status::ok();
}

// ---- col2im ----

/// col2im: adds each column entry (c, ki, kj) of block (bh, bw) into image pixel
/// (bh * stride - padding + ki * dilation, ...) of channel c, where inside the image.
Status col2imKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto kernel, ctx.intList("kernel_size"));
  FXKIT_ASSIGN_OR_RETURN(auto dilation, ctx.intList("dilation"));
  FXKIT_ASSIGN_OR_RETURN(auto padding, ctx.intList("padding"));
  FXKIT_ASSIGN_OR_RETURN(auto stride, ctx.intList("stride"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  FXKIT_TRY(requireRank(ctx, self, "col2im input", 2, 3));
  bool batched = self.dim() == 3;
  int64_t H = out.size(out.dim() - 2), W = out.size(out.dim() - 1);
  auto blocksAlong = [&](size_t d, int64_t size) {
    return (size + 2 * padding[d] - (dilation[d] * (kernel[d] - 1) + 1)) / stride[d] + 1;
  };
  int64_t blocksW = blocksAlong(1, W);
  int64_t taps = kernel[0] * kernel[1];
  int64_t channels = out.size(out.dim() - 3), blocks = self.size(self.dim() - 1);
  if (self.size(self.dim() - 2) != channels * taps || blocksW <= 0 ||
      blocks != blocksAlong(0, H) * blocksW)
    return ctx.error("col2im input " + sizesStr(self.sizes()) + " does not fit output " +
                     sizesStr(out.sizes()));
  Accumulator acc(out.sizes());
  int64_t batch = batched ? self.size(0) : 1;
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t row = 0; row < channels * taps; ++row) {
      int64_t c = row / taps, ki = (row % taps) / kernel[1], kj = row % kernel[1];
      for (int64_t block = 0; block < blocks; ++block) {
        int64_t h = (block / blocksW) * stride[0] - padding[0] + ki * dilation[0];
        int64_t w = (block % blocksW) * stride[1] - padding[1] + kj * dilation[1];
        if (h < 0 || h >= H || w < 0 || w >= W)
          continue;
        int64_t src = self.storageOffset() + (batched ? n * self.stride(0) : 0) +
                      row * self.stride(self.dim() - 2) + block * self.stride(self.dim() - 1);
        acc.values[((n * channels + c) * H + h) * W + w] += self.loadDouble(src);
      }
    }
  acc.storeInto(out);
  ctx.result.v = std::move(out);
  return Status::ok();
}

// ---- Distances ----

/// The p-norm of the differences of two rows (p = 0 counts the differing entries, p = inf
/// takes the largest).
double pNormDistance(const Tensor &a, int64_t aBase, int64_t aStride, const Tensor &b,
                     int64_t bBase, int64_t bStride, int64_t columns, double p) {
  double acc = 0;
  for (int64_t k = 0; k < columns; ++k) {
    double d = std::fabs(a.loadDouble(aBase + k * aStride) - b.loadDouble(bBase + k * bStride));
    if (p == 0)
      acc += d != 0 ? 1 : 0;
    else if (std::isinf(p))
      acc = std::isnan(d) || std::isnan(acc) ? NAN : std::max(acc, d);
    else if (p == 1)
      acc += d;
    else if (p == 2)
      acc += d * d;
    else
      acc += std::pow(d, p);
  }
  if (p == 0 || p == 1 || std::isinf(p))
    return acc;
  return p == 2 ? std::sqrt(acc) : std::pow(acc, 1 / p);
}

/// _cdist_forward: out[..., i, j] = ||x1[..., i, :] - x2[..., j, :]||_p over broadcast batches.
Status cdistForwardKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto x1, ctx.tensor("x1"));
  FXKIT_ASSIGN_OR_RETURN(auto x2, ctx.tensor("x2"));
  FXKIT_ASSIGN_OR_RETURN(auto p, ctx.scalar("p"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  if (x1.dim() < 2 || x2.dim() < 2 || x1.size(x1.dim() - 1) != x2.size(x2.dim() - 1))
    return ctx.error("cdist expects x1 (..., r1, m) and x2 (..., r2, m), got " +
                     sizesStr(x1.sizes()) + " and " + sizesStr(x2.sizes()));
  int64_t columns = x1.size(x1.dim() - 1);
  std::vector<int64_t> index1, index2;
  Tensor::forEachIndex(out.sizes(), [&](std::span<const int64_t> index) {
    // Row i of x1 and row j of x2 in this batch: index (batch..., i, 0) and (batch..., j, 0).
    index1.assign(index.begin(), index.end());
    index2.assign(index.begin(), index.end());
    index1.back() = 0;
    index2[index2.size() - 2] = index.back();
    index2.back() = 0;
    out.setDouble(index,
                  pNormDistance(x1, kernels::broadcastOffset(x1, index1), x1.stride(x1.dim() - 1),
                                x2, kernels::broadcastOffset(x2, index2), x2.stride(x2.dim() - 1),
                                columns, p));
  });
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// _pdist_forward: the distances of rows (i, j), i < j, in row-major order of the pairs.
Status pdistForwardKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto p, ctx.scalar("p"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  FXKIT_TRY(requireRank(ctx, self, "pdist input", 2, 2));
  int64_t n = self.size(0), columns = self.size(1), k = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i + 1; j < n; ++j, ++k)
      out.storeDouble(out.storageOffset() + k * out.stride(0),
                      pNormDistance(self, self.storageOffset() + i * self.stride(0), self.stride(1),
                                    self, self.storageOffset() + j * self.stride(0), self.stride(1),
                                    columns, p));
  ctx.result.v = std::move(out);
  return Status::ok();
}

// ---- Embedding bag ----

/// The bag of every index (make_offset2bag: a 1 at each offset, then a cumulative sum, so empty
/// bags are skipped), after checking the offsets as PyTorch does.
Expected<std::vector<int64_t>> offsetToBag(const KernelContext &ctx, const Tensor &offsets,
                                           int64_t count) {
  std::vector<int64_t> marks(static_cast<size_t>(count) + 1, 0);
  int64_t size = offsets.size(0);
  for (int64_t b = 0; b < size; ++b) {
    int64_t o = offsets.loadInt(offsets.storageOffset() + b * offsets.stride(0));
    if (b == 0 && o != 0)
      return ctx.error("offsets[0] has to be 0, i.e., the first sequence in the mini-batch has "
                       "to start from position 0. However, got " +
                       std::to_string(o));
    if (o < 0 || o > count)
      return ctx.error("offsets[" + std::to_string(b) + "] = " + std::to_string(o) +
                       " is out of range for input's length " + std::to_string(count));
    ++marks[o];
  }
  if (size > 0)
    --marks[0];
  std::vector<int64_t> bags(static_cast<size_t>(count));
  int64_t running = 0;
  for (int64_t i = 0; i < count; ++i)
    bags[i] = running += marks[i];
  return bags;
}

enum class BagMode : int64_t { Sum = 0, Mean = 1, Max = 2 };

/// Per bag and column the reduced weight rows, the row each maximum came from, and the number
/// of rows (padding_idx excluded).
struct BagReduction {
  int64_t width = 0;
  std::vector<double> values;
  std::vector<int64_t> argmax, sizes;
};

/// Reduces each index's weight row into its bag: the sum (times per_sample_weights), or the
/// first maximum; padding_idx rows are skipped, out-of-range rows are errors.
Expected<BagReduction> reduceBags(const KernelContext &ctx, const Tensor &weight,
                                  const Tensor &indices, const std::optional<Tensor> &psw,
                                  const std::vector<int64_t> &bags, int64_t numBags, BagMode mode,
                                  int64_t paddingIdx) {
  BagReduction r{weight.size(1), {}, {}, {}};
  r.values.assign(static_cast<size_t>(numBags * r.width), 0.0);
  r.argmax.assign(r.values.size(), 0);
  r.sizes.assign(static_cast<size_t>(numBags), 0);
  for (int64_t i = 0; i < indices.size(0); ++i) {
    int64_t row = indices.loadInt(indices.storageOffset() + i * indices.stride(0)), bag = bags[i];
    if (row < 0 || row >= weight.size(0))
      return ctx.error("Index " + std::to_string(i) + " of input takes value " +
                       std::to_string(row) + " which is not in the valid range [0, " +
                       std::to_string(weight.size(0)) + ")");
    if (bag >= numBags || row == paddingIdx)
      continue; // indices past the last bag (include_last_offset) belong to none
    bool first = r.sizes[bag]++ == 0;
    double scale = psw ? psw->loadDouble(psw->storageOffset() + i * psw->stride(0)) : 1.0;
    for (int64_t d = 0; d < r.width; ++d) {
      double v =
          weight.loadDouble(weight.storageOffset() + row * weight.stride(0) + d * weight.stride(1));
      size_t at = static_cast<size_t>(bag * r.width + d);
      if (mode != BagMode::Max)
        r.values[at] += scale * v;
      else if (first || v > r.values[at]) {
        r.values[at] = v;
        r.argmax[at] = row;
      }
    }
  }
  return r;
}

/// _embedding_bag: per bag the sum, mean or max of its weight rows (an empty bag gives
/// zeros), offset2bag, the bag sizes and, for max, the row each maximum came from. As in the
/// CPU kernel, sum mode leaves the sizes zero, and mean mode returns them as max_indices too.
Status embeddingBagKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto weight, ctx.tensor("weight"));
  FXKIT_ASSIGN_OR_RETURN(auto indices, ctx.tensor("indices"));
  FXKIT_ASSIGN_OR_RETURN(auto offsets, ctx.tensor("offsets"));
  FXKIT_ASSIGN_OR_RETURN(auto modeArg, ctx.integer("mode"));
  FXKIT_ASSIGN_OR_RETURN(auto psw, ctx.optionalTensor("per_sample_weights"));
  FXKIT_ASSIGN_OR_RETURN(auto paddingIdx, ctx.integer("padding_idx"));
  FXKIT_ASSIGN_OR_RETURN(auto output, ctx.allocateOutput(0));
  FXKIT_ASSIGN_OR_RETURN(auto offset2bag, ctx.allocateOutput(1));
  FXKIT_ASSIGN_OR_RETURN(auto bagSize, ctx.allocateOutput(2));
  FXKIT_ASSIGN_OR_RETURN(auto maxIndices, ctx.allocateOutput(3));
  if (weight.dim() != 2 || indices.dim() != 1 || offsets.dim() != 1 || modeArg < 0 || modeArg > 2)
    return ctx.error("embedding_bag expects a 2-d weight, 1-d indices and offsets, mode 0 to 2");
  auto mode = static_cast<BagMode>(modeArg);
  int64_t numBags = output.size(0);
  FXKIT_ASSIGN_OR_RETURN(auto bags, offsetToBag(ctx, offsets, indices.size(0)));
  FXKIT_ASSIGN_OR_RETURN(auto r,
                         reduceBags(ctx, weight, indices, psw, bags, numBags, mode, paddingIdx));
  auto at2 = [](const Tensor &t, int64_t i, int64_t j) {
    return t.storageOffset() + i * t.stride(0) + j * t.stride(1);
  };
  for (int64_t bag = 0; bag < numBags; ++bag)
    for (int64_t d = 0; d < r.width; ++d) {
      size_t k = static_cast<size_t>(bag * r.width + d);
      double divisor = mode == BagMode::Mean ? std::max<int64_t>(r.sizes[bag], 1) : 1;
      output.storeDouble(at2(output, bag, d), r.values[k] / divisor);
      if (mode == BagMode::Max)
        maxIndices.storeInt(at2(maxIndices, bag, d), r.argmax[k]);
    }
  for (int64_t i = 0; i < offset2bag.numel(); ++i)
    offset2bag.storeInt(offset2bag.storageOffset() + i * offset2bag.stride(0), bags[i]);
  for (int64_t b = 0; b < numBags && mode != BagMode::Sum; ++b) {
    if (b < bagSize.numel())
      bagSize.storeInt(bagSize.storageOffset() + b * bagSize.stride(0), r.sizes[b]);
    if (mode == BagMode::Mean && b < maxIndices.numel())
      maxIndices.storeInt(maxIndices.storageOffset() + b * maxIndices.stride(0), r.sizes[b]);
  }
  ctx.result.v = std::vector<std::optional<Tensor>>{std::move(output), std::move(offset2bag),
                                                    std::move(bagSize), std::move(maxIndices)};
  return Status::ok();
}

} // namespace
} // namespace nn_kernels

void registerNnKernels() {
  using namespace nn_kernels;
  static const std::pair<std::string_view, KernelFn> table[] = {
      {"torch.ops.prims._low_memory_max_pool_with_offsets.default",
       lowMemoryMaxPoolWithOffsetsKernel},
      {"torch.ops.prims._low_memory_max_pool_offsets_to_indices.default",
       lowMemoryOffsetsToIndicesKernel},
      {"torch.ops.aten.max_pool2d_with_indices.default", maxPool2dWithIndicesKernel},
      {"torch.ops.aten.adaptive_max_pool2d.default", adaptiveMaxPoolKernel<2>},
      {"torch.ops.aten.adaptive_max_pool3d.default", adaptiveMaxPoolKernel<3>},
      {"torch.ops.aten.max_pool2d_with_indices_backward.default", maxPool2dBackwardKernel},
      {"torch.ops.aten.max_pool3d_with_indices.default", maxPool3dWithIndicesKernel},
      {"torch.ops.aten.avg_pool1d.default", avgPool1dKernel},
      {"torch.ops.aten.avg_pool2d.default", avgPool2dKernel},
      {"torch.ops.aten.avg_pool2d_backward.default", avgPool2dBackwardKernel},
      {"torch.ops.aten.avg_pool3d.default", avgPool3dKernel},
      {"torch.ops.aten.adaptive_avg_pool1d.default", adaptiveAvgPool1dKernel},
      {"torch.ops.aten._adaptive_avg_pool2d.default", adaptiveAvgPool2dKernel},
      {"torch.ops.aten._adaptive_avg_pool2d_backward.default", adaptiveAvgPool2dBackwardKernel},
      {"torch.ops.aten._adaptive_avg_pool3d.default", adaptiveAvgPool3dKernel},
      {"torch.ops.aten.convolution_backward.default", convolutionBackwardKernel},
      {"torch.ops.aten.upsample_nearest2d.vec", upsampleNearest2dKernel},
      {"torch.ops.aten._upsample_nearest_exact2d.vec", upsampleNearest2dKernel},
      {"torch.ops.aten.upsample_bicubic2d.vec", upsampleBicubic2dKernel},
      {"torch.ops.aten.upsample_bilinear2d.vec", upsampleBilinear2dKernel},
      {"torch.ops.aten.grid_sampler_2d.default", gridSampler2dKernel},
      {"torch.ops.aten.col2im.default", col2imKernel},
      {"torch.ops.torchvision.roi_align.default", roiAlignKernel},
      {"torch.ops.aten._cdist_forward.default", cdistForwardKernel},
      {"torch.ops.aten._pdist_forward.default", pdistForwardKernel},
      {"torch.ops.aten._embedding_bag.default", embeddingBagKernel},
  };
  kernels::registerKernelList(table);
}

} // namespace fxkit
