/// compile(graph, PipelineSpec), the one entry point of the compiler: where a spec stops, options
/// reaching the passes that declare them, errors before anything runs, timing per pass and per
/// step of a pipeline, and the passes that used to hide inside `lower` and `fuse` (loop-dce,
/// inline-producers, hoist-size-args) run on their own.

#include "transforms/Pipeline.h"
#include "importers/FxTextParser.h"
#include "importers/Import.h"
#include "transforms/CompilationState.h"
#include "transforms/Fusion.h"
#include "transforms/Lowering.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>

using namespace fxkit;
namespace fs = std::filesystem;

namespace {

/// amax, sub, exp, sum, div over f32[16, 100] (with its nodes.json types): with fusion one
/// online-softmax kernel and its epilogue fused into 1 kernel; without, 2.
Graph softmax() {
  fs::path path = fs::path(FXKIT_TEST_DATA) / "corpus/reference/softmax/fw_0.graph.txt";
  auto graph = importGraphFile(path.string());
  EXPECT_TRUE(graph) << graph.error().str();
  return graph ? graph.take() : Graph();
}

Graph parse(std::string_view text) {
  auto g = parseFxText(text, "<test>");
  EXPECT_TRUE(g) << g.error().str();
  return g ? g.take() : Graph();
}

/// y = exp(neg(x)) returned, relu(x) unused: lowering makes 3 loop ops; loop-dce drops relu's,
/// inline-producers puts neg into exp's body, loop-dce again drops neg's.
constexpr std::string_view kChain = R"(graph():
    %x : Tensor "f32[8, 4][4, 1]cpu" = placeholder[target=x]
    %r : Tensor "f32[8, 4][4, 1]cpu" = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})
    %n : Tensor "f32[8, 4][4, 1]cpu" = call_function[target=torch.ops.aten.neg.default](args = (%x,), kwargs = {})
    %y : Tensor "f32[8, 4][4, 1]cpu" = call_function[target=torch.ops.aten.exp.default](args = (%n,), kwargs = {})
    return (y,)
)";

std::vector<std::string> names(const std::vector<PassRun> &runs) {
  std::vector<std::string> out;
  for (const PassRun &r : runs)
    out.push_back(r.name);
  return out;
}

} // namespace

TEST(Pipeline, KernelsSpecStopsAfterFuse) {
  Graph g = softmax();
  auto result = compile(g, PipelineSpec::toKernels());
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_EQ(names(result->runs),
            (std::vector<std::string>{"decompose", "infer-shapes", "lower", "fuse"}));
  ASSERT_NE(result->state, nullptr);
  EXPECT_TRUE(result->state->program);
  ASSERT_TRUE(result->state->fused);
  EXPECT_FALSE(result->state->plan); // stopped before plan
  EXPECT_EQ(result->state->fused->kernels.size(), 1u);
  // Still the ATen graph: no wrapper pass ran.
  EXPECT_NE(g.find("amax"), nullptr);
  auto program = takeCompiledProgram(g);
  ASSERT_TRUE(program) << program.error().str();
  EXPECT_EQ(program->program.ops.size(), 2u);
  EXPECT_FALSE(program->plan);
  EXPECT_EQ(compilationState(g), nullptr); // taken: nothing left on the graph
}

TEST(Pipeline, FullSpecIsTheRegisteredDefault) {
  EXPECT_EQ(PipelineSpec::full().str(), "lower,fuse,plan,wrapper");
  EXPECT_EQ(PipelineSpec::toPlan().str(), "decompose,infer-shapes,lower,fuse,plan");
  Graph g = softmax();
  auto result = compile(g, PipelineSpec::full());
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_EQ(names(result->runs), (std::vector<std::string>{"lower", "fuse", "plan", "wrapper"}));
  EXPECT_EQ(g.find("amax"), nullptr); // the graph is the wrapper program now
  ASSERT_NE(result->state, nullptr);
  EXPECT_TRUE(result->state->plan);
}

