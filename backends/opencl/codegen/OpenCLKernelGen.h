#pragma once
/// \file OpenCL C code generation for the kernels of a fused loop program (Inductor's Triton
/// codegen, for OpenCL): one `__kernel` per distinct generated kernel, indexed from the
/// kernel's own iteration variables, with its values kept in registers.
///
/// Execution model (the one LoopInterpreter defines): a kernel iterates over its rows X; in each
/// row its ops run in order. Pointwise kernels run a grid-stride loop over the flat row index.
/// Reduction kernels give each row `fx_L` lanes (a power of two) and each work-group `fx_W`
/// rows; the reduced points of a row are split over its lanes and combined with a tree in local
/// memory. Both are launch arguments, so autotuning needs no rebuild. A kernel whose loops read
/// the same input again has a persistent form too, taken when the row fits the lanes' registers;
/// one with float32 accesses that step by one point has a vector form (4 points per lane and
/// step, float4 loads and stores), taken per row when they are aligned. A reduction that reads
/// only across rows puts rows fastest (a row's lanes fx_W work-items apart).
/// Ops that run at every reduced point share one loop over them until an op needs a reduction
/// result of that loop; a value computed in an earlier loop that never leaves the kernel is
/// recomputed where it is read (as Inductor does), one stored to memory is loaded again (the same
/// work-item wrote it).
/// A scan (cumsum, cumprod) is a kernel of its own, launched as a reduction: each of a row's
/// lanes walks one chunk of consecutive points, after the chunks' totals are scanned across
/// the lanes in local memory (KernelEmitter::emitScan).
/// What varies between kernels is decided before any text is printed (KernelPlan.h: the loops,
/// the loads two loops repeat, the accesses with a vector form); each form of a loop is then
/// printed from the plan. The helpers every kernel calls are prelude.cl and prelude_fp64.cl,
/// embedded at build time.
///
/// Storage types: float16 through vload_half/vstore_half (no cl_khr_fp16 needed), bfloat16 as
/// ushort bits, bool as uchar; float16/bfloat16/float32 compute in float, float64 in double
/// (cl_khr_fp64). Index arithmetic uses `fx_index_t` (long unless built with
/// -DFX_INDEX_T=int, which the runtime does when every index fits).

#include "ir/Error.h"
#include "ir/SymExpr.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit::opencl {

/// One argument of a generated kernel, in order.
struct KernelParam {
  enum class Kind : uint8_t {
    Buffer,  ///< a pointer and its byte offset (`in_ptr0`, `in_ptr0_offset`)
    Size,    ///< a size the host evaluates: a size symbol or a precomputed argument (`ks0`)
    Numel,   ///< xnumel or rnumel
    Lanes,   ///< fx_L and fx_W, the reduction launch configuration (reductions only)
    Scratch, ///< local memory for the lane tree, `scratchBytesPerItem` per work-item
  };
  Kind kind = Kind::Buffer;
  std::string name;
  int32_t buffer = -1;  ///< Buffer: the loop program's buffer
  bool written = false; ///< Buffer: the kernel stores to it
  SymExpr value;        ///< Size and Numel: what the host evaluates
};

/// Multi-kernel (Inductor's `MultiKernelCall`): the same kernel generated in another form, a
/// definition of its own with the same parameters, so that the runtime can time both on the first
/// launch of a shape and keep the faster (KernelSet). Apart, a form's registers are not paid
/// where the other runs.
struct KernelVariant {
  std::string name;   ///< the kernel's name and a suffix: `_persistent`, `_looped`
  std::string source; ///< its `__kernel` function alone, as GeneratedKernel::source
  /// Its persistent form's points per lane: it is worth a launch only where the row fits, rnumel
  /// <= persistentPoints * fx_L (0: it always loops over the row).
  int persistentPoints = 0;
};

