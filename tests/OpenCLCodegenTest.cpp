/// OpenCL C generation from fused loop programs: the softmax kernel in full (golden), how
/// reduction kernels split their loops over reduced points and recompute internal values,
/// flat (reshaped) pointwise ops, masked loads, and that every kernel of every corpus graph
/// has a form. Whether the code computes the right numbers is OpenCLRuntimeTest's business.

#include "CompileTestSupport.h"
#include "CorpusTestSupport.h"
#include "backends/opencl/codegen/OpenCLKernelGen.h"
#include "importers/FxTextParser.h"
#include "importers/Import.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

using namespace fxkit;
using namespace fxkit::loop;
using fxkit::testing::corpusGraphs;

namespace {

/// A compiled graph and the OpenCL C of its kernels.
struct Generated : fxkit::testing::Compiled {
  opencl::GeneratedProgram code;
};

/// Generates the OpenCL C of `out`, compiled (compile) as every backend compiles.
::testing::AssertionResult generateCode(Generated &out) {
  auto code = opencl::generateOpenCL(out.program, out.fused);
  if (!code)
    return ::testing::AssertionFailure() << code.error().str();
  out.code = code.take();
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult generate(Graph graph, Generated &out) {
  auto compiled = fxkit::testing::compile(std::move(graph), out);
  return compiled ? generateCode(out) : compiled;
}

::testing::AssertionResult generate(std::string_view text, Generated &out) {
  auto compiled = fxkit::testing::compile(text, out);
  return compiled ? generateCode(out) : compiled;
}

size_t count(const std::string &s, const std::string &what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1))
    ++n;
  return n;
}