TEST(Pipeline, FusionOptionReachesFuseKernels) {
  Graph fused = softmax(), unfused = softmax();
  PipelineSpec spec = PipelineSpec::toKernels();
  ASSERT_TRUE(compile(fused, spec));
  spec.options.set("fusion", "false");
  auto result = compile(unfused, spec);
  ASSERT_TRUE(result) << result.error().str();
  EXPECT_EQ(compilationState(fused)->fused->kernels.size(), 1u);
  EXPECT_EQ(result->state->fused->kernels.size(), 2u); // one kernel per loop op
}

TEST(Pipeline, AlignmentOptionReachesPlan) {
  // Unfused softmax: buf4 (the 6400-byte output) and two 64-byte row statistics. At the default
  // 64-byte alignment they pack into 6528 bytes at offsets 0, 6400 and 6464 (fxkit fuse
  // --no-fusion --plan); at 4096 every offset is a multiple of 4096.
  auto offsets = [](const loop::MemoryPlan &plan) {
    std::vector<int64_t> out;
    for (const loop::BufferPlacement &b : plan.buffers)
      if (b.kind == loop::BufferPlacement::Kind::Pool)
        out.push_back(b.offset);
    std::sort(out.begin(), out.end());
    return out;
  };
  PipelineSpec spec = PipelineSpec::toPlan();
  spec.options.set("fusion", "false");
  Graph a = softmax();
  ASSERT_TRUE(compile(a, spec));
  EXPECT_EQ(offsets(*compilationState(a)->plan), (std::vector<int64_t>{0, 6400, 6464}));
  EXPECT_EQ(compilationState(a)->plan->poolBytes, 6528);
  spec.options.set("alignment", "4096");
  Graph b = softmax();
  ASSERT_TRUE(compile(b, spec));
  std::vector<int64_t> aligned = offsets(*compilationState(b)->plan);
  ASSERT_EQ(aligned.size(), 3u);
  for (int64_t o : aligned)
    EXPECT_EQ(o % 4096, 0) << o;
}

TEST(Pipeline, UnknownPassOrOptionFailsBeforeAnythingRuns) {
  Graph g = parse(kChain);
  PipelineSpec spec{{"decompose", "infer-shapes", "lower", "frobnicate"}, {}};
  auto bad = compile(g, spec);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "unknown pass 'frobnicate'");
  EXPECT_EQ(compilationState(g), nullptr); // lower did not run
  spec = PipelineSpec::toKernels();
  spec.options.set("alignment", "128"); // read by plan, which this spec does not run
  auto unread = compile(g, spec);
  ASSERT_FALSE(unread);
  EXPECT_EQ(unread.error().message, "no pass of the pipeline reads the option 'alignment'");
  EXPECT_EQ(compilationState(g), nullptr);
  spec = PipelineSpec::toKernels();
  spec.options.set("fusion", "maybe");
  auto value = compile(g, spec);
  ASSERT_FALSE(value);
  EXPECT_EQ(value.error().message,
            "pass 'fuse': pass option 'fusion': expected true or false, got 'maybe'");
}

