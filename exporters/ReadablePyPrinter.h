#pragma once
/// \file Writer for the annotated Python form of `print_readable()`.

#include "ir/Graph.h"

#include <string>

namespace fxkit {

/// Prints the graph as `print_readable()` does, its submodules as nested classes (comments
/// with stack traces are not kept).
std::string printReadablePy(const Graph &graph);

} // namespace fxkit
