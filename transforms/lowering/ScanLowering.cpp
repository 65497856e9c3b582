/// \file Lowering rules of scans (cumsum, cumprod): one Scan loop op each, as Inductor lowers
/// them (torch/_inductor/lowering.py `cumsum`/`cumprod` -> `ir.Scan`).

#include "transforms/lowering/Lowerer.h"
#include "transforms/lowering/LoweringRules.h"

#include "ir/Try.h"
#include "ir/ops/ShapeRules.h"

namespace fxkit::lowering {

namespace {

/// The dtype a scan combines values of `out` in: PyTorch's CPU accumulate type
/// (at::acc_type<T, false>, which its cumsum/cumprod kernels use and the recorded outputs of
/// CPU runs hold): float32 for float16 and bfloat16 (Inductor upcasts half types too), float64
/// for float32 and float64, int64 for integers and bools (int64 arithmetic wraps). Each result
/// is rounded once to `out`. A float32 running sum over a long row drifts by ~sqrt(n) ulps of
/// its largest partial sums (5000 normal values: 1e-4 absolute near a zero crossing, outside
/// `fxkit run --check`'s tolerance); a scan reads and writes each point once, so the wider
/// arithmetic costs nothing measurable where memory is the limit.
DType scanAccumulator(DType out) {
  if (!dtypeIsFloating(out))
    return DType::Int64;
  return out == DType::Float16 || out == DType::BFloat16 ? DType::Float32 : DType::Float64;
}

/// cumsum/cumprod(self, dim, *, dtype=None): the input converted to the result's dtype (the
/// inferred one: `dtype=`, else int64 for integers and bools, else the input's), scanned along
/// `dim` into a new contiguous buffer. The kept dimensions are the op's ranges, the scanned one
/// its one reduction range; every (x, r) point stores its running value. A 0-d input or a
/// scanned dimension of size 1 is a conversion (each point is its own running value).
template <ScanKind kind> Status lowerScan(Lowerer &l, const Node &n, const BoundArgs &args) {
  FXKIT_ASSIGN_OR_RETURN(auto in, l.tensorArg(n, args.get("self")));
  const TensorType *out = n.value().tensor();
  if (!out)
    return l.nodeError(n, "expected a tensor value");
  FXKIT_ASSIGN_OR_RETURN(auto dim, args.integer("dim"));
  size_t rank = in.sizes.size();
  auto scanned = normalizeDim(dim, rank);
  if (!scanned)
    return l.nodeError(n, scanned.error().message);
  DType stored = l.program_.buffers[in.buffer].type.dtype;
  if (rank == 0 || symIs(in.sizes[*scanned], 1)) {
    LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
    BodyBuilder b(op);
    std::vector<SymExpr> vars = iterate(out->sizes, op.ranges, false);
    int32_t loaded = b.load(in.buffer, linearIndex(in.offset, in.sizes, in.strides, vars), stored);
    l.valueOf(&n) = l.finishPointwise(op, b, b.cast(loaded, out->dtype), *out, vars);
    return Status::ok();
  }
  LoopOp &op = l.newOp(LoopOpKind::Scan, n);
  op.scan = kind;
  op.accumulator = scanAccumulator(out->dtype);
  std::vector<SymExpr> vars(rank);
  for (size_t j = 0; j < rank; ++j) {
    if (static_cast<int64_t>(j) == *scanned) {
      vars[j] = loopVar(true, 0);
      op.reductionRanges.push_back(in.sizes[j]);
    } else {
      vars[j] = iterate({in.sizes[j]}, op.ranges, false).front();
    }
  }
  BodyBuilder b(op);
  int32_t loaded = b.load(in.buffer, linearIndex(in.offset, in.sizes, in.strides, vars), stored);
  // Converted to the result's dtype first (cumsum(x, dtype=torch.int32) of 1.7 adds 1), then
  // widened to the accumulator.
  op.reduced = b.cast(b.cast(loaded, out->dtype), op.accumulator);
  int32_t buffer = l.newBuffer(*out, l.currentOp());
  l.program_.ops[l.currentOp()].stores.push_back(
      {buffer, linearIndex(SymExpr(0), out->sizes, out->strides, vars), 0});
  l.valueOf(&n) = Lowerer::wholeValue(buffer);
  return Status::ok();
}

constexpr LoweringRule kRules[] = {
    {"torch.ops.aten.cumsum.default", lowerScan<ScanKind::Sum>},
    {"torch.ops.aten.cumprod.default", lowerScan<ScanKind::Prod>},
};

} // namespace

std::span<const LoweringRule> scanLoweringRules() { return kRules; }

} // namespace fxkit::lowering
