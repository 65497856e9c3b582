#pragma once
/// \file The tensor cores' product as OpenCL C text, for the kernels that use it (the GEMM
/// template's tensor-core tiles, attention on the tensor cores): NVIDIA's PTX instruction, and
/// its emulation on any device, so the kernels' fragment layouts are tested where there are no
/// tensor cores (PoCL in CI).

#include <string_view>

namespace fxkit::opencl {

/// Defines FX_MMA_TF32(c, a, b): c[0..3] += A * B for one m16n8k8 product with TF32 operands
/// (PTX mma.sync; NVIDIA, compute capability 8 and later). Lane (gq, tq) = (lane / 4, lane % 4)
/// holds A's rows gq and gq + 8 at depths tq and tq + 4 as a[0..3] = (gq, tq), (gq + 8, tq),
/// (gq, tq + 4), (gq + 8, tq + 4); B's column gq at depths tq and tq + 4 as b[0..1]; C's rows gq
/// and gq + 8 at columns 2tq and 2tq + 1 as c[0..3], row first. Also defines fx_mma_tf32_emulated,
/// the same product by a warp of work-items whose fragments go through local memory (`sa`, 128
/// words, and `sb`, 64, of the warp's own), between barriers: every work-item of the work-group
/// must call it together. The operands are read as the tensor cores read them, their top 19 bits.
constexpr std::string_view kTensorCoreMmaSource = R"CL(
#ifndef FX_MMA_TF32
#define FX_MMA_TF32(c, a, b)                                                                   \
  __asm__ volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, "       \
                   "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"                                    \
                   : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])                            \
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))
inline void fx_mma_tf32_emulated(float *c, const uint *a, const uint *b, const int lane,
                                 __local uint *sa, __local uint *sb) {
  for (int w = 0; w < 4; ++w)
    sa[lane * 4 + w] = a[w];
  sb[lane * 2] = b[0];
  sb[lane * 2 + 1] = b[1];
  barrier(CLK_LOCAL_MEM_FENCE);
  const int gq = lane >> 2, tq = lane & 3;
  for (int q = 0; q < 4; ++q) {
    const int row = gq + 8 * (q >> 1), col = 2 * tq + (q & 1);
    float s = c[q];
    for (int k = 0; k < 8; ++k) {
      const uint x = sa[((row & 7) * 4 + (k & 3)) * 4 + (row >> 3) + 2 * (k >> 2)];
      const uint y = sb[(col * 4 + (k & 3)) * 2 + (k >> 2)];
      s += as_float(x & 0xffffe000u) * as_float(y & 0xffffe000u);
    }
    c[q] = s;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}
#endif
)CL";

} // namespace fxkit::opencl
