#include "backends/interp/ViewKernels.h"
#include "backends/interp/KernelSupport.h"
#include "ir/ops/ShapeRules.h"

#include <algorithm>
#include <cstring>

namespace fxkit {
namespace view_kernels {

namespace {

using kernels::sizesStr;

/// Sizes, strides and storage offset of a view: every view kernel computes one from its
/// arguments, and viewKernel turns it into a tensor sharing the input's storage.
struct Geometry {
  std::vector<int64_t> sizes, strides;
  int64_t offset = 0;
};

Geometry geometryOf(const Tensor &t) { return {t.sizes(), t.strides(), t.storageOffset()}; }

using GeometryFn = Expected<Geometry> (*)(const KernelContext &ctx, const Tensor &self);

/// `dim` wrapped into [0, rank) (a 0-d tensor accepts 0 and -1); errors name the node.
Expected<int64_t> wrapDim(const KernelContext &ctx, int64_t dim, int64_t rank) {
  auto d = normalizeDim(dim, static_cast<size_t>(rank));
  if (!d)
    return ctx.error(d.error().message);
  return *d;
}

/// Integer argument `name`, wrapped as a dim of self (which must not be 0-d).
Expected<int64_t> dimArg(const KernelContext &ctx, const Tensor &self, std::string_view name) {
  FXKIT_ASSIGN_OR_RETURN(auto dim, ctx.integer(name));
  if (self.dim() == 0)
    return ctx.error("dimension specified as " + std::to_string(dim) + " but the tensor is 0-d");
  return wrapDim(ctx, dim, self.dim());
}

/// A view of the input `self`: the geometry `fn` computes, on self's storage.
template <GeometryFn fn> Status viewKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto g, fn(ctx, self));
  auto view = self.asStrided(std::move(g.sizes), std::move(g.strides), g.offset);
  if (!view)
    return ctx.error(view.error().message);
  ctx.result.v = view.take();
  return Status::ok();
}

/// view.dtype: self's storage bytes read as `dtype` (inference checked the sizes and strides;
/// the storage offset, which types do not carry, is checked here as view_dtype does).
Status viewDtypeKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dtype, ctx.args.dtype("dtype"));
  if (!dtype)
    return ctx.error("dtype must not be None");
  const int64_t from = dtypeItemSize(self.dtype()), to = dtypeItemSize(*dtype);
  int64_t offset = self.storageOffset() * from;
  if (offset % to != 0)
    return ctx.error("self.storage_offset() must be divisible by " + std::to_string(to / from) +
                     " to view " + std::string(dtypeScalarTypeName(self.dtype())) + " as " +
                     std::string(dtypeScalarTypeName(*dtype)) +
                     " (different element sizes), but got " + std::to_string(self.storageOffset()));
  std::vector<int64_t> sizes = self.sizes(), strides = self.strides();
  if (from != to && !sizes.empty()) {
    sizes.back() = sizes.back() * from / to;
    for (size_t d = 0; d + 1 < strides.size(); ++d)
      strides[d] = strides[d] * from / to;
  }
  auto view = self.reinterpretAs(*dtype, std::move(sizes), std::move(strides), offset / to);
  if (!view)
    return ctx.error(view.error().message);
  ctx.result.v = view.take();
  return Status::ok();
}

/// Storage offsets of a tensor's elements in row-major order of its sizes, one at a time (an
/// odometer over the index): copies need no table of offsets, which for a 1 GiB clone was
/// 16 bytes per element.
class RowMajorWalk {
public:
  explicit RowMajorWalk(const Tensor &t)
      : sizes_(t.sizes()), strides_(t.strides()), index_(t.sizes().size(), 0),
        offset_(t.storageOffset()) {}
  int64_t offset() const { return offset_; }
  void next() {
    for (size_t d = index_.size(); d-- > 0;) {
      if (++index_[d] < sizes_[d]) {
        offset_ += strides_[d];
        return;
      }
      offset_ -= (sizes_[d] - 1) * strides_[d];
      index_[d] = 0;
    }
  }

private:
  const std::vector<int64_t> &sizes_, &strides_;
  std::vector<int64_t> index_;
  int64_t offset_;
};

