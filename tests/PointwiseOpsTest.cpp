/// The pointwise op family of ir/ops/PointwiseOps.def and ir/loop/ScalarOps.def: every line is
/// run through the reference interpreter, the loop interpreter, OpenCL and the text formats on
/// random inputs (float, integer and bool where the op takes them, broadcast and transposed
/// operands), and the ops whose meaning has corners are checked against hand-worked values.

#include "ir/ops/PointwiseOps.h"
#include "InterpreterTestSupport.h"
#include "ir/loop/LoopIR.h"
#include "tests/gen/Differential.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace fxkit;
using namespace fxkit::testing;
using loop::ScalarOp;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

/// Whether the scalar op divides (its integer form refuses a zero divisor).
bool divides(ScalarOp op) {
  return op == ScalarOp::Fmod || op == ScalarOp::Remainder || op == ScalarOp::FloorDiv ||
         op == ScalarOp::TruncDiv;
}

/// A graph applying `row` to placeholders of dtype `dt`: the first operand [4, 8] transposed in
/// memory, the second [8] (broadcast), Python numbers where the schema takes a Scalar. Integer
/// divisors are clamped to at least 1 first.
std::string graphFor(const PointwiseOp &row, const OpInfo &info, std::string_view dt) {
  std::string text = "graph():\n";
  std::string args;
  int arity = loop::scalarOpArity(row.scalarOp);
  bool integral = dt != "f32";
  std::string extra;
  for (int k = 0; k < arity; ++k) {
    const ArgSpec &a = info.schema.args[k];
    std::string name = "p" + std::to_string(k);
    if (a.type == ArgType::Scalar) {
      args += std::string(args.empty() ? "" : ", ") + (integral ? (k == 0 ? "3" : "2") : "1.5");
      continue;
    }
    // Prims do not broadcast: their second operand has the first one's shape (contiguous).
    bool prim = row.promote == Promote::Prim || row.promote == Promote::PrimBool;
    std::string type = k == 0 ? std::string(dt) + "[4, 8][1, 4]cpu"
                       : prim ? std::string(dt) + "[4, 8][8, 1]cpu"
                              : std::string(dt) + "[8][1]cpu";
    text += "    %" + name + " : Tensor \"" + type +
            "\"[num_users=1] = placeholder[target=" + name + "]\n";
    if (k > 0 && integral && divides(row.scalarOp)) {
      extra += "    %d" + name +
               " : [num_users=1] = call_function[target=torch.ops.aten.clamp_min."
               "default](args = (%" +
               name + ", 1), kwargs = {})\n";
      name = "d" + name;
    }
    args += std::string(args.empty() ? "" : ", ") + "%" + name;
  }
  text += extra;
  text += "    %r : [num_users=1] = call_function[target=" + std::string(row.target) +
          "](args = (" + args + (arity == 1 && args.find(',') == std::string::npos ? "," : "") +
          "), kwargs = {})\n    return (r,)\n";
  return text;
}

TEST(PointwiseOps, EveryLineAgreesAcrossInterpretersOpenCLAndFormats) {
  size_t checked = 0;
  for (const PointwiseOp &row : pointwiseOps()) {
    const OpInfo *info = OpRegistry::instance().lookup(row.target);
    ASSERT_NE(info, nullptr) << row.target;
    EXPECT_EQ(info->category, OpCategory::Pointwise) << row.target;
    std::vector<std::string_view> dtypes;
    bool intOnly = loop::scalarOpSpelling(row.scalarOp).openclFloat.empty();
    if (row.promote == Promote::IntOnly || (row.promote == Promote::Prim && intOnly)) {
      dtypes = {"i64", "b8"};
    } else if (row.promote == Promote::IntNoBool) {
      dtypes = {"i64", "i32"};
    } else {
      dtypes = {"f32"};
      if (loop::scalarOpKind(row.scalarOp) != loop::ScalarOpKind::FloatFn)
        dtypes.push_back("i32");
    }
    for (std::string_view dt : dtypes) {
      std::string text = graphFor(row, *info, dt);
      SCOPED_TRACE(text);
      auto failure = checkGraphDifferentially(text, {});
      EXPECT_FALSE(failure) << diffStageName(failure->stage) << ": " << failure->message;
      ++checked;
    }
  }
  EXPECT_GE(checked, 247u); // every line of PointwiseOps.def, in each dtype it takes
}

