/// \file aten.convolution on the device where CLBlast declines it (groups, depthwise, bias,
/// 1-D and 3-D, transposed, float16 and bfloat16), with the reference kernel's semantics
/// (backends/interp/ConvolutionKernels.cpp): stride, padding, dilation, groups, an optional
/// bias; a transposed convolution is the adjoint (weight (in, out / groups, k...)), its output
/// padding only enlarging the output inferred for it.
///
/// A direct convolution: one work-item per output element (a grid-stride loop), summing its
/// group's input channels and kernel taps in the accumulation type; 1-D and 2-D convolutions
/// run as 3-D ones with unit leading spatial sizes.

#include "backends/opencl/runtime/DeviceExternSupport.h"
#include "backends/opencl/runtime/MaskedResults.h"

#include "ir/StorageSpan.h"
#include "ir/Try.h"

namespace fxkit::opencl::device_externs {

namespace {

constexpr std::string_view kSource = R"CL(
/// A convolution's window along depth, height and width: its sizes, strides, paddings and
/// dilations.
#define FX_CONV_WINDOW                                                                             \
    const long Kd, const long Kh, const long Kw, const long sd, const long sh, const long sw,     \
    const long pd, const long ph, const long pw, const long dd, const long dh, const long dw

/// A 2-D depthwise float32 convolution (MobileNet's: one input channel per output channel):
/// a work-item per output element like fx_convolution, with float pointers and int offsets
/// (the host checks that they fit) instead of loads by dtype code and 64-bit index arithmetic,
/// which bound the general kernel on GPUs at 9 products per output.
__kernel void FX_NAME(fx_conv_depthwise2d)(
    FX_IN(in), FX_IN(w), FX_IN(b), FX_OUT(o), const long xnumel, const long C_,
    const long Hi_, const long Wi_, const long Ho_, const long Wo_, const long Kh_,
    const long Kw_, const long sh_, const long sw_, const long ph_, const long pw_,
    const long dh_, const long dw_, FX_STRIDES4(i), FX_STRIDES4(w), const long bs0,
    FX_STRIDES4(o), const long has_bias) {
  __global const float *in = (__global const float *)FX_AT(in);
  __global const float *w = (__global const float *)FX_AT(w);
  __global const float *bias = (__global const float *)FX_AT(b);
  __global float *o = (__global float *)FX_AT(o);
  const int C = (int)C_, Hi = (int)Hi_, Wi = (int)Wi_, Ho = (int)Ho_, Wo = (int)Wo_;
  const int Kh = (int)Kh_, Kw = (int)Kw_, sh = (int)sh_, sw = (int)sw_, ph = (int)ph_;
  const int pw = (int)pw_, dh = (int)dh_, dw = (int)dw_;
  for (int e = get_global_id(0); e < (int)xnumel; e += get_global_size(0)) {
    // e enumerates (n, c, y, x) of the output, x fastest.
    const int ox = e % Wo, t = e / Wo, oy = t % Ho, t2 = t / Ho, c = t2 % C, n = t2 / C;
    float acc = has_bias ? bias[c * (int)bs0] : 0.0f;
    __global const float *ip = in + n * (int)is0 + c * (int)is1;
    __global const float *wp = w + c * (int)ws0;
    const int iy0 = oy * sh - ph, ix0 = ox * sw - pw;
    for (int ky = 0; ky < Kh; ++ky) {
      const int iy = iy0 + ky * dh;
      if (iy < 0 || iy >= Hi)
        continue;
      for (int kx = 0; kx < Kw; ++kx) {
        const int ix = ix0 + kx * dw;
        if (ix < 0 || ix >= Wi)
          continue;
        acc += ip[iy * (int)is2 + ix * (int)is3] * wp[ky * (int)ws2 + kx * (int)ws3];
      }
    }
    o[n * (int)os0 + c * (int)os1 + oy * (int)os2 + ox * (int)os3] = acc;
  }
}

__kernel void FX_NAME(fx_convolution)(
    FX_IN(in), FX_IN(w), FX_IN(b), FX_OUT(o),
    const long xnumel, const long Cin, const long Cout, const long groups,
    const long Di, const long Hi, const long Wi, const long Do, const long Ho, const long Wo,
    FX_CONV_WINDOW,
    FX_STRIDES5(i), FX_STRIDES5(w),
    const long bs0,
    FX_STRIDES5(o),
    const long dt, const long has_bias, const long transposed) {
  __global const uchar *in = FX_AT(in);
  __global const uchar *w = FX_AT(w);
  __global const uchar *bias = FX_AT(b);
  __global uchar *o = FX_AT(o);
  const long inPG = Cin / groups, outPG = Cout / groups;
  for (long e = get_global_id(0); e < xnumel; e += get_global_size(0)) {
    // e enumerates (n, oc, z, y, x) of the output, x fastest.
    const long ox = e % Wo, oy = (e / Wo) % Ho, oz = (e / (Wo * Ho)) % Do;
    const long oc = (e / (Wo * Ho * Do)) % Cout, n = e / (Wo * Ho * Do * Cout);
    const long g = oc / outPG;
    FX_ACC acc = has_bias ? FX_LD(bias, oc * bs0, dt) : (FX_ACC)0;
    for (long kz = 0; kz < Kd; ++kz)
      for (long ky = 0; ky < Kh; ++ky)
        for (long kx = 0; kx < Kw; ++kx) {
          long iz, iy, ix;
          if (!transposed) {
            iz = oz * sd - pd + kz * dd;
            iy = oy * sh - ph + ky * dh;
            ix = ox * sw - pw + kx * dw;
          } else {
            // out[o] gathers in[i] where o = i * stride - padding + k * dilation.
            const long tz = oz + pd - kz * dd, ty = oy + ph - ky * dh, tx = ox + pw - kx * dw;
            if (tz < 0 || ty < 0 || tx < 0 || tz % sd || ty % sh || tx % sw)
              continue;
            iz = tz / sd;
            iy = ty / sh;
            ix = tx / sw;
          }
          if (iz < 0 || iz >= Di || iy < 0 || iy >= Hi || ix < 0 || ix >= Wi)
            continue;
          const long ipos = n * is0 + iz * is2 + iy * is3 + ix * is4;
          const long wtap = kz * ws2 + ky * ws3 + kx * ws4;
          for (long c = 0; c < inPG; ++c) {
            const long ic = g * inPG + c;
            const long wpos = transposed ? ic * ws0 + (oc - g * outPG) * ws1 : oc * ws0 + c * ws1;
            acc += FX_LD(in, ipos + ic * is1, dt) * FX_LD(w, wpos + wtap, dt);
          }
        }
    FX_ST(o, n * os0 + oc * os1 + oz * os2 + oy * os3 + ox * os4, dt, acc);
  }
}
// grad_weight of a convolution: w[sc, lcl, k] = sum over n and the small side's positions p of
// S[n, sc, p] * L[n, g * LPG + lcl, p * stride - padding + k * dilation], S the convolution's
// output side (grad_output; the input of a transposed one) and L the other.
__kernel void FX_NAME(fx_conv_weight_grad)(
    FX_IN(s), FX_IN(l), FX_OUT(w),
    const long xnumel, const long N, const long Sc, const long Lc, const long groups,
    const long Ds, const long Hs, const long Ws, const long Dl, const long Hl, const long Wl,
    FX_CONV_WINDOW,
    FX_STRIDES5(s), FX_STRIDES5(l), FX_STRIDES5(w),
    const long dt) {
  __global const uchar *S = FX_AT(s);
  __global const uchar *L = FX_AT(l);
  __global uchar *w = FX_AT(w);
  const long SPG = Sc / groups, LPG = Lc / groups;
  for (long e = get_global_id(0); e < xnumel; e += get_global_size(0)) {
    // e enumerates (sc, lcl, kz, ky, kx) of the weight, kx fastest.
    const long kx = e % Kw, ky = (e / Kw) % Kh, kz = (e / (Kw * Kh)) % Kd;
    const long lcl = (e / (Kw * Kh * Kd)) % LPG, sc = e / (Kw * Kh * Kd * LPG);
    const long lc = (sc / SPG) * LPG + lcl;
    // Each row's points summed plainly, the rows compensated (Kahan): a cascade.
    FX_ACC acc = (FX_ACC)0, comp = (FX_ACC)0;
    for (long n = 0; n < N; ++n)
      for (long z = 0; z < Ds; ++z) {
        const long lz = z * sd - pd + kz * dd;
        if (lz < 0 || lz >= Dl)
          continue;
        for (long y = 0; y < Hs; ++y) {
          const long ly = y * sh - ph + ky * dh;
          if (ly < 0 || ly >= Hl)
            continue;
          const long sp = n * ss0 + sc * ss1 + z * ss2 + y * ss3;
          const long lp = n * ls0 + lc * ls1 + lz * ls2 + ly * ls3;
          FX_ACC row = (FX_ACC)0;
          for (long x = 0; x < Ws; ++x) {
            const long lx = x * sw - pw + kx * dw;
            if (lx >= 0 && lx < Wl)
              row += FX_LD(S, sp + x * ss4, dt) * FX_LD(L, lp + lx * ls4, dt);
          }
          FX_KAHAN_ADD(acc, comp, row);
        }
      }
    FX_ST(w, sc * ws0 + lcl * ws1 + kz * ws2 + ky * ws3 + kx * ws4, dt, acc);
  }
}

// grad_bias of a convolution: grad_output summed over every dimension but the channels.
__kernel void FX_NAME(fx_conv_bias_grad)(
    FX_IN(g), FX_OUT(b),
    const long xnumel, const long N, const long D, const long H, const long W,
    FX_STRIDES5(g),
    const long bs0, const long dt) {
  __global const uchar *gr = FX_AT(g);
  __global uchar *b = FX_AT(b);
  for (long c = get_global_id(0); c < xnumel; c += get_global_size(0)) {
    FX_ACC acc = (FX_ACC)0, comp = (FX_ACC)0;
    for (long n = 0; n < N; ++n)
      for (long z = 0; z < D; ++z)
        for (long y = 0; y < H; ++y) {
          FX_ACC row = (FX_ACC)0;
          for (long x = 0; x < W; ++x)
            row += FX_LD(gr, n * gs0 + c * gs1 + z * gs2 + y * gs3 + x * gs4, dt);
          FX_KAHAN_ADD(acc, comp, row);
        }
    FX_ST(b, c * bs0, dt, acc);
  }
}
// col2im: image pixel (n, c, h, w) sums the column entries (c, ki, kj) of the blocks
// (bh, bw) with bh * stride - padding + ki * dilation = h (likewise w), as the transposed
// convolution gathers.
__kernel void FX_NAME(fx_col2im)(
    FX_IN(s), FX_OUT(o),
    const long xnumel, const long C, const long H, const long W,
    const long kh, const long kw, const long dh, const long dw, const long ph, const long pw,
    const long sh, const long sw, const long blocksH, const long blocksW,
    FX_STRIDES3(s),
    FX_STRIDES4(o), const long dt) {
  __global const uchar *src = FX_AT(s);
  __global uchar *o = FX_AT(o);
  for (long e = get_global_id(0); e < xnumel; e += get_global_size(0)) {
    const long x = e % W, y = (e / W) % H, c = (e / (W * H)) % C, n = e / (W * H * C);
    FX_ACC acc = (FX_ACC)0;
    for (long ki = 0; ki < kh; ++ki) {
      const long ty = y + ph - ki * dh;
      if (ty < 0 || ty % sh || ty / sh >= blocksH)
        continue;
      for (long kj = 0; kj < kw; ++kj) {
        const long tx = x + pw - kj * dw;
        if (tx < 0 || tx % sw || tx / sw >= blocksW)
          continue;
        const long row = (c * kh + ki) * kw + kj, block = (ty / sh) * blocksW + tx / sw;
        acc += FX_LD(src, n * ss0 + row * ss1 + block * ss2, dt);
      }
    }
    FX_ST(o, n * os0 + c * os1 + y * os2 + x * os3, dt, acc);
  }
}
)CL";

/// An `int[]` argument with one entry per spatial dimension (a single value repeated, an empty
/// list `fill`); nullopt when it does not fit.
std::optional<std::vector<int64_t>> spatialList(const BoundArgs &args, std::string_view name,
                                                size_t spatial, int64_t fill) {
  auto v = args.intList(name);
  if (!v || !*v)
    return std::nullopt;
  const std::vector<int64_t> &list = **v;
  if (list.empty())
    return std::vector<int64_t>(spatial, fill);
  if (list.size() == 1)
    return std::vector<int64_t>(spatial, list[0]);
  if (list.size() != spatial)
    return std::nullopt;
  return list;
}

} // namespace

