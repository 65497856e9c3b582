/// The FX IR of the wrapper (`--to fxir`, `--to fxir-code`): golden text in PyTorch's
/// WrapperFxCodegen form for small graphs (pool slices, a reduction launch, an extern `.out`
/// call, symbolic grids), and every corpus ATen graph's FX IR re-parses.

#include "exporters/wrapper/FxIrWriter.h"
#include "importers/Import.h"
#include "transforms/Pass.h"

#include "CorpusTestSupport.h"
#include "WrapperTestGraphs.h"

#include <gtest/gtest.h>

using namespace fxkit;

namespace {

Graph compiled(std::string_view fx) {
  auto graph = importGraph(fx, GraphFormat::FxText, "test.graph.txt");
  EXPECT_TRUE(graph) << graph.error().str();
  auto runs = runPipeline(*graph, {"lower", "fuse", "plan", "wrapper"});
  EXPECT_TRUE(runs) << runs.error().str();
  return graph.take();
}

using fxkit::testgraphs::kSumDivRelu;

TEST(FxIr, ReductionGolden) {
  Graph g = compiled(kSumDivRelu);
  auto text = writeFxIr(g);
  ASSERT_TRUE(text) << text.error().str();
  EXPECT_EQ(*text, R"(graph():
    %arg0_1 : [num_users=1] = placeholder[target=arg0_1]
    %pool : [num_users=1] = call_function[target=torch.empty_strided](args = ([128], [1]), kwargs = {dtype: torch.uint8, device: cpu})
    %pool_float32 : [num_users=1] = call_function[target=torch.ops.aten.view.dtype](args = (%pool, torch.float32), kwargs = {})
    %buf2 : [num_users=2] = call_function[target=torch.as_strided](args = (%pool_float32, [4, 8], [8, 1], 0), kwargs = {})
    %triton_kernel_wrapper_mutation : [num_users=0] = call_function[target=torch.ops.higher_order.triton_kernel_wrapper_mutation](args = (), kwargs = {kernel_idx: 0, constant_args_idx: 0, grid: [(4, 1, 1)], tma_descriptor_metadata: {}, kwargs: {in_ptr0: %arg0_1, out_ptr0: %buf2, xnumel: 4, r0_numel: 8, XBLOCK: 1}})
    return buf2)");
  auto code = writeFxIrCode(g);
  ASSERT_TRUE(code) << code.error().str();
  EXPECT_EQ(*code, R"(


def forward(self, arg0_1):
    pool = torch.empty_strided([128], [1], dtype = torch.uint8, device = 'cpu')
    pool_float32 = torch.ops.aten.view.dtype(pool, torch.float32);  pool = None
    buf2 = torch.as_strided(pool_float32, [4, 8], [8, 1], 0);  pool_float32 = None
    triton_kernel_wrapper_mutation = torch.ops.higher_order.triton_kernel_wrapper_mutation(kernel_idx = 0, constant_args_idx = 0, grid = [(4, 1, 1)], tma_descriptor_metadata = {}, kwargs = {'in_ptr0': arg0_1, 'out_ptr0': buf2, 'xnumel': 4, 'r0_numel': 8, 'XBLOCK': 1});  arg0_1 = triton_kernel_wrapper_mutation = None
    return buf2
    )");
}

TEST(FxIr, ExternOutOverloadAndSymbolicGrid) {
  Graph mm = compiled(R"(graph():
    %arg0_1 : Tensor "f32[8, 16][16, 1]cpu"[num_users=1] = placeholder[target=arg0_1]
    %arg1_1 : Tensor "f32[4, 16][16, 1]cpu"[num_users=1] = placeholder[target=arg1_1]
    %permute : Tensor "f32[16, 4][1, 16]cpu"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%arg1_1, [1, 0]), kwargs = {})
    %mm : Tensor "f32[8, 4][4, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%arg0_1, %permute), kwargs = {})
    return (mm,))");
  auto text = writeFxIr(mm);
  ASSERT_TRUE(text) << text.error().str();
  EXPECT_NE(text->find("%arg1_1_view : [num_users=1] = call_function[target=torch.as_strided]"
                       "(args = (%arg1_1, [16, 4], [1, 16], 0), kwargs = {})"),
            std::string::npos)
      << *text;
  EXPECT_NE(text->find("call_function[target=torch.ops.aten.mm.out](args = (%arg0_1, "
                       "%arg1_1_view), kwargs = {out: %buf0})"),
            std::string::npos)
      << *text;

  Graph relu = compiled(R"(graph():
    %arg0_1 : Tensor "f32[s77, 8][8, 1]cpu"[num_users=1] = placeholder[target=arg0_1]
    %relu : Tensor "f32[s77, 8][8, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%arg0_1,), kwargs = {})
    return (relu,))");
  text = writeFxIr(relu);
  ASSERT_TRUE(text) << text.error().str();
  // The grid is a ceiling division of xnumel by XBLOCK, as WrapperFxCodegen spells it.
  EXPECT_NE(text->find("call_function[target=operator.floordiv](args = (%mul_1, 1024)"),
            std::string::npos)
      << *text;
  EXPECT_NE(text->find("grid: [(%mul_2, 1, 1)]"), std::string::npos) << *text;
}

TEST(FxIr, EveryCorpusAtenGraphReparses) {
  size_t n = 0;
  auto graphs = fxkit::testing::corpusGraphs("inductor", "aten_post_");
  for (const auto &p : fxkit::testing::corpusGraphs("reference", "fw_"))
    graphs.push_back(p);
  for (const auto &path : graphs) {
    auto graph = importGraphFile(path.string());
    ASSERT_TRUE(graph) << path << ": " << graph.error().str();
    auto runs = runPipeline(*graph, {"lower", "fuse", "plan", "wrapper"});
    if (!runs) // what lowering does not support yet is the compiler tests' business
      continue;
    auto text = writeFxIr(*graph);
    ASSERT_TRUE(text) << path << ": " << text.error().str();
    auto back = importGraph(*text, GraphFormat::FxText, "fxir.graph.txt");
    ASSERT_TRUE(back) << path << ": " << back.error().str() << "\n" << *text;
    EXPECT_NE(text->find("\n    return "), std::string::npos) << path;
    EXPECT_EQ(text->find("fxkit."), std::string::npos) << path;
    auto code = writeFxIrCode(*graph);
    ASSERT_TRUE(code) << path << ": " << code.error().str();
    EXPECT_TRUE(code->starts_with("\n\n\ndef forward(self")) << path;
    ++n;
  }
  EXPECT_GE(n, 15u);
}

} // namespace
