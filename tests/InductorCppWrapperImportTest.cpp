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
    // transformer_layer's efficient-attention fallback: the C shim passes every argument
    // (attn_bias, compute_log_sumexp, dropout_p, is_causal, scale), bound to the op's schema
    // they are what the Python wrapper writes.
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

// Sizes that would have fxkit build something as large are refused where they are written
// (the probe of issue 19: output_handles[2^62 + 1] made call() return a tuple of 2^62 Nones).
TEST(InductorCppWrapperErrors, HugeOutputIndexIsAnError) {
  EXPECT_EQ(firstLine(mutated("output_handles[0] = var_0",
                              "output_handles[4611686018427387905] = var_0")),
            "w.py:91:20: error: output index: 4611686018427387905 is past 1048576 (no program has "
            "that many)");
  EXPECT_EQ(firstLine(mutated("output_handles[0] = var_0",
                              "output_handles[99999999999999999999999] = var_0"))
                .substr(0, 30),
            "w.py:91:20: error: output inde");
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

// === Every form of the C++ wrapper codegens ===================================================

namespace {

fs::path formsDir() { return fs::path(FXKIT_TEST_DATA) / "inductor-cpp-wrapper"; }

/// The small golden module with its entry function's body replaced by `body` (and `prelude`
/// added before the entry function: kernels, launchers).
std::string snippet(const std::string &body, const std::string &prelude = "") {
  std::string text =
      readFile(fs::path(FXKIT_TEST_DATA) / "inductor-wrapper" / "small_cpp_wrapper.py");
  size_t a = text.find("    py::gil_scoped_release_simple release;");
  size_t b = text.find("} // inductor_entry_impl");
  EXPECT_NE(a, std::string::npos);
  EXPECT_NE(b, std::string::npos);
  text = text.substr(0, a) + body + text.substr(b);
  if (!prelude.empty()) {
    size_t at = text.find("\n\nvoid inductor_entry_impl(");
    text.insert(at, "\n" + prelude);
  }
  return text;
}

/// The graph of a C++ wrapper module as FX text ("" and a test failure when it does not read).
std::string graphOf(const std::string &text) {
  auto w = importInductorCppWrapper(text, "w.py");
  EXPECT_TRUE(w) << w.error().str();
  if (!w)
    return "";
  EXPECT_TRUE(verifyGraph(w->graph));
  return printFxText(w->graph);
}

/// The Python wrapper module the C++ one translates to.
std::string pythonOf(const std::string &text) {
  auto py = translateInductorCppWrapper(text, "w.py");
  EXPECT_TRUE(py) << py.error().str();
  return py ? *py : std::string();
}

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)
#define EXPECT_LACKS(text, part) EXPECT_EQ((text).find(part), std::string::npos) << (text)

} // namespace

TEST(InductorCppWrapperForms, ScalarInputsSymbolicSizesAndSymbolicOutputs) {
  // A dynamic graph: the size comes in as a 0-d tensor (aoti_torch_item_int64 of inputs[0]),
  // names a symbol, sizes an allocation through a non-constant int array and a kernel's numel,
  // and a symbolic expression is an output (scalar_to_tensor_handle).
  std::string fx = graphOf(snippet(R"(
    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 2);
    int64_t arg0_1;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_item_int64(inputs[0], &arg0_1));
    auto arg1_1 = std::move(inputs[1]);
    int64_t s0 = arg0_1;
    AOTICudaGuard device_guard(0);
    const int64_t int_array_0[] = {s0, 8L};
    const int64_t int_array_1[] = {8L, 1L};
    AtenTensorHandle buf0_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_0, int_array_1, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf0_handle));
    RAIIAtenTensorHandle buf0(buf0_handle);
    int64_t triton_poi_fused_relu_0_xnumel = 8L*s0;
    cudaStream_t stream0;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_get_current_cuda_stream(0, (void**)&stream0));
    call_triton_poi_fused_relu_0(buf0, triton_poi_fused_relu_0_xnumel, 0, stream0);
    arg1_1.reset();
    output_handles[0] = buf0.release();
    RAIIAtenTensorHandle scalar_to_tensor_0 = scalar_to_tensor_handle(2L*s0);
    output_handles[1] = scalar_to_tensor_0.release();
)"));
  EXPECT_HAS(fx, "%s0 : [num_users=3] = placeholder[target=s0]");
  EXPECT_HAS(fx, "[target=torch.empty_strided](args = ([%s0, 8], [8, 1]), kwargs = {dtype: "
                 "torch.float32, device: cuda})");
  EXPECT_HAS(fx, "%triton_poi_fused_relu_0_xnumel : [num_users=1] = "
                 "call_function[target=operator.mul](args = (8, %s0)");
  EXPECT_HAS(fx, "args: {in_out_ptr0: %buf0, xnumel: %triton_poi_fused_relu_0_xnumel}, stream: 0");
  EXPECT_HAS(fx, "%mul : [num_users=1] = call_function[target=operator.mul](args = (2, %s0)");
  EXPECT_HAS(fx, "return (buf0, mul)");
}