/// Copies src's elements into dst (as many elements) pairing them in row-major order of each
/// one's sizes. The same dtype copies bytes (exact for every dtype, NaN payloads included);
/// cat's type promotion converts through int64 between integer dtypes and through double
/// otherwise.
void copyElements(const Tensor &src, Tensor &dst) {
  bool bothIntegral = !dtypeIsFloating(src.dtype()) && !dtypeIsFloating(dst.dtype());
  bool sameType = src.dtype() == dst.dtype();
  size_t item = static_cast<size_t>(src.itemSize());
  int64_t count = std::min(src.numel(), dst.numel());
  RowMajorWalk from(src), to(dst);
  for (int64_t i = 0; i < count; ++i, from.next(), to.next()) {
    if (sameType)
      std::memcpy(dst.storage()->data() + to.offset() * static_cast<int64_t>(item),
                  src.storage()->data() + from.offset() * static_cast<int64_t>(item), item);
    else if (bothIntegral)
      dst.storeInt(to.offset(), src.loadInt(from.offset()));
    else
      dst.storeDouble(to.offset(), src.loadDouble(from.offset()));
  }
}

// ---- Geometries ----

/// at::infer_size: resolves one -1 against self's element count, which the sizes must match.
Expected<std::vector<int64_t>> resolveSizes(const KernelContext &ctx, const Tensor &self,
                                            std::vector<int64_t> sizes) {
  int64_t known = 1;
  std::optional<size_t> inferred;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1 && !inferred)
      inferred = i;
    else if (sizes[i] < 0)
      return ctx.error("invalid shape " + sizesStr(sizes));
    else
      known *= sizes[i];
  }
  int64_t numel = self.numel();
  // -1 next to a 0 could be any value; otherwise it must divide evenly.
  bool ok = inferred ? known != 0 && numel % known == 0 : known == numel;
  if (!ok)
    return ctx.error("shape " + sizesStr(sizes) + " is invalid for an input of " +
                     std::to_string(numel) + " elements " + sizesStr(self.sizes()));
  if (inferred)
    sizes[*inferred] = numel / known;
  return sizes;
}

/// at::detail::computeStride on concrete sizes (the inference rule's own implementation, so
/// kernel and inference cannot disagree); nullopt when the view needs a copy.
std::optional<std::vector<int64_t>> viewStridesOf(const Tensor &self,
                                                  const std::vector<int64_t> &sizes) {
  auto sym = [](const std::vector<int64_t> &v) { return std::vector<SymExpr>(v.begin(), v.end()); };
  auto strides = viewStrides(sym(self.sizes()), sym(self.strides()), sym(sizes));
  if (!strides)
    return std::nullopt;
  std::vector<int64_t> out;
  for (const SymExpr &s : *strides)
    out.push_back(s.constant());
  return out;
}

/// view, _unsafe_view: sizes with one -1, on strides computeStride allows.
Expected<Geometry> viewGeometry(const KernelContext &ctx, const Tensor &self) {
  FXKIT_ASSIGN_OR_RETURN(auto requested, ctx.intList("size"));
  FXKIT_ASSIGN_OR_RETURN(auto sizes, resolveSizes(ctx, self, std::move(requested)));
  auto strides = viewStridesOf(self, sizes);
  if (!strides)
    return ctx.error("view size " + sizesStr(sizes) + " is not compatible with the input's sizes " +
                     sizesStr(self.sizes()) + " and strides " + sizesStr(self.strides()) +
                     "; use reshape");
  return Geometry{sizes, std::move(*strides), self.storageOffset()};
}

Expected<Geometry> permuteGeometry(const KernelContext &ctx, const Tensor &self) {
  FXKIT_ASSIGN_OR_RETURN(auto dims, ctx.intList("dims"));
  if (static_cast<int64_t>(dims.size()) != self.dim())
    return ctx.error("permutation of " + std::to_string(dims.size()) + " dims for a tensor of " +
                     std::to_string(self.dim()) + " dims");
  Geometry g = geometryOf(self);
  std::vector<bool> seen(dims.size(), false);
  for (size_t i = 0; i < dims.size(); ++i) {
    FXKIT_ASSIGN_OR_RETURN(auto d, wrapDim(ctx, dims[i], self.dim()));
    if (seen[d])
      return ctx.error("dim " + std::to_string(d) + " repeats in permutation " + sizesStr(dims));
    seen[d] = true;
    g.sizes[i] = self.size(d);
    g.strides[i] = self.stride(d);
  }
  return g;
}

