#pragma once
/// \file Helpers shared by the Extern kernels (ExternKernels.cpp, ConvolutionKernels.cpp,
/// AttentionKernels.cpp); internal to the interpreter.

#include "backends/interp/KernelSupport.h"

namespace fxkit::extern_kernels {

using kernels::broadcastOffset;
using kernels::broadcastsTo;
using kernels::sizesStr;

Status convolutionKernel(KernelContext &ctx);
Status efficientAttentionKernel(KernelContext &ctx);
Status flashAttentionCpuKernel(KernelContext &ctx);
Status transformerEncoderLayerKernel(KernelContext &ctx);

} // namespace fxkit::extern_kernels
