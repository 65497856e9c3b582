/// \file Reference kernels of the tensor op family (ir/ops/TensorOps.cpp): factories and *_like
/// creation, copies and conversions, baddbmm and the out= matrix products, the SDPA backward
/// ops, the *_copy views, resize_ and the symbolic queries. Result types come from shape
/// inference; kernels fill in values.

#include "backends/interp/AttentionArgs.h"
#include "backends/interp/KernelSupport.h"
#include "backends/interp/OpFamilyKernels.h"
#include "backends/interp/ScalarArgs.h"
#include "ir/Try.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <random>

namespace fxkit {
namespace tensor_kernels {

namespace {

using kernels::broadcastOffset;
using kernels::broadcastsTo;
using kernels::Number;
using kernels::numberArg;
using kernels::overflows;
using kernels::sizesStr;
using kernels::storeNumber;

constexpr double kInf = std::numeric_limits<double>::infinity();

// ---- Shared pieces ----

/// Copies src, broadcast to dst's sizes, into dst converted to dst's dtype: the same dtype
/// copies bytes (exact, NaN payloads included), integers and bools convert exactly, anything
/// else through double (floats to integers truncate toward zero, as a C++ cast does).
Status copyConverted(const KernelContext &ctx, const Tensor &src, Tensor &dst) {
  if (!broadcastsTo(src, dst.sizes()))
    return ctx.error("cannot copy a tensor of sizes " + sizesStr(src.sizes()) + " into one of " +
                     sizesStr(dst.sizes()));
  bool same = src.dtype() == dst.dtype();
  if (!same) {
    if (Status s = checkComputable(src.dtype(), "the source"); !s)
      return ctx.error(s.error().message);
    if (Status s = checkComputable(dst.dtype(), "the result"); !s)
      return ctx.error(s.error().message);
  }
  bool integral = !dtypeIsFloating(src.dtype()) && !dtypeIsFloating(dst.dtype());
  int item = src.itemSize();
  Tensor::forEachIndex(dst.sizes(), [&](std::span<const int64_t> index) {
    int64_t from = broadcastOffset(src, index), to = dst.offsetOf(index);
    if (same)
      std::memcpy(dst.storage()->data() + to * item, src.storage()->data() + from * item,
                  static_cast<size_t>(item));
    else if (integral)
      dst.storeInt(to, src.loadInt(from));
    else
      dst.storeDouble(to, src.loadDouble(from));
  });
  return Status::ok();
}

/// The out= forms: the result the kernel computed into a fresh tensor (ctx.result) is copied
/// into the given `out`, which becomes the result (it may alias an input: the product was
/// computed before anything was written).
Status moveIntoOut(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.tensor("out"));
  const Tensor *fresh = ctx.result.tensor();
  if (!fresh)
    return ctx.error("no result to write into out");
  if (fresh->sizes() != out.sizes() || fresh->dtype() != out.dtype())
    return ctx.error("out is " + std::string(dtypeName(out.dtype())) + sizesStr(out.sizes()) +
                     " but the result is " + std::string(dtypeName(fresh->dtype())) +
                     sizesStr(fresh->sizes()));
  FXKIT_TRY(copyConverted(ctx, *fresh, out));
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// Another op's kernel run on this node's context (the functional op of an out= form, the view
/// of a *_copy op): both read the same argument names.
Status runKernelOf(KernelContext &ctx, const std::string &target) {
  const OpInfo *op = OpRegistry::instance().lookup(target);
  if (!op || !op->kernel)
    return ctx.error("no kernel for '" + target + "' to run");
  return op->kernel(ctx);
}

/// The result (as inferred) with every element set to `value`.
Status fillResult(KernelContext &ctx, const Number &value) {
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  if (Status s = checkComputable(out.dtype(), "the result"); !s)
    return ctx.error(s.error().message);
  if (overflows(value, out.dtype()))
    return ctx.error("value " + value.str() + " cannot be converted to type " +
                     std::string(dtypeName(out.dtype())) + " without overflow");
  Tensor::forEachIndex(out.sizes(), [&](std::span<const int64_t> index) {
    storeNumber(out, out.offsetOf(index), value);
  });
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// The `size` argument of a factory, refused when negative (check_size_nonnegative).
Status checkSizeArg(const KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto sizes, ctx.intList("size"));
  for (int64_t s : sizes)
    if (s < 0)
      return ctx.error("Trying to create tensor with negative dimension " + std::to_string(s) +
                       ": " + sizesStr(sizes));
  return Status::ok();
}

// ---- Matrix products ----

/// baddbmm (and .out): beta * self + alpha * (batch1 @ batch2), self broadcast to the product.
/// beta == 0 ignores self (NaN in it does not propagate), as PyTorch's CPU kernel does.
/// Floats accumulate in double; integers exactly in wrapping int64 with alpha and beta
/// truncated to integers (Scalar::to).
Status baddbmmKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto b1, ctx.tensor("batch1"));
  FXKIT_ASSIGN_OR_RETURN(auto b2, ctx.tensor("batch2"));
  FXKIT_ASSIGN_OR_RETURN(auto beta, numberArg(ctx, "beta"));
  FXKIT_ASSIGN_OR_RETURN(auto alpha, numberArg(ctx, "alpha"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  if (b1.dim() != 3 || b2.dim() != 3 || b2.size(0) != b1.size(0) || b2.size(1) != b1.size(2) ||
      out.sizes() != std::vector<int64_t>{b1.size(0), b1.size(1), b2.size(2)})
    return ctx.error("batch1 " + sizesStr(b1.sizes()) + " and batch2 " + sizesStr(b2.sizes()) +
                     " cannot be multiplied into " + sizesStr(out.sizes()));
  if (!broadcastsTo(self, out.sizes()))
    return ctx.error("self " + sizesStr(self.sizes()) + " does not broadcast to " +
                     sizesStr(out.sizes()));
  if (out.dtype() == DType::Bool)
    return ctx.error("\"baddbmm\" not implemented for 'Bool'");
  bool integral = !dtypeIsFloating(out.dtype());
  int64_t ai = alpha.truncated(), bi = beta.truncated();
  double af = alpha.asDouble(), bf = beta.asDouble();
  bool useSelf = integral ? bi != 0 : bf != 0;
  int64_t depth = b1.size(2);
  Tensor::forEachIndex(out.sizes(), [&](std::span<const int64_t> index) {
    int64_t n = index[0], i = index[1], j = index[2];
    int64_t row = b1.storageOffset() + n * b1.stride(0) + i * b1.stride(1);
    int64_t col = b2.storageOffset() + n * b2.stride(0) + j * b2.stride(2);
    if (integral) {
      uint64_t acc = 0;
      for (int64_t p = 0; p < depth; ++p)
        acc += static_cast<uint64_t>(b1.loadInt(row + p * b1.stride(2))) *
               static_cast<uint64_t>(b2.loadInt(col + p * b2.stride(1)));
      uint64_t r = static_cast<uint64_t>(ai) * acc;
      if (useSelf)
        r += static_cast<uint64_t>(bi) *
             static_cast<uint64_t>(self.loadInt(broadcastOffset(self, index)));
      out.storeInt(out.offsetOf(index), static_cast<int64_t>(r));
      return;
    }
    double acc = 0;
    for (int64_t p = 0; p < depth; ++p)
      acc += b1.loadDouble(row + p * b1.stride(2)) * b2.loadDouble(col + p * b2.stride(1));
    double r = af * acc;
    if (useSelf)
      r += bf * self.loadDouble(broadcastOffset(self, index));
    out.storeDouble(out.offsetOf(index), r);
  });
  ctx.result.v = std::move(out);
  if (ctx.args.op().schema.indexOf("out") >= 0)
    return moveIntoOut(ctx);
  return Status::ok();
}

/// mm.out and bmm.out: the functional op's kernel, then the product copied into `out`.
Status productOutKernel(KernelContext &ctx) {
  std::string target(ctx.args.op().target);
  target.replace(target.rfind(".out"), 4, ".default");
  FXKIT_TRY(runKernelOf(ctx, target));
  return moveIntoOut(ctx);
}

// ---- Attention backward ----

/// What an SDPA backward reads: grad_out (B, H, M, Ev), query (B, H, M, E), key (B, H, N, E),
/// value (B, H, N, Ev), the forward's output and its natural-log logsumexp (B, H, >= M), and
/// the forward's mask (bool: keep where true; else added to the scores) and causal flag.
struct AttentionBackward {
  Tensor gradOut, q, k, v, out, lse;
  std::optional<Tensor> mask;
  bool causal = false;
  double scale = 1;
};

/// Element (b, h, i, c) of a 4-d tensor.
double at4(const Tensor &t, int64_t b, int64_t h, int64_t i, int64_t c) {
  return t.loadDouble(t.storageOffset() + b * t.stride(0) + h * t.stride(1) + i * t.stride(2) +
                      c * t.stride(3));
}

Status checkAttentionBackward(const KernelContext &ctx, const AttentionBackward &a) {
  const Tensor &q = a.q, &k = a.k, &v = a.v;
  for (const Tensor *t : {&a.gradOut, &q, &k, &v, &a.out})
    if (t->dim() != 4)
      return ctx.error("attention backward expects 4-d grad_out, query, key, value and out");
  std::vector<int64_t> outShape{q.size(0), q.size(1), q.size(2), v.size(3)};
  bool ok = k.size(0) == q.size(0) && v.size(0) == q.size(0) && k.size(1) == q.size(1) &&
            v.size(1) == q.size(1) && k.size(3) == q.size(3) && v.size(2) == k.size(2) &&
            a.gradOut.sizes() == outShape && a.out.sizes() == outShape;
  if (!ok)
    return ctx.error("attention backward shapes do not match: grad_out " +
                     sizesStr(a.gradOut.sizes()) + ", query " + sizesStr(q.sizes()) + ", key " +
                     sizesStr(k.sizes()) + ", value " + sizesStr(v.sizes()) + ", out " +
                     sizesStr(a.out.sizes()));
  if (a.lse.dim() != 3 || a.lse.size(0) != q.size(0) || a.lse.size(1) != q.size(1) ||
      a.lse.size(2) < q.size(2))
    return ctx.error("logsumexp " + sizesStr(a.lse.sizes()) +
                     " does not hold a row per query (was it computed by the forward?)");
  std::vector<int64_t> scores{q.size(0), q.size(1), q.size(2), k.size(2)};
  if (a.mask && !broadcastsTo(*a.mask, scores))
    return ctx.error("attention mask " + sizesStr(a.mask->sizes()) + " does not broadcast to " +
                     sizesStr(scores));
  return Status::ok();
}

/// Row-major index into a tensor of `sizes` (aligned with the last of (b, h, i, j)) that
/// broadcasting maps (b, h, i, j) to: where the bias gradient accumulates.
int64_t broadcastFlatIndex(std::span<const int64_t> sizes, std::span<const int64_t> index) {
  int64_t flat = 0;
  size_t lead = index.size() - sizes.size();
  for (size_t d = 0; d < sizes.size(); ++d)
    flat = flat * sizes[d] + (sizes[d] == 1 ? 0 : index[lead + d]);
  return flat;
}

/// The scaled, masked score of query i and key j, or nullopt where the position is masked out
/// (causally, by a false bool mask, or by an additive -inf).
std::optional<double> score(const AttentionBackward &a, int64_t b, int64_t h, int64_t i,
                            int64_t j) {
  if (a.causal && j > i)
    return std::nullopt;
  double s = 0;
  if (a.mask) {
    int64_t index[4] = {b, h, i, j};
    double mv = a.mask->loadDouble(broadcastOffset(*a.mask, index));
    if (a.mask->dtype() == DType::Bool && mv == 0)
      return std::nullopt;
    if (a.mask->dtype() != DType::Bool)
      s = mv;
  }
  double dot = 0;
  for (int64_t c = 0; c < a.q.size(3); ++c)
    dot += at4(a.q, b, h, i, c) * at4(a.k, b, h, j, c);
  s += dot * a.scale;
  return s == -kInf ? std::nullopt : std::optional<double>(s);
}

/// Writes a (rows, cols) row-major block of values into t[b, h].
void storeHead(Tensor &t, int64_t b, int64_t h, const std::vector<double> &values) {
  int64_t rows = t.size(2), cols = t.size(3);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t c = 0; c < cols; ++c)
      t.setDouble(std::vector<int64_t>{b, h, i, c}, values[i * cols + c]);
}

/// One (batch, head) of attentionBackward; the mask gradient accumulates into biasGrad (indexed
/// as gbias) when gbias is given.
void headBackward(const AttentionBackward &a, int64_t b, int64_t h, Tensor &gq, Tensor &gk,
                  Tensor &gv, const Tensor *gbias, std::vector<double> &biasGrad) {
  int64_t m = a.q.size(2), n = a.k.size(2), e = a.q.size(3), ev = a.v.size(3);
  std::vector<double> dq(m * e, 0.0), dk(n * e, 0.0), dv(n * ev, 0.0);
  for (int64_t i = 0; i < m; ++i) {
    double lse = a.lse.getDouble(std::vector<int64_t>{b, h, i});
    if (lse == -kInf) // every key masked: the row's output was 0 and depends on nothing
      continue;
    double d = 0;
    for (int64_t c = 0; c < ev; ++c)
      d += at4(a.gradOut, b, h, i, c) * at4(a.out, b, h, i, c);
    for (int64_t j = 0; j < n; ++j) {
      std::optional<double> s = score(a, b, h, i, j);
      if (!s)
        continue;
      double p = std::exp(*s - lse), dp = 0;
      for (int64_t c = 0; c < ev; ++c) {
        double g = at4(a.gradOut, b, h, i, c);
        dp += g * at4(a.v, b, h, j, c);
        dv[j * ev + c] += p * g;
      }
      double ds = p * (dp - d);
      for (int64_t c = 0; c < e; ++c) {
        dq[i * e + c] += ds * a.scale * at4(a.k, b, h, j, c);
        dk[j * e + c] += ds * a.scale * at4(a.q, b, h, i, c);
      }
      if (gbias) {
        int64_t index[4] = {b, h, i, j};
        biasGrad[broadcastFlatIndex(gbias->sizes(), index)] += ds;
      }
    }
  }
  storeHead(gq, b, h, dq);
  storeHead(gk, b, h, dk);
  storeHead(gv, b, h, dv);
}

/// Gradients of O = softmax(S) V with S = Q K^T * scale + mask, from the forward's logsumexp L:
///   P = exp(S - L),  dV = P^T dO,  dP = dO V^T,  D = rowsum(dO * O),  dS = P * (dP - D),
///   dQ = dS K * scale,  dK = dS^T Q * scale,  dMask = dS (summed over broadcast dimensions).
/// Masked positions (and rows whose logsumexp is -inf) have P = 0 and contribute nothing.
Status attentionBackward(const KernelContext &ctx, const AttentionBackward &a, Tensor &gq,
                         Tensor &gk, Tensor &gv, Tensor *gbias) {
  FXKIT_TRY(checkAttentionBackward(ctx, a));
  if (gbias && a.mask && a.mask->dtype() == DType::Bool)
    return ctx.error("a boolean attention mask has no gradient");
  std::vector<double> biasGrad(gbias ? static_cast<size_t>(gbias->numel()) : 0, 0.0);
  for (int64_t b = 0; b < a.q.size(0); ++b)
    for (int64_t h = 0; h < a.q.size(1); ++h)
      headBackward(a, b, h, gq, gk, gv, gbias, biasGrad);
  if (gbias) {
    size_t next = 0;
    Tensor::forEachIndex(gbias->sizes(), [&](std::span<const int64_t> index) {
      gbias->setDouble(index, biasGrad[next++]);
    });
  }
  return Status::ok();
}

/// The bool[4] grad_input_mask's last entry: whether attn_bias's gradient is wanted.
Expected<bool> wantsBiasGrad(const KernelContext &ctx) {
  const Argument &mask = ctx.args.get("grad_input_mask");
  if (mask.items().size() != 4)
    return ctx.error("grad_input_mask must hold 4 bools");
  const Argument &last = mask.items()[3];
  return last.kind() == Argument::Kind::Bool ? last.asBool() : last.asInt() != 0;
}

/// Both SDPA backward kernels: their tensors read (`grad` and `mask` name grad_out and the mask
/// in the kernel's schema), no dropout, the scale, then dQ, dK, dV as results 0-2. With
/// `biasGradResult` (efficient attention) the fourth result is attn_bias's gradient: computed
/// where there is a bias and grad_input_mask wants it, else None.
Status attentionBackwardResults(KernelContext &ctx, std::string_view grad, std::string_view mask,
                                bool biasGradResult) {
  AttentionBackward a;
  FXKIT_ASSIGN_OR_RETURN(a.gradOut, ctx.tensor(grad));
  FXKIT_ASSIGN_OR_RETURN(a.q, ctx.tensor("query"));
  FXKIT_ASSIGN_OR_RETURN(a.k, ctx.tensor("key"));
  FXKIT_ASSIGN_OR_RETURN(a.v, ctx.tensor("value"));
  FXKIT_ASSIGN_OR_RETURN(a.out, ctx.tensor("out"));
  FXKIT_ASSIGN_OR_RETURN(a.lse, ctx.tensor("logsumexp"));
  FXKIT_ASSIGN_OR_RETURN(a.causal, ctx.boolean("is_causal"));
  FXKIT_ASSIGN_OR_RETURN(a.mask, ctx.optionalTensor(mask));
  std::optional<bool> biasGrad;
  if (biasGradResult) {
    FXKIT_ASSIGN_OR_RETURN(biasGrad, wantsBiasGrad(ctx));
  }
  FXKIT_TRY(requireNoDropout(ctx));
  FXKIT_ASSIGN_OR_RETURN(a.scale, attentionScale(ctx, a.q));
  FXKIT_ASSIGN_OR_RETURN(auto gq, ctx.allocateOutput(0));
  FXKIT_ASSIGN_OR_RETURN(auto gk, ctx.allocateOutput(1));
  FXKIT_ASSIGN_OR_RETURN(auto gv, ctx.allocateOutput(2));
  std::optional<Tensor> gb;
  if (a.mask && biasGrad.value_or(false)) {
    FXKIT_ASSIGN_OR_RETURN(auto t, ctx.allocateOutput(3));
    gb = t;
  }
  FXKIT_TRY(attentionBackward(ctx, a, gq, gk, gv, gb ? &*gb : nullptr));
  std::vector<std::optional<Tensor>> results{std::move(gq), std::move(gk), std::move(gv)};
  if (biasGrad)
    results.push_back(std::move(gb));
  ctx.result.v = std::move(results);
  return Status::ok();
}

Status efficientAttentionBackwardKernel(KernelContext &ctx) {
  return attentionBackwardResults(ctx, "grad_out_", "attn_bias", true);
}

Status flashAttentionCpuBackwardKernel(KernelContext &ctx) {
  return attentionBackwardResults(ctx, "grad_out", "attn_mask", false);
}

// ---- Copies ----

/// lift_fresh_copy and _to_copy: self's elements in the inferred result (layout, dtype).
Status copySelfKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  FXKIT_TRY(copyConverted(ctx, self, out));
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// copy(self, src): a tensor laid out as self holding src broadcast and converted to self's
/// dtype.
Status copyKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto src, ctx.tensor("src"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  if (out.sizes() != self.sizes())
    return ctx.error("self is " + sizesStr(self.sizes()) + " but the result " +
                     sizesStr(out.sizes()));
  FXKIT_TRY(copyConverted(ctx, src, out));
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// as_strided_copy, squeeze_copy.*: the view op's kernel, then its elements copied into the
/// contiguous result.
Status viewCopyKernel(KernelContext &ctx) {
  std::string target(ctx.args.op().target);
  target.erase(target.rfind("_copy."), 5);
  FXKIT_TRY(runKernelOf(ctx, target));
  const Tensor *view = ctx.result.tensor();
  if (!view)
    return ctx.error("the view gave no tensor");
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  FXKIT_TRY(copyConverted(ctx, *view, out));
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// _unsafe_index: index.Tensor's kernel (PyTorch skips the bounds checks; an index out of range
/// is still an error here rather than undefined behaviour).
Status unsafeIndexKernel(KernelContext &ctx) {
  return runKernelOf(ctx, "torch.ops.aten.index.Tensor");
}

/// diagonal_copy: the diagonal as a strided view of self (dims dim1 and dim2 replaced by a
/// last one stepping both), copied into the result.
Status diagonalCopyKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto offset, ctx.integer("offset"));
  FXKIT_ASSIGN_OR_RETURN(auto dim1, ctx.integer("dim1"));
  FXKIT_ASSIGN_OR_RETURN(auto dim2, ctx.integer("dim2"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  int64_t rank = self.dim();
  if (rank < 2)
    return ctx.error("diagonal expects a tensor of at least 2 dimensions");
  int64_t d1 = dim1 < 0 ? dim1 + rank : dim1, d2 = dim2 < 0 ? dim2 + rank : dim2;
  if (d1 < 0 || d1 >= rank || d2 < 0 || d2 >= rank || d1 == d2)
    return ctx.error("bad diagonal dimensions " + std::to_string(dim1) + ", " +
                     std::to_string(dim2) + " of a " + std::to_string(rank) + "-d tensor");
  int64_t rows = self.size(d1), cols = self.size(d2);
  int64_t length = std::max<int64_t>(0, offset >= 0 ? std::min(rows, cols - offset)
                                                    : std::min(rows + offset, cols));
  std::vector<int64_t> sizes, strides;
  for (int64_t d = 0; d < rank; ++d)
    if (d != d1 && d != d2) {
      sizes.push_back(self.size(d));
      strides.push_back(self.stride(d));
    }
  sizes.push_back(length);
  strides.push_back(self.stride(d1) + self.stride(d2));
  int64_t start = self.storageOffset();
  if (length > 0)
    start += offset >= 0 ? offset * self.stride(d2) : -offset * self.stride(d1);
  auto diagonal = self.asStrided(sizes, strides, start);
  if (!diagonal)
    return ctx.error(diagonal.error().message);
  FXKIT_TRY(copyConverted(ctx, *diagonal, out));
  ctx.result.v = std::move(out);
  return Status::ok();
}

// ---- Filling and creation ----

Status fillScalarKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto value, numberArg(ctx, "value"));
  return fillResult(ctx, value);
}

/// fill.Tensor: the 0-d value's element (value.item()), converted as a Scalar.
Status fillTensorKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto value, ctx.tensor("value"));
  if (value.dim() != 0)
    return ctx.error("fill_ only supports 0-dimension value tensor but got tensor with " +
                     std::to_string(value.dim()) + " dimensions.");
  if (Status s = checkComputable(value.dtype(), "the value"); !s)
    return ctx.error(s.error().message);
  bool floating = dtypeIsFloating(value.dtype());
  Number n{floating, floating ? 0 : value.loadInt(value.storageOffset()),
           floating ? value.loadDouble(value.storageOffset()) : 0};
  return fillResult(ctx, n);
}

