/// \file Tensor op family: rows and inference (see ir/ops/OpFamilies.h). Factories and *_like
/// creation, copies and dtype conversions, the matrix-product forms beyond the core table
/// (baddbmm, out= variants), the attention backward ops, the *_copy forms of views, resize_
/// and the symbolic queries (sym_numel, sym_stride, sym_storage_offset).
///
/// Inference follows the meta functions FakeTensor runs: the C++ CompositeExplicitAutograd
/// kernels for the factories and copies (empty_like, clone_preserve_strides, _to_copy),
/// torch/_meta_registrations.py for baddbmm and attention backward, torch/_refs for arange's
/// length and the *_copy views.

#include "ir/Try.h"
#include "ir/ops/InferSupport.h"
#include "ir/ops/OpFamilies.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fxkit {

namespace {

using C = OpCategory;

// ---- Helpers ----

bool hasArg(const BoundArgs &b, std::string_view name) { return b.op().schema.indexOf(name) >= 0; }

/// The error of an ATen kernel that does not dispatch over `dtype`.
Error notImplemented(const BoundArgs &b, std::string_view kernel, DType dtype) {
  return b.error("\"" + std::string(kernel) + "\" not implemented for '" +
                 std::string(dtypeScalarTypeName(dtype)) + "'");
}

/// The inference of another row whose arguments carry the same names (the functional op of an
/// out= variant, the view of a *_copy op), so that both always agree.
Expected<NodeValue> inferAs(const BoundArgs &b, std::string_view target) {
  const OpInfo *op = OpRegistry::instance().lookup(target);
  if (!op || !op->infer)
    return b.error("no op '" + std::string(target) + "' in the registry to infer from");
  return op->infer(b);
}

/// The single tensor of a value computed by inferAs.
Expected<TensorType> tensorOfValue(const BoundArgs &b, const NodeValue &v) {
  if (const TensorType *t = v.tensor())
    return *t;
  return b.error("expected a single tensor result");
}

/// A `ScalarType?` argument. PyTorch spells some schema defaults as c10::ScalarType numbers
/// (randperm's `dtype=4` is int64), so integers are read as those.
Expected<std::optional<DType>> dtypeArg(const BoundArgs &b, std::string_view name) {
  const Argument &a = b.get(name);
  if (a.kind() != Argument::Kind::Int)
    return b.dtype(name);
  switch (a.asInt()) {
  case 0:
    return std::optional<DType>(DType::UInt8);
  case 1:
    return std::optional<DType>(DType::Int8);
  case 2:
    return std::optional<DType>(DType::Int16);
  case 3:
    return std::optional<DType>(DType::Int32);
  case 4:
    return std::optional<DType>(DType::Int64);
  case 5:
    return std::optional<DType>(DType::Float16);
  case 6:
    return std::optional<DType>(DType::Float32);
  case 7:
    return std::optional<DType>(DType::Float64);
  case 9:
    return std::optional<DType>(DType::Complex64);
  case 10:
    return std::optional<DType>(DType::Complex128);
  case 11:
    return std::optional<DType>(DType::Bool);
  case 15:
    return std::optional<DType>(DType::BFloat16);
  case 23:
    return std::optional<DType>(DType::Float8E5M2);
  case 24:
    return std::optional<DType>(DType::Float8E4M3FN);
  default:
    return b.error("argument '" + std::string(name) + "': unknown ScalarType number " +
                   std::to_string(a.asInt()));
  }
}

/// Strides of a fresh tensor in `format`. PyTorch refuses channels_last off rank 4 and
/// channels_last_3d off rank 5, and a fresh tensor has no format to preserve.
Expected<Sizes> formatStrides(const BoundArgs &b, std::string_view format, const Sizes &sizes) {
  if (format == "channels_last" && sizes.size() != 4)
    return b.error("required rank 4 tensor to use channels_last format");
  if (format == "channels_last_3d" && sizes.size() != 5)
    return b.error("required rank 5 tensor to use channels_last_3d format");
  auto strides = memoryFormatStrides(format, sizes);
  if (!strides)
    return b.error("unsupported memory format " + std::string(format) + " for a new tensor");
  return std::move(*strides);
}

/// at::check_size_nonnegative on the sizes known here (a symbol is never negative).
Status checkSizes(const BoundArgs &b, const Sizes &sizes) {
  for (const SymExpr &s : sizes)
    if (s.isConstant() && s.constant() < 0)
      return b.error("Trying to create tensor with negative dimension " + s.str() + ": " +
                     sizesText(sizes));
  return Status::ok();
}

/// A tensor like `self`, as at::empty_like makes it: the requested dtype and device or self's,
/// self's sizes, and the memory format's strides; preserve_format (the default) keeps self's
/// strides when they are dense, else dense strides in self's stride order.
Expected<TensorType> likeSelf(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  const Argument &layout = b.get("layout");
  if (layout.kind() == Argument::Kind::Layout && layout.asString() != "strided")
    return b.error("layout torch." + std::string(layout.asString()) +
                   " is not supported: fxkit tensors are strided");
  DType dtype = self.dtype;
  if (hasArg(b, "dtype")) {
    FXKIT_ASSIGN_OR_RETURN(auto d, dtypeArg(b, "dtype"));
    dtype = d.value_or(self.dtype);
  }
  Device device = self.device;
  if (hasArg(b, "device")) {
    FXKIT_ASSIGN_OR_RETURN(auto d, b.device("device"));
    device = d.value_or(self.device);
  }
  std::optional<std::string_view> format;
  if (hasArg(b, "memory_format")) {
    FXKIT_ASSIGN_OR_RETURN(auto f, b.memoryFormat("memory_format"));
    format = f;
  }
  Sizes strides;
  if (format && *format != "preserve_format") {
    FXKIT_ASSIGN_OR_RETURN(auto s, formatStrides(b, *format, self.sizes));
    strides = std::move(s);
  } else {
    strides = preserveFormatStrides(self);
  }
  return make(dtype, self.sizes, std::move(strides), device);
}

Expected<NodeValue> like(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto t, likeSelf(b));
  return one(std::move(t));
}

