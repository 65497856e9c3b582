/// \file The GEMM template (GemmTemplate.h): its OpenCL C, its tile shapes, and the choice
/// among them and the BLAS library per shape.
///
/// The kernel is the classic register-blocked SGEMM (as in CLBlast's Xgemm and Triton's matmul
/// tutorial): each step, the work-group copies a TM x TK slice of A and a TK x TN slice of B
/// into local memory (stored k-major, padded so neither the copy nor the reads conflict on
/// banks), then every work-item accumulates its WM x WN block from float4 reads of them with
/// fused multiply-adds. The next step's slices are read from global memory into registers while
/// the current one is computed. A work-item's rows are WM / 4 groups of 4 consecutive rows,
/// spaced TM / (WM / 4) apart (its columns likewise), so the float4 reads of a warp fall on
/// distinct banks. The convolution form gathers B from the input's patches as it loads it and
/// stores C through the output's strides.

#include "backends/opencl/runtime/GemmTemplate.h"

#include "backends/opencl/runtime/CallTimer.h"
#include "backends/opencl/runtime/DeviceExternSupport.h"
#include "backends/opencl/runtime/KernelCache.h"
#include "backends/opencl/runtime/TensorCoreMma.h"

#include "ir/StorageSpan.h"
#include "ir/TextTemplate.h"
#include "ir/Try.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <span>

