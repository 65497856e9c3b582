#pragma once
/// \file The FX IR of an imported Inductor wrapper (`fxkit convert output_code.py --to fxir`):
/// the graph PyTorch's `WrapperFxCodegen` builds from the same program (`fxir_*.graph.txt` of
/// the corpus), from the wrapper-IR graph importers/inductor/InductorWrapper.h reads.
///
///   wrapper graph (fxkit)                     FX IR (PyTorch's form)
///   placeholders                              placeholders, same names
///   fxkit.assert_* on an input                dropped (input guards are not wrapper lines)
///   torch.empty_strided(.., device=cuda:0)    torch.empty_strided(.., device='cuda')
///   reuse of the same layout (`b1 = b0`)      no node: b1 is b0
///   reuse / reinterpret of another layout     torch.as_strided (named as_strided, _1, ...)
///   inline reinterpret_tensor(x, ..)          torch.as_strided named x_view (FX's counter for
///                                             as_strided advances too, as in PyTorch)
///   size arithmetic (operator.*)              the same, named by target (mul, floordiv)
///   fxkit.kernel (Triton launch)              [grid arithmetic], triton_kernel_wrapper_mutation
///                                             with kernel_idx, constant_args_idx, grid, kwargs
///                                             = runtime args + the first heuristic config's
///                                             blocks (exporters/wrapper/TritonLaunchConfig.h)
///   fxkit.extern extern_kernels.X(.., out=b)  torch.ops.aten.X.out(.., out=b)
///   fxkit.free                                dropped (FX frees after the last use)
///   return (a, b, )                           return a (one value) / return [a, b]
///
/// Beyond what PyTorch's converter handles (it fails on these), fxkit also converts: asserts on
/// intermediate buffers (torch._C._dynamo.guards.assert_size_stride / assert_alignment), extern
/// calls that allocate their result (`buf0 = extern_kernels.convolution(..)` as
/// torch.ops.aten.convolution.default), ATen fallback calls (attention) and their getitems;
/// `addedKinds` counts them.

#include "ir/Error.h"
#include "ir/Graph.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace fxkit {

struct InductorFxIr {
  Graph graph;
  /// Node kinds PyTorch 2.11's WrapperFxCodegen does not convert, with how many were written.
  std::map<std::string, size_t> addedKinds;
  /// The launched kernels' names by `kernel_idx`, and the number of launches (each launch has
  /// its own `constant_args_idx`, 0 .. launches - 1).
  std::vector<std::string> kernelNames;
  int64_t launches = 0;
};

/// Converts a graph read from Inductor's Python wrapper code (it has the kernels attached).
Expected<InductorFxIr> buildInductorFxIr(const Graph &wrapper);

/// The FX IR as FX text (`code`: false) or as the `forward` code (`gm.code`); `added` gets the
/// describeAddedKinds line.
Expected<std::string> writeInductorFxIr(const Graph &wrapper, bool code, std::string &added);

/// "assert_size_stride x11, ATen fallback x1" (empty when nothing was added).
std::string describeAddedKinds(const std::map<std::string, size_t> &kinds);

} // namespace fxkit
