/// \file Reduction op family: rows and inference (see ir/ops/OpFamilies.h).
///
/// Inference reproduces what FakeTensor records in PyTorch 2.11, which is not always what eager
/// returns: where PyTorch registers a Python meta function or decomposition (torch/_refs,
/// torch/_decomp/decompositions.py, torch/_meta_registrations.py) FakeTensor runs it, so e.g.
/// _log_softmax_backward_data keeps its inputs' layout (eager: contiguous), native_dropout in eval
/// mode returns its input's strides (eager clones), and the normalisations keep mean/rstd in the
/// input dtype on CPU (eager: float32 for half inputs of batch norm). The kernels
/// (backends/interp/ReductionFamilyKernels.cpp) refuse what eager refuses (argmax of bool,
/// softmax of integers) where the meta function lets it through.

#include "ir/Try.h"
#include "ir/ops/InferSupport.h"
#include "ir/ops/OpFamilies.h"

#include <algorithm>
#include <array>

namespace fxkit {

namespace {

using C = OpCategory;

Expected<int64_t> wrapDim(const BoundArgs &b, int64_t dim, size_t rank) {
  auto d = normalizeDim(dim, rank);
  if (!d)
    return b.error(d.error().message);
  return *d;
}

/// Sizes are only 0 as constants (a symbol is never 0).
bool hasZeroSize(const Sizes &sizes) {
  return std::any_of(sizes.begin(), sizes.end(), [](const SymExpr &s) { return symIs(s, 0); });
}

std::string name(DType dtype) { return std::string(dtypeName(dtype)); }

/// torch._prims_common.get_computation_dtype: half types compute in float32.
DType opmathDType(DType dtype) {
  return dtype == DType::Float16 || dtype == DType::BFloat16 ? DType::Float32 : dtype;
}

/// `dtype=` if given, else int64 for integers and bools, else the input's (sum, prod, cumsum,
/// cumprod).
Expected<DType> accumulateDType(const BoundArgs &b, DType input) {
  FXKIT_ASSIGN_OR_RETURN(auto requested, b.dtype("dtype"));
  if (requested)
    return *requested;
  return dtypeIsFloating(input) ? input : DType::Int64;
}

/// Errors unless the constant size of `dim` is non-zero (at::native::zero_numel_check_dims):
/// reductions without identity (max, argmax) have no value over zero elements.
Status requireNonEmptyDim(const BoundArgs &b, const Sizes &sizes, int64_t dim) {
  if (sizes.empty() || !symIs(sizes[dim], 0))
    return Status::ok();
  return b.error(b.op().schema.name + "(): Expected reduction dim " + std::to_string(dim) +
                 " to have non-zero size.");
}

/// any/all (.dim, .dims, .default): bool results (a uint8 input keeps uint8, a legacy mask
/// type). `.dims` with an explicit empty list reduces nothing (torch._refs.any: a bool copy);
/// None reduces every dim.
Expected<NodeValue> anyAll(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  DType dtype = self.dtype == DType::UInt8 ? DType::UInt8 : DType::Bool;
  const std::string &overload = b.op().schema.overload;
  std::optional<std::vector<int64_t>> dims;
  bool keepdim = false;
  if (overload == "dim") {
    FXKIT_ASSIGN_OR_RETURN(auto d, b.integer("dim"));
    dims = std::vector<int64_t>{d};
  } else if (overload == "dims") {
    FXKIT_ASSIGN_OR_RETURN(auto d, b.intList("dim"));
    if (d && d->empty())
      return one(make(dtype, self.sizes, preserveFormatStrides(self), self.device));
    dims = std::move(d);
  }
  if (!overload.empty()) {
    FXKIT_ASSIGN_OR_RETURN(auto k, b.boolean("keepdim"));
    keepdim = k;
  }
  FXKIT_ASSIGN_OR_RETURN(auto shape, reducedShape(b, self.sizes, dims, keepdim));
  return one(contiguous(dtype, std::move(shape), self.device));
}

/// argmax/argmin: int64 indices; dim=None flattens (keepdim then keeps every dim as 1).
Expected<NodeValue> argExtremum(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, b.optionalInteger("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto keepdim, b.boolean("keepdim"));
  std::optional<std::vector<int64_t>> dims;
  if (dim) {
    FXKIT_ASSIGN_OR_RETURN(auto d, wrapDim(b, *dim, self.sizes.size()));
    FXKIT_TRY(requireNonEmptyDim(b, self.sizes, d));
    dims = std::vector<int64_t>{*dim};
  } else if (hasZeroSize(self.sizes)) {
    return b.error(b.op().schema.name +
                   "(): Expected reduction dim to be specified for input.numel() == 0.");
  }
  FXKIT_ASSIGN_OR_RETURN(auto shape, reducedShape(b, self.sizes, dims, keepdim));
  return one(contiguous(DType::Int64, std::move(shape), self.device));
}

/// cumsum/cumprod: the input's shape, contiguous, in the accumulation dtype.
Expected<NodeValue> cumulative(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, b.integer("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto d, wrapDim(b, dim, self.sizes.size()));
  (void)d;
  FXKIT_ASSIGN_OR_RETURN(auto dtype, accumulateDType(b, self.dtype));
  return one(contiguous(dtype, self.sizes, self.device));
}

/// sort.default/sort.stable: meta_sort allocates both results with empty_like (the input's
/// layout where it is dense).
Expected<NodeValue> sort(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, b.integer("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto d, wrapDim(b, dim, self.sizes.size()));
  (void)d;
  Sizes strides = preserveFormatStrides(self);
  return many({make(self.dtype, self.sizes, strides, self.device),
               make(DType::Int64, self.sizes, strides, self.device)});
}

/// max.dim/min.dim: (values, int64 indices), contiguous.
Expected<NodeValue> extremumDim(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, b.integer("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto keepdim, b.boolean("keepdim"));
  FXKIT_ASSIGN_OR_RETURN(auto d, wrapDim(b, dim, self.sizes.size()));
  FXKIT_TRY(requireNonEmptyDim(b, self.sizes, d));
  FXKIT_ASSIGN_OR_RETURN(auto shape,
                         reducedShape(b, self.sizes, std::vector<int64_t>{dim}, keepdim));
  return many(
      {contiguous(self.dtype, shape, self.device), contiguous(DType::Int64, shape, self.device)});
}

/// prod.default (everything) and prod.dim_int (one dim).
Expected<NodeValue> prod(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  std::optional<std::vector<int64_t>> dims;
  bool keepdim = false;
  if (b.op().schema.overload == "dim_int") {
    FXKIT_ASSIGN_OR_RETURN(auto dim, b.integer("dim"));
    FXKIT_ASSIGN_OR_RETURN(auto k, b.boolean("keepdim"));
    dims = std::vector<int64_t>{dim};
    keepdim = k;
  }
  FXKIT_ASSIGN_OR_RETURN(auto dtype, accumulateDType(b, self.dtype));
  FXKIT_ASSIGN_OR_RETURN(auto shape, reducedShape(b, self.sizes, dims, keepdim));
  return one(contiguous(dtype, std::move(shape), self.device));
}

/// prims.xor_sum(inp, dims, output_dtype): the XOR of the elements over dims (dropped; None
/// reduces everything), in output_dtype or inp's (_reduction_meta); integers and bools only.
Expected<NodeValue> xorSum(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto inp, b.tensor("inp"));
  FXKIT_ASSIGN_OR_RETURN(auto dims, b.intList("dims"));
  FXKIT_ASSIGN_OR_RETURN(auto out, b.dtype("output_dtype"));
  DType dtype = out ? *out : inp.dtype;
  if (dtypeIsFloating(inp.dtype) || dtypeIsFloating(dtype))
    return b.error("xor_sum takes integral or bool tensors, not " +
                   std::string(dtypeName(dtypeIsFloating(inp.dtype) ? inp.dtype : dtype)));
  FXKIT_ASSIGN_OR_RETURN(auto shape, reducedShape(b, inp.sizes, dims, false));
  return one(contiguous(dtype, std::move(shape), inp.device));
}

/// var.correction/var.dim: floating inputs only (eager's check; the Python meta would give an
/// integer result); None or [] reduces every dim.
Expected<NodeValue> var(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dims, b.intList("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto keepdim, b.boolean("keepdim"));
  if (!dtypeIsFloating(self.dtype))
    return b.error("std and var only support floating point and complex dtypes (got " +
                   name(self.dtype) + ")");
  FXKIT_ASSIGN_OR_RETURN(auto shape, reducedShape(b, self.sizes, dims, keepdim));
  return one(contiguous(self.dtype, std::move(shape), self.device));
}

/// logsumexp: integers and bools promote to float32. An empty dim list fails in eager for a
/// tensor of one or more dims (the Python meta gives a [1, 1]-like shape nobody can run), so it
/// is refused there; a 0-d tensor reduces its one element.
Expected<NodeValue> logsumexp(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dims, b.intList("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto keepdim, b.boolean("keepdim"));
  if ((!dims || dims->empty()) && !self.sizes.empty())
    return b.error("logsumexp(): an empty dim list is not supported (eager PyTorch fails: "
                   "output with shape [] doesn't match the broadcast shape)");
  FXKIT_ASSIGN_OR_RETURN(auto shape, reducedShape(b, self.sizes, dims, keepdim));
  DType dtype = dtypeIsFloating(self.dtype) ? self.dtype : DType::Float32;
  return one(contiguous(dtype, std::move(shape), self.device));
}

/// _softmax/_log_softmax: contiguous; half_to_float gives float32 and is only defined for
/// half inputs (_softmax's meta also takes bfloat16).
Expected<NodeValue> softmax(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, b.integer("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto halfToFloat, b.boolean("half_to_float"));
  FXKIT_ASSIGN_OR_RETURN(auto d, wrapDim(b, dim, self.sizes.size()));
  (void)d;
  bool softmax = b.op().schema.name == "_softmax";
  if (halfToFloat && self.dtype != DType::Float16 && !(softmax && self.dtype == DType::BFloat16))
    return b.error("half_to_float is True but x.dtype is " + name(self.dtype) + ", expected " +
                   (softmax ? "half or bfloat16" : "half"));
  return one(contiguous(halfToFloat ? DType::Float32 : self.dtype, self.sizes, self.device));
}

/// _softmax_backward_data/_log_softmax_backward_data: the result has input_dtype (the
/// decomposition casts the gradient to it). The softmax one ends in .contiguous(); the
/// log_softmax one keeps the layout of its pointwise computation over grad_output and output.
Expected<NodeValue> softmaxBackward(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto grad, b.tensor("grad_output"));
  FXKIT_ASSIGN_OR_RETURN(auto output, b.tensor("output"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, b.integer("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto inputDType, b.dtype("input_dtype"));
  if (!inputDType)
    return b.error("input_dtype must not be None");
  if (!sameSizes(grad.sizes, output.sizes))
    return b.error("Expected tensor for argument #1 'grad' to have same size as tensor for "
                   "argument #2 'output'; but " +
                   sizesText(grad.sizes) + " does not equal " + sizesText(output.sizes));
  FXKIT_ASSIGN_OR_RETURN(auto d, wrapDim(b, dim, grad.sizes.size()));
  (void)d;
  if (b.op().schema.name == "_softmax_backward_data")
    return one(contiguous(*inputDType, grad.sizes, grad.device));
  Sizes strides = elementwiseStrides(grad.sizes, {&grad, &output});
  return one(make(*inputDType, grad.sizes, std::move(strides), grad.device));
}

/// The `bool[3] output_mask` of the normalisation backward ops.
Expected<std::array<bool, 3>> outputMask(const BoundArgs &b) {
  const Argument &a = b.get("output_mask");
  bool list = a.kind() == Argument::Kind::List || a.kind() == Argument::Kind::Tuple;
  if (!list || a.items().size() != 3)
    return b.error("output_mask must be a list of 3 bools");
  std::array<bool, 3> mask{};
  for (size_t i = 0; i < 3; ++i) {
    if (a.items()[i].kind() != Argument::Kind::Bool)
      return b.error("output_mask must be a list of 3 bools");
    mask[i] = a.items()[i].asBool();
  }
  return mask;
}

/// Normalisations need floating inputs (their decompositions take a mean).
Status requireFloatingInput(const BoundArgs &b, const TensorType &input) {
  if (dtypeIsFloating(input.dtype))
    return Status::ok();
  return b.error("mean(): could not infer output dtype. Input dtype must be either a floating "
                 "point or complex dtype. Got: " +
                 name(input.dtype));
}

/// torch._refs.native_layer_norm's checks.
Status checkLayerNormArgs(const BoundArgs &b, const TensorType &input, const Sizes &normalized,
                          const std::optional<TensorType> &weight,
                          const std::optional<TensorType> &bias) {
  if (normalized.empty())
    return b.error("Expected normalized_shape to be at least 1-dimensional, i.e., containing at "
                   "least one element, but got normalized_shape = []");
  for (const auto &[what, t] : {std::pair{"weight", &weight}, std::pair{"bias", &bias}})
    if (*t && !sameSizes((*t)->sizes, normalized))
      return b.error(std::string("Expected ") + what +
                     " to be of same shape as normalized_shape, but got " + what + " of shape " +
                     sizesText((*t)->sizes) + " and normalized_shape = " + sizesText(normalized));
  size_t k = normalized.size(), rank = input.sizes.size();
  if (rank < k || !sameSizes(Sizes(input.sizes.end() - k, input.sizes.end()), normalized))
    return b.error("Given normalized_shape=" + sizesText(normalized) +
                   ", expected input with shape [*, " +
                   sizesText(normalized).substr(1, std::string::npos) + ", but got input of size" +
                   sizesText(input.sizes));
  return requireFloatingInput(b, input);
}

/// native_layer_norm: (out, mean, rstd); mean and rstd keep the normalised dims as 1 and have
/// the input dtype on CPU, the computation dtype elsewhere (torch._refs.native_layer_norm).
Expected<NodeValue> layerNorm(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto input, b.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto normalized, b.symIntList("normalized_shape"));
  FXKIT_ASSIGN_OR_RETURN(auto weight, b.optionalTensor("weight"));
  FXKIT_ASSIGN_OR_RETURN(auto bias, b.optionalTensor("bias"));
  FXKIT_TRY(checkLayerNormArgs(b, input, normalized, weight, bias));
  size_t axis = input.sizes.size() - normalized.size();
  Sizes statShape(input.sizes.begin(), input.sizes.begin() + axis);
  statShape.resize(input.sizes.size(), SymExpr(1));
  bool cpuLike = input.device.type == "cpu" || input.device.type == "mtia";
  TensorType stat =
      contiguous(cpuLike ? input.dtype : opmathDType(input.dtype), statShape, input.device);
  return many({contiguous(input.dtype, input.sizes, input.device), stat, stat});
}

/// A tensor as the decomposition sees it after `.to(computation dtype, contiguous_format)`:
/// unchanged when no conversion happens.
TensorType asComputed(const TensorType &t, DType dtype) {
  return t.dtype == dtype ? t : contiguous(dtype, t.sizes, t.device);
}

/// native_layer_norm_backward: (grad_input, grad_weight, grad_bias), None where output_mask is
/// false or the weight/bias is None. Dtypes of input, weight and bias; grad_input keeps the
/// layout of the pointwise computation over grad_out and input (torch._decomp).
Expected<NodeValue> layerNormBackward(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto grad, b.tensor("grad_out"));
  FXKIT_ASSIGN_OR_RETURN(auto input, b.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto normalized, b.symIntList("normalized_shape"));
  FXKIT_ASSIGN_OR_RETURN(auto weight, b.optionalTensor("weight"));
  FXKIT_ASSIGN_OR_RETURN(auto bias, b.optionalTensor("bias"));
  FXKIT_ASSIGN_OR_RETURN(auto mask, outputMask(b));
  FXKIT_TRY(checkLayerNormArgs(b, input, normalized, weight, bias));
  if (!sameSizes(grad.sizes, input.sizes))
    return b.error("grad_out of size " + sizesText(grad.sizes) + " does not match input of size " +
                   sizesText(input.sizes));
  size_t axis = input.sizes.size() - normalized.size();
  Sizes inner(input.sizes.begin() + axis, input.sizes.end());
  // Zero elements to normalise or zero rows: new_zeros results, including weight/bias grads.
  bool empty = hasZeroSize(input.sizes);
  DType comp = opmathDType(input.dtype);
  TensorType g = asComputed(grad, comp), x = asComputed(input, comp);
  Sizes strides = empty ? TensorType::contiguousStrides(input.sizes)
                        : elementwiseStrides(input.sizes, {&g, &x});
  std::vector<std::optional<TensorType>> out(3);
  if (mask[0])
    out[0] = make(input.dtype, input.sizes, strides, input.device);
  auto param = [&](const std::optional<TensorType> &p, bool wanted) -> std::optional<TensorType> {
    if (!wanted || (!p && !empty))
      return std::nullopt;
    DType dtype = empty ? input.dtype : p->dtype;
    if (axis == 0 && !empty) // no outer dims: a pointwise product, not a sum
      return make(dtype, inner, strides, input.device);
    return contiguous(dtype, inner, input.device);
  };
  out[1] = param(weight, mask[1]);
  out[2] = param(bias, mask[2]);
  return NodeValue{std::move(out)};
}

/// Errors unless a per-channel parameter has `channels` elements (where both are constants).
Status requireChannels(const BoundArgs &b, const std::optional<TensorType> &t,
                       std::string_view what, const SymExpr &channels, const TensorType &input) {
  if (!t)
    return Status::ok();
  SymExpr numel = symProduct(t->sizes);
  if (!numel.isConstant() || !channels.isConstant() || numel.constant() == channels.constant())
    return Status::ok();
  return b.error("Expected " + std::string(what) +
                 " to be a vector of size equal to the number of channels in input, but got " +
                 std::string(what) + " of shape " + sizesText(t->sizes) + " and input of shape " +
                 sizesText(input.sizes));
}

/// native_group_norm: (out, mean, rstd); out keeps the input's layout, mean and rstd are
/// (N, group) in the input dtype.
Expected<NodeValue> groupNorm(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto input, b.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto weight, b.optionalTensor("weight"));
  FXKIT_ASSIGN_OR_RETURN(auto bias, b.optionalTensor("bias"));
  FXKIT_ASSIGN_OR_RETURN(auto n, b.symInt("N"));
  FXKIT_ASSIGN_OR_RETURN(auto channels, b.symInt("C"));
  FXKIT_ASSIGN_OR_RETURN(auto group, b.integer("group"));
  if (input.sizes.size() < 2)
    return b.error("Expected at least 2 dimensions for input tensor but received " +
                   std::to_string(input.sizes.size()));
  if (group <= 0 || (channels.isConstant() && channels.constant() % group != 0))
    return b.error("Expected number of channels in input to be divisible by num_groups, but got "
                   "input of shape " +
                   sizesText(input.sizes) + " and num_groups=" + std::to_string(group));
  FXKIT_TRY(requireChannels(b, weight, "weight", channels, input));
  FXKIT_TRY(requireChannels(b, bias, "bias", channels, input));
  FXKIT_TRY(requireFloatingInput(b, input));
  TensorType stat = contiguous(input.dtype, {n, SymExpr(group)}, input.device);
  return many(
      {make(input.dtype, input.sizes, preserveFormatStrides(input), input.device), stat, stat});
}

/// native_group_norm_backward: all results in the promoted dtype of the tensor arguments
/// (the decomposition is wrapped in pw_cast_for_opmath); grad_weight and grad_bias are (C,)
/// even without gamma.
Expected<NodeValue> groupNormBackward(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto grad, b.tensor("grad_out"));
  FXKIT_ASSIGN_OR_RETURN(auto input, b.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto mean, b.tensor("mean"));
  FXKIT_ASSIGN_OR_RETURN(auto rstd, b.tensor("rstd"));
  FXKIT_ASSIGN_OR_RETURN(auto gamma, b.optionalTensor("weight"));
  FXKIT_ASSIGN_OR_RETURN(auto n, b.symInt("N"));
  FXKIT_ASSIGN_OR_RETURN(auto channels, b.symInt("C"));
  FXKIT_ASSIGN_OR_RETURN(auto group, b.integer("group"));
  FXKIT_ASSIGN_OR_RETURN(auto mask, outputMask(b));
  if (!sameSizes(grad.sizes, input.sizes) || !sameSizes(mean.sizes, rstd.sizes))
    return b.error("grad_out must have the input's shape and mean the shape of rstd");
  if (!sameSizes(mean.sizes, {n, SymExpr(group)}))
    return b.error("Expect mean to have shape (" + n.str() + ", " + std::to_string(group) +
                   "), but got " + sizesText(mean.sizes));
  if (group <= 0 || (channels.isConstant() && channels.constant() % group != 0))
    return b.error("Expect number of channels " + channels.str() +
                   " to be evenly-divisible by number of groups " + std::to_string(group));
  FXKIT_TRY(requireChannels(b, gamma, "weight", channels, input));
  DType dtype =
      promoteTypes(promoteTypes(grad.dtype, input.dtype), promoteTypes(mean.dtype, rstd.dtype));
  if (gamma)
    dtype = promoteTypes(dtype, gamma->dtype);
  std::vector<std::optional<TensorType>> out(3);
  if (mask[0])
    out[0] = make(dtype, input.sizes, preserveFormatStrides(input), input.device);
  for (size_t i = 1; i < 3; ++i)
    if (mask[i])
      out[i] = contiguous(dtype, {channels}, input.device);
  return NodeValue{std::move(out)};
}

/// Shared by _native_batch_norm_legit (.default, .no_stats), _native_batch_norm_legit_no_training
/// and _native_batch_norm_legit_functional: (out, save_mean, save_invstd[, running_mean_out,
/// running_var_out]). The statistics are (C,)
/// in training; in evaluation they are empty (0,) on CPU and the running statistics elsewhere.
/// CPU keeps them in the input dtype, other devices in the computation dtype.
Expected<NodeValue> batchNorm(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto input, b.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto weight, b.optionalTensor("weight"));
  FXKIT_ASSIGN_OR_RETURN(auto bias, b.optionalTensor("bias"));
  bool hasStats = b.op().schema.indexOf("running_mean") >= 0;
  std::optional<TensorType> runningMean, runningVar;
  if (hasStats) {
    FXKIT_ASSIGN_OR_RETURN(auto m, b.tensor("running_mean"));
    FXKIT_ASSIGN_OR_RETURN(auto v, b.tensor("running_var"));
    runningMean = m;
    runningVar = v;
  }
  bool training = false;
  if (b.op().schema.indexOf("training") >= 0) {
    FXKIT_ASSIGN_OR_RETURN(auto t, b.boolean("training"));
    training = t;
  }
  if (input.sizes.size() < 2)
    return b.error("batch norm expects an input of at least 2 dimensions, got " +
                   std::to_string(input.sizes.size()));
  if (!training && !hasStats)
    return b.error("running_mean and running_var must not be None in eval mode");
  const SymExpr &channels = input.sizes[1];
  for (const auto &[what, t] :
       {std::pair{"weight", &weight}, std::pair{"bias", &bias},
        std::pair{"running_mean", &runningMean}, std::pair{"running_var", &runningVar}})
    FXKIT_TRY(requireChannels(b, *t, what, channels, input));
  FXKIT_TRY(requireFloatingInput(b, input));
  bool cpu = input.device.type == "cpu";
  SymExpr statSize = !training && cpu ? SymExpr(0) : channels;
  TensorType stat =
      contiguous(cpu ? input.dtype : opmathDType(input.dtype), {statSize}, input.device);
  Sizes strides = elementwiseStrides(input.sizes, {&input});
  std::vector<TensorType> out{make(input.dtype, input.sizes, std::move(strides), input.device),
                              stat, stat};
  // The functional variant also returns the updated running statistics: momentum * batch +
  // (1 - momentum) * running in training (promoted with the computation dtype), else a copy
  // in the computation dtype.
  if (b.op().schema.name == "_native_batch_norm_legit_functional")
    for (const TensorType *t : {&*runningMean, &*runningVar}) {
      DType comp = opmathDType(input.dtype);
      out.push_back(
          contiguous(training ? promoteTypes(comp, t->dtype) : comp, t->sizes, input.device));
    }
  return many(std::move(out));
}

/// max.default/min.default: the extremum of every element, a 0-d tensor of the input dtype.
Expected<NodeValue> extremumAll(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  if (hasZeroSize(self.sizes))
    return b.error(b.op().schema.name +
                   "(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                   "the reduction dim with the 'dim' argument.");
  return one(contiguous(self.dtype, {}, self.device));
}

/// native_batch_norm_backward: grad_input always (the decomposition computes it whatever the
/// mask says), grad_weight/grad_bias (C,) where output_mask asks, in the weight's dtype (the
/// input's without weight).
Expected<NodeValue> batchNormBackward(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto grad, b.tensor("grad_out"));
  FXKIT_ASSIGN_OR_RETURN(auto input, b.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto weight, b.optionalTensor("weight"));
  FXKIT_ASSIGN_OR_RETURN(auto runningMean, b.optionalTensor("running_mean"));
  FXKIT_ASSIGN_OR_RETURN(auto runningVar, b.optionalTensor("running_var"));
  FXKIT_ASSIGN_OR_RETURN(auto saveMean, b.optionalTensor("save_mean"));
  FXKIT_ASSIGN_OR_RETURN(auto saveInvstd, b.optionalTensor("save_invstd"));
  FXKIT_ASSIGN_OR_RETURN(auto train, b.boolean("train"));
  FXKIT_ASSIGN_OR_RETURN(auto mask, outputMask(b));
  if (input.sizes.size() < 2)
    return b.error("rank of the input must be at least 2, got " +
                   std::to_string(input.sizes.size()));
  if (!sameSizes(grad.sizes, input.sizes))
    return b.error("grad_out of size " + sizesText(grad.sizes) + " does not match input of size " +
                   sizesText(input.sizes));
  if (train && (!saveMean || !saveInvstd))
    return b.error("mean and invstd must not be None in training mode");
  if (!train && (!runningMean || !runningVar))
    return b.error("running_mean and running_var must not be None in eval mode");
  const SymExpr &channels = input.sizes[1];
  FXKIT_TRY(requireChannels(b, weight, "weight", channels, input));
  DType paramDType = weight ? weight->dtype : input.dtype;
  std::vector<std::optional<TensorType>> out(3);
  out[0] = make(input.dtype, input.sizes, elementwiseStrides(input.sizes, {&grad, &input}),
                input.device);
  for (size_t i = 1; i < 3; ++i)
    if (mask[i])
      out[i] = contiguous(paramDType, {channels}, input.device);
  return NodeValue{std::move(out)};
}

/// _local_scalar_dense (Tensor.item()): a number only known at run time. FakeTensor makes it
/// an unbacked symbol (u0, or zuf0 for a float); the node keeps the one it recorded, else it
/// gets a symbol named after itself (as untyped integer placeholders do). The interpreter binds
/// it when it runs.
Expected<NodeValue> localScalarDense(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  if (hasZeroSize(self.sizes))
    return b.error("_local_scalar_dense: Empty tensor not supported");
  const SymExpr *recorded = b.node().value().sym();
  if (recorded && recorded->kind() == SymExpr::Kind::Symbol)
    return NodeValue{*recorded};
  return NodeValue{SymExpr::symbol(b.node().name())};
}

// clang-format off
/// Schemas as PyTorch 2.11 declares them (pytorch-ops.json).
const OpRow kRows[] = {
  {"torch.ops.aten.any.dim", "any.dim(Tensor self, int dim, bool keepdim=False) -> Tensor", C::Reduction, anyAll},
  {"torch.ops.aten.any.dims", "any.dims(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor", C::Reduction, anyAll},
  {"torch.ops.aten.any.default", "any(Tensor self) -> Tensor", C::Reduction, anyAll},
  {"torch.ops.aten.all.dim", "all.dim(Tensor self, int dim, bool keepdim=False) -> Tensor", C::Reduction, anyAll},
  {"torch.ops.aten.all.dims", "all.dims(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor", C::Reduction, anyAll},
  {"torch.ops.aten.all.default", "all(Tensor self) -> Tensor", C::Reduction, anyAll},
  {"torch.ops.aten.argmax.default", "argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", C::Reduction, argExtremum},
  {"torch.ops.aten.argmin.default", "argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", C::Reduction, argExtremum},
  {"torch.ops.aten.cumsum.default", "cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", C::Reduction, cumulative},
  {"torch.ops.aten.cumprod.default", "cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", C::Reduction, cumulative},
  {"torch.ops.aten.sort.default", "sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)", C::Extern, sort},
  {"torch.ops.aten.sort.stable", "sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)", C::Extern, sort},
  {"torch.ops.aten.max.dim", "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", C::Reduction, extremumDim},
  {"torch.ops.aten.min.dim", "min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", C::Reduction, extremumDim},
  {"torch.ops.aten.max.default", "max(Tensor self) -> Tensor", C::Reduction, extremumAll},
  {"torch.ops.aten.min.default", "min(Tensor self) -> Tensor", C::Reduction, extremumAll},
  {"torch.ops.aten.prod.default", "prod(Tensor self, *, ScalarType? dtype=None) -> Tensor", C::Reduction, prod},
  // Inductor lowers it as a reduction of its own (xor_sum); fxkit calls the reference kernel.
  {"torch.ops.prims.xor_sum.default", "xor_sum(Tensor inp, int[]? dims, *, ScalarType? output_dtype=None) -> Tensor", C::Extern, xorSum},
  {"torch.ops.aten.prod.dim_int", "prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", C::Reduction, prod},
  {"torch.ops.aten.var.correction", "var.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor", C::Reduction, var},
  {"torch.ops.aten.var.dim", "var.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor", C::Reduction, var},
  {"torch.ops.aten.logsumexp.default", "logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor", C::Reduction, logsumexp},
  {"torch.ops.aten._softmax.default", "_softmax(Tensor self, int dim, bool half_to_float) -> Tensor", C::Reduction, softmax},
  {"torch.ops.aten._log_softmax.default", "_log_softmax(Tensor self, int dim, bool half_to_float) -> Tensor", C::Reduction, softmax},
  {"torch.ops.aten._softmax_backward_data.default", "_softmax_backward_data(Tensor grad_output, Tensor output, int dim, ScalarType input_dtype) -> Tensor", C::Reduction, softmaxBackward},
  {"torch.ops.aten._log_softmax_backward_data.default", "_log_softmax_backward_data(Tensor grad_output, Tensor output, int dim, ScalarType input_dtype) -> Tensor", C::Reduction, softmaxBackward},
  {"torch.ops.aten.native_layer_norm.default", "native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps) -> (Tensor, Tensor, Tensor)", C::Reduction, layerNorm},
  {"torch.ops.aten.native_layer_norm_backward.default", "native_layer_norm_backward(Tensor grad_out, Tensor input, SymInt[] normalized_shape, Tensor mean, Tensor rstd, Tensor? weight, Tensor? bias, bool[3] output_mask) -> (Tensor, Tensor, Tensor)", C::Reduction, layerNormBackward},
  {"torch.ops.aten.native_group_norm.default", "native_group_norm(Tensor input, Tensor? weight, Tensor? bias, SymInt N, SymInt C, SymInt HxW, int group, float eps) -> (Tensor, Tensor, Tensor)", C::Reduction, groupNorm},
  {"torch.ops.aten.native_group_norm_backward.default", "native_group_norm_backward(Tensor grad_out, Tensor input, Tensor mean, Tensor rstd, Tensor? weight, SymInt N, SymInt C, SymInt HxW, int group, bool[3] output_mask) -> (Tensor, Tensor, Tensor)", C::Reduction, groupNormBackward},
  {"torch.ops.aten._native_batch_norm_legit.default", "_native_batch_norm_legit(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean, Tensor(b!) running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)", C::Extern, batchNorm},
  {"torch.ops.aten._native_batch_norm_legit.no_stats", "_native_batch_norm_legit.no_stats(Tensor input, Tensor? weight, Tensor? bias, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)", C::Reduction, batchNorm},
  {"torch.ops.aten._native_batch_norm_legit_no_training.default", "_native_batch_norm_legit_no_training(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, Tensor running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor)", C::Reduction, batchNorm},
  {"torch.ops.aten._native_batch_norm_legit_functional.default", "_native_batch_norm_legit_functional(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, Tensor running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor, Tensor running_mean_out, Tensor running_var_out)", C::Reduction, batchNorm},
  {"torch.ops.aten.native_batch_norm_backward.default", "native_batch_norm_backward(Tensor grad_out, Tensor input, Tensor? weight, Tensor? running_mean, Tensor? running_var, Tensor? save_mean, Tensor? save_invstd, bool train, float eps, bool[3] output_mask) -> (Tensor, Tensor, Tensor)", C::Extern, batchNormBackward},
  {"torch.ops.aten._local_scalar_dense.default", "_local_scalar_dense(Tensor self) -> Scalar", C::Extern, localScalarDense},
};
// clang-format on

} // namespace

std::span<const OpRow> reductionOpRows() { return kRows; }

} // namespace fxkit
