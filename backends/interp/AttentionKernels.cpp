/// \file Attention kernels: the scaled-dot-product attention variants Inductor leaves as extern
/// calls, and the native fast path of nn.TransformerEncoderLayer.

#include "backends/interp/AttentionArgs.h"
#include "backends/interp/ExternKernelsSupport.h"

#include "ir/Try.h"

#include <cmath>
#include <limits>

namespace fxkit::extern_kernels {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// One row of attention after its scores (`scores`, -inf where masked; `rowMax` their
/// maximum): the softmax weights exp(s - max) replace the scores, and `put(c, x)` gets
/// sum_j w_j value(j, c) / sum_j w_j for each c < width (0 when every key is masked).
/// Returns the sum of the weights (0: every key masked). A NaN score makes the row NaN, as in
/// PyTorch, where another key is unmasked (`rowMax` leaves NaNs out, so a row of NaN scores
/// and masked keys alone gives zeros, as the device kernels do).
template <typename Value, typename Put>
double softmaxTimesValues(std::vector<double> &scores, double rowMax, int64_t width, Value value,
                          Put put) {
  const int64_t n = static_cast<int64_t>(scores.size());
  double sum = 0;
  if (rowMax != -kInf)
    for (int64_t j = 0; j < n; ++j) {
      scores[j] = std::exp(scores[j] - rowMax);
      sum += scores[j];
    }
  for (int64_t c = 0; c < width; ++c) {
    double acc = 0;
    if (sum != 0) // also NaN
      for (int64_t j = 0; j < n; ++j)
        acc += scores[j] * value(j, c);
    put(c, sum != 0 ? acc / sum : 0.0);
  }
  return sum;
}

/// softmax(Q K^T * scale + mask) V for every (batch, head), written through out's strides;
/// the natural-log logsumexp of each row's scaled, masked scores goes to lse[b, h, i] when lse
/// is given. A bool mask keeps the positions where it is true (SDPA's convention); any other
/// mask is added to the scores. Causal masking is top-left aligned (key j > query i is
/// dropped). A row with every key masked gives zeros and a logsumexp of -inf.
Status attention(const KernelContext &ctx, const Tensor &q, const Tensor &k, const Tensor &v,
                 const std::optional<Tensor> &mask, bool causal, double scale, Tensor &out,
                 Tensor *lse) {
  if (q.dim() != 4 || k.dim() != 4 || v.dim() != 4)
    return ctx.error("attention expects 4-d query, key and value");
  int64_t batch = q.size(0), heads = q.size(1), m = q.size(2), e = q.size(3);
  int64_t n = k.size(2), ev = v.size(3);
  if (k.size(0) != batch || v.size(0) != batch || k.size(1) != heads || v.size(1) != heads ||
      k.size(3) != e || v.size(2) != n)
    return ctx.error("attention shapes do not match: query " + sizesStr(q.sizes()) + ", key " +
                     sizesStr(k.sizes()) + ", value " + sizesStr(v.sizes()));
  if (out.size(0) != batch || out.size(1) != heads || out.size(2) != m || out.size(3) != ev)
    return ctx.error("attention output " + sizesStr(out.sizes()) + " does not match the inputs");
  std::vector<int64_t> scoreShape{batch, heads, m, n};
  if (mask && !broadcastsTo(*mask, scoreShape))
    return ctx.error("attention mask " + sizesStr(mask->sizes()) + " does not broadcast to " +
                     sizesStr(scoreShape));
  bool boolMask = mask && mask->dtype() == DType::Bool;

  std::vector<double> scores(n);
  std::vector<int64_t> index(4);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t h = 0; h < heads; ++h)
      for (int64_t i = 0; i < m; ++i) {
        double rowMax = -kInf;
        for (int64_t j = 0; j < n; ++j) {
          double s = -kInf;
          bool keep = !(causal && j > i);
          if (keep && mask) {
            index = {b, h, i, j};
            double mv = mask->loadDouble(broadcastOffset(*mask, index));
            keep = !boolMask || mv != 0;
            if (!boolMask)
              s = mv; // the additive term; the dot product is added below
          }
          if (keep) {
            double dot = 0;
            int64_t qRow = q.storageOffset() + b * q.stride(0) + h * q.stride(1) + i * q.stride(2);
            int64_t kRow = k.storageOffset() + b * k.stride(0) + h * k.stride(1) + j * k.stride(2);
            for (int64_t c = 0; c < e; ++c)
              dot += q.loadDouble(qRow + c * q.stride(3)) * k.loadDouble(kRow + c * k.stride(3));
            s = dot * scale + (mask && !boolMask ? s : 0.0);
          }
          scores[j] = s;
          rowMax = std::max(rowMax, s);
        }
        const double sum = softmaxTimesValues(
            scores, rowMax, ev,
            [&](int64_t j, int64_t c) {
              return v.loadDouble(v.storageOffset() + b * v.stride(0) + h * v.stride(1) +
                                  j * v.stride(2) + c * v.stride(3));
            },
            [&](int64_t c, double x) {
              out.setDouble(std::vector<int64_t>{b, h, i, c}, x);
            });
        if (lse)
          lse->setDouble(std::vector<int64_t>{b, h, i}, sum != 0 ? rowMax + std::log(sum) : -kInf);
      }
  return Status::ok();
}

} // namespace

