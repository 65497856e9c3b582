#include "ir/ops/ShapeRules.h"

#include <algorithm>
#include <numeric>

namespace fxkit {

using K = SymExpr::Kind;

// ---- Symbolic integer helpers ----

SymExpr symAdd(const SymExpr &a, const SymExpr &b) {
  if (a.isConstant() && b.isConstant())
    return SymExpr(a.constant() + b.constant());
  return SymExpr::binary(K::Add, a, b).simplify();
}

SymExpr symSub(const SymExpr &a, const SymExpr &b) {
  if (a.isConstant() && b.isConstant())
    return SymExpr(a.constant() - b.constant());
  return SymExpr::binary(K::Sub, a, b).simplify();
}

SymExpr symMul(const SymExpr &a, const SymExpr &b) {
  if (a.isConstant() && b.isConstant())
    return SymExpr(a.constant() * b.constant());
  if (symIs(a, 1))
    return b.simplify();
  if (symIs(b, 1))
    return a.simplify();
  return SymExpr::binary(K::Mul, a, b).simplify();
}

Expected<SliceBounds> sliceBounds(const SymExpr &size, std::optional<SymExpr> start,
                                  std::optional<SymExpr> end, int64_t step) {
  if (step <= 0)
    return Error("slice step must be positive, got " + std::to_string(step));
  constexpr int64_t kToTheEnd = int64_t(1) << 62;
  auto bound = [&](std::optional<SymExpr> v, const SymExpr &dflt) -> SymExpr {
    if (!v)
      return dflt;
    if (!v->isConstant())
      return *v;
    int64_t c = v->constant();
    if (c >= kToTheEnd)
      return size;
    if (size.isConstant())
      return SymExpr(std::clamp<int64_t>(c < 0 ? c + size.constant() : c, 0, size.constant()));
    return c < 0 ? symAdd(size, SymExpr(c)) : SymExpr(c);
  };
  SymExpr s = bound(start, SymExpr(0)), e = bound(end, size);
  SymExpr length = symSub(e, s);
  if (length.isConstant() && length.constant() < 0)
    length = SymExpr(0);
  SymExpr kept = step == 1 ? length : symFloorDiv(symAdd(length, SymExpr(step - 1)), SymExpr(step));
  return SliceBounds{s, kept};
}

SymExpr symFloorDiv(const SymExpr &a, const SymExpr &b) {
  if (a.isConstant() && b.isConstant() && b.constant() != 0) {
    int64_t q = a.constant() / b.constant();
    // Python floors toward negative infinity.
    if ((a.constant() % b.constant() != 0) && ((a.constant() < 0) != (b.constant() < 0)))
      --q;
    return SymExpr(q);
  }
  if (symIs(b, 1))
    return a.simplify();
  return SymExpr::binary(K::FloorDiv, a, b).simplify();
}

SymExpr symProduct(const std::vector<SymExpr> &xs) {
  SymExpr acc(1);
  for (const SymExpr &x : xs)
    acc = symMul(acc, x);
  return acc;
}

bool symIs(const SymExpr &e, int64_t v) { return e.isConstant() && e.constant() == v; }

bool symEq(const SymExpr &a, const SymExpr &b) {
  if (a.isConstant() && b.isConstant())
    return a.constant() == b.constant();
  return a.simplify() == b.simplify();
}

bool sameSizes(const std::vector<SymExpr> &a, const std::vector<SymExpr> &b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), symEq);
}

int64_t symHint(const SymExpr &e) {
  if (e.isConstant())
    return e.constant();
  SymExpr::Bindings bindings;
  for (const std::string &s : e.symbols())
    bindings[s] = kSymbolHint;
  auto v = e.evaluate(bindings);
  // An expression that cannot be evaluated (division by zero at the hint) orders as large.
  return v ? *v : kSymbolHint;
}