namespace fxkit::opencl {

using namespace device_externs;

namespace {

/// One definition's macros (TA, TB: A or B stored transposed).
constexpr std::string_view kInstance = R"CL(
#ifdef FX_DEFINITION_{{NAME}}
#define FX_GEMM_NAME {{NAME}}
#define FX_GEMM_TM {{TM}}
#define FX_GEMM_TN {{TN}}
#define FX_GEMM_TK {{TK}}
#define FX_GEMM_WM {{WM}}
#define FX_GEMM_WN {{WN}}
#define FX_GEMM_TA {{TA}}
#define FX_GEMM_TB {{TB}}
#define FX_GEMM_CONV {{CONV}}
#define FX_GEMM_MMA {{MMA}}
#define FX_GEMM_FLOAT32_ONLY {{FLOAT32_ONLY}}
#define FX_GEMM_MMA_EMULATE {{EMULATE}}
#endif
)CL";

constexpr std::string_view kBody = R"CL(
#ifdef FX_GEMM_NAME
#define FX_GEMM_KERNEL(n) FX_NAME(n)
// A fused epilogue (GemmEpilogue) defines its parameters, after a comma, and its call at the
// number of an element of C with the element's value.
#ifndef FX_GEMM_EPILOGUE
#define FX_GEMM_EPILOGUE_PARAMS
#define FX_GEMM_EPILOGUE(point, value)
#endif
#define FX_GEMM_TX (FX_GEMM_TN / FX_GEMM_WN)
#define FX_GEMM_TY (FX_GEMM_TM / FX_GEMM_WM)
#if FX_GEMM_MMA
// Tensor-core tiles: a warp computes a WM x WN block of C (WN is the count of warps along N).
#define FX_GEMM_THREADS (FX_GEMM_TX * FX_GEMM_TY * 32)
#else
#define FX_GEMM_THREADS (FX_GEMM_TX * FX_GEMM_TY)
#endif
#define FX_GEMM_LA (FX_GEMM_TM * FX_GEMM_TK / FX_GEMM_THREADS)
#define FX_GEMM_LB (FX_GEMM_TN * FX_GEMM_TK / FX_GEMM_THREADS)
#define FX_GEMM_PAD 4
#define FX_GEMM_AROW (FX_GEMM_TM + FX_GEMM_PAD)
#define FX_GEMM_BROW (FX_GEMM_TN + FX_GEMM_PAD)
// Element r of this work-item's share of a slice: (row or column, depth) within the tile.
#define FX_GEMM_E(r) (tid + (r) * FX_GEMM_THREADS)
#if FX_GEMM_TA
#define FX_GEMM_A_MM(r) (FX_GEMM_E(r) % FX_GEMM_TM)
#define FX_GEMM_A_KK(r) (FX_GEMM_E(r) / FX_GEMM_TM)
#define FX_GEMM_A_AT(row, p) A[(p) * lda + (row)]
#else
#define FX_GEMM_A_MM(r) (FX_GEMM_E(r) / FX_GEMM_TK)
#define FX_GEMM_A_KK(r) (FX_GEMM_E(r) % FX_GEMM_TK)
#define FX_GEMM_A_AT(row, p) A[(row) * lda + (p)]
#endif
#if FX_GEMM_TB
#define FX_GEMM_B_NN(r) (FX_GEMM_E(r) / FX_GEMM_TK)
#define FX_GEMM_B_KK(r) (FX_GEMM_E(r) % FX_GEMM_TK)
#define FX_GEMM_B_AT(p, col) B[(col) * ldb + (p)]
#else
#define FX_GEMM_B_NN(r) (FX_GEMM_E(r) % FX_GEMM_TN)
#define FX_GEMM_B_KK(r) (FX_GEMM_E(r) / FX_GEMM_TN)
#define FX_GEMM_B_AT(p, col) B[(p) * ldb + (col)]
#endif
#define FX_GEMM_LOAD(k0)                                                                       \
  for (int r = 0; r < FX_GEMM_LA; ++r) {                                                       \
    const int row = m0 + FX_GEMM_A_MM(r), p = (k0) + FX_GEMM_A_KK(r);                          \
    ra[r] = row < M && p < K ? FX_GEMM_A_AT(row, p) : 0.0f;                                    \
  }                                                                                            \
  FX_GEMM_LOAD_B(k0)
#if FX_GEMM_CONV
#define FX_GEMM_LOAD_B(k0)                                                                     \
  for (int r = 0; r < FX_GEMM_LB; ++r) {                                                       \
    const int p = (k0) + FX_GEMM_B_KK(r);                                                      \
    const int4 d = T[min(p, K - 1)];                                                           \
    const int ih = ih0[r] + d.y, iw = iw0[r] + d.z;                                            \
    rb[r] = p < K && ih >= 0 && ih < H && iw >= 0 && iw < W ? X[cb[r] + d.x] : 0.0f;           \
  }
#else
#define FX_GEMM_LOAD_B(k0)                                                                     \
  for (int r = 0; r < FX_GEMM_LB; ++r) {                                                       \
    const int col = n0 + FX_GEMM_B_NN(r), p = (k0) + FX_GEMM_B_KK(r);                          \
    rb[r] = col < N && p < K ? FX_GEMM_B_AT(p, col) : 0.0f;                                    \
  }
#endif

#if FX_GEMM_MMA
#if !FX_GEMM_FLOAT32_ONLY
// Tensor cores (NVIDIA, compute capability 8 and later): one m16n8k8 product with TF32 operands
// (the top 19 bits of each word) added to c (TensorCoreMma.h); emulated, each warp's through its
// own words of local memory (tests where there are no tensor cores; its loops are not unrolled,
// as each product holds two barriers).
#if FX_GEMM_MMA_EMULATE
#define FX_GEMM_MMA_OP(c, a, b)                                                                \
  fx_mma_tf32_emulated(c, a, b, lane, fxMmaA + warp * 128, fxMmaB + warp * 64)
#else
#define FX_GEMM_MMA_OP(c, a, b) FX_MMA_TF32(c, a, b)
#endif
// 3xTF32 (as CUTLASS's fast accurate float32): x = big + small, big x's TF32 part rounded to
// nearest and small the rest (exact in float32, at most 2^-12 of x; the tensor cores keep its top
// 11 bits); a product is big * big + big * small + small * big, which leaves out small * small
// (2^-24 of it). Three operations per word, unchecked: the split is wrong for infinities, NaNs,
// magnitudes that round to infinity and those whose rest falls below float32's normal range, so
// a tile whose rows of A or columns of B hold any of those (fx_gemm_special_rows flags them
// before the launch) is left unstored, and the float32 form launched after it computes it with
// float32 FMAs. (Guarding every split cost an H200 a sixth of the tiles' speed, checking every
// copy an eighth, a float32 loop in this kernel 5% in spilled registers; bench/README.md,
// sessions 20 to 22.)
inline uint fx_tf32_big(float x) { return (as_uint(x) + 0x1000u) & 0xffffe000u; }
inline uint fx_tf32_small(float x, uint big) { return as_uint(x - as_float(big)); }
#endif
// The slices in m16n8k8 fragment order, each 8-deep block's depths permuted (the mma's depth t
// is k 2t, its depth t + 4 is k 2t + 1, for A and B alike, so the sums are the same): a lane
// (gq, tq) of an A fragment holds rows gq and gq + 8 at the adjacent depths 2tq and 2tq + 1
// (words 0-1 and 2-3), of a B fragment column gq at them, so a float4 read along k is stored as
// two float2s. Lane slots are swizzled (A's by bit 1 of the row, B's by bit 2 of the column),
// which keeps each quarter-warp's (A) or half-warp's (B) fragment read on distinct banks and,
// with the copy's order below, each half-warp's 64-bit stores too. (Element-wise stores of the
// unpermuted order met 8-way (A) and 4-way (B) bank conflicts: an H200 ran the reference kernel
// 16-23% faster without them, bench/README.md, session 25.) A warp reads its A fragment as one
// float4 and its B fragment as one float2.
#define FX_GEMM_A_FRAG(mm, kk)                                                                 \
  ((((kk) >> 3) * (FX_GEMM_TM / 16) + ((mm) >> 4)) * 128 +                                     \
   ((((mm)&7) * 4 + (((kk)&7) >> 1)) ^ (((mm) >> 1) & 1)) * 4 + (((mm) >> 3) & 1) * 2 + ((kk)&1))
#define FX_GEMM_B_FRAG(nn, kk)                                                                 \
  ((((kk) >> 3) * (FX_GEMM_TN / 8) + ((nn) >> 3)) * 64 +                                       \
   ((((nn)&7) * 4 + (((kk)&7) >> 1)) ^ (((nn) >> 2) & 1)) * 2 + ((kk)&1))
// The slot lane (gq, tq) reads its fragment from.
#define FX_GEMM_A_SLOT (lane ^ ((gq >> 1) & 1))
#define FX_GEMM_B_SLOT (lane ^ ((gq >> 2) & 1))
// The slices are copied as float4s along each operand's contiguous dimension, as the reference
// kernel (bench/opencl/reference/tf32x3_gemm.cl) copies them. Vector r of this work-item's share
// of A's slice starts at (FX_GEMM_VA_MM(r), FX_GEMM_VA_KK(r)), its element q at
// (FX_GEMM_VA_MQ(r, q), FX_GEMM_VA_KQ(r, q)); B's likewise. Along k, vector e of a slice is
// (row or column, quarter of a depth block): bit 0 the quarter's half of the block, bits 1-3 row
// bits 0, 1 and 3 (B: column bits 0-2), then the block, then the other row (column) bits, so each
// half-warp's stores (FX_GEMM_MMA_STORE) meet 16 distinct bank pairs.
#define FX_GEMM_VA (FX_GEMM_LA / 4)
#define FX_GEMM_VB (FX_GEMM_LB / 4)
#define FX_GEMM_V_REST(e) (((e) >> 4) / (FX_GEMM_TK / 8))
#define FX_GEMM_V_KK(e) (((((e) >> 4) % (FX_GEMM_TK / 8)) * 2 + ((e)&1)) * 4)
#if FX_GEMM_TA
#define FX_GEMM_VA_MM(r) (FX_GEMM_E(r) % (FX_GEMM_TM / 4) * 4)
#define FX_GEMM_VA_KK(r) (FX_GEMM_E(r) / (FX_GEMM_TM / 4))
#define FX_GEMM_VA_MQ(r, q) (FX_GEMM_VA_MM(r) + (q))
#define FX_GEMM_VA_KQ(r, q) FX_GEMM_VA_KK(r)
#define FX_GEMM_VA_WHOLE(row, p) ((row) + 3 < M && (p) < K)
#else
#define FX_GEMM_VA_MM(r)                                                                       \
  ((FX_GEMM_E(r) >> 1) & 3 | ((FX_GEMM_E(r) >> 3) & 1) << 3 |                                  \
   (FX_GEMM_V_REST(FX_GEMM_E(r)) & 1) << 2 | (FX_GEMM_V_REST(FX_GEMM_E(r)) >> 1) << 4)
#define FX_GEMM_VA_KK(r) FX_GEMM_V_KK(FX_GEMM_E(r))
#define FX_GEMM_VA_MQ(r, q) FX_GEMM_VA_MM(r)
#define FX_GEMM_VA_KQ(r, q) (FX_GEMM_VA_KK(r) + (q))
#define FX_GEMM_VA_WHOLE(row, p) ((row) < M && (p) + 3 < K)
#endif
#if FX_GEMM_TB
#define FX_GEMM_VB_NN(r) ((FX_GEMM_E(r) >> 1) & 7 | FX_GEMM_V_REST(FX_GEMM_E(r)) << 3)
#define FX_GEMM_VB_KK(r) FX_GEMM_V_KK(FX_GEMM_E(r))
#define FX_GEMM_VB_NQ(r, q) FX_GEMM_VB_NN(r)
#define FX_GEMM_VB_KQ(r, q) (FX_GEMM_VB_KK(r) + (q))
#define FX_GEMM_VB_WHOLE(col, p) ((col) < N && (p) + 3 < K)
#else
#define FX_GEMM_VB_NN(r) (FX_GEMM_E(r) % (FX_GEMM_TN / 4) * 4)
#define FX_GEMM_VB_KK(r) (FX_GEMM_E(r) / (FX_GEMM_TN / 4))
#define FX_GEMM_VB_NQ(r, q) (FX_GEMM_VB_NN(r) + (q))
#define FX_GEMM_VB_KQ(r, q) FX_GEMM_VB_KK(r)
#define FX_GEMM_VB_WHOLE(col, p) ((col) + 3 < N && (p) < K)
#endif
// A vector's elements where it reaches past the matrix: each within it, or 0.
#define FX_GEMM_VA_PART(k0, r, q)                                                              \
  (m0 + FX_GEMM_VA_MQ(r, q) < M && (k0) + FX_GEMM_VA_KQ(r, q) < K                              \
       ? FX_GEMM_A_AT(m0 + FX_GEMM_VA_MQ(r, q), (k0) + FX_GEMM_VA_KQ(r, q))                    \
       : 0.0f)
#define FX_GEMM_VB_PART(k0, r, q)                                                              \
  (n0 + FX_GEMM_VB_NQ(r, q) < N && (k0) + FX_GEMM_VB_KQ(r, q) < K                              \
       ? FX_GEMM_B_AT((k0) + FX_GEMM_VB_KQ(r, q), n0 + FX_GEMM_VB_NQ(r, q))                    \
       : 0.0f)
#define FX_GEMM_MMA_LOAD(k0)                                                                   \
  for (int r = 0; r < FX_GEMM_VA; ++r) {                                                       \
    const int row = m0 + FX_GEMM_VA_MM(r), p = (k0) + FX_GEMM_VA_KK(r);                        \
    va[r] = FX_GEMM_VA_WHOLE(row, p)                                                           \
                ? vload4(0, &FX_GEMM_A_AT(row, p))                                             \
                : (float4)(FX_GEMM_VA_PART(k0, r, 0), FX_GEMM_VA_PART(k0, r, 1),               \
                           FX_GEMM_VA_PART(k0, r, 2), FX_GEMM_VA_PART(k0, r, 3));              \
  }                                                                                            \
  for (int r = 0; r < FX_GEMM_VB; ++r) {                                                       \
    const int col = n0 + FX_GEMM_VB_NN(r), p = (k0) + FX_GEMM_VB_KK(r);                        \
    vb[r] = FX_GEMM_VB_WHOLE(col, p)                                                           \
                ? vload4(0, &FX_GEMM_B_AT(p, col))                                             \
                : (float4)(FX_GEMM_VB_PART(k0, r, 0), FX_GEMM_VB_PART(k0, r, 1),               \
                           FX_GEMM_VB_PART(k0, r, 2), FX_GEMM_VB_PART(k0, r, 3));              \
  }
#define FX_GEMM_MMA_PUT_A(buf, r, q, x)                                                        \
  ((__local float *)Am[buf])[FX_GEMM_A_FRAG(FX_GEMM_VA_MQ(r, q), FX_GEMM_VA_KQ(r, q))] = (x);
#define FX_GEMM_MMA_PUT_B(buf, r, q, x)                                                        \
  ((__local float *)Bm[buf])[FX_GEMM_B_FRAG(FX_GEMM_VB_NQ(r, q), FX_GEMM_VB_KQ(r, q))] = (x);
// A vector along k is two pairs of adjacent depths: two 64-bit stores; one along m or n four
// words to four lanes.
#if FX_GEMM_TA
#define FX_GEMM_MMA_STORE_A(buf, r)                                                            \
  FX_GEMM_MMA_PUT_A(buf, r, 0, va[r].x) FX_GEMM_MMA_PUT_A(buf, r, 1, va[r].y)                  \
  FX_GEMM_MMA_PUT_A(buf, r, 2, va[r].z) FX_GEMM_MMA_PUT_A(buf, r, 3, va[r].w)
#else
#define FX_GEMM_MMA_STORE_A(buf, r)                                                            \
  vstore2(va[r].xy, 0,                                                                         \
          (__local float *)Am[buf] + FX_GEMM_A_FRAG(FX_GEMM_VA_MM(r), FX_GEMM_VA_KK(r)));      \
  vstore2(va[r].zw, 0,                                                                         \
          (__local float *)Am[buf] + FX_GEMM_A_FRAG(FX_GEMM_VA_MM(r), FX_GEMM_VA_KK(r) + 2));
#endif
#if FX_GEMM_TB
#define FX_GEMM_MMA_STORE_B(buf, r)                                                            \
  vstore2(vb[r].xy, 0,                                                                         \
          (__local float *)Bm[buf] + FX_GEMM_B_FRAG(FX_GEMM_VB_NN(r), FX_GEMM_VB_KK(r)));      \
  vstore2(vb[r].zw, 0,                                                                         \
          (__local float *)Bm[buf] + FX_GEMM_B_FRAG(FX_GEMM_VB_NN(r), FX_GEMM_VB_KK(r) + 2));
#else
#define FX_GEMM_MMA_STORE_B(buf, r)                                                            \
  FX_GEMM_MMA_PUT_B(buf, r, 0, vb[r].x) FX_GEMM_MMA_PUT_B(buf, r, 1, vb[r].y)                  \
  FX_GEMM_MMA_PUT_B(buf, r, 2, vb[r].z) FX_GEMM_MMA_PUT_B(buf, r, 3, vb[r].w)
#endif
#define FX_GEMM_MMA_STORE(buf)                                                                 \
  for (int r = 0; r < FX_GEMM_VA; ++r) {                                                       \
    FX_GEMM_MMA_STORE_A(buf, r)                                                                \
  }                                                                                            \
  for (int r = 0; r < FX_GEMM_VB; ++r) {                                                       \
    FX_GEMM_MMA_STORE_B(buf, r)                                                                \
  }
#endif

#if FX_GEMM_CONV
// A 2-D convolution as an implicit GEMM: C [Cout, N*OH*OW] = weight [Cout, Cin*KH*KW] @ the
// input's patches [Cin*KH*KW, N*OH*OW], gathered as they are loaded; `t` holds, per reduced
// point (c, kh, kw), its input offset from the patch's corner and its height and width
// displacements. The result goes to the output's (n, c, h, w) strides, plus a bias per channel.
__kernel __attribute__((reqd_work_group_size(FX_GEMM_THREADS, 1, 1)))
void FX_GEMM_KERNEL(FX_GEMM_NAME)(FX_IN(a), FX_IN(b), FX_OUT(c), FX_IN(t), FX_IN(bias),
    const long M_, const long N_, const long K_, const long lda_, const long H_, const long W_,
    const long OH_, const long OW_, const long sh, const long sw, const long ph, const long pw,
    const long isn, const long ish, const long isw, const long osn, const long osc,
    const long osh, const long osw, const long has_bias, const long bias_stride
    FX_GEMM_EPILOGUE_PARAMS) {
  const int M = (int)M_, N = (int)N_, K = (int)K_, lda = (int)lda_;
  const int H = (int)H_, W = (int)W_, OW = (int)OW_, OHW = (int)(OH_ * OW_);
  __global const int4 *T = (__global const int4 *)FX_AT(t);
  const long batches = 1;
#else
// C = alpha * op(A) @ op(B) + beta * C over `batches` matrices; C is not read when beta is 0.
// Offsets within one matrix are int (the host checks that they fit); batches step in long.
// Tensor-core tiles take flags per row of A (`fa`, batches `fsa` apart) and per column of B (`fb`,
// `fsb`), set where it holds a value their split gets wrong (fx_gemm_special_rows), and leave a
// tile that meets one unstored; their float32 definition (FX_GEMM_FLOAT32_ONLY), launched after
// them, computes those tiles with float32 FMAs (`flagged_only`), or every tile.
__kernel __attribute__((reqd_work_group_size(FX_GEMM_THREADS, 1, 1)))
void FX_GEMM_KERNEL(FX_GEMM_NAME)(FX_IN(a), FX_IN(b), FX_OUT(c), const long M_, const long N_,
    const long K_, const long lda_, const long ldb_, const long ldc_, const long sa, const long sb,
    const long sc, const long batches, const long alpha_bits, const long beta_bits
#if FX_GEMM_MMA
    , FX_IN(fa), FX_IN(fb), FX_IN(fany), const long fsa, const long fsb, const long flagged_only
#endif
    FX_GEMM_EPILOGUE_PARAMS) {
  const int M = (int)M_, N = (int)N_, K = (int)K_;
  const int lda = (int)lda_, ldb = (int)ldb_, ldc = (int)ldc_;
  const float alpha = FX_BITS(alpha_bits), beta = FX_BITS(beta_bits);
#endif
  // float4 rows, so the compute loop's reads are 128-bit loads of local memory. (Two of each,
  // one barrier per step, measured 10% slower on an H200: 145 registers at 128x128x16.)
#if FX_GEMM_MMA
  // Two slices each, in fragment order: the next step's are stored while this one's are read.
  __local float4 Am[2][FX_GEMM_TM * FX_GEMM_TK / 4];
  __local float2 Bm[2][FX_GEMM_TN * FX_GEMM_TK / 2];
  const int tid = get_local_id(0), lane = tid & 31, warp = tid >> 5;
#if FX_GEMM_MMA_EMULATE && !FX_GEMM_FLOAT32_ONLY
  __local uint fxMmaA[FX_GEMM_THREADS * 4], fxMmaB[FX_GEMM_THREADS * 2];
#endif
  __global const int *FA = (__global const int *)FX_AT(fa);
  __global const int *FB = (__global const int *)FX_AT(fb);
  // Whether any flag is set: where none is (nearly always), no tile reads its flags, and the
  // float32 form's launch after the tensor cores ends at once.
  const int anyFlagged = flagged_only && *(__global const int *)FX_AT(fany);
#if FX_GEMM_FLOAT32_ONLY
  if (flagged_only && !anyFlagged)
    return;
#endif
  // Set where a work-item of the group read a flag of the tile, a slot per tile in turn: tile t
  // sets slot t % 3 before its first barrier and reads it after, and work-item 0 then clears
  // slot (t + 2) % 3, tile t + 2's, whose last reads (tile t - 1's) are behind that barrier and
  // whose sets come after tile t + 1's: one barrier per tile, none added to the tensor cores'.
  __local int specialSeen[3];
  if (tid == 0)
    specialSeen[0] = specialSeen[1] = specialSeen[2] = 0;
  int slot = 0;
  // Lane (gq, tq) of a fragment: rows gq and gq + 8, depth tq and tq + 4 (C: columns 2tq, 2tq + 1).
  const int gq = lane >> 2, tq = lane & 3;
  // The warp's first 16-row and 8-column blocks of the tile.
  const int wm0 = (warp / FX_GEMM_TX) * (FX_GEMM_WM / 16);
  const int wn0 = (warp % FX_GEMM_TX) * (FX_GEMM_WN / 8);
#else
  __local float4 As4[FX_GEMM_TK][FX_GEMM_AROW / 4];
  __local float4 Bs4[FX_GEMM_TK][FX_GEMM_BROW / 4];
  const int tid = get_local_id(0);
  const int tx = tid % FX_GEMM_TX, ty = tid / FX_GEMM_TX;
#endif
  const int tilesN = (N + FX_GEMM_TN - 1) / FX_GEMM_TN;
  const int tilesM = (M + FX_GEMM_TM - 1) / FX_GEMM_TM;
  const long tiles = (long)tilesN * tilesM, groups = tiles * batches;
  for (long g = get_group_id(0); g < groups; g += get_num_groups(0)) {
    const int tile = (int)(g % tiles);
    const long bt = g / tiles;
    const int m0 = (tile / tilesN) * FX_GEMM_TM, n0 = (tile % tilesN) * FX_GEMM_TN;
#if FX_GEMM_CONV
    __global const float *A = (__global const float *)FX_AT(a);
    __global const float *X = (__global const float *)FX_AT(b);
    __global float *C = (__global float *)FX_AT(c);
    // The patches this work-item copies: their corner's offset and position in the input (a
    // column past the end gets a position no displacement brings inside).
    int cb[FX_GEMM_LB], ih0[FX_GEMM_LB], iw0[FX_GEMM_LB];
    for (int r = 0; r < FX_GEMM_LB; ++r) {
      const int col = n0 + FX_GEMM_B_NN(r);
      const int img = col / OHW, ohw = col % OHW;
      ih0[r] = col < N ? (ohw / OW) * (int)sh - (int)ph : -(1 << 30);
      iw0[r] = (ohw % OW) * (int)sw - (int)pw;
      cb[r] = col < N ? img * (int)isn + ih0[r] * (int)ish + iw0[r] * (int)isw : 0;
    }
#else
    __global const float *A = (__global const float *)FX_AT(a) + bt * sa;
    __global const float *B = (__global const float *)FX_AT(b) + bt * sb;
    __global float *C = (__global float *)FX_AT(c) + bt * sc;
#endif
#if FX_GEMM_MMA
    float acc[FX_GEMM_WM / 16][FX_GEMM_WN / 8][4];
    for (int i = 0; i < FX_GEMM_WM / 16; ++i)
      for (int j = 0; j < FX_GEMM_WN / 8; ++j)
        acc[i][j][0] = acc[i][j][1] = acc[i][j][2] = acc[i][j][3] = 0.0f;
    float4 va[FX_GEMM_VA], vb[FX_GEMM_VB];
    // Whether the tile's rows of A or columns of B hold a value the split gets wrong (read only
    // where the flags were set: not where the float32 form computes every tile).
    int special = 0;
    if (anyFlagged)
      for (int r = tid; r < FX_GEMM_TM + FX_GEMM_TN; r += FX_GEMM_THREADS)
        special |= r < FX_GEMM_TM ? m0 + r < M && FA[bt * fsa + m0 + r]
                                  : n0 + r - FX_GEMM_TM < N && FB[bt * fsb + n0 + r - FX_GEMM_TM];
    if (special)
      specialSeen[slot] = 1;
#if !FX_GEMM_FLOAT32_ONLY
    FX_GEMM_MMA_LOAD(0)
    FX_GEMM_MMA_STORE(0)
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    const int seen = specialSeen[slot]; // the same in the whole group
    if (tid == 0)
      specialSeen[(slot + 2) % 3] = 0;
    slot = (slot + 1) % 3;
#if FX_GEMM_FLOAT32_ONLY
    if (flagged_only && !seen)
      continue;
    // The float32 loop: the same slices in fragment order, float32 FMAs in k's order, as the
    // float32 tiles sum. Element (mm, nn) of C is lane (gq, tq)'s word q of block (i, j).
    for (int k0 = 0; k0 < K; k0 += FX_GEMM_TK) {
      FX_GEMM_MMA_LOAD(k0)
      FX_GEMM_MMA_STORE(0)
      barrier(CLK_LOCAL_MEM_FENCE);
      for (int kk = 0; kk < FX_GEMM_TK; ++kk)
        for (int i = 0; i < FX_GEMM_WM / 16; ++i)
          for (int j = 0; j < FX_GEMM_WN / 8; ++j)
            for (int q = 0; q < 4; ++q) {
              const int mm = (wm0 + i) * 16 + gq + 8 * (q >> 1);
              const int nn = (wn0 + j) * 8 + 2 * tq + (q & 1);
              acc[i][j][q] = fma(((__local float *)Am[0])[FX_GEMM_A_FRAG(mm, kk)],
                                 ((__local float *)Bm[0])[FX_GEMM_B_FRAG(nn, kk)], acc[i][j][q]);
            }
      barrier(CLK_LOCAL_MEM_FENCE); // the step's reads are done before the next copy
    }
#else
    if (seen) // left to the float32 form, launched after
      continue;
    int buf = 0;
    for (int k0 = 0; k0 < K; k0 += FX_GEMM_TK) {
      if (k0 + FX_GEMM_TK < K) {
        FX_GEMM_MMA_LOAD(k0 + FX_GEMM_TK)
      }
#if !FX_GEMM_MMA_EMULATE
#pragma unroll
#endif
      for (int kt = 0; kt < FX_GEMM_TK / 8; ++kt) {
        uint ab[FX_GEMM_WM / 16][4], as[FX_GEMM_WM / 16][4];
        uint bb[FX_GEMM_WN / 8][2], bs[FX_GEMM_WN / 8][2];
#if !FX_GEMM_MMA_EMULATE
#pragma unroll
#endif
        for (int i = 0; i < FX_GEMM_WM / 16; ++i) {
          // Words: row gq at depths tq and tq + 4, then row gq + 8 at them; the mma's order is
          // (gq, tq), (gq + 8, tq), (gq, tq + 4), (gq + 8, tq + 4).
          const float4 v = Am[buf][(kt * (FX_GEMM_TM / 16) + wm0 + i) * 32 + FX_GEMM_A_SLOT];
          const float a[4] = {v.x, v.z, v.y, v.w};
          for (int q = 0; q < 4; ++q) {
            ab[i][q] = fx_tf32_big(a[q]);
            as[i][q] = fx_tf32_small(a[q], ab[i][q]);
          }
        }
#if !FX_GEMM_MMA_EMULATE
#pragma unroll
#endif
        for (int j = 0; j < FX_GEMM_WN / 8; ++j) {
          const float2 v = Bm[buf][(kt * (FX_GEMM_TN / 8) + wn0 + j) * 32 + FX_GEMM_B_SLOT];
          bb[j][0] = fx_tf32_big(v.x), bb[j][1] = fx_tf32_big(v.y);
          bs[j][0] = fx_tf32_small(v.x, bb[j][0]), bs[j][1] = fx_tf32_small(v.y, bb[j][1]);
        }
#if !FX_GEMM_MMA_EMULATE
#pragma unroll
#endif
        for (int i = 0; i < FX_GEMM_WM / 16; ++i)
#if !FX_GEMM_MMA_EMULATE
#pragma unroll
#endif
          for (int j = 0; j < FX_GEMM_WN / 8; ++j) {
#if FX_GEMM_MMA == 2
            // The step's three products summed on the tensor cores from zero, then added to the
            // float32 sums rounding to nearest: the tensor cores' sums truncate, so only the
            // step's 24 terms bear that (float32's accuracy or better over the whole k).
            float p[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            FX_GEMM_MMA_OP(p, as[i], bb[j]);
            FX_GEMM_MMA_OP(p, ab[i], bs[j]);
            FX_GEMM_MMA_OP(p, ab[i], bb[j]);
            for (int q = 0; q < 4; ++q)
              acc[i][j][q] += p[q];
#else
            // The small terms first; the sums truncate (about 8x float32's error).
            FX_GEMM_MMA_OP(acc[i][j], as[i], bb[j]);
            FX_GEMM_MMA_OP(acc[i][j], ab[i], bs[j]);
            FX_GEMM_MMA_OP(acc[i][j], ab[i], bb[j]);
#endif
          }
      }
      if (k0 + FX_GEMM_TK < K) {
        FX_GEMM_MMA_STORE(buf ^ 1)
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      buf ^= 1;
    }
#endif
    // Lane (gq, tq) holds rows gq and gq + 8, columns 2tq and 2tq + 1 of each 16 x 8 block.
#pragma unroll
    for (int i = 0; i < FX_GEMM_WM / 16; ++i)
#pragma unroll
      for (int j = 0; j < FX_GEMM_WN / 8; ++j)
#pragma unroll
        for (int q = 0; q < 4; ++q) {
          const int row = m0 + (wm0 + i) * 16 + gq + 8 * (q >> 1);
          const int col = n0 + (wn0 + j) * 8 + 2 * tq + (q & 1);
          if (row >= M || col >= N)
            continue;
          float v = alpha * acc[i][j][q];
          if (beta != 0.0f)
            v += beta * C[row * ldc + col];
          C[row * ldc + col] = v;
          FX_GEMM_EPILOGUE((bt * M + row) * N + col, v) // C is dense where there is one
        }
#else
    float acc[FX_GEMM_WM][FX_GEMM_WN];
    for (int i = 0; i < FX_GEMM_WM; ++i)
      for (int j = 0; j < FX_GEMM_WN; ++j)
        acc[i][j] = 0.0f;
    float ra[FX_GEMM_LA], rb[FX_GEMM_LB];
    FX_GEMM_LOAD(0)
    for (int k0 = 0; k0 < K; k0 += FX_GEMM_TK) {
      barrier(CLK_LOCAL_MEM_FENCE); // the previous step's reads are done
      for (int r = 0; r < FX_GEMM_LA; ++r)
        ((__local float *)As4)[FX_GEMM_A_KK(r) * FX_GEMM_AROW + FX_GEMM_A_MM(r)] = ra[r];
      for (int r = 0; r < FX_GEMM_LB; ++r)
        ((__local float *)Bs4)[FX_GEMM_B_KK(r) * FX_GEMM_BROW + FX_GEMM_B_NN(r)] = rb[r];
      barrier(CLK_LOCAL_MEM_FENCE);
      if (k0 + FX_GEMM_TK < K) {
        FX_GEMM_LOAD(k0 + FX_GEMM_TK)
      }
#pragma unroll
      for (int kk = 0; kk < FX_GEMM_TK; ++kk) {
        float av[FX_GEMM_WM], bv[FX_GEMM_WN];
        for (int q = 0; q < FX_GEMM_WM / 4; ++q) {
          const float4 v = As4[kk][q * FX_GEMM_TY + ty];
          av[4 * q] = v.x, av[4 * q + 1] = v.y, av[4 * q + 2] = v.z, av[4 * q + 3] = v.w;
        }
        for (int q = 0; q < FX_GEMM_WN / 4; ++q) {
          const float4 v = Bs4[kk][q * FX_GEMM_TX + tx];
          bv[4 * q] = v.x, bv[4 * q + 1] = v.y, bv[4 * q + 2] = v.z, bv[4 * q + 3] = v.w;
        }
        for (int i = 0; i < FX_GEMM_WM; ++i)
          for (int j = 0; j < FX_GEMM_WN; ++j)
            acc[i][j] = fma(av[i], bv[j], acc[i][j]);
      }
    }
#if FX_GEMM_CONV
    int co[FX_GEMM_WN]; // each column's output offset, or -1 past the end
    for (int j = 0; j < FX_GEMM_WN; ++j) {
      const int col = n0 + (j / 4) * FX_GEMM_TX * 4 + tx * 4 + j % 4;
      const int ohw = col % OHW;
      co[j] = col < N ? (col / OHW) * (int)osn + (ohw / OW) * (int)osh + (ohw % OW) * (int)osw
                      : -1;
    }
#pragma unroll
    for (int i = 0; i < FX_GEMM_WM; ++i) {
      const int row = m0 + (i / 4) * FX_GEMM_TY * 4 + ty * 4 + i % 4;
      if (row >= M)
        continue;
      const float b =
          has_bias ? ((__global const float *)FX_AT(bias))[row * (int)bias_stride] : 0.0f;
#pragma unroll
      for (int j = 0; j < FX_GEMM_WN; ++j)
        if (co[j] >= 0) {
          const float v = acc[i][j] + b;
          C[co[j] + row * (int)osc] = v;
          // The element's number in the dense output (image, channel, position): the caller
          // fuses an epilogue only where the output is stored so.
          FX_GEMM_EPILOGUE(
              ((long)((n0 + (j / 4) * FX_GEMM_TX * 4 + tx * 4 + j % 4) / OHW) * M + row) * OHW +
                  (n0 + (j / 4) * FX_GEMM_TX * 4 + tx * 4 + j % 4) % OHW,
              v)
        }
    }
#else
    // Unrolled even with an epilogue inlined at every store (NVIDIA's compiler otherwise keeps
    // the loop and moves acc to the stack: 256 bytes, 165 registers, on an H100).
#pragma unroll
    for (int i = 0; i < FX_GEMM_WM; ++i) {
      const int row = m0 + (i / 4) * FX_GEMM_TY * 4 + ty * 4 + i % 4;
      if (row >= M)
        continue;
#pragma unroll
      for (int j = 0; j < FX_GEMM_WN; ++j) {
        const int col = n0 + (j / 4) * FX_GEMM_TX * 4 + tx * 4 + j % 4;
        if (col >= N)
          continue;
        float v = alpha * acc[i][j];
        if (beta != 0.0f)
          v += beta * C[row * ldc + col];
        C[row * ldc + col] = v;
        FX_GEMM_EPILOGUE((bt * M + row) * N + col, v) // C is dense where there is one
      }
    }
#endif
#endif // FX_GEMM_MMA
  }
}
#endif
)CL";

/// Split-K's second step (GemmPlan): C = alpha * the sum of the parts' products + beta * C.
constexpr std::string_view kSplitSum = R"CL(
#ifdef FX_DEFINITION_fx_gemm_split_sum
// The parts' products are dense [splits, M, N]; C has rows ldc apart. C is not read when beta is
// 0. The parts are added in order, one sum per element (the same for every launch).
__kernel void FX_NAME(fx_gemm_split_sum)(FX_IN(p), FX_OUT(c), const long xnumel, const long N,
    const long ldc, const long splits, const long alpha_bits, const long beta_bits) {
  __global const float *P = (__global const float *)FX_AT(p);
  __global float *C = (__global float *)FX_AT(c);
  const float alpha = FX_BITS(alpha_bits), beta = FX_BITS(beta_bits);
  for (long e = get_global_id(0); e < xnumel; e += get_global_size(0)) {
    float sum = 0.0f;
    for (long part = 0; part < splits; ++part)
      sum += P[part * xnumel + e];
    const long at = e / N * ldc + e % N;
    float v = alpha * sum;
    if (beta != 0.0f)
      v += beta * C[at];
    C[at] = v;
  }
}
#endif
)CL";

/// The definition of split-K's sums (kSplitSum).
constexpr std::string_view kSplitSumName = "fx_gemm_split_sum";

/// Tensor-core tiles' flags: which rows of an operand hold a value their 3xTF32 split gets wrong.
constexpr std::string_view kSpecialRows = R"CL(
#ifdef FX_DEFINITION_fx_gemm_special_rows
// Sets F[b * lines + l] where line l of matrix b of X holds an infinity, a NaN, a magnitude from
// 2^127 (its TF32 part rounds to infinity) or one below 2^-102 other than 0 (its rest falls below
// float32's normal range), and then *any; the flags are 0 before. X is stored as `outer` rows of
// `inner` elements, `ld` apart (matrices `bs` apart); a line is a stored row where `rowLines`,
// else a stored column. Each element is read once, in the order it is stored: a row per
// `inner`-wide share of the work-group, so no element needs a division for its place.
inline void fx_special_lines(__global const float *X, __global int *F, __global int *any,
                             const int outer, const int inner, const long ld, const long bs,
                             const long batches, const int rowLines, const int lines) {
  if (outer == 0 || inner == 0)
    return;
  const int width = min(inner, (int)get_local_size(0));
  const int share = get_local_size(0) / width, sub = get_local_id(0) / width,
            lane = get_local_id(0) % width;
  if (sub >= share)
    return;
  for (long b = 0; b < batches; ++b)
    for (int o = get_group_id(0) * share + sub; o < outer; o += get_num_groups(0) * share) {
      __global const float *row = X + b * bs + o * ld;
      for (int i = lane; i < inner; i += width) {
        const uint m = as_uint(row[i]) & 0x7fffffffu;
        if (m >= 0x7f000000u || m - 1u < 0x0c7fffffu) { // the same value from every writer
          F[b * lines + (rowLines ? o : i)] = 1;
          *any = 1;
        }
      }
    }
}

// The flags of A's rows (m of them, k deep; stored [m, k], or [k, m] where `ta`) in `flags`, then
// B's columns' (n, k deep; stored [k, n], or [n, k] where `tb`), then whether any is set.
__kernel void FX_NAME(fx_gemm_special_rows)(FX_IN(xa), FX_IN(xb), FX_OUT(flags), const long m_,
    const long n_, const long k_, const long lda, const long ldb, const long sa, const long sb,
    const long batches, const long ta, const long tb) {
  __global int *F = (__global int *)FX_AT(flags);
  const int m = (int)m_, n = (int)n_, k = (int)k_;
  __global int *any = F + batches * (m + n);
  fx_special_lines((__global const float *)FX_AT(xa), F, any, ta ? k : m, ta ? m : k, lda, sa,
                   batches, !ta, m);
  fx_special_lines((__global const float *)FX_AT(xb), F + batches * m, any, tb ? n : k,
                   tb ? k : n, ldb, sb, batches, tb, n);
}
#endif
)CL";

/// The definition of tensor-core tiles' flags (kSpecialRows).
constexpr std::string_view kSpecialRowsName = "fx_gemm_special_rows";

/// "nn", "nt", "tn", "tt": A and B stored as they are or transposed.
std::string layoutName(bool ta, bool tb) { return std::string(ta ? "t" : "n") + (tb ? "t" : "n"); }

std::string definitionName(const GemmTile &t, bool ta, bool tb) {
  return "fx_gemm_" + t.str() + "_" + layoutName(ta, tb);
}

/// Which of a tile's definitions: the tile itself, or a tensor-core tile's float32 form
/// (FX_GEMM_FLOAT32_ONLY: the tiles the split gets wrong, or every tile, in its float32 loop) or
/// its emulation (FX_GEMM_MMA_EMULATE, OpenCLOptions::gemmTensorCoreEmulation).
enum class TileForm : uint8_t { Tile, Float32, Emulated };

/// What a form adds to its tile's definition name.
std::string_view formSuffix(TileForm form) {
  switch (form) {
  case TileForm::Tile:
    return "";
  case TileForm::Float32:
    return "_float32";
  case TileForm::Emulated:
    return "_emulated";
  }
  return "";
}

/// The implicit-GEMM convolution of tile `t`.
std::string convDefinitionName(const GemmTile &t) { return "fx_gemm_" + t.str() + "_conv"; }

/// FXKIT_GEMM=auto|template|library overrides OpenCLOptions::gemm (for experiments).
GemmPolicy policyOf(const OpenCLOptions &options) {
  if (const char *v = std::getenv("FXKIT_GEMM"); v && *v) {
    std::string_view s(v);
    if (s == "template")
      return GemmPolicy::Template;
    if (s == "library" || s == "clblast")
      return GemmPolicy::Library;
    if (s == "auto")
      return GemmPolicy::Auto;
  }
  return options.gemm;
}

bool gemmLog() {
  // Read at each use (only while tuning), so a test can turn it on for its own products.
  const char *v = std::getenv("FXKIT_TUNE_LOG");
  return v && *v && std::string_view(v) != "0";
}

constexpr int64_t kIntLimit = int64_t{1} << 31;

/// Elements from the first to the last one a view of these sizes and strides reaches
/// (ir/StorageSpan.h); INT64_MAX when that count overflows.
int64_t extentElements(std::span<const int64_t> sizes, std::span<const int64_t> strides) {
  auto span = storageSpan(sizes, strides, 1);
  return span ? span->extentElements : std::numeric_limits<int64_t>::max();
}

/// Elements matrix `x` of `rows` x `cols` (in its untransposed orientation) reaches in one batch.
int64_t extentElements(const GemmMatrix &x, int64_t rows, int64_t cols) {
  const int64_t sizes[] = {x.transposed ? cols : rows, x.transposed ? rows : cols};
  const int64_t strides[] = {static_cast<int64_t>(x.ld), 1};
  return extentElements(sizes, strides);
}

/// Whether every element offset within one matrix of `p` fits the kernel's int arithmetic.
bool offsetsFitInt(const GemmProblem &p) {
  return p.m < kIntLimit && p.n < kIntLimit && p.k < kIntLimit &&
         extentElements(p.a, p.m, p.k) < kIntLimit && extentElements(p.b, p.k, p.n) < kIntLimit &&
         extentElements(p.c, p.m, p.n) < kIntLimit && static_cast<int64_t>(p.a.ld) < kIntLimit &&
         static_cast<int64_t>(p.b.ld) < kIntLimit && static_cast<int64_t>(p.c.ld) < kIntLimit;
}

bool offsetsFitInt(const ConvProblem &p) {
  const int64_t in[4] = {p.n, p.c, p.h, p.w}, out[4] = {p.n, p.oc, p.oh, p.ow};
  return extentElements(in, p.inStrides) < kIntLimit &&
         extentElements(out, p.outStrides) < kIntLimit && p.oc * p.weightStride0 < kIntLimit &&
         p.n * p.oh * p.ow < kIntLimit && p.c * p.kh * p.kw < kIntLimit && p.h < kIntLimit / 2 &&
         p.w < kIntLimit / 2;
}

/// MatmulPrecision as OpenCLOptions and FXKIT_MATMUL_PRECISION=highest|high say.
MatmulPrecision precisionOf(const OpenCLOptions &options) {
  if (const char *v = std::getenv("FXKIT_MATMUL_PRECISION"); v && *v) {
    std::string_view s(v);
    if (s == "high")
      return MatmulPrecision::High;
    if (s == "highest")
      return MatmulPrecision::Highest;
  }
  return options.matmulPrecision;
}

/// Whether OpenCLOptions::gemmFloat32LoopOnly or FXKIT_GEMM_FLOAT32_LOOP=1|0 asks tensor-core
/// tiles to compute every tile in their float32 loop.
bool float32LoopOnly(const OpenCLOptions &options) {
  if (const char *v = std::getenv("FXKIT_GEMM_FLOAT32_LOOP"); v && *v)
    return std::string_view(v) != "0";
  return options.gemmFloat32LoopOnly;
}

/// Whether tile `t` computes on `ctx`'s device at `options`' precision (tensor-core tiles: on
/// NVIDIA GPUs of compute capability 8 and later, or anywhere in their float32 form).
bool tileAllowed(const GemmTile &t, const OpenCLContext &ctx, const OpenCLOptions &options) {
  const bool tensorCores = ctx.device().nvComputeMajor >= 8 || float32LoopOnly(options) ||
                           options.gemmTensorCoreEmulation;
  switch (t.compute) {
  case GemmCompute::Fma:
    return true;
  case GemmCompute::TensorCores:
    return tensorCores && precisionOf(options) == MatmulPrecision::High;
  case GemmCompute::TensorCoreStepSums:
    return tensorCores;
  }
  return false;
}

/// The tile shapes worth timing for an m x n result: those not much larger than it, and that
/// compute on the device at the options' precision (`conv`: tiles with a convolution form).
std::vector<GemmPlan> candidatesFor(int64_t m, int64_t n, const OpenCLContext &ctx,
                                    const OpenCLOptions &options, bool conv = false) {
  std::vector<GemmPlan> out;
  for (const GemmTile &t : gemmTiles())
    if ((t.tm <= 32 || m > t.tm / 2) && (t.tn <= 32 || n > t.tn / 2) &&
        tileAllowed(t, ctx, options) && !(conv && t.tensorCores()))
      out.push_back(GemmPlan{t, 1});
  return out;
}

/// The split counts split-K tries (each must divide k).
constexpr int kSplitCounts[] = {2, 3, 4, 6, 8, 12, 16};
/// The shortest part of k worth a launch of its own tiles.
constexpr int64_t kMinSplitDepth = 128;

} // namespace

