/// The reductions of transforms/lowering/ReductionLowering.cpp (any, all, argmax, argmin,
/// max/min whole and along a dim, prod, var, logsumexp) lower to Reduction loop ops, not extern
/// calls, and every backend gives the reference interpreter's values on hand-worked inputs:
/// first index among ties, NaN winning argmax and argmin, signed zeros, int and bool inputs,
/// keepdim, dim=None, non-contiguous inputs, empty reduced dims, infinite rows of logsumexp,
/// exact int64 products. Run by the loop interpreter, OpenCL (under launch configurations that
/// take each loop form: one lane, the vector form and lanes combining, persistent rows) and
/// LLVM.

#include "CompileTestSupport.h"
#include "InterpreterTestSupport.h"
#include "backends/interp/Interpreter.h"
#include "backends/interp/LoopInterpreter.h"
#include "importers/FxTextParser.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>

using namespace fxkit;
using namespace fxkit::testing;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

/// Whether `got` equals `want`: integers and bools exactly, floats within a relative `tol`
/// (NaN, infinities and the sign of zero exactly).
void expectSame(const Tensor &got, const Tensor &want, const std::string &what) {
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  ASSERT_EQ(got.sizes(), want.sizes()) << what;
  double tol = want.dtype() == DType::Float16 || want.dtype() == DType::BFloat16 ? 2e-3 : 2e-6;
  Tensor::forEachIndex(want.sizes(), [&](std::span<const int64_t> idx) {
    std::string at = what + " at element " + std::to_string(want.offsetOf(idx));
    if (!dtypeIsFloating(want.dtype())) {
      EXPECT_EQ(got.getInt(idx), want.getInt(idx)) << at;
      return;
    }
    double a = got.getDouble(idx), b = want.getDouble(idx);
    if (std::isnan(b))
      EXPECT_TRUE(std::isnan(a)) << at << ": " << a;
    else if (std::isinf(b) || b == 0)
      EXPECT_TRUE(a == b && std::signbit(a) == std::signbit(b)) << at << ": " << a << " vs " << b;
    else
      EXPECT_NEAR(a, b, tol * std::abs(b)) << at;
  });
}

void expectSameOutputs(const InterpretResult &got, const InterpretResult &want,
                       const std::string &backend) {
  ASSERT_EQ(got.outputs.size(), want.outputs.size()) << backend;
  for (size_t i = 0; i < want.outputs.size(); ++i) {
    const Tensor *g = got.outputs[i].tensor(), *w = want.outputs[i].tensor();
    ASSERT_TRUE(g && w) << backend << " output " << i;
    expectSame(*g, *w, backend + " output " + std::to_string(i));
  }
}

/// OpenCL launch configurations that take each form of a reduction loop: one lane (looped),
/// lanes combining in local memory (with the vector form where a row allows it), and 256
/// lanes that hold a long row in registers (persistent).
const char *const kConfigs[] = {"lanes=1,rows=8", "lanes=4,rows=16", "lanes=64,rows=1",
                                "lanes=256,rows=1"};

/// A kernel cache for this process, removed at exit: kernels that several graphs or launch
/// configurations share are built once.
const std::string &cacheDir() {
  struct Dir {
    std::filesystem::path path = std::filesystem::temp_directory_path() /
                                 ("fxkit-reduction-lowering-" + std::to_string(::getpid()));
    ~Dir() { std::filesystem::remove_all(path); }
  };
  static Dir dir;
  static const std::string text = dir.path.string();
  return text;
}