/// The out= forms return `out` itself, which must already hold the result's dtype and sizes
/// (PyTorch would resize a mis-sized out; fxkit's buffers are planned, so it is an error).
Expected<NodeValue> outResult(const BoundArgs &b, const TensorType &result) {
  FXKIT_ASSIGN_OR_RETURN(auto out, b.tensor("out"));
  if (out.dtype != result.dtype)
    return b.error("Expected out tensor to have dtype " + std::string(dtypeName(result.dtype)) +
                   ", but got " + std::string(dtypeName(out.dtype)) + " instead");
  if (!sameSizes(out.sizes, result.sizes))
    return b.error("out has sizes " + sizesText(out.sizes) + " but the result has " +
                   sizesText(result.sizes) + " (out= tensors are not resized)");
  return one(std::move(out));
}

// ---- Matrix products ----

/// mm.out and bmm.out: the functional op's inference, then the given `out`.
Expected<NodeValue> productOut(const BoundArgs &b) {
  std::string target(b.op().target);
  target.replace(target.rfind(".out"), 4, ".default");
  FXKIT_ASSIGN_OR_RETURN(auto v, inferAs(b, target));
  FXKIT_ASSIGN_OR_RETURN(auto t, tensorOfValue(b, v));
  return outResult(b, t);
}

