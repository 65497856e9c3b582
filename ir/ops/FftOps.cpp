/// \file FFT op family: rows and inference (see ir/ops/OpFamilies.h). The spectral ops ATen's
/// torch.fft functions decompose to (_fft_r2c, _fft_c2r, _fft_c2c) and the views between
/// complex and real tensors (view_as_real, view_as_complex).
///
/// Inference follows torch/_meta_registrations.py on the CPU: meta_fft_r2c returns a fresh
/// contiguous complex tensor, meta_fft_c2c and meta_fft_c2r lay their result out as _exec_fft
/// does (aten/src/ATen/native/mkl/SpectralOps.cpp): batch dimensions first in the input's
/// stride order, then the transformed dimensions, densely. `normalization` is ATen's
/// fft_norm_mode: 0 none, 1 by 1/sqrt(n), 2 by 1/n (n the product of the signal sizes).

#include "ir/Try.h"
#include "ir/ops/InferSupport.h"
#include "ir/ops/OpFamilies.h"

#include <algorithm>
#include <numeric>

namespace fxkit {

namespace {

using C = OpCategory;

bool isComplex(DType d) { return d == DType::Complex64 || d == DType::Complex128; }

/// c10::toComplexType for the real dtypes fxkit has a complex partner of.
std::optional<DType> complexOf(DType d) {
  if (d == DType::Float32)
    return DType::Complex64;
  if (d == DType::Float64)
    return DType::Complex128;
  return std::nullopt;
}

/// c10::toRealValueType.
DType realOf(DType d) { return d == DType::Complex128 ? DType::Float64 : DType::Float32; }

/// PyTorch's TORCH_CHECK message for a condition without a message of its own.
Error checkFailed(const BoundArgs &b, std::string_view condition) {
  return b.error("Expected " + std::string(condition) + " to be true, but got false.");
}

/// The `dim` list wrapped into [0, rank): non-empty (the meta functions read dim[-1]).
Expected<std::vector<int64_t>> fftDims(const BoundArgs &b, size_t rank) {
  FXKIT_ASSIGN_OR_RETURN(auto list, b.symIntList("dim"));
  if (list.empty())
    return b.error("dim must name at least one dimension to transform");
  std::vector<int64_t> dims;
  for (const SymExpr &e : list) {
    if (!e.isConstant())
      return b.error("dim must be a list of integers, got " + e.str());
    auto d = normalizeDim(e.constant(), rank);
    if (!d)
      return b.error(d.error().message);
    dims.push_back(*d);
  }
  return dims;
}

Status checkNormalization(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto norm, b.integer("normalization"));
  if (norm < 0 || norm > 2)
    return b.error("normalization must be 0 (none), 1 (by 1/sqrt(n)) or 2 (by 1/n), got " +
                   std::to_string(norm));
  return Status::ok();
}

/// The strides _exec_fft gives its output (torch/_meta_registrations.py): the batch
/// dimensions (those not in `dims`) in decreasing input stride order (a stable sort), then
/// the transformed dimensions in increasing order; dense over the batch sizes followed by the
/// out sizes of `dims` in the order given.
Sizes execFftStrides(const TensorType &in, const Sizes &outSizes,
                     const std::vector<int64_t> &dims) {
  const size_t ndim = outSizes.size();
  std::vector<bool> transformed(ndim, false);
  for (int64_t d : dims)
    transformed[d] = true;
  std::vector<int64_t> permute;
  for (size_t d = 0; d < ndim; ++d)
    if (!transformed[d])
      permute.push_back(static_cast<int64_t>(d));
  const size_t batchDims = permute.size();
  for (size_t d = 0; d < ndim; ++d)
    if (transformed[d])
      permute.push_back(static_cast<int64_t>(d));
  std::stable_sort(permute.begin(), permute.begin() + batchDims, [&](int64_t a, int64_t b) {
    return symCompare(in.strides[a], in.strides[b]) > 0;
  });
  Sizes batched = {SymExpr(1)};
  for (int64_t d : dims)
    batched.push_back(outSizes[d]);
  Sizes dense = TensorType::contiguousStrides(batched);
  Sizes strides(ndim, SymExpr(0));
  SymExpr batchNumel(1);
  for (size_t i = batchDims; i-- > 0;) {
    strides[permute[i]] = symMul(batchNumel, dense[0]);
    batchNumel = symMul(batchNumel, outSizes[permute[i]]);
  }
  for (size_t i = batchDims; i < ndim; ++i)
    strides[permute[i]] = dense[1 + (i - batchDims)];
  return strides;
}

/// meta_fft_c2c's layout with the dims given (self's clone when there are none).
TensorType c2cType(const TensorType &self, const std::vector<int64_t> &dims) {
  if (dims.empty())
    return make(self.dtype, self.sizes, preserveFormatStrides(self), self.device);
  return make(self.dtype, self.sizes, execFftStrides(self, self.sizes, dims), self.device);
}

Expected<NodeValue> fftR2c(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  if (!dtypeIsFloating(self.dtype) || isComplex(self.dtype))
    return checkFailed(b, "self.is_floating_point()");
  std::optional<DType> out = complexOf(self.dtype);
  if (!out)
    return b.error("Unsupported dtype " + std::string(dtypeScalarTypeName(self.dtype)) +
                   ": fxkit has complex64 and complex128 only (convert to float32 first)");
  FXKIT_ASSIGN_OR_RETURN(auto dims, fftDims(b, self.sizes.size()));
  FXKIT_TRY(checkNormalization(b));
  FXKIT_ASSIGN_OR_RETURN(auto onesided, b.boolean("onesided"));
  Sizes sizes = self.sizes;
  if (onesided)
    sizes[dims.back()] = symAdd(symFloorDiv(sizes[dims.back()], SymExpr(2)), SymExpr(1));
  return one(contiguous(*out, std::move(sizes), self.device));
}

Expected<NodeValue> fftC2c(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  if (!isComplex(self.dtype))
    return checkFailed(b, "self.is_complex()");
  FXKIT_ASSIGN_OR_RETURN(auto list, b.symIntList("dim"));
  std::vector<int64_t> dims;
  for (const SymExpr &e : list) {
    if (!e.isConstant())
      return b.error("dim must be a list of integers, got " + e.str());
    auto d = normalizeDim(e.constant(), self.sizes.size());
    if (!d)
      return b.error(d.error().message);
    dims.push_back(*d);
  }
  FXKIT_TRY(checkNormalization(b));
  return one(c2cType(self, dims));
}

Expected<NodeValue> fftC2r(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  if (!isComplex(self.dtype))
    return checkFailed(b, "self.is_complex()");
  FXKIT_ASSIGN_OR_RETURN(auto dims, fftDims(b, self.sizes.size()));
  FXKIT_TRY(checkNormalization(b));
  FXKIT_ASSIGN_OR_RETURN(auto lastDimSize, b.symInt("last_dim_size"));
  if (lastDimSize.isConstant() && lastDimSize.constant() < 1)
    return b.error("Invalid number of data points (" + lastDimSize.str() + ") specified");
  // Multi-dimensional: a backward c2c over all but the last dim, then a 1-d c2r.
  TensorType input = self;
  if (dims.size() > 1)
    input = c2cType(self, std::vector<int64_t>(dims.begin(), dims.end() - 1));
  Sizes sizes = input.sizes;
  sizes[dims.back()] = lastDimSize;
  Sizes strides = execFftStrides(input, sizes, {dims.back()});
  return one(make(realOf(self.dtype), std::move(sizes), std::move(strides), self.device));
}

/// A complex tensor's floats: a trailing dimension of 2, strides and offset in floats.
Expected<NodeValue> viewAsReal(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  if (!isComplex(self.dtype))
    return b.error("view_as_real is only supported for complex tensors");
  Sizes sizes = self.sizes;
  sizes.push_back(SymExpr(2));
  Sizes strides;
  for (const SymExpr &s : self.strides)
    strides.push_back(symMul(s, SymExpr(2)));
  strides.push_back(SymExpr(1));
  return one(make(realOf(self.dtype), std::move(sizes), std::move(strides), self.device));
}

/// A float tensor of trailing size 2 read as complex (at::native::view_as_complex's checks).
Expected<NodeValue> viewAsComplex(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto self, b.tensor("self"));
  std::optional<DType> out = complexOf(self.dtype);
  if (!out)
    return b.error("view_as_complex is only supported for float and double tensors, but got a "
                   "tensor of scalar type: " +
                   std::string(dtypeScalarTypeName(self.dtype)));
  if (self.sizes.empty() || !symIs(self.sizes.back(), 2))
    return b.error("Tensor must have a last dimension of size 2");
  if (!symIs(self.strides.back(), 1))
    return b.error("Tensor must have a last dimension with stride 1");
  Sizes sizes(self.sizes.begin(), self.sizes.end() - 1);
  Sizes strides;
  for (size_t d = 0; d + 1 < self.strides.size(); ++d) {
    const SymExpr &s = self.strides[d];
    if (s.isConstant() && s.constant() % 2 != 0)
      return b.error("Tensor must have a stride divisible by 2 for all but last dimension");
    strides.push_back(symFloorDiv(s, SymExpr(2)));
  }
  return one(make(*out, std::move(sizes), std::move(strides), self.device));
}

// clang-format off
const OpRow kRows[] = {
  {"torch.ops.aten._fft_r2c.default", "_fft_r2c(Tensor self, int[] dim, int normalization, bool onesided) -> Tensor", C::Extern, fftR2c},
  {"torch.ops.aten._fft_c2r.default", "_fft_c2r(Tensor self, int[] dim, int normalization, SymInt last_dim_size) -> Tensor", C::Extern, fftC2r},
  {"torch.ops.aten._fft_c2c.default", "_fft_c2c(Tensor self, SymInt[] dim, int normalization, bool forward) -> Tensor", C::Extern, fftC2c},
  {"torch.ops.aten.view_as_real.default", "view_as_real(Tensor(a) self) -> Tensor(a)", C::View, viewAsReal},
  {"torch.ops.aten.view_as_complex.default", "view_as_complex(Tensor(a) self) -> Tensor(a)", C::View, viewAsComplex},
};
// clang-format on

} // namespace

std::span<const OpRow> fftOpRows() { return kRows; }

} // namespace fxkit
