#pragma once
/// \file How a generated kernel is launched: work-group size and elements per work-item for
/// pointwise kernels; lanes per row and rows per work-group for reductions. The candidates that
/// autotuning times, and the default when it does not run.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fxkit::opencl {

struct LaunchConfig {
  int local = 128; ///< work-group size (pointwise); lanes * rows for reductions
  int perItem = 1; ///< pointwise: elements each work-item handles (grid-stride)
  int lanes = 1;   ///< reductions: work-items per row (a power of two)
  int rows = 1;    ///< reductions: rows per work-group
  /// Multi-kernel: which definition runs, 0 the kernel itself, N its N-th variant (KernelSpec).
  int variant = 0;
  /// Reductions: the definition runs as a build of its own for this configuration and row length
  /// (codegen/LaunchConstants.h), not as its argument-sized build.
  bool launchConstants = false;
  /// "local=128,per_item=4" or "lanes=32,rows=8", with ",variant=N" where N > 0, then ",constants"
  /// with launch constants.
  std::string str(bool reduction) const;
  static std::optional<LaunchConfig> parse(std::string text);
  /// Global work size for `xnumel` rows; a pointwise kernel's work-items take `pointsPerStep`
  /// consecutive points per step of their loop (its vector form: KernelSpec::pointsPerStep).
  int64_t globalSize(bool reduction, int64_t xnumel, int pointsPerStep = 1) const;
};

/// The configurations worth timing for a kernel of `xnumel` rows of `rnumel` reduced points on a
/// device with `maxWorkGroup` work-items per group, most promising first. Reductions with
/// `minLanes` (a multi-kernel variant whose persistent form needs that many lanes for a row):
/// only configurations of at least that many lanes, and that many and twice as many lanes with
/// one row per work-group where the device allows them.
std::vector<LaunchConfig> candidateConfigs(bool reduction, int64_t xnumel, int64_t rnumel,
                                           int maxWorkGroup, bool gpu, int minLanes = 1);
/// Reductions of rows of `rnumel` points: the configurations worth a build with launch constants
/// (LaunchConstants.h), most promising first. A row's points spread over lanes for 8, 16 and 32
/// points per lane, at least `minLanes` and at most `maxWorkGroup`; narrow rows take several per
/// work-group (128 work-items). Empty for rows of one point.
std::vector<LaunchConfig> launchConstantConfigs(int64_t xnumel, int64_t rnumel, int maxWorkGroup,
                                                int minLanes = 1);
/// The configuration used without tuning.
LaunchConfig defaultConfig(bool reduction, int64_t xnumel, int64_t rnumel, int maxWorkGroup,
                           bool gpu);

} // namespace fxkit::opencl
