/// Importing Inductor's C++ wrapper code (cpp_wrapper_*.py) into wrapper IR: every such file of
/// the corpus imports, and its graph agrees with the C++ text and with the Python wrapper of the
/// same workload; a hand-written file gives a pinned FX text; bad input fails with
/// file:line:col.
#include "importers/inductor/InductorCppWrapper.h"

#include "exporters/FxTextPrinter.h"
#include "importers/FxTextParser.h"
#include "importers/Import.h"
#include "ir/Verifier.h"

#include <gtest/gtest.h>

#include <algorithm>
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

fs::path testCorpus() { return fs::path(FXKIT_TEST_DATA) / "corpus" / "inductor"; }

std::vector<fs::path> cppWrapperFiles(const fs::path &root) {
  std::vector<fs::path> out;
  std::error_code ec;
  if (!fs::is_directory(root, ec))
    return out;
  for (const auto &e : fs::recursive_directory_iterator(root)) {
    std::string name = e.path().filename().string();
    if (e.is_regular_file() && name.starts_with("cpp_wrapper_") && name.ends_with(".py"))
      out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

size_t countTarget(const Graph &g, std::string_view target) {
  return static_cast<size_t>(
      std::count_if(g.begin(), g.end(), [&](const Node *n) { return n->target() == target; }));
}

/// Kernel launches in the C++ entry function: statements `call_<kernel>(` at a line's start.
size_t countLaunches(const std::string &text) {
  static const std::regex launch(R"(^\s+call_\w+\()");
  size_t n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, launch))
      ++n;
  return n;
}

void checkFile(const fs::path &p) {
  SCOPED_TRACE(p.string());
  std::string text = readFile(p);
  EXPECT_EQ(detectGraphFormat(p.string(), text), GraphFormat::InductorCpp);
  auto w = importInductorCppWrapper(text, p.string());
  ASSERT_TRUE(w) << w.error().str();
  const Graph &g = w->graph;
  EXPECT_TRUE(verifyGraph(g));
  EXPECT_EQ(countTarget(g, "fxkit.kernel"), countLaunches(text));
  // The Python wrapper of the same workload defines the same kernels and allocates as many
  // buffers.
  fs::path py = p.parent_path() / "output_code_0.py";
  if (fs::exists(py)) {
    auto pw = importInductorWrapper(readFile(py), py.string());
    ASSERT_TRUE(pw) << pw.error().str();
    std::vector<std::string> a, b;
    for (const auto &k : w->info->kernels)
      a.push_back(k.name);
    for (const auto &k : pw->info->kernels)
      b.push_back(k.name);
    EXPECT_EQ(a, b);
    EXPECT_EQ(countTarget(g, "torch.empty_strided"), countTarget(pw->graph, "torch.empty_strided"));
    EXPECT_EQ(countTarget(g, "fxkit.kernel"), countTarget(pw->graph, "fxkit.kernel"));
  }
  // Every launched kernel's launcher gave its grid and launch configuration.
  for (const auto &k : w->info->kernels) {
    EXPECT_EQ(k.launchGrid.size(), 3u) << k.name;
    EXPECT_GT(k.numWarps, 0) << k.name;
  }
  std::string fx = printFxText(g);
  auto again = parseFxText(fx, "reparsed");
  ASSERT_TRUE(again) << again.error().str();
  EXPECT_EQ(printFxText(*again), fx);
}

} // namespace

TEST(InductorCppWrapperCorpus, EveryCppWrapperFileOfTheTestCorpusImports) {
  auto files = cppWrapperFiles(testCorpus());
  EXPECT_EQ(files.size(), 9u);
  for (const fs::path &p : files)
    checkFile(p);
}

