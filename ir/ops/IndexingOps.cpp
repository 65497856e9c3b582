/// \file Indexing op family: rows and inference (see ir/ops/OpFamilies.h): gather, advanced
/// indexing (index, index_put), the scatter ops, *_scatter, padding, flip, repeat and nonzero.
/// Inference follows the meta functions FakeTensor runs (torch/_meta_registrations.py,
/// torch/_subclasses/fake_impls.py, the C++ structured meta of gather/scatter): what they check,
/// and the layouts they record, which are contiguous except where noted.

#include "ir/Try.h"
#include "ir/ops/InferSupport.h"
#include "ir/ops/OpFamilies.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <functional>
#include <map>

namespace fxkit {

namespace {

// ---- Shared checks and helpers ----

/// "torch.float32", as PyTorch prints a dtype in messages.
std::string torchName(DType dtype) { return "torch." + std::string(dtypeName(dtype)); }

/// Integer index tensors (gather, scatter, index_select, index).
bool isIndexDType(DType d) { return d == DType::Int64 || d == DType::Int32; }
/// Boolean masks of index / index_put (uint8 is the legacy spelling of a mask).
bool isMaskDType(DType d) { return d == DType::Bool || d == DType::UInt8; }

SymExpr numel(const TensorType &t) { return symProduct(t.sizes); }

/// Only constants can be compared for sure: a symbolic size may be anything at run time.
bool exceeds(const SymExpr &a, const SymExpr &b) {
  return a.isConstant() && b.isConstant() && a.constant() > b.constant();
}

/// Whether two shapes may be equal at run time: one rank, and no two constants that differ.
bool mayEqual(const Sizes &a, const Sizes &b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const SymExpr &x, const SymExpr &y) {
    return !exceeds(x, y) && !exceeds(y, x);
  });
}

/// Size of dim `i`, with a 0-d tensor taken as one element (ensure_nonempty_size).
SymExpr nonemptySize(const TensorType &t, size_t i) {
  return t.sizes.empty() ? SymExpr(1) : t.sizes[i];
}

Expected<int64_t> wrapDim(const BoundArgs &b, int64_t dim, size_t rank) {
  auto d = normalizeDim(dim, rank);
  if (!d)
    return b.error(d.error().message);
  return *d;
}

/// The dim argument of gather/scatter/index_select, wrapped against self's rank.
Expected<int64_t> dimArg(const BoundArgs &b, const TensorType &self) {
  FXKIT_ASSIGN_OR_RETURN(auto dim, b.integer("dim"));
  return wrapDim(b, dim, self.sizes.size());
}

/// Strides of the *_scatter results (at::clone_preserve_strides): self's own strides, unless
/// self overlaps itself (an expanded dim), which clone() lays out densely instead.
Sizes scatterResultStrides(const TensorType &self) {
  for (size_t i = 0; i < self.sizes.size(); ++i)
    if (symIs(self.strides[i], 0) && !symIs(self.sizes[i], 1) && !symIs(self.sizes[i], 0))
      return preserveFormatStrides(self);
  return self.strides;
}

/// A result laid out like `self` would be by empty_like(self).
TensorType likeSelf(const TensorType &self) {
  return make(self.dtype, self.sizes, preserveFormatStrides(self), self.device);
}

// ---- Unbacked sizes (nonzero, boolean masks) ----