TEST(PointwiseOps, CompositeOpsAgreeAcrossInterpretersAndOpenCL) {
  const char *calls[] = {
      "torch.ops.aten.clamp.default](args = (%x,), kwargs = {min: -0.5, max: 0.75}",
      "torch.ops.aten.clamp.default](args = (%x, None, 0.25), kwargs = {}",
      "torch.ops.aten.clamp.default](args = (%x, -0.25), kwargs = {}",
      "torch.ops.aten.clamp.Tensor](args = (%x, %y, %z), kwargs = {}",
      "torch.ops.aten.clamp.Tensor](args = (%x, None, %z), kwargs = {}",
      "torch.ops.aten.hardtanh.default](args = (%x, 0.0, 6.0), kwargs = {}",
      "torch.ops.aten.hardtanh.default](args = (%x,), kwargs = {}",
      "torch.ops.aten.leaky_relu.default](args = (%x, 0.2), kwargs = {}",
      "torch.ops.aten.leaky_relu.default](args = (%x,), kwargs = {}",
      "torch.ops.aten.elu.default](args = (%x, 1.5, 2.0, 0.5), kwargs = {}",
  };
  for (const char *call : calls) {
    std::string text = std::string("graph():\n") +
                       R"(    %x : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = placeholder[target=x]
    %y : Tensor "f32[8][1]cpu"[num_users=1] = placeholder[target=y]
    %z : Tensor "f32[4, 1][1, 1]cpu"[num_users=1] = placeholder[target=z]
    %r : [num_users=1] = call_function[target=)" +
                       call + ")\n    return (r,)\n";
    SCOPED_TRACE(text);
    auto failure = checkGraphDifferentially(text, {});
    EXPECT_FALSE(failure) << diffStageName(failure->stage) << ": " << failure->message;
  }
}

TEST(PointwiseOps, RemainderFollowsTheDivisorAndFmodTheDividend) {
  Tensor a = fromValues({4}, {5, -5, 5, -5});
  Tensor b = fromValues({4}, {3, 3, -3, -3});
  expectValues(runCall("torch.ops.aten.remainder.Tensor](args = (%a, %b), kwargs = {})", {a, b}),
               {2, 1, -1, -2});
  expectValues(runCall("torch.ops.aten.fmod.Tensor](args = (%a, %b), kwargs = {})", {a, b}),
               {2, -2, 2, -2});
  Tensor ai = fromValues({4}, {5, -5, 5, -5}, DType::Int64);
  Tensor bi = fromValues({4}, {3, 3, -3, -3}, DType::Int64);
  Tensor r = runCall("torch.ops.aten.remainder.Tensor](args = (%a, %b), kwargs = {})", {ai, bi});
  EXPECT_EQ(r.dtype(), DType::Int64);
  expectValues(r, {2, 1, -1, -2});
  expectValues(runCall("torch.ops.aten.fmod.Scalar](args = (%a, -3), kwargs = {})", {ai}),
               {2, -2, 2, -2});
  // remainder.Scalar_Tensor: a Python number divided by each element.
  expectValues(
      runCall("torch.ops.aten.remainder.Scalar_Tensor](args = (7, %a), kwargs = {})", {bi}),
      {1, 1, -2, -2});
  EXPECT_NE(runCallError("torch.ops.aten.fmod.Scalar](args = (%a, 0), kwargs = {})", {ai})
                .find("division by zero"),
            std::string::npos);
  // Float remainder by zero is NaN, as in PyTorch.
  expectValues(runCall("torch.ops.aten.remainder.Scalar](args = (%a, 0.0), kwargs = {})", {a}),
               {kNaN, kNaN, kNaN, kNaN});
}

