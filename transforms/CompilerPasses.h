#pragma once
/// \file The compiler pipeline as registered passes: `lower` (ATen graph -> loop program),
/// `fuse` (kernels, size arguments hoisted), `plan` (memory plan), `wrapper` (the graph
/// becomes the wrapper program) and `substitute-size-args`. Each keeps its results in the
/// graph's CompilationState and says whether it changed anything.

#include "transforms/Pass.h"

namespace fxkit {

/// Adds the compiler passes to `registry` (registerBuiltinPasses calls this).
void registerCompilerPasses(PassRegistry &registry);

} // namespace fxkit
