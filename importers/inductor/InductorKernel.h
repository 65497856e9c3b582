#pragma once
/// \file A kernel definition of Inductor's Python wrapper code, kept as data: its name, source
/// text, parameters (names and types from `triton_meta['signature']` for Triton, from the
/// `extern "C"` signature and the pybinding's type list for C++), and the comments Inductor
/// wrote above it (kernel path, fused source nodes, ATen ops, graph fragment).

#include "importers/inductor/PyExpr.h"
#include "ir/Error.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit::inductor {

struct KernelParam {
  std::string name;
  /// Triton: `*fp32`, `i32`, `constexpr`; C++: `const float*`, `const int64_t`.
  std::string type;
  bool isConstexpr() const { return type == "constexpr"; }
};

struct InductorKernel {
  enum class Kind : uint8_t { Triton, Cpp };
  Kind kind = Kind::Triton;
  std::string name;   ///< the Python variable the wrapper launches it by
  std::string source; ///< the kernel's source text, decoded
  std::vector<KernelParam> params;
  std::string deviceStr; ///< `device_str='cuda'` (Triton)
  std::string heuristic; ///< pointwise, reduction, persistent_reduction, ... (Triton)
  std::vector<std::string> mutatedArgs; ///< inductor_meta['mutated_arg_names'] (Triton)
  /// The decorator's launch heuristics inputs (Triton): `size_hints={'x': 4096, 'r0_': 32}` in
  /// order, `reduction_hint=ReductionHint.INNER` (the member name), `tile_hint=TileHint.SQUARE`,
  /// `min_elem_per_thread=N`, and the integer and boolean entries of `inductor_meta` (booleans
  /// as 0/1; None and other values are left out). Triton's runtime derives the block sizes of
  /// a launch from them (exporters/wrapper/TritonLaunchConfig.h).
  std::vector<std::pair<std::string, int64_t>> sizeHints;
  std::string reductionHint;
  std::string tileHint;
  int64_t minElemPerThread = 0;
  std::vector<std::pair<std::string, int64_t>> inductorMetaInts;
  std::string kernelPath;               ///< `# kernel path: ...`
  std::vector<std::string> sourceNodes; ///< `# Topologically Sorted Source Nodes: [...]`
  std::vector<std::string> atenOps;     ///< `..., Original ATen: [...]`
  std::vector<std::string> comments;    ///< every comment line above the definition
  SourceLoc loc;                        ///< where the definition starts
  /// C++ wrapper code only (the `call_<name>` launcher): the grid's x, y, z as C++ expressions
  /// of the launcher's parameters (`((xnumel + (256 - 1)) / (256))`), warps and shared memory
  /// of its `launchKernel`; the Python wrapper leaves them to the Triton runtime.
  std::vector<std::string> launchGrid;
  int64_t numWarps = 0;
  int64_t sharedMemBytes = 0;

  /// Triton: what `k.run(...)` passes, in order. Inductor's launcher
  /// (CachingAutotuner/_get_arg_lists in runtime/triton_heuristics.py) takes every parameter of
  /// the `@triton.jit` function except those the autotuning config supplies (constexprs with no
  /// value in `triton_meta['constants']`: XBLOCK, R0_BLOCK, a user kernel's autotuned BLOCK_M),
  /// then `inductor_meta['extra_launcher_args']` (a user kernel's grid). Constants such as
  /// `xnumel: 1` (a constexpr of a kernel whose x range is 1) and None arguments are passed too.
  std::vector<std::string> launchArgs;
  /// Triton: `triton_meta['constants']` names (their values are fixed at compile time).
  std::vector<std::string> constants;

  /// Parameters a launch passes: Triton's constexpr block sizes come from the autotuner.
  size_t runtimeParamCount() const;
};

/// Reads `name = async_compile.triton('name', '''source''', device_str=...)` or
/// `name = async_compile.cpp_pybinding([types], r'''source''')`. `call` is the right-hand side;
/// `comments` the comment lines above. Positions inside the source string are reported at
/// their place in the file.
Expected<InductorKernel> parseKernelDefinition(const std::string &name, const PyExpr &call,
                                               const std::vector<Token> &fileTokens,
                                               const std::vector<std::string> &comments,
                                               std::string_view text, const std::string &fileName);

/// `[a, b, c]` of a comment such as `Topologically Sorted Source Nodes: [a, b, c], ...` after
/// `label`; empty when the label is absent.
std::vector<std::string> bracketListAfter(std::string_view comment, std::string_view label);

} // namespace fxkit::inductor
