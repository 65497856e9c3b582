#pragma once
/// \file Reader for FX graph text: `str(graph)` (`*.graph.txt`), including Dynamo's Python
/// types (`%x : torch.SymInt [num_users=1] = ...`) and the typed form of Inductor's output
/// code comments (`%add : Tensor "f32[s77][1]cuda:0"[num_users=1] = ...`).

#include "ir/Error.h"
#include "ir/Graph.h"

#include <string>
#include <string_view>

namespace fxkit {

/// Parses FX graph text. Errors carry fileName:line:col and the offending line.
Expected<Graph> parseFxText(std::string_view text, const std::string &fileName = "<input>");

} // namespace fxkit
