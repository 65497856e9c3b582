/// Memory planning of fused programs: pool reuse of freed buffers, in-place hand-over (taken
/// and refused), outputs living to the end, exact-size reuse under symbolic sizes, the
/// validator catching corrupted plans, and every corpus graph planned and validated. In-place
/// decisions are also checked by running the loop interpreter with the pair on one storage:
/// the outputs must not change (and do change when an unsafe hand-over is forced).

#include "transforms/MemoryPlanning.h"
#include "FusionTestSupport.h"
#include "backends/interp/LoopInterpreter.h"
#include "importers/FxTextParser.h"
#include "importers/Import.h"
#include "transforms/Fusion.h"
#include "transforms/Lowering.h"
#include "transforms/ShapeInference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

using namespace fxkit;
using namespace fxkit::loop;
using namespace fxkit::testing;
namespace fs = std::filesystem;

namespace {

using Kind = BufferPlacement::Kind;

using Compiled = FusedText;

Compiled compile(std::string_view text, FusionOptions options = {}) {
  return fuseText(text, options);
}

MemoryPlan plan(const Compiled &c, MemoryPlanOptions options = {}) {
  // A node budget instead of the clock: the same plan on any machine.
  options.maxSearchNodes = 100000;
  auto p = planMemory(c.program, c.fused, options);
  EXPECT_TRUE(p) << (p ? "" : p.error().str());
  return p ? p.take() : MemoryPlan{};
}

int32_t bufferNamed(const LoopProgram &p, const std::string &name) {
  for (size_t i = 0; i < p.buffers.size(); ++i)
    if (p.buffers[i].name == name)
      return static_cast<int32_t>(i);
  ADD_FAILURE() << "no buffer " << name;
  return 0;
}

/// `program` with every in-place buffer renamed to the first buffer of its chain, whose
/// storage it takes over: the loop interpreter then runs it on shared storage.
LoopProgram withInPlaceStorage(const LoopProgram &program, const MemoryPlan &plan) {
  auto root = [&](int32_t b) {
    while (b >= 0 && plan.buffers[b].kind == Kind::InPlace)
      b = plan.buffers[b].inPlaceOf;
    return b;
  };
  LoopProgram out = program;
  for (LoopOp &op : out.ops) {
    for (ScalarInstr &in : op.body)
      if (in.op == ScalarOp::Load)
        in.buffer = root(in.buffer);
    for (Store &s : op.stores)
      s.buffer = root(s.buffer);
    for (BufferView &v : op.externInputs)
      v.buffer = root(v.buffer);
    for (int32_t &b : op.externOutputs)
      b = root(b);
  }
  for (LoopProgram::Output &o : out.outputs)
    o.view.buffer = root(o.view.buffer);
  return out;
}

/// Runs the fused program on seeded random inputs (every size symbol 5) as lowered and with
/// in-place buffers sharing storage, and counts the output elements that differ: a hand-over
/// that clobbers a value still to be read changes them. -1 when a run fails.
int64_t inPlaceMismatches(const Graph &graph, const LoopProgram &program, const FusedProgram &fused,
                          const MemoryPlan &plan) {
  SymExpr::Bindings symbols;
  for (const std::string &s : program.inputSymbols)
    symbols[s] = 5;
  for (int32_t b : program.inputs)
    if (b >= 0)
      for (const SymExpr &size : program.buffers[b].type.sizes)
        for (const std::string &s : size.symbols())
          symbols[s] = 5;
  auto inputs = makeRandomInputs(graph, symbols, 7);
  EXPECT_TRUE(inputs) << inputs.error().str();
  if (!inputs)
    return -1;
  auto expected = interpretLoopProgram(program, fused, *inputs);
  EXPECT_TRUE(expected) << expected.error().str();
  LoopProgram shared = withInPlaceStorage(program, plan);
  auto actual = interpretLoopProgram(shared, fused, *inputs);
  EXPECT_TRUE(actual) << actual.error().str();
  if (!expected || !actual || actual->outputs.size() != expected->outputs.size())
    return -1;
  int64_t mismatches = 0;
  for (size_t i = 0; i < expected->outputs.size(); ++i) {
    const Tensor *e = expected->outputs[i].tensor();
    const Tensor *a = actual->outputs[i].tensor();
    if (!e || !a) {
      mismatches += (e == nullptr) != (a == nullptr);
      continue;
    }
    if (e->sizes() != a->sizes())
      return -1;
    Tensor::forEachIndex(e->sizes(), [&](std::span<const int64_t> index) {
      double x = e->getDouble(index), y = a->getDouble(index);
      if (!(x == y || (std::isnan(x) && std::isnan(y))))
        ++mismatches;
    });
  }
  return mismatches;
}

int64_t inPlaceMismatches(const Compiled &c, const MemoryPlan &plan) {
  return inPlaceMismatches(c.graph, c.program, c.fused, plan);
}

std::string validationError(const Compiled &c, const MemoryPlan &p) {
  Status s = validateMemoryPlan(c.program, c.fused, p);
  return s ? "" : s.error().message;
}

// Three matmuls (extern kernels, so nothing is in place): buf0 dies in kernel 1, so buf2,
// written by kernel 2, takes its bytes. 512 bytes each, 2 live at a time.
const char *kMatmulChain = R"(graph():
    %x : Tensor "f32[8, 16][16, 1]cpu"[num_users=1] = placeholder[target=x]
    %w : Tensor "f32[16, 16][16, 1]cpu"[num_users=3] = placeholder[target=w]
    %a : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %b : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%a, %w), kwargs = {})
    %c : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%b, %w), kwargs = {})
    return (c,)
)";

