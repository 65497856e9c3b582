#pragma once
/// \file Reference kernels of the Extern ops (matmul, convolution, embedding, topk, attention,
/// the transformer encoder layer fast path).

namespace fxkit {

/// Fills the kernel slot of every op of category Extern in the op table.
void registerExternKernels();

} // namespace fxkit
