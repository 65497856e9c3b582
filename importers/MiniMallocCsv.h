#pragma once
/// \file Reader for MiniMalloc's problem files: CSV with a header naming the columns `id`,
/// `lower`, `upper` and `size` (in any order), then one buffer per line:
///
///     id,lower,upper,size
///     0,0,3,4
///
/// A buffer is live over [lower, upper) and needs `size` bytes (google/minimalloc's format).
/// Ids are names: MiniMalloc's own example uses `b1`, `b2`, ...

#include "ir/BufferLifetime.h"
#include "ir/Error.h"

#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

/// The buffers of a problem file, in file order.
struct MiniMallocProblem {
  /// BufferLifetime::id is the row's position among the data rows (0-based).
  std::vector<BufferLifetime> buffers;
  /// The id column's text per buffer, to write back unchanged.
  std::vector<std::string> names;
};

/// Parses MiniMalloc CSV text. Fields may be padded with spaces; CRLF line ends and blank
/// lines are accepted. Errors carry fileName:line:col and the offending line: a missing or
/// unknown column (including `offset`: that is a plan, not a problem), a missing or extra
/// field, an empty or duplicate id, a lower/upper/size that is not a decimal integer or is out
/// of range, a negative size, or upper <= lower.
Expected<MiniMallocProblem> parseMiniMallocCsv(std::string_view text,
                                               const std::string &fileName = "<input>");

/// Reads a file ("-" is stdin) and parses it; errors name the path.
Expected<MiniMallocProblem> readMiniMallocCsvFile(const std::string &path);

} // namespace fxkit