TEST(OpenCLCodegen, SoftmaxKernel) {
  Generated g;
  ASSERT_TRUE(generate(R"(graph():
    %x : Tensor "f32[8, 16][16, 1]cpu"[num_users=2] = placeholder[target=x]
    %amax : [num_users=1] = call_function[target=torch.ops.aten.amax.default](args = (%x, [1], True), kwargs = {})
    %sub : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x, %amax), kwargs = {})
    %exp : [num_users=2] = call_function[target=torch.ops.aten.exp.default](args = (%sub,), kwargs = {})
    %sum_1 : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%exp, [1], True), kwargs = {})
    %div : [num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%exp, %sum_1), kwargs = {})
    return (div,)
)",
                       g));
  ASSERT_EQ(g.code.launches.size(), 1u);
  const opencl::GeneratedKernel &k = g.code.launches[0];
  EXPECT_TRUE(k.isReduction);
  EXPECT_EQ(k.xnumel.str(), "8");
  EXPECT_EQ(k.rnumel.str(), "16");
  EXPECT_EQ(k.source, R"(// fused_amax_sum_sub_exp_0: 2 ops over [8] x [16]
__kernel void fused_amax_sum_sub_exp_0(__global const uchar *in_ptr0_base,
    const ulong in_ptr0_offset,
    __global uchar *out_ptr0_base,
    const ulong out_ptr0_offset,
    const long xnumel,
    const long rnumel_arg,
    const int fx_L_arg,
    const int fx_W_arg,
    __local double *fx_scratch) {
  __global const float *in_ptr0 = (__global const float *)(in_ptr0_base + in_ptr0_offset);
  __global float *out_ptr0 = (__global float *)(out_ptr0_base + out_ptr0_offset);
#ifdef FX_LAUNCH_L
  // Built for one launch (LaunchConstants.h): sizes the compiler folds.
  const long rnumel = FX_LAUNCH_R;
  const int fx_L = FX_LAUNCH_L, fx_W = FX_LAUNCH_W;
#else
  const long rnumel = rnumel_arg;
  const int fx_L = fx_L_arg, fx_W = fx_W_arg;
#endif
  const int lid = get_local_id(0);
  // Cascade summation (ATen's cascade_sum): fx_cb points per lane in a block, fx_cb
  // blocks in a group, at least 256, at least a lane's points' cube root.
  long fx_cb = 256;
  while (fx_cb * fx_cb * fx_cb < (rnumel + fx_L - 1) / fx_L)
    fx_cb <<= 1;
  const long fx_cbl = fx_cb * fx_L, fx_cgl = fx_cb * fx_cb * fx_L;
  const fx_index_t fx_cbs = (fx_index_t)(rnumel < fx_cbl ? rnumel : fx_cbl);
  const fx_index_t fx_cgs = (fx_index_t)(rnumel < fx_cgl ? rnumel : fx_cgl);
  const int lane = lid & (fx_L - 1);
  const int slot = lid / fx_L;
  // Persistent form: each lane holds up to 8 of its row's points in registers.
  const bool fx_persistent = rnumel <= 8 * (long)fx_L;
  for (fx_index_t xbase = (fx_index_t)get_group_id(0) * fx_W; xbase < xnumel;
       xbase += (fx_index_t)get_num_groups(0) * fx_W) {
    // Rows past the end compute row xnumel - 1 again and store nothing.
    const bool xmask = xbase + slot < xnumel;
    const fx_index_t xindex = xmask ? xbase + slot : xnumel - 1;
    const fx_index_t x0 = xindex;
    float fx_row0[8]; // in_ptr0[r0 + 16*x0]
    // Vector form: 4 consecutive points per lane, loaded and stored as float4, when each
    // access's first point in this row is 16-byte aligned.
    const bool fx_vec = (rnumel & 3) == 0 &&
        fx_aligned16(in_ptr0 + (16*x0)) &&
        fx_aligned16(out_ptr0 + (16*x0));
    float acc0_max = -INFINITY, acc0_sum = 0;
    if (fx_persistent && fx_vec) {
      float acc0_b_max = -INFINITY, acc0_b_sum = 0;
      float fx_pu0[8];
      float4 fx_pv0[2]; // in_ptr0[r0 + 16*x0]
      #pragma unroll
      for (int fx_j = 0; fx_j < 2; ++fx_j) {
        const fx_index_t fx_rb = ((fx_index_t)fx_j * fx_L + lane) * 4;
        if (fx_rb < rnumel) {
          fx_pv0[fx_j] = *(__global const float4 *)(in_ptr0 + (16*x0) + fx_rb);
        }
      }
      #pragma unroll
      for (int fx_k = 0; fx_k < 8; ++fx_k) {
        const fx_index_t fx_rb = ((fx_index_t)(fx_k >> 2) * fx_L + lane) * 4;
        const fx_index_t rindex = fx_rb + (fx_k & 3);
        if (rindex < rnumel) {
          const fx_index_t r0 = rindex;
          // amax sum
          const float tmp0 = (fx_row0[fx_k] = fx_f4at(fx_pv0[fx_k >> 2], fx_k & 3));
          fx_pu0[fx_k] = tmp0;
        }
      }
      {
        float fx_pm = -INFINITY, fx_ps = 0;
        #pragma unroll
        for (int fx_k = 0; fx_k < 8; ++fx_k)
          if (((fx_index_t)((fx_k) >> 2) * fx_L + lane) * 4 + ((fx_k) & 3) < rnumel)
            fx_pm = fx_maximum_f(fx_pm, fx_pu0[fx_k]);
        #pragma unroll
        for (int fx_k = 0; fx_k < 8; ++fx_k)
          if (((fx_index_t)((fx_k) >> 2) * fx_L + lane) * 4 + ((fx_k) & 3) < rnumel)
            fx_ps = fx_ps + (fx_pu0[fx_k] == fx_pm ? 1 : fx_exp_f(fx_pu0[fx_k] - fx_pm));
        acc0_b_max = fx_pm;
        acc0_b_sum = isnan(fx_pm) ? fx_pm : fx_ps;
      }
      {
        const float fx_mm = fx_maximum_f(acc0_max, acc0_b_max);
        acc0_sum = (acc0_max == fx_mm ? acc0_sum : acc0_sum * fx_exp_f(acc0_max - fx_mm)) + (acc0_b_max == fx_mm ? acc0_b_sum : acc0_b_sum * fx_exp_f(acc0_b_max - fx_mm));
        acc0_max = fx_mm;
      }
    } else if (fx_vec) {
      // Cascade summation: blocks of fx_cb points per lane, groups of fx_cb blocks.
      for (fx_index_t fx_cg = (fx_index_t)lane * 4, fx_cge; fx_cg < rnumel; fx_cg = fx_cge) {
        fx_cge = rnumel - fx_cg > fx_cgs ? fx_cg + fx_cgs : rnumel;
        float acc0_g_max = -INFINITY, acc0_g_sum = 0;
        for (fx_index_t fx_cb0 = fx_cg, fx_cbe; fx_cb0 < fx_cge; fx_cb0 = fx_cbe) {
          fx_cbe = fx_cge - fx_cb0 > fx_cbs ? fx_cb0 + fx_cbs : fx_cge;
          float acc0_b_max = -INFINITY, acc0_b_sum = 0;
          for (fx_index_t rbase = fx_cb0; rbase < fx_cbe; rbase += (fx_index_t)fx_L * 4) {
            const float4 fx_vl0 = *(__global const float4 *)(in_ptr0 + (16*x0) + rbase); // in_ptr0[r0 + 16*x0]
            float fx_w0_0, fx_w0_1, fx_w0_2, fx_w0_3;
            {
              const fx_index_t rindex = rbase + 0;
              const fx_index_t r0 = rindex;
              // amax sum
              const float tmp0 = fx_vl0.s0;
              fx_w0_0 = tmp0;
            }
            {
              const fx_index_t rindex = rbase + 1;
              const fx_index_t r0 = rindex;
              // amax sum
              const float tmp0 = fx_vl0.s1;
              fx_w0_1 = tmp0;
            }
            {
              const fx_index_t rindex = rbase + 2;
              const fx_index_t r0 = rindex;
              // amax sum
              const float tmp0 = fx_vl0.s2;
              fx_w0_2 = tmp0;
            }
            {
              const fx_index_t rindex = rbase + 3;
              const fx_index_t r0 = rindex;
              // amax sum
              const float tmp0 = fx_vl0.s3;
              fx_w0_3 = tmp0;
            }
            {
              // The 4 points at once: one rescale for their maximum.
              const float fx_bm = fx_maximum_f(fx_maximum_f(fx_w0_0, fx_w0_1), fx_maximum_f(fx_w0_2, fx_w0_3));
              if (isnan(fx_bm)) {
                acc0_b_max = fx_bm;
                acc0_b_sum = fx_bm;
              } else if (fx_bm > acc0_b_max) {
                acc0_b_sum = acc0_b_sum * fx_exp_f(acc0_b_max - fx_bm);
                acc0_b_max = fx_bm;
              }
              acc0_b_sum = acc0_b_sum + (fx_w0_0 == acc0_b_max ? 1 : fx_exp_f(fx_w0_0 - acc0_b_max)) + (fx_w0_1 == acc0_b_max ? 1 : fx_exp_f(fx_w0_1 - acc0_b_max)) + (fx_w0_2 == acc0_b_max ? 1 : fx_exp_f(fx_w0_2 - acc0_b_max)) + (fx_w0_3 == acc0_b_max ? 1 : fx_exp_f(fx_w0_3 - acc0_b_max));
            }
          }
          {
            const float fx_mm = fx_maximum_f(acc0_g_max, acc0_b_max);
            acc0_g_sum = (acc0_g_max == fx_mm ? acc0_g_sum : acc0_g_sum * fx_exp_f(acc0_g_max - fx_mm)) + (acc0_b_max == fx_mm ? acc0_b_sum : acc0_b_sum * fx_exp_f(acc0_b_max - fx_mm));
            acc0_g_max = fx_mm;
          }
        }
        {
          const float fx_mm = fx_maximum_f(acc0_max, acc0_g_max);
          acc0_sum = (acc0_max == fx_mm ? acc0_sum : acc0_sum * fx_exp_f(acc0_max - fx_mm)) + (acc0_g_max == fx_mm ? acc0_g_sum : acc0_g_sum * fx_exp_f(acc0_g_max - fx_mm));
          acc0_max = fx_mm;
        }
      }
    } else {
      // Cascade summation: blocks of fx_cb points per lane, groups of fx_cb blocks.
      for (fx_index_t fx_cg = lane, fx_cge; fx_cg < rnumel; fx_cg = fx_cge) {
        fx_cge = rnumel - fx_cg > fx_cgs ? fx_cg + fx_cgs : rnumel;
        float acc0_g_max = -INFINITY, acc0_g_sum = 0;
        for (fx_index_t fx_cb0 = fx_cg, fx_cbe; fx_cb0 < fx_cge; fx_cb0 = fx_cbe) {
          fx_cbe = fx_cge - fx_cb0 > fx_cbs ? fx_cb0 + fx_cbs : fx_cge;
          float acc0_b_max = -INFINITY, acc0_b_sum = 0;
          for (fx_index_t rindex = fx_cb0; rindex < fx_cbe; rindex += fx_L) {
            const fx_index_t r0 = rindex;
            // amax sum
            const float tmp0 = in_ptr0[r0 + 16*x0];
            {
              const float fx_v = tmp0;
              if (isnan(fx_v)) {
                acc0_b_max = fx_v;
                acc0_b_sum = fx_v;
              } else if (fx_v > acc0_b_max) {
                acc0_b_sum = acc0_b_sum * fx_exp_f(acc0_b_max - fx_v) + 1;
                acc0_b_max = fx_v;
              } else {
                acc0_b_sum = acc0_b_sum + (fx_v == acc0_b_max ? 1 : fx_exp_f(fx_v - acc0_b_max));
              }
            }
          }
          {
            const float fx_mm = fx_maximum_f(acc0_g_max, acc0_b_max);
            acc0_g_sum = (acc0_g_max == fx_mm ? acc0_g_sum : acc0_g_sum * fx_exp_f(acc0_g_max - fx_mm)) + (acc0_b_max == fx_mm ? acc0_b_sum : acc0_b_sum * fx_exp_f(acc0_b_max - fx_mm));
            acc0_g_max = fx_mm;
          }
        }
        {
          const float fx_mm = fx_maximum_f(acc0_max, acc0_g_max);
          acc0_sum = (acc0_max == fx_mm ? acc0_sum : acc0_sum * fx_exp_f(acc0_max - fx_mm)) + (acc0_g_max == fx_mm ? acc0_g_sum : acc0_g_sum * fx_exp_f(acc0_g_max - fx_mm));
          acc0_max = fx_mm;
        }
      }
    }
    if (fx_L > 1) {
      __local float *fx_s0 = (__local float *)fx_scratch;
      const float fx_lm = acc0_max;
#ifdef FX_WARP_SHUFFLE
      if (((fx_L * fx_W) & 31) == 0) {
        for (int fx_d = (fx_L < 32 ? fx_L : 32) >> 1; fx_d > 0; fx_d >>= 1)
          acc0_max = fx_maximum_f(acc0_max, fx_shfl_xor_f(acc0_max, fx_d));
        if (fx_L > 32) {
          if ((lid & 31) == 0)
            fx_s0[lid >> 5] = acc0_max;
          barrier(CLK_LOCAL_MEM_FENCE);
          const int fx_nw = fx_L >> 5;
          acc0_max = fx_s0[((lid - lane) >> 5) + (lid & (fx_nw - 1))];
          for (int fx_d = fx_nw >> 1; fx_d > 0; fx_d >>= 1)
            acc0_max = fx_maximum_f(acc0_max, fx_shfl_xor_f(acc0_max, fx_d));
          barrier(CLK_LOCAL_MEM_FENCE);
        }
      } else
#endif
      {
        fx_s0[lid] = acc0_max;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int fx_step = fx_L >> 1; fx_step > 0; fx_step >>= 1) {
          if (lane < fx_step)
            fx_s0[lid] = fx_maximum_f(fx_s0[lid], fx_s0[lid + fx_step]);
          barrier(CLK_LOCAL_MEM_FENCE);
        }
        acc0_max = fx_s0[lid - lane];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      acc0_sum = fx_lm == acc0_max ? acc0_sum : acc0_sum * fx_exp_f(fx_lm - acc0_max);
#ifdef FX_WARP_SHUFFLE
      if (((fx_L * fx_W) & 31) == 0) {
        for (int fx_d = (fx_L < 32 ? fx_L : 32) >> 1; fx_d > 0; fx_d >>= 1)
          acc0_sum = acc0_sum + fx_shfl_xor_f(acc0_sum, fx_d);
        if (fx_L > 32) {
          if ((lid & 31) == 0)
            fx_s0[lid >> 5] = acc0_sum;
          barrier(CLK_LOCAL_MEM_FENCE);
          const int fx_nw = fx_L >> 5;
          acc0_sum = fx_s0[((lid - lane) >> 5) + (lid & (fx_nw - 1))];
          for (int fx_d = fx_nw >> 1; fx_d > 0; fx_d >>= 1)
            acc0_sum = acc0_sum + fx_shfl_xor_f(acc0_sum, fx_d);
          barrier(CLK_LOCAL_MEM_FENCE);
        }
      } else
#endif
      {
        fx_s0[lid] = acc0_sum;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int fx_step = fx_L >> 1; fx_step > 0; fx_step >>= 1) {
          if (lane < fx_step)
            fx_s0[lid] = fx_s0[lid] + fx_s0[lid + fx_step];
          barrier(CLK_LOCAL_MEM_FENCE);
        }
        acc0_sum = fx_s0[lid - lane];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
    }
    const float tmp1 = acc0_max;
    const float tmp2 = isinf(acc0_max) ? (float)NAN : acc0_sum;
    if (fx_persistent && fx_vec) {
      float4 fx_ps0 = 0;
      #pragma unroll
      for (int fx_k = 0; fx_k < 8; ++fx_k) {
        const fx_index_t fx_rb = ((fx_index_t)(fx_k >> 2) * fx_L + lane) * 4;
        const fx_index_t rindex = fx_rb + (fx_k & 3);
        if (rindex < rnumel) {
          const fx_index_t r0 = rindex;
          // sub exp div
          const float tmp3 = fx_row0[fx_k];
          const float tmp4 = tmp3 - tmp1;
          const float tmp5 = fx_exp_f(tmp4);
          const float tmp6 = tmp5 / tmp2;
          fx_ps0 = fx_f4with(fx_ps0, fx_k & 3, (float)(tmp6)); if ((fx_k & 3) == 3 && xmask) *(__global float4 *)(out_ptr0 + (16*x0) + fx_rb) = fx_ps0;
        }
      }
    } else if (fx_vec) {
      for (fx_index_t rbase = (fx_index_t)lane * 4; rbase < rnumel; rbase += (fx_index_t)fx_L * 4) {
        const float4 fx_vl1 = *(__global const float4 *)(in_ptr0 + (16*x0) + rbase); // in_ptr0[r0 + 16*x0]
        float4 fx_vs0;
        {
          const fx_index_t rindex = rbase + 0;
          const fx_index_t r0 = rindex;
          // sub exp div
          const float tmp3 = fx_vl1.s0;
          const float tmp4 = tmp3 - tmp1;
          const float tmp5 = fx_exp_f(tmp4);
          const float tmp6 = tmp5 / tmp2;
          fx_vs0.s0 = (float)(tmp6);
        }
        {
          const fx_index_t rindex = rbase + 1;
          const fx_index_t r0 = rindex;
          // sub exp div
          const float tmp3 = fx_vl1.s1;
          const float tmp4 = tmp3 - tmp1;
          const float tmp5 = fx_exp_f(tmp4);
          const float tmp6 = tmp5 / tmp2;
          fx_vs0.s1 = (float)(tmp6);
        }
        {
          const fx_index_t rindex = rbase + 2;
          const fx_index_t r0 = rindex;
          // sub exp div
          const float tmp3 = fx_vl1.s2;
          const float tmp4 = tmp3 - tmp1;
          const float tmp5 = fx_exp_f(tmp4);
          const float tmp6 = tmp5 / tmp2;
          fx_vs0.s2 = (float)(tmp6);
        }
        {
          const fx_index_t rindex = rbase + 3;
          const fx_index_t r0 = rindex;
          // sub exp div
          const float tmp3 = fx_vl1.s3;
          const float tmp4 = tmp3 - tmp1;
          const float tmp5 = fx_exp_f(tmp4);
          const float tmp6 = tmp5 / tmp2;
          fx_vs0.s3 = (float)(tmp6);
        }
        if (xmask) *(__global float4 *)(out_ptr0 + (16*x0) + rbase) = fx_vs0;
      }
    } else {
      for (fx_index_t rindex = lane; rindex < rnumel; rindex += fx_L) {
        const fx_index_t r0 = rindex;
        // sub exp div
        const float tmp3 = in_ptr0[r0 + 16*x0];
        const float tmp4 = tmp3 - tmp1;
        const float tmp5 = fx_exp_f(tmp4);
        const float tmp6 = tmp5 / tmp2;
        if (xmask) out_ptr0[r0 + 16*x0] = (float)(tmp6);
      }
    }
  }
}
)");
}

