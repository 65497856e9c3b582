#pragma once
/// \file `fxkit plan`: static memory planning of a MiniMalloc problem file (CSV
/// `id,lower,upper,size`): writes `id,lower,upper,size,offset` and a one-line summary.
/// `--wrapper output_code.py` re-plans the memory of an imported Inductor program instead: its
/// storages (importers/inductor/WrapperAnalysis.h), each live from its allocation to its last
/// use, packed into one pool, compared with the peak of Inductor's own allocations.

#include <cstdint>
#include <optional>
#include <string>

namespace CLI {
class App;
} // namespace CLI

namespace fxkit {

struct PlanCommandOptions {
  std::string intervals;           ///< problem CSV ("-" for stdin)
  std::string wrapper;             ///< or: Inductor wrapper code whose memory is re-planned
  std::string output = "-";        ///< solution CSV ("-" for stdout)
  std::optional<int64_t> capacity; ///< unset: minimise the pool
  double timeLimit = 10.0;         ///< seconds of search
  uint64_t maxNodes = 0;           ///< search node budget, 0: unlimited
  int64_t alignment = 1;
  std::string timeline; ///< also write the plan's memory timeline SVG here ("" for none)
};

/// Adds the `plan` subcommand to `app`, filling `options` when it is parsed.
CLI::App *addPlanSubcommand(CLI::App &app, PlanCommandOptions &options);

/// Runs the command; returns the exit code: 0 a plan within the capacity (or, without one, a
/// minimised plan), 1 none found within the capacity (the best plan is still written), 2 bad
/// input (nothing written). The summary goes to stderr.
int runPlanCommand(const PlanCommandOptions &options);

} // namespace fxkit
