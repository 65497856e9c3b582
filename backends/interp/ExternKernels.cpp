#include "backends/interp/ExternKernels.h"
#include "backends/interp/ExternKernelsSupport.h"

#include "ir/Try.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace fxkit {
namespace extern_kernels {

namespace {

/// One matrix of a (possibly batched, possibly transposed) operand: element (i, j) lives at
/// base + i * rowStride + j * colStride, so any strided layout is read as it is.
struct MatrixView {
  const Tensor *t;
  int64_t base, rowStride, colStride;
  double at(int64_t i, int64_t j) const {
    return t->loadDouble(base + i * rowStride + j * colStride);
  }
};

MatrixView matrixOf(const Tensor &t, int64_t batch = -1) {
  if (batch < 0)
    return {&t, t.storageOffset(), t.stride(0), t.stride(1)};
  return {&t, t.storageOffset() + batch * t.stride(0), t.stride(1), t.stride(2)};
}

/// out(i, j) = alpha * sum_k a(i, k) b(k, j) + bias(i, j), accumulated in double and written
/// through out's strides.
template <typename BiasFn>
void gemm(const MatrixView &a, const MatrixView &b, Tensor &out, int64_t outBase, int64_t m,
          int64_t n, int64_t k, double alpha, BiasFn bias) {
  int64_t outRow = out.stride(out.dim() - 2), outCol = out.stride(out.dim() - 1);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t p = 0; p < k; ++p)
        acc += a.at(i, p) * b.at(p, j);
      out.storeDouble(outBase + i * outRow + j * outCol, alpha * acc + bias(i, j));
    }
}

Status checkMatmul(const KernelContext &ctx, const Tensor &a, const Tensor &b, const Tensor &out,
                   int64_t rank) {
  if (a.dim() != rank || b.dim() != rank)
    return ctx.error("expects " + std::to_string(rank) + "-d operands, got " + sizesStr(a.sizes()) +
                     " and " + sizesStr(b.sizes()));
  bool ok = a.size(rank - 1) == b.size(rank - 2) && out.size(rank - 2) == a.size(rank - 2) &&
            out.size(rank - 1) == b.size(rank - 1) &&
            (rank == 2 || (a.size(0) == b.size(0) && out.size(0) == a.size(0)));
  if (!ok)
    return ctx.error("shapes " + sizesStr(a.sizes()) + " and " + sizesStr(b.sizes()) +
                     " cannot be multiplied into " + sizesStr(out.sizes()));
  return Status::ok();
}

/// mm (rank 2) and bmm (rank 3, one product per batch): self @ mat2.
Status matmulKernel(KernelContext &ctx, int64_t rank) {
  FXKIT_ASSIGN_OR_RETURN(auto a, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto b, ctx.tensor("mat2"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  FXKIT_TRY(checkMatmul(ctx, a, b, out, rank));
  auto noBias = [](int64_t, int64_t) { return 0.0; };
  if (rank == 2)
    gemm(matrixOf(a), matrixOf(b), out, out.storageOffset(), a.size(0), b.size(1), a.size(1), 1.0,
         noBias);
  else
    for (int64_t batch = 0; batch < a.size(0); ++batch)
      gemm(matrixOf(a, batch), matrixOf(b, batch), out, out.storageOffset() + batch * out.stride(0),
           a.size(1), b.size(2), a.size(2), 1.0, noBias);
  ctx.result.v = std::move(out);
  return Status::ok();
}

Status mmKernel(KernelContext &ctx) { return matmulKernel(ctx, 2); }

Status bmmKernel(KernelContext &ctx) { return matmulKernel(ctx, 3); }

/// addmm and addmm.out: beta * self + alpha * (mat1 @ mat2), self broadcast to the product.
Status addmmKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto bias, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto a, ctx.tensor("mat1"));
  FXKIT_ASSIGN_OR_RETURN(auto b, ctx.tensor("mat2"));
  FXKIT_ASSIGN_OR_RETURN(auto beta, ctx.scalar("beta"));
  FXKIT_ASSIGN_OR_RETURN(auto alpha, ctx.scalar("alpha"));
  bool outVariant = ctx.args.op().schema.indexOf("out") >= 0;
  Tensor out;
  if (outVariant) {
    // Tensor(a!) out: the product is written into the given buffer, which is also the result.
    FXKIT_ASSIGN_OR_RETURN(auto given, ctx.tensor("out"));
    out = given;
  } else {
    FXKIT_ASSIGN_OR_RETURN(auto fresh, ctx.allocateOutput());
    out = fresh;
  }
  FXKIT_TRY(checkMatmul(ctx, a, b, out, 2));
  std::vector<int64_t> shape{a.size(0), b.size(1)};
  if (!broadcastsTo(bias, shape))
    return ctx.error("self " + sizesStr(bias.sizes()) + " does not broadcast to " +
                     sizesStr(shape));
  // beta == 0 ignores self entirely (NaN and infinity in it do not propagate), as in PyTorch.
  auto biasAt = [&](int64_t i, int64_t j) {
    if (beta == 0)
      return 0.0;
    int64_t index[2] = {i, j};
    return beta * bias.loadDouble(broadcastOffset(bias, index));
  };
  gemm(matrixOf(a), matrixOf(b), out, out.storageOffset(), a.size(0), b.size(1), a.size(1), alpha,
       biasAt);
  ctx.result.v = std::move(out);
  return Status::ok();
}

