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
/// and combine their states through local memory at the end; on GPUs, where the head
/// dimension is at most 64, a work-group of query rows shares tiles of keys and values in local
/// memory instead (fx_attention_tiled32/64: each K and V row read once per work-group, not once
/// per query row: at sequence 1024 the lanes kernel took ~35 ms a layer on an H200). With an
/// added mask (Hugging Face's causal masks of 0 and -inf), the tiled kernels leave out the keys
/// it sets to -inf where the largest magnitudes of Q, K and V make that exact
/// (fx_attention_bounds). On NVIDIA GPUs from compute capability 8, float32 calls with heads of
/// up to 128 take the tensor cores first (DeviceAttentionMma.h), the tiled kernel or lanes per
/// row only where their split would be wrong. Float32 calls can take the GEMM template instead
/// (OpenCLOptions::attention, DeviceAttentionGemm.h).

#include "backends/opencl/runtime/DeviceAttentionArgs.h"
#include "backends/opencl/runtime/DeviceAttentionGemm.h"
#include "backends/opencl/runtime/DeviceAttentionMma.h"
#include "backends/opencl/runtime/DeviceExternSupport.h"

#include "ir/TextTemplate.h"
#include "ir/Try.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>

namespace fxkit::opencl::device_externs {

namespace {

constexpr std::string_view kSource = R"CL(
#ifdef FX_FP64
#define FX_ACC4 double4
#else
#define FX_ACC4 float4
#endif
/// The parameters both kernels take, after their buffers.
#define FX_ATTN_PARAMS                                                                          \
    const long xnumel, const long H, const long Mx, const long M, const long N, const long E, \
    const long Ev,                                                                            \
    FX_STRIDES4(q), FX_STRIDES4(k), FX_STRIDES4(v), FX_STRIDES4(m), FX_STRIDES4(o),           \
    FX_STRIDES3(l),                                                                           \
    const long dt_qkv, const long dt_mask, const long mask_kind, const long dt_out,           \
    const long dt_lse, const long has_lse, const long causal, const long scale_bits

/// The mask of key j at byte position `pos`: false where a bool mask drops it, else true with
/// what a float mask adds to its score in *add (0 without a mask).
inline bool FX_NAME(fx_attention_bias)(__global const uchar *mk, const long pos,
                                       const long dt_mask, const long mask_kind, FX_ACC *add) {
  *add = 0;
  if (mask_kind == 1)
    return FX_LD(mk, pos, dt_mask) != 0;
  if (mask_kind == 2)
    *add = FX_LD(mk, pos, dt_mask);
  return true;
}

/// Whether the tensor-core kernel's TF32 split is exact for a call whose Q, K and V
/// fx_attention_bounds measured (words: the largest magnitudes of K, V, Q, then 0x7fffffff minus
/// the smallest nonzero ones): all finite, none nonzero below 2^-100 (each part of the split a
/// normal float), and every product's sum (E x the largest magnitudes, also scaled) and every
/// row's weighted sum of values (N x V's largest) below 2^126. Both that kernel and the float32
/// one launched after it read it: one computes where it holds, the other where it does not.
/// attentionMmaFits (DeviceAttentionMma.h) is the same test on the host: change both together.
inline bool FX_NAME(fx_attention_mma_fits)(__global const uint *w, const long E, const long N,
                                           const float scale) {
  const uint tiny = 0x7fffffffu - as_uint(0x1p-100f);
  if (w[0] >= 0x7f800000u || w[1] >= 0x7f800000u || w[2] >= 0x7f800000u || w[3] > tiny ||
      w[4] > tiny || w[5] > tiny)
    return false;
  return (float)E * as_float(w[2]) * as_float(w[0]) * fmax(1.0f, fabs(scale)) < 0x1p126f &&
         (float)N * as_float(w[1]) < 0x1p126f;
}

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
    FX_ACC add;
    if (!FX_NAME(fx_attention_bias)(mk, mrow + j * ms3, dt_mask, mask_kind, &add))
      continue;
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
/// maxima, sums and values through local memory. After the tensor-core kernel (`after_mma`),
/// only the calls it declined (`kb`: fx_attention_bounds' words).
__kernel void FX_NAME(fx_attention_lanes)(
    FX_IN(q), FX_IN(k), FX_IN(v), FX_IN(m), FX_OUT(o), FX_OUT(l), FX_ATTN_PARAMS, FX_IN(kb),
    const long after_mma, const int fx_L, const int fx_W, __local FX_ACC *fx_scratch) {
  __global const uchar *q = FX_AT(q), *k = FX_AT(k), *v = FX_AT(v);
  __global const uchar *mk = FX_AT(m);
  __global uchar *o = FX_AT(o), *l = FX_AT(l);
  const FX_ACC scale = FX_BITS(scale_bits);
  if (after_mma &&
      FX_NAME(fx_attention_mma_fits)((__global const uint *)FX_AT(kb), E, N, (float)scale))
    return; // the tensor-core kernel computed the call
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

/// The largest magnitude of the elements of x (B x H x N rows of E, strides xs) as float bits
/// into word big_word of *bounds, and 0x7fffffff minus the smallest nonzero one's into word
/// tiny_word (both 0 before): atomic_max orders non-negative floats by their bits, and a NaN's
/// bits exceed infinity's. K's, with a query row's largest magnitude, bounds the row's every
/// product q . k, so the tiled kernel may leave out the products of keys an added mask sets to
/// -inf (where the bound is finite their scores are -inf whatever the products); V's says
/// whether the values are finite, so such keys' weights of 0 add exactly 0 and their values
/// need no reading; all six say whether the tensor-core kernel's split is exact
/// (fx_attention_mma_fits). A work-group of FX_ATTN_BOUNDS_LOCAL combines its work-items' first.
__kernel void FX_NAME(fx_attention_bounds)(FX_IN(x), FX_OUT(bounds), const long rows,
    const long H, const long N, const long E, FX_STRIDES4(x), const long dt,
    const long big_word, const long tiny_word) {
  __local uint red[2][FX_ATTN_BOUNDS_LOCAL];
  __global const uchar *xp = FX_AT(x);
  uint big = 0, tiny = 0;
#define FX_ATTN_BOUND(value)                                                                   \
  {                                                                                            \
    const uint bits_ = as_uint(fabs((float)(value)));                                          \
    big = max(big, bits_);                                                                     \
    tiny = bits_ != 0 ? max(tiny, 0x7fffffffu - bits_) : tiny;                                 \
  }
  if (dt == 0 && xs3 == 1 && E % 4 == 0) {
    // float32 rows with a unit stride: a float4 per work-item per step, coalesced.
    __global const float *xf = (__global const float *)xp;
    const long chunks = E / 4;
    for (long u = get_global_id(0); u < rows * chunks; u += get_global_size(0)) {
      const long r = u / chunks, j = r % N, bh = r / N;
      const float4 x4 = vload4(0, xf + bh / H * xs0 + bh % H * xs1 + j * xs2 + u % chunks * 4);
      FX_ATTN_BOUND(x4.x) FX_ATTN_BOUND(x4.y) FX_ATTN_BOUND(x4.z) FX_ATTN_BOUND(x4.w)
    }
  } else {
    for (long r = get_global_id(0); r < rows; r += get_global_size(0)) {
      const long j = r % N, bh = r / N;
      const long base = bh / H * xs0 + bh % H * xs1 + j * xs2;
      for (long c = 0; c < E; ++c)
        FX_ATTN_BOUND(FX_LD(xp, base + c * xs3, dt))
    }
  }
#undef FX_ATTN_BOUND
  const int lid = get_local_id(0);
  red[0][lid] = big;
  red[1][lid] = tiny;
  for (int w = FX_ATTN_BOUNDS_LOCAL / 2; w > 0; w >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < w) {
      red[0][lid] = max(red[0][lid], red[0][lid + w]);
      red[1][lid] = max(red[1][lid], red[1][lid + w]);
    }
  }
  if (lid == 0) {
    volatile __global uint *w = (volatile __global uint *)FX_AT(bounds);
    atomic_max(w + big_word, red[0][0]);
    atomic_max(w + tiny_word, red[1][0]);
  }
}

)CL";

constexpr std::string_view kTiledSource = R"CL(
#ifdef FX_DEFINITION_fx_attention_tiled{{D}}

/// Key tiles in local memory (GPUs, head dimensions up to {{D}}): a work-group takes
/// get_local_size(0) consecutive query rows of one (batch, head), any launch configuration;
/// for each tile of FX_ATTN_BN keys its work-items copy the tile's K and V rows into local
/// memory together (coalesced, once per work-group instead of once per query row), then each
/// work-item runs its row's online softmax over the tile, FX_ATTN_STEP keys at a time: their
/// scores first, then one rescale of the row's sum and accumulator to the new maximum (no
/// per-key branch, which diverged within a warp), then their weighted values. The tile is read
/// as broadcasts of four values at a time, and the row's query and accumulator are {{D}}
/// registers as vectors of four (columns past E and Ev are zeros and add nothing).
/// Where `bounded` (an added mask), `kb` holds fx_attention_bounds' largest magnitudes of K
/// and V: a row whose products K's bounds below infinity leaves out the product of every key the
/// mask adds -inf to, and where V is finite, such keys' values too (a causal mask as a tensor:
/// half the keys); elsewhere they are computed, as the reference's NaNs need.
__kernel void FX_NAME(fx_attention_tiled{{D}})(
    FX_IN(q), FX_IN(k), FX_IN(v), FX_IN(m), FX_OUT(o), FX_OUT(l), FX_ATTN_PARAMS, FX_IN(kb),
    const long bounded, const long after_mma) {
  __global const uint *bounds = (__global const uint *)FX_AT(kb);
  const FX_ACC scale = FX_BITS(scale_bits);
  if (after_mma && FX_NAME(fx_attention_mma_fits)(bounds, E, N, (float)scale))
    return; // the tensor-core kernel computed the call
  __global const uchar *q = FX_AT(q), *k = FX_AT(k), *v = FX_AT(v);
  __global const uchar *mk = FX_AT(m);
  __global uchar *o = FX_AT(o), *l = FX_AT(l);
  __local FX_ACC4 kt[FX_ATTN_BN * {{D}} / 4], vt[FX_ATTN_BN * {{D}} / 4];
  __local FX_ACC *kts = (__local FX_ACC *)kt, *vts = (__local FX_ACC *)vt;
  const long lid = get_local_id(0), BM = get_local_size(0);
  const long tiles = (Mx + BM - 1) / BM, units = xnumel / Mx * tiles;
  for (long u = get_group_id(0); u < units; u += get_num_groups(0)) {
    const long bh = u / tiles, first = (u % tiles) * BM, ix = first + lid;
    const long h = bh % H, b = bh / H;
    const bool live = ix < Mx;  // a row of the launch
    const bool pad = ix >= M;   // a logsumexp padding row (or past the end): stores +inf only
    const long i = min(ix, M - 1);
    FX_ACC4 qv[{{D}} / 4], acc[{{D}} / 4];
    const long qrow = b * qs0 + h * qs1 + i * qs2;
    FX_ACC qmax = 0; // the row's largest magnitude, NaN where it holds one
#pragma unroll
    for (int c = 0; c < {{D}} / 4; ++c) {
      FX_ACC x[4];
      for (int e = 0; e < 4; ++e) {
        x[e] = 4 * c + e < E ? FX_LD(q, qrow + (4 * c + e) * qs3, dt_qkv) : (FX_ACC)0;
        qmax = isnan(x[e]) || isnan(qmax) ? NAN : fmax(qmax, fabs(x[e]));
      }
      qv[c] = (FX_ACC4)(x[0], x[1], x[2], x[3]);
      acc[c] = 0;
    }
    // |q . k| <= E * qmax * kmax, also scaled: below 2^126, every product is finite and a key
    // whose mask adds -inf scores -inf without it (false where any factor is infinite or NaN).
    const bool skipMasked =
        bounded && (FX_ACC)E * qmax * (FX_ACC)as_float(bounds[0]) * fmax((FX_ACC)1, fabs(scale)) <
                       (FX_ACC)0x1p126f;
    const bool skipValues = bounded && bounds[1] < 0x7f800000u;
    const long limit = causal ? min(N, i + 1) : N;
    // The keys any row of the group reads (uniform over the group: its barriers).
    const long groupLimit = causal ? min(N, min(M - 1, first + BM - 1) + 1) : N;
    const long krow = b * ks0 + h * ks1, vrow = b * vs0 + h * vs1;
    const long mrow = b * ms0 + h * ms1 + i * ms2;
    FX_ACC mx = -INFINITY, sum = 0;
    for (long j0 = 0; j0 < groupLimit; j0 += FX_ATTN_BN) {
      const int n = (int)min((long)FX_ATTN_BN, groupLimit - j0);
      barrier(CLK_LOCAL_MEM_FENCE); // every row is done with the previous tile
      for (long t = lid; t < FX_ATTN_BN * {{D}}; t += BM) {
        const int jj = (int)(t / {{D}}), c = (int)(t % {{D}});
        const long j = j0 + jj;
        kts[t] = jj < n && c < E ? FX_LD(k, krow + j * ks2 + c * ks3, dt_qkv) : (FX_ACC)0;
        vts[t] = jj < n && c < Ev ? FX_LD(v, vrow + j * vs2 + c * vs3, dt_qkv) : (FX_ACC)0;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      const int rowKeys = (int)clamp(limit - j0, 0L, (long)n);
      for (int j1 = 0; j1 < n; j1 += FX_ATTN_STEP) {
        FX_ACC sc[FX_ATTN_STEP];
        FX_ACC mt = mx;
#pragma unroll
        for (int t = 0; t < FX_ATTN_STEP; ++t) {
          const int jj = j1 + t;
          FX_ACC x = -INFINITY, add;
          if (jj < rowKeys &&
              FX_NAME(fx_attention_bias)(mk, mrow + (j0 + jj) * ms3, dt_mask, mask_kind, &add) &&
              !(skipMasked && add == -INFINITY)) {
            __local const FX_ACC4 *kj = kt + jj * ({{D}} / 4);
            FX_ACC4 d = qv[0] * kj[0];
#pragma unroll
            for (int c = 1; c < {{D}} / 4; ++c)
              d += qv[c] * kj[c];
            x = (d.x + d.y + d.z + d.w) * scale + add;
          }
          sc[t] = x;
          mt = x > mt ? x : mt; // NaN scores do not raise the maximum; their weights are NaN
        }
        // The row's state rescaled to a new maximum (by 0 from -inf).
        if (mt != mx) {
          const FX_ACC alpha = exp(mx - mt);
          mx = mt;
          sum *= alpha;
#pragma unroll
          for (int c = 0; c < {{D}} / 4; ++c)
            acc[c] *= alpha;
        }
#pragma unroll
        for (int t = 0; t < FX_ATTN_STEP; ++t) {
          if (skipValues && sc[t] == -INFINITY)
            continue; // a masked key: its weight of 0 times finite values adds 0
          // A masked key weighs 0, a key at the maximum 1 (also a score of +inf).
          const FX_ACC p = sc[t] == -INFINITY ? (FX_ACC)0 : sc[t] == mx ? (FX_ACC)1 : exp(sc[t] - mx);
          sum += p;
          __local const FX_ACC4 *vj = vt + (j1 + t) * ({{D}} / 4);
#pragma unroll
          for (int c = 0; c < {{D}} / 4; ++c)
            acc[c] += p * vj[c];
        }
      }
    }
    const bool empty = mx == -INFINITY;
    const long orow = b * os0 + h * os1 + i * os2;
    const long lpos = b * ls0 + h * ls1 + ix * ls2;
    if (live && !pad) {
#pragma unroll
      for (int c = 0; c < {{D}} / 4; ++c) {
        const FX_ACC x[4] = {acc[c].x, acc[c].y, acc[c].z, acc[c].w};
        for (int e = 0; e < 4; ++e)
          if (4 * c + e < Ev)
            FX_ST(o, orow + (4 * c + e) * os3, dt_out, empty ? (FX_ACC)0 : x[e] / sum);
      }
    }
    if (live && has_lse)
      FX_ST(l, lpos, dt_lse,
            pad ? (FX_ACC)INFINITY : empty ? (FX_ACC)(-INFINITY) : mx + log(sum));
  }
}
#endif
)CL";

/// The head dimensions the tiled kernel is built for (the smallest that holds E and Ev is
/// launched); larger heads take fx_attention_lanes.
constexpr int kTiledHeadDims[] = {32, 64};

/// Keys per tile of the tiled kernel: 2 x 32 x 64 accumulators of local memory (16 KiB in
/// float, 32 KiB in double) whatever the work-group size.
constexpr int kTiledKeys = 32;
/// Keys the tiled kernel scores before one rescale (a divisor of kTiledKeys): their scores stay
/// in registers.
constexpr int kTiledStep = 8;

/// fx_attention_bounds' work-group size, and its most work-groups (enough to fill a GPU).
constexpr int kBoundsLocal = 256;
constexpr int64_t kBoundsMaxGroups = 1024;

/// The family's source: the row and lane kernels, then the tiled kernel per head dimension.
const std::string &attentionBody() {
  static const std::string body = [] {
    std::string out(kSource);
    for (int d : kTiledHeadDims) {
      const std::pair<std::string_view, std::string> keys[] = {{"D", std::to_string(d)}};
      out += substituteKeys(kTiledSource, keys);
    }
    out += attentionSoftmaxSource();
    out += attentionMmaSource();
    return out;
  }();
  return body;
}

/// options.attention, or FXKIT_ATTENTION (kernel or gemm) where set.
AttentionRoute attentionRoute(const OpenCLOptions &options) {
  if (const char *v = std::getenv("FXKIT_ATTENTION"); v && *v) {
    std::string_view s(v);
    if (s == "gemm")
      return AttentionRoute::Gemm;
    if (s == "kernel")
      return AttentionRoute::Kernel;
  }
  return options.attention;
}

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
  std::vector<std::pair<std::string_view, bool>> kernels = {
      {"fx_attention_rows", false},   {"fx_attention_lanes", true},
      {"fx_attention_tiled32", true}, {"fx_attention_tiled64", true},
      {"fx_attention_bounds", false}, {"fx_attention_softmax", false}};
  for (const auto &k : attentionMmaKernels())
    kernels.push_back(k);
  return {attentionBody(),
          std::move(kernels),
          {Variant::Float, Variant::Double},
          attentionDefines() + "#define FX_ATTN_BN " + std::to_string(kTiledKeys) +
              "\n#define FX_ATTN_STEP " + std::to_string(kTiledStep) +
              "\n#define FX_ATTN_BOUNDS_LOCAL " + std::to_string(kBoundsLocal) + "\n" +
              attentionSoftmaxDefines()};
}

