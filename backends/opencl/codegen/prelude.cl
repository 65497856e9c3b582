/// Python floor division and modulo (the sign of the divisor).
{{index arithmetic}}
inline fx_index_t fx_indirect_nowrap(fx_index_t i, fx_index_t size) {
  return i < 0 ? 0 : i >= size ? size - 1 : i;
}
inline fx_index_t fx_indirect(fx_index_t i, fx_index_t size) {
  return fx_indirect_nowrap(i < 0 ? i + size : i, size);
}
/// Integer power by squaring; negative exponents as c10's powi (1, +-1 or 0).
inline long fx_ipow(long a, long b) {
  if (b < 0)
    return a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0;
  ulong r = 1, x = (ulong)a;
  for (; b; b >>= 1, x *= x)
    if (b & 1)
      r *= x;
  return (long)r;
}
/// torch.fmod and torch.remainder of integers; a zero divisor (an error in PyTorch, a trap on
/// some devices) gives 0.
inline long fx_ifmod(long a, long b) { return b == 0 || b == -1 ? 0 : a % b; }
// torch's shifts (ir/loop/ScalarMath.h's shiftLeft and shiftRight): in 64 bits, then wrapped.
inline long fx_ishl(long a, long b) { return b < 0 || b >= 64 ? 0 : (long)((ulong)a << b); }
inline long fx_ishr(long a, long b) { return a >> (b < 0 || b >= 64 ? 63 : b); }
inline long fx_iremainder(long a, long b) {
  long r = fx_ifmod(a, b);
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
/// Whether a vector access at `p` may use a 16-byte load or store.
inline bool fx_aligned16(__global const void *p) { return ((ulong)p & 15) == 0; }
/// Component i of v, and v with component i set to x: the persistent form's points in float4
/// registers, indexed by an unrolled loop's constant (so the choice folds away).
inline float fx_f4at(float4 v, int i) { return i == 0 ? v.s0 : i == 1 ? v.s1 : i == 2 ? v.s2 : v.s3; }
inline float4 fx_f4with(float4 v, int i, float x) {
  return (float4)(i == 0 ? x : v.s0, i == 1 ? x : v.s1, i == 2 ? x : v.s2, i == 3 ? x : v.s3);
}
#ifdef FX_WARP_SHUFFLE
/// NVIDIA GPUs (KernelSet defines FX_WARP_SHUFFLE): the value of lane (this lane ^ m) of the
/// 32-lane warp, through PTX's shfl.sync (every lane of the warp takes part), so lanes combine
/// in registers, as Triton's and CUDA's reductions do, instead of through local memory.
inline uint fx_shfl_xor_u(uint v, int m) {
  uint r;
  __asm__ volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(m));
  return r;
}
inline float fx_shfl_xor_f(float v, int m) { return as_float(fx_shfl_xor_u(as_uint(v), m)); }
inline int fx_shfl_xor_i(int v, int m) { return as_int(fx_shfl_xor_u(as_uint(v), m)); }
#endif
/// float32 exp: see fx_exp_f.
#ifdef FX_FAST_EXP
#define FX_EXP_F(x) native_exp2((x) * 1.44269504088896340736f)
#else
#define FX_EXP_F(x) exp(x)
#endif
/// NaN-propagating maximum and minimum (torch.maximum, amax).
{{floating}}
/// Philox-4x32-10 random numbers as Triton's tl.rand/tl.randint4x and Inductor's randint64
/// (ir/loop/Philox.h is the reference; the words of counter (offset, 0, 0, 0), key = seed).
inline void fx_philox(ulong seed, uint offset, __private uint *w) {
  uint c0 = offset, c1 = 0, c2 = 0, c3 = 0, k0 = (uint)seed, k1 = (uint)(seed >> 32);
  for (int i = 0; i < 10; ++i) {
    ulong p0 = (ulong)0xD2511F53u * c0, p2 = (ulong)0xCD9E8D57u * c2;
    uint n0 = (uint)(p2 >> 32) ^ c1 ^ k0, n2 = (uint)(p0 >> 32) ^ c3 ^ k1;
    c1 = (uint)p2;
    c3 = (uint)p0;
    c0 = n0;
    c2 = n2;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  w[0] = c0;
  w[1] = c1;
  w[2] = c2;
  w[3] = c3;
}
inline float fx_uniform(uint w) {
  int x = (int)w;
  return (float)(x < 0 ? -(x + 1) : x) * 4.6566127342e-10f;
}
inline float fx_rand(ulong seed, uint offset) {
  uint w[4];
  fx_philox(seed, offset, w);
  return fx_uniform(w[0]);
}
inline long fx_randint64(ulong seed, uint offset, long size) {
  uint w[4];
  fx_philox(seed, offset, w);
  ulong bits = (ulong)w[0] | ((ulong)w[1] << 32);
  return size == 0 ? 0 : (long)(bits % (ulong)size);
}
/// bfloat16 is the high half of a float32; stores round to nearest even.
inline float fx_bf16_to_float(ushort v) { return as_float(((uint)v) << 16); }
inline ushort fx_float_to_bf16(float f) {
  uint u = as_uint(f);
  if (isnan(f))
    return (ushort)0x7fc0;
  u += 0x7fff + ((u >> 16) & 1);
  return (ushort)(u >> 16);
}
inline float fx_round_bf16(float f) { return fx_bf16_to_float(fx_float_to_bf16(f)); }
inline float fx_round_half(float f) {
  ushort bits; // half values may only be stored and loaded without cl_khr_fp16
  vstore_half_rte(f, 0, (__private half *)&bits);
  return vload_half(0, (__private const half *)&bits);
}
