#include "repl/PlanCommand.h"

#include "exporters/Export.h"
#include "exporters/MemoryTimeline.h"
#include "exporters/MiniMallocCsvWriter.h"
#include "importers/Import.h"
#include "importers/MiniMallocCsv.h"
#include "importers/inductor/InductorMeta.h"
#include "importers/inductor/WrapperAnalysis.h"
#include "repl/Cli.h"
#include "transforms/ArenaPlanner.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <sstream>

namespace fxkit {

namespace {

/// CLI11's own range checks print the range's bounds as 300-digit doubles.
const CLI::Validator kNonNegative(
    [](std::string &text) {
      return !text.empty() && text[0] == '-' ? std::string("must not be negative") : std::string();
    },
    "NONNEGATIVE");

/// The problem of an imported wrapper: storage i lives over [allocation, last use + 1), outputs
/// to the end of the call.
std::vector<BufferLifetime> storageLifetimes(const WrapperAnalysis &a) {
  std::vector<BufferLifetime> out;
  for (size_t i = 0; i < a.storages.size(); ++i) {
    const auto &s = a.storages[i];
    int64_t lower = static_cast<int64_t>(s.allocatedAt);
    int64_t upper =
        s.isOutput ? static_cast<int64_t>(a.statements) : static_cast<int64_t>(s.lastUse) + 1;
    out.push_back({static_cast<int64_t>(i), lower, std::max(upper, lower + 1), s.bytes});
  }
  return out;
}

} // namespace

CLI::App *addPlanSubcommand(CLI::App &app, PlanCommandOptions &options) {
  CLI::App *plan = app.add_subcommand(
      "plan", "Plan buffer offsets in one memory pool (MiniMalloc CSV in and out)");
  auto *intervals = plan->add_option("--intervals", options.intervals,
                                     "Problem CSV: id,lower,upper,size (- for stdin)");
  auto *wrapper =
      plan->add_option("--wrapper", options.wrapper,
                       "Or: Inductor wrapper code (output_code.py) whose memory is re-planned");
  intervals->excludes(wrapper);
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
  if (options.intervals.empty() == options.wrapper.empty())
    return reportError(Error("plan needs --intervals FILE.csv or --wrapper output_code.py"));
  MiniMallocProblem fromWrapper;
  std::optional<WrapperAnalysis> analysis;
  if (!options.wrapper.empty()) {
    auto graph = importGraphFile(options.wrapper, GraphFormat::InductorPy);
    if (!graph)
      return reportError(graph.error());
    auto a = analyzeInductorWrapper(*graph);
    if (!a)
      return reportError(a.error());
    analysis = a.take();
    fromWrapper.buffers = storageLifetimes(*analysis);
    for (const auto &s : analysis->storages)
      fromWrapper.names.push_back(s.name);
  }
  auto problem = analysis ? Expected<MiniMallocProblem>(std::move(fromWrapper))
                          : readMiniMallocCsvFile(options.intervals);
  if (!problem)
    return reportError(problem.error());
  const std::vector<BufferLifetime> &buffers = problem->buffers;
  ArenaPlanOptions planOptions;
  planOptions.capacity = options.capacity;
  planOptions.timeLimitSeconds = options.timeLimit;
  planOptions.maxSearchNodes = options.maxNodes;
  planOptions.alignment = options.alignment;
  auto plan = planArena(buffers, planOptions);
  if (!plan)
    return reportError(plan.error());
  // A cheap, solver-independent check before anything is written.
  if (Status st = validateArenaPlan(buffers, *plan, std::nullopt, options.alignment); !st)
    return reportError(Error("internal error: the plan is invalid: " + st.error().message));
  if (Status st = writeFileAtomic(options.output,
                                  printMiniMallocCsv(buffers, plan->offsets, problem->names));
      !st)
    return reportError(st.error());
  if (!options.timeline.empty()) {
    MemoryTimeline timeline = memoryTimelineOfArena(buffers, plan->offsets, problem->names);
    timeline.title = "arena plan of " + options.intervals;
    if (Status st = writeFileAtomic(options.timeline, writeMemoryTimelineSvg(timeline)); !st)
      return reportError(st.error());
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
  if (analysis) {
    // Inductor's own plan: its allocations and frees in call order (reuse allocates nothing).
    int64_t peak = analysis->peakBytes;
    std::ostringstream cmp;
    cmp << "fxkit plan: Inductor's allocations peak at " << peak
        << " bytes; the re-planned pool is " << plan->poolSize << " bytes";
    if (peak > 0) {
      char pct[32];
      std::snprintf(pct, sizeof pct, "%.1f%%",
                    100.0 * static_cast<double>(plan->poolSize) / static_cast<double>(peak));
      cmp << " (" << pct << " of Inductor's)";
    }
    if (analysis->unknownSizes)
      cmp << "; " << analysis->unknownSizes
          << " allocation(s) of unknown size (fallback results) left out of both";
    if (auto measured = inductorCompiledPeakBytes(options.wrapper))
      cmp << "; meta.json's compiled_peak_bytes (measured on the GPU, inputs included): "
          << *measured;
    std::cerr << cmp.str() << "\n";
  }
  return plan->fits ? kExitOk : kExitCheckFailed;
}

} // namespace fxkit
