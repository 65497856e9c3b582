/// \file Reference kernels of the indexing family (ir/ops/IndexingOps.cpp): gather, advanced
/// indexing, the scatter ops, *_scatter, padding, flip, repeat and nonzero. Elements move as
/// they are (bytes within one dtype); accumulation is exact in int64 for integer dtypes and in
/// double for floating ones. Indices are checked at run time: advanced indexing (index,
/// index_put) counts negative indices from the end, as PyTorch does; gather, scatter and
/// index_select take them as out of range, as PyTorch does. Out of range is an error.

#include "backends/interp/KernelSupport.h"
#include "backends/interp/OpFamilyKernels.h"
#include "ir/Try.h"
#include "ir/ops/ShapeRules.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <unordered_map>

namespace fxkit {
namespace indexing_kernels {

namespace {

using kernels::broadcastOffset;
using kernels::broadcastsTo;
using kernels::sizesStr;

using Index = std::span<const int64_t>;

/// Calls fn on every multi-index of `sizes` in row-major order until it fails.
Status forEach(Index sizes, const std::function<Status(Index)> &fn) {
  Status failure = Status::ok();
  Tensor::forEachIndex(sizes, [&](Index index) {
    if (failure)
      failure = fn(index);
  });
  return failure;
}

bool isIndexDType(DType d) { return d == DType::Int64 || d == DType::Int32; }
bool isMaskDType(DType d) { return d == DType::Bool || d == DType::UInt8; }

/// Copies one element: bytes within one dtype (exact, NaN payloads included), through int64
/// between integer dtypes, through double otherwise.
void copyElement(const Tensor &src, int64_t from, Tensor &dst, int64_t to) {
  if (src.dtype() == dst.dtype()) {
    int item = src.itemSize();
    std::memcpy(dst.storage()->data() + to * item, src.storage()->data() + from * item,
                static_cast<size_t>(item));
  } else if (!dtypeIsFloating(src.dtype()) && !dtypeIsFloating(dst.dtype())) {
    dst.storeInt(to, src.loadInt(from));
  } else {
    dst.storeDouble(to, src.loadDouble(from));
  }
}

Expected<int64_t> wrapDim(const KernelContext &ctx, std::string_view name, int64_t rank) {
  FXKIT_ASSIGN_OR_RETURN(auto dim, ctx.integer(name));
  auto d = normalizeDim(dim, static_cast<size_t>(rank));
  if (!d)
    return ctx.error(d.error().message);
  return *d;
}

/// `value` as an index into a dim of `size`: advanced indexing (`wrap`) counts a negative one
/// from the end; anything else outside [0, size) is PyTorch's out-of-bounds error.
Expected<int64_t> checkedIndex(const KernelContext &ctx, int64_t value, int64_t size, int64_t dim,
                               bool wrap) {
  int64_t v = wrap && value < 0 ? value + size : value;
  if (v < 0 || v >= size)
    return ctx.error("index " + std::to_string(value) + " is out of bounds for dimension " +
                     std::to_string(dim) + " with size " + std::to_string(size));
  return v;
}

/// A fresh result laid out as inference said, holding a copy of `self` (the scatter ops and
/// index_put start from self).
Expected<Tensor> copyOfSelf(const KernelContext &ctx, const Tensor &self) {
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  if (out.sizes() != self.sizes())
    return ctx.error("self " + sizesStr(self.sizes()) + " differs from the result " +
                     sizesStr(out.sizes()));
  Tensor::forEachIndex(self.sizes(),
                       [&](Index i) { copyElement(self, self.offsetOf(i), out, out.offsetOf(i)); });
  return out;
}

/// A fresh result with the node's inferred layout and the sizes the kernel found: a size only
/// the data decides (an unbacked `u0` of nonzero or of a boolean mask) is bound to it here.
Expected<Tensor> allocateResult(const KernelContext &ctx, const std::vector<int64_t> &sizes) {
  FXKIT_ASSIGN_OR_RETURN(auto types, ctx.outputTypes());
  const TensorType &type = types[0];
  if (type.sizes.size() != sizes.size())
    return ctx.error("the result has " + std::to_string(sizes.size()) + " dims, inference says " +
                     type.str());
  SymExpr::Bindings bindings = ctx.bindings;
  for (size_t i = 0; i < sizes.size(); ++i)
    if (!type.sizes[i].isConstant() && type.sizes[i].kind() == SymExpr::Kind::Symbol)
      bindings.emplace(std::string(type.sizes[i].name()), sizes[i]);
  auto t = allocateTensor(type, bindings);
  if (!t)
    return ctx.error(t.error().message);
  if (t->sizes() != sizes)
    return ctx.error("the result has sizes " + sizesStr(sizes) + ", inference says " + type.str());
  return t;
}

// ---- gather / scatter / index_select ----

/// gather and scatter: index has self's rank and fits in self apart from `dim` (and in src).
Status checkFits(const KernelContext &ctx, const Tensor &self, int64_t dim, const Tensor &index,
                 const Tensor *src) {
  int64_t rank = std::max<int64_t>(self.dim(), 1);
  auto sizeAt = [](const Tensor &t, int64_t i) { return t.dim() == 0 ? 1 : t.size(i); };
  if (!isIndexDType(index.dtype()))
    return ctx.error("expected an int64 or int32 index, got " +
                     std::string(dtypeName(index.dtype())));
  bool fits = std::max<int64_t>(index.dim(), 1) == rank &&
              (!src || std::max<int64_t>(src->dim(), 1) == rank);
  for (int64_t i = 0; fits && i < rank; ++i)
    fits = (i == dim || sizeAt(index, i) <= sizeAt(self, i)) &&
           (!src || sizeAt(index, i) <= sizeAt(*src, i));
  if (!fits)
    return ctx.error("index " + sizesStr(index.sizes()) + " does not fit self " +
                     sizesStr(self.sizes()) + (src ? " and src " + sizesStr(src->sizes()) : "") +
                     " apart from dimension " + std::to_string(dim));
  return Status::ok();
}

/// The multi-index of self that index position `i` with index value `v` addresses along dim.
std::vector<int64_t> alongDim(const Tensor &self, Index i, int64_t dim, int64_t v) {
  if (self.dim() == 0)
    return {};
  std::vector<int64_t> at(i.begin(), i.end());
  at[dim] = v;
  return at;
}

Status gatherKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto index, ctx.tensor("index"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, wrapDim(ctx, "dim", self.dim()));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  if (index.numel() > 0)
    FXKIT_TRY(checkFits(ctx, self, dim, index, nullptr));
  int64_t size = self.dim() == 0 ? 1 : self.size(dim);
  FXKIT_TRY(forEach(index.sizes(), [&](Index i) -> Status {
    FXKIT_ASSIGN_OR_RETURN(auto v, checkedIndex(ctx, index.getInt(i), size, dim, false));
    copyElement(self, self.offsetOf(alongDim(self, i, dim, v)), out, out.offsetOf(i));
    return Status::ok();
  }));
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// How scatter combines the values that land on one element.
enum class Reduce : uint8_t { Assign, Sum, Prod, Mean, Amax, Amin };

/// One element's running reduction: int64 for integer dtypes (wrapping like C++), double for
/// floating ones; `count` values so far (mean divides by it).
struct Acc {
  int64_t i = 0;
  double f = 0;
  int64_t count = 0;
};

int64_t wrapping(uint64_t v) { return static_cast<int64_t>(v); }

void combine(Acc &acc, Reduce op, int64_t i, double f) {
  ++acc.count;
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  switch (op) {
  case Reduce::Assign:
    acc.i = i;
    acc.f = f;
    return;
  case Reduce::Sum:
  case Reduce::Mean:
    acc.i = wrapping(static_cast<uint64_t>(acc.i) + static_cast<uint64_t>(i));
    acc.f += f;
    return;
  case Reduce::Prod:
    acc.i = wrapping(static_cast<uint64_t>(acc.i) * static_cast<uint64_t>(i));
    acc.f *= f;
    return;
  case Reduce::Amax:
  case Reduce::Amin: {
    // NaN wins, as in PyTorch's max/min.
    bool max = op == Reduce::Amax;
    acc.i = max ? std::max(acc.i, i) : std::min(acc.i, i);
    acc.f =
        std::isnan(acc.f) || std::isnan(f) ? kNaN : (max ? std::max(acc.f, f) : std::min(acc.f, f));
    return;
  }
  }
}

/// Python's floor division (integer mean rounds down, as PyTorch's scatter_reduce does).
int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

Expected<Reduce> reduceArg(const KernelContext &ctx) {
  const Argument &a = ctx.args.get("reduce");
  std::string_view name = a.kind() == Argument::Kind::String ? a.asString() : "";
  static constexpr std::pair<std::string_view, Reduce> kNames[] = {{"sum", Reduce::Sum},
                                                                   {"prod", Reduce::Prod},
                                                                   {"mean", Reduce::Mean},
                                                                   {"amax", Reduce::Amax},
                                                                   {"amin", Reduce::Amin}};
  for (const auto &[n, r] : kNames)
    if (n == name)
      return r;
  return ctx.error("reduce argument must be either sum, prod, mean, amax or amin, got " +
                   std::string(name));
}

/// scatter.src/.value, scatter_add and scatter_reduce.two: self's copy, where each index
/// position sends src's value (or the scalar) along dim; `includeSelf` starts each reduction
/// from self's element, else from the first value that arrives (untouched elements keep self).
Status scatterWith(KernelContext &ctx, Reduce op, bool includeSelf) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto index, ctx.tensor("index"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, wrapDim(ctx, "dim", self.dim()));
  std::optional<Tensor> src;
  double value = 0;
  if (ctx.args.op().schema.indexOf("src") >= 0) {
    FXKIT_ASSIGN_OR_RETURN(auto t, ctx.tensor("src"));
    if (t.dtype() != self.dtype())
      return ctx.error("scatter(): Expected self.dtype to be equal to src.dtype");
    src = std::move(t);
  } else {
    FXKIT_ASSIGN_OR_RETURN(auto v, ctx.scalar("value"));
    value = v;
  }
  FXKIT_ASSIGN_OR_RETURN(auto out, copyOfSelf(ctx, self));
  if (index.numel() > 0)
    FXKIT_TRY(checkFits(ctx, self, dim, index, src ? &*src : nullptr));
  bool integral = !dtypeIsFloating(out.dtype());
  int64_t size = self.dim() == 0 ? 1 : self.size(dim);
  std::unordered_map<int64_t, Acc> acc;
  FXKIT_TRY(forEach(index.sizes(), [&](Index i) -> Status {
    FXKIT_ASSIGN_OR_RETURN(auto v, checkedIndex(ctx, index.getInt(i), size, dim, false));
    int64_t to = out.offsetOf(alongDim(out, i, dim, v));
    int64_t from = src ? src->offsetOf(i) : 0;
    int64_t iv = src ? src->loadInt(from) : static_cast<int64_t>(std::trunc(value));
    double fv = src ? src->loadDouble(from) : value;
    if (op == Reduce::Assign) {
      if (src)
        copyElement(*src, from, out, to);
      else
        out.storeDouble(to, value);
      return Status::ok();
    }
    auto [it, first] = acc.try_emplace(to);
    if (first && !includeSelf) {
      it->second = {iv, fv, 1};
      return Status::ok();
    }
    if (first)
      it->second = {out.loadInt(to), out.loadDouble(to), 1};
    combine(it->second, op, iv, fv);
    return Status::ok();
  }));
  for (const auto &[to, a] : acc) {
    bool mean = op == Reduce::Mean;
    if (integral)
      out.storeInt(to, mean ? floorDiv(a.i, a.count) : a.i);
    else
      out.storeDouble(to, mean ? a.f / static_cast<double>(a.count) : a.f);
  }
  ctx.result.v = std::move(out);
  return Status::ok();
}

Status scatterKernel(KernelContext &ctx) { return scatterWith(ctx, Reduce::Assign, true); }
Status scatterAddKernel(KernelContext &ctx) { return scatterWith(ctx, Reduce::Sum, true); }
Status scatterReduceKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto op, reduceArg(ctx));
  FXKIT_ASSIGN_OR_RETURN(auto includeSelf, ctx.boolean("include_self"));
  return scatterWith(ctx, op, includeSelf);
}

