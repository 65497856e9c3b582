#include "support/GraphFormat.h"

#include <iterator>
#include <utility>

namespace fxkit {

namespace {

/// Every input format with its name, in the order messages list them.
constexpr std::pair<GraphFormat, std::string_view> kInputFormats[] = {
    {GraphFormat::FxText, "fx"},
    {GraphFormat::FxPy, "fxpy"},
    {GraphFormat::Json, "json"},
    {GraphFormat::Pt2, "pt2"},
    {GraphFormat::InductorPy, "inductor-py"},
    {GraphFormat::InductorCpp, "inductor-cpp"},
    {GraphFormat::InductorIr, "inductor-ir"},
};

} // namespace

std::string_view graphFormatName(GraphFormat format) {
  for (const auto &[f, name] : kInputFormats)
    if (f == format)
      return name;
  return "?";
}

std::optional<GraphFormat> parseGraphFormat(std::string_view name) {
  if (name == "txt")
    return GraphFormat::FxText;
  if (name == "py")
    return GraphFormat::FxPy;
  for (const auto &[f, n] : kInputFormats)
    if (n == name)
      return f;
  return std::nullopt;
}

std::string inputFormatList() {
  std::string list;
  for (size_t i = 0; i < std::size(kInputFormats); ++i)
    list += std::string(i == 0                              ? ""
                        : i + 1 == std::size(kInputFormats) ? " or "
                                                            : ", ") +
            std::string(kInputFormats[i].second);
  return list;
}

} // namespace fxkit
