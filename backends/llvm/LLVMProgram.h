#pragma once
/// \file A compiled program on the host CPU through LLVM: the generated OpenCL C kernels
/// compiled in process by Clang (lazily, on worker threads, cached on disk), buffers placed in
/// host memory as the memory plan says (one pool, in-place and reused storage), kernels run in
/// schedule order with their work-groups on a thread pool, extern ops with the reference
/// kernels. The same generated code as `--backend opencl`, without an OpenCL driver.

#include "backends/interp/Interpreter.h"
#include "backends/interp/KernelTap.h"
#include "backends/llvm/LLVMOptions.h"
#include "backends/opencl/codegen/OpenCLKernelGen.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"
#include "ir/loop/MemoryPlan.h"

#include <memory>
#include <span>
#include <string>

namespace fxkit::llvmjit {

class LLVMProgram {
public:
  /// Generates the kernels and starts compiling them; returns at once. `program`, `fused` and
  /// `plan` must outlive the returned object.
  static Expected<std::unique_ptr<LLVMProgram>> load(const loop::LoopProgram &program,
                                                     const loop::FusedProgram &fused,
                                                     const loop::MemoryPlan &plan,
                                                     const LLVMOptions &options = {});
  ~LLVMProgram();

  /// Runs the program on `inputs` (one per graph placeholder).
  Expected<InterpretResult> run(std::span<const RuntimeValue> inputs);
  /// The same with each kernel's written buffers handed to `tap` after it ran (KernelTap.h).
  Expected<InterpretResult> run(std::span<const RuntimeValue> inputs, const KernelTap &tap);
  /// Waits until every kernel is compiled (for timing compilation apart from running).
  Status waitForCompilation();

  const opencl::GeneratedProgram &generated() const;
  const LLVMStats &stats() const;
  /// "x86_64-pc-linux-gnu znver3 LLVM 15.0.6, 16 threads".
  std::string deviceDescription() const;

private:
  LLVMProgram();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace fxkit::llvmjit