// Two tiles per multiprocessor: about what a GPU runs at once.
std::vector<GemmPlan> gemmPlansFor(const GemmProblem &p, const OpenCLContext &ctx,
                                   const OpenCLOptions &options) {
  std::vector<GemmPlan> out = candidatesFor(p.m, p.n, ctx, options);
  const int64_t wanted = 2 * std::max(ctx.device().computeUnits, 1);
  const size_t unsplit = out.size();
  for (size_t i = 0; i < unsplit && p.batch == 1; ++i) {
    const GemmTile &t = out[i].tile;
    const int64_t tiles = ((p.m + t.tm - 1) / t.tm) * ((p.n + t.tn - 1) / t.tn);
    if (tiles >= wanted)
      continue;
    int chosen = 0;
    for (int s : kSplitCounts)
      if (p.k % s == 0 && p.k / s >= kMinSplitDepth) {
        chosen = s;
        if (tiles * s >= wanted)
          break;
      }
    if (chosen > 1)
      out.push_back(GemmPlan{t, chosen});
  }
  return out;
}

namespace {

/// Launches one plan writing its result at `out` + `offset` (elements); with `timed`, waits and
/// returns the launches' seconds. `final`: the problem's own run, not a trial (only that one
/// runs a fused epilogue, which writes the program's buffers).
using TileLauncher = std::function<Expected<double>(const GemmPlan &, cl_mem out, size_t offset,
                                                    bool timed, bool final)>;

/// What runGemm and runConvolutionGemm share: the choice for shape `key` among the candidate
/// tiles and `library` (forced, cached, or timed now on a scratch output of `outElements`),
/// then the run.
Expected<GemmRoute> chooseAndRun(GemmChoices &choices, OpenCLContext &ctx,
                                 const OpenCLOptions &options, const std::string &key,
                                 const std::vector<GemmPlan> &candidates, size_t outElements,
                                 cl_mem out, size_t outOffset, const TileLauncher &launchTile,
                                 const GemmLibrary *library) {
  const GemmPolicy policy = policyOf(options);
  const bool libraryCandidate = library && policy == GemmPolicy::Auto;
  const std::string fallback = libraryCandidate ? "library" : candidates.front().str();
  std::string choice;
  if (!options.gemmTile.empty()) {
    if (!GemmPlan::parse(options.gemmTile))
      return Error("unknown GEMM tile '" + options.gemmTile + "'");
    choice = options.gemmTile;
  } else if (auto it = choices.byShape.find(key); it != choices.byShape.end()) {
    choice = it->second;
  } else if (!options.tune) {
    choice = fallback;
  } else {
    // Trials write a scratch output (the real one may be read: beta != 0, or an input in place).
    FXKIT_ASSIGN_OR_RETURN(TempBuffer scratch,
                           TempBuffer::create(ctx, outElements * sizeof(float)));
    cl_mem trialOut = scratch.buffer().mem;
    CallTimer timer;
    // Seconds spent timing, builds left out: a cold start builds every tile before its trial
    // (seconds on NVIDIA's compiler), which would otherwise use up the budget before the
    // tensor-core tiles, listed last, were ever timed.
    double spent = 0;
    auto time = [&](const std::function<Status()> &run) -> Expected<double> {
      FXKIT_TRY(run()); // builds and warms
      clFinish(ctx.queue());
      const auto started = std::chrono::steady_clock::now();
      timer.begin(ctx);
      for (int rep = 0; rep < 2; ++rep)
        FXKIT_TRY(run());
      timer.end(ctx);
      clFinish(ctx.queue());
      timer.collect();
      spent += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      if (timer.seconds().empty())
        return -1.0;
      return timer.seconds().back() / 2;
    };
    double best = -1;
    const double budget = tuneBudgetSeconds(options);
    auto consider = [&](const std::string &name, Expected<double> t) {
      if (!t) {
        if (gemmLog())
          std::fprintf(stderr, "fxkit: gemm %s %s: refused (%s)\n", key.c_str(), name.c_str(),
                       t.error().message.c_str());
        return;
      }
      if (gemmLog())
        std::fprintf(stderr, "fxkit: gemm %s %s: %.4f ms\n", key.c_str(), name.c_str(), *t * 1e3);
      if (*t >= 0 && (best < 0 || *t < best)) {
        best = *t;
        choice = name;
      }
    };
    if (libraryCandidate)
      consider("library", time([&] { return (*library)(trialOut, 0); }));
    for (const GemmPlan &plan : candidates) {
      if (best >= 0 && spent > budget)
        break;
      consider(plan.str(), time([&]() -> Status {
                 auto r = launchTile(plan, trialOut, 0, false, false);
                 return r ? Status::ok() : Status(r.takeError());
               }));
    }
    timer.release();
    if (choice.empty()) // nothing ran: the default, whose error the real launch reports
      choice = fallback;
    choices.byShape[key] = choice;
    choices.dirty = true;
  }
  if (choice == "library" && library) {
    choices.used[key] = choice;
    FXKIT_TRY((*library)(out, outOffset));
    return GemmRoute::Library;
  }
  std::optional<GemmPlan> plan = GemmPlan::parse(choice);
  if (!plan) // a cached choice this build does not have
    plan = candidates.front();
  choices.used[key] = plan->str();
  FXKIT_ASSIGN_OR_RETURN(double unused, launchTile(*plan, out, outOffset, false, true));
  (void)unused;
  return GemmRoute::Template;
}

/// Whether `p` goes straight to the library: the policy says so, a CPU device under the default
/// policy, or offsets the template's int arithmetic cannot hold.
template <typename Problem>
bool libraryOnly(const OpenCLContext &ctx, const OpenCLOptions &options, const Problem &p,
                 const GemmLibrary *library) {
  GemmPolicy policy = policyOf(options);
  return library && (policy == GemmPolicy::Library ||
                     (policy == GemmPolicy::Auto && !ctx.device().isGpu) || !offsetsFitInt(p));
}

/// Whether `p`'s epilogue can run at each element the template stores: C dense, the epilogue's
/// points its elements.
bool epilogueFits(const GemmProblem &p) {
  return p.epilogue && !p.c.transposed && static_cast<int64_t>(p.c.ld) == p.n &&
         (p.batch == 1 || static_cast<int64_t>(p.c.batchStride) == p.m * p.n) &&
         p.epilogue->points == p.batch * p.m * p.n;
}

/// FX_GEMM_MMA of a tile computing as `c`: 0 fused multiply-adds, 1 tensor cores summing,
/// 2 tensor cores summing each step into float32 sums.
const char *mmaMacro(GemmCompute c) {
  switch (c) {
  case GemmCompute::Fma:
    return "0";
  case GemmCompute::TensorCores:
    return "1";
  case GemmCompute::TensorCoreStepSums:
    return "2";
  }
  return "0";
}

/// The definitions' macros of one tile shape and layout (kInstance) in form `form`, named `name`.
std::string instanceText(const std::string &name, const GemmTile &t, bool ta, bool tb, bool conv,
                         TileForm form) {
  const std::pair<std::string_view, std::string> keys[] = {
      {"NAME", name},
      {"TM", std::to_string(t.tm)},
      {"TN", std::to_string(t.tn)},
      {"TK", std::to_string(t.tk)},
      {"WM", std::to_string(t.wm)},
      {"WN", std::to_string(t.wn)},
      {"TA", ta ? "1" : "0"},
      {"TB", tb ? "1" : "0"},
      {"CONV", conv ? "1" : "0"},
      {"MMA", mmaMacro(t.compute)},
      {"FLOAT32_ONLY", form == TileForm::Float32 ? "1" : "0"},
      {"EMULATE", form == TileForm::Emulated ? "1" : "0"}};
  return substituteKeys(kInstance, keys);
}

/// The whole source of definition `name`: tile `t` in layout (`ta`, `tb`) and form `form`, or its
/// convolution form, with epilogue `e`.
std::string epilogueSource(const std::string &name, const GemmTile &t, bool ta, bool tb, bool conv,
                           TileForm form, const GemmEpilogue &e) {
  std::string params(e.params);
  std::replace(params.begin(), params.end(), '\n', ' '); // one macro line
  // The generated kernel's index type (the template's own arithmetic is int and long as it says).
  return (e.intIndex ? "#undef FX_INDEX_T\n#define FX_INDEX_T int\n" : "") +
         familyPrelude(Variant::Float, e.usesDouble) + "#define FX_DEFINITION_" + name + "\n" +
         instanceText(name, t, ta, tb, conv, form) + std::string(e.function) +
         "#define FX_GEMM_EPILOGUE_PARAMS , " + params +
         "\n#define FX_GEMM_EPILOGUE(point, value) " + std::string(e.kernel) + "_point(" +
         std::string(e.args) + ", value, (fx_index_t)(point));\n" +
         std::string(kTensorCoreMmaSource) + std::string(kBody);
}

/// Runs a tile with (true) or without its epilogue, writing C to `c` (a scratch buffer), and
/// returns the launch's seconds.
using EpilogueTrial = std::function<Expected<double>(bool withEpilogue, cl_mem c)>;

/// Whether a product runs its epilogue inside the template (the epilogue's kernel then does not
/// run) or apart, for `key` (shape, tile and epilogue): cached, or timed now (as Inductor's
/// benchmark_epilogue_fusion times the fused template against the template alone), or, untuned,
/// fused. Fused where it costs the template at most 2% more: it also saves the kernel's own
/// launch and read of C, which the trial does not time. The trials write scratch buffers in
/// place of C and of every buffer the epilogue writes (`epilogueArgs`, the fused launch's
/// arguments, whose written buffers are replaced), so no buffer of the program changes.
Expected<bool> fuseEpilogue(const OpenCLContext &ctx, const OpenCLOptions &options,
                            GemmChoices &choices, const std::string &key,
                            const EpilogueTrial &trial, std::vector<LaunchArg> &fusedArgs,
                            size_t outElements) {
  if (auto it = choices.byShape.find(key); it != choices.byShape.end())
    return it->second == "fused";
  if (!options.tune)
    return true;
  FXKIT_ASSIGN_OR_RETURN(TempBuffer c, TempBuffer::create(ctx, outElements * sizeof(float)));
  std::vector<TempBuffer> outputs;
  std::vector<LaunchArg> real = fusedArgs;
  for (size_t i = 3; i < fusedArgs.size(); ++i) // after A, B and C: the epilogue's arguments
    if (fusedArgs[i].kind == LaunchArg::Kind::Buffer && fusedArgs[i].written) {
      const size_t bytes = std::max<size_t>(fusedArgs[i].buffer.bytes, 1);
      FXKIT_ASSIGN_OR_RETURN(TempBuffer o, TempBuffer::create(ctx, bytes));
      fusedArgs[i].buffer = DeviceBuffer{o.buffer().mem, 0, bytes};
      outputs.push_back(std::move(o));
    }
  double apart = -1, fused = -1;
  Status status = Status::ok();
  for (int rep = 0; rep < 3 && status; ++rep) // the first builds and warms
    for (bool withEpilogue : {false, true}) {
      auto t = trial(withEpilogue, c.buffer().mem);
      if (!t) {
        status = Status(t.takeError());
        break;
      }
      double &best = withEpilogue ? fused : apart;
      if (rep > 0 && *t >= 0 && (best < 0 || *t < best))
        best = *t;
    }
  fusedArgs = std::move(real);
  if (!status) { // the epilogue's definition failed: the kernel runs apart
    if (gemmLog())
      std::fprintf(stderr, "fxkit: gemm %s: epilogue refused (%s)\n", key.c_str(),
                   status.error().message.c_str());
    choices.byShape[key] = "apart";
    choices.dirty = true;
    return false;
  }
  const bool fuse = apart < 0 || fused < 0 || fused <= apart * 1.02;
  if (gemmLog())
    std::fprintf(stderr, "fxkit: gemm %s: %.4f ms apart, %.4f ms with the epilogue: %s\n",
                 key.c_str(), apart * 1e3, fused * 1e3, fuse ? "fused" : "apart");
  choices.byShape[key] = fuse ? "fused" : "apart";
  choices.dirty = true;
  return fuse;
}

} // namespace

