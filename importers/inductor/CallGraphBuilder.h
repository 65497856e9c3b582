#pragma once
/// \file The `call(args)` function of Inductor's Python wrapper code as a wrapper-IR graph (the
/// statement forms are listed in InductorWrapper.h).

#include "importers/inductor/InductorWrapper.h"
#include "importers/inductor/PyStatements.h"

#include <map>
#include <string_view>

namespace fxkit::inductor {

/// Module-level `def name(args):` functions call() runs: graph partitions and subgraphs.
using ModuleFunctions = std::map<std::string, const PyStmt *, std::less<>>;

/// Builds the graph of `callDef` (a parsed `def call(args)` / `def call(self, args)`). Calls
/// of `functions` (`self.partitions[i]` names `partitions[i]`) are inlined: their statements
/// join the graph where the call is, their results bound to the call's targets.
Expected<Graph> buildCallGraph(const PyStmt &callDef, const InductorWrapperInfo &info,
                               const ModuleFunctions &functions,
                               const std::vector<std::string> &partitions, std::string_view text,
                               const std::string &fileName);

} // namespace fxkit::inductor
