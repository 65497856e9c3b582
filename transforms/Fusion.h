#pragma once
/// \file Fusion: groups the loop ops of a LoopProgram into kernels, Inductor-style. Ops are
/// visited in program order; each is offered to the kernels that produce what it reads
/// (vertical) or read what it reads (horizontal), and joins the legal candidate that saves the
/// most memory traffic. Every question asked is recorded with its answer and reason.
///
/// Legality: same iteration space (a pointwise op over a reduction's rows or over its rows and
/// reduced points; reductions over the same rows), no cycle through another kernel, no extern
/// op, a size limit, and every value produced inside the kernel read at the point where it is
/// written (so a kernel never needs another row's results).

#include "ir/Error.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"

#include <csignal>

namespace fxkit {

struct FusionOptions {
  bool enable = true; ///< false: one kernel per loop op (the unfused baseline)
  size_t maxOpsPerKernel = 64;
  size_t maxCandidates = 8; ///< most recent kernels considered for horizontal fusion
  /// Producer kernels considered for vertical fusion of one op, the first in the order it reads
  /// them: an op reading thousands of computed buffers (a cat of thousands of inputs) is not
  /// tried against every one (each try reads all of its inputs).
  size_t maxProducerCandidates = 64;
  /// The pipeline's interrupt flag (PassOptions::setInterrupt, the REPL's Ctrl-C): checked
  /// before each op (fusing 200,000 ops takes half a minute); non-zero stops with an error.
  const volatile std::sig_atomic_t *interrupt = nullptr;
};

/// Groups `program`'s ops into kernels in a valid execution order.
Expected<loop::FusedProgram> fuseLoopProgram(const loop::LoopProgram &program,
                                             const FusionOptions &options = {});

} // namespace fxkit
