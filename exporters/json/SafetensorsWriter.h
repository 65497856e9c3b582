#pragma once
/// \file Writing `.safetensors` files in the layout of the reference implementation: compact
/// JSON header with `__metadata__` first (always, even when empty, as in the corpus files), tensors
/// in the given order with their data contiguous and back to back, header padded with spaces to a
/// multiple of 8 bytes.

#include "ir/Error.h"
#include "support/Safetensors.h"

#include <string>

namespace fxkit {

/// The bytes of the file. Errors on an empty or duplicate tensor name, the reserved name
/// `__metadata__`, or a dtype safetensors cannot store.
Expected<std::string> serializeSafetensors(const SafetensorsFile &file);
/// Serializes and writes atomically (see writeFileAtomic): on error no file is left behind.
Status writeSafetensors(const std::string &path, const SafetensorsFile &file);

} // namespace fxkit