std::string GemmProblem::shapeKey() const {
  return "m" + std::to_string(m) + "_n" + std::to_string(n) + "_k" + std::to_string(k) + "_b" +
         std::to_string(batch) + "_" + layoutName(a.transposed, b.transposed) + "_beta" +
         (beta != 0 ? "1" : "0");
}

std::string ConvProblem::shapeKey() const {
  auto list = [](std::initializer_list<int64_t> v) {
    std::string out;
    for (int64_t x : v)
      out += (out.empty() ? "" : ",") + std::to_string(x);
    return out;
  };
  return "conv_n" + std::to_string(n) + "_c" + std::to_string(c) + "_hw" + list({h, w}) + "_oc" +
         std::to_string(oc) + "_k" + list({kh, kw}) + "_s" + list({stride[0], stride[1]}) + "_p" +
         list({padding[0], padding[1]}) + "_d" + list({dilation[0], dilation[1]}) + "_in" +
         list({inStrides[0], inStrides[1], inStrides[2], inStrides[3]}) + "_out" +
         list({outStrides[0], outStrides[1], outStrides[2], outStrides[3]}) + (bias ? "_bias" : "");
}

namespace {
/// What a tile's name ends in for how it computes.
const char *computeSuffix(GemmCompute c) {
  switch (c) {
  case GemmCompute::Fma:
    return "";
  case GemmCompute::TensorCores:
    return "_tc";
  case GemmCompute::TensorCoreStepSums:
    return "_tcs";
  }
  return "";
}
} // namespace