/// FX text without what only the Python wrapper has: input assertions and provenance
/// handles (from `# [Provenance debug handles]` comments), and the user counts they change.
std::string comparable(const Graph &g) {
  std::istringstream in(printFxText(g));
  std::string out;
  static const std::regex provenance(R"(, provenance: \d+)"), users(R"(\[num_users=\d+\] )");
  for (std::string line; std::getline(in, line);) {
    if (line.find("fxkit.assert_") != std::string::npos)
      continue;
    out += std::regex_replace(std::regex_replace(line, provenance, ""), users, "") + "\n";
  }
  return out;
}

TEST(InductorCppWrapperCorpus, SameGraphAsThePythonWrapper) {
  for (const fs::path &p : cppWrapperFiles(testCorpus())) {
    SCOPED_TRACE(p.string());
    // The C++ shim of the efficient-attention fallback passes its optional arguments
    // explicitly (attn_bias, compute_log_sumexp, dropout_p, is_causal, scale), the Python
    // wrapper only those it sets, and the C++ wrapper has no name for the result tuple.
    if (p.parent_path().filename() == "transformer_layer")
      continue;
    auto w = importInductorCppWrapper(readFile(p), "w.py");
    auto py = importInductorWrapper(readFile(p.parent_path() / "output_code_0.py"), "p.py");
    ASSERT_TRUE(w && py);
    EXPECT_EQ(comparable(w->graph), comparable(py->graph));
  }
}

TEST(InductorCppWrapperCorpus, EveryCppWrapperFileOfTheSharedCorpusImports) {
  fs::path shared = fs::path(FXKIT_TEST_DATA).parent_path().parent_path().parent_path() / "shared" /
                    "corpus" / "inductor";
  auto files = cppWrapperFiles(shared);
  if (files.empty())
    GTEST_SKIP() << "no shared corpus at " << shared;
  for (const fs::path &p : files)
    checkFile(p);
}

TEST(InductorCppWrapperGolden, SmallHandWrittenCppWrapper) {
  fs::path dir = fs::path(FXKIT_TEST_DATA) / "inductor-wrapper";
  std::string text = readFile(dir / "small_cpp_wrapper.py");
  auto g = importGraph(text, GraphFormat::InductorCpp, "small_cpp_wrapper.py");
  ASSERT_TRUE(g) << g.error().str();
  if (getenv("FXKIT_UPDATE_GOLDEN"))
    std::ofstream(dir / "small_cpp_wrapper.graph.txt") << printFxText(*g);
  EXPECT_EQ(printFxText(*g), readFile(dir / "small_cpp_wrapper.graph.txt"));
  auto w = importInductorCppWrapper(text, "small_cpp_wrapper.py");
  ASSERT_TRUE(w);
  ASSERT_EQ(w->info->kernels.size(), 1u);
  EXPECT_EQ(w->info->kernels[0].name, "triton_poi_fused_relu_0");
  EXPECT_EQ(w->info->kernels[0].launchGrid,
            (std::vector<std::string>{"((xnumel + (256 - 1)) / (256))", "1", "1"}));
  EXPECT_EQ(w->info->kernels[0].numWarps, 4);
  EXPECT_EQ(w->info->kernels[0].sharedMemBytes, 0);
  EXPECT_EQ(parseGraphFormat("inductor-cpp"), GraphFormat::InductorCpp);
  EXPECT_EQ(graphFormatName(GraphFormat::InductorCpp), "inductor-cpp");
  EXPECT_EQ(detectGraphFormat("-", text), GraphFormat::InductorCpp);
}