TEST(MemoryPlan, AChainReusesTheBytesOfAFreedBuffer) {
  Compiled c = compile(kMatmulChain);
  ASSERT_EQ(c.fused.kernels.size(), 3u);
  MemoryPlan p = plan(c);
  EXPECT_FALSE(p.symbolic);
  int32_t b0 = bufferNamed(c.program, "buf0"), b1 = bufferNamed(c.program, "buf1"),
          b2 = bufferNamed(c.program, "buf2");
  for (int32_t b : {b0, b1, b2})
    EXPECT_EQ(p.buffers[b].kind, Kind::Pool);
  EXPECT_EQ(p.buffers[bufferNamed(c.program, "x")].kind, Kind::Input);
  EXPECT_EQ(p.buffers[b0].firstKernel, 0);
  EXPECT_EQ(p.buffers[b0].lastKernel, 1);
  EXPECT_EQ(p.buffers[b1].firstKernel, 1);
  EXPECT_EQ(p.buffers[b1].lastKernel, 2);
  EXPECT_EQ(p.buffers[b2].lastKernel, 3); // an output: past the last kernel
  EXPECT_EQ(p.unplannedBytes, 1536);
  EXPECT_EQ(p.lowerBound, 1024);
  EXPECT_EQ(p.poolBytes, 1024);
  EXPECT_EQ(p.buffers[b2].offset, p.buffers[b0].offset);
  EXPECT_NE(p.buffers[b1].offset, p.buffers[b0].offset);
  ASSERT_EQ(p.freedAfter.size(), 3u);
  EXPECT_TRUE(p.freedAfter[0].empty());
  EXPECT_EQ(p.freedAfter[1], std::vector<int32_t>{b0});
  EXPECT_EQ(p.freedAfter[2], std::vector<int32_t>{b1});
}

// mm, relu, mm, sigmoid: each pointwise kernel reads the matmul result where it writes its
// own, and the matmul result dies there, so it is written in place.
const char *kMatmulRelu = R"(graph():
    %x : Tensor "f32[8, 16][16, 1]cpu"[num_users=1] = placeholder[target=x]
    %w : Tensor "f32[16, 16][16, 1]cpu"[num_users=2] = placeholder[target=w]
    %mm : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %r : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%mm,), kwargs = {})
    %mm2 : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%r, %w), kwargs = {})
    %s : [num_users=1] = call_function[target=torch.ops.aten.sigmoid.default](args = (%mm2,), kwargs = {})
    return (s,)
)";

