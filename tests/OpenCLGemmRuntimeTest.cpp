// fxkit's GEMM template (backends/opencl/runtime/GemmTemplate.h) against the reference
// interpreter: every tile shape, every operand layout, partial tiles in every dimension, batches,
// alpha and beta, and the choice between the template and CLBlast.

#include "DeviceExternsTestSupport.h"

#include "backends/opencl/runtime/BlasExtern.h"
#include "backends/opencl/runtime/GemmTemplate.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <sstream>

using namespace fxkit;
using namespace fxkit::opencl;
using namespace fxkit::testing;
using namespace fxkit::testing::device_tests;

namespace {

/// `x @ y` where x is [m, k] and y [k, n], each stored as given or transposed (a permuted view
/// of a [k, m] or [n, k] placeholder), as Inductor's extern mm calls see linear layers.
std::string mmGraph(int m, int n, int k, bool ta, bool tb) {
  // Placeholder `name` as a [rows, cols] matrix, stored transposed when `t`.
  auto operand = [](const std::string &name, int rows, int cols, bool t) {
    std::string r = std::to_string(t ? cols : rows), c = std::to_string(t ? rows : cols);
    std::string stored = t ? name + "s" : name;
    std::string text = "    %" + stored + " : Tensor \"f32[" + r + ", " + c + "][" + c +
                       ", 1]cpu\"[num_users=1] = placeholder[target=" + stored + "]\n";
    if (t)
      text += "    %" + name +
              " : [num_users=1] = call_function[target=torch.ops.aten.permute.default](args = "
              "(%" +
              stored + ", [1, 0]), kwargs = {})\n";
    return text;
  };
  return "graph():\n" + operand("x", m, k, ta) + operand("y", k, n, tb) +
         "    %r : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, "
         "%y), kwargs = {})\n"
         "    return (r,)\n";
}

/// Runs `check` in every operand layout: A and B each stored as they are or transposed.
void forEachLayout(const std::function<void(bool ta, bool tb)> &check) {
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      SCOPED_TRACE(std::string(ta ? "A transposed " : "A ") + (tb ? "B transposed" : "B"));
      check(ta, tb);
    }
}

/// bmm of 3 batches: x [9, 17] @ y [11, 17]^T each.
const std::string kBmm =
    "graph():\n"
    "    %x : Tensor \"f32[3, 9, 17][153, 17, 1]cpu\"[num_users=1] = placeholder[target=x]\n"
    "    %y : Tensor \"f32[3, 11, 17][187, 17, 1]cpu\"[num_users=1] = placeholder[target=y]\n"
    "    %t : [num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%y, "
    "[0, 2, 1]), kwargs = {})\n"
    "    %r : [num_users=1] = call_function[target=torch.ops.aten.bmm.default](args = (%x, %t), "
    "kwargs = {})\n"
    "    return (r,)\n";

/// addmm with alpha and beta: x [13, 40] @ w [24, 40]^T, times 2, plus half the bias row.
const std::string kAddmm =
    "graph():\n"
    "    %b : Tensor \"f32[24][1]cpu\"[num_users=1] = placeholder[target=b]\n"
    "    %x : Tensor \"f32[13, 40][40, 1]cpu\"[num_users=1] = placeholder[target=x]\n"
    "    %w : Tensor \"f32[24, 40][40, 1]cpu\"[num_users=1] = placeholder[target=w]\n"
    "    %t : [num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%w, "
    "[1, 0]), kwargs = {})\n"
    "    %r : [num_users=1] = call_function[target=torch.ops.aten.addmm.default](args = (%b, %x, "
    "%t), kwargs = {beta: 0.5, alpha: 2.0})\n"
    "    return (r,)\n";

OpenCLOptions templateWith(const std::string &tile) {
  OpenCLOptions options;
  options.gemm = GemmPolicy::Template;
  options.gemmTile = tile;
  options.tune = false;
  return options;
}

/// `text` compiled into `c`, with seeded random inputs for it: for tests that load the program
/// themselves.
::testing::AssertionResult compileWithInputs(const std::string &text, Compiled &c,
                                             std::vector<RuntimeValue> &inputs) {
  registerReferenceKernels();
  auto graph = parseFxText(text, "<test>");
  if (!graph)
    return ::testing::AssertionFailure() << graph.error().str();
  if (auto r = compile(graph.take(), c); !r)
    return r;
  auto random = makeRandomInputs(c.graph, {}, 7);
  if (!random)
    return ::testing::AssertionFailure() << random.error().str();
  inputs = random.take();
  return ::testing::AssertionSuccess();
}

#define REQUIRE_BLAS()                                                                             \
  if (!haveBlas())                                                                                 \
  GTEST_SKIP() << "built without CLBlast: matrix products take the device extern kernel"

} // namespace

