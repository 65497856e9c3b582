/// \file Batch normalisation on the device where it stays an extern call:
/// _native_batch_norm_legit.default (training updates running_mean and running_var in place,
/// which loop programs cannot do; NormLowering.cpp lowers every other form to loops) and
/// native_batch_norm_backward, with the reference kernels' semantics
/// (backends/interp/ReductionFamilyKernels.cpp, torch._decomp's native_batch_norm_helper and
/// native_batch_norm_backward).
///
/// A work-item per channel reduces it (the batch mean and biased variance in two passes; the
/// backward's sum of grad_out and its dot with the centred input) into a scratch buffer of the
/// accumulation type, writes the per-channel results (save_mean/save_invstd, the running
/// statistics' update momentum * batch + (1 - momentum) * running with the variance unbiased by
/// n / (n - 1), grad_weight, grad_bias), and then a work-item per element normalises. Inputs of
/// rank 2 to 5 run as (N, C, D, H, W).

#include "backends/opencl/runtime/DeviceExternSupport.h"
#include "backends/opencl/runtime/MaskedResults.h"

#include "ir/Try.h"

namespace fxkit::opencl::device_externs {

namespace {

constexpr std::string_view kSource = R"CL(
/// A per-channel parameter (weight, bias, a statistic), or `none` where it is absent.
#define FX_PARAM(base, off, i, s, dt, has, none) ((has) ? FX_LD((base) + (off), (i) * (s), dt) : (FX_ACC)(none))

/// total = the sum of term (an expression of v, element (n, c, z, y, w) of x) over channel c:
/// each row (n, z, y) summed plainly, the rows compensated (Kahan), a cascade.
#define FX_BN_CHANNEL_SUM(total, term)                                                             \
  do {                                                                                             \
    FX_ACC fx_comp = 0;                                                                            \
    total = 0;                                                                                     \
    for (long n = 0; n < N; ++n)                                                                   \
      for (long z = 0; z < D; ++z)                                                                 \
        for (long y = 0; y < H; ++y) {                                                             \
          const long at = n * xs0 + c * xs1 + z * xs2 + y * xs3;                                   \
          FX_ACC row = 0;                                                                          \
          for (long w = 0; w < W; ++w) {                                                          \
            const FX_ACC v = FX_LD(x, at + w * xs4, xdt);                                          \
            row += term;                                                                           \
          }                                                                                        \
          FX_KAHAN_ADD(total, fx_comp, row);                                                       \
        }                                                                                          \
  } while (0)

// Channel c's mean and invstd into st[c], st[C + c]: batch statistics in training (and the
// running statistics updated in place, save_mean/save_invstd written where they have C
// elements), the running ones in evaluation.
__kernel void FX_NAME(fx_bn_stats)(
    FX_IN(x), FX_OUT(rm), FX_OUT(rv), FX_OUT(sm), FX_OUT(si),
    FX_OUT(st), const long xnumel, const long N, const long D, const long H,
    const long W, FX_STRIDES5(x),
    const long rms, const long rvs, const long sms, const long sis, const long xdt,
    const long rdt, const long sdt, const long training, const long has_running,
    const long has_save, const long momentum_bits, const long eps_bits) {
  __global const uchar *x = FX_AT(x);
  __global uchar *rm = FX_AT(rm);
  __global uchar *rv = FX_AT(rv);
  __global FX_ACC *st = (__global FX_ACC *)FX_AT(st);
  const FX_ACC momentum = FX_BITS(momentum_bits), eps = FX_BITS(eps_bits);
  const long C = xnumel;
  for (long c = get_global_id(0); c < C; c += get_global_size(0)) {
    FX_ACC mean, var;
    if (training) {
      const FX_ACC count = (FX_ACC)(N * D * H * W);
      FX_ACC sum, sq;
      FX_BN_CHANNEL_SUM(sum, v);
      mean = sum / count;
      FX_BN_CHANNEL_SUM(sq, (v - mean) * (v - mean));
      var = sq / count;
      if (has_running) {
        const FX_ACC m = FX_LD(rm, c * rms, rdt), v = FX_LD(rv, c * rvs, rdt);
        FX_ST(rm, c * rms, rdt, momentum * mean + (1 - momentum) * m);
        FX_ST(rv, c * rvs, rdt, momentum * (var * count / (count - 1)) + (1 - momentum) * v);
      }
    } else {
      mean = FX_LD(rm, c * rms, rdt);
      var = FX_LD(rv, c * rvs, rdt);
    }
    const FX_ACC invstd = 1 / sqrt(var + eps);
    st[c] = mean;
    st[C + c] = invstd;
    if (has_save) {
      FX_ST(FX_AT(sm), c * sms, sdt, mean);
      FX_ST(FX_AT(si), c * sis, sdt, invstd);
    }
  }
}

/// The coordinates (n, c, z, y, w) of element e of an (N, C, D, H, W) tensor, w fastest.
#define FX_BN_COORDS(e)                                                                            \
  const long w = (e) % W, y = ((e) / W) % H, z = ((e) / (W * H)) % D,                              \
             c = ((e) / (W * H * D)) % C;                                                          \
  const long n = (e) / (W * H * D * C)

// out = (x - mean) * invstd * weight + bias, a work-item per element.
__kernel void FX_NAME(fx_bn_normalize)(
    FX_IN(x), FX_IN(w), FX_IN(b), FX_IN(st), FX_OUT(o),
    const long xnumel, const long C, const long D, const long H, const long W,
    FX_STRIDES5(x), FX_STRIDES5(o),
    const long ws, const long bs, const long xdt, const long pdt, const long has_w,
    const long has_b) {
  __global const uchar *x = FX_AT(x);
  __global uchar *o = FX_AT(o);
  __global const FX_ACC *st = (__global const FX_ACC *)FX_AT(st);
  for (long e = get_global_id(0); e < xnumel; e += get_global_size(0)) {
    FX_BN_COORDS(e);
    const FX_ACC v = FX_LD(x, n * xs0 + c * xs1 + z * xs2 + y * xs3 + w * xs4, xdt);
    const FX_ACC r = (v - st[c]) * st[C + c] * FX_PARAM(w_base, w_off, c, ws, pdt, has_w, 1) +
                     FX_PARAM(b_base, b_off, c, bs, pdt, has_b, 0);
    FX_ST(o, n * os0 + c * os1 + z * os2 + y * os3 + w * os4, xdt, r);
  }
}

/// Channel c's mean and invstd for the backward: the saved ones in training, else from the
/// running statistics.
#define FX_BN_MEAN_INVSTD(c)                                                                       \
  const FX_ACC mu = FX_LD(FX_AT(m), (c) * ms, mdt);                                                \
  const FX_ACC spread = FX_LD(FX_AT(s), (c) * ss, mdt);                                            \
  const FX_ACC invstd = train ? spread : 1 / sqrt(spread + FX_BITS(eps_bits));

// Channel c's sum of grad_out and its dot with x - mean into st[c], st[C + c]; grad_weight =
// dot * invstd and grad_bias = the sum where asked for.
__kernel void FX_NAME(fx_bn_backward_reduce)(
    FX_IN(g), FX_IN(x), FX_IN(m), FX_IN(s), FX_OUT(gw), FX_OUT(gb),
    FX_OUT(st), const long xnumel, const long N, const long D, const long H,
    const long W, FX_STRIDES5(g),
    FX_STRIDES5(x),
    const long ms, const long ss, const long gws, const long gbs, const long xdt, const long mdt,
    const long pdt, const long train, const long eps_bits, const long has_gw,
    const long has_gb) {
  __global const uchar *g = FX_AT(g);
  __global const uchar *x = FX_AT(x);
  __global FX_ACC *st = (__global FX_ACC *)FX_AT(st);
  const long C = xnumel;
  for (long c = get_global_id(0); c < C; c += get_global_size(0)) {
    FX_BN_MEAN_INVSTD(c)
    FX_ACC sumG = 0, dot = 0, cg = 0, cd = 0;
    for (long n = 0; n < N; ++n)
      for (long z = 0; z < D; ++z)
        for (long y = 0; y < H; ++y) {
          const long ga = n * gs0 + c * gs1 + z * gs2 + y * gs3;
          const long xa = n * xs0 + c * xs1 + z * xs2 + y * xs3;
          FX_ACC rowG = 0, rowD = 0;
          for (long w = 0; w < W; ++w) {
            const FX_ACC gv = FX_LD(g, ga + w * gs4, xdt);
            rowG += gv;
            rowD += gv * (FX_LD(x, xa + w * xs4, xdt) - mu);
          }
          FX_KAHAN_ADD(sumG, cg, rowG);
          FX_KAHAN_ADD(dot, cd, rowD);
        }
    st[c] = sumG;
    st[C + c] = dot;
    if (has_gw)
      FX_ST(FX_AT(gw), c * gws, pdt, dot * invstd);
    if (has_gb)
      FX_ST(FX_AT(gb), c * gbs, pdt, sumG);
  }
}

// grad_input: training (g - (x - mean) dot invstd^2 / n - sum_g / n) invstd weight,
// evaluation g invstd weight; a work-item per element.
__kernel void FX_NAME(fx_bn_backward_input)(
    FX_IN(g), FX_IN(x), FX_IN(m), FX_IN(s), FX_IN(w), FX_IN(st),
    FX_OUT(o), const long xnumel, const long C, const long D,
    const long H, const long W, const long gs0, const long gs1, const long gs2, const long gs3,
    const long gs4, const long xs0, const long xs1, const long xs2, const long xs3,
    const long xs4, const long os0, const long os1, const long os2, const long os3,
    const long os4, const long ms, const long ss, const long ws, const long xdt, const long mdt,
    const long pdt, const long train, const long eps_bits, const long has_w, const long count) {
  __global const uchar *g = FX_AT(g);
  __global const uchar *x = FX_AT(x);
  __global uchar *o = FX_AT(o);
  __global const FX_ACC *st = (__global const FX_ACC *)FX_AT(st);
  for (long e = get_global_id(0); e < xnumel; e += get_global_size(0)) {
    FX_BN_COORDS(e);
    FX_BN_MEAN_INVSTD(c)
    const FX_ACC scale = invstd * FX_PARAM(w_base, w_off, c, ws, pdt, has_w, 1);
    const FX_ACC gv = FX_LD(g, n * gs0 + c * gs1 + z * gs2 + y * gs3 + w * gs4, xdt);
    FX_ACC r;
    if (train) {
      const FX_ACC cnt = (FX_ACC)count;
      const FX_ACC xv = FX_LD(x, n * xs0 + c * xs1 + z * xs2 + y * xs3 + w * xs4, xdt);
      const FX_ACC proj = st[C + c] / cnt * invstd * invstd;
      r = (gv - (xv - mu) * proj - st[c] / cnt) * scale;
    } else {
      r = gv * scale;
    }
    FX_ST(o, n * os0 + c * os1 + z * os2 + y * os3 + w * os4, xdt, r);
  }
}
)CL";

/// Whether `dtype` loads and stores in `variant` (float64 only in Double).
bool fitsVariant(DType dtype, Variant variant) {
  return dtypeIsFloating(dtype) && dtypeCode(dtype) >= 0 &&
         (dtype != DType::Float64 || variant == Variant::Double);
}

/// A (C,) parameter of a call: absent when None; nullopt in `ok` when it does not fit.
struct Param {
  std::optional<Operand> t;
  int64_t stride() const { return t ? t->strides[0] : 0; }
};

/// A batch norm (forward or backward) as the device runs it: the kernel variant, the channel
/// count C, and how it reads its (C,) parameters and keeps per-channel statistics.
struct BatchNormDevice {
  const Call &call;
  Variant variant;
  int64_t channels;

