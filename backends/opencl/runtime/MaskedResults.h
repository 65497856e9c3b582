#pragma once
/// \file The results of a backward op whose output_mask picks which it computes (batch norm's
/// and convolution's backward, DeviceBatchNorm.cpp and DeviceConvolution.cpp): the asked-for
/// ones as operands, the others None (no buffer).

#include "backends/opencl/runtime/DeviceExternSupport.h"

#include <array>
#include <optional>

namespace fxkit::opencl::device_externs {

using MaskedResults = std::array<std::optional<Operand>, 3>;

/// The call's three results: an operand for each that output_mask asks for, nullopt for the
/// others. nullopt overall when an asked-for result is not a buffer.
inline std::optional<MaskedResults> maskedResults(const Call &call) {
  MaskedResults results;
  for (size_t i = 0; i < results.size(); ++i) {
    if (call.resultIsNone(i))
      continue;
    results[i] = call.output(i);
    if (!results[i])
      return std::nullopt;
  }
  return results;
}

} // namespace fxkit::opencl::device_externs