/// Runs `text` on `inputs` with the reference interpreter and checks `expected` (per output,
/// its elements row-major; empty: not checked), then compiles it, checks that it has no extern
/// op (its reductions are loops), and checks every backend against the reference.
void checkEverywhere(const std::string &text, const std::vector<Tensor> &inputs,
                     const std::vector<std::vector<double>> &expected = {}) {
  SCOPED_TRACE(text);
  std::vector<RuntimeValue> values;
  for (const Tensor &t : inputs)
    values.push_back(RuntimeValue{t});
  auto want = fxkit::testing::runText(text, values);
  ASSERT_TRUE(want) << want.error().str();
  for (size_t i = 0; i < expected.size(); ++i) {
    if (expected[i].empty())
      continue;
    SCOPED_TRACE("hand-worked output " + std::to_string(i));
    ASSERT_TRUE(want->outputs.at(i).tensor());
    fxkit::testing::expectValues(*want->outputs[i].tensor(), expected[i], 1e-6);
  }
  Compiled c;
  ASSERT_TRUE(compile(text, inputs, c));
  expectNoExterns(c.program);

  auto loops = interpretLoopProgram(c.program, c.fused, values);
  ASSERT_TRUE(loops) << loops.error().str();
  expectSameOutputs(*loops, *want, "loop interpreter");

#ifdef FXKIT_HAVE_OPENCL
  if (openclContext()) {
    for (const char *config : kConfigs) {
      opencl::OpenCLOptions options;
      options.cacheDir = cacheDir();
      options.tune = false;
      options.forceConfig = config;
      opencl::OpenCLStats stats;
      auto got = runOnOpenCL(c, values, options, &stats);
      ASSERT_TRUE(got);
      expectSameOutputs(*got, *want, std::string("OpenCL ") + config);
      EXPECT_EQ(stats.hostExterns, 0);
    }
  }
#endif
#ifdef FXKIT_HAVE_LLVM
  llvmjit::LLVMOptions options;
  options.cacheDir = cacheDir();
  options.threads = 2;
  llvmjit::LLVMStats stats;
  auto got = runOnLLVM(c, values, options, &stats);
  ASSERT_TRUE(got);
  expectSameOutputs(*got, *want, "LLVM");
  EXPECT_EQ(stats.hostExterns, 0);
#endif
}

/// The kind of the one Reduction op computing node `name`.
std::string reductionOf(const std::string &text, const std::vector<Tensor> &inputs,
                        const std::string &name) {
  Compiled c;
  EXPECT_TRUE(compile(text, inputs, c));
  for (const loop::LoopOp &op : c.program.ops)
    if (op.kind == loop::LoopOpKind::Reduction &&
        std::find(op.origins.begin(), op.origins.end(), name) != op.origins.end())
      return std::string(loop::reductionKindName(op.reduction));
  return "none";
}

Tensor ties() {
  // Row 0: a repeated maximum; row 1: two NaNs; row 2: signed zeros; row 3: all equal.
  return fromValues({4, 6}, {1,    3,    7,  2,    7,   0,    //
                             5,    kNaN, 1,  kNaN, 9,   1,    //
                             -0.0, 0.0,  -1, -1,   0.0, -0.0, //
                             4,    4,    4,  4,    4,   4});
}

} // namespace

TEST(ReductionLowering, EachOpIsOneReductionOfItsKind) {
  Tensor x = fromValues({2, 3}, {1, 2, 3, 4, 5, 6});
  auto one = [&](const std::string &call) {
    return reductionOf(fxkit::testing::oneOpGraph({"a"}, call), {x}, "r");
  };
  EXPECT_EQ(one("torch.ops.aten.any.dim](args = (%a, 1), kwargs = {})"), "any");
  EXPECT_EQ(one("torch.ops.aten.all.default](args = (%a,), kwargs = {})"), "all");
  EXPECT_EQ(one("torch.ops.aten.argmax.default](args = (%a,), kwargs = {})"), "argmax");
  EXPECT_EQ(one("torch.ops.aten.argmin.default](args = (%a, 0), kwargs = {})"), "argmin");
  EXPECT_EQ(one("torch.ops.aten.max.default](args = (%a,), kwargs = {})"), "max");
  EXPECT_EQ(one("torch.ops.aten.min.default](args = (%a,), kwargs = {})"), "min");
  EXPECT_EQ(one("torch.ops.aten.prod.dim_int](args = (%a, 1), kwargs = {})"), "prod");
  EXPECT_EQ(one("torch.ops.aten.var.dim](args = (%a, [1]), kwargs = {})"), "var_mean");
  EXPECT_EQ(one("torch.ops.aten.logsumexp.default](args = (%a, [1]), kwargs = {})"), "logsumexp");
}

