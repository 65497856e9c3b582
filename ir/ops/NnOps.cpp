/// \file Nn op family: rows and inference (see ir/ops/OpFamilies.h). Pooling (max, average and
/// adaptive average, forward and backward, adaptive max, Inductor's low-memory max-pool prims),
/// convolution backward, upsampling, grid sampling, col2im, torchvision's roi_align, distances and
/// embedding bags. Inference follows PyTorch's meta functions (torch/_meta_registrations.py, the
/// FakeTensor convolution rule of torch/_subclasses/fake_impls.py, aten/src/ATen/native/Pool.h for
/// output sizes), so that results equal what FakeTensor records.

#include "ir/Try.h"
#include "ir/ops/InferSupport.h"
#include "ir/ops/OpFamilies.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace fxkit {

namespace {

// ---- Messages ----

std::string intsStr(const std::vector<int64_t> &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

/// "kH: 3 kW: 3": one entry per spatial dimension (of at most 3), named as PyTorch's pooling
/// messages do.
template <typename T> std::string perDim(std::string_view prefix, const std::vector<T> &v) {
  static const char *const kLetters[] = {"T", "H", "W"};
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) {
    std::string value;
    if constexpr (std::is_same_v<T, SymExpr>)
      value = v[i].str();
    else
      value = std::to_string(v[i]);
    s += (i ? " " : "") + std::string(prefix) + kLetters[3 - v.size() + i] + ": " + value;
  }
  return s;
}

std::string_view countWord(size_t n) { return n == 1 ? "one" : n == 2 ? "two" : "three"; }

/// A size that is certainly 0 (a symbol never is).
bool isZero(const SymExpr &s) { return symIs(s, 0); }

/// a != b as PyTorch's guard would decide it: exactly for constants, else at the size hint.
bool differs(const SymExpr &a, const SymExpr &b) { return symCompare(a, b) != 0; }

/// Strides of a fresh tensor in the given layout (NHWC / NDHWC for channels-last).
Sizes layoutStrides(const Sizes &sizes, bool channelsLast) {
  return channelsLast ? channelsLastStrides(sizes) : TensorType::contiguousStrides(sizes);
}

/// utils.suggest_memory_format(t) == channels_last(_3d): only 4-d and 5-d tensors can be.
bool suggestsChannelsLast(const TensorType &t) {
  size_t rank = t.sizes.size();
  return (rank == 4 || rank == 5) && stridesLikeChannelsLast(t.sizes, t.strides);
}

/// check_dim_size of the pooling backward metas: `t` has rank `dim` and size `size` at
/// `dimSize`.
Status checkDimSize(const BoundArgs &b, const TensorType &t, size_t dim, size_t dimSize,
                    const SymExpr &size) {
  if (t.sizes.size() == dim && !differs(t.sizes[dimSize], size))
    return Status::ok();
  return b.error("Expected a tensor of dimension " + std::to_string(dim) + " and tensor.size[" +
                 std::to_string(dimSize) + "] == " + size.str() + " but got: dimension " +
                 std::to_string(t.sizes.size()) + " and tensor.size[" + std::to_string(dimSize) +
                 "] = " + (dimSize < t.sizes.size() ? t.sizes[dimSize].str() : "?"));
}

// ---- Pooling windows ----

/// Which pooling op reads its arguments: its name in messages and its spatial rank.
struct PoolOp {
  std::string_view name; ///< "max_pool2d", "avg_pool3d"
  size_t nd;             ///< spatial dimensions
  bool avg;              ///< average pooling: no dilation, 3-d checks the input's size
};

/// The window of a pooling op, one entry per spatial dimension.
struct PoolSpec {
  std::vector<int64_t> kernel, stride, padding, dilation;
  bool ceil = false;
};

/// A pooling argument (`int[2] kernel_size`) expanded to `nd` entries: a single value stands
/// for every dimension; an omittable one (stride) may be empty.
Expected<std::vector<int64_t>> poolList(const BoundArgs &b, const PoolOp &op, std::string_view name,
                                        bool omittable) {
  FXKIT_ASSIGN_OR_RETURN(auto v, b.intList(name));
  std::vector<int64_t> list = v ? *v : std::vector<int64_t>{};
  if (list.size() == op.nd || (omittable && list.empty()))
    return list;
  if (list.size() == 1)
    return std::vector<int64_t>(op.nd, list[0]);
  std::string verb = op.name == "avg_pool3d" ? " must be " : " must either be ";
  return b.error(std::string(op.name) + ": " + std::string(name) + verb +
                 (omittable ? "omitted, " : "") + "a single int, or a tuple of " +
                 std::string(countWord(op.nd)) + " ints");
}

/// Reads kernel_size, stride (empty: the kernel), padding, dilation and ceil_mode where the
/// schema declares them.
Expected<PoolSpec> readPoolSpec(const BoundArgs &b, const PoolOp &op) {
  PoolSpec s;
  FXKIT_ASSIGN_OR_RETURN(auto kernel, poolList(b, op, "kernel_size", false));
  FXKIT_ASSIGN_OR_RETURN(auto stride, poolList(b, op, "stride", true));
  FXKIT_ASSIGN_OR_RETURN(auto padding, poolList(b, op, "padding", false));
  s.kernel = kernel;
  s.stride = stride.empty() ? kernel : stride;
  s.padding = padding;
  s.dilation.assign(op.nd, 1);
  const OpSchema &schema = b.op().schema;
  if (schema.indexOf("dilation") >= 0) {
    FXKIT_ASSIGN_OR_RETURN(auto dilation, poolList(b, op, "dilation", false));
    s.dilation = dilation;
  }
  if (schema.indexOf("ceil_mode") >= 0) {
    FXKIT_ASSIGN_OR_RETURN(auto ceil, b.boolean("ceil_mode"));
    s.ceil = ceil;
  }
  return s;
}

/// pooling_output_shape (aten/src/ATen/native/Pool.h) over a possibly symbolic input size:
/// floor((in + 2 pad - span) / stride) + 1 for the window span = dilation (k - 1) + 1. Ceil mode
/// rounds up but drops a last window that would start in the right padding; PyTorch decides
/// that with a guard on the size, while the count of window starts j * stride that lie below
/// both in + pad and the rounded-up end is one floor division for every size:
/// (in + 2 pad - span + min(stride, span - pad) - 1) // stride + 1.
Expected<SymExpr> poolingOutputSize(const BoundArgs &b, const SymExpr &in, int64_t k, int64_t pad,
                                    int64_t stride, int64_t dilation, bool ceil) {
  if (stride == 0)
    return b.error("stride should not be zero");
  if (pad < 0)
    return b.error("pad must be non-negative, but got pad: " + std::to_string(pad));
  if (pad > ((k - 1) * dilation + 1) / 2)
    return b.error(
        "pad should be at most half of effective kernel size, but got pad=" + std::to_string(pad) +
        ", kernel_size=" + std::to_string(k) + " and dilation=" + std::to_string(dilation));
  int64_t span = dilation * (k - 1) + 1;
  int64_t extra = ceil ? std::min(stride, span - pad) - 1 : 0;
  SymExpr numerator = symAdd(in, SymExpr(2 * pad - span + extra));
  return symAdd(symFloorDiv(numerator, SymExpr(stride)), SymExpr(1));
}

/// The spatial output sizes of a pooling window over the last nd dims of `input`.
Expected<Sizes> pooledSpatial(const BoundArgs &b, const TensorType &input, const PoolSpec &s) {
  size_t nd = s.kernel.size(), lead = input.sizes.size() - nd;
  Sizes out;
  for (size_t i = 0; i < nd; ++i) {
    FXKIT_ASSIGN_OR_RETURN(auto o,
                           poolingOutputSize(b, input.sizes[lead + i], s.kernel[i], s.padding[i],
                                             s.stride[i], s.dilation[i], s.ceil));
    out.push_back(o);
  }
  return out;
}

/// The window checks of pool2d_shape_check / pool3d_shape_check.
Status checkPoolWindow(const BoundArgs &b, const PoolSpec &s) {
  auto positive = [](const std::vector<int64_t> &v) {
    return std::all_of(v.begin(), v.end(), [](int64_t x) { return x > 0; });
  };
  if (!positive(s.kernel))
    return b.error("kernel size should be greater than zero, but got " + perDim("k", s.kernel));
  if (!positive(s.stride))
    return b.error("stride should be greater than zero, but got " + perDim("d", s.stride));
  if (!positive(s.dilation))
    return b.error("dilation should be greater than zero, but got " +
                   perDim("dilation", s.dilation));
  return Status::ok();
}

/// The input checks of pool2d_shape_check (3-d or 4-d, only the batch may be empty; 4-d for a
/// channels-last input) and pool3d_shape_check (non-batch dims non-empty; average pooling's
/// input at least as large as its kernel).
Status checkPoolInput(const BoundArgs &b, const PoolOp &op, const TensorType &input,
                      const PoolSpec &s, bool channelsLast) {
  size_t rank = input.sizes.size();
  const Sizes &in = input.sizes;
  if (op.nd == 2) {
    bool valid = !isZero(in[1]) && !isZero(in[2]);
    if (channelsLast
            ? rank == 4 && valid && !isZero(in[3])
            : (rank == 3 && !isZero(in[0]) && valid) || (rank == 4 && valid && !isZero(in[3])))
      return Status::ok();
    return b.error(channelsLast ? "Expected 4D (batch mode) tensor expected for input with "
                                  "channels_last layout with optional 0 dim batch size for "
                                  "input, but got: " +
                                      sizesText(in)
                                : "Expected 3D or 4D (batch mode) tensor with optional 0 dim "
                                  "batch size for input, but got:" +
                                      sizesText(in));
  }
  std::string fn = std::string(op.name) + (op.avg ? "()" : "_with_indices()");
  for (size_t i = rank == 5 ? 1 : 0; i < rank; ++i)
    if (isZero(in[i]))
      return b.error(fn +
                     ": Expected input's non-batch dimensions to have positive length, but "
                     "input has a shape of " +
                     sizesText(in) + " and non-batch dimension 0 has length zero!");
  Sizes spatial(in.end() - static_cast<int64_t>(op.nd), in.end());
  for (size_t i = 0; i < op.nd && op.avg; ++i)
    if (spatial[i].isConstant() && spatial[i].constant() < s.kernel[i])
      return b.error("input image (" + perDim("", spatial) + ") smaller than kernel size (" +
                     perDim("k", s.kernel) + ")");
  return Status::ok();
}

/// "Output size is too small" of the shape checks, naming the (C x H x W) planes.
Status checkPoolOutput(const BoundArgs &b, const TensorType &input, const Sizes &out) {
  for (const SymExpr &o : out)
    if (o.isConstant() && o.constant() < 1) {
      Sizes plane(input.sizes.end() - static_cast<int64_t>(out.size()) - 1, input.sizes.end());
      Sizes outPlane{plane[0]};
      outPlane.insert(outPlane.end(), out.begin(), out.end());
      auto joined = [](const Sizes &v) {
        std::string s;
        for (size_t i = 0; i < v.size(); ++i)
          s += (i ? "x" : "") + v[i].str();
        return s;
      };
      return b.error("Given input size: (" + joined(plane) + "). Calculated output size: (" +
                     joined(outPlane) + "). Output size is too small");
    }
  return Status::ok();
}

/// pool2d_shape_check / pool3d_shape_check: a positive window, a valid input, padding at most
/// half the kernel, a non-empty output.
Status poolShapeCheck(const BoundArgs &b, const PoolOp &op, const TensorType &input,
                      const PoolSpec &s, const Sizes &out, bool channelsLast) {
  FXKIT_TRY(checkPoolWindow(b, s));
  FXKIT_TRY(checkPoolInput(b, op, input, s, channelsLast));
  for (size_t i = 0; i < op.nd; ++i)
    if (s.kernel[i] / 2 < s.padding[i])
      return b.error("pad should be smaller than or equal to half of kernel size, but got " +
                     perDim("k", s.kernel) + " " + perDim("pad", s.padding));
  return checkPoolOutput(b, input, out);
}

/// A pooled result's sizes (leading dims kept) and layout.
struct PooledShape {
  Sizes sizes;
  bool channelsLast = false;
};

/// The shared part of the pooling metas: the input's rank, the window, the output sizes and
/// the checks. max_pool and avg_pool2d follow the input's suggested memory format;
/// avg_pool3d's result is always contiguous.
Expected<PooledShape> poolShape(const BoundArgs &b, const PoolOp &op, const TensorType &input,
                                const PoolSpec &s) {
  size_t rank = input.sizes.size();
  if (rank != op.nd + 1 && rank != op.nd + 2) {
    if (op.avg && op.nd == 2) // avg_pool2d's meta leaves this to pool2d_shape_check
      return b.error("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for "
                     "input, but got:" +
                     sizesText(input.sizes));
    return b.error(op.nd == 2 ? "non-empty 3D or 4D (batch mode) tensor expected for input"
                              : "non-empty 4D or 5D (batch mode) tensor expected for input");
  }
  FXKIT_ASSIGN_OR_RETURN(auto spatial, pooledSpatial(b, input, s));
  PooledShape shape;
  shape.channelsLast = rank == op.nd + 2 && suggestsChannelsLast(input) && !(op.avg && op.nd == 3);
  FXKIT_TRY(poolShapeCheck(b, op, input, s, spatial, shape.channelsLast));
  shape.sizes.assign(input.sizes.begin(), input.sizes.end() - static_cast<int64_t>(op.nd));
  shape.sizes.insert(shape.sizes.end(), spatial.begin(), spatial.end());
  return shape;
}

TensorType pooledType(DType dtype, const PooledShape &shape, Device device) {
  return make(dtype, shape.sizes, layoutStrides(shape.sizes, shape.channelsLast), device);
}

// ---- Max pooling ----

/// max_pool{2,3}d_with_indices: the values and their int64 indices (flattened within each
/// input plane), laid out alike.
template <size_t nd> Expected<NodeValue> maxPoolWithIndices(const BoundArgs &b) {
  static const PoolOp op{nd == 2 ? "max_pool2d" : "max_pool3d", nd, false};
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto spec, readPoolSpec(b, op));
  FXKIT_ASSIGN_OR_RETURN(auto shape, poolShape(b, op, self, spec));
  return many(
      {pooledType(self.dtype, shape, self.device), pooledType(DType::Int64, shape, self.device)});
}