TEST(InductorCppWrapperForms, FallbackArgumentsBindToTheOpSchema) {
  // The efficient-attention fallback of the zoo's llama: `double var_0 = 0.25;` passed as
  // `&var_0` (an optional float), `&temporary_reference(x.get())` (an optional tensor), ints
  // for bools; the Python wrapper writes the FX node's arguments: positional ones up to the
  // last non-default, keyword-only ones that differ from their default. Four results; only the
  // used one is named. topk: trailing defaults left out, a second handle of an input
  // (aoti_torch_new_tensor_handle) is the input itself.
  std::string fx = graphOf(snippet(R"(
    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 2);
    auto arg0_1 = std::move(inputs[0]);
    auto arg1_1 = std::move(inputs[1]);
    AOTICudaGuard device_guard(0);
    double var_0 = 0.25;
    AtenTensorHandle buf1_handle;
    AtenTensorHandle buf2_handle;
    AtenTensorHandle buf3_handle;
    AtenTensorHandle buf4_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda__scaled_dot_product_efficient_attention(arg0_1, arg1_1, arg1_1, &temporary_reference(arg0_1.get()), 1, 0.0, 0, &var_0, &buf1_handle, &buf2_handle, &buf3_handle, &buf4_handle));
    RAIIAtenTensorHandle buf1(buf1_handle);
    RAIIAtenTensorHandle buf2(buf2_handle);
    RAIIAtenTensorHandle buf3(buf3_handle);
    RAIIAtenTensorHandle buf4(buf4_handle);
    AtenTensorHandle tmp_arg1_1_0;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_new_tensor_handle(arg1_1, &tmp_arg1_1_0));
    AtenTensorHandle buf6_handle;
    AtenTensorHandle buf7_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_topk(RAIIAtenTensorHandle(tmp_arg1_1_0), 3L, -1L, 1, 1, &buf6_handle, &buf7_handle));
    RAIIAtenTensorHandle buf6(buf6_handle);
    RAIIAtenTensorHandle buf7(buf7_handle);
    arg0_1.reset();
    auto var_1 = RAIIAtenTensorHandle(tmp_arg1_1_0);
    output_handles[0] = buf1.release();
    output_handles[1] = buf7.release();
    output_handles[2] = var_1.release();
)"));
  EXPECT_HAS(fx, "%buf0 : [num_users=2] = call_function[target=fxkit.extern](args = (), kwargs = "
                 "{op: torch.ops.aten._scaled_dot_product_efficient_attention.default, inputs: "
                 "(%arg0_1, %arg1_1, %arg1_1, %arg0_1, True), options: {scale: 0.25}})");
  EXPECT_HAS(fx,
             "%buf1 : [num_users=1] = call_function[target=operator.getitem](args = (%buf0, 0)");
  EXPECT_LACKS(fx, "(%buf0, 1)");
  EXPECT_HAS(fx, "{op: torch.ops.aten.topk.default, inputs: (%arg1_1, 3)})");
  EXPECT_HAS(fx,
             "%buf7 : [num_users=1] = call_function[target=operator.getitem](args = (%buf5, 1)");
  EXPECT_HAS(fx, "return (buf1, buf7, arg1_1)");
}

TEST(InductorCppWrapperForms, UnbackedSymbolsAndRuntimeAsserts) {
  // DynamicScalar (`int64_t u0_raw; aoti_torch_item_int64(buf, &u0_raw); auto u0 = u0_raw;` and
  // its ConvertIntKey form `u0_raw ? 1 : 0`), AssertScalar (`if (!(..)) { throw ..; }`), an
  // unbacked size of a fallback's result (`auto u1 = buf2.size(0);`), device_guard.set_index.
  std::string text = snippet(R"(
    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 2);
    auto arg0_1 = std::move(inputs[0]);
    auto arg1_1 = std::move(inputs[1]);
    AOTICudaGuard device_guard(0);
    static constexpr int64_t *int_array_0=nullptr;
    AtenTensorHandle buf0_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(0, int_array_0, int_array_0, cached_torch_dtype_int64, cached_torch_device_type_cuda,  0, &buf0_handle));
    RAIIAtenTensorHandle buf0(buf0_handle);
    int64_t u0_raw;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_item_int64(buf0, &u0_raw));
    auto u0 = u0_raw;
    buf0.reset();
    if (!(u0 >= 0L)) { throw std::runtime_error("Expected u0 >= 0 but received " + std::to_string(u0)); }

    device_guard.set_index(0);
    AtenTensorHandle buf2_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_nonzero(arg0_1, &buf2_handle));
    RAIIAtenTensorHandle buf2(buf2_handle);
    auto u1 = buf2.size(0);
    arg0_1.reset();
    if (!(u1 <= 32L)) { throw std::runtime_error("Expected u1 <= 32 but received " + std::to_string(u1)); }
    int64_t u2_raw;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_item_int64(arg1_1, &u2_raw));
    int64_t u2 = u2_raw ? 1 : 0;
    output_handles[0] = buf2.release();
    RAIIAtenTensorHandle scalar_to_tensor_0 = scalar_to_tensor_handle(u0 + u1*u2);
    output_handles[1] = scalar_to_tensor_0.release();
)");
  std::string py = pythonOf(text);
  EXPECT_HAS(py, "        u0 = buf0.item()\n        del buf0\n        if not (u0 >= 0):\n"
                 "            raise RuntimeError('u0 >= 0')\n"
                 "    with torch.cuda._DeviceGuard(0):\n"
                 "        buf1 = torch.ops.aten.nonzero.default(arg0_1); buf2 = buf1\n"
                 "        u1 = buf2.size(0)\n");
  EXPECT_HAS(py, "u2 = (1 if arg1_1.item() else 0)");
  std::string fx = graphOf(text);
  EXPECT_HAS(fx, "%u0 : [num_users=2] = call_function[target=torch.ops.aten.item.default](args = "
                 "(%buf0,)");
  EXPECT_HAS(fx, "[target=torch.ops.aten._assert_scalar.default](args = (%ge, 'u0 >= 0')");
  EXPECT_HAS(fx, "{op: torch.ops.aten.nonzero.default, inputs: (%arg0_1,)})");
  EXPECT_HAS(fx, "%u1 : [num_users=2] = call_function[target=torch.ops.aten.sym_size.int](args = "
                 "(%buf1, 0)");
  EXPECT_HAS(fx, "%u2 : [num_users=1] = call_function[target=torch.sym_ite](args = (%item, 1, 0)");
  EXPECT_HAS(fx, "return (buf1, add)");
}

