/// The compiler core on the whole corpus: every ATen graph lowers and fuses; every reference
/// workload's fused program, run kernel by kernel (LoopInterpreter, which also rejects a kernel
/// that reads another row's internal values), reproduces the outputs PyTorch recorded, fused
/// and unfused.

#include "CorpusTestSupport.h"
#include "backends/interp/LoopInterpreter.h"
#include "backends/interp/json/ReferenceIO.h"
#include "importers/Import.h"
#include "ir/ops/ShapeRules.h"
#include "transforms/Fusion.h"
#include "transforms/Lowering.h"
#include "transforms/ShapeInference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

using namespace fxkit;
using fxkit::testing::corpusGraphs;
using fxkit::testing::sibling;
namespace fs = std::filesystem;

namespace {

TEST(CorpusFusion, EveryAtenGraphLowersAndFuses) {
  std::vector<fs::path> graphs = corpusGraphs("inductor", "aten_");
  std::vector<fs::path> reference = corpusGraphs("reference", "");
  graphs.insert(graphs.end(), reference.begin(), reference.end());
  // 10 workloads: aten_pre/aten_post of graphs _0 and _1, and 10 reference graphs.
  ASSERT_GE(graphs.size(), 50u);
  for (const fs::path &p : graphs) {
    SCOPED_TRACE(p.string());
    auto graph = importGraphFile(p.string());
    ASSERT_TRUE(graph) << graph.error().str();
    ASSERT_TRUE(inferShapes(*graph)) << p;
    auto program = lowerGraph(*graph);
    ASSERT_TRUE(program) << program.error().str();
    auto fused = fuseLoopProgram(*program);
    ASSERT_TRUE(fused) << fused.error().str();
    // Every op is in exactly one kernel.
    std::vector<int> seen(program->ops.size(), 0);
    for (const loop::Kernel &k : fused->kernels)
      for (int32_t op : k.ops)
        ++seen[op];
    EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
    // Fusion never adds traffic over the unfused program.
    FusionOptions none;
    none.enable = false;
    auto unfused = fuseLoopProgram(*program, none);
    ASSERT_TRUE(unfused);
    EXPECT_LE(symHint(fused->generatedKernelBytes()), symHint(unfused->generatedKernelBytes()));
  }
}

void checkReference(bool fusion) {
  std::vector<fs::path> graphs = corpusGraphs("reference", "");
  ASSERT_GE(graphs.size(), 10u);
  size_t checked = 0;
  for (const fs::path &p : graphs) {
    SCOPED_TRACE(p.string());
    auto graph = importGraphFile(p.string());
    ASSERT_TRUE(graph) << graph.error().str();
    ASSERT_TRUE(inferShapes(*graph));
    auto program = lowerGraph(*graph);
    ASSERT_TRUE(program) << program.error().str();
    FusionOptions options;
    options.enable = fusion;
    auto fused = fuseLoopProgram(*program, options);
    ASSERT_TRUE(fused) << fused.error().str();
    auto inFile = readSafetensors(sibling(p, ".inputs.safetensors").string());
    auto outFile = readSafetensors(sibling(p, ".outputs.safetensors").string());
    ASSERT_TRUE(inFile && outFile);
    auto inputs = readGraphInputs(*inFile, program->inputs.size(), "inputs");
    ASSERT_TRUE(inputs) << inputs.error().str();
    auto result = interpretLoopProgram(*program, *fused, *inputs);
    ASSERT_TRUE(result) << result.error().str();
    auto checks = checkGraphOutputs(result->outputs, *outFile, {});
    ASSERT_TRUE(checks);
    for (const OutputCheck &c : *checks)
      EXPECT_TRUE(c.ok) << c.name << " " << c.actual << ": " << c.detail;
    ++checked;
  }
  EXPECT_EQ(checked, graphs.size());
}

TEST(CorpusFusion, FusedProgramsReproduceReferenceOutputs) { checkReference(true); }
TEST(CorpusFusion, UnfusedProgramsReproduceReferenceOutputs) { checkReference(false); }

} // namespace

namespace {

/// The acceptance measure of fusion: per workload, no more generated kernels (distinct
/// definitions) and no more kernel memory traffic than Inductor, whose numbers
/// bench/inductor_kernel_stats.py computed from its output_code files
/// (tests/data/inductor_kernel_stats.json). Symbolic sizes are compared at the size hint, as the
/// script evaluates them.
TEST(CorpusFusion, KernelsAndTrafficAgainstInductor) {
  std::ifstream in(fs::path(FXKIT_TEST_DATA) / "inductor_kernel_stats.json");
  ASSERT_TRUE(in);
  nlohmann::json stats = nlohmann::json::parse(in);
  size_t checked = 0;
  for (const auto &[workload, entry] : stats["workloads"].items()) {
    SCOPED_TRACE(workload);
    fs::path path =
        fs::path(FXKIT_TEST_DATA) / "corpus" / "inductor" / workload / "aten_post_0.graph.txt";
    auto graph = importGraphFile(path.string());
    ASSERT_TRUE(graph) << graph.error().str();
    ASSERT_TRUE(inferShapes(*graph));
    auto program = lowerGraph(*graph);
    ASSERT_TRUE(program) << program.error().str();
    auto fused = fuseLoopProgram(*program);
    ASSERT_TRUE(fused);
    int64_t kernels = static_cast<int64_t>(fused->distinctKernels());
    int64_t bytes = symHint(fused->generatedKernelBytes());
    int64_t inductorKernels = entry["total"]["kernels_defined"].get<int64_t>();
    int64_t inductorBytes = entry["total"]["bytes_total"].get<int64_t>();
    EXPECT_LE(kernels, inductorKernels);
    EXPECT_LE(bytes, inductorBytes);
    ++checked;
  }
  EXPECT_EQ(checked, 10u);
}

} // namespace
