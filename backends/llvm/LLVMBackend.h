#pragma once
/// \file `--backend llvm`: the compiled program's OpenCL C kernels compiled by Clang for the
/// host CPU (LLVMProgram). Built with the LLVM component; registered in backends/Backends.cpp.

#include "backends/Backend.h"

namespace fxkit::llvmjit {

std::unique_ptr<Backend> makeLLVMBackend();

} // namespace fxkit::llvmjit