TEST(OpenCLGemmTemplate, SourceHasOneDefinitionPerTileAndForm) {
  std::string src = gemmTemplateSource();
  int defined = 0;
  for (size_t at = src.find("#ifdef FX_DEFINITION_fx_gemm_"); at != std::string::npos;
       at = src.find("#ifdef FX_DEFINITION_fx_gemm_", at + 1))
    ++defined;
  // 4 layouts, and the convolution of float32 tiles; tensor-core tiles' 4 layouts and each one's
  // float32 form and emulation.
  int expected = 0, tensorCores = 0;
  for (const GemmTile &t : gemmTiles()) {
    expected += t.tensorCores() ? 12 : 5;
    tensorCores += t.tensorCores() ? 1 : 0;
    EXPECT_EQ(t.wm % (t.tensorCores() ? 16 : 4), 0) << t.str(); // m16n8k8 blocks, or float4s
    EXPECT_EQ(t.wn % (t.tensorCores() ? 8 : 4), 0) << t.str();
    EXPECT_EQ(t.tk % (t.tensorCores() ? 8 : 1), 0) << t.str();
    // Whole elements per work-item, whole float4s on tensor cores.
    EXPECT_EQ(t.tm * t.tk % (t.threads() * (t.tensorCores() ? 4 : 1)), 0) << t.str();
    EXPECT_EQ(t.tn * t.tk % (t.threads() * (t.tensorCores() ? 4 : 1)), 0) << t.str();
    EXPECT_NE(src.find("fx_gemm_" + t.str() + "_nt"), std::string::npos) << t.str();
    EXPECT_EQ(src.find("fx_gemm_" + t.str() + "_nt_float32") != std::string::npos, t.tensorCores())
        << t.str();
    EXPECT_EQ(src.find("fx_gemm_" + t.str() + "_nt_emulated") != std::string::npos, t.tensorCores())
        << t.str();
    EXPECT_EQ(src.find("fx_gemm_" + t.str() + "_conv") != std::string::npos, !t.tensorCores())
        << t.str();
    EXPECT_EQ(t.str().ends_with("_tc") || t.str().ends_with("_tcs"), t.tensorCores()) << t.str();
  }
  EXPECT_EQ(defined, expected + 2); // and split-K's sums, and tensor-core tiles' flags
  EXPECT_EQ(tensorCores, 7);
  // The tensor cores' instruction is inline PTX, compiled only into their definitions.
  EXPECT_NE(src.find("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"), std::string::npos);
  EXPECT_NE(src.find("#if FX_GEMM_MMA"), std::string::npos);
}

/// Whether the default device has tensor cores the template's tensor-core tiles use.
bool haveTensorCores() { return openclContext() && openclContext()->device().nvComputeMajor >= 8; }

/// templateWith(tile) for a tensor-core tile: on the tensor cores where the device has them, else
/// emulated (OpenCLOptions::gemmTensorCoreEmulation), so the tiles' layouts, flags and float32
/// form are tested on every device.
OpenCLOptions tensorCoreTile(const GemmTile &t) {
  OpenCLOptions options = templateWith(t.str());
  options.gemmTensorCoreEmulation = t.tensorCores() && !haveTensorCores();
  return options;
}

/// Whether tile `t` is tested here: every tile on tensor cores; where they are emulated (PoCL
/// takes about 14 s to build each emulated definition), every float32 tile and, of each way the
/// tensor-core tiles sum, the one with the fewest work-items (their fragment layouts are the same
/// at every tile shape).
bool tested(const GemmTile &t) {
  if (!t.tensorCores() || haveTensorCores())
    return true;
  const GemmTile *fewest = nullptr;
  for (const GemmTile &u : gemmTiles())
    if (u.compute == t.compute && (!fewest || u.threads() < fewest->threads()))
      fewest = &u;
  return fewest->str() == t.str();
}

TEST(OpenCLGemmTemplate, EveryTileShapeWithPartialTiles) {
  REQUIRE_OPENCL_DEVICE();
  REQUIRE_BLAS();
  // 130 x 70 with k = 37: two row tiles of 128 (the second of 2 rows), partial column tiles,
  // and a last step of k that is not a whole TK; the linear layer's layout (B transposed). The
  // tensor-core tiles have a test of their own.
  for (const GemmTile &t : gemmTiles()) {
    if (t.tensorCores())
      continue;
    SCOPED_TRACE(t.str());
    OpenCLStats s = expectAgrees(mmGraph(130, 70, 37, false, true), {}, templateWith(t.str()));
    EXPECT_EQ(s.gemmTemplateCalls, 1);
    EXPECT_EQ(s.blasCalls, 0);
  }
}

/// The magnitudes of `v`'s elements, in a tensor of the same layout.
RuntimeValue absoluteValues(const RuntimeValue &v) {
  Tensor t = layoutPreservingCopy(*v.tensor());
  Tensor::forEachIndex(t.sizes(), [&](std::span<const int64_t> idx) {
    t.storeDouble(t.offsetOf(idx), std::abs(t.getDouble(idx)));
  });
  return RuntimeValue{std::move(t)};
}

