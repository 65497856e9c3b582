/// \file The structural prims Inductor lowers (torch/_prims/__init__.py,
/// torch/_inductor/inductor_prims.py), each as the ATen ops that compute it (ir/ops/Decomposer.h):
/// views (view_of, broadcast_in_dim), rev, the reductions sum and var (no promotion: the result
/// keeps the input's dtype unless output_dtype says otherwise), layout copies (copy_strided,
/// inductor_force_stride_order, device_put), _unsafe_index_put_ and the effect tokens. The
/// elementwise prims are lines of PointwiseOps.def.

#include "ir/Try.h"
#include "ir/ops/Decomposer.h"
#include "ir/ops/InferSupport.h"
#include "ir/ops/OpFamilies.h"

#include <algorithm>

namespace fxkit {

namespace {

using C = OpCategory;

/// view_of(a): a view of all of a (prims.view_of is aten.alias).
Status decomposeViewOf(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.alias.default", {d.arg("a")}));
  return d.result(r);
}

/// broadcast_in_dim(a, shape, broadcast_dimensions): a's dim i becomes dim
/// broadcast_dimensions[i] of `shape` (equal, or 1 and expanded); the other dims are new
/// (_broadcast_in_dim_meta). Written as refs write it: unsqueeze the new dims, then expand.
Status decomposeBroadcastInDim(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto a, d.args().tensor("a"));
  FXKIT_ASSIGN_OR_RETURN(auto shape, d.args().symIntList("shape"));
  FXKIT_ASSIGN_OR_RETURN(auto dimsOpt, d.args().intList("broadcast_dimensions"));
  std::vector<int64_t> dims = dimsOpt ? *dimsOpt : std::vector<int64_t>{};
  if (dims.size() != a.sizes.size())
    return d.error("broadcast_in_dim: " + std::to_string(dims.size()) +
                   " broadcast_dimensions for a tensor of " + std::to_string(a.sizes.size()) +
                   " dims");
  if (shape.size() < a.sizes.size())
    return d.error("broadcast_in_dim: shape has fewer dims than the tensor");
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0 || dims[i] >= static_cast<int64_t>(shape.size()) ||
        (i > 0 && dims[i] <= dims[i - 1]))
      return d.error("broadcast_in_dim: broadcast_dimensions must be increasing dims of shape");
    const SymExpr &to = shape[static_cast<size_t>(dims[i])];
    if (!symIs(a.sizes[i], 1) && !symEq(a.sizes[i], to))
      return d.error("broadcast_in_dim: dim " + std::to_string(i) + " of size " + a.sizes[i].str() +
                     " cannot become " + to.str());
  }
  Argument v = d.arg("a");
  for (int64_t k = 0; k < static_cast<int64_t>(shape.size()); ++k)
    if (std::find(dims.begin(), dims.end(), k) == dims.end()) {
      FXKIT_ASSIGN_OR_RETURN(auto u, d.call("aten.unsqueeze.default", {v, Argument::integer(k)}));
      v = u;
    }
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.expand.default", {v, d.arg("shape")}));
  return d.result(r);
}

/// rev(a, dims): a reversed along dims (aten.flip).
Status decomposeRev(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.flip.default", {d.arg("a"), d.arg("dims")}));
  return d.result(r);
}

/// The dtype a prims reduction returns: output_dtype, else the input's (prims do not promote
/// integers to int64 as aten.sum does).
Expected<DType> reductionDType(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto inp, d.args().tensor("inp"));
  FXKIT_ASSIGN_OR_RETURN(auto out, d.args().dtype("output_dtype"));
  return out ? *out : inp.dtype;
}

/// sum(inp, dims, output_dtype): aten.sum.dim_IntList in the result dtype, dims dropped.
Status decomposeSum(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto dtype, reductionDType(d));
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.sum.dim_IntList",
                                        {d.arg("inp"), d.arg("dims"), Argument::boolean(false)},
                                        {{"dtype", Argument::dtype(dtype)}}));
  return d.result(r);
}

