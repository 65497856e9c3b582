#pragma once
/// \file An interactive line editor (GNU readline, where fxkit is built with it): prompt,
/// editing, completion and a history file. The REPL reads lines through it on a terminal; in
/// a build without readline `lineEditorAvailable()` says so and the REPL reads plain lines.

#include "ir/Error.h"

#include <csignal>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

/// What the editor asks its caller for.
struct LineEditorHooks {
  std::function<std::string()> prompt;
  /// Candidates for `word`, the word under the cursor, after `before` (the line up to it).
  std::function<std::vector<std::string>(std::string_view before, std::string_view word)> complete;
  /// The characters that end the word to complete, given the line up to the cursor (readline's
  /// own set when unset: it breaks at `=` and `$`, which would split `op=aten.mul` and `$var`).
  std::function<std::string(std::string_view before)> wordBreaks;
  std::function<void(const std::string &line)> runLine;
  std::function<bool()> done; ///< stop before reading the next line
  /// Set by the caller's SIGINT handler: a read it interrupts drops the line being typed and
  /// shows a fresh prompt, as shells do. Cleared before each line.
  volatile std::sig_atomic_t *interrupted = nullptr;
  /// Lines are appended here as they are entered (and read back first); empty: no history.
  std::string historyPath;
  std::string programName = "fxkit"; ///< readline's application name (~/.inputrc)
};

/// Ok where fxkit is built with readline; else "not available in this build: ...".
Status lineEditorAvailable();

/// Reads and runs lines until end of input or `done`; an error where no editor is built in.
Status runLineEditor(const LineEditorHooks &hooks);

} // namespace fxkit
