#pragma once
/// \file The `fxkit` command line: subcommands and their exit codes.

#include "ir/Error.h"

namespace fxkit {

/// Exit codes shared by every subcommand, batches and the shell's `-c`/`-f` (README: "Exit
/// codes"). Every `error:` fxkit prints ends in 2; 1 is kept for a check that ran and failed.
enum ExitCode : int {
  kExitOk = 0,
  kExitCheckFailed = 1,   ///< the command ran and a check it was asked to make failed (run --check)
  kExitBadInput = 2,      ///< bad usage, bad input, or an input or output file that failed (in a
                          ///< batch: any of them); nothing partial was written
  kExitInterrupted = 130, ///< stopped by SIGINT/SIGTERM/SIGHUP (128 + SIGINT, as shells report it)
};

/// Prints `err` on stderr as every subcommand does ("fxkit: " and the error, with its
/// file:line:col) and returns kExitBadInput: one spelling for every command's failures.
int reportError(const Error &err);

/// Runs the command line; returns the process exit code. Never throws.
int runCli(int argc, char **argv);

} // namespace fxkit
