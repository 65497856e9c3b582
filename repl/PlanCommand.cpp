#include "repl/PlanCommand.h"

#include "exporters/Export.h"
#include "exporters/MemoryTimeline.h"
#include "exporters/MiniMallocCsvWriter.h"
#include "importers/MiniMallocCsv.h"
#include "repl/Cli.h"
#include "transforms/ArenaPlanner.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <sstream>

namespace fxkit {

namespace {

int fail(const Error &err) {
  std::cerr << "fxkit: " << err.str() << "\n";
  return kExitBadInput;
}

/// CLI11's own range checks print the range's bounds as 300-digit doubles.
const CLI::Validator kNonNegative(
    [](std::string &text) {
      return !text.empty() && text[0] == '-' ? std::string("must not be negative") : std::string();
    },
    "NONNEGATIVE");

} // namespace

CLI::App *addPlanSubcommand(CLI::App &app, PlanCommandOptions &options) {
  CLI::App *plan = app.add_subcommand(
      "plan", "Plan buffer offsets in one memory pool (MiniMalloc CSV in and out)");
  plan->add_option("--intervals", options.intervals,
                   "Problem CSV: id,lower,upper,size (- for stdin)")
      ->required();
  plan->add_option_function<int64_t>(
          "--capacity", [&options](const int64_t &v) { options.capacity = v; },
          "Pool size the plan must fit (exit 1 if none is found); default: minimise")
      ->check(kNonNegative);
  plan->add_option("-o,--output", options.output,
                   "Solution CSV: id,lower,upper,size,offset (- for stdout, the default)");
  plan->add_option("--time-limit", options.timeLimit, "Seconds of search (default 10)")
      ->check(kNonNegative);
  plan->add_option("--max-nodes", options.maxNodes,
                   "Search node budget, for reproducible results (default: unlimited)");
  plan->add_option("--alignment", options.alignment, "Offsets are multiples of this (default 1)");
  plan->add_option("--timeline", options.timeline,
                   "Also write the plan as a memory timeline picture (SVG: offset against time)");
  return plan;
}

int runPlanCommand(const PlanCommandOptions &options) {
  auto problem = readMiniMallocCsvFile(options.intervals);
  if (!problem)
    return fail(problem.error());
  const std::vector<BufferLifetime> &buffers = problem->buffers;
  ArenaPlanOptions planOptions;
  planOptions.capacity = options.capacity;
  planOptions.timeLimitSeconds = options.timeLimit;
  planOptions.maxSearchNodes = options.maxNodes;
  planOptions.alignment = options.alignment;
  auto plan = planArena(buffers, planOptions);
  if (!plan)
    return fail(plan.error());
  // A cheap, solver-independent check before anything is written.
  if (Status st = validateArenaPlan(buffers, *plan, std::nullopt, options.alignment); !st)
    return fail(Error("internal error: the plan is invalid: " + st.error().message));
  if (Status st = writeFileAtomic(options.output,
                                  printMiniMallocCsv(buffers, plan->offsets, problem->names));
      !st)
    return fail(st.error());
  if (!options.timeline.empty()) {
    MemoryTimeline timeline = memoryTimelineOfArena(buffers, plan->offsets, problem->names);
    timeline.title = "arena plan of " + options.intervals;
    if (Status st = writeFileAtomic(options.timeline, writeMemoryTimelineSvg(timeline)); !st)
      return fail(st.error());
  }

  std::ostringstream line;
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.3f s", plan->elapsedSeconds);
  line << "fxkit plan: " << buffers.size() << " buffers, lower bound " << plan->lowerBound
       << ", pool " << plan->poolSize;
  if (options.capacity) {
    line << ", capacity " << *options.capacity << ": ";
    if (plan->fits)
      line << "fits";
    else
      line << "does not fit ("
           << (plan->provedOptimal ? "proved: no plan fits" : "no fitting plan found in time")
           << "; the plan written is " << plan->poolSize - *options.capacity << " bytes over)";
  } else {
    line << ": minimised, " << (plan->provedOptimal ? "proved optimal" : "not proved optimal");
  }
  line << ", " << seconds << ", " << plan->searchNodes << " search nodes";
  std::cerr << line.str() << "\n";
  return plan->fits ? kExitOk : kExitCheckFailed;
}

} // namespace fxkit