/// Whether `name` is one of PyTorch's unbacked symbols: `u` and a number.
bool isUnbacked(std::string_view name) {
  return name.size() > 1 && name[0] == 'u' &&
         std::all_of(name.begin() + 1, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// The number after the highest unbacked symbol in the values of the nodes before `node`.
/// PyTorch's ShapeEnv numbers unbacked symbols in the order it creates them, which is the
/// graph's order, so a new one takes the next number.
int64_t nextUnbacked(const Node &node) {
  int64_t next = 0;
  auto scan = [&](const SymExpr &e) {
    for (const std::string &s : e.symbols()) {
      int64_t n = 0;
      if (isUnbacked(s) && std::from_chars(s.data() + 1, s.data() + s.size(), n).ec == std::errc())
        next = std::max<int64_t>(next, n + 1);
    }
  };
  auto scanType = [&](const TensorType &t) {
    for (const SymExpr &e : t.sizes)
      scan(e);
  };
  for (const Node *n = node.prev(); n; n = n->prev()) {
    const NodeValue &v = n->value();
    if (const TensorType *t = v.tensor()) {
      scanType(*t);
    } else if (const auto *ts = v.tensors()) {
      for (const auto &t : *ts)
        if (t)
          scanType(*t);
    } else if (const SymExpr *s = v.sym()) {
      scan(*s);
    }
  }
  return next;
}

SymExpr unbacked(int64_t n) { return SymExpr::symbol("u" + std::to_string(n)); }

/// make_contiguous_strides_for multiplies by max(size, 1): an unbacked size may be 0, so its
/// factor stays `Max(1, u0)` (a backed symbol is known to be at least 2 and drops the Max).
Sizes withUnbackedMax(const Sizes &strides) {
  std::map<std::string, SymExpr, std::less<>> repl;
  for (const SymExpr &s : strides)
    for (const std::string &name : s.symbols())
      if (isUnbacked(name)) {
        std::array<SymExpr, 2> args{SymExpr(1), SymExpr::symbol(name)};
        repl.emplace(name, SymExpr::call("Max", args));
      }
  if (repl.empty())
    return strides;
  Sizes out;
  for (const SymExpr &s : strides)
    out.push_back(s.substitute(repl));
  return out;
}

// ---- gather / scatter ----

/// gather_shape_check and scatter_shape_check: index has self's rank and fits in self (apart
/// from `dim`) and in src. Sizes are only compared where both are constants.
Status checkIndexFits(const BoundArgs &b, const TensorType &self, int64_t dim,
                      const TensorType &index, const std::optional<TensorType> &src, bool gather) {
  size_t rank = std::max<size_t>(self.sizes.size(), 1);
  if (rank != std::max<size_t>(index.sizes.size(), 1))
    return b.error(std::string("Index tensor must have the same number of dimensions as ") +
                   (gather ? "input" : "self") + " tensor");
  for (size_t i = 0; i < rank; ++i) {
    if (static_cast<int64_t>(i) == dim || !exceeds(nonemptySize(index, i), nonemptySize(self, i)))
      continue;
    std::string what = "index " + sizesText(index.sizes) + " to be no larger than self " +
                       sizesText(self.sizes) + " apart from dimension " + std::to_string(dim);
    return b.error(gather ? "Size does not match at dimension " + std::to_string(i) + " expected " +
                                what
                          : "Expected " + what);
  }
  if (!src)
    return Status::ok();
  if (rank != std::max<size_t>(src->sizes.size(), 1))
    return b.error("Index tensor must have the same number of dimensions as src tensor");
  for (size_t i = 0; i < rank; ++i)
    if (exceeds(nonemptySize(index, i), nonemptySize(*src, i)))
      return b.error("Expected index " + sizesText(index.sizes) + " to be no larger than src " +
                     sizesText(src->sizes));
  return Status::ok();
}

Expected<NodeValue> gather(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto index, b.tensor("index"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, dimArg(b, self));
  // An empty index skips the checks (meta_gather).
  if (!symIs(numel(index), 0)) {
    if (!isIndexDType(index.dtype))
      return b.error("gather(): Expected dtype int32/int64 for index, but got " +
                     torchName(index.dtype));
    FXKIT_TRY(checkIndexFits(b, self, dim, index, std::nullopt, true));
  }
  return one(contiguous(self.dtype, index.sizes, self.device));
}

/// The reductions of scatter_reduce.two.
constexpr std::array<std::string_view, 5> kScatterReductions{"sum", "prod", "mean", "amax", "amin"};

/// scatter.src, scatter.value, scatter_add, scatter_reduce.two (scatter_meta_impl): a fresh
/// contiguous tensor of self's shape.
Expected<NodeValue> scatter(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto index, b.tensor("index"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, dimArg(b, self));
  std::optional<TensorType> src;
  if (b.op().schema.indexOf("src") >= 0) {
    FXKIT_ASSIGN_OR_RETURN(auto s, b.tensor("src"));
    src = std::move(s);
  }
  bool empty = symIs(numel(index), 0);
  if (!empty && !isIndexDType(index.dtype))
    return b.error("scatter(): Expected dtype int32/int64 for index");
  if (src && src->dtype != self.dtype)
    return b.error("scatter(): Expected self.dtype to be equal to src.dtype");
  if (!empty)
    FXKIT_TRY(checkIndexFits(b, self, dim, index, src, false));
  if (b.op().schema.indexOf("reduce") >= 0) {
    const Argument &reduce = b.get("reduce");
    std::string name(reduce.kind() == Argument::Kind::String ? reduce.asString() : "");
    if (std::find(kScatterReductions.begin(), kScatterReductions.end(), name) ==
        kScatterReductions.end())
      return b.error("reduce argument must be either sum, prod, mean, amax or amin, got " +
                     (name.empty() ? std::string("a non-string") : name));
    if (name == "mean" && self.dtype == DType::Bool)
      return b.error("\"scatter_gather_tensor_cpu_reduce_mean\" not implemented for 'Bool'");
  }
  return one(contiguous(self.dtype, self.sizes, self.device));
}

Expected<NodeValue> indexSelect(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto index, b.tensor("index"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, dimArg(b, self));
  if (index.sizes.size() > 1)
    return b.error("index_select(): Index is supposed to be a vector");
  if (!isIndexDType(index.dtype))
    return b.error("index_select(): Expected dtype int32 or int64 for index");
  Sizes sizes = self.sizes;
  if (!sizes.empty())
    sizes[dim] = numel(index);
  return one(contiguous(self.dtype, std::move(sizes), self.device));
}

// ---- Advanced indexing (index.Tensor, index_put) ----

/// The entries of a `Tensor?[]` argument; nullopt for None.
Expected<std::vector<std::optional<TensorType>>> optionalTensors(const BoundArgs &b,
                                                                 std::string_view name) {
  const Argument &a = b.get(name);
  if (a.kind() != Argument::Kind::List && a.kind() != Argument::Kind::Tuple)
    return b.error("argument '" + std::string(name) + "' must be a list of tensors or None");
  std::vector<std::optional<TensorType>> out;
  for (const Argument &item : a.items()) {
    if (item.isNone()) {
      out.emplace_back();
      continue;
    }
    const TensorType *t = item.isNode() ? item.asNode()->value().tensor() : nullptr;
    if (!t)
      return b.error("argument '" + std::string(name) + "' holds something that is not a tensor");
    out.emplace_back(*t);
  }
  return out;
}

/// checkIndexTensorTypes and expandTensors: every mask becomes one int64 index per dim it
/// covers, whose length is the mask's number of true elements: unbacked symbols numbered from
/// `firstUnbacked` (PyTorch calls nonzero on the mask), or 0 for a mask known to be empty.
Expected<std::vector<std::optional<TensorType>>>
expandMasks(const BoundArgs &b, const TensorType &self,
            const std::vector<std::optional<TensorType>> &indices, int64_t firstUnbacked) {
  size_t rank = self.sizes.size();
  std::vector<std::optional<TensorType>> out;
  for (size_t i = 0; i < indices.size(); ++i) {
    const std::optional<TensorType> &index = indices[i];
    if (!index || isIndexDType(index->dtype)) {
      out.push_back(index);
      continue;
    }
    if (!isMaskDType(index->dtype))
      return b.error("tensors used as indices must be long, int, byte or bool tensors");
    size_t k = out.size();
    if (k + index->sizes.size() > rank)
      return b.error("too many indices for tensor of dimension " + std::to_string(rank));
    for (size_t j = 0; j < index->sizes.size(); ++j)
      if (!symEq(index->sizes[j], self.sizes[k + j]))
        return b.error("The shape of the mask " + sizesText(index->sizes) + " at index " +
                       std::to_string(i) + " does not match the shape of the indexed tensor " +
                       sizesText(self.sizes) + " at index " + std::to_string(k + j));
    SymExpr count = symIs(numel(*index), 0) ? SymExpr(0) : unbacked(firstUnbacked++);
    for (size_t j = 0; j < index->sizes.size(); ++j)
      out.push_back(contiguous(DType::Int64, {count}, index->device));
  }
  if (out.size() > rank)
    return b.error("too many indices for tensor of dimension " + std::to_string(rank) + " (got " +
                   std::to_string(out.size()) + ")");
  return out;
}

/// AdvancedIndex's view of `self[indices]` (masks already expanded): the index tensors
/// broadcast to one shape that replaces the indexed dims; when those dims are not adjacent
/// they move to the front first (transposeToFront), as NumPy does.
struct AdvancedIndex {
  TensorType self;   ///< self, its dims permuted when the indexed ones moved to the front
  Sizes replacement; ///< broadcast shape of the index tensors
  size_t before = 0; ///< dims of `self` before the indexed ones
  size_t count = 0;  ///< indexed dims

  /// before + replacement + after.
  Sizes resultSizes() const {
    Sizes out(self.sizes.begin(), self.sizes.begin() + before);
    out.insert(out.end(), replacement.begin(), replacement.end());
    out.insert(out.end(), self.sizes.begin() + before + count, self.sizes.end());
    return out;
  }
};

Expected<AdvancedIndex> advancedIndex(const BoundArgs &b, const TensorType &self,
                                      std::vector<std::optional<TensorType>> indices) {
  std::vector<Sizes> shapes;
  for (const auto &index : indices)
    if (index)
      shapes.push_back(index->sizes);
  auto replacement = broadcastShapes(shapes);
  if (!replacement) {
    std::string list;
    for (const Sizes &s : shapes)
      list += (list.empty() ? "" : ", ") + sizesText(s);
    return b.error("shape mismatch: indexing tensors could not be broadcast together with "
                   "shapes " +
                   list);
  }
  indices.resize(self.sizes.size());
  // hasContiguousSubspace: the indexed dims form one run.
  size_t first = indices.size(), last = 0, count = 0;
  for (size_t i = 0; i < indices.size(); ++i)
    if (indices[i]) {
      first = std::min(first, i);
      last = i;
      ++count;
    }
  // transposeToFront otherwise: the indexed dims first, then the others, each in order.
  bool adjacent = count == 0 || last - first + 1 == count;
  std::vector<size_t> order;
  for (size_t i = 0; i < indices.size(); ++i)
    if (adjacent || indices[i])
      order.push_back(i);
  for (size_t i = 0; i < indices.size() && !adjacent; ++i)
    if (!indices[i])
      order.push_back(i);
  AdvancedIndex r;
  r.self = self;
  for (size_t i = 0; i < order.size(); ++i) {
    r.self.sizes[i] = self.sizes[order[i]];
    r.self.strides[i] = self.strides[order[i]];
  }
  r.replacement = replacement.take();
  r.before = count == 0 ? self.sizes.size() : (adjacent ? first : 0);
  r.count = count;
  return r;
}

/// meta_index_Tensor: eager's layout, which TensorIterator derives from self with the indexed
/// dims replaced by the broadcast index shape at stride 0 (restride_src).
Sizes indexResultStrides(const AdvancedIndex &ix, const Sizes &shape) {
  if (symIs(numel(ix.self), 0))
    return TensorType::contiguousStrides(shape);
  TensorType restrided = ix.self;
  restrided.sizes = shape;
  restrided.strides.assign(ix.self.strides.begin(), ix.self.strides.begin() + ix.before);
  restrided.strides.insert(restrided.strides.end(), ix.replacement.size(), SymExpr(0));
  restrided.strides.insert(restrided.strides.end(), ix.self.strides.begin() + ix.before + ix.count,
                           ix.self.strides.end());
  return withUnbackedMax(elementwiseStrides(shape, {&restrided}));
}

Expected<NodeValue> indexTensor(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto raw, optionalTensors(b, "indices"));
  if (raw.empty())
    return b.error("at least one index must be provided");
  // Numbering a mask's symbol scans the graph before the node: only masks pay for it.
  bool masked =
      std::any_of(raw.begin(), raw.end(), [](const auto &t) { return t && isMaskDType(t->dtype); });
  FXKIT_ASSIGN_OR_RETURN(auto indices,
                         expandMasks(b, self, raw, masked ? nextUnbacked(b.node()) : 0));
  FXKIT_ASSIGN_OR_RETURN(auto ix, advancedIndex(b, self, std::move(indices)));
  Sizes shape = ix.resultSizes();
  Sizes strides = indexResultStrides(ix, shape);
  return one(make(self.dtype, std::move(shape), std::move(strides), self.device));
}

/// index_put and index_put_ (meta_index_put: empty_like(self); the in-place form returns self).
/// Eager's checks: the values' dtype is self's, the indices are integers or masks, and the
/// values broadcast to the indexing result (checked here when no mask makes it data dependent).
Expected<NodeValue> indexPut(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto raw, optionalTensors(b, "indices"));
  FXKIT_ASSIGN_OR_RETURN(auto values, b.tensor("values"));
  if (values.dtype != self.dtype)
    return b.error("Index put requires the source and destination dtypes match, got " +
                   std::string(dtypeScalarTypeName(self.dtype)) + " for the destination and " +
                   std::string(dtypeScalarTypeName(values.dtype)) + " for the source.");
  if (raw.empty())
    return b.error("at least one index must be provided");
  FXKIT_ASSIGN_OR_RETURN(auto indices, expandMasks(b, self, raw, 0));
  bool masked = std::any_of(raw.begin(), raw.end(), [](const auto &t) {
    return t && isMaskDType(t->dtype) && !symIs(numel(*t), 0);
  });
  if (!masked) {
    FXKIT_ASSIGN_OR_RETURN(auto ix, advancedIndex(b, self, std::move(indices)));
    Sizes shape = ix.resultSizes();
    auto bc = broadcastShapes({values.sizes, shape});
    if (!bc || !std::equal(bc->begin(), bc->end(), shape.begin(), shape.end(), symEq))
      return b.error("shape mismatch: value tensor of shape " + sizesText(values.sizes) +
                     " cannot be broadcast to indexing result of shape " + sizesText(shape));
  }
  if (b.op().schema.name == "index_put_")
    return one(std::move(self));
  return one(likeSelf(self));
}

