#pragma once
/// \file What the device extern kernel families (DeviceAttention.cpp, DeviceSort.cpp,
/// DeviceConvolution.cpp, DeviceMatmul.cpp, DeviceBatchNorm.cpp, DeviceEmbeddingBag.cpp,
/// DeviceFft.cpp, DeviceIndexPut.cpp) share: the call's operands evaluated to device views, the
/// launch arguments, the kernel variants and the launcher. Internal to DeviceExterns.cpp and those
/// files.

#include "backends/opencl/runtime/DeviceBuffer.h"
#include "backends/opencl/runtime/DeviceExternList.h"
#include "backends/opencl/runtime/GemmTemplate.h"
#include "backends/opencl/runtime/KernelSet.h"
#include "backends/opencl/runtime/OpenCLDevice.h"
#include "backends/opencl/runtime/OpenCLOptions.h"
#include "ir/DType.h"
#include "ir/SymExpr.h"
#include "ir/loop/LoopIR.h"
#include "ir/ops/OpRegistry.h"

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fxkit::opencl::device_externs {

/// How a kernel definition computes: in float (float32, float16, bfloat16 operands), in double
/// (float64 operands; built only on devices with cl_khr_fp64), or on 64-bit integers (sort keys
/// of integer and bool tensors). The kernel named `N` in a family's source is built as `N_f`,
/// `N_d` and `N_l` with the macros FX_ACC, FX_LD, FX_ST, FX_KEY, FX_LDKEY, FX_KEY_ISNAN,
/// FX_BITS (a float argument from its bits) and FX_NAME(n) defined for the variant.
enum class Variant : uint8_t { Float, Double, Long };

/// "_f", "_d", "_l".
std::string_view variantSuffix(Variant v);

/// The variant that computes on `dtype` in a kernel family that accumulates in floating point
/// (Float or Double), or nullopt when there is none: float64 needs cl_khr_fp64, integer dtypes
/// are not taken.
std::optional<Variant> floatingVariant(DType dtype, const DeviceInfo &device);

/// The code the kernels switch on for a dtype (the FX_DT_* macros), or -1 when no kernel loads
/// or stores it (complex, float8).
int dtypeCode(DType dtype);

/// A tensor operand of one call: its device storage from its first element, dtype, and
/// evaluated sizes and strides (elements).
struct Operand {
  DeviceBuffer buffer; ///< offset: of the view's first element; bytes: the elements it spans
  DType dtype = DType::Float32;
  std::vector<int64_t> sizes, strides;
  int64_t numel() const;
  int64_t dim() const { return static_cast<int64_t>(sizes.size()); }
};

/// One extern op's call: its bound arguments and its operands on the device.
class Call {
public:
  /// Nullopt when the op's node has no registered schema or its arguments do not bind.
  static std::optional<Call> make(const OpenCLContext &ctx, const OpenCLOptions &options,
                                  const loop::LoopProgram &program, const loop::LoopOp &op,
                                  const SymExpr::Bindings &bindings,
                                  std::span<const DeviceBuffer> buffers);

  const BoundArgs &args() const { return *args_; }
  const OpenCLContext &context() const { return *ctx_; }
  const OpenCLOptions &options() const { return *options_; }
  const DeviceInfo &device() const { return ctx_->device(); }
  /// Whether kernels take their GPU form (a GPU, OpenCLOptions::gpuExternForms, or
  /// FXKIT_GPU_EXTERN_FORMS=1: whole models through the GPU forms on a CPU device).
  bool gpuForms() const;
  const SymExpr::Bindings &bindings() const { return *bindings_; }
  /// Whether the tensor argument `name` is None (or absent from the schema).
  bool isNone(std::string_view name) const;
  /// The tensor argument `name` as a device view (complex ones included: check the dtype);
  /// nullopt when it is None, not a tensor, or its view cannot be evaluated or is misaligned
  /// or negatively strided.
  std::optional<Operand> input(std::string_view name) const;
  /// The `Tensor?[]` argument `name`, an entry per item (nullopt for None); nullopt when it is
  /// not a list or an item's view cannot be evaluated.
  std::optional<std::vector<std::optional<Operand>>> inputList(std::string_view name) const;
  /// Result `i` in the layout inference chose for its buffer; nullopt when there is none.
  std::optional<Operand> output(size_t i) const;
  size_t numOutputs() const { return op_->externOutputs.size(); }
  /// Whether result `i` is None (an output_mask left it out: it has no buffer).
  bool resultIsNone(size_t i) const {
    return i < op_->externOutputs.size() && op_->externOutputs[i] < 0;
  }
  /// An integer argument (int or SymInt) evaluated; nullopt when it is not one.
  std::optional<int64_t> integer(std::string_view name) const;
  /// Whether a result's storage overlaps an input's (an in-place plan): the kernels read their
  /// inputs while other work-items write, so such a call is declined.
  bool outputsOverlapInputs() const;
  /// The generated kernel a matrix product may run at each element of its result (null: none).
  GemmEpilogue *epilogue() const { return epilogue_; }
  void setEpilogue(GemmEpilogue *e) { epilogue_ = e; }

private:
  Call() = default;
  const loop::LoopProgram *program_ = nullptr;
  const loop::LoopOp *op_ = nullptr;
  const SymExpr::Bindings *bindings_ = nullptr;
  const OpenCLContext *ctx_ = nullptr;
  const OpenCLOptions *options_ = nullptr;
  std::span<const DeviceBuffer> buffers_;
  std::optional<BoundArgs> args_;
  GemmEpilogue *epilogue_ = nullptr;
  std::optional<Operand> view(const loop::BufferView &v) const;
};

/// Launch arguments in a kernel's parameter order.
LaunchArg bufferArg(const Operand &operand, bool written);
LaunchArg bufferArg(const DeviceBuffer &buffer, bool written);
LaunchArg longArg(int64_t value);
/// Each value of each list as a long argument, in order (a kernel's FX_STRIDESn parameters).
inline void appendLongs(std::vector<LaunchArg> &args,
                        std::initializer_list<std::span<const int64_t>> lists) {
  for (std::span<const int64_t> list : lists)
    for (int64_t v : list)
      args.push_back(longArg(v));
}
/// Each of `values` as a long argument, in order.
inline void appendLongs(std::vector<LaunchArg> &args, std::initializer_list<int64_t> values) {
  for (int64_t v : values)
    args.push_back(longArg(v));
}
/// A float argument as the bits FX_BITS reads back in `variant`: float32 bits for Float and
/// Long, float64 bits for Double.
LaunchArg floatArg(double value, Variant variant);
LaunchArg lanesArg();
LaunchArg rowsArg();
LaunchArg scratchArg(int bytesPerItem);

/// A family's kernels on one context, launched by name.
class Launcher {
public:
  /// The kernel set of one definition (name with the variant's suffix), built on first use.
  using Loader = std::function<Expected<KernelSet *>(const std::string &definition)>;
  Launcher(Loader loader, Variant variant) : loader_(std::move(loader)), variant_(variant) {}
  Variant variant() const { return variant_; }
  /// Launches `name` + the variant's suffix over `xnumel` rows of `rnumel` points (pointwise
  /// kernels: rnumel 1) with KernelSet's launch rules and tuning.
  Status launch(std::string_view name, std::span<const LaunchArg> args, int64_t xnumel,
                int64_t rnumel);
  /// Launches `name` + the variant's suffix in `config`, untuned (KernelSet::launchWith).
  Expected<double> launchWith(std::string_view name, std::span<const LaunchArg> args,
                              int64_t xnumel, const LaunchConfig &config, bool timed);

private:
  Loader loader_;
  Variant variant_;
};

/// Loads a definition whose whole source its caller makes (the GEMM template with a fused
/// epilogue), once per context and name: `source` is asked for only when it is not loaded yet.
using SourceLoader = std::function<Expected<KernelSet *>(
    const std::string &definition, const std::function<std::string()> &source)>;

/// What every family's source starts with in `variant`: the generated kernels' prelude (with
/// cl_khr_fp64 for Double, or where `fp64` asks for it), the variant's macros and the loads and
/// stores by dtype code.
std::string familyPrelude(Variant variant, bool fp64 = false);

/// A temporary device buffer, released when it goes (commands already enqueued on it keep it
/// alive until they complete, as OpenCL specifies).
class TempBuffer {
public:
  static Expected<TempBuffer> create(const OpenCLContext &ctx, size_t bytes);
  /// A read-only buffer holding `values` (a kernel's shape tables), copied at creation, so
  /// nothing waits on the queue.
  static Expected<TempBuffer> fromHost(const OpenCLContext &ctx, std::span<const int64_t> values);
  /// A read-only buffer holding `bytes` bytes from `data` (at least one byte).
  static Expected<TempBuffer> fromHostBytes(const OpenCLContext &ctx, const void *data,
                                            size_t bytes);
  TempBuffer(TempBuffer &&other) noexcept : mem_(other.mem_), bytes_(other.bytes_) {
    other.mem_ = nullptr;
  }
  TempBuffer(const TempBuffer &) = delete;
  TempBuffer &operator=(const TempBuffer &) = delete;
  TempBuffer &operator=(TempBuffer &&) = delete;
  ~TempBuffer();
  DeviceBuffer buffer() const { return {mem_, 0, bytes_}; }

private:
  TempBuffer(cl_mem mem, size_t bytes) : mem_(mem), bytes_(bytes) {}
  cl_mem mem_ = nullptr;
  size_t bytes_ = 0;
};

/// A device scratch buffer kept between one family's calls on one context (the family's lock is
/// held for a whole call, and the queue runs in order, so a later call's kernels start after an
/// earlier call's finished with it): it grows to the largest request instead of being allocated
/// per call. A replaced buffer lives on until the commands enqueued on it complete.
class ScratchBuffer {
public:
  /// At least `bytes` bytes; its contents are unspecified.
  Expected<DeviceBuffer> get(const OpenCLContext &ctx, size_t bytes);

private:
  std::optional<TempBuffer> buffer_;
  size_t bytes_ = 0;
};

/// What one family keeps between its calls on one context (its lock is held for a whole call).
struct FamilyState {
  ScratchBuffer scratch;   ///< attention's scores (DeviceAttentionGemm.h)
  ScratchBuffer bound;     ///< attention's bounds of Q, K and V (fx_attention_bounds)
  ScratchBuffer maskTiles; ///< attention's mask flags per block (fx_attention_mask_tiles)
  /// The tensor-core attention form timed fastest per shape (chooseAttentionMma), loaded from
  /// the kernel cache at the first call that tunes and stored back when it chose a new one.
  std::map<std::string, std::string> attentionForms;
  bool attentionFormsLoaded = false;
  /// Kernels that failed to build or launch on this context, which callers then leave to a
  /// fallback (attention's tiled kernel: lanes per row); per context, so a second device with
  /// another driver still tries them.
  std::set<std::string> failed;
};

// ---- The families (one file each) ----

/// A family's OpenCL C (after the shared prelude and the variant's macros) and its variants.
struct FamilySource {
  std::string_view body;
  /// Kernel names before the variant suffix, and whether each is launched as a reduction (fx_L
  /// lanes per row, fx_W rows per work-group) or as a pointwise kernel (a grid-stride loop).
  std::vector<std::pair<std::string_view, bool>> kernels;
  std::vector<Variant> variants;
  /// Macros the body reads whose values the host owns (prepended to the body).
  std::string defines;
};

FamilySource attentionSource();
FamilySource attentionBackwardSource();
FamilySource sortSource();
FamilySource convolutionSource();
FamilySource matmulSource();
FamilySource batchNormSource();
FamilySource embeddingBagSource();
FamilySource fftSource();
FamilySource indexPutSource();
FamilySource gemmSource();

/// The runners: true when done, false when declined (nothing enqueued). `launcher` gives the
/// launcher of the variant the call needs; a kernel is built on its first launch.
using LauncherFor = std::function<Expected<Launcher>(Variant)>;
/// `ctx` is the call's context (the GEMM template runs on it); `state` the family's there.
Expected<bool> runAttention(const Call &call, const LauncherFor &launcher, OpenCLContext &ctx,
                            FamilyState &state);

/// The GEMM template's choice per problem shape on one context (GemmTemplate.h): a tile shape
/// or "library", loaded from and stored to the kernel cache.
struct GemmChoices {
  std::map<std::string, std::string> byShape;
  /// What ran each shape on this context (a plan's name, or "library"), for `--stats`.
  std::map<std::string, std::string> used;
  bool loaded = false;
  bool dirty = false;
  /// The implicit-GEMM convolutions' tables of reduced points, per window and input layout.
  std::map<std::string, std::shared_ptr<TempBuffer>> convTables;
  /// Split-K's partial products (GemmPlan); one buffer serves every product, as the context's
  /// queue runs them in order.
  ScratchBuffer splitPartials;
  /// Tensor-core tiles' flags per row of A and column of B (fx_gemm_special_rows), set before
  /// each product that reads them, on the same queue.
  ScratchBuffer specialRows;
};
/// Flags per row of A and per column of B of a product (GemmChoices::specialRows): in `a` and `b`,
/// whether any is set in `any` (one int), and the seconds their kernels took where timed.
struct SpecialRows {
  DeviceBuffer a, b, any;
  double seconds = 0;
};
/// GemmTemplate.h's gemmSpecialRows with the family's launcher and choices.
Expected<std::vector<int32_t>> gemmSpecialRowsOf(const LauncherFor &launcher, GemmChoices &choices,
                                                 OpenCLContext &ctx, const GemmProblem &p);
/// `loadSource` loads the definitions of a problem's epilogue (GemmProblem::epilogue).
Expected<GemmRoute> runGemmTemplate(const LauncherFor &launcher, const SourceLoader &loadSource,
                                    GemmChoices &choices, OpenCLContext &ctx,
                                    const OpenCLOptions &options, const GemmProblem &p,
                                    const GemmLibrary *library);
Expected<GemmRoute> runConvolutionGemmTemplate(const LauncherFor &launcher,
                                               const SourceLoader &loadSource, GemmChoices &choices,
                                               OpenCLContext &ctx, const OpenCLOptions &options,
                                               const ConvProblem &p, const GemmLibrary *library);
/// A float32 operand's matrix of strides (rowStride, colStride) as a GEMM template operand, from
/// `offset` elements past its first element, consecutive matrices `batchStride` apart: row-major
/// where the columns are dense, transposed where the rows are; nullopt for other strides,
/// negative ones, or a misaligned view. gemmTemplateFits says whether the problem indexes in int.
std::optional<GemmMatrix> gemmMatrixOf(const Operand &t, int64_t rowStride, int64_t colStride,
                                       int64_t batchStride, int64_t offset);
Expected<bool> runAttentionBackward(const Call &call, const LauncherFor &launcher);
Expected<bool> runSort(const Call &call, const LauncherFor &launcher, bool topk);
Expected<bool> runConvolution(const Call &call, const LauncherFor &launcher);
Expected<bool> runConvolutionBackward(const Call &call, const LauncherFor &launcher);
Expected<bool> runCol2im(const Call &call, const LauncherFor &launcher);
Expected<bool> runBatchNorm(const Call &call, const LauncherFor &launcher);
Expected<bool> runBatchNormBackward(const Call &call, const LauncherFor &launcher);
Expected<bool> runEmbeddingBag(const Call &call, const LauncherFor &launcher);
/// `which`: the schema name, _fft_r2c, _fft_c2r or _fft_c2c.
Expected<bool> runFft(const Call &call, const LauncherFor &launcher, std::string_view which);
Expected<bool> runIndexPut(const Call &call, const LauncherFor &launcher);
/// view_as_real (`toReal`) or view_as_complex as a copy of float pairs.
Expected<bool> runComplexView(const Call &call, const LauncherFor &launcher, bool toReal);
/// Float32 products go through the GEMM template on `ctx` where it computes.
Expected<bool> runMatmul(const Call &call, const LauncherFor &launcher, std::string_view which,
                         OpenCLContext &ctx);

/// Strides of `t` broadcast to the trailing-aligned dimensions of `shape` (an attention mask
/// to the scores' (B, H, M, N)): 0 where `t` has no such dimension or size 1; nullopt when a
/// size neither matches nor is 1.
std::optional<std::vector<int64_t>> broadcastStrides(const Operand &t,
                                                     const std::vector<int64_t> &shape);

/// Sizes and strides of a (N, C, spatial...) tensor of rank 2 to 5 as (N, C, D, H, W): unit
/// sizes and zero strides in front of its spatial dimensions.
void toThreeSpatial(const Operand &t, std::vector<int64_t> &sizes, std::vector<int64_t> &strides);

/// Fills `bytes` of `buffer` with zeros.
Status fillZeros(const OpenCLContext &ctx, const DeviceBuffer &buffer);

} // namespace fxkit::opencl::device_externs