TEST(MemoryPlan, APointwiseKernelWritesOverTheInputThatDiesInIt) {
  Compiled c = compile(kMatmulRelu);
  ASSERT_EQ(c.fused.kernels.size(), 4u);
  MemoryPlan p = plan(c);
  int32_t b0 = bufferNamed(c.program, "buf0"), b1 = bufferNamed(c.program, "buf1"),
          b2 = bufferNamed(c.program, "buf2"), b3 = bufferNamed(c.program, "buf3");
  EXPECT_EQ(p.buffers[b0].kind, Kind::Pool);
  EXPECT_EQ(p.buffers[b1].kind, Kind::InPlace);
  EXPECT_EQ(p.buffers[b1].inPlaceOf, b0);
  EXPECT_EQ(p.buffers[b1].offset, p.buffers[b0].offset);
  EXPECT_EQ(p.buffers[b2].kind, Kind::Pool);
  EXPECT_EQ(p.buffers[b3].kind, Kind::InPlace); // an output may take a dying input's storage
  EXPECT_EQ(p.buffers[b3].inPlaceOf, b2);
  // buf0 and buf2 are handed over, not freed; buf1 is freed after the second matmul.
  EXPECT_TRUE(p.freedAfter[0].empty() && p.freedAfter[1].empty() && p.freedAfter[3].empty());
  EXPECT_EQ(p.freedAfter[2], std::vector<int32_t>{b1});
  EXPECT_EQ(p.unplannedBytes, 2048);
  EXPECT_EQ(p.lowerBound, 1024);
  EXPECT_EQ(p.poolBytes, 1024);
  EXPECT_EQ(inPlaceMismatches(c, p), 0);
  EXPECT_EQ(describeMemoryPlan(c.program, c.fused, p),
            "buf0  f32  512 B  pool @0                kernels 0..1\n"
            "buf1  f32  512 B  in place of buf0 @0    kernels 1..2\n"
            "buf2  f32  512 B  pool @512              kernels 2..3\n"
            "buf3  f32  512 B  in place of buf2 @512  kernels 3..end (output)\n"
            "4 buffers allocated: 2048 bytes without reuse, lower bound 1024, pool 1024\n");

  MemoryPlanOptions off;
  off.inPlace = false;
  MemoryPlan q = plan(c, off);
  EXPECT_EQ(q.buffers[b1].kind, Kind::Pool);
  EXPECT_EQ(q.lowerBound, 1024); // buf0 and buf1 are both live at kernel 1
  EXPECT_EQ(q.poolBytes, 1024);
}

// relu and sigmoid of one matmul result, fused horizontally into one kernel of two loop ops
// (compared in the kernel's coordinates): sigmoid (the second op) may write over the result,
// since relu read each element before; relu may not, since sigmoid reads the element after
// relu would have overwritten it.
TEST(MemoryPlan, InPlaceNeedsEveryLoadBeforeTheStore) {
  Compiled c = compile(R"(graph():
    %x : Tensor "f32[8, 16][16, 1]cpu"[num_users=1] = placeholder[target=x]
    %w : Tensor "f32[16, 16][16, 1]cpu"[num_users=1] = placeholder[target=w]
    %mm : [num_users=2] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %r : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%mm,), kwargs = {})
    %s : [num_users=1] = call_function[target=torch.ops.aten.sigmoid.default](args = (%mm,), kwargs = {})
    return (r, s)
)");
  ASSERT_EQ(c.fused.kernels.size(), 2u);
  const Kernel &k = c.fused.kernels[1];
  ASSERT_EQ(k.ops.size(), 2u);
  int32_t first = c.program.ops[k.ops[0]].stores.at(0).buffer;
  int32_t second = c.program.ops[k.ops[1]].stores.at(0).buffer;
  MemoryPlan p = plan(c);
  EXPECT_EQ(p.buffers[first].kind, Kind::Pool);
  EXPECT_EQ(p.buffers[second].kind, Kind::InPlace);
  EXPECT_EQ(p.buffers[second].inPlaceOf, bufferNamed(c.program, "buf0"));
  EXPECT_EQ(inPlaceMismatches(c, p), 0);
  MemoryPlan forced = p;
  forced.buffers[second].kind = Kind::Pool;
  forced.buffers[first].kind = Kind::InPlace;
  forced.buffers[first].inPlaceOf = bufferNamed(c.program, "buf0");
  EXPECT_GT(inPlaceMismatches(c, forced), 0);
}

