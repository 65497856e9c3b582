#pragma once
/// \file Compiling graphs in tests: FX text parsed, shapes inferred, lowered, fused, size
/// arguments hoisted and memory planned (the pipeline of tests/gen/Differential.h, which the
/// CLI runs too), then run on OpenCL or LLVM; temporary kernel caches; checks that a graph
/// lowers to loops. One home for what each backend's tests would otherwise write again.

#include "backends/interp/Interpreter.h"
#include "backends/interp/LoopInterpreter.h"
#include "importers/FxTextParser.h"
#include "ir/Tensor.h"
#include "tests/gen/Differential.h"
#include "transforms/Lowering.h"
#include "transforms/ShapeInference.h"

#ifdef FXKIT_HAVE_OPENCL
#include "backends/opencl/codegen/OpenCLKernelGen.h"
#include "backends/opencl/runtime/OpenCLProgram.h"
#endif
#ifdef FXKIT_HAVE_LLVM
#include "backends/llvm/LLVMProgram.h"
#endif

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace fxkit::testing {

/// A compiled graph with the graph it came from: tests read its inferred types (to make random
/// inputs) and its nodes after compiling.
struct Compiled : CompiledLoops {
  Graph graph;
};

/// Infers `graph`'s shapes and compiles it into `c` (compileLoops); a failure says why.
inline ::testing::AssertionResult compile(Graph graph, Compiled &c) {
  c.graph = std::move(graph);
  if (Status s = inferShapes(c.graph); !s)
    return ::testing::AssertionFailure() << s.error().str();
  if (Status s = compileLoops(c.graph, c); !s)
    return ::testing::AssertionFailure() << s.error().str();
  return ::testing::AssertionSuccess();
}

/// Parses the FX text `text` and compiles it into `c`.
inline ::testing::AssertionResult compile(std::string_view text, Compiled &c) {
  auto graph = parseFxText(text, "<test>");
  if (!graph)
    return ::testing::AssertionFailure() << graph.error().str();
  return compile(graph.take(), c);
}

/// `text` with its first placeholders typed as `inputs` (their sizes, strides and dtypes), so
/// that one untyped graph serves inputs of any layout, compiled into `c`.
inline ::testing::AssertionResult compile(std::string_view text, const std::vector<Tensor> &inputs,
                                          Compiled &c) {
  auto graph = parseFxText(text, "<test>");
  if (!graph)
    return ::testing::AssertionFailure() << graph.error().str();
  size_t i = 0;
  for (Node *n : *graph)
    if (n->op() == OpKind::Placeholder && i < inputs.size())
      n->value().v = inputs[i++].typeOf();
  return compile(graph.take(), c);
}

/// Expects no op of `program` to be an extern call: the ops under test lower to loops, and a
/// fallback to the reference kernel would pass every value check unnoticed.
inline void expectNoExterns(const loop::LoopProgram &program) {
  for (const loop::LoopOp &op : program.ops)
    EXPECT_NE(op.kind, loop::LoopOpKind::Extern)
        << "not lowered to loops: " << (op.originOps.empty() ? "?" : op.originOps[0]) << "\n"
        << program.str();
}

/// Parses `text`, infers its shapes, lowers it and expects no extern call (expectNoExterns).
inline void expectLowersToLoops(std::string_view text) {
  auto graph = parseFxText(text, "<test>");
  ASSERT_TRUE(graph) << graph.error().str();
  ASSERT_TRUE(inferShapes(*graph));
  auto program = lowerGraph(*graph);
  ASSERT_TRUE(program) << program.error().str();
  expectNoExterns(*program);
}

/// A temporary folder (a kernel cache) named after the running test, removed at both ends so
/// that no test reads what an earlier run left.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    const ::testing::TestInfo *test = ::testing::UnitTest::GetInstance()->current_test_info();
    path = std::filesystem::temp_directory_path() /
           ("fxkit-test-" + std::string(test->test_suite_name()) + "-" + test->name() + "-" +
            std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
    std::filesystem::remove_all(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
};

/// Sets an environment variable for a scope, as it was before after it.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name_(name) {
    if (const char *old = std::getenv(name))
      old_ = old;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (old_)
      setenv(name_, old_->c_str(), 1);
    else
      unsetenv(name_);
  }

private:
  const char *name_;
  std::optional<std::string> old_;
};

/// Runs a program that `load` returned (an OpenCLProgram or an LLVMProgram) and returns the
/// result, failing the test on an error; `stats`, where given, receives the run's statistics.
template <typename Program, typename Stats>
std::optional<InterpretResult> runLoaded(Expected<std::unique_ptr<Program>> program,
                                         std::span<const RuntimeValue> inputs, Stats *stats) {
  EXPECT_TRUE(program) << (program ? "" : program.error().str());
  if (!program)
    return std::nullopt;
  auto result = (*program)->run(inputs);
  EXPECT_TRUE(result) << (result ? "" : result.error().str());
  if (stats)
    *stats = (*program)->stats();
  if (!result)
    return std::nullopt;
  return result.take();
}

#ifdef FXKIT_HAVE_OPENCL
/// Skips the test, visibly, where there is no OpenCL device.
#define REQUIRE_OPENCL_DEVICE()                                                                    \
  if (!::fxkit::testing::openclContext())                                                          \
  GTEST_SKIP() << "no OpenCL device (install pocl-opencl-icd)"

