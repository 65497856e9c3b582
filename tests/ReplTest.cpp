// Golden tests of the REPL's command language: an in-process session, each command's output
// text asserted exactly.
#include "importers/Import.h"
#include "ir/PrintableText.h"
#include "repl/ReplLexer.h"
#include "repl/ReplMatcher.h"
#include "repl/ReplSession.h"

#include <gtest/gtest.h>

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

/// A session holding kGraph as `g`; run() returns what one line printed.
class Repl : public ::testing::Test {
protected:
  void SetUp() override {
    auto g = importGraph(kGraph, GraphFormat::FxText, "g.graph.txt");
    ASSERT_TRUE(g) << g.error().str();
    session.addGraph("g", "", g.take());
  }
  /// Output of one line; its errors land in lastErr.
  std::string run(std::string_view line) {
    out.str("");
    err.str("");
    lastOk = session.runLine(line);
    lastErr = err.str();
    return out.str();
  }
  /// The graph as FX text (for before/after comparisons).
  std::string text() { return run("show"); }

  std::ostringstream out, err;
  // Status lines (renamed, N of M nodes match) merged with the results, in order: these
  // goldens read both; tests below and tests/cli/scripting.sh check that fxkit splits them.
  ReplSession session{out, err, &out};
  std::string lastErr;
  bool lastOk = true;
};

TEST(ReplLexer, SplitsCommandsAndKeepsQuotedWords) {
  auto cmds = lexReplLine(R"(load "my graph.txt" as g; find name='a b'\;c  # comment; not)");
  ASSERT_TRUE(cmds) << cmds.error().str();
  ASSERT_EQ(cmds->size(), 2u);
  EXPECT_EQ((*cmds)[0], (ReplWords{"load", "my graph.txt", "as", "g"}));
  EXPECT_EQ((*cmds)[1], (ReplWords{"find", "name=a b;c"}));
  auto empty = lexReplLine(" ; ;# nothing");
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->empty());
  auto quotedEmpty = lexReplLine("rename x ''");
  ASSERT_TRUE(quotedEmpty);
  EXPECT_EQ((*quotedEmpty)[0], (ReplWords{"rename", "x", ""}));
  auto bad = lexReplLine("load 'x.txt");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "unterminated single quote");
  EXPECT_EQ(bad.error().loc.col, 6);
  EXPECT_EQ(quoteReplWord("it's a"), R"('it'\''s a')");
  auto back = lexReplLine(quoteReplWord("it's a"));
  ASSERT_TRUE(back);
  EXPECT_EQ((*back)[0][0], "it's a");
}

TEST(ReplMatcher, Globs) {
  EXPECT_TRUE(globMatch("add*", "add_1"));
  EXPECT_TRUE(globMatch("*", ""));
  EXPECT_TRUE(globMatch("a?d", "add"));
  EXPECT_TRUE(globMatch("*.mul.*", "torch.ops.aten.mul.Tensor"));
  EXPECT_FALSE(globMatch("add", "add_1"));
  EXPECT_FALSE(globMatch("a*c", "abcd"));
}

TEST_F(Repl, ShowPrintsGraphAndNodes) {
  EXPECT_EQ(text(), kGraph);
  EXPECT_EQ(run("show mul"),
            "%mul : Tensor \"f32[4, 8][8, 1]cpu\"[num_users=1] = "
            "call_function[target=torch.ops.aten.mul.Tensor](args = (%x, %x), kwargs = {})\n"
            "type: f32[4, 8][8, 1]cpu\n");
  EXPECT_EQ(run("show %output"), "return (add_1,)\ntype: unknown\n");
  EXPECT_EQ(run("users add"), "%relu = torch.ops.aten.relu.default : f32[4, 8][8, 1]cpu\n"
                              "%add_1 = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu\n");
  EXPECT_EQ(run("users relu"), "(no users)\n");
  EXPECT_EQ(run("inputs add"), "%mul = torch.ops.aten.mul.Tensor : f32[4, 8][8, 1]cpu\n"
                               "%x = placeholder : f32[4, 8][8, 1]cpu\n");
  EXPECT_EQ(run("inputs x"), "(no inputs)\n");
  EXPECT_EQ(run("list"), "* g: 8 nodes\n");
}

TEST_F(Repl, Info) {
  std::string info = run("info");
  EXPECT_TRUE(info.starts_with("graph: g\nnodes: 8\n")) << info;
  EXPECT_NE(info.find("y: f16[4, 8][8, 1]cpu"), std::string::npos) << info;
}