/// prims._low_memory_max_pool_with_offsets: its meta runs the eager definition
/// (inductor_prims._low_memory_max_pool_with_offsets_aten), max_pool{2,3}d_with_indices by the
/// kernel's rank, and turns the indices into int8 offsets within the window.
Expected<NodeValue> lowMemoryMaxPoolWithOffsets(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto kernel, b.intList("kernel_size"));
  if (kernel->size() != 2 && kernel->size() != 3)
    return b.error("kernel_size must have 2 or 3 entries (2-d or 3-d pooling), got " +
                   intsStr(*kernel));
  PoolOp op{kernel->size() == 2 ? "max_pool2d" : "max_pool3d", kernel->size(), false};
  FXKIT_ASSIGN_OR_RETURN(auto spec, readPoolSpec(b, op));
  FXKIT_ASSIGN_OR_RETURN(auto shape, poolShape(b, op, self, spec));
  return many(
      {pooledType(self.dtype, shape, self.device), pooledType(DType::Int8, shape, self.device)});
}

/// prims._low_memory_max_pool_offsets_to_indices: int64 input-plane indices from the offsets,
/// computed elementwise (so laid out like the offsets).
Expected<NodeValue> lowMemoryOffsetsToIndices(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto offsets, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto kernel, b.intList("kernel_size"));
  size_t nd = kernel->size();
  for (std::string_view name : {"input_size", "stride", "padding", "dilation"}) {
    FXKIT_ASSIGN_OR_RETURN(auto list, b.symIntList(name));
    if (list.size() < nd)
      return b.error(std::string(name) + " has " + std::to_string(list.size()) + " entries for a " +
                     std::to_string(nd) + "-d kernel");
  }
  if (offsets.sizes.size() < nd)
    return b.error("offsets of rank " + std::to_string(offsets.sizes.size()) + " for a " +
                   std::to_string(nd) + "-d kernel");
  Sizes strides = elementwiseStrides(offsets.sizes, {&offsets});
  return one(make(DType::Int64, offsets.sizes, std::move(strides), offsets.device));
}