TEST(InductorCppWrapperForms, DispatcherAndPythonFallbacks) {
  // Ops without a C shim: aoti_torch_call_dispatcher (StableIValue arguments, results read back
  // from dispatch_vars) and, for argument types StableIValue cannot hold (a list of tensors),
  // Python through custom_op_wrapper (its loading and error checks carry nothing).
  std::string fx = graphOf(snippet(R"(
    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 2);
    auto arg0_1 = std::move(inputs[0]);
    auto arg1_1 = std::move(inputs[1]);
    AOTICudaGuard device_guard(0);
    RAIIAtenTensorHandle buf1;
    RAIIAtenTensorHandle buf2;
    {
        AtenTensorHandle tmp_var_0;
        aoti_torch_new_tensor_handle(arg0_1, &tmp_var_0);
        std::array<StableIValue, 4> dispatch_vars{torch::stable::detail::from(tmp_var_0), torch::stable::detail::from(1), torch::stable::detail::from(1), torch::stable::detail::from(0)};
        AOTI_TORCH_ERROR_CODE_CHECK(
            aoti_torch_call_dispatcher("aten::_unique2", "", dispatch_vars.data())
        );
        buf1 = torch::stable::detail::to<AtenTensorHandle>(dispatch_vars[0]);
        buf2 = torch::stable::detail::to<AtenTensorHandle>(dispatch_vars[1]);
    }
    RAIIPyObject custom_op_wrapper;
    {
        py::gil_scoped_acquire_simple acquire;

        RAIIPyObject codecache_module(PyImport_ImportModule("torch._inductor.codecache"));
        if (!codecache_module) {
            throw std::runtime_error("Failed to load torch._inductor.codecache");
        }
        custom_op_wrapper = PyObject_GetAttrString(codecache_module, "custom_op_wrapper");
        if (!custom_op_wrapper) {
            throw std::runtime_error("Failed to load torch._inductor.codecache.custom_op_wrapper");
        }
    }
    RAIIAtenTensorHandle buf4;
    {
        py::gil_scoped_acquire_simple acquire;

        RAIIPyObject py_args_0(PyTuple_New(4));
        if (!py_args_0) {
            throw std::runtime_error("PyTuple_New py_args_0 failed");
        }
        PyTuple_SetItem(py_args_0, 0, PyUnicode_FromString("torch.ops.mylib.cat3.default"));
        PyObject* py_args_0_1 = PyList_New(2);
        PyList_SetItem(py_args_0_1, 0, PyCapsule_New(reinterpret_cast<void*>(buf1.get()), NULL, NULL));
        PyList_SetItem(py_args_0_1, 1, PyCapsule_New(reinterpret_cast<void*>(arg1_1.get()), NULL, NULL));
        PyTuple_SetItem(py_args_0, 1, py_args_0_1);
        PyTuple_SetItem(py_args_0, 2, PyFloat_FromDouble(0.5));
        Py_INCREF(Py_None);
        PyTuple_SetItem(py_args_0, 3, Py_None);

        // Call the custom op in Python
        RAIIPyObject py_buf3(PyObject_CallObject(custom_op_wrapper, py_args_0));
        if (!py_buf3) {
            if (PyErr_Occurred()) {
                return;
            }
            throw std::runtime_error("PyObject_CallObject torch.ops.mylib.cat3.default failed");
        }
        buf4 = reinterpret_cast<AtenTensorHandle>(PyCapsule_GetPointer(py_buf3.get(), NULL));

    }
    arg0_1.reset();
    output_handles[0] = buf4.release();
    output_handles[1] = buf2.release();
)"));
  // _unique2(self, sorted=True, return_inverse=False, return_counts=False): 1, 1, 0.
  EXPECT_HAS(fx, "%buf0 : [num_users=3] = call_function[target=fxkit.extern](args = (), kwargs = "
                 "{op: torch.ops.aten._unique2.default, inputs: (%arg0_1, True, True)})");
  EXPECT_HAS(fx,
             "%buf2 : [num_users=1] = call_function[target=operator.getitem](args = (%buf0, 1)");
  EXPECT_HAS(fx, "%buf3 : [num_users=1] = call_function[target=fxkit.extern](args = (), kwargs = "
                 "{op: torch.ops.mylib.cat3.default, inputs: ([%buf1, %arg1_1], 0.5, None)})");
  EXPECT_HAS(fx, "return (buf3, buf2)");
}

