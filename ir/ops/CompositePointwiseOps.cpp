/// \file Composite pointwise ops (ir/ops/Decomposer.h), each row beside its decomposition:
/// the activations PyTorch decomposes (silu, mish, hardswish, hardsigmoid, relu6, softplus,
/// prelu), addcmul, addcdiv, lerp, the scalar forms of where and masked_fill, ldexp, copysign, the
/// other spellings of ops fxkit has (__and__, __lshift__, min.other, multiply, true_divide, clip,
/// split, lift_fresh, TorchScript's hacked twins, ...), and the in-place variants of the ops fxkit
/// knows (relu_, add_, hardtanh_, masked_fill_, ...), which become their functional forms as
/// functionalization makes them.
///
/// Decompositions follow torch/_decomp/decompositions.py and torch/_refs, with their dtype
/// handling: `pw_cast_for_opmath` computes half and bfloat16 in float32 and casts back.

#include "ir/Try.h"
#include "ir/ops/Decomposer.h"
#include "ir/ops/InferSupport.h"
#include "ir/ops/OpFamilies.h"
#include "ir/ops/ShapeRules.h"

#include <cmath>
#include <limits>

namespace fxkit {

namespace {

using C = OpCategory;

// ---- Helpers ----

/// The op-math dtype of pw_cast_for_opmath: float32 for half and bfloat16 inputs.
Expected<Argument> opmath(Decomposer &d, const Argument &x) {
  FXKIT_ASSIGN_OR_RETURN(auto t, d.type(x));
  if (t.dtype == DType::Float16 || t.dtype == DType::BFloat16)
    return d.convert(x, DType::Float32);
  return x;
}

/// ATen's refusal of an integer or bool input to a floating-point activation.
Status requireFloating(Decomposer &d, std::string_view kernel) {
  FXKIT_ASSIGN_OR_RETURN(auto self, d.args().tensor("self"));
  if (!dtypeIsFloating(self.dtype))
    return d.error("\"" + std::string(kernel) + "\" not implemented for '" +
                   std::string(dtypeScalarTypeName(self.dtype)) + "'");
  return Status::ok();
}

/// The node's own arguments and keyword arguments, for a call with the same schema.
Kwargs nodeKwargs(const Decomposer &d) {
  Kwargs out;
  const Argument &kw = d.node().kwargs();
  for (size_t i = 0; i < kw.dictSize(); ++i)
    out.emplace_back(std::string(kw.dictKey(i)), kw.dictValue(i));
  return out;
}

/// The kind of a Python scalar argument (a bool, an int or a SymInt, a float).
Expected<ScalarKind> scalarKindOf(Decomposer &d, const Argument &a) {
  switch (a.kind()) {
  case Argument::Kind::Bool:
    return ScalarKind::Bool;
  case Argument::Kind::Int:
  case Argument::Kind::Sym:
    return ScalarKind::Int;
  case Argument::Kind::Float:
    return ScalarKind::Float;
  case Argument::Kind::NodeRef:
    if (a.asNode()->value().sym())
      return ScalarKind::Int;
    break;
  default:
    break;
  }
  return d.error("expected a Python number");
}

// ---- Activations ----

/// A floating activation computed in op math: body(x), x self upcast, converted back to self's
/// dtype as the node's result. Other dtypes are refused, naming the op `name`.
template <class Body> Status inOpMath(Decomposer &d, const char *name, Body &&body) {
  FXKIT_TRY(requireFloating(d, name));
  FXKIT_ASSIGN_OR_RETURN(auto self, d.args().tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto x, opmath(d, d.arg("self")));
  FXKIT_ASSIGN_OR_RETURN(auto y, body(x));
  FXKIT_ASSIGN_OR_RETURN(auto r, d.convert(y, self.dtype));
  return d.result(r);
}

/// silu(x) = x * sigmoid(x) (torch/_decomp, in op math).
Status decomposeSilu(Decomposer &d) {
  return inOpMath(d, "silu", [&](const Argument &x) -> Expected<Argument> {
    FXKIT_ASSIGN_OR_RETURN(auto s, d.call("aten.sigmoid.default", {x}));
    return d.call("aten.mul.Tensor", {x, s});
  });
}

/// mish(x) = x * tanh(softplus(x)) (torch/_decomp, in op math).
Status decomposeMish(Decomposer &d) {
  return inOpMath(d, "mish", [&](const Argument &x) -> Expected<Argument> {
    FXKIT_ASSIGN_OR_RETURN(auto sp, d.call("aten.softplus.default", {x}));
    FXKIT_ASSIGN_OR_RETURN(auto t, d.call("aten.tanh.default", {sp}));
    return d.call("aten.mul.Tensor", {x, t});
  });
}

/// softplus(x, beta, threshold) = where(x*beta > threshold, x, log1p(exp(x*beta)) / beta)
/// (torch/_refs/nn/functional, in op math).
Status decomposeSoftplus(Decomposer &d) {
  return inOpMath(d, "softplus", [&](const Argument &x) -> Expected<Argument> {
    const Argument &beta = d.arg("beta");
    FXKIT_ASSIGN_OR_RETURN(auto scaled, d.call("aten.mul.Tensor", {x, beta}));
    FXKIT_ASSIGN_OR_RETURN(auto e, d.call("aten.exp.default", {scaled}));
    FXKIT_ASSIGN_OR_RETURN(auto l, d.call("aten.log1p.default", {e}));
    FXKIT_ASSIGN_OR_RETURN(auto rhs, d.call("aten.div.Tensor", {l, beta}));
    FXKIT_ASSIGN_OR_RETURN(auto above, d.call("aten.gt.Scalar", {scaled, d.arg("threshold")}));
    return d.call("aten.where.self", {above, x, rhs});
  });
}

/// hardsigmoid(x) = clamp(clamp(x + 3, min=0), max=6) / 6 (torch/_decomp, in op math); with
/// `times`, hardswish: x * that.
Expected<Argument> hardsigmoidOf(Decomposer &d, const Argument &x) {
  FXKIT_ASSIGN_OR_RETURN(auto p, d.call("aten.add.Tensor", {x, Argument::integer(3)}));
  FXKIT_ASSIGN_OR_RETURN(auto lo, d.call("aten.clamp.default", {p, Argument::integer(0)}));
  FXKIT_ASSIGN_OR_RETURN(
      auto hi, d.call("aten.clamp.default", {lo, Argument::none(), Argument::integer(6)}));
  return hi;
}

Status decomposeHardsigmoid(Decomposer &d) {
  return inOpMath(d, "hardsigmoid", [&](const Argument &x) -> Expected<Argument> {
    FXKIT_ASSIGN_OR_RETURN(auto c, hardsigmoidOf(d, x));
    return d.call("aten.div.Tensor", {c, Argument::integer(6)});
  });
}

Status decomposeHardswish(Decomposer &d) {
  return inOpMath(d, "hardswish", [&](const Argument &x) -> Expected<Argument> {
    FXKIT_ASSIGN_OR_RETURN(auto c, hardsigmoidOf(d, x));
    FXKIT_ASSIGN_OR_RETURN(auto m, d.call("aten.mul.Tensor", {x, c}));
    return d.call("aten.div.Tensor", {m, Argument::integer(6)});
  });
}

/// relu6(x) = hardtanh(x, 0, 6) (ATen).
Status decomposeRelu6(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(
      auto r,
      d.call("aten.hardtanh.default", {d.arg("self"), Argument::integer(0), Argument::integer(6)}));
  return d.result(r);
}

/// square(x) = pow(x, 2) (ATen).
Status decomposeSquare(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto r,
                         d.call("aten.pow.Tensor_Scalar", {d.arg("self"), Argument::integer(2)}));
  return d.result(r);
}

/// prelu(x, w) = where(x > 0, x, w * x), w reshaped to broadcast over the channel dim (ATen's
/// prelu and _prelu_kernel's decomposition).
Status decomposePrelu(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto self, d.args().tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto weight, d.args().tensor("weight"));
  if (self.dtype != weight.dtype)
    return d.error("prelu: Type promoting not supported. Got " +
                   std::string(dtypeScalarTypeName(self.dtype)) + " and " +
                   std::string(dtypeScalarTypeName(weight.dtype)));
  SymExpr numel = symProduct(weight.sizes);
  if (!symIs(numel, 1)) {
    if (self.sizes.empty())
      return d.error("Not allow zero-dim input tensor.");
    SymExpr channels = self.sizes.size() > 1 ? self.sizes[1] : SymExpr(1);
    if (!symEq(channels, numel))
      return d.error("Mismatch of parameter numbers and input channel size. Found parameter "
                     "numbers = " +
                     numel.str() + " and channel size = " + channels.str() + ".");
  }
  if (weight.sizes.size() > 1)
    return d.error("prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = " +
                   std::to_string(weight.sizes.size()));
  Argument w = d.arg("weight");
  if (self.sizes.size() != weight.sizes.size()) {
    std::vector<Argument> shape(self.sizes.size(), Argument::integer(1));
    if (self.sizes.size() > 1) {
      FXKIT_ASSIGN_OR_RETURN(auto n, weight.sizes.empty() ? Expected<Argument>(Argument::integer(1))
                                                          : d.size(w, 0));
      shape[1] = n;
    }
    FXKIT_ASSIGN_OR_RETURN(auto v, d.reshape(w, std::move(shape)));
    w = v;
  }
  FXKIT_ASSIGN_OR_RETURN(auto pos, d.call("aten.gt.Scalar", {d.arg("self"), Argument::integer(0)}));
  FXKIT_ASSIGN_OR_RETURN(auto scaled, d.call("aten.mul.Tensor", {w, d.arg("self")}));
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.where.self", {pos, d.arg("self"), scaled}));
  return d.result(r);
}

