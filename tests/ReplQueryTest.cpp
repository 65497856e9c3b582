// The REPL's query language (repl/ReplQuery.h): walks over long chains without recursion,
// paths, extracted graphs that verify, inline patterns, elision, did-you-mean, variables across
// edits, and completion of the query commands.
#include "repl/ReplQuery.h"

#include "importers/Import.h"
#include "ir/OutputValues.h"
#include "ir/Verifier.h"
#include "repl/ReplCompletion.h"
#include "repl/ReplRewrite.h"
#include "repl/ReplSession.h"
#include "support/DidYouMean.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace fxkit;

namespace {

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

constexpr std::string_view kReduction = R"(graph():
    %x : Tensor "f32[8, 16][16, 1]cpu"[num_users=1] = placeholder[target=x]
    %exp : Tensor "f32[8, 16][16, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.exp.default](args = (%x,), kwargs = {})
    %sum_1 : Tensor "f32[8, 1][1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%exp, [1], True), kwargs = {})
    %div : Tensor "f32[8, 16][16, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%exp, %sum_1), kwargs = {})
    return (div,)
)";

Graph parse(std::string_view text) {
  auto g = importGraph(text, GraphFormat::FxText, "t.graph.txt");
  EXPECT_TRUE(g) << g.error().str();
  return g.take();
}

std::vector<std::string> names(const NodeSet &nodes) {
  std::vector<std::string> out;
  for (Node *n : nodes)
    out.push_back(n->name());
  return out;
}

/// x -> n0 -> n1 -> ... -> n{length-1} -> output: deep enough that a recursive walk would
/// overflow the stack.
Graph chain(size_t length) {
  Graph g;
  g.reserve(length + 2);
  Node *prev = g.create(OpKind::Placeholder, "x", "x");
  for (size_t i = 0; i < length; ++i)
    prev = g.create(OpKind::CallFunction, "n" + std::to_string(i), "torch.ops.aten.neg.default",
                    Argument::tuple({Argument::node(prev)}), Argument::dict({}));
  g.create(OpKind::Output, "output", "output",
           Argument::tuple({Argument::tuple({Argument::node(prev)})}));
  return g;
}

TEST(ReplQuery, WalksAreIterativeOnLongChains) {
  constexpr size_t kLength = 200000;
  Graph g = chain(kLength);
  Node *last = g.find("n" + std::to_string(kLength - 1));
  NodeSet up = reachableNodes(g, {last}, false, -1);
  ASSERT_EQ(up.size(), kLength); // x and n0..n{L-2}
  EXPECT_EQ(up.front()->name(), "x");
  EXPECT_EQ(up.back()->name(), "n" + std::to_string(kLength - 2));
  NodeSet down = reachableNodes(g, {g.find("x")}, true, -1);
  EXPECT_EQ(down.size(), kLength + 1); // every call and the output
  EXPECT_EQ(names(reachableNodes(g, {g.find("n10")}, true, 2)),
            (std::vector<std::string>{"n11", "n12"}));
  NodeSet path = shortestDataPath(g, g.find("x"), last);
  EXPECT_EQ(path.size(), kLength + 1);
  std::vector<NodeSet> paths = dataPaths(g, g.find("n5"), g.find("n9"), 10);
  ASSERT_EQ(paths.size(), 1u);
  EXPECT_EQ(names(paths[0]), (std::vector<std::string>{"n5", "n6", "n7", "n8", "n9"}));
  // The middle of the chain as a graph: one placeholder (n99), 1000 nodes, one output.
  NodeSet middle;
  for (size_t i = 100; i < 1100; ++i)
    middle.push_back(g.find("n" + std::to_string(i)));
  auto part = extractSubgraph(g, middle);
  ASSERT_TRUE(part) << part.error().str();
  EXPECT_EQ(part->size(), 1002u);
  EXPECT_EQ(part->front()->name(), "n99");
  EXPECT_EQ(part->front()->op(), OpKind::Placeholder);
  auto out = returnedValues(*part->outputNode());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].asNode()->name(), "n1099");
}