/// Runs matrix product `text` (seeded random inputs) under `options` and expects each element
/// within `bound` times the sum of its products' magnitudes of the interpreter's (which the
/// interpreter gives for the inputs' absolute values): an error bound that cancellation does not
/// inflate, as for a rounding error per step. `edit` may change the inputs first; where the
/// interpreter's element is not finite, the template's must be the same infinity, or NaN.
/// Returns how many elements were not finite.
int expectWithinMagnitudes(const std::string &text, const OpenCLOptions &options, double bound,
                           const std::function<void(std::vector<RuntimeValue> &)> &edit = {}) {
  Compiled c;
  std::vector<RuntimeValue> inputs;
  if (!compileWithInputs(text, c, inputs)) {
    ADD_FAILURE() << "the product does not compile";
    return 0;
  }
  if (edit)
    edit(inputs);
  OpenCLStats stats;
  auto got = runOnOpenCL(c, inputs, options, &stats);
  EXPECT_TRUE(got);
  EXPECT_EQ(stats.gemmTemplateCalls, 1);
  std::vector<RuntimeValue> magnitudes;
  for (const RuntimeValue &v : inputs)
    magnitudes.push_back(absoluteValues(v));
  auto want = interpretGraph(c.graph, inputs);
  auto sums = interpretGraph(c.graph, magnitudes);
  if (!got || !want || !sums) {
    ADD_FAILURE() << "the interpreter failed";
    return 0;
  }
  const Tensor &g = *got->outputs[0].tensor(), &w = *want->outputs[0].tensor(),
               &m = *sums->outputs[0].tensor();
  int bad = 0, nonFinite = 0;
  Tensor::forEachIndex(w.sizes(), [&](std::span<const int64_t> idx) {
    if (!std::isfinite(w.getDouble(idx))) {
      ++nonFinite;
      bool same = std::isnan(w.getDouble(idx)) ? std::isnan(g.getDouble(idx))
                                               : g.getDouble(idx) == w.getDouble(idx);
      if (!same && bad++ < 5)
        ADD_FAILURE() << "at [" << idx[0] << ", " << idx[1] << "]: " << g.getDouble(idx) << " vs "
                      << w.getDouble(idx);
      return;
    }
    double error = std::abs(g.getDouble(idx) - w.getDouble(idx));
    if (!(error <= bound * m.getDouble(idx) + 1e-30) && bad++ < 5)
      ADD_FAILURE() << "at [" << idx[0] << ", " << idx[1] << "]: " << g.getDouble(idx) << " vs "
                    << w.getDouble(idx) << ", products' magnitudes " << m.getDouble(idx);
  });
  EXPECT_EQ(bad, 0);
  return nonFinite;
}

TEST(OpenCLGemmTemplate, TensorCoreTilesAgreeWithTheInterpreter) {
  REQUIRE_OPENCL_DEVICE();
  REQUIRE_BLAS();
  // Candidates only at MatmulPrecision::High on NVIDIA GPUs of compute capability 8 or later;
  // elsewhere a product takes the float32 tiles.
  OpenCLOptions high;
  high.gemm = GemmPolicy::Template;
  high.matmulPrecision = MatmulPrecision::High;
  if (!haveTensorCores()) {
    EXPECT_EQ(expectAgrees(mmGraph(300, 300, 64, false, true), {}, high).gemmTemplateCalls, 1);
  }
  // Partial tiles in every dimension and a k that is not a whole step, every operand layout;
  // within 2^-16 of the products' magnitudes summing on the tensor cores (measured on an H200:
  // 2^-20 at k = 1024, float32's serial sums 2^-23), 2^-20 summing each step in float32. Where
  // there are no tensor cores, their emulation: the same fragments, each product's operands cut
  // to TF32 as the tensor cores cut them.
  int checked = 0;
  for (const GemmTile &t : gemmTiles()) {
    if (!t.tensorCores() || !tested(t))
      continue;
    SCOPED_TRACE(t.str());
    const double bound = std::ldexp(1.0, t.compute == GemmCompute::TensorCoreStepSums ? -20 : -16);
    forEachLayout([&](bool ta, bool tb) {
      expectWithinMagnitudes(mmGraph(300, 270, 75, ta, tb), tensorCoreTile(t), bound);
      ++checked;
    });
  }
  EXPECT_EQ(checked, haveTensorCores() ? 28 : 8);
}

/// Puts an infinity and a NaN in rows 5 and 40 of x, two values near float32's largest in row 100
/// and -inf at (20, 30) of w, which is [n, k] (the product is x @ w^T): the rows and column 20 of
/// the result are not finite.
void putSpecialValues(std::vector<RuntimeValue> &inputs) {
  Tensor &x = std::get<Tensor>(inputs[0].v), &w = std::get<Tensor>(inputs[1].v);
  auto set = [](Tensor &t, int64_t r, int64_t c, double v) {
    const int64_t idx[2] = {r, c};
    t.storeDouble(t.offsetOf(idx), v);
  };
  set(x, 5, 7, INFINITY);
  set(x, 40, 2, NAN);
  set(x, 100, 10, 3.0e38);
  set(x, 100, 11, -3.3e38);
  set(w, 20, 30, -INFINITY);
}

/// Rows 5 and 40 (270 each) and column 20 (300) of putSpecialValues' 300 x 270 product, less the
/// two they share with it; row 100's sums of the largest values overflow in some columns too.
constexpr int kSpecialElements = 270 + 270 + 300 - 2;

