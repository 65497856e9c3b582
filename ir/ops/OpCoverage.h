#pragma once
/// \file What fxkit has for each op overload it registers or that is in the Core ATen opset:
/// the data behind `fxkit ops` and docs/ops.md.

#include "ir/ops/OpRegistry.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

/// How a compiled program runs an op.
enum class CompiledForm : uint8_t {
  None,   ///< not registered: no compiled form
  Loops,  ///< lowered to loop IR: OpenCL C kernels, LLVM-compiled kernels, torch expressions
  Extern, ///< an extern call (ATen's kernel in the Python wrapper; the reference kernel, or a
          ///< library such as CLBlast, in fxkit's backends)
  Inline, ///< needs no code of its own (getitem, symbolic integer arithmetic)
  /// A composite op: compiled (and interpreted) as its decomposition, whose ops have forms of
  /// their own.
  Decomposed,
};
std::string_view compiledFormName(CompiledForm form);

/// One overload's coverage.
struct OpCoverage {
  std::string target;                 ///< `torch.ops.aten.add.Tensor`
  std::string schema;                 ///< fxkit's schema, or empty when not registered
  bool core = false;                  ///< in PyTorch 2.11's Core ATen opset
  std::optional<OpCategory> category; ///< nullopt when not registered
  bool infer = false;                 ///< shape/dtype/stride inference
  bool kernel = false;                ///< a reference kernel (the interpreter has registered it)
  CompiledForm compiled = CompiledForm::None;
};

/// Whether `target` (`torch.ops.aten.abs.default`) is in the Core ATen opset
/// (ir/ops/CoreAtenOps.def).
bool isCoreAten(std::string_view target);
/// The Core ATen targets, `torch.ops.`-prefixed.
const std::vector<std::string> &coreAtenTargets();

/// Every registered op and every Core ATen op, sorted by target. Reference kernels count only
/// once the interpreter has registered them (registerReferenceKernels()).
std::vector<OpCoverage> opCoverage();

} // namespace fxkit