Status fullLikeKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto value, numberArg(ctx, "fill_value"));
  return fillResult(ctx, value);
}

/// Fills with a constant. empty, empty_like and empty_strided give zeros: PyTorch leaves them
/// uninitialized, and any defined value keeps results deterministic.
template <int64_t Value> Status constantKernel(KernelContext &ctx) {
  if (ctx.args.op().schema.indexOf("size") >= 0)
    FXKIT_TRY(checkSizeArg(ctx));
  return fillResult(ctx, Number{false, Value, 0});
}

/// arange: start + i * step computed in the result's accumulate type, as the CPU kernel does:
/// int64 for integers (bounds truncated toward zero, wrapping), double for float32/float64,
/// float for float16/bfloat16. The length is the inferred one.
Status arangeKernel(KernelContext &ctx) {
  Number start{false, 0, 0}, step{false, 1, 0};
  FXKIT_ASSIGN_OR_RETURN(auto end, numberArg(ctx, "end"));
  if (ctx.args.op().schema.indexOf("start") >= 0) {
    FXKIT_ASSIGN_OR_RETURN(auto s, numberArg(ctx, "start"));
    start = s;
  }
  if (ctx.args.op().schema.indexOf("step") >= 0) {
    FXKIT_ASSIGN_OR_RETURN(auto s, numberArg(ctx, "step"));
    step = s;
  }
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  if (Status s = checkComputable(out.dtype(), "the result"); !s)
    return ctx.error(s.error().message);
  bool integral = !dtypeIsFloating(out.dtype());
  double s0 = integral ? start.truncated() : start.asDouble();
  double e0 = integral ? end.truncated() : end.asDouble();
  double st = integral ? step.truncated() : step.asDouble();
  if (st == 0)
    return ctx.error("step must be nonzero");
  if (!((st > 0 && e0 >= s0) || (st < 0 && e0 <= s0)))
    return ctx.error("upper bound and lower bound inconsistent with step sign");
  if (out.dim() != 1)
    return ctx.error("arange result of sizes " + sizesStr(out.sizes()));
  bool halfAcc = out.dtype() == DType::Float16 || out.dtype() == DType::BFloat16;
  for (int64_t i = 0; i < out.size(0); ++i) {
    int64_t offset = out.storageOffset() + i * out.stride(0);
    if (integral)
      out.storeInt(offset, static_cast<int64_t>(static_cast<uint64_t>(start.truncated()) +
                                                static_cast<uint64_t>(i) *
                                                    static_cast<uint64_t>(step.truncated())));
    else if (halfAcc)
      out.storeDouble(offset, static_cast<float>(start.asDouble()) +
                                  static_cast<float>(step.asDouble()) * static_cast<float>(i));
    else
      out.storeDouble(offset, start.asDouble() + step.asDouble() * static_cast<double>(i));
  }
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// The generator of randperm's node (rand, randn and dropout are Philox: RandomKernels.cpp):
/// std::mt19937_64 (its sequence is fixed by the C++ standard, unlike the library's
/// distributions, which are done here) seeded with the FNV-1a hash of the node's name. Runs
/// are reproducible and two random nodes differ; PyTorch's own generator streams are not
/// reproduced.
std::mt19937_64 generatorFor(const KernelContext &ctx) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (char c : ctx.node().name())
    hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return std::mt19937_64(hash);
}

