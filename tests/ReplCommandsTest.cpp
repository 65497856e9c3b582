// Golden tests of the REPL's inspection and rewriting commands (why, find kernel=, diff, insert,
// set-meta, replace-pattern, render, bench), of Ctrl-C rolling back, and of tab completion.
#include "repl/ReplCommands.h"
#include "CorpusTestSupport.h"
#include "exporters/FxTextPrinter.h"
#include "importers/FxTextParser.h"
#include "importers/Import.h"
#include "repl/DiffCommand.h"
#include "repl/ReplCompletion.h"
#include "repl/ReplInspect.h"
#include "repl/ReplLexer.h"
#include "repl/ReplRewrite.h"
#include "repl/ReplSession.h"
#include "repl/ReplShell.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace fxkit;

namespace {

/// x (f32) and y (f16) in; relu is dead, add has two users.
constexpr std::string_view kGraph = R"(graph():
    %x : Tensor "f32[4, 8][8, 1]cpu"[num_users=2] = placeholder[target=x]
    %y : Tensor "f16[4, 8][8, 1]cpu"[num_users=1] = placeholder[target=y]
    %mul : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, %x), kwargs = {})
    %convert : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%y, torch.float32), kwargs = {})
    %add : Tensor "f32[4, 8][8, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul, %x), kwargs = {})
    %relu : Tensor "f32[4, 8][8, 1]cpu"[num_users=0] = call_function[target=torch.ops.aten.relu.default](args = (%add,), kwargs = {})
    %add_1 : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add, %convert), kwargs = {})
    return (add_1,)
)";

/// A reduction (sum over rows) between pointwise ops: fusion has decisions to explain.
constexpr std::string_view kReduction = R"(graph():
    %x : Tensor "f32[8, 16][16, 1]cpu"[num_users=1] = placeholder[target=x]
    %exp : Tensor "f32[8, 16][16, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.exp.default](args = (%x,), kwargs = {})
    %sum_1 : Tensor "f32[8, 1][1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%exp, [1], True), kwargs = {})
    %div : Tensor "f32[8, 16][16, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%exp, %sum_1), kwargs = {})
    return (div,)
)";

class ReplCommands : public ::testing::Test {
protected:
  void SetUp() override { add("g", kGraph); }
  void add(const std::string &name, std::string_view text) {
    auto g = importGraph(text, GraphFormat::FxText, name + ".graph.txt");
    ASSERT_TRUE(g) << g.error().str();
    session.addGraph(name, "", g.take());
  }
  /// Output of one line; its errors land in lastErr.
  std::string run(std::string_view line) {
    out.str("");
    err.str("");
    lastOk = session.runLine(line);
    lastErr = err.str();
    return out.str();
  }
  std::string text() { return run("show"); }

  std::ostringstream out, err;
  // Status lines (renamed, N of M nodes match) merged with the results, in order: these
  // goldens read both; tests below and tests/cli/scripting.sh check that fxkit splits them.
  ReplSession session{out, err, &out};
  std::string lastErr;
  bool lastOk = true;
};

TEST_F(ReplCommands, WhyExplainsFusionDecisions) {
  add("softmax", kReduction);
  std::string why = run("why div");
  EXPECT_TRUE(lastOk) << lastErr;
  EXPECT_TRUE(why.starts_with("div: computed by op")) << why;
  EXPECT_NE(why.find("(kernel fused_"), std::string::npos) << why;
  EXPECT_NE(why.find("fused   "), std::string::npos) << why;
  EXPECT_NE(why.find(" bytes saved): "), std::string::npos) << why;
  EXPECT_EQ(run("why x"), "x: no loop op computes it (a graph input)\n");
  run("why nope");
  EXPECT_EQ(lastErr, "error: no node named 'nope' in graph 'softmax'\n");
}

