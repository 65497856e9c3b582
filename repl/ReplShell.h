#pragma once
/// \file The front ends of the REPL's command language: `fxkit repl [FILE...]` (interactive,
/// GNU readline when built with it), `fxkit -c "cmd; cmd" [FILE...]` and
/// `fxkit -f SCRIPT [FILE...]`. Ctrl-C stops a running command at a safe point without
/// leaving the shell; in `-c`/`-f` it also skips the rest, and the exit code is 130. In
/// `-c`, a newline separates commands like `;`.

#include <string>

namespace fxkit {

class ReplSession;

/// Whether argv (as main gets it) asks for the REPL: `repl`, `-c` or `-f` first, or no
/// arguments at all on a terminal.
bool isReplInvocation(int argc, char **argv);

/// Runs the REPL front end argv asks for. FILEs are loaded first. `-c`/`-f` stop at the first
/// failed command unless `--keep-going`. Exit code: 0, 2 when a command of `-c`/`-f` failed
/// (or the usage is wrong), 130 when interrupted; the interactive shell exits 0.
int runReplCli(int argc, char **argv);

/// `fxkit repl --help` (and `fxkit help repl`): the front ends, options, exit codes, examples
/// and the command list (from the command table).
std::string replHelpText();

/// The history file of the interactive shell: `$FXKIT_HISTORY` when set (empty: no history),
/// else `$XDG_STATE_HOME/fxkit/history`, else `~/.fxkit_history`; "" for none.
std::string replHistoryPath();

/// The interactive loop on stdin/stdout until `quit` or end of input: readline with history
/// ($XDG_STATE_HOME/fxkit/history, else ~/.fxkit_history) and tab completion when built with
/// it and stdin is a terminal, otherwise plain lines. Ctrl-C abandons the line being typed or
/// the rest of a running line, never the shell.
int runInteractiveRepl(ReplSession &session);

} // namespace fxkit