/// max_pool2d_with_indices_backward: the gradient of the input, in the input's layout.
Expected<NodeValue> maxPool2dBackward(const BoundArgs &b) {
  static const PoolOp op{"max_pool2d", 2, false};
  FXKIT_ASSIGN_OR_RETURN(auto grad, b.tensor("grad_output"));
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto indices, b.tensor("indices"));
  FXKIT_ASSIGN_OR_RETURN(auto spec, readPoolSpec(b, op));
  FXKIT_ASSIGN_OR_RETURN(auto shape, poolShape(b, op, self, spec));
  if (self.dtype != grad.dtype)
    return b.error("Expected dtype " + std::string(dtypeName(self.dtype)) +
                   " for `gradOutput` but got dtype " + std::string(dtypeName(grad.dtype)));
  size_t ndim = self.sizes.size();
  for (const TensorType *t : {&grad, &indices})
    for (size_t i = 0; i < 3; ++i)
      FXKIT_TRY(checkDimSize(b, *t, ndim, ndim - 3 + i, shape.sizes[ndim - 3 + i]));
  return one(
      make(self.dtype, self.sizes, layoutStrides(self.sizes, shape.channelsLast), self.device));
}

// ---- Average pooling ----

/// Checks of the average-pooling metas before the shape: no unsigned input, a non-zero
/// divisor.
Status checkAvgPoolArgs(const BoundArgs &b, const PoolOp &op, const TensorType &self) {
  if (self.dtype == DType::UInt8)
    return b.error("\"" + std::string(op.name) + "\" not implemented for 'torch.uint8'");
  if (b.op().schema.indexOf("divisor_override") >= 0) {
    FXKIT_ASSIGN_OR_RETURN(auto divisor, b.optionalInteger("divisor_override"));
    if (divisor && *divisor == 0)
      return b.error("divisor must be not zero");
  }
  return Status::ok();
}

template <size_t nd> Expected<NodeValue> avgPool(const BoundArgs &b) {
  static const PoolOp op{nd == 2 ? "avg_pool2d" : "avg_pool3d", nd, true};
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto spec, readPoolSpec(b, op));
  FXKIT_TRY(checkAvgPoolArgs(b, op, self));
  FXKIT_ASSIGN_OR_RETURN(auto shape, poolShape(b, op, self, spec));
  return one(pooledType(self.dtype, shape, self.device));
}

/// avg_pool2d_backward: grad_output must have the forward's output sizes; the gradient takes
/// the input's sizes and suggested layout.
Expected<NodeValue> avgPool2dBackward(const BoundArgs &b) {
  static const PoolOp op{"avg_pool2d", 2, true};
  FXKIT_ASSIGN_OR_RETURN(auto grad, b.tensor("grad_output"));
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto spec, readPoolSpec(b, op));
  FXKIT_TRY(checkAvgPoolArgs(b, op, self));
  FXKIT_ASSIGN_OR_RETURN(auto shape, poolShape(b, op, self, spec));
  size_t ndim = self.sizes.size();
  for (size_t i = 0; i < 3; ++i)
    FXKIT_TRY(checkDimSize(b, grad, ndim, ndim - 3 + i, shape.sizes[ndim - 3 + i]));
  return one(
      make(self.dtype, self.sizes, layoutStrides(self.sizes, shape.channelsLast), self.device));
}

/// A view of `t` with a size-1 dim inserted before its last (unsqueeze(-2)): avg_pool1d and
/// adaptive_avg_pool1d run their 2-d op on it.
TensorType unsqueezeBeforeLast(const TensorType &t) {
  TensorType u = t;
  size_t last = t.sizes.size() - 1;
  u.sizes.insert(u.sizes.begin() + last, SymExpr(1));
  u.strides.insert(u.strides.begin() + last, symMul(t.sizes[last], t.strides[last]));
  return u;
}

/// squeeze(-2) of a 2-d pooling result.
TensorType squeezeBeforeLast(TensorType t) {
  size_t at = t.sizes.size() - 2;
  t.sizes.erase(t.sizes.begin() + at);
  t.strides.erase(t.strides.begin() + at);
  return t;
}

/// checkDimRange(fn, self, 2, 4) and check1d of the 1-d pooling composites.
Status check1dPool(const BoundArgs &b, std::string_view fn, const TensorType &self,
                   std::initializer_list<std::string_view> lists) {
  size_t rank = self.sizes.size();
  if (rank < 2 || rank > 3)
    return b.error("Expected 2D to 3D tensor, but got " + std::to_string(rank) +
                   "D tensor for argument #1 'self' (while checking arguments for " +
                   std::string(fn) + ")");
  for (std::string_view name : lists) {
    FXKIT_ASSIGN_OR_RETURN(auto v, b.intList(name));
    if (v->size() != 1 && !(name == "stride" && v->empty()))
      return b.error(std::string(fn) + "() argument '" + std::string(name) +
                     "' should contain one int (got " + std::to_string(v->size()) + ")");
  }
  return Status::ok();
}

