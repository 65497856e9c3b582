#pragma once
/// \file Structural checks every graph must pass after import and after every pass.

#include "ir/Error.h"
#include "ir/Graph.h"

namespace fxkit {

/// Checks: names unique, every argument defined before its use, users consistent with
/// arguments, exactly one output node and it is last. Placeholders may come anywhere before the
/// output, as torch.fx.Graph.lint allows: torch.export's unlifted module reads its get_attr
/// nodes before its input, and FX binds every placeholder to a forward() parameter wherever it
/// stands (inputs are the placeholders in program order). The error names the offending node.
Status verifyGraph(const Graph &graph);

} // namespace fxkit