TEST_F(ReplCommands, FindKernel) {
  add("softmax", kReduction);
  std::string all = run("find kernel=fused_*");
  EXPECT_TRUE(lastOk) << lastErr;
  EXPECT_TRUE(all.ends_with("3 of 5 nodes match\n")) << all;
  EXPECT_EQ(run("find kernel=nothing_*"), "0 of 5 nodes match\n");
  EXPECT_EQ(run("find kernel!=fused_* kind=call_function"), "0 of 5 nodes match\n");
}

TEST_F(ReplCommands, DiffOfVersionsIsCanonical) {
  run("diff");
  EXPECT_EQ(lastErr, "error: '@-1': the undo history of 'g' has fewer than 1 edits\n");
  run("erase relu; rename add_1 out");
  EXPECT_TRUE(lastOk) << lastErr;
  // The renamed node is followed by its structure (the same op over the same inputs), so the
  // output node, which returns it, is unchanged.
  EXPECT_EQ(run("diff"), R"(--- g@-1 (7 nodes)
+++ g (7 nodes)
= add_1 -> out (structure)
summary: 7 pairs (provenance 0, name 6, structure 1, region 0), 0 changed, 1 renamed, 0 regions, 0 removed, 0 added; call nodes paired: 4 of 4 (100.0%) and 4 of 4 (100.0%)
)");
  EXPECT_EQ(run("diff @-2"), R"(--- g@-2 (8 nodes)
+++ g (7 nodes)
- %relu : Tensor "f32[4, 8][8, 1]cpu" = call_function[target=torch.ops.aten.relu.default](args = (%add,), kwargs = {})
= add_1 -> out (structure)
summary: 7 pairs (provenance 0, name 6, structure 1, region 0), 0 changed, 1 renamed, 0 regions, 1 removed, 0 added; call nodes paired: 4 of 5 (80.0%) and 4 of 4 (100.0%)
)");
  const std::string same = "no differences\nsummary: 8 pairs (provenance 0, name 8, structure 0, "
                           "region 0), 0 changed, 0 renamed, 0 regions, 0 removed, 0 added; call "
                           "nodes paired: 5 of 5 (100.0%) and 5 of 5 (100.0%)\n";
  EXPECT_EQ(run("diff g@-2 g@-2"), "--- g@-2 (8 nodes)\n+++ g@-2 (8 nodes)\n" + same);
  add("h", kGraph);
  EXPECT_EQ(run("diff g@-2 h"), "--- g@-2 (8 nodes)\n+++ h (8 nodes)\n" + same);
  run("diff @0");
  EXPECT_EQ(lastErr,
            "error: bad graph version '@0': expected NAME@-N or @-N (N edits ago, N >= 1)\n");
}

TEST_F(ReplCommands, InsertFxTextAndPythonLines) {
  std::string before = text();
  EXPECT_EQ(run("insert after convert: %neg = call_function[target=torch.ops.aten.neg.default]("
                "args = (%convert,), kwargs = {})"),
            "inserted neg after convert : f32[4, 8][8, 1]cpu\n")
      << lastErr;
  EXPECT_EQ(run("insert before add_1: r = aten.relu.default(neg)"),
            "inserted r before add_1 : f32[4, 8][8, 1]cpu\n")
      << lastErr;
  EXPECT_EQ(run("show r"), "%r : Tensor \"f32[4, 8][8, 1]cpu\"[num_users=0] = "
                           "call_function[target=torch.ops.aten.relu.default](args = (%neg,), "
                           "kwargs = {})\ntype: f32[4, 8][8, 1]cpu\n");
  // Inputs after the insertion point: the verifier refuses, the graph is as it was.
  run("insert before x: bad = torch.ops.aten.neg.default(add)");
  EXPECT_NE(lastErr.find("does not verify"), std::string::npos) << lastErr;
  run("insert after add: add = torch.ops.aten.neg.default(x)");
  EXPECT_EQ(lastErr, "error: a node named 'add' exists already\n");
  run("insert after add: z = torch.ops.aten.neg.default(nope)");
  EXPECT_NE(lastErr.find("nope"), std::string::npos) << lastErr;
  run("insert after add: z = torch.ops.aten.frob.default(x)");
  EXPECT_NE(lastErr.find("frob"), std::string::npos) << lastErr;
  run("insert after add: z = torch.ops.aten.mm.default(x, y)");
  EXPECT_FALSE(lastOk);
  run("insert sideways add: z = torch.ops.aten.neg.default(x)");
  EXPECT_EQ(lastErr, "error: usage: insert after|before NODE: LINE\n");
  run("undo; undo");
  EXPECT_EQ(text(), before);
}

