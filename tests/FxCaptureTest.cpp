// Golden tests on tests/data/fx-capture: PyTorch 2.11's own output for graphs with nested
// GraphModules (the bodies of higher-order ops: autograd.Function, checkpoint, cond, while_loop,
// invoke_subgraph, map, flex_attention; split_module's parts), Python syntax FX prints
// (operators, in-place statements, subscripts, dtypes, devices, SymInt arithmetic), torch.fx's
// own traces and torch.export's modules, each stage as print_readable() code, `str(graph)` and
// typed FX text (format_node(include_tensor_metadata=True), per child GraphModule too). See
// tests/data/fx-capture/PROVENANCE.md.
#include "exporters/FxTextPrinter.h"
#include "exporters/ReadablePyPrinter.h"
#include "importers/FxTextParser.h"
#include "importers/Import.h"
#include "importers/ReadablePyParser.h"
#include "ir/Verifier.h"
#ifdef FXKIT_HAVE_JSON
#include "exporters/json/FxkitJsonWriter.h"
#include "importers/json/FxkitJsonReader.h"
#endif

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>
#include <sstream>

using namespace fxkit;
namespace fs = std::filesystem;

namespace {

fs::path dataDir() { return fs::path(FXKIT_TEST_DATA) / "fx-capture"; }

std::string read(const fs::path &p) {
  auto text = readTextFile(p.string());
  EXPECT_TRUE(text) << p;
  return text ? *text : std::string();
}

std::vector<fs::path> filesEndingWith(std::string_view suffix) {
  std::vector<fs::path> out;
  for (const auto &e : fs::recursive_directory_iterator(dataDir()))
    if (e.is_regular_file() && e.path().filename().string().ends_with(suffix))
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

/// torch.export's unlifted module (`ep.module()`): its graph lists the get_attr nodes before the
/// input placeholder (Graph.lint and verifyGraph allow that), its code is _PyTreeCodeGen's
/// (`x, = fx_pytree.tree_flatten_spec(...)` first, `return pytree.tree_unflatten(...)`).
bool isUnlifted(const fs::path &p) { return p.filename().string().starts_with("unlifted_module."); }

/// The lines of text without comment-only and blank lines.
std::string codeLines(const std::string &text) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) {
    size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#')
      continue;
    out += line + "\n";
  }
  return out;
}

TEST(FxCapture, GraphTextRoundTripsByteForByteTypedOrNot) {
  size_t files = 0, typedFiles = 0, typedNodes = 0;
  for (const fs::path &p : filesEndingWith(".graph.txt")) {
    std::string text = read(p);
    auto g = parseFxText(text, p.string());
    ASSERT_TRUE(g) << g.error().str();
    if (isUnlifted(p)) {
      // Five get_attr nodes, then the placeholder, where str(graph) has them.
      ASSERT_EQ(g->find("x")->op(), OpKind::Placeholder);
      size_t before = 0;
      for (Node *n = g->front(); n->name() != "x"; n = n->next(), ++before)
        EXPECT_EQ(n->op(), OpKind::GetAttr) << n->name();
      EXPECT_EQ(before, 5u);
    }
    ++files;
    EXPECT_TRUE(verifyGraph(*g)) << p;
    std::string printed = printFxText(*g);
    EXPECT_EQ(printed, text) << p;
    auto again = parseFxText(printed, "printed");
    ASSERT_TRUE(again) << again.error().str();
    std::string why;
    EXPECT_TRUE(graphsEqual(*g, *again, &why)) << p << ": " << why;
    size_t typed = 0;
    for (Node *n : *g)
      if (n->pythonType() == kFxTensorAnnotationType) {
        EXPECT_TRUE(n->value().tensor()) << p << " " << n->name();
        ++typed;
      }
    // Only nodes whose meta value is a tensor print typed: symbolic_trace's graphs have
    // none, ShapeProp's TensorMetadata is not one.
    if (!p.filename().string().ends_with(".typed.graph.txt"))
      EXPECT_EQ(typed, 0u) << p;
    typedFiles += typed > 0;
    typedNodes += typed;
  }
  EXPECT_EQ(files, 148u);
  EXPECT_EQ(typedFiles, 67u);
  EXPECT_EQ(typedNodes, 411u);
}

