#pragma once
/// \file The compiled program's kernels as an OpenCL C source folder (`fxkit compile G --to
/// opencl -o DIR`): one `<kernel>.cl` per distinct kernel (the shared prelude included, so each
/// builds alone) and `manifest.json`: build options, every kernel's parameters in order, every
/// launch in schedule order with its arguments, iteration space and launch grid, the buffers
/// with their placement in the memory plan, and the program's inputs and outputs.

#include "ir/Error.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"
#include "ir/loop/MemoryPlan.h"

#include <string>
#include <utility>
#include <vector>

namespace fxkit {

/// (file name, content) pairs, the manifest last. Needs the JSON formats (nlohmann-json).
Expected<std::vector<std::pair<std::string, std::string>>>
writeOpenCLSources(const loop::LoopProgram &program, const loop::FusedProgram &fused,
                   const loop::MemoryPlan *plan);

} // namespace fxkit
