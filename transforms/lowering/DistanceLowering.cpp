/// Distances between rows (Core ATen's _cdist_forward and _pdist_forward): a reduction over
/// the columns of |a - b|^p (a count of differing columns for p = 0, a NaN-propagating max for
/// p = inf), then a pointwise root (sqrt for p = 2, ^(1/p) otherwise; none for p in {0, 1,
/// inf}). _pdist_forward's rows of pair k come from PyTorch's closed form (the row i solving
/// k's place in the triangle, computed in double as its kernel does) through indirect indices.
#include "transforms/lowering/Lowerer.h"
#include "transforms/lowering/LoweringRules.h"

#include "ir/FirstError.h"
#include "ir/Try.h"
#include "ir/ops/ShapeRules.h"

#include <cmath>

namespace fxkit::lowering {

namespace {

/// A row's value at column r0, as the compute type.
int32_t columnOf(Lowerer &l, BodyBuilder &b, const BufferView &view,
                 const std::vector<SymExpr> &coords, DType T) {
  DType stored = l.program_.buffers[view.buffer].type.dtype;
  return b.cast(
      b.load(view.buffer, linearIndex(view.offset, view.sizes, view.strides, coords), stored), T);
}

/// The reduction of |a - b|^p over the columns (the op's reduction range) into a buffer of
/// `out`'s layout, then the root as a pointwise op; the node's value is the result.
/// `rows(b)` emits the loads of the two rows' values at column r0.
template <typename Rows>
Status lowerDistance(Lowerer &l, const Node &n, double p, const SymExpr &columns, Rows rows) {
  const TensorType *out = n.value().tensor();
  if (!out)
    return l.nodeError(n, "expected a tensor value");
  const DType T = out->dtype == DType::Float64 ? DType::Float64 : DType::Float32;
  LoopOp &op = l.newOp(LoopOpKind::Reduction, n);
  std::vector<SymExpr> vars = iterate(out->sizes, op.ranges, false);
  op.reductionRanges.push_back(columns);
  op.accumulator = T;
  BodyBuilder b(op);
  auto [x, y] = rows(b, vars, T);
  int32_t d = b.op(ScalarOp::Abs, T, b.op(ScalarOp::Sub, T, x, y));
  if (p == 0) {
    op.reduction = ReductionKind::Sum;
    op.reduced = b.cast(b.op(ScalarOp::Ne, DType::Bool, d, b.constant(0, T)), T);
  } else if (std::isinf(p)) {
    op.reduction = ReductionKind::Max;
    op.reduced = d;
  } else {
    op.reduction = ReductionKind::Sum;
    op.reduced = p == 1   ? d
                 : p == 2 ? b.op(ScalarOp::Mul, T, d, d)
                          : b.op(ScalarOp::Pow, T, d, b.constant(p, T));
  }
  TensorType accType = *out;
  accType.dtype = T;
  int32_t acc = l.newBuffer(accType, l.currentOp());
  l.program_.ops[l.currentOp()].stores.push_back(
      {acc, linearIndex(SymExpr(0), accType.sizes, accType.strides, vars), 0});
  // The root.
  LoopOp &root = l.newOp(LoopOpKind::Pointwise, n);
  std::vector<SymExpr> rvars = iterate(out->sizes, root.ranges, false);
  BodyBuilder rb(root);
  int32_t v = rb.load(acc, linearIndex(SymExpr(0), accType.sizes, accType.strides, rvars), T);
  if (p == 2)
    v = rb.op(ScalarOp::Sqrt, T, v);
  else if (p != 0 && p != 1 && !std::isinf(p))
    v = rb.op(ScalarOp::Pow, T, v, rb.constant(1 / p, T));
  l.values_[n.scratch()] = l.finishPointwise(root, rb, v, *out, rvars);
  return Status::ok();
}

/// _cdist_forward(x1 (..., P, M), x2 (..., R, M), p, compute_mode): out[..., i, j] over
/// broadcast batches. compute_mode's matrix-product form for p = 2 is a different rounding of
/// the same distances; the direct form is the reference's.
Status lowerCdist(Lowerer &l, const Node &n, const BoundArgs &args) {
  auto x1 = l.tensorArg(n, args.get("x1"));
  auto x2 = l.tensorArg(n, args.get("x2"));
  auto p = args.floating("p");
  FXKIT_TRY(firstError(x1, x2, p));
  const TensorType *out = n.value().tensor();
  if (!out || x1->sizes.size() < 2 || x2->sizes.size() < 2)
    return l.lowerExtern(n, args);
  size_t rank = out->sizes.size();
  return lowerDistance(
      l, n, *p, x1->sizes.back(), [&](BodyBuilder &b, const std::vector<SymExpr> &vars, DType T) {
        // Batch dims aligned to the right of the result's batch; the row, then column r0.
        auto coords = [&](const BufferView &v, const SymExpr &row) {
          size_t r = v.sizes.size();
          std::vector<SymExpr> c(vars.end() - static_cast<std::ptrdiff_t>(r), vars.end());
          c[r - 2] = row;
          c[r - 1] = loopVar(true, 0);
          return c;
        };
        return std::pair{columnOf(l, b, *x1, coords(*x1, vars[rank - 2]), T),
                         columnOf(l, b, *x2, coords(*x2, vars[rank - 1]), T)};
      });
}

/// _pdist_forward(self (N, M), p): pair k = (i, j), i < j, in row-major order, with
/// i = trunc(n2 - sqrt(n2^2 - 1 - 2k)), n2 = N - 0.5, and j = k - N i + i (i + 1) / 2 + i + 1
/// (aten/src/ATen/native/cpu/DistanceOpsKernel.cpp).
Status lowerPdist(Lowerer &l, const Node &n, const BoundArgs &args) {
  auto self = l.tensorArg(n, args.get("self"));
  auto p = args.floating("p");
  FXKIT_TRY(firstError(self, p));
  if (self->sizes.size() != 2 || !n.value().tensor())
    return l.lowerExtern(n, args);
  const SymExpr N = self->sizes[0];
  return lowerDistance(
      l, n, *p, self->sizes[1], [&](BodyBuilder &b, const std::vector<SymExpr> &vars, DType T) {
        const DType D = DType::Float64, I = DType::Int64;
        int32_t k = b.indexValue(vars[0], I);
        int32_t rows = b.indexValue(N, I);
        int32_t n2 = b.op(ScalarOp::Sub, D, b.cast(rows, D), b.constant(0.5, D));
        int32_t under =
            b.op(ScalarOp::Sub, D,
                 b.op(ScalarOp::Sub, D, b.op(ScalarOp::Mul, D, n2, n2), b.constant(1, D)),
                 b.op(ScalarOp::Mul, D, b.constant(2, D), b.cast(k, D)));
        int32_t i = b.cast(
            b.op(ScalarOp::Trunc, D, b.op(ScalarOp::Sub, D, n2, b.op(ScalarOp::Sqrt, D, under))),
            I);
        auto add = [&](int32_t a, int32_t c) { return b.op(ScalarOp::Add, I, a, c); };
        auto mul = [&](int32_t a, int32_t c) { return b.op(ScalarOp::Mul, I, a, c); };
        int32_t one = b.intConstant(1, I);
        int32_t tri = b.op(ScalarOp::FloorDiv, I, mul(i, add(i, one)), b.intConstant(2, I));
        int32_t j = add(add(b.op(ScalarOp::Sub, I, k, mul(rows, i)), tri), add(i, one));
        SymExpr ri = l.indirectIndex(b, i, N, false), rj = l.indirectIndex(b, j, N, false);
        SymExpr r0 = loopVar(true, 0);
        return std::pair{columnOf(l, b, *self, {ri, r0}, T), columnOf(l, b, *self, {rj, r0}, T)};
      });
}

constexpr LoweringRule kRules[] = {
    {"torch.ops.aten._cdist_forward.default", lowerCdist},
    {"torch.ops.aten._pdist_forward.default", lowerPdist},
};

} // namespace

std::span<const LoweringRule> distanceLoweringRules() { return kRules; }

} // namespace fxkit::lowering
