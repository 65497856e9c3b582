/// The OpenCL code generator's plan of a kernel (KernelPlan.h), computed before any text: its form,
/// the loop over reduced points of each op, the loads that two loops repeat (held in registers in
/// the persistent form), the accesses with a vector form, rows fastest for a column reduction; and
/// the decisions over hand-made accesses (decideForms). The text printed from a plan is
/// OpenCLCodegenTest's business.

#include "CompileTestSupport.h"
#include "backends/opencl/codegen/KernelPlan.h"

#include <gtest/gtest.h>

using namespace fxkit;
using namespace fxkit::opencl;

namespace {

/// The plans of the generated kernels of `text`, compiled as every backend compiles.
std::vector<KernelPlan> plansOf(std::string_view text) {
  fxkit::testing::Compiled c;
  EXPECT_TRUE(fxkit::testing::compile(text, c));
  std::vector<KernelPlan> plans;
  for (const loop::Kernel &k : c.fused.kernels) {
    if (k.isExtern)
      continue;
    auto plan = planKernel(c.program, k);
    EXPECT_TRUE(plan.hasValue()) << (plan ? "" : plan.error().str());
    if (plan)
      plans.push_back(plan.take());
  }
  return plans;
}

/// A graph of one op `op` of `x` (of type `type`) with the further arguments `args`.
std::string reductionGraph(const std::string &type, const std::string &op,
                           const std::string &args) {
  return R"(graph():
    %x : Tensor ")" +
         type + R"("[num_users=1] = placeholder[target=x]
    %s : [num_users=1] = call_function[target=torch.ops.aten.)" +
         op + R"(](args = (%x, )" + args + R"(), kwargs = {})
    return (s,)
)";
}

TEST(OpenCLKernelPlan, SoftmaxTwoLoopsOneRepeatedLoadInRegistersVectorAccesses) {
  auto plans = plansOf(R"(graph():
    %x : Tensor "f32[8, 16][16, 1]cpu"[num_users=2] = placeholder[target=x]
    %amax : [num_users=1] = call_function[target=torch.ops.aten.amax.default](args = (%x, [1], True), kwargs = {})
    %sub : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x, %amax), kwargs = {})
    %exp : [num_users=2] = call_function[target=torch.ops.aten.exp.default](args = (%sub,), kwargs = {})
    %sum_1 : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%exp, [1], True), kwargs = {})
    %div : [num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%exp, %sum_1), kwargs = {})
    return (div,)
)");
  ASSERT_EQ(plans.size(), 1u);
  const KernelPlan &p = plans[0];
  EXPECT_EQ(p.form, KernelForm::Reduction);
  EXPECT_STREQ(kernelFormName(p.form), "reduction");
  // The online softmax (max and sum in one loop), then the division, which needs its results.
  EXPECT_EQ(p.loops, 2);
  EXPECT_EQ(p.loopOf, (std::vector<int>{1, 2}));
  // Both loops read x's row: one register array holds it, filled by the first loop.
  ASSERT_EQ(p.loads.size(), 2u);
  for (size_t n = 0; n < 2; ++n) {
    EXPECT_EQ(p.loads[n].text, "in_ptr0[r0 + 16*x0]");
    EXPECT_EQ(p.loads[n].type, "float");
    EXPECT_EQ(p.loads[n].loop, static_cast<int>(n) + 1);
    EXPECT_FALSE(p.loads[n].masked);
    EXPECT_EQ(p.loads[n].array, 0);
    // Unit stride in the reduced index, float32, unmasked: a float4 of its own in each loop.
    EXPECT_TRUE(p.loads[n].vector);
    EXPECT_EQ(p.loads[n].vectorSource, static_cast<int>(n));
  }
  EXPECT_TRUE(p.loads[0].keeps);
  EXPECT_FALSE(p.loads[1].keeps);
  ASSERT_EQ(p.registerArrays.size(), 1u);
  EXPECT_EQ(p.registerArrays[0].text, "in_ptr0[r0 + 16*x0]");
  EXPECT_EQ(p.registerArrays[0].type, "float");
  // With vector accesses the persistent form holds whole float4s: two per lane.
  EXPECT_EQ(p.persistentPoints, 8);
  ASSERT_EQ(p.stores.size(), 1u);
  EXPECT_EQ(p.stores[0].loop, 2);
  EXPECT_TRUE(p.stores[0].vector);
  EXPECT_EQ(p.vectorWidth, kVectorWidth);
  EXPECT_FALSE(p.rowsFastest);
}