TEST(OpenCLCodegen, LanesCombineThroughWarpShufflesWhereTheDeviceHasThem) {
  // Per graph: whether its lanes may combine through warp shuffles (FX_WARP_SHUFFLE, defined on
  // NVIDIA GPUs), and a line of the combine. float and int states of rows whose lanes are
  // consecutive work-items do; a column sum's lanes (rows fastest) and double states take the
  // local-memory tree only. Softmax combines in two plain reductions: the row's maximum, then the
  // lanes' sums rescaled to it.
  struct Case {
    std::string type; ///< x's type
    std::string call; ///< the reduction: target and arguments
    bool shuffles;
    std::string line;
  };
  for (const Case &c : {
           Case{"f32[8, 64][64, 1]", "sum.dim_IntList](args = (%x, [1])", true,
                "acc0 = acc0 + fx_shfl_xor_f(acc0, fx_d);"},
           Case{"f32[8, 64][64, 1]", "amax.default](args = (%x, [1])", true,
                "acc0 = fx_maximum_f(acc0, fx_shfl_xor_f(acc0, fx_d));"},
           Case{"i32[8, 64][64, 1]", "amax.default](args = (%x, [1])", true,
                "acc0 = max(acc0, fx_shfl_xor_i(acc0, fx_d));"},
           Case{"f64[8, 64][64, 1]", "sum.dim_IntList](args = (%x, [1])", false,
                "fx_s0[lid] = fx_s0[lid] + fx_s0[lid + fx_step];"},
           Case{"f32[64, 8][8, 1]", "sum.dim_IntList](args = (%x, [0])", false,
                "fx_s0[lid] = fx_s0[lid] + fx_s0[lid + fx_step * fx_W];"},
           Case{"f32[8, 64][64, 1]", "_softmax.default](args = (%x, 1, False)", true,
                "acc0_sum = fx_lm == acc0_max ? acc0_sum : acc0_sum * fx_exp_f(fx_lm - acc0_max);"},
       }) {
    SCOPED_TRACE(c.type + " " + c.call);
    Generated g;
    ASSERT_TRUE(generate(R"(graph():
    %x : Tensor ")" + c.type +
                             R"(cpu"[num_users=1] = placeholder[target=x]
    %r : [num_users=1] = call_function[target=torch.ops.aten.)" +
                             c.call + R"(, kwargs = {})
    return (r,)
)",
                         g));
    ASSERT_FALSE(g.code.launches.empty());
    const std::string &source = g.code.launches.back().source;
    EXPECT_EQ(source.find("#ifdef FX_WARP_SHUFFLE") != std::string::npos, c.shuffles) << source;
    EXPECT_NE(source.find(c.line), std::string::npos) << source;
  }
}

