/// \file Composite tensor ops (ir/ops/Decomposer.h), each row beside its decomposition: metadata
/// assertions, conversions (to, type_as, contiguous), reshapes (flatten, unflatten, *_as,
/// movedim, narrow), splits and joins (chunk, split.sizes, unbind, stack, hstack, vstack),
/// factories from a tensor (new_*), repeats (tile, repeat_interleave), index patterns PyTorch
/// writes with arange (diff, roll, tril, triu, one_hot), matrix products (matmul, dot, mv,
/// outer, einsum), the reductions PyTorch writes with others (std, vector norms), masked
/// indexing (_unsafe_masked_index and its accumulating put), scatter's older reductions, glu
/// and unfold.
///
/// Decompositions follow the CompositeImplicitAutograd kernels of aten/src/ATen/native
/// (TensorConversions.cpp, TensorShape.cpp, LinearAlgebra.cpp's _matmul_impl), torch/_refs and
/// torch/_decomp/decompositions.py; views are written as Core ATen writes them (permute for
/// transposes, view or a contiguous clone and a view for reshape).

#include "ir/Try.h"
#include "ir/ops/Decomposer.h"
#include "ir/ops/InferSupport.h"
#include "ir/ops/OpFamilies.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <numeric>

namespace fxkit {

namespace {

using C = OpCategory;

// ---- Helpers ----

Expected<int64_t> wrapDim(Decomposer &d, int64_t dim, size_t rank) {
  auto w = normalizeDim(dim, rank);
  if (!w)
    return d.error(w.error().message);
  return *w;
}

/// `x` with dims i and j swapped, as Core ATen writes a transpose (permute).
Expected<Argument> swapDims(Decomposer &d, const Argument &x, int64_t i, int64_t j) {
  FXKIT_ASSIGN_OR_RETURN(auto t, d.type(x));
  size_t rank = t.sizes.size();
  FXKIT_ASSIGN_OR_RETURN(auto a, wrapDim(d, i, rank));
  FXKIT_ASSIGN_OR_RETURN(auto b, wrapDim(d, j, rank));
  std::vector<int64_t> perm(rank);
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[a], perm[b]);
  return d.call("aten.permute.default", {x, intListArg(perm)});
}

Expected<Argument> unsqueeze(Decomposer &d, const Argument &x, int64_t dim) {
  return d.call("aten.unsqueeze.default", {x, Argument::integer(dim)});
}

/// The product of the sizes [from, to) of `x`.
Expected<Argument> sizeProduct(Decomposer &d, const Argument &x, size_t from, size_t to) {
  Argument p = Argument::integer(1);
  for (size_t i = from; i < to; ++i) {
    FXKIT_ASSIGN_OR_RETURN(auto s, d.size(x, static_cast<int64_t>(i)));
    FXKIT_ASSIGN_OR_RETURN(auto q, d.mul(p, s));
    p = q;
  }
  return p;
}

/// c10's suggest_memory_format.
std::string_view suggestedMemoryFormat(const TensorType &t) {
  if (t.sizes.size() == 4 && stridesLikeChannelsLast(t.sizes, t.strides))
    return "channels_last";
  if (t.sizes.size() == 5 && stridesLikeChannelsLast(t.sizes, t.strides))
    return "channels_last_3d";
  return "contiguous_format";
}

// ---- Metadata assertions ----

/// _assert_tensor_metadata: checked against the node's type while decomposing (the types are
/// static), then gone, as Inductor removes it.
Status decomposeAssertTensorMetadata(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto a, d.args().tensor("a"));
  auto mismatch = [&d](std::string_view what, const std::string &expected, const std::string &got) {
    return d.error("Tensor " + std::string(what) + " mismatch! Expected: " + expected +
                   ", Got: " + got);
  };
  auto compareList = [&](std::string_view name, const std::vector<SymExpr> &have) -> Status {
    if (d.arg(name).isNone())
      return Status::ok();
    FXKIT_ASSIGN_OR_RETURN(auto want, d.args().symIntList(name));
    if (!std::equal(want.begin(), want.end(), have.begin(), have.end(), symEq))
      return mismatch(name == "size" ? "sizes" : "strides", sizesText(want), sizesText(have));
    return Status::ok();
  };
  FXKIT_TRY(compareList("size", a.sizes));
  FXKIT_TRY(compareList("stride", a.strides));
  FXKIT_ASSIGN_OR_RETURN(auto dtype, d.args().dtype("dtype"));
  if (dtype && *dtype != a.dtype)
    return mismatch("dtype", std::string(dtypeScalarTypeName(*dtype)),
                    std::string(dtypeScalarTypeName(a.dtype)));
  FXKIT_ASSIGN_OR_RETURN(auto device, d.args().device("device"));
  if (device && (device->type != a.device.type ||
                 (device->index >= 0 && a.device.index >= 0 && device->index != a.device.index)))
    return mismatch("device", device->str(), a.device.str());
  const Argument &layout = d.arg("layout");
  if (!layout.isNone() && layout.kind() == Argument::Kind::Layout && layout.asString() != "strided")
    return mismatch("layout", "torch." + std::string(layout.asString()), "torch.strided");
  return d.noResult();
}

// ---- Conversions ----

/// ATen's `to`: the tensor itself where nothing changes (to_will_alias), else _to_copy with
/// the options given.
Status convertTo(Decomposer &d, std::optional<DType> dtype, std::optional<Device> device,
                 const Argument &layout, const Argument &pinMemory, bool nonBlocking, bool copy,
                 const Argument &memoryFormat) {
  const Argument &self = d.arg("self");
  FXKIT_ASSIGN_OR_RETURN(auto t, d.type(self));
  std::optional<std::string_view> format;
  if (!memoryFormat.isNone()) {
    format = memoryFormatName(memoryFormat);
    if (!format)
      return d.error("unknown memory format");
  }
  bool alias =
      (!dtype || *dtype == t.dtype) && (layout.isNone() || layout.asString() == "strided") &&
      (!device ||
       (device->type == t.device.type && (device->index < 0 || device->index == t.device.index))) &&
      !copy && (!format || *format == "preserve_format" || *format == suggestedMemoryFormat(t));
  if (alias)
    return d.result(self);
  Kwargs kw;
  if (dtype)
    kw.emplace_back("dtype", Argument::dtype(*dtype));
  if (!layout.isNone())
    kw.emplace_back("layout", layout);
  if (device)
    kw.emplace_back("device", Argument::device(*device));
  if (!pinMemory.isNone())
    kw.emplace_back("pin_memory", pinMemory);
  if (nonBlocking)
    kw.emplace_back("non_blocking", Argument::boolean(true));
  if (format)
    kw.emplace_back("memory_format", memoryFormat);
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten._to_copy.default", {self}, std::move(kw)));
  return d.result(r);
}

Status decomposeTo(Decomposer &d) {
  const OpSchema &schema = d.args().op().schema;
  FXKIT_ASSIGN_OR_RETURN(auto nonBlocking, d.args().boolean("non_blocking"));
  FXKIT_ASSIGN_OR_RETURN(auto copy, d.args().boolean("copy"));
  const Argument &format = d.arg("memory_format");
  if (schema.overload == "other") {
    FXKIT_ASSIGN_OR_RETURN(auto other, d.args().tensor("other"));
    return convertTo(d, other.dtype, other.device, Argument::none(), Argument::none(), nonBlocking,
                     copy, format);
  }
  FXKIT_ASSIGN_OR_RETURN(auto dtype, d.args().dtype("dtype"));
  std::optional<Device> device;
  if (schema.indexOf("device") >= 0) {
    FXKIT_ASSIGN_OR_RETURN(auto dev, d.args().device("device"));
    device = dev;
  }
  const Argument none = Argument::none();
  const Argument &layout = schema.indexOf("layout") >= 0 ? d.arg("layout") : none;
  const Argument &pin = schema.indexOf("pin_memory") >= 0 ? d.arg("pin_memory") : none;
  return convertTo(d, dtype, device, layout, pin, nonBlocking, copy, format);
}

/// type_as(self, other) = self.to(other.options()).
Status decomposeTypeAs(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto other, d.args().tensor("other"));
  return convertTo(d, other.dtype, other.device, Argument::none(), Argument::none(), false, false,
                   Argument::none());
}

Status decomposeContiguous(Decomposer &d) {
  auto format = memoryFormatName(d.arg("memory_format"));
  if (!format)
    return d.error("unknown memory format");
  FXKIT_ASSIGN_OR_RETURN(auto r, d.contiguous(d.arg("self"), *format));
  return d.result(r);
}

// ---- Reshapes ----

/// flatten(self, start_dim, end_dim): the dims [start, end] become one (ATen's flatten).
Status decomposeFlatten(Decomposer &d) {
  const Argument &self = d.arg("self");
  FXKIT_ASSIGN_OR_RETURN(auto t, d.type(self));
  size_t rank = t.sizes.size();
  FXKIT_ASSIGN_OR_RETURN(auto s0, d.args().integer("start_dim"));
  FXKIT_ASSIGN_OR_RETURN(auto e0, d.args().integer("end_dim"));
  FXKIT_ASSIGN_OR_RETURN(auto start, wrapDim(d, s0, rank));
  FXKIT_ASSIGN_OR_RETURN(auto end, wrapDim(d, e0, rank));
  if (start > end)
    return d.error("flatten() has invalid args: start_dim cannot come after end_dim");
  if (rank == 0) {
    FXKIT_ASSIGN_OR_RETURN(auto r, d.reshape(self, {Argument::integer(1)}));
    return d.result(r);
  }
  if (start == end)
    return d.result(self);
  std::vector<Argument> shape;
  for (int64_t i = 0; i < start; ++i) {
    FXKIT_ASSIGN_OR_RETURN(auto s, d.size(self, i));
    shape.push_back(s);
  }
  FXKIT_ASSIGN_OR_RETURN(auto folded, sizeProduct(d, self, start, end + 1));
  shape.push_back(folded);
  for (size_t i = end + 1; i < rank; ++i) {
    FXKIT_ASSIGN_OR_RETURN(auto s, d.size(self, static_cast<int64_t>(i)));
    shape.push_back(s);
  }
  FXKIT_ASSIGN_OR_RETURN(auto r, d.reshape(self, std::move(shape)));
  return d.result(r);
}

