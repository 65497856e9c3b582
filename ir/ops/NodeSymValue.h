#pragma once
/// \file The symbolic value an argument's node holds, with the one wording of why it does not:
/// what schema binding (OpSchema.cpp) and the symbolic scalar ops (SymbolicOps.cpp) both say.

#include "ir/Error.h"
#include "ir/Node.h"
#include "ir/SymExpr.h"

#include <string>

namespace fxkit {

/// The SymExpr node `n` holds, or an error: it has no value (not inferred yet) or holds
/// something else; `expected` names what the caller wanted ("a symbolic integer").
inline Expected<SymExpr> nodeSymValue(const Node &n, const std::string &expected) {
  if (const SymExpr *s = n.value().sym())
    return *s;
  if (n.value().empty())
    return Error("input '" + n.name() + "' has no value");
  return Error("input '" + n.name() + "' is not " + expected);
}

} // namespace fxkit