/// avg_pool1d: avg_pool2d over self.unsqueeze(-2) with a 1 x k window, squeezed back.
Expected<NodeValue> avgPool1d(const BoundArgs &b) {
  static const PoolOp op{"avg_pool2d", 2, true};
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_TRY(check1dPool(b, "avg_pool1d", self, {"kernel_size", "stride", "padding"}));
  FXKIT_ASSIGN_OR_RETURN(auto kernel, b.intList("kernel_size"));
  FXKIT_ASSIGN_OR_RETURN(auto stride, b.intList("stride"));
  FXKIT_ASSIGN_OR_RETURN(auto padding, b.intList("padding"));
  FXKIT_ASSIGN_OR_RETURN(auto ceil, b.boolean("ceil_mode"));
  PoolSpec spec{{1, (*kernel)[0]},
                {1, stride->empty() ? (*kernel)[0] : (*stride)[0]},
                {0, (*padding)[0]},
                {1, 1},
                ceil};
  TensorType input = unsqueezeBeforeLast(self);
  FXKIT_TRY(checkAvgPoolArgs(b, op, self));
  FXKIT_ASSIGN_OR_RETURN(auto shape, poolShape(b, op, input, spec));
  return one(squeezeBeforeLast(pooledType(self.dtype, shape, self.device)));
}

// ---- Adaptive average pooling ----

/// The adaptive metas' checks: rank nd+1 or nd+2, non-empty spatial dims (and, for the
/// backward, non-empty non-batch dims).
Status checkAdaptiveInput(const BoundArgs &b, std::string_view fn, size_t nd, const TensorType &t,
                          std::string_view what) {
  size_t rank = t.sizes.size();
  if (rank != nd + 1 && rank != nd + 2)
    return b.error(std::string(fn) + "(): Expected " + std::to_string(nd + 1) + "D or " +
                   std::to_string(nd + 2) + "D tensor, but got " + sizesText(t.sizes));
  for (size_t i = what == "input" ? rank - nd : 1; i < rank; ++i)
    if (isZero(t.sizes[i]))
      return b.error(std::string(fn) + "(): Expected " + std::string(what) +
                     " to have non-zero size for non-batch dimensions, but " + std::string(what) +
                     " has sizes " + sizesText(t.sizes) + " with dimension " + std::to_string(i) +
                     " being empty");
  return Status::ok();
}

/// _adaptive_avg_pool{2,3}d: the leading dims and output_size; 2-d follows the input's
/// suggested layout, 3-d is contiguous.
Expected<TensorType> adaptiveType(const BoundArgs &b, size_t nd, const TensorType &self,
                                  const Sizes &outputSize) {
  std::string fn = nd == 3 ? "adaptive_avg_pool3d" : "adaptive_avg_pool2d";
  FXKIT_TRY(checkAdaptiveInput(b, fn, nd, self, "input"));
  if (outputSize.size() != nd)
    return b.error(fn + ": output_size must be " + std::to_string(nd));
  for (const SymExpr &s : outputSize)
    if (s.isConstant() && s.constant() < 0)
      return b.error(fn +
                     "(): elements of output_size must be greater than or equal to 0 but "
                     "received " +
                     sizesText(outputSize));
  Sizes sizes(self.sizes.begin(), self.sizes.end() - static_cast<int64_t>(nd));
  sizes.insert(sizes.end(), outputSize.begin(), outputSize.end());
  bool channelsLast = nd == 2 && suggestsChannelsLast(self);
  return make(self.dtype, sizes, layoutStrides(sizes, channelsLast), self.device);
}

template <size_t nd> Expected<NodeValue> adaptiveAvgPool(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto outputSize, b.symIntList("output_size"));
  FXKIT_ASSIGN_OR_RETURN(auto t, adaptiveType(b, nd, self, outputSize));
  return one(std::move(t));
}

/// adaptive_max_pool{2,3}d (their metas): the values and their int64 indices (positions
/// flattened over the input plane or volume); 2-d in the input's suggested layout, 3-d
/// contiguous; floating inputs only, as their kernels dispatch.
template <size_t nd> Expected<NodeValue> adaptiveMaxPool(const BoundArgs &b) {
  const std::string fn = "adaptive_max_pool" + std::to_string(nd) + "d";
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto outputSize, b.symIntList("output_size"));
  const size_t rank = self.sizes.size();
  if (rank != nd + 1 && rank != nd + 2)
    return b.error(fn + "(): Expected " + std::to_string(nd + 1) + "D or " +
                   std::to_string(nd + 2) + "D tensor, but got: " + sizesText(self.sizes));
  for (size_t i = 1; i < rank; ++i)
    if (isZero(self.sizes[i]))
      return b.error(fn +
                     "(): Expected input to have non-zero size for non-batch dimensions, "
                     "but input has sizes " +
                     sizesText(self.sizes) + " with dimension " + std::to_string(i) +
                     " being empty");
  if (outputSize.size() != nd)
    return b.error(fn + "(): internal error: output_size.size() must be " + std::to_string(nd));
  if (!dtypeIsFloating(self.dtype))
    return b.error("\"" + fn + "\" not implemented for '" +
                   std::string(dtypeScalarTypeName(self.dtype)) + "'");
  Sizes sizes(self.sizes.begin(), self.sizes.end() - static_cast<std::ptrdiff_t>(nd));
  sizes.insert(sizes.end(), outputSize.begin(), outputSize.end());
  const Sizes strides = layoutStrides(sizes, nd == 2 && suggestsChannelsLast(self));
  return many({make(self.dtype, sizes, strides, self.device),
               make(DType::Int64, sizes, strides, self.device)});
}

/// adaptive_avg_pool1d: _adaptive_avg_pool2d over self.unsqueeze(-2) to (1, L), squeezed.
Expected<NodeValue> adaptiveAvgPool1d(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_TRY(check1dPool(b, "adaptive_avg_pool1d", self, {"output_size"}));
  FXKIT_ASSIGN_OR_RETURN(auto outputSize, b.symIntList("output_size"));
  FXKIT_ASSIGN_OR_RETURN(
      auto t, adaptiveType(b, 2, unsqueezeBeforeLast(self), {SymExpr(1), outputSize[0]}));
  return one(squeezeBeforeLast(std::move(t)));
}

Expected<NodeValue> adaptiveAvgPool2dBackward(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto grad, b.tensor("grad_output"));
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_TRY(checkAdaptiveInput(b, "adaptive_avg_pool2d_backward", 2, grad, "grad_output"));
  if (self.dtype != grad.dtype)
    return b.error("expected dtype " + std::string(dtypeName(self.dtype)) +
                   " for `grad_output` but got dtype " + std::string(dtypeName(grad.dtype)));
  return one(make(self.dtype, self.sizes, layoutStrides(self.sizes, suggestsChannelsLast(self)),
                  self.device));
}

// ---- Convolution backward ----

