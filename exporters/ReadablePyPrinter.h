#pragma once
/// \file Writer for the annotated Python form of `print_readable()`.

#include "ir/Error.h"
#include "ir/Graph.h"

#include <string>

namespace fxkit {

/// Prints the graph as `print_readable()` does, its submodules as nested classes (comments
/// with stack traces are not kept).
std::string printReadablePy(const Graph &graph);

/// An error naming the first call_function node (in the graph or a submodule) whose target is
/// not a dotted Python name such as `torch.ops.aten.add.Tensor` or `operator.getitem`: readable
/// Python would print it verbatim, as code that does not parse (FX text keeps any target text;
/// a damaged file can hold `aten.unsqueeze.def{{{`). Writers call it before printReadablePy.
Status checkReadablePyTargets(const Graph &graph);

} // namespace fxkit
