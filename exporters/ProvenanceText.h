#pragma once
/// \file How Inductor's provenance on a graph's nodes (ir/Node.h NodeProvenance, attached by
/// support/InductorProvenance.h) reads as text: the lines `fxkit info`, the REPL's `why`, the
/// pictures' tooltips and the HTML report show.

#include "ir/Graph.h"

#include <string>
#include <vector>

namespace fxkit {

/// One line per non-empty list, in the order kernels, post-grad, pre-grad:
/// `kernels: triton_poi_fused_add_0:3`, `post-grad: add, mul`, `pre-grad: x_1`. At most
/// `limit` names a line (then `... (N more)`); 0: all.
std::vector<std::string> provenanceLines(const NodeProvenance &p, size_t limit = 0);

/// `fxkit info`'s section: a header (the mapping file and the stage it was attached as, when
/// the graph was read with one; how many nodes carry provenance; kernel handles no call took),
/// then each node with provenance and its lines: per kernel call the post-grad nodes it
/// computes and the pre-grad nodes behind them, per post-grad node the kernels computing it.
/// Empty when no node has provenance.
std::string printProvenanceSection(const Graph &graph);

} // namespace fxkit
