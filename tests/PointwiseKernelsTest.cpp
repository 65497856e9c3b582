/// Reference kernels of the Pointwise and Creation ops, run through the interpreter on one-op
/// graphs. Expected values are worked out by hand (or are well-known constants), never by the
/// kernels' own helpers.

#include "InterpreterTestSupport.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>

using namespace fxkit;
using namespace fxkit::testing;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

/// Elements as exact integers, row-major.
std::vector<int64_t> ints(const Tensor &t) {
  std::vector<int64_t> out;
  Tensor::forEachIndex(t.sizes(),
                       [&](std::span<const int64_t> index) { out.push_back(t.getInt(index)); });
  return out;
}

Tensor f32(std::vector<int64_t> sizes, const std::vector<double> &values) {
  return fromValues(std::move(sizes), values, DType::Float32);
}
Tensor i64(std::vector<int64_t> sizes, const std::vector<double> &values) {
  return fromValues(std::move(sizes), values, DType::Int64);
}
/// A 1-d int64 tensor of exact values (fromValues goes through double).
Tensor i64Exact(const std::vector<int64_t> &values, DType dtype = DType::Int64) {
  auto t = Tensor::zeros(dtype, {static_cast<int64_t>(values.size())});
  EXPECT_TRUE(t);
  for (size_t i = 0; i < values.size(); ++i)
    t->storeInt(static_cast<int64_t>(i), values[i]);
  return t.take();
}

constexpr int64_t kBig = (int64_t(1) << 62) + 3; // beyond 2^53: not exact as a double

// ---- Arithmetic ----

TEST(PointwiseKernels, AddSubRsubMulWithAlpha) {
  Tensor a = f32({3}, {1, 2, 3}), b = f32({3}, {10, 20, 30});
  expectValues(runCall("torch.ops.aten.add.Tensor](args = (%a, %b), kwargs = {alpha: 2})", {a, b}),
               {21, 42, 63});
  expectValues(runCall("torch.ops.aten.add.Tensor](args = (%a, %b), kwargs = {})", {a, b}),
               {11, 22, 33});
  expectValues(runCall("torch.ops.aten.sub.Tensor](args = (%a, %b), kwargs = {alpha: 2})", {a, b}),
               {-19, -38, -57});
  expectValues(runCall("torch.ops.aten.add.Scalar](args = (%a, 1.5), kwargs = {})", {a}),
               {2.5, 3.5, 4.5});
  expectValues(runCall("torch.ops.aten.sub.Scalar](args = (%a, 1, 3), kwargs = {})", {a}),
               {-2, -1, 0});
  // rsub: other - alpha * self = 10 - 2 * a.
  expectValues(runCall("torch.ops.aten.rsub.Scalar](args = (%a, 10, 2), kwargs = {})", {a}),
               {8, 6, 4});
  expectValues(runCall("torch.ops.aten.mul.Tensor](args = (%a, %b), kwargs = {})", {a, b}),
               {10, 40, 90});
  expectValues(runCall("torch.ops.aten.mul.Scalar](args = (%a, -0.5), kwargs = {})", {a}),
               {-0.5, -1, -1.5});
}

TEST(PointwiseKernels, IntegerArithmeticIsExactAndWraps) {
  Tensor a = i64Exact({kBig, -kBig, 5});
  Tensor r = runCall("torch.ops.aten.add.Tensor](args = (%a, 1), kwargs = {})", {a});
  EXPECT_EQ(r.dtype(), DType::Int64);
  EXPECT_EQ(ints(r), (std::vector<int64_t>{kBig + 1, -kBig + 1, 6}));
  // a - 3a = -2a, wrapping: -(2^63 + 6) -> 2^63 - 6, 2^63 + 6 -> -2^63 + 6.
  r = runCall("torch.ops.aten.sub.Tensor](args = (%a, %b), kwargs = {alpha: 3})", {a, a});
  EXPECT_EQ(ints(r), (std::vector<int64_t>{std::numeric_limits<int64_t>::max() - 5,
                                           std::numeric_limits<int64_t>::min() + 6, -10}));
  r = runCall("torch.ops.aten.mul.Tensor](args = (%a, %b), kwargs = {})",
              {a, i64Exact({1, -1, 5})});
  EXPECT_EQ(ints(r), (std::vector<int64_t>{kBig, kBig, 25}));
  // int64 wraps around as in PyTorch: (2^62 + 3) * 4 = 2^64 + 12 -> 12.
  r = runCall("torch.ops.aten.mul.Scalar](args = (%a, 4), kwargs = {})", {a});
  EXPECT_EQ(ints(r)[0], 12);
  // int32 wraps at 32 bits.
  Tensor i32 = i64Exact({2147483647, -5}, DType::Int32);
  r = runCall("torch.ops.aten.add.Tensor](args = (%a, 1), kwargs = {})", {i32});
  EXPECT_EQ(r.dtype(), DType::Int32);
  EXPECT_EQ(ints(r), (std::vector<int64_t>{-2147483648LL, -4}));
}

