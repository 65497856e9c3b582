/// \file Lowering rules of softmax, log_softmax and their backward ops, and of the layer, group
/// and batch normalisations: each node becomes a reduction over its rows (an online softmax, a
/// sum, a Welford var_mean) followed by pointwise ops that read the row statistics, as
/// Inductor's decompositions write them (torch/_decomp/decompositions.py: _softmax,
/// _log_softmax, _softmax_backward_data, _log_softmax_backward_data, native_group_norm,
/// native_batch_norm_helper; torch/_refs: native_layer_norm). Fusion then groups them.
///
/// Half inputs compute in float32 and float64 ones in float64 (get_computation_dtype); results
/// are converted to their inferred dtypes on store. Statistics stay in the computation dtype
/// inside the program; the mean/rstd results are converted copies, so a float16 input's
/// normalised output does not see its statistics rounded to float16 (as in eager).

#include "ir/FirstError.h"
#include "ir/Try.h"
#include "ir/ops/ShapeRules.h"
#include "transforms/lowering/Lowerer.h"
#include "transforms/lowering/LoweringRules.h"

#include <functional>

namespace fxkit::lowering {

namespace {

/// torch._prims_common.get_computation_dtype for the floating dtypes the rules accept.
DType computeDType(DType input) {
  return input == DType::Float64 ? DType::Float64 : DType::Float32;
}

bool floatingLoopDType(DType dtype) { return dtypeIsFloating(dtype) && dtypeIsComputable(dtype); }

TensorType contiguousType(DType dtype, const std::vector<SymExpr> &sizes, const Device &device) {
  TensorType t;
  t.dtype = dtype;
  t.sizes = sizes;
  t.strides = TensorType::contiguousStrides(sizes);
  t.device = device;
  return t;
}

/// Where a row statistic over `kept` sizes lives: its buffer (contiguous over `kept`, in the
/// computation dtype).
struct Stat {
  int32_t buffer = -1;
  std::vector<SymExpr> kept;
  DType dtype = DType::Float32;