TEST(ReductionLowering, ArgExtremaTakeTheFirstIndexAndNaNWins) {
  constexpr const char *kGraph = R"(graph():
    %a : [num_users=9] = placeholder[target=a]
    %am : [num_users=1] = call_function[target=torch.ops.aten.argmax.default](args = (%a, 1), kwargs = {})
    %an : [num_users=1] = call_function[target=torch.ops.aten.argmin.default](args = (%a, 1, True), kwargs = {})
    %af : [num_users=1] = call_function[target=torch.ops.aten.argmax.default](args = (%a,), kwargs = {})
    %afk : [num_users=1] = call_function[target=torch.ops.aten.argmin.default](args = (%a, None, True), kwargs = {})
    %an0 : [num_users=1] = call_function[target=torch.ops.aten.argmin.default](args = (%a, 0), kwargs = {})
    %mx : [num_users=2] = call_function[target=torch.ops.aten.max.dim](args = (%a, 1), kwargs = {})
    %mxv : [num_users=1] = call_function[target=operator.getitem](args = (%mx, 0), kwargs = {})
    %mxi : [num_users=1] = call_function[target=operator.getitem](args = (%mx, 1), kwargs = {})
    %mn : [num_users=2] = call_function[target=torch.ops.aten.min.dim](args = (%a, 0, True), kwargs = {})
    %mnv : [num_users=1] = call_function[target=operator.getitem](args = (%mn, 0), kwargs = {})
    %mni : [num_users=1] = call_function[target=operator.getitem](args = (%mn, 1), kwargs = {})
    %all_max : [num_users=1] = call_function[target=torch.ops.aten.max.default](args = (%a,), kwargs = {})
    %all_min : [num_users=1] = call_function[target=torch.ops.aten.min.default](args = (%a,), kwargs = {})
    %k : [num_users=2] = call_function[target=torch.ops.aten.max.dim](args = (%a, 1, True), kwargs = {})
    %kv : [num_users=1] = call_function[target=operator.getitem](args = (%k, 0), kwargs = {})
    %ki : [num_users=1] = call_function[target=operator.getitem](args = (%k, 1), kwargs = {})
    %d : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%a, %kv), kwargs = {})
    %j : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%ki, 10), kwargs = {})
    return (am, an, af, afk, an0, mxv, mxi, mnv, mni, all_max, all_min, d, j)
)";
  checkEverywhere(kGraph, {ties()},
                  {{2, 1, 0, 0},
                   {5, 1, 2, 0},
                   {7},
                   {7},
                   {2, 1, 2, 1, 2, 0},
                   {7, kNaN, -0.0, 4},
                   {2, 1, 0, 0},
                   {-0.0, kNaN, -1, kNaN, 0, 0},
                   {2, 1, 2, 1, 2, 0},
                   {kNaN},
                   {kNaN}});
  // The same through a transposed (non-contiguous) view: rows are columns.
  checkEverywhere(kGraph, {permuted(ties().contiguous(), {1, 0})});
}

TEST(ReductionLowering, ArgExtremaOfLongRowsInEveryLoopForm) {
  // 1000 points a row: the maximum 50 three times (100 first), NaNs at 301 and 700, and a row
  // of -inf whose every point ties (0 wins).
  std::vector<double> v(3 * 1000);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = std::sin(0.37 * static_cast<double>(i)) * 4;
  v[900] = v[517] = v[100] = 50;
  v[1000 + 700] = v[1000 + 301] = kNaN;
  for (size_t i = 2000; i < 3000; ++i)
    v[i] = -kInf;
  checkEverywhere(R"(graph():
    %a : [num_users=3] = placeholder[target=a]
    %am : [num_users=1] = call_function[target=torch.ops.aten.argmax.default](args = (%a, 1), kwargs = {})
    %an : [num_users=1] = call_function[target=torch.ops.aten.argmin.default](args = (%a, -1), kwargs = {})
    %mx : [num_users=2] = call_function[target=torch.ops.aten.max.dim](args = (%a, 1), kwargs = {})
    %mxv : [num_users=1] = call_function[target=operator.getitem](args = (%mx, 0), kwargs = {})
    %mxi : [num_users=1] = call_function[target=operator.getitem](args = (%mx, 1), kwargs = {})
    return (am, an, mxv, mxi)
)",
                  {fromValues({3, 1000}, v)},
                  {{100, 301, 0}, {}, {50, kNaN, -kInf}, {100, 301, 0}});
}

