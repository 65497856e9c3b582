#include "ir/FaultInjection.h"

#include <cstdlib>
#include <string>

namespace fxkit {

namespace {

/// FXKIT_FAULT between commas, read once.
const std::string &faults() {
  static const std::string list = [] {
    const char *v = std::getenv("FXKIT_FAULT");
    return "," + std::string(v ? v : "") + ",";
  }();
  return list;
}

} // namespace

bool faultInjected(std::string_view fault) {
  // Asked once per pass run: no string is built when no fault is set (the usual case).
  const std::string &list = faults();
  return list.size() > 2 && list.find("," + std::string(fault) + ",") != std::string::npos;
}

std::optional<std::string> faultArgument(std::string_view fault) {
  const std::string &list = faults();
  if (list.size() <= 2)
    return std::nullopt;
  size_t at = list.find("," + std::string(fault) + ":");
  if (at == std::string::npos)
    return std::nullopt;
  size_t begin = at + fault.size() + 2;
  return list.substr(begin, list.find(',', begin) - begin);
}

} // namespace fxkit
