#include "backends/interp/CreationKernels.h"

namespace fxkit {

// Kernels arrive in the next commit.
void registerCreationKernels() {}

} // namespace fxkit