TEST(ReductionLowering, ArgExtremaOfIntegersBoolsAndHalves) {
  Tensor ints = fromValues({3, 4}, {3, -7, 3, 2, 0, 0, 0, 0, -2147483648.0, 5, 2147483647.0, 5},
                           DType::Int32);
  Tensor bools = fromValues({2, 3}, {0, 1, 1, 0, 0, 0}, DType::Bool);
  Tensor halves =
      fromValues({2, 5}, {0.5, -2, 65504, 65504, 1, -0.0, 0.0, -65504, 3, -65504}, DType::Float16);
  Tensor longs = permuted(fromValues({3, 2}, {9, -1, 9, 4, -3, -1}, DType::Int64), {1, 0});
  checkEverywhere(R"(graph():
    %a : [num_users=3] = placeholder[target=a]
    %b : [num_users=2] = placeholder[target=b]
    %c : [num_users=2] = placeholder[target=c]
    %d : [num_users=2] = placeholder[target=d]
    %am : [num_users=1] = call_function[target=torch.ops.aten.argmax.default](args = (%a, 1), kwargs = {})
    %an : [num_users=1] = call_function[target=torch.ops.aten.argmin.default](args = (%a, 1), kwargs = {})
    %mx : [num_users=1] = call_function[target=torch.ops.aten.max.dim](args = (%a, 1), kwargs = {})
    %mxv : [num_users=1] = call_function[target=operator.getitem](args = (%mx, 0), kwargs = {})
    %bx : [num_users=2] = call_function[target=torch.ops.aten.max.dim](args = (%b, 1), kwargs = {})
    %bxv : [num_users=1] = call_function[target=operator.getitem](args = (%bx, 0), kwargs = {})
    %bxi : [num_users=1] = call_function[target=operator.getitem](args = (%bx, 1), kwargs = {})
    %bmin : [num_users=1] = call_function[target=torch.ops.aten.min.default](args = (%b,), kwargs = {})
    %ch : [num_users=1] = call_function[target=torch.ops.aten.argmax.default](args = (%c, 1), kwargs = {})
    %cl : [num_users=1] = call_function[target=torch.ops.aten.argmin.default](args = (%c, 1), kwargs = {})
    %dm : [num_users=1] = call_function[target=torch.ops.aten.argmax.default](args = (%d,), kwargs = {})
    %dn : [num_users=1] = call_function[target=torch.ops.aten.argmin.default](args = (%d, 0, True), kwargs = {})
    return (am, an, mxv, bxv, bxi, bmin, ch, cl, dm, dn)
)",
                  {ints, bools, halves, longs},
                  {{0, 0, 2},
                   {1, 0, 0},
                   {3, 0, 2147483647},
                   {1, 0},
                   {1, 0},
                   {0},
                   {2, 3},
                   {1, 2},
                   {0},
                   {1, 1, 0}});
}

TEST(ReductionLowering, AnyAndAllOfEveryDtype) {
  Tensor floats = fromValues({3, 4}, {0, 0, kNaN, 0, 0, -0.0, 0, 0, 1, 2, 3, -4});
  Tensor bytes = fromValues({2, 3}, {0, 3, 0, 1, 1, 255}, DType::UInt8);
  Tensor bools = fromValues({2, 2}, {1, 0, 1, 1}, DType::Bool);
  Tensor longs = fromValues({2, 3}, {0, -5, 0, 0, 7, 0}, DType::Int64);
  checkEverywhere(
      R"(graph():
    %a : [num_users=4] = placeholder[target=a]
    %b : [num_users=2] = placeholder[target=b]
    %c : [num_users=3] = placeholder[target=c]
    %d : [num_users=1] = placeholder[target=d]
    %any1 : [num_users=1] = call_function[target=torch.ops.aten.any.dim](args = (%a, 1), kwargs = {})
    %all1 : [num_users=1] = call_function[target=torch.ops.aten.all.dim](args = (%a, 1), kwargs = {})
    %anyall : [num_users=1] = call_function[target=torch.ops.aten.any.default](args = (%a,), kwargs = {})
    %allall : [num_users=1] = call_function[target=torch.ops.aten.all.default](args = (%a,), kwargs = {})
    %bany : [num_users=1] = call_function[target=torch.ops.aten.any.dim](args = (%b, 1), kwargs = {})
    %ball : [num_users=1] = call_function[target=torch.ops.aten.all.dim](args = (%b, 1, True), kwargs = {})
    %call : [num_users=1] = call_function[target=torch.ops.aten.all.dims](args = (%c, [0, 1]), kwargs = {})
    %cnone : [num_users=1] = call_function[target=torch.ops.aten.any.dims](args = (%c, []), kwargs = {})
    %cany : [num_users=1] = call_function[target=torch.ops.aten.any.dims](args = (%c,), kwargs = {keepdim: True})
    %dany : [num_users=1] = call_function[target=torch.ops.aten.any.dims](args = (%d, [0]), kwargs = {keepdim: True})
    return (any1, all1, anyall, allall, bany, ball, call, cnone, cany, dany)
)",
      {floats, bytes, bools, longs},
      {{1, 0, 1}, {0, 0, 1}, {1}, {0}, {1, 1}, {0, 1}, {0}, {1, 0, 1, 1}, {1}, {0, 1, 0}});
}

