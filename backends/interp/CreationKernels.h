#pragma once
/// \file Reference kernels of the ops that make a tensor from scalars (full, scalar_tensor,
/// prims.iota).

namespace fxkit {

/// Fills the kernel slot of each of these ops in the op table.
void registerCreationKernels();

} // namespace fxkit
