#pragma once
/// \file What the corpus stores beside an Inductor wrapper (`meta.json` in its folder), read in
/// every build: without nlohmann-json there is nothing to read and every value is absent.

#include <cstdint>
#include <optional>
#include <string>

namespace fxkit {

/// `compiled_peak_bytes` of the meta.json beside `wrapperPath` (the peak memory PyTorch
/// measured), when there is one. A broken or hostile meta.json only loses the value (it is
/// depth-checked like every JSON input).
std::optional<int64_t> inductorCompiledPeakBytes(const std::string &wrapperPath);

} // namespace fxkit