/// convolution_backward: (grad_input, grad_weight, grad_bias), each None where output_mask is
/// False. FakeTensor's conv rule gives the input and weight gradients the convolution
/// backend's memory format: channels-last when the input or the weight is (4-d and 5-d);
/// grad_bias is contiguous of bias_sizes. All take grad_output's dtype.
Expected<NodeValue> convolutionBackward(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto grad, b.tensor("grad_output"));
  FXKIT_ASSIGN_OR_RETURN(auto input, b.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto weight, b.tensor("weight"));
  FXKIT_ASSIGN_OR_RETURN(auto mask, b.boolList("output_mask", 3));
  FXKIT_ASSIGN_OR_RETURN(auto groups, b.symInt("groups"));
  size_t rank = input.sizes.size();
  if (rank < 3 || weight.sizes.size() != rank || grad.sizes.size() != rank)
    return b.error("convolution_backward expects grad_output, input and weight of the same rank "
                   "(3 to 5), got " +
                   sizesText(grad.sizes) + ", " + sizesText(input.sizes) + " and " +
                   sizesText(weight.sizes));
  if (groups.isConstant() && groups.constant() < 1)
    return b.error("non-positive groups is not supported");
  bool channelsLast = rank >= 4 && (suggestsChannelsLast(input) || suggestsChannelsLast(weight));
  std::vector<std::optional<TensorType>> outs(3);
  if (mask[0])
    outs[0] = make(grad.dtype, input.sizes, layoutStrides(input.sizes, channelsLast), grad.device);
  if (mask[1])
    outs[1] =
        make(grad.dtype, weight.sizes, layoutStrides(weight.sizes, channelsLast), grad.device);
  if (mask[2]) {
    if (b.get("bias_sizes").isNone())
      return b.error("output_mask asks for the bias gradient but bias_sizes is None");
    FXKIT_ASSIGN_OR_RETURN(auto biasSizes, b.symIntList("bias_sizes"));
    outs[2] = contiguous(grad.dtype, std::move(biasSizes), grad.device);
  }
  return NodeValue{std::move(outs)};
}

// ---- Upsampling ----

/// The floats of a `float[]?` argument (ints accepted); nullopt for None.
Expected<std::optional<std::vector<double>>> floatList(const BoundArgs &b, std::string_view name) {
  const Argument &a = b.get(name);
  if (a.isNone())
    return std::optional<std::vector<double>>();
  if (a.kind() != Argument::Kind::List && a.kind() != Argument::Kind::Tuple)
    return b.error("argument '" + std::string(name) + "' must be a list of floats");
  std::vector<double> out;
  for (const Argument &item : a.items()) {
    if (item.kind() == Argument::Kind::Float)
      out.push_back(item.asFloat());
    else if (item.kind() == Argument::Kind::Int)
      out.push_back(static_cast<double>(item.asInt()));
    else
      return b.error("argument '" + std::string(name) + "' must be a list of floats");
  }
  return std::optional<std::vector<double>>(std::move(out));
}

/// sym_int(size * scale): truncation of the product. A symbolic size takes an integral scale,
/// or one with a small power-of-two denominator (1.5, 0.25: exact as a floor division).
Expected<SymExpr> scaledSize(const BoundArgs &b, const SymExpr &size, double scale) {
  if (size.isConstant())
    return SymExpr(static_cast<int64_t>(static_cast<double>(size.constant()) * scale));
  for (int64_t q = 1; q <= (1 << 20); q *= 2) {
    double p = scale * static_cast<double>(q);
    if (p == std::floor(p) && scale >= 0)
      return symFloorDiv(symMul(size, SymExpr(static_cast<int64_t>(p))), SymExpr(q));
  }
  return b.error("cannot scale the symbolic size " + size.str() + " by " + std::to_string(scale));
}

/// upsample_compute_output_size: exactly one of output_size and scale_factors, with one entry
/// per spatial dimension.
Expected<Sizes> upsampleOutputSize(const BoundArgs &b, const TensorType &input) {
  size_t spatial = input.sizes.size() >= 2 ? input.sizes.size() - 2 : 0;
  FXKIT_ASSIGN_OR_RETURN(auto scales, floatList(b, "scale_factors"));
  bool hasSize = !b.get("output_size").isNone();
  if (hasSize == scales.has_value())
    return b.error("Must specify exactly one of output_size and scale_factors");
  if (hasSize) {
    FXKIT_ASSIGN_OR_RETURN(auto size, b.symIntList("output_size"));
    if (size.size() != spatial)
      return b.error("It is expected output_size equals to " + std::to_string(spatial) +
                     ", but got size " + std::to_string(size.size()));
    return size;
  }
  if (scales->size() != spatial)
    return b.error("It is expected scale_factors to have " + std::to_string(spatial) +
                   " entries, but got " + std::to_string(scales->size()));
  Sizes out;
  for (size_t i = 0; i < spatial; ++i) {
    FXKIT_ASSIGN_OR_RETURN(auto s, scaledSize(b, input.sizes[2 + i], (*scales)[i]));
    out.push_back(s);
  }
  return out;
}

/// upsample_{nearest,bilinear}2d.vec: (N, C, output sizes) in the input's suggested layout,
/// except on CUDA with few channels (fewer than `minChannels`), where the decompositions keep
/// it contiguous.
Expected<NodeValue> upsample2d(const BoundArgs &b, int64_t minChannels) {
  FXKIT_ASSIGN_OR_RETURN(auto input, b.tensor("input"));
  if (input.sizes.size() != 4)
    return b.error("It is expected input_size equals to 4, but got size " +
                   std::to_string(input.sizes.size()));
  FXKIT_ASSIGN_OR_RETURN(auto size, upsampleOutputSize(b, input));
  auto positive = [](const SymExpr &s) { return !s.isConstant() || s.constant() > 0; };
  if (!positive(input.sizes[2]) || !positive(input.sizes[3]) || !positive(size[0]) ||
      !positive(size[1]))
    return b.error("Input and output sizes should be greater than 0, but got input (H: " +
                   input.sizes[2].str() + ", W: " + input.sizes[3].str() +
                   ") output (H: " + size[0].str() + ", W: " + size[1].str() + ")");
  Sizes sizes{input.sizes[0], input.sizes[1], size[0], size[1]};
  bool channelsLast = suggestsChannelsLast(input) &&
                      !(input.device.type == "cuda" && symHint(input.sizes[1]) < minChannels);
  return one(make(input.dtype, sizes, layoutStrides(sizes, channelsLast), input.device));
}

Expected<NodeValue> upsampleNearest2d(const BoundArgs &b) { return upsample2d(b, 4); }

/// Bilinear interpolation is defined for floating-point inputs (PyTorch's kernels dispatch
/// over floating types only).
Expected<NodeValue> upsampleBilinear2d(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto input, b.tensor("input"));
  if (!dtypeIsFloating(input.dtype))
    return b.error("\"upsample_bilinear2d\" not implemented for '" +
                   std::string(dtypeName(input.dtype)) + "'");
  return upsample2d(b, 16);
}

/// upsample_bicubic2d: floating inputs (its kernels dispatch over floating types), the input's
/// suggested layout on every device (its meta).
Expected<NodeValue> upsampleBicubic2d(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto input, b.tensor("input"));
  if (!dtypeIsFloating(input.dtype))
    return b.error("\"upsample_bicubic2d_out_frame\" not implemented for '" +
                   std::string(dtypeScalarTypeName(input.dtype)) + "'");
  return upsample2d(b, 0);
}