TEST(OpenCLKernelPlan, PointwiseKernelHasNoLoopsNorForms) {
  auto plans = plansOf(R"(graph():
    %x : Tensor "f32[8, 16][16, 1]cpu"[num_users=1] = placeholder[target=x]
    %e : [num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%x,), kwargs = {})
    %r : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%e,), kwargs = {})
    return (r,)
)");
  ASSERT_EQ(plans.size(), 1u);
  const KernelPlan &p = plans[0];
  EXPECT_EQ(p.form, KernelForm::Pointwise);
  EXPECT_EQ(p.loops, 0);
  EXPECT_FALSE(p.loopOf.empty());
  for (int l : p.loopOf)
    EXPECT_EQ(l, 0);
  EXPECT_TRUE(p.loads.empty());
  EXPECT_TRUE(p.stores.empty());
  EXPECT_EQ(p.persistentPoints, 0);
  EXPECT_EQ(p.vectorWidth, 0);
}

TEST(OpenCLKernelPlan, OneLoopRowSumVectorButNothingRepeated) {
  auto plans = plansOf(reductionGraph("f32[8, 4096][4096, 1]cpu", "sum.dim_IntList", "[1]"));
  ASSERT_EQ(plans.size(), 1u);
  const KernelPlan &p = plans[0];
  EXPECT_EQ(p.form, KernelForm::Reduction);
  EXPECT_EQ(p.loops, 1);
  ASSERT_EQ(p.loads.size(), 1u);
  EXPECT_EQ(p.loads[0].text, "in_ptr0[r0 + 4096*x0]");
  EXPECT_TRUE(p.loads[0].vector);
  // One loop repeats nothing: no register arrays, so no persistent form.
  EXPECT_EQ(p.loads[0].array, -1);
  EXPECT_TRUE(p.registerArrays.empty());
  EXPECT_EQ(p.persistentPoints, 0);
  EXPECT_EQ(p.vectorWidth, kVectorWidth);
  EXPECT_EQ(p.unitReducedLoads, 1);
  EXPECT_FALSE(p.rowsFastest);
}

TEST(OpenCLKernelPlan, ColumnSumTakesRowsFastestWithoutVectors) {
  auto plans = plansOf(reductionGraph("f32[4096, 8][8, 1]cpu", "sum.dim_IntList", "[0]"));
  ASSERT_EQ(plans.size(), 1u);
  const KernelPlan &p = plans[0];
  ASSERT_EQ(p.loads.size(), 1u);
  EXPECT_EQ(p.loads[0].text, "in_ptr0[8*r0 + x0]");
  EXPECT_FALSE(p.loads[0].vector);
  EXPECT_EQ(p.vectorWidth, 0);
  EXPECT_EQ(p.unitReducedLoads, 0);
  EXPECT_EQ(p.unitRowLoads, 1);
  EXPECT_TRUE(p.rowsFastest);
}

TEST(OpenCLKernelPlan, ReductionOverTwoDimensionsHasNoVectorForm) {
  auto plans = plansOf(reductionGraph("f32[4, 8, 8][64, 8, 1]cpu", "sum.dim_IntList", "[1, 2]"));
  ASSERT_EQ(plans.size(), 1u);
  EXPECT_EQ(plans[0].form, KernelForm::Reduction);
  ASSERT_EQ(plans[0].loads.size(), 1u);
  EXPECT_FALSE(plans[0].loads[0].vector);
  EXPECT_EQ(plans[0].vectorWidth, 0);
}