/// Every typed file is its `str(graph)` twin plus the annotations: without them, the same text.
TEST(FxCapture, TypedTextIsTheGraphTextPlusTensorTypes) {
  size_t pairs = 0;
  for (const fs::path &typed : filesEndingWith(".typed.graph.txt")) {
    std::string name = typed.filename().string();
    fs::path plain = typed.parent_path() / (name.substr(0, name.size() - 16) + ".graph.txt");
    auto a = parseFxText(read(typed), typed.string());
    ASSERT_TRUE(a) << a.error().str();
    for (Node *n : *a)
      if (n->pythonType() == kFxTensorAnnotationType) {
        // format_node types call nodes only; placeholders and get_attr print as str(graph).
        EXPECT_TRUE(n->op() == OpKind::CallFunction || n->op() == OpKind::CallMethod ||
                    n->op() == OpKind::CallModule)
            << typed << " " << n->name();
        n->setPythonType("");
        n->value() = NodeValue{};
      }
    EXPECT_EQ(printFxText(*a), read(plain)) << typed;
    ++pairs;
  }
  EXPECT_EQ(pairs, 74u);
}

/// Compares `g` (read from print_readable code) with the graph.txt of `stem` and its children
/// with `stem.<child>.graph.txt`, recursively; counts the graphs compared.
void expectSameAsGraphText(const Graph &g, const fs::path &stem, size_t &compared) {
  fs::path txt = stem.string() + ".graph.txt";
  ASSERT_TRUE(fs::exists(txt)) << txt;
  auto b = parseFxText(read(txt), txt.string());
  ASSERT_TRUE(b) << b.error().str();
  // Python code binds every placeholder at the top of forward (the signature, or the pytree
  // code's `x, = fx_pytree.tree_flatten_spec(...)`), wherever the graph has it.
  Node *firstOther = nullptr;
  for (Node *n = b->front(); n;) {
    Node *next = n->next();
    if (n->op() != OpKind::Placeholder && !firstOther)
      firstOther = n;
    else if (n->op() == OpKind::Placeholder && firstOther)
      b->moveBefore(n, firstOther);
    n = next;
  }
  // What legitimately differs: print_readable writes a node's meta value where it has one and
  // its Python type (`torch.Tensor`, `torch.nn.parameter.Parameter`) only where it has none;
  // str(graph) always writes the type. Values are not part of str(graph).
  Graph a = g.clone();
  for (Node *n : a) {
    Node *m = b->find(n->name());
    if (m && !n->value().empty())
      m->setPythonType("");
    n->value() = NodeValue{};
  }
  EXPECT_EQ(printFxText(a), printFxText(*b)) << stem;
  ++compared;
  for (const auto &child : g.submodules)
    expectSameAsGraphText(*child, stem.string() + "." + child->moduleName, compared);
}

size_t countGraphTextChildren(const fs::path &stem) {
  size_t n = 0;
  std::string prefix = stem.filename().string() + ".";
  for (const auto &e : fs::directory_iterator(stem.parent_path())) {
    std::string f = e.path().filename().string();
    if (f.starts_with(prefix) && f.ends_with(".graph.txt") && !f.ends_with(".typed.graph.txt") &&
        f != prefix + "graph.txt")
      ++n;
  }
  return n;
}

size_t countSubmodules(const Graph &g) {
  size_t n = g.submodules.size();
  for (const auto &c : g.submodules)
    n += countSubmodules(*c);
  return n;
}