// ---- *_scatter ----

Expected<NodeValue> sliceScatter(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto src, b.tensor("src"));
  if (self.sizes.empty())
    return b.error("slice() cannot be applied to a 0-dim tensor.");
  FXKIT_ASSIGN_OR_RETURN(auto dim, dimArg(b, self));
  FXKIT_ASSIGN_OR_RETURN(auto start, b.optionalSymInt("start"));
  FXKIT_ASSIGN_OR_RETURN(auto end, b.optionalSymInt("end"));
  FXKIT_ASSIGN_OR_RETURN(auto step, b.integer("step"));
  auto bounds = sliceBounds(self.sizes[dim], start, end, step);
  if (!bounds)
    return b.error(bounds.error().message);
  Sizes slice = self.sizes;
  slice[dim] = bounds->size;
  if (!mayEqual(slice, src.sizes))
    return b.error("slice_scatter: expected src to have a size equal to the slice of self. src "
                   "size = " +
                   sizesText(src.sizes) + ", slice size = " + sizesText(slice));
  return one(make(self.dtype, self.sizes, scatterResultStrides(self), self.device));
}

/// as_strided_scatter: a copy of self (clone_preserve_strides, as PyTorch's meta: self's own
/// strides) whose as_strided view takes src; size and src's sizes must agree.
Expected<NodeValue> asStridedScatter(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto src, b.tensor("src"));
  FXKIT_ASSIGN_OR_RETURN(auto size, b.symIntList("size"));
  FXKIT_ASSIGN_OR_RETURN(auto stride, b.symIntList("stride"));
  if (size.size() != stride.size())
    return b.error("mismatch in length of strides and shape");
  for (const SymExpr &s : stride)
    if (s.isConstant() && s.constant() < 0)
      return b.error("as_strided: Negative strides are not supported at the moment, got strides: " +
                     sizesText(stride));
  if (!mayEqual(size, src.sizes))
    return b.error("expected src to have a size equal to the slice of self. src size = " +
                   sizesText(src.sizes) + ", slice size = " + sizesText(size));
  return one(make(self.dtype, self.sizes, self.strides, self.device));
}

