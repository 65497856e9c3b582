#pragma once
/// \file The wrapper program as PyTorch's own FX IR of a wrapper, in the form Inductor's
/// `WrapperFxCodegen` prints it (`fxir_*.graph.txt`, `fxir_*.code.py`): `torch.empty_strided`
/// allocations, `torch.as_strided` views, `operator.*` size arithmetic, and one
/// `torch.ops.higher_order.triton_kernel_wrapper_mutation` call per kernel launch with its
/// grid and kwargs; extern ops as their `.out` overloads where one exists.

#include "ir/Error.h"
#include "ir/Graph.h"

#include <functional>
#include <string>

namespace fxkit {

/// The FX IR graph of the compiled program of `graph` (the compiler passes lower and fuse at
/// least ran on it; plan is used when present).
Expected<Graph> buildFxIr(Graph &graph);

/// buildFxIr as FX text (`str(graph)`).
Expected<std::string> writeFxIr(Graph &graph);

/// buildFxIr as the Python `forward` code torch.fx generates (`gm.code`).
Expected<std::string> writeFxIrCode(Graph &graph);

/// The Python `forward` code torch.fx generates (`gm.code`) for an FX IR graph.
std::string printFxIrCode(const Graph &fxIr);

/// What the FX IR's output node returns for a wrapper graph's `output`: WrapperFxCodegen
/// returns one value bare and several as a list, each value carried over by `remap`. Both FX
/// IR builders (of fxkit's wrapper graphs and of Inductor's, InductorFxIr.h) end this way.
Argument fxIrResult(const Node &output, const std::function<Argument(const Argument &)> &remap);

} // namespace fxkit