// ---- Grid sampling, col2im ----

Expected<NodeValue> gridSampler2d(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto input, b.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto grid, b.tensor("grid"));
  if (input.device != grid.device)
    return b.error("grid_sampler(): expected input and grid to be on same device, but input is "
                   "on " +
                   input.device.str() + " and grid is on " + grid.device.str());
  if (input.dtype != grid.dtype)
    return b.error("grid_sampler(): expected input and grid to have same dtype, but input has " +
                   std::string(dtypeName(input.dtype)) + " and grid has " +
                   std::string(dtypeName(grid.dtype)));
  if (input.sizes.size() != 4 || grid.sizes.size() != 4)
    return b.error("grid_sampler(): expected 4D input and grid with same number of dimensions, "
                   "but got input with sizes " +
                   sizesText(input.sizes) + " and grid with sizes " + sizesText(grid.sizes));
  if (differs(input.sizes[0], grid.sizes[0]))
    return b.error("grid_sampler(): expected grid and input to have same batch size, but got "
                   "input with sizes " +
                   sizesText(input.sizes) + " and grid with sizes " + sizesText(grid.sizes));
  if (differs(grid.sizes[3], SymExpr(2)))
    return b.error("grid_sampler(): expected grid to have size 2 in last dimension, but got grid "
                   "with sizes " +
                   sizesText(grid.sizes));
  for (size_t i = 2; i < 4; ++i)
    if (isZero(input.sizes[i]))
      return b.error("grid_sampler(): expected input to have non-empty spatial dimensions, but "
                     "input has sizes " +
                     sizesText(input.sizes) + " with dimension " + std::to_string(i) +
                     " being empty");
  FXKIT_ASSIGN_OR_RETURN(auto mode, b.integer("interpolation_mode"));
  FXKIT_ASSIGN_OR_RETURN(auto padding, b.integer("padding_mode"));
  if (mode < 0 || mode > 2 || padding < 0 || padding > 2)
    return b.error("grid_sampler(): interpolation_mode must be 0 (bilinear), 1 (nearest) or 2 "
                   "(bicubic) and padding_mode 0 (zeros), 1 (border) or 2 (reflection), got " +
                   std::to_string(mode) + " and " + std::to_string(padding));
  return one(contiguous(input.dtype, {input.sizes[0], input.sizes[1], grid.sizes[1], grid.sizes[2]},
                        input.device));
}

/// col2im's window: kernel_size, dilation, padding and stride, two entries each.
struct Col2imWindow {
  std::vector<int64_t> kernel, dilation, padding, stride;
  std::string str() const {
    return "kernel_size=" + intsStr(kernel) + ", dilation=" + intsStr(dilation) +
           ", padding=" + intsStr(padding) + ", stride=" + intsStr(stride);
  }
};

/// col2im's argument checks: 2-d lists, positive kernel, dilation, stride and output size,
/// non-negative padding.
Expected<Col2imWindow> readCol2imWindow(const BoundArgs &b, const Sizes &outputSize) {
  FXKIT_ASSIGN_OR_RETURN(auto kernel, b.intList("kernel_size"));
  FXKIT_ASSIGN_OR_RETURN(auto dilation, b.intList("dilation"));
  FXKIT_ASSIGN_OR_RETURN(auto padding, b.intList("padding"));
  FXKIT_ASSIGN_OR_RETURN(auto stride, b.intList("stride"));
  Col2imWindow w{*kernel, *dilation, *padding, *stride};
  if (outputSize.size() != 2)
    return b.error("only 2D output_size supported");
  std::pair<const std::vector<int64_t> *, std::string_view> lists[] = {{&w.kernel, "kernel_size"},
                                                                       {&w.dilation, "dilation"},
                                                                       {&w.padding, "padding"},
                                                                       {&w.stride, "stride"}};
  for (const auto &[list, name] : lists) {
    if (list->size() != 2)
      return b.error("only 2D " + std::string(name == "kernel_size" ? "kernel" : name) +
                     " supported");
    bool padding = name == "padding";
    if ((*list)[0] < (padding ? 0 : 1) || (*list)[1] < (padding ? 0 : 1))
      return b.error(std::string(name) + " should be greater than " +
                     (padding ? "or equal to zero" : "zero") + ", but got " + intsStr(*list));
  }
  for (const SymExpr &s : outputSize)
    if (s.isConstant() && s.constant() <= 0)
      return b.error("output_size should be greater than zero, but got " + sizesText(outputSize));
  return w;
}

/// col2im's meta: sums sliding blocks (C * kh * kw, L) back into (C, H, W) images; L must be
/// the number of blocks that fit the padded output.
Expected<NodeValue> col2im(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto outputSize, b.symIntList("output_size"));
  FXKIT_ASSIGN_OR_RETURN(auto w, readCol2imWindow(b, outputSize));
  const Sizes &shape = self.sizes;
  size_t ndim = shape.size();
  if ((ndim != 2 && ndim != 3) || isZero(shape[ndim - 2]) || isZero(shape[ndim - 1]))
    return b.error("Expected 2D or 3D (batch mode) tensor for input with possible 0 batch size "
                   "and non-zero dimensions, but got: " +
                   sizesText(shape));
  int64_t prodKernel = w.kernel[0] * w.kernel[1];
  const SymExpr &columns = shape[ndim - 2];
  if (columns.isConstant() && columns.constant() % prodKernel != 0)
    return b.error("Expected size of input's first non-batch dimension to be divisible by the "
                   "product of kernel_size, but got input.shape[-2] = " +
                   columns.str() + " and kernel_size=" + intsStr(w.kernel));
  Sizes blocks;
  for (size_t i = 0; i < 2; ++i) {
    int64_t span = w.dilation[i] * (w.kernel[i] - 1) + 1;
    blocks.push_back(symAdd(
        symFloorDiv(symAdd(outputSize[i], SymExpr(2 * w.padding[i] - span)), SymExpr(w.stride[i])),
        SymExpr(1)));
  }
  SymExpr count = symMul(blocks[0], blocks[1]);
  std::string given = "Given output_size=" + sizesText(outputSize) + ", " + w.str();
  if (differs(shape[ndim - 1], count))
    return b.error(given + ", expected input.size(-1) to be " + count.str() + " but got " +
                   shape[ndim - 1].str() + ".");
  if (count.isConstant() && count.constant() < 1)
    return b.error(given + ", calculated shape of the array of sliding blocks as " +
                   sizesText(blocks) + ", but its components must be at least one.");
  Sizes out;
  if (ndim == 3)
    out.push_back(shape[0]);
  out.push_back(symFloorDiv(columns, SymExpr(prodKernel)));
  out.insert(out.end(), outputSize.begin(), outputSize.end());
  return one(contiguous(self.dtype, std::move(out), self.device));
}

// ---- RoI align (torchvision) ----

