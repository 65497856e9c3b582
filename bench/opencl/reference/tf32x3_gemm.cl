// C[M, N] = A[M, K] @ B[N, K]^T in float32 on NVIDIA tensor cores through PTX mma.sync (m16n8k8,
// TF32 operands), each product as three of TF32 parts (3xTF32: big * big + big * small +
// small * big), for bench/README.md (session 19): operands in local memory in fragment order
// (one 16-byte read per A fragment, 8 bytes per B fragment), float4 loads of K-contiguous rows
// (K a multiple of TK), split into big and small parts in registers with integer rounding (the
// tensor cores read the top 19 bits of each word). -DSPLITACC adds each k8 step's three products
// to the float32 sums rounding to nearest (float32's accuracy or better; slower), -DONE computes
// plain TF32. Tile: TM x TN per work-group, WTM x WTN m16n8 blocks per warp, TK deep, DB double
// buffered. Times and checks with gemmbench.cpp.
#ifndef TM
#define TM 128
#endif
#ifndef TN
#define TN 128
#endif
#ifndef TK
#define TK 16
#endif
#ifndef WTM
#define WTM 4
#endif
#ifndef WTN
#define WTN 4
#endif
#ifndef DB
#define DB 1
#endif
#define WARPS_M (TM / (16 * WTM))
#define WARPS_N (TN / (8 * WTN))
#define THREADS (WARPS_M * WARPS_N * 32)
#define KQ (TK / 4)
#define NB (DB ? 2 : 1)

#define MMA(c, a, b)                                                                           \
  __asm__ volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, "       \
                   "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"                                    \
                   : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])                            \
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))
// x's TF32 part rounded to nearest (ties away), and the rest. -DSAFE: as the GEMM template
// splits (no finite x's part rounds to infinity, an infinity's rest is 0).
#ifdef SAFE
inline uint safe_big(float x) {
  const uint u = as_uint(x), r = (u + 0x1000u) & 0xffffe000u;
  return (r & 0x7f800000u) == 0x7f800000u ? u & 0xffffe000u : r;
}
#define BIG(x) safe_big(x)
#define SMALL(x, big) (isinf(x) ? 0u : as_uint((x) - as_float(big)))
#else
#define BIG(x) ((as_uint(x) + 0x1000u) & 0xffffe000u)
#define SMALL(x, big) as_uint((x) - as_float(big))
#endif

