/// The hand-written device kernels of extern ops (backends/opencl/runtime/DeviceExterns.h) on
/// the default OpenCL device (PoCL's CPU device where there is no GPU), each against the
/// reference interpreter: attention with and without masks, causal, scale, transposed views,
/// float16/bfloat16/float64, padded logsumexp, and its GPU form (lanes per row); attention
/// backward after the forward, with the same variations and a broadcast bias's gradient; sort and
/// topk with ties, NaN, signed zeros, both directions, integer keys, strided inputs; grouped,
/// depthwise, 1-D, 3-D, transposed and channels-last convolutions with bias, stride, padding
/// and dilation; matrix products in half and bfloat16. Every case asserts that the device
/// kernel ran (the stats count it, no host extern call) and that a case a kernel does not take
/// falls back to the host.

#include "DeviceExternsTestSupport.h"
#include "backends/interp/Interpreter.h"
#include "backends/opencl/runtime/DeviceExternList.h"
#include "backends/opencl/runtime/OpenCLProgram.h"
#include "importers/FxTextParser.h"
#include "ir/ops/OpRegistry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>

using namespace fxkit;
using namespace fxkit::opencl;
using namespace fxkit::testing;

using namespace fxkit::testing::device_tests;

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// ---- Attention ----

/// q, k, v as permuted views of (B, L, H, E) inputs, as Hugging Face models make them.
std::string flashGraph(const std::string &dtype, const std::string &maskDecl,
                       const std::string &kwargs, int64_t m = 37, int64_t n = 29, int64_t e = 20) {
  auto blhe = [&](int64_t l, int64_t d) {
    return dtype + "[2, " + std::to_string(l) + ", 3, " + std::to_string(d) + "][" +
           std::to_string(l * 3 * d) + ", " + std::to_string(3 * d) + ", " + std::to_string(d) +
           ", 1]cpu";
  };
  return "graph():\n"
         "    %x : Tensor \"" +
         blhe(m, e) +
         "\"[num_users=1] = placeholder[target=x]\n"
         "    %y : Tensor \"" +
         blhe(n, e) +
         "\"[num_users=1] = placeholder[target=y]\n"
         "    %z : Tensor \"" +
         blhe(n, e + 3) + "\"[num_users=1] = placeholder[target=z]\n" + maskDecl +
         "    %q : [num_users=1] = call_function[target=torch.ops.aten.permute.default](args = "
         "(%x, [0, 2, 1, 3]), kwargs = {})\n"
         "    %k : [num_users=1] = call_function[target=torch.ops.aten.permute.default](args = "
         "(%y, [0, 2, 1, 3]), kwargs = {})\n"
         "    %v : [num_users=1] = call_function[target=torch.ops.aten.permute.default](args = "
         "(%z, [0, 2, 1, 3]), kwargs = {})\n"
         "    %r : [num_users=2] = "
         "call_function[target=torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default]("
         "args = (%q, %k, %v), kwargs = {" +
         kwargs +
         "})\n"
         "    %o : [num_users=1] = call_function[target=operator.getitem](args = (%r, 0), kwargs = "
         "{})\n"
         "    %l : [num_users=1] = call_function[target=operator.getitem](args = (%r, 1), kwargs = "
         "{})\n"
         "    return (o, l)\n";
}

/// flashGraph's attention (causal or not) with a bool mask of `maskSizes` (37 queries x 29 keys
/// last), its seeded inputs with the mask scrambled and query row 4 fully masked in every
/// leading index (zeros and a logsumexp of -inf), checked on the device.
void expectBoolMaskAgrees(const std::vector<int64_t> &maskSizes, bool causal,
                          const OpenCLOptions &options) {
  std::string shape = "b8[";
  std::vector<int64_t> strides(maskSizes.size(), 1);
  for (size_t d = maskSizes.size() - 1; d > 0; --d)
    strides[d - 1] = strides[d] * maskSizes[d];
  for (size_t d = 0; d < maskSizes.size(); ++d)
    shape += (d ? ", " : "") + std::to_string(maskSizes[d]);
  shape += "][";
  for (size_t d = 0; d < strides.size(); ++d)
    shape += (d ? ", " : "") + std::to_string(strides[d]);
  std::string mask = "    %m : Tensor \"" + shape + "]cpu\"[num_users=1] = placeholder[target=m]\n";
  std::string text =
      flashGraph("f32", mask, causal ? "attn_mask: %m, is_causal: True" : "attn_mask: %m");
  auto graph = parseFxText(text, "<test>");
  ASSERT_TRUE(graph);
  auto inputs = makeRandomInputs(*graph, {}, 5);
  ASSERT_TRUE(inputs);
  Tensor m = scrambled(maskSizes, {1.0, 1.0, 0.0}, DType::Bool);
  const int64_t lead = m.numel() / (37 * 29);
  for (int64_t r = 0; r < lead; ++r)
    for (int64_t j = 0; j < 29; ++j) {
      std::vector<int64_t> at(maskSizes.size(), 0);
      for (int64_t d = static_cast<int64_t>(maskSizes.size()) - 3, rest = r; d >= 0; --d) {
        at[d] = rest % maskSizes[d];
        rest /= maskSizes[d];
      }
      at[at.size() - 2] = 4;
      at.back() = j;
      m.setDouble(at, 0.0);
    }
  (*inputs)[3] = RuntimeValue{m};
  EXPECT_ON_DEVICE(expectAgrees(text, *inputs, options), 1);
}

TEST(DeviceExterns, AttentionOnTransposedViewsWithTheDefaultScale) {
  REQUIRE_OPENCL_DEVICE();
  EXPECT_ON_DEVICE(expectAgrees(flashGraph("f32", "", "")), 1);
}

TEST(DeviceExterns, AttentionWithABroadcastFloatMaskAndAScale) {
  REQUIRE_OPENCL_DEVICE();
  std::string mask = "    %m : Tensor \"f32[2, 1, 37, 29][1073, 1073, 29, 1]cpu\"[num_users=1] = "
                     "placeholder[target=m]\n";
  EXPECT_ON_DEVICE(expectAgrees(flashGraph("f32", mask, "attn_mask: %m, scale: 0.3")), 1);
  // A mask of the last two dimensions only, and -inf entries.
  std::string mask2 =
      "    %m : Tensor \"f32[37, 29][29, 1]cpu\"[num_users=1] = placeholder[target=m]\n";
  auto graph = parseFxText(flashGraph("f32", mask2, "attn_mask: %m"), "<test>");
  ASSERT_TRUE(graph);
  auto inputs = makeRandomInputs(*graph, {}, 3);
  ASSERT_TRUE(inputs);
  (*inputs)[3] = RuntimeValue{scrambled({37, 29}, {0.0, -1.5, -kInf, 0.25, 2.0})};
  EXPECT_ON_DEVICE(expectAgrees(flashGraph("f32", mask2, "attn_mask: %m"), *inputs), 1);
}

TEST(DeviceExterns, AttentionWithABoolMaskCausalAndFullyMaskedRows) {
  REQUIRE_OPENCL_DEVICE();
  // Row 4 keeps nothing: zeros and a logsumexp of -inf; row 0 keeps only key 0 if allowed.
  expectBoolMaskAgrees({37, 29}, true, {});
}

TEST(DeviceExterns, CausalAttentionWithMoreOrFewerKeysThanQueries) {
  REQUIRE_OPENCL_DEVICE();
  EXPECT_ON_DEVICE(expectAgrees(flashGraph("f32", "", "is_causal: True", 5, 9, 8)), 1);
  EXPECT_ON_DEVICE(expectAgrees(flashGraph("f32", "", "is_causal: True", 9, 4, 8)), 1);
}

