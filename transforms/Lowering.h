#pragma once
/// \file Lowering: an ATen graph with node values (run inferShapes first) becomes a
/// LoopProgram. Pointwise and creation ops become pointwise loop ops, reductions become
/// reduction loop ops, matmul/convolution/attention/topk/embedding become extern ops on
/// strided views, and views are folded into the index expressions of their users (a reshape
/// that cannot be a view becomes a copy). Dead loop ops are dropped.

#include "ir/Error.h"
#include "ir/Graph.h"
#include "ir/loop/LoopIR.h"

namespace fxkit {

/// Lowers every node of `graph`. Errors name the node and its op: an op without a lowering,
/// a node without a value (shape inference did not run), an unsupported argument.
Expected<loop::LoopProgram> lowerGraph(const Graph &graph);

} // namespace fxkit
