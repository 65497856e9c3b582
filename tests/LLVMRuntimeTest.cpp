/// The LLVM backend end to end: every reference workload of the corpus reproduces its recorded
/// outputs; every Inductor graph and hand-made graphs for each code generation path agree with
/// the reference interpreter with any number of threads; half-precision loads and stores are
/// exact for every bit pattern; the object cache serves a second load and rebuilds a corrupt
/// entry; a kernel that does not compile reports Clang's diagnostics against its written
/// source; kernels outside the execution model are refused.

#include "CompileTestSupport.h"
#include "CorpusTestSupport.h"
#include "backends/interp/Interpreter.h"
#include "backends/interp/json/ReferenceIO.h"
#include "backends/llvm/KernelCompiler.h"
#include "backends/llvm/KernelEntry.h"
#include "backends/llvm/LLVMKernelSet.h"
#include "backends/llvm/LLVMProgram.h"
#include "backends/llvm/ThreadPool.h"
#include "importers/FxTextParser.h"
#include "importers/Import.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace fxkit;
using namespace fxkit::llvmjit;
using namespace fxkit::testing;
namespace fs = std::filesystem;

namespace {

/// Checks a corpus graph against its recorded outputs; returns the stats.
LLVMStats checkReference(const fs::path &path, const LLVMOptions &options) {
  SCOPED_TRACE(path.string());
  LLVMStats stats;
  auto graph = importGraphFile(path.string(), GraphFormat::FxText, true);
  EXPECT_TRUE(graph) << (graph ? "" : graph.error().str());
  if (!graph)
    return stats;
  auto inFile = readSafetensors(sibling(path, ".inputs.safetensors").string());
  auto outFile = readSafetensors(sibling(path, ".outputs.safetensors").string());
  EXPECT_TRUE(inFile && outFile);
  if (!inFile || !outFile)
    return stats;
  size_t placeholders = 0;
  for (Node *n : *graph)
    placeholders += n->op() == OpKind::Placeholder;
  auto inputs = readGraphInputs(*inFile, placeholders, "inputs");
  EXPECT_TRUE(inputs);
  if (!inputs)
    return stats;
  Compiled c;
  EXPECT_TRUE(compile(graph.take(), c));
  auto result = runOnLLVM(c, *inputs, options, &stats);
  if (!result)
    return stats;
  auto checks = checkGraphOutputs(result->outputs, *outFile, {});
  EXPECT_TRUE(checks);
  if (!checks)
    return stats;
  EXPECT_FALSE(checks->empty());
  for (const OutputCheck &ch : *checks)
    EXPECT_TRUE(ch.ok) << ch.name << " " << ch.actual << ": " << ch.detail;
  return stats;
}

TEST(LLVMRuntime, EveryReferenceWorkloadReproducesItsOutputs) {
  TempDir cache;
  LLVMOptions options;
  options.cacheDir = cache.path.string();
  std::vector<fs::path> graphs = corpusGraphs("reference");
  ASSERT_EQ(graphs.size(), 10u);
  int launches = 0, externs = 0, compiled = 0, products = 0;
  for (const fs::path &p : graphs) {
    LLVMStats s = checkReference(p, options);
    launches += s.launches;
    externs += s.matrixProducts + s.hostExterns;
    products += s.matrixProducts;
    compiled += s.kernelsCompiled;
  }
  EXPECT_GT(launches, 20);
  EXPECT_GT(externs, 20);
  EXPECT_GT(products, 15); // mm, addmm and bmm through HostBlas, not the reference kernels
  EXPECT_GE(compiled, 10); // at least one kernel per workload
}

/// The same values within float32 reduction-order tolerance (as OpenCLRuntimeTest).
void expectClose(const InterpretResult &got, const InterpretResult &want, double rtol,
                 double minAtol) {
  ASSERT_EQ(got.outputs.size(), want.outputs.size());
  for (size_t i = 0; i < got.outputs.size(); ++i) {
    const Tensor *a = got.outputs[i].tensor();
    const Tensor *b = want.outputs[i].tensor();
    ASSERT_EQ(a == nullptr, b == nullptr) << "output " << i;
    if (!a)
      continue;
    ASSERT_EQ(a->dtype(), b->dtype()) << "output " << i;
    ASSERT_EQ(a->sizes(), b->sizes()) << "output " << i;
    double scale = 0;
    Tensor::forEachIndex(b->sizes(), [&](std::span<const int64_t> idx) {
      double y = b->getDouble(idx);
      if (std::isfinite(y))
        scale = std::max(scale, std::abs(y));
    });
    double atol = std::max(minAtol, 1e-3 * scale);
    size_t bad = 0;
    Tensor::forEachIndex(b->sizes(), [&](std::span<const int64_t> idx) {
      double x = a->getDouble(idx), y = b->getDouble(idx);
      bool same = (std::isnan(x) && std::isnan(y)) || std::abs(x - y) <= atol + rtol * std::abs(y);
      if (!same && bad++ < 3)
        ADD_FAILURE() << "output " << i << ": " << x << " vs " << y;
    });
  }
}

TEST(LLVMRuntime, EveryInductorGraphAgreesWithTheInterpreter) {
  TempDir cache;
  LLVMOptions options;
  options.cacheDir = cache.path.string();
  constexpr int64_t kMaxElements = 1 << 21;
  size_t graphs = 0, tooLarge = 0;
  for (const fs::path &path : corpusGraphs("inductor", "aten_post")) {
    SCOPED_TRACE(path.string());
    auto graph = importGraphFile(path.string(), GraphFormat::FxText, true);
    ASSERT_TRUE(graph) << graph.error().str();
    SymExpr::Bindings symbols;
    for (Node *n : *graph)
      if (n->op() == OpKind::Placeholder)
        if (const TensorType *t = n->value().tensor())
          for (const SymExpr &s : t->sizes)
            for (const std::string &name : s.symbols())
              symbols[name] = 5;
    auto inputs = makeRandomInputs(*graph, symbols, 11);
    ASSERT_TRUE(inputs) << inputs.error().str();
    // The interpreter is too slow for the largest graphs (see OpenCLRuntimeTest).
    int64_t elements = 0;
    for (const RuntimeValue &v : *inputs)
      if (const Tensor *t = v.tensor())
        elements += t->numel();
    if (elements > kMaxElements) {
      ++tooLarge;
      continue;
    }
    auto expected = interpretGraph(*graph, *inputs);
    ASSERT_TRUE(expected) << expected.error().str();
    Compiled c;
    ASSERT_TRUE(compile(graph.take(), c));
    auto result = runOnLLVM(c, *inputs, options);
    ASSERT_TRUE(result);
    expectClose(*result, *expected, 1e-3, 1e-4);
    ++graphs;
  }
  EXPECT_EQ(graphs + tooLarge, 20u);
  EXPECT_GE(graphs, 8u) << tooLarge << " graphs were too large for the interpreter";
}

/// Graphs for each code generation path.
const char *kPathGraphs[] = {
    // Softmax: three loops over the reduced points, exp recomputed in the last.
    R"(graph():
    %x : Tensor "f32[7, 33][33, 1]cpu"[num_users=2] = placeholder[target=x]
    %amax : [num_users=1] = call_function[target=torch.ops.aten.amax.default](args = (%x, [1], True), kwargs = {})
    %sub : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x, %amax), kwargs = {})
    %exp : [num_users=2] = call_function[target=torch.ops.aten.exp.default](args = (%sub,), kwargs = {})
    %sum_1 : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%exp, [1], True), kwargs = {})
    %div : [num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%exp, %sum_1), kwargs = {})
    return (div,)
)",
    // var_mean (Welford), and a mean of the rows.
    R"(graph():
    %x : Tensor "f32[5, 3, 41][123, 41, 1]cpu"[num_users=2] = placeholder[target=x]
    %vm : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%x, [2]), kwargs = {correction: 1, keepdim: True})
    %v : [num_users=1] = call_function[target=operator.getitem](args = (%vm, 0), kwargs = {})
    %m : [num_users=1] = call_function[target=operator.getitem](args = (%vm, 1), kwargs = {})
    %a : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%v, %m), kwargs = {})
    %mean : [num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%x, [0, 1]), kwargs = {})
    return (a, mean)
)",
    // A masked cat, a permuted (transposed) read, and int64 and bool arithmetic.
    R"(graph():
    %x : Tensor "f32[6, 4][4, 1]cpu"[num_users=2] = placeholder[target=x]
    %y : Tensor "f32[6, 3][3, 1]cpu"[num_users=1] = placeholder[target=y]
    %i : Tensor "i64[4, 6][6, 1]cpu"[num_users=2] = placeholder[target=i]
    %cat : [num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%x, %y], 1), kwargs = {})
    %t : [num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%x, [1, 0]), kwargs = {})
    %c : [num_users=1] = call_function[target=torch.ops.aten.gt.Scalar](args = (%i, 2), kwargs = {})
    %w : [num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%c, %t, 0.5), kwargs = {})
    %j : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%i, 3), kwargs = {})
    %max : [num_users=1] = call_function[target=torch.ops.aten.amax.default](args = (%j, [1]), kwargs = {})
    return (cat, w, max)
)",
    // float16 storage: loads, computes in float, stores rounded.
    R"(graph():
    %x : Tensor "f16[9, 17][17, 1]cpu"[num_users=2] = placeholder[target=x]
    %s : [num_users=1] = call_function[target=torch.ops.aten.sigmoid.default](args = (%x,), kwargs = {})
    %m : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%s, %x), kwargs = {})
    %sum : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%m, [1]), kwargs = {})
    return (m, sum)
)",
    // bfloat16 storage, float64 compute, and the math built-ins of the prelude.
    R"(graph():
    %x : Tensor "bf16[11, 13][13, 1]cpu"[num_users=1] = placeholder[target=x]
    %d : Tensor "f64[11, 13][13, 1]cpu"[num_users=3] = placeholder[target=d]
    %g : [num_users=1] = call_function[target=torch.ops.aten.gelu.default](args = (%x,), kwargs = {})
    %t : [num_users=1] = call_function[target=torch.ops.aten.tanh.default](args = (%d,), kwargs = {})
    %e : [num_users=1] = call_function[target=torch.ops.aten.erf.default](args = (%d,), kwargs = {})
    %a : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%t, %e), kwargs = {})
    %s : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%d, [0]), kwargs = {})
    return (g, a, s)
)",
};

