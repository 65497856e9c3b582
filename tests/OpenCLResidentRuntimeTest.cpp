/// Device-resident execution on OpenCL (issue 23, item 1), on the default device (PoCL's CPU
/// device where there is no GPU): a program that keeps its inputs on the device and leaves its
/// outputs there computes the same bytes as one that copies everything every run, on every
/// reference workload of the corpus, over several runs whose inputs change (a new tensor, an
/// in-place change the caller reports); the transfer counters say what moved (the second run
/// of a graph whose weights stay uploads only its other input); an input the program writes
/// over is copied again every run; every run gets a device time from queue timestamps.

#include "CompileTestSupport.h"
#include "CorpusTestSupport.h"
#include "backends/interp/json/ReferenceIO.h"
#include "backends/opencl/runtime/OpenCLProgram.h"
#include "importers/Import.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>

using namespace fxkit;
using namespace fxkit::opencl;
using namespace fxkit::testing;
namespace fs = std::filesystem;

namespace {

/// The same dtype, sizes and element bytes (NaN equal to NaN of the same bits).
::testing::AssertionResult sameBytes(const std::vector<RuntimeValue> &a,
                                     const std::vector<RuntimeValue> &b) {
  if (a.size() != b.size())
    return ::testing::AssertionFailure() << a.size() << " outputs against " << b.size();
  for (size_t i = 0; i < a.size(); ++i) {
    const Tensor *x = a[i].tensor(), *y = b[i].tensor();
    if (!x || !y) {
      if (!x != !y)
        return ::testing::AssertionFailure() << "output " << i << ": a tensor and a non-tensor";
      continue;
    }
    if (x->dtype() != y->dtype() || x->sizes() != y->sizes())
      return ::testing::AssertionFailure()
             << "output " << i << ": " << x->typeOf().str() << " against " << y->typeOf().str();
    Tensor cx = x->contiguous(), cy = y->contiguous();
    size_t n = static_cast<size_t>(cx.numel() * dtypeItemSize(cx.dtype()));
    if (n && std::memcmp(cx.storage()->data(), cy.storage()->data(), n) != 0)
      return ::testing::AssertionFailure() << "output " << i << " differs";
  }
  return ::testing::AssertionSuccess();
}

/// A copy of `inputs` whose floating-point tensors are new tensors with other values.
std::vector<RuntimeValue> changed(const std::vector<RuntimeValue> &inputs, double scale) {
  std::vector<RuntimeValue> out = inputs;
  for (RuntimeValue &v : out)
    if (const Tensor *t = v.tensor(); t && dtypeIsFloating(t->dtype())) {
      Tensor c = t->contiguous();
      Tensor::forEachIndex(c.sizes(), [&](std::span<const int64_t> index) {
        c.setDouble(index, c.getDouble(index) * scale + 0.25);
      });
      v = RuntimeValue{c};
    }
  return out;
}

/// Loads `c` on the default device, untuned (both programs of a comparison launch the same
/// configurations), its kernels cached in `cache`.
std::unique_ptr<OpenCLProgram> load(const Compiled &c, const TempDir &cache) {
  OpenCLOptions options;
  options.cacheDir = cache.path.string();
  options.tune = false;
  auto program = OpenCLProgram::load(*openclContext(), c.program, c.fused, c.plan, options);
  EXPECT_TRUE(program) << (program ? "" : program.error().str());
  return program ? program.take() : nullptr;
}

/// Runs resident (`runOnDevice` then `fetchOutputs`); fails the test on an error.
std::vector<RuntimeValue> residentRun(OpenCLProgram &p, const std::vector<RuntimeValue> &inputs) {
  auto ran = p.runOnDevice(inputs);
  EXPECT_TRUE(ran) << (ran ? "" : ran.error().str());
  if (!ran)
    return {};
  EXPECT_TRUE(ran->outputs.empty()); // nothing read back yet
  auto out = p.fetchOutputs();
  EXPECT_TRUE(out) << (out ? "" : out.error().str());
  return out ? out->outputs : std::vector<RuntimeValue>{};
}

std::vector<RuntimeValue> plainRun(OpenCLProgram &p, const std::vector<RuntimeValue> &inputs) {
  auto out = p.run(inputs);
  EXPECT_TRUE(out) << (out ? "" : out.error().str());
  return out ? out->outputs : std::vector<RuntimeValue>{};
}

TEST(OpenCLResident, EveryReferenceWorkloadGivesTheSameBytesResidentOrNot) {
  REQUIRE_OPENCL_DEVICE();
  TempDir cache;
  std::vector<fs::path> graphs = corpusGraphs("reference");
  ASSERT_GE(graphs.size(), 10u);
  int checked = 0;
  for (const fs::path &path : graphs) {
    SCOPED_TRACE(path.string());
    auto graph = importGraphFile(path.string(), GraphFormat::FxText, true);
    ASSERT_TRUE(graph) << graph.error().str();
    auto file = readSafetensors(sibling(path, ".inputs.safetensors").string());
    ASSERT_TRUE(file);
    size_t placeholders = 0;
    for (Node *n : *graph)
      placeholders += n->op() == OpKind::Placeholder;
    auto read = readGraphInputs(*file, placeholders, "inputs");
    ASSERT_TRUE(read);
    std::vector<RuntimeValue> inputs = read.take();
    Compiled c;
    ASSERT_TRUE(compile(graph.take(), c));
    auto plain = load(c, cache), resident = load(c, cache);
    ASSERT_TRUE(plain && resident);
    ASSERT_TRUE(resident->setResidentInputs(std::vector<bool>(inputs.size(), true)));

    // Run 1: the recorded inputs; run 2: other values (new tensors); run 3: the recorded
    // tensors again; run 4: one of them changed in place, as the caller reports.
    std::vector<RuntimeValue> other = changed(inputs, 1.5);
    EXPECT_TRUE(sameBytes(residentRun(*resident, inputs), plainRun(*plain, inputs)));
    EXPECT_TRUE(sameBytes(residentRun(*resident, other), plainRun(*plain, other)));
    EXPECT_TRUE(sameBytes(residentRun(*resident, inputs), plainRun(*plain, inputs)));
    const int64_t allocations = resident->transfers().allocations;
    const int64_t keptBefore = resident->transfers().inputsKept;
    int64_t tensors = 0, written = 0, changedOne = -1;
    for (size_t i = 0; i < inputs.size(); ++i)
      if (const Tensor *t = inputs[i].tensor()) {
        ++tensors;
        written += resident->writesInput(i);
        if (changedOne < 0 && dtypeIsFloating(t->dtype()) && t->numel()) {
          Tensor view = *t; // shares the storage
          std::vector<int64_t> first(static_cast<size_t>(view.dim()), 0);
          view.setDouble(first, view.getDouble(first) + 1.0);
          resident->inputChanged(i);
          changedOne = static_cast<int64_t>(i);
        }
      }
    EXPECT_TRUE(sameBytes(residentRun(*resident, inputs), plainRun(*plain, inputs)));
    // Run 4 kept every input but the changed one and those the program writes over.
    const TransferStats &r = resident->transfers(), &p = plain->transfers();
    const bool changedWritten = changedOne >= 0 && resident->writesInput(changedOne);
    EXPECT_EQ(r.inputsKept - keptBefore,
              tensors - written - (changedOne >= 0 && !changedWritten ? 1 : 0))
        << "tensors " << tensors << ", written over " << written;
    EXPECT_EQ(r.calls, 4);
    EXPECT_EQ(r.inputUploads + r.inputsKept, p.inputUploads);
    if (tensors - written > 1) { // run 4 keeps one at least
      EXPECT_LT(r.inputUploads, p.inputUploads);
    }
    // A steady state allocates nothing (where no buffer waits for a symbol an extern binds).
    bool unbacked = false;
    for (const loop::BufferPlacement &b : c.plan.buffers)
      unbacked = unbacked || b.kind == loop::BufferPlacement::Kind::Unbacked;
    if (!unbacked) {
      EXPECT_EQ(r.allocations, allocations);
    }
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(graphs.size()));
}

TEST(OpenCLResident, SecondRunUploadsOnlyTheInputThatIsNotAWeight) {
  REQUIRE_OPENCL_DEVICE();
  TempDir cache;
  fs::path path = fs::path(FXKIT_TEST_DATA) / "corpus/reference/mlp/fw_0.graph.txt";
  auto graph = importGraphFile(path.string(), GraphFormat::FxText, true);
  ASSERT_TRUE(graph) << graph.error().str();
  auto file = readSafetensors(sibling(path, ".inputs.safetensors").string());
  ASSERT_TRUE(file);
  auto read = readGraphInputs(*file, 5, "inputs");
  ASSERT_TRUE(read);
  std::vector<RuntimeValue> inputs = read.take();
  Compiled c;
  ASSERT_TRUE(compile(graph.take(), c));
  auto plain = load(c, cache), p = load(c, cache);
  ASSERT_TRUE(plain && p);
  // arg0_1, arg1_1, arg3_1, arg4_1 are Linear weights and biases; arg2_1 is the input.
  ASSERT_TRUE(p->setResidentInputs({true, true, false, true, true}));
  for (int i = 0; i < 5; ++i)
    EXPECT_FALSE(p->writesInput(i)) << i;

  auto first = residentRun(*p, inputs);
  TransferStats t = p->transfers();
  EXPECT_EQ(t.inputUploads, 5);
  EXPECT_EQ(t.inputsKept, 0);
  EXPECT_EQ(t.outputReads, 1);
  EXPECT_EQ(t.hostWaits, 1); // fetchOutputs' only
  const int64_t allocations = t.allocations;
  EXPECT_GE(allocations, 5); // the inputs, and the pool

  // Run 2, a new input: only it is copied; nothing is allocated.
  std::vector<RuntimeValue> next = inputs;
  next[2] = changed({inputs[2]}, -2.0)[0];
  ASSERT_TRUE(p->runOnDevice(next));
  t = p->transfers();
  EXPECT_EQ(t.inputUploads, 6);
  EXPECT_EQ(t.inputsKept, 4);
  EXPECT_EQ(t.outputReads, 1); // still on the device
  EXPECT_EQ(t.allocations, allocations);
  auto second = p->fetchOutputs();
  ASSERT_TRUE(second) << second.error().str();
  EXPECT_TRUE(sameBytes(second->outputs, plainRun(*plain, next)));
  EXPECT_FALSE(sameBytes(second->outputs, first));

  // Run 3, a new second weight (another tensor): seen, no stale device copy.
  next[3] = changed({inputs[3]}, 3.0)[0];
  EXPECT_TRUE(sameBytes(residentRun(*p, next), plainRun(*plain, next)));
  EXPECT_EQ(p->transfers().inputUploads, 8); // the input and the new weight
  EXPECT_EQ(p->transfers().inputsKept, 7);

  // Run 4, the first weight changed in place and reported: seen.
  Tensor w = *next[0].tensor();
  w.setDouble(std::vector<int64_t>{0, 0}, 7.0);
  p->inputChanged(0);
  EXPECT_TRUE(sameBytes(residentRun(*p, next), plainRun(*plain, next)));
  EXPECT_EQ(p->transfers().inputUploads, 10);
  EXPECT_EQ(p->transfers().allocations, allocations);

  // Every run has a device time from the queue's timestamps.
  p->sync();
  ASSERT_EQ(p->callSeconds().size(), 4u);
  for (double s : p->callSeconds())
    EXPECT_GT(s, 0.0);
}

TEST(OpenCLResident, AnInputTheProgramWritesOverIsCopiedEveryRun) {
  REQUIRE_OPENCL_DEVICE();
  TempDir cache;
  // x is updated in place (as a training step updates a buffer): its device copy changes,
  // and the new value is returned to the caller's tensor.
  const char *text = R"(graph():
    %x : Tensor "f32[5, 4][4, 1]cpu"[num_users=3] = placeholder[target=x]
    %i : Tensor "i64[3][1]cpu"[num_users=1] = placeholder[target=i]
    %v : Tensor "f32[3, 4][4, 1]cpu"[num_users=1] = placeholder[target=v]
    %r : [num_users=1] = call_function[target=torch.ops.aten.index_put_.default](args = (%x, [%i], %v, True), kwargs = {})
    %y : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, 2), kwargs = {})
    return (r, x, y)
)";
  auto x = Tensor::random(DType::Float32, {5, 4}, 1);
  auto v = Tensor::random(DType::Float32, {3, 4}, 2);
  auto i = Tensor::zeros(DType::Int64, {3});
  ASSERT_TRUE(x && v && i);
  i->setInt(std::vector<int64_t>{1}, 2);
  i->setInt(std::vector<int64_t>{2}, 2);
  Compiled c;
  ASSERT_TRUE(compile(text, c));
  auto plain = load(c, cache), p = load(c, cache);
  ASSERT_TRUE(plain && p);
  ASSERT_TRUE(p->setResidentInputs({true, true, true}));
  EXPECT_TRUE(p->writesInput(0));
  EXPECT_FALSE(p->writesInput(1));
  EXPECT_FALSE(p->writesInput(2));
  // Each program its own x, which every run updates.
  std::vector<RuntimeValue> plainInputs = {RuntimeValue{x->contiguous()}, RuntimeValue{*i},
                                           RuntimeValue{*v}};
  std::vector<RuntimeValue> inputs = {RuntimeValue{x->contiguous()}, RuntimeValue{*i},
                                      RuntimeValue{*v}};
  for (int run = 0; run < 3; ++run) {
    EXPECT_TRUE(sameBytes(residentRun(*p, inputs), plainRun(*plain, plainInputs))) << "run " << run;
    EXPECT_TRUE(sameBytes({inputs[0]}, {plainInputs[0]})) << "run " << run;
  }
  EXPECT_FALSE(sameBytes({inputs[0]}, {RuntimeValue{*x}})); // updated three times
  EXPECT_EQ(p->transfers().inputUploads, 3 + 2);            // x every run, i and v once
  EXPECT_EQ(p->transfers().inputsKept, 4);
}