/// expand: -1 keeps a size; new leading dims and stretched size-1 dims get stride 0.
Expected<Geometry> expandGeometry(const KernelContext &ctx, const Tensor &self) {
  FXKIT_ASSIGN_OR_RETURN(auto sizes, ctx.intList("size"));
  int64_t lead = static_cast<int64_t>(sizes.size()) - self.dim();
  if (lead < 0)
    return ctx.error("cannot expand " + sizesStr(self.sizes()) + " to " + sizesStr(sizes) +
                     ": fewer dimensions");
  Geometry g{sizes, std::vector<int64_t>(sizes.size(), 0), self.storageOffset()};
  for (int64_t i = 0; i < static_cast<int64_t>(sizes.size()); ++i) {
    int64_t old = i < lead ? 1 : self.size(i - lead);
    bool keep = i >= lead && (sizes[i] == -1 || sizes[i] == old);
    if (keep) {
      g.sizes[i] = old;
      g.strides[i] = self.stride(i - lead);
    } else if (sizes[i] < 0 || old != 1) {
      return ctx.error("cannot expand " + sizesStr(self.sizes()) + " to " + sizesStr(sizes) +
                       " at dimension " + std::to_string(i));
    }
  }
  return g;
}

Expected<Geometry> unsqueezeGeometry(const KernelContext &ctx, const Tensor &self) {
  FXKIT_ASSIGN_OR_RETURN(auto dim, ctx.integer("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto d, wrapDim(ctx, dim, self.dim() + 1));
  // The new dim's stride makes it contiguous with the dim it precedes (as in PyTorch).
  int64_t stride = d >= self.dim() ? 1 : self.size(d) * self.stride(d);
  Geometry g = geometryOf(self);
  g.sizes.insert(g.sizes.begin() + d, 1);
  g.strides.insert(g.strides.begin() + d, stride);
  return g;
}

/// Drops the size-1 dims among `dims` (others stay, as in PyTorch).
Expected<Geometry> squeezeGeometryOf(const KernelContext &ctx, const Tensor &self,
                                     const std::vector<int64_t> &dims) {
  std::vector<bool> drop(self.dim(), false);
  for (int64_t dim : dims) {
    FXKIT_ASSIGN_OR_RETURN(auto d, wrapDim(ctx, dim, self.dim()));
    if (self.dim() > 0 && self.size(d) == 1)
      drop[d] = true;
  }
  Geometry g{{}, {}, self.storageOffset()};
  for (int64_t d = 0; d < self.dim(); ++d)
    if (!drop[d]) {
      g.sizes.push_back(self.size(d));
      g.strides.push_back(self.stride(d));
    }
  return g;
}

Expected<Geometry> squeezeDimGeometry(const KernelContext &ctx, const Tensor &self) {
  FXKIT_ASSIGN_OR_RETURN(auto dim, ctx.integer("dim"));
  return squeezeGeometryOf(ctx, self, {dim});
}

Expected<Geometry> squeezeDimsGeometry(const KernelContext &ctx, const Tensor &self) {
  FXKIT_ASSIGN_OR_RETURN(auto dims, ctx.intList("dim"));
  return squeezeGeometryOf(ctx, self, dims);
}

Expected<Geometry> squeezeAllGeometry(const KernelContext &ctx, const Tensor &self) {
  std::vector<int64_t> dims(self.dim());
  for (int64_t d = 0; d < self.dim(); ++d)
    dims[d] = d;
  return squeezeGeometryOf(ctx, self, dims);
}

Expected<Geometry> selectGeometry(const KernelContext &ctx, const Tensor &self) {
  FXKIT_ASSIGN_OR_RETURN(auto d, dimArg(ctx, self, "dim"));
  FXKIT_ASSIGN_OR_RETURN(auto index, ctx.integer("index"));
  int64_t size = self.size(d);
  if (index < -size || index >= size)
    return ctx.error("select index " + std::to_string(index) + " out of range for dimension " +
                     std::to_string(d) + " of size " + std::to_string(size));
  Geometry g = geometryOf(self);
  g.offset += (index < 0 ? index + size : index) * self.stride(d);
  g.sizes.erase(g.sizes.begin() + d);
  g.strides.erase(g.strides.begin() + d);
  return g;
}

Expected<Geometry> sliceGeometry(const KernelContext &ctx, const Tensor &self) {
  FXKIT_ASSIGN_OR_RETURN(auto d, dimArg(ctx, self, "dim"));
  FXKIT_ASSIGN_OR_RETURN(auto start, ctx.optionalInteger("start"));
  FXKIT_ASSIGN_OR_RETURN(auto end, ctx.optionalInteger("end"));
  FXKIT_ASSIGN_OR_RETURN(auto step, ctx.integer("step"));
  auto asSym = [](std::optional<int64_t> v) {
    return v ? std::optional<SymExpr>(SymExpr(*v)) : std::nullopt;
  };
  auto bounds = sliceBounds(SymExpr(self.size(d)), asSym(start), asSym(end), step);
  if (!bounds)
    return ctx.error(bounds.error().message);
  Geometry g = geometryOf(self);
  g.offset += bounds->start.constant() * self.stride(d);
  g.sizes[d] = bounds->size.constant();
  g.strides[d] = self.stride(d) * step;
  return g;
}

Expected<Geometry> aliasGeometry(const KernelContext &, const Tensor &self) {
  return geometryOf(self);
}

/// transpose.int and t.default: two dims swap sizes and strides (t: a matrix's 0 and 1).
Expected<Geometry> transposeGeometry(const KernelContext &ctx, const Tensor &self) {
  Geometry g = geometryOf(self);
  if (self.dim() == 0)
    return g;
  int64_t dim0 = 0, dim1 = 1;
  if (ctx.args.op().schema.name == "transpose") {
    FXKIT_ASSIGN_OR_RETURN(auto a, ctx.integer("dim0"));
    FXKIT_ASSIGN_OR_RETURN(auto b, ctx.integer("dim1"));
    dim0 = a;
    dim1 = b;
  } else if (self.dim() < 2) {
    return g;
  }
  FXKIT_ASSIGN_OR_RETURN(auto d0, wrapDim(ctx, dim0, self.dim()));
  FXKIT_ASSIGN_OR_RETURN(auto d1, wrapDim(ctx, dim1, self.dim()));
  std::swap(g.sizes[d0], g.sizes[d1]);
  std::swap(g.strides[d0], g.strides[d1]);
  return g;
}

/// diagonal: dims dim1 and dim2 become one trailing dim stepping along both.
Expected<Geometry> diagonalGeometry(const KernelContext &ctx, const Tensor &self) {
  FXKIT_ASSIGN_OR_RETURN(auto offset, ctx.integer("offset"));
  FXKIT_ASSIGN_OR_RETURN(auto dim1, ctx.integer("dim1"));
  FXKIT_ASSIGN_OR_RETURN(auto dim2, ctx.integer("dim2"));
  FXKIT_ASSIGN_OR_RETURN(auto d1, wrapDim(ctx, dim1, self.dim()));
  FXKIT_ASSIGN_OR_RETURN(auto d2, wrapDim(ctx, dim2, self.dim()));
  auto n = diagonalSize(SymExpr(self.size(d1)), SymExpr(self.size(d2)), offset);
  if (!n || d1 == d2)
    return ctx.error(n ? "diagonal dimensions cannot be identical" : n.error().message);
  Geometry g;
  for (int64_t i = 0; i < self.dim(); ++i)
    if (i != d1 && i != d2) {
      g.sizes.push_back(self.size(i));
      g.strides.push_back(self.stride(i));
    }
  g.sizes.push_back(n->constant());
  g.strides.push_back(self.stride(d1) + self.stride(d2));
  // An empty diagonal keeps the input's offset (the step would leave the storage).
  g.offset =
      self.storageOffset() +
      (n->constant() > 0
           ? diagonalOffset(SymExpr(self.stride(d1)), SymExpr(self.stride(d2)), offset).constant()
           : 0);
  return g;
}

/// as_strided: any geometry within the storage; the offset defaults to the input's.
Expected<Geometry> asStridedGeometry(const KernelContext &ctx, const Tensor &self) {
  FXKIT_ASSIGN_OR_RETURN(auto sizes, ctx.intList("size"));
  FXKIT_ASSIGN_OR_RETURN(auto strides, ctx.intList("stride"));
  FXKIT_ASSIGN_OR_RETURN(auto offset, ctx.optionalInteger("storage_offset"));
  if (sizes.size() != strides.size())
    return ctx.error("size " + sizesStr(sizes) + " and stride " + sizesStr(strides) +
                     " differ in length");
  return Geometry{std::move(sizes), std::move(strides), offset.value_or(self.storageOffset())};
}

// ---- Kernels that are not a single view ----

/// The result as a fresh tensor of `sizes` with the inferred strides, holding self's elements
/// in row-major order (clone, and reshape where no view is possible).
Status copyToOutput(KernelContext &ctx, const Tensor &self, const std::vector<int64_t> &sizes) {
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  if (out.sizes() != sizes)
    return ctx.error("result of " + sizesStr(sizes) + " but inference gave " +
                     sizesStr(out.sizes()));
  copyElements(self, out);
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// Strides of an inferred result type, evaluated (nullopt where inference gave none).
Expected<std::vector<int64_t>> inferredStrides(const KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto types, ctx.outputTypes());
  std::vector<int64_t> out;
  for (const SymExpr &s : types[0].strides) {
    auto v = s.evaluate(ctx.bindings);
    if (!v)
      return ctx.error(v.error().message);
    out.push_back(*v);
  }
  return out;
}

/// reshape: a view where computeStride allows one with the strides inference decided,
/// otherwise a contiguous copy (PyTorch's `_reshape_alias` or `clone().view()`).
Status reshapeKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto requested, ctx.intList("shape"));
  FXKIT_ASSIGN_OR_RETURN(auto sizes, resolveSizes(ctx, self, std::move(requested)));
  FXKIT_ASSIGN_OR_RETURN(auto inferred, inferredStrides(ctx));
  auto strides = viewStridesOf(self, sizes);
  // Inference decides symbolically; where concrete sizes would allow a view it did not (a
  // symbol that is 1 here), the copy keeps the result what inference said.
  bool asInferred = strides && strides->size() == inferred.size();
  for (size_t d = 0; asInferred && d < inferred.size(); ++d)
    asInferred = sizes[d] == 1 || (*strides)[d] == inferred[d];
  if (asInferred) {
    auto view = self.asStrided(sizes, std::move(*strides), self.storageOffset());
    if (!view)
      return ctx.error(view.error().message);
    ctx.result.v = view.take();
    return Status::ok();
  }
  return copyToOutput(ctx, self, sizes);
}