TEST(PointwiseKernels, AlphaAndBoolChecks) {
  Tensor a = i64({2}, {1, 2});
  std::string e =
      runCallError("torch.ops.aten.add.Tensor](args = (%a, %b), kwargs = {alpha: 0.5})", {a, a});
  EXPECT_NE(e.find("alpha"), std::string::npos) << e;
  EXPECT_NE(e.find("'r'"), std::string::npos) << e;
  Tensor m = fromValues({2}, {1, 0}, DType::Bool);
  e = runCallError("torch.ops.aten.sub.Tensor](args = (%a, %b), kwargs = {})", {m, m});
  EXPECT_NE(e.find("bool"), std::string::npos) << e;
  e = runCallError("torch.ops.aten.neg.default](args = (%a,), kwargs = {})", {m});
  EXPECT_NE(e.find("bool"), std::string::npos) << e;
  e = runCallError("torch.ops.aten.relu.default](args = (%a,), kwargs = {})", {m});
  EXPECT_NE(e.find("bool"), std::string::npos) << e;
  // bool + bool is logical or, bool * bool logical and.
  Tensor n = fromValues({2}, {1, 1}, DType::Bool);
  Tensor r = runCall("torch.ops.aten.add.Tensor](args = (%a, %b), kwargs = {})", {m, m});
  EXPECT_EQ(r.dtype(), DType::Bool);
  EXPECT_EQ(ints(r), (std::vector<int64_t>{1, 0}));
  r = runCall("torch.ops.aten.mul.Tensor](args = (%a, %b), kwargs = {})", {m, n});
  EXPECT_EQ(ints(r), (std::vector<int64_t>{1, 0}));
}

TEST(PointwiseKernels, TrueDivision) {
  Tensor r = runCall("torch.ops.aten.div.Tensor](args = (%a, %b), kwargs = {})",
                     {f32({5}, {1, -7, 0, 1, -1}), f32({5}, {2, 2, 0, 0, 0})});
  expectValues(r, {0.5, -3.5, kNaN, kInf, -kInf});
  // Integers promote to float32; so does div.Tensor_mode without a rounding mode.
  r = runCall("torch.ops.aten.div.Scalar](args = (%a, 4), kwargs = {})", {i64({2}, {1, 2})});
  EXPECT_EQ(r.dtype(), DType::Float32);
  expectValues(r, {0.25, 0.5});
  r = runCall("torch.ops.aten.div.Tensor_mode](args = (%a, %b), kwargs = {rounding_mode: None})",
              {i64({2}, {7, -7}), i64({2}, {2, 2})});
  EXPECT_EQ(r.dtype(), DType::Float32);
  expectValues(r, {3.5, -3.5});
}