Expected<bool> runAttention(const Call &call, const LauncherFor &launcherFor, OpenCLContext &ctx,
                            FamilyState &state) {
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

  // Asked for (OpenCLOptions::attention, FXKIT_ATTENTION=gemm) and where the GEMM template
  // computes, both products take it (DeviceAttentionGemm.h).
  if (*variant == Variant::Float && attentionRoute(call.options()) == AttentionRoute::Gemm &&
      gemmTemplateTakes(ctx, call.options())) {
    AttentionProblem problem{*q, *k, *v, *out, std::nullopt, *maskArg,     B,     H,
                             M,  N,  E,  Ev,   lseRows,      form->causal, *scale};
    if (hasLse)
      problem.lse = *lse;
    FXKIT_ASSIGN_OR_RETURN(bool done,
                           runAttentionThroughGemm(problem, call, launcherFor, ctx, state.scratch));
    if (done)
      return true;
  }
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
  const int64_t rows = B * H * rowsPerHead;
  if (!call.gpuForms()) {
    FXKIT_TRY(launcher.launch("fx_attention_rows", a, rows, 1));
    return true;
  }
  // GPUs: float32 on NVIDIA's tensor cores where a kernel holds the head
  // (DeviceAttentionMma.h), with the float32 kernel launched after it for calls whose values its
  // split gets wrong: key tiles in local memory where the head fits a tiled kernel, else lanes
  // per row. A device that cannot build or launch the tensor-core or tiled kernel (they have not
  // run on every GPU driver yet) gets the next, said once per context on stderr, rather than no
  // attention at all: a failed build or launch enqueues nothing, and trial launches only wrote
  // the outputs.
  // (Its key positions are int.)
  const bool intPositions = N < INT32_MAX && rowsPerHead < INT32_MAX;
  AttentionMmaKernel mma;
  if (*variant == Variant::Float && q->dtype == DType::Float32 && intPositions) {
    FXKIT_ASSIGN_OR_RETURN(mma, attentionMmaKernel(ctx.device(), call.options(), E, Ev));
  }
  if (mma && state.failed.count(mma.name()))
    mma = {};
  std::string tiled;
  for (int d : kTiledHeadDims)
    if (tiled.empty() && std::max(E, Ev) <= d &&
        !state.failed.count("fx_attention_tiled" + std::to_string(d)))
      tiled = "fx_attention_tiled" + std::to_string(d);
  // The bounds of K, V and Q (fx_attention_bounds), which the tensor-core kernel reads, and with
  // an added mask the tiled kernel too, so that keys the mask sets to -inf need no product.
  const bool bounded = !tiled.empty() && mask && maskArg->kind == 2;
  DeviceBuffer bound{};
  if (bounded || mma) {
    FXKIT_ASSIGN_OR_RETURN(bound, state.bound.get(ctx, kAttentionBoundWords * sizeof(cl_uint)));
    bound.bytes = kAttentionBoundWords * sizeof(cl_uint);
    FXKIT_TRY(fillZeros(call.context(), bound));
    // Words: the largest magnitudes of K, V and Q, then their smallest nonzero ones.
    const std::tuple<const Operand *, int64_t, int64_t> measured[] = {
        {&*k, N, E}, {&*v, N, Ev}, {&*q, M, E}};
    for (size_t t = 0; t < (mma ? 3u : 2u); ++t) {
      const auto &[x, length, width] = measured[t];
      std::vector<LaunchArg> b{bufferArg(*x, false),    bufferArg(bound, true),
                               longArg(B * H * length), longArg(H),
                               longArg(length),         longArg(width)};
      appendLongs(b, {x->strides});
      b.push_back(longArg(dtypeCode(q->dtype)));
      b.push_back(longArg(static_cast<int64_t>(t)));
      b.push_back(longArg(static_cast<int64_t>(t + 3)));
      LaunchConfig config;
      config.local = kBoundsLocal;
      // Enough work-items for a float4 each (the float32 form's steps), up to the cap.
      const int64_t groups = std::min<int64_t>(
          (B * H * length * std::max<int64_t>(width / 4, 1) + kBoundsLocal - 1) / kBoundsLocal,
          kBoundsMaxGroups);
      auto done =
          launcher.launchWith("fx_attention_bounds", b, groups * kBoundsLocal, config, false);
      if (!done)
        return done.error();
    }
  }
  std::vector<LaunchArg> withBounds = a;
  withBounds.push_back(bounded || mma ? bufferArg(bound, false) : bufferArg(*q, false));
  bool mmaRan = false;
  if (mma) {
    const AttentionMmaShape shape{
        B, H, M, N, rowsPerHead, *maskArg, E, Ev, form->causal, static_cast<float>(*scale), bound};
    FXKIT_ASSIGN_OR_RETURN(
        mma, chooseAttentionMma(launcher, ctx, call.options(), mma, withBounds, shape, state));
    Status st =
        launchAttentionMma(launcher, call.context(), mma, withBounds, shape, state.maskTiles);
    if (st) {
      if (attentionMmaAlone())
        return true;
      mmaRan = true;
    } else {
      state.failed.insert(mma.name());
      std::cerr << "fxkit: note: the tensor-core attention kernel failed on this device, "
                   "attention takes the float32 kernels: "
                << st.error().message << "\n";
    }
  }
  if (!tiled.empty()) {
    std::vector<LaunchArg> tiledArgs = withBounds;
    tiledArgs.push_back(longArg(bounded));
    tiledArgs.push_back(longArg(mmaRan));
    Status st = launcher.launch(tiled, tiledArgs, rows, N);
    if (st)
      return true;
    state.failed.insert(tiled);
    std::cerr << "fxkit: note: the tiled attention kernel failed on this device, attention "
                 "takes lanes per row: "
              << st.error().message << "\n";
  }
  withBounds.push_back(longArg(mmaRan));
  withBounds.push_back(lanesArg());
  withBounds.push_back(rowsArg());
  withBounds.push_back(scratchArg(*variant == Variant::Double ? 8 : 4));
  FXKIT_TRY(launcher.launch("fx_attention_lanes", withBounds, rows, N));
  return true;
}

} // namespace fxkit::opencl::device_externs
