/// \file Rows and inference of the symbolic scalar ops (SymbolicOps.h): Python's operators on
/// SymInt/SymFloat/SymBool, torch.sym_*, math.*, and the ATen assertions on them.

#include "ir/ops/SymbolicOps.h"

#include "ir/Try.h"
#include "ir/ops/InferSupport.h"
#include "ir/ops/NodeSymValue.h"
#include "ir/ops/OpFamilies.h"
#include "ir/ops/ShapeRules.h"

#include <algorithm>

namespace fxkit {

namespace {

using K = SymExpr::Kind;
using T = SymExpr::Type;

/// An expression without free symbols becomes its value (`3 >= 0` is True, `2*0.5` is 1.0);
/// one that cannot be evaluated (a division by zero) is an error, as Python would raise.
Expected<SymExpr> fold(SymExpr e) {
  if (e.isConstant() || !e.symbols().empty())
    return e;
  FXKIT_ASSIGN_OR_RETURN(auto v, e.evaluateNumber({}));
  return numberExpr(v);
}

bool allInts(std::span<const SymExpr> ops) {
  return std::all_of(ops.begin(), ops.end(), [](const SymExpr &e) { return e.type() == T::Int; });
}

/// How one op builds its result.
struct ScalarOpSpec {
  std::string_view target;
  size_t arity; ///< 0: any number of operands (sym_sum)
  Expected<SymExpr> (*build)(std::span<const SymExpr> ops);
};

template <K kind> Expected<SymExpr> binaryOp(std::span<const SymExpr> ops) {
  const SymExpr &a = ops[0], &b = ops[1];
  // Numbers compute with Python's rules (an int beyond int64 is an error, never wrapped).
  if (a.symbols().empty() && b.symbols().empty())
    return fold(SymExpr::binary(kind, a, b));
  if (allInts(ops) && kind != K::TrueDiv && kind != K::Pow && kind != K::Mod) {
    // Sizes keep the polynomial normal form shape inference gives them everywhere else.
    if ((kind == K::FloorDiv) && symIs(b, 0))
      return Error("integer division by zero");
    switch (kind) {
    case K::Add:
      return symAdd(a, b);
    case K::Sub:
      return symSub(a, b);
    case K::Mul:
      return symMul(a, b);
    case K::FloorDiv:
      return symFloorDiv(a, b);
    default:
      break;
    }
  }
  return fold(SymExpr::binary(kind, a, b));
}

template <K kind> Expected<SymExpr> unaryOp(std::span<const SymExpr> ops) {
  return fold(SymExpr::unary(kind, ops[0]));
}

/// A sympy function of the operands (`ToFloat(s0)`, `Max(u0, 1)`).
template <const char *name> Expected<SymExpr> callOp(std::span<const SymExpr> ops) {
  return fold(SymExpr::call(name, ops));
}

constexpr char kToFloat[] = "ToFloat", kTrunc[] = "TruncToInt";

Expected<SymExpr> identityOp(std::span<const SymExpr> ops) { return ops[0]; }

/// torch.sym_float: an int becomes a float (sympy's ToFloat); a float stays.
Expected<SymExpr> symFloat(std::span<const SymExpr> ops) {
  if (ops[0].type() == T::Float)
    return ops[0];
  return callOp<kToFloat>(ops);
}

/// torch.sym_int (and math.trunc): a float truncates toward zero (sympy's TruncToInt).
Expected<SymExpr> symInt(std::span<const SymExpr> ops) {
  if (ops[0].type() != T::Float)
    return ops[0];
  return callOp<kTrunc>(ops);
}

/// math.floor / math.ceil: an int is itself; a float rounds to an int.
template <const char *name> Expected<SymExpr> rounding(std::span<const SymExpr> ops) {
  if (ops[0].type() != T::Float)
    return ops[0];
  return callOp<name>(ops);
}

Expected<SymExpr> symSum(std::span<const SymExpr> ops) {
  if (ops.empty())
    return SymExpr(0);
  SymExpr acc = ops[0];
  for (size_t i = 1; i < ops.size(); ++i) {
    SymExpr pair[2] = {acc, ops[i]};
    auto next = binaryOp<K::Add>(pair);
    if (!next)
      return next;
    acc = *next;
  }
  return acc;
}

/// torch.sym_ite(b, t, f): sympy's Piecewise((t, b), (f, True)).
Expected<SymExpr> symIte(std::span<const SymExpr> ops) {
  auto cond = fold(ops[0]);
  if (!cond)
    return cond;
  if (cond->kind() == K::Named && (cond->name() == "True" || cond->name() == "False"))
    return ops[cond->name() == "True" ? 1 : 2];
  SymExpr first[2] = {ops[1], ops[0]};
  SymExpr second[2] = {ops[2], SymExpr::boolean(true)};
  SymExpr pairs[2] = {SymExpr::tuple(first), SymExpr::tuple(second)};
  return SymExpr::call("Piecewise", pairs);
}

constexpr char kMax[] = "Max", kMin[] = "Min", kAbs[] = "Abs", kFloor[] = "FloorToInt",
               kCeil[] = "CeilToInt", kLShift[] = "LShift", kRShift[] = "RShift",
               kSqrt[] = "OpaqueUnaryFn_sqrt", kExp[] = "OpaqueUnaryFn_exp",
               kLog[] = "OpaqueUnaryFn_log", kLog2[] = "OpaqueUnaryFn_log2",
               kSin[] = "OpaqueUnaryFn_sin", kCos[] = "OpaqueUnaryFn_cos",
               kTan[] = "OpaqueUnaryFn_tan", kAsin[] = "OpaqueUnaryFn_asin",
               kAcos[] = "OpaqueUnaryFn_acos", kAtan[] = "OpaqueUnaryFn_atan",
               kSinh[] = "OpaqueUnaryFn_sinh", kCosh[] = "OpaqueUnaryFn_cosh",
               kTanh[] = "OpaqueUnaryFn_tanh";

/// Every scalar op: FX's target, its operand count and what it builds. Python's operators
/// (`operator.ge` of `u0 >= 0`), torch's symbolic helpers (torch/__init__.py sym_*) and the
/// math functions Dynamo records on SymFloats (torch/fx/experimental/sym_node.py maps them to
/// the sympy functions named here: ToFloat, TruncToInt, FloorToInt, OpaqueUnaryFn_sqrt, ...).
const ScalarOpSpec kScalarOps[] = {
    {"operator.add", 2, binaryOp<K::Add>},
    {"operator.sub", 2, binaryOp<K::Sub>},
    {"operator.mul", 2, binaryOp<K::Mul>},
    {"operator.floordiv", 2, binaryOp<K::FloorDiv>},
    {"operator.truediv", 2, binaryOp<K::TrueDiv>},
    {"operator.mod", 2, binaryOp<K::Mod>},
    {"operator.pow", 2, binaryOp<K::Pow>},
    {"operator.ge", 2, binaryOp<K::Ge>},
    {"operator.gt", 2, binaryOp<K::Gt>},
    {"operator.le", 2, binaryOp<K::Le>},
    {"operator.lt", 2, binaryOp<K::Lt>},
    {"operator.eq", 2, binaryOp<K::Eq>},
    {"operator.ne", 2, binaryOp<K::Ne>},
    {"operator.and_", 2, binaryOp<K::BitAnd>},
    {"operator.or_", 2, binaryOp<K::BitOr>},
    {"operator.xor", 2, binaryOp<K::BitXor>},
    {"operator.lshift", 2, callOp<kLShift>},
    {"operator.rshift", 2, callOp<kRShift>},
    {"operator.neg", 1, unaryOp<K::Neg>},
    {"operator.pos", 1, identityOp},
    {"operator.abs", 1, callOp<kAbs>},
    {"operator.not_", 1, unaryOp<K::Not>},
    {"operator.invert", 1, unaryOp<K::Invert>},
    {"torch.sym_float", 1, symFloat},
    {"torch.sym_int", 1, symInt},
    {"torch.sym_not", 1, unaryOp<K::Invert>},
    {"torch.sym_max", 2, callOp<kMax>},
    {"torch.sym_min", 2, callOp<kMin>},
    {"torch.sym_sum", 0, symSum},
    {"torch.sym_ite", 3, symIte},
    {"torch.sym_sqrt", 1, callOp<kSqrt>},
    {"math.floor", 1, rounding<kFloor>},
    {"math.ceil", 1, rounding<kCeil>},
    {"math.trunc", 1, symInt},
    {"math.sqrt", 1, callOp<kSqrt>},
    {"math.exp", 1, callOp<kExp>},
    {"math.log", 1, callOp<kLog>},
    {"math.log2", 1, callOp<kLog2>},
    {"math.sin", 1, callOp<kSin>},
    {"math.cos", 1, callOp<kCos>},
    {"math.tan", 1, callOp<kTan>},
    {"math.asin", 1, callOp<kAsin>},
    {"math.acos", 1, callOp<kAcos>},
    {"math.atan", 1, callOp<kAtan>},
    {"math.sinh", 1, callOp<kSinh>},
    {"math.cosh", 1, callOp<kCosh>},
    {"math.tanh", 1, callOp<kTanh>},
};

const ScalarOpSpec *findScalarOp(std::string_view target) {
  for (const ScalarOpSpec &s : kScalarOps)
    if (s.target == target)
      return &s;
  return nullptr;
}

/// An operand as an expression: a Python number, a symbolic expression, or a node holding one.
Expected<SymExpr> scalarOf(const BoundArgs &b, const Argument &a) {
  switch (a.kind()) {
  case Argument::Kind::Int:
    return SymExpr(a.asInt());
  case Argument::Kind::Bool:
    return SymExpr::boolean(a.asBool());
  case Argument::Kind::Float:
    return SymExpr::floating(a.asFloat());
  case Argument::Kind::Sym:
    return a.asSym();
  case Argument::Kind::NodeRef: {
    auto s = nodeSymValue(*a.asNode(), "a SymInt, SymFloat or SymBool");
    if (!s)
      return b.error(s.error().message);
    return s;
  }
  default:
    return b.error("expected a number or a symbolic scalar");
  }
}

/// Inference of every scalar op: its operands' expressions, combined.
Expected<NodeValue> inferScalarOp(const BoundArgs &b) {
  const ScalarOpSpec *spec = findScalarOp(b.op().target);
  if (!spec)
    return b.error("not a symbolic scalar op");
  std::vector<SymExpr> ops;
  if (spec->arity == 0) {
    const Argument &list = b.at(0);
    if (list.kind() != Argument::Kind::List && list.kind() != Argument::Kind::Tuple)
      return b.error("expected a list of numbers");
    for (const Argument &item : list.items()) {
      FXKIT_ASSIGN_OR_RETURN(auto e, scalarOf(b, item));
      ops.push_back(e);
    }
  } else {
    for (size_t i = 0; i < spec->arity; ++i) {
      FXKIT_ASSIGN_OR_RETURN(auto e, scalarOf(b, b.at(i)));
      ops.push_back(e);
    }
  }
  auto r = spec->build(ops);
  if (!r)
    return b.error(r.error().message);
  return NodeValue{*r};
}

/// _assert_scalar(cond, msg): a runtime assertion Dynamo could not decide (`u0 >= 0`). One
/// whose condition folds to false fails here, as PyTorch fails at trace time.
Expected<NodeValue> assertScalar(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto cond, scalarOf(b, b.get("self")));
  if (cond.symbols().empty()) {
    auto v = cond.evaluateNumber({});
    if (v && !v->truthy()) {
      const Argument &msg = b.get("assert_msg");
      std::string text = assertMessage(msg);
      return b.error(text.empty() ? "assertion failed" : text);
    }
  }
  return NodeValue{};
}

/// sym_constrain_range[_for_size](size, min, max): declares the range of an unbacked size.
Expected<NodeValue> symConstrainRange(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto size, scalarOf(b, b.get("size")));
  FXKIT_ASSIGN_OR_RETURN(auto lo, b.optionalInteger("min"));
  FXKIT_ASSIGN_OR_RETURN(auto hi, b.optionalInteger("max"));
  if (lo && hi && *hi < *lo)
    return b.error("Max must be greater than or equal to min");
  if (size.isConstant()) {
    int64_t v = size.constant();
    if ((lo && v < *lo) || (hi && v > *hi))
      return b.error("Invalid value range for " + std::to_string(v) + " between [" +
                     (lo ? std::to_string(*lo) : "-inf") + ", " +
                     (hi ? std::to_string(*hi) : "inf") + "]");
  }
  return NodeValue{};
}

