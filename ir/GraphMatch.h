#pragma once
/// \file Which nodes of two graphs are "the same computation": the node matcher behind
/// `fxkit diff` and the REPL's `diff` (issue 22, item 3). Two graphs of one model (two PyTorch
/// versions, two configurations, before and after a pass or an edit, pre-grad against
/// post-grad, Inductor's wrapper against fxkit's) name and shape their nodes differently; the
/// matcher pairs them from the evidence PyTorch leaves, strongest first, and records for every
/// pair why it was made, so that a user can judge it:
///
///  1. provenance: Inductor's provenance tracking (NodeProvenance, attached from
///     `inductor_provenance_tracking_node_mappings.json`) names the nodes of the other stage a
///     node corresponds to (a kernel call its post-grad nodes, a post-grad node its Dynamo
///     nodes);
///  2. name: the same name and the same op;
///  3. structure: the same op (target) over inputs already paired with each other, propagated
///     forward through the graph in one walk per round (no recursion: graphs of millions of
///     nodes); the unnamed leftovers, placeholders by position and nodes without inputs by
///     their arguments;
///  4. name again, for a node whose op changed (an edit: `relu` became `gelu`) but whose inputs
///     are those of its namesake;
///  5. region: ops that decompose (pre-grad `addmm` into post-grad `mm` and `add`; `amax`,
///     `sub`, `exp`, `sum` into `prepare_softmax_online`): a connected set of unpaired nodes on
///     each side with the same paired inputs and the same paired users becomes one pair, one or
///     several nodes each side.
///
/// PyTorch's FX IR of a wrapper (Inductor's `fxir_*.graph.txt`, `fxkit compile --to fxir`)
/// passes values through buffers that launches write (`out_ptr`/`in_out_ptr` of a Triton
/// launch, `out=` of an extern, `copy_`): there a node's inputs are taken to be the last writers
/// of the storage it reads (a view's base and offset), allocations and views are leaves, and two
/// paired launches pair the buffers they write, place by place.
///
/// Metadata that survives the stages (`nn_module_stack`, `stack_trace`, `seq_nr`, `from_node`)
/// is not a tier: the IR keeps none of it (ir/Node.h: a node has its value, Python type and
/// provenance) and the zoo's and corpus's `nodes.json` sidecars hold only name, op, target,
/// args, kwargs and `val`; `from_node` reaches fxkit as the provenance mapping. A node's value
/// (`val`: dtype, shape) decides between candidates of equal structure.
///
/// It lives in ir/ because it needs nothing but the graph IR; how a diff is printed (FX text)
/// is the tools' (repl/GraphDiff.h).

#include "ir/Graph.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fxkit {

/// Why two nodes (or two sets of nodes) were paired.
enum class MatchReason : uint8_t {
  Provenance, ///< Inductor's provenance mapping names one from the other
  Name,       ///< the same name (and op, or the same paired inputs)
  Structure,  ///< the same op over paired inputs; placeholders by position
  Region,     ///< unpaired nodes between the same paired inputs and users (an op decomposed)
};
/// "provenance", "name", "structure", "region".
std::string_view matchReasonName(MatchReason reason);

/// Which evidence `matchGraphs` uses (`fxkit diff --by`).
enum class MatchStrategy : uint8_t {
  Auto,       ///< every tier, in the order above
  Name,       ///< names only (what the REPL's diff did before)
  Structure,  ///< structure and regions only, names ignored
  Provenance, ///< Inductor's provenance only
};
/// "auto", "name", "structure", "provenance".
std::string_view matchStrategyName(MatchStrategy strategy);
std::optional<MatchStrategy> parseMatchStrategy(std::string_view text);
/// "auto, name, structure or provenance", for messages and --help.
std::string matchStrategyList();

/// One pair: one node each side, or several on either (a region).
struct NodeMatchPair {
  std::vector<const Node *> a; ///< in graph A's order
  std::vector<const Node *> b; ///< in graph B's order
  MatchReason reason = MatchReason::Name;
};

/// What differs between the two nodes of a one-to-one pair (nothing for a region, or for a
/// pair of two stages that provenance relates).
struct NodeChange {
  bool target = false; ///< op kind or target
  bool args = false;   ///< arguments, nodes compared through the pairing
  bool type = false;   ///< the node's value (dtype, shape, strides)
  bool any() const { return target || args || type; }
};

struct GraphMatch {
  /// Every pair, ordered by its first node in B (pairs without one in B do not exist).
  std::vector<NodeMatchPair> pairs;
  std::vector<const Node *> removed; ///< nodes of A paired with nothing, in A's order
  std::vector<const Node *> added;   ///< nodes of B paired with nothing, in B's order
  /// Node -> index into `pairs`, for the nodes of both graphs that are paired.
  std::unordered_map<const Node *, uint32_t> pairOf;

  /// What changed in pair `i` (a one-to-one pair; a region or a provenance pair reports
  /// nothing).
  NodeChange change(size_t i) const;
};

/// Pairs the nodes of `a` and `b` (which may be the same graph) with the evidence `strategy`
/// allows. The same two graphs always give the same pairs. Linear in the nodes and edges for
/// each round of propagation; rounds end when one pairs nothing new.
GraphMatch matchGraphs(const Graph &a, const Graph &b,
                       MatchStrategy strategy = MatchStrategy::Auto);

} // namespace fxkit
