// The REPL's queries (repl/ReplQuery.h) on a 1,000,000-node graph: transitive ancestors and
// descendants, a shortest path and all paths end to end, a backward slice extracted into a graph,
// and the did-you-mean search over every node name that a mistyped node costs.
// Run: build/bench/query_bench  (results table: bench/README.md)
#include "GraphTextGenerator.h"
#include "importers/FxTextParser.h"
#include "repl/ReplQuery.h"
#include "support/DidYouMean.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <iostream>

using namespace fxkit;

namespace {

/// The generated transformer-MLP text (bench/GraphTextGenerator.h), 1,000,000 nodes.
const Graph &graph1M() {
  static const Graph g = [] {
    auto parsed = parseFxText(bench::generateFxText(1000000), "bench");
    if (!parsed) {
      std::cerr << parsed.error().str() << "\n";
      std::exit(2);
    }
    return parsed.take();
  }();
  return g;
}

/// The node the output returns: every block's chain ends there.
Node *last() { return graph1M().outputNode()->prev(); }

void BM_Ancestors1M(benchmark::State &state) {
  size_t found = 0;
  for (auto _ : state) {
    NodeSet up = reachableNodes(graph1M(), {last()}, false, -1);
    found = up.size();
    benchmark::DoNotOptimize(up.data());
  }
  state.counters["nodes"] = static_cast<double>(found);
}

void BM_Descendants1M(benchmark::State &state) {
  size_t found = 0;
  for (auto _ : state) {
    NodeSet down = reachableNodes(graph1M(), {graph1M().front()}, true, -1);
    found = down.size();
    benchmark::DoNotOptimize(down.data());
  }
  state.counters["nodes"] = static_cast<double>(found);
}

void BM_ShortestPath1M(benchmark::State &state) {
  size_t length = 0;
  for (auto _ : state) {
    NodeSet path = shortestDataPath(graph1M(), graph1M().front(), last());
    length = path.size();
    benchmark::DoNotOptimize(path.data());
  }
  state.counters["path nodes"] = static_cast<double>(length);
}

void BM_AllPaths1M(benchmark::State &state) {
  size_t paths = 0;
  for (auto _ : state) {
    std::vector<NodeSet> all = dataPaths(graph1M(), graph1M().front(), last(), 20);
    paths = all.size();
    benchmark::DoNotOptimize(all.data());
  }
  state.counters["paths"] = static_cast<double>(paths);
}

/// `let s = slice --backward LAST --depth 8000; extract $s`: about 8,000 nodes into a graph.
void BM_ExtractSlice1M(benchmark::State &state) {
  size_t nodes = 0;
  for (auto _ : state) {
    NodeSet slice = reachableNodes(graph1M(), {last()}, false, 8000);
    slice.push_back(last());
    auto g = extractSubgraph(graph1M(), slice);
    if (!g) {
      state.SkipWithError(g.error().str().c_str());
      return;
    }
    nodes = g->size();
    benchmark::DoNotOptimize(g->front());
  }
  state.counters["extracted nodes"] = static_cast<double>(nodes);
}

/// `users erf_12345x`: the closest names among every node's.
void BM_DidYouMeanNode1M(benchmark::State &state) {
  std::vector<std::string_view> names;
  names.reserve(graph1M().size());
  for (Node *n : graph1M())
    names.push_back(n->name());
  size_t found = 0;
  for (auto _ : state) {
    std::vector<std::string> close = closestSpellings("erf_12345x", names);
    found = close.size();
    benchmark::DoNotOptimize(close.data());
  }
  state.counters["suggestions"] = static_cast<double>(found);
}

} // namespace

BENCHMARK(BM_Ancestors1M)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Descendants1M)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ShortestPath1M)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AllPaths1M)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ExtractSlice1M)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DidYouMeanNode1M)->Unit(benchmark::kMillisecond);

int main(int argc, char **argv) {
  graph1M(); // parsed once, outside the timings
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
