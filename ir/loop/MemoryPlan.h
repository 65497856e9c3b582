#pragma once
/// \file Where every buffer of a fused loop program lives: its lifetime over the kernel
/// schedule, whether it is written in place over a dying input of its kernel, and its offset in
/// one pool (arena) shared by all buffers the program allocates.

#include "ir/SymExpr.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fxkit::loop {

/// How one buffer is stored.
struct BufferPlacement {
  enum class Kind : uint8_t {
    Input,    ///< a graph input: not allocated by the program
    Internal, ///< never leaves its kernel (or no kernel touches it): not allocated
    Pool,     ///< at `offset` bytes in the pool
    InPlace,  ///< shares the storage of `inPlaceOf`, which dies in the kernel that writes this
    Own,      ///< its own allocation (symbolic size, so no pool offset): see reuseOf
    /// Its own allocation, sized by an unbacked symbol (LoopProgram::unbackedSymbols) that is
    /// bound only when an extern op runs: allocated at firstKernel (an extern producer: right
    /// after the call, from its result), freed after lastKernel, never shared (Inductor's
    /// wrapper allocates such a buffer where its symbol is defined).
    Unbacked,
  };
  Kind kind = Kind::Input;
  int64_t offset = 0;       ///< Pool: byte offset in the pool
  int32_t inPlaceOf = -1;   ///< InPlace: the buffer whose storage it takes over
  int32_t reuseOf = -1;     ///< Own: a freed buffer of equal size whose allocation it takes
  int32_t firstKernel = -1; ///< kernel (schedule position) that first writes it
  int32_t lastKernel = -1;  ///< last kernel that reads or writes it; outputs: kernels.size()
  SymExpr bytes;            ///< storage bytes
};

struct MemoryPlan {
  std::vector<BufferPlacement> buffers; ///< indexed like LoopProgram::buffers
  /// Bytes of the pool when every allocated size is constant. Symbolic plans: the peak of the
  /// Own allocations at the size hint, an allocation held from its first buffer's first kernel
  /// to its last buffer's last one (also while it waits to be reused), as the wrapper holds it.
  int64_t poolBytes = 0;
  /// The largest total of bytes simultaneously live (allocated buffers only, an in-place chain
  /// counted once): no plan does better. Symbolic plans: at the size hint.
  int64_t lowerBound = 0;
  /// Bytes the program allocates without reuse (the sum over allocated buffers; symbolic
  /// plans: at the size hint).
  int64_t unplannedBytes = 0;
  bool symbolic = false; ///< some size is symbolic: Own allocations with exact-size reuse
  /// Per kernel (schedule position): the buffers whose last use it is and whose storage is
  /// released after it runs. Outputs are never listed, nor a buffer whose storage passes on to
  /// an in-place result (its storage lives on under the new name).
  std::vector<std::vector<int32_t>> freedAfter;
};

} // namespace fxkit::loop
