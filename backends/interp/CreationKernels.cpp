/// \file Reference kernels of the ops that make a tensor from scalars. The result's dtype,
/// sizes and strides come from shape inference; the kernels only fill in values, converting
/// the fill value as c10's checked conversion does (an out-of-range value is an error).

#include "backends/interp/CreationKernels.h"
#include "backends/interp/KernelSupport.h"

#include <cmath>
#include <limits>
#include <string>

namespace fxkit {
namespace creation_kernels {

namespace {

/// A Python number argument, exact: integers (symbolic ones evaluated) stay int64.
struct Number {
  bool isFloat = false;
  int64_t i = 0;
  double f = 0;
  double asDouble() const { return isFloat ? f : static_cast<double>(i); }
};

Expected<Number> numberArg(const KernelContext &ctx, std::string_view name) {
  const Argument &a = ctx.args.get(name);
  switch (a.kind()) {
  case Argument::Kind::Int:
    return Number{false, a.asInt(), 0};
  case Argument::Kind::Bool:
    return Number{false, a.asBool() ? 1 : 0, 0};
  case Argument::Kind::Float:
    return Number{true, 0, a.asFloat()};
  default:
    break;
  }
  // A symbolic integer, or a node holding a number.
  if (auto i = ctx.integer(name))
    return Number{false, *i, 0};
  FXKIT_KTRY(f, ctx.scalar(name));
  return Number{true, 0, f};
}

/// The largest finite value of a floating dtype.
double floatMax(DType dtype) {
  switch (dtype) {
  case DType::Float16:
    return 65504.0;
  case DType::BFloat16:
    return 0x1.fep127;
  case DType::Float32:
    return std::numeric_limits<float>::max();
  default:
    return std::numeric_limits<double>::max();
  }
}

/// Whether c10's checked_convert refuses v for dtype (c10::overflows): a finite value beyond
/// the dtype's range, or NaN for an integer. Bool takes any value (v != 0).
bool overflows(const Number &v, DType dtype) {
  if (dtype == DType::Bool)
    return false;
  if (dtypeIsFloating(dtype))
    return std::isfinite(v.asDouble()) && std::fabs(v.asDouble()) > floatMax(dtype);
  double lo = dtype == DType::Int32 ? std::numeric_limits<int32_t>::min() : -0x1p63;
  double hi = dtype == DType::Int32 ? std::numeric_limits<int32_t>::max() : 0x1p63;
  if (!v.isFloat)
    return dtype == DType::Int32 && (v.i < lo || v.i > hi);
  return std::isnan(v.f) || v.f < lo || v.f >= hi;
}

/// Stores v at a storage offset of out: an int into an integral dtype exactly, into a float
/// one rounded once from the exact value (as c10's int-to-float casts, not via double).
void store(Tensor &out, int64_t offset, const Number &v) {
  if (v.isFloat)
    out.storeDouble(offset, v.f);
  else if (out.dtype() == DType::Float64 || !dtypeIsFloating(out.dtype()))
    out.storeInt(offset, v.i);
  else
    out.storeDouble(offset, static_cast<float>(v.i));
}

/// full and scalar_tensor: the output (sizes and dtype as inferred) filled with `valueName`.
Status fillKernel(KernelContext &ctx, std::string_view valueName) {
  FXKIT_KTRY(value, numberArg(ctx, valueName));
  FXKIT_KTRY(out, ctx.allocateOutput());
  if (Status s = checkComputable(out.dtype(), "result"); !s)
    return ctx.error(s.error().message);
  if (overflows(value, out.dtype()))
    return ctx.error(
        "value " + (value.isFloat ? std::to_string(value.f) : std::to_string(value.i)) +
        " cannot be converted to " + std::string(dtypeName(out.dtype())) + " without overflow");
  Tensor::forEachIndex(
      out.sizes(), [&](std::span<const int64_t> index) { store(out, out.offsetOf(index), value); });
  ctx.result.v = std::move(out);
  return Status::ok();
}

Status fullKernel(KernelContext &ctx) {
  // Checked before allocating, so the message names the size (PyTorch refuses it too).
  FXKIT_KTRY(sizes, ctx.intList("size"));
  for (int64_t s : sizes)
    if (s < 0)
      return ctx.error("negative size in " + kernels::sizesStr(sizes));
  return fillKernel(ctx, "fill_value");
}

Status scalarTensorKernel(KernelContext &ctx) { return fillKernel(ctx, "s"); }

/// prims.iota: start + i * step for i in [0, length), computed exactly in int64.
Status iotaKernel(KernelContext &ctx) {
  FXKIT_KTRY(length, ctx.integer("length"));
  FXKIT_KTRY(start, ctx.integer("start"));
  FXKIT_KTRY(step, ctx.integer("step"));
  if (length < 0)
    return ctx.error("length must be non-negative, got " + std::to_string(length));
  FXKIT_KTRY(out, ctx.allocateOutput());
  if (Status s = checkComputable(out.dtype(), "result"); !s)
    return ctx.error(s.error().message);
  if (out.dim() != 1 || out.size(0) != length)
    return ctx.error("result of sizes " + kernels::sizesStr(out.sizes()) + " for length " +
                     std::to_string(length));
  for (int64_t i = 0; i < length; ++i) {
    // Wrapping arithmetic: signed overflow is undefined in C++, two's complement in PyTorch.
    auto v = static_cast<int64_t>(static_cast<uint64_t>(start) +
                                  static_cast<uint64_t>(i) * static_cast<uint64_t>(step));
    store(out, out.storageOffset() + i * out.stride(0), Number{false, v, 0});
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
