/// Scans (cumsum, cumprod) as loop ops (transforms/lowering/ScanLowering.cpp): their loop form
/// and fusion decisions, hand-worked values, and agreement with the reference interpreter on
/// the loop interpreter, OpenCL (every launch shape: one lane per row, and lanes that scan
/// chunks of a row in local memory) and the LLVM JIT, over every dim of 1-3-D inputs, negative
/// dims, strided and offset views, integer, bool and half inputs, `dtype=`, empty dims, symbolic
/// sizes and rows of thousands of points.

#include "CompileTestSupport.h"
#include "InterpreterTestSupport.h"
#include "backends/interp/Interpreter.h"
#include "backends/interp/LoopInterpreter.h"
#include "backends/opencl/codegen/OpenCLKernelGen.h"
#include "exporters/wrapper/PyKernelWriter.h"
#include "importers/FxTextParser.h"
#include "ir/ops/OpCoverage.h"
#include "transforms/Fusion.h"
#include "transforms/Lowering.h"
#include "transforms/ShapeInference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>

using namespace fxkit;
using namespace fxkit::testing;
namespace fs = std::filesystem;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// A graph of one typed input `x`, the node lines `body` (the last defines `%c`), returning c.
std::string graphOf(const std::string &type, const std::string &body) {
  return "graph():\n    %x : Tensor \"" + type + "\"[num_users=1] = placeholder[target=x]\n" +
         body + "    return (c,)\n";
}

/// `%c = <op>(%<in>, <dim>, kwargs)`.
std::string scanNode(const std::string &op, const std::string &dim, const std::string &kwargs = "",
                     const std::string &in = "x") {
  return "    %c : [num_users=1] = call_function[target=torch.ops.aten." + op +
         ".default](args = (%" + in + ", " + dim + "), kwargs = {" + kwargs + "})\n";
}

std::string indexText(std::span<const int64_t> idx) {
  std::string s = "[";
  for (size_t i = 0; i < idx.size(); ++i)
    s += (i ? ", " : "") + std::to_string(idx[i]);
  return s + "]";
}

/// Expects `got` to be `want` within the dtype's tolerance: integers and bools exactly; floats
/// within rtol of each value plus rtol of the output's largest magnitude (near a zero crossing
/// of a running sum, the order its terms combine in shows against the largest of them).
void expectSame(const Tensor &got, const Tensor &want, const std::string &what, double rtol) {
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  ASSERT_EQ(got.sizes(), want.sizes()) << what;
  double scale = 0;
  Tensor::forEachIndex(want.sizes(), [&](std::span<const int64_t> idx) {
    double y = want.getDouble(idx);
    if (std::isfinite(y))
      scale = std::max(scale, std::abs(y));
  });
  double tol = dtypeIsFloating(want.dtype()) ? rtol : 0;
  size_t bad = 0;
  Tensor::forEachIndex(want.sizes(), [&](std::span<const int64_t> idx) {
    double a = got.getDouble(idx), b = want.getDouble(idx);
    bool same = (std::isnan(a) && std::isnan(b)) || a == b ||
                std::abs(a - b) <= tol * (std::abs(b) + scale);
    if (!same && bad++ < 3)
      ADD_FAILURE() << what << ": element " << indexText(idx) << " is " << a
                    << ", the reference interpreter gives " << b;
  });
}