TEST(OpenCLCodegen, PersistentFormOnlyForRowsUpTo2048Points) {
  // Both forms share one kernel, so the persistent one's registers are paid even where the
  // looped one runs: it is generated only where rows fit 256 lanes x 8 points. With float4
  // accesses it holds whole float4s, two of them (the blocked layout), at any row length.
  for (auto [points, persistent] : {std::pair{1000, 8}, {2048, 8}, {2049, 0}, {8192, 0}}) {
    SCOPED_TRACE(points);
    std::string n = std::to_string(points);
    std::string text = R"(graph():
    %x : Tensor "f32[4, )" +
                       n + "][" + n + R"(, 1]cpu"[num_users=2] = placeholder[target=x]
    %amax : [num_users=1] = call_function[target=torch.ops.aten.amax.default](args = (%x, [1], True), kwargs = {})
    %sub : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x, %amax), kwargs = {})
    return (sub,)
)";
    Generated g;
    ASSERT_TRUE(generate(text, g));
    ASSERT_EQ(g.code.launches.size(), 1u);
    const opencl::GeneratedKernel &k = g.code.launches[0];
    EXPECT_EQ(k.persistentPoints, persistent);
    EXPECT_EQ(k.source.find("fx_persistent") != std::string::npos, persistent > 0);
  }
}