/// meta_baddbmm: batch1 @ batch2 (3-d, one dtype with self), self broadcast to the product's
/// shape; a fresh contiguous result (self.new_empty of the expanded self).
Expected<NodeValue> baddbmm(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto b1, b.tensor("batch1"));
  FXKIT_ASSIGN_OR_RETURN(auto b2, b.tensor("batch2"));
  if (b1.sizes.size() != 3)
    return b.error("batch1 must be a 3D tensor");
  if (b2.sizes.size() != 3)
    return b.error("batch2 must be a 3D tensor");
  if (self.dtype != b1.dtype || b1.dtype != b2.dtype)
    return b.error(
        "Input dtypes must be the same, got: input: " + std::string(dtypeName(self.dtype)) +
        ", batch1: " + std::string(dtypeName(b1.dtype)) +
        ", batch2: " + std::string(dtypeName(b2.dtype)));
  if (!symEq(b2.sizes[0], b1.sizes[0]) || !symEq(b2.sizes[1], b1.sizes[2]))
    return b.error("Expected size for first two dimensions of batch2 tensor to be: [" +
                   b1.sizes[0].str() + ", " + b1.sizes[2].str() + "] but got: [" +
                   b2.sizes[0].str() + ", " + b2.sizes[1].str() + "].");
  Sizes shape{b1.sizes[0], b1.sizes[1], b2.sizes[2]};
  auto bc = broadcastShapes({self.sizes, shape});
  if (self.sizes.size() > 3 || !bc || !sameSizes(*bc, shape))
    return b.error("self of sizes " + sizesText(self.sizes) +
                   " cannot be expanded to the product's sizes " + sizesText(shape));
  TensorType result = contiguous(self.dtype, std::move(shape), self.device);
  if (hasArg(b, "out"))
    return outResult(b, result);
  return one(std::move(result));
}

// ---- Attention backward ----

/// torch.empty_permuted(sizes, (0, 2, 1, 3)): a (B, H, L, D) tensor laid out as (B, L, H, D).
TensorType bhldInBlhd(DType dtype, const Sizes &sizes, Device device) {
  Sizes s = TensorType::contiguousStrides({sizes[0], sizes[2], sizes[1], sizes[3]});
  return make(dtype, sizes, {s[0], s[2], s[1], s[3]}, device);
}

/// Shapes every SDPA backward shares: 4-d query (B, H, M, E), key (B, H, N, E), value
/// (B, H, N, Ev) and grad_out (B, H, M, Ev).
Status checkAttentionShapes(const BoundArgs &b, const TensorType &gradOut, const TensorType &q,
                            const TensorType &k, const TensorType &v) {
  for (const TensorType *t : {&gradOut, &q, &k, &v})
    if (t->sizes.size() != 4)
      return b.error("attention backward expects 4-d grad_out, query, key and value");
  bool ok = symEq(k.sizes[0], q.sizes[0]) && symEq(v.sizes[0], q.sizes[0]) &&
            symEq(k.sizes[1], q.sizes[1]) && symEq(v.sizes[1], q.sizes[1]) &&
            symEq(k.sizes[3], q.sizes[3]) && symEq(v.sizes[2], k.sizes[2]) &&
            sameSizes(gradOut.sizes, {q.sizes[0], q.sizes[1], q.sizes[2], v.sizes[3]});
  if (!ok)
    return b.error("attention backward shapes do not match: grad_out " + sizesText(gradOut.sizes) +
                   ", query " + sizesText(q.sizes) + ", key " + sizesText(k.sizes) + ", value " +
                   sizesText(v.sizes));
  return Status::ok();
}

/// meta__scaled_dot_product_efficient_backward: grad_q/k/v in (B, L, H, D) layouts; grad_bias
/// (when attn_bias is given and grad_input_mask[3]) of attn_bias's sizes, its rows padded to a
/// multiple of 16 elements; None otherwise.
Expected<NodeValue> efficientAttentionBackward(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto gradOut, b.tensor("grad_out_"));
  FXKIT_ASSIGN_OR_RETURN(auto q, b.tensor("query"));
  FXKIT_ASSIGN_OR_RETURN(auto k, b.tensor("key"));
  FXKIT_ASSIGN_OR_RETURN(auto v, b.tensor("value"));
  FXKIT_ASSIGN_OR_RETURN(auto bias, b.optionalTensor("attn_bias"));
  FXKIT_ASSIGN_OR_RETURN(auto mask, b.boolList("grad_input_mask", 4));
  FXKIT_TRY(checkAttentionShapes(b, gradOut, q, k, v));
  std::vector<std::optional<TensorType>> grads{
      bhldInBlhd(q.dtype, q.sizes, q.device), bhldInBlhd(k.dtype, k.sizes, k.device),
      bhldInBlhd(v.dtype, v.sizes, v.device), std::nullopt};
  if (bias && mask[3]) {
    if (bias->sizes.empty())
      return b.error("attn_bias must have at least one dimension");
    const SymExpr &last = bias->sizes.back();
    Sizes padded = bias->sizes;
    padded.back() = last.isConstant() ? SymExpr((last.constant() + 15) / 16 * 16)
                                      : symMul(symFloorDiv(symAdd(last, 15), 16), 16);
    grads[3] = make(bias->dtype, bias->sizes, TensorType::contiguousStrides(padded), bias->device);
  }
  return NodeValue{std::move(grads)};
}