TEST_F(ReplCommands, SetMeta) {
  EXPECT_EQ(run("set-meta relu val f16[4, 8][8, 1]cpu"), "set relu val = f16[4, 8][8, 1]cpu\n");
  EXPECT_EQ(run("set-meta %x python_type torch.nn.parameter.Parameter"),
            "set x python_type = torch.nn.parameter.Parameter\n");
  EXPECT_EQ(run("set-meta relu type none"), "set relu type = none\n");
  EXPECT_TRUE(text().find("%relu : [num_users=0]") != std::string::npos) << text();
  run("set-meta relu stack_trace 'File x.py'");
  EXPECT_EQ(lastErr, "error: the IR keeps no 'stack_trace' metadata (keys: val (alias type), "
                     "python_type)\n");
  run("set-meta relu val f99[4]");
  EXPECT_NE(lastErr.find("bad value for val: 'f99[4]'"), std::string::npos) << lastErr;
  EXPECT_EQ(run("undo"), "undone: set-meta relu type none\n");
}

constexpr std::string_view kPattern = R"(graph():
    %a : [num_users=1] = placeholder[target=a]
    %m : [num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%a,), kwargs = {})
    %r : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%m,), kwargs = {})
    return r
)";
constexpr std::string_view kReplacement = R"(graph():
    %a : [num_users=1] = placeholder[target=a]
    %c : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%a, -1), kwargs = {})
    %n : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%c,), kwargs = {})
    return n
)";
/// relu(neg(.)) (rewritten to relu(mul(., -1))) three times: twice rewritable (one feeding the
/// next), once with neg used outside the match.
constexpr std::string_view kChains = R"(graph():
    %x : Tensor "f32[4][1]cpu"[num_users=1] = placeholder[target=x]
    %neg : Tensor "f32[4][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%x,), kwargs = {})
    %relu : Tensor "f32[4][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%neg,), kwargs = {})
    %neg_1 : Tensor "f32[4][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%relu,), kwargs = {})
    %relu_1 : Tensor "f32[4][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%neg_1,), kwargs = {})
    %neg_2 : Tensor "f32[4][1]cpu"[num_users=2] = call_function[target=torch.ops.aten.neg.default](args = (%relu_1,), kwargs = {})
    %relu_2 : Tensor "f32[4][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%neg_2,), kwargs = {})
    return (relu_2, neg_2)
)";

TEST(ReplacePattern, RewritesNonOverlappingMatches) {
  auto graph = parseFxText(kChains);
  auto pattern = parseFxText(kPattern);
  auto replacement = parseFxText(kReplacement);
  ASSERT_TRUE(graph && pattern && replacement);
  auto report = replacePattern(*graph, *pattern, *replacement);
  ASSERT_TRUE(report) << report.error().str();
  EXPECT_EQ(report->replaced, 2u);
  EXPECT_EQ(report->refusedEscaping, 1u);
  FxTextOptions typed;
  typed.tensorTypes = true;
  EXPECT_EQ(printFxText(*graph, typed), R"(graph():
    %x : Tensor "f32[4][1]cpu"[num_users=1] = placeholder[target=x]
    %c : Tensor "f32[4][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, -1), kwargs = {})
    %n : Tensor "f32[4][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%c,), kwargs = {})
    %c_1 : Tensor "f32[4][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%n, -1), kwargs = {})
    %n_1 : Tensor "f32[4][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%c_1,), kwargs = {})
    %neg_2 : Tensor "f32[4][1]cpu"[num_users=2] = call_function[target=torch.ops.aten.neg.default](args = (%n_1,), kwargs = {})
    %relu_2 : Tensor "f32[4][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%neg_2,), kwargs = {})
    return (relu_2, neg_2))");
}