Status embeddingKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto weight, ctx.tensor("weight"));
  FXKIT_ASSIGN_OR_RETURN(auto indices, ctx.tensor("indices"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  if (weight.dim() != 2)
    return ctx.error("embedding weight must be 2-d, got " + sizesStr(weight.sizes()));
  if (indices.dtype() != DType::Int64 && indices.dtype() != DType::Int32)
    return ctx.error("embedding indices must be int64 or int32");
  int64_t rows = weight.size(0), width = weight.size(1);
  std::optional<Error> failure;
  std::vector<int64_t> outIndex(indices.dim() + 1);
  Tensor::forEachIndex(indices.sizes(), [&](std::span<const int64_t> index) {
    if (failure)
      return;
    int64_t row = indices.getInt(index);
    if (row < 0 || row >= rows) {
      failure = ctx.error("embedding index " + std::to_string(row) + " out of range for " +
                          std::to_string(rows) + " rows");
      return;
    }
    std::copy(index.begin(), index.end(), outIndex.begin());
    for (int64_t d = 0; d < width; ++d) {
      outIndex.back() = d;
      out.setDouble(outIndex, weight.loadDouble(weight.storageOffset() + row * weight.stride(0) +
                                                d * weight.stride(1)));
    }
  });
  if (failure)
    return *failure;
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// topk: the k largest (or smallest) elements along dim with their int64 indices. NaN counts
/// as larger than every number (as in PyTorch); equal values keep their order (lower index
/// first). sorted=False also returns them sorted, which is one of the orders PyTorch allows.
Status topkKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto k, ctx.integer("k"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, ctx.integer("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto largest, ctx.boolean("largest"));
  FXKIT_ASSIGN_OR_RETURN(auto values, ctx.allocateOutput(0));
  FXKIT_ASSIGN_OR_RETURN(auto indices, ctx.allocateOutput(1));
  // A 0-d tensor behaves as one of shape [1] along dim 0 / -1.
  int64_t rank = std::max<int64_t>(self.dim(), 1);
  if (dim < -rank || dim >= rank)
    return ctx.error("dim " + std::to_string(dim) + " out of range for a " +
                     std::to_string(self.dim()) + "-d tensor");
  if (dim < 0)
    dim += rank;
  int64_t length = self.dim() == 0 ? 1 : self.size(dim);
  if (k < 0 || k > length)
    return ctx.error("k " + std::to_string(k) + " out of range for a dimension of size " +
                     std::to_string(length));
  if (self.dim() == 0) {
    if (k == 1) {
      values.setDouble({}, self.getDouble({}));
      indices.setInt({}, 0);
    }
  } else {
    std::vector<int64_t> outer = self.sizes();
    outer[dim] = 1;
    std::vector<std::pair<double, int64_t>> row(length);
    auto before = [largest](const std::pair<double, int64_t> &x,
                            const std::pair<double, int64_t> &y) {
      bool xNan = std::isnan(x.first), yNan = std::isnan(y.first);
      if (xNan || yNan)
        return largest ? (xNan && !yNan) : (!xNan && yNan);
      return largest ? x.first > y.first : x.first < y.first;
    };
    Tensor::forEachIndex(outer, [&](std::span<const int64_t> base) {
      std::vector<int64_t> index(base.begin(), base.end());
      for (int64_t i = 0; i < length; ++i) {
        index[dim] = i;
        row[i] = {self.getDouble(index), i};
      }
      std::stable_sort(row.begin(), row.end(), before);
      for (int64_t i = 0; i < k; ++i) {
        index[dim] = i;
        values.setDouble(index, row[i].first);
        indices.setInt(index, row[i].second);
      }
    });
  }
  ctx.result.v = std::vector<std::optional<Tensor>>{std::move(values), std::move(indices)};
  return Status::ok();
}

} // namespace
} // namespace extern_kernels

void registerExternKernels() {
  using namespace extern_kernels;
  static const std::pair<std::string_view, KernelFn> table[] = {
      {"torch.ops.aten.mm.default", mmKernel},
      {"torch.ops.aten.addmm.default", addmmKernel},
      {"torch.ops.aten.addmm.out", addmmKernel},
      {"torch.ops.aten.bmm.default", bmmKernel},
      {"torch.ops.aten.convolution.default", convolutionKernel},
      {"torch.ops.aten.embedding.default", embeddingKernel},
      {"torch.ops.aten.topk.default", topkKernel},
      {"torch.ops.aten._scaled_dot_product_efficient_attention.default", efficientAttentionKernel},
      {"torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default",
       flashAttentionCpuKernel},
      {"torch.ops.aten._transformer_encoder_layer_fwd.default", transformerEncoderLayerKernel},
  };
  kernels::registerKernelList(table);
}

} // namespace fxkit