TEST(LLVMRuntime, EveryPathAgreesWithTheInterpreterWithAnyThreadCount) {
  int checked = 0;
  for (const char *text : kPathGraphs) {
    SCOPED_TRACE(text);
    auto graph = parseFxText(text, "<test>");
    ASSERT_TRUE(graph) << graph.error().str();
    auto inputs = makeRandomInputs(*graph, {}, 7);
    ASSERT_TRUE(inputs) << inputs.error().str();
    auto expected = interpretGraph(*graph, *inputs);
    ASSERT_TRUE(expected) << expected.error().str();
    Compiled c;
    ASSERT_TRUE(compile(graph.take(), c));
    for (int threads : {1, 2, 5}) {
      SCOPED_TRACE(std::to_string(threads) + " threads");
      LLVMOptions options;
      options.cache = false;
      options.threads = threads;
      auto result = runOnLLVM(c, *inputs, options);
      ASSERT_TRUE(result);
      ASSERT_EQ(result->outputs.size(), expected->outputs.size());
      for (size_t i = 0; i < result->outputs.size(); ++i) {
        const Tensor *got = result->outputs[i].tensor();
        const Tensor *want = expected->outputs[i].tensor();
        ASSERT_TRUE(got && want);
        ASSERT_EQ(got->dtype(), want->dtype());
        ASSERT_EQ(got->sizes(), want->sizes());
        double tol = got->dtype() == DType::Float16    ? 2e-2
                     : got->dtype() == DType::BFloat16 ? 2e-2
                                                       : 1e-5;
        Tensor::forEachIndex(want->sizes(), [&](std::span<const int64_t> idx) {
          double a = got->getDouble(idx), b = want->getDouble(idx);
          EXPECT_NEAR(a, b, tol * (1 + std::abs(b))) << "output " << i;
        });
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 15);
}

TEST(LLVMRuntime, HalfLoadsAndStoresAreExactForEveryBitPattern) {
  // Loads: every float16 bit pattern widened to float32. Stores: float32 values at and around
  // every float16 value (ties, the overflow bound, subnormals) rounded to float16.
  auto graph = parseFxText(R"(graph():
    %h : Tensor "f16[65536][1]cpu"[num_users=1] = placeholder[target=h]
    %f : Tensor "f32[196608][1]cpu"[num_users=1] = placeholder[target=f]
    %wide : [num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%h, torch.float32), kwargs = {})
    %narrow : [num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%f, torch.float16), kwargs = {})
    return (wide, narrow)
)",
                           "<test>");
  ASSERT_TRUE(graph) << graph.error().str();
  std::vector<uint16_t> bits(65536);
  for (size_t i = 0; i < bits.size(); ++i)
    bits[i] = static_cast<uint16_t>(i);
  auto h =
      Tensor::fromBytes(DType::Float16, {65536}, std::as_bytes(std::span<const uint16_t>(bits)));
  ASSERT_TRUE(h);
  auto wide = h->to(DType::Float32);
  ASSERT_TRUE(wide);
  std::vector<float> floats;
  for (int64_t i = 0; i < 65536; ++i) {
    float v = static_cast<float>(wide->getDouble(std::vector<int64_t>{i}));
    floats.push_back(v);
    floats.push_back(std::nextafter(v, INFINITY)); // just above: rounds back down...
    floats.push_back(v * (1 + 0x1p-11f));          // ...a tie or near one: to even
  }
  auto f =
      Tensor::fromBytes(DType::Float32, {196608}, std::as_bytes(std::span<const float>(floats)));
  ASSERT_TRUE(f);
  std::vector<RuntimeValue> inputs = {RuntimeValue{*h}, RuntimeValue{*f}};
  auto expected = interpretGraph(*graph, inputs);
  ASSERT_TRUE(expected) << expected.error().str();
  Compiled c;
  ASSERT_TRUE(compile(graph.take(), c));
  LLVMOptions options;
  options.cache = false;
  auto result = runOnLLVM(c, inputs, options);
  ASSERT_TRUE(result);
  for (size_t o = 0; o < 2; ++o) {
    const Tensor *got = result->outputs[o].tensor();
    const Tensor *want = expected->outputs[o].tensor();
    ASSERT_TRUE(got && want);
    size_t differ = 0;
    Tensor::forEachIndex(want->sizes(), [&](std::span<const int64_t> idx) {
      double a = got->getDouble(idx), b = want->getDouble(idx);
      bool same =
          (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
      if (!same && differ++ < 3)
        ADD_FAILURE() << "output " << o << " element " << idx[0] << ": " << a << " vs " << b;
    });
    EXPECT_EQ(differ, 0u) << "output " << o;
  }
}

