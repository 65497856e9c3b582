/// \file The op table: one row per op overload, with its PyTorch schema, its category and its
/// shape/dtype/stride inference. Inference follows PyTorch's meta functions (TensorIterator for
/// pointwise ops, torch/_meta_registrations.py for the rest) so that the results equal what
/// FakeTensor records in `meta["val"]`.

#include "ir/Tensor.h"
#include "ir/Try.h"
#include "ir/ops/InferSupport.h"
#include "ir/ops/OpFamilies.h"
#include "ir/ops/OpRegistry.h"
#include "ir/ops/ShapeRules.h"

#include <algorithm>
#include <cassert>

namespace fxkit {

Expected<Operand> operand(const BoundArgs &b, std::string_view name) {
  const Argument &a = b.get(name);
  Operand op;
  switch (a.kind()) {
  case Argument::Kind::Bool:
    op.scalar = ScalarKind::Bool;
    return op;
  case Argument::Kind::Int:
  case Argument::Kind::Sym:
    op.scalar = ScalarKind::Int;
    return op;
  case Argument::Kind::Float:
    op.scalar = ScalarKind::Float;
    return op;
  case Argument::Kind::NodeRef:
    if (const SymExpr *sym = a.asNode()->value().sym()) {
      // A SymFloat (`item()` of a float tensor) or SymBool promotes as its Python type does.
      SymExpr::Type type = sym->type();
      op.scalar = type == SymExpr::Type::Float  ? ScalarKind::Float
                  : type == SymExpr::Type::Bool ? ScalarKind::Bool
                                                : ScalarKind::Int;
      return op;
    }
    break;
  default:
    return b.error("argument '" + std::string(name) + "' must be a tensor or a number");
  }
  FXKIT_ASSIGN_OR_RETURN(auto t, b.tensor(name));
  op.tensor = std::move(t);
  return op;
}

namespace {

/// PyTorch's words for an op that refuses bool tensors.
std::string boolRefusal(const std::string &op) {
  if (op == "neg")
    return "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
           "invert a mask, use the `~` or `logical_not()` operator instead.";
  if (op == "relu")
    return "Boolean inputs not supported for relu (the input is a bool tensor)";
  return op + " is not supported for bool tensors";
}

/// torch._prims._prim_elementwise_meta: elementwise prims do not broadcast or promote, so their
/// tensor operands share one dtype and one shape (a zero-dim CPU tensor may stand for a
/// number: check_same_shape's allow_cpu_scalar_tensors).
Status checkPrimOperands(const BoundArgs &b, const std::vector<const TensorType *> &tensors) {
  const TensorType *first = nullptr;
  for (const TensorType *t : tensors) {
    if (t->sizes.empty() && t->device.type == "cpu")
      continue;
    if (!first) {
      first = t;
      continue;
    }
    if (t->dtype != first->dtype)
      return b.error("prims." + b.op().schema.name + ": tensors with dtypes " +
                     std::string(dtypeName(first->dtype)) + " and " +
                     std::string(dtypeName(t->dtype)) +
                     " (prims do not type-promote: the caller converts the operands)");
    if (t->sizes.size() != first->sizes.size() ||
        !std::equal(t->sizes.begin(), t->sizes.end(), first->sizes.begin(), symEq))
      return b.error("prims." + b.op().schema.name + ": shapes " + first->str() + " and " +
                     t->str() + " are not the same (prims do not broadcast)");
  }
  return Status::ok();
}

} // namespace

Expected<NodeValue> pointwise(const BoundArgs &b, std::initializer_list<std::string_view> names,
                              Promote promote) {
  std::vector<Operand> ops;
  for (std::string_view n : names) {
    FXKIT_ASSIGN_OR_RETURN(auto op, operand(b, n));
    ops.push_back(std::move(op));
  }
  std::vector<Sizes> shapes;
  std::vector<const TensorType *> tensors;
  std::vector<PromotionOperand> prom;
  for (const Operand &op : ops) {
    if (op.tensor) {
      shapes.push_back(op.tensor->sizes);
      tensors.push_back(&*op.tensor);
      prom.push_back({op.tensor->dtype, op.tensor->sizes.size(), false});
    } else {
      prom.push_back({scalarKindDType(op.scalar), 0, true});
    }
  }
  if (tensors.empty())
    return b.error("no tensor operand");
  if (promote == Promote::Prim || promote == Promote::PrimBool)
    FXKIT_TRY(checkPrimOperands(b, tensors));
  auto shape = broadcastShapes(shapes);
  if (!shape)
    return b.error(shape.error().message);
  DType dtype = resultType(prom);
  switch (promote) {
  case Promote::Default:
    break;
  case Promote::IntToFloat:
    if (!dtypeIsFloating(dtype))
      dtype = DType::Float32;
    break;
  case Promote::AlwaysBool:
    dtype = DType::Bool;
    break;
  case Promote::NoOpMathNoBool:
    if (tensors[0]->dtype == DType::Bool)
      return b.error(boolRefusal(b.op().schema.name));
    [[fallthrough]];
  case Promote::NoOpMath:
    dtype = tensors[0]->dtype;
    break;
  case Promote::Prim:
    dtype = tensors[0]->dtype;
    break;
  case Promote::PrimBool:
    dtype = DType::Bool;
    break;
  case Promote::IntOnly:
    if (dtypeIsFloating(dtype))
      return b.error("\"" + b.op().schema.name + "\" not implemented for '" +
                     std::string(dtypeName(dtype)) + "' (bitwise ops take integers and bools)");
    break;
  case Promote::IntNoBool:
    if (dtypeIsFloating(dtype) || dtype == DType::Bool)
      return b.error("\"" + b.op().schema.name + "\" not implemented for '" +
                     std::string(dtypeName(dtype)) + "' (shifts take integers)");
    break;
  }
  // The device of the first dimensioned tensor: zero-dim CPU tensors may mix with others.
  Device device = tensors[0]->device;
  for (const TensorType *t : tensors)
    if (!t->sizes.empty()) {
      device = t->device;
      break;
    }
  Sizes strides = elementwiseStrides(*shape, tensors);
  return one(make(dtype, shape.take(), std::move(strides), device));
}

namespace {

Expected<NodeValue> unaryFloat(const BoundArgs &b) {
  return pointwise(b, {"self"}, Promote::IntToFloat);
}
Expected<NodeValue> binary(const BoundArgs &b) {
  return pointwise(b, {"self", "other"}, Promote::Default);
}

/// Whether an operand is a bool tensor or a Python bool (a wrapped bool scalar tensor).
bool isBool(const Operand &op) {
  return op.tensor ? op.tensor->dtype == DType::Bool : op.scalar == ScalarKind::Bool;
}

/// The single tensor dtype of a pointwise result.
DType resultDType(const NodeValue &v) { return v.tensor()->dtype; }

/// at::native::alpha_check against the op's result dtype.
Status checkAlpha(const BoundArgs &b, DType dtype) {
  const Argument &alpha = b.get("alpha");
  if (alpha.kind() == Argument::Kind::Bool && dtype != DType::Bool)
    return b.error("Boolean alpha only supported for Boolean results (the result is " +
                   std::string(dtypeName(dtype)) + ")");
  if (alpha.kind() == Argument::Kind::Float && !dtypeIsFloating(dtype))
    return b.error("For integral input tensors, argument alpha must not be a floating point "
                   "number (the result is " +
                   std::string(dtypeName(dtype)) + ")");
  return Status::ok();
}

/// add.Tensor/add.Scalar: the alpha multiplier must fit the result's category.
Expected<NodeValue> add(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto v, binary(b));
  FXKIT_TRY(checkAlpha(b, resultDType(v)));
  return v;
}

/// sub and rsub (rsub(a, b) is sub(b, a)): at::native::sub_check refuses bool operands, a
/// Python bool included (it becomes a bool tensor), and alpha follows alpha_check.
Expected<NodeValue> sub(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, operand(b, "self"));
  FXKIT_ASSIGN_OR_RETURN(auto other, operand(b, "other"));
  if (isBool(self) && isBool(other))
    return b.error("Subtraction, the `-` operator, with two bool tensors is not supported. Use "
                   "the `^` or `logical_xor()` operator instead.");
  if (isBool(self) || isBool(other))
    return b.error("Subtraction, the `-` operator, with a bool tensor is not supported. If you "
                   "are trying to invert a mask, use the `~` or `logical_not()` operator "
                   "instead.");
  FXKIT_ASSIGN_OR_RETURN(auto v, binary(b));
  FXKIT_TRY(checkAlpha(b, resultDType(v)));
  return v;
}