TEST(ReplacePattern, RefusesMismatchedInterfaces) {
  auto graph = parseFxText(kChains);
  auto pattern = parseFxText(kPattern);
  auto twoInputs = parseFxText(R"(graph():
    %a : [num_users=1] = placeholder[target=a]
    %b : [num_users=1] = placeholder[target=b]
    %s : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%a, %b), kwargs = {})
    return s
)");
  auto twoOutputs = parseFxText(R"(graph():
    %a : [num_users=2] = placeholder[target=a]
    %n : [num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%a,), kwargs = {})
    return (n, a)
)");
  ASSERT_TRUE(graph && pattern && twoInputs && twoOutputs);
  auto r = replacePattern(*graph, *pattern, *twoInputs);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "the pattern has 1 placeholders and the replacement 2; they must "
                               "have the same inputs");
  r = replacePattern(*graph, *twoOutputs, *pattern);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "the pattern returns 2 values and the replacement 1; they must "
                               "have the same outputs");
}

TEST(ReplacePattern, SeveralOutputs) {
  // neg and relu of one input, both returned: siblings, found from the first one's input.
  auto graph = parseFxText(R"(graph():
    %x : Tensor "f32[4][1]cpu"[num_users=2] = placeholder[target=x]
    %neg : Tensor "f32[4][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%x,), kwargs = {})
    %relu : Tensor "f32[4][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})
    %add : Tensor "f32[4][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%neg, %relu), kwargs = {})
    return (add,)
)");
  auto pattern = parseFxText(R"(graph():
    %a : [num_users=2] = placeholder[target=a]
    %n : [num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%a,), kwargs = {})
    %r : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%a,), kwargs = {})
    return (n, r)
)");
  auto replacement = parseFxText(R"(graph():
    %a : [num_users=2] = placeholder[target=a]
    %r : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%a,), kwargs = {})
    %n : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%a, -1), kwargs = {})
    return (n, r)
)");
  ASSERT_TRUE(graph && pattern && replacement);
  auto report = replacePattern(*graph, *pattern, *replacement);
  ASSERT_TRUE(report) << report.error().str();
  EXPECT_EQ(report->replaced, 1u);
  FxTextOptions typed;
  typed.tensorTypes = true;
  EXPECT_EQ(printFxText(*graph, typed), R"(graph():
    %x : Tensor "f32[4][1]cpu"[num_users=2] = placeholder[target=x]
    %r : Tensor "f32[4][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})
    %n : Tensor "f32[4][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, -1), kwargs = {})
    %add : Tensor "f32[4][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%n, %r), kwargs = {})
    return (add,))");
}

TEST_F(ReplCommands, ReplacePatternFromFiles) {
  std::string dir = std::string(FXKIT_TEST_DATA) + "/repl/";
  std::string before = text();
  EXPECT_EQ(run("replace-pattern " + dir + "square_add.pattern.graph.txt " + dir +
                "square_add.replacement.graph.txt"),
            "replaced 1 match\n")
      << lastErr;
  // The replaced mul and what replaced it are one region (same input, same user); the add
  // that read it is the same op over paired inputs, renamed; relu and add_1 read it, unchanged.
  EXPECT_EQ(
      run("diff"),
      "--- g@-1 (8 nodes)\n+++ g (8 nodes)\n"
      "~ mul -> sq (region): target, args\n"
      "    - %mul : Tensor \"f32[4, 8][8, 1]cpu\" = "
      "call_function[target=torch.ops.aten.mul.Tensor](args = (%x, %x), kwargs = {})\n"
      "    + %sq : Tensor \"f32[4, 8][8, 1]cpu\" = "
      "call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%x, 2), kwargs = {})\n"
      "= add -> sum (structure)\n"
      "summary: 8 pairs (provenance 0, name 6, structure 1, region 1), 1 changed, 1 renamed, 0 "
      "regions, 0 removed, 0 added; call nodes paired: 5 of 5 (100.0%) and 5 of 5 (100.0%)\n");
  // Nothing left to match: a second run replaces nothing.
  EXPECT_EQ(run("replace-pattern " + dir + "square_add.pattern.graph.txt " + dir +
                "square_add.replacement.graph.txt"),
            "replaced 0 matches\n");
  run("undo; undo");
  EXPECT_EQ(text(), before);
  run("replace-pattern " + dir + "missing.graph.txt " + dir + "small.graph.txt");
  EXPECT_NE(lastErr.find("missing.graph.txt"), std::string::npos) << lastErr;
}

