/// Every reference workload of the corpus renders: the graph's DOT and its compiled program's
/// DOT (kernel clusters, refused fusions, collapsed) always, their SVG where libgvc is built
/// in, and the memory timeline; every Inductor wrapper module draws its kernels' clusters.

#include "CorpusTestSupport.h"

#include "exporters/DotWriter.h"
#include "exporters/GraphvizRender.h"
#include "exporters/MemoryTimeline.h"
#include "exporters/wrapper/GraphRender.h"
#include "importers/Import.h"
#include "ir/Node.h"
#include "transforms/CompilationState.h"
#include "transforms/Pass.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

using namespace fxkit;
namespace fs = std::filesystem;

namespace {

void expectBalanced(const std::string &dot, const std::string &what) {
  EXPECT_EQ(dot.rfind("digraph fxkit {\n", 0), 0u) << what;
  EXPECT_EQ(std::count(dot.begin(), dot.end(), '{'), std::count(dot.begin(), dot.end(), '}'))
      << what;
  EXPECT_TRUE(dot.ends_with("}\n")) << what;
}

} // namespace

TEST(CorpusRender, EveryReferenceWorkloadRenders) {
  size_t checked = 0, pictured = 0;
  for (const fs::path &path : fxkit::testing::corpusGraphs("reference")) {
    std::string what = path.string();
    auto graph = importGraphFile(path.string());
    ASSERT_TRUE(graph) << graph.error().str();
    expectBalanced(writeDot(*graph), what);
    auto runs = runPipeline(*graph, {"lower", "fuse", "plan", "wrapper"});
    ASSERT_TRUE(runs) << what << ": " << runs.error().str();
    RenderOptions options;
    options.fusion = true;
    auto dot = graphDot(*graph, options);
    ASSERT_TRUE(dot) << what << ": " << dot.error().str();
    expectBalanced(*dot, what);
    const CompilationState *state = compilationState(*graph);
    ASSERT_TRUE(state && state->fused) << what;
    size_t generated = 0;
    for (const loop::Kernel &k : state->fused->kernels)
      generated += k.isExtern ? 0 : 1;
    // transformer_layer is one extern call (the fused encoder layer): no cluster.
    EXPECT_EQ(dot->find("cluster_k") != std::string::npos, generated > 0) << what;
    options.collapse = CollapseMode::Kernel;
    auto collapsed = graphDot(*graph, options);
    ASSERT_TRUE(collapsed) << what;
    expectBalanced(*collapsed, what);
    auto timeline = memoryTimelineOf(*graph);
    ASSERT_TRUE(timeline) << what << ": " << timeline.error().str();
    std::string svg = writeMemoryTimelineSvg(*timeline);
    EXPECT_TRUE(svg.ends_with("</svg>\n")) << what;
    if (haveGraphviz()) {
      auto picture = renderGraph(*graph, RenderFormat::Svg, RenderOptions{.fusion = true});
      ASSERT_TRUE(picture) << what << ": " << picture.error().str();
      EXPECT_NE(picture->find("<svg"), std::string::npos) << what;
      ++pictured;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 10u);
  EXPECT_EQ(pictured, haveGraphviz() ? checked : 0u);
}

TEST(CorpusRender, EveryInductorWrapperDrawsItsKernels) {
  size_t checked = 0, kernels = 0;
  fs::path root = fs::path(FXKIT_TEST_DATA) / "corpus" / "inductor";
  std::vector<fs::path> files;
  for (const auto &e : fs::recursive_directory_iterator(root)) {
    std::string name = e.path().filename().string();
    if (e.is_regular_file() && name.starts_with("output_code") && name.ends_with(".py"))
      files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path &path : files) {
    auto graph = importGraphFile(path.string());
    ASSERT_TRUE(graph) << path << ": " << graph.error().str();
    std::string dot = writeDot(*graph);
    expectBalanced(dot, path.string());
    size_t withOrigins = 0;
    for (const Node *n : *graph)
      if (n->target() == "fxkit.kernel")
        if (const Argument *o = n->kwargs().find("origins");
            o && o->kind() == Argument::Kind::List && !o->items().empty())
          ++withOrigins;
    size_t clusters = 0;
    for (size_t at = dot.find("subgraph \"cluster_"); at != std::string::npos;
         at = dot.find("subgraph \"cluster_", at + 1))
      ++clusters;
    EXPECT_EQ(clusters, withOrigins) << path;
    kernels += withOrigins;
    ++checked;
  }
  EXPECT_EQ(checked, 30u); // output_code*.py of the 10 workloads and their debug folders
  EXPECT_GT(kernels, 30u);
}