TEST(OpenCLCodegen, VectorFormForUnitStrideFloat32AccessesRowsFastestForColumns) {
  auto kernelOf = [](const std::string &type, const std::string &dims) {
    std::string text = R"(graph():
    %x : Tensor ")" + type +
                       R"("[num_users=1] = placeholder[target=x]
    %s : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%x, )" +
                       dims + R"(), kwargs = {})
    return (s,)
)";
    Generated g;
    EXPECT_TRUE(generate(text, g));
    return g.code.launches.at(0);
  };
  // Rows of float32: each lane loads 4 consecutive points as one float4 where aligned.
  opencl::GeneratedKernel rows = kernelOf("f32[8, 4096][4096, 1]cpu", "[1]");
  EXPECT_EQ(rows.vectorWidth, 4);
  EXPECT_NE(rows.source.find("const bool fx_vec = (rnumel & 3) == 0 &&\n"
                             "        fx_aligned16(in_ptr0 + (4096*x0));"),
            std::string::npos);
  EXPECT_NE(rows.source.find("const float4 fx_vl0 = *(__global const float4 *)(in_ptr0 + "
                             "(4096*x0) + rbase);"),
            std::string::npos);
  EXPECT_NE(rows.source.find("const float tmp0 = fx_vl0.s3;"), std::string::npos);
  EXPECT_FALSE(rows.rowsFastest);
  // Columns: consecutive reduced points are a row apart, no vector; float16 rows and a
  // reduction over two dimensions neither.
  for (auto [type, dims] : {std::pair{"f32[4096, 8][8, 1]cpu", "[0]"},
                            {"f16[8, 4096][4096, 1]cpu", "[1]"},
                            {"f32[8, 64, 64][4096, 64, 1]cpu", "[1, 2]"}}) {
    SCOPED_TRACE(std::string(type) + " over " + dims);
    opencl::GeneratedKernel k = kernelOf(type, dims);
    EXPECT_EQ(k.vectorWidth, 0);
    EXPECT_EQ(k.source.find("fx_vec"), std::string::npos);
  }
  // The column sum takes rows fastest: neighbouring work-items read neighbouring points.
  opencl::GeneratedKernel columns = kernelOf("f32[4096, 8][8, 1]cpu", "[0]");
  EXPECT_TRUE(columns.rowsFastest);
  EXPECT_NE(columns.source.find("  const int lane = lid / fx_W;\n  const int slot = lid % fx_W;\n"),
            std::string::npos);
  EXPECT_NE(columns.source.find("fx_s0[lid] = fx_s0[lid] + fx_s0[lid + fx_step * fx_W];"),
            std::string::npos);
  EXPECT_NE(columns.source.find("acc0 = fx_s0[slot];"), std::string::npos);
}