/// unflatten(self, dim, sizes): a view with dim split into `sizes` (one may be -1).
Status decomposeUnflatten(Decomposer &d) {
  const Argument &self = d.arg("self");
  FXKIT_ASSIGN_OR_RETURN(auto t, d.type(self));
  FXKIT_ASSIGN_OR_RETURN(auto dim0, d.args().integer("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, wrapDim(d, dim0, t.sizes.size()));
  const Argument &sizes = d.arg("sizes");
  if (!sizes.isContainer() || sizes.items().empty())
    return d.error("unflatten: sizes must be non-empty");
  FXKIT_ASSIGN_OR_RETURN(auto want, d.args().symIntList("sizes"));
  if (auto inferred = inferViewSizes({t.sizes[dim]}, want); !inferred)
    return d.error("unflatten: Provided sizes " + sizesText(want) +
                   " don't multiply up to the size of dim " + std::to_string(dim) + " (" +
                   t.sizes[dim].str() + ") in the input tensor");
  std::vector<Argument> shape;
  for (size_t i = 0; i < t.sizes.size(); ++i) {
    if (static_cast<int64_t>(i) == dim) {
      for (const Argument &s : sizes.items())
        shape.push_back(s);
      continue;
    }
    FXKIT_ASSIGN_OR_RETURN(auto s, d.size(self, static_cast<int64_t>(i)));
    shape.push_back(s);
  }
  FXKIT_ASSIGN_OR_RETURN(auto r,
                         d.call("aten.view.default", {self, Argument::list(std::move(shape))}));
  return d.result(r);
}

/// expand_as, view_as, reshape_as, broadcast_to: the op with `other`'s sizes (or `size`).
Status decomposeAsOther(Decomposer &d) {
  std::string_view name = d.args().op().schema.name;
  std::vector<Argument> sizes;
  if (name == "broadcast_to") {
    sizes = d.arg("size").isContainer() ? d.arg("size").items() : std::vector<Argument>{};
  } else {
    FXKIT_ASSIGN_OR_RETURN(auto s, d.sizes(d.arg("other")));
    sizes = std::move(s);
  }
  Argument list = Argument::list(sizes);
  if (name == "reshape_as") {
    FXKIT_ASSIGN_OR_RETURN(auto r, d.reshape(d.arg("self"), std::move(sizes)));
    return d.result(r);
  }
  FXKIT_ASSIGN_OR_RETURN(auto r,
                         d.call(name == "view_as" ? "aten.view.default" : "aten.expand.default",
                                {d.arg("self"), list}));
  return d.result(r);
}

/// movedim / moveaxis: a permute that puts each source dim at its destination, the other
/// dims keeping their order (ATen's movedim).
Status decomposeMovedim(Decomposer &d) {
  const Argument &self = d.arg("self");
  FXKIT_ASSIGN_OR_RETURN(auto t, d.type(self));
  size_t rank = t.sizes.size();
  FXKIT_ASSIGN_OR_RETURN(auto src0, d.args().intList("source"));
  FXKIT_ASSIGN_OR_RETURN(auto dst0, d.args().intList("destination"));
  std::vector<int64_t> src = src0 ? *src0 : std::vector<int64_t>{};
  std::vector<int64_t> dst = dst0 ? *dst0 : std::vector<int64_t>{};
  if (src.size() != dst.size())
    return d.error("movedim: Invalid source or destination dims: source (" +
                   std::to_string(src.size()) +
                   " dims) should contain the same number of dims "
                   "as destination (" +
                   std::to_string(dst.size()) + " dims)");
  std::vector<int64_t> order(rank, -1);
  std::vector<bool> used(rank, false);
  for (size_t k = 0; k < src.size(); ++k) {
    FXKIT_ASSIGN_OR_RETURN(auto s, wrapDim(d, src[k], rank));
    FXKIT_ASSIGN_OR_RETURN(auto e, wrapDim(d, dst[k], rank));
    if (used[s] || order[e] >= 0)
      return d.error("movedim: repeated dim in `source` or `destination`");
    order[e] = s;
    used[s] = true;
  }
  size_t next = 0;
  for (int64_t &o : order) {
    if (o >= 0)
      continue;
    while (used[next])
      ++next;
    o = static_cast<int64_t>(next++);
  }
  if (rank <= 1) {
    FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.alias.default", {self}));
    return d.result(r);
  }
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.permute.default", {self, intListArg(order)}));
  return d.result(r);
}

/// swapaxes / swapdims = transpose, written as Core ATen writes it.
Status decomposeSwap(Decomposer &d) {
  bool axes = d.args().op().schema.name == "swapaxes";
  FXKIT_ASSIGN_OR_RETURN(auto a, d.args().integer(axes ? "axis0" : "dim0"));
  FXKIT_ASSIGN_OR_RETURN(auto b, d.args().integer(axes ? "axis1" : "dim1"));
  FXKIT_ASSIGN_OR_RETURN(auto r, swapDims(d, d.arg("self"), a, b));
  return d.result(r);
}

/// narrow(self, dim, start, length) = slice(self, dim, start, start + length).
Status decomposeNarrow(Decomposer &d) {
  const Argument &self = d.arg("self");
  FXKIT_ASSIGN_OR_RETURN(auto t, d.type(self));
  if (t.sizes.empty())
    return d.error("narrow() cannot be applied to a 0-dim tensor.");
  FXKIT_ASSIGN_OR_RETURN(auto dim0, d.args().integer("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, wrapDim(d, dim0, t.sizes.size()));
  Argument start = d.arg("start");
  const Argument &length = d.arg("length");
  FXKIT_ASSIGN_OR_RETURN(auto lengthValue, d.symValue(length));
  FXKIT_ASSIGN_OR_RETURN(auto startValue, d.symValue(start));
  if (lengthValue.isConstant() && lengthValue.constant() < 0)
    return d.error("narrow(): length must be non-negative.");
  const SymExpr &size = t.sizes[dim];
  if (startValue.isConstant() && size.isConstant()) {
    int64_t s = startValue.constant(), n = size.constant();
    if (s < -n || s > n)
      return d.error("start out of range (expected to be in range of [" + std::to_string(-n) +
                     ", " + std::to_string(n) + "], but got " + std::to_string(s) + ")");
    if (s < 0)
      start = Argument::integer(s + n);
    if (lengthValue.isConstant() && start.asInt() + lengthValue.constant() > n)
      return d.error("start (" + std::to_string(start.asInt()) + ") + length (" +
                     std::to_string(lengthValue.constant()) + ") exceeds dimension size (" +
                     std::to_string(n) + ").");
  }
  FXKIT_ASSIGN_OR_RETURN(auto end, d.add(start, length));
  FXKIT_ASSIGN_OR_RETURN(auto r,
                         d.call("aten.slice.Tensor", {self, Argument::integer(dim), start, end}));
  return d.result(r);
}

// ---- Splits and joins ----

/// chunk(self, chunks, dim): split with ceil(size / chunks) per piece (ATen's chunk), written
/// as split_with_sizes, as torch/_decomp's split writes it. The dim's size must be known: the
/// number of pieces depends on it.
Status decomposeChunk(Decomposer &d) {
  const Argument &self = d.arg("self");
  FXKIT_ASSIGN_OR_RETURN(auto t, d.type(self));
  if (t.sizes.empty())
    return d.error("chunk expects at least a 1-dimensional tensor");
  FXKIT_ASSIGN_OR_RETURN(auto chunks, d.args().integer("chunks"));
  if (chunks <= 0)
    return d.error("chunk expects `chunks` to be greater than 0, got: " + std::to_string(chunks));
  FXKIT_ASSIGN_OR_RETURN(auto dim0, d.args().integer("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, wrapDim(d, dim0, t.sizes.size()));
  const SymExpr &size = t.sizes[dim];
  if (!size.isConstant())
    return d.error("chunk of a dimension of symbolic size " + size.str() +
                   ": the number of pieces depends on its value (PyTorch guards on it)");
  int64_t n = size.constant();
  int64_t splitSize = (n + chunks - 1) / chunks;
  std::vector<int64_t> sizes;
  if (splitSize == 0) {
    sizes.assign(chunks, 0);
  } else {
    int64_t pieces = (n + splitSize - 1) / splitSize;
    sizes.assign(pieces, splitSize);
    sizes.back() = splitSize - (splitSize * pieces - n);
  }
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.split_with_sizes.default",
                                        {self, intListArg(sizes), Argument::integer(dim)}));
  return d.result(r);
}

/// split.sizes = split_with_sizes.
Status decomposeSplitSizes(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.split_with_sizes.default",
                                        {d.arg("self"), d.arg("split_size"), d.arg("dim")}));
  return d.result(r);
}

/// unbind(self, dim): select(self, dim, i) for each i.
Status decomposeUnbind(Decomposer &d) {
  const Argument &self = d.arg("self");
  FXKIT_ASSIGN_OR_RETURN(auto t, d.type(self));
  if (t.sizes.empty())
    return d.error("Dimension specified as 0 but tensor has no dimensions");
  FXKIT_ASSIGN_OR_RETURN(auto dim0, d.args().integer("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, wrapDim(d, dim0, t.sizes.size()));
  if (!t.sizes[dim].isConstant())
    return d.error("unbind of a dimension of symbolic size " + t.sizes[dim].str() +
                   ": the number of results is not known");
  std::vector<Argument> items;
  for (int64_t i = 0; i < t.sizes[dim].constant(); ++i) {
    FXKIT_ASSIGN_OR_RETURN(
        auto s, d.call("aten.select.int", {self, Argument::integer(dim), Argument::integer(i)}));
    items.push_back(s);
  }
  return d.results(std::move(items));
}

/// stack(tensors, dim) = cat of each tensor unsqueezed at dim (torch/_refs.stack).
Status decomposeStack(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto types, d.args().tensorList("tensors"));
  if (types.empty())
    return d.error("stack expects a non-empty TensorList");
  for (size_t i = 1; i < types.size(); ++i)
    if (!std::equal(types[i].sizes.begin(), types[i].sizes.end(), types[0].sizes.begin(),
                    types[0].sizes.end(), symEq))
      return d.error("stack expects each tensor to be equal size, but got " +
                     sizesText(types[0].sizes) + " at entry 0 and " + sizesText(types[i].sizes) +
                     " at entry " + std::to_string(i));
  FXKIT_ASSIGN_OR_RETURN(auto dim0, d.args().integer("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, wrapDim(d, dim0, types[0].sizes.size() + 1));
  std::vector<Argument> parts;
  for (const Argument &a : d.arg("tensors").items()) {
    FXKIT_ASSIGN_OR_RETURN(auto u, unsqueeze(d, a, dim));
    parts.push_back(u);
  }
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.cat.default", {Argument::list(std::move(parts)),
                                                             Argument::integer(dim)}));
  return d.result(r);
}

/// atleast_1d / atleast_2d of one tensor (torch/_refs).
Expected<Argument> atLeast(Decomposer &d, const Argument &x, size_t rank) {
  FXKIT_ASSIGN_OR_RETURN(auto t, d.type(x));
  Argument r = x;
  if (t.sizes.size() == 0 && rank >= 1) {
    FXKIT_ASSIGN_OR_RETURN(auto u, unsqueeze(d, r, 0));
    r = u;
  }
  if (rank >= 2 && t.sizes.size() <= 1) {
    FXKIT_ASSIGN_OR_RETURN(auto u, unsqueeze(d, r, 0));
    r = u;
  }
  return r;
}

Status decomposeAtLeast(Decomposer &d) {
  bool two = d.args().op().schema.name == "atleast_2d";
  FXKIT_ASSIGN_OR_RETURN(auto t, d.type(d.arg("self")));
  if (t.sizes.size() >= (two ? 2u : 1u))
    return d.result(d.arg("self"));
  FXKIT_ASSIGN_OR_RETURN(auto r, atLeast(d, d.arg("self"), two ? 2 : 1));
  return d.result(r);
}

/// hstack: cat along dim 1 of the tensors made at least 1-d (dim 0 for 1-d ones); vstack and
/// row_stack: cat along dim 0 of the tensors made at least 2-d (torch/_refs).
Status decomposeHVStack(Decomposer &d) {
  bool horizontal = d.args().op().schema.name == "hstack";
  const Argument &tensors = d.arg("tensors");
  if (!tensors.isContainer() || tensors.items().empty())
    return d.error(std::string(horizontal ? "hstack" : "vstack") +
                   " expects a non-empty TensorList");
  std::vector<Argument> parts;
  for (const Argument &a : tensors.items()) {
    FXKIT_ASSIGN_OR_RETURN(auto p, atLeast(d, a, horizontal ? 1 : 2));
    parts.push_back(p);
  }
  FXKIT_ASSIGN_OR_RETURN(auto first, d.type(parts[0]));
  int64_t dim = horizontal && first.sizes.size() != 1 ? 1 : 0;
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.cat.default", {Argument::list(std::move(parts)),
                                                             Argument::integer(dim)}));
  return d.result(r);
}

// ---- Factories from a tensor ----

/// new_full / new_ones / new_zeros / new_empty: full (empty) with the tensor's dtype, layout
/// and device where not given.
Status decomposeNewFactory(Decomposer &d) {
  std::string_view name = d.args().op().schema.name;
  FXKIT_ASSIGN_OR_RETURN(auto self, d.args().tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dtype, d.args().dtype("dtype"));
  FXKIT_ASSIGN_OR_RETURN(auto device, d.args().device("device"));
  Kwargs kw{{"dtype", Argument::dtype(dtype ? *dtype : self.dtype)},
            {"layout", d.arg("layout").isNone() ? Argument::layout("strided") : d.arg("layout")},
            {"device", Argument::device(device ? *device : self.device)},
            {"pin_memory",
             d.arg("pin_memory").isNone() ? Argument::boolean(false) : d.arg("pin_memory")}};
  if (name == "new_empty") {
    FXKIT_ASSIGN_OR_RETURN(auto r,
                           d.call("aten.empty.memory_format", {d.arg("size")}, std::move(kw)));
    return d.result(r);
  }
  if (name == "new_empty_strided") {
    FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.empty_strided.default",
                                          {d.arg("size"), d.arg("stride")}, std::move(kw)));
    return d.result(r);
  }
  Argument fill = name == "new_full"   ? d.arg("fill_value")
                  : name == "new_ones" ? Argument::integer(1)
                                       : Argument::integer(0);
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.full.default", {d.arg("size"), fill}, std::move(kw)));
  return d.result(r);
}

// ---- Repeats ----

/// tile(self, dims) = repeat with dims padded with leading 1s to self's rank (ATen).
Status decomposeTile(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto t, d.type(d.arg("self")));
  const Argument &dims = d.arg("dims");
  std::vector<Argument> reps = dims.isContainer() ? dims.items() : std::vector<Argument>{dims};
  if (reps.size() < t.sizes.size())
    reps.insert(reps.begin(), t.sizes.size() - reps.size(), Argument::integer(1));
  FXKIT_ASSIGN_OR_RETURN(
      auto r, d.call("aten.repeat.default", {d.arg("self"), Argument::list(std::move(reps))}));
  return d.result(r);
}

/// repeat_interleave(self, repeats: int, dim): each element `repeats` times in a row
/// (ATen: unsqueeze after dim, expand, contiguous clone, flatten the two dims).
Status decomposeRepeatInterleave(Decomposer &d) {
  Argument input = d.arg("self");
  FXKIT_ASSIGN_OR_RETURN(auto t, d.type(input));
  FXKIT_ASSIGN_OR_RETURN(auto dimArg, d.args().optionalInteger("dim"));
  if (!dimArg) {
    FXKIT_ASSIGN_OR_RETURN(auto f, d.call("aten.flatten.using_ints", {input}));
    input = f;
  }
  FXKIT_ASSIGN_OR_RETURN(auto ft, d.type(input));
  FXKIT_ASSIGN_OR_RETURN(auto dim, wrapDim(d, dimArg.value_or(0), t.sizes.size()));
  FXKIT_ASSIGN_OR_RETURN(auto repeats, d.symValue(d.arg("repeats")));
  if (repeats.isConstant() && repeats.constant() < 0)
    return d.error("Repeats can not be negative");
  FXKIT_ASSIGN_OR_RETURN(auto u, unsqueeze(d, input, dim + 1));
  FXKIT_ASSIGN_OR_RETURN(auto shape, d.sizes(u));
  shape[dim + 1] = d.arg("repeats");
  if (!d.arg("output_size").isNone()) {
    FXKIT_ASSIGN_OR_RETURN(auto want, d.symValue(d.arg("output_size")));
    SymExpr got = symMul(repeats, ft.sizes[dim]);
    if (!symEq(want, got))
      return d.error("repeat_interleave: Invalid output_size, expected " + got.str() + " but got " +
                     want.str());
  }
  FXKIT_ASSIGN_OR_RETURN(auto e,
                         d.call("aten.expand.default", {u, Argument::list(std::move(shape))}));
  FXKIT_ASSIGN_OR_RETURN(auto c,
                         d.call("aten.clone.default", {e},
                                {{"memory_format", Argument::memoryFormat("contiguous_format")}}));
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.flatten.using_ints",
                                        {c, Argument::integer(dim), Argument::integer(dim + 1)}));
  return d.result(r);
}