TEST(DeviceExterns, AttentionInFloat16BFloat16AndFloat64) {
  REQUIRE_OPENCL_DEVICE();
  EXPECT_ON_DEVICE(expectAgrees(flashGraph("f16", "", "scale: 0.2")), 1);
  EXPECT_ON_DEVICE(expectAgrees(flashGraph("bf16", "", "is_causal: True")), 1);
  OpenCLStats s = expectAgrees(flashGraph("f64", "", ""));
  // float64 needs cl_khr_fp64; without it the host computes it.
  EXPECT_EQ(s.deviceExterns + s.hostExterns, 1);
  if (openclContext()->device().hasFp64)
    EXPECT_ON_DEVICE(s, 1);
}

std::string efficientGraph(bool computeLse, const std::string &bias) {
  return "graph():\n"
         "    %q : Tensor \"f32[2, 3, 37, 16][1776, 592, 16, 1]cpu\"[num_users=1] = "
         "placeholder[target=q]\n"
         "    %k : Tensor \"f32[2, 3, 21, 16][1008, 336, 16, 1]cpu\"[num_users=1] = "
         "placeholder[target=k]\n"
         "    %v : Tensor \"f32[2, 3, 21, 16][1008, 336, 16, 1]cpu\"[num_users=1] = "
         "placeholder[target=v]\n"
         "    %b : Tensor \"f32[1, 3, 37, 21][2331, 777, 21, 1]cpu\"[num_users=1] = "
         "placeholder[target=b]\n"
         "    %r : [num_users=4] = "
         "call_function[target=torch.ops.aten._scaled_dot_product_efficient_attention.default]("
         "args = (%q, %k, %v, " +
         bias + ", " + (computeLse ? "True" : "False") +
         "), kwargs = {})\n"
         "    %o : [num_users=1] = call_function[target=operator.getitem](args = (%r, 0), kwargs = "
         "{})\n"
         "    %l : [num_users=1] = call_function[target=operator.getitem](args = (%r, 1), kwargs = "
         "{})\n"
         "    %s : [num_users=1] = call_function[target=operator.getitem](args = (%r, 2), kwargs = "
         "{})\n"
         "    %f : [num_users=1] = call_function[target=operator.getitem](args = (%r, 3), kwargs = "
         "{})\n"
         "    return (o, l, s, f)\n";
}

TEST(DeviceExterns, EfficientAttentionWithABiasAndAPaddedLogsumexp) {
  REQUIRE_OPENCL_DEVICE();
  // The logsumexp has 64 rows for 37 queries: the padding is +inf.
  EXPECT_ON_DEVICE(expectAgrees(efficientGraph(true, "%b")), 1);
  EXPECT_ON_DEVICE(expectAgrees(efficientGraph(false, "None")), 1);
}

TEST(DeviceExterns, AttentionInItsGpuFormsTiledAndWithLanesPerRow) {
  REQUIRE_OPENCL_DEVICE();
  OpenCLOptions options;
  options.gpuExternForms = true;
  options.tune = false;
  std::string mask = "    %m : Tensor \"f32[2, 1, 37, 29][1073, 1073, 29, 1]cpu\"[num_users=1] = "
                     "placeholder[target=m]\n";
  // Heads up to 64 wide take the tiled kernel (fx_attention_tiled32 for E 20 / Ev 23): a
  // work-group of 32 query rows over tiles of 32 keys, so the 37 queries leave a partial
  // group, causal rows stop inside a tile, and the padded logsumexp rows (64 for 37 queries)
  // sit in the second group; a bool mask with a fully masked row (row 4).
  options.forceConfig = "lanes=4,rows=8";
  // The tiled kernel itself ran: a device where it fails falls back to lanes with a note.
  ::testing::internal::CaptureStderr();
  EXPECT_ON_DEVICE(
      expectAgrees(flashGraph("f32", mask, "attn_mask: %m, is_causal: True"), {}, options), 1);
  EXPECT_EQ(::testing::internal::GetCapturedStderr().find("tiled attention kernel failed"),
            std::string::npos);
  EXPECT_ON_DEVICE(expectAgrees(efficientGraph(true, "%b"), {}, options), 1);
  expectBoolMaskAgrees({2, 1, 37, 29}, false, options);
  // The tiled kernel in half (the float variant) and in double (its double4 form).
  EXPECT_ON_DEVICE(expectAgrees(flashGraph("f16", "", "is_causal: True"), {}, options), 1);
  if (openclContext()->device().hasFp64) {
    std::string mask64 = mask;
    mask64.replace(mask64.find("f32"), 3, "f64");
    EXPECT_ON_DEVICE(expectAgrees(flashGraph("f64", mask64, "attn_mask: %m"), {}, options), 1);
  }
  // A work-group of one row (every tile loaded by one work-item), and the 64-wide kernel with
  // more keys than one tile holds twice over (E 40 / Ev 43, 9 queries, 70 keys, causal).
  options.forceConfig = "lanes=1,rows=1";
  EXPECT_ON_DEVICE(expectAgrees(flashGraph("f32", "", "is_causal: True", 9, 70, 40), {}, options),
                   1);
  // Heads wider than 64 (E 70 / Ev 73) take lanes per row (after the 128-wide tensor-core kernel
  // on NVIDIA GPUs, where they return at once): the lanes split the 29 keys unevenly; rows past
  // the end of a work-group store nothing.
  options.forceConfig = "lanes=4,rows=8";
  EXPECT_ON_DEVICE(expectAgrees(flashGraph("f32", "", "is_causal: True", 37, 29, 70), {}, options),
                   1);
}

TEST(DeviceExterns, TiledAttentionLeavesOutKeysAnAddedMaskSetsToMinusInfinity) {
  REQUIRE_OPENCL_DEVICE();
  OpenCLOptions options;
  options.gpuExternForms = true;
  options.tune = false;
  options.forceConfig = "lanes=4,rows=8";
  // Causality as an added float mask (0 or -inf, as Hugging Face models pass it), batch 1's
  // query row 4 fully masked: the tiled kernel leaves out the products of the masked keys where
  // the keys' largest magnitude bounds them (fx_attention_bounds).
  const std::string mask = "    %m : Tensor \"f32[2, 1, 37, 29][1073, 1073, 29, 1]cpu\""
                           "[num_users=1] = placeholder[target=m]\n";
  const std::string text = flashGraph("f32", mask, "attn_mask: %m");
  auto graph = parseFxText(text, "<test>");
  ASSERT_TRUE(graph);
  auto seeded = makeRandomInputs(*graph, {}, 11);
  ASSERT_TRUE(seeded);
  Tensor m = *(*seeded)[3].tensor();
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t i = 0; i < 37; ++i)
      for (int64_t j = 0; j < 29; ++j)
        m.setDouble(std::vector<int64_t>{b, 0, i, j}, j > i || (b == 1 && i == 4) ? -kInf : 0.0);
  (*seeded)[3] = RuntimeValue{m};
  auto with = [&](const std::function<void(Tensor & y, Tensor & z)> &edit) {
    std::vector<RuntimeValue> inputs = *seeded;
    Tensor y = layoutPreservingCopy(*inputs[1].tensor()),
           z = layoutPreservingCopy(*inputs[2].tensor());
    edit(y, z);
    inputs[1] = RuntimeValue{y};
    inputs[2] = RuntimeValue{z};
    return inputs;
  };
  ::testing::internal::CaptureStderr();
  EXPECT_ON_DEVICE(expectAgrees(text, *seeded, options), 1);
  // A NaN in key 20 of (batch 0, head 1): every row's score for it is NaN, also where the mask
  // adds -inf (rows before 20), so no product may be left out there: the whole head is NaN.
  EXPECT_ON_DEVICE(expectAgrees(text, with([](Tensor &y, Tensor &) {
                                  y.setDouble(std::vector<int64_t>{0, 20, 1, 3}, kNan);
                                }),
                                options),
                   1);
  // An infinity in the values of key 25 of (batch 1, head 0): a masked key's weight of 0 times
  // it is NaN, as in PyTorch, so no masked key's values may be left out there.
  EXPECT_ON_DEVICE(expectAgrees(text, with([](Tensor &, Tensor &z) {
                                  z.setDouble(std::vector<int64_t>{1, 25, 0, 7}, kInf);
                                }),
                                options),
                   1);
  // A key large enough that the bound (E x the largest magnitudes x the scale) passes 2^126
  // though no product overflows: every product is computed.
  EXPECT_ON_DEVICE(expectAgrees(text, with([](Tensor &y, Tensor &) {
                                  y.setDouble(std::vector<int64_t>{1, 3, 2, 0}, 1e37);
                                }),
                                options),
                   1);
  EXPECT_EQ(::testing::internal::GetCapturedStderr().find("tiled attention kernel failed"),
            std::string::npos);
}

