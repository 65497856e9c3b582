#pragma once
/// \file `fxkit diff A B` and the REPL's `diff`: two graphs compared node by node through the
/// node matcher (ir/GraphMatch.h), which follows a node across stages by provenance, name and
/// structure, and pairs an op with what it decomposed into. The text is for scripts: one line
/// per difference, marked at its start, and a summary line with the counts:
///
///   - %name : TYPE = ...            a node of A paired with nothing (its FX line)
///   + %name : TYPE = ...            a node of B paired with nothing
///   ~ a -> b (why): target, args    a pair whose op, arguments or type differ; its two FX
///                                   lines follow, indented (`    - ...`, `    + ...`)
///   ~ a -> b1, b2 (region)          an op and what it became (several nodes on a side)
///   = a -> b (why)                  a pair that only has another name
///   = a (why)                       an identical pair (with --all only)
///
/// Nodes removed come in A's order, then added and paired in B's order.

#include "ir/Graph.h"
#include "ir/GraphMatch.h"
#include "repl/GraphInput.h"

#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
} // namespace CLI

namespace fxkit {

struct GraphDiffOptions {
  MatchStrategy by = MatchStrategy::Auto;
  bool all = false; ///< also list identical pairs
};

/// A diff's counts.
struct GraphDiffSummary {
  size_t pairs = 0, changed = 0, renamed = 0, regions = 0, removed = 0, added = 0;
  size_t byReason[4] = {0, 0, 0, 0}; ///< pairs per MatchReason
  size_t aNodes = 0, aPaired = 0, bNodes = 0, bPaired = 0;
  size_t aCalls = 0, aCallsPaired = 0, bCalls = 0, bCallsPaired = 0; ///< call_function nodes
  bool differ() const { return changed + renamed + regions + removed + added > 0; }
};

GraphDiffSummary summarizeGraphDiff(const GraphMatch &match, const Graph &a, const Graph &b);

/// How pair `i` of a match shows in a diff (its mark and which count it adds to): the same node
/// under the same name, another name, changed (`change` receives what), or a region.
enum class DiffPairKind { Same, Renamed, Changed, Region };
DiffPairKind diffPairKind(const GraphMatch &match, size_t i, NodeChange *change = nullptr);

/// "target", "args", "type": what a changed pair's `change` names, in that order.
std::vector<std::string> changedParts(const NodeChange &change);

/// The diff as text (see the file comment), from `aName` to `bName`. The same two graphs
/// always give the same text.
std::string formatGraphDiff(const Graph &a, const Graph &b, const GraphMatch &match,
                            std::string_view aName, std::string_view bName,
                            const GraphDiffOptions &options = {});

/// The same as one JSON document: every pair (with --all also identical ones) with its nodes,
/// reason and what changed, the removed and added nodes, and the summary's counts.
std::string formatGraphDiffJson(const Graph &a, const Graph &b, const GraphMatch &match,
                                std::string_view aName, std::string_view bName,
                                const GraphDiffOptions &options = {});

struct DiffCommandOptions {
  GraphInputOptions a, b;  ///< the two graphs (one --from for both)
  std::string provenance;  ///< --provenance: a mapping attached to both
  std::string by = "auto"; ///< --by
  bool all = false, json = false;
  std::string output; ///< -o: the side-by-side picture (dot, svg, png or pdf by its extension)
};

/// Adds the `diff` subcommand to `app`, filling `options` when it is parsed.
CLI::App *addDiffSubcommand(CLI::App &app, DiffCommandOptions &options);

/// Runs the command: 0 the graphs are the same, 1 they differ (printed), 2 bad input.
int runDiffCommand(const DiffCommandOptions &options);

} // namespace fxkit