TEST(ReplQuery, PathsBetweenBranches) {
  Graph g = parse(kGraph);
  EXPECT_EQ(names(shortestDataPath(g, g.find("x"), g.find("add_1"))),
            (std::vector<std::string>{"x", "add", "add_1"}));
  EXPECT_TRUE(shortestDataPath(g, g.find("add_1"), g.find("x")).empty());
  EXPECT_TRUE(shortestDataPath(g, g.find("relu"), g.find("add_1")).empty());
  std::vector<NodeSet> all = dataPaths(g, g.find("x"), g.find("add_1"), 10);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(names(all[0]), (std::vector<std::string>{"x", "mul", "add", "add_1"}));
  EXPECT_EQ(names(all[1]), (std::vector<std::string>{"x", "add", "add_1"}));
  EXPECT_EQ(dataPaths(g, g.find("x"), g.find("add_1"), 1).size(), 1u);
}

TEST(ReplQuery, ExtractKeepsTypesAndReturnsWhatIsUsedOutside) {
  Graph g = parse(kGraph);
  auto part = extractSubgraph(g, {g.find("relu"), g.find("add_1")});
  ASSERT_TRUE(part) << part.error().str();
  EXPECT_TRUE(verifyGraph(*part));
  // Placeholders for what they use from outside, in graph order, typed as the originals.
  Node *convert = part->find("convert");
  Node *add = part->find("add");
  ASSERT_TRUE(convert && add);
  EXPECT_EQ(convert->op(), OpKind::Placeholder);
  EXPECT_EQ(add->op(), OpKind::Placeholder);
  EXPECT_EQ(part->front(), convert);
  ASSERT_NE(add->value().tensor(), nullptr);
  EXPECT_EQ(add->value().tensor()->str(), "f32[4, 8][8, 1]cpu");
  std::vector<std::string> returned;
  for (const Argument &a : returnedValues(*part->outputNode()))
    returned.push_back(a.asNode()->name());
  EXPECT_EQ(returned, (std::vector<std::string>{"relu", "add_1"}));
  EXPECT_FALSE(extractSubgraph(g, {g.outputNode()}));
}

TEST(ReplQuery, InlinePatterns) {
  Graph g = parse(kReduction);
  // Keyword names and constants are not placeholders; `e` is bound once for both uses.
  auto pattern =
      parseInlinePattern("s = aten.sum.dim_IntList(e, [1], keepdim=True); aten.div.Tensor(e, s)");
  ASSERT_TRUE(pattern) << pattern.error().str();
  size_t placeholders = 0;
  for (Node *n : *pattern)
    placeholders += n->op() == OpKind::Placeholder;
  EXPECT_EQ(placeholders, 1u);
  // keepdim= as a keyword does not equal the graph's positional True: no match.
  auto none = findPatternMatches(g, *pattern);
  ASSERT_TRUE(none) << none.error().str();
  EXPECT_TRUE(none->empty());
  auto positional =
      parseInlinePattern("s = aten.sum.dim_IntList(e, [1], True)\naten.div.Tensor(e, s)");
  ASSERT_TRUE(positional) << positional.error().str();
  auto found = findPatternMatches(g, *positional);
  ASSERT_TRUE(found) << found.error().str();
  ASSERT_EQ(found->size(), 1u);
  EXPECT_EQ((*found)[0].root->name(), "div");
  auto fx = parseInlinePattern(
      "%e = call_function[target=torch.ops.aten.exp.default](args = (%a,), kwargs = {})");
  ASSERT_TRUE(fx) << fx.error().str();
  auto exps = findPatternMatches(g, *fx);
  ASSERT_TRUE(exps);
  ASSERT_EQ(exps->size(), 1u);
  EXPECT_EQ((*exps)[0].root->name(), "exp");
  EXPECT_FALSE(parseInlinePattern("aten.exp.default(a); aten.neg.default(a)"));
  EXPECT_FALSE(parseInlinePattern(""));
}

