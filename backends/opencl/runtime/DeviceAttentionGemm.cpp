/// \file Attention forward through the GEMM template (DeviceAttentionGemm.h).

#include "backends/opencl/runtime/DeviceAttentionGemm.h"

#include "backends/opencl/runtime/GemmTemplate.h"
#include "ir/Try.h"

#include <algorithm>
#include <vector>

namespace fxkit::opencl::device_externs {

namespace {

/// Keys each work-item of the softmax holds in registers, and the largest work-group: rows of
/// up to 16 x 256 = 4,096 keys.
constexpr int kKeysPerItem = 16;
constexpr int kMaxLocal = 256;

constexpr std::string_view kSoftmaxSource = R"CL(
#ifdef FX_DEFINITION_fx_attention_softmax
/// The softmax of each row of scores s [rows, N] in place (float32), a work-group per row: row r
/// is query i = (bh0 * M + r) % M of (batch, head) bh = bh0 + r / M. The mask (bool: keeps
/// where true; else added) and causality (keys past i) apply first; a row with every key masked
/// becomes zeros with a logsumexp of -inf, as fx_attention_scan gives. The logsumexp rows past
/// the query length (lseRows > M, the efficient kernel's padding) are +inf.
__kernel void FX_NAME(fx_attention_softmax)(
    FX_OUT(s), FX_IN(m), FX_OUT(l), const long rows, const long bh0, const long H,
    const long M, const long N, const long lseRows, FX_STRIDES4(m), FX_STRIDES3(l),
    const long dt_mask, const long mask_kind, const long dt_lse, const long has_lse,
    const long causal) {
  __global float *sp = (__global float *)FX_AT(s);
  __global const uchar *mk = FX_AT(m);
  __global uchar *l = FX_AT(l);
  __local float red[FX_SM_MAX_LOCAL];
  const int lid = get_local_id(0), L = get_local_size(0);
  for (long r = get_group_id(0); r < rows; r += get_num_groups(0)) {
    const long bh = bh0 + r / M, i = r % M, h = bh % H, b = bh / H;
    __global float *row = sp + r * N;
    const long mrow = b * ms0 + h * ms1 + i * ms2;
    const long limit = causal ? min(N, i + 1) : N;
    float v[FX_SM_PER];
    float mx = -INFINITY;
#pragma unroll
    for (int t = 0; t < FX_SM_PER; ++t) {
      const long j = lid + (long)t * L;
      float x = -INFINITY;
      if (j < limit) {
        float add;
        if (FX_NAME(fx_attention_bias)(mk, mrow + j * ms3, dt_mask, mask_kind, &add))
          x = row[j] + add;
      }
      v[t] = x;
      mx = fmax(mx, x); // NaN scores do not win the maximum; they make p NaN below
    }
    red[lid] = mx;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = L / 2; w > 0; w >>= 1) {
      if (lid < w)
        red[lid] = fmax(red[lid], red[lid + w]);
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    const float rmax = red[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    float sum = 0;
#pragma unroll
    for (int t = 0; t < FX_SM_PER; ++t) {
      // A masked key weighs 0; a key at the maximum 1 (also where it is +inf).
      const float e = v[t] == -INFINITY ? 0.0f : v[t] == rmax ? 1.0f : exp(v[t] - rmax);
      v[t] = e;
      sum += e;
    }
    red[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = L / 2; w > 0; w >>= 1) {
      if (lid < w)
        red[lid] += red[lid + w];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    const float rsum = red[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    const bool empty = rmax == -INFINITY;
#pragma unroll
    for (int t = 0; t < FX_SM_PER; ++t) {
      const long j = lid + (long)t * L;
      if (j < N)
        row[j] = empty ? 0.0f : v[t] / rsum;
    }
    if (has_lse) {
      if (lid == 0)
        FX_ST(l, b * ls0 + h * ls1 + i * ls2, dt_lse, empty ? -INFINITY : rmax + log(rsum));
      if (i == M - 1)
        for (long ix = M + lid; ix < lseRows; ix += L)
          FX_ST(l, b * ls0 + h * ls1 + ix * ls2, dt_lse, INFINITY);
    }
  }
}
#endif
)CL";

/// Operand `t`'s last two dimensions as a GEMM operand over (batch, head) pairs from `offset`
/// elements past its first (gemmMatrixOf); `transpose` takes the matrix's transpose (K^T).
std::optional<GemmMatrix> matrixOf(const Operand &t, int64_t pairStride, int64_t offset,
                                   bool transpose) {
  int64_t rs = t.strides[2], cs = t.strides[3];
  if (transpose)
    std::swap(rs, cs);
  return gemmMatrixOf(t, rs, cs, pairStride, offset);
}

int64_t nextPowerOfTwo(int64_t n) {
  int64_t p = 1;
  while (p < n)
    p *= 2;
  return p;
}

} // namespace

std::string_view attentionSoftmaxSource() { return kSoftmaxSource; }

std::string attentionSoftmaxDefines() {
  return "#define FX_SM_PER " + std::to_string(kKeysPerItem) + "\n#define FX_SM_MAX_LOCAL " +
         std::to_string(kMaxLocal) + "\n";
}

Expected<bool> runAttentionThroughGemm(const AttentionProblem &p, const Call &call,
                                       const LauncherFor &launcherFor, OpenCLContext &ctx,
                                       ScratchBuffer &scratch) {
  if (p.q.dtype != DType::Float32 || p.out.dtype != DType::Float32)
    return false;
  // The scratch holds the scores of as many (batch, head) pairs as fit (at least one).
  const int64_t scratchElements = call.options().attentionScratchElements;
  if (p.N > int64_t{kKeysPerItem} * kMaxLocal || p.M * p.N > scratchElements)
    return false;
  if (p.out.strides[3] != 1)
    return false; // the template writes rows with dense columns
  // (batch, head) pairs are one batch of the products where every operand steps through them
  // uniformly; otherwise each batch index is its own run of heads.
  for (const Operand *t : {&p.q, &p.k, &p.v, &p.out})
    if (t->strides[0] < 0 || t->strides[1] < 0)
      return false; // every round's offsets are then past its first element
  bool uniform = p.B == 1;
  if (!uniform) {
    uniform = true;
    for (const Operand *t : {&p.q, &p.k, &p.v, &p.out})
      uniform = uniform && t->strides[0] == p.H * t->strides[1];
  }
  const int64_t runs = uniform ? 1 : p.B, pairsPerRun = uniform ? p.B * p.H : p.H;
  const int64_t chunk = std::min(pairsPerRun, scratchElements / (p.M * p.N));
  // The two products of `count` pairs from pair `first` of run `run` (uniform: pair = b * H + h),
  // the scores at `scores`.
  auto products =
      [&](int64_t run, int64_t first, int64_t count,
          const GemmMatrix &scores) -> std::optional<std::pair<GemmProblem, GemmProblem>> {
    auto offsetOf = [&](const Operand &t) { return run * t.strides[0] + first * t.strides[1]; };
    auto q = matrixOf(p.q, p.q.strides[1], offsetOf(p.q), false);
    auto k = matrixOf(p.k, p.k.strides[1], offsetOf(p.k), true);
    auto v = matrixOf(p.v, p.v.strides[1], offsetOf(p.v), false);
    auto o = matrixOf(p.out, p.out.strides[1], offsetOf(p.out), false);
    if (!q || !k || !v || !o)
      return std::nullopt;
    GemmProblem qk;
    qk.m = p.M;
    qk.n = p.N;
    qk.k = p.E;
    qk.batch = count;
    qk.a = *q;
    qk.b = *k;
    qk.c = scores;
    qk.alpha = static_cast<float>(p.scale);
    GemmProblem pv;
    pv.m = p.M;
    pv.n = p.Ev;
    pv.k = p.N;
    pv.batch = count;
    pv.a = scores;
    pv.b = *v;
    pv.c = *o;
    return std::pair{qk, pv};
  };
  // Every round's matrices have the first round's shapes: checked once, before anything runs.
  if (auto first = products(
          0, 0, chunk,
          GemmMatrix{nullptr, 0, static_cast<size_t>(p.N), static_cast<size_t>(p.M * p.N), false});
      !first || !gemmTemplateFits(first->first) || !gemmTemplateFits(first->second))
    return false;

  FXKIT_ASSIGN_OR_RETURN(Launcher launcher, launcherFor(Variant::Float));
  FXKIT_ASSIGN_OR_RETURN(
      DeviceBuffer scores,
      scratch.get(call.context(), static_cast<size_t>(chunk * p.M * p.N) * sizeof(float)));
  const GemmMatrix scoreMatrix{scores.mem, scores.offset / sizeof(float), static_cast<size_t>(p.N),
                               static_cast<size_t>(p.M * p.N), false};
  const Operand &lseOperand = p.lse ? *p.lse : p.out;
  const int64_t local = std::clamp<int64_t>(nextPowerOfTwo((p.N + 3) / 4), 32, kMaxLocal);
  for (int64_t run = 0; run < runs; ++run)
    for (int64_t first = 0; first < pairsPerRun; first += chunk) {
      const int64_t count = std::min(chunk, pairsPerRun - first);
      auto [qk, pv] = *products(run, first, count, scoreMatrix);
      FXKIT_TRY(runGemm(ctx, call.options(), qk, nullptr));

      std::vector<LaunchArg> a = {
          bufferArg(scores, true),
          bufferArg(p.mask.operand ? *p.mask.operand : p.q, false),
          bufferArg(lseOperand, true),
          longArg(count * p.M),
          longArg(run * p.H + first),
          longArg(p.H),
          longArg(p.M),
          longArg(p.N),
          longArg(p.lseRows),
      };
      appendLongs(a, {p.mask.strides});
      for (size_t d = 0; d < 3; ++d)
        a.push_back(longArg(p.lse ? p.lse->strides[d] : 0));
      a.push_back(longArg(p.mask.operand ? dtypeCode(p.mask.operand->dtype) : 0));
      a.push_back(longArg(p.mask.kind));
      a.push_back(longArg(p.lse ? dtypeCode(p.lse->dtype) : 0));
      a.push_back(longArg(p.lse ? 1 : 0));
      a.push_back(longArg(p.causal));
      LaunchConfig config;
      config.local = static_cast<size_t>(local);
      const int64_t groups = std::min<int64_t>(count * p.M, 65536);
      FXKIT_TRY(launcher.launchWith("fx_attention_softmax", a, groups * local, config, false));

      FXKIT_TRY(runGemm(ctx, call.options(), pv, nullptr));
    }
  return true;
}

} // namespace fxkit::opencl::device_externs
