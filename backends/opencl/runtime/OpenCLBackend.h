#pragma once
/// \file `--backend opencl`: the compiled program's kernels on an OpenCL device
/// (OpenCLProgram). Built where the OpenCL ICD loader is; registered in backends/Backends.cpp.

#include "backends/Backend.h"

namespace fxkit::opencl {

std::unique_ptr<Backend> makeOpenCLBackend();

} // namespace fxkit::opencl