TEST(OpenCLCodegen, SymbolicSizesBecomeKernelArguments) {
  Generated g;
  ASSERT_TRUE(generate(R"(graph():
    %x : Tensor "f32[s0, 6][6, 1]cpu"[num_users=1] = placeholder[target=x]
    %y : Tensor "f32[s0, 2, 3][6, 3, 1]cpu"[num_users=1] = placeholder[target=y]
    %v : [num_users=1] = call_function[target=torch.ops.aten.view.default](args = (%x, [-1, 2, 3]), kwargs = {})
    %a : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%v, %y), kwargs = {})
    return (a,)
)",
                       g));
  ASSERT_EQ(g.code.launches.size(), 1u);
  const opencl::GeneratedKernel &k = g.code.launches[0];
  EXPECT_FALSE(k.isReduction);
  EXPECT_EQ(k.xnumel.str(), "6*s0");
  std::vector<std::string> params;
  for (const opencl::KernelParam &p : k.params)
    params.push_back(p.name);
  EXPECT_EQ(params, (std::vector<std::string>{"in_ptr0", "in_ptr1", "out_ptr0", "s0", "xnumel"}));
  EXPECT_NE(k.source.find("for (fx_index_t xindex = get_global_id(0); xindex < xnumel;"),
            std::string::npos);
  EXPECT_EQ(count(k.source, "out_ptr0["), 1u) << k.source;
}

