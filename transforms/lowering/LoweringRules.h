#pragma once
/// \file Lowering rules: how one op overload becomes loop ops, beside the op (Inductor keeps
/// `register_lowering` beside its decompositions). Ops without a rule lower by their category
/// (transforms/Lowering.cpp: pointwise, reduction, view, extern, ...). A family of ops keeps
/// its rules in one file of this folder and lists them in one function declared here, which
/// LoweringRules.cpp gathers into the table lowering consults.

#include "ir/Error.h"

#include <span>
#include <string_view>

namespace fxkit {

class Node;
class BoundArgs;

namespace lowering {

class Lowerer;

/// Lowers node `n` (bound arguments `args`, value already inferred) into `lowerer`'s program
/// and records what it lowered to (Lowerer::valueOf).
using LowerFn = Status (*)(Lowerer &lowerer, const Node &n, const BoundArgs &args);

/// One op overload's lowering rule.
struct LoweringRule {
  std::string_view target; ///< as FX prints it: `torch.ops.aten.gather.default`
  LowerFn lower;
};

/// Gathers through data-dependent indices: embedding, gather, index, index_select
/// (IndexingLowering.cpp).
std::span<const LoweringRule> indexingLoweringRules();
/// Pooling windows (max, average, adaptive average), reflection and replication padding,
/// nearest and bilinear upsampling (PoolingLowering.cpp).
std::span<const LoweringRule> poolingLoweringRules();
/// Scans: cumsum, cumprod (ScanLowering.cpp).
std::span<const LoweringRule> scanLoweringRules();

/// Distances between rows: _cdist_forward, _pdist_forward (DistanceLowering.cpp).
std::span<const LoweringRule> distanceLoweringRules();
/// Reductions beyond the category's default: any, all, argmax, argmin, max/min (whole, and
/// along a dim with indices), prod, var, logsumexp (ReductionLowering.cpp).
std::span<const LoweringRule> reductionLoweringRules();
/// Factories (arange, zeros, ones, empty*, *_like, fill) and copies (_to_copy, copy,
/// lift_fresh_copy, the *_copy views) (CreationLowering.cpp).
std::span<const LoweringRule> creationLoweringRules();
/// softmax, log_softmax and their backward, layer/group/batch normalisation (NormLowering.cpp).
std::span<const LoweringRule> normLoweringRules();
/// Random numbers: Inductor's inductor_random, inductor_randint, inductor_lookup_seed; rand,
/// randn, native_dropout (RandomLowering.cpp).
std::span<const LoweringRule> randomLoweringRules();

/// The rule for `target`, or null: the op lowers by its category. Each target has at most one
/// rule (checked when the table is built).
const LoweringRule *findLoweringRule(std::string_view target);

} // namespace lowering
} // namespace fxkit