TEST(OpenCLGemmTemplate, TensorCoreTilesFloat32LoopAgreesWithTheInterpreter) {
  REQUIRE_OPENCL_DEVICE();
  REQUIRE_BLAS();
  // The float32 loop computes the tiles whose operands the tensor cores' split gets wrong; here
  // it computes every tile (gemmFloat32LoopOnly, the tile's float32 form), which also runs it on
  // devices without tensor cores. Every tensor-core tile with partial tiles in the linear layer's
  // layout, with infinities, NaNs and the largest values, addmm's alpha and beta * C, batches, a
  // split along k; the last (smallest) one in every layout. (Each layout is a definition of its
  // own, which a CPU device takes about 5 s to build.)
  int checked = 0;
  for (const GemmTile &t : gemmTiles()) {
    if (!t.tensorCores())
      continue;
    SCOPED_TRACE(t.str());
    OpenCLOptions options = templateWith(t.str());
    options.gemmFloat32LoopOnly = true;
    if (t.str() == gemmTiles().back().str()) {
      forEachLayout([&](bool ta, bool tb) {
        expectWithinMagnitudes(mmGraph(300, 270, 75, ta, tb), options, std::ldexp(1.0, -16));
      });
    }
    EXPECT_GE(expectWithinMagnitudes(mmGraph(300, 270, 75, false, true), options,
                                     std::ldexp(1.0, -16), putSpecialValues),
              kSpecialElements);
    EXPECT_EQ(expectAgrees(kAddmm, {}, options).gemmTemplateCalls, 1);
    EXPECT_EQ(expectAgrees(kBmm, {}, options).gemmTemplateCalls, 1);
    OpenCLOptions split = options;
    split.gemmTile = t.str() + "_split2";
    OpenCLStats s = expectAgrees(mmGraph(130, 70, 256, false, true), {}, split);
    EXPECT_EQ(s.gemmSplitCalls, 1);
    ++checked;
  }
  EXPECT_EQ(checked, 7);
}

