/// The pointwise vector form (issue 23 item 4): each work-item of a pointwise kernel takes 4
/// consecutive points per step, reading and writing float4 where an access's 4 points are
/// consecutive in memory and 16-byte aligned (Triton's size_per_thread), point by point elsewhere.
/// Scalar loads left an H200 at 71-83% of the triad. Here: which kernels and accesses take it,
/// the launch size it needs, and every path (float4, a misaligned row, a tail, rows of a length no
/// float4 tiles, a broadcast, a gather) against the reference interpreter.

#include "CompileTestSupport.h"
#include "InterpreterTestSupport.h"
#include "backends/interp/Interpreter.h"
#include "backends/opencl/codegen/OpenCLKernelGen.h"
#include "backends/opencl/runtime/LaunchConfig.h"
#include "backends/opencl/runtime/OpenCLProgram.h"
#include "importers/FxTextParser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace fxkit;
using namespace fxkit::opencl;
using namespace fxkit::testing;

namespace {

/// The one generated kernel of `text`.
GeneratedKernel kernelOf(const std::string &text, bool pointwiseVectors = true) {
  GenerateOptions options;
  options.pointwiseVectors = pointwiseVectors;
  GeneratedProgram code = generatedOpenCL(text, options);
  EXPECT_EQ(code.launches.size(), 1u);
  return code.launches.empty() ? GeneratedKernel{} : code.launches[0];
}

/// relu(x * y + x) over [rows, cols], both contiguous float32.
std::string mulAddRelu(const std::string &rows, const std::string &cols) {
  return R"(graph():
    %x : Tensor "f32[)" +
         rows + ", " + cols + "][" + cols + R"(, 1]cpu"[num_users=2] = placeholder[target=x]
    %y : Tensor "f32[)" +
         rows + ", " + cols + "][" + cols + R"(, 1]cpu"[num_users=1] = placeholder[target=y]
    %mul : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, %y), kwargs = {})
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul, %x), kwargs = {})
    %relu : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%add,), kwargs = {})
    return (relu,)
)";
}

TEST(PointwiseVector, ContiguousFloatAccessesTakeFloat4) {
  GeneratedKernel k = kernelOf(mulAddRelu("64", "64"));
  EXPECT_FALSE(k.isReduction);
  EXPECT_EQ(k.vectorWidth, 4);
  // x is read twice in the body: one float4 for both; y one; the output one float4 store.
  EXPECT_NE(k.source.find("const float4 fx_pl0 = *(__global const float4 *)(in_ptr0"),
            std::string::npos)
      << k.source;
  EXPECT_NE(k.source.find("const float4 fx_pl1 = *(__global const float4 *)(in_ptr1"),
            std::string::npos);
  EXPECT_EQ(k.source.find("fx_pl2"), std::string::npos) << "one float4 per load text";
  EXPECT_NE(k.source.find("*(__global float4 *)(out_ptr0 + (64*x0 + x1)) = fx_ps0;"),
            std::string::npos);
  EXPECT_NE(k.source.find("fx_ps0.s3 = "), std::string::npos);
  // Each access is checked for alignment at the group's first point; rows of 64 need no check.
  EXPECT_NE(k.source.find("fx_aligned16(in_ptr1 + (64*x0 + x1))"), std::string::npos);
  EXPECT_NE(k.source.find("bool fx_vec = xnumel - xbase >= 4;"), std::string::npos);
  // The point-by-point path stays for groups that are not 4 aligned points of one row.
  EXPECT_NE(k.source.find("const float tmp1 = in_ptr1[64*x0 + x1];"), std::string::npos);
}