/// meta__scaled_dot_product_flash_attention_for_cpu_backward: grad_q/k/v of query's, key's and
/// value's sizes in (B, L, H, D) layouts.
Expected<NodeValue> flashAttentionCpuBackward(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto gradOut, b.tensor("grad_out"));
  FXKIT_ASSIGN_OR_RETURN(auto q, b.tensor("query"));
  FXKIT_ASSIGN_OR_RETURN(auto k, b.tensor("key"));
  FXKIT_ASSIGN_OR_RETURN(auto v, b.tensor("value"));
  FXKIT_TRY(checkAttentionShapes(b, gradOut, q, k, v));
  return many({bhldInBlhd(q.dtype, q.sizes, q.device), bhldInBlhd(k.dtype, k.sizes, k.device),
               bhldInBlhd(v.dtype, v.sizes, v.device)});
}

// ---- Copies ----

/// lift_fresh_copy: a contiguous copy (what PyTorch 2.11 records, whatever self's layout).
Expected<NodeValue> liftFreshCopy(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  return one(contiguous(self.dtype, self.sizes, self.device));
}

/// copy(self, src): clone_preserve_strides(self) overwritten by src broadcast to self's sizes
/// in self's dtype. clone_preserve_strides keeps self's strides, except where self overlaps
/// itself (a stride-0 dimension of several elements): that is a plain clone.
Expected<NodeValue> copy(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto src, b.tensor("src"));
  auto bc = broadcastShapes({self.sizes, src.sizes});
  if (src.sizes.size() > self.sizes.size() || !bc || !sameSizes(*bc, self.sizes))
    return b.error("src of sizes " + sizesText(src.sizes) + " cannot be broadcast to self's " +
                   sizesText(self.sizes));
  for (size_t d = 0; d < self.sizes.size(); ++d)
    if (symIs(self.strides[d], 0) && !symIs(self.sizes[d], 1) && !symIs(self.sizes[d], 0)) {
      self.strides = preserveFormatStrides(self);
      break;
    }
  return one(std::move(self));
}

/// fill.Tensor: the value must be a 0-d tensor.
Expected<NodeValue> fillTensor(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto value, b.tensor("value"));
  if (!value.sizes.empty())
    return b.error("fill_ only supports 0-dimension value tensor but got tensor with " +
                   std::to_string(value.sizes.size()) + " dimensions.");
  return like(b);
}

/// The view op a *_copy op copies: `torch.ops.aten.squeeze_copy.dim` -> `...squeeze.dim`.
std::string viewTargetOf(std::string_view copyTarget) {
  std::string target(copyTarget);
  size_t at = target.rfind("_copy.");
  if (at != std::string::npos)
    target.erase(at, 5);
  return target;
}

/// _refs._make_copy_from_view: the view's sizes, cloned to contiguous_format.
Expected<NodeValue> viewCopy(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto v, inferAs(b, viewTargetOf(b.op().target)));
  FXKIT_ASSIGN_OR_RETURN(auto t, tensorOfValue(b, v));
  return one(contiguous(t.dtype, std::move(t.sizes), t.device));
}

/// _unsafe_index: index.Tensor without bounds checks in PyTorch; the same result otherwise.
Expected<NodeValue> unsafeIndex(const BoundArgs &b) {
  return inferAs(b, "torch.ops.aten.index.Tensor");
}

