/// Importing Inductor's Python wrapper code (output_code.py) into wrapper IR: every such file of
/// the corpus imports and its graph agrees with facts counted from the text and from meta.json;
/// a hand-written wrapper gives a pinned FX text; bad input fails with file:line:col.
#include "importers/inductor/InductorWrapper.h"

#include "exporters/FxTextPrinter.h"
#include "exporters/wrapper/InductorFxIr.h"
#include "importers/FxTextParser.h"
#include "importers/Import.h"
#include "ir/Verifier.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <set>
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

bool isWrapperFile(const fs::path &p) {
  std::string name = p.filename().string();
  bool py = name.ends_with(".py");
  return py && (name.starts_with("output_code_") || name.starts_with("cpu_output_code_") ||
                (name == "output_code.py" && p.parent_path().parent_path().filename() == "debug"));
}

/// Every wrapper file under `root` (a corpus folder), sorted; empty when root is absent.
std::vector<fs::path> wrapperFiles(const fs::path &root) {
  std::vector<fs::path> out;
  std::error_code ec;
  if (!fs::is_directory(root, ec))
    return out;
  for (const auto &e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file() && isWrapperFile(e.path()))
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

fs::path testCorpus() { return fs::path(FXKIT_TEST_DATA) / "corpus" / "inductor"; }
/// The shared corpus next to the repository (`../shared/corpus`), when this checkout has one.
fs::path sharedCorpus() {
  return fs::path(FXKIT_TEST_DATA).parent_path().parent_path().parent_path() / "shared" / "corpus" /
         "inductor";
}

/// The text of `def call(...)` up to the line that ends it (`runner = ...` or a top-level line).
std::string callBody(const std::string &text) {
  size_t start = text.find("def call(");
  if (start == std::string::npos)
    return {};
  size_t end = text.find("\nrunner = ", start);
  if (end == std::string::npos)
    end = text.find("\ndef ", start + 1);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

/// Elements of the `return (...)` tuple, counted on the text by bracket depth.
size_t returnedCount(const std::string &body) {
  size_t at = body.rfind("return (");
  if (at == std::string::npos)
    return 0;
  size_t depth = 0, items = 0;
  bool pending = false;
  for (size_t i = at + 7; i < body.size(); ++i) {
    char c = body[i];
    if (c == '(' || c == '[') {
      if (depth == 1)
        pending = true;
      ++depth;
    } else if (c == ')' || c == ']') {
      if (--depth == 0)
        break;
    } else if (c == ',' && depth == 1) {
      items += pending;
      pending = false;
    } else if (depth == 1 && c != ' ') {
      pending = true;
    }
  }
  return items + pending;
}

size_t countTarget(const Graph &g, std::string_view target) {
  return static_cast<size_t>(
      std::count_if(g.begin(), g.end(), [&](const Node *n) { return n->target() == target; }));
}

/// An allocation's storage ends in a free or in the outputs, through its views and reuses.
bool reachesFreeOrOutput(const Node *n) {
  std::vector<const Node *> work{n};
  std::set<const Node *> seen;
  while (!work.empty()) {
    const Node *x = work.back();
    work.pop_back();
    if (!seen.insert(x).second)
      continue;
    for (const Node *u : x->users()) {
      if (u->target() == "fxkit.free" || u->op() == OpKind::Output)
        return true;
      if (u->target() == "torch.as_strided" && u->args().items()[0].isNode() &&
          u->args().items()[0].asNode() == x)
        work.push_back(u);
    }
  }
  return false;
}

int metaCount(const fs::path &dir, const std::string &key) {
  std::string meta = readFile(dir / "meta.json");
  std::smatch m;
  if (!std::regex_search(meta, m, std::regex("\"" + key + "\": ([0-9]+)")))
    return -1;
  return std::stoi(m[1]);
}

void checkCorpusFile(const fs::path &path) {
  SCOPED_TRACE(path.string());
  std::string text = readFile(path);
  EXPECT_TRUE(looksLikeInductorWrapper(text));
  EXPECT_EQ(detectGraphFormat(path.string(), text), GraphFormat::InductorPy);
  auto w = importInductorWrapper(text, path.string());
  ASSERT_TRUE(w) << w.error().str();
  const Graph &g = w->graph;
  ASSERT_TRUE(verifyGraph(g));
  // Launches: one fxkit.kernel per `.run(` (Triton) or direct call (C++) in call().
  std::string body = callBody(text);
  size_t launches = 0;
  for (size_t at = body.find(".run("); at != std::string::npos; at = body.find(".run(", at + 1))
    ++launches;
  for (const auto &k : w->info->kernels)
    if (k.kind == inductor::InductorKernel::Kind::Cpp)
      for (size_t at = body.find(" " + k.name + "("); at != std::string::npos;
           at = body.find(" " + k.name + "(", at + 1))
        ++launches;
  EXPECT_EQ(countTarget(g, "fxkit.kernel"), launches);
  // Kernel definitions: as many as async_compile defines; meta.json counts output_code_0.py's.
  size_t defs = 0;
  for (const char *marker : {"async_compile.triton(", "async_compile.cpp_pybinding("})
    for (size_t at = text.find(marker); at != std::string::npos; at = text.find(marker, at + 1))
      ++defs;
  EXPECT_EQ(w->info->kernels.size(), defs);
  std::string name = path.filename().string();
  if (name.starts_with("output_code_")) {
    int triton = metaCount(path.parent_path(), "triton_kernel_defs");
    if (triton >= 0) {
      EXPECT_EQ(static_cast<int>(w->info->kernels.size()), triton);
    }
    // meta.json counts every `extern_kernels.` mention: the call and its provenance comment.
    int externs = metaCount(path.parent_path(), "extern_calls");
    size_t calls = 0;
    for (const Node *n : g)
      if (n->target() == "fxkit.extern" &&
          n->kwargs().find("op")->asString().starts_with("extern_kernels."))
        ++calls;
    if (externs >= 0) {
      EXPECT_EQ(static_cast<int>(2 * calls), externs);
    }
  }
  for (const auto &k : w->info->kernels) {
    EXPECT_FALSE(k.params.empty()) << k.name;
    EXPECT_FALSE(k.source.empty()) << k.name;
    for (const auto &p : k.params) {
      EXPECT_FALSE(p.name.empty() || p.type.empty()) << k.name;
    }
  }
  // Every allocation is freed or returned.
  for (const Node *n : g)
    if (n->target() == "torch.empty_strided") {
      EXPECT_TRUE(reachesFreeOrOutput(n)) << n->name();
    }
  // Outputs: as many as the return tuple has.
  const Node *out = g.outputNode();
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->args().items()[0].items().size(), returnedCount(body));
  // The FX text form re-parses to the same text.
  std::string fx = printFxText(g);
  auto again = parseFxText(fx, "reparsed");
  ASSERT_TRUE(again) << again.error().str();
  EXPECT_EQ(printFxText(*again), fx);
}

TEST(InductorWrapperCorpus, EveryWrapperFileOfTheTestCorpusImports) {
  std::vector<fs::path> files = wrapperFiles(testCorpus());
  // 10 workloads: output_code_0.py, two debug dumps each, and 4 CPU variants.
  EXPECT_EQ(files.size(), 34u);
  for (const fs::path &p : files)
    checkCorpusFile(p);
}

TEST(InductorWrapperCorpus, EveryWrapperFileOfTheSharedCorpusImports) {
  std::vector<fs::path> files = wrapperFiles(sharedCorpus());
  if (files.empty())
    GTEST_SKIP() << "no shared corpus at " << sharedCorpus();
  for (const fs::path &p : files)
    checkCorpusFile(p);
}

TEST(InductorWrapperCorpus, KernelSignaturesAndProvenance) {
  fs::path path = testCorpus() / "dynamic_broadcast" / "output_code_0.py";
  auto w = importInductorWrapper(readFile(path), path.string());
  ASSERT_TRUE(w) << w.error().str();
  ASSERT_EQ(w->info->kernels.size(), 1u);
  const auto &k = w->info->kernels[0];
  EXPECT_EQ(k.name, "triton_red_fused_add_mul_sum_unsqueeze_0");
  EXPECT_EQ(k.heuristic, "reduction");
  EXPECT_EQ(k.deviceStr, "cuda");
  ASSERT_EQ(k.params.size(), 10u);
  EXPECT_EQ(k.params[0].name, "in_out_ptr0");
  EXPECT_EQ(k.params[0].type, "*fp32");
  EXPECT_EQ(k.params[9].name, "R0_BLOCK");
  EXPECT_TRUE(k.params[9].isConstexpr());
  EXPECT_EQ(k.runtimeParamCount(), 8u);
  EXPECT_EQ(k.mutatedArgs, std::vector<std::string>{"in_out_ptr0"});
  EXPECT_EQ(k.sourceNodes,
            (std::vector<std::string>{"unsqueeze", "unsqueeze_1", "add", "sum_1", "mul"}));
  EXPECT_EQ(k.atenOps,
            (std::vector<std::string>{"aten.unsqueeze", "aten.add", "aten.sum", "aten.mul"}));
  EXPECT_TRUE(k.source.find("def triton_red_fused_add_mul_sum_unsqueeze_0(") != std::string::npos);
  EXPECT_EQ(w->info->aotId, "0_inference");
  ASSERT_EQ(w->info->exampleInputs.size(), 5u);
  EXPECT_EQ(w->info->exampleInputs[0].integer, 33);
  // Placeholders are named by the symbols they bind; tensors get their symbolic layout.
  std::string fx = printFxText(w->graph, FxTextOptions{true});
  EXPECT_NE(fx.find("%s77 : Sym(s77)[num_users="), std::string::npos) << fx;
  EXPECT_NE(fx.find("%arg2_1 : Tensor \"f32[s77, s27][s27, 1]cuda:0\""), std::string::npos) << fx;
  EXPECT_NE(
      fx.find("%triton_red_fused_add_mul_sum_unsqueeze_0_xnumel : Sym(s17*s77)[num_users=1] = "
              "call_function[target=operator.mul](args = (%s17, %s77), kwargs = {})"),
      std::string::npos)
      << fx;
  // The C++ variant: parameter names from the extern "C" signature.
  fs::path cpu = testCorpus() / "dynamic_broadcast" / "cpu_output_code_0.py";
  auto c = importInductorWrapper(readFile(cpu), cpu.string());
  ASSERT_TRUE(c) << c.error().str();
  ASSERT_EQ(c->info->kernels.size(), 1u);
  const auto &ck = c->info->kernels[0];
  EXPECT_EQ(ck.kind, inductor::InductorKernel::Kind::Cpp);
  ASSERT_EQ(ck.params.size(), 6u);
  EXPECT_EQ(ck.params[0].name, "in_out_ptr0");
  EXPECT_EQ(ck.params[0].type, "float*");
  EXPECT_EQ(ck.params[5].name, "ks2");
  EXPECT_EQ(ck.params[5].type, "const int64_t");
  // Buffers call() neither returns nor deletes die when it returns: explicit frees there.
  fs::path softmax = testCorpus() / "softmax" / "cpu_output_code_0.py";
  auto s = importInductorWrapper(readFile(softmax), softmax.string());
  ASSERT_TRUE(s) << s.error().str();
  std::string sfx = printFxText(s->graph);
  EXPECT_NE(sfx.find("fxkit.free](args = (%buf0,), kwargs = {at_return: True})"), std::string::npos)
      << sfx;
  EXPECT_NE(sfx.find("fxkit.free](args = (%buf2,), kwargs = {at_return: True})"), std::string::npos)
      << sfx;
}

TEST(InductorWrapperGolden, SmallHandWrittenWrapper) {
  fs::path dir = fs::path(FXKIT_TEST_DATA) / "inductor-wrapper";
  auto graph = importGraphFile((dir / "small_wrapper.py").string());
  ASSERT_TRUE(graph) << graph.error().str();
  EXPECT_EQ(printFxText(*graph), readFile(dir / "small_wrapper.graph.txt"));
  const InductorWrapperInfo *info = inductorWrapperInfo(*graph);
  ASSERT_NE(info, nullptr);
  ASSERT_EQ(info->kernels.size(), 1u);
  EXPECT_EQ(info->kernels[0].kernelPath, "/tmp/torchinductor_root/ab/small.py");
  // The attachment travels with clones, as pass results do.
  Graph copy = graph->clone();
  EXPECT_EQ(inductorWrapperInfo(copy), info);
}

/// Imports `text` and returns the error message ("" when it imported).
std::string importError(const std::string &text) {
  auto w = importInductorWrapper(text, "bad.py");
  return w ? std::string() : w.error().str();
}

const char *kHeader = "async_compile = AsyncCompile()\n"
                      "k0 = async_compile.triton('k0', '''\n"
                      "@triton_heuristics.pointwise(\n"
                      "    triton_meta={'signature': {'in_ptr0': '*fp32', 'xnumel': 'i32', "
                      "'XBLOCK': 'constexpr'}},\n"
                      ")\n"
                      "def k0(in_ptr0, xnumel, XBLOCK : tl.constexpr):\n"
                      "    pass\n"
                      "''', device_str='cuda')\n"; // 8 lines

std::string repeat(std::string_view piece, int times) {
  std::string s;
  for (int i = 0; i < times; ++i)
    s += piece;
  return s;
}

std::string wrapper(const std::string &body) {
  return std::string(kHeader) + "def call(args):\n    arg0_1, = args\n" + body;
}

TEST(InductorWrapperErrors, MinimalWrapperImports) {
  EXPECT_EQ(importError(wrapper("    k0.run(arg0_1, 1024, stream=s)\n    return ()\n")),
            "bad.py:11:33: error: stream= must name a stream from get_raw_stream(N)\n"
            "      k0.run(arg0_1, 1024, stream=s)\n"
            "                                  ^");
  EXPECT_EQ(importError(wrapper("    s = get_raw_stream(0)\n    k0.run(arg0_1, 1024, "
                                "stream=s)\n    return ()\n")),
            "");
}

TEST(InductorWrapperErrors, MessagesNameFileLineAndColumn) {
  struct Case {
    std::string text;
    std::string error; ///< the first line of the message
  };
  std::vector<Case> cases = {
      // A kernel source that never ends.
      {"async_compile = AsyncCompile()\nk0 = async_compile.triton('k0', '''\nimport triton\n",
       "bad.py:2:33: error: unterminated triple-quoted string"},
      // A call the importer does not know.
      {wrapper("    frobnicate(arg0_1)\n    return ()\n"),
       "bad.py:11:5: error: unsupported call 'frobnicate' in call()"},
      // Unbalanced parentheses.
      {wrapper("    buf0 = empty_strided_cuda((4, ), (1, ), torch.float32\n    return (buf0, )\n"),
       "bad.py:11:30: error: unbalanced parentheses: '(' is never closed"},
      {wrapper("    return (arg0_1, ))\n"),
       "bad.py:11:22: error: unexpected ')' after the statement"},
      // A launch with the wrong number of arguments, and of an unknown kernel.
      {wrapper("    k0.run(arg0_1, stream=stream0)\n    return ()\n"),
       "bad.py:11:5: error: kernel 'k0' takes 2 arguments, the launch passes 1"},
      {wrapper("    k9.run(arg0_1, 1024)\n    return ()\n"),
       "bad.py:11:5: error: launch of unknown kernel 'k9' (no async_compile definition in this "
       "file)"},
      // Names used before they exist or after they are deleted.
      {wrapper("    del arg0_1\n    return (arg0_1, )\n"),
       "bad.py:12:13: error: name 'arg0_1' is not defined"},
      {wrapper("    buf0 = empty_strided_cuda((s9, ), (1, ), torch.float32)\n    return ()\n"),
       "bad.py:11:32: error: name 's9' is not defined"},
      // Statements the importer does not understand are errors, not dropped.
      {wrapper("    for x in args:\n        pass\n    return ()\n"),
       "bad.py:11:5: error: unsupported 'for' statement in call()"},
      {wrapper("    return ()\n    del arg0_1\n"),
       "bad.py:12:5: error: statement after the return of call()"},
      {wrapper("    x += 1\n    return ()\n"),
       "bad.py:11:7: error: augmented assignment '+=' is not supported"},
      {std::string(kHeader) + "print('hello')\ndef call(args):\n    a, = args\n    return ()\n",
       "bad.py:9:1: error: unsupported statement at module level"},
      {std::string(kHeader) + "def helper():\n    pass\n",
       "bad.py:9:1: error: unsupported function 'helper' in Inductor wrapper code"},
      {std::string(kHeader),
       "bad.py:1:1: error: no 'def call(args)' function: not Inductor's Python wrapper code"},
      // Errors inside a kernel's source point into the file.
      {"async_compile = AsyncCompile()\nk0 = async_compile.triton('k0', '''\n"
       "@triton_heuristics.pointwise(\n    triton_meta={'signature': {'a': '*fp32',}\n)\n"
       "def k0(a):\n    pass\n''', device_str='cuda')\n",
       "bad.py:4:17: error: unbalanced brackets: '{' is never closed"},
      // Deep nesting stops at the limit instead of exhausting the stack.
      {wrapper("    x = " + std::string(5000, '(') + "1" + std::string(5000, ')') + "\n"),
       "error: expression nested too deeply (limit 64)"},
      // Every other way to nest counts toward the same limit (call arguments and subscripts
      // once restarted it, and a fuzzer overflowed the stack through them).
      {wrapper("    x = " + repeat("f(", 5000) + "1" + std::string(5000, ')') + "\n"),
       "error: expression nested too deeply (limit 64)"},
      {wrapper("    x = " + repeat("f(k=", 5000) + "1" + std::string(5000, ')') + "\n"),
       "error: expression nested too deeply (limit 64)"},
      {wrapper("    x = " + repeat("f(*", 5000) + "1" + std::string(5000, ')') + "\n"),
       "error: expression nested too deeply (limit 64)"},
      {wrapper("    x = " + repeat("a[", 5000) + "1" + std::string(5000, ']') + "\n"),
       "error: expression nested too deeply (limit 64)"},
      {wrapper("    x = " + repeat("a[1, ", 5000) + "1" + std::string(5000, ']') + "\n"),
       "error: expression nested too deeply (limit 64)"},
      {wrapper("    x = " + repeat("[", 5000) + "1" + std::string(5000, ']') + "\n"),
       "error: expression nested too deeply (limit 64)"},
      {wrapper("    x = " + repeat("{1: ", 5000) + "1" + std::string(5000, '}') + "\n"),
       "error: expression nested too deeply (limit 64)"},
      {wrapper("    x = " + repeat("-", 5000) + "1\n"),
       "error: expression nested too deeply (limit 64)"},
      {wrapper("    x = " + repeat("not ", 5000) + "1\n"),
       "error: expression nested too deeply (limit 64)"},
      {wrapper("    x = " + repeat("2 ** ", 5000) + "1\n"),
       "error: expression nested too deeply (limit 64)"},
      {wrapper("    x = " + repeat("1 if 1 else ", 5000) + "1\n"),
       "error: expression nested too deeply (limit 64)"},
  };
  for (const Case &c : cases) {
    std::string got = importError(c.text);
    std::string firstLine = got.substr(0, got.find('\n'));
    if (c.error.starts_with("error:")) {
      EXPECT_NE(firstLine.find(c.error), std::string::npos) << firstLine;
    } else
      EXPECT_EQ(firstLine, c.error) << c.text;
  }
}

TEST(InductorWrapperErrors, MutatedCorpusFilesFailWithALocation) {
  // Deterministic mutations (fixed seed) of real files: each either imports (and verifies) or
  // fails with one located error; none crashes or hangs.
  std::mt19937_64 rng(7);
  for (const char *rel : {"dynamic_broadcast/output_code_0.py",
                          "transformer_layer/output_code_0.py", "softmax/cpu_output_code_0.py"}) {
    std::string text = readFile(testCorpus() / rel);
    std::string body = callBody(text);
    size_t callAt = text.find(body);
    for (int i = 0; i < 150; ++i) {
      std::string s = text;
      // Mutate the call() body mostly: that is where the importer does the most.
      std::uniform_int_distribution<size_t> pos(i % 3 ? callAt : 0, s.size() - 1);
      size_t at = pos(rng);
      switch (rng() % 4) {
      case 0:
        s.resize(at);
        break;
      case 1:
        s[at] = "()[]{},:=.'#x0 \n"[rng() % 17];
        break;
      case 2:
        s.erase(at, std::min<size_t>(rng() % 30, s.size() - at));
        break;
      default:
        s.insert(at, 1, "([{)]}\"'%,:="[rng() % 12]);
      }
      auto w = importInductorWrapper(s, "m.py");
      if (w) {
        EXPECT_TRUE(verifyGraph(w->graph));
      } else
        EXPECT_GT(w.error().loc.line, 0) << rel << " #" << i << ": " << w.error().str();
    }
  }
}

TEST(InductorWrapperErrors, CliFormatNameAndDetection) {
  EXPECT_EQ(parseGraphFormat("inductor-py"), GraphFormat::InductorPy);
  EXPECT_EQ(graphFormatName(GraphFormat::InductorPy), "inductor-py");
  EXPECT_EQ(detectGraphFormat("x.py", "class GraphModule(torch.nn.Module):"), GraphFormat::FxPy);
  EXPECT_EQ(detectGraphFormat("-", wrapper("    return ()\n")), GraphFormat::InductorPy);
  auto g = importGraph(wrapper("    return ()\n"), GraphFormat::InductorPy, "w.py");
  ASSERT_TRUE(g) << g.error().str();
  EXPECT_EQ(g->size(), 2u); // the placeholder and the output
}

// ---- Statement forms of PyTorch 2.11's PythonWrapperCodegen (wrapper.py, ir.py) ----

/// Imports `text` (must succeed) and returns its FX text.
std::string fxOf(const std::string &text) {
  auto w = importInductorWrapper(text, "forms.py");
  EXPECT_TRUE(w) << (w ? std::string() : w.error().str());
  if (!w)
    return {};
  EXPECT_TRUE(verifyGraph(w->graph));
  return printFxText(w->graph);
}

/// Asserts that every line of `want` appears in `fx`, in order.
void expectLines(const std::string &fx, const std::string &want) {
  size_t from = 0;
  std::istringstream in(want);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty())
      continue;
    size_t at = fx.find(line, from);
    EXPECT_NE(at, std::string::npos) << "missing (in order): " << line << "\nin:\n" << fx;
    if (at == std::string::npos)
      return;
    from = at + line.size();
  }
}

