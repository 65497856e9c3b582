/// \file Scaled dot-product attention forward on the device: `_scaled_dot_product_flash_
/// attention_for_cpu` and `_scaled_dot_product_efficient_attention` (dropout 0), with the
/// reference kernels' semantics (backends/interp/AttentionKernels.cpp): softmax(Q K^T * scale +
/// mask) V per (batch, head) with the natural-log logsumexp of each row; a bool mask keeps the
/// positions where it is true, any other mask is added; causal masking is top-left aligned; a
/// row with every key masked gives zeros and a logsumexp of -inf; the efficient kernel's
/// logsumexp rows past the query length are +inf, its philox seed and offset 0.
///
/// One row per query (batch, head, query index) with an online softmax (running maximum, sum
/// and weighted sum of values) in the accumulation type (float, double for float64): on CPUs
/// one work-item per row; on GPUs fx_L lanes per row (launched as a reduction) split its keys
/// and combine their states through local memory at the end.

#include "backends/opencl/runtime/DeviceAttentionArgs.h"
#include "backends/opencl/runtime/DeviceExternSupport.h"

#include "ir/Try.h"

#include <cmath>

namespace fxkit::opencl::device_externs {

namespace {

constexpr std::string_view kSource = R"CL(
/// The parameters both kernels take, after their buffers.
#define FX_ATTN_PARAMS                                                                          \
    const long xnumel, const long H, const long Mx, const long M, const long N, const long E, \
    const long Ev,                                                                            \
    FX_STRIDES4(q), FX_STRIDES4(k), FX_STRIDES4(v), FX_STRIDES4(m), FX_STRIDES4(o),           \
    FX_STRIDES3(l),                                                                           \
    const long dt_qkv, const long dt_mask, const long mask_kind, const long dt_out,           \
    const long dt_lse, const long has_lse, const long causal, const long scale_bits

/// The online softmax of one query row over its keys j = first, first + step, ... < limit:
/// the running maximum *mxp and sum *sump, and the weighted sum of values acc[0, Ev).
inline void FX_NAME(fx_attention_scan)(
    __global const uchar *k, __global const uchar *v, __global const uchar *mk,
    const FX_ACC *qv, FX_ACC *acc, FX_ACC *mxp, FX_ACC *sump, const long krow, const long vrow,
    const long mrow, const long ks2, const long ks3, const long vs2, const long vs3,
    const long ms3, const long E, const long Ev, const long first, const long step,
    const long limit, const long dt_qkv, const long dt_mask, const long mask_kind,
    const FX_ACC scale) {
  FX_ACC mx = -INFINITY, sum = 0;
  for (long j = first; j < limit; j += step) {
    FX_ACC add = 0;
    if (mask_kind == 1) {
      if (FX_LD(mk, mrow + j * ms3, dt_mask) == 0)
        continue;
    } else if (mask_kind == 2) {
      add = FX_LD(mk, mrow + j * ms3, dt_mask);
    }
    FX_ACC dot = 0;
    const long kj = krow + j * ks2;
    for (long c = 0; c < E; ++c)
      dot += qv[c] * FX_LD(k, kj + c * ks3, dt_qkv);
    const FX_ACC s = dot * scale + add;
    if (s == -INFINITY)
      continue; // a masked key: weight exp(-inf) = 0
    const long vj = vrow + j * vs2;
    if (s > mx) {
      const FX_ACC alpha = exp(mx - s); // 0 for the first key
      sum = sum * alpha + 1;
      for (long c = 0; c < Ev; ++c)
        acc[c] = acc[c] * alpha + FX_LD(v, vj + c * vs3, dt_qkv);
      mx = s;
    } else {
      const FX_ACC p = exp(s - mx); // NaN scores propagate through p
      sum += p;
      for (long c = 0; c < Ev; ++c)
        acc[c] += p * FX_LD(v, vj + c * vs3, dt_qkv);
    }
  }
  *mxp = mx;
  *sump = sum;
}

/// Row x of the launch: (b, h, query i), and whether it is a logsumexp padding row (the
/// efficient kernel's rows past the query length: they compute the last query and store only
/// +inf). Loads the query row into qv and clears acc.
#define FX_ATTN_ROW                                                                            \
  const long ix = x % Mx, bh = x / Mx;                                                        \
  const long h = bh % H, b = bh / H;                                                          \
  const bool pad = ix >= M;                                                                   \
  const long i = pad ? M - 1 : ix;                                                            \
  FX_ACC qv[FX_ATTN_MAX_D], acc[FX_ATTN_MAX_D];                                               \
  const long qrow = b * qs0 + h * qs1 + i * qs2;                                              \
  for (long c = 0; c < E; ++c)                                                                \
    qv[c] = FX_LD(q, qrow + c * qs3, dt_qkv);                                                 \
  for (long c = 0; c < Ev; ++c)                                                               \
    acc[c] = 0;                                                                               \
  const long limit = causal ? min(N, i + 1) : N;                                              \
  const long krow = b * ks0 + h * ks1, vrow = b * vs0 + h * vs1;                              \
  const long mrow = b * ms0 + h * ms1 + i * ms2;                                              \
  const long orow = b * os0 + h * os1 + i * os2;                                              \
  const long lpos = b * ls0 + h * ls1 + ix * ls2

/// One work-item per query row (a grid-stride loop): no barriers, which CPU compilers
/// (PoCL) build and run best.
__kernel void FX_NAME(fx_attention_rows)(
    FX_IN(q), FX_IN(k), FX_IN(v), FX_IN(m), FX_OUT(o), FX_OUT(l), FX_ATTN_PARAMS) {
  __global const uchar *q = FX_AT(q), *k = FX_AT(k), *v = FX_AT(v);
  __global const uchar *mk = FX_AT(m);
  __global uchar *o = FX_AT(o), *l = FX_AT(l);
  const FX_ACC scale = FX_BITS(scale_bits);
  for (long x = get_global_id(0); x < xnumel; x += get_global_size(0)) {
    FX_ATTN_ROW;
    FX_ACC mx, sum;
    FX_NAME(fx_attention_scan)(k, v, mk, qv, acc, &mx, &sum, krow, vrow, mrow, ks2, ks3, vs2,
                               vs3, ms3, E, Ev, 0, 1, limit, dt_qkv, dt_mask, mask_kind, scale);
    const bool empty = mx == -INFINITY;
    if (!pad)
      for (long c = 0; c < Ev; ++c)
        FX_ST(o, orow + c * os3, dt_out, empty ? (FX_ACC)0 : acc[c] / sum);
    if (has_lse)
      FX_ST(l, lpos, dt_lse,
            pad ? (FX_ACC)INFINITY : empty ? (FX_ACC)(-INFINITY) : mx + log(sum));
  }
}

/// fx_L lanes per query row (GPUs): the lanes split the row's keys, then combine their
/// maxima, sums and values through local memory.
__kernel void FX_NAME(fx_attention_lanes)(
    FX_IN(q), FX_IN(k), FX_IN(v), FX_IN(m), FX_OUT(o), FX_OUT(l), FX_ATTN_PARAMS,
    const int fx_L, const int fx_W, __local FX_ACC *fx_scratch) {
  __global const uchar *q = FX_AT(q), *k = FX_AT(k), *v = FX_AT(v);
  __global const uchar *mk = FX_AT(m);
  __global uchar *o = FX_AT(o), *l = FX_AT(l);
  const FX_ACC scale = FX_BITS(scale_bits);
  const int lid = get_local_id(0);
  const int lane = lid & (fx_L - 1);
  const int slot = lid / fx_L;
  __local FX_ACC *red = fx_scratch + slot * fx_L;
  for (long xbase = (long)get_group_id(0) * fx_W; xbase < xnumel;
       xbase += (long)get_num_groups(0) * fx_W) {
    // Rows past the end compute the last row again and store nothing.
    const bool xmask = xbase + slot < xnumel;
    const long x = xmask ? xbase + slot : xnumel - 1;
    FX_ATTN_ROW;
    FX_ACC mx, sum;
    FX_NAME(fx_attention_scan)(k, v, mk, qv, acc, &mx, &sum, krow, vrow, mrow, ks2, ks3, vs2,
                               vs3, ms3, E, Ev, lane, fx_L, limit, dt_qkv, dt_mask, mask_kind,
                               scale);
    red[lane] = mx;
    barrier(CLK_LOCAL_MEM_FENCE);
    FX_ACC rmax = -INFINITY;
    for (int t = 0; t < fx_L; ++t)
      rmax = fmax(rmax, red[t]);
    barrier(CLK_LOCAL_MEM_FENCE);
    // Each lane's share rescaled to the row's maximum (lanes without keys give 0).
    const FX_ACC f = mx == -INFINITY ? (FX_ACC)0 : exp(mx - rmax);
    red[lane] = sum * f;
    barrier(CLK_LOCAL_MEM_FENCE);
    FX_ACC rsum = 0;
    for (int t = 0; t < fx_L; ++t)
      rsum += red[t];
    barrier(CLK_LOCAL_MEM_FENCE);
    const bool empty = rmax == -INFINITY;
    for (long c = 0; c < Ev; ++c) {
      red[lane] = acc[c] * f;
      barrier(CLK_LOCAL_MEM_FENCE);
      if (lane == (int)(c % fx_L)) {
        FX_ACC a = 0;
        for (int t = 0; t < fx_L; ++t)
          a += red[t];
        if (xmask && !pad)
          FX_ST(o, orow + c * os3, dt_out, empty ? (FX_ACC)0 : a / rsum);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lane == 0 && xmask && has_lse)
      FX_ST(l, lpos, dt_lse,
            pad ? (FX_ACC)INFINITY : empty ? (FX_ACC)(-INFINITY) : rmax + log(rsum));
  }
}
)CL";

} // namespace

std::optional<std::vector<int64_t>> broadcastStrides(const Operand &t,
                                                     const std::vector<int64_t> &shape) {
  size_t rank = shape.size();
  if (t.sizes.size() > rank)
    return std::nullopt;
  std::vector<int64_t> out(rank, 0);
  size_t lead = rank - t.sizes.size();
  for (size_t d = 0; d < t.sizes.size(); ++d) {
    if (t.sizes[d] == shape[lead + d])
      out[lead + d] = t.sizes[d] == 1 ? 0 : t.strides[d];
    else if (t.sizes[d] != 1)
      return std::nullopt;
  }
  return out;
}

FamilySource attentionSource() {
  return {kSource,
          {{"fx_attention_rows", false}, {"fx_attention_lanes", true}},
          {Variant::Float, Variant::Double},
          attentionDefines()};
}

Expected<bool> runAttention(const Call &call, const LauncherFor &launcherFor) {
  auto form = attentionForm(call, "_scaled_dot_product_efficient_attention");
  if (!form)
    return false;
  auto q = call.input("query"), k = call.input("key"), v = call.input("value");
  if (!q || !k || !v || q->dim() != 4 || k->dim() != 4 || v->dim() != 4)
    return false;
  int64_t B = q->sizes[0], H = q->sizes[1], M = q->sizes[2], E = q->sizes[3];
  int64_t N = k->sizes[2], Ev = v->sizes[3];
  if (k->sizes[0] != B || v->sizes[0] != B || k->sizes[1] != H || v->sizes[1] != H ||
      k->sizes[3] != E || v->sizes[2] != N || E > kAttentionMaxHeadDim || Ev > kAttentionMaxHeadDim)
    return false;
  if (k->dtype != q->dtype || v->dtype != q->dtype)
    return false;
  std::optional<Variant> variant = floatingVariant(q->dtype, call.device());
  if (!variant)
    return false;
  // The mask (flash) or bias (form->efficient): bool keeps, anything else adds.
  auto maskArg = attentionMask(call, form->maskName, *variant, {B, H, M, N});
  if (!maskArg)
    return false;
  const std::optional<Operand> &mask = maskArg->operand;
  bool computeLse = true;
  if (form->efficient) {
    auto c = call.args().boolean("compute_log_sumexp");
    if (!c)
      return false;
    computeLse = *c;
  }
  auto out = call.output(0);
  if (!out || out->sizes != std::vector<int64_t>{B, H, M, Ev} || out->dtype != q->dtype)
    return false;
  std::optional<Operand> lse;
  if (call.numOutputs() > 1)
    lse = call.output(1);
  int64_t lseRows = M;
  if (lse) {
    if (!logsumexpFits(*lse, B, H, *variant))
      return false;
    lseRows = lse->sizes[2];
    if (computeLse ? lseRows < M || (!form->efficient && lseRows != M) : lseRows != 0)
      return false;
  }
  bool hasLse = lse && computeLse && lseRows > 0;
  if (q->numel() == 0 || k->numel() == 0 || v->numel() == 0 || out->numel() == 0)
    return false; // empty shapes: the host kernel's zeros and infinities
  std::optional<double> scale = attentionScale(call, E);
  if (!scale)
    return false;
  // The efficient kernel's philox seed and offset: 0 (no dropout).
  for (size_t i = 2; form->efficient && i < 4 && i < call.numOutputs(); ++i)
    if (auto t = call.output(i))
      FXKIT_TRY(fillZeros(call.context(), t->buffer));

  FXKIT_ASSIGN_OR_RETURN(auto launcher, launcherFor(*variant));
  int64_t rowsPerHead = hasLse ? std::max(M, lseRows) : M;
  const Operand &lseOperand = hasLse ? *lse : *out;
  std::vector<LaunchArg> a = {
      bufferArg(*q, false),
      bufferArg(*k, false),
      bufferArg(*v, false),
      bufferArg(mask ? *mask : *q, false),
      bufferArg(*out, true),
      bufferArg(lseOperand, true),
      longArg(B * H * rowsPerHead),
      longArg(H),
      longArg(rowsPerHead),
      longArg(M),
      longArg(N),
      longArg(E),
      longArg(Ev),
  };
  appendLongs(a, {q->strides, k->strides, v->strides, maskArg->strides, out->strides});
  for (size_t d = 0; d < 3; ++d)
    a.push_back(longArg(hasLse ? lse->strides[d] : 0));
  a.push_back(longArg(dtypeCode(q->dtype)));
  a.push_back(longArg(mask ? dtypeCode(mask->dtype) : 0));
  a.push_back(longArg(maskArg->kind));
  a.push_back(longArg(dtypeCode(out->dtype)));
  a.push_back(longArg(hasLse ? dtypeCode(lse->dtype) : 0));
  a.push_back(longArg(hasLse));
  a.push_back(longArg(form->causal));
  a.push_back(floatArg(*scale, *variant));
  // GPUs: lanes per row; CPUs: a row per work-item (barriers in loops cost PoCL seconds of
  // compilation per work-group size and gain nothing on a CPU).
  bool lanes = call.gpuForms();
  if (lanes) {
    a.push_back(lanesArg());
    a.push_back(rowsArg());
    a.push_back(scratchArg(*variant == Variant::Double ? 8 : 4));
  }
  FXKIT_TRY(launcher.launch(lanes ? "fx_attention_lanes" : "fx_attention_rows", a,
                            B * H * rowsPerHead, lanes ? N : 1));
  return true;
}

} // namespace fxkit::opencl::device_externs