TEST(PointwiseVector, WhichKernelsHaveNone) {
  // Rows of 6 points: a group of 4 would span two rows, so the plain grid-stride loop.
  GeneratedKernel odd = kernelOf(mulAddRelu("16", "6"));
  EXPECT_EQ(odd.vectorWidth, 0);
  EXPECT_EQ(odd.source.find("fx_vec"), std::string::npos) << odd.source;
  // Off where the executor's work-items are not the NDRange's (the LLVM CPU JIT).
  GeneratedKernel off = kernelOf(mulAddRelu("64", "64"), false);
  EXPECT_EQ(off.vectorWidth, 0);
  EXPECT_EQ(off.source.find("float4"), std::string::npos);
  // Integer buffers have no float4 access.
  GeneratedKernel ints = kernelOf(R"(graph():
    %x : Tensor "i64[64, 64][64, 1]cpu"[num_users=1] = placeholder[target=x]
    %n : [num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%x,), kwargs = {})
    return (n,)
)");
  EXPECT_EQ(ints.vectorWidth, 0);
}

TEST(PointwiseVector, RowsOfASymbolicLengthCheckItAtRunTime) {
  GeneratedKernel k = kernelOf(mulAddRelu("s0", "s1"));
  EXPECT_EQ(k.vectorWidth, 4);
  EXPECT_NE(k.source.find("bool fx_vec = ((s1) & 3) == 0 && xnumel - xbase >= 4;"),
            std::string::npos)
      << k.source;
}

TEST(PointwiseVector, AStridedReadStaysScalarInTheVectorForm) {
  // y - x^T: y and the output are contiguous, x is read with a stride of 64 along the innermost
  // variable, point by point inside the vector form.
  GeneratedKernel k = kernelOf(R"(graph():
    %x : Tensor "f32[64, 64][64, 1]cpu"[num_users=1] = placeholder[target=x]
    %y : Tensor "f32[64, 64][64, 1]cpu"[num_users=1] = placeholder[target=y]
    %t : [num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%x, [1, 0]), kwargs = {})
    %sub : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%y, %t), kwargs = {})
    return (sub,)
)");
  EXPECT_EQ(k.vectorWidth, 4);
  EXPECT_NE(k.source.find("const float tmp0 = fx_pl0.s2;"), std::string::npos) << k.source;
  EXPECT_NE(k.source.find("const float tmp1 = in_ptr1[x0 + 64*x1];"), std::string::npos);
  EXPECT_EQ(k.source.find("fx_pl1"), std::string::npos);
  EXPECT_NE(k.source.find("fx_ps0.s3 = "), std::string::npos);
  // A read that is the same at the 4 points (a column vector b) is not a float4 either.
  GeneratedKernel b = kernelOf(R"(graph():
    %y : Tensor "f32[64, 64][64, 1]cpu"[num_users=1] = placeholder[target=y]
    %b : Tensor "f32[64, 1][1, 1]cpu"[num_users=1] = placeholder[target=b]
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%y, %b), kwargs = {})
    return (add,)
)");
  EXPECT_EQ(b.vectorWidth, 4);
  EXPECT_NE(b.source.find("const float tmp1 = in_ptr1[x0];"), std::string::npos) << b.source;
  EXPECT_EQ(b.source.find("fx_pl1"), std::string::npos);
}

TEST(PointwiseVector, LaunchesNeedAQuarterOfTheWorkItems) {
  LaunchConfig c;
  c.local = 64;
  c.perItem = 1;
  EXPECT_EQ(c.globalSize(false, 4096), 4096);
  EXPECT_EQ(c.globalSize(false, 4096, 4), 1024);
  EXPECT_EQ(c.globalSize(false, 4097, 4), 1088) << "a partial group still gets a work-item";
  EXPECT_EQ(c.globalSize(true, 4096, 4), c.globalSize(true, 4096)) << "reductions: rows decide";
}

