#pragma once
/// \file A compiled program on an OpenCL device: the generated kernels, built lazily in the
/// background, autotuned on the first call with real sizes, cached on disk; buffers placed as
/// the memory plan says (one pool, in-place and reused storage); kernels launched in schedule
/// order; extern ops through CLBlast where it has the routine, otherwise on the host with the
/// reference kernels.
///
/// Lazy compilation follows PyTorch's C++-wrapper design: load() starts building every
/// kernel on worker threads and returns at once; the first launch of a kernel waits for its
/// build, then (for a new shape) times a bounded set of launch configurations and keeps the
/// fastest; later launches only compute the launch size and enqueue.

#include "backends/interp/Interpreter.h"
#include "backends/opencl/codegen/OpenCLKernelGen.h"
#include "backends/opencl/runtime/KernelCache.h"
#include "backends/opencl/runtime/LaunchConfig.h"
#include "backends/opencl/runtime/OpenCLDevice.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"
#include "ir/loop/MemoryPlan.h"

#include <memory>
#include <span>
#include <string>

namespace fxkit::opencl {

struct OpenCLOptions {
  std::string cacheDir; ///< empty: KernelCache's default
  bool cache = true;    ///< use and fill the on-disk cache
  bool tune = true;     ///< autotune launch configurations on first use
  int maxTrials = 8;    ///< configurations timed per kernel and shape
  bool useBlas = true;  ///< CLBlast for matrix products, where built with it
  /// A launch configuration every kernel of its kind uses ("lanes=32,rows=8" for reductions,
  /// "local=64,per_item=4" for pointwise kernels), instead of tuning; for tests and experiments.
  std::string forceConfig;
  bool profile = false; ///< time every launch with device events (OpenCLStats::kernelSeconds)
};

/// What a program did, for `--stats`, tests and benchmarks.
struct OpenCLStats {
  int kernelsBuilt = 0;     ///< definitions compiled from source
  int kernelsFromCache = 0; ///< definitions loaded as cached binaries
  int configsTuned = 0;     ///< (kernel, shape) pairs autotuned
  int configsFromCache = 0; ///< (kernel, shape) pairs whose tuned configuration was cached
  int launches = 0;         ///< generated kernel launches
  int blasCalls = 0;        ///< extern ops run by CLBlast
  int hostExterns = 0;      ///< extern ops run on the host
  int corruptCacheEntries = 0;
  int cacheWriteFailures = 0;  ///< binaries not stored (full disk, unwritable folder)
  std::string cacheWriteError; ///< the first such failure, for a warning
  double buildSeconds = 0;     ///< time spent building (worker threads, summed)
  double waitSeconds = 0;      ///< time runs waited for builds
  double kernelSeconds = 0;    ///< device time of generated kernel launches (with profile)
};

class OpenCLProgram {
public:
  /// Generates the kernels and starts building them; returns at once. `program`, `fused` and
  /// `plan` must outlive the returned object.
  static Expected<std::unique_ptr<OpenCLProgram>>
  load(OpenCLContext &context, const loop::LoopProgram &program, const loop::FusedProgram &fused,
       const loop::MemoryPlan &plan, const OpenCLOptions &options = {});
  ~OpenCLProgram();

  /// Runs the program on `inputs` (one per graph placeholder).
  Expected<InterpretResult> run(std::span<const RuntimeValue> inputs);

  const GeneratedProgram &generated() const;
  const OpenCLStats &stats() const;
  /// The launch configuration each kernel definition and shape uses, for reports.
  std::vector<std::pair<std::string, std::string>> chosenConfigs() const;

private:
  OpenCLProgram();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace fxkit::opencl
