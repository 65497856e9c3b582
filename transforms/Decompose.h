#pragma once
/// \file The `decompose` pass: rewrites the composite ops of a graph (ir/ops/Decomposer.h:
/// linear, conv2d, layer_norm, scaled_dot_product_attention, to.dtype, relu_, ...) into the
/// ops they are made of, as PyTorch's run_decompositions() turns torch.export's default IR
/// into Core ATen, and inlines the bodies of torch.export's higher-order wrappers
/// (wrap_with_set_grad_enabled). `run`, `fuse` and `compile` apply it to any graph that holds
/// such ops before they interpret or lower it.

#include "transforms/Pass.h"

namespace fxkit {

/// Whether the graph calls a composite op or a higher-order op the pass inlines.
bool hasCompositeOps(const Graph &graph);

/// The pass. The graph's nodes need values (placeholders typed; the other nodes are inferred
/// when missing). In-place ops become their functional forms: later uses of the tensor an op
/// writes read the new value instead, which is refused where another alias of that tensor (a
/// view of it, or what it is a view of) is read after the write. Walks the graph once, in
/// order, and decomposes what a decomposition makes in the same walk (no recursion).
PassResult decomposeCompositeOps(Graph &graph);

} // namespace fxkit