/// A Triton kernel definition as Inductor writes it: `signature` and `constants` of
/// triton_meta, the `@triton.jit` parameter list, and an optional inductor_meta.
std::string tritonKernel(const std::string &name, const std::string &signature,
                         const std::string &constants, const std::string &params,
                         const std::string &inductorMeta = "{}") {
  return name + " = async_compile.triton('" + name + "', '''\n" +
         "@triton_heuristics.pointwise(\n    size_hints={'x': 1024},\n    "
         "triton_meta={'signature': {" +
         signature + "}, 'constants': {" + constants + "}},\n    inductor_meta=" + inductorMeta +
         ",\n)\n@triton.jit\ndef " + name + "(" + params +
         "):\n    pass\n''', device_str='cuda')\n";
}

TEST(InductorWrapperForms, LaunchPassesConstantsButNotAutotunedBlockSizes) {
  // llama_train's mean over 2 elements: x has one element, so Triton 3.5 makes `xnumel` a
  // constexpr constant; the launch still passes it (triton_heuristics' launcher takes every
  // parameter of the jit function but the config's XBLOCK).
  std::string text =
      "async_compile = AsyncCompile()\n" +
      tritonKernel("k",
                   "'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'xnumel': 'constexpr', "
                   "'r0_numel': 'i32', 'XBLOCK': 'constexpr'",
                   "'xnumel': 1", "in_out_ptr0, in_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr") +
      R"(def call(args):
    arg0_1, arg1_1 = args
    stream0 = get_raw_stream(0)
    k.run(arg0_1, arg1_1, 1, 2, stream=stream0)
    return (arg0_1, )
)";
  expectLines(fxOf(text), "args: {in_out_ptr0: %arg0_1, in_ptr0: %arg1_1, xnumel: 1, r0_numel: 2}");
  auto w = importInductorWrapper(text, "bad.py");
  ASSERT_TRUE(w);
  EXPECT_EQ(w->info->kernels[0].launchArgs,
            (std::vector<std::string>{"in_out_ptr0", "in_ptr0", "xnumel", "r0_numel"}));
  EXPECT_EQ(w->info->kernels[0].constants, std::vector<std::string>{"xnumel"});
  // Arguments beyond the parameters are an error that names the kernel's count.
  std::string bad = text;
  bad.replace(bad.find("1, 2, stream"), 4, "1, 2, 3, 4");
  std::string got = importError(bad);
  EXPECT_EQ(got.substr(0, got.find('\n')),
            "bad.py:15:5: error: kernel 'k' takes 4 arguments, the launch passes 6");
}

