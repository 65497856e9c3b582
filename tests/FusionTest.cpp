/// Lowering and fusion on small graphs: views folded into index expressions, the kernels
/// fusion makes, every refusal reason, kernel deduplication, and the loop interpreter catching
/// a kernel that reads another row's internal values.

#include "transforms/Fusion.h"
#include "FusionTestSupport.h"
#include "InterpreterTestSupport.h"
#include "backends/interp/LoopInterpreter.h"
#include "importers/FxTextParser.h"
#include "transforms/Lowering.h"
#include "transforms/ShapeInference.h"

#include <gtest/gtest.h>

using namespace fxkit;
using namespace fxkit::loop;
using namespace fxkit::testing;

namespace {

using Compiled = FusedText;

Compiled compile(std::string_view text, FusionOptions options = {}) {
  return fuseText(text, options);
}

const FusionDecision *decisionFor(const FusedProgram &f, const std::string &op) {
  for (const FusionDecision &d : f.decisions)
    if (d.op == op)
      return &d;
  return nullptr;
}

const char *kSoftmax = R"(graph():
    %x : Tensor "f32[8, 16][16, 1]cpu"[num_users=2] = placeholder[target=x]
    %amax : [num_users=1] = call_function[target=torch.ops.aten.amax.default](args = (%x, [1], True), kwargs = {})
    %sub : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x, %amax), kwargs = {})
    %exp : [num_users=2] = call_function[target=torch.ops.aten.exp.default](args = (%sub,), kwargs = {})
    %sum_1 : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%exp, [1], True), kwargs = {})
    %div : [num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%exp, %sum_1), kwargs = {})
    return (div,)
)";

TEST(Lowering, ViewsFoldIntoIndexExpressions) {
  Compiled c = compile(R"(graph():
    %x : Tensor "f32[4, 6][6, 1]cpu"[num_users=1] = placeholder[target=x]
    %p : [num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%x, [1, 0]), kwargs = {})
    %s : [num_users=1] = call_function[target=torch.ops.aten.select.int](args = (%p, 1, 2), kwargs = {})
    %r : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%s,), kwargs = {})
    return (r,)
)");
  // permute then select(dim 1, index 2) reads x[2, i]: offset 12, stride 1; no copy.
  EXPECT_EQ(c.program.str(), R"(x: f32[4, 6][6, 1]cpu input
buf0: f32[6][1]cpu output
op0: pointwise {x0: 6}  # r
    tmp0 = load(x, x0 + 12) : f32
    tmp1 = relu(tmp0) : f32
    store(buf0, x0, tmp1)
)");
}

TEST(Fusion, SoftmaxIsOneReductionKernel) {
  Compiled c = compile(kSoftmax);
  ASSERT_EQ(c.fused.kernels.size(), 1u);
  const Kernel &k = c.fused.kernels[0];
  // amax and the sum of exp(x - amax) are one online-softmax reduction (one read of the row
  // for both), and sub, exp and div one pointwise op after it.
  EXPECT_EQ(k.name, "fused_amax_sum_sub_exp_0");
  ASSERT_EQ(k.ops.size(), 2u);
  EXPECT_EQ(c.program.ops[k.ops[0]].reduction, ReductionKind::OnlineSoftmax);
  EXPECT_EQ(k.ranges.size(), 1u);
  EXPECT_EQ(k.reductionRanges.size(), 1u);
  // Only the result leaves the kernel: the row's max and sum stay inside.
  ASSERT_EQ(k.outputs.size(), 1u);
  EXPECT_EQ(k.internal.size(), 2u);
  // Reads x once, writes the result once: 2 * 8 * 16 floats.
  EXPECT_EQ(c.fused.generatedKernelBytes(), SymExpr(1024));
  const FusionDecision *d = decisionFor(c.fused, "op1");
  ASSERT_TRUE(d);
  EXPECT_TRUE(d->fused);
  EXPECT_EQ(d->kind, FusionKind::ReductionEpilogue);
  // And it computes softmax.
  Tensor x = fromValues({8, 16}, std::vector<double>(128, 1.0));
  std::vector<RuntimeValue> in{RuntimeValue{x}};
  auto r = interpretLoopProgram(c.program, c.fused, in);
  ASSERT_TRUE(r) << r.error().str();
  expectValues(*r->outputs[0].tensor(), std::vector<double>(128, 1.0 / 16));
}

