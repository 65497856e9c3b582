#pragma once
/// \file fxkit's own GEMM template: C = alpha * op(A) @ op(B) + beta * C in float32, OpenCL C
/// tiled in local memory and registers (a work-group computes a TM x TN tile of C from TK-deep
/// slices of A and B; a work-item a WM x WN block of it), one definition per tile shape and
/// operand layout, and per tile shape an implicit-GEMM form for 2-D convolutions. Which tile shape
/// runs a problem, or the BLAS library instead, is decided by timing them on the problem's first
/// call per device and shape (as Inductor's max-autotune picks among its GEMM templates and extern
/// cuBLAS), and cached on disk with the kernels.
///
/// Its epilogue is BLAS's (alpha scaling and beta * C; addmm's bias is written into C first),
/// followed, where fusion marked one (loop::FusionKind::GemmEpilogue), by a generated pointwise
/// kernel run at each element as it is stored (GemmEpilogue): Inductor's template epilogue
/// fusion, which saves that kernel's launch and its read of C.

#include "backends/opencl/runtime/KernelSet.h"
#include "backends/opencl/runtime/OpenCLDevice.h"
#include "backends/opencl/runtime/OpenCLOptions.h"
#include "ir/Error.h"

#include <CL/cl.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit::opencl {

/// One operand in row-major storage, as BLAS takes it: element (r, c) of the (untransposed)
/// matrix of batch b at offset + b * batchStride + r * ld + c, or, transposed, at
/// offset + b * batchStride + c * ld + r. Offsets and strides in elements.
struct GemmMatrix {
  cl_mem mem = nullptr;
  size_t offset = 0;
  size_t ld = 0;
  size_t batchStride = 0;
  bool transposed = false;
};

/// A generated pointwise kernel that the template runs at each element of C right after storing
/// it (GeneratedKernel::pointFunction), with the element's value, and its number in C as the
/// kernel's point: batch * m * n + row * n + col, so it runs only where C is dense. The caller has
/// checked that the kernel writes no storage that A or B occupy (other work-groups still read
/// them), and C's only at the element being stored.
struct GemmEpilogue {
  // Views of the generated program's text (GeneratedKernel), which outlives every call.
  std::string_view function; ///< OpenCL C defining `kernel` + "_point"
  std::string_view kernel;   ///< the generated kernel's name, "fused_add_relu_3"
  std::string_view params;   ///< its parameter declarations before the point, comma-separated
  std::string_view args;     ///< their names, comma-separated
  std::vector<LaunchArg> launchArgs; ///< their values, in that order
  int64_t points = 0;                ///< the kernel's points (xnumel)
  bool usesDouble = false; ///< it computes in double somewhere (cl_khr_fp64, checked by the caller)
  bool intIndex = false;   ///< its index type is int (every index of its program fits)
  bool ran = false;        ///< set when the template ran it: the kernel must not run again
};

/// One float32 product: batch x [m, k] @ [k, n] into [m, n].
struct GemmProblem {
  int64_t m = 0, n = 0, k = 0, batch = 1;
  GemmMatrix a, b, c; ///< c is never transposed
  float alpha = 1, beta = 0;
  /// Run at each element of C by the template, where C's layout allows (the choice between the
  /// template and the library is made without it); null for none.
  GemmEpilogue *epilogue = nullptr;
  /// "m512_n1024_k4096_b1_nt_beta0": what a choice is cached under.
  std::string shapeKey() const;
};

/// How a tile multiplies.
enum class GemmCompute : uint8_t {
  Fma, ///< float32 fused multiply-adds, a work-item per block
  /// NVIDIA tensor cores (compute capability 8 and later), a warp per block: each product as three
  /// of TF32 parts (3xTF32: big * big + big * small + small * big), summed on the tensor cores,
  /// which truncate: about 8x float32's rounding error (still far below plain TF32's), so only
  /// where MatmulPrecision::High allows TF32. The split is wrong at float32's edges (an infinity's
  /// rest times a big part is NaN; magnitudes from 2^127 round to infinity; below 2^-102 the rest
  /// loses its bits), so a kernel flags the rows of A and columns of B that hold such a value
  /// before the product (each element read once), and a tile that meets a flag is left to the
  /// tile's float32 form (float32 FMAs), launched right after it, which computes only such tiles
  /// and ends at once where none is flagged.
  TensorCores,
  /// As TensorCores, but each 8-deep step's products are summed on the tensor cores from zero and
  /// then added to float32 sums rounding to nearest: as accurate as float32's serial sums or more
  /// (an H200 measured 5.6e-8 of the products' magnitudes at k = 1024, float32's 1.2e-7;
  /// bench/README.md, session 20), so a candidate at MatmulPrecision::Highest too.
  TensorCoreStepSums,
};

/// One tile shape of the template.
struct GemmTile {
  int tm, tn, tk; ///< the work-group's tile of C, and the depth of each step
  int wm, wn;     ///< the block of C of a work-item (multiples of 4) or, on tensor cores, a warp
  GemmCompute compute = GemmCompute::Fma;
  bool tensorCores() const { return compute != GemmCompute::Fma; }
  int threads() const { return (tm / wm) * (tn / wn) * (tensorCores() ? 32 : 1); }
  /// "128x128x8_8x8"; tensor-core tiles end in "_tc", or "_tcs" summing each step in float32.
  std::string str() const;
};

