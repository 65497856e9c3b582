#pragma once
/// \file Recognising softmax's first two passes in an ATen graph: `amax(x, dims, True)`,
/// `sub(x, amax)`, `exp(sub)`, `sum(exp, dims, True)`. Lowering computes such a max and sum as
/// one online-softmax reduction (prims.prepare_softmax_online, Inductor's online softmax), so a
/// kernel reads the row once for both instead of once for each.

namespace fxkit {

class Node;

/// The `sum` node that, with `amax`, forms the pattern above, or null. Both must reduce the same
/// dimensions of the same floating-point (float32 or float64) tensor with keepdim=True, and the
/// sum must not change the dtype; other users of `amax`, the `sub` and the `exp` are allowed
/// (softmax's division reads the `exp` again).
const Node *matchOnlineSoftmaxSum(const Node &amax);

} // namespace fxkit
