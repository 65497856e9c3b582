#include "transforms/Pass.h"
#include "transforms/DeadCodeElimination.h"

#include <gtest/gtest.h>

using namespace fxkit;

namespace {

/// x -> relu (unused) ; x -> neg -> add_ (mutation, unused) ; x -> exp -> output
Graph makeGraph() {
  Graph g;
  Node *x = g.create(OpKind::Placeholder, "x", "x");
  g.create(OpKind::CallFunction, "relu", "torch.ops.aten.relu.default",
           Argument::tuple({Argument::node(x)}));
  Node *neg = g.create(OpKind::CallFunction, "neg", "torch.ops.aten.neg.default",
                       Argument::tuple({Argument::node(x)}));
  g.create(OpKind::CallFunction, "add_", "torch.ops.aten.add_.Tensor",
           Argument::tuple({Argument::node(neg), Argument::node(x)}));
  Node *e = g.create(OpKind::CallFunction, "exp", "torch.ops.aten.exp.default",
                     Argument::tuple({Argument::node(x)}));
  g.create(OpKind::Output, "output", "output", Argument::tuple({Argument::node(e)}));
  return g;
}

TEST(Pass, DeadCodeEliminationKeepsSideEffects) {
  Graph g = makeGraph();
  auto runs = runPipeline(g, {"dce"});
  ASSERT_TRUE(runs) << runs.error().str();
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_TRUE((*runs)[0].changed);
  EXPECT_EQ(g.find("relu"), nullptr);
  EXPECT_NE(g.find("add_"), nullptr); // mutates its input: kept
  EXPECT_NE(g.find("neg"), nullptr);  // used by the mutation
  EXPECT_EQ(g.size(), 5u);
  auto again = runPipeline(g, {"dce"});
  ASSERT_TRUE(again);
  EXPECT_FALSE((*again)[0].changed);
}

TEST(Pass, DeadChainsDieInOneSweep) {
  Graph g;
  Node *x = g.create(OpKind::Placeholder, "x", "x");
  Node *prev = x;
  for (int i = 0; i < 1000; ++i)
    prev = g.create(OpKind::CallFunction, "r" + std::to_string(i), "torch.ops.aten.relu.default",
                    Argument::tuple({Argument::node(prev)}));
  g.create(OpKind::Output, "output", "output", Argument::tuple({Argument::node(x)}));
  auto changed = eliminateDeadCode(g);
  ASSERT_TRUE(changed);
  EXPECT_TRUE(*changed);
  EXPECT_EQ(g.size(), 2u);
}

TEST(Pass, InferShapesIsRegisteredAndReportsChanges) {
  Graph g;
  Node *x = g.create(OpKind::Placeholder, "x", "x");
  x->value().v = *TensorType::parse("f32[s0, 4][4, 1]cpu");
  Node *r = g.create(OpKind::CallFunction, "relu", "torch.ops.aten.relu.default",
                     Argument::tuple({Argument::node(x)}));
  g.create(OpKind::Output, "output", "output",
           Argument::tuple({Argument::tuple({Argument::node(r)})}));
  auto runs = runPipeline(g, {"infer-shapes"});
  ASSERT_TRUE(runs) << runs.error().str();
  EXPECT_TRUE((*runs)[0].changed);
  ASSERT_NE(r->value().tensor(), nullptr);
  EXPECT_EQ(r->value().tensor()->str(), "f32[s0, 4][4, 1]cpu");
  auto again = runPipeline(g, {"infer-shapes"});
  ASSERT_TRUE(again);
  EXPECT_FALSE((*again)[0].changed);
}

TEST(Pass, UnknownPassIsAnError) {
  Graph g = makeGraph();
  auto runs = runPipeline(g, {"dce", "no-such-pass"});
  ASSERT_FALSE(runs);
  EXPECT_NE(runs.error().message.find("no-such-pass"), std::string::npos);
  EXPECT_NE(g.find("relu"), nullptr); // nothing ran
}

TEST(Pass, SideEffectClassification) {
  Graph g;
  Node *x = g.create(OpKind::Placeholder, "x", "x");
  auto call = [&](const char *name, const char *target) {
    return g.create(OpKind::CallFunction, name, target, Argument::tuple({Argument::node(x)}));
  };
  EXPECT_FALSE(hasSideEffects(*call("a", "torch.ops.aten.add.Tensor")));
  EXPECT_TRUE(hasSideEffects(*call("b", "torch.ops.aten.addmm.out")));
  EXPECT_TRUE(hasSideEffects(*call("c", "torch.ops.higher_order.triton_kernel_wrapper_mutation")));
  EXPECT_TRUE(hasSideEffects(*call("d", "torch.ops.aten.copy_.default")));
  EXPECT_FALSE(hasSideEffects(*call("e", "operator.getitem")));
}

} // namespace
