#pragma once
/// \file A generated OpenCL kernel as a host translation unit: the kernel function takes the
/// work-item context as its first parameter (WorkItemPrelude.h's execution model) and gets a C
/// entry point the runtime calls with rows [begin, end) and the packed launch arguments.

#include "backends/opencl/codegen/OpenCLKernelGen.h"
#include "ir/Error.h"

#include <cstdint>
#include <string>

namespace fxkit::llvmjit {

/// The entry point's C signature: rows [begin, end), the packed arguments (per KernelParam
/// in order: a Buffer is two words, its base address and byte offset; a Size or rnumel one;
/// xnumel, fx_L, fx_W and the scratch none), and the work-item's scratch memory.
using KernelEntryFn = void (*)(int64_t begin, int64_t end, const uint64_t *args, double *scratch);

/// "fx_entry_<kernel name>".
std::string entryName(const opencl::GeneratedKernel &kernel);

/// The translation unit for `kernel`: the work-item prelude, the OpenCL prelude, the kernel
/// with its signature extended, and its entry. Refuses a kernel that uses xnumel other than as
/// its row bound, or work-item functions of other dimensions (the model would not hold).
Expected<std::string> kernelTranslationUnit(const opencl::GeneratedKernel &kernel);

/// The translation unit for `kernel` on an NVIDIA GPU: the NVPTX prelude, the OpenCL prelude
/// and the kernel, which stays a `__kernel`. A reduction's local-memory parameter becomes a
/// `__local` array of `maxWorkGroup` work-items inside a wrapper kernel of the same name (CUDA
/// passes no shared-memory pointers), so its parameters are the OpenCL kernel's minus
/// fx_scratch.
Expected<std::string> nvptxTranslationUnit(const opencl::GeneratedKernel &kernel, int maxWorkGroup);

} // namespace fxkit::llvmjit
