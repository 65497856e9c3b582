#include "backends/interp/ScalarArgs.h"
#include "backends/interp/KernelSupport.h"

#include <limits>

namespace fxkit::kernels {

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
  FXKIT_ASSIGN_OR_RETURN(auto f, ctx.scalar(name));
  return Number{true, 0, f};
}

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

void storeNumber(Tensor &out, int64_t offset, const Number &v) {
  if (v.isFloat)
    out.storeDouble(offset, v.f);
  else if (out.dtype() == DType::Float64 || !dtypeIsFloating(out.dtype()))
    out.storeInt(offset, v.i);
  else
    out.storeDouble(offset, static_cast<float>(v.i));
}

} // namespace fxkit::kernels
