/// \file sort (sort.default, sort.stable) and topk on the device, with the reference kernels'
/// order (backends/interp/ReductionFamilyKernels.cpp, ExternKernels.cpp): stable (equal keys
/// keep their index order, for every `stable` flag, as the reference does), NaN greater than
/// every number (last ascending, first descending), -0.0 equal to 0.0; topk is the sort in
/// `largest` order of which the first k are kept (sorted, which `sorted=False` also allows).
///
/// A bottom-up merge sort of each row's (key, index) pairs: keys compare with their index as a
/// tie-break, a total order, so every element finds its place in the merged run by a binary
/// search in the other run. One work-item first sorts each block of 32 elements of a row in
/// private memory; then one work-item per element and pass merges runs pairwise, ping-ponging
/// two temporary key and index buffers; the last pass writes the values (bits copied from the
/// input) and int64 indices. topk keeps only the first k of every run: an element with k
/// others before it in a run is not among the k first of the row.

#include "backends/opencl/runtime/DeviceExternSupport.h"
#include "ir/Tensor.h"
#include "ir/Try.h"

#include <limits>

namespace fxkit::opencl::device_externs {

namespace {

constexpr int64_t kBlock = 32; ///< FX_SORT_BLOCK

constexpr std::string_view kSource = R"CL(
#define FX_SORT_BLOCK 32

/// Whether (a, ia) comes before (b, ib): keys in the requested direction (NaN greatest), then
/// the smaller index.
inline bool FX_NAME(fx_sort_before)(const FX_KEY a, const uint ia, const FX_KEY b, const uint ib,
                                    const long desc) {
  const bool an = FX_KEY_ISNAN(a), bn = FX_KEY_ISNAN(b);
  if (an != bn)
    return desc ? an : bn;
  if (!an && a != b)
    return desc ? a > b : a < b;
  return ia < ib;
}

/// The parameters of both kernels that say where rows and results are: the row's outer index
/// (up to 4 dimensions, the first outermost) and each tensor's strides.
#define FX_SORT_PARAMS                                                                         \
  const long n, const long desc, const long k, const long last, const long dt,                \
      const long item, const long o1, const long o2, const long o3, const long is0,           \
      const long is1, const long is2, const long is3, const long isd, const long vs0,         \
      const long vs1, const long vs2, const long vs3, const long vsd, const long xs0,         \
      const long xs1, const long xs2, const long xs3, const long xsd

#define FX_SORT_ROW(row)                                                                       \
  const long r3 = (row) % o3, r2 = ((row) / o3) % o2, r1 = ((row) / (o3 * o2)) % o1;          \
  const long r0 = (row) / (o3 * o2 * o1);                                                     \
  const long base = r0 * is0 + r1 * is1 + r2 * is2 + r3 * is3

/// The last pass: place `place` of the row's result is element `me` of the input.
#define FX_SORT_STORE(place, me)                                                               \
  if ((place) < k) {                                                                          \
    fx_copy(val, r0 * vs0 + r1 * vs1 + r2 * vs2 + r3 * vs3 + (place) * vsd, in,             \
            base + (long)(me) * isd, item);                                                   \
    idx[r0 * xs0 + r1 * xs1 + r2 * xs2 + r3 * xs3 + (place) * xsd] = (long)(me);            \
  }

/// Sorts each block of FX_SORT_BLOCK elements of a row by insertion in private memory.
__kernel void FX_NAME(fx_sort_block)(
    __global const uchar *in_base, const ulong in_off,
    __global uchar *dk_base, const ulong dk_off,
    __global uchar *di_base, const ulong di_off,
    __global uchar *val_base, const ulong val_off,
    __global uchar *idx_base, const ulong idx_off,
    const long xnumel, FX_SORT_PARAMS) {
  __global const uchar *in = in_base + in_off;
  __global FX_KEY *dk = (__global FX_KEY *)(dk_base + dk_off);
  __global uint *di = (__global uint *)(di_base + di_off);
  __global uchar *val = val_base + val_off;
  __global long *idx = (__global long *)(idx_base + idx_off);
  const long blocks = (n + FX_SORT_BLOCK - 1) / FX_SORT_BLOCK;
  for (long e = get_global_id(0); e < xnumel; e += get_global_size(0)) {
    const long row = e / blocks, start = e % blocks * FX_SORT_BLOCK;
    const int count = (int)min((long)FX_SORT_BLOCK, n - start);
    FX_SORT_ROW(row);
    FX_KEY keys[FX_SORT_BLOCK];
    uint ids[FX_SORT_BLOCK];
    for (int t = 0; t < count; ++t) {
      const uint id = (uint)(start + t);
      const FX_KEY key = FX_LDKEY(in, base + (long)id * isd, dt);
      int u = t;
      for (; u > 0 && FX_NAME(fx_sort_before)(key, id, keys[u - 1], ids[u - 1], desc); --u) {
        keys[u] = keys[u - 1];
        ids[u] = ids[u - 1];
      }
      keys[u] = key;
      ids[u] = id;
    }
    for (int t = 0; t < count; ++t) {
      if (last) {
        FX_SORT_STORE(start + t, ids[t]);
      } else {
        dk[row * n + start + t] = keys[t];
        di[row * n + start + t] = ids[t];
      }
    }
  }
}

/// One merge pass over every row: runs of `width` sorted pairs (only their first k count)
/// merge pairwise into the other buffers, or on the last pass into the values and indices.
__kernel void FX_NAME(fx_sort_merge)(
    __global const uchar *in_base, const ulong in_off,
    __global const uchar *sk_base, const ulong sk_off,
    __global const uchar *si_base, const ulong si_off,
    __global uchar *dk_base, const ulong dk_off,
    __global uchar *di_base, const ulong di_off,
    __global uchar *val_base, const ulong val_off,
    __global uchar *idx_base, const ulong idx_off,
    const long xnumel, const long width, FX_SORT_PARAMS) {
  __global const uchar *in = in_base + in_off;
  __global const FX_KEY *sk = (__global const FX_KEY *)(sk_base + sk_off);
  __global const uint *si = (__global const uint *)(si_base + si_off);
  __global FX_KEY *dk = (__global FX_KEY *)(dk_base + dk_off);
  __global uint *di = (__global uint *)(di_base + di_off);
  __global uchar *val = val_base + val_off;
  __global long *idx = (__global long *)(idx_base + idx_off);
  for (long e = get_global_id(0); e < xnumel; e += get_global_size(0)) {
    const long row = e / n, p = e % n;
    const long start = p / (2 * width) * (2 * width);
    const long mid = min(start + width, n), end = min(start + 2 * width, n);
    const long lenA = min(mid - start, k), lenB = min(end - mid, k);
    const bool inA = p < mid;
    const long own = inA ? p - start : p - mid;
    if (own >= (inA ? lenA : lenB))
      continue; // past the first k of its run
    __global const FX_KEY *rk = sk + row * n;
    __global const uint *ri = si + row * n;
    const FX_KEY key = rk[p];
    const uint id = ri[p];
    // Places before it in the other run: a binary search for the first element after it.
    const long from = inA ? mid : start;
    long lo = from, hi = from + (inA ? lenB : lenA);
    while (lo < hi) {
      const long m = (lo + hi) / 2;
      if (FX_NAME(fx_sort_before)(rk[m], ri[m], key, id, desc))
        lo = m + 1;
      else
        hi = m;
    }
    const long place = own + (lo - from);
    if (place >= k)
      continue;
    if (last) {
      FX_SORT_ROW(row);
      FX_SORT_STORE(place, id);
    } else {
      dk[row * n + start + place] = key;
      di[row * n + start + place] = id;
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
  return {kSource,
          {{"fx_sort_block", false}, {"fx_sort_merge", false}},
          {Variant::Float, Variant::Double, Variant::Long},
          ""};
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
  // Floating keys compare in their floating variant, integer and bool keys as long.
  std::optional<Variant> variant;
  if (dtypeIsFloating(self->dtype))
    variant = floatingVariant(self->dtype, call.device());
  else if (dtypeIsComputable(self->dtype))
    variant = Variant::Long;
  if (!variant)
    return false;
  auto outer = outerDims(sizes, {&inStrides, &*vStrides, &*xStrides}, static_cast<size_t>(dim));
  if (!outer)
    return false;
  int64_t rows = self->numel() / n;
  FXKIT_ASSIGN_OR_RETURN(auto launcher, launcherFor(*variant));
  // Keys as the kernels compare them (float for float16/bfloat16/float32, else 8 bytes) and
  // indices, twice: each merge pass reads one pair of buffers and writes the other.
  size_t keyBytes = *variant == Variant::Float ? 4 : 8;
  size_t count = static_cast<size_t>(rows * n);
  std::vector<TempBuffer> temps;
  for (size_t bytes : {keyBytes, keyBytes, sizeof(uint32_t), sizeof(uint32_t)}) {
    FXKIT_ASSIGN_OR_RETURN(auto t, TempBuffer::create(call.context(), count * bytes));
    temps.push_back(std::move(t));
  }
  DeviceBuffer keys[2] = {temps[0].buffer(), temps[1].buffer()};
  DeviceBuffer ids[2] = {temps[2].buffer(), temps[3].buffer()};
  int merges = 0;
  while ((kBlock << merges) < n)
    ++merges;
  auto params = [&](std::vector<LaunchArg> &a, bool last) {
    for (int64_t v :
         {n, int64_t(desc), k, int64_t(last), int64_t(dtypeCode(self->dtype)),
          int64_t(dtypeItemSize(self->dtype)), outer->sizes[1], outer->sizes[2], outer->sizes[3]})
      a.push_back(longArg(v));
    const std::vector<int64_t> *perTensor[3] = {&inStrides, &*vStrides, &*xStrides};
    for (size_t t = 0; t < 3; ++t) {
      for (int64_t s : outer->strides[t])
        a.push_back(longArg(s));
      a.push_back(longArg((*perTensor[t])[dim]));
    }
  };
  int64_t blocks = (n + kBlock - 1) / kBlock;
  std::vector<LaunchArg> first = {
      bufferArg(*self, false),     bufferArg(keys[0], merges > 0), bufferArg(ids[0], merges > 0),
      bufferArg(*values, !merges), bufferArg(*indices, !merges),   longArg(rows * blocks),
  };
  params(first, merges == 0);
  FXKIT_TRY(launcher.launch("fx_sort_block", first, rows * blocks, 1));
  for (int pass = 0; pass < merges; ++pass) {
    bool last = pass == merges - 1;
    int from = pass % 2, to = 1 - from;
    std::vector<LaunchArg> a = {
        bufferArg(*self, false),     bufferArg(keys[from], false),
        bufferArg(ids[from], false), bufferArg(keys[to], !last),
        bufferArg(ids[to], !last),   bufferArg(*values, last),
        bufferArg(*indices, last),   longArg(rows * n),
        longArg(kBlock << pass),
    };
    params(a, last);
    FXKIT_TRY(launcher.launch("fx_sort_merge", a, rows * n, 1));
  }
  return true;
}

} // namespace fxkit::opencl::device_externs
