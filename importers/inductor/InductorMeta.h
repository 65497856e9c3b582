#pragma once
/// \file What the corpus stores beside an Inductor wrapper (`meta.json` in its folder), read in
/// every build: without nlohmann-json there is nothing to read and every value is absent.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fxkit {

/// `compiled_peak_bytes` of the meta.json beside `wrapperPath` (the peak memory PyTorch
/// measured), when there is one. A broken or hostile meta.json only loses the value (it is
/// depth-checked like every JSON input).
std::optional<int64_t> inductorCompiledPeakBytes(const std::string &wrapperPath);

/// The numbers and strings at the top level of the meta.json at `metaPath`, in the file's
/// order, as text (`compile_s` -> `14.72`), for `fxkit report DIR`'s index; empty when there is
/// no file, it is not a JSON object or this build has no JSON reader.
std::vector<std::pair<std::string, std::string>> inductorMetaFields(const std::string &metaPath);

} // namespace fxkit