/// `text` on the OpenCL device, point by point against the reference interpreter, in forced
/// configurations of 1 and 16 steps per work-item.
void expectInterpreters(const std::string &text, const std::vector<RuntimeValue> &inputs) {
  auto graph = parseFxText(text, "<test>");
  ASSERT_TRUE(graph) << graph.error().str();
  auto expected = interpretGraph(*graph, inputs);
  ASSERT_TRUE(expected) << expected.error().str();
  Compiled c;
  ASSERT_TRUE(compile(graph.take(), c));
  TempDir cache;
  for (const char *config : {"local=64,per_item=1", "local=16,per_item=16"}) {
    SCOPED_TRACE(config);
    OpenCLOptions options;
    options.cacheDir = cache.path.string();
    options.tune = false;
    options.forceConfig = config;
    auto result = runOnOpenCL(c, inputs, options);
    ASSERT_TRUE(result);
    ASSERT_EQ(result->outputs.size(), expected->outputs.size());
    for (size_t o = 0; o < expected->outputs.size(); ++o) {
      const Tensor &got = *result->outputs[o].tensor(), &want = *expected->outputs[o].tensor();
      ASSERT_EQ(got.sizes(), want.sizes());
      int wrong = 0, checked = 0;
      Tensor::forEachIndex(want.sizes(), [&](std::span<const int64_t> idx) {
        ++checked;
        double a = got.getDouble(idx), b = want.getDouble(idx);
        // Exact but for the last bits of a transcendental (sigmoid's exp).
        if (!(std::abs(a - b) <= 1e-6 * (1 + std::abs(b))) && wrong++ < 5)
          ADD_FAILURE() << "output " << o << " element " << checked - 1 << ": " << a
                        << ", expected " << b;
      });
      EXPECT_EQ(checked, want.numel());
    }
  }
}

/// Values i * 0.25 - 3 (exact in float32, so every backend computes the same bits).
Tensor ramp(std::vector<int64_t> sizes) {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  std::vector<double> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    values[static_cast<size_t>(i)] = static_cast<double>(i % 97) * 0.25 - 3;
  return fromValues(sizes, values);
}

TEST(PointwiseVector, EveryPathIsTheInterpreters) {
  REQUIRE_OPENCL_DEVICE();
  struct Case {
    const char *what;
    std::string graph;
    std::vector<RuntimeValue> inputs;
  };
  const Case cases[] = {
      {"float4 everywhere, rows of 12",
       mulAddRelu("7", "12"),
       {RuntimeValue{ramp({7, 12})}, RuntimeValue{ramp({7, 12})}}},
      {"one dimension of 10: two groups of 4, then a tail of 2",
       R"(graph():
    %x : Tensor "f32[10][1]cpu"[num_users=1] = placeholder[target=x]
    %y : Tensor "f32[10][1]cpu"[num_users=1] = placeholder[target=y]
    %mul : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, %y), kwargs = {})
    return (mul,)
)",
       {RuntimeValue{ramp({10})}, RuntimeValue{ramp({10})}}},
      {"rows of 6: the plain loop",
       mulAddRelu("5", "6"),
       {RuntimeValue{ramp({5, 6})}, RuntimeValue{ramp({5, 6})}}},
      // x[:, 1:] of [9, 17]: rows of 16 starting 17 * row + 1 floats in, so only rows 3 and 7
      // are 16-byte aligned; the others go point by point.
      {"a slice: aligned and misaligned rows",
       R"(graph():
    %x : Tensor "f32[9, 17][17, 1]cpu"[num_users=1] = placeholder[target=x]
    %b : Tensor "f32[16][1]cpu"[num_users=1] = placeholder[target=b]
    %s : [num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%x, 1, 1, 17), kwargs = {})
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%s, %b), kwargs = {})
    %sig : [num_users=1] = call_function[target=torch.ops.aten.sigmoid.default](args = (%add,), kwargs = {})
    return (sig,)
)",
       {RuntimeValue{ramp({9, 17})}, RuntimeValue{ramp({16})}}},
      {"a transposed read beside a contiguous one",
       R"(graph():
    %x : Tensor "f32[12, 12][12, 1]cpu"[num_users=1] = placeholder[target=x]
    %y : Tensor "f32[12, 12][12, 1]cpu"[num_users=1] = placeholder[target=y]
    %t : [num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%x, [1, 0]), kwargs = {})
    %sub : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%t, %y), kwargs = {})
    return (sub,)
)",
       {RuntimeValue{ramp({12, 12})}, RuntimeValue{ramp({12, 12})}}},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.what);
    expectInterpreters(c.graph, c.inputs);
  }
}

} // namespace
