#pragma once
/// \file One entry point for reading a graph from a file in any supported format.

#include "ir/Error.h"
#include "ir/Graph.h"

#include <optional>
#include <string>
#include <string_view>

namespace fxkit {

enum class GraphFormat { FxText, FxPy, Json };

/// "fx", "fxpy", "json".
std::string_view graphFormatName(GraphFormat format);
std::optional<GraphFormat> parseGraphFormat(std::string_view name);

/// Format from the file name (`.graph.txt`/`.txt`: fx, `.py`: fxpy, `.json`: json), else from
/// the content (`graph():`, `class `, `{`).
std::optional<GraphFormat> detectGraphFormat(const std::string &path, std::string_view content);

/// Reads a whole file ("-" is stdin). Errors name the path.
Expected<std::string> readTextFile(const std::string &path);

/// Parses text of the given format and verifies the result.
Expected<Graph> importGraph(std::string_view text, GraphFormat format, const std::string &fileName);

/// readTextFile + detect (unless given) + importGraph. For fx text, a sibling
/// `X.nodes.json` next to `X.graph.txt` is attached when present and attachSidecar is set.
Expected<Graph> importGraphFile(const std::string &path, std::optional<GraphFormat> format = {},
                                bool attachSidecar = true);

} // namespace fxkit
