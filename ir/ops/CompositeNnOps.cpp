/// \file Composite neural-network ops (ir/ops/Decomposer.h), each row beside its decomposition:
/// linear, the convolutions by rank and their transposes, batch/instance/group/layer/RMS
/// normalisation, dropout, softmax with a dtype, scaled_dot_product_attention, max pooling by
/// rank, adaptive average pooling, padding by mode, 1-d upsampling and pixel shuffles.
///
/// Decompositions follow the CompositeImplicitAutograd kernels PyTorch runs when
/// run_decompositions() lowers torch.export's default IR (Linear.cpp, Convolution.cpp,
/// Normalization.cpp, layer_norm.cpp, Dropout.cpp, SoftMax.cpp, attention.cpp, MaxPooling.cpp,
/// AdaptiveAveragePooling.cpp, PadNd.cpp) and torch/_decomp/decompositions.py.
/// scaled_dot_product_attention picks its backend as ATen does on the tensors' device: on the
/// CPU the flash kernel (_scaled_dot_product_flash_attention_for_cpu, fxkit's device kernel)
/// where its checks pass, else the math form.

#include "ir/Try.h"
#include "ir/ops/Decomposer.h"
#include "ir/ops/InferSupport.h"
#include "ir/ops/OpFamilies.h"
#include "ir/ops/PoolingWindows.h"

#include <cmath>
#include <limits>

