/// \file Attention forward on the tensor cores (DeviceAttentionMma.h).

#include "backends/opencl/runtime/DeviceAttentionMma.h"

#include "backends/opencl/runtime/CallTimer.h"
#include "backends/opencl/runtime/KernelCache.h"
#include "backends/opencl/runtime/TensorCoreMma.h"
#include "ir/Try.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>

namespace fxkit::opencl::device_externs {

namespace {

/// The mask flags' work-group size.
constexpr int kMaskTilesLocal = 128;

constexpr std::string_view kMmaHelpers = R"CL(
#if defined(FX_ATTN_MMA_D) && !defined(FX_FP64)
#define FX_ATTN_MMA_THREADS (32 * FX_ATTN_MMA_WARPS)
#define FX_ATTN_MMA_ROWS (16 * FX_ATTN_MMA_WARPS)
/// The kernel's name with the variant's suffix (FX_NAME pastes its argument unexpanded).
#define FX_ATTN_MMA_NAME(n) FX_NAME(n)
#ifndef FX_ATTN_MMA_EMULATE
#ifndef FX_WARP_SHUFFLE
#error "the tensor-core attention kernel combines a row's lanes through warp shuffles"
#endif
/// One m16n8k8 product with TF32 operands added to c (TensorCoreMma.h).
#define FX_ATTN_MMA(c, a, b) FX_MMA_TF32(c, a, b)
#define FX_ATTN_SHFL_F(x, m) fx_shfl_xor_f(x, m)
#else
/// The emulation (a work-group of one warp, on any device: tests of the kernel where there are no
/// tensor cores): the warp's products (TensorCoreMma.h) and shuffles go through local memory,
/// between barriers.
inline float fx_attn_shfl_emulated(const float x, const int m, const int lane, __local uint *sx) {
  sx[lane] = as_uint(x);
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint y = sx[lane ^ m];
  barrier(CLK_LOCAL_MEM_FENCE);
  return as_float(y);
}
#define FX_ATTN_MMA(c, a, b) fx_mma_tf32_emulated(c, a, b, lane, fx_sa, fx_sb)
#define FX_ATTN_SHFL_F(x, m) fx_attn_shfl_emulated(x, m, lane, fx_sx)
#endif
/// x = big + small: big x's TF32 part rounded to nearest, small the rest (exact where
/// fx_attention_mma_fits holds).
inline uint fx_attn_big(float x) { return (as_uint(x) + 0x1000u) & 0xffffe000u; }
inline uint fx_attn_small(float x, uint big) { return as_uint(x - as_float(big)); }
/// The split of an A fragment's four words and of a B fragment's two.
inline void fx_attn_split_a(const float *x, uint *big, uint *small) {
#pragma unroll
  for (int w = 0; w < 4; ++w) {
    big[w] = fx_attn_big(x[w]);
    small[w] = fx_attn_small(x[w], big[w]);
  }
}
inline void fx_attn_split_b(const float2 x, uint *big, uint *small) {
  big[0] = fx_attn_big(x.x), big[1] = fx_attn_big(x.y);
  small[0] = fx_attn_small(x.x, big[0]), small[1] = fx_attn_small(x.y, big[1]);
}
/// a . b for one step of 8 as 3xTF32, summed from zero on the tensor cores (so only the step's
/// terms bear their truncating sums) and added to the float32 sums c.
#define FX_ATTN_MMA3(c, ab, as, bb, bs)                                                        \
  {                                                                                            \
    float p_[4] = {0.0f, 0.0f, 0.0f, 0.0f};                                                    \
    FX_ATTN_MMA(p_, as, bb);                                                                   \
    FX_ATTN_MMA(p_, ab, bs);                                                                   \
    FX_ATTN_MMA(p_, ab, bb);                                                                   \
    c[0] += p_[0], c[1] += p_[1], c[2] += p_[2], c[3] += p_[3];                                \
  }
/// Elements c and c + 1 of a row at `row` (a stride of `st` between them) with those at `width`
/// or past it 0: one 64-bit load where they are contiguous and aligned.
inline float2 fx_attn_load2(__global const float *x, const long row, const long st,
                            const int c, const long width) {
  if (st == 1 && c + 1 < width) {
    __global const float *p = x + row + c;
    if (((ulong)p & 7) == 0)
      return *(__global const float2 *)p;
    return (float2)(p[0], p[1]);
  }
  return (float2)(c < width ? x[row + c * st] : 0.0f, c + 1 < width ? x[row + (c + 1) * st] : 0.0f);
}
#endif
)CL";

constexpr std::string_view kMaskTilesSource = R"CL(
#ifdef FX_DEFINITION_fx_attention_mask_tiles
/// A byte per block of 16 query rows by FX_ATTN_MASK_KEYS keys of the mask (a work-group each):
/// 1 where it keeps no key of the block (bool false, or an added -inf), 2 where it keeps every
/// one adding 0, else 0; positions past M or N count as either. Block g is (b, h, row block,
/// key tile) over the mask's own extents (Bm, Hm: 1 where it is broadcast), key tiles last.
__kernel void FX_NAME(fx_attention_mask_tiles)(FX_IN(m), FX_OUT(f), const long blocks,
    const long Hm, const long RB, const long KT, const long M, const long N, FX_STRIDES4(m),
    const long dt_mask, const long mask_kind) {
  __global const uchar *mk = FX_AT(m);
  __global uchar *f = FX_AT(f);
  __local int dead, zero;
  const int lid = get_local_id(0);
  for (long g = get_group_id(0); g < blocks; g += get_num_groups(0)) {
    const long kt = g % KT, rb = g / KT % RB, bh = g / KT / RB;
    if (lid == 0)
      dead = zero = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    int d = 1, z = 1;
    for (int e = lid; e < 16 * FX_ATTN_MASK_KEYS; e += get_local_size(0)) {
      const long i = rb * 16 + e / FX_ATTN_MASK_KEYS,
                 j = kt * FX_ATTN_MASK_KEYS + e % FX_ATTN_MASK_KEYS;
      if (i < M && j < N) {
        FX_ACC a;
        const bool keep = FX_NAME(fx_attention_bias)(
            mk, bh / Hm * ms0 + bh % Hm * ms1 + i * ms2 + j * ms3, dt_mask, mask_kind, &a);
        d &= !keep || a == -INFINITY;
        z &= keep && a == 0;
      }
    }
    if (!d)
      dead = 0; // every work-item that writes writes 0
    if (!z)
      zero = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
      f[g] = dead ? 1 : zero ? 2 : 0;
    barrier(CLK_LOCAL_MEM_FENCE); // read before the next block's reset
  }
}
#endif
)CL";