void toThreeSpatial(const Operand &t, std::vector<int64_t> &sizes, std::vector<int64_t> &strides) {
  sizes = t.sizes;
  strides = t.strides;
  while (sizes.size() < 5) {
    sizes.insert(sizes.begin() + 2, 1);
    strides.insert(strides.begin() + 2, 0);
  }
}

FamilySource convolutionSource() {
  return {kSource,
          {{"fx_convolution", false},
           {"fx_conv_depthwise2d", false},
           {"fx_conv_weight_grad", false},
           {"fx_conv_bias_grad", false},
           {"fx_col2im", false}},
          {Variant::Float, Variant::Double},
          ""};
}

namespace {

/// A convolution's geometry as the kernels take it: 3 spatial dimensions (1-D and 2-D ones
/// with unit leading sizes), stride, padding and dilation per dimension.
struct Geometry {
  std::vector<int64_t> stride, padding, dilation;
};

/// Stride, padding and dilation of the call, each padded to 3 spatial dimensions; nullopt when
/// one does not fit `spatial` dimensions or is out of range.
std::optional<Geometry> geometryOf(const BoundArgs &args, size_t spatial) {
  auto stride = spatialList(args, "stride", spatial, 1);
  auto padding = spatialList(args, "padding", spatial, 0);
  auto dilation = spatialList(args, "dilation", spatial, 1);
  if (!stride || !padding || !dilation)
    return std::nullopt;
  for (size_t d = 0; d < spatial; ++d)
    if ((*stride)[d] < 1 || (*dilation)[d] < 1 || (*padding)[d] < 0)
      return std::nullopt;
  Geometry g{*stride, *padding, *dilation};
  while (g.stride.size() < 3) {
    g.stride.insert(g.stride.begin(), 1);
    g.padding.insert(g.padding.begin(), 0);
    g.dilation.insert(g.dilation.begin(), 1);
  }
  return g;
}

/// Whether every element offset of each operand fits in an int (the depthwise kernel's).
bool fitsInt(std::initializer_list<const Operand *> operands) {
  for (const Operand *t : operands) {
    auto span = storageSpan(t->sizes, t->strides, 1);
    if (!span || span->extentElements >= (int64_t{1} << 31))
      return false;
  }
  return true;
}

void pushLongs(std::vector<LaunchArg> &a, const std::vector<int64_t> &values) {
  for (int64_t v : values)
    a.push_back(longArg(v));
}

/// Launches fx_convolution: `out` from `input` and `weight` (and `bias`), a transposed one
/// being the adjoint. The shapes are checked by the caller.
Status launchConvolution(Launcher &launcher, const Operand &input, const Operand &weight,
                         const Operand *bias, const Operand &out, int64_t groups,
                         const Geometry &geo, bool transposed) {
  std::vector<int64_t> is, ist, ws, wst, os, ost;
  toThreeSpatial(input, is, ist);
  toThreeSpatial(weight, ws, wst);
  toThreeSpatial(out, os, ost);
  std::vector<LaunchArg> a = {
      bufferArg(input, false), bufferArg(weight, false), bufferArg(bias ? *bias : weight, false),
      bufferArg(out, true),    longArg(out.numel()),     longArg(input.sizes[1]),
      longArg(out.sizes[1]),   longArg(groups),
  };
  pushLongs(a, {is[2], is[3], is[4], os[2], os[3], os[4], ws[2], ws[3], ws[4]});
  pushLongs(a, geo.stride);
  pushLongs(a, geo.padding);
  pushLongs(a, geo.dilation);
  pushLongs(a, ist);
  pushLongs(a, wst);
  a.push_back(longArg(bias ? bias->strides[0] : 0));
  pushLongs(a, ost);
  a.push_back(longArg(dtypeCode(input.dtype)));
  a.push_back(longArg(bias != nullptr));
  a.push_back(longArg(transposed));
  return launcher.launch("fx_convolution", a, out.numel(), 1);
}

} // namespace