/// Attention with causality as masks whose blocks of 16 rows by 16 keys keep no key, add 0 to
/// every score or neither, and as is_causal, checked on the device with `options`.
void expectMaskBlocksAgree(const OpenCLOptions &options) {
  // 70 queries and keys: on NVIDIA GPUs the tensor-core kernel, whose mask
  // flags per block of 16 rows by 16 keys (fx_attention_mask_tiles) leave out the blocks above
  // the diagonal, read no mask below it and read it on the diagonal; rows 64-69 leave a
  // partial block, keys 64-69 a partial tile. Elsewhere the tiled kernel computes it alike.
  // Causality as a mask: an added float one (0 or -inf) of [2, 1, 70, 70], or a bool one of
  // [70, 70]; batch 1's row 40 keeps nothing (zeros and a logsumexp of -inf).
  auto causalMask = [](bool boolean) {
    const std::vector<int64_t> sizes =
        boolean ? std::vector<int64_t>{70, 70} : std::vector<int64_t>{2, 1, 70, 70};
    Tensor m = scrambled(sizes, {0.0}, boolean ? DType::Bool : DType::Float32);
    for (int64_t b = 0; b < (boolean ? 1 : 2); ++b)
      for (int64_t i = 0; i < 70; ++i)
        for (int64_t j = 0; j < 70; ++j) {
          const bool keep = j <= i && !(b == 1 && i == 40);
          m.setDouble(boolean ? std::vector<int64_t>{i, j} : std::vector<int64_t>{b, 0, i, j},
                      boolean ? (keep ? 1.0 : 0.0) : (keep ? 0.0 : -kInf));
        }
    return m;
  };
  ::testing::internal::CaptureStderr();
  // Heads of 40 / 43 and of 100 / 103 (the 64- and 128-wide kernels, whose forms differ).
  for (int64_t e : {40, 100}) {
    for (bool boolean : {false, true}) {
      const std::string decl =
          boolean ? "b8[70, 70][70, 1]" : "f32[2, 1, 70, 70][4900, 4900, 70, 1]";
      const std::string text = flashGraph(
          "f32", "    %m : Tensor \"" + decl + "cpu\"[num_users=1] = placeholder[target=m]\n",
          "attn_mask: %m", 70, 70, e);
      auto graph = parseFxText(text, "<test>");
      ASSERT_TRUE(graph);
      auto inputs = makeRandomInputs(*graph, {}, 13);
      ASSERT_TRUE(inputs);
      (*inputs)[3] = RuntimeValue{causalMask(boolean)};
      EXPECT_ON_DEVICE(expectAgrees(text, *inputs, options), 1);
    }
    // The same causality as is_causal, without a mask.
    EXPECT_ON_DEVICE(expectAgrees(flashGraph("f32", "", "is_causal: True", 70, 70, e), {}, options),
                     1);
  }
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(err.find("attention kernel failed"), std::string::npos) << err;
}

TEST(DeviceExterns, AttentionLeavesOutMaskBlocksThatKeepNoKey) {
  REQUIRE_OPENCL_DEVICE();
  OpenCLOptions options;
  options.gpuExternForms = true;
  options.tune = false;
  options.forceConfig = "lanes=4,rows=8";
  expectMaskBlocksAgree(options);
}

TEST(DeviceExterns, AttentionOnEmulatedTensorCores) {
  REQUIRE_OPENCL_DEVICE();
  // The tensor-core kernel (DeviceAttentionMma.h) with its products and shuffles emulated, on any
  // device: its fragment layouts, the mask flags, causality, partial blocks and the
  // logsumexp's padding rows. FXKIT_ATTENTION_MMA=only launches no tiled kernel after it, so
  // every output below is its own.
  OpenCLOptions options;
  options.gpuExternForms = true;
  options.tune = false;
  options.attentionTensorCoreEmulation = true;
  {
    ScopedEnv alone("FXKIT_ATTENTION_MMA", "only");
    std::string mask = "    %m : Tensor \"f32[2, 1, 37, 29][1073, 1073, 29, 1]cpu\"[num_users=1] = "
                       "placeholder[target=m]\n";
    // Heads of 20 / 23 (the 32-wide kernel), a scrambled float mask with -inf entries.
    EXPECT_ON_DEVICE(
        expectAgrees(flashGraph("f32", mask, "attn_mask: %m, scale: 0.3"), {}, options), 1);
    // 64 logsumexp rows for 37 queries (the padding is +inf), a bias.
    EXPECT_ON_DEVICE(expectAgrees(efficientGraph(true, "%b"), {}, options), 1);
    expectMaskBlocksAgree(options);
    // Heads of 100 / 103: the 128-wide kernel (tiles of 16 keys), causal with more keys than
    // queries, and with the scrambled mask.
    EXPECT_ON_DEVICE(
        expectAgrees(flashGraph("f32", "", "is_causal: True", 37, 50, 100), {}, options), 1);
    EXPECT_ON_DEVICE(
        expectAgrees(flashGraph("f32", mask, "attn_mask: %m", 37, 29, 100), {}, options), 1);
    // Q and K with their heads' elements a row apart (no 64-bit loads), V a slice from element 1
    // of rows of 24 (contiguous but not 8-byte aligned): the tile copies' other paths.
    const std::string strided =
        "graph():\n"
        "    %x : Tensor \"f32[2, 3, 37, 20][2220, 740, 1, 37]cpu\"[num_users=1] = "
        "placeholder[target=x]\n"
        "    %y : Tensor \"f32[2, 3, 29, 20][1740, 580, 1, 29]cpu\"[num_users=1] = "
        "placeholder[target=y]\n"
        "    %z : Tensor \"f32[2, 29, 3, 24][2088, 72, 24, 1]cpu\"[num_users=1] = "
        "placeholder[target=z]\n"
        "    %s : [num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%z, 3, "
        "1, 24), kwargs = {})\n"
        "    %v : [num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%s, "
        "[0, 2, 1, 3]), kwargs = {})\n"
        "    %r : [num_users=1] = "
        "call_function[target=torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default]("
        "args = (%x, %y, %v), kwargs = {})\n"
        "    %o : [num_users=1] = call_function[target=operator.getitem](args = (%r, 0), kwargs = "
        "{})\n"
        "    return (o,)\n";
    EXPECT_ON_DEVICE(expectAgrees(strided, {}, options), 1);
  }
  // Values the split gets wrong: the kernel declines and the tiled kernel after it computes (a
  // NaN key makes its scores NaN, also where the mask adds -inf).
  const std::string mask = "    %m : Tensor \"f32[2, 1, 37, 29][1073, 1073, 29, 1]cpu\""
                           "[num_users=1] = placeholder[target=m]\n";
  const std::string text = flashGraph("f32", mask, "attn_mask: %m");
  auto graph = parseFxText(text, "<test>");
  ASSERT_TRUE(graph);
  auto inputs = makeRandomInputs(*graph, {}, 11);
  ASSERT_TRUE(inputs);
  Tensor y = layoutPreservingCopy(*(*inputs)[1].tensor());
  y.setDouble(std::vector<int64_t>{0, 20, 1, 3}, kNan);
  (*inputs)[1] = RuntimeValue{y};
  EXPECT_ON_DEVICE(expectAgrees(text, *inputs, options), 1);
}

