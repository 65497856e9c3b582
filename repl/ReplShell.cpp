#include "repl/ReplShell.h"

#include "exporters/GraphvizRender.h"
#include "importers/Import.h"
#include "repl/Cli.h"
#include "repl/ReplCommands.h"
#include "repl/ReplCompletion.h"
#include "repl/ReplLexer.h"
#include "repl/ReplSession.h"
#include "support/DidYouMean.h"
#include "support/lineedit/LineEditor.h"

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

/// `fxkit repl --help` (also `-c`/`-f` with --help).
constexpr const char *kHelp =
    "fxkit's shell: load graphs, inspect, edit with undo, export.\n"
    "  fxkit repl [FILE...]            interactive (completion, history, Ctrl-C stops a command)\n"
    "  fxkit -c \"CMD; CMD\" [FILE...]   run commands (';' or a newline separates them)\n"
    "  fxkit -f SCRIPT [FILE...]       run a script, one or more commands a line\n"
    "FILEs are loaded first. Options:\n"
    "  --keep-going   -c/-f: run the commands after a failed one (default: stop there)\n"
    "  -h, --help     this text\n"
    "Results go to stdout, status lines (loaded, wrote, renamed, N of M nodes match) and\n"
    "errors to stderr. Exit code: 0 ok, 2 a command failed or bad usage, 130 interrupted.\n"
    "Examples:\n"
    "  fxkit -c \"load model.graph.txt; export fx\" > out.fx\n"
    "  fxkit -c \"find op=aten.mm*; users mm\" model.graph.txt\n"
    "Commands (see 'help CMD' inside):\n";

/// The options runReplCli knows, for did-you-mean.
const std::vector<std::string_view> &replOptions() {
  static const std::vector<std::string_view> options = {"--keep-going", "--help", "-h"};
  return options;
}

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
  hooks.wordBreaks = [](std::string_view before) { return std::string(replWordBreaks(before)); };
  hooks.runLine = [&session](const std::string &line) { session.runLine(line); };
  hooks.done = [&session] { return session.quitRequested(); };
  hooks.interrupted = &ReplSession::interrupted;
  hooks.historyPath = replHistoryPath();
  // The editor returns at `quit` or at end of input (Ctrl-D); Ctrl-D is a quit, which with
  // unsaved edits only warns the first time: then read on.
  while (!session.quitRequested()) {
    if (Status s = runLineEditor(hooks); !s) {
      std::cerr << "fxkit: " << s.error().str() << "\n";
      return kExitBadInput;
    }
    if (!session.quitRequested())
      session.requestQuit();
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
      // End of input is a quit: with unsaved edits the first one only warns.
      session.requestQuit();
      std::cin.clear();
      continue;
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

std::string replHelpText() {
  std::string text = kHelp;
  for (const ReplCommand &c : replCommands())
    text += "  " + std::string(c.usage) + "\n";
  return text;
}

int runReplCli(int argc, char **argv) {
  if (!isReplInvocation(argc, argv)) {
    std::cerr << kUsage;
    return kExitBadInput;
  }
  std::string_view mode = argc < 2 ? "repl" : argv[1];
  // Options may come anywhere after the mode; `--` ends them (a file named `-x`).
  std::vector<std::string> args;
  bool keepGoing = false, options = true;
  for (int i = 2; i < argc; ++i) {
    std::string_view a = argv[i];
    if (options && a == "--") {
      options = false;
    } else if (options && (a == "--help" || a == "-h")) {
      std::cout << replHelpText();
      return kExitOk;
    } else if (options && a == "--keep-going") {
      keepGoing = true;
    } else if (options && a.size() > 1 && a[0] == '-' &&
               !((mode == "-c" || mode == "-f") && args.empty())) {
      std::cerr << "fxkit: error: unknown option '" << a << "'";
      if (std::string hint = didYouMean(closestSpellings(a, replOptions())); !hint.empty())
        std::cerr << "; " << hint;
      std::cerr << "\n" << kUsage;
      return kExitBadInput;
    } else {
      args.emplace_back(a);
    }
  }
  size_t firstFile = 0;
  std::string text;
  if (mode == "-c" || mode == "-f") {
    if (args.empty()) {
      std::cerr << "fxkit: " << mode << " needs an argument\n" << kUsage;
      return kExitBadInput;
    }
    text = args[0];
    firstFile = 1;
  }
  if (mode == "-f") {
    auto script = readTextFile(text);
    if (!script) {
      std::cerr << "fxkit: " << script.error().str() << "\n";
      return kExitBadInput;
    }
    text = script.take();
  }
  // Ctrl-C stops the running command at a safe point, in a script too (see ReplSession), and
  // a Graphviz layout (render, export svg) at once.
  installInterruptHandler();
  setRenderInterruptFlag(&ReplSession::interrupted);
  ReplSession session(std::cout, std::cerr);
  session.setOutputIsTerminal(isatty(STDOUT_FILENO));
  // A script stops at its first failed command (a file that did not load included).
  session.setStopOnError(mode != "repl" && !keepGoing);
  for (size_t i = firstFile; i < args.size(); ++i)
    if (!session.runLine("load " + quoteReplWord(args[i])) && mode != "repl" && !keepGoing)
      return session.wasInterrupted() ? kExitInterrupted : kExitBadInput;
  if (mode == "repl") {
    session.setInteractive(true);
    return runInteractiveRepl(session);
  }
  session.runScript(text, mode == "-f" ? args[0] : std::string());
  if (session.wasInterrupted())
    return kExitInterrupted;
  return session.anyFailed() ? kExitBadInput : kExitOk;
}

} // namespace fxkit
