/// Fusion's bound on recomputation (FusionOptions::maxRecompute, pass option max-recompute): a
/// chain of row reductions, each pass over the reduced points of one kernel making again every
/// value of the chain before it, is split into kernels with the reason recorded, and the OpenCL C
/// of its kernels stays the same size however long the chain (it grew with the square of the
/// chain: 0.6 to 1.2 MB a kernel for tests/browser/gen-large-graph.sh 1000).

#include "FusionTestSupport.h"
#include "InterpreterTestSupport.h"
#include "backends/interp/LoopInterpreter.h"
#include "backends/opencl/codegen/OpenCLKernelGen.h"
#include "importers/FxTextParser.h"
#include "transforms/CompilationState.h"
#include "transforms/Fusion.h"
#include "transforms/Lowering.h"
#include "transforms/Pipeline.h"
#include "transforms/ShapeInference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

using namespace fxkit;
using namespace fxkit::loop;
using namespace fxkit::testing;

namespace {

/// One residual block of gen-large-graph.sh over f32[4, 8]: x = x + tanh(relu(x * w + b) -
/// mean(relu(x * w + b), 1)) * 0.5. `K` is the block's number, `X` its input.
const char *kBlock =
    R"(    %w_K : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = placeholder[target=w_K]
    %b_K : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = placeholder[target=b_K]
    %mul_K : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%X, %w_K), kwargs = {})
    %add_K : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_K, %b_K), kwargs = {})
    %relu_K : [num_users=2] = call_function[target=torch.ops.aten.relu.default](args = (%add_K,), kwargs = {})
    %mean_K : [num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%relu_K, [1], True), kwargs = {})
    %sub_K : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%relu_K, %mean_K), kwargs = {})
    %tanh_K : [num_users=1] = call_function[target=torch.ops.aten.tanh.default](args = (%sub_K,), kwargs = {})
    %half_K : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%tanh_K, 0.5), kwargs = {})
    %res_K : [num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%X, %half_K), kwargs = {})
)";

/// `blocks` blocks of kBlock in a chain.
std::string chain(int blocks) {
  std::string text = "graph():\n    %x : Tensor \"f32[4, 8][8, 1]cpu\"[num_users=2] = "
                     "placeholder[target=x]\n";
  std::string input = "x";
  for (int k = 0; k < blocks; ++k) {
    std::string block = kBlock;
    for (size_t at; (at = block.find("_K")) != std::string::npos;)
      block.replace(at, 2, "_" + std::to_string(k));
    for (size_t at; (at = block.find("%X")) != std::string::npos;)
      block.replace(at, 2, "%" + input);
    text += block;
    input = "res_" + std::to_string(k);
  }
  return text + "    return (" + input + ",)\n";
}

using Compiled = FusedText;

Compiled compile(std::string_view text, FusionOptions options = {}) {
  return fuseText(text, options);
}

/// The refusals for recomputing too much.
std::vector<const FusionDecision *> recomputeRefusals(const FusedProgram &f) {
  std::vector<const FusionDecision *> out;
  for (const FusionDecision &d : f.decisions)
    if (!d.fused && d.reason.starts_with("would recompute too much: "))
      out.push_back(&d);
  return out;
}

/// The OpenCL C of each distinct kernel definition, by name.
std::map<std::string, std::string> definitions(const Compiled &c) {
  auto generated = opencl::generateOpenCL(c.program, c.fused);
  EXPECT_TRUE(generated) << (generated ? "" : generated.error().str());
  std::map<std::string, std::string> out;
  if (generated)
    for (const opencl::GeneratedKernel &k : generated->launches)
      if (!k.name.empty())
        out[k.name] = k.source;
  return out;
}

size_t largest(const std::map<std::string, std::string> &defs) {
  size_t most = 0;
  for (const auto &[name, source] : defs)
    most = std::max(most, source.size());
  return most;
}

/// How many times `text` holds `what`.
size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

