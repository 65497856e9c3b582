/// Differential testing of the compiler on random graphs (tests/gen/): every seeded graph runs
/// on the reference interpreter (the oracle), as the compiled loop program, as the compiled
/// OpenCL program (PoCL here), and goes through every text format; any disagreement prints the
/// seed and a minimised graph. The minimised graphs of the bugs this found are regression
/// tests below.
///
/// FXKIT_DIFF_SEEDS=N and FXKIT_DIFF_FIRST=S choose the seeds (tests/differential/run-many.sh
/// runs thousands); FXKIT_DIFF_VERBOSE=1 prints each seed before it runs (to name a crash).

#include "tests/gen/Differential.h"
#include "tests/InterpreterTestSupport.h"
#include "tests/gen/RandomGraph.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <set>

using namespace fxkit;
using namespace fxkit::testing;

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

uint64_t envOr(const char *name, uint64_t fallback) {
  const char *v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

/// Checks one seed; on a failure reports the seed, the failure and the minimised graph.
bool checkSeed(uint64_t seed, const DifferentialOptions &options) {
  RandomGraph g = generateRandomGraph(seed);
  auto failure = checkGraphDifferentially(g.fxText, g.symbols, options);
  if (!failure)
    return true;
  std::string minimised = minimiseFailingGraph(g.fxText, g.symbols, *failure, options);
  std::string symbols;
  for (const auto &[name, value] : g.symbols)
    symbols += " " + name + "=" + std::to_string(value);
  ADD_FAILURE() << "seed " << seed << ": " << diffStageName(failure->stage) << ": "
                << failure->message << "\nsymbols:" << symbols << "\ngenerated graph:\n"
                << g.fxText << "minimised graph:\n"
                << minimised;
  return false;
}

TEST(Differential, RandomGraphsAgreeWithTheReferenceInterpreter) {
  // The sanitizer build runs a tenth: the same code paths, at ASan's speed.
  uint64_t count = envOr("FXKIT_DIFF_SEEDS", kSanitized ? 40 : 300);
  uint64_t first = envOr("FXKIT_DIFF_FIRST", 1);
  // OpenCL builds every kernel with PoCL (about 1.5 s per graph here): every 10th seed.
  uint64_t openclEvery = envOr("FXKIT_DIFF_OPENCL_EVERY", 10);
  bool verbose = envOr("FXKIT_DIFF_VERBOSE", 0) != 0;
  uint64_t failed = 0, onDevice = 0;
  for (uint64_t seed = first; seed < first + count; ++seed) {
    if (verbose)
      std::cerr << "seed " << seed << std::endl;
    DifferentialOptions options;
    options.opencl = haveOpenCLDevice() && openclEvery > 0 && seed % openclEvery == 0;
    onDevice += options.opencl;
    failed += !checkSeed(seed, options);
  }
  EXPECT_EQ(failed, 0u) << "of " << count << " seeds";
  std::cerr << "differential: " << count << " random graphs checked (" << onDevice
            << " also on OpenCL), " << failed << " failed\n";
}

/// Minimised graphs of the bugs the random graphs found, each checked on every backend.
struct Regression {
  const char *what;
  const char *fxText;
  SymExpr::Bindings symbols;
};

const Regression kRegressions[] = {
    // Seeds 195, 300, 729, 834, 1142, 1742, 1900: a cat input's producer inlined into the cat
    // read it at the right flat position but the wrong coordinates (the cat's start offset
    // spread over the dimensions largest stride first), so a broadcast operand of the producer
    // (b, [4, 1]) was read at row x0 - 2. transforms/Lowering.cpp invertStore.
    {"cat of a computed input along the last dim",
     R"(graph():
    %x : Tensor "f32[4, 4][4, 1]cpu"[num_users=1] = placeholder[target=x]
    %y : Tensor "f32[4, 3][3, 1]cpu"[num_users=1] = placeholder[target=y]
    %a : Tensor "f32[4, 4][4, 1]cpu"[num_users=1] = placeholder[target=a]
    %b : Tensor "f32[4, 1][1, 1]cpu"[num_users=1] = placeholder[target=b]
    %div : [num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%a, %b), kwargs = {})
    %cat : [num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%y, %x, %div], 1), kwargs = {})
    return (cat,)
)",
     {}},
    {"cat of a cat, symbolic rows",
     R"(graph():
    %a : Tensor "f32[s0, 4][5, 1]cpu"[num_users=1] = placeholder[target=a]
    %b : Tensor "f32[][]cpu"[num_users=1] = placeholder[target=b]
    %c : Tensor "b8[s0, 3][3, 1]cpu"[num_users=1] = placeholder[target=c]
    %gt : [num_users=1] = call_function[target=torch.ops.aten.gt.Tensor](args = (%a, %b), kwargs = {})
    %cat : [num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%gt, %gt], 1), kwargs = {})
    %cat2 : [num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%c, %cat], 1), kwargs = {})
    return (cat2,)
)",
     {{"s0", 5}}},
    // Seed 7723: a select of a cat read inside another cat: offset 4 = 3*2 (the select)
    // - 2 (the outer cat's start) over strides [15, 3, 1]; both the old "largest stride first"
    // split (1, x1 + 1) and "all on the cat dim" (x1 + 4) read the wrong cat input. Only the
    // in-bounds split (2, x1 - 2) is right; ambiguous offsets are no longer inlined.
    {"select of a cat inside a cat",
     R"(graph():
    %a : Tensor "b8[s0, 1, 3][3, 3, 1]cpu"[num_users=2] = placeholder[target=a]
    %b : Tensor "b8[s0, 3, 3][9, 3, 1]cpu"[num_users=1] = placeholder[target=b]
    %c : Tensor "b8[s0, 2][2, 1]cpu"[num_users=1] = placeholder[target=c]
    %cat : [num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%a, %b, %a], -2), kwargs = {})
    %select : [num_users=1] = call_function[target=torch.ops.aten.select.int](args = (%cat, 1, -3), kwargs = {})
    %cat2 : [num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%c, %select], 1), kwargs = {})
    return (cat2,)
)",
     {{"s0", 3}}},
    // Seeds 22, 28, 46, 60, 82, ...: reducing only size-1 dimensions gave a reduction without
    // reduction ranges, which no OpenCL kernel could place ("op0 does not fit its iteration
    // space"). transforms/Lowering.cpp, ir/loop/KernelPlacement.cpp groupOnto.
    {"sum over a size-1 dim",
     R"(graph():
    %x : Tensor "f32[1, 4][0, 1]cpu"[num_users=1] = placeholder[target=x]
    %sum : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%x, [0], True), kwargs = {})
    return (sum,)
)",
     {}},
    {"var_mean over a size-1 dim",
     R"(graph():
    %x : Tensor "f32[1, 2, 8][1, 1, 2]cpu"[num_users=1] = placeholder[target=x]
    %vm : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%x, [0]), kwargs = {correction: 0, keepdim: True})
    %v : [num_users=1] = call_function[target=operator.getitem](args = (%vm, 0), kwargs = {})
    %m : [num_users=1] = call_function[target=operator.getitem](args = (%vm, 1), kwargs = {})
    %amax : [num_users=1] = call_function[target=torch.ops.aten.amax.default](args = (%x, [0, 1]), kwargs = {})
    return (v, m, amax)
)",
     {}},
    // Seeds 38, 56, 58: addmm's bias [1, 1] with row stride 3 was copied by CLBlast with that
    // stride over 2 rows, past the end of the bias (CLBlast status -1011). A size-1 dimension
    // broadcasts whatever its stride. backends/opencl/runtime/BlasExtern.cpp fillWithBias.
    {"addmm with a size-1 bias of odd strides",
     R"(graph():
    %b : Tensor "f32[1, 1][3, 1]cpu"[num_users=1] = placeholder[target=b]
    %x : Tensor "f32[2, 7][7, 1]cpu"[num_users=1] = placeholder[target=x]
    %w : Tensor "f32[7, 1][1, 7]cpu"[num_users=1] = placeholder[target=w]
    %c : Tensor "f32[1, 5][9, 1]cpu"[num_users=1] = placeholder[target=c]
    %w2 : Tensor "f32[7, 5][5, 1]cpu"[num_users=1] = placeholder[target=w2]
    %addmm : [num_users=1] = call_function[target=torch.ops.aten.addmm.default](args = (%b, %x, %w), kwargs = {beta: 0.5, alpha: 2})
    %addmm2 : [num_users=1] = call_function[target=torch.ops.aten.addmm.default](args = (%c, %x, %w2), kwargs = {})
    return (addmm, addmm2)
)",
     {}},
};