// prims.fma (Inductor's decompositions of lerp and addcmul): a*b + c, broadcasting; integers
// exactly, wrapping as int64 does.
TEST(PointwiseOps, FusedMultiplyAdd) {
  Tensor a = fromValues({2, 2}, {1.5, -2, 0.1, 3});
  Tensor b = fromValues({2}, {2, 4});
  Tensor c = fromValues({}, {0.25});
  Tensor r = runCall("torch.ops.prims.fma.default](args = (%a, %b, %c), kwargs = {})", {a, b, c});
  EXPECT_EQ(r.dtype(), DType::Float32);
  expectValues(r, {3.25, -7.75, 0.45, 12.25});
  Tensor ai = fromValues({3}, {3, -4, 4611686018427387904.0}, DType::Int64);
  Tensor bi = fromValues({3}, {5, 6, 2}, DType::Int64);
  Tensor ci = fromValues({3}, {1, 1, 0}, DType::Int64);
  Tensor ri =
      runCall("torch.ops.prims.fma.default](args = (%a, %b, %c), kwargs = {})", {ai, bi, ci});
  EXPECT_EQ(ri.dtype(), DType::Int64);
  auto at = [&](int64_t i) { return ri.getInt(std::vector<int64_t>{i}); };
  EXPECT_EQ(at(0), 16);
  EXPECT_EQ(at(1), -23);
  EXPECT_EQ(at(2), std::numeric_limits<int64_t>::min()); // 2^63 wraps
}

TEST(PointwiseOps, RoundingAndSign) {
  Tensor a = fromValues({6}, {0.5, 1.5, 2.5, -0.5, -1.7, 3.2});
  expectValues(runCall("torch.ops.aten.round.default](args = (%a,), kwargs = {})", {a}),
               {0, 2, 2, -0.0, -2, 3}); // half to even
  expectValues(runCall("torch.ops.aten.ceil.default](args = (%a,), kwargs = {})", {a}),
               {1, 2, 3, -0.0, -1, 4});
  expectValues(runCall("torch.ops.aten.floor.default](args = (%a,), kwargs = {})", {a}),
               {0, 1, 2, -1, -2, 3});
  expectValues(runCall("torch.ops.aten.trunc.default](args = (%a,), kwargs = {})", {a}),
               {0, 1, 2, -0.0, -1, 3});
  Tensor s = fromValues({4}, {-2, 0, 3, kNaN});
  expectValues(runCall("torch.ops.aten.sign.default](args = (%a,), kwargs = {})", {s}),
               {-1, 0, 1, 0});
  // Integers pass through ceil unchanged and keep their dtype.
  Tensor i = fromValues({2}, {-3, 4}, DType::Int32);
  Tensor c = runCall("torch.ops.aten.ceil.default](args = (%a,), kwargs = {})", {i});
  EXPECT_EQ(c.dtype(), DType::Int32);
  expectValues(c, {-3, 4});
}

TEST(PointwiseOps, BitwiseAndLogical) {
  Tensor a = fromValues({4}, {12, -1, 0, 5}, DType::Int64);
  Tensor b = fromValues({4}, {10, 7, 3, 5}, DType::Int64);
  expectValues(runCall("torch.ops.aten.bitwise_and.Tensor](args = (%a, %b), kwargs = {})", {a, b}),
               {8, 7, 0, 5});
  expectValues(runCall("torch.ops.aten.bitwise_or.Tensor](args = (%a, %b), kwargs = {})", {a, b}),
               {14, -1, 3, 5});
  expectValues(runCall("torch.ops.aten.bitwise_xor.Scalar](args = (%a, 6), kwargs = {})", {a}),
               {10, -7, 6, 3});
  expectValues(runCall("torch.ops.aten.bitwise_not.default](args = (%a,), kwargs = {})", {a}),
               {-13, 0, -1, -6});
  Tensor t = fromValues({4}, {1, 1, 0, 0}, DType::Bool);
  Tensor u = fromValues({4}, {1, 0, 1, 0}, DType::Bool);
  Tensor n = runCall("torch.ops.aten.bitwise_not.default](args = (%a,), kwargs = {})", {t});
  EXPECT_EQ(n.dtype(), DType::Bool);
  expectValues(n, {0, 0, 1, 1});
  expectValues(runCall("torch.ops.aten.bitwise_and.Tensor](args = (%a, %b), kwargs = {})", {t, u}),
               {1, 0, 0, 0});
  Tensor f = fromValues({4}, {0, kNaN, -0.0, 2});
  Tensor l = runCall("torch.ops.aten.logical_not.default](args = (%a,), kwargs = {})", {f});
  EXPECT_EQ(l.dtype(), DType::Bool);
  expectValues(l, {1, 0, 1, 0}); // NaN is true
  expectValues(runCall("torch.ops.aten.logical_xor.default](args = (%a, %b), kwargs = {})", {f, u}),
               {1, 1, 1, 1});
  EXPECT_NE(runCallError("torch.ops.aten.bitwise_and.Tensor](args = (%a, %b), kwargs = {})", {f, f})
                .find("bitwise ops take integers and bools"),
            std::string::npos);
}

