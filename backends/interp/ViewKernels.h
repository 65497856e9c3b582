#pragma once
/// \file Reference kernels of the view ops that alias their input's storage (view, reshape,
/// permute, expand, unsqueeze, squeeze, select, split, alias, as_strided) and the copies clone and
/// cat.

namespace fxkit {

/// Fills the kernel slot of each of these ops in the op table.
void registerViewKernels();

} // namespace fxkit
