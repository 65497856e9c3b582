#pragma once
/// \file Extern matrix products on the device through CLBlast: mm, addmm and bmm on float32
/// and float64 views with one unit stride (a transposed view becomes a transposed operand, as
/// cuBLAS calls in Inductor's extern_kernels do), and 2-D convolution without bias or groups
/// (CLBlast's Convgemm). Anything else is left to the caller's host fallback.

#include "backends/opencl/runtime/DeviceBuffer.h"
#include "backends/opencl/runtime/GemmTemplate.h"
#include "backends/opencl/runtime/OpenCLDevice.h"
#include "backends/opencl/runtime/OpenCLOptions.h"
#include "ir/SymExpr.h"
#include "ir/loop/LoopIR.h"

#include <span>

namespace fxkit::opencl {

/// Whether this build has CLBlast.
bool haveBlas();

/// Runs extern `op` with CLBlast when it can, float32 matrix products through runGemm (fxkit's
/// GEMM template or CLBlast, OpenCLOptions::gemm): true when done (`route`, where given, says
/// which computed it), false when the op, dtype or a layout is not one it takes (nothing was
/// enqueued), an error when a kernel failed. A float32 product that runs on the GEMM template
/// runs `epilogue` there where it can (GemmEpilogue::ran).
Expected<bool> runBlasExtern(OpenCLContext &ctx, const OpenCLOptions &options,
                             const loop::LoopProgram &program, const loop::LoopOp &op,
                             const SymExpr::Bindings &bindings,
                             std::span<const DeviceBuffer> buffers, GemmRoute *route = nullptr,
                             GemmEpilogue *epilogue = nullptr);

} // namespace fxkit::opencl