// ---- Arithmetic spellings ----

/// rsub.Tensor(self, other, alpha) = other - alpha * self.
Status decomposeRsub(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.sub.Tensor", {d.arg("other"), d.arg("self")},
                                        {{"alpha", d.arg("alpha")}}));
  return d.result(r);
}

/// copysign(self, other): |self| with other's sign bit (so -0.0 and a negative NaN count as
/// negative), in the promoted dtype, integers promoted to float32 (a Python number does not
/// promote a floating self).
Status decomposeCopysign(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto self, d.type(d.arg("self")));
  const bool scalar = d.args().op().schema.overload == "Scalar";
  Argument other = d.arg("other");
  DType dtype = self.dtype;
  if (scalar) {
    if (!dtypeIsFloating(dtype))
      dtype = DType::Float32;
    // Float32 keeps the number's sign bit (-0.0, -inf, a negative NaN) and every device has it.
    FXKIT_ASSIGN_OR_RETURN(other, d.scalarTensor(other, DType::Float32, self.device));
  } else {
    FXKIT_ASSIGN_OR_RETURN(auto o, d.type(other));
    dtype = promoteTypes(self.dtype, o.dtype);
    if (!dtypeIsFloating(dtype))
      dtype = DType::Float32;
  }
  FXKIT_ASSIGN_OR_RETURN(auto x, d.convert(d.arg("self"), dtype));
  FXKIT_ASSIGN_OR_RETURN(auto magnitude, d.call("aten.abs.default", {x}));
  FXKIT_ASSIGN_OR_RETURN(auto negative, d.call("aten.neg.default", {magnitude}));
  FXKIT_ASSIGN_OR_RETURN(auto sign, d.call("aten.signbit.default", {other}));
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.where.self", {sign, negative, magnitude}));
  return d.result(r);
}