Expected<NodeValue> divMode(const BoundArgs &b) {
  const Argument &mode = b.get("rounding_mode");
  if (mode.isNone())
    return pointwise(b, {"self", "other"}, Promote::IntToFloat);
  if (mode.kind() != Argument::Kind::String)
    return b.error("div expected rounding_mode to be one of None, 'trunc', or 'floor'");
  std::string name(mode.asString());
  if (name != "trunc" && name != "floor")
    return b.error("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '" +
                   name + "'");
  // With a rounding mode the result keeps the promoted (possibly integral) dtype. The CPU and
  // CUDA kernels dispatch over integers and floats only, so bool / bool has no kernel.
  FXKIT_ASSIGN_OR_RETURN(auto v, pointwise(b, {"self", "other"}, Promote::Default));
  if (resultDType(v) == DType::Bool)
    return b.error("div with rounding_mode='" + name +
                   "' is not implemented for bool operands (\"div_" + name +
                   "_cpu\" not implemented for 'Bool')");
  return v;
}

Expected<NodeValue> whereSelf(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto cond, b.tensor("condition"));
  if (cond.dtype != DType::Bool)
    return b.error("where expected condition to be a boolean tensor, but got a tensor with dtype " +
                   std::string(dtypeName(cond.dtype)));
  FXKIT_ASSIGN_OR_RETURN(auto self, operand(b, "self"));
  FXKIT_ASSIGN_OR_RETURN(auto other, operand(b, "other"));
  std::vector<Sizes> shapes{cond.sizes};
  std::vector<const TensorType *> tensors{&cond};
  std::vector<PromotionOperand> prom;
  for (const Operand *op : {&self, &other}) {
    if (op->tensor) {
      shapes.push_back(op->tensor->sizes);
      tensors.push_back(&*op->tensor);
      prom.push_back({op->tensor->dtype, op->tensor->sizes.size(), false});
    } else {
      prom.push_back({scalarKindDType(op->scalar), 0, true});
    }
  }
  auto shape = broadcastShapes(shapes);
  if (!shape)
    return b.error(shape.error().message);
  Sizes strides = elementwiseStrides(*shape, tensors);
  return one(make(resultType(prom), shape.take(), std::move(strides), cond.device));
}

Expected<NodeValue> convertElementType(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto a, b.tensor("a"));
  FXKIT_ASSIGN_OR_RETURN(auto dtype, b.dtype("dtype"));
  if (!dtype)
    return b.error("dtype must not be None");
  Sizes strides = elementwiseStrides(a.sizes, {&a});
  return one(make(*dtype, a.sizes, std::move(strides), a.device));
}

Expected<NodeValue> clone(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto format, b.memoryFormat("memory_format"));
  Sizes strides;
  if (format && *format != "preserve_format") {
    auto s = memoryFormatStrides(*format, self.sizes);
    if (!s)
      return b.error("unsupported memory format '" + std::string(*format) + "'");
    strides = std::move(*s);
  } else {
    strides = preserveFormatStrides(self);
  }
  return one(make(self.dtype, self.sizes, std::move(strides), self.device));
}

// ---- Creation ----

} // namespace

Expected<Device> deviceOr(const BoundArgs &b, std::string_view name) {
  FXKIT_ASSIGN_OR_RETURN(auto d, b.device(name));
  return d ? *d : Device{};
}

namespace {

Expected<NodeValue> full(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto size, b.symIntList("size"));
  FXKIT_ASSIGN_OR_RETURN(auto dtype, b.dtype("dtype"));
  FXKIT_ASSIGN_OR_RETURN(auto device, deviceOr(b, "device"));
  DType dt = DType::Float32;
  if (dtype) {
    dt = *dtype;
  } else {
    // The fill value's kind picks the dtype (torch.full(..., True) is bool).
    FXKIT_ASSIGN_OR_RETURN(auto fill, operand(b, "fill_value"));
    if (fill.tensor)
      return b.error("fill_value must be a number");
    dt = scalarKindDType(fill.scalar);
  }
  return one(contiguous(dt, std::move(size), device));
}

Expected<NodeValue> scalarTensor(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto dtype, b.dtype("dtype"));
  FXKIT_ASSIGN_OR_RETURN(auto device, deviceOr(b, "device"));
  return one(contiguous(dtype ? *dtype : DType::Float32, {}, device));
}

Expected<NodeValue> iota(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto length, b.symInt("length"));
  FXKIT_ASSIGN_OR_RETURN(auto dtype, b.dtype("dtype"));
  FXKIT_ASSIGN_OR_RETURN(auto device, deviceOr(b, "device"));
  return one(contiguous(dtype ? *dtype : DType::Int64, {length}, device));
}

// ---- Views ----

Expected<NodeValue> permute(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dims, b.intList("dims"));
  size_t rank = self.sizes.size();
  if (dims->size() != rank)
    return b.error("permutation of " + std::to_string(dims->size()) +
                   " dims for a tensor of rank " + std::to_string(rank));
  TensorType out = self;
  std::vector<bool> seen(rank, false);
  for (size_t i = 0; i < rank; ++i) {
    auto d = normalizeDim((*dims)[i], rank);
    if (!d)
      return b.error(d.error().message);
    if (seen[*d])
      return b.error("repeated dim in permutation");
    seen[*d] = true;
    out.sizes[i] = self.sizes[*d];
    out.strides[i] = self.strides[*d];
  }
  return one(std::move(out));
}

Expected<NodeValue> expand(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto size, b.symIntList("size"));
  if (size.size() < self.sizes.size())
    return b.error("cannot expand a tensor of rank " + std::to_string(self.sizes.size()) + " to " +
                   std::to_string(size.size()) + " dims");
  size_t offset = size.size() - self.sizes.size();
  TensorType out = self;
  out.sizes = size;
  out.strides.assign(size.size(), SymExpr(0));
  for (size_t i = 0; i < size.size(); ++i) {
    if (i < offset) {
      if (symIs(size[i], -1))
        return b.error("-1 is not allowed for a new leading dimension");
      continue;
    }
    const SymExpr &old = self.sizes[i - offset];
    if (symIs(size[i], -1)) {
      out.sizes[i] = old;
      out.strides[i] = self.strides[i - offset];
    } else if (symEq(size[i], old)) {
      out.strides[i] = self.strides[i - offset];
    } else if (!symIs(old, 1)) {
      return b.error("cannot expand size " + old.str() + " to " + size[i].str() + " at dimension " +
                     std::to_string(i));
    }
  }
  return one(std::move(out));
}

