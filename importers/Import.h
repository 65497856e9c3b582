#pragma once
/// \file One entry point for reading a graph from a file in any supported format.

#include "ir/Error.h"
#include "ir/Graph.h"
#include "support/GraphFormat.h"
#include "support/InductorProvenance.h"

#include <optional>
#include <string>
#include <string_view>

namespace fxkit {

/// For a format name or a file name (one with a dot or slash) that is a picture fxkit draws (dot,
/// svg, png, pdf; `.gv` is dot), the error that says it cannot be read back ("dot is an output
/// format only (read ...)"), else nothing: pictures drop the arguments a graph needs (constants,
/// kwargs).
std::optional<Error> pictureInputError(std::string_view nameOrPath);

/// Format from the file name (`.graph.txt`/`.txt`: fx, or inductor-ir when a `.txt` starts
/// with a scheduler node header such as `op0: SchedulerNode(`; `.py`: fxpy or, when the content
/// is Inductor's wrapper code, inductor-py, `.json`: json, `.pt2`: pt2), else from the content
/// (`graph():`, `class `, `{`, `async_compile` with `def call(`, a scheduler node header, a zip's
/// `PK` signature).
std::optional<GraphFormat> detectGraphFormat(const std::string &path, std::string_view content);

/// Reads a whole file ("-" is stdin). Errors name the path.
Expected<std::string> readTextFile(const std::string &path);

/// Parses text of the given format and verifies the result.
Expected<Graph> importGraph(std::string_view text, GraphFormat format, const std::string &fileName);

/// The `nodes.json` sidecar whose types importGraphFile attached to an FX text graph, kept on
/// the graph (Graph::attachments, key kNodesJsonSidecarKey) so that the REPL's `load`, `fxkit
/// info` and a batch's summary can say where the types came from (a graph without types
/// otherwise looks the same as one whose sidecar was missed). Like every attachment it is not
/// part of the graph's text and JSON forms.
struct NodesJsonSidecar : GraphAttachment {
  std::string file; ///< the sidecar read, as found (beside the input or beside its target)
};

inline constexpr std::string_view kNodesJsonSidecarKey = "importers.nodes-json";

/// The sidecar attached to `graph`, or null.
const NodesJsonSidecar *nodesJsonSidecar(const Graph &graph);

/// The sidecar of an FX text file `X.graph.txt`: `X.nodes.json` beside it, else, when the path
/// goes through a symlink (the file or a folder above it), beside the file it resolves to
/// (std::filesystem::canonical; links to a model's artifacts rarely bring its sidecar along).
/// Nothing when there is none or the name does not end in `.graph.txt`.
std::optional<std::string> findNodesJsonSidecar(const std::string &path);

/// readTextFile + detect (unless given) + importGraph. With attachSidecar, the files PyTorch
/// writes beside a graph are attached when present: for fx text, the `nodes.json` sidecar
/// (findNodesJsonSidecar; recorded as NodesJsonSidecar); for Inductor wrapper code and
/// `fx_graph_transformed.py`, Inductor's provenance mapping
/// (`inductor_provenance_tracking_node_mappings.json` of the same debug folder;
/// importers/json/Provenance.h). `provenance` names a mapping file to attach instead (always; an
/// error when it names none of the graph's nodes).
Expected<Graph> importGraphFile(const std::string &path, std::optional<GraphFormat> format = {},
                                bool attachSidecar = true, const std::string &provenance = {});

/// Inductor's provenance mapping read from `text` (importers/json/Provenance.h), `path` naming
/// it in errors; an error in a build without JSON support, so callers need no conditional.
Expected<InductorProvenance> parseProvenanceMapping(std::string_view text, const std::string &path);

} // namespace fxkit