/// ldexp(self, other) = self * 2^other, as ATen's ldexp: mul(self, pow(2.0, other)) (an
/// integral other gives a float power, so the result is floating).
Status decomposeLdexp(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto p,
                         d.call("aten.pow.Scalar", {Argument::floating(2.0), d.arg("other")}));
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.mul.Tensor", {d.arg("self"), p}));
  return d.result(r);
}

/// addcmul: self + value * tensor1 * tensor2; addcdiv: self + value * (tensor1 / tensor2)
/// (torch/_refs), in the dtype the three promote to, half and bfloat16 computed in float32 and
/// rounded once. value must be an int for integral results, as PyTorch checks; addcdiv refuses
/// integral tensor1 and tensor2.
Status decomposeAddc(Decomposer &d) {
  const bool div = d.args().op().schema.name == "addcdiv";
  FXKIT_ASSIGN_OR_RETURN(auto self, d.type(d.arg("self")));
  FXKIT_ASSIGN_OR_RETURN(auto t1, d.type(d.arg("tensor1")));
  FXKIT_ASSIGN_OR_RETURN(auto t2, d.type(d.arg("tensor2")));
  if (div && !dtypeIsFloating(t1.dtype) && !dtypeIsFloating(t2.dtype))
    return d.error("Integer division with addcdiv is no longer supported, and in a future "
                   "release addcdiv will perform a true division of tensor1 and tensor2. The "
                   "historic addcdiv behavior can be implemented as (input + value * "
                   "torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
                   "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv "
                   "behavior is just the latter implementation: (input + value * tensor1 / "
                   "tensor2), for all dtypes.");
  const DType dtype = promoteTypes(promoteTypes(self.dtype, t1.dtype), t2.dtype);
  const Argument &value = d.arg("value");
  // is_weakly_lesser_type: a float value needs a floating self, an int one a non-bool self.
  if (!dtypeIsFloating(self.dtype) && value.kind() == Argument::Kind::Float)
    return d.error(std::string("value argument of type float cannot be safely cast to type ") +
                   (self.dtype == DType::Bool ? "bool" : "int") + "!");
  if (self.dtype == DType::Bool && value.kind() == Argument::Kind::Int)
    return d.error("value argument of type int cannot be safely cast to type bool!");
  const DType compute =
      dtype == DType::Float16 || dtype == DType::BFloat16 ? DType::Float32 : dtype;
  FXKIT_ASSIGN_OR_RETURN(auto a, d.convert(d.arg("tensor1"), compute));
  FXKIT_ASSIGN_OR_RETURN(auto b, d.convert(d.arg("tensor2"), compute));
  FXKIT_ASSIGN_OR_RETURN(auto s, d.convert(d.arg("self"), compute));
  Argument term;
  if (div) {
    FXKIT_ASSIGN_OR_RETURN(auto q, d.call("aten.div.Tensor", {a, b}));
    FXKIT_ASSIGN_OR_RETURN(term, d.call("aten.mul.Tensor", {q, value}));
  } else {
    FXKIT_ASSIGN_OR_RETURN(auto va, d.call("aten.mul.Tensor", {a, value}));
    FXKIT_ASSIGN_OR_RETURN(term, d.call("aten.mul.Tensor", {va, b}));
  }
  FXKIT_ASSIGN_OR_RETURN(auto sum, d.call("aten.add.Tensor", {s, term}));
  FXKIT_ASSIGN_OR_RETURN(auto r, d.convert(sum, dtype));
  return d.result(r);
}

