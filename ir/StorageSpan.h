#pragma once
/// \file How far a tensor of concrete sizes and strides reaches into its storage, computed with
/// checked arithmetic. The one place sizes are multiplied into element and byte counts: shape
/// inference (`checkTensorExtent`), executors binding size symbols at run time
/// (`loop::checkBoundBufferSizes`) and the interpreters' allocation all ask it, so a size that
/// would wrap an int64 (an expand to 2^62 + 1 rows, an unbacked u of 2^40) is refused the same
/// way everywhere instead of wrapping silently (signed overflow is undefined behaviour).

#include "ir/Error.h"

#include <cstddef>
#include <cstdint>
#include <span>

namespace fxkit {

/// What a tensor occupies. Zero elements (a size of 0) span nothing.
struct StorageSpan {
  int64_t elements = 0;       ///< product of the sizes
  int64_t extentElements = 0; ///< elements of storage from the first to the last one reached
  int64_t bytes = 0;          ///< bytes of that extent
};

/// The span of a tensor with these sizes and strides (an absent stride counts as 0, a negative
/// one by its magnitude) and elements of `itemSize` bytes; an error when any of the three counts,
/// or the element count in bytes, exceeds 2^63 - 1. The error names no tensor: callers say which.
inline Expected<StorageSpan> storageSpan(std::span<const int64_t> sizes,
                                         std::span<const int64_t> strides, size_t itemSize) {
  StorageSpan span;
  span.elements = 1;
  int64_t extent = 0;
  bool overflow = false, empty = false;
  for (size_t d = 0; d < sizes.size(); ++d) {
    int64_t size = sizes[d];
    empty = empty || size == 0;
    overflow = overflow || __builtin_mul_overflow(span.elements, size, &span.elements);
    int64_t stride = d < strides.size() ? strides[d] : 0;
    int64_t reach = 0;
    if (size > 0)
      overflow = overflow ||
                 __builtin_mul_overflow(size - 1, stride < 0 ? -stride : stride, &reach) ||
                 __builtin_add_overflow(extent, reach, &extent);
  }
  int64_t item = static_cast<int64_t>(itemSize), countBytes;
  overflow = overflow || __builtin_add_overflow(extent, 1, &extent) ||
             __builtin_mul_overflow(extent, item, &span.bytes) ||
             __builtin_mul_overflow(span.elements, item, &countBytes);
  if (empty)
    return StorageSpan{0, 0, 0};
  if (overflow)
    return Error("holds more elements, or spans more bytes of storage, than a 64-bit count "
                 "(2^63 - 1) holds");
  span.extentElements = extent;
  return span;
}

} // namespace fxkit
