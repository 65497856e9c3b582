/// \file Lowering rules of the factories (arange, zeros, ones, empty*, *_like, fill) and of
/// the copies (_to_copy, copy, lift_fresh_copy, the *_copy forms of views): each is one
/// pointwise op over its result, as Inductor lowers them (torch/_inductor/lowering.py: `arange`
/// through `iota`, `full`/`*_like` as constant pointwise nodes, `_to_copy`/`copy` as a load
/// converted and stored in the result's layout). Results keep the layout inference gave them
/// (preserve_format strides, empty_strided's strides). empty* fill zeros, as the reference
/// kernels do: PyTorch leaves them uninitialised, and a defined value keeps runs deterministic.

#include "ir/Try.h"
#include "ir/ops/ShapeRules.h"
#include "transforms/lowering/Lowerer.h"
#include "transforms/lowering/LoweringRules.h"

#include <functional>

namespace fxkit::lowering {

namespace {

/// Builds the value stored at every point of a creation op's result, given the body, the
/// result's loop variables and its type.
using ValueFn = std::function<Expected<int32_t>(BodyBuilder &, const std::vector<SymExpr> &,
                                                const TensorType &)>;

/// One pointwise op over the node's result storing `value` (converted to the result's dtype).
/// Results the loop bodies cannot hold (complex, float8) stay extern calls.
Status lowerFilled(Lowerer &l, const Node &n, const BoundArgs &args, const ValueFn &value) {
  const TensorType *result = n.value().tensor();
  if (!result)
    return l.nodeError(n, "expected a tensor value");
  if (!dtypeIsComputable(result->dtype))
    return l.lowerExtern(n, args);
  TensorType out = *result;
  LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
  BodyBuilder b(op);
  std::vector<SymExpr> vars = iterate(out.sizes, op.ranges, false);
  auto v = value(b, vars, out);
  if (!v) {
    l.program_.ops.pop_back();
    return v.takeError();
  }
  l.values_[n.scratch()] = l.finishPointwise(op, b, *v, out, vars);
  return Status::ok();
}

template <int64_t Value> Status lowerConstant(Lowerer &l, const Node &n, const BoundArgs &args) {
  return lowerFilled(l, n, args,
                     [](BodyBuilder &b, const std::vector<SymExpr> &, const TensorType &) {
                       return Expected<int32_t>(b.intConstant(Value, DType::Int64));
                     });
}

/// full_like (`fill_value`), fill.Scalar and fill.Tensor (`value`, a 0-d tensor): the number
/// converted to the result's dtype as c10 converts a Scalar (floats truncate toward zero into
/// integers, any non-zero is true).
Status lowerFillArg(Lowerer &l, const Node &n, const BoundArgs &args) {
  std::string_view name = args.op().schema.indexOf("fill_value") >= 0 ? "fill_value" : "value";
  const Argument &a = args.get(name);
  if (a.isNode())
    if (const TensorType *t = a.asNode()->value().tensor(); t && !dtypeIsComputable(t->dtype))
      return l.lowerExtern(n, args);
  return lowerFilled(l, n, args,
                     [&](BodyBuilder &b, const std::vector<SymExpr> &vars, const TensorType &out) {
                       return l.operand(b, n, a, vars, out.dtype);
                     });
}

/// arange: start + i * step in the accumulate type ATen's CPU kernel and torch._refs.arange
/// compute in (int64 for integral results, from the bounds truncated toward zero; double for
/// float32 and float64; float for float16 and bfloat16), then converted to the result's dtype.
/// The length is the inferred one (ceil((end - start) / step)).
Status lowerArange(Lowerer &l, const Node &n, const BoundArgs &args) {
  const OpSchema &schema = args.op().schema;
  return lowerFilled(
      l, n, args,
      [&](BodyBuilder &b, const std::vector<SymExpr> &vars,
          const TensorType &out) -> Expected<int32_t> {
        if (vars.size() != 1)
          return l.nodeError(n, "arange's result must be 1-d");
        DType acc = !dtypeIsFloating(out.dtype)                                   ? DType::Int64
                    : out.dtype == DType::Float16 || out.dtype == DType::BFloat16 ? DType::Float32
                                                                                  : DType::Float64;
        auto bound = [&](std::string_view name, int64_t fallback) -> Expected<int32_t> {
          if (schema.indexOf(name) < 0)
            return b.cast(b.intConstant(fallback, DType::Int64), acc);
          return l.operand(b, n, args.get(name), vars, acc);
        };
        FXKIT_ASSIGN_OR_RETURN(auto start, bound("start", 0));
        FXKIT_ASSIGN_OR_RETURN(auto step, bound("step", 1));
        int32_t i = b.cast(b.indexValue(vars[0], DType::Int64), acc);
        return b.op(ScalarOp::Add, acc, start, b.op(ScalarOp::Mul, acc, step, i));
      });
}

/// A copy of `in` into the node's result (its layout and dtype): lift_fresh_copy, _to_copy and
/// the *_copy views.
Status lowerCopyOf(Lowerer &l, const Node &n, const BoundArgs &args, const BufferView &in) {
  const TensorType *out = n.value().tensor();
  if (!out)
    return l.nodeError(n, "expected a tensor value");
  if (!dtypeIsComputable(out->dtype) ||
      !dtypeIsComputable(l.program_.buffers[in.buffer].type.dtype))
    return l.lowerExtern(n, args);
  TensorType type = *out;
  l.values_[n.scratch()] = l.copyInto(n, in, type);
  return Status::ok();
}

/// lift_fresh_copy, _to_copy: self converted into the inferred layout and dtype. _to_copy to
/// another device is a transfer, not a loop: an extern call.
Status lowerSelfCopy(Lowerer &l, const Node &n, const BoundArgs &args) {
  FXKIT_ASSIGN_OR_RETURN(auto in, l.tensorArg(n, args.get("self")));
  const TensorType *out = n.value().tensor();
  const TensorType *self = args.get("self").asNode()->value().tensor();
  if (out && self && !(out->device == self->device))
    return l.lowerExtern(n, args);
  return lowerCopyOf(l, n, args, in);
}

/// copy(self, src): src broadcast to self's sizes and converted to self's dtype, stored in the
/// layout inference gave (self's).
Status lowerCopy(Lowerer &l, const Node &n, const BoundArgs &args) {
  const Argument &src = args.get("src");
  FXKIT_TRY(l.tensorArg(n, src));
  const TensorType *srcType = src.asNode()->value().tensor();
  if (!srcType || !dtypeIsComputable(srcType->dtype))
    return l.lowerExtern(n, args);
  return lowerFilled(l, n, args,
                     [&](BodyBuilder &b, const std::vector<SymExpr> &vars, const TensorType &out) {
                       return l.operand(b, n, src, vars, out.dtype);
                     });
}

/// as_strided_copy: the storage of self read with the given sizes, strides and offset (self's
/// offset when none is given), as the as_strided view lowers.
Status lowerAsStridedCopy(Lowerer &l, const Node &n, const BoundArgs &args) {
  FXKIT_ASSIGN_OR_RETURN(auto in, l.tensorArg(n, args.get("self")));
  FXKIT_ASSIGN_OR_RETURN(auto sizes, args.symIntList("size"));
  FXKIT_ASSIGN_OR_RETURN(auto strides, args.symIntList("stride"));
  FXKIT_ASSIGN_OR_RETURN(auto offset, args.optionalSymInt("storage_offset"));
  if (sizes.size() != strides.size())
    return l.nodeError(n, "as_strided_copy needs as many strides as sizes");
  BufferView view{in.buffer, sizes, strides, offset.value_or(in.offset)};
  return lowerCopyOf(l, n, args, view);
}

/// squeeze_copy (.default, .dim, .dims): self without the named (or all) dimensions of size 1.
Status lowerSqueezeCopy(Lowerer &l, const Node &n, const BoundArgs &args) {
  FXKIT_ASSIGN_OR_RETURN(auto in, l.tensorArg(n, args.get("self")));
  size_t rank = in.sizes.size();
  std::vector<bool> named(rank, args.op().schema.indexOf("dim") < 0);
  if (!named.empty() && args.op().schema.indexOf("dim") >= 0) {
    std::vector<int64_t> dims;
    if (args.get("dim").isContainer()) {
      FXKIT_ASSIGN_OR_RETURN(auto list, args.intList("dim"));
      if (list)
        dims = *list;
    } else {
      FXKIT_ASSIGN_OR_RETURN(auto d, args.integer("dim"));
      dims.push_back(d);
    }
    for (int64_t d : dims) {
      auto nd = normalizeDim(d, rank);
      if (!nd)
        return l.nodeError(n, nd.error().message);
      named[*nd] = true;
    }
  }
  BufferView view{in.buffer, {}, {}, in.offset};
  for (size_t d = 0; d < rank; ++d)
    if (!(named[d] && symIs(in.sizes[d], 1))) {
      view.sizes.push_back(in.sizes[d]);
      view.strides.push_back(in.strides[d]);
    }
  const TensorType *out = n.value().tensor();
  if (out && out->sizes.size() != view.sizes.size())
    return l.nodeError(n, "squeeze_copy of sizes " + sizesText(in.sizes) + " gives " +
                              sizesText(view.sizes) + ", inference " + sizesText(out->sizes));
  return lowerCopyOf(l, n, args, view);
}

/// diagonal_copy: dims dim1 and dim2 of self replaced by a last one stepping both, starting
/// `offset` off the main diagonal, as the diagonal view lowers.
Status lowerDiagonalCopy(Lowerer &l, const Node &n, const BoundArgs &args) {
  FXKIT_ASSIGN_OR_RETURN(auto in, l.tensorArg(n, args.get("self")));
  const TensorType *out = n.value().tensor();
  auto offset = args.integer("offset");
  auto dim1 = args.integer("dim1");
  auto dim2 = args.integer("dim2");
  if (!out || !offset || !dim1 || !dim2)
    return l.nodeError(n, "diagonal_copy needs a tensor value and integer offset, dim1, dim2");
  size_t rank = in.sizes.size();
  auto d1 = normalizeDim(*dim1, rank);
  auto d2 = normalizeDim(*dim2, rank);
  if (!d1 || !d2 || *d1 == *d2 || rank < 2)
    return l.nodeError(n, "diagonal_copy dims out of range");
  BufferView view{in.buffer, out->sizes, {}, in.offset};
  for (size_t d = 0; d < rank; ++d)
    if (static_cast<int64_t>(d) != *d1 && static_cast<int64_t>(d) != *d2)
      view.strides.push_back(in.strides[d]);
  view.strides.push_back(symAdd(in.strides[*d1], in.strides[*d2]));
  if (!symIs(out->sizes.back(), 0))
    view.offset = symAdd(in.offset, diagonalOffset(in.strides[*d1], in.strides[*d2], *offset));
  return lowerCopyOf(l, n, args, view);
}

const LoweringRule kRules[] = {
    {"torch.ops.aten.arange.default", lowerArange},
    {"torch.ops.aten.arange.start", lowerArange},
    {"torch.ops.aten.arange.start_step", lowerArange},
    {"torch.ops.aten.zeros.default", lowerConstant<0>},
    {"torch.ops.aten.ones.default", lowerConstant<1>},
    {"torch.ops.aten.empty.memory_format", lowerConstant<0>},
    {"torch.ops.aten.empty_strided.default", lowerConstant<0>},
    {"torch.ops.aten.zeros_like.default", lowerConstant<0>},
    {"torch.ops.aten.ones_like.default", lowerConstant<1>},
    {"torch.ops.aten.empty_like.default", lowerConstant<0>},
    {"torch.ops.aten.full_like.default", lowerFillArg},
    {"torch.ops.aten.fill.Scalar", lowerFillArg},
    {"torch.ops.aten.fill.Tensor", lowerFillArg},
    {"torch.ops.aten._to_copy.default", lowerSelfCopy},
    {"torch.ops.aten.lift_fresh_copy.default", lowerSelfCopy},
    {"torch.ops.aten.copy.default", lowerCopy},
    {"torch.ops.aten.as_strided_copy.default", lowerAsStridedCopy},
    {"torch.ops.aten.squeeze_copy.default", lowerSqueezeCopy},
    {"torch.ops.aten.squeeze_copy.dim", lowerSqueezeCopy},
    {"torch.ops.aten.squeeze_copy.dims", lowerSqueezeCopy},
    {"torch.ops.aten.diagonal_copy.default", lowerDiagonalCopy},
};

} // namespace

std::span<const LoweringRule> creationLoweringRules() { return kRules; }

} // namespace fxkit::lowering