TEST(PointwiseKernels, DivRoundingModes) {
  const std::string trunc =
      "torch.ops.aten.div.Tensor_mode](args = (%a, %b), kwargs = {rounding_mode: trunc})";
  const std::string floor =
      "torch.ops.aten.div.Tensor_mode](args = (%a, %b), kwargs = {rounding_mode: floor})";
  Tensor fa = f32({4}, {7, -7, 7, -7}), fb = f32({4}, {2, 2, -2, -2});
  expectValues(runCall(trunc, {fa, fb}), {3, -3, -3, 3});
  expectValues(runCall(floor, {fa, fb}), {3, -4, -4, 3});
  Tensor ia = i64({4}, {7, -7, 7, -7}), ib = i64({4}, {2, 2, -2, -2});
  Tensor r = runCall(trunc, {ia, ib});
  EXPECT_EQ(r.dtype(), DType::Int64);
  EXPECT_EQ(ints(r), (std::vector<int64_t>{3, -3, -3, 3}));
  r = runCall(floor, {ia, ib});
  EXPECT_EQ(ints(r), (std::vector<int64_t>{3, -4, -4, 3}));
  // Exact beyond 2^53: (2^62 + 3) // 2 = 2^61 + 1, -(2^62 + 3) // 2 = -(2^61 + 2).
  r = runCall(floor, {i64Exact({kBig, -kBig}), i64Exact({2, 2})});
  EXPECT_EQ(ints(r), (std::vector<int64_t>{(kBig - 1) / 2, -(kBig + 1) / 2}));
  // Python's 1.0 // 0.1 is 9.0 (fmod-based floor), although 1.0 / 0.1 rounds to 10.0.
  Tensor one64 = fromValues({1}, {1.0}, DType::Float64);
  expectValues(
      runCall("torch.ops.aten.div.Tensor_mode](args = (%a, 0.1), kwargs = {rounding_mode: floor})",
              {one64}),
      {9});
  expectValues(
      runCall("torch.ops.aten.div.Tensor_mode](args = (%a, 0.1), kwargs = {rounding_mode: trunc})",
              {one64}),
      {10});
  // float32 computes in float, as PyTorch: 1.0f / 0.1f rounds to 10.0f, so trunc gives 10
  // (9 in double precision); floor still gives 9.
  Tensor one = f32({1}, {1.0}), tenth = f32({1}, {0.1});
  expectValues(runCall(trunc, {one, tenth}), {10});
  expectValues(runCall(floor, {one, tenth}), {9});
  // Float division by zero follows IEEE; floor of a negative zero quotient is -0.
  expectValues(runCall(floor, {f32({2}, {1, -1}), f32({2}, {0, 0})}), {kInf, -kInf});
  r = runCall(floor, {f32({1}, {0}), f32({1}, {-2})});
  EXPECT_TRUE(std::signbit(flat(r)[0]));
}

TEST(PointwiseKernels, IntegerDivisionByZeroIsAnError) {
  for (const char *mode : {"trunc", "floor"}) {
    std::string e = runCallError(std::string("torch.ops.aten.div.Tensor_mode](args = (%a, %b), "
                                             "kwargs = {rounding_mode: ") +
                                     mode + "})",
                                 {i64({2}, {1, 2}), i64({2}, {1, 0})});
    EXPECT_NE(e.find("division by zero"), std::string::npos) << e;
    EXPECT_NE(e.find("'r'"), std::string::npos) << e;
  }
}

TEST(PointwiseKernels, MaximumMinimumPropagateNaN) {
  Tensor a = f32({3}, {1, kNaN, -2}), b = f32({3}, {3, 0, kNaN});
  expectValues(runCall("torch.ops.aten.maximum.default](args = (%a, %b), kwargs = {})", {a, b}),
               {3, kNaN, kNaN});
  expectValues(runCall("torch.ops.aten.minimum.default](args = (%a, %b), kwargs = {})", {a, b}),
               {1, kNaN, kNaN});
  Tensor r = runCall("torch.ops.aten.maximum.default](args = (%a, %b), kwargs = {})",
                     {i64Exact({kBig, -4}), i64Exact({kBig - 1, 3})});
  EXPECT_EQ(ints(r), (std::vector<int64_t>{kBig, 3}));
}

TEST(PointwiseKernels, Pow) {
  expectValues(runCall("torch.ops.aten.pow.Tensor_Scalar](args = (%a, 2), kwargs = {})",
                       {f32({2}, {2, -3})}),
               {4, 9});
  // Integers: exact powers (3^39 > 2^53).
  Tensor r = runCall("torch.ops.aten.pow.Tensor_Scalar](args = (%a, 39), kwargs = {})",
                     {i64({2}, {3, -1})});
  EXPECT_EQ(r.dtype(), DType::Int64);
  EXPECT_EQ(ints(r), (std::vector<int64_t>{4052555153018976267LL, -1}));
  r = runCall("torch.ops.aten.pow.Tensor_Scalar](args = (%a, 0.5), kwargs = {})",
              {i64({2}, {4, 2})});
  EXPECT_EQ(r.dtype(), DType::Float32);
  expectValues(r, {2, std::numbers::sqrt2});
  std::string e = runCallError("torch.ops.aten.pow.Tensor_Scalar](args = (%a, -1), kwargs = {})",
                               {i64({1}, {2})});
  EXPECT_NE(e.find("negative integer powers"), std::string::npos) << e;
  // Tensor_Tensor with negative integer exponents follows c10's powi.
  r = runCall("torch.ops.aten.pow.Tensor_Tensor](args = (%a, %b), kwargs = {})",
              {i64({4}, {2, 1, -1, 5}), i64({4}, {-1, -3, -3, 0})});
  EXPECT_EQ(ints(r), (std::vector<int64_t>{0, 1, -1, 1}));
  expectValues(runCall("torch.ops.aten.pow.Tensor_Tensor](args = (%a, %b), kwargs = {})",
                       {f32({2}, {4, 8}), f32({2}, {-0.5, 1.0 / 3})}),
               {0.5, 2});
}

