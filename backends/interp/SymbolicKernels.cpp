#include "backends/interp/SymbolicKernels.h"
#include "backends/interp/KernelSupport.h"
#include "ir/ops/ShapeRules.h"

#include <limits>

namespace fxkit {
namespace symbolic_kernels {

namespace {

/// Wraps a Python index (negative counts from the end) into [0, n), or errors.
Expected<size_t> wrapIndex(const KernelContext &ctx, int64_t index, size_t n) {
  int64_t size = static_cast<int64_t>(n);
  int64_t i = index < 0 ? index + size : index;
  if (i < 0 || i >= size)
    return ctx.error("index " + std::to_string(index) + " out of range for " + std::to_string(n) +
                     " elements");
  return static_cast<size_t>(i);
}

/// operator.getitem: element `b` of a multi-result value (split, var_mean, topk), or of a
/// list/tuple argument (its node's value, or a number).
Status getitemKernel(KernelContext &ctx) {
  FXKIT_KTRY(index, ctx.integer("b"));
  const Argument &a = ctx.args.get("a");
  if (a.isNode()) {
    const RuntimeValue *v = ctx.valueOf(a.asNode());
    const auto *ts = v ? v->tensors() : nullptr;
    if (!ts)
      return ctx.error("input '" + a.asNode()->name() + "' is not a list of results at run time");
    FXKIT_KTRY(i, wrapIndex(ctx, index, ts->size()));
    if (!(*ts)[i])
      return ctx.error("result " + std::to_string(i) + " of '" + a.asNode()->name() +
                       "' is not a tensor");
    ctx.result.v = *(*ts)[i];
    return Status::ok();
  }
  if (a.kind() != Argument::Kind::List && a.kind() != Argument::Kind::Tuple)
    return ctx.error("getitem expects a list of results or a list/tuple");
  FXKIT_KTRY(i, wrapIndex(ctx, index, a.items().size()));
  const Argument &item = a.items()[i];
  switch (item.kind()) {
  case Argument::Kind::NodeRef:
    if (const RuntimeValue *v = ctx.valueOf(item.asNode())) {
      ctx.result = *v;
      return Status::ok();
    }
    return ctx.error("input '" + item.asNode()->name() + "' has no value at run time");
  case Argument::Kind::Int:
    ctx.result.v = item.asInt();
    return Status::ok();
  case Argument::Kind::Sym: {
    auto v = item.asSym().evaluate(ctx.bindings);
    if (!v)
      return ctx.error(v.error().message);
    ctx.result.v = *v;
    return Status::ok();
  }
  case Argument::Kind::Float:
    ctx.result.v = item.asFloat();
    return Status::ok();
  case Argument::Kind::Bool:
    ctx.result.v = item.asBool();
    return Status::ok();
  default:
    return ctx.error("getitem of an unsupported list element");
  }
}

/// aten.sym_size.int: a dimension's size as an integer.
Status symSizeKernel(KernelContext &ctx) {
  FXKIT_KTRY(self, ctx.tensor("self"));
  FXKIT_KTRY(dim, ctx.integer("dim"));
  if (self.dim() == 0)
    return ctx.error("sym_size of a 0-d tensor");
  auto d = normalizeDim(dim, static_cast<size_t>(self.dim()));
  if (!d)
    return ctx.error(d.error().message);
  ctx.result.v = self.size(*d);
  return Status::ok();
}

/// aten.sym_is_contiguous: whether the tensor's strides are the contiguous (or channels-last)
/// ones for its sizes.
Status symIsContiguousKernel(KernelContext &ctx) {
  FXKIT_KTRY(self, ctx.tensor("self"));
  FXKIT_KTRY(format, ctx.args.memoryFormat("memory_format"));
  std::vector<SymExpr> sizes, strides;
  for (int64_t d = 0; d < self.dim(); ++d) {
    sizes.emplace_back(self.size(d));
    strides.emplace_back(self.stride(d));
  }
  ctx.result.v = format.value_or("contiguous_format") == "channels_last"
                     ? isChannelsLastContiguous(sizes, strides)
                     : isContiguous(sizes, strides);
  return Status::ok();
}

/// Python's integer arithmetic on int64: floordiv floors and mod takes the divisor's sign;
/// truediv gives a double. Python integers do not overflow, so a result beyond int64 is an
/// error rather than a silently wrapped size.
template <SymExpr::Kind kind> Status arithKernel(KernelContext &ctx) {
  FXKIT_KTRY(a, ctx.integer("a"));
  FXKIT_KTRY(b, ctx.integer("b"));
  bool division = kind == SymExpr::Kind::FloorDiv || kind == SymExpr::Kind::TrueDiv ||
                  kind == SymExpr::Kind::Mod;
  if (division && b == 0)
    return ctx.error("division by zero: " + std::to_string(a) + " by 0");
  int64_t r = 0;
  bool overflow = false;
  switch (kind) {
  case SymExpr::Kind::Add:
    overflow = __builtin_add_overflow(a, b, &r);
    break;
  case SymExpr::Kind::Sub:
    overflow = __builtin_sub_overflow(a, b, &r);
    break;
  case SymExpr::Kind::Mul:
    overflow = __builtin_mul_overflow(a, b, &r);
    break;
  case SymExpr::Kind::TrueDiv:
    ctx.result.v = static_cast<double>(a) / static_cast<double>(b);
    return Status::ok();
  case SymExpr::Kind::FloorDiv:
    // INT64_MIN // -1 is the one quotient beyond int64.
    overflow = b == -1 && a == std::numeric_limits<int64_t>::min();
    if (!overflow)
      r = a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0);
    break;
  default: // Mod; b == -1 is special-cased because INT64_MIN % -1 is undefined in C++.
    r = b == -1 ? 0 : a % b;
    if (r != 0 && ((r < 0) != (b < 0)))
      r += b;
    break;
  }
  if (overflow)
    return ctx.error("integer overflow computing " + std::to_string(a) + " and " +
                     std::to_string(b));
  ctx.result.v = r;
  return Status::ok();
}

} // namespace
} // namespace symbolic_kernels

void registerSymbolicKernels() {
  using namespace symbolic_kernels;
  using K = SymExpr::Kind;
  static const std::pair<std::string_view, KernelFn> table[] = {
      {"operator.getitem", getitemKernel},
      {"torch.ops.aten.sym_size.int", symSizeKernel},
      {"torch.ops.aten.sym_is_contiguous.default", symIsContiguousKernel},
      {"operator.add", arithKernel<K::Add>},
      {"operator.sub", arithKernel<K::Sub>},
      {"operator.mul", arithKernel<K::Mul>},
      {"operator.floordiv", arithKernel<K::FloorDiv>},
      {"operator.truediv", arithKernel<K::TrueDiv>},
      {"operator.mod", arithKernel<K::Mod>},
  };
  kernels::registerKernelList(table);
}

} // namespace fxkit