TEST(InductorCppWrapperForms, InPlaceFallbacksCopiesAndZeroing) {
  // ScatterFallback and IndexPutFallback (plain calls, not wrapped in the error check; strings
  // and ints for bools), a copy to the CPU, and a workspace's zeroing.
  std::string fx = graphOf(snippet(R"(
    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 2);
    auto arg0_1 = std::move(inputs[0]);
    auto arg1_1 = std::move(inputs[1]);
    AOTICudaGuard device_guard(0);
    static constexpr int64_t int_array_0[] = {8L, 4L};
    static constexpr int64_t int_array_1[] = {4L, 1L};
    AtenTensorHandle buf0_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_0, int_array_1, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf0_handle));
    RAIIAtenTensorHandle buf0(buf0_handle);
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_zero_(buf0.get()));
    aoti_torch_cuda_scatter_reduce_two_out(buf0, buf0,0,arg1_1,arg0_1, "mean",0);
    aoti_torch_cuda_index_put_out(buf0, buf0, std::array<AtenTensorHandle, 1>{arg1_1}.cbegin(), 1, arg0_1, 1);
    AtenTensorHandle buf1_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_0, int_array_1, cached_torch_dtype_float32, cached_torch_device_type_cpu,  0, &buf1_handle));
    RAIIAtenTensorHandle buf1(buf1_handle);
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_copy_(buf1, buf0, 0));
    output_handles[0] = buf0.release();
    output_handles[1] = buf1.release();
)"));
  EXPECT_HAS(fx, "{op: torch.ops.aten.zero_.default, inputs: (%buf0,)})");
  EXPECT_HAS(fx, "{op: torch.ops.aten.scatter_reduce_.two, inputs: (%buf0, 0, %arg1_1, %arg0_1), "
                 "options: {reduce: mean, include_self: False}})");
  EXPECT_HAS(fx, "{op: torch.ops.aten.index_put_, inputs: (%buf0, [%arg1_1], %arg0_1, True)})");
  EXPECT_HAS(fx, "kwargs = {dtype: torch.float32, device: cpu})");
  EXPECT_HAS(fx, "{op: torch.ops.aten.copy_.default, inputs: (%buf1, %buf0, False)})");
}

TEST(InductorCppWrapperForms, ExternKernelsWithOutArguments) {
  // ExternKernelOut through the C shim: (out, args..) in C, `out=` in Python; addmm and baddbmm
  // pass beta before alpha; an out view (`auto buf0_as_strided = ..`) is written inline; an
  // `.out` overload the schema knows (randint.low_out) puts its out first.
  std::string py = pythonOf(snippet(R"(
    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 3);
    auto arg0_1 = std::move(inputs[0]);
    auto arg1_1 = std::move(inputs[1]);
    auto arg2_1 = std::move(inputs[2]);
    AOTICudaGuard device_guard(0);
    static constexpr int64_t int_array_0[] = {4L, 4L};
    static constexpr int64_t int_array_1[] = {4L, 1L};
    AtenTensorHandle buf0_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_0, int_array_1, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf0_handle));
    RAIIAtenTensorHandle buf0(buf0_handle);
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_addmm_out(buf0, arg2_1, arg0_1, arg1_1, 1L, 2L));
    auto buf0_as_strided = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf0, 2, int_array_0, int_array_1, 0L));
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_mm_out(buf0_as_strided, arg0_1, arg1_1));
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_randint_low_out(buf0, -8L, 8L, std::array<int64_t, 2>{4L, 4L}.cbegin(), 2));
    output_handles[0] = buf0.release();
)"));
  EXPECT_HAS(py, "extern_kernels.addmm(arg2_1, arg0_1, arg1_1, alpha=2, beta=1, out=buf0)");
  EXPECT_HAS(py, "extern_kernels.mm(arg0_1, arg1_1, out=reinterpret_tensor(buf0, (4, 4), (4, 1), "
                 "0))");
  EXPECT_HAS(py, "torch.ops.aten.randint.low_out(-8, 8, [4, 4], out=buf0)");
}