TEST_F(ReplCommands, RenderWritesPictures) {
  std::string dot = run("render");
  EXPECT_TRUE(dot.starts_with("digraph")) << dot;
  std::string file = ::testing::TempDir() + "repl_render.dot";
  EXPECT_EQ(run("render " + file), "wrote " + file + " (dot, 8 nodes)\n") << lastErr;
  std::ifstream in(file);
  std::stringstream written;
  written << in.rdbuf();
  EXPECT_EQ(written.str(), dot);
  std::filesystem::remove(file);
  run("render " + ::testing::TempDir() + "x.gif");
  EXPECT_EQ(lastErr, "error: cannot render 'gif' pictures (formats: dot, svg, png, pdf)\n");
}

TEST_F(ReplCommands, BenchPrintsMinAndMedian) {
  std::string line = run("bench 3 --seed 7");
  EXPECT_TRUE(lastOk) << lastErr;
  EXPECT_TRUE(line.starts_with("g: 3 runs on interp: min ")) << line;
  EXPECT_NE(line.find(" ms, median "), std::string::npos) << line;
  line = run("bench 2 --backend loops");
  EXPECT_TRUE(line.starts_with("g: 2 runs on loops: min ")) << lastErr;
  run("bench 2 --backend tpu");
  EXPECT_EQ(lastErr,
            "error: unknown backend 'tpu' (expected interp, loops, opencl, llvm or cpp-wrapper)\n");
  run("bench -4");
  EXPECT_NE(lastErr.find("bad argument '-4'"), std::string::npos) << lastErr;
  EXPECT_TRUE(run("run --backend loops --seed 3").starts_with("out_0: f32[4, 8]")) << lastErr;
}

#if defined(FXKIT_HAVE_LLVM) && defined(FXKIT_HAVE_CPP_WRAPPER_BUILD)
TEST_F(ReplCommands, RunAndBenchOnTheCompiledBackendsGiveTheInterpretersValues) {
  // The kernel cache (and the cpp-wrapper's folder in it) in a fresh temporary folder.
  std::string cache = ::testing::TempDir() + "repl-backends-cache";
  std::filesystem::remove_all(cache);
  ::setenv("FXKIT_CACHE_DIR", cache.c_str(), 1);
  std::string interp = run("run --seed 5");
  ASSERT_TRUE(lastOk) << lastErr;
  for (const char *backend : {"llvm", "cpp-wrapper"}) {
    SCOPED_TRACE(backend);
    EXPECT_EQ(run(std::string("run --seed 5 --backend ") + backend), interp) << lastErr;
    std::string line = run(std::string("bench 2 --backend ") + backend);
    EXPECT_TRUE(line.starts_with(std::string("g: 2 runs on ") + backend + ": min ")) << lastErr;
  }
  EXPECT_TRUE(std::filesystem::exists(cache + "/cpp-wrapper")) << "no wrapper folder in " << cache;
  ::unsetenv("FXKIT_CACHE_DIR");
  std::filesystem::remove_all(cache);
}
#endif