TEST(OpenCLGemmTemplate, RowsAndColumnsWithValuesTheSplitGetsWrongAreFlagged) {
  REQUIRE_OPENCL_DEVICE();
  OpenCLContext &ctx = *openclContext();
  // Two batches of A [5, 7] (rows 8 apart, batches 48 apart) and B [7, 6] stored transposed (as
  // [6, 7], rows 7 apart, batches 42 apart), each element's position a distinct small value.
  const int64_t m = 5, n = 6, k = 7;
  std::vector<float> a(2 * 48, 0.5f), b(2 * 42, 0.25f);
  auto atA = [&](int64_t bt, int64_t row, int64_t kk) -> float & {
    return a[bt * 48 + row * 8 + kk];
  };
  auto atB = [&](int64_t bt, int64_t kk, int64_t col) -> float & {
    return b[bt * 42 + col * 7 + kk];
  };
  atA(1, 3, 6) = INFINITY;               // flagged: A's row 3 of batch 1
  atA(0, 4, 0) = 1e-35f;                 // below 2^-102: row 4 of batch 0
  atA(0, 1, 2) = -0.0f;                  // zeros are not
  atA(0, 2, 5) = 1e-30f;                 // above 2^-102: not
  atA(1, 0, 1) = 1.7e38f;                // below 2^127: not
  atB(0, 3, 2) = NAN;                    // B's column 2 of batch 0
  atB(1, 0, 5) = -std::ldexp(1.0f, 127); // 2^127: column 5 of batch 1
  atB(1, 6, 0) = std::ldexp(1.0f, -140); // a subnormal: column 0 of batch 1
  a[47] = INFINITY;                      // past every row's k: not read
  auto buffer = [&](std::vector<float> &v) {
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(ctx.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                v.size() * sizeof(float), v.data(), &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return mem;
  };
  GemmProblem p;
  p.m = m, p.n = n, p.k = k, p.batch = 2;
  p.a = GemmMatrix{buffer(a), 0, 8, 48, false};
  p.b = GemmMatrix{buffer(b), 0, 7, 42, true};
  auto rows = gemmSpecialRows(ctx, OpenCLOptions{}, p);
  clReleaseMemObject(p.a.mem);
  clReleaseMemObject(p.b.mem);
  ASSERT_TRUE(rows) << rows.error().str();
  std::vector<int32_t> want(2 * m + 2 * n + 1, 0);
  want[1 * m + 3] = want[0 * m + 4] = want.back() = 1;
  want[2 * m + 0 * n + 2] = want[2 * m + 1 * n + 5] = want[2 * m + 1 * n + 0] = 1;
  EXPECT_EQ(*rows, want);
  // A stored transposed and B not: the same values through the other strides.
  std::vector<float> at(2 * 40, 0.5f), bn(2 * 48, 0.25f);
  at[1 * 40 + 6 * 5 + 3] = INFINITY; // A(1, 3, 6) at kk * 5 + row
  bn[0 * 48 + 3 * 6 + 2] = NAN;      // B(0, 3, 2) at kk * 6 + col
  p.a = GemmMatrix{buffer(at), 0, 5, 40, true};
  p.b = GemmMatrix{buffer(bn), 0, 6, 48, false};
  rows = gemmSpecialRows(ctx, OpenCLOptions{}, p);
  clReleaseMemObject(p.a.mem);
  clReleaseMemObject(p.b.mem);
  ASSERT_TRUE(rows) << rows.error().str();
  std::vector<int32_t> want2(2 * m + 2 * n + 1, 0);
  want2[1 * m + 3] = want2[2 * m + 0 * n + 2] = want2.back() = 1;
  EXPECT_EQ(*rows, want2);
  // Rows longer than a work-group (A [300, 1000]) and a B with nothing to flag; then neither.
  std::vector<float> wide(300 * 1000, 0.5f), clean(1000 * 3, 0.25f);
  wide[277 * 1000 + 999] = -INFINITY;
  p = GemmProblem{};
  p.m = 300, p.n = 3, p.k = 1000;
  p.a = GemmMatrix{buffer(wide), 0, 1000, 0, false};
  p.b = GemmMatrix{buffer(clean), 0, 3, 0, false};
  rows = gemmSpecialRows(ctx, OpenCLOptions{}, p);
  ASSERT_TRUE(rows) << rows.error().str();
  std::vector<int32_t> want3(300 + 3 + 1, 0);
  want3[277] = want3.back() = 1;
  EXPECT_EQ(*rows, want3);
  clReleaseMemObject(p.a.mem);
  wide[277 * 1000 + 999] = 0.5f;
  p.a = GemmMatrix{buffer(wide), 0, 1000, 0, false};
  rows = gemmSpecialRows(ctx, OpenCLOptions{}, p);
  clReleaseMemObject(p.a.mem);
  clReleaseMemObject(p.b.mem);
  ASSERT_TRUE(rows) << rows.error().str();
  EXPECT_EQ(*rows, std::vector<int32_t>(300 + 3 + 1, 0));
}

TEST(OpenCLGemmTemplate, EveryTileKeepsInfinitiesNaNsAndTheLargestValues) {
  REQUIRE_OPENCL_DEVICE();
  REQUIRE_BLAS();
  // putSpecialValues' infinities, NaN and largest values give the interpreter's infinities and
  // NaNs, the rest within the bound. On tensor cores, the tiles whose operands hold them (7 of 9
  // at 128 x 128; at every shape some do not) are computed by the float32 loop, the
  // rest by the tensor cores; where the split alone computed them, an H200 gave NaN for inf
  // (bench/README.md, session 20). Tiny values: x's row 200 holds magnitudes below 2^-102 whose
  // rests the split would lose, with w's row 0 scaled up to make them count.
  auto edit = [](std::vector<RuntimeValue> &inputs) {
    putSpecialValues(inputs);
    Tensor &x = std::get<Tensor>(inputs[0].v), &w = std::get<Tensor>(inputs[1].v);
    for (int64_t j = 0; j < 75; ++j) {
      const int64_t xi[2] = {200, j}, wi[2] = {0, j};
      x.storeDouble(x.offsetOf(xi), std::ldexp(1.0 + j / 75.0, -110));
      w.storeDouble(w.offsetOf(wi), std::ldexp(w.getDouble(wi), 100));
    }
  };
  // Batches: each reads its own flags (an infinity in batch 2's row 7 of x, a NaN in batch 1's
  // row 10 of y, which is [n, k]: column 10 of that batch's result).
  const std::string bmm =
      "graph():\n"
      "    %x : Tensor \"f32[3, 140, 33][4620, 33, 1]cpu\"[num_users=1] = placeholder[target=x]\n"
      "    %y : Tensor \"f32[3, 150, 33][4950, 33, 1]cpu\"[num_users=1] = placeholder[target=y]\n"
      "    %t : [num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%y, "
      "[0, 2, 1]), kwargs = {})\n"
      "    %r : [num_users=1] = call_function[target=torch.ops.aten.bmm.default](args = (%x, %t), "
      "kwargs = {})\n"
      "    return (r,)\n";
  auto editBatches = [](std::vector<RuntimeValue> &inputs) {
    Tensor &x = std::get<Tensor>(inputs[0].v), &y = std::get<Tensor>(inputs[1].v);
    const int64_t xi[3] = {2, 7, 5}, yi[3] = {1, 10, 3};
    x.storeDouble(x.offsetOf(xi), INFINITY);
    y.storeDouble(y.offsetOf(yi), NAN);
  };
  int checked = 0;
  for (const GemmTile &t : gemmTiles()) {
    if (!tested(t))
      continue;
    SCOPED_TRACE(t.str());
    EXPECT_GE(expectWithinMagnitudes(mmGraph(300, 270, 75, false, true), tensorCoreTile(t),
                                     std::ldexp(1.0, -16), edit),
              kSpecialElements);
    // Batch 2's row 7 (150 elements) and batch 1's column 10 (140).
    EXPECT_GE(expectWithinMagnitudes(bmm, tensorCoreTile(t), std::ldexp(1.0, -16), editBatches),
              150 + 140);
    ++checked;
  }
  EXPECT_EQ(checked, haveTensorCores() ? 14 : 9);
}

TEST(OpenCLGemmTemplate, PlansAreNamedAndParsed) {
  for (const GemmTile &t : gemmTiles())
    for (int splits : {1, 2, 12}) {
      GemmPlan plan{t, splits};
      auto parsed = GemmPlan::parse(plan.str());
      ASSERT_TRUE(parsed) << plan.str();
      EXPECT_EQ(parsed->str(), plan.str());
      EXPECT_EQ(parsed->splits, splits);
      EXPECT_EQ(parsed->tile.str(), t.str());
    }
  EXPECT_EQ((GemmPlan{gemmTiles().front(), 3}.str()), "128x128x8_8x8_split3");
  for (const char *bad : {"128x128x8_8x8_split1", "128x128x8_8x8_split", "128x128x8_8x8_split2x",
                          "128x128x8_8x8_split-2", "99x99x8_8x8", "99x99x8_8x8_split2", ""})
    EXPECT_FALSE(GemmPlan::parse(bad)) << bad;
}

TEST(OpenCLGemmTemplate, SplitKPlansWhereTheTilesAreTooFewToFillTheDevice) {
  REQUIRE_OPENCL_DEVICE();
  const OpenCLContext &ctx = *openclContext();
  const int64_t wanted = 2 * std::max(ctx.device().computeUnits, 1);
  OpenCLOptions options;
  options.gemm = GemmPolicy::Template;
  // 256 x 256 with k = 3072: 4 tiles of 128 x 128, fewer than any device's two per compute unit
  // where it has more than 2; the split is the fewest parts (dividing k, at least 128 deep) that
  // make enough tiles, or the most there are.
  GemmProblem p;
  p.m = 256, p.n = 256, p.k = 3072;
  int splitPlans = 0;
  std::vector<GemmPlan> plans = gemmPlansFor(p, ctx, options);
  for (const GemmPlan &plan : plans) {
    SCOPED_TRACE(plan.str());
    const int64_t tiles =
        ((p.m + plan.tile.tm - 1) / plan.tile.tm) * ((p.n + plan.tile.tn - 1) / plan.tile.tn);
    if (plan.splits == 1)
      continue;
    ++splitPlans;
    EXPECT_LT(tiles, wanted);
    EXPECT_EQ(p.k % plan.splits, 0);
    EXPECT_GE(p.k / plan.splits, 128);
    // Fewer parts would not have made enough tiles.
    for (int fewer : {2, 3, 4, 6, 8, 12, 16}) {
      if (fewer < plan.splits && p.k % fewer == 0) {
        EXPECT_LT(tiles * fewer, wanted) << fewer;
      }
    }
    // Each split plan follows its tile's unsplit one.
    EXPECT_NE(std::find_if(plans.begin(), plans.end(),
                           [&](const GemmPlan &q) {
                             return q.splits == 1 && q.tile.str() == plan.tile.str();
                           }),
              plans.end());
  }
  if (wanted > 4) {
    EXPECT_GT(splitPlans, 0);
  }
  // None for batches, for a k too short to split, or where the tiles fill the device.
  GemmProblem batched = p;
  batched.batch = 2;
  GemmProblem shallow = p;
  shallow.k = 200;
  GemmProblem large = p;
  large.m = large.n = 128 * (wanted + 1);
  for (const GemmProblem *q : {&batched, &shallow, &large})
    for (const GemmPlan &plan : gemmPlansFor(*q, ctx, options))
      EXPECT_EQ(plan.splits, 1) << plan.str() << " for " << q->shapeKey();
}

TEST(OpenCLGemmTemplate, SplitKPlansAgreeWithTheInterpreter) {
  REQUIRE_OPENCL_DEVICE();
  REQUIRE_BLAS();
  // Every operand layout with partial tiles, k = 96 in 3 parts of 32 (a part ends inside a step
  // of 8 in none, of 16 in one); the product then the parts' sum.
  forEachLayout([](bool ta, bool tb) {
    for (const char *plan : {"64x64x8_4x4_split3", "64x64x16_8x8_split3"}) {
      SCOPED_TRACE(plan);
      OpenCLStats s = expectAgrees(mmGraph(130, 70, 96, ta, tb), {}, templateWith(plan));
      EXPECT_EQ(s.gemmTemplateCalls, 1);
      EXPECT_EQ(s.gemmSplitCalls, 1);
    }
  });
  // addmm: alpha and beta * C (the bias row) join in the sum; k = 40 in 2 parts.
  OpenCLStats s = expectAgrees(kAddmm, {}, templateWith("32x32x8_4x4_split2"));
  EXPECT_EQ(s.gemmTemplateCalls, 1);
  EXPECT_EQ(s.gemmSplitCalls, 1);
  // A split that does not divide k runs the product unsplit.
  s = expectAgrees(mmGraph(40, 30, 37, false, true), {}, templateWith("32x32x8_4x4_split2"));
  EXPECT_EQ(s.gemmTemplateCalls, 1);
  EXPECT_EQ(s.gemmSplitCalls, 0);
}

TEST(OpenCLGemmTemplate, EveryOperandLayout) {
  REQUIRE_OPENCL_DEVICE();
  REQUIRE_BLAS();
  forEachLayout([](bool ta, bool tb) {
    OpenCLStats s = expectAgrees(mmGraph(67, 41, 90, ta, tb), {}, templateWith("64x64x8_4x4"));
    EXPECT_EQ(s.gemmTemplateCalls, 1);
  });
}

TEST(OpenCLGemmTemplate, BatchesAlphaBetaAndABiasRow) {
  REQUIRE_OPENCL_DEVICE();
  REQUIRE_BLAS();
  EXPECT_EQ(expectAgrees(kBmm, {}, templateWith("32x32x8_4x4")).gemmTemplateCalls, 1);
  // addmm: the bias row is written into C, then beta * C joins alpha * x @ w^T.
  EXPECT_EQ(expectAgrees(kAddmm, {}, templateWith("32x32x8_4x4")).gemmTemplateCalls, 1);
}

TEST(OpenCLGemmTemplate, ChoiceIsTimedOnceAndCached) {
  REQUIRE_OPENCL_DEVICE();
  REQUIRE_BLAS();
  // Beside the TempDir, not in it: expectAgrees makes one of the same name (and removes it).
  TempDir root;
  std::filesystem::path cache = root.path.string() + "-choices";
  OpenCLOptions options;
  options.gemm = GemmPolicy::Template;
  options.cacheDir = cache.string();
  // 20 x 20: only the 32 x 32 tile is a candidate, so timing builds one kernel.
  OpenCLStats s = expectAgrees(mmGraph(20, 20, 20, false, false), {}, options);
  EXPECT_EQ(s.gemmTemplateCalls, 1);
  int entries = 0;
  for (const auto &e : std::filesystem::directory_iterator(cache))
    entries += e.path().filename().string().starts_with("fx_gemm_choices") ? 1 : 0;
  EXPECT_EQ(entries, 1);
  std::filesystem::remove_all(cache);
  // On a CPU device the default policy leaves products to CLBlast.
  if (!openclContext()->device().isGpu) {
    OpenCLStats lib = expectAgrees(mmGraph(20, 20, 20, false, false));
    EXPECT_EQ(lib.gemmTemplateCalls, 0);
    EXPECT_EQ(lib.blasCalls, 1);
  }
}

/// A product of `text` loaded on the test context with the template forced to `tile` (its own
/// kernel cache in `cache`), and seeded inputs for it in `inputs`.
Expected<std::unique_ptr<OpenCLProgram>> loadWithTile(const std::string &text,
                                                      const std::string &tile, Compiled &c,
                                                      std::vector<RuntimeValue> &inputs,
                                                      const TempDir &cache) {
  if (auto compiled = compileWithInputs(text, c, inputs); !compiled)
    return Error(compiled.message());
  OpenCLOptions options = templateWith(tile);
  options.cacheDir = cache.path.string();
  return OpenCLProgram::load(*openclContext(), c.program, c.fused, c.plan, options);
}

TEST(OpenCLGemmTemplate, UnknownTileIsAnError) {
  REQUIRE_OPENCL_DEVICE();
  REQUIRE_BLAS();
  Compiled c;
  std::vector<RuntimeValue> inputs;
  TempDir cache;
  auto program = loadWithTile(mmGraph(8, 8, 8, false, false), "100x100x8_4x4", c, inputs, cache);
  ASSERT_TRUE(program) << program.error().str();
  auto result = (*program)->run(inputs);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("unknown GEMM tile '100x100x8_4x4'"), std::string::npos)
      << result.error().message;
}

