#pragma once
/// \file The `call(args)` function of Inductor's Python wrapper code as a wrapper-IR graph (the
/// statement forms are listed in InductorWrapper.h).

#include "importers/inductor/InductorWrapper.h"
#include "importers/inductor/PyStatements.h"

namespace fxkit::inductor {

/// Builds the graph of `callDef` (a parsed `def call(args)` / `def call(self, args)`).
Expected<Graph> buildCallGraph(const PyStmt &callDef, const InductorWrapperInfo &info,
                               std::string_view text, const std::string &fileName);

} // namespace fxkit::inductor
