#pragma once
/// \file One entry point for writing a graph in any supported format, and safe file output.

#include "importers/Import.h"
#include "ir/Error.h"
#include "ir/Graph.h"

#include <string>
#include <string_view>

namespace fxkit {

/// `outputPath` (optional) is where the result goes: a PT2 archive names its top-level folder
/// after it, as PyTorch does.
Expected<std::string> exportGraph(const Graph &graph, GraphFormat format,
                                  std::string_view outputPath = {});

/// Writes content to path atomically: a temporary file in the same folder, then rename, so a
/// failure never leaves a partial file. "-" writes to stdout.
Status writeFileAtomic(const std::string &path, std::string_view content);

} // namespace fxkit
