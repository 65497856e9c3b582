#pragma once
/// \file The command line of an exported C++ wrapper's driver:
///   DRIVER INPUTS.safetensors [-o OUTPUTS.safetensors] [--check EXPECTED.safetensors]
///          [--rtol R] [--atol A] [--device cpu|gpu|N] [--cache-dir D] [--no-tune] [--repeat N]
///          [--stats]
/// Inputs and outputs follow the corpus convention (`arg_<i>`, `out_<i>`); `--check` compares
/// with fxkit's tolerances. Exit codes as fxkit's: 0 success, 1 a check failed, 2 bad usage or
/// input.

#include "backends/opencl/rt/WrapperRuntime.h"

#include <functional>
#include <memory>

namespace fxkit::rt {

/// Runs the driver for the model `load` makes on the opened runtime.
int driverMain(int argc, char **argv, const std::function<std::unique_ptr<Model>(Runtime &)> &load);

} // namespace fxkit::rt
