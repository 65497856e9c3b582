#include "ir/Graph.h"
#include "ir/Verifier.h"

#include <gtest/gtest.h>

using namespace fxkit;

namespace {

Graph makeChain() {
  Graph g;
  Node *x = g.create(OpKind::Placeholder, "x", "x");
  Node *r = g.create(OpKind::CallFunction, "relu", "torch.ops.aten.relu.default",
                     Argument::tuple({Argument::node(x)}));
  Node *a = g.create(OpKind::CallFunction, "add", "torch.ops.aten.add.Tensor",
                     Argument::tuple({Argument::node(r), Argument::node(x)}));
  g.create(OpKind::Output, "output", "output",
           Argument::tuple({Argument::tuple({Argument::node(a)})}));
  return g;
}

TEST(Graph, UsersFollowArguments) {
  Graph g = makeChain();
  Node *x = g.find("x");
  ASSERT_EQ(x->users().size(), 2u);
  EXPECT_EQ(x->users()[0]->name(), "relu");
  EXPECT_EQ(x->users()[1]->name(), "add");
  EXPECT_TRUE(verifyGraph(g));
}

TEST(Graph, ReplaceAllUsesAndErase) {
  Graph g = makeChain();
  Node *relu = g.find("relu");
  g.replaceAllUsesWith(relu, g.find("x"));
  EXPECT_TRUE(relu->users().empty());
  g.erase(relu);
  EXPECT_EQ(g.size(), 3u);
  EXPECT_EQ(g.find("x")->users().size(), 1u); // add uses x twice: one user
  EXPECT_TRUE(verifyGraph(g)) << verifyGraph(g).error().str();
}

TEST(Graph, VerifierRejectsUseBeforeDefinition) {
  Graph g = makeChain();
  g.moveBefore(g.find("add"), g.find("relu"));
  Status st = verifyGraph(g);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("before it is defined"), std::string::npos);
}

/// What torch.fx.Graph.lint accepts: placeholders after get_attr and call nodes (torch.export's
/// unlifted module); every other check stays (here: a placeholder after the output, a use of a
/// later placeholder).
TEST(Graph, VerifierAcceptsPlaceholdersAfterOtherNodes) {
  Graph g;
  Node *w = g.create(OpKind::GetAttr, "w", "layers.0.weight");
  Node *x = g.create(OpKind::Placeholder, "x", "x");
  Node *m = g.create(OpKind::CallFunction, "mul", "torch.ops.aten.mul.Tensor",
                     Argument::tuple({Argument::node(x), Argument::node(w)}));
  Node *y = g.create(OpKind::Placeholder, "y", "y");
  Node *a = g.create(OpKind::CallFunction, "add", "torch.ops.aten.add.Tensor",
                     Argument::tuple({Argument::node(m), Argument::node(y)}));
  Node *out = g.create(OpKind::Output, "output", "output",
                       Argument::tuple({Argument::tuple({Argument::node(a)})}));
  EXPECT_TRUE(verifyGraph(g)) << verifyGraph(g).error().str();
  g.moveBefore(y, m);
  EXPECT_TRUE(verifyGraph(g)) << verifyGraph(g).error().str();
  Node *z = g.create(OpKind::Placeholder, "z", "z");
  Status st = verifyGraph(g);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("output node is not the last node"), std::string::npos)
      << st.error().str();
  g.erase(z);
  g.moveBefore(y, out);
  st = verifyGraph(g);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("node 'add': uses 'y' before it is defined"), std::string::npos)
      << st.error().str();
}

TEST(Graph, VerifierRequiresOneOutput) {
  Graph g;
  g.create(OpKind::Placeholder, "x", "x");
  EXPECT_FALSE(verifyGraph(g));
}

TEST(Graph, CloneIsEqualAndIndependent) {
  Graph g = makeChain();
  g.find("relu")->value().v = *TensorType::parse("f32[s0, 4][4, 1]cuda:0");
  Graph c = g.clone();
  std::string why;
  EXPECT_TRUE(graphsEqual(g, c, &why)) << why;
  c.find("add")->setTarget("torch.ops.aten.sub.Tensor");
  EXPECT_FALSE(graphsEqual(g, c, &why));
  EXPECT_NE(why.find("add"), std::string::npos);
}

TEST(Graph, UniqueNamesFollowFx) {
  Graph g = makeChain();
  EXPECT_EQ(g.uniqueName("relu"), "relu_1");
  EXPECT_EQ(g.uniqueName("mul"), "mul");
}

TEST(TensorType, ContiguousStridesCountAnEmptyDimAsOne) {
  // PyTorch: torch.empty(2, 0, 2, 2).stride() == (4, 4, 2, 1).
  std::vector<SymExpr> strides =
      TensorType::contiguousStrides({SymExpr(2), SymExpr(0), SymExpr(2), SymExpr(2)});
  std::vector<int64_t> got;
  for (const SymExpr &s : strides)
    got.push_back(s.constant());
  EXPECT_EQ(got, (std::vector<int64_t>{4, 4, 2, 1}));
}

