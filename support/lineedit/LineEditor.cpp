#include "support/lineedit/LineEditor.h"

#ifdef FXKIT_HAVE_READLINE
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include <readline/history.h>
#include <readline/readline.h>
#endif

namespace fxkit {

#ifdef FXKIT_HAVE_READLINE

namespace {

/// The hooks of the running editor (readline's callbacks take no context pointer).
const LineEditorHooks *gHooks = nullptr;
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
  rl_attempted_completion_over = 1; // no readline file names: the hook lists paths
  gCandidates = gHooks->complete(std::string_view(rl_line_buffer, start), text);
  // A folder is completed without a space after it, so that its entries can follow.
  if (gCandidates.size() == 1 && gCandidates[0].ends_with('/'))
    rl_completion_append_character = '\0';
  return rl_completion_matches(text, nextCandidate);
}

/// The word-break characters for the completion being started (readline's hook).
char *wordBreaks() {
  static std::string breaks;
  if (!gHooks->wordBreaks)
    return nullptr; // readline's rl_completer_word_break_characters
  breaks = gHooks->wordBreaks(std::string_view(rl_line_buffer, static_cast<size_t>(rl_point)));
  return breaks.data();
}

/// Called by readline when a read is interrupted: Ctrl-C drops the line being typed and shows
/// a fresh prompt, as shells do.
int onReadlineSignal() {
  if (gHooks->interrupted && *gHooks->interrupted) {
    *gHooks->interrupted = 0;
    rl_replace_line("", 0);
    rl_crlf();
    rl_on_new_line();
    rl_redisplay();
  }
  return 0;
}

} // namespace

Status lineEditorAvailable() { return Status::ok(); }

Status runLineEditor(const LineEditorHooks &hooks) {
  gHooks = &hooks;
  rl_readline_name = hooks.programName.c_str();
  rl_attempted_completion_function = complete;
  rl_completion_word_break_hook = wordBreaks;
  // The caller's SIGINT handler, not readline's, so Ctrl-C during a command reaches it too.
  rl_catch_signals = 0;
  rl_signal_event_hook = onReadlineSignal;
  const std::string &history = hooks.historyPath;
  if (!history.empty())
    read_history(history.c_str());
  bool warned = false;
  auto clearInterrupt = [&] {
    if (hooks.interrupted)
      *hooks.interrupted = 0;
  };
  while (!hooks.done()) {
    clearInterrupt();
    char *raw = readline(hooks.prompt().c_str());
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
    clearInterrupt();
    hooks.runLine(line);
  }
  gHooks = nullptr;
  return Status::ok();
}

#else

Status lineEditorAvailable() {
  return Error("not available in this build: line editing needs readline (install "
               "libreadline-dev and rebuild)");
}

Status runLineEditor(const LineEditorHooks &) { return lineEditorAvailable(); }

#endif

} // namespace fxkit