Expected<NodeValue> selectScatter(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto src, b.tensor("src"));
  if (self.sizes.empty())
    return b.error("select() cannot be applied to a 0-dim tensor.");
  FXKIT_ASSIGN_OR_RETURN(auto dim, dimArg(b, self));
  FXKIT_ASSIGN_OR_RETURN(auto index, b.symInt("index"));
  const SymExpr &size = self.sizes[dim];
  if (index.isConstant() && size.isConstant() &&
      (index.constant() >= size.constant() || index.constant() < -size.constant()))
    return b.error("select(): index " + index.str() + " out of range for tensor of size " +
                   sizesText(self.sizes) + " at dimension " + std::to_string(dim));
  Sizes slice = self.sizes;
  slice.erase(slice.begin() + dim);
  if (!mayEqual(slice, src.sizes))
    return b.error("select_scatter: expected src to have a size equal to the slice of self. src "
                   "size = " +
                   sizesText(src.sizes) + ", slice size = " + sizesText(slice));
  return one(make(self.dtype, self.sizes, scatterResultStrides(self), self.device));
}

/// diagonal_scatter(self, src, offset, dim1, dim2): self with src written into the diagonal
/// that diagonal(offset, dim1, dim2) views (src: self's other dims, then the diagonal's length).
Expected<NodeValue> diagonalScatter(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto src, b.tensor("src"));
  FXKIT_ASSIGN_OR_RETURN(auto offset, b.integer("offset"));
  if (self.sizes.size() < 2)
    return b.error("diagonal expects a tensor of at least 2 dimensions");
  FXKIT_ASSIGN_OR_RETURN(auto dim1a, b.integer("dim1"));
  FXKIT_ASSIGN_OR_RETURN(auto dim2a, b.integer("dim2"));
  FXKIT_ASSIGN_OR_RETURN(auto dim1, wrapDim(b, dim1a, self.sizes.size()));
  FXKIT_ASSIGN_OR_RETURN(auto dim2, wrapDim(b, dim2a, self.sizes.size()));
  if (dim1 == dim2)
    return b.error("diagonal dimensions cannot be identical " + std::to_string(dim1a) + ", " +
                   std::to_string(dim2a));
  Sizes slice;
  for (size_t i = 0; i < self.sizes.size(); ++i)
    if (static_cast<int64_t>(i) != dim1 && static_cast<int64_t>(i) != dim2)
      slice.push_back(self.sizes[i]);
  auto length = diagonalSize(self.sizes[dim1], self.sizes[dim2], offset);
  if (!length)
    return b.error(length.error().message);
  slice.push_back(*length);
  if (!mayEqual(slice, src.sizes))
    return b.error("diagonal_scatter: expected src to have a size equal to the slice of self. "
                   "src size = " +
                   sizesText(src.sizes) + ", slice size = " + sizesText(slice));
  return one(make(self.dtype, self.sizes, scatterResultStrides(self), self.device));
}