TEST(PointwiseKernels, Where) {
  Tensor c = fromValues({3}, {1, 0, 1}, DType::Bool);
  // int64 self and a Python float other promote to float32.
  Tensor r = runCall("torch.ops.aten.where.self](args = (%a, %b, -1.5), kwargs = {})",
                     {c, i64({3}, {1, 2, 3})});
  EXPECT_EQ(r.dtype(), DType::Float32);
  expectValues(r, {1, -1.5, 3});
  // Broadcast condition [3, 1] against [1, 2] operands; int64 exact.
  Tensor c2 = fromValues({3, 1}, {1, 0, 1}, DType::Bool);
  r = runCall("torch.ops.aten.where.self](args = (%a, %b, %c), kwargs = {})",
              {c2, i64Exact({kBig, 1}).asStrided({1, 2}, {2, 1}, 0).take(), i64({1, 2}, {-1, -2})});
  EXPECT_EQ(ints(r), (std::vector<int64_t>{kBig, 1, -1, -2, kBig, 1}));
  std::string e = runCallError("torch.ops.aten.where.self](args = (%a, %b, %c), kwargs = {})",
                               {f32({1}, {1}), f32({1}, {1}), f32({1}, {2})});
  EXPECT_NE(e.find("bool"), std::string::npos) << e;
}

TEST(PointwiseKernels, Comparisons) {
  Tensor a = f32({3}, {1, 2, 3}), b = f32({3}, {2, 2, 2});
  struct Case {
    const char *op;
    std::vector<double> tensor, scalar;
  };
  // a op b (tensor) and a op 2 (scalar): the same, by construction.
  const Case cases[] = {
      {"le", {1, 1, 0}, {1, 1, 0}}, {"lt", {1, 0, 0}, {1, 0, 0}}, {"ge", {0, 1, 1}, {0, 1, 1}},
      {"gt", {0, 0, 1}, {0, 0, 1}}, {"eq", {0, 1, 0}, {0, 1, 0}}, {"ne", {1, 0, 1}, {1, 0, 1}},
  };
  for (const Case &c : cases) {
    std::string op = c.op;
    Tensor r = runCall("torch.ops.aten." + op + ".Tensor](args = (%a, %b), kwargs = {})", {a, b});
    EXPECT_EQ(r.dtype(), DType::Bool) << op;
    expectValues(r, c.tensor);
    expectValues(runCall("torch.ops.aten." + op + ".Scalar](args = (%a, 2), kwargs = {})", {a}),
                 c.scalar);
  }
  // NaN compares false except with !=.
  Tensor n = f32({1}, {kNaN});
  for (const char *op : {"le", "lt", "ge", "gt", "eq"})
    expectValues(
        runCall(std::string("torch.ops.aten.") + op + ".Tensor](args = (%a, %b), kwargs = {})",
                {n, n}),
        {0});
  expectValues(runCall("torch.ops.aten.ne.Tensor](args = (%a, %b), kwargs = {})", {n, n}), {1});
  // Integers compare exactly (2^62 + 3 and 2^62 + 2 are the same double).
  expectValues(runCall("torch.ops.aten.gt.Tensor](args = (%a, %b), kwargs = {})",
                       {i64Exact({kBig}), i64Exact({kBig - 1})}),
               {1});
  // int64 against a Python float compares in float32.
  expectValues(
      runCall("torch.ops.aten.lt.Scalar](args = (%a, 1.5), kwargs = {})", {i64({2}, {1, 2})}),
      {1, 0});
  // float16 against 0.1: the common dtype is float16, so 0.1 rounds to the tensor's value.
  Tensor h = fromValues({1}, {0.0999755859375}, DType::Float16);
  expectValues(runCall("torch.ops.aten.eq.Scalar](args = (%a, 0.1), kwargs = {})", {h}), {1});
  expectValues(runCall("torch.ops.aten.lt.Scalar](args = (%a, 0.1), kwargs = {})", {h}), {0});
}