TEST(Fusion, OnlineSoftmaxOnlyForTheExactPattern) {
  // amax(x, d, True) -> sub(x, amax) -> exp -> sum(exp, d, True), float32 or float64.
  auto kinds = [](const std::string &amaxArgs, const std::string &subArgs,
                  const std::string &sumArgs, const std::string &type) {
    Compiled c = compile(R"(graph():
    %x : Tensor ")" + type +
                         R"("[num_users=2] = placeholder[target=x]
    %amax : [num_users=1] = call_function[target=torch.ops.aten.amax.default](args = )" +
                         amaxArgs + R"(, kwargs = {})
    %sub : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = )" +
                         subArgs + R"()
    %exp : [num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%sub,), kwargs = {})
    %sum_1 : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = )" +
                         sumArgs + R"(, kwargs = {})
    return (sum_1,)
)");
    std::string out;
    for (const LoopOp &op : c.program.ops)
      if (op.kind == LoopOpKind::Reduction)
        out += std::string(reductionKindName(op.reduction)) + " ";
    return out;
  };
  const std::string f32 = "f32[4, 8][8, 1]cpu";
  EXPECT_EQ(kinds("(%x, [1], True)", "(%x, %amax), kwargs = {}", "(%exp, [1], True)", f32),
            "online_softmax ");
  EXPECT_EQ(kinds("(%x, [-1], True)", "(%x, %amax), kwargs = {}", "(%exp, [1], True)", f32),
            "online_softmax ");
  EXPECT_EQ(kinds("(%x, [1], True)", "(%x, %amax), kwargs = {}", "(%exp, [1], True)",
                  "f64[4, 8][8, 1]cpu"),
            "online_softmax ");
  // Another dimension, the max subtracted the other way, float16, a scaled subtraction.
  EXPECT_EQ(kinds("(%x, [1], True)", "(%x, %amax), kwargs = {}", "(%exp, [0], True)", f32),
            "max sum ");
  EXPECT_EQ(kinds("(%x, [1], True)", "(%amax, %x), kwargs = {}", "(%exp, [1], True)", f32),
            "max sum ");
  EXPECT_EQ(kinds("(%x, [1], True)", "(%x, %amax), kwargs = {}", "(%exp, [1], True)",
                  "f16[4, 8][8, 1]cpu"),
            "max sum ");
  EXPECT_EQ(kinds("(%x, [1], True)", "(%x, %amax), kwargs = {alpha: 2}", "(%exp, [1], True)", f32),
            "max sum ");
}

TEST(Fusion, SliceIsFoldedIntoTheIndex) {
  // x[:, 2:] and x[:, -5:-1:2] make no buffers: their offsets and strides are the loads'.
  Compiled c = compile(R"(graph():
    %x : Tensor "f32[6, 10][10, 1]cpu"[num_users=2] = placeholder[target=x]
    %a : [num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%x, 1, 2, 9223372036854775807), kwargs = {})
    %b : [num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%x, 1, -5, -1, 2), kwargs = {})
    %r : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%a,), kwargs = {})
    %s : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%b, [1]), kwargs = {})
    return (r, s)
)");
  std::string program = c.program.str();
  EXPECT_NE(program.find("load(x, 10*x0 + x1 + 2)"), std::string::npos) << program;
  EXPECT_NE(program.find("load(x, 2*r0 + 10*x0 + 5)"), std::string::npos) << program;
  std::vector<double> values(60);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<double>(i) - 30;
  std::vector<RuntimeValue> in{RuntimeValue{fromValues({6, 10}, values)}};
  auto r = interpretLoopProgram(c.program, c.fused, in);
  ASSERT_TRUE(r) << r.error().str();
  std::vector<double> relu, sums;
  for (int row = 0; row < 6; ++row) {
    for (int col = 2; col < 10; ++col)
      relu.push_back(std::max(0.0, values[row * 10 + col]));
    sums.push_back(values[row * 10 + 5] + values[row * 10 + 7]);
  }
  expectValues(*r->outputs[0].tensor(), relu);
  expectValues(*r->outputs[1].tensor(), sums);
}

