#pragma once
/// \file Passes: every transform is a named, registered function with one signature,
/// graph in, "changed" flag or error out (like MLIR's pass registry).

#include "ir/Error.h"
#include "ir/Graph.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

/// true when the pass changed the graph.
using PassResult = Expected<bool>;
using PassFn = std::function<PassResult(Graph &)>;

struct PassInfo {
  std::string name;        ///< command-line name: "dce", "infer-shapes"
  std::string description; ///< one line for `--help` and the REPL
  PassFn run;
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

/// Timing and outcome of one pass in a pipeline, for reports.
struct PassRun {
  std::string name;
  bool changed = false;
  double seconds = 0;
};

/// Runs named passes in order, verifying the graph after each (an invalid graph after a pass is
/// an internal error that names the pass). Unknown names are an error before anything runs.
Expected<std::vector<PassRun>> runPipeline(Graph &graph, const std::vector<std::string> &names);

} // namespace fxkit
