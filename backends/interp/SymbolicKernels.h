#pragma once
/// \file Reference kernels of the operator.getitem on multi-result values, operator.* arithmetic on
/// symbolic integers, and aten.sym_size.

namespace fxkit {

/// Fills the kernel slot of each of these ops in the op table.
void registerSymbolicKernels();

} // namespace fxkit
