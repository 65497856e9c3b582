#include "backends/interp/SymbolicKernels.h"
#include "backends/interp/KernelSupport.h"
#include "ir/ops/OpFamilies.h"
#include "ir/ops/ShapeRules.h"
#include "ir/ops/SymbolicOps.h"

#include "ir/Try.h"

#include <cassert>

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
  FXKIT_ASSIGN_OR_RETURN(auto index, ctx.integer("b"));
  const Argument &a = ctx.args.get("a");
  if (a.isNode()) {
    const RuntimeValue *v = ctx.valueOf(a.asNode());
    const auto *ts = v ? v->tensors() : nullptr;
    if (!ts)
      return ctx.error("input '" + a.asNode()->name() + "' is not a list of results at run time");
    FXKIT_ASSIGN_OR_RETURN(auto i, wrapIndex(ctx, index, ts->size()));
    if (!(*ts)[i])
      return ctx.error("result " + std::to_string(i) + " of '" + a.asNode()->name() +
                       "' is not a tensor");
    ctx.result.v = *(*ts)[i];
    return Status::ok();
  }
  if (a.kind() != Argument::Kind::List && a.kind() != Argument::Kind::Tuple)
    return ctx.error("getitem expects a list of results or a list/tuple");
  FXKIT_ASSIGN_OR_RETURN(auto i, wrapIndex(ctx, index, a.items().size()));
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
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, ctx.integer("dim"));
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
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto format, ctx.args.memoryFormat("memory_format"));
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

/// Every symbolic scalar op (operator.ge, torch.sym_float, math.floor, ...): the expression
/// inference builds (symbolicOpExpr), over the runtime numbers, evaluated with Python's rules
/// (SymExpr::evaluateNumber: floordiv floors, mod takes the divisor's sign, `/` gives a
/// float, comparisons give bools; an int result beyond int64 is an error, never wrapped).
Status scalarOpKernel(KernelContext &ctx) {
  std::vector<SymExpr> operands;
  const OpSchema &schema = ctx.args.op().schema;
  auto add = [&](const Argument &a) -> Status {
    FXKIT_ASSIGN_OR_RETURN(auto n, ctx.numberOf(a));
    operands.push_back(numberExpr(n));
    return Status::ok();
  };
  if (ctx.args.op().target == "torch.sym_sum") {
    const Argument &list = ctx.args.at(0);
    for (const Argument &item : list.items())
      FXKIT_TRY(add(item));
  } else {
    for (size_t i = 0; i < schema.args.size(); ++i)
      FXKIT_TRY(add(ctx.args.at(i)));
  }
  auto e = symbolicOpExpr(ctx.args.op().target, operands);
  if (!e)
    return ctx.error(e.error().message);
  auto v = e->evaluateNumber(ctx.bindings);
  if (!v)
    return ctx.error(v.error().message);
  switch (v->type) {
  case SymExpr::Type::Int:
    ctx.result.v = v->i;
    break;
  case SymExpr::Type::Float:
    ctx.result.v = v->f;
    break;
  case SymExpr::Type::Bool:
    ctx.result.v = v->i != 0;
    break;
  }
  return Status::ok();
}

/// _assert_scalar: the runtime check of a condition Dynamo could not decide.
Status assertScalarKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto cond, ctx.number("self"));
  if (!cond.truthy()) {
    const Argument &msg = ctx.args.get("assert_msg");
    std::string text = assertMessage(msg);
    return ctx.error(text.empty() ? "assertion failed" : text);
  }
  return Status::ok();
}

/// sym_constrain_range[_for_size]: the value must lie in [min, max] (aten's
/// sym_constrain_range; the _for_size form defaults min to 0).
Status symConstrainRangeKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto size, ctx.integer("size"));
  FXKIT_ASSIGN_OR_RETURN(auto lo, ctx.optionalInteger("min"));
  FXKIT_ASSIGN_OR_RETURN(auto hi, ctx.optionalInteger("max"));
  bool forSize = ctx.args.op().target == "torch.ops.aten.sym_constrain_range_for_size.default";
  int64_t minV = lo ? *lo : (forSize ? 0 : std::numeric_limits<int64_t>::min());
  int64_t maxV = hi ? *hi : std::numeric_limits<int64_t>::max();
  if (maxV < minV)
    return ctx.error("Max must be greater than or equal to min");
  if (size < minV || size > maxV)
    return ctx.error("Invalid value range for " + std::to_string(size) + " between [" +
                     std::to_string(minV) + ", " + std::to_string(maxV) + "].");
  return Status::ok();
}

/// _assert_async.msg: a one-element tensor that must be nonzero.
Status assertAsyncMsgKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  if (self.numel() != 1)
    return ctx.error("Boolean value of Tensor with more than one value is ambiguous");
  std::vector<int64_t> zero(self.sizes().size(), 0);
  if (self.getDouble(zero) == 0) {
    const Argument &msg = ctx.args.get("assert_msg");
    return ctx.error("Expected Tensor with single nonzero value, but got zero" +
                     (assertMessage(msg).empty() ? std::string() : ": " + assertMessage(msg)));
  }
  return Status::ok();
}

} // namespace
} // namespace symbolic_kernels

void registerSymbolicKernels() {
  using namespace symbolic_kernels;
  static const std::pair<std::string_view, KernelFn> table[] = {
      {"operator.getitem", getitemKernel},
      {"torch.ops.aten.sym_size.int", symSizeKernel},
      {"torch.ops.aten.sym_is_contiguous.default", symIsContiguousKernel},
      {"torch.ops.aten._assert_scalar.default", assertScalarKernel},
      {"torch.ops.aten.sym_constrain_range.default", symConstrainRangeKernel},
      {"torch.ops.aten.sym_constrain_range_for_size.default", symConstrainRangeKernel},
      {"torch.ops.aten._assert_async.msg", assertAsyncMsgKernel},
  };
  kernels::registerKernelList(table);
  for (const OpRow &row : symbolicOpRows())
    if (isSymbolicScalarOp(row.target))
      if (Status s = OpRegistry::instance().setKernel(row.target, scalarOpKernel); !s)
        assert(false && "a symbolic scalar op has no registry row");
}

} // namespace fxkit