// Softmax over a matmul result: one reduction kernel whose max and sum (per row) and
// subtraction (at every point) read the result where the division stores, all before it.
TEST(MemoryPlan, InPlaceOverTheInputOfAReductionKernel) {
  Compiled c = compile(R"(graph():
    %x : Tensor "f32[8, 16][16, 1]cpu"[num_users=1] = placeholder[target=x]
    %w : Tensor "f32[16, 16][16, 1]cpu"[num_users=1] = placeholder[target=w]
    %mm : [num_users=2] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %amax : [num_users=1] = call_function[target=torch.ops.aten.amax.default](args = (%mm, [1], True), kwargs = {})
    %sub : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%mm, %amax), kwargs = {})
    %exp : [num_users=2] = call_function[target=torch.ops.aten.exp.default](args = (%sub,), kwargs = {})
    %sum_1 : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%exp, [1], True), kwargs = {})
    %div : [num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%exp, %sum_1), kwargs = {})
    return (div,)
)");
  ASSERT_EQ(c.fused.kernels.size(), 2u);
  ASSERT_FALSE(c.fused.kernels[1].reductionRanges.empty());
  MemoryPlan p = plan(c);
  int32_t out = c.fused.kernels[1].outputs.at(0);
  EXPECT_EQ(p.buffers[out].kind, Kind::InPlace);
  EXPECT_EQ(p.poolBytes, 512);
  EXPECT_EQ(inPlaceMismatches(c, p), 0);
}

TEST(MemoryPlan, InPlaceIsRefusedForATransposedRead) {
  // The add reads the matmul result at x0 + 16*x1 and stores at 16*x0 + x1 (y's layout):
  // writing in place would clobber elements another point still reads.
  Compiled c = compile(R"(graph():
    %x : Tensor "f32[16, 16][16, 1]cpu"[num_users=1] = placeholder[target=x]
    %w : Tensor "f32[16, 16][16, 1]cpu"[num_users=1] = placeholder[target=w]
    %y : Tensor "f32[16, 16][16, 1]cpu"[num_users=1] = placeholder[target=y]
    %mm : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %p : [num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%mm, [1, 0]), kwargs = {})
    %a : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%y, %p), kwargs = {})
    return (a,)
)");
  ASSERT_EQ(c.fused.kernels.size(), 2u);
  MemoryPlan p = plan(c);
  int32_t b0 = bufferNamed(c.program, "buf0"), b1 = bufferNamed(c.program, "buf1");
  EXPECT_EQ(p.buffers[b1].kind, Kind::Pool);
  EXPECT_EQ(p.freedAfter[1], std::vector<int32_t>{b0});
  EXPECT_EQ(p.poolBytes, 2048); // both live at kernel 1
  // Forced in place, the run reads elements it has already overwritten: the check that the
  // other tests rely on notices.
  MemoryPlan forced = p;
  forced.buffers[b1].kind = Kind::InPlace;
  forced.buffers[b1].inPlaceOf = b0;
  EXPECT_GT(inPlaceMismatches(c, forced), 0);
}