// Shifts as c10 computes them: a count that is negative or reaches the width gives 0 to the
// left and the sign to the right; the low bits wrap to the dtype. The same values through
// OpenCL and the LLVM backend (the guard and the 64-bit helpers of prelude.cl).
TEST(PointwiseOps, ShiftsFollowTorchAtAndPastTheWidth) {
  Tensor a = fromValues({7}, {1, -8, 1, -8, 5, 255, -1}, DType::Int32);
  Tensor b = fromValues({7}, {3, 1, 32, 40, -1, 31, 70}, DType::Int32);
  const std::string left =
      "torch.ops.aten.bitwise_left_shift.Tensor](args = (%a, %b), kwargs = {})";
  const std::string right = "torch.ops.aten.__rshift__.Tensor](args = (%a, %b), kwargs = {})";
  Tensor l = runCall(left, {a, b});
  EXPECT_EQ(l.dtype(), DType::Int32);
  expectValues(l, {8, -16, 0, 0, 0, -2147483648.0, 0});
  expectValues(runCall(right, {a, b}), {0, -4, 0, -1, 0, 0, -1});
  Tensor u = fromValues({2}, {200, 3}, DType::UInt8);
  Tensor v = fromValues({2}, {3, 9}, DType::UInt8);
  expectValues(runCall(left, {u, v}), {64, 0});
  expectValues(runCall(right, {u, v}), {25, 0});
  // The Python-number forms: the tensor's dtype.
  expectValues(runCall("torch.ops.aten.__lshift__.Scalar](args = (%a, 4), kwargs = {})", {a}),
               {16, -128, 16, -128, 80, 4080, -16});
  Tensor s = runCall("torch.ops.aten.bitwise_right_shift.Scalar_Tensor](args = (256, %a), "
                     "kwargs = {})",
                     {b});
  EXPECT_EQ(s.dtype(), DType::Int32);
  expectValues(s, {32, 128, 0, 0, 0, 0, 0});
  Tensor t = fromValues({2}, {1, 0}, DType::Bool);
  EXPECT_NE(runCallError(left, {t, t}).find("shifts take integers"), std::string::npos);
  EXPECT_NE(runCallError(right, {fromValues({1}, {1.5}), a}).find("shifts take integers"),
            std::string::npos);
  for (const std::string &call : {left, right})
    for (DType dt : {DType::Int32, DType::UInt8}) {
      std::vector<RuntimeValue> values{RuntimeValue{dt == DType::Int32 ? a : u},
                                       RuntimeValue{dt == DType::Int32 ? b : v}};
      const std::string type = dt == DType::Int32 ? "i32[7][1]cpu" : "u8[2][1]cpu";
      const std::string text = "graph():\n    %a : Tensor \"" + type +
                               "\"[num_users=1] = placeholder[target=a]\n    %b : Tensor \"" +
                               type +
                               "\"[num_users=1] = placeholder[target=b]\n    %r : [num_users=1] = "
                               "call_function[target=" +
                               call + "\n    return (r,)\n";
      DifferentialOptions options;
      options.llvm = true;
      options.inputs = &values;
      auto failure = checkGraphDifferentially(text, {}, options);
      EXPECT_FALSE(failure) << text << diffStageName(failure->stage) << ": " << failure->message;
    }
}

TEST(PointwiseOps, PredicatesAndFloatFunctions) {
  Tensor f = fromValues({4}, {kNaN, kInf, -kInf, 1});
  expectValues(runCall("torch.ops.aten.isnan.default](args = (%a,), kwargs = {})", {f}),
               {1, 0, 0, 0});
  expectValues(runCall("torch.ops.aten.isinf.default](args = (%a,), kwargs = {})", {f}),
               {0, 1, 1, 0});
  Tensor i = fromValues({2}, {3, 4}, DType::Int64);
  Tensor nan = runCall("torch.ops.aten.isnan.default](args = (%a,), kwargs = {})", {i});
  EXPECT_EQ(nan.dtype(), DType::Bool);
  expectValues(nan, {0, 0});
  // Integer inputs of float functions give float32 (IntToFloat).
  Tensor l = runCall("torch.ops.aten.log2.default](args = (%a,), kwargs = {})", {i});
  EXPECT_EQ(l.dtype(), DType::Float32);
  expectValues(l, {std::log2(3.0), 2}, 1e-6);
  Tensor x = fromValues({3}, {1e-10, 0.5, -0.25});
  expectValues(runCall("torch.ops.aten.log1p.default](args = (%a,), kwargs = {})", {x}),
               {1e-10, std::log(1.5), std::log(0.75)}, 1e-7);
  expectValues(runCall("torch.ops.aten.expm1.default](args = (%a,), kwargs = {})", {x}),
               {1e-10, std::exp(0.5) - 1, std::exp(-0.25) - 1}, 1e-7);
  Tensor y = fromValues({2}, {1, -1});
  Tensor z = fromValues({2}, {-1, -1});
  expectValues(runCall("torch.ops.aten.atan2.default](args = (%a, %b), kwargs = {})", {y, z}),
               {3 * M_PI / 4, -3 * M_PI / 4}, 1e-6);
  expectValues(runCall("torch.ops.aten.pow.Scalar](args = (2, %a), kwargs = {})", {y}), {2, 0.5});
}