/// Outputs: attention (B, H, M, Kv), logsumexp (B, H, M rounded up to 32; padding rows +inf as
/// the CUTLASS kernel writes them; 0 columns unless compute_log_sumexp), philox seed and offset
/// (0-d int64, 0: no dropout).
Status efficientAttentionKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto q, ctx.tensor("query"));
  FXKIT_ASSIGN_OR_RETURN(auto k, ctx.tensor("key"));
  FXKIT_ASSIGN_OR_RETURN(auto v, ctx.tensor("value"));
  FXKIT_ASSIGN_OR_RETURN(auto bias, ctx.optionalTensor("attn_bias"));
  FXKIT_ASSIGN_OR_RETURN(auto computeLse, ctx.boolean("compute_log_sumexp"));
  FXKIT_ASSIGN_OR_RETURN(auto causal, ctx.boolean("is_causal"));
  FXKIT_TRY(requireNoDropout(ctx));
  FXKIT_ASSIGN_OR_RETURN(auto scale, attentionScale(ctx, q));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput(0));
  FXKIT_ASSIGN_OR_RETURN(auto lse, ctx.allocateOutput(1));
  FXKIT_ASSIGN_OR_RETURN(auto seed, ctx.allocateOutput(2));
  FXKIT_ASSIGN_OR_RETURN(auto offset, ctx.allocateOutput(3));
  if (computeLse && (lse.dim() != 3 || lse.size(2) < q.size(2)))
    return ctx.error("logsumexp " + sizesStr(lse.sizes()) + " has fewer rows than the query");
  FXKIT_TRY(attention(ctx, q, k, v, bias, causal, scale, out, computeLse ? &lse : nullptr));
  if (computeLse)
    for (int64_t b = 0; b < lse.size(0); ++b)
      for (int64_t h = 0; h < lse.size(1); ++h)
        for (int64_t i = q.size(2); i < lse.size(2); ++i)
          lse.setDouble(std::vector<int64_t>{b, h, i}, kInf);
  ctx.result.v = std::vector<std::optional<Tensor>>{std::move(out), std::move(lse), std::move(seed),
                                                    std::move(offset)};
  return Status::ok();
}

/// Outputs: attention (B, H, M, D) and logsumexp (B, H, M), both in the (B, M, H) layout
/// inferred for them.
Status flashAttentionCpuKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto q, ctx.tensor("query"));
  FXKIT_ASSIGN_OR_RETURN(auto k, ctx.tensor("key"));
  FXKIT_ASSIGN_OR_RETURN(auto v, ctx.tensor("value"));
  FXKIT_ASSIGN_OR_RETURN(auto mask, ctx.optionalTensor("attn_mask"));
  FXKIT_ASSIGN_OR_RETURN(auto causal, ctx.boolean("is_causal"));
  FXKIT_TRY(requireNoDropout(ctx));
  FXKIT_ASSIGN_OR_RETURN(auto scale, attentionScale(ctx, q));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput(0));
  FXKIT_ASSIGN_OR_RETURN(auto lse, ctx.allocateOutput(1));
  FXKIT_TRY(attention(ctx, q, k, v, mask, causal, scale, out, &lse));
  ctx.result.v = std::vector<std::optional<Tensor>>{std::move(out), std::move(lse)};
  return Status::ok();
}

