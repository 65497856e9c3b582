/// The device kernels of the Core ATen extern ops that last ran on the host (issue 17) on the
/// default OpenCL device (PoCL's CPU device where there is no GPU), each against the reference
/// interpreter over its option space: convolution_backward (output_mask, groups, stride,
/// padding, dilation, transposed, 1-D to 3-D, float16/bfloat16/float64, channels-last); col2im;
/// training batch norm (the running statistics updated in place, seen by later readers and
/// the graph's outputs) and its backward in training and evaluation; embedding bags in every
/// mode, with empty bags, padding_idx, per-sample weights, include_last_offset, unsorted
/// offsets, and PyTorch's errors for bad indices and offsets; the FFTs (r2c, c2c both ways, c2r
/// of even and odd sizes, several dims, norms; direct and radix-2) and
/// view_as_real/view_as_complex; index_put_ (repeats, negative indices, accumulate, broadcast and
/// separated index tensors, the write seen by later readers, PyTorch's error for an index out of
/// range). Every case asserts that the device kernel ran (the stats count it, no host extern call).

#include "DeviceExternsTestSupport.h"

#include <gtest/gtest.h>

using namespace fxkit;
using namespace fxkit::opencl;
using namespace fxkit::testing;
using namespace fxkit::testing::device_tests;