TEST(Pipeline, TimingPerPassAndPerStep) {
  Graph g = parse(kChain);
  auto result = compile(g, PipelineSpec::toPlan());
  ASSERT_TRUE(result) << result.error().str();
  ASSERT_EQ(result->runs.size(), 5u);
  const PassRun &lower = result->runs[2];
  EXPECT_EQ(lower.name, "lower");
  EXPECT_EQ(names(lower.steps),
            (std::vector<std::string>{"lower-ops", "loop-dce", "inline-producers", "loop-dce",
                                      "split-reductions"}));
  // relu's op is dead, neg inlines into exp, and neg's op is then dead.
  EXPECT_TRUE(lower.steps[1].changed);
  EXPECT_TRUE(lower.steps[2].changed);
  EXPECT_TRUE(lower.steps[3].changed);
  EXPECT_EQ(names(result->runs[3].steps),
            (std::vector<std::string>{"fuse-kernels", "hoist-size-args"}));
  EXPECT_FALSE(result->runs[3].steps[1].changed); // constant sizes: nothing to hoist
  double steps = 0;
  for (const PassRun &s : lower.steps) {
    EXPECT_GE(s.seconds, 0);
    steps += s.seconds;
  }
  EXPECT_LE(steps, lower.seconds);
  EXPECT_TRUE(result->runs[4].steps.empty());
  EXPECT_EQ(compilationState(g)->program->ops.size(), 1u);
  std::string times = formatPassTimes(result->runs);
  EXPECT_NE(times.find("\n  lower-ops "), std::string::npos) << times;
  EXPECT_NE(times.find("\ntotal "), std::string::npos) << times;
  EXPECT_EQ(std::count(times.begin(), times.end(), '\n'), 5 + 5 + 2 + 1);
}

TEST(Pipeline, HiddenStepsRunOnTheirOwn) {
  Graph g = parse(kChain);
  auto raw = compile(g, {{"lower-ops"}, {}});
  ASSERT_TRUE(raw) << raw.error().str();
  EXPECT_EQ(raw->state->program->ops.size(), 3u); // relu, neg, exp
  ASSERT_TRUE(compile(g, {{"loop-dce"}, {}}));
  EXPECT_EQ(compilationState(g)->program->ops.size(), 2u);
  ASSERT_TRUE(compile(g, {{"inline-producers", "loop-dce"}, {}}));
  EXPECT_EQ(compilationState(g)->program->ops.size(), 1u);
  // The same program as lowerGraph, which runs the four steps itself.
  Graph h = parse(kChain);
  auto whole = lowerGraph(h);
  ASSERT_TRUE(whole);
  EXPECT_EQ(compilationState(g)->program->str(), whole->str());
  // Kernels index the program's ops: rewriting it after fuse is refused.
  ASSERT_TRUE(compile(g, {{"fuse-kernels"}, {}}));
  auto late = compile(g, {{"inline-producers"}, {}});
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().message,
            "pass 'inline-producers': inline-producers rewrites the loop program: run it "
            "before 'fuse'");
  // fuse-kernels without hoist-size-args leaves the kernels without size arguments; the pass
  // adds them (the dynamic-shape workload: its symbols s17 and s77), once.
  fs::path path =
      fs::path(FXKIT_TEST_DATA) / "corpus/inductor/dynamic_broadcast/aten_post_0.graph.txt";
  auto dyn = importGraphFile(path.string());
  ASSERT_TRUE(dyn) << dyn.error().str();
  auto fusedOnly = compile(*dyn, {{"lower", "fuse-kernels"}, {}});
  ASSERT_TRUE(fusedOnly) << fusedOnly.error().str();
  size_t args = 0;
  for (const loop::Kernel &k : compilationState(*dyn)->fused->kernels)
    args += k.sizeArgs.size() + k.symbolArgs.size();
  EXPECT_EQ(args, 0u);
  auto hoisted = compile(*dyn, {{"hoist-size-args"}, {}});
  ASSERT_TRUE(hoisted) << hoisted.error().str();
  for (const loop::Kernel &k : compilationState(*dyn)->fused->kernels)
    args += k.sizeArgs.size() + k.symbolArgs.size();
  EXPECT_GT(args, 0u);
  EXPECT_TRUE(hoisted->runs[0].changed);
  auto again = compile(*dyn, {{"hoist-size-args"}, {}});
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->runs[0].changed);
}

