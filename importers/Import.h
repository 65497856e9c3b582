#pragma once
/// \file One entry point for reading a graph from a file in any supported format.

#include "ir/Error.h"
#include "ir/Graph.h"

#include <optional>
#include <string>
#include <string_view>

namespace fxkit {

/// InductorPy: Inductor's Python wrapper code (output_code.py), read only (see
/// importers/inductor/InductorWrapper.h). InductorIr: Inductor's scheduler dumps
/// (ir_pre_fusion.txt, ir_post_fusion.txt), read only (importers/inductor/SchedulerDump.h).
/// InductorCpp: Inductor's C++ wrapper code (cpp_wrapper_*.py), read only
/// (importers/inductor/InductorCppWrapper.h).
/// Dot: Graphviz DOT (exporters/DotWriter.h), Svg/Png/Pdf: its picture laid out by libgvc
/// (exporters/GraphvizRender.h), all write only: pictures, not graphs to read back.
enum class GraphFormat {
  FxText,
  FxPy,
  Json,
  InductorPy,
  InductorIr,
  InductorCpp,
  Dot,
  Svg,
  Png,
  Pdf
};

/// "fx", "fxpy", "json", "inductor-py", "inductor-ir", "inductor-cpp".
std::string_view graphFormatName(GraphFormat format);
std::optional<GraphFormat> parseGraphFormat(std::string_view name);

/// Format from the file name (`.graph.txt`/`.txt`: fx, or inductor-ir when a `.txt` starts
/// with a scheduler node header such as `op0: SchedulerNode(`; `.py`: fxpy or, when the content
/// is Inductor's wrapper code, inductor-py, `.json`: json), else from the content (`graph():`,
/// `class `, `{`, `async_compile` with `def call(`, a scheduler node header).
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