TEST_F(Repl, FindMatchers) {
  EXPECT_EQ(run("find op=aten.mul.Tensor"),
            "%mul = torch.ops.aten.mul.Tensor : f32[4, 8][8, 1]cpu\n1 of 8 nodes match\n");
  EXPECT_EQ(run("find users>1"), "%x = placeholder : f32[4, 8][8, 1]cpu\n"
                                 "%add = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu\n"
                                 "2 of 8 nodes match\n");
  EXPECT_EQ(run("find dtype=f16"), "%y = placeholder : f16[4, 8][8, 1]cpu\n1 of 8 nodes match\n");
  EXPECT_EQ(run("find name=add*"), "%add = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu\n"
                                   "%add_1 = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu\n"
                                   "2 of 8 nodes match\n");
  // Terms are AND-ed; the full target works as well as the short one.
  EXPECT_EQ(run("find op=torch.ops.aten.add.* users=1"),
            "%add_1 = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu\n1 of 8 nodes match\n");
  EXPECT_EQ(run("find kind=placeholder dtype!=f16"),
            "%x = placeholder : f32[4, 8][8, 1]cpu\n1 of 8 nodes match\n");
  EXPECT_EQ(run("find users=0 kind!=output"),
            "%relu = torch.ops.aten.relu.default : f32[4, 8][8, 1]cpu\n1 of 8 nodes match\n");
  EXPECT_EQ(run("find op=aten.sub*"), "0 of 8 nodes match\n");
  EXPECT_EQ(run("find inputs>=2"), "%add = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu\n"
                                   "%add_1 = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu\n"
                                   "2 of 8 nodes match\n");

  run("find color=red");
  EXPECT_FALSE(lastOk);
  EXPECT_EQ(lastErr, "error: unknown key 'color' in 'color=red' (keys: op, name, kind, type, "
                     "dtype, users, inputs, kernel, post, pre)\n");
  run("find users>many");
  EXPECT_EQ(lastErr, "error: 'users>many': users takes a whole number\n");
  run("find dtype=f17");
  EXPECT_EQ(lastErr, "error: 'dtype=f17': unknown dtype 'f17' (f32, f16, bf16, i64, ...)\n");
  run("find name>a");
  EXPECT_EQ(lastErr, "error: 'name>a': name takes only = or !=\n");
}

TEST_F(Repl, RenameUndoRedo) {
  std::string before = text();
  EXPECT_EQ(run("rename mul square"), "renamed mul to square\n");
  EXPECT_EQ(run("show square"),
            "%square : Tensor \"f32[4, 8][8, 1]cpu\"[num_users=1] = "
            "call_function[target=torch.ops.aten.mul.Tensor](args = (%x, %x), kwargs = {})\n"
            "type: f32[4, 8][8, 1]cpu\n");
  EXPECT_EQ(run("inputs add"), "%square = torch.ops.aten.mul.Tensor : f32[4, 8][8, 1]cpu\n"
                               "%x = placeholder : f32[4, 8][8, 1]cpu\n");
  std::string after = text();
  EXPECT_EQ(run("undo"), "undone: rename mul square\n");
  EXPECT_EQ(text(), before);
  EXPECT_EQ(run("redo"), "redone: rename mul square\n");
  EXPECT_EQ(text(), after);
  EXPECT_EQ(run("undo; undo"), "undone: rename mul square\n");
  EXPECT_EQ(lastErr, "error: nothing to undo\n");
  EXPECT_FALSE(lastOk);

  run("rename x add");
  EXPECT_EQ(lastErr, "error: a node named 'add' exists already\n");
  run("rename x 1x");
  EXPECT_EQ(lastErr, "error: '1x' is not a valid node name (letters, digits and _)\n");
  EXPECT_EQ(text(), before);
}

TEST_F(Repl, EraseIsRefusedWhileUsed) {
  std::string before = text();
  run("erase add");
  EXPECT_FALSE(lastOk);
  EXPECT_EQ(lastErr, "error: cannot erase 'add': it has 2 users (relu, add_1); use "
                     "'replace-uses' first\n");
  EXPECT_EQ(text(), before);
  EXPECT_EQ(run("erase relu"), "erased relu\n");
  EXPECT_EQ(run("users add"), "%add_1 = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu\n");
  run("erase output");
  EXPECT_EQ(lastErr, "error: cannot erase the output node: a graph needs one\n");
  run("erase nothing");
  EXPECT_EQ(lastErr, "error: no node named 'nothing' in graph 'g'\n");
  EXPECT_EQ(run("undo"), "undone: erase relu\n");
  EXPECT_EQ(text(), before);
}

