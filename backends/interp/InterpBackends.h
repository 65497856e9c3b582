#pragma once
/// \file The two backends of the reference layer, built in every fxkit: `interp` (the
/// reference interpreter over the ATen graph) and `loops` (the compiled loop program,
/// interpreted kernel by kernel). Registered in backends/Backends.cpp.

#include "backends/Backend.h"

namespace fxkit {

std::unique_ptr<Backend> makeInterpBackend();
std::unique_ptr<Backend> makeLoopsBackend();

} // namespace fxkit