/// diagonal_copy: self without dim1 and dim2, plus the diagonal's length, contiguous.
Expected<NodeValue> diagonalCopy(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto offset, b.integer("offset"));
  FXKIT_ASSIGN_OR_RETURN(auto dim1, b.integer("dim1"));
  FXKIT_ASSIGN_OR_RETURN(auto dim2, b.integer("dim2"));
  auto d1 = normalizeDim(dim1, self.sizes.size());
  auto d2 = normalizeDim(dim2, self.sizes.size());
  if (!d1 || !d2)
    return b.error(!d1 ? d1.error().message : d2.error().message);
  if (self.sizes.size() < 2)
    return b.error("diagonal expects a tensor of at least 2 dimensions");
  if (*d1 == *d2)
    return b.error("diagonal dimensions cannot be identical " + std::to_string(dim1) + ", " +
                   std::to_string(dim2));
  const SymExpr &rows = self.sizes[*d1], &cols = self.sizes[*d2];
  SymExpr length;
  if (rows.isConstant() && cols.isConstant()) {
    int64_t r = rows.constant(), c = cols.constant();
    length = SymExpr(
        std::max<int64_t>(offset >= 0 ? std::min(r, c - offset) : std::min(r + offset, c), 0));
  } else if (offset == 0 && symEq(rows, cols)) {
    length = rows;
  } else {
    return b.error("diagonal of symbolic sizes " + rows.str() + " and " + cols.str() +
                   " with offset " + std::to_string(offset) + " is not supported");
  }
  Sizes sizes;
  for (size_t d = 0; d < self.sizes.size(); ++d)
    if (static_cast<int64_t>(d) != *d1 && static_cast<int64_t>(d) != *d2)
      sizes.push_back(self.sizes[d]);
  sizes.push_back(length);
  return one(contiguous(self.dtype, std::move(sizes), self.device));
}

// ---- Creation ----

/// zeros, ones, empty.memory_format, rand, randn: a fresh tensor of `size` (dtype float32
/// unless given), contiguous unless a memory format says otherwise.
Expected<NodeValue> factory(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto size, b.symIntList("size"));
  FXKIT_TRY(checkSizes(b, size));
  FXKIT_ASSIGN_OR_RETURN(auto dtype, dtypeArg(b, "dtype"));
  FXKIT_ASSIGN_OR_RETURN(auto device, deviceOr(b, "device"));
  Sizes strides = TensorType::contiguousStrides(size);
  if (hasArg(b, "memory_format")) {
    FXKIT_ASSIGN_OR_RETURN(auto format, b.memoryFormat("memory_format"));
    if (format) {
      FXKIT_ASSIGN_OR_RETURN(auto s, formatStrides(b, *format, size));
      strides = std::move(s);
    }
  }
  return one(make(dtype.value_or(DType::Float32), std::move(size), std::move(strides), device));
}

/// rand and randn draw floating values only (their CPU kernels dispatch over floating types).
Expected<NodeValue> randomFactory(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto v, factory(b));
  DType dtype = v.tensor()->dtype;
  if (!dtypeIsFloating(dtype))
    return notImplemented(
        b, b.op().schema.name == "rand" ? "check_uniform_bounds" : "normal_kernel_cpu", dtype);
  return v;
}

Expected<NodeValue> emptyStrided(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto size, b.symIntList("size"));
  FXKIT_ASSIGN_OR_RETURN(auto stride, b.symIntList("stride"));
  FXKIT_ASSIGN_OR_RETURN(auto dtype, dtypeArg(b, "dtype"));
  FXKIT_ASSIGN_OR_RETURN(auto device, deviceOr(b, "device"));
  if (size.size() != stride.size())
    return b.error("dimensionality of sizes (" + std::to_string(size.size()) +
                   ") must match dimensionality of strides (" + std::to_string(stride.size()) +
                   ")");
  FXKIT_TRY(checkSizes(b, size));
  for (const SymExpr &s : stride)
    if (s.isConstant() && s.constant() < 0)
      return b.error("as_strided: Negative strides are not supported at the moment, got strides: " +
                     sizesText(stride));
  return one(make(dtype.value_or(DType::Float32), std::move(size), std::move(stride), device));
}

/// A Python number argument of arange: an int (possibly symbolic) or a float.
struct RangeBound {
  std::optional<SymExpr> integer; ///< set for ints, bools and symbolic integers
  double floating = 0;            ///< the value for floats
  bool isConstant() const { return !integer || integer->isConstant(); }
  double value() const { return integer ? static_cast<double>(integer->constant()) : floating; }
  /// Scalar::to<int64_t>: floats truncate toward zero.
  int64_t truncated() const {
    return integer ? integer->constant() : static_cast<int64_t>(std::trunc(floating));
  }
};

