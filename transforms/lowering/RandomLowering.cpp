/// Random numbers as pointwise loops, as Inductor lowers them (torch/_inductor/lowering.py
/// inductor_random, inductor_randint, inductor_lookup_seed): each element is the scalar op
/// rand/randn/randint64 of a seed and its contiguous row-major index (ir/loop/Philox.h).
/// inductor_seeds stays an extern call (Inductor's RandomSeeds). aten.rand, aten.randn and
/// aten.native_dropout lower to the same loops with the node's own seed
/// (philox::nodeSeed(name), a constant of the kernel), as Inductor's replace_random and the
/// native_dropout decomposition make them; their reference kernels
/// (backends/interp/RandomKernels.cpp) compute the same values.
#include "transforms/lowering/Lowerer.h"
#include "transforms/lowering/LoweringRules.h"

#include "ir/Try.h"
#include "ir/loop/Philox.h"
#include "ir/ops/ShapeRules.h"

namespace fxkit::lowering {

namespace {

/// The element's row-major index in a tensor of `sizes` (the offset Philox counts), int64.
int32_t rowMajorOffset(BodyBuilder &b, const std::vector<SymExpr> &sizes,
                       const std::vector<SymExpr> &vars) {
  return b.indexValue(
      linearIndex(SymExpr(0), sizes, TensorType::contiguousStrides(sizes), vars).simplify(),
      DType::Int64);
}

/// The seed a one-element tensor argument holds, loaded as int64.
Expected<int32_t> loadSeed(Lowerer &l, BodyBuilder &b, const Node &n, const Argument &a) {
  FXKIT_ASSIGN_OR_RETURN(auto view, l.tensorArg(n, a));
  return b.cast(b.load(view.buffer, view.offset, l.program_.buffers[view.buffer].type.dtype),
                DType::Int64);
}

/// A pointwise op over `out` storing random(seed, offset) for every element.
template <typename Value>
Status lowerRandomPointwise(Lowerer &l, const Node &n, const TensorType &out, Value value) {
  LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
  std::vector<SymExpr> vars = iterate(out.sizes, op.ranges, false);
  BodyBuilder b(op);
  FXKIT_ASSIGN_OR_RETURN(auto v, value(b, rowMajorOffset(b, out.sizes, vars)));
  l.values_[n.scratch()] = l.finishPointwise(op, b, v, out, vars);
  return Status::ok();
}

Status lowerInductorRandom(Lowerer &l, const Node &n, const BoundArgs &args) {
  const TensorType *out = n.value().tensor();
  if (!out)
    return l.nodeError(n, "expected a tensor value");
  const ScalarOp mode = args.get("mode").asString() == "randn" ? ScalarOp::Randn : ScalarOp::Rand;
  return lowerRandomPointwise(l, n, *out, [&](BodyBuilder &b, int32_t offset) -> Expected<int32_t> {
    FXKIT_ASSIGN_OR_RETURN(auto seed, loadSeed(l, b, n, args.get("seed")));
    return b.op(mode, DType::Float32, seed, offset);
  });
}

Status lowerInductorRandint(Lowerer &l, const Node &n, const BoundArgs &args) {
  const TensorType *out = n.value().tensor();
  auto low = args.symInt("low");
  auto high = args.symInt("high");
  if (!out || !low || !high || !low->isConstant() || !high->isConstant())
    return l.lowerExtern(n, args); // a symbolic range: the reference kernel
  const int64_t lo = low->constant();
  const auto size =
      static_cast<int64_t>(static_cast<uint64_t>(high->constant()) - static_cast<uint64_t>(lo));
  return lowerRandomPointwise(l, n, *out, [&](BodyBuilder &b, int32_t offset) -> Expected<int32_t> {
    FXKIT_ASSIGN_OR_RETURN(auto seed, loadSeed(l, b, n, args.get("seed")));
    const DType I = DType::Int64;
    int32_t r = b.op(ScalarOp::RandInt64, I, seed, offset, b.intConstant(size, I));
    return b.op(ScalarOp::Add, I, r, b.intConstant(lo, I));
  });
}

/// inductor_lookup_seed(seeds, index): a 0-d pointwise op loading seeds[index].
Status lowerLookupSeed(Lowerer &l, const Node &n, const BoundArgs &args) {
  const TensorType *out = n.value().tensor();
  auto seeds = l.tensorArg(n, args.get("seeds"));
  auto index = args.integer("index");
  if (!out || !seeds || !index || seeds->sizes.size() != 1)
    return l.lowerExtern(n, args);
  LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
  BodyBuilder b(op);
  SymExpr at = linearIndex(seeds->offset, seeds->sizes, seeds->strides,
                           std::vector<SymExpr>{SymExpr(*index)})
                   .simplify();
  int32_t v = b.load(seeds->buffer, at, l.program_.buffers[seeds->buffer].type.dtype);
  l.values_[n.scratch()] = l.finishPointwise(op, b, v, *out, {});
  return Status::ok();
}

/// aten.rand / aten.randn: inductor_random(size, node seed, mode).to(dtype).
template <ScalarOp Mode> Status lowerAtenRandom(Lowerer &l, const Node &n, const BoundArgs &args) {
  const TensorType *out = n.value().tensor();
  if (!out || !dtypeIsFloating(out->dtype))
    return l.lowerExtern(n, args);
  const int64_t seed = loop::philox::nodeSeed(n.name());
  return lowerRandomPointwise(l, n, *out, [&](BodyBuilder &b, int32_t offset) -> Expected<int32_t> {
    return b.op(Mode, DType::Float32, b.intConstant(seed, DType::Int64), offset);
  });
}

/// native_dropout(input, p, train): one pointwise op storing both results. Training with
/// 0 < p < 1: u = rand(node seed, row-major index) as input's dtype, mask = u > p (p as that
/// dtype), out = mask * x * (1 / (1 - p)) in the compute type (float for float16/bfloat16),
/// torch/_decomp's decomposition; otherwise a copy and all-true mask, or zeros and all-false.
Status lowerNativeDropout(Lowerer &l, const Node &n, const BoundArgs &args) {
  const auto *results = n.value().tensors();
  auto input = l.tensorArg(n, args.get("input"));
  auto p = args.floating("p");
  if (!results || results->size() != 2 || !(*results)[0] || !(*results)[1] || !input || !p)
    return l.lowerExtern(n, args);
  bool train = false;
  if (!args.get("train").isNone()) {
    FXKIT_ASSIGN_OR_RETURN(auto t, args.boolean("train"));
    train = t;
  }
  const TensorType &outType = *(*results)[0], &maskType = *(*results)[1];
  const DType dt = outType.dtype;
  if (!dtypeIsFloating(dt))
    return l.lowerExtern(n, args);
  const DType T = dt == DType::Float64 ? DType::Float64 : DType::Float32;
  LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
  std::vector<SymExpr> vars = iterate(outType.sizes, op.ranges, false);
  BodyBuilder b(op);
  int32_t x =
      b.cast(b.load(input->buffer, linearIndex(input->offset, input->sizes, input->strides, vars),
                    l.program_.buffers[input->buffer].type.dtype),
             T);
  int32_t value, keep;
  if (!train || *p == 0) {
    value = x;
    keep = b.intConstant(1, DType::Bool);
  } else if (*p >= 1) {
    value = b.constant(0, T);
    keep = b.intConstant(0, DType::Bool);
  } else {
    const int64_t seed = loop::philox::nodeSeed(n.name());
    int32_t u = b.op(ScalarOp::Rand, DType::Float32, b.intConstant(seed, DType::Int64),
                     rowMajorOffset(b, outType.sizes, vars));
    u = b.cast(b.cast(u, dt), T);
    keep = b.op(ScalarOp::Gt, DType::Bool, u, b.constant(roundToFloating(*p, dt), T));
    int32_t kept = b.op(ScalarOp::Mul, T, b.cast(keep, T), x);
    value = b.op(ScalarOp::Mul, T, kept, b.constant(roundToFloating(1 / (1 - *p), T), T));
  }
  int32_t outBuffer = l.newBuffer(outType, l.currentOp());
  int32_t maskBuffer = l.newBuffer(maskType, l.currentOp());
  LoopOp &self = l.program_.ops[l.currentOp()];
  self.stores.push_back({outBuffer, linearIndex(SymExpr(0), outType.sizes, outType.strides, vars),
                         b.cast(value, dt)});
  self.stores.push_back({maskBuffer,
                         linearIndex(SymExpr(0), maskType.sizes, maskType.strides, vars),
                         b.cast(keep, DType::Bool)});
  Lowered result;
  result.kind = Lowered::Kind::Tensors;
  result.views.push_back(Lowerer::wholeView(outBuffer, outType));
  result.views.push_back(Lowerer::wholeView(maskBuffer, maskType));
  l.values_[n.scratch()] = std::move(result);
  return Status::ok();
}

constexpr LoweringRule kRules[] = {
    {"torch.ops.prims.inductor_random.default", lowerInductorRandom},
    {"torch.ops.prims.inductor_randint.default", lowerInductorRandint},
    {"torch.ops.prims.inductor_lookup_seed.default", lowerLookupSeed},
    {"torch.ops.aten.rand.default", lowerAtenRandom<ScalarOp::Rand>},
    {"torch.ops.aten.randn.default", lowerAtenRandom<ScalarOp::Randn>},
    {"torch.ops.aten.native_dropout.default", lowerNativeDropout},
};

} // namespace

std::span<const LoweringRule> randomLoweringRules() { return kRules; }

} // namespace fxkit::lowering