int symCompare(const SymExpr &a, const SymExpr &b) {
  if (symEq(a, b))
    return 0;
  int64_t x = symHint(a), y = symHint(b);
  return x < y ? -1 : (x > y ? 1 : 0);
}

// ---- Dimensions ----

Expected<int64_t> normalizeDim(int64_t dim, size_t rank) {
  int64_t r = std::max<int64_t>(static_cast<int64_t>(rank), 1);
  if (dim < -r || dim >= r)
    return Error("dimension " + std::to_string(dim) + " out of range for a tensor of rank " +
                 std::to_string(rank));
  return dim < 0 ? dim + r : dim;
}

// ---- Broadcasting ----

Expected<std::vector<SymExpr>> broadcastShapes(const std::vector<std::vector<SymExpr>> &shapes) {
  size_t rank = 0;
  for (const auto &s : shapes)
    rank = std::max(rank, s.size());
  std::vector<SymExpr> out(rank, SymExpr(1));
  for (const auto &s : shapes) {
    size_t offset = rank - s.size();
    for (size_t i = 0; i < s.size(); ++i) {
      SymExpr &o = out[offset + i];
      if (symIs(s[i], 1))
        continue;
      if (symIs(o, 1)) {
        o = s[i];
        continue;
      }
      if (!symEq(o, s[i]))
        return Error("shapes do not broadcast: size " + o.str() + " against " + s[i].str() +
                     " at dimension " + std::to_string(offset + i));
    }
  }
  return out;
}

// ---- Type promotion ----

namespace {

/// 0 bool, 1 integral, 2 floating, 3 complex.
int category(DType d) {
  switch (d) {
  case DType::Bool:
    return 0;
  case DType::Int64:
  case DType::Int32:
  case DType::Int16:
  case DType::Int8:
  case DType::UInt8:
    return 1;
  case DType::Complex64:
  case DType::Complex128:
    return 3;
  default:
    return 2;
  }
}

int intRank(DType d) {
  switch (d) {
  case DType::Int8:
  case DType::UInt8:
    return 1;
  case DType::Int16:
    return 2;
  case DType::Int32:
    return 3;
  default:
    return 4;
  }
}

int floatRank(DType d) {
  switch (d) {
  case DType::Float8E4M3FN:
  case DType::Float8E5M2:
    return 0;
  case DType::Float16:
  case DType::BFloat16:
    return 1;
  case DType::Float32:
    return 2;
  default:
    return 3;
  }
}

} // namespace

DType promoteTypes(DType a, DType b) {
  if (a == b)
    return a;
  int ca = category(a), cb = category(b);
  if (ca != cb)
    return ca > cb ? a : b;
  if (ca == 0)
    return DType::Bool;
  if (ca == 1) {
    // uint8 with a signed 8-bit type needs int16, as in PyTorch's table.
    if ((a == DType::UInt8 && b == DType::Int8) || (a == DType::Int8 && b == DType::UInt8))
      return DType::Int16;
    return intRank(a) >= intRank(b) ? a : b;
  }
  if (ca == 3)
    return (a == DType::Complex128 || b == DType::Complex128) ? DType::Complex128
                                                              : DType::Complex64;
  // Half and bfloat16 have no common 16-bit type.
  if ((a == DType::Float16 && b == DType::BFloat16) ||
      (a == DType::BFloat16 && b == DType::Float16))
    return DType::Float32;
  return floatRank(a) >= floatRank(b) ? a : b;
}

DType scalarKindDType(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::Bool:
    return DType::Bool;
  case ScalarKind::Int:
    return DType::Int64;
  case ScalarKind::Float:
    break;
  }
  return DType::Float32;
}

