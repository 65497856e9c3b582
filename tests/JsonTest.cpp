#include "exporters/json/FxkitJsonWriter.h"
#include "importers/json/FxkitJsonReader.h"
#include "importers/json/JsonSupport.h"
#include "importers/json/NodesJson.h"
#include "ir/Verifier.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>

using namespace fxkit;

namespace {

SymExpr sym(std::string_view text) {
  auto e = SymExpr::parse(text);
  EXPECT_TRUE(e) << text;
  return e ? *e : SymExpr();
}

TensorType tensor(std::string_view annotation) {
  auto t = TensorType::parse(annotation);
  EXPECT_TRUE(t) << annotation;
  return t ? *t : TensorType();
}

/// A graph that uses every Argument kind and every NodeValue kind.
Graph makeEverything() {
  Graph g;
  g.moduleName = "<lambda>";
  Node *x = g.create(OpKind::Placeholder, "x", "x");
  x->value().v = tensor("f32[s0, s1*s2 + 1][s1*s2 + 1, 1]cuda:0");
  Node *s = g.create(OpKind::Placeholder, "s0", "s0");
  s->setPythonType("torch.SymInt");
  s->value().v = sym("s0");
  double inf = std::numeric_limits<double>::infinity();
  std::vector<Argument> args = {
      Argument::none(),
      Argument::boolean(true),
      Argument::boolean(false),
      Argument::integer(3),
      Argument::integer(std::numeric_limits<int64_t>::min()),
      Argument::integer(std::numeric_limits<int64_t>::max()),
      Argument::floating(1.5),
      Argument::floating(1e-05),
      Argument::floating(-0.0),
      Argument::floating(2.0),
      Argument::floating(1e300),
      Argument::floating(inf),
      Argument::floating(-inf),
      Argument::floating(std::nan("")),
      Argument::string("quote \" backslash \\ newline \n tab \t ctrl \x01 utf8 \xc3\xa9"),
      Argument::string(""),
      Argument::node(x),
      Argument::list({}),
      Argument::tuple({}),
      Argument::list(
          {Argument::integer(1),
           Argument::list({Argument::integer(2), Argument::tuple({Argument::node(s)})})}),
      Argument::tuple({Argument::node(x)}),
      Argument::dict({{"b", Argument::integer(1)},
                      {"a", Argument::dict({{"z", Argument::none()}, {"y", Argument::list({})}})}}),
      Argument::dict({}),
      Argument::dtype(DType::BFloat16),
      Argument::device(*Device::parse("cuda:1")),
      Argument::device(*Device::parse("cpu")),
      Argument::layout("strided"),
      Argument::memoryFormat("channels_last"),
      Argument::sym(sym("s0*s1 + 1")),
      Argument::sym(sym("-((-s6)//8)")),
      Argument::opaque("slice(None, None, None)"),
  };
  Node *f = g.create(OpKind::CallFunction, "f", "torch.ops.aten.foo.default",
                     Argument::tuple(std::move(args)),
                     Argument::dict({{"zeta", Argument::integer(1)},
                                     {"alpha", Argument::dtype(DType::Float16)},
                                     {"mid", Argument::node(s)}}));
  f->value().v = std::vector<std::optional<TensorType>>{tensor("bf16[4][1]cpu"), std::nullopt,
                                                        tensor("i64[][]cuda")};
  Node *m = g.create(OpKind::CallMethod, "m", "view", Argument::tuple({Argument::node(x)}));
  m->value().v = std::vector<std::optional<TensorType>>{};
  Node *mod = g.create(OpKind::CallModule, "layer", "layers.0");
  Node *attr = g.create(OpKind::GetAttr, "w", "weight");
  attr->setPythonType("torch.nn.parameter.Parameter");
  g.create(OpKind::Output, "output", "output",
           Argument::tuple({Argument::tuple({Argument::node(f), Argument::node(m),
                                             Argument::node(mod), Argument::node(attr)})}));
  return g;
}

void expectError(std::string_view text, const std::string &needle, int line, int col) {
  auto g = parseFxkitJson(text, "bad.json");
  ASSERT_FALSE(g) << "accepted:\n" << text;
  const Error &e = g.error();
  EXPECT_NE(e.message.find(needle), std::string::npos) << e.str();
  EXPECT_EQ(e.loc.file, "bad.json");
  EXPECT_EQ(e.loc.line, line) << e.str();
  EXPECT_EQ(e.loc.col, col) << e.str();
}

/// A valid document with `node` spliced in before the output node.
std::string withNode(std::string_view node) {
  return std::string(R"({
  "format": "fxkit.graph",
  "version": 1,
  "nodes": [
    {"name": "x", "op": "placeholder", "target": "x"},
    )") + std::string(node) +
         R"(,
    {"name": "output", "op": "output", "target": "output", "args": [{"node": "x"}]}
  ]
}
)";
}

} // namespace

TEST(Json, RoundTripEveryKind) {
  Graph g = makeEverything();
  ASSERT_TRUE(verifyGraph(g));
  std::string text = printFxkitJson(g);
  auto back = parseFxkitJson(text, "everything.json");
  ASSERT_TRUE(back) << back.error().str() << "\n" << text;
  std::string why;
  EXPECT_TRUE(graphsEqual(g, *back, &why)) << why << "\n" << text;
  EXPECT_EQ(back->moduleName, "<lambda>");
  // The writer is deterministic and the reader loses nothing it prints.
  EXPECT_EQ(printFxkitJson(*back), text);
  // Spot checks of the decoded values.
  const Argument &a = back->find("f")->args();
  EXPECT_TRUE(std::isnan(a.items()[13].asFloat()));
  EXPECT_EQ(a.items()[11].asFloat(), std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::signbit(a.items()[8].asFloat()));
  EXPECT_EQ(a.items()[9].kind(), Argument::Kind::Float);
  EXPECT_EQ(a.items()[24].asDevice().index, 1);
  EXPECT_EQ(back->find("f")->kwargs().dictKey(0), "zeta");
  EXPECT_EQ(back->find("x")->value().tensor()->str(), "f32[s0, s1*s2 + 1][s1*s2 + 1, 1]cuda:0");
}

