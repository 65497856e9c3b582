#pragma once
/// \file The REPL's commands: one function per command, with its usage and help text, in one
/// table that the session, `help` and tab completion read.

#include "ir/Error.h"
#include "repl/ReplLexer.h"

#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

class ReplSession;

/// What a command's argument words are, for tab completion.
enum class ReplArgKind {
  None,
  File,
  Node,
  Graph,
  Pass,
  Format,
  Command,
  Position, ///< `after` or `before`
  MetaKey,  ///< a node metadata key (set-meta)
  Backend,  ///< a name of the backend registry (backends/Backend.h)
  Variable, ///< a `let` variable (`$NAME`)
};

struct ReplCommand {
  std::string_view name;
  std::string_view usage;   ///< `rename A B`
  std::string_view summary; ///< one line for `help`
  std::string_view details; ///< more lines for `help CMD` ("" when none)
  ReplArgKind firstArg;     ///< what the first argument is
  ReplArgKind otherArgs;    ///< what later arguments are
  /// Runs the command; `words[0]` is its name. Output goes to the session's streams.
  Status (*run)(ReplSession &session, const ReplWords &words);
  /// One typical use, for `help CMD` and the README's table (`help --markdown` prints it).
  std::string_view example;
};

/// Every command, in the order `help` lists them.
const std::vector<ReplCommand> &replCommands();
/// The command named `name`, or null.
const ReplCommand *findReplCommand(std::string_view name);
/// For a name that is no command: `did you mean 'ancestors'? try 'help'` (the first part when
/// a command is close).
std::string replCommandHint(std::string_view name);

} // namespace fxkit
