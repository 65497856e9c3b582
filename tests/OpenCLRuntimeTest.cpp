/// The OpenCL backend end to end, on the default device (PoCL's CPU device where there is no
/// GPU): every reference workload of the corpus reproduces its recorded outputs; hand-made
/// graphs that exercise each code generation path agree with the reference interpreter under
/// every launch configuration; the kernel cache serves a second process (binaries and tuned
/// configurations) and detects a corrupted entry, removes it and rebuilds.

#include "CompileTestSupport.h"
#include "CorpusTestSupport.h"
#include "InterpreterTestSupport.h"
#include "backends/interp/Interpreter.h"
#include "backends/interp/json/ReferenceIO.h"
#include "backends/opencl/runtime/BlasExtern.h"
#include "backends/opencl/runtime/OpenCLProgram.h"
#include "importers/FxTextParser.h"
#include "importers/Import.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

using namespace fxkit;
using namespace fxkit::opencl;
using namespace fxkit::testing;
namespace fs = std::filesystem;

namespace {

/// Checks a corpus graph on the device against its recorded outputs; returns the stats.
OpenCLStats checkReference(const fs::path &path, const OpenCLOptions &options) {
  SCOPED_TRACE(path.string());
  OpenCLStats stats;
  auto graph = importGraphFile(path.string(), GraphFormat::FxText, true);
  EXPECT_TRUE(graph) << (graph ? "" : graph.error().str());
  if (!graph)
    return stats;
  auto inFile = readSafetensors(sibling(path, ".inputs.safetensors").string());
  auto outFile = readSafetensors(sibling(path, ".outputs.safetensors").string());
  EXPECT_TRUE(inFile && outFile);
  if (!inFile || !outFile)
    return stats;
  size_t placeholders = 0;
  for (Node *n : *graph)
    placeholders += n->op() == OpKind::Placeholder;
  auto inputs = readGraphInputs(*inFile, placeholders, "inputs");
  EXPECT_TRUE(inputs);
  if (!inputs)
    return stats;
  Compiled c;
  EXPECT_TRUE(compile(graph.take(), c));
  auto result = runOnOpenCL(c, *inputs, options, &stats);
  if (!result)
    return stats;
  auto checks = checkGraphOutputs(result->outputs, *outFile, {});
  EXPECT_TRUE(checks);
  if (!checks)
    return stats;
  EXPECT_FALSE(checks->empty());
  for (const OutputCheck &ch : *checks)
    EXPECT_TRUE(ch.ok) << ch.name << " " << ch.actual << ": " << ch.detail;
  return stats;
}

TEST(OpenCLRuntime, EveryReferenceWorkloadReproducesItsOutputs) {
  REQUIRE_OPENCL_DEVICE();
  TempDir cache;
  OpenCLOptions options;
  options.cacheDir = cache.path.string();
  options.maxTrials = 3;
  std::vector<fs::path> graphs = corpusGraphs("reference");
  ASSERT_GE(graphs.size(), 10u);
  int launches = 0, externs = 0;
  for (const fs::path &p : graphs) {
    OpenCLStats s = checkReference(p, options);
    launches += s.launches;
    externs += s.blasCalls + s.deviceExterns + s.hostExterns;
  }
  // Real work happened on the device: kernels launched, matrix products called.
  EXPECT_GT(launches, 20);
  EXPECT_GT(externs, 20);
}

TEST(OpenCLRuntime, EveryReferenceWorkloadReproducesItsOutputsWithLaunchConstants) {
  REQUIRE_OPENCL_DEVICE();
  // Every reduction and scan of the corpus built for its launch (codegen/LaunchConstants.h),
  // multi-kernel variants too: the configuration forced, so each one runs its constant build.
  TempDir cache;
  OpenCLOptions options;
  options.cacheDir = cache.path.string();
  options.tune = false;
  options.multiKernel = GpuDefault::On;
  int builds = 0, graphs = 0;
  for (const char *config : {"lanes=32,rows=2,constants", "lanes=64,rows=1,variant=1,constants"}) {
    options.forceConfig = config;
    for (const fs::path &p : corpusGraphs("reference")) {
      builds += checkReference(p, options).constantBuilds;
      ++graphs;
    }
  }
  EXPECT_EQ(graphs, 20);
  // The corpus's reduction and scan kernels, each built for its launch in each configuration
  // (launches of one kernel and shape within a graph share their build).
  EXPECT_EQ(builds, 10);
}

/// What every corpus reference workload ran under `options`, summed (each one's outputs checked
/// by checkReference).
struct CorpusTotals {
  int graphs = 0, templated = 0, split = 0, blas = 0, epilogues = 0, deviceExterns = 0;
};
CorpusTotals checkEveryReference(const OpenCLOptions &options) {
  CorpusTotals t;
  for (const fs::path &p : corpusGraphs("reference")) {
    OpenCLStats s = checkReference(p, options);
    ++t.graphs;
    t.templated += s.gemmTemplateCalls;
    t.split += s.gemmSplitCalls;
    t.blas += s.blasCalls;
    t.epilogues += s.gemmEpilogues;
    t.deviceExterns += s.deviceExterns;
  }
  return t;
}

/// The GEMM template forced on every product, untuned, with `tile` (a GemmPlan name, or empty
/// for the first candidate) and kernels cached in `cache`.
OpenCLOptions templateOnly(const TempDir &cache, const std::string &tile = "") {
  OpenCLOptions options;
  options.cacheDir = cache.path.string();
  options.gemm = GemmPolicy::Template; // what GPUs choose per shape when it is faster
  options.gemmTile = tile;
  options.tune = false;
  return options;
}

TEST(OpenCLRuntime, EveryReferenceWorkloadReproducesItsOutputsThroughTheGemmTemplate) {
  REQUIRE_OPENCL_DEVICE();
  if (!haveBlas())
    GTEST_SKIP() << "built without CLBlast: the GEMM template takes CLBlast's products";
  TempDir cache;
  CorpusTotals t = checkEveryReference(templateOnly(cache));
  EXPECT_EQ(t.graphs, 10);
  // Every float32 product and 2-D convolution of the corpus went through the template.
  EXPECT_GT(t.templated, 20);
  EXPECT_EQ(t.blas, 0);
  // The pointwise kernels that fusion marked as a product's epilogue ran inside it (each
  // graph's outputs checked above).
  // mlp's GELU after its first product, resnet_block's batch norm and ReLU after each of its two
  // convolutions.
  EXPECT_EQ(t.epilogues, 3);
}

TEST(OpenCLRuntime, EveryReferenceWorkloadReproducesItsOutputsWithSplitKProducts) {
  REQUIRE_OPENCL_DEVICE();
  if (!haveBlas())
    GTEST_SKIP() << "built without CLBlast: the GEMM template takes CLBlast's products";
  // Every product of the corpus whose k is even split in two (GemmPlan; the others and the
  // convolutions run unsplit), with the epilogues fusion marked run apart after the sums.
  TempDir cache;
  CorpusTotals t = checkEveryReference(templateOnly(cache, "32x32x8_4x4_split2"));
  EXPECT_EQ(t.graphs, 10);
  // 32 products and convolutions through the template, 28 products with an even k split.
  EXPECT_EQ(t.templated, 32);
  EXPECT_EQ(t.split, 28);
  // resnet_block's two convolution epilogues still run inside the template; mlp's product
  // epilogue runs apart once its product is split.
  EXPECT_EQ(t.epilogues, 2);
}

TEST(OpenCLRuntime, EveryReferenceWorkloadReproducesItsOutputsThroughATensorCoreTilesFloat32Form) {
  REQUIRE_OPENCL_DEVICE();
  if (!haveBlas())
    GTEST_SKIP() << "built without CLBlast: the GEMM template takes CLBlast's products";
  // A step-sum tensor-core tile forced on every product of the corpus, in its float32 form
  // (gemmFloat32LoopOnly: the loop that computes the tiles the tensor cores' split gets wrong,
  // here every tile, so it runs on any device); the convolutions, which have no tensor-core form,
  // take the first float32 candidate.
  TempDir cache;
  OpenCLOptions options = templateOnly(cache, "64x128x16_32x32_tcs");
  options.gemmFloat32LoopOnly = true;
  CorpusTotals t = checkEveryReference(options);
  EXPECT_EQ(t.graphs, 10);
  EXPECT_EQ(t.templated, 32);
  EXPECT_EQ(t.blas, 0);
  // mlp's GELU inside the float32 form, resnet_block's two inside the convolutions' tiles.
  EXPECT_EQ(t.epilogues, 3);
}

TEST(OpenCLRuntime,
     EveryReferenceWorkloadReproducesItsOutputsThroughTheGemmTemplateWithoutCLBlast) {
  REQUIRE_OPENCL_DEVICE();
  // Without CLBlast (a build without it; useBlas off here) the float32 products are device
  // extern calls, which take the template where it computes (forced here) instead of the
  // naive device matmul. Tuned, so the choices entry in the cache says the template ran.
  TempDir root;
  fs::path cache = root.path.string() + "-choices";
  OpenCLOptions options;
  options.cacheDir = cache.string();
  options.gemm = GemmPolicy::Template;
  options.useBlas = false;
  CorpusTotals t = checkEveryReference(options);
  EXPECT_EQ(t.graphs, 10);
  EXPECT_GT(t.deviceExterns, 20);
  EXPECT_EQ(t.blas, 0);
  int entries = 0;
  std::vector<std::string> epilogueChoices; // mlp's GELU: "fused" or "apart", as timed
  for (const auto &e : fs::directory_iterator(cache))
    if (e.path().filename().string().starts_with("fx_gemm_choices")) {
      ++entries;
      std::ifstream in(e.path());
      for (std::string line; std::getline(in, line);)
        if (line.find("_ep") != std::string::npos)
          epilogueChoices.push_back(line.substr(line.rfind('\t') + 1));
    }
  EXPECT_EQ(entries, 1);
  // The one epilogue of the corpus (as through CLBlast's route), tuned: fused where it timed
  // no slower than apart.
  ASSERT_EQ(epilogueChoices.size(), 1u);
  EXPECT_EQ(t.epilogues, epilogueChoices[0] == "fused" ? 1 : 0) << epilogueChoices[0];
  fs::remove_all(cache);
}

/// The same values within float32 reduction-order tolerance.
void expectClose(const InterpretResult &got, const InterpretResult &want, double rtol,
                 double minAtol) {
  ASSERT_EQ(got.outputs.size(), want.outputs.size());
  for (size_t i = 0; i < got.outputs.size(); ++i) {
    const Tensor *a = got.outputs[i].tensor();
    const Tensor *b = want.outputs[i].tensor();
    ASSERT_EQ(a == nullptr, b == nullptr) << "output " << i;
    if (!a)
      continue;
    ASSERT_EQ(a->dtype(), b->dtype()) << "output " << i;
    ASSERT_EQ(a->sizes(), b->sizes()) << "output " << i;
    double atol = minAtol;
    // Absolute tolerance relative to the output's largest magnitude: float32 sums with
    // cancellation (random unscaled weights) lose digits against the largest terms.
    double scale = 0;
    Tensor::forEachIndex(b->sizes(), [&](std::span<const int64_t> idx) {
      double y = b->getDouble(idx);
      if (std::isfinite(y))
        scale = std::max(scale, std::abs(y));
    });
    atol = std::max(atol, 1e-3 * scale);
    size_t bad = 0;
    Tensor::forEachIndex(b->sizes(), [&](std::span<const int64_t> idx) {
      double x = a->getDouble(idx), y = b->getDouble(idx);
      bool same = (std::isnan(x) && std::isnan(y)) || std::abs(x - y) <= atol + rtol * std::abs(y);
      if (!same && bad++ < 3)
        ADD_FAILURE() << "output " << i << ": " << x << " vs " << y;
    });
  }
}

TEST(OpenCLRuntime, EveryInductorGraphAgreesWithTheInterpreter) {
  REQUIRE_OPENCL_DEVICE();
  TempDir cache;
  OpenCLOptions options;
  options.cacheDir = cache.path.string();
  options.maxTrials = 2;
  constexpr int64_t kMaxElements = 1 << 21;
  size_t graphs = 0, tooLarge = 0;
  for (const fs::path &path : corpusGraphs("inductor", "aten_post")) {
    SCOPED_TRACE(path.string());
    auto graph = importGraphFile(path.string(), GraphFormat::FxText, true);
    ASSERT_TRUE(graph) << graph.error().str();
    // Symbolic sizes get a small odd value, so no size happens to be a power of two.
    SymExpr::Bindings symbols;
    for (Node *n : *graph)
      if (n->op() == OpKind::Placeholder)
        if (const TensorType *t = n->value().tensor())
          for (const SymExpr &s : t->sizes)
            for (const std::string &name : s.symbols())
              symbols[name] = 5;
    auto inputs = makeRandomInputs(*graph, symbols, 11);
    ASSERT_TRUE(inputs) << inputs.error().str();
    // The reference interpreter computes element by element in double: graphs with more than
    // kMaxElements input elements would take minutes (they are covered at reference size by
    // EveryReferenceWorkloadReproducesItsOutputs and on the GPU by bench/opencl/run-gpu.sh).
    int64_t elements = 0;
    for (const RuntimeValue &v : *inputs)
      if (const Tensor *t = v.tensor())
        elements += t->numel();
    if (elements > kMaxElements) {
      ++tooLarge;
      continue;
    }
    auto expected = interpretGraph(*graph, *inputs);
    ASSERT_TRUE(expected) << expected.error().str();
    Compiled c;
    ASSERT_TRUE(compile(graph.take(), c));
    auto result = runOnOpenCL(c, *inputs, options);
    ASSERT_TRUE(result);
    // float32 sums over thousands of terms (matrix products with K = 2048) differ from the
    // interpreter's double by up to ~1e-3 of the terms' magnitude; indexing or fusion errors
    // are of the order of the values themselves.
    expectClose(*result, *expected, 1e-3, 1e-4);
    ++graphs;
  }
  EXPECT_EQ(graphs + tooLarge, 20u);
  EXPECT_GE(graphs, 8u) << tooLarge << " graphs were too large for the interpreter";
}

TEST(OpenCLRuntime, SecondLoadUsesTheCacheAndACorruptEntryIsRebuilt) {
  REQUIRE_OPENCL_DEVICE();
  TempDir cache;
  OpenCLOptions options;
  options.cacheDir = cache.path.string();
  fs::path graph;
  for (const fs::path &p : corpusGraphs("reference"))
    if (p.string().find("layernorm") != std::string::npos)
      graph = p;
  ASSERT_FALSE(graph.empty());

  OpenCLStats first = checkReference(graph, options);
  EXPECT_EQ(first.kernelsBuilt, 1);
  EXPECT_EQ(first.configsTuned, 1);
  OpenCLStats second = checkReference(graph, options);
  EXPECT_EQ(second.kernelsBuilt, 0);
  EXPECT_EQ(second.kernelsFromCache, 1);
  EXPECT_EQ(second.configsTuned, 0);
  EXPECT_EQ(second.configsFromCache, 1);

  // Flip one byte of every cached entry: each must be found corrupt, removed and rebuilt.
  int entries = 0;
  for (const auto &e : fs::directory_iterator(cache.path)) {
    std::fstream f(e.path(), std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(-1, std::ios::end);
    char c = 0;
    f.get(c);
    f.seekp(-1, std::ios::end);
    f.put(static_cast<char>(c ^ 0x5a));
    ++entries;
  }
  EXPECT_EQ(entries, 2); // the binary and the tuned configuration
  OpenCLStats third = checkReference(graph, options);
  EXPECT_EQ(third.corruptCacheEntries, 2);
  EXPECT_EQ(third.kernelsBuilt, 1);
  EXPECT_EQ(third.configsTuned, 1);
  OpenCLStats fourth = checkReference(graph, options);
  EXPECT_EQ(fourth.kernelsFromCache, 1);
  EXPECT_EQ(fourth.corruptCacheEntries, 0);
}

TEST(OpenCLRuntime, AnUnwritableCacheOnlyCostsTime) {
  REQUIRE_OPENCL_DEVICE();
  TempDir dir;
  fs::create_directories(dir.path);
  std::ofstream(dir.path / "file") << "not a folder";
  OpenCLOptions options;
  options.cacheDir = (dir.path / "file" / "cache").string();
  fs::path graph = corpusGraphs("reference").front();
  OpenCLStats s = checkReference(graph, options);
  EXPECT_GT(s.kernelsBuilt, 0);
  EXPECT_FALSE(fs::exists(dir.path / "file" / "cache"));
}

/// Graphs for each code generation path, checked against the reference interpreter under every
/// launch configuration.
const char *kPathGraphs[] = {
    // Softmax: three loops over the reduced points, exp recomputed in the last.
    R"(graph():
    %x : Tensor "f32[7, 33][33, 1]cpu"[num_users=2] = placeholder[target=x]
    %amax : [num_users=1] = call_function[target=torch.ops.aten.amax.default](args = (%x, [1], True), kwargs = {})
    %sub : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x, %amax), kwargs = {})
    %exp : [num_users=2] = call_function[target=torch.ops.aten.exp.default](args = (%sub,), kwargs = {})
    %sum_1 : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%exp, [1], True), kwargs = {})
    %div : [num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%exp, %sum_1), kwargs = {})
    return (div,)
)",
    // var_mean (Welford across lanes), and a mean of the rows.
    R"(graph():
    %x : Tensor "f32[5, 3, 41][123, 41, 1]cpu"[num_users=2] = placeholder[target=x]
    %vm : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%x, [2]), kwargs = {correction: 1, keepdim: True})
    %v : [num_users=1] = call_function[target=operator.getitem](args = (%vm, 0), kwargs = {})
    %m : [num_users=1] = call_function[target=operator.getitem](args = (%vm, 1), kwargs = {})
    %a : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%v, %m), kwargs = {})
    %mean : [num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%x, [0, 1]), kwargs = {})
    return (a, mean)
)",
    // A masked cat, a permuted (transposed) read, and int64 and bool arithmetic.
    R"(graph():
    %x : Tensor "f32[6, 4][4, 1]cpu"[num_users=2] = placeholder[target=x]
    %y : Tensor "f32[6, 3][3, 1]cpu"[num_users=1] = placeholder[target=y]
    %i : Tensor "i64[4, 6][6, 1]cpu"[num_users=2] = placeholder[target=i]
    %cat : [num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%x, %y], 1), kwargs = {})
    %t : [num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%x, [1, 0]), kwargs = {})
    %c : [num_users=1] = call_function[target=torch.ops.aten.gt.Scalar](args = (%i, 2), kwargs = {})
    %w : [num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%c, %t, 0.5), kwargs = {})
    %j : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%i, 3), kwargs = {})
    %max : [num_users=1] = call_function[target=torch.ops.aten.amax.default](args = (%j, [1]), kwargs = {})
    return (cat, w, max)
)",
    // float16 storage: loads, computes in float, stores rounded.
    R"(graph():
    %x : Tensor "f16[9, 17][17, 1]cpu"[num_users=2] = placeholder[target=x]
    %s : [num_users=1] = call_function[target=torch.ops.aten.sigmoid.default](args = (%x,), kwargs = {})
    %m : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%s, %x), kwargs = {})
    %sum : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%m, [1]), kwargs = {})
    return (m, sum)
)",
    // Rows longer than the lanes: persistent (rows held in registers, a partly filled last point
    // per lane) where lanes * points reach 1000 (4 points: lanes=256), looped otherwise.
    R"(graph():
    %x : Tensor "f32[5, 1000][1000, 1]cpu"[num_users=4] = placeholder[target=x]
    %amax : [num_users=1] = call_function[target=torch.ops.aten.amax.default](args = (%x, [1], True), kwargs = {})
    %sub : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x, %amax), kwargs = {})
    %exp : [num_users=2] = call_function[target=torch.ops.aten.exp.default](args = (%sub,), kwargs = {})
    %sum_1 : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%exp, [1], True), kwargs = {})
    %div : [num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%exp, %sum_1), kwargs = {})
    %vm : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%x, [1]), kwargs = {correction: 0, keepdim: True})
    %v : [num_users=1] = call_function[target=operator.getitem](args = (%vm, 0), kwargs = {})
    %m : [num_users=1] = call_function[target=operator.getitem](args = (%vm, 1), kwargs = {})
    %rs : [num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%v,), kwargs = {})
    %c : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x, %m), kwargs = {})
    %n : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%c, %rs), kwargs = {})
    return (div, n)
)",
    // Vector form (float4 loads and stores of 4 consecutive points) where a row's accesses are
    // aligned, scalar loops where not: the slice starts each row 1 point after a multiple of
    // 1001, so rows 3 and 7 of 10 are 16-byte aligned and the others are not; the permuted read
    // (stride 10 in the reduced index) stays scalar inside the vector form.
    R"(graph():
    %x : Tensor "f32[10, 1001][1001, 1]cpu"[num_users=1] = placeholder[target=x]
    %y : Tensor "f32[1000, 10][10, 1]cpu"[num_users=1] = placeholder[target=y]
    %s : [num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%x, 1, 1, 9223372036854775807), kwargs = {})
    %p : [num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%y, [1, 0]), kwargs = {})
    %a : [num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%s, %p), kwargs = {})
    %mean : [num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%a, [1], True), kwargs = {})
    %d : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%a, %mean), kwargs = {})
    return (d,)
)",
    // A column reduction (rows fastest: a row's lanes are fx_W work-items apart) and its
    // epilogue reading the input across rows.
    R"(graph():
    %x : Tensor "f32[37, 24][24, 1]cpu"[num_users=2] = placeholder[target=x]
    %m : [num_users=1] = call_function[target=torch.ops.aten.amax.default](args = (%x, [0], True), kwargs = {})
    %d : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x, %m), kwargs = {})
    return (d,)
)",
};

