#pragma once
/// \file What `fxkit info` shows about a graph: counts, op histogram, inputs, outputs, symbols.

#include "ir/Graph.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace fxkit {

struct GraphSummary {
  struct Value {
    std::string name;
    std::string type; ///< "f32[4][1]cpu", "Sym(s77)", "2 tensors", "" when unknown
  };
  size_t nodeCount = 0;
  std::map<std::string, size_t> opKindCounts;             ///< "call_function" -> n
  std::vector<std::pair<std::string, size_t>> targetCounts; ///< most frequent first
  std::vector<Value> inputs;
  std::vector<Value> outputs;
  std::vector<std::string> symbols; ///< free symbols of all sizes, sorted
};

GraphSummary summarizeGraph(const Graph &graph);

/// Human-readable text, one fact per line.
std::string printGraphSummary(const GraphSummary &summary);

/// The type shown for a node's value ("f32[4][1]cpu", "Sym(s77)", ...), "" when unknown.
std::string valueTypeString(const NodeValue &value);

} // namespace fxkit
