/// Compiled programs with unbacked sizes (issue 17 goal 3): `.item()`, nonzero and boolean-mask
/// indexing run as extern calls that bind their symbol (u0, u1, ...) when they have run; later
/// kernels take it as a size argument, buffers it sizes are allocated then (memory plan kind
/// Unbacked), and assertions on it are checked at run time. Every backend (loop interpreter,
/// OpenCL on PoCL, LLVM) agrees with the reference interpreter and with hand-worked values.

#include "CompileTestSupport.h"
#include "InterpreterTestSupport.h"
#include "backends/interp/LoopInterpreter.h"
#include "exporters/wrapper/WrapperPyWriter.h"
#include "transforms/MemoryPlanning.h"

#include <gtest/gtest.h>

using namespace fxkit;
using namespace fxkit::testing;

namespace {

/// Runs `text` on the reference interpreter and on every backend and expects the same outputs
/// and the same values of the unbacked symbols (`symbols`). Returns the reference outputs.
std::vector<RuntimeValue> expectBackendsAgree(const std::string &text,
                                              const std::vector<RuntimeValue> &inputs,
                                              const std::map<std::string, int64_t> &symbols) {
  SCOPED_TRACE(text);
  auto ref = runText(text, inputs);
  EXPECT_TRUE(ref) << (ref ? "" : ref.error().str());
  if (!ref)
    return {};
  Compiled c;
  EXPECT_TRUE(compile(text, c));
  for (const auto &[name, result] : resultsOnEveryLoopBackend(c, inputs)) {
    SCOPED_TRACE(name);
    EXPECT_EQ(result.outputs.size(), ref->outputs.size());
    for (size_t i = 0; i < result.outputs.size() && i < ref->outputs.size(); ++i) {
      const Tensor *got = result.outputs[i].tensor();
      const Tensor *want = ref->outputs[i].tensor();
      EXPECT_TRUE(got && want) << "output " << i;
      if (!got || !want)
        continue;
      EXPECT_EQ(got->sizes(), want->sizes()) << "output " << i;
      if (got->sizes() == want->sizes())
        expectValues(*got, flat(*want), 1e-6);
    }
    for (const auto &[symbol, value] : symbols) {
      auto found = result.bindings.find(symbol);
      EXPECT_TRUE(found != result.bindings.end()) << symbol << " not bound";
      if (found != result.bindings.end()) {
        EXPECT_EQ(found->second, value) << symbol;
      }
    }
  }
  // The differential checker (the OpInfo samples' and fuzzers' oracle). Not the text formats:
  // the fxpy writer prints a bare assertion message as code (not this issue's subject).
  DifferentialOptions options;
  options.inputs = &inputs;
  options.formats = false;
  auto failure = checkGraphDifferentially(text, {}, options);
  EXPECT_FALSE(failure) << diffStageName(failure->stage) << ": " << failure->message;
  return ref->outputs;
}

Tensor ramp(std::vector<int64_t> sizes, double start, double step) {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i)
    v.push_back(start + step * static_cast<double>(i));
  return fromValues(std::move(sizes), v, DType::Float32);
}

Tensor scalarInt(int64_t v) { return fromValues({}, {static_cast<double>(v)}, DType::Int64); }

// x[:, :n].sum(1) + n with n = k.item(): the slice's length and the added value are u0.
const char *kItemSlice = R"(graph():
    %x : Tensor "f32[3, 6][6, 1]cpu"[num_users=1] = placeholder[target=x]
    %k : Tensor "i64[][]cpu"[num_users=1] = placeholder[target=k]
    %n : [num_users=4] = call_function[target=torch.ops.aten._local_scalar_dense.default](args = (%k,), kwargs = {})
    %ge : [num_users=1] = call_function[target=operator.ge](args = (%n, 0), kwargs = {})
    %a0 : [num_users=0] = call_function[target=torch.ops.aten._assert_scalar.default](args = (%ge, Runtime assertion failed for expression u0 >= 0 on node 'ge'), kwargs = {})
    %le : [num_users=1] = call_function[target=operator.le](args = (%n, 6), kwargs = {})
    %a1 : [num_users=0] = call_function[target=torch.ops.aten._assert_scalar.default](args = (%le, Runtime assertion failed for expression u0 <= 6 on node 'le'), kwargs = {})
    %s : [num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%x, 1, 0, %n), kwargs = {})
    %r : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%s, [1]), kwargs = {})
    %o : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%r, %n), kwargs = {})
    return (o,)
)";