TEST(OpenCLRuntime, EveryPathAgreesWithTheInterpreterUnderEveryConfiguration) {
  REQUIRE_OPENCL_DEVICE();
  int checked = 0;
  for (const char *text : kPathGraphs) {
    SCOPED_TRACE(text);
    auto graph = parseFxText(text, "<test>");
    ASSERT_TRUE(graph) << graph.error().str();
    auto inputs = makeRandomInputs(*graph, {}, 7);
    ASSERT_TRUE(inputs) << inputs.error().str();
    auto expected = interpretGraph(*graph, *inputs);
    ASSERT_TRUE(expected) << expected.error().str();
    Compiled c;
    ASSERT_TRUE(compile(graph.take(), c));
    std::vector<std::string> configs = {"",
                                        "lanes=1,rows=1",
                                        "lanes=1,rows=64",
                                        "lanes=4,rows=16",
                                        "lanes=32,rows=2",
                                        "lanes=64,rows=1",
                                        "lanes=128,rows=1",
                                        "lanes=128,rows=2",
                                        "lanes=256,rows=1",
                                        "local=1,per_item=1",
                                        "local=64,per_item=4",
                                        "local=16,per_item=16"};
    for (const std::string &config : configs) {
      SCOPED_TRACE("configuration '" + config + "'");
      OpenCLOptions options;
      options.cache = false;
      options.tune = config.empty();
      options.forceConfig = config;
      auto result = runOnOpenCL(c, *inputs, options);
      ASSERT_TRUE(result);
      ASSERT_EQ(result->outputs.size(), expected->outputs.size());
      for (size_t i = 0; i < result->outputs.size(); ++i) {
        const Tensor *got = result->outputs[i].tensor();
        const Tensor *want = expected->outputs[i].tensor();
        ASSERT_TRUE(got && want);
        ASSERT_EQ(got->dtype(), want->dtype());
        ASSERT_EQ(got->sizes(), want->sizes());
        double tol = got->dtype() == DType::Float16 ? 2e-2 : 1e-5;
        Tensor::forEachIndex(want->sizes(), [&](std::span<const int64_t> idx) {
          double a = got->getDouble(idx), b = want->getDouble(idx);
          EXPECT_NEAR(a, b, tol * (1 + std::abs(b))) << "output " << i;
        });
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 84);
}

TEST(OpenCLRuntime, SoftmaxWithInfinitiesAndNaNsIsEagersInEveryForm) {
  REQUIRE_OPENCL_DEVICE();
  // Rows of 1024 points: persistent at 256 lanes, vector form (4 points per step) at 64,
  // looped at 1 lane. Row 0 is all -inf, row 1 holds a +inf, row 2 a NaN, row 3 a -inf among
  // finite values, row 4 is finite: eager gives NaN for rows 0-2 (inf - inf, NaN).
  auto graph = parseFxText(R"(graph():
    %x : Tensor "f32[5, 1024][1024, 1]cpu"[num_users=2] = placeholder[target=x]
    %amax : [num_users=1] = call_function[target=torch.ops.aten.amax.default](args = (%x, [1], True), kwargs = {})
    %sub : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x, %amax), kwargs = {})
    %exp : [num_users=2] = call_function[target=torch.ops.aten.exp.default](args = (%sub,), kwargs = {})
    %sum_1 : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%exp, [1], True), kwargs = {})
    %div : [num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%exp, %sum_1), kwargs = {})
    return (div, sum_1)
)",
                           "<test>");
  ASSERT_TRUE(graph) << graph.error().str();
  std::vector<double> values(5 * 1024);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = std::sin(0.37 * static_cast<double>(i)) * 4;
  for (size_t i = 0; i < 1024; ++i)
    values[i] = -INFINITY;
  values[1024 + 517] = INFINITY;
  values[2 * 1024 + 3] = NAN;
  values[3 * 1024 + 1000] = -INFINITY;
  std::vector<RuntimeValue> inputs{RuntimeValue{fxkit::testing::fromValues({5, 1024}, values)}};
  auto expected = interpretGraph(*graph, inputs);
  ASSERT_TRUE(expected) << expected.error().str();
  Compiled c;
  ASSERT_TRUE(compile(graph.take(), c));
  for (const char *config : {"lanes=256,rows=1", "lanes=64,rows=1", "lanes=1,rows=8"}) {
    SCOPED_TRACE(config);
    OpenCLOptions options;
    options.cache = false;
    options.tune = false;
    options.forceConfig = config;
    auto result = runOnOpenCL(c, inputs, options);
    ASSERT_TRUE(result);
    for (size_t o = 0; o < 2; ++o) {
      const Tensor &got = *result->outputs[o].tensor(), &want = *expected->outputs[o].tensor();
      Tensor::forEachIndex(want.sizes(), [&](std::span<const int64_t> idx) {
        double a = got.getDouble(idx), b = want.getDouble(idx);
        if (std::isnan(b))
          EXPECT_TRUE(std::isnan(a)) << "output " << o << " row " << idx[0] << ": " << a;
        else
          EXPECT_NEAR(a, b, 1e-5 * (1 + std::abs(b))) << "output " << o << " row " << idx[0];
      });
    }
  }
}

TEST(OpenCLRuntime, BadConfigurationAndWrongInputsAreErrors) {
  REQUIRE_OPENCL_DEVICE();
  auto graph = parseFxText(kPathGraphs[0], "<test>");
  ASSERT_TRUE(graph);
  auto inputs = makeRandomInputs(*graph, {}, 1);
  ASSERT_TRUE(inputs);
  Compiled c;
  ASSERT_TRUE(compile(graph.take(), c));
  OpenCLOptions options;
  options.cache = false;
  options.forceConfig = "lanes=3,rows=2";
  auto program = OpenCLProgram::load(*openclContext(), c.program, c.fused, c.plan, options);
  ASSERT_TRUE(program);
  auto r = (*program)->run(*inputs);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("bad launch configuration 'lanes=3,rows=2'"), std::string::npos)
      << r.error().message;
  std::vector<RuntimeValue> none;
  auto r2 = (*program)->run(none);
  ASSERT_FALSE(r2);
  EXPECT_EQ(r2.error().message, "the program has 1 inputs, got 0");
}

} // namespace
