/// Every reference workload of the corpus renders: the graph's DOT and its compiled program's
/// DOT (kernel clusters, refused fusions, collapsed) always, their SVG where libgvc is built
/// in, and the memory timeline; every Inductor wrapper module draws its kernels' clusters.

#include "CorpusTestSupport.h"

#include "exporters/DotWriter.h"
#include "exporters/GraphvizRender.h"
#include "exporters/MemoryTimeline.h"
#include "exporters/wrapper/GraphRender.h"
#include "importers/Import.h"
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
  for (const fs::path &path : testing::corpusGraphs("reference")) {
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
    EXPECT_NE(dot->find("cluster_k"), std::string::npos) << what;
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
  size_t checked = 0;
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
    EXPECT_NE(dot.find("subgraph \"cluster_"), std::string::npos) << path;
    ++checked;
  }
  EXPECT_EQ(checked, 10u);
}
