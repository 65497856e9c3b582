/// Split reductions (transforms/SplitReductions.h, issue 23 item 4): a column sum with too few
/// rows to fill a GPU becomes blocks into partials plus a reduction of the partials; the decision
/// is recorded with its reason; and every backend that runs loop programs (the loop interpreter,
/// OpenCL on PoCL, LLVM) gives the reference interpreter's numbers for each kind that splits.

#include "CompileTestSupport.h"
#include "InterpreterTestSupport.h"
#include "backends/interp/LoopInterpreter.h"
#include "transforms/Fusion.h"
#include "transforms/Lowering.h"
#include "transforms/Pipeline.h"
#include "transforms/SplitReductions.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace fxkit;
using namespace fxkit::testing;

namespace {

/// A reduction of `x` over `dims` (FX text), typed f32[rows, cols] unless `dtype` says otherwise.
std::string reductionGraph(const std::string &target, const std::string &args, int64_t rows,
                           int64_t cols, const std::string &dtype = "f32") {
  std::string type = dtype + "[" + std::to_string(rows) + ", " + std::to_string(cols) + "][" +
                     std::to_string(cols) + ", 1]cpu";
  return "graph():\n    %x : Tensor \"" + type + "\" = placeholder[target=x]\n" +
         "    %y : [num_users=1] = call_function[target=torch.ops.aten." + target + "](args = (%x" +
         args + "), kwargs = {})\n    return (y,)\n";
}

/// `text` compiled as `fxkit run` compiles it (PipelineSpec::toPlan) with pass option
/// reduction-splits=`splits`.
::testing::AssertionResult compileWithSplits(const std::string &text, int64_t splits, Compiled &c) {
  auto graph = parseFxText(text, "<test>");
  if (!graph)
    return ::testing::AssertionFailure() << graph.error().str();
  c.graph = graph.take();
  PipelineSpec spec = PipelineSpec::toPlan();
  spec.options.set("reduction-splits", std::to_string(splits));
  auto result = fxkit::compile(c.graph, spec);
  if (!result)
    return ::testing::AssertionFailure() << result.error().str();
  auto program = takeCompiledProgram(c.graph);
  if (!program)
    return ::testing::AssertionFailure() << program.error().str();
  c.program = std::move(program->program);
  c.fused = std::move(program->fused);
  c.plan = std::move(*program->plan);
  return ::testing::AssertionSuccess();
}

/// Deterministic values in [-2, 2) (an LCG), the same on every host.
std::vector<double> values(size_t n, uint64_t seed) {
  std::vector<double> v(n);
  for (double &x : v) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    x = static_cast<double>(seed >> 40) / static_cast<double>(1ULL << 24) * 4 - 2;
  }
  return v;
}

/// Runs `text` with every reduction split in `splits` blocks on every loop backend and compares
/// each output with the reference interpreter's (within `tol` times its largest magnitude, at
/// least 1; exact where `tol` is 0).
void expectSameEverywhere(const std::string &text, const std::vector<Tensor> &tensors,
                          int64_t splits, const std::vector<double> &tol) {
  std::vector<RuntimeValue> inputs;
  for (const Tensor &t : tensors)
    inputs.push_back(RuntimeValue{t});
  auto want = runText(text, inputs);
  ASSERT_TRUE(want) << want.error().str();
  ASSERT_EQ(want->outputs.size(), tol.size());

  Compiled c;
  ASSERT_TRUE(compileWithSplits(text, splits, c));
  expectNoExterns(c.program);
  ASSERT_EQ(c.program.reductionSplits.size(), tol.size()) << c.fused.explain(c.program);
  for (const loop::ReductionSplit &d : c.program.reductionSplits)
    EXPECT_TRUE(d.split) << d.op << ": " << d.reason;

  // OpenCL in one configuration, lanes combining in local memory (each costs a PoCL build).
  runOnEveryLoopBackend(c, inputs, {.openclConfigs = {"lanes=4,rows=16"}, .llvmThreads = 2},
                        [&](const std::string &backend, Expected<InterpretResult> got) {
                          SCOPED_TRACE(backend);
                          ASSERT_TRUE(got) << got.error().str();
                          ASSERT_EQ(got->outputs.size(), tol.size());
                          for (size_t o = 0; o < tol.size(); ++o) {
                            std::vector<double> expected = flat(*want->outputs[o].tensor());
                            std::vector<double> v = flat(*got->outputs[o].tensor());
                            double scale = 1;
                            for (double e : expected)
                              scale = std::max(scale, std::abs(e));
                            ASSERT_EQ(v.size(), expected.size()) << "output " << o;
                            for (size_t i = 0; i < v.size(); ++i)
                              EXPECT_NEAR(v[i], expected[i], tol[o] * scale)
                                  << "output " << o << ", element " << i;
                          }
                        });
}

} // namespace