/// A generated kernel definition and the arguments of one launch.
struct GeneratedKernel {
  std::string name;   ///< the OpenCL function name (the fused kernel's name)
  std::string source; ///< the `__kernel` function alone (the prelude is shared)
  std::vector<KernelParam> params;
  bool isReduction = false;
  bool usesDouble = false;
  int scratchBytesPerItem = 0; ///< Scratch: bytes of local memory per work-item
  /// Reductions: when rnumel <= persistentPoints * fx_L, each lane holds its row's points in
  /// registers, loaded once for all the kernel's loops (0: the kernel always loops over them).
  int persistentPoints = 0;
  /// Reductions: when > 0, rows whose accesses are aligned take `vectorWidth` consecutive
  /// points per lane at a time, as float4 loads and stores (0: no vector form). Pointwise
  /// kernels: each work-item takes `vectorWidth` consecutive points per step (float4 accesses
  /// where they are aligned), so a launch needs that many times fewer work-items.
  int vectorWidth = 0;
  /// Reductions: neighbouring work-items take neighbouring rows (lane = lid / fx_W), not
  /// neighbouring lanes of one row: taken where the reduced points are far apart in memory
  /// and the rows' points adjacent (a column sum), so that a warp's loads are contiguous.
  bool rowsFastest = false;
  bool prefersRowsFastest = false; ///< what the emitter found; rowsFastest is what it did
  SymExpr xnumel, rnumel;          ///< rows and reduced points per row (rnumel 1 for pointwise)
  /// A pointwise kernel that fusion made a GEMM epilogue (Kernel::gemmEpilogueOf): its body at
  /// one point, `inline void NAME_point(PARAMS, const float fx_product, const fx_index_t
  /// xindex)`, which the template calls at each element it stores, with the element's value as
  /// `fx_product` (read there instead of the product's buffer); empty for other kernels.
  /// `pointParams` are the kernel's parameter declarations and `pointArgs` their names,
  /// comma-separated, in the order of `params`' launch arguments.
  std::string pointFunction, pointParams, pointArgs;
  /// Every size, index and numel the kernel computes, for choosing the index type.
  std::vector<SymExpr> extents;
  /// Multi-kernel variants (GenerateOptions::variants): a reduction over rows of a known length
  /// whose loops read the same input again has one in the other form. Rows up to 2048 points: the
  /// kernel holds them in registers where they fit, its variant (`_looped`) never does. Longer
  /// rows, up to 32 x 1024 points: the kernel loops, its variant (`_persistent`) holds a row in
  /// registers when it has enough lanes (rnumel / 512 points per lane, rounded up, or / 1024).
  std::vector<KernelVariant> variants;
};

/// The whole program's kernels.
struct GeneratedProgram {
  /// Per FusedProgram kernel: its generated code and launch arguments; extern kernels get an
  /// empty entry (name empty).
  std::vector<GeneratedKernel> launches;
  /// The helper functions every kernel uses (float16/bfloat16 conversion, NaN-propagating
  /// max, Python floor division, the index type).
  static std::string prelude(bool usesDouble);
  /// All distinct kernel definitions (and their variants) after one prelude: the `--to opencl`
  /// text.
  std::string source() const;
};

/// Python's floor division, modulo, ceiling division and truncating division of integers of
/// `type` (prelude_index.cl): the prelude's over fx_index_t, the C++ wrapper's over int64_t.
std::string pyIndexArithmetic(std::string_view type);

struct GenerateOptions {
  /// Kernels that print the same code (one fuser signature, the same ATen origins, size
  /// arguments and parameter order) are printed once and their launches bound to their own
  /// buffers; off only to check that sharing changes nothing (OpenCLKernelGenTest).
  bool shareEqualKernels = true;
  /// Multi-kernel: generate each reduction's variant in the other form (GeneratedKernel::variants)
  /// for a runtime that times them; off, each kernel has one form (`--to opencl` prints those).
  bool variants = false;
  /// Pointwise kernels get a vector form (GeneratedKernel::vectorWidth): 4 consecutive points
  /// per work-item and step, float4 loads and stores. Off for an executor whose work-items are
  /// not the NDRange's (the LLVM CPU JIT runs a chunk of points per call). FXKIT_OPENCL_NO_VECTOR
  /// turns every vector form off.
  bool pointwiseVectors = true;
};

/// Generates OpenCL C for every generated kernel of `fused`. Errors name the kernel and the
/// construct that has no OpenCL form.
Expected<GeneratedProgram> generateOpenCL(const loop::LoopProgram &program,
                                          const loop::FusedProgram &fused,
                                          const GenerateOptions &options = {});

/// `e` as C integer arithmetic (OpenCL C or C++ over 64-bit integers) with Python's floor
/// division and modulo as calls of `fx_floordiv` and `fx_mod`, which the including code defines.
Expected<std::string> printCIntExpr(const SymExpr &e);

/// The build options of `generated`'s kernels: the OpenCL C version and the index type (int
/// when every size is known and every index fits in 31 bits, else long), plus
/// $FXKIT_OPENCL_BUILD_OPTIONS for experiments (part of every cache key).
std::string openclBuildOptions(const loop::LoopProgram &program, const GeneratedProgram &generated);

/// Whether every size is known and every index of `generated`'s kernels fits in 31 bits (the
/// index type is int then).
bool indexFitsInt(const loop::LoopProgram &program, const GeneratedProgram &generated);

} // namespace fxkit::opencl
