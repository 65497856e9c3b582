// Parse and print throughput of FX graph text, and memory per node of the parsed graph.
// Run: build/bench/fxtext_bench  (results table: bench/README.md)
#include "GraphTextGenerator.h"
#include "exporters/FxTextPrinter.h"
#include "importers/FxTextParser.h"
#include "importers/Import.h"

#include <benchmark/benchmark.h>
#include <malloc.h>

#include <cstdlib>
#include <iostream>

using namespace fxkit;

namespace {

const std::string &generated100k() {
  static const std::string text = bench::generateFxText(100000);
  return text;
}

const std::string &corpusLargest() {
  static const std::string text = [] {
    auto t = readTextFile(std::string(FXKIT_TEST_DATA) +
                          "/corpus/inductor/deep_mlp/aten_post_0.graph.txt");
    if (!t) {
      std::cerr << t.error().str() << "\n";
      std::exit(2);
    }
    return t.take();
  }();
  return text;
}

void parseBench(benchmark::State &state, const std::string &text) {
  size_t nodes = 0;
  for (auto _ : state) {
    auto g = parseFxText(text, "bench");
    if (!g) {
      state.SkipWithError(g.error().str().c_str());
      return;
    }
    nodes = g->size();
    benchmark::DoNotOptimize(g->front());
    state.PauseTiming(); // freeing the graph is not parsing
    g = Error("freed");
    state.ResumeTiming();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(nodes * state.iterations()),
                                                 benchmark::Counter::kIsRate);
  state.counters["nodes"] = static_cast<double>(nodes);
}

void printBench(benchmark::State &state, const std::string &text) {
  auto g = parseFxText(text, "bench");
  if (!g) {
    state.SkipWithError(g.error().str().c_str());
    return;
  }
  size_t bytes = 0;
  for (auto _ : state) {
    std::string out = printFxText(*g);
    bytes = out.size();
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  state.counters["nodes/s"] = benchmark::Counter(
      static_cast<double>(g->size() * state.iterations()), benchmark::Counter::kIsRate);
}

void BM_ParseGenerated100k(benchmark::State &s) { parseBench(s, generated100k()); }
void BM_PrintGenerated100k(benchmark::State &s) { printBench(s, generated100k()); }
void BM_ParseCorpusDeepMlp(benchmark::State &s) { parseBench(s, corpusLargest()); }
void BM_PrintCorpusDeepMlp(benchmark::State &s) { printBench(s, corpusLargest()); }

/// Heap bytes held by a parsed 1,000,000-node graph, per node (malloc statistics).
void BM_MemoryPerNode1M(benchmark::State &state) {
  static const std::string text = bench::generateFxText(1000000);
  for (auto _ : state) {
    malloc_trim(0);
    size_t before = mallinfo2().uordblks;
    auto g = parseFxText(text, "bench");
    if (!g) {
      state.SkipWithError(g.error().str().c_str());
      return;
    }
    size_t after = mallinfo2().uordblks;
    state.counters["bytes/node"] = static_cast<double>(after - before) / g->size();
    state.counters["nodes"] = static_cast<double>(g->size());
  }
}

} // namespace

BENCHMARK(BM_ParseGenerated100k)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PrintGenerated100k)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseCorpusDeepMlp)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PrintCorpusDeepMlp)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MemoryPerNode1M)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_MAIN();