namespace fxkit {

namespace {

using C = OpCategory;

// ---- Helpers ----

bool isDefined(const Argument &a) { return !a.isNone(); }

/// The spatial rank of a pooling, convolution or upsampling op from its name (`conv2d`: 2).
int spatialRank(const Decomposer &d) {
  const std::string &name = d.args().op().schema.name;
  for (char c : name)
    if (c >= '1' && c <= '3')
      return c - '0';
  return 2;
}

std::string sizesOf(const TensorType &t) { return sizesText(t.sizes); }

/// `weight.t()` of a linear layer: permute [1, 0] (a 1-d weight is its own transpose).
Expected<Argument> transposed(Decomposer &d, const Argument &w) {
  FXKIT_ASSIGN_OR_RETURN(auto t, d.type(w));
  if (t.sizes.size() < 2)
    return w;
  return d.call("aten.permute.default", {w, intListArg({1, 0})});
}

/// The node's result: element 0 of `out`, the tuple an ATen op with several outputs returns.
Status firstOutput(Decomposer &d, const Argument &out) {
  FXKIT_ASSIGN_OR_RETURN(auto r, d.getitem(out, 0));
  return d.result(r);
}

// ---- Linear ----

/// linear(input, weight, bias) as ATen's linear: addmm for a 2-d input with a bias, the
/// flattened addmm for a contiguous input with a 1-d contiguous bias, else matmul and add.
Status decomposeLinear(Decomposer &d) {
  const Argument &input = d.arg("input"), &weight = d.arg("weight"), &bias = d.arg("bias");
  FXKIT_ASSIGN_OR_RETURN(auto in, d.type(input));
  FXKIT_ASSIGN_OR_RETURN(auto w, d.type(weight));
  if (in.sizes.empty() || w.sizes.empty())
    return d.error("both arguments to linear need to be at least 1D, but they are " +
                   std::to_string(in.sizes.size()) + "D and " + std::to_string(w.sizes.size()) +
                   "D");
  FXKIT_ASSIGN_OR_RETURN(auto wt, transposed(d, weight));
  if (in.sizes.size() == 2 && isDefined(bias)) {
    FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.addmm.default", {bias, input, wt}));
    return d.result(r);
  }
  bool fusableBias = false;
  if (isDefined(bias)) {
    FXKIT_ASSIGN_OR_RETURN(auto b, d.type(bias));
    size_t nonSingleton = 0;
    for (const SymExpr &s : b.sizes)
      nonSingleton += !symIs(s, 1);
    fusableBias = (b.sizes.size() == 1 || nonSingleton == 1) && isContiguous(b.sizes, b.strides);
  }
  if (fusableBias && isContiguous(in.sizes, in.strides)) {
    Argument rows = Argument::integer(1);
    std::vector<Argument> outShape;
    for (size_t i = 0; i + 1 < in.sizes.size(); ++i) {
      FXKIT_ASSIGN_OR_RETURN(auto s, d.size(input, static_cast<int64_t>(i)));
      outShape.push_back(s);
      FXKIT_ASSIGN_OR_RETURN(auto p, d.mul(rows, s));
      rows = p;
    }
    FXKIT_ASSIGN_OR_RETURN(auto cols, d.size(input, -1));
    FXKIT_ASSIGN_OR_RETURN(auto flat,
                           d.call("aten.view.default", {input, Argument::list({rows, cols})}));
    FXKIT_ASSIGN_OR_RETURN(auto mm, d.call("aten.addmm.default", {bias, flat, wt}));
    FXKIT_ASSIGN_OR_RETURN(auto n, d.size(mm, 1));
    outShape.push_back(n);
    FXKIT_ASSIGN_OR_RETURN(auto r,
                           d.call("aten.view.default", {mm, Argument::list(std::move(outShape))}));
    return d.result(r);
  }
  FXKIT_ASSIGN_OR_RETURN(auto out, d.call("aten.matmul.default", {input, wt}));
  if (!isDefined(bias))
    return d.result(out);
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.add.Tensor", {out, bias}));
  return d.result(r);
}

// ---- Convolutions ----

/// The input of a convolution made batched (at::native's batchify): an unbatched input gets a
/// leading dim of 1, which the caller squeezes off the result.
Expected<bool> batchify(Decomposer &d, const TensorType &in, int rank, std::string_view name,
                        Argument &input) {
  size_t dims = in.sizes.size();
  if (dims != static_cast<size_t>(rank) + 1 && dims != static_cast<size_t>(rank) + 2)
    return d.error("Expected " + std::to_string(rank + 1) + "D (unbatched) or " +
                   std::to_string(rank + 2) + "D (batched) input to " + std::string(name) +
                   ", but got input of size: " + sizesOf(in));
  if (dims == static_cast<size_t>(rank) + 2)
    return true;
  FXKIT_ASSIGN_OR_RETURN(auto u, d.call("aten.unsqueeze.default", {input, Argument::integer(0)}));
  input = u;
  return false;
}

/// The result of a convolution on a batchified input: squeezed back when it was unbatched.
Status finishConvolution(Decomposer &d, const Argument &out, bool batched) {
  if (batched)
    return d.result(out);
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.squeeze.dim", {out, Argument::integer(0)}));
  return d.result(r);
}

Status checkBias(Decomposer &d, const TensorType &in) {
  if (!isDefined(d.arg("bias")))
    return Status::ok();
  FXKIT_ASSIGN_OR_RETURN(auto b, d.type(d.arg("bias")));
  if (b.dtype != in.dtype)
    return d.error("Input type (" + std::string(dtypeName(in.dtype)) + ") and bias type (" +
                   std::string(dtypeName(b.dtype)) + ") should be the same");
  return Status::ok();
}

/// conv1d/2d/3d and conv_transpose1d/2d/3d = convolution (transposed for the latter).
Status decomposeConv(Decomposer &d) {
  const std::string &name = d.args().op().schema.name;
  bool transpose = name.starts_with("conv_transpose");
  int rank = spatialRank(d);
  Argument input = d.arg("input");
  FXKIT_ASSIGN_OR_RETURN(auto in, d.type(input));
  FXKIT_TRY(checkBias(d, in));
  FXKIT_ASSIGN_OR_RETURN(auto batched, batchify(d, in, rank, name, input));
  Argument outputPadding =
      transpose ? d.arg("output_padding") : intListArg(std::vector<int64_t>(rank, 0));
  FXKIT_ASSIGN_OR_RETURN(
      auto out,
      d.call("aten.convolution.default",
             {input, d.arg("weight"), d.arg("bias"), d.arg("stride"), d.arg("padding"),
              d.arg("dilation"), Argument::boolean(transpose), outputPadding, d.arg("groups")}));
  return finishConvolution(d, out, batched);
}

/// conv*d.padding: 'valid' is no padding; 'same' pads so the output keeps the input's size,
/// symmetric where it can and with a constant_pad_nd of the difference where it cannot
/// (ATen's _convolution_same).
Status decomposeConvPadding(Decomposer &d) {
  const std::string &name = d.args().op().schema.name;
  int rank = spatialRank(d);
  Argument input = d.arg("input");
  FXKIT_ASSIGN_OR_RETURN(auto in, d.type(input));
  FXKIT_TRY(checkBias(d, in));
  const Argument &mode = d.arg("padding");
  std::string_view padding = mode.kind() == Argument::Kind::String ? mode.asString() : "";
  if (padding != "valid" && padding != "same")
    return d.error("Invalid padding string: '" + std::string(padding) + "'");
  FXKIT_ASSIGN_OR_RETURN(auto batched, batchify(d, in, rank, name, input));
  std::vector<int64_t> zeros(rank, 0);
  // The convolution of `input` with `pads` on both sides of each spatial dimension.
  auto convolve = [&](const std::vector<int64_t> &pads) -> Status {
    FXKIT_ASSIGN_OR_RETURN(
        auto out,
        d.call("aten.convolution.default",
               {input, d.arg("weight"), d.arg("bias"), d.arg("stride"), intListArg(pads),
                d.arg("dilation"), Argument::boolean(false), intListArg(zeros), d.arg("groups")}));
    return finishConvolution(d, out, batched);
  };
  if (padding == "valid")
    return convolve(zeros);
  FXKIT_ASSIGN_OR_RETURN(auto w, d.type(d.arg("weight")));
  FXKIT_ASSIGN_OR_RETURN(auto x, d.type(input));
  if (w.sizes.size() != x.sizes.size())
    return d.error("Expected " + std::to_string(w.sizes.size()) + "-dimensional input for " +
                   std::to_string(w.sizes.size()) + "-dimensional weight" + sizesOf(w) +
                   ", but got " + std::to_string(x.sizes.size()) + "-dimensional input of size " +
                   sizesOf(x) + " instead");
  FXKIT_ASSIGN_OR_RETURN(auto stride, d.args().symIntList("stride"));
  FXKIT_ASSIGN_OR_RETURN(auto dilation, d.args().symIntList("dilation"));
  for (const SymExpr &s : stride)
    if (!symIs(s, 1))
      return d.error("padding='same' is not supported for strided convolutions");
  std::vector<int64_t> left(rank), right(rank);
  bool symmetric = true;
  for (int i = 0; i < rank; ++i) {
    const SymExpr &dil = dilation.size() == 1 ? dilation[0] : dilation[i];
    const SymExpr &k = w.sizes[i + 2];
    if (!dil.isConstant() || !k.isConstant())
      return d.error("padding='same' with a symbolic kernel size or dilation");
    int64_t total = dil.constant() * (k.constant() - 1);
    left[i] = total / 2;
    right[i] = total - left[i];
    symmetric = symmetric && left[i] == right[i];
  }
  if (!symmetric) {
    std::vector<int64_t> padNd(2 * rank, 0);
    for (int i = 0; i < rank; ++i) {
      int64_t delta = right[i] - left[i];
      size_t at = 2 * (rank - 1 - i);
      if (delta > 0) {
        padNd[at + 1] = delta;
      } else {
        padNd[at] = delta;
        left[i] = right[i];
      }
    }
    FXKIT_ASSIGN_OR_RETURN(auto padded, d.call("aten.constant_pad_nd.default",
                                               {input, intListArg(padNd), Argument::integer(0)}));
    input = padded;
  }
  return convolve(left);
}

// ---- Normalisation ----

/// batch_norm: _native_batch_norm_legit_no_training in evaluation, the functional training
/// form with running statistics (their updated values are buffer writes, which the graph's
/// outputs do not include), no_stats without them (ATen's batch_norm as run_decompositions
/// lowers it).
Status decomposeBatchNorm(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto training, d.args().boolean("training"));
  const Argument &mean = d.arg("running_mean"), &var = d.arg("running_var");
  std::vector<Argument> common{d.arg("input"), d.arg("weight"), d.arg("bias")};
  Argument out;
  if (!training) {
    if (!isDefined(mean) || !isDefined(var))
      return d.error("running_mean and running_var must be defined in evaluation mode");
    common.insert(common.end(), {mean, var, d.arg("momentum"), d.arg("eps")});
    FXKIT_ASSIGN_OR_RETURN(
        auto r, d.call("aten._native_batch_norm_legit_no_training.default", std::move(common)));
    out = r;
  } else if (isDefined(mean) && isDefined(var)) {
    common.insert(common.end(),
                  {mean, var, Argument::boolean(true), d.arg("momentum"), d.arg("eps")});
    FXKIT_ASSIGN_OR_RETURN(
        auto r, d.call("aten._native_batch_norm_legit_functional.default", std::move(common)));
    out = r;
  } else {
    common.insert(common.end(), {Argument::boolean(true), d.arg("momentum"), d.arg("eps")});
    FXKIT_ASSIGN_OR_RETURN(auto r,
                           d.call("aten._native_batch_norm_legit.no_stats", std::move(common)));
    out = r;
  }
  return firstOutput(d, out);
}

/// instance_norm: batch norm of the input viewed as one batch of N*C channels, the per-channel
/// parameters repeated N times (ATen's instance_norm).
Status decomposeInstanceNorm(Decomposer &d) {
  const Argument &input = d.arg("input");
  FXKIT_ASSIGN_OR_RETURN(auto in, d.type(input));
  FXKIT_ASSIGN_OR_RETURN(auto useInputStats, d.args().boolean("use_input_stats"));
  if (!useInputStats && (!isDefined(d.arg("running_mean")) || !isDefined(d.arg("running_var"))))
    return d.error("Expected running_mean and running_var to be defined when use_input_stats is "
                   "false");
  if (in.sizes.size() < 2)
    return d.error("instance_norm expects an input of at least 2 dimensions, got " + sizesOf(in));
  FXKIT_ASSIGN_OR_RETURN(auto sizes, d.sizes(input));
  FXKIT_ASSIGN_OR_RETURN(auto channels, d.mul(sizes[0], sizes[1]));
  std::vector<Argument> shape = sizes;
  shape[0] = Argument::integer(1);
  shape[1] = channels;
  auto repeated = [&d, &sizes](const Argument &t) -> Expected<Argument> {
    if (!isDefined(t))
      return t;
    return d.call("aten.repeat.default", {t, Argument::list({sizes[0]})});
  };
  FXKIT_ASSIGN_OR_RETURN(auto weight, repeated(d.arg("weight")));
  FXKIT_ASSIGN_OR_RETURN(auto bias, repeated(d.arg("bias")));
  FXKIT_ASSIGN_OR_RETURN(auto mean, repeated(d.arg("running_mean")));
  FXKIT_ASSIGN_OR_RETURN(auto var, repeated(d.arg("running_var")));
  FXKIT_ASSIGN_OR_RETURN(auto c, d.contiguous(input, "contiguous_format"));
  FXKIT_ASSIGN_OR_RETURN(auto x,
                         d.call("aten.view.default", {c, Argument::list(std::move(shape))}));
  FXKIT_ASSIGN_OR_RETURN(auto out,
                         d.call("aten.batch_norm.default",
                                {x, weight, bias, mean, var, Argument::boolean(useInputStats),
                                 d.arg("momentum"), d.arg("eps"), d.arg("cudnn_enabled")}));
  FXKIT_ASSIGN_OR_RETURN(auto r,
                         d.call("aten.view.default", {out, Argument::list(std::move(sizes))}));
  return d.result(r);
}

/// group_norm = native_group_norm(input, weight, bias, N, C, H*W..., groups, eps)[0] on the
/// input made contiguous in its suggested format (ATen's group_norm).
Status decomposeGroupNorm(Decomposer &d) {
  const Argument &input = d.arg("input");
  FXKIT_ASSIGN_OR_RETURN(auto in, d.type(input));
  if (in.sizes.size() < 2)
    return d.error("Expected at least 2 dimensions for input tensor but received " +
                   std::to_string(in.sizes.size()));
  FXKIT_ASSIGN_OR_RETURN(auto groups, d.args().integer("num_groups"));
  if (groups <= 0)
    return d.error("Expected num groups to be greater than 0, got " + std::to_string(groups));
  const SymExpr &channels = in.sizes[1];
  if (channels.isConstant() && channels.constant() % groups != 0)
    return d.error("Expected number of channels in input to be divisible by num_groups, but got "
                   "input of shape " +
                   sizesOf(in) + " and num_groups=" + std::to_string(groups));
  for (const char *param : {"weight", "bias"})
    if (isDefined(d.arg(param))) {
      FXKIT_ASSIGN_OR_RETURN(auto p, d.type(d.arg(param)));
      if (p.sizes.size() != 1 || !symEq(p.sizes[0], channels))
        return d.error("Expected " + std::string(param) +
                       " to be a vector of size equal to the number of channels in input, but "
                       "got " +
                       std::string(param) + " of shape " + sizesOf(p) + " and input of shape " +
                       sizesOf(in));
    }
  FXKIT_ASSIGN_OR_RETURN(auto n, d.size(input, 0));
  FXKIT_ASSIGN_OR_RETURN(auto c, d.size(input, 1));
  Argument hw = Argument::integer(1);
  for (size_t i = 2; i < in.sizes.size(); ++i) {
    FXKIT_ASSIGN_OR_RETURN(auto s, d.size(input, static_cast<int64_t>(i)));
    FXKIT_ASSIGN_OR_RETURN(auto p, d.mul(hw, s));
    hw = p;
  }
  std::string_view format =
      in.sizes.size() == 4 && stridesLikeChannelsLast(in.sizes, in.strides)   ? "channels_last"
      : in.sizes.size() == 5 && stridesLikeChannelsLast(in.sizes, in.strides) ? "channels_last_3d"
                                                                              : "contiguous_format";
  FXKIT_ASSIGN_OR_RETURN(auto x, d.contiguous(input, format));
  Argument weight = d.arg("weight"), bias = d.arg("bias");
  if (isDefined(weight)) {
    FXKIT_ASSIGN_OR_RETURN(auto w, d.contiguous(weight, "contiguous_format"));
    weight = w;
  }
  if (isDefined(bias)) {
    FXKIT_ASSIGN_OR_RETURN(auto b, d.contiguous(bias, "contiguous_format"));
    bias = b;
  }
  FXKIT_ASSIGN_OR_RETURN(
      auto out, d.call("aten.native_group_norm.default",
                       {x, weight, bias, n, c, hw, Argument::integer(groups), d.arg("eps")}));
  return firstOutput(d, out);
}

/// layer_norm = native_layer_norm(...)[0].
Status decomposeLayerNorm(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto out, d.call("aten.native_layer_norm.default",
                                          {d.arg("input"), d.arg("normalized_shape"),
                                           d.arg("weight"), d.arg("bias"), d.arg("eps")}));
  return firstOutput(d, out);
}

