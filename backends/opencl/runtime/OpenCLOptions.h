#pragma once
/// \file How compiled programs run on an OpenCL device, and what they report.

#include <cstdint>
#include <string>
#include <vector>

namespace fxkit::opencl {

/// Who computes float32 matrix products (GemmTemplate.h).
enum class GemmPolicy : uint8_t {
  Auto,     ///< GPUs: the faster of the template and the library, per shape; CPUs: the library
  Template, ///< always fxkit's template
  Library,  ///< always the library (CLBlast)
};

/// The accuracy float32 matrix products keep, as torch.set_float32_matmul_precision names it.
enum class MatmulPrecision : uint8_t {
  /// float32's (the default): float32 FMAs, or, on tensor cores, 3xTF32 products whose steps are
  /// summed in float32 (GemmCompute::TensorCoreStepSums, at least as accurate).
  Highest,
  /// TF32 tensor cores allowed (PyTorch's "high"): the GEMM template's tensor-core tiles that sum
  /// on the tensor cores compete too (3xTF32, more accurate than the plain TF32 PyTorch then
  /// allows).
  High,
};

/// How float32 attention forward runs on the device (DeviceAttention.cpp).
enum class AttentionRoute : uint8_t {
  Kernel, ///< the attention kernels (tiled on GPUs)
  /// Two GEMM template products around a row softmax (DeviceAttentionGemm.h), where the template
  /// computes: measured slower than the tiled kernel on an H200 at every shape of the zoo's
  /// models (bench/README.md), so not the default.
  Gemm,
};

/// A choice made as Inductor makes it for CUDA: on GPUs by default, off on CPUs, or forced (an
/// environment variable, where the choice has one, overrides it: 1 On, 0 Off).
enum class GpuDefault : uint8_t {
  Auto, ///< on GPUs, off on CPUs
  On,
  Off,
};
/// `policy` on a device that is a GPU or not; `env`'s value, where set and not empty, decides.
bool resolveGpuDefault(GpuDefault policy, bool isGpu, const char *env);

struct OpenCLOptions {
  std::string cacheDir; ///< empty: KernelCache's default
  bool cache = true;    ///< use and fill the on-disk cache
  bool tune = true;     ///< autotune launch configurations on first use
  int maxTrials = 8;    ///< configurations timed per kernel and shape
  /// Wall time tuning one kernel and shape may take: once spent (with at least one
  /// configuration timed), the fastest so far is kept. A single huge launch (a 2^30-element row
  /// on a CPU device) otherwise made tuning run for minutes. FXKIT_TUNE_BUDGET_S overrides it.
  double tuneBudgetSeconds = 5.0;
  bool useBlas = true; ///< CLBlast for matrix products, where built with it
  /// A launch configuration every kernel of its kind uses ("lanes=32,rows=8" for reductions,
  /// "local=64,per_item=4" for pointwise kernels), instead of tuning; for tests and experiments.
  std::string forceConfig;
  bool profile = false; ///< time every launch with device events (OpenCLStats::kernelSeconds)
  /// Device extern kernels (DeviceExterns.h) in their GPU form on every device (attention with
  /// lanes per query row instead of a row per work-item), so a CPU device can test that form.
  bool gpuExternForms = false;
  /// Matrix products: the template, the library or the faster per shape (FXKIT_GEMM overrides).
  GemmPolicy gemm = GemmPolicy::Auto;
  /// Matrix products' accuracy (FXKIT_MATMUL_PRECISION=highest|high overrides).
  MatmulPrecision matmulPrecision = MatmulPrecision::Highest;
  /// A GEMM template plan ("64x64x8_4x4", or "64x64x8_4x4_split3": GemmPlan) every template
  /// product uses, instead of timing them (a split that does not divide a product's k runs it
  /// unsplit); for tests.
  std::string gemmTile;
  /// Tensor-core tiles (GemmCompute) compute every tile of C in their float32 loop, which
  /// otherwise computes only the tiles whose operands the tensor cores' 3xTF32 split gets wrong
  /// (a definition of its own without the tensor cores' instructions): on a GPU, to see whether
  /// the tensor cores cause an error; anywhere else (where it lets those tiles run), to test that
  /// loop. FXKIT_GEMM_FLOAT32_LOOP=1|0 overrides.
  bool gemmFloat32LoopOnly = false;
  /// Tensor-core tiles are candidates on any device, their products emulated (TensorCoreMma.h:
  /// each warp's fragments through local memory): to test the tiles' fragment layouts, flags and
  /// float32 form where there are no tensor cores (slow).
  bool gemmTensorCoreEmulation = false;
  /// Float32 attention takes the tensor-core kernel (DeviceAttentionMma.h) in its emulation, one
  /// warp per work-group with its products and shuffles through local memory, on any device: to
  /// test the kernel where there are no tensor cores (slow).
  bool attentionTensorCoreEmulation = false;
  /// Pointwise kernels that fusion marked as the epilogue of the matrix product before them
  /// (loop::FusionKind::GemmEpilogue) run inside the GEMM template where it computes the
  /// product; off, they are launched after it (FXKIT_GEMM_EPILOGUE=0 turns them off too).
  bool gemmEpilogues = true;
  /// Whether a kernel's multi-kernel variants (GeneratedKernel::variants) are built and timed
  /// against it on the first launch of each shape, as Inductor's `MultiKernelCall` times its
  /// kernels (on GPUs, where a form's registers decide occupancy); FXKIT_MULTI_KERNEL=1|0
  /// overrides.
  GpuDefault multiKernel = GpuDefault::Auto;
  /// float32 exp (the exp op, sigmoid, softmax and logsumexp) on the device's approximate exp2 of
  /// x * log2(e), as Triton computes it for Inductor on CUDA (`-DFX_FAST_EXP`, prelude's
  /// fx_exp_f); off, OpenCL's exp. FXKIT_FAST_EXP=1|0 overrides.
  GpuDefault fastExp = GpuDefault::Auto;
  /// Whether tuning also times reduction kernels built for one launch (codegen/LaunchConstants.h:
  /// the row length, lanes and rows as constants, as Triton compiles each configuration) at a few
  /// configurations (launchConstantConfigs) and keeps such a build where it is the fastest;
  /// FXKIT_LAUNCH_CONSTANTS=1|0 overrides.
  GpuDefault launchConstants = GpuDefault::Auto;
  /// Float32 attention forward: FXKIT_ATTENTION=kernel|gemm overrides.
  AttentionRoute attention = AttentionRoute::Kernel;
  /// Attention through the GEMM template (DeviceAttentionGemm.h): the most scores (floats) its
  /// scratch holds; (batch, head) pairs beyond it run in several rounds. Tests lower it.
  int64_t attentionScratchElements = int64_t{1} << 26;
};

/// What a program did, for `--stats`, tests and benchmarks.
struct OpenCLStats {
  int kernelsBuilt = 0;     ///< definitions compiled from source
  int kernelsFromCache = 0; ///< definitions loaded as cached binaries
  int configsTuned = 0;     ///< (kernel, shape) pairs autotuned
  int configsFromCache = 0; ///< (kernel, shape) pairs whose tuned configuration was cached
  int launches = 0;         ///< generated kernel launches
  /// Multi-kernel: (kernel, shape) pairs tuned over the kernel and its variants, and those of
  /// them where a variant was the faster (chosenConfigs names it).
  int variantsTimed = 0, variantsChosen = 0;
  /// Launch constants: builds made for one configuration and row length, and (kernel, shape)
  /// pairs that kept one.
  int constantBuilds = 0, constantsChosen = 0;
  int blasCalls = 0;         ///< extern ops run by CLBlast
  int gemmTemplateCalls = 0; ///< matrix products run by fxkit's GEMM template (GemmTemplate.h)
  int gemmSplitCalls = 0;    ///< of those, with k split in parts (split-K, GemmPlan)
  int gemmEpilogues = 0;     ///< generated kernels run inside the template as a product's epilogue
  int deviceExterns = 0;     ///< extern ops run by fxkit's own device kernels (DeviceExterns.h)
  int hostExterns = 0;       ///< extern ops run on the host
  int corruptCacheEntries = 0;
  int cacheWriteFailures = 0;  ///< binaries not stored (full disk, unwritable folder)
  std::string cacheWriteError; ///< the first such failure, for a warning
  /// Kernels the OpenCL compiler built with warnings (its build log), and the first one's
  /// name and log: a warning on generated code is a code-generation defect worth reporting,
  /// where the driver's own bare "1 warning generated." on stderr says nothing.
  int kernelsWithWarnings = 0;
  std::string firstWarning;
  double buildSeconds = 0;  ///< time spent building (worker threads, summed)
  double waitSeconds = 0;   ///< time runs waited for builds
  double kernelSeconds = 0; ///< device time of generated kernel launches (with profile)
  /// With profile, per run: the device seconds of its extern ops by what ran them (queue
  /// timestamps around each op, tuning trials included on a shape's first call).
  struct ExternSeconds {
    double gemmTemplate = 0, blas = 0, deviceKernels = 0;
  };
  std::vector<ExternSeconds> externSecondsByRun;
};

} // namespace fxkit::opencl