/// var(inp, dims, correction, output_dtype): aten.var.correction, converted to output_dtype
/// where one is given (the real dtype of a complex input otherwise, which is var's own).
Status decomposeVar(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto out, d.args().dtype("output_dtype"));
  const Argument &correction = d.arg("correction");
  FXKIT_ASSIGN_OR_RETURN(
      auto v, d.call("aten.var.correction", {d.arg("inp"), d.arg("dims")},
                     {{"correction", correction.isNone() ? Argument::integer(1) : correction},
                      {"keepdim", Argument::boolean(false)}}));
  if (!out)
    return d.result(v);
  FXKIT_ASSIGN_OR_RETURN(auto r, d.convert(v, *out));
  return d.result(r);
}

/// A copy of `x` laid out with `stride` (copy_strided; inductor_force_stride_order where the
/// layout differs): empty_strided in that layout, then copy.
Status copyWithStrides(Decomposer &d, const Argument &x, const Argument &stride) {
  FXKIT_ASSIGN_OR_RETURN(auto t, d.type(x));
  FXKIT_ASSIGN_OR_RETURN(auto sizes, d.sizes(x));
  FXKIT_ASSIGN_OR_RETURN(
      auto empty,
      d.call("aten.empty_strided.default", {Argument::list(std::move(sizes)), stride},
             {{"dtype", Argument::dtype(t.dtype)}, {"device", Argument::device(t.device)}}));
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.copy.default", {empty, x}));
  return d.result(r);
}

/// copy_strided(a, stride): a new tensor with a's values and the given strides.
Status decomposeCopyStrided(Decomposer &d) {
  return copyWithStrides(d, d.arg("a"), d.arg("stride"));
}

/// inductor_force_stride_order(input, stride): input itself where its strides are already
/// `stride` (Inductor's eager_force_stride), else a copy with them.
Status decomposeForceStrideOrder(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto t, d.args().tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto stride, d.args().symIntList("stride"));
  if (stride.size() != t.sizes.size())
    return d.error("inductor_force_stride_order: " + std::to_string(stride.size()) +
                   " strides for a tensor of " + std::to_string(t.sizes.size()) + " dims");
  if (std::equal(stride.begin(), stride.end(), t.strides.begin(), symEq))
    return d.result(d.arg("input"));
  return copyWithStrides(d, d.arg("input"), d.arg("stride"));
}

/// device_put(a, device, non_blocking): a copied to `device` (_to_copy keeps the layout).
Status decomposeDevicePut(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(
      auto r, d.call("aten._to_copy.default", {d.arg("a")},
                     {{"device", d.arg("device")}, {"non_blocking", d.arg("non_blocking")}}));
  return d.result(r);
}

/// _unsafe_index_put_(self, indices, values, accumulate): index_put written back into self
/// (Inductor's lowering is index_put_'s without the bounds checks).
Status decomposeUnsafeIndexPut(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(
      auto r, d.call("aten.index_put.default",
                     {d.arg("self"), d.arg("indices"), d.arg("values"), d.arg("accumulate")}));
  FXKIT_TRY(d.mutates(d.arg("self"), r));
  return d.result(r);
}

/// _make_token(): an effect token, torch.empty(0) as new_token_tensor() makes it: a value that
/// orders side effects in the graph and holds no data.
Status decomposeMakeToken(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(
      auto r,
      d.call("aten.empty.memory_format", {Argument::list({Argument::integer(0)})},
             {{"dtype", Argument::dtype(DType::Float32)}, {"device", Argument::device(Device{})}}));
  return d.result(r);
}

/// _sink_tokens(tokens): the graph's last use of its tokens; nothing to compute.
Status decomposeSinkTokens(Decomposer &d) { return d.noResult(); }

