#pragma once
/// \file Reading torch.export archives (`.pt2`, written by `torch.export.save`): a zip whose
/// entries sit under one top-level folder, holding `archive_format` ("pt2"),
/// `archive_version`, `models/<name>.json` (the serialized ExportedProgram,
/// torch/_export/serde/schema.py), `data/weights/` and `data/constants/` (raw tensor storage
/// bytes described by `<name>_weights_config.json` / `<name>_constants_config.json`) and
/// `data/sample_inputs/<name>.pt`.
///
/// The graph is the one PyTorch's GraphModuleDeserializer builds (torch.export.load):
/// placeholders named as in `str(ep.graph)`, one call_function per serialized node with
/// PyTorch's target spelling (`torch.ops.aten.add.Tensor`, `operator.add` for `_operator.add`),
/// args and kwargs as the node's ArgumentKind says, getitem nodes for multiple results named
/// after them, get_attr nodes and submodules for the graphs of higher-order ops, and every value
/// typed from `tensor_values` / `sym_int_values` (symbolic sizes from their sympy
/// expressions). Unlike PyTorch, the getitems the serializer invents for unused results
/// (`<node>_unused_<i>`) are left out, so the graph equals the one that was saved. The
/// program around the graph (signature, range constraints, weights, ...) is attached as an
/// ExportedProgram (support/pt2/ExportedProgram.h).

#include "ir/Error.h"
#include "ir/Graph.h"

#include <string>
#include <string_view>

namespace fxkit {

/// Reads the archive in `bytes`; `fileName` names it in errors. The program read is the one
/// named `model` (what torch.export.save writes and torch.export.load returns), or the only
/// one. Errors are located: the archive's byte offset for a broken zip, file:line:col inside
/// the archive's JSON (`X.pt2[root/models/model.json]:12:5`) for a bad program.
Expected<Graph> importPt2(std::string_view bytes, const std::string &fileName);

} // namespace fxkit