// Loops that hold the kernel's products or shuffles are not unrolled in its emulation
// (`#pragma nounroll` there): each one holds barriers, and unrolled they cost PoCL minutes of
// build.
constexpr std::string_view kMmaSource = R"CL(
#if defined(FX_ATTN_MMA_D) && !defined(FX_FP64)
/// Tiles of FX_ATTN_MMA_BN keys for heads of up to FX_ATTN_MMA_D (DeviceAttentionMma.h): a
/// work-group of FX_ATTN_MMA_WARPS warps takes 16 consecutive query rows of one (batch, head) per
/// warp, the longest causal rows first; per tile its work-items copy K and V into local memory
/// in the products' fragment
/// order (V's keys within each step of 8 as 0, 2, 4, 6, 1, 3, 5, 7, so a lane's scores are
/// already its share of P as the second product's A operand), and each warp computes its rows'
/// scores S = Q K^T, their online softmax (a row's running maximum and sum across the four
/// lanes that hold it) and O += P V. A warp leaves out a tile none of whose keys its rows keep
/// (causality, a bool mask, an added -inf: exact, as the products are finite and V is).
__kernel __attribute__((reqd_work_group_size(FX_ATTN_MMA_THREADS, 1, 1)))
void FX_ATTN_MMA_NAME(FX_ATTN_MMA_KERNEL)(
    FX_IN(q), FX_IN(k), FX_IN(v), FX_IN(m), FX_OUT(o), FX_OUT(l), FX_ATTN_PARAMS, FX_IN(kb),
    FX_IN(mf), const long mfs0, const long mfs1, const long mfs2) {
  const float scale = FX_BITS(scale_bits);
  if (!FX_NAME(fx_attention_mma_fits)((__global const uint *)FX_AT(kb), E, N, scale))
    return; // the float32 kernel launched after this one computes the call
  __global const float *qf = (__global const float *)FX_AT(q);
  __global const float *kf = (__global const float *)FX_AT(k);
  __global const float *vf = (__global const float *)FX_AT(v);
  __global const uchar *mk = FX_AT(m);
  __global uchar *o = FX_AT(o), *l = FX_AT(l);
  // The products' depths and V's columns are permuted within their blocks so that a lane's two
  // words of a fragment are adjacent in memory (a 64-bit load and store each, no bank
  // conflicts in the copies): S sums over depths in any order, and O's columns are put back at
  // the store.
  // K as S's B operand: fragment (depth step c / 8, key block jj / 8), lane
  // (jj % 8) * 4 + (c % 8) / 2, word c % 2 (so the product's depth k of a step is the head's
  // 2k for k < 4, 2(k - 4) + 1 above). V as O's: fragment (key step jj / 8, column block b),
  // lane g * 4 + (jj % 8) / 2, word jj % 2, where column 16u + 2g + e is block 2u + e's g.
  __local float2 Ks[FX_ATTN_MMA_BN * FX_ATTN_MMA_D / 2];
  __local float2 Vs[FX_ATTN_MMA_BN * FX_ATTN_MMA_D / 2];
#ifndef FX_ATTN_MMA_QREGS
  __local float4 Qs[FX_ATTN_MMA_D / 8 * FX_ATTN_MMA_WARPS * 32];
#endif
#ifdef FX_ATTN_MMA_EMULATE
  __local uint fx_sa[128], fx_sb[64], fx_sx[32]; // the emulated warp's exchanges
#endif
  __local float *ks = (__local float *)Ks, *vs = (__local float *)Vs;
#undef FX_ATTN_MMA_KFRAGS
#undef FX_ATTN_MMA_VPAIRS
#define FX_ATTN_MMA_KFRAGS (FX_ATTN_MMA_D / 8 * FX_ATTN_MMA_BN / 8)
#define FX_ATTN_MMA_VPAIRS (FX_ATTN_MMA_BN / 8 * FX_ATTN_MMA_D / 16)
  const int tid = get_local_id(0), lane = tid & 31, warp = tid >> 5;
  const int gq = lane >> 2, tq = lane & 3;
  const long tiles = (Mx + FX_ATTN_MMA_ROWS - 1) / FX_ATTN_MMA_ROWS;
  const long units = xnumel / Mx * tiles;
  for (long u = get_group_id(0); u < units; u += get_num_groups(0)) {
    const long bh = u / tiles, first = (tiles - 1 - u % tiles) * FX_ATTN_MMA_ROWS;
    const long h = bh % H, b = bh / H;
    const long krow = b * ks0 + h * ks1, vrow = b * vs0 + h * vs1;
    // This lane's rows gq and gq + 8 of the warp's 16 (rows past M compute row M - 1: the
    // logsumexp padding stores +inf only; rows past Mx store nothing).
    // Key positions are int (the host takes only calls whose rows and keys fit one).
    long ix[2], iq[2], mrow[2];
    int lim[2];
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      ix[r] = first + warp * 16 + gq + 8 * r;
      iq[r] = min(ix[r], M - 1);
      lim[r] = (int)(causal ? min(N, iq[r] + 1) : N);
      mrow[r] = b * ms0 + h * ms1 + iq[r] * ms2;
    }
    // Q as S's A operand, in registers (FX_ATTN_MMA_QREGS) or local memory (each lane reads back
    // only what it wrote: registers it frees for the scores and the accumulators): word w of
    // depth step t is row gq + 8 (w % 2), the product's depth tq + 4 (w / 2): the head's
    // 8t + 2tq + w / 2.
#ifdef FX_ATTN_MMA_QREGS
    float qr[FX_ATTN_MMA_D / 8][4];
#pragma unroll
#endif
    for (int t = 0; t < FX_ATTN_MMA_D / 8; ++t) {
      float x[4];
#pragma unroll
      for (int w = 0; w < 4; ++w) {
        const int c = 8 * t + 2 * tq + (w >> 1);
        x[w] = c < E ? qf[b * qs0 + h * qs1 + iq[w & 1] * qs2 + c * qs3] : 0.0f;
      }
#ifdef FX_ATTN_MMA_QREGS
      qr[t][0] = x[0], qr[t][1] = x[1], qr[t][2] = x[2], qr[t][3] = x[3];
#else
      Qs[(t * FX_ATTN_MMA_WARPS + warp) * 32 + lane] = (float4)(x[0], x[1], x[2], x[3]);
#endif
    }
    // The keys any row of the group reads (uniform over the group: its barriers) and any of
    // this warp's.
    const long groupLimit = causal ? min(N, min(M - 1, first + FX_ATTN_MMA_ROWS - 1) + 1) : N;
    // (None where all its rows are the logsumexp's padding past M: they store +inf only.)
    const long warpLimit = first + warp * 16 >= M ? 0
                           : causal             ? min(N, min(M - 1, first + warp * 16 + 15) + 1)
                                                : N;
    // The mask's flags for this warp's rows, a byte per block of FX_ATTN_MASK_KEYS keys
    // (fx_attention_mask_tiles).
    __global const uchar *mflags = FX_AT(mf) + b * mfs0 + h * mfs1 + (first / 16 + warp) * mfs2;
    float acc[FX_ATTN_MMA_D / 8][4];
#pragma unroll
    for (int t = 0; t < FX_ATTN_MMA_D / 8; ++t)
      acc[t][0] = acc[t][1] = acc[t][2] = acc[t][3] = 0.0f;
    float mx[2] = {-INFINITY, -INFINITY}, sum[2] = {0.0f, 0.0f};
    for (int j0 = 0; j0 < (int)groupLimit; j0 += FX_ATTN_MMA_BN) {
      barrier(CLK_LOCAL_MEM_FENCE); // every warp is done with the previous tile
      // Every load of the tile first, then the stores: the loads' latencies overlap. Each
      // warp copies whole fragments, a lane the words its own lane holds: K's fragments
      // (t, n) and V's pairs of column blocks (key step s, blocks 2u and 2u + 1: rows 2tq and
      // 2tq + 1 at columns 16u + 2gq and the next).
      float2 kx[FX_ATTN_MMA_KFRAGS / FX_ATTN_MMA_WARPS];
      float2 vx[2 * FX_ATTN_MMA_VPAIRS / FX_ATTN_MMA_WARPS];
#pragma unroll
      for (int it = 0; it < FX_ATTN_MMA_KFRAGS / FX_ATTN_MMA_WARPS; ++it) {
        const int f = warp + FX_ATTN_MMA_WARPS * it;
        const int j = j0 + 8 * (f % (FX_ATTN_MMA_BN / 8)) + gq;
        const int c = 8 * (f / (FX_ATTN_MMA_BN / 8)) + 2 * tq;
        kx[it] = j < N ? fx_attn_load2(kf, krow + j * ks2, ks3, c, E) : (float2)0.0f;
      }
#pragma unroll
      for (int it = 0; it < FX_ATTN_MMA_VPAIRS / FX_ATTN_MMA_WARPS; ++it) {
        const int f = warp + FX_ATTN_MMA_WARPS * it;
        const int j = j0 + 8 * (f / (FX_ATTN_MMA_D / 16)) + 2 * tq;
        const int c = 16 * (f % (FX_ATTN_MMA_D / 16)) + 2 * gq;
        vx[2 * it] = j < N ? fx_attn_load2(vf, vrow + j * vs2, vs3, c, Ev) : (float2)0.0f;
        vx[2 * it + 1] =
            j + 1 < N ? fx_attn_load2(vf, vrow + (j + 1) * vs2, vs3, c, Ev) : (float2)0.0f;
      }
#pragma unroll
      for (int it = 0; it < FX_ATTN_MMA_KFRAGS / FX_ATTN_MMA_WARPS; ++it)
        Ks[(warp + FX_ATTN_MMA_WARPS * it) * 32 + lane] = kx[it];
#pragma unroll
      for (int it = 0; it < FX_ATTN_MMA_VPAIRS / FX_ATTN_MMA_WARPS; ++it) {
        const int f = warp + FX_ATTN_MMA_WARPS * it;
        const int at =
            (f / (FX_ATTN_MMA_D / 16) * (FX_ATTN_MMA_D / 8) + 2 * (f % (FX_ATTN_MMA_D / 16))) * 32 +
            lane;
        Vs[at] = (float2)(vx[2 * it].x, vx[2 * it + 1].x);
        Vs[at + 32] = (float2)(vx[2 * it].y, vx[2 * it + 1].y);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      if (j0 >= (int)warpLimit)
        continue; // causal: no row of this warp reaches the tile
      // The mask over the warp's rows and the tile's keys: 2 where it adds 0 everywhere (no
      // mask, or read from its flags), 1 where it keeps no key (weights of 0 times finite values:
      // the tile is left out), else 0 (its values read below).
      int flag = 2;
      if (mask_kind != 0) { // the tile's blocks: none kept in all, 0 added in all, else read
        int dead = 1, zero = 1;
        for (int q = 0; q < FX_ATTN_MMA_BN / FX_ATTN_MASK_KEYS; ++q)
          if (j0 + q * FX_ATTN_MASK_KEYS < N) { // blocks past the last key hold nothing
            const int f = mflags[j0 / FX_ATTN_MASK_KEYS + q];
            dead &= f == 1;
            zero &= f == 2;
          }
        flag = dead ? 1 : zero ? 2 : 0;
      }
      if (flag == 1)
        continue;
      float sc[FX_ATTN_MMA_BN / 8][4];
#pragma unroll
      for (int n = 0; n < FX_ATTN_MMA_BN / 8; ++n)
        sc[n][0] = sc[n][1] = sc[n][2] = sc[n][3] = 0.0f;
      // With Q in local memory a loop, not unrolled: unrolled, the compiler's early loads took
      // every register. In registers it is unrolled (its indices must be constants).
#if !defined(FX_ATTN_MMA_QREGS)
#pragma unroll 1
#elif defined(FX_ATTN_MMA_EMULATE)
#pragma nounroll
#else
#pragma unroll
#endif
      for (int t = 0; t < FX_ATTN_MMA_D / 8; ++t) {
#ifdef FX_ATTN_MMA_QREGS
        const float qw[4] = {qr[t][0], qr[t][1], qr[t][2], qr[t][3]};
#else
        const float4 qv = Qs[(t * FX_ATTN_MMA_WARPS + warp) * 32 + lane];
        const float qw[4] = {qv.x, qv.y, qv.z, qv.w};
#endif
        uint ab[4], as[4];
        fx_attn_split_a(qw, ab, as);
#ifdef FX_ATTN_MMA_EMULATE
#pragma nounroll
#else
#pragma unroll
#endif
        for (int n = 0; n < FX_ATTN_MMA_BN / 8; ++n) {
          uint bb[2], bs[2];
          fx_attn_split_b(Ks[(t * (FX_ATTN_MMA_BN / 8) + n) * 32 + lane], bb, bs);
          FX_ATTN_MMA3(sc[n], ab, as, bb, bs)
        }
      }
      // Scores, and the rows' new maxima (NaN scores do not raise them; their weights are NaN).
      float mt[2] = {mx[0], mx[1]};
#pragma unroll
      for (int n = 0; n < FX_ATTN_MMA_BN / 8; ++n)
#pragma unroll
        for (int w = 0; w < 4; ++w) {
          // Block n, word w: row gq + 8 (w / 2), key 8n + 2tq + w % 2; -inf where not kept.
          const int r = w >> 1;
          const int j = j0 + 8 * n + 2 * tq + (w & 1);
          float add = -INFINITY, a;
          if (j < lim[r] && (flag == 2 || FX_NAME(fx_attention_bias)(mk, mrow[r] + j * ms3,
                                                                     dt_mask, mask_kind, &a)))
            add = flag == 2 ? 0.0f : a;
          const float x = add == -INFINITY ? -INFINITY : sc[n][w] * scale + add;
          sc[n][w] = x;
          mt[r] = x > mt[r] ? x : mt[r];
        }
#ifdef FX_ATTN_MMA_EMULATE
#pragma nounroll
#else
#pragma unroll
#endif
      for (int r = 0; r < 2; ++r) {
        mt[r] = fmax(mt[r], FX_ATTN_SHFL_F(mt[r], 1));
        mt[r] = fmax(mt[r], FX_ATTN_SHFL_F(mt[r], 2));
        if (mt[r] != mx[r]) { // rescaled to the new maximum (by 0 from -inf)
          const float alpha = FX_EXP_F(mx[r] - mt[r]);
          mx[r] = mt[r];
          sum[r] *= alpha;
#pragma unroll
          for (int t = 0; t < FX_ATTN_MMA_D / 8; ++t)
            acc[t][2 * r] *= alpha, acc[t][2 * r + 1] *= alpha;
        }
      }
      // O += P V: block n of the scores is key step n's A operand (words 0, 2, 1, 3).
#ifdef FX_ATTN_MMA_EMULATE
#pragma nounroll
#else
#pragma unroll
#endif
      for (int n = 0; n < FX_ATTN_MMA_BN / 8; ++n) {
        float p[4];
#pragma unroll
        for (int w = 0; w < 4; ++w) {
          const float x = sc[n][w], m = mx[w >> 1];
          // A masked key weighs 0, a key at the maximum 1 (also a score of +inf).
          p[w] = x == -INFINITY ? 0.0f : x == m ? 1.0f : FX_EXP_F(x - m);
          sum[w >> 1] += p[w];
        }
        const float pa[4] = {p[0], p[2], p[1], p[3]};
        uint ab[4], as[4];
        fx_attn_split_a(pa, ab, as);
#ifdef FX_ATTN_MMA_EMULATE
#pragma nounroll
#else
#pragma unroll
#endif
        for (int t = 0; t < FX_ATTN_MMA_D / 8; ++t) {
          uint bb[2], bs[2];
          fx_attn_split_b(Vs[(n * (FX_ATTN_MMA_D / 8) + t) * 32 + lane], bb, bs);
          FX_ATTN_MMA3(acc[t], ab, as, bb, bs)
        }
      }
    }
#ifdef FX_ATTN_MMA_EMULATE
#pragma nounroll
#else
#pragma unroll
#endif
    for (int r = 0; r < 2; ++r) {
      sum[r] += FX_ATTN_SHFL_F(sum[r], 1);
      sum[r] += FX_ATTN_SHFL_F(sum[r], 2);
      const bool live = ix[r] < Mx, pad = ix[r] >= M, empty = mx[r] == -INFINITY;
      const long orow = b * os0 + h * os1 + iq[r] * os2;
      if (live && !pad)
#pragma unroll
        for (int t = 0; t < FX_ATTN_MMA_D / 8; ++t)
#pragma unroll
          for (int e = 0; e < 2; ++e) {
            // Block t's column 2tq + e: the head's 16 (t / 2) + 4tq + 2e + t % 2.
            const int c = 16 * (t >> 1) + 4 * tq + 2 * e + (t & 1);
            if (c < Ev)
              FX_ST(o, orow + c * os3, dt_out, empty ? 0.0f : acc[t][2 * r + e] / sum[r]);
          }
      if (live && has_lse && tq == 0)
        FX_ST(l, b * ls0 + h * ls1 + ix[r] * ls2, dt_lse,
              pad ? INFINITY : empty ? -INFINITY : mx[r] + log(sum[r]));
    }
  }
}
#endif
)CL";