TEST(InductorWrapperForms, UserDefinedTritonKernel) {
  // define_user_defined_triton_kernel: the user's @triton.jit source under user_autotune; a
  // constexpr the caller passes is a constant (passed), an autotuned one is not; one fixed
  // grid is passed after the arguments (inductor_meta's extra_launcher_args).
  std::string text = R"(async_compile = AsyncCompile()
# Original path: /tmp/model.py:10
add_kernel_0 = async_compile.triton('add_kernel', '''
import triton
import triton.language as tl
@triton_heuristics.user_autotune(
    configs=[{'num_warps': 4, 'num_stages': 3, 'kwargs': {'BLOCK_M': 64}}],
    inductor_meta={'grid_type': 'FixedGrid', 'fixed_grid': ['_grid_0', '_grid_1', '_grid_2'], 'extra_launcher_args': ['_grid_0', '_grid_1', '_grid_2'], 'kernel_name': 'add_kernel_0'},
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr': '*fp32', 'n_elements': 'i32', 'BLOCK_M': 'constexpr', 'ACT': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0), 'constants': {'ACT': 'relu'}, 'configs': [{(0,): [['tt.divisibility', 16]]}]},
    filename=__file__,
    custom_kernel=True,
)
@triton.jit
def add_kernel(in_ptr0, out_ptr, n_elements, BLOCK_M: "tl.constexpr", ACT: tl.constexpr = 'relu'):
    pid = tl.program_id(axis=0)
    helper(pid)

@triton.jit
def helper(x):
    pass
''', device_str='cuda')
def call(args):
    arg0_1, = args
    buf0 = empty_strided_cuda((1000, ), (1, ), torch.float32)
    stream0 = get_raw_stream(0)
    add_kernel_0.run(arg0_1, buf0, 1000, 'relu', 16, 1, 1, stream=stream0)
    return (buf0, )
)";
  expectLines(fxOf(text), "name: add_kernel_0, args: {in_ptr0: %arg0_1, out_ptr: %buf0, "
                          "n_elements: 1000, ACT: relu, _grid_0: 16, _grid_1: 1, _grid_2: 1}");
}

