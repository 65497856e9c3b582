/// Picture rendering: DOT generation and in-process layout + SVG (libgvc) for the corpus's
/// deep_mlp workload (the graph and its compiled program) and for a generated 5,000-node
/// graph, with dot's default settings against the cheap layout fxkit switches to for large
/// pictures (RenderOptions::largeGraphNodes), and the collapsed kernel view.

#include "GraphTextGenerator.h"

#include "exporters/DotWriter.h"
#include "exporters/GraphvizRender.h"
#include "exporters/ProgramDot.h"
#include "importers/FxTextParser.h"
#include "importers/Import.h"
#include "transforms/CompilationState.h"
#include "transforms/Pass.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <map>

using namespace fxkit;

namespace {

Graph &deepMlp() {
  static Graph g = [] {
    auto g =
        importGraphFile(std::string(FXKIT_TEST_DATA) + "/corpus/reference/deep_mlp/fw_0.graph.txt");
    if (!g || !runPipeline(*g, {"lower", "fuse", "plan"})) {
      std::fprintf(stderr, "cannot compile deep_mlp\n");
      std::exit(1);
    }
    return g.take();
  }();
  return g;
}

/// A generated graph of about `nodes` nodes, parsed once per size.
const Graph &generated(size_t nodes = 5000) {
  static std::map<size_t, Graph> graphs;
  auto it = graphs.find(nodes);
  if (it == graphs.end()) {
    auto g = parseFxText(bench::generateFxText(nodes), "generated");
    if (!g) {
      std::fprintf(stderr, "%s\n", g.error().str().c_str());
      std::exit(1);
    }
    it = graphs.emplace(nodes, g.take()).first;
  }
  return it->second;
}

/// arg 0: dot's default settings (threshold out of reach); 1: the cheap layout.
RenderOptions layout(int64_t cheap) {
  RenderOptions o;
  o.largeGraphNodes = cheap ? 0 : SIZE_MAX;
  return o;
}

void svgOf(benchmark::State &state, const std::string &dot) {
  if (!haveGraphviz()) {
    state.SkipWithError("built without libgvc");
    return;
  }
  for (auto _ : state) {
    auto svg = renderDot(dot, RenderFormat::Svg);
    if (!svg) {
      state.SkipWithError(svg.error().str().c_str());
      return;
    }
    benchmark::DoNotOptimize(svg->data());
  }
  state.counters["dot_bytes"] = static_cast<double>(dot.size());
}

void BM_DeepMlpGraphDot(benchmark::State &state) {
  const Graph &g = *compilationState(deepMlp())->source;
  for (auto _ : state)
    benchmark::DoNotOptimize(writeDot(g).data());
  state.counters["nodes"] = static_cast<double>(g.size());
}

void BM_DeepMlpGraphSvg(benchmark::State &state) {
  const Graph &g = *compilationState(deepMlp())->source;
  svgOf(state, writeDot(g, layout(state.range(0))));
}

void BM_DeepMlpProgramSvg(benchmark::State &state) {
  CompilationState &s = *compilationState(deepMlp());
  RenderOptions o = layout(state.range(0));
  o.fusion = state.range(1) != 0;
  svgOf(state, writeProgramDot(*s.program, *s.fused, o));
  state.counters["loop_ops"] = static_cast<double>(s.program->ops.size());
}

void BM_DeepMlpKernelsSvg(benchmark::State &state) {
  CompilationState &s = *compilationState(deepMlp());
  RenderOptions o;
  o.collapse = CollapseMode::Kernel;
  svgOf(state, writeProgramDot(*s.program, *s.fused, o));
  state.counters["kernels"] = static_cast<double>(s.fused->kernels.size());
}

void BM_Generated5000Dot(benchmark::State &state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(writeDot(generated()).data());
  state.counters["nodes"] = static_cast<double>(generated().size());
}

void BM_Generated5000Svg(benchmark::State &state) {
  svgOf(state, writeDot(generated(), layout(state.range(0))));
  state.counters["nodes"] = static_cast<double>(generated().size());
}

/// Where the cheap layout starts to matter: generated graphs of 250 to 2,000 nodes.
void BM_GeneratedSvg(benchmark::State &state) {
  const Graph &g = generated(static_cast<size_t>(state.range(0)));
  svgOf(state, writeDot(g, layout(state.range(1))));
  state.counters["nodes"] = static_cast<double>(g.size());
}

} // namespace

BENCHMARK(BM_DeepMlpGraphDot)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DeepMlpGraphSvg)->ArgName("cheap")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DeepMlpProgramSvg)
    ->ArgNames({"cheap", "fusion"})
    ->Args({0, 0})
    ->Args({1, 0})
    ->Args({0, 1})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DeepMlpKernelsSvg)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GeneratedSvg)
    ->ArgNames({"nodes", "cheap"})
    ->ArgsProduct({{250, 500, 1000, 2000}, {0, 1}})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Generated5000Dot)->Unit(benchmark::kMillisecond);
// dot's defaults take long on 5,000 nodes: one iteration each.
BENCHMARK(BM_Generated5000Svg)
    ->ArgName("cheap")
    ->Arg(0)
    ->Arg(1)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