TEST(UnbackedCompile, ItemSizesASliceAndIsAKernelArgument) {
  // x = 0..17 in rows of 6; n = 4: row sums of the first 4 columns plus 4.
  std::vector<RuntimeValue> inputs{RuntimeValue{ramp({3, 6}, 0, 1)}, RuntimeValue{scalarInt(4)}};
  auto ref = expectBackendsAgree(kItemSlice, inputs, {{"n", 4}});
  ASSERT_EQ(ref.size(), 1u);
  expectValues(*ref[0].tensor(), {6 + 4, 30 + 4, 54 + 4});
  // The extern op binds the item's symbol (a graph without recorded types names it after the
  // node, as untyped integer placeholders are) and holds both checks.
  Compiled c;
  ASSERT_TRUE(compile(kItemSlice, c));
  EXPECT_EQ(c.program.unbackedSymbols(), std::vector<std::string>{"n"});
  int checks = 0;
  for (const loop::LoopOp &op : c.program.ops)
    checks += static_cast<int>(op.checks.size());
  EXPECT_EQ(checks, 2) << c.program.str();
}

TEST(UnbackedCompile, AFailedCheckIsAnErrorNamingTheAssertion) {
  // n = 7 > 6: every backend stops at the check, as PyTorch's _assert_scalar does.
  std::vector<RuntimeValue> inputs{RuntimeValue{ramp({3, 6}, 0, 1)}, RuntimeValue{scalarInt(7)}};
  auto ref = runText(kItemSlice, inputs);
  ASSERT_FALSE(ref);
  Compiled c;
  ASSERT_TRUE(compile(kItemSlice, c));
  runOnEveryLoopBackend(c, inputs, {}, [](const std::string &backend, Expected<InterpretResult> r) {
    SCOPED_TRACE(backend);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("node 'a1'"), std::string::npos) << r.error().str();
    if (backend == "loops") {
      EXPECT_NE(r.error().message.find("u0 <= 6"), std::string::npos) << r.error().str();
      EXPECT_NE(r.error().message.find("(n = 7)"), std::string::npos) << r.error().str();
    }
  });
}

TEST(UnbackedCompile, SymConstrainRangeForSizeIsCheckedAtRunTime) {
  std::string text = R"(graph():
    %k : Tensor "i64[][]cpu"[num_users=1] = placeholder[target=k]
    %x : Tensor "f32[8][1]cpu"[num_users=1] = placeholder[target=x]
    %n : [num_users=2] = call_function[target=torch.ops.aten._local_scalar_dense.default](args = (%k,), kwargs = {})
    %c : [num_users=0] = call_function[target=torch.ops.aten.sym_constrain_range_for_size.default](args = (%n,), kwargs = {max: 5})
    %o : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, %n), kwargs = {})
    return (o,)
)";
  std::vector<RuntimeValue> ok{RuntimeValue{scalarInt(3)}, RuntimeValue{ramp({8}, 1, 1)}};
  auto ref = expectBackendsAgree(text, ok, {{"n", 3}});
  ASSERT_EQ(ref.size(), 1u);
  expectValues(*ref[0].tensor(), {3, 6, 9, 12, 15, 18, 21, 24});
  Compiled c;
  ASSERT_TRUE(compile(text, c));
  for (int64_t bad : {-1, 6}) {
    std::vector<RuntimeValue> inputs{RuntimeValue{scalarInt(bad)}, RuntimeValue{ramp({8}, 1, 1)}};
    EXPECT_FALSE(runText(text, inputs)) << bad;
    auto loops = interpretLoopProgram(c.program, c.fused, inputs);
    ASSERT_FALSE(loops) << bad;
    EXPECT_NE(loops.error().message.find("node 'c'"), std::string::npos) << loops.error().str();
  }
}

// nonzero of x > 0, as float, summed over its rows (per dim: the sum of the coordinates), and
// the coordinates themselves returned: an output sized by u0.
const char *kNonzero = R"(graph():
    %x : Tensor "f32[4, 5][5, 1]cpu"[num_users=1] = placeholder[target=x]
    %gt : [num_users=1] = call_function[target=torch.ops.aten.gt.Scalar](args = (%x, 0), kwargs = {})
    %nz : [num_users=2] = call_function[target=torch.ops.aten.nonzero.default](args = (%gt,), kwargs = {})
    %f : [num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%nz, torch.float32), kwargs = {})
    %s : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%f, [0]), kwargs = {})
    %m : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%s, 2), kwargs = {})
    return (m, nz)
)";

TEST(UnbackedCompile, NonzeroFeedsAReductionAndIsAnOutput) {
  // x = -7.5 .. 2 step 0.5: positive from element 16 on (16..19: row 3, cols 1..4).
  std::vector<RuntimeValue> inputs{RuntimeValue{ramp({4, 5}, -7.5, 0.5)}};
  auto ref = expectBackendsAgree(kNonzero, inputs, {{"u0", 4}});
  ASSERT_EQ(ref.size(), 2u);
  expectValues(*ref[0].tensor(), {2 * (3 * 4), 2 * (1 + 2 + 3 + 4)});
  expectValues(*ref[1].tensor(), {3, 1, 3, 2, 3, 3, 3, 4});
  // Its buffer (and no other) waits for u0: planned as Unbacked, described so, validated.
  Compiled c;
  ASSERT_TRUE(compile(kNonzero, c));
  int unbacked = 0;
  for (const loop::BufferPlacement &pl : c.plan.buffers)
    unbacked += pl.kind == loop::BufferPlacement::Kind::Unbacked;
  EXPECT_EQ(unbacked, 1);
  EXPECT_TRUE(validateMemoryPlan(c.program, c.fused, c.plan));
  std::string text = describeMemoryPlan(c.program, c.fused, c.plan);
  EXPECT_NE(text.find("own, allocated when u0 is bound"), std::string::npos) << text;
}