Expected<NodeValue> unsqueeze(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, b.integer("dim"));
  auto d = normalizeDim(dim, self.sizes.size() + 1);
  if (!d)
    return b.error(d.error().message);
  // The new dim's stride makes it "contiguous" with the dim it precedes.
  SymExpr stride = static_cast<size_t>(*d) >= self.sizes.size()
                       ? SymExpr(1)
                       : symMul(self.sizes[*d], self.strides[*d]);
  TensorType out = self;
  out.sizes.insert(out.sizes.begin() + *d, SymExpr(1));
  out.strides.insert(out.strides.begin() + *d, stride);
  return one(std::move(out));
}

Expected<NodeValue> squeezeDims(const BoundArgs &b, const std::vector<int64_t> &dims) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  std::vector<bool> drop(self.sizes.size(), false);
  for (int64_t dim : dims) {
    auto d = normalizeDim(dim, self.sizes.size());
    if (!d)
      return b.error(d.error().message);
    if (!self.sizes.empty() && symIs(self.sizes[*d], 1))
      drop[*d] = true;
  }
  TensorType out = self;
  out.sizes.clear();
  out.strides.clear();
  for (size_t i = 0; i < self.sizes.size(); ++i)
    if (!drop[i]) {
      out.sizes.push_back(self.sizes[i]);
      out.strides.push_back(self.strides[i]);
    }
  return one(std::move(out));
}

Expected<NodeValue> squeezeDim(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto dim, b.integer("dim"));
  return squeezeDims(b, {dim});
}

Expected<NodeValue> squeezeDimList(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto dims, b.intList("dim"));
  return squeezeDims(b, *dims);
}

Expected<NodeValue> squeezeAll(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  std::vector<int64_t> dims;
  for (size_t i = 0; i < self.sizes.size(); ++i)
    dims.push_back(static_cast<int64_t>(i));
  return squeezeDims(b, dims);
}

Expected<NodeValue> selectInt(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, b.integer("dim"));
  if (self.sizes.empty())
    return b.error("select() cannot be applied to a 0-dim tensor");
  auto d = normalizeDim(dim, self.sizes.size());
  if (!d)
    return b.error(d.error().message);
  FXKIT_ASSIGN_OR_RETURN(auto index, b.symInt("index"));
  // A symbolic size or index may be anything at run time; constants must be in range.
  const SymExpr &size = self.sizes[*d];
  if (size.isConstant() && index.isConstant() &&
      (index.constant() >= size.constant() || index.constant() < -size.constant())) {
    std::string sizes;
    for (const SymExpr &s : self.sizes)
      sizes += (sizes.empty() ? "" : ", ") + s.str();
    return b.error("select(): index " + index.str() + " out of range for tensor of size [" + sizes +
                   "] at dimension " + std::to_string(*d));
  }
  TensorType out = self;
  out.sizes.erase(out.sizes.begin() + *d);
  out.strides.erase(out.strides.begin() + *d);
  return one(std::move(out));
}

Expected<NodeValue> sliceTensor(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, b.integer("dim"));
  if (self.sizes.empty())
    return b.error("slice() cannot be applied to a 0-dim tensor");
  auto d = normalizeDim(dim, self.sizes.size());
  if (!d)
    return b.error(d.error().message);
  FXKIT_ASSIGN_OR_RETURN(auto start, b.optionalSymInt("start"));
  FXKIT_ASSIGN_OR_RETURN(auto end, b.optionalSymInt("end"));
  FXKIT_ASSIGN_OR_RETURN(auto step, b.integer("step"));
  auto bounds = sliceBounds(self.sizes[*d], start, end, step);
  if (!bounds)
    return b.error(bounds.error().message);
  TensorType out = self;
  out.sizes[*d] = bounds->size;
  out.strides[*d] = symMul(self.strides[*d], SymExpr(step));
  return one(std::move(out));
}

Expected<NodeValue> splitChunks(const BoundArgs &b, const TensorType &self, int64_t dim,
                                const Sizes &chunks) {
  std::vector<TensorType> outs;
  for (const SymExpr &c : chunks) {
    TensorType t = self;
    t.sizes[dim] = c;
    outs.push_back(std::move(t));
  }
  return many(std::move(outs));
}

Expected<NodeValue> splitTensor(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto split, b.symInt("split_size"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, b.integer("dim"));
  auto d = normalizeDim(dim, self.sizes.size());
  if (!d || self.sizes.empty())
    return b.error(d ? "split() of a 0-dim tensor" : d.error().message);
  const SymExpr &size = self.sizes[*d];
  Sizes chunks;
  if (symEq(size, split)) {
    chunks.push_back(size);
  } else if (size.isConstant() && split.isConstant()) {
    if (split.constant() <= 0)
      return b.error("split_size must be positive");
    int64_t n = std::max<int64_t>(1, (size.constant() + split.constant() - 1) / split.constant());
    for (int64_t i = 0; i < n; ++i)
      chunks.push_back(SymExpr(std::min(split.constant(), size.constant() - i * split.constant())));
  } else {
    return b.error("cannot split symbolic size " + size.str() + " into chunks of " + split.str());
  }
  return splitChunks(b, self, *d, chunks);
}

Expected<NodeValue> splitWithSizes(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto sizes, b.symIntList("split_sizes"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, b.integer("dim"));
  auto d = normalizeDim(dim, self.sizes.size());
  if (!d || self.sizes.empty())
    return b.error(d ? "split() of a 0-dim tensor" : d.error().message);
  if (!symEq(symProduct({SymExpr(1),
                         [&] {
                           SymExpr s(0);
                           for (const SymExpr &x : sizes)
                             s = symAdd(s, x);
                           return s;
                         }()}),
             self.sizes[*d]))
    return b.error("split sizes do not add up to " + self.sizes[*d].str());
  return splitChunks(b, self, *d, sizes);
}

Expected<NodeValue> viewLike(const BoundArgs &b, std::string_view sizeName, bool mayCopy) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto requested, b.symIntList(sizeName));
  auto sizes = inferViewSizes(self.sizes, requested);
  if (!sizes)
    return b.error(sizes.error().message);
  auto strides = viewStrides(self.sizes, self.strides, *sizes);
  if (!strides) {
    if (!mayCopy)
      return b.error("view size is not compatible with the input's size and stride; use "
                     "reshape");
    // reshape copies into a fresh contiguous tensor.
    return one(contiguous(self.dtype, sizes.take(), self.device));
  }
  return one(make(self.dtype, sizes.take(), std::move(*strides), self.device));
}

Expected<NodeValue> view(const BoundArgs &b) { return viewLike(b, "size", false); }
Expected<NodeValue> reshape(const BoundArgs &b) { return viewLike(b, "shape", true); }

