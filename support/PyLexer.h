#pragma once
/// \file Lexer for the Python-like texts fxkit reads: FX graph text (`str(graph)`) and the
/// generated Python of `print_readable()`. Tokens carry 1-based line and column.

#include "ir/Error.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

struct Token {
  enum class Kind : uint8_t {
    Ident,   ///< names, keywords, `inf`, `nan`, `None`, `True`
    Int,     ///< 123
    Float,   ///< 1.5, 1e-05
    String,  ///< '...' or "..." (text holds the source spelling, quotes included)
    Punct,   ///< ( ) [ ] { } , : ; = . % & | ^ ~ @ + - * / < > ** // -> == != <= >= etc.
    Comment, ///< # ... (to the end of the line, '#' included)
    Newline, ///< end of a logical line
    End,
  };
  Kind kind;
  std::string_view text; ///< view into the lexed text
  int line;
  int col;

  bool is(std::string_view punct) const { return kind == Kind::Punct && text == punct; }
  bool isIdent(std::string_view name) const { return kind == Kind::Ident && text == name; }
};

/// Lexes `text` in one go. Newlines inside brackets do not end a logical line (Python's
/// implicit line joining). Errors: unterminated string, stray character, invalid UTF-8.
Expected<std::vector<Token>> lexPython(std::string_view text, const std::string &fileName);

/// Decodes a Python string literal's spelling (quotes, escapes) to its value.
Expected<std::string> decodePyString(std::string_view spelling);
/// Python's repr of a string: single quotes unless the text holds a ' and no ".
std::string pyStringRepr(std::string_view value);

/// Checks UTF-8; the error points at the first bad byte (line:col) in fileName.
Status validateUtf8(std::string_view text, const std::string &fileName);

/// Python's str.isidentifier() for ASCII names (bytes from 0x80 count as name characters, as
/// UTF-8 letters do in Python 3): what may stand bare as a name or keyword argument.
bool isPyIdentifier(std::string_view s);
/// Source line `line` (1-based) of text, without its newline, for error snippets.
std::string_view sourceLine(std::string_view text, int line);

} // namespace fxkit