TEST(OpenCLGemmTemplate, ChosenConfigsNameWhatRanEachProductShape) {
  REQUIRE_OPENCL_DEVICE();
  REQUIRE_BLAS();
  // `--stats` lists them: the shape's key and the plan that ran it (here the tile asked for).
  Compiled c;
  std::vector<RuntimeValue> inputs;
  TempDir cache;
  auto program = loadWithTile(mmGraph(130, 70, 37, false, true), "64x64x8_4x4", c, inputs, cache);
  ASSERT_TRUE(program) << program.error().str();
  ASSERT_TRUE((*program)->run(inputs));
  auto chosen = (*program)->chosenConfigs();
  const std::pair<std::string, std::string> want{"gemm m130_n70_k37_b1_nt_beta0", "64x64x8_4x4"};
  EXPECT_NE(std::find(chosen.begin(), chosen.end(), want), chosen.end());
}

TEST(OpenCLGemmTemplate, TuningKeepsToTheBudgetOfFxkitTuneBudgetS) {
  REQUIRE_OPENCL_DEVICE();
  REQUIRE_BLAS();
  // FXKIT_TUNE_BUDGET_S bounds the seconds the GEMM tuner spends timing (builds left out): below
  // one trial's, the first candidate tile is the only one timed. (The tuner used to ignore it and
  // time all seven float32 tiles of this shape.)
  ScopedEnv log("FXKIT_TUNE_LOG", "1");
  ScopedEnv budget("FXKIT_TUNE_BUDGET_S", "1e-9");
  Compiled c;
  std::vector<RuntimeValue> inputs;
  ASSERT_TRUE(compileWithInputs(mmGraph(130, 130, 37, false, true), c, inputs));
  TempDir cache;
  OpenCLOptions options;
  options.gemm = GemmPolicy::Template;
  options.tune = true;
  options.cacheDir = cache.path.string();
  auto program = OpenCLProgram::load(*openclContext(), c.program, c.fused, c.plan, options);
  ASSERT_TRUE(program) << program.error().str();
  ::testing::internal::CaptureStderr();
  auto ran = (*program)->run(inputs);
  const std::string err = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(ran) << ran.error().str();
  int tiles = 0;
  std::istringstream lines(err);
  for (std::string line; std::getline(lines, line);)
    tiles += line.starts_with("fxkit: gemm m130_n130_k37_b1_nt_beta0 ") &&
             line.find(" library:") == std::string::npos && line.ends_with(" ms");
  EXPECT_EQ(tiles, 1) << err;
}