Expected<RangeBound> rangeBound(const BoundArgs &b, std::string_view name) {
  const Argument &a = b.get(name);
  if (a.kind() == Argument::Kind::Float)
    return RangeBound{std::nullopt, a.asFloat()};
  FXKIT_ASSIGN_OR_RETURN(auto v, b.symInt(name));
  return RangeBound{v, 0};
}

/// Python's floor division on int64.
int64_t floorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

/// The length of a constant arange (RangeFactories.cpp, arange_out). Integral results check
/// the bounds truncated to integers (Scalar::to<int64_t>); int64 results and integer bounds
/// take (end - start + step - sign(step)) // step on those, others ceil((end - start) / step)
/// in double.
Expected<SymExpr> constantRangeLength(const BoundArgs &b, const RangeBound &start,
                                      const RangeBound &end, const RangeBound &step, DType dtype,
                                      bool integerArgs) {
  bool integral = !dtypeIsFloating(dtype);
  auto pick = [&](const RangeBound &r) {
    return integral ? static_cast<double>(r.truncated()) : r.value();
  };
  double s = pick(start), e = pick(end), st = pick(step);
  if (st == 0)
    return b.error("step must be nonzero");
  if (!std::isfinite(s) || !std::isfinite(e))
    return b.error("unsupported range: " + std::to_string(s) + " -> " + std::to_string(e));
  if (!((st > 0 && e >= s) || (st < 0 && e <= s)))
    return b.error("upper bound and lower bound inconsistent with step sign");
  if (dtype == DType::Int64 || integerArgs) {
    int64_t xs = start.truncated(), xe = end.truncated(), xst = step.truncated();
    return SymExpr(floorDiv(xe - xs + xst - (xst > 0 ? 1 : -1), xst));
  }
  double length = std::ceil((end.value() - start.value()) / step.value());
  if (!(length >= 0 && length <= static_cast<double>(std::numeric_limits<int64_t>::max())))
    return b.error("invalid size, possible overflow?");
  return SymExpr(static_cast<int64_t>(length));
}

/// arange (all three overloads): int64 when every bound is an integer and no dtype is given,
/// else the default float32; the length as PyTorch computes it (ceil((end - start) / step),
/// on integers (end - start + step - sign(step)) // step). Symbolic bounds need a constant
/// integer step.
Expected<NodeValue> arange(const BoundArgs &b) {
  RangeBound start{SymExpr(0), 0}, step{SymExpr(1), 0};
  FXKIT_ASSIGN_OR_RETURN(auto end, rangeBound(b, "end"));
  if (hasArg(b, "start")) {
    FXKIT_ASSIGN_OR_RETURN(auto s, rangeBound(b, "start"));
    start = s;
  }
  if (hasArg(b, "step")) {
    FXKIT_ASSIGN_OR_RETURN(auto s, rangeBound(b, "step"));
    step = s;
  }
  FXKIT_ASSIGN_OR_RETURN(auto requested, dtypeArg(b, "dtype"));
  FXKIT_ASSIGN_OR_RETURN(auto device, deviceOr(b, "device"));
  bool integerArgs = start.integer && end.integer && step.integer;
  DType dtype = requested.value_or(integerArgs ? DType::Int64 : DType::Float32);
  if (dtype == DType::Bool)
    return notImplemented(b, "arange_cpu", dtype);
  SymExpr length;
  if (start.isConstant() && end.isConstant() && step.isConstant()) {
    FXKIT_ASSIGN_OR_RETURN(auto n, constantRangeLength(b, start, end, step, dtype, integerArgs));
    length = n;
  } else if (integerArgs && step.integer->isConstant() && step.integer->constant() != 0) {
    int64_t st = step.integer->constant();
    length = symFloorDiv(
        symAdd(symSub(*end.integer, *start.integer), SymExpr(st - (st > 0 ? 1 : -1))), SymExpr(st));
  } else {
    return b.error("arange with symbolic bounds needs integer bounds and a constant step");
  }
  return one(contiguous(dtype, {length}, device));
}

