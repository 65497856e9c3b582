#pragma once
/// \file Reader for FX graph text: `str(graph)` (`*.graph.txt`), including Dynamo's Python
/// types (`%x : torch.SymInt [num_users=1] = ...`) and the typed form of Inductor's output
/// code comments (`%add : Tensor "f32[s77][1]cuda:0"[num_users=1] = ...`).

#include "ir/Error.h"
#include "ir/Graph.h"
#include "support/FxTextSyntax.h"

#include <string>
#include <string_view>

namespace fxkit {

/// How strictly parseFxText reads its input.
struct FxTextParseOptions {
  /// Reads a fragment of a graph, such as the node comments in Inductor's output code: the
  /// `graph():` header and the `return` line are optional, a `%name` that is not defined
  /// becomes a placeholder (inserted first), and the graph is not verified.
  bool partial = false;
};

/// Parses FX graph text. Errors carry fileName:line:col and the offending line.
Expected<Graph> parseFxText(std::string_view text, const std::string &fileName = "<input>");

/// parseFxText with options (see FxTextParseOptions).
Expected<Graph> parseFxText(std::string_view text, const std::string &fileName,
                            const FxTextParseOptions &options);

/// Deepest bracket nesting parseFxText accepts in an argument; deeper input is an error.
inline constexpr int kFxTextMaxNesting = 256;

} // namespace fxkit