TEST(UnbackedCompile, AnEmptyNonzeroRunsKernelsOverNothing) {
  // No positive element: u0 = 0, an empty output and sums of nothing.
  std::vector<RuntimeValue> inputs{RuntimeValue{ramp({4, 5}, -20, 0.5)}};
  auto ref = expectBackendsAgree(kNonzero, inputs, {{"u0", 0}});
  ASSERT_EQ(ref.size(), 2u);
  expectValues(*ref[0].tensor(), {0, 0});
  EXPECT_EQ(ref[1].tensor()->sizes(), (std::vector<int64_t>{0, 2}));
}

TEST(UnbackedCompile, BooleanMaskIndexFeedsPointwiseAndReduction) {
  // x[x > 1] * 3, and its sum: values 1.5, 2, 2.5 of the ramp -1 .. 2.5.
  std::string text = R"(graph():
    %x : Tensor "f32[2, 4][4, 1]cpu"[num_users=2] = placeholder[target=x]
    %gt : [num_users=1] = call_function[target=torch.ops.aten.gt.Scalar](args = (%x, 1), kwargs = {})
    %i : [num_users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%x, [%gt]), kwargs = {})
    %m : [num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%i, 3), kwargs = {})
    %s : [num_users=1] = call_function[target=torch.ops.aten.sum.default](args = (%m,), kwargs = {})
    return (m, s)
)";
  std::vector<RuntimeValue> inputs{RuntimeValue{ramp({2, 4}, -1, 0.5)}};
  auto ref = expectBackendsAgree(text, inputs, {{"u0", 3}});
  ASSERT_EQ(ref.size(), 2u);
  expectValues(*ref[0].tensor(), {4.5, 6, 7.5});
  expectValues(*ref[1].tensor(), {18});
}

TEST(UnbackedCompile, PythonWrapperBindsSymbolsWhereInductorDoes) {
  Compiled c;
  ASSERT_TRUE(compile(kNonzero, c));
  auto py = writeWrapperPy(c.program, c.fused, &c.plan);
  ASSERT_TRUE(py) << py.error().str();
  // The call, the symbol from its result, then the buffer it sizes, then the copy.
  size_t call = py->find("extern_out = torch.ops.aten.nonzero.default(");
  size_t def = py->find("    u0 = extern_out.size(0)\n");
  size_t alloc = py->find(" = empty_strided((u0, 2), (1, u0), dtype=torch.int64, device=device)");
  size_t copy = py->find(".copy_(extern_out)");
  ASSERT_NE(call, std::string::npos) << *py;
  ASSERT_NE(def, std::string::npos) << *py;
  ASSERT_NE(alloc, std::string::npos) << *py;
  ASSERT_NE(copy, std::string::npos) << *py;
  EXPECT_LT(call, def);
  EXPECT_LT(def, alloc);
  EXPECT_LT(alloc, copy);

  Compiled item;
  ASSERT_TRUE(compile(kItemSlice, item));
  auto py2 = writeWrapperPy(item.program, item.fused, &item.plan);
  ASSERT_TRUE(py2) << py2.error().str();
  EXPECT_NE(py2->find("    n = extern_out\n"), std::string::npos) << *py2;
  EXPECT_NE(py2->find("    if not (n <= 6):\n        raise RuntimeError(\"Runtime assertion "
                      "failed for expression u0 <= 6 on node 'le' (node a1)\")\n"),
            std::string::npos)
      << *py2;
}

TEST(UnbackedCompile, AFloatItemIsRefusedWithTheReason) {
  // A float .item() is a SymFloat (PyTorch's zuf0): no integer binding carries it.
  std::string text = R"(graph():
    %x : Tensor "f32[][]cpu"[num_users=1] = placeholder[target=x]
    %y : Tensor "f32[4][1]cpu"[num_users=1] = placeholder[target=y]
    %v : [num_users=1] = call_function[target=torch.ops.aten._local_scalar_dense.default](args = (%x,), kwargs = {})
    %o : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%y, %v), kwargs = {})
    return (o,)
)";
  Compiled c;
  auto r = compile(text, c);
  ASSERT_FALSE(r);
  EXPECT_NE(std::string(r.message()).find("depends on the data"), std::string::npos) << r.message();
}

} // namespace
