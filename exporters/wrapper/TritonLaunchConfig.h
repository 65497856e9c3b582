#pragma once
/// \file The launch configuration Inductor's Triton runtime gives a kernel of the Python wrapper
/// code before any benchmarking: the first config its heuristic lists
/// (`torch/_inductor/runtime/triton_heuristics.py` of PyTorch 2.11: `pointwise`,
/// `reduction`, `persistent_reduction` on CUDA), which is the one PyTorch's `WrapperFxCodegen`
/// writes into `triton_kernel_wrapper_mutation` (its block sizes and grid). Inputs are the
/// decorator's `size_hints`, hints and `inductor_meta` (importers/inductor/InductorKernel.h).
/// Cases the emulation does not cover (tiled reductions with a `y` size hint, combo kernels,
/// RSPLIT, native matmul, max-autotune) are errors that say so, never a guess.

#include "importers/inductor/InductorKernel.h"
#include "ir/Error.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fxkit {

struct TritonLaunchConfig {
  /// Block sizes in the order Triton's config lists them: XBLOCK, YBLOCK, ZBLOCK, R0_BLOCK...
  /// (persistent reductions have no R*_BLOCK: the kernel computes it).
  std::vector<std::pair<std::string, int64_t>> blocks;
  /// `inductor_meta['grid_type']`: Grid1D, Grid2D, Grid3D.
  std::string gridType = "Grid1D";

  /// The block size of `name` (XBLOCK, ...), 0 when absent.
  int64_t block(std::string_view name) const;
};

/// The first heuristic config of a Triton kernel (see the file comment).
Expected<TritonLaunchConfig> firstTritonConfig(const inductor::InductorKernel &kernel);

} // namespace fxkit
