#include "repl/GraphInput.h"

#include "importers/Import.h"
#include "ir/Try.h"

#include <CLI/CLI.hpp>

namespace fxkit {

void addGraphInputOptions(CLI::App *cmd, GraphInputOptions &input) {
  cmd->add_option("graph", input.graph, "Graph file (- for stdin)")->required();
  cmd->add_option("--from", input.from, "Input format: " + inputFormatList());
  addProvenanceOption(cmd, input.provenance);
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

Expected<Graph> readGraphInput(const GraphInputOptions &input) {
  FXKIT_ASSIGN_OR_RETURN(auto format, inputFormatOption(input.from));
  return importGraphFile(input.graph, format, true, input.provenance);
}

} // namespace fxkit
