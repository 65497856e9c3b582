/// \file aten.convolution: direct (and transposed) convolution over any number of spatial
/// dimensions, with stride, padding, dilation, output padding, groups and an optional bias.

#include "backends/interp/ExternKernelsSupport.h"

#include "ir/Try.h"

namespace fxkit::extern_kernels {

namespace {

/// `int[]` arguments may hold one value for every spatial dimension.
Expected<std::vector<int64_t>> spatialList(const KernelContext &ctx, std::string_view name,
                                           size_t spatial, int64_t fill) {
  FXKIT_ASSIGN_OR_RETURN(auto v, ctx.intList(name));
  if (v.empty())
    return std::vector<int64_t>(spatial, fill);
  if (v.size() == 1)
    return std::vector<int64_t>(spatial, v[0]);
  if (v.size() != spatial)
    return ctx.error(std::string(name) + " has " + std::to_string(v.size()) + " entries for " +
                     std::to_string(spatial) + " spatial dimensions");
  return v;
}

/// Row-major element count and strides of a shape (for the double accumulator).
std::vector<int64_t> denseStrides(std::span<const int64_t> sizes) {
  std::vector<int64_t> strides(sizes.size(), 1);
  for (size_t i = sizes.size(); i-- > 1;)
    strides[i - 1] = strides[i] * sizes[i];
  return strides;
}

} // namespace

Status convolutionKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto input, ctx.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto weight, ctx.tensor("weight"));
  FXKIT_ASSIGN_OR_RETURN(auto bias, ctx.optionalTensor("bias"));
  FXKIT_ASSIGN_OR_RETURN(auto transposed, ctx.boolean("transposed"));
  FXKIT_ASSIGN_OR_RETURN(auto groups, ctx.integer("groups"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  if (input.dim() < 3 || weight.dim() != input.dim() || out.dim() != input.dim())
    return ctx.error("convolution expects input and weight of the same rank (at least 3), got " +
                     sizesStr(input.sizes()) + " and " + sizesStr(weight.sizes()));
  size_t spatial = static_cast<size_t>(input.dim()) - 2;
  FXKIT_ASSIGN_OR_RETURN(auto stride, spatialList(ctx, "stride", spatial, 1));
  FXKIT_ASSIGN_OR_RETURN(auto padding, spatialList(ctx, "padding", spatial, 0));
  FXKIT_ASSIGN_OR_RETURN(auto dilation, spatialList(ctx, "dilation", spatial, 1));

  int64_t batch = input.size(0), inChannels = input.size(1), outChannels = out.size(1);
  if (groups < 1 || inChannels % groups || outChannels % groups)
    return ctx.error("groups " + std::to_string(groups) + " must divide the input channels (" +
                     std::to_string(inChannels) + ") and output channels (" +
                     std::to_string(outChannels) + ")");
  int64_t inPerGroup = inChannels / groups, outPerGroup = outChannels / groups;
  // Weight layout: (out, in / groups, k...) for a convolution, (in, out / groups, k...) for a
  // transposed one.
  bool weightOk = transposed ? weight.size(0) == inChannels && weight.size(1) == outPerGroup
                             : weight.size(0) == outChannels && weight.size(1) == inPerGroup;
  if (!weightOk)
    return ctx.error("weight " + sizesStr(weight.sizes()) + " does not match input " +
                     sizesStr(input.sizes()) + ", " + std::to_string(outChannels) +
                     " output channels and groups " + std::to_string(groups));
  if (out.size(0) != batch)
    return ctx.error("output batch does not match the input");
  if (bias && (bias->dim() != 1 || bias->size(0) != outChannels))
    return ctx.error("bias " + sizesStr(bias->sizes()) + " must have " +
                     std::to_string(outChannels) + " elements");

  std::vector<int64_t> inSpatial(input.sizes().begin() + 2, input.sizes().end());
  std::vector<int64_t> outSpatial(out.sizes().begin() + 2, out.sizes().end());
  std::vector<int64_t> kernelSpatial(weight.sizes().begin() + 2, weight.sizes().end());

  // Accumulate into a dense double buffer in out's logical shape, then store once through out's
  // strides (which may be channels-last).
  std::vector<int64_t> accStrides = denseStrides(out.sizes());
  std::vector<double> acc(static_cast<size_t>(out.numel()), 0.0);
  int64_t outPlane = accStrides[1];
  if (bias)
    for (int64_t n = 0; n < batch; ++n)
      for (int64_t c = 0; c < outChannels; ++c) {
        double value = bias->loadDouble(bias->storageOffset() + c * bias->stride(0));
        std::fill_n(acc.begin() + n * accStrides[0] + c * outPlane, outPlane, value);
      }

  // Kernel taps (spatial offsets into the weight) and their weight storage offsets within one
  // (first, second) channel pair.
  std::vector<std::vector<int64_t>> taps;
  Tensor::forEachIndex(kernelSpatial,
                       [&](std::span<const int64_t> k) { taps.emplace_back(k.begin(), k.end()); });
  auto weightAt = [&](int64_t c0, int64_t c1, const std::vector<int64_t> &k) {
    int64_t offset = weight.storageOffset() + c0 * weight.stride(0) + c1 * weight.stride(1);
    for (size_t d = 0; d < spatial; ++d)
      offset += k[d] * weight.stride(2 + d);
    return weight.loadDouble(offset);
  };
  auto inputAt = [&](int64_t n, int64_t c, const std::vector<int64_t> &pos) {
    int64_t offset = input.storageOffset() + n * input.stride(0) + c * input.stride(1);
    for (size_t d = 0; d < spatial; ++d)
      offset += pos[d] * input.stride(2 + d);
    return input.loadDouble(offset);
  };

  std::vector<int64_t> pos(spatial);
  if (!transposed) {
    // out[n, oc, o] += in[n, ic, o * stride - padding + k * dilation] * w[oc, ic - g*inPG, k].
    Tensor::forEachIndex(outSpatial, [&](std::span<const int64_t> o) {
      int64_t accSpatial = 0;
      for (size_t d = 0; d < spatial; ++d)
        accSpatial += o[d] * accStrides[2 + d];
      for (const std::vector<int64_t> &k : taps) {
        bool inside = true;
        for (size_t d = 0; d < spatial && inside; ++d) {
          pos[d] = o[d] * stride[d] - padding[d] + k[d] * dilation[d];
          inside = pos[d] >= 0 && pos[d] < inSpatial[d];
        }
        if (!inside)
          continue;
        for (int64_t n = 0; n < batch; ++n)
          for (int64_t oc = 0; oc < outChannels; ++oc) {
            int64_t g = oc / outPerGroup;
            double sum = 0;
            for (int64_t ic = 0; ic < inPerGroup; ++ic)
              sum += inputAt(n, g * inPerGroup + ic, pos) * weightAt(oc, ic, k);
            acc[n * accStrides[0] + oc * outPlane + accSpatial] += sum;
          }
      }
    });
  } else {
    // The adjoint: in[n, ic, i] scatters to out[n, oc, i * stride - padding + k * dilation]
    // with w[ic, oc - g*outPG, k]; output_padding only enlarged the output (inferred size).
    Tensor::forEachIndex(inSpatial, [&](std::span<const int64_t> i) {
      std::vector<int64_t> inPos(i.begin(), i.end());
      for (const std::vector<int64_t> &k : taps) {
        bool inside = true;
        int64_t accSpatial = 0;
        for (size_t d = 0; d < spatial && inside; ++d) {
          int64_t o = i[d] * stride[d] - padding[d] + k[d] * dilation[d];
          inside = o >= 0 && o < outSpatial[d];
          accSpatial += o * accStrides[2 + d];
        }
        if (!inside)
          continue;
        for (int64_t n = 0; n < batch; ++n)
          for (int64_t ic = 0; ic < inChannels; ++ic) {
            int64_t g = ic / inPerGroup;
            double x = inputAt(n, ic, inPos);
            for (int64_t oc = 0; oc < outPerGroup; ++oc)
              acc[n * accStrides[0] + (g * outPerGroup + oc) * outPlane + accSpatial] +=
                  x * weightAt(ic, oc, k);
          }
      }
    });
  }

  size_t flat = 0;
  Tensor::forEachIndex(out.sizes(),
                       [&](std::span<const int64_t> index) { out.setDouble(index, acc[flat++]); });
  ctx.result.v = std::move(out);
  return Status::ok();
}

} // namespace fxkit::extern_kernels