/// The tensor-core kernel's forms (AttentionMmaForm): each head dimension's default first, then
/// those the tuner times against it (chooseAttentionMma). Measured on an H200 (bench/README.md,
/// session 24): 8 warps won at most shapes; 4 at few rows per head (vit's 197) and for causal
/// heads of 128, where 8 warps' 128 rows leave the GPU too few work-groups. Local memory holds a
/// tile of K and V (2 x keys x headDim floats) and, outside registers, Q (16 rows a warp): at most
/// NVIDIA's 48 KiB.
constexpr AttentionMmaForm kMmaForms[] = {
    {32, 4, 32, false}, {64, 8, 32, false},  {128, 8, 32, true}, {32, 8, 32, false},
    {64, 4, 32, false}, {128, 4, 16, false}, {128, 4, 32, true},
};
constexpr int localBytes(const AttentionMmaForm &f) {
  return 2 * f.keys * f.headDim * 4 + (f.qInRegisters ? 0 : f.headDim * f.warps * 64);
}
static_assert(std::all_of(std::begin(kMmaForms), std::end(kMmaForms),
                          [](const AttentionMmaForm &f) {
                            return localBytes(f) <= 48 * 1024 && f.keys % 16 == 0 &&
                                   f.headDim / 8 * f.keys / 8 % f.warps == 0 &&
                                   f.keys / 8 * f.headDim / 16 % f.warps == 0;
                          }),
              "a tensor-core attention form past 48 KiB of local memory, or whose tile's "
              "fragments do not divide among its warps");