/// _assert_async.msg(self, msg): a one-element tensor that must be nonzero at run time.
Expected<NodeValue> assertAsyncMsg(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  if (!symIs(symProduct(self.sizes), 1))
    return b.error("Boolean value of Tensor with more than one value is ambiguous");
  return NodeValue{};
}

using C = OpCategory;

// clang-format off
/// Python operators take untyped operands (`Any`); the ATen rows are PyTorch 2.11's schemas.
const OpRow kRows[] = {
  {"operator.add", "add(Any a, Any b) -> Any", C::Other, inferScalarOp},
  {"operator.sub", "sub(Any a, Any b) -> Any", C::Other, inferScalarOp},
  {"operator.mul", "mul(Any a, Any b) -> Any", C::Other, inferScalarOp},
  {"operator.floordiv", "floordiv(Any a, Any b) -> Any", C::Other, inferScalarOp},
  {"operator.truediv", "truediv(Any a, Any b) -> Any", C::Other, inferScalarOp},
  {"operator.mod", "mod(Any a, Any b) -> Any", C::Other, inferScalarOp},
  {"operator.pow", "pow(Any a, Any b) -> Any", C::Other, inferScalarOp},
  {"operator.ge", "ge(Any a, Any b) -> Any", C::Other, inferScalarOp},
  {"operator.gt", "gt(Any a, Any b) -> Any", C::Other, inferScalarOp},
  {"operator.le", "le(Any a, Any b) -> Any", C::Other, inferScalarOp},
  {"operator.lt", "lt(Any a, Any b) -> Any", C::Other, inferScalarOp},
  {"operator.eq", "eq(Any a, Any b) -> Any", C::Other, inferScalarOp},
  {"operator.ne", "ne(Any a, Any b) -> Any", C::Other, inferScalarOp},
  {"operator.and_", "and_(Any a, Any b) -> Any", C::Other, inferScalarOp},
  {"operator.or_", "or_(Any a, Any b) -> Any", C::Other, inferScalarOp},
  {"operator.xor", "xor(Any a, Any b) -> Any", C::Other, inferScalarOp},
  {"operator.lshift", "lshift(Any a, Any b) -> Any", C::Other, inferScalarOp},
  {"operator.rshift", "rshift(Any a, Any b) -> Any", C::Other, inferScalarOp},
  {"operator.neg", "neg(Any a) -> Any", C::Other, inferScalarOp},
  {"operator.pos", "pos(Any a) -> Any", C::Other, inferScalarOp},
  {"operator.abs", "abs(Any a) -> Any", C::Other, inferScalarOp},
  {"operator.not_", "not_(Any a) -> Any", C::Other, inferScalarOp},
  {"operator.invert", "invert(Any a) -> Any", C::Other, inferScalarOp},
  {"torch.sym_float", "sym_float(Any a) -> Any", C::Other, inferScalarOp},
  {"torch.sym_int", "sym_int(Any a) -> Any", C::Other, inferScalarOp},
  {"torch.sym_not", "sym_not(Any a) -> Any", C::Other, inferScalarOp},
  {"torch.sym_max", "sym_max(Any a, Any b) -> Any", C::Other, inferScalarOp},
  {"torch.sym_min", "sym_min(Any a, Any b) -> Any", C::Other, inferScalarOp},
  {"torch.sym_sum", "sym_sum(Any args) -> Any", C::Other, inferScalarOp},
  {"torch.sym_ite", "sym_ite(Any b, Any t, Any f) -> Any", C::Other, inferScalarOp},
  {"torch.sym_sqrt", "sym_sqrt(Any a) -> Any", C::Other, inferScalarOp},
  {"math.floor", "floor(Any x) -> Any", C::Other, inferScalarOp},
  {"math.ceil", "ceil(Any x) -> Any", C::Other, inferScalarOp},
  {"math.trunc", "trunc(Any x) -> Any", C::Other, inferScalarOp},
  {"math.sqrt", "sqrt(Any x) -> Any", C::Other, inferScalarOp},
  {"math.exp", "exp(Any x) -> Any", C::Other, inferScalarOp},
  {"math.log", "log(Any x) -> Any", C::Other, inferScalarOp},
  {"math.log2", "log2(Any x) -> Any", C::Other, inferScalarOp},
  {"math.sin", "sin(Any x) -> Any", C::Other, inferScalarOp},
  {"math.cos", "cos(Any x) -> Any", C::Other, inferScalarOp},
  {"math.tan", "tan(Any x) -> Any", C::Other, inferScalarOp},
  {"math.asin", "asin(Any x) -> Any", C::Other, inferScalarOp},
  {"math.acos", "acos(Any x) -> Any", C::Other, inferScalarOp},
  {"math.atan", "atan(Any x) -> Any", C::Other, inferScalarOp},
  {"math.sinh", "sinh(Any x) -> Any", C::Other, inferScalarOp},
  {"math.cosh", "cosh(Any x) -> Any", C::Other, inferScalarOp},
  {"math.tanh", "tanh(Any x) -> Any", C::Other, inferScalarOp},
  // Assertions and ranges of unbacked values: no result.
  {"torch.ops.aten._assert_scalar.default", "_assert_scalar(Scalar self, str assert_msg) -> ()", C::Other, assertScalar},
  {"torch.ops.aten.sym_constrain_range.default", "sym_constrain_range(Scalar size, *, int? min=None, int? max=None) -> ()", C::Other, symConstrainRange},
  {"torch.ops.aten.sym_constrain_range_for_size.default", "sym_constrain_range_for_size(Scalar size, *, int? min=None, int? max=None) -> ()", C::Other, symConstrainRange},
  {"torch.ops.aten._assert_async.msg", "_assert_async.msg(Tensor self, str assert_msg) -> ()", C::Other, assertAsyncMsg},
};
// clang-format on

} // namespace

std::span<const OpRow> symbolicOpRows() { return kRows; }

bool isSymbolicScalarOp(std::string_view target) { return findScalarOp(target) != nullptr; }

Expected<SymExpr> symbolicOpExpr(std::string_view target, std::span<const SymExpr> operands) {
  const ScalarOpSpec *spec = findScalarOp(target);
  if (!spec)
    return Error("'" + std::string(target) + "' is not a symbolic scalar op");
  if (spec->arity != 0 && operands.size() != spec->arity)
    return Error("'" + std::string(target) + "' takes " + std::to_string(spec->arity) +
                 " operands, not " + std::to_string(operands.size()));
  return spec->build(operands);
}

std::string assertMessage(const Argument &msg) {
  if (msg.kind() == Argument::Kind::String || msg.kind() == Argument::Kind::Opaque)
    return std::string(msg.asString());
  return {};
}

SymExpr numberExpr(const SymExpr::Number &n) {
  switch (n.type) {
  case T::Int:
    return SymExpr(n.i);
  case T::Float:
    return SymExpr::floating(n.f);
  case T::Bool:
    return SymExpr::boolean(n.i != 0);
  }
  return SymExpr(n.i);
}

} // namespace fxkit
