#include "ir/FaultInjection.h"

#include <cstdlib>
#include <string>

namespace fxkit {

bool faultInjected(std::string_view fault) {
  static const std::string faults = [] {
    const char *v = std::getenv("FXKIT_FAULT");
    return "," + std::string(v ? v : "") + ",";
  }();
  return faults.find("," + std::string(fault) + ",") != std::string::npos;
}

} // namespace fxkit
