#pragma once
/// \file `--backend cpp-wrapper`: the graph's C++ wrapper (or the one in `--wrapper DIR`)
/// compiled in process and loaded by ORC (WrapperProgram). Built with LLVM, OpenCL and
/// nlohmann-json; registered in backends/Backends.cpp.

#include "backends/Backend.h"

namespace fxkit::cppwrapper {

std::unique_ptr<Backend> makeCppWrapperBackend();

} // namespace fxkit::cppwrapper