Expected<NodeValue> maskedScatter(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto mask, b.tensor("mask"));
  FXKIT_ASSIGN_OR_RETURN(auto source, b.tensor("source"));
  if (!isMaskDType(mask.dtype))
    return b.error("Mask must be bool or uint8");
  if (self.dtype != source.dtype)
    return b.error("masked_scatter: expected self and source to have same dtypes but got " +
                   torchName(self.dtype) + " and " + torchName(source.dtype));
  auto shape = broadcastShapes({self.sizes, mask.sizes});
  if (!shape)
    return b.error(shape.error().message);
  return one(contiguous(self.dtype, shape.take(), self.device));
}

Expected<NodeValue> embeddingDenseBackward(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto grad, b.tensor("grad_output"));
  FXKIT_ASSIGN_OR_RETURN(auto indices, b.tensor("indices"));
  FXKIT_ASSIGN_OR_RETURN(auto numWeights, b.symInt("num_weights"));
  if (!isIndexDType(indices.dtype))
    return b.error("Expected tensor for argument #1 'indices' to have one of the following scalar "
                   "types: Long, Int; but got " +
                   torchName(indices.dtype) +
                   " instead (while checking arguments for embedding_backward)");
  if (grad.sizes.empty())
    return b.error("embedding_dense_backward: grad_output must have at least one dimension");
  return one(contiguous(grad.dtype, {numWeights, grad.sizes.back()}, grad.device));
}

