#pragma once
/// \file Runs a fused loop program the way its kernels will run: kernel by kernel in schedule
/// order; each generated kernel row by row (every op's part of a row, in order: reductions over
/// the row's reduced points, then the ops that use them), each extern op with the reference
/// interpreter's kernel. It checks the program, not just its arithmetic: a read of a value
/// that stays inside a kernel must find it written earlier in the same row, or the run fails
/// (so an illegal fusion cannot pass), and the outputs are compared with the reference
/// interpreter's by the callers.

#include "backends/interp/Interpreter.h"
#include "backends/interp/KernelTap.h"
#include "ir/Graph.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"

#include <csignal>
#include <span>

namespace fxkit {

/// Runs `fused` (fusion of `program`, lowered from `graph`, whose extern ops point into it) on
/// `inputs` (one per graph placeholder). Errors: inputs that do not fit the program's types, an
/// internal value read from another row, an extern kernel's failure. When `interrupt` is set
/// and becomes non-zero (a SIGINT handler), the run stops between kernels with "interrupted".
/// With a `tap`, the buffers each kernel wrote are handed to it after the kernel
/// (KernelTap.h).
Expected<InterpretResult>
interpretLoopProgram(const loop::LoopProgram &program, const loop::FusedProgram &fused,
                     std::span<const RuntimeValue> inputs,
                     const volatile std::sig_atomic_t *interrupt = nullptr,
                     const KernelTap *tap = nullptr);

} // namespace fxkit
