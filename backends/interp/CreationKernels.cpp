/// \file Reference kernels of the ops that make a tensor from scalars. The result's dtype,
/// sizes and strides come from shape inference; the kernels only fill in values, converting
/// the fill value as c10's checked conversion does (an out-of-range value is an error).

#include "backends/interp/CreationKernels.h"
#include "backends/interp/KernelSupport.h"
#include "backends/interp/ScalarArgs.h"

#include <string>

namespace fxkit {
namespace creation_kernels {

namespace {

using kernels::Number;
using kernels::numberArg;
using kernels::overflows;
using kernels::storeNumber;

/// full and scalar_tensor: the output (sizes and dtype as inferred) filled with `valueName`.
Status fillKernel(KernelContext &ctx, std::string_view valueName) {
  FXKIT_ASSIGN_OR_RETURN(auto value, numberArg(ctx, valueName));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  if (Status s = checkComputable(out.dtype(), "result"); !s)
    return ctx.error(s.error().message);
  if (overflows(value, out.dtype()))
    return ctx.error("value " + value.str() + " cannot be converted to " +
                     std::string(dtypeName(out.dtype())) + " without overflow");
  Tensor::forEachIndex(out.sizes(), [&](std::span<const int64_t> index) {
    storeNumber(out, out.offsetOf(index), value);
  });
  ctx.result.v = std::move(out);
  return Status::ok();
}

Status fullKernel(KernelContext &ctx) {
  // Checked before allocating, so the message names the size (PyTorch refuses it too).
  FXKIT_ASSIGN_OR_RETURN(auto sizes, ctx.intList("size"));
  for (int64_t s : sizes)
    if (s < 0)
      return ctx.error("negative size in " + kernels::sizesStr(sizes));
  return fillKernel(ctx, "fill_value");
}

Status scalarTensorKernel(KernelContext &ctx) { return fillKernel(ctx, "s"); }

/// prims.iota: start + i * step for i in [0, length), computed exactly in int64.
Status iotaKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto length, ctx.integer("length"));
  FXKIT_ASSIGN_OR_RETURN(auto start, ctx.integer("start"));
  FXKIT_ASSIGN_OR_RETURN(auto step, ctx.integer("step"));
  if (length < 0)
    return ctx.error("length must be non-negative, got " + std::to_string(length));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  if (Status s = checkComputable(out.dtype(), "result"); !s)
    return ctx.error(s.error().message);
  if (out.dim() != 1 || out.size(0) != length)
    return ctx.error("result of sizes " + kernels::sizesStr(out.sizes()) + " for length " +
                     std::to_string(length));
  for (int64_t i = 0; i < length; ++i) {
    // Wrapping arithmetic: signed overflow is undefined in C++, two's complement in PyTorch.
    auto v = static_cast<int64_t>(static_cast<uint64_t>(start) +
                                  static_cast<uint64_t>(i) * static_cast<uint64_t>(step));
    storeNumber(out, out.storageOffset() + i * out.stride(0), Number{false, v, 0});
  }
  ctx.result.v = std::move(out);
  return Status::ok();
}

} // namespace
} // namespace creation_kernels

void registerCreationKernels() {
  using namespace creation_kernels;
  static const std::pair<std::string_view, KernelFn> table[] = {
      {"torch.ops.aten.full.default", fullKernel},
      {"torch.ops.aten.scalar_tensor.default", scalarTensorKernel},
      {"torch.ops.prims.iota.default", iotaKernel},
  };
  kernels::registerKernelList(table);
}

} // namespace fxkit