Expected<bool> runConvolution(const Call &call, const LauncherFor &launcherFor) {
  const BoundArgs &args = call.args();
  auto input = call.input("input"), weight = call.input("weight");
  auto out = call.output(0);
  auto transposed = args.boolean("transposed");
  auto groups = args.integer("groups");
  if (!input || !weight || !out || !transposed || !groups || *groups < 1)
    return false;
  int64_t rank = input->dim();
  if (rank < 3 || rank > 5 || weight->dim() != rank || out->dim() != rank)
    return false;
  auto geo = geometryOf(args, static_cast<size_t>(rank - 2));
  if (!geo)
    return false;
  std::optional<Operand> bias;
  if (!call.isNone("bias")) {
    bias = call.input("bias");
    if (!bias || bias->dim() != 1 || bias->sizes[0] != out->sizes[1])
      return false;
  }
  DType dtype = input->dtype;
  if (weight->dtype != dtype || out->dtype != dtype || (bias && bias->dtype != dtype))
    return false;
  std::optional<Variant> variant = floatingVariant(dtype, call.device());
  if (!variant)
    return false;
  int64_t batch = input->sizes[0], cin = input->sizes[1], cout = out->sizes[1];
  int64_t g = *groups;
  if (cin % g || cout % g || out->sizes[0] != batch)
    return false;
  bool weightOk = *transposed ? weight->sizes[0] == cin && weight->sizes[1] == cout / g
                              : weight->sizes[0] == cout && weight->sizes[1] == cin / g;
  if (!weightOk || input->numel() == 0 || weight->numel() == 0 || out->numel() == 0)
    return false;
  FXKIT_ASSIGN_OR_RETURN(auto launcher, launcherFor(*variant));
  if (!*transposed && rank == 4 && g == cin && cout == cin && dtype == DType::Float32 &&
      weight->sizes[1] == 1 && fitsInt({&*input, &*weight, &*out}) && out->numel() < (1ll << 31)) {
    std::vector<LaunchArg> a = {bufferArg(*input, false), bufferArg(*weight, false),
                                bufferArg(bias ? *bias : *weight, false), bufferArg(*out, true)};
    pushLongs(a, {out->numel(), cin, input->sizes[2], input->sizes[3], out->sizes[2], out->sizes[3],
                  weight->sizes[2], weight->sizes[3], geo->stride[1], geo->stride[2],
                  geo->padding[1], geo->padding[2], geo->dilation[1], geo->dilation[2]});
    pushLongs(a, input->strides);
    pushLongs(a, weight->strides);
    a.push_back(longArg(bias ? bias->strides[0] : 0));
    pushLongs(a, out->strides);
    a.push_back(longArg(bias.has_value()));
    FXKIT_TRY(launcher.launch("fx_conv_depthwise2d", a, out->numel(), 1));
    return true;
  }
  FXKIT_TRY(launchConvolution(launcher, *input, *weight, bias ? &*bias : nullptr, *out, g, *geo,
                              *transposed));
  return true;
}