TEST(Json, Golden) {
  Graph g;
  Node *x = g.create(OpKind::Placeholder, "x", "x");
  x->value().v = tensor("f32[s0, 4][4, 1]cuda:0");
  Node *r = g.create(OpKind::CallFunction, "relu", "torch.ops.aten.relu.default",
                     Argument::tuple({Argument::node(x)}));
  Node *s = g.create(OpKind::CallFunction, "sum_1", "torch.ops.aten.sum.dim_IntList",
                     Argument::tuple({Argument::node(r), Argument::list({Argument::integer(-1)}),
                                      Argument::boolean(true)}),
                     Argument::dict({{"dtype", Argument::dtype(DType::Float32)}}));
  s->value().v = tensor("f32[s0, 1][1, 1]cuda:0");
  g.create(
      OpKind::Output, "output", "output",
      Argument::tuple({Argument::tuple(
          {Argument::node(s), Argument::floating(-std::numeric_limits<double>::infinity())})}));
  const char *expected = R"({
  "format": "fxkit.graph",
  "version": 1,
  "module": "GraphModule",
  "nodes": [
    {"name": "x", "op": "placeholder", "target": "x", "val": {"dtype": "float32", "shape": ["s0", "4"], "stride": ["4", "1"], "device": "cuda:0"}},
    {"name": "relu", "op": "call_function", "target": "torch.ops.aten.relu.default", "args": [{"node": "x"}]},
    {"name": "sum_1", "op": "call_function", "target": "torch.ops.aten.sum.dim_IntList", "args": [{"node": "relu"}, [-1], true], "kwargs": {"dtype": {"dtype": "float32"}}, "val": {"dtype": "float32", "shape": ["s0", "1"], "stride": ["1", "1"], "device": "cuda:0"}},
    {"name": "output", "op": "output", "target": "output", "args": [{"tuple": [{"node": "sum_1"}, {"float": "-inf"}]}]}
  ]
}
)";
  EXPECT_EQ(printFxkitJson(g), expected);
  auto back = parseFxkitJson(expected);
  ASSERT_TRUE(back) << back.error().str();
  EXPECT_TRUE(graphsEqual(g, *back));
}

TEST(Json, SyntaxErrorHasLineAndColumn) {
  expectError("{\n  \"format\": \"fxkit.graph\",\n  \"version\" 1\n}\n", "JSON syntax error", 3,
              13);
}

TEST(Json, EmptyAndTruncatedInput) {
  expectError("", "empty input", 1, 1);
  expectError("  \n", "empty input", 2, 1);
  std::string full = printFxkitJson(makeEverything());
  std::string cut = full.substr(0, full.size() / 2);
  auto g = parseFxkitJson(cut, "cut.json");
  ASSERT_FALSE(g);
  EXPECT_NE(g.error().message.find("JSON syntax error"), std::string::npos) << g.error().str();
  EXPECT_GT(g.error().loc.line, 1);
  // A document cut right after the last node (no closing brackets) points at the end.
  std::string tail = full.substr(0, full.rfind('}', full.size() - 3));
  auto g2 = parseFxkitJson(tail, "cut.json");
  ASSERT_FALSE(g2);
  EXPECT_NE(g2.error().message.find("unexpected end of input"), std::string::npos)
      << g2.error().str();
}

TEST(Json, RejectsWrongFormatAndVersion) {
  expectError("{\"format\": \"fxkit.graph\",\n \"version\": 2, \"nodes\": []}",
              "unsupported version 2", 2, 13);
  expectError("{\"format\": \"other\", \"version\": 1, \"nodes\": []}", "not an fxkit graph", 1,
              12);
  expectError("[1, 2]", "must be an object", 1, 1);
  expectError("{\"format\": \"fxkit.graph\", \"version\": 1}", "missing 'nodes'", 1, 1);
  expectError("{\"format\": \"fxkit.graph\", \"version\": 1, \"nodes\": [], \"extra\": 0}",
              "unknown top-level field 'extra'", 1, 63);
}