TEST(ReductionLowering, EmptyReducedDimsGiveTheIdentity) {
  // any of nothing is false, all of nothing true, prod of nothing 1, logsumexp -inf.
  Tensor empty = fromValues({3, 0}, {});
  checkEverywhere(R"(graph():
    %a : [num_users=4] = placeholder[target=a]
    %any1 : [num_users=1] = call_function[target=torch.ops.aten.any.dim](args = (%a, 1), kwargs = {})
    %all1 : [num_users=1] = call_function[target=torch.ops.aten.all.dim](args = (%a, 1), kwargs = {})
    %p : [num_users=1] = call_function[target=torch.ops.aten.prod.dim_int](args = (%a, 1), kwargs = {})
    %l : [num_users=1] = call_function[target=torch.ops.aten.logsumexp.default](args = (%a, [1]), kwargs = {})
    return (any1, all1, p, l)
)",
                  {empty}, {{0, 0, 0}, {1, 1, 1}, {1, 1, 1}, {-kInf, -kInf, -kInf}});
}

TEST(ReductionLowering, ArgmaxOfNothingAndOfBoolsStayErrors) {
  // An empty reduced dim is refused by inference (before lowering), as eager refuses it.
  Compiled c;
  auto refused = compile(fxkit::testing::oneOpGraph(
                             {"a"}, "torch.ops.aten.argmax.default](args = (%a, 1), kwargs = {})"),
                         {fromValues({3, 0}, {})}, c);
  ASSERT_FALSE(refused);
  EXPECT_NE(std::string(refused.message()).find("Expected reduction dim 1 to have non-zero size"),
            std::string::npos)
      << refused.message();
  // A bool input stays the reference kernel's (an extern call), which refuses it at run time.
  std::string text = fxkit::testing::oneOpGraph(
      {"a"}, "torch.ops.aten.argmax.default](args = (%a,), kwargs = {})");
  Tensor bools = fromValues({2}, {0, 1}, DType::Bool);
  Compiled b;
  ASSERT_TRUE(compile(text, {bools}, b));
  ASSERT_EQ(b.program.ops.size(), 1u);
  EXPECT_EQ(b.program.ops[0].kind, loop::LoopOpKind::Extern);
  std::vector<RuntimeValue> values{RuntimeValue{bools}};
  auto run = interpretLoopProgram(b.program, b.fused, values);
  ASSERT_FALSE(run);
  EXPECT_NE(run.error().str().find("does not support bool input"), std::string::npos)
      << run.error().str();
}