// ---- Unary ----

TEST(PointwiseKernels, ReluNegAbs) {
  Tensor x = f32({4}, {-1, 0, 2, kNaN});
  expectValues(runCall("torch.ops.aten.relu.default](args = (%a,), kwargs = {})", {x}),
               {0, 0, 2, kNaN});
  expectValues(runCall("torch.ops.aten.neg.default](args = (%a,), kwargs = {})", {x}),
               {1, 0, -2, kNaN});
  expectValues(runCall("torch.ops.aten.abs.default](args = (%a,), kwargs = {})", {x}),
               {1, 0, 2, kNaN});
  Tensor i = i64Exact({-kBig, 4});
  Tensor r = runCall("torch.ops.aten.relu.default](args = (%a,), kwargs = {})", {i});
  EXPECT_EQ(r.dtype(), DType::Int64);
  EXPECT_EQ(ints(r), (std::vector<int64_t>{0, 4}));
  EXPECT_EQ(ints(runCall("torch.ops.aten.neg.default](args = (%a,), kwargs = {})", {i})),
            (std::vector<int64_t>{kBig, -4}));
  EXPECT_EQ(ints(runCall("torch.ops.aten.abs.default](args = (%a,), kwargs = {})", {i})),
            (std::vector<int64_t>{kBig, 4}));
}

TEST(PointwiseKernels, UnaryMath) {
  auto unary = [](const std::string &op, const Tensor &x) {
    return runCall("torch.ops.aten." + op + ".default](args = (%a,), kwargs = {})", {x});
  };
  const double ln2 = std::numbers::ln2, ln3 = std::log(3.0), pi = std::numbers::pi;
  auto x64 = [](const std::vector<double> &v) {
    return fromValues({static_cast<int64_t>(v.size())}, v, DType::Float64);
  };
  // sigmoid(ln 3) = 1 / (1 + 1/3) = 0.75.
  expectValues(unary("sigmoid", x64({0, ln3, -kInf, kInf})), {0.5, 0.75, 0, 1}, 1e-12);
  // tanh(ln 2) = (2 - 1/2) / (2 + 1/2) = 0.6.
  expectValues(unary("tanh", x64({0, ln2, kInf})), {0, 0.6, 1}, 1e-12);
  expectValues(unary("erf", x64({0, 0.5, -kInf})), {0, 0.5204998778130465, -1}, 1e-12);
  expectValues(unary("exp", x64({0, ln2, -kInf, kInf})), {1, 2, 0, kInf}, 1e-12);
  expectValues(unary("log", x64({1, std::numbers::e, 0, -1})), {0, 1, -kInf, kNaN}, 1e-12);
  expectValues(unary("cos", x64({0, pi})), {1, -1}, 1e-12);
  expectValues(unary("sin", x64({pi / 2, -pi / 2})), {1, -1}, 1e-12);
  expectValues(unary("sqrt", x64({4, 0.25, -1})), {2, 0.5, kNaN}, 1e-12);
  expectValues(unary("rsqrt", x64({4, 0.25, 0})), {0.5, 2, kInf}, 1e-12);
  expectValues(unary("reciprocal", x64({4, 0, -0.0})), {0.25, kInf, -kInf}, 1e-12);
  // Integers promote to float32.
  Tensor r = unary("sigmoid", i64({1}, {0}));
  EXPECT_EQ(r.dtype(), DType::Float32);
  expectValues(r, {0.5});
}

TEST(PointwiseKernels, Gelu) {
  Tensor x = fromValues({3}, {1, -1, 0}, DType::Float64);
  // 0.5 x (1 + erf(x / sqrt 2)) = x * Phi(x); Phi(1) = 0.8413447460685429.
  expectValues(runCall("torch.ops.aten.gelu.default](args = (%a,), kwargs = {})", {x}),
               {0.8413447460685429, -0.15865525393145707, 0}, 1e-12);
  expectValues(
      runCall("torch.ops.aten.gelu.default](args = (%a,), kwargs = {approximate: none})", {x}),
      {0.8413447460685429, -0.15865525393145707, 0}, 1e-12);
  // 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
  expectValues(runCall("torch.ops.aten.gelu.default](args = (%a,), kwargs = {approximate: tanh})",
                       {fromValues({2}, {1, -2}, DType::Float64)}),
               {0.8411919906082768, -0.04540230591222494}, 1e-12);
  std::string e = runCallError(
      "torch.ops.aten.gelu.default](args = (%a,), kwargs = {approximate: exact})", {x});
  EXPECT_NE(e.find("approximate"), std::string::npos) << e;
}

