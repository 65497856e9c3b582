#pragma once
/// \file Dead code elimination: drops nodes nobody uses, unless they have side effects.

#include "transforms/Pass.h"

namespace fxkit {

/// True for nodes that must stay even when unused: placeholders (they define the signature),
/// the output, mutating ops (ATen `foo_` / `.out` overloads, `copy_`, Inductor's
/// `triton_kernel_wrapper_mutation`, `extern_kernels.*`) and calls of unknown modules/methods.
bool hasSideEffects(const Node &node);

/// The "dce" pass. Iterates in reverse program order, so chains die in one sweep.
PassResult eliminateDeadCode(Graph &graph);

} // namespace fxkit