  /// Parameter `name`: absent when None; nullopt when it is not (C,) of a dtype the variant
  /// loads.
  std::optional<Param> param(std::string_view name) const {
    Param p;
    if (call.isNone(name))
      return p;
    p.t = call.input(name);
    if (!p.t || p.t->dim() != 1 || p.t->sizes[0] != channels || !fitsVariant(p.t->dtype, variant))
      return std::nullopt;
    return p;
  }
  /// Scratch for what the reduce kernel hands to the elementwise one: 2C values in the
  /// accumulation type.
  Expected<TempBuffer> stats() const {
    size_t accBytes = variant == Variant::Double ? sizeof(double) : sizeof(float);
    return TempBuffer::create(call.context(), 2 * static_cast<size_t>(channels) * accBytes);
  }
};

/// The device form of a batch norm of `input`: (N, C, ...) of rank 2 to 5, not empty, of a
/// floating dtype the device computes; nullopt otherwise (the host kernel).
std::optional<BatchNormDevice> batchNormDevice(const Call &call, const Operand &input) {
  int64_t rank = input.dim();
  if (rank < 2 || rank > 5 || input.numel() == 0)
    return std::nullopt;
  std::optional<Variant> variant = floatingVariant(input.dtype, call.device());
  if (!variant)
    return std::nullopt;
  return BatchNormDevice{call, *variant, input.sizes[1]};
}

/// Its buffer, or `fallback`'s where it is absent (the kernel does not read it then).
LaunchArg paramArg(const Param &p, const Operand &fallback, bool written = false) {
  return bufferArg(p.t ? *p.t : fallback, written);
}

} // namespace

