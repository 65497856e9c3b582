/// The wrapper program as an FX graph: precomputed size arguments and their substitution on the
/// dynamic-shape workload (both directions), the pass pipeline and its errors, and a canonical,
/// re-parsing text form for every corpus graph.

#include "transforms/WrapperGraph.h"
#include "exporters/FxTextPrinter.h"
#include "importers/FxTextParser.h"
#include "importers/Import.h"
#include "ir/Verifier.h"
#include "transforms/CompilationState.h"
#include "transforms/Pass.h"
#include "transforms/SizeArgs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

using namespace fxkit;
namespace fs = std::filesystem;

namespace {

fs::path corpus(const std::string &rel) { return fs::path(FXKIT_TEST_DATA) / "corpus" / rel; }

Graph compiled(const fs::path &path, const std::vector<std::string> &passes) {
  auto graph = importGraphFile(path.string());
  EXPECT_TRUE(graph) << graph.error().str();
  auto runs = runPipeline(*graph, passes);
  EXPECT_TRUE(runs) << runs.error().str();
  return graph.take();
}

std::string kernelLine(const Graph &g) {
  std::string text = printFxText(g);
  size_t at = text.find("fxkit.kernel");
  EXPECT_NE(at, std::string::npos);
  size_t start = text.rfind('\n', at) + 1;
  return text.substr(start, text.find('\n', at) - start);
}

TEST(SizeArgs, ProductsOfSizesBecomeArguments) {
  loop::Kernel k;
  k.sizeArgs.push_back({"ks0", SymExpr::parse("s17*s27").take()});
  SymExpr index = SymExpr::parse("x0*s27*s17 + x1*s27 + x2 + s17*s27").take();
  EXPECT_EQ(useSizeArgs(index, k).str(),
            useSizeArgs(SymExpr::parse("ks0*x0 + s27*x1 + x2 + ks0").take(), k).str());
  std::string text = useSizeArgs(index, k).str();
  EXPECT_EQ(text.find("s17"), std::string::npos) << text;
  EXPECT_TRUE(isLoopVariable("x0"));
  EXPECT_TRUE(isLoopVariable("r12"));
  EXPECT_FALSE(isLoopVariable("s77"));
  EXPECT_FALSE(isLoopVariable("x"));
}

TEST(WrapperGraph, DynamicShapesHoistAndSubstituteSizeArguments) {
  fs::path path = corpus("inductor/dynamic_broadcast/aten_post_0.graph.txt");
  Graph hoisted = compiled(path, {"lower", "fuse", "wrapper"});
  // The kernel's row count s17*s77 (Inductor's `..._xnumel = s17*s77`) is computed once by the
  // wrapper and passed to the kernel; the sizes it indexes with are passed as they are.
  std::string text = printFxText(hoisted);
  EXPECT_NE(text.find("%mul : [num_users=1] = call_function[target=operator.mul](args = (%s17, "
                      "%s77), kwargs = {})"),
            std::string::npos)
      << text;
  EXPECT_EQ(kernelLine(hoisted),
            "    %fused_add_sum_mul_0 : [num_users=0] = call_function[target=fxkit.kernel](args "
            "= (), kwargs = {name: fused_add_sum_mul_0, launch: 0, args: {in_ptr0: %arg2_1, "
            "in_ptr1: %arg4_1, out_ptr0: %buf2, s17: %s17, s27: %s27, s77: %s77, xnumel: %mul, "
            "rnumel: %s27}, origins: [add_7, sum_1, mul_11]})");
  // The other direction: call arguments become the expressions they name, and the size
  // arithmetic no one reads any more is gone.
  Graph plain = compiled(path, {"lower", "fuse", "wrapper", "substitute-size-args"});
  EXPECT_EQ(kernelLine(plain),
            "    %fused_add_sum_mul_0 : [num_users=0] = call_function[target=fxkit.kernel](args "
            "= (), kwargs = {name: fused_add_sum_mul_0, launch: 0, args: {in_ptr0: %arg2_1, "
            "in_ptr1: %arg4_1, out_ptr0: %buf2, s17: %s17, s27: %s27, s77: %s77, xnumel: s17*s77, "
            "rnumel: %s27}, origins: [add_7, sum_1, mul_11]})");
  EXPECT_EQ(printFxText(plain).find("operator.mul"), std::string::npos);
  // Substituting again changes nothing.
  auto again = substituteSizeArgs(plain);
  ASSERT_TRUE(again);
  EXPECT_FALSE(*again);
}

TEST(WrapperGraph, ProductsInIndexExpressionsBecomeKsArguments) {
  // dynamic_broadcast with its broadcast sum's input also returned: the [s77, s17, s27]
  // buffer is stored at x0*s17*s27 + ..., so ks0 = s17*s27 is precomputed; substituting puts
  // the product back.
  const char *text = R"(graph():
    %a : Tensor "f32[s77, s27][s27, 1]cpu"[num_users=1] = placeholder[target=a]
    %b : Tensor "f32[s17, s27][s27, 1]cpu"[num_users=1] = placeholder[target=b]
    %ua : [num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%a, 1), kwargs = {})
    %ub : [num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%b, 0), kwargs = {})
    %s : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%ua, %ub), kwargs = {})
    return (s,)
)";
  auto graph = parseFxText(text, "<test>");
  ASSERT_TRUE(graph) << graph.error().str();
  ASSERT_TRUE(runPipeline(*graph, {"lower", "fuse", "wrapper"}));
  std::string hoisted = kernelLine(*graph);
  EXPECT_NE(hoisted.find("ks0: %mul"), std::string::npos) << hoisted;
  // The sizes come from the inputs' shapes (sym_size), the product is computed once.
  EXPECT_NE(printFxText(*graph).find("call_function[target=operator.mul](args = (%s17, %s27)"),
            std::string::npos)
      << printFxText(*graph);
  ASSERT_TRUE(runPipeline(*graph, {"substitute-size-args"}));
  std::string plain = kernelLine(*graph);
  EXPECT_NE(plain.find("ks0: s17*s27"), std::string::npos) << plain;
}

