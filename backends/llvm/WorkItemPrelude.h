#pragma once
/// \file The OpenCL C environment fxkit's generated kernels need when Clang compiles them for
/// the host CPU instead of an OpenCL device: the OpenCL C types, macros, math and half-precision
/// built-ins (as overloaded functions over Clang's scalar built-ins, which become LLVM
/// intrinsics or libm calls), and the work-item functions of the execution model below.
///
/// Execution model (the simplest one that is correct for every kernel OpenCLKernelGen writes):
/// each call of a kernel's entry runs rows [begin, end) as ONE work-item in a work-group of one.
/// The work-item functions say so: get_global_id(0) and get_group_id(0) are `begin`,
/// get_global_size(0), get_num_groups(0) and get_local_size(0) are 1, get_local_id(0) is 0, and
/// reductions get fx_L = fx_W = 1. With one work-item per group barrier() has nothing to order
/// and is a no-op by the OpenCL definition (and the lane tree that calls it sits under
/// `if (fx_L > 1)`, which is dead). The entry passes `end` as the kernel's xnumel: the generated
/// kernels use xnumel only as the bound of the rows they iterate (the runtime checks this on the
/// source before compiling), so the grid-stride row loop becomes `for (x = begin; x < end; ++x)`:
/// contiguous, vectorisable, and no per-row call overhead. Work-groups run in parallel on a
/// thread pool (LLVMProgram); rows of one kernel are independent by construction.
///
/// Fibers per work-item (PoCL's approach without region formation) were rejected: they would
/// only be needed for fx_L > 1, which a CPU does not want (lanes exist for GPUs' wide groups).

#include <string>

namespace fxkit::llvmjit {

/// OpenCL C source placed before the generated prelude (GeneratedProgram::prelude).
const std::string &workItemPrelude();
/// The same environment for NVIDIA GPUs (`compile --to ptx`): OpenCL's NDRange as CUDA's grid
/// (get_global_id(0) = blockIdx.x * blockDim.x + threadIdx.x, barrier = __syncthreads), math
/// through libdevice.
const std::string &nvptxPrelude();

} // namespace fxkit::llvmjit