/// view.dtype (at::native::view_dtype): the same bytes read as another dtype. Sizes and strides
/// stay for an element size of its own; otherwise the last dim (stride 1) holds the ratio more
/// or fewer elements and the other strides scale with it (the storage offset too, which the
/// type does not carry: the kernel checks it).
Expected<NodeValue> viewDtype(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dtype, b.dtype("dtype"));
  if (!dtype)
    return b.error("dtype must not be None");
  const int64_t from = dtypeItemSize(self.dtype), to = dtypeItemSize(*dtype);
  TensorType out = self;
  out.dtype = *dtype;
  if (from == to)
    return one(std::move(out));
  const std::string what = " to view " + std::string(dtypeScalarTypeName(self.dtype)) + " as " +
                           std::string(dtypeScalarTypeName(*dtype)) + " (different element sizes)";
  if (self.sizes.empty())
    return b.error("self.dim() cannot be 0" + what);
  if (!symIs(self.strides.back(), 1))
    return b.error("self.stride(-1) must be 1" + what + ", but got " + self.strides.back().str());
  const size_t last = self.sizes.size() - 1;
  if (from > to) { // more, narrower elements
    const int64_t ratio = from / to;
    out.sizes[last] = symMul(self.sizes[last], SymExpr(ratio));
    for (size_t d = 0; d < last; ++d)
      out.strides[d] = symMul(self.strides[d], SymExpr(ratio));
    return one(std::move(out));
  }
  const int64_t ratio = to / from;
  const SymExpr &lastSize = self.sizes[last];
  if (!lastSize.isConstant() || lastSize.constant() % ratio != 0)
    return b.error("self.size(-1) must be divisible by " + std::to_string(ratio) + what +
                   ", but got " + lastSize.str());
  out.sizes[last] = SymExpr(lastSize.constant() / ratio);
  for (size_t d = 0; d < last; ++d) {
    const SymExpr &st = self.strides[d];
    if (!st.isConstant() || st.constant() % ratio != 0)
      return b.error("self.stride(" + std::to_string(d) + ") must be divisible by " +
                     std::to_string(ratio) + what + ", but got " + st.str());
    out.strides[d] = SymExpr(st.constant() / ratio);
  }
  return one(std::move(out));
}

Expected<NodeValue> alias(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  return one(std::move(self));
}

/// transpose.int: dims dim0 and dim1 swap sizes and strides (t.default: 0 and 1 of a matrix).
Expected<NodeValue> transposeDims(const BoundArgs &b, int64_t dim0, int64_t dim1) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  if (self.sizes.empty())
    return one(std::move(self)); // a 0-d tensor transposes to itself (dims 0 and -1 only)
  auto d0 = normalizeDim(dim0, self.sizes.size());
  auto d1 = normalizeDim(dim1, self.sizes.size());
  if (!d0 || !d1)
    return b.error((d0 ? d1 : d0).error().message);
  std::swap(self.sizes[*d0], self.sizes[*d1]);
  std::swap(self.strides[*d0], self.strides[*d1]);
  return one(std::move(self));
}

Expected<NodeValue> transpose(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto dim0, b.integer("dim0"));
  FXKIT_ASSIGN_OR_RETURN(auto dim1, b.integer("dim1"));
  return transposeDims(b, dim0, dim1);
}

Expected<NodeValue> matrixTranspose(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  if (self.sizes.size() > 2)
    return b.error("t() expects a tensor with <= 2 dimensions, but self is " +
                   std::to_string(self.sizes.size()) + "D");
  return self.sizes.size() < 2 ? one(std::move(self)) : transposeDims(b, 0, 1);
}

Expected<NodeValue> diagonal(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto offset, b.integer("offset"));
  FXKIT_ASSIGN_OR_RETURN(auto dim1, b.integer("dim1"));
  FXKIT_ASSIGN_OR_RETURN(auto dim2, b.integer("dim2"));
  auto d1 = normalizeDim(dim1, self.sizes.size());
  auto d2 = normalizeDim(dim2, self.sizes.size());
  if (!d1 || !d2)
    return b.error((d1 ? d2 : d1).error().message);
  if (*d1 == *d2)
    return b.error("diagonal dimensions cannot be identical " + std::to_string(dim1) + ", " +
                   std::to_string(dim2));
  auto size = diagonalSize(self.sizes[*d1], self.sizes[*d2], offset);
  if (!size)
    return b.error(size.error().message);
  TensorType out = self;
  out.sizes.clear();
  out.strides.clear();
  for (size_t i = 0; i < self.sizes.size(); ++i)
    if (i != static_cast<size_t>(*d1) && i != static_cast<size_t>(*d2)) {
      out.sizes.push_back(self.sizes[i]);
      out.strides.push_back(self.strides[i]);
    }
  out.sizes.push_back(*size);
  out.strides.push_back(symAdd(self.strides[*d1], self.strides[*d2]));
  return one(std::move(out));
}

Expected<NodeValue> asStrided(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto size, b.symIntList("size"));
  FXKIT_ASSIGN_OR_RETURN(auto stride, b.symIntList("stride"));
  if (size.size() != stride.size())
    return b.error("size and stride differ in length");
  return one(make(self.dtype, std::move(size), std::move(stride), self.device));
}

// ---- Reductions ----

} // namespace

/// Reduced shape; `dims` empty or absent reduces everything. A dim may appear once
/// (at::dim_list_to_bitset; on a 0-d tensor 0 and -1 are the same dim).
Expected<Sizes> reducedShape(const BoundArgs &b, const Sizes &sizes,
                             const std::optional<std::vector<int64_t>> &dims, bool keepdim) {
  std::vector<bool> reduce(sizes.size(), !dims || dims->empty());
  std::vector<bool> seen(std::max<size_t>(sizes.size(), 1), false);
  if (dims)
    for (int64_t dim : *dims) {
      auto d = normalizeDim(dim, sizes.size());
      if (!d)
        return b.error(d.error().message);
      if (seen[*d])
        return b.error("dim " + std::to_string(*d) + " appears multiple times in the list of dims");
      seen[*d] = true;
      if (!sizes.empty())
        reduce[*d] = true;
    }
  Sizes out;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (!reduce[i])
      out.push_back(sizes[i]);
    else if (keepdim)
      out.push_back(SymExpr(1));
  }
  return out;
}

namespace {

/// How a reduction picks its result dtype when `dtype=` is absent.
enum class ReduceDType : uint8_t {
  Same,     ///< the input's (amax, amin)
  SumLike,  ///< integers and bools accumulate in int64 (sum)
  Floating, ///< the input's, which must be floating (mean)
};

/// The error of amax/amin over a dim of size 0: there is no maximum of zero elements.
Error zeroSizeReduction(const BoundArgs &b, std::string_view fn, int64_t dim,
                        const std::string &note = "") {
  std::string what = fn == "amin" ? "minimum" : "maximum";
  return b.error(std::string(fn) + "(): Expected reduction dim " + std::to_string(dim) +
                 " to have non-zero size (" + note + "there is no " + what + " of zero elements)");
}

/// Reductions without an identity (amax, amin) refuse to reduce a dim of size 0
/// (at::native::zero_numel_check_dims, checked when the input has no elements). Sizes are only
/// 0 as constants: a symbol is never 0.
Status checkNonEmptyReduction(const BoundArgs &b, const Sizes &sizes,
                              const std::optional<std::vector<int64_t>> &dims) {
  const std::string &fn = b.op().schema.name;
  bool empty =
      std::any_of(sizes.begin(), sizes.end(), [](const SymExpr &s) { return symIs(s, 0); });
  if (!empty)
    return Status::ok();
  if (!dims || dims->empty())
    return b.error(fn + "(): Expected reduction dim to be specified for input.numel() == 0. "
                        "Specify the reduction dim with the 'dim' argument.");
  for (int64_t dim : *dims) {
    auto d = normalizeDim(dim, sizes.size());
    if (d && !sizes.empty() && symIs(sizes[*d], 0))
      return zeroSizeReduction(b, fn, dim);
  }
  return Status::ok();
}

Expected<NodeValue> reduction(const BoundArgs &b, std::string_view dimName, ReduceDType rule) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  std::optional<std::vector<int64_t>> dims;
  if (!dimName.empty()) {
    FXKIT_ASSIGN_OR_RETURN(auto d, b.intList(dimName));
    dims = std::move(d);
  }
  bool keepdim = false;
  if (b.op().schema.indexOf("keepdim") >= 0) {
    FXKIT_ASSIGN_OR_RETURN(auto k, b.boolean("keepdim"));
    keepdim = k;
  }
  DType dtype = self.dtype;
  std::optional<DType> requested;
  if (b.op().schema.indexOf("dtype") >= 0) {
    FXKIT_ASSIGN_OR_RETURN(auto dt, b.dtype("dtype"));
    requested = dt;
  }
  if (rule == ReduceDType::Floating) {
    // mean's meta function: the (requested or input) dtype must be floating or complex.
    DType d = requested ? *requested : self.dtype;
    if (!dtypeIsFloating(d))
      return b.error(b.op().schema.name + "(): could not infer output dtype. " +
                     (requested ? "Optional" : "Input") +
                     " dtype must be either a floating point or complex dtype. Got: " +
                     std::string(dtypeName(d)));
  }
  if (rule == ReduceDType::Same)
    FXKIT_TRY(checkNonEmptyReduction(b, self.sizes, dims));
  FXKIT_ASSIGN_OR_RETURN(auto shape, reducedShape(b, self.sizes, dims, keepdim));
  if (requested)
    dtype = *requested;
  else if (rule == ReduceDType::SumLike && !dtypeIsFloating(dtype))
    dtype = DType::Int64; // sum of integers and bools accumulates in int64
  return one(contiguous(dtype, std::move(shape), self.device));
}

