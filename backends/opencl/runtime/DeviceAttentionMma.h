#pragma once
/// \file Scaled dot-product attention forward on NVIDIA's tensor cores (compute capability 8
/// and later, through PTX mma.sync), float32 in and out, as PyTorch's own float32 attention
/// computes on those GPUs (CUTLASS's OpMultiplyAddFastF32: 3xTF32): flash attention with both
/// products S = Q K^T and O = P V as three TF32 products per step (big x big + big x small +
/// small x big, summed from zero per step of 8 and added to float32 sums, as the GEMM
/// template's step sums), the online softmax in float32 registers.
///
/// The split is exact only for finite values of a normal range, so one pass over Q, K and V
/// first (fx_attention_bounds) writes their largest and smallest nonzero magnitudes, and the
/// kernel computes only where they fit (fx_attention_mma_fits: finite, nonzero magnitudes of
/// 2^-100 or more, products and sums below 2^126); otherwise it stores nothing and the float32
/// kernel launched after it (tiled, or lanes per row for heads wider than 64) computes the call
/// (and returns at once where it fits).

#include "backends/opencl/runtime/DeviceAttentionArgs.h"
#include "backends/opencl/runtime/DeviceExternSupport.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fxkit::opencl::device_externs {

/// The kernels' OpenCL C (a definition per head dimension and form, tensor cores or their
/// emulation, each guarded by its FX_DEFINITION_ macro and compiled only in the float variant) to
/// append to the attention family's body, and their names with the family's reduction flag (false:
/// launched in a configuration of their own).
const std::string &attentionMmaSource();
std::vector<std::pair<std::string_view, bool>> attentionMmaKernels();

/// Words of the bounds buffer fx_attention_bounds fills (cl_uint each): the largest magnitude
/// of K, V and Q as float bits, then 0x7fffffff minus the smallest nonzero one of each (0 where
/// all are zero).
inline constexpr size_t kAttentionBoundWords = 6;

/// A form of the tensor-core kernel: heads of up to headDim, work-groups of `warps` warps (16
/// query rows each), tiles of `keys` keys, Q in registers or in local memory.
struct AttentionMmaForm {
  int headDim = 0, warps = 0, keys = 0;
  bool qInRegisters = false;
  /// Its definition's name: fx_attention_mma<headDim>_w<warps>k<keys>[r][e] (r: Q in registers,
  /// e: the emulation).
  std::string name(bool emulated) const;
};

/// The tensor-core kernel a call takes: the default form of the smallest head dimension of one
/// that holds E (keys) and Ev (values), none (headDim 0) where none runs (not NVIDIA compute
/// capability 8 or later, heads wider than 128, or switched off by FXKIT_ATTENTION_MMA=0 for
/// side-by-side measurement); emulated (OpenCLOptions::attentionTensorCoreEmulation, one warp
/// per work-group) on any device. FXKIT_ATTENTION_MMA_FORM=128_w4k32r,64_w4k64r picks other
/// listed forms (names after fx_attention_mma), to time them against the defaults; a name not
/// listed is an error.
struct AttentionMmaKernel {
  AttentionMmaForm form;
  bool emulated = false;
  bool forced = false; ///< by FXKIT_ATTENTION_MMA_FORM
  explicit operator bool() const { return form.headDim != 0; }
  int headDim() const { return form.headDim; }
  /// Its definition's name (before the variant suffix).
  std::string name() const;
};
Expected<AttentionMmaKernel>
attentionMmaKernel(const DeviceInfo &device, const OpenCLOptions &options, int64_t E, int64_t Ev);

/// FXKIT_ATTENTION_MMA=only: the tensor-core kernel without the tiled kernel after it, to
/// measure it alone or to check that it computed (calls it declines keep unwritten outputs).
bool attentionMmaAlone();

/// What the launch needs of the call: B x H problems of M queries (rowsPerHead with the
/// logsumexp's padding) and N keys, and the mask.
struct AttentionMmaShape {
  int64_t B = 0, H = 0, M = 0, N = 0, rowsPerHead = 0;
  const AttentionMask &mask;
  int64_t E = 0, Ev = 0; ///< the heads of keys and values (the tuning's key)
  bool causal = false;
  float scale = 0;
  /// fx_attention_bounds' words for this call (read back where the tuner times forms).
  DeviceBuffer bounds;
};

/// Whether the tensor-core kernel computes a call whose bounds are `words`
/// (kAttentionBoundWords of them): fx_attention_mma_fits (DeviceAttention.cpp) on the host, as
/// float32 computes it; change both together.
bool attentionMmaFits(std::span<const uint32_t> words, int64_t E, int64_t N, float scale);

/// Launches `kernel` with the tiled kernel's arguments up to the bounds
/// buffer (`args`); with a mask, after fx_attention_mask_tiles has flagged its blocks of 16
/// rows by 16 keys that keep no key or add 0 to all (in `tiles`), so that the kernel
/// leaves out the first and reads no mask for the second (Hugging Face's causal masks: every
/// block but the diagonal's).
Status launchAttentionMma(Launcher &launcher, const OpenCLContext &ctx,
                          const AttentionMmaKernel &kernel, std::span<const LaunchArg> args,
                          const AttentionMmaShape &shape, ScratchBuffer &tiles);

/// The form a call of `shape` takes: `kernel`'s where it was forced, is emulated, or tuning is
/// off (OpenCLOptions::tune); else the one chosen before for the shape on this device (cached
/// with the kernels), or the fastest of its head dimension's listed forms, each timed now on
/// this call as launchAttentionMma launches it (trial launches write only the call's outputs,
/// which the chosen form's launch writes again). A form that fails to build or launch is left
/// out; where none runs, `kernel`'s stays, and its launch reports why. A call whose values the
/// kernel declines (attentionMmaFits) is not timed: every form would return at once.
Expected<AttentionMmaKernel> chooseAttentionMma(Launcher &launcher, OpenCLContext &ctx,
                                                const OpenCLOptions &options,
                                                const AttentionMmaKernel &kernel,
                                                std::span<const LaunchArg> args,
                                                const AttentionMmaShape &shape, FamilyState &state);

} // namespace fxkit::opencl::device_externs