TEST(Differential, RegressionsFoundByRandomGraphs) {
  for (const Regression &r : kRegressions) {
    SCOPED_TRACE(r.what);
    DifferentialOptions options; // every backend
    auto failure = checkGraphDifferentially(r.fxText, r.symbols, options);
    EXPECT_FALSE(failure) << diffStageName(failure->stage) << ": " << failure->message;
  }
}

/// FX (Graph.lint, and so verifyGraph) lets a placeholder follow other nodes: the graph's inputs
/// are its placeholders in program order wherever they stand, and the symbols of every input's
/// type are bound before any node runs. By hand, with s0 = 2, x = [[0, 1, 2], [3, 4, 5]] and
/// y = [10, 20, 30]: x * 2 + y = [[10, 22, 34], [16, 28, 40]]; the loop interpreter, OpenCL and
/// LLVM agree with the reference interpreter. (Formats are checked on such graphs in
/// FxTextTest and FxCaptureTest: the Python form binds every placeholder at the top.)
TEST(Differential, PlaceholdersAfterOtherNodes) {
  const std::string text = R"(graph():
    %full : [num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([3], 2.0), kwargs = {dtype: torch.float32, device: cpu, pin_memory: False})
    %x : Tensor "f32[s0, 3][3, 1]cpu"[num_users=1] = placeholder[target=x]
    %mul : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, %full), kwargs = {})
    %y : Tensor "f32[3][1]cpu"[num_users=1] = placeholder[target=y]
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul, %y), kwargs = {})
    return (add,)
)";
  std::vector<RuntimeValue> inputs = {RuntimeValue{fromValues({2, 3}, {0, 1, 2, 3, 4, 5})},
                                      RuntimeValue{fromValues({3}, {10, 20, 30})}};
  auto r = runText(text, inputs);
  ASSERT_TRUE(r) << r.error().str();
  ASSERT_EQ(r->outputs.size(), 1u);
  ASSERT_TRUE(r->outputs[0].tensor());
  expectValues(*r->outputs[0].tensor(), {10, 22, 34, 16, 28, 40});
  EXPECT_EQ(r->bindings.at("s0"), 2);
  DifferentialOptions options;
  options.llvm = true;
  options.formats = false;
  options.inputs = &inputs;
  auto failure = checkGraphDifferentially(text, {{"s0", 2}}, options);
  EXPECT_FALSE(failure) << diffStageName(failure->stage) << ": " << failure->message;
}

