// Memory planning of MiniMalloc's "challenging" problems (tests/data/minimalloc): time to fit
// each into its capacity (1 MiB), and the pool found against the lower bound.
// Run: build/bench/arena_planner_bench  (results table: bench/README.md)
#include "importers/MiniMallocCsv.h"
#include "transforms/ArenaPlanner.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <iostream>
#include <map>
#include <string>

using namespace fxkit;

namespace {

constexpr int64_t kCapacity = 1048576;

const MiniMallocProblem &problem(char name) {
  static std::map<char, MiniMallocProblem> cache;
  auto it = cache.find(name);
  if (it == cache.end()) {
    std::string path = std::string(FXKIT_TEST_DATA) + "/minimalloc/" + name + ".1048576.csv";
    auto p = readMiniMallocCsvFile(path);
    if (!p) {
      std::cerr << p.error().str() << "\n";
      std::exit(2);
    }
    it = cache.emplace(name, p.take()).first;
  }
  return it->second;
}

void BM_Plan(benchmark::State &state, char name) {
  const std::vector<BufferLifetime> &buffers = problem(name).buffers;
  ArenaPlanOptions options;
  options.capacity = kCapacity;
  options.timeLimitSeconds = 60;
  ArenaPlan plan;
  for (auto _ : state) {
    auto result = planArena(buffers, options);
    if (!result) {
      state.SkipWithError(result.error().str().c_str());
      return;
    }
    plan = result.take();
    benchmark::DoNotOptimize(plan.offsets.data());
  }
  if (Status st = validateArenaPlan(buffers, plan, std::nullopt); !st) {
    state.SkipWithError(st.error().str().c_str());
    return;
  }
  state.counters["buffers"] = static_cast<double>(buffers.size());
  state.counters["lower_bound"] = static_cast<double>(plan.lowerBound);
  state.counters["pool"] = static_cast<double>(plan.poolSize);
  state.counters["fits"] = plan.fits ? 1 : 0;
  state.counters["nodes"] = static_cast<double>(plan.searchNodes);
}

} // namespace

#define FXKIT_PLAN_BENCH(X)                                                                        \
  BENCHMARK_CAPTURE(BM_Plan, X, #X[0])                                                             \
      ->Unit(benchmark::kMillisecond)                                                              \
      ->MeasureProcessCPUTime()                                                                    \
      ->UseRealTime()
FXKIT_PLAN_BENCH(A);
FXKIT_PLAN_BENCH(B);
FXKIT_PLAN_BENCH(C);
FXKIT_PLAN_BENCH(D);
FXKIT_PLAN_BENCH(E);
FXKIT_PLAN_BENCH(F);
FXKIT_PLAN_BENCH(G);
FXKIT_PLAN_BENCH(H);
FXKIT_PLAN_BENCH(I);
FXKIT_PLAN_BENCH(J);
FXKIT_PLAN_BENCH(K);

BENCHMARK_MAIN();