// ---- Index patterns ----

/// diff(self, n, dim, prepend, append): n times the difference of neighbours along dim (ATen's
/// diff: prepend/append concatenated first, logical_xor for bool).
Status decomposeDiff(Decomposer &d) {
  Argument x = d.arg("self");
  FXKIT_ASSIGN_OR_RETURN(auto t, d.type(x));
  if (t.sizes.empty())
    return d.error("diff expects input to be at least one-dimensional");
  FXKIT_ASSIGN_OR_RETURN(auto n, d.args().integer("n"));
  if (n < 0)
    return d.error("order must be non-negative but got " + std::to_string(n));
  FXKIT_ASSIGN_OR_RETURN(auto dim0, d.args().integer("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, wrapDim(d, dim0, t.sizes.size()));
  const Argument &prepend = d.arg("prepend"), &append = d.arg("append");
  for (const Argument *a : {&prepend, &append})
    if (!a->isNone()) {
      FXKIT_ASSIGN_OR_RETURN(auto at, d.type(*a));
      if (at.sizes.size() != t.sizes.size())
        return d.error("diff expects prepend or its broadcasted tensor to have the same number "
                       "of dimensions as input");
    }
  if (n > 0 && (!prepend.isNone() || !append.isNone())) {
    std::vector<Argument> parts;
    if (!prepend.isNone())
      parts.push_back(prepend);
    parts.push_back(x);
    if (!append.isNone())
      parts.push_back(append);
    FXKIT_ASSIGN_OR_RETURN(auto c, d.call("aten.cat.default", {Argument::list(std::move(parts)),
                                                               Argument::integer(dim)}));
    x = c;
  }
  if (n == 0) {
    FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.clone.default", {x}));
    return d.result(r);
  }
  FXKIT_ASSIGN_OR_RETURN(auto xt, d.type(x));
  bool isBool = xt.dtype == DType::Bool;
  if (xt.sizes[dim].isConstant())
    n = std::min<int64_t>(n, xt.sizes[dim].constant());
  FXKIT_ASSIGN_OR_RETURN(auto size, d.size(x, dim));
  FXKIT_ASSIGN_OR_RETURN(auto outLen, d.sub(size, Argument::integer(1)));
  for (int64_t i = 0; i < n; ++i) {
    FXKIT_ASSIGN_OR_RETURN(auto end, d.add(outLen, Argument::integer(1)));
    FXKIT_ASSIGN_OR_RETURN(auto hi, d.call("aten.slice.Tensor",
                                           {x, Argument::integer(dim), Argument::integer(1), end}));
    FXKIT_ASSIGN_OR_RETURN(auto lo, d.call("aten.slice.Tensor", {x, Argument::integer(dim),
                                                                 Argument::integer(0), outLen}));
    FXKIT_ASSIGN_OR_RETURN(
        auto r, d.call(isBool ? "aten.logical_xor.default" : "aten.sub.Tensor", {hi, lo}));
    x = r;
    FXKIT_ASSIGN_OR_RETURN(auto next, d.sub(outLen, Argument::integer(1)));
    outLen = next;
  }
  return d.result(x);
}

/// roll(self, shifts, dims): per dim, index_select with (arange + (size - shift) % size) %
/// size; no dims: roll of the flattened tensor, viewed back (torch/_refs.roll).
Status decomposeRoll(Decomposer &d) {
  const Argument &self = d.arg("self");
  FXKIT_ASSIGN_OR_RETURN(auto t, d.type(self));
  FXKIT_ASSIGN_OR_RETURN(auto shifts, d.args().symIntList("shifts"));
  FXKIT_ASSIGN_OR_RETURN(auto dims0, d.args().intList("dims"));
  std::vector<int64_t> dims = dims0 ? *dims0 : std::vector<int64_t>{};
  SymExpr numel = symProduct(t.sizes);
  if (numel.isConstant() && numel.constant() == 0) {
    FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.clone.default", {self}));
    return d.result(r);
  }
  if (t.sizes.empty() && !dims.empty())
    return d.error("Dimension specified as " + std::to_string(dims[0]) +
                   " but tensor has no dimensions");
  const Argument &shiftArg = d.arg("shifts");
  std::vector<Argument> shiftArgs =
      shiftArg.isContainer() ? shiftArg.items() : std::vector<Argument>{shiftArg};
  if (shifts.size() != 1 || dims.size() != 1) {
    if (shifts.empty())
      return d.error("`shifts` required");
    if (dims.empty() && shifts.size() == 1) {
      FXKIT_ASSIGN_OR_RETURN(auto flat, d.call("aten.flatten.using_ints", {self}));
      FXKIT_ASSIGN_OR_RETURN(
          auto rolled,
          d.call("aten.roll.default", {flat, Argument::list(shiftArgs), intListArg({0})}));
      FXKIT_ASSIGN_OR_RETURN(auto sizes, d.sizes(self));
      FXKIT_ASSIGN_OR_RETURN(
          auto r, d.call("aten.view.default", {rolled, Argument::list(std::move(sizes))}));
      return d.result(r);
    }
    if (shifts.size() != dims.size())
      return d.error("shifts and dimensions must align. shifts: " + std::to_string(shifts.size()) +
                     ", dims:" + std::to_string(dims.size()));
    FXKIT_ASSIGN_OR_RETURN(
        auto first,
        d.call("aten.roll.default", {self, Argument::list({shiftArgs[0]}), intListArg({dims[0]})}));
    std::vector<Argument> tailShifts(shiftArgs.begin() + 1, shiftArgs.end());
    FXKIT_ASSIGN_OR_RETURN(
        auto r, d.call("aten.roll.default",
                       {first, Argument::list(std::move(tailShifts)),
                        intListArg(std::vector<int64_t>(dims.begin() + 1, dims.end()))}));
    return d.result(r);
  }
  FXKIT_ASSIGN_OR_RETURN(auto dim, wrapDim(d, dims[0], t.sizes.size()));
  FXKIT_ASSIGN_OR_RETURN(auto size, d.size(self, dim));
  FXKIT_ASSIGN_OR_RETURN(auto diff, d.sub(size, shiftArgs[0]));
  FXKIT_ASSIGN_OR_RETURN(auto start, d.mod(diff, size));
  FXKIT_ASSIGN_OR_RETURN(auto idx, d.arange(size, t.device));
  FXKIT_ASSIGN_OR_RETURN(auto shifted, d.call("aten.add.Tensor", {idx, start}));
  FXKIT_ASSIGN_OR_RETURN(auto wrapped, d.call("aten.fmod.Scalar", {shifted, size}));
  FXKIT_ASSIGN_OR_RETURN(
      auto r, d.call("aten.index_select.default", {self, Argument::integer(dim), wrapped}));
  return d.result(r);
}

/// tril / triu: where((col - row) <= diagonal (>= for triu), self, 0), logical_and for bool
/// (torch/_refs).
Status decomposeTriangle(Decomposer &d) {
  bool lower = d.args().op().schema.name == "tril";
  const Argument &self = d.arg("self");
  FXKIT_ASSIGN_OR_RETURN(auto t, d.type(self));
  if (t.sizes.size() < 2)
    return d.error(std::string(lower ? "tril" : "triu") +
                   ": input tensor must have at least 2 dimensions");
  FXKIT_ASSIGN_OR_RETURN(auto rows, d.size(self, -2));
  FXKIT_ASSIGN_OR_RETURN(auto cols, d.size(self, -1));
  FXKIT_ASSIGN_OR_RETURN(auto c0, d.arange(cols, t.device));
  FXKIT_ASSIGN_OR_RETURN(auto col, unsqueeze(d, c0, -2));
  FXKIT_ASSIGN_OR_RETURN(auto r0, d.arange(rows, t.device));
  FXKIT_ASSIGN_OR_RETURN(auto row, unsqueeze(d, r0, -1));
  FXKIT_ASSIGN_OR_RETURN(auto delta, d.call("aten.sub.Tensor", {col, row}));
  FXKIT_ASSIGN_OR_RETURN(
      auto mask, d.call(lower ? "aten.le.Scalar" : "aten.ge.Scalar", {delta, d.arg("diagonal")}));
  if (t.dtype == DType::Bool) {
    FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.logical_and.default", {mask, self}));
    return d.result(r);
  }
  FXKIT_ASSIGN_OR_RETURN(auto zero, d.scalarTensor(Argument::integer(0), t.dtype, t.device));
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.where.self", {mask, self, zero}));
  return d.result(r);
}

/// one_hot(self, num_classes) = (self.unsqueeze(-1) == arange(num_classes)).to(int64)
/// (torch/_decomp).
Status decomposeOneHot(Decomposer &d) {
  const Argument &self = d.arg("self");
  FXKIT_ASSIGN_OR_RETURN(auto t, d.type(self));
  if (t.dtype != DType::Int64)
    return d.error("one_hot is only applicable to index tensor of type LongTensor.");
  FXKIT_ASSIGN_OR_RETURN(auto classes, d.args().integer("num_classes"));
  if (classes == -1)
    return d.error("one_hot with num_classes=-1 takes the number of classes from the data (the "
                   "largest index): give num_classes");
  if (classes < -1)
    return d.error("num_classes should be positive");
  FXKIT_ASSIGN_OR_RETURN(auto index, d.arange(Argument::integer(classes), t.device, DType::Int64));
  FXKIT_ASSIGN_OR_RETURN(auto u, unsqueeze(d, self, -1));
  FXKIT_ASSIGN_OR_RETURN(auto eq, d.call("aten.eq.Tensor", {u, index}));
  FXKIT_ASSIGN_OR_RETURN(auto r, d.convert(eq, DType::Int64));
  return d.result(r);
}

// ---- Matrix products ----

/// (a * b) summed over `dims` (all for None), in op math for half and bfloat16 (torch/_decomp's
/// dot and mv).
Expected<Argument> productSum(Decomposer &d, const Argument &a, const Argument &b,
                              const Argument &dims) {
  FXKIT_ASSIGN_OR_RETURN(auto ta, d.type(a));
  DType out = ta.dtype;
  Argument x = a, y = b;
  if (out == DType::Float16 || out == DType::BFloat16) {
    FXKIT_ASSIGN_OR_RETURN(auto xa, d.convert(a, DType::Float32));
    FXKIT_ASSIGN_OR_RETURN(auto yb, d.convert(b, DType::Float32));
    x = xa;
    y = yb;
  }
  FXKIT_ASSIGN_OR_RETURN(auto m, d.call("aten.mul.Tensor", {x, y}));
  FXKIT_ASSIGN_OR_RETURN(auto s, dims.isNone() ? d.call("aten.sum.default", {m})
                                               : d.call("aten.sum.dim_IntList", {m, dims}));
  return d.convert(s, out);
}

Status decomposeDot(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto a, d.args().tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto b, d.args().tensor("tensor"));
  if (a.sizes.size() != 1 || b.sizes.size() != 1)
    return d.error("1D tensors expected, but got " + std::to_string(a.sizes.size()) + "D and " +
                   std::to_string(b.sizes.size()) + "D tensors");
  if (a.dtype != b.dtype)
    return d.error("dot : expected both vectors to have same dtype, but found " +
                   std::string(dtypeScalarTypeName(a.dtype)) + " and " +
                   std::string(dtypeScalarTypeName(b.dtype)));
  if (!symEq(a.sizes[0], b.sizes[0]))
    return d.error("inconsistent tensor size, expected tensor [" + a.sizes[0].str() +
                   "] and src [" + b.sizes[0].str() +
                   "] to have the same number of elements, but got " + a.sizes[0].str() + " and " +
                   b.sizes[0].str() + " elements respectively");
  FXKIT_ASSIGN_OR_RETURN(auto r, productSum(d, d.arg("self"), d.arg("tensor"), Argument::none()));
  return d.result(r);
}

Status decomposeMv(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto a, d.args().tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto v, d.args().tensor("vec"));
  if (a.sizes.size() != 2 || v.sizes.size() != 1)
    return d.error("matrix @ vector expected, got " + std::to_string(a.sizes.size()) + ", " +
                   std::to_string(v.sizes.size()));
  if (!symEq(a.sizes[1], v.sizes[0]))
    return d.error("size mismatch, got input (" + a.sizes[0].str() + "), mat (" + a.sizes[0].str() +
                   "x" + a.sizes[1].str() + "), vec (" + v.sizes[0].str() + ")");
  FXKIT_ASSIGN_OR_RETURN(auto r, productSum(d, d.arg("self"), d.arg("vec"), intListArg({1})));
  return d.result(r);
}