#ifdef ASYNC
// -DASYNC=1|2 (with -DPERM): the copies go straight from global to local memory (cp.async, 8
// bytes each, no registers held between the load and the store). The local address as the
// shared window's offset: 1 the __local pointer's value, 2 a generic address converted.
inline uint shared_addr(__local const float *p) {
#if ASYNC == 1
  return (uint)(size_t)p;
#else
  uint d;
  __asm__("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(d) : "l"((size_t)p));
  return d;
#endif
}
#endif
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void mma_nt(__global const float *A, __global const float *B, __global float *C, const int M,
            const int N, const int K) {
  __local float4 As[NB][TM * TK / 4];
  __local float2 Bs[NB][TN * TK / 2];
  const int tid = get_local_id(0), lane = tid & 31, warp = tid >> 5;
  const int g = lane >> 2, t = lane & 3;
  const int wm = (warp / WARPS_N) * WTM, wn = (warp % WARPS_N) * WTN; // in 16-row / 8-col tiles
  const int m0 = get_group_id(1) * TM, n0 = get_group_id(0) * TN;
  float acc[WTM][WTN][4];
  for (int i = 0; i < WTM; ++i)
    for (int j = 0; j < WTN; ++j)
      for (int q = 0; q < 4; ++q)
        acc[i][j][q] = 0.0f;
  float4 ra[TM * KQ / THREADS], rb[TN * KQ / THREADS];
#define LOAD(k0)                                                                               \
  for (int r = 0; r < TM * KQ / THREADS; ++r) {                                                \
    const int e = tid + r * THREADS, row = e / KQ, kq = e % KQ;                                \
    ra[r] = m0 + row < M ? vload4(0, A + (size_t)(m0 + row) * K + (k0) + kq * 4) : (float4)0;  \
  }                                                                                            \
  for (int r = 0; r < TN * KQ / THREADS; ++r) {                                                \
    const int e = tid + r * THREADS, col = e / KQ, kq = e % KQ;                                \
    rb[r] = n0 + col < N ? vload4(0, B + (size_t)(n0 + col) * K + (k0) + kq * 4) : (float4)0;  \
  }
#ifdef PERM
  // -DPERM: depths permuted within each 8-deep block (mma depth t <-> k 2t, t + 4 <-> 2t + 1,
  // the same for A and B, so the sums are unchanged) so that a lane's A fragment holds row g's
  // and row g + 8's pairs of adjacent k, and its B fragment one pair: each float4 read along k
  // is stored as two float2s. Lane slots are XOR-swizzled (A by bit 1 of the row, B by bit 2 of
  // the column) and the copy's work-items map to rows so that each half-warp's 64-bit stores
  // fall on distinct banks; the reads stay one 16-byte (A) or 8-byte (B) read per lane,
  // conflict-free.
#undef LOAD
#define PA_ROW(e) (((e) >> 1) & 3 | (((e) >> 3) & 1) << 3 | ((((e) >> 4) / (TK / 8)) & 1) << 2 |      \
                   ((((e) >> 4) / (TK / 8)) >> 1) << 4)
#define PB_COL(e) (((e) >> 1) & 7 | (((e) >> 4) / (TK / 8)) << 3)
#define P_KQ(e) ((((e) >> 4) % (TK / 8)) * 2 + ((e)&1))
#define LOAD(k0)                                                                               \
  for (int r = 0; r < TM * KQ / THREADS; ++r) {                                                \
    const int e = tid + r * THREADS, row = PA_ROW(e), kq = P_KQ(e);                            \
    ra[r] = m0 + row < M ? vload4(0, A + (size_t)(m0 + row) * K + (k0) + kq * 4) : (float4)0;  \
  }                                                                                            \
  for (int r = 0; r < TN * KQ / THREADS; ++r) {                                                \
    const int e = tid + r * THREADS, col = PB_COL(e), kq = P_KQ(e);                            \
    rb[r] = n0 + col < N ? vload4(0, B + (size_t)(n0 + col) * K + (k0) + kq * 4) : (float4)0;  \
  }
#define STORE(buf)                                                                             \
  for (int r = 0; r < TM * KQ / THREADS; ++r) {                                                \
    const int e = tid + r * THREADS, row = PA_ROW(e), kq = P_KQ(e);                            \
    const int base = ((kq >> 1) * (TM / 16) + (row >> 4)) * 32, lane0 = (row & 7) * 4 + 2 * (kq & 1); \
    const int sw = (row >> 1) & 1, s = ((row >> 3) & 1) * 2;                                   \
    __local float *sa = (__local float *)As[buf];                                              \
    vstore2(ra[r].xy, 0, sa + (base + (lane0 ^ sw)) * 4 + s);                                  \
    vstore2(ra[r].zw, 0, sa + (base + ((lane0 + 1) ^ sw)) * 4 + s);                            \
  }                                                                                            \
  for (int r = 0; r < TN * KQ / THREADS; ++r) {                                                \
    const int e = tid + r * THREADS, col = PB_COL(e), kq = P_KQ(e);                            \
    const int base = ((kq >> 1) * (TN / 8) + (col >> 3)) * 32, lane0 = (col & 7) * 4 + 2 * (kq & 1); \
    const int sw = (col >> 2) & 1;                                                             \
    Bs[buf][base + (lane0 ^ sw)] = rb[r].xy;                                                   \
    Bs[buf][base + ((lane0 + 1) ^ sw)] = rb[r].zw;                                             \
  }
#ifdef ASYNC
#define CP8(dst, src)                                                                          \
  __asm__ volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(shared_addr(dst)), "l"(src) : "memory")
