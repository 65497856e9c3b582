/// Gathers through data-dependent indices (Inductor's `index`, `embedding`, `gather` and
/// `index_select` lowerings): one pointwise op over the result whose body loads the index
/// tensors at the result's point, turns each loaded value into an indirect index
/// (ScalarOp::IndirectIndex: wrapped when negative, checked against the indexed dimension) and
/// loads the source at the address those indices give. Fusion and inlining treat the indices
/// like loop variables, so a pointwise producer of the source is recomputed at the gathered
/// point and the gather fuses with its consumers. Scatters (index_put, scatter, scatter_add)
/// copy self, then store through indirect indices into the copy (Store::scatter).
#include "transforms/lowering/Lowerer.h"
#include "transforms/lowering/LoweringRules.h"

#include "ir/FirstError.h"
#include "ir/Try.h"
#include "ir/ops/PoolingWindows.h"
#include "ir/ops/ShapeRules.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

namespace fxkit::lowering {

namespace {

/// Index dtypes a gather reads as integers (bool and uint8 index tensors are masks: their
/// result has a data-dependent size, which stays with the extern lowering).
bool isIntegerIndex(DType dtype) { return dtype == DType::Int64 || dtype == DType::Int32; }

/// The value of `view` at `vars` (one variable per dimension of the view, aligned to its
/// trailing dimensions: broadcasting), as a body value of the view's stored dtype.
int32_t loadAt(Lowerer &l, BodyBuilder &b, const BufferView &view, const SymExpr *vars) {
  DType stored = l.program_.buffers[view.buffer].type.dtype;
  return b.load(view.buffer, linearIndex(view.offset, view.sizes, view.strides, vars), stored);
}

/// The common end of every gather: the op's store of `value` at the result's point.
Status finish(Lowerer &l, const Node &n, LoopOp &op, BodyBuilder &b, int32_t value,
              const std::vector<SymExpr> &outVars) {
  const TensorType *out = n.value().tensor();
  if (!out)
    return l.nodeError(n, "expected a tensor value");
  l.values_[n.scratch()] = l.finishPointwise(op, b, value, *out, outVars);
  return Status::ok();
}

/// A pointwise op over the node's result, its variables (one per result dimension).
std::pair<LoopOp *, std::vector<SymExpr>> startGather(Lowerer &l, const Node &n) {
  LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
  std::vector<SymExpr> vars = iterate(n.value().tensor()->sizes, op.ranges, false);
  return {&op, std::move(vars)};
}

/// embedding(weight, indices, ...): result[i..., d] = weight[indices[i...], d]. padding_idx and
/// the gradient flags only matter to the backward.
Status lowerEmbedding(Lowerer &l, const Node &n, const BoundArgs &args) {
  auto weight = l.tensorArg(n, args.get("weight"));
  auto indices = l.tensorArg(n, args.get("indices"));
  FXKIT_TRY(firstError(weight, indices));
  DType indexType = l.program_.buffers[indices->buffer].type.dtype;
  if (weight->sizes.size() != 2 || !isIntegerIndex(indexType) || !n.value().tensor())
    return l.lowerExtern(n, args);
  auto [op, vars] = startGather(l, n);
  BodyBuilder b(*op);
  size_t k = indices->sizes.size();
  SymExpr row = l.indirectIndex(b, loadAt(l, b, *indices, vars.data()), weight->sizes[0], false);
  SymExpr at[2] = {row, vars[k]};
  return finish(l, n, *op, b, loadAt(l, b, *weight, at), vars);
}

/// index_select(self, dim, index): result = self with dim `dim` read at index[i] (a 1-d
/// index read at the result's coordinate in `dim`; a 0-d one: its element). With `gather`,
/// gather(self, dim, index): result[i] = self[i with i[dim] = index[i]]; the result has the
/// index's shape (no larger than self's in the other dims). A 0-d self takes a one-element
/// index, whose value must be 0. Non-integer indices (and, for gather, an index of another rank
/// than self's) go to the extern path.
Status lowerIndexedRead(Lowerer &l, const Node &n, const BoundArgs &args, bool gather) {
  auto self = l.tensorArg(n, args.get("self"));
  auto index = l.tensorArg(n, args.get("index"));
  auto dimArg = args.integer("dim");
  FXKIT_TRY(firstError(self, index, dimArg));
  if (!isIntegerIndex(l.program_.buffers[index->buffer].type.dtype) || !n.value().tensor() ||
      (gather && index->sizes.size() != self->sizes.size()))
    return l.lowerExtern(n, args);
  size_t rank = self->sizes.size();
  auto dim = normalizeDim(*dimArg, std::max<size_t>(rank, 1));
  if (!dim)
    return l.nodeError(n, dim.error().message);
  auto [op, vars] = startGather(l, n);
  BodyBuilder b(*op);
  SymExpr zero[1] = {SymExpr(0)};
  const SymExpr *at = gather ? vars.data() : rank == 0 || index->sizes.empty() ? zero : &vars[*dim];
  int32_t indexValue = loadAt(l, b, *index, at);
  if (rank == 0) {
    l.indirectIndex(b, indexValue, SymExpr(1), false);
    return finish(l, n, *op, b, loadAt(l, b, *self, vars.data()), vars);
  }
  std::vector<SymExpr> src = vars;
  src[*dim] = l.indirectIndex(b, indexValue, self->sizes[*dim], false);
  return finish(l, n, *op, b, loadAt(l, b, *self, src.data()), vars);
}

Status lowerIndexSelect(Lowerer &l, const Node &n, const BoundArgs &args) {
  return lowerIndexedRead(l, n, args, false);
}

Status lowerGather(Lowerer &l, const Node &n, const BoundArgs &args) {
  return lowerIndexedRead(l, n, args, true);
}

/// How index.Tensor addresses self (AdvancedIndex): the index tensors broadcast to one shape
/// B that replaces the indexed dims of self in the result; when the indexed dims are not
/// adjacent, B comes first and the other dims follow in order (NumPy's rule).
struct AdvancedIndexing {
  std::vector<std::optional<BufferView>> indices; ///< per dim of self; nullopt: not indexed
  std::vector<SymExpr> broadcast;                 ///< B
  size_t first = 0, count = 0;
  bool adjacent = true;