/// A float64 graph of `target` on [n] inputs a (and b), for the special functions' values.
std::string specialGraph(const std::string &target, int arity, int64_t n) {
  std::string t = "f64[" + std::to_string(n) + "][1]cpu";
  std::string text =
      "graph():\n    %a : Tensor \"" + t + "\"[num_users=1] = placeholder[target=a]\n";
  if (arity == 2)
    text += "    %b : Tensor \"" + t + "\"[num_users=1] = placeholder[target=b]\n";
  text += "    %r : [num_users=1] = call_function[target=torch.ops." + target + "](args = (%a" +
          (arity == 2 ? ", %b" : ",") + "), kwargs = {})\n    return (r,)\n";
  return text;
}

/// The special functions against values from their definitions (mpmath / DLMF), in double on
/// the reference interpreter; the same inputs then through the loop interpreter, OpenCL and LLVM
/// (the OpenCL C forms of backends/opencl/codegen/SpecialMathCL.cpp), in float64 and float32.
TEST(PointwiseOps, SpecialFunctionsMatchKnownValues) {
  const double pi = M_PI;
  struct Case {
    const char *target;
    std::vector<double> a, b, expected;
  };
  const Case cases[] = {
      {"aten.lgamma.default",
       {0.5, 1, 3, -0.5, 10},
       {},
       {std::log(std::sqrt(pi)), 0, std::log(2.0), std::log(2 * std::sqrt(pi)),
        12.801827480081469611}},
      {"aten.digamma.default",
       {1, 0.5, 10, -0.5, 2.5, 0, -2, 30.5},
       {},
       {-0.5772156649015329, -1.9635100260214235, 2.251752589066721, 0.03648997397857652,
        0.7031566406452432, -kInf, kNaN, 3.4012436689616603}},
      {"aten.special_erfcx.default",
       {0, 1, 30, -1, 5, 1e-3, 2.5},
       {},
       {1, 0.42758357615580700442, 0.018795888861416751, 5.008980080762283, 0.11070463773306866,
        0.9988726200811513, 0.21080636406114356}},
      {"aten.special_ndtri.default",
       {0.975, 0.5, 0.025, 1e-20, 0, 1, 0.9999},
       {},
       {1.959963984540054, 0, -1.959963984540054, -9.262340089798408, -kInf, kInf,
        3.7190164854556804}},
      {"aten.special_bessel_j0.default",
       {1, 0, 5, 10, -2.5, 30},
       {},
       {0.7651976865579666, 1, -0.1775967713143383, -0.2459357644513483, -0.048383776468197996,
        -0.08636798358104021}},
      {"aten.special_bessel_j1.default",
       {1, 0, 5, 10, -2.5, 30},
       {},
       {0.44005058574493355, 0, -0.3275791375914652, 0.04347274616886144, -0.4970941024642741,
        -0.11875106261662294}},
      {"aten.special_spherical_bessel_j0.default",
       {1, 0, 0.25, -3, kInf},
       {},
       {std::sin(1.0), 1, std::sin(0.25) / 0.25, std::sin(3.0) / 3, 0}},
      {"aten.i0.default",
       {0, 1, -3, 10},
       {},
       {1, 1.2660658777520082, 4.880792585865024, 2815.716628466254}},
      {"aten.special_i0e.default", {1, 10}, {}, {0.46575960759364043, 0.1278333371634286}},
      {"aten.special_i1.default",
       {1, -3, 10},
       {},
       {0.5651591039924851, -3.953370217402609, 2670.988303701255}},
      {"aten.special_i1e.default", {1, 10}, {}, {0.2079104153497085, 0.1212626813844555}},
      {"aten.erfinv.default",
       {0.5, -0.9, 0, 1, 0.999},
       {},
       {0.4769362762044699, -1.1630871536766743, 0, kInf, 2.326753765513525}},
      {"aten.special_zeta.default",
       {2, 4, 3, 0.5, 2},
       {1, 1, 2, 1, -1},
       {pi * pi / 6, std::pow(pi, 4) / 90, 0.2020569031595943, kNaN, kInf}},
      {"aten.igamma.default",
       {1, 2, 0.5, 3, 100},
       {1, 3, 2, 0, 110},
       {1 - std::exp(-1.0), 0.8008517265285442, std::erf(std::sqrt(2.0)), 0, 0.8417213299399129}},
      {"aten.igammac.default",
       {1, 2, 0.5, 5, 0.1},
       {1, 3, 2, 30, 0.01},
       {std::exp(-1.0), 0.1991482734714558, std::erfc(std::sqrt(2.0)), 3.6243009520614882e-09,
        0.33737874004552026}},
      {"aten.hypot.default", {3, 1e200, -5}, {4, 1e200, 0}, {5, std::sqrt(2.0) * 1e200, 5}},
      {"aten.nextafter.default",
       {1, 1, 0},
       {2, 0, 1},
       {1 + 0x1p-52, 1 - 0x1p-53, std::numeric_limits<double>::denorm_min()}},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.target);
    int arity = c.b.empty() ? 1 : 2;
    auto n = static_cast<int64_t>(c.a.size());
    std::vector<Tensor> in{fromValues({n}, c.a, DType::Float64)};
    if (arity == 2)
      in.push_back(fromValues({n}, c.b, DType::Float64));
    std::string call = std::string("torch.ops.") + c.target + "](args = (%a" +
                       (arity == 2 ? ", %b" : ",") + "), kwargs = {})";
    Tensor r = runCall(call, in);
    EXPECT_EQ(r.dtype(), DType::Float64);
    // The incomplete gamma references near a = 100 and a = 0.1 carry math.gamma's rounding.
    expectValues(r, c.expected,
                 std::string(c.target).find("igamma") != std::string::npos ? 1e-12 : 1e-13);
    for (DType dt : {DType::Float64, DType::Float32}) {
      std::vector<RuntimeValue> values;
      for (const Tensor &t : in) {
        Tensor v = fromValues({n}, flat(t), dt);
        values.push_back(RuntimeValue{v});
      }
      std::string text = specialGraph(c.target, arity, n);
      if (dt == DType::Float32)
        for (size_t at; (at = text.find("f64")) != std::string::npos;)
          text.replace(at, 3, "f32");
      DifferentialOptions options;
      options.llvm = true;
      options.inputs = &values;
      auto failure = checkGraphDifferentially(text, {}, options);
      EXPECT_FALSE(failure) << text << diffStageName(failure->stage) << ": " << failure->message;
    }
  }
}