/// Compiles `text`, runs it on every backend with `inputs` (seeded random ones when empty) and
/// compares each result with the reference interpreter's. Returns the reference result.
std::optional<InterpretResult> checkAgainstReference(const std::string &text,
                                                     std::vector<RuntimeValue> inputs = {},
                                                     const SymExpr::Bindings &symbols = {},
                                                     double rtol = 1e-6) {
  SCOPED_TRACE(text);
  registerReferenceKernels();
  Compiled c;
  EXPECT_TRUE(compile(text, c));
  if (c.program.ops.empty())
    return std::nullopt;
  if (inputs.empty()) {
    auto random = makeRandomInputs(c.graph, symbols, 5);
    EXPECT_TRUE(random) << (random ? "" : random.error().str());
    if (!random)
      return std::nullopt;
    inputs = random.take();
  }
  auto graph = parseFxText(text, "<test>");
  EXPECT_TRUE(graph);
  if (!graph)
    return std::nullopt;
  auto expected = interpretGraph(*graph, inputs);
  EXPECT_TRUE(expected) << (expected ? "" : expected.error().str());
  if (!expected)
    return std::nullopt;
  // Launch shapes that take each scan form: one lane per row; 4, 32 and 256 lanes scanning
  // chunks; several rows per work-group.
  auto results =
      resultsOnEveryLoopBackend(c, inputs,
                                {.openclConfigs = {"lanes=1,rows=64", "lanes=4,rows=16",
                                                   "lanes=32,rows=2", "lanes=256,rows=1"}});
  // The loop interpreter, 4 OpenCL launch shapes, LLVM: as many as are built.
  size_t backends = 1;
#ifdef FXKIT_HAVE_OPENCL
  backends += 4;
#endif
#ifdef FXKIT_HAVE_LLVM
  backends += 1;
#endif
  EXPECT_EQ(results.size(), backends);
  for (const auto &[backend, result] : results) {
    SCOPED_TRACE(backend);
    EXPECT_EQ(result.outputs.size(), expected->outputs.size());
    for (size_t i = 0; i < expected->outputs.size() && i < result.outputs.size(); ++i) {
      const Tensor *got = result.outputs[i].tensor();
      const Tensor *want = expected->outputs[i].tensor();
      EXPECT_TRUE(got && want) << backend;
      if (!got || !want)
        continue;
      // Half types: the reference accumulates in double, the scans in float32, and both
      // round each result once: at most one unit in the last place apart.
      double tol = want->dtype() == DType::Float16    ? 1e-3
                   : want->dtype() == DType::BFloat16 ? 8e-3
                   : want->dtype() == DType::Float64  ? 1e-12
                                                      : rtol;
      expectSame(*got, *want, backend + " output " + std::to_string(i), tol);
    }
  }
  return expected.take();
}

/// The one tensor output of a reference run.
const Tensor &single(const std::optional<InterpretResult> &r) {
  static const Tensor none;
  if (!r || r->outputs.size() != 1 || !r->outputs[0].tensor()) {
    ADD_FAILURE() << "expected one tensor output";
    return none;
  }
  return *r->outputs[0].tensor();
}

std::vector<RuntimeValue> values(std::initializer_list<Tensor> ts) {
  std::vector<RuntimeValue> out;
  for (const Tensor &t : ts)
    out.push_back(RuntimeValue{t});
  return out;
}

TEST(ScanLowering, CumsumIsOneScanOpThatStandsAloneInItsKernel) {
  registerReferenceKernels();
  // The mul before the scan is inlined into its body; the add after it is not fused (scans
  // stand alone), and fuse --explain says why.
  Compiled c;
  std::string text = R"(graph():
    %x : Tensor "f32[2, 3, 4][12, 4, 1]cpu"[num_users=1] = placeholder[target=x]
    %m : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, 2), kwargs = {})
    %c : [num_users=1] = call_function[target=torch.ops.aten.cumsum.default](args = (%m, 1), kwargs = {})
    %d : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%c, 1), kwargs = {})
    return (d,)
)";
  ASSERT_TRUE(compile(text, c));
  ASSERT_EQ(c.program.ops.size(), 2u);
  const loop::LoopOp &scan = c.program.ops[0];
  EXPECT_EQ(scan.kind, loop::LoopOpKind::Scan);
  EXPECT_EQ(scan.scan, loop::ScanKind::Sum);
  EXPECT_EQ(scan.accumulator, DType::Float64); // PyTorch's CPU accumulate type
  // Kept dims [2, 4] are x0, x1; the scanned dim 1 is r0; stores at every (x, r) point.
  ASSERT_EQ(scan.ranges.size(), 2u);
  EXPECT_EQ(scan.ranges[0].str(), "2");
  EXPECT_EQ(scan.ranges[1].str(), "4");
  ASSERT_EQ(scan.reductionRanges.size(), 1u);
  EXPECT_EQ(scan.reductionRanges[0].str(), "3");
  ASSERT_EQ(scan.stores.size(), 1u);
  EXPECT_EQ(scan.stores[0].index.str(), "4*r0 + 12*x0 + x1");
  std::string loops = c.program.str();
  EXPECT_NE(loops.find("op0: scan sum {x0: 2, x1: 4} {r0: 3}  # m, c"), std::string::npos) << loops;
  EXPECT_NE(loops.find("scan(tmp"), std::string::npos) << loops;
  std::string explain = c.fused.explain(c.program);
  EXPECT_NE(explain.find("refused op1 into kernel of op0 (vertical, 96 bytes): scans are not "
                         "fused"),
            std::string::npos)
      << explain;
  ASSERT_EQ(c.fused.kernels.size(), 2u);
  EXPECT_EQ(c.fused.kernels[0].name, "fused_mul_cumsum_0");
  // The Python wrapper scans with torch.cumsum over the (xnumel, rnumel) grid.
  auto py = writePyKernel(c.program, c.fused.kernels[0], "k0");
  ASSERT_TRUE(py) << py.error().str();
  EXPECT_NE(py->code.find("= torch.cumsum("), std::string::npos) << py->code;
  // OpenCL: launched as a reduction (lanes, rows, local memory for the lanes' scan).
  auto cl = opencl::generateOpenCL(c.program, c.fused);
  ASSERT_TRUE(cl) << cl.error().str();
  EXPECT_TRUE(cl->launches[0].isReduction);
  EXPECT_NE(cl->launches[0].source.find("fx_run = fx_run + "), std::string::npos)
      << cl->launches[0].source;
}

