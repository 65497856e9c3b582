/// Multi-kernel (issue 23 item 6, Inductor's `MultiKernelCall`): a reduction whose loops read the
/// same input again is generated in both forms, its own and a variant in the other (held in
/// registers, or always looped), each a definition of its own; the OpenCL runtime times both on
/// the first launch of a shape, keeps the faster and caches the choice. Here: which kernels get
/// which variant, the launch configuration's text, every form of both variants against the
/// reference interpreter (NaN and infinite rows included), and the tuned choice's cache.

#include "CompileTestSupport.h"
#include "InterpreterTestSupport.h"
#include "backends/interp/Interpreter.h"
#include "backends/opencl/codegen/OpenCLKernelGen.h"
#include "backends/opencl/runtime/LaunchConfig.h"
#include "backends/opencl/runtime/OpenCLProgram.h"
#include "importers/FxTextParser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>

using namespace fxkit;
using namespace fxkit::opencl;
using namespace fxkit::testing;

namespace {

/// A softmax over rows of `points` (amax, sub, exp, sum, div): its loops read x again.
std::string softmaxGraph(int rows, int points) {
  std::string r = std::to_string(rows), n = std::to_string(points);
  return R"(graph():
    %x : Tensor "f32[)" +
         r + ", " + n + "][" + n + R"(, 1]cpu"[num_users=2] = placeholder[target=x]
    %amax : [num_users=1] = call_function[target=torch.ops.aten.amax.default](args = (%x, [1], True), kwargs = {})
    %sub : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x, %amax), kwargs = {})
    %exp : [num_users=2] = call_function[target=torch.ops.aten.exp.default](args = (%sub,), kwargs = {})
    %sum_1 : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%exp, [1], True), kwargs = {})
    %div : [num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%exp, %sum_1), kwargs = {})
    return (div, sum_1)
)";
}

/// The generated kernels of `text`, with or without variants.
GeneratedProgram generated(const std::string &text, bool variants) {
  GenerateOptions options;
  options.variants = variants;
  return generatedOpenCL(text, options);
}

TEST(MultiKernel, AReductionThatReadsItsRowAgainHasAVariantInTheOtherForm) {
  struct Case {
    int points;
    int persistent;   // the kernel's own persistent points per lane
    std::string name; // its variant's suffix, empty for none
    int variantPoints;
  };
  // Up to 2048 points the kernel holds rows in registers (two float4s per lane) and its variant
  // loops; longer rows, the other way round, with enough points per lane for 512 lanes (8192:
  // 16; 2049: 5, whole float4s: 8) or else 1024 (20000: 20); past 32 x 1024 points no form holds
  // a row.
  for (const Case &c :
       {Case{1000, 8, "_looped", 0}, Case{2048, 8, "_looped", 0}, Case{2049, 0, "_persistent", 8},
        Case{8192, 0, "_persistent", 16}, Case{20000, 0, "_persistent", 20},
        Case{32768, 0, "_persistent", 32}, Case{32769, 0, "", 0}}) {
    SCOPED_TRACE(c.points);
    GeneratedProgram off = generated(softmaxGraph(4, c.points), false);
    GeneratedProgram on = generated(softmaxGraph(4, c.points), true);
    ASSERT_EQ(on.launches.size(), 1u);
    ASSERT_EQ(off.launches.size(), 1u);
    const GeneratedKernel &k = on.launches[0];
    EXPECT_TRUE(off.launches[0].variants.empty()) << "variants only where asked for";
    EXPECT_EQ(k.source, off.launches[0].source) << "the kernel itself is the same either way";
    EXPECT_EQ(k.persistentPoints, c.persistent);
    if (c.name.empty()) {
      EXPECT_TRUE(k.variants.empty());
      continue;
    }
    ASSERT_EQ(k.variants.size(), 1u);
    const KernelVariant &v = k.variants[0];
    EXPECT_EQ(v.name, k.name + c.name);
    EXPECT_EQ(v.persistentPoints, c.variantPoints);
    EXPECT_NE(v.source.find("__kernel void " + v.name + "("), std::string::npos) << v.source;
    // The variant's form, and only there: a register array of its points per lane.
    std::string rowArray = "fx_row0[" + std::to_string(c.variantPoints) + "]";
    EXPECT_EQ(v.source.find("fx_persistent") != std::string::npos, c.variantPoints > 0);
    EXPECT_EQ(v.source.find(rowArray) != std::string::npos, c.variantPoints > 0);
    EXPECT_EQ(k.source.find("fx_persistent") != std::string::npos, c.persistent > 0);
    // `--to opencl` text of a program generated with variants holds both definitions.
    std::string all = on.source();
    EXPECT_NE(all.find("__kernel void " + k.name + "("), std::string::npos);
    EXPECT_NE(all.find("__kernel void " + v.name + "("), std::string::npos);
  }
}