TEST(PointwiseOps, SignbitAndPrimsKeepTheirDtype) {
  Tensor f = fromValues({4}, {-0.0, 0.0, -2, kNaN});
  Tensor s = runCall("torch.ops.aten.signbit.default](args = (%a,), kwargs = {})", {f});
  EXPECT_EQ(s.dtype(), DType::Bool);
  expectValues(s, {1, 0, 1, 0});
  Tensor i = fromValues({3}, {-3, 0, 4}, DType::Int32);
  expectValues(runCall("torch.ops.prims.signbit.default](args = (%a,), kwargs = {})", {i}),
               {1, 0, 0});
  // prims.add keeps an integer dtype; prims.lgamma of float64 stays float64.
  Tensor j = fromValues({3}, {1, 2, 3}, DType::Int32);
  Tensor sum = runCall("torch.ops.prims.add.default](args = (%a, %b), kwargs = {})", {i, j});
  EXPECT_EQ(sum.dtype(), DType::Int32);
  expectValues(sum, {-2, 2, 7});
  Tensor d = fromValues({2}, {0.5, 3}, DType::Float64);
  Tensor lg = runCall("torch.ops.prims.lgamma.default](args = (%a,), kwargs = {})", {d});
  EXPECT_EQ(lg.dtype(), DType::Float64);
  expectValues(lg, {std::log(std::sqrt(M_PI)), std::log(2.0)}, 1e-14);
  // No promotion and no broadcasting, as _prim_elementwise_meta checks.
  Tensor x = fromValues({3}, {1, 2, 3});
  EXPECT_NE(runCallError("torch.ops.prims.add.default](args = (%a, %b), kwargs = {})", {i, x})
                .find("prims do not type-promote"),
            std::string::npos);
  Tensor y = fromValues({1}, {1});
  EXPECT_NE(runCallError("torch.ops.prims.sub.default](args = (%a, %b), kwargs = {})", {x, y})
                .find("prims do not broadcast"),
            std::string::npos);
  EXPECT_NE(runCallError("torch.ops.prims.sin.default](args = (%a,), kwargs = {})", {i})
                .find("takes floating tensors"),
            std::string::npos);
  // prims.eq gives bool; a zero-dim CPU tensor may stand for a number.
  Tensor z = fromValues({}, {2});
  Tensor eq = runCall("torch.ops.prims.eq.default](args = (%a, %b), kwargs = {})", {x, z});
  EXPECT_EQ(eq.dtype(), DType::Bool);
  expectValues(eq, {0, 1, 0});
}