TEST(ScanLowering, TheRegistryReportsLoopsForBoth) {
  size_t found = 0;
  for (const OpCoverage &op : opCoverage())
    if (op.target == "torch.ops.aten.cumsum.default" ||
        op.target == "torch.ops.aten.cumprod.default") {
      EXPECT_EQ(op.compiled, CompiledForm::Loops) << op.target;
      ++found;
    }
  EXPECT_EQ(found, 2u);
}

TEST(ScanLowering, HandWorkedValuesOnEveryBackend) {
  Tensor x23 = fromValues({2, 3}, {1, 2, 3, 4, 5, 6});
  expectValues(single(checkAgainstReference(graphOf("f32[2, 3][3, 1]cpu", scanNode("cumsum", "1")),
                                            values({x23}))),
               {1, 3, 6, 4, 9, 15});
  expectValues(single(checkAgainstReference(graphOf("f32[2, 3][3, 1]cpu", scanNode("cumsum", "0")),
                                            values({x23}))),
               {1, 2, 3, 5, 7, 9});
  expectValues(single(checkAgainstReference(
                   graphOf("f32[2, 3][3, 1]cpu", scanNode("cumprod", "-1")), values({x23}))),
               {1, 2, 6, 4, 20, 120});
  // NaN propagates to every later point, and only to those.
  expectValues(single(checkAgainstReference(graphOf("f32[4][1]cpu", scanNode("cumsum", "0")),
                                            values({fromValues({4}, {1, kNaN, 2, 3})}))),
               {1, kNaN, kNaN, kNaN});
  expectValues(single(checkAgainstReference(graphOf("f32[3][1]cpu", scanNode("cumprod", "0")),
                                            values({fromValues({3}, {2, 0, kNaN})}))),
               {2, 0, kNaN});
  // float32 accumulates in float64, as PyTorch's CPU kernel does: 1e8 + 1 is kept (float32
  // would round it to 1e8 and end at 0), stored as 1e8, and the row ends at exactly 1.
  expectValues(single(checkAgainstReference(graphOf("f32[3][1]cpu", scanNode("cumsum", "0")),
                                            values({fromValues({3}, {1e8, 1, -1e8})}))),
               {1e8, 1e8, 1}, 0);
  // float16 accumulates in float32 and rounds each result: 2048 + 1 rounds to 2048 (even), but
  // the running value is 2049, so adding 1 again gives 2050 (a float16 accumulator: 2048).
  Tensor h = fromValues({3}, {2048, 1, 1}, DType::Float16);
  expectValues(
      single(checkAgainstReference(graphOf("f16[3][1]cpu", scanNode("cumsum", "0")), values({h}))),
      {2048, 2048, 2050}, 0);
  // Integers accumulate in int64 (wrapping): 2^62 * 4 = 0; bools count.
  auto big = Tensor::zeros(DType::Int64, {2});
  ASSERT_TRUE(big);
  big->storeInt(0, int64_t(1) << 62);
  big->storeInt(1, 4);
  const Tensor wrapped = single(
      checkAgainstReference(graphOf("i64[2][1]cpu", scanNode("cumprod", "0")), values({*big})));
  EXPECT_EQ(wrapped.loadInt(wrapped.storageOffset() + 1), 0);
  expectValues(
      single(checkAgainstReference(graphOf("b8[2, 3][3, 1]cpu", scanNode("cumsum", "1")),
                                   values({fromValues({2, 3}, {1, 0, 1, 1, 1, 1}, DType::Bool)}))),
      {1, 1, 2, 1, 2, 3}, 0);
  // dtype=torch.int32 converts first: 1.7, -2.9, 0.5 add as 1, -2, 0.
  expectValues(single(checkAgainstReference(
                   graphOf("f32[3][1]cpu", scanNode("cumsum", "0", "dtype: torch.int32")),
                   values({fromValues({3}, {1.7, -2.9, 0.5})}))),
               {1, -1, -1}, 0);
}

