/// \file Scaled dot-product attention backward on the device: `_scaled_dot_product_flash_
/// attention_for_cpu_backward` and `_scaled_dot_product_efficient_attention_backward` (dropout
/// 0), with the reference kernel's semantics (backends/interp/TensorKernels.cpp,
/// attentionBackward): from the forward's natural-log logsumexp L,
///   P = exp(S - L), S = Q K^T * scale + mask,  D = rowsum(dO * O),  dS = P * (dP - D),
///   dQ = dS K * scale,  dK = dS^T Q * scale,  dV = P^T dO,  dP = dO V^T;
/// a bool mask keeps the positions where it is true, any other mask is added; causal masking is
/// top-left aligned; masked positions and rows whose logsumexp is -inf contribute nothing.
///
/// Three kernels, each recomputing P from L, in the accumulation type (float; double for
/// float64): one work-item per query row (b, h, i) computes D (kept in a scratch buffer) and
/// dQ; then one work-item per key row (b, h, j) computes dK and dV from D, and one per element
/// of attn_bias's gradient (when asked for) sums dS over the dimensions the bias broadcasts. No
/// barriers and no atomics: every result element has one writer.

#include "backends/opencl/runtime/DeviceAttentionArgs.h"
#include "backends/opencl/runtime/DeviceExternSupport.h"

#include "ir/Try.h"

#include <cmath>