/// rms_norm(x, shape, weight, eps) = x * rsqrt(mean(x^2 over shape's dims) + eps), in op math,
/// times weight, in x's dtype; eps defaults to the op-math dtype's epsilon (ATen's rms_norm).
Status decomposeRmsNorm(Decomposer &d) {
  const Argument &input = d.arg("input");
  FXKIT_ASSIGN_OR_RETURN(auto in, d.type(input));
  FXKIT_ASSIGN_OR_RETURN(auto shape, d.args().symIntList("normalized_shape"));
  if (shape.empty() || shape.size() > in.sizes.size() ||
      !std::equal(shape.begin(), shape.end(), in.sizes.end() - shape.size(), symEq)) {
    std::string expected = "[*";
    for (const SymExpr &s : shape)
      expected += ", " + s.str();
    return d.error("Given normalized_shape=" + sizesText(shape) + ", expected input with shape " +
                   expected + "], but got input of size" + sizesOf(in));
  }
  if (!dtypeIsFloating(in.dtype))
    return d.error("\"rms_norm\" not implemented for '" +
                   std::string(dtypeScalarTypeName(in.dtype)) + "'");
  DType opmath =
      in.dtype == DType::Float16 || in.dtype == DType::BFloat16 ? DType::Float32 : in.dtype;
  double eps;
  if (d.arg("eps").isNone()) {
    eps = opmath == DType::Float64 ? std::numeric_limits<double>::epsilon()
                                   : static_cast<double>(std::numeric_limits<float>::epsilon());
  } else {
    FXKIT_ASSIGN_OR_RETURN(auto e, d.args().floating("eps"));
    // ATen holds eps in the input's scalar type.
    eps = in.dtype == DType::Float64 ? e : static_cast<double>(static_cast<float>(e));
  }
  std::vector<int64_t> dims;
  for (size_t i = 0; i < shape.size(); ++i)
    dims.push_back(static_cast<int64_t>(in.sizes.size() - i - 1));
  FXKIT_ASSIGN_OR_RETURN(auto x, d.convert(input, opmath));
  FXKIT_ASSIGN_OR_RETURN(auto sq, d.call("aten.pow.Tensor_Scalar", {x, Argument::integer(2)}));
  FXKIT_ASSIGN_OR_RETURN(auto mean,
                         d.call("aten.mean.dim", {sq, intListArg(dims), Argument::boolean(true)}));
  FXKIT_ASSIGN_OR_RETURN(auto shifted, d.call("aten.add.Tensor", {mean, Argument::floating(eps)}));
  FXKIT_ASSIGN_OR_RETURN(auto rstd, d.call("aten.rsqrt.default", {shifted}));
  FXKIT_ASSIGN_OR_RETURN(auto normed, d.call("aten.mul.Tensor", {x, rstd}));
  FXKIT_ASSIGN_OR_RETURN(auto r, d.convert(normed, in.dtype));
  if (d.arg("weight").isNone())
    return d.result(r);
  FXKIT_ASSIGN_OR_RETURN(auto scaled, d.call("aten.mul.Tensor", {r, d.arg("weight")}));
  FXKIT_ASSIGN_OR_RETURN(auto out, d.convert(scaled, in.dtype));
  return d.result(out);
}

// ---- Dropout ----

Status checkDropoutP(Decomposer &d, double p) {
  if (p < 0 || p > 1)
    return d.error("dropout probability has to be between 0 and 1, but got " + pyFloatRepr(p));
  return Status::ok();
}

/// dropout: native_dropout(...)[0] in training with p > 0, else a clone (torch/_decomp).
Status decomposeDropout(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto p, d.args().floating("p"));
  FXKIT_ASSIGN_OR_RETURN(auto train, d.args().boolean("train"));
  FXKIT_TRY(checkDropoutP(d, p));
  if (train && p != 0) {
    FXKIT_ASSIGN_OR_RETURN(auto out, d.call("aten.native_dropout.default",
                                            {d.arg("input"), d.arg("p"), Argument::boolean(true)}));
    return firstOutput(d, out);
  }
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.clone.default", {d.arg("input")}));
  return d.result(r);
}

/// feature_dropout, alpha_dropout, feature_alpha_dropout: the input itself in evaluation or
/// with p = 0 (ATen's _dropout_impl); their training masks are not supported.
Status decomposeOtherDropout(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto p, d.args().floating("p"));
  FXKIT_ASSIGN_OR_RETURN(auto train, d.args().boolean("train"));
  FXKIT_TRY(checkDropoutP(d, p));
  if (train && p != 0)
    return d.error(d.args().op().schema.name +
                   " in training mode (random masks per channel or with alpha scaling) is not "
                   "supported");
  return d.result(d.arg("input"));
}

// ---- Softmax ----

/// softmax.int / log_softmax.int = _softmax / _log_softmax of the input converted to `dtype`.
Status decomposeSoftmax(Decomposer &d) {
  bool log = d.args().op().schema.name == "log_softmax";
  FXKIT_ASSIGN_OR_RETURN(auto dtype, d.args().dtype("dtype"));
  Argument x = d.arg("self");
  if (dtype) {
    FXKIT_ASSIGN_OR_RETURN(auto c, d.convert(x, *dtype));
    x = c;
  }
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call(log ? "aten._log_softmax.default" : "aten._softmax.default",
                                        {x, d.arg("dim"), Argument::boolean(false)}));
  return d.result(r);
}

/// _safe_softmax: softmax with the rows that are all -inf set to 0 (torch/_decomp).
Expected<Argument> safeSoftmax(Decomposer &d, const Argument &x, const Argument &dim,
                               const Argument &dtype) {
  FXKIT_ASSIGN_OR_RETURN(auto out, d.call("aten.softmax.int", {x, dim, dtype}));
  FXKIT_ASSIGN_OR_RETURN(
      auto masked,
      d.call("aten.eq.Scalar", {x, Argument::floating(-std::numeric_limits<double>::infinity())}));
  FXKIT_ASSIGN_OR_RETURN(auto kept, d.call("aten.logical_not.default", {masked}));
  FXKIT_ASSIGN_OR_RETURN(auto anyKept,
                         d.call("aten.any.dim", {kept, dim, Argument::boolean(true)}));
  FXKIT_ASSIGN_OR_RETURN(auto maskedRows, d.call("aten.logical_not.default", {anyKept}));
  FXKIT_ASSIGN_OR_RETURN(auto zeros,
                         d.call("aten.full_like.default", {out, Argument::integer(0)},
                                {{"pin_memory", Argument::boolean(false)},
                                 {"memory_format", Argument::memoryFormat("preserve_format")}}));
  return d.call("aten.where.self", {maskedRows, zeros, out});
}

Status decomposeSafeSoftmax(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto r, safeSoftmax(d, d.arg("self"), d.arg("dim"), d.arg("dtype")));
  return d.result(r);
}

// ---- Attention ----

/// sdp::check_attn_mask_shape: a 2-d mask, or a 4-d one whose batch and head dims are 1 or
/// the query's, with its last two dims 1 or (L, S).
bool flashTakesMask(const TensorType &q, const TensorType &k, const TensorType &mask) {
  const std::vector<SymExpr> &m = mask.sizes;
  if (m.size() < 2)
    return false;
  auto oneOr = [](const SymExpr &s, const SymExpr &n) { return symIs(s, 1) || symEq(s, n); };
  if (!oneOr(m[m.size() - 2], q.sizes[2]) || !oneOr(m.back(), k.sizes[2]))
    return false;
  if (m.size() == 2)
    return true;
  return m.size() == 4 && oneOr(m[0], q.sizes[0]) && oneOr(m[1], q.sizes[1]);
}

/// The math form (_scaled_dot_product_attention_math): q and k each scaled by the square root
/// of the scale, a causal or given additive mask, _safe_softmax, the heads of k and v
/// repeated for grouped-query attention, in float32 for half and bfloat16.
Expected<Argument> attentionMath(Decomposer &d, const TensorType &q, const TensorType &k,
                                 const TensorType &v, Argument mask, double dropoutP, bool causal,
                                 std::optional<double> scale, bool gqa) {
  auto acc = [&d](const Argument &x, const TensorType &t) -> Expected<Argument> {
    if (t.dtype == DType::Float16 || t.dtype == DType::BFloat16)
      return d.convert(x, DType::Float32);
    return x;
  };
  FXKIT_ASSIGN_OR_RETURN(auto query, acc(d.arg("query"), q));
  FXKIT_ASSIGN_OR_RETURN(auto key, acc(d.arg("key"), k));
  FXKIT_ASSIGN_OR_RETURN(auto value, acc(d.arg("value"), v));
  bool negative = scale && *scale < 0;
  double softmaxScale;
  if (scale) {
    softmaxScale = std::fabs(*scale);
  } else {
    const SymExpr &e = q.sizes.back();
    if (!e.isConstant())
      return d.error("attention's default scale 1/sqrt(E) of a symbolic head size " + e.str() +
                     " is not supported: give scale");
    softmaxScale = 1.0 / std::sqrt(static_cast<double>(e.constant()));
  }
  double factor = std::sqrt(softmaxScale);
  FXKIT_ASSIGN_OR_RETURN(
      auto qs, d.call("aten.mul.Scalar", {query, Argument::floating(negative ? -factor : factor)}));
  FXKIT_ASSIGN_OR_RETURN(auto qt, d.type(qs));
  if (causal) {
    FXKIT_ASSIGN_OR_RETURN(auto l, d.size(query, -2));
    FXKIT_ASSIGN_OR_RETURN(auto s, d.size(key, -2));
    FXKIT_ASSIGN_OR_RETURN(auto ones, d.call("aten.full.default",
                                             {Argument::list({l, s}), Argument::boolean(true)},
                                             {{"dtype", Argument::dtype(DType::Bool)},
                                              {"layout", Argument::layout("strided")},
                                              {"device", Argument::device(q.device)},
                                              {"pin_memory", Argument::boolean(false)}}));
    FXKIT_ASSIGN_OR_RETURN(auto lower, d.call("aten.tril.default", {ones}));
    FXKIT_ASSIGN_OR_RETURN(
        auto ninf, d.scalarTensor(Argument::floating(-std::numeric_limits<double>::infinity()),
                                  qt.dtype, q.device));
    FXKIT_ASSIGN_OR_RETURN(auto zero, d.scalarTensor(Argument::floating(0.0), qt.dtype, q.device));
    FXKIT_ASSIGN_OR_RETURN(auto m, d.call("aten.where.self", {lower, zero, ninf}));
    mask = m;
  }
  if (gqa) {
    const SymExpr &hq = q.sizes[q.sizes.size() - 3], &hk = k.sizes[k.sizes.size() - 3],
                  &hv = v.sizes[v.sizes.size() - 3];
    if (!(symEq(hq, hk) && symEq(hk, hv))) {
      if (!hq.isConstant() || !hk.isConstant() || !hv.isConstant() ||
          hq.constant() % hk.constant() || hq.constant() % hv.constant())
        return d.error("Number of heads in key and value must divide the number of heads in ");
      FXKIT_ASSIGN_OR_RETURN(auto kr, d.call("aten.repeat_interleave.self_int",
                                             {key, Argument::integer(hq.constant() / hk.constant()),
                                              Argument::integer(-3)}));
      FXKIT_ASSIGN_OR_RETURN(
          auto vr,
          d.call("aten.repeat_interleave.self_int",
                 {value, Argument::integer(hq.constant() / hv.constant()), Argument::integer(-3)}));
      key = kr;
      value = vr;
    }
  }
  FXKIT_ASSIGN_OR_RETURN(auto kt, d.type(key));
  size_t kr = kt.sizes.size();
  std::vector<int64_t> perm(kr);
  for (size_t i = 0; i < kr; ++i)
    perm[i] = static_cast<int64_t>(i);
  std::swap(perm[kr - 1], perm[kr - 2]);
  FXKIT_ASSIGN_OR_RETURN(auto keyT, d.call("aten.permute.default", {key, intListArg(perm)}));
  FXKIT_ASSIGN_OR_RETURN(auto ks, d.call("aten.mul.Scalar", {keyT, Argument::floating(factor)}));
  FXKIT_ASSIGN_OR_RETURN(auto scores, d.call("aten.matmul.default", {qs, ks}));
  Argument attn = scores;
  if (isDefined(mask)) {
    FXKIT_ASSIGN_OR_RETURN(auto a, d.call("aten.add.Tensor", {attn, mask}));
    attn = a;
  }
  FXKIT_ASSIGN_OR_RETURN(auto weights,
                         safeSoftmax(d, attn, Argument::integer(-1), Argument::none()));
  attn = weights;
  if (dropoutP > 0) {
    FXKIT_ASSIGN_OR_RETURN(auto dr,
                           d.call("aten.dropout.default",
                                  {attn, Argument::floating(dropoutP), Argument::boolean(true)}));
    attn = dr;
  }
  FXKIT_ASSIGN_OR_RETURN(auto out, d.call("aten.matmul.default", {attn, value}));
  return d.convert(out, q.dtype);
}

