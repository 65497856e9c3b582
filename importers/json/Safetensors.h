#pragma once
/// \file Reading `.safetensors` files: an 8-byte little-endian header length, a JSON header
/// mapping tensor names to {dtype, shape, data_offsets} (plus an optional `__metadata__` map of
/// strings), then the tensor bytes. The corpus stores graph inputs as `arg_<i>` and outputs as
/// `out_<i>`, with integer inputs (symbolic sizes) as strings in `__metadata__`.

#include "ir/Error.h"
#include "support/Safetensors.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fxkit {

/// Parses the bytes of a safetensors file; fileName only names it in errors. Validates the
/// header length, the JSON, every entry's dtype, shape and data_offsets (in range, matching
/// shape * itemsize, neither overlapping nor leaving gaps, covering the data exactly).
Expected<SafetensorsFile> parseSafetensors(std::string_view bytes, std::string_view fileName);
/// Reads and parses the file at path.
Expected<SafetensorsFile> readSafetensors(const std::string &path);

} // namespace fxkit
