/// Importing Inductor's Python wrapper code (output_code.py) into wrapper IR: every such file of
/// the corpus imports and its graph agrees with facts counted from the text and from meta.json;
/// a hand-written wrapper gives a pinned FX text; bad input fails with file:line:col.
#include "importers/inductor/InductorWrapper.h"

#include "exporters/FxTextPrinter.h"
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
  EXPECT_NE(fx.find("%s77 : [num_users="), std::string::npos) << fx;
  EXPECT_NE(fx.find("%arg2_1 : Tensor \"f32[s77, s27][s27, 1]cuda:0\""), std::string::npos) << fx;
  EXPECT_NE(fx.find("%triton_red_fused_add_mul_sum_unsqueeze_0_xnumel : [num_users=1] = "
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

} // namespace
