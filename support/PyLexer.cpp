#include "support/PyLexer.h"

#include "ir/Try.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace fxkit {

std::string_view sourceLine(std::string_view text, int line) {
  size_t start = 0;
  for (int l = 1; l < line; ++l) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos)
      return {};
    start = nl + 1;
  }
  size_t end = text.find('\n', start);
  std::string_view out =
      text.substr(start, end == std::string_view::npos ? text.npos : end - start);
  if (!out.empty() && out.back() == '\r')
    out.remove_suffix(1);
  if (out.size() > 200)
    out = out.substr(0, 200);
  return out;
}

Status validateUtf8(std::string_view text, const std::string &fileName) {
  // Hot path: plain ASCII, eight bytes at a time; line and column are computed only for an
  // error.
  const size_t n = text.size();
  const auto *bytes = reinterpret_cast<const unsigned char *>(text.data());
  size_t i = 0;
  while (i < n) {
    if (i + 8 <= n) {
      uint64_t word;
      std::memcpy(&word, bytes + i, 8);
      if ((word & 0x8080808080808080ull) == 0) {
        i += 8;
        continue;
      }
    }
    unsigned char c = bytes[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool ok = len > 0 && i + len <= n;
    for (size_t k = 1; ok && k < len; ++k)
      ok = (bytes[i + k] & 0xC0) == 0x80;
    // Well-formed UTF-8 only (Unicode's table 3-7, as JSON readers and Python's decoder demand):
    // no overlong forms (C0, C1; E0 80..9F; F0 80..8F), no UTF-16 surrogates (ED A0..BF),
    // nothing beyond U+10FFFF (F4 90.., F5..F7).
    const char *why = nullptr;
    if (ok) {
      unsigned char c1 = bytes[i + 1];
      if (c < 0xC2 || (c == 0xE0 && c1 < 0xA0) || (c == 0xF0 && c1 < 0x90))
        why = " (overlong encoding)";
      else if (c == 0xED && c1 >= 0xA0)
        why = " (UTF-16 surrogate)";
      else if ((c == 0xF4 && c1 >= 0x90) || c > 0xF4)
        why = " (beyond U+10FFFF)";
      ok = why == nullptr;
    }
    if (!ok) {
      int line = 1;
      size_t lineStart = 0;
      for (size_t k = 0; k < i; ++k)
        if (bytes[k] == '\n') {
          ++line;
          lineStart = k + 1;
        }
      int col = 1;
      for (size_t k = lineStart; k < i; ++k)
        if ((bytes[k] & 0xC0) != 0x80) // count characters, not continuation bytes
          ++col;
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", c);
      return Status(Error(std::string("invalid UTF-8 byte ") + hex + (why ? why : ""),
                          SourceLoc{fileName, line, col},
                          std::string(text.substr(lineStart, i - lineStart))));
    }
    i += len;
  }
  return Status::ok();
}

namespace {

bool isIdentStart(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool isIdentChar(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

} // namespace

bool isPyIdentifier(std::string_view s) {
  if (s.empty() || !isIdentStart(static_cast<unsigned char>(s[0])))
    return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return isIdentChar(static_cast<unsigned char>(c)); });
}

Expected<std::vector<Token>> lexPython(std::string_view text, const std::string &fileName) {
  FXKIT_TRY(validateUtf8(text, fileName));
  std::vector<Token> out;
  out.reserve(text.size() / 4);
  int line = 1;
  size_t lineStart = 0;
  int depth = 0; // bracket nesting: newlines inside brackets join lines
  size_t i = 0;
  auto col = [&](size_t pos) { return static_cast<int>(pos - lineStart) + 1; };
  auto fail = [&](std::string msg, size_t pos) {
    return Error(std::move(msg), SourceLoc{fileName, line, col(pos)},
                 std::string(sourceLine(text, line)));
  };
  while (i < text.size()) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
      ++i;
      continue;
    }
    if (c == '\\' && i + 1 < text.size() && text[i + 1] == '\n') { // explicit line joining
      i += 2;
      ++line;
      lineStart = i;
      continue;
    }
    if (c == '\n') {
      if (depth == 0 && (out.empty() || out.back().kind != Token::Kind::Newline))
        out.push_back({Token::Kind::Newline, text.substr(i, 1), line, col(i)});
      ++i;
      ++line;
      lineStart = i;
      continue;
    }
    size_t start = i;
    if (c == '#') {
      while (i < text.size() && text[i] != '\n')
        ++i;
      out.push_back({Token::Kind::Comment, text.substr(start, i - start), line, col(start)});
      continue;
    }
    unsigned char uc = static_cast<unsigned char>(c);
    if (isIdentStart(uc)) {
      while (i < text.size() && isIdentChar(static_cast<unsigned char>(text[i])))
        ++i;
      // String prefixes: r'..', b'..', f'..'
      if (i < text.size() && (text[i] == '\'' || text[i] == '"') && i - start <= 2) {
        std::string_view prefix = text.substr(start, i - start);
        bool isPrefix = true;
        for (char p : prefix)
          isPrefix = isPrefix && std::string_view("rRbBuUfF").find(p) != std::string_view::npos;
        if (isPrefix)
          goto lexString;
      }
      out.push_back({Token::Kind::Ident, text.substr(start, i - start), line, col(start)});
      continue;
    }
    if (std::isdigit(uc) || (c == '.' && i + 1 < text.size() &&
                             std::isdigit(static_cast<unsigned char>(text[i + 1])))) {
      bool isFloat = false;
      if (c == '0' && i + 1 < text.size() && (text[i + 1] == 'x' || text[i + 1] == 'X')) {
        i += 2;
        while (i < text.size() && std::isxdigit(static_cast<unsigned char>(text[i])))
          ++i;
      } else {
        while (i < text.size() &&
               (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '_'))
          ++i;
        if (i < text.size() && text[i] == '.') {
          isFloat = true;
          ++i;
          while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
            ++i;
        }
        if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
          size_t save = i;
          ++i;
          if (i < text.size() && (text[i] == '+' || text[i] == '-'))
            ++i;
          if (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
            isFloat = true;
            while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
              ++i;
          } else {
            i = save;
          }
        }
      }
      if (i < text.size() && (text[i] == 'j' || text[i] == 'J')) { // imaginary literal: 2j
        isFloat = true;
        ++i;
      }
      if (i < text.size() && isIdentStart(static_cast<unsigned char>(text[i])) && text[i] != 'L')
        return fail("malformed number '" + std::string(text.substr(start, i - start + 1)) + "'",
                    start);
      out.push_back({isFloat ? Token::Kind::Float : Token::Kind::Int, text.substr(start, i - start),
                     line, col(start)});
      continue;
    }
    if (c == '\'' || c == '"') {
    lexString:
      while (text[i] != '\'' && text[i] != '"')
        ++i; // skip prefix
      char q = text[i];
      bool triple = text.substr(i, 3) == std::string(3, q);
      int startLine = line;
      int startCol = col(start);
      i += triple ? 3 : 1;
      for (;;) {
        if (i >= text.size())
          return Error(triple ? "unterminated triple-quoted string" : "unterminated string",
                       SourceLoc{fileName, startLine, startCol},
                       std::string(sourceLine(text, startLine)));
        char d = text[i];
        if (d == '\\') {
          if (i + 1 < text.size() && text[i + 1] == '\n') {
            ++line;
            lineStart = i + 2;
          }
          i += 2;
          continue;
        }
        if (d == '\n') {
          if (!triple)
            return Error("unterminated string", SourceLoc{fileName, startLine, startCol},
                         std::string(sourceLine(text, startLine)));
          ++line;
          lineStart = i + 1;
        }
        if (d == q && (!triple || text.substr(i, 3) == std::string(3, q))) {
          i += triple ? 3 : 1;
          break;
        }
        ++i;
      }
      out.push_back({Token::Kind::String, text.substr(start, i - start), startLine, startCol});
      continue;
    }
    static constexpr std::string_view kThree[] = {"**=", "//=", "...", ">>=", "<<="};
    static constexpr std::string_view kTwo[] = {
        "**", "//", "->", "==", "!=", "<=", ">=", "+=", "-=", "*=",
        "/=", "%=", "&=", "|=", "^=", "@=", "<<", ">>", ":="};
    size_t len = 0;
    for (std::string_view p : kThree)
      if (text.substr(i, 3) == p)
        len = 3;
    if (!len)
      for (std::string_view p : kTwo)
        if (text.substr(i, 2) == p)
          len = 2;
    if (!len) {
      if (std::string_view("()[]{},:;=.%&|^~@+-*/<>!").find(c) == std::string_view::npos)
        return fail(std::string("unexpected character '") + c + "'", i);
      len = 1;
      if (c == '(' || c == '[' || c == '{')
        ++depth;
      if ((c == ')' || c == ']' || c == '}') && depth > 0)
        --depth;
    }
    out.push_back({Token::Kind::Punct, text.substr(i, len), line, col(i)});
    i += len;
  }
  if (out.empty() || out.back().kind != Token::Kind::Newline)
    out.push_back({Token::Kind::Newline, {}, line, col(i)});
  out.push_back({Token::Kind::End, {}, line, col(i)});
  return out;
}

