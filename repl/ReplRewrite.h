#pragma once
/// \file Graph edits of the REPL beyond renaming and erasing: inserting one node written as a
/// line of FX text (or of `print_readable()` Python), setting a node's metadata, and rewriting
/// every match of a pattern graph with a replacement graph (torch.fx's
/// `subgraph_rewriter.replace_pattern`). Each edit changes the graph it is given in place and
/// returns an error on bad input; the session verifies the result and rolls back on failure.

#include "ir/Error.h"
#include "ir/Graph.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fxkit {

/// Inserts the node `line` defines next to `anchor` (after it, or before it when `before`).
///
/// `line` is one FX text node line (`%r = call_function[target=torch.ops.aten.relu.default](
/// args = (%add,), kwargs = {})`, type and `[num_users=N]` optional) or one line of the Python
/// form (`r = torch.ops.aten.relu.default(add)`; `aten.`/`prims.` targets may leave out
/// `torch.ops.`). Names it uses must be nodes of the graph; its own name must be new. The
/// node's type comes from shape inference when its inputs have types; an op whose inference
/// fails is an error. Returns the new node.
Expected<Node *> insertNodeFromText(Graph &graph, std::string_view anchor, bool before,
                                    std::string_view line);

/// The metadata keys setNodeMeta understands, for help and errors.
inline constexpr std::string_view kNodeMetaKeys = "val (alias type), python_type";

/// Sets one metadata field of a node: `val`/`type` (a tensor type `f32[4, 8][8, 1]cpu`, a
/// symbolic integer `s77`, or `none` to forget it) or `python_type` (`torch.SymInt`, `none`).
/// FX's other meta keys (stack_trace, nn_module_stack, ...) are not kept by the IR: an error
/// says so rather than dropping the value.
Status setNodeMeta(Graph &graph, std::string_view node, std::string_view key,
                   std::string_view value);

/// What replacePattern did.
struct ReplaceReport {
  size_t replaced = 0;
  /// Anchors whose match was refused because an internal node had users outside the match.
  size_t refusedEscaping = 0;
};

/// Replaces every non-overlapping match of `pattern` in `graph` by a copy of `replacement`.
///
/// Both are graphs with the same number of placeholders (bound by position) and of returned
/// nodes (replaced by position). A match is anchored at a node matching the pattern's first
/// returned node and found by a worklist walk back over the inputs: call nodes match nodes of
/// the same kind and target with structurally equal arguments, pattern placeholders match any
/// node (the same one each time). Other returned nodes that walk does not reach are looked for
/// among the users of their matched inputs (siblings). Nodes of a match other than the
/// returned ones must have no users outside it. Anchors are tried in graph order; a node used
/// by an earlier match is not matched again. The replacement goes before the first returned
/// node; new nodes get their types from shape inference.
Expected<ReplaceReport> replacePattern(Graph &graph, const Graph &pattern,
                                       const Graph &replacement);

} // namespace fxkit

namespace fxkit {

/// One match of a pattern graph (findPatternMatches).
struct PatternMatch {
  Node *root = nullptr; ///< the graph node matching the pattern's first returned node
  /// Pattern node -> graph node, in the pattern's order (placeholders bound to the nodes they
  /// stand for; the output node left out).
  std::vector<std::pair<const Node *, Node *>> bindings;
};

/// Every match of `pattern` in `graph`, found as replacePattern finds them (anchored at each node
/// matching the pattern's first returned node, in graph order), except that matches may overlap
/// and inner nodes may have users outside the match: `match` reports, it does not rewrite.
Expected<std::vector<PatternMatch>> findPatternMatches(const Graph &graph, const Graph &pattern);

/// A pattern graph from text typed inline: statements separated by `;` or newlines, in
/// print_readable()'s Python (`m = aten.mul.Tensor(a, b); aten.add.Tensor(m, c)`) or as FX text
/// node lines (`%m = call_function[target=...](args = (%a, %b), kwargs = {})`). Names used and
/// not defined become placeholders (any node); the last statement is what the pattern returns
/// (a bare expression is allowed there).
Expected<Graph> parseInlinePattern(std::string_view text);

} // namespace fxkit