TEST(Json, RejectsBadNodes) {
  // Line 6 holds the spliced node; columns point at the offending value.
  expectError(
      withNode(
          R"({"name": "y", "op": "call_function", "target": "f", "args": [{"node": "nope"}]})"),
      "node 'y' (nodes[1]): undefined node reference 'nope'", 6, 75);
  expectError(withNode(R"({"name": "x", "op": "call_function", "target": "f"})"),
              "node 'x' (nodes[1]): duplicate node name (first defined at nodes[0])", 6, 14);
  expectError(
      withNode(
          R"({"name": "y", "op": "call_function", "target": "f", "args": [{"dtype": "float33"}]})"),
      "unknown dtype 'float33'", 6, 76);
  expectError(
      withNode(R"({"name": "y", "op": "call_function", "target": "f", "args": [{"sym": "s0 +"}]})"),
      "bad symbolic expression 's0 +'", 6, 74);
  expectError(withNode(R"({"name": "y", "op": "call_fn", "target": "f"})"), "unknown op 'call_fn'",
              6, 25);
  expectError(withNode(R"({"name": "y", "op": "call_function", "target": 3})"),
              "'target' must be a string, not integer", 6, 52);
  expectError(withNode(R"({"name": "y", "op": "call_function", "target": "f", "args": {"a": 1}})"),
              "'args' must be an array, not object", 6, 65);
  expectError(
      withNode(R"({"name": "y", "op": "call_function", "target": "f", "args": [{"bogus": 1}]})"),
      "unknown argument tag 'bogus'", 6, 66);
  expectError(
      withNode(
          R"({"name": "y", "op": "call_function", "target": "f", "args": [{"float": "1.5"}]})"),
      "bad float '1.5'", 6, 76);
  expectError(withNode(R"({"name": "y", "op": "call_function", "target": "f", "colour": 1})"),
              "unknown node field 'colour'", 6, 67);
  expectError(withNode(R"({"name": "y", "target": "f"})"), "node 'y' (nodes[1]): missing 'op'", 6,
              5);
  expectError(withNode(R"({"name": "y", "op": "call_function"})"), "missing 'target'", 6, 5);
  expectError(withNode(R"({"name": "y", "op": "call_function", "target": "f", "type": 1})"),
              "'type' must be a string", 6, 65);
  expectError(withNode(R"({"name": 7, "op": "call_function", "target": "f"})"),
              "nodes[1]: 'name' must be a string", 6, 14);
  expectError(
      withNode(
          R"({"name": "y", "op": "call_function", "target": "f", "args": [{"node": "x", "extra": 1}]})"),
      "exactly one key", 6, 66);
  expectError(
      withNode(
          R"({"name": "y", "op": "call_function", "target": "f", "args": [{"device": "cuda:x"}]})"),
      "bad device index", 6, 77);
  expectError(
      withNode(
          R"({"name": "y", "op": "call_function", "target": "f", "args": [99999999999999999999]})"),
      "out of the 64-bit range", 6, 66);
  expectError(
      withNode(
          R"({"name": "y", "op": "call_function", "target": "f", "args": [9223372036854775808]})"),
      "out of the 64-bit range", 6, 66);
  expectError(
      withNode(
          R"({"name": "y", "op": "call_function", "target": "f", "val": {"dtype": "f32", "shape": ["2"], "stride": [], "device": "cpu"}})"),
      "1 sizes but 0 strides", 6, 64);
  expectError(
      withNode(
          R"({"name": "y", "op": "call_function", "target": "f", "args": [{"node": "z"}]}, {"name": "z", "op": "call_function", "target": "f")"),
      "undefined node reference 'z'", 6, 75);
  expectError(withNode(R"({"op": "call_function", "target": "f"})"), "nodes[1]: missing 'name'", 6,
              5);
  expectError(
      withNode(
          R"({"name": "y", "op": "call_function", "target": "f", "val": {"dtype": "f32", "shape": ["s0"], "stride": ["1"], "device": "cpu", "size": 1}})"),
      "unknown tensor field 'size'", 6, 140);
  expectError(
      withNode(
          R"({"name": "y", "op": "call_function", "target": "f", "val": {"dtype": "f32", "shape": ["s0*"], "stride": ["1"], "device": "cpu"}})"),
      "bad symbolic expression 's0*' in 'shape'", 6, 91);
  expectError(withNode(R"({"name": "y", "op": "call_function", "target": "f", "val": 3})"),
              "'val' must be an object", 6, 64);
}

TEST(Json, VerifierRunsAfterReading) {
  auto g = parseFxkitJson(R"({"format": "fxkit.graph", "version": 1, "nodes": [
    {"name": "x", "op": "placeholder", "target": "x"}
  ]})",
                          "noout.json");
  ASSERT_FALSE(g);
  EXPECT_NE(g.error().message.find("output nodes, expected 1"), std::string::npos)
      << g.error().str();
  expectError(withNode(R"({"name": "out2", "op": "output", "target": "output"})"),
              "invalid graph: node 'out2': output node is not the last node", 6, 5);
}

TEST(Json, DeepNestingIsAnErrorNotACrash) {
  // Deeper than arguments may nest (200) but within the document limit: the reader's error.
  std::string deep(500, '[');
  deep += std::string(500, ']');
  auto g = parseFxkitJson(
      withNode(R"({"name": "y", "op": "call_function", "target": "f", "args": )" + deep + "}"),
      "deep.json");
  ASSERT_FALSE(g);
  EXPECT_NE(g.error().message.find("arguments nested deeper than 200 levels"), std::string::npos)
      << g.error().str();
  // The writer handles any depth (built bottom-up with moves: copies would be quadratic).
  constexpr size_t kDepth = 20000;
  auto nested = [](size_t depth) {
    Argument a = Argument::integer(0);
    for (size_t i = 0; i < depth; ++i) {
      std::vector<Argument> items;
      items.push_back(std::move(a));
      a = Argument::list(std::move(items));
    }
    std::vector<Argument> args;
    args.push_back(std::move(a));
    Graph g;
    g.create(OpKind::Output, "output", "output", Argument::tuple(std::move(args)));
    return printFxkitJson(g);
  };
  EXPECT_EQ(nested(kDepth).size(), nested(0).size() + 2 * kDepth);
}

// ---- submodules (child GraphModules) ----