Expected<NodeValue> sumDim(const BoundArgs &b) { return reduction(b, "dim", ReduceDType::SumLike); }
Expected<NodeValue> sumAll(const BoundArgs &b) { return reduction(b, "", ReduceDType::SumLike); }
Expected<NodeValue> meanDim(const BoundArgs &b) {
  return reduction(b, "dim", ReduceDType::Floating);
}
Expected<NodeValue> meanAll(const BoundArgs &b) { return reduction(b, "", ReduceDType::Floating); }
Expected<NodeValue> amax(const BoundArgs &b) { return reduction(b, "dim", ReduceDType::Same); }

Expected<NodeValue> varMean(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dims, b.intList("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto keepdim, b.boolean("keepdim"));
  // std_var_mean_out's check (the decomposition's mean() refuses integers too).
  if (!dtypeIsFloating(self.dtype))
    return b.error("var_mean only support floating point and complex dtypes, got " +
                   std::string(dtypeName(self.dtype)));
  FXKIT_ASSIGN_OR_RETURN(auto shape, reducedShape(b, self.sizes, dims, keepdim));
  TensorType t = contiguous(self.dtype, std::move(shape), self.device);
  return many({t, t});
}

/// Its meta function runs the eager definition (inductor_prims.eager_prepare_softmax):
/// amax(a, dim, keepdim=True), then sum(exp(a - amax), dim, keepdim=True). So the max keeps
/// the input's dtype, the sum is floating (exp of an integer tensor gives the default float
/// dtype), a bool input fails in the subtraction, and a dim of size 0 fails in amax.
Expected<NodeValue> prepareSoftmaxOnline(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("a"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, b.integer("dim"));
  if (self.dtype == DType::Bool)
    return b.error("prepare_softmax_online of a bool tensor: it subtracts the max, and "
                   "subtraction, the `-` operator, with two bool tensors is not supported");
  std::vector<int64_t> dims{dim};
  FXKIT_ASSIGN_OR_RETURN(auto shape, reducedShape(b, self.sizes, dims, true));
  if (!self.sizes.empty() && symIs(self.sizes[*normalizeDim(dim, self.sizes.size())], 0))
    return zeroSizeReduction(b, "amax", dim, "prepare_softmax_online takes the max over it; ");
  TensorType max = contiguous(self.dtype, shape, self.device);
  TensorType sum = contiguous(dtypeIsFloating(self.dtype) ? self.dtype : DType::Float32,
                              std::move(shape), self.device);
  return many({max, sum});
}

// ---- Extern ----

/// Matrix products take operands of one dtype (no type promotion).
Status sameDType(const BoundArgs &b, std::string_view nameA, const TensorType &x,
                 std::string_view nameB, const TensorType &y) {
  if (x.dtype == y.dtype)
    return Status::ok();
  return b.error("expected " + std::string(nameA) + " and " + std::string(nameB) +
                 " to have the same dtype, but got: " + std::string(dtypeName(x.dtype)) +
                 " != " + std::string(dtypeName(y.dtype)));
}

Expected<NodeValue> mm(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto a, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto m, b.tensor("mat2"));
  if (a.sizes.size() != 2 || m.sizes.size() != 2)
    return b.error("mm expects 2-d tensors");
  FXKIT_TRY(sameDType(b, "mat1", a, "mat2", m));
  if (!symEq(a.sizes[1], m.sizes[0]))
    return b.error("mm shapes " + a.str() + " and " + m.str() + " cannot be multiplied");
  return one(contiguous(a.dtype, {a.sizes[0], m.sizes[1]}, a.device));
}

Expected<NodeValue> addmm(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto bias, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto m1, b.tensor("mat1"));
  FXKIT_ASSIGN_OR_RETURN(auto m2, b.tensor("mat2"));
  if (m1.sizes.size() != 2 || m2.sizes.size() != 2)
    return b.error("addmm expects 2-d matrices");
  FXKIT_TRY(sameDType(b, "self", bias, "mat2", m2));
  FXKIT_TRY(sameDType(b, "mat1", m1, "mat2", m2));
  if (!symEq(m1.sizes[1], m2.sizes[0]))
    return b.error("addmm shapes " + m1.str() + " and " + m2.str() + " cannot be multiplied");
  Sizes shape{m1.sizes[0], m2.sizes[1]};
  auto bc = broadcastShapes({bias.sizes, shape});
  if (!bc || !std::equal(bc->begin(), bc->end(), shape.begin(), shape.end(), symEq))
    return b.error("bias " + bias.str() + " does not broadcast to the product's shape");
  if (b.op().schema.indexOf("out") >= 0) {
    // The out= variant returns `out` as it was given.
    FXKIT_ASSIGN_OR_RETURN(auto out, b.tensor("out"));
    return one(std::move(out));
  }
  return one(contiguous(m1.dtype, std::move(shape), m1.device));
}

Expected<NodeValue> bmm(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto a, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto m, b.tensor("mat2"));
  if (a.sizes.size() != 3 || m.sizes.size() != 3)
    return b.error("bmm expects 3-d tensors");
  FXKIT_TRY(sameDType(b, "self", a, "mat2", m));
  if (!symEq(a.sizes[0], m.sizes[0]) || !symEq(a.sizes[2], m.sizes[1]))
    return b.error("bmm shapes " + a.str() + " and " + m.str() + " cannot be multiplied");
  return one(contiguous(a.dtype, {a.sizes[0], a.sizes[1], m.sizes[2]}, a.device));
}

