#pragma once
/// \file Delta debugging of a failing graph: the smallest graph found that still fails, for
/// `fxkit bisect --minimize` and the differential tester's random graphs. What "fails" means is
/// the caller's (a backend disagreeing with the reference interpreter, a compile error); this
/// only proposes smaller graphs and keeps those the caller says still fail.

#include "ir/Graph.h"

#include <cstddef>
#include <functional>

namespace fxkit {

struct ReduceOptions {
  int maxRounds = 200; ///< rounds of "try every one-step reduction, keep the first that fails"
  /// How many candidates the predicate may be asked about in all (each may compile and run a
  /// graph): the best graph so far is returned when they are used up.
  size_t maxChecks = static_cast<size_t>(-1);
};

/// The smallest graph found that `stillFails`: repeatedly drops a returned value, replaces a
/// node's uses by one of its inputs, turns a node into a new input of its type (a placeholder
/// named `in_<node>`, typed; the caller gives it a value), or drops unused inputs, keeping
/// each change that still fails, smallest candidates first (fewer call nodes, then fewer
/// inputs, then fewer returned values). Candidates keep only their placeholders' types (other
/// nodes' are recomputed by whoever runs them). `graph` itself is assumed to fail.
Graph reduceFailingGraph(const Graph &graph, const std::function<bool(const Graph &)> &stillFails,
                         const ReduceOptions &options = {});

} // namespace fxkit