Status indexSelectKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto index, ctx.tensor("index"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, wrapDim(ctx, "dim", self.dim()));
  if (index.dim() > 1 || !isIndexDType(index.dtype()))
    return ctx.error("index_select(): expected an int64 or int32 index of at most one dim");
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  std::vector<int64_t> values;
  Tensor::forEachIndex(index.sizes(), [&](Index i) { values.push_back(index.getInt(i)); });
  int64_t size = self.dim() == 0 ? 1 : self.size(dim);
  FXKIT_TRY(forEach(out.sizes(), [&](Index i) -> Status {
    size_t pos = self.dim() == 0 ? 0 : static_cast<size_t>(i[dim]);
    int64_t v = pos < values.size() ? values[pos] : -1;
    if (v < 0 || v >= size)
      return ctx.error("index out of range in self");
    copyElement(self, self.offsetOf(alongDim(self, i, dim, v)), out, out.offsetOf(i));
    return Status::ok();
  }));
  ctx.result.v = std::move(out);
  return Status::ok();
}

// ---- Advanced indexing ----

/// The runtime entries of a `Tensor?[]` argument; nullopt for None.
Expected<std::vector<std::optional<Tensor>>> optionalTensors(const KernelContext &ctx,
                                                             std::string_view name) {
  const Argument &a = ctx.args.get(name);
  std::vector<std::optional<Tensor>> out;
  for (const Argument &item : a.items()) {
    if (item.isNone()) {
      out.emplace_back();
      continue;
    }
    const RuntimeValue *v = item.isNode() ? ctx.valueOf(item.asNode()) : nullptr;
    if (!v || !v->tensor())
      return ctx.error("argument '" + std::string(name) +
                       "' holds something that is not a "
                       "tensor at run time");
    out.emplace_back(*v->tensor());
  }
  return out;
}

