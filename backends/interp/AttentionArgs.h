#pragma once
/// \file Arguments every reference attention kernel reads the same way, forward
/// (AttentionKernels.cpp) and backward (TensorKernels.cpp): the softmax scale and the dropout
/// probability the deterministic kernels refuse.

#include "backends/interp/KernelContext.h"
#include "ir/Try.h"

#include <cmath>
#include <string>

namespace fxkit {

/// The `float? scale` argument, defaulting to 1 / sqrt(the query's head dimension).
inline Expected<double> attentionScale(const KernelContext &ctx, const Tensor &query) {
  if (ctx.args.get("scale").isNone())
    return 1.0 / std::sqrt(static_cast<double>(query.dim() == 4 ? query.size(3) : 1));
  return ctx.scalar("scale");
}

/// The reference kernels are deterministic: `dropout_p` must be 0.
inline Status requireNoDropout(const KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto p, ctx.scalar("dropout_p"));
  if (p != 0)
    return ctx.error("dropout_p = " + std::to_string(p) +
                     " is not supported: the reference kernels are deterministic");
  return Status::ok();
}

} // namespace fxkit