TEST(PointwiseOps, ClampFamily) {
  Tensor a = fromValues({5}, {-3, -0.5, 0.5, 3, kNaN});
  expectValues(runCall("torch.ops.aten.clamp.default](args = (%a, -1, 1), kwargs = {})", {a}),
               {-1, -0.5, 0.5, 1, kNaN});
  expectValues(runCall("torch.ops.aten.clamp.default](args = (%a,), kwargs = {max: 0})", {a}),
               {-3, -0.5, 0, 0, kNaN});
  // min > max: every element is max, as in PyTorch.
  expectValues(runCall("torch.ops.aten.clamp.default](args = (%a, 2, 1), kwargs = {})", {a}),
               {1, 1, 1, 1, kNaN});
  expectValues(runCall("torch.ops.aten.clamp_min.default](args = (%a, 0), kwargs = {})", {a}),
               {0, 0, 0.5, 3, kNaN});
  expectValues(runCall("torch.ops.aten.hardtanh.default](args = (%a, 0.0, 2.0), kwargs = {})", {a}),
               {0, 0, 0.5, 2, kNaN});
  expectValues(runCall("torch.ops.aten.leaky_relu.default](args = (%a, 0.1), kwargs = {})", {a}),
               {-0.3, -0.05, 0.5, 3, kNaN}, 1e-7);
  expectValues(runCall("torch.ops.aten.elu.default](args = (%a,), kwargs = {})", {a}),
               {std::expm1(-3.0), std::expm1(-0.5), 0.5, 3, kNaN}, 1e-7);
  // An integer tensor clamped by a float promotes to float (torch._refs.clamp).
  Tensor i = fromValues({2}, {-2, 5}, DType::Int64);
  Tensor c = runCall("torch.ops.aten.clamp.default](args = (%a, 0.5), kwargs = {})", {i});
  EXPECT_EQ(c.dtype(), DType::Float32);
  expectValues(c, {0.5, 5});
  EXPECT_NE(runCallError("torch.ops.aten.clamp.default](args = (%a,), kwargs = {})", {a})
                .find("At least one of 'min' or 'max' must not be None"),
            std::string::npos);
}

TEST(PointwiseOps, Atan2OutWritesIntoOut) {
  Tensor y = fromValues({2}, {1, -1});
  Tensor x = fromValues({2}, {-1, -1});
  Tensor out = fromValues({2}, {7, 7});
  Tensor r = runCall("torch.ops.aten.atan2.out](args = (%a, %b), kwargs = {out: %c})", {y, x, out});
  expectValues(r, {3 * M_PI / 4, -3 * M_PI / 4}, 1e-6);
  expectValues(out, {3 * M_PI / 4, -3 * M_PI / 4}, 1e-6); // the given tensor, written
  Tensor small = fromValues({1}, {0});
  EXPECT_NE(
      runCallError("torch.ops.aten.atan2.out](args = (%a, %b), kwargs = {out: %c})", {y, x, small})
          .find("out= tensors are not resized"),
      std::string::npos);
}

} // namespace