TEST(InductorWrapperForms, UnbackedSymbolsAndRuntimeAsserts) {
  // DynamicScalar (`.item()`, ConvertIntKey, DivideByKey), AssertScalar, unbacked symbols of
  // a fallback's outputs (codegen_unbacked_symbol_defs_for_outputs), and their uses.
  std::string text = std::string(kHeader) + R"(def call(args):
    arg0_1, = args
    buf0 = empty_strided_cuda((), (), torch.int64)
    u0 = buf0.item()
    buf1 = None
    if not (u0 >= 0):
        raise RuntimeError('u0 >= 0')
    buf2 = None
    u1 = 1 if buf0.item() else 0
    u2_undivided = buf0.item()
    assert u2_undivided % 4 == 0, f'{u2_undivided} not divisible by 4'
    u2 = u2_undivided // 4
    del buf0
    buf3 = torch.ops.aten.nonzero.default(arg0_1)
    u3 = buf3.size(0)
    buf4 = torch.ops.aten.topk.default(arg0_1, 2)
    u4 = buf4[1].stride(0)
    u5 = buf4[0].storage_offset()
    buf5 = empty_strided_cuda((u0, 8), (8, 1), torch.float32)
    stream0 = get_raw_stream(0)
    k0.run(buf5, 8*u0, stream=stream0)
    return (buf5, u1, u2, u3, u4, u5, buf3, buf4, buf1, )
)";
  std::string fx = fxOf(text);
  expectLines(
      fx,
      R"(%u0 : [num_users=3] = call_function[target=torch.ops.aten.item.default](args = (%buf0,), kwargs = {})
%ge : [num_users=1] = call_function[target=operator.ge](args = (%u0, 0), kwargs = {})
%_assert_scalar : [num_users=0] = call_function[target=torch.ops.aten._assert_scalar.default](args = (%ge, 'u0 >= 0'), kwargs = {})
%item : [num_users=1] = call_function[target=torch.ops.aten.item.default](args = (%buf0,), kwargs = {})
%u1 : [num_users=1] = call_function[target=torch.sym_ite](args = (%item, 1, 0), kwargs = {})
%u2_undivided : [num_users=2] = call_function[target=torch.ops.aten.item.default](args = (%buf0,), kwargs = {})
%mod : [num_users=1] = call_function[target=operator.mod](args = (%u2_undivided, 4), kwargs = {})
%eq : [num_users=1] = call_function[target=operator.eq](args = (%mod, 0), kwargs = {})
%_assert_scalar_1 : [num_users=0] = call_function[target=torch.ops.aten._assert_scalar.default](args = (%eq, '{u2_undivided} not divisible by 4'), kwargs = {})
%u2 : [num_users=1] = call_function[target=operator.floordiv](args = (%u2_undivided, 4), kwargs = {})
%free : [num_users=0] = call_function[target=fxkit.free](args = (%buf0,), kwargs = {})
%u3 : [num_users=1] = call_function[target=torch.ops.aten.sym_size.int](args = (%buf3, 0), kwargs = {})
%getitem : [num_users=1] = call_function[target=operator.getitem](args = (%buf4, 1), kwargs = {})
%u4 : [num_users=1] = call_function[target=torch.ops.aten.sym_stride.int](args = (%getitem, 0), kwargs = {})
%getitem_1 : [num_users=1] = call_function[target=operator.getitem](args = (%buf4, 0), kwargs = {})
%u5 : [num_users=1] = call_function[target=torch.ops.aten.sym_storage_offset.default](args = (%getitem_1,), kwargs = {})
%buf5 : [num_users=2] = call_function[target=torch.empty_strided](args = ([%u0, 8], [8, 1]), kwargs = {dtype: torch.float32, device: cuda})
%mul : [num_users=1] = call_function[target=operator.mul](args = (8, %u0), kwargs = {})
args: {in_ptr0: %buf5, xnumel: %mul}
return (buf5, u1, u2, u3, u4, u5, buf3, buf4, None))");
  // The unbacked symbols are the values of the nodes that compute them.
  auto w = importInductorWrapper(text, "u.py");
  ASSERT_TRUE(w);
  ASSERT_NE(w->graph.find("u3"), nullptr);
  EXPECT_EQ(w->graph.find("u3")->value().sym()->str(), "u3");
  EXPECT_EQ(w->graph.find("buf5")->value().tensor()->str(), "f32[u0, 8][8, 1]cuda");
}

