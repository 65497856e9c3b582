#include "backends/opencl/runtime/BlasExtern.h"

#include "backends/opencl/runtime/CompilerStderrFilter.h"
#include "backends/opencl/runtime/GemmTemplate.h"

#include "backends/program/MatrixProduct.h"
#include "ir/Node.h"
#include "ir/Try.h"
#include "ir/ops/OpRegistry.h"

#ifdef FXKIT_HAVE_CLBLAST
#include <clblast.h>
#endif

#include <algorithm>
#include <optional>
#include <type_traits>

namespace fxkit::opencl {

using namespace loop;

#ifndef FXKIT_HAVE_CLBLAST

bool haveBlas() { return false; }

Expected<bool> runBlasExtern(OpenCLContext &, const OpenCLOptions &, const LoopProgram &,
                             const LoopOp &, const SymExpr::Bindings &,
                             std::span<const DeviceBuffer>, GemmRoute *, GemmEpilogue *) {
  return false;
}

#else

bool haveBlas() { return true; }

namespace {

/// A matrix operand as CLBlast takes it (row-major layout).
struct Matrix {
  cl_mem mem = nullptr;
  size_t offset = 0; ///< elements
  size_t ld = 0;
  size_t batchStride = 0;
  bool transposed = false;
  int64_t rows = 0, cols = 0;
};

/// The last two dimensions of `view` as a matrix, or nullopt when neither has unit stride.
std::optional<Matrix> matrixOf(const BufferView &view, const DeviceBuffer &storage, int itemSize,
                               const SymExpr::Bindings &b) {
  size_t n = view.sizes.size();
  if (n < 2 || !storage.mem || storage.offset % itemSize != 0)
    return std::nullopt;
  auto e = evaluateView(view, b);
  if (!e)
    return std::nullopt;
  const std::vector<int64_t> &sizes = e->sizes, &strides = e->strides;
  Matrix m;
  m.mem = storage.mem;
  m.offset = storage.offset / itemSize + static_cast<size_t>(e->offset);
  m.rows = sizes[n - 2];
  m.cols = sizes[n - 1];
  if (strides[n - 1] == 1 || m.cols == 1) {
    m.ld = static_cast<size_t>(std::max<int64_t>({strides[n - 2], m.cols, 1}));
  } else if (strides[n - 2] == 1 || m.rows == 1) {
    m.transposed = true;
    m.ld = static_cast<size_t>(std::max<int64_t>({strides[n - 1], m.rows, 1}));
  } else {
    return std::nullopt;
  }
  if (n == 3)
    m.batchStride = static_cast<size_t>(strides[0]);
  else if (n > 3)
    return std::nullopt;
  return m;
}

template <typename T>
Status blasGemm(OpenCLContext &ctx, const Matrix &a, const Matrix &b, const Matrix &c, size_t batch,
                T alpha, T beta) {
  cl_command_queue q = ctx.queue();
  auto ta = a.transposed ? clblast::Transpose::kYes : clblast::Transpose::kNo;
  auto tb = b.transposed ? clblast::Transpose::kYes : clblast::Transpose::kNo;
  size_t m = static_cast<size_t>(a.rows), k = static_cast<size_t>(a.cols),
         n = static_cast<size_t>(b.cols);
  clblast::StatusCode s;
  if (batch == 0)
    s = clblast::Gemm<T>(clblast::Layout::kRowMajor, ta, tb, m, n, k, alpha, a.mem, a.offset, a.ld,
                         b.mem, b.offset, b.ld, beta, c.mem, c.offset, c.ld, &q);
  else
    s = clblast::GemmStridedBatched<T>(clblast::Layout::kRowMajor, ta, tb, m, n, k, alpha, a.mem,
                                       a.offset, a.ld, a.batchStride, b.mem, b.offset, b.ld,
                                       b.batchStride, beta, c.mem, c.offset, c.ld, c.batchStride,
                                       batch, &q);
  if (s != clblast::StatusCode::kSuccess)
    return Error("CLBlast GEMM failed with status " + std::to_string(static_cast<int>(s)));
  return Status::ok();
}

GemmMatrix gemmMatrix(const Matrix &m) {
  return {m.mem, m.offset, m.ld, m.batchStride, m.transposed};
}

/// C = alpha * A @ B + beta * C: float32 through runGemm (fxkit's template or CLBlast, the
/// faster per shape), float64 through CLBlast. `batch` 0: one matrix.
template <typename T>
Expected<bool> gemm(OpenCLContext &ctx, const OpenCLOptions &options, const Matrix &a,
                    const Matrix &b, const Matrix &c, size_t batch, T alpha, T beta,
                    GemmRoute *route, GemmEpilogue *epilogue = nullptr) {
  if constexpr (std::is_same_v<T, float>) {
    GemmProblem p;
    p.m = a.rows;
    p.n = b.cols;
    p.k = a.cols;
    p.batch = batch == 0 ? 1 : static_cast<int64_t>(batch);
    p.a = gemmMatrix(a);
    p.b = gemmMatrix(b);
    p.c = gemmMatrix(c);
    p.alpha = alpha;
    p.beta = beta;
    p.epilogue = epilogue;
    GemmLibrary library = [&](cl_mem out, size_t offset) -> Status {
      Matrix cq = c;
      cq.mem = out;
      cq.offset = offset;
      return blasGemm<float>(ctx, a, b, cq, batch, alpha, beta);
    };
    FXKIT_ASSIGN_OR_RETURN(*route, runGemm(ctx, options, p, &library));
    return true;
  } else {
    FXKIT_TRY(blasGemm<T>(ctx, a, b, c, batch, alpha, beta));
    *route = GemmRoute::Library;
    return true;
  }
}

/// C = bias broadcast over rows: a [1, N] row through a rank-1 product with ones, or a copy.
template <typename T>
Expected<bool> fillWithBias(OpenCLContext &ctx, const BufferView &bias, const DeviceBuffer &storage,
                            int itemSize, const Matrix &c, const SymExpr::Bindings &b) {
  if (storage.offset % itemSize != 0)
    return false;
  cl_command_queue q = ctx.queue();
  size_t base = storage.offset / itemSize;
  auto off = bias.offset.evaluate(b);
  if (!off)
    return false;
  std::vector<int64_t> strides;
  for (size_t d = 0; d < bias.strides.size(); ++d) {
    auto v = bias.strides[d].evaluate(b);
    auto n = d < bias.sizes.size() ? bias.sizes[d].evaluate(b) : Expected<int64_t>(int64_t{0});
    if (!v || !n)
      return false;
    // A size-1 dimension's stride is arbitrary (PyTorch allows any): the row dimension
    // broadcasts (stride 0); the column dimension is C's single column or broadcasts.
    bool rowDim = bias.strides.size() == 2 && d == 0;
    strides.push_back(*n != 1 ? *v : rowDim ? 0 : c.cols == 1 ? 1 : 0);
  }
  // A bias broadcast along C's columns ([M, 1]) has no BLAS form here: the host handles it.
  if (strides.size() == 2 && strides[1] == 0)
    return false;
  bool row = (strides.size() == 1 && (strides[0] == 1 || c.cols == 1)) ||
             (strides.size() == 2 && strides[0] == 0 && (strides[1] == 1 || c.cols == 1));
  if (row) {
    cl_int err = CL_SUCCESS;
    size_t rows = static_cast<size_t>(c.rows);
    cl_mem ones = clCreateBuffer(ctx.context(), CL_MEM_READ_WRITE, rows * sizeof(T), nullptr, &err);
    if (err != CL_SUCCESS)
      return clError("allocating a vector of ones for addmm", err);
    T one = 1;
    err = clEnqueueFillBuffer(q, ones, &one, sizeof one, 0, rows * sizeof(T), 0, nullptr, nullptr);
    clblast::StatusCode s = clblast::StatusCode::kSuccess;
    if (err == CL_SUCCESS)
      s = clblast::Gemm<T>(clblast::Layout::kRowMajor, clblast::Transpose::kNo,
                           clblast::Transpose::kNo, rows, static_cast<size_t>(c.cols), 1, T(1),
                           ones, 0, 1, storage.mem, base + static_cast<size_t>(*off),
                           static_cast<size_t>(c.cols), T(0), c.mem, c.offset, c.ld, &q);
    clReleaseMemObject(ones);
    if (err != CL_SUCCESS)
      return clError("filling a vector of ones for addmm", err);
    if (s != clblast::StatusCode::kSuccess)
      return Error("CLBlast bias broadcast failed with status " +
                   std::to_string(static_cast<int>(s)));
    return true;
  }
  if (strides.size() == 2 && strides[1] == 1 && strides[0] >= c.cols) {
    auto s = clblast::Omatcopy<T>(clblast::Layout::kRowMajor, clblast::Transpose::kNo,
                                  static_cast<size_t>(c.rows), static_cast<size_t>(c.cols), T(1),
                                  storage.mem, base + static_cast<size_t>(*off),
                                  static_cast<size_t>(strides[0]), c.mem, c.offset, c.ld, &q);
    if (s != clblast::StatusCode::kSuccess)
      return Error("CLBlast copy of the addmm bias failed with status " +
                   std::to_string(static_cast<int>(s)));
    return true;
  }
  return false;
}

template <typename T>
Expected<bool> run(OpenCLContext &ctx, const OpenCLOptions &options, const LoopProgram &program,
                   const LoopOp &op, const std::string &which, const SymExpr::Bindings &b,
                   std::span<const DeviceBuffer> buffers, double alpha, double beta,
                   GemmRoute *route, GemmEpilogue *epilogue) {
  int item = sizeof(T);
  size_t first = which == "addmm" ? 1 : 0;
  if (op.externInputs.size() != first + 2 || op.externOutputs.empty() || op.externOutputs[0] < 0)
    return false;
  const BufferView &av = op.externInputs[first], &bv = op.externInputs[first + 1];
  auto a = matrixOf(av, buffers[av.buffer], item, b);
  auto bm = matrixOf(bv, buffers[bv.buffer], item, b);
  int32_t out = op.externOutputs[0];
  BufferView cv = wholeBufferView(program, out);
  auto c = matrixOf(cv, buffers[out], item, b);
  if (!a || !bm || !c || c->transposed)
    return false;
  size_t batch = which == "bmm" ? static_cast<size_t>(*cv.sizes[0].evaluate(b)) : 0;
  if (which == "addmm") {
    if (beta != 0) {
      auto filled =
          fillWithBias<T>(ctx, op.externInputs[0], buffers[op.externInputs[0].buffer], item, *c, b);
      if (!filled || !*filled)
        return filled;
    }
    return gemm<T>(ctx, options, *a, *bm, *c, 0, static_cast<T>(alpha),
                   beta != 0 ? static_cast<T>(beta) : T(0), route, epilogue);
  }
  return gemm<T>(ctx, options, *a, *bm, *c, batch, T(1), T(0), route, epilogue);
}

/// Dense row-major sizes and strides of a view (evaluated), with its element offset into its
/// buffer's storage; nullopt when not contiguous or not evaluable.
std::optional<size_t> contiguousOffset(const BufferView &view, const DeviceBuffer &storage,
                                       int itemSize, const SymExpr::Bindings &b,
                                       std::vector<int64_t> *sizes) {
  if (!storage.mem || storage.offset % itemSize != 0)
    return std::nullopt;
  int64_t expected = 1;
  sizes->assign(view.sizes.size(), 0);
  for (size_t i = view.sizes.size(); i-- > 0;) {
    auto n = view.sizes[i].evaluate(b);
    auto st = view.strides[i].evaluate(b);
    if (!n || !st || (*n != 1 && *st != expected))
      return std::nullopt;
    (*sizes)[i] = *n;
    expected *= *n;
  }
  auto off = view.offset.evaluate(b);
  if (!off)
    return std::nullopt;
  return storage.offset / itemSize + static_cast<size_t>(*off);
}

/// aten.convolution, 2-D, not transposed, one group: float32 through runConvolutionGemm (fxkit's
/// implicit-GEMM template, any strides, with a bias, or CLBlast's Convgemm, the faster per
/// shape) where the template computes on this device; else CLBlast's Convgemm alone, which
/// takes no bias (CLBlast has no broadcast add for it) and NCHW contiguous tensors only.
template <typename T>
Expected<bool> convolution(OpenCLContext &ctx, const OpenCLOptions &options,
                           const LoopProgram &program, const LoopOp &op, const BoundArgs &args,
                           const SymExpr::Bindings &b, std::span<const DeviceBuffer> buffers,
                           GemmRoute *route, GemmEpilogue *epilogue) {
  auto transposed = args.boolean("transposed");
  auto groups = args.integer("groups");
  auto stride = args.intList("stride");
  auto padding = args.intList("padding");
  auto dilation = args.intList("dilation");
  const bool hasBias = !args.get("bias").isNone();
  if (!transposed || *transposed || !groups || *groups != 1 || !stride || !*stride || !padding ||
      !*padding || !dilation || !*dilation || op.externInputs.size() != (hasBias ? 3u : 2u) ||
      op.externOutputs.size() != 1 || op.externOutputs[0] < 0)
    return false;
  const std::vector<int64_t> &st = **stride, &pad = **padding, &dil = **dilation;
  if (st.size() != 2 || pad.size() != 2 || dil.size() != 2)
    return false;
  int item = sizeof(T);
  const BufferView &in = op.externInputs[0], &w = op.externInputs[1];
  int32_t out = op.externOutputs[0];
  BufferView ov = wholeBufferView(program, out);

  // CLBlast's Convgemm: no bias, NCHW contiguous tensors.
  std::optional<GemmLibrary> library;
  std::vector<int64_t> is, ws, os;
  auto inOff = contiguousOffset(in, buffers[in.buffer], item, b, &is);
  auto wOff = contiguousOffset(w, buffers[w.buffer], item, b, &ws);
  auto oOff = contiguousOffset(ov, buffers[out], item, b, &os);
  if (!hasBias && inOff && wOff && oOff && is.size() == 4 && ws.size() == 4 && os.size() == 4 &&
      ws[1] == is[1] && os[0] == is[0] && os[1] == ws[0])
    library = [&](cl_mem outMem, size_t outOffset) -> Status {
      cl_command_queue q = ctx.queue();
      // CLBlast builds its convolution kernels on first use, and NVIDIA's compiler warns on
      // them with a bare "1 warning generated." on stderr: kept off fxkit's output.
      std::optional<CompilerStderrFilter> quiet;
      quiet.emplace("CLBlast: ");
      auto status = clblast::Convgemm<T>(
          clblast::KernelMode::kCrossCorrelation, static_cast<size_t>(is[1]),
          static_cast<size_t>(is[2]), static_cast<size_t>(is[3]), static_cast<size_t>(ws[2]),
          static_cast<size_t>(ws[3]), static_cast<size_t>(pad[0]), static_cast<size_t>(pad[1]),
          static_cast<size_t>(st[0]), static_cast<size_t>(st[1]), static_cast<size_t>(dil[0]),
          static_cast<size_t>(dil[1]), static_cast<size_t>(ws[0]), static_cast<size_t>(is[0]),
          buffers[in.buffer].mem, *inOff, buffers[w.buffer].mem, *wOff, outMem, outOffset, &q);
      quiet.reset();
      if (status != clblast::StatusCode::kSuccess)
        return Error("CLBlast convolution failed with status " +
                     std::to_string(static_cast<int>(status)));
      return Status::ok();
    };

  if constexpr (std::is_same_v<T, float>) {
    if (gemmTemplateTakes(ctx, options)) {
      auto ie = evaluateView(in, b), we = evaluateView(w, b), oe = evaluateView(ov, b);
      std::optional<EvaluatedView> be;
      if (hasBias)
        be = evaluateView(op.externInputs[2], b);
      auto aligned = [&](const DeviceBuffer &d) { return d.mem && d.offset % item == 0; };
      bool ok =
          ie && we && oe && (!hasBias || be) && ie->sizes.size() == 4 && we->sizes.size() == 4 &&
          oe->sizes.size() == 4 && aligned(buffers[in.buffer]) && aligned(buffers[w.buffer]) &&
          aligned(buffers[out]) &&
          (!hasBias || (be->sizes.size() == 1 && aligned(buffers[op.externInputs[2].buffer])));
      // The weight's (c, kh, kw) must be dense: the template reads a row of it as one.
      ok = ok && (we->sizes[3] == 1 || we->strides[3] == 1) &&
           (we->sizes[2] == 1 || we->strides[2] == we->sizes[3]) &&
           (we->sizes[1] == 1 || we->strides[1] == we->sizes[2] * we->sizes[3]) &&
           we->sizes[1] == ie->sizes[1] && oe->sizes[0] == ie->sizes[0] &&
           oe->sizes[1] == we->sizes[0] && (!hasBias || be->sizes[0] == we->sizes[0]);
      // A pointwise (1x1) convolution of dense planes without a bias is a product per image:
      // weight [oc, c] @ input [c, h*w] -> output [oc, h*w], no patches to gather.
      if (ok && !hasBias && we->sizes[2] == 1 && we->sizes[3] == 1 && st[0] == 1 && st[1] == 1 &&
          pad[0] == 0 && pad[1] == 0 && ie->strides[3] == 1 && ie->strides[2] == ie->sizes[3] &&
          oe->strides[3] == 1 && oe->strides[2] == oe->sizes[3] && oe->sizes[2] == ie->sizes[2] &&
          oe->sizes[3] == ie->sizes[3]) {
        Matrix wm, xm, om;
        wm.mem = buffers[w.buffer].mem;
        wm.offset = buffers[w.buffer].offset / item + static_cast<size_t>(we->offset);
        wm.rows = we->sizes[0];
        wm.cols = we->sizes[1];
        wm.ld = static_cast<size_t>(std::max<int64_t>(we->strides[0], 1));
        xm.mem = buffers[in.buffer].mem;
        xm.offset = buffers[in.buffer].offset / item + static_cast<size_t>(ie->offset);
        xm.rows = ie->sizes[1];
        xm.cols = ie->sizes[2] * ie->sizes[3];
        xm.ld = static_cast<size_t>(std::max<int64_t>(ie->strides[1], 1));
        xm.batchStride = static_cast<size_t>(ie->strides[0]);
        om.mem = buffers[out].mem;
        om.offset = buffers[out].offset / item + static_cast<size_t>(oe->offset);
        om.rows = oe->sizes[1];
        om.cols = xm.cols;
        om.ld = static_cast<size_t>(std::max<int64_t>(oe->strides[1], 1));
        om.batchStride = static_cast<size_t>(oe->strides[0]);
        bool channelsDense = (we->sizes[1] == 1 || we->strides[1] == 1) &&
                             (ie->sizes[1] == 1 || ie->strides[1] >= xm.cols) &&
                             (oe->sizes[1] == 1 || oe->strides[1] >= om.cols);
        if (channelsDense && ie->sizes[0] >= 1) {
          // The weight is shared by every image: batch stride 0.
          // Its dense output's element numbers are the product's: an epilogue runs as for mm.
          return gemm<T>(ctx, options, wm, xm, om, static_cast<size_t>(ie->sizes[0]), T(1), T(0),
                         route, epilogue);
        }
      }
      if (ok) {
        ConvProblem p;
        p.input = buffers[in.buffer].mem;
        p.inputOffset = buffers[in.buffer].offset / item + static_cast<size_t>(ie->offset);
        p.weight = buffers[w.buffer].mem;
        p.weightOffset = buffers[w.buffer].offset / item + static_cast<size_t>(we->offset);
        p.output = buffers[out].mem;
        p.outputOffset = buffers[out].offset / item + static_cast<size_t>(oe->offset);
        if (hasBias) {
          const DeviceBuffer &bb = buffers[op.externInputs[2].buffer];
          p.bias = bb.mem;
          p.biasOffset = bb.offset / item + static_cast<size_t>(be->offset);
          p.biasStride = be->strides[0];
        }
        p.n = ie->sizes[0], p.c = ie->sizes[1], p.h = ie->sizes[2], p.w = ie->sizes[3];
        p.oc = we->sizes[0], p.kh = we->sizes[2], p.kw = we->sizes[3];
        p.oh = oe->sizes[2], p.ow = oe->sizes[3];
        for (int d = 0; d < 4; ++d) {
          p.inStrides[d] = ie->strides[d];
          p.outStrides[d] = oe->strides[d];
        }
        p.weightStride0 = we->strides[0];
        p.epilogue = epilogue;
        for (int d = 0; d < 2; ++d) {
          p.stride[d] = st[static_cast<size_t>(d)];
          p.padding[d] = pad[static_cast<size_t>(d)];
          p.dilation[d] = dil[static_cast<size_t>(d)];
        }
        FXKIT_ASSIGN_OR_RETURN(*route,
                               runConvolutionGemm(ctx, options, p, library ? &*library : nullptr));
        return true;
      }
    }
  }
  if (!library)
    return false;
  FXKIT_TRY((*library)(buffers[out].mem, *oOff));
  *route = GemmRoute::Library;
  return true;
}

/// Whether any tensor of the op has no elements: CLBlast refuses empty matrices (and a buffer
/// of zero bytes cannot be made), while the host kernel gives PyTorch's result (an empty
/// product is zeros, or beta * self).
bool anyEmpty(const LoopProgram &program, const LoopOp &op, const SymExpr::Bindings &bindings) {
  auto empty = [&](const std::vector<SymExpr> &sizes) {
    for (const SymExpr &s : sizes) {
      auto v = s.evaluate(bindings);
      if (v && *v == 0)
        return true;
    }
    return false;
  };
  for (const BufferView &v : op.externInputs)
    if (empty(v.sizes))
      return true;
  for (int32_t b : op.externOutputs)
    if (b >= 0 && empty(program.buffers[b].type.sizes))
      return true;
  return false;
}

} // namespace

Expected<bool> runBlasExtern(OpenCLContext &ctx, const OpenCLOptions &options,
                             const LoopProgram &program, const LoopOp &op,
                             const SymExpr::Bindings &bindings,
                             std::span<const DeviceBuffer> buffers, GemmRoute *route,
                             GemmEpilogue *epilogue) {
  GemmRoute unused = GemmRoute::Library;
  if (!route)
    route = &unused;
  *route = GemmRoute::Library;
  if (!op.externNode || anyEmpty(program, op, bindings))
    return false;
  std::string target(op.externNode->target());
  if (target == "torch.ops.aten.convolution.default" || target == "aten.convolution.default") {
    const OpInfo *info = OpRegistry::instance().lookup(target);
    if (!info || op.externOutputs.empty() || op.externOutputs[0] < 0)
      return false;
    auto args = bindArgs(*op.externNode, *info);
    if (!args)
      return false;
    DType dtype = program.buffers[op.externOutputs[0]].type.dtype;
    for (const BufferView &v : op.externInputs)
      if (program.buffers[v.buffer].type.dtype != dtype)
        return false;
    if (dtype == DType::Float32)
      return convolution<float>(ctx, options, program, op, *args, bindings, buffers, route,
                                epilogue);
    if (dtype == DType::Float64 && ctx.device().hasFp64)
      return convolution<double>(ctx, options, program, op, *args, bindings, buffers, route,
                                 nullptr);
    return false;
  }
  auto mp = matchMatrixProduct(program, op);
  if (!mp)
    return false;
  const std::string &which = mp->which;
  const double alpha = mp->alpha, beta = mp->beta;
  if (mp->dtype == DType::Float32)
    return run<float>(ctx, options, program, op, which, bindings, buffers, alpha, beta, route,
                      epilogue);
  if (mp->dtype == DType::Float64 && ctx.device().hasFp64)
    return run<double>(ctx, options, program, op, which, bindings, buffers, alpha, beta, route,
                       nullptr);
  return false;
}

#endif

} // namespace fxkit::opencl