/// The mask flags' block: 16 rows by 16 keys (a tile reads the flags of its blocks).
constexpr int kMaskKeys = 16;

/// The default form of each head dimension (the first listed) and its emulation's.
constexpr AttentionMmaForm defaultForm(int headDim) {
  for (const AttentionMmaForm &f : kMmaForms)
    if (f.headDim == headDim)
      return f;
  return {};
}
constexpr int kMmaHeadDims[] = {32, 64, 128};

/// The emulation's definitions: the listed forms on one warp, each once (the default's first).
std::vector<AttentionMmaForm> emulatedForms() {
  std::vector<AttentionMmaForm> out;
  for (AttentionMmaForm f : kMmaForms) {
    f.warps = 1;
    if (std::none_of(out.begin(), out.end(), [&](const AttentionMmaForm &g) {
          return g.headDim == f.headDim && g.keys == f.keys && g.qInRegisters == f.qInRegisters;
        }))
      out.push_back(f);
  }
  return out;
}

} // namespace

std::string AttentionMmaForm::name(bool emulated) const {
  return "fx_attention_mma" + std::to_string(headDim) + "_w" + std::to_string(warps) + "k" +
         std::to_string(keys) + (qInRegisters ? "r" : "") + (emulated ? "e" : "");
}

const std::string &attentionMmaSource() {
  static const std::string source = [] {
    // The kernel's macros only where one of its definitions is built (its PTX is NVIDIA's).
    std::string out;
    auto define = [&](const AttentionMmaForm &f, bool emulated) {
      const std::string name = f.name(emulated);
      out += "#ifdef FX_DEFINITION_" + name + "\n#define FX_ATTN_MMA_D " +
             std::to_string(f.headDim) + "\n#define FX_ATTN_MMA_KERNEL " + name +
             "\n#define FX_ATTN_MMA_WARPS " + std::to_string(f.warps) +
             "\n#define FX_ATTN_MMA_BN " + std::to_string(f.keys) + "\n" +
             (emulated ? "#define FX_ATTN_MMA_EMULATE 1\n" : "") +
             (f.qInRegisters ? "#define FX_ATTN_MMA_QREGS 1\n" : "") + "#endif\n";
    };
    for (const AttentionMmaForm &f : kMmaForms)
      define(f, false);
    for (const AttentionMmaForm &f : emulatedForms())
      define(f, true);
    out += "#define FX_ATTN_MASK_KEYS " + std::to_string(kMaskKeys) + "\n" +
           std::string(kMaskTilesSource) + std::string(kTensorCoreMmaSource) +
           std::string(kMmaHelpers);
    out += kMmaSource;
    return out;
  }();
  return source;
}