/// outer(a, b) = a.reshape(n, 1) * b (ATen).
Status decomposeOuter(Decomposer &d) {
  const Argument &self = d.arg("self");
  const Argument &vec = d.arg(d.args().op().schema.indexOf("vec2") >= 0 ? "vec2" : "vec");
  FXKIT_ASSIGN_OR_RETURN(auto a, d.type(self));
  FXKIT_ASSIGN_OR_RETURN(auto b, d.type(vec));
  if (a.sizes.size() != 1)
    return d.error("outer: Expected 1-D argument self, but got " + std::to_string(a.sizes.size()) +
                   "-D");
  if (b.sizes.size() != 1)
    return d.error("outer: Expected 1-D argument vec2, but got " + std::to_string(b.sizes.size()) +
                   "-D");
  FXKIT_ASSIGN_OR_RETURN(auto n, d.size(self, 0));
  FXKIT_ASSIGN_OR_RETURN(auto col, d.reshape(self, {n, Argument::integer(1)}));
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.mul.Tensor", {col, vec}));
  return d.result(r);
}

/// at::native::should_fold for inference (no operand requires grad): the larger operand is
/// at least 3-d, the other at most 2-d, and the larger folds into a matrix without a copy.
bool shouldFold(const TensorType &a, const TensorType &b) {
  size_t n1 = a.sizes.size(), n2 = b.sizes.size();
  bool firstLarger = n1 >= n2;
  size_t big = firstLarger ? n1 : n2, small = firstLarger ? n2 : n1;
  if (!(big >= 3 && small <= 2))
    return false;
  if (n1 == 2)
    return false;
  std::vector<SymExpr> sizes = firstLarger ? a.sizes : b.sizes;
  std::vector<SymExpr> strides = firstLarger ? a.strides : b.strides;
  if (!firstLarger) { // t1 is tensor2.mT()
    std::swap(sizes[big - 1], sizes[big - 2]);
    std::swap(strides[big - 1], strides[big - 2]);
  }
  for (const SymExpr &s : sizes)
    if (symIs(s, 0))
      return true;
  for (size_t i = 0; i + 2 < big; ++i)
    if (!symEq(strides[i], symMul(strides[i + 1], sizes[i + 1])))
      return false;
  return true;
}

/// at::native::_matmul_impl without out=.
Expected<Argument> matmulOf(Decomposer &d, const Argument &a1, const Argument &a2) {
  FXKIT_ASSIGN_OR_RETURN(auto t1, d.type(a1));
  FXKIT_ASSIGN_OR_RETURN(auto t2, d.type(a2));
  size_t n1 = t1.sizes.size(), n2 = t2.sizes.size();
  if (n1 == 0 || n2 == 0)
    return d.error("both arguments to matmul need to be at least 1D, but they are " +
                   std::to_string(n1) + "D and " + std::to_string(n2) + "D");
  if (n1 == 1 && n2 == 1)
    return d.call("aten.dot.default", {a1, a2});
  if (n1 == 2 && n2 == 1)
    return d.call("aten.mv.default", {a1, a2});
  if (n1 == 1 && n2 == 2) {
    FXKIT_ASSIGN_OR_RETURN(auto u, unsqueeze(d, a1, 0));
    FXKIT_ASSIGN_OR_RETURN(auto m, d.call("aten.mm.default", {u, a2}));
    return d.call("aten.squeeze.dim", {m, Argument::integer(0)});
  }
  if (n1 == 2 && n2 == 2)
    return d.call("aten.mm.default", {a1, a2});
  if (shouldFold(t1, t2)) {
    // Fold the batch of the larger operand into the rows of one matrix product.
    bool transpose = n2 > n1;
    Argument x1 = a1, x2 = a2;
    if (transpose) {
      FXKIT_ASSIGN_OR_RETURN(auto m, swapDims(d, a2, -2, -1));
      x1 = m;
      if (n1 == 2) {
        FXKIT_ASSIGN_OR_RETURN(auto t, swapDims(d, a1, 0, 1));
        x2 = t;
      } else {
        x2 = a1;
      }
    }
    FXKIT_ASSIGN_OR_RETURN(auto s1, d.type(x1));
    FXKIT_ASSIGN_OR_RETURN(auto s2, d.type(x2));
    size_t r1 = s1.sizes.size();
    std::vector<Argument> outShape;
    for (size_t i = 0; i + 1 < r1; ++i) {
      FXKIT_ASSIGN_OR_RETURN(auto s, d.size(x1, static_cast<int64_t>(i)));
      outShape.push_back(s);
    }
    FXKIT_ASSIGN_OR_RETURN(auto folded, sizeProduct(d, x1, 0, r1 - 1));
    bool matrix = s2.sizes.size() == 2;
    if (matrix) {
      FXKIT_ASSIGN_OR_RETURN(auto p, d.size(x2, 1));
      outShape.push_back(p);
    }
    FXKIT_ASSIGN_OR_RETURN(auto last, d.size(x1, -1));
    FXKIT_ASSIGN_OR_RETURN(auto x1f, d.reshape(x1, {folded, last}));
    FXKIT_ASSIGN_OR_RETURN(auto prod,
                           d.call(matrix ? "aten.mm.default" : "aten.mv.default", {x1f, x2}));
    FXKIT_ASSIGN_OR_RETURN(
        auto out, d.call("aten.view.default", {prod, Argument::list(std::move(outShape))}));
    if (!transpose)
      return out;
    FXKIT_ASSIGN_OR_RETURN(auto back, swapDims(d, out, -2, -1));
    return d.contiguous(back, "contiguous_format");
  }
  // Broadcast the batch dims, flatten them into one, bmm.
  Argument n = Argument::integer(1), p = Argument::integer(1);
  if (n1 > 1) {
    FXKIT_ASSIGN_OR_RETURN(auto s, d.size(a1, -2));
    n = s;
  }
  FXKIT_ASSIGN_OR_RETURN(auto m1, d.size(a1, -1));
  FXKIT_ASSIGN_OR_RETURN(auto m2, n2 > 1 ? d.size(a2, -2) : d.size(a2, 0));
  if (n2 > 1) {
    FXKIT_ASSIGN_OR_RETURN(auto s, d.size(a2, -1));
    p = s;
  }
  size_t b1 = n1 > 2 ? n1 - 2 : 0, b2 = n2 > 2 ? n2 - 2 : 0;
  size_t batchRank = std::max(b1, b2);
  std::vector<Argument> batch;
  for (size_t i = 0; i < batchRank; ++i) {
    // Right-aligned: position i of the result is b1 - batchRank + i of the first operand.
    int64_t i1 = static_cast<int64_t>(i) - static_cast<int64_t>(batchRank - b1);
    int64_t i2 = static_cast<int64_t>(i) - static_cast<int64_t>(batchRank - b2);
    std::optional<SymExpr> e1, e2;
    if (i1 >= 0)
      e1 = t1.sizes[i1];
    if (i2 >= 0)
      e2 = t2.sizes[i2];
    bool takeFirst = !e2 || (e1 && !symIs(*e1, 1));
    if (e1 && e2 && !symIs(*e1, 1) && !symIs(*e2, 1) && !symEq(*e1, *e2))
      return d.error("The size of tensor a (" + e1->str() + ") must match the size of tensor b (" +
                     e2->str() + ") at non-singleton dimension " + std::to_string(i));
    FXKIT_ASSIGN_OR_RETURN(auto s, takeFirst ? d.size(a1, i1) : d.size(a2, i2));
    batch.push_back(s);
  }
  Argument batchProduct = Argument::integer(1);
  for (const Argument &b : batch) {
    FXKIT_ASSIGN_OR_RETURN(auto q, d.mul(batchProduct, b));
    batchProduct = q;
  }
  std::vector<Argument> e1 = batch;
  e1.push_back(n);
  e1.push_back(m1);
  FXKIT_ASSIGN_OR_RETURN(auto x1e, d.call("aten.expand.default", {a1, Argument::list(e1)}));
  FXKIT_ASSIGN_OR_RETURN(auto x1, d.reshape(x1e, {batchProduct, n, m1}));
  bool vectorRhs = n2 == 1;
  std::vector<Argument> e2 = batch;
  e2.push_back(m2);
  if (!vectorRhs)
    e2.push_back(p);
  FXKIT_ASSIGN_OR_RETURN(auto x2e, d.call("aten.expand.default", {a2, Argument::list(e2)}));
  Argument x2;
  if (vectorRhs) {
    FXKIT_ASSIGN_OR_RETURN(auto f, d.reshape(x2e, {batchProduct, m2}));
    FXKIT_ASSIGN_OR_RETURN(auto u, unsqueeze(d, f, 2));
    x2 = u;
  } else {
    FXKIT_ASSIGN_OR_RETURN(auto f, d.reshape(x2e, {batchProduct, m2, p}));
    x2 = f;
  }
  std::vector<Argument> outShape = batch;
  if (n1 > 1)
    outShape.push_back(n);
  if (n2 > 1)
    outShape.push_back(p);
  FXKIT_ASSIGN_OR_RETURN(auto prod, d.call("aten.bmm.default", {x1, x2}));
  if (vectorRhs) {
    FXKIT_ASSIGN_OR_RETURN(auto sq, d.call("aten.squeeze.dim", {prod, Argument::integer(-1)}));
    prod = sq;
  }
  return d.call("aten.view.default", {prod, Argument::list(std::move(outShape))});
}

Status decomposeMatmul(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto r, matmulOf(d, d.arg("self"), d.arg("other")));
  return d.result(r);
}

// ---- Reductions written with others ----

/// std = sqrt(var) in op math (torch/_refs.std); std.dim, std.default, std_mean's and
/// var_mean's .dim and .default name the correction by `unbiased`; var.default and var_mean are
/// their .correction forms.
Expected<Argument> correctionArg(Decomposer &d) {
  if (d.args().op().schema.indexOf("unbiased") >= 0) {
    FXKIT_ASSIGN_OR_RETURN(auto unbiased, d.args().boolean("unbiased"));
    return Argument::integer(unbiased ? 1 : 0);
  }
  return d.arg("correction");
}

Status decomposeStdVar(Decomposer &d) {
  std::string_view name = d.args().op().schema.name;
  const Argument &self = d.arg("self");
  FXKIT_ASSIGN_OR_RETURN(auto t, d.type(self));
  FXKIT_ASSIGN_OR_RETURN(auto correction, correctionArg(d));
  const OpSchema &schema = d.args().op().schema;
  Argument dims = schema.indexOf("dim") >= 0 ? d.arg("dim") : Argument::none();
  Argument keepdim = schema.indexOf("keepdim") >= 0 ? d.arg("keepdim") : Argument::boolean(false);
  if (name == "var_mean") {
    FXKIT_ASSIGN_OR_RETURN(auto v, d.call("aten.var_mean.correction", {self, dims},
                                          {{"correction", correction}, {"keepdim", keepdim}}));
    return d.result(v);
  }
  Argument x = self;
  if (name != "var") {
    FXKIT_ASSIGN_OR_RETURN(auto up,
                           d.convert(self, t.dtype == DType::Float16 || t.dtype == DType::BFloat16
                                               ? DType::Float32
                                               : t.dtype));
    x = up;
  }
  std::string_view target = name == "std_mean" ? "aten.var_mean.correction" : "aten.var.correction";
  FXKIT_ASSIGN_OR_RETURN(
      auto v, d.call(target, {x, dims}, {{"correction", correction}, {"keepdim", keepdim}}));
  if (name == "var")
    return d.result(v);
  Argument var = v, mean = Argument::none();
  if (name == "std_mean") {
    FXKIT_ASSIGN_OR_RETURN(auto v0, d.getitem(v, 0));
    FXKIT_ASSIGN_OR_RETURN(auto m0, d.getitem(v, 1));
    var = v0;
    FXKIT_ASSIGN_OR_RETURN(auto mc, d.convert(m0, t.dtype));
    mean = mc;
  }
  FXKIT_ASSIGN_OR_RETURN(auto s, d.call("aten.sqrt.default", {var}));
  FXKIT_ASSIGN_OR_RETURN(auto r, d.convert(s, t.dtype));
  if (name == "std_mean")
    return d.results({r, mean});
  return d.result(r);
}

