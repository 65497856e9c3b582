/// \file sort (sort.default, sort.stable) and topk on the device, with the reference kernels'
/// order (backends/interp/ReductionFamilyKernels.cpp, ExternKernels.cpp): stable (equal keys
/// keep their index order, for every `stable` flag, as the reference does), NaN greater than
/// every number (last ascending, first descending), -0.0 equal to 0.0; topk is the sort in
/// `largest` order of which the first k are kept (sorted, which `sorted=False` also allows).
///
/// A bottom-up merge sort of each row's indices: keys compare with their index as a tie-break,
/// a total order, so every element finds its place in the merged run by a binary search in the
/// other run: one work-item per element and pass, ceil(log2 n) passes, ping-ponging two
/// temporary index buffers; the last pass writes the values (bits copied) and int64 indices.

#include "backends/opencl/runtime/DeviceExternSupport.h"

#include <limits>

namespace fxkit::opencl::device_externs {

namespace {

constexpr std::string_view kSource = R"CL(
/// Whether element x of a row comes before element y: keys in the requested direction (NaN
/// greatest), then the smaller index.
inline bool FX_NAME(fx_sort_before)(__global const uchar *in, long base, long stride, long dt,
                                    long desc, uint x, uint y) {
  const FX_KEY a = FX_LDKEY(in, base + (long)x * stride, dt);
  const FX_KEY b = FX_LDKEY(in, base + (long)y * stride, dt);
  const bool an = FX_KEY_ISNAN(a), bn = FX_KEY_ISNAN(b);
  if (an != bn)
    return desc ? an : bn;
  if (!an && a != b)
    return desc ? a > b : a < b;
  return x < y;
}

/// One merge pass over every row: runs of `width` sorted indices (in `src`, or the identity on
/// the first pass) merge pairwise into `dst`; on the last pass the merged order goes to the
/// values and indices instead, its first `k` places only (topk).
__kernel void FX_NAME(fx_sort_merge)(
    __global const uchar *in_base, const ulong in_off,
    __global const uchar *src_base, const ulong src_off,
    __global uchar *dst_base, const ulong dst_off,
    __global uchar *val_base, const ulong val_off,
    __global uchar *idx_base, const ulong idx_off,
    const long xnumel, const long n, const long width, const long first, const long last,
    const long desc, const long k, const long dt, const long item,
    const long o1, const long o2, const long o3,
    const long is0, const long is1, const long is2, const long is3, const long isd,
    const long vs0, const long vs1, const long vs2, const long vs3, const long vsd,
    const long xs0, const long xs1, const long xs2, const long xs3, const long xsd) {
  __global const uchar *in = in_base + in_off;
  __global const uint *src = (__global const uint *)(src_base + src_off);
  __global uint *dst = (__global uint *)(dst_base + dst_off);
  __global uchar *val = val_base + val_off;
  __global long *idx = (__global long *)(idx_base + idx_off);
  for (long e = get_global_id(0); e < xnumel; e += get_global_size(0)) {
    const long row = e / n, p = e % n;
    // The row's outer index (up to 4 dimensions, the first outermost).
    const long r3 = row % o3, r2 = (row / o3) % o2, r1 = (row / (o3 * o2)) % o1;
    const long r0 = row / (o3 * o2 * o1);
    const long base = r0 * is0 + r1 * is1 + r2 * is2 + r3 * is3;
    __global const uint *run = src + row * n;
    const long start = p / (2 * width) * (2 * width);
    const long mid = min(start + width, n), end = min(start + 2 * width, n);
    const uint me = first ? (uint)p : run[p];
    // Places before me in the other run: a binary search for the first element after me.
    const bool inA = p < mid;
    long lo = inA ? mid : start, hi = inA ? end : mid;
    while (lo < hi) {
      const long m = (lo + hi) / 2;
      const uint other = first ? (uint)m : run[m];
      if (FX_NAME(fx_sort_before)(in, base, isd, dt, desc, other, me))
        lo = m + 1;
      else
        hi = m;
    }
    const long place = start + (inA ? p - start : p - mid) + (lo - (inA ? mid : start));
    if (!last) {
      dst[row * n + place] = me;
    } else if (place < k) {
      const long vbase = r0 * vs0 + r1 * vs1 + r2 * vs2 + r3 * vs3;
      const long xbase = r0 * xs0 + r1 * xs1 + r2 * xs2 + r3 * xs3;
      fx_copy(val, vbase + place * vsd, in, base + (long)me * isd, item);
      idx[xbase + place * xsd] = (long)me;
    }
  }
}
)CL";

/// The dimensions of a row-wise op other than `dim`, merged where one steps over the next
/// evenly in every tensor, as up to 4 sizes (the first outermost) with each tensor's strides;
/// nullopt when more than 4 remain.
struct Outer {
  std::vector<int64_t> sizes;
  std::vector<std::vector<int64_t>> strides; ///< per tensor
};

std::optional<Outer> outerDims(const std::vector<int64_t> &sizes,
                               const std::vector<const std::vector<int64_t> *> &strides,
                               size_t dim) {
  Outer o;
  o.strides.resize(strides.size());
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (d == dim || sizes[d] == 1)
      continue;
    bool merge = !o.sizes.empty();
    for (size_t t = 0; t < strides.size() && merge; ++t)
      merge = o.strides[t].back() == (*strides[t])[d] * sizes[d];
    if (merge) {
      o.sizes.back() *= sizes[d];
      for (size_t t = 0; t < strides.size(); ++t)
        o.strides[t].back() = (*strides[t])[d];
      continue;
    }
    o.sizes.push_back(sizes[d]);
    for (size_t t = 0; t < strides.size(); ++t)
      o.strides[t].push_back((*strides[t])[d]);
  }
  if (o.sizes.size() > 4)
    return std::nullopt;
  while (o.sizes.size() < 4) {
    o.sizes.insert(o.sizes.begin(), 1);
    for (auto &s : o.strides)
      s.insert(s.begin(), 0);
  }
  return o;
}

} // namespace

