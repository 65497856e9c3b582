// The report's interactive graph (exporters/report/GraphViewer.h): its layout, the data the page
// carries and Model Explorer's graph JSON, each re-read as JSON and checked for structure, on
// small graphs and on every graph of the corpus and the zoo.
#include "CorpusTestSupport.h"
#include "exporters/ModulePath.h"
#include "exporters/report/GraphViewer.h"
#include "exporters/report/LayeredLayout.h"
#include "exporters/report/ModelExplorerJson.h"
#include "importers/FxTextParser.h"
#include "importers/Import.h"
#include "transforms/CompilationState.h"
#include "transforms/Pass.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>

namespace fxkit {
namespace {

using nlohmann::json;

constexpr const char *kSmall = R"(graph():
    %l_x_ : Tensor "f32[4, 8][8, 1]cpu"[num_users=2] = placeholder[target=L_x_]
    %l_self_modules_fc_parameters_weight_ : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = placeholder[target=L_self_modules_fc_parameters_weight_]
    %mul : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%l_x_, %l_self_modules_fc_parameters_weight_), kwargs = {})
    %relu : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%mul,), kwargs = {})
    %add : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%relu, %l_x_), kwargs = {})
    %sum_1 : Tensor "f32[4][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%add, [1]), kwargs = {})
    return (sum_1,)
)";

TEST(LayeredLayout, LayersFollowEdgesAndRowsAreCentred) {
  // 0 -> 1 -> 3, 0 -> 2 -> 3.
  LayoutGraph h;
  h.inputs = {0, 0, 1, 2};
  h.inStart = {0, 0, 1, 2, 4};
  LayeredLayout l = layeredLayout(h);
  ASSERT_EQ(l.y.size(), 4u);
  EXPECT_EQ(l.y[0], 0);
  EXPECT_EQ(l.y[1], 1);
  EXPECT_EQ(l.y[2], 1);
  EXPECT_EQ(l.y[3], 2);
  EXPECT_EQ(l.x[1] + l.x[2], 0) << "a row of two is centred";
  EXPECT_NE(l.x[1], l.x[2]);
  EXPECT_EQ(l.x[0], 0);
}

TEST(LayeredLayout, SourcesSitAboveTheirFirstUser) {
  // A chain 0 -> 1 -> 2, a source 3, and 4 reading 2 and 3.
  LayoutGraph g;
  g.inputs = {0, 1, 2, 3};
  g.inStart = {0, 0, 1, 2, 2, 4};
  LayeredLayout l = layeredLayout(g);
  EXPECT_EQ(l.y[4], 3);
  EXPECT_EQ(l.y[3], 2) << "the source is drawn just above its user, not at the top";
}

TEST(LayeredLayout, DeepChainsWrapIntoColumnsAndLargeGraphsAreQuick) {
  // A chain of 100000 nodes: one node a row, wrapped into columns side by side.
  LayoutGraph g;
  const uint32_t n = 100000;
  for (uint32_t i = 0; i < n; ++i) {
    if (i)
      g.inputs.push_back(i - 1);
    g.inStart.push_back(static_cast<uint32_t>(g.inputs.size()));
  }
  LayeredLayout l = layeredLayout(g);
  std::set<int32_t> columns(l.x.begin(), l.x.end());
  int32_t deepest = 0;
  for (int32_t y : l.y)
    deepest = std::max(deepest, y);
  EXPECT_GT(columns.size(), 50u);
  EXPECT_LT(deepest, 2000) << "about square: " << columns.size() << " columns";
  for (uint32_t i = 1; i < n; ++i)
    ASSERT_TRUE(l.y[i] == l.y[i - 1] + 1 || (l.y[i] == 0 && l.x[i] > l.x[i - 1]))
        << "node " << i << " continues its column or starts the next";
}

/// The viewer's data of `graph`, re-read, checked for the structure viewer.js relies on.
void checkViewerData(const ViewerGraph &v, const std::string &what) {
  SCOPED_TRACE(what);
  json d = json::parse(graphViewerData(v));
  const size_t n = v.size();
  const json &nodes = d["nodes"];
  for (const char *column : {"name", "op", "module", "kernel", "inductor", "type", "x", "y"})
    ASSERT_EQ(nodes[column].size(), n) << column;
  const json &tables = d["tables"];
  ASSERT_EQ(tables["typeBytes"].size(), tables["type"].size());
  for (const char *column : {"op", "module", "kernel", "inductor", "type"})
    for (const json &index : nodes[column])
      ASSERT_LT(index.get<int64_t>(), static_cast<int64_t>(tables[column].size())) << column;
  const json &edges = d["edges"];
  ASSERT_EQ(edges["inDegree"].size(), n);
  size_t at = 0;
  for (size_t i = 0; i < n; ++i)
    for (size_t k = 0; k < edges["inDegree"][i].get<size_t>(); ++k, ++at) {
      const int64_t delta = edges["delta"][at].get<int64_t>();
      ASSERT_GT(delta, 0) << "inputs come before their node";
      ASSERT_LE(delta, static_cast<int64_t>(i));
    }
  ASSERT_EQ(at, edges["delta"].size());
  for (const char *view : {"module", "kernel", "inductor"}) {
    const json &g = d["groups"][view];
    if (g.is_null())
      continue;
    ASSERT_EQ(g["of"].size(), n) << view;
    const size_t groups = g["key"].size();
    ASSERT_EQ(g["x"].size(), groups);
    ASSERT_EQ(g["y"].size(), groups);
    for (const json &k : g["of"])
      ASSERT_LT(k.get<size_t>(), groups);
    ASSERT_EQ(g["edges"].size() % 2, 0u);
    for (const json &k : g["edges"])
      ASSERT_LT(k.get<size_t>(), groups);
  }
}