/// torchvision::roi_align: (K, C, pooled_height, pooled_width) for K boxes (rows of rois: batch
/// index, x1, y1, x2, y2) over input (N, C, H, W) of rois' dtype, contiguous.
Expected<NodeValue> roiAlign(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto input, b.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto rois, b.tensor("rois"));
  FXKIT_ASSIGN_OR_RETURN(auto ph, b.symInt("pooled_height"));
  FXKIT_ASSIGN_OR_RETURN(auto pw, b.symInt("pooled_width"));
  if (rois.sizes.size() != 2 || differs(rois.sizes[1], SymExpr(5)))
    return b.error("rois must have shape as Tensor[K, 5]");
  if (input.dtype != rois.dtype)
    return b.error("input should have the same type as rois");
  if (input.sizes.size() != 4)
    return b.error("roi_align expects a 4-D input (N, C, H, W), but got input of size " +
                   sizesText(input.sizes));
  if (!dtypeIsFloating(input.dtype) || input.dtype == DType::BFloat16 ||
      input.dtype == DType::Complex64 || input.dtype == DType::Complex128)
    return b.error("\"roi_align_forward_kernel\" not implemented for '" +
                   std::string(dtypeScalarTypeName(input.dtype)) + "'");
  return one(contiguous(input.dtype, {rois.sizes[0], input.sizes[1], ph, pw}, input.device));
}

// ---- Distances ----

Expected<NodeValue> cdistForward(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto x1, b.tensor("x1"));
  FXKIT_ASSIGN_OR_RETURN(auto x2, b.tensor("x2"));
  FXKIT_ASSIGN_OR_RETURN(auto p, b.floating("p"));
  FXKIT_ASSIGN_OR_RETURN(auto mode, b.optionalInteger("compute_mode"));
  if (x1.sizes.size() < 2)
    return b.error("cdist only supports at least 2D tensors, X1 got: " +
                   std::to_string(x1.sizes.size()) + "D");
  if (x2.sizes.size() < 2)
    return b.error("cdist only supports at least 2D tensors, X2 got: " +
                   std::to_string(x2.sizes.size()) + "D");
  if (differs(x1.sizes.back(), x2.sizes.back()))
    return b.error("X1 and X2 must have the same number of columns. X1: " + x1.sizes.back().str() +
                   " X2: " + x2.sizes.back().str());
  for (const auto &[t, name] : {std::pair{&x1, "X1"}, std::pair{&x2, "X2"}})
    if (!dtypeIsFloating(t->dtype))
      return b.error(std::string("cdist only supports floating-point dtypes, ") + name +
                     " got: " + std::string(dtypeName(t->dtype)));
  if (!(p >= 0))
    return b.error("cdist only supports non-negative p values");
  if (mode && *mode != 1 && *mode != 2)
    return b.error("possible modes: None, 1, 2, but was: " + std::to_string(*mode));
  auto batch = broadcastShapes(
      {Sizes(x1.sizes.begin(), x1.sizes.end() - 2), Sizes(x2.sizes.begin(), x2.sizes.end() - 2)});
  if (!batch)
    return b.error(batch.error().message);
  Sizes sizes = batch.take();
  sizes.push_back(x1.sizes[x1.sizes.size() - 2]);
  sizes.push_back(x2.sizes[x2.sizes.size() - 2]);
  return one(contiguous(x1.dtype, std::move(sizes), x1.device));
}

/// _pdist_forward: the n (n - 1) / 2 distances between the rows of a contiguous 2-d input.
Expected<NodeValue> pdistForward(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto p, b.floating("p"));
  if (self.sizes.size() != 2)
    return b.error("pdist only supports 2D tensors, got: " + std::to_string(self.sizes.size()) +
                   "D");
  if (!dtypeIsFloating(self.dtype))
    return b.error("pdist only supports floating-point dtypes");
  if (!isContiguous(self.sizes, self.strides))
    return b.error("_pdist_forward requires contiguous input");
  if (!(p >= 0))
    return b.error("_pdist_forward only supports non-negative p values");
  const SymExpr &n = self.sizes[0];
  SymExpr count = n.isConstant() && n.constant() <= 1
                      ? SymExpr(0)
                      : symFloorDiv(symMul(n, symSub(n, SymExpr(1))), SymExpr(2));
  return one(contiguous(self.dtype, {count}, self.device));
}

// ---- Embedding bag ----

/// _embedding_bag's dtype and rank checks: int64/int32 indices and offsets, a floating 2-d
/// weight, 1-d indices and offsets, mode 0 (sum), 1 (mean) or 2 (max).
Status checkEmbeddingBagArgs(const BoundArgs &b, const TensorType &weight,
                             const TensorType &indices, const TensorType &offsets, int64_t mode) {
  auto isIndex = [](DType d) { return d == DType::Int64 || d == DType::Int32; };
  if (!isIndex(indices.dtype))
    return b.error("expected indices to be long or int, got " +
                   std::string(dtypeName(indices.dtype)));
  if (!isIndex(offsets.dtype))
    return b.error("expected offsets to be long or int, got " +
                   std::string(dtypeName(offsets.dtype)));
  if (!dtypeIsFloating(weight.dtype))
    return b.error("expected weight to be floating point type, got " +
                   std::string(dtypeName(weight.dtype)));
  if (weight.sizes.size() != 2 || indices.sizes.size() != 1 || offsets.sizes.size() != 1)
    return b.error("embedding_bag expects a 2-d weight and 1-d indices and offsets, got " +
                   sizesText(weight.sizes) + ", " + sizesText(indices.sizes) + " and " +
                   sizesText(offsets.sizes));
  if (mode < 0 || mode > 2)
    return b.error("embedding_bag: mode must be 0 (sum), 1 (mean) or 2 (max), got " +
                   std::to_string(mode));
  return Status::ok();
}

/// per_sample_weights: sum mode only, one weight of the weight's dtype per index.
Status checkPerSampleWeights(const BoundArgs &b, const TensorType &psw, const TensorType &weight,
                             const TensorType &indices, int64_t mode) {
  if (mode != 0)
    return b.error("embedding_bag: per_sample_weights only supported with mode='sum'");
  if (psw.dtype != weight.dtype)
    return b.error("expected weight (" + std::string(dtypeName(weight.dtype)) +
                   ") and per_sample_weights (" + std::string(dtypeName(psw.dtype)) +
                   ") to have same dtype");
  if (psw.sizes.size() != 1)
    return b.error("expected per_sample_weights to be 1D tensor, got " +
                   std::to_string(psw.sizes.size()) + "D");
  if (differs(psw.sizes[0], indices.sizes[0]))
    return b.error("expected per_sample_weights.numel() (" + psw.sizes[0].str() +
                   " to be the same as indices.numel() (" + indices.sizes[0].str() + ")");
  return Status::ok();
}

