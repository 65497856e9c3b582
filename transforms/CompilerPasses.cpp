#include "transforms/CompilerPasses.h"

#include "ir/Node.h"
#include "transforms/CompilationState.h"
#include "transforms/Decompose.h"
#include "transforms/Fusion.h"
#include "transforms/Lowering.h"
#include "transforms/MemoryPlanning.h"
#include "transforms/ShapeInference.h"
#include "transforms/SizeArgs.h"
#include "transforms/SplitReductions.h"
#include "transforms/WrapperGraph.h"

#include <functional>

namespace fxkit {

namespace {

/// The graph's state to modify: a copy when a clone of the graph shares it (so a pass never
/// writes into a state another graph reads), the state itself when this graph is its only
/// holder (copying it would copy the whole loop program and its kernels on every pass).
std::shared_ptr<CompilationState> nextState(Graph &graph) {
  auto it = graph.attachments.find(kCompilationStateKey);
  if (it == graph.attachments.end() || !it->second)
    return std::make_shared<CompilationState>();
  if (it->second.use_count() == 1)
    return std::static_pointer_cast<CompilationState>(it->second);
  return std::make_shared<CompilationState>(*static_cast<CompilationState *>(it->second.get()));
}

void store(Graph &graph, std::shared_ptr<CompilationState> state) {
  graph.attachments[kCompilationStateKey] = std::move(state);
}

PassResult lowerOpsPass(Graph &graph) {
  if (CompilationState *s = compilationState(graph); s && s->program)
    return Error("the graph is already lowered");
  bool typed = true;
  for (Node *n : graph)
    typed = typed && (n->op() != OpKind::CallFunction || !n->value().empty());
  bool composite = hasCompositeOps(graph);
  // A typed graph is lowered as it is, without a copy: extern ops point into its own nodes
  // until the wrapper pass replaces them (CompilationState::source). An untyped one, or one
  // with composite ops, is copied, and the copy decomposed and its types inferred, leaving the
  // graph itself as it was.
  std::shared_ptr<Graph> source;
  if (!typed || composite) {
    source = std::make_shared<Graph>(graph.clone());
    source->attachments.clear();
    if (composite)
      if (auto d = decomposeCompositeOps(*source); !d)
        return d.takeError();
    if (Status s = inferShapes(*source); !s)
      return s.takeError();
  }
  auto program = lowerGraphOps(source ? *source : graph);
  if (!program)
    return program.takeError();
  auto state = nextState(graph);
  state->source = std::move(source);
  state->program = program.take();
  store(graph, std::move(state));
  return true;
}

/// A pass that rewrites the loop program in place (before fusion: kernels index its ops).
PassResult loopProgramPass(Graph &graph, const char *name,
                           const std::function<bool(loop::LoopProgram &)> &rewrite) {
  CompilationState *s = compilationState(graph);
  if (!s || !s->program)
    return Error(std::string(name) + " needs a lowered graph: run 'lower' first");
  if (s->fused)
    return Error(std::string(name) + " rewrites the loop program: run it before 'fuse'");
  auto state = nextState(graph);
  bool changed = rewrite(*state->program);
  store(graph, std::move(state));
  return changed;
}

PassResult splitReductionsPass(Graph &graph, const PassOptions &options) {
  SplitReductionOptions split;
  auto splits = options.integer("reduction-splits", split.splits);
  if (!splits)
    return splits.takeError();
  if (*splits < 0)
    return Error("pass option 'reduction-splits': expected 0 (by size), 1 (never) or a number "
                 "of blocks");
  split.splits = *splits;
  return loopProgramPass(graph, "split-reductions",
                         [&](loop::LoopProgram &p) { return splitReductions(p, split); });
}

PassResult fuseKernelsPass(Graph &graph, const PassOptions &options) {
  CompilationState *s = compilationState(graph);
  if (!s || !s->program)
    return Error("fuse needs a lowered graph: run 'lower' first");
  FusionOptions fusion;
  auto enable = options.flag("fusion", fusion.enable);
  if (!enable)
    return enable.takeError();
  fusion.enable = *enable;
  auto recompute = options.integer("max-recompute", static_cast<int64_t>(fusion.maxRecompute));
  if (!recompute)
    return recompute.takeError();
  if (*recompute < 0)
    return Error("pass option 'max-recompute': expected a number of instructions (0 or more)");
  fusion.maxRecompute = static_cast<size_t>(*recompute);
  fusion.interrupt = options.interrupt(); // Ctrl-C between ops, not only after the pass
  auto fused = fuseLoopProgram(*s->program, fusion);
  if (!fused)
    return fused.takeError();
  auto state = nextState(graph);
  state->fused = fused.take();
  store(graph, std::move(state));
  return true;
}

PassResult hoistSizeArgsPass(Graph &graph) {
  CompilationState *s = compilationState(graph);
  if (!s || !s->fused)
    return Error("hoist-size-args needs kernels: run 'lower' and 'fuse' first");
  auto state = nextState(graph);
  bool changed = hoistSizeArgs(*state->program, *state->fused);
  store(graph, std::move(state));
  return changed;
}

PassResult planPass(Graph &graph, const PassOptions &options) {
  CompilationState *s = compilationState(graph);
  if (!s || !s->fused)
    return Error("plan needs kernels: run 'lower' and 'fuse' first");
  MemoryPlanOptions planOptions;
  auto alignment = options.integer("alignment", planOptions.alignment);
  if (!alignment)
    return alignment.takeError();
  if (*alignment < 1)
    return Error("pass option 'alignment': expected a positive number of bytes");
  planOptions.alignment = *alignment;
  auto limit = options.number("plan-time-limit", planOptions.timeLimitSeconds);
  if (!limit)
    return limit.takeError();
  planOptions.timeLimitSeconds = *limit;
  auto plan = planMemory(*s->program, *s->fused, planOptions);
  if (!plan)
    return plan.takeError();
  auto state = nextState(graph);
  state->plan = plan.take();
  store(graph, std::move(state));
  return true;
}

PassResult wrapperPass(Graph &graph) {
  CompilationState *s = compilationState(graph);
  if (!s || !s->fused)
    return Error("wrapper needs kernels: run 'lower' and 'fuse' first");
  // Every move of a graph repoints all its nodes at their new graph: the replaced graph moves
  // once (into the state, when it is the source lowering read: extern ops point at its nodes)
  // and the wrapper is built in place.
  auto attachments = std::move(graph.attachments); // keeps `s` alive
  std::string moduleName = graph.moduleName;
  std::shared_ptr<Graph> replaced;
  Graph separate;
  Graph *into = &separate;
  if (!s->source) {
    replaced = std::make_shared<Graph>(std::move(graph));
    into = &graph;
  }
  const loop::MemoryPlan *plan = s->plan ? &*s->plan : nullptr;
  if (Status st = buildWrapperGraphInto(*into, *s->program, *s->fused, plan); !st) {
    if (replaced)
      graph = std::move(*replaced);
    graph.attachments = std::move(attachments);
    return st.takeError();
  }
  if (replaced)
    s->source = std::move(replaced);
  else
    graph = std::move(separate);
  graph.attachments = std::move(attachments);
  graph.moduleName = std::move(moduleName);
  return true;
}

} // namespace

void registerCompilerPasses(PassRegistry &r) {
  using L = PassLevel;
  auto add = [&r](std::string name, std::string description, PassFn run, L reads, L writes,
                  std::vector<PassOptionInfo> options = {}, std::vector<std::string> steps = {}) {
    r.add({std::move(name), std::move(description), std::move(run), reads, writes,
           std::move(options), std::move(steps)});
  };
  std::vector<std::string> lowerSteps{"lower-ops"};
  for (const LoweringStep &step : loweringSteps())
    lowerSteps.emplace_back(step.pass);
  add("lower",
      "lower ATen ops to loop ops (pointwise bodies, reductions, extern calls; views folded "
      "into index expressions)",
      {}, L::Graph, L::LoopProgram, {}, std::move(lowerSteps));
  add("fuse", "group loop ops into kernels, recording every decision, and hoist size arguments", {},
      L::LoopProgram, L::Kernels, {}, {"fuse-kernels", "hoist-size-args"});
  add("plan",
      "plan memory: liveness over the kernel schedule, in-place reuse, one arena with every "
      "buffer at an offset (exact-size reuse when sizes are symbolic)",
      planPass, L::Kernels, L::Plan,
      {{"alignment", "every pool offset a multiple of this many bytes", "64"},
       {"plan-time-limit", "seconds the pool planner may search", "1"}});
  add("wrapper",
      "replace the graph by the wrapper program: allocations, kernel and extern calls, "
      "frees, size computations",
      withoutOptions(wrapperPass), L::Kernels, L::Wrapper);
  add("substitute-size-args",
      "replace size-node arguments of kernel calls by the expressions they compute",
      withoutOptions(substituteSizeArgs), L::Wrapper, L::Wrapper);
  // The steps of `lower` and `fuse`, after the passes a pipeline names (the list keeps the
  // order it had before they were passes of their own).
  add("lower-ops",
      "lower every ATen node to loop ops (pointwise bodies, reductions, extern calls; views "
      "folded into index expressions), dead ones included",
      withoutOptions(lowerOpsPass), L::Graph, L::LoopProgram);
  add("loop-dce",
      "remove loop ops whose results reach no output, bind no symbol and write no graph input",
      withoutOptions([](Graph &g) { return loopProgramPass(g, "loop-dce", eliminateDeadLoopOps); }),
      L::LoopProgram, L::LoopProgram);
  add("inline-producers",
      "inline small pointwise producers into the loop ops that read them (their index inverted), "
      "as Inductor inlines pointwise nodes",
      withoutOptions(
          [](Graph &g) { return loopProgramPass(g, "inline-producers", inlineSmallProducers); }),
      L::LoopProgram, L::LoopProgram);
  add("split-reductions",
      "split large reductions with too few rows over several work-groups: blocks of reduced "
      "points into partials, then the partials (Inductor's split reductions); every decision "
      "recorded",
      splitReductionsPass, L::LoopProgram, L::LoopProgram,
      {{"reduction-splits", "0: decide by size; 1: never split; N: N blocks where it can", "0"}});
  add("fuse-kernels", "group loop ops into kernels, recording every decision", fuseKernelsPass,
      L::LoopProgram, L::Kernels,
      {{"fusion", "false: one kernel per loop op (the unfused baseline)", "true"},
       {"max-recompute",
        "most scalar instructions one pass over a kernel's reduced points may recompute from "
        "values its earlier passes made (more: the op starts another kernel)",
        std::to_string(FusionOptions{}.maxRecompute)}});
  add("hoist-size-args",
      "give kernels their size symbols as arguments, products of them precomputed by the "
      "wrapper (Inductor's ks0)",
      withoutOptions(hoistSizeArgsPass), L::Kernels, L::Kernels);
}

} // namespace fxkit
