/// Tensor constants a captured graph reads by get_attr but does not hold
/// (transforms/LiftConstants.h): found, lifted into placeholders after the graph's own inputs
/// (several reads of one target folded), then run like inputs on the reference interpreter and
/// the compiled loops. The graph is the shape of HF BLOOM's causal mask in the zoo's reference
/// capture: `where(mask, _tensor_constant0, min)` with `_tensor_constant0 = torch.tensor(0.0)`.

#include "transforms/LiftConstants.h"
#include "CompileTestSupport.h"
#include "InterpreterTestSupport.h"
#include "backends/interp/LoopInterpreter.h"
#include "importers/FxTextParser.h"
#include "transforms/Pass.h"

#include <gtest/gtest.h>

using namespace fxkit;
using namespace fxkit::testing;

namespace {

const char *kMaskGraph = R"(graph():
    %x : Tensor "f32[2, 3][3, 1]cpu"[num_users=2] = placeholder[target=x]
    %y : Tensor "f32[2, 3][3, 1]cpu"[num_users=1] = placeholder[target=y]
    %gt : [num_users=1] = call_function[target=torch.ops.aten.gt.Tensor](args = (%x, %y), kwargs = {})
    %_tensor_constant0 : Tensor "f32[][]cpu"[num_users=1] = get_attr[target=_tensor_constant0]
    %lift_fresh_copy : [num_users=1] = call_function[target=torch.ops.aten.lift_fresh_copy.default](args = (%_tensor_constant0,), kwargs = {})
    %where : [num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%gt, %lift_fresh_copy, -100.0), kwargs = {})
    %_tensor_constant0_1 : Tensor "f32[][]cpu"[num_users=1] = get_attr[target=_tensor_constant0]
    %_tensor_constant1 : Tensor "f32[3][1]cpu"[num_users=1] = get_attr[target=_tensor_constant1]
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%where, %_tensor_constant0_1), kwargs = {})
    %mul : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add, %_tensor_constant1), kwargs = {})
    %unused : Tensor "f32[][]cpu"[num_users=0] = get_attr[target=_tensor_unused]
    return (mul,)
)";

TEST(LiftConstants, FindsTensorConstantsInProgramOrderOnce) {
  auto g = parseFxText(kMaskGraph, "<test>");
  ASSERT_TRUE(g) << g.error().str();
  EXPECT_EQ(tensorConstantTargets(*g),
            (std::vector<std::string>{"_tensor_constant0", "_tensor_constant1"}));
}

TEST(LiftConstants, BecomePlaceholdersAfterTheGraphsOwn) {
  auto g = parseFxText(kMaskGraph, "<test>");
  ASSERT_TRUE(g) << g.error().str();
  ASSERT_TRUE(liftTensorConstants(*g, tensorConstantTargets(*g)));
  std::vector<std::string> placeholders;
  for (const Node *n : *g)
    if (n->op() == OpKind::Placeholder)
      placeholders.push_back(n->name());
  EXPECT_EQ(placeholders,
            (std::vector<std::string>{"x", "y", "_tensor_constant0", "_tensor_constant1"}));
  // The second read of _tensor_constant0 is folded into the first; both users now read it.
  EXPECT_EQ(g->find("_tensor_constant0_1"), nullptr);
  const Node *c0 = g->find("_tensor_constant0");
  ASSERT_NE(c0, nullptr);
  EXPECT_EQ(c0->users().size(), 2u);
  ASSERT_NE(c0->value().tensor(), nullptr);
  EXPECT_EQ(c0->value().tensor()->dtype, DType::Float32);
  EXPECT_TRUE(c0->value().tensor()->sizes.empty());
  // The unused get_attr is not an input.
  EXPECT_NE(g->find("unused"), nullptr);
  EXPECT_EQ(g->find("unused")->op(), OpKind::GetAttr);
}

TEST(LiftConstants, IsARegisteredPass) {
  auto g = parseFxText(kMaskGraph, "<test>");
  ASSERT_TRUE(g) << g.error().str();
  auto runs = runPipeline(*g, {"lift-constants"});
  ASSERT_TRUE(runs) << runs.error().str();
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_TRUE((*runs)[0].changed);
  EXPECT_EQ(g->find("_tensor_constant1")->op(), OpKind::Placeholder);
  // Nothing left to lift: unchanged.
  auto again = runPipeline(*g, {"lift-constants"});
  ASSERT_TRUE(again) << again.error().str();
  EXPECT_FALSE((*again)[0].changed);
}

TEST(LiftConstants, UnknownTargetIsAnError) {
  auto g = parseFxText(kMaskGraph, "<test>");
  ASSERT_TRUE(g) << g.error().str();
  Status s = liftTensorConstants(*g, {"_tensor_constant9"});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, "no get_attr node reads '_tensor_constant9'");
}

TEST(LiftConstants, RunOnTheInterpreterAndTheCompiledLoops) {
  auto g = parseFxText(kMaskGraph, "<test>");
  ASSERT_TRUE(g) << g.error().str();
  ASSERT_TRUE(liftTensorConstants(*g, tensorConstantTargets(*g)));
  std::vector<RuntimeValue> inputs = {
      RuntimeValue{fromValues({2, 3}, {1, 5, 3, 0, 2, 9})},
      RuntimeValue{fromValues({2, 3}, {2, 4, 3, 1, 1, 8})},
      RuntimeValue{fromValues({}, {0.5})},
      RuntimeValue{fromValues({3}, {1, 2, 3})},
  };
  // where(x > y, 0.5, -100) + 0.5, times [1, 2, 3] by column.
  const std::vector<double> expected = {-99.5, 2, -298.5, -99.5, 2, 3};
  Graph copy = g->clone();
  auto ref = interpretGraph(*g, inputs);
  ASSERT_TRUE(ref) << ref.error().str();
  expectValues(*ref->outputs[0].tensor(), expected);

  Compiled c;
  ASSERT_TRUE(compile(std::move(copy), c));
  auto loops = interpretLoopProgram(c.program, c.fused, inputs);
  ASSERT_TRUE(loops) << loops.error().str();
  expectValues(*loops->outputs[0].tensor(), expected);
}

} // namespace
