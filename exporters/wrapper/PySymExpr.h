#pragma once
/// \file Symbolic integers as Python expressions that evaluate with Python semantics on ints
/// and, unchanged, elementwise on int64 torch tensors (`//` floors and `%` takes the divisor's
/// sign on both), for generated Python wrappers and kernels.

#include "ir/SymExpr.h"

#include <string>

namespace fxkit {

/// `e` as Python: explicit operators with the parentheses Python precedence needs, exact
/// division (`/`) as `//` so results stay integers, and calls (`Max`, `Min`, `FloorDiv`,
/// `CeilDiv`, `ModularIndexing`, `Mod`, `PythonMod`, `Abs`) under their sympy names, which
/// the generated module defines (see kPySymHelpers).
std::string pySymExpr(const SymExpr &e);

/// Python definitions of the sympy-named functions pySymExpr may call, working on ints and
/// int64 tensors alike.
extern const std::string kPySymHelpers;

} // namespace fxkit