TEST(TensorType, ParsesAndPrintsAnnotations) {
  for (std::string_view s :
       {"f32[s77, s27][s27, 1]cuda:0", "b8[][]cpu", "i64[4][1]cuda", "bf16[2, 3][3, 1]cpu"}) {
    auto t = TensorType::parse(s);
    ASSERT_TRUE(t) << t.error().str();
    EXPECT_EQ(t->str(), s);
  }
  EXPECT_FALSE(TensorType::parse("q7[1][1]cpu"));
  EXPECT_FALSE(TensorType::parse("f32[1, 2][1]cpu"));
  EXPECT_FALSE(TensorType::parse("f32[1][1"));
}

TEST(Argument, FloatReprMatchesPython) {
  EXPECT_EQ(pyFloatRepr(1e-05), "1e-05");
  EXPECT_EQ(pyFloatRepr(0.0), "0.0");
  EXPECT_EQ(pyFloatRepr(2.8284271247461903), "2.8284271247461903");
  EXPECT_EQ(pyFloatRepr(1e16), "1e+16");
  EXPECT_EQ(pyFloatRepr(123456789012345.0), "123456789012345.0");
  EXPECT_EQ(pyFloatRepr(0.0001), "0.0001");
  EXPECT_EQ(pyFloatRepr(-0.5), "-0.5");
  EXPECT_EQ(pyFloatRepr(1.0 / 0.0), "inf");
}

TEST(Graph, MillionNodeChainStaysSmall) {
  // Memory per node is measured in bench/; here only that building and verifying a long
  // graph is iterative (no recursion over edges, so no stack overflow).
  Graph g;
  Node *prev = g.create(OpKind::Placeholder, "x", "x");
  for (int i = 0; i < 200000; ++i)
    prev = g.create(OpKind::CallFunction, "relu_" + std::to_string(i),
                    "torch.ops.aten.relu.default", Argument::tuple({Argument::node(prev)}));
  g.create(OpKind::Output, "output", "output", Argument::tuple({Argument::node(prev)}));
  EXPECT_TRUE(verifyGraph(g));
  Graph c = g.clone();
  EXPECT_TRUE(graphsEqual(g, c));
}

} // namespace

/// The users lists are checked against the arguments for nodes with few and with many inputs
/// (those with many are searched through a sorted copy: the output node of a graph with
/// thousands of outputs is the user of each).
TEST(Graph, VerifierChecksUsersOfNodesWithManyInputs) {
  Graph g;
  std::vector<Argument> items;
  for (int i = 0; i < 40; ++i)
    items.push_back(Argument::node(
        g.create(OpKind::Placeholder, "p" + std::to_string(i), "p" + std::to_string(i))));
  // cat reads p1 .. p39 (and p5 twice); small reads p0 only.
  std::vector<Argument> catItems(items.begin() + 1, items.end());
  catItems.push_back(items[5]);
  Node *cat = g.create(OpKind::CallFunction, "cat", "torch.ops.aten.cat.default",
                       Argument::tuple({Argument::list(catItems)}));
  Node *small = g.create(OpKind::CallFunction, "relu", "torch.ops.aten.relu.default",
                         Argument::tuple({items[0]}));
  g.create(OpKind::Output, "output", "output",
           Argument::tuple({Argument::tuple({Argument::node(cat), Argument::node(small)})}));
  ASSERT_TRUE(verifyGraph(g)) << verifyGraph(g).error().str();
  EXPECT_EQ(g.find("p5")->users().size(), 1u);

  // A users list that names a node not using it is found, for a user with many inputs and for
  // one with few (the lists are edited behind the graph's back, as a bug would).
  Node *p0 = g.find("p0");
  auto &p0Users = const_cast<std::vector<Node *> &>(p0->users());
  p0Users.push_back(cat);
  Status st = verifyGraph(g);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("node 'p0': lists user 'cat' that does not use it"),
            std::string::npos)
      << st.error().str();
  p0Users.pop_back();
  auto &p1Users = const_cast<std::vector<Node *> &>(g.find("p1")->users());
  p1Users.push_back(small);
  st = verifyGraph(g);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("node 'p1': lists user 'relu' that does not use it"),
            std::string::npos)
      << st.error().str();
  p1Users.pop_back();
  // A user missing from a list: the edge counts differ.
  auto &p7Users = const_cast<std::vector<Node *> &>(g.find("p7")->users());
  p7Users.clear();
  st = verifyGraph(g);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("missing from the users of its input 'p7'"), std::string::npos)
      << st.error().str();
  p7Users.push_back(cat);
  EXPECT_TRUE(verifyGraph(g)) << verifyGraph(g).error().str();
}
