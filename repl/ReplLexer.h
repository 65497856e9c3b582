#pragma once
/// \file Splits REPL input into commands and words: `;` separates commands, whitespace words,
/// quotes ('...' or "...") and backslash keep spaces and `;` inside a word, `#` starts a comment.

#include "ir/Error.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

/// One command of a line: its words, the first being the command name.
using ReplWords = std::vector<std::string>;

/// Splits one input line into commands (empty commands and comments dropped). An unterminated
/// quote or a trailing backslash is an error whose column points at it.
Expected<std::vector<ReplWords>> lexReplLine(std::string_view line);

/// A left-to-right reading of Python-like text (FX arguments, inline patterns) that knows only
/// string literals and bracket nesting: what eliding long lists (`show`, `print_tabular`) and
/// splitting a pattern into statements both need, read one way.
class BracketScan {
public:
  enum class Char : uint8_t {
    Quoted, ///< inside a string literal, or the quote that opens or closes it
    Open,   ///< `(`, `[` or `{` outside a string
    Close,  ///< `)`, `]` or `}` outside a string
    Other,
  };
  /// How `c`, the next character of the text, reads.
  Char next(char c) {
    if (quote_) {
      quote_ = c == quote_ ? 0 : quote_;
      return Char::Quoted;
    }
    if (c == '"' || c == '\'') {
      quote_ = c;
      return Char::Quoted;
    }
    if (c == '(' || c == '[' || c == '{')
      return Char::Open;
    if (c == ')' || c == ']' || c == '}')
      return Char::Close;
    return Char::Other;
  }

private:
  char quote_ = 0;
};

/// Quotes a word so that lexReplLine reads it back unchanged (for completion of file names with
/// spaces); a word without special characters is returned as is.
std::string quoteReplWord(std::string_view word);

} // namespace fxkit