TEST(ReductionLowering, ProdInThePromotedDtype) {
  // int64 products beyond 2^53 exactly, and wrapping past 2^64 as int64 arithmetic does.
  Tensor longs = fromValues({3, 2}, {3486784401.0, 1162261467.0, -5, 7, 4294967296.0, 4294967297.0},
                            DType::Int64);
  Tensor bools = fromValues({2, 3}, {1, 1, 1, 1, 0, 1}, DType::Bool);
  Tensor floats = fromValues({2, 3}, {1.5, -2, 4, 0.5, 0.25, -8});
  Tensor ints = permuted(fromValues({3, 2}, {2, -3, 5, 7, -11, 13}, DType::Int32), {1, 0});
  Tensor halves = fromValues({4}, {1.5, 2, -0.5, 3}, DType::Float16);
  checkEverywhere(R"(graph():
    %a : [num_users=1] = placeholder[target=a]
    %b : [num_users=1] = placeholder[target=b]
    %c : [num_users=2] = placeholder[target=c]
    %d : [num_users=2] = placeholder[target=d]
    %e : [num_users=1] = placeholder[target=e]
    %pa : [num_users=1] = call_function[target=torch.ops.aten.prod.dim_int](args = (%a, 1), kwargs = {})
    %pb : [num_users=1] = call_function[target=torch.ops.aten.prod.dim_int](args = (%b, 1, True), kwargs = {})
    %pc : [num_users=1] = call_function[target=torch.ops.aten.prod.dim_int](args = (%c, 1), kwargs = {dtype: torch.float64})
    %pcall : [num_users=1] = call_function[target=torch.ops.aten.prod.default](args = (%c,), kwargs = {})
    %pd : [num_users=1] = call_function[target=torch.ops.aten.prod.dim_int](args = (%d, 1), kwargs = {})
    %pd32 : [num_users=1] = call_function[target=torch.ops.aten.prod.default](args = (%d,), kwargs = {dtype: torch.int32})
    %pe : [num_users=1] = call_function[target=torch.ops.aten.prod.default](args = (%e,), kwargs = {})
    return (pa, pb, pc, pcall, pd, pd32, pe)
)",
                  {longs, bools, floats, ints, halves},
                  {{},
                   {1, 0},
                   {-12, -1},
                   {12},
                   {2 * 5 * -11, -3 * 7 * 13},
                   {2.0 * 5 * -11 * -3 * 7 * 13},
                   {-4.5}});
  // The reference's int64 products, exactly (the hand-worked lists go through doubles); the
  // backends matched them exactly above.
  auto r = fxkit::testing::runText(
      fxkit::testing::oneOpGraph({"a"},
                                 "torch.ops.aten.prod.dim_int](args = (%a, 1), kwargs = {})"),
      {RuntimeValue{longs}});
  ASSERT_TRUE(r) << r.error().str();
  const Tensor &p = *r->outputs[0].tensor();
  EXPECT_EQ(p.getInt(std::vector<int64_t>{0}), 4052555153018976267LL);
  EXPECT_EQ(p.getInt(std::vector<int64_t>{1}), -35);
  EXPECT_EQ(p.getInt(std::vector<int64_t>{2}), 4294967296LL);
}

TEST(ReductionLowering, VarIsWelfordsVariance) {
  Tensor x = fromValues({2, 4}, {1, 2, 3, 4, 2, 2, 2, 2});
  Tensor one = fromValues({3, 1}, {1, 2, 3});
  Tensor wide = permuted(fromValues({4, 2}, {1, 2, 3, 4, 5, 6, 7, 9}, DType::Float64), {1, 0});
  Tensor halves = fromValues({2, 3}, {1, 2, 4, -1, 0, 1}, DType::Float16);
  checkEverywhere(R"(graph():
    %a : [num_users=4] = placeholder[target=a]
    %b : [num_users=2] = placeholder[target=b]
    %c : [num_users=1] = placeholder[target=c]
    %d : [num_users=1] = placeholder[target=d]
    %v1 : [num_users=1] = call_function[target=torch.ops.aten.var.correction](args = (%a, [1]), kwargs = {})
    %v0 : [num_users=1] = call_function[target=torch.ops.aten.var.correction](args = (%a, [1]), kwargs = {correction: 0, keepdim: True})
    %vd : [num_users=1] = call_function[target=torch.ops.aten.var.dim](args = (%a, [0], False), kwargs = {})
    %vall : [num_users=1] = call_function[target=torch.ops.aten.var.correction](args = (%a,), kwargs = {})
    %vone : [num_users=1] = call_function[target=torch.ops.aten.var.correction](args = (%b, [1]), kwargs = {})
    %vtwo : [num_users=1] = call_function[target=torch.ops.aten.var.correction](args = (%b, [1]), kwargs = {correction: 2})
    %vc : [num_users=1] = call_function[target=torch.ops.aten.var.dim](args = (%c, [1]), kwargs = {})
    %vh : [num_users=1] = call_function[target=torch.ops.aten.var.correction](args = (%d, [1]), kwargs = {correction: 0.5})
    return (v1, v0, vd, vall, vone, vtwo, vc, vh)
)",
                  {x, one, wide, halves},
                  {{5.0 / 3, 0},
                   {1.25, 0},
                   {0.25, 0, 0.25, 1},
                   {5.5 / 7},
                   {kNaN, kNaN, kNaN},
                   {kNaN, kNaN, kNaN},
                   {20.0 / 3, 26.75 / 3},
                   {}});
}