TEST(InductorWrapperForms, SizesOfInputsAndDynamicSlices) {
  // codegen_input_symbol_assignment (`arg0_1_size = arg0_1.size()`), precomputed sizes, and
  // the host-side bounds of dynamic slices / selects (codegen_dynamic_slice_size,
  // codegen_dynamic_select_index) with conditional expressions, max and min.
  std::string text = std::string(kHeader) + R"(def call(args):
    arg0_1, = args
    arg0_1_size = arg0_1.size()
    s0 = arg0_1_size[0]
    arg0_1_stride = arg0_1.stride()
    s1 = arg0_1_stride[0]
    ps0 = 2*s0
    u0 = s1 // 2
    u1_start = max(0, min(s0, u0)) if u0 >= 0 else max(0, min(u0 + s0, s0))
    u1_end = s0
    u1 = max(0, u1_end - u1_start)
    u2 = 0 + 4 * (u0 + s0 if u0 < 0 else u0)
    buf0 = empty_strided_cuda((u1, ps0), (ps0, 1), torch.float32)
    return (buf0, u2, )
)";
  expectLines(
      fxOf(text),
      R"(%s0 : [num_users=5] = call_function[target=torch.ops.aten.sym_size.int](args = (%arg0_1, 0), kwargs = {})
%s1 : [num_users=1] = call_function[target=torch.ops.aten.sym_stride.int](args = (%arg0_1, 0), kwargs = {})
%ps0 : [num_users=1] = call_function[target=operator.mul](args = (2, %s0), kwargs = {})
%u0 : [num_users=5] = call_function[target=operator.floordiv](args = (%s1, 2), kwargs = {})
%sym_min : [num_users=1] = call_function[target=torch.sym_min](args = (%s0, %u0), kwargs = {})
%sym_max : [num_users=1] = call_function[target=torch.sym_max](args = (0, %sym_min), kwargs = {})
%ge : [num_users=1] = call_function[target=operator.ge](args = (%u0, 0), kwargs = {})
%add : [num_users=2] = call_function[target=operator.add](args = (%u0, %s0), kwargs = {})
%u1_start : [num_users=1] = call_function[target=torch.sym_ite](args = (%ge, %sym_max, %sym_max_1), kwargs = {})
%sub : [num_users=1] = call_function[target=operator.sub](args = (%s0, %u1_start), kwargs = {})
%u1 : [num_users=1] = call_function[target=torch.sym_max](args = (0, %sub), kwargs = {})
%lt : [num_users=1] = call_function[target=operator.lt](args = (%u0, 0), kwargs = {})
%sym_ite : [num_users=1] = call_function[target=torch.sym_ite](args = (%lt, %add, %u0), kwargs = {})
%buf0 : [num_users=1] = call_function[target=torch.empty_strided](args = ([%u1, %ps0], [%ps0, 1]), kwargs = {dtype: torch.float32, device: cuda}))");
}