/// Runs one command as if Ctrl-C had been pressed while it ran (the flag is already set when it
/// reaches its first safe point).
Status runInterrupted(ReplSession &session, std::string_view line) {
  auto words = lexReplLine(line);
  ReplSession::interrupted = 1;
  Status st = findReplCommand((*words)[0][0])->run(session, (*words)[0]);
  ReplSession::interrupted = 0;
  return st;
}

TEST_F(ReplCommands, InterruptRollsBack) {
  std::string before = text();
  Status st = runInterrupted(session, "pass dce infer-shapes");
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().message, "interrupted before pass 'dce'; the graph is as it was");
  EXPECT_EQ(text(), before);
  run("undo");
  EXPECT_EQ(lastErr, "error: nothing to undo\n");
  // Every compilation stops between passes (here before the first), run and bench also before
  // the backend prepares the program, and load after reading the file.
  st = runInterrupted(session, "bench 5");
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().message, "interrupted before the interp backend prepared it");
  st = runInterrupted(session, "run --backend loops");
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().message, "interrupted before pass 'decompose'");
  st = runInterrupted(session, "why add");
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().message, "interrupted before pass 'decompose'");
  st = runInterrupted(session, "find kernel=*");
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().message, "interrupted before pass 'decompose'");
  const std::string file = std::string(FXKIT_TEST_DATA) + "/repl/small.graph.txt";
  st = runInterrupted(session, "load " + file + " as other");
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().message, "interrupted: '" + file + "' was not loaded");
  EXPECT_EQ(session.findGraph("other"), nullptr);
  EXPECT_EQ(text(), before);
  // The session reports an interrupt once and skips the rest of the line.
  ReplSession::interrupted = 1;
  EXPECT_EQ(run("info; list"), "");
  EXPECT_EQ(lastErr, "interrupted: the rest of the line is skipped\n");
  EXPECT_TRUE(session.wasInterrupted());
  EXPECT_EQ(ReplSession::interrupted, 0);
}

TEST_F(ReplCommands, HelpForEveryCommand) {
  for (const ReplCommand &c : replCommands()) {
    std::string help = run("help " + std::string(c.name));
    EXPECT_TRUE(help.starts_with("usage: " + std::string(c.usage) + "\n")) << help;
  }
  EXPECT_NE(run("help").find("  replace-pattern PATTERN REPLACEMENT  "), std::string::npos);
  EXPECT_NE(run("help find").find("kernel=fused_*"), std::string::npos);
}

TEST_F(ReplCommands, CompletionCandidates) {
  auto complete = [&](std::string_view before, std::string_view word) {
    std::string joined;
    for (const std::string &c : replCompletions(session, before, word))
      joined += (joined.empty() ? "" : " ") + c;
    return joined;
  };
  EXPECT_EQ(complete("", "re"), "redo rename render replace-pattern replace-uses");
  EXPECT_EQ(complete("show ; ", "se"), "set set-meta");
  EXPECT_EQ(complete("users ", "add"), "add add_1");
  EXPECT_EQ(complete("insert ", ""), "after before");
  EXPECT_EQ(complete("insert after ", "co"), "convert");
  EXPECT_EQ(complete("set-meta relu ", ""), "python_type type val");
  EXPECT_EQ(complete("insert after add: r = ", "aten.relu.d"), "aten.relu.default");
  EXPECT_EQ(complete("insert after add: %r = call_function[target=", "torch.ops.aten.relu.d"),
            "torch.ops.aten.relu.default");
  EXPECT_EQ(complete("insert after add: r = aten.relu.default(", "mu"), "mul");
  EXPECT_EQ(complete("pass ", "d"), "dce decompose");
  EXPECT_EQ(complete("bench 3 --backend ", ""), "cpp-wrapper interp llvm loops opencl");
  EXPECT_EQ(complete("export ", "fx"), "fx fxir fxir-code fxpy"); // the output-format table
  EXPECT_EQ(complete("use ", ""), "g");
  EXPECT_EQ(complete("find ", "ker"), "kernel=");
  EXPECT_EQ(complete("find users>1 ", "op=aten.relu."), "op=aten.relu.default");
  EXPECT_EQ(complete("find ", "name=add"), "name=add name=add_1");
  EXPECT_EQ(complete("frobnicate ", ""), "");
  EXPECT_EQ(complete("load x.txt ", "a"), "");
  std::string dir = std::string(FXKIT_TEST_DATA) + "/repl/";
  EXPECT_EQ(complete("load ", dir + "small."), dir + "small.graph.txt");
  // The one folder of tests/data starting "repl" (report-site/ shares "rep").
  EXPECT_EQ(complete("render ", std::string(FXKIT_TEST_DATA) + "/repl"), dir);
}