/// randperm: a uniformly random permutation of 0 .. n-1 (Fisher-Yates, unbiased draws).
Status randpermKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto n, ctx.integer("n"));
  if (n < 0)
    return ctx.error("n must be non-negative, got" + std::to_string(n));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  if (Status s = checkComputable(out.dtype(), "the result"); !s)
    return ctx.error(s.error().message);
  if (out.dim() != 1 || out.size(0) != n)
    return ctx.error("randperm result " + sizesStr(out.sizes()) + " for n = " + std::to_string(n));
  std::vector<int64_t> perm(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    perm[i] = i;
  std::mt19937_64 gen = generatorFor(ctx);
  for (int64_t i = n - 1; i > 0; --i) {
    uint64_t range = static_cast<uint64_t>(i) + 1;
    uint64_t limit =
        std::numeric_limits<uint64_t>::max() - std::numeric_limits<uint64_t>::max() % range;
    uint64_t x;
    do
      x = gen();
    while (x >= limit);
    std::swap(perm[i], perm[x % range]);
  }
  for (int64_t i = 0; i < n; ++i)
    out.storeInt(out.storageOffset() + i * out.stride(0), perm[i]);
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// resize_: self's storage viewed with the new sizes and the inferred strides from self's
/// storage offset. A larger size grows the storage: the old bytes are kept and new elements
/// are zero (PyTorch leaves them uninitialized). A grown storage is a new one, so other views
/// of self do not see it, unlike PyTorch's.
Status resizeKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_TRY(checkSizeArg(ctx));
  FXKIT_ASSIGN_OR_RETURN(auto types, ctx.outputTypes());
  std::vector<int64_t> sizes, strides;
  for (const SymExpr &e : types[0].sizes) {
    FXKIT_ASSIGN_OR_RETURN(auto v, e.evaluate(ctx.bindings));
    sizes.push_back(v);
  }
  for (const SymExpr &e : types[0].strides) {
    FXKIT_ASSIGN_OR_RETURN(auto v, e.evaluate(ctx.bindings));
    strides.push_back(v);
  }
  int64_t numel = 1;
  for (int64_t s : sizes)
    numel *= s;
  int64_t item = self.itemSize();
  int64_t available = static_cast<int64_t>(self.storage()->size()) / item;
  Tensor base = self;
  if (self.storageOffset() + numel > available) {
    FXKIT_ASSIGN_OR_RETURN(auto grown, Tensor::zeros(self.dtype(), {self.storageOffset() + numel}));
    std::memcpy(grown.storage()->data(), self.storage()->data(), self.storage()->size());
    base = grown;
  }
  auto view = base.asStrided(sizes, strides, self.storageOffset());
  if (!view)
    return ctx.error(view.error().message);
  ctx.result.v = view.take();
  return Status::ok();
}