  /// The indexing result's sizes (before + B + after).
  std::vector<SymExpr> resultSizes(const BufferView &self) const {
    std::vector<SymExpr> out;
    size_t bStart = adjacent ? first : 0; // kept dims before B
    std::vector<SymExpr> keptSizes;
    for (size_t i = 0; i < self.sizes.size(); ++i)
      if (!indices[i])
        keptSizes.push_back(self.sizes[i]);
    out.assign(keptSizes.begin(), keptSizes.begin() + static_cast<std::ptrdiff_t>(bStart));
    out.insert(out.end(), broadcast.begin(), broadcast.end());
    out.insert(out.end(), keptSizes.begin() + static_cast<std::ptrdiff_t>(bStart), keptSizes.end());
    return out;
  }

  /// The coordinates of self read at the indexing result's point `vars`: the index tensors
  /// loaded there (broadcast) and made indirect indices (negative ones wrap).
  std::vector<SymExpr> source(Lowerer &l, BodyBuilder &b, const BufferView &self,
                              const std::vector<SymExpr> &vars) const {
    size_t rank = self.sizes.size(), bRank = broadcast.size();
    const SymExpr *bVars = vars.data() + (adjacent ? first : 0);
    std::vector<SymExpr> src(rank);
    size_t rest = adjacent ? 0 : bRank; // result position of the next kept dim
    for (size_t i = 0; i < rank; ++i) {
      if (indices[i]) {
        const BufferView &v = *indices[i];
        int32_t value = loadAt(l, b, v, bVars + (bRank - v.sizes.size()));
        src[i] = l.indirectIndex(b, value, self.sizes[i], true);
      } else if (adjacent) {
        src[i] = vars[i < first ? i : i - count + bRank];
      } else {
        src[i] = vars[rest++];
      }
    }
    return src;
  }
};

/// The AdvancedIndexing of `list` (a Tensor?[] argument) over self, or nullopt where the loop
/// form does not apply (a bool or uint8 mask: the result's size depends on the data).
Expected<std::optional<AdvancedIndexing>>
advancedIndexing(Lowerer &l, const Node &n, const BufferView &self, const Argument &list) {
  AdvancedIndexing ix;
  if (!list.isContainer())
    return std::optional<AdvancedIndexing>();
  for (const Argument &item : list.items()) {
    if (item.isNone()) {
      ix.indices.emplace_back();
      continue;
    }
    FXKIT_ASSIGN_OR_RETURN(auto view, l.tensorArg(n, item));
    if (!isIntegerIndex(l.program_.buffers[view.buffer].type.dtype))
      return std::optional<AdvancedIndexing>();
    ix.indices.push_back(view);
  }
  size_t rank = self.sizes.size();
  if (ix.indices.size() > rank || ix.indices.empty())
    return std::optional<AdvancedIndexing>(); // inference reported the error already
  ix.indices.resize(rank);
  size_t last = 0;
  ix.first = rank;
  std::vector<std::vector<SymExpr>> shapes;
  for (size_t i = 0; i < rank; ++i)
    if (ix.indices[i]) {
      ix.first = std::min(ix.first, i);
      last = i;
      ++ix.count;
      shapes.push_back(ix.indices[i]->sizes);
    }
  if (ix.count == 0)
    return std::optional<AdvancedIndexing>();
  auto broadcast = broadcastShapes(shapes);
  if (!broadcast)
    return std::optional<AdvancedIndexing>();
  ix.broadcast = broadcast.take();
  ix.adjacent = last - ix.first + 1 == ix.count;
  return std::optional<AdvancedIndexing>(std::move(ix));
}

/// index.Tensor / _unsafe_index.Tensor: self read at the advanced indexing's coordinates.
Status lowerIndex(Lowerer &l, const Node &n, const BoundArgs &args) {
  FXKIT_ASSIGN_OR_RETURN(auto self, l.tensorArg(n, args.get("self")));
  FXKIT_ASSIGN_OR_RETURN(auto ix, advancedIndexing(l, n, self, args.get("indices")));
  const TensorType *out = n.value().tensor();
  if (!ix || !out)
    return l.lowerExtern(n, args);
  if (out->sizes.size() != ix->resultSizes(self).size())
    return l.nodeError(n, "the result's rank does not match its indices (internal error)");
  auto [op, vars] = startGather(l, n);
  BodyBuilder b(*op);
  std::vector<SymExpr> src = ix->source(l, b, self, vars);
  return finish(l, n, *op, b, loadAt(l, b, self, src.data()), vars);
}

/// Scatters (Inductor's index_put and scatter lowerings): the result starts as a copy of self
/// (one op), then a second op over the scattered points stores each value through indirect
/// indices into it, adding atomically when accumulating. Accumulation is lowered for the
/// dtypes devices have atomics for (32- and 64-bit); others keep the extern lowering.
bool canAccumulate(DType dtype) {
  return dtype == DType::Float32 || dtype == DType::Float64 || dtype == DType::Int32 ||
         dtype == DType::Int64;
}

/// The copy of self the scatter writes into; its buffer.
int32_t copyOfSelf(Lowerer &l, const Node &n, const BufferView &self) {
  Lowered copy = l.copyInto(n, self, *n.value().tensor());
  l.values_[n.scratch()] = copy;
  return copy.view.buffer;
}

/// The scattering op's store of `value` into `buffer` at self coordinates `at`.
void scatterStore(Lowerer &l, LoopOp &op, BodyBuilder &b, int32_t value, int32_t buffer,
                  const std::vector<SymExpr> &at, ScatterCombine combine) {
  const TensorType &t = l.program_.buffers[buffer].type;
  Store s;
  s.buffer = buffer;
  s.index = linearIndex(SymExpr(0), t.sizes, t.strides, at);
  s.value = b.cast(value, t.dtype);
  s.scatter = true;
  s.combine = combine;
  op.stores.push_back(std::move(s));
}

/// One scattering op over the points of `sizes`: at point vars, value(b, vars) (an
/// Expected<int32_t>) is stored into `buffer` (combined by `combine`) at coordinates
/// where(b, vars), which the body computes first.
template <class WhereFn, class ValueFn>
Status scatterOp(Lowerer &l, const Node &n, int32_t buffer, const std::vector<SymExpr> &sizes,
                 ScatterCombine combine, WhereFn &&where, ValueFn &&value) {
  LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
  std::vector<SymExpr> vars = iterate(sizes, op.ranges, false);
  BodyBuilder b(op);
  std::vector<SymExpr> at = where(b, vars);
  FXKIT_ASSIGN_OR_RETURN(int32_t v, value(b, vars));
  scatterStore(l, op, b, v, buffer, at, combine);
  return Status::ok();
}

/// scatterOp over index's points: value(b, vars) arrives at self's coordinates with dim `dim`
/// read from the index.
template <class ValueFn>
Status scatterOver(Lowerer &l, const Node &n, int32_t buffer, const BufferView &self,
                   const BufferView &index, size_t dim, ScatterCombine combine, ValueFn &&value) {
  return scatterOp(
      l, n, buffer, index.sizes, combine,
      [&](BodyBuilder &b, const std::vector<SymExpr> &vars) {
        std::vector<SymExpr> at = vars;
        at[dim] = l.indirectIndex(b, loadAt(l, b, index, vars.data()), self.sizes[dim], false);
        return at;
      },
      std::forward<ValueFn>(value));
}

/// index_put(self, indices, values, accumulate): result[indices] = values (or +=), values
/// broadcast to the indexing result.
Status lowerIndexPut(Lowerer &l, const Node &n, const BoundArgs &args) {
  auto self = l.tensorArg(n, args.get("self"));
  auto values = l.tensorArg(n, args.get("values"));
  auto accumulate = args.boolean("accumulate");
  FXKIT_TRY(firstError(self, values, accumulate));
  FXKIT_ASSIGN_OR_RETURN(auto ix, advancedIndexing(l, n, *self, args.get("indices")));
  const TensorType *out = n.value().tensor();
  if (!ix || !out || (*accumulate && !canAccumulate(out->dtype)))
    return l.lowerExtern(n, args);
  std::vector<SymExpr> sizes = ix->resultSizes(*self);
  if (values->sizes.size() > sizes.size())
    return l.lowerExtern(n, args); // inference reported the error already
  int32_t buffer = copyOfSelf(l, n, *self);
  return scatterOp(
      l, n, buffer, sizes, *accumulate ? ScatterCombine::Add : ScatterCombine::Replace,
      [&](BodyBuilder &b, const std::vector<SymExpr> &vars) {
        return ix->source(l, b, *self, vars);
      },
      [&](BodyBuilder &b, const std::vector<SymExpr> &vars) -> Expected<int32_t> {
        return loadAt(l, b, *values, vars.data() + (sizes.size() - values->sizes.size()));
      });
}

/// as_strided_scatter: the copy of self, then src stored at the view's positions in the copy's
/// storage (storage_offset, counted from the start of self's storage, less self's own offset,
/// plus the sum of i_d * stride_d); an offset before self's first element stays extern (the
/// reference kernel refuses it).
Status lowerAsStridedScatter(Lowerer &l, const Node &n, const BoundArgs &args) {
  auto self = l.tensorArg(n, args.get("self"));
  auto src = l.tensorArg(n, args.get("src"));
  auto size = args.symIntList("size");
  auto stride = args.symIntList("stride");
  auto offset = args.optionalSymInt("storage_offset");
  FXKIT_TRY(firstError(self, src, size, stride, offset));
  const TensorType *out = n.value().tensor();
  if (!out || size->size() != stride->size() || src->sizes.size() != size->size())
    return l.lowerExtern(n, args);
  const SymExpr at = *offset ? symSub(**offset, self->offset) : SymExpr(0);
  if (!at.isConstant() || at.constant() < 0)
    return l.lowerExtern(n, args);
  int32_t buffer = copyOfSelf(l, n, *self);
  LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
  std::vector<SymExpr> vars = iterate(*size, op.ranges, false);
  BodyBuilder b(op);
  int32_t v = loadAt(l, b, *src, vars.data());
  Store s;
  s.buffer = buffer;
  s.index = at;
  for (size_t d = 0; d < vars.size(); ++d)
    s.index = symAdd(s.index, symMul(vars[d], (*stride)[d]));
  s.value = b.cast(v, out->dtype);
  s.scatter = true;
  op.stores.push_back(std::move(s));
  return Status::ok();
}

/// scatter.src / scatter.value / scatter_add: result[i with i[dim] = index[i]] = src[i] (or
/// the value, or +=) for every point i of index.
Status lowerScatter(Lowerer &l, const Node &n, const BoundArgs &args) {
  auto self = l.tensorArg(n, args.get("self"));
  auto index = l.tensorArg(n, args.get("index"));
  auto dimArg = args.integer("dim");
  FXKIT_TRY(firstError(self, index, dimArg));
  const TensorType *out = n.value().tensor();
  bool accumulate = n.target() == "torch.ops.aten.scatter_add.default";
  size_t rank = self->sizes.size();
  if (!out || !isIntegerIndex(l.program_.buffers[index->buffer].type.dtype) ||
      index->sizes.size() != rank || rank == 0 || (accumulate && !canAccumulate(out->dtype)))
    return l.lowerExtern(n, args);
  auto dim = normalizeDim(*dimArg, rank);
  if (!dim)
    return l.nodeError(n, dim.error().message);
  int32_t buffer = copyOfSelf(l, n, *self);
  return scatterOver(l, n, buffer, *self, *index, static_cast<size_t>(*dim),
                     accumulate ? ScatterCombine::Add : ScatterCombine::Replace,
                     [&](BodyBuilder &b, const std::vector<SymExpr> &vars) -> Expected<int32_t> {
                       if (args.op().schema.indexOf("src") >= 0) {
                         FXKIT_ASSIGN_OR_RETURN(auto src, l.tensorArg(n, args.get("src")));
                         return loadAt(l, b, src, vars.data());
                       }
                       return l.operand(b, n, args.get("value"), vars, out->dtype);
                     });
}

/// scatter_reduce.two(self, dim, index, src, reduce, include_self): sum, prod, amax and amin
/// scatter with that combine; without include_self the scattered elements first take the
/// combine's identity (a replacing scatter), so only the arriving values meet. mean (sum over
/// count) stays with the extern lowering.
Status lowerScatterReduce(Lowerer &l, const Node &n, const BoundArgs &args) {
  auto self = l.tensorArg(n, args.get("self"));
  auto index = l.tensorArg(n, args.get("index"));
  auto src = l.tensorArg(n, args.get("src"));
  auto dimArg = args.integer("dim");
  auto includeSelf = args.boolean("include_self");
  FXKIT_TRY(firstError(self, index, src, dimArg, includeSelf));
  const Argument &reduce = args.get("reduce");
  std::string_view name = reduce.kind() == Argument::Kind::String ? reduce.asString() : "";
  const TensorType *out = n.value().tensor();
  size_t rank = self->sizes.size();
  if (!out || !isIntegerIndex(l.program_.buffers[index->buffer].type.dtype) ||
      index->sizes.size() != rank || rank == 0 || !canAccumulate(out->dtype))
    return l.lowerExtern(n, args);
  bool fl = dtypeIsFloating(out->dtype);
  ScatterCombine combine;
  double identity;
  if (name == "sum")
    combine = ScatterCombine::Add, identity = 0;
  else if (name == "prod")
    combine = ScatterCombine::Mul, identity = 1;
  else if (name == "amax")
    combine = ScatterCombine::Max,
    identity = fl ? -INFINITY : static_cast<double>(std::numeric_limits<int64_t>::min());
  else if (name == "amin")
    combine = ScatterCombine::Min,
    identity = fl ? INFINITY : static_cast<double>(std::numeric_limits<int64_t>::max());
  else
    return l.lowerExtern(n, args); // mean, or a bad name the reference kernel reports
  auto dim = normalizeDim(*dimArg, rank);
  if (!dim)
    return l.nodeError(n, dim.error().message);
  int32_t buffer = copyOfSelf(l, n, *self);
  // One scatter op over index's points: the identity (without include_self), then the values.
  auto scatterOp = [&](bool values) {
    return scatterOver(l, n, buffer, *self, *index, static_cast<size_t>(*dim),
                       values ? combine : ScatterCombine::Replace,
                       [&](BodyBuilder &b, const std::vector<SymExpr> &vars) -> Expected<int32_t> {
                         if (values)
                           return loadAt(l, b, *src, vars.data());
                         if (fl)
                           return b.constant(identity, out->dtype);
                         // the dtype's own extreme (int32's for int32), not int64's
                         return b.intConstant(
                             name == "amax"   ? (out->dtype == DType::Int32 ? INT32_MIN : INT64_MIN)
                             : name == "amin" ? (out->dtype == DType::Int32 ? INT32_MAX : INT64_MAX)
                                              : static_cast<int64_t>(identity),
                             out->dtype);
                       });
  };
  if (!*includeSelf)
    FXKIT_TRY(scatterOp(false));
  return scatterOp(true);
}

/// The coordinates of row-major position `flat` over `sizes` (`flat` a loop variable or an
/// indirect index).
std::vector<SymExpr> unflatten(const SymExpr &flat, const std::vector<SymExpr> &sizes) {
  std::vector<SymExpr> coords(sizes.size());
  SymExpr inner = 1;
  for (size_t j = sizes.size(); j-- > 0;) {
    SymExpr q = symIs(inner, 1) ? flat : SymExpr::binary(SymExpr::Kind::FloorDiv, flat, inner);
    coords[j] = j == 0 ? q : SymExpr::binary(SymExpr::Kind::Mod, q, sizes[j]);
    inner = symMul(inner, sizes[j]);
  }
  return coords;
}

/// masked_scatter(self, mask, source): where mask (broadcast with self) is true, the result
/// takes source's elements in row-major order; elsewhere self's. As Inductor lowers it: a
/// scan counts the true elements before each point (a cumsum over the flattened mask), then a
/// pointwise op reads source at that count through an indirect index.
Status lowerMaskedScatter(Lowerer &l, const Node &n, const BoundArgs &args) {
  auto self = l.tensorArg(n, args.get("self"));
  auto mask = l.tensorArg(n, args.get("mask"));
  auto source = l.tensorArg(n, args.get("source"));
  FXKIT_TRY(firstError(self, mask, source));
  const TensorType *out = n.value().tensor();
  if (!out || out->sizes.empty())
    return l.lowerExtern(n, args);
  const std::vector<SymExpr> &shape = out->sizes;
  SymExpr numel = symProduct(shape);
  // The running count of true elements over the flattened mask (inclusive).
  LoopOp &scan = l.newOp(LoopOpKind::Scan, n);
  scan.scan = ScanKind::Sum;
  scan.accumulator = DType::Int64;
  scan.reductionRanges.push_back(numel);
  SymExpr r0 = loopVar(true, 0);
  int32_t counts = -1;
  {
    BodyBuilder b(scan);
    std::vector<SymExpr> at = unflatten(r0, shape);
    scan.reduced =
        b.cast(loadAt(l, b, *mask, at.data() + (shape.size() - mask->sizes.size())), DType::Int64);
    TensorType t;
    t.dtype = DType::Int64;
    t.sizes = {numel};
    t.strides = {SymExpr(1)};
    t.device = out->device;
    counts = l.newBuffer(t, l.currentOp());
    l.program_.ops[l.currentOp()].stores.push_back({counts, r0, 0});
  }
  // The result: source[count - 1] where the mask is true, self elsewhere.
  auto [op, vars] = startGather(l, n);
  BodyBuilder b(*op);
  int32_t m =
      b.cast(loadAt(l, b, *mask, vars.data() + (shape.size() - mask->sizes.size())), DType::Bool);
  SymExpr flat = 0;
  for (size_t j = 0; j < shape.size(); ++j)
    flat = symAdd(symMul(flat, shape[j]), vars[j]);
  int32_t count = b.load(counts, flat, DType::Int64);
  int32_t k = b.op(ScalarOp::Where, DType::Int64, m,
                   b.op(ScalarOp::Sub, DType::Int64, count, b.intConstant(1, DType::Int64)),
                   b.intConstant(0, DType::Int64));
  SymExpr at = l.indirectIndex(b, k, symProduct(source->sizes), false);
  std::vector<SymExpr> src = unflatten(at, source->sizes);
  int32_t taken = loadAt(l, b, *source, src.data());
  op->body[taken].operands[0] = m; // read only where the mask is true
  int32_t kept = loadAt(l, b, *self, vars.data() + (shape.size() - self->sizes.size()));
  return finish(l, n, *op, b, b.op(ScalarOp::Where, out->dtype, m, taken, kept), vars);
}

/// embedding_dense_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq):
/// zeros [num_weights, D], then each gradient row added to the row its index names, except the
/// padding_idx row (Inductor's decomposition: index_put with accumulate of the masked rows).
/// Scaling by frequency needs the counts of each index: that stays with the extern lowering.
Status lowerEmbeddingBackward(Lowerer &l, const Node &n, const BoundArgs &args) {
  auto grad = l.tensorArg(n, args.get("grad_output"));
  auto indices = l.tensorArg(n, args.get("indices"));
  auto padding = args.symInt("padding_idx");
  auto scale = args.boolean("scale_grad_by_freq");
  FXKIT_TRY(firstError(grad, indices, padding, scale));
  const TensorType *out = n.value().tensor();
  if (!out || *scale || !canAccumulate(out->dtype) ||
      !isIntegerIndex(l.program_.buffers[indices->buffer].type.dtype) ||
      grad->sizes.size() != indices->sizes.size() + 1)
    return l.lowerExtern(n, args);
  // The zeros.
  LoopOp &zeros = l.newOp(LoopOpKind::Pointwise, n);
  std::vector<SymExpr> outVars = iterate(out->sizes, zeros.ranges, false);
  BodyBuilder z(zeros);
  l.values_[n.scratch()] = l.finishPointwise(zeros, z, z.constant(0, out->dtype), *out, outVars);
  int32_t buffer = l.values_[n.scratch()].view.buffer;
  // The scatter of the rows.
  LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
  std::vector<SymExpr> vars = iterate(grad->sizes, op.ranges, false);
  BodyBuilder b(op);
  int32_t index = loadAt(l, b, *indices, vars.data());
  SymExpr row = l.indirectIndex(b, index, out->sizes[0], false);
  int32_t keep = b.op(
      ScalarOp::Ne, DType::Bool, index,
      b.cast(b.indexValue(*padding, DType::Int64), l.program_.buffers[indices->buffer].type.dtype));
  int32_t value = b.cast(loadAt(l, b, *grad, vars.data()), out->dtype);
  value = b.op(ScalarOp::Where, out->dtype, keep, value, b.constant(0, out->dtype));
  scatterStore(l, op, b, value, buffer, {row, vars.back()}, ScatterCombine::Add);
  return Status::ok();
}

/// The cubic convolution weights (A = -0.75) of the taps at -1, 0, 1 and 2 from offset t, as
/// body values of T (PyTorch's get_cubic_upsample_coefficients): ((A + 2) x - (A + 3)) x^2 + 1
/// for |x| <= 1, ((A x - 5A) x + 8A) x - 4A for 1 < |x| < 2.
std::array<int32_t, 4> cubicWeightValues(BodyBuilder &b, DType T, int32_t t) {
  const double A = -0.75;
  auto k = [&](double v) { return b.constant(v, T); };
  auto bin = [&](ScalarOp o, int32_t x, int32_t y) { return b.op(o, T, x, y); };
  auto nearW = [&](int32_t v) {
    return bin(
        ScalarOp::Add,
        bin(ScalarOp::Mul,
            bin(ScalarOp::Mul, bin(ScalarOp::Sub, bin(ScalarOp::Mul, k(A + 2), v), k(A + 3)), v),
            v),
        k(1));
  };
  auto farW = [&](int32_t v) {
    return bin(
        ScalarOp::Sub,
        bin(ScalarOp::Mul,
            bin(ScalarOp::Add,
                bin(ScalarOp::Mul, bin(ScalarOp::Sub, bin(ScalarOp::Mul, k(A), v), k(5 * A)), v),
                k(8 * A)),
            v),
        k(4 * A));
  };
  return {farW(bin(ScalarOp::Add, t, k(1))), nearW(t), nearW(bin(ScalarOp::Sub, k(1), t)),
          farW(bin(ScalarOp::Sub, k(2), t))};
}

/// grid_sampler_2d(input (N, C, H, W), grid (N, Ho, Wo, 2), interpolation_mode, padding_mode,
/// align_corners), as ATen's GridSampler.h computes it in the input's type: each output point
/// unnormalizes its grid (x, y), pads the coordinates (zeros, border, reflection), and reads
/// the taps of its mode (bilinear 4, nearest 1, bicubic 16) through indirect indices, masked
/// where a tap lies outside the input.
Status lowerGridSampler(Lowerer &l, const Node &n, const BoundArgs &args) {
  auto input = l.tensorArg(n, args.get("input"));
  auto grid = l.tensorArg(n, args.get("grid"));
  auto modeArg = args.integer("interpolation_mode");
  auto paddingArg = args.integer("padding_mode");
  auto alignArg = args.boolean("align_corners");
  FXKIT_TRY(firstError(input, grid, modeArg, paddingArg, alignArg));
  const TensorType *out = n.value().tensor();
  DType stored = l.program_.buffers[input->buffer].type.dtype;
  if (!out || input->sizes.size() != 4 || grid->sizes.size() != 4 || *modeArg < 0 || *modeArg > 2 ||
      *paddingArg < 0 || *paddingArg > 2 || !dtypeIsFloating(stored))
    return l.lowerExtern(n, args);
  const int64_t mode = *modeArg, padding = *paddingArg;
  const bool align = *alignArg;
  // Half-precision inputs compute in float (ATen's opmath), the others in their own type.
  const DType T = stored == DType::Float64 ? DType::Float64 : DType::Float32;
  // Not a structured binding: the lambdas below capture both (clang 15 refuses that).
  auto started = startGather(l, n);
  LoopOp *op = started.first;
  const std::vector<SymExpr> &vars = started.second;
  BodyBuilder b(*op);
  auto k = [&](double v) { return b.constant(v, T); };
  auto bin = [&](ScalarOp o, int32_t x, int32_t y) { return b.op(o, T, x, y); };
  auto pred = [&](ScalarOp o, int32_t x, int32_t y) { return b.op(o, DType::Bool, x, y); };
  auto sizeOf = [&](const SymExpr &s) { return b.cast(b.indexValue(s, DType::Int64), T); };
  const SymExpr &H = input->sizes[2], &W = input->sizes[3];
  // The grid's (x, y) at this output point.
  auto gridAt = [&](int64_t c) {
    SymExpr at[4] = {vars[0], vars[2], vars[3], SymExpr(c)};
    return b.cast(loadAt(l, b, *grid, at), T);
  };
  auto unnormalize = [&](int32_t g, const SymExpr &size) {
    int32_t s = sizeOf(size), one = k(1);
    return align ? bin(ScalarOp::Mul, bin(ScalarOp::TrueDiv, bin(ScalarOp::Add, g, one), k(2)),
                       bin(ScalarOp::Sub, s, one))
                 : bin(ScalarOp::TrueDiv,
                       bin(ScalarOp::Sub, bin(ScalarOp::Mul, bin(ScalarOp::Add, g, one), s), one),
                       k(2));
  };
  auto clip = [&](int32_t x, const SymExpr &size) {
    return bin(ScalarOp::Minimum, bin(ScalarOp::Maximum, x, k(0)),
               bin(ScalarOp::Sub, sizeOf(size), k(1)));
  };
  // reflect_coordinates(x, twiceLow, twiceHigh) with twiceLow/High over the size.
  auto reflect = [&](int32_t x, const SymExpr &size) {
    int32_t s = sizeOf(size);
    int32_t low = align ? k(0) : k(-0.5);
    int32_t span = align ? bin(ScalarOp::Sub, s, k(1)) : s; // (twiceHigh - twiceLow) / 2
    int32_t d = b.op(ScalarOp::Abs, T, bin(ScalarOp::Sub, x, low));
    int32_t extra = bin(ScalarOp::Fmod, d, span);
    int32_t flips = b.op(ScalarOp::Floor, T, bin(ScalarOp::TrueDiv, d, span));
    int32_t even = pred(ScalarOp::Eq, bin(ScalarOp::Fmod, flips, k(2)), k(0));
    int32_t r = b.op(ScalarOp::Where, T, even, bin(ScalarOp::Add, extra, low),
                     bin(ScalarOp::Add, bin(ScalarOp::Sub, span, extra), low));
    return b.op(ScalarOp::Where, T, pred(ScalarOp::Eq, span, k(0)), k(0), r);
  };
  // compute_coordinates, then safe_downgrade_to_int_range's -100 for what is not finite.
  auto pad = [&](int32_t x, const SymExpr &size) {
    if (padding == 1)
      x = clip(x, size);
    else if (padding == 2)
      x = clip(reflect(x, size), size);
    int32_t finite =
        b.op(ScalarOp::LogicalNot, DType::Bool,
             b.op(ScalarOp::LogicalOr, DType::Bool, b.op(ScalarOp::IsNan, DType::Bool, x),
                  b.op(ScalarOp::IsInf, DType::Bool, x)));
    int32_t small = pred(ScalarOp::Lt, b.op(ScalarOp::Abs, T, x), k(2e9));
    return b.op(ScalarOp::Where, T, b.op(ScalarOp::LogicalAnd, DType::Bool, finite, small), x,
                k(-100));
  };
  // The input at integral coordinates (y, x) (values of T), 0 outside.
  auto pixel = [&](int32_t y, int32_t x) {
    int32_t inside = b.op(ScalarOp::LogicalAnd, DType::Bool,
                          b.op(ScalarOp::LogicalAnd, DType::Bool, pred(ScalarOp::Ge, y, k(0)),
                               pred(ScalarOp::Lt, y, sizeOf(H))),
                          b.op(ScalarOp::LogicalAnd, DType::Bool, pred(ScalarOp::Ge, x, k(0)),
                               pred(ScalarOp::Lt, x, sizeOf(W))));
    auto index = [&](int32_t v, const SymExpr &size) {
      int32_t safe = b.op(ScalarOp::Where, T, inside, v, k(0));
      return l.indirectIndex(b, b.cast(b.op(ScalarOp::Trunc, T, safe), DType::Int64), size, false);
    };
    SymExpr iy = index(y, H), ix = index(x, W);
    SymExpr at[4] = {vars[0], vars[1], iy, ix};
    int32_t v = loadAt(l, b, *input, at);
    op->body[v].operands[0] = inside; // masked: not read outside (0 there)
    return b.cast(v, T);
  };
  int32_t x = unnormalize(gridAt(0), W), y = unnormalize(gridAt(1), H);
  int32_t value = -1;
  if (mode == 2) {
    int32_t x0 = b.op(ScalarOp::Floor, T, x), y0 = b.op(ScalarOp::Floor, T, y);
    std::array<int32_t, 4> wx = cubicWeightValues(b, T, bin(ScalarOp::Sub, x, x0)),
                           wy = cubicWeightValues(b, T, bin(ScalarOp::Sub, y, y0));
    value = k(0);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        int32_t ty = pad(bin(ScalarOp::Add, y0, k(i - 1)), H);
        int32_t tx = pad(bin(ScalarOp::Add, x0, k(j - 1)), W);
        int32_t tap = bin(ScalarOp::Mul, bin(ScalarOp::Mul, wy[i], wx[j]),
                          pixel(b.op(ScalarOp::Trunc, T, ty), b.op(ScalarOp::Trunc, T, tx)));
        value = bin(ScalarOp::Add, value, tap);
      }
  } else {
    x = pad(x, W);
    y = pad(y, H);
    if (mode == 1) {
      value = pixel(b.op(ScalarOp::Round, T, y), b.op(ScalarOp::Round, T, x));
    } else {
      int32_t x0 = b.op(ScalarOp::Floor, T, x), y0 = b.op(ScalarOp::Floor, T, y);
      int32_t x1 = bin(ScalarOp::Add, x0, k(1)), y1 = bin(ScalarOp::Add, y0, k(1));
      int32_t tx = bin(ScalarOp::Sub, x, x0), ty = bin(ScalarOp::Sub, y, y0);
      int32_t sx = bin(ScalarOp::Sub, k(1), tx), sy = bin(ScalarOp::Sub, k(1), ty);
      int32_t top = bin(ScalarOp::Add, bin(ScalarOp::Mul, sx, pixel(y0, x0)),
                        bin(ScalarOp::Mul, tx, pixel(y0, x1)));
      int32_t bottom = bin(ScalarOp::Add, bin(ScalarOp::Mul, sx, pixel(y1, x0)),
                           bin(ScalarOp::Mul, tx, pixel(y1, x1)));
      value = bin(ScalarOp::Add, bin(ScalarOp::Mul, sy, top), bin(ScalarOp::Mul, ty, bottom));
    }
  }
  return finish(l, n, *op, b, value, vars);
}

/// upsample_bicubic2d.vec: per output point, the 4 x 4 taps of cubicSource (PoolingWindows.h)
/// computed in the body in PyTorch's opmath (float; double for float64) from the host's scale,
/// each clamped into the input, weighted by cubicWeightValues; symbolic spatial sizes stay
/// extern.
Status lowerUpsampleBicubic2d(Lowerer &l, const Node &n, const BoundArgs &args) {
  auto input = l.tensorArg(n, args.get("input"));
  auto alignArg = args.boolean("align_corners");
  FXKIT_TRY(firstError(input, alignArg));
  const TensorType *out = n.value().tensor();
  DType stored = l.program_.buffers[input->buffer].type.dtype;
  if (!out || input->sizes.size() != 4 || out->sizes.size() != 4 || !dtypeIsFloating(stored))
    return l.lowerExtern(n, args);
  const bool align = *alignArg;
  const DType T = stored == DType::Float64 ? DType::Float64 : DType::Float32;
  double scales[2];
  for (size_t d = 0; d < 2; ++d) {
    const SymExpr &in = input->sizes[2 + d], &o = out->sizes[2 + d];
    if (!in.isConstant() || !o.isConstant())
      return l.lowerExtern(n, args);
    FXKIT_ASSIGN_OR_RETURN(auto factor, upsampleScale(args, d));
    scales[d] = T == DType::Float64
                    ? linearScale<double>(in.constant(), o.constant(), align, factor)
                    : linearScale<float>(in.constant(), o.constant(), align, factor);
  }
  auto started = startGather(l, n);
  LoopOp *op = started.first;
  const std::vector<SymExpr> &vars = started.second;
  BodyBuilder b(*op);
  auto k = [&](double v) { return b.constant(v, T); };
  auto bin = [&](ScalarOp o, int32_t x, int32_t y) { return b.op(o, T, x, y); };
  // Per axis: the taps' indices into the input (clamped) and their weights.
  std::array<SymExpr, 4> taps[2];
  std::array<int32_t, 4> weights[2];
  for (size_t d = 0; d < 2; ++d) {
    const int64_t in = input->sizes[2 + d].constant();
    int32_t o = b.cast(b.indexValue(vars[2 + d], DType::Int64), T);
    int32_t src =
        align ? bin(ScalarOp::Mul, k(scales[d]), o)
              : bin(ScalarOp::Sub, bin(ScalarOp::Mul, k(scales[d]), bin(ScalarOp::Add, o, k(0.5))),
                    k(0.5));
    int32_t i0 = bin(ScalarOp::Minimum, b.op(ScalarOp::Floor, T, src), k(double(in - 1)));
    int32_t t =
        bin(ScalarOp::Minimum, bin(ScalarOp::Maximum, bin(ScalarOp::Sub, src, i0), k(0)), k(1));
    weights[d] = cubicWeightValues(b, T, t);
    for (int j = 0; j < 4; ++j) {
      int32_t at =
          bin(ScalarOp::Minimum, bin(ScalarOp::Maximum, bin(ScalarOp::Add, i0, k(j - 1)), k(0)),
              k(double(in - 1)));
      taps[d][j] = l.indirectIndex(b, b.cast(at, DType::Int64), input->sizes[2 + d], false);
    }
  }
  int32_t value = k(0);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      SymExpr at[4] = {vars[0], vars[1], taps[0][i], taps[1][j]};
      int32_t pixel = b.cast(loadAt(l, b, *input, at), T);
      value = bin(ScalarOp::Add, value,
                  bin(ScalarOp::Mul, bin(ScalarOp::Mul, weights[0][i], weights[1][j]), pixel));
    }
  return finish(l, n, *op, b, value, vars);
}