Expected<NodeValue> convolution(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto input, b.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto weight, b.tensor("weight"));
  FXKIT_ASSIGN_OR_RETURN(auto stride, b.symIntList("stride"));
  FXKIT_ASSIGN_OR_RETURN(auto padding, b.symIntList("padding"));
  FXKIT_ASSIGN_OR_RETURN(auto dilation, b.symIntList("dilation"));
  FXKIT_ASSIGN_OR_RETURN(auto transposed, b.boolean("transposed"));
  FXKIT_ASSIGN_OR_RETURN(auto outputPadding, b.symIntList("output_padding"));
  FXKIT_ASSIGN_OR_RETURN(auto groups, b.symInt("groups"));
  size_t rank = input.sizes.size();
  if (rank < 3 || weight.sizes.size() != rank)
    return b.error("convolution expects input and weight of the same rank (3 to 5)");
  size_t spatial = rank - 2;
  auto at = [](const Sizes &v, size_t i) { return v.size() == 1 ? v[0] : v[i]; };
  for (const Sizes *v : {&stride, &padding, &dilation})
    if (v->size() != 1 && v->size() != spatial)
      return b.error("stride/padding/dilation must have " + std::to_string(spatial) + " entries");
  Sizes out{input.sizes[0], transposed ? symMul(weight.sizes[1], groups) : weight.sizes[0]};
  for (size_t i = 0; i < spatial; ++i) {
    const SymExpr &in = input.sizes[2 + i];
    SymExpr kernelSpan = symMul(at(dilation, i), symSub(weight.sizes[2 + i], SymExpr(1)));
    if (transposed) {
      SymExpr op = outputPadding.empty() ? SymExpr(0) : at(outputPadding, i);
      out.push_back(symAdd(symAdd(symSub(symMul(symSub(in, SymExpr(1)), at(stride, i)),
                                         symMul(SymExpr(2), at(padding, i))),
                                  kernelSpan),
                           symAdd(op, SymExpr(1))));
    } else {
      SymExpr span =
          symSub(symAdd(in, symMul(SymExpr(2), at(padding, i))), symAdd(kernelSpan, SymExpr(1)));
      out.push_back(symAdd(symFloorDiv(span, at(stride, i)), SymExpr(1)));
    }
  }
  // meta_conv's memory format: channels-last if the input (or, on CUDA, the weight) is.
  bool channelsLast =
      stridesLikeChannelsLast(input.sizes, input.strides) ||
      (input.device.type == "cuda" && stridesLikeChannelsLast(weight.sizes, weight.strides));
  Sizes strides = channelsLast ? channelsLastStrides(out) : TensorType::contiguousStrides(out);
  return one(make(input.dtype, std::move(out), std::move(strides), input.device));
}

Expected<NodeValue> embedding(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto weight, b.tensor("weight"));
  FXKIT_ASSIGN_OR_RETURN(auto indices, b.tensor("indices"));
  if (weight.sizes.size() != 2)
    return b.error("embedding weight must be 2-d");
  if (indices.dtype != DType::Int64 && indices.dtype != DType::Int32)
    return b.error("embedding indices must be int64 or int32");
  Sizes shape = indices.sizes;
  shape.push_back(weight.sizes[1]);
  return one(contiguous(weight.dtype, std::move(shape), weight.device));
}

Expected<NodeValue> topk(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto k, b.symInt("k"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, b.integer("dim"));
  auto d = normalizeDim(dim, self.sizes.size());
  if (!d)
    return b.error(d.error().message);
  // The slice is the dim's size (1 for a 0-d tensor); a symbolic k or size may fit.
  SymExpr slice = self.sizes.empty() ? SymExpr(1) : self.sizes[*d];
  if (k.isConstant() &&
      (k.constant() < 0 || (slice.isConstant() && k.constant() > slice.constant())))
    return b.error("selected index k out of range (k = " + k.str() + " for a dimension of size " +
                   slice.str() + ")");
  Sizes shape = self.sizes;
  if (!shape.empty())
    shape[*d] = k;
  return many(
      {contiguous(self.dtype, shape, self.device), contiguous(DType::Int64, shape, self.device)});
}

Expected<NodeValue> efficientAttention(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto q, b.tensor("query"));
  FXKIT_ASSIGN_OR_RETURN(auto v, b.tensor("value"));
  FXKIT_ASSIGN_OR_RETURN(auto lse, b.boolean("compute_log_sumexp"));
  if (q.sizes.size() != 4 || v.sizes.size() != 4)
    return b.error("attention expects 4-d query, key and value");
  // meta__scaled_dot_product_efficient_attention: the output is allocated as (B, M, H, Kv) and
  // transposed back to (B, H, M, Kv); logsumexp is padded to a multiple of 32 rows.
  const SymExpr &B = q.sizes[0], &H = q.sizes[1], &M = q.sizes[2], &Kv = v.sizes[3];
  Sizes bmhk = TensorType::contiguousStrides({B, M, H, Kv});
  TensorType out = make(q.dtype, {B, H, M, Kv}, {bmhk[0], bmhk[2], bmhk[1], bmhk[3]}, q.device);
  SymExpr lseDim(0);
  if (lse)
    lseDim = M.isConstant() ? SymExpr((M.constant() + 31) / 32 * 32)
                            : symMul(symFloorDiv(symAdd(M, SymExpr(31)), SymExpr(32)), 32);
  TensorType logsumexp = contiguous(DType::Float32, {B, H, lseDim}, q.device);
  TensorType seed = contiguous(DType::Int64, {}, q.device);
  return many({out, logsumexp, seed, seed});
}

Expected<NodeValue> flashAttentionCpu(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto q, b.tensor("query"));
  FXKIT_ASSIGN_OR_RETURN(auto v, b.tensor("value"));
  if (q.sizes.size() != 4 || v.sizes.size() != 4)
    return b.error("attention expects 4-d query, key and value");
  // meta__scaled_dot_product_flash_attention_for_cpu: (B, M, H, D) and (B, M, H) buffers,
  // transposed to (B, H, M, D) and (B, H, M).
  const SymExpr &B = q.sizes[0], &H = q.sizes[1], &M = q.sizes[2], &D = v.sizes[3];
  Sizes bmhd = TensorType::contiguousStrides({B, M, H, D});
  Sizes bmh = TensorType::contiguousStrides({B, M, H});
  // The logsumexp is kept in the accumulation type: float64 for float64 inputs, else float32.
  DType lse = q.dtype == DType::Float64 ? DType::Float64 : DType::Float32;
  return many({make(q.dtype, {B, H, M, D}, {bmhd[0], bmhd[2], bmhd[1], bmhd[3]}, q.device),
               make(lse, {B, H, M}, {bmh[0], bmh[2], bmh[1]}, q.device)});
}

Expected<NodeValue> transformerEncoderLayer(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto src, b.tensor("src"));
  if (src.sizes.size() != 3)
    return b.error("src must be 3-d");
  return one(contiguous(src.dtype, src.sizes, src.device));
}

// ---- Other ----

Expected<NodeValue> cat(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto tensors, b.tensorList("tensors"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, b.integer("dim"));
  // Legacy: 1-d empty tensors are skipped.
  std::vector<const TensorType *> used;
  for (const TensorType &t : tensors)
    if (!(t.sizes.size() == 1 && symIs(t.sizes[0], 0)))
      used.push_back(&t);
  if (used.empty()) {
    if (tensors.empty())
      return b.error("cat of an empty list");
    return one(tensors[0]);
  }
  const TensorType &first = *used[0];
  auto d = normalizeDim(dim, first.sizes.size());
  if (!d)
    return b.error(d.error().message);
  Sizes shape = first.sizes;
  std::vector<PromotionOperand> prom;
  bool allChannelsLast = true;
  for (size_t k = 0; k < used.size(); ++k) {
    const TensorType &t = *used[k];
    if (t.sizes.size() != shape.size())
      return b.error("cat inputs differ in rank");
    for (size_t i = 0; i < shape.size(); ++i)
      if (i != static_cast<size_t>(*d) && !symEq(t.sizes[i], shape[i]))
        return b.error("cat inputs differ in size at dimension " + std::to_string(i));
    if (k)
      shape[*d] = symAdd(shape[*d], t.sizes[*d]);
    prom.push_back({t.dtype, t.sizes.size(), false});
    allChannelsLast = allChannelsLast && stridesLikeChannelsLast(t.sizes, t.strides);
  }
  // cat_compute_output_memory_format: one shared format, else contiguous.
  Sizes strides =
      allChannelsLast ? channelsLastStrides(shape) : TensorType::contiguousStrides(shape);
  return one(make(resultType(prom), std::move(shape), std::move(strides), first.device));
}

