#include "transforms/Lowering.h"
#include "ir/ops/PointwiseOps.h"
#include "transforms/OnlineSoftmax.h"
#include "transforms/SplitReductions.h"
#include "transforms/lowering/Lowerer.h"
#include "transforms/lowering/LoweringRules.h"
#include "transforms/lowering/TensorResults.h"

#include "ir/OutputValues.h"
#include "ir/ops/ArgumentNodes.h"
#include "ir/ops/OpRegistry.h"
#include "ir/ops/ShapeRules.h"
#include "ir/ops/SymbolicOps.h"
#include "transforms/SizeArgs.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

namespace fxkit {
namespace lowering {

/// "add" of `torch.ops.aten.add.Tensor`, "getitem" of `operator.getitem`.
std::string shortOpName(std::string_view target) {
  constexpr std::string_view torchOps = "torch.ops.";
  if (target.starts_with(torchOps)) {
    target.remove_prefix(torchOps.size());
    size_t ns = target.find('.');
    if (ns != std::string_view::npos)
      target.remove_prefix(ns + 1);
    return std::string(target.substr(0, target.find('.')));
  }
  size_t dot = target.rfind('.');
  return std::string(dot == std::string_view::npos ? target : target.substr(dot + 1));
}

/// The variables of a loop over `sizes`: one per dimension, 0 for a dimension of size 1 (no
/// loop: every kernel sees the same iteration space whatever size-1 dimensions a tensor has).
/// The sizes that get a variable are appended to `ranges`.
std::vector<SymExpr> iterate(const std::vector<SymExpr> &sizes, std::vector<SymExpr> &ranges,
                             bool reduction) {
  std::vector<SymExpr> vars;
  for (const SymExpr &size : sizes) {
    if (symIs(size, 1)) {
      vars.push_back(SymExpr(0));
      continue;
    }
    vars.push_back(loopVar(reduction, ranges.size()));
    ranges.push_back(size);
  }
  return vars;
}

/// offset + sum of vars[j] * strides[j] over the dimensions that are not size 1 (`vars` holds
/// one variable per dimension).
SymExpr linearIndex(const SymExpr &offset, const std::vector<SymExpr> &sizes,
                    const std::vector<SymExpr> &strides, const SymExpr *vars) {
  SymExpr index = offset;
  for (size_t j = 0; j < sizes.size(); ++j)
    if (!symIs(sizes[j], 1))
      index = symAdd(index, symMul(vars[j], strides[j]));
  return index;
}
SymExpr linearIndex(const SymExpr &offset, const std::vector<SymExpr> &sizes,
                    const std::vector<SymExpr> &strides, const std::vector<SymExpr> &vars) {
  return linearIndex(offset, sizes, strides, vars.data());
}

Expected<BufferView> Lowerer::tensorArg(const Node &n, const Argument &a) {
  if (!a.isNode())
    return nodeError(n, "expected a tensor argument");
  Lowered &v = valueOf(a.asNode());
  if (v.kind != Lowered::Kind::Tensor)
    return nodeError(n, "input '" + a.asNode()->name() + "' is not a tensor");
  return viewOf(v);
}

namespace {

/// Whether every part of `e` is integer arithmetic (what index values print as).
bool integerOnly(const SymExpr &e) {
  if (e.isConstant())
    return true;
  if (e.type() != SymExpr::Type::Int || e.kind() == SymExpr::Kind::Tuple)
    return false;
  for (const SymExpr &op : e.operands())
    if (!integerOnly(op))
      return false;
  return true;
}

} // namespace

Expected<int32_t> Lowerer::scalarExpr(BodyBuilder &b, const Node &n, const SymExpr &e) {
  using K = SymExpr::Kind;
  if (integerOnly(e))
    return b.indexValue(e, DType::Int64);
  auto fail = [&](const std::string &why) -> Error {
    return nodeError(n, "the scalar " + e.str() + " has no loop form: " + why);
  };
  auto ops = e.operands();
  // Operands in a common dtype: float64 when either is a float (Python's promotion), else
  // int64, else bool.
  auto both = [&](const SymExpr &lhs, const SymExpr &rhs, DType &common, int32_t &x,
                  int32_t &y) -> Status {
    auto l = scalarExpr(b, n, lhs);
    if (!l)
      return l.takeError();
    auto r = scalarExpr(b, n, rhs);
    if (!r)
      return r.takeError();
    bool anyFloat = lhs.type() == SymExpr::Type::Float || rhs.type() == SymExpr::Type::Float;
    bool allBool = lhs.type() == SymExpr::Type::Bool && rhs.type() == SymExpr::Type::Bool;
    common = anyFloat ? DType::Float64 : allBool ? DType::Bool : DType::Int64;
    x = b.cast(*l, common);
    y = b.cast(*r, common);
    return Status::ok();
  };
  auto unaryFloat = [&](ScalarOp op, DType result) -> Expected<int32_t> {
    auto x = scalarExpr(b, n, ops[0]);
    if (!x)
      return x;
    return b.cast(b.op(op, DType::Float64, b.cast(*x, DType::Float64)), result);
  };
  switch (e.kind()) {
  case K::Paren:
    return scalarExpr(b, n, ops[0]);
  case K::Float: {
    auto v = e.evaluateNumber({});
    if (!v)
      return fail(v.error().message);
    return b.constant(v->f, DType::Float64);
  }
  case K::Named:
    if (e.name() == "True" || e.name() == "False")
      return b.intConstant(e.name() == "True" ? 1 : 0, DType::Bool);
    return fail("'" + std::string(e.name()) + "' is not a finite number");
  case K::Add:
  case K::Sub:
  case K::Mul:
  case K::TrueDiv:
  case K::Pow: {
    DType common;
    int32_t x, y;
    if (Status s = both(ops[0], ops[1], common, x, y); !s)
      return s.takeError();
    if (e.kind() == K::TrueDiv || e.kind() == K::Pow)
      common = DType::Float64; // Python's `/` of ints is a float; powers here are floats
    else if (common == DType::Bool)
      common = DType::Int64; // True + True is 2
    ScalarOp op = e.kind() == K::Add   ? ScalarOp::Add
                  : e.kind() == K::Sub ? ScalarOp::Sub
                  : e.kind() == K::Mul ? ScalarOp::Mul
                  : e.kind() == K::Pow ? ScalarOp::Pow
                                       : ScalarOp::TrueDiv;
    return b.op(op, common, b.cast(x, common), b.cast(y, common));
  }
  case K::Lt:
  case K::Le:
  case K::Gt:
  case K::Ge:
  case K::Eq:
  case K::Ne: {
    DType common;
    int32_t x, y;
    if (Status s = both(ops[0], ops[1], common, x, y); !s)
      return s.takeError();
    ScalarOp op = e.kind() == K::Lt   ? ScalarOp::Lt
                  : e.kind() == K::Le ? ScalarOp::Le
                  : e.kind() == K::Gt ? ScalarOp::Gt
                  : e.kind() == K::Ge ? ScalarOp::Ge
                  : e.kind() == K::Eq ? ScalarOp::Eq
                                      : ScalarOp::Ne;
    return b.op(op, DType::Bool, x, y);
  }
  case K::BitAnd:
  case K::BitOr:
  case K::And:
  case K::Or: {
    if (e.type() != SymExpr::Type::Bool)
      return fail("bitwise operations on integers are not computed in loops");
    DType common;
    int32_t x, y;
    if (Status s = both(ops[0], ops[1], common, x, y); !s)
      return s.takeError();
    bool isAnd = e.kind() == K::BitAnd || e.kind() == K::And;
    return b.op(isAnd ? ScalarOp::LogicalAnd : ScalarOp::LogicalOr, DType::Bool, x, y);
  }
  case K::Not:
  case K::Invert: {
    if (ops[0].type() != SymExpr::Type::Bool && e.kind() == K::Invert)
      return fail("~ of an integer is not computed in loops");
    auto x = scalarExpr(b, n, ops[0]);
    if (!x)
      return x;
    return b.op(ScalarOp::LogicalNot, DType::Bool, *x);
  }
  case K::Neg: {
    auto x = scalarExpr(b, n, ops[0]);
    if (!x)
      return x;
    DType t = ops[0].type() == SymExpr::Type::Float ? DType::Float64 : DType::Int64;
    return b.op(ScalarOp::Neg, t, b.cast(*x, t));
  }
  case K::Call: {
    std::string_view name = e.name();
    if ((name == "ToFloat" || name == "Identity") && ops.size() == 1) {
      auto x = scalarExpr(b, n, ops[0]);
      if (!x)
        return x;
      return name == "ToFloat" ? b.cast(*x, DType::Float64) : *x;
    }
    if ((name == "IntTrueDiv" || name == "FloatTrueDiv") && ops.size() == 2)
      return scalarExpr(b, n, SymExpr::binary(K::TrueDiv, ops[0], ops[1]));
    if (ops.size() == 1) {
      static const std::pair<std::string_view, ScalarOp> kRounding[] = {
          {"FloorToInt", ScalarOp::Floor}, {"CeilToInt", ScalarOp::Ceil},
          {"TruncToInt", ScalarOp::Trunc}, {"RoundToInt", ScalarOp::Round},
          {"math.floor", ScalarOp::Floor}, {"math.ceil", ScalarOp::Ceil},
          {"math.trunc", ScalarOp::Trunc}, {"TruncToFloat", ScalarOp::Trunc}};
      for (const auto &[fn, op] : kRounding)
        if (name == fn)
          return unaryFloat(op, name == "TruncToFloat" ? DType::Float64 : DType::Int64);
      static const std::pair<std::string_view, ScalarOp> kMath[] = {
          {"sqrt", ScalarOp::Sqrt}, {"exp", ScalarOp::Exp},    {"log", ScalarOp::Log},
          {"log2", ScalarOp::Log2}, {"sin", ScalarOp::Sin},    {"cos", ScalarOp::Cos},
          {"tan", ScalarOp::Tan},   {"asin", ScalarOp::Asin},  {"acos", ScalarOp::Acos},
          {"atan", ScalarOp::Atan}, {"sinh", ScalarOp::Sinh},  {"cosh", ScalarOp::Cosh},
          {"tanh", ScalarOp::Tanh}, {"asinh", ScalarOp::Asinh}};
      std::string_view fn = name;
      if (fn.starts_with("OpaqueUnaryFn_"))
        fn = fn.substr(14);
      else if (fn.starts_with("math."))
        fn = fn.substr(5);
      for (const auto &[f, op] : kMath)
        if (fn == f)
          return unaryFloat(op, DType::Float64);
    }
    if ((name == "Max" || name == "Min") && ops.size() == 2) {
      DType common;
      int32_t x, y;
      if (Status s = both(ops[0], ops[1], common, x, y); !s)
        return s.takeError();
      return b.op(name == "Max" ? ScalarOp::Maximum : ScalarOp::Minimum, common, x, y);
    }
    if (name == "Where" && ops.size() == 3) {
      auto c = scalarExpr(b, n, ops[0]);
      if (!c)
        return c;
      DType common;
      int32_t x, y;
      if (Status s = both(ops[1], ops[2], common, x, y); !s)
        return s.takeError();
      return b.op(ScalarOp::Where, common, b.cast(*c, DType::Bool), x, y);
    }
    return fail("'" + std::string(name) + "' is not computed in loops");
  }
  case K::Symbol:
    return fail("'" + std::string(e.name()) + "' is a float symbol, which no input binds");
  case K::Int:
  case K::FloorDiv:
  case K::Mod:
  case K::BitXor:
  case K::Tuple:
    break;
  }
  return fail("not computed in loops");
}

Expected<int32_t> Lowerer::operand(BodyBuilder &b, const Node &n, const Argument &a,
                                   const std::vector<SymExpr> &outVars, DType dtype) {
  switch (a.kind()) {
  case Argument::Kind::Int:
    return b.cast(b.intConstant(a.asInt(), DType::Int64), dtype);
  case Argument::Kind::Float:
    return b.cast(b.constant(a.asFloat(), DType::Float64), dtype);
  case Argument::Kind::Bool:
    return b.cast(b.intConstant(a.asBool() ? 1 : 0, DType::Bool), dtype);
  case Argument::Kind::Sym: {
    auto s = scalarExpr(b, n, a.asSym());
    if (!s)
      return s;
    return b.cast(*s, dtype);
  }
  case Argument::Kind::NodeRef: {
    Lowered &v = valueOf(a.asNode());
    if (v.kind == Lowered::Kind::Sym) {
      auto s = scalarExpr(b, n, v.sym);
      if (!s)
        return s;
      return b.cast(*s, dtype);
    }
    if (v.kind != Lowered::Kind::Tensor)
      return nodeError(n, "input '" + a.asNode()->name() + "' is not a tensor or number");
    const TensorType &stored = program_.buffers[v.view.buffer].type;
    const std::vector<SymExpr> &sizes = v.whole ? stored.sizes : v.view.sizes;
    const std::vector<SymExpr> &strides = v.whole ? stored.strides : v.view.strides;
    // Broadcast: the view's dimensions are the trailing ones of the output.
    size_t lead = outVars.size() - sizes.size();
    SymExpr index =
        linearIndex(v.whole ? SymExpr(0) : v.view.offset, sizes, strides, outVars.data() + lead);
    return b.cast(b.load(v.view.buffer, index, stored.dtype), dtype);
  }
  default:
    return nodeError(n, "unsupported operand kind");
  }
}

Lowered Lowerer::finishPointwise(LoopOp &op, BodyBuilder &b, int32_t value, const TensorType &type,
                                 const std::vector<SymExpr> &outVars) {
  int32_t buffer = newBuffer(type, currentOp());
  value = b.cast(value, type.dtype);
  op.stores.push_back({buffer, linearIndex(SymExpr(0), type.sizes, type.strides, outVars), value});
  return wholeValue(buffer);
}

namespace {

/// The ops that move elements without computing (Inductor's pointwise lowerings of padding,
/// flip, repeat and scatter into a slice): one pointwise op with moved, masked loads.
bool isRearrangement(std::string_view target) {
  for (std::string_view t :
       {"torch.ops.aten.flip.default", "torch.ops.aten.repeat.default",
        "torch.ops.aten.constant_pad_nd.default", "torch.ops.aten.slice_scatter.default",
        "torch.ops.aten.select_scatter.default", "torch.ops.aten.diagonal_scatter.default"})
    if (target == t)
      return true;
  return false;
}

/// The dtype a predicate (comparison, logical op) computes in: the promotion of its operands.
DType comparisonDType(const Graph &, const Node &n) {
  std::vector<PromotionOperand> ops;
  for (const Argument &a : n.args().items()) {
    if (a.isNode()) {
      if (const TensorType *t = a.asNode()->value().tensor())
        ops.push_back({t->dtype, t->sizes.size(), false});
      else
        ops.push_back({DType::Int64, 0, true});
    } else if (a.kind() == Argument::Kind::Float) {
      ops.push_back({scalarKindDType(ScalarKind::Float), 0, true});
    } else if (a.kind() == Argument::Kind::Int) {
      ops.push_back({scalarKindDType(ScalarKind::Int), 0, true});
    } else if (a.kind() == Argument::Kind::Bool) {
      ops.push_back({scalarKindDType(ScalarKind::Bool), 0, true});
    }
  }
  return resultType(ops);
}

} // namespace

Status Lowerer::lowerPointwise(const Node &n, const BoundArgs &args, const TensorType &out) {
  std::string_view target = n.target();
  LoopOp &op = newOp(LoopOpKind::Pointwise, n);
  BodyBuilder b(op);
  const std::vector<SymExpr> sizes = iterate(out.sizes, op.ranges, false);
  DType dt = out.dtype;
  auto arg = [&](std::string_view name, DType dtype) {
    return operand(b, n, args.get(name), sizes, dtype);
  };
  int32_t value = -1;
  auto unwrap = [&](Expected<int32_t> e, int32_t &into) -> Status {
    if (!e)
      return e.takeError();
    into = *e;
    return Status::ok();
  };
  int32_t x = -1, y = -1, c = -1;
  // ATen's add, sub, rsub with alpha (prims.add and prims.sub are PointwiseOps.def lines).
  if (target.starts_with("torch.ops.aten.") && (target.find(".add.") != std::string_view::npos ||
                                                target.find(".sub.") != std::string_view::npos ||
                                                target.find(".rsub.") != std::string_view::npos)) {
    if (Status s = unwrap(arg("self", dt), x); !s)
      return s;
    if (Status s = unwrap(arg("other", dt), y); !s)
      return s;
    auto alpha = args.get("alpha");
    bool rsub = target.find(".rsub.") != std::string_view::npos;
    int32_t scaled = rsub ? x : y;
    if (!(alpha.kind() == Argument::Kind::Int && alpha.asInt() == 1)) {
      if (Status s = unwrap(operand(b, n, alpha, sizes, dt), c); !s)
        return s;
      scaled = b.op(ScalarOp::Mul, dt, scaled, c);
    }
    if (rsub)
      value = b.op(ScalarOp::Sub, dt, y, scaled);
    else
      value = b.op(target.find(".add.") != std::string_view::npos ? ScalarOp::Add : ScalarOp::Sub,
                   dt, x, scaled);
  } else if (target == "torch.ops.aten.div.Tensor_mode") {
    const Argument &mode = args.get("rounding_mode");
    if (Status s = unwrap(arg("self", dt), x); !s)
      return s;
    if (Status s = unwrap(arg("other", dt), y); !s)
      return s;
    if (mode.isNone())
      value = b.op(ScalarOp::TrueDiv, dt, x, y);
    else if (mode.asString() == "trunc")
      value = b.op(ScalarOp::TruncDiv, dt, x, y);
    else if (mode.asString() == "floor")
      value = b.op(ScalarOp::FloorDiv, dt, x, y);
    else
      return nodeError(n, "unknown rounding_mode '" + std::string(mode.asString()) + "'");
  } else if (target == "torch.ops.aten.where.self") {
    if (Status s = unwrap(arg("condition", DType::Bool), c); !s)
      return s;
    if (Status s = unwrap(arg("self", dt), x); !s)
      return s;
    if (Status s = unwrap(arg("other", dt), y); !s)
      return s;
    value = b.op(ScalarOp::Where, dt, c, x, y);
  } else if (target == "torch.ops.aten.gelu.default") {
    if (Status s = unwrap(arg("self", dt), x); !s)
      return s;
    const Argument &approx = args.get("approximate");
    bool tanh = approx.kind() == Argument::Kind::String && approx.asString() == "tanh";
    value = b.op(tanh ? ScalarOp::GeluTanh : ScalarOp::Gelu, dt, x);
  } else if (target == "torch.ops.aten.clamp.default" || target == "torch.ops.aten.clamp.Tensor" ||
             target == "torch.ops.aten.hardtanh.default") {
    bool hardtanh = target == "torch.ops.aten.hardtanh.default";
    if (Status s = unwrap(arg("self", dt), value); !s)
      return s;
    for (auto [name, sop] : {std::pair{hardtanh ? "min_val" : "min", ScalarOp::Maximum},
                             std::pair{hardtanh ? "max_val" : "max", ScalarOp::Minimum}}) {
      if (args.get(name).isNone())
        continue;
      if (Status s = unwrap(arg(name, dt), y); !s)
        return s;
      value = b.op(sop, dt, value, y);
    }
  } else if (target == "torch.ops.aten.leaky_relu.default" ||
             target == "torch.ops.aten.elu.default") {
    // x > 0 ? positive(x) : negative(x), as Inductor's decompositions write them.
    if (Status s = unwrap(arg("self", dt), x); !s)
      return s;
    int32_t zero = b.constant(0, dt);
    c = b.op(ScalarOp::Gt, DType::Bool, x, zero);
    int32_t pos = x, neg = -1;
    if (target == "torch.ops.aten.leaky_relu.default") {
      if (Status s = unwrap(arg("negative_slope", dt), y); !s)
        return s;
      neg = b.op(ScalarOp::Mul, dt, x, y);
    } else {
      int32_t alpha = -1, scale = -1, inputScale = -1;
      if (Status s = unwrap(arg("alpha", dt), alpha); !s)
        return s;
      if (Status s = unwrap(arg("scale", dt), scale); !s)
        return s;
      if (Status s = unwrap(arg("input_scale", dt), inputScale); !s)
        return s;
      pos = b.op(ScalarOp::Mul, dt, x, scale);
      neg = b.op(ScalarOp::Expm1, dt, b.op(ScalarOp::Mul, dt, x, inputScale));
      neg = b.op(ScalarOp::Mul, dt, b.op(ScalarOp::Mul, dt, neg, alpha), scale);
    }
    value = b.op(ScalarOp::Where, dt, c, pos, neg);
  } else if (target == "torch.ops.aten.atan2.out") {
    // Written into `out`'s dtype; nothing else reads `out` (lowerNode checks), so the result is
    // a buffer of its own.
    if (Status s = unwrap(arg("self", dt), x); !s)
      return s;
    if (Status s = unwrap(arg("other", dt), y); !s)
      return s;
    value = b.op(ScalarOp::Atan2, dt, x, y);
  } else if (target == "torch.ops.prims.convert_element_type.default") {
    if (Status s = unwrap(arg("a", dt), x); !s)
      return s;
    value = x;
  } else if (const PointwiseOp *row = pointwiseOpOf(target)) {
    // One scalar op (PointwiseOps.def) on the first arguments: predicates in their operands'
    // common dtype, everything else in the result's.
    ScalarOp sop = row->scalarOp;
    bool predicate = scalarOpKind(sop) == ScalarOpKind::Predicate;
    DType in = predicate ? comparisonDType(graph_, n) : dt;
    const OpSchema &schema = args.op().schema;
    int32_t ops[3] = {-1, -1, -1};
    for (int k = 0; k < scalarOpArity(sop); ++k)
      if (Status s = unwrap(arg(schema.args[k].name, in), ops[k]); !s)
        return s;
    value = b.op(sop, predicate ? DType::Bool : dt, ops[0], ops[1], ops[2]);
  } else {
    program_.ops.pop_back();
    return nodeError(n, "lowering has no rule for this pointwise op");
  }
  values_[n.scratch()] = finishPointwise(op, b, value, out, sizes);
  return Status::ok();
}

Status Lowerer::lowerCreation(const Node &n, const BoundArgs &args, const TensorType &out) {
  std::string_view target = n.target();
  LoopOp &op = newOp(LoopOpKind::Pointwise, n);
  BodyBuilder b(op);
  std::vector<SymExpr> vars = iterate(out.sizes, op.ranges, false);
  int32_t value = -1;
  if (target == "torch.ops.aten.full.default" || target == "torch.ops.aten.scalar_tensor.default") {
    auto v =
        operand(b, n, args.get(target.find("full") != std::string_view::npos ? "fill_value" : "s"),
                vars, out.dtype);
    if (!v)
      return v.takeError();
    value = *v;
  } else if (target == "torch.ops.prims.iota.default") {
    auto start = args.symInt("start");
    auto step = args.symInt("step");
    if (!start || !step)
      return nodeError(n, "iota needs integer start and step");
    value =
        b.cast(b.indexValue(symAdd(*start, symMul(vars.at(0), *step)), DType::Int64), out.dtype);
  } else {
    program_.ops.pop_back();
    return nodeError(n, "lowering has no rule for this creation op");
  }
  values_[n.scratch()] = finishPointwise(op, b, value, out, vars);
  return Status::ok();
}

Lowered Lowerer::copyInto(const Node &n, const BufferView &in, const TensorType &out) {
  LoopOp &op = newOp(LoopOpKind::Pointwise, n);
  BodyBuilder b(op);
  std::vector<SymExpr> outVars = iterate(out.sizes, op.ranges, false);
  // Row-major position of the output point, unflattened against the input's sizes: the
  // element order of reshape.
  SymExpr flat = 0;
  for (size_t j = 0; j < out.sizes.size(); ++j)
    flat = symAdd(symMul(flat, out.sizes[j]), outVars[j]);
  std::vector<SymExpr> inVars(in.sizes.size());
  if (in.sizes == out.sizes) {
    inVars = outVars;
  } else {
    SymExpr inner = 1;
    for (size_t j = in.sizes.size(); j-- > 0;) {
      SymExpr q = symIs(inner, 1) ? flat : SymExpr::binary(SymExpr::Kind::FloorDiv, flat, inner);
      inVars[j] = j == 0 ? q : SymExpr::binary(SymExpr::Kind::Mod, q, in.sizes[j]);
      inner = symMul(inner, in.sizes[j]);
    }
  }
  SymExpr index = linearIndex(in.offset, in.sizes, in.strides, inVars);
  int32_t value = b.load(in.buffer, index, program_.buffers[in.buffer].type.dtype);
  return finishPointwise(op, b, value, out, outVars);
}

Status Lowerer::lowerView(const Node &n, const BoundArgs &args) {
  const TensorType *out = n.value().tensor();
  auto in = tensorArg(n, args.at(0));
  if (!in)
    return in.takeError();
  std::string_view target = n.target();
  Lowered result;
  result.kind = Lowered::Kind::Tensor;
  if (target == "torch.ops.aten.split.Tensor" ||
      target == "torch.ops.aten.split_with_sizes.default") {
    const auto *outs = n.value().tensors();
    auto dim = args.integer("dim");
    if (!outs || !dim)
      return nodeError(n, "split needs a list result and an integer dim");
    auto d = normalizeDim(*dim, in->sizes.size());
    if (!d)
      return nodeError(n, d.error().message);
    result.kind = Lowered::Kind::Tensors;
    SymExpr start = 0;
    for (const auto &t : *outs) {
      BufferView v{in->buffer, t->sizes, t->strides,
                   symAdd(in->offset, symMul(start, in->strides[*d]))};
      start = symAdd(start, t->sizes[*d]);
      result.views.push_back(v);
    }
    values_[n.scratch()] = std::move(result);
    return Status::ok();
  }
  if (!out)
    return nodeError(n, "view without a tensor value");
  // Another dtype's view of the same bytes: loop bodies load a buffer in its own dtype only, so
  // the reference kernel makes the view, as an extern call that copies it out.
  if (target == "torch.ops.aten.view.dtype" &&
      out->dtype != program_.buffers[in->buffer].type.dtype)
    return lowerExtern(n, args);
  result.view = {in->buffer, out->sizes, out->strides, in->offset};
  if (target == "torch.ops.aten.select.int") {
    auto dim = args.integer("dim");
    auto idx = args.symInt("index");
    if (!dim || !idx)
      return nodeError(n, "select needs an integer dim and index");
    auto d = normalizeDim(*dim, in->sizes.size());
    if (!d)
      return nodeError(n, d.error().message);
    SymExpr i = *idx;
    if (i.isConstant() && i.constant() < 0)
      i = symAdd(in->sizes[*d], i);
    result.view.offset = symAdd(in->offset, symMul(i, in->strides[*d]));
  } else if (target == "torch.ops.aten.diagonal.default") {
    auto offset = args.integer("offset");
    auto dim1 = args.integer("dim1");
    auto dim2 = args.integer("dim2");
    if (!offset || !dim1 || !dim2)
      return nodeError(n, "diagonal needs integer offset, dim1 and dim2");
    auto d1 = normalizeDim(*dim1, in->sizes.size());
    auto d2 = normalizeDim(*dim2, in->sizes.size());
    if (!d1 || !d2)
      return nodeError(n, "diagonal dims out of range");
    if (!symIs(out->sizes.back(), 0))
      result.view.offset =
          symAdd(in->offset, diagonalOffset(in->strides[*d1], in->strides[*d2], *offset));
  } else if (target == "torch.ops.aten.slice.Tensor") {
    auto dim = args.integer("dim");
    auto step = args.integer("step");
    if (!dim || !step)
      return nodeError(n, "slice needs an integer dim and step");
    auto d = normalizeDim(*dim, in->sizes.size());
    if (!d)
      return nodeError(n, d.error().message);
    auto start = args.optionalSymInt("start");
    if (!start)
      return start.takeError();
    auto end = args.optionalSymInt("end");
    if (!end)
      return end.takeError();
    auto bounds = sliceBounds(in->sizes[*d], *start, *end, *step);
    if (!bounds)
      return nodeError(n, bounds.error().message);
    result.view.offset = symAdd(in->offset, symMul(bounds->start, in->strides[*d]));
  } else if (target == "torch.ops.aten.as_strided.default") {
    const Argument &off = args.get("storage_offset");
    if (!off.isNone()) {
      auto o = args.symInt("storage_offset");
      if (!o)
        return o.takeError();
      result.view.offset = *o;
    }
  } else if (target == "torch.ops.aten.reshape.default" ||
             target == "torch.ops.aten.view.default" ||
             target == "torch.ops.aten._unsafe_view.default") {
    if (!viewStrides(in->sizes, in->strides, out->sizes)) {
      if (target != "torch.ops.aten.reshape.default")
        return nodeError(n, "view of a tensor whose strides cannot express it");
      values_[n.scratch()] = copyInto(n, *in, *out);
      return Status::ok();
    }
  }
  values_[n.scratch()] = std::move(result);
  return Status::ok();
}

Status Lowerer::lowerReduction(const Node &n, const BoundArgs &args) {
  // The sum of an online softmax: its amax's op computed it already.
  if (auto it = onlineSums_.find(&n); it != onlineSums_.end()) {
    values_[n.scratch()] = wholeValue(it->second);
    return Status::ok();
  }
  std::string_view target = n.target();
  auto in = tensorArg(n, args.at(0));
  if (!in)
    return in.takeError();
  size_t rank = in->sizes.size();
  // Reduced dimensions: `dim` (None or [] = all), or the one dim of prepare_softmax_online.
  std::vector<bool> reduced(rank, false);
  bool keepdim = false;
  ReductionKind kind = ReductionKind::Sum;
  double correction = 1;
  std::optional<DType> dtypeArg;
  if (target.find("prepare_softmax_online") != std::string_view::npos) {
    auto d = args.integer("dim");
    if (!d)
      return d.takeError();
    auto nd = normalizeDim(*d, rank);
    if (!nd)
      return nodeError(n, nd.error().message);
    if (rank > 0)
      reduced[*nd] = true;
    keepdim = true;
    kind = ReductionKind::OnlineSoftmax;
  } else {
    const Argument *dimArg = args.op().schema.indexOf("dim") >= 0 ? &args.get("dim") : nullptr;
    bool all = !dimArg || dimArg->isNone() || (dimArg->isContainer() && dimArg->items().empty());
    if (all) {
      std::fill(reduced.begin(), reduced.end(), true);
    } else {
      auto dims = args.intList("dim");
      if (!dims)
        return dims.takeError();
      for (int64_t d : **dims) {
        auto nd = normalizeDim(d, rank);
        if (!nd)
          return nodeError(n, nd.error().message);
        if (rank > 0) // a 0-d tensor takes dim 0 or -1 and reduces its one element
          reduced[*nd] = true;
      }
    }
    if (args.op().schema.indexOf("keepdim") >= 0) {
      auto k = args.boolean("keepdim");
      if (!k)
        return k.takeError();
      keepdim = *k;
    }
    if (target.find(".sum.") != std::string_view::npos)
      kind = ReductionKind::Sum;
    else if (target.find(".mean.") != std::string_view::npos)
      kind = ReductionKind::Mean;
    else if (target.find(".amax.") != std::string_view::npos)
      kind = ReductionKind::Max;
    else if (target.find(".amin.") != std::string_view::npos)
      kind = ReductionKind::Min;
    else if (target.find(".var_mean.") != std::string_view::npos) {
      kind = ReductionKind::VarMean;
      const Argument &corr = args.get("correction");
      if (corr.kind() == Argument::Kind::Int)
        correction = static_cast<double>(corr.asInt());
      else if (corr.kind() == Argument::Kind::Float)
        correction = corr.asFloat();
    } else
      return nodeError(n, "lowering has no rule for this reduction");
    if (args.op().schema.indexOf("dtype") >= 0) {
      auto d = args.dtype("dtype");
      if (!d)
        return d.takeError();
      dtypeArg = *d;
    }
  }
  if (rank == 0)
    std::fill(reduced.begin(), reduced.end(), true);

  std::vector<TensorType> outs = tensorResults(n);
  if (outs.empty())
    return nodeError(n, "reduction without a tensor value");
  // softmax's amax and sum(exp(x - amax)) as one reduction: the row is read once for both.
  const Node *onlineSum = kind == ReductionKind::Max ? matchOnlineSoftmaxSum(n) : nullptr;
  if (onlineSum) {
    kind = ReductionKind::OnlineSoftmax;
    outs.push_back(*onlineSum->value().tensor());
  }

  LoopOp &op = newOp(LoopOpKind::Reduction, n);
  op.reduction = kind;
  op.correction = correction;
  if (onlineSum) {
    op.origins.push_back(onlineSum->name());
    op.originOps.push_back(shortOpName(onlineSum->target()));
  }
  std::vector<SymExpr> inVars(rank), keptVars;
  for (size_t j = 0; j < rank; ++j) {
    std::vector<SymExpr> &ranges = reduced[j] ? op.reductionRanges : op.ranges;
    inVars[j] = iterate({in->sizes[j]}, ranges, reduced[j]).front();
    if (!reduced[j])
      keptVars.push_back(inVars[j]);
  }
  // Reducing only size-1 dimensions (or a 0-d tensor) reduces over one point: keep a range of
  // 1, so the op is still a reduction where kernels are generated (a reduction op without
  // reduction ranges fits no kernel's iteration space).
  if (op.reductionRanges.empty())
    op.reductionRanges.push_back(SymExpr(1));
  DType outDType = outs[0].dtype;
  op.accumulator = dtypeIsFloating(outDType)
                       ? (outDType == DType::Float64 ? DType::Float64 : DType::Float32)
                       : DType::Int64;
  if (kind == ReductionKind::Max || kind == ReductionKind::Min)
    op.accumulator = outDType;
  (void)dtypeArg; // the inferred output dtype already reflects `dtype=`
  BodyBuilder b(op);
  DType stored = program_.buffers[in->buffer].type.dtype;
  int32_t loaded =
      b.load(in->buffer, linearIndex(in->offset, in->sizes, in->strides, inVars), stored);
  op.reduced = b.cast(loaded, op.accumulator);

  Lowered result;
  result.kind =
      outs.size() == 1 && n.value().tensor() ? Lowered::Kind::Tensor : Lowered::Kind::Tensors;
  int32_t opIndex = currentOp();
  for (size_t k = 0; k < outs.size(); ++k) {
    const TensorType &t = outs[k];
    int32_t buffer = newBuffer(t, opIndex);
    // Output dimensions map to the kept dimensions in order (keepdim's reduced dims are 0).
    std::vector<SymExpr> outVars;
    size_t kept = 0;
    for (size_t j = 0; j < t.sizes.size(); ++j) {
      bool isReducedDim = keepdim && j < rank && reduced[j];
      outVars.push_back(isReducedDim || kept >= keptVars.size() ? SymExpr(0) : keptVars[kept++]);
    }
    program_.ops[opIndex].stores.push_back(
        {buffer, linearIndex(SymExpr(0), t.sizes, t.strides, outVars), static_cast<int32_t>(k)});
    if (onlineSum && k == 0) // amax's value; the sum's waits for the sum node
      result = wholeValue(buffer);
    else if (onlineSum)
      onlineSums_[onlineSum] = buffer;
    else if (result.kind == Lowered::Kind::Tensor)
      result = wholeValue(buffer);
    else
      result.views.push_back(wholeView(buffer, t));
  }
  values_[n.scratch()] = std::move(result);
  return Status::ok();
}

Status Lowerer::lowerExtern(const Node &n, const BoundArgs &args) {
  LoopOp &op = newOp(LoopOpKind::Extern, n);
  op.externNode = &n;
  for (const Node *in : argumentNodes(args)) {
    Lowered &v = valueOf(in);
    if (v.kind == Lowered::Kind::Tensor)
      op.externInputs.push_back(viewOf(v));
  }
  int32_t opIndex = currentOp();
  Lowered result;
  if (const TensorType *t = n.value().tensor()) {
    int32_t buffer = newBuffer(*t, opIndex);
    program_.ops[opIndex].externOutputs.push_back(buffer);
    result = wholeValue(buffer);
  } else if (const auto *ts = n.value().tensors()) {
    result.kind = Lowered::Kind::Tensors;
    for (const auto &t : *ts) {
      if (!t) {
        program_.ops[opIndex].externOutputs.push_back(-1);
        result.views.push_back(std::nullopt);
        continue;
      }
      int32_t buffer = newBuffer(*t, opIndex);
      program_.ops[opIndex].externOutputs.push_back(buffer);
      result.views.push_back(wholeView(buffer, *t));
    }
  } else if (const SymExpr *sym = n.value().sym()) {
    // A scalar result (`.item()`): no buffer; its value is the symbol the op binds.
    result.kind = Lowered::Kind::Sym;
    result.sym = *sym;
  } else {
    return nodeError(n, "extern op without a tensor value");
  }
  // An in-place op (`index_put_(Tensor(a!) self, ...) -> Tensor(a!)`) returns what it wrote into
  // self. Later readers of self read that result, as functionalization rewrites them: else a
  // pointwise reader would recompute self's producer from before the write, and an op whose
  // result nobody reads would be dropped with its write. (The executors also write the result
  // back into self's own buffer, for readers through other views and for graph inputs.)
  if (result.kind == Lowered::Kind::Tensor && n.value().tensor())
    if (const OpInfo *info = OpRegistry::instance().lookup(n.target())) {
      const ArgSpec *mutated = nullptr;
      int count = 0;
      for (const ArgSpec &a : info->schema.args)
        if (a.mutated) {
          mutated = &a;
          ++count;
        }
      const Argument *self = count == 1 ? &args.get(mutated->name) : nullptr;
      if (self && self->isNode()) {
        const Node *base = self->asNode();
        const TensorType *t = base->value().tensor();
        if (t && t->sizes == n.value().tensor()->sizes && t->dtype == n.value().tensor()->dtype)
          values_[base->scratch()] = result;
      }
    }
  values_[n.scratch()] = std::move(result);
  return Status::ok();
}

Status Lowerer::lowerOther(const Node &n, const BoundArgs &args) {
  std::string_view target = n.target();
  Lowered &result = values_[n.scratch()];
  if (target == "operator.getitem") {
    const Argument &src = args.at(0);
    const Argument &idx = args.at(1);
    if (!src.isNode() || idx.kind() != Argument::Kind::Int)
      return nodeError(n, "getitem needs a node and an integer index");
    Lowered &v = valueOf(src.asNode());
    if (v.kind != Lowered::Kind::Tensors)
      return nodeError(n, "getitem of a value that is not a list of tensors");
    int64_t i = idx.asInt();
    if (i < 0)
      i += static_cast<int64_t>(v.views.size());
    if (i < 0 || i >= static_cast<int64_t>(v.views.size()))
      return nodeError(n, "getitem index out of range");
    if (v.views[i]) {
      result.kind = Lowered::Kind::Tensor;
      result.view = *v.views[i];
    }
    return Status::ok();
  }
  if (const SymExpr *sym = n.value().sym()) { // sym_size, operator.add/mul/...
    result.kind = Lowered::Kind::Sym;
    result.sym = *sym;
    return Status::ok();
  }
  const TensorType *out = n.value().tensor();
  if (target == "torch.ops.aten.clone.default" && out) {
    auto in = tensorArg(n, args.at(0));
    if (!in)
      return in.takeError();
    result = copyInto(n, *in, *out);
    // copyInto appended an op; `result` may dangle if values_ grew: it does not (sized once).
    return Status::ok();
  }
  if (target == "torch.ops.aten.cat.default" && out) {
    auto dim = args.integer("dim");
    if (!dim)
      return dim.takeError();
    auto d = normalizeDim(*dim, out->sizes.size());
    if (!d)
      return nodeError(n, d.error().message);
    // One pointwise op over the output, as Inductor lowers cat: each point takes the input
    // whose range along `dim` holds it, through a masked load (the others are not read).
    std::vector<BufferView> inputs;
    for (const Argument &item : args.get("tensors").items()) {
      auto in = tensorArg(n, item);
      if (!in)
        return in.takeError();
      // Legacy empty tensors ([0]) take no part in cat.
      if (in->sizes.size() == 1 && symIs(in->sizes[0], 0) && out->sizes.size() != 1)
        continue;
      inputs.push_back(*in);
    }
    if (inputs.empty())
      return nodeError(n, "cat of empty tensors only");
    LoopOp &op = newOp(LoopOpKind::Pointwise, n);
    std::vector<SymExpr> outVars = iterate(out->sizes, op.ranges, false);
    BodyBuilder b(op);
    int32_t position = b.indexValue(outVars[*d], DType::Int64);
    std::vector<std::pair<int32_t, int32_t>> pieces; // (mask, value)
    SymExpr start = 0;
    for (size_t k = 0; k < inputs.size(); ++k) {
      const BufferView &in = inputs[k];
      SymExpr end = symAdd(start, in.sizes[*d]);
      int32_t mask = -1;
      if (k > 0)
        mask = b.op(ScalarOp::Ge, DType::Bool, position, b.indexValue(start, DType::Int64));
      if (k + 1 < inputs.size()) {
        int32_t below = b.op(ScalarOp::Lt, DType::Bool, position, b.indexValue(end, DType::Int64));
        mask = mask < 0 ? below : b.op(ScalarOp::LogicalAnd, DType::Bool, mask, below);
      }
      std::vector<SymExpr> inVars(outVars.end() - in.sizes.size(), outVars.end());
      inVars[*d] = symSub(outVars[*d], start);
      int32_t loaded = b.load(in.buffer, linearIndex(in.offset, in.sizes, in.strides, inVars),
                              program_.buffers[in.buffer].type.dtype);
      op.body[loaded].operands[0] = mask;
      pieces.push_back({mask, b.cast(loaded, out->dtype)});
      start = end;
    }
    int32_t value = pieces.back().second;
    for (size_t k = pieces.size() - 1; k-- > 0;)
      value = b.op(ScalarOp::Where, out->dtype, pieces[k].first, pieces[k].second, value);
    result = finishPointwise(op, b, value, *out, outVars);
    return Status::ok();
  }
  if (out && isRearrangement(target))
    return lowerRearrangement(n, args, *out);
  return nodeError(n, "lowering has no rule for this op");
}

Status Lowerer::lowerRearrangement(const Node &n, const BoundArgs &args, const TensorType &out) {
  std::string_view target = n.target();
  auto self = tensorArg(n, args.get("self"));
  if (!self)
    return self.takeError();
  LoopOp &op = newOp(LoopOpKind::Pointwise, n);
  const std::vector<SymExpr> vars = iterate(out.sizes, op.ranges, false);
  BodyBuilder b(op);
  auto fail = [&](const std::string &message) {
    program_.ops.pop_back();
    return nodeError(n, message);
  };
  // `view` read at per-dimension indices `at`, in the result's dtype; with a mask, only where
  // it holds (the index may be outside the view elsewhere).
  auto loadAt = [&](const BufferView &view, const std::vector<SymExpr> &at, int32_t mask) {
    int32_t v = b.load(view.buffer, linearIndex(view.offset, view.sizes, view.strides, at),
                       program_.buffers[view.buffer].type.dtype);
    op.body[v].operands[0] = mask;
    return b.cast(v, out.dtype);
  };
  auto index = [&](const SymExpr &e) { return b.indexValue(e, DType::Int64); };
  auto both = [&](int32_t a, int32_t c) {
    return a < 0 ? c : b.op(ScalarOp::LogicalAnd, DType::Bool, a, c);
  };
  const size_t rank = out.sizes.size();
  int32_t value = -1;
  if (target == "torch.ops.aten.flip.default") {
    auto dims = args.intList("dims");
    if (!dims || !*dims)
      return fail("flip needs a list of dims");
    std::vector<SymExpr> at = vars;
    for (int64_t dim : **dims) {
      auto d = normalizeDim(dim, rank);
      if (!d)
        return fail(d.error().message);
      at[*d] = symSub(symSub(out.sizes[*d], SymExpr(1)), vars[*d]);
    }
    value = loadAt(*self, at, -1);
  } else if (target == "torch.ops.aten.repeat.default") {
    // Each result index wraps around the input's size (new leading dims repeat it whole).
    size_t lead = rank - self->sizes.size();
    std::vector<SymExpr> at(vars.begin() + static_cast<std::ptrdiff_t>(lead), vars.end());
    for (size_t k = 0; k < at.size(); ++k)
      if (!symIs(self->sizes[k], 1))
        at[k] = SymExpr::binary(SymExpr::Kind::Mod, at[k], self->sizes[k]);
    value = loadAt(*self, at, -1);
  } else if (target == "torch.ops.aten.constant_pad_nd.default") {
    // pad holds (before, after) pairs from the last dim backwards; negative pads crop.
    auto pad = args.symIntList("pad");
    if (!pad || pad->size() % 2 || pad->size() / 2 > rank)
      return fail("constant_pad_nd needs an even number of pads, two per dim at most");
    std::vector<SymExpr> at = vars;
    int32_t inside = -1;
    for (size_t k = 0; k < pad->size() / 2; ++k) {
      size_t d = rank - 1 - k;
      const SymExpr &before = (*pad)[2 * k], &after = (*pad)[2 * k + 1];
      at[d] = symSub(vars[d], before);
      if (!(before.isConstant() && before.constant() <= 0))
        inside = both(inside, b.op(ScalarOp::Ge, DType::Bool, index(vars[d]), index(before)));
      if (!(after.isConstant() && after.constant() <= 0))
        inside = both(inside, b.op(ScalarOp::Lt, DType::Bool, index(vars[d]),
                                   index(symAdd(before, self->sizes[d]))));
    }
    value = loadAt(*self, at, inside);
    if (inside >= 0) {
      auto fill = operand(b, n, args.get("value"), vars, out.dtype);
      if (!fill)
        return fail(fill.error().message);
      value = b.op(ScalarOp::Where, out.dtype, inside, value, *fill);
    }
  } else if (target == "torch.ops.aten.diagonal_scatter.default") {
    // src where dim2's index less dim1's is the offset (k along the diagonal: dim1's index, or
    // dim2's below the main diagonal), self elsewhere.
    auto src = tensorArg(n, args.get("src"));
    auto offset = args.integer("offset");
    auto dim1 = args.integer("dim1");
    auto dim2 = args.integer("dim2");
    if (!src || !offset || !dim1 || !dim2)
      return fail("needs a tensor src and integer offset, dim1 and dim2");
    auto d1 = normalizeDim(*dim1, rank);
    auto d2 = normalizeDim(*dim2, rank);
    if (!d1 || !d2 || *d1 == *d2)
      return fail("needs two distinct dims");
    std::vector<SymExpr> at;
    for (size_t k = 0; k < rank; ++k)
      if (static_cast<int64_t>(k) != *d1 && static_cast<int64_t>(k) != *d2)
        at.push_back(vars[k]);
    at.push_back(*offset >= 0 ? vars[*d1] : vars[*d2]);
    int32_t inside = b.op(ScalarOp::Eq, DType::Bool, index(symSub(vars[*d2], vars[*d1])),
                          index(SymExpr(*offset)));
    int32_t fromSrc = loadAt(*src, at, inside);
    value = b.op(ScalarOp::Where, out.dtype, inside, fromSrc, loadAt(*self, vars, -1));
  } else { // slice_scatter, select_scatter: src where the slice or index is, self elsewhere
    auto src = tensorArg(n, args.get("src"));
    auto dim = args.integer("dim");
    if (!src || !dim)
      return fail("needs a tensor src and an integer dim");
    auto d = normalizeDim(*dim, rank);
    if (!d)
      return fail(d.error().message);
    std::vector<SymExpr> at = vars;
    int32_t inside = -1;
    if (target == "torch.ops.aten.select_scatter.default") {
      auto i = args.symInt("index");
      if (!i)
        return fail(i.error().message);
      SymExpr at0 = i->isConstant() && i->constant() < 0 ? symAdd(out.sizes[*d], *i) : *i;
      inside = b.op(ScalarOp::Eq, DType::Bool, index(vars[*d]), index(at0));
      at.erase(at.begin() + *d);
    } else {
      auto start = args.optionalSymInt("start");
      auto end = args.optionalSymInt("end");
      auto step = args.symInt("step");
      if (!start || !end || !step || !step->isConstant())
        return fail("slice_scatter needs a constant step");
      auto bounds = sliceBounds(out.sizes[*d], *start, *end, step->constant());
      if (!bounds)
        return fail(bounds.error().message);
      // i - start in [0, size * step) and a multiple of step.
      SymExpr offset = symSub(vars[*d], bounds->start);
      SymExpr stepE(step->constant());
      inside =
          both(b.op(ScalarOp::Ge, DType::Bool, index(vars[*d]), index(bounds->start)),
               b.op(ScalarOp::Lt, DType::Bool, index(offset), index(symMul(bounds->size, stepE))));
      if (step->constant() > 1) {
        int32_t rem = index(SymExpr::binary(SymExpr::Kind::Mod, offset, stepE));
        inside = both(inside, b.op(ScalarOp::Eq, DType::Bool, rem, index(SymExpr(0))));
        at[*d] = symFloorDiv(offset, stepE);
      } else {
        at[*d] = offset;
      }
    }
    int32_t fromSrc = loadAt(*src, at, inside);
    value = b.op(ScalarOp::Where, out.dtype, inside, fromSrc, loadAt(*self, vars, -1));
  }
  values_[n.scratch()] = finishPointwise(op, b, value, out, vars);
  return Status::ok();
}

/// Symbols no input binds are PyTorch's unbacked ones (u0 of Tensor.item(), the size of
/// nonzero or of a boolean mask): only the data decides them, mid-run. As Inductor does, the
/// node that makes one runs as an extern op that binds it when it has run (SymbolDef), and the
/// kernels after it take it as a size argument. A node that reads a symbol no one binds (a
/// float `.item()`, or a fresh size of an op that is not computed as a whole) is refused.
std::vector<SymbolDef> Lowerer::freshSymbols(const Node &n) const {
  std::vector<SymbolDef> defs;
  auto fresh = [&](const SymExpr &e) {
    if (e.isConstant() || e.kind() != SymExpr::Kind::Symbol || e.type() != SymExpr::Type::Int)
      return false;
    std::string_view name = e.name();
    if (inputSymbols_.count(name) || definedSymbols_.count(name))
      return false;
    for (const SymbolDef &d : defs)
      if (d.symbol == name)
        return false;
    return true;
  };
  auto addType = [&](const TensorType &t, int32_t output) {
    for (size_t d = 0; d < t.sizes.size(); ++d)
      if (fresh(t.sizes[d]))
        defs.push_back({std::string(t.sizes[d].name()), output, static_cast<int32_t>(d)});
  };
  if (const TensorType *t = n.value().tensor())
    addType(*t, 0);
  else if (const auto *ts = n.value().tensors()) {
    for (size_t i = 0; i < ts->size(); ++i)
      if ((*ts)[i])
        addType(*(*ts)[i], static_cast<int32_t>(i));
  } else if (const SymExpr *s = n.value().sym(); s && fresh(*s)) {
    // `.item()` of an integer or bool tensor: a float one is a SymFloat, which no integer
    // binding carries (checkBacked refuses it).
    bool integral = true;
    for (const Node *in : n.inputs())
      if (const TensorType *t = in->value().tensor())
        integral = integral && !dtypeIsFloating(t->dtype) && t->dtype != DType::Complex64 &&
                   t->dtype != DType::Complex128;
    if (integral)
      defs.push_back({std::string(s->name()), -1, -1});
  }
  return defs;
}

Status Lowerer::checkBacked(const Node &n, const std::vector<SymbolDef> &defines) const {
  std::vector<std::string> symbols;
  auto add = [&](const SymExpr &e) {
    for (std::string &s : e.symbols()) {
      bool bound = inputSymbols_.count(s) || definedSymbols_.count(s);
      for (const SymbolDef &d : defines)
        bound = bound || d.symbol == s;
      if (!bound)
        symbols.push_back(std::move(s));
    }
  };
  auto addType = [&](const TensorType &t) {
    for (const SymExpr &e : t.sizes)
      add(e);
    for (const SymExpr &e : t.strides)
      add(e);
  };
  auto addValue = [&](const NodeValue &v) {
    if (const TensorType *t = v.tensor())
      addType(*t);
    else if (const auto *ts = v.tensors()) {
      for (const auto &t : *ts)
        if (t)
          addType(*t);
    } else if (const SymExpr *s = v.sym())
      add(*s);
  };
  for (const Node *input : n.inputs())
    addValue(input->value());
  addValue(n.value());
  if (symbols.empty())
    return Status::ok();
  std::sort(symbols.begin(), symbols.end());
  symbols.erase(std::unique(symbols.begin(), symbols.end()), symbols.end());
  std::string list;
  for (const std::string &s : symbols)
    list += (list.empty() ? "" : ", ") + s;
  return nodeError(n, "its value depends on the data (" + list +
                          ": no input and no earlier op binds it). Compiled programs bind "
                          "an unbacked integer (Tensor.item() of an integer, the length of "
                          "nonzero or of a boolean mask) when the extern op that makes it has "
                          "run; this one they cannot, so this graph runs on the reference "
                          "interpreter only (--backend interp)");
}

Status Lowerer::lowerAssertion(const Node &n, const BoundArgs &args) {
  SymExpr condition;
  std::string message;
  auto symOf = [&](const Argument &a) -> std::optional<SymExpr> {
    if (a.isNode()) {
      const Lowered &v = values_[a.asNode()->scratch()];
      if (v.kind == Lowered::Kind::Sym)
        return v.sym;
      return std::nullopt;
    }
    if (a.kind() == Argument::Kind::Int)
      return SymExpr(a.asInt());
    if (a.kind() == Argument::Kind::Bool)
      return SymExpr::boolean(a.asBool());
    return std::nullopt;
  };
  std::string_view target = n.target();
  if (target == "torch.ops.aten._assert_scalar.default") {
    auto c = symOf(args.get("self"));
    if (!c)
      return Status::ok();
    condition = *c;
    const Argument &msg = args.get("assert_msg");
    message = assertMessage(msg);
    if (message.empty())
      message = "assertion failed";
  } else if (target == "torch.ops.aten.sym_constrain_range.default" ||
             target == "torch.ops.aten.sym_constrain_range_for_size.default") {
    auto size = symOf(args.get("size"));
    if (!size)
      return Status::ok();
    auto lo = args.optionalInteger("min");
    auto hi = args.optionalInteger("max");
    if (!lo || !hi)
      return nodeError(n, "min and max must be integers");
    // aten's sym_constrain_range[_for_size]: [min, max], the _for_size form from 0.
    std::optional<int64_t> minV = *lo;
    if (!minV && target == "torch.ops.aten.sym_constrain_range_for_size.default")
      minV = 0;
    SymExpr c = SymExpr::boolean(true);
    if (minV)
      c = SymExpr::binary(SymExpr::Kind::Le, *minV, *size);
    if (*hi)
      c = SymExpr::binary(SymExpr::Kind::BitAnd, SymExpr::paren(c),
                          SymExpr::paren(SymExpr::binary(SymExpr::Kind::Le, *size, **hi)));
    condition = c;
    message = "Invalid value range for " + size->str() + " between [" +
              (minV ? std::to_string(*minV) : std::string("-inf")) + ", " +
              (*hi ? std::to_string(**hi) : std::string("inf")) + "]";
  } else {
    return Status::ok(); // _assert_async: an assumption (its tensor is on the device)
  }
  int32_t holder = -1;
  for (const std::string &s : condition.symbols()) {
    auto found = definedSymbols_.find(s);
    if (found != definedSymbols_.end())
      holder = std::max(holder, found->second);
  }
  if (holder < 0)
    return Status::ok(); // decided by the inputs, which meet the graph's guards
  program_.ops[holder].checks.push_back({condition, n.name(), std::move(message)});
  return Status::ok();
}

Status Lowerer::lowerNode(const Node &n) {
  const OpInfo *op = OpRegistry::instance().lookup(n.target());
  if (!op)
    return nodeError(n, "unknown op");
  std::vector<SymbolDef> defines = freshSymbols(n);
  if (Status s = checkBacked(n, defines); !s)
    return s;
  // _assert_scalar, sym_constrain_range[_for_size], _assert_async: checks with no result. On
  // backed values they hold for every input that meets the graph's guards; the compiled
  // program takes them as assumptions (the interpreter checks them). On unbacked ones they
  // are run-time checks.
  if (op->schema.returns.empty() && n.value().empty() && op->category == OpCategory::Other) {
    auto args = bindArgs(n, *op);
    if (!args)
      return args.takeError();
    return lowerAssertion(n, *args);
  }
  // A node that makes unbacked symbols runs as a whole (nonzero, item, a boolean-mask index,
  // as Inductor falls back for them) and binds them when it has run.
  if (!defines.empty()) {
    auto args = bindArgs(n, *op);
    if (!args)
      return args.takeError();
    if (Status s = lowerExtern(n, *args); !s)
      return s;
    for (SymbolDef &d : defines)
      definedSymbols_[d.symbol] = currentOp();
    program_.ops[currentOp()].defines = std::move(defines);
    return Status::ok();
  }
  // Before the value check: an assertion composite has no value.
  if (op->category == OpCategory::Composite)
    return nodeError(n, "a composite op: the decompose pass rewrites it into the ops it is made "
                        "of before lowering");
  auto args = bindArgs(n, *op);
  if (!args)
    return args.takeError();
  if (n.value().empty())
    return nodeError(n, "the node has no value: run shape inference first");
  // An out= variant (a keyword-only `out`; attention backward's positional `out` is the
  // forward's output, an ordinary input) writes its result into `out` and returns it. Where
  // nothing else reads `out`, that is the functional op's result in a buffer of its own.
  if (int out = op->schema.indexOf("out"); out >= 0 && op->schema.args[out].kwargOnly) {
    const Argument &o = args->get("out");
    if (o.isNode() && o.asNode()->users().size() != 1)
      return nodeError(n, "out= variants whose `out` tensor is also read elsewhere are not "
                          "lowered (the op mutates it)");
  }
  // Loop bodies have no complex (or float8) scalars: an op that reads or produces such a
  // tensor, views included, runs as an extern call of its reference kernel (ATen in the
  // wrappers), so no kernel ever computes in those dtypes.
  if (n.target() != "operator.getitem") {
    bool nonLoop = false;
    auto check = [&](const TensorType &t) { nonLoop = nonLoop || !dtypeIsComputable(t.dtype); };
    for (const Node *in : argumentNodes(*args))
      if (const TensorType *t = in->value().tensor())
        check(*t);
    if (const TensorType *t = n.value().tensor())
      check(*t);
    else if (const auto *ts = n.value().tensors())
      for (const auto &t : *ts)
        if (t)
          check(*t);
    if (nonLoop)
      return lowerExtern(n, *args);
  }
  if (const LoweringRule *rule = findLoweringRule(n.target()))
    return rule->lower(*this, n, *args);
  switch (op->category) {
  case OpCategory::Pointwise:
  case OpCategory::Creation: {
    const TensorType *out = n.value().tensor();
    if (!out)
      return nodeError(n, "expected a tensor value");
    return op->category == OpCategory::Pointwise ? lowerPointwise(n, *args, *out)
                                                 : lowerCreation(n, *args, *out);
  }
  case OpCategory::View:
    return lowerView(n, *args);
  case OpCategory::Reduction:
    return lowerReduction(n, *args);
  case OpCategory::Extern:
    return lowerExtern(n, *args);
  case OpCategory::Other:
    return lowerOther(n, *args);
  case OpCategory::Composite:
    break; // refused above
  }
  return nodeError(n, "unknown op category");
}

Status Lowerer::lowerOutput(const Node &n) {
  for (const Argument &a : returnedValues(n)) {
    LoopProgram::Output out;
    if (a.isNone()) {
      out.isNone = true;
    } else if (a.kind() == Argument::Kind::Int) {
      out.symbol = SymExpr(a.asInt());
    } else if (a.isNode()) {
      Lowered &v = valueOf(a.asNode());
      if (v.kind == Lowered::Kind::Tensor) {
        out.view = viewOf(v);
        program_.buffers[v.view.buffer].isOutput = true;
      } else if (v.kind == Lowered::Kind::Sym) {
        out.symbol = v.sym;
      } else {
        return Error("output: '" + a.asNode()->name() + "' is neither a tensor nor an integer");
      }
    } else {
      return Error("output: unsupported returned value");
    }
    program_.outputs.push_back(std::move(out));
  }
  return Status::ok();
}

namespace {

/// The clean-up passes over a lowered program (dead loop ops, producer inlining), with the
/// cache of linear index forms that inlining asks for again and again.
struct LoopCleanup {
  LoopProgram &program_;
  std::unordered_map<SymExpr, std::optional<LinearIndex>, SymExprHash> linearIndices_;

