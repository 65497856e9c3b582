#pragma once
/// \file The body of a double-quoted string literal in DOT, C and C++: one escaping rule for the
/// pictures' labels (DotStyle.h, dotEscape) and the C++ wrapper's strings (WrapperCppWriter).

#include <string>
#include <string_view>

namespace fxkit {

/// `s` with quotes and backslashes escaped and newlines as `\n`.
inline std::string backslashEscape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

} // namespace fxkit
