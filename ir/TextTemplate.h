#pragma once
/// \file Text with `{{key}}` holes: code that is printed several times with other names or
/// types (the OpenCL special functions and prelude helpers per floating type, the Python
/// helpers of a wrapper module) is written once as a template.

#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace fxkit {

/// `text` with every `{{key}}` replaced by the value `keys` gives it (by nothing when it gives
/// none).
inline std::string substituteKeys(std::string_view text,
                                  std::span<const std::pair<std::string_view, std::string>> keys) {
  std::string out;
  out.reserve(text.size() + text.size() / 4);
  size_t i = 0;
  while (i < text.size()) {
    size_t open = text.find("{{", i);
    if (open == std::string_view::npos) {
      out += text.substr(i);
      break;
    }
    out += text.substr(i, open - i);
    size_t close = text.find("}}", open);
    std::string_view key = text.substr(open + 2, close - open - 2);
    for (const auto &[k, v] : keys)
      if (k == key)
        out += v;
    i = close + 2;
  }
  return out;
}

} // namespace fxkit
