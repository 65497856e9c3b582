#pragma once
/// \file Kernels: the loop ops that fusion put together (Inductor's FusedSchedulerNode), with
/// their iteration space, the buffers they read and write, and the fusion decisions that made
/// them, taken or refused, with reasons.

#include "ir/SymExpr.h"
#include "ir/loop/LoopIR.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit::loop {

/// How a loop op's iteration space sits in its kernel's (X kept points by R reduced ones).
enum class Placement : uint8_t {
  Row,  ///< ranges == X: once per row (reductions: their kept space is X, reduced space R)
  Full, ///< ranges == X ++ R: at every (row, r) point; variable x{k+j} is r{j}
  Flat, ///< numel == numel(X) with other ranges (pointwise kernels only): unflattened from x
};
std::string_view placementName(Placement p);

/// A size the wrapper computes once and passes to a kernel (`ks0 = s17*s27`), so that the
/// kernel's index arithmetic has no products of sizes.
struct SizeArg {
  std::string name; ///< "ks0"
  SymExpr definition;
};

struct Kernel {
  std::string name;                  ///< "fused_add_mul_relu_0"; an extern op's short name ("mm")
  bool isExtern = false;             ///< one extern op, not generated code
  std::vector<int32_t> ops;          ///< loop ops in execution order
  std::vector<Placement> placements; ///< per op
  std::vector<SymExpr> ranges;       ///< X: the kept (row) space
  std::vector<SymExpr> reductionRanges; ///< R: empty for pointwise kernels
  std::vector<int32_t> inputs;          ///< buffers read that the kernel does not write
  std::vector<int32_t> outputs;         ///< buffers written that are needed outside the kernel
  std::vector<int32_t> internal;        ///< buffers that never leave the kernel (not allocated)
  SymExpr bytesRead, bytesWritten;
  /// Size symbols the kernel's index expressions use as they are (`s27`), in name order.
  std::vector<std::string> symbolArgs;
  /// Products of sizes its index expressions use, hoisted into precomputed arguments.
  std::vector<SizeArg> sizeArgs;
  /// Structural identity of the generated code: kernels with equal signatures share one
  /// definition (and one name), as Inductor's code cache shares them.
  std::string signature;
  /// The result buffer of the extern matrix product right before this pointwise kernel when it
  /// may run as that product's epilogue (FusionKind::GemmEpilogue): at each element of the
  /// product, as a GEMM template stores it, reading the product's value there and nowhere else.
  /// -1 otherwise. A backend without such a template launches it as usual; the product's result
  /// is stored either way, so its other readers are unaffected.
  int32_t gemmEpilogueOf = -1;
};

enum class FusionKind : uint8_t {
  Vertical,          ///< the op reads a value the kernel produces
  Horizontal,        ///< the op reads a buffer the kernel reads
  ReductionEpilogue, ///< a pointwise op after a reduction, over its rows
  ReductionPrologue, ///< a reduction after the pointwise ops that feed it
  SameRows,          ///< a reduction over the same rows as the kernel's
  /// A pointwise kernel after an extern matrix product, run inside the product's GEMM template
  /// at each element it stores (Inductor's template epilogue fusion): kernels stay apart in the
  /// program; a backend whose template computes the product fuses them when it runs it.
  GemmEpilogue,
};
std::string_view fusionKindName(FusionKind kind);

/// One question fusion asked: put `op` into the kernel that starts with `kernelOp`?
struct FusionDecision {
  FusionKind kind = FusionKind::Vertical;
  std::string op;       ///< loop op name ("op7")
  std::string kernelOp; ///< first op of the candidate kernel
  bool fused = false;
  std::string reason; ///< why it was refused, or what it fused
  SymExpr bytesSaved; ///< memory traffic the fusion saves (or would have saved)
};

struct FusedProgram {
  std::vector<Kernel> kernels; ///< in execution order
  std::vector<FusionDecision> decisions;

  /// Generated (non-extern) kernels with distinct signatures.
  size_t distinctKernels() const;
  /// Bytes the generated kernels read and write, summed over launches.
  SymExpr generatedKernelBytes() const;
  /// The decisions and the kernels, for `fxkit fuse --explain`.
  std::string explain(const LoopProgram &program) const;
};

} // namespace fxkit::loop
