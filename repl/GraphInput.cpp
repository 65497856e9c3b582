#include "repl/GraphInput.h"

#include "importers/Import.h"
#include "ir/Try.h"

#include <CLI/CLI.hpp>

namespace fxkit {

void addGraphInputOptions(CLI::App *cmd, std::string &graph, std::string &from,
                          std::string &provenance) {
  cmd->add_option("graph", graph, "Graph file (- for stdin)")->required();
  cmd->add_option("--from", from, "Input format: " + inputFormatList());
  addProvenanceOption(cmd, provenance);
}

void addProvenanceOption(CLI::App *cmd, std::string &path) {
  cmd->add_option("--provenance", path,
                  "Inductor's provenance mapping (inductor_provenance_tracking_node_mappings.json) "
                  "to attach: which kernel calls compute which post-grad nodes (default: the one "
                  "in the debug folder of an output_code.py or fx_graph_transformed.py)");
}

Expected<std::optional<GraphFormat>> inputFormatOption(std::string_view name) {
  if (name.empty())
    return std::optional<GraphFormat>();
  if (auto format = parseGraphFormat(name))
    return std::optional<GraphFormat>(*format);
  if (auto picture = pictureInputError(name))
    return *picture;
  return Error("unknown format '" + std::string(name) + "' for --from (expected " +
               inputFormatList() + ")");
}

Expected<Graph> readGraphInput(const std::string &path, const std::string &from,
                               const std::string &provenance) {
  FXKIT_ASSIGN_OR_RETURN(auto format, inputFormatOption(from));
  return importGraphFile(path, format, true, provenance);
}

} // namespace fxkit