Expected<bool> runConvolutionBackward(const Call &call, const LauncherFor &launcherFor) {
  const BoundArgs &args = call.args();
  auto grad = call.input("grad_output"), input = call.input("input"), weight = call.input("weight");
  auto transposed = args.boolean("transposed");
  auto groups = args.integer("groups");
  if (!grad || !input || !weight || !transposed || !groups || *groups < 1 || call.numOutputs() != 3)
    return false;
  int64_t rank = input->dim();
  if (rank < 3 || rank > 5 || weight->dim() != rank || grad->dim() != rank)
    return false;
  size_t spatial = static_cast<size_t>(rank - 2);
  auto geo = geometryOf(args, spatial);
  if (!geo)
    return false;
  DType dtype = input->dtype;
  if (grad->dtype != dtype || weight->dtype != dtype)
    return false;
  std::optional<Variant> variant = floatingVariant(dtype, call.device());
  if (!variant)
    return false;
  // The convolution's "small" side (its output; the input of a transposed one) and "large"
  // side: the weight is (small channels, large channels / groups, k...) either way.
  const Operand &small = *transposed ? *input : *grad, &large = *transposed ? *grad : *input;
  int64_t g = *groups, smallC = small.sizes[1], largeC = large.sizes[1];
  if (smallC % g || largeC % g || weight->sizes[0] != smallC || weight->sizes[1] * g != largeC ||
      grad->sizes[0] != input->sizes[0])
    return false;
  // The small side has exactly the positions whose window starts inside the padded large side
  // (as the reference checks; a transposed convolution's output_padding adds large positions).
  for (size_t d = 0; d < spatial; ++d) {
    size_t d3 = d + 3 - spatial;
    int64_t st = geo->stride[d3], pad = geo->padding[d3];
    int64_t span = geo->dilation[d3] * (weight->sizes[2 + d] - 1) + 1;
    int64_t smallD = small.sizes[2 + d], largeD = large.sizes[2 + d];
    bool ok = *transposed ? largeD >= (smallD - 1) * st - 2 * pad + span &&
                                largeD < (smallD - 1) * st - 2 * pad + span +
                                             std::max(st, geo->dilation[d3])
                          : smallD == (largeD + 2 * pad - span) / st + 1;
    if (!ok)
      return false;
  }
  if (grad->numel() == 0 || input->numel() == 0 || weight->numel() == 0)
    return false;
  // The results output_mask asks for (the others are None: no buffer), in the inputs' dtype.
  auto masked = maskedResults(call);
  if (!masked)
    return false;
  const MaskedResults &results = *masked;
  for (const std::optional<Operand> &r : results)
    if (r && r->dtype != dtype)
      return false;
  if (results[0] && results[0]->sizes != input->sizes)
    return false;
  if (results[1] && results[1]->sizes != weight->sizes)
    return false;
  if (results[2] && (results[2]->dim() != 1 || results[2]->sizes[0] != grad->sizes[1]))
    return false;
  FXKIT_ASSIGN_OR_RETURN(auto launcher, launcherFor(*variant));
  if (results[0]) {
    // grad_input: the adjoint of the convolution, i.e. the convolution of the other kind of
    // grad_output with the same weight, stride, padding, dilation and groups.
    FXKIT_TRY(
        launchConvolution(launcher, *grad, *weight, nullptr, *results[0], g, *geo, !*transposed));
  }
  if (results[1]) {
    std::vector<int64_t> ss, sst, ls, lst, ws, wst;
    toThreeSpatial(small, ss, sst);
    toThreeSpatial(large, ls, lst);
    toThreeSpatial(*results[1], ws, wst);
    std::vector<LaunchArg> a = {bufferArg(small, false),
                                bufferArg(large, false),
                                bufferArg(*results[1], true),
                                longArg(results[1]->numel()),
                                longArg(ss[0]),
                                longArg(smallC),
                                longArg(largeC),
                                longArg(g)};
    pushLongs(a, {ss[2], ss[3], ss[4], ls[2], ls[3], ls[4], ws[2], ws[3], ws[4]});
    pushLongs(a, geo->stride);
    pushLongs(a, geo->padding);
    pushLongs(a, geo->dilation);
    pushLongs(a, sst);
    pushLongs(a, lst);
    pushLongs(a, wst);
    a.push_back(longArg(dtypeCode(dtype)));
    FXKIT_TRY(launcher.launch("fx_conv_weight_grad", a, results[1]->numel(), 1));
  }
  if (results[2]) {
    std::vector<int64_t> gs, gst;
    toThreeSpatial(*grad, gs, gst);
    std::vector<LaunchArg> a = {bufferArg(*grad, false), bufferArg(*results[2], true),
                                longArg(gs[1]),          longArg(gs[0]),
                                longArg(gs[2]),          longArg(gs[3]),
                                longArg(gs[4])};
    pushLongs(a, gst);
    a.push_back(longArg(results[2]->strides[0]));
    a.push_back(longArg(dtypeCode(dtype)));
    FXKIT_TRY(launcher.launch("fx_conv_bias_grad", a, gs[1], 1));
  }
  return true;
}