  /// True for an extern op whose schema writes an argument (`Tensor(a!)`) and that reads a
  /// graph input: the caller sees the write, so dead-op elimination keeps it.
  bool writesProgramInput(const LoopOp &op) const;
  bool eliminateDeadOps();
  bool inlineSmallProducers();
  const std::optional<LinearIndex> &linearIndexCached(const SymExpr &index);
};

} // namespace

bool LoopCleanup::writesProgramInput(const LoopOp &op) const {
  if (op.kind != LoopOpKind::Extern || !op.externNode)
    return false;
  const OpInfo *info = OpRegistry::instance().lookup(op.externNode->target());
  if (!info)
    return false;
  bool mutates = false;
  for (const ArgSpec &a : info->schema.args)
    mutates = mutates || a.mutated;
  if (!mutates)
    return false;
  // Conservative: any input of a mutating op that is a graph input keeps it.
  for (const BufferView &v : op.externInputs)
    if (v.buffer >= 0 && program_.buffers[v.buffer].isInput)
      return true;
  return false;
}

bool LoopCleanup::eliminateDeadOps() {
  // An op is live when a buffer it writes is an output or is read by a live op. One backward
  // sweep suffices: readers come after writers.
  std::vector<bool> needed(program_.buffers.size(), false);
  for (size_t b = 0; b < program_.buffers.size(); ++b)
    needed[b] = program_.buffers[b].isOutput;
  std::vector<bool> live(program_.ops.size(), false);
  // The buffers of reads() and writes(), visited in place (those allocate a list per op).
  for (size_t i = program_.ops.size(); i-- > 0;) {
    const LoopOp &op = program_.ops[i];
    for (const Store &s : op.stores)
      live[i] = live[i] || (s.buffer >= 0 && needed[s.buffer]);
    for (int32_t w : op.externOutputs)
      live[i] = live[i] || (w >= 0 && needed[w]);
    // An op that binds unbacked symbols runs whoever reads them (sizes, checks), as PyTorch's
    // item() does.
    live[i] = live[i] || !op.defines.empty();
    // An extern op that writes into a graph input changes what the caller holds after the run.
    live[i] = live[i] || writesProgramInput(op);
    if (!live[i])
      continue;
    for (const ScalarInstr &in : op.body)
      if (in.op == ScalarOp::Load && in.buffer >= 0)
        needed[in.buffer] = true;
    for (const BufferView &v : op.externInputs)
      if (v.buffer >= 0)
        needed[v.buffer] = true;
  }
  // Compacted in place: the live ops before the first dead one neither move nor get renamed.
  std::vector<int32_t> newIndex(program_.ops.size(), -1);
  size_t kept = 0;
  for (size_t i = 0; i < program_.ops.size(); ++i)
    if (live[i]) {
      newIndex[i] = static_cast<int32_t>(kept);
      if (kept != i) {
        program_.ops[kept] = std::move(program_.ops[i]);
        program_.ops[kept].name = "op" + std::to_string(kept);
      }
      ++kept;
    }
  if (kept == program_.ops.size())
    return false;
  program_.ops.erase(program_.ops.begin() + static_cast<std::ptrdiff_t>(kept), program_.ops.end());
  for (Buffer &b : program_.buffers)
    if (b.producer >= 0)
      b.producer = newIndex[b.producer];
  return true;
}

namespace {

bool isLoopVar(const SymExpr &e) {
  return !e.isConstant() && e.kind() == SymExpr::Kind::Symbol && isLoopVariable(e.name());
}

bool mentionsLoopVar(const SymExpr &e) {
  // A walk over the (small) tree rather than symbols(), which builds a sorted list of strings:
  // this runs on every factor of every index that inlining looks at.
  if (e.isConstant())
    return false;
  std::vector<const SymNode *> work{e.node()};
  while (!work.empty()) {
    const SymNode *n = work.back();
    work.pop_back();
    if (n->kind == SymExpr::Kind::Symbol && isLoopVariable(n->name))
      return true;
    for (const SymExpr &o : n->operands)
      if (!o.isConstant())
        work.push_back(o.node());
  }
  return false;
}

std::optional<LinearIndex> linearIndexOf(const SymExpr &index) {
  LinearIndex out;
  std::vector<std::pair<int64_t, SymExpr>> terms; // (sign, term)
  std::vector<std::pair<int64_t, SymExpr>> work{{1, index.simplify()}};
  while (!work.empty()) {
    auto [sign, e] = work.back();
    work.pop_back();
    if (!e.isConstant() && (e.kind() == SymExpr::Kind::Add || e.kind() == SymExpr::Kind::Sub)) {
      work.push_back({sign, e.operands()[0]});
      work.push_back({e.kind() == SymExpr::Kind::Sub ? -sign : sign, e.operands()[1]});
    } else if (!e.isConstant() && e.kind() == SymExpr::Kind::Neg) {
      work.push_back({-sign, e.operands()[0]});
    } else {
      terms.push_back({sign, e});
    }
  }
  for (const auto &[sign, term] : terms) {
    SymExpr coefficient = SymExpr(sign);
    std::optional<std::string> var;
    std::vector<SymExpr> factors{term};
    while (!factors.empty()) {
      SymExpr f = factors.back();
      factors.pop_back();
      if (!f.isConstant() && f.kind() == SymExpr::Kind::Mul) {
        for (const SymExpr &o : f.operands())
          factors.push_back(o);
      } else if (isLoopVar(f)) {
        if (var)
          return std::nullopt;
        var = std::string(f.name());
      } else if (mentionsLoopVar(f)) {
        return std::nullopt;
      } else {
        coefficient = symMul(coefficient, f);
      }
    }
    if (!var)
      out.offset = symAdd(out.offset, coefficient);
    else if (auto it = out.coefficients.find(*var); it != out.coefficients.end())
      it->second = symAdd(it->second, coefficient);
    else
      out.coefficients.emplace(*var, coefficient);
  }
  return out;
}

} // namespace

const std::optional<LinearIndex> &LoopCleanup::linearIndexCached(const SymExpr &index) {
  auto it = linearIndices_.find(index);
  if (it == linearIndices_.end())
    it = linearIndices_.emplace(index, linearIndexOf(index)).first;
  return it->second;
}

namespace {

/// The producer's variables in terms of a reader's, such that the producer's store index
/// (linear form `store`) equals the load index (linear form `load`): matching strides term by term
/// (a slice or a shifted range, as cat reads its inputs), or, for a contiguous producer read at one
/// flat position, dividing that position by the strides (a reshape). nullopt when neither applies.
std::optional<std::map<std::string, SymExpr, std::less<>>>
invertStore(const LoopOp &producer, const LoopOp &reader, const std::optional<LinearIndex> &store,
            const std::optional<LinearIndex> &load, bool masked) {
  if (!store || !load || !symIs(store->offset, 0))
    return std::nullopt;
  size_t dims = producer.ranges.size();
  if (store->coefficients.size() != dims)
    return std::nullopt;
  std::vector<std::string> names(dims); // the producer's variables x0, x1, ...
  for (size_t j = 0; j < dims; ++j)
    names[j] = loopVarName(false, j);
  std::vector<SymExpr> strides(dims);
  for (size_t j = 0; j < dims; ++j) {
    auto it = store->coefficients.find(names[j]);
    if (it == store->coefficients.end())
      return std::nullopt;
    strides[j] = it->second;
  }
  // An indirect index (a gather's) ranges over the dimension of the view it indexes, which a
  // matching stride at offset 0 makes a dimension of the producer or a prefix of one.
  auto indirect = [](const std::string &var) { return isIndirectVarName(var); };
  auto rangeOf = [&](const std::string &var) -> SymExpr {
    assert(!indirect(var) && "an indirect index has no range of its own");
    size_t i = std::stoul(var.substr(1));
    const auto &ranges = var[0] == 'r' ? reader.reductionRanges : reader.ranges;
    return i < ranges.size() ? ranges[i] : SymExpr(0);
  };
  std::map<std::string, SymExpr, std::less<>> subst;
  // Term by term: each reader variable whose coefficient is a producer stride, and whose range
  // fits in that dimension, is that dimension's variable.
  std::set<std::string> used;
  bool matched = true;
  for (size_t j = 0; j < dims && matched; ++j) {
    subst[names[j]] = 0;
    for (const auto &[var, coefficient] : load->coefficients)
      // A masked read (cat) may range further: the points outside are not read.
      if (!used.count(var) && symEq(coefficient, strides[j]) &&
          (masked || indirect(var) || symEq(rangeOf(var), producer.ranges[j]) ||
           (rangeOf(var).isConstant() && producer.ranges[j].isConstant() &&
            rangeOf(var).constant() <= producer.ranges[j].constant()))) {
        subst[names[j]] = SymExpr::symbol(var);
        used.insert(var);
        break;
      }
  }
  matched = used.size() == load->coefficients.size();
  if (matched && !symIs(load->offset, 0)) {
    // A constant offset is where a slice or a cat input starts; it moves the producer's
    // coordinates: a shift c_j of each matched dimension and a fixed coordinate k_j of each
    // unmatched one, with sum(stride_j * shift_j) == offset. Only in-bounds shifts count: a
    // matched dimension the reader does not range further than keeps its window inside
    // (0 <= c_j <= P_j - R_j); one it ranges further (a masked cat read) has the producer's
    // window inside the reader's (R_j - P_j >= -c_j >= 0); k_j in [0, P_j). The flat offset
    // alone is ambiguous (cat([a, b], 1) with b [4, 4] reads b at 4*x0 + x1 - 7: (x0, x1 - 7),
    // not (x0 - 2, x1 + 1)); inline only when exactly one decomposition fits, else keep the
    // producer's buffer.
    struct Dim {
      int64_t stride, lo, hi;
    };
    std::vector<Dim> ds;
    if (!load->offset.isConstant())
      matched = false;
    for (const auto &[var, coefficient] : load->coefficients)
      matched = matched && !indirect(var);
    for (size_t j = 0; j < dims && matched; ++j) {
      const SymExpr &var = subst[names[j]];
      const SymExpr &p = producer.ranges[j];
      SymExpr r = var.isConstant() ? SymExpr(1) : rangeOf(std::string(var.name()));
      if (!strides[j].isConstant() || strides[j].constant() <= 0) {
        matched = false;
      } else if (var.isConstant()) { // unmatched: a fixed coordinate
        if (p.isConstant())
          ds.push_back({strides[j].constant(), 0, p.constant() - 1});
        else
          matched = false;
      } else if (symEq(r, p)) {
        ds.push_back({strides[j].constant(), 0, 0});
      } else if (r.isConstant() && p.isConstant()) {
        int64_t d = p.constant() - r.constant();
        ds.push_back({strides[j].constant(), std::min<int64_t>(d, 0), std::max<int64_t>(d, 0)});
      } else {
        matched = false;
      }
    }
    // Largest strides first; the smaller ones can make up at most `rest` either way.
    std::vector<size_t> order(ds.size());
    for (size_t j = 0; j < order.size(); ++j)
      order[j] = j;
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return ds[a].stride > ds[b].stride; });
    std::vector<int64_t> reach(order.size() + 1, 0);
    for (size_t k = order.size(); k-- > 0;) {
      const Dim &d = ds[order[k]];
      reach[k] = reach[k + 1] + d.stride * std::max(std::abs(d.lo), std::abs(d.hi));
    }
    std::vector<int64_t> shift(ds.size(), 0), found;
    int solutions = 0;
    std::function<void(size_t, int64_t)> search = [&](size_t k, int64_t left) {
      if (solutions > 1)
        return;
      if (k == order.size()) {
        if (left == 0 && ++solutions == 1)
          found = shift;
        return;
      }
      const Dim &d = ds[order[k]];
      // stride * v must be within reach[k + 1] of `left`.
      int64_t lo = std::max(d.lo, -((reach[k + 1] - left) / d.stride) - 1);
      int64_t hi = std::min(d.hi, (left + reach[k + 1]) / d.stride + 1);
      for (int64_t v = lo; v <= hi; ++v) {
        shift[order[k]] = v;
        search(k + 1, left - v * d.stride);
      }
      shift[order[k]] = 0;
    };
    if (matched) {
      search(0, load->offset.constant());
      matched = solutions == 1;
    }
    for (size_t j = 0; j < dims && matched; ++j)
      subst[names[j]] = symAdd(subst[names[j]], SymExpr(found[j]));
  }
  if (matched)
    return subst;
  // One flat position over a contiguous producer: unflatten it.
  if (load->coefficients.size() != 1 || !symIs(load->offset, 0) ||
      !symIs(load->coefficients.begin()->second, 1))
    return std::nullopt;
  SymExpr expected = 1;
  for (size_t j = dims; j-- > 0;) {
    if (!symEq(strides[j], expected))
      return std::nullopt;
    expected = symMul(expected, producer.ranges[j]);
  }
  SymExpr flat = SymExpr::symbol(load->coefficients.begin()->first);
  subst.clear();
  for (size_t j = 0; j < dims; ++j) {
    SymExpr q =
        symIs(strides[j], 1) ? flat : SymExpr::binary(SymExpr::Kind::FloorDiv, flat, strides[j]);
    subst[names[j]] = j == 0 ? q : SymExpr::binary(SymExpr::Kind::Mod, q, producer.ranges[j]);
  }
  return subst;
}

/// Inlines pointwise producers into the ops that read them, as Inductor inlines pointwise
/// nodes: per-channel or per-row vectors (one dimension) into up to 8 readers, recomputed per
/// read; any other producer into its only reader when every read of it inverts its store
/// index (invertStore) and the reader does not iterate over much more than the producer (so
/// little is recomputed). Masked reads (cat) pass their mask on to the inlined loads.
} // namespace

