/// `fxkit report` on a small raw-string graph: the page has one row per kernel, the OpenCL C of
/// every generated kernel, every fusion decision, one timeline rectangle per allocated buffer
/// and the four compiler passes, in a self-contained document.

#include "exporters/GraphvizRender.h"
#include "exporters/HtmlReport.h"
#include "importers/FxTextParser.h"
#include "repl/ReportCommand.h"
#include "transforms/CompilationState.h"

#include <gtest/gtest.h>

using namespace fxkit;

namespace {

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

const char *kLayerNormRelu = R"(graph():
    %x : Tensor "f32[8, 16][16, 1]cpu"[num_users=1] = placeholder[target=x]
    %w : Tensor "f32[16, 16][16, 1]cpu"[num_users=1] = placeholder[target=w]
    %mm : [num_users=2] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %amax : [num_users=1] = call_function[target=torch.ops.aten.amax.default](args = (%mm, [1], True), kwargs = {})
    %sub : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%mm, %amax), kwargs = {})
    %relu : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%sub,), kwargs = {})
    return (relu,)
)";

} // namespace

TEST(CliReport, SmallGraph) {
  auto graph = parseFxText(kLayerNormRelu, "small.graph.txt");
  ASSERT_TRUE(graph) << graph.error().str();
  auto report = buildCompilationReport(*graph, "small <graph>.txt");
  ASSERT_TRUE(report) << report.error().str();
  const CompilationState *state = compilationState(*graph);
  ASSERT_TRUE(state && state->fused && state->plan);
  const loop::FusedProgram &f = *state->fused;

  ASSERT_EQ(report->kernels.size(), f.kernels.size());
  size_t generated = 0;
  for (size_t k = 0; k < f.kernels.size(); ++k) {
    EXPECT_EQ(report->kernels[k].name, f.kernels[k].name);
    EXPECT_EQ(report->kernels[k].isExtern, f.kernels[k].isExtern);
    if (!f.kernels[k].isExtern) {
      ++generated;
      EXPECT_NE(report->kernels[k].source.find("__kernel void " + f.kernels[k].name),
                std::string::npos)
          << report->kernels[k].source;
    } else {
      EXPECT_TRUE(report->kernels[k].source.empty());
    }
  }
  ASSERT_GT(generated, 0u);
  ASSERT_EQ(report->decisions.size(), f.decisions.size());
  std::vector<std::string> passes;
  for (const HtmlReport::Pass &p : report->passes)
    passes.push_back(p.name);
  EXPECT_EQ(passes, (std::vector<std::string>{"lower", "fuse", "plan", "wrapper"}));
  EXPECT_EQ(report->graphSvg.empty(), !haveGraphviz());

  std::string html = writeHtmlReport(*report);
  EXPECT_NE(html.find("fxkit report: <code>small &lt;graph&gt;.txt</code>"), std::string::npos);
  EXPECT_EQ(count(html, "<details>"), generated);
  EXPECT_EQ(count(html, "<tr class=\"fused\">") + count(html, "<tr class=\"refused\">"),
            f.decisions.size());
  size_t allocated = 0;
  for (const loop::BufferPlacement &p : state->plan->buffers)
    allocated += p.kind != loop::BufferPlacement::Kind::Input &&
                 p.kind != loop::BufferPlacement::Kind::Internal;
  EXPECT_EQ(count(html, "<g class=\"buffer\">"), allocated);
  EXPECT_EQ(count(html, "<svg"), haveGraphviz() ? 2u : 1u);
  if (!haveGraphviz()) {
    EXPECT_NE(html.find("without Graphviz"), std::string::npos);
  }
  // The one script is the interactive graph's (exporters/report/GraphViewer.h), inline.
  EXPECT_EQ(count(html, "<script"), 2u);
  EXPECT_NE(html.find("<script type=\"application/json\" id=\"fxkit-viewer-data\">"),
            std::string::npos);
  EXPECT_EQ(html.find("<script src"), std::string::npos);
  EXPECT_EQ(html.find("<?xml"), std::string::npos);
  EXPECT_TRUE(html.ends_with("</html>\n"));
}