std::vector<std::pair<std::string_view, bool>> attentionMmaKernels() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const AttentionMmaForm &f : kMmaForms)
      out.push_back(f.name(false));
    for (const AttentionMmaForm &f : emulatedForms())
      out.push_back(f.name(true));
    return out;
  }();
  std::vector<std::pair<std::string_view, bool>> out = {{"fx_attention_mask_tiles", false}};
  for (const std::string &n : names)
    out.emplace_back(n, false);
  return out;
}

std::string AttentionMmaKernel::name() const { return form.name(emulated); }

Expected<AttentionMmaKernel>
attentionMmaKernel(const DeviceInfo &device, const OpenCLOptions &options, int64_t E, int64_t Ev) {
  const bool emulated = options.attentionTensorCoreEmulation;
  if (!emulated && (device.nvComputeMajor < 8 || device.nvWarpSize != 32))
    return AttentionMmaKernel{};
  if (const char *v = std::getenv("FXKIT_ATTENTION_MMA"); v && std::string_view(v) == "0")
    return AttentionMmaKernel{};
  // The emulation builds the 64- and 128-wide definitions only, to keep its builds few
  // (heads narrower than a definition are padded with zeros).
  for (int d : kMmaHeadDims) {
    if (std::max(E, Ev) > d || (emulated && d < 64))
      continue;
    AttentionMmaForm form = defaultForm(d);
    bool forced = false;
    if (emulated) {
      form.warps = 1;
    } else if (const char *v = std::getenv("FXKIT_ATTENTION_MMA_FORM"); v && *v) {
      // "128_w4k32r,64_w4k64r": listed forms (their names after fx_attention_mma), to time them
      // against the defaults; each applies to its head dimension.
      std::string_view rest = v;
      while (!rest.empty()) {
        const std::string_view item = rest.substr(0, rest.find(','));
        rest.remove_prefix(std::min(rest.size(), item.size() + 1));
        const auto it = std::find_if(
            std::begin(kMmaForms), std::end(kMmaForms), [&](const AttentionMmaForm &f) {
              return f.name(false) == "fx_attention_mma" + std::string(item);
            });
        if (it == std::end(kMmaForms))
          return Error("FXKIT_ATTENTION_MMA_FORM: no tensor-core attention form " +
                       std::string(item) + " (one of 64_w8k32, 128_w4k16, ...)");
        if (it->headDim == d)
          form = *it, forced = true;
      }
    }
    return AttentionMmaKernel{form, emulated, forced};
  }
  return AttentionMmaKernel{};
}

