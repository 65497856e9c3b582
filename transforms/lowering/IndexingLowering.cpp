/// Gathers through data-dependent indices (Inductor's `index`, `embedding`, `gather` and
/// `index_select` lowerings): one pointwise op over the result whose body loads the index
/// tensors at the result's point, turns each loaded value into an indirect index
/// (ScalarOp::IndirectIndex: wrapped when negative, checked against the indexed dimension) and
/// loads the source at the address those indices give. Fusion and inlining treat the indices
/// like loop variables, so a pointwise producer of the source is recomputed at the gathered
/// point and the gather fuses with its consumers.
#include "transforms/lowering/Lowerer.h"
#include "transforms/lowering/LoweringRules.h"

#include "ir/ops/ShapeRules.h"

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
  if (!weight || !indices)
    return !weight ? weight.takeError() : indices.takeError();
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

/// index_select(self, dim, index): result = self with dim `dim` read at index[i].
Status lowerIndexSelect(Lowerer &l, const Node &n, const BoundArgs &args) {
  auto self = l.tensorArg(n, args.get("self"));
  auto index = l.tensorArg(n, args.get("index"));
  auto dimArg = args.integer("dim");
  if (!self || !index || !dimArg)
    return !self ? self.takeError() : !index ? index.takeError() : dimArg.takeError();
  if (!isIntegerIndex(l.program_.buffers[index->buffer].type.dtype) || !n.value().tensor())
    return l.lowerExtern(n, args);
  size_t rank = self->sizes.size();
  auto dim = normalizeDim(*dimArg, std::max<size_t>(rank, 1));
  if (!dim)
    return l.nodeError(n, dim.error().message);
  auto [op, vars] = startGather(l, n);
  BodyBuilder b(*op);
  if (rank == 0) { // a 0-d self takes a one-element index, whose value must be 0
    SymExpr none[1] = {SymExpr(0)};
    l.indirectIndex(b, loadAt(l, b, *index, none), SymExpr(1), false);
    return finish(l, n, *op, b, loadAt(l, b, *self, vars.data()), vars);
  }
  // The index is 1-d (or 0-d: one element): read at the result's coordinate in `dim`.
  const SymExpr *at = index->sizes.empty() ? nullptr : &vars[*dim];
  SymExpr zero[1] = {SymExpr(0)};
  std::vector<SymExpr> src = vars;
  src[*dim] = l.indirectIndex(b, loadAt(l, b, *index, at ? at : zero), self->sizes[*dim], false);
  return finish(l, n, *op, b, loadAt(l, b, *self, src.data()), vars);
}

/// gather(self, dim, index): result[i] = self[i with i[dim] = index[i]]; the result has the
/// index's shape (no larger than self's in the other dims).
Status lowerGather(Lowerer &l, const Node &n, const BoundArgs &args) {
  auto self = l.tensorArg(n, args.get("self"));
  auto index = l.tensorArg(n, args.get("index"));
  auto dimArg = args.integer("dim");
  if (!self || !index || !dimArg)
    return !self ? self.takeError() : !index ? index.takeError() : dimArg.takeError();
  if (!isIntegerIndex(l.program_.buffers[index->buffer].type.dtype) || !n.value().tensor() ||
      index->sizes.size() != self->sizes.size())
    return l.lowerExtern(n, args);
  size_t rank = self->sizes.size();
  auto dim = normalizeDim(*dimArg, std::max<size_t>(rank, 1));
  if (!dim)
    return l.nodeError(n, dim.error().message);
  auto [op, vars] = startGather(l, n);
  BodyBuilder b(*op);
  int32_t at = loadAt(l, b, *index, vars.data());
  if (rank == 0) {
    l.indirectIndex(b, at, SymExpr(1), false);
    return finish(l, n, *op, b, loadAt(l, b, *self, vars.data()), vars);
  }
  std::vector<SymExpr> src = vars;
  src[*dim] = l.indirectIndex(b, at, self->sizes[*dim], false);
  return finish(l, n, *op, b, loadAt(l, b, *self, src.data()), vars);
}

/// index.Tensor / _unsafe_index.Tensor (AdvancedIndex): the index tensors broadcast to one
/// shape B that replaces the indexed dims of self in the result; when the indexed dims are
/// not adjacent, B comes first and the other dims follow in order (NumPy's rule).
Status lowerIndex(Lowerer &l, const Node &n, const BoundArgs &args) {
  auto self = l.tensorArg(n, args.get("self"));
  if (!self)
    return self.takeError();
  const Argument &list = args.get("indices");
  const TensorType *out = n.value().tensor();
  if (!list.isContainer() || !out)
    return l.lowerExtern(n, args);
  size_t rank = self->sizes.size();
  std::vector<std::optional<BufferView>> indices;
  for (const Argument &item : list.items()) {
    if (item.isNone()) {
      indices.emplace_back();
      continue;
    }
    auto view = l.tensorArg(n, item);
    if (!view)
      return view.takeError();
    if (!isIntegerIndex(l.program_.buffers[view->buffer].type.dtype))
      return l.lowerExtern(n, args); // a mask: the result's size depends on the data
    indices.push_back(*view);
  }
  if (indices.size() > rank || indices.empty())
    return l.lowerExtern(n, args); // inference reported the error already
  indices.resize(rank);
  size_t first = rank, last = 0, count = 0, broadcastRank = 0;
  for (size_t i = 0; i < rank; ++i)
    if (indices[i]) {
      first = std::min(first, i);
      last = i;
      ++count;
      broadcastRank = std::max(broadcastRank, indices[i]->sizes.size());
    }
  if (count == 0)
    return l.lowerExtern(n, args);
  bool adjacent = last - first + 1 == count;
  size_t bStart = adjacent ? first : 0; // where B's dims sit in the result
  if (out->sizes.size() != rank - count + broadcastRank)
    return l.nodeError(n, "the result's rank does not match its indices (internal error)");
  auto [op, vars] = startGather(l, n);
  BodyBuilder b(*op);
  const SymExpr *bVars = vars.data() + bStart;
  std::vector<SymExpr> src(rank);
  size_t rest = adjacent ? 0 : broadcastRank; // result position of the next kept dim
  for (size_t i = 0; i < rank; ++i) {
    if (indices[i]) {
      const BufferView &v = *indices[i];
      // Broadcast: the index's dims are B's trailing ones.
      int32_t value = loadAt(l, b, v, bVars + (broadcastRank - v.sizes.size()));
      src[i] = l.indirectIndex(b, value, self->sizes[i], true);
      continue;
    }
    if (adjacent)
      src[i] = vars[i < first ? i : i - count + broadcastRank];
    else
      src[i] = vars[rest++];
  }
  return finish(l, n, *op, b, loadAt(l, b, *self, src.data()), vars);
}

constexpr LoweringRule kRules[] = {
    {"torch.ops.aten.embedding.default", lowerEmbedding},
    {"torch.ops.aten.index_select.default", lowerIndexSelect},
    {"torch.ops.aten.gather.default", lowerGather},
    {"torch.ops.aten.index.Tensor", lowerIndex},
    {"torch.ops.aten._unsafe_index.Tensor", lowerIndex},
};

} // namespace

std::span<const LoweringRule> indexingLoweringRules() { return kRules; }

} // namespace fxkit::lowering
