#pragma once
/// \file The REPL's query language over a graph's data edges, in the spirit of clang-query and
/// mlir-query: commands that answer with a set of nodes (`find`, `users`, `inputs`,
/// `ancestors`, `descendants`, `path`, `slice`, `match`, and over kernels `kernel-of` and
/// `computes`), `let NAME = QUERY` to keep one as
/// `$NAME` (every command taking nodes accepts it), `set` to list them, `extract` to make a
/// graph of a set, `show` and `print_tabular` to print one. Long lists (the output node's
/// hundreds of values) are elided unless `--full`. Every walk over the graph's edges is
/// iterative: graphs have millions of nodes.

#include "ir/Error.h"
#include "ir/Graph.h"
#include "repl/ReplLexer.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

class ReplSession;
struct ReplGraph;

/// Nodes of one graph, in graph order, each once.
using NodeSet = std::vector<Node *>;

/// The nodes of `g` that `word` names: a node name (`%x` is accepted) or `$NAME`, a `let`
/// variable computed on `g`. Errors suggest close names.
Expected<NodeSet> resolveReplNodes(const ReplSession &session, const ReplGraph &g,
                                   std::string_view word);

/// The nodes reachable from `seeds` over inputs (backward) or users (forward) within `depth`
/// edges (no limit when negative), in graph order; a seed is in the result only when it is
/// reached from another seed.
NodeSet reachableNodes(const Graph &graph, const NodeSet &seeds, bool forward, int64_t depth);

/// One shortest data path from `from` to `to` (both included, `from` first); empty when `to`
/// does not depend on `from`.
NodeSet shortestDataPath(const Graph &graph, Node *from, Node *to);

/// Up to `limit` data paths from `from` to `to`, in depth-first order of the users.
std::vector<NodeSet> dataPaths(const Graph &graph, Node *from, Node *to, size_t limit);

/// A graph of the nodes in `nodes` (the output node left out): a placeholder, typed as the
/// original, for each value they use from outside (and for each placeholder among them), the
/// nodes themselves, and an output returning the nodes used outside the set or by no node of
/// it. The result is verified.
Expected<Graph> extractSubgraph(const Graph &graph, const NodeSet &nodes);

/// `text` with every bracketed list of more than `keep` + 4 items cut after `keep` items:
/// `(a, b, ... 347 more)`. Quotes are respected.
std::string elideLongLists(std::string_view text, size_t keep = 8);

/// torch.fx's `graph.print_tabular()`: columns opcode, name, target, args, kwargs, for `nodes`
/// (long lists elided unless `full`).
std::string printTabular(const NodeSet &nodes, bool full);

/// Whether `name` is a command that answers with a node set (what `let` accepts).
bool isReplQuery(std::string_view name);
/// The names of those commands, for completion and help.
std::vector<std::string_view> replQueryNames();

// The commands (rows of repl/ReplCommands.cpp's table).
/// find, users, inputs, ancestors, descendants, path, slice, match, kernel-of, computes: run
/// and print.
Status replCmdQuery(ReplSession &s, const ReplWords &w);
Status replCmdShow(ReplSession &s, const ReplWords &w);
Status replCmdLet(ReplSession &s, const ReplWords &w);
Status replCmdSet(ReplSession &s, const ReplWords &w);
Status replCmdExtract(ReplSession &s, const ReplWords &w);
Status replCmdPrintTabular(ReplSession &s, const ReplWords &w);

} // namespace fxkit