// ---- Padding, flip, repeat ----

Expected<NodeValue> constantPadNd(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto pad, b.symIntList("pad"));
  size_t rank = self.sizes.size();
  if (pad.size() % 2)
    return b.error("Length of pad must be even but instead it equals " +
                   std::to_string(pad.size()));
  if (pad.size() / 2 > rank)
    return b.error("Length of pad should be no more than twice the number of dimensions of the "
                   "input. Pad length is " +
                   std::to_string(pad.size()) + " while the input has " + std::to_string(rank) +
                   " dimensions.");
  size_t lead = rank - pad.size() / 2;
  bool crops = std::all_of(pad.begin(), pad.end(),
                           [](const SymExpr &p) { return p.isConstant() && p.constant() <= 0; });
  TensorType out = self;
  for (size_t i = lead; i < rank; ++i) {
    const SymExpr &before = pad[2 * (rank - i - 1)], &after = pad[2 * (rank - i - 1) + 1];
    out.sizes[i] = symAdd(symAdd(self.sizes[i], before), after);
    if (!out.sizes[i].isConstant() || out.sizes[i].constant() >= 0)
      continue;
    if (crops)
      return b.error("narrow(): length must be non-negative.");
    return b.error("The input size " + self.sizes[i].str() + ", plus negative padding " +
                   before.str() + " and " + after.str() +
                   " resulted in a negative output size, which is invalid. Check dimension " +
                   std::to_string(i) + " of your input.");
  }
  // Only cropping: the meta narrows self and clones that view (preserve format); otherwise a
  // fresh tensor in self's suggested memory format.
  if (crops)
    return one(likeSelf(out));
  bool channelsLast = stridesLikeChannelsLast(self.sizes, self.strides);
  out.strides =
      channelsLast ? channelsLastStrides(out.sizes) : TensorType::contiguousStrides(out.sizes);
  return one(std::move(out));
}