TEST(MemoryPlan, InPlaceIsRefusedForAnInputUsedLater) {
  // relu reads mm where it writes, but the add reads mm again after the second matmul.
  Compiled c = compile(R"(graph():
    %x : Tensor "f32[16, 16][16, 1]cpu"[num_users=1] = placeholder[target=x]
    %w : Tensor "f32[16, 16][16, 1]cpu"[num_users=2] = placeholder[target=w]
    %mm : [num_users=2] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %r : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%mm,), kwargs = {})
    %mm2 : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%r, %w), kwargs = {})
    %a : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm2, %mm), kwargs = {})
    return (a,)
)");
  ASSERT_EQ(c.fused.kernels.size(), 4u);
  MemoryPlan p = plan(c);
  int32_t b0 = bufferNamed(c.program, "buf0"), b1 = bufferNamed(c.program, "buf1"),
          b3 = bufferNamed(c.program, "buf3");
  EXPECT_EQ(p.buffers[b0].lastKernel, 3);
  EXPECT_EQ(p.buffers[b1].kind, Kind::Pool);
  // In the add's kernel both inputs die: the output takes the first one it can.
  EXPECT_EQ(p.buffers[b3].kind, Kind::InPlace);
  EXPECT_EQ(inPlaceMismatches(c, p), 0);
  MemoryPlan forced = p; // relu over mm would destroy what the add reads
  forced.buffers[b1].kind = Kind::InPlace;
  forced.buffers[b1].inPlaceOf = b0;
  EXPECT_GT(inPlaceMismatches(c, forced), 0);
}

TEST(MemoryPlan, OutputsLiveToTheEnd) {
  // relu's result is returned and also feeds the second matmul: it is never freed, never
  // handed over, and nothing later shares its bytes.
  Compiled c = compile(R"(graph():
    %x : Tensor "f32[8, 16][16, 1]cpu"[num_users=1] = placeholder[target=x]
    %w : Tensor "f32[16, 16][16, 1]cpu"[num_users=2] = placeholder[target=w]
    %mm : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %r : [num_users=2] = call_function[target=torch.ops.aten.relu.default](args = (%mm,), kwargs = {})
    %mm2 : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%r, %w), kwargs = {})
    %s : [num_users=1] = call_function[target=torch.ops.aten.sigmoid.default](args = (%mm2,), kwargs = {})
    return (r, s)
)");
  ASSERT_EQ(c.fused.kernels.size(), 4u);
  MemoryPlan p = plan(c);
  int32_t b1 = bufferNamed(c.program, "buf1"), b3 = bufferNamed(c.program, "buf3");
  EXPECT_TRUE(c.program.buffers[b1].isOutput);
  EXPECT_EQ(p.buffers[b1].lastKernel, 4);
  EXPECT_EQ(p.buffers[b3].lastKernel, 4);
  for (const auto &freed : p.freedAfter)
    EXPECT_EQ(std::count(freed.begin(), freed.end(), b1), 0);
  EXPECT_NE(p.buffers[b3].inPlaceOf, b1);
  // buf1 (in place of buf0) and buf3 (in place of buf2) live together at the end.
  EXPECT_EQ(p.poolBytes, 1024);
  EXPECT_NE(p.buffers[b1].offset, p.buffers[b3].offset);
}

// s77 rows: buffers of 128*s77 and 64*s77 bytes alternate; each new one takes the freed
// allocation of exactly its size, never the other size.
const char *kSymbolic = R"(graph():
    %x : Tensor "f32[s77, 16][16, 1]cpu"[num_users=1] = placeholder[target=x]
    %w1 : Tensor "f32[16, 32][32, 1]cpu"[num_users=2] = placeholder[target=w1]
    %w2 : Tensor "f32[32, 16][16, 1]cpu"[num_users=2] = placeholder[target=w2]
    %a : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w1), kwargs = {})
    %b : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%a, %w2), kwargs = {})
    %c : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%b, %w1), kwargs = {})
    %d : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%c, %w2), kwargs = {})
    return (d,)
)";