TEST(ReplQuery, ElidesLongListsOnly) {
  EXPECT_EQ(elideLongLists("(a, b, c)"), "(a, b, c)");
  std::string twenty = "(";
  for (int i = 0; i < 20; ++i)
    twenty += (i ? ", n" : "n") + std::to_string(i);
  twenty += ")";
  EXPECT_EQ(elideLongLists(twenty), "(n0, n1, n2, n3, n4, n5, n6, n7, ... 12 more)");
  EXPECT_EQ(elideLongLists("return " + twenty + " # f32[4, 8][8, 1]cpu"),
            "return (n0, n1, n2, n3, n4, n5, n6, n7, ... 12 more) # f32[4, 8][8, 1]cpu");
  // Nested lists count as one item of the outer list; quotes hide brackets and commas.
  EXPECT_EQ(elideLongLists("((" + twenty + ",), 'a, (b')"),
            "(((n0, n1, n2, n3, n4, n5, n6, n7, ... 12 more),), 'a, (b')");
  // 12 items are shown whole (cutting would save little).
  EXPECT_EQ(elideLongLists("[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]"),
            "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]");
  EXPECT_EQ(elideLongLists("[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]"),
            "[1, 2, 3, 4, 5, 6, 7, 8, ... 5 more]");
}

TEST(ReplQuery, DidYouMean) {
  EXPECT_EQ(editDistance("add_1", "ad_1", 3), 1u);
  EXPECT_EQ(editDistance("relu", "rleu", 3), 1u);  // a transposition is one edit
  EXPECT_EQ(editDistance("abc", "xyzabc", 2), 3u); // capped at limit + 1
  EXPECT_EQ(closestSpellings("ad_1", {"add", "add_1", "mul"}), (std::vector<std::string>{"add_1"}));
  EXPECT_EQ(closestSpellings("conv", {"convert", "mul", "convert"}),
            (std::vector<std::string>{"convert"}));
  EXPECT_TRUE(closestSpellings("zzz", {"add", "mul"}).empty());
  EXPECT_EQ(didYouMean({"a", "b", "c"}), "did you mean 'a', 'b' or 'c'?");
  EXPECT_EQ(didYouMean({}), "");
}

TEST(ReplQuery, PrintTabular) {
  Graph g = parse(kGraph);
  std::string t = printTabular({g.find("x"), g.find("convert"), g.outputNode()}, false);
  EXPECT_EQ(t, "opcode         name     target                              args                "
               "kwargs\n"
               "-------------  -------  ----------------------------------  ------------------  "
               "------\n"
               "placeholder    x        x                                   ()                  "
               "{}\n"
               "call_function  convert  prims.convert_element_type.default  (y, torch.float32)  "
               "{}\n"
               "output         output   output                              ((add_1,),)         "
               "{}\n");
}

/// A session holding kGraph as `g`.
class ReplQuerySession : public ::testing::Test {
protected:
  void SetUp() override { session.addGraph("g", "", parse(kGraph)); }
  std::string run(std::string_view line) {
    out.str("");
    err.str("");
    lastOk = session.runLine(line);
    lastErr = err.str();
    return out.str();
  }
  std::string complete(std::string_view before, std::string_view word) {
    std::string joined;
    for (const std::string &c : replCompletions(session, before, word))
      joined += (joined.empty() ? "" : " ") + c;
    return joined;
  }
  std::ostringstream out, err;
  ReplSession session{out, err};
  std::string lastErr;
  bool lastOk = true;
};