namespace {

/// `name(a) -> (a,)` with `children` as its submodules: the body of a higher-order op.
std::shared_ptr<const Graph> makeChild(const std::string &name,
                                       std::vector<std::shared_ptr<const Graph>> children = {}) {
  Graph g;
  g.moduleName = name;
  Node *a = g.create(OpKind::Placeholder, "a", "a");
  a->value().v = tensor("f32[s0][1]cpu");
  Node *r = a;
  for (const auto &c : children) {
    Node *attr = g.create(OpKind::GetAttr, c->moduleName, c->moduleName);
    r = g.create(OpKind::CallFunction, "invoke_" + c->moduleName,
                 "torch.ops.higher_order.invoke_subgraph",
                 Argument::tuple(
                     {Argument::node(attr), Argument::string(c->moduleName), Argument::node(r)}));
  }
  g.create(OpKind::Output, "output", "output",
           Argument::tuple({Argument::tuple({Argument::node(r)})}));
  g.submodules = std::move(children);
  return std::make_shared<const Graph>(std::move(g));
}

/// torch.cond with two branches, the true branch with a child of its own.
Graph makeNested() {
  Graph g;
  Node *p = g.create(OpKind::Placeholder, "p", "p");
  Node *x = g.create(OpKind::Placeholder, "x", "x");
  Node *t = g.create(OpKind::GetAttr, "true_graph_0", "true_graph_0");
  Node *f = g.create(OpKind::GetAttr, "false_graph_0", "false_graph_0");
  Node *c = g.create(OpKind::CallFunction, "cond", "torch.ops.higher_order.cond",
                     Argument::tuple({Argument::node(p), Argument::node(t), Argument::node(f),
                                      Argument::tuple({Argument::node(x)})}));
  g.create(OpKind::Output, "output", "output",
           Argument::tuple({Argument::tuple({Argument::node(c)})}));
  g.submodules = {makeChild("true_graph_0", {makeChild("inner")}), makeChild("false_graph_0")};
  return g;
}

/// A document whose graph has `depth` levels of children, each the only child of the one above.
std::string nestedDocument(size_t depth) {
  const std::string nodes = R"("nodes": [{"name": "output", "op": "output", "target": "output"}])";
  std::string text = R"({"format": "fxkit.graph", "version": 1, )" + nodes;
  for (size_t i = 0; i < depth; ++i)
    text += R"(, "submodules": [{"module": "m", )" + nodes;
  for (size_t i = 0; i < depth; ++i)
    text += "}]";
  return text + "}";
}

} // namespace

TEST(Json, SubmodulesRoundTrip) {
  Graph g = makeNested();
  ASSERT_TRUE(verifyGraph(g));
  std::string text = printFxkitJson(g);
  auto back = parseFxkitJson(text, "nested.json");
  ASSERT_TRUE(back) << back.error().str() << "\n" << text;
  std::string why;
  EXPECT_TRUE(graphsEqual(g, *back, &why)) << why << "\n" << text;
  EXPECT_EQ(printFxkitJson(*back), text);
  ASSERT_EQ(back->submodules.size(), 2u);
  const Graph *inner = back->submodule("true_graph_0")->submodule("inner");
  ASSERT_TRUE(inner);
  EXPECT_EQ(inner->find("a")->value().tensor()->str(), "f32[s0][1]cpu");
  // graphsEqual looks into the children: a changed grandchild makes the documents differ.
  Graph changed = back->clone();
  changed.submodules[0] = makeChild("true_graph_0", {makeChild("other")});
  EXPECT_FALSE(graphsEqual(g, changed, &why));
  EXPECT_NE(why.find("submodule 'true_graph_0': node names differ: inner vs other"),
            std::string::npos)
      << why;
}

TEST(Json, SubmodulesGolden) {
  Graph g;
  Node *x = g.create(OpKind::Placeholder, "x", "x");
  Node *body = g.create(OpKind::GetAttr, "body", "body");
  Node *call = g.create(OpKind::CallModule, "call", "body", Argument::tuple({Argument::node(x)}));
  (void)body;
  g.create(OpKind::Output, "output", "output", Argument::tuple({Argument::node(call)}));
  g.submodules = {makeChild("body", {makeChild("leaf")}), makeChild("empty")};
  const char *expected = R"({
  "format": "fxkit.graph",
  "version": 1,
  "module": "GraphModule",
  "nodes": [
    {"name": "x", "op": "placeholder", "target": "x"},
    {"name": "body", "op": "get_attr", "target": "body"},
    {"name": "call", "op": "call_module", "target": "body", "args": [{"node": "x"}]},
    {"name": "output", "op": "output", "target": "output", "args": [{"node": "call"}]}
  ],
  "submodules": [
    {
      "module": "body",
      "nodes": [
        {"name": "a", "op": "placeholder", "target": "a", "val": {"dtype": "float32", "shape": ["s0"], "stride": ["1"], "device": "cpu"}},
        {"name": "leaf", "op": "get_attr", "target": "leaf"},
        {"name": "invoke_leaf", "op": "call_function", "target": "torch.ops.higher_order.invoke_subgraph", "args": [{"node": "leaf"}, "leaf", {"node": "a"}]},
        {"name": "output", "op": "output", "target": "output", "args": [{"tuple": [{"node": "invoke_leaf"}]}]}
      ],
      "submodules": [
        {
          "module": "leaf",
          "nodes": [
            {"name": "a", "op": "placeholder", "target": "a", "val": {"dtype": "float32", "shape": ["s0"], "stride": ["1"], "device": "cpu"}},
            {"name": "output", "op": "output", "target": "output", "args": [{"tuple": [{"node": "a"}]}]}
          ]
        }
      ]
    },
    {
      "module": "empty",
      "nodes": [
        {"name": "a", "op": "placeholder", "target": "a", "val": {"dtype": "float32", "shape": ["s0"], "stride": ["1"], "device": "cpu"}},
        {"name": "output", "op": "output", "target": "output", "args": [{"tuple": [{"node": "a"}]}]}
      ]
    }
  ]
}
)";
  EXPECT_EQ(printFxkitJson(g), expected);
  auto back = parseFxkitJson(expected);
  ASSERT_TRUE(back) << back.error().str();
  std::string why;
  EXPECT_TRUE(graphsEqual(g, *back, &why)) << why;
  // A graph without children writes no "submodules" field: version 1 documents as before.
  EXPECT_EQ(printFxkitJson(*back->submodules[1]).find("submodules"), std::string::npos);
}

