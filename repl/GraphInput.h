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

/// Adds the positional graph file ("-": stdin), `--from` and `--provenance` to `cmd`.
void addGraphInputOptions(CLI::App *cmd, std::string &graph, std::string &from,
                          std::string &provenance);

/// The one definition of `--provenance` (convert and info have their own positional inputs).
void addProvenanceOption(CLI::App *cmd, std::string &path);

/// The input format `--from NAME` names; nothing when NAME is empty (the file name or content
/// tells). A picture's name is refused as unreadable, any other unknown name lists the formats.
Expected<std::optional<GraphFormat>> inputFormatOption(std::string_view name);

/// The graph of `path` read as `from` names (inputFormatOption), with its sidecars and the
/// provenance mapping `provenance` names attached (importGraphFile).
Expected<Graph> readGraphInput(const std::string &path, const std::string &from,
                               const std::string &provenance);

} // namespace fxkit