/// lerp(start, end, weight) as torch/_refs computes it for stability: where |weight| >= 0.5,
/// (weight - 1) * (end - start) + end, else weight * (end - start) + start (a Python weight
/// picks its form here). start, end and a weight tensor share one floating dtype, as ATen
/// checks; half and bfloat16 compute in float32.
Status decomposeLerp(Decomposer &d) {
  const bool scalar = d.args().op().schema.overload == "Scalar";
  FXKIT_ASSIGN_OR_RETURN(auto start, d.type(d.arg("self")));
  FXKIT_ASSIGN_OR_RETURN(auto end, d.type(d.arg("end")));
  if (!dtypeIsFloating(start.dtype))
    return d.error("\"lerp_kernel_" + std::string(scalar ? "scalar" : "tensor") +
                   "\" not implemented for '" + std::string(dtypeScalarTypeName(start.dtype)) +
                   "'");
  if (end.dtype != start.dtype)
    return d.error("expected dtype " + std::string(dtypeTypeMetaName(start.dtype)) +
                   " for `end` but got dtype " + std::string(dtypeTypeMetaName(end.dtype)));
  if (!scalar) {
    FXKIT_ASSIGN_OR_RETURN(auto w, d.type(d.arg("weight")));
    if (w.dtype != start.dtype)
      return d.error("expected dtype " + std::string(dtypeTypeMetaName(start.dtype)) +
                     " for `weight` but got dtype " + std::string(dtypeTypeMetaName(w.dtype)));
  }
  const DType compute = start.dtype == DType::Float16 || start.dtype == DType::BFloat16
                            ? DType::Float32
                            : start.dtype;
  FXKIT_ASSIGN_OR_RETURN(auto s, d.convert(d.arg("self"), compute));
  FXKIT_ASSIGN_OR_RETURN(auto e, d.convert(d.arg("end"), compute));
  FXKIT_ASSIGN_OR_RETURN(auto diff, d.call("aten.sub.Tensor", {e, s}));
  Argument r;
  if (scalar) {
    FXKIT_ASSIGN_OR_RETURN(double w, d.args().floating("weight"));
    const bool high = std::fabs(w) >= 0.5;
    FXKIT_ASSIGN_OR_RETURN(auto scaled,
                           d.call("aten.mul.Tensor", {diff, Argument::floating(high ? w - 1 : w)}));
    FXKIT_ASSIGN_OR_RETURN(r, d.call("aten.add.Tensor", {scaled, high ? e : s}));
  } else {
    FXKIT_ASSIGN_OR_RETURN(auto w, d.convert(d.arg("weight"), compute));
    FXKIT_ASSIGN_OR_RETURN(auto magnitude, d.call("aten.abs.default", {w}));
    FXKIT_ASSIGN_OR_RETURN(auto mask,
                           d.call("aten.ge.Scalar", {magnitude, Argument::floating(0.5)}));
    FXKIT_ASSIGN_OR_RETURN(auto w1, d.call("aten.sub.Tensor", {w, Argument::integer(1)}));
    FXKIT_ASSIGN_OR_RETURN(auto coeff, d.call("aten.where.self", {mask, w1, w}));
    FXKIT_ASSIGN_OR_RETURN(auto base, d.call("aten.where.self", {mask, e, s}));
    FXKIT_ASSIGN_OR_RETURN(auto scaled, d.call("aten.mul.Tensor", {coeff, diff}));
    FXKIT_ASSIGN_OR_RETURN(r, d.call("aten.add.Tensor", {scaled, base}));
  }
  FXKIT_ASSIGN_OR_RETURN(auto out, d.convert(r, start.dtype));
  return d.result(out);
}

/// floor_divide = div(rounding_mode='floor') (torch/_refs).
Status decomposeFloorDivide(Decomposer &d) {
  bool scalar = d.args().op().schema.overload == "Scalar";
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call(scalar ? "aten.div.Scalar_mode" : "aten.div.Tensor_mode",
                                        {d.arg("self"), d.arg("other")},
                                        {{"rounding_mode", Argument::string("floor")}}));
  return d.result(r);
}

// ---- Scalar forms of where and masked_fill ----

/// where with Python scalars: each scalar becomes a 0-d tensor of the promoted dtype
/// (torch/_refs.where), then where.self.
Status decomposeWhereScalar(Decomposer &d) {
  const Argument &self = d.arg("self"), &other = d.arg("other");
  std::vector<PromotionOperand> prom;
  std::optional<Device> device;
  for (const Argument *a : {&self, &other}) {
    if (a->isNode() && a->asNode()->value().tensor()) {
      FXKIT_ASSIGN_OR_RETURN(auto t, d.type(*a));
      prom.push_back({t.dtype, t.sizes.size(), false});
      device = t.device;
    } else {
      FXKIT_ASSIGN_OR_RETURN(auto k, scalarKindOf(d, *a));
      prom.push_back({scalarKindDType(k), 0, true});
    }
  }
  FXKIT_ASSIGN_OR_RETURN(auto cond, d.type(d.arg("condition")));
  DType dtype = resultType(prom);
  Device dev = device ? *device : cond.device;
  std::vector<Argument> operands;
  for (const Argument *a : {&self, &other}) {
    if (a->isNode() && a->asNode()->value().tensor()) {
      operands.push_back(*a);
      continue;
    }
    FXKIT_ASSIGN_OR_RETURN(auto st, d.scalarTensor(*a, dtype, dev));
    operands.push_back(st);
  }
  FXKIT_ASSIGN_OR_RETURN(auto r,
                         d.call("aten.where.self", {d.arg("condition"), operands[0], operands[1]}));
  return d.result(r);
}