/// Whether every key of `object` is one of `allowed` and every value under `strings` a string.
void expectFields(const json &object, std::set<std::string> allowed,
                  std::set<std::string> strings = {}) {
  ASSERT_TRUE(object.is_object()) << object;
  for (const auto &[key, value] : object.items()) {
    EXPECT_TRUE(allowed.count(key)) << "field '" << key << "' is not Model Explorer's: " << object;
    if (strings.count(key))
      EXPECT_TRUE(value.is_string()) << key << ": " << value;
  }
}

/// A list of Model Explorer's KeyValue: {key, value}, both strings.
void expectKeyValues(const json &list) {
  ASSERT_TRUE(list.is_array()) << list;
  for (const json &kv : list) {
    expectFields(kv, {"key", "value"}, {"key", "value"});
    EXPECT_TRUE(kv.contains("key") && kv.contains("value")) << kv;
  }
}

/// Model Explorer's JSON of `v`, re-read: one collection, one graph, a node per graph node with
/// unique ids, every incoming edge naming a node, the module path as the namespace; every
/// object has only the fields Model Explorer's graph schema declares, with their types
/// (model_explorer/graph_builder.py: GraphCollection, Graph, GraphNode, IncomingEdge,
/// MetadataItem, KeyValue).
void checkModelExplorer(const ViewerGraph &v, const std::string &what) {
  SCOPED_TRACE(what);
  json d = json::parse(writeModelExplorerJson(v, "g"));
  expectFields(d, {"label", "graphs", "graphSorting"}, {"label", "graphSorting"});
  ASSERT_EQ(d["graphs"].size(), 1u);
  expectFields(d["graphs"][0],
               {"id", "nodes", "groupNodeAttributes", "groupNodeConfigs", "nodeLabelsToHide",
                "tasksData", "layoutConfigs"},
               {"id"});
  for (const json &node : d["graphs"][0]["nodes"]) {
    expectFields(node,
                 {"id", "label", "namespace", "subgraphIds", "attrs", "incomingEdges",
                  "outputsMetadata", "inputsMetadata", "style", "config"},
                 {"id", "label", "namespace"});
    expectKeyValues(node["attrs"]);
    for (const json &e : node["incomingEdges"])
      expectFields(e, {"sourceNodeId", "sourceNodeOutputId", "targetNodeInputId"},
                   {"sourceNodeId", "sourceNodeOutputId", "targetNodeInputId"});
    for (const json &m : node["outputsMetadata"]) {
      expectFields(m, {"id", "attrs"}, {"id"});
      expectKeyValues(m["attrs"]);
    }
  }
  ASSERT_EQ(d["label"], "g");
  ASSERT_EQ(d["graphs"].size(), 1u);
  const json &nodes = d["graphs"][0]["nodes"];
  ASSERT_EQ(nodes.size(), v.size());
  std::set<std::string> ids;
  for (const json &node : nodes)
    ASSERT_TRUE(ids.insert(node["id"].get<std::string>()).second) << node["id"];
  for (size_t i = 0; i < nodes.size(); ++i) {
    const json &node = nodes[i];
    ASSERT_EQ(node["id"], v.name[i]);
    ASSERT_EQ(node["label"], v.op[i]);
    std::string ns = v.module[i];
    std::replace(ns.begin(), ns.end(), '.', '/');
    ASSERT_EQ(node["namespace"], ns);
    ASSERT_EQ(node["incomingEdges"].size(), v.edges.inStart[i + 1] - v.edges.inStart[i]);
    for (const json &e : node["incomingEdges"])
      ASSERT_TRUE(ids.count(e["sourceNodeId"].get<std::string>())) << e;
    ASSERT_TRUE(node["attrs"].is_array());
    ASSERT_EQ(node["outputsMetadata"].size(), v.type[i].empty() ? 0u : 1u);
  }
}

