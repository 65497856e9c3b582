/// \file Lowering rules of the reductions that the category's default (Lowerer::lowerReduction:
/// sum, mean, amax, amin, var_mean) does not cover: any/all, argmax/argmin, max/min (whole and
/// along a dim, with indices), prod, var and logsumexp, each one Reduction loop op as Inductor
/// lowers them (torch/_inductor/lowering.py: make_reduction "any", "argmax", "prod", ...;
/// var through welford; logsumexp from its decomposition's amax and sum of exp, in one pass).

#include "transforms/lowering/Lowerer.h"
#include "transforms/lowering/LoweringRules.h"
#include "transforms/lowering/TensorResults.h"

#include "ir/Try.h"
#include "ir/ops/ShapeRules.h"

#include <algorithm>

namespace fxkit::lowering {

namespace {

/// One reduction of a node's first (tensor) argument.
struct ReductionSpec {
  ReductionKind kind = ReductionKind::Sum;
  std::vector<bool> reduced; ///< per input dim (a 0-d input reduces its one element)
  bool keepdim = false;
  DType accumulator = DType::Float32;
  double correction = 0;
  /// Per tensor result of the node: the reduction result it stores (argmax: the index, 1).
  std::vector<int32_t> results;
};

/// The accumulator of a reduction whose result has `dtype`: float32 for floats below double,
/// int64 for integers and bools (sum-like reductions: prod).
DType widened(DType dtype) {
  if (dtypeIsFloating(dtype))
    return dtype == DType::Float64 ? DType::Float64 : DType::Float32;
  return DType::Int64;
}

/// The type values of `dtype` compare in: float32 for half types (exact), uint8 for bools (no
/// OpenCL max or local arrays of bool), the dtype otherwise (max, min, argmax, argmin).
DType comparedAs(DType dtype) {
  if (dtype == DType::Float16 || dtype == DType::BFloat16)
    return DType::Float32;
  return dtype == DType::Bool ? DType::UInt8 : dtype;
}

/// Marks `dims` (normalized against `rank`) in `reduced`; a 0-d tensor takes 0 and -1.
Status markDims(Lowerer &L, const Node &n, const std::vector<int64_t> &dims,
                std::vector<bool> &reduced) {
  for (int64_t d : dims) {
    auto nd = normalizeDim(d, reduced.size());
    if (!nd)
      return L.nodeError(n, nd.error().message);
    if (!reduced.empty())
      reduced[*nd] = true;
  }
  return Status::ok();
}

/// The value of a point: the loaded element as the reduction takes it.
int32_t reducedValue(BodyBuilder &b, const ReductionSpec &spec, int32_t loaded, DType stored,
                     DType outDType) {
  switch (spec.kind) {
  case ReductionKind::Any:
  case ReductionKind::All:
    // Nonzero (NaN is) as 0 or 1.
    if (stored != DType::Bool)
      loaded = b.op(ScalarOp::Ne, DType::Bool, loaded, b.constant(0, stored));
    return b.cast(loaded, spec.accumulator);
  case ReductionKind::Prod:
    // Converted to the result dtype first, as prod(dtype=) converts its input.
    return b.cast(b.cast(loaded, outDType), spec.accumulator);
  case ReductionKind::Sum:
  case ReductionKind::Mean:
  case ReductionKind::Max:
  case ReductionKind::Min:
  case ReductionKind::VarMean:
  case ReductionKind::OnlineSoftmax:
  case ReductionKind::ArgMax:
  case ReductionKind::ArgMin:
  case ReductionKind::LogSumExp:
    break;
  }
  return b.cast(loaded, spec.accumulator);
}

/// Lowers node `n`, a reduction of its first argument by `spec`, into one Reduction loop op
/// whose results spec.results sends to the node's tensor results.
Status lowerReductionOf(Lowerer &L, const Node &n, const BoundArgs &args,
                        const ReductionSpec &spec) {
  FXKIT_ASSIGN_OR_RETURN(auto in, L.tensorArg(n, args.at(0)));
  size_t rank = in.sizes.size();
  std::vector<TensorType> outs = tensorResults(n);
  if (outs.empty() || outs.size() != spec.results.size() || spec.reduced.size() != rank)
    return L.nodeError(n, "reduction with results lowering does not expect");

  LoopOp &op = L.newOp(LoopOpKind::Reduction, n);
  op.reduction = spec.kind;
  op.accumulator = spec.accumulator;
  op.correction = spec.correction;
  std::vector<SymExpr> inVars(rank), keptVars;
  for (size_t j = 0; j < rank; ++j) {
    std::vector<SymExpr> &ranges = spec.reduced[j] ? op.reductionRanges : op.ranges;
    inVars[j] = iterate({in.sizes[j]}, ranges, spec.reduced[j]).front();
    if (!spec.reduced[j])
      keptVars.push_back(inVars[j]);
  }
  // Over one point (only size-1 dims reduced, a 0-d tensor, any.dims with []): still a
  // reduction with a range of 1, as Lowerer::lowerReduction keeps it.
  if (op.reductionRanges.empty())
    op.reductionRanges.push_back(SymExpr(1));
  BodyBuilder b(op);
  DType stored = L.program_.buffers[in.buffer].type.dtype;
  int32_t loaded = b.load(in.buffer, linearIndex(in.offset, in.sizes, in.strides, inVars), stored);
  op.reduced = reducedValue(b, spec, loaded, stored, outs[0].dtype);
  if (spec.kind == ReductionKind::ArgMax || spec.kind == ReductionKind::ArgMin) {
    // The point's number row-major over the reduced dims (dim=None: the flattened input).
    SymExpr number = 0, stride = 1;
    for (size_t j = rank; j-- > 0;)
      if (spec.reduced[j]) {
        number = symAdd(number, symMul(inVars[j], stride));
        stride = symMul(stride, in.sizes[j]);
      }
    op.reducedIndex = b.indexValue(number, DType::Int64);
  }

  Lowered result;
  result.kind = n.value().tensor() ? Lowered::Kind::Tensor : Lowered::Kind::Tensors;
  int32_t opIndex = L.currentOp();
  for (size_t k = 0; k < outs.size(); ++k) {
    const TensorType &t = outs[k];
    int32_t buffer = L.newBuffer(t, opIndex);
    // Output dims map to the kept dims in order (keepdim's reduced dims are 0).
    std::vector<SymExpr> outVars;
    size_t kept = 0;
    for (size_t j = 0; j < t.sizes.size(); ++j) {
      bool isReducedDim = spec.keepdim && j < rank && spec.reduced[j];
      outVars.push_back(isReducedDim || kept >= keptVars.size() ? SymExpr(0) : keptVars[kept++]);
    }
    L.program_.ops[opIndex].stores.push_back(
        {buffer, linearIndex(SymExpr(0), t.sizes, t.strides, outVars), spec.results[k]});
    if (result.kind == Lowered::Kind::Tensor)
      result = Lowerer::wholeValue(buffer);
    else
      result.views.push_back(Lowerer::wholeView(buffer, t));
  }
  L.valueOf(&n) = std::move(result);
  return Status::ok();
}

/// The input's dtype (the node's first argument).
Expected<DType> inputDType(Lowerer &L, const Node &n, const BoundArgs &args) {
  FXKIT_ASSIGN_OR_RETURN(auto in, L.tensorArg(n, args.at(0)));
  return L.program_.buffers[in.buffer].type.dtype;
}

/// A spec reducing every dim of the input (or, with `dim`, that one dim) with `keepdim`.
Expected<ReductionSpec> overDims(Lowerer &L, const Node &n, const BoundArgs &args,
                                 std::optional<std::vector<int64_t>> dims, bool keepdim) {
  FXKIT_ASSIGN_OR_RETURN(auto in, L.tensorArg(n, args.at(0)));
  ReductionSpec spec;
  spec.reduced.assign(in.sizes.size(), !dims);
  if (dims)
    FXKIT_TRY(markDims(L, n, *dims, spec.reduced));
  spec.keepdim = keepdim;
  spec.results = {0};
  return spec;
}

/// `keepdim`, false for overloads without one.
Expected<bool> keepdimArg(const BoundArgs &args) {
  if (args.op().schema.indexOf("keepdim") < 0)
    return false;
  return args.boolean("keepdim");
}

// ---- any, all ----

/// any/all (.default, .dim, .dims): `.dims` None reduces everything, [] nothing.
template <ReductionKind kind> Status lowerAnyAll(Lowerer &L, const Node &n, const BoundArgs &args) {
  std::optional<std::vector<int64_t>> dims;
  const std::string &overload = args.op().schema.overload;
  if (overload == "dim") {
    FXKIT_ASSIGN_OR_RETURN(auto d, args.integer("dim"));
    dims = std::vector<int64_t>{d};
  } else if (overload == "dims") {
    FXKIT_ASSIGN_OR_RETURN(auto d, args.intList("dim"));
    dims = std::move(d);
  }
  FXKIT_ASSIGN_OR_RETURN(auto keepdim, keepdimArg(args));
  FXKIT_ASSIGN_OR_RETURN(auto spec, overDims(L, n, args, std::move(dims), keepdim));
  spec.kind = kind;
  spec.accumulator = DType::UInt8;
  return lowerReductionOf(L, n, args, spec);
}

// ---- argmax, argmin, max.dim, min.dim, max, min ----

/// argmax/argmin: the index result; dim=None numbers the flattened input. Bool inputs stay
/// the reference kernel's, which refuses them as eager does.
template <ReductionKind kind> Status lowerArg(Lowerer &L, const Node &n, const BoundArgs &args) {
  FXKIT_ASSIGN_OR_RETURN(auto dtype, inputDType(L, n, args));
  if (dtype == DType::Bool)
    return L.lowerExtern(n, args);
  FXKIT_ASSIGN_OR_RETURN(auto dim, args.optionalInteger("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto keepdim, args.boolean("keepdim"));
  std::optional<std::vector<int64_t>> dims;
  if (dim)
    dims = std::vector<int64_t>{*dim};
  FXKIT_ASSIGN_OR_RETURN(auto spec, overDims(L, n, args, std::move(dims), keepdim));
  spec.kind = kind;
  spec.accumulator = comparedAs(dtype);
  spec.results = {1};
  return lowerReductionOf(L, n, args, spec);
}

/// max.dim/min.dim: (values, indices) of the first extremum along dim.
template <ReductionKind kind>
Status lowerExtremumDim(Lowerer &L, const Node &n, const BoundArgs &args) {
  FXKIT_ASSIGN_OR_RETURN(auto dtype, inputDType(L, n, args));
  FXKIT_ASSIGN_OR_RETURN(auto dim, args.integer("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto keepdim, args.boolean("keepdim"));
  FXKIT_ASSIGN_OR_RETURN(auto spec, overDims(L, n, args, std::vector<int64_t>{dim}, keepdim));
  spec.kind = kind;
  spec.accumulator = comparedAs(dtype);
  spec.results = {0, 1};
  return lowerReductionOf(L, n, args, spec);
}

/// max.default/min.default: amax/amin of everything (NaN propagates).
template <ReductionKind kind>
Status lowerExtremumAll(Lowerer &L, const Node &n, const BoundArgs &args) {
  FXKIT_ASSIGN_OR_RETURN(auto dtype, inputDType(L, n, args));
  FXKIT_ASSIGN_OR_RETURN(auto spec, overDims(L, n, args, std::nullopt, false));
  spec.kind = kind;
  spec.accumulator = comparedAs(dtype);
  return lowerReductionOf(L, n, args, spec);
}

// ---- prod, var, logsumexp ----

/// prod.default/prod.dim_int in the promoted dtype (integers and bools: int64, wrapping).
Status lowerProd(Lowerer &L, const Node &n, const BoundArgs &args) {
  std::optional<std::vector<int64_t>> dims;
  if (args.op().schema.overload == "dim_int") {
    FXKIT_ASSIGN_OR_RETURN(auto d, args.integer("dim"));
    dims = std::vector<int64_t>{d};
  }
  FXKIT_ASSIGN_OR_RETURN(auto keepdim, keepdimArg(args));
  FXKIT_ASSIGN_OR_RETURN(auto spec, overDims(L, n, args, std::move(dims), keepdim));
  const TensorType *out = n.value().tensor();
  if (!out)
    return L.nodeError(n, "prod without a tensor value");
  spec.kind = ReductionKind::Prod;
  spec.accumulator = widened(out->dtype);
  return lowerReductionOf(L, n, args, spec);
}

/// var.correction/var.dim: Welford's variance (VarMean's result 0); None or [] reduces every
/// dim; correction None is 1, unbiased=False 0.
Status lowerVar(Lowerer &L, const Node &n, const BoundArgs &args) {
  FXKIT_ASSIGN_OR_RETURN(auto dims, args.intList("dim"));
  std::optional<std::vector<int64_t>> reducedDims = std::move(dims);
  if (reducedDims && reducedDims->empty())
    reducedDims.reset();
  double correction = 1;
  if (args.op().schema.overload == "dim") {
    FXKIT_ASSIGN_OR_RETURN(auto unbiased, args.boolean("unbiased"));
    correction = unbiased ? 1 : 0;
  } else {
    const Argument &c = args.get("correction");
    if (c.kind() == Argument::Kind::Int)
      correction = static_cast<double>(c.asInt());
    else if (c.kind() == Argument::Kind::Float)
      correction = c.asFloat();
    else if (!c.isNone())
      return L.nodeError(n, "var: correction must be a number");
  }
  FXKIT_ASSIGN_OR_RETURN(auto keepdim, args.boolean("keepdim"));
  FXKIT_ASSIGN_OR_RETURN(auto spec, overDims(L, n, args, std::move(reducedDims), keepdim));
  const TensorType *out = n.value().tensor();
  if (!out)
    return L.nodeError(n, "var without a tensor value");
  spec.kind = ReductionKind::VarMean;
  spec.accumulator = widened(out->dtype);
  spec.correction = correction;
  return lowerReductionOf(L, n, args, spec);
}

/// logsumexp over its dims (inference refuses an empty list but for a 0-d tensor, whose one
/// element it reduces); integers promote to float32.
Status lowerLogSumExp(Lowerer &L, const Node &n, const BoundArgs &args) {
  FXKIT_ASSIGN_OR_RETURN(auto dims, args.intList("dim"));
  std::optional<std::vector<int64_t>> reducedDims = std::move(dims);
  if (reducedDims && reducedDims->empty())
    reducedDims.reset();
  FXKIT_ASSIGN_OR_RETURN(auto keepdim, args.boolean("keepdim"));
  FXKIT_ASSIGN_OR_RETURN(auto spec, overDims(L, n, args, std::move(reducedDims), keepdim));
  const TensorType *out = n.value().tensor();
  if (!out)
    return L.nodeError(n, "logsumexp without a tensor value");
  spec.kind = ReductionKind::LogSumExp;
  spec.accumulator = widened(out->dtype);
  return lowerReductionOf(L, n, args, spec);
}

constexpr LoweringRule kRules[] = {
    {"torch.ops.aten.any.default", lowerAnyAll<ReductionKind::Any>},
    {"torch.ops.aten.any.dim", lowerAnyAll<ReductionKind::Any>},
    {"torch.ops.aten.any.dims", lowerAnyAll<ReductionKind::Any>},
    {"torch.ops.aten.all.default", lowerAnyAll<ReductionKind::All>},
    {"torch.ops.aten.all.dim", lowerAnyAll<ReductionKind::All>},
    {"torch.ops.aten.all.dims", lowerAnyAll<ReductionKind::All>},
    {"torch.ops.aten.argmax.default", lowerArg<ReductionKind::ArgMax>},
    {"torch.ops.aten.argmin.default", lowerArg<ReductionKind::ArgMin>},
    {"torch.ops.aten.max.dim", lowerExtremumDim<ReductionKind::ArgMax>},
    {"torch.ops.aten.min.dim", lowerExtremumDim<ReductionKind::ArgMin>},
    {"torch.ops.aten.max.default", lowerExtremumAll<ReductionKind::Max>},
    {"torch.ops.aten.min.default", lowerExtremumAll<ReductionKind::Min>},
    {"torch.ops.aten.prod.default", lowerProd},
    {"torch.ops.aten.prod.dim_int", lowerProd},
    {"torch.ops.aten.var.correction", lowerVar},
    {"torch.ops.aten.var.dim", lowerVar},
    {"torch.ops.aten.logsumexp.default", lowerLogSumExp},
};

} // namespace

std::span<const LoweringRule> reductionLoweringRules() { return kRules; }

} // namespace fxkit::lowering