#define ACOPY(k0, buf)                                                                         \
  for (int r = 0; r < TM * KQ / THREADS; ++r) {                                                \
    const int e = tid + r * THREADS, row = PA_ROW(e), kq = P_KQ(e);                            \
    const int base = ((kq >> 1) * (TM / 16) + (row >> 4)) * 32, lane0 = (row & 7) * 4 + 2 * (kq & 1); \
    const int sw = (row >> 1) & 1, s = ((row >> 3) & 1) * 2;                                   \
    __local float *sa = (__local float *)As[buf];                                              \
    __global const float *ga = A + (size_t)min(m0 + row, M - 1) * K + (k0) + kq * 4;           \
    CP8(sa + (base + (lane0 ^ sw)) * 4 + s, ga);                                               \
    CP8(sa + (base + ((lane0 + 1) ^ sw)) * 4 + s, ga + 2);                                     \
  }                                                                                            \
  for (int r = 0; r < TN * KQ / THREADS; ++r) {                                                \
    const int e = tid + r * THREADS, col = PB_COL(e), kq = P_KQ(e);                            \
    const int base = ((kq >> 1) * (TN / 8) + (col >> 3)) * 32, lane0 = (col & 7) * 4 + 2 * (kq & 1); \
    const int sw = (col >> 2) & 1;                                                             \
    __global const float *gb = B + (size_t)min(n0 + col, N - 1) * K + (k0) + kq * 4;           \
    CP8((__local float *)&Bs[buf][base + (lane0 ^ sw)], gb);                                   \
    CP8((__local float *)&Bs[buf][base + ((lane0 + 1) ^ sw)], gb + 2);                         \
  }                                                                                            \
  __asm__ volatile("cp.async.commit_group;" ::: "memory");
#define AWAIT() __asm__ volatile("cp.async.wait_all;" ::: "memory")
#undef LOAD
#undef STORE
#define LOAD(k0)
#define STORE(buf)
#endif
#define A_SLOT (lane ^ ((g >> 1) & 1))
#define B_SLOT (lane ^ ((g >> 2) & 1))
#else
  // Element (row, k) of A's slice goes to lane (row % 8) * 4 + k % 4 of fragment
  // (k / 8, row / 16), word (row / 8) % 2 + 2 * ((k / 4) % 2); B's (col, k) to lane
  // (col % 8) * 4 + k % 4 of fragment (k / 8, col / 8), word (k / 4) % 2.
#define STORE(buf)                                                                             \
  for (int r = 0; r < TM * KQ / THREADS; ++r) {                                                \
    const int e = tid + r * THREADS, row = e / KQ, kq = e % KQ;                                \
    __local float *s = (__local float *)As[buf] +                                              \
        ((((kq >> 1) * (TM / 16) + (row >> 4)) * 32 + (row & 7) * 4) * 4 +                      \
         ((row >> 3) & 1) + 2 * (kq & 1));                                                     \
    s[0] = ra[r].x, s[4] = ra[r].y, s[8] = ra[r].z, s[12] = ra[r].w;                           \
  }                                                                                            \
  for (int r = 0; r < TN * KQ / THREADS; ++r) {                                                \
    const int e = tid + r * THREADS, col = e / KQ, kq = e % KQ;                                \
    __local float *s = (__local float *)Bs[buf] +                                              \
        ((((kq >> 1) * (TN / 8) + (col >> 3)) * 32 + (col & 7) * 4) * 2 + (kq & 1));           \
    s[0] = rb[r].x, s[2] = rb[r].y, s[4] = rb[r].z, s[6] = rb[r].w;                            \
  }
#define A_SLOT lane
#define B_SLOT lane
#endif
#ifdef NOSTORE
#undef STORE
#define STORE(buf) if (M < 0) { As[buf][tid] = ra[0]; Bs[buf][tid] = rb[0].xy; }
#endif
#ifdef ASYNC
  ACOPY(0, 0)
  AWAIT();