std::string GemmTile::str() const {
  return std::to_string(tm) + "x" + std::to_string(tn) + "x" + std::to_string(tk) + "_" +
         std::to_string(wm) + "x" + std::to_string(wn) + computeSuffix(compute);
}

std::string GemmPlan::str() const {
  return tile.str() + (splits > 1 ? "_split" + std::to_string(splits) : "");
}

std::optional<GemmPlan> GemmPlan::parse(std::string_view text) {
  GemmPlan plan;
  if (size_t at = text.find("_split"); at != std::string_view::npos) {
    std::string_view count = text.substr(at + 6);
    int splits = 0;
    for (char c : count) {
      if (c < '0' || c > '9' || splits > 1000)
        return std::nullopt;
      splits = splits * 10 + (c - '0');
    }
    if (count.empty() || splits < 2)
      return std::nullopt;
    plan.splits = splits;
    text = text.substr(0, at);
  }
  for (const GemmTile &t : gemmTiles())
    if (t.str() == text) {
      plan.tile = t;
      return plan;
    }
  return std::nullopt;
}

const std::vector<GemmTile> &gemmTiles() {
  // Every shape keeps TM * TK and TN * TK multiples of its work-group size (each work-item
  // copies whole elements of each slice) and WM, WN multiples of 4 (float4 reads).
  // Tensor-core tiles: 64 x 64 per warp, 16-deep steps (an H200, bench/README.md, session 19:
  // 42-50 TFLOP/s on the zoo's large products, cuBLAS's float32 49, the 128 x 128 float32 tile
  // 34-37). Step-sum tiles: 64 x 32 per warp, whose 128 registers fit 512 work-items (the
  // reference kernel's best shapes, session 20; 64 x 64 needs 255 registers there). (With
  // conflict-free copies, session 25, the reference kernel's 64 x 64 tiles were the fastest,
  // 11% ahead of 64 x 32, but the template's lost to its 64 x 32 ones at every zoo shape.)
  // Every tensor-core tile copies whole float4s: TM * TK and TN * TK multiples of 4 * its
  // work-group size.
  constexpr GemmCompute tc = GemmCompute::TensorCores, tcs = GemmCompute::TensorCoreStepSums;
  static const std::vector<GemmTile> tiles = {
      {128, 128, 8, 8, 8},         {128, 128, 16, 8, 8},        {128, 64, 8, 8, 4},
      {64, 128, 8, 4, 8},          {64, 64, 8, 4, 4},           {64, 64, 16, 8, 8},
      {32, 32, 8, 4, 4},           {128, 256, 16, 64, 64, tc},  {256, 128, 16, 64, 64, tc},
      {128, 128, 16, 64, 64, tc},  {128, 256, 16, 64, 32, tcs}, {256, 128, 16, 64, 32, tcs},
      {128, 128, 16, 64, 32, tcs}, {64, 128, 16, 32, 32, tcs},
  };
  return tiles;
}