TEST(Json, RejectsBadSubmodules) {
  Graph g = makeNested();
  const std::string text = printFxkitJson(g);
  auto edit = [&](std::string_view from, std::string_view to) {
    std::string t = text;
    size_t at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? t : t.replace(at, from.size(), to);
  };
  // Line 15 is `"module": "true_graph_0",`, line 22 its "submodules", line 24 its child's
  // module, line 33 `"module": "false_graph_0",`; columns point at the value at fault.
  expectError(edit(R"("module": "true_graph_0")", R"("modul": "true_graph_0")"),
              "submodules[0]: unknown submodule field 'modul'", 15, 16);
  expectError(edit(R"("module": "true_graph_0")", R"("module": 7)"),
              "submodules[0]: 'module' must be a string, not integer", 15, 17);
  expectError(edit(R"("module": "true_graph_0")", R"("module": "")"),
              "submodules[0]: empty module name", 15, 17);
  expectError(edit(R"("module": "false_graph_0")", R"("module": "true_graph_0")"),
              "submodule 'true_graph_0' is defined twice (first at submodules[0])", 33, 17);
  expectError(edit(R"("module": "inner")", R"("module": "inner", "format": "fxkit.graph")"),
              "submodule 'true_graph_0.inner': unknown submodule field 'format'", 24, 40);
  expectError(edit(R"("submodules": [
        {)",
                   R"("submodules": [7, {)"),
              "submodule 'true_graph_0': submodules[0]: a submodule must be an object (module, "
              "nodes, submodules), not integer",
              22, 22);
  std::string notArray = nestedDocument(1);
  notArray.replace(notArray.find(R"("submodules": [)"), 15, R"("submodules": )");
  notArray.replace(notArray.size() - 3, 3, "}}");
  expectError(notArray, "'submodules' must be an array, not object", 1, 122);
  // A child's nodes are read as the document's: errors name the child and the node.
  expectError(
      edit(
          R"({"name": "a", "op": "placeholder", "target": "a", "val": {"dtype": "float32", "shape": ["s0"], "stride": ["1"], "device": "cpu"}},
            {"name": "output")",
          R"({"name": "a", "op": "placeholder", "target": "a"},
            {"name": "b", "op": "call_function", "target": "f", "args": [{"node": "x"}]},
            {"name": "output")"),
      "submodule 'true_graph_0.inner': node 'b' (nodes[1]): undefined node reference 'x'", 27, 83);
  // A child must be a graph the verifier accepts; the error points at the node it names.
  expectError(
      edit(
          R"({"name": "output", "op": "output", "target": "output", "args": [{"tuple": [{"node": "a"}]}]}
      ])",
          R"({"name": "output", "op": "output", "target": "output", "args": [{"tuple": [{"node": "a"}]}]},
        {"name": "late", "op": "call_function", "target": "f"}
      ])"),
      "submodule 'false_graph_0': invalid graph: node 'output': output node is not the last node",
      36, 9);
  // Without nodes, a child is no graph.
  expectError(edit(R"("module": "false_graph_0",
      "nodes": [)",
                   R"("module": "false_graph_0", "nodez": [)"),
              "submodule 'false_graph_0': unknown submodule field 'nodez'", 33, 43);
}

TEST(Json, SubmoduleDepthLimit) {
  // As deep as print_readable() classes may nest (ReadablePyParser's limit): read and written
  // back the same.
  auto ok = parseFxkitJson(nestedDocument(256), "deep.json");
  ASSERT_TRUE(ok) << ok.error().str();
  const Graph *g = &*ok;
  size_t levels = 0;
  while (!g->submodules.empty()) {
    g = g->submodules[0].get();
    ++levels;
  }
  EXPECT_EQ(levels, 256u);
  auto again = parseFxkitJson(printFxkitJson(*ok), "deep2.json");
  ASSERT_TRUE(again) << again.error().str();
  EXPECT_TRUE(graphsEqual(*ok, *again));
  // One level more is an error at the child one too deep, and far more is no crash.
  std::string text = nestedDocument(257);
  size_t at = 0;
  for (int i = 0; i < 257; ++i)
    at = text.find(R"({"module")", at + 1);
  expectError(text, "submodules nested more than 256 levels deep", 1, static_cast<int>(at) + 1);
  // (Far more is refused before any reading: JSON nested deeper than maxJsonDepth().)
  auto deep = parseFxkitJson(nestedDocument(100000), "deeper.json");
  ASSERT_FALSE(deep);
  EXPECT_NE(deep.error().message.find("JSON nested deeper than 1000 levels"), std::string::npos)
      << deep.error().str();
}

// ---- nodes.json sidecars ----

namespace {

Graph makeSidecarGraph() {
  Graph g;
  Node *x = g.create(OpKind::Placeholder, "arg0_1", "arg0_1");
  Node *s = g.create(OpKind::Placeholder, "arg1_1", "arg1_1");
  Node *sp = g.create(OpKind::CallFunction, "split", "torch.ops.aten.split.Tensor",
                      Argument::tuple({Argument::node(x), Argument::integer(2)}));
  Node *gi = g.create(OpKind::CallFunction, "getitem", "operator.getitem",
                      Argument::tuple({Argument::node(sp), Argument::integer(0)}));
  g.create(OpKind::Output, "output", "output",
           Argument::tuple({Argument::tuple({Argument::node(gi), Argument::node(s)})}));
  return g;
}

const char *kSidecar = R"json([
 {"name": "arg0_1", "op": "placeholder", "target": "arg0_1",
  "val": {"dtype": "float32", "shape": ["s77", "s17*s27"], "stride": ["s17*s27", "1"], "device": "cuda:0"}},
 {"name": "arg1_1", "op": "placeholder", "target": "arg1_1", "val": "s77"},
 {"name": "split", "op": "call_function", "target": "aten.split.Tensor", "args": "(arg0_1, 2)", "kwargs": "{}",
  "val": [{"dtype": "float32", "shape": ["2", "4"], "stride": ["4", "1"], "device": "cpu"}, null]},
 {"name": "getitem", "op": "call_function", "target": "<built-in function getitem>",
  "val": {"dtype": "bfloat16", "shape": [], "stride": [], "device": "cpu"}},
 {"name": "output", "op": "output", "target": "output", "val": null}
]
)json";