/// scaled_dot_product_attention as ATen dispatches it: the input checks, a bool mask made
/// additive (0 where kept, -inf elsewhere), then on the CPU the flash kernel where
/// use_flash_attention_cpp allows it, on other devices the memory-efficient kernel where
/// fxkit's takes the inputs, else the math form.
Status decomposeSdpa(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto q, d.args().tensor("query"));
  FXKIT_ASSIGN_OR_RETURN(auto k, d.args().tensor("key"));
  FXKIT_ASSIGN_OR_RETURN(auto v, d.args().tensor("value"));
  FXKIT_ASSIGN_OR_RETURN(auto maskType, d.args().optionalTensor("attn_mask"));
  FXKIT_ASSIGN_OR_RETURN(auto dropoutP, d.args().floating("dropout_p"));
  FXKIT_ASSIGN_OR_RETURN(auto causal, d.args().boolean("is_causal"));
  FXKIT_ASSIGN_OR_RETURN(auto gqa, d.args().boolean("enable_gqa"));
  std::optional<double> scale;
  if (!d.arg("scale").isNone()) {
    FXKIT_ASSIGN_OR_RETURN(auto s, d.args().floating("scale"));
    scale = s;
  }
  if (q.dtype != k.dtype || q.dtype != v.dtype)
    return d.error("Expected query, key, and value to have the same dtype, but got query.dtype: " +
                   std::string(dtypeName(q.dtype)) +
                   " key.dtype: " + std::string(dtypeName(k.dtype)) +
                   " and value.dtype: " + std::string(dtypeName(v.dtype)) + " instead.");
  if (!(q.device == k.device && q.device == v.device))
    return d.error("Expected query, key, and value to have the same device type, but got "
                   "query.device: " +
                   q.device.str() + " key.device: " + k.device.str() +
                   " and value.device: " + v.device.str() + " instead.");
  if (q.sizes.size() < 2 || k.sizes.size() < 2 || v.sizes.size() < 2)
    return d.error("Expected query, key, and value to all be  at least 2 dimensional, but got "
                   "query.dim: " +
                   std::to_string(q.sizes.size()) + " key.dim: " + std::to_string(k.sizes.size()) +
                   " and value.dim: " + std::to_string(v.sizes.size()) + " instead.");
  if (maskType && maskType->dtype != DType::Bool && !dtypeIsFloating(maskType->dtype) &&
      maskType->dtype != q.dtype)
    return d.error("Expected attn_mask dtype to be bool or float or to match query dtype, but "
                   "got attn_mask.dtype: " +
                   std::string(dtypeName(maskType->dtype)) +
                   " and  query.dtype: " + std::string(dtypeName(q.dtype)) + " instead.");
  if (causal && maskType)
    return d.error("_scaled_dot_product_attention: Explicit attn_mask should not be set when "
                   "is_causal=True");
  // convert_boolean_attn_mask.
  Argument mask = d.arg("attn_mask");
  if (maskType && maskType->dtype == DType::Bool) {
    FXKIT_ASSIGN_OR_RETURN(
        auto ninf, d.scalarTensor(Argument::floating(-std::numeric_limits<double>::infinity()),
                                  q.dtype, maskType->device));
    FXKIT_ASSIGN_OR_RETURN(auto zero,
                           d.scalarTensor(Argument::floating(0.0), q.dtype, maskType->device));
    FXKIT_ASSIGN_OR_RETURN(auto m, d.call("aten.where.self", {mask, zero, ninf}));
    mask = m;
  }
  bool fourD = q.sizes.size() == 4 && k.sizes.size() == 4 && v.sizes.size() == 4;
  bool fused = fourD && dropoutP == 0;
  if (fused) {
    auto sameAll = [](const SymExpr &a, const SymExpr &b, const SymExpr &c) {
      return symEq(a, b) && symEq(a, c);
    };
    fused = sameAll(q.sizes[0], k.sizes[0], v.sizes[0]) &&
            sameAll(q.sizes[1], k.sizes[1], v.sizes[1]) &&
            sameAll(q.sizes[3], k.sizes[3], v.sizes[3]) && !symIs(q.sizes[2], 0) &&
            !symIs(k.sizes[2], 0) && symIs(q.strides[3], 1) && symIs(k.strides[3], 1) &&
            symIs(v.strides[3], 1) && (!maskType || flashTakesMask(q, k, *maskType));
    fused = fused && (q.dtype == DType::Float32 || q.dtype == DType::Float64 ||
                      q.dtype == DType::BFloat16 || q.dtype == DType::Float16);
  }
  if (fused && q.device.type == "cpu") {
    Kwargs kw{{"attn_mask", mask}};
    if (scale)
      kw.emplace_back("scale", Argument::floating(*scale));
    FXKIT_ASSIGN_OR_RETURN(auto out,
                           d.call("aten._scaled_dot_product_flash_attention_for_cpu.default",
                                  {d.arg("query"), d.arg("key"), d.arg("value"), d.arg("dropout_p"),
                                   Argument::boolean(causal)},
                                  std::move(kw)));
    return firstOutput(d, out);
  }
  if (fused && !causal) {
    Kwargs kw;
    if (scale)
      kw.emplace_back("scale", Argument::floating(*scale));
    FXKIT_ASSIGN_OR_RETURN(
        auto out, d.call("aten._scaled_dot_product_efficient_attention.default",
                         {d.arg("query"), d.arg("key"), d.arg("value"), mask,
                          Argument::boolean(false), d.arg("dropout_p"), Argument::boolean(false)},
                         std::move(kw)));
    return firstOutput(d, out);
  }
  FXKIT_ASSIGN_OR_RETURN(auto r, attentionMath(d, q, k, v, mask, dropoutP, causal, scale, gqa));
  return d.result(r);
}

// ---- Pooling ----

/// max_pool2d / max_pool3d = max_pool*_with_indices(...)[0]; max_pool1d through the 2-d op
/// on the input with a unit height (ATen's max_pool1d_with_indices).
Status decomposeMaxPool(Decomposer &d) {
  int rank = spatialRank(d);
  if (rank != 1) {
    FXKIT_ASSIGN_OR_RETURN(auto out,
                           d.call(rank == 2 ? "aten.max_pool2d_with_indices.default"
                                            : "aten.max_pool3d_with_indices.default",
                                  {d.arg("self"), d.arg("kernel_size"), d.arg("stride"),
                                   d.arg("padding"), d.arg("dilation"), d.arg("ceil_mode")}));
    return firstOutput(d, out);
  }
  FXKIT_ASSIGN_OR_RETURN(auto in, d.type(d.arg("self")));
  if (in.sizes.size() != 2 && in.sizes.size() != 3)
    return d.error("max_pool1d() Expected 2D or 3D input tensor, but got " + sizesOf(in));
  FXKIT_ASSIGN_OR_RETURN(auto kernel, d.args().intList("kernel_size"));
  FXKIT_ASSIGN_OR_RETURN(auto stride, d.args().intList("stride"));
  FXKIT_ASSIGN_OR_RETURN(auto padding, d.args().intList("padding"));
  FXKIT_ASSIGN_OR_RETURN(auto dilation, d.args().intList("dilation"));
  auto first = [](const std::optional<std::vector<int64_t>> &l, int64_t fallback) {
    return l && !l->empty() ? (*l)[0] : fallback;
  };
  int64_t k = first(kernel, 1);
  FXKIT_ASSIGN_OR_RETURN(auto u,
                         d.call("aten.unsqueeze.default", {d.arg("self"), Argument::integer(-2)}));
  FXKIT_ASSIGN_OR_RETURN(auto out,
                         d.call("aten.max_pool2d_with_indices.default",
                                {u, intListArg({1, k}), intListArg({1, first(stride, k)}),
                                 intListArg({0, first(padding, 0)}),
                                 intListArg({1, first(dilation, 1)}), d.arg("ceil_mode")}));
  FXKIT_ASSIGN_OR_RETURN(auto values, d.getitem(out, 0));
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.squeeze.dim", {values, Argument::integer(-2)}));
  return d.result(r);
}