/// nonzero(mask)'s columns: one int64 index tensor per dim of the mask.
Expected<std::vector<Tensor>> maskIndices(const Tensor &mask) {
  std::vector<std::vector<int64_t>> coords(static_cast<size_t>(mask.dim()));
  Tensor::forEachIndex(mask.sizes(), [&](Index i) {
    if (mask.loadInt(mask.offsetOf(i)) != 0)
      for (size_t d = 0; d < coords.size(); ++d)
        coords[d].push_back(i[d]);
  });
  std::vector<Tensor> out;
  for (const auto &c : coords) {
    FXKIT_ASSIGN_OR_RETURN(auto t, Tensor::zeros(DType::Int64, {static_cast<int64_t>(c.size())}));
    for (size_t k = 0; k < c.size(); ++k)
      t.storeInt(static_cast<int64_t>(k), c[k]);
    out.push_back(std::move(t));
  }
  return out;
}

/// Broadcast of concrete shapes (aligned at the last dim); nullopt when they do not broadcast.
std::optional<std::vector<int64_t>>
broadcastSizes(const std::vector<std::vector<int64_t>> &shapes) {
  size_t rank = 0;
  for (const auto &s : shapes)
    rank = std::max(rank, s.size());
  std::vector<int64_t> out(rank, 1);
  for (const auto &s : shapes)
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t &o = out[rank - s.size() + i];
      if (s[i] != 1 && o != 1 && s[i] != o)
        return std::nullopt;
      if (s[i] != 1)
        o = s[i];
    }
  return out;
}