TEST(LLVMRuntime, SecondLoadUsesTheCacheAndACorruptEntryIsRebuilt) {
  TempDir cache;
  LLVMOptions options;
  options.cacheDir = cache.path.string();
  fs::path graph;
  for (const fs::path &p : corpusGraphs("reference"))
    if (p.string().find("layernorm") != std::string::npos)
      graph = p;
  ASSERT_FALSE(graph.empty());

  LLVMStats first = checkReference(graph, options);
  EXPECT_EQ(first.kernelsCompiled, 1);
  LLVMStats second = checkReference(graph, options);
  EXPECT_EQ(second.kernelsCompiled, 0);
  EXPECT_EQ(second.kernelsFromCache, 1);

  int entries = 0;
  for (const auto &e : fs::directory_iterator(cache.path)) {
    std::fstream file(e.path(), std::ios::in | std::ios::out | std::ios::binary);
    file.seekg(-1, std::ios::end);
    char ch = 0;
    file.get(ch);
    file.seekp(-1, std::ios::end);
    file.put(static_cast<char>(ch ^ 0x5a));
    ++entries;
  }
  EXPECT_EQ(entries, 1); // the object
  LLVMStats third = checkReference(graph, options);
  EXPECT_EQ(third.corruptCacheEntries, 1);
  EXPECT_EQ(third.kernelsCompiled, 1);
  LLVMStats fourth = checkReference(graph, options);
  EXPECT_EQ(fourth.kernelsFromCache, 1);
  EXPECT_EQ(fourth.corruptCacheEntries, 0);
}