Expected<bool> runCol2im(const Call &call, const LauncherFor &launcherFor) {
  const BoundArgs &args = call.args();
  auto self = call.input("self");
  auto out = call.output(0);
  if (!self || !out || self->dtype != out->dtype)
    return false;
  auto kernel = args.intList("kernel_size"), dilation = args.intList("dilation"),
       padding = args.intList("padding"), stride = args.intList("stride");
  if (!kernel || !*kernel || !dilation || !*dilation || !padding || !*padding || !stride ||
      !*stride)
    return false;
  const std::vector<int64_t> &k = **kernel, &dil = **dilation, &pad = **padding, &st = **stride;
  if (k.size() != 2 || dil.size() != 2 || pad.size() != 2 || st.size() != 2)
    return false;
  for (size_t d = 0; d < 2; ++d)
    if (k[d] < 1 || dil[d] < 1 || st[d] < 1 || pad[d] < 0)
      return false;
  bool batched = self->dim() == 3;
  if ((self->dim() != 2 && !batched) || out->dim() != self->dim() + 1)
    return false;
  std::optional<Variant> variant = floatingVariant(self->dtype, call.device());
  if (!variant)
    return false;
  int64_t H = out->sizes[out->dim() - 2], W = out->sizes[out->dim() - 1];
  int64_t C = out->sizes[out->dim() - 3];
  auto blocksAlong = [&](size_t d, int64_t size) {
    return (size + 2 * pad[d] - (dil[d] * (k[d] - 1) + 1)) / st[d] + 1;
  };
  int64_t blocksH = blocksAlong(0, H), blocksW = blocksAlong(1, W);
  int64_t rowStride = self->strides[self->dim() - 2], blockStride = self->strides[self->dim() - 1];
  if (self->sizes[self->dim() - 2] != C * k[0] * k[1] || blocksH < 1 || blocksW < 1 ||
      self->sizes[self->dim() - 1] != blocksH * blocksW ||
      (batched && self->sizes[0] != out->sizes[0]) || out->numel() == 0)
    return false;
  FXKIT_ASSIGN_OR_RETURN(auto launcher, launcherFor(*variant));
  std::vector<LaunchArg> a = {bufferArg(*self, false),
                              bufferArg(*out, true),
                              longArg(out->numel()),
                              longArg(C),
                              longArg(H),
                              longArg(W)};
  pushLongs(a, {k[0], k[1], dil[0], dil[1], pad[0], pad[1], st[0], st[1], blocksH, blocksW});
  pushLongs(a, {batched ? self->strides[0] : 0, rowStride, blockStride});
  std::vector<int64_t> os = out->strides;
  if (!batched)
    os.insert(os.begin(), 0);
  pushLongs(a, os);
  a.push_back(longArg(dtypeCode(self->dtype)));
  FXKIT_TRY(launcher.launch("fx_col2im", a, out->numel(), 1));
  return true;
}

} // namespace fxkit::opencl::device_externs