/// Which GEMM template choices a cache folder holds: one entry once a product ran through the
/// template and timed its tiles.
int gemmChoiceEntries(const std::filesystem::path &cache) {
  int entries = 0;
  if (std::filesystem::exists(cache))
    for (const auto &e : std::filesystem::directory_iterator(cache))
      entries += e.path().filename().string().starts_with("fx_gemm_choices") ? 1 : 0;
  return entries;
}

TEST(DeviceExterns, AttentionFormsAreTimedOnceAndTheChoiceCached) {
  REQUIRE_OPENCL_DEVICE();
  // With tuning on, the first call of a shape times each form of its head dimension's
  // tensor-core kernel (here the emulation's two for heads of 100: 32 keys with Q in registers,
  // 16 keys with Q in local memory) and caches the fastest with the kernels; a new context
  // with the same cache takes the choice without timing. Calls the kernel declines are not
  // timed.
  OpenCLOptions options;
  options.gpuExternForms = true;
  options.tune = true;
  options.attentionTensorCoreEmulation = true;
  // (Not expectAgrees' own temporary cache, which each call empties.)
  TempDir scratch;
  const std::filesystem::path cache = scratch.path.string() + "-forms";
  std::filesystem::remove_all(cache);
  options.cacheDir = cache.string();
  ScopedEnv log("FXKIT_TUNE_LOG", "1");
  const std::string text = flashGraph("f32", "", "is_causal: True", 37, 50, 100);
  auto graph = parseFxText(text, "<test>");
  ASSERT_TRUE(graph);
  auto inputs = makeRandomInputs(*graph, {}, 5);
  ASSERT_TRUE(inputs);
  {
    // A NaN key: the kernel declines the call (the float32 kernel after it computes it), so no
    // form is timed and nothing is cached for the shape.
    std::vector<RuntimeValue> nan = *inputs;
    Tensor y = layoutPreservingCopy(*nan[1].tensor());
    y.setDouble(std::vector<int64_t>{1, 7, 2, 9}, kNan);
    nan[1] = RuntimeValue{y};
    ::testing::internal::CaptureStderr();
    EXPECT_ON_DEVICE(expectAgrees(text, nan, options), 1);
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(err.find("fxkit: attention "), std::string::npos) << err;
  }
  ScopedEnv alone("FXKIT_ATTENTION_MMA", "only");
  for (int run = 0; run < 2; ++run) {
    auto ctx = OpenCLContext::create((*openclContext()).device());
    ASSERT_TRUE(ctx) << ctx.error().message;
    ::testing::internal::CaptureStderr();
    EXPECT_ON_DEVICE(expectAgrees(text, *inputs, options, ctx->get()), 1);
    const std::string err = ::testing::internal::GetCapturedStderr();
    for (const char *form : {"fx_attention_mma128_w1k32re", "fx_attention_mma128_w1k16e"})
      EXPECT_EQ(err.find(std::string(" ") + form + ": ") != std::string::npos, run == 0)
          << "run " << run << ": " << err;
  }
  std::filesystem::remove_all(cache);
}

TEST(DeviceExterns, AttentionThroughTheGemmTemplate) {
  REQUIRE_OPENCL_DEVICE();
  // Asked for, and where the GEMM template computes (GPUs by default, forced here), float32
  // attention is S = scale * Q K^T into scratch, the mask, causality and softmax over each row of S
  // in place, then P V: the products time their tiles, so the choices entry in the cache says they
  // ran.
  TempDir root;
  std::filesystem::path cache = root.path.string() + "-attention-choices";
  OpenCLOptions options;
  options.gemm = GemmPolicy::Template;
  options.attention = AttentionRoute::Gemm;
  options.cacheDir = cache.string();
  // q, k, v are permuted views (batch and head strides differ: a run of heads per batch
  // index); a broadcast float mask with a scale.
  std::string mask = "    %m : Tensor \"f32[2, 1, 37, 29][1073, 1073, 29, 1]cpu\"[num_users=1] = "
                     "placeholder[target=m]\n";
  EXPECT_ON_DEVICE(expectAgrees(flashGraph("f32", mask, "attn_mask: %m, scale: 0.3"), {}, options),
                   1);
  EXPECT_EQ(gemmChoiceEntries(cache), 1);
  // A bool mask with causality and a fully masked row (row 4: zeros, logsumexp -inf).
  expectBoolMaskAgrees({37, 29}, true, options);
  // Causal with more or fewer keys than queries; rows of 300 keys (several per work-item).
  EXPECT_ON_DEVICE(expectAgrees(flashGraph("f32", "", "is_causal: True", 5, 9, 8), {}, options), 1);
  EXPECT_ON_DEVICE(expectAgrees(flashGraph("f32", "", "is_causal: True", 9, 4, 8), {}, options), 1);
  EXPECT_ON_DEVICE(expectAgrees(flashGraph("f32", "", "", 7, 300, 8), {}, options), 1);
  // Contiguous operands (one batch of every (batch, head) pair), a bias and a logsumexp padded
  // to 64 rows (+inf past the 37 queries); without the logsumexp.
  EXPECT_ON_DEVICE(expectAgrees(efficientGraph(true, "%b"), {}, options), 1);
  EXPECT_ON_DEVICE(expectAgrees(efficientGraph(false, "None"), {}, options), 1);
  // A scratch of two heads' scores: each batch index's three heads in two rounds.
  {
    OpenCLOptions small = options;
    small.attentionScratchElements = 2 * 37 * 21;
    EXPECT_ON_DEVICE(expectAgrees(efficientGraph(true, "%b"), {}, small), 1);
  }
  // Keys and values shared by the heads (an expand: head stride 0, as grouped-query attention
  // makes them).
  std::string shared =
      "graph():\n"
      "    %q : Tensor \"f32[2, 4, 11, 8][352, 88, 8, 1]cpu\"[num_users=1] = "
      "placeholder[target=q]\n"
      "    %k0 : Tensor \"f32[2, 1, 13, 8][104, 104, 8, 1]cpu\"[num_users=1] = "
      "placeholder[target=k0]\n"
      "    %v0 : Tensor \"f32[2, 1, 13, 8][104, 104, 8, 1]cpu\"[num_users=1] = "
      "placeholder[target=v0]\n"
      "    %k : [num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%k0, "
      "[2, 4, 13, 8]), kwargs = {})\n"
      "    %v : [num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%v0, "
      "[2, 4, 13, 8]), kwargs = {})\n"
      "    %r : [num_users=1] = "
      "call_function[target=torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default]("
      "args = (%q, %k, %v), kwargs = {is_causal: True})\n"
      "    %o : [num_users=1] = call_function[target=operator.getitem](args = (%r, 0), kwargs = "
      "{})\n"
      "    return (o,)\n";
  EXPECT_ON_DEVICE(expectAgrees(shared, {}, options), 1);
  std::filesystem::remove_all(cache);
}

TEST(DeviceExterns, AttentionWithDropoutStaysOffTheDevice) {
  REQUIRE_OPENCL_DEVICE();
  // The reference kernels refuse dropout; the device kernel must not take it either.
  std::string text = flashGraph("f32", "", "");
  text.replace(text.find("(%q, %k, %v)"), 12, "(%q, %k, %v, 0.1)");
  auto graph = parseFxText(text, "<test>");
  ASSERT_TRUE(graph);
  auto inputs = makeRandomInputs(*graph, {}, 1);
  ASSERT_TRUE(inputs);
  Compiled c;
  ASSERT_TRUE(compile(graph.take(), c));
  TempDir cache;
  OpenCLOptions options;
  options.cacheDir = cache.path.string();
  auto program = OpenCLProgram::load(*openclContext(), c.program, c.fused, c.plan, options);
  ASSERT_TRUE(program);
  auto result = (*program)->run(*inputs);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("dropout_p"), std::string::npos) << result.error().str();
  EXPECT_EQ((*program)->stats().deviceExterns, 0);
}

// ---- Attention backward ----

