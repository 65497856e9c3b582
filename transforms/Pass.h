#pragma once
/// \file Passes: every transform is a named, registered function with one signature,
/// graph and options in, "changed" flag or error out (like MLIR's pass registry). Each pass
/// declares the level of the compilation it reads and the one it writes, and the options it
/// reads; a registered name may also stand for a pipeline of other passes (`lower`, `fuse`).

#include "ir/Error.h"
#include "ir/Graph.h"

#include <csignal>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

/// What a pass reads or writes: the ATen graph, the loop program lowering makes (in the graph's
/// CompilationState), its kernels (fused program), the memory plan, or the wrapper program
/// (which replaces the graph's nodes). Shown in the pass list; runPipeline verifies the graph
/// after a pass that writes the graph or the wrapper (the others leave its nodes alone).
enum class PassLevel { Graph, LoopProgram, Kernels, Plan, Wrapper };

/// "graph", "loops", "kernels", "plan", "wrapper".
std::string_view passLevelName(PassLevel level);

/// Named option values of one pipeline run (`fusion=false`), as text, read by the passes that
/// declare them (PassInfo::options). A name no pass of the pipeline declares is an error before
/// anything runs, so a misspelt option never silently does nothing.
class PassOptions {
public:
  PassOptions &set(std::string name, std::string value);
  /// The value given for `name`, or null.
  const std::string *find(std::string_view name) const;
  /// A boolean option: true/false (also 1/0, on/off); `fallback` when not given.
  Expected<bool> flag(std::string_view name, bool fallback) const;
  /// An integer option; `fallback` when not given.
  Expected<int64_t> integer(std::string_view name, int64_t fallback) const;
  /// A number option (seconds); `fallback` when not given.
  Expected<double> number(std::string_view name, double fallback) const;
  const std::map<std::string, std::string, std::less<>> &values() const { return values_; }
  /// "name=value,name=value" (as `--pass-options` would take it); errors name the bad item.
  static Expected<PassOptions> parse(std::string_view text);

  /// A flag a SIGINT handler sets (the REPL's Ctrl-C; the caller owns and clears it, this
  /// layer only reads it): runPipeline stops before the next pass or pipeline step once it is
  /// non-zero, and a long pass may stop at its own safe points (interruptRequested). Not an
  /// option by name: it is never refused as unknown, and null (the default) never stops.
  PassOptions &setInterrupt(const volatile std::sig_atomic_t *flag) {
    interrupt_ = flag;
    return *this;
  }
  const volatile std::sig_atomic_t *interrupt() const { return interrupt_; }
  bool interruptRequested() const { return interrupt_ && *interrupt_; }

private:
  std::map<std::string, std::string, std::less<>> values_;
  const volatile std::sig_atomic_t *interrupt_ = nullptr;
};

/// true when the pass changed what it writes.
using PassResult = Expected<bool>;
using PassFn = std::function<PassResult(Graph &, const PassOptions &)>;

/// A pass that reads no options, as a PassFn.
PassFn withoutOptions(std::function<PassResult(Graph &)> fn);

/// One option a pass reads: its name, what it does, its default as text.
struct PassOptionInfo {
  std::string name;
  std::string description;
  std::string defaultValue;
};

struct PassInfo {
  std::string name;        ///< command-line name: "dce", "infer-shapes"
  std::string description; ///< one line for `--help` and the REPL
  PassFn run;              ///< empty for a pipeline (`steps`)
  PassLevel reads = PassLevel::Graph;
  PassLevel writes = PassLevel::Graph;
  std::vector<PassOptionInfo> options = {};
  /// Non-empty: this name stands for these registered passes, run (verified and timed) in
  /// order, as MLIR's named pass pipelines; `run` is unused. Options are those of the steps.
  std::vector<std::string> steps = {};
};

/// All passes known to this build. Registration is explicit (registerBuiltinPasses), not by
/// static constructors, which static libraries silently drop.
class PassRegistry {
public:
  static PassRegistry &instance();
  void add(PassInfo info);
  const PassInfo *find(std::string_view name) const;
  const std::vector<PassInfo> &all() const { return passes_; }

private:
  std::vector<PassInfo> passes_;
};

/// Registers the passes of fxkit_transforms once; safe to call repeatedly.
void registerBuiltinPasses();

/// The registered passes as a table for `fxkit passes` and the REPL's `pass` command: per pass
/// its name, the levels it reads and writes, its description, its steps and its options.
std::string describePasses();

/// Timing and outcome of one pass in a pipeline, for reports.
struct PassRun {
  std::string name;
  bool changed = false;
  double seconds = 0;
  /// A pipeline's steps (PassInfo::steps), each timed; empty for a plain pass.
  std::vector<PassRun> steps;
};

/// Runs named passes in order with `options`, verifying the graph after each pass that writes
/// the graph or the wrapper (an invalid graph after a pass is an internal error that names the
/// pass). Unknown names, and options no pass of the pipeline reads, are errors before anything
/// runs. When `options.interruptRequested()` before a pass or a pipeline's step, the error
/// "interrupted before pass 'NAME'": the graph is as the passes before it left it (callers
/// that must keep it compile a copy or roll back, as the REPL does). transforms/Pipeline.h's
/// compile() is the entry point for compiling.
Expected<std::vector<PassRun>> runPipeline(Graph &graph, const std::vector<std::string> &names,
                                           const PassOptions &options = {});

} // namespace fxkit
