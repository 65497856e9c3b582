#pragma once
/// \file The `fxkit` command line: subcommands and their exit codes.

namespace fxkit {

/// Exit codes shared by every subcommand.
enum ExitCode : int {
  kExitOk = 0,
  kExitCheckFailed = 1,   ///< the command ran and a check it was asked to make failed
  kExitBadInput = 2,      ///< bad usage or bad input; nothing was written
  kExitInterrupted = 130, ///< stopped by SIGINT/SIGTERM/SIGHUP (128 + SIGINT, as shells report it)
};

/// Runs the command line; returns the process exit code. Never throws.
int runCli(int argc, char **argv);

} // namespace fxkit