// ---- convolutions as implicit GEMMs ----

TEST(OpenCLGemmTemplate, ConvolutionsAsImplicitGemms) {
  REQUIRE_OPENCL_DEVICE();
  REQUIRE_BLAS();
  struct Case {
    const char *what, *x, *w, *b, *rest;
  };
  const Case cases[] = {
      // ResNet's 3x3, stride 1, padding 1, no bias.
      {"3x3", "f32[2, 5, 9, 7][315, 63, 7, 1]cpu", "f32[6, 5, 3, 3][45, 9, 3, 1]cpu", "",
       "[1, 1], [1, 1], [1, 1], False, [0, 0], 1"},
      // ViT's patch embedding: stride = kernel, with a bias.
      {"patches", "f32[2, 3, 16, 16][768, 256, 16, 1]cpu", "f32[10, 3, 4, 4][48, 16, 4, 1]cpu",
       "f32[10][1]cpu", "[4, 4], [0, 0], [1, 1], False, [0, 0], 1"},
      // Stride 2, asymmetric padding and dilation, channels-last input, a bias.
      {"strided", "f32[3, 4, 11, 10][440, 1, 40, 4]cpu", "f32[7, 4, 3, 2][24, 6, 2, 1]cpu",
       "f32[7][1]cpu", "[2, 1], [1, 2], [2, 1], False, [0, 0], 1"},
      // MobileNet's pointwise 1x1, 130 output channels (two tiles of rows): a product per
      // image (weight @ planes), no patches.
      {"1x1", "f32[2, 24, 6, 6][864, 36, 6, 1]cpu", "f32[130, 24, 1, 1][24, 1, 1, 1]cpu", "",
       "[1, 1], [0, 0], [1, 1], False, [0, 0], 1"},
      // The same channels-last: planes are not dense, so patches after all.
      {"1x1 channels-last", "f32[2, 24, 6, 6][864, 1, 144, 24]cpu",
       "f32[130, 24, 1, 1][24, 1, 1, 1]cpu", "", "[1, 1], [0, 0], [1, 1], False, [0, 0], 1"},
  };
  for (const Case &c : cases)
    for (const char *tile : {"128x64x8_8x4", "32x32x8_4x4"}) {
      SCOPED_TRACE(std::string(c.what) + " " + tile);
      OpenCLStats s = expectAgrees(convGraph(c.x, c.w, c.b, c.rest), {}, templateWith(tile));
      EXPECT_EQ(s.gemmTemplateCalls, 1);
      EXPECT_EQ(s.deviceExterns + s.hostExterns, 0);
    }
}

