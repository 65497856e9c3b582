#pragma once
/// \file The state of one REPL session (graphs loaded, the current one, undo/redo of edits) and
/// the loop that runs command lines against it. Output goes to the streams it is given, so a
/// session runs the same in a terminal, from `fxkit -c`/`-f` and in tests.

#include "ir/Error.h"
#include "ir/Graph.h"

#include <csignal>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

/// A graph the session holds, under the name commands refer to it by.
struct ReplGraph {
  std::string name;
  std::string path; ///< where it was loaded from ("" for graphs made in the session)
  Graph graph;
  /// Edits (or undos, redos) since it was loaded or last exported: what `load ... as NAME`
  /// again and `quit` would lose.
  size_t unsavedEdits = 0;
};

/// A node set `let` stored (repl/ReplQuery.h): names, so that it outlives the edits that
/// rebuild the graph's nodes.
struct ReplVariable {
  std::string graph;              ///< the graph it was computed on
  std::vector<std::string> nodes; ///< in graph order
};

class ReplSession {
public:
  /// Command output goes to `out`, errors (`error: ...`) to `err`, status lines to `status`
  /// (`err` when null; in-process tests merge them with the results to see both in order).
  ReplSession(std::ostream &out, std::ostream &err, std::ostream *status = nullptr);

  /// Runs one line of commands separated by `;`. An error prints `error: ...` (prefixed by
  /// `where`'s file:line when given); the next command runs unless `stopOnError` is set.
  /// Returns false when a command failed.
  bool runLine(std::string_view line, const SourceLoc &where = {});
  /// Runs every line of a script; errors name `scriptName:line` (no location when
  /// `scriptName` is empty: the text of `fxkit -c`, where a newline separates like `;`).
  /// With `stopOnError`, the first failed command ends it. Returns false when any failed.
  bool runScript(std::string_view text, const std::string &scriptName);

  /// `fxkit -c`/`-f` stop at the first failed command unless `--keep-going`; the
  /// interactive shell goes on (like `;` in a shell).
  void setStopOnError(bool stop) { stopOnError_ = stop; }
  /// The interactive shell: `quit` with unsaved edits warns once before it leaves.
  void setInteractive(bool interactive) { interactive_ = interactive; }
  /// Whether `out` is a terminal: binary exports (png, pdf) are refused there.
  void setOutputIsTerminal(bool terminal) { outputIsTerminal_ = terminal; }
  bool outputIsTerminal() const { return outputIsTerminal_; }

  /// Whether any command failed so far (the exit code of `fxkit -c`/`-f` is 2 then).
  bool anyFailed() const { return anyFailed_; }
  /// Set by `quit`; the interactive loop stops.
  bool quitRequested() const { return quit_; }
  /// `quit`, `exit`, end of input: leaves, except that in the interactive shell the first
  /// request with unsaved edits only warns (naming the graphs); a second one leaves.
  void requestQuit();

  /// Results of commands (what a script pipes on): stdout.
  std::ostream &out() { return out_; }
  /// Errors: stderr.
  std::ostream &err() { return err_; }
  /// Status and progress lines (`loaded ...`, `wrote FILE`, `renamed ...`, `N of M nodes
  /// match`): stderr too, so that stdout carries only results.
  std::ostream &status() { return status_; }

  /// Graphs in the order they were loaded.
  const std::vector<std::unique_ptr<ReplGraph>> &graphs() const { return graphs_; }
  ReplGraph *findGraph(std::string_view name) const;
  /// Adds (or replaces, when the name is taken) a graph and makes it current.
  ReplGraph &addGraph(std::string name, std::string path, Graph graph);
  /// Whether `load ... as name` may replace the graph of that name: refused, saying what
  /// would be lost, when it has unsaved edits and `force` is not given.
  Status checkReplace(std::string_view name, bool force) const;
  /// The graph was written to a file (`export FMT FILE`): no unsaved edits.
  void markSaved(ReplGraph &graph) { graph.unsavedEdits = 0; }
  /// "a (3 edits)": the graphs with unsaved edits, for warnings; "" when none.
  std::string unsavedSummary() const;
  /// The current graph, or an error saying to load one.
  Expected<ReplGraph *> current() const;
  Status use(std::string_view name);
  /// `let` variables (`$NAME` in node arguments), by name without the `$`.
  std::map<std::string, ReplVariable, std::less<>> &variables() { return variables_; }
  const std::map<std::string, ReplVariable, std::less<>> &variables() const { return variables_; }

  /// Applies an edit to the current graph: on failure, or when the verifier rejects the result,
  /// the graph is restored and the error says why; on success the previous graph goes on the
  /// undo stack (and the redo stack is cleared).
  Status edit(std::string description, const std::function<Status(Graph &)> &change);
  /// Restores the graph before the last edit; returns the edit's description.
  Expected<std::string> undo();
  /// Re-applies the last undone edit; returns its description.
  Expected<std::string> redo();
  /// The graph named `graphName` as it was `back` edits ago (1: before the last edit), from the
  /// undo history; null when the history is shorter. The description of the edit that came
  /// after that version goes to `edit` when given.
  const Graph *previousVersion(std::string_view graphName, size_t back,
                               std::string *edit = nullptr) const;

  /// Set from the SIGINT handler. Long commands check it at safe points and fail with
  /// "interrupted", leaving the session as it was: every compilation (pass, why, find kernel=,
  /// run and bench) between passes (PassOptions::setInterrupt), run and bench also between
  /// nodes, kernels and iterations, load after reading the file, pictures (render, export svg)
  /// by stopping the Graphviz layout. The rest of the line, and of a script, is then skipped.
  static volatile std::sig_atomic_t interrupted;
  /// Whether a command was interrupted (`fxkit -c`/`-f` exit with 130 then).
  bool wasInterrupted() const { return wasInterrupted_; }

private:
  /// A graph as it was before (undo) or after (redo) an edit.
  struct Snapshot {
    std::string graphName;
    std::string description;
    Graph graph;
  };
  /// Swaps the named graph with the snapshot's and moves the snapshot to `to`.
  Expected<std::string> restore(std::vector<Snapshot> &from, std::vector<Snapshot> &to,
                                const char *what);
  void report(const Error &error, const SourceLoc &where);

  std::ostream &out_;
  std::ostream &err_;
  std::ostream &status_;
  std::vector<std::unique_ptr<ReplGraph>> graphs_;
  ReplGraph *current_ = nullptr;
  std::vector<Snapshot> undo_;
  std::vector<Snapshot> redo_;
  bool anyFailed_ = false;
  bool quit_ = false;
  bool stopOnError_ = false;
  bool interactive_ = false;
  bool outputIsTerminal_ = false;
  bool quitWarned_ = false;
  bool skippedRest_ = false; ///< runLine stopped before the last command of its line
  bool wasInterrupted_ = false;
  std::map<std::string, ReplVariable, std::less<>> variables_;
};

} // namespace fxkit
