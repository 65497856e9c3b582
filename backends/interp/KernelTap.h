#pragma once
/// \file Watching a compiled program kernel by kernel, on every backend that runs its kernels
/// one at a time (the loop interpreter, and the program executor of OpenCL and LLVM): after a
/// kernel ran, each buffer it wrote is read back to the host and handed to a tap. `fxkit
/// bisect` compares them with the reference interpreter's values of the FX nodes they hold,
/// to name the first kernel that computes a wrong value. Reading back right after the kernel
/// matters: the memory plan gives a dead buffer's storage to later ones.
///
/// Also the fault `corrupt-kernel:K` (ir/FaultInjection.h): a generated kernel made to write
/// wrong values on purpose, so that tests can check bisect finds it.

#include "ir/Error.h"
#include "ir/Tensor.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace fxkit {

/// Called after kernel `kernel` (index in FusedProgram::kernels) ran, once per buffer it
/// wrote (kernelWrittenBuffers), with the buffer's storage as the program lays it out. An
/// error stops the run.
using KernelTap = std::function<Status(size_t kernel, int32_t buffer, const Tensor &value)>;

/// The buffers kernel `k` writes that outlive it: a generated kernel's outputs (not the values
/// that stay inside it), an extern kernel's results and the inputs it writes in place.
std::vector<int32_t> kernelWrittenBuffers(const loop::LoopProgram &program, const loop::Kernel &k);

/// Whether FXKIT_FAULT=corrupt-kernel:K picks kernel `index` of `fused`: the first generated
/// kernel whose index, name, or name without its trailing "_N" is K.
bool kernelCorruptionInjected(const loop::FusedProgram &fused, size_t index);

/// Makes every element of `t` wrong: adds 1 (bools flip). For corrupt-kernel.
void corruptTensor(Tensor &t);

} // namespace fxkit