bool attentionMmaAlone() {
  const char *v = std::getenv("FXKIT_ATTENTION_MMA");
  return v && std::string_view(v) == "only";
}

Status launchAttentionMma(Launcher &launcher, const OpenCLContext &ctx,
                          const AttentionMmaKernel &kernel, std::span<const LaunchArg> args,
                          const AttentionMmaShape &shape, ScratchBuffer &tiles) {
  std::vector<LaunchArg> all(args.begin(), args.end());
  const AttentionMask &mask = shape.mask;
  if (mask.operand) {
    // The mask's flags per block of 16 rows by a tile of keys, over its own extents.
    const int64_t Bm = mask.strides[0] ? shape.B : 1, Hm = mask.strides[1] ? shape.H : 1;
    const int64_t RB = (shape.M + 15) / 16, KT = (shape.N + kMaskKeys - 1) / kMaskKeys;
    const int64_t blocks = Bm * Hm * RB * KT;
    FXKIT_ASSIGN_OR_RETURN(DeviceBuffer flags, tiles.get(ctx, static_cast<size_t>(blocks)));
    flags.bytes = static_cast<size_t>(blocks);
    std::vector<LaunchArg> f = {bufferArg(*mask.operand, false),
                                bufferArg(flags, true),
                                longArg(blocks),
                                longArg(Hm),
                                longArg(RB),
                                longArg(KT),
                                longArg(shape.M),
                                longArg(shape.N)};
    appendLongs(f, {mask.strides});
    f.push_back(longArg(dtypeCode(mask.operand->dtype)));
    f.push_back(longArg(mask.kind));
    LaunchConfig config;
    config.local = kMaskTilesLocal;
    const int64_t groups = std::min<int64_t>(blocks, int64_t{1} << 16);
    auto done =
        launcher.launchWith("fx_attention_mask_tiles", f, groups * kMaskTilesLocal, config, false);
    if (!done)
      return done.error();
    all.push_back(bufferArg(flags, false));
    all.push_back(longArg(mask.strides[0] ? Hm * RB * KT : 0));
    all.push_back(longArg(mask.strides[1] ? RB * KT : 0));
    all.push_back(longArg(KT));
  } else {
    all.push_back(args.front()); // never read
    for (int i = 0; i < 3; ++i)
      all.push_back(longArg(0));
  }
  const int threads = 32 * kernel.form.warps, rows = 16 * kernel.form.warps;
  LaunchConfig config;
  config.local = threads;
  const int64_t groups = shape.B * shape.H * ((shape.rowsPerHead + rows - 1) / rows);
  auto done = launcher.launchWith(kernel.name(), all, groups * threads, config, false);
  if (!done)
    return done.error();
  return Status::ok();
}

