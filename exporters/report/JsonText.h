#pragma once
/// \file JSON string literals for the writers that build their JSON as text (the report's
/// viewer data, Model Explorer's graph JSON): they write columns of numbers where a JSON
/// library's object per value would cost memory and time at 100k nodes, and they build
/// without nlohmann-json. `<` is written as \u003c so the text can sit inside an HTML
/// <script> element.

#include <string>
#include <string_view>

namespace fxkit {

/// Appends `s` as a JSON string literal (with its quotes).
inline void appendJsonString(std::string &out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (u < 0x20 || c == '<') {
      out += "\\u00";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  out += '"';
}

inline std::string jsonString(std::string_view s) {
  std::string out;
  appendJsonString(out, s);
  return out;
}

} // namespace fxkit
