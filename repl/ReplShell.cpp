#include "repl/ReplShell.h"

#include "importers/Import.h"
#include "repl/Cli.h"
#include "repl/ReplCommands.h"
#include "repl/ReplCompletion.h"
#include "repl/ReplLexer.h"
#include "repl/ReplSession.h"
#include "support/LineEditor.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

namespace fxkit {
namespace {

constexpr const char *kUsage = "usage: fxkit repl [FILE...] | fxkit -c \"CMD; CMD\" [FILE...] | "
                               "fxkit -f SCRIPT [FILE...]\n";

void onInterrupt(int) { ReplSession::interrupted = 1; }

/// SIGINT sets a flag instead of ending the process. No SA_RESTART: a blocking read returns
/// EINTR so readline's event hook (below) can abandon the line being typed.
void installInterruptHandler() {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = onInterrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
}

std::string prompt(const ReplSession &session) {
  auto cur = session.current();
  return cur ? "fxkit:" + (*cur)->name + "> " : std::string("fxkit> ");
}

/// The REPL on a terminal, through the line editor: completion from the session, a history
/// file, Ctrl-C dropping the line being typed.
int lineEditorLoop(ReplSession &session) {
  LineEditorHooks hooks;
  hooks.prompt = [&session] { return prompt(session); };
  hooks.complete = [&session](std::string_view before, std::string_view word) {
    return replCompletions(session, before, word);
  };
  hooks.runLine = [&session](const std::string &line) { session.runLine(line); };
  hooks.done = [&session] { return session.quitRequested(); };
  hooks.interrupted = &ReplSession::interrupted;
  hooks.historyPath = replHistoryPath();
  if (Status s = runLineEditor(hooks); !s) {
    std::cerr << "fxkit: " << s.error().str() << "\n";
    return kExitBadInput;
  }
  return kExitOk;
}

int plainLoop(ReplSession &session, bool showPrompt) {
  std::string line;
  while (!session.quitRequested()) {
    if (showPrompt)
      std::cout << prompt(session) << std::flush;
    if (!std::getline(std::cin, line)) {
      // Ctrl-C interrupts the read: the stream fails with EINTR; start a fresh line.
      if (ReplSession::interrupted && !std::cin.eof()) {
        ReplSession::interrupted = 0;
        std::cin.clear();
        std::cout << "\n";
        continue;
      }
      break;
    }
    ReplSession::interrupted = 0;
    session.runLine(line);
  }
  return kExitOk;
}

} // namespace

std::string replHistoryPath() {
  if (const char *path = std::getenv("FXKIT_HISTORY"))
    return path;
  if (const char *state = std::getenv("XDG_STATE_HOME"); state && *state) {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(state) / "fxkit", ec);
    return (std::filesystem::path(state) / "fxkit" / "history").string();
  }
  if (const char *home = std::getenv("HOME"); home && *home)
    return (std::filesystem::path(home) / ".fxkit_history").string();
  return "";
}

bool isReplInvocation(int argc, char **argv) {
  if (argc < 2)
    return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
  std::string_view first = argv[1];
  return first == "repl" || first == "-c" || first == "-f";
}

int runInteractiveRepl(ReplSession &session) {
  bool terminal = isatty(STDIN_FILENO);
  if (terminal && lineEditorAvailable())
    return lineEditorLoop(session);
  return plainLoop(session, terminal);
}

int runReplCli(int argc, char **argv) {
  if (!isReplInvocation(argc, argv)) {
    std::cerr << kUsage;
    return kExitBadInput;
  }
  std::string_view mode = argc < 2 ? "repl" : argv[1];
  int firstFile = 2;
  std::string text;
  if (mode == "-c" || mode == "-f") {
    if (argc < 3) {
      std::cerr << "fxkit: " << mode << " needs an argument\n" << kUsage;
      return kExitBadInput;
    }
    text = argv[2];
    firstFile = 3;
  }
  if (mode == "-f") {
    auto script = readTextFile(text);
    if (!script) {
      std::cerr << "fxkit: " << script.error().str() << "\n";
      return kExitBadInput;
    }
    text = script.take();
  }
  // Ctrl-C stops the running command at a safe point, in a script too (see ReplSession).
  installInterruptHandler();
  ReplSession session(std::cout, std::cerr);
  for (int i = firstFile; i < argc; ++i)
    session.runLine("load " + quoteReplWord(argv[i]));
  if (mode == "repl")
    return runInteractiveRepl(session);
  if (mode == "-c")
    session.runLine(text);
  else
    session.runScript(text, argv[2]);
  if (session.wasInterrupted())
    return kExitInterrupted;
  return session.anyFailed() ? kExitBadInput : kExitOk;
}

} // namespace fxkit