bool attentionMmaFits(std::span<const uint32_t> words, int64_t E, int64_t N, float scale) {
  assert(words.size() == kAttentionBoundWords && "fx_attention_bounds writes six words");
  const uint32_t tiny = 0x7fffffffu - std::bit_cast<uint32_t>(0x1p-100f);
  if (words[0] >= 0x7f800000u || words[1] >= 0x7f800000u || words[2] >= 0x7f800000u ||
      words[3] > tiny || words[4] > tiny || words[5] > tiny)
    return false;
  const auto f = [&](int i) { return std::bit_cast<float>(words[i]); };
  return static_cast<float>(E) * f(2) * f(0) * std::max(1.0f, std::fabs(scale)) < 0x1p126f &&
         static_cast<float>(N) * f(1) < 0x1p126f;
}

Expected<AttentionMmaKernel>
chooseAttentionMma(Launcher &launcher, OpenCLContext &ctx, const OpenCLOptions &options,
                   const AttentionMmaKernel &kernel, std::span<const LaunchArg> args,
                   const AttentionMmaShape &shape, FamilyState &state) {
  // The emulation times its own forms (one warp each), so that the tuner runs on any device.
  std::vector<AttentionMmaForm> forms;
  for (const AttentionMmaForm &f :
       kernel.emulated ? emulatedForms()
                       : std::vector<AttentionMmaForm>(std::begin(kMmaForms), std::end(kMmaForms)))
    if (f.headDim == kernel.headDim())
      forms.push_back(f);
  if (kernel.forced || !options.tune || forms.size() < 2)
    return kernel;
  // Choices are cached per device and driver, and per kernel source: a changed kernel times its
  // shapes again.
  // (Hashed only where the cache is read or written: not on every call.)
  auto cacheKey = [&] {
    const DeviceInfo &dev = ctx.device();
    return CacheKey::of("fx_attention_forms", attentionMmaSource() + "\n" + dev.platformName +
                                                  "\n" + dev.deviceName + "\n" + dev.deviceVersion +
                                                  "\n" + dev.driverVersion);
  };
  if (!state.attentionFormsLoaded) {
    state.attentionFormsLoaded = true;
    state.attentionForms = KernelCache(options.cacheDir, options.cache).loadTuning(cacheKey());
  }
  const AttentionMask &mask = shape.mask;
  std::string key = std::to_string(shape.B) + "x" + std::to_string(shape.H) + "x" +
                    std::to_string(shape.M) + "x" + std::to_string(shape.N) + " e" +
                    std::to_string(shape.E) + "/" + std::to_string(shape.Ev) +
                    (shape.causal ? " causal" : "") + " mask" + std::to_string(mask.kind);
  if (mask.operand)
    key += mask.strides[0] ? "b" : "-", key += mask.strides[1] ? "h" : "-";
  AttentionMmaKernel out = kernel;
  if (auto it = state.attentionForms.find(key); it != state.attentionForms.end()) {
    for (const AttentionMmaForm &f : forms)
      if (f.name(kernel.emulated) == it->second)
        out.form = f;
    return out;
  }
  // Values the split gets wrong: every form would decline at once, so nothing is timed (or
  // cached) on this call.
  uint32_t words[kAttentionBoundWords] = {};
  if (clEnqueueReadBuffer(ctx.queue(), shape.bounds.mem, CL_TRUE, shape.bounds.offset, sizeof words,
                          words, 0, nullptr, nullptr) != CL_SUCCESS ||
      !attentionMmaFits(words, shape.E, shape.N, shape.scale))
    return out;
  CallTimer timer;
  double best = -1;
  for (const AttentionMmaForm &f : forms) {
    AttentionMmaKernel trial = kernel;
    trial.form = f;
    auto run = [&] {
      return launchAttentionMma(launcher, ctx, trial, args, shape, state.maskTiles);
    };
    if (!run()) // builds and warms; a form this device cannot run is left out
      continue;
    timer.begin(ctx);
    for (int rep = 0; rep < 2; ++rep)
      if (!run())
        break;
    timer.end(ctx);
    clFinish(ctx.queue());
    timer.collect();
    if (timer.seconds().empty())
      continue;
    const double t = timer.seconds().back() / 2;
    if (std::getenv("FXKIT_TUNE_LOG"))
      std::fprintf(stderr, "fxkit: attention %s %s: %.4f ms\n", key.c_str(),
                   f.name(kernel.emulated).c_str(), t * 1e3);
    if (best < 0 || t < best)
      best = t, out.form = f;
  }
  timer.release();
  if (best >= 0) {
    state.attentionForms[key] = out.form.name(kernel.emulated);
    // The cache only saves time: a failed write is ignored.
    (void)KernelCache(options.cacheDir, options.cache)
        .storeTuning(cacheKey(), state.attentionForms);
  }
  return out;
}

} // namespace fxkit::opencl::device_externs