/// The OpenCL C kernels of graph `text`, generated with `options` (a failed compile or generation
/// fails the test and gives none).
inline opencl::GeneratedProgram generatedOpenCL(std::string_view text,
                                                const opencl::GenerateOptions &options = {}) {
  Compiled c;
  EXPECT_TRUE(compile(text, c));
  auto code = opencl::generateOpenCL(c.program, c.fused, options);
  EXPECT_TRUE(code) << (code ? "" : code.error().str());
  return code ? code.take() : opencl::GeneratedProgram{};
}

/// Runs `c` on the default OpenCL device (on `ctx` where given): runLoaded.
inline std::optional<InterpretResult> runOnOpenCL(const CompiledLoops &c,
                                                  std::span<const RuntimeValue> inputs,
                                                  const opencl::OpenCLOptions &options,
                                                  opencl::OpenCLStats *stats = nullptr,
                                                  opencl::OpenCLContext *ctx = nullptr) {
  return runLoaded(opencl::OpenCLProgram::load(ctx ? *ctx : *openclContext(), c.program, c.fused,
                                               c.plan, options),
                   inputs, stats);
}
#endif

#ifdef FXKIT_HAVE_LLVM
/// Runs `c` through the LLVM JIT: runLoaded.
inline std::optional<InterpretResult> runOnLLVM(const CompiledLoops &c,
                                                std::span<const RuntimeValue> inputs,
                                                const llvmjit::LLVMOptions &options,
                                                llvmjit::LLVMStats *stats = nullptr) {
  return runLoaded(llvmjit::LLVMProgram::load(c.program, c.fused, c.plan, options), inputs, stats);
}
#endif

/// How runOnEveryLoopBackend configures the backends (a field of a backend this build lacks is
/// not read).
struct LoopBackendChoice {
  bool interpreter = true; ///< the loop interpreter too
  /// OpenCL launch configurations to force, one run each ("opencl CONFIG"); none: one run in the
  /// default configuration ("opencl"). Untuned either way.
  std::vector<std::string> openclConfigs;
  bool openclTuned = false; ///< one more OpenCL run, autotuned ("opencl tuned")
  int llvmThreads = 0;      ///< LLVMOptions::threads (0: its default)
};

/// Runs `c` on every loop backend this build has, in order the loop interpreter ("loops"), OpenCL
/// on the default device (named as LoopBackendChoice says) and the LLVM JIT ("llvm"), with one
/// temporary kernel cache, and hands each backend's name and result to `check`. A build with
/// OpenCL and no device fails the test: a backend skipped unnoticed would pass every check.
inline void runOnEveryLoopBackend(
    const CompiledLoops &c, std::span<const RuntimeValue> inputs, const LoopBackendChoice &choice,
    const std::function<void(const std::string &, Expected<InterpretResult>)> &check) {
  if (choice.interpreter)
    check("loops", interpretLoopProgram(c.program, c.fused, inputs));
  TempDir cache;
#ifdef FXKIT_HAVE_OPENCL
  if (openclContext()) {
    // {name, forced configuration, tuned}
    std::vector<std::tuple<std::string, std::string, bool>> runs;
    for (const std::string &config : choice.openclConfigs)
      runs.emplace_back("opencl " + config, config, false);
    if (choice.openclConfigs.empty())
      runs.emplace_back("opencl", "", false);
    if (choice.openclTuned)
      runs.emplace_back("opencl tuned", "", true);
    for (const auto &[name, config, tuned] : runs) {
      opencl::OpenCLOptions options;
      options.cacheDir = cache.path.string();
      options.tune = tuned;
      options.forceConfig = config;
      auto program =
          opencl::OpenCLProgram::load(*openclContext(), c.program, c.fused, c.plan, options);
      check(name, program ? (*program)->run(inputs) : Expected<InterpretResult>(program.error()));
    }
  } else {
    ADD_FAILURE() << "no OpenCL device (install pocl-opencl-icd)";
  }
#endif
#ifdef FXKIT_HAVE_LLVM
  llvmjit::LLVMOptions options;
  options.cacheDir = cache.path.string();
  if (choice.llvmThreads > 0)
    options.threads = choice.llvmThreads;
  auto program = llvmjit::LLVMProgram::load(c.program, c.fused, c.plan, options);
  check("llvm", program ? (*program)->run(inputs) : Expected<InterpretResult>(program.error()));
#endif
}

/// Each loop backend's outputs of `c` (runOnEveryLoopBackend), in that order; an error fails the
/// test and leaves that backend out.
inline std::vector<std::pair<std::string, InterpretResult>>
resultsOnEveryLoopBackend(const CompiledLoops &c, std::span<const RuntimeValue> inputs,
                          const LoopBackendChoice &choice = {}) {
  std::vector<std::pair<std::string, InterpretResult>> out;
  runOnEveryLoopBackend(c, inputs, choice,
                        [&](const std::string &backend, Expected<InterpretResult> r) {
                          EXPECT_TRUE(r) << backend << ": " << (r ? "" : r.error().str());
                          if (r)
                            out.emplace_back(backend, r.take());
                        });
  return out;
}

} // namespace fxkit::testing
