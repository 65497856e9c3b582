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
    std::string type = k == 0 ? std::string(dt) + "[4, 8][1, 4]cpu" : std::string(dt) + "[8][1]cpu";
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
    if (row.promote == Promote::IntOnly) {
      dtypes = {"i64", "b8"};
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
  EXPECT_GE(checked, 110u); // every line of PointwiseOps.def, in each dtype it takes
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
