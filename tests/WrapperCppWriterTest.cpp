/// The C++ wrapper exporter (`--to wrapper-cpp`): golden entry point and launches for a small
/// reduction graph, symbolic sizes bound from input sizes, a product that names its epilogue
/// kernel, raw-string embedding of any text, and every corpus graph exports. Building and running
/// the exports is tests/cli/wrapper_cpp.sh's job.

#include "exporters/wrapper/WrapperCppWriter.h"
#include "importers/Import.h"
#include "transforms/Pass.h"

#include "CorpusTestSupport.h"
#include "WrapperTestGraphs.h"

#include <gtest/gtest.h>

#include <tuple>

using namespace fxkit;

namespace {

WrapperCppFiles exportFiles(std::string_view fx) {
  auto graph = importGraph(fx, GraphFormat::FxText, "test.graph.txt");
  EXPECT_TRUE(graph) << graph.error().str();
  if (!graph)
    return {};
  auto runs = runPipeline(*graph, {"lower", "fuse", "plan", "wrapper"});
  EXPECT_TRUE(runs) << runs.error().str();
  auto files = writeWrapperCpp(*graph, "sumdiv", "/opt/fxkit/fxkit-runtime.cmake");
  EXPECT_TRUE(files) << files.error().str();
  return files ? *files : WrapperCppFiles{};
}

/// From the line starting with `from` to the line before the one starting with `to`.
std::string section(const std::string &text, const std::string &from, const std::string &to) {
  size_t a = text.find("\n" + from);
  size_t b = text.find("\n" + to, a + 1);
  if (a == std::string::npos || b == std::string::npos)
    return "<missing " + from + ">";
  return text.substr(a + 1, b - a);
}

using fxkit::testgraphs::kSumDivRelu;

TEST(WrapperCpp, ReductionEntryPointGolden) {
  WrapperCppFiles f = exportFiles(kSumDivRelu);
  EXPECT_EQ(f.name, "sumdiv");
  EXPECT_NE(f.header.find("  fxkit::rt::Status run(const fxkit::rt::HostTensor &arg0_1, "
                          "std::vector<fxkit::rt::Value> *outputs);"),
            std::string::npos)
      << f.header;
  EXPECT_EQ(
      section(f.source, "Status Model::run(const fxkit::rt::HostTensor", "}"),
      R"(Status Model::run(const fxkit::rt::HostTensor &arg0_1, std::vector<fxkit::rt::Value> *outputs) {
  if (arg0_1.sizes.size() != 2)
    return Status::error("arg0_1: expected 2 dimensions");
  DeviceTensor arg0_1_d;
  FXKIT_TRY(rt_.upload(arg0_1, "arg0_1", "float32", {4, 8}, {8, 1}, 128, &arg0_1_d));
  Storage pool;
  FXKIT_TRY(rt_.allocate(128, &pool));
  Storage buf2 = sub(pool, 0, 128);
  // fused_sum_div_relu_0
  FXKIT_TRY(rt_.launch(*kernels_, 0, {KernelArg::in(arg0_1_d.storage),
                                 KernelArg::out(buf2),
                                 KernelArg::size(4),
                                 KernelArg::size(8),
                                 KernelArg::lanes(),
                                 KernelArg::rows(),
                                 KernelArg::scratch(8)},
                       4, 8));
  if (rt_.nanAsserts()) FXKIT_TRY(rt_.checkFinite(DeviceTensor{buf2, "float32", {4, 8}, {8, 1}, 0}, "buf2", "fused_sum_div_relu_0"));
  FXKIT_TRY(rt_.finish());
  outputs->clear();
  {
    fxkit::rt::HostTensor result;
    FXKIT_TRY(rt_.download(DeviceTensor{buf2, "float32", {4, 8}, {8, 1}, 0}, &result));
    outputs->push_back(fxkit::rt::Value::of(std::move(result)));
  }
  return Status::ok();
)");
  EXPECT_NE(f.cmake.find("\"/opt/fxkit/fxkit-runtime.cmake\""), std::string::npos) << f.cmake;
  EXPECT_NE(f.driver.find("new fxkit_generated::sumdiv::Model(rt)"), std::string::npos);
  // The C entry point `run --backend cpp-wrapper` looks up in the loaded object.
  EXPECT_EQ(wrapperFactorySymbol("sumdiv"), "fxkit_wrapper_create_sumdiv");
  EXPECT_NE(f.header.find("extern \"C\" fxkit::rt::Model *fxkit_wrapper_create_sumdiv("
                          "fxkit::rt::Runtime *rt);"),
            std::string::npos);
  EXPECT_NE(f.source.find("extern \"C\" fxkit::rt::Model *fxkit_wrapper_create_sumdiv("
                          "fxkit::rt::Runtime *rt) {\n  return new "
                          "fxkit_generated::sumdiv::Model(*rt);\n}\n"),
            std::string::npos)
      << f.source;
}

TEST(WrapperCpp, SymbolicSizesAreBoundFromInputs) {
  WrapperCppFiles f = exportFiles(R"(graph():
    %arg0_1 : Tensor "f32[s0, 8][8, 1]cpu"[num_users=1] = placeholder[target=arg0_1]
    %relu : Tensor "f32[s0, 8][8, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%arg0_1,), kwargs = {})
    return (relu,))");
  EXPECT_NE(f.source.find("  const int64_t s0 = arg0_1.sizes[0];\n"), std::string::npos)
      << f.source;
  EXPECT_NE(f.source.find("{s0, 8}, {8, 1}, 32*s0, &arg0_1_d"), std::string::npos) << f.source;
}

TEST(WrapperCpp, AProductNamesTheKernelFusionMadeItsEpilogue) {
  // mm then relu of its result: the product's call names the relu kernel, whose table entry
  // carries its body at one point for the GEMM template (Runtime::callExtern holds the product
  // until that launch). A product without one names none.
  WrapperCppFiles f = exportFiles(R"(graph():
    %x : Tensor "f32[8, 16][16, 1]cpu"[num_users=1] = placeholder[target=x]
    %w : Tensor "f32[16, 4][4, 1]cpu"[num_users=2] = placeholder[target=w]
    %mm : Tensor "f32[8, 4][4, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %relu : Tensor "f32[8, 4][4, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%mm,), kwargs = {})
    %t : Tensor "f32[4, 16][1, 4]cpu"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%w, [1, 0]), kwargs = {})
    %mm2 : Tensor "f32[8, 16][16, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%relu, %t), kwargs = {})
    return (mm2,))");
  const size_t epilogue = f.source.find("}, \"fused_relu_");
  ASSERT_NE(epilogue, std::string::npos) << f.source;
  const std::string kernel =
      f.source.substr(epilogue + 4, f.source.find('"', epilogue + 4) - (epilogue + 4));
  EXPECT_NE(f.source.find("const char *const kPoint_" + kernel + " = R\"FXKIT(// " + kernel +
                          " at one point: a GEMM template's epilogue"),
            std::string::npos)
      << f.source;
  EXPECT_NE(f.source.find("{\"" + kernel + "\", kSource_" + kernel + ", false, nullptr, 0, "),
            std::string::npos)
      << f.source;
  EXPECT_NE(f.source.find(", kPoint_" + kernel + ", \"__global const uchar *in_ptr0_base"),
            std::string::npos)
      << f.source;
  size_t calls = 0, named = 0;
  for (size_t at = f.source.find("rt_.callExtern("); at != std::string::npos;
       at = f.source.find("rt_.callExtern(", at + 1)) {
    ++calls;
    named +=
        f.source.substr(at, f.source.find("));", at) - at).find("\"fused_") != std::string::npos;
  }
  EXPECT_EQ(calls, 2u);
  EXPECT_EQ(named, 1u);
}