TEST(MultiKernel, NoVariantWhereNoFormWouldHoldAnything) {
  // A row sum reads each point once: nothing to hold, so one form (at 1000 and at 8192 points).
  for (int points : {1000, 8192}) {
    SCOPED_TRACE(points);
    std::string n = std::to_string(points);
    GeneratedProgram g = generated(R"(graph():
    %x : Tensor "f32[4, )" + n + "][" + n +
                                       R"(, 1]cpu"[num_users=1] = placeholder[target=x]
    %s : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%x, [1]), kwargs = {})
    return (s,)
)",
                                   true);
    ASSERT_EQ(g.launches.size(), 1u);
    EXPECT_TRUE(g.launches[0].isReduction);
    EXPECT_TRUE(g.launches[0].variants.empty());
  }
  // Pointwise kernels have one form.
  GeneratedProgram p = generated(R"(graph():
    %x : Tensor "f32[64, 64][64, 1]cpu"[num_users=1] = placeholder[target=x]
    %r : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})
    return (r,)
)",
                                 true);
  ASSERT_EQ(p.launches.size(), 1u);
  EXPECT_TRUE(p.launches[0].variants.empty());
}

TEST(MultiKernel, LaunchConfigurationNamesItsVariant) {
  auto c = LaunchConfig::parse("lanes=512,rows=1,variant=1");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->lanes, 512);
  EXPECT_EQ(c->rows, 1);
  EXPECT_EQ(c->variant, 1);
  EXPECT_EQ(c->str(true), "lanes=512,rows=1,variant=1");
  auto p = LaunchConfig::parse("local=128,per_item=4");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->variant, 0);
  EXPECT_EQ(p->str(false), "local=128,per_item=4");
  // A cached or forced text is trusted only whole: no variant 0, no trailing text.
  for (const char *bad :
       {"lanes=512,rows=1,variant=0", "lanes=512,rows=1,variant=x", "lanes=512,rows=1,variant=1x",
        "lanes=512,rows=1x", "lanes=65536,rows=65536", "local=64,per_item=4,variant=-2"})
    EXPECT_FALSE(LaunchConfig::parse(bad)) << bad;
}

/// Runs `c` on the OpenCL device with `options`; expects `expected`'s outputs (NaN where it has
/// NaN, the same infinity where it has one).
void expectOutputs(const Compiled &c, std::span<const RuntimeValue> inputs,
                   const InterpretResult &expected, const OpenCLOptions &options,
                   OpenCLStats *stats = nullptr) {
  auto result = runOnOpenCL(c, inputs, options, stats);
  ASSERT_TRUE(result);
  ASSERT_EQ(result->outputs.size(), expected.outputs.size());
  for (size_t o = 0; o < expected.outputs.size(); ++o) {
    const Tensor &got = *result->outputs[o].tensor(), &want = *expected.outputs[o].tensor();
    int wrong = 0;
    Tensor::forEachIndex(want.sizes(), [&](std::span<const int64_t> idx) {
      double a = got.getDouble(idx), b = want.getDouble(idx);
      bool ok =
          std::isnan(b) ? std::isnan(a) : a == b || std::abs(a - b) <= 1e-5 * (1 + std::abs(b));
      if (!ok && wrong++ < 5)
        ADD_FAILURE() << "output " << o << " row " << idx[0] << ": " << a << ", expected " << b;
    });
  }
}

