#pragma once
/// \file Precomputed size arguments (Inductor's `ks0`): in a kernel's index expressions, every
/// product of two or more size symbols (`x0*s17*s27`) is computed once by the wrapper and passed
/// to the kernel under a name (`ks0 = s17*s27`, index `x0*ks0`), as are the iteration space's
/// sizes (`xnumel`, `rnumel`). Kernel code then only multiplies by single arguments.

#include "ir/SymExpr.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"

#include <string_view>

namespace fxkit {

/// Fills Kernel::symbolArgs and Kernel::sizeArgs of every generated kernel (the
/// `hoist-size-args` pass). Returns whether that changed any kernel's (so a second run says
/// no).
bool hoistSizeArgs(const loop::LoopProgram &program, loop::FusedProgram &fused);

/// `index` (simplified) with every product of size symbols that the kernel hoisted replaced by
/// its argument's name; products it did not hoist stay as they are.
SymExpr useSizeArgs(const SymExpr &index, const loop::Kernel &kernel);

/// Whether a symbol is a value of the running point rather than a size: a loop variable
/// (`x0`, `r1`) or the symbol of an indirect index (`ind3`, loop::isIndirectVarName).
bool isLoopVariable(std::string_view name);

} // namespace fxkit