TEST(GraphViewer, SmallGraphCarriesModulesKernelsAndBytes) {
  auto graph = parseFxText(kSmall, "small.graph.txt");
  ASSERT_TRUE(graph) << graph.error().str();
  ViewerGraph v = viewerGraphOf(*graph, modulePaths(*graph));
  ASSERT_EQ(v.size(), 7u);
  EXPECT_EQ(v.op[2], "aten.mul.Tensor");
  EXPECT_EQ(v.op[0], "placeholder");
  EXPECT_EQ(v.bytes[2], 4 * 8 * 4);
  EXPECT_EQ(v.bytes[5], 4 * 4);
  EXPECT_EQ(v.module[1], "fc");
  EXPECT_EQ(v.type[2], "f32[4, 8][8, 1]cpu");
  // add reads relu and x: two distinct inputs.
  EXPECT_EQ(v.edges.inStart[5] - v.edges.inStart[4], 2u);
  auto runs = runPipeline(*graph, {"lower", "fuse"});
  ASSERT_TRUE(runs) << runs.error().str();
  const CompilationState *state = compilationState(*graph);
  ASSERT_TRUE(state && state->program && state->fused);
  addFxkitKernels(v, *state->program, *state->fused);
  EXPECT_FALSE(v.kernel[3].empty()) << "relu is computed by a kernel";
  EXPECT_EQ(v.kernel[0], "") << "an input is computed by none";
  checkViewerData(v, "small");
  checkModelExplorer(v, "small");
  json me = json::parse(writeModelExplorerJson(v, "g"));
  const json &mul = me["graphs"][0]["nodes"][2];
  EXPECT_EQ(mul["incomingEdges"][1]["sourceNodeId"], "l_self_modules_fc_parameters_weight_");
  EXPECT_EQ(mul["incomingEdges"][1]["targetNodeInputId"], "1");
  bool hasKernel = false;
  for (const json &a : me["graphs"][0]["nodes"][3]["attrs"])
    hasKernel = hasKernel || (a["key"] == "fxkit_kernel" && a["value"] == v.kernel[3]);
  EXPECT_TRUE(hasKernel);
  EXPECT_EQ(me["graphs"][0]["nodes"][1]["namespace"], "fc");
  // The page's script cannot be closed by a name: '<' is escaped in the data.
  v.name[0] = "</script><b>";
  EXPECT_EQ(graphViewerHtml(v).find("</script><b>"), std::string::npos);
  EXPECT_NE(graphViewerLibraries().find("sigma 3."), std::string::npos) << graphViewerLibraries();
}

/// Every FX graph of the corpus and the zoo: the viewer's data and Model Explorer's JSON.
TEST(GraphViewer, EveryCorpusAndZooGraph) {
  std::vector<std::filesystem::path> graphs = testing::corpusGraphs("inductor");
  const size_t corpus = graphs.size();
  // Post-grad graphs as Inductor saved them beside its provenance mapping: Inductor's kernels.
  size_t transformed = 0;
  for (const auto &e : std::filesystem::recursive_directory_iterator(
           std::filesystem::path(FXKIT_TEST_DATA) / "corpus" / "inductor"))
    if (e.path().filename() == "fx_graph_transformed.py") {
      graphs.push_back(e.path());
      ++transformed;
    }
  const std::filesystem::path zoo =
      std::filesystem::path(FXKIT_TEST_DATA) / ".." / ".." / ".." / "shared" / "zoo";
  size_t zooGraphs = 0;
  if (std::filesystem::is_directory(zoo))
    for (const auto &e : std::filesystem::recursive_directory_iterator(zoo))
      if (e.is_regular_file() && e.path().filename().string().ends_with(".graph.txt")) {
        graphs.push_back(e.path());
        ++zooGraphs;
      }
  size_t checked = 0, withModules = 0, withProvenance = 0;
  for (const auto &path : graphs) {
    auto graph = importGraphFile(path.string());
    if (!graph)
      continue; // readers' own tests cover what does not read
    ViewerGraph v = viewerGraphOf(*graph, modulePaths(*graph));
    withModules += std::any_of(v.module.begin(), v.module.end(),
                               [](const std::string &m) { return !m.empty(); });
    withProvenance += std::any_of(v.inductor.begin(), v.inductor.end(),
                                  [](const std::string &m) { return !m.empty(); });
    checkViewerData(v, path.string());
    if (std::any_of(v.inductor.begin(), v.inductor.end(),
                    [](const std::string &m) { return !m.empty(); })) {
      EXPECT_FALSE(json::parse(graphViewerData(v))["groups"]["inductor"].is_null()) << path;
    }
    checkModelExplorer(v, path.string());
    ++checked;
  }
  EXPECT_EQ(corpus, 67u);
  EXPECT_EQ(transformed, 20u);
  EXPECT_GE(checked, corpus + transformed) << "every corpus graph reads";
  EXPECT_EQ(withProvenance, transformed) << "each names Inductor's kernels";
  EXPECT_GE(withModules, 10u) << "the corpus's Dynamo graphs name their modules";
  if (zooGraphs) {
    EXPECT_EQ(zooGraphs, 88u) << "the zoo's graph count changed: update this test";
    EXPECT_GT(withModules, 10u) << "and so do the zoo's";
  }
  std::cout << "checked " << checked << " graphs (" << corpus << " corpus, " << transformed
            << " fx_graph_transformed.py, " << zooGraphs << " zoo), " << withModules
            << " with module paths, " << withProvenance << " with Inductor's kernels\n";
}

} // namespace
} // namespace fxkit
