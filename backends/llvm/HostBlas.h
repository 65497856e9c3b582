#pragma once
/// \file Matrix products (aten mm, addmm, bmm in float32 and float64) for the LLVM backend's
/// extern ops, on the host buffers in place: operands of any strides, rows of the result
/// split over the thread pool, B packed row-major so the inner loop is contiguous and
/// vectorises. Other extern ops keep the reference kernels.

#include "backends/llvm/HostBuffer.h"
#include "backends/llvm/ThreadPool.h"
#include "ir/Error.h"
#include "ir/SymExpr.h"
#include "ir/loop/LoopIR.h"

#include <span>

namespace fxkit::llvmjit {

/// Runs `op` when it is a matrix product this covers; false (nothing done) otherwise.
Expected<bool> runHostBlas(const loop::LoopProgram &program, const loop::LoopOp &op,
                           const SymExpr::Bindings &bindings, std::span<const HostBuffer> buffers,
                           ThreadPool &pool);

} // namespace fxkit::llvmjit
