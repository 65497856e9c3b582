#pragma once
/// \file Memory planning of a fused loop program: where every buffer the kernels write lives.
///
/// Time is the kernel schedule (kernel i runs at time i). A buffer that a kernel writes and
/// that leaves it (not Kernel::internal, not a graph input) is allocated; it lives from the
/// first kernel that writes it to the last kernel that reads or writes it, and graph outputs
/// live past the last kernel. Then, as Inductor's wrapper does:
///  - in place: a generated kernel writes an output over an input that dies in it, when every
///    load of the input reads exactly the element the output stores at that point (Inductor's
///    `in_out_ptr` / "reuse" of a dying input); the two share one storage;
///  - constant sizes: every allocation gets an offset in one pool, planned by planArena
///    (transforms/ArenaPlanner.h) over the lifetimes (an in-place chain is one lifetime);
///  - symbolic sizes: no pool; each buffer is its own allocation, and a new one takes over a
///    freed allocation of exactly the same size and dtype (Inductor's buffer reuse).
///
/// validateMemoryPlan re-derives liveness from the program and checks a plan without trusting
/// the planner.

#include "ir/Error.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"
#include "ir/loop/MemoryPlan.h"

#include <cstdint>
#include <string>

namespace fxkit {

struct MemoryPlanOptions {
  /// Write a kernel's output over an input that dies in the kernel, where that is safe.
  bool inPlace = true;
  /// Symbolic sizes: let a new buffer take a freed allocation of equal size and dtype.
  bool reuse = true;
  /// Budget of the pool planner's search (ArenaPlanOptions::timeLimitSeconds).
  double timeLimitSeconds = 1.0;
  /// Budget of search nodes; nonzero makes the plan reproducible (ArenaPlanOptions).
  uint64_t maxSearchNodes = 0;
  /// Every pool offset is a multiple of this, as a device allocator aligns its blocks.
  int64_t alignment = 64;
};

/// Plans `fused`'s buffers (kernels in execution order over `program`). Errors: a buffer read
/// before any kernel writes it, a kernel that names a buffer the program lacks, and (internal
/// errors) a plan that fails its own validation.
Expected<loop::MemoryPlan> planMemory(const loop::LoopProgram &program,
                                      const loop::FusedProgram &fused,
                                      const MemoryPlanOptions &options = {});

/// Checks `plan` against the program, independently of planMemory: inputs and internal
/// buffers are not allocated and every other written buffer is; lifetimes cover every kernel
/// that touches a buffer and outputs live to the end; no two buffers that share storage (pool
/// bytes, or one allocation through in-place and reuse links) are live at the same kernel,
/// except an in-place pair handing over in the kernel that reads the one and writes the other;
/// every pool buffer lies within the pool; freedAfter lists each released storage once.
Status validateMemoryPlan(const loop::LoopProgram &program, const loop::FusedProgram &fused,
                          const loop::MemoryPlan &plan);

/// The plan as text, for `fxkit fuse --plan`: one line per allocated buffer (name, dtype,
/// bytes, kind with its offset, in-place source or reused buffer, lifetime in kernels), then
/// the totals.
std::string describeMemoryPlan(const loop::LoopProgram &program, const loop::FusedProgram &fused,
                               const loop::MemoryPlan &plan);

} // namespace fxkit
