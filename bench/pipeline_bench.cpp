/// The compiler pipeline's speed: shape inference, lowering, fusion (with size arguments),
/// memory planning and the wrapper graph, on every corpus ATen graph Inductor lowered and on a
/// generated graph of 100,000 nodes (Linear + layer-norm statistics + GELU blocks, shapes
/// consistent so every pass does real work). Target: well under a second for 100,000 nodes.

#include "importers/FxTextParser.h"
#include "importers/Import.h"
#include "transforms/Pass.h"

#include <benchmark/benchmark.h>

#include <ctime>
#include <filesystem>
#include <string>

using namespace fxkit;
namespace fs = std::filesystem;

namespace {

/// A typed chain of `blocks` blocks of 12 nodes over a [64, 256] activation.
std::string generateTypedBlocks(size_t blocks) {
  std::string out = "graph():\n";
  out += "    %x : Tensor \"f32[64, 256][256, 1]cpu\"[num_users=1] = placeholder[target=x]\n";
  out += "    %w : Tensor \"f32[256, 256][256, 1]cpu\"[num_users=" + std::to_string(blocks) +
         "] = placeholder[target=w]\n";
  out += "    %b : Tensor \"f32[256][1]cpu\"[num_users=" + std::to_string(blocks) +
         "] = placeholder[target=b]\n";
  auto emit = [&](const std::string &name, const std::string &target, const std::string &args,
                  const std::string &kwargs = "{}", int users = 1) {
    out += "    %" + name + " : [num_users=" + std::to_string(users) +
           "] = call_function[target=" + target + "](args = (" + args + "), kwargs = " + kwargs +
           ")\n";
  };
  std::string prev = "x";
  for (size_t i = 0; i < blocks; ++i) {
    std::string s = std::to_string(i);
    emit("permute_" + s, "torch.ops.aten.permute.default", "%w, [1, 0]");
    emit("addmm_" + s, "torch.ops.aten.addmm.default", "%b, %" + prev + ", %permute_" + s, "{}", 2);
    emit("var_mean_" + s, "torch.ops.aten.var_mean.correction", "%addmm_" + s + ", [1]",
         "{correction: 0, keepdim: True}", 2);
    emit("getitem_" + s, "operator.getitem", "%var_mean_" + s + ", 0");
    emit("getitem_1_" + s, "operator.getitem", "%var_mean_" + s + ", 1");
    emit("add_" + s, "torch.ops.aten.add.Tensor", "%getitem_" + s + ", 1e-05");
    emit("rsqrt_" + s, "torch.ops.aten.rsqrt.default", "%add_" + s + ",");
    emit("sub_" + s, "torch.ops.aten.sub.Tensor", "%addmm_" + s + ", %getitem_1_" + s);
    emit("mul_" + s, "torch.ops.aten.mul.Tensor", "%sub_" + s + ", %rsqrt_" + s);
    emit("mul_1_" + s, "torch.ops.aten.mul.Tensor", "%mul_" + s + ", 0.7071067811865476");
    emit("erf_" + s, "torch.ops.aten.erf.default", "%mul_1_" + s + ",");
    emit("mul_2_" + s, "torch.ops.aten.mul.Tensor", "%mul_" + s + ", %erf_" + s);
    prev = "mul_2_" + s;
  }
  out += "    return (" + prev + ",)";
  return out;
}

const std::vector<std::string> kPasses{"infer-shapes", "lower", "fuse", "plan", "wrapper"};

/// CPU time of this process (user + system), in seconds: the machine is shared, so wall time
/// says more about the other jobs than about the passes.
double cpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

/// Runs the passes one at a time (each followed by the verifier, as runPipeline does) and
/// reports each pass's CPU milliseconds per run as a counter.
void runPipelineOn(benchmark::State &state, const Graph &source) {
  size_t nodes = source.size();
  std::vector<double> perPass(kPasses.size(), 0);
  for (auto _ : state) {
    state.PauseTiming();
    Graph g = source.clone();
    state.ResumeTiming();
    for (size_t i = 0; i < kPasses.size(); ++i) {
      double start = cpuSeconds();
      auto runs = runPipeline(g, {kPasses[i]});
      perPass[i] += cpuSeconds() - start;
      if (!runs) {
        state.SkipWithError(runs.error().message.c_str());
        return;
      }
    }
    benchmark::DoNotOptimize(g.size());
    state.PauseTiming();
    { Graph drop = std::move(g); } // freeing is not timed
    state.ResumeTiming();
  }
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["nodes/s"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsIterationInvariantRate);
  for (size_t i = 0; i < kPasses.size(); ++i)
    state.counters[kPasses[i] + "_ms"] =
        benchmark::Counter(perPass[i] * 1e3, benchmark::Counter::kAvgIterations);
}

void BM_PipelineGenerated(benchmark::State &state) {
  size_t blocks = static_cast<size_t>(state.range(0)) / 12;
  auto graph = parseFxText(generateTypedBlocks(blocks), "<generated>");
  if (!graph) {
    state.SkipWithError(graph.error().message.c_str());
    return;
  }
  runPipelineOn(state, *graph);
}
BENCHMARK(BM_PipelineGenerated)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

void registerCorpus() {
  fs::path root = fs::path(FXKIT_TEST_DATA) / "corpus" / "inductor";
  std::vector<fs::path> graphs;
  for (const auto &e : fs::directory_iterator(root))
    graphs.push_back(e.path() / "aten_post_0.graph.txt");
  std::sort(graphs.begin(), graphs.end());
  for (const fs::path &p : graphs) {
    auto graph = importGraphFile(p.string());
    if (!graph)
      continue;
    auto shared = std::make_shared<Graph>(graph.take());
    benchmark::RegisterBenchmark(
        ("BM_PipelineCorpus/" + p.parent_path().filename().string()).c_str(),
        [shared](benchmark::State &st) { runPipelineOn(st, *shared); })
        ->Unit(benchmark::kMillisecond);
  }
}

} // namespace

int main(int argc, char **argv) {
  registerCorpus();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