/// masked_fill(a, mask, value) = where(mask, value as a's dtype, a).contiguous()
/// (torch/_refs.masked_fill).
Status decomposeMaskedFill(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto self, d.args().tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto mask, d.args().tensor("mask"));
  if (mask.dtype != DType::Bool)
    return d.error("expected mask dtype to be Bool but got " + std::string(dtypeName(mask.dtype)));
  const Argument &value = d.arg("value");
  Argument fill;
  if (value.isNode() && value.asNode()->value().tensor()) {
    FXKIT_ASSIGN_OR_RETURN(auto v, d.type(value));
    if (!v.sizes.empty())
      return d.error("only supports a 0-dimensional value tensor, but got tensor with " +
                     std::to_string(v.sizes.size()) + " dimension");
    FXKIT_ASSIGN_OR_RETURN(auto c, d.convert(value, self.dtype));
    fill = c;
  } else {
    // The number as the Python type of a's dtype: truncated for integers, a truth value for
    // bool.
    Argument number = value;
    if (value.kind() == Argument::Kind::Float && !dtypeIsFloating(self.dtype)) {
      double x = value.asFloat();
      if (self.dtype == DType::Bool)
        number = Argument::boolean(x != 0);
      else if (!std::isfinite(x) || std::fabs(x) >= 9.2e18)
        return d.error("value cannot be converted to type " + std::string(dtypeName(self.dtype)) +
                       " without overflow");
      else
        number = Argument::integer(static_cast<int64_t>(std::trunc(x)));
    } else if (value.kind() == Argument::Kind::Int && self.dtype == DType::Bool) {
      number = Argument::boolean(value.asInt() != 0);
    }
    FXKIT_ASSIGN_OR_RETURN(auto st, d.scalarTensor(number, self.dtype, self.device));
    fill = st;
  }
  FXKIT_ASSIGN_OR_RETURN(auto w, d.call("aten.where.self", {d.arg("mask"), fill, d.arg("self")}));
  FXKIT_ASSIGN_OR_RETURN(auto r, d.contiguous(w, "contiguous_format"));
  return d.result(r);
}

// ---- Other spellings of ops fxkit has ----

/// An alias and the op it calls with the same arguments.
struct AliasRow {
  std::string_view target;
  std::string_view schema;
  std::string_view to; ///< without `torch.ops.`
};