#endif
  LOAD(0)
  STORE(0)
  barrier(CLK_LOCAL_MEM_FENCE);
  int buf = 0;
  for (int k0 = 0; k0 < K; k0 += TK) {
    if (k0 + TK < K) {
#ifdef ASYNC
      ACOPY(k0 + TK, buf ^ 1)
#endif
      LOAD(k0 + TK)
    }
#pragma unroll
    for (int kt = 0; kt < TK / 8; ++kt) {
      uint ab[WTM][4], as_[WTM][4], bb[WTN][2], bs_[WTN][2];
#pragma unroll
      for (int i = 0; i < WTM; ++i) {
#ifdef PERM
        const float4 a = As[buf][(kt * (TM / 16) + wm + i) * 32 + A_SLOT].xzyw;
#else
        const float4 a = As[buf][(kt * (TM / 16) + wm + i) * 32 + lane];
#endif
        ab[i][0] = BIG(a.x), ab[i][1] = BIG(a.y), ab[i][2] = BIG(a.z), ab[i][3] = BIG(a.w);
        as_[i][0] = SMALL(a.x, ab[i][0]), as_[i][1] = SMALL(a.y, ab[i][1]);
        as_[i][2] = SMALL(a.z, ab[i][2]), as_[i][3] = SMALL(a.w, ab[i][3]);
      }
#ifdef JOUTER
      // -DJOUTER: each B fragment split as its products need it (4 registers live, not 4 WTN).
#pragma unroll
      for (int j = 0; j < WTN; ++j) {
        const float2 b = Bs[buf][(kt * (TN / 8) + wn + j) * 32 + B_SLOT];
        uint b1[2], b2[2];
        b1[0] = BIG(b.x), b1[1] = BIG(b.y), b2[0] = SMALL(b.x, b1[0]), b2[1] = SMALL(b.y, b1[1]);
#pragma unroll
        for (int i = 0; i < WTM; ++i) {
          float p[4] = {0.0f, 0.0f, 0.0f, 0.0f};
          MMA(p, as_[i], b1);
          MMA(p, ab[i], b2);
          MMA(p, ab[i], b1);
          acc[i][j][0] += p[0], acc[i][j][1] += p[1], acc[i][j][2] += p[2], acc[i][j][3] += p[3];
        }
      }
#else
#pragma unroll
      for (int j = 0; j < WTN; ++j) {
        const float2 b = Bs[buf][(kt * (TN / 8) + wn + j) * 32 + B_SLOT];
        bb[j][0] = BIG(b.x), bb[j][1] = BIG(b.y);
        bs_[j][0] = SMALL(b.x, bb[j][0]), bs_[j][1] = SMALL(b.y, bb[j][1]);
      }
#pragma unroll
      for (int i = 0; i < WTM; ++i)
#pragma unroll
        for (int j = 0; j < WTN; ++j) {
#if defined(SPLITACC)
          // The three products of one k8 step into zero, then added to acc rounding to nearest:
          // the tensor cores' accumulation truncates.
          float p[4] = {0.0f, 0.0f, 0.0f, 0.0f};
          MMA(p, as_[i], bb[j]);
          MMA(p, ab[i], bs_[j]);
          MMA(p, ab[i], bb[j]);
          acc[i][j][0] += p[0], acc[i][j][1] += p[1], acc[i][j][2] += p[2], acc[i][j][3] += p[3];
#else
#ifndef ONE
          MMA(acc[i][j], as_[i], bb[j]);
          MMA(acc[i][j], ab[i], bs_[j]);
#endif
          MMA(acc[i][j], ab[i], bb[j]);
#endif
        }
#endif
    }
#if DB
    if (k0 + TK < K) {
      STORE(buf ^ 1)
    }
#ifdef ASYNC
    AWAIT();
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    buf ^= 1;
#else
    barrier(CLK_LOCAL_MEM_FENCE);
    if (k0 + TK < K) {
      STORE(0)
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
  }
  for (int i = 0; i < WTM; ++i)
    for (int j = 0; j < WTN; ++j) {
      const int row = m0 + (wm + i) * 16 + g, col = n0 + (wn + j) * 8 + t * 2;
      if (row < M && col < N)
        C[(size_t)row * N + col] = acc[i][j][0];
      if (row < M && col + 1 < N)
        C[(size_t)row * N + col + 1] = acc[i][j][1];
      if (row + 8 < M && col < N)
        C[(size_t)(row + 8) * N + col] = acc[i][j][2];
      if (row + 8 < M && col + 1 < N)
        C[(size_t)(row + 8) * N + col + 1] = acc[i][j][3];
    }
}
