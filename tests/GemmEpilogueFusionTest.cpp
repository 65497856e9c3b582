/// Fusion's GEMM epilogue decisions (FusionKind::GemmEpilogue): which pointwise kernel after a
/// matrix product may run inside the product's GEMM template, at each element it stores, and
/// the reason for every one that may not.

#include "FusionTestSupport.h"
#include "exporters/ProgramDot.h"
#include "ir/loop/Kernel.h"

#include <gtest/gtest.h>

#include <string>

using namespace fxkit;
using namespace fxkit::loop;
using namespace fxkit::testing;

namespace {

/// The GEMM epilogue decisions, in order.
std::vector<FusionDecision> epilogueDecisions(const FusedProgram &f) {
  std::vector<FusionDecision> out;
  for (const FusionDecision &d : f.decisions)
    if (d.kind == FusionKind::GemmEpilogue)
      out.push_back(d);
  return out;
}

/// The kernels marked as a product's epilogue, by name.
std::vector<std::string> epilogueKernels(const FusedProgram &f) {
  std::vector<std::string> out;
  for (const Kernel &k : f.kernels)
    if (k.gemmEpilogueOf >= 0)
      out.push_back(k.name);
  return out;
}

const char *kInputs = R"(graph():
    %x : Tensor "f32[8, 16][16, 1]cpu"[num_users=2] = placeholder[target=x]
    %w : Tensor "f32[16, 12][12, 1]cpu"[num_users=2] = placeholder[target=w]
    %b : Tensor "f32[12][1]cpu"[num_users=1] = placeholder[target=b]
)";

std::string graph(const std::string &body) { return kInputs + body; }

TEST(GemmEpilogueFusion, BiasAndActivationAfterAProductRunInItsTemplate) {
  FusedText c = fuseText(graph(
      R"(    %mm : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm, %b), kwargs = {})
    %relu : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%add,), kwargs = {})
    return (relu,)
)"));
  ASSERT_EQ(c.fused.kernels.size(), 2u);
  EXPECT_TRUE(c.fused.kernels[0].isExtern);
  EXPECT_EQ(epilogueKernels(c.fused), std::vector<std::string>{"fused_add_relu_0"});
  auto d = epilogueDecisions(c.fused);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_TRUE(d[0].fused);
  EXPECT_EQ(d[0].kernelOp, c.program.ops[c.fused.kernels[0].ops[0]].name);
  EXPECT_EQ(d[0].reason,
            "runs at each element of buf0 as the GEMM template stores it (where a template "
            "computes the product)");
  // What it saves: the kernel's read of the product, 8 x 12 floats.
  EXPECT_EQ(d[0].bytesSaved, SymExpr(384));
  // `fuse --explain` shows the decision and the mark.
  std::string text = c.fused.explain(c.program);
  EXPECT_NE(text.find("fused   op1 into kernel of op0 (gemm epilogue, 384 bytes)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("fused_add_relu_0 [gemm epilogue]:"), std::string::npos) << text;
  // The picture of fusion decisions: a green edge from the product to its epilogue.
  RenderOptions picture;
  picture.fusion = true;
  std::string dot = writeProgramDot(c.program, c.fused, picture);
  EXPECT_NE(dot.find("\"op0\" -> \"op1\" [style=dashed, color=darkgreen"), std::string::npos)
      << dot;
  EXPECT_NE(dot.find("gemm epilogue"), std::string::npos) << dot;
}

TEST(GemmEpilogueFusion, ViewsOfTheBatchedResultAtTheSamePointsQualify) {
  // bmm's [2, 4, 12] result read through a view as [8, 12] with a residual: the view's points
  // are the result's elements in order.
  FusedText c = fuseText(R"(graph():
    %x : Tensor "f32[2, 4, 16][64, 16, 1]cpu"[num_users=1] = placeholder[target=x]
    %w : Tensor "f32[2, 16, 12][192, 12, 1]cpu"[num_users=1] = placeholder[target=w]
    %r : Tensor "f32[8, 12][12, 1]cpu"[num_users=1] = placeholder[target=r]
    %bmm : [num_users=1] = call_function[target=torch.ops.aten.bmm.default](args = (%x, %w), kwargs = {})
    %v : [num_users=1] = call_function[target=torch.ops.aten.view.default](args = (%bmm, [8, 12]), kwargs = {})
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%v, %r), kwargs = {})
    return (add,)
)");
  auto d = epilogueDecisions(c.fused);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_TRUE(d[0].fused) << d[0].reason;
  EXPECT_EQ(epilogueKernels(c.fused).size(), 1u);
  // A batch of one: a dimension of size 1 has no term in the index.
  FusedText one = fuseText(graph(
      R"(    %mm : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %v : [num_users=1] = call_function[target=torch.ops.aten.view.default](args = (%mm, [1, 8, 12]), kwargs = {})
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%v, 1.0), kwargs = {})
    return (add,)
)"));
  auto d1 = epilogueDecisions(one.fused);
  ASSERT_EQ(d1.size(), 1u);
  EXPECT_TRUE(d1[0].fused) << d1[0].reason;
}