const char *kTransposedRead = R"(graph():
    %x : Tensor "f32[8, 16][16, 1]cpu"[num_users=1] = placeholder[target=x]
    %y : Tensor "f32[16, 8][8, 1]cpu"[num_users=1] = placeholder[target=y]
    %r : [num_users=2] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})
    %p : [num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%r, [1, 0]), kwargs = {})
    %a : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%p, %y), kwargs = {})
    return (a, r)
)";

// relu is also returned, so lowering keeps it (it would otherwise inline it into the add,
// reading x transposed) and fusion must decide.
TEST(Fusion, ATransposedReadOfAnInternalValueIsRefused) {
  Compiled c = compile(kTransposedRead);
  EXPECT_EQ(c.fused.kernels.size(), 2u);
  const FusionDecision *d = decisionFor(c.fused, "op1");
  ASSERT_TRUE(d);
  EXPECT_FALSE(d->fused);
  EXPECT_NE(d->reason.find("reshaped iteration space"), std::string::npos) << d->reason;
}

TEST(LoopInterpreter, AnIllegalFusionFailsToRun) {
  Compiled c = compile(kTransposedRead);
  // Force both ops into one kernel, relu's buffer internal: the add reads elements of it
  // that other rows write, and the run must say so.
  Kernel k;
  k.name = "illegal";
  k.ops = {0, 1};
  k.placements = {Placement::Row, Placement::Flat};
  k.ranges = c.program.ops[0].ranges;
  // (The buffer is also an output; marking it internal here is what makes the kernel illegal.)
  k.internal = {c.program.ops[0].writes()[0]};
  FusedProgram forced;
  forced.kernels.push_back(k);
  Tensor x = fromValues({8, 16}, std::vector<double>(128, 1.0));
  Tensor y = fromValues({16, 8}, std::vector<double>(128, 1.0));
  std::vector<RuntimeValue> in{RuntimeValue{x}, RuntimeValue{y}};
  auto r = interpretLoopProgram(c.program, forced, in);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("has not written"), std::string::npos) << r.error().message;
  // The legal program runs: relu(1) + 1 everywhere.
  auto ok = interpretLoopProgram(c.program, c.fused, in);
  ASSERT_TRUE(ok) << ok.error().str();
  expectValues(*ok->outputs[0].tensor(), std::vector<double>(128, 2.0));
  expectValues(*ok->outputs[1].tensor(), std::vector<double>(128, 1.0));
}

TEST(Fusion, ExternBoundaryAndCycleAreRefused) {
  Compiled c = compile(R"(graph():
    %x : Tensor "f32[4, 4][4, 1]cpu"[num_users=1] = placeholder[target=x]
    %r : [num_users=2] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})
    %m : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%r, %r), kwargs = {})
    %a : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%r, %m), kwargs = {})
    return (a,)
)");
  ASSERT_EQ(c.fused.kernels.size(), 3u);
  EXPECT_TRUE(c.fused.kernels[1].isExtern);
  bool sawCycle = false, sawExtern = false;
  for (const FusionDecision &d : c.fused.decisions) {
    sawCycle |= !d.fused && d.reason.find("would create a cycle") != std::string::npos;
    sawExtern |= !d.fused && d.reason.find("extern op boundary") != std::string::npos;
  }
  EXPECT_TRUE(sawCycle) << c.fused.explain(c.program);
  EXPECT_TRUE(sawExtern) << c.fused.explain(c.program);
}

TEST(Fusion, KernelSizeLimitAndDeduplication) {
  // Every relu is also returned, so lowering inlines none into the next and fusion sees six.
  std::string text = "graph():\n    %x : Tensor \"f32[4, 8][8, 1]cpu\"[num_users=1] = "
                     "placeholder[target=x]\n";
  std::string prev = "x";
  for (int i = 0; i < 6; ++i) {
    std::string name = "r" + std::to_string(i);
    text += "    %" + name +
            " : [num_users=1] = call_function[target=torch.ops.aten.relu.default]"
            "(args = (%" +
            prev + ",), kwargs = {})\n";
    prev = name;
  }
  text += "    return (r0, r1, r2, r3, r4, r5)\n";
  FusionOptions options;
  options.maxOpsPerKernel = 3;
  Compiled c = compile(text, options);
  ASSERT_EQ(c.fused.kernels.size(), 2u);
  // Both halves are three relus over [4, 8]: one kernel definition, launched twice.
  EXPECT_EQ(c.fused.kernels[0].name, c.fused.kernels[1].name);
  EXPECT_EQ(c.fused.distinctKernels(), 1u);
  const FusionDecision *d = decisionFor(c.fused, "op3");
  ASSERT_TRUE(d);
  EXPECT_NE(d->reason.find("too many nodes"), std::string::npos) << d->reason;
}