FamilySource sortSource() {
  return {kSource, {{"fx_sort_merge", false}}, {Variant::Float, Variant::Double, Variant::Long}};
}

Expected<bool> runSort(const Call &call, const LauncherFor &launcherFor, bool topk) {
  const BoundArgs &args = call.args();
  auto self = call.input("self");
  auto dimArg = args.integer("dim");
  if (!self || !dimArg)
    return false;
  bool desc = false;
  if (topk) {
    auto largest = args.boolean("largest");
    if (!largest)
      return false;
    desc = *largest;
  } else {
    auto d = args.boolean("descending");
    if (!d)
      return false;
    desc = *d;
  }
  // A 0-d tensor sorts as one element along dim 0 / -1.
  int64_t rank = std::max<int64_t>(self->dim(), 1);
  int64_t dim = *dimArg < 0 ? *dimArg + rank : *dimArg;
  if (dim < 0 || dim >= rank)
    return false;
  std::vector<int64_t> sizes = self->sizes, inStrides = self->strides;
  if (self->dim() == 0) {
    sizes = {1};
    inStrides = {1};
  }
  int64_t n = sizes[dim];
  int64_t k = n;
  if (topk) {
    auto kv = call.integer("k");
    if (!kv || *kv < 0 || *kv > n)
      return false;
    k = *kv;
  }
  auto values = call.output(0), indices = call.output(1);
  if (!values || !indices || values->dtype != self->dtype || indices->dtype != DType::Int64)
    return false;
  std::vector<int64_t> outSizes = sizes;
  outSizes[dim] = k;
  auto outStrides = [&](const Operand &o) -> std::optional<std::vector<int64_t>> {
    if (o.dim() == 0 && self->dim() == 0)
      return std::vector<int64_t>{1};
    if (o.sizes != outSizes)
      return std::nullopt;
    return o.strides;
  };
  auto vStrides = outStrides(*values), xStrides = outStrides(*indices);
  if (!vStrides || !xStrides)
    return false;
  if (self->numel() == 0 || k == 0 || n > std::numeric_limits<uint32_t>::max())
    return false;
  std::optional<Variant> variant;
  switch (self->dtype) {
  case DType::Float32:
  case DType::Float16:
  case DType::BFloat16:
  case DType::Float64:
    variant = floatingVariant(self->dtype, call.device());
    break;
  case DType::Int64:
  case DType::Int32:
  case DType::Int16:
  case DType::Int8:
  case DType::UInt8:
  case DType::Bool:
    variant = Variant::Long;
    break;
  case DType::Complex64:
  case DType::Complex128:
  case DType::Float8E4M3FN:
  case DType::Float8E5M2:
    break;
  }
  if (!variant)
    return false;
  auto outer = outerDims(sizes, {&inStrides, &*vStrides, &*xStrides}, static_cast<size_t>(dim));
  if (!outer)
    return false;
  int64_t rows = self->numel() / n;
  auto launcher = launcherFor(*variant);
  if (!launcher)
    return launcher.takeError();
  size_t bytes = static_cast<size_t>(rows * n) * sizeof(uint32_t);
  auto t0 = TempBuffer::create(call.context(), bytes);
  if (!t0)
    return t0.takeError();
  auto t1 = TempBuffer::create(call.context(), bytes);
  if (!t1)
    return t1.takeError();
  DeviceBuffer temp[2] = {t0->buffer(), t1->buffer()};
  int passes = 1;
  while ((int64_t(1) << passes) < n)
    ++passes;
  for (int pass = 0; pass < passes; ++pass) {
    bool last = pass == passes - 1;
    std::vector<LaunchArg> a = {
        bufferArg(*self, false),
        bufferArg(temp[pass % 2], false),
        bufferArg(temp[(pass + 1) % 2], !last),
        bufferArg(*values, last),
        bufferArg(*indices, last),
        longArg(rows * n),
        longArg(n),
        longArg(int64_t(1) << pass),
        longArg(pass == 0),
        longArg(last),
        longArg(desc),
        longArg(k),
        longArg(dtypeCode(self->dtype)),
        longArg(dtypeItemSize(self->dtype)),
        longArg(outer->sizes[1]),
        longArg(outer->sizes[2]),
        longArg(outer->sizes[3]),
    };
    const std::vector<int64_t> *perTensor[3] = {&inStrides, &*vStrides, &*xStrides};
    for (size_t t = 0; t < 3; ++t) {
      for (int64_t s : outer->strides[t])
        a.push_back(longArg(s));
      a.push_back(longArg((*perTensor[t])[dim]));
    }
    if (Status s = launcher->launch("fx_sort_merge", a, rows * n, 1); !s)
      return s.takeError();
  }
  return true;
}

} // namespace fxkit::opencl::device_externs