/// adaptive_max_pool1d: adaptive_max_pool2d on the input with a unit height, both results
/// squeezed (ATen's own composite; the 2-d indices of a unit-height plane are the 1-d ones).
Status decomposeAdaptiveMaxPool1d(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto in, d.type(d.arg("self")));
  if (in.sizes.size() != 2 && in.sizes.size() != 3)
    return d.error("adaptive_max_pool1d() argument 'input' (position 1) must be 2D or 3D, but "
                   "got " +
                   sizesOf(in));
  FXKIT_ASSIGN_OR_RETURN(auto size, d.args().intList("output_size"));
  if (!size || size->size() != 1)
    return d.error("adaptive_max_pool1d(): output_size must have one entry");
  FXKIT_ASSIGN_OR_RETURN(auto u,
                         d.call("aten.unsqueeze.default", {d.arg("self"), Argument::integer(-2)}));
  FXKIT_ASSIGN_OR_RETURN(
      auto out, d.call("aten.adaptive_max_pool2d.default", {u, intListArg({1, (*size)[0]})}));
  std::vector<Argument> items;
  for (int64_t i = 0; i < 2; ++i) {
    FXKIT_ASSIGN_OR_RETURN(auto item, d.getitem(out, i));
    FXKIT_ASSIGN_OR_RETURN(auto squeezed,
                           d.call("aten.squeeze.dim", {item, Argument::integer(-2)}));
    items.push_back(squeezed);
  }
  return d.results(std::move(items));
}

/// adaptive_max_pool{2,3}d_backward: each output's gradient added at its index within its
/// input plane or volume (scatter_add over them flattened, as the kernels accumulate); 2-d in
/// self's suggested layout, 3-d contiguous.
Status decomposeAdaptiveMaxPoolBackward(Decomposer &d) {
  const size_t nd = d.args().op().schema.name == "adaptive_max_pool3d_backward" ? 3 : 2;
  const Argument &self = d.arg("self"), &grad = d.arg("grad_output"), &indices = d.arg("indices");
  FXKIT_ASSIGN_OR_RETURN(auto in, d.type(self));
  FXKIT_ASSIGN_OR_RETURN(auto g, d.type(grad));
  FXKIT_ASSIGN_OR_RETURN(auto idx, d.type(indices));
  const size_t rank = in.sizes.size();
  const std::string fn = "adaptive_max_pool" + std::to_string(nd) + "d_backward";
  if (rank != nd + 1 && rank != nd + 2)
    return d.error(fn + "(): Expected " + std::to_string(nd + 1) + "D or " +
                   std::to_string(nd + 2) + "D tensor, but got " + sizesOf(in));
  if (g.sizes.size() != rank || idx.sizes.size() != rank)
    return d.error(fn + "(): expected grad_output and indices of the input's rank " +
                   std::to_string(rank) + ", but got " + sizesOf(g) + " and " + sizesOf(idx));
  if (g.dtype != in.dtype)
    return d.error("expected dtype " + std::string(dtypeName(in.dtype)) +
                   " for `grad_output` but got dtype " + std::string(dtypeName(g.dtype)));
  if (idx.dtype != DType::Int64)
    return d.error(fn + "(): expected indices of dtype Long, but got " +
                   std::string(dtypeName(idx.dtype)));
  // [lead..., plane]: the input's and the gradient's last nd dims flattened.
  auto flat = [&](const Argument &x) -> Expected<Argument> {
    FXKIT_ASSIGN_OR_RETURN(auto sizes, d.sizes(x));
    std::vector<Argument> out(sizes.begin(), sizes.end() - static_cast<std::ptrdiff_t>(nd));
    Argument plane = Argument::integer(1);
    for (size_t i = rank - nd; i < rank; ++i) {
      FXKIT_ASSIGN_OR_RETURN(auto p, d.mul(plane, sizes[i]));
      plane = p;
    }
    out.push_back(plane);
    return Argument::list(std::move(out));
  };
  FXKIT_ASSIGN_OR_RETURN(auto inFlat, flat(self));
  FXKIT_ASSIGN_OR_RETURN(auto gFlat, flat(grad));
  FXKIT_ASSIGN_OR_RETURN(auto zeros, d.call("aten.new_zeros.default", {self, inFlat}));
  FXKIT_ASSIGN_OR_RETURN(auto g2, d.reshape(grad, gFlat.items()));
  FXKIT_ASSIGN_OR_RETURN(auto i2, d.reshape(indices, gFlat.items()));
  FXKIT_ASSIGN_OR_RETURN(
      auto sum, d.call("aten.scatter_add.default", {zeros, Argument::integer(-1), i2, g2}));
  FXKIT_ASSIGN_OR_RETURN(auto sizes, d.sizes(self));
  FXKIT_ASSIGN_OR_RETURN(auto out, d.reshape(sum, sizes));
  if (nd == 2 && rank == nd + 2 && stridesLikeChannelsLast(in.sizes, in.strides)) {
    FXKIT_ASSIGN_OR_RETURN(auto last, d.contiguous(out, "channels_last"));
    return d.result(last);
  }
  return d.result(out);
}

/// adaptive_avg_pool2d: the mean over the last two dims for a 1x1 output, else
/// _adaptive_avg_pool2d (ATen).
Status decomposeAdaptiveAvgPool2d(Decomposer &d) {
  FXKIT_ASSIGN_OR_RETURN(auto size, d.args().symIntList("output_size"));
  if (size.size() != 2)
    return d.error("adaptive_avg_pool2d: output_size must be 2");
  for (const SymExpr &s : size)
    if (s.isConstant() && s.constant() < 0)
      return d.error("adaptive_avg_pool2d: elements of output_size must be greater than or equal "
                     "to 0 but received {" +
                     size[0].str() + ", " + size[1].str() + "}");
  if (symIs(size[0], 1) && symIs(size[1], 1)) {
    FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.mean.dim", {d.arg("self"), intListArg({-1, -2}),
                                                            Argument::boolean(true)}));
    return d.result(r);
  }
  FXKIT_ASSIGN_OR_RETURN(
      auto r, d.call("aten._adaptive_avg_pool2d.default", {d.arg("self"), d.arg("output_size")}));
  return d.result(r);
}

// ---- Padding ----

/// pad(self, pad, mode, value): constant_pad_nd, reflection_pad*d or replication_pad*d by the
/// number of padded dims, circular as the concatenation of the wrapped slices (ATen's
/// _pad_enum and _pad_circular).
Status decomposePad(Decomposer &d) {
  const Argument &self = d.arg("self");
  FXKIT_ASSIGN_OR_RETURN(auto in, d.type(self));
  FXKIT_ASSIGN_OR_RETURN(auto pad, d.args().symIntList("pad"));
  const Argument &modeArg = d.arg("mode");
  std::string mode(modeArg.kind() == Argument::Kind::String ? modeArg.asString() : "");
  size_t rank = in.sizes.size();
  if (pad.size() % 2 != 0)
    return d.error("Padding length must be divisible by 2");
  if (pad.size() > rank * 2)
    return d.error("Padding length should be less than or equal to two times the input dimension "
                   "but got padding length " +
                   std::to_string(pad.size()) + " and input of dimension " + std::to_string(rank));
  if (mode == "constant") {
    Argument value = d.arg("value").isNone() ? Argument::floating(0.0) : d.arg("value");
    FXKIT_ASSIGN_OR_RETURN(auto r,
                           d.call("aten.constant_pad_nd.default", {self, d.arg("pad"), value}));
    return d.result(r);
  }
  if (mode != "reflect" && mode != "replicate" && mode != "circular")
    return d.error("Unrecognised padding mode " + mode);
  if (!d.arg("value").isNone()) {
    FXKIT_ASSIGN_OR_RETURN(auto v, d.args().floating("value"));
    if (v != 0)
      return d.error("Padding mode \"" + mode + "\" doesn't take in value argument");
  }
  size_t padded = pad.size() / 2;
  if (padded < 1 || padded > 3 || (rank != padded + 1 && rank != padded + 2))
    return d.error("Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now");
  if (mode != "circular") {
    std::string target = std::string("aten.") + (mode == "reflect" ? "reflection" : "replication") +
                         "_pad" + std::to_string(padded) + "d.default";
    FXKIT_ASSIGN_OR_RETURN(auto r, d.call(target, {self, d.arg("pad")}));
    return d.result(r);
  }
  // Circular: for each padded dim (the last first), the last `left` elements, the tensor, the
  // first `right` elements.
  const std::vector<Argument> &padArgs = d.arg("pad").items();
  Argument x = self;
  for (size_t i = 0; i < padded; ++i) {
    int64_t dim = static_cast<int64_t>(rank - 1 - i);
    const SymExpr &left = pad[2 * i], &right = pad[2 * i + 1];
    const SymExpr &size = in.sizes[dim];
    if ((left.isConstant() && left.constant() < 0) || (right.isConstant() && right.constant() < 0))
      return d.error("circular padding with a negative pad is not supported");
    if (symCompare(left, size) > 0 || symCompare(right, size) > 0)
      return d.error("Padding value causes wrapping around more than once.");
    std::vector<Argument> parts;
    FXKIT_ASSIGN_OR_RETURN(auto n, d.size(x, dim));
    if (!symIs(left, 0)) {
      FXKIT_ASSIGN_OR_RETURN(auto from, d.sub(n, padArgs[2 * i]));
      FXKIT_ASSIGN_OR_RETURN(auto l,
                             d.call("aten.slice.Tensor", {x, Argument::integer(dim), from, n}));
      parts.push_back(l);
    }
    parts.push_back(x);
    if (!symIs(right, 0)) {
      FXKIT_ASSIGN_OR_RETURN(
          auto r, d.call("aten.slice.Tensor",
                         {x, Argument::integer(dim), Argument::integer(0), padArgs[2 * i + 1]}));
      parts.push_back(r);
    }
    if (parts.size() > 1) {
      FXKIT_ASSIGN_OR_RETURN(auto c, d.call("aten.cat.default", {Argument::list(std::move(parts)),
                                                                 Argument::integer(dim)}));
      x = c;
    }
  }
  if (x.isNode() && self.isNode() && x.asNode() == self.asNode()) {
    FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.clone.default", {self}));
    return d.result(r);
  }
  return d.result(x);
}