/// searchsorted(sorted_sequence, self, out_int32, right, side, sorter) and
/// bucketize(self, boundaries, out_int32, right): per value, the number of sequence entries (along
/// its last dim) before which the binary search stops, counted as !(s >= v) (left) or !(s > v)
/// (right): over a sorted sequence that is the search's answer, a NaN value goes past the end as
/// PyTorch's search puts it (a sequence holding NaN is not sorted; there the count and PyTorch's
/// search may differ). A sum over a broadcast comparison, which fusion makes one reduction. The
/// sequence is 1-D (bucketize's boundaries always) or has the values' leading dims; `sorter`
/// gathers it first.
Status decomposeSearchSorted(Decomposer &d) {
  const bool bucketize = d.args().op().schema.name == "bucketize";
  const Argument &values = d.arg("self");
  Argument seq = d.arg(bucketize ? "boundaries" : "sorted_sequence");
  FXKIT_ASSIGN_OR_RETURN(auto v, d.type(values));
  FXKIT_ASSIGN_OR_RETURN(auto b, d.type(seq));
  const std::string op = bucketize ? "torch.bucketize()" : "torch.searchsorted()";
  if (bucketize && b.sizes.size() != 1)
    return d.error("boundaries tensor must be 1 dimension, but got dim(" +
                   std::to_string(b.sizes.size()) + ")");
  if (b.sizes.empty())
    return d.error(op + ": boundaries tensor should have positive dimension, but got 0 "
                        "dimension");
  if (b.sizes.size() != 1) {
    bool matched = v.sizes.size() == b.sizes.size();
    for (size_t i = 0; matched && i + 1 < b.sizes.size(); ++i)
      matched = symEq(v.sizes[i], b.sizes[i]);
    if (!matched)
      return d.error(op +
                     ": boundaries tensor should be 1 dimension or the first N-1 dimensions "
                     "of boundaries tensor and input value tensor must match, but we got "
                     "boundaries tensor " +
                     sizesText(b.sizes) + " and input value tensor " + sizesText(v.sizes));
  }
  FXKIT_ASSIGN_OR_RETURN(bool right, d.args().boolean("right"));
  if (!bucketize && !d.arg("side").isNone()) {
    const std::string_view side = d.arg("side").asString();
    if (side != "left" && side != "right")
      return d.error("torch.searchsorted(): side can only be 'left' or 'right' but got " +
                     std::string(side));
    if (right && side == "left")
      return d.error("torch.searchsorted(): side and right can't be set to opposites, got side of "
                     "left while right was True");
    right = side == "right";
  }
  if (!bucketize && !d.arg("sorter").isNone()) {
    FXKIT_ASSIGN_OR_RETURN(auto sorter, d.type(d.arg("sorter")));
    if (sorter.dtype != DType::Int64)
      return d.error("torch.searchsorted(): sorter must be a tensor of long dtype but got dtype " +
                     std::string(dtypeScalarTypeName(sorter.dtype)));
    if (!sameSizes(sorter.sizes, b.sizes))
      return d.error("torch.searchsorted(): boundary and sorter must have the same size, but got "
                     "boundary tensor " +
                     sizesText(b.sizes) + "and got sorter tensor " + sizesText(sorter.sizes));
    FXKIT_ASSIGN_OR_RETURN(
        seq, d.call("aten.gather.default", {seq, Argument::integer(-1), d.arg("sorter")}));
  }
  FXKIT_ASSIGN_OR_RETURN(bool int32, d.args().boolean("out_int32"));
  // [..., K, 1] against [..., 1, M] (or [M]): [..., K, M].
  FXKIT_ASSIGN_OR_RETURN(auto column,
                         d.call("aten.unsqueeze.default", {values, Argument::integer(-1)}));
  Argument row = seq;
  if (b.sizes.size() > 1) {
    FXKIT_ASSIGN_OR_RETURN(row, d.call("aten.unsqueeze.default", {seq, Argument::integer(-2)}));
  }
  FXKIT_ASSIGN_OR_RETURN(auto stops,
                         d.call(right ? "aten.gt.Tensor" : "aten.ge.Tensor", {row, column}));
  FXKIT_ASSIGN_OR_RETURN(auto before, d.call("aten.logical_not.default", {stops}));
  FXKIT_ASSIGN_OR_RETURN(
      auto r, d.call("aten.sum.dim_IntList",
                     {before, Argument::list({Argument::integer(-1)}), Argument::boolean(false)},
                     {{"dtype", Argument::dtype(int32 ? DType::Int32 : DType::Int64)}}));
  return d.result(r);
}

/// linalg_vector_norm(x, ord, dim, keepdim, dtype) as torch/_refs/linalg writes it; norm's
/// Scalar overloads are the vector norm.
Expected<Argument> vectorNorm(Decomposer &d, const Argument &x, double ord, const Argument &dims,
                              bool keepdim, std::optional<DType> dtype) {
  FXKIT_ASSIGN_OR_RETURN(auto t, d.type(x));
  if (!dtypeIsFloating(t.dtype) && t.dtype != DType::Complex64 && t.dtype != DType::Complex128)
    return d.error("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                   "Got " +
                   std::string(dtypeScalarTypeName(t.dtype)));
  DType inDtype = dtype ? *dtype : t.dtype;
  DType compute =
      inDtype == DType::Float16 || inDtype == DType::BFloat16 ? DType::Float32 : inDtype;
  DType result = inDtype == DType::Complex64    ? DType::Float32
                 : inDtype == DType::Complex128 ? DType::Float64
                                                : inDtype;
  Argument keep = Argument::boolean(keepdim);
  Argument dimList = dims.isNone() ? Argument::list({}) : dims;
  if (ord == 0) {
    FXKIT_ASSIGN_OR_RETURN(auto ne, d.call("aten.ne.Scalar", {x, Argument::integer(0)}));
    return d.call("aten.sum.dim_IntList", {ne, dims, keep}, {{"dtype", Argument::dtype(result)}});
  }
  if (std::isinf(ord)) {
    FXKIT_ASSIGN_OR_RETURN(auto a, d.call("aten.abs.default", {x}));
    FXKIT_ASSIGN_OR_RETURN(
        auto m, d.call(ord > 0 ? "aten.amax.default" : "aten.amin.default", {a, dimList, keep}));
    return d.convert(m, result);
  }
  FXKIT_ASSIGN_OR_RETURN(auto xc, d.convert(x, compute));
  Argument v = xc;
  bool even = std::fmod(ord, 2.0) == 0.0;
  if (!(even && dtypeIsFloating(compute))) {
    FXKIT_ASSIGN_OR_RETURN(auto a, d.call("aten.abs.default", {v}));
    v = a;
  }
  Argument ordArg = ord == std::trunc(ord) && std::fabs(ord) < 1e15
                        ? Argument::integer(static_cast<int64_t>(ord))
                        : Argument::floating(ord);
  FXKIT_ASSIGN_OR_RETURN(auto p, d.call("aten.pow.Tensor_Scalar", {v, ordArg}));
  FXKIT_ASSIGN_OR_RETURN(auto s, d.call("aten.sum.dim_IntList", {p, dims, keep}));
  FXKIT_ASSIGN_OR_RETURN(auto root,
                         d.call("aten.pow.Tensor_Scalar", {s, Argument::floating(1.0 / ord)}));
  return d.convert(root, result);
}

Status decomposeVectorNorm(Decomposer &d) {
  std::string_view name = d.args().op().schema.name;
  const OpSchema &schema = d.args().op().schema;
  const char *ordName = name == "norm" ? "p" : "ord";
  double ord = 2;
  if (!d.arg(ordName).isNone()) {
    FXKIT_ASSIGN_OR_RETURN(auto o, d.args().floating(ordName));
    ord = o;
  }
  Argument dims = schema.indexOf("dim") >= 0 ? d.arg("dim") : Argument::none();
  bool keepdim = false;
  if (schema.indexOf("keepdim") >= 0) {
    FXKIT_ASSIGN_OR_RETURN(auto k, d.args().boolean("keepdim"));
    keepdim = k;
  }
  std::optional<DType> dtype;
  if (schema.indexOf("dtype") >= 0) {
    FXKIT_ASSIGN_OR_RETURN(auto dt, d.args().dtype("dtype"));
    dtype = dt;
  }
  FXKIT_ASSIGN_OR_RETURN(auto r, vectorNorm(d, d.arg("self"), ord, dims, keepdim, dtype));
  return d.result(r);
}

// ---- einsum ----

/// at::native::sumproduct_pair with keepdim: (left * right) summed over `sumDims` (the operands
/// aligned to the same dims), as a permute, reshape, bmm, view and permute back.
Expected<Argument> sumproductPair(Decomposer &d, Argument left, Argument right,
                                  const std::vector<int64_t> &sumDims) {
  if (sumDims.empty())
    return d.call("aten.mul.Tensor", {left, right});
  FXKIT_ASSIGN_OR_RETURN(auto lt0, d.type(left));
  size_t rank = lt0.sizes.size();
  std::vector<bool> summed(rank, false);
  for (int64_t s : sumDims)
    summed[s] = true;
  std::vector<int64_t> lro, lo, ro;
  Argument lroSize = Argument::integer(1), loSize = Argument::integer(1),
           roSize = Argument::integer(1), sumSize = Argument::integer(1);
  auto times = [&d](Argument &acc, const Argument &t, int64_t dim) -> Status {
    FXKIT_ASSIGN_OR_RETURN(auto s, d.size(t, dim));
    FXKIT_ASSIGN_OR_RETURN(auto p, d.mul(acc, s));
    acc = p;
    return Status::ok();
  };
  for (size_t i = 0; i < rank; ++i) {
    FXKIT_ASSIGN_OR_RETURN(auto lt, d.type(left));
    FXKIT_ASSIGN_OR_RETURN(auto rt, d.type(right));
    int64_t dim = static_cast<int64_t>(i);
    bool sl = !symIs(lt.sizes[i], 1), sr = !symIs(rt.sizes[i], 1);
    if ((sl && sr) && !symEq(lt.sizes[i], rt.sizes[i]))
      return d.error("non-broadcast dimensions must match");
    Status st = Status::ok();
    if (summed[i]) {
      if (sl && sr) {
        st = times(sumSize, left, dim);
      } else if (sl) {
        FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.sum.dim_IntList",
                                              {left, intListArg({dim}), Argument::boolean(true)}));
        left = r;
      } else if (sr) {
        FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.sum.dim_IntList",
                                              {right, intListArg({dim}), Argument::boolean(true)}));
        right = r;
      }
    } else if (sl && sr) {
      lro.push_back(dim);
      st = times(lroSize, left, dim);
    } else if (sl) {
      lo.push_back(dim);
      st = times(loSize, left, dim);
    } else {
      ro.push_back(dim);
      st = times(roSize, right, dim);
    }
    FXKIT_TRY(st);
  }
  // Where every right-only dim comes before the left-only ones, swapping the operands lets bmm
  // write the result in the output's order.
  if (!lo.empty() && !ro.empty() && ro.back() < lo.front()) {
    std::swap(left, right);
    std::swap(lo, ro);
    std::swap(loSize, roSize);
  }
  std::vector<Argument> outSize;
  for (int64_t dim : lro) {
    FXKIT_ASSIGN_OR_RETURN(auto s, d.size(left, dim));
    outSize.push_back(s);
  }
  for (int64_t dim : lo) {
    FXKIT_ASSIGN_OR_RETURN(auto s, d.size(left, dim));
    outSize.push_back(s);
  }
  for (size_t k = 0; k < sumDims.size(); ++k)
    outSize.push_back(Argument::integer(1));
  for (int64_t dim : ro) {
    FXKIT_ASSIGN_OR_RETURN(auto s, d.size(right, dim));
    outSize.push_back(s);
  }
  std::vector<int64_t> lperm = lro, rperm = lro;
  lperm.insert(lperm.end(), lo.begin(), lo.end());
  lperm.insert(lperm.end(), sumDims.begin(), sumDims.end());
  lperm.insert(lperm.end(), ro.begin(), ro.end());
  rperm.insert(rperm.end(), sumDims.begin(), sumDims.end());
  rperm.insert(rperm.end(), ro.begin(), ro.end());
  rperm.insert(rperm.end(), lo.begin(), lo.end());
  std::vector<int64_t> operm(rank, -1);
  int64_t at = 0;
  for (const std::vector<int64_t> *group :
       std::initializer_list<const std::vector<int64_t> *>{&lro, &lo, &sumDims, &ro})
    for (int64_t dim : *group)
      operm[dim] = at++;
  FXKIT_ASSIGN_OR_RETURN(auto lp, d.call("aten.permute.default", {left, intListArg(lperm)}));
  FXKIT_ASSIGN_OR_RETURN(auto l3, d.reshape(lp, {lroSize, loSize, sumSize}));
  FXKIT_ASSIGN_OR_RETURN(auto rp, d.call("aten.permute.default", {right, intListArg(rperm)}));
  FXKIT_ASSIGN_OR_RETURN(auto r3, d.reshape(rp, {lroSize, sumSize, roSize}));
  FXKIT_ASSIGN_OR_RETURN(auto prod, d.call("aten.bmm.default", {l3, r3}));
  FXKIT_ASSIGN_OR_RETURN(auto view,
                         d.call("aten.view.default", {prod, Argument::list(std::move(outSize))}));
  return d.call("aten.permute.default", {view, intListArg(operm)});
}