// Size expressions of dynamic-shape graphs as PyTorch writes them: an integer quotient rounded
// (`32*CeilToInt(IntTrueDiv(s27, 32))`, `math.floor(a / b)`) is integer division, never a
// float; a float expression has no integer form.
TEST(OpenCLCodegen, RoundedIntegerQuotientsPrintAsIntegerDivision) {
  auto c = [](std::string_view text) {
    auto e = SymExpr::parse(text);
    EXPECT_TRUE(e) << text;
    auto s = opencl::printCIntExpr(*e);
    return s ? *s : "error: " + s.error().message;
  };
  EXPECT_EQ(c("32*CeilToInt(IntTrueDiv(s27, 32))"), "32*fx_ceildiv(s27, 32)");
  EXPECT_EQ(c("Max(1, 32*CeilToInt(IntTrueDiv(s27, 32)))"),
            "max((fx_index_t)(1), (fx_index_t)(32*fx_ceildiv(s27, 32)))");
  EXPECT_EQ(c("math.floor(s0/(s1 + 1))"), "fx_floordiv(s0, s1 + 1)");
  EXPECT_EQ(c("TruncToInt(IntTrueDiv(-s0, 2))"), "fx_truncdiv(-s0, 2)");
  EXPECT_EQ(c("Identity(CleanDiv(s0, 4))"), "fx_floordiv(s0, 4)");
  EXPECT_EQ(c("CeilToInt(ToFloat(s0)/2)").substr(0, 6), "error:");
}

TEST(OpenCLCodegen, EveryCorpusKernelHasAnOpenCLForm) {
  size_t graphs = 0, kernels = 0;
  for (const std::string part : {"reference", "inductor"})
    for (const auto &path : corpusGraphs(part)) {
      std::string name = path.filename().string();
      if (part == "inductor" && !name.starts_with("aten_post"))
        continue; // the ATen graphs Inductor compiled; the others repeat them before decomposition
      SCOPED_TRACE(path.string());
      auto graph = importGraphFile(path.string(), GraphFormat::FxText, true);
      ASSERT_TRUE(graph) << graph.error().str();
      Generated g;
      ASSERT_TRUE(generate(graph.take(), g));
      ++graphs;
      for (size_t i = 0; i < g.fused.kernels.size(); ++i) {
        const opencl::GeneratedKernel &k = g.code.launches[i];
        if (g.fused.kernels[i].isExtern) {
          EXPECT_TRUE(k.name.empty());
          continue;
        }
        ++kernels;
        EXPECT_NE(k.source.find("__kernel void " + k.name + "("), std::string::npos);
        // Every kernel writes something.
        EXPECT_NE(k.source.find("out_ptr0"), std::string::npos) << k.source;
      }
      EXPECT_NE(g.code.source().find("typedef FX_INDEX_T fx_index_t;"), std::string::npos);
    }
  EXPECT_GE(graphs, 20u);
  EXPECT_GE(kernels, 40u);
}