TEST(OpenCLResident, FetchingWithoutAResidentRunIsAnError) {
  REQUIRE_OPENCL_DEVICE();
  TempDir cache;
  Compiled c;
  auto x = Tensor::random(DType::Float32, {8}, 1);
  ASSERT_TRUE(x);
  ASSERT_TRUE(compile(R"(graph():
    %x : [num_users=1] = placeholder[target=x]
    %relu : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})
    return (relu,)
)",
                      {*x}, c));
  auto p = load(c, cache);
  ASSERT_TRUE(p);
  auto none = p->fetchOutputs();
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("no run left its outputs on the device"), std::string::npos);
  ASSERT_TRUE(p->run(std::vector<RuntimeValue>{RuntimeValue{*x}}));
  EXPECT_FALSE(p->fetchOutputs()); // a run that read its outputs leaves none behind
}

} // namespace

namespace {

TEST(OpenCLResident, ProfiledLaunchesAreTimedWithoutWaitingBetweenKernels) {
  REQUIRE_OPENCL_DEVICE();
  TempDir cache;
  Compiled c;
  auto x = Tensor::random(DType::Float32, {8}, 1);
  ASSERT_TRUE(x);
  ASSERT_TRUE(compile(R"(graph():
    %x : [num_users=1] = placeholder[target=x]
    %relu : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})
    return (relu,)
)",
                      {*x}, c));
  OpenCLOptions options;
  options.cacheDir = cache.path.string();
  options.tune = false;
  options.profile = true;
  auto p = OpenCLProgram::load(*openclContext(), c.program, c.fused, c.plan, options);
  ASSERT_TRUE(p) << p.error().str();
  std::vector<RuntimeValue> inputs = {RuntimeValue{*x}};
  ASSERT_TRUE((*p)->runOnDevice(inputs));
  ASSERT_TRUE((*p)->runOnDevice(inputs));
  const int launches = (*p)->stats().launches;
  EXPECT_GE(launches, 2);
  (*p)->sync(); // the launches' times are read here
  EXPECT_GT((*p)->stats().kernelSeconds, 0.0);
  EXPECT_EQ((*p)->callSeconds().size(), 2u);
  EXPECT_EQ((*p)->transfers().hostWaits, 0); // neither run waited
  auto out = (*p)->fetchOutputs();
  ASSERT_TRUE(out) << out.error().str();
  EXPECT_EQ(out->outputs.size(), 1u);
  // Many runs without a wait: the timestamps of finished runs are read along the way (64
  // pending at most before that), none lost, in order.
  for (int i = 0; i < 150; ++i)
    ASSERT_TRUE((*p)->runOnDevice(inputs));
  (*p)->sync();
  EXPECT_EQ((*p)->callSeconds().size(), 152u);
  EXPECT_EQ((*p)->stats().launches, launches + 150);
}

} // namespace