// The decision by size: the benchmark's column sum (8192 columns of 8192 points, read across
// rows) in 32 blocks of 256 (262,144 rows), the row sum kept (its rows fill the device), a
// whole-tensor sum (one row, read along it) in blocks down to 256 points, a small one kept.
TEST(SplitReductions, DecisionBySize) {
  std::string reason;
  EXPECT_EQ(splitReductionDecision(8192, 8192, 8192, true, reason), 32);
  EXPECT_NE(reason.find("32 blocks of 256 give 262144 rows"), std::string::npos) << reason;
  EXPECT_EQ(splitReductionDecision(8192, 8192, 8192, false, reason), 1);
  EXPECT_NE(reason.find("fill the device"), std::string::npos) << reason;
  EXPECT_EQ(splitReductionDecision(1, 1 << 25, 8192, false, reason), 32);
  EXPECT_EQ(splitReductionDecision(1, 1 << 25, 1 << 25, false, reason), 1024);
  // 2048 columns of 300 points: no block of 256 or more divides 300.
  EXPECT_EQ(splitReductionDecision(2048, 300, 300, true, reason), 1);
  EXPECT_NE(reason.find("no blocks of 256"), std::string::npos) << reason;
}

// The column sum as lowering leaves it: blocks of rows into partials [32, 8192], then the
// partials, recorded with the reason and shown by `fuse --explain`; the row sum of the same
// tensor is kept, recorded too.
TEST(SplitReductions, ColumnSumBecomesBlocksAndPartials) {
  auto graph = parseFxText(reductionGraph("sum.dim_IntList", ", [0]", 8192, 8192), "<test>");
  ASSERT_TRUE(graph) << graph.error().str();
  ASSERT_TRUE(inferShapes(*graph));
  auto program = lowerGraph(*graph);
  ASSERT_TRUE(program) << program.error().str();
  ASSERT_EQ(program->ops.size(), 2u) << program->str();
  const loop::LoopOp &blocks = program->ops[0], &total = program->ops[1];
  EXPECT_EQ(blocks.ranges, (std::vector<SymExpr>{32, 8192}));
  EXPECT_EQ(blocks.reductionRanges, (std::vector<SymExpr>{256}));
  EXPECT_EQ(blocks.body[0].index.str(), "8192*r0 + 2097152*x0 + x1");
  EXPECT_EQ(total.ranges, (std::vector<SymExpr>{8192}));
  EXPECT_EQ(total.reductionRanges, (std::vector<SymExpr>{32}));
  EXPECT_EQ(total.body[0].buffer, blocks.stores[0].buffer);
  EXPECT_EQ(program->buffers[blocks.stores[0].buffer].producer, 0);
  EXPECT_EQ(program->buffers[total.stores[0].buffer].producer, 1);
  EXPECT_TRUE(program->buffers[total.stores[0].buffer].isOutput);
  ASSERT_EQ(program->reductionSplits.size(), 1u);
  EXPECT_TRUE(program->reductionSplits[0].split);
  EXPECT_EQ(program->reductionSplits[0].splits, 32);
  auto fused = fuseLoopProgram(*program);
  ASSERT_TRUE(fused);
  std::string explain = fused->explain(*program);
  EXPECT_NE(explain.find("reduction splits:\n  split   op1 into 32 blocks: 8192 rows of 8192 "
                         "points, read across rows: 32 blocks of 256 give 262144 rows (op0 "
                         "reduces the blocks, op1 their partials)\n"),
            std::string::npos)
      << explain;
  EXPECT_EQ(fused->kernels.size(), 2u);

  // A second run changes nothing: its two ops are not split again, nothing is recorded twice,
  // even when splits are forced.
  std::string before = program->str();
  EXPECT_FALSE(splitReductions(*program));
  EXPECT_FALSE(splitReductions(*program, {.splits = 4}));
  EXPECT_EQ(program->str(), before);
  EXPECT_EQ(program->reductionSplits.size(), 1u);

  auto rows = parseFxText(reductionGraph("sum.dim_IntList", ", [1]", 8192, 8192), "<test>");
  ASSERT_TRUE(rows && inferShapes(*rows));
  auto kept = lowerGraph(*rows);
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->ops.size(), 1u);
  ASSERT_EQ(kept->reductionSplits.size(), 1u);
  EXPECT_FALSE(kept->reductionSplits[0].split);
  EXPECT_EQ(kept->reductionSplits[0].reason,
            "8192 rows of 8192 points fill the device (split under 512 rows)");
  EXPECT_FALSE(splitReductions(*kept));
  EXPECT_EQ(kept->reductionSplits.size(), 1u) << "a kept reduction was recorded twice";
}

