#pragma once
/// \file Splits REPL input into commands and words: `;` separates commands, whitespace words,
/// quotes ('...' or "...") and backslash keep spaces and `;` inside a word, `#` starts a comment.

#include "ir/Error.h"

#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

/// One command of a line: its words, the first being the command name.
using ReplWords = std::vector<std::string>;

/// Splits one input line into commands (empty commands and comments dropped). An unterminated
/// quote or a trailing backslash is an error whose column points at it.
Expected<std::vector<ReplWords>> lexReplLine(std::string_view line);

/// Quotes a word so that lexReplLine reads it back unchanged (for completion of file names with
/// spaces); a word without special characters is returned as is.
std::string quoteReplWord(std::string_view word);

} // namespace fxkit