Expected<std::string> decodePyString(std::string_view s) {
  size_t q = s.find_first_of("'\"");
  if (q == std::string_view::npos)
    return Error("not a string literal");
  bool raw = s.substr(0, q).find_first_of("rR") != std::string_view::npos;
  std::string_view quote =
      s.substr(q, s.substr(q, 3) == std::string(3, s[q]) && s.size() >= q + 6 ? 3 : 1);
  std::string_view body = s.substr(q + quote.size(), s.size() - q - 2 * quote.size());
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\' || raw || i + 1 >= body.size()) {
      out.push_back(c);
      continue;
    }
    char e = body[++i];
    switch (e) {
    case 'n':
      out.push_back('\n');
      break;
    case 't':
      out.push_back('\t');
      break;
    case 'r':
      out.push_back('\r');
      break;
    case '0':
      out.push_back('\0');
      break;
    case '\\':
      out.push_back('\\');
      break;
    case '\'':
      out.push_back('\'');
      break;
    case '"':
      out.push_back('"');
      break;
    case '\n':
      break;
    case 'x':
      if (i + 2 < body.size() + 0 && std::isxdigit(static_cast<unsigned char>(body[i + 1])) &&
          std::isxdigit(static_cast<unsigned char>(body[i + 2]))) {
        out.push_back(
            static_cast<char>(std::stoi(std::string(body.substr(i + 1, 2)), nullptr, 16)));
        i += 2;
        break;
      }
      [[fallthrough]];
    default:
      out.push_back('\\');
      out.push_back(e);
    }
  }
  return out;
}

std::string pyStringRepr(std::string_view v) {
  char q = (v.find('\'') != std::string_view::npos && v.find('"') == std::string_view::npos) ? '"'
                                                                                             : '\'';
  std::string out(1, q);
  for (char c : v) {
    switch (c) {
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\r':
      out += "\\r";
      break;
    default:
      if (c == q) {
        out.push_back('\\');
        out.push_back(c);
      } else if (static_cast<unsigned char>(c) < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
        out += buf;
      } else {
        out.push_back(c);
      }
    }
  }
  out.push_back(q);
  return out;
}

} // namespace fxkit