TEST(InductorCppWrapperForms, KernelsOfTheCpuWrapper) {
  // cpp_wrapper_cpu: `extern "C"` kernels defined in the C++ source become the Python wrapper's
  // cpp_pybinding kernels, launched with their tensors' data pointers.
  std::string prelude = R"(
extern "C"  void  cpp_fused_relu_0(float* in_out_ptr0,
                       const int64_t ks0)
{
    for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(ks0); x0+=static_cast<int64_t>(1L))
    {
        in_out_ptr0[x0] = std::max(in_out_ptr0[x0], 0.0f);
    }
}
)";
  std::string text = snippet(R"(
    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 2);
    auto arg0_1 = std::move(inputs[0]);
    auto arg1_1 = std::move(inputs[1]);
    static constexpr int64_t int_array_0[] = {4L, 4L};
    static constexpr int64_t int_array_1[] = {4L, 1L};
    AtenTensorHandle buf0_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_0, int_array_1, cached_torch_dtype_float32, cached_torch_device_type_cpu,  0, &buf0_handle));
    RAIIAtenTensorHandle buf0(buf0_handle);
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cpu_mm_out(buf0, arg0_1, arg1_1));
    cpp_fused_relu_0((float*)(buf0.data_ptr()), 16L);
    output_handles[0] = buf0.release();
)",
                             prelude);
  std::string py = pythonOf(text);
  EXPECT_HAS(py, "cpp_fused_relu_0 = async_compile.cpp_pybinding(['float*', 'const int64_t'], "
                 "r'''\nextern \"C\"  void  cpp_fused_relu_0(float* in_out_ptr0,");
  EXPECT_HAS(py, "    cpp_fused_relu_0(buf0, 16)\n");
  auto w = importInductorCppWrapper(text, "w.py");
  ASSERT_TRUE(w) << w.error().str();
  std::string fx = printFxText(w->graph);
  EXPECT_HAS(fx, "{op: extern_kernels.mm, inputs: (%arg0_1, %arg1_1), out: [%buf0]})");
  EXPECT_HAS(fx, "{name: cpp_fused_relu_0, args: {in_out_ptr0: %buf0, ks0: 16}})");
  bool found = false;
  for (const auto &k : w->info->kernels)
    if (k.name == "cpp_fused_relu_0") {
      found = true;
      EXPECT_EQ(k.kind, inductor::InductorKernel::Kind::Cpp);
      EXPECT_EQ(k.params.size(), 2u);
    }
  EXPECT_TRUE(found);
}

TEST(InductorCppWrapperForms, ProfilingDebugAndScopesCarryNothing) {
  // enable_kernel_profile's scopes (a raw string across lines), the wrapper's record function,
  // the debug printer, nan_asserts: the graph is that of the program without them.
  std::string plain = R"(
    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 2);
    auto arg0_1 = std::move(inputs[0]);
    auto arg1_1 = std::move(inputs[1]);
    AOTICudaGuard device_guard(0);
    static constexpr int64_t int_array_0[] = {4L, 8L};
    static constexpr int64_t int_array_1[] = {8L, 1L};
    AtenTensorHandle buf0_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_0, int_array_1, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf0_handle));
    RAIIAtenTensorHandle buf0(buf0_handle);
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_mm_out(buf0, arg0_1, arg1_1));
    arg0_1.reset();
    arg1_1.reset();
    output_handles[0] = buf0.release();
)";
  std::string noisy = R"cpp(
    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 2);
    auto arg0_1 = std::move(inputs[0]);
    auto arg1_1 = std::move(inputs[1]);
    aoti_torch_print_tensor_handle(arg0_1, "aoti_model_inputs - arg0_1");
    RAIIAtenRecordFunctionHandle record_inductor_wrapper_call_("inductor_wrapper_call", nullptr);
    /* the device's guard */
    AOTICudaGuard device_guard(0);
    static constexpr int64_t int_array_0[] = {4L, 8L};
    static constexpr int64_t int_array_1[] = {8L, 1L};
    AtenTensorHandle buf0_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_0, int_array_1, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf0_handle));
    RAIIAtenTensorHandle buf0(buf0_handle);
    {
    KernelContextGuard _ctx("aoti_torch_cuda_mm_out", R"(
  File "model.py", line 3, in f
    return x @ w
)");
    RAIIAtenRecordFunctionHandle record_aoti_torch_cuda_mm_out_("aoti_torch_cuda_mm_out", nullptr);
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_mm_out(buf0, arg0_1, arg1_1));
    }
    printf("[  after_launch - mm - 64L: %ld  ]", 64L); printf("\\n");
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_check_inf_and_nan("buf0", buf0));
    arg0_1.reset();
    arg1_1.reset();
    output_handles[0] = buf0.release();
)cpp";
  std::string a = graphOf(snippet(plain)), b = graphOf(snippet(noisy));
  EXPECT_EQ(a, b);
  EXPECT_HAS(a, "{op: extern_kernels.mm, inputs: (%arg0_1, %arg1_1), out: [%buf0]})");
}

