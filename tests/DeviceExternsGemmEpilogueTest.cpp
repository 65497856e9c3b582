/// Pointwise kernels run inside the GEMM template as a product's epilogue
/// (loop::FusionKind::GemmEpilogue, GemmEpilogue in GemmTemplate.h): on the OpenCL device,
/// against the reference interpreter, through both ways a float32 product reaches the template
/// (the BLAS extern's runGemm and, without CLBlast, the device matmul family), and the cases the
/// executor declines.

#include "DeviceExternsTestSupport.h"
#include "backends/opencl/runtime/BlasExtern.h"
#include "backends/opencl/runtime/GemmTemplate.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

using namespace fxkit::testing::device_tests;

namespace {

/// The template forced (the CPU device would choose CLBlast), untuned.
OpenCLOptions templateOptions(bool useBlas, bool epilogues = true) {
  OpenCLOptions options;
  options.gemm = GemmPolicy::Template;
  options.tune = false;
  options.useBlas = useBlas;
  options.gemmEpilogues = epilogues;
  return options;
}

/// Runs `check(useBlas)` with the template reached through the BLAS extern's runGemm (where
/// CLBlast is built) and through the device matmul family (useBlas off: a build without it).
template <typename Check> void onBothRoutes(const Check &check) {
  for (bool useBlas : {true, false})
    if (!useBlas || haveBlas())
      check(useBlas);
}

/// A linear layer with bias and ReLU as Inductor's post-grad graphs have it: mm, then the bias
/// add and the activation in one pointwise kernel. Sizes off the tiles' multiples.
const char *kLinearRelu = R"(graph():
    %x : Tensor "f32[37, 19][19, 1]cpu"[num_users=1] = placeholder[target=x]
    %w : Tensor "f32[19, 23][23, 1]cpu"[num_users=1] = placeholder[target=w]
    %b : Tensor "f32[23][1]cpu"[num_users=1] = placeholder[target=b]
    %mm : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm, %b), kwargs = {})
    %relu : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%add,), kwargs = {})
    return (relu,)
)";

/// A batched product read through a view, with a residual, a scale and a cast to float16, and
/// the product itself also returned (its other reader sees it stored).
const char *kBatchedResidual = R"(graph():
    %x : Tensor "f32[3, 7, 33][231, 33, 1]cpu"[num_users=1] = placeholder[target=x]
    %w : Tensor "f32[3, 33, 5][165, 5, 1]cpu"[num_users=1] = placeholder[target=w]
    %r : Tensor "f32[21, 5][5, 1]cpu"[num_users=1] = placeholder[target=r]
    %bmm : [num_users=2] = call_function[target=torch.ops.aten.bmm.default](args = (%x, %w), kwargs = {})
    %v : [num_users=1] = call_function[target=torch.ops.aten.view.default](args = (%bmm, [21, 5]), kwargs = {})
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%v, %r), kwargs = {})
    %mul : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add, 0.5), kwargs = {})
    %h : [num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul, torch.float16), kwargs = {})
    return (h, bmm)
)";

TEST(DeviceExterns, PointwiseEpiloguesRunInsideTheGemmTemplate) {
  REQUIRE_OPENCL_DEVICE();
  for (const char *text : {kLinearRelu, kBatchedResidual}) {
    onBothRoutes([&](bool useBlas) {
      OpenCLStats s = expectAgrees(text, {}, templateOptions(useBlas));
      EXPECT_EQ(s.gemmTemplateCalls + s.deviceExterns, 1) << text;
      EXPECT_EQ(s.gemmEpilogues, 1) << text;
      EXPECT_EQ(s.launches, 0) << "the epilogue kernel was launched again: " << text;
      // Off, the kernel is launched after the product, with the same results.
      OpenCLStats off = expectAgrees(text, {}, templateOptions(useBlas, false));
      EXPECT_EQ(off.gemmEpilogues, 0);
      EXPECT_EQ(off.launches, 1);
    });
  }
}