/// `%out = in[i]` as FX prints it.
std::string getitem(const std::string &out, const std::string &in, int i) {
  return "    %" + out + " : [num_users=1] = call_function[target=operator.getitem](args = (%" +
         in + ", " + std::to_string(i) + "), kwargs = {})\n";
}

/// The forward of flashGraph, then its backward from a transposed grad_out (a (B, M, H, Ev)
/// input permuted), returning grad_q, grad_k and grad_v (in the (B, L, H, D) layouts inference
/// chose). `mask` is "" or "%m" (declared by maskDecl).
std::string flashBackwardGraph(const std::string &dtype, const std::string &maskDecl,
                               const std::string &mask, bool causal, const std::string &scale,
                               int64_t m = 37, int64_t n = 29, int64_t e = 20) {
  auto blhe = [&](int64_t l, int64_t d) {
    return dtype + "[2, " + std::to_string(l) + ", 3, " + std::to_string(d) + "][" +
           std::to_string(l * 3 * d) + ", " + std::to_string(3 * d) + ", " + std::to_string(d) +
           ", 1]cpu";
  };
  auto permute = [](const std::string &out, const std::string &in) {
    return "    %" + out +
           " : [num_users=2] = call_function[target=torch.ops.aten.permute.default]" +
           "(args = (%" + in + ", [0, 2, 1, 3]), kwargs = {})\n";
  };
  std::string kwargs = mask.empty() ? "" : "attn_mask: " + mask;
  if (!scale.empty())
    kwargs += (kwargs.empty() ? "" : ", ") + std::string("scale: ") + scale;
  std::string fwKwargs = kwargs;
  if (causal)
    fwKwargs += (fwKwargs.empty() ? "" : ", ") + std::string("is_causal: True");
  return "graph():\n"
         "    %x : Tensor \"" +
         blhe(m, e) + "\"[num_users=1] = placeholder[target=x]\n    %y : Tensor \"" + blhe(n, e) +
         "\"[num_users=1] = placeholder[target=y]\n    %z : Tensor \"" + blhe(n, e + 3) +
         "\"[num_users=1] = placeholder[target=z]\n    %w : Tensor \"" + blhe(m, e + 3) +
         "\"[num_users=1] = placeholder[target=w]\n" + maskDecl + permute("q", "x") +
         permute("k", "y") + permute("v", "z") + permute("g", "w") +
         "    %r : [num_users=2] = "
         "call_function[target=torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default]("
         "args = (%q, %k, %v), kwargs = {" +
         fwKwargs + "})\n" + getitem("o", "r", 0) + getitem("l", "r", 1) +
         "    %b : [num_users=3] = call_function[target=torch.ops.aten._scaled_dot_product_flash_"
         "attention_for_cpu_backward.default](args = (%g, %q, %k, %v, %o, %l, 0.0, " +
         (causal ? "True" : "False") + "), kwargs = {" + kwargs + "})\n" + getitem("dq", "b", 0) +
         getitem("dk", "b", 1) + getitem("dv", "b", 2) + "    return (dq, dk, dv)\n";
}

TEST(DeviceExterns, AttentionBackwardOnTransposedViewsWithTheDefaultScale) {
  REQUIRE_OPENCL_DEVICE();
  // The forward and the backward both run on the device.
  EXPECT_ON_DEVICE(expectAgrees(flashBackwardGraph("f32", "", "", false, "")), 2);
}

TEST(DeviceExterns, AttentionBackwardWithABroadcastFloatMaskAndAScale) {
  REQUIRE_OPENCL_DEVICE();
  std::string mask = "    %m : Tensor \"f32[2, 1, 37, 29][1073, 1073, 29, 1]cpu\"[num_users=2] = "
                     "placeholder[target=m]\n";
  EXPECT_ON_DEVICE(expectAgrees(flashBackwardGraph("f32", mask, "%m", false, "0.3")), 2);
  // A mask of the last two dimensions only, with -inf entries.
  std::string mask2 =
      "    %m : Tensor \"f32[37, 29][29, 1]cpu\"[num_users=2] = placeholder[target=m]\n";
  std::string text = flashBackwardGraph("f32", mask2, "%m", false, "");
  auto graph = parseFxText(text, "<test>");
  ASSERT_TRUE(graph);
  auto inputs = makeRandomInputs(*graph, {}, 3);
  ASSERT_TRUE(inputs);
  (*inputs)[4] = RuntimeValue{scrambled({37, 29}, {0.0, -1.5, -kInf, 0.25, 2.0})};
  EXPECT_ON_DEVICE(expectAgrees(text, *inputs), 2);
}

TEST(DeviceExterns, AttentionBackwardWithABoolMaskCausalAndFullyMaskedRows) {
  REQUIRE_OPENCL_DEVICE();
  std::string mask =
      "    %m : Tensor \"b8[37, 29][29, 1]cpu\"[num_users=2] = placeholder[target=m]\n";
  std::string text = flashBackwardGraph("f32", mask, "%m", true, "");
  auto graph = parseFxText(text, "<test>");
  ASSERT_TRUE(graph);
  auto inputs = makeRandomInputs(*graph, {}, 5);
  ASSERT_TRUE(inputs);
  // Row 4 keeps nothing: its logsumexp is -inf and it contributes no gradient.
  Tensor m = scrambled({37, 29}, {1.0, 1.0, 0.0}, DType::Bool);
  for (int64_t j = 0; j < 29; ++j)
    m.setDouble(std::vector<int64_t>{4, j}, 0.0);
  (*inputs)[4] = RuntimeValue{m};
  EXPECT_ON_DEVICE(expectAgrees(text, *inputs), 2);
}

TEST(DeviceExterns, CausalAttentionBackwardWithMoreOrFewerKeysThanQueries) {
  REQUIRE_OPENCL_DEVICE();
  EXPECT_ON_DEVICE(expectAgrees(flashBackwardGraph("f32", "", "", true, "", 5, 9, 8)), 2);
  EXPECT_ON_DEVICE(expectAgrees(flashBackwardGraph("f32", "", "", true, "0.5", 9, 4, 8)), 2);
}

TEST(DeviceExterns, AttentionBackwardInFloat16BFloat16AndFloat64) {
  REQUIRE_OPENCL_DEVICE();
  EXPECT_ON_DEVICE(expectAgrees(flashBackwardGraph("f16", "", "", false, "0.2", 13, 11, 8)), 2);
  EXPECT_ON_DEVICE(expectAgrees(flashBackwardGraph("bf16", "", "", true, "", 13, 11, 8)), 2);
  OpenCLStats s = expectAgrees(flashBackwardGraph("f64", "", "", true, ""));
  // float64 needs cl_khr_fp64; without it the host computes both.
  EXPECT_EQ(s.deviceExterns + s.hostExterns, 2);
  if (openclContext()->device().hasFp64)
    EXPECT_ON_DEVICE(s, 2);
}

/// efficientGraph's forward (a bias of type `bias` given) and its backward, with attn_bias's
/// gradient or not.
std::string
efficientBackwardGraph(bool biasGrad,
                       const std::string &bias = "f32[1, 3, 37, 21][2331, 777, 21, 1]cpu") {
  return "graph():\n"
         "    %q : Tensor \"f32[2, 3, 37, 16][1776, 592, 16, 1]cpu\"[num_users=2] = "
         "placeholder[target=q]\n"
         "    %k : Tensor \"f32[2, 3, 21, 16][1008, 336, 16, 1]cpu\"[num_users=2] = "
         "placeholder[target=k]\n"
         "    %v : Tensor \"f32[2, 3, 21, 16][1008, 336, 16, 1]cpu\"[num_users=2] = "
         "placeholder[target=v]\n"
         "    %b : Tensor \"" +
         bias +
         "\"[num_users=2] = placeholder[target=b]\n"
         "    %g : Tensor \"f32[2, 3, 37, 16][1776, 592, 16, 1]cpu\"[num_users=1] = "
         "placeholder[target=g]\n"
         "    %r : [num_users=4] = "
         "call_function[target=torch.ops.aten._scaled_dot_product_efficient_attention.default]("
         "args = (%q, %k, %v, %b, True), kwargs = {is_causal: True, scale: 0.4})\n" +
         getitem("o", "r", 0) + getitem("l", "r", 1) + getitem("s", "r", 2) + getitem("f", "r", 3) +
         "    %w : [num_users=4] = call_function[target=torch.ops.aten._scaled_dot_product_"
         "efficient_attention_backward.default](args = (%g, %q, %k, %v, %b, %o, %l, %s, %f, 0.0, "
         "[True, True, True, " +
         (biasGrad ? "True" : "False") + "]), kwargs = {is_causal: True, scale: 0.4})\n" +
         getitem("dq", "w", 0) + getitem("dk", "w", 1) + getitem("dv", "w", 2) +
         (biasGrad ? getitem("db", "w", 3) + "    return (dq, dk, dv, db)\n"
                   : "    return (dq, dk, dv)\n");
}

