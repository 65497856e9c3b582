#include "importers/inductor/InductorMeta.h"

#ifdef FXKIT_HAVE_JSON
#include "importers/json/JsonSupport.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#endif

namespace fxkit {

std::optional<int64_t> inductorCompiledPeakBytes(const std::string &wrapperPath) {
#ifdef FXKIT_HAVE_JSON
  std::filesystem::path meta = std::filesystem::path(wrapperPath).parent_path() / "meta.json";
  std::ifstream in(meta, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  auto parsed = json::parseJson(text.str(), meta.string());
  if (!parsed)
    return std::nullopt;
  const json::Json &j = *parsed;
  if (j.is_object() && j.contains("compiled_peak_bytes") &&
      j["compiled_peak_bytes"].is_number_integer())
    return j["compiled_peak_bytes"].get<int64_t>();
#else
  (void)wrapperPath;
#endif
  return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> inductorMetaFields(const std::string &metaPath) {
  std::vector<std::pair<std::string, std::string>> fields;
#ifdef FXKIT_HAVE_JSON
  std::ifstream in(metaPath, std::ios::binary);
  if (!in)
    return fields;
  std::ostringstream text;
  text << in.rdbuf();
  auto parsed = json::parseJson(text.str(), metaPath);
  if (!parsed || !parsed->is_object())
    return fields;
  for (auto it = parsed->begin(); it != parsed->end(); ++it) {
    if (it->is_string())
      fields.emplace_back(it.key(), it->get<std::string>());
    else if (it->is_number() || it->is_boolean())
      fields.emplace_back(it.key(), it->dump());
  }
#else
  (void)metaPath;
#endif
  return fields;
}

} // namespace fxkit