TEST(OpenCLKernelPlan, ScanIsAKernelOfItsOwn) {
  auto plans = plansOf(reductionGraph("f32[4, 64][64, 1]cpu", "cumsum.default", "1"));
  ASSERT_EQ(plans.size(), 1u);
  const KernelPlan &p = plans[0];
  EXPECT_EQ(p.form, KernelForm::Scan);
  EXPECT_STREQ(kernelFormName(p.form), "scan");
  EXPECT_EQ(p.loops, 0);
  EXPECT_EQ(p.loopOf, (std::vector<int>{0}));
  EXPECT_EQ(p.persistentPoints, 0);
  EXPECT_EQ(p.vectorWidth, 0);
}

/// A load of `text` in loop `loop`.
PlannedLoad load(const std::string &text, int loop, bool masked = false, bool vector = false) {
  PlannedLoad l;
  l.text = text;
  l.type = "float";
  l.loop = loop;
  l.masked = masked;
  l.vector = vector;
  return l;
}

TEST(OpenCLKernelPlan, RegisterArraysForUnmaskedRepeatsMostRepeatedFirstAtMostFour) {
  KernelPlan p;
  p.form = KernelForm::Reduction;
  // a: loops 1, 2, 3; b..e: loops 1, 2; m: masked in loop 2; once: loop 1 only.
  for (const char *t : {"a", "b", "c", "d", "e"}) {
    p.loads.push_back(load(t, 1));
    p.loads.push_back(load(t, 2));
  }
  p.loads.push_back(load("a", 3));
  p.loads.push_back(load("m", 1));
  p.loads.push_back(load("m", 2, true));
  p.loads.push_back(load("once", 1));
  decideForms(p, 8);
  EXPECT_EQ(p.persistentPoints, 8);
  // The most repeated first, then equal counts in the order of their text; registers are finite: e
  // gets none.
  ASSERT_EQ(p.registerArrays.size(), 4u);
  EXPECT_EQ(p.registerArrays[0].text, "a");
  EXPECT_EQ(p.registerArrays[1].text, "b");
  EXPECT_EQ(p.registerArrays[2].text, "c");
  EXPECT_EQ(p.registerArrays[3].text, "d");
  for (const PlannedLoad &l : p.loads) {
    int expected = l.text == "a"   ? 0
                   : l.text == "b" ? 1
                   : l.text == "c" ? 2
                   : l.text == "d" ? 3
                                   : -1;
    EXPECT_EQ(l.array, expected) << l.text;
    // The first loop that reads it fills the register.
    EXPECT_EQ(l.keeps, expected >= 0 && l.loop == 1) << l.text << " in loop " << l.loop;
  }
  // No access has a vector form.
  EXPECT_EQ(p.vectorWidth, 0);

  // Without a persistent candidate (rows too long for registers) nothing is held.
  KernelPlan q;
  q.loads = {load("a", 1), load("a", 2)};
  decideForms(q, 0);
  EXPECT_TRUE(q.registerArrays.empty());
  EXPECT_EQ(q.loads[0].array, -1);
  EXPECT_EQ(q.persistentPoints, 0);
}

TEST(OpenCLKernelPlan, VectorLoadsOfOneTextInALoopShareTheFirstOnesFloat4) {
  KernelPlan p;
  p.loads = {load("x", 1, false, true), load("y", 1, false, true), load("x", 1, false, true),
             load("x", 2, false, true), load("z", 2)};
  decideForms(p, 0);
  EXPECT_EQ(p.loads[0].vectorSource, 0);
  EXPECT_EQ(p.loads[1].vectorSource, 1);
  EXPECT_EQ(p.loads[2].vectorSource, 0);
  EXPECT_EQ(p.loads[3].vectorSource, 3); // another loop: its own float4
  EXPECT_EQ(p.loads[4].vectorSource, -1);
  EXPECT_EQ(p.vectorWidth, kVectorWidth);

  // A vector store alone gives the kernel a vector form too.
  KernelPlan s;
  s.stores = {{0, 1, true}};
  decideForms(s, 0);
  EXPECT_EQ(s.vectorWidth, kVectorWidth);
}

} // namespace