TEST(DeviceExterns, EpiloguesRunInTheFloat32LoopOfTensorCoreTiles) {
  REQUIRE_OPENCL_DEVICE();
  // A tensor-core tile's float32 loop, which computes the tiles the tensor cores' split gets
  // wrong, stores them with the same epilogue; here it computes every tile (gemmFloat32LoopOnly,
  // the tile's float32 form), so the test runs on devices without tensor cores. Then the tile
  // itself with the epilogue, its products emulated (gemmTensorCoreEmulation; the float32 form
  // after it finds no tile flagged).
  const std::string tile = gemmTiles().back().str();
  ASSERT_TRUE(gemmTiles().back().tensorCores()) << tile;
  for (bool emulated : {false, true})
    for (const char *text : {kLinearRelu, kBatchedResidual}) {
      SCOPED_TRACE(emulated ? "emulated" : "float32 loop");
      OpenCLOptions options = templateOptions(haveBlas());
      options.gemmTile = tile;
      options.gemmFloat32LoopOnly = !emulated;
      options.gemmTensorCoreEmulation = emulated;
      OpenCLStats s = expectAgrees(text, {}, options);
      EXPECT_EQ(s.gemmTemplateCalls + s.deviceExterns, 1) << text;
      EXPECT_EQ(s.gemmEpilogues, 1) << text;
      EXPECT_EQ(s.launches, 0) << "the epilogue kernel was launched again: " << text;
    }
}

/// A 3x3 convolution with a bias (the template's implicit GEMM) and a 1x1 one of dense planes (a
/// product per image), each followed by a pointwise kernel (scale, shift and ReLU, as a folded
/// batch norm leaves them), sizes off the tiles' multiples.
const char *kConvRelu = R"(graph():
    %x : Tensor "f32[2, 3, 9, 11][297, 99, 11, 1]cpu"[num_users=1] = placeholder[target=x]
    %w : Tensor "f32[5, 3, 3, 3][27, 9, 3, 1]cpu"[num_users=1] = placeholder[target=w]
    %b : Tensor "f32[5][1]cpu"[num_users=1] = placeholder[target=b]
    %conv : [num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%x, %w, %b, [1, 1], [1, 1], [1, 1], False, [0, 0], 1), kwargs = {})
    %mul : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%conv, 0.75), kwargs = {})
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul, 0.25), kwargs = {})
    %relu : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%add,), kwargs = {})
    return (relu,)
)";
const char *kPointwiseConvRelu = R"(graph():
    %x : Tensor "f32[2, 6, 7, 5][210, 35, 5, 1]cpu"[num_users=1] = placeholder[target=x]
    %w : Tensor "f32[9, 6, 1, 1][6, 1, 1, 1]cpu"[num_users=1] = placeholder[target=w]
    %conv : [num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%x, %w, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1), kwargs = {})
    %relu : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%conv,), kwargs = {})
    return (relu,)
)";

TEST(DeviceExterns, ConvolutionEpiloguesRunInsideTheGemmTemplate) {
  REQUIRE_OPENCL_DEVICE();
  if (!haveBlas())
    GTEST_SKIP() << "built without CLBlast: convolutions take the device convolution kernels";
  for (const char *text : {kConvRelu, kPointwiseConvRelu}) {
    OpenCLStats s = expectAgrees(text, {}, templateOptions(true));
    EXPECT_EQ(s.gemmTemplateCalls, 1) << text;
    EXPECT_EQ(s.gemmEpilogues, 1) << text;
    EXPECT_EQ(s.launches, 0) << "the epilogue kernel was launched again: " << text;
    OpenCLStats off = expectAgrees(text, {}, templateOptions(true, false));
    EXPECT_EQ(off.gemmEpilogues, 0);
    EXPECT_EQ(off.launches, 1);
  }
}

TEST(DeviceExterns, EpiloguesWaitForTheTemplateAndLeaveOtherProductsAlone) {
  REQUIRE_OPENCL_DEVICE();
  // addmm (the bias copied into C first, then beta * C) and a GELU after it; and a second
  // product reading the first's epilogue output: the epilogue ran before it.
  const char *text = R"(graph():
    %x : Tensor "f32[65, 40][40, 1]cpu"[num_users=1] = placeholder[target=x]
    %w : Tensor "f32[40, 70][70, 1]cpu"[num_users=1] = placeholder[target=w]
    %b : Tensor "f32[70][1]cpu"[num_users=1] = placeholder[target=b]
    %w2 : Tensor "f32[70, 9][9, 1]cpu"[num_users=1] = placeholder[target=w2]
    %addmm : [num_users=1] = call_function[target=torch.ops.aten.addmm.default](args = (%b, %x, %w), kwargs = {beta: 0.5})
    %g : [num_users=1] = call_function[target=torch.ops.aten.gelu.default](args = (%addmm,), kwargs = {})
    %mm : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%g, %w2), kwargs = {})
    %t : [num_users=1] = call_function[target=torch.ops.aten.tanh.default](args = (%mm,), kwargs = {})
    return (t,)
)";
  onBothRoutes([&](bool useBlas) {
    OpenCLStats s = expectAgrees(text, {}, templateOptions(useBlas));
    EXPECT_EQ(s.gemmEpilogues, 2);
    EXPECT_EQ(s.launches, 0);
  });
}