// clang-format off
const AliasRow kAliases[] = {
  {"torch.ops.aten.__and__.Scalar", "__and__.Scalar(Tensor self, Scalar other) -> Tensor", "aten.bitwise_and.Scalar"},
  {"torch.ops.aten.__and__.Tensor", "__and__.Tensor(Tensor self, Tensor other) -> Tensor", "aten.bitwise_and.Tensor"},
  {"torch.ops.aten.__or__.Scalar", "__or__.Scalar(Tensor self, Scalar other) -> Tensor", "aten.bitwise_or.Scalar"},
  {"torch.ops.aten.__or__.Tensor", "__or__.Tensor(Tensor self, Tensor other) -> Tensor", "aten.bitwise_or.Tensor"},
  {"torch.ops.aten.__xor__.Scalar", "__xor__.Scalar(Tensor self, Scalar other) -> Tensor", "aten.bitwise_xor.Scalar"},
  {"torch.ops.aten.__xor__.Tensor", "__xor__.Tensor(Tensor self, Tensor other) -> Tensor", "aten.bitwise_xor.Tensor"},
  {"torch.ops.aten.__lshift__.Scalar", "__lshift__.Scalar(Tensor self, Scalar other) -> Tensor", "aten.bitwise_left_shift.Tensor_Scalar"},
  {"torch.ops.aten.__lshift__.Tensor", "__lshift__.Tensor(Tensor self, Tensor other) -> Tensor", "aten.bitwise_left_shift.Tensor"},
  {"torch.ops.aten.__rshift__.Scalar", "__rshift__.Scalar(Tensor self, Scalar other) -> Tensor", "aten.bitwise_right_shift.Tensor_Scalar"},
  {"torch.ops.aten.__rshift__.Tensor", "__rshift__.Tensor(Tensor self, Tensor other) -> Tensor", "aten.bitwise_right_shift.Tensor"},
  {"torch.ops.aten._unsafe_index.Tensor_hacked_twin", "_unsafe_index.Tensor_hacked_twin(Tensor self, Tensor[] indices) -> Tensor", "aten._unsafe_index.Tensor"},
  {"torch.ops.aten.absolute.default", "absolute(Tensor self) -> Tensor", "aten.abs.default"},
  {"torch.ops.aten.arccos.default", "arccos(Tensor self) -> Tensor", "aten.acos.default"},
  {"torch.ops.aten.arccosh.default", "arccosh(Tensor self) -> Tensor", "aten.acosh.default"},
  {"torch.ops.aten.arcsin.default", "arcsin(Tensor self) -> Tensor", "aten.asin.default"},
  {"torch.ops.aten.arcsinh.default", "arcsinh(Tensor self) -> Tensor", "aten.asinh.default"},
  {"torch.ops.aten.arctan.default", "arctan(Tensor self) -> Tensor", "aten.atan.default"},
  {"torch.ops.aten.arctan2.default", "arctan2(Tensor self, Tensor other) -> Tensor", "aten.atan2.default"},
  {"torch.ops.aten.arctan2.out", "arctan2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "aten.atan2.out"},
  {"torch.ops.aten.arctanh.default", "arctanh(Tensor self) -> Tensor", "aten.atanh.default"},
  {"torch.ops.aten.clip.Tensor", "clip.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", "aten.clamp.Tensor"},
  {"torch.ops.aten.clip.default", "clip(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor", "aten.clamp.default"},
  {"torch.ops.aten.concat.default", "concat(Tensor[] tensors, int dim=0) -> Tensor", "aten.cat.default"},
  {"torch.ops.aten.concatenate.default", "concatenate(Tensor[] tensors, int dim=0) -> Tensor", "aten.cat.default"},
  {"torch.ops.aten.divide.Scalar", "divide.Scalar(Tensor self, Scalar other) -> Tensor", "aten.div.Scalar"},
  {"torch.ops.aten.divide.Scalar_mode", "divide.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor", "aten.div.Scalar_mode"},
  {"torch.ops.aten.divide.Tensor", "divide.Tensor(Tensor self, Tensor other) -> Tensor", "aten.div.Tensor"},
  {"torch.ops.aten.divide.Tensor_mode", "divide.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor", "aten.div.Tensor_mode"},
  {"torch.ops.aten.fix.default", "fix(Tensor self) -> Tensor", "aten.trunc.default"},
  {"torch.ops.aten.greater.Scalar", "greater.Scalar(Tensor self, Scalar other) -> Tensor", "aten.gt.Scalar"},
  {"torch.ops.aten.index.Tensor_hacked_twin", "index.Tensor_hacked_twin(Tensor self, Tensor[] indices) -> Tensor", "aten.index.Tensor"},
  {"torch.ops.aten.index_put.hacked_twin", "index_put.hacked_twin(Tensor self, Tensor[] indices, Tensor values, bool accumulate=False) -> Tensor", "aten.index_put.default"},
  {"torch.ops.aten.greater.Tensor", "greater.Tensor(Tensor self, Tensor other) -> Tensor", "aten.gt.Tensor"},
  {"torch.ops.aten.greater_equal.Scalar", "greater_equal.Scalar(Tensor self, Scalar other) -> Tensor", "aten.ge.Scalar"},
  {"torch.ops.aten.greater_equal.Tensor", "greater_equal.Tensor(Tensor self, Tensor other) -> Tensor", "aten.ge.Tensor"},
  {"torch.ops.aten.less.Scalar", "less.Scalar(Tensor self, Scalar other) -> Tensor", "aten.lt.Scalar"},
  {"torch.ops.aten.less.Tensor", "less.Tensor(Tensor self, Tensor other) -> Tensor", "aten.lt.Tensor"},
  {"torch.ops.aten.less_equal.Scalar", "less_equal.Scalar(Tensor self, Scalar other) -> Tensor", "aten.le.Scalar"},
  {"torch.ops.aten.lift_fresh.default", "lift_fresh(Tensor(a) self) -> Tensor(a)", "aten.alias.default"},
  {"torch.ops.aten.lift.default", "lift(Tensor self) -> Tensor", "aten.clone.default"},
  {"torch.ops.aten.less_equal.Tensor", "less_equal.Tensor(Tensor self, Tensor other) -> Tensor", "aten.le.Tensor"},
  {"torch.ops.aten.max.other", "max.other(Tensor self, Tensor other) -> Tensor", "aten.maximum.default"},
  {"torch.ops.aten.min.other", "min.other(Tensor self, Tensor other) -> Tensor", "aten.minimum.default"},
  {"torch.ops.aten.multiply.Scalar", "multiply.Scalar(Tensor self, Scalar other) -> Tensor", "aten.mul.Scalar"},
  {"torch.ops.aten.multiply.Tensor", "multiply.Tensor(Tensor self, Tensor other) -> Tensor", "aten.mul.Tensor"},
  {"torch.ops.aten.negative.default", "negative(Tensor self) -> Tensor", "aten.neg.default"},
  {"torch.ops.aten.not_equal.Scalar", "not_equal.Scalar(Tensor self, Scalar other) -> Tensor", "aten.ne.Scalar"},
  {"torch.ops.aten.not_equal.Tensor", "not_equal.Tensor(Tensor self, Tensor other) -> Tensor", "aten.ne.Tensor"},
  {"torch.ops.aten.special_erf.default", "special_erf(Tensor self) -> Tensor", "aten.erf.default"},
  {"torch.ops.aten.special_erfc.default", "special_erfc(Tensor self) -> Tensor", "aten.erfc.default"},
  {"torch.ops.aten.split.default", "split(Tensor(a -> *) self, int[] split_sizes, int dim=0) -> Tensor(a)[]", "aten.split_with_sizes.default"},
  {"torch.ops.aten.special_exp2.default", "special_exp2(Tensor self) -> Tensor", "aten.exp2.default"},
  {"torch.ops.aten.special_expit.default", "special_expit(Tensor self) -> Tensor", "aten.sigmoid.default"},
  {"torch.ops.aten.special_expm1.default", "special_expm1(Tensor self) -> Tensor", "aten.expm1.default"},
  {"torch.ops.aten.special_log1p.default", "special_log1p(Tensor self) -> Tensor", "aten.log1p.default"},
  {"torch.ops.aten.special_logsumexp.default", "special_logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor", "aten.logsumexp.default"},
  {"torch.ops.aten.subtract.Scalar", "subtract.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", "aten.sub.Scalar"},
  {"torch.ops.aten.subtract.Tensor", "subtract.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", "aten.sub.Tensor"},
  {"torch.ops.aten.true_divide.Scalar", "true_divide.Scalar(Tensor self, Scalar other) -> Tensor", "aten.div.Scalar"},
  {"torch.ops.aten.true_divide.Tensor", "true_divide.Tensor(Tensor self, Tensor other) -> Tensor", "aten.div.Tensor"},
};
// clang-format on

Status decomposeAlias(Decomposer &d) {
  for (const AliasRow &a : kAliases)
    if (a.target == d.args().op().target) {
      FXKIT_ASSIGN_OR_RETURN(auto r, d.call(a.to, d.node().args().items(), nodeKwargs(d)));
      return d.result(r);
    }
  return d.error("internal: no alias row");
}

// ---- In-place variants ----

/// detach_ changes only autograd metadata: the tensor itself.
Status decomposeDetachInPlace(Decomposer &d) { return d.result(d.arg("self")); }

/// zero_ writes zeros: fill(self, 0), as functionalization writes it.
Status decomposeZeroInPlace(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.fill.Scalar", {d.arg("self"), Argument::integer(0)}));
  FXKIT_TRY(d.mutates(d.arg("self"), r));
  return d.result(r);
}

// clang-format off
const OpRow kRows[] = {
  // Activations
  {"torch.ops.aten.silu.default", "silu(Tensor self) -> Tensor", C::Composite, inferComposite, decomposeSilu},
  {"torch.ops.aten.mish.default", "mish(Tensor self) -> Tensor", C::Composite, inferComposite, decomposeMish},
  {"torch.ops.aten.softplus.default", "softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor", C::Composite, inferComposite, decomposeSoftplus},
  {"torch.ops.aten.hardsigmoid.default", "hardsigmoid(Tensor self) -> Tensor", C::Composite, inferComposite, decomposeHardsigmoid},
  {"torch.ops.aten.hardswish.default", "hardswish(Tensor self) -> Tensor", C::Composite, inferComposite, decomposeHardswish},
  {"torch.ops.aten.relu6.default", "relu6(Tensor self) -> Tensor", C::Composite, inferComposite, decomposeRelu6},
  {"torch.ops.aten.square.default", "square(Tensor self) -> Tensor", C::Composite, inferComposite, decomposeSquare},
  {"torch.ops.aten.prelu.default", "prelu(Tensor self, Tensor weight) -> Tensor", C::Composite, inferComposite, decomposePrelu},
  // Arithmetic
  {"torch.ops.aten.rsub.Tensor", "rsub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", C::Composite, inferComposite, decomposeRsub},
  {"torch.ops.aten.floor_divide.default", "floor_divide(Tensor self, Tensor other) -> Tensor", C::Composite, inferComposite, decomposeFloorDivide},
  {"torch.ops.aten.ldexp.Tensor", "ldexp.Tensor(Tensor self, Tensor other) -> Tensor", C::Composite, inferComposite, decomposeLdexp},
  {"torch.ops.aten.copysign.Tensor", "copysign.Tensor(Tensor self, Tensor other) -> Tensor", C::Composite, inferComposite, decomposeCopysign},
  {"torch.ops.aten.copysign.Scalar", "copysign.Scalar(Tensor self, Scalar other) -> Tensor", C::Composite, inferComposite, decomposeCopysign},
  {"torch.ops.aten.floor_divide.Scalar", "floor_divide.Scalar(Tensor self, Scalar other) -> Tensor", C::Composite, inferComposite, decomposeFloorDivide},
  {"torch.ops.aten.addcmul.default", "addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor", C::Composite, inferComposite, decomposeAddc},
  {"torch.ops.aten.addcdiv.default", "addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor", C::Composite, inferComposite, decomposeAddc},
  {"torch.ops.aten.lerp.Scalar", "lerp.Scalar(Tensor self, Tensor end, Scalar weight) -> Tensor", C::Composite, inferComposite, decomposeLerp},
  {"torch.ops.aten.lerp.Tensor", "lerp.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor", C::Composite, inferComposite, decomposeLerp},
  // Scalar forms
  {"torch.ops.aten.where.ScalarOther", "where.ScalarOther(Tensor condition, Tensor self, Scalar other) -> Tensor", C::Composite, inferComposite, decomposeWhereScalar},
  {"torch.ops.aten.where.ScalarSelf", "where.ScalarSelf(Tensor condition, Scalar self, Tensor other) -> Tensor", C::Composite, inferComposite, decomposeWhereScalar},
  {"torch.ops.aten.where.Scalar", "where.Scalar(Tensor condition, Scalar self, Scalar other) -> Tensor", C::Composite, inferComposite, decomposeWhereScalar},
  {"torch.ops.aten.masked_fill.Scalar", "masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor", C::Composite, inferComposite, decomposeMaskedFill},
  {"torch.ops.aten.masked_fill.Tensor", "masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor", C::Composite, inferComposite, decomposeMaskedFill},
  // In-place variants with a decomposition of their own
  {"torch.ops.aten.detach_.default", "detach_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeDetachInPlace},
  {"torch.ops.aten.zero_.default", "zero_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeZeroInPlace},
  // In-place variants: the functional op, written back into self (decomposeInPlace)
  {"torch.ops.aten.abs_.default", "abs_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.acos_.default", "acos_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.acosh_.default", "acosh_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.add_.Scalar", "add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.add_.Tensor", "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.addcdiv_.default", "addcdiv_(Tensor(a!) self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.addcmul_.default", "addcmul_(Tensor(a!) self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.lerp_.Scalar", "lerp_.Scalar(Tensor(a!) self, Tensor end, Scalar weight) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.lerp_.Tensor", "lerp_.Tensor(Tensor(a!) self, Tensor end, Tensor weight) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.addmm_.default", "addmm_(Tensor(a!) self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.asin_.default", "asin_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.asinh_.default", "asinh_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.atan2_.default", "atan2_(Tensor(a!) self, Tensor other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.atan_.default", "atan_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.atanh_.default", "atanh_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.baddbmm_.default", "baddbmm_(Tensor(a!) self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.bitwise_and_.Scalar", "bitwise_and_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.bitwise_and_.Tensor", "bitwise_and_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.bitwise_not_.default", "bitwise_not_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.bitwise_or_.Scalar", "bitwise_or_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.bitwise_or_.Tensor", "bitwise_or_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.bitwise_xor_.Scalar", "bitwise_xor_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.bitwise_xor_.Tensor", "bitwise_xor_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.ceil_.default", "ceil_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.clamp_.Tensor", "clamp_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.clamp_.default", "clamp_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.clamp_max_.Tensor", "clamp_max_.Tensor(Tensor(a!) self, Tensor max) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.clamp_max_.default", "clamp_max_(Tensor(a!) self, Scalar max) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.clamp_min_.Tensor", "clamp_min_.Tensor(Tensor(a!) self, Tensor min) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.clamp_min_.default", "clamp_min_(Tensor(a!) self, Scalar min) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.copy_.default", "copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.cos_.default", "cos_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.cosh_.default", "cosh_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.cumprod_.default", "cumprod_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.cumsum_.default", "cumsum_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.div_.Scalar", "div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.div_.Scalar_mode", "div_.Scalar_mode(Tensor(a!) self, Scalar other, *, str? rounding_mode) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.div_.Tensor", "div_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.div_.Tensor_mode", "div_.Tensor_mode(Tensor(a!) self, Tensor other, *, str? rounding_mode) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.dropout_.default", "dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.elu_.default", "elu_(Tensor(a!) self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.eq_.Scalar", "eq_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.eq_.Tensor", "eq_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.erf_.default", "erf_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.erfc_.default", "erfc_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.exp2_.default", "exp2_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.exp_.default", "exp_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.expm1_.default", "expm1_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.fill_.Scalar", "fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.fill_.Tensor", "fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.floor_.default", "floor_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.floor_divide_.Scalar", "floor_divide_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.fmod_.Scalar", "fmod_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.fmod_.Tensor", "fmod_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.ge_.Scalar", "ge_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.ge_.Tensor", "ge_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.gelu_.default", "gelu_(Tensor(a!) self, *, str approximate=\"none\") -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.gt_.Scalar", "gt_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.gt_.Tensor", "gt_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.hardsigmoid_.default", "hardsigmoid_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.hardswish_.default", "hardswish_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.hardtanh_.default", "hardtanh_(Tensor(a!) self, Scalar min_val=-1, Scalar max_val=1) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.le_.Scalar", "le_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.le_.Tensor", "le_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.leaky_relu_.default", "leaky_relu_(Tensor(a!) self, Scalar negative_slope=0.01) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.log10_.default", "log10_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.log1p_.default", "log1p_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.log2_.default", "log2_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.log_.default", "log_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.logical_and_.default", "logical_and_(Tensor(a!) self, Tensor other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.logical_not_.default", "logical_not_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.logical_or_.default", "logical_or_(Tensor(a!) self, Tensor other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.logical_xor_.default", "logical_xor_(Tensor(a!) self, Tensor other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.lt_.Scalar", "lt_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.lt_.Tensor", "lt_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.masked_fill_.Scalar", "masked_fill_.Scalar(Tensor(a!) self, Tensor mask, Scalar value) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.masked_fill_.Tensor", "masked_fill_.Tensor(Tensor(a!) self, Tensor mask, Tensor value) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.masked_scatter_.default", "masked_scatter_(Tensor(a!) self, Tensor mask, Tensor source) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.mish_.default", "mish_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.mul_.Scalar", "mul_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.mul_.Tensor", "mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.ne_.Scalar", "ne_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.ne_.Tensor", "ne_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.neg_.default", "neg_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.pow_.Scalar", "pow_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.reciprocal_.default", "reciprocal_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.relu6_.default", "relu6_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.relu_.default", "relu_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.remainder_.Scalar", "remainder_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.remainder_.Tensor", "remainder_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.round_.default", "round_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.rsqrt_.default", "rsqrt_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.scatter_.src", "scatter_.src(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.scatter_.value", "scatter_.value(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.scatter_add_.default", "scatter_add_(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.scatter_reduce_.two", "scatter_reduce_.two(Tensor(a!) self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.sigmoid_.default", "sigmoid_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.sign_.default", "sign_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.silu_.default", "silu_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.sin_.default", "sin_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.sinh_.default", "sinh_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.sqrt_.default", "sqrt_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.square_.default", "square_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.sub_.Scalar", "sub_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.sub_.Tensor", "sub_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.tan_.default", "tan_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.tanh_.default", "tanh_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.tril_.default", "tril_(Tensor(a!) self, SymInt diagonal=0) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.triu_.default", "triu_(Tensor(a!) self, SymInt diagonal=0) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.true_divide_.Scalar", "true_divide_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.true_divide_.Tensor", "true_divide_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
  {"torch.ops.aten.trunc_.default", "trunc_(Tensor(a!) self) -> Tensor(a!)", C::Composite, inferComposite, decomposeInPlace},
};
// clang-format on

} // namespace

std::span<const OpRow> compositePointwiseOpRows() {
  static const std::vector<OpRow> rows = [] {
    std::vector<OpRow> out(std::begin(kRows), std::end(kRows));
    for (const AliasRow &a : kAliases)
      out.push_back({a.target, a.schema, C::Composite, inferComposite, decomposeAlias});
    return out;
  }();
  return rows;
}

} // namespace fxkit