TEST(DeviceExterns, EfficientAttentionBackwardFromAPaddedLogsumexp) {
  REQUIRE_OPENCL_DEVICE();
  // The logsumexp has 64 rows for 37 queries (+inf padding); no bias gradient asked for.
  EXPECT_ON_DEVICE(expectAgrees(efficientBackwardGraph(false)), 2);
  // The bias gradient: dS summed over the batch the bias broadcasts, then over batch and heads.
  EXPECT_ON_DEVICE(expectAgrees(efficientBackwardGraph(true)), 2);
  EXPECT_ON_DEVICE(expectAgrees(efficientBackwardGraph(true, "f32[37, 21][21, 1]cpu")), 2);
}

TEST(DeviceExterns, AttentionBackwardWithDropoutStaysOffTheDevice) {
  REQUIRE_OPENCL_DEVICE();
  // The reference kernels refuse dropout: the forward runs on the device, then the backward
  // is declined and the host reports it.
  std::string text = flashBackwardGraph("f32", "", "", false, "");
  text.replace(text.find("%l, 0.0, False"), 14, "%l, 0.1, False");
  auto graph = parseFxText(text, "<test>");
  ASSERT_TRUE(graph);
  auto inputs = makeRandomInputs(*graph, {}, 1);
  ASSERT_TRUE(inputs);
  Compiled c;
  ASSERT_TRUE(compile(graph.take(), c));
  TempDir cache;
  OpenCLOptions options;
  options.cacheDir = cache.path.string();
  auto program = OpenCLProgram::load(*openclContext(), c.program, c.fused, c.plan, options);
  ASSERT_TRUE(program);
  auto result = (*program)->run(*inputs);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("dropout_p"), std::string::npos) << result.error().str();
  EXPECT_EQ((*program)->stats().deviceExterns, 1);
}

// ---- sort, topk ----

std::string sortGraph(const std::string &type, const std::string &call) {
  return "graph():\n    %x : Tensor \"" + type +
         "\"[num_users=1] = placeholder[target=x]\n"
         "    %r : [num_users=2] = call_function[target=" +
         call +
         ")\n"
         "    %v : [num_users=1] = call_function[target=operator.getitem](args = (%r, 0), kwargs = "
         "{})\n"
         "    %i : [num_users=1] = call_function[target=operator.getitem](args = (%r, 1), kwargs = "
         "{})\n"
         "    return (v, i)\n";
}

const std::vector<double> kAwkward = {1.0, -2.0, 0.0, -0.0, kNan, 3.5, kInf, -kInf, 1.0, 1.0, -2.0};

TEST(DeviceExterns, SortWithTiesNanAndSignedZerosBothWays) {
  REQUIRE_OPENCL_DEVICE();
  for (const char *desc : {"False", "True"}) {
    SCOPED_TRACE(desc);
    std::string text = sortGraph("f32[5, 37][37, 1]cpu",
                                 std::string("torch.ops.aten.sort.default](args = (%x, -1, ") +
                                     desc + "), kwargs = {}");
    EXPECT_ON_DEVICE(expectAgrees(text, {RuntimeValue{scrambled({5, 37}, kAwkward)}}), 1);
  }
  // Powers of two and a single element.
  for (int64_t n : {1, 2, 64}) {
    std::string t = "f32[3, " + std::to_string(n) + "][" + std::to_string(n) + ", 1]cpu";
    EXPECT_ON_DEVICE(
        expectAgrees(sortGraph(t, "torch.ops.aten.sort.default](args = (%x,), kwargs = {}"),
                     {RuntimeValue{scrambled({3, n}, kAwkward)}}),
        1);
  }
}

TEST(DeviceExterns, StableSortAlongAStridedDimension) {
  REQUIRE_OPENCL_DEVICE();
  // dim 1 of a (6, 19, 4) tensor: rows are strided by 4, and the outer dims are not adjacent.
  std::string text =
      sortGraph("f32[6, 19, 4][76, 4, 1]cpu",
                "torch.ops.aten.sort.stable](args = (%x,), kwargs = {stable: True, dim: 1, "
                "descending: True}");
  EXPECT_ON_DEVICE(expectAgrees(text, {RuntimeValue{scrambled({6, 19, 4}, kAwkward)}}), 1);
  // A transposed input: the sorted dim has the large stride.
  std::string transposed =
      "graph():\n"
      "    %x : Tensor \"f32[23, 7][7, 1]cpu\"[num_users=1] = placeholder[target=x]\n"
      "    %t : [num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%x, "
      "[1, 0]), kwargs = {})\n"
      "    %r : [num_users=2] = call_function[target=torch.ops.aten.sort.default](args = (%t, 1), "
      "kwargs = {})\n"
      "    %v : [num_users=1] = call_function[target=operator.getitem](args = (%r, 0), kwargs = "
      "{})\n"
      "    %i : [num_users=1] = call_function[target=operator.getitem](args = (%r, 1), kwargs = "
      "{})\n"
      "    return (v, i)\n";
  EXPECT_ON_DEVICE(expectAgrees(transposed, {RuntimeValue{scrambled({23, 7}, kAwkward)}}), 1);
}

TEST(DeviceExterns, SortOfIntegersBoolsAndHalves) {
  REQUIRE_OPENCL_DEVICE();
  EXPECT_ON_DEVICE(
      expectAgrees(sortGraph("i64[4, 33][33, 1]cpu",
                             "torch.ops.aten.sort.default](args = (%x, 1, True), kwargs = {}"),
                   {RuntimeValue{scrambled({4, 33}, {3, -7, 0, 3, 9e15, -1}, DType::Int64)}}),
      1);
  EXPECT_ON_DEVICE(expectAgrees(sortGraph("b8[2, 17][17, 1]cpu",
                                          "torch.ops.aten.sort.default](args = (%x,), kwargs = {}"),
                                {RuntimeValue{scrambled({2, 17}, {0, 1, 1}, DType::Bool)}}),
                   1);
  EXPECT_ON_DEVICE(expectAgrees(sortGraph("f16[3, 40][40, 1]cpu",
                                          "torch.ops.aten.sort.default](args = (%x, -1, True), "
                                          "kwargs = {}"),
                                {RuntimeValue{scrambled({3, 40}, kAwkward, DType::Float16)}}),
                   1);
}

