/// \file mm, addmm, bmm and baddbmm on the device where CLBlast declines them (float16 and
/// bfloat16, layouts without a unit stride, baddbmm, or a build without CLBlast), with the
/// reference kernels' semantics (backends/interp/ExternKernels.cpp, TensorKernels.cpp): out =
/// alpha * (a @ b) + beta * self, self broadcast to the product and ignored when beta is 0 (NaN
/// in it does not propagate).
///
/// Float32 products take fxkit's GEMM template where it computes (GPUs, GemmTemplate.h; in a
/// build without CLBlast every float32 product comes here): self is copied into the output
/// first (fx_matmul_fill) and joins as beta * C. Otherwise one work-item per output element (a
/// grid-stride loop), its dot product accumulated in float (double for float64), operands read
/// through their strides.

#include "backends/opencl/runtime/DeviceExternSupport.h"

#include "ir/Try.h"

namespace fxkit::opencl::device_externs {

namespace {

constexpr std::string_view kSource = R"CL(
__kernel void FX_NAME(fx_matmul)(
    FX_IN(a), FX_IN(b), FX_IN(c), FX_OUT(o),
    const long xnumel, const long M, const long N, const long K,
    FX_STRIDES3(a), FX_STRIDES3(b), FX_STRIDES3(c), FX_STRIDES3(o),
    const long dt, const long dt_c, const long has_c, const long alpha_bits,
    const long beta_bits) {
  __global const uchar *a = FX_AT(a);
  __global const uchar *b = FX_AT(b);
  __global const uchar *c = FX_AT(c);
  __global uchar *o = FX_AT(o);
  const FX_ACC alpha = FX_BITS(alpha_bits), beta = FX_BITS(beta_bits);
  for (long e = get_global_id(0); e < xnumel; e += get_global_size(0)) {
    const long j = e % N, i = (e / N) % M, batch = e / (N * M);
    const long arow = batch * as0 + i * as1, bcol = batch * bs0 + j * bs2;
    FX_ACC acc = 0;
    for (long p = 0; p < K; ++p)
      acc += FX_LD(a, arow + p * as2, dt) * FX_LD(b, bcol + p * bs1, dt);
    FX_ACC r = alpha * acc;
    if (has_c)
      r += beta * FX_LD(c, batch * cs0 + i * cs1 + j * cs2, dt_c);
    FX_ST(o, batch * os0 + i * os1 + j * os2, dt, r);
  }
}

/// self broadcast into the output, for the GEMM template's beta * C.
__kernel void FX_NAME(fx_matmul_fill)(
    FX_IN(c), FX_OUT(o), const long xnumel, const long M, const long N, FX_STRIDES3(c),
    FX_STRIDES3(o), const long dt, const long dt_c) {
  __global const uchar *c = FX_AT(c);
  __global uchar *o = FX_AT(o);
  for (long e = get_global_id(0); e < xnumel; e += get_global_size(0)) {
    const long j = e % N, i = (e / N) % M, batch = e / (N * M);
    FX_ST(o, batch * os0 + i * os1 + j * os2, dt,
          FX_LD(c, batch * cs0 + i * cs1 + j * cs2, dt_c));
  }
}
)CL";

/// A 2-d or 3-d operand's strides as (batch, row, column): batch stride 0 for a matrix.
std::vector<int64_t> batched(const Operand &t) {
  if (t.dim() == 3)
    return t.strides;
  return {0, t.strides[0], t.strides[1]};
}

/// out = alpha * a @ b + beta * bias through the GEMM template; false where an operand has no
/// template form (no unit stride in a matrix dimension, the output's columns not dense, offsets
/// past int), with nothing enqueued.
Expected<bool> runThroughTemplate(const Call &call, Launcher &launcher, OpenCLContext &ctx,
                                  const Operand &a, const Operand &b, const Operand &out,
                                  const std::optional<Operand> &bias,
                                  const std::vector<int64_t> &biasStrides, int64_t batch, int64_t m,
                                  int64_t n, int64_t k, double alpha, double beta) {
  std::vector<int64_t> as = batched(a), bs = batched(b), os = batched(out);
  GemmProblem p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.batch = batch;
  auto ma = gemmMatrixOf(a, as[1], as[2], as[0], 0);
  auto mb = gemmMatrixOf(b, bs[1], bs[2], bs[0], 0);
  auto mc = gemmMatrixOf(out, os[1], os[2], os[0], 0);
  if (!ma || !mb || !mc || mc->transposed)
    return false;
  p.a = *ma;
  p.b = *mb;
  p.c = *mc;
  p.alpha = static_cast<float>(alpha);
  p.beta = bias ? static_cast<float>(beta) : 0.0f;
  p.epilogue = call.epilogue();
  if (!gemmTemplateFits(p))
    return false;
  if (bias && beta != 0) {
    std::vector<LaunchArg> fill = {bufferArg(*bias, false), bufferArg(out, true),
                                   longArg(batch * m * n), longArg(m), longArg(n)};
    appendLongs(fill, {biasStrides, os});
    fill.push_back(longArg(dtypeCode(out.dtype)));
    fill.push_back(longArg(dtypeCode(bias->dtype)));
    FXKIT_TRY(launcher.launch("fx_matmul_fill", fill, batch * m * n, 1));
  }
  FXKIT_TRY(runGemm(ctx, call.options(), p, nullptr));
  return true;
}

} // namespace

