#pragma once
/// \file Graph inputs and outputs as safetensors files, in the corpus's convention: input i is
/// the tensor `arg_<i>` or, for an integer (a symbolic size), `__metadata__["arg_<i>"]`; output
/// i is `out_<i>` likewise. Also the per-output comparison `fxkit run --check` prints.

#include "backends/interp/RuntimeValue.h"
#include "importers/json/Safetensors.h"
#include "ir/Error.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

/// The `count` graph inputs stored in `file` (fileName names it in errors). Errors for a
/// missing input, an integer that does not parse, or a file holding more inputs than the graph
/// takes.
Expected<std::vector<RuntimeValue>> readGraphInputs(const SafetensorsFile &file, size_t count,
                                                    std::string_view fileName);

/// The outputs as a file: tensors `out_<i>`, integers, floats and bools in `__metadata__`
/// (None is left out). Tensors are written contiguous.
/// With `prefix` "arg_": graph inputs as readGraphInputs reads them.
SafetensorsFile graphOutputsFile(std::span<const RuntimeValue> outputs,
                                 std::string_view prefix = "out_");

/// Tolerances of a comparison; unset ones come from the dtype (see defaultTolerance).
struct Tolerance {
  std::optional<double> rtol, atol;
};

/// The tolerances of each dtype: defaultTolerance (ir/Tensor.h).

/// How one output compared with its expected value.
struct OutputCheck {
  std::string name;   ///< out_<i>
  std::string actual; ///< the output's type or value, e.g. "f32[33, 65]" or "17"
  bool ok = false;
  std::string detail; ///< errors and tolerances, or why it failed
};

/// Compares every output with `out_<i>` of `expected`. Errors only for a malformed expected
/// file (an integer that does not parse); mismatches, missing or extra outputs are failed
/// checks.
Expected<std::vector<OutputCheck>> checkGraphOutputs(std::span<const RuntimeValue> outputs,
                                                     const SafetensorsFile &expected,
                                                     const Tolerance &tolerance);

} // namespace fxkit
