/// Extern ops that write an input in place (`Tensor(a!)` in their schema: training batch
/// norm's running statistics, index_put_'s self) where they run on the host with the reference
/// kernel inside a compiled program: the LLVM backend (always on the host), OpenCL where the
/// device kernel declines (a boolean-mask index_put_), and the loop interpreter. Each backend
/// must agree with the reference interpreter on the outputs (the written input, returned and
/// read by a later op) and on the caller's input tensors after the run, which the interpreter's
/// kernels write through their shared storage.

#include "DeviceExternsTestSupport.h"
#include "backends/interp/LoopInterpreter.h"
#include "ir/ops/OpRegistry.h"

#include <gtest/gtest.h>

using namespace fxkit;
using namespace fxkit::testing;
using namespace fxkit::testing::device_tests;

namespace {

/// Copies of `inputs` with storage of their own (each run writes into its inputs).
std::vector<RuntimeValue> copies(const std::vector<RuntimeValue> &inputs) {
  std::vector<RuntimeValue> out;
  for (const RuntimeValue &v : inputs)
    out.push_back(v.tensor() ? RuntimeValue{layoutPreservingCopy(*v.tensor())} : v);
  return out;
}

/// Expects `got`'s outputs and written inputs to equal the reference's.
void expectRun(const char *backend, const InterpretResult &got,
               const std::vector<RuntimeValue> &gotInputs, const InterpretResult &want,
               const std::vector<RuntimeValue> &wantInputs) {
  SCOPED_TRACE(backend);
  ASSERT_EQ(got.outputs.size(), want.outputs.size());
  for (size_t i = 0; i < want.outputs.size(); ++i)
    expectSame(got.outputs[i], want.outputs[i], i);
  for (size_t i = 0; i < wantInputs.size(); ++i) {
    SCOPED_TRACE("input " + std::to_string(i));
    expectSame(gotInputs[i], wantInputs[i], i);
  }
}

/// Runs `text` on `inputs` with the reference interpreter, the loop interpreter, LLVM and
/// OpenCL; expects every backend to agree with the reference on outputs and written inputs,
/// and at least one input to have changed (the test would otherwise prove nothing). Returns
/// the OpenCL run's stats (all zero without a device).
opencl::OpenCLStats expectWritesAgree(const std::string &text,
                                      const std::vector<RuntimeValue> &inputs,
                                      int llvmHostExterns) {
  opencl::OpenCLStats clStats;
  registerReferenceKernels();
  auto reference = parseFxText(text, "<test>");
  EXPECT_TRUE(reference) << (reference ? "" : reference.error().str());
  if (!reference)
    return clStats;
  std::vector<RuntimeValue> wantInputs = copies(inputs);
  auto want = interpretGraph(*reference, wantInputs);
  EXPECT_TRUE(want) << (want ? "" : want.error().str());
  if (!want)
    return clStats;
  bool changed = false;
  for (size_t i = 0; i < inputs.size(); ++i)
    if (const Tensor *t = inputs[i].tensor())
      changed = changed || flat(*t) != flat(*wantInputs[i].tensor());
  EXPECT_TRUE(changed) << "the reference wrote no input";

  Compiled c;
  EXPECT_TRUE(compile(text, c));
  if (!c.graph.size())
    return clStats;
  {
    std::vector<RuntimeValue> in = copies(inputs);
    auto got = interpretLoopProgram(c.program, c.fused, in);
    EXPECT_TRUE(got) << (got ? "" : got.error().str());
    if (got)
      expectRun("loops", *got, in, *want, wantInputs);
  }
#ifdef FXKIT_HAVE_LLVM
  {
    TempDir cache;
    llvmjit::LLVMOptions options;
    options.cacheDir = cache.path.string();
    llvmjit::LLVMStats stats;
    std::vector<RuntimeValue> in = copies(inputs);
    auto got = runOnLLVM(c, in, options, &stats);
    if (got)
      expectRun("llvm", *got, in, *want, wantInputs);
    EXPECT_EQ(stats.hostExterns, llvmHostExterns);
  }
#endif
  if (openclContext()) {
    TempDir cache;
    opencl::OpenCLOptions options;
    options.cacheDir = cache.path.string();
    std::vector<RuntimeValue> in = copies(inputs);
    auto got = runOnOpenCL(c, in, options, &clStats);
    if (got)
      expectRun("opencl", *got, in, *want, wantInputs);
  }
  return clStats;
}

/// Training batch norm on x: returns the result, save_mean, save_invstd, the running
/// statistics after the in-place update and a later reader of running_mean.
const char *kBatchNormTraining = R"(graph():
    %x : Tensor "f32[4, 3, 5][15, 5, 1]cpu"[num_users=1] = placeholder[target=x]
    %w : Tensor "f32[3][1]cpu"[num_users=1] = placeholder[target=w]
    %b : Tensor "f32[3][1]cpu"[num_users=1] = placeholder[target=b]
    %rm : Tensor "f32[3][1]cpu"[num_users=2] = placeholder[target=rm]
    %rv : Tensor "f32[3][1]cpu"[num_users=2] = placeholder[target=rv]
    %r : [num_users=3] = call_function[target=torch.ops.aten._native_batch_norm_legit.default](args = (%x, %w, %b, %rm, %rv, True, 0.1, 1e-05), kwargs = {})
    %r0 : [num_users=1] = call_function[target=operator.getitem](args = (%r, 0), kwargs = {})
    %r1 : [num_users=1] = call_function[target=operator.getitem](args = (%r, 1), kwargs = {})
    %r2 : [num_users=1] = call_function[target=operator.getitem](args = (%r, 2), kwargs = {})
    %y : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%rm, 2.0), kwargs = {})
    return (r0, r1, r2, rm, rv, y)
)";

