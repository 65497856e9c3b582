#pragma once
/// \file Which extern ops a backend may run as a GEMM (one matcher for the OpenCL backend's
/// CLBlast calls and the LLVM backend's host GEMM): aten mm, addmm (with its alpha and beta)
/// and bmm whose operands and output share one dtype; and a buffer view with its sizes,
/// strides and offset evaluated.

#include "ir/Node.h"
#include "ir/loop/LoopIR.h"
#include "ir/ops/OpRegistry.h"

#include <optional>
#include <string>
#include <vector>

namespace fxkit {

struct MatrixProduct {
  std::string which;          ///< "mm", "addmm" or "bmm"
  double alpha = 1, beta = 1; ///< addmm: out = beta * bias + alpha * (a @ b)
  DType dtype = DType::Float32;
};

/// `op` as a matrix product, or nullopt (another op, an argument that does not bind, mixed
/// dtypes, no output buffer).
inline std::optional<MatrixProduct> matchMatrixProduct(const loop::LoopProgram &program,
                                                       const loop::LoopOp &op) {
  if (!op.externNode || op.externOutputs.empty() || op.externOutputs[0] < 0)
    return std::nullopt;
  std::string target(op.externNode->target());
  MatrixProduct mp;
  for (const char *name : {"mm", "addmm", "bmm"})
    if (target == std::string("torch.ops.aten.") + name + ".default" ||
        target == std::string("aten.") + name + ".default")
      mp.which = name;
  if (mp.which.empty())
    return std::nullopt;
  if (mp.which == "addmm") {
    const OpInfo *info = OpRegistry::instance().lookup(target);
    if (!info)
      return std::nullopt;
    auto args = bindArgs(*op.externNode, *info);
    if (!args)
      return std::nullopt;
    auto a = args->floating("alpha");
    auto bt = args->floating("beta");
    if (!a || !bt)
      return std::nullopt;
    mp.alpha = *a;
    mp.beta = *bt;
  }
  mp.dtype = program.buffers[op.externOutputs[0]].type.dtype;
  for (const loop::BufferView &v : op.externInputs)
    if (program.buffers[v.buffer].type.dtype != mp.dtype)
      return std::nullopt;
  return mp;
}

/// The whole of buffer `buffer` as a view (its own sizes and strides, offset 0): how an extern
/// op's output buffer is seen by the GEMM and convolution paths.
inline loop::BufferView wholeBufferView(const loop::LoopProgram &program, int32_t buffer) {
  loop::BufferView v;
  v.buffer = buffer;
  v.sizes = program.buffers[buffer].type.sizes;
  v.strides = program.buffers[buffer].type.strides;
  v.offset = SymExpr(0);
  return v;
}

/// A view's sizes, strides and offset (in elements) at the run's symbol values.
struct EvaluatedView {
  std::vector<int64_t> sizes, strides;
  int64_t offset = 0;
};

/// nullopt when a symbol is unbound.
inline std::optional<EvaluatedView> evaluateView(const loop::BufferView &v,
                                                 const SymExpr::Bindings &b) {
  EvaluatedView out;
  for (size_t i = 0; i < v.sizes.size(); ++i) {
    auto s = v.sizes[i].evaluate(b);
    auto t = v.strides[i].evaluate(b);
    if (!s || !t)
      return std::nullopt;
    out.sizes.push_back(*s);
    out.strides.push_back(*t);
  }
  auto off = v.offset.evaluate(b);
  if (!off)
    return std::nullopt;
  out.offset = *off;
  return out;
}

} // namespace fxkit