TEST(DeviceExterns, LongRowsMergeOverSeveralPasses) {
  REQUIRE_OPENCL_DEVICE();
  // 150 = 4 blocks of 32 and a partial one: three merge passes; topk keeps the first k of every
  // run, k below and above the block size.
  std::string type = "f32[3, 150][150, 1]cpu";
  Tensor x = scrambled({3, 150}, kAwkward);
  for (const char *call : {"torch.ops.aten.sort.default](args = (%x, 1), kwargs = {}",
                           "torch.ops.aten.sort.default](args = (%x, 1, True), kwargs = {}",
                           "torch.ops.aten.topk.default](args = (%x, 5), kwargs = {}",
                           "torch.ops.aten.topk.default](args = (%x, 40, 1, False), kwargs = {}",
                           "torch.ops.aten.topk.default](args = (%x, 150), kwargs = {}"}) {
    SCOPED_TRACE(call);
    EXPECT_ON_DEVICE(expectAgrees(sortGraph(type, call), {RuntimeValue{x}}), 1);
  }
  // Distinct ascending keys: the k largest are all in the second run of every merge, the k
  // smallest all in the first.
  Tensor ramp = scrambled({2, 1000}, {0.0});
  for (int64_t i = 0; i < 1000; ++i)
    for (int64_t r = 0; r < 2; ++r)
      ramp.setDouble(std::vector<int64_t>{r, i}, static_cast<double>(i) - 0.5 * r);
  for (const char *call : {"torch.ops.aten.topk.default](args = (%x, 40), kwargs = {}",
                           "torch.ops.aten.topk.default](args = (%x, 40, 1, False), kwargs = {}"}) {
    SCOPED_TRACE(call);
    EXPECT_ON_DEVICE(
        expectAgrees(sortGraph("f32[2, 1000][1000, 1]cpu", call), {RuntimeValue{ramp}}), 1);
  }
}

TEST(DeviceExterns, TopkLargestAndSmallestWithTiesAndNan) {
  REQUIRE_OPENCL_DEVICE();
  for (const char *call :
       {"torch.ops.aten.topk.default](args = (%x, 5, 1), kwargs = {}",
        "torch.ops.aten.topk.default](args = (%x, 3, 1, False), kwargs = {}",
        "torch.ops.aten.topk.default](args = (%x, 1, -1, True, False), kwargs = {}",
        "torch.ops.aten.topk.default](args = (%x, 21, 1), kwargs = {}"}) {
    SCOPED_TRACE(call);
    EXPECT_ON_DEVICE(expectAgrees(sortGraph("f32[3, 21, 5][105, 5, 1]cpu", call),
                                  {RuntimeValue{scrambled({3, 21, 5}, kAwkward)}}),
                     1);
  }
}

// ---- convolution ----

TEST(DeviceExterns, DepthwiseAndGroupedConvolutions) {
  REQUIRE_OPENCL_DEVICE();
  // MobileNetV2's depthwise 3x3, stride 2, padding 1; with a bias and dilation 2.
  EXPECT_ON_DEVICE(
      expectAgrees(convGraph("f32[2, 6, 11, 9][594, 99, 9, 1]cpu", "f32[6, 1, 3, 3][9, 9, 3, 1]cpu",
                             "", "[2, 2], [1, 1], [1, 1], False, [0, 0], 6")),
      1);
  EXPECT_ON_DEVICE(
      expectAgrees(convGraph("f32[2, 6, 11, 9][594, 99, 9, 1]cpu", "f32[6, 1, 3, 3][9, 9, 3, 1]cpu",
                             "f32[6][1]cpu", "[1, 2], [2, 0], [2, 1], False, [0, 0], 6")),
      1);
  // Two groups of 4 -> 3 channels, 1-D, with a bias.
  EXPECT_ON_DEVICE(
      expectAgrees(convGraph("f32[3, 8, 20][160, 20, 1]cpu", "f32[6, 4, 5][20, 5, 1]cpu",
                             "f32[6][1]cpu", "[3], [2], [1], False, [0], 2")),
      1);
}

TEST(DeviceExterns, ThreeDTransposedAndChannelsLastConvolutions) {
  REQUIRE_OPENCL_DEVICE();
  EXPECT_ON_DEVICE(expectAgrees(convGraph("f32[1, 4, 5, 6, 7][840, 210, 42, 7, 1]cpu",
                                          "f32[2, 2, 2, 3, 2][24, 12, 6, 2, 1]cpu", "f32[2][1]cpu",
                                          "[1, 2, 1], [1, 0, 1], [1, 1, 2], False, [0, 0, 0], 2")),
                   1);
  // Transposed, grouped, stride 2, padding 1, output padding 1: weight (in, out / groups, k).
  EXPECT_ON_DEVICE(
      expectAgrees(convGraph("f32[2, 4, 5, 6][120, 30, 6, 1]cpu", "f32[4, 3, 3, 3][27, 9, 3, 1]cpu",
                             "f32[6][1]cpu", "[2, 2], [1, 1], [1, 1], True, [1, 1], 2")),
      1);
  // Channels-last input in float16.
  EXPECT_ON_DEVICE(
      expectAgrees(convGraph("f16[2, 4, 7, 7][196, 1, 28, 4]cpu", "f16[8, 2, 3, 3][18, 9, 3, 1]cpu",
                             "f16[8][1]cpu", "[1, 1], [1, 1], [1, 1], False, [0, 0], 2")),
      1);
}

TEST(DeviceExterns, ConvolutionsCLBlastTakesRunOnTheDeviceKernelWithoutIt) {
  REQUIRE_OPENCL_DEVICE();
  OpenCLOptions options;
  options.useBlas = false;
  OpenCLStats s =
      expectAgrees(convGraph("f32[2, 3, 9, 9][243, 81, 9, 1]cpu", "f32[5, 3, 3, 3][27, 9, 3, 1]cpu",
                             "", "[1, 1], [0, 0], [1, 1], False, [0, 0], 1"),
                   {}, options);
  EXPECT_ON_DEVICE(s, 1);
  EXPECT_EQ(s.blasCalls, 0);
}

// ---- matrix products ----

TEST(DeviceExterns, MatrixProductsInHalfAndBFloat16) {
  REQUIRE_OPENCL_DEVICE();
  std::string addmm =
      "graph():\n"
      "    %b : Tensor \"bf16[24][1]cpu\"[num_users=1] = placeholder[target=b]\n"
      "    %x : Tensor \"bf16[13, 40][40, 1]cpu\"[num_users=1] = placeholder[target=x]\n"
      "    %w : Tensor \"bf16[24, 40][40, 1]cpu\"[num_users=1] = placeholder[target=w]\n"
      "    %t : [num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%w, "
      "[1, 0]), kwargs = {})\n"
      "    %r : [num_users=1] = call_function[target=torch.ops.aten.addmm.default](args = (%b, %x, "
      "%t), kwargs = {beta: 0.5, alpha: 2.0})\n"
      "    return (r,)\n";
  EXPECT_ON_DEVICE(expectAgrees(addmm), 1);
  std::string bmm =
      "graph():\n"
      "    %x : Tensor \"f16[3, 9, 17][153, 17, 1]cpu\"[num_users=1] = placeholder[target=x]\n"
      "    %y : Tensor \"f16[3, 11, 17][187, 17, 1]cpu\"[num_users=1] = placeholder[target=y]\n"
      "    %t : [num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%y, "
      "[0, 2, 1]), kwargs = {})\n"
      "    %r : [num_users=1] = call_function[target=torch.ops.aten.bmm.default](args = (%x, %t), "
      "kwargs = {})\n"
      "    return (r,)\n";
  EXPECT_ON_DEVICE(expectAgrees(bmm), 1);
}

TEST(DeviceExterns, BaddbmmWithABroadcastSelf) {
  REQUIRE_OPENCL_DEVICE();
  std::string text =
      "graph():\n"
      "    %s : Tensor \"f32[1, 11][11, 1]cpu\"[num_users=1] = placeholder[target=s]\n"
      "    %x : Tensor \"f32[3, 9, 17][153, 17, 1]cpu\"[num_users=1] = placeholder[target=x]\n"
      "    %y : Tensor \"f32[3, 17, 11][187, 11, 1]cpu\"[num_users=1] = placeholder[target=y]\n"
      "    %r : [num_users=1] = call_function[target=torch.ops.aten.baddbmm.default](args = (%s, "
      "%x, %y), kwargs = {beta: 2.0, alpha: 0.5})\n"
      "    return (r,)\n";
  EXPECT_ON_DEVICE(expectAgrees(text), 1);
}