TEST(WrapperCpp, RawStringsSurviveAnyContent) {
  for (std::string text : {std::string("plain"), std::string(")FXKIT\" and \"\"\" '''"),
                           std::string(")FXKIT\")FXKIT0\" \\ \n\t")}) {
    std::string literal = cppRawString(text);
    // The literal is R"D(text)D" with a D whose closing sequence is not inside text.
    size_t open = literal.find('(');
    std::string delim = literal.substr(2, open - 2);
    ASSERT_EQ(literal.substr(0, 2), "R\"");
    EXPECT_EQ(literal.substr(open + 1, text.size()), text);
    EXPECT_EQ(literal.substr(open + 1 + text.size()), ")" + delim + "\"");
    EXPECT_EQ(text.find(")" + delim + "\""), std::string::npos) << delim;
  }
}

TEST(WrapperCpp, EveryCorpusGraphExports) {
  for (auto [sub, prefix, expected] :
       {std::tuple<std::string, std::string, size_t>{"reference", "fw_", 10},
        {"inductor", "aten_post_", 20}}) {
    size_t exported = 0;
    for (const auto &path : fxkit::testing::corpusGraphs(sub, prefix)) {
      auto graph = importGraphFile(path.string());
      ASSERT_TRUE(graph) << path << ": " << graph.error().str();
      auto runs = runPipeline(*graph, {"lower", "fuse", "plan", "wrapper"});
      ASSERT_TRUE(runs) << path << ": " << runs.error().str();
      auto files = writeWrapperCpp(*graph, "m", "");
      ASSERT_TRUE(files) << path << ": " << files.error().str();
      EXPECT_NE(files->source.find("return Status::ok();"), std::string::npos) << path;
      ++exported;
    }
    EXPECT_EQ(exported, expected) << sub;
  }
}

} // namespace
