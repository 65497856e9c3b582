// Reference kernels written as Triton writes Inductor's reductions, to measure what fxkit's
// generated ones could reach (bench/README.md, session 18; run.sh): every size a compile-time
// constant (-DROW, -DL lanes per row, -DW rows per work-group, -DU), a row held as P float4s per
// lane, loaded before anything is computed, lanes combined by warp shuffles (NVIDIA inline PTX)
// and, across a row's warps, local memory. Not fxkit's semantics: no NaN propagation in max, no
// cascade summation; for timing only.
#define P (ROW / (4 * L))
#define NW (L >= 32 ? L / 32 : 1)
inline float shfl_xor(float v, int m) {
  uint r;
  __asm__ volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(as_uint(v)), "r"(m));
  return as_float(r);
}
inline float fexp(float x) { return native_exp2(x * 1.44269504088896340736f); }
#define REDUCE(v, OP, sc)                                                                          \
  do {                                                                                             \
    for (int m_ = (L < 32 ? L : 32) >> 1; m_ > 0; m_ >>= 1)                                        \
      v = OP(v, shfl_xor(v, m_));                                                                  \
    if (NW > 1) {                                                                                  \
      if ((lid & 31) == 0)                                                                         \
        sc[lid >> 5] = v;                                                                          \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                \
      v = sc[slot * NW];                                                                           \
      for (int w_ = 1; w_ < NW; ++w_)                                                              \
        v = OP(v, sc[slot * NW + w_]);                                                             \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                \
    }                                                                                              \
  } while (0)
#define ADD(a, b) ((a) + (b))
/// A lane's P float4s of its row, every load issued before any is used.
inline void load_row(__global const float4 *row, int lane, float4 *v) {
#pragma unroll
  for (int k = 0; k < P; ++k)
    v[k] = row[lane + k * L];
}
__kernel void tsm(__global const float *in, __global float *out, const int xnumel) {
  const int lid = get_local_id(0);
  const int lane = lid & (L - 1), slot = lid / L;
  __local float sc[W * NW];
  for (int xbase = get_group_id(0) * W; xbase < xnumel; xbase += get_num_groups(0) * W) {
    const int x = xbase + slot;
    __global const float4 *row = (__global const float4 *)(in + (long)x * ROW);
    float4 v[P];
    load_row(row, lane, v);
    float m = -INFINITY;
#pragma unroll
    for (int k = 0; k < P; ++k)
      m = fmax(m, fmax(fmax(v[k].x, v[k].y), fmax(v[k].z, v[k].w)));
    REDUCE(m, fmax, sc);
    float s = 0;
#pragma unroll
    for (int k = 0; k < P; ++k) {
      v[k] = (float4)(fexp(v[k].x - m), fexp(v[k].y - m), fexp(v[k].z - m), fexp(v[k].w - m));
      s += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    }
    REDUCE(s, ADD, sc);
    __global float4 *orow = (__global float4 *)(out + (long)x * ROW);
#pragma unroll
    for (int k = 0; k < P; ++k)
      orow[lane + k * L] = v[k] / s;
  }
}
__kernel void tln(__global const float *in, __global float *out, const int xnumel) {
  const int lid = get_local_id(0);
  const int lane = lid & (L - 1), slot = lid / L;
  __local float sc[W * NW];
  for (int xbase = get_group_id(0) * W; xbase < xnumel; xbase += get_num_groups(0) * W) {
    const int x = xbase + slot;
    __global const float4 *row = (__global const float4 *)(in + (long)x * ROW);
    float4 v[P];
    load_row(row, lane, v);
    float s = 0;
#pragma unroll
    for (int k = 0; k < P; ++k)
      s += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    REDUCE(s, ADD, sc);
    const float mean = s * (1.0f / ROW);
    float q = 0;
#pragma unroll
    for (int k = 0; k < P; ++k) {
      v[k] -= mean;
      q += (v[k].x * v[k].x + v[k].y * v[k].y) + (v[k].z * v[k].z + v[k].w * v[k].w);
    }
    REDUCE(q, ADD, sc);
    const float rs = rsqrt(q * (1.0f / ROW) + 1e-5f);
    __global float4 *orow = (__global float4 *)(out + (long)x * ROW);
#pragma unroll
    for (int k = 0; k < P; ++k)
      orow[lane + k * L] = v[k] * rs;
  }
}
// Row sums of ROW points, Triton's looped form: each lane keeps U independent float4 partial sums.
__kernel void trs(__global const float *in, __global float *out, const int xnumel) {
  const int lid = get_local_id(0);
  const int lane = lid & (L - 1), slot = lid / L;
  __local float sc[W * NW];
  for (int xbase = get_group_id(0) * W; xbase < xnumel; xbase += get_num_groups(0) * W) {
    const int x = xbase + slot;
    __global const float4 *row = (__global const float4 *)(in + (long)x * ROW);
    float4 a[U];
#pragma unroll
    for (int u = 0; u < U; ++u)
      a[u] = 0;
    for (int k = 0; k < P; k += U)
#pragma unroll
      for (int u = 0; u < U; ++u)
        a[u] += row[lane + (k + u) * L];
    float4 t = a[0];
#pragma unroll
    for (int u = 1; u < U; ++u)
      t += a[u];
    float s = (t.x + t.y) + (t.z + t.w);
    REDUCE(s, ADD, sc);
    if (lane == 0)
      out[x] = s;
  }
}
