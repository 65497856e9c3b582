#pragma once
/// \file Arguments the forward and backward attention kernels (DeviceAttention.cpp,
/// DeviceAttentionBackward.cpp) read alike: is_causal (without dropout), and the attention mask
/// (flash attention's attn_mask, efficient attention's attn_bias) with its buffer, its strides
/// broadcast to the scores' (B, H, M, N) and its kind.

#include "backends/opencl/runtime/DeviceExternSupport.h"

#include <optional>
#include <string_view>
#include <vector>

namespace fxkit::opencl::device_externs {

/// is_causal, where the call has no dropout (dropout_p 0: the kernels are deterministic);
/// nullopt otherwise or where an argument does not bind.
inline std::optional<bool> causalWithoutDropout(const BoundArgs &args) {
  auto dropout = args.floating("dropout_p");
  auto causal = args.boolean("is_causal");
  if (!dropout || *dropout != 0 || !causal)
    return std::nullopt;
  return *causal;
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
