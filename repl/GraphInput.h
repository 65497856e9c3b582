#pragma once
/// \file The graph a subcommand reads: its file, `--from` and `--provenance`. Every subcommand
/// that takes a graph (run, fuse, compile, report) declares the three options and reads them
/// through here, so they say the same things in `--help` and fail with the same errors.

#include "ir/Error.h"
#include "ir/Graph.h"
#include "support/GraphFormat.h"

#include <optional>
#include <string>
#include <string_view>

namespace CLI {
class App;
}

namespace fxkit {

/// The graph a subcommand reads; the options of run, fuse, compile and report derive from it.
struct GraphInputOptions {
  std::string graph;      ///< the file ("-": stdin); sidecars beside it are attached
  std::string from;       ///< the input format's name; empty: told by the file's name or content
  std::string provenance; ///< Inductor's provenance mapping to attach (--provenance)
};

/// Adds the positional graph file, `--from` and `--provenance` to `cmd`.
void addGraphInputOptions(CLI::App *cmd, GraphInputOptions &input);

/// The one definition of `--provenance` (convert and info have their own positional inputs).
void addProvenanceOption(CLI::App *cmd, std::string &path);

/// The input format `--from NAME` names; nothing when NAME is empty (the file name or content
/// tells). A picture's name is refused as unreadable, any other unknown name lists the formats.
Expected<std::optional<GraphFormat>> inputFormatOption(std::string_view name);

/// The graph of `input.graph` read as `input.from` names (inputFormatOption), with its sidecars
/// and the provenance mapping `input.provenance` names attached (importGraphFile).
Expected<Graph> readGraphInput(const GraphInputOptions &input);

} // namespace fxkit