/// Each print_readable() form (with strides and devices, sizes only, expanded signature) reads
/// into the graph str(graph) shows, its nested classes into submodules that are the child
/// GraphModules' graphs.
TEST(FxCapture, ReadableCodeIsTheSameGraphAsGraphText) {
  size_t files = 0, compared = 0, withChildren = 0;
  for (const fs::path &py : filesEndingWith(".readable.py")) {
    auto g = parseReadablePy(read(py), py.string());
    ASSERT_TRUE(g) << g.error().str();
    ++files;
    std::string name = py.filename().string();
    fs::path stem = py.parent_path() / name.substr(0, name.find('.'));
    if (isUnlifted(py)) {
      // _PyTreeCodeGen: `x, = fx_pytree.tree_flatten_spec(...)` binds the placeholder.
      EXPECT_EQ(g->front()->op(), OpKind::Placeholder);
      EXPECT_EQ(g->front()->name(), "x");
      ASSERT_TRUE(g->front()->value().tensor()) << py;
      EXPECT_EQ(g->front()->value().tensor()->sizes.size(), 2u);
      EXPECT_NE(printFxText(*g).find("return (softmax,)"), std::string::npos);
    }
    EXPECT_EQ(countSubmodules(*g), countGraphTextChildren(stem)) << py;
    withChildren += !g->submodules.empty();
    expectSameAsGraphText(*g, stem, compared);
  }
  EXPECT_EQ(files, 81u);
  EXPECT_EQ(withChildren, 40u);
  EXPECT_EQ(compared, 151u);
}

/// print_readable() code of the plain code generator prints back with every code line as it was
/// (comments and blank lines are the documented losses), nested classes included.
TEST(FxCapture, ReadableCodePrintsBackLineForLine) {
  size_t files = 0;
  for (const fs::path &py : filesEndingWith(".readable.py")) {
    // The expanded signature and torch.export's pytree code read, but print in the plain form.
    if (isUnlifted(py) || py.filename().string().find(".expanded.") != std::string::npos)
      continue;
    std::string text = read(py);
    auto g = parseReadablePy(text, py.string());
    ASSERT_TRUE(g) << g.error().str();
    EXPECT_EQ(codeLines(printReadablePy(*g)), codeLines(text)) << py;
    auto again = parseReadablePy(printReadablePy(*g), "printed.py");
    ASSERT_TRUE(again) << again.error().str();
    std::string why;
    EXPECT_TRUE(graphsEqual(*g, *again, &why)) << py << ": " << why;
    ++files;
  }
  EXPECT_EQ(files, 76u);
}

/// The annotations of print_readable(include_stride=True, include_device=True) and the typed FX
/// text of the same graph are the same tensor types, node by node.
TEST(FxCapture, ReadableAnnotationsAgreeWithTypedText) {
  size_t nodes = 0;
  std::function<void(const Graph &, const fs::path &)> check = [&](const Graph &g,
                                                                   const fs::path &stem) {
    auto typed = parseFxText(read(stem.string() + ".typed.graph.txt"), stem.string());
    ASSERT_TRUE(typed) << typed.error().str();
    for (Node *n : *typed) {
      if (n->pythonType() != kFxTensorAnnotationType)
        continue;
      const Node *r = g.find(n->name());
      ASSERT_TRUE(r) << stem << " " << n->name();
      ASSERT_TRUE(r->value().tensor()) << stem << " " << n->name();
      EXPECT_EQ(r->value().tensor()->str(), n->value().tensor()->str()) << stem << " " << n->name();
      ++nodes;
    }
    for (const auto &child : g.submodules)
      check(*child, stem.string() + "." + child->moduleName);
  };
  for (const fs::path &py : filesEndingWith(".readable.py")) {
    std::string name = py.filename().string();
    if (name.find(".plain.") != std::string::npos || name.find(".expanded.") != std::string::npos)
      continue;
    auto g = parseReadablePy(read(py), py.string());
    ASSERT_TRUE(g) << g.error().str();
    check(*g, py.parent_path() / name.substr(0, name.find('.')));
  }
  EXPECT_EQ(nodes, 411u);
}

