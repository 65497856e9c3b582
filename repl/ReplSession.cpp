#include "repl/ReplSession.h"

#include "ir/Try.h"
#include "ir/Verifier.h"
#include "repl/ReplCommands.h"
#include "repl/ReplLexer.h"
#include "support/DidYouMean.h"

namespace fxkit {
namespace {

/// Snapshots are whole graphs: keep the undo history bounded for large graphs.
constexpr size_t kMaxUndo = 100;

} // namespace

volatile std::sig_atomic_t ReplSession::interrupted = 0;

ReplSession::ReplSession(std::ostream &out, std::ostream &err, std::ostream *status)
    : out_(out), err_(err), status_(status ? *status : err) {}

void ReplSession::report(const Error &error, const SourceLoc &where) {
  anyFailed_ = true;
  if (!where.file.empty())
    err_ << where.file << ":" << where.line << ": ";
  err_ << error.str() << "\n";
  err_.flush();
}

bool ReplSession::runLine(std::string_view line, const SourceLoc &where) {
  auto commands = lexReplLine(line);
  if (!commands) {
    Error e = commands.takeError();
    // The lexer knows only the column; the caller knows the line and the script.
    e.loc.file = where.file.empty() ? "<input>" : where.file;
    e.loc.line = where.line > 0 ? where.line : 1;
    report(e, {});
    return false;
  }
  // Like `;` in a shell, a failed command does not stop the ones after it; Ctrl-C does, seen
  // before a command or after one (it stopped at a safe point, or finished before the flag).
  auto stopsHere = [&] {
    if (!interrupted)
      return false;
    interrupted = 0;
    wasInterrupted_ = true;
    anyFailed_ = true;
    err_ << "interrupted: the rest of the line is skipped\n";
    return true;
  };
  bool ok = true;
  skippedRest_ = false;
  for (const ReplWords &words : *commands) {
    if (stopsHere())
      return false;
    const ReplCommand *command = findReplCommand(words[0]);
    if (!command) {
      std::vector<std::string_view> names;
      for (const ReplCommand &c : replCommands())
        names.push_back(c.name);
      std::string hint = didYouMean(closestSpellings(words[0], names));
      report(Error("unknown command '" + words[0] + "' (" + (hint.empty() ? "" : hint + " ") +
                   "try 'help')"),
             where);
      ok = false;
      if (stopOnError_) {
        skippedRest_ = &words != &commands->back();
        break;
      }
      continue;
    }
    if (Status s = command->run(*this, words); !s) {
      report(s.error(), where);
      ok = false;
    }
    out_.flush();
    status_.flush();
    err_.flush();
    if (stopsHere())
      return false;
    if (quit_)
      break;
    if (!ok && stopOnError_) {
      skippedRest_ = &words != &commands->back();
      break;
    }
  }
  return ok;
}

bool ReplSession::runScript(std::string_view text, const std::string &scriptName) {
  bool ok = true;
  int lineNo = 0;
  while (!text.empty() && !quit_) {
    size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
    ++lineNo;
    bool before = wasInterrupted_;
    SourceLoc where = scriptName.empty() ? SourceLoc{} : SourceLoc{scriptName, lineNo, 0};
    ok = runLine(line, where) && ok;
    std::string at = scriptName.empty() ? "" : scriptName + ":" + std::to_string(lineNo) + ": ";
    if (wasInterrupted_ && !before) {
      err_ << at << "interrupted: the rest of the script is skipped\n";
      break;
    }
    if (!ok && stopOnError_) {
      if (!text.empty() || skippedRest_)
        err_ << at << "stopped at the first error (--keep-going runs the rest)\n";
      break;
    }
  }
  return ok;
}

void ReplSession::requestQuit() {
  if (interactive_ && !quitWarned_) {
    if (std::string unsaved = unsavedSummary(); !unsaved.empty()) {
      quitWarned_ = true;
      err_ << "warning: unsaved edits in " << unsaved
           << " (export them, or quit again to leave without saving)\n";
      err_.flush();
      return;
    }
  }
  quit_ = true;
}

std::string ReplSession::unsavedSummary() const {
  std::string out;
  for (const auto &g : graphs_)
    if (g->unsavedEdits > 0)
      out += (out.empty() ? "" : ", ") + g->name + " (" + std::to_string(g->unsavedEdits) +
             (g->unsavedEdits == 1 ? " edit)" : " edits)");
  return out;
}

Status ReplSession::checkReplace(std::string_view name, bool force) const {
  const ReplGraph *g = findGraph(name);
  if (force || !g || g->unsavedEdits == 0)
    return Status::ok();
  size_t history = 0;
  for (const Snapshot &s : undo_)
    history += s.graphName == name;
  return Error("graph '" + g->name + "' has " + std::to_string(g->unsavedEdits) + " unsaved " +
               (g->unsavedEdits == 1 ? "edit" : "edits") + " and " + std::to_string(history) +
               " undo " + (history == 1 ? "step" : "steps") +
               " that loading over it would lose: export it first, load under another name "
               "('as NAME'), or add --force");
}

ReplGraph *ReplSession::findGraph(std::string_view name) const {
  for (const auto &g : graphs_)
    if (g->name == name)
      return g.get();
  return nullptr;
}

ReplGraph &ReplSession::addGraph(std::string name, std::string path, Graph graph) {
  ReplGraph *g = findGraph(name);
  if (!g) {
    graphs_.push_back(std::make_unique<ReplGraph>());
    g = graphs_.back().get();
    g->name = std::move(name);
  } else {
    // The history of the old graph does not apply to the one replacing it.
    auto sameName = [&](const Snapshot &s) { return s.graphName == g->name; };
    std::erase_if(undo_, sameName);
    std::erase_if(redo_, sameName);
  }
  g->path = std::move(path);
  g->graph = std::move(graph);
  g->unsavedEdits = 0;
  current_ = g;
  return *g;
}

Expected<ReplGraph *> ReplSession::current() const {
  if (!current_)
    return Error("no graph loaded (use 'load FILE')");
  return current_;
}

Status ReplSession::use(std::string_view name) {
  ReplGraph *g = findGraph(name);
  if (!g)
    return Error("no graph named '" + std::string(name) + "' (see 'list')");
  current_ = g;
  return Status::ok();
}

Status ReplSession::edit(std::string description, const std::function<Status(Graph &)> &change) {
  FXKIT_ASSIGN_OR_RETURN(auto cur, current());
  Graph &graph = cur->graph;
  Graph before = graph.clone();
  if (Status s = change(graph); !s) {
    graph = std::move(before);
    return s;
  }
  if (Status v = verifyGraph(graph); !v) {
    graph = std::move(before);
    return Error(description + ": undone, the result does not verify: " + v.error().message);
  }
  ++cur->unsavedEdits;
  undo_.push_back(Snapshot{cur->name, std::move(description), std::move(before)});
  if (undo_.size() > kMaxUndo)
    undo_.erase(undo_.begin());
  redo_.clear();
  return Status::ok();
}

Expected<std::string> ReplSession::restore(std::vector<Snapshot> &from, std::vector<Snapshot> &to,
                                           const char *what) {
  if (from.empty())
    return Error(std::string("nothing to ") + what);
  Snapshot snap = std::move(from.back());
  from.pop_back();
  ReplGraph *g = findGraph(snap.graphName);
  if (!g)
    return Error("cannot " + std::string(what) + " '" + snap.description + "': graph '" +
                 snap.graphName + "' is gone");
  std::swap(g->graph, snap.graph);
  ++g->unsavedEdits;
  current_ = g;
  std::string description = snap.description;
  to.push_back(std::move(snap));
  return description;
}

const Graph *ReplSession::previousVersion(std::string_view graphName, size_t back,
                                          std::string *edit) const {
  if (back == 0)
    return nullptr;
  for (auto it = undo_.rbegin(); it != undo_.rend(); ++it)
    if (it->graphName == graphName && --back == 0) {
      if (edit)
        *edit = it->description;
      return &it->graph;
    }
  return nullptr;
}

Expected<std::string> ReplSession::undo() { return restore(undo_, redo_, "undo"); }

Expected<std::string> ReplSession::redo() { return restore(redo_, undo_, "redo"); }

} // namespace fxkit
