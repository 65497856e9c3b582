#include "backends/llvm/HostBlas.h"

#include "backends/program/MatrixProduct.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace fxkit::llvmjit {

using namespace loop;

namespace {

/// A strided view evaluated: up to 3 dimensions (batch, rows, columns), in elements.
struct View {
  std::byte *base = nullptr; ///< the buffer's first byte
  int64_t offset = 0;
  std::vector<int64_t> sizes, strides;
};

std::optional<View> evaluate(const BufferView &v, const HostBuffer &storage, int itemSize,
                             const SymExpr::Bindings &b) {
  if (!storage.base || storage.offset % itemSize != 0)
    return std::nullopt;
  auto e = evaluateView(v, b);
  if (!e)
    return std::nullopt;
  return View{storage.base + storage.offset, e->offset, std::move(e->sizes), std::move(e->strides)};
}

/// C[b] = alpha * A[b] @ B[b] + beta * bias (broadcast), for every batch b.
template <typename T>
void gemm(const View &a, const View &bm, const View &c, const View *bias, T alpha, T beta,
          ThreadPool &pool) {
  bool batched = c.sizes.size() == 3;
  int64_t batches = batched ? c.sizes[0] : 1;
  size_t d = batched ? 1 : 0;
  int64_t M = c.sizes[d], N = c.sizes[d + 1], K = a.sizes[d + 1];
  const T *A = reinterpret_cast<const T *>(a.base) + a.offset;
  const T *B = reinterpret_cast<const T *>(bm.base) + bm.offset;
  T *C = reinterpret_cast<T *>(c.base) + c.offset;
  int64_t sab = batched ? a.strides[0] : 0, sbb = batched ? bm.strides[0] : 0,
          scb = batched ? c.strides[0] : 0;
  int64_t sa0 = a.strides[d], sa1 = a.strides[d + 1], sb0 = bm.strides[d], sb1 = bm.strides[d + 1],
          sc0 = c.strides[d], sc1 = c.strides[d + 1];
  // Bias broadcast to [M, N]: strides with 0 where it has size 1 or no dimension.
  int64_t bs0 = 0, bs1 = 0;
  const T *bias0 = nullptr;
  if (bias) {
    bias0 = reinterpret_cast<const T *>(bias->base) + bias->offset;
    size_t n = bias->sizes.size();
    if (n >= 1)
      bs1 = bias->sizes[n - 1] == 1 ? 0 : bias->strides[n - 1];
    if (n >= 2)
      bs0 = bias->sizes[n - 2] == 1 ? 0 : bias->strides[n - 2];
  }
  std::vector<T> packed(static_cast<size_t>(K * N)); // B[b] row-major
  constexpr int64_t kRowsPerTask = 16;
  for (int64_t b = 0; b < batches; ++b) {
    const T *Ab = A + b * sab, *Bb = B + b * sbb;
    T *Cb = C + b * scb;
    for (int64_t k = 0; k < K; ++k)
      for (int64_t j = 0; j < N; ++j)
        packed[static_cast<size_t>(k * N + j)] = Bb[k * sb0 + j * sb1];
    size_t tasks = static_cast<size_t>((M + kRowsPerTask - 1) / kRowsPerTask);
    pool.parallelFor(tasks, [&](size_t task) {
      std::vector<T> row(static_cast<size_t>(N));
      int64_t end = std::min<int64_t>(M, static_cast<int64_t>(task + 1) * kRowsPerTask);
      for (int64_t i = static_cast<int64_t>(task) * kRowsPerTask; i < end; ++i) {
        std::fill(row.begin(), row.end(), T(0));
        T *r = row.data();
        for (int64_t k = 0; k < K; ++k) {
          T aik = Ab[i * sa0 + k * sa1];
          const T *p = packed.data() + k * N;
          for (int64_t j = 0; j < N; ++j)
            r[j] += aik * p[j];
        }
        for (int64_t j = 0; j < N; ++j) {
          T v = alpha * r[j];
          if (bias0 && beta != T(0))
            v += beta * bias0[i * bs0 + j * bs1];
          Cb[i * sc0 + j * sc1] = v;
        }
      }
    });
  }
}

template <typename T>
Expected<bool> run(const LoopProgram &program, const LoopOp &op, const std::string &which,
                   const SymExpr::Bindings &b, std::span<const HostBuffer> buffers, double alpha,
                   double beta, ThreadPool &pool) {
  int item = sizeof(T);
  size_t first = which == "addmm" ? 1 : 0;
  if (op.externInputs.size() != first + 2)
    return false;
  const BufferView &av = op.externInputs[first], &bv = op.externInputs[first + 1];
  int32_t out = op.externOutputs[0];
  BufferView cv = wholeBufferView(program, out);
  auto a = evaluate(av, buffers[av.buffer], item, b);
  auto bm = evaluate(bv, buffers[bv.buffer], item, b);
  auto c = evaluate(cv, buffers[out], item, b);
  size_t rank = which == "bmm" ? 3 : 2;
  if (!a || !bm || !c || a->sizes.size() != rank || bm->sizes.size() != rank ||
      c->sizes.size() != rank)
    return false;
  std::optional<View> bias;
  if (which == "addmm" && beta != 0) {
    const BufferView &biasView = op.externInputs[0];
    bias = evaluate(biasView, buffers[biasView.buffer], item, b);
    if (!bias || bias->sizes.size() > 2)
      return false;
  }
  gemm<T>(*a, *bm, *c, bias ? &*bias : nullptr, static_cast<T>(alpha), static_cast<T>(beta), pool);
  return true;
}

} // namespace

Expected<bool> runHostBlas(const LoopProgram &program, const LoopOp &op,
                           const SymExpr::Bindings &bindings, std::span<const HostBuffer> buffers,
                           ThreadPool &pool) {
  auto mp = matchMatrixProduct(program, op);
  if (!mp)
    return false;
  if (mp->dtype == DType::Float32)
    return run<float>(program, op, mp->which, bindings, buffers, mp->alpha, mp->beta, pool);
  if (mp->dtype == DType::Float64)
    return run<double>(program, op, mp->which, bindings, buffers, mp->alpha, mp->beta, pool);
  return false;
}

} // namespace fxkit::llvmjit
