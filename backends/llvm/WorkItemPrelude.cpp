#include "backends/llvm/WorkItemPrelude.h"

namespace fxkit::llvmjit {

const std::string &workItemPrelude() {
  static const std::string text =
      R"(// fxkit LLVM backend: the OpenCL C environment of the host CPU.
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef __INTPTR_TYPE__ intptr_t;
typedef __UINTPTR_TYPE__ uintptr_t;

#define CHAR_MAX 127
#define CHAR_MIN (-128)
#define UCHAR_MAX 255
#define SHRT_MAX 32767
#define SHRT_MIN (-32767 - 1)
#define USHRT_MAX 65535
#define INT_MAX 2147483647
#define INT_MIN (-2147483647 - 1)
#define UINT_MAX 0xffffffffU
#define LONG_MAX 0x7fffffffffffffffL
#define LONG_MIN (-0x7fffffffffffffffL - 1)
#define ULONG_MAX 0xffffffffffffffffUL
#define NAN __builtin_nanf("")
#define INFINITY __builtin_inff()
#define HUGE_VALF __builtin_huge_valf()
#define HUGE_VAL __builtin_huge_val()
#define MAXFLOAT 0x1.fffffep127f
#define M_PI_F 3.14159274101257324f
#define M_PI 3.141592653589793
#define CLK_LOCAL_MEM_FENCE 1
#define CLK_GLOBAL_MEM_FENCE 2

/// The work-item functions of a work-group of one work-item that runs rows from `fx_first`
/// (see WorkItemPrelude.h). fx_first is the first parameter of every kernel function.
#define get_work_dim() 1U
#define get_global_id(d) ((size_t)fx_first)
#define get_group_id(d) ((size_t)fx_first)
#define get_global_size(d) ((size_t)1)
#define get_num_groups(d) ((size_t)1)
#define get_local_size(d) ((size_t)1)
#define get_local_id(d) ((size_t)0)
#define get_global_offset(d) ((size_t)0)
/// One work-item per group: nothing to wait for.
#define barrier(flags) ((void)0)
#define mem_fence(flags) ((void)0)

#define FX_OVL static inline __attribute__((overloadable, always_inline))
FX_OVL float fabs(float x) { return __builtin_fabsf(x); }
FX_OVL float exp(float x) { return __builtin_expf(x); }
FX_OVL float exp2(float x) { return __builtin_exp2f(x); }
FX_OVL float expm1(float x) { return __builtin_expm1f(x); }
FX_OVL float log(float x) { return __builtin_logf(x); }
FX_OVL float log2(float x) { return __builtin_log2f(x); }
FX_OVL float log10(float x) { return __builtin_log10f(x); }
FX_OVL float log1p(float x) { return __builtin_log1pf(x); }
FX_OVL float sin(float x) { return __builtin_sinf(x); }
FX_OVL float cos(float x) { return __builtin_cosf(x); }
FX_OVL float tan(float x) { return __builtin_tanf(x); }
FX_OVL float asin(float x) { return __builtin_asinf(x); }
FX_OVL float acos(float x) { return __builtin_acosf(x); }
FX_OVL float atan(float x) { return __builtin_atanf(x); }
FX_OVL float sinh(float x) { return __builtin_sinhf(x); }
FX_OVL float cosh(float x) { return __builtin_coshf(x); }
FX_OVL float tanh(float x) { return __builtin_tanhf(x); }
FX_OVL float asinh(float x) { return __builtin_asinhf(x); }
FX_OVL float acosh(float x) { return __builtin_acoshf(x); }
FX_OVL float atanh(float x) { return __builtin_atanhf(x); }
FX_OVL float erf(float x) { return __builtin_erff(x); }
FX_OVL float erfc(float x) { return __builtin_erfcf(x); }
FX_OVL float sqrt(float x) { return __builtin_sqrtf(x); }
FX_OVL float cbrt(float x) { return __builtin_cbrtf(x); }
FX_OVL float floor(float x) { return __builtin_floorf(x); }
FX_OVL float ceil(float x) { return __builtin_ceilf(x); }
FX_OVL float trunc(float x) { return __builtin_truncf(x); }
FX_OVL float round(float x) { return __builtin_roundf(x); }
FX_OVL float rint(float x) { return __builtin_rintf(x); }
FX_OVL float lgamma(float x) { return __builtin_lgammaf(x); }
FX_OVL float tgamma(float x) { return __builtin_tgammaf(x); }
FX_OVL float rsqrt(float x) { return 1 / __builtin_sqrtf(x); }
FX_OVL float pow(float x, float y) { return __builtin_powf(x, y); }
FX_OVL float fmax(float x, float y) { return __builtin_fmaxf(x, y); }
FX_OVL float fmin(float x, float y) { return __builtin_fminf(x, y); }
FX_OVL float fmod(float x, float y) { return __builtin_fmodf(x, y); }
FX_OVL float atan2(float x, float y) { return __builtin_atan2f(x, y); }
FX_OVL float hypot(float x, float y) { return __builtin_hypotf(x, y); }
FX_OVL float copysign(float x, float y) { return __builtin_copysignf(x, y); }
FX_OVL float remainder(float x, float y) { return __builtin_remainderf(x, y); }
FX_OVL int isnan(float x) { return __builtin_isnan(x); }
FX_OVL int isinf(float x) { return __builtin_isinf(x); }
FX_OVL int isfinite(float x) { return __builtin_isfinite(x); }
FX_OVL int signbit(float x) { return __builtin_signbit(x); }
FX_OVL double fabs(double x) { return __builtin_fabs(x); }
FX_OVL double exp(double x) { return __builtin_exp(x); }
FX_OVL double exp2(double x) { return __builtin_exp2(x); }
FX_OVL double expm1(double x) { return __builtin_expm1(x); }
FX_OVL double log(double x) { return __builtin_log(x); }
FX_OVL double log2(double x) { return __builtin_log2(x); }
FX_OVL double log10(double x) { return __builtin_log10(x); }
FX_OVL double log1p(double x) { return __builtin_log1p(x); }
FX_OVL double sin(double x) { return __builtin_sin(x); }
FX_OVL double cos(double x) { return __builtin_cos(x); }
FX_OVL double tan(double x) { return __builtin_tan(x); }
FX_OVL double asin(double x) { return __builtin_asin(x); }
FX_OVL double acos(double x) { return __builtin_acos(x); }
FX_OVL double atan(double x) { return __builtin_atan(x); }
FX_OVL double sinh(double x) { return __builtin_sinh(x); }
FX_OVL double cosh(double x) { return __builtin_cosh(x); }
FX_OVL double tanh(double x) { return __builtin_tanh(x); }
FX_OVL double asinh(double x) { return __builtin_asinh(x); }
FX_OVL double acosh(double x) { return __builtin_acosh(x); }
FX_OVL double atanh(double x) { return __builtin_atanh(x); }
FX_OVL double erf(double x) { return __builtin_erf(x); }
FX_OVL double erfc(double x) { return __builtin_erfc(x); }
FX_OVL double sqrt(double x) { return __builtin_sqrt(x); }
FX_OVL double cbrt(double x) { return __builtin_cbrt(x); }
FX_OVL double floor(double x) { return __builtin_floor(x); }
FX_OVL double ceil(double x) { return __builtin_ceil(x); }
FX_OVL double trunc(double x) { return __builtin_trunc(x); }
FX_OVL double round(double x) { return __builtin_round(x); }
FX_OVL double rint(double x) { return __builtin_rint(x); }
FX_OVL double lgamma(double x) { return __builtin_lgamma(x); }
FX_OVL double tgamma(double x) { return __builtin_tgamma(x); }
FX_OVL double rsqrt(double x) { return 1 / __builtin_sqrt(x); }
FX_OVL double pow(double x, double y) { return __builtin_pow(x, y); }
FX_OVL double fmax(double x, double y) { return __builtin_fmax(x, y); }
FX_OVL double fmin(double x, double y) { return __builtin_fmin(x, y); }
FX_OVL double fmod(double x, double y) { return __builtin_fmod(x, y); }
FX_OVL double atan2(double x, double y) { return __builtin_atan2(x, y); }
FX_OVL double hypot(double x, double y) { return __builtin_hypot(x, y); }
FX_OVL double copysign(double x, double y) { return __builtin_copysign(x, y); }
FX_OVL double remainder(double x, double y) { return __builtin_remainder(x, y); }
FX_OVL int isnan(double x) { return __builtin_isnan(x); }
FX_OVL int isinf(double x) { return __builtin_isinf(x); }
FX_OVL int isfinite(double x) { return __builtin_isfinite(x); }
FX_OVL int signbit(double x) { return __builtin_signbit(x); }
FX_OVL char max(char a, char b) { return a > b ? a : b; }
FX_OVL char min(char a, char b) { return a < b ? a : b; }
FX_OVL uchar max(uchar a, uchar b) { return a > b ? a : b; }
FX_OVL uchar min(uchar a, uchar b) { return a < b ? a : b; }
FX_OVL short max(short a, short b) { return a > b ? a : b; }
FX_OVL short min(short a, short b) { return a < b ? a : b; }
FX_OVL ushort max(ushort a, ushort b) { return a > b ? a : b; }
FX_OVL ushort min(ushort a, ushort b) { return a < b ? a : b; }
FX_OVL int max(int a, int b) { return a > b ? a : b; }
FX_OVL int min(int a, int b) { return a < b ? a : b; }
FX_OVL uint max(uint a, uint b) { return a > b ? a : b; }
FX_OVL uint min(uint a, uint b) { return a < b ? a : b; }
FX_OVL long max(long a, long b) { return a > b ? a : b; }
FX_OVL long min(long a, long b) { return a < b ? a : b; }
FX_OVL ulong max(ulong a, ulong b) { return a > b ? a : b; }
FX_OVL ulong min(ulong a, ulong b) { return a < b ? a : b; }
FX_OVL uchar abs(char a) { return a < 0 ? -(uchar)a : (uchar)a; }
FX_OVL ushort abs(short a) { return a < 0 ? -(ushort)a : (ushort)a; }
FX_OVL uint abs(int a) { return a < 0 ? -(uint)a : (uint)a; }
FX_OVL ulong abs(long a) { return a < 0 ? -(ulong)a : (ulong)a; }

typedef union { float f; uint u; int i; } fx_bits32;
typedef union { double d; ulong u; long i; } fx_bits64;
FX_OVL float as_float(uint x) { fx_bits32 b; b.u = x; return b.f; }
FX_OVL float as_float(int x) { fx_bits32 b; b.i = x; return b.f; }
FX_OVL uint as_uint(float x) { fx_bits32 b; b.f = x; return b.u; }
FX_OVL int as_int(float x) { fx_bits32 b; b.f = x; return b.i; }
FX_OVL double as_double(ulong x) { fx_bits64 b; b.u = x; return b.d; }
FX_OVL double as_double(long x) { fx_bits64 b; b.i = x; return b.d; }
FX_OVL ulong as_ulong(double x) { fx_bits64 b; b.d = x; return b.u; }
FX_OVL long as_long(double x) { fx_bits64 b; b.d = x; return b.i; }

/// IEEE binary16 bits <-> float, exactly (vload_half) and rounding to nearest even
/// (vstore_half_rte), as OpenCL defines them without cl_khr_fp16.
static inline float fx_half_bits_to_float(ushort h) {
  uint sign = ((uint)h & 0x8000u) << 16;
  uint e = ((uint)h >> 10) & 0x1fu, m = (uint)h & 0x3ffu;
  if (e == 0) {
    float v = (float)m * 0x1p-24f;
    return sign ? -v : v;
  }
  if (e == 31)
    return as_float(sign | 0x7f800000u | (m << 13));
  return as_float(sign | ((e + 112u) << 23) | (m << 13));
}
static inline ushort fx_float_to_half_bits(float f) {
  uint x = as_uint(f);
  uint sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
  if (ax > 0x7f800000u)
    return (ushort)(sign | 0x7e00u | ((ax >> 13) & 0x3ffu));
  if (ax >= 0x477ff000u) // 65520 and above round to infinity
    return (ushort)(sign | 0x7c00u);
  if (ax < 0x38800000u)  // below 2^-14: a subnormal half (rint rounds to nearest even)
    return (ushort)(sign | (uint)__builtin_rintf(as_float(ax) * 0x1p24f));
  return (ushort)(sign | ((ax + 0xc8000fffu + ((ax >> 13) & 1u)) >> 13));
}
#define FX_HALF_IO(AS)                                                                     \
  FX_OVL float vload_half(size_t i, AS const half *p) {                                    \
    return fx_half_bits_to_float(((AS const ushort *)p)[i]);                                \
  }                                                                                        \
  FX_OVL void vstore_half_rte(float v, size_t i, AS half *p) {                             \
    ((AS ushort *)p)[i] = fx_float_to_half_bits(v);                                        \
  }                                                                                        \
  FX_OVL void vstore_half(float v, size_t i, AS half *p) {                                 \
    ((AS ushort *)p)[i] = fx_float_to_half_bits(v);                                        \
  }
FX_HALF_IO(__global)
FX_HALF_IO(__private)
FX_HALF_IO(__local)
FX_OVL float vload_half(size_t i, __constant half *p) {
  return fx_half_bits_to_float(((__constant ushort *)p)[i]);
}
)";
  return text;
}

} // namespace fxkit::llvmjit