TEST(Fusion, KernelsWhoseConstantsDifferBelowSixDigitsKeepTheirOwnDefinitions) {
  // x + 1e-07 and y + 2e-07: the same code but for a constant that "%f" prints as 0.000000 in
  // both; sharing one definition would add 1e-07 to y.
  Compiled c = compile(R"(graph():
    %x : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = placeholder[target=x]
    %y : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = placeholder[target=y]
    %a : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x, 1e-07), kwargs = {})
    %b : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%y, 2e-07), kwargs = {})
    return (a, b)
)");
  ASSERT_EQ(c.fused.kernels.size(), 2u);
  EXPECT_EQ(c.fused.distinctKernels(), 2u);
  EXPECT_NE(c.fused.kernels[0].signature, c.fused.kernels[1].signature);
  Tensor zeros = fromValues({4, 8}, std::vector<double>(32, 0.0));
  std::vector<RuntimeValue> in{RuntimeValue{zeros}, RuntimeValue{zeros}};
  auto r = interpretLoopProgram(c.program, c.fused, in);
  ASSERT_TRUE(r) << r.error().str();
  ASSERT_EQ(r->outputs.size(), 2u);
  expectValues(*r->outputs[0].tensor(), std::vector<double>(32, static_cast<float>(1e-07)), 1e-12);
  expectValues(*r->outputs[1].tensor(), std::vector<double>(32, static_cast<float>(2e-07)), 1e-12);
}

TEST(Lowering, PerChannelVectorsAreInlinedIntoTheirReaders) {
  // Batch-norm's scale rsqrt(var + eps) over [4] channels feeds a [2, 4, 3] op: it is inlined
  // (recomputed per element) rather than given a kernel of its own.
  Compiled c = compile(R"(graph():
    %v : Tensor "f32[4][1]cpu"[num_users=1] = placeholder[target=v]
    %x : Tensor "f32[2, 4, 3][12, 3, 1]cpu"[num_users=1] = placeholder[target=x]
    %a : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%v, 1e-05), kwargs = {})
    %r : [num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%a,), kwargs = {})
    %u : [num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%r, -1), kwargs = {})
    %m : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, %u), kwargs = {})
    return (m,)
)");
  ASSERT_EQ(c.program.ops.size(), 1u);
  EXPECT_EQ(c.program.ops[0].originOps, (std::vector<std::string>{"add", "rsqrt", "mul"}));
  ASSERT_EQ(c.fused.kernels.size(), 1u);
  EXPECT_EQ(c.fused.kernels[0].name, "fused_add_rsqrt_mul_0");
  Tensor v = fromValues({4}, {3, 8, 15, 24});
  Tensor x = fromValues({2, 4, 3}, std::vector<double>(24, 1.0));
  std::vector<RuntimeValue> in{RuntimeValue{v}, RuntimeValue{x}};
  auto r = interpretLoopProgram(c.program, c.fused, in);
  ASSERT_TRUE(r) << r.error().str();
  std::vector<double> want;
  for (int n = 0; n < 2; ++n)
    for (double var : {3.0, 8.0, 15.0, 24.0})
      for (int k = 0; k < 3; ++k)
        want.push_back(1 / std::sqrt(var + 1e-5));
  expectValues(*r->outputs[0].tensor(), want, 1e-6);
}