namespace fxkit::opencl::device_externs {

namespace {

constexpr std::string_view kSource = R"CL(
/// The parameters both kernels take, after their buffers: sizes, the strides of grad_out (g),
/// query, key, value, out (o), the mask (broadcast: 0 strides), logsumexp (l) and the two
/// results (a, c; c unused by the dQ kernel), dtype codes, the mask kind (0 none, 1 bool keeps,
/// 2 added), causal, and the scale's bits.
#define FX_ATTB_PARAMS                                                                         \
    const long xnumel, const long H, const long M, const long N, const long E, const long Ev, \
    FX_STRIDES4(g), FX_STRIDES4(q), FX_STRIDES4(k), FX_STRIDES4(v), FX_STRIDES4(o),           \
    FX_STRIDES4(m), FX_STRIDES3(l), FX_STRIDES4(a), FX_STRIDES4(c),                           \
    const long dt, const long dt_mask, const long mask_kind, const long dt_lse,               \
    const long causal, const long scale_bits

/// The buffers of the kernels that run after the dQ kernel (dK/dV, dbias): grad_out (g),
/// query, key, value, the mask (m), logsumexp (l), the dQ kernel's D (d), and result a.
#define FX_ATTB_AFTER_DQ                                                                       \
    FX_IN(g), FX_IN(q), FX_IN(k), FX_IN(v), FX_IN(m), FX_IN(l), FX_IN(d), FX_OUT(a)
/// Their pointers: g, q, k, v, mk, l, a, and dd (D in the accumulation type).
#define FX_ATTB_AFTER_DQ_POINTERS                                                              \
  __global const uchar *g = FX_AT(g), *q = FX_AT(q), *k = FX_AT(k);                            \
  __global const uchar *v = FX_AT(v), *mk = FX_AT(m), *l = FX_AT(l);                           \
  __global uchar *a = FX_AT(a);                                                                \
  __global const FX_ACC *dd = (__global const FX_ACC *)FX_AT(d)

/// The scaled, masked score of query i and key j, or -INFINITY where the position is masked
/// out (by a false bool mask or an additive -inf); dot is the row's Q K^T product.
inline FX_ACC FX_NAME(fx_attb_score)(__global const uchar *mk, const long mpos,
                                      const long dt_mask, const long mask_kind, const FX_ACC dot,
                                      const FX_ACC scale) {
  FX_ACC add = 0;
  if (mask_kind == 1) {
    if (FX_LD(mk, mpos, dt_mask) == 0)
      return -INFINITY;
  } else if (mask_kind == 2) {
    add = FX_LD(mk, mpos, dt_mask);
  }
  return dot * scale + add;
}

/// dQ and D = rowsum(dO * O): one work-item per query row x = (b, h, i) (a grid-stride loop).
__kernel void FX_NAME(fx_attention_backward_dq)(
    FX_IN(g), FX_IN(q), FX_IN(k), FX_IN(v), FX_IN(o), FX_IN(m), FX_IN(l), FX_OUT(d),
    FX_OUT(a), FX_ATTB_PARAMS) {
  __global const uchar *g = FX_AT(g), *q = FX_AT(q), *k = FX_AT(k);
  __global const uchar *v = FX_AT(v), *o = FX_AT(o), *mk = FX_AT(m);
  __global const uchar *l = FX_AT(l);
  __global uchar *a = FX_AT(a);
  __global FX_ACC *dd = (__global FX_ACC *)FX_AT(d);
  const FX_ACC scale = FX_BITS(scale_bits);
  for (long x = get_global_id(0); x < xnumel; x += get_global_size(0)) {
    const long i = x % M, bh = x / M;
    const long h = bh % H, b = bh / H;
    FX_ACC qv[FX_ATTN_MAX_D], gv[FX_ATTN_MAX_D], acc[FX_ATTN_MAX_D];
    const long qrow = b * qs0 + h * qs1 + i * qs2;
    const long grow = b * gs0 + h * gs1 + i * gs2;
    const long orow = b * os0 + h * os1 + i * os2;
    for (long c = 0; c < E; ++c) {
      qv[c] = FX_LD(q, qrow + c * qs3, dt);
      acc[c] = 0;
    }
    for (long c = 0; c < Ev; ++c)
      gv[c] = FX_LD(g, grow + c * gs3, dt);
    const FX_ACC L = FX_LD(l, b * ls0 + h * ls1 + i * ls2, dt_lse);
    FX_ACC D = 0;
    if (L != -INFINITY) { // else every key was masked: the row depends on nothing
      for (long c = 0; c < Ev; ++c)
        D += gv[c] * FX_LD(o, orow + c * os3, dt);
      const long limit = causal ? min(N, i + 1) : N;
      const long krow = b * ks0 + h * ks1, vrow = b * vs0 + h * vs1;
      const long mrow = b * ms0 + h * ms1 + i * ms2;
      for (long j = 0; j < limit; ++j) {
        const long kj = krow + j * ks2, vj = vrow + j * vs2;
        FX_ACC dot = 0;
        for (long c = 0; c < E; ++c)
          dot += qv[c] * FX_LD(k, kj + c * ks3, dt);
        const FX_ACC s =
            FX_NAME(fx_attb_score)(mk, mrow + j * ms3, dt_mask, mask_kind, dot, scale);
        if (s == -INFINITY)
          continue;
        const FX_ACC p = exp(s - L);
        FX_ACC dp = 0;
        for (long c = 0; c < Ev; ++c)
          dp += gv[c] * FX_LD(v, vj + c * vs3, dt);
        const FX_ACC ds = p * (dp - D) * scale;
        for (long c = 0; c < E; ++c)
          acc[c] += ds * FX_LD(k, kj + c * ks3, dt);
      }
    }
    dd[x] = D;
    const long arow = b * as0 + h * as1 + i * as2;
    for (long c = 0; c < E; ++c)
      FX_ST(a, arow + c * as3, dt, acc[c]);
  }
}

/// dK (a) and dV (c): one work-item per key row x = (b, h, j), over the queries that see it,
/// with D from the dQ kernel.
__kernel void FX_NAME(fx_attention_backward_dkv)(
    FX_ATTB_AFTER_DQ, FX_OUT(c), FX_ATTB_PARAMS) {
  FX_ATTB_AFTER_DQ_POINTERS;
  __global uchar *cc = FX_AT(c);
  const FX_ACC scale = FX_BITS(scale_bits);
  for (long x = get_global_id(0); x < xnumel; x += get_global_size(0)) {
    const long j = x % N, bh = x / N;
    const long h = bh % H, b = bh / H;
    FX_ACC kv[FX_ATTN_MAX_D], vv[FX_ATTN_MAX_D], dk[FX_ATTN_MAX_D], dv[FX_ATTN_MAX_D];
    const long kj = b * ks0 + h * ks1 + j * ks2, vj = b * vs0 + h * vs1 + j * vs2;
    for (long c = 0; c < E; ++c) {
      kv[c] = FX_LD(k, kj + c * ks3, dt);
      dk[c] = 0;
    }
    for (long c = 0; c < Ev; ++c) {
      vv[c] = FX_LD(v, vj + c * vs3, dt);
      dv[c] = 0;
    }
    const long qbase = b * qs0 + h * qs1, gbase = b * gs0 + h * gs1;
    const long mbase = b * ms0 + h * ms1 + j * ms3, lbase = b * ls0 + h * ls1;
    for (long i = causal ? j : 0; i < M; ++i) {
      const FX_ACC L = FX_LD(l, lbase + i * ls2, dt_lse);
      if (L == -INFINITY)
        continue;
      const long qi = qbase + i * qs2, gi = gbase + i * gs2;
      FX_ACC dot = 0;
      for (long c = 0; c < E; ++c)
        dot += FX_LD(q, qi + c * qs3, dt) * kv[c];
      const FX_ACC s = FX_NAME(fx_attb_score)(mk, mbase + i * ms2, dt_mask, mask_kind, dot, scale);
      if (s == -INFINITY)
        continue;
      const FX_ACC p = exp(s - L);
      FX_ACC dp = 0;
      for (long c = 0; c < Ev; ++c) {
        const FX_ACC gc = FX_LD(g, gi + c * gs3, dt);
        dp += gc * vv[c];
        dv[c] += p * gc;
      }
      const FX_ACC ds = p * (dp - dd[bh * M + i]) * scale;
      for (long c = 0; c < E; ++c)
        dk[c] += ds * FX_LD(q, qi + c * qs3, dt);
    }
    const long arow = b * as0 + h * as1 + j * as2, crow = b * cs0 + h * cs1 + j * cs2;
    for (long c = 0; c < E; ++c)
      FX_ST(a, arow + c * as3, dt, dk[c]);
    for (long c = 0; c < Ev; ++c)
      FX_ST(cc, crow + c * cs3, dt, dv[c]);
  }
}
/// attn_bias's gradient dS, summed over the dimensions the bias broadcasts: one work-item per
/// element x of the result (a) of the bias's sizes bz0..bz3 (aligned to (B, H, M, N), leading
/// 1s), with D from the dQ kernel.
__kernel void FX_NAME(fx_attention_backward_dbias)(
    FX_ATTB_AFTER_DQ, FX_ATTB_PARAMS, const long B, const long bz0, const long bz1, const long bz2,
    const long bz3) {
  FX_ATTB_AFTER_DQ_POINTERS;
  const FX_ACC scale = FX_BITS(scale_bits);
  for (long x = get_global_id(0); x < xnumel; x += get_global_size(0)) {
    long r = x;
    const long j0 = r % bz3;
    r /= bz3;
    const long i0 = r % bz2;
    r /= bz2;
    const long h0 = r % bz1;
    const long b0 = r / bz1;
    // A dimension the bias has (its size matches) is fixed; one it broadcasts is summed over.
    const long blo = bz0 == B ? b0 : 0, bhi = bz0 == B ? b0 + 1 : B;
    const long hlo = bz1 == H ? h0 : 0, hhi = bz1 == H ? h0 + 1 : H;
    const long ilo = bz2 == M ? i0 : 0, ihi = bz2 == M ? i0 + 1 : M;
    const long jlo = bz3 == N ? j0 : 0, jhi = bz3 == N ? j0 + 1 : N;
    FX_ACC sum = 0;
    for (long b = blo; b < bhi; ++b)
      for (long h = hlo; h < hhi; ++h)
        for (long i = ilo; i < ihi; ++i) {
          const FX_ACC L = FX_LD(l, b * ls0 + h * ls1 + i * ls2, dt_lse);
          if (L == -INFINITY)
            continue;
          const FX_ACC D = dd[(b * H + h) * M + i];
          const long qi = b * qs0 + h * qs1 + i * qs2, gi = b * gs0 + h * gs1 + i * gs2;
          const long limit = causal ? min(jhi, i + 1) : jhi;
          for (long j = jlo; j < limit; ++j) {
            const long kj = b * ks0 + h * ks1 + j * ks2, vj = b * vs0 + h * vs1 + j * vs2;
            FX_ACC dot = 0;
            for (long c = 0; c < E; ++c)
              dot += FX_LD(q, qi + c * qs3, dt) * FX_LD(k, kj + c * ks3, dt);
            const FX_ACC s = FX_NAME(fx_attb_score)(mk, b * ms0 + h * ms1 + i * ms2 + j * ms3,
                                                    dt_mask, mask_kind, dot, scale);
            if (s == -INFINITY)
              continue;
            FX_ACC dp = 0;
            for (long c = 0; c < Ev; ++c)
              dp += FX_LD(g, gi + c * gs3, dt) * FX_LD(v, vj + c * vs3, dt);
            sum += exp(s - L) * (dp - D);
          }
        }
    FX_ST(a, b0 * as0 + h0 * as1 + i0 * as2 + j0 * as3, dt_mask, sum);
  }
}
)CL";

bool hasSizes(const std::optional<Operand> &t, const std::vector<int64_t> &sizes, DType dtype) {
  return t && t->sizes == sizes && t->dtype == dtype;
}

} // namespace

