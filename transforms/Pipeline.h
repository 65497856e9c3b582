#pragma once
/// \file The one entry point of the compiler: compile(graph, spec) runs a pipeline of
/// registered passes (transforms/Pass.h) over the graph, each timed, the graph verified after
/// each pass that rewrites it, and leaves the compilation in the graph's CompilationState: the
/// loop program (`lower`), its kernels (`fuse`), the memory plan (`plan`), and the wrapper
/// program in place of the graph (`wrapper`). Every command, the REPL and the tests compile
/// through it; which passes run and with which options is data (PipelineSpec).

#include "transforms/CompilationState.h"
#include "transforms/Pass.h"

#include <optional>
#include <string>
#include <vector>

namespace fxkit {

/// Which registered passes to run, in order, and the options they read.
struct PipelineSpec {
  std::vector<std::string> passes;
  PassOptions options;

  /// `fxkit compile`'s default, the registered default pipeline: lower, fuse, plan, wrapper.
  /// The graph becomes the wrapper program; lowering reads a decomposed, typed copy of it
  /// when it has composite ops or untyped nodes.
  static PipelineSpec full();
  /// To kernels and their memory plan, the graph decomposed and typed in place first and kept
  /// as the ATen graph (what `run` executes and the tests check): decompose, infer-shapes,
  /// lower, fuse, plan.
  static PipelineSpec toPlan();
  /// As toPlan, stopping after fuse (the inspection commands: `fuse`, the REPL's kernel view).
  static PipelineSpec toKernels();

  /// The passes as `--passes` spells them: "lower,fuse,plan,wrapper".
  std::string str() const;
};

/// What compile() did and left.
struct CompileResult {
  std::vector<PassRun> runs; ///< per pass, pipelines with their steps (`--time-passes`)
  /// The graph's compilation state; null when no compiler pass ran (e.g. only `dce`).
  CompilationState *state = nullptr;
};

/// Runs `spec` on `graph` (runPipeline): unknown passes and options no pass reads are errors
/// before anything runs; a failing pass's error names it, and the graph is then as that pass
/// left it (callers that must keep the graph compile a clone). With an interrupt flag in
/// `spec.options` (PassOptions::setInterrupt, the REPL's Ctrl-C) it stops between passes.
Expected<CompileResult> compile(Graph &graph, const PipelineSpec &spec);

/// The program a compilation left in `graph`'s CompilationState, moved out of it for the
/// executors and checks that take its parts. The state is dropped, unless it holds the copy of
/// the graph lowering read (extern ops point into it): then it stays, holding only that copy.
/// Without such a copy the extern ops point into `graph`, which must outlive the program.
struct CompiledProgram {
  loop::LoopProgram program;
  loop::FusedProgram fused;
  std::optional<loop::MemoryPlan> plan; ///< when `plan` ran
};
/// Errors when no `lower` and `fuse` ran on `graph`.
Expected<CompiledProgram> takeCompiledProgram(Graph &graph);

/// Pass times as `--time-passes` prints them: one line per pass (name, milliseconds, changed or
/// unchanged), a pipeline's steps indented under it, then the total.
std::string formatPassTimes(const std::vector<PassRun> &runs);

} // namespace fxkit