/// `why` and `find kernel=` on every node of every ATen graph of the corpus: each loop op's
/// origins are nodes of the graph, each node's answer is well formed, and a graph diffed with
/// itself has no differences.
TEST(ReplCorpus, WhyAndKernelsForEveryNode) {
  std::vector<std::filesystem::path> graphs = fxkit::testing::corpusGraphs("inductor", "aten_");
  std::vector<std::filesystem::path> reference = fxkit::testing::corpusGraphs("reference", "");
  graphs.insert(graphs.end(), reference.begin(), reference.end());
  ASSERT_GE(graphs.size(), 50u);
  size_t nodes = 0, computed = 0;
  for (const std::filesystem::path &p : graphs) {
    SCOPED_TRACE(p.string());
    auto graph = importGraphFile(p.string());
    ASSERT_TRUE(graph) << graph.error().str();
    auto view = buildKernelView(*graph);
    ASSERT_TRUE(view) << view.error().str();
    for (const auto &[name, kernels] : view->kernelsOfNode) {
      EXPECT_NE(graph->find(name), nullptr) << name;
      EXPECT_FALSE(kernels.empty()) << name;
    }
    for (Node *n : *graph) {
      auto why = explainNodeFusion(*view, *graph, n->name());
      ASSERT_TRUE(why) << why.error().str();
      bool inKernel = view->kernelsOfNode.contains(n->name());
      EXPECT_TRUE(why->starts_with(n->name() + (inKernel ? ": computed by op" : ": no loop op")))
          << *why;
      computed += inKernel;
      ++nodes;
    }
    Graph copy = graph->clone();
    std::string diff = formatGraphDiff(*graph, copy, matchGraphs(*graph, copy), "a", "b");
    EXPECT_TRUE(diff.starts_with("--- a (" + std::to_string(graph->size()) + " nodes)\n+++ b (" +
                                 std::to_string(graph->size()) + " nodes)\nno differences\n"))
        << diff;
    EXPECT_NE(diff.find(" 0 changed, 0 renamed, 0 regions, 0 removed, 0 added;"), std::string::npos)
        << diff;
  }
  // Most nodes are computed by some loop op (views, getitems and inputs are not).
  EXPECT_GT(computed * 2, nodes) << computed << " of " << nodes;
}

TEST(ReplHistory, PathFromEnvironment) {
  ::setenv("FXKIT_HISTORY", "/tmp/h", 1);
  EXPECT_EQ(replHistoryPath(), "/tmp/h");
  ::setenv("FXKIT_HISTORY", "", 1);
  EXPECT_EQ(replHistoryPath(), "");
  ::unsetenv("FXKIT_HISTORY");
  std::string state = ::testing::TempDir() + "fxkit_state";
  ::setenv("XDG_STATE_HOME", state.c_str(), 1);
  EXPECT_EQ(replHistoryPath(), state + "/fxkit/history");
  EXPECT_TRUE(std::filesystem::is_directory(state + "/fxkit"));
  std::filesystem::remove_all(state);
  ::unsetenv("XDG_STATE_HOME");
  const char *home = std::getenv("HOME");
  std::string savedHome = home ? home : "";
  ::setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(replHistoryPath(), "/home/someone/.fxkit_history");
  if (home)
    ::setenv("HOME", savedHome.c_str(), 1);
  else
    ::unsetenv("HOME");
}

} // namespace