TEST(Lowering, CatIsOneMaskedOpInlinedThroughAReshape) {
  // cat_reinterpret's pattern: the inputs' pointwise ops inline into the cat (masked loads),
  // and the cat inlines into the cos that reads it through a reshape (x0 // 4, x0 % 4).
  Compiled c = compile(R"(graph():
    %a : Tensor "f32[2, 4][4, 1]cpu"[num_users=1] = placeholder[target=a]
    %b : Tensor "f32[3, 4][4, 1]cpu"[num_users=1] = placeholder[target=b]
    %m : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%a, 2), kwargs = {})
    %p : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%b, 1), kwargs = {})
    %c : [num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%m, %p],), kwargs = {})
    %v : [num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%c, [-1]), kwargs = {})
    %o : [num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%v,), kwargs = {})
    return (o,)
)");
  ASSERT_EQ(c.program.ops.size(), 1u) << c.program.str();
  ASSERT_EQ(c.fused.kernels.size(), 1u);
  std::vector<double> av, bv, want;
  for (int i = 0; i < 8; ++i)
    av.push_back(i);
  for (int i = 0; i < 12; ++i)
    bv.push_back(10 + i);
  for (double v : av)
    want.push_back(-2 * v);
  for (double v : bv)
    want.push_back(-(v + 1));
  std::vector<RuntimeValue> in{RuntimeValue{fromValues({2, 4}, av)},
                               RuntimeValue{fromValues({3, 4}, bv)}};
  auto r = interpretLoopProgram(c.program, c.fused, in);
  ASSERT_TRUE(r) << r.error().str();
  expectValues(*r->outputs[0].tensor(), want);
}

TEST(Fusion, DifferentIterationSpacesAreRefusedWithBothSpaces) {
  Compiled c = compile(R"(graph():
    %x : Tensor "f32[8, 16][16, 1]cpu"[num_users=2] = placeholder[target=x]
    %s : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%x, [0]), kwargs = {})
    %r : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})
    return (s, r)
)");
  const FusionDecision *d = decisionFor(c.fused, "op1");
  ASSERT_TRUE(d);
  EXPECT_FALSE(d->fused);
  EXPECT_NE(d->reason.find("different iteration spaces: the kernel iterates over [16] x [8], "
                           "the op over [8, 16]"),
            std::string::npos)
      << d->reason;
}

} // namespace

namespace {

/// `n` products of x with 1, 2, ..., n (a fan-out of x), cat along dim 0: an op reading n
/// computed buffers.
std::string catOfProducts(int n) {
  std::string s = "graph():\n    %x : Tensor \"f32[8][1]cpu\" = placeholder[target=x]\n";
  std::string items;
  for (int i = 0; i < n; ++i) {
    s += "    %m" + std::to_string(i) +
         " : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, " +
         std::to_string(i + 1) + "), kwargs = {})\n";
    items += (i ? ", %m" : "%m") + std::to_string(i);
  }
  return s + "    %c : [num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([" +
         items + "],), kwargs = {})\n    return (c,)\n";
}

} // namespace

// An op reading many computed buffers is tried against its first maxProducerCandidates producer
// kernels only (each try reads all its inputs: thousands made fusion quadratic), and still
// computes the right values. A reader whose body would pass 4096 instructions takes no more
// producers inline (a cat of thousands of inputs copied its body once per producer).
TEST(Fusion, ManyProducersAreBounded) {
  FusionOptions options;
  options.maxProducerCandidates = 16;
  Compiled c = compile(catOfProducts(100), options);
  // Lowering inlined the products into the cat (its body stays small): one op.
  EXPECT_EQ(c.program.ops.size(), 1u) << c.program.str();
  Compiled big = compile(catOfProducts(520), options);
  // 520 masked loads and their selects: the body passes the bound before every product is
  // inlined.
  EXPECT_GT(big.program.ops.size(), 1u);
  EXPECT_LT(big.program.ops.size(), 521u);
  std::string cat = big.program.ops.back().name;
  size_t tried = 0;
  for (const FusionDecision &d : big.fused.decisions)
    tried += d.op == cat && d.kind == FusionKind::Vertical;
  EXPECT_LE(tried, 16u) << big.fused.explain(big.program);
  EXPECT_GT(tried, 0u);
  std::vector<double> xs(8);
  for (size_t i = 0; i < xs.size(); ++i)
    xs[i] = static_cast<double>(i);
  std::vector<RuntimeValue> in{RuntimeValue{fromValues({8}, xs)}};
  auto r = interpretLoopProgram(big.program, big.fused, in);
  ASSERT_TRUE(r) << r.error().str();
  std::vector<double> want;
  for (int k = 0; k < 520; ++k)
    for (double v : xs)
      want.push_back(v * (k + 1));
  expectValues(*r->outputs[0].tensor(), want);
}
