#pragma once
/// \file Writer for MiniMalloc's solution files: the problem's columns plus each buffer's
/// offset, `id,lower,upper,size,offset`, one buffer per line in input order.

#include "ir/BufferLifetime.h"

#include <cstdint>
#include <span>
#include <string>

namespace fxkit {

/// Prints the header and one line per buffer. `offsets` has one entry per buffer; `names`
/// (the id column's text, as importers/MiniMallocCsv.h reads it) has one per buffer, or is
/// empty to print BufferLifetime::id.
std::string printMiniMallocCsv(std::span<const BufferLifetime> buffers,
                               std::span<const int64_t> offsets,
                               std::span<const std::string> names = {});

} // namespace fxkit
