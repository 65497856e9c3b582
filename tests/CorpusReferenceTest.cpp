/// The acceptance test of the reference interpreter: every `reference/<workload>/*.graph.txt`
/// of the corpus, run on its recorded inputs, gives its recorded outputs (float32 within 1e-4
/// relative and absolute, integers and bools exactly). Each graph runs twice: typed by its
/// nodes.json sidecar (symbolic sizes bound from the inputs) and untyped (types inferred from
/// the inputs alone), so both ways into the interpreter are covered.

#include "CorpusTestSupport.h"
#include "backends/interp/Interpreter.h"
#include "backends/interp/json/ReferenceIO.h"
#include "importers/Import.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

using namespace fxkit;
using fxkit::testing::corpusGraphs;
using fxkit::testing::sibling;
namespace fs = std::filesystem;

namespace {

/// Runs one graph and checks every output; returns how many outputs matched.
size_t runAndCheck(const fs::path &path, bool withSidecar) {
  SCOPED_TRACE(path.string() + (withSidecar ? " (typed by nodes.json)" : " (untyped)"));
  auto graph = importGraphFile(path.string(), GraphFormat::FxText, withSidecar);
  EXPECT_TRUE(graph) << (graph ? "" : graph.error().str());
  if (!graph)
    return 0;
  // With the sidecar every placeholder has a type; without it none has.
  for (Node *n : *graph)
    if (n->op() == OpKind::Placeholder) {
      EXPECT_EQ(n->value().empty(), !withSidecar) << n->name();
    }
  auto inFile = readSafetensors(sibling(path, ".inputs.safetensors").string());
  auto outFile = readSafetensors(sibling(path, ".outputs.safetensors").string());
  EXPECT_TRUE(inFile && outFile);
  if (!inFile || !outFile)
    return 0;
  size_t placeholders = 0;
  for (Node *n : *graph)
    placeholders += n->op() == OpKind::Placeholder;
  auto inputs = readGraphInputs(*inFile, placeholders, "inputs");
  EXPECT_TRUE(inputs) << (inputs ? "" : inputs.error().str());
  if (!inputs)
    return 0;
  auto result = interpretGraph(*graph, *inputs);
  EXPECT_TRUE(result) << (result ? "" : result.error().str());
  if (!result)
    return 0;
  auto checks = checkGraphOutputs(result->outputs, *outFile, {});
  EXPECT_TRUE(checks);
  if (!checks)
    return 0;
  EXPECT_FALSE(checks->empty());
  size_t matched = 0;
  for (const OutputCheck &c : *checks) {
    EXPECT_TRUE(c.ok) << c.name << " " << c.actual << ": " << c.detail;
    matched += c.ok;
  }
  return matched;
}

TEST(CorpusReference, EveryGraphReproducesItsOutputsTypedBySidecar) {
  std::vector<fs::path> graphs = corpusGraphs("reference");
  // The corpus has ten reference workloads with one forward graph each.
  ASSERT_GE(graphs.size(), 10u);
  size_t outputs = 0;
  for (const fs::path &p : graphs)
    outputs += runAndCheck(p, true);
  EXPECT_GE(outputs, graphs.size());
}

TEST(CorpusReference, EveryGraphReproducesItsOutputsUntyped) {
  std::vector<fs::path> graphs = corpusGraphs("reference");
  ASSERT_GE(graphs.size(), 10u);
  size_t outputs = 0;
  for (const fs::path &p : graphs)
    outputs += runAndCheck(p, false);
  EXPECT_GE(outputs, graphs.size());
}

} // namespace