Expected<NodeValue> getitem(const BoundArgs &b) {
  const Argument &a = b.get("a");
  FXKIT_ASSIGN_OR_RETURN(auto index, b.integer("b"));
  if (a.isNode()) {
    const NodeValue &v = a.asNode()->value();
    if (const auto *ts = v.tensors()) {
      int64_t n = static_cast<int64_t>(ts->size());
      int64_t i = index < 0 ? index + n : index;
      if (i < 0 || i >= n)
        return b.error("index " + std::to_string(index) + " out of range for " + std::to_string(n) +
                       " results");
      if (!(*ts)[i])
        return b.error("result " + std::to_string(i) + " is not a tensor");
      return one(*(*ts)[i]);
    }
    if (v.empty())
      return b.error("input '" + a.asNode()->name() + "' has no value");
    return b.error("getitem on '" + a.asNode()->name() + "', which is not a list of results");
  }
  if (a.kind() == Argument::Kind::List || a.kind() == Argument::Kind::Tuple) {
    int64_t n = static_cast<int64_t>(a.items().size());
    int64_t i = index < 0 ? index + n : index;
    if (i < 0 || i >= n)
      return b.error("index out of range");
    const Argument &item = a.items()[i];
    if (item.isNode())
      return item.asNode()->value();
    if (item.kind() == Argument::Kind::Int)
      return NodeValue{SymExpr(item.asInt())};
    if (item.kind() == Argument::Kind::Sym)
      return NodeValue{item.asSym()};
  }
  return b.error("unsupported getitem operand");
}

/// sym_is_contiguous: whether self's strides are the contiguous (or channels-last) ones, as
/// 0 or 1; a stride that depends on symbols PyTorch could not decide counts as not contiguous.
Expected<NodeValue> symIsContiguous(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto format, b.memoryFormat("memory_format"));
  std::string_view f = format.value_or("contiguous_format");
  bool yes = f == "channels_last" ? isChannelsLastContiguous(self.sizes, self.strides)
                                  : isContiguous(self.sizes, self.strides);
  return NodeValue{SymExpr(yes ? 1 : 0)};
}

Expected<NodeValue> symSize(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, b.integer("dim"));
  auto d = normalizeDim(dim, self.sizes.size());
  if (!d || self.sizes.empty())
    return b.error(d ? "sym_size of a 0-dim tensor" : d.error().message);
  return NodeValue{self.sizes[*d]};
}

using Row = OpRow;

using C = OpCategory;

// clang-format off
/// THE table. Schemas as declared by PyTorch (aten/src/ATen/native/native_functions.yaml;
/// torch/_prims/__init__.py; torch/_inductor/inductor_prims.py); operator.* are Python's.
const Row kRows[] = {
  // Pointwise binary
  {"torch.ops.aten.add.Tensor", "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", C::Pointwise, add},
  {"torch.ops.aten.add.Scalar", "add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", C::Pointwise, add},
  {"torch.ops.aten.sub.Tensor", "sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", C::Pointwise, sub},
  {"torch.ops.aten.sub.Scalar", "sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", C::Pointwise, sub},
  {"torch.ops.aten.rsub.Scalar", "rsub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", C::Pointwise, sub},
  {"torch.ops.aten.div.Tensor_mode", "div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor", C::Pointwise, divMode},
  {"torch.ops.aten.div.Scalar_mode", "div.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor", C::Pointwise, divMode},
  {"torch.ops.aten.where.self", "where.self(Tensor condition, Tensor self, Tensor other) -> Tensor", C::Pointwise, whereSelf},
  // Comparisons
  // Pointwise unary
  {"torch.ops.aten.gelu.default", "gelu(Tensor self, *, str approximate='none') -> Tensor", C::Pointwise, unaryFloat},
  {"torch.ops.prims.convert_element_type.default", "convert_element_type(Tensor a, ScalarType dtype) -> Tensor", C::Pointwise, convertElementType},
  // Creation
  {"torch.ops.aten.full.default", "full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", C::Creation, full},
  {"torch.ops.aten.scalar_tensor.default", "scalar_tensor(Scalar s, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", C::Creation, scalarTensor},
  {"torch.ops.prims.iota.default", "iota(SymInt length, *, SymInt start, SymInt step, ScalarType dtype, Device device, bool requires_grad) -> Tensor", C::Creation, iota},
  // Views
  {"torch.ops.aten.view.default", "view(Tensor(a) self, SymInt[] size) -> Tensor(a)", C::View, view},
  {"torch.ops.aten.view.dtype", "view.dtype(Tensor(a) self, ScalarType dtype) -> Tensor(a)", C::View, viewDtype},
  {"torch.ops.aten._unsafe_view.default", "_unsafe_view(Tensor self, SymInt[] size) -> Tensor", C::View, view},
  {"torch.ops.aten.reshape.default", "reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)", C::View, reshape},
  {"torch.ops.aten.permute.default", "permute(Tensor(a) self, int[] dims) -> Tensor(a)", C::View, permute},
  {"torch.ops.aten.expand.default", "expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)", C::View, expand},
  {"torch.ops.aten.unsqueeze.default", "unsqueeze(Tensor(a) self, int dim) -> Tensor(a)", C::View, unsqueeze},
  {"torch.ops.aten.squeeze.dim", "squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)", C::View, squeezeDim},
  {"torch.ops.aten.squeeze.dims", "squeeze.dims(Tensor(a) self, int[] dim) -> Tensor(a)", C::View, squeezeDimList},
  {"torch.ops.aten.squeeze.default", "squeeze(Tensor(a) self) -> Tensor(a)", C::View, squeezeAll},
  {"torch.ops.aten.select.int", "select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)", C::View, selectInt},
  {"torch.ops.aten.slice.Tensor", "slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor(a)", C::View, sliceTensor},
  {"torch.ops.aten.split.Tensor", "split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]", C::View, splitTensor},
  {"torch.ops.aten.split_with_sizes.default", "split_with_sizes(Tensor(a -> *) self, SymInt[] split_sizes, int dim=0) -> Tensor(a)[]", C::View, splitWithSizes},
  {"torch.ops.aten.alias.default", "alias(Tensor(a) self) -> Tensor(a)", C::View, alias},
  {"torch.ops.aten.detach.default", "detach(Tensor(a) self) -> Tensor(a)", C::View, alias},
  {"torch.ops.aten.transpose.int", "transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)", C::View, transpose},
  {"torch.ops.aten.t.default", "t(Tensor(a) self) -> Tensor(a)", C::View, matrixTranspose},
  {"torch.ops.aten.diagonal.default", "diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)", C::View, diagonal},
  {"torch.ops.aten.as_strided.default", "as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a)", C::View, asStrided},
  // Reductions
  {"torch.ops.aten.sum.dim_IntList", "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", C::Reduction, sumDim},
  {"torch.ops.aten.sum.default", "sum(Tensor self, *, ScalarType? dtype=None) -> Tensor", C::Reduction, sumAll},
  {"torch.ops.aten.mean.dim", "mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", C::Reduction, meanDim},
  {"torch.ops.aten.mean.default", "mean(Tensor self, *, ScalarType? dtype=None) -> Tensor", C::Reduction, meanAll},
  {"torch.ops.aten.amax.default", "amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor", C::Reduction, amax},
  {"torch.ops.aten.amin.default", "amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor", C::Reduction, amax},
  {"torch.ops.aten.var_mean.correction", "var_mean.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> (Tensor, Tensor)", C::Reduction, varMean},
  {"torch.ops.prims.prepare_softmax_online.default", "prepare_softmax_online(Tensor a, int dim) -> (Tensor, Tensor)", C::Reduction, prepareSoftmaxOnline},
  // Extern
  {"torch.ops.aten.mm.default", "mm(Tensor self, Tensor mat2) -> Tensor", C::Extern, mm},
  {"torch.ops.aten.addmm.default", "addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", C::Extern, addmm},
  {"torch.ops.aten.addmm.out", "addmm.out(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", C::Extern, addmm},
  {"torch.ops.aten.bmm.default", "bmm(Tensor self, Tensor mat2) -> Tensor", C::Extern, bmm},
  {"torch.ops.aten.convolution.default", "convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups) -> Tensor", C::Extern, convolution},
  {"torch.ops.aten.embedding.default", "embedding(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool scale_grad_by_freq=False, bool sparse=False) -> Tensor", C::Other, embedding},
  {"torch.ops.aten.topk.default", "topk(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor values, Tensor indices)", C::Extern, topk},
  {"torch.ops.aten._scaled_dot_product_efficient_attention.default", "_scaled_dot_product_efficient_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_bias, bool compute_log_sumexp, float dropout_p=0.0, bool is_causal=False, *, float? scale=None) -> (Tensor output, Tensor log_sumexp, Tensor philox_seed, Tensor philox_offset)", C::Extern, efficientAttention},
  {"torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default", "_scaled_dot_product_flash_attention_for_cpu(Tensor query, Tensor key, Tensor value, float dropout_p=0.0, bool is_causal=False, *, Tensor? attn_mask=None, float? scale=None) -> (Tensor output, Tensor logsumexp)", C::Extern, flashAttentionCpu},
  {"torch.ops.aten._transformer_encoder_layer_fwd.default", "_transformer_encoder_layer_fwd(Tensor src, int embed_dim, int num_heads, Tensor qkv_weight, Tensor qkv_bias, Tensor proj_weight, Tensor proj_bias, bool use_gelu, bool norm_first, float eps, Tensor norm_weight_1, Tensor norm_bias_1, Tensor norm_weight_2, Tensor norm_bias_2, Tensor ffn_weight_1, Tensor ffn_bias_1, Tensor ffn_weight_2, Tensor ffn_bias_2, Tensor? mask=None, int? mask_type=None) -> Tensor", C::Extern, transformerEncoderLayer},
  // Other
  {"torch.ops.aten.clone.default", "clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor", C::Other, clone},
  {"torch.ops.aten.cat.default", "cat(Tensor[] tensors, int dim=0) -> Tensor", C::Other, cat},
  {"torch.ops.aten.sym_size.int", "sym_size.int(Tensor self, int dim) -> SymInt", C::Other, symSize},
  {"torch.ops.aten.sym_is_contiguous.default", "sym_is_contiguous(Tensor self, MemoryFormat memory_format=0) -> SymBool", C::Other, symIsContiguous},
  {"operator.getitem", "getitem(Any a, Any b) -> Any", C::Other, getitem},
};
// clang-format on

} // namespace

