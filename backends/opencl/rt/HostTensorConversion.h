#pragma once
/// \file Between the wrapper runtime's HostTensor and fxkit's Tensor (both copy the bytes).

#include "backends/interp/RuntimeValue.h"
#include "backends/opencl/rt/WrapperRuntime.h"
#include "ir/Error.h"
#include "ir/Tensor.h"

namespace fxkit::rt {

/// The tensor a HostTensor views; errors for an unknown dtype or a view beyond its storage.
Expected<Tensor> toTensor(const HostTensor &host);
/// The HostTensor of a tensor (its whole storage, the same view).
HostTensor toHostTensor(const Tensor &tensor);

/// A wrapper's output as fxkit's value (a tensor, an integer or None).
Expected<RuntimeValue> toRuntimeValue(const Value &value);
/// A graph input as a wrapper's value (tensors and integers; anything else is None).
Value toValue(const RuntimeValue &value);

} // namespace fxkit::rt
