/// Shape inference against the corpus: every graph with a nodes.json sidecar is re-inferred
/// from its placeholders and must reproduce the recorded dtype, sizes and strides of every node.

#include "transforms/ShapeInference.h"
#include "importers/FxTextParser.h"
#include "importers/json/NodesJson.h"
#include "ir/ops/OpRegistry.h"
#include "ir/ops/ShapeRules.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace fxkit;
namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path corpusDir() { return fs::path(FXKIT_TEST_DATA) / "corpus"; }

bool sameSizes(const std::vector<SymExpr> &a, const std::vector<SymExpr> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].simplify() != b[i].simplify())
      return false;
  return true;
}

bool sameTensor(const TensorType &a, const TensorType &b) {
  return a.dtype == b.dtype && sameSizes(a.sizes, b.sizes) && sameSizes(a.strides, b.strides);
}

/// Empty when equal, else a description of the difference.
std::string compareValues(const NodeValue &expected, const NodeValue &actual) {
  if (const TensorType *e = expected.tensor()) {
    const TensorType *a = actual.tensor();
    if (!a)
      return "expected a tensor " + e->str();
    return sameTensor(*e, *a) ? "" : "expected " + e->str() + ", inferred " + a->str();
  }
  if (const auto *es = expected.tensors()) {
    const auto *as = actual.tensors();
    if (!as || as->size() != es->size())
      return "expected " + std::to_string(es->size()) + " results";
    for (size_t i = 0; i < es->size(); ++i) {
      if (!(*es)[i])
        continue; // not a tensor in the recording (a symbolic integer output)
      if (!(*as)[i])
        return "result " + std::to_string(i) + ": expected " + (*es)[i]->str();
      if (!sameTensor(*(*es)[i], *(*as)[i]))
        return "result " + std::to_string(i) + ": expected " + (*es)[i]->str() + ", inferred " +
               (*as)[i]->str();
    }
    return "";
  }
  if (const SymExpr *e = expected.sym()) {
    const SymExpr *a = actual.sym();
    if (!a || e->simplify() != a->simplify())
      return "expected symbolic integer " + e->str();
  }
  return "";
}

TEST(ShapeInference, CorpusGraphsReproduceRecordedValues) {
  size_t graphs = 0, checked = 0;
  std::map<std::string, size_t> byTarget;
  for (const auto &entry : fs::recursive_directory_iterator(corpusDir())) {
    std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || !name.ends_with(".nodes.json"))
      continue;
    fs::path graphPath = entry.path();
    graphPath.replace_filename(name.substr(0, name.size() - 11) + ".graph.txt");
    if (!fs::exists(graphPath))
      continue;
    SCOPED_TRACE(graphPath.string());
    auto g = parseFxText(readFile(graphPath), graphPath.string());
    ASSERT_TRUE(g) << g.error().str();
    Status st = attachNodesJson(*g, readFile(entry.path()), entry.path().string());
    ASSERT_TRUE(st) << st.error().str();
    ++graphs;

    std::map<const Node *, NodeValue> expected;
    for (Node *n : *g)
      if (n->op() != OpKind::Placeholder) {
        expected[n] = n->value();
        n->value() = NodeValue();
      }
    st = inferShapes(*g);
    ASSERT_TRUE(st) << st.error().str();
    for (Node *n : *g) {
      if (n->op() == OpKind::Placeholder)
        continue;
      const NodeValue &want = expected[n];
      if (want.empty())
        continue;
      std::string diff = compareValues(want, n->value());
      EXPECT_EQ(diff, "") << "node '" << n->name() << "' (" << n->target() << ")";
      ++checked;
      ++byTarget[std::string(n->target())];
    }
  }
  EXPECT_GE(graphs, 40u);
  EXPECT_GT(checked, 3000u);
  std::string summary;
  for (const auto &[target, count] : byTarget)
    summary += "  " + target + ": " + std::to_string(count) + "\n";
  std::cout << "checked " << checked << " nodes in " << graphs << " graphs\n" << summary;
}

TEST(ShapeInference, EveryCorpusTargetIsRegistered) {
  size_t targets = 0;
  for (const auto &entry : fs::recursive_directory_iterator(corpusDir())) {
    std::string name = entry.path().filename().string();
    bool aten =
        name.starts_with("aten_pre_") || name.starts_with("aten_post_") || name.starts_with("fw_");
    if (!entry.is_regular_file() || !aten || !name.ends_with(".graph.txt"))
      continue;
    auto g = parseFxText(readFile(entry.path()), entry.path().string());
    ASSERT_TRUE(g) << g.error().str();
    for (Node *n : *g)
      if (n->op() == OpKind::CallFunction) {
        EXPECT_NE(OpRegistry::instance().lookup(n->target()), nullptr)
            << entry.path() << ": " << n->target();
        ++targets;
      }
  }
  EXPECT_GT(targets, 1000u);
}

TEST(ShapeInference, PlaceholderWithoutValueIsAnError) {
  auto g = parseFxText("graph():\n"
                       "    %x : [num_users=1] = placeholder[target=x]\n"
                       "    %r : [num_users=1] = call_function[target=torch.ops.aten.relu.default]"
                       "(args = (%x,), kwargs = {})\n"
                       "    return (r,)\n");
  ASSERT_TRUE(g) << g.error().str();
  Status st = inferShapes(*g);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("'x'"), std::string::npos) << st.error().message;
}

TEST(ShapeInference, ErrorNamesNodeAndOp) {
  auto g = parseFxText("graph():\n"
                       "    %x : [num_users=1] = placeholder[target=x]\n"
                       "    %r : [num_users=1] = call_function[target=torch.ops.aten.frobnicate."
                       "default](args = (%x,), kwargs = {})\n"
                       "    return (r,)\n");
  ASSERT_TRUE(g) << g.error().str();
  g->find("x")->value().v = *TensorType::parse("f32[4][1]cpu");
  Status st = inferShapes(*g);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("'r'"), std::string::npos) << st.error().message;
  EXPECT_NE(st.error().message.find("torch.ops.aten.frobnicate.default"), std::string::npos);
}

} // namespace