TEST(InductorCppWrapperForms, ControlFlowTranslatesToPython) {
  // torch.cond and while_loop inline their subgraphs in C++ (cpp_wrapper_cpu's
  // codegen_conditional / codegen_while_loop); they become Python if/else and while blocks
  // (whether a graph builder accepts them is the Python importer's matter).
  std::string py = pythonOf(snippet(R"(
    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 2);
    auto arg0_1 = std::move(inputs[0]);
    auto arg1_1 = std::move(inputs[1]);
    AOTICudaGuard device_guard(0);
    RAIIAtenTensorHandle buf3;
    bool buf1_scalar;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_item_bool(arg1_1, &buf1_scalar));
    if (buf1_scalar) {
        // subgraph: true_graph_0
        AtenTensorHandle true_graph_0_arg0_1_handle;
        AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_assign_tensors_out(arg0_1, &true_graph_0_arg0_1_handle));
        RAIIAtenTensorHandle true_graph_0_arg0_1(true_graph_0_arg0_1_handle);
        buf3.reset();
        buf3 = std::move(true_graph_0_arg0_1);
    } else {
    }
    bool while_loop_0_cond_result;
    while (1) {
        while_loop_0_cond_result = false;
        if (!while_loop_0_cond_result) break;
    }
    output_handles[0] = buf3.release();
)"));
  EXPECT_HAS(py, "    with torch.cuda._DeviceGuard(0):\n"
                 "        if arg1_1.item():\n"
                 "            # subgraph: true_graph_0\n"
                 "            true_graph_0_arg0_1 = arg0_1\n"
                 "            buf3 = true_graph_0_arg0_1\n"
                 "        else:\n"
                 "            pass\n"
                 "        while True:\n"
                 "            while_loop_0_cond_result = False\n"
                 "            if not while_loop_0_cond_result:\n"
                 "                break\n"
                 "    return (buf3, )\n");
}

TEST(InductorCppWrapperForms, AllocationsPoolsAndDescriptors) {
  // A storage larger than its layout (aoti_torch_as_strided after the allocation), memory
  // planning's pools (aoti_torch__alloc_from_pool), a dtype view, a TMA descriptor of a
  // user-defined Triton kernel, and AOT mode's proxy executor.
  std::string py = pythonOf(snippet(R"(
    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 2);
    auto arg0_1 = std::move(inputs[0]);
    auto arg1_1 = std::move(inputs[1]);
    AOTICudaGuard device_guard(0);
    static constexpr int64_t int_array_0[] = {16L, };
    static constexpr int64_t int_array_1[] = {1L, };
    static constexpr int64_t int_array_2[] = {4L, 3L};
    static constexpr int64_t int_array_3[] = {3L, 1L};
    AtenTensorHandle buf0_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_0, int_array_3, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf0_handle));
    AtenTensorHandle buf0_handle_restrided;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_as_strided(buf0_handle, int_array_2, int_array_3, &buf0_handle_restrided));
    RAIIAtenTensorHandle buf0(buf0_handle_restrided);
    AtenTensorHandle pool1_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(1, int_array_0, int_array_1, cached_torch_dtype_uint8, cached_torch_device_type_cuda,  0, &pool1_handle));
    RAIIAtenTensorHandle pool1(pool1_handle);
    AtenTensorHandle tmp_tensor_handle_0;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch__alloc_from_pool(pool1, 0, cached_torch_dtype_float32, 2, int_array_2, int_array_3, &tmp_tensor_handle_0));
    auto buf1 = RAIIAtenTensorHandle(tmp_tensor_handle_0);
    AtenTensorHandle tmp_buf1_1;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_view_dtype(buf1, cached_torch_dtype_int32, &tmp_buf1_1));
    CUdeviceptr var_2 = reinterpret_cast<CUdeviceptr>(arg0_1.data_ptr());
    alignas(64) CUtensorMap desc_0;
    init1DTMADescriptor(&desc_0, reinterpret_cast<void*>(*(&var_2)), 100, 32, 4);
    aoti_torch_proxy_executor_call_function(proxy_executor, 0, 1, std::array<int64_t, 1>{3L}.data(), 2, std::array<AtenTensorHandle, 2>{arg0_1, buf1}.data());
    auto var_3 = RAIIAtenTensorHandle(tmp_buf1_1);
    output_handles[0] = buf0.release();
    output_handles[1] = var_3.release();
)"));
  EXPECT_HAS(py, "buf0 = empty_strided_cuda((16,), (3, 1), torch.float32).as_strided((4, 3), "
                 "(3, 1))\n");
  EXPECT_HAS(py, "buf1 = alloc_from_pool(pool1, 0, torch.float32, (4, 3), (3, 1))\n");
  EXPECT_HAS(py, "desc_0 = triton.tools.experimental_descriptor.create_1d_tma_descriptor("
                 "arg0_1.data_ptr(), 100, 32, 4)\n");
  EXPECT_HAS(py, "torch.ops.aot_inductor.proxy_executor_call_function.default(0, [3], "
                 "[arg0_1, buf1])\n");
  EXPECT_HAS(py, "return (buf0, aten.view.dtype(buf1, torch.int32), )");
}