TEST_F(ReplQuerySession, VariablesOutliveEditsAndBelongToTheirGraph) {
  run("let m = find op=aten.mul.Tensor");
  ASSERT_TRUE(lastOk) << lastErr;
  EXPECT_EQ(lastErr, "$m = 1 node of g\n");
  // rename rebuilds every node; the variable keeps names.
  run("rename relu r");
  ASSERT_TRUE(lastOk) << lastErr;
  EXPECT_EQ(run("descendants $m"), "%add = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu\n"
                                   "%r = torch.ops.aten.relu.default : f32[4, 8][8, 1]cpu\n"
                                   "%add_1 = torch.ops.aten.add.Tensor : f32[4, 8][8, 1]cpu\n"
                                   "%output = output\n");
  session.addGraph("h", "", parse(kReduction));
  run("show $m");
  EXPECT_FALSE(lastOk);
  EXPECT_EQ(lastErr,
            "error: '$m' holds nodes of graph 'g', not of the current graph 'h' (use g)\n");
  run("use g");
  run("let e = $m $nope");
  EXPECT_EQ(lastErr, "error: no variable '$nope' (define one with 'let NAME = find ...'; 'set' "
                     "lists them)\n");
  EXPECT_EQ(run("set"), "$m = 1 node of g: mul\n");
}

TEST_F(ReplQuerySession, ExtractedGraphsAreUnsavedUntilExported) {
  run("let s = slice --backward add; extract $s as part");
  ASSERT_TRUE(lastOk) << lastErr;
  EXPECT_EQ(lastErr, "$s = 3 nodes of g\nextracted part: 4 nodes (1 input, 1 output) from g; "
                     "current graph: part\n");
  EXPECT_NE(session.unsavedSummary().find("part"), std::string::npos);
  EXPECT_EQ(run("show"),
            "graph():\n"
            "    %x : Tensor \"f32[4, 8][8, 1]cpu\"[num_users=2] = placeholder[target=x]\n"
            "    %mul : Tensor \"f32[4, 8][8, 1]cpu\"[num_users=1] = "
            "call_function[target=torch.ops.aten.mul.Tensor](args = (%x, %x), kwargs = "
            "{})\n"
            "    %add : Tensor \"f32[4, 8][8, 1]cpu\"[num_users=1] = "
            "call_function[target=torch.ops.aten.add.Tensor](args = (%mul, %x), kwargs "
            "= {})\n"
            "    return (add,)\n");
  run("extract $s as part2");
  EXPECT_EQ(lastErr, "error: '$s' holds nodes of graph 'g', not of the current graph 'part' (use "
                     "g)\n");
  run("use g");
  run("extract $s as part");
  EXPECT_EQ(lastErr, "error: a graph named 'part' exists already (pick another name)\n");
  // A call nested in a pattern's argument is refused with the way to write it.
  run("match 'aten.add.Tensor(aten.mul.Tensor(a, a), a)'");
  EXPECT_EQ(lastErr, "error: pattern: 'aten.mul.Tensor(a, a)' is a call inside an "
                     "argument; give it a name of its own (m = aten.mul.Tensor(a, a); ...)\n");
}

TEST_F(ReplQuerySession, Completion) {
  run("let mine = find op=aten.mul.Tensor");
  EXPECT_EQ(complete("let x ", ""), "=");
  EXPECT_EQ(complete("let x = ", "d"), "descendants");
  EXPECT_EQ(complete("let x = ancestors ", "add"), "add add_1");
  EXPECT_EQ(complete("extract ", "$"), "$mine");
  EXPECT_EQ(complete("set ", ""), "$mine");
  EXPECT_EQ(complete("find op=x ", "$m"), "$mine");
  EXPECT_EQ(complete("slice ", "--"), "--backward --depth --forward");
  EXPECT_EQ(complete("path x y ", "--"), "--all --limit");
  EXPECT_EQ(complete("", "an"), "ancestors");
  EXPECT_EQ(complete("", "print"), "print_tabular");
  // A terminal's line editor splits words where the REPL does: `op=aten.mu` and `$mi` are one
  // word each; an insert's node line splits as Python does.
  EXPECT_EQ(replWordBreaks("find op=aten.mu"), " \t\n;");
  EXPECT_EQ(replWordBreaks("show $mi"), " \t\n;");
  EXPECT_NE(
      replWordBreaks("insert after add: %r = call_function[target=torch.ops.aten.re").find('='),
      std::string_view::npos);
}

} // namespace
