#pragma once
/// \file Text safe to print on a terminal. Error::str() passes its message and snippet through
/// it, so an error quoting a line of a binary file (a PNG named .graph.txt, random bytes in a
/// .py) echoes no raw bytes and no terminal commands.

#include <string>
#include <string_view>

namespace fxkit {

/// `text` with control characters (except newline and tab; C1 ones such as the one-byte CSI
/// included) and bytes that are not UTF-8 written as `\xNN`; other UTF-8 kept as it is.
std::string printableText(std::string_view text);

} // namespace fxkit
