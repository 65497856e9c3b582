#pragma once
/// \file `fxkit run G --backend cpp-wrapper --wrapper DIR`: the wrapper `fxkit compile G -o DIR
/// --build` compiled (rebuilt first if its sources changed or its object is corrupt), linked
/// into this process by ORC, run through its generic entry point (`Model::run` on values) on
/// the wrapper runtime's OpenCL device.

#include "backends/cppwrapper/WrapperBuild.h"
#include "backends/interp/Interpreter.h"
#include "backends/opencl/rt/WrapperRuntime.h"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace fxkit::cppwrapper {

struct WrapperLoadStats {
  WrapperBuildResult build; ///< how the object came to be (built or cached, and how long)
  double loadSeconds = 0;   ///< ORC: linking the object and running its constructors
};

class WrapperProgram {
public:
  /// Builds DIR's wrapper if needed, opens the runtime's device and loads the object.
  static Expected<std::unique_ptr<WrapperProgram>> load(const std::string &dir,
                                                        const rt::RuntimeOptions &options);
  /// Deletes the model, closes the device, then unloads the code.
  ~WrapperProgram();

  /// Runs the model on `inputs` (one per graph input).
  Expected<InterpretResult> run(std::span<const RuntimeValue> inputs);
  size_t numInputs() const;
  const WrapperLoadStats &stats() const;
  /// The OpenCL device the runtime opened.
  std::string deviceName() const;
  /// The runtime's counts: kernels built, configurations tuned, launches, extern calls.
  std::string runtimeStats() const;
  /// The device time of every run, from queue timestamps around it (rt::Runtime::beginCall).
  std::vector<double> callSeconds() const;

private:
  WrapperProgram();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace fxkit::cppwrapper
