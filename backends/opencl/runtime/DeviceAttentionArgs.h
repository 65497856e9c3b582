#pragma once
/// \file Arguments the forward and backward attention kernels (DeviceAttention.cpp,
/// DeviceAttentionBackward.cpp) read alike: the form and is_causal (without dropout), the scale,
/// the logsumexp's layout, and the attention mask (flash attention's attn_mask, efficient
/// attention's attn_bias) with its buffer, its strides broadcast to the scores' (B, H, M, N)
/// and its kind.

#include "backends/opencl/runtime/DeviceExternSupport.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit::opencl::device_externs {

/// What both directions read first: the form (efficient attention, named `efficientOp`, or
/// flash attention), is_causal and the name of the mask argument (attn_bias, attn_mask). Only
/// calls without dropout (dropout_p 0: the kernels are deterministic); nullopt otherwise or
/// where an argument does not bind.
struct AttentionForm {
  bool efficient = false;
  bool causal = false;
  std::string_view maskName;
};
inline std::optional<AttentionForm> attentionForm(const Call &call, std::string_view efficientOp) {
  const BoundArgs &args = call.args();
  auto dropout = args.floating("dropout_p");
  auto causal = args.boolean("is_causal");
  if (!dropout || *dropout != 0 || !causal)
    return std::nullopt;
  AttentionForm form;
  form.efficient = args.op().schema.name == efficientOp;
  form.causal = *causal;
  form.maskName = form.efficient ? "attn_bias" : "attn_mask";
  return form;
}

/// The largest head dimension (E, Ev) the kernels take: they keep rows of this size in private
/// arrays (FX_ATTN_MAX_D in their sources).
inline constexpr int64_t kAttentionMaxHeadDim = 256;
/// The kernels' macros from it: FX_ATTN_MAX_D.
inline std::string attentionDefines() {
  return "#define FX_ATTN_MAX_D " + std::to_string(kAttentionMaxHeadDim) + "\n";
}

/// The scale of the scores: the call's `scale`, or 1/sqrt(E) where it is None; nullopt where it
/// does not bind.
inline std::optional<double> attentionScale(const Call &call, int64_t E) {
  if (call.isNone("scale"))
    return 1.0 / std::sqrt(static_cast<double>(E));
  auto scale = call.args().floating("scale");
  return scale ? std::optional<double>(*scale) : std::nullopt;
}

/// Whether a logsumexp operand has the layout the kernels read: (B, H, rows), float32 or float64
/// (the latter only in the double variant).
inline bool logsumexpFits(const Operand &lse, int64_t B, int64_t H, Variant variant) {
  return lse.dim() == 3 && lse.sizes[0] == B && lse.sizes[1] == H &&
         (lse.dtype == DType::Float32 || lse.dtype == DType::Float64) &&
         (lse.dtype != DType::Float64 || variant == Variant::Double);
}

struct AttentionMask {
  std::optional<Operand> operand; ///< nullopt: no mask
  std::vector<int64_t> strides = std::vector<int64_t>(4, 0);
  int kind = 0; ///< 0 none, 1 bool (keeps where true), 2 added to the scores
};

/// Argument `name` of the call as the kernels take it; nullopt where they cannot (not a buffer,
/// float64 without the double variant, sizes that do not broadcast to `scores`).
inline std::optional<AttentionMask> attentionMask(const Call &call, std::string_view name,
                                                  Variant variant,
                                                  const std::vector<int64_t> &scores) {
  AttentionMask m;
  if (call.isNone(name))
    return m;
  m.operand = call.input(name);
  if (!m.operand || (m.operand->dtype == DType::Float64 && variant != Variant::Double))
    return std::nullopt;
  auto strides = broadcastStrides(*m.operand, scores);
  if (!strides)
    return std::nullopt;
  m.strides = *strides;
  m.kind = m.operand->dtype == DType::Bool ? 1 : 2;
  return m;
}

} // namespace fxkit::opencl::device_externs