/// The tile shapes the template is built in: float32 ones largest first, then tensor-core ones.
const std::vector<GemmTile> &gemmTiles();

/// How the template runs one product: a tile shape and the parts its k is split into (split-K,
/// as CUTLASS's and Triton's split-K GEMMs): with `splits` > 1, each part's product goes to a
/// partial buffer [splits, m, n] in one launch (the parts as batches), then a second kernel sums
/// them into C with alpha and beta. It fills a GPU where the tiles of m x n alone are fewer than
/// its multiprocessors can run at once (a down projection: few columns, a long k).
struct GemmPlan {
  GemmTile tile;
  int splits = 1;
  /// The tile's name, with "_split" + splits where splits > 1: "128x128x8_8x8_split2".
  std::string str() const;
  /// The plan `text` names, or nullopt.
  static std::optional<GemmPlan> parse(std::string_view text);
};

/// Another way to compute a problem (CLBlast): enqueues it on the context's queue, writing its
/// result at element `offset` of `out` (the problem's own output, or a scratch buffer of the
/// same layout while timing).
using GemmLibrary = std::function<Status(cl_mem out, size_t offset)>;

/// What computed a problem.
enum class GemmRoute : uint8_t {
  Template,      ///< the GEMM template, in one launch
  TemplateSplit, ///< the GEMM template with k split in parts (GemmPlan), and their sum
  Library,       ///< the BLAS library
};

/// Whether the template can index `p`: every matrix's elements within 2^31 of its first (the
/// kernel's int arithmetic; batches step in long). runGemm without a library fails otherwise,
/// so callers that have another way check first.
bool gemmTemplateFits(const GemmProblem &p);

/// Runs `p` with the template or `library` (null when there is none), as OpenCLOptions::gemm
/// says: on GPUs, by default, the fastest for this shape, timed on its first call (within the
/// tuning budget) and then cached; on CPU devices the library where there is one. An error
/// when a kernel fails to build or launch.
Expected<GemmRoute> runGemm(OpenCLContext &ctx, const OpenCLOptions &options, const GemmProblem &p,
                            const GemmLibrary *library);

/// One float32 2-D convolution (aten.convolution, one group, not transposed) in elements:
/// input [n, c, h, w], weight [oc, c, kh, kw] with (c, kh, kw) dense, output [n, oc, oh, ow],
/// each through its strides; an optional bias [oc].
struct ConvProblem {
  cl_mem input = nullptr, weight = nullptr, output = nullptr, bias = nullptr;
  size_t inputOffset = 0, weightOffset = 0, outputOffset = 0, biasOffset = 0;
  int64_t n = 0, c = 0, h = 0, w = 0, oc = 0, kh = 0, kw = 0, oh = 0, ow = 0;
  int64_t inStrides[4] = {}, weightStride0 = 0, outStrides[4] = {}, biasStride = 0;
  int64_t stride[2] = {1, 1}, padding[2] = {}, dilation[2] = {1, 1};
  /// Run at each element of the output as it is stored, where the output is dense (NCHW) and its
  /// element numbers are the epilogue's points (as GemmProblem::epilogue); null for none.
  GemmEpilogue *epilogue = nullptr;
  /// What a choice is cached under: sizes, window and layouts.
  std::string shapeKey() const;
};

/// Runs `p` as an implicit GEMM of the template (the weight times the input's patches, gathered
/// as they are loaded) or `library` (CLBlast's Convgemm, where it takes the problem), chosen
/// as runGemm chooses.
Expected<GemmRoute> runConvolutionGemm(OpenCLContext &ctx, const OpenCLOptions &options,
                                       const ConvProblem &p, const GemmLibrary *library);

/// Which rows of A and columns of B of `p` hold a value the tensor-core tiles' 3xTF32 split gets
/// wrong (an infinity, a NaN, a magnitude from 2^127, or one below 2^-102 other than 0), as runGemm
/// flags them before a tensor-core tile computes `p`, read back: batch * m flags for A's rows,
/// then batch * n for B's columns, 1 where set, then 1 where any is. For tests and inspection.
Expected<std::vector<int32_t>> gemmSpecialRows(OpenCLContext &ctx, const OpenCLOptions &options,
                                               const GemmProblem &p);

/// The plans runGemm times for `p` on `ctx`'s device under `options` (where it tunes): each tile
/// shape not much larger than the result that computes at the options' precision, unsplit, and,
/// for a single product whose tiles of C are fewer than two per multiprocessor, that tile split
/// into the fewest parts of k (at least 128 deep, dividing k) that make them that many.
std::vector<GemmPlan> gemmPlansFor(const GemmProblem &p, const OpenCLContext &ctx,
                                   const OpenCLOptions &options);

/// Whether the template computes on this context's device under `options` (a GPU, or the
/// policy forces it): callers that would otherwise leave the problem to another kernel.
bool gemmTemplateTakes(const OpenCLContext &ctx, const OpenCLOptions &options);

/// The OpenCL C of the template (for tests and `--print-source`-like inspection).
const std::string &gemmTemplateSource();

} // namespace fxkit::opencl