/// randperm: n values of `dtype` (int64 by default); float types must represent n - 1
/// exactly (check_supported_max_int_with_precision).
Expected<NodeValue> randperm(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto n, b.symInt("n"));
  FXKIT_ASSIGN_OR_RETURN(auto requested, dtypeArg(b, "dtype"));
  FXKIT_ASSIGN_OR_RETURN(auto device, deviceOr(b, "device"));
  DType dtype = requested.value_or(DType::Int64);
  if (dtype == DType::Bool)
    return notImplemented(b, "randperm", dtype);
  if (n.isConstant()) {
    int64_t v = n.constant();
    if (v < 0)
      return b.error("n must be non-negative, got" + std::to_string(v));
    int digits = dtype == DType::Float16 ? 11 : dtype == DType::Float32 ? 24 : 0;
    if (digits && v > (int64_t(1) << digits) + 1)
      return b.error("n cannot be greater than " + std::to_string((int64_t(1) << digits) + 1) +
                     " for " + std::string(dtypeName(dtype)) + " type.");
    if (dtype == DType::Int32 && v - 1 > std::numeric_limits<int32_t>::max())
      return b.error("n is too large for result tensor type: int32");
  }
  return one(contiguous(dtype, {n}, device));
}

/// resize_: self's dtype and device with the new sizes, contiguous (or in the memory format).
Expected<NodeValue> resize(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto size, b.symIntList("size"));
  FXKIT_ASSIGN_OR_RETURN(auto format, b.memoryFormat("memory_format"));
  FXKIT_TRY(checkSizes(b, size));
  Sizes strides = TensorType::contiguousStrides(size);
  if (format) {
    FXKIT_ASSIGN_OR_RETURN(auto s, formatStrides(b, *format, size));
    strides = std::move(s);
  }
  return one(make(self.dtype, std::move(size), std::move(strides), self.device));
}

// ---- Symbolic queries ----

Expected<NodeValue> symNumel(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  return NodeValue{self.sizes.empty() ? SymExpr(1) : symProduct(self.sizes)};
}

Expected<NodeValue> symStride(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, b.integer("dim"));
  if (self.sizes.empty())
    return b.error("dimension specified as " + std::to_string(dim) +
                   " but tensor has no dimensions");
  auto d = normalizeDim(dim, self.sizes.size());
  if (!d)
    return b.error(d.error().message);
  if (self.strides.size() != self.sizes.size())
    return b.error("the input's strides are unknown");
  return NodeValue{self.strides[*d]};
}

/// Tensor types carry no storage offset: the result is a fresh symbol named after the node,
/// which the interpreter binds to the offset it finds at run time.
Expected<NodeValue> symStorageOffset(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  (void)self;
  return NodeValue{SymExpr::symbol(b.node().name())};
}