TEST_F(Repl, ReplaceUsesAndVerifierRollback) {
  std::string before = text();
  EXPECT_EQ(run("replace-uses convert x"), "replaced convert with x in 1 user\n");
  EXPECT_EQ(run("users convert"), "(no users)\n");
  EXPECT_EQ(run("erase convert"), "erased convert\n");
  EXPECT_EQ(run("verify"), "ok: g verifies\n");
  EXPECT_EQ(run("undo; undo"), "undone: erase convert\nundone: replace-uses convert x\n");
  EXPECT_EQ(text(), before);

  // mul's users would use add, which comes later: the verifier rejects it and nothing changes.
  EXPECT_EQ(run("replace-uses mul add"), "");
  EXPECT_FALSE(lastOk);
  EXPECT_TRUE(lastErr.starts_with("error: replace-uses mul add: undone, the result does not "
                                  "verify: "))
      << lastErr;
  EXPECT_EQ(text(), before);
  run("undo");
  EXPECT_EQ(lastErr, "error: nothing to undo\n");
}

TEST_F(Repl, PassesAreEditsToo) {
  EXPECT_EQ(run("pass dce"), "dce: changed\ndce removed 1 node: relu\n");
  EXPECT_EQ(run("find name=relu"), "0 of 7 nodes match\n");
  EXPECT_EQ(run("pass dce, dce"), "dce: no change\ndce: no change\n");
  EXPECT_EQ(run("undo; undo"), "undone: pass dce, dce\nundone: pass dce\n");
  EXPECT_EQ(text(), kGraph);
  run("pass dce nope");
  EXPECT_FALSE(lastOk);
  EXPECT_TRUE(lastErr.starts_with("error: unknown pass 'nope' (passes: ")) << lastErr;
  EXPECT_EQ(text(), kGraph);
}

TEST_F(Repl, RunPrintsOutputTypes) {
  EXPECT_EQ(run("run --seed 3"), "out_0: f32[4, 8][8, 1]cpu\n");
  EXPECT_EQ(text(), kGraph); // runs a copy
  run("run --seed");
  EXPECT_EQ(lastErr, "error: bad argument '--seed'; usage: run [--backend B] [--seed N] "
                     "[SYM=N...]\n");
}

TEST_F(Repl, ExportAndLoad) {
  // The graph was loaded typed: FX text keeps the form it was read in.
  std::string fx = run("export fx");
  EXPECT_TRUE(fx.starts_with("graph():\n    %x : Tensor \"f32[4, 8][8, 1]cpu\"[num_users=2] = "
                             "placeholder[target=x]\n"))
      << fx;
  std::string path = ::testing::TempDir() + "repl_export.json";
  EXPECT_EQ(run("export json '" + path + "'"), "wrote " + path + " (json)\n");
  EXPECT_EQ(run("load '" + path + "' as h"), "loaded h: 8 nodes from " + path + "\n");
  EXPECT_EQ(run("list"), "  g: 8 nodes\n* h: 8 nodes (" + path + ")\n");
  EXPECT_EQ(run("rename relu r; use g; undo"),
            "renamed relu to r\ncurrent graph: g\nundone: rename relu r\n");
  // Undo restored h and made it current again.
  EXPECT_EQ(run("list"), "  g: 8 nodes\n* h: 8 nodes (" + path + ")\n");
  run("export gif");
  EXPECT_EQ(lastErr, "error: unknown format 'gif' (expected fx, fxpy, json, pt2, dot, svg, png, "
                     "pdf, model-explorer, fxir, "
                     "fxir-code, wrapper-py, opencl or timeline)\n");
  run("load /nonexistent/x.graph.txt");
  EXPECT_FALSE(lastOk);
  EXPECT_NE(lastErr.find("/nonexistent/x.graph.txt"), std::string::npos) << lastErr;
}

TEST_F(Repl, ErrorsDoNotEndTheSession) {
  EXPECT_EQ(run("frobnicate; users nope; list"), "* g: 8 nodes\n");
  EXPECT_FALSE(lastOk);
  EXPECT_EQ(lastErr, "error: unknown command 'frobnicate' (try 'help')\n"
                     "error: no node named 'nope' in graph 'g'\n");
  run("rename a");
  EXPECT_EQ(lastErr, "error: usage: rename NODE NEW\n");
  run("show 'x");
  EXPECT_EQ(lastErr, "<input>:1:6: error: unterminated single quote\n  show 'x\n       ^\n");
  EXPECT_TRUE(session.anyFailed());
  EXPECT_EQ(run("use g"), "current graph: g\n");
  EXPECT_TRUE(lastOk);
  EXPECT_FALSE(session.quitRequested());
  run("quit");
  EXPECT_TRUE(session.quitRequested());
}

TEST_F(Repl, ScriptErrorsNameTheLine) {
  out.str("");
  EXPECT_FALSE(session.runScript("verify\n\n# comment\nerase add\nlist\n", "s.fx"));
  EXPECT_EQ(out.str(), "ok: g verifies\n* g: 8 nodes\n");
  EXPECT_EQ(err.str(), "s.fx:4: error: cannot erase 'add': it has 2 users (relu, add_1); use "
                       "'replace-uses' first\n");
}