TEST(PointwiseKernels, ConvertElementType) {
  auto convert = [](const Tensor &x, const std::string &dtype) {
    return runCall("torch.ops.prims.convert_element_type.default](args = (%a, torch." + dtype +
                       "), kwargs = {})",
                   {x});
  };
  Tensor r = convert(f32({3}, {1.7, -1.7, 0}), "int64");
  EXPECT_EQ(r.dtype(), DType::Int64);
  EXPECT_EQ(ints(r), (std::vector<int64_t>{1, -1, 0}));
  // bool is x != 0: 0.5 and NaN are true.
  r = convert(f32({3}, {0.5, 0, kNaN}), "bool");
  EXPECT_EQ(r.dtype(), DType::Bool);
  EXPECT_EQ(ints(r), (std::vector<int64_t>{1, 0, 1}));
  // int64 -> float32 rounds once: 2^24 + 1 -> 2^24; (2^62 + 3) -> 2^62.
  r = convert(i64Exact({(1 << 24) + 1, kBig}), "float32");
  EXPECT_EQ(flat(r), (std::vector<double>{16777216.0, 0x1p62}));
  // 1/3 to float16 and bfloat16: nearest 1365/4096 and 171/512.
  Tensor third = fromValues({1}, {1.0 / 3}, DType::Float64);
  EXPECT_EQ(flat(convert(third, "float16"))[0], 1365.0 / 4096);
  EXPECT_EQ(flat(convert(third, "bfloat16"))[0], 171.0 / 512);
  // int64 -> int32 wraps.
  EXPECT_EQ(ints(convert(i64Exact({(int64_t(1) << 32) + 5, -1}), "int32")),
            (std::vector<int64_t>{5, -1}));
}

// ---- Promotion, rounding, layouts ----

TEST(PointwiseKernels, TypePromotion) {
  // int64 tensor + 0.5 -> float32.
  Tensor r =
      runCall("torch.ops.aten.add.Tensor](args = (%a, 0.5), kwargs = {})", {i64({2}, {1, 2})});
  EXPECT_EQ(r.dtype(), DType::Float32);
  expectValues(r, {1.5, 2.5});
  // A 0-d int64 tensor does not widen an int32 tensor.
  r = runCall("torch.ops.aten.add.Tensor](args = (%a, %b), kwargs = {})",
              {i64Exact({1, 2}, DType::Int32), i64({}, {10})});
  EXPECT_EQ(r.dtype(), DType::Int32);
  EXPECT_EQ(ints(r), (std::vector<int64_t>{11, 12}));
  // float16 with float32 (both dimensioned) -> float32; with a 0-d float64 -> float16.
  Tensor h = fromValues({1}, {1}, DType::Float16);
  r = runCall("torch.ops.aten.add.Tensor](args = (%a, %b), kwargs = {})", {h, f32({1}, {0.25})});
  EXPECT_EQ(r.dtype(), DType::Float32);
  r = runCall("torch.ops.aten.add.Tensor](args = (%a, %b), kwargs = {})",
              {h, fromValues({}, {0.25}, DType::Float64)});
  EXPECT_EQ(r.dtype(), DType::Float16);
  expectValues(r, {1.25});
  // A Python int beyond 2^53 added to an int64 tensor stays exact.
  r = runCall("torch.ops.aten.add.Tensor](args = (%a, 4611686018427387907), kwargs = {})",
              {i64({1}, {-3})});
  EXPECT_EQ(ints(r), (std::vector<int64_t>{int64_t(1) << 62}));
}