constexpr LoweringRule kRules[] = {
    {"torch.ops.aten.embedding.default", lowerEmbedding},
    {"torch.ops.aten.index_select.default", lowerIndexSelect},
    {"torch.ops.aten.gather.default", lowerGather},
    {"torch.ops.aten.index.Tensor", lowerIndex},
    {"torch.ops.aten._unsafe_index.Tensor", lowerIndex},
    {"torch.ops.aten.index_put.default", lowerIndexPut},
    {"torch.ops.aten.as_strided_scatter.default", lowerAsStridedScatter},
    {"torch.ops.aten.scatter.src", lowerScatter},
    {"torch.ops.aten.scatter.value", lowerScatter},
    {"torch.ops.aten.scatter_add.default", lowerScatter},
    {"torch.ops.aten.scatter_reduce.two", lowerScatterReduce},
    {"torch.ops.aten.masked_scatter.default", lowerMaskedScatter},
    {"torch.ops.aten.embedding_dense_backward.default", lowerEmbeddingBackward},
    {"torch.ops.aten.grid_sampler_2d.default", lowerGridSampler},
    {"torch.ops.aten.upsample_bicubic2d.vec", lowerUpsampleBicubic2d},
};

} // namespace

std::span<const LoweringRule> indexingLoweringRules() { return kRules; }

} // namespace fxkit::lowering
