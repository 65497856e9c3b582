#include "backends/interp/SymbolicKernels.h"

namespace fxkit {

// Kernels arrive in the next commit.
void registerSymbolicKernels() {}

} // namespace fxkit
