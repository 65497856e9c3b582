/// \file The pointwise op family: PointwiseOps.def's lines as registry rows, each inferred by
/// TensorIterator's rules over its operands.

#include "ir/ops/PointwiseOps.h"
#include "ir/ops/OpFamilies.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace fxkit {

namespace {

using loop::ScalarOp;

/// pow.Tensor_Scalar's meta function (NumPy's rule): an integral or bool base may not take a
/// negative integer exponent; only a constant exponent can be checked here. (Tensor_Tensor has
/// no such check: its integer kernel takes negative exponents as c10's powi does.)
Status checkIntegerPower(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto base, b.tensor("self"));
  const Argument &e = b.get("exponent");
  bool integral = e.kind() == Argument::Kind::Int || e.kind() == Argument::Kind::Sym ||
                  (e.isNode() && e.asNode()->value().sym());
  if (!integral || dtypeIsFloating(base.dtype))
    return Status::ok();
  FXKIT_ASSIGN_OR_RETURN(auto v, b.symInt("exponent"));
  if (v.isConstant() && v.constant() < 0)
    return b.error("Integers to negative integer powers are not allowed (" +
                   std::string(dtypeName(base.dtype)) + " tensor to the power " +
                   std::to_string(v.constant()) + ")");
  return Status::ok();
}

/// A prim keeps its operands' dtype, so the scalar op must have a form in it: the prims' meta
/// functions accept any dtype, but their ATen implementations (torch.sin, torch.bitwise_and,
/// true division) refuse or promote the others, so such a call has no one meaning.
Status checkPrimDType(const BoundArgs &b, const PointwiseOp &op, DType dtype) {
  bool floating = dtypeIsFloating(dtype);
  if (loop::scalarOpKind(op.scalarOp) == loop::ScalarOpKind::FloatFn && !floating)
    return b.error("prims." + b.op().schema.name + " takes floating tensors, not " +
                   std::string(dtypeName(dtype)) + " (convert_element_type first)");
  if (loop::scalarOpSpelling(op.scalarOp).openclFloat.empty() && floating)
    return b.error("prims." + b.op().schema.name + " takes integral or bool tensors, not " +
                   std::string(dtypeName(dtype)));
  return Status::ok();
}

constexpr PointwiseOp kPointwiseOps[] = {
#define FXKIT_POINTWISE(target, schema, promote, op)                                               \
  {"torch.ops." target, schema, Promote::promote, ScalarOp::op, nullptr},
#define FXKIT_POINTWISE_CHECKED(target, schema, promote, op, check)                                \
  {"torch.ops." target, schema, Promote::promote, ScalarOp::op, check},
#include "ir/Try.h"
#include "ir/ops/PointwiseOps.def"
};

/// Inference of a PointwiseOps.def op: pointwise() over its operand arguments.
Expected<NodeValue> inferPointwiseOp(const BoundArgs &b) {
  const PointwiseOp *op = pointwiseOpOf(b.op().target);
  if (!op)
    return b.error("not a pointwise op of PointwiseOps.def");
  if (op->check)
    FXKIT_TRY(op->check(b));
  const auto &args = b.op().schema.args;
  Expected<NodeValue> v = [&] {
    switch (loop::scalarOpArity(op->scalarOp)) {
    case 1:
      return pointwise(b, {args[0].name}, op->promote);
    case 2:
      return pointwise(b, {args[0].name, args[1].name}, op->promote);
    default:
      return pointwise(b, {args[0].name, args[1].name, args[2].name}, op->promote);
    }
  }();
  if (v && op->promote == Promote::Prim)
    FXKIT_TRY(checkPrimDType(b, *op, v->tensor()->dtype));
  return v;
}

/// The arguments of a clamp that are given (min and max are optional).
std::vector<std::string_view> clampOperands(const BoundArgs &b) {
  std::vector<std::string_view> names{"self"};
  for (std::string_view bound : {"min", "max"})
    if (!b.get(bound).isNone())
      names.push_back(bound);
  return names;
}

/// clamp.default / clamp.Tensor: torch._refs.clamp promotes self with the given bounds.
Expected<NodeValue> inferClamp(const BoundArgs &b) {
  std::vector<std::string_view> names = clampOperands(b);
  if (names.size() == 1)
    return b.error("torch.clamp: At least one of 'min' or 'max' must not be None");
  if (names.size() == 2)
    return pointwise(b, {names[0], names[1]}, Promote::Default);
  return pointwise(b, {names[0], names[1], names[2]}, Promote::Default);
}

/// Activations of floats that keep self's dtype (hardtanh, leaky_relu, elu).
Expected<NodeValue> inferActivation(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  if (self.dtype == DType::Bool)
    return b.error(b.op().schema.name + " is not implemented for bool tensors");
  return pointwise(b, {"self"}, Promote::NoOpMath);
}

/// atan2.out: atan2 written into `out`, which must have the broadcast shape and a floating
/// dtype; the result is `out` itself.
Expected<NodeValue> inferAtan2Out(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto value, pointwise(b, {"self", "other"}, Promote::IntToFloat));
  FXKIT_ASSIGN_OR_RETURN(auto out, b.tensor("out"));
  const TensorType &t = *value.tensor();
  if (!dtypeIsFloating(out.dtype))
    return b.error("result type Float can't be cast to the desired output type " +
                   std::string(dtypeName(out.dtype)));
  if (out.sizes.size() != t.sizes.size() ||
      !std::equal(out.sizes.begin(), out.sizes.end(), t.sizes.begin(), symEq))
    return b.error("out has sizes " + out.str() + ", the result " + t.str() +
                   " (out= tensors are not resized)");
  return one(std::move(out));
}

// clang-format off
/// Pointwise ops made of several scalar ops: their kernels are in
/// backends/interp/PointwiseKernels.cpp, their lowering in transforms/Lowering.cpp.
const OpRow kCompositeRows[] = {
  {"torch.ops.aten.clamp.default", "clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor", OpCategory::Pointwise, inferClamp},
  {"torch.ops.aten.clamp.Tensor", "clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", OpCategory::Pointwise, inferClamp},
  {"torch.ops.aten.hardtanh.default", "hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor", OpCategory::Pointwise, inferActivation},
  {"torch.ops.aten.leaky_relu.default", "leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor", OpCategory::Pointwise, inferActivation},
  {"torch.ops.aten.elu.default", "elu(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor", OpCategory::Pointwise, inferActivation},
  {"torch.ops.aten.atan2.out", "atan2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", OpCategory::Pointwise, inferAtan2Out},
};
// clang-format on

const std::vector<OpRow> &rows() {
  static const std::vector<OpRow> table = [] {
    std::vector<OpRow> out;
    for (const PointwiseOp &op : kPointwiseOps)
      out.push_back({op.target, op.schema, OpCategory::Pointwise, inferPointwiseOp});
    out.insert(out.end(), std::begin(kCompositeRows), std::end(kCompositeRows));
    return out;
  }();
  return table;
}

} // namespace

std::span<const PointwiseOp> pointwiseOps() { return kPointwiseOps; }

const PointwiseOp *pointwiseOpOf(std::string_view target) {
  static const std::unordered_map<std::string_view, const PointwiseOp *> index = [] {
    std::unordered_map<std::string_view, const PointwiseOp *> m;
    for (const PointwiseOp &op : kPointwiseOps)
      m.emplace(op.target, &op);
    return m;
  }();
  auto it = index.find(target);
  return it == index.end() ? nullptr : it->second;
}

std::span<const OpRow> pointwiseOpRows() { return rows(); }

} // namespace fxkit
