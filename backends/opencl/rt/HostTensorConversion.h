#pragma once
/// \file Between the wrapper runtime's HostTensor and fxkit's Tensor (both copy the bytes).

#include "backends/opencl/rt/WrapperRuntime.h"
#include "ir/Error.h"
#include "ir/Tensor.h"

namespace fxkit::rt {

/// The tensor a HostTensor views; errors for an unknown dtype or a view beyond its storage.
Expected<Tensor> toTensor(const HostTensor &host);
/// The HostTensor of a tensor (its whole storage, the same view).
HostTensor toHostTensor(const Tensor &tensor);

} // namespace fxkit::rt
