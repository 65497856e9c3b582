#pragma once
/// \file Scaled dot-product attention forward as two products of fxkit's GEMM template around a
/// row softmax (GemmTemplate.h): S = scale * Q K^T per (batch, head) into a scratch buffer, the
/// mask, causality and softmax in place over each row of S with its logsumexp, then O = P V.
/// The scores make a round trip through memory that the tiled kernel (DeviceAttention.cpp)
/// avoids, in exchange for the template's speed on the products; measured on an H200 the
/// products at a head of 64 run far below it (5-7 TFLOP/s for the whole route), slower than the
/// tiled kernel at every shape of the zoo's models, so the route is opt-in
/// (OpenCLOptions::attention; bench/README.md).

#include "backends/opencl/runtime/DeviceAttentionArgs.h"
#include "backends/opencl/runtime/DeviceExternSupport.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fxkit::opencl::device_externs {

/// One attention forward call as runAttention has checked it: q [B, H, M, E], k [B, H, N, E],
/// v [B, H, N, Ev] and out [B, H, M, Ev] of one dtype, the mask broadcast to (B, H, M, N), and
/// the logsumexp [B, H, lseRows] where it is computed (rows past M are +inf).
struct AttentionProblem {
  Operand q, k, v, out;
  std::optional<Operand> lse;
  AttentionMask mask;
  int64_t B = 0, H = 0, M = 0, N = 0, E = 0, Ev = 0, lseRows = 0;
  bool causal = false;
  double scale = 1;
};

/// fx_attention_softmax's OpenCL C, a definition of the attention family, and the macros it
/// reads (FX_SM_PER keys per work-item, FX_SM_MAX_LOCAL work-items at most).
std::string_view attentionSoftmaxSource();
std::string attentionSoftmaxDefines();

/// Runs `p` through the GEMM template where it can: float32, operands with a unit stride in one
/// of their two last dimensions (the output in its last), rows of at most 4,096 keys, and
/// scores of one (batch, head) within the scratch bound. False when declined (nothing enqueued).
Expected<bool> runAttentionThroughGemm(const AttentionProblem &p, const Call &call,
                                       const LauncherFor &launcher, OpenCLContext &ctx,
                                       ScratchBuffer &scratch);

} // namespace fxkit::opencl::device_externs
