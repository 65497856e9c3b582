#pragma once
/// \file Differential checking of one graph: the reference interpreter is the oracle; the
/// compiled loop program (lower + fuse + plan), the compiled OpenCL program and the text
/// formats (FX text, annotated Python, JSON: export, re-import, graph equality) must agree
/// with it. A failing graph is minimised by delta debugging.

#include "backends/interp/RuntimeValue.h"
#include "ir/Error.h"
#include "ir/Graph.h"
#include "ir/SymExpr.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"
#include "ir/loop/MemoryPlan.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#ifdef FXKIT_HAVE_OPENCL
namespace fxkit::opencl {
class OpenCLContext;
}
#endif

namespace fxkit::testing {

/// A graph compiled for the loop backends: its loop program, fused kernels and memory plan, what
/// OpenCLProgram::load and LLVMProgram::load take.
struct CompiledLoops {
  loop::LoopProgram program;
  loop::FusedProgram fused;
  loop::MemoryPlan plan;
};

/// Compiles `graph` with PipelineSpec::toPlan (decompose and infer shapes in place, lower, fuse,
/// plan), as `fxkit run` does, so that what the differential checker and the tests
/// (CompileTestSupport.h) check is what the CLI runs. Extern loop ops point into `graph`.
Status compileLoops(Graph &graph, CompiledLoops &c);

#ifdef FXKIT_HAVE_OPENCL
/// The default OpenCL device's context, made once per process (building a context and its
/// kernels is slow), or null where there is no device.
opencl::OpenCLContext *openclContext();
#endif

struct DifferentialOptions {
  bool loops = true;   ///< --backend loops
  bool opencl = true;  ///< --backend opencl on the default device (skipped without one)
  bool llvm = false;   ///< --backend llvm (skipped in builds without LLVM; slow: opt in)
  bool formats = true; ///< export and re-import through every text format
  uint64_t inputSeed = 1;
  /// Inputs to run (one per placeholder) instead of seeded random ones: recorded inputs whose
  /// values matter (indices in range, a divisor without zeros).
  const std::vector<RuntimeValue> *inputs = nullptr;
  /// For testing the minimiser: a simulated compiler bug, consulted at the compile stage with
  /// the graph's FX text (a message fails the check).
  std::function<std::optional<std::string>(const std::string &)> injectedBug;
};

/// Where a check failed. Earlier stages mean the graph itself is rejected (a minimisation
/// step that makes one fail there did not keep the bug).
enum class DiffStage { Parse, Infer, Interpret, Formats, Compile, Loops, OpenCL, LLVM };
const char *diffStageName(DiffStage stage);

struct DiffFailure {
  DiffStage stage;
  std::string message;
};

/// Checks the graph in `fxText` with symbols bound as `symbols`; nullopt when every enabled
/// check agrees with the reference interpreter.
std::optional<DiffFailure> checkGraphDifferentially(const std::string &fxText,
                                                    const SymExpr::Bindings &symbols,
                                                    const DifferentialOptions &options = {});

/// Whether an OpenCL device is there for the OpenCL check.
bool haveOpenCLDevice();

/// The smallest graph found (FX text, placeholders typed) that still fails at `failure.stage`
/// (reduceFailingGraph, transforms/GraphReduction.h: the same delta debugging as `fxkit bisect
/// --minimize`).
std::string minimiseFailingGraph(const std::string &fxText, const SymExpr::Bindings &symbols,
                                 const DiffFailure &failure,
                                 const DifferentialOptions &options = {});

} // namespace fxkit::testing