TEST(Differential, GeneratorIsDeterministicAndCoversEveryOpFamily) {
  std::set<std::string> targets;
  bool symbolic = false, permuted = false, f16 = false, i64 = false, boolean = false;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    RandomGraph a = generateRandomGraph(seed), b = generateRandomGraph(seed);
    ASSERT_EQ(a.fxText, b.fxText) << "seed " << seed;
    symbolic |= !a.symbols.empty();
    f16 |= a.fxText.find("f16[") != std::string::npos;
    i64 |= a.fxText.find("i64[") != std::string::npos;
    boolean |= a.fxText.find("torch.bool") != std::string::npos;
    size_t at = 0;
    while ((at = a.fxText.find("target=", at)) != std::string::npos) {
      size_t end = a.fxText.find(']', at);
      targets.insert(a.fxText.substr(at + 7, end - at - 7));
      at = end;
    }
    // A permuted input: strides not decreasing.
    permuted |= a.fxText.find("][1, ") != std::string::npos;
  }
  EXPECT_TRUE(symbolic && permuted && f16 && i64 && boolean);
  for (const char *t : {"torch.ops.aten.add.Tensor",
                        "torch.ops.aten.mul.Tensor",
                        "torch.ops.aten.div.Tensor",
                        "torch.ops.aten.where.self",
                        "torch.ops.aten.gt.Scalar",
                        "torch.ops.aten.lt.Tensor",
                        "torch.ops.prims.convert_element_type.default",
                        "torch.ops.aten.exp.default",
                        "torch.ops.aten.sum.dim_IntList",
                        "torch.ops.aten.mean.dim",
                        "torch.ops.aten.amax.default",
                        "torch.ops.aten.var_mean.correction",
                        "torch.ops.aten.view.default",
                        "torch.ops.aten.reshape.default",
                        "torch.ops.aten.permute.default",
                        "torch.ops.aten.expand.default",
                        "torch.ops.aten.unsqueeze.default",
                        "torch.ops.aten.squeeze.dim",
                        "torch.ops.aten.select.int",
                        "torch.ops.aten.split.Tensor",
                        "torch.ops.aten.cat.default",
                        "torch.ops.aten.mm.default",
                        "torch.ops.aten.bmm.default",
                        "torch.ops.aten.addmm.default",
                        "operator.getitem"})
    EXPECT_TRUE(targets.count(t)) << t << " never generated";
}

TEST(Differential, TheMinimiserKeepsTheSmallestGraphThatStillFails) {
  // An injected "bug": any graph with an exp fails to compile. The minimiser must cut a
  // random graph down to the exp alone, fed by a placeholder.
  DifferentialOptions options;
  options.opencl = false;
  options.injectedBug = [](const std::string &text) -> std::optional<std::string> {
    if (text.find("aten.exp.default") != std::string::npos)
      return "exp is broken";
    return std::nullopt;
  };
  int minimised = 0;
  for (uint64_t seed = 1; seed < 400 && minimised < 3; ++seed) {
    RandomGraph g = generateRandomGraph(seed);
    auto failure = checkGraphDifferentially(g.fxText, g.symbols, options);
    if (!failure)
      continue;
    ASSERT_EQ(failure->stage, DiffStage::Compile) << failure->message;
    std::string small = minimiseFailingGraph(g.fxText, g.symbols, *failure, options);
    SCOPED_TRACE(g.fxText + "minimised to\n" + small);
    size_t calls = 0, at = 0;
    while ((at = small.find("call_function", at)) != std::string::npos)
      ++calls, ++at;
    EXPECT_EQ(calls, 1u);
    EXPECT_NE(small.find("aten.exp.default"), std::string::npos);
    ++minimised;
  }
  EXPECT_EQ(minimised, 3);
}

} // namespace
