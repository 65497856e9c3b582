#include "ir/Error.h"

namespace fxkit {

std::string Error::str() const {
  std::string out;
  if (!loc.file.empty() || loc.line > 0) {
    out += loc.file.empty() ? "<input>" : loc.file;
    if (loc.line > 0)
      out += ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
    out += ": ";
  }
  out += "error: " + message;
  if (!snippet.empty()) {
    out += "\n  " + snippet;
    if (loc.col > 0 && snippet.size() < 400) {
      out += "\n  ";
      out.append(static_cast<size_t>(loc.col - 1), ' ');
      out += "^";
    }
  }
  return out;
}

} // namespace fxkit