TEST(InductorWrapperForms, AllocationsCopiesWorkspacesAndViews) {
  std::string text = std::string(kHeader) + R"(_frozen_param0 = None  # 9b1f4c8ad2e0
def call(args):
    arg0_1, arg1_1 = args
    args.clear()
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        workspace_0 = empty_strided_cuda((1024, ), (1, ), torch.uint8)
        workspace_0.zero_()
        buf0 = empty_strided_cuda((256, ), (1, ), torch.float32).as_strided((16, 8), (8, 1))
        buf1 = empty_strided((4, ), (1, ), device='mps', dtype=torch.float16)
        buf2 = empty_strided_cpu_pinned((4, ), (1, ), torch.float32)
        buf3 = empty_strided_p2p((4, ), (1, ), torch.float32, torch.device("cuda:0"), group_name="0", alloc_id=77)
        buf3.copy_(buf2, False)
        stream0 = get_raw_stream(0)
        k0.run(aten.view.dtype(buf0, torch.int32), arg1_1.item(), stream=stream0)
        extern_kernels.mm(buf0, _frozen_param0, out=arg0_1)
        buf4 = torch.ops.aten.topk.default(buf0, 2)
        buf5 = buf4[0]
        aten.index_put_(buf0, [buf5, None], arg0_1, False)
        aten.scatter_(buf0,0,buf5,arg0_1, reduce='add')
        run_intermediate_hooks('topk', buf4)
        del workspace_0, buf2
        buf6 = buf5;  # reuse
        buf7 = reinterpret_tensor(buf0, (8, 16), (1, 8), 0)  # alias
    return (buf6, buf7, buf1, buf3, )
)";
  std::string fx = fxOf(text);
  expectLines(
      fx,
      R"(%workspace_0 : [num_users=2] = call_function[target=torch.empty_strided](args = ([1024], [1]), kwargs = {dtype: torch.uint8, device: cuda})
%zero_ : [num_users=0] = call_function[target=fxkit.extern](args = (), kwargs = {op: torch.ops.aten.zero_.default, inputs: (%workspace_0,)})
%buf0_storage : [num_users=1] = call_function[target=torch.empty_strided](args = ([256], [1]), kwargs = {dtype: torch.float32, device: cuda})
%buf0 : [num_users=6] = call_function[target=torch.as_strided](args = (%buf0_storage, [16, 8], [8, 1], 0), kwargs = {})
%buf1 : [num_users=1] = call_function[target=torch.empty_strided](args = ([4], [1]), kwargs = {dtype: torch.float16, device: mps})
%buf2 : [num_users=2] = call_function[target=torch.empty_strided](args = ([4], [1]), kwargs = {dtype: torch.float32, device: cpu, pin_memory: True})
%buf3 : [num_users=2] = call_function[target=torch.empty_strided](args = ([4], [1]), kwargs = {dtype: torch.float32, device: cuda:0, group_name: '0', alloc_id: 77, comm_buffer: symm_mem})
%copy_ : [num_users=0] = call_function[target=fxkit.extern](args = (), kwargs = {op: torch.ops.aten.copy_.default, inputs: (%buf3, %buf2, False)})
%buf0_view : [num_users=1] = call_function[target=torch.ops.aten.view.dtype](args = (%buf0, torch.int32), kwargs = {})
%item : [num_users=1] = call_function[target=torch.ops.aten.item.default](args = (%arg1_1,), kwargs = {})
args: {in_ptr0: %buf0_view, xnumel: %item}
%_frozen_param0 : [num_users=1] = get_attr[target=_frozen_param0]
inputs: (%buf0, %_frozen_param0), out: [%arg0_1]
%buf5 : [num_users=3] = call_function[target=operator.getitem](args = (%buf4, 0), kwargs = {})
op: torch.ops.aten.index_put_, inputs: (%buf0, [%buf5, None], %arg0_1, False)
op: torch.ops.aten.scatter_, inputs: (%buf0, 0, %buf5, %arg0_1), options: {reduce: add}
%run_intermediate_hooks : [num_users=0] = call_function[target=torch._inductor.hooks.run_intermediate_hooks](args = (topk, %buf4), kwargs = {})
%free : [num_users=0] = call_function[target=fxkit.free](args = (%workspace_0,), kwargs = {})
%free_1 : [num_users=0] = call_function[target=fxkit.free](args = (%buf2,), kwargs = {})
%buf7 : [num_users=1] = call_function[target=torch.as_strided](args = (%buf0, [8, 16], [1, 8], 0), kwargs = {})
return (buf5, buf7, buf1, buf3))");
  // The dtype view keeps the storage and re-counts the last dimension.
  auto w = importInductorWrapper(text, "a.py");
  ASSERT_TRUE(w);
  EXPECT_EQ(w->graph.find("buf0_view")->value().tensor()->str(), "i32[16, 8][8, 1]cuda:0");
  EXPECT_EQ(w->info->constants, std::vector<std::string>{"_frozen_param0"});
}