TEST(MemoryPlan, SymbolicSizesReuseAllocationsOfExactlyTheSameSize) {
  Compiled c = compile(kSymbolic);
  ASSERT_EQ(c.fused.kernels.size(), 4u);
  MemoryPlan p = plan(c);
  EXPECT_TRUE(p.symbolic);
  int32_t b0 = bufferNamed(c.program, "buf0"), b1 = bufferNamed(c.program, "buf1"),
          b2 = bufferNamed(c.program, "buf2"), b3 = bufferNamed(c.program, "buf3");
  EXPECT_EQ(p.buffers[b0].bytes, SymExpr::parse("128*s77").take());
  EXPECT_EQ(p.buffers[b0].kind, Kind::Own);
  EXPECT_EQ(p.buffers[b0].reuseOf, -1);
  EXPECT_EQ(p.buffers[b1].reuseOf, -1); // buf0 is still live
  EXPECT_EQ(p.buffers[b2].kind, Kind::Own);
  EXPECT_EQ(p.buffers[b2].reuseOf, b0);
  EXPECT_EQ(p.buffers[b3].reuseOf, b1);
  // At the size hint (4099): 2 allocations of 128 and 64 bytes per row, both held throughout.
  const int64_t h = 4099;
  EXPECT_EQ(p.unplannedBytes, 2 * 128 * h + 2 * 64 * h);
  EXPECT_EQ(p.lowerBound, 192 * h);
  EXPECT_EQ(p.poolBytes, 192 * h);
  std::string text = describeMemoryPlan(c.program, c.fused, p);
  EXPECT_NE(text.find("buf2  f32  128*s77 B  own, reuses buf0"), std::string::npos) << text;

  MemoryPlanOptions noReuse;
  noReuse.reuse = false;
  MemoryPlan q = plan(c, noReuse);
  EXPECT_EQ(q.buffers[b2].reuseOf, -1);
  EXPECT_EQ(q.poolBytes, q.lowerBound); // freed allocations are returned, not held
}

TEST(MemoryPlan, TheValidatorCatchesCorruptedPlans) {
  Compiled c = compile(kMatmulChain);
  MemoryPlan good = plan(c);
  ASSERT_EQ(validationError(c, good), "");
  int32_t b0 = bufferNamed(c.program, "buf0"), b1 = bufferNamed(c.program, "buf1"),
          b2 = bufferNamed(c.program, "buf2");

  MemoryPlan p = good; // buf0 and buf1 are both live at kernel 1
  p.buffers[b1].offset = p.buffers[b0].offset;
  EXPECT_NE(validationError(c, p).find("buf0 and buf1 share storage and are both live at kernel 1"),
            std::string::npos)
      << validationError(c, p);

  p = good; // an output that dies early could share bytes with a later buffer
  p.buffers[b2].lastKernel = 2;
  EXPECT_NE(validationError(c, p).find("buf2 is a graph output"), std::string::npos);

  p = good; // a lifetime that misses a kernel reading the buffer
  p.buffers[b0].lastKernel = 0;
  p.freedAfter[0] = {b0};
  p.freedAfter[1] = {};
  EXPECT_NE(validationError(c, p).find("buf0 is used until kernel 1"), std::string::npos);

  p = good; // past the end of the pool
  p.buffers[b1].offset = p.poolBytes;
  EXPECT_NE(validationError(c, p).find("outside the pool"), std::string::npos);

  p = good; // an extern kernel cannot hand its input over
  p.buffers[b1].kind = Kind::InPlace;
  p.buffers[b1].inPlaceOf = b0;
  p.buffers[b1].offset = p.buffers[b0].offset;
  p.freedAfter[1] = {};
  EXPECT_NE(validationError(c, p).find("does not hand buf0 over"), std::string::npos);

  p = good; // an input is not allocated
  p.buffers[bufferNamed(c.program, "x")].kind = Kind::Pool;
  EXPECT_NE(validationError(c, p).find("graph input"), std::string::npos);

  p = good; // freed twice
  p.freedAfter[1].push_back(b0);
  EXPECT_NE(validationError(c, p).find("freed 2 times"), std::string::npos);

  // Symbolic: an allocation reused while its buffer is still live.
  Compiled s = compile(kSymbolic);
  MemoryPlan sp = plan(s);
  ASSERT_EQ(validationError(s, sp), "");
  int32_t s1 = bufferNamed(s.program, "buf1"), s3 = bufferNamed(s.program, "buf3");
  sp.buffers[s3].reuseOf = -1;
  sp.buffers[bufferNamed(s.program, "buf2")].reuseOf = -1;
  sp.buffers[bufferNamed(s.program, "buf0")].reuseOf = -1;
  sp.buffers[s1].reuseOf = bufferNamed(s.program, "buf0"); // other size, still live
  EXPECT_NE(validationError(s, sp).find("buf1 reuses buf0"), std::string::npos)
      << validationError(s, sp);
}