/// Softmax inputs of `rows` x `points` whose rows 0-3 are all -inf, hold a +inf, a NaN, a -inf
/// among finite values (eager gives NaN for rows 0-2); the rest finite.
std::vector<RuntimeValue> softmaxInputs(int rows, int points) {
  std::vector<double> values(static_cast<size_t>(rows) * points);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = std::sin(0.37 * static_cast<double>(i)) * 4;
  for (int i = 0; i < points; ++i)
    values[i] = -INFINITY;
  values[points + points / 2] = INFINITY;
  values[2 * points + 3] = NAN;
  values[3 * points + points - 1] = -INFINITY;
  return {RuntimeValue{fromValues({rows, points}, values)}};
}

/// A softmax of `rows` x `points`, compiled, with softmaxInputs and the interpreter's outputs.
struct SoftmaxRun {
  Compiled compiled;
  std::vector<RuntimeValue> inputs;
  std::optional<InterpretResult> expected;
};
void prepareSoftmax(int rows, int points, SoftmaxRun &out) {
  auto graph = parseFxText(softmaxGraph(rows, points), "<test>");
  ASSERT_TRUE(graph) << graph.error().str();
  out.inputs = softmaxInputs(rows, points);
  auto expected = interpretGraph(*graph, out.inputs);
  ASSERT_TRUE(expected) << expected.error().str();
  out.expected = expected.take();
  ASSERT_TRUE(compile(graph.take(), out.compiled));
}

TEST(MultiKernel, EveryFormOfBothVariantsIsEagers) {
  REQUIRE_OPENCL_DEVICE();
  // Per row length: configurations where the kernel's own form and its variant's hold the row in
  // registers (two float4s per lane: at 128 lanes the last lanes' second float4 is past the end,
  // at 256 whole float4s are), take the vector form, or loop (one lane); rows of 1002 points have
  // no float4s, so they loop even where the lanes could hold them.
  struct Case {
    int points;
    std::vector<std::string> configs;
  };
  for (const Case &c :
       {Case{1000, {"lanes=256,rows=1", "lanes=128,rows=2", "lanes=64,rows=2", "lanes=1,rows=8"}},
        Case{1002, {"lanes=256,rows=1"}},
        // (1024 lanes would hold 8192 points as two float4s each, but the persistent variant
        // needs more registers than an H200 has for 1024 work-items: CL_OUT_OF_RESOURCES.)
        Case{8192, {"lanes=512,rows=1", "lanes=256,rows=1", "lanes=64,rows=1"}}}) {
    SCOPED_TRACE(c.points);
    auto graph = parseFxText(softmaxGraph(6, c.points), "<test>");
    ASSERT_TRUE(graph) << graph.error().str();
    std::vector<RuntimeValue> inputs = softmaxInputs(6, c.points);
    auto expected = interpretGraph(*graph, inputs);
    ASSERT_TRUE(expected) << expected.error().str();
    Compiled compiled;
    ASSERT_TRUE(compile(graph.take(), compiled));
    TempDir cache; // each definition built once, loaded from the cache by the later programs
    for (const std::string &config : c.configs)
      for (const char *variant : {"", ",variant=1"}) {
        SCOPED_TRACE(config + variant);
        OpenCLOptions options;
        options.cacheDir = cache.path.string();
        options.tune = false;
        options.multiKernel = GpuDefault::On;
        options.forceConfig = config + variant;
        expectOutputs(compiled, inputs, *expected, options);
      }
  }
}