/// `self[indices]` as AdvancedIndex sees it (masks expanded, index tensors broadcast, the
/// indexed dims moved to the front when they are not adjacent).
struct IndexPlan {
  Tensor self;                              ///< self's dims permuted as described
  std::vector<int64_t> dims;                ///< self's original dim of each dim
  std::vector<std::optional<Tensor>> index; ///< per dim: its index tensor, if indexed
  std::vector<int64_t> replacement;         ///< broadcast shape of the index tensors
  size_t before = 0, count = 0;

  std::vector<int64_t> resultSizes() const {
    std::vector<int64_t> out(self.sizes().begin(), self.sizes().begin() + before);
    out.insert(out.end(), replacement.begin(), replacement.end());
    out.insert(out.end(), self.sizes().begin() + before + count, self.sizes().end());
    return out;
  }

  /// Storage offset in self of the element at result position `r`.
  Expected<int64_t> offsetOf(const KernelContext &ctx, Index r) const {
    int64_t offset = self.storageOffset();
    Index sub = r.subspan(before, replacement.size());
    for (size_t j = 0; j < dims.size(); ++j) {
      int64_t coord;
      if (j < before) {
        coord = r[j];
      } else if (j < before + count) {
        const Tensor &t = *index[j];
        FXKIT_ASSIGN_OR_RETURN(auto v, checkedIndex(ctx, t.loadInt(broadcastOffset(t, sub)),
                                                    self.size(j), dims[j], true));
        coord = v;
      } else {
        coord = r[j - count + replacement.size()];
      }
      offset += coord * self.stride(j);
    }
    return offset;
  }
};

/// checkIndexTensorTypes and expandTensors at run time: masks become their nonzero columns.
Expected<std::vector<std::optional<Tensor>>>
expandMasks(const KernelContext &ctx, const Tensor &self,
            const std::vector<std::optional<Tensor>> &raw) {
  std::vector<std::optional<Tensor>> out;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (!raw[i] || isIndexDType(raw[i]->dtype())) {
      out.push_back(raw[i]);
      continue;
    }
    const Tensor &mask = *raw[i];
    if (!isMaskDType(mask.dtype()))
      return ctx.error("tensors used as indices must be long, int, byte or bool tensors");
    size_t k = out.size();
    bool fits = k + mask.dim() <= static_cast<size_t>(self.dim());
    for (int64_t j = 0; fits && j < mask.dim(); ++j)
      fits = mask.size(j) == self.size(k + j);
    if (!fits)
      return ctx.error("The shape of the mask " + sizesStr(mask.sizes()) + " at index " +
                       std::to_string(i) + " does not match the shape of the indexed tensor " +
                       sizesStr(self.sizes()));
    FXKIT_ASSIGN_OR_RETURN(auto columns, maskIndices(mask));
    out.insert(out.end(), columns.begin(), columns.end());
  }
  if (out.size() > static_cast<size_t>(self.dim()))
    return ctx.error("too many indices for tensor of dimension " + std::to_string(self.dim()) +
                     " (got " + std::to_string(out.size()) + ")");
  return out;
}

Expected<IndexPlan> planIndex(const KernelContext &ctx, const Tensor &self,
                              const std::vector<std::optional<Tensor>> &raw) {
  if (raw.empty())
    return ctx.error("at least one index must be provided");
  FXKIT_ASSIGN_OR_RETURN(auto indices, expandMasks(ctx, self, raw));
  indices.resize(static_cast<size_t>(self.dim()));
  std::vector<std::vector<int64_t>> shapes;
  std::vector<size_t> indexed, plain;
  for (size_t i = 0; i < indices.size(); ++i) {
    (indices[i] ? indexed : plain).push_back(i);
    if (indices[i])
      shapes.push_back(indices[i]->sizes());
  }
  auto replacement = broadcastSizes(shapes);
  if (!replacement)
    return ctx.error("shape mismatch: indexing tensors could not be broadcast together");
  IndexPlan plan;
  plan.replacement = *replacement;
  plan.count = indexed.size();
  bool adjacent = indexed.empty() || indexed.back() - indexed.front() + 1 == indexed.size();
  std::vector<int64_t> sizes, strides;
  for (size_t i = 0; i < indices.size(); ++i)
    plan.dims.push_back(static_cast<int64_t>(i));
  if (!adjacent) {
    plan.dims.assign(indexed.begin(), indexed.end());
    plan.dims.insert(plan.dims.end(), plain.begin(), plain.end());
  }
  for (int64_t d : plan.dims) {
    sizes.push_back(self.size(d));
    strides.push_back(self.stride(d));
    plan.index.push_back(indices[d]);
  }
  plan.before = indexed.empty() ? indices.size() : (adjacent ? indexed.front() : 0);
  auto view = self.asStrided(sizes, strides, self.storageOffset());
  if (!view)
    return ctx.error(view.error().message);
  plan.self = view.take();
  return plan;
}

