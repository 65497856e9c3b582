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

namespace fxkit::opencl::device_externs {

namespace {

constexpr std::string_view kSource = R"CL(
__kernel void FX_NAME(fx_convolution)(
    __global const uchar *in_base, const ulong in_off,
    __global const uchar *w_base, const ulong w_off,
    __global const uchar *b_base, const ulong b_off,
    __global uchar *o_base, const ulong o_off,
    const long xnumel, const long Cin, const long Cout, const long groups,
    const long Di, const long Hi, const long Wi, const long Do, const long Ho, const long Wo,
    const long Kd, const long Kh, const long Kw,
    const long sd, const long sh, const long sw, const long pd, const long ph, const long pw,
    const long dd, const long dh, const long dw,
    const long is0, const long is1, const long is2, const long is3, const long is4,
    const long ws0, const long ws1, const long ws2, const long ws3, const long ws4,
    const long bs0,
    const long os0, const long os1, const long os2, const long os3, const long os4,
    const long dt, const long has_bias, const long transposed) {
  __global const uchar *in = in_base + in_off;
  __global const uchar *w = w_base + w_off;
  __global const uchar *bias = b_base + b_off;
  __global uchar *o = o_base + o_off;
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

/// Sizes and strides of a (N, C, spatial...) tensor as 3 spatial dimensions: unit sizes and
/// zero strides in front.
void toThreeSpatial(const Operand &t, std::vector<int64_t> &sizes, std::vector<int64_t> &strides) {
  sizes = t.sizes;
  strides = t.strides;
  while (sizes.size() < 5) {
    sizes.insert(sizes.begin() + 2, 1);
    strides.insert(strides.begin() + 2, 0);
  }
}

} // namespace

FamilySource convolutionSource() {
  return {kSource, {{"fx_convolution", false}}, {Variant::Float, Variant::Double}};
}

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
  size_t spatial = static_cast<size_t>(rank - 2);
  auto stride = spatialList(args, "stride", spatial, 1);
  auto padding = spatialList(args, "padding", spatial, 0);
  auto dilation = spatialList(args, "dilation", spatial, 1);
  if (!stride || !padding || !dilation)
    return false;
  for (size_t d = 0; d < spatial; ++d)
    if ((*stride)[d] < 1 || (*dilation)[d] < 1 || (*padding)[d] < 0)
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
  std::vector<int64_t> is, ist, ws, wst, os, ost;
  toThreeSpatial(*input, is, ist);
  toThreeSpatial(*weight, ws, wst);
  toThreeSpatial(*out, os, ost);
  std::vector<int64_t> st = *stride, pad = *padding, dil = *dilation;
  while (st.size() < 3) {
    st.insert(st.begin(), 1);
    pad.insert(pad.begin(), 0);
    dil.insert(dil.begin(), 1);
  }
  auto launcher = launcherFor(*variant);
  if (!launcher)
    return launcher.takeError();
  std::vector<LaunchArg> a = {
      bufferArg(*input, false),
      bufferArg(*weight, false),
      bufferArg(bias ? *bias : *weight, false),
      bufferArg(*out, true),
      longArg(out->numel()),
      longArg(cin),
      longArg(cout),
      longArg(g),
  };
  for (int64_t v : {is[2], is[3], is[4], os[2], os[3], os[4], ws[2], ws[3], ws[4]})
    a.push_back(longArg(v));
  for (const std::vector<int64_t> *list : {&st, &pad, &dil})
    for (int64_t v : *list)
      a.push_back(longArg(v));
  for (int64_t v : ist)
    a.push_back(longArg(v));
  for (int64_t v : wst)
    a.push_back(longArg(v));
  a.push_back(longArg(bias ? bias->strides[0] : 0));
  for (int64_t v : ost)
    a.push_back(longArg(v));
  a.push_back(longArg(dtypeCode(dtype)));
  a.push_back(longArg(bias.has_value()));
  a.push_back(longArg(*transposed));
  if (Status s = launcher->launch("fx_convolution", a, out->numel(), 1); !s)
    return s.takeError();
  return true;
}

} // namespace fxkit::opencl::device_externs
