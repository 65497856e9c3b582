#pragma once
/// \file Extern ops on the device with hand-written OpenCL C kernels, for what CLBlast does not
/// take: scaled dot-product attention and its backward, sort and topk, convolution (grouped,
/// depthwise, with bias, 1-D to 3-D, transposed) and its backward, col2im, matrix products in
/// half and bfloat16, training batch norm (running statistics updated in place) and its
/// backward, embedding bags, the FFTs and complex views, and index_put_. The ops are listed
/// once, in DeviceExternList.h. Each kernel reads its operands through their strides
/// (views of whole buffers) and writes through the layout inference chose for its results, with
/// PyTorch's semantics as the reference kernels implement them; a call it does not take (a
/// dtype, layout or option) is declined before anything is enqueued, and the caller runs it on
/// the host. The kernels are built through KernelSet (the on-disk cache, autotuned launch
/// configurations) once per OpenCL context, on first use of their family.

#include "backends/opencl/runtime/DeviceBuffer.h"
#include "backends/opencl/runtime/GemmTemplate.h"
#include "backends/opencl/runtime/OpenCLDevice.h"
#include "backends/opencl/runtime/OpenCLOptions.h"
#include "ir/SymExpr.h"
#include "ir/loop/LoopIR.h"

#include <span>

namespace fxkit::opencl {

/// Runs extern `op` of `program` with a device kernel when one takes it: true when done (its
/// kernels are enqueued on the context's queue), false when declined (nothing was enqueued),
/// an error when a kernel failed to build or launch. `options` (cache, tuning) apply to the
/// context's extern kernels when this call is the first to need them. A float32 matrix product
/// that goes through the GEMM template runs `epilogue` there where it can (GemmEpilogue::ran).
Expected<bool> runDeviceExtern(OpenCLContext &ctx, const OpenCLOptions &options,
                               const loop::LoopProgram &program, const loop::LoopOp &op,
                               const SymExpr::Bindings &bindings,
                               std::span<const DeviceBuffer> buffers,
                               GemmEpilogue *epilogue = nullptr);

/// What ran each matrix product shape the GEMM template chose for on `ctx` (its shape key, then a
/// tile plan's name or "library"), in key order: for `--stats`.
std::vector<std::pair<std::string, std::string>> gemmChoicesUsed(OpenCLContext &ctx);

} // namespace fxkit::opencl
