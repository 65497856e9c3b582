#pragma once
/// \file The data of a `.safetensors` file (its tensors and `__metadata__`) and the format's
/// dtype codes: shared by the reader (importers/json/Safetensors.h) and the writer
/// (exporters/json/SafetensorsWriter.h), which must agree on them.

#include "ir/DType.h"
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

} // namespace fxkit