/// einsum(equation, tensors, path) as at::native::einsum: every operand aligned to the output
/// dims followed by the contracted ones (diagonals for repeated subscripts, unsqueezed missing
/// dims), contracted pairwise left to right (or along `path`) with sumproduct_pair, dims summed
/// as soon as no later operand has them.
Status decomposeEinsum(Decomposer &d) {
  constexpr int kLetters = 26, kLabels = 52, kEllipsis = 52;
  const Argument &eqArg = d.arg("equation");
  if (eqArg.kind() != Argument::Kind::String)
    return d.error("einsum(): the equation must be a string");
  std::string eq(eqArg.asString());
  const Argument &list = d.arg("tensors");
  std::vector<Argument> operands = list.isContainer() ? list.items() : std::vector<Argument>{};
  if (operands.empty())
    return d.error("einsum(): must provide at least one operand");
  size_t numOps = operands.size();
  std::optional<std::vector<int64_t>> path;
  if (!d.arg("path").isNone()) {
    FXKIT_ASSIGN_OR_RETURN(auto p, d.args().intList("path"));
    path = p;
    size_t want = numOps == 1 ? 1 : (numOps - 1) * 2;
    if (path->size() != want)
      return d.error("einsum(): expected contraction path given in path parameter to have size " +
                     std::to_string(want) + " but got " + std::to_string(path->size()));
  }
  auto subscript = [](char c) {
    return std::isupper(static_cast<unsigned char>(c)) ? c - 'A' : c - 'a' + kLetters;
  };
  size_t arrow = eq.find("->");
  std::string lhs = eq.substr(0, arrow);
  std::vector<std::vector<int>> opLabels(numOps);
  size_t cur = 0;
  bool ellInInput = false;
  for (size_t i = 0; i < lhs.size(); ++i) {
    char c = lhs[i];
    if (c == ' ')
      continue;
    if (c == '.') {
      if (ellInInput)
        return d.error("einsum(): found '.' for operand " + std::to_string(cur) +
                       " for which an ellipsis was already found");
      if (!(i + 2 < lhs.size() && lhs[i + 1] == '.' && lhs[i + 2] == '.'))
        return d.error("einsum(): found '.' for operand " + std::to_string(cur) +
                       " that is not part of any ellipsis");
      i += 2;
      opLabels[cur].push_back(kEllipsis);
      ellInInput = true;
    } else if (c == ',') {
      if (++cur >= numOps)
        return d.error("einsum(): fewer operands were provided than specified in the equation");
      ellInInput = false;
    } else if (std::isalpha(static_cast<unsigned char>(c))) {
      opLabels[cur].push_back(subscript(c));
    } else {
      return d.error("einsum(): invalid subscript given at index " + std::to_string(i) +
                     " in the equation string, subscripts must be in [a-zA-Z]");
    }
  }
  if (cur != numOps - 1)
    return d.error("einsum(): more operands were provided than specified in the equation");
  std::vector<TensorType> types;
  std::vector<int64_t> labelCount(kLabels, 0);
  int64_t ellNumDim = 0;
  for (size_t i = 0; i < numOps; ++i) {
    FXKIT_ASSIGN_OR_RETURN(auto t, d.type(operands[i]));
    types.push_back(t);
    int64_t ndims = static_cast<int64_t>(t.sizes.size());
    int64_t nlabels = static_cast<int64_t>(opLabels[i].size());
    bool ellipsis = false;
    for (int label : opLabels[i]) {
      if (label == kEllipsis) {
        --nlabels;
        ellipsis = true;
        ellNumDim = std::max(ellNumDim, ndims - nlabels);
      } else {
        ++labelCount[label];
      }
    }
    if (ellipsis ? nlabels > ndims : nlabels != ndims)
      return d.error("einsum(): the number of subscripts in the equation (" +
                     std::to_string(nlabels) +
                     (ellipsis ? ") is more than the number of dimensions ("
                               : ") does not match the number of dimensions (") +
                     std::to_string(ndims) + ") for operand " + std::to_string(i) +
                     (ellipsis ? "" : " and no ellipsis was given"));
  }
  std::vector<int64_t> permIndex(kLabels, -1);
  int64_t next = 0, ellIndex = 0;
  bool ellInOutput = false;
  if (arrow == std::string::npos) {
    next = ellNumDim;
    ellInOutput = true;
    for (int label = 0; label < kLabels; ++label)
      if (labelCount[label] == 1)
        permIndex[label] = next++;
  } else {
    std::string rhs = eq.substr(arrow + 2);
    for (size_t i = 0; i < rhs.size(); ++i) {
      char c = rhs[i];
      if (c == ' ')
        continue;
      if (c == '.') {
        if (ellInOutput)
          return d.error("einsum(): found '.' for output but an ellipsis (...) was already found");
        if (!(i + 2 < rhs.size() && rhs[i + 1] == '.' && rhs[i + 2] == '.'))
          return d.error("einsum(): found '.' for output that is not part of any ellipsis (...)");
        i += 2;
        ellIndex = next;
        next += ellNumDim;
        ellInOutput = true;
      } else if (std::isalpha(static_cast<unsigned char>(c))) {
        int label = subscript(c);
        if (labelCount[label] == 0 || permIndex[label] != -1)
          return d.error(std::string("einsum(): output subscript ") + c +
                         (permIndex[label] > -1
                              ? " appears more than once in the output"
                              : " does not appear in the equation for any input operand"));
        permIndex[label] = next++;
      } else {
        return d.error("einsum(): invalid subscript given at index " +
                       std::to_string(lhs.size() + 2 + i) +
                       " in the equation string, subscripts must be in [a-zA-Z]");
      }
    }
  }
  const int64_t outNumDim = next;
  if (!ellInOutput) {
    ellIndex = next;
    next += ellNumDim;
  }
  for (int label = 0; label < kLabels; ++label)
    if (labelCount[label] > 0 && permIndex[label] == -1)
      permIndex[label] = next++;
  const int64_t permSize = next;
  // Align every operand to [output dims, contracted dims].
  std::vector<SymExpr> labelSize(kLabels, SymExpr(1)), ellSizes(ellNumDim, SymExpr(1));
  std::vector<uint64_t> dimCounts(permSize, 0);
  std::vector<Argument> ops;
  for (size_t i = 0; i < numOps; ++i) {
    Argument op = operands[i];
    std::vector<int64_t> permutation(permSize, -1);
    int64_t dim = 0;
    for (int label : opLabels[i]) {
      FXKIT_ASSIGN_OR_RETURN(auto t, d.type(op));
      if (label == kEllipsis) {
        int64_t ndim = static_cast<int64_t>(types[i].sizes.size()) -
                       (static_cast<int64_t>(opLabels[i].size()) - 1);
        for (int64_t j = ellNumDim - ndim; j < ellNumDim; ++j) {
          const SymExpr &s = t.sizes[dim];
          if (!symIs(s, 1)) {
            if (!symIs(ellSizes[j], 1) && !symEq(ellSizes[j], s))
              return d.error("einsum(): dimension " + std::to_string(dim) +
                             " covered by ellipsis in operand " + std::to_string(i) + "has size " +
                             s.str() +
                             " which does not broadcast with previously seen ellipsis with size " +
                             ellSizes[j].str() + " for the respective dimension");
            ellSizes[j] = s;
            ++dimCounts[ellIndex + j];
          }
          permutation[ellIndex + j] = dim++;
        }
      } else if (permutation[permIndex[label]] == -1) {
        const SymExpr &s = t.sizes[dim];
        if (!symIs(s, 1)) {
          if (!symIs(labelSize[label], 1) && !symEq(labelSize[label], s))
            return d.error(
                std::string("einsum(): subscript ") +
                static_cast<char>(label < kLetters ? 'A' + label : 'a' + label - kLetters) +
                " has size " + s.str() + " for operand " + std::to_string(i) +
                " which does not broadcast with previously seen size " + labelSize[label].str());
          labelSize[label] = s;
          ++dimCounts[permIndex[label]];
        }
        permutation[permIndex[label]] = dim++;
      } else {
        // A repeated subscript: the diagonal, moved to the first occurrence's place.
        int64_t prev = permutation[permIndex[label]];
        if (!symEq(t.sizes[dim], t.sizes[prev]))
          return d.error(
              std::string("einsum(): subscript ") +
              static_cast<char>(label < kLetters ? 'A' + label : 'a' + label - kLetters) +
              " is repeated for operand " + std::to_string(i) + " but the sizes don't match, " +
              t.sizes[dim].str() + " != " + t.sizes[prev].str());
        FXKIT_ASSIGN_OR_RETURN(auto diag, d.call("aten.diagonal.default",
                                                 {op, Argument::integer(0), Argument::integer(prev),
                                                  Argument::integer(dim)}));
        FXKIT_ASSIGN_OR_RETURN(auto moved, d.call("aten.movedim.int", {diag, Argument::integer(-1),
                                                                       Argument::integer(prev)}));
        op = moved;
      }
    }
    for (int64_t &val : permutation)
      if (val == -1) {
        FXKIT_ASSIGN_OR_RETURN(auto u, unsqueeze(d, op, dim));
        op = u;
        val = dim++;
      }
    FXKIT_ASSIGN_OR_RETURN(auto p, d.call("aten.permute.default", {op, intListArg(permutation)}));
    ops.push_back(p);
  }
  // Contract pairwise.
  size_t step = 0;
  while (ops.size() > 1) {
    size_t i = 0, j = 1;
    if (path) {
      int64_t a = (*path)[step++], b = (*path)[step++];
      if (b < a)
        std::swap(a, b);
      if (a == b || a < 0 || b >= static_cast<int64_t>(ops.size()))
        return d.error("einsum(): invalid contraction (" + std::to_string(a) + ", " +
                       std::to_string(b) +
                       (a == b ? ") cannot contract an operand with itself"
                               : ") operand index is out of bounds"));
      i = static_cast<size_t>(a);
      j = static_cast<size_t>(b);
    }
    Argument a = ops[i], b = ops[j];
    ops.erase(ops.begin() + j);
    ops.erase(ops.begin() + i);
    FXKIT_ASSIGN_OR_RETURN(auto at, d.type(a));
    FXKIT_ASSIGN_OR_RETURN(auto bt, d.type(b));
    std::vector<int64_t> sumDims, aSum, bSum;
    for (int64_t dim = outNumDim; dim < permSize; ++dim) {
      bool sa = !symIs(at.sizes[dim], 1), sb = !symIs(bt.sizes[dim], 1);
      if (sa && sb) {
        if (!symEq(at.sizes[dim], bt.sizes[dim]))
          return d.error("non-broadcast dimensions must match");
        if (--dimCounts[dim] == 1) {
          sumDims.push_back(dim);
          dimCounts[dim] = 0;
        }
      } else if (dimCounts[dim] == 1) {
        if (sa) {
          aSum.push_back(dim);
          dimCounts[dim] = 0;
        } else if (sb) {
          bSum.push_back(dim);
          dimCounts[dim] = 0;
        }
      }
    }
    if (!aSum.empty()) {
      FXKIT_ASSIGN_OR_RETURN(
          auto r, d.call("aten.sum.dim_IntList", {a, intListArg(aSum), Argument::boolean(true)}));
      a = r;
    }
    if (!bSum.empty()) {
      FXKIT_ASSIGN_OR_RETURN(
          auto r, d.call("aten.sum.dim_IntList", {b, intListArg(bSum), Argument::boolean(true)}));
      b = r;
    }
    FXKIT_ASSIGN_OR_RETURN(auto prod, sumproductPair(d, a, b, sumDims));
    if (path)
      ops.push_back(prod);
    else
      ops.insert(ops.begin(), prod);
  }
  if (permSize > outNumDim) {
    if (numOps > 1) {
      FXKIT_ASSIGN_OR_RETURN(auto sizes, d.sizes(ops[0]));
      sizes.resize(outNumDim);
      FXKIT_ASSIGN_OR_RETURN(
          auto r, d.call("aten.view.default", {ops[0], Argument::list(std::move(sizes))}));
      return d.result(r);
    }
    std::vector<int64_t> dims;
    for (int64_t dim = outNumDim; dim < permSize; ++dim)
      dims.push_back(dim);
    FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.sum.dim_IntList", {ops[0], intListArg(dims)}));
    return d.result(r);
  }
  return d.result(ops[0]);
}

// ---- Transposes by name ----

/// numpy_T (x.T): all dims reversed; mT, mH, adjoint: the last two swapped; matrix_H (x.H): a
/// matrix transposed. The conjugating ones take real tensors (their conjugate is themselves).
Status decomposeNamedTranspose(Decomposer &d) {
  std::string_view name = d.args().op().schema.name;
  const Argument &self = d.arg("self");
  FXKIT_ASSIGN_OR_RETURN(auto t, d.type(self));
  size_t rank = t.sizes.size();
  if ((name == "mH" || name == "adjoint" || name == "matrix_H") &&
      (t.dtype == DType::Complex64 || t.dtype == DType::Complex128))
    return d.error(std::string(name) + " of a complex tensor (a conjugate) is not supported");
  if (name == "numpy_T") {
    std::vector<int64_t> perm;
    for (size_t i = rank; i-- > 0;)
      perm.push_back(static_cast<int64_t>(i));
    FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.permute.default", {self, intListArg(perm)}));
    return d.result(r);
  }
  if (name == "matrix_H" && rank != 2)
    return d.error("tensor.H is only supported on matrices (2-D tensors). Got " +
                   std::to_string(rank) + "-D tensor.");
  if (rank < 2)
    return d.error("tensor." + std::string(name == "mT" ? "mT" : "mH") +
                   " is only supported on matrices or batches of matrices. Got " +
                   std::to_string(rank) + "-D tensor.");
  FXKIT_ASSIGN_OR_RETURN(auto r, swapDims(d, self, -2, -1));
  return d.result(r);
}

// ---- Weight normalisation ----

/// norm_except_dim(v, pow, dim): the `pow`-norm over every dim but `dim`, kept as size-1 dims
/// (over all of v for dim = -1), as ATen's norm_except_dim computes it.
Expected<Argument> normExceptDim(Decomposer &d, const Argument &v, double pow, int64_t dim,
                                 std::optional<DType> dtype) {
  FXKIT_ASSIGN_OR_RETURN(auto t, d.type(v));
  if (dim == -1)
    return vectorNorm(d, v, pow, Argument::none(), false, dtype);
  FXKIT_ASSIGN_OR_RETURN(auto keep, wrapDim(d, dim, t.sizes.size()));
  std::vector<int64_t> dims;
  for (size_t i = 0; i < t.sizes.size(); ++i)
    if (static_cast<int64_t>(i) != keep)
      dims.push_back(static_cast<int64_t>(i));
  return vectorNorm(d, v, pow, intListArg(dims), true, dtype);
}