// ---- Upsampling ----

/// upsample_nearest1d.vec / _upsample_nearest_exact1d.vec / upsample_linear1d.vec: the 2-d op on
/// the input with a unit height
/// (size 1 and scale 1 in that dim leave it as it is), squeezed back.
Status decomposeUpsample1d(Decomposer &d) {
  const std::string &name = d.args().op().schema.name;
  bool linear = name == "upsample_linear1d", exact = name == "_upsample_nearest_exact1d";
  FXKIT_ASSIGN_OR_RETURN(auto in, d.type(d.arg("input")));
  if (in.sizes.size() != 3)
    return d.error("Expected 3D input (batch, channels, length), but got input of size " +
                   sizesOf(in));
  const Argument &size = d.arg("output_size"), &scales = d.arg("scale_factors");
  Argument size2 = Argument::none(), scales2 = Argument::none();
  if (!size.isNone()) {
    std::vector<Argument> s{Argument::integer(1)};
    for (const Argument &a : size.items())
      s.push_back(a);
    size2 = Argument::list(std::move(s));
  }
  if (!scales.isNone()) {
    std::vector<Argument> s{Argument::floating(1.0)};
    for (const Argument &a : scales.items())
      s.push_back(a);
    scales2 = Argument::list(std::move(s));
  }
  FXKIT_ASSIGN_OR_RETURN(auto u,
                         d.call("aten.unsqueeze.default", {d.arg("input"), Argument::integer(-2)}));
  FXKIT_ASSIGN_OR_RETURN(
      auto out,
      linear  ? d.call("aten.upsample_bilinear2d.vec", {u, size2, d.arg("align_corners"), scales2})
      : exact ? d.call("aten._upsample_nearest_exact2d.vec", {u, size2, scales2})
              : d.call("aten.upsample_nearest2d.vec", {u, size2, scales2}));
  FXKIT_ASSIGN_OR_RETURN(auto r, d.call("aten.squeeze.dim", {out, Argument::integer(-2)}));
  return d.result(r);
}

/// upsample_nearest3d.vec / _upsample_nearest_exact3d.vec / upsample_trilinear3d.vec: both
/// interpolations are separable, so the 2-d op twice: over (H, W) with depth folded into the
/// channels, then over (D, H' W') with the upsampled rows flattened (size H' W' and scale 1
/// there leave them as they are, aligned or not); a channels-last input gives a channels-last
/// result, as PyTorch's kernels suggest. Trilinear's half and bfloat16 inputs pass between the
/// two in float, as PyTorch's kernel sums in float (opmath).
Status decomposeUpsample3d(Decomposer &d) {
  const std::string &name = d.args().op().schema.name;
  const bool linear = name == "upsample_trilinear3d";
  const std::string_view op2d = linear ? "aten.upsample_bilinear2d.vec"
                                : name == "_upsample_nearest_exact3d"
                                    ? "aten._upsample_nearest_exact2d.vec"
                                    : "aten.upsample_nearest2d.vec";
  const Argument &input = d.arg("input");
  FXKIT_ASSIGN_OR_RETURN(auto in, d.type(input));
  if (in.sizes.size() != 5)
    return d.error("Expected 5D input (batch, channels, depth, height, width), but got input of "
                   "size " +
                   sizesOf(in));
  const Argument &size = d.arg("output_size"), &scales = d.arg("scale_factors");
  if (size.isNone() == scales.isNone())
    return d.error("Must specify exactly one of output_size and scale_factors");
  const std::vector<Argument> &given = size.isNone() ? scales.items() : size.items();
  if (given.size() != 3)
    return d.error(std::string(size.isNone() ? "It is expected scale_factors to have 3 entries"
                                             : "It is expected output_size equals to 3") +
                   ", but got " + std::to_string(given.size()));
  if (linear && !dtypeIsFloating(in.dtype))
    return d.error("\"upsample_trilinear3d_out_frame\" not implemented for '" +
                   std::string(dtypeScalarTypeName(in.dtype)) + "'");
  const bool widen = linear && (in.dtype == DType::Float16 || in.dtype == DType::BFloat16);
  Argument x = input;
  if (widen) {
    FXKIT_ASSIGN_OR_RETURN(auto wide, d.convert(input, DType::Float32));
    x = wide;
  }
  auto call2d = [&](const Argument &t, Argument sizes, Argument factors) {
    return linear ? d.call(op2d, {t, std::move(sizes), d.arg("align_corners"), std::move(factors)})
                  : d.call(op2d, {t, std::move(sizes), std::move(factors)});
  };
  FXKIT_ASSIGN_OR_RETURN(auto dims, d.sizes(input));
  FXKIT_ASSIGN_OR_RETURN(auto cd, d.mul(dims[1], dims[2]));
  FXKIT_ASSIGN_OR_RETURN(auto folded, d.reshape(x, {dims[0], cd, dims[3], dims[4]}));
  auto pair = [&](Argument a, Argument b) { return Argument::list({std::move(a), std::move(b)}); };
  FXKIT_ASSIGN_OR_RETURN(auto rows,
                         call2d(folded, size.isNone() ? Argument::none() : pair(given[1], given[2]),
                                scales.isNone() ? Argument::none() : pair(given[1], given[2])));
  FXKIT_ASSIGN_OR_RETURN(auto rowSizes, d.sizes(rows));
  FXKIT_ASSIGN_OR_RETURN(auto hw, d.mul(rowSizes[2], rowSizes[3]));
  FXKIT_ASSIGN_OR_RETURN(auto flat, d.reshape(rows, {dims[0], dims[1], dims[2], hw}));
  FXKIT_ASSIGN_OR_RETURN(
      auto depth,
      call2d(flat, size.isNone() ? Argument::none() : pair(given[0], hw),
             scales.isNone() ? Argument::none() : pair(given[0], Argument::floating(1.0))));
  FXKIT_ASSIGN_OR_RETURN(auto depthSizes, d.sizes(depth));
  FXKIT_ASSIGN_OR_RETURN(
      auto out, d.reshape(depth, {dims[0], dims[1], depthSizes[2], rowSizes[2], rowSizes[3]}));
  if (widen) {
    FXKIT_ASSIGN_OR_RETURN(auto narrow, d.convert(out, in.dtype));
    out = narrow;
  }
  if (stridesLikeChannelsLast(in.sizes, in.strides)) {
    FXKIT_ASSIGN_OR_RETURN(auto last, d.contiguous(out, "channels_last_3d"));
    return d.result(last);
  }
  return d.result(out);
}