TEST(LLVMRuntime, CompileErrorsShowClangsDiagnosticsAtTheSourceLine) {
  CompileRequest request;
  request.source = "void fx_entry_k(void) {\n  int x = 1;\n  x = y + 2;\n}\n";
  request.sourcePath = "/tmp/fxkit-test-bad.cl";
  request.entryPoints = {"fx_entry_k"};
  auto object = compileToObject(request);
  ASSERT_FALSE(object);
  const std::string &m = object.error().message;
  EXPECT_NE(m.find("/tmp/fxkit-test-bad.cl:3:7: error: use of undeclared identifier 'y'"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("  x = y + 2;\n      ^"), std::string::npos) << m; // the line and a caret

  // Through the kernel set: the translation unit is written where the diagnostics point.
  opencl::GeneratedKernel k;
  k.name = "broken";
  k.source = "__kernel void broken(const long xnumel) {\n"
             "  for (fx_index_t xindex = get_global_id(0); xindex < xnumel;\n"
             "       xindex += get_global_size(0)) {\n"
             "    undefined_call(xindex);\n"
             "  }\n}\n";
  k.params.push_back({opencl::KernelParam::Kind::Numel, "xnumel", -1, false, SymExpr(4)});
  LLVMOptions options;
  options.cache = false;
  auto set = LLVMKernelSet::load({k}, "-cl-std=CL1.2", options);
  ASSERT_TRUE(set) << set.error().str();
  Status s = (*set)->launch(0, {}, 4, 1);
  ASSERT_FALSE(s);
  const std::string &msg = s.error().message;
  size_t at = msg.find("source: ");
  ASSERT_NE(at, std::string::npos) << msg;
  std::string path = msg.substr(at + 8, msg.find('\n', at) - at - 8);
  // The first "PATH:LINE:COL: error" (the message also says "cannot compile PATH:").
  size_t loc = msg.find(path + ":");
  while (loc != std::string::npos && !std::isdigit(static_cast<unsigned char>(
                                         msg[std::min(msg.size() - 1, loc + path.size() + 1)])))
    loc = msg.find(path + ":", loc + 1);
  ASSERT_NE(loc, std::string::npos) << msg;
  int line = std::stoi(msg.substr(loc + path.size() + 1));
  EXPECT_NE(msg.find("error: "), std::string::npos) << msg;
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::string text;
  for (int i = 0; i < line && std::getline(in, text); ++i) {
  }
  EXPECT_NE(text.find("undefined_call(xindex);"), std::string::npos)
      << "line " << line << ": " << text;
  fs::remove(path);
}

TEST(LLVMRuntime, KernelsOutsideTheExecutionModelAreRefused) {
  opencl::GeneratedKernel k;
  k.name = "k";
  k.source = "__kernel void k(const long xnumel) {\n  long n = xnumel * 2;\n}\n";
  auto unit = kernelTranslationUnit(k);
  ASSERT_FALSE(unit);
  EXPECT_NE(unit.error().message.find("uses xnumel beyond its row bound"), std::string::npos);
  k.source = "__kernel void k(const long xnumel) {\n  long y = get_global_id(1);\n}\n";
  unit = kernelTranslationUnit(k);
  ASSERT_FALSE(unit);
  EXPECT_NE(unit.error().message.find("beyond dimension 0"), std::string::npos);
  k.source = "__kernel void k(const long xnumel) {\n"
             "  for (long xindex = get_global_id(0); xindex < xnumel; xindex += 1) {}\n}\n";
  unit = kernelTranslationUnit(k);
  ASSERT_TRUE(unit) << unit.error().str();
  EXPECT_NE(unit->find("void fx_entry_k("), std::string::npos);
}

TEST(LLVMRuntime, ThreadPoolRunsEveryTaskExactlyOnce) {
  for (size_t threads : {1u, 3u, 8u}) {
    ThreadPool pool(threads);
    EXPECT_EQ(pool.size(), threads);
    for (size_t tasks : {0u, 1u, 7u, 1000u}) {
      std::vector<std::atomic<int>> ran(tasks);
      pool.parallelFor(tasks, [&](size_t i) { ran[i].fetch_add(1); });
      for (size_t i = 0; i < tasks; ++i)
        EXPECT_EQ(ran[i].load(), 1) << threads << " threads, task " << i << " of " << tasks;
    }
  }
}

TEST(LLVMRuntime, WrongInputsAreErrors) {
  auto graph = parseFxText(kPathGraphs[0], "<test>");
  ASSERT_TRUE(graph);
  Compiled c;
  ASSERT_TRUE(compile(graph.take(), c));
  auto program = LLVMProgram::load(c.program, c.fused, c.plan, {});
  ASSERT_TRUE(program);
  std::vector<RuntimeValue> none;
  auto r = (*program)->run(none);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "the program has 1 inputs, got 0");
}

} // namespace