// ---- where a run's time goes ----

TEST(OpenCLGemmTemplate, ProfilingSplitsExternTimeByWhatRanIt) {
  REQUIRE_OPENCL_DEVICE();
  REQUIRE_BLAS();
  Compiled c;
  std::vector<RuntimeValue> inputs;
  ASSERT_TRUE(compileWithInputs(mmGraph(40, 30, 20, false, true), c, inputs));
  TempDir cache;
  for (GemmPolicy policy : {GemmPolicy::Template, GemmPolicy::Library}) {
    OpenCLOptions options = templateWith(policy == GemmPolicy::Template ? "32x32x8_4x4" : "");
    options.gemm = policy;
    options.profile = true;
    options.cacheDir = cache.path.string();
    auto program = OpenCLProgram::load(*openclContext(), c.program, c.fused, c.plan, options);
    ASSERT_TRUE(program);
    for (int run = 0; run < 2; ++run)
      ASSERT_TRUE((*program)->run(inputs));
    // One entry per run, all of it on the route that ran the product.
    const auto &byRun = (*program)->stats().externSecondsByRun;
    ASSERT_EQ(byRun.size(), 2u);
    for (const OpenCLStats::ExternSeconds &r : byRun) {
      double mine = policy == GemmPolicy::Template ? r.gemmTemplate : r.blas;
      double other = policy == GemmPolicy::Template ? r.blas : r.gemmTemplate;
      EXPECT_GT(mine, 0);
      EXPECT_EQ(other, 0);
      EXPECT_EQ(r.deviceKernels, 0);
    }
  }
}