namespace {

// ---- convolution_backward ----

/// A graph of convolution_backward on placeholders `g` (grad_output), `x` and `w` (FX tensor
/// types), with `rest` = stride, padding, dilation, transposed, output_padding, groups, returning
/// the results `mask` asks for.
std::string convBackwardGraph(const std::string &g, const std::string &x, const std::string &w,
                              const std::string &biasSizes, const std::string &rest,
                              const std::vector<bool> &mask) {
  std::string text = "graph():\n"
                     "    %g : Tensor \"" +
                     g +
                     "\"[num_users=1] = placeholder[target=g]\n"
                     "    %x : Tensor \"" +
                     x +
                     "\"[num_users=1] = placeholder[target=x]\n"
                     "    %w : Tensor \"" +
                     w + "\"[num_users=1] = placeholder[target=w]\n";
  std::string maskText, returns;
  for (size_t i = 0; i < 3; ++i) {
    maskText += std::string(i ? ", " : "") + (mask[i] ? "True" : "False");
    if (mask[i])
      returns += "r" + std::to_string(i) + ", ";
  }
  text += "    %r : [num_users=3] = "
          "call_function[target=torch.ops.aten.convolution_backward.default](args = (%g, %x, "
          "%w, " +
          biasSizes + ", " + rest + ", [" + maskText + "]), kwargs = {})\n";
  for (size_t i = 0; i < 3; ++i)
    if (mask[i])
      text += "    %r" + std::to_string(i) +
              " : [num_users=1] = call_function[target=operator.getitem](args = (%r, " +
              std::to_string(i) + "), kwargs = {})\n";
  text += "    return (" + returns + ")\n";
  return text;
}

TEST(DeviceExterns2, ConvolutionBackwardGroupedStridedAndPadded) {
  REQUIRE_OPENCL_DEVICE();
  // 2-D, two groups, stride 2, padding 1: every gradient.
  EXPECT_ON_DEVICE(expectAgrees(convBackwardGraph(
                       "f32[2, 6, 4, 3][72, 12, 3, 1]cpu", "f32[2, 4, 7, 6][168, 42, 6, 1]cpu",
                       "f32[6, 2, 3, 3][18, 9, 3, 1]cpu", "[6]",
                       "[2, 2], [1, 1], [1, 1], False, [0, 0], 2", {true, true, true})),
                   1);
  // Stride 2 that leaves the last input row unread (its grad_input is 0), dilation 2.
  EXPECT_ON_DEVICE(expectAgrees(convBackwardGraph(
                       "f32[1, 3, 3, 3][27, 9, 3, 1]cpu", "f32[1, 2, 8, 7][112, 56, 7, 1]cpu",
                       "f32[3, 2, 2, 3][12, 6, 3, 1]cpu", "[3]",
                       "[2, 1], [0, 1], [2, 3], False, [0, 0], 1", {true, true, true})),
                   1);
}

TEST(DeviceExterns2, ConvolutionBackwardDepthwise1DAnd3DWithOutputMasks) {
  REQUIRE_OPENCL_DEVICE();
  // Depthwise 1-D, dilation 2: grad_input and grad_bias only.
  EXPECT_ON_DEVICE(
      expectAgrees(convBackwardGraph("f32[3, 4, 11][44, 11, 1]cpu", "f32[3, 4, 11][44, 11, 1]cpu",
                                     "f32[4, 1, 3][3, 3, 1]cpu", "[4]",
                                     "[1], [2], [2], False, [0], 4", {true, false, true})),
      1);
  // 3-D: grad_weight only (the weight gradient of a frozen input), no bias.
  EXPECT_ON_DEVICE(
      expectAgrees(convBackwardGraph(
          "f32[1, 3, 3, 3, 4][108, 36, 12, 4, 1]cpu", "f32[1, 2, 4, 5, 3][120, 60, 15, 3, 1]cpu",
          "f32[3, 2, 2, 2, 2][16, 8, 4, 2, 1]cpu", "None",
          "[1, 2, 1], [0, 1, 1], [1, 1, 1], False, [0, 0, 0], 1", {false, true, false})),
      1);
}

TEST(DeviceExterns2, TransposedConvolutionBackward) {
  REQUIRE_OPENCL_DEVICE();
  // Grouped, stride 2, padding 1, output padding 1: weight (in, out / groups, k).
  EXPECT_ON_DEVICE(expectAgrees(convBackwardGraph(
                       "f32[2, 6, 10, 12][720, 120, 12, 1]cpu", "f32[2, 4, 5, 6][120, 30, 6, 1]cpu",
                       "f32[4, 3, 3, 3][27, 9, 3, 1]cpu", "[6]",
                       "[2, 2], [1, 1], [1, 1], True, [1, 1], 2", {true, true, true})),
                   1);
  // 1-D, dilation 2, stride 3.
  EXPECT_ON_DEVICE(
      expectAgrees(convBackwardGraph("f32[2, 2, 17][34, 17, 1]cpu", "f32[2, 3, 5][15, 5, 1]cpu",
                                     "f32[3, 2, 3][6, 3, 1]cpu", "[2]",
                                     "[3], [0], [2], True, [0], 1", {true, true, true})),
      1);
}

TEST(DeviceExterns2, ConvolutionBackwardInHalvesFloat64AndChannelsLast) {
  REQUIRE_OPENCL_DEVICE();
  const std::string rest = "[2, 2], [1, 1], [1, 1], False, [0, 0], 2";
  for (std::string dt : {"f16", "bf16", "f64"})
    EXPECT_ON_DEVICE(expectAgrees(convBackwardGraph(dt + "[2, 6, 4, 3][72, 12, 3, 1]cpu",
                                                    dt + "[2, 4, 7, 6][168, 42, 6, 1]cpu",
                                                    dt + "[6, 2, 3, 3][18, 9, 3, 1]cpu", "[6]",
                                                    rest, {true, true, true})),
                     1);
  // Channels-last grad_output and input (their results keep the inferred layouts).
  EXPECT_ON_DEVICE(expectAgrees(convBackwardGraph(
                       "f32[2, 6, 4, 3][72, 1, 18, 6]cpu", "f32[2, 4, 7, 6][168, 1, 24, 4]cpu",
                       "f32[6, 2, 3, 3][18, 1, 6, 2]cpu", "[6]", rest, {true, true, true})),
                   1);
}

// ---- col2im ----

/// col2im of placeholder `x` (through `permute` when not empty) into `outputSize`, with
/// `window` = kernel_size, dilation, padding, stride.
std::string col2imGraph(const std::string &x, const std::string &permute,
                        const std::string &outputSize, const std::string &window) {
  std::string text =
      "graph():\n    %x : Tensor \"" + x + "\"[num_users=1] = placeholder[target=x]\n";
  std::string src = "%x";
  if (!permute.empty()) {
    text += "    %p : [num_users=1] = call_function[target=torch.ops.aten.permute.default](args = "
            "(%x, " +
            permute + "), kwargs = {})\n";
    src = "%p";
  }
  return text +
         "    %r : [num_users=1] = call_function[target=torch.ops.aten.col2im.default](args "
         "= (" +
         src + ", " + outputSize + ", " + window + "), kwargs = {})\n    return (r,)\n";
}

TEST(DeviceExterns2, Col2imBatchedUnbatchedStridedAndInHalves) {
  REQUIRE_OPENCL_DEVICE();
  // C = 2, kernel 2x3, dilation (1, 2), padding (1, 0), stride (2, 1): 3x3 blocks of a 5x7 image.
  const std::string window = "[2, 3], [1, 2], [1, 0], [2, 1]";
  EXPECT_ON_DEVICE(expectAgrees(col2imGraph("f32[3, 12, 9][108, 9, 1]cpu", "", "[5, 7]", window)),
                   1);
  EXPECT_ON_DEVICE(expectAgrees(col2imGraph("f32[12, 9][9, 1]cpu", "", "[5, 7]", window)), 1);
  EXPECT_ON_DEVICE(
      expectAgrees(col2imGraph("f32[3, 9, 12][108, 12, 1]cpu", "[0, 2, 1]", "[5, 7]", window)), 1);
  for (std::string dt : {"f16", "bf16", "f64"})
    EXPECT_ON_DEVICE(
        expectAgrees(col2imGraph(dt + "[2, 12, 9][108, 9, 1]cpu", "", "[5, 7]", window)), 1);
  // Overlapping blocks (stride 1, kernel 3x3, padding 1): most pixels sum 9 entries.
  EXPECT_ON_DEVICE(expectAgrees(col2imGraph("f32[2, 27, 20][540, 20, 1]cpu", "", "[4, 5]",
                                            "[3, 3], [1, 1], [1, 1], [1, 1]")),
                   1);
}

// ---- batch norm ----

/// _native_batch_norm_legit.default in training on `x` (FX type) with per-channel parameters
/// of type `param` (weight and bias None where `affine` is false) and running statistics of
/// type `stat`: returns the result, save_mean, save_invstd, the running statistics after the
/// in-place update and a later reader of running_mean.
std::string batchNormGraph(const std::string &x, const std::string &param, const std::string &stat,
                           bool affine, const std::string &momentum = "0.1") {
  std::string text =
      "graph():\n    %x : Tensor \"" + x + "\"[num_users=1] = placeholder[target=x]\n";
  if (affine)
    text += "    %w : Tensor \"" + param +
            "\"[num_users=1] = placeholder[target=w]\n    %b : Tensor \"" + param +
            "\"[num_users=1] = placeholder[target=b]\n";
  text += "    %rm : Tensor \"" + stat +
          "\"[num_users=2] = placeholder[target=rm]\n    %rv : Tensor \"" + stat +
          "\"[num_users=2] = placeholder[target=rv]\n";
  text += "    %r : [num_users=3] = "
          "call_function[target=torch.ops.aten._native_batch_norm_legit.default](args = (%x, " +
          std::string(affine ? "%w, %b" : "None, None") + ", %rm, %rv, True, " + momentum +
          ", 1e-05), kwargs = {})\n";
  for (int i = 0; i < 3; ++i)
    text += "    %r" + std::to_string(i) +
            " : [num_users=1] = call_function[target=operator.getitem](args = (%r, " +
            std::to_string(i) + "), kwargs = {})\n";
  text += "    %y : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%rm, "
          "2.0), kwargs = {})\n    return (r0, r1, r2, rm, rv, y)\n";
  return text;
}

TEST(DeviceExterns2, TrainingBatchNormUpdatesTheRunningStatisticsInPlace) {
  REQUIRE_OPENCL_DEVICE();
  EXPECT_ON_DEVICE(expectAgrees(batchNormGraph("f32[4, 3, 5, 2][30, 10, 2, 1]cpu", "f32[3][1]cpu",
                                               "f32[3][1]cpu", true)),
                   1);
  // 1-D (N, C, L) without weight and bias, momentum 0.3; (N, C) of a linear layer.
  EXPECT_ON_DEVICE(
      expectAgrees(batchNormGraph("f32[6, 4, 7][28, 7, 1]cpu", "", "f32[4][1]cpu", false, "0.3")),
      1);
  EXPECT_ON_DEVICE(
      expectAgrees(batchNormGraph("f32[9, 5][5, 1]cpu", "f32[5][1]cpu", "f32[5][1]cpu", true)), 1);
  // One element per channel: the unbiased variance is NaN, as in eager.
  EXPECT_ON_DEVICE(
      expectAgrees(batchNormGraph("f32[1, 3][3, 1]cpu", "f32[3][1]cpu", "f32[3][1]cpu", true)), 1);
}

TEST(DeviceExterns2, TrainingBatchNormInHalvesFloat64AndChannelsLast) {
  REQUIRE_OPENCL_DEVICE();
  for (std::string dt : {"f16", "bf16", "f64"})
    EXPECT_ON_DEVICE(expectAgrees(batchNormGraph(dt + "[2, 3, 4, 5][60, 20, 5, 1]cpu",
                                                 dt + "[3][1]cpu", dt + "[3][1]cpu", true)),
                     1);
  EXPECT_ON_DEVICE(expectAgrees(batchNormGraph("f32[2, 3, 4, 5][60, 1, 15, 3]cpu", "f32[3][1]cpu",
                                               "f32[3][1]cpu", true)),
                   1);
  EXPECT_ON_DEVICE(expectAgrees(batchNormGraph("f32[2, 3, 2, 4, 5][120, 40, 20, 5, 1]cpu",
                                               "f32[3][1]cpu", "f32[3][1]cpu", true)),
                   1);
}

/// native_batch_norm_backward on grad `g` and input `x` (one FX type) with `mask`; weight
/// None where `param` is empty. Its statistics are save_mean/save_invstd in training, the
/// running ones (positive variances) otherwise.
void expectBatchNormBackward(const std::string &x, const std::string &param, bool train,
                             const std::vector<bool> &mask) {
  std::string stat = param.empty() ? x.substr(0, x.find('[')) + "[3][1]cpu" : param;
  std::string text = "graph():\n    %g : Tensor \"" + x +
                     "\"[num_users=1] = placeholder[target=g]\n    %x : Tensor \"" + x +
                     "\"[num_users=1] = placeholder[target=x]\n    %m : Tensor \"" + stat +
                     "\"[num_users=1] = placeholder[target=m]\n    %v : Tensor \"" + stat +
                     "\"[num_users=1] = placeholder[target=v]\n";
  if (!param.empty())
    text += "    %w : Tensor \"" + param + "\"[num_users=1] = placeholder[target=w]\n";
  std::string stats = train ? "None, None, %m, %v" : "%m, %v, None, None";
  std::string maskText, returns;
  for (size_t i = 0; i < 3; ++i) {
    maskText += std::string(i ? ", " : "") + (mask[i] ? "True" : "False");
    if (i == 0 || mask[i])
      returns += "r" + std::to_string(i) + ", ";
  }
  text += "    %r : [num_users=3] = "
          "call_function[target=torch.ops.aten.native_batch_norm_backward.default](args = (%g, "
          "%x, " +
          std::string(param.empty() ? "None" : "%w") + ", " + stats + ", " +
          (train ? "True" : "False") + ", 1e-05, [" + maskText + "]), kwargs = {})\n";
  for (size_t i = 0; i < 3; ++i)
    if (i == 0 || mask[i])
      text += "    %r" + std::to_string(i) +
              " : [num_users=1] = call_function[target=operator.getitem](args = (%r, " +
              std::to_string(i) + "), kwargs = {})\n";
  text += "    return (" + returns + ")\n";
  auto graph = parseFxText(text, "<test>");
  ASSERT_TRUE(graph) << (graph ? "" : graph.error().str());
  auto inputs = makeRandomInputs(*graph, {}, 5);
  ASSERT_TRUE(inputs);
  DType statType = (*inputs)[3].tensor()->dtype();
  (*inputs)[3] = RuntimeValue{scrambled({3}, {0.5, 1.25, 2.0}, statType)};
  EXPECT_ON_DEVICE(expectAgrees(text, *inputs), 1);
}

TEST(DeviceExterns2, BatchNormBackwardTrainingAndEvaluation) {
  REQUIRE_OPENCL_DEVICE();
  expectBatchNormBackward("f32[4, 3, 5, 2][30, 10, 2, 1]cpu", "f32[3][1]cpu", true,
                          {true, true, true});
  expectBatchNormBackward("f32[4, 3, 5, 2][30, 10, 2, 1]cpu", "f32[3][1]cpu", false,
                          {true, true, true});
  // No weight; grad_input only; grad_bias only; (N, C) and channels-last 5-D inputs.
  expectBatchNormBackward("f32[6, 3, 7][21, 7, 1]cpu", "", true, {true, false, false});
  expectBatchNormBackward("f32[8, 3][3, 1]cpu", "f32[3][1]cpu", true, {true, false, true});
  expectBatchNormBackward("f32[2, 3, 2, 3, 4][72, 1, 36, 12, 3]cpu", "f32[3][1]cpu", true,
                          {true, true, true});
  for (std::string dt : {"f16", "bf16", "f64"})
    expectBatchNormBackward(dt + "[2, 3, 4, 5][60, 20, 5, 1]cpu", dt + "[3][1]cpu", true,
                            {true, true, true});
}

// ---- embedding bag ----

/// _embedding_bag of a (10, 4) float weight of `dt` with `rest` = scale_grad_by_freq, mode,
/// sparse, per_sample_weights, include_last_offset, padding_idx; all four results.
std::string embeddingBagGraph(const std::string &dt, const std::string &indexType, int64_t count,
                              int64_t numOffsets, bool psw, const std::string &rest) {
  std::string text = "graph():\n    %w : Tensor \"" + dt +
                     "[10, 4][4, 1]cpu\"[num_users=1] = placeholder[target=w]\n    %i : Tensor \"" +
                     indexType + "[" + std::to_string(count) +
                     "][1]cpu\"[num_users=1] = placeholder[target=i]\n    %o : Tensor \"" +
                     indexType + "[" + std::to_string(numOffsets) +
                     "][1]cpu\"[num_users=1] = placeholder[target=o]\n";
  if (psw)
    text += "    %p : Tensor \"" + dt + "[" + std::to_string(count) +
            "][1]cpu\"[num_users=1] = placeholder[target=p]\n";
  text +=
      "    %r : [num_users=4] = call_function[target=torch.ops.aten._embedding_bag.default](args "
      "= (%w, %i, %o, " +
      rest + "), kwargs = {})\n";
  for (int k = 0; k < 4; ++k)
    text += "    %r" + std::to_string(k) +
            " : [num_users=1] = call_function[target=operator.getitem](args = (%r, " +
            std::to_string(k) + "), kwargs = {})\n";
  return text + "    return (r0, r1, r2, r3)\n";
}

/// A 1-d integer tensor of `dtype` holding `values`.
Tensor integers(DType dtype, const std::vector<int64_t> &values) {
  auto t = Tensor::zeros(dtype, {static_cast<int64_t>(values.size())});
  EXPECT_TRUE(t);
  for (size_t k = 0; k < values.size(); ++k)
    t->storeInt(static_cast<int64_t>(k), values[k]);
  return t.take();
}

/// Runs embeddingBagGraph's graph with `indices` and `offsets` (random weights and
/// per-sample weights) on the device and in the interpreter.
void expectEmbeddingBag(const std::string &dt, DType indexType, const std::vector<int64_t> &indices,
                        const std::vector<int64_t> &offsets, bool psw, const std::string &rest) {
  std::string text = embeddingBagGraph(dt, indexType == DType::Int32 ? "i32" : "i64",
                                       static_cast<int64_t>(indices.size()),
                                       static_cast<int64_t>(offsets.size()), psw, rest);
  auto graph = parseFxText(text, "<test>");
  ASSERT_TRUE(graph) << (graph ? "" : graph.error().str());
  auto inputs = makeRandomInputs(*graph, {}, 3);
  ASSERT_TRUE(inputs);
  (*inputs)[1] = RuntimeValue{integers(indexType, indices)};
  (*inputs)[2] = RuntimeValue{integers(indexType, offsets)};
  EXPECT_ON_DEVICE(expectAgrees(text, *inputs), 1);
}

TEST(DeviceExterns2, EmbeddingBagSumMeanAndMaxWithEmptyBags) {
  REQUIRE_OPENCL_DEVICE();
  // Bags [0, 3), [3, 3) (empty), [3, 7), [7, 11); repeated rows.
  const std::vector<int64_t> indices = {1, 2, 4, 5, 4, 3, 2, 9, 0, 2, 7};
  const std::vector<int64_t> offsets = {0, 3, 3, 7};
  for (const char *mode : {"0", "1", "2"})
    expectEmbeddingBag("f32", DType::Int64, indices, offsets, false,
                       std::string("False, ") + mode + ", False, None, False, -1");
  // int32 indices and offsets; padding_idx 2 (its rows count in no bag).
  for (const char *mode : {"0", "1", "2"})
    expectEmbeddingBag("f32", DType::Int32, indices, offsets, false,
                       std::string("False, ") + mode + ", False, None, False, 2");
}

TEST(DeviceExterns2, EmbeddingBagWithPerSampleWeightsLastOffsetAndHalves) {
  REQUIRE_OPENCL_DEVICE();
  const std::vector<int64_t> indices = {1, 2, 4, 5, 4, 3, 2, 9, 0, 2, 7};
  expectEmbeddingBag("f32", DType::Int64, indices, {0, 3, 3, 7}, true,
                     "False, 0, False, %p, False, -1");
  // include_last_offset: 3 bags, the indices from the last offset on belong to none.
  for (const char *mode : {"0", "1", "2"})
    expectEmbeddingBag("f32", DType::Int64, indices, {0, 2, 5, 9}, false,
                       std::string("False, ") + mode + ", False, None, True, -1");
  // Unsorted offsets: make_offset2bag's running sum, as eager.
  expectEmbeddingBag("f32", DType::Int64, indices, {0, 6, 2}, false,
                     "False, 1, False, None, False, -1");
  for (std::string dt : {"f16", "bf16", "f64"})
    for (const char *mode : {"0", "1", "2"})
      expectEmbeddingBag(dt, DType::Int64, indices, {0, 3, 3, 7}, false,
                         std::string("False, ") + mode + ", False, None, False, -1");
}

TEST(DeviceExterns2, EmbeddingBagReportsAnIndexOutOfRange) {
  REQUIRE_OPENCL_DEVICE();
  registerReferenceKernels();
  std::string text =
      embeddingBagGraph("f32", "i64", 4, 2, false, "False, 0, False, None, False, -1");
  for (auto [indices, offsets, message] :
       {std::tuple{std::vector<int64_t>{1, 2, 10, 0}, std::vector<int64_t>{0, 2},
                   "Index 2 of input takes value 10 which is not in the valid range [0, 10)"},
        std::tuple{std::vector<int64_t>{1, 2, 3, 0}, std::vector<int64_t>{1, 2},
                   "offsets[0] has to be 0"},
        std::tuple{std::vector<int64_t>{1, 2, 3, 0}, std::vector<int64_t>{0, 5},
                   "offsets[1] = 5 is out of range for input's length 4"}}) {
    auto graph = parseFxText(text, "<test>");
    ASSERT_TRUE(graph);
    auto inputs = makeRandomInputs(*graph, {}, 3);
    ASSERT_TRUE(inputs);
    (*inputs)[1] = RuntimeValue{integers(DType::Int64, indices)};
    (*inputs)[2] = RuntimeValue{integers(DType::Int64, offsets)};
    Compiled c;
    ASSERT_TRUE(compile(graph.take(), c));
    TempDir cache;
    OpenCLOptions options;
    options.cacheDir = cache.path.string();
    auto program = OpenCLProgram::load(*openclContext(), c.program, c.fused, c.plan, options);
    ASSERT_TRUE(program) << (program ? "" : program.error().str());
    auto result = (*program)->run(*inputs);
    ASSERT_FALSE(result);
    EXPECT_NE(result.error().message.find(message), std::string::npos) << result.error().message;
  }
}

// ---- FFT ----

/// A graph of `body` (FX lines after the placeholder %x of type `x`) returning %r.
std::string fftGraph(const std::string &x, const std::string &body) {
  return "graph():\n    %x : Tensor \"" + x + "\"[num_users=1] = placeholder[target=x]\n" + body +
         "    return (r,)\n";
}

std::string call(const std::string &name, const std::string &target, const std::string &args) {
  return "    %" + name + " : [num_users=1] = call_function[target=torch.ops.aten." + target +
         "](args = (" + args + "), kwargs = {})\n";
}

TEST(DeviceExterns2, RealToComplexFftAndViewAsReal) {
  REQUIRE_OPENCL_DEVICE();
  for (std::string dt : {"f32", "f64"}) {
    // Onesided along the last dim, backward normalization; both dims, ortho.
    EXPECT_ON_DEVICE(expectAgrees(fftGraph(dt + "[3, 8][8, 1]cpu",
                                           call("f", "_fft_r2c.default", "%x, [1], 0, True") +
                                               call("r", "view_as_real.default", "%f"))),
                     2);
    EXPECT_ON_DEVICE(expectAgrees(fftGraph(dt + "[3, 7][7, 1]cpu",
                                           call("f", "_fft_r2c.default", "%x, [0, 1], 1, True") +
                                               call("r", "view_as_real.default", "%f"))),
                     2);
  }
  // Powers of two take the radix-2 path: 64 points, and 16 x 32 over both dims.
  EXPECT_ON_DEVICE(expectAgrees(fftGraph("f64[2, 64][64, 1]cpu",
                                         call("f", "_fft_r2c.default", "%x, [1], 0, True") +
                                             call("r", "view_as_real.default", "%f"))),
                   2);
  EXPECT_ON_DEVICE(expectAgrees(fftGraph("f32[16, 32][32, 1]cpu",
                                         call("f", "_fft_r2c.default", "%x, [0, 1], 1, False") +
                                             call("r", "view_as_real.default", "%f"))),
                   2);
  // Two-sided, on a transposed view, along dim 0.
  EXPECT_ON_DEVICE(expectAgrees(fftGraph("f32[6, 5][5, 1]cpu",
                                         call("t", "permute.default", "%x, [1, 0]") +
                                             call("f", "_fft_r2c.default", "%t, [1], 2, False") +
                                             call("r", "view_as_real.default", "%f"))),
                   2);
}

TEST(DeviceExterns2, ComplexFftBothWaysAndComplexToReal) {
  REQUIRE_OPENCL_DEVICE();
  for (std::string dt : {"f32", "f64"}) {
    for (const char *forward : {"True", "False"})
      EXPECT_ON_DEVICE(expectAgrees(fftGraph(dt + "[2, 6, 5, 2][60, 10, 2, 1]cpu",
                                             call("c", "view_as_complex.default", "%x") +
                                                 call("f", "_fft_c2c.default",
                                                      std::string("%c, [1, 2], 1, ") + forward) +
                                                 call("r", "view_as_real.default", "%f"))),
                       3);
    // Even and odd last_dim_size (the imaginary parts of bins 0 and n/2 do not matter).
    for (const char *last : {"8", "9"})
      EXPECT_ON_DEVICE(expectAgrees(fftGraph(dt + "[4, 5, 2][10, 2, 1]cpu",
                                             call("c", "view_as_complex.default", "%x") +
                                                 call("r", "_fft_c2r.default",
                                                      std::string("%c, [0, 1], 2, ") + last))),
                       2);
  }
  // c2r along the first dim only, with more bins than it reads.
  EXPECT_ON_DEVICE(expectAgrees(fftGraph("f32[6, 3, 2][6, 2, 1]cpu",
                                         call("c", "view_as_complex.default", "%x") +
                                             call("r", "_fft_c2r.default", "%c, [0], 0, 6"))),
                   2);
}

// ---- index_put_ ----

/// index_put_ on placeholder %x of type `x` with `indices` (FX list text over placeholders
/// %i, %j of types `i`, `j`; empty: absent) and values %v of type `v`; returns the result,
/// self after the write and a later reader of self.
std::string indexPutGraph(const std::string &x, const std::string &i, const std::string &j,
                          const std::string &v, const std::string &indices,
                          const std::string &accumulate) {
  auto placeholder = [](const std::string &name, const std::string &type) {
    return "    %" + name + " : Tensor \"" + type + "\"[num_users=1] = placeholder[target=" + name +
           "]\n";
  };
  std::string text = "graph():\n    %x : Tensor \"" + x +
                     "\"[num_users=3] = placeholder[target=x]\n" + placeholder("i", i);
  if (!j.empty())
    text += placeholder("j", j);
  text += placeholder("v", v);
  text += call("r", "index_put_.default", "%x, " + indices + ", %v, " + accumulate);
  text += "    %y : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, "
          "2), kwargs = {})\n    return (r, x, y)\n";
  return text;
}

/// Runs indexPutGraph's graph with index tensors holding `iv` and `jv` (of `indexType`).
void expectIndexPut(const std::string &x, const std::string &i, const std::string &j,
                    const std::string &v, const std::string &indices, const std::string &accumulate,
                    const std::vector<int64_t> &iv, const std::vector<int64_t> &jv,
                    DType indexType = DType::Int64, std::vector<int64_t> iSizes = {}) {
  std::string text = indexPutGraph(x, i, j, v, indices, accumulate);
  auto graph = parseFxText(text, "<test>");
  ASSERT_TRUE(graph) << (graph ? "" : graph.error().str());
  auto inputs = makeRandomInputs(*graph, {}, 11);
  ASSERT_TRUE(inputs);
  Tensor iTensor = integers(indexType, iv);
  if (!iSizes.empty()) {
    auto shaped = iTensor.asStrided(iSizes, {iSizes.back(), 1}, 0);
    ASSERT_TRUE(shaped);
    iTensor = shaped.take();
  }
  (*inputs)[1] = RuntimeValue{iTensor};
  if (!jv.empty())
    (*inputs)[2] = RuntimeValue{integers(indexType, jv)};
  EXPECT_ON_DEVICE(expectAgrees(text, *inputs), 1);
}

TEST(DeviceExterns2, IndexPutWithRepeatsNegativeIndicesAndAccumulate) {
  REQUIRE_OPENCL_DEVICE();
  // Rows 1, 3 (twice: the last value stays), -1 (row 4).
  for (const char *acc : {"False", "True"})
    expectIndexPut("f32[5, 4][4, 1]cpu", "i64[4][1]cpu", "", "f32[4, 4][4, 1]cpu", "[%i]", acc,
                   {1, 3, 3, -1}, {});
  // Values broadcast along the indexed rows; int64 and float16 self; int32 indices.
  expectIndexPut("f32[5, 4][4, 1]cpu", "i64[3][1]cpu", "", "f32[4][1]cpu", "[%i]", "True",
                 {0, 0, 2}, {});
  expectIndexPut("i64[5, 4][4, 1]cpu", "i32[3][1]cpu", "", "i64[3, 4][4, 1]cpu", "[%i]", "True",
                 {2, 2, 4}, {}, DType::Int32);
  expectIndexPut("f16[5, 4][4, 1]cpu", "i64[3][1]cpu", "", "f16[3, 4][4, 1]cpu", "[%i]", "True",
                 {2, 2, 4}, {});
}

TEST(DeviceExterns2, IndexPutWithBroadcastAdjacentAndSeparatedIndexTensors) {
  REQUIRE_OPENCL_DEVICE();
  // Dims 1 and 2 by (2, 1) and (3,) indices: the result is (4, 2, 3); values broadcast.
  expectIndexPut("f32[4, 5, 6][30, 6, 1]cpu", "i64[2, 1][1, 1]cpu", "i64[3][1]cpu",
                 "f32[2, 3][3, 1]cpu", "[None, %i, %j]", "False", {4, 1}, {0, 5, -2}, DType::Int64,
                 {2, 1});
  // Dims 0 and 2 (None between): the replacement dims lead, the result is (3, 5).
  expectIndexPut("f32[4, 5, 6][30, 6, 1]cpu", "i64[3][1]cpu", "i64[3][1]cpu", "f32[3, 5][5, 1]cpu",
                 "[%i, None, %j]", "True", {3, 0, 3}, {1, 1, 1});
  // A transposed self.
  expectIndexPut("f32[6, 5][1, 6]cpu", "i64[2][1]cpu", "", "f32[2, 5][5, 1]cpu", "[%i]", "False",
                 {5, 0}, {});
}

TEST(DeviceExterns2, WhatTheKernelsDeclineRunsOnTheHost) {
  REQUIRE_OPENCL_DEVICE();
  // A boolean mask (data-dependent positions): index_put_ falls back to the reference kernel.
  std::string text = "graph():\n"
                     "    %x : Tensor \"f32[5, 4][4, 1]cpu\"[num_users=1] = placeholder[target=x]\n"
                     "    %m : Tensor \"b8[5][1]cpu\"[num_users=1] = placeholder[target=m]\n"
                     "    %v : Tensor \"f32[4][1]cpu\"[num_users=1] = placeholder[target=v]\n" +
                     call("r", "index_put_.default", "%x, [%m], %v, False") + "    return (r,)\n";
  OpenCLStats s = expectAgrees(text);
  EXPECT_EQ(s.deviceExterns, 0);
  EXPECT_EQ(s.hostExterns, 1);
  // A zero-size convolution_backward.
  s = expectAgrees(
      convBackwardGraph("f32[0, 6, 4, 3][72, 12, 3, 1]cpu", "f32[0, 4, 7, 6][168, 42, 6, 1]cpu",
                        "f32[6, 2, 3, 3][18, 9, 3, 1]cpu", "[6]",
                        "[2, 2], [1, 1], [1, 1], False, [0, 0], 2", {true, true, true}));
  EXPECT_EQ(s.deviceExterns, 0);
  EXPECT_EQ(s.hostExterns, 1);
}

TEST(DeviceExterns2, IndexPutReportsAnIndexOutOfRange) {
  REQUIRE_OPENCL_DEVICE();
  registerReferenceKernels();
  std::string text = indexPutGraph("f32[5, 4][4, 1]cpu", "i64[2][1]cpu", "", "f32[2, 4][4, 1]cpu",
                                   "[%i]", "False");
  auto graph = parseFxText(text, "<test>");
  ASSERT_TRUE(graph);
  auto inputs = makeRandomInputs(*graph, {}, 3);
  ASSERT_TRUE(inputs);
  (*inputs)[1] = RuntimeValue{integers(DType::Int64, {1, 7})};
  Compiled c;
  ASSERT_TRUE(compile(graph.take(), c));
  TempDir cache;
  OpenCLOptions options;
  options.cacheDir = cache.path.string();
  auto program = OpenCLProgram::load(*openclContext(), c.program, c.fused, c.plan, options);
  ASSERT_TRUE(program) << (program ? "" : program.error().str());
  auto result = (*program)->run(*inputs);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("index 7 is out of bounds for dimension 0 with size 5"),
            std::string::npos)
      << result.error().message;
}

} // namespace