TEST(InductorCppWrapperForms, ExpressionsOfTheCppPrinter) {
  // cexpr's spellings of sympy (codegen/cpp_utils.py CppPrinter) in Python's: casts dropped or
  // int()/float(), FloorDiv, Min/Max (two operands or a braced list), the ternary, math
  // functions, numeric limits, boolean operators, integer and float division.
  std::string py = pythonOf(snippet(R"(
    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 2);
    int64_t arg0_1;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_item_int64(inputs[0], &arg0_1));
    double arg1_1;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_item_float64(inputs[1], &arg1_1));
    int64_t s0 = arg0_1;
    int64_t ps0 = c10::div_floor_integer(static_cast<int64_t>(7L + s0), static_cast<int64_t>(8L));
    int64_t ps1 = std::max(static_cast<int64_t>(1L), static_cast<int64_t>(s0 + (-1L)*(s0 % 8L)));
    int64_t ps2 = std::min({s0, 4L, ps0});
    int64_t ps3 = s0 > 4L && !(s0 == 7L) ? s0 / 2L : 0L;
    double ps4 = std::sqrt(static_cast<double>(s0)) / 2.0 + std::numeric_limits<double>::infinity();
    int64_t ps5 = static_cast<int64_t>(std::floor(arg1_1 * 2.5));
    int64_t ps6 = 0x10 - 1e+1;
    output_handles[0] = scalar_to_tensor_handle(ps1).release();
)"));
  EXPECT_HAS(py, "ps0 = ((7 + s0) // 8)\n");
  EXPECT_HAS(py, "ps1 = max(1, s0 + -1*(s0%8))\n");
  EXPECT_HAS(py, "ps2 = min(s0, 4, ps0)\n");
  EXPECT_HAS(py, "ps3 = (s0//2 if (s0 > 4) and not (s0 == 7) else 0)\n");
  EXPECT_HAS(py, "ps4 = math.sqrt(float(s0))/2.0 + math.inf\n");
  EXPECT_HAS(py, "ps5 = math.floor(arg1_1*2.5)\n");
  EXPECT_HAS(py, "ps6 = 16 - 1e+1\n");
  EXPECT_HAS(py, "return (ps1, )");
}

TEST(InductorCppWrapperForms, EveryCapturedFormReads) {
  // The C++ wrappers PyTorch 2.11 wrote for programs that exercise every codegen path
  // (tests/data/inductor-cpp-wrapper/PROVENANCE.md). Each translates; each the Python importer
  // accepts gives the same kernels, allocations and extern calls as the Python wrapper of the
  // same compile, most the same graph.
  std::vector<fs::path> files = cppWrapperFiles(formsDir());
  EXPECT_EQ(files.size(), 18u);
  // Translated, but what they become the Python importer does not read yet (control flow,
  // memory planning's alloc_from_pool, the int64 minimum as a literal, a user kernel's grid
  // arguments); their Python wrappers fail alike.
  const std::set<std::string> pythonSide = {"g_cond", "g_memplan", "g_random_externs",
                                            "g_user_triton"};
  // The same graph as the Python wrapper, up to what only Python has (input assertions).
  const std::set<std::string> same = {"cpu_dyn",        "g_scalars",    "g_scatter",
                                      "g_views_copies", "g_dyn_reduce", "bert_dyn"};
  size_t read = 0, compared = 0;
  for (const fs::path &p : files) {
    SCOPED_TRACE(p.string());
    std::string text = readFile(p);
    std::string name = p.parent_path().filename().string();
    auto py = translateInductorCppWrapper(text, p.string());
    ASSERT_TRUE(py) << py.error().str();
    if (pythonSide.count(name))
      continue;
    auto w = importInductorCppWrapper(text, p.string());
    ASSERT_TRUE(w) << w.error().str();
    EXPECT_TRUE(verifyGraph(w->graph));
    ++read;
    fs::path pyFile = p.parent_path() / ("output_code_" + p.filename().string().substr(12));
    auto pw = importInductorWrapper(readFile(pyFile), pyFile.string());
    if (!pw)
      continue; // the debug printer's and nan_asserts' Python
    for (std::string_view target : {"fxkit.kernel", "torch.empty_strided", "fxkit.extern"})
      EXPECT_EQ(countTarget(w->graph, target), countTarget(pw->graph, target)) << target;
    if (same.count(name))
      EXPECT_EQ(comparable(w->graph), comparable(pw->graph));
    ++compared;
  }
  EXPECT_EQ(read, 14u);
  EXPECT_EQ(compared, 12u);
}