/// frexp(self) -> (mantissa, exponent): self = mantissa * 2^exponent with 0.5 <= |mantissa| < 1
/// (std::frexp; zeros, infinities and NaN keep their value with exponent 0), the exponent int32.
/// Written with ATen's elementwise ops: floor(log2|x|) + 1, corrected by one step where log2
/// rounded across a power of two, and 2^e applied in two halves so that neither overflows
/// (e reaches 128 in float32 and -148 for its subnormals).
Status decomposeFrexp(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto t, d.args().tensor("self"));
  if (!dtypeIsFloating(t.dtype))
    return d.error("torch.frexp() only supports floating-point dtypes");
  const Argument x = d.arg("self");
  auto unary = [&](const char *op, const Argument &a) { return d.call(op, {a}); };
  auto binary = [&](const char *op, const Argument &a, const Argument &b) {
    return d.call(op, {a, b});
  };
  FXKIT_ASSIGN_OR_RETURN(auto ax, unary("aten.abs.default", x));
  // Finite and nonzero (NaN compares false).
  FXKIT_ASSIGN_OR_RETURN(auto pos, binary("aten.gt.Scalar", ax, Argument::integer(0)));
  FXKIT_ASSIGN_OR_RETURN(auto inf, unary("aten.isinf.default", ax));
  FXKIT_ASSIGN_OR_RETURN(auto fin, unary("aten.logical_not.default", inf));
  FXKIT_ASSIGN_OR_RETURN(auto normal, binary("aten.logical_and.default", pos, fin));
  FXKIT_ASSIGN_OR_RETURN(auto zero, d.scalarTensor(Argument::integer(0), t.dtype, t.device));
  FXKIT_ASSIGN_OR_RETURN(auto lg, unary("aten.log2.default", ax));
  FXKIT_ASSIGN_OR_RETURN(auto fl, unary("aten.floor.default", lg));
  FXKIT_ASSIGN_OR_RETURN(auto e0, binary("aten.add.Tensor", fl, Argument::integer(1)));
  FXKIT_ASSIGN_OR_RETURN(auto e1, d.call("aten.where.self", {normal, e0, zero}));
  // x / 2^e, as (x / 2^h) / 2^(e - h) with h = floor(e / 2).
  auto scaled = [&](const Argument &e) -> Expected<Argument> {
    FXKIT_ASSIGN_OR_RETURN(auto half, binary("aten.div.Tensor", e, Argument::integer(2)));
    FXKIT_ASSIGN_OR_RETURN(auto h, unary("aten.floor.default", half));
    FXKIT_ASSIGN_OR_RETURN(auto rest, binary("aten.sub.Tensor", e, h));
    FXKIT_ASSIGN_OR_RETURN(auto p1, unary("aten.exp2.default", h));
    FXKIT_ASSIGN_OR_RETURN(auto p2, unary("aten.exp2.default", rest));
    FXKIT_ASSIGN_OR_RETURN(auto q, binary("aten.div.Tensor", x, p1));
    return binary("aten.div.Tensor", q, p2);
  };
  FXKIT_ASSIGN_OR_RETURN(auto m1, scaled(e1));
  FXKIT_ASSIGN_OR_RETURN(auto am, unary("aten.abs.default", m1));
  FXKIT_ASSIGN_OR_RETURN(auto atLeastOne, binary("aten.ge.Scalar", am, Argument::integer(1)));
  FXKIT_ASSIGN_OR_RETURN(auto big, binary("aten.logical_and.default", atLeastOne, normal));
  FXKIT_ASSIGN_OR_RETURN(auto under, binary("aten.lt.Scalar", am, Argument::floating(0.5)));
  FXKIT_ASSIGN_OR_RETURN(auto small, binary("aten.logical_and.default", under, normal));
  FXKIT_ASSIGN_OR_RETURN(auto up, d.convert(big, t.dtype));
  FXKIT_ASSIGN_OR_RETURN(auto down, d.convert(small, t.dtype));
  FXKIT_ASSIGN_OR_RETURN(auto e2, binary("aten.add.Tensor", e1, up));
  FXKIT_ASSIGN_OR_RETURN(auto e3, binary("aten.sub.Tensor", e2, down));
  FXKIT_ASSIGN_OR_RETURN(auto mantissa, scaled(e3));
  FXKIT_ASSIGN_OR_RETURN(auto exponent, d.convert(e3, DType::Int32));
  return d.results({mantissa, exponent});
}

