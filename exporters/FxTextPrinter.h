#pragma once
/// \file Writer for FX graph text, byte for byte as `str(graph)` prints it.

#include "ir/Graph.h"

#include <string>

namespace fxkit {

struct FxTextOptions {
  /// Print each node's tensor type as Inductor's comments do: `%x : Tensor "f32[4][1]cpu"[...]`.
  /// Without it, nodes that were read that way (Python type kFxTensorAnnotationType) still
  /// print typed, and all others as `str(graph)` does.
  bool tensorTypes = false;
};

std::string printFxText(const Graph &graph, const FxTextOptions &options = {});

} // namespace fxkit
