#pragma once
/// \file The compiled program as a runnable Python module laid out like Inductor's
/// `output_code.py`: helpers, the kernels (PyTorch functions, see PyKernelWriter.h), then
/// `call(args)` (unpack inputs, bind size symbols, assert sizes and strides, allocate from the
/// pool or with empty_strided, launch kernels and extern ops in order, `del` and reuse buffers
/// as planned, return outputs), and a `get_args()` / `__main__` benchmark harness. The module
/// needs only PyTorch, on CPU or GPU. `call` is the wrapper graph (transforms/WrapperGraph.h)
/// printed line by line; the loop program gives only the bodies of the kernels it launches and
/// the ATen calls of its extern launches.

#include "ir/Error.h"
#include "ir/Graph.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"
#include "ir/loop/MemoryPlan.h"

#include <string>

namespace fxkit {

/// The module for `program` fused into `fused`, printing the wrapper graph buildWrapperGraph
/// makes of them; without a plan every buffer gets its own allocation at its first write and
/// none is freed.
Expected<std::string> writeWrapperPy(const loop::LoopProgram &program,
                                     const loop::FusedProgram &fused,
                                     const loop::MemoryPlan *plan = nullptr);

/// The module for a graph the compiler passes ran on (lower and fuse at least).
Expected<std::string> writeWrapperPy(Graph &graph);

} // namespace fxkit