FamilySource batchNormSource() {
  return {kSource,
          {{"fx_bn_stats", false},
           {"fx_bn_normalize", false},
           {"fx_bn_backward_reduce", false},
           {"fx_bn_backward_input", false}},
          {Variant::Float, Variant::Double},
          ""};
}

Expected<bool> runBatchNorm(const Call &call, const LauncherFor &launcherFor) {
  const BoundArgs &args = call.args();
  auto input = call.input("input");
  auto training = args.boolean("training");
  auto momentum = args.floating("momentum");
  auto eps = args.floating("eps");
  if (!input || !training || !momentum || !eps || call.numOutputs() != 3)
    return false;
  auto device = batchNormDevice(call, *input);
  if (!device)
    return false;
  auto weight = device->param("weight"), bias = device->param("bias");
  auto runningMean = device->param("running_mean"), runningVar = device->param("running_var");
  if (!weight || !bias || !runningMean || !runningVar)
    return false;
  // The running statistics are both given (training updates them) or both absent (training
  // only); they share a dtype, as do weight and bias.
  if (runningMean->t.has_value() != runningVar->t.has_value() ||
      (runningMean->t && runningMean->t->dtype != runningVar->t->dtype) ||
      (!*training && !runningMean->t) ||
      (weight->t && bias->t && weight->t->dtype != bias->t->dtype))
    return false;
  auto out = call.output(0), saveMean = call.output(1), saveInvstd = call.output(2);
  if (!out || !saveMean || !saveInvstd || out->sizes != input->sizes ||
      out->dtype != input->dtype || saveMean->dim() != 1 || saveInvstd->dim() != 1 ||
      saveMean->dtype != saveInvstd->dtype || !fitsVariant(saveMean->dtype, device->variant))
    return false;
  bool hasSave = saveMean->sizes[0] == device->channels && saveInvstd->sizes[0] == device->channels;
  if (!hasSave && (saveMean->sizes[0] != 0 || saveInvstd->sizes[0] != 0))
    return false;
  // The running statistics are written in place: they must not overlap what the kernels read.
  if (runningMean->t && overlaps(runningMean->t->buffer, runningVar->t->buffer))
    return false;
  for (const Param *p : {&*runningMean, &*runningVar})
    if (p->t)
      for (const Operand *o : {&*input, &*out, &*saveMean, &*saveInvstd})
        if (overlaps(p->t->buffer, o->buffer))
          return false;
  std::vector<int64_t> xs, xst, os, ost;
  toThreeSpatial(*input, xs, xst);
  toThreeSpatial(*out, os, ost);
  FXKIT_ASSIGN_OR_RETURN(auto stats, device->stats());
  FXKIT_ASSIGN_OR_RETURN(auto launcher, launcherFor(device->variant));
  const Operand &x = *input;
  bool updates = *training && runningMean->t;
  std::vector<LaunchArg> a = {bufferArg(x, false),
                              paramArg(*runningMean, x, updates),
                              paramArg(*runningVar, x, updates),
                              bufferArg(*saveMean, hasSave),
                              bufferArg(*saveInvstd, hasSave),
                              bufferArg(stats.buffer(), true)};
  appendLongs(a, {device->channels, xs[0], xs[2], xs[3], xs[4]});
  appendLongs(a, {xst});
  appendLongs(a, {runningMean->stride(), runningVar->stride(), hasSave ? saveMean->strides[0] : 0,
                  hasSave ? saveInvstd->strides[0] : 0, dtypeCode(x.dtype),
                  dtypeCode(runningMean->t ? runningMean->t->dtype : x.dtype),
                  dtypeCode(saveMean->dtype), *training, runningMean->t.has_value(), hasSave});
  a.push_back(floatArg(*momentum, device->variant));
  a.push_back(floatArg(*eps, device->variant));
  FXKIT_TRY(launcher.launch("fx_bn_stats", a, device->channels, 1));
  std::vector<LaunchArg> b = {bufferArg(x, false),
                              paramArg(*weight, x),
                              paramArg(*bias, x),
                              bufferArg(stats.buffer(), false),
                              bufferArg(*out, true),
                              longArg(out->numel()),
                              longArg(device->channels),
                              longArg(xs[2]),
                              longArg(xs[3]),
                              longArg(xs[4])};
  for (const std::vector<int64_t> *st : {&xst, &ost})
    for (int64_t v : *st)
      b.push_back(longArg(v));
  b.push_back(longArg(weight->stride()));
  b.push_back(longArg(bias->stride()));
  b.push_back(longArg(dtypeCode(x.dtype)));
  b.push_back(longArg(dtypeCode(weight->t ? weight->t->dtype
                                : bias->t ? bias->t->dtype
                                          : x.dtype)));
  b.push_back(longArg(weight->t.has_value()));
  b.push_back(longArg(bias->t.has_value()));
  FXKIT_TRY(launcher.launch("fx_bn_normalize", b, out->numel(), 1));
  return true;
}