TEST(PointwiseKernels, HalfAndBFloat16Rounding) {
  // float16 near 1000 has spacing 0.5: 1000 + 0.300048828125 -> 1000.5.
  Tensor r =
      runCall("torch.ops.aten.add.Tensor](args = (%a, %b), kwargs = {})",
              {fromValues({1}, {1000}, DType::Float16), fromValues({1}, {0.3}, DType::Float16)});
  EXPECT_EQ(r.dtype(), DType::Float16);
  EXPECT_EQ(flat(r)[0], 1000.5);
  // bfloat16 near 1 has spacing 2^-7: 1 + 2^-8 is a tie, rounded to even (1).
  Tensor b = fromValues({2}, {1, 1}, DType::BFloat16);
  r = runCall("torch.ops.aten.add.Tensor](args = (%a, %b), kwargs = {})",
              {b, fromValues({2}, {0x1p-8, 0x1p-7}, DType::BFloat16)});
  EXPECT_EQ(r.dtype(), DType::BFloat16);
  EXPECT_EQ(flat(r), (std::vector<double>{1.0, 1.0078125}));
  // A Python number multiplies in float (opmath), as PyTorch's CPU kernels: 3 * 0.1f rounds to
  // 1229/4096 in float16; through float16(0.1) it would give 1228/4096.
  r = runCall("torch.ops.aten.mul.Tensor](args = (%a, 0.1), kwargs = {})",
              {fromValues({1}, {3}, DType::Float16)});
  EXPECT_EQ(flat(r)[0], 1229.0 / 4096);
  // exp(1) in float16: e = 2.71828 -> 2.71875 (spacing 2^-9 in [2, 4)).
  r = runCall("torch.ops.aten.exp.default](args = (%a,), kwargs = {})",
              {fromValues({1}, {1}, DType::Float16)});
  EXPECT_EQ(flat(r)[0], 2.71875);
}

TEST(PointwiseKernels, BroadcastPermutedAndExpanded) {
  // a: [2, 3] viewed as [3, 2] by a permutation; b: a [2] row expanded to [3, 2] (stride 0).
  Tensor base = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor a = permuted(base, {1, 0}); // [[1, 4], [2, 5], [3, 6]]
  Tensor row = f32({2}, {10, 20});
  Tensor b = row.asStrided({3, 2}, {0, 1}, 0).take();
  expectValues(runCall("torch.ops.aten.sub.Tensor](args = (%a, %b), kwargs = {})", {a, b}),
               {-9, -16, -8, -15, -7, -14});
  // Rank broadcasting: [3, 2] against [2] and against a 0-d tensor.
  expectValues(runCall("torch.ops.aten.mul.Tensor](args = (%a, %b), kwargs = {})", {a, row}),
               {10, 80, 20, 100, 30, 120});
  expectValues(
      runCall("torch.ops.aten.maximum.default](args = (%a, %b), kwargs = {})", {f32({}, {3.5}), a}),
      {3.5, 4, 3.5, 5, 3.5, 6});
  // [3, 1] x [1, 2] -> [3, 2].
  expectValues(runCall("torch.ops.aten.add.Tensor](args = (%a, %b), kwargs = {})",
                       {f32({3, 1}, {1, 2, 3}), f32({1, 2}, {10, 20})}),
               {11, 21, 12, 22, 13, 23});
  // A 0-d result.
  Tensor r = runCall("torch.ops.aten.neg.default](args = (%a,), kwargs = {})", {f32({}, {2})});
  EXPECT_EQ(r.dim(), 0);
  expectValues(r, {-2});
}

TEST(PointwiseKernels, UnsupportedDTypeIsAnError) {
  auto c64 = Tensor::zeros(DType::Complex64, {2});
  ASSERT_TRUE(c64);
  std::string e = runCallError("torch.ops.aten.neg.default](args = (%a,), kwargs = {})", {*c64});
  EXPECT_NE(e.find("complex64"), std::string::npos) << e;
  e = runCallError(
      "torch.ops.prims.convert_element_type.default](args = (%a, torch.float8_e4m3fn), "
      "kwargs = {})",
      {f32({1}, {1})});
  EXPECT_NE(e.find("float8"), std::string::npos) << e;
}

TEST(PointwiseKernels, NarrowIntegersWrapAsInPyTorch) {
  // int8 and uint8 arithmetic wraps; a float converted to uint8 keeps the low byte of its
  // truncated value.
  auto i8 = Tensor::zeros(DType::Int8, {2});
  ASSERT_TRUE(i8);
  i8->storeInt(0, 100);
  i8->storeInt(1, -128);
  Tensor sum = runCall("torch.ops.aten.add.Tensor](args = (%a, %a), kwargs = {})", {*i8});
  EXPECT_EQ(sum.dtype(), DType::Int8);
  EXPECT_EQ(ints(sum), (std::vector<int64_t>{-56, 0}));
  Tensor u8 = runCall("torch.ops.prims.convert_element_type.default](args = (%a, torch.uint8), "
                      "kwargs = {})",
                      {f32({2}, {300.7, 5.2})});
  EXPECT_EQ(ints(u8), (std::vector<int64_t>{44, 5}));
}

