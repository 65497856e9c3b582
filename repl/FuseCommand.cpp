#include "repl/FuseCommand.h"

#include "importers/Import.h"
#include "ir/ops/ShapeRules.h"
#include "repl/Cli.h"
#include "repl/GraphInput.h"
#include "transforms/MemoryPlanning.h"
#include "transforms/Pipeline.h"

#include <iostream>

namespace fxkit {

int runFuseCommand(const FuseCommandOptions &options) {
  auto graph = readGraphInput(options);
  if (!graph)
    return reportError(graph.error());
  // Decomposed and typed in place, lowered and fused (and planned with --plan): the pipeline
  // `run` compiles with, stopped where the inspection needs it.
  PipelineSpec spec = options.plan ? PipelineSpec::toPlan() : PipelineSpec::toKernels();
  if (options.noFusion)
    spec.options.set("fusion", "false");
  auto compiled = compile(*graph, spec);
  if (!compiled)
    return reportError(compiled.error());
  const CompilationState &state = *compiled->state;
  const loop::LoopProgram *program = &*state.program;
  const loop::FusedProgram *fused = &*state.fused;
  if (options.loops)
    std::cout << program->str();
  if (options.explain)
    std::cout << fused->explain(*program);
  if (options.plan)
    std::cout << describeMemoryPlan(*program, *fused, *state.plan);
  size_t launches = 0, externs = 0;
  for (const loop::Kernel &k : fused->kernels)
    (k.isExtern ? externs : launches) += 1;
  SymExpr bytes = fused->generatedKernelBytes();
  std::cout << "loop ops: " << program->ops.size()
            << ", generated kernels: " << fused->distinctKernels() << " distinct, " << launches
            << " launches; extern calls: " << externs
            << "; kernel bytes read+written: " << bytes.str();
  if (!bytes.isConstant())
    std::cout << " (" << symHint(bytes) << " with every symbol " << kSymbolHint << ")";
  std::cout << "\n";
  return kExitOk;
}

} // namespace fxkit