TEST(InductorCppWrapperForms, CapturedFallbacksBindTheirArguments) {
  // aoti_torch_cuda__embedding_bag_forward_only(w, idx, off, 0, 1L, 0, nullptr, 0, -1L, ..):
  // the Python wrapper's `(w, idx, off, False, 1)`; convolution_backward's optional list,
  // int32 bool list and nullptr result; cudnn attention's int results (`int64_t buf0_4 = 64;`)
  // name the fallback's buffer.
  std::string fx = graphOf(readFile(formsDir() / "g_fallbacks" / "cpp_wrapper_0.py"));
  EXPECT_HAS(fx, "{op: torch.ops.aten._embedding_bag_forward_only.default, inputs: (%arg0_1, "
                 "%arg2_1, %buf6, False, 1)");
  EXPECT_HAS(fx, "{op: torch.ops.aten.topk.default, inputs: (%arg0_1, 3)");
  fx = graphOf(readFile(formsDir() / "g_conv_train" / "cpp_wrapper_1.py"));
  EXPECT_HAS(fx, "{op: torch.ops.aten.convolution_backward.default, inputs: (%buf0, %relu, "
                 "%primals_9, [4], [2, 2], [0, 0], [1, 1], False, [0, 0], 1, [True, True, "
                 "False])");
  fx = graphOf(readFile(formsDir() / "g_sdpa_bf16" / "cpp_wrapper_0.py"));
  EXPECT_HAS(fx, "%buf0 : [num_users=2] = call_function[target=fxkit.extern](args = (), kwargs = "
                 "{op: torch.ops.aten._scaled_dot_product_cudnn_attention.default, inputs: "
                 "(%arg0_1, %arg1_1, %arg2_1, None, False, 0.0, True)");
}

TEST(InductorCppWrapperErrors, MalformedEntryFunctionsAreLocated) {
  auto at = [](const std::string &body) { return firstLine(snippet(body)); };
  std::string head = "    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 1);\n"
                     "    auto arg0_1 = std::move(inputs[0]);\n";
  // The body starts on line 66 of the golden module.
  EXPECT_EQ(at(head + "    auto = 3;\n"), "w.py:68:10: error: expected a name in the declaration, "
                                          "found '='");
  EXPECT_EQ(at(head + "    if (arg0_1 {\n    }\n"), "w.py:68:16: error: expected ')' after the "
                                                    "condition, found '{'");
  EXPECT_EQ(at(head + "    aoti_torch_frobnicate(arg0_1);\n"),
            "w.py:68:5: error: unsupported call 'aoti_torch_frobnicate' in inductor_entry_impl");
  EXPECT_EQ(at(head + "    RAIIAtenTensorHandle buf0(buf0_handle);\n"),
            "w.py:68:31: error: 'buf0_handle' is used before it is set");
  EXPECT_EQ(at(head + "    goto out;\n"), "w.py:68:5: error: unsupported 'goto' statement");
  EXPECT_EQ(at(head + "    printf(\"unterminated);\n"),
            "w.py:68:12: error: unterminated string literal");
  EXPECT_EQ(at(head + "    {\n    output_handles[0] = arg0_1.release();\n"),
            "w.py:70:1: error: missing '}'");
  EXPECT_EQ(at(head + "    auto buf1 = std::move(arg0_1);  // reuse\n"
                      "    auto buf2 = std::move(arg0_1);  // reuse\n"),
            "w.py:69:27: error: 'arg0_1' is used after it was moved or freed");
  EXPECT_EQ(at(head + "    output_handles[0] = arg0_1;\n"),
            "w.py:68:5: error: expected 'output_handles[i] = x.release()'");
  EXPECT_EQ(
      at(head + "    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_topk(arg0_1, 3L, &b_handle));\n"),
      "w.py:68:33: error: aoti_torch_cuda_topk: too few arguments for "
      "torch.ops.aten.topk.default (at 'largest')");
}

TEST(InductorCppWrapperForms, OlderAndRarerForms) {
  // Inputs taken straight from input_handles (older wrappers), the shim behind
  // reinterpret_tensor_wrapper, a thread_local static, a counted loop and a compound
  // assignment: a for loop becomes its init and a while loop with the step at its end.
  std::string text = snippet(R"(
    auto inputs = alloc_tensors_by_stealing_from_handles(input_handles, 2);
    RAIIAtenTensorHandle arg0_1(input_handles[0]);
    auto arg1_1 = std::move(inputs[1]);
    static thread_local int64_t calls = 0L;
    static constexpr int64_t int_array_0[] = {8L, 4L};
    static constexpr int64_t int_array_1[] = {1L, 8L};
    AtenTensorHandle tmp_tensor_handle_0;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch__reinterpret_tensor(arg0_1, 2, int_array_0, int_array_1, 0L, &tmp_tensor_handle_0));
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cpu_mm_out(arg1_1, RAIIAtenTensorHandle(tmp_tensor_handle_0), arg1_1));
    for (int64_t i = 0L; i < 3L; i++) {
        calls += i;
    }
    output_handles[0] = arg1_1.release();
)");
  std::string py = pythonOf(text);
  EXPECT_HAS(py, "    arg0_1, arg1_1 = args\n    calls = 0\n"
                 "    extern_kernels.mm(reinterpret_tensor(arg0_1, (8, 4), (1, 8), 0), arg1_1, "
                 "out=arg1_1)\n"
                 "    i = 0\n    while i < 3:\n        calls = calls + i\n        i = i + 1\n");
  // The Python importer reads no loops of call(); where it refuses one, the error names the
  // C++ loop.
  std::string line = firstLine(text);
  EXPECT_TRUE(line == "imported" || line.starts_with("w.py:76:5: error: ")) << line;
}