// clang-format off
const OpRow kRows[] = {
  // Matrix products
  {"torch.ops.aten.baddbmm.default", "baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", C::Extern, baddbmm},
  {"torch.ops.aten.baddbmm.out", "baddbmm.out(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", C::Extern, baddbmm},
  {"torch.ops.aten.mm.out", "mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)", C::Extern, productOut},
  {"torch.ops.aten.bmm.out", "bmm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)", C::Extern, productOut},
  // Attention backward
  {"torch.ops.aten._scaled_dot_product_efficient_attention_backward.default", "_scaled_dot_product_efficient_attention_backward(Tensor grad_out_, Tensor query, Tensor key, Tensor value, Tensor attn_bias, Tensor out, Tensor logsumexp, Tensor philox_seed, Tensor philox_offset, float dropout_p, bool[4] grad_input_mask, bool is_causal=False, *, float? scale=None) -> (Tensor, Tensor, Tensor, Tensor)", C::Extern, efficientAttentionBackward},
  {"torch.ops.aten._scaled_dot_product_flash_attention_for_cpu_backward.default", "_scaled_dot_product_flash_attention_for_cpu_backward(Tensor grad_out, Tensor query, Tensor key, Tensor value, Tensor out, Tensor logsumexp, float dropout_p, bool is_causal, *, Tensor? attn_mask=None, float? scale=None) -> (Tensor grad_query, Tensor grad_key, Tensor grad_value)", C::Extern, flashAttentionCpuBackward},
  // Copies and conversions
  {"torch.ops.aten.lift_fresh_copy.default", "lift_fresh_copy(Tensor self) -> Tensor", C::Other, liftFreshCopy},
  {"torch.ops.aten.copy.default", "copy(Tensor self, Tensor src, bool non_blocking=False) -> Tensor", C::Other, copy},
  {"torch.ops.aten._to_copy.default", "_to_copy(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool non_blocking=False, MemoryFormat? memory_format=None) -> Tensor", C::Other, like},
  {"torch.ops.aten.as_strided_copy.default", "as_strided_copy(Tensor self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor", C::Other, viewCopy},
  {"torch.ops.aten.squeeze_copy.default", "squeeze_copy(Tensor self) -> Tensor", C::Other, viewCopy},
  {"torch.ops.aten.squeeze_copy.dim", "squeeze_copy.dim(Tensor self, int dim) -> Tensor", C::Other, viewCopy},
  {"torch.ops.aten.squeeze_copy.dims", "squeeze_copy.dims(Tensor self, int[] dim) -> Tensor", C::Other, viewCopy},
  {"torch.ops.aten.diagonal_copy.default", "diagonal_copy(Tensor self, int offset=0, int dim1=0, int dim2=1) -> Tensor", C::Other, diagonalCopy},
  {"torch.ops.aten._unsafe_index.Tensor", "_unsafe_index.Tensor(Tensor self, Tensor?[] indices) -> Tensor", C::Other, unsafeIndex},
  // Filling and *_like creation
  {"torch.ops.aten.fill.Scalar", "fill.Scalar(Tensor self, Scalar value) -> Tensor", C::Creation, like},
  {"torch.ops.aten.fill.Tensor", "fill.Tensor(Tensor self, Tensor value) -> Tensor", C::Creation, fillTensor},
  {"torch.ops.aten.full_like.default", "full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", C::Creation, like},
  {"torch.ops.aten.zeros_like.default", "zeros_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", C::Creation, like},
  {"torch.ops.aten.ones_like.default", "ones_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", C::Creation, like},
  {"torch.ops.aten.empty_like.default", "empty_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", C::Creation, like},
  // Factories
  {"torch.ops.aten.empty.memory_format", "empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", C::Creation, factory},
  {"torch.ops.aten.empty_strided.default", "empty_strided(SymInt[] size, SymInt[] stride, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", C::Creation, emptyStrided},
  {"torch.ops.aten.zeros.default", "zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", C::Creation, factory},
  {"torch.ops.aten.ones.default", "ones(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", C::Creation, factory},
  {"torch.ops.aten.arange.default", "arange(Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", C::Creation, arange},
  {"torch.ops.aten.arange.start", "arange.start(Scalar start, Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", C::Creation, arange},
  {"torch.ops.aten.arange.start_step", "arange.start_step(Scalar start, Scalar end, Scalar step=1, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", C::Creation, arange},
  {"torch.ops.aten.rand.default", "rand(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", C::Creation, randomFactory},
  {"torch.ops.aten.randn.default", "randn(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", C::Creation, randomFactory},
  {"torch.ops.aten.randperm.default", "randperm(SymInt n, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", C::Extern, randperm},
  {"torch.ops.aten.resize_.default", "resize_(Tensor(a!) self, SymInt[] size, *, MemoryFormat? memory_format=None) -> Tensor(a!)", C::Extern, resize},
  // Symbolic queries: Other, as sym_size.int (lowering keeps integer values as symbols).
  {"torch.ops.aten.sym_numel.default", "sym_numel(Tensor self) -> SymInt", C::Other, symNumel},
  {"torch.ops.aten.sym_stride.int", "sym_stride.int(Tensor self, int dim) -> SymInt", C::Other, symStride},
  {"torch.ops.aten.sym_storage_offset.default", "sym_storage_offset(Tensor self) -> SymInt", C::Other, symStorageOffset},
};
// clang-format on

} // namespace

std::span<const OpRow> tensorOpRows() { return kRows; }

} // namespace fxkit
