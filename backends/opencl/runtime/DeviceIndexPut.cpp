/// \file aten.index_put_ on the device, with the reference kernel's semantics
/// (backends/interp/IndexingKernels.cpp, indexPutKernel): self[indices] = values (or +=
/// with accumulate) in place, the integer index tensors broadcast together, None entries
/// taking whole dims, indexed dims that are not adjacent moved to the front of the result,
/// negative indices wrapped, values broadcast to the indexing result; the result (self) is
/// then copied into the op's own result buffer. Boolean masks (data-dependent) stay on the host.
///
/// A work-item per element of the non-indexed dims walks the index positions in row-major
/// order, so repeated positions end as on the CPU (the last value stays; accumulate adds in
/// order) without atomics. An index out of range is flagged and reported after the call with
/// PyTorch's message (a wait on the queue).

#include "backends/opencl/runtime/DeviceExternSupport.h"
#include "ir/Tensor.h"
#include "ir/Try.h"

namespace fxkit::opencl::device_externs {

namespace {

constexpr size_t kMaxIndexed = 4; ///< index tensors a kernel takes
constexpr size_t kMaxDims = 8;    ///< self's and the replacement's dims

constexpr std::string_view kSource = R"CL(
/// Stores an integer into an integer or bool element.
inline void fx_st_int(__global uchar *p, long i, long dt, long v) {
  switch (dt) {
  case FX_DT_I32: ((__global int *)p)[i] = (int)v; break;
  case FX_DT_I16: ((__global short *)p)[i] = (short)v; break;
  case FX_DT_I8: ((__global char *)p)[i] = (char)v; break;
  case FX_DT_U8: p[i] = (uchar)v; break;
  default: ((__global long *)p)[i] = v; break;
  }
}

// meta: self's sizes and strides (R dims, indexed ones at [before, before + K)), the
// replacement's sizes (P), per index tensor its dtype code and strides over the replacement,
// then the values' strides over the result's R - K + P dims. err: {flag, value, dim}.
__kernel void FX_NAME(fx_index_put)(
    __global uchar *s_base, const ulong s_off, __global const uchar *v_base, const ulong v_off,
    __global const uchar *i0_base, const ulong i0_off, __global const uchar *i1_base,
    const ulong i1_off, __global const uchar *i2_base, const ulong i2_off,
    __global const uchar *i3_base, const ulong i3_off, __global const uchar *m_base,
    const ulong m_off, __global uchar *e_base, const ulong e_off, const long xnumel, const long R,
    const long P, const long K, const long before, const long accumulate, const long dt,
    const long item) {
  __global uchar *self = s_base + s_off;
  __global const uchar *values = v_base + v_off;
  __global const long *m = (__global const long *)(m_base + m_off);
  __global long *err = (__global long *)(e_base + e_off);
  __global const uchar *idx[4] = {i0_base + i0_off, i1_base + i1_off, i2_base + i2_off,
                                  i3_base + i3_off};
  __global const long *sizes = m, *strides = m + R, *rep = m + 2 * R;
  __global const long *ix = rep + P;              // per index: dtype, P strides
  __global const long *vs = ix + K * (P + 1);     // values' strides over the result
  long Q = 1;
  for (long p = 0; p < P; ++p)
    Q *= rep[p];
  for (long e = get_global_id(0); e < xnumel; e += get_global_size(0)) {
    long rem = e, base = 0, vbase = 0;
    for (long j = R - 1; j >= 0; --j) {
      if (j >= before && j < before + K)
        continue;
      const long c = rem % sizes[j];
      rem /= sizes[j];
      base += c * strides[j];
      vbase += c * vs[j < before ? j : j - K + P];
    }
    for (long q = 0; q < Q; ++q) {
      long r = q, voff = vbase;
      long coords[8];
      for (long p = P - 1; p >= 0; --p) {
        coords[p] = r % rep[p];
        r /= rep[p];
        voff += coords[p] * vs[before + p];
      }
      long off = base;
      bool ok = true;
      for (long k = 0; k < K && ok; ++k) {
        long ioff = 0;
        for (long p = 0; p < P; ++p)
          ioff += coords[p] * ix[k * (P + 1) + 1 + p];
        const long value = fx_ldl(idx[k], ioff, ix[k * (P + 1)]);
        const long size = sizes[before + k];
        const long w = value < 0 ? value + size : value;
        if (w < 0 || w >= size) {
          if (atomic_cmpxchg((volatile __global int *)err, 0, 1) == 0) {
            err[1] = value;
            err[2] = before + k;
          }
          ok = false;
        }
        off += w * strides[before + k];
      }
      if (!ok)
        continue;
      if (!accumulate)
        fx_copy(self, off, values, voff, item);
      else if (dt == FX_DT_F32 || dt == FX_DT_F16 || dt == FX_DT_BF16 || dt == FX_DT_F64)
        FX_ST(self, off, dt, FX_LD(self, off, dt) + FX_LD(values, voff, dt));
      else
        fx_st_int(self, off, dt, fx_ldl(self, off, dt) + fx_ldl(values, voff, dt));
    }
  }
}
)CL";

} // namespace