/// upsample_nearest2d_backward / _upsample_nearest_exact2d_backward: each output's gradient
/// added at the pixel it copied (index_put accumulating over the source index of each axis).
/// The indices are the forward's (nearestSourceIndex, nearestExactSourceIndex) as tensor ops in
/// float, as PyTorch computes them: o * s or (o + 0.5) * s floored, at most in - 1, with s =
/// 1 / scale where given, else in / out; nearest's equal sizes and doublings are exact.
Status decomposeUpsampleNearestBackward(Decomposer &d) {
  const bool exact = d.args().op().schema.name == "_upsample_nearest_exact2d_backward";
  const Argument &grad = d.arg("grad_output");
  FXKIT_ASSIGN_OR_RETURN(auto g, d.type(grad));
  FXKIT_ASSIGN_OR_RETURN(auto outputSize, d.args().symIntList("output_size"));
  FXKIT_ASSIGN_OR_RETURN(auto inputSize, d.args().symIntList("input_size"));
  if (outputSize.size() != 2 || inputSize.size() != 4)
    return d.error("It is expected output_size equals to 2 and input_size equals to 4, but got "
                   "size " +
                   std::to_string(outputSize.size()) + " and " + std::to_string(inputSize.size()));
  const Sizes expected{inputSize[0], inputSize[1], outputSize[0], outputSize[1]};
  if (g.sizes.size() != 4 || !std::equal(expected.begin(), expected.end(), g.sizes.begin(),
                                         [](const SymExpr &a, const SymExpr &b) {
                                           return !a.isConstant() || !b.isConstant() ||
                                                  a.constant() == b.constant();
                                         }))
    return d.error("Expected grad_output to have the same shape as output: " + sizesOf(g) +
                   " for an output of " + sizesText(expected));
  std::vector<Argument> indices = {Argument::none(), Argument::none()};
  const char *scaleNames[2] = {"scales_h", "scales_w"};
  for (size_t a = 0; a < 2; ++a) {
    const SymExpr &inSize = inputSize[2 + a], &outSize = outputSize[a];
    if (!inSize.isConstant() || !outSize.isConstant())
      return d.error("upsampling gradients of symbolic sizes are not supported");
    const int64_t in = inSize.constant(), out = outSize.constant();
    std::optional<double> scale; // compute_scales_value takes only positive scales
    if (!d.arg(scaleNames[a]).isNone()) {
      FXKIT_ASSIGN_OR_RETURN(double f, d.args().floating(scaleNames[a]));
      if (f > 0)
        scale = f;
    }
    Argument idx;
    if (!exact && (out == in || out == 2 * in)) {
      FXKIT_ASSIGN_OR_RETURN(auto o, d.arange(Argument::integer(out), g.device));
      idx = o;
      if (out == 2 * in) {
        FXKIT_ASSIGN_OR_RETURN(auto half,
                               d.call("aten.floor_divide.default", {o, Argument::integer(2)}));
        idx = half;
      }
    } else {
      FXKIT_ASSIGN_OR_RETURN(auto o, d.arange(Argument::integer(out), g.device, DType::Float32));
      Argument at = o;
      if (exact) {
        FXKIT_ASSIGN_OR_RETURN(auto centre,
                               d.call("aten.add.Tensor", {o, Argument::floating(0.5)}));
        at = centre;
      }
      const float s = nearestScale(in, out, scale);
      FXKIT_ASSIGN_OR_RETURN(auto scaled, d.call("aten.mul.Tensor", {at, Argument::floating(s)}));
      FXKIT_ASSIGN_OR_RETURN(auto floored, d.call("aten.floor.default", {scaled}));
      FXKIT_ASSIGN_OR_RETURN(auto whole, d.convert(floored, DType::Int64));
      FXKIT_ASSIGN_OR_RETURN(
          auto capped,
          d.call("aten.clamp.default", {whole, Argument::none(), Argument::integer(in - 1)}));
      idx = capped;
    }
    if (a == 0) {
      FXKIT_ASSIGN_OR_RETURN(auto column,
                             d.call("aten.unsqueeze.default", {idx, Argument::integer(-1)}));
      idx = column;
    }
    indices.push_back(idx);
  }
  std::vector<Argument> sizes;
  for (const SymExpr &s : inputSize) {
    if (!s.isConstant())
      return d.error("upsampling gradients of symbolic sizes are not supported");
    sizes.push_back(Argument::integer(s.constant()));
  }
  FXKIT_ASSIGN_OR_RETURN(
      auto zeros, d.call("aten.new_zeros.default", {grad, Argument::list(std::move(sizes))}));
  FXKIT_ASSIGN_OR_RETURN(
      auto r, d.call("aten.index_put.default",
                     {zeros, Argument::list(std::move(indices)), grad, Argument::boolean(true)}));
  return d.result(r);
}

/// upsample_{nearest,linear}1d.default, upsample_{nearest,bilinear,bicubic}2d.default,
/// upsample_{nearest,trilinear}3d.default and _upsample_nearest_exact{1,2,3}d.default, which the
/// .vec forms' CompositeImplicitAutograd decompositions call (so torch.compile's graphs hold them):
/// the .vec form with the scales where they are given (PyTorch's source index then uses
/// 1 / scale, which the .vec form takes from its scale factors, and its output size floor(input
/// size x scale) must be the one given), else with the output size.
Status decomposeUpsampleDefault(Decomposer &d) {
  const std::string &name = d.args().op().schema.name;
  // (Linear and cubic interpolation take align_corners.)
  const bool linear =
      name.find("linear") != std::string::npos || name.find("cubic") != std::string::npos;
  FXKIT_ASSIGN_OR_RETURN(auto in, d.type(d.arg("self")));
  const size_t spatial = name.ends_with("3d") ? 3 : name.ends_with("2d") ? 2 : 1;
  if (in.sizes.size() != spatial + 2)
    return d.error("Expected " + std::to_string(spatial + 2) + "D input, but got input of size " +
                   sizesOf(in));
  const std::vector<std::string_view> scaleNames =
      spatial == 3   ? std::vector<std::string_view>{"scales_d", "scales_h", "scales_w"}
      : spatial == 2 ? std::vector<std::string_view>{"scales_h", "scales_w"}
                     : std::vector<std::string_view>{"scales"};
  size_t given = 0;
  for (std::string_view s : scaleNames)
    given += d.arg(s).isNone() ? 0 : 1;
  if (given != 0 && given != spatial)
    return d.error("upsampling with a scale for only some of its dimensions is not supported");
  Argument size = d.arg("output_size"), scales = Argument::none();
  if (given) {
    std::vector<Argument> factors;
    for (size_t i = 0; i < spatial; ++i) {
      FXKIT_ASSIGN_OR_RETURN(double f, d.args().floating(scaleNames[i]));
      FXKIT_ASSIGN_OR_RETURN(SymExpr out, d.symValue(size.items().at(i)));
      const SymExpr &inSize = in.sizes[2 + i];
      if (inSize.isConstant() && out.isConstant() &&
          static_cast<int64_t>(static_cast<double>(inSize.constant()) * f) != out.constant())
        return d.error("an output size of " + out.str() + " with a scale of " + std::to_string(f) +
                       " for an input size of " + inSize.str() +
                       " is not supported (the size the scale gives differs)");
      factors.push_back(Argument::floating(f));
    }
    size = Argument::none();
    scales = Argument::list(std::move(factors));
  }
  const std::string target =
      "aten." + std::string(name) + ".vec"; // upsample_nearest2d -> aten.upsample_nearest2d.vec
  FXKIT_ASSIGN_OR_RETURN(
      auto out, linear ? d.call(target, {d.arg("self"), size, d.arg("align_corners"), scales})
                       : d.call(target, {d.arg("self"), size, scales}));
  return d.result(out);
}

/// pixel_shuffle / pixel_unshuffle: a view exposing the factor, a permute, a reshape and a
/// clone in the suggested memory format (torch/_decomp).
Status decomposePixelShuffle(Decomposer &d) {
  bool shuffle = d.args().op().schema.name == "pixel_shuffle";
  const Argument &self = d.arg("self");
  FXKIT_ASSIGN_OR_RETURN(auto in, d.type(self));
  size_t rank = in.sizes.size();
  if (rank < 3)
    return d.error(std::string(shuffle ? "pixel_shuffle" : "pixel_unshuffle") +
                   " expects input to have at least 3 dimensions, but got input with " +
                   std::to_string(rank) + " dimension(s)");
  FXKIT_ASSIGN_OR_RETURN(auto r, d.args().integer(shuffle ? "upscale_factor" : "downscale_factor"));
  for (size_t i = rank - 3; i < rank; ++i)
    if (!in.sizes[i].isConstant())
      return d.error("pixel shuffles of symbolic sizes are not supported");
  int64_t c = in.sizes[rank - 3].constant(), h = in.sizes[rank - 2].constant(),
          w = in.sizes[rank - 1].constant();
  if (r <= 0 || (shuffle && c % (r * r) != 0) || (!shuffle && (h % r != 0 || w % r != 0)))
    return d.error(shuffle ? "pixel_shuffle expects its input's 'channel' dimension to be "
                             "divisible by the square of upscale_factor"
                           : "pixel_unshuffle expects height and width to be divisible by "
                             "downscale_factor");
  std::vector<Argument> batch;
  for (size_t i = 0; i + 3 < rank; ++i) {
    FXKIT_ASSIGN_OR_RETURN(auto s, d.size(self, static_cast<int64_t>(i)));
    batch.push_back(s);
  }
  int64_t n = static_cast<int64_t>(batch.size());
  std::vector<Argument> view = batch, out = batch;
  std::vector<int64_t> perm;
  for (int64_t i = 0; i < n; ++i)
    perm.push_back(i);
  auto I = [](int64_t v) { return Argument::integer(v); };
  if (shuffle) {
    view.insert(view.end(), {I(c / (r * r)), I(r), I(r), I(h), I(w)});
    perm.insert(perm.end(), {n, n + 3, n + 1, n + 4, n + 2});
    out.insert(out.end(), {I(c / (r * r)), I(h * r), I(w * r)});
  } else {
    view.insert(view.end(), {I(c), I(h / r), I(r), I(w / r), I(r)});
    perm.insert(perm.end(), {n, n + 2, n + 4, n + 1, n + 3});
    out.insert(out.end(), {I(c * r * r), I(h / r), I(w / r)});
  }
  FXKIT_ASSIGN_OR_RETURN(auto v,
                         d.call("aten.view.default", {self, Argument::list(std::move(view))}));
  FXKIT_ASSIGN_OR_RETURN(auto p, d.call("aten.permute.default", {v, intListArg(perm)}));
  FXKIT_ASSIGN_OR_RETURN(auto re, d.reshape(p, std::move(out)));
  std::string_view format = rank == 4 && stridesLikeChannelsLast(in.sizes, in.strides)
                                ? "channels_last"
                                : "contiguous_format";
  FXKIT_ASSIGN_OR_RETURN(auto res, d.call("aten.clone.default", {re},
                                          {{"memory_format", Argument::memoryFormat(format)}}));
  return d.result(res);
}