namespace {

/// Calls `f(name, tile, ta, tb, conv, form)` for each of the template's tile definitions: every
/// tile in every layout, a tensor-core tile's float32 form and emulation too, and each float32
/// tile's convolution form.
template <typename F> void forEachDefinition(F &&f) {
  for (const GemmTile &t : gemmTiles()) {
    for (bool ta : {false, true})
      for (bool tb : {false, true}) {
        const std::string name = definitionName(t, ta, tb);
        f(name, t, ta, tb, false, TileForm::Tile);
        if (t.tensorCores())
          for (TileForm form : {TileForm::Float32, TileForm::Emulated})
            f(name + std::string(formSuffix(form)), t, ta, tb, false, form);
      }
    if (!t.tensorCores())
      f(convDefinitionName(t), t, false, false, true, TileForm::Tile);
  }
}

} // namespace

const std::string &gemmTemplateSource() {
  static const std::string source = [] {
    std::string out;
    forEachDefinition([&](const std::string &name, const GemmTile &t, bool ta, bool tb, bool conv,
                          TileForm form) { out += instanceText(name, t, ta, tb, conv, form); });
    out += kTensorCoreMmaSource;
    out += kBody;
    out += kSplitSum;
    out += kSpecialRows;
    return out;
  }();
  return source;
}

bool gemmTemplateFits(const GemmProblem &p) { return offsetsFitInt(p); }

bool gemmTemplateTakes(const OpenCLContext &ctx, const OpenCLOptions &options) {
  GemmPolicy policy = policyOf(options);
  return policy == GemmPolicy::Template || (policy == GemmPolicy::Auto && ctx.device().isGpu);
}

namespace device_externs {

std::optional<GemmMatrix> gemmMatrixOf(const Operand &t, int64_t rowStride, int64_t colStride,
                                       int64_t batchStride, int64_t offset) {
  if (t.buffer.offset % sizeof(float) != 0 || batchStride < 0 || offset < 0)
    return std::nullopt;
  GemmMatrix m;
  m.mem = t.buffer.mem;
  m.offset = t.buffer.offset / sizeof(float) + static_cast<size_t>(offset);
  m.batchStride = static_cast<size_t>(batchStride);
  if (colStride == 1 && rowStride >= 0) {
    m.ld = static_cast<size_t>(rowStride);
  } else if (rowStride == 1 && colStride >= 0) {
    m.ld = static_cast<size_t>(colStride);
    m.transposed = true;
  } else {
    return std::nullopt;
  }
  return m;
}

FamilySource gemmSource() {
  const std::string &body = gemmTemplateSource();
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    forEachDefinition([&](const std::string &name, const GemmTile &, bool, bool, bool, TileForm) {
      out.push_back(name);
    });
    out.emplace_back(kSplitSumName);
    out.emplace_back(kSpecialRowsName);
    return out;
  }();
  FamilySource src{body, {}, {Variant::Float}, ""};
  for (const std::string &n : names)
    src.kernels.push_back({n, false});
  return src;
}

/// The source of definition `name`, a tile's form `form`, with a product's epilogue.
using EpilogueSourceFn = std::function<std::string(const std::string &name, TileForm form)>;