FamilySource attentionBackwardSource() {
  return {kSource,
          {{"fx_attention_backward_dq", false},
           {"fx_attention_backward_dkv", false},
           {"fx_attention_backward_dbias", false}},
          {Variant::Float, Variant::Double},
          attentionDefines()};
}

Expected<bool> runAttentionBackward(const Call &call, const LauncherFor &launcherFor) {
  auto form = attentionForm(call, "_scaled_dot_product_efficient_attention_backward");
  if (!form)
    return false;
  bool biasGrad = false;
  if (form->efficient && !call.isNone(form->maskName)) {
    auto wanted = call.args().boolList("grad_input_mask", 4);
    if (!wanted)
      return false;
    biasGrad = (*wanted)[3];
  }
  auto g = call.input(form->efficient ? "grad_out_" : "grad_out");
  auto q = call.input("query"), k = call.input("key"), v = call.input("value");
  auto o = call.input("out"), lse = call.input("logsumexp");
  if (!g || !q || !k || !v || !o || !lse || q->dim() != 4 || k->dim() != 4 || v->dim() != 4)
    return false;
  int64_t B = q->sizes[0], H = q->sizes[1], M = q->sizes[2], E = q->sizes[3];
  int64_t N = k->sizes[2], Ev = v->sizes[3];
  DType dtype = q->dtype;
  if (!hasSizes(k, {B, H, N, E}, dtype) || !hasSizes(v, {B, H, N, Ev}, dtype) ||
      !hasSizes(g, {B, H, M, Ev}, dtype) || !hasSizes(o, {B, H, M, Ev}, dtype) ||
      E > kAttentionMaxHeadDim || Ev > kAttentionMaxHeadDim)
    return false;
  std::optional<Variant> variant = floatingVariant(dtype, call.device());
  if (!variant)
    return false;
  // The logsumexp: a row per query (the efficient kernel's may have padding rows after them).
  if (!logsumexpFits(*lse, B, H, *variant) || lse->sizes[2] < M ||
      (!form->efficient && lse->sizes[2] != M))
    return false;
  auto maskArg = attentionMask(call, form->maskName, *variant, {B, H, M, N});
  if (!maskArg)
    return false;
  const std::optional<Operand> &mask = maskArg->operand;
  auto gq = call.output(0), gk = call.output(1), gv = call.output(2);
  if (!hasSizes(gq, q->sizes, dtype) || !hasSizes(gk, k->sizes, dtype) ||
      !hasSizes(gv, v->sizes, dtype))
    return false;
  // attn_bias's gradient: of the bias's sizes (aligned to the scores'), in its dtype.
  std::optional<Operand> gb;
  std::vector<int64_t> gbSizes(4, 1), gbStrides(4, 0);
  if (biasGrad) {
    gb = call.output(3);
    if (maskArg->kind != 2 || !hasSizes(gb, mask->sizes, mask->dtype))
      return false;
    size_t lead = 4 - gb->sizes.size();
    for (size_t d = 0; d < gb->sizes.size(); ++d) {
      gbSizes[lead + d] = gb->sizes[d];
      gbStrides[lead + d] = gb->strides[d];
    }
  }
  if (q->numel() == 0 || k->numel() == 0 || v->numel() == 0)
    return false; // empty shapes: the host kernel's zeros
  std::optional<double> scale = attentionScale(call, E);
  if (!scale)
    return false;

  FXKIT_ASSIGN_OR_RETURN(auto launcher, launcherFor(*variant));
  // D = rowsum(dO * O) per query row, from the dQ kernel to the dK/dV one (the queue is in
  // order); released when both are done.
  size_t accBytes = *variant == Variant::Double ? 8 : 4;
  FXKIT_ASSIGN_OR_RETURN(
      auto rowSums, TempBuffer::create(call.context(), static_cast<size_t>(B * H * M) * accBytes));
  auto params = [&](int64_t xnumel, const Operand &first, const Operand &second) {
    std::vector<LaunchArg> a = {longArg(xnumel), longArg(H), longArg(M),
                                longArg(N),      longArg(E), longArg(Ev)};
    appendLongs(a, {g->strides, q->strides, k->strides, v->strides, o->strides, maskArg->strides,
                    lse->strides, first.strides, second.strides});
    a.push_back(longArg(dtypeCode(dtype)));
    a.push_back(longArg(mask ? dtypeCode(mask->dtype) : 0));
    a.push_back(longArg(maskArg->kind));
    a.push_back(longArg(dtypeCode(lse->dtype)));
    a.push_back(longArg(form->causal));
    a.push_back(floatArg(*scale, *variant));
    return a;
  };
  const Operand &maskOperand = mask ? *mask : *q;
  std::vector<LaunchArg> dq = {
      bufferArg(*g, false),   bufferArg(*q, false),
      bufferArg(*k, false),   bufferArg(*v, false),
      bufferArg(*o, false),   bufferArg(maskOperand, false),
      bufferArg(*lse, false), bufferArg(rowSums.buffer(), true),
      bufferArg(*gq, true),
  };
  for (LaunchArg &a : params(B * H * M, *gq, *gq))
    dq.push_back(a);
  FXKIT_TRY(launcher.launch("fx_attention_backward_dq", dq, B * H * M, 1));
  std::vector<LaunchArg> dkv = {
      bufferArg(*g, false),
      bufferArg(*q, false),
      bufferArg(*k, false),
      bufferArg(*v, false),
      bufferArg(maskOperand, false),
      bufferArg(*lse, false),
      bufferArg(rowSums.buffer(), false),
      bufferArg(*gk, true),
      bufferArg(*gv, true),
  };
  for (LaunchArg &a : params(B * H * N, *gk, *gv))
    dkv.push_back(a);
  FXKIT_TRY(launcher.launch("fx_attention_backward_dkv", dkv, B * H * N, 1));
  if (gb) {
    std::vector<LaunchArg> dbias = {
        bufferArg(*g, false),
        bufferArg(*q, false),
        bufferArg(*k, false),
        bufferArg(*v, false),
        bufferArg(*mask, false),
        bufferArg(*lse, false),
        bufferArg(rowSums.buffer(), false),
        bufferArg(*gb, true),
    };
    Operand layout; // the result's strides, aligned to the scores' four dimensions
    layout.strides = gbStrides;
    for (LaunchArg &a : params(gb->numel(), layout, layout))
      dbias.push_back(a);
    dbias.push_back(longArg(B));
    for (int64_t n : gbSizes)
      dbias.push_back(longArg(n));
    FXKIT_TRY(launcher.launch("fx_attention_backward_dbias", dbias, gb->numel(), 1));
  }
  return true;
}

} // namespace fxkit::opencl::device_externs