/// polygamma(n, self): digamma for n = 0, else (-1)^(n+1) n! zeta(n + 1, self) (calc_polygamma;
/// PyTorch's trigamma for n = 1 is the same function, zeta(2, x)). n < 0 is refused as PyTorch
/// refuses it.
Status decomposePolygamma(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto n, d.args().integer("n"));
  if (n < 0)
    return d.error("polygamma(n, x) does not support negative n.");
  FXKIT_TRY(d.args().tensor("self"));
  if (n == 0) {
    FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.digamma.default", {d.arg("self")}));
    return d.result(r);
  }
  double factorial = 1;
  for (int64_t k = 2; k <= n; ++k)
    factorial *= static_cast<double>(k);
  FXKIT_ASSIGN_OR_RETURN(
      auto z, d.call("aten.special_zeta.self_scalar", {Argument::integer(n + 1), d.arg("self")}));
  FXKIT_ASSIGN_OR_RETURN(
      auto r, d.call("aten.mul.Tensor", {z, Argument::floating(n % 2 ? factorial : -factorial)}));
  return d.result(r);
}

// clang-format off
const OpRow kRows[] = {
  {"torch.ops.prims.view_of.default", "view_of(Tensor(a) a) -> Tensor(a)", C::Composite, inferComposite, decomposeViewOf},
  {"torch.ops.prims.broadcast_in_dim.default", "broadcast_in_dim(Tensor(a) a, SymInt[] shape, int[] broadcast_dimensions) -> Tensor(a)", C::Composite, inferComposite, decomposeBroadcastInDim},
  {"torch.ops.prims.rev.default", "rev(Tensor a, int[] dims) -> Tensor", C::Composite, inferComposite, decomposeRev},
  {"torch.ops.prims.sum.default", "sum(Tensor inp, int[]? dims, *, ScalarType? output_dtype=None) -> Tensor", C::Composite, inferComposite, decomposeSum},
  {"torch.ops.prims.var.default", "var(Tensor inp, int[]? dims, float? correction=1, *, ScalarType? output_dtype=None) -> Tensor", C::Composite, inferComposite, decomposeVar},
  {"torch.ops.prims.copy_strided.default", "copy_strided(Tensor a, SymInt[] stride) -> Tensor", C::Composite, inferComposite, decomposeCopyStrided},
  {"torch.ops.prims.inductor_force_stride_order.default", "inductor_force_stride_order(Tensor input, SymInt[] stride) -> Tensor", C::Composite, inferComposite, decomposeForceStrideOrder},
  {"torch.ops.prims.device_put.default", "device_put(Tensor a, Device device, bool non_blocking=False) -> Tensor", C::Composite, inferComposite, decomposeDevicePut},
  {"torch.ops.prims._unsafe_index_put_.default", "_unsafe_index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor(a!)", C::Composite, inferComposite, decomposeUnsafeIndexPut},
  {"torch.ops.prims.frexp.default", "frexp(Tensor self) -> (Tensor mantissa, Tensor exponent)", C::Composite, inferComposite, decomposeFrexp},
  {"torch.ops.aten.frexp.Tensor", "frexp.Tensor(Tensor self) -> (Tensor mantissa, Tensor exponent)", C::Composite, inferComposite, decomposeFrexp},
  {"torch.ops.aten.polygamma.default", "polygamma(int n, Tensor self) -> Tensor", C::Composite, inferComposite, decomposePolygamma},
  {"torch.ops.prims._make_token.default", "_make_token() -> Tensor", C::Composite, inferComposite, decomposeMakeToken},
  {"torch.ops.prims._sink_tokens.default", "_sink_tokens(Tensor[] tokens) -> ()", C::Composite, inferComposite, decomposeSinkTokens},
};
// clang-format on

} // namespace

std::span<const OpRow> compositePrimsOpRows() { return kRows; }

} // namespace fxkit