/// clone: a copy with the strides inference gave (preserve_format or the memory_format).
Status cloneKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  return copyToOutput(ctx, self, self.sizes());
}

/// cat: each input copied into its slice of the result along dim. Legacy 1-d empty tensors
/// ([0]) are skipped whatever their rank relative to the others, as in PyTorch.
Status catKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto tensors, ctx.tensorList("tensors"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, ctx.integer("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  std::vector<const Tensor *> used;
  for (const Tensor &t : tensors)
    if (!(t.dim() == 1 && t.size(0) == 0))
      used.push_back(&t);
  if (tensors.empty())
    return ctx.error("cat of an empty list of tensors");
  if (!used.empty()) {
    const Tensor &first = *used[0];
    if (first.dim() == 0)
      return ctx.error("zero-dimensional tensor cannot be concatenated");
    FXKIT_ASSIGN_OR_RETURN(auto d, wrapDim(ctx, dim, first.dim()));
    int64_t total = 0;
    for (size_t k = 0; k < used.size(); ++k) {
      const Tensor &t = *used[k];
      bool fits = t.dim() == first.dim();
      for (int64_t i = 0; fits && i < t.dim(); ++i)
        fits = i == d || t.size(i) == first.size(i);
      if (!fits)
        return ctx.error("cat input " + std::to_string(k) + " has sizes " + sizesStr(t.sizes()) +
                         ", expected " + sizesStr(first.sizes()) + " except at dimension " +
                         std::to_string(d));
      total += t.size(d);
    }
    std::vector<int64_t> expected = first.sizes();
    expected[d] = total;
    if (out.sizes() != expected)
      return ctx.error("cat gives " + sizesStr(expected) + " but inference gave " +
                       sizesStr(out.sizes()));
    int64_t start = 0;
    for (const Tensor *t : used) {
      std::vector<int64_t> sliceSizes = out.sizes();
      sliceSizes[d] = t->size(d);
      auto slice = out.asStrided(std::move(sliceSizes), out.strides(),
                                 out.storageOffset() + start * out.stride(d));
      if (!slice)
        return ctx.error(slice.error().message);
      copyElements(*t, *slice);
      start += t->size(d);
    }
  }
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// Views of consecutive chunks of self along d (split and split_with_sizes).
Status setChunks(KernelContext &ctx, const Tensor &self, int64_t d,
                 const std::vector<int64_t> &chunks) {
  std::vector<std::optional<Tensor>> views;
  int64_t start = 0;
  for (int64_t chunk : chunks) {
    std::vector<int64_t> sizes = self.sizes();
    sizes[d] = chunk;
    auto view = self.asStrided(std::move(sizes), self.strides(),
                               self.storageOffset() + start * self.stride(d));
    if (!view)
      return ctx.error(view.error().message);
    views.emplace_back(view.take());
    start += chunk;
  }
  ctx.result.v = std::move(views);
  return Status::ok();
}

/// split.Tensor: chunks of split_size, the last one smaller (one chunk for an empty dim).
Status splitKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto split, ctx.integer("split_size"));
  FXKIT_ASSIGN_OR_RETURN(auto d, dimArg(ctx, self, "dim"));
  int64_t size = self.size(d);
  if (split < 0 || (split == 0 && size != 0))
    return ctx.error("split_size " + std::to_string(split) + " cannot split a dimension of size " +
                     std::to_string(size));
  std::vector<int64_t> chunks;
  for (int64_t start = 0; start < size; start += split)
    chunks.push_back(std::min(split, size - start));
  if (chunks.empty())
    chunks.push_back(0);
  return setChunks(ctx, self, d, chunks);
}

