#pragma once
/// \file The compiler pipeline as registered passes, each declaring the level it reads and
/// writes: `lower` (graph -> loop program; the pipeline lower-ops, loop-dce, inline-producers,
/// loop-dce), `fuse` (loop program -> kernels; the pipeline fuse-kernels, hoist-size-args),
/// `plan` (kernels -> memory plan), `wrapper` (the graph becomes the wrapper program) and
/// `substitute-size-args`. Each keeps its results in the graph's CompilationState and says
/// whether it changed anything. Options: `fusion` (fuse-kernels), `alignment` and
/// `plan-time-limit` (plan). transforms/Pipeline.h's compile() runs them.

#include "transforms/Pass.h"

namespace fxkit {

/// Adds the compiler passes to `registry` (registerBuiltinPasses calls this).
void registerCompilerPasses(PassRegistry &registry);

} // namespace fxkit