TEST(FusionRecompute, AReductionChainIsSplitWithTheReason) {
  Compiled c = compile(chain(16));
  // Three loop ops a block: mul-add-relu (at every point), the mean, sub-tanh-mul-add.
  ASSERT_EQ(c.program.ops.size(), 48u);
  // Unbounded, all 48 would be one kernel (64 ops at most). Pass p of that kernel makes again
  // the 2p - 3 ops of the chain before it: the fourth, 5 ops of 36 instructions, is the first
  // past 32. The op that would open it starts the next kernel.
  std::vector<const FusionDecision *> refused = recomputeRefusals(c.fused);
  ASSERT_FALSE(refused.empty());
  EXPECT_EQ(refused.front()->op, "op8");
  EXPECT_EQ(refused.front()->kernelOp, "op0");
  EXPECT_EQ(refused.front()->reason,
            "would recompute too much: the kernel's pass 4 over reduced points would make again "
            "36 instructions of 5 ops that earlier passes made and that never leave the kernel "
            "(limit 32)");
  for (const FusionDecision *d : refused) {
    bool starts = false;
    for (const Kernel &k : c.fused.kernels)
      starts = starts || c.program.ops[k.ops.front()].name == d->op;
    EXPECT_TRUE(starts) << d->op << " does not start a kernel";
  }
  // The OpenCL C makes again what the limit allows: one comment per op made again in each
  // printed form of a pass (persistent, 4 vector copies, looped). The first kernel's passes 2 and
  // 3 make again 1 and 3 ops; the next ones start at a block's second half: 2 and 4.
  // (Unbounded, the 16 blocks' one kernel makes again 1, 3, ..., 31 ops: 6 * 256 comments.)
  for (const auto &[name, source] : definitions(c))
    EXPECT_LE(count(source, "// recomputed where it is read"), 6u * (2 + 4)) << name;
}

TEST(FusionRecompute, KernelTextDoesNotGrowWithTheChain) {
  FusionOptions unbounded;
  unbounded.maxRecompute = SIZE_MAX;
  auto bounded16 = definitions(compile(chain(16)));
  auto bounded32 = definitions(compile(chain(32)));
  auto unbounded8 = definitions(compile(chain(8), unbounded));
  auto unbounded16 = definitions(compile(chain(16), unbounded));
  // Bounded: the same kernel definitions however long the chain.
  EXPECT_EQ(largest(bounded16), largest(bounded32));
  EXPECT_EQ(bounded16.size(), bounded32.size());
  // Unbounded, one kernel's text grows with the square of its chain: twice the blocks, more
  // than three times the text (it was 0.6 to 1.2 MB a kernel at 20 blocks).
  ASSERT_EQ(unbounded16.size(), 1u);
  EXPECT_EQ(count(unbounded16.begin()->second, "// recomputed where it is read"), 6u * 256);
  EXPECT_GT(largest(unbounded16), 3 * largest(unbounded8));
  EXPECT_GT(largest(unbounded16), 3 * largest(bounded16));
}

TEST(FusionRecompute, TheSplitChainComputesWhatTheGraphDoes) {
  std::string text = chain(16);
  Compiled c = compile(text);
  ASSERT_GT(c.fused.kernels.size(), 1u);
  std::vector<RuntimeValue> in;
  for (size_t i = 0; i < 1 + 2 * 16; ++i) {
    std::vector<double> v(32);
    for (size_t j = 0; j < v.size(); ++j)
      v[j] = std::sin(0.37 * static_cast<double>(i * 32 + j)); // some negative: relu matters
    in.push_back(RuntimeValue{fromValues({4, 8}, v)});
  }
  auto want = runText(text, in);
  ASSERT_TRUE(want) << want.error().str();
  auto got = interpretLoopProgram(c.program, c.fused, in);
  ASSERT_TRUE(got) << got.error().str();
  ASSERT_EQ(got->outputs.size(), 1u);
  expectValues(*got->outputs[0].tensor(), flat(*want->outputs[0].tensor()), 1e-5);
}

TEST(FusionRecompute, TheLimitIsAnOptionOfFuse) {
  auto kernels = [](const char *limit) -> Expected<size_t> {
    auto graph = parseFxText(chain(16), "<test>");
    EXPECT_TRUE(graph);
    PipelineSpec spec = PipelineSpec::toKernels();
    if (limit)
      spec.options.set("max-recompute", limit);
    auto result = compile(*graph, spec);
    if (!result)
      return result.takeError();
    return result->state->fused->kernels.size();
  };
  auto byDefault = kernels(nullptr);
  ASSERT_TRUE(byDefault) << byDefault.error().str();
  auto unbounded = kernels("1000000");
  ASSERT_TRUE(unbounded) << unbounded.error().str();
  EXPECT_EQ(*unbounded, 1u);
  EXPECT_GT(*byDefault, 1u);
  auto bad = kernels("-1");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "pass 'fuse': pass option 'max-recompute': expected a number of "
                                 "instructions (0 or more)");
}

} // namespace
