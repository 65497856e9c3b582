#pragma once
/// \file The elementwise ATen ops that are one scalar op (ir/ops/PointwiseOps.def), for the
/// places that give them a meaning: the registry (inference), the reference kernels and the
/// lowering.

#include "ir/loop/LoopIR.h"
#include "ir/ops/InferSupport.h"

#include <span>
#include <string_view>

namespace fxkit {

/// One line of PointwiseOps.def.
struct PointwiseOp {
  std::string_view target; ///< `torch.ops.aten.acos.default`
  std::string_view schema;
  Promote promote;
  loop::ScalarOp scalarOp; ///< applied to the first scalarOpArity(scalarOp) arguments
  /// PyTorch's argument checks beyond promotion (pow's integer exponent); may be null.
  Status (*check)(const BoundArgs &) = nullptr;
};

std::span<const PointwiseOp> pointwiseOps();
/// The line of `target`, or null when the op is not a plain pointwise op.
const PointwiseOp *pointwiseOpOf(std::string_view target);

} // namespace fxkit
