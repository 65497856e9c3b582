#pragma once
/// \file Structural checks every graph must pass after import and after every pass.

#include "ir/Error.h"
#include "ir/Graph.h"

namespace fxkit {

/// Checks: names unique, every argument defined before its use, users consistent with
/// arguments, exactly one output node and it is last, placeholders first.
/// The error names the offending node.
Status verifyGraph(const Graph &graph);

} // namespace fxkit