/// Launches tile `t`'s definition `name` (`args`, `items` work-items; `timed` as TileLauncher)
/// or, where `epilogue` is given (the problem's own run, where it fits), that definition with the
/// epilogue inside it (`source` gives its text under the name it is given), where fuseEpilogue
/// decides so for `key` (the shape and tile); sets GemmEpilogue::ran when it ran inside.
/// A tensor-core tile (its emulation under OpenCLOptions::gemmTensorCoreEmulation) is followed by
/// its float32 form (with the epilogue where the first had it), which computes the tiles the first
/// left (their operands' flags, appendSpecialRows) over a work-group per compute unit; under
/// float32LoopOnly that form alone computes every tile. `outElements`: the output's extent, for
/// fuseEpilogue's scratch output (the third argument).
Expected<double> launchTileWithEpilogue(Launcher &launcher, const SourceLoader &loadSource,
                                        GemmChoices &choices, const OpenCLContext &ctx,
                                        const OpenCLOptions &options, const GemmTile &t,
                                        const std::string &name, const std::vector<LaunchArg> &args,
                                        int64_t items, bool timed, GemmEpilogue *epilogue,
                                        const std::string &key, const EpilogueSourceFn &source,
                                        size_t outElements) {
  LaunchConfig config;
  config.local = t.threads();
  const bool tensorCores = t.tensorCores(), onlyFloat32 = tensorCores && float32LoopOnly(options);
  const TileForm firstForm =
      tensorCores && options.gemmTensorCoreEmulation ? TileForm::Emulated : TileForm::Tile;
  const std::string firstName = name + std::string(formSuffix(firstForm));
  const std::string float32Name = name + std::string(formSuffix(TileForm::Float32));
  // The float32 form after the tensor cores: its work-groups step over the tiles, skipping those
  // not flagged (one per compute unit: where none is, little more than its launch).
  const int64_t flaggedItems =
      std::min<int64_t>(items / t.threads(), std::max(ctx.device().computeUnits, 1)) * t.threads();
  using Run = std::function<Expected<double>(const std::vector<LaunchArg> &, int64_t n)>;
  // The tile's launches with arguments `a`: `first` (the definition, not under
  // float32LoopOnly), then `second` (its float32 form, tensor-core tiles).
  auto both = [&](const std::vector<LaunchArg> &a, const Run &first,
                  const Run &second) -> Expected<double> {
    if (!tensorCores)
      return first(a, items);
    if (onlyFloat32)
      return second(a, items);
    FXKIT_ASSIGN_OR_RETURN(double seconds, first(a, items));
    FXKIT_ASSIGN_OR_RETURN(double more, second(a, flaggedItems));
    return seconds + more;
  };
  auto byName = [&](const std::string &definition, bool withTiming) -> Run {
    return [&, definition, withTiming](const std::vector<LaunchArg> &a, int64_t n) {
      return launcher.launchWith(definition, a, n, config, withTiming);
    };
  };
  auto plain = [&](const std::vector<LaunchArg> &a, bool withTiming) {
    return both(a, byName(firstName, withTiming), byName(float32Name, withTiming));
  };
  if (!epilogue)
    return plain(args, timed);
  // One definition per tile, layout and epilogue, named by two 64-bit hashes of its text.
  const CacheKey id =
      CacheKey::of("e", std::string(epilogue->function) + "\n" + std::string(epilogue->params));
  const std::string suffix = "_ep" + id.file.substr(2) + id.check;
  auto load = [&](const std::string &definition, TileForm form) -> Expected<KernelSet *> {
    return loadSource(definition + std::string(variantSuffix(Variant::Float)),
                      [&] { return source(definition, form); });
  };
  // The tensor cores' definition is not built where only the float32 form runs (its
  // instructions are NVIDIA's alone).
  KernelSet *set = nullptr, *float32Set = nullptr;
  Expected<KernelSet *> loaded =
      onlyFloat32 ? Expected<KernelSet *>(nullptr) : load(firstName + suffix, firstForm);
  if (loaded)
    set = *loaded;
  if (loaded && tensorCores) {
    loaded = load(float32Name + suffix, TileForm::Float32);
    if (loaded)
      float32Set = *loaded;
  }
  if (!loaded) { // the kernel runs apart, as it would without the template
    if (gemmLog())
      std::fprintf(stderr, "fxkit: gemm %s: epilogue refused (%s)\n", (name + suffix).c_str(),
                   loaded.error().message.c_str());
    return plain(args, timed);
  }
  auto bySet = [&](KernelSet *definition, bool withTiming) -> Run {
    return [&, definition, withTiming](const std::vector<LaunchArg> &a, int64_t n) {
      return definition->launchWith(0, a, n, config, withTiming);
    };
  };
  auto fusedRun = [&](const std::vector<LaunchArg> &a, bool withTiming) {
    return both(a, onlyFloat32 ? Run() : bySet(set, withTiming),
                tensorCores ? bySet(float32Set, withTiming) : Run());
  };
  std::vector<LaunchArg> fusedArgs = args;
  fusedArgs.insert(fusedArgs.end(), epilogue->launchArgs.begin(), epilogue->launchArgs.end());
  FXKIT_ASSIGN_OR_RETURN(bool fuse, fuseEpilogue(
                                        ctx, options, choices, key + suffix,
                                        [&](bool withEpilogue, cl_mem c) {
                                          std::vector<LaunchArg> a =
                                              withEpilogue ? fusedArgs : args;
                                          a[2].buffer = DeviceBuffer{c, 0, 0};
                                          return withEpilogue ? fusedRun(a, true) : plain(a, true);
                                        },
                                        fusedArgs, outElements));
  if (!fuse)
    return plain(args, timed);
  auto seconds = fusedRun(fusedArgs, timed);
  if (seconds)
    epilogue->ran = true;
  return seconds;
}

/// The flags of `p`'s rows of A and columns of B in GemmChoices::specialRows: where `check`,
/// cleared, then set by one launch of fx_gemm_special_rows (every element of both operands read
/// once) where the row or column holds a value the tensor-core tiles' 3xTF32 split gets wrong,
/// with the word `any` after them. With `timed`, the launches' seconds.
Expected<SpecialRows> flagSpecialRows(Launcher &launcher, GemmChoices &choices,
                                      const OpenCLContext &ctx, const GemmProblem &p, bool check,
                                      bool timed) {
  const size_t item = sizeof(cl_int);
  const size_t rowsA = static_cast<size_t>(p.batch * p.m),
               rowsB = static_cast<size_t>(p.batch * p.n), all = rowsA + rowsB + 1;
  FXKIT_ASSIGN_OR_RETURN(DeviceBuffer flags, choices.specialRows.get(ctx, all * item));
  SpecialRows out{DeviceBuffer{flags.mem, flags.offset, rowsA * item},
                  DeviceBuffer{flags.mem, flags.offset + rowsA * item, rowsB * item},
                  DeviceBuffer{flags.mem, flags.offset + (rowsA + rowsB) * item, item}, 0};
  if (!check)
    return out;
  FXKIT_TRY(fillZeros(ctx, DeviceBuffer{flags.mem, flags.offset, all * item}));
  // Stored rows: A's m (k deep), or k transposed; B's k (n wide), or n transposed. A work-group
  // reads one or more stored rows at a time.
  const int64_t outer = std::max(p.a.transposed ? p.k : p.m, p.b.transposed ? p.n : p.k);
  if (p.k == 0 || outer == 0)
    return out;
  LaunchConfig config;
  config.local = 256;
  std::vector<LaunchArg> args{
      bufferArg(DeviceBuffer{p.a.mem, p.a.offset * sizeof(float), 0}, false),
      bufferArg(DeviceBuffer{p.b.mem, p.b.offset * sizeof(float), 0}, false),
      bufferArg(flags, true)};
  appendLongs(args, {p.m, p.n, p.k, static_cast<int64_t>(p.a.ld), static_cast<int64_t>(p.b.ld),
                     static_cast<int64_t>(p.a.batchStride), static_cast<int64_t>(p.b.batchStride),
                     p.batch, p.a.transposed ? 1 : 0, p.b.transposed ? 1 : 0});
  // Enough work-groups to fill the device (8 of 256 per compute unit), none without a row.
  const int64_t groups =
      std::min<int64_t>(outer, int64_t{8} * std::max(ctx.device().computeUnits, 1));
  FXKIT_ASSIGN_OR_RETURN(out.seconds,
                         launcher.launchWith(kSpecialRowsName, args, groups * 256, config, timed));
  return out;
}

/// Appends a tensor-core tile's flag arguments for `p` to `args` (the GEMM kernel's `fa`, `fb`,
/// `fany`, `fsa`, `fsb`, `flagged_only`; flagSpecialRows sets the flags, except under
/// float32LoopOnly, where the float32 form computes every tile and reads none); `perBatch` false:
/// every batch of the launch reads the first batch's (split-K's parts, whose rows span every
/// part). Returns flagSpecialRows' seconds.
Expected<double> appendSpecialRows(Launcher &launcher, GemmChoices &choices,
                                   const OpenCLContext &ctx, const OpenCLOptions &options,
                                   const GemmProblem &p, bool perBatch, bool timed,
                                   std::vector<LaunchArg> &args) {
  FXKIT_ASSIGN_OR_RETURN(SpecialRows rows, flagSpecialRows(launcher, choices, ctx, p,
                                                           !float32LoopOnly(options), timed));
  args.push_back(bufferArg(rows.a, false));
  args.push_back(bufferArg(rows.b, false));
  args.push_back(bufferArg(rows.any, false));
  // The float32 form computes only the flagged tiles after the tensor cores, every tile alone.
  appendLongs(args, {perBatch ? p.m : 0, perBatch ? p.n : 0, float32LoopOnly(options) ? 0 : 1});
  return rows.seconds;
}

Expected<std::vector<int32_t>> gemmSpecialRowsOf(const LauncherFor &launcherFor,
                                                 GemmChoices &choices, OpenCLContext &ctx,
                                                 const GemmProblem &p) {
  if (!offsetsFitInt(p))
    return Error("a matrix product with offsets beyond 2^31 elements has no GEMM template form");
  FXKIT_ASSIGN_OR_RETURN(Launcher launcher, launcherFor(Variant::Float));
  FXKIT_ASSIGN_OR_RETURN(SpecialRows rows, flagSpecialRows(launcher, choices, ctx, p, true, false));
  std::vector<int32_t> out((rows.a.bytes + rows.b.bytes + rows.any.bytes) / sizeof(int32_t));
  if (out.empty())
    return out;
  cl_int err = clEnqueueReadBuffer(ctx.queue(), rows.a.mem, CL_TRUE, rows.a.offset,
                                   out.size() * sizeof(int32_t), out.data(), 0, nullptr, nullptr);
  if (err != CL_SUCCESS)
    return clError("reading a GEMM's special rows", err);
  return out;
}