Status indexKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto raw, optionalTensors(ctx, "indices"));
  FXKIT_ASSIGN_OR_RETURN(auto plan, planIndex(ctx, self, raw));
  std::vector<int64_t> sizes = plan.resultSizes();
  FXKIT_ASSIGN_OR_RETURN(auto out, allocateResult(ctx, sizes));
  FXKIT_TRY(forEach(sizes, [&](Index r) -> Status {
    FXKIT_ASSIGN_OR_RETURN(auto from, plan.offsetOf(ctx, r));
    copyElement(plan.self, from, out, out.offsetOf(r));
    return Status::ok();
  }));
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// index_put (on a copy of self) and index_put_ (on self itself, which it returns). Repeated
/// positions: accumulate adds every value, otherwise the last one stays (CPU order).
Status indexPutKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto raw, optionalTensors(ctx, "indices"));
  FXKIT_ASSIGN_OR_RETURN(auto values, ctx.tensor("values"));
  FXKIT_ASSIGN_OR_RETURN(auto accumulate, ctx.boolean("accumulate"));
  if (values.dtype() != self.dtype())
    return ctx.error("Index put requires the source and destination dtypes match");
  Tensor target = self;
  if (ctx.args.op().schema.name != "index_put_") {
    FXKIT_ASSIGN_OR_RETURN(auto copy, copyOfSelf(ctx, self));
    target = std::move(copy);
  }
  FXKIT_ASSIGN_OR_RETURN(auto plan, planIndex(ctx, target, raw));
  std::vector<int64_t> sizes = plan.resultSizes();
  if (!broadcastsTo(values, sizes))
    return ctx.error("shape mismatch: value tensor of shape " + sizesStr(values.sizes()) +
                     " cannot be broadcast to indexing result of shape " + sizesStr(sizes));
  bool integral = !dtypeIsFloating(target.dtype());
  FXKIT_TRY(forEach(sizes, [&](Index r) -> Status {
    FXKIT_ASSIGN_OR_RETURN(auto to, plan.offsetOf(ctx, r));
    int64_t from = broadcastOffset(values, r);
    if (!accumulate)
      copyElement(values, from, target, to);
    else if (integral)
      target.storeInt(to, wrapping(static_cast<uint64_t>(target.loadInt(to)) +
                                   static_cast<uint64_t>(values.loadInt(from))));
    else
      target.storeDouble(to, target.loadDouble(to) + values.loadDouble(from));
    return Status::ok();
  }));
  ctx.result.v = std::move(target);
  return Status::ok();
}

// ---- *_scatter, masked_scatter, embedding_dense_backward ----

/// as_strided_scatter: a copy of self whose as_strided view (positions in the copy's storage,
/// which starts where self's does: storage_offset counts from the start of self's storage, as
/// in PyTorch's clone_preserve_strides) takes src's elements, in src's row-major order.
Status asStridedScatterKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto src, ctx.tensor("src"));
  FXKIT_ASSIGN_OR_RETURN(auto size, ctx.intList("size"));
  FXKIT_ASSIGN_OR_RETURN(auto stride, ctx.intList("stride"));
  FXKIT_ASSIGN_OR_RETURN(auto offset, ctx.optionalInteger("storage_offset"));
  if (size.size() != stride.size())
    return ctx.error("mismatch in length of strides and shape");
  if (src.sizes() != size)
    return ctx.error("expected src to have a size equal to the slice of self. src size = " +
                     sizesStr(src.sizes()) + ", slice size = " + sizesStr(size));
  FXKIT_ASSIGN_OR_RETURN(auto out, copyOfSelf(ctx, self));
  // The copy's first element is self's: the view's offset relative to it.
  const int64_t at = (offset ? *offset : self.storageOffset()) - self.storageOffset();
  if (at < 0)
    return ctx.error("as_strided_scatter: a storage offset of " + std::to_string(*offset) +
                     " before self's first element (at storage offset " +
                     std::to_string(self.storageOffset()) + ") is not supported");
  auto view = out.asStrided(size, stride, out.storageOffset() + at);
  if (!view)
    return ctx.error(view.error().message);
  view->copyElementsFrom(src);
  ctx.result.v = std::move(out);
  return Status::ok();
}

Status sliceScatterKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto src, ctx.tensor("src"));
  if (self.dim() == 0)
    return ctx.error("slice() cannot be applied to a 0-dim tensor.");
  FXKIT_ASSIGN_OR_RETURN(auto dim, wrapDim(ctx, "dim", self.dim()));
  FXKIT_ASSIGN_OR_RETURN(auto start, ctx.optionalInteger("start"));
  FXKIT_ASSIGN_OR_RETURN(auto end, ctx.optionalInteger("end"));
  FXKIT_ASSIGN_OR_RETURN(auto step, ctx.integer("step"));
  auto bound = [](std::optional<int64_t> v) {
    return v ? std::optional<SymExpr>(SymExpr(*v)) : std::nullopt;
  };
  auto bounds = sliceBounds(SymExpr(self.size(dim)), bound(start), bound(end), step);
  if (!bounds)
    return ctx.error(bounds.error().message);
  std::vector<int64_t> slice = self.sizes();
  slice[dim] = bounds->size.constant();
  if (src.sizes() != slice)
    return ctx.error("slice_scatter: expected src to have a size equal to the slice of self. src "
                     "size = " +
                     sizesStr(src.sizes()) + ", slice size = " + sizesStr(slice));
  FXKIT_ASSIGN_OR_RETURN(auto out, copyOfSelf(ctx, self));
  int64_t first = bounds->start.constant();
  Tensor::forEachIndex(src.sizes(), [&](Index i) {
    copyElement(src, src.offsetOf(i), out,
                out.offsetOf(alongDim(out, i, dim, first + i[dim] * step)));
  });
  ctx.result.v = std::move(out);
  return Status::ok();
}