/// _embedding_bag's meta: (output, offset2bag, bag_size, max_indices). The auxiliary results'
/// sizes follow the CPU kernel's fast path (a float or half weight with unit column stride,
/// no padding_idx and, with per-sample weights, unit stride) and modes, or the CUDA kernel's.
Expected<NodeValue> embeddingBag(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto weight, b.tensor("weight"));
  FXKIT_ASSIGN_OR_RETURN(auto indices, b.tensor("indices"));
  FXKIT_ASSIGN_OR_RETURN(auto offsets, b.tensor("offsets"));
  FXKIT_ASSIGN_OR_RETURN(auto mode, b.integer("mode"));
  FXKIT_ASSIGN_OR_RETURN(auto psw, b.optionalTensor("per_sample_weights"));
  FXKIT_ASSIGN_OR_RETURN(auto includeLast, b.boolean("include_last_offset"));
  FXKIT_ASSIGN_OR_RETURN(auto paddingIdx, b.integer("padding_idx"));
  FXKIT_TRY(checkEmbeddingBagArgs(b, weight, indices, offsets, mode));
  if (psw)
    FXKIT_TRY(checkPerSampleWeights(b, *psw, weight, indices, mode));
  SymExpr numBags = offsets.sizes[0];
  if (includeLast) {
    if (isZero(numBags))
      return b.error("include_last_offset: numBags should be at least 1");
    numBags = symSub(numBags, SymExpr(1));
  }
  TensorType output = contiguous(weight.dtype, {numBags, weight.sizes[1]}, weight.device);
  Device device = offsets.device;
  if (device.type != "cpu") {
    TensorType maxIndices = mode == 2
                                ? contiguous(indices.dtype, {numBags, weight.sizes[1]}, device)
                                : contiguous(indices.dtype, {SymExpr(0)}, device);
    return many({output, contiguous(indices.dtype, {indices.sizes[0]}, device),
                 contiguous(indices.dtype, offsets.sizes, device), maxIndices});
  }
  bool fastPath = (weight.dtype == DType::Float32 || weight.dtype == DType::Float16) &&
                  symIs(weight.strides[1], 1) && paddingIdx < 0 &&
                  (!psw || symIs(psw->strides[0], 1));
  SymExpr offset2bag = mode != 0 || !fastPath ? indices.sizes[0] : SymExpr(0);
  TensorType maxIndices = mode == 2 ? contiguous(offsets.dtype, {numBags, weight.sizes[1]}, device)
                                    : contiguous(offsets.dtype, {numBags}, device);
  return many({output, contiguous(offsets.dtype, {offset2bag}, device),
               contiguous(offsets.dtype, {numBags}, device), maxIndices});
}

using C = OpCategory;

// clang-format off
/// Schemas as PyTorch 2.11 declares them (native_functions.yaml; torch/_inductor/inductor_prims.py).
const OpRow kRows[] = {
  {"torch.ops.prims._low_memory_max_pool_with_offsets.default", "_low_memory_max_pool_with_offsets(Tensor self, SymInt[] kernel_size, SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool ceil_mode) -> (Tensor, Tensor)", C::Other, lowMemoryMaxPoolWithOffsets},
  {"torch.ops.prims._low_memory_max_pool_offsets_to_indices.default", "_low_memory_max_pool_offsets_to_indices(Tensor self, SymInt[] kernel_size, SymInt[] input_size, SymInt[] stride, SymInt[] padding, SymInt[] dilation) -> Tensor", C::Other, lowMemoryOffsetsToIndices},
  {"torch.ops.aten.max_pool2d_with_indices.default", "max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)", C::Other, maxPoolWithIndices<2>},
  {"torch.ops.aten.max_pool2d_with_indices_backward.default", "max_pool2d_with_indices_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, int[2] padding, int[2] dilation, bool ceil_mode, Tensor indices) -> Tensor", C::Other, maxPool2dBackward},
  {"torch.ops.aten.max_pool3d_with_indices.default", "max_pool3d_with_indices(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, int[3] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)", C::Other, maxPoolWithIndices<3>},
  {"torch.ops.aten.avg_pool1d.default", "avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0], bool ceil_mode=False, bool count_include_pad=True) -> Tensor", C::Other, avgPool1d},
  {"torch.ops.aten.avg_pool2d.default", "avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor", C::Other, avgPool<2>},
  {"torch.ops.aten.avg_pool2d_backward.default", "avg_pool2d_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, int[2] padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor", C::Other, avgPool2dBackward},
  {"torch.ops.aten.avg_pool3d.default", "avg_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor", C::Other, avgPool<3>},
  {"torch.ops.aten.adaptive_avg_pool1d.default", "adaptive_avg_pool1d(Tensor self, int[1] output_size) -> Tensor", C::Other, adaptiveAvgPool1d},
  {"torch.ops.aten._adaptive_avg_pool2d.default", "_adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor", C::Other, adaptiveAvgPool<2>},
  {"torch.ops.aten._adaptive_avg_pool2d_backward.default", "_adaptive_avg_pool2d_backward(Tensor grad_output, Tensor self) -> Tensor", C::Other, adaptiveAvgPool2dBackward},
  {"torch.ops.aten.adaptive_max_pool2d.default", "adaptive_max_pool2d(Tensor self, int[2] output_size) -> (Tensor, Tensor)", C::Other, adaptiveMaxPool<2>},
  {"torch.ops.aten.adaptive_max_pool3d.default", "adaptive_max_pool3d(Tensor self, int[3] output_size) -> (Tensor, Tensor)", C::Other, adaptiveMaxPool<3>},
  {"torch.ops.aten._adaptive_avg_pool3d.default", "_adaptive_avg_pool3d(Tensor self, SymInt[3] output_size) -> Tensor", C::Other, adaptiveAvgPool<3>},
  {"torch.ops.aten.convolution_backward.default", "convolution_backward(Tensor grad_output, Tensor input, Tensor weight, SymInt[]? bias_sizes, SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups, bool[3] output_mask) -> (Tensor, Tensor, Tensor)", C::Extern, convolutionBackward},
  {"torch.ops.aten.upsample_nearest2d.vec", "upsample_nearest2d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor", C::Other, upsampleNearest2d},
  {"torch.ops.aten.upsample_bicubic2d.vec", "upsample_bicubic2d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor", C::Other, upsampleBicubic2d},
  {"torch.ops.aten._upsample_nearest_exact2d.vec", "_upsample_nearest_exact2d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor", C::Other, upsampleNearest2d},
  {"torch.ops.aten.upsample_bilinear2d.vec", "upsample_bilinear2d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor", C::Other, upsampleBilinear2d},
  {"torch.ops.aten.grid_sampler_2d.default", "grid_sampler_2d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) -> Tensor", C::Other, gridSampler2d},
  {"torch.ops.torchvision.roi_align.default", "roi_align(Tensor input, Tensor rois, float spatial_scale, SymInt pooled_height, SymInt pooled_width, int sampling_ratio, bool aligned) -> Tensor", C::Extern, roiAlign},
  {"torch.ops.aten.col2im.default", "col2im(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor", C::Extern, col2im},
  {"torch.ops.aten._cdist_forward.default", "_cdist_forward(Tensor x1, Tensor x2, float p, int? compute_mode) -> Tensor", C::Reduction, cdistForward},
  {"torch.ops.aten._pdist_forward.default", "_pdist_forward(Tensor self, float p=2.) -> Tensor", C::Reduction, pdistForward},
  {"torch.ops.aten._embedding_bag.default", "_embedding_bag(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False, int padding_idx=-1) -> (Tensor, Tensor, Tensor, Tensor)", C::Extern, embeddingBag},
};
// clang-format on

} // namespace

std::span<const OpRow> nnOpRows() { return kRows; }

} // namespace fxkit