// ---- Symbolic queries ----

Status symNumelKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  ctx.result.v = self.numel();
  return Status::ok();
}

Status symStrideKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, ctx.integer("dim"));
  int64_t d = dim < 0 ? dim + self.dim() : dim;
  if (d < 0 || d >= self.dim())
    return ctx.error("dim " + std::to_string(dim) + " out of range for a " +
                     std::to_string(self.dim()) + "-d tensor");
  ctx.result.v = self.stride(d);
  return Status::ok();
}

Status symStorageOffsetKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  ctx.result.v = self.storageOffset();
  return Status::ok();
}

} // namespace
} // namespace tensor_kernels

void registerTensorKernels() {
  using namespace tensor_kernels;
  static const std::pair<std::string_view, KernelFn> table[] = {
      {"torch.ops.aten.baddbmm.default", baddbmmKernel},
      {"torch.ops.aten.baddbmm.out", baddbmmKernel},
      {"torch.ops.aten.mm.out", productOutKernel},
      {"torch.ops.aten.bmm.out", productOutKernel},
      {"torch.ops.aten._scaled_dot_product_efficient_attention_backward.default",
       efficientAttentionBackwardKernel},
      {"torch.ops.aten._scaled_dot_product_flash_attention_for_cpu_backward.default",
       flashAttentionCpuBackwardKernel},
      {"torch.ops.aten.lift_fresh_copy.default", copySelfKernel},
      {"torch.ops.aten.copy.default", copyKernel},
      {"torch.ops.aten._to_copy.default", copySelfKernel},
      {"torch.ops.aten.as_strided_copy.default", viewCopyKernel},
      {"torch.ops.aten.squeeze_copy.default", viewCopyKernel},
      {"torch.ops.aten.squeeze_copy.dim", viewCopyKernel},
      {"torch.ops.aten.squeeze_copy.dims", viewCopyKernel},
      {"torch.ops.aten.diagonal_copy.default", diagonalCopyKernel},
      {"torch.ops.aten._unsafe_index.Tensor", unsafeIndexKernel},
      {"torch.ops.aten.fill.Scalar", fillScalarKernel},
      {"torch.ops.aten.fill.Tensor", fillTensorKernel},
      {"torch.ops.aten.full_like.default", fullLikeKernel},
      {"torch.ops.aten.zeros_like.default", constantKernel<0>},
      {"torch.ops.aten.ones_like.default", constantKernel<1>},
      {"torch.ops.aten.empty_like.default", constantKernel<0>},
      {"torch.ops.aten.empty.memory_format", constantKernel<0>},
      {"torch.ops.aten.empty_strided.default", constantKernel<0>},
      {"torch.ops.aten.zeros.default", constantKernel<0>},
      {"torch.ops.aten.ones.default", constantKernel<1>},
      {"torch.ops.aten.arange.default", arangeKernel},
      {"torch.ops.aten.arange.start", arangeKernel},
      {"torch.ops.aten.arange.start_step", arangeKernel},
      {"torch.ops.aten.randperm.default", randpermKernel},
      {"torch.ops.aten.resize_.default", resizeKernel},
      {"torch.ops.aten.sym_numel.default", symNumelKernel},
      {"torch.ops.aten.sym_stride.int", symStrideKernel},
      {"torch.ops.aten.sym_storage_offset.default", symStorageOffsetKernel},
  };
  kernels::registerKernelList(table);
}

} // namespace fxkit