TEST(WrapperGraph, PipelineErrorsNameThePass) {
  fs::path path = corpus("reference/softmax/fw_0.graph.txt");
  auto graph = importGraphFile(path.string());
  ASSERT_TRUE(graph);
  auto early = runPipeline(*graph, {"fuse"});
  ASSERT_FALSE(early);
  EXPECT_NE(early.error().message.find("pass 'fuse': fuse needs a lowered graph"),
            std::string::npos)
      << early.error().message;
  auto unknown = runPipeline(*graph, {"lower", "frobnicate"});
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("unknown pass 'frobnicate'"), std::string::npos);
  auto twice = runPipeline(*graph, {"lower", "lower"});
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().message.find("already lowered"), std::string::npos);
}

TEST(WrapperGraph, EveryCorpusGraphCompilesToAReparsingWrapper) {
  std::vector<fs::path> graphs;
  for (const auto &e : fs::recursive_directory_iterator(corpus(""))) {
    std::string name = e.path().filename().string();
    if (name.ends_with(".graph.txt") &&
        (name.starts_with("aten_") || e.path().string().find("/reference/") != std::string::npos))
      graphs.push_back(e.path());
  }
  std::sort(graphs.begin(), graphs.end());
  ASSERT_GE(graphs.size(), 50u);
  for (const fs::path &p : graphs) {
    for (bool substitute : {false, true}) {
      SCOPED_TRACE(p.string() + (substitute ? " (substituted)" : ""));
      // Without and with a memory plan (pool offsets, in-place and reused buffers, frees).
      std::vector<std::string> passes{"lower", "fuse", "wrapper"};
      if (substitute)
        passes = {"lower", "fuse", "plan", "wrapper", "substitute-size-args"};
      Graph g = compiled(p, passes);
      ASSERT_TRUE(verifyGraph(g));
      // One call per kernel launch, and printing is canonical: parse(print(g)) == g.
      CompilationState *state = compilationState(g);
      ASSERT_TRUE(state && state->fused);
      size_t calls = 0;
      for (Node *n : g)
        calls += n->target() == "fxkit.kernel" || n->target() == "fxkit.extern";
      EXPECT_EQ(calls, state->fused->kernels.size());
      std::string text = printFxText(g);
      if (substitute && state->plan && !state->plan->symbolic && state->plan->poolBytes > 0) {
        EXPECT_NE(text.find("%pool : "), std::string::npos) << text.substr(0, 2000);
        EXPECT_NE(text.find("fxkit.alloc_from_pool"), std::string::npos);
      }
      auto reparsed = parseFxText(text, p.string());
      ASSERT_TRUE(reparsed) << reparsed.error().str();
      EXPECT_EQ(printFxText(*reparsed), text);
    }
  }
}

} // namespace