OpRegistry::OpRegistry() {
  const std::span<const OpRow> tables[] = {kRows,
                                           pointwiseOpRows(),
                                           indexingOpRows(),
                                           reductionOpRows(),
                                           nnOpRows(),
                                           tensorOpRows(),
                                           fftOpRows(),
                                           randomOpRows(),
                                           symbolicOpRows(),
                                           compositeNnOpRows(),
                                           compositeTensorOpRows(),
                                           compositePointwiseOpRows(),
                                           compositePrimsOpRows()};
  size_t count = 0;
  for (std::span<const OpRow> table : tables)
    count += table.size();
  ops_.reserve(count);
  for (std::span<const OpRow> table : tables)
    for (const Row &row : table) {
      auto schema = parseSchema(row.schema);
      // The table is code: a schema that does not parse is a bug caught by the registry tests.
      assert(schema && "op table schema does not parse");
      OpInfo info;
      info.target = row.target;
      if (schema)
        info.schema = schema.take();
      info.category = row.category;
      info.infer = row.infer;
      info.decompose = row.decompose;
      // A composite op is exactly an op with a decomposition.
      assert((row.category == OpCategory::Composite) == (row.decompose != nullptr) &&
             "composite rows, and only they, name a decomposition");
      assert(!index_.count(row.target) && "op listed twice in the table");
      index_.emplace(row.target, ops_.size());
      ops_.push_back(std::move(info));
    }
}

OpRegistry &OpRegistry::instance() {
  static OpRegistry registry;
  return registry;
}

const OpInfo *OpRegistry::lookup(std::string_view target) const {
  auto it = index_.find(target);
  return it == index_.end() ? nullptr : &ops_[it->second];
}

Status OpRegistry::setKernel(std::string_view target, KernelFn kernel) {
  auto it = index_.find(target);
  if (it != index_.end()) {
    ops_[it->second].kernel = kernel;
    return Status::ok();
  }
  return Error("no op '" + std::string(target) + "' in the registry");
}

bool isSupportedDType(DType dtype) {
  // What the interpreter computes with, and complex for the ops that take it.
  return dtypeIsComputable(dtype) || dtype == DType::Complex64 || dtype == DType::Complex128;
}

namespace {

/// Complex tensors flow only through ops that know them: the views (which move no elements)
/// and the FFT family; anything else (add on complex, say) would infer a type its kernel and
/// lowering cannot honour, so it is refused at inference.
bool takesComplex(const OpInfo &op) {
  if (op.category == OpCategory::View || op.target == "operator.getitem")
    return true;
  for (const OpRow &row : fftOpRows())
    if (row.target == op.target)
      return true;
  return false;
}

bool isComplexDType(DType d) { return d == DType::Complex64 || d == DType::Complex128; }

} // namespace

Expected<NodeValue> inferNodeValue(const Node &node) {
  const OpInfo *op = OpRegistry::instance().lookup(node.target());
  if (!op)
    return Error("node '" + node.name() + "': unknown op '" + std::string(node.target()) + "'");
  FXKIT_ASSIGN_OR_RETURN(auto bound, bindArgs(node, *op));
  // Inputs must have supported dtypes before anything is computed from them.
  std::string bad;
  auto check = [&](Node *in) {
    if (!bad.empty())
      return;
    auto checkTensor = [&](const TensorType &t) {
      if ((!isSupportedDType(t.dtype) || (isComplexDType(t.dtype) && !takesComplex(*op))) &&
          bad.empty())
        bad = "input '" + in->name() + "' has unsupported dtype " + std::string(dtypeName(t.dtype));
    };
    if (const TensorType *t = in->value().tensor())
      checkTensor(*t);
  };
  node.args().forEachNode(check);
  node.kwargs().forEachNode(check);
  if (!bad.empty())
    return bound.error(bad);
  auto value = op->infer(bound);
  if (!value)
    return value;
  auto checkOut = [&](const TensorType &t) -> Status {
    if (!isSupportedDType(t.dtype) || (isComplexDType(t.dtype) && !takesComplex(*op)))
      return bound.error("unsupported result dtype " + std::string(dtypeName(t.dtype)));
    return Status::ok();
  };
  if (const TensorType *t = value->tensor()) {
    FXKIT_TRY(checkOut(*t));
  } else if (const auto *ts = value->tensors()) {
    for (const auto &t : *ts)
      if (t)
        FXKIT_TRY(checkOut(*t));
  }
  return value;
}

} // namespace fxkit
