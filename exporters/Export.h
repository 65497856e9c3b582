#pragma once
/// \file One entry point for writing a graph in any supported format, and safe file output.

#include "ir/Error.h"
#include "ir/Graph.h"
#include "support/GraphFormat.h"

#include <string>
#include <string_view>

namespace fxkit {

/// Whether this build writes (and reads) the JSON formats (needs nlohmann-json) and PT2 archives
/// (also zlib): a caller guards what only such a build has with `if constexpr`, so that it
/// needs no preprocessor conditional of its own (repl/OutputFormats.cpp).
#ifdef FXKIT_HAVE_JSON
inline constexpr bool kHaveJsonFormats = true;
#else
inline constexpr bool kHaveJsonFormats = false;
#endif
#ifdef FXKIT_HAVE_PT2
inline constexpr bool kHavePt2Archives = true;
#else
inline constexpr bool kHavePt2Archives = false;
#endif

/// Graph formats that are also inputs (fx, fxpy, json, pt2); every output format, pictures and
/// compiled programs included, is in repl/OutputFormats.h. `outputPath` (optional) is where the
/// result goes: a PT2 archive names its top-level folder after it, as PyTorch does.
Expected<std::string> exportGraph(const Graph &graph, GraphFormat format,
                                  std::string_view outputPath = {});

/// Writes content to path atomically: a temporary file in the same folder, then rename, so a
/// failure never leaves a partial file. "-" writes to stdout; a symbolic link is followed (the
/// link stays); a device or named pipe (/dev/null) is written in place, never replaced.
Status writeFileAtomic(const std::string &path, std::string_view content);

} // namespace fxkit
