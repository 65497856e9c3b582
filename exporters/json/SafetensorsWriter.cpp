#include "exporters/json/SafetensorsWriter.h"

#include "exporters/Export.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <set>

namespace fxkit {

namespace {

/// A JSON string literal; nullopt for text that is not valid UTF-8 (JSON cannot hold it).
std::optional<std::string> quote(const std::string &text) {
  try {
    return nlohmann::json(text).dump();
  } catch (const nlohmann::json::exception &) {
    return std::nullopt;
  }
}

} // namespace

Expected<std::string> serializeSafetensors(const SafetensorsFile &file) {
  // The header is assembled by hand rather than through a json object so that the key order
  // is exactly ours (nlohmann's default object sorts keys, which would put "arg_10" before
  // "arg_2"); nlohmann only escapes the strings.
  std::string header = "{\"__metadata__\":{";
  bool first = true;
  for (const auto &[key, value] : file.metadata) {
    std::optional<std::string> k = quote(key), v = quote(value);
    if (!k || !v)
      return Error("safetensors: __metadata__ entry '" + key + "' is not valid UTF-8");
    if (!first)
      header += ',';
    first = false;
    header += *k + ':' + *v;
  }
  header += '}';

  std::set<std::string_view> seen;
  std::vector<Tensor> contiguous;
  uint64_t offset = 0;
  for (const auto &[name, tensor] : file.tensors) {
    if (name.empty() || name == "__metadata__")
      return Error("safetensors: invalid tensor name '" + name + "'");
    if (!seen.insert(name).second)
      return Error("safetensors: duplicate tensor name '" + name + "'");
    std::optional<std::string_view> code = safetensorsDTypeCode(tensor.dtype());
    if (!code)
      return Error("safetensors: tensor '" + name + "' has dtype " +
                   std::string(dtypeName(tensor.dtype())) + ", which safetensors cannot store");
    std::optional<std::string> quotedName = quote(name);
    if (!quotedName)
      return Error("safetensors: tensor name '" + name + "' is not valid UTF-8");
    contiguous.push_back(tensor.isContiguous() ? tensor : tensor.contiguous());
    uint64_t size = contiguous.back().bytes().size();
    header += ',' + *quotedName + ":{\"dtype\":\"" + std::string(*code) + "\",\"shape\":[";
    for (size_t i = 0; i < tensor.sizes().size(); ++i)
      header += (i ? "," : "") + std::to_string(tensor.sizes()[i]);
    header += "],\"data_offsets\":[" + std::to_string(offset) + ',' +
              std::to_string(offset + size) + "]}";
    offset += size;
  }
  header += '}';
  // Pad with spaces to a multiple of 8, as the reference does, so that the data starts aligned.
  header.append((8 - header.size() % 8) % 8, ' ');

  std::string out;
  out.reserve(8 + header.size() + offset);
  uint64_t len = header.size();
  for (int i = 0; i < 8; ++i)
    out += static_cast<char>((len >> (8 * i)) & 0xff);
  out += header;
  for (const Tensor &t : contiguous) {
    auto bytes = t.bytes();
    out.append(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  }
  return out;
}

Status writeSafetensors(const std::string &path, const SafetensorsFile &file) {
  Expected<std::string> bytes = serializeSafetensors(file);
  if (!bytes)
    return Error(path + ": " + bytes.error().message);
  return writeFileAtomic(path, *bytes);
}

} // namespace fxkit
