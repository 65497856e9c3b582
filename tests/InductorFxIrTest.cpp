/// The FX IR of imported Inductor wrappers (`convert output_code.py --to fxir`): for every
/// corpus workload where PyTorch's own WrapperFxCodegen produced `fxir_<i>.graph.txt` and
/// `fxir_<i>.code.py`, fxkit's conversion of `output_code_<i>.py` (the same index: both come
/// from the i-th graph of the run) is byte-identical; where PyTorch failed (`fxir_failed.txt`),
/// fxkit converts and names what it added. The launch configs come from emulating Triton's
/// heuristics (TritonLaunchConfig), checked here case by case.
#include "exporters/wrapper/InductorFxIr.h"
#include "exporters/FxTextPrinter.h"
#include "exporters/wrapper/FxIrWriter.h"
#include "exporters/wrapper/TritonLaunchConfig.h"
#include "importers/FxTextParser.h"
#include "importers/Import.h"
#include "transforms/Pass.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

using namespace fxkit;
namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path corpus() { return fs::path(FXKIT_TEST_DATA) / "corpus" / "inductor"; }

/// `output_code_<i>.py` of every workload, with i, sorted.
std::vector<std::pair<fs::path, std::string>> wrapperFiles() {
  std::vector<std::pair<fs::path, std::string>> out;
  static const std::regex name(R"(output_code_(\d+)\.py)");
  for (const auto &dir : fs::directory_iterator(corpus())) {
    if (!dir.is_directory())
      continue;
    for (const auto &f : fs::directory_iterator(dir.path())) {
      std::smatch m;
      std::string file = f.path().filename().string();
      if (std::regex_match(file, m, name))
        out.push_back({f.path(), m[1].str()});
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

Expected<InductorFxIr> convert(const fs::path &wrapper) {
  auto g = importGraphFile(wrapper.string());
  if (!g)
    return g.takeError();
  return buildInductorFxIr(*g);
}

TEST(InductorFxIrCorpus, EveryPyTorchConversionIsReproducedByteForByte) {
  size_t graphs = 0, codes = 0;
  for (const auto &[wrapper, index] : wrapperFiles()) {
    fs::path graphTxt = wrapper.parent_path() / ("fxir_" + index + ".graph.txt");
    fs::path codePy = wrapper.parent_path() / ("fxir_" + index + ".code.py");
    if (!fs::exists(graphTxt))
      continue;
    SCOPED_TRACE(wrapper.string());
    auto fx = convert(wrapper);
    ASSERT_TRUE(fx) << fx.error().str();
    std::string text = printFxText(fx->graph);
    EXPECT_EQ(text, readFile(graphTxt));
    ++graphs;
    // Nothing beyond what PyTorch's converter handles was needed.
    EXPECT_TRUE(fx->addedKinds.empty()) << describeAddedKinds(fx->addedKinds);
    // The FX text is fxkit's own FX text too: it re-parses and prints the same.
    auto back = parseFxText(text, graphTxt.string());
    ASSERT_TRUE(back) << back.error().str();
    EXPECT_EQ(printFxText(*back), text);
    if (fs::exists(codePy)) {
      EXPECT_EQ(printFxIrCode(fx->graph), readFile(codePy));
      ++codes;
    }
  }
  // attention, cat_reinterpret, dynamic_broadcast, layernorm, mlp, pointwise, softmax.
  EXPECT_EQ(graphs, 7u);
  EXPECT_EQ(codes, 7u);
}

TEST(InductorFxIrCorpus, TheCppWrapperOfTheSameGraphGivesPyTorchsFxIrToo) {
  // cpp_wrapper_<i>.py is graph i compiled with cpp_wrapper=True: the importer reads it into
  // the same wrapper IR, so its FX IR is PyTorch's conversion of the Python wrapper.
  size_t compared = 0;
  for (const auto &dir : fs::directory_iterator(corpus())) {
    fs::path cpp = dir.path() / "cpp_wrapper_0.py", graphTxt = dir.path() / "fxir_0.graph.txt";
    if (!fs::exists(cpp) || !fs::exists(graphTxt))
      continue;
    SCOPED_TRACE(cpp.string());
    auto fx = convert(cpp);
    ASSERT_TRUE(fx) << fx.error().str();
    EXPECT_EQ(printFxText(fx->graph), readFile(graphTxt));
    ++compared;
  }
  EXPECT_EQ(compared, 6u); // dynamic_broadcast has no C++ wrapper
}

TEST(InductorFxIrCorpus, WherePyTorchFailedFxkitConvertsAndSaysWhatItAdded) {
  std::map<std::string, std::string> added;
  for (const auto &[wrapper, index] : wrapperFiles()) {
    if (!fs::exists(wrapper.parent_path() / "fxir_failed.txt"))
      continue;
    auto fx = convert(wrapper);
    ASSERT_TRUE(fx) << wrapper << ": " << fx.error().str();
    added[wrapper.parent_path().filename().string()] = describeAddedKinds(fx->addedKinds);
    std::string code = printFxIrCode(fx->graph);
    EXPECT_NE(code.find("def forward(self, primals_1"), std::string::npos) << code;
  }
  ASSERT_EQ(added.size(), 3u);
  // PyTorch: "Found line of unrecognized type: assert_size_stride(buf0, ...)" (resnet_block,
  // transformer_layer); deep_mlp launches one kernel 64 times.
  EXPECT_EQ(added["resnet_block"], "assert_size_stride x2, extern call that allocates its result "
                                   "(extern_kernels.convolution) x2");
  EXPECT_EQ(added["transformer_layer"],
            "ATen fallback call (torch.ops.aten._scaled_dot_product_efficient_attention.default) "
            "x1, assert_alignment x4, assert_size_stride x4, getitem of a multi-output call x4");
  EXPECT_EQ(added["deep_mlp"], "repeated launch of one kernel (same kernel_idx) x63");
}

TEST(InductorFxIrCorpus, EveryGpuWrapperConvertsAndCpuWrappersAreRefused) {
  // GPU wrappers (Triton kernels) convert; CPU wrappers launch C++ kernels, which PyTorch's FX
  // IR has no node for: a clear error.
  size_t gpu = 0, cpu = 0;
  for (const auto &e : fs::recursive_directory_iterator(corpus())) {
    std::string name = e.path().filename().string();
    if (!e.is_regular_file() || !name.ends_with(".py") || name.starts_with("fxir_") ||
        name.find("output_code") == std::string::npos)
      continue;
    SCOPED_TRACE(e.path().string());
    auto fx = convert(e.path());
    if (name.starts_with("cpu_")) {
      ASSERT_FALSE(fx);
      EXPECT_NE(fx.error().message.find("is a C++ kernel"), std::string::npos)
          << fx.error().message;
      ++cpu;
      continue;
    }
    ASSERT_TRUE(fx) << fx.error().str();
    EXPECT_EQ(fx->graph.outputNode(), fx->graph.back());
    ++gpu;
  }
  EXPECT_EQ(gpu, 30u); // 10 output_code_0.py, 20 debug/*/output_code.py
  EXPECT_EQ(cpu, 4u);
}

TEST(InductorFxIrCorpus, SubstitutedSizeArgumentsGiveTheSameFxIr) {
  // substitute-size-args puts `s17*s77` into the launch in place of the xnumel node: the FX IR
  // spells it as operator.mul again, as PyTorch does.
  fs::path dir = corpus() / "dynamic_broadcast";
  auto g = importGraphFile((dir / "output_code_0.py").string());
  ASSERT_TRUE(g) << g.error().str();
  auto runs = runPipeline(*g, {"substitute-size-args"});
  ASSERT_TRUE(runs) << runs.error().str();
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_TRUE((*runs)[0].changed);
  std::string fx = printFxText(*g);
  EXPECT_NE(fx.find("xnumel: s17*s77"), std::string::npos) << fx;
  EXPECT_EQ(fx.find("operator.mul"), std::string::npos) << fx;
  auto ir = buildInductorFxIr(*g);
  ASSERT_TRUE(ir) << ir.error().str();
  EXPECT_EQ(printFxText(ir->graph), readFile(dir / "fxir_0.graph.txt"));
}

TEST(InductorFxIrGolden, SmallHandWrittenWrapper) {
  // Symbolic grid, extern out=, reuse by assignment and by reinterpret, a fallback with getitem
  // and assert_alignment (see tests/data/inductor-wrapper/README.md).
  fs::path dir = fs::path(FXKIT_TEST_DATA) / "inductor-wrapper";
  auto fx = convert(dir / "small_wrapper.py");
  ASSERT_TRUE(fx) << fx.error().str();
  EXPECT_EQ(printFxText(fx->graph), readFile(dir / "small_wrapper.fxir.txt"));
  EXPECT_EQ(describeAddedKinds(fx->addedKinds),
            "ATen fallback call (torch.ops.aten.var_mean.correction) x1, assert_alignment x1, "
            "getitem of a multi-output call x1");
}

TEST(InductorFxIr, GraphsNotReadFromWrapperCodeAreRefused) {
  auto g = parseFxText("graph():\n    %x : [num_users=1] = placeholder[target=x]\n    return x");
  ASSERT_TRUE(g);
  auto ir = buildInductorFxIr(*g);
  ASSERT_FALSE(ir);
  EXPECT_NE(ir.error().message.find("not read from Inductor's wrapper code"), std::string::npos);
}

inductor::InductorKernel kernel(std::string heuristic,
                                std::vector<std::pair<std::string, int64_t>> sizeHints,
                                std::string reductionHint = "",
                                std::vector<std::pair<std::string, int64_t>> meta = {}) {
  inductor::InductorKernel k;
  k.name = "k";
  k.heuristic = std::move(heuristic);
  k.sizeHints = std::move(sizeHints);
  k.reductionHint = std::move(reductionHint);
  k.inductorMetaInts = std::move(meta);
  return k;
}

std::string blocks(const inductor::InductorKernel &k) {
  auto c = firstTritonConfig(k);
  if (!c)
    return "error: " + c.error().message;
  std::string s = c->gridType;
  for (const auto &[name, v] : c->blocks)
    s += " " + name + "=" + std::to_string(v);
  return s;
}

TEST(TritonLaunchConfig, FirstConfigOfEachHeuristic) {
  // Pointwise, 1D: bs = max(256, min(numel // 128, 1024)), shrunk to the size hint.
  EXPECT_EQ(blocks(kernel("pointwise", {{"x", 1048576}})), "Grid1D XBLOCK=1024");
  EXPECT_EQ(blocks(kernel("pointwise", {{"x", 16384}})), "Grid1D XBLOCK=256");
  EXPECT_EQ(blocks(kernel("pointwise", {{"x", 64}})), "Grid1D XBLOCK=64");
  // 2D and 3D tiles.
  EXPECT_EQ(blocks(kernel("pointwise", {{"y", 2048}, {"x", 128}})), "Grid2D XBLOCK=32 YBLOCK=32");
  EXPECT_EQ(blocks(kernel("pointwise", {{"y", 8}, {"x", 4}})), "Grid2D XBLOCK=4 YBLOCK=8");
  EXPECT_EQ(blocks(kernel("pointwise", {{"z", 64}, {"y", 64}, {"x", 64}})),
            "Grid3D XBLOCK=16 YBLOCK=16 ZBLOCK=16");
  // Persistent reductions: XBLOCK 1 unless INNER with a mid-sized row; no R0_BLOCK.
  EXPECT_EQ(blocks(kernel("persistent_reduction", {{"x", 4096}, {"r0_", 1024}}, "INNER")),
            "Grid1D XBLOCK=1");
  EXPECT_EQ(blocks(kernel("persistent_reduction", {{"x", 8192}, {"r0_", 256}}, "INNER")),
            "Grid1D XBLOCK=4");
  EXPECT_EQ(blocks(kernel("persistent_reduction", {{"x", 8192}, {"r0_", 128}}, "DEFAULT")),
            "Grid1D XBLOCK=1");
  EXPECT_EQ(blocks(kernel("persistent_reduction", {{"x", 8192}, {"r0_", 128}}, "OUTER")),
            "Grid1D XBLOCK=32");
  // Looped reductions: the contiguous config (XBLOCK 2 up to 2048-element rows).
  EXPECT_EQ(blocks(kernel("reduction", {{"x", 4096}, {"r0_", 32}}, "DEFAULT")),
            "Grid1D XBLOCK=2 R0_BLOCK=32");
  EXPECT_EQ(blocks(kernel("reduction", {{"x", 4096}, {"r0_", 8192}}, "INNER")),
            "Grid1D XBLOCK=1 R0_BLOCK=2048");
  EXPECT_EQ(blocks(kernel("reduction", {{"x", 4096}, {"r0_", 8192}}, "INNER",
                          {{"num_load", 8}, {"num_reduction", 2}})),
            "Grid1D XBLOCK=1 R0_BLOCK=1024");
  EXPECT_EQ(blocks(kernel("reduction", {{"x", 512}, {"r0_", 4096}}, "OUTER")),
            "Grid1D XBLOCK=4 R0_BLOCK=64");
  EXPECT_EQ(blocks(kernel("reduction", {{"x", 16384}, {"r0_", 4096}}, "OUTER")),
            "Grid1D XBLOCK=16 R0_BLOCK=32");
  // Beyond 8 * 4096 rows: x_block = max(min(256, next_pow2(x // 4096)), 64), and the R block
  // from the load count.
  EXPECT_EQ(blocks(kernel("reduction", {{"x", 1048576}, {"r0_", 4096}}, "OUTER")),
            "Grid1D XBLOCK=256 R0_BLOCK=2");
  EXPECT_EQ(
      blocks(kernel("reduction", {{"x", 1048576}, {"r0_", 4096}}, "OUTER", {{"num_load", 4}})),
      "Grid1D XBLOCK=32 R0_BLOCK=64");
}

TEST(TritonLaunchConfig, UnemulatedCasesAreErrorsNotGuesses) {
  EXPECT_EQ(blocks(kernel("reduction", {{"y", 64}, {"x", 64}, {"r0_", 64}})),
            "error: kernel 'k': tiled or multi-dimensional reductions (size_hints other than x, "
            "r0_) are not emulated");
  EXPECT_EQ(blocks(kernel("foreach", {{"x", 64}})),
            "error: kernel 'k': the 'foreach' heuristic is not emulated");
  EXPECT_EQ(blocks(kernel("pointwise", {})),
            "error: kernel 'k': the decorator has no size_hints with an 'x' entry");
  EXPECT_NE(blocks(kernel("pointwise", {{"x", 64}}, "", {{"max_autotune", 1}})).find("error:"),
            std::string::npos);
}

} // namespace