Status decomposeNormExceptDim(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto pow, d.args().integer("pow"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, d.args().integer("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto r,
                         normExceptDim(d, d.arg("v"), static_cast<double>(pow), dim, std::nullopt));
  return d.result(r);
}

/// _weight_norm(v, g, dim) = v * (g / ||v||) with the norm over every dim but `dim`:
/// _weight_norm_interface where ATen fuses it (dim first or last, no half), else
/// norm_except_dim; _weight_norm_interface also returns the norm, kept in float32 for
/// bfloat16 g (torch/_decomp).
Status decomposeWeightNorm(Decomposer &d) {
  bool interface = d.args().op().schema.name == "_weight_norm_interface";
  const Argument &v = d.arg("v"), &g = d.arg("g");
  FXKIT_ASSIGN_OR_RETURN(auto vt, d.type(v));
  FXKIT_ASSIGN_OR_RETURN(auto gt, d.type(g));
  FXKIT_ASSIGN_OR_RETURN(auto dim, d.args().integer("dim"));
  if (!(vt.device == gt.device))
    return d.error("weight_norm: expected v and g to be on the same device");
  bool half = vt.dtype == DType::Float16 || gt.dtype == DType::Float16;
  int64_t last = static_cast<int64_t>(vt.sizes.size()) - 1;
  if (!interface && !half && (dim == 0 || dim == last)) {
    FXKIT_ASSIGN_OR_RETURN(auto both,
                           d.call("aten._weight_norm_interface.default", {v, g, d.arg("dim")}));
    FXKIT_ASSIGN_OR_RETURN(auto r, d.getitem(both, 0));
    return d.result(r);
  }
  std::optional<DType> normDtype;
  if (interface && gt.dtype == DType::BFloat16)
    normDtype = DType::Float32;
  FXKIT_ASSIGN_OR_RETURN(auto norm, normExceptDim(d, v, 2, dim, normDtype));
  FXKIT_ASSIGN_OR_RETURN(auto normG, d.convert(norm, gt.dtype));
  FXKIT_ASSIGN_OR_RETURN(auto scale, d.call("aten.div.Tensor", {g, normG}));
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.mul.Tensor", {v, scale}));
  if (interface)
    return d.results({r, norm});
  return d.result(r);
}

// ---- Masked indexing (Inductor's decompositions of slice_scatter, masked_scatter, padding
// backward) and views written with as_strided ----

/// `indices` with each index clamped into [-size, size - 1] of the dim it indexes (None stays):
/// PyTorch's eager _unsafe_masked_index and _unsafe_masked_index_put_accumulate, so that an
/// index the mask drops may be out of range and no position outside `self` is read.
Expected<Argument> clampedIndices(Decomposer &d) {
  const Argument &indices = d.arg("indices");
  FXKIT_ASSIGN_OR_RETURN(auto self, d.type(d.arg("self")));
  if (!indices.isContainer() || indices.items().size() > self.sizes.size())
    return d.error("too many indices for tensor of dimension " + std::to_string(self.sizes.size()));
  std::vector<Argument> out;
  for (size_t i = 0; i < indices.items().size(); ++i) {
    const Argument &index = indices.items()[i];
    if (index.isNone()) {
      out.push_back(index);
      continue;
    }
    FXKIT_ASSIGN_OR_RETURN(auto it, d.type(index));
    if (it.dtype != DType::Int64 && it.dtype != DType::Int32)
      return d.error("_unsafe_masked_index found unexpected index type " +
                     std::string(dtypeScalarTypeName(it.dtype)));
    FXKIT_ASSIGN_OR_RETURN(auto size, d.size(d.arg("self"), static_cast<int64_t>(i)));
    FXKIT_ASSIGN_OR_RETURN(auto low, d.sub(Argument::integer(0), size));
    FXKIT_ASSIGN_OR_RETURN(auto high, d.sub(size, Argument::integer(1)));
    FXKIT_ASSIGN_OR_RETURN(auto c, d.call("aten.clamp.default", {index, low, high}));
    out.push_back(c);
  }
  return Argument::list(std::move(out));
}

/// _unsafe_masked_index of an empty self, as PyTorch's eager kernel: a tensor of `fill` whose
/// indexed dims of size 0 have size 1, indexed (every index clamped into it: all its values are
/// `fill`), so the result has the indexing's shape, every element `fill`.
Status emptyUnsafeMaskedIndex(Decomposer &d, const TensorType &self) {
  const Argument &indices = d.arg("indices");
  if (!indices.isContainer() || indices.items().size() > self.sizes.size())
    return d.error("too many indices for tensor of dimension " + std::to_string(self.sizes.size()));
  std::vector<Argument> sizes, clamped;
  for (size_t i = 0; i < self.sizes.size(); ++i) {
    const bool indexed = i < indices.items().size() && !indices.items()[i].isNone();
    FXKIT_ASSIGN_OR_RETURN(auto size, d.size(d.arg("self"), static_cast<int64_t>(i)));
    sizes.push_back(indexed && symIs(self.sizes[i], 0) ? Argument::integer(1) : size);
    if (i >= indices.items().size())
      continue;
    if (!indexed) {
      clamped.push_back(Argument::none());
      continue;
    }
    FXKIT_ASSIGN_OR_RETURN(auto high, d.sub(sizes.back(), Argument::integer(1)));
    FXKIT_ASSIGN_OR_RETURN(
        auto c, d.call("aten.clamp.default", {indices.items()[i], Argument::integer(0), high}));
    clamped.push_back(c);
  }
  FXKIT_ASSIGN_OR_RETURN(auto full,
                         d.call("aten.new_full.default",
                                {d.arg("self"), Argument::list(std::move(sizes)), d.arg("fill")}));
  FXKIT_ASSIGN_OR_RETURN(
      auto r, d.call("aten._unsafe_index.Tensor", {full, Argument::list(std::move(clamped))}));
  return d.result(r);
}

/// _unsafe_masked_index(self, mask, indices, fill): where(mask, self[indices], fill), as
/// PyTorch's eager kernel computes it: self indexed at the clamped indices, then fill where the
/// mask is false (TensorAdvancedIndexing.cpp).
Status decomposeUnsafeMaskedIndex(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto self, d.type(d.arg("self")));
  if (std::any_of(self.sizes.begin(), self.sizes.end(),
                  [](const SymExpr &s) { return symIs(s, 0); }))
    return emptyUnsafeMaskedIndex(d, self);
  FXKIT_ASSIGN_OR_RETURN(auto indices, clampedIndices(d));
  FXKIT_ASSIGN_OR_RETURN(auto gathered,
                         d.call("aten._unsafe_index.Tensor", {d.arg("self"), indices}));
  FXKIT_ASSIGN_OR_RETURN(auto dropped, d.call("aten.logical_not.default", {d.arg("mask")}));
  FXKIT_ASSIGN_OR_RETURN(auto r,
                         d.call("aten.masked_fill.Scalar", {gathered, dropped, d.arg("fill")}));
  return d.result(r);
}

/// _unsafe_masked_index_put_accumulate(self, mask, indices, values): self with values added at
/// the clamped indices where the mask is true (0 added elsewhere), as PyTorch's eager kernel.
Status decomposeUnsafeMaskedIndexPutAccumulate(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto indices, clampedIndices(d));
  FXKIT_ASSIGN_OR_RETURN(auto dropped, d.call("aten.logical_not.default", {d.arg("mask")}));
  FXKIT_ASSIGN_OR_RETURN(auto kept, d.call("aten.masked_fill.Scalar",
                                           {d.arg("values"), dropped, Argument::integer(0)}));
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.index_put.default",
                                        {d.arg("self"), indices, kept, Argument::boolean(true)}));
  return d.result(r);
}

/// scatter.reduce(self, dim, index, src, reduce) and scatter.value_reduce (value for src):
/// scatter's older reductions, "add" and "multiply", as scatter_reduce.two's "sum" and "prod"
/// with self included (scatter_gather_op's get_operator_enum).
Status decomposeScatterReduce(Decomposer &d) {
  const Argument &reduce = d.arg("reduce");
  const std::string name(reduce.kind() == Argument::Kind::String ? reduce.asString() : "");
  if (name != "add" && name != "multiply")
    return d.error("reduce argument must be either add or multiply.");
  Argument src = d.args().op().schema.indexOf("src") >= 0 ? d.arg("src") : Argument();
  if (src.isNone()) {
    FXKIT_ASSIGN_OR_RETURN(auto self, d.type(d.arg("self")));
    FXKIT_ASSIGN_OR_RETURN(src, d.call("aten.full_like.default", {d.arg("index"), d.arg("value")},
                                       {{"dtype", Argument::dtype(self.dtype)}}));
  }
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.scatter_reduce.two",
                                        {d.arg("self"), d.arg("dim"), d.arg("index"), src,
                                         Argument::string(name == "add" ? "sum" : "prod")},
                                        {{"include_self", Argument::boolean(true)}}));
  return d.result(r);
}

/// glu(self, dim): a * sigmoid(b) for the halves a, b of self along dim (torch/_refs's glu).
Status decomposeGlu(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto self, d.type(d.arg("self")));
  if (self.sizes.empty())
    return d.error("glu does not support scalars because halving size must be even");
  FXKIT_ASSIGN_OR_RETURN(auto dim0, d.args().integer("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, wrapDim(d, dim0, self.sizes.size()));
  const SymExpr &n = self.sizes[static_cast<size_t>(dim)];
  if (n.isConstant() && n.constant() % 2 != 0)
    return d.error("Halving dimension must be even, but dimension " + std::to_string(dim) +
                   " is size " + std::to_string(n.constant()));
  FXKIT_ASSIGN_OR_RETURN(auto size, d.size(d.arg("self"), dim));
  FXKIT_ASSIGN_OR_RETURN(auto half, d.floorDiv(size, Argument::integer(2)));
  FXKIT_ASSIGN_OR_RETURN(auto a, d.call("aten.slice.Tensor", {d.arg("self"), Argument::integer(dim),
                                                              Argument::integer(0), half}));
  FXKIT_ASSIGN_OR_RETURN(
      auto b, d.call("aten.slice.Tensor", {d.arg("self"), Argument::integer(dim), half, size}));
  FXKIT_ASSIGN_OR_RETURN(auto gate, d.call("aten.sigmoid.default", {b}));
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.mul.Tensor", {a, gate}));
  return d.result(r);
}

/// unfold(self, dimension, size, step): the view of every window of `size` along `dimension`,
/// `step` apart, in a new last dim (TensorShape.cpp's unfold): as_strided with that dim's size
/// (n - size) / step + 1 and stride * step, and the new dim's stride the dim's own.
Status decomposeUnfold(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto self, d.type(d.arg("self")));
  FXKIT_ASSIGN_OR_RETURN(auto dim0, d.args().integer("dimension"));
  FXKIT_ASSIGN_OR_RETURN(auto size, d.args().integer("size"));
  FXKIT_ASSIGN_OR_RETURN(auto step, d.args().integer("step"));
  const size_t rank = self.sizes.size();
  FXKIT_ASSIGN_OR_RETURN(auto dim, wrapDim(d, dim0, std::max<size_t>(rank, 1)));
  if (step <= 0)
    return d.error("step is " + std::to_string(step) + " but must be > 0");
  if (size < 0)
    return d.error("size is " + std::to_string(size) + " but must be >= 0");
  // A 0-d tensor unfolds as one element of stride 1.
  Argument n = Argument::integer(1), stride = Argument::integer(1);
  std::vector<Argument> sizes, strides;
  for (size_t i = 0; i < rank; ++i) {
    FXKIT_ASSIGN_OR_RETURN(auto s, d.size(d.arg("self"), static_cast<int64_t>(i)));
    const SymExpr &t = self.strides[i];
    Expected<Argument> st =
        t.isConstant() ? Expected<Argument>(Argument::integer(t.constant()))
                       : d.call("aten.sym_stride.int",
                                {d.arg("self"), Argument::integer(static_cast<int64_t>(i))});
    if (!st)
      return st.takeError();
    sizes.push_back(s);
    strides.push_back(*st);
  }
  if (rank > 0) {
    n = sizes[static_cast<size_t>(dim)];
    stride = strides[static_cast<size_t>(dim)];
  }
  const SymExpr &extent = rank > 0 ? self.sizes[static_cast<size_t>(dim)] : SymExpr(1);
  if (extent.isConstant() && size > extent.constant())
    return d.error("maximum size for tensor at dimension " + std::to_string(dim) + " is " +
                   std::to_string(extent.constant()) + " but size is " + std::to_string(size));
  FXKIT_ASSIGN_OR_RETURN(auto rest, d.sub(n, Argument::integer(size)));
  FXKIT_ASSIGN_OR_RETURN(auto windows, d.floorDiv(rest, Argument::integer(step)));
  FXKIT_ASSIGN_OR_RETURN(auto count, d.add(windows, Argument::integer(1)));
  FXKIT_ASSIGN_OR_RETURN(auto stepped, d.mul(stride, Argument::integer(step)));
  if (rank > 0) {
    sizes[static_cast<size_t>(dim)] = count;
    strides[static_cast<size_t>(dim)] = stepped;
  }
  sizes.push_back(Argument::integer(size));
  strides.push_back(stride);
  FXKIT_ASSIGN_OR_RETURN(
      auto r, d.call("aten.as_strided.default", {d.arg("self"), Argument::list(std::move(sizes)),
                                                 Argument::list(std::move(strides))}));
  return d.result(r);
}

