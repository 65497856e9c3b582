#include "ir/Error.h"

#include "ir/PrintableText.h"

#include <algorithm>

namespace fxkit {

std::string printableText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  auto escape = [&](unsigned char c) {
    static constexpr char kHex[] = "0123456789abcdef";
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 15];
  };
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
        escape(c);
      else
        out += static_cast<char>(c);
      ++i;
      continue;
    }
    // C1 controls (U+0080..U+009F, e.g. CSI) are terminal commands too.
    if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) < 0xa0 &&
        static_cast<unsigned char>(text[i + 1]) >= 0x80) {
      escape(c);
      escape(static_cast<unsigned char>(text[i + 1]));
      i += 2;
      continue;
    }
    // A well-formed multi-byte sequence is kept; anything else is escaped byte by byte.
    size_t len = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
    bool ok = len > 0 && i + len <= text.size();
    for (size_t k = 1; ok && k < len; ++k)
      ok = (static_cast<unsigned char>(text[i + k]) & 0xc0) == 0x80;
    if (ok) {
      out.append(text.substr(i, len));
      i += len;
    } else {
      escape(c);
      ++i;
    }
  }
  return out;
}

std::string Error::str() const {
  std::string out;
  if (!loc.file.empty() || loc.line > 0) {
    out += loc.file.empty() ? "<input>" : loc.file;
    if (loc.line > 0)
      out += ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
    out += ": ";
  }
  out += "error: " + printableText(message);
  if (!snippet.empty()) {
    out += "\n  " + printableText(snippet);
    if (loc.col > 0 && snippet.size() < 400) {
      // Under the column as printed: escaped bytes before it take 4 columns each.
      size_t before = std::min(snippet.size(), static_cast<size_t>(loc.col - 1));
      out += "\n  ";
      out.append(printableText(snippet.substr(0, before)).size() + (loc.col - 1 - before), ' ');
      out += "^";
    }
  }
  return out;
}

} // namespace fxkit