TEST(InductorWrapperForms, MultiKernelsAndDebugCalls) {
  std::string sig = "'in_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'";
  std::string text =
      "async_compile = AsyncCompile()\n" +
      tritonKernel("k_per", sig, "", "in_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr") +
      tritonKernel("k_red", sig + ", 'R0_BLOCK': 'constexpr'", "",
                   "in_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr") +
      R"(arg_index = {0: [slice(0, 3, None)], 1: [slice(0, 3, None)]}
multi_kernel_0 = async_compile.multi_kernel('multi_kernel_0', [
    k_per,
    k_red,
], arg_index=arg_index)
async_compile.wait(globals())
del async_compile
def call(args):
    arg0_1, = args
    from torch.profiler import record_function
    with record_function('graph_0_inductor_wrapper_call'):
        training_annotation = nvtx._device_range_start('inference')
        stream0 = get_raw_stream(0)
        multi_kernel_0.run(arg0_1, 4, 512, stream=stream0)
        torch.cuda.synchronize()
        nvtx._device_range_end(training_annotation)
    return ()
)";
  expectLines(
      fxOf(text),
      R"(%training_annotation : [num_users=1] = call_function[target=torch.cuda.nvtx._device_range_start](args = (inference,), kwargs = {})
%multi_kernel_0 : [num_users=0] = call_function[target=fxkit.kernel](args = (), kwargs = {name: multi_kernel_0, args: {in_ptr0: %arg0_1, xnumel: 4, r0_numel: 512}, choices: [k_per, k_red], stream: 0})
%synchronize : [num_users=0] = call_function[target=torch.cuda.synchronize](args = (), kwargs = {})
%_device_range_end : [num_users=0] = call_function[target=torch.cuda.nvtx._device_range_end](args = (%training_annotation,), kwargs = {}))");
  auto w = importInductorWrapper(text, "m.py");
  ASSERT_TRUE(w);
  ASSERT_EQ(w->info->multiKernels.size(), 1u);
  EXPECT_EQ(w->info->multiKernels[0].choices, (std::vector<std::string>{"k_per", "k_red"}));
}

TEST(InductorWrapperForms, GraphPartitionsAndSubgraphsRunInline) {
  // graph_partition (cudagraphs): call() hands a list to `self.partitions[0]`, a module-level
  // function that unpacks and clears it; a subgraph (invoke_subgraph) returns a list its
  // caller indexes. Their statements join the graph at the call; the list keeps the tensors
  // the caller deleted alive until the partition drops them.
  std::string text = std::string(kHeader) + R"(def partition_0(args):
    arg2_1, buf1, s27 = args
    args.clear()
    s27 = s27
    buf3 = empty_strided_cuda((s27, ), (1, ), torch.float32)
    buf4 = empty_strided_cuda((s27, ), (1, ), torch.float32)
    stream0 = get_raw_stream(0)
    k0.run(arg2_1, s27, stream=stream0)
    del arg2_1
    del buf1
    return (buf3, )

def subgraph_0(args):
    arg0_1, = args
    args.clear()
    buf0 = empty_strided_cuda((4, ), (1, ), torch.float32)
    return (buf0, )

class Runner:
    def __init__(self, partitions):
        self.partitions = partitions

    def call(self, args):
        arg0_1, arg1_1 = args
        args.clear()
        s27 = arg0_1
        buf1 = empty_strided_cuda((1, ), (1, ), torch.float64)
        partition0_args = [arg1_1, buf1, s27]
        del arg1_1, buf1
        (buf3,) = self.partitions[0](partition0_args)
        del partition0_args
        buf5 = [None] * 1
        # subgraph: subgraph_0
        subgraph_0_args = [buf3]
        buf5 = subgraph_0(subgraph_0_args)
        buf6 = buf5[0]
        del buf5
        return (buf3, buf6, )

runner = Runner(partitions=[partition_0,])
call = runner.call
)";
  expectLines(fxOf(text), R"(%s27 : [num_users=3] = placeholder[target=s27]
%arg1_1 : [num_users=2] = placeholder[target=arg1_1]
%buf1 : [num_users=1] = call_function[target=torch.empty_strided](args = ([1], [1]), kwargs = {dtype: torch.float64, device: cuda})
%buf3 : [num_users=1] = call_function[target=torch.empty_strided](args = ([%s27], [1]), kwargs = {dtype: torch.float32, device: cuda})
%buf4 : [num_users=1] = call_function[target=torch.empty_strided](args = ([%s27], [1]), kwargs = {dtype: torch.float32, device: cuda})
%k0 : [num_users=0] = call_function[target=fxkit.kernel](args = (), kwargs = {name: k0, args: {in_ptr0: %arg1_1, xnumel: %s27}, stream: 0})
%free : [num_users=0] = call_function[target=fxkit.free](args = (%arg1_1,), kwargs = {})
%free_1 : [num_users=0] = call_function[target=fxkit.free](args = (%buf1,), kwargs = {})
%free_2 : [num_users=0] = call_function[target=fxkit.free](args = (%buf4,), kwargs = {at_return: True})
%buf0 : [num_users=1] = call_function[target=torch.empty_strided](args = ([4], [1]), kwargs = {dtype: torch.float32, device: cuda})
return (buf3, buf0))");
  // A partition the Runner does not list, and a list index out of range.
  std::string bad = text;
  bad.replace(bad.find("self.partitions[0]"), 18, "self.partitions[3]");
  std::string got = importError(bad);
  EXPECT_EQ(got.substr(0, got.find('\n')),
            "bad.py:38:19: error: self.partitions has 1 partitions (the module's "
            "Runner(partitions=[...]))");
}