  /// Its value at the kept variables `vars` (one per kept dimension).
  int32_t load(BodyBuilder &b, const std::vector<SymExpr> &vars) const {
    return b.load(buffer, linearIndex(SymExpr(0), kept, TensorType::contiguousStrides(kept), vars),
                  dtype);
  }
};

/// The body value a reduction reduces, from its kept and reduced variables.
using RowBody = std::function<int32_t(BodyBuilder &, const std::vector<SymExpr> &kept,
                                      const std::vector<SymExpr> &reduced)>;

/// One reduction op of `kind` over the points (kept, reduced), accumulated in `acc`; its
/// results (reductionResultCount: VarMean gives variance then mean, OnlineSoftmax max then
/// sum) are stored in new buffers contiguous over `kept`.
std::vector<Stat> reduceRows(Lowerer &l, const Node &n, ReductionKind kind, DType acc,
                             const std::vector<SymExpr> &kept, const std::vector<SymExpr> &reduced,
                             const RowBody &body, const Device &device) {
  std::vector<SymExpr> keptVars;
  {
    LoopOp &op = l.newOp(LoopOpKind::Reduction, n);
    op.reduction = kind;
    op.correction = 0; // normalisations take the biased variance
    op.accumulator = acc;
    keptVars = iterate(kept, op.ranges, false);
    std::vector<SymExpr> reducedVars = iterate(reduced, op.reductionRanges, true);
    // A reduction over one point still needs a reduction range to be placed in a kernel.
    if (op.reductionRanges.empty())
      op.reductionRanges.push_back(SymExpr(1));
    BodyBuilder b(op);
    op.reduced = b.cast(body(b, keptVars, reducedVars), acc);
  }
  int32_t opIndex = l.currentOp();
  TensorType type = contiguousType(acc, kept, device);
  std::vector<Stat> out;
  for (int r = 0; r < reductionResultCount(kind); ++r) {
    int32_t buffer = l.newBuffer(type, opIndex);
    l.program_.ops[opIndex].stores.push_back(
        {buffer, linearIndex(SymExpr(0), type.sizes, type.strides, keptVars), r});
    out.push_back({buffer, kept, acc});
  }
  return out;
}

/// Stores `value` (converted to `type`'s dtype) into a new buffer of `type` at the op's point
/// `vars` (one variable per dimension of `type`); returns the buffer.
int32_t storeInto(Lowerer &l, LoopOp &op, BodyBuilder &b, int32_t value, const TensorType &type,
                  const std::vector<SymExpr> &vars) {
  int32_t buffer = l.newBuffer(type, l.currentOp());
  op.stores.push_back(
      {buffer, linearIndex(SymExpr(0), type.sizes, type.strides, vars), b.cast(value, type.dtype)});
  return buffer;
}

/// A list of results (Lowered::Kind::Tensors) whose buffers are `buffers`, of `types`.
Lowered resultList(const std::vector<int32_t> &buffers, const std::vector<TensorType> &types) {
  Lowered v;
  v.kind = Lowered::Kind::Tensors;
  for (size_t i = 0; i < buffers.size(); ++i)
    v.views.push_back(Lowerer::wholeView(buffers[i], types[i]));
  return v;
}

/// The node's tensor results, all present (the normalisations' forward results are never None).
std::optional<std::vector<TensorType>> resultTypes(const Node &n) {
  const auto *ts = n.value().tensors();
  if (!ts)
    return std::nullopt;
  std::vector<TensorType> out;
  for (const auto &t : *ts) {
    if (!t)
      return std::nullopt;
    out.push_back(*t);
  }
  return out;
}

/// `vars` with the entry at `dim` left out.
std::vector<SymExpr> without(const std::vector<SymExpr> &vars, size_t dim) {
  std::vector<SymExpr> out;
  for (size_t d = 0; d < vars.size(); ++d)
    if (d != dim)
      out.push_back(vars[d]);
  return out;
}

/// The variables of a whole tensor: the kept ones with `reduced` put at dimension `dim`.
std::vector<SymExpr> withAt(const std::vector<SymExpr> &kept, size_t dim, const SymExpr &reduced) {
  std::vector<SymExpr> out = kept;
  out.insert(out.begin() + static_cast<std::ptrdiff_t>(std::min(dim, out.size())), reduced);
  return out;
}

/// `view` read at `vars` and converted to `acc`.
int32_t loadAt(Lowerer &l, BodyBuilder &b, const BufferView &view, const std::vector<SymExpr> &vars,
               DType acc) {
  DType stored = l.program_.buffers[view.buffer].type.dtype;
  return b.cast(
      b.load(view.buffer, linearIndex(view.offset, view.sizes, view.strides, vars), stored), acc);
}

// ---- softmax ----

/// The `dim` argument normalised against `rank` (a 0-d tensor as 1-d); a bad dim is the node's
/// error.
Expected<size_t> dimOf(Lowerer &l, const Node &n, const BoundArgs &args, size_t rank) {
  FXKIT_ASSIGN_OR_RETURN(auto dim, args.integer("dim"));
  auto d = normalizeDim(dim, rank);
  if (!d)
    return l.nodeError(n, d.error().message);
  return static_cast<size_t>(*d);
}

/// _softmax/_log_softmax: an online-softmax reduction (the row's max and sum(exp(x - max)),
/// one pass), then exp(x - max) / sum or (x - max) - log(sum). A row holding NaN or +inf
/// gives NaN, an all -inf row NaN, as the decomposition.
template <bool Log> Status lowerSoftmax(Lowerer &l, const Node &n, const BoundArgs &args) {
  FXKIT_ASSIGN_OR_RETURN(auto in, l.tensorArg(n, args.get("self")));
  const TensorType *result = n.value().tensor();
  DType inDType = l.program_.buffers[in.buffer].type.dtype;
  if (!result || !floatingLoopDType(inDType)) // integers: the kernel reports eager's error
    return l.lowerExtern(n, args);
  size_t rank = in.sizes.size();
  FXKIT_ASSIGN_OR_RETURN(size_t axis, dimOf(l, n, args, rank));
  DType acc = computeDType(inDType);
  BufferView x = in;
  std::vector<SymExpr> kept = rank ? without(x.sizes, axis) : std::vector<SymExpr>{};
  std::vector<SymExpr> reduced =
      rank ? std::vector<SymExpr>{x.sizes[axis]} : std::vector<SymExpr>{};
  std::vector<Stat> stats = reduceRows(
      l, n, ReductionKind::OnlineSoftmax, acc, kept, reduced,
      [&](BodyBuilder &b, const std::vector<SymExpr> &kv, const std::vector<SymExpr> &rv) {
        return loadAt(l, b, x, rank ? withAt(kv, axis, rv[0]) : kv, acc);
      },
      result->device);
  TensorType out = *result;
  LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
  BodyBuilder b(op);
  std::vector<SymExpr> vars = iterate(out.sizes, op.ranges, false);
  std::vector<SymExpr> kv = rank ? without(vars, axis) : vars;
  int32_t shifted = b.op(ScalarOp::Sub, acc, loadAt(l, b, x, vars, acc), stats[0].load(b, kv));
  int32_t sum = stats[1].load(b, kv);
  int32_t value = Log ? b.op(ScalarOp::Sub, acc, shifted, b.op(ScalarOp::Log, acc, sum))
                      : b.op(ScalarOp::TrueDiv, acc, b.op(ScalarOp::Exp, acc, shifted), sum);
  l.values_[n.scratch()] = l.finishPointwise(op, b, value, out, vars);
  return Status::ok();
}

/// _softmax_backward_data: y * g - y * sum(y * g); _log_softmax_backward_data:
/// g - exp(y) * sum(g); in the computation dtype of grad_output and output, stored as
/// input_dtype.
template <bool Log> Status lowerSoftmaxBackward(Lowerer &l, const Node &n, const BoundArgs &args) {
  FXKIT_ASSIGN_OR_RETURN(auto g, l.tensorArg(n, args.get("grad_output")));
  FXKIT_ASSIGN_OR_RETURN(auto y, l.tensorArg(n, args.get("output")));
  const TensorType *result = n.value().tensor();
  DType gDType = l.program_.buffers[g.buffer].type.dtype;
  DType yDType = l.program_.buffers[y.buffer].type.dtype;
  if (!result || !floatingLoopDType(gDType) || !floatingLoopDType(yDType) ||
      !dtypeIsComputable(result->dtype) || g.sizes.size() != y.sizes.size())
    return l.lowerExtern(n, args);
  size_t rank = g.sizes.size();
  FXKIT_ASSIGN_OR_RETURN(size_t axis, dimOf(l, n, args, rank));
  DType acc =
      gDType == DType::Float64 || yDType == DType::Float64 ? DType::Float64 : DType::Float32;
  BufferView gv = g, yv = y;
  std::vector<SymExpr> kept = rank ? without(gv.sizes, axis) : std::vector<SymExpr>{};
  std::vector<SymExpr> reduced =
      rank ? std::vector<SymExpr>{gv.sizes[axis]} : std::vector<SymExpr>{};
  std::vector<Stat> sum = reduceRows(
      l, n, ReductionKind::Sum, acc, kept, reduced,
      [&](BodyBuilder &b, const std::vector<SymExpr> &kv, const std::vector<SymExpr> &rv) {
        std::vector<SymExpr> at = rank ? withAt(kv, axis, rv[0]) : kv;
        int32_t gl = loadAt(l, b, gv, at, acc);
        return Log ? gl : b.op(ScalarOp::Mul, acc, gl, loadAt(l, b, yv, at, acc));
      },
      result->device);
  TensorType out = *result;
  LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
  BodyBuilder b(op);
  std::vector<SymExpr> vars = iterate(out.sizes, op.ranges, false);
  int32_t gl = loadAt(l, b, gv, vars, acc), yl = loadAt(l, b, yv, vars, acc);
  int32_t s = sum[0].load(b, rank ? without(vars, axis) : vars);
  int32_t value =
      Log ? b.op(ScalarOp::Sub, acc, gl, b.op(ScalarOp::Mul, acc, b.op(ScalarOp::Exp, acc, yl), s))
          : b.op(ScalarOp::Sub, acc, b.op(ScalarOp::Mul, acc, gl, yl),
                 b.op(ScalarOp::Mul, acc, yl, s));
  l.values_[n.scratch()] = l.finishPointwise(op, b, value, out, vars);
  return Status::ok();
}

// ---- Normalisations ----

/// An optional tensor argument's view; nullopt for None. `ok` turns false where the tensor is
/// one the loop bodies cannot read.
Expected<std::optional<BufferView>> optionalView(Lowerer &l, const Node &n, const BoundArgs &args,
                                                 std::string_view name, bool &ok) {
  const Argument &a = args.get(name);
  if (a.isNone())
    return std::optional<BufferView>();
  FXKIT_ASSIGN_OR_RETURN(auto v, l.tensorArg(n, a));
  ok = ok && dtypeIsComputable(l.program_.buffers[v.buffer].type.dtype);
  return std::optional<BufferView>(v);
}

/// What layer_norm and group_norm read past the input and their own argument: eps, the
/// optional weight and bias (`ok` false where one cannot be read), the result types and the
/// input's dtype.
struct NormArgs {
  double eps = 0;
  std::optional<BufferView> weight, bias;
  std::optional<std::vector<TensorType>> types;
  DType inDType = DType::Float32;
  bool ok = true;
};

Expected<NormArgs> normArgs(Lowerer &l, const Node &n, const BoundArgs &args,
                            const BufferView &in) {
  NormArgs a;
  FXKIT_ASSIGN_OR_RETURN(a.eps, args.floating("eps"));
  FXKIT_ASSIGN_OR_RETURN(a.weight, optionalView(l, n, args, "weight", a.ok));
  FXKIT_ASSIGN_OR_RETURN(a.bias, optionalView(l, n, args, "bias", a.ok));
  a.types = resultTypes(n);
  a.inDType = l.program_.buffers[in.buffer].type.dtype;
  return a;
}

/// (x - mean) * rstd, then * weight, + bias where given: the affine step of every
/// normalisation, in `acc`.
int32_t affine(BodyBuilder &b, DType acc, int32_t x, int32_t mean, int32_t rstd, int32_t weight,
               int32_t bias) {
  int32_t v = b.op(ScalarOp::Mul, acc, b.op(ScalarOp::Sub, acc, x, mean), rstd);
  if (weight >= 0)
    v = b.op(ScalarOp::Mul, acc, v, weight);
  if (bias >= 0)
    v = b.op(ScalarOp::Add, acc, v, bias);
  return v;
}

/// rsqrt(var + eps).
int32_t rstdOf(BodyBuilder &b, DType acc, int32_t var, double eps) {
  return b.op(ScalarOp::Rsqrt, acc, b.op(ScalarOp::Add, acc, var, b.constant(eps, acc)));
}

/// native_layer_norm: var_mean over the trailing normalized_shape dims (Welford, biased), then
/// (x - mean) * rsqrt(var + eps) * weight + bias; mean and rstd stored as inferred (the leading
/// dims, then 1 per normalised dim).
Status lowerLayerNorm(Lowerer &l, const Node &n, const BoundArgs &args) {
  FXKIT_ASSIGN_OR_RETURN(auto in, l.tensorArg(n, args.get("input")));
  FXKIT_ASSIGN_OR_RETURN(auto normalized, args.symIntList("normalized_shape"));
  FXKIT_ASSIGN_OR_RETURN(NormArgs a, normArgs(l, n, args, in));
  size_t rank = in.sizes.size(), k = normalized.size();
  if (!a.ok || !a.types || a.types->size() != 3 || !floatingLoopDType(a.inDType) || k > rank ||
      k == 0)
    return l.lowerExtern(n, args);
  size_t axis = rank - k;
  DType acc = computeDType(a.inDType);
  const Device device = (*a.types)[0].device;
  BufferView x = in;
  std::vector<SymExpr> kept(x.sizes.begin(), x.sizes.begin() + static_cast<std::ptrdiff_t>(axis));
  std::vector<SymExpr> reduced(x.sizes.begin() + static_cast<std::ptrdiff_t>(axis), x.sizes.end());
  std::vector<Stat> stats = reduceRows(
      l, n, ReductionKind::VarMean, acc, kept, reduced,
      [&](BodyBuilder &b, const std::vector<SymExpr> &kv, const std::vector<SymExpr> &rv) {
        std::vector<SymExpr> at = kv;
        at.insert(at.end(), rv.begin(), rv.end());
        return loadAt(l, b, x, at, acc);
      },
      device);
  const Stat &var = stats[0], &mean = stats[1];
  std::vector<int32_t> buffers;
  {
    // The normalised result: weight and bias (of normalized_shape) broadcast from the right.
    LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
    BodyBuilder b(op);
    std::vector<SymExpr> vars = iterate((*a.types)[0].sizes, op.ranges, false);
    std::vector<SymExpr> kv(vars.begin(), vars.begin() + static_cast<std::ptrdiff_t>(axis));
    int32_t w = -1, c = -1;
    if (a.weight) {
      FXKIT_ASSIGN_OR_RETURN(auto v, l.operand(b, n, args.get("weight"), vars, acc));
      w = v;
    }
    if (a.bias) {
      FXKIT_ASSIGN_OR_RETURN(auto v, l.operand(b, n, args.get("bias"), vars, acc));
      c = v;
    }
    int32_t value = affine(b, acc, loadAt(l, b, x, vars, acc), mean.load(b, kv),
                           rstdOf(b, acc, var.load(b, kv), a.eps), w, c);
    buffers.push_back(storeInto(l, op, b, value, (*a.types)[0], vars));
  }
  {
    // mean and rstd, converted to their inferred dtype (the input's on CPU).
    LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
    BodyBuilder b(op);
    std::vector<SymExpr> kv = iterate(kept, op.ranges, false), at = kv;
    at.resize(rank, SymExpr(0));
    buffers.push_back(storeInto(l, op, b, mean.load(b, kv), (*a.types)[1], at));
    buffers.push_back(
        storeInto(l, op, b, rstdOf(b, acc, var.load(b, kv), a.eps), (*a.types)[2], at));
  }
  l.values_[n.scratch()] = resultList(buffers, *a.types);
  return Status::ok();
}

/// native_group_norm: the input read as (N, group, C / group, *spatial); var_mean per (n, group)
/// over the rest, then (x - mean) * rsqrt(var + eps) * weight[c] + bias[c]. The normalised
/// result is computed over that same (N, group, C / group, *spatial) iteration space, so it
/// lines up with the reduction's rows. mean and rstd are (N, group).
Status lowerGroupNorm(Lowerer &l, const Node &n, const BoundArgs &args) {
  FXKIT_ASSIGN_OR_RETURN(auto in, l.tensorArg(n, args.get("input")));
  FXKIT_ASSIGN_OR_RETURN(auto group, args.integer("group"));
  FXKIT_ASSIGN_OR_RETURN(NormArgs a, normArgs(l, n, args, in));
  size_t rank = in.sizes.size();
  for (const auto *p : {&a.weight, &a.bias})
    a.ok = a.ok && (!*p || (*p)->sizes.size() == 1);
  if (!a.ok || !a.types || a.types->size() != 3 || !floatingLoopDType(a.inDType) || rank < 2 ||
      group <= 0)
    return l.lowerExtern(n, args);
  DType acc = computeDType(a.inDType);
  const Device device = (*a.types)[0].device;
  BufferView x = in;
  SymExpr groups(group);
  const SymExpr &channels = x.sizes[1];
  SymExpr perGroup =
      channels.isConstant() ? SymExpr(channels.constant() / group) : symFloorDiv(channels, groups);
  std::vector<SymExpr> spatial(x.sizes.begin() + 2, x.sizes.end());
  // The channel of (group g, channel c' within it), and a view's offset at (n, channel,
  // spatial variables).
  auto channelOf = [&](const SymExpr &g, const SymExpr &c) {
    return symAdd(symMul(g, perGroup), c);
  };
  auto at = [&](const BufferView &v, const SymExpr &nv, const SymExpr &ch,
                std::span<const SymExpr> sp) {
    SymExpr index = symAdd(symAdd(v.offset, symMul(nv, v.strides[0])), symMul(ch, v.strides[1]));
    for (size_t j = 0; j < sp.size(); ++j)
      index = symAdd(index, symMul(sp[j], v.strides[2 + j]));
    return index;
  };
  std::vector<SymExpr> kept{x.sizes[0], groups};
  std::vector<SymExpr> reduced{perGroup};
  reduced.insert(reduced.end(), spatial.begin(), spatial.end());
  std::vector<Stat> stats = reduceRows(
      l, n, ReductionKind::VarMean, acc, kept, reduced,
      [&](BodyBuilder &b, const std::vector<SymExpr> &kv, const std::vector<SymExpr> &rv) {
        SymExpr index =
            at(x, kv[0], channelOf(kv[1], rv[0]), std::span<const SymExpr>(rv).subspan(1));
        return b.cast(b.load(x.buffer, index, a.inDType), acc);
      },
      device);
  const Stat &var = stats[0], &mean = stats[1];
  std::vector<int32_t> buffers;
  {
    LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
    BodyBuilder b(op);
    std::vector<SymExpr> space = kept;
    space.insert(space.end(), reduced.begin(), reduced.end());
    std::vector<SymExpr> vars = iterate(space, op.ranges, false);
    std::span<const SymExpr> sp = std::span<const SymExpr>(vars).subspan(3);
    SymExpr ch = channelOf(vars[1], vars[2]);
    auto param = [&](const std::optional<BufferView> &p) {
      if (!p)
        return -1;
      DType stored = l.program_.buffers[p->buffer].type.dtype;
      return b.cast(b.load(p->buffer, symAdd(p->offset, symMul(ch, p->strides[0])), stored), acc);
    };
    std::vector<SymExpr> kv{vars[0], vars[1]};
    int32_t value = affine(b, acc, b.cast(b.load(x.buffer, at(x, vars[0], ch, sp), a.inDType), acc),
                           mean.load(b, kv), rstdOf(b, acc, var.load(b, kv), a.eps),
                           param(a.weight), param(a.bias));
    const TensorType &outType = (*a.types)[0];
    BufferView outView{-1, outType.sizes, outType.strides, SymExpr(0)};
    int32_t buffer = l.newBuffer(outType, l.currentOp());
    op.stores.push_back({buffer, at(outView, vars[0], ch, sp), b.cast(value, outType.dtype)});
    buffers.push_back(buffer);
  }
  {
    LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
    BodyBuilder b(op);
    std::vector<SymExpr> kv = iterate(kept, op.ranges, false);
    buffers.push_back(storeInto(l, op, b, mean.load(b, kv), (*a.types)[1], kv));
    buffers.push_back(
        storeInto(l, op, b, rstdOf(b, acc, var.load(b, kv), a.eps), (*a.types)[2], kv));
  }
  l.values_[n.scratch()] = resultList(buffers, *a.types);
  return Status::ok();
}

/// The batch normalisations: _native_batch_norm_legit (.default, .no_stats),
/// _native_batch_norm_legit_no_training and _native_batch_norm_legit_functional, as
/// torch._decomp's native_batch_norm_helper. Training: var_mean per channel (dim 1) over every
/// other dim, rstd = rsqrt(var + eps); evaluation: the running statistics, invstd =
/// 1 / sqrt(running_var + eps). The result is (x - mean) * invstd * weight + bias;
/// save_mean/save_invstd are the statistics where inference gave them C elements (none for CPU
/// evaluation). The functional variant also returns momentum * batch + (1 - momentum) *
/// running (the variance unbiased by n / (n - 1)), or in evaluation the running statistics.
/// _native_batch_norm_legit.default in training updates running_mean/var in place: that stays
/// an extern call (loop programs write no inputs).
Status lowerBatchNorm(Lowerer &l, const Node &n, const BoundArgs &args) {
  const OpSchema &schema = args.op().schema;
  bool training = false;
  if (schema.indexOf("training") >= 0) {
    FXKIT_ASSIGN_OR_RETURN(auto t, args.boolean("training"));
    training = t;
  }
  bool functional = schema.name == "_native_batch_norm_legit_functional";
  bool hasRunning = schema.indexOf("running_mean") >= 0;
  if (training && hasRunning && !functional)
    return l.lowerExtern(n, args);
  FXKIT_ASSIGN_OR_RETURN(auto in, l.tensorArg(n, args.get("input")));
  FXKIT_ASSIGN_OR_RETURN(auto eps, args.floating("eps"));
  FXKIT_ASSIGN_OR_RETURN(auto momentum, args.floating("momentum"));
  bool ok = true;
  std::optional<BufferView> params[4]; // weight, bias, running_mean, running_var
  const char *names[4] = {"weight", "bias", "running_mean", "running_var"};
  for (int i = 0; i < 4; ++i) {
    if (i >= 2 && !hasRunning)
      break;
    FXKIT_ASSIGN_OR_RETURN(auto v, optionalView(l, n, args, names[i], ok));
    params[i] = v;
    ok = ok && (!params[i] || params[i]->sizes.size() == 1);
  }
  auto types = resultTypes(n);
  DType inDType = l.program_.buffers[in.buffer].type.dtype;
  size_t rank = in.sizes.size();
  if (!ok || !types || types->size() != (functional ? 5u : 3u) || !floatingLoopDType(inDType) ||
      rank < 2 || (!training && (!params[2] || !params[3])))
    return l.lowerExtern(n, args);
  DType acc = computeDType(inDType);
  const Device device = (*types)[0].device;
  BufferView x = in;
  std::vector<SymExpr> channels{x.sizes[1]};
  std::vector<SymExpr> reduced = without(x.sizes, 1);
  auto param = [&](BodyBuilder &b, int i, const SymExpr &c) {
    if (!params[i])
      return -1;
    return loadAt(l, b, *params[i], {c}, acc);
  };
  std::vector<Stat> stats;
  if (training)
    stats = reduceRows(
        l, n, ReductionKind::VarMean, acc, channels, reduced,
        [&](BodyBuilder &b, const std::vector<SymExpr> &kv, const std::vector<SymExpr> &rv) {
          return loadAt(l, b, x, withAt(rv, 1, kv[0]), acc);
        },
        device);
  // The channel's mean and invstd.
  auto meanOf = [&](BodyBuilder &b, const SymExpr &c) {
    return training ? stats[1].load(b, {c}) : param(b, 2, c);
  };
  auto invstdOf = [&](BodyBuilder &b, const SymExpr &c) {
    if (training)
      return rstdOf(b, acc, stats[0].load(b, {c}), eps);
    int32_t var = b.op(ScalarOp::Add, acc, param(b, 3, c), b.constant(eps, acc));
    return b.op(ScalarOp::Reciprocal, acc, b.op(ScalarOp::Sqrt, acc, var));
  };
  std::vector<int32_t> buffers;
  {
    LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
    BodyBuilder b(op);
    std::vector<SymExpr> vars = iterate((*types)[0].sizes, op.ranges, false);
    const SymExpr &c = vars[1];
    int32_t value = affine(b, acc, loadAt(l, b, x, vars, acc), meanOf(b, c), invstdOf(b, c),
                           param(b, 0, c), param(b, 1, c));
    buffers.push_back(storeInto(l, op, b, value, (*types)[0], vars));
  }
  {
    // save_mean, save_invstd: C elements, or none (CPU evaluation: a loop over nothing).
    LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
    BodyBuilder b(op);
    std::vector<SymExpr> vars = iterate((*types)[1].sizes, op.ranges, false);
    buffers.push_back(storeInto(l, op, b, meanOf(b, vars[0]), (*types)[1], vars));
    buffers.push_back(storeInto(l, op, b, invstdOf(b, vars[0]), (*types)[2], vars));
  }
  if (functional) {
    LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
    BodyBuilder b(op);
    std::vector<SymExpr> vars = iterate((*types)[3].sizes, op.ranges, false);
    const SymExpr &c = vars[0];
    int32_t newMean = param(b, 2, c), newVar = param(b, 3, c);
    if (training) {
      // n / (n - 1) as Python computes it (double), applied in the computation dtype.
      int32_t count = b.indexValue(symProduct(reduced), DType::Float64);
      int32_t unbias =
          b.cast(b.op(ScalarOp::TrueDiv, DType::Float64, count,
                      b.op(ScalarOp::Sub, DType::Float64, count, b.constant(1, DType::Float64))),
                 acc);
      int32_t m = b.constant(momentum, acc), rest = b.constant(1 - momentum, acc);
      auto blend = [&](int32_t batch, int32_t running) {
        return b.op(ScalarOp::Add, acc, b.op(ScalarOp::Mul, acc, m, batch),
                    b.op(ScalarOp::Mul, acc, rest, running));
      };
      newMean = blend(stats[1].load(b, {c}), newMean);
      newVar = blend(b.op(ScalarOp::Mul, acc, stats[0].load(b, {c}), unbias), newVar);
    }
    buffers.push_back(storeInto(l, op, b, newMean, (*types)[3], vars));
    buffers.push_back(storeInto(l, op, b, newVar, (*types)[4], vars));
  }
  l.values_[n.scratch()] = resultList(buffers, *types);
  return Status::ok();
}

/// What layer norm's and group norm's backward read: grad_out, input, mean, rstd, output_mask,
/// the optional weight (`ok` false where it cannot be read), the result types and the input's
/// dtype. `own`, the op's own argument (read by the caller), is checked between rstd and
/// output_mask, in the schema's order.
struct NormBackwardArgs {
  BufferView grad, in, meanView, rstdView;
  std::vector<bool> mask;
  std::optional<BufferView> weight;
  const std::vector<std::optional<TensorType>> *types = nullptr;
  DType inDType = DType::Float32;
  bool ok = true;
};

template <class Own>
Expected<NormBackwardArgs> normBackwardArgs(Lowerer &l, const Node &n, const BoundArgs &args,
                                            Own &own) {
  auto grad = l.tensorArg(n, args.get("grad_out"));
  auto in = l.tensorArg(n, args.get("input"));
  auto meanView = l.tensorArg(n, args.get("mean"));
  auto rstdView = l.tensorArg(n, args.get("rstd"));
  auto mask = args.boolList("output_mask", 3);
  FXKIT_TRY(firstError(grad, in, meanView, rstdView, own, mask));
  NormBackwardArgs nb;
  nb.grad = grad.take();
  nb.in = in.take();
  nb.meanView = meanView.take();
  nb.rstdView = rstdView.take();
  nb.mask = mask.take();
  FXKIT_ASSIGN_OR_RETURN(nb.weight, optionalView(l, n, args, "weight", nb.ok));
  nb.types = n.value().tensors();
  nb.inDType = l.program_.buffers[nb.in.buffer].type.dtype;
  return nb;
}

/// Result `which` of a normalisation's backward: a pointwise op over its points storing
/// value(b, vars), a view of the node's tensors.
template <class ValueFn>
void storeResult(Lowerer &l, const Node &n, const NormBackwardArgs &nb, Lowered &result,
                 size_t which, ValueFn &&value) {
  LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
  BodyBuilder b(op);
  const TensorType &t = *(*nb.types)[which];
  std::vector<SymExpr> vars = iterate(t.sizes, op.ranges, false);
  int32_t v = value(b, vars);
  int32_t buffer = storeInto(l, op, b, v, t, vars);
  result.views[which] = Lowerer::wholeView(buffer, t);
}

/// native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias,
/// output_mask), as torch/_decomp's native_layer_norm_backward: with x_hat = (x - mean) * rstd
/// and g = grad_out * weight (grad_out without weight), N the normalised points of a row,
///   grad_input  = rstd / N * (N g - sum_row(g) - x_hat sum_row(g x_hat)),
///   grad_weight = sum over the rows of grad_out x_hat,   grad_bias = sum over the rows of
///   grad_out,
/// each computed only where output_mask asks (None otherwise), in the computation dtype.
Status lowerLayerNormBackward(Lowerer &l, const Node &n, const BoundArgs &args) {
  auto normalized = args.symIntList("normalized_shape");
  FXKIT_ASSIGN_OR_RETURN(NormBackwardArgs nb, normBackwardArgs(l, n, args, normalized));
  size_t rank = nb.in.sizes.size(), k = normalized->size();
  if (!nb.ok || !nb.types || nb.types->size() != 3 || !floatingLoopDType(nb.inDType) || k > rank ||
      k == 0 || nb.grad.sizes.size() != rank || nb.meanView.sizes.size() != rank ||
      nb.rstdView.sizes.size() != rank)
    return l.lowerExtern(n, args);
  for (size_t i = 0; i < 3; ++i)
    if (nb.mask[i] && !(*nb.types)[i])
      return l.lowerExtern(n, args);
  if (nb.mask[1] && !nb.weight) // what inference gave for grad_weight without a weight
    return l.lowerExtern(n, args);
  const size_t axis = rank - k;
  const DType acc = computeDType(nb.inDType);
  const Device device = (*nb.types)[nb.mask[0]   ? 0
                                    : nb.mask[1] ? 1
                                                 : 2]
                            ? (*nb.types)[nb.mask[0]   ? 0
                                          : nb.mask[1] ? 1
                                                       : 2]
                                  ->device
                            : Device{};
  std::vector<SymExpr> outer(nb.in.sizes.begin(),
                             nb.in.sizes.begin() + static_cast<std::ptrdiff_t>(axis));
  std::vector<SymExpr> inner(nb.in.sizes.begin() + static_cast<std::ptrdiff_t>(axis),
                             nb.in.sizes.end());
  // Values at a whole point `at` (outer variables, then inner ones).
  auto xhat = [&](BodyBuilder &b, const std::vector<SymExpr> &at) {
    return b.op(
        ScalarOp::Mul, acc,
        b.op(ScalarOp::Sub, acc, loadAt(l, b, nb.in, at, acc), loadAt(l, b, nb.meanView, at, acc)),
        loadAt(l, b, nb.rstdView, at, acc));
  };
  auto gradAt = [&](BodyBuilder &b, const std::vector<SymExpr> &at) {
    return loadAt(l, b, nb.grad, at, acc);
  };
  auto gAt = [&](BodyBuilder &b, const std::vector<SymExpr> &at) {
    int32_t g = gradAt(b, at);
    if (nb.weight) {
      std::vector<SymExpr> tail(at.begin() + static_cast<std::ptrdiff_t>(axis), at.end());
      g = b.op(ScalarOp::Mul, acc, g, loadAt(l, b, *nb.weight, tail, acc));
    }
    return g;
  };
  auto joined = [](const std::vector<SymExpr> &a, const std::vector<SymExpr> &c) {
    std::vector<SymExpr> out = a;
    out.insert(out.end(), c.begin(), c.end());
    return out;
  };
  // Sums of g over each row (`rows`), or of grad_out over each normalised point (the rows'
  // points at it), times x_hat where `timesXhat`.
  auto sum = [&](bool rows, bool timesXhat) {
    return reduceRows(
        l, n, ReductionKind::Sum, acc, rows ? outer : inner, rows ? inner : outer,
        [&](BodyBuilder &b, const std::vector<SymExpr> &kv, const std::vector<SymExpr> &rv) {
          std::vector<SymExpr> at = rows ? joined(kv, rv) : joined(rv, kv);
          int32_t g = rows ? gAt(b, at) : gradAt(b, at);
          return timesXhat ? b.op(ScalarOp::Mul, acc, g, xhat(b, at)) : g;
        },
        device)[0];
  };
  Lowered result;
  result.kind = Lowered::Kind::Tensors;
  result.views.assign(3, std::nullopt);
  if (nb.mask[0]) {
    Stat sumG = sum(true, false), sumGX = sum(true, true);
    storeResult(l, n, nb, result, 0, [&](BodyBuilder &b, const std::vector<SymExpr> &vars) {
      std::vector<SymExpr> kv(vars.begin(), vars.begin() + static_cast<std::ptrdiff_t>(axis));
      int32_t N = b.cast(b.indexValue(symProduct(inner), DType::Int64), acc);
      int32_t inner1 =
          b.op(ScalarOp::Sub, acc, b.op(ScalarOp::Mul, acc, N, gAt(b, vars)), sumG.load(b, kv));
      int32_t inner2 = b.op(ScalarOp::Sub, acc, inner1,
                            b.op(ScalarOp::Mul, acc, xhat(b, vars), sumGX.load(b, kv)));
      int32_t scale = b.op(ScalarOp::TrueDiv, acc, loadAt(l, b, nb.rstdView, vars, acc), N);
      return b.op(ScalarOp::Mul, acc, scale, inner2);
    });
  }
  // Column sums over the rows (kept: the normalised dims), then converted into the result.
  auto columnSum = [&](size_t which, bool timesXhat) {
    Stat s = sum(false, timesXhat);
    storeResult(l, n, nb, result, which,
                [&](BodyBuilder &b, const std::vector<SymExpr> &vars) { return s.load(b, vars); });
  };
  if (nb.mask[1] && nb.weight)
    columnSum(1, true);
  if (nb.mask[2] && (*nb.types)[2])
    columnSum(2, false);
  l.values_[n.scratch()] = std::move(result);
  return Status::ok();
}

/// native_group_norm_backward(grad_out, input, mean, rstd, weight, N, C, HxW, group,
/// output_mask), as torch/_decomp's native_group_norm_backward: per (n, c) the sums over the
/// spatial points ds = sum(dY X) and db = sum(dY); per (n, g) their sums over the group's
/// channels weighted by gamma; then
///   dX = rstd gamma dY + c2 X + c3,  c2 = (db_g mean - ds_g) rstd^3 / (C/G HxW),
///   c3 = -c2 mean - db_g rstd / (C/G HxW),
///   dgamma[c] = sum_n (ds - db mean) rstd,  dbeta[c] = sum_n db.
Status lowerGroupNormBackward(Lowerer &l, const Node &n, const BoundArgs &args) {
  auto groupArg = args.integer("group");
  FXKIT_ASSIGN_OR_RETURN(NormBackwardArgs nb, normBackwardArgs(l, n, args, groupArg));
  size_t rank = nb.in.sizes.size();
  const SymExpr &C = rank >= 2 ? nb.in.sizes[1] : SymExpr(0);
  int64_t G = *groupArg;
  if (!nb.ok || !nb.types || nb.types->size() != 3 || !floatingLoopDType(nb.inDType) || rank < 2 ||
      nb.grad.sizes.size() != rank || nb.meanView.sizes.size() != 2 ||
      nb.rstdView.sizes.size() != 2 || G <= 0 || !C.isConstant() || C.constant() % G != 0)
    return l.lowerExtern(n, args);
  for (size_t i = 0; i < 3; ++i)
    if (nb.mask[i] && !(*nb.types)[i])
      return l.lowerExtern(n, args);
  const DType acc = computeDType(nb.inDType);
  const int64_t cpg = C.constant() / G;
  const SymExpr &N = nb.in.sizes[0];
  std::vector<SymExpr> spatial(nb.in.sizes.begin() + 2, nb.in.sizes.end());
  const Device device = nb.in.buffer >= 0 ? l.program_.buffers[nb.in.buffer].type.device : Device{};
  auto joined = [](const std::vector<SymExpr> &a, const std::vector<SymExpr> &c) {
    std::vector<SymExpr> out = a;
    out.insert(out.end(), c.begin(), c.end());
    return out;
  };
  // The group of channel variable c, and a (n, g) statistic at (n, c).
  auto groupOf = [&](const SymExpr &c) {
    return cpg == 1 ? c : SymExpr::binary(SymExpr::Kind::FloorDiv, c, SymExpr(cpg));
  };
  auto statAt = [&](BodyBuilder &b, const BufferView &v, const SymExpr &nv, const SymExpr &g) {
    return loadAt(l, b, v, {nv, g}, acc);
  };
  auto gammaAt = [&](BodyBuilder &b, const SymExpr &c) {
    return nb.weight ? loadAt(l, b, *nb.weight, {c}, acc) : b.constant(1, acc);
  };
  // ds and db per (n, c).
  auto spatialSum = [&](bool timesX) {
    return reduceRows(
        l, n, ReductionKind::Sum, acc, {N, C}, spatial,
        [&](BodyBuilder &b, const std::vector<SymExpr> &kv, const std::vector<SymExpr> &rv) {
          std::vector<SymExpr> at = joined(kv, rv);
          int32_t dy = loadAt(l, b, nb.grad, at, acc);
          return timesX ? b.op(ScalarOp::Mul, acc, dy, loadAt(l, b, nb.in, at, acc)) : dy;
        },
        device)[0];
  };
  Stat ds = spatialSum(true), db = spatialSum(false);
  Lowered result;
  result.kind = Lowered::Kind::Tensors;
  result.views.assign(3, std::nullopt);
  if (nb.mask[0]) {
    // Per (n, g): the group's channels' sums weighted by gamma.
    auto groupSum = [&](const Stat &s) {
      return reduceRows(
          l, n, ReductionKind::Sum, acc, {N, SymExpr(G)}, {SymExpr(cpg)},
          [&](BodyBuilder &b, const std::vector<SymExpr> &kv, const std::vector<SymExpr> &rv) {
            SymExpr c = symAdd(symMul(kv[1], SymExpr(cpg)), rv[0]);
            return b.op(ScalarOp::Mul, acc, s.load(b, {kv[0], c}), gammaAt(b, c));
          },
          device)[0];
    };
    Stat dsG = groupSum(ds), dbG = groupSum(db);
    storeResult(l, n, nb, result, 0, [&](BodyBuilder &b, const std::vector<SymExpr> &vars) {
      SymExpr g = groupOf(vars[1]);
      int32_t mean = statAt(b, nb.meanView, vars[0], g), rstd = statAt(b, nb.rstdView, vars[0], g);
      int32_t count =
          b.cast(b.indexValue(symMul(SymExpr(cpg), symProduct(spatial)), DType::Int64), acc);
      int32_t s = b.op(ScalarOp::TrueDiv, acc, b.constant(1, acc), count);
      int32_t dsv = dsG.load(b, {vars[0], g}), dbv = dbG.load(b, {vars[0], g});
      auto mul = [&](int32_t x, int32_t y) { return b.op(ScalarOp::Mul, acc, x, y); };
      auto sub = [&](int32_t x, int32_t y) { return b.op(ScalarOp::Sub, acc, x, y); };
      int32_t c1 = mul(rstd, gammaAt(b, vars[1]));
      int32_t c2 = mul(mul(sub(mul(dbv, mean), dsv), mul(rstd, mul(rstd, rstd))), s);
      int32_t c3 = sub(mul(b.op(ScalarOp::Neg, acc, c2), mean), mul(mul(dbv, rstd), s));
      return b.op(ScalarOp::Add, acc,
                  b.op(ScalarOp::Add, acc, mul(c1, loadAt(l, b, nb.grad, vars, acc)),
                       mul(c2, loadAt(l, b, nb.in, vars, acc))),
                  c3);
    });
  }
  // Sums over the batch per channel, converted into the result.
  auto batchSum = [&](size_t which, bool gamma) {
    Stat s = reduceRows(
        l, n, ReductionKind::Sum, acc, {C}, {N},
        [&](BodyBuilder &b, const std::vector<SymExpr> &kv, const std::vector<SymExpr> &rv) {
          int32_t dbv = db.load(b, {rv[0], kv[0]});
          if (!gamma)
            return dbv;
          SymExpr g = groupOf(kv[0]);
          int32_t dsv = ds.load(b, {rv[0], kv[0]});
          int32_t centred = b.op(ScalarOp::Sub, acc, dsv,
                                 b.op(ScalarOp::Mul, acc, dbv, statAt(b, nb.meanView, rv[0], g)));
          return b.op(ScalarOp::Mul, acc, centred, statAt(b, nb.rstdView, rv[0], g));
        },
        device)[0];
    storeResult(l, n, nb, result, which,
                [&](BodyBuilder &b, const std::vector<SymExpr> &vars) { return s.load(b, vars); });
  };
  if (nb.mask[1])
    batchSum(1, true);
  if (nb.mask[2])
    batchSum(2, false);
  l.values_[n.scratch()] = std::move(result);
  return Status::ok();
}

const LoweringRule kRules[] = {
    {"torch.ops.aten._softmax.default", lowerSoftmax<false>},
    {"torch.ops.aten._log_softmax.default", lowerSoftmax<true>},
    {"torch.ops.aten._softmax_backward_data.default", lowerSoftmaxBackward<false>},
    {"torch.ops.aten._log_softmax_backward_data.default", lowerSoftmaxBackward<true>},
    {"torch.ops.aten.native_layer_norm.default", lowerLayerNorm},
    {"torch.ops.aten.native_layer_norm_backward.default", lowerLayerNormBackward},
    {"torch.ops.aten.native_group_norm.default", lowerGroupNorm},
    {"torch.ops.aten.native_group_norm_backward.default", lowerGroupNormBackward},
    {"torch.ops.aten._native_batch_norm_legit.default", lowerBatchNorm},
    {"torch.ops.aten._native_batch_norm_legit.no_stats", lowerBatchNorm},
    {"torch.ops.aten._native_batch_norm_legit_no_training.default", lowerBatchNorm},
    {"torch.ops.aten._native_batch_norm_legit_functional.default", lowerBatchNorm},
};

} // namespace

std::span<const LoweringRule> normLoweringRules() { return kRules; }

} // namespace fxkit::lowering