TEST(Pipeline, PassListShowsLevelsStepsAndOptions) {
  std::string list = describePasses();
  EXPECT_NE(list.find("  hoist-size-args       kernels -> kernels  "), std::string::npos) << list;
  EXPECT_NE(list.find("  lower                 graph -> loops      "), std::string::npos) << list;
  EXPECT_NE(list.find("pipeline: lower-ops loop-dce inline-producers loop-dce split-reductions\n"),
            std::string::npos)
      << list;
  EXPECT_NE(list.find("option fusion=true: "), std::string::npos) << list;
  EXPECT_NE(list.find("option alignment=64: "), std::string::npos) << list;
  EXPECT_NE(list.find("  wrapper               kernels -> wrapper  "), std::string::npos) << list;
}

namespace {

/// The flag a SIGINT handler would set; the pass below sets it, as a Ctrl-C during it would.
volatile std::sig_atomic_t gTestInterrupt = 0;

void registerInterruptingPass() {
  registerBuiltinPasses();
  PassRegistry::instance().add(
      {"test-ctrl-c", "sets the test's interrupt flag", withoutOptions([](Graph &) -> PassResult {
         gTestInterrupt = 1;
         return false;
       })});
  PassRegistry::instance().add({"test-ctrl-c-pipeline",
                                "test-ctrl-c, then dce",
                                {},
                                PassLevel::Graph,
                                PassLevel::Graph,
                                {},
                                {"test-ctrl-c", "dce"}});
}

} // namespace

// The REPL's Ctrl-C (PassOptions::setInterrupt): runPipeline stops before the next pass or
// pipeline step, names it, and runs nothing after it; without a flag nothing stops.
TEST(Pipeline, InterruptStopsBetweenPassesAndSteps) {
  registerInterruptingPass();
  PassOptions options;
  options.setInterrupt(&gTestInterrupt);

  gTestInterrupt = 1; // before anything runs: nothing does
  Graph g = parse(kChain);
  PipelineSpec spec = PipelineSpec::toKernels();
  spec.options = options;
  auto stopped = compile(g, spec);
  ASSERT_FALSE(stopped);
  EXPECT_EQ(stopped.error().message, "interrupted before pass 'decompose'");
  EXPECT_EQ(compilationState(g), nullptr);
  EXPECT_NE(g.find("r"), nullptr);

  gTestInterrupt = 0; // during the second pass: dce ran, infer-shapes did not
  auto mid = runPipeline(g, {"dce", "test-ctrl-c", "infer-shapes"}, options);
  ASSERT_FALSE(mid);
  EXPECT_EQ(mid.error().message, "interrupted before pass 'infer-shapes'");
  EXPECT_EQ(g.find("r"), nullptr);

  gTestInterrupt = 0; // inside a pipeline: the step after it, and the pipeline, are named
  Graph h = parse(kChain);
  auto step = runPipeline(h, {"test-ctrl-c-pipeline"}, options);
  ASSERT_FALSE(step);
  EXPECT_EQ(step.error().message, "interrupted before pass 'dce' (of 'test-ctrl-c-pipeline')");
  EXPECT_NE(h.find("r"), nullptr);

  gTestInterrupt = 0; // no flag given: the same pipeline runs to its end
  auto whole = runPipeline(h, {"test-ctrl-c-pipeline"});
  ASSERT_TRUE(whole) << whole.error().str();
  EXPECT_EQ(h.find("r"), nullptr);
  gTestInterrupt = 0;
}

// A long pass stops at its own safe points with the pipeline's flag: fusion before each op.
TEST(Pipeline, InterruptStopsFusionBetweenOps) {
  Graph g = parse(kChain);
  auto lowered = compile(g, {{"lower"}, {}});
  ASSERT_TRUE(lowered) << lowered.error().str();
  volatile std::sig_atomic_t flag = 1;
  FusionOptions options;
  options.interrupt = &flag;
  auto fused = fuseLoopProgram(*compilationState(g)->program, options);
  ASSERT_FALSE(fused);
  EXPECT_EQ(fused.error().message.rfind("interrupted after 0 of ", 0), 0u) << fused.error().message;
  flag = 0;
  EXPECT_TRUE(fuseLoopProgram(*compilationState(g)->program, options));
}