TEST(DeviceExternsHostWrites, SchemaMarksTheWrittenArguments) {
  auto s = parseSchema("index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool "
                       "accumulate=False) -> Tensor(a!)");
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->args[0].mutated);
  EXPECT_FALSE(s->args[1].mutated);
  EXPECT_FALSE(s->args[2].mutated);
  auto t = parseSchema("_foreach_add_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()");
  ASSERT_TRUE(t);
  EXPECT_TRUE(t->args[0].mutated);
  // A view's alias annotation without `!` marks nothing.
  auto v = parseSchema("view(Tensor(a) self, SymInt[] size) -> Tensor(a)");
  ASSERT_TRUE(v);
  EXPECT_FALSE(v->args[0].mutated);
}

TEST(DeviceExternsHostWrites, TrainingBatchNormRunningStatistics) {
  auto graph = parseFxText(kBatchNormTraining, "<test>");
  ASSERT_TRUE(graph);
  auto inputs = makeRandomInputs(*graph, {}, 5);
  ASSERT_TRUE(inputs);
  // LLVM runs batch norm with the reference kernel; OpenCL with its device kernel.
  opencl::OpenCLStats s = expectWritesAgree(kBatchNormTraining, *inputs, 1);
  if (openclContext()) {
    EXPECT_EQ(s.deviceExterns, 1);
  }
}

TEST(DeviceExternsHostWrites, IndexPutWithABooleanMask) {
  const char *text = R"(graph():
    %x : Tensor "f32[5, 4][4, 1]cpu"[num_users=3] = placeholder[target=x]
    %m : Tensor "b8[5][1]cpu"[num_users=1] = placeholder[target=m]
    %v : Tensor "f32[4][1]cpu"[num_users=1] = placeholder[target=v]
    %r : [num_users=1] = call_function[target=torch.ops.aten.index_put_.default](args = (%x, [%m], %v, False), kwargs = {})
    %y : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, 2), kwargs = {})
    return (r, x, y)
)";
  auto graph = parseFxText(text, "<test>");
  ASSERT_TRUE(graph);
  auto inputs = makeRandomInputs(*graph, {}, 9);
  ASSERT_TRUE(inputs);
  auto mask = Tensor::zeros(DType::Bool, {5});
  ASSERT_TRUE(mask);
  for (int64_t i : {0, 3, 4})
    mask->storeInt(i, 1);
  (*inputs)[1] = RuntimeValue{mask.take()};
  // The mask's positions are data-dependent: the reference kernel runs on every backend.
  opencl::OpenCLStats s = expectWritesAgree(text, *inputs, 1);
  if (openclContext()) {
    EXPECT_EQ(s.deviceExterns, 0);
    EXPECT_EQ(s.hostExterns, 1);
  }
}

TEST(DeviceExternsHostWrites, IndexPutAccumulateOnAnIntermediate) {
  // self is not a graph input: only the program's buffers change (x stays as it was). Later
  // pointwise readers of %a and %b read them after the write: lowering reads the in-place op's
  // result for them, instead of recomputing %a's producer from before it, and keeps %q though
  // nothing uses its result.
  const char *text = R"(graph():
    %x : Tensor "f32[6, 3][3, 1]cpu"[num_users=2] = placeholder[target=x]
    %m : Tensor "b8[6][1]cpu"[num_users=2] = placeholder[target=m]
    %v : Tensor "f32[3][1]cpu"[num_users=3] = placeholder[target=v]
    %z : Tensor "f32[6, 3][3, 1]cpu"[num_users=1] = placeholder[target=z]
    %a : [num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%x, 1.0), kwargs = {})
    %r : [num_users=1] = call_function[target=torch.ops.aten.index_put_.default](args = (%a, [%m], %v, True), kwargs = {})
    %i : [num_users=1] = call_function[target=torch.ops.aten.index_put_.default](args = (%z, [%m], %v, False), kwargs = {})
    %y : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%a, 3.0), kwargs = {})
    %b : [num_users=2] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x, 2.0), kwargs = {})
    %q : [num_users=0] = call_function[target=torch.ops.aten.index_put_.default](args = (%b, [%m], %v, False), kwargs = {})
    %w : [num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%b,), kwargs = {})
    return (r, a, i, y, w)
)";
  auto graph = parseFxText(text, "<test>");
  ASSERT_TRUE(graph);
  auto inputs = makeRandomInputs(*graph, {}, 13);
  ASSERT_TRUE(inputs);
  auto mask = Tensor::zeros(DType::Bool, {6});
  ASSERT_TRUE(mask);
  for (int64_t i : {1, 2, 5})
    mask->storeInt(i, 1);
  (*inputs)[1] = RuntimeValue{mask.take()};
  opencl::OpenCLStats s = expectWritesAgree(text, *inputs, 3);
  if (openclContext()) {
    EXPECT_EQ(s.hostExterns, 3);
  }
}

} // namespace