void expectSidecarError(std::string text, const std::string &needle, int line, int col) {
  Graph g = makeSidecarGraph();
  Status st = attachNodesJson(g, text, "x.nodes.json");
  ASSERT_FALSE(st) << "accepted:\n" << text;
  EXPECT_NE(st.error().message.find(needle), std::string::npos) << st.error().str();
  EXPECT_EQ(st.error().loc.line, line) << st.error().str();
  EXPECT_EQ(st.error().loc.col, col) << st.error().str();
}

std::string replaced(std::string text, std::string_view from, std::string_view to) {
  size_t p = text.find(from);
  EXPECT_NE(p, std::string::npos) << from;
  return text.replace(p, from.size(), to);
}

} // namespace

TEST(NodesJson, AttachesValues) {
  Graph g = makeSidecarGraph();
  Status st = attachNodesJson(g, kSidecar, "x.nodes.json");
  ASSERT_TRUE(st) << st.error().str();
  EXPECT_EQ(g.find("arg0_1")->value().tensor()->str(), "f32[s77, s17*s27][s17*s27, 1]cuda:0");
  EXPECT_EQ(g.find("arg1_1")->value().sym()->str(), "s77");
  const auto *ts = g.find("split")->value().tensors();
  ASSERT_TRUE(ts);
  ASSERT_EQ(ts->size(), 2u);
  EXPECT_EQ((*ts)[0]->str(), "f32[2, 4][4, 1]cpu");
  EXPECT_FALSE((*ts)[1]);
  EXPECT_EQ(g.find("getitem")->value().tensor()->str(), "bf16[][]cpu");
  EXPECT_TRUE(g.find("output")->value().empty());
  auto back = parseFxkitJson(printFxkitJson(g));
  ASSERT_TRUE(back) << back.error().str();
  EXPECT_TRUE(graphsEqual(g, *back));
}

TEST(NodesJson, MismatchErrors) {
  expectSidecarError(replaced(kSidecar, "\"name\": \"split\"", "\"name\": \"splat\""),
                     "entry 2 ('splat'): no node named 'splat' in the graph", 5, 11);
  expectSidecarError(replaced(kSidecar, "\"op\": \"placeholder\", \"target\": \"arg1_1\"",
                              "\"op\": \"get_attr\", \"target\": \"arg1_1\""),
                     "entry 1 ('arg1_1'): op 'get_attr' does not match node 'arg1_1', which is a "
                     "placeholder",
                     4, 27);
  expectSidecarError(replaced(kSidecar, "aten.split.Tensor", "aten.split.default"),
                     "entry 2 ('split'): target 'aten.split.default' does not match", 5, 53);
  expectSidecarError(replaced(kSidecar, "\"name\": \"getitem\"", "\"name\": \"split\""),
                     "entry 3 ('split'): node 'split' already described by entry 2", 7, 11);
  expectSidecarError(replaced(kSidecar, "\"bfloat16\"", "\"bfloat17\""),
                     "entry 3 ('getitem'): unknown dtype 'bfloat17'", 8, 20);
  expectSidecarError(replaced(kSidecar, "[\"2\", \"4\"]", "[\"2\", \"4)\"]"),
                     "bad symbolic expression '4)'", 6, 47);
  expectSidecarError(replaced(kSidecar, "\"val\": \"s77\"", "\"val\": 77"),
                     "entry 1 ('arg1_1'): 'val' must be an object", 4, 69);
  expectSidecarError(replaced(kSidecar, "\"op\": \"output\",", ""),
                     "entry 4 ('output'): missing 'op'", 9, 2);
  expectSidecarError("{}", "must be an array", 1, 1);
  expectSidecarError("[\n {\"name\": \"x\",}\n]", "JSON syntax error", 2, 15);
}