TEST_F(Repl, Help) {
  std::string help = run("help");
  EXPECT_TRUE(help.starts_with("  load FILE [as NAME]")) << help;
  EXPECT_NE(help.find("  replace-uses A B "), std::string::npos);
  EXPECT_EQ(run("help erase"),
            "usage: erase NODE\nErase a node that has no users\nexample: erase relu\n");
  EXPECT_TRUE(run("help find").starts_with("usage: find TERM...\n"));
  run("help nope");
  EXPECT_EQ(lastErr, "error: no command named 'nope' (try 'help')\n");
}

// fxkit's sessions: results on `out`, status lines on `err`, so a script's stdout can be piped.
TEST(ReplStreams, StatusLinesGoToErr) {
  std::ostringstream out, err;
  ReplSession s(out, err);
  auto g = importGraph(kGraph, GraphFormat::FxText, "g.graph.txt");
  ASSERT_TRUE(g) << g.error().str();
  s.addGraph("g", "", g.take());
  EXPECT_TRUE(s.runLine("find name=relu; rename relu r; undo"));
  EXPECT_EQ(out.str(), "%relu = torch.ops.aten.relu.default : f32[4, 8][8, 1]cpu\n");
  EXPECT_EQ(err.str(), "1 of 8 nodes match\nrenamed relu to r\nundone: rename relu r\n");
}

// Edits are unsaved until exported; loading over them is refused without --force, and in the
// interactive shell the first quit only warns.
TEST(ReplStreams, UnsavedEditsAreNotLostSilently) {
  std::ostringstream out, err;
  ReplSession s(out, err);
  s.setInteractive(true);
  auto g = importGraph(kGraph, GraphFormat::FxText, "g.graph.txt");
  ASSERT_TRUE(g) << g.error().str();
  s.addGraph("g", "", g.take());
  EXPECT_TRUE(s.checkReplace("g", false));
  EXPECT_TRUE(s.runLine("rename relu r; rename r relu"));
  EXPECT_EQ(s.unsavedSummary(), "g (2 edits)");
  Status refused = s.checkReplace("g", false);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message,
            "graph 'g' has 2 unsaved edits and 2 undo steps that loading over it would lose: "
            "export it first, load under another name ('as NAME'), or add --force");
  EXPECT_TRUE(s.checkReplace("g", true));
  EXPECT_TRUE(s.checkReplace("other", false));
  err.str("");
  s.requestQuit();
  EXPECT_FALSE(s.quitRequested());
  EXPECT_EQ(err.str(), "warning: unsaved edits in g (2 edits) (export them, or quit again to "
                       "leave without saving)\n");
  s.requestQuit();
  EXPECT_TRUE(s.quitRequested());
}

// A script stops at its first failed command (fxkit -c/-f without --keep-going).
TEST(ReplStreams, StopOnError) {
  std::ostringstream out, err;
  ReplSession s(out, err);
  s.setStopOnError(true);
  auto g = importGraph(kGraph, GraphFormat::FxText, "g.graph.txt");
  ASSERT_TRUE(g) << g.error().str();
  s.addGraph("g", "", g.take());
  EXPECT_FALSE(s.runScript("rename nope x; rename relu r\nrename mul m\n", ""));
  EXPECT_EQ(err.str(), "error: no node named 'nope' in graph 'g'\n"
                       "stopped at the first error (--keep-going runs the rest)\n");
  EXPECT_EQ(s.unsavedSummary(), "");
}

// Bytes a terminal should not get are escaped; UTF-8 text stays as it is.
TEST(ReplStreams, PrintableText) {
  EXPECT_EQ(printableText("a\tb\nc"), "a\tb\nc");
  EXPECT_EQ(printableText("\x89PNG\r\n\x1a\n"), "\\x89PNG\\x0d\n\\x1a\n");
  EXPECT_EQ(printableText("\x1b[31m\x7f"), "\\x1b[31m\\x7f");
  EXPECT_EQ(printableText("caf\xc3\xa9 \xe2\x86\x92"), "caf\xc3\xa9 \xe2\x86\x92");
  EXPECT_EQ(printableText("\xc3"), "\\xc3");
  EXPECT_EQ(printableText("a\xc2\x9b"
                          "31m"),
            "a\\xc2\\x9b"
            "31m"); // C1 CSI
}

TEST(ReplNoGraph, CommandsSayToLoadOne) {
  std::ostringstream out, err;
  ReplSession s(out, err);
  EXPECT_FALSE(s.runLine("show; list"));
  EXPECT_EQ(err.str(), "error: no graph loaded (use 'load FILE')\n");
  EXPECT_EQ(out.str(), "no graphs loaded\n");
}

} // namespace