Status selectScatterKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto src, ctx.tensor("src"));
  if (self.dim() == 0)
    return ctx.error("select() cannot be applied to a 0-dim tensor.");
  FXKIT_ASSIGN_OR_RETURN(auto dim, wrapDim(ctx, "dim", self.dim()));
  FXKIT_ASSIGN_OR_RETURN(auto index, ctx.integer("index"));
  int64_t size = self.size(dim);
  if (index < -size || index >= size)
    return ctx.error("select(): index " + std::to_string(index) +
                     " out of range for tensor of size " + sizesStr(self.sizes()) +
                     " at dimension " + std::to_string(dim));
  std::vector<int64_t> slice = self.sizes();
  slice.erase(slice.begin() + dim);
  if (src.sizes() != slice)
    return ctx.error("select_scatter: expected src to have a size equal to the slice of self. "
                     "src size = " +
                     sizesStr(src.sizes()) + ", slice size = " + sizesStr(slice));
  FXKIT_ASSIGN_OR_RETURN(auto out, copyOfSelf(ctx, self));
  std::vector<int64_t> at(static_cast<size_t>(self.dim()));
  Tensor::forEachIndex(src.sizes(), [&](Index i) {
    std::copy(i.begin(), i.begin() + dim, at.begin());
    at[dim] = index < 0 ? index + size : index;
    std::copy(i.begin() + dim, i.end(), at.begin() + dim + 1);
    copyElement(src, src.offsetOf(i), out, out.offsetOf(at));
  });
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// diagonal_scatter: element (others..., k) of src into self's diagonal position k (dim1 at
/// k + max(-offset, 0), dim2 at k + max(offset, 0); the other dims in order).
Status diagonalScatterKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto src, ctx.tensor("src"));
  FXKIT_ASSIGN_OR_RETURN(auto offset, ctx.integer("offset"));
  if (self.dim() < 2)
    return ctx.error("diagonal expects a tensor of at least 2 dimensions");
  FXKIT_ASSIGN_OR_RETURN(auto dim1, wrapDim(ctx, "dim1", self.dim()));
  FXKIT_ASSIGN_OR_RETURN(auto dim2, wrapDim(ctx, "dim2", self.dim()));
  if (dim1 == dim2)
    return ctx.error("diagonal dimensions cannot be identical");
  std::vector<int64_t> slice;
  for (int64_t i = 0; i < self.dim(); ++i)
    if (i != dim1 && i != dim2)
      slice.push_back(self.size(i));
  slice.push_back(
      diagonalSize(SymExpr(self.size(dim1)), SymExpr(self.size(dim2)), offset)->constant());
  if (src.sizes() != slice)
    return ctx.error("diagonal_scatter: expected src to have a size equal to the slice of self. "
                     "src size = " +
                     sizesStr(src.sizes()) + ", slice size = " + sizesStr(slice));
  FXKIT_ASSIGN_OR_RETURN(auto out, copyOfSelf(ctx, self));
  std::vector<int64_t> at(static_cast<size_t>(self.dim()));
  Tensor::forEachIndex(src.sizes(), [&](Index i) {
    size_t next = 0;
    for (int64_t d = 0; d < self.dim(); ++d)
      if (d != dim1 && d != dim2)
        at[static_cast<size_t>(d)] = i[next++];
    const int64_t k = i[next];
    at[static_cast<size_t>(dim1)] = k + std::max<int64_t>(-offset, 0);
    at[static_cast<size_t>(dim2)] = k + std::max<int64_t>(offset, 0);
    copyElement(src, src.offsetOf(i), out, out.offsetOf(at));
  });
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// masked_scatter: self and mask broadcast; where the mask is set, the next element of source
/// (in row-major order) replaces self's.
Status maskedScatterKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto mask, ctx.tensor("mask"));
  FXKIT_ASSIGN_OR_RETURN(auto source, ctx.tensor("source"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  if (!broadcastsTo(self, out.sizes()) || !broadcastsTo(mask, out.sizes()) ||
      !isMaskDType(mask.dtype()) || source.dtype() != self.dtype())
    return ctx.error("masked_scatter: self " + sizesStr(self.sizes()) + " and mask " +
                     sizesStr(mask.sizes()) + " must broadcast to " + sizesStr(out.sizes()) +
                     ", with a bool mask and a source of self's dtype");
  std::vector<int64_t> sourceOffsets;
  Tensor::forEachIndex(source.sizes(),
                       [&](Index i) { sourceOffsets.push_back(source.offsetOf(i)); });
  size_t next = 0;
  FXKIT_TRY(forEach(out.sizes(), [&](Index i) -> Status {
    int64_t to = out.offsetOf(i);
    if (mask.loadInt(broadcastOffset(mask, i)) == 0) {
      copyElement(self, broadcastOffset(self, i), out, to);
      return Status::ok();
    }
    if (next >= sourceOffsets.size())
      return ctx.error("Number of elements of source < number of ones in mask");
    copyElement(source, sourceOffsets[next++], out, to);
    return Status::ok();
  }));
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// embedding_dense_backward: grad_output taken as (indices.numel(), D) rows, each added to the
/// weight row its index names (rows equal to padding_idx are skipped; scale_grad_by_freq
/// divides each by how often its index occurs). Sums are in double, rounded once.
Status embeddingDenseBackwardKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto grad, ctx.tensor("grad_output"));
  FXKIT_ASSIGN_OR_RETURN(auto indices, ctx.tensor("indices"));
  FXKIT_ASSIGN_OR_RETURN(auto numWeights, ctx.integer("num_weights"));
  FXKIT_ASSIGN_OR_RETURN(auto paddingIdx, ctx.integer("padding_idx"));
  FXKIT_ASSIGN_OR_RETURN(auto scale, ctx.boolean("scale_grad_by_freq"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  int64_t width = grad.dim() == 0 ? 0 : grad.size(grad.dim() - 1);
  if (!isIndexDType(indices.dtype()) || grad.numel() != indices.numel() * width)
    return ctx.error("embedding_dense_backward: grad_output " + sizesStr(grad.sizes()) +
                     " must hold one row per index of " + sizesStr(indices.sizes()) +
                     " (int64 or int32)");
  std::vector<int64_t> rows;
  Tensor::forEachIndex(indices.sizes(), [&](Index i) { rows.push_back(indices.getInt(i)); });
  std::vector<int64_t> counts(static_cast<size_t>(std::max<int64_t>(numWeights, 0)), 0);
  for (int64_t r : rows) {
    if (r == paddingIdx)
      continue;
    if (r < 0 || r >= numWeights)
      return ctx.error("embedding_dense_backward: index " + std::to_string(r) +
                       " is out of range for " + std::to_string(numWeights) + " weights");
    ++counts[r];
  }
  std::vector<double> sums(counts.size() * static_cast<size_t>(width), 0.0);
  int64_t element = 0;
  Tensor::forEachIndex(grad.sizes(), [&](Index i) {
    int64_t r = rows[element / width], col = element % width;
    ++element;
    if (r == paddingIdx)
      return;
    double v = grad.getDouble(i);
    sums[r * width + col] += scale ? v / static_cast<double>(counts[r]) : v;
  });
  Tensor::forEachIndex(
      out.sizes(), [&](Index i) { out.storeDouble(out.offsetOf(i), sums[i[0] * width + i[1]]); });
  ctx.result.v = std::move(out);
  return Status::ok();
}

// ---- Padding, flip, repeat, nonzero ----

/// A result whose element at each position is self's element at `source(position)`, or
/// `fill` where source says none (nullopt); errors stop it.
template <typename SourceFn>
Status fillFrom(KernelContext &ctx, const Tensor &self, Tensor &out, SourceFn source,
                double fill = 0) {
  std::vector<int64_t> from(static_cast<size_t>(self.dim()));
  FXKIT_TRY(forEach(out.sizes(), [&](Index i) -> Status {
    FXKIT_ASSIGN_OR_RETURN(auto inside, source(i, from));
    if (inside)
      copyElement(self, self.offsetOf(from), out, out.offsetOf(i));
    else
      out.storeDouble(out.offsetOf(i), fill);
    return Status::ok();
  }));
  ctx.result.v = std::move(out);
  return Status::ok();
}

Status constantPadNdKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto pad, ctx.intList("pad"));
  FXKIT_ASSIGN_OR_RETURN(auto value, ctx.scalar("value"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  size_t rank = static_cast<size_t>(self.dim());
  if (pad.size() % 2 || pad.size() / 2 > rank || out.dim() != self.dim())
    return ctx.error("pad of " + std::to_string(pad.size()) + " entries for a tensor of rank " +
                     std::to_string(rank));
  size_t lead = rank - pad.size() / 2;
  return fillFrom(
      ctx, self, out,
      [&](Index i, std::vector<int64_t> &from) -> Expected<bool> {
        bool inside = true;
        for (size_t d = 0; d < rank; ++d) {
          from[d] = d < lead ? i[d] : i[d] - pad[2 * (rank - d - 1)];
          inside = inside && from[d] >= 0 && from[d] < self.size(d);
        }
        return inside;
      },
      value);
}

/// reflection_pad{1,2,3}d (mirror without repeating the edge) and replication_pad{1,2,3}d
/// (repeat the edge), over the last Dims dims; negative padding crops.
template <int Dims, bool Reflection> Status padKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto padding, ctx.intList("padding"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  int64_t rank = self.dim();
  if (padding.size() != 2 * Dims || rank < Dims + 1 || rank > Dims + 2 || out.dim() != rank)
    return ctx.error("padding " + sizesStr(padding) + " does not fit input " +
                     sizesStr(self.sizes()));
  return fillFrom(ctx, self, out, [&](Index i, std::vector<int64_t> &from) -> Expected<bool> {
    std::copy(i.begin(), i.end(), from.begin());
    for (int j = 0; j < Dims; ++j) {
      int64_t d = rank - 1 - j, in = self.size(d), k = i[d] - padding[2 * j];
      k = Reflection ? in - 1 - std::abs(in - 1 - std::abs(k)) : std::clamp<int64_t>(k, 0, in - 1);
      if (k < 0 || k >= in)
        return ctx.error("padding " + sizesStr(padding) + " is too large for input " +
                         sizesStr(self.sizes()));
      from[d] = k;
    }
    return true;
  });
}

Status flipKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dims, ctx.intList("dims"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  std::vector<bool> flipped(static_cast<size_t>(std::max<int64_t>(self.dim(), 1)), false);
  for (int64_t dim : dims) {
    auto d = normalizeDim(dim, static_cast<size_t>(self.dim()));
    if (!d)
      return ctx.error(d.error().message);
    flipped[*d] = true;
  }
  return fillFrom(ctx, self, out, [&](Index i, std::vector<int64_t> &from) -> Expected<bool> {
    for (size_t d = 0; d < from.size(); ++d)
      from[d] = flipped[d] ? self.size(d) - 1 - i[d] : i[d];
    return true;
  });
}

Status repeatKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  if (out.dim() < self.dim())
    return ctx.error("repeat: fewer repeats than dims");
  size_t lead = static_cast<size_t>(out.dim() - self.dim());
  return fillFrom(ctx, self, out, [&](Index i, std::vector<int64_t> &from) -> Expected<bool> {
    for (size_t d = 0; d < from.size(); ++d)
      from[d] = i[lead + d] % self.size(d);
    return true;
  });
}

/// nonzero: the coordinates of the nonzero elements (NaN counts), one row each in row-major
/// order, in the (1, n) strides inference gave.
Status nonzeroKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  bool integral = !dtypeIsFloating(self.dtype());
  std::vector<int64_t> coords;
  int64_t count = 0;
  Tensor::forEachIndex(self.sizes(), [&](Index i) {
    int64_t at = self.offsetOf(i);
    if (integral ? self.loadInt(at) != 0 : self.loadDouble(at) != 0) {
      coords.insert(coords.end(), i.begin(), i.end());
      ++count;
    }
  });
  FXKIT_ASSIGN_OR_RETURN(auto out, allocateResult(ctx, {count, self.dim()}));
  for (int64_t k = 0; k < count; ++k)
    for (int64_t d = 0; d < self.dim(); ++d)
      out.storeInt(k * out.stride(0) + d * out.stride(1), coords[k * self.dim() + d]);
  ctx.result.v = std::move(out);
  return Status::ok();
}

} // namespace
} // namespace indexing_kernels