/// Runs product `p` (one matrix, k divisible by the plan's splits) by split-K plan `plan` into
/// `out` + `offset` (elements): the parts' products into the partial buffer as the batches of one
/// launch (A and B stepped along k, each part's C dense), then their sum into C (fused epilogues
/// run apart). With `timed`, the two launches' seconds.
Expected<double> launchSplit(Launcher &launcher, const SourceLoader &loadSource,
                             GemmChoices &choices, OpenCLContext &ctx, const OpenCLOptions &options,
                             const GemmProblem &p, const GemmPlan &plan, cl_mem out, size_t offset,
                             bool timed) {
  const GemmTile &t = plan.tile;
  const int64_t parts = plan.splits, depth = p.k / parts, mn = p.m * p.n;
  FXKIT_ASSIGN_OR_RETURN(
      DeviceBuffer scratch,
      choices.splitPartials.get(ctx, static_cast<size_t>(parts * mn) * sizeof(float)));
  const size_t item = sizeof(float);
  const int64_t lda = static_cast<int64_t>(p.a.ld), ldb = static_cast<int64_t>(p.b.ld);
  // Element (row, kk) of A is at row * lda + kk, or kk * lda + row transposed; B's (kk, col) at
  // col * ldb + kk transposed, else kk * ldb + col: a part is `depth` steps of kk further.
  std::vector<LaunchArg> args{bufferArg(DeviceBuffer{p.a.mem, p.a.offset * item, 0}, false),
                              bufferArg(DeviceBuffer{p.b.mem, p.b.offset * item, 0}, false),
                              bufferArg(scratch, true)};
  appendLongs(args, {p.m, p.n, depth, lda, ldb, p.n, p.a.transposed ? depth * lda : depth,
                     p.b.transposed ? depth : depth * ldb, mn, parts});
  args.push_back(floatArg(1.0, Variant::Float));
  args.push_back(floatArg(0.0, Variant::Float));
  double checks = 0;
  if (t.tensorCores()) {
    FXKIT_ASSIGN_OR_RETURN(
        checks, appendSpecialRows(launcher, choices, ctx, options, p, false, timed, args));
  }
  const int64_t groups = ((p.m + t.tm - 1) / t.tm) * ((p.n + t.tn - 1) / t.tn) * parts;
  FXKIT_ASSIGN_OR_RETURN(double products,
                         launchTileWithEpilogue(launcher, loadSource, choices, ctx, options, t,
                                                definitionName(t, p.a.transposed, p.b.transposed),
                                                args, groups * t.threads(), timed, nullptr, "", {},
                                                0));
  std::vector<LaunchArg> sumArgs{bufferArg(scratch, false),
                                 bufferArg(DeviceBuffer{out, offset * item, 0}, true)};
  appendLongs(sumArgs, {mn, p.n, static_cast<int64_t>(p.c.ld), parts});
  sumArgs.push_back(floatArg(p.alpha, Variant::Float));
  sumArgs.push_back(floatArg(p.beta, Variant::Float));
  LaunchConfig sumConfig;
  sumConfig.local = 256;
  FXKIT_ASSIGN_OR_RETURN(double sums,
                         launcher.launchWith(kSplitSumName, sumArgs, mn, sumConfig, timed));
  return checks + products + sums;
}

Expected<GemmRoute> runGemmTemplate(const LauncherFor &launcherFor, const SourceLoader &loadSource,
                                    GemmChoices &choices, OpenCLContext &ctx,
                                    const OpenCLOptions &options, const GemmProblem &p,
                                    const GemmLibrary *library) {
  if (libraryOnly(ctx, options, p, library)) {
    FXKIT_TRY((*library)(p.c.mem, p.c.offset));
    return GemmRoute::Library;
  }
  if (!library && policyOf(options) == GemmPolicy::Library)
    return Error("no GEMM library in this build (OpenCLOptions::gemm)");
  if (!offsetsFitInt(p))
    return Error("a matrix product with offsets beyond 2^31 elements has no GEMM template form");
  FXKIT_ASSIGN_OR_RETURN(Launcher launcher, launcherFor(Variant::Float));
  const int64_t outSizes[] = {p.batch, p.m, p.n};
  const int64_t outStrides[] = {static_cast<int64_t>(p.c.batchStride), static_cast<int64_t>(p.c.ld),
                                1};
  const size_t outElements = static_cast<size_t>(extentElements(outSizes, outStrides));
  bool split = false; // the problem's own run was split
  TileLauncher launchTile = [&](const GemmPlan &plan, cl_mem out, size_t offset, bool timed,
                                bool final) -> Expected<double> {
    const GemmTile &t = plan.tile;
    if (plan.splits > 1 && p.batch == 1 && p.k % plan.splits == 0) {
      split = final;
      return launchSplit(launcher, loadSource, choices, ctx, options, p, plan, out, offset, timed);
    }
    const size_t item = sizeof(float);
    std::vector<LaunchArg> args{bufferArg(DeviceBuffer{p.a.mem, p.a.offset * item, 0}, false),
                                bufferArg(DeviceBuffer{p.b.mem, p.b.offset * item, 0}, false),
                                bufferArg(DeviceBuffer{out, offset * item, 0}, true)};
    appendLongs(args, {p.m, p.n, p.k, static_cast<int64_t>(p.a.ld), static_cast<int64_t>(p.b.ld),
                       static_cast<int64_t>(p.c.ld), static_cast<int64_t>(p.a.batchStride),
                       static_cast<int64_t>(p.b.batchStride), static_cast<int64_t>(p.c.batchStride),
                       p.batch});
    args.push_back(floatArg(p.alpha, Variant::Float));
    args.push_back(floatArg(p.beta, Variant::Float));
    double checks = 0;
    if (t.tensorCores()) {
      FXKIT_ASSIGN_OR_RETURN(
          checks, appendSpecialRows(launcher, choices, ctx, options, p, true, timed, args));
    }
    int64_t groups = ((p.m + t.tm - 1) / t.tm) * ((p.n + t.tn - 1) / t.tn) * p.batch;
    const std::string name = definitionName(t, p.a.transposed, p.b.transposed);
    FXKIT_ASSIGN_OR_RETURN(double product,
                           launchTileWithEpilogue(
                               launcher, loadSource, choices, ctx, options, t, name, args,
                               groups * t.threads(), timed,
                               final && p.epilogue && epilogueFits(p) ? p.epilogue : nullptr,
                               p.shapeKey() + "_" + t.str(),
                               [&](const std::string &fused, TileForm form) {
                                 return epilogueSource(fused, t, p.a.transposed, p.b.transposed,
                                                       false, form, *p.epilogue);
                               },
                               outElements));
    return checks + product;
  };
  // A choice made at one precision is not another's.
  const std::string key =
      p.shapeKey() + (precisionOf(options) == MatmulPrecision::High ? "_high" : "");
  FXKIT_ASSIGN_OR_RETURN(GemmRoute route,
                         chooseAndRun(choices, ctx, options, key, gemmPlansFor(p, ctx, options),
                                      outElements, p.c.mem, p.c.offset, launchTile, library));
  return route == GemmRoute::Template && split ? GemmRoute::TemplateSplit : route;
}

Expected<GemmRoute> runConvolutionGemmTemplate(const LauncherFor &launcherFor,
                                               const SourceLoader &loadSource, GemmChoices &choices,
                                               OpenCLContext &ctx, const OpenCLOptions &options,
                                               const ConvProblem &p, const GemmLibrary *library) {
  if (libraryOnly(ctx, options, p, library)) {
    FXKIT_TRY((*library)(p.output, p.outputOffset));
    return GemmRoute::Library;
  }
  if (!offsetsFitInt(p))
    return Error("a convolution with offsets beyond 2^31 elements has no GEMM template form");
  // Per reduced point (c, kh, kw): its input offset from the patch's corner and its height and
  // width displacements; kept per context for each window and input layout.
  const int64_t points = p.c * p.kh * p.kw;
  std::string tableKey = std::to_string(p.c) + "_" + std::to_string(p.kh) + "_" +
                         std::to_string(p.kw) + "_" + std::to_string(p.dilation[0]) + "_" +
                         std::to_string(p.dilation[1]) + "_" + std::to_string(p.inStrides[1]) +
                         "_" + std::to_string(p.inStrides[2]) + "_" +
                         std::to_string(p.inStrides[3]);
  auto &table = choices.convTables[tableKey];
  if (!table) {
    std::vector<int32_t> values;
    values.reserve(static_cast<size_t>(points) * 4);
    for (int64_t c = 0; c < p.c; ++c)
      for (int64_t kh = 0; kh < p.kh; ++kh)
        for (int64_t kw = 0; kw < p.kw; ++kw) {
          int64_t dh = kh * p.dilation[0], dw = kw * p.dilation[1];
          values.push_back(
              static_cast<int32_t>(c * p.inStrides[1] + dh * p.inStrides[2] + dw * p.inStrides[3]));
          values.push_back(static_cast<int32_t>(dh));
          values.push_back(static_cast<int32_t>(dw));
          values.push_back(0);
        }
    FXKIT_ASSIGN_OR_RETURN(TempBuffer t, TempBuffer::fromHostBytes(
                                             ctx, values.data(), values.size() * sizeof(int32_t)));
    table = std::make_shared<TempBuffer>(std::move(t));
  }
  FXKIT_ASSIGN_OR_RETURN(Launcher launcher, launcherFor(Variant::Float));
  const int64_t columns = p.n * p.oh * p.ow;
  // An epilogue runs at each element where the output is dense (NCHW), its points the output's
  // elements.
  const int64_t denseOut[4] = {p.oc * p.oh * p.ow, p.oh * p.ow, p.ow, 1};
  const bool epilogueFits = p.epilogue && p.epilogue->points == p.n * p.oc * p.oh * p.ow &&
                            std::equal(denseOut, denseOut + 4, p.outStrides);
  const int64_t outSizes[4] = {p.n, p.oc, p.oh, p.ow};
  const size_t outElements = static_cast<size_t>(extentElements(outSizes, p.outStrides));
  const std::vector<GemmPlan> candidates = candidatesFor(p.oc, columns, ctx, options, true);
  TileLauncher launchTile = [&](const GemmPlan &plan, cl_mem out, size_t offset, bool timed,
                                bool final) -> Expected<double> {
    // Convolutions are not split, and tensor-core tiles have no convolution form: a forced one
    // (OpenCLOptions::gemmTile) runs the first candidate, as a split that does not divide k runs
    // a product unsplit.
    const GemmTile &t = plan.tile.tensorCores() ? candidates.front().tile : plan.tile;
    const size_t item = sizeof(float);
    std::vector<LaunchArg> args{bufferArg(DeviceBuffer{p.weight, p.weightOffset * item, 0}, false),
                                bufferArg(DeviceBuffer{p.input, p.inputOffset * item, 0}, false),
                                bufferArg(DeviceBuffer{out, offset * item, 0}, true),
                                bufferArg(table->buffer(), false),
                                bufferArg(DeviceBuffer{p.bias ? p.bias : table->buffer().mem,
                                                       p.bias ? p.biasOffset * item : 0, 0},
                                          false)};
    appendLongs(args, {p.oc,
                       columns,
                       points,
                       p.weightStride0,
                       p.h,
                       p.w,
                       p.oh,
                       p.ow,
                       p.stride[0],
                       p.stride[1],
                       p.padding[0],
                       p.padding[1],
                       p.inStrides[0],
                       p.inStrides[2],
                       p.inStrides[3],
                       p.outStrides[0],
                       p.outStrides[1],
                       p.outStrides[2],
                       p.outStrides[3],
                       p.bias ? 1 : 0,
                       p.biasStride});
    int64_t groups = ((p.oc + t.tm - 1) / t.tm) * ((columns + t.tn - 1) / t.tn);
    return launchTileWithEpilogue(
        launcher, loadSource, choices, ctx, options, t, convDefinitionName(t), args,
        groups * t.threads(), timed, final && epilogueFits ? p.epilogue : nullptr,
        p.shapeKey() + "_" + t.str(),
        [&](const std::string &fused, TileForm form) {
          return epilogueSource(fused, t, false, false, true, form, *p.epilogue);
        },
        outElements);
  };
  return chooseAndRun(choices, ctx, options, p.shapeKey(), candidates, outElements, p.output,
                      p.outputOffset, launchTile, library);
}

} // namespace device_externs

} // namespace fxkit::opencl