TEST(ScanLowering, EveryDimOfOneToThreeDimensionalInputs) {
  for (const char *op : {"cumsum", "cumprod"}) {
    SCOPED_TRACE(op);
    checkAgainstReference(graphOf("f32[17][1]cpu", scanNode(op, "0")));
    checkAgainstReference(graphOf("f32[17][1]cpu", scanNode(op, "-1")));
    for (const char *dim : {"0", "1", "-1", "-2"})
      checkAgainstReference(graphOf("f32[5, 7][7, 1]cpu", scanNode(op, dim)));
    for (const char *dim : {"0", "1", "2", "-1", "-3"})
      checkAgainstReference(graphOf("f32[3, 4, 5][20, 5, 1]cpu", scanNode(op, dim)));
  }
}

TEST(ScanLowering, StridedOffsetAndBroadcastViews) {
  // A transposed input (read with stride 4 along the scan), a channels-last one, a slice that
  // starts one point in, and an expanded (stride 0) one.
  checkAgainstReference(graphOf("f32[4, 6][1, 4]cpu", scanNode("cumsum", "1")));
  checkAgainstReference(graphOf("f32[4, 6][1, 4]cpu", scanNode("cumprod", "0")));
  checkAgainstReference(graphOf("f32[2, 3, 2, 2][12, 1, 6, 3]cpu", scanNode("cumsum", "1")));
  checkAgainstReference(
      graphOf("f32[5, 9][9, 1]cpu", "    %s : [num_users=1] = call_function[target=torch.ops.aten."
                                    "slice.Tensor](args = (%x, 1, 1, 8), kwargs = {})\n" +
                                        scanNode("cumsum", "1", "", "s")));
  checkAgainstReference(
      graphOf("f32[6][1]cpu", "    %e : [num_users=1] = call_function[target=torch.ops.aten."
                              "expand.default](args = (%x, [3, 6]), kwargs = {})\n" +
                                  scanNode("cumsum", "0", "", "e")));
}

TEST(ScanLowering, AScanMayWriteOverItsInput) {
  // exp's buffer dies in the scan, which reads each point before it writes it and never after
  // (in every form: a lane's first pass reads only its own chunk), so the plan puts the cumsum
  // in its storage.
  std::string text = R"(graph():
    %x : Tensor "f32[8, 300][300, 1]cpu"[num_users=1] = placeholder[target=x]
    %m : [num_users=2] = call_function[target=torch.ops.aten.exp.default](args = (%x,), kwargs = {})
    %a : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%m, [1]), kwargs = {})
    %c : [num_users=1] = call_function[target=torch.ops.aten.cumsum.default](args = (%m, 1), kwargs = {})
    return (c, a)
)";
  Compiled c;
  ASSERT_TRUE(compile(text, c));
  ASSERT_EQ(c.program.ops.size(), 3u);
  ASSERT_EQ(c.program.ops[2].kind, loop::LoopOpKind::Scan);
  int32_t scanned = c.program.ops[2].body[0].buffer, result = c.program.ops[2].stores[0].buffer;
  EXPECT_EQ(c.plan.buffers[result].kind, loop::BufferPlacement::Kind::InPlace);
  EXPECT_EQ(c.plan.buffers[result].inPlaceOf, scanned);
  checkAgainstReference(text);
}