// Dynamic-shape graphs: values that are SymBools, SymFloats, and lists mixing tensors and
// SymInts (an output returning `s23` beside tensors), as the sidecar writes them (str()).
TEST(NodesJson, ReadsSymbolicScalarsAndMixedLists) {
  std::string text = replaced(kSidecar, R"("val": "s77")", R"("val": "u0 >= 0")");
  text = replaced(
      text, R"("target": "output", "val": null)",
      R"("target": "output", "val": [{"dtype": "bfloat16", "shape": [], "stride": [], "device": "cpu"}, "s77", ["0.100000000000000", null, "True"]])");
  Graph g = makeSidecarGraph();
  Status st = attachNodesJson(g, text, "x.nodes.json");
  ASSERT_TRUE(st) << st.error().str();
  const SymExpr *ge = g.find("arg1_1")->value().sym();
  ASSERT_TRUE(ge);
  EXPECT_EQ(ge->str(), "u0 >= 0");
  EXPECT_EQ(ge->type(), SymExpr::Type::Bool);
  const auto *items = g.find("output")->value().items();
  ASSERT_TRUE(items);
  ASSERT_EQ(items->size(), 3u);
  EXPECT_EQ((*items)[0].tensor()->str(), "bf16[][]cpu");
  EXPECT_EQ((*items)[1].sym()->str(), "s77");
  const auto *nested = (*items)[2].items();
  ASSERT_TRUE(nested);
  ASSERT_EQ(nested->size(), 3u);
  EXPECT_EQ((*nested)[0].sym()->type(), SymExpr::Type::Float);
  EXPECT_TRUE((*nested)[1].empty());
  EXPECT_EQ((*nested)[2].sym()->str(), "True");
  // The fxkit format keeps all of it.
  auto back = parseFxkitJson(printFxkitJson(g), "mixed.json");
  ASSERT_TRUE(back) << back.error().str();
  EXPECT_TRUE(back->find("output")->value() == g.find("output")->value());
  EXPECT_TRUE(back->find("arg1_1")->value() == g.find("arg1_1")->value());
  // Python functions print by name in the sidecar: `<built-in function floor>` is math.floor.
  Graph fn;
  Node *x = fn.create(OpKind::Placeholder, "x", "x");
  Node *fl =
      fn.create(OpKind::CallFunction, "floor", "math.floor", Argument::tuple({Argument::node(x)}));
  Node *sf = fn.create(OpKind::CallFunction, "sym_float", "torch.sym_float",
                       Argument::tuple({Argument::node(fl)}));
  fn.create(OpKind::Output, "output", "output", Argument::tuple({Argument::node(sf)}));
  Status named = attachNodesJson(fn, R"json([
 {"name": "x", "op": "placeholder", "target": "x", "val": "zf0"},
 {"name": "floor", "op": "call_function", "target": "<built-in function floor>", "val": "FloorToInt(zf0)"},
 {"name": "sym_float", "op": "call_function", "target": "<function sym_float at 0x7f3a2c1b5e40>", "val": "ToFloat(FloorToInt(zf0))"},
 {"name": "output", "op": "output", "target": "output", "val": ["ToFloat(FloorToInt(zf0))"]}
])json",
                                 "fn.nodes.json");
  ASSERT_TRUE(named) << named.error().str();
  EXPECT_EQ(fn.find("sym_float")->value().sym()->type(), SymExpr::Type::Float);
  // A bad expression inside a list is located at the item.
  expectSidecarError(replaced(text, R"("True"]])", R"("u0 >="]])"),
                     "entry 4 ('output'): bad symbolic expression 'u0 >='", 9, 167);
}

// ---- speed ----

// Timings mean something only in optimized, uninstrumented builds; elsewhere the test only
// checks the round trip, on a smaller graph.
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__)
constexpr bool kTimed = true;
#else
constexpr bool kTimed = false;
#endif

TEST(Json, LargeGraphSpeed) {
  const int kNodes = kTimed ? 100000 : 10000;
  Graph g;
  Node *prev = g.create(OpKind::Placeholder, "x", "x");
  prev->value().v = tensor("f32[s0, 4096][4096, 1]cuda:0");
  // Each node uses the previous two, like a residual chain. (A node with 100k users would
  // measure verifyGraph's users check, which is quadratic in the number of users.)
  Node *w = g.create(OpKind::Placeholder, "w", "w");
  for (int i = 0; i < kNodes - 3; ++i) {
    Node *n =
        g.create(OpKind::CallFunction, "add_" + std::to_string(i), "torch.ops.aten.add.Tensor",
                 Argument::tuple({Argument::node(prev), Argument::node(w)}),
                 Argument::dict({{"alpha", Argument::floating(0.5)}}));
    n->value().v = tensor("f32[s0, 4096][4096, 1]cuda:0");
    w = prev;
    prev = n;
  }
  g.create(OpKind::Output, "output", "output",
           Argument::tuple({Argument::tuple({Argument::node(prev)})}));
  auto t0 = std::chrono::steady_clock::now();
  std::string text = printFxkitJson(g);
  auto t1 = std::chrono::steady_clock::now();
  auto back = parseFxkitJson(text, "big.json");
  auto t2 = std::chrono::steady_clock::now();
  ASSERT_TRUE(verifyGraph(*back));
  auto t3 = std::chrono::steady_clock::now();
  ASSERT_TRUE(back) << back.error().str();
  EXPECT_TRUE(graphsEqual(g, *back));
  double writeS = std::chrono::duration<double>(t1 - t0).count();
  double readS = std::chrono::duration<double>(t2 - t1).count();
  std::cout << "[ speed    ] " << kNodes << " nodes, " << text.size() / 1e6 << " MB: write "
            << writeS * 1e3 << " ms, read " << readS * 1e3 << " ms (of which verifyGraph about "
            << std::chrono::duration<double>(t3 - t2).count() * 1e3 << " ms)\n";
  // Generous bounds: the machines are shared.
  if (kTimed) {
    EXPECT_LT(writeS, 5.0);
    EXPECT_LT(readS, 10.0);
  }
}

// ---- nesting depth: every JSON input is depth-checked before any DOM exists (issue 19) ----

namespace {

/// `{"zz":[[...]],"yy":1}` with `depth` arrays inside the object (depth + 1 levels in all).
std::string deepArrays(size_t depth) {
  return R"({"zz":)" + std::string(depth, '[') + std::string(depth, ']') + R"(,"yy":1})";
}

} // namespace