// clang-format off
const OpRow kRows[] = {
  // Linear
  {"torch.ops.aten.linear.default", "linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor", C::Composite, inferComposite, decomposeLinear},
  // Convolutions
  {"torch.ops.aten.conv1d.default", "conv1d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[1] stride=[1], SymInt[1] padding=[0], SymInt[1] dilation=[1], SymInt groups=1) -> Tensor", C::Composite, inferComposite, decomposeConv},
  {"torch.ops.aten.conv2d.default", "conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=[1, 1], SymInt[2] padding=[0, 0], SymInt[2] dilation=[1, 1], SymInt groups=1) -> Tensor", C::Composite, inferComposite, decomposeConv},
  {"torch.ops.aten.conv3d.default", "conv3d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[3] stride=[1, 1, 1], SymInt[3] padding=[0, 0, 0], SymInt[3] dilation=[1, 1, 1], SymInt groups=1) -> Tensor", C::Composite, inferComposite, decomposeConv},
  {"torch.ops.aten.conv1d.padding", "conv1d.padding(Tensor input, Tensor weight, Tensor? bias=None, SymInt[1] stride=[1], str padding=\"valid\", SymInt[1] dilation=[1], SymInt groups=1) -> Tensor", C::Composite, inferComposite, decomposeConvPadding},
  {"torch.ops.aten.conv2d.padding", "conv2d.padding(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=[1, 1], str padding=\"valid\", SymInt[2] dilation=[1, 1], SymInt groups=1) -> Tensor", C::Composite, inferComposite, decomposeConvPadding},
  {"torch.ops.aten.conv3d.padding", "conv3d.padding(Tensor input, Tensor weight, Tensor? bias=None, SymInt[3] stride=[1, 1, 1], str padding=\"valid\", SymInt[3] dilation=[1, 1, 1], SymInt groups=1) -> Tensor", C::Composite, inferComposite, decomposeConvPadding},
  {"torch.ops.aten.conv_transpose1d.default", "conv_transpose1d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[1] stride=[1], SymInt[1] padding=[0], SymInt[1] output_padding=[0], SymInt groups=1, SymInt[1] dilation=[1]) -> Tensor", C::Composite, inferComposite, decomposeConv},
  {"torch.ops.aten.conv_transpose2d.input", "conv_transpose2d.input(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=[1, 1], SymInt[2] padding=[0, 0], SymInt[2] output_padding=[0, 0], SymInt groups=1, SymInt[2] dilation=[1, 1]) -> Tensor", C::Composite, inferComposite, decomposeConv},
  {"torch.ops.aten.conv_transpose3d.input", "conv_transpose3d.input(Tensor input, Tensor weight, Tensor? bias=None, SymInt[3] stride=[1, 1, 1], SymInt[3] padding=[0, 0, 0], SymInt[3] output_padding=[0, 0, 0], SymInt groups=1, SymInt[3] dilation=[1, 1, 1]) -> Tensor", C::Composite, inferComposite, decomposeConv},
  // Normalisation
  {"torch.ops.aten.batch_norm.default", "batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) -> Tensor", C::Composite, inferComposite, decomposeBatchNorm},
  {"torch.ops.aten.instance_norm.default", "instance_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool use_input_stats, float momentum, float eps, bool cudnn_enabled) -> Tensor", C::Composite, inferComposite, decomposeInstanceNorm},
  {"torch.ops.aten.group_norm.default", "group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, float eps=1.0000000000000001e-05, bool cudnn_enabled=True) -> Tensor", C::Composite, inferComposite, decomposeGroupNorm},
  {"torch.ops.aten.layer_norm.default", "layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1.0000000000000001e-05, bool cudnn_enable=True) -> Tensor", C::Composite, inferComposite, decomposeLayerNorm},
  {"torch.ops.aten.rms_norm.default", "rms_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, float? eps=None) -> Tensor", C::Composite, inferComposite, decomposeRmsNorm},
  // Dropout
  {"torch.ops.aten.dropout.default", "dropout(Tensor input, float p, bool train) -> Tensor", C::Composite, inferComposite, decomposeDropout},
  {"torch.ops.aten.feature_dropout.default", "feature_dropout(Tensor input, float p, bool train) -> Tensor", C::Composite, inferComposite, decomposeOtherDropout},
  {"torch.ops.aten.alpha_dropout.default", "alpha_dropout(Tensor input, float p, bool train) -> Tensor", C::Composite, inferComposite, decomposeOtherDropout},
  {"torch.ops.aten.feature_alpha_dropout.default", "feature_alpha_dropout(Tensor input, float p, bool train) -> Tensor", C::Composite, inferComposite, decomposeOtherDropout},
  // Softmax
  {"torch.ops.aten.softmax.int", "softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", C::Composite, inferComposite, decomposeSoftmax},
  {"torch.ops.aten.log_softmax.int", "log_softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", C::Composite, inferComposite, decomposeSoftmax},
  {"torch.ops.aten._safe_softmax.default", "_safe_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", C::Composite, inferComposite, decomposeSafeSoftmax},
  // Attention
  {"torch.ops.aten.scaled_dot_product_attention.default", "scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, float dropout_p=0., bool is_causal=False, *, float? scale=None, bool enable_gqa=False) -> Tensor", C::Composite, inferComposite, decomposeSdpa},
  // Pooling
  {"torch.ops.aten.max_pool1d.default", "max_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0], int[1] dilation=[1], bool ceil_mode=False) -> Tensor", C::Composite, inferComposite, decomposeMaxPool},
  {"torch.ops.aten.max_pool2d.default", "max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> Tensor", C::Composite, inferComposite, decomposeMaxPool},
  {"torch.ops.aten.max_pool3d.default", "max_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, int[3] dilation=1, bool ceil_mode=False) -> Tensor", C::Composite, inferComposite, decomposeMaxPool},
  {"torch.ops.aten.adaptive_max_pool1d.default", "adaptive_max_pool1d(Tensor self, int[1] output_size) -> (Tensor, Tensor)", C::Composite, inferComposite, decomposeAdaptiveMaxPool1d},
  {"torch.ops.aten.adaptive_max_pool3d_backward.default", "adaptive_max_pool3d_backward(Tensor grad_output, Tensor self, Tensor indices) -> Tensor", C::Composite, inferComposite, decomposeAdaptiveMaxPoolBackward},
  {"torch.ops.aten.adaptive_max_pool2d_backward.default", "adaptive_max_pool2d_backward(Tensor grad_output, Tensor self, Tensor indices) -> Tensor", C::Composite, inferComposite, decomposeAdaptiveMaxPoolBackward},
  {"torch.ops.aten.adaptive_avg_pool2d.default", "adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor", C::Composite, inferComposite, decomposeAdaptiveAvgPool2d},
  // Padding and resampling
  {"torch.ops.aten.pad.default", "pad(Tensor self, SymInt[] pad, str mode=\"constant\", float? value=None) -> Tensor", C::Composite, inferComposite, decomposePad},
  {"torch.ops.aten.upsample_nearest1d.vec", "upsample_nearest1d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor", C::Composite, inferComposite, decomposeUpsample1d},
  {"torch.ops.aten.upsample_linear1d.vec", "upsample_linear1d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor", C::Composite, inferComposite, decomposeUpsample1d},
  {"torch.ops.aten._upsample_nearest_exact1d.vec", "_upsample_nearest_exact1d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor", C::Composite, inferComposite, decomposeUpsample1d},
  {"torch.ops.aten._upsample_nearest_exact1d.default", "_upsample_nearest_exact1d(Tensor self, SymInt[1] output_size, float? scales=None) -> Tensor", C::Composite, inferComposite, decomposeUpsampleDefault},
  {"torch.ops.aten._upsample_nearest_exact2d.default", "_upsample_nearest_exact2d(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None) -> Tensor", C::Composite, inferComposite, decomposeUpsampleDefault},
  {"torch.ops.aten.upsample_nearest1d.default", "upsample_nearest1d(Tensor self, SymInt[1] output_size, float? scales=None) -> Tensor", C::Composite, inferComposite, decomposeUpsampleDefault},
  {"torch.ops.aten.upsample_nearest2d.default", "upsample_nearest2d(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None) -> Tensor", C::Composite, inferComposite, decomposeUpsampleDefault},
  {"torch.ops.aten.upsample_linear1d.default", "upsample_linear1d(Tensor self, SymInt[1] output_size, bool align_corners, float? scales=None) -> Tensor", C::Composite, inferComposite, decomposeUpsampleDefault},
  {"torch.ops.aten.upsample_bicubic2d.default", "upsample_bicubic2d(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor", C::Composite, inferComposite, decomposeUpsampleDefault},
  {"torch.ops.aten.upsample_bilinear2d.default", "upsample_bilinear2d(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor", C::Composite, inferComposite, decomposeUpsampleDefault},
  {"torch.ops.aten.upsample_nearest3d.vec", "upsample_nearest3d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor", C::Composite, inferComposite, decomposeUpsample3d},
  {"torch.ops.aten._upsample_nearest_exact3d.vec", "_upsample_nearest_exact3d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor", C::Composite, inferComposite, decomposeUpsample3d},
  {"torch.ops.aten.upsample_nearest2d_backward.default", "upsample_nearest2d_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, float? scales_h=None, float? scales_w=None) -> Tensor", C::Composite, inferComposite, decomposeUpsampleNearestBackward},
  {"torch.ops.aten._upsample_nearest_exact2d_backward.default", "_upsample_nearest_exact2d_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, float? scales_h=None, float? scales_w=None) -> Tensor", C::Composite, inferComposite, decomposeUpsampleNearestBackward},
  {"torch.ops.aten.upsample_trilinear3d.vec", "upsample_trilinear3d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor", C::Composite, inferComposite, decomposeUpsample3d},
  {"torch.ops.aten.upsample_trilinear3d.default", "upsample_trilinear3d(Tensor self, SymInt[3] output_size, bool align_corners, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor", C::Composite, inferComposite, decomposeUpsampleDefault},
  {"torch.ops.aten.upsample_nearest3d.default", "upsample_nearest3d(Tensor self, SymInt[3] output_size, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor", C::Composite, inferComposite, decomposeUpsampleDefault},
  {"torch.ops.aten._upsample_nearest_exact3d.default", "_upsample_nearest_exact3d(Tensor self, SymInt[3] output_size, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor", C::Composite, inferComposite, decomposeUpsampleDefault},
  {"torch.ops.aten.pixel_shuffle.default", "pixel_shuffle(Tensor self, int upscale_factor) -> Tensor", C::Composite, inferComposite, decomposePixelShuffle},
  {"torch.ops.aten.pixel_unshuffle.default", "pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor", C::Composite, inferComposite, decomposePixelShuffle},
};
// clang-format on

} // namespace

std::span<const OpRow> compositeNnOpRows() { return kRows; }

} // namespace fxkit