/// reflection_pad{1,2,3}d and replication_pad{1,2,3}d (_pad{1,2,3}d_common of the meta).
template <int Dims, bool Reflection> Expected<NodeValue> padNd(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto padding, b.symIntList("padding"));
  size_t rank = self.sizes.size();
  if (padding.size() != 2 * Dims)
    return b.error("padding size is expected to be " + std::to_string(2 * Dims) +
                   ", but got: " + std::to_string(padding.size()));
  // The batch dim may be empty, the others may not.
  bool valid = rank == Dims + 1 || rank == Dims + 2;
  for (size_t d = rank == Dims + 2 ? 1 : 0; valid && d < rank; ++d)
    valid = !symIs(self.sizes[d], 0);
  if (!valid)
    return b.error("Expected " + std::to_string(Dims + 1) + "D or " + std::to_string(Dims + 2) +
                   "D (batch mode) tensor with possibly 0 batch size and other non-zero "
                   "dimensions for input, but got: " +
                   sizesText(self.sizes));
  if (!Reflection && self.dtype == DType::Bool)
    return b.error("\"replication_pad" + std::to_string(Dims) +
                   "d\" not implemented for 'torch.bool'");
  static constexpr std::array<std::string_view, 3> kNames{"W", "H", "D"};
  Sizes out = self.sizes;
  std::string inputs, outputs;
  bool anyPositive = false;
  for (int j = 0; j < Dims; ++j) {
    // padding lists the last dim first: (left, right, top, bottom, front, back).
    size_t dim = rank - 1 - j;
    const SymExpr &left = padding[2 * j], &right = padding[2 * j + 1];
    const SymExpr &in = self.sizes[dim];
    if (Reflection && (!exceeds(in, left) || !exceeds(in, right)) && left.isConstant() &&
        right.isConstant() && in.isConstant())
      return b.error("Argument #" + std::to_string(4 + 2 * j) +
                     ": Padding size should be less than the corresponding input dimension, "
                     "but got: padding (" +
                     left.str() + ", " + right.str() + ") at dimension " + std::to_string(dim) +
                     " of input " + sizesText(self.sizes));
    out[dim] = symAdd(symAdd(in, left), right);
    anyPositive = anyPositive || !out[dim].isConstant() || out[dim].constant() >= 1;
    inputs = std::string(kNames[j]) + ": " + in.str() + (j ? " " : "") + inputs;
    outputs = std::string(kNames[j]) + ": " + out[dim].str() + (j ? " " : "") + outputs;
  }
  if (!anyPositive)
    return b.error("input (" + inputs + ") is too small. Calculated output " + outputs);
  return one(contiguous(self.dtype, std::move(out), self.device));
}

Expected<NodeValue> flip(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dims, b.intList("dims"));
  std::vector<bool> seen(std::max<size_t>(self.sizes.size(), 1), false);
  for (int64_t dim : *dims) {
    FXKIT_ASSIGN_OR_RETURN(auto d, wrapDim(b, dim, self.sizes.size()));
    if (seen[d])
      return b.error("duplicate value in the list of dims");
    seen[d] = true;
  }
  return one(likeSelf(self));
}

Expected<NodeValue> repeat(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto repeats, b.symIntList("repeats"));
  if (repeats.size() < self.sizes.size())
    return b.error("Number of dimensions of repeat dims can not be smaller than number of "
                   "dimensions of tensor");
  size_t lead = repeats.size() - self.sizes.size();
  Sizes sizes;
  for (size_t i = 0; i < repeats.size(); ++i) {
    if (repeats[i].isConstant() && repeats[i].constant() < 0)
      return b.error("Repeats cannot be negative, found " + repeats[i].str() + " at index " +
                     std::to_string(i));
    sizes.push_back(i < lead ? repeats[i] : symMul(self.sizes[i - lead], repeats[i]));
  }
  return one(contiguous(self.dtype, std::move(sizes), self.device));
}

// ---- nonzero ----

constexpr std::string_view kNonzero = "torch.ops.aten.nonzero.default";

