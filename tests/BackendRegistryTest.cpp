// The backend registry (backends/Backend.h): the names and help the command line derives from
// it, the error for an unknown name, and every backend built here running one compiled graph
// to hand-worked values through the one repeat loop (runRepeated).
#include "backends/Backend.h"
#include "tests/CompileTestSupport.h"
#include "tests/InterpreterTestSupport.h"

#include <gtest/gtest.h>

#include <sstream>

namespace fxkit {
namespace {

using testing::fromValues;

TEST(BackendRegistryTest, NamesHelpAndUnknown) {
  std::vector<std::string> names;
  for (const auto &b : backendRegistry())
    names.push_back(b->name());
  EXPECT_EQ(names, (std::vector<std::string>{"interp", "loops", "opencl", "llvm", "cpp-wrapper"}));
  EXPECT_EQ(backendNames(), "interp, loops, opencl, llvm or cpp-wrapper");
  // The text `fxkit run --help` printed before the registry, byte for byte.
  EXPECT_EQ(backendHelp(),
            "interp (reference interpreter, the default), loops (compiled loop program, "
            "interpreted), opencl (compiled kernels), llvm (the same kernels compiled by "
            "Clang for this CPU) or cpp-wrapper (the graph's C++ wrapper compiled in process "
            "and loaded; kept in the kernel cache, or --wrapper DIR)");
  auto unknown = findBackend("cuda");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().message, "unknown backend 'cuda' (expected interp, loops, opencl, "
                                     "llvm or cpp-wrapper)");
  EXPECT_TRUE(backendRegistry()[0]->available());
  EXPECT_TRUE(backendRegistry()[1]->available());
  BackendOptions options;
  EXPECT_FALSE(backendRegistry()[0]->needsProgram(options));
  EXPECT_TRUE(backendRegistry()[1]->needsProgram(options));
  // cpp-wrapper needs the program only to write the graph's own wrapper.
  options.wrapper = "/some/folder";
  EXPECT_FALSE((*findBackend("cpp-wrapper"))->needsProgram(options));
}

// relu(x) * 2 + 1 on [-1.5, 0, 2]: [1, 1, 5], on every backend built here except cpp-wrapper
// (its loaded objects link against the executable's exported runtime: CppWrapper*Test).
TEST(BackendRegistryTest, EveryBuiltBackendRunsTheSameValues) {
  testing::Compiled c;
  ASSERT_TRUE(testing::compile(R"(graph():
    %x : Tensor "f32[3][1]cpu"[num_users=1] = placeholder[target=x]
    %r : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})
    %m : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%r, 2), kwargs = {})
    %a : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%m, 1), kwargs = {})
    return (a,)
)",
                               c));
  registerReferenceKernels();
  int ran = 0;
  for (const auto &backend : backendRegistry()) {
    if (backend->name() == "cpp-wrapper" || !backend->available())
      continue;
    SCOPED_TRACE(backend->name());
    BackendOptions options;
    options.cache = false;
    options.tune = false;
    BackendInput in{&c.graph, &c.program, &c.fused, &c.plan};
    auto exe = backend->prepare(in, options);
    ASSERT_TRUE(exe) << exe.error().str();
    std::vector<RuntimeValue> inputs{RuntimeValue{fromValues({3}, {-1.5, 0, 2})}};
    std::ostringstream err;
    auto result = runRepeated(**exe, inputs, 2, 0, true, options, err);
    ASSERT_TRUE(result) << result.error().str();
    ASSERT_EQ(result->outputs.size(), 1u);
    testing::expectValues(*result->outputs[0].tensor(), {1, 1, 5});
    // The statistics name the backend that ran (interp and loops print none).
    if (backend->name() == "opencl" || backend->name() == "llvm")
      EXPECT_NE(err.str().find(backend->name() + ": first run "), std::string::npos) << err.str();
    else
      EXPECT_EQ(err.str(), "");
    ++ran;
  }
  EXPECT_GE(ran, 2);
}

} // namespace
} // namespace fxkit