bool LoopCleanup::inlineSmallProducers() {
  bool changed = false;
  constexpr size_t kMaxBody = 48, kMaxReaders = 8;
  // A reader takes producers while its body stays under this many instructions (Inductor
  // realizes a value whose op count passes realize_opcount_threshold): a cat of thousands of
  // computed inputs, copying its whole body once per producer, was quadratic.
  constexpr size_t kMaxReaderBody = 4096;
  // The ops reading each buffer, in op order: what reads() lists, without a list per op.
  std::vector<std::vector<int32_t>> readers(program_.buffers.size());
  auto addReader = [&readers](int32_t b, int32_t op) {
    if (b >= 0 && (readers[b].empty() || readers[b].back() != op))
      readers[b].push_back(op);
  };
  // Buffers a later op scatters into: their producer's values are not the final ones.
  std::vector<bool> scattered(program_.buffers.size(), false);
  for (size_t i = 0; i < program_.ops.size(); ++i) {
    const LoopOp &op = program_.ops[i];
    for (const Store &s : op.stores)
      if (s.scatter)
        scattered[s.buffer] = true;
    for (const ScalarInstr &in : op.body)
      if (in.op == ScalarOp::Load)
        addReader(in.buffer, static_cast<int32_t>(i));
    for (const BufferView &v : op.externInputs)
      addReader(v.buffer, static_cast<int32_t>(i));
  }
  // The merged body is built here (this buffer only grows) and copied over the reader's, which
  // grows geometrically: a chain of producers inlined one by one into a reader would otherwise
  // allocate (and free) a body of up to a few kilobytes per producer.
  std::vector<ScalarInstr> body;
  for (size_t pi = 0; pi < program_.ops.size(); ++pi) {
    const LoopOp &producer = program_.ops[pi];
    if (producer.kind != LoopOpKind::Pointwise || producer.stores.size() != 1 ||
        producer.body.size() > kMaxBody)
      continue;
    const Store &store = producer.stores[0];
    int32_t b = store.buffer;
    if (program_.buffers[b].isOutput || readers[b].empty() || scattered[b])
      continue;
    bool vector = producer.ranges.size() <= 1;
    if (readers[b].size() > (vector ? kMaxReaders : 1))
      continue;
    // Every read must invert; collect the substitutions first, change nothing until all do.
    std::vector<std::vector<std::optional<std::map<std::string, SymExpr, std::less<>>>>> plans;
    bool inlinable = true;
    for (int32_t r : readers[b]) {
      const LoopOp &reader = program_.ops[r];
      inlinable = inlinable && reader.kind != LoopOpKind::Extern &&
                  reader.body.size() + producer.body.size() <= kMaxReaderBody;
      if (!vector && inlinable)
        inlinable = symHint(symMul(reader.numel(), reader.reductionNumel())) <=
                    4 * symHint(producer.numel());
      if (!inlinable)
        break;
      std::vector<std::optional<std::map<std::string, SymExpr, std::less<>>>> sites;
      for (const ScalarInstr &in : reader.body) {
        if (!inlinable || in.op != ScalarOp::Load || in.buffer != b) {
          sites.emplace_back();
          continue;
        }
        auto subst = invertStore(producer, reader, linearIndexCached(producer.stores[0].index),
                                 linearIndexCached(in.index), in.operands[0] >= 0);
        inlinable = inlinable && subst.has_value();
        sites.push_back(subst);
      }
      plans.push_back(std::move(sites));
    }
    if (!inlinable)
      continue;
    changed = true;
    for (size_t ri = 0; ri < readers[b].size(); ++ri) {
      int32_t r = readers[b][ri];
      LoopOp &reader = program_.ops[r];
      body.clear();
      size_t expected = reader.body.size() + 2 * producer.body.size(); // usually one read site
      if (body.capacity() < expected)
        body.reserve(std::max(expected, 2 * body.capacity()));
      std::vector<int32_t> remap(reader.body.size(), -1);
      for (size_t i = 0; i < reader.body.size(); ++i) {
        const ScalarInstr &in = reader.body[i];
        if (in.op == ScalarOp::Load && in.buffer == b) {
          const auto &subst = *plans[ri][i];
          int32_t mask = in.operands[0] >= 0 ? remap[in.operands[0]] : -1;
          std::vector<int32_t> local(producer.body.size(), -1);
          for (size_t j = 0; j < producer.body.size(); ++j) {
            ScalarInstr copy = producer.body[j];
            int arity = copy.op == ScalarOp::Load ? 1 : scalarOpArity(copy.op);
            for (int k = 0; k < arity; ++k)
              if (copy.operands[k] >= 0)
                copy.operands[k] = local[copy.operands[k]];
            if (copy.op == ScalarOp::Load || copy.op == ScalarOp::IndexValue)
              copy.index = copy.index.substitute(subst).simplify();
            if (copy.op == ScalarOp::Load && mask >= 0) {
              if (copy.operands[0] < 0) {
                copy.operands[0] = mask;
              } else {
                ScalarInstr both;
                both.op = ScalarOp::LogicalAnd;
                both.dtype = DType::Bool;
                both.operands[0] = mask;
                both.operands[1] = copy.operands[0];
                body.push_back(both);
                copy.operands[0] = static_cast<int32_t>(body.size() - 1);
              }
            }
            local[j] = static_cast<int32_t>(body.size());
            body.push_back(std::move(copy));
          }
          remap[i] = local[store.value];
          continue;
        }
        ScalarInstr copy = in;
        int arity = copy.op == ScalarOp::Load ? 1 : scalarOpArity(copy.op);
        for (int k = 0; k < arity; ++k)
          if (copy.operands[k] >= 0)
            copy.operands[k] = remap[copy.operands[k]];
        remap[i] = static_cast<int32_t>(body.size());
        body.push_back(std::move(copy));
      }
      if (reader.body.capacity() < body.size()) {
        std::vector<ScalarInstr> grown;
        grown.reserve(std::max(body.size(), 2 * reader.body.capacity()));
        reader.body.swap(grown);
      }
      reader.body.assign(body.begin(), body.end());
      if (reader.kind == LoopOpKind::Reduction || reader.kind == LoopOpKind::Scan) {
        reader.reduced = remap[reader.reduced];
        if (reader.reducedIndex >= 0)
          reader.reducedIndex = remap[reader.reducedIndex];
      } else {
        for (Store &s : reader.stores)
          s.value = remap[s.value];
      }
      for (size_t k = 0; k < producer.origins.size(); ++k) {
        reader.origins.insert(reader.origins.end() - 1, producer.origins[k]);
        reader.originOps.insert(reader.originOps.end() - 1, producer.originOps[k]);
      }
      for (int32_t pb : producer.reads())
        if (std::find(readers[pb].begin(), readers[pb].end(), r) == readers[pb].end())
          readers[pb].push_back(r);
    }
    readers[b].clear();
  }
  return changed;
}

