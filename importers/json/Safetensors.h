#pragma once
/// \file Reading `.safetensors` files: an 8-byte little-endian header length, a JSON header
/// mapping tensor names to {dtype, shape, data_offsets} (plus an optional `__metadata__` map of
/// strings), then the tensor bytes. The corpus stores graph inputs as `arg_<i>` and outputs as
/// `out_<i>`, with integer inputs (symbolic sizes) as strings in `__metadata__`.

#include "ir/Error.h"
#include "ir/Tensor.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fxkit {

/// The contents of a safetensors file.
struct SafetensorsFile {
  /// In header order (for files written by fxkit or the corpus, also the order of the data).
  std::vector<std::pair<std::string, Tensor>> tensors;
  /// `__metadata__`, sorted by key.
  std::map<std::string, std::string> metadata;

  /// The tensor named name, or nullptr.
  const Tensor *find(std::string_view name) const;
};

/// The safetensors dtype code ("F32", "BF16", "BOOL", ...), or nullopt where the format has
/// none (complex128).
std::optional<std::string_view> safetensorsDTypeCode(DType dtype);
/// The dtype of a safetensors code; nullopt for codes fxkit has no dtype for (U16, U32, ...).
std::optional<DType> parseSafetensorsDType(std::string_view code);

/// Parses the bytes of a safetensors file; fileName only names it in errors. Validates the
/// header length, the JSON, every entry's dtype, shape and data_offsets (in range, matching
/// shape * itemsize, neither overlapping nor leaving gaps, covering the data exactly).
Expected<SafetensorsFile> parseSafetensors(std::string_view bytes, std::string_view fileName);
/// Reads and parses the file at path.
Expected<SafetensorsFile> readSafetensors(const std::string &path);

} // namespace fxkit
