#pragma once
/// \file One generated kernel as a readable Python function over PyTorch tensors that computes
/// exactly what the loop interpreter computes (backends/interp/LoopInterpreter.cpp), vectorised:
/// each op of the kernel runs over all its points at once, in kernel order, which equals the
/// interpreter's row-by-row order because fusion only lets an op read what earlier ops of the
/// same row wrote.

#include "ir/Error.h"
#include "ir/SymExpr.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fxkit {

/// What the wrapper passes for one kernel parameter.
struct PyKernelParam {
  std::string name;    ///< `in_ptr0`, `out_ptr0`, `s77`, `ks0`, `xnumel`
  int32_t buffer = -1; ///< a buffer of the program, or -1 for a size
  SymExpr size;        ///< for sizes: the value over the graph's size symbols
};

struct PyKernel {
  std::string code; ///< `def NAME(...):` and its body, no trailing blank line
  std::vector<PyKernelParam> params;
};

/// The Python function named `name` for generated (non-extern) kernel `kernel`. It uses the
/// module helpers `flat_storage`, `load` and `store` (see kPyKernelHelpers).
Expected<PyKernel> writePyKernel(const loop::LoopProgram &program, const loop::Kernel &kernel,
                                 const std::string &name);

/// Python definitions of the helpers generated kernels call.
extern const char *const kPyKernelHelpers;

/// `torch.float32` for DType::Float32.
std::string pyTorchDType(DType dtype);

} // namespace fxkit