Expected<LoopProgram> Lowerer::run() {
  size_t i = 0;
  for (Node *n : graph_) {
    n->scratch() = static_cast<uint32_t>(i++);
    if (n->op() != OpKind::Placeholder)
      continue;
    auto add = [&](const SymExpr &e) {
      for (std::string &s : e.symbols())
        inputSymbols_.insert(std::move(s));
    };
    if (const TensorType *t = n->value().tensor()) {
      for (const SymExpr &e : t->sizes)
        add(e);
      for (const SymExpr &e : t->strides)
        add(e);
    } else if (const SymExpr *s = n->value().sym()) {
      add(*s);
    }
  }
  values_.resize(i);
  program_.ops.reserve(i);
  program_.buffers.reserve(i);
  for (Node *n : graph_) {
    switch (n->op()) {
    case OpKind::Placeholder: {
      Lowered &v = valueOf(n);
      if (const TensorType *t = n->value().tensor()) {
        Buffer b;
        b.name = n->name();
        b.type = *t;
        b.isInput = true;
        program_.buffers.push_back(std::move(b));
        int32_t id = static_cast<int32_t>(program_.buffers.size() - 1);
        program_.inputs.push_back(id);
        program_.inputSymbols.emplace_back();
        v = wholeValue(id);
      } else if (const SymExpr *s = n->value().sym()) {
        program_.inputs.push_back(-1);
        program_.inputSymbols.push_back(s->str());
        v.kind = Lowered::Kind::Sym;
        v.sym = *s;
      } else {
        return Error("placeholder '" + n->name() +
                     "' has no type: run shape inference first "
                     "(or give the graph a nodes.json sidecar)");
      }
      break;
    }
    case OpKind::CallFunction:
      if (Status s = lowerNode(*n); !s)
        return s.takeError();
      break;
    case OpKind::Output:
      if (Status s = lowerOutput(*n); !s)
        return s.takeError();
      break;
    default:
      // An unused attribute (Inductor's post-grad graphs keep the constants they folded)
      // needs nothing; a used one needs its value, which graphs do not carry.
      if (n->op() == OpKind::GetAttr && n->users().empty())
        break;
      return Error("node '" + n->name() + "': lowering does not support " +
                   std::string(opKindName(n->op())) + " nodes");
    }
  }
  return std::move(program_);
}

} // namespace lowering

Expected<loop::LoopProgram> lowerGraphOps(const Graph &graph) {
  return lowering::Lowerer(graph).run();
}

bool eliminateDeadLoopOps(loop::LoopProgram &program) {
  return lowering::LoopCleanup{program, {}}.eliminateDeadOps();
}

bool inlineSmallProducers(loop::LoopProgram &program) {
  return lowering::LoopCleanup{program, {}}.inlineSmallProducers();
}

std::span<const LoweringStep> loweringSteps() {
  static constexpr LoweringStep kSteps[] = {
      {"loop-dce", eliminateDeadLoopOps},
      {"inline-producers", inlineSmallProducers},
      {"loop-dce", eliminateDeadLoopOps},
      {"split-reductions", [](loop::LoopProgram &p) { return splitReductions(p); }},
  };
  return kSteps;
}

Expected<loop::LoopProgram> lowerGraph(const Graph &graph) {
  auto program = lowerGraphOps(graph);
  if (!program)
    return program;
  for (const LoweringStep &step : loweringSteps())
    step.rewrite(*program);
  return program;
}

} // namespace fxkit