FamilySource indexPutSource() {
  return {kSource, {{"fx_index_put", false}}, {Variant::Float, Variant::Double}, ""};
}

Expected<bool> runIndexPut(const Call &call, const LauncherFor &launcherFor) {
  auto self = call.input("self"), values = call.input("values");
  auto indices = call.inputList("indices");
  auto accumulate = call.args().boolean("accumulate");
  auto out = call.output(0);
  if (!self || !values || !indices || indices->empty() || !accumulate || !out ||
      values->dtype != self->dtype || out->dtype != self->dtype || out->sizes != self->sizes ||
      out->strides != self->strides || indices->size() > self->sizes.size() ||
      self->sizes.size() > kMaxDims)
    return false;
  DType dtype = self->dtype;
  bool floating = dtypeIsFloating(dtype);
  if ((*accumulate && dtype == DType::Bool) || (!floating && !dtypeIsComputable(dtype)))
    return false;
  std::optional<Variant> variant =
      floating ? floatingVariant(dtype, call.device()) : Variant::Float;
  if (!variant)
    return false;
  // The kernel writes self while it reads values and the indices: they must not overlap.
  if (overlaps(self->buffer, values->buffer))
    return false;
  // Indexed dims (integer tensors only: masks are data dependent), their broadcast shape.
  size_t rank = self->sizes.size();
  std::vector<size_t> indexed, plain;
  std::vector<std::vector<int64_t>> shapes;
  for (size_t i = 0; i < rank; ++i) {
    const std::optional<Operand> *t = i < indices->size() ? &(*indices)[i] : nullptr;
    if (t && *t) {
      if (((*t)->dtype != DType::Int64 && (*t)->dtype != DType::Int32) ||
          overlaps(self->buffer, (*t)->buffer))
        return false;
      indexed.push_back(i);
      shapes.push_back((*t)->sizes);
    } else {
      plain.push_back(i);
    }
  }
  if (indexed.empty() || indexed.size() > kMaxIndexed)
    return false;
  std::vector<int64_t> replacement;
  for (const std::vector<int64_t> &s : shapes) {
    if (s.size() > replacement.size())
      replacement.insert(replacement.begin(), s.size() - replacement.size(), 1);
    for (size_t k = 0; k < s.size(); ++k) {
      int64_t &r = replacement[replacement.size() - s.size() + k];
      if (r == 1)
        r = s[k];
      else if (s[k] != 1 && s[k] != r)
        return false;
    }
  }
  if (replacement.size() > kMaxDims)
    return false;
  // Non-adjacent indexed dims go first (the result's replacement dims lead).
  bool adjacent = indexed.back() - indexed.front() + 1 == indexed.size();
  std::vector<size_t> order;
  if (adjacent) {
    for (size_t i = 0; i < rank; ++i)
      order.push_back(i);
  } else {
    order = indexed;
    order.insert(order.end(), plain.begin(), plain.end());
  }
  int64_t before = adjacent ? static_cast<int64_t>(indexed.front()) : 0;
  int64_t K = static_cast<int64_t>(indexed.size()), P = static_cast<int64_t>(replacement.size());
  std::vector<int64_t> result;
  for (int64_t j = 0; j < before; ++j)
    result.push_back(self->sizes[order[j]]);
  result.insert(result.end(), replacement.begin(), replacement.end());
  for (size_t j = static_cast<size_t>(before + K); j < rank; ++j)
    result.push_back(self->sizes[order[j]]);
  auto vstrides = broadcastStrides(*values, result);
  if (!vstrides)
    return false;
  std::vector<int64_t> meta;
  for (size_t j : order)
    meta.push_back(self->sizes[j]);
  for (size_t j : order)
    meta.push_back(self->strides[j]);
  meta.insert(meta.end(), replacement.begin(), replacement.end());
  for (size_t i : indexed) {
    const Operand &t = *(*indices)[i];
    auto s = broadcastStrides(t, replacement);
    if (!s)
      return false;
    meta.push_back(dtypeCode(t.dtype));
    meta.insert(meta.end(), s->begin(), s->end());
  }
  meta.insert(meta.end(), vstrides->begin(), vstrides->end());
  int64_t numel = self->numel(), plainCount = 1, replaced = 1;
  for (size_t j : plain)
    plainCount *= self->sizes[j];
  for (int64_t r : replacement)
    replaced *= r;
  if (numel == 0)
    return false;
  FXKIT_ASSIGN_OR_RETURN(auto metaBuffer, TempBuffer::fromHost(call.context(), meta));
  const int64_t zeros[3] = {0, 0, 0};
  FXKIT_ASSIGN_OR_RETURN(auto errBuffer, TempBuffer::fromHost(call.context(), zeros));
  FXKIT_ASSIGN_OR_RETURN(auto launcher, launcherFor(*variant));
  if (replaced > 0 && plainCount > 0) {
    std::vector<LaunchArg> a = {bufferArg(*self, true), bufferArg(*values, false)};
    for (size_t k = 0; k < kMaxIndexed; ++k)
      a.push_back(bufferArg(k < indexed.size() ? *(*indices)[indexed[k]] : *values, false));
    a.push_back(bufferArg(metaBuffer.buffer(), false));
    a.push_back(bufferArg(errBuffer.buffer(), true));
    for (int64_t v :
         {plainCount, static_cast<int64_t>(rank), P, K, before, static_cast<int64_t>(*accumulate),
          static_cast<int64_t>(dtypeCode(dtype)), static_cast<int64_t>(dtypeItemSize(dtype))})
      a.push_back(longArg(v));
    FXKIT_TRY(launcher.launch("fx_index_put", a, plainCount, 1));
  }
  // The result is self: the same layout, so its bytes.
  cl_int rc = clEnqueueCopyBuffer(call.context().queue(), self->buffer.mem, out->buffer.mem,
                                  self->buffer.offset, out->buffer.offset, self->buffer.bytes, 0,
                                  nullptr, nullptr);
  if (rc != CL_SUCCESS)
    return clError("copying index_put_'s result", rc);
  int64_t err[3] = {0, 0, 0};
  rc = clEnqueueReadBuffer(call.context().queue(), errBuffer.buffer().mem, CL_TRUE, 0, sizeof err,
                           err, 0, nullptr, nullptr);
  if (rc != CL_SUCCESS)
    return clError("reading index_put_'s index checks", rc);
  if (err[0] != 0) {
    size_t j = static_cast<size_t>(err[2]);
    size_t dim = j < order.size() ? order[j] : j;
    return Error("index_put_: index " + std::to_string(err[1]) +
                 " is out of bounds for dimension " + std::to_string(dim) + " with size " +
                 std::to_string(self->sizes[dim]));
  }
  return true;
}

} // namespace fxkit::opencl::device_externs
