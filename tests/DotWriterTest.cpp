#include "exporters/DotWriter.h"
#include "exporters/GraphvizRender.h"
#include "importers/FxTextParser.h"
#include "importers/Import.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace fxkit {
namespace {

constexpr std::string_view kSmall = R"(graph():
    %x : [num_users=2] = placeholder[target=x]
    %mul : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, %x), kwargs = {})
    %relu : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%mul,), kwargs = {})
    return (relu,)
)";

Graph smallGraph() {
  auto g = parseFxText(kSmall, "small.txt");
  EXPECT_TRUE(g) << (g ? "" : g.error().str());
  Graph graph = g.take();
  // Types as a nodes.json sidecar would give them: x and mul known, relu symbolic.
  graph.find("x")->value().v = TensorType::parse("f32[2, 3][3, 1]cpu").take();
  graph.find("mul")->value().v = TensorType::parse("f32[2, 3][3, 1]cpu").take();
  graph.find("relu")->value().v = TensorType::parse("f32[s0, 3][3, 1]cpu").take();
  return graph;
}

TEST(DotWriter, Golden) {
  // x is used twice by mul but draws one edge; relu's symbolic size gives an unlabelled edge.
  Graph graph = smallGraph();
  EXPECT_EQ(writeDot(graph), R"GOLDEN(digraph fxkit {
  node [shape=box, fontname="monospace", fontsize=10];
  edge [fontname="monospace", fontsize=9];
  "x" [label="x\nplaceholder x\nf32[2, 3][3, 1]cpu", shape=ellipse];
  "mul" [label="mul\ncall_function torch.ops.aten.mul.Tensor\nf32[2, 3][3, 1]cpu"];
  "relu" [label="relu\ncall_function torch.ops.aten.relu.default\nf32[s0, 3][3, 1]cpu"];
  "output" [label="output\noutput", shape=ellipse];
  "x" -> "mul" [label="24 B"];
  "mul" -> "relu" [label="24 B"];
  "relu" -> "output";
}
)GOLDEN");
}

/// Balanced braces and one statement line per node and per distinct (producer, user) pair.
void expectStructure(const Graph &graph, const std::string &dot, const std::string &what) {
  EXPECT_EQ(std::count(dot.begin(), dot.end(), '{'), std::count(dot.begin(), dot.end(), '}'))
      << what;
  size_t nodeLines = 0, edgeLines = 0;
  for (size_t pos = 0; pos < dot.size();) {
    size_t end = dot.find('\n', pos);
    std::string_view line(dot.data() + pos, end - pos);
    if (line.find("\" -> \"") != std::string_view::npos)
      ++edgeLines;
    else if (line.find("[label=") != std::string_view::npos)
      ++nodeLines;
    pos = end + 1;
  }
  size_t edges = 0;
  for (const Node *n : graph) {
    auto ins = n->inputs();
    std::sort(ins.begin(), ins.end());
    edges += std::unique(ins.begin(), ins.end()) - ins.begin();
  }
  EXPECT_EQ(nodeLines, graph.size()) << what;
  EXPECT_EQ(edgeLines, edges) << what;
}

TEST(DotWriter, SmallStructure) {
  Graph graph = smallGraph();
  expectStructure(graph, writeDot(graph), "small");
}

/// Every reference graph exports to DOT; where Graphviz's `dot` is installed it must accept it.
TEST(DotWriter, CorpusReference) {
  namespace fs = std::filesystem;
  fs::path root = fs::path(FXKIT_TEST_DATA) / "corpus" / "reference";
  bool haveDot = std::system("command -v dot >/dev/null 2>&1") == 0;
  size_t count = 0;
  for (const auto &entry : fs::recursive_directory_iterator(root)) {
    std::string path = entry.path().string();
    if (path.size() < 10 || path.substr(path.size() - 10) != ".graph.txt")
      continue;
    auto graph = importGraphFile(path);
    ASSERT_TRUE(graph) << graph.error().str();
    std::string dot = writeDot(*graph);
    expectStructure(*graph, dot, path);
    if (haveDot) {
      fs::path tmp = fs::temp_directory_path() / ("fxkit_dot_test_" + std::to_string(count));
      std::ofstream(tmp) << dot;
      std::string cmd = "dot -Tsvg '" + tmp.string() + "' -o /dev/null";
      EXPECT_EQ(std::system(cmd.c_str()), 0) << "dot rejected the DOT of " << path;
      fs::remove(tmp);
    }
    ++count;
  }
  EXPECT_GE(count, 10u);
}

/// With libgvc the picture is an SVG document; without it, a clear error.
TEST(SvgRender, SmallGraph) {
  Graph graph = smallGraph();
  auto svg = renderDot(writeDot(graph), RenderFormat::Svg);
  if (!haveGraphviz()) {
    ASSERT_FALSE(svg);
    EXPECT_NE(svg.error().str().find("libgvc"), std::string::npos);
    return;
  }
  ASSERT_TRUE(svg) << svg.error().str();
  EXPECT_EQ(svg->rfind("<?xml", 0), 0u);
  EXPECT_NE(svg->find("<svg"), std::string::npos);
  EXPECT_NE(svg->find("relu"), std::string::npos);
}

} // namespace
} // namespace fxkit