Status splitWithSizesKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto chunks, ctx.intList("split_sizes"));
  FXKIT_ASSIGN_OR_RETURN(auto d, dimArg(ctx, self, "dim"));
  int64_t total = 0;
  for (int64_t c : chunks) {
    if (c < 0)
      return ctx.error("split_sizes " + sizesStr(chunks) + " has a negative size");
    total += c;
  }
  if (total != self.size(d))
    return ctx.error("split_sizes " + sizesStr(chunks) + " do not add up to " +
                     std::to_string(self.size(d)) + ", the size of dimension " + std::to_string(d));
  return setChunks(ctx, self, d, chunks);
}

} // namespace
} // namespace view_kernels

void registerViewKernels() {
  using namespace view_kernels;
  static const std::pair<std::string_view, KernelFn> table[] = {
      {"torch.ops.aten.view.default", viewKernel<viewGeometry>},
      {"torch.ops.aten.view.dtype", viewDtypeKernel},
      {"torch.ops.aten._unsafe_view.default", viewKernel<viewGeometry>},
      {"torch.ops.aten.reshape.default", reshapeKernel},
      {"torch.ops.aten.permute.default", viewKernel<permuteGeometry>},
      {"torch.ops.aten.expand.default", viewKernel<expandGeometry>},
      {"torch.ops.aten.unsqueeze.default", viewKernel<unsqueezeGeometry>},
      {"torch.ops.aten.squeeze.dim", viewKernel<squeezeDimGeometry>},
      {"torch.ops.aten.squeeze.dims", viewKernel<squeezeDimsGeometry>},
      {"torch.ops.aten.squeeze.default", viewKernel<squeezeAllGeometry>},
      {"torch.ops.aten.select.int", viewKernel<selectGeometry>},
      {"torch.ops.aten.slice.Tensor", viewKernel<sliceGeometry>},
      {"torch.ops.aten.split.Tensor", splitKernel},
      {"torch.ops.aten.split_with_sizes.default", splitWithSizesKernel},
      {"torch.ops.aten.alias.default", viewKernel<aliasGeometry>},
      {"torch.ops.aten.detach.default", viewKernel<aliasGeometry>},
      {"torch.ops.aten.transpose.int", viewKernel<transposeGeometry>},
      {"torch.ops.aten.t.default", viewKernel<transposeGeometry>},
      {"torch.ops.aten.diagonal.default", viewKernel<diagonalGeometry>},
      {"torch.ops.aten.as_strided.default", viewKernel<asStridedGeometry>},
      {"torch.ops.aten.clone.default", cloneKernel},
      {"torch.ops.aten.cat.default", catKernel},
  };
  kernels::registerKernelList(table);
}

} // namespace fxkit