namespace {

/// The small golden file with `from` replaced by `to` (which must occur once).
std::string mutated(const std::string &from, const std::string &to) {
  std::string text =
      readFile(fs::path(FXKIT_TEST_DATA) / "inductor-wrapper" / "small_cpp_wrapper.py");
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  EXPECT_EQ(text.find(from, at + 1), std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

/// `text` with `from` replaced by `to`.
std::string mutated2(std::string text, const std::string &from, const std::string &to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

/// The first line of the error's text ("file:line:col: error: message").
std::string firstLine(const std::string &text) {
  auto w = importInductorCppWrapper(text, "w.py");
  if (w)
    return "imported";
  std::string s = w.error().str();
  return s.substr(0, s.find('\n'));
}

} // namespace

TEST(InductorCppWrapperErrors, MessagesNameFileLineAndColumn) {
  EXPECT_EQ(firstLine(mutated("arg0_1.reset();", "do_something(arg0_1);")),
            "w.py:81:5: error: unsupported call 'do_something' in inductor_entry_impl");
  EXPECT_EQ(firstLine(mutated("relu_0(buf1, 32L, 0, stream0)", "relu_0(buf1, 0, stream0)")),
            "w.py:87:5: error: 'call_triton_poi_fused_relu_0' takes 4 arguments, not 3");
  EXPECT_EQ(firstLine(mutated("call_triton_poi_fused_relu_0(buf1", "call_triton_nope(buf1")),
            "w.py:87:5: error: launch of unknown kernel 'triton_nope' (no launcher "
            "'call_triton_nope' defined in the C++ source)");
  // Unbalanced parentheses: the statement ends before the call does.
  EXPECT_EQ(firstLine(mutated("int_array_2, 0L))));", "int_array_2, 0L)));")),
            "w.py:80:171: error: expected ',' or ')' in call");
  EXPECT_EQ(firstLine(mutated("arg1_1.reset();", "arg1_1.reset()")),
            "w.py:83:5: error: unexpected 'auto' in statement");
  EXPECT_EQ(firstLine(mutated("} // inductor_entry_impl", "")),
            "w.py:60:1: error: unterminated inductor_entry_impl");
  EXPECT_EQ(firstLine(mutated("cached_torch_dtype_float32", "float32")),
            "w.py:76:87: error: expected cached_torch_dtype_<dtype>");
  // A statement the Python importer rejects (a buffer never defined) names the C++ statement.
  EXPECT_EQ(firstLine(mutated("relu_0(buf1, 32L", "relu_0(buf9, 32L")).substr(0, 15),
            "w.py:87:5: erro");
  EXPECT_EQ(firstLine("print('hello')\n"),
            "w.py:1:1: error: no 'cpp_wrapper_src = (' string: not Inductor's C++ wrapper code");
}

TEST(InductorCppWrapperErrors, DeepNestingIsAnErrorNotACrash) {
  std::string deep;
  for (int i = 0; i < 200; ++i)
    deep += "wrap_with_raii_handle_if_needed(";
  deep += "buf1";
  for (int i = 0; i < 200; ++i)
    deep += ")";
  std::string line = firstLine(
      mutated("call_triton_poi_fused_relu_0(buf1,", "call_triton_poi_fused_relu_0(" + deep + ","));
  EXPECT_NE(line.find("nested too deeply"), std::string::npos) << line;
  EXPECT_EQ(line.substr(0, 8), "w.py:87:");
}

TEST(InductorCppWrapperGolden, SizeSymbolsFromInputSizes) {
  // Both forms on the line of the last input, so that no other line moves.
  std::string text = mutated("auto arg1_1 = std::move(inputs[1]);",
                             "auto arg1_1 = std::move(inputs[1]); int64_t s0; "
                             "AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_get_size(arg0_1, 0, &s0)); "
                             "int64_t s1 = arg0_1.size(1);");
  text = mutated2(text, "relu_0(buf1, 32L,", "relu_0(buf1, s0*s1,");
  auto w = importInductorCppWrapper(text, "w.py");
  ASSERT_TRUE(w) << w.error().str();
  std::string fx = printFxText(w->graph);
  EXPECT_NE(fx.find("%s0 : [num_users=1] = call_function[target=torch.ops.aten.sym_size.int]"
                    "(args = (%arg0_1, 0)"),
            std::string::npos)
      << fx;
  EXPECT_NE(fx.find("xnumel: %mul"), std::string::npos) << fx;
}