// ---- Creation ----

TEST(CreationKernels, Full) {
  Tensor r = runCall("torch.ops.aten.full.default](args = ([2, 3], 1.5), kwargs = {})", {});
  EXPECT_EQ(r.dtype(), DType::Float32);
  EXPECT_EQ(r.sizes(), (std::vector<int64_t>{2, 3}));
  expectValues(r, {1.5, 1.5, 1.5, 1.5, 1.5, 1.5});
  // The fill value's kind picks the dtype.
  r = runCall("torch.ops.aten.full.default](args = ([2], 4611686018427387907), kwargs = {})", {});
  EXPECT_EQ(r.dtype(), DType::Int64);
  EXPECT_EQ(ints(r), (std::vector<int64_t>{kBig, kBig}));
  r = runCall("torch.ops.aten.full.default](args = ([1], True), kwargs = {})", {});
  EXPECT_EQ(r.dtype(), DType::Bool);
  EXPECT_EQ(ints(r), (std::vector<int64_t>{1}));
  r = runCall("torch.ops.aten.full.default](args = ([1], 0.3333333333333333), kwargs = {dtype: "
              "torch.float16, device: cpu, pin_memory: False})",
              {});
  EXPECT_EQ(r.dtype(), DType::Float16);
  EXPECT_EQ(flat(r)[0], 1365.0 / 4096);
  r = runCall("torch.ops.aten.full.default](args = ([2], -inf), kwargs = {})", {});
  expectValues(r, {-kInf, -kInf});
  r = runCall("torch.ops.aten.full.default](args = ([0, 3], 1.0), kwargs = {})", {});
  EXPECT_EQ(r.numel(), 0);
  std::string e = runCallError(
      "torch.ops.aten.full.default](args = ([1], 3000000000), kwargs = {dtype: torch.int32})", {});
  EXPECT_NE(e.find("overflow"), std::string::npos) << e;
  e = runCallError(
      "torch.ops.aten.full.default](args = ([1], 100000.0), kwargs = {dtype: torch.float16})", {});
  EXPECT_NE(e.find("overflow"), std::string::npos) << e;
}

TEST(CreationKernels, ScalarTensor) {
  Tensor r = runCall("torch.ops.aten.scalar_tensor.default](args = (2.5,), kwargs = {})", {});
  EXPECT_EQ(r.dtype(), DType::Float32);
  EXPECT_EQ(r.dim(), 0);
  expectValues(r, {2.5});
  r = runCall("torch.ops.aten.scalar_tensor.default](args = (-7,), kwargs = {dtype: torch.int64})",
              {});
  EXPECT_EQ(r.dtype(), DType::Int64);
  EXPECT_EQ(ints(r), (std::vector<int64_t>{-7}));
  r = runCall("torch.ops.aten.scalar_tensor.default](args = (1.7,), kwargs = {dtype: torch.int32})",
              {});
  EXPECT_EQ(ints(r), (std::vector<int64_t>{1}));
}

TEST(CreationKernels, Iota) {
  Tensor r =
      runCall("torch.ops.prims.iota.default](args = (5,), kwargs = {start: 2, step: 3, dtype: "
              "torch.int64, device: cpu, requires_grad: False})",
              {});
  EXPECT_EQ(r.dtype(), DType::Int64);
  EXPECT_EQ(ints(r), (std::vector<int64_t>{2, 5, 8, 11, 14}));
  r = runCall("torch.ops.prims.iota.default](args = (3,), kwargs = {start: 1, step: -2, dtype: "
              "torch.float32, device: cpu, requires_grad: False})",
              {});
  EXPECT_EQ(r.dtype(), DType::Float32);
  expectValues(r, {1, -1, -3});
  r = runCall("torch.ops.prims.iota.default](args = (0,), kwargs = {start: 0, step: 1, dtype: "
              "torch.int64, device: cpu, requires_grad: False})",
              {});
  EXPECT_EQ(r.numel(), 0);
}

} // namespace