/// Kernels that print the same code are printed once and bound to their own buffers: on every
/// Inductor ATen graph of the corpus and the zoo (where present) the launches are field for
/// field what printing each kernel gives, and the repeated blocks of real models did share.
TEST(OpenCLCodegen, SharedKernelsAreWhatPrintingEachGives) {
  std::vector<std::filesystem::path> graphs = corpusGraphs("reference");
  for (const auto &path : corpusGraphs("inductor", "aten_p"))
    graphs.push_back(path);
  const std::filesystem::path zoo =
      std::filesystem::path(FXKIT_TEST_DATA) / ".." / ".." / ".." / "shared" / "zoo" / "inductor";
  size_t zooGraphs = 0;
  if (std::filesystem::is_directory(zoo))
    for (const auto &e : std::filesystem::recursive_directory_iterator(zoo)) {
      std::string name = e.path().filename().string();
      if (e.is_regular_file() && name.starts_with("aten_p") && name.ends_with(".graph.txt")) {
        graphs.push_back(e.path());
        ++zooGraphs;
      }
    }
  size_t checked = 0, launches = 0, shared = 0;
  for (const auto &path : graphs) {
    SCOPED_TRACE(path.string());
    auto graph = importGraphFile(path.string(), GraphFormat::FxText, true);
    ASSERT_TRUE(graph) << graph.error().str();
    fxkit::testing::Compiled c;
    auto compiled = fxkit::testing::compile(graph.take(), c);
    if (!compiled)
      continue; // graphs the compiler refuses are EveryCorpusKernelHasAnOpenCLForm's business
    auto each = opencl::generateOpenCL(c.program, c.fused, {.shareEqualKernels = false});
    auto once = opencl::generateOpenCL(c.program, c.fused);
    ASSERT_EQ(bool(each), bool(once));
    if (!each)
      continue;
    ++checked;
    ASSERT_EQ(each->launches.size(), once->launches.size());
    std::set<std::string> names;
    for (size_t i = 0; i < each->launches.size(); ++i) {
      const opencl::GeneratedKernel &a = each->launches[i], &b = once->launches[i];
      SCOPED_TRACE(a.name);
      EXPECT_EQ(a.name, b.name);
      EXPECT_EQ(a.source, b.source);
      EXPECT_EQ(a.isReduction, b.isReduction);
      EXPECT_EQ(a.usesDouble, b.usesDouble);
      EXPECT_EQ(a.scratchBytesPerItem, b.scratchBytesPerItem);
      EXPECT_EQ(a.persistentPoints, b.persistentPoints);
      EXPECT_EQ(a.vectorWidth, b.vectorWidth);
      EXPECT_EQ(a.rowsFastest, b.rowsFastest);
      EXPECT_EQ(a.prefersRowsFastest, b.prefersRowsFastest);
      EXPECT_EQ(a.xnumel.str(), b.xnumel.str());
      EXPECT_EQ(a.rnumel.str(), b.rnumel.str());
      ASSERT_EQ(a.extents.size(), b.extents.size());
      for (size_t j = 0; j < a.extents.size(); ++j)
        EXPECT_EQ(a.extents[j].str(), b.extents[j].str());
      ASSERT_EQ(a.params.size(), b.params.size());
      for (size_t j = 0; j < a.params.size(); ++j) {
        EXPECT_EQ(a.params[j].kind, b.params[j].kind);
        EXPECT_EQ(a.params[j].name, b.params[j].name);
        EXPECT_EQ(a.params[j].buffer, b.params[j].buffer);
        EXPECT_EQ(a.params[j].written, b.params[j].written);
        EXPECT_EQ(a.params[j].value.str(), b.params[j].value.str());
      }
      if (!a.name.empty()) {
        ++launches;
        shared += !names.insert(a.name).second;
      }
    }
    EXPECT_EQ(each->source(), once->source());
  }
  EXPECT_GE(checked, 30u);
  if (zooGraphs) {
    EXPECT_EQ(zooGraphs, 48u) << "the zoo's Inductor ATen graph count changed: update this test";
    // Transformer layers repeat: most launches of the zoo reuse a kernel printed before.
    EXPECT_GT(shared * 2, launches) << shared << " of " << launches << " launches shared";
  }
}

} // namespace
