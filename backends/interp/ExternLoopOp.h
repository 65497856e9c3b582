#pragma once
/// \file Runs an extern loop op (matmul, convolution, attention, ...) with the reference
/// interpreter's kernel for its ATen node, on strided views of whole buffers. Shared by the
/// loop interpreter and by backends that fall back to the host for an extern op.

#include "ir/Error.h"
#include "ir/SymExpr.h"
#include "ir/Tensor.h"
#include "ir/loop/LoopIR.h"

#include <vector>

namespace fxkit {

/// Runs `op` (an Extern loop op) on `storage` (one tensor per buffer of its program, holding
/// the buffer's whole storage; only the op's inputs and outputs are touched), with the program's
/// size symbols bound in `bindings`, and writes its results into its output buffers.
Status runExternLoopOp(const loop::LoopOp &op, std::vector<Tensor> &storage,
                       const SymExpr::Bindings &bindings);

} // namespace fxkit
