#pragma once
/// \file Reader for the annotated Python of `GraphModule.print_readable()` (`*.readable.py`,
/// `fx_graph_readable.py`, `fx_graph_transformed.py`).

#include "ir/Error.h"
#include "ir/Graph.h"

#include <string>
#include <string_view>

namespace fxkit {

/// Parses the Python form into a graph with tensor types taken from the annotations. Classes
/// nested in the module's class (child GraphModules, printed after forward) become the graph's
/// submodules, recursively.
Expected<Graph> parseReadablePy(std::string_view text, const std::string &fileName = "<input>");

} // namespace fxkit
