#pragma once
/// \file Fusion: groups the loop ops of a LoopProgram into kernels, Inductor-style. Ops are
/// visited in program order; each is offered to the kernels that produce what it reads
/// (vertical) or read what it reads (horizontal), and joins the legal candidate that saves the
/// most memory traffic. Every question asked is recorded with its answer and reason.
///
/// Legality: same iteration space (a pointwise op over a reduction's rows or over its rows and
/// reduced points; reductions over the same rows), no cycle through another kernel, no extern
/// op, a size limit, every value produced inside the kernel read at the point where it is
/// written (so a kernel never needs another row's results), and a bound on recomputation: a
/// kernel with reductions runs its ops in passes over the reduced points (a pass ends where an op
/// needs one of its reductions), and a pass that reads a value an earlier pass made, which never
/// leaves the kernel, makes it again (with everything it is made from): a chain of reductions in
/// one kernel would recompute the whole chain in each pass (code quadratic in the chain).

#include "ir/Error.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"

#include <csignal>

namespace fxkit {

struct FusionOptions {
  bool enable = true; ///< false: one kernel per loop op (the unfused baseline)
  size_t maxOpsPerKernel = 64;
  /// Most scalar instructions one pass over the reduced points of a kernel may recompute: those
  /// of the values earlier passes made that it reads and that never leave the kernel, with
  /// everything they are made from (pass option `max-recompute`). An op whose pass would exceed
  /// it starts another kernel, and the values it reads are stored and loaded instead (as
  /// Inductor realizes a buffer whose inner function exceeds `realize_opcount_threshold`).
  size_t maxRecompute = 32;
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