DType resultType(const std::vector<PromotionOperand> &operands) {
  // The three priority groups of at::native::result_type, each promoted within itself.
  std::optional<DType> dimResult, zeroResult, wrappedResult;
  auto update = [](std::optional<DType> &slot, DType d) {
    slot = slot ? promoteTypes(*slot, d) : d;
  };
  for (const PromotionOperand &op : operands) {
    if (op.isScalar)
      update(wrappedResult, op.dtype);
    else if (op.rank == 0)
      update(zeroResult, op.dtype);
    else
      update(dimResult, op.dtype);
  }
  // at::native::combine_categories(higher, lower): a lower priority group only matters when
  // its category is higher (an int tensor with a float scalar gives the default float dtype).
  auto combine = [](std::optional<DType> higher,
                    std::optional<DType> lower) -> std::optional<DType> {
    if (!higher)
      return lower;
    if (category(*higher) >= 2)
      return higher;
    if (lower && (*higher == DType::Bool || category(*lower) >= 2))
      return promoteTypes(*higher, *lower);
    return higher;
  };
  std::optional<DType> r = combine(dimResult, combine(zeroResult, wrappedResult));
  return r ? *r : DType::Float32;
}

// ---- Strides ----

bool isContiguous(const std::vector<SymExpr> &sizes, const std::vector<SymExpr> &strides) {
  SymExpr expected(1);
  for (size_t i = sizes.size(); i-- > 0;) {
    if (symIs(sizes[i], 0))
      return true;
    if (symIs(sizes[i], 1))
      continue;
    if (!symEq(strides[i], expected))
      return false;
    expected = symMul(expected, sizes[i]);
  }
  return true;
}

namespace {

std::vector<size_t> channelsLastOrder(size_t rank) {
  // Fastest to slowest: C, then spatial dims from last to first, then N.
  std::vector<size_t> order{1};
  for (size_t d = rank - 1; d >= 2; --d)
    order.push_back(d);
  order.push_back(0);
  return order;
}

} // namespace

bool isChannelsLastContiguous(const std::vector<SymExpr> &sizes,
                              const std::vector<SymExpr> &strides) {
  if (sizes.size() != 4 && sizes.size() != 5)
    return false;
  SymExpr expected(1);
  for (size_t d : channelsLastOrder(sizes.size())) {
    if (symIs(sizes[d], 1))
      continue;
    if (!symEq(strides[d], expected))
      return false;
    expected = symMul(expected, sizes[d]);
  }
  return true;
}

bool isNonOverlappingAndDense(const std::vector<SymExpr> &sizes,
                              const std::vector<SymExpr> &strides) {
  size_t rank = sizes.size();
  if (rank == 0)
    return true;
  if (rank == 1)
    return symHint(sizes[0]) < 2 || symIs(strides[0], 1);
  std::vector<size_t> perm(rank);
  std::iota(perm.begin(), perm.end(), 0);
  // Size-0/1 dims go last; the rest by increasing stride (stable, as in c10).
  std::stable_sort(perm.begin(), perm.end(), [&](size_t a, size_t b) {
    if (symHint(sizes[a]) < 2)
      return false;
    if (symHint(sizes[b]) < 2)
      return true;
    return symCompare(strides[a], strides[b]) < 0;
  });
  SymExpr require(1);
  for (size_t i : perm) {
    if (symHint(sizes[i]) < 2)
      return true;
    if (!symEq(strides[i], require))
      return false;
    require = symMul(require, sizes[i]);
  }
  return true;
}

bool stridesLikeChannelsLast(const std::vector<SymExpr> &sizes,
                             const std::vector<SymExpr> &strides) {
  size_t rank = sizes.size();
  if (rank != 4 && rank != 5)
    return false;
  if (symIs(strides[1], 0))
    return false;
  int64_t min = 0;
  for (size_t d : channelsLastOrder(rank)) {
    if (symIs(sizes[d], 0))
      return false;
    int64_t st = symHint(strides[d]);
    if (st < min)
      return false;
    if (d == 0 && min == symHint(strides[1]))
      return false;
    min = st;
    if (st > 1)
      min *= symHint(sizes[d]);
  }
  return true;
}