TEST(InductorWrapperForms, CondBranchesAreSubgraphs) {
  // codegen_conditional: the branches call their subgraph functions; the program holds
  // torch.ops.higher_order.cond with the two functions' graphs as submodules (get_attr).
  std::string text = std::string(kHeader) + R"(def true_graph_0(args):
    arg0_1, = args
    args.clear()
    buf0 = empty_strided_cuda((4, ), (1, ), torch.float32)
    stream0 = get_raw_stream(0)
    k0.run(arg0_1, 4, stream=stream0)
    del arg0_1
    return (buf0, )

def false_graph_0(args):
    arg0_1, = args
    args.clear()
    return (arg0_1, )

def call(args):
    arg0_1, arg1_1 = args
    args.clear()
    buf2 = [None] * 1
    if arg1_1.item():
        # subgraph: true_graph_0
        true_graph_0_args = [arg0_1]
        buf2 = true_graph_0(true_graph_0_args)
    else:
        # subgraph: false_graph_0
        false_graph_0_args = [arg0_1]
        buf2 = false_graph_0(false_graph_0_args)
    del arg0_1
    buf3 = buf2[0]
    del buf2
    return (buf3, )
)";
  auto w = importInductorWrapper(text, "cond.py");
  ASSERT_TRUE(w) << w.error().str();
  expectLines(printFxText(w->graph),
              R"(%true_graph_0 : [num_users=1] = get_attr[target=true_graph_0]
%false_graph_0 : [num_users=1] = get_attr[target=false_graph_0]
%cond : [num_users=1] = call_function[target=torch.ops.higher_order.cond](args = (%arg1_1, %true_graph_0, %false_graph_0, [%arg0_1]), kwargs = {})
%getitem : [num_users=1] = call_function[target=operator.getitem](args = (%cond, 0), kwargs = {})
return (getitem,))");
  ASSERT_EQ(w->graph.submodules.size(), 2u);
  const Graph *t = w->graph.submodule("true_graph_0");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(countTarget(*t, "fxkit.kernel"), 1u);
  EXPECT_EQ(printFxText(*w->graph.submodule("false_graph_0")),
            "graph():\n    %arg0_1 : [num_users=1] = placeholder[target=arg0_1]\n"
            "    return (arg0_1,)");
}

TEST(InductorWrapperForms, MalformedFormsFailWithALocation) {
  struct Case {
    std::string body;
    std::string error;
  };
  std::vector<Case> cases = {
      {"    if arg0_1:\n        pass\n    return ()\n",
       "bad.py:11:5: error: unsupported 'if' statement in call()"},
      {"    raise RuntimeError('x')\n", "bad.py:11:5: error: unsupported 'raise' in call()"},
      {"    u0 = arg0_1.item() if True\n", "bad.py:11:31: error: expected 'else' in the "
                                           "conditional expression, found end of line"},
      {"    u0 = arg0_1.frobnicate()\n",
       "bad.py:11:10: error: unsupported method 'frobnicate' in a scalar"},
      {"    s0 = arg0_1_size[0]\n", "bad.py:11:10: error: name 'arg0_1_size' is not defined"},
      {"    assert arg0_1.item(), 3\n",
       "bad.py:11:27: error: expected the assertion's message as a string"},
  };
  for (const Case &c : cases) {
    std::string got = importError(wrapper(c.body));
    EXPECT_EQ(got.substr(0, got.find('\n')).substr(0, c.error.size()), c.error) << got;
  }
  // A multi-kernel of a kernel the module does not define.
  std::string text = std::string(kHeader) +
                     "multi_kernel_0 = async_compile.multi_kernel('multi_kernel_0', [k0, k9])\n";
  std::string got = importError(text);
  EXPECT_EQ(got.substr(0, got.find('\n')), "bad.py:9:68: error: multi-kernel 'multi_kernel_0' "
                                           "names kernel 'k9', which is not defined before it");
}

/// Captures of PyTorch 2.11 on an H200 with dynamic shapes and data-dependent sizes
/// (tests/data/inductor-cpp-wrapper/PROVENANCE.md): each imports, every runtime assert
/// and `.item()` of call() is a node, and the FX IR converts.
TEST(InductorWrapperForms, DynamicShapeCaptures) {
  // One copy of the captures: the C++ wrapper tests keep them beside their cpp_wrapper twins.
  fs::path dir = fs::path(FXKIT_TEST_DATA) / "inductor-cpp-wrapper";
  size_t files = 0;
  for (const char *name : {"bert_dyn/output_code_0.py", "unbacked_ops/output_code_0.py"}) {
    SCOPED_TRACE(name);
    std::string text = readFile(dir / name);
    auto w = importInductorWrapper(text, name);
    ASSERT_TRUE(w) << w.error().str();
    ASSERT_TRUE(verifyGraph(w->graph));
    std::string body = callBody(text);
    size_t raises = 0, items = 0;
    for (size_t at = body.find("raise RuntimeError("); at != std::string::npos;
         at = body.find("raise RuntimeError(", at + 1))
      ++raises;
    for (size_t at = body.find(".item()"); at != std::string::npos;
         at = body.find(".item()", at + 1))
      ++items;
    EXPECT_EQ(countTarget(w->graph, "torch.ops.aten._assert_scalar.default"), raises);
    EXPECT_EQ(countTarget(w->graph, "torch.ops.aten.item.default"), items);
    size_t launches = 0;
    for (size_t at = body.find(".run("); at != std::string::npos; at = body.find(".run(", at + 1))
      ++launches;
    EXPECT_EQ(countTarget(w->graph, "fxkit.kernel"), launches);
    std::string fx = printFxText(w->graph);
    auto again = parseFxText(fx, "reparsed");
    ASSERT_TRUE(again) << again.error().str();
    EXPECT_EQ(printFxText(*again), fx);
    // PyTorch's FX IR keeps the scalars and asserts as the same calls.
    auto fxir = buildInductorFxIr(w->graph);
    ASSERT_TRUE(fxir) << fxir.error().str();
    EXPECT_EQ(countTarget(fxir->graph, "torch.ops.aten._assert_scalar.default"), raises);
    EXPECT_EQ(countTarget(fxir->graph, "torch.ops.aten.item.default"), items);
    ++files;
  }
  EXPECT_EQ(files, 2u);
  // bert with dynamic batch and sequence: the sizes are the input symbols s*, and the
  // precomputed `_xnumel`s and `ps0` are operator nodes of them.
  auto bert = importInductorWrapper(readFile(dir / "bert_dyn" / "output_code_0.py"), "bert");
  ASSERT_TRUE(bert);
  EXPECT_EQ(countTarget(bert->graph, "torch.ops.aten._assert_scalar.default"), 0u);
  // unbacked_ops: u0 = sum().item(), u1 / u2 rows of nonzero and a boolean-mask index,
  // u3 = k.item(); 10 AssertScalar checks of their ranges.
  auto unbacked =
      importInductorWrapper(readFile(dir / "unbacked_ops" / "output_code_0.py"), "unbacked");
  ASSERT_TRUE(unbacked);
  EXPECT_EQ(countTarget(unbacked->graph, "torch.ops.aten._assert_scalar.default"), 10u);
  for (const char *u : {"u0", "u1", "u2", "u3"}) {
    ASSERT_NE(unbacked->graph.find(u), nullptr) << u;
    EXPECT_EQ(unbacked->graph.find(u)->value().sym()->str(), u);
  }
}

} // namespace
