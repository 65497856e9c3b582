#pragma once
/// \file OpenCL C source to a host object file, in process: Clang's OpenCL C frontend for the
/// host triple (not SPIR: the object runs on this CPU), then LLVM's O3 pipeline with the host's
/// CPU features (loop and SLP vectorisation on), then the host code generator. Every function
/// but the entry points becomes internal first, so objects of different kernels can share one
/// JIT without clashing on the helpers of the prelude.

#include "backends/llvm/HostTarget.h"
#include "ir/Error.h"

#include <string>
#include <vector>

namespace fxkit::llvmjit {

struct CompileRequest {
  std::string source;     ///< the whole translation unit
  std::string sourcePath; ///< the name diagnostics give it (the runtime writes the file there
                          ///< when compilation fails, so file:line:col can be opened)
  /// OpenCL build options: -cl-std=..., -DNAME=VALUE and Clang's -cl-* flags.
  std::string options;
  std::vector<std::string> entryPoints; ///< functions that stay external
};

/// The object file, or an Error whose message holds Clang's diagnostics
/// ("path:line:col: error: ...", with the offending line and a caret).
Expected<std::vector<char>> compileToObject(const CompileRequest &request,
                                            const HostTarget &host = hostTarget());

/// NVIDIA GPUs: the same front end for nvptx64-nvidia-cuda and `gpuArch` (sm_80), libdevice
/// (`libdevicePath`, CUDA's nvvm/libdevice/libdevice.10.bc) linked for the math functions,
/// the O3 pipeline (with NVVMReflect), and the NVPTX code generator: PTX text. The entry
/// points are the `__kernel` functions.
Expected<std::string> compileToPtx(const CompileRequest &request, const std::string &gpuArch,
                                   const std::string &libdevicePath);

/// The same pipeline up to optimised LLVM IR, as text (`--emit-llvm` style reports and tests).
Expected<std::string> compileToIR(const CompileRequest &request,
                                  const HostTarget &host = hostTarget());

} // namespace fxkit::llvmjit
