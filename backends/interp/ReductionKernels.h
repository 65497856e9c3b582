#pragma once
/// \file Reference kernels of the reductions (sum, mean, amax/amin, var_mean,
/// prims.prepare_softmax_online).

namespace fxkit {

/// Fills the kernel slot of each of these ops in the op table.
void registerReductionKernels();

} // namespace fxkit
