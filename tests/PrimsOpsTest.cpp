/// The structural prims Inductor lowers (ir/ops/CompositePrimsOps.cpp): inference as their meta
/// functions give it (torch/_prims/__init__.py), hand-worked values on the reference
/// interpreter, and the same graphs on the loop interpreter, OpenCL and LLVM (the elementwise
/// prims are PointwiseOps.def lines, checked by PointwiseOpsTest).

#include "InterpreterTestSupport.h"
#include "exporters/FxTextPrinter.h"
#include "importers/FxTextParser.h"
#include "tests/gen/Differential.h"
#include "transforms/Decompose.h"
#include "transforms/ShapeInference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace fxkit;
using namespace fxkit::testing;

namespace {

/// `text` decomposed as `run`, `fuse` and `compile` decompose it (the prims become ATen ops),
/// printed with types; no composite op may be left.
std::string decomposed(const std::string &text) {
  auto g = parseFxText(text, "<test>");
  EXPECT_TRUE(g) << (g ? "" : g.error().str());
  if (!g)
    return text;
  auto changed = decomposeCompositeOps(*g);
  EXPECT_TRUE(changed) << (changed ? "" : changed.error().str()) << "\n" << text;
  EXPECT_FALSE(hasCompositeOps(*g)) << printFxText(*g);
  if (Status s = inferShapes(*g); !s)
    ADD_FAILURE() << s.error().str();
  FxTextOptions options;
  options.tensorTypes = true;
  return printFxText(*g, options);
}

/// Runs `text` on `inputs`, expecting one tensor output, and checks the decomposed graph on
/// every compiled backend (loops, OpenCL, LLVM) against the reference interpreter.
Tensor runEverywhere(const std::string &text, const std::vector<Tensor> &inputs) {
  std::vector<RuntimeValue> values;
  for (const Tensor &t : inputs)
    values.push_back(RuntimeValue{t});
  DifferentialOptions options;
  options.llvm = true;
  options.inputs = &values;
  std::string plain = decomposed(text);
  auto failure = checkGraphDifferentially(plain, {}, options);
  EXPECT_FALSE(failure) << plain << diffStageName(failure->stage) << ": " << failure->message;
  return runSingle(text, inputs);
}

std::string placeholder(const std::string &name, const std::string &type) {
  return "    %" + name + " : Tensor \"" + type + "\"[num_users=1] = placeholder[target=" + name +
         "]\n";
}

std::vector<int64_t> stridesOf(const Tensor &t) {
  std::vector<int64_t> s;
  for (size_t d = 0; d < t.sizes().size(); ++d)
    s.push_back(t.stride(static_cast<int64_t>(d)));
  return s;
}

TEST(PrimsOps, BroadcastInDimIsAnExpandedView) {
  std::string text =
      "graph():\n" + placeholder("a", "f32[3][1]cpu") +
      "    %r : [num_users=1] = call_function[target=torch.ops.prims.broadcast_in_dim."
      "default](args = (%a, [2, 3, 4], [1]), kwargs = {})\n    return (r,)\n";
  Tensor a = fromValues({3}, {1, 2, 3});
  Tensor r = runEverywhere(text, {a});
  EXPECT_EQ(r.sizes(), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(stridesOf(r), (std::vector<int64_t>{0, 1, 0})); // _broadcast_in_dim_meta's strides
  std::vector<double> expected;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k)
        expected.push_back(j + 1);
  expectValues(r, expected);
  // A dim of size 1 may grow; any other must match the shape.
  Tensor one = fromValues({1, 3}, {4, 5, 6});
  Tensor g = runCall(
      "torch.ops.prims.broadcast_in_dim.default](args = (%a, [2, 3], [0, 1]), kwargs = {})", {one});
  expectValues(g, {4, 5, 6, 4, 5, 6});
  EXPECT_NE(runCallError("torch.ops.prims.broadcast_in_dim.default](args = (%a, [2, 4], [0, 1]), "
                         "kwargs = {})",
                         {one})
                .find("cannot become 4"),
            std::string::npos);
  EXPECT_NE(
      runCallError(
          "torch.ops.prims.broadcast_in_dim.default](args = (%a, [2, 3], [1]), kwargs = {})", {one})
          .find("broadcast_dimensions"),
      std::string::npos);
}

TEST(PrimsOps, ViewOfRevAndDevicePut) {
  std::string text =
      "graph():\n" + placeholder("a", "f32[2, 3][3, 1]cpu") +
      "    %v : [num_users=1] = call_function[target=torch.ops.prims.view_of.default]"
      "(args = (%a,), kwargs = {})\n"
      "    %w : [num_users=1] = call_function[target=torch.ops.prims.rev.default]"
      "(args = (%v, [0, 1]), kwargs = {})\n"
      "    %r : [num_users=1] = call_function[target=torch.ops.prims.device_put."
      "default](args = (%w, cpu), kwargs = {})\n    return (r,)\n";
  Tensor a = fromValues({2, 3}, {1, 2, 3, 4, 5, 6});
  expectValues(runEverywhere(text, {a}), {6, 5, 4, 3, 2, 1});
}

TEST(PrimsOps, SumAndVarKeepOrChooseTheirDtype) {
  Tensor i = fromValues({2, 3}, {1, 2, 3, 4, 5, 6}, DType::Int32);
  // prims.sum does not promote integers to int64 as aten.sum does.
  Tensor s = runCall("torch.ops.prims.sum.default](args = (%a, [1]), kwargs = {})", {i});
  EXPECT_EQ(s.dtype(), DType::Int32);
  expectValues(s, {6, 15});
  Tensor all = runCall("torch.ops.prims.sum.default](args = (%a, None), kwargs = {output_dtype: "
                       "torch.float64})",
                       {i});
  EXPECT_EQ(all.dtype(), DType::Float64);
  EXPECT_TRUE(all.sizes().empty());
  expectValues(all, {21});
  Tensor f = fromValues({2, 3}, {1, 2, 3, 4, 6, 8});
  // var with correction 0 (population) and 1 (sample), dims dropped.
  expectValues(runCall("torch.ops.prims.var.default](args = (%a, [1], 0.0), kwargs = {})", {f}),
               {2.0 / 3, 8.0 / 3}, 1e-6);
  Tensor v = runCall(
      "torch.ops.prims.var.default](args = (%a, [1]), kwargs = {output_dtype: torch.float64})",
      {f});
  EXPECT_EQ(v.dtype(), DType::Float64);
  expectValues(v, {1, 4}, 1e-6);
  std::string text = "graph():\n" + placeholder("a", "f32[2, 3][3, 1]cpu") +
                     "    %s : [num_users=1] = call_function[target=torch.ops.prims.sum.default]"
                     "(args = (%a, [0]), kwargs = {})\n"
                     "    %v : [num_users=1] = call_function[target=torch.ops.prims.var.default]"
                     "(args = (%a, [0], 0.5), kwargs = {})\n"
                     "    %r : [num_users=1] = call_function[target=torch.ops.prims.add.default]"
                     "(args = (%s, %v), kwargs = {})\n    return (r,)\n";
  // Column sums 5, 8, 11; var with correction 0.5 of two values d apart: (d/2)^2 * 2 / 1.5.
  expectValues(runEverywhere(text, {f}), {5 + 2.25 * 2 / 1.5, 8 + 4 * 2 / 1.5, 11 + 6.25 * 2 / 1.5},
               1e-6);
}

TEST(PrimsOps, CopyStridedAndForceStrideOrderLayOutTheCopy) {
  Tensor a = fromValues({2, 3}, {1, 2, 3, 4, 5, 6});
  std::string text = "graph():\n" + placeholder("a", "f32[2, 3][3, 1]cpu") +
                     "    %r : [num_users=1] = call_function[target=torch.ops.prims.copy_strided."
                     "default](args = (%a, [1, 2]), kwargs = {})\n    return (r,)\n";
  Tensor r = runEverywhere(text, {a});
  EXPECT_EQ(stridesOf(r), (std::vector<int64_t>{1, 2}));
  expectValues(r, {1, 2, 3, 4, 5, 6});
  Tensor f = runCall("torch.ops.prims.inductor_force_stride_order.default](args = (%a, [1, 2]), "
                     "kwargs = {})",
                     {a});
  EXPECT_EQ(stridesOf(f), (std::vector<int64_t>{1, 2}));
  expectValues(f, {1, 2, 3, 4, 5, 6});
  // Already in that layout: the input itself.
  Tensor same = runCall("torch.ops.prims.inductor_force_stride_order.default](args = (%a, [3, 1]), "
                        "kwargs = {})",
                        {a});
  EXPECT_EQ(stridesOf(same), (std::vector<int64_t>{3, 1}));
  expectValues(same, {1, 2, 3, 4, 5, 6});
}

TEST(PrimsOps, UnsafeIndexPutAccumulates) {
  std::string text = "graph():\n" + placeholder("x", "f32[4][1]cpu") +
                     placeholder("i", "i64[3][1]cpu") + placeholder("v", "f32[3][1]cpu") +
                     "    %r : [num_users=1] = call_function[target=torch.ops.prims._unsafe_index_"
                     "put_.default](args = (%x, [%i], %v, True), kwargs = {})\n    return (r,)\n";
  Tensor x = fromValues({4}, {1, 1, 1, 1});
  Tensor i = fromValues({3}, {0, 2, 0}, DType::Int64);
  Tensor v = fromValues({3}, {10, 20, 30});
  expectValues(runEverywhere(text, {x, i, v}), {41, 1, 21, 1});
}

TEST(PrimsOps, FrexpSplitsMantissaAndExponent) {
  const double kInf = std::numeric_limits<double>::infinity();
  const double kNaN = std::numeric_limits<double>::quiet_NaN();
  // 8 = 0.5 * 2^4; 0.75 = 0.75 * 2^0; -3 = -0.75 * 2^2; just below 2 = (1 - 2^-24) * 2^1 in
  // float32 (log2 rounds it to 1: the correction step); the smallest subnormal 2^-149 =
  // 0.5 * 2^-148; the largest float32 = (1 - 2^-24) * 2^128; zeros, inf and NaN keep their
  // value with exponent 0.
  const double belowTwo = 2 - 0x1p-23, tiny = 0x1p-149, huge = 0x1.fffffep127;
  std::vector<double> x{8, 0.75, -3, belowTwo, tiny, huge, 0, -kInf, kNaN};
  std::vector<double> mantissa{0.5, 0.75, -0.75, belowTwo / 2, 0.5, huge / 0x1p128, 0, -kInf, kNaN};
  std::vector<double> exponent{4, 0, 2, 1, -148, 128, 0, 0, 0};
  auto n = static_cast<int64_t>(x.size());
  std::string text = "graph():\n" + placeholder("a", "f32[" + std::to_string(n) + "][1]cpu") +
                     "    %f : [num_users=2] = call_function[target=torch.ops.prims.frexp.default]"
                     "(args = (%a,), kwargs = {})\n"
                     "    %m : [num_users=1] = call_function[target=operator.getitem](args = (%f, "
                     "0), kwargs = {})\n"
                     "    %e : [num_users=1] = call_function[target=operator.getitem](args = (%f, "
                     "1), kwargs = {})\n    return (m, e)\n";
  Tensor a = fromValues({n}, x);
  std::vector<RuntimeValue> values{RuntimeValue{a}};
  auto r = runText(text, values);
  ASSERT_TRUE(r) << r.error().str();
  ASSERT_EQ(r->outputs.size(), 2u);
  const Tensor &m = *r->outputs[0].tensor();
  const Tensor &e = *r->outputs[1].tensor();
  EXPECT_EQ(m.dtype(), DType::Float32);
  EXPECT_EQ(e.dtype(), DType::Int32);
  expectValues(m, mantissa, 0);
  expectValues(e, exponent, 0);
  DifferentialOptions options;
  options.llvm = true;
  options.inputs = &values;
  std::string plain = decomposed(text);
  auto failure = checkGraphDifferentially(plain, {}, options);
  EXPECT_FALSE(failure) << plain << diffStageName(failure->stage) << ": " << failure->message;
  // Integers are refused as torch.frexp refuses them.
  Tensor i = fromValues({1}, {3}, DType::Int64);
  EXPECT_NE(runCallError("torch.ops.aten.frexp.Tensor](args = (%a,), kwargs = {})", {i})
                .find("only supports floating-point"),
            std::string::npos);
}

TEST(PrimsOps, PolygammaIsDigammaOrAScaledZeta) {
  Tensor x = fromValues({3}, {1, 0.5, 3}, DType::Float64);
  const double pi = M_PI, euler = 0.5772156649015329, zeta3 = 1.2020569031595943;
  auto call = [](int n) {
    return "torch.ops.aten.polygamma.default](args = (" + std::to_string(n) + ", %a), kwargs = {})";
  };
  expectValues(runCall(call(0), {x}), {-euler, -euler - 2 * std::log(2.0), 1.5 - euler}, 1e-13);
  // trigamma: pi^2/6, pi^2/2, pi^2/6 - 1 - 1/4.
  expectValues(runCall(call(1), {x}), {pi * pi / 6, pi * pi / 2, pi * pi / 6 - 1.25}, 1e-13);
  // psi''(1) = -2 zeta(3); psi''(0.5) = -14 zeta(3).
  Tensor two = runCall(call(2), {x});
  expectValues(two, {-2 * zeta3, -14 * zeta3, -2 * (zeta3 - 1 - 0.125)}, 1e-13);
  EXPECT_NE(runCallError(call(-1), {x}).find("negative n"), std::string::npos);
  std::string text = "graph():\n" + placeholder("a", "f32[3][1]cpu") +
                     "    %r : [num_users=1] = call_function[target=" + call(3) +
                     "\n    return (r,)\n";
  Tensor f = fromValues({3}, {1, 0.5, 3});
  runEverywhere(text, {f});
}

TEST(PrimsOps, XorSumReducesByExclusiveOr) {
  Tensor i = fromValues({2, 3}, {1, 2, 4, 7, 7, -1}, DType::Int64);
  Tensor r = runCall("torch.ops.prims.xor_sum.default](args = (%a, [1]), kwargs = {})", {i});
  EXPECT_EQ(r.dtype(), DType::Int64);
  expectValues(r, {7, -1}); // 1^2^4; 7^7^-1
  Tensor all = runCall("torch.ops.prims.xor_sum.default](args = (%a, None), kwargs = {})", {i});
  EXPECT_TRUE(all.sizes().empty());
  expectValues(all, {-8}); // 7 ^ (7 ^ 7) ^ -1 = ~7
  Tensor b = fromValues({3}, {1, 1, 1}, DType::Bool);
  Tensor rb = runCall("torch.ops.prims.xor_sum.default](args = (%a, [0]), kwargs = {})", {b});
  EXPECT_EQ(rb.dtype(), DType::Bool);
  expectValues(rb, {1});
  Tensor f = fromValues({2}, {1, 2});
  EXPECT_NE(runCallError("torch.ops.prims.xor_sum.default](args = (%a, [0]), kwargs = {})", {f})
                .find("integral or bool"),
            std::string::npos);
  // An extern call on the compiled backends (the reference kernel).
  std::string text =
      "graph():\n" + placeholder("a", "i64[2, 3][3, 1]cpu") +
      "    %r : [num_users=1] = call_function[target=torch.ops.prims.xor_sum.default]"
      "(args = (%a, [0]), kwargs = {})\n    return (r,)\n";
  expectValues(runEverywhere(text, {i}), {6, 5, -5});
}

TEST(PrimsOps, EffectTokensSurviveThePipeline) {
  std::string text = "graph():\n" + placeholder("x", "f32[3][1]cpu") +
                     "    %t : [num_users=1] = call_function[target=torch.ops.prims._make_token."
                     "default](args = (), kwargs = {})\n"
                     "    %y : [num_users=1] = call_function[target=torch.ops.prims.exp.default]"
                     "(args = (%x,), kwargs = {})\n"
                     "    %s : [num_users=0] = call_function[target=torch.ops.prims._sink_tokens."
                     "default](args = ([%t],), kwargs = {})\n    return (y,)\n";
  Tensor x = fromValues({3}, {0, 1, -1});
  expectValues(runEverywhere(text, {x}), {1, std::exp(1.0), std::exp(-1.0)}, 1e-6);
}

} // namespace
