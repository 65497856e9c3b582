#include "backends/interp/ViewKernels.h"

namespace fxkit {

// Kernels arrive in the next commit.
void registerViewKernels() {}

} // namespace fxkit
