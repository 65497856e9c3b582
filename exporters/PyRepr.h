#pragma once
/// \file Python spellings of IR values, as torch.fx's code generator writes them (`_get_repr`):
/// shared by the annotated-Python printer and any exporter that writes Python.

#include "ir/Argument.h"
#include "ir/Node.h"

#include <string>

namespace fxkit {

/// Appends the Python expression for an argument: `'none'`, `torch.float32`,
/// `device(type='cuda', index=0)`, `(x,)`, `{'k': v}`, node names bare.
void printPyArg(std::string &out, const Argument &arg);

/// The annotation string FX writes for a node's value: `f32[4][1]cpu`, `Sym(s77)`, or "" when
/// the value is not a single tensor or symbolic integer.
std::string pyValueAnnotation(const NodeValue &value);

} // namespace fxkit
