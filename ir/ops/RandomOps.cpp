/// Inductor's random prims (torch/_inductor/inductor_prims.py): a seeds buffer drawn once per
/// call (inductor_seeds), one seed per random node looked up from it (inductor_lookup_seed),
/// and the random tensors made from a seed and each element's contiguous linear index
/// (inductor_random, inductor_randint) by Philox (ir/loop/Philox.h). Their reference kernels
/// are in backends/interp/RandomKernels.cpp, their lowering rules in
/// transforms/lowering/RandomLowering.cpp. Inference follows the prims' meta functions.

#include "ir/Try.h"
#include "ir/ops/InferSupport.h"
#include "ir/ops/OpFamilies.h"

namespace fxkit {

namespace {

using C = OpCategory;

/// inductor_seeds(count, device): int64[count] (make_prim's meta: torch.empty).
Expected<NodeValue> inductorSeeds(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto count, b.integer("count"));
  FXKIT_ASSIGN_OR_RETURN(auto device, deviceOr(b, "device"));
  if (count < 0)
    return b.error("negative dimension " + std::to_string(count));
  return one(contiguous(DType::Int64, {SymExpr(count)}, device));
}

/// inductor_seed(device): one int64 seed, a 0-d tensor.
Expected<NodeValue> inductorSeed(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto device, deviceOr(b, "device"));
  return one(contiguous(DType::Int64, {}, device));
}

/// inductor_lookup_seed(seeds, index): seeds[index] as a 0-d tensor of seeds' dtype.
Expected<NodeValue> inductorLookupSeed(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto seeds, b.tensor("seeds"));
  FXKIT_ASSIGN_OR_RETURN(auto index, b.integer("index"));
  if (seeds.sizes.size() != 1)
    return b.error("seeds must be 1-d, got " + std::to_string(seeds.sizes.size()) + " dims");
  const SymExpr &n = seeds.sizes[0];
  if (index < 0 || (n.isConstant() && index >= n.constant()))
    return b.error("index " + std::to_string(index) + " is out of bounds for seeds of size " +
                   n.str());
  return one(contiguous(seeds.dtype, {}, seeds.device));
}

/// The seed argument: an integer tensor of one element.
Status checkSeed(const BoundArgs &b, const TensorType &seed) {
  if (dtypeIsFloating(seed.dtype) || seed.dtype == DType::Bool)
    return b.error("seed must be an integer tensor, got " + std::string(dtypeName(seed.dtype)));
  for (const SymExpr &s : seed.sizes)
    if (s.isConstant() && s.constant() != 1)
      return b.error("seed must have one element");
  return Status::ok();
}

/// inductor_random(size, seed, mode): float32[size] contiguous on seed's device; mode is
/// "rand" (uniform [0, 1)) or "randn" (standard normal).
Expected<NodeValue> inductorRandom(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto size, b.symIntList("size"));
  FXKIT_ASSIGN_OR_RETURN(auto seed, b.tensor("seed"));
  const Argument &mode = b.get("mode");
  if (mode.kind() != Argument::Kind::String ||
      (mode.asString() != "rand" && mode.asString() != "randn"))
    return b.error("mode must be 'rand' or 'randn'");
  FXKIT_TRY(checkSeed(b, seed));
  for (const SymExpr &s : size)
    if (s.isConstant() && s.constant() < 0)
      return b.error("negative dimension " + s.str());
  return one(contiguous(DType::Float32, std::move(size), seed.device));
}

/// inductor_randint(low, high, size, seed): int64[size] in [low, high), contiguous.
Expected<NodeValue> inductorRandint(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto low, b.symInt("low"));
  FXKIT_ASSIGN_OR_RETURN(auto high, b.symInt("high"));
  FXKIT_ASSIGN_OR_RETURN(auto size, b.symIntList("size"));
  FXKIT_ASSIGN_OR_RETURN(auto seed, b.tensor("seed"));
  FXKIT_TRY(checkSeed(b, seed));
  if (low.isConstant() && high.isConstant() && high.constant() <= low.constant())
    return b.error("random_ expects 'from' to be less than 'to', but got from=" + low.str() +
                   " >= to=" + high.str());
  for (const SymExpr &s : size)
    if (s.isConstant() && s.constant() < 0)
      return b.error("negative dimension " + s.str());
  return one(contiguous(DType::Int64, std::move(size), seed.device));
}

/// native_dropout: (out, bool mask). Following its decomposition (what FakeTensor runs), only
/// train=True with p != 0 drops; train=False or None returns the input as it is (its strides)
/// and an all-true mask laid out like ones_like.
Expected<NodeValue> nativeDropout(const BoundArgs &b) {
  FXKIT_ASSIGN_OR_RETURN(auto input, b.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto p, b.floating("p"));
  bool train = false;
  if (!b.get("train").isNone()) {
    FXKIT_ASSIGN_OR_RETURN(auto t, b.boolean("train"));
    train = t;
  }
  if (!(p >= 0 && p <= 1))
    return b.error("dropout probability has to be between 0 and 1, but got " + std::to_string(p));
  TensorType mask = make(DType::Bool, input.sizes, preserveFormatStrides(input), input.device);
  if (!train || p == 0)
    return many({input, mask});
  if (p == 1)
    return many({make(input.dtype, input.sizes, mask.strides, input.device), mask});
  if (!dtypeIsFloating(input.dtype))
    return b.error("result type Float can't be cast to the desired output type " +
                   std::string(dtypeName(input.dtype)));
  Sizes strides = elementwiseStrides(input.sizes, {&mask, &input});
  return many({make(input.dtype, input.sizes, std::move(strides), input.device), mask});
}

// clang-format off
/// Schemas as PyTorch 2.11 declares them (pytorch-ops.json). The seeds are drawn on the host
/// (an extern call, as Inductor's RandomSeeds is); the rest are loops.
const OpRow kRows[] = {
  {"torch.ops.prims.inductor_seeds.default", "inductor_seeds(int count, Device device) -> Tensor", C::Extern, inductorSeeds},
  {"torch.ops.prims.inductor_seed.default", "inductor_seed(Device device) -> Tensor", C::Extern, inductorSeed},
  {"torch.ops.prims.inductor_lookup_seed.default", "inductor_lookup_seed(Tensor seeds, int index) -> Tensor", C::Other, inductorLookupSeed},
  {"torch.ops.prims.inductor_random.default", "inductor_random(SymInt[] size, Tensor seed, str mode) -> Tensor", C::Other, inductorRandom},
  {"torch.ops.aten.native_dropout.default", "native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)", C::Other, nativeDropout},
  {"torch.ops.prims.inductor_randint.default", "inductor_randint(SymInt low, SymInt high, SymInt[] size, Tensor seed) -> Tensor", C::Other, inductorRandint},
};
// clang-format on

} // namespace

std::span<const OpRow> randomOpRows() { return kRows; }

} // namespace fxkit