namespace {

/// A row-major matrix of doubles: the transformer layer's intermediates.
struct Matrix {
  int64_t rows = 0, cols = 0;
  std::vector<double> data;
  Matrix(int64_t r, int64_t c) : rows(r), cols(c), data(static_cast<size_t>(r * c), 0.0) {}
  double &operator()(int64_t i, int64_t j) { return data[i * cols + j]; }
  double operator()(int64_t i, int64_t j) const { return data[i * cols + j]; }
};

/// x @ weight^T + bias (nn.Linear); weight is (out, in).
Expected<Matrix> linear(const KernelContext &ctx, const Matrix &x, const Tensor &weight,
                        const Tensor &bias, std::string_view what) {
  if (weight.dim() != 2 || weight.size(1) != x.cols || bias.dim() != 1 ||
      bias.size(0) != weight.size(0))
    return ctx.error(std::string(what) + ": weight " + sizesStr(weight.sizes()) + " and bias " +
                     sizesStr(bias.sizes()) + " do not fit inputs of width " +
                     std::to_string(x.cols));
  Matrix y(x.rows, weight.size(0));
  for (int64_t o = 0; o < y.cols; ++o) {
    double b = bias.loadDouble(bias.storageOffset() + o * bias.stride(0));
    std::vector<double> w(x.cols);
    for (int64_t c = 0; c < x.cols; ++c)
      w[c] =
          weight.loadDouble(weight.storageOffset() + o * weight.stride(0) + c * weight.stride(1));
    for (int64_t r = 0; r < x.rows; ++r) {
      double acc = 0;
      for (int64_t c = 0; c < x.cols; ++c)
        acc += x(r, c) * w[c];
      y(r, o) = acc + b;
    }
  }
  return y;
}

/// Layer norm over each row (biased variance), with elementwise weight and bias.
Expected<Matrix> layerNorm(const KernelContext &ctx, const Matrix &x, const Tensor &weight,
                           const Tensor &bias, double eps, std::string_view what) {
  if (weight.dim() != 1 || bias.dim() != 1 || weight.size(0) != x.cols || bias.size(0) != x.cols)
    return ctx.error(std::string(what) + ": weight and bias must have " + std::to_string(x.cols) +
                     " elements");
  Matrix y(x.rows, x.cols);
  for (int64_t r = 0; r < x.rows; ++r) {
    double mean = 0, var = 0;
    for (int64_t c = 0; c < x.cols; ++c)
      mean += x(r, c);
    mean /= static_cast<double>(x.cols);
    for (int64_t c = 0; c < x.cols; ++c)
      var += (x(r, c) - mean) * (x(r, c) - mean);
    var /= static_cast<double>(x.cols);
    double inv = 1.0 / std::sqrt(var + eps);
    for (int64_t c = 0; c < x.cols; ++c)
      y(r, c) = (x(r, c) - mean) * inv *
                    weight.loadDouble(weight.storageOffset() + c * weight.stride(0)) +
                bias.loadDouble(bias.storageOffset() + c * bias.stride(0));
  }
  return y;
}

void addInPlace(Matrix &x, const Matrix &y) {
  for (size_t i = 0; i < x.data.size(); ++i)
    x.data[i] += y.data[i];
}

} // namespace