Expected<bool> runBatchNormBackward(const Call &call, const LauncherFor &launcherFor) {
  const BoundArgs &args = call.args();
  auto grad = call.input("grad_out"), input = call.input("input");
  auto train = args.boolean("train");
  auto eps = args.floating("eps");
  if (!grad || !input || !train || !eps || call.numOutputs() != 3)
    return false;
  if (grad->sizes != input->sizes || grad->dtype != input->dtype)
    return false;
  auto device = batchNormDevice(call, *input);
  if (!device)
    return false;
  auto weight = device->param("weight");
  auto mean = device->param(*train ? "save_mean" : "running_mean");
  auto spread = device->param(*train ? "save_invstd" : "running_var");
  if (!weight || !mean || !spread || !mean->t || !spread->t || mean->t->dtype != spread->t->dtype)
    return false;
  auto masked = maskedResults(call);
  if (!masked)
    return false;
  const MaskedResults &results = *masked;
  if (!results[0] || results[0]->sizes != input->sizes || results[0]->dtype != input->dtype)
    return false;
  std::optional<DType> paramDType;
  for (size_t i = 1; i < 3; ++i)
    if (results[i]) {
      if (results[i]->dim() != 1 || results[i]->sizes[0] != device->channels ||
          !fitsVariant(results[i]->dtype, device->variant) ||
          (paramDType && *paramDType != results[i]->dtype))
        return false;
      paramDType = results[i]->dtype;
    }
  if (weight->t && paramDType && weight->t->dtype != *paramDType)
    return false;
  DType pdt = weight->t ? weight->t->dtype : paramDType.value_or(input->dtype);
  std::vector<int64_t> gs, gst, xs, xst, os, ost;
  toThreeSpatial(*grad, gs, gst);
  toThreeSpatial(*input, xs, xst);
  toThreeSpatial(*results[0], os, ost);
  FXKIT_ASSIGN_OR_RETURN(auto stats, device->stats());
  FXKIT_ASSIGN_OR_RETURN(auto launcher, launcherFor(device->variant));
  const Operand &x = *input;
  std::vector<LaunchArg> a = {bufferArg(*grad, false),
                              bufferArg(x, false),
                              bufferArg(*mean->t, false),
                              bufferArg(*spread->t, false),
                              bufferArg(results[1] ? *results[1] : x, results[1].has_value()),
                              bufferArg(results[2] ? *results[2] : x, results[2].has_value()),
                              bufferArg(stats.buffer(), true)};
  appendLongs(a, {device->channels, xs[0], xs[2], xs[3], xs[4]});
  appendLongs(a, {gst, xst});
  appendLongs(a, {mean->stride(), spread->stride(), results[1] ? results[1]->strides[0] : 0,
                  results[2] ? results[2]->strides[0] : 0, dtypeCode(x.dtype),
                  dtypeCode(mean->t->dtype), dtypeCode(pdt), *train});
  a.push_back(floatArg(*eps, device->variant));
  a.push_back(longArg(results[1].has_value()));
  a.push_back(longArg(results[2].has_value()));
  FXKIT_TRY(launcher.launch("fx_bn_backward_reduce", a, device->channels, 1));
  std::vector<LaunchArg> b = {bufferArg(*grad, false),
                              bufferArg(x, false),
                              bufferArg(*mean->t, false),
                              bufferArg(*spread->t, false),
                              paramArg(*weight, x),
                              bufferArg(stats.buffer(), false),
                              bufferArg(*results[0], true),
                              longArg(results[0]->numel()),
                              longArg(device->channels),
                              longArg(xs[2]),
                              longArg(xs[3]),
                              longArg(xs[4])};
  for (const std::vector<int64_t> *st : {&gst, &xst, &ost})
    for (int64_t v : *st)
      b.push_back(longArg(v));
  b.push_back(longArg(mean->stride()));
  b.push_back(longArg(spread->stride()));
  b.push_back(longArg(weight->stride()));
  b.push_back(longArg(dtypeCode(x.dtype)));
  b.push_back(longArg(dtypeCode(mean->t->dtype)));
  b.push_back(longArg(dtypeCode(pdt)));
  b.push_back(longArg(*train));
  b.push_back(floatArg(*eps, device->variant));
  b.push_back(longArg(weight->t.has_value()));
  b.push_back(longArg(x.numel() / device->channels));
  FXKIT_TRY(launcher.launch("fx_bn_backward_input", b, results[0]->numel(), 1));
  return true;
}

} // namespace fxkit::opencl::device_externs
