// `fxkit bisect`'s library pieces: delta debugging of a failing graph (transforms/
// GraphReduction.h, shared with the differential tester), the worst element of a comparison
// (ir/Tensor.h), and bisectGraph over every kernel-by-kernel backend built here (the kernel tap
// of backends/interp/KernelTap.h). tests/cli/bisect.sh checks a corrupted kernel end to end.
#include "backends/Backend.h"
#include "importers/FxTextParser.h"
#include "repl/BisectCommand.h"
#include "transforms/GraphReduction.h"

#include <gtest/gtest.h>

#include <string>

namespace fxkit {
namespace {

constexpr const char *kChain = R"(graph():
    %x : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = placeholder[target=x]
    %y : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = placeholder[target=y]
    %r : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})
    %e : [num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%r,), kwargs = {})
    %n : [num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%e,), kwargs = {})
    %a : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%n, %y), kwargs = {})
    %s : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%a, [1], True), kwargs = {})
    %d : [num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%a, %s), kwargs = {})
    return (d, s)
)";

size_t countOp(const Graph &g, std::string_view target) {
  size_t n = 0;
  for (const Node *node : g)
    n += node->op() == OpKind::CallFunction && (target.empty() || node->target() == target);
  return n;
}

// A "bug" in exp: the reduction keeps exp alone, fed by a new typed input in place of relu.
TEST(GraphReduction, CutsAGraphDownToTheFailingOp) {
  auto graph = parseFxText(kChain, "<chain>");
  ASSERT_TRUE(graph) << graph.error().str();
  int asked = 0;
  auto hasExp = [&](const Graph &g) {
    ++asked;
    return countOp(g, "torch.ops.aten.exp.default") > 0;
  };
  Graph small = reduceFailingGraph(*graph, hasExp);
  EXPECT_EQ(countOp(small, ""), 1u);
  EXPECT_EQ(countOp(small, "torch.ops.aten.exp.default"), 1u);
  size_t placeholders = 0;
  for (const Node *n : small)
    if (n->op() == OpKind::Placeholder) {
      ++placeholders;
      ASSERT_NE(n->value().tensor(), nullptr) << n->name() << " lost its type";
      EXPECT_EQ(n->value().tensor()->str(), "f32[4, 8][8, 1]cpu");
    }
  EXPECT_EQ(placeholders, 1u);
  // The budget of checks is kept: with none, the graph comes back as it was.
  ReduceOptions none;
  none.maxChecks = 0;
  EXPECT_EQ(countOp(reduceFailingGraph(*graph, hasExp, none), ""), 6u);
  EXPECT_GT(asked, 0);
}

TEST(CompareTensors, NamesTheWorstElementBesideTheFirst) {
  auto make = [](std::vector<double> values) {
    Tensor t = *Tensor::empty(DType::Float32, {2, 2});
    for (int64_t i = 0; i < 4; ++i)
      t.setDouble(std::vector<int64_t>{i / 2, i % 2}, values[i]);
    return t;
  };
  auto cmp = compareTensors(make({1.5, 0, 9, 2}), make({1, 0, 1, 2}), 1e-4, 1e-4);
  ASSERT_TRUE(cmp) << cmp.error().str();
  EXPECT_EQ(cmp->mismatches, 2);
  EXPECT_EQ(cmp->firstMismatch, (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(cmp->worstMismatch, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(cmp->worstActual, 9);
  EXPECT_EQ(cmp->worstExpected, 1);
  EXPECT_EQ(defaultTolerance(DType::BFloat16), (std::pair<double, double>{1.6e-2, 1e-3}));
}

// Healthy: every backend that runs kernels one by one agrees kernel by kernel, and the tap saw
// the reduction's and the division's buffers.
TEST(Bisect, EveryKernelAgreesOnEveryKernelByKernelBackend) {
  int ran = 0;
  for (const char *name : {"loops", "opencl", "llvm"}) {
    auto backend = findBackend(name);
    ASSERT_TRUE(backend);
    if (!(*backend)->available())
      continue;
    SCOPED_TRACE(name);
    auto graph = parseFxText(kChain, "<chain>");
    ASSERT_TRUE(graph);
    auto inputs = makeRandomInputs(*graph, {}, 3);
    ASSERT_TRUE(inputs) << inputs.error().str();
    BackendOptions options;
    options.cache = false;
    options.tune = false;
    std::map<std::string, RuntimeValue> values;
    BisectOptions bisect;
    bisect.referenceValues = &values;
    auto finding = bisectGraph(*graph, *inputs, **backend, options, bisect);
    ASSERT_TRUE(finding) << finding.error().str();
    EXPECT_FALSE(finding->mismatch) << formatBisectFinding(*finding, name);
    EXPECT_TRUE(finding->kernelByKernel);
    EXPECT_GE(finding->kernels, 1u);
    EXPECT_GE(finding->buffersCompared, 1u);
    EXPECT_EQ(values.size(), 6u); // every call node's value, for --minimize's inputs
    EXPECT_EQ(formatBisectFinding(*finding, name).find("every kernel agrees"),
              formatBisectFinding(*finding, name).find('\n') + 1);
    ++ran;
  }
  EXPECT_GE(ran, 1);
  auto interp = findBackend("interp");
  auto graph = parseFxText(kChain, "<chain>");
  auto inputs = makeRandomInputs(*graph, {}, 3);
  auto refused = bisectGraph(*graph, *inputs, **interp, {});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("runs no compiled kernels"), std::string::npos);
}

} // namespace
} // namespace fxkit
