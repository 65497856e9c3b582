#pragma once
/// \file An imported Inductor program written back as a runnable Python module
/// (`fxkit convert output_code.py --to fxpy`): the original Triton kernel sources, loaded as
/// Inductor loads them (`PyCodeCache.load`; their `@triton.jit` functions are registered in
/// PyTorch's kernel side table), and a `GraphModule` whose `forward` is the program's FX IR
/// (exporters/wrapper/InductorFxIr.h, the same code `--to fxir-code` prints) launching them
/// through `torch.ops.higher_order.triton_kernel_wrapper_mutation`, with the grid and block
/// sizes of each kernel's first heuristic config. `get_args()` rebuilds the example inputs of
/// the original module, and running the file executes `forward` once on them.
///
/// The module needs PyTorch and Triton on a GPU. It is an output format only: fxkit does not
/// read it back (its graph is `--to fxir`, which does re-read as FX text).

#include "ir/Error.h"
#include "ir/Graph.h"

#include <string>

namespace fxkit {

/// The module for a graph read from Inductor's Python wrapper code; `sourceName` is named in
/// its header comment. Errors where the FX IR conversion fails (C++ kernels, a launch config
/// the Triton heuristics emulation does not cover).
Expected<std::string> writeInductorModule(const Graph &graph, const std::string &sourceName);

} // namespace fxkit