#ifdef FXKIT_HAVE_JSON
/// fxkit's JSON keeps everything these graphs hold: each print_readable() form, nested classes
/// and all, goes fxpy -> JSON -> fxpy to the same graph (graphsEqual compares the children,
/// recursively) and the same Python, and so does each str(graph) form (torch.export's get_attr
/// nodes before the placeholder included) to the same FX text.
TEST(FxCapture, JsonRoundTripKeepsChildGraphs) {
  size_t files = 0, withChildren = 0, children = 0, texts = 0;
  auto roundTrip = [](const Graph &g, const fs::path &p) -> std::optional<Graph> {
    std::string json = printFxkitJson(g);
    auto back = parseFxkitJson(json, p.string() + ".json");
    EXPECT_TRUE(back) << back.error().str();
    if (!back)
      return std::nullopt;
    std::string why;
    EXPECT_TRUE(graphsEqual(g, *back, &why)) << p << ": " << why;
    EXPECT_EQ(printFxkitJson(*back), json) << p;
    return back.take();
  };
  for (const fs::path &py : filesEndingWith(".readable.py")) {
    auto g = parseReadablePy(read(py), py.string());
    ASSERT_TRUE(g) << g.error().str();
    auto back = roundTrip(*g, py);
    ASSERT_TRUE(back) << py;
    EXPECT_EQ(printReadablePy(*back), printReadablePy(*g)) << py;
    ++files;
    withChildren += !g->submodules.empty();
    children += countSubmodules(*back);
  }
  for (const fs::path &txt : filesEndingWith(".graph.txt")) {
    auto g = parseFxText(read(txt), txt.string());
    ASSERT_TRUE(g) << g.error().str();
    auto back = roundTrip(*g, txt);
    ASSERT_TRUE(back) << txt;
    EXPECT_EQ(printFxText(*back), read(txt)) << txt;
    ++texts;
  }
  EXPECT_EQ(files, 81u);
  EXPECT_EQ(withChildren, 40u);
  EXPECT_EQ(children, 70u);
  EXPECT_EQ(texts, 148u);
}
#endif

/// The subgraphs the way the graphs use them: each get_attr of a child names a submodule.
TEST(FxCapture, HigherOrderOpsNameTheirSubgraphs) {
  auto g = parseReadablePy(read(dataDir() / "cond" / "dynamo_0.readable.py"), "cond.py");
  ASSERT_TRUE(g) << g.error().str();
  ASSERT_EQ(g->submodules.size(), 2u);
  EXPECT_EQ(g->submodules[0]->moduleName, "cond_true_0");
  EXPECT_EQ(g->submodules[1]->moduleName, "cond_false_0");
  const Node *cond = g->find("cond");
  ASSERT_TRUE(cond);
  EXPECT_EQ(cond->target(), "torch.ops.higher_order.cond");
  for (int i : {1, 2}) {
    const Node *attr = cond->args().items()[i].asNode();
    EXPECT_EQ(attr->op(), OpKind::GetAttr);
    const Graph *sub = g->submodule(attr->target());
    ASSERT_TRUE(sub) << attr->target();
    EXPECT_EQ(sub->outputNode()->args().items()[0].items().size(), 1u);
  }
  // Two get_attr nodes of one child: invoke_subgraph's repeated region.
  auto inv = parseReadablePy(read(dataDir() / "invoke_subgraph" / "aot_fw_0.readable.py"), "i.py");
  ASSERT_TRUE(inv) << inv.error().str();
  ASSERT_EQ(inv->submodules.size(), 1u);
  size_t uses = 0;
  for (Node *n : *inv)
    uses += n->op() == OpKind::GetAttr && n->target() == "partitioned_fw_subgraph_0_0";
  EXPECT_EQ(uses, 2u);
  // A copy shares the children and compares equal; a changed child makes graphs differ.
  Graph copy = g->clone();
  EXPECT_TRUE(graphsEqual(*g, copy));
  auto other = parseReadablePy(read(dataDir() / "cond_dynamic" / "dynamo_0.readable.py"), "c.py");
  ASSERT_TRUE(other);
  copy.submodules[0] = other->submodules[0];
  std::string why;
  EXPECT_FALSE(graphsEqual(*g, copy, &why));
  EXPECT_NE(why.find("submodule 'cond_true_0'"), std::string::npos) << why;
}

} // namespace