FamilySource matmulSource() {
  return {kSource,
          {{"fx_matmul", false}, {"fx_matmul_fill", false}},
          {Variant::Float, Variant::Double},
          ""};
}

Expected<bool> runMatmul(const Call &call, const LauncherFor &launcherFor, std::string_view which,
                         OpenCLContext &ctx) {
  const BoundArgs &args = call.args();
  bool addmm = which == "addmm", baddbmm = which == "baddbmm";
  bool bmm = which == "bmm" || baddbmm, withSelf = addmm || baddbmm;
  if (!withSelf && !bmm && which != "mm")
    return false;
  auto a = call.input(addmm ? "mat1" : baddbmm ? "batch1" : "self");
  auto b = call.input(addmm ? "mat2" : baddbmm ? "batch2" : "mat2");
  auto out = call.output(0);
  int64_t rank = bmm ? 3 : 2;
  if (!a || !b || !out || a->dim() != rank || b->dim() != rank || out->dim() != rank)
    return false;
  int64_t batch = bmm ? a->sizes[0] : 1;
  int64_t m = a->sizes[rank - 2], k = a->sizes[rank - 1], n = b->sizes[rank - 1];
  if (b->sizes[rank - 2] != k || out->sizes[rank - 2] != m || out->sizes[rank - 1] != n ||
      (bmm && (b->sizes[0] != batch || out->sizes[0] != batch)))
    return false;
  DType dtype = a->dtype;
  if (b->dtype != dtype || out->dtype != dtype)
    return false;
  std::optional<Variant> variant = floatingVariant(dtype, call.device());
  if (!variant || out->numel() == 0 || k == 0)
    return false;
  double alpha = 1, beta = 0;
  std::optional<Operand> bias;
  std::vector<int64_t> biasStrides(3, 0);
  if (withSelf) {
    auto al = args.floating("alpha"), be = args.floating("beta");
    if (!al || !be)
      return false;
    alpha = *al;
    beta = *be;
    bias = call.input("self");
    if (!bias || bias->dim() > rank || bias->dtype != dtype)
      return false;
    // Broadcast to (batch, m, n), trailing-aligned.
    std::vector<int64_t> shape{batch, m, n};
    size_t lead = 3 - bias->sizes.size();
    for (size_t d = 0; d < bias->sizes.size(); ++d) {
      int64_t size = bias->sizes[d];
      if (size != shape[lead + d] && size != 1)
        return false;
      biasStrides[lead + d] = size == 1 ? 0 : bias->strides[d];
    }
  }
  std::vector<int64_t> as = batched(*a), bs = batched(*b), os = batched(*out);
  FXKIT_ASSIGN_OR_RETURN(auto launcher, launcherFor(*variant));
  if (dtype == DType::Float32 && gemmTemplateTakes(ctx, call.options())) {
    FXKIT_ASSIGN_OR_RETURN(bool done, runThroughTemplate(call, launcher, ctx, *a, *b, *out, bias,
                                                         biasStrides, batch, m, n, k, alpha, beta));
    if (done)
      return true;
  }
  std::vector<LaunchArg> args2 = {
      bufferArg(*a, false),
      bufferArg(*b, false),
      bufferArg(bias ? *bias : *a, false),
      bufferArg(*out, true),
      longArg(out->numel()),
      longArg(m),
      longArg(n),
      longArg(k),
  };
  for (const std::vector<int64_t> *s : {&as, &bs, &biasStrides, &os})
    for (int64_t v : *s)
      args2.push_back(longArg(v));
  args2.push_back(longArg(dtypeCode(dtype)));
  args2.push_back(longArg(dtypeCode(bias ? bias->dtype : dtype)));
  args2.push_back(longArg(bias && beta != 0));
  args2.push_back(floatArg(alpha, *variant));
  args2.push_back(floatArg(beta, *variant));
  FXKIT_TRY(launcher.launch("fx_matmul", args2, batch * m * n, 1));
  return true;
}

} // namespace fxkit::opencl::device_externs