std::vector<SymExpr> channelsLastStrides(const std::vector<SymExpr> &sizes) {
  if (sizes.size() != 4 && sizes.size() != 5)
    return TensorType::contiguousStrides(sizes);
  std::vector<SymExpr> strides(sizes.size());
  SymExpr acc(1);
  for (size_t d : channelsLastOrder(sizes.size())) {
    strides[d] = acc;
    acc = symMul(acc, symIs(sizes[d], 0) ? SymExpr(1) : sizes[d]);
  }
  return strides;
}

std::optional<std::vector<SymExpr>> memoryFormatStrides(std::string_view format,
                                                        const std::vector<SymExpr> &sizes) {
  if (format == "contiguous_format")
    return TensorType::contiguousStrides(sizes);
  if (format == "channels_last" || format == "channels_last_3d")
    return channelsLastStrides(sizes);
  return std::nullopt;
}

namespace {

/// Dense strides for `shape` laid out in `perm` order (perm[0] fastest).
std::vector<SymExpr> stridesFromPerm(const std::vector<SymExpr> &shape,
                                     const std::vector<size_t> &perm) {
  bool inverted = true;
  for (size_t j = 0; j < perm.size(); ++j)
    if (perm[j] != perm.size() - j - 1)
      inverted = false;
  if (inverted)
    return TensorType::contiguousStrides(shape);
  std::vector<SymExpr> strides(shape.size());
  SymExpr next(1);
  for (size_t d : perm) {
    strides[d] = next;
    next = symMul(next, shape[d]);
  }
  return strides;
}

/// TensorIterator::reorder_dimensions over broadcast strides (0 for broadcast dims).
std::vector<size_t> sortDims(const std::vector<SymExpr> &shape,
                             const std::vector<std::vector<SymExpr>> &strides) {
  size_t ndim = shape.size();
  std::vector<size_t> perm(ndim);
  for (size_t i = 0; i < ndim; ++i)
    perm[i] = ndim - 1 - i;
  auto shouldSwap = [&](size_t dim0, size_t dim1) {
    for (const auto &st : strides) {
      const SymExpr &s0 = st[dim0], &s1 = st[dim1];
      if (symIs(s0, 0) || symIs(s1, 0))
        continue;
      int c = symCompare(s0, s1);
      if (c != 0)
        return c;
      // Equal strides: the smaller size goes first.
      if (symCompare(shape[dim0], shape[dim1]) > 0)
        return 1;
    }
    return 0;
  };
  for (size_t i = 1; i < ndim; ++i) {
    size_t dim1 = i;
    for (size_t dim0 = i; dim0-- > 0;) {
      int c = shouldSwap(perm[dim0], perm[dim1]);
      if (c > 0) {
        std::swap(perm[dim0], perm[dim1]);
        dim1 = dim0;
      } else if (c < 0) {
        break;
      }
    }
  }
  return perm;
}

} // namespace

std::vector<SymExpr> elementwiseStrides(const std::vector<SymExpr> &shape,
                                        const std::vector<const TensorType *> &inputs) {
  size_t ndim = shape.size();
  if (ndim == 0)
    return {};
  bool sameShape = !inputs.empty();
  for (const TensorType *t : inputs)
    if (t->sizes.size() != ndim ||
        !std::equal(t->sizes.begin(), t->sizes.end(), shape.begin(), symEq))
      sameShape = false;
  if (sameShape) {
    // TensorIterator's fast setup.
    if (std::all_of(inputs.begin(), inputs.end(),
                    [](const TensorType *t) { return isContiguous(t->sizes, t->strides); }))
      return TensorType::contiguousStrides(shape);
    if (std::all_of(inputs.begin(), inputs.end(), [](const TensorType *t) {
          return isChannelsLastContiguous(t->sizes, t->strides);
        }))
      return channelsLastStrides(shape);
    bool dense = true;
    for (const TensorType *t : inputs)
      dense = dense && isNonOverlappingAndDense(t->sizes, t->strides) &&
              std::equal(t->strides.begin(), t->strides.end(), inputs[0]->strides.begin(), symEq);
    if (dense)
      return inputs[0]->strides;
  }
  std::vector<std::vector<SymExpr>> strides;
  for (const TensorType *t : inputs) {
    std::vector<SymExpr> st(ndim, SymExpr(0));
    size_t offset = ndim - t->sizes.size();
    for (size_t i = 0; i < t->sizes.size(); ++i)
      st[offset + i] =
          (symIs(t->sizes[i], 1) && !symIs(shape[offset + i], 1)) ? SymExpr(0) : t->strides[i];
    strides.push_back(std::move(st));
  }
  return stridesFromPerm(shape, sortDims(shape, strides));
}