TEST(MemoryPlan, AProgramWithoutKernelsHasAnEmptyPlan) {
  Compiled c = compile(R"(graph():
    %x : Tensor "f32[8][1]cpu"[num_users=1] = placeholder[target=x]
    return (x,)
)");
  MemoryPlan p = plan(c);
  EXPECT_EQ(p.poolBytes, 0);
  EXPECT_EQ(p.unplannedBytes, 0);
  EXPECT_TRUE(p.freedAfter.empty());
  EXPECT_EQ(validationError(c, p), "");
}

// ---- The corpus ----

std::vector<fs::path> corpusGraphs() {
  std::vector<fs::path> out;
  fs::path root = fs::path(FXKIT_TEST_DATA) / "corpus";
  for (const char *sub : {"inductor", "reference"})
    for (const auto &e : fs::recursive_directory_iterator(root / sub)) {
      std::string name = e.path().filename().string();
      bool wanted = std::string(sub) == "reference" || name.starts_with("aten_post_");
      if (e.is_regular_file() && name.ends_with(".graph.txt") && wanted &&
          e.path().parent_path().parent_path() == root / sub)
        out.push_back(e.path());
    }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(CorpusMemoryPlan, EveryGraphPlansAndValidates) {
  std::vector<fs::path> graphs = corpusGraphs();
  // 10 workloads: aten_post_0 and aten_post_1, and one reference graph each.
  ASSERT_GE(graphs.size(), 30u);
  size_t planned = 0;
  int totalInPlace = 0;
  for (const fs::path &path : graphs) {
    SCOPED_TRACE(path.string());
    auto graph = importGraphFile(path.string());
    ASSERT_TRUE(graph) << graph.error().str();
    ASSERT_TRUE(inferShapes(*graph));
    auto program = lowerGraph(*graph);
    ASSERT_TRUE(program) << program.error().str();
    auto fused = fuseLoopProgram(*program);
    ASSERT_TRUE(fused) << fused.error().str();
    MemoryPlanOptions options;
    options.maxSearchNodes = 20000;
    auto p = planMemory(*program, *fused, options);
    ASSERT_TRUE(p) << p.error().str();
    Status s = validateMemoryPlan(*program, *fused, *p);
    EXPECT_TRUE(s) << (s ? "" : s.error().message);
    EXPECT_LE(p->lowerBound, p->poolBytes);
    EXPECT_LE(p->poolBytes, p->unplannedBytes + 64 * static_cast<int64_t>(p->buffers.size()));
    // Without in place the lower bound can only grow.
    options.inPlace = false;
    auto q = planMemory(*program, *fused, options);
    ASSERT_TRUE(q) << q.error().str();
    EXPECT_GE(q->lowerBound, p->lowerBound);
    EXPECT_TRUE(validateMemoryPlan(*program, *fused, *q));
    // The in-place hand-overs change no output when run on shared storage.
    int inPlace = 0;
    for (const BufferPlacement &b : p->buffers)
      inPlace += b.kind == Kind::InPlace;
    // (Reference graphs only: the inductor ones take minutes in the interpreter.)
    if (inPlace > 0 && path.string().find("/reference/") != std::string::npos) {
      EXPECT_EQ(inPlaceMismatches(*graph, *program, *fused, *p), 0);
    }
    totalInPlace += inPlace;
    ++planned;
  }
  EXPECT_EQ(planned, graphs.size());
  EXPECT_GT(totalInPlace, 0);
}

} // namespace
