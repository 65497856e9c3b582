#pragma once
/// \file The distinct kernel definitions of a compiled program on one device: built lazily on
/// worker threads (from the on-disk cache where it has them), launched with a configuration
/// autotuned on the first launch of each shape (or the default, or a forced one), the tuned
/// configurations written back to the cache. Shared by OpenCLProgram (fxkit's own runner) and
/// the runtime library the exported C++ wrapper links (backends/opencl/rt/).

#include "backends/opencl/runtime/DeviceBuffer.h"
#include "backends/opencl/runtime/KernelCache.h"
#include "backends/opencl/runtime/LaunchConfig.h"
#include "backends/opencl/runtime/OpenCLDevice.h"
#include "backends/opencl/runtime/OpenCLOptions.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace fxkit::opencl {

/// The tuning budget of one kernel and shape, in seconds of timing (builds not counted where a
/// tuner can tell them apart): FXKIT_TUNE_BUDGET_S where set to a positive number, else the
/// options'.
double tuneBudgetSeconds(const OpenCLOptions &options);

/// A multi-kernel variant of a definition: another `__kernel` with the same parameters.
struct KernelVariantSpec {
  std::string name;
  std::string source; ///< with the prelude, as KernelSpec::source
  /// Rows fit its persistent form where rnumel <= persistentPoints * lanes: tuning times it only
  /// in such configurations (0: in every one).
  int persistentPoints = 0;
};

/// One kernel definition to build: the `__kernel` function named `name` in `source` (the
/// source holds the prelude too).
struct KernelSpec {
  std::string name;
  std::string source;
  bool isReduction = false;
  /// Multi-kernel (OpenCLOptions::multiKernel): definitions of the same kernel in other forms.
  /// Where they are used, they are built beside it and tuning times every one of them; the
  /// configuration it keeps names the one that launches (LaunchConfig::variant).
  std::vector<KernelVariantSpec> variants;
  /// A pointwise kernel's points per work-item and step of its loop (GeneratedKernel::vectorWidth
  /// of its vector form; 1 without one): its launches need that many times fewer work-items.
  int pointsPerStep = 1;
};

/// One argument of a launch, in the kernel's parameter order.
struct LaunchArg {
  enum class Kind : uint8_t {
    Buffer,  ///< a cl_mem and its byte offset (two kernel arguments)
    Long,    ///< a size or numel
    Lanes,   ///< fx_L: the configuration's lanes per row
    Rows,    ///< fx_W: the configuration's rows per work-group
    Scratch, ///< local memory, `scratchBytesPerItem` per work-item
  };
  Kind kind = Kind::Long;
  DeviceBuffer buffer;  ///< Buffer
  bool written = false; ///< Buffer: the kernel stores to it
  int64_t value = 0;    ///< Long
  int scratchBytesPerItem = 0;
};

class KernelSet {
public:
  /// Starts building every definition on worker threads and returns at once. The cache key of a
  /// definition hashes its source, `buildOptions`, and the device's platform, name and driver.
  static Expected<std::unique_ptr<KernelSet>> load(OpenCLContext &context,
                                                   std::vector<KernelSpec> kernels,
                                                   std::string buildOptions,
                                                   const OpenCLOptions &options);
  /// Whether `options` has multi-kernel variants built and timed on a device (a GPU where
  /// `isGpu`); FXKIT_MULTI_KERNEL=1|0 overrides. Where not, KernelSpec::variants are ignored.
  static bool usesVariants(const OpenCLOptions &options, bool isGpu);
  /// Joins the workers and stores tuned configurations in the cache.
  ~KernelSet();
  KernelSet(const KernelSet &) = delete;
  KernelSet &operator=(const KernelSet &) = delete;

  /// The index of the definition named `name`, or -1.
  int find(const std::string &name) const;
  /// Launches definition `index` over `xnumel` rows of `rnumel` reduced points (1 for
  /// pointwise kernels): waits for its build, picks its configuration for this shape, enqueues.
  Status launch(size_t index, std::span<const LaunchArg> args, int64_t xnumel, int64_t rnumel);
  /// Launches definition `index` in `config` (no tuning): a kernel whose work-group size is
  /// fixed by its source (a GEMM template's tile). With `timed`, waits for it and returns its
  /// device seconds (a tuning trial; not counted as a launch); else 0.
  Expected<double> launchWith(size_t index, std::span<const LaunchArg> args, int64_t xnumel,
                              const LaunchConfig &config, bool timed);

  /// Adds the device time of the profiled launches enqueued so far (OpenCLOptions::profile) to
  /// stats().kernelSeconds, waiting for them: call it after a run's wait.
  void collectProfile();
  OpenCLStats &stats();
  /// "kernel x<xnumel>_r<rnumel>" -> the configuration it uses ("lanes=512,rows=1,variant=1
  /// (NAME_persistent)" where a variant runs), for reports.
  std::vector<std::pair<std::string, std::string>> chosenConfigs() const;
  const KernelCache &cache() const;

private:
  KernelSet();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace fxkit::opencl