TEST(JsonDepth, CountsBracketsOutsideStrings) {
  using json::checkJsonDepth;
  EXPECT_TRUE(checkJsonDepth("", "a.json", 1));
  EXPECT_TRUE(checkJsonDepth("[[]]", "a.json", 2));
  Status s = checkJsonDepth("[[[]]]", "a.json", 2);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().loc.file, "a.json");
  EXPECT_EQ(s.error().loc.line, 1);
  EXPECT_EQ(s.error().loc.col, 3);
  EXPECT_NE(s.error().message.find("JSON nested deeper than 2 levels"), std::string::npos);
  EXPECT_NE(s.error().message.find("FXKIT_JSON_MAX_DEPTH"), std::string::npos);
  // Brackets inside strings do not count; an escaped quote does not end a string, an escaped
  // backslash before the quote does.
  EXPECT_TRUE(checkJsonDepth(R"(["[[[[{{{{", "\"[[[[", "\\", "x"])", "a.json", 1));
  Status t = checkJsonDepth(R"(["\\", [[1]]])", "a.json", 2);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().loc.col, 9);
  // Objects count as arrays do; the location is the bracket's line and column.
  Status u = checkJsonDepth("{\n \"a\": {\"b\":\n  [1]}}", "b.json", 2);
  ASSERT_FALSE(u);
  EXPECT_EQ(u.error().loc.line, 3);
  EXPECT_EQ(u.error().loc.col, 3);
  // Stray closers (a syntax error the parser reports) do not hide depth; an unterminated
  // string ends the scan.
  EXPECT_FALSE(checkJsonDepth("]]]][[[", "a.json", 2));
  EXPECT_TRUE(checkJsonDepth(R"(["[[[[)", "a.json", 1));
  if (!std::getenv("FXKIT_JSON_MAX_DEPTH"))
    EXPECT_EQ(json::maxJsonDepth(), json::kDefaultMaxJsonDepth);
  EXPECT_EQ(json::kDefaultMaxJsonDepth, 1000u);
}

TEST(JsonDepth, ParseJsonRefusesDeepDocumentsAtTheLimit) {
  if (json::maxJsonDepth() != 1000)
    GTEST_SKIP() << "FXKIT_JSON_MAX_DEPTH is set";
  EXPECT_TRUE(json::parseJson(deepArrays(999), "ok.json")); // 1000 levels
  auto bad = json::parseJson(deepArrays(1000), "d.json");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().loc.line, 1);
  EXPECT_EQ(bad.error().loc.col, 6 + 1000); // the 1000th '[' is the 1001st level
  // The reproducer of issue 19 (50k+ levels exhausted the stack): an error, not a crash.
  auto deep = json::parseJson(deepArrays(100000), "d.json");
  ASSERT_FALSE(deep);
  EXPECT_EQ(deep.error().loc.col, 6 + 1000);
}

TEST(JsonDepth, FxkitJsonAndNodesJsonRefuseDeepDocuments) {
  // A deep value in a field that is kept as a DOM and printed in the message (`version`)
  // crashed; so did any other deep field. Now: a located error.
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  std::string doc = R"({"format": "fxkit.graph", "version": )" + deep + R"(, "nodes": []})";
  expectError(doc, "JSON nested deeper than 1000 levels", 1, 38 + 999);
  expectError(
      withNode(R"({"name": "y", "op": "call_function", "target": "f", "args": )" + deep + "}"),
      "JSON nested deeper than 1000 levels", 6, 65 + 997);
  Graph g = makeSidecarGraph();
  Status st = attachNodesJson(g, deepArrays(100000), "x.nodes.json");
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("JSON nested deeper than 1000 levels"), std::string::npos)
      << st.error().str();
  EXPECT_EQ(st.error().loc.file, "x.nodes.json");
  EXPECT_EQ(st.error().loc.col, 6 + 1000);
  st = attachNodesJson(g, "[" + deepArrays(100000) + "]", "x.nodes.json");
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().loc.col, 7 + 999);
}

// ---- text fxkit writes must read back (issue 19, item 10) ----

TEST(Json, EmptyTargetIsALocatedError) {
  expectError(
      withNode(R"({"name": "y", "op": "call_function", "target": "", "args": [{"node": "x"}]})"),
      "node 'y' (nodes[1]): empty target", 6, 52);
  expectError(withNode(R"({"name": "y", "op": "call_function", "target": "a\nb"})"),
              "node 'y' (nodes[1]): target spans lines", 6, 52);
}

TEST(Json, ObjectsKeepKeyOrderAndLastDuplicateWins) {
  // parseJson builds the DOM itself (a hash index over a large object's keys, so n keys parse in
  // linear time); it must give what nlohmann's parser gives: keys in file order, every value
  // typed as nlohmann types it, and a repeated key's last value in the first one's place, for
  // small objects (searched linearly) and large ones (indexed).
  for (int n : {3, 15, 16, 17, 1000}) {
    SCOPED_TRACE(n);
    std::string text = "{";
    for (int i = 0; i < n; ++i)
      text += (i ? ", \"k" : "\"k") + std::to_string(i) + "\": " + std::to_string(i);
    text += ", \"k1\": \"again\", \"list\": [1, -2, 18446744073709551615, 2.5, true, null, {}], "
            "\"k0\": {\"a\": 1, \"a\": 2}}";
    auto parsed = json::parseJson(text, "keys.json");
    ASSERT_TRUE(parsed) << parsed.error().str();
    auto want = json::Json::parse(text);
    EXPECT_EQ(*parsed, want);
    EXPECT_EQ(parsed->dump(), want.dump());
    ASSERT_EQ(parsed->size(), static_cast<size_t>(n + 1));
    auto it = parsed->begin();
    EXPECT_EQ(it.key(), "k0");
    EXPECT_EQ((*parsed)["k0"], json::Json::parse(R"({"a": 2})"));
    EXPECT_EQ((*parsed)["k1"], "again");
    EXPECT_TRUE((*parsed)["list"][1].is_number_integer());
    EXPECT_TRUE((*parsed)["list"][2].is_number_unsigned());
    EXPECT_TRUE((*parsed)["list"][3].is_number_float());
  }
}