TEST(ScanLowering, IntegerBoolAndHalfInputsAndDtype) {
  for (const char *op : {"cumsum", "cumprod"}) {
    SCOPED_TRACE(op);
    checkAgainstReference(graphOf("i32[4, 6][6, 1]cpu", scanNode(op, "1")));
    checkAgainstReference(graphOf("i64[4, 6][6, 1]cpu", scanNode(op, "0")));
    checkAgainstReference(graphOf("u8[4, 6][6, 1]cpu", scanNode(op, "1")));
    checkAgainstReference(graphOf("b8[4, 6][6, 1]cpu", scanNode(op, "1")));
    checkAgainstReference(graphOf("f16[4, 6][6, 1]cpu", scanNode(op, "1")));
    checkAgainstReference(graphOf("bf16[4, 6][6, 1]cpu", scanNode(op, "0")));
    checkAgainstReference(graphOf("f64[4, 6][6, 1]cpu", scanNode(op, "1")));
    checkAgainstReference(graphOf("i32[4, 6][6, 1]cpu", scanNode(op, "1", "dtype: torch.float32")));
    checkAgainstReference(graphOf("f16[4, 6][6, 1]cpu", scanNode(op, "1", "dtype: torch.float32")));
    checkAgainstReference(graphOf("f32[4, 6][6, 1]cpu", scanNode(op, "1", "dtype: torch.float64")));
    checkAgainstReference(graphOf("f32[4, 6][6, 1]cpu", scanNode(op, "1", "dtype: torch.int32")));
    checkAgainstReference(graphOf("b8[4, 6][6, 1]cpu", scanNode(op, "1", "dtype: torch.float16")));
  }
}

TEST(ScanLowering, EmptyDimsSizeOneDimsAndZeroDimensionalInputs) {
  for (const char *op : {"cumsum", "cumprod"}) {
    SCOPED_TRACE(op);
    // An empty scanned dim, an empty kept dim: empty results of the input's shape.
    EXPECT_EQ(
        single(checkAgainstReference(graphOf("f32[3, 0][1, 1]cpu", scanNode(op, "1")))).numel(), 0);
    EXPECT_EQ(
        single(checkAgainstReference(graphOf("f32[0, 4][4, 1]cpu", scanNode(op, "1")))).numel(), 0);
    EXPECT_EQ(
        single(checkAgainstReference(graphOf("f32[0, 4][4, 1]cpu", scanNode(op, "0")))).numel(), 0);
    // A scanned dim of size 1 and a 0-d input are conversions: no scan op.
    Compiled c;
    ASSERT_TRUE(compile(graphOf("i32[4, 1][1, 1]cpu", scanNode(op, "1")), c));
    ASSERT_EQ(c.program.ops.size(), 1u);
    EXPECT_EQ(c.program.ops[0].kind, loop::LoopOpKind::Pointwise);
    checkAgainstReference(graphOf("i32[4, 1][1, 1]cpu", scanNode(op, "1")));
    checkAgainstReference(graphOf("f16[][]cpu", scanNode(op, "0")));
    checkAgainstReference(graphOf("f32[][]cpu", scanNode(op, "-1")));
  }
}

TEST(ScanLowering, SymbolicSizes) {
  // Symbolic kept and scanned dims, bound to sizes that are not powers of two (rows longer
  // than some lane counts, shorter than others).
  for (const char *op : {"cumsum", "cumprod"}) {
    SCOPED_TRACE(op);
    checkAgainstReference(graphOf("f32[s0, s1][s1, 1]cpu", scanNode(op, "1")), {},
                          {{"s0", 3}, {"s1", 37}});
    checkAgainstReference(graphOf("f32[s0, s1][s1, 1]cpu", scanNode(op, "0")), {},
                          {{"s0", 5}, {"s1", 3}});
    checkAgainstReference(graphOf("i64[2, s0, 3][3*s0, 3, 1]cpu", scanNode(op, "-2")), {},
                          {{"s0", 300}});
  }
}

TEST(ScanLowering, LongRows) {
  // Rows of 5000 points: chunks of 20 points per lane at 256 lanes, 1250 at 4.
  checkAgainstReference(graphOf("f32[3, 5000][5000, 1]cpu", scanNode("cumsum", "1")));
  checkAgainstReference(graphOf("i64[2, 5000][5000, 1]cpu", scanNode("cumsum", "-1")));
  checkAgainstReference(graphOf("f16[2, 5000][5000, 1]cpu", scanNode("cumsum", "1")));
  // Products of values near 1 stay finite over the row.
  std::vector<double> near1(2 * 5000);
  for (size_t i = 0; i < near1.size(); ++i)
    near1[i] = 1 + 0.002 * std::sin(0.37 * static_cast<double>(i));
  checkAgainstReference(graphOf("f32[2, 5000][5000, 1]cpu", scanNode("cumprod", "1")),
                        values({fromValues({2, 5000}, near1)}));
  // Along a strided dim of 5000 (the scan reads every 3rd point).
  checkAgainstReference(graphOf("f32[5000, 3][3, 1]cpu", scanNode("cumsum", "0")));
}

} // namespace