std::vector<SymExpr> preserveFormatStrides(const TensorType &input) {
  if (isNonOverlappingAndDense(input.sizes, input.strides))
    return input.strides;
  return elementwiseStrides(input.sizes, {&input});
}

std::optional<std::vector<SymExpr>> viewStrides(const std::vector<SymExpr> &oldSizes,
                                                const std::vector<SymExpr> &oldStrides,
                                                const std::vector<SymExpr> &newSizes) {
  std::vector<SymExpr> newStrides(newSizes.size());
  if (oldSizes.empty())
    return std::vector<SymExpr>(newSizes.size(), SymExpr(1));
  SymExpr numel = symProduct(oldSizes);
  if (symIs(numel, 0)) {
    if (std::equal(oldSizes.begin(), oldSizes.end(), newSizes.begin(), newSizes.end(), symEq))
      return oldStrides;
    return TensorType::contiguousStrides(newSizes);
  }
  int64_t viewD = static_cast<int64_t>(newSizes.size()) - 1;
  SymExpr chunkBaseStride = oldStrides.back();
  SymExpr tensorNumel(1), viewNumel(1);
  for (int64_t tensorD = static_cast<int64_t>(oldSizes.size()) - 1; tensorD >= 0; --tensorD) {
    tensorNumel = symMul(tensorNumel, oldSizes[tensorD]);
    // At the end of a chunk of dims that are contiguous with each other, match view dims.
    if (tensorD == 0 || (!symIs(oldSizes[tensorD - 1], 1) &&
                         !symEq(oldStrides[tensorD - 1], symMul(tensorNumel, chunkBaseStride)))) {
      while (viewD >= 0 && (symCompare(viewNumel, tensorNumel) < 0 || symIs(newSizes[viewD], 1))) {
        newStrides[viewD] = symMul(viewNumel, chunkBaseStride);
        viewNumel = symMul(viewNumel, newSizes[viewD]);
        --viewD;
      }
      if (!symEq(viewNumel, tensorNumel))
        return std::nullopt;
      if (tensorD > 0) {
        chunkBaseStride = oldStrides[tensorD - 1];
        tensorNumel = SymExpr(1);
        viewNumel = SymExpr(1);
      }
    }
  }
  if (viewD != -1)
    return std::nullopt;
  return newStrides;
}

std::string sizesText(const std::vector<SymExpr> &sizes) {
  std::string out = "[";
  for (size_t i = 0; i < sizes.size(); ++i)
    out += (i ? ", " : "") + sizes[i].str();
  return out + "]";
}

