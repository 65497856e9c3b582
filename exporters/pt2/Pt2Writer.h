#pragma once
/// \file Writing a graph as a torch.export archive (`.pt2`) that `torch.export.load` reads:
/// the ExportedProgram JSON of torch/_export/serde/schema.py at the schema version PyTorch
/// 2.11 writes (8.17), as GraphModuleSerializer writes it (arguments named by the op's schema,
/// positional or keyword as the node has them; results of several values named after their
/// getitem users; symbolic sizes as sympy expressions; higher-order ops with their subgraphs),
/// the weights and constants as raw storage bytes with their payload configs, and the
/// archive's bookkeeping records (archive_format, archive_version, .data/version, byteorder).
///
/// A graph read from a PT2 archive keeps its signature, range constraints, weights, module call
/// graph and sample inputs (the ExportedProgram attachment), so archive -> graph -> archive
/// gives the same program. Any other graph becomes a program whose placeholders are all user
/// inputs and whose outputs are all user outputs; its values must be typed (FX annotations, a
/// nodes.json sidecar, or shape inference from typed placeholders, which the writer runs for
/// nodes without a value).

#include "ir/Error.h"
#include "ir/Graph.h"

#include <string>
#include <string_view>

namespace fxkit {

/// The archive's bytes. `archiveName` is the top-level folder every record lives in (PyTorch
/// uses the file's name without `.pt2`). Errors name the node that cannot be written: an op
/// whose schema fxkit does not know (not in the op registry, nor recorded by the archive it was
/// read from), a value without a type, an argument the format has no encoding for.
Expected<std::string> writePt2(const Graph &graph, std::string_view archiveName = "model");

/// The folder name PyTorch gives an archive written to `path`: its file name without `.pt2`
/// (`archive` for stdout or an empty name).
std::string pt2ArchiveName(std::string_view path);

} // namespace fxkit
