#include "repl/ReplShell.h"

#include "importers/Import.h"
#include "repl/Cli.h"
#include "repl/ReplCommands.h"
#include "repl/ReplCompletion.h"
#include "repl/ReplLexer.h"
#include "repl/ReplSession.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

#ifdef FXKIT_HAVE_READLINE
#include <readline/history.h>
#include <readline/readline.h>
#endif

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

#ifdef FXKIT_HAVE_READLINE

/// The session completion draws node and graph names from (readline's callbacks take no
/// context pointer).
ReplSession *gSession = nullptr;
std::vector<std::string> gCandidates;
size_t gNextCandidate = 0;

char *nextCandidate(const char *text, int state) {
  if (state == 0)
    gNextCandidate = 0;
  size_t len = std::strlen(text);
  while (gNextCandidate < gCandidates.size()) {
    const std::string &c = gCandidates[gNextCandidate++];
    if (c.compare(0, len, text) == 0)
      return strdup(c.c_str());
  }
  return nullptr;
}

char **complete(const char *text, int start, int) {
  rl_attempted_completion_over = 1; // no readline file names: replCompletions lists paths
  gCandidates = replCompletions(*gSession, std::string_view(rl_line_buffer, start), text);
  // A folder is completed without a space after it, so that its entries can follow.
  if (gCandidates.size() == 1 && gCandidates[0].ends_with('/'))
    rl_completion_append_character = '\0';
  return rl_completion_matches(text, nextCandidate);
}

/// Called by readline when a read is interrupted: Ctrl-C drops the line being typed and shows
/// a fresh prompt, as shells do.
int onReadlineSignal() {
  if (ReplSession::interrupted) {
    ReplSession::interrupted = 0;
    rl_replace_line("", 0);
    rl_crlf();
    rl_on_new_line();
    rl_redisplay();
  }
  return 0;
}

int readlineLoop(ReplSession &session) {
  gSession = &session;
  rl_readline_name = "fxkit";
  rl_attempted_completion_function = complete;
  // Our SIGINT handler, not readline's, so Ctrl-C during a command reaches the session too.
  rl_catch_signals = 0;
  rl_signal_event_hook = onReadlineSignal;
  std::string history = replHistoryPath();
  if (!history.empty())
    read_history(history.c_str());
  bool warned = false;
  while (!session.quitRequested()) {
    ReplSession::interrupted = 0;
    char *raw = readline(prompt(session).c_str());
    if (!raw) {
      std::cout << "\n";
      break;
    }
    std::string line(raw);
    std::free(raw);
    if (line.find_first_not_of(" \t") == std::string::npos)
      continue;
    add_history(line.c_str());
    if (!history.empty()) {
      // Appended line by line so that a crash or a second shell loses nothing. A history
      // that cannot be written is worth one warning, never an error.
      if (FILE *f = std::fopen(history.c_str(), "a"))
        std::fclose(f);
      int error = append_history(1, history.c_str());
      if (error == 0)
        history_truncate_file(history.c_str(), 2000);
      else if (!warned) {
        std::cerr << "fxkit: warning: cannot write the history file " << history << ": "
                  << std::strerror(error) << " (set FXKIT_HISTORY to another file, or empty "
                  << "to keep no history)\n";
        warned = true;
      }
    }
    ReplSession::interrupted = 0;
    session.runLine(line);
  }
  gSession = nullptr;
  return kExitOk;
}

#endif // FXKIT_HAVE_READLINE

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
#ifdef FXKIT_HAVE_READLINE
  if (terminal)
    return readlineLoop(session);
#endif
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
