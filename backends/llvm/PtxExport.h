#pragma once
/// \file `fxkit compile --to ptx -o DIR`: every generated kernel of a compiled program as PTX
/// for NVIDIA GPUs (NVPTX, sm_80 by default), one `<kernel>.ptx` per distinct kernel, plus
/// `manifest.json`: the kernels' parameters and launch rules, the buffers, the graph's inputs
/// and outputs (buffer views), and the launches in schedule order with their arguments as size
/// expressions, so a CUDA driver program can load the modules (cuModuleLoadData) and run the
/// schedule.

#include "backends/opencl/codegen/OpenCLKernelGen.h"
#include "ir/Error.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"

#include <string>
#include <vector>

namespace fxkit::llvmjit {

/// Whether this build has the LLVM component that defines exportPtx (CMake defines FXKIT_HAVE_LLVM
/// on everything that links fxkit_llvm): callers guard their calls with `if constexpr`, so a
/// build without LLVM needs neither a definition nor a preprocessor conditional of its own.
#ifdef FXKIT_HAVE_LLVM
inline constexpr bool kHavePtxExport = true;
#else
inline constexpr bool kHavePtxExport = false;
#endif

struct PtxExportOptions {
  std::string arch = "sm_80";
  std::string libdevice;   ///< empty: findLibdevice()
  int maxWorkGroup = 1024; ///< CUDA's most threads per block
};

struct PtxFile {
  std::string name; ///< file name inside the output folder
  std::string text;
};

/// $FXKIT_LIBDEVICE, else libdevice.10.bc under $CUDA_HOME, /usr/local/cuda, /usr/local/cuda-*
/// (newest first) or /usr/lib/cuda; empty when none exists.
std::string findLibdevice();

/// The PTX files and the manifest (last), all generated before any is written.
Expected<std::vector<PtxFile>> exportPtx(const loop::LoopProgram &program,
                                         const loop::FusedProgram &fused,
                                         const PtxExportOptions &options = {});

} // namespace fxkit::llvmjit