/// aten::_transformer_encoder_layer_fwd (transformer.cpp, transformer_encoder_layer_forward):
///   x = norm_first ? LN1(src) : src
///   x = out_proj(MHA(x, x, x)) + src;            if !norm_first: x = LN1(x)
///   y = norm_first ? LN2(x) : x
///   x = linear2(act(linear1(y))) + x;            if !norm_first: x = LN2(x)
/// with act = gelu (erf form) or relu. src is batch-first (B, T, E). The attention is native
/// MHA: the packed qkv projection is split into q, k, v of num_heads heads, q is divided by
/// sqrt(head dim), and the mask goes through masked_softmax: converted to bool (nonzero =
/// masked out), shaped by mask_type (0: (T, T) source mask, 1: (B, T) key padding mask, 2 or
/// none: broadcast to (B, H, T, T)); fully masked rows give zeros.
Status transformerEncoderLayerKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto src, ctx.tensor("src"));
  FXKIT_ASSIGN_OR_RETURN(auto embedDim, ctx.integer("embed_dim"));
  FXKIT_ASSIGN_OR_RETURN(auto numHeads, ctx.integer("num_heads"));
  FXKIT_ASSIGN_OR_RETURN(auto qkvWeight, ctx.tensor("qkv_weight"));
  FXKIT_ASSIGN_OR_RETURN(auto qkvBias, ctx.tensor("qkv_bias"));
  FXKIT_ASSIGN_OR_RETURN(auto projWeight, ctx.tensor("proj_weight"));
  FXKIT_ASSIGN_OR_RETURN(auto projBias, ctx.tensor("proj_bias"));
  FXKIT_ASSIGN_OR_RETURN(auto useGelu, ctx.boolean("use_gelu"));
  FXKIT_ASSIGN_OR_RETURN(auto normFirst, ctx.boolean("norm_first"));
  FXKIT_ASSIGN_OR_RETURN(auto eps, ctx.scalar("eps"));
  FXKIT_ASSIGN_OR_RETURN(auto norm1Weight, ctx.tensor("norm_weight_1"));
  FXKIT_ASSIGN_OR_RETURN(auto norm1Bias, ctx.tensor("norm_bias_1"));
  FXKIT_ASSIGN_OR_RETURN(auto norm2Weight, ctx.tensor("norm_weight_2"));
  FXKIT_ASSIGN_OR_RETURN(auto norm2Bias, ctx.tensor("norm_bias_2"));
  FXKIT_ASSIGN_OR_RETURN(auto ffn1Weight, ctx.tensor("ffn_weight_1"));
  FXKIT_ASSIGN_OR_RETURN(auto ffn1Bias, ctx.tensor("ffn_bias_1"));
  FXKIT_ASSIGN_OR_RETURN(auto ffn2Weight, ctx.tensor("ffn_weight_2"));
  FXKIT_ASSIGN_OR_RETURN(auto ffn2Bias, ctx.tensor("ffn_bias_2"));
  FXKIT_ASSIGN_OR_RETURN(auto mask, ctx.optionalTensor("mask"));
  FXKIT_ASSIGN_OR_RETURN(auto maskType, ctx.optionalInteger("mask_type"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  if (src.dim() != 3 || src.size(2) != embedDim)
    return ctx.error("src " + sizesStr(src.sizes()) + " must be (batch, tokens, " +
                     std::to_string(embedDim) + ")");
  if (numHeads < 1 || embedDim % numHeads)
    return ctx.error("embed_dim " + std::to_string(embedDim) + " is not divisible by num_heads " +
                     std::to_string(numHeads));
  int64_t batch = src.size(0), tokens = src.size(1), headDim = embedDim / numHeads;
  std::vector<int64_t> scoreShape{batch, numHeads, tokens, tokens};
  if (mask) {
    bool ok = maskType == 0 ? mask->dim() == 2 && mask->size(0) == tokens && mask->size(1) == tokens
              : maskType == 1
                  ? mask->dim() == 2 && mask->size(0) == batch && mask->size(1) == tokens
                  : broadcastsTo(*mask, scoreShape);
    if (!ok)
      return ctx.error("mask " + sizesStr(mask->sizes()) + " does not fit mask_type " +
                       (maskType ? std::to_string(*maskType) : std::string("None")) +
                       " and attention scores " + sizesStr(scoreShape));
  }

  Matrix source(batch * tokens, embedDim);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t t = 0; t < tokens; ++t)
      for (int64_t c = 0; c < embedDim; ++c)
        source(b * tokens + t, c) = src.getDouble(std::vector<int64_t>{b, t, c});

  Matrix x = source;
  if (normFirst) {
    FXKIT_ASSIGN_OR_RETURN(auto normed, layerNorm(ctx, x, norm1Weight, norm1Bias, eps, "norm 1"));
    x = std::move(normed);
  }
  FXKIT_ASSIGN_OR_RETURN(auto qkv, linear(ctx, x, qkvWeight, qkvBias, "qkv projection"));
  if (qkv.cols != 3 * embedDim)
    return ctx.error("qkv_weight must have 3 * embed_dim rows");

  auto masked = [&](int64_t b, int64_t h, int64_t i, int64_t j) {
    if (!mask)
      return false;
    int64_t offset;
    if (maskType == 0)
      offset = mask->storageOffset() + i * mask->stride(0) + j * mask->stride(1);
    else if (maskType == 1)
      offset = mask->storageOffset() + b * mask->stride(0) + j * mask->stride(1);
    else {
      int64_t index[4] = {b, h, i, j};
      offset = broadcastOffset(*mask, index);
    }
    return mask->loadDouble(offset) != 0;
  };
  Matrix heads(batch * tokens, embedDim);
  std::vector<double> weights(tokens);
  double scale = 1.0 / std::sqrt(static_cast<double>(headDim));
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t h = 0; h < numHeads; ++h)
      for (int64_t i = 0; i < tokens; ++i) {
        double rowMax = -kInf;
        for (int64_t j = 0; j < tokens; ++j) {
          weights[j] = -kInf;
          if (masked(b, h, i, j))
            continue;
          double dot = 0;
          for (int64_t c = 0; c < headDim; ++c)
            dot += qkv(b * tokens + i, h * headDim + c) * scale *
                   qkv(b * tokens + j, embedDim + h * headDim + c);
          weights[j] = dot;
          rowMax = std::max(rowMax, dot);
        }
        softmaxTimesValues(
            weights, rowMax, headDim,
            [&](int64_t j, int64_t c) {
              return qkv(b * tokens + j, 2 * embedDim + h * headDim + c);
            },
            [&](int64_t c, double x) { heads(b * tokens + i, h * headDim + c) = x; });
      }
  FXKIT_ASSIGN_OR_RETURN(auto attended, linear(ctx, heads, projWeight, projBias, "out projection"));
  x = std::move(attended);
  addInPlace(x, source);
  if (!normFirst) {
    FXKIT_ASSIGN_OR_RETURN(auto normed, layerNorm(ctx, x, norm1Weight, norm1Bias, eps, "norm 1"));
    x = std::move(normed);
  }

  Matrix residual = x;
  if (normFirst) {
    FXKIT_ASSIGN_OR_RETURN(auto normed, layerNorm(ctx, x, norm2Weight, norm2Bias, eps, "norm 2"));
    x = std::move(normed);
  }
  FXKIT_ASSIGN_OR_RETURN(auto hidden, linear(ctx, x, ffn1Weight, ffn1Bias, "feed-forward 1"));
  for (double &value : hidden.data)
    value = useGelu ? 0.5 * value * (1.0 + std::erf(value / std::sqrt(2.0))) : std::max(value, 0.0);
  FXKIT_ASSIGN_OR_RETURN(auto ffn, linear(ctx, hidden, ffn2Weight, ffn2Bias, "feed-forward 2"));
  if (ffn.cols != embedDim)
    return ctx.error("ffn_weight_2 must have embed_dim rows");
  x = std::move(ffn);
  addInPlace(x, residual);
  if (!normFirst) {
    FXKIT_ASSIGN_OR_RETURN(auto normed, layerNorm(ctx, x, norm2Weight, norm2Bias, eps, "norm 2"));
    x = std::move(normed);
  }

  for (int64_t b = 0; b < batch; ++b)
    for (int64_t t = 0; t < tokens; ++t)
      for (int64_t c = 0; c < embedDim; ++c)
        out.setDouble(std::vector<int64_t>{b, t, c}, x(b * tokens + t, c));
  ctx.result.v = std::move(out);
  return Status::ok();
}

} // namespace fxkit::extern_kernels