TEST(MultiKernel, VarMeanInEveryFormIsEagers) {
  REQUIRE_OPENCL_DEVICE();
  // var_mean over rows of 1000: the persistent form (two float4s per lane at 256 lanes) takes a
  // lane's points at once (their mean, then their squared deviations); a row of huge values (the
  // mean scaled before the adds: no overflow), a constant row (m2 exactly 0), a NaN, and a row
  // whose variance is large.
  const int rows = 5, points = 1000;
  auto graph = parseFxText(R"(graph():
    %x : Tensor "f32[5, 1000][1000, 1]cpu"[num_users=1] = placeholder[target=x]
    %vm : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%x, [1]), kwargs = {correction: 0, keepdim: True})
    %v : [num_users=1] = call_function[target=operator.getitem](args = (%vm, 0), kwargs = {})
    %m : [num_users=1] = call_function[target=operator.getitem](args = (%vm, 1), kwargs = {})
    return (v, m)
)",
                           "<test>");
  ASSERT_TRUE(graph) << graph.error().str();
  std::vector<double> values(static_cast<size_t>(rows) * points);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = std::sin(0.37 * static_cast<double>(i)) * 4 + 1;
  for (int i = 0; i < points; ++i) {
    values[static_cast<size_t>(points + i)] = 2e38; // 4 of them add past float32's largest
    values[static_cast<size_t>(2 * points + i)] = 2.5;
    values[static_cast<size_t>(4 * points + i)] = (i % 2 ? 3e16 : -1e16); // m2 4e35
  }
  values[3 * points + 7] = NAN;
  std::vector<RuntimeValue> inputs = {RuntimeValue{fromValues({rows, points}, values)}};
  auto expected = interpretGraph(*graph, inputs);
  ASSERT_TRUE(expected) << expected.error().str();
  Compiled compiled;
  ASSERT_TRUE(compile(graph.take(), compiled));
  TempDir cache;
  for (const char *config : {"lanes=256,rows=1", "lanes=64,rows=2", "lanes=256,rows=1,variant=1"}) {
    SCOPED_TRACE(config);
    OpenCLOptions options;
    options.cacheDir = cache.path.string();
    options.tune = false;
    options.multiKernel = GpuDefault::On;
    options.forceConfig = config;
    expectOutputs(compiled, inputs, *expected, options);
  }
}

TEST(MultiKernel, TuningTimesBothAndCachesTheChoice) {
  REQUIRE_OPENCL_DEVICE();
  TempDir cache;
  SoftmaxRun run;
  ASSERT_NO_FATAL_FAILURE(prepareSoftmax(8, 4096, run));
  const Compiled &c = run.compiled;
  const std::vector<RuntimeValue> &inputs = run.inputs;
  const std::optional<InterpretResult> &expected = run.expected;
  OpenCLOptions options;
  options.cacheDir = cache.path.string();
  options.maxTrials = 3;
  options.multiKernel = GpuDefault::On;

  // First load: the kernel and its variant built, one shape tuned over both.
  OpenCLStats first;
  expectOutputs(c, inputs, *expected, options, &first);
  EXPECT_EQ(first.kernelsBuilt, 2);
  EXPECT_EQ(first.configsTuned, 1);
  EXPECT_EQ(first.variantsTimed, 1);
  EXPECT_LE(first.variantsChosen, 1);

  // Second: the choice from the cache (variant or not), nothing built or timed again (the
  // definition not chosen may not even be loaded before the program ends).
  OpenCLStats second;
  expectOutputs(c, inputs, *expected, options, &second);
  EXPECT_EQ(second.kernelsBuilt, 0);
  EXPECT_GE(second.kernelsFromCache, 1);
  EXPECT_EQ(second.configsTuned, 0);
  EXPECT_EQ(second.configsFromCache, 1);
  EXPECT_EQ(second.variantsTimed, 0);

  // Without variants the cached choice is not read (it may name one): tuned again, alone.
  options.multiKernel = GpuDefault::Off;
  OpenCLStats off;
  expectOutputs(c, inputs, *expected, options, &off);
  EXPECT_EQ(off.kernelsFromCache, 1);
  EXPECT_EQ(off.kernelsBuilt, 0);
  EXPECT_EQ(off.configsTuned, 1);
  EXPECT_EQ(off.variantsTimed, 0);
}

TEST(MultiKernel, ChosenConfigurationNamesTheVariantThatRuns) {
  REQUIRE_OPENCL_DEVICE();
  Compiled c;
  ASSERT_TRUE(compile(softmaxGraph(4, 1000), c));
  OpenCLOptions options;
  options.cache = false;
  options.multiKernel = GpuDefault::On;
  auto program = OpenCLProgram::load(*openclContext(), c.program, c.fused, c.plan, options);
  ASSERT_TRUE(program) << program.error().str();
  std::vector<RuntimeValue> inputs = softmaxInputs(4, 1000);
  ASSERT_TRUE((*program)->run(inputs));
  auto chosen = (*program)->chosenConfigs();
  ASSERT_EQ(chosen.size(), 1u);
  const std::string &kernel = (*program)->generated().launches[0].name;
  EXPECT_EQ(chosen[0].first, kernel + " x4_r1000");
  // Either the kernel's own configuration, or one that names its looped variant.
  bool variant = chosen[0].second.find(",variant=1") != std::string::npos;
  EXPECT_EQ(variant, chosen[0].second.ends_with(" (" + kernel + "_looped)")) << chosen[0].second;
  EXPECT_EQ((*program)->stats().variantsChosen, variant ? 1 : 0);
}

} // namespace