TEST(DeviceExterns, OutFormsOfMatrixProducts) {
  REQUIRE_OPENCL_DEVICE();
  std::string mm = "graph():\n"
                   "    %x : Tensor \"f16[7, 33][33, 1]cpu\"[num_users=1] = placeholder[target=x]\n"
                   "    %y : Tensor \"f16[33, 5][5, 1]cpu\"[num_users=1] = placeholder[target=y]\n"
                   "    %o : Tensor \"f16[7, 5][5, 1]cpu\"[num_users=1] = placeholder[target=o]\n"
                   "    %r : [num_users=1] = call_function[target=torch.ops.aten.mm.out](args = "
                   "(%x, %y), kwargs = {out: %o})\n"
                   "    return (r,)\n";
  EXPECT_ON_DEVICE(expectAgrees(mm), 1);
  std::string baddbmm =
      "graph():\n"
      "    %s : Tensor \"bf16[3, 9, 11][99, 11, 1]cpu\"[num_users=1] = placeholder[target=s]\n"
      "    %x : Tensor \"bf16[3, 9, 17][153, 17, 1]cpu\"[num_users=1] = placeholder[target=x]\n"
      "    %y : Tensor \"bf16[3, 17, 11][187, 11, 1]cpu\"[num_users=1] = placeholder[target=y]\n"
      "    %o : Tensor \"bf16[3, 9, 11][99, 11, 1]cpu\"[num_users=1] = placeholder[target=o]\n"
      "    %r : [num_users=1] = call_function[target=torch.ops.aten.baddbmm.out](args = (%s, %x, "
      "%y), kwargs = {beta: 0.5, out: %o})\n"
      "    return (r,)\n";
  EXPECT_ON_DEVICE(expectAgrees(baddbmm), 1);
}

/// addmm with beta 0 and NaN in self agrees with the interpreter under `options`: self is not
/// read, so its NaN does not propagate.
void expectBetaZeroIgnoresSelf(const OpenCLOptions &options) {
  std::string addmm =
      "graph():\n"
      "    %b : Tensor \"f32[7, 5][5, 1]cpu\"[num_users=1] = placeholder[target=b]\n"
      "    %x : Tensor \"f32[7, 33][33, 1]cpu\"[num_users=1] = placeholder[target=x]\n"
      "    %y : Tensor \"f32[33, 5][5, 1]cpu\"[num_users=1] = placeholder[target=y]\n"
      "    %r : [num_users=1] = call_function[target=torch.ops.aten.addmm.default](args = (%b, %x, "
      "%y), kwargs = {beta: 0})\n"
      "    return (r,)\n";
  auto graph = parseFxText(addmm, "<test>");
  ASSERT_TRUE(graph);
  auto inputs = makeRandomInputs(*graph, {}, 2);
  ASSERT_TRUE(inputs);
  (*inputs)[0] = RuntimeValue{scrambled({7, 5}, {kNan, 1.0})};
  EXPECT_ON_DEVICE(expectAgrees(addmm, *inputs, options), 1);
}

TEST(DeviceExterns, Float32ProductsWithoutCLBlastAndABetaOfZero) {
  REQUIRE_OPENCL_DEVICE();
  OpenCLOptions options;
  options.useBlas = false;
  std::string mm = "graph():\n"
                   "    %x : Tensor \"f32[7, 33][33, 1]cpu\"[num_users=1] = placeholder[target=x]\n"
                   "    %y : Tensor \"f32[33, 5][5, 1]cpu\"[num_users=1] = placeholder[target=y]\n"
                   "    %r : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args "
                   "= (%x, %y), kwargs = {})\n"
                   "    return (r,)\n";
  EXPECT_ON_DEVICE(expectAgrees(mm, {}, options), 1);
  // beta = 0: NaN in self does not propagate.
  expectBetaZeroIgnoresSelf(options);
}

TEST(DeviceExterns, Float32ProductsThroughTheGemmTemplateWithoutCLBlast) {
  REQUIRE_OPENCL_DEVICE();
  // Without CLBlast (a build without it, or useBlas off), float32 products take the GEMM
  // template where it computes (GPUs; forced here): self is copied into the output and joins
  // as beta * C. The choices entry in the cache says the template ran.
  TempDir root;
  std::filesystem::path cache = root.path.string() + "-matmul-choices";
  OpenCLOptions options;
  options.useBlas = false;
  options.gemm = GemmPolicy::Template;
  options.cacheDir = cache.string();
  // A graph of the placeholders `decls` and one call of `op` with `args` and `kwargs`.
  auto product = [](const std::string &decls, const std::string &op, const std::string &args,
                    const std::string &kwargs = "") {
    return "graph():\n" + decls + "    %r : [num_users=1] = call_function[target=torch.ops.aten." +
           op + "](args = (" + args + "), kwargs = {" + kwargs + "})\n    return (r,)\n";
  };
  auto input = [](const std::string &name, const std::string &type) {
    return "    %" + name + " : Tensor \"" + type + "\"[num_users=1] = placeholder[target=" + name +
           "]\n";
  };
  // mm with the second operand transposed (a unit stride in its rows).
  EXPECT_ON_DEVICE(
      expectAgrees(product(input("x", "f32[7, 33][33, 1]cpu") + input("y", "f32[33, 5][1, 33]cpu"),
                           "mm.default", "%x, %y"),
                   {}, options),
      1);
  EXPECT_EQ(gemmChoiceEntries(cache), 1);
  // addmm with a bias row, alpha and beta; with a full bias; bmm; baddbmm with a broadcast self.
  EXPECT_ON_DEVICE(
      expectAgrees(product(input("b", "f32[5][1]cpu") + input("x", "f32[7, 33][33, 1]cpu") +
                               input("y", "f32[33, 5][5, 1]cpu"),
                           "addmm.default", "%b, %x, %y", "beta: 0.5, alpha: 2.0"),
                   {}, options),
      1);
  EXPECT_ON_DEVICE(
      expectAgrees(product(input("b", "f32[7, 5][5, 1]cpu") + input("x", "f32[7, 33][33, 1]cpu") +
                               input("y", "f32[33, 5][5, 1]cpu"),
                           "addmm.default", "%b, %x, %y"),
                   {}, options),
      1);
  EXPECT_ON_DEVICE(expectAgrees(product(input("x", "f32[3, 7, 33][231, 33, 1]cpu") +
                                            input("y", "f32[3, 33, 5][165, 5, 1]cpu"),
                                        "bmm.default", "%x, %y"),
                                {}, options),
                   1);
  EXPECT_ON_DEVICE(expectAgrees(product(input("b", "f32[1, 5][5, 1]cpu") +
                                            input("x", "f32[3, 7, 33][231, 33, 1]cpu") +
                                            input("y", "f32[3, 33, 5][165, 5, 1]cpu"),
                                        "baddbmm.default", "%b, %x, %y", "beta: 0.25"),
                                {}, options),
                   1);
  // beta = 0: NaN in self does not propagate (C is not read).
  expectBetaZeroIgnoresSelf(options);
  std::filesystem::remove_all(cache);
}

// ---- the list ----

TEST(DeviceExterns, TheListNamesRegisteredExternOps) {
  for (const DeviceExternTarget &t : kDeviceExternTargets) {
    const OpInfo *info = OpRegistry::instance().lookup(t.target);
    ASSERT_NE(info, nullptr) << t.target;
    // view_as_real/view_as_complex are views, lowered as extern copies (no loop code for
    // complex tensors).
    if (t.family == DeviceExternFamily::ComplexView)
      EXPECT_EQ(info->category, OpCategory::View) << t.target;
    else
      EXPECT_EQ(info->category, OpCategory::Extern) << t.target;
    EXPECT_EQ(deviceExternFamily(t.target), t.family);
    EXPECT_EQ(deviceExternFamily(std::string_view(t.target).substr(10)), t.family);
  }
  EXPECT_FALSE(deviceExternFamily("torch.ops.aten.embedding.default"));
}

} // namespace