// clang-format off
const OpRow kRows[] = {
  // Metadata assertions
  {"torch.ops.aten._assert_tensor_metadata.default", "_assert_tensor_metadata(Tensor a, SymInt[]? size=None, SymInt[]? stride=None, ScalarType? dtype=None, *, Device? device=None, Layout? layout=None) -> ()", C::Composite, inferComposite, decomposeAssertTensorMetadata},
  // Conversions
  {"torch.ops.aten.to.dtype", "to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)", C::Composite, inferComposite, decomposeTo},
  {"torch.ops.aten.to.dtype_layout", "to.dtype_layout(Tensor(a) self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)", C::Composite, inferComposite, decomposeTo},
  {"torch.ops.aten.to.device", "to.device(Tensor(a) self, Device device, ScalarType dtype, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)", C::Composite, inferComposite, decomposeTo},
  {"torch.ops.aten.to.other", "to.other(Tensor(a) self, Tensor other, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)", C::Composite, inferComposite, decomposeTo},
  {"torch.ops.aten.type_as.default", "type_as(Tensor self, Tensor other) -> Tensor", C::Composite, inferComposite, decomposeTypeAs},
  {"torch.ops.aten.contiguous.default", "contiguous(Tensor(a) self, *, MemoryFormat memory_format=0) -> Tensor(a)", C::Composite, inferComposite, decomposeContiguous},
  // Reshapes
  {"torch.ops.aten.flatten.using_ints", "flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)", C::Composite, inferComposite, decomposeFlatten},
  {"torch.ops.aten.unflatten.int", "unflatten.int(Tensor(a) self, int dim, SymInt[] sizes) -> Tensor(a)", C::Composite, inferComposite, decomposeUnflatten},
  {"torch.ops.aten.expand_as.default", "expand_as(Tensor(a) self, Tensor other) -> Tensor(a)", C::Composite, inferComposite, decomposeAsOther},
  {"torch.ops.aten.view_as.default", "view_as(Tensor(a) self, Tensor other) -> Tensor(a)", C::Composite, inferComposite, decomposeAsOther},
  {"torch.ops.aten.reshape_as.default", "reshape_as(Tensor(a) self, Tensor other) -> Tensor(a)", C::Composite, inferComposite, decomposeAsOther},
  {"torch.ops.aten.broadcast_to.default", "broadcast_to(Tensor(a) self, SymInt[] size) -> Tensor(a)", C::Composite, inferComposite, decomposeAsOther},
  {"torch.ops.aten.movedim.int", "movedim.int(Tensor(a) self, int source, int destination) -> Tensor(a)", C::Composite, inferComposite, decomposeMovedim},
  {"torch.ops.aten.movedim.intlist", "movedim.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)", C::Composite, inferComposite, decomposeMovedim},
  {"torch.ops.aten.moveaxis.int", "moveaxis.int(Tensor(a) self, int source, int destination) -> Tensor(a)", C::Composite, inferComposite, decomposeMovedim},
  {"torch.ops.aten.swapaxes.default", "swapaxes(Tensor(a) self, int axis0, int axis1) -> Tensor(a)", C::Composite, inferComposite, decomposeSwap},
  {"torch.ops.aten.swapdims.default", "swapdims(Tensor(a) self, int dim0, int dim1) -> Tensor(a)", C::Composite, inferComposite, decomposeSwap},
  {"torch.ops.aten.narrow.default", "narrow(Tensor(a) self, int dim, SymInt start, SymInt length) -> Tensor(a)", C::Composite, inferComposite, decomposeNarrow},
  {"torch.ops.aten.numpy_T.default", "numpy_T(Tensor(a) self) -> Tensor(a)", C::Composite, inferComposite, decomposeNamedTranspose},
  {"torch.ops.aten.mT.default", "mT(Tensor(a) self) -> Tensor(a)", C::Composite, inferComposite, decomposeNamedTranspose},
  {"torch.ops.aten.mH.default", "mH(Tensor(a) self) -> Tensor(a)", C::Composite, inferComposite, decomposeNamedTranspose},
  {"torch.ops.aten.adjoint.default", "adjoint(Tensor(a) self) -> Tensor(a)", C::Composite, inferComposite, decomposeNamedTranspose},
  {"torch.ops.aten.matrix_H.default", "matrix_H(Tensor(a) self) -> Tensor(a)", C::Composite, inferComposite, decomposeNamedTranspose},
  {"torch.ops.aten.atleast_1d.default", "atleast_1d(Tensor self) -> Tensor", C::Composite, inferComposite, decomposeAtLeast},
  {"torch.ops.aten.atleast_2d.default", "atleast_2d(Tensor self) -> Tensor", C::Composite, inferComposite, decomposeAtLeast},
  // Splits and joins
  {"torch.ops.aten.chunk.default", "chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]", C::Composite, inferComposite, decomposeChunk},
  {"torch.ops.aten.split.sizes", "split.sizes(Tensor(a -> *) self, SymInt[] split_size, int dim=0) -> Tensor(a)[]", C::Composite, inferComposite, decomposeSplitSizes},
  {"torch.ops.aten.unbind.int", "unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]", C::Composite, inferComposite, decomposeUnbind},
  {"torch.ops.aten.stack.default", "stack(Tensor[] tensors, int dim=0) -> Tensor", C::Composite, inferComposite, decomposeStack},
  {"torch.ops.aten.hstack.default", "hstack(Tensor[] tensors) -> Tensor", C::Composite, inferComposite, decomposeHVStack},
  {"torch.ops.aten.vstack.default", "vstack(Tensor[] tensors) -> Tensor", C::Composite, inferComposite, decomposeHVStack},
  {"torch.ops.aten.row_stack.default", "row_stack(Tensor[] tensors) -> Tensor", C::Composite, inferComposite, decomposeHVStack},
  // Factories from a tensor
  {"torch.ops.aten.new_ones.default", "new_ones(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", C::Composite, inferComposite, decomposeNewFactory},
  {"torch.ops.aten.new_zeros.default", "new_zeros(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", C::Composite, inferComposite, decomposeNewFactory},
  {"torch.ops.aten.new_full.default", "new_full(Tensor self, SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", C::Composite, inferComposite, decomposeNewFactory},
  {"torch.ops.aten.new_empty.default", "new_empty(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", C::Composite, inferComposite, decomposeNewFactory},
  {"torch.ops.aten.new_empty_strided.default", "new_empty_strided(Tensor self, SymInt[] size, SymInt[] stride, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", C::Composite, inferComposite, decomposeNewFactory},
  // Repeats
  {"torch.ops.aten.tile.default", "tile(Tensor self, SymInt[] dims) -> Tensor", C::Composite, inferComposite, decomposeTile},
  {"torch.ops.aten.repeat_interleave.self_int", "repeat_interleave.self_int(Tensor self, SymInt repeats, int? dim=None, *, SymInt? output_size=None) -> Tensor", C::Composite, inferComposite, decomposeRepeatInterleave},
  // Index patterns
  {"torch.ops.aten.diff.default", "diff(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None) -> Tensor", C::Composite, inferComposite, decomposeDiff},
  {"torch.ops.aten.roll.default", "roll(Tensor self, SymInt[1] shifts, int[1] dims=[]) -> Tensor", C::Composite, inferComposite, decomposeRoll},
  {"torch.ops.aten.tril.default", "tril(Tensor self, SymInt diagonal=0) -> Tensor", C::Composite, inferComposite, decomposeTriangle},
  {"torch.ops.aten.triu.default", "triu(Tensor self, SymInt diagonal=0) -> Tensor", C::Composite, inferComposite, decomposeTriangle},
  {"torch.ops.aten.one_hot.default", "one_hot(Tensor self, int num_classes=-1) -> Tensor", C::Composite, inferComposite, decomposeOneHot},
  // Matrix products
  {"torch.ops.aten.matmul.default", "matmul(Tensor self, Tensor other) -> Tensor", C::Composite, inferComposite, decomposeMatmul},
  {"torch.ops.aten.dot.default", "dot(Tensor self, Tensor tensor) -> Tensor", C::Composite, inferComposite, decomposeDot},
  {"torch.ops.aten.mv.default", "mv(Tensor self, Tensor vec) -> Tensor", C::Composite, inferComposite, decomposeMv},
  {"torch.ops.aten.outer.default", "outer(Tensor self, Tensor vec2) -> Tensor", C::Composite, inferComposite, decomposeOuter},
  {"torch.ops.aten.ger.default", "ger(Tensor self, Tensor vec2) -> Tensor", C::Composite, inferComposite, decomposeOuter},
  {"torch.ops.aten.einsum.default", "einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor", C::Composite, inferComposite, decomposeEinsum},
  // Reductions written with others
  {"torch.ops.aten.std.correction", "std.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor", C::Composite, inferComposite, decomposeStdVar},
  {"torch.ops.aten.std.dim", "std.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor", C::Composite, inferComposite, decomposeStdVar},
  {"torch.ops.aten.std.default", "std(Tensor self, bool unbiased=True) -> Tensor", C::Composite, inferComposite, decomposeStdVar},
  {"torch.ops.aten.var.default", "var(Tensor self, bool unbiased=True) -> Tensor", C::Composite, inferComposite, decomposeStdVar},
  {"torch.ops.aten.std_mean.correction", "std_mean.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> (Tensor, Tensor)", C::Composite, inferComposite, decomposeStdVar},
  {"torch.ops.aten.std_mean.dim", "std_mean.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> (Tensor, Tensor)", C::Composite, inferComposite, decomposeStdVar},
  {"torch.ops.aten.std_mean.default", "std_mean(Tensor self, bool unbiased=True) -> (Tensor, Tensor)", C::Composite, inferComposite, decomposeStdVar},
  {"torch.ops.aten.var_mean.dim", "var_mean.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> (Tensor, Tensor)", C::Composite, inferComposite, decomposeStdVar},
  {"torch.ops.aten.var_mean.default", "var_mean(Tensor self, bool unbiased=True) -> (Tensor, Tensor)", C::Composite, inferComposite, decomposeStdVar},
  {"torch.ops.aten.searchsorted.Tensor", "searchsorted.Tensor(Tensor sorted_sequence, Tensor self, *, bool out_int32=False, bool right=False, str? side=None, Tensor? sorter=None) -> Tensor", C::Composite, inferComposite, decomposeSearchSorted},
  {"torch.ops.aten.bucketize.Tensor", "bucketize.Tensor(Tensor self, Tensor boundaries, *, bool out_int32=False, bool right=False) -> Tensor", C::Composite, inferComposite, decomposeSearchSorted},
  {"torch.ops.aten.linalg_vector_norm.default", "linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", C::Composite, inferComposite, decomposeVectorNorm},
  {"torch.ops.aten.norm.ScalarOpt_dim", "norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor", C::Composite, inferComposite, decomposeVectorNorm},
  {"torch.ops.aten.norm.Scalar", "norm.Scalar(Tensor self, Scalar p=2) -> Tensor", C::Composite, inferComposite, decomposeVectorNorm},
  {"torch.ops.aten.norm_except_dim.default", "norm_except_dim(Tensor v, int pow=2, int dim=0) -> Tensor", C::Composite, inferComposite, decomposeNormExceptDim},
  {"torch.ops.aten._weight_norm.default", "_weight_norm(Tensor v, Tensor g, int dim=0) -> Tensor", C::Composite, inferComposite, decomposeWeightNorm},
  {"torch.ops.aten._weight_norm_interface.default", "_weight_norm_interface(Tensor v, Tensor g, int dim=0) -> (Tensor, Tensor)", C::Composite, inferComposite, decomposeWeightNorm},
  // Masked indexing, gates and windows
  {"torch.ops.aten._unsafe_masked_index.default", "_unsafe_masked_index(Tensor self, Tensor mask, Tensor?[] indices, Scalar fill) -> Tensor", C::Composite, inferComposite, decomposeUnsafeMaskedIndex},
  {"torch.ops.aten._unsafe_masked_index_put_accumulate.default", "_unsafe_masked_index_put_accumulate(Tensor self, Tensor mask, Tensor?[] indices, Tensor values) -> Tensor", C::Composite, inferComposite, decomposeUnsafeMaskedIndexPutAccumulate},
  {"torch.ops.aten.scatter.reduce", "scatter.reduce(Tensor self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor", C::Composite, inferComposite, decomposeScatterReduce},
  {"torch.ops.aten.scatter.value_reduce", "scatter.value_reduce(Tensor self, int dim, Tensor index, Scalar value, *, str reduce) -> Tensor", C::Composite, inferComposite, decomposeScatterReduce},
  {"torch.ops.aten.glu.default", "glu(Tensor self, int dim=-1) -> Tensor", C::Composite, inferComposite, decomposeGlu},
  {"torch.ops.aten.unfold.default", "unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)", C::Composite, inferComposite, decomposeUnfold},
};
// clang-format on

} // namespace

std::span<const OpRow> compositeTensorOpRows() { return kRows; }

} // namespace fxkit
