#pragma once
/// \file A compiled program on an OpenCL device: the generated kernels, built lazily in the
/// background, autotuned on the first call with real sizes, cached on disk; buffers placed as
/// the memory plan says (one pool, in-place and reused storage); kernels launched in schedule
/// order; extern ops through CLBlast where it has the routine, else fxkit's device kernels
/// (DeviceExterns.h) where one takes the call, otherwise on the host with the reference kernels.
///
/// Lazy compilation follows PyTorch's C++-wrapper design: load() starts building every
/// kernel on worker threads and returns at once; the first launch of a kernel waits for its
/// build, then (for a new shape) times a bounded set of launch configurations and keeps the
/// fastest; later launches only compute the launch size and enqueue.

#include "backends/interp/Interpreter.h"
#include "backends/interp/KernelTap.h"
#include "backends/opencl/codegen/OpenCLKernelGen.h"
#include "backends/opencl/runtime/KernelCache.h"
#include "backends/opencl/runtime/LaunchConfig.h"
#include "backends/opencl/runtime/OpenCLDevice.h"
#include "backends/opencl/runtime/OpenCLOptions.h"
#include "backends/program/CallStats.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"
#include "ir/loop/MemoryPlan.h"

#include <memory>
#include <span>
#include <string>

namespace fxkit::opencl {

class OpenCLProgram {
public:
  /// Generates the kernels and starts building them; returns at once. `program`, `fused` and
  /// `plan` must outlive the returned object.
  static Expected<std::unique_ptr<OpenCLProgram>>
  load(OpenCLContext &context, const loop::LoopProgram &program, const loop::FusedProgram &fused,
       const loop::MemoryPlan &plan, const OpenCLOptions &options = {});
  ~OpenCLProgram();

  /// Runs the program on `inputs` (one per graph placeholder).
  Expected<InterpretResult> run(std::span<const RuntimeValue> inputs);
  /// The same with each kernel's written buffers handed to `tap` after it ran (KernelTap.h).
  Expected<InterpretResult> run(std::span<const RuntimeValue> inputs, const KernelTap &tap);
  /// Runs without reading the outputs back or waiting for the device: they stay there until
  /// the next run, and `fetchOutputs` reads them. The result has no outputs.
  Expected<InterpretResult> runOnDevice(std::span<const RuntimeValue> inputs);
  /// The outputs of the last runOnDevice (waits for the device).
  Expected<InterpretResult> fetchOutputs();
  /// Which inputs keep their device copy between runs (ProgramExecutor::setResidentInputs).
  Status setResidentInputs(std::vector<bool> which);
  /// Input `i` changed in place on the host: copied again on the next run.
  void inputChanged(size_t i);
  /// Whether the program writes over input `i`'s storage (copied every run even if resident).
  bool writesInput(size_t i) const;
  /// Waits for every enqueued command and reads the device times (profiled launches, calls).
  void sync();
  /// What the runs copied and allocated.
  const TransferStats &transfers() const;
  /// The device time of every run so far (queue timestamps around each; read at sync points).
  const std::vector<double> &callSeconds() const;

  const GeneratedProgram &generated() const;
  const OpenCLStats &stats() const;
  /// The launch configuration each kernel definition and shape uses, and what ran each matrix
  /// product shape the GEMM template chose for ("gemm " + its shape key: a plan or "library"), for
  /// reports and `--stats`.
  std::vector<std::pair<std::string, std::string>> chosenConfigs() const;

private:
  OpenCLProgram();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace fxkit::opencl