TEST(GemmEpilogueFusion, EveryRefusalSaysWhy) {
  struct Case {
    std::string body, reason;
  };
  const Case cases[] = {
      // The transpose reads elements that other work-groups store.
      {R"(    %mm : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %t : [num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%mm, [1, 0]), kwargs = {})
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%t, 1.0), kwargs = {})
    return (add,)
)",
       "op1 reads buf0 at x0 + 12*x1, not at its own point 8*x0 + x1"},
      // A row sum gathers a row that other work-groups store.
      {R"(    %mm : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %s : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mm, [1]), kwargs = {})
    return (s,)
)",
       "a reduction: its rows gather elements that other work-groups compute"},
      // Broadcast over a larger space: more points than the product has elements.
      {R"(    %mm : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %u : [num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mm, 0), kwargs = {})
    %e : [num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%u, [3, 8, 12]), kwargs = {})
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%e, 1.0), kwargs = {})
    return (add,)
)",
       "its 288 points are not the product's elements"},
      // Two products: the first one's reader runs after the second product.
      {R"(    %mm : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %mm2 : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm, %mm2), kwargs = {})
    return (add,)
)",
       "another kernel runs between the product and it"},
  };
  for (const Case &cs : cases) {
    FusedText c = fuseText(graph(cs.body));
    auto d = epilogueDecisions(c.fused);
    ASSERT_FALSE(d.empty()) << cs.body;
    EXPECT_FALSE(d[0].fused) << cs.body;
    EXPECT_EQ(d[0].reason, cs.reason) << cs.body;
  }
  // The last case's second product is right before the reader, which reads both at its point.
  FusedText two = fuseText(graph(cases[3].body));
  auto d = epilogueDecisions(two.fused);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_TRUE(d[1].fused) << d[1].reason;
}

TEST(GemmEpilogueFusion, OnlyFloat32ProductsAndOnlyWithFusionOn) {
  // A float64 product: the template computes float32 only.
  FusedText f64 = fuseText(R"(graph():
    %x : Tensor "f64[8, 16][16, 1]cpu"[num_users=1] = placeholder[target=x]
    %w : Tensor "f64[16, 12][12, 1]cpu"[num_users=1] = placeholder[target=w]
    %mm : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %relu : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%mm,), kwargs = {})
    return (relu,)
)");
  EXPECT_TRUE(epilogueDecisions(f64.fused).empty());
  EXPECT_TRUE(epilogueKernels(f64.fused).empty());
  // The unfused baseline (fusion off) fuses nothing, epilogues included.
  FusionOptions off;
  off.enable = false;
  FusedText c = fuseText(
      graph(
          R"(    %mm : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %relu : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%mm,), kwargs = {})
    return (relu,)
)"),
      off);
  EXPECT_TRUE(epilogueDecisions(c.fused).empty());
  EXPECT_TRUE(epilogueKernels(c.fused).empty());
}

} // namespace