TEST(DeviceExterns, EpiloguesThatWouldWriteOverTheProductsOperandsRunApart) {
  REQUIRE_OPENCL_DEVICE();
  // The product's result is returned (storage of its own), so the memory plan puts the
  // epilogue's output where x was, x being dead after the product: other work-groups of the
  // template still read x, so the executor runs the kernel after the product instead.
  const char *text = R"(graph():
    %x0 : Tensor "f32[24, 24][24, 1]cpu"[num_users=1] = placeholder[target=x0]
    %w : Tensor "f32[24, 24][24, 1]cpu"[num_users=1] = placeholder[target=w]
    %x : [num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%x0,), kwargs = {})
    %mm : [num_users=2] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm, 1.0), kwargs = {})
    return (add, mm)
)";
  onBothRoutes([&](bool useBlas) {
    OpenCLStats s = expectAgrees(text, {}, templateOptions(useBlas));
    EXPECT_EQ(s.gemmEpilogues, 0);
    EXPECT_EQ(s.launches, 2); // exp, then the epilogue's kernel
  });
}

TEST(DeviceExterns, EpiloguesAreTimedAgainstTheKernelApartAndTheChoiceIsCached) {
  REQUIRE_OPENCL_DEVICE();
  // Tuned, the first call times the template with and without the epilogue on scratch buffers
  // (here the epilogue's output may take the storage of the residual it reads, a second
  // product's result: the trials must not write it), and caches the choice.
  const char *text = R"(graph():
    %x : Tensor "f32[37, 19][19, 1]cpu"[num_users=2] = placeholder[target=x]
    %w : Tensor "f32[19, 23][23, 1]cpu"[num_users=1] = placeholder[target=w]
    %w2 : Tensor "f32[19, 23][23, 1]cpu"[num_users=1] = placeholder[target=w2]
    %r : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w2), kwargs = {})
    %mm : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm, %r), kwargs = {})
    return (add,)
)";
  TempDir root;
  std::filesystem::path cache = root.path.string() + "-epilogue-choices";
  OpenCLOptions options = templateOptions(true);
  options.useBlas = haveBlas();
  options.tune = true;
  options.cacheDir = cache.string();
  OpenCLStats first = expectAgrees(text, {}, options);
  // The choice, as the cache holds it: "fused" or "apart" under the shape, tile and epilogue.
  std::string choice;
  for (const auto &e : std::filesystem::directory_iterator(cache))
    if (e.path().filename().string().starts_with("fx_gemm_choices")) {
      std::ifstream in(e.path());
      for (std::string line; std::getline(in, line);)
        if (line.find("_ep") != std::string::npos)
          choice = line.substr(line.rfind('\t') + 1);
    }
  ASSERT_TRUE(choice == "fused" || choice == "apart") << "no epilogue choice in the cache";
  EXPECT_EQ(first.gemmEpilogues, choice == "fused" ? 1 : 0);
  EXPECT_EQ(first.launches, choice == "fused" ? 0 : 1);
  // A second program finds the choice cached, with the same results.
  OpenCLStats second = expectAgrees(text, {}, options);
  EXPECT_EQ(second.gemmEpilogues, first.gemmEpilogues);
  std::filesystem::remove_all(cache);
}

TEST(DeviceExterns, EpiloguesAreDeclinedWhereTheTemplateDoesNotRunTheProduct) {
  REQUIRE_OPENCL_DEVICE();
  if (!haveBlas())
    GTEST_SKIP() << "built without CLBlast: the library route is what is declined here";
  // The library computes the product (the CPU device's default): the epilogue kernel is
  // launched after it as usual.
  OpenCLOptions library;
  library.gemm = GemmPolicy::Library;
  OpenCLStats s = expectAgrees(kLinearRelu, {}, library);
  EXPECT_EQ(s.blasCalls, 1);
  EXPECT_EQ(s.gemmEpilogues, 0);
  EXPECT_EQ(s.launches, 1);
}

} // namespace
