#pragma once
/// \file A buffer's lifetime and size: the input of the memory planner (transforms/ArenaPlanner.h),
/// kept in its own header so that the CSV reader and writer need no planner.

#include <cstdint>

namespace fxkit {

/// A buffer that is live over the half-open time interval [lower, upper) and needs `size`
/// bytes. Times are abstract (e.g. node positions in a schedule).
struct BufferLifetime {
  int64_t id = 0;    ///< caller's name for the buffer; used in messages only
  int64_t lower = 0; ///< first instant the buffer is live
  int64_t upper = 0; ///< first instant it is no longer live; upper > lower
  int64_t size = 0;  ///< bytes; zero-size buffers are allowed (they occupy nothing)

  friend bool operator==(const BufferLifetime &, const BufferLifetime &) = default;
};

} // namespace fxkit
