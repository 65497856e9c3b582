#pragma once
/// \file Static memory planning: give every buffer an offset in one arena (pool) so that no two
/// buffers that are live at the same time overlap, minimising the pool or fitting a capacity.
///
/// This is the problem MiniMalloc solves (google/minimalloc; Moffitt, "MiniMalloc: A
/// Lightweight Memory Allocator for Hardware-Accelerated Machine Learning", ASPLOS 2023). The
/// planner first tries fast greedy packings, then a branch-and-bound search over canonical
/// (bottom-up) solutions with MiniMalloc's pruning rules; see ArenaPlanner.cpp.

#include "ir/Error.h"
#include "ir/BufferLifetime.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace fxkit {

/// How hard planArena tries, and what it must fit into.
struct ArenaPlanOptions {
  /// The pool size a plan must fit into (offset + size <= capacity for every buffer). Unset:
  /// minimise the pool size instead.
  std::optional<int64_t> capacity;
  /// Wall-clock budget of the search; the best plan found by then is returned. Zero: greedy
  /// packing only.
  double timeLimitSeconds = 1.0;
  /// Budget of search nodes (placements tried); zero means no limit. Unlike the time limit it
  /// makes results reproducible on any machine, which tests rely on.
  uint64_t maxSearchNodes = 0;
  /// Every offset is a multiple of this (>= 1). The search treats each buffer as occupying its
  /// size rounded up to the alignment, so with alignment > 1 a plan may use up to
  /// alignment - 1 more bytes than strictly needed.
  int64_t alignment = 1;
};

/// The result of planArena.
struct ArenaPlan {
  std::vector<int64_t> offsets; ///< per input buffer, in input order
  int64_t poolSize = 0;         ///< max(offset + size) over all buffers; 0 when there are none
  bool fits = true;             ///< poolSize <= capacity (always true without a capacity)
  /// Without a capacity: no smaller pool exists. With one: the plan fits, or no plan fits.
  bool provedOptimal = false;
  int64_t lowerBound = 0;    ///< liveBytesLowerBound of the input
  uint64_t searchNodes = 0;  ///< placements the search tried (0 when greedy packing sufficed)
  double elapsedSeconds = 0; ///< wall-clock time of planArena
};

/// The largest total size of buffers live at one instant: no plan's pool can be smaller.
int64_t liveBytesLowerBound(std::span<const BufferLifetime> buffers);

/// Plans offsets for `buffers`. Buffers that are connected in time (a chain of overlapping
/// lifetimes) form a partition; partitions of more than 2048 buffers are packed greedily only.
/// Errors (without a location: the caller knows where the buffers came from): upper <= lower,
/// a negative size, (aligned) sizes adding up to more than INT64_MAX / 4, a negative capacity,
/// an alignment outside [1, INT64_MAX / 4], a negative time limit. Not fitting a capacity is
/// not an error: the plan says `fits = false` and holds the smallest pool found.
Expected<ArenaPlan> planArena(std::span<const BufferLifetime> buffers,
                              const ArenaPlanOptions &options = {});

/// Checks a plan independently of the solver, by a sweep over time (O(n log n)): one offset
/// per buffer, offsets non-negative multiples of `alignment`, no two simultaneously live
/// buffers overlapping, poolSize equal to max(offset + size), and, given a capacity, every
/// buffer within it. The error names the buffers by id.
Status validateArenaPlan(std::span<const BufferLifetime> buffers, const ArenaPlan &plan,
                         std::optional<int64_t> capacity, int64_t alignment = 1);

} // namespace fxkit
