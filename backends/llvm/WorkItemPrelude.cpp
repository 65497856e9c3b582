#include "backends/llvm/WorkItemPrelude.h"

#include <string_view>

namespace fxkit::llvmjit {

namespace {

/// Types, limits, bit casts and half-precision conversion: the same on every target.
constexpr std::string_view kCommon = R"(typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef __INTPTR_TYPE__ intptr_t;
typedef __UINTPTR_TYPE__ uintptr_t;
typedef float float4 __attribute__((ext_vector_type(4))); // the kernels' vector loads

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

#define FX_OVL static inline __attribute__((overloadable, always_inline))

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

/// The atomics accumulating scatters use (OpenCL 1.1's and cl_khr_int64_base_atomics').
FX_OVL uint atomic_cmpxchg(volatile __global uint *p, uint cmp, uint val) {
  return __sync_val_compare_and_swap(p, cmp, val);
}
FX_OVL int atomic_add(volatile __global int *p, int v) { return __sync_fetch_and_add(p, v); }
FX_OVL ulong atom_cmpxchg(volatile __global ulong *p, ulong cmp, ulong val) {
  return __sync_val_compare_and_swap(p, cmp, val);
}
FX_OVL long atom_add(volatile __global long *p, long v) { return __sync_fetch_and_add(p, v); }
FX_OVL int atomic_cmpxchg(volatile __global int *p, int cmp, int val) {
  return __sync_val_compare_and_swap(p, cmp, val);
}
FX_OVL long atom_cmpxchg(volatile __global long *p, long cmp, long val) {
  return __sync_val_compare_and_swap(p, cmp, val);
}

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

/// The CPU's work-item functions (see WorkItemPrelude.h).
constexpr std::string_view kHostWorkItems =
    R"(/// A work-group of one work-item that runs rows from `fx_first`, the first parameter of
/// every kernel function.
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
)";

/// NVIDIA GPUs: OpenCL's one-dimensional NDRange as CUDA's grid of blocks.
constexpr std::string_view kNvptxWorkItems =
    R"(#define get_work_dim() 1U
#define get_local_id(d) ((size_t)__nvvm_read_ptx_sreg_tid_x())
#define get_group_id(d) ((size_t)__nvvm_read_ptx_sreg_ctaid_x())
#define get_local_size(d) ((size_t)__nvvm_read_ptx_sreg_ntid_x())
#define get_num_groups(d) ((size_t)__nvvm_read_ptx_sreg_nctaid_x())
#define get_global_id(d) (get_group_id(d) * get_local_size(d) + get_local_id(d))
#define get_global_size(d) (get_num_groups(d) * get_local_size(d))
#define get_global_offset(d) ((size_t)0)
#define barrier(flags) __syncthreads()
#define mem_fence(flags) __threadfence_block()
)";

constexpr const char *kUnary[] = {
    "fabs", "exp",  "exp2",  "expm1", "log",   "log2",  "log10", "log1p",  "sin",   "cos", "tan",
    "asin", "acos", "atan",  "sinh",  "cosh",  "tanh",  "asinh", "acosh",  "atanh", "erf", "erfc",
    "sqrt", "cbrt", "floor", "ceil",  "trunc", "round", "rint",  "lgamma", "tgamma"};
constexpr const char *kBinary[] = {"pow",   "fmax",     "fmin",      "fmod",     "atan2",
                                   "hypot", "copysign", "remainder", "nextafter"};

/// OpenCL's overloaded math functions for float and double, each calling `prefix` + the C
/// name (+ "f" for float): Clang's built-ins on the CPU (LLVM intrinsics or libm), libdevice's
/// __nv_ functions on NVIDIA GPUs (declared here, linked from libdevice.10.bc).
std::string mathFunctions(bool nvptx) {
  std::string out;
  const std::string prefix = nvptx ? "__nv_" : "__builtin_";
  for (const char *T : {"float", "double"}) {
    std::string t = T, sfx = t == "float" ? "f" : "";
    auto callee = [&](const char *name) { return prefix + name + sfx; };
    for (const char *f : kUnary) {
      if (nvptx)
        out += t + " " + callee(f) + "(" + t + ");\n";
      out += "FX_OVL " + t + " " + f + "(" + t + " x) { return " + callee(f) + "(x); }\n";
    }
    for (const char *f : kBinary) {
      if (nvptx)
        out += t + " " + callee(f) + "(" + t + ", " + t + ");\n";
      out += "FX_OVL " + t + " " + f + "(" + t + " x, " + t + " y) { return " + callee(f) +
             "(x, y); }\n";
    }
    // fma(x, y, z): x*y + z rounded once (prims.fma).
    if (nvptx)
      out += t + " " + callee("fma") + "(" + t + ", " + t + ", " + t + ");\n";
    out += "FX_OVL " + t + " fma(" + t + " x, " + t + " y, " + t + " z) { return " + callee("fma") +
           "(x, y, z); }\n";
    out += "FX_OVL " + t + " rsqrt(" + t + " x) { return 1 / " + callee("sqrt") + "(x); }\n";
    // OpenCL's sign: +-1, a zero keeps its sign, NaN gives 0.
    out +=
        "FX_OVL " + t + " sign(" + t + " x) { return x > 0 ? 1 : x < 0 ? -1 : x == 0 ? x : 0; }\n";
    for (const char *f : {"isnan", "isinf", "isfinite", "signbit"})
      out += std::string("FX_OVL int ") + f + "(" + t + " x) { return __builtin_" + f + "(x); }\n";
  }
  for (const char *T : {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong"}) {
    std::string t = T;
    out += "FX_OVL " + t + " max(" + t + " a, " + t + " b) { return a > b ? a : b; }\n";
    out += "FX_OVL " + t + " min(" + t + " a, " + t + " b) { return a < b ? a : b; }\n";
  }
  for (const char *T : {"char", "short", "int", "long"}) {
    std::string t = T;
    out +=
        "FX_OVL u" + t + " abs(" + t + " a) { return a < 0 ? -(u" + t + ")a : (u" + t + ")a; }\n";
  }
  return out;
}

} // namespace

const std::string &workItemPrelude() {
  static const std::string text =
      "// fxkit LLVM backend: the OpenCL C environment of the host CPU.\n" + std::string(kCommon) +
      std::string(kHostWorkItems) + mathFunctions(false);
  return text;
}

const std::string &nvptxPrelude() {
  static const std::string text =
      "// fxkit LLVM backend: the OpenCL C environment of NVIDIA GPUs.\n" + std::string(kCommon) +
      std::string(kNvptxWorkItems) + mathFunctions(true);
  return text;
}

} // namespace fxkit::llvmjit