// Launch constants (codegen/LaunchConstants.h): a reduction built for one configuration and row
// length, its sizes compile-time constants, timed beside the argument-sized builds.

TEST(LaunchConstants, ConfigurationTextNamesThem) {
  for (const char *text :
       {"lanes=128,rows=1,constants", "lanes=512,rows=1,variant=1,constants", "lanes=64,rows=4"}) {
    auto c = LaunchConfig::parse(text);
    ASSERT_TRUE(c) << text;
    EXPECT_EQ(c->launchConstants, std::string_view(text).ends_with(",constants"));
    EXPECT_EQ(c->str(true), text);
  }
  EXPECT_EQ(LaunchConfig::parse("lanes=512,rows=1,variant=1,constants")->variant, 1);
  // Only reductions have them, after the variant, spelt whole.
  for (const char *bad : {"local=64,per_item=4,constants", "lanes=128,rows=1,constants,variant=1",
                          "lanes=128,rows=1,constantsx", "lanes=128,rows=1,constants,constants"})
    EXPECT_FALSE(LaunchConfig::parse(bad)) << bad;
}

TEST(LaunchConstants, ConfigurationsSpreadARowOver8To32PointsPerLane) {
  auto shapes = [](int64_t xnumel, int64_t rnumel, int maxWg, int minLanes) {
    std::string out;
    for (const LaunchConfig &c : launchConstantConfigs(xnumel, rnumel, maxWg, minLanes)) {
      EXPECT_TRUE(c.launchConstants);
      out += (out.empty() ? "" : " ") + std::to_string(c.lanes) + "x" + std::to_string(c.rows);
    }
    return out;
  };
  // Narrow rows share a work-group of 128 work-items; wide ones take up to the device's limit.
  EXPECT_EQ(shapes(65536, 1024, 1024, 1), "128x1 64x2 32x4");
  EXPECT_EQ(shapes(8192, 8192, 1024, 1), "1024x1 512x1 256x1");
  EXPECT_EQ(shapes(8192, 8192, 256, 1), "256x1");
  // A variant that holds its row needs its lanes; few rows leave no idle slots.
  EXPECT_EQ(shapes(8192, 8192, 1024, 512), "1024x1 512x1");
  EXPECT_EQ(shapes(4, 1000, 1024, 1), "128x1 64x2 32x4");
  EXPECT_EQ(shapes(2, 100, 1024, 1), "16x2 8x2 4x2");
  EXPECT_EQ(shapes(1000, 1, 1024, 1), "");
}

