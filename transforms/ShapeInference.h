#pragma once
/// \file Shape inference: fills every node's value (dtype, symbolic sizes, strides, device) from
/// the placeholders' values by running the op registry's inference in node order.

#include "ir/Error.h"
#include "ir/Graph.h"

namespace fxkit {

/// Computes the value of every call_function node (and of the output node: the list of returned
/// tensors) from its inputs, in node order. Placeholders must already have values (from
/// nodes.json, or set by the caller). Errors name the node and its op; nodes after the failing
/// one keep their previous values.
Status inferShapes(Graph &graph);
/// The same, and sets `changed` when some node's value differs from the one it had (compared
/// node by node as it is replaced, so callers need not copy every value beforehand).
Status inferShapes(Graph &graph, bool &changed);

} // namespace fxkit
