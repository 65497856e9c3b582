#include "repl/FuseCommand.h"

#include "importers/Import.h"
#include "ir/ops/ShapeRules.h"
#include "repl/Cli.h"
#include "transforms/Decompose.h"
#include "transforms/Fusion.h"
#include "transforms/Lowering.h"
#include "transforms/MemoryPlanning.h"
#include "transforms/ShapeInference.h"

#include <iostream>

namespace fxkit {

int runFuseCommand(const FuseCommandOptions &options) {
  auto fail = [](const Error &e) {
    std::cerr << "fxkit: " << e.str() << "\n";
    return kExitBadInput;
  };
  std::optional<GraphFormat> format;
  if (!options.from.empty() && !(format = parseGraphFormat(options.from)))
    return fail(Error("unknown format '" + options.from + "' for --from"));
  auto graph = importGraphFile(options.graph, format, true, options.provenance);
  if (!graph)
    return fail(graph.error());
  if (hasCompositeOps(*graph))
    if (auto d = decomposeCompositeOps(*graph); !d)
      return fail(d.error());
  if (Status s = inferShapes(*graph); !s)
    return fail(s.error());
  auto program = lowerGraph(*graph);
  if (!program)
    return fail(program.error());
  if (options.loops)
    std::cout << program->str();
  FusionOptions fusionOptions;
  fusionOptions.enable = !options.noFusion;
  auto fused = fuseLoopProgram(*program, fusionOptions);
  if (!fused)
    return fail(fused.error());
  if (options.explain)
    std::cout << fused->explain(*program);
  if (options.plan) {
    auto plan = planMemory(*program, *fused);
    if (!plan)
      return fail(plan.error());
    std::cout << describeMemoryPlan(*program, *fused, *plan);
  }
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
