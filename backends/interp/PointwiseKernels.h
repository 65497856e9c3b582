#pragma once
/// \file Reference kernels of the elementwise ops with broadcasting and type promotion (arithmetic,
/// comparisons, where, unary math, gelu, convert_element_type).

namespace fxkit {

/// Fills the kernel slot of each of these ops in the op table.
void registerPointwiseKernels();

} // namespace fxkit