/// fake_impls.nonzero: (nnz, dim) int64 with strides (1, nnz), nnz a fresh unbacked symbol (0
/// when self is known to be empty). FakeTensor memoizes nnz per input tensor, so an earlier
/// nonzero of the same node gives its symbol again.
Expected<NodeValue> nonzero(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  const Argument &selfArg = b.get("self");
  std::optional<SymExpr> count;
  if (symIs(numel(self), 0))
    count = SymExpr(0);
  for (const Node *n = b.node().prev(); n && !count; n = n->prev()) {
    const TensorType *t = n->value().tensor();
    if (n->target() == kNonzero && t && !n->args().items().empty() &&
        n->args().items()[0].equals(selfArg))
      count = t->sizes[0];
  }
  if (!count)
    count = unbacked(nextUnbacked(b.node()));
  Sizes sizes{*count, SymExpr(static_cast<int64_t>(self.sizes.size()))};
  return one(make(DType::Int64, std::move(sizes), {SymExpr(1), *count}, self.device));
}

using C = OpCategory;

// clang-format off
const OpRow kRows[] = {
  {"torch.ops.aten.gather.default", "gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor", C::Other, gather},
  {"torch.ops.aten.index.Tensor", "index.Tensor(Tensor self, Tensor?[] indices) -> Tensor", C::Other, indexTensor},
  {"torch.ops.aten.index_put.default", "index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor", C::Other, indexPut},
  {"torch.ops.aten.index_put_.default", "index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor(a!)", C::Extern, indexPut},
  {"torch.ops.aten.as_strided_scatter.default", "as_strided_scatter(Tensor self, Tensor src, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor", C::Other, asStridedScatter},
  {"torch.ops.aten.slice_scatter.default", "slice_scatter(Tensor self, Tensor src, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor", C::Other, sliceScatter},
  {"torch.ops.aten.select_scatter.default", "select_scatter(Tensor self, Tensor src, int dim, SymInt index) -> Tensor", C::Other, selectScatter},
  {"torch.ops.aten.diagonal_scatter.default", "diagonal_scatter(Tensor self, Tensor src, int offset=0, int dim1=0, int dim2=1) -> Tensor", C::Other, diagonalScatter},
  {"torch.ops.aten.constant_pad_nd.default", "constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor", C::Other, constantPadNd},
  {"torch.ops.aten.index_select.default", "index_select(Tensor self, int dim, Tensor index) -> Tensor", C::Other, indexSelect},
  {"torch.ops.aten.scatter.src", "scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", C::Other, scatter},
  {"torch.ops.aten.scatter.value", "scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor", C::Other, scatter},
  {"torch.ops.aten.scatter_add.default", "scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", C::Other, scatter},
  {"torch.ops.aten.scatter_reduce.two", "scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor", C::Other, scatter},
  {"torch.ops.aten.masked_scatter.default", "masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor", C::Other, maskedScatter},
  {"torch.ops.aten.embedding_dense_backward.default", "embedding_dense_backward(Tensor grad_output, Tensor indices, SymInt num_weights, SymInt padding_idx, bool scale_grad_by_freq) -> Tensor", C::Other, embeddingDenseBackward},
  {"torch.ops.aten.flip.default", "flip(Tensor self, int[] dims) -> Tensor", C::Other, flip},
  {"torch.ops.aten.repeat.default", "repeat(Tensor self, SymInt[] repeats) -> Tensor", C::Other, repeat},
  {"torch.ops.aten.reflection_pad1d.default", "reflection_pad1d(Tensor self, SymInt[2] padding) -> Tensor", C::Other, padNd<1, true>},
  {"torch.ops.aten.reflection_pad2d.default", "reflection_pad2d(Tensor self, SymInt[4] padding) -> Tensor", C::Other, padNd<2, true>},
  {"torch.ops.aten.reflection_pad3d.default", "reflection_pad3d(Tensor self, SymInt[6] padding) -> Tensor", C::Other, padNd<3, true>},
  {"torch.ops.aten.replication_pad1d.default", "replication_pad1d(Tensor self, SymInt[2] padding) -> Tensor", C::Other, padNd<1, false>},
  {"torch.ops.aten.replication_pad2d.default", "replication_pad2d(Tensor self, SymInt[4] padding) -> Tensor", C::Other, padNd<2, false>},
  {"torch.ops.aten.replication_pad3d.default", "replication_pad3d(Tensor self, SymInt[6] padding) -> Tensor", C::Other, padNd<3, false>},
  {"torch.ops.aten.nonzero.default", "nonzero(Tensor self) -> Tensor", C::Extern, nonzero},
};
// clang-format on

} // namespace

std::span<const OpRow> indexingOpRows() { return kRows; }

} // namespace fxkit