void registerIndexingKernels() {
  using namespace indexing_kernels;
  static const std::pair<std::string_view, KernelFn> table[] = {
      {"torch.ops.aten.gather.default", gatherKernel},
      {"torch.ops.aten.index.Tensor", indexKernel},
      {"torch.ops.aten.index_put.default", indexPutKernel},
      {"torch.ops.aten.index_put_.default", indexPutKernel},
      {"torch.ops.aten.slice_scatter.default", sliceScatterKernel},
      {"torch.ops.aten.as_strided_scatter.default", asStridedScatterKernel},
      {"torch.ops.aten.select_scatter.default", selectScatterKernel},
      {"torch.ops.aten.diagonal_scatter.default", diagonalScatterKernel},
      {"torch.ops.aten.constant_pad_nd.default", constantPadNdKernel},
      {"torch.ops.aten.index_select.default", indexSelectKernel},
      {"torch.ops.aten.scatter.src", scatterKernel},
      {"torch.ops.aten.scatter.value", scatterKernel},
      {"torch.ops.aten.scatter_add.default", scatterAddKernel},
      {"torch.ops.aten.scatter_reduce.two", scatterReduceKernel},
      {"torch.ops.aten.masked_scatter.default", maskedScatterKernel},
      {"torch.ops.aten.embedding_dense_backward.default", embeddingDenseBackwardKernel},
      {"torch.ops.aten.flip.default", flipKernel},
      {"torch.ops.aten.repeat.default", repeatKernel},
      {"torch.ops.aten.reflection_pad1d.default", padKernel<1, true>},
      {"torch.ops.aten.reflection_pad2d.default", padKernel<2, true>},
      {"torch.ops.aten.reflection_pad3d.default", padKernel<3, true>},
      {"torch.ops.aten.replication_pad1d.default", padKernel<1, false>},
      {"torch.ops.aten.replication_pad2d.default", padKernel<2, false>},
      {"torch.ops.aten.replication_pad3d.default", padKernel<3, false>},
      {"torch.ops.aten.nonzero.default", nonzeroKernel},
  };
  kernels::registerKernelList(table);
}

} // namespace fxkit