// Option reduction-splits=1 keeps every reduction; small reductions are neither split nor
// recorded by size; kinds without a split form are recorded as kept.
TEST(SplitReductions, OptionAndKindsKept) {
  Compiled c;
  ASSERT_TRUE(compileWithSplits(reductionGraph("sum.dim_IntList", ", [0]", 8192, 8192), 1, c));
  EXPECT_EQ(c.program.ops.size(), 1u);
  EXPECT_TRUE(c.program.reductionSplits.empty());
  Compiled small;
  ASSERT_TRUE(compileWithSplits(reductionGraph("sum.dim_IntList", ", [0]", 64, 32), 0, small));
  EXPECT_EQ(small.program.ops.size(), 1u);
  EXPECT_TRUE(small.program.reductionSplits.empty());
  Compiled arg;
  ASSERT_TRUE(compileWithSplits(reductionGraph("argmax.default", ", 0", 64, 32), 4, arg));
  EXPECT_EQ(arg.program.ops.size(), 1u);
  ASSERT_EQ(arg.program.reductionSplits.size(), 1u);
  EXPECT_FALSE(arg.program.reductionSplits[0].split);
  EXPECT_EQ(arg.program.reductionSplits[0].reason,
            "no split form for argmax (its partials are more than one value)");
}

// Every kind that splits, over columns (read across rows) and over rows, in one graph whose
// column reductions share their kernels (a kernel build each costs seconds on PoCL and LLVM), on
// every loop backend against the reference interpreter. prod reads 1 + x / 256 (a product of 512
// of them stays near 1) and any reads x > 1.9 (a few points per column), both inlined.
TEST(SplitReductions, SameNumbersOnEveryBackend) {
  auto call = [](const std::string &name, const std::string &target, const std::string &args) {
    return "    %" + name + " : [num_users=1] = call_function[target=torch.ops.aten." + target +
           "](args = (" + args + "), kwargs = {})\n";
  };
  std::string text = "graph():\n"
                     "    %x : Tensor \"f32[512, 48][48, 1]cpu\" = placeholder[target=x]\n" +
                     call("s0", "sum.dim_IntList", "%x, [0]") + call("m0", "mean.dim", "%x, [0]") +
                     call("hi", "amax.default", "%x, [0]") + call("lo", "amin.default", "%x, [0]") +
                     call("d", "div.Tensor", "%x, 256") + call("n", "add.Tensor", "%d, 1") +
                     call("p0", "prod.dim_int", "%n, 0") + call("g", "gt.Scalar", "%x, 1.9") +
                     call("a0", "any.dim", "%g, 0") + call("s1", "sum.dim_IntList", "%x, [1]") +
                     "    return (s0, m0, hi, lo, p0, a0, s1)\n";
  expectSameEverywhere(text, {fromValues({512, 48}, values(512 * 48, 7))}, 4,
                       {1e-5, 1e-5, 0, 0, 1e-5, 0, 1e-5});
}
