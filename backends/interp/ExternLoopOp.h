#pragma once
/// \file Runs an extern loop op (matmul, convolution, attention, ...) with the reference
/// interpreter's kernel for its ATen node, on strided views of whole buffers. Shared by the
/// loop interpreter and by backends that fall back to the host for an extern op.

#include "backends/interp/RuntimeValue.h"
#include "ir/Error.h"
#include "ir/SymExpr.h"
#include "ir/Tensor.h"
#include "ir/loop/LoopIR.h"

#include <vector>

namespace fxkit {

/// Runs `op` (an Extern loop op) on `storage` (one tensor per buffer of its program, holding
/// the buffer's whole storage; only the op's inputs and outputs are touched), with the program's
/// size symbols bound in `bindings`, and writes its results into its output buffers. The
/// unbacked symbols the op defines (LoopOp::defines) are bound from its results and its
/// checks run; an output tensor without storage (sized by such a symbol) is allocated here.
Status runExternLoopOp(const loop::LoopOp &op, std::vector<Tensor> &storage,
                       SymExpr::Bindings &bindings);

/// The buffers of `op`'s extern inputs that its schema marks written in place (`Tensor(a!)`:
/// batch norm's running statistics, index_put_'s self), distinct, in argument order. A
/// backend that runs `op` on copies of its buffers writes these back as well as its outputs,
/// before them (an output placed in the storage of a dead mutated input then wins); a graph
/// input among them is written back to the caller's tensor, as the interpreter's shared
/// storage does. Empty for anything but an Extern op.
std::vector<int32_t> mutatedBuffers(const loop::LoopOp &op);

/// Binds `op`'s defines from `result` (the ATen kernel's result: a number or tensors), then
/// runs its checks. Errors: a symbol bound to another value, a failed check (naming the
/// assertion's node, with the values of its symbols).
Status bindSymbolDefs(const loop::LoopOp &op, const RuntimeValue &result,
                      SymExpr::Bindings &bindings);

/// Runs `op`'s RuntimeChecks on `bindings`.
Status runRuntimeChecks(const loop::LoopOp &op, const SymExpr::Bindings &bindings);

} // namespace fxkit