Expected<std::vector<SymExpr>> inferViewSizes(const std::vector<SymExpr> &oldSizes,
                                              const std::vector<SymExpr> &sizes) {
  SymExpr numel = symProduct(oldSizes);
  auto invalid = [&] {
    return Error("shape '" + sizesText(sizes) + "' is invalid for input of size " + numel.str());
  };
  // Both element counts as a constant times a multiset of symbolic factors, so that sizes
  // shared by the input and the request cancel; a symbol is never 0, so a count is 0 exactly
  // when its constant is.
  int64_t numelConstant = 1;
  std::vector<SymExpr> numelFactors;
  for (const SymExpr &s : oldSizes) {
    if (s.isConstant())
      numelConstant *= s.constant();
    else
      numelFactors.push_back(s.simplify());
  }
  int64_t knownConstant = 1;
  bool knownSymbolic = false; // a requested symbolic size that does not cancel
  std::optional<size_t> inferred;
  for (size_t i = 0; i < sizes.size(); ++i) {
    const SymExpr &s = sizes[i];
    if (symIs(s, -1)) {
      if (inferred)
        return Error("only one dimension can be inferred");
      inferred = i;
    } else if (s.isConstant()) {
      if (s.constant() < 0)
        return Error("invalid shape dimension " + s.str());
      knownConstant *= s.constant();
    } else {
      SymExpr ss = s.simplify();
      auto it = std::find(numelFactors.begin(), numelFactors.end(), ss);
      if (it != numelFactors.end())
        numelFactors.erase(it);
      else
        knownSymbolic = true;
    }
  }
  std::vector<SymExpr> out = sizes;
  if (!inferred) {
    if (!symEq(symProduct(sizes), numel))
      return invalid();
    return out;
  }
  // infer_size: -1 takes numel / (product of the other sizes). Next to a 0 it could be any
  // value; otherwise the other sizes must divide numel. Only constants can prove either, so a
  // symbolic remainder is resolved by floor division (PyTorch guards on divisibility there).
  if (knownConstant == 0) {
    if (numelConstant == 0)
      return Error("cannot reshape tensor of 0 elements into shape " + sizesText(sizes) +
                   " because the unspecified dimension size -1 can be any value and is "
                   "ambiguous");
    return invalid();
  }
  if (numelConstant == 0) {
    out[*inferred] = SymExpr(0);
    return out;
  }
  if (!knownSymbolic && numelConstant % knownConstant == 0) {
    out[*inferred] = symMul(SymExpr(numelConstant / knownConstant), symProduct(numelFactors));
    return out;
  }
  if (!knownSymbolic && numelFactors.empty())
    return invalid();
  std::vector<SymExpr> known;
  for (size_t i = 0; i < sizes.size(); ++i)
    if (i != *inferred)
      known.push_back(sizes[i]);
  out[*inferred] = symFloorDiv(numel, symProduct(known));
  return out;
}

Expected<SymExpr> diagonalSize(const SymExpr &size1, const SymExpr &size2, int64_t offset) {
  if (size1.isConstant() && size2.isConstant()) {
    int64_t a = size1.constant(), b = size2.constant();
    int64_t n = offset >= 0 ? std::min(a, b - offset) : std::min(a + offset, b);
    return SymExpr(std::max<int64_t>(n, 0));
  }
  if (offset == 0 && symEq(size1, size2))
    return size1;
  return Error("diagonal of a " + size1.str() + " x " + size2.str() + " matrix at offset " +
               std::to_string(offset) + ": the length depends on symbolic sizes");
}

SymExpr diagonalOffset(const SymExpr &stride1, const SymExpr &stride2, int64_t offset) {
  return offset >= 0 ? symMul(SymExpr(offset), stride2) : symMul(SymExpr(-offset), stride1);
}

std::optional<std::string_view> memoryFormatName(const Argument &a) {
  if (a.kind() == Argument::Kind::MemoryFormat) {
    std::string_view name = a.asString();
    if (name.starts_with("torch."))
      name.remove_prefix(6);
    return name;
  }
  if (a.kind() != Argument::Kind::Int)
    return std::nullopt;
  switch (a.asInt()) { // c10::MemoryFormat
  case 0:
    return "contiguous_format";
  case 1:
    return "preserve_format";
  case 2:
    return "channels_last";
  case 3:
    return "channels_last_3d";
  default:
    return std::nullopt;
  }
}

} // namespace fxkit
