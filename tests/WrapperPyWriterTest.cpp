/// The Python wrapper exporter (`--to wrapper-py`): golden text for a small reduction graph
/// (kernel and call()), symbolic sizes, Python spellings of symbolic integers, and every corpus
/// graph exports. Running the modules is tests/python/check_wrapper_py.py's job (it needs
/// PyTorch).

#include "exporters/wrapper/WrapperPyWriter.h"
#include "exporters/wrapper/PySymExpr.h"
#include "importers/Import.h"
#include "transforms/Pass.h"

#include "CorpusTestSupport.h"
#include "WrapperTestGraphs.h"

#include <gtest/gtest.h>

using namespace fxkit;

namespace {

std::string exportText(std::string_view fx) {
  auto graph = importGraph(fx, GraphFormat::FxText, "test.graph.txt");
  EXPECT_TRUE(graph) << graph.error().str();
  if (!graph)
    return "";
  auto runs = runPipeline(*graph, {"lower", "fuse", "plan", "wrapper"});
  EXPECT_TRUE(runs) << runs.error().str();
  auto text = writeWrapperPy(*graph);
  EXPECT_TRUE(text) << text.error().str();
  return text ? *text : "";
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

TEST(WrapperPy, ReductionKernelGolden) {
  std::string text = exportText(kSumDivRelu);
  EXPECT_EQ(section(text, "def fused_sum_div_relu_0", "def call"),
            R"(def fused_sum_div_relu_0(in_ptr0, out_ptr0, xnumel, rnumel):
    device = out_ptr0.device
    in_ptr0 = flat_storage(in_ptr0, 32)
    out_ptr0 = flat_storage(out_ptr0, 32)
    buf0 = torch.empty(4, dtype=torch.float32, device=device)  # never leaves the kernel
    xindex = torch.arange(xnumel, device=device)
    rindex = torch.arange(rnumel, device=device)
    xrow = xindex[:, None]
    rcol = rindex[None, :]
    xfull = torch.arange(xnumel * rnumel, device=device)
    # op0: sum (sum_1), reduction over [4] x [8]
    x0 = xrow
    r0 = rcol
    tmp0 = load(in_ptr0, r0 + 8*x0)
    tmp1 = torch.broadcast_to(tmp0, (xnumel, rnumel)).to(torch.float32)
    tmp2 = tmp1.sum(1, keepdim=True)
    store(buf0, x0, tmp2)
    # op1: div, relu (div, relu), full over [4, 8]
    x0 = xfull // 8
    x1 = xfull % 8
    tmp3 = load(in_ptr0, 8*x0 + x1)
    tmp4 = load(buf0, x0)
    tmp5 = tmp3 / tmp4
    tmp6 = torch.relu(tmp5)
    store(out_ptr0, 8*x0 + x1, tmp6)


)");
  EXPECT_EQ(section(text, "def call", "def get_args"), R"(def call(args):
    arg0_1, = args
    args.clear()
    assert_size_stride(arg0_1, (4, 8), (8, 1), 'arg0_1')
    device = arg0_1.device
    pool = empty_strided((128,), (1,), dtype=torch.uint8, device=device)
    buf2 = alloc_from_pool(pool, 0, torch.float32, (4, 8), (8, 1))
    fused_sum_div_relu_0(arg0_1, buf2, 4, 8)
    if nan_asserts: check_finite(buf2, 'buf2', 'fused_sum_div_relu_0')
    return (buf2,)


)");
  EXPECT_NE(text.find("def get_args():\n"), std::string::npos);
  EXPECT_NE(text.find("    arg0_1 = rand_strided((4, 8), (8, 1), dtype=torch.float32, "
                      "device=device)\n    return [arg0_1]\n"),
            std::string::npos);
  EXPECT_NE(text.find("if __name__ == \"__main__\":\n    benchmark_compiled_module()\n"),
            std::string::npos);
  // Nothing of fxkit at run time.
  EXPECT_EQ(text.find("fxkit."), std::string::npos);
  EXPECT_EQ(text.find("import fxkit"), std::string::npos);
}

TEST(WrapperPy, SymbolicSizesAreBoundFromInputs) {
  std::string text = exportText(R"(graph():
    %arg0_1 : Tensor "f32[s77, 8][8, 1]cpu"[num_users=1] = placeholder[target=arg0_1]
    %relu : Tensor "f32[s77, 8][8, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%arg0_1,), kwargs = {})
    return (relu,))");
  EXPECT_NE(text.find("    s77 = arg0_1.size(0)\n"
                      "    assert_size_stride(arg0_1, (s77, 8), (8, 1), 'arg0_1')\n"),
            std::string::npos)
      << text;
  // Symbolic sizes: an allocation of its own, not the pool.
  EXPECT_NE(text.find("= empty_strided((s77, 8), (8, 1), dtype=torch.float32, device=device)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    s77 = 8  # size hint\n"), std::string::npos);
}

TEST(WrapperPy, SymExprsKeepPythonSemantics) {
  auto py = [](const char *s) { return pySymExpr(SymExpr::parse(s).take()); };
  EXPECT_EQ(py("s0*(s1//2)"), "s0*(s1//2)");
  EXPECT_EQ(py("(s0*s1)//2"), "s0*s1//2");
  EXPECT_EQ(py("-(x0//4)"), "-(x0//4)");
  EXPECT_EQ(py("s0 - (s1 - s2)"), "s0 - (s1 - s2)");
  EXPECT_EQ(py("x0 % (s1 + 1)"), "x0 % (s1 + 1)");
  EXPECT_EQ(py("ModularIndexing(x0, 4, 8)"), "ModularIndexing(x0, 4, 8)");
  EXPECT_EQ(py("s0/2"), "s0//2");
  EXPECT_EQ(py("(-2)**s0"), "(-2)**s0");
}

TEST(WrapperPy, EveryCorpusGraphExports) {
  size_t n = 0;
  for (const auto &path : fxkit::testing::corpusGraphs("reference", "fw_")) {
    auto graph = importGraphFile(path.string());
    ASSERT_TRUE(graph) << path << ": " << graph.error().str();
    auto runs = runPipeline(*graph, {"lower", "fuse", "plan", "wrapper"});
    ASSERT_TRUE(runs) << path << ": " << runs.error().str();
    auto text = writeWrapperPy(*graph);
    ASSERT_TRUE(text) << path << ": " << text.error().str();
    EXPECT_NE(text->find("\ndef call(args):\n"), std::string::npos) << path;
    ++n;
  }
  EXPECT_EQ(n, 10u);
}

TEST(WrapperPy, NeedsTheCompiledProgram) {
  auto graph = importGraph(kSumDivRelu, GraphFormat::FxText, "test.graph.txt");
  ASSERT_TRUE(graph);
  auto text = writeWrapperPy(*graph);
  ASSERT_FALSE(text);
  EXPECT_NE(text.error().message.find("lower"), std::string::npos);
}

} // namespace