TEST(ReductionLowering, LogSumExpOfInfiniteRowsIsEagers) {
  // All -inf: -inf; holding +inf: inf; holding NaN: NaN; -inf among finite values: ignored;
  // large values: no overflow.
  Tensor x = fromValues({5, 4}, {-kInf, -kInf, -kInf, -kInf, //
                                 1,     kInf,  2,     -kInf, //
                                 1,     kNaN,  2,     3,     //
                                 -kInf, 0,     0,     -kInf, //
                                 1000,  1000,  0,     -1000});
  Tensor longs = fromValues({2, 3}, {0, 0, 0, 1, 2, 3}, DType::Int64);
  Tensor cube = fromValues({2, 3, 2}, {0, 1, 2, 3, 4, 5, -1, -2, -3, -4, -5, -6}, DType::Float64);
  Tensor scalar = fromValues({}, {5});
  double l3 = std::log(3.0), tail = 3 + std::log(1 + std::exp(-1.0) + std::exp(-2.0));
  checkEverywhere(R"(graph():
    %a : [num_users=2] = placeholder[target=a]
    %b : [num_users=1] = placeholder[target=b]
    %c : [num_users=1] = placeholder[target=c]
    %d : [num_users=1] = placeholder[target=d]
    %l : [num_users=1] = call_function[target=torch.ops.aten.logsumexp.default](args = (%a, [1]), kwargs = {})
    %lk : [num_users=1] = call_function[target=torch.ops.aten.logsumexp.default](args = (%a, [-1], True), kwargs = {})
    %li : [num_users=1] = call_function[target=torch.ops.aten.logsumexp.default](args = (%b, [1]), kwargs = {})
    %lc : [num_users=1] = call_function[target=torch.ops.aten.logsumexp.default](args = (%c, [0, 2]), kwargs = {})
    %ls : [num_users=1] = call_function[target=torch.ops.aten.logsumexp.default](args = (%d, []), kwargs = {})
    return (l, lk, li, lc, ls)
)",
                  {x, longs, cube, scalar},
                  {{-kInf, kInf, kNaN, std::log(2.0), 1000 + std::log(2.0)},
                   {-kInf, kInf, kNaN, std::log(2.0), 1000 + std::log(2.0)},
                   {l3, tail},
                   {},
                   {5}});
  // Rows of 1024 points in every loop form: persistent, vector (4 points a step), looped.
  std::vector<double> v(4 * 1024);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = std::sin(0.37 * static_cast<double>(i)) * 40;
  for (size_t i = 0; i < 1024; ++i)
    v[i] = -kInf;
  v[1024 + 517] = kInf;
  v[2 * 1024 + 3] = kNaN;
  checkEverywhere(R"(graph():
    %a : [num_users=1] = placeholder[target=a]
    %l : [num_users=1] = call_function[target=torch.ops.aten.logsumexp.default](args = (%a, [1]), kwargs = {})
    return (l,)
)",
                  {fromValues({4, 1024}, v)});
}

namespace {

/// var_mean over no points: the variance and the mean are NaN (0 / 0), as the decomposition
/// and the reference kernel give, on every backend.
TEST(ReductionLowering, VarMeanOfAnEmptyRowIsNaN) {
  std::string text = R"(graph():
    %x : Tensor "f32[3, 0][1, 1]cpu"[num_users=1] = placeholder[target=x]
    %v : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%x, [1]), kwargs = {correction: 0})
    %a : [num_users=1] = call_function[target=operator.getitem](args = (%v, 0), kwargs = {})
    %b : [num_users=1] = call_function[target=operator.getitem](args = (%v, 1), kwargs = {})
    return (a, b)
)";
  checkEverywhere(text, {fromValues({3, 0}, {})});
  auto r = fxkit::testing::runText(text, {RuntimeValue{fromValues({3, 0}, {})}});
  ASSERT_TRUE(r);
  for (const RuntimeValue &v : r->outputs)
    for (double x : fxkit::testing::flat(*v.tensor()))
      EXPECT_TRUE(std::isnan(x));
}

} // namespace