TEST(LaunchConstants, EveryFormBuiltForItsLaunchIsEagers) {
  REQUIRE_OPENCL_DEVICE();
  // Softmax rows held in registers (the kernel's own form at 1000 points and its persistent
  // variant at 8192), looped (the variant at 1000, the kernel at 8192), rows of 1002 (no
  // float4s), and a row sum, each built with its sizes constant; against the interpreter.
  struct Case {
    std::string graph;
    std::vector<RuntimeValue> inputs;
    std::vector<std::string> configs;
  };
  std::string rowSum = R"(graph():
    %x : Tensor "f32[6, 1000][1000, 1]cpu"[num_users=1] = placeholder[target=x]
    %s : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%x, [1]), kwargs = {})
    return (s,)
)";
  std::string symbolicRows = softmaxGraph(6, 1000);
  const std::string concrete = "f32[6, 1000][1000, 1]";
  symbolicRows.replace(symbolicRows.find(concrete), concrete.size(), "f32[6, s0][s0, 1]");
  for (const Case &c :
       {Case{softmaxGraph(6, 1000),
             softmaxInputs(6, 1000),
             {"lanes=128,rows=2", "lanes=64,rows=2", "lanes=256,rows=1,variant=1"}},
        Case{softmaxGraph(6, 1002), softmaxInputs(6, 1002), {"lanes=256,rows=1"}},
        Case{softmaxGraph(6, 8192),
             softmaxInputs(6, 8192),
             {"lanes=512,rows=1", "lanes=512,rows=1,variant=1"}},
        Case{rowSum, softmaxInputs(6, 1000), {"lanes=32,rows=4"}},
        // A row length the graph leaves symbolic: the build takes the launch's.
        Case{symbolicRows, softmaxInputs(6, 1000), {"lanes=128,rows=2"}},
        Case{symbolicRows, softmaxInputs(6, 777), {"lanes=128,rows=2", "lanes=32,rows=4"}}}) {
    auto graph = parseFxText(c.graph, "<test>");
    ASSERT_TRUE(graph) << graph.error().str();
    auto expected = interpretGraph(*graph, c.inputs);
    ASSERT_TRUE(expected) << expected.error().str();
    Compiled compiled;
    ASSERT_TRUE(compile(graph.take(), compiled));
    for (const std::string &config : c.configs) {
      SCOPED_TRACE(c.graph.substr(0, 60) + " " + config);
      OpenCLOptions options;
      options.cache = false;
      options.tune = false;
      options.multiKernel = GpuDefault::On;
      options.forceConfig = config + ",constants";
      OpenCLStats stats;
      expectOutputs(compiled, c.inputs, *expected, options, &stats);
      EXPECT_EQ(stats.constantBuilds, 1) << "the forced configuration's own build ran";
    }
  }
}

TEST(LaunchConstants, TuningTimesThemAndCachesTheChoice) {
  REQUIRE_OPENCL_DEVICE();
  TempDir cache;
  SoftmaxRun run;
  ASSERT_NO_FATAL_FAILURE(prepareSoftmax(8, 1000, run));
  const Compiled &c = run.compiled;
  const std::vector<RuntimeValue> &inputs = run.inputs;
  const std::optional<InterpretResult> &expected = run.expected;
  OpenCLOptions options;
  options.cacheDir = cache.path.string();
  options.maxTrials = 2;
  options.multiKernel = GpuDefault::Off;
  options.launchConstants = GpuDefault::On;

  // First: the kernel built, then builds with launch constants for as many configurations as
  // the trials allow (the fastest argument-sized one, then launchConstantConfigs').
  OpenCLStats first;
  expectOutputs(c, inputs, *expected, options, &first);
  EXPECT_EQ(first.kernelsBuilt, 1);
  EXPECT_EQ(first.configsTuned, 1);
  EXPECT_EQ(first.constantBuilds, 2);
  EXPECT_LE(first.constantsChosen, 1);

  // Second: the choice from the cache; a build with launch constants it names comes from the
  // cache too, nothing is timed.
  OpenCLStats second;
  auto program = OpenCLProgram::load(*openclContext(), c.program, c.fused, c.plan, options);
  ASSERT_TRUE(program) << program.error().str();
  ASSERT_TRUE((*program)->run(inputs));
  second = (*program)->stats();
  auto chosen = (*program)->chosenConfigs();
  ASSERT_EQ(chosen.size(), 1u);
  bool constants = chosen[0].second.ends_with(",constants");
  EXPECT_EQ(constants, first.constantsChosen == 1) << chosen[0].second;
  EXPECT_EQ(second.kernelsBuilt, 0);
  EXPECT_EQ(second.configsTuned, 0);
  EXPECT_EQ(second.configsFromCache, 1);
  EXPECT_EQ(second.constantBuilds, constants ? 1 : 0);
  EXPECT_EQ(second.constantsChosen, 0) << "counted where tuned";

  // Off, a cached choice with launch constants still runs as one (the cache names a build).
  options.launchConstants = GpuDefault::Off;
  OpenCLStats off;
  expectOutputs(c, inputs, *expected, options, &off);
  EXPECT_EQ(off.configsTuned, 0);
  EXPECT_EQ(off.constantBuilds, constants ? 1 : 0);
}
