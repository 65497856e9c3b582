/// The factories, copies, softmax and normalisations of transforms/lowering/CreationLowering.cpp
/// and NormLowering.cpp lower to loop ops, not extern calls, and the loop interpreter, OpenCL
/// (PoCL here) and LLVM give the reference interpreter's values: arange with float, negative
/// and large int64 bounds; *_like results that keep their input's strides; conversions that
/// truncate floats and make bools; copies that broadcast; softmax over each dim with -inf and
/// NaN rows, in float16 and float64; layer, group and batch norms with and without weight and
/// bias, non-contiguous inputs and symbolic sizes; some values are also checked by hand.

#include "CompileTestSupport.h"
#include "InterpreterTestSupport.h"
#include "backends/interp/Interpreter.h"
#include "backends/interp/LoopInterpreter.h"
#include "importers/FxTextParser.h"
#include "ir/ops/ShapeRules.h"
#include "tests/gen/Differential.h"
#include "transforms/Fusion.h"
#include "transforms/Lowering.h"
#include "transforms/ShapeInference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace fxkit;
using namespace fxkit::testing;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// `body` (node lines) after typed placeholders `decls` (`x: f32[4, 8][8, 1]cpu`), returning
/// `ret`.
std::string graphText(const std::vector<std::string> &decls, const std::string &body,
                      const std::string &ret) {
  std::string text = "graph():\n";
  for (const std::string &d : decls) {
    size_t colon = d.find(':');
    std::string name = d.substr(0, colon), type = d.substr(colon + 2);
    text += "    %" + name + " : Tensor \"" + type +
            "\"[num_users=1] = placeholder[target=" + name + "]\n";
  }
  return text + body + "    return (" + ret + ",)\n";
}

/// The number of ops of each kind `text` lowers to (shape inference first).
struct OpCounts {
  int pointwise = 0, reduction = 0, externs = 0;
};

OpCounts lowerCounts(const std::string &text) {
  OpCounts c;
  auto graph = parseFxText(text, "<test>");
  EXPECT_TRUE(graph) << graph.error().str();
  if (!graph)
    return c;
  Status s = inferShapes(*graph);
  EXPECT_TRUE(s) << s.error().str();
  auto program = lowerGraph(*graph);
  EXPECT_TRUE(program) << program.error().str();
  if (!program)
    return c;
  for (const loop::LoopOp &op : program->ops) {
    c.pointwise += op.kind == loop::LoopOpKind::Pointwise;
    c.reduction += op.kind == loop::LoopOpKind::Reduction;
    c.externs += op.kind == loop::LoopOpKind::Extern;
  }
  return c;
}

/// `text` lowers to loop ops only, and every backend (loops, OpenCL where there is a device,
/// LLVM where it is built) agrees with the reference interpreter on `inputs` (seeded random
/// ones by default).
void expectAgrees(const std::string &text, const SymExpr::Bindings &symbols = {},
                  const std::vector<RuntimeValue> *inputs = nullptr, bool loops = true) {
  SCOPED_TRACE(text);
  OpCounts c = lowerCounts(text);
  EXPECT_EQ(c.externs, 0) << "an op stayed an extern call";
  EXPECT_GT(c.pointwise + c.reduction, 0);
  DifferentialOptions options;
  options.loops = loops;
  options.opencl = haveOpenCLDevice();
  options.llvm = true;
  options.formats = false; // not what this tests (and sym_size values do not round-trip)
  options.inputs = inputs;
  auto failure = checkGraphDifferentially(text, symbols, options);
  EXPECT_FALSE(failure) << diffStageName(failure->stage) << ": " << failure->message;
}

/// The lowered program's outputs (loop interpreter) on `inputs`, and the sizes/strides of
/// output `i` as the program lays it out.
struct LoopRun {
  std::vector<RuntimeValue> outputs;
  std::vector<std::vector<SymExpr>> strides;
};

LoopRun runLoops(const std::string &text, const std::vector<RuntimeValue> &inputs) {
  LoopRun r;
  auto graph = parseFxText(text, "<test>");
  EXPECT_TRUE(graph) << graph.error().str();
  if (!graph)
    return r;
  EXPECT_TRUE(inferShapes(*graph));
  auto program = lowerGraph(*graph);
  EXPECT_TRUE(program) << program.error().str();
  if (!program)
    return r;
  auto fused = fuseLoopProgram(*program);
  EXPECT_TRUE(fused) << fused.error().str();
  if (!fused)
    return r;
  auto got = interpretLoopProgram(*program, *fused, inputs);
  EXPECT_TRUE(got) << got.error().str();
  if (!got)
    return r;
  r.outputs = got->outputs;
  for (const auto &o : program->outputs)
    r.strides.push_back(o.view.strides);
  return r;
}

std::vector<RuntimeValue> values(std::vector<Tensor> ts) {
  std::vector<RuntimeValue> out;
  for (Tensor &t : ts)
    out.push_back(RuntimeValue{std::move(t)});
  return out;
}

std::string stridesText(const std::vector<SymExpr> &strides) { return sizesText(strides); }

// ---- Creation ----

TEST(CreationNormLowering, ArangeFloatNegativeAndLargeSteps) {
  std::string body =
      R"(    %a : [num_users=1] = call_function[target=torch.ops.aten.arange.start_step](args = (1.5, -3.0, -0.7), kwargs = {})
    %b : [num_users=1] = call_function[target=torch.ops.aten.arange.default](args = (10,), kwargs = {})
    %c : [num_users=1] = call_function[target=torch.ops.aten.arange.start_step](args = (3000000000000, 2999999999900, -7), kwargs = {})
    %d : [num_users=1] = call_function[target=torch.ops.aten.arange.start_step](args = (0.1, 2.05, 0.3), kwargs = {dtype: torch.float16})
    %e : [num_users=1] = call_function[target=torch.ops.aten.arange.start_step](args = (-2.9, 5.5, 1.7), kwargs = {dtype: torch.int32})
    %f : [num_users=1] = call_function[target=torch.ops.aten.arange.start](args = (-3, 4), kwargs = {dtype: torch.float64})
    %g : [num_users=1] = call_function[target=torch.ops.aten.arange.start_step](args = (0, 1, 0.1), kwargs = {})
)";
  std::string text = graphText({}, body, "a, b, c, d, e, f, g");
  expectAgrees(text);
  // By hand: start + i * step in double, rounded once to float32; bounds truncated for ints.
  LoopRun r = runLoops(text, {});
  ASSERT_EQ(r.outputs.size(), 7u);
  expectValues(*r.outputs[0].tensor(), {1.5, 0.8, 0.1, -0.6, -1.3, -2.0, -2.7}, 1e-6);
  EXPECT_EQ(r.outputs[0].tensor()->getDouble(std::vector<int64_t>{6}),
            static_cast<double>(static_cast<float>(1.5 + 6 * -0.7)));
  expectValues(*r.outputs[2].tensor(),
               {3e12, 3e12 - 7, 3e12 - 14, 3e12 - 21, 3e12 - 28, 3e12 - 35, 3e12 - 42, 3e12 - 49,
                3e12 - 56, 3e12 - 63, 3e12 - 70, 3e12 - 77, 3e12 - 84, 3e12 - 91, 3e12 - 98},
               0);
  // int32 from float bounds: ceil((5.5 + 2.9) / 1.7) = 5 values of -2 + i * 1 (the bounds
  // truncated, the length not).
  expectValues(*r.outputs[4].tensor(), {-2, -1, 0, 1, 2}, 0);
  EXPECT_EQ(r.outputs[6].tensor()->numel(), 10);
}

TEST(CreationNormLowering, ArangeOfInt64BeyondDoublePrecision) {
  // 2^60 + i is exact in int64 only (the loop interpreter holds values as doubles, so it is
  // left out): OpenCL and LLVM compute it in 64-bit integers.
  std::string body =
      R"(    %a : [num_users=1] = call_function[target=torch.ops.aten.arange.start](args = (1152921504606846976, 1152921504606846986), kwargs = {})
    %s : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%a, 1152921504606846970), kwargs = {})
)";
  expectAgrees(graphText({}, body, "s"), {}, nullptr, /*loops=*/false);
}

TEST(CreationNormLowering, ArangeOfSymbolicLength) {
  std::string body =
      R"(    %n : [num_users=2] = call_function[target=torch.ops.aten.sym_size.int](args = (%x, 0), kwargs = {})
    %a : [num_users=1] = call_function[target=torch.ops.aten.arange.default](args = (%n,), kwargs = {dtype: torch.float32})
    %b : [num_users=1] = call_function[target=torch.ops.aten.arange.start_step](args = (%n, -5, -3), kwargs = {})
    %m : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, %a), kwargs = {})
)";
  expectAgrees(graphText({"x: f32[s0][1]cpu"}, body, "m, b"), {{"s0", 11}});
}

TEST(CreationNormLowering, FactoriesAndLikeOpsKeepTheirLayouts) {
  // x is a transposed (non-contiguous, dense) input: the *_like results keep its strides.
  std::string body =
      R"(    %z : [num_users=1] = call_function[target=torch.ops.aten.zeros_like.default](args = (%x,), kwargs = {})
    %o : [num_users=1] = call_function[target=torch.ops.aten.ones_like.default](args = (%x,), kwargs = {dtype: torch.int64})
    %f : [num_users=1] = call_function[target=torch.ops.aten.full_like.default](args = (%x, 2.5), kwargs = {})
    %e : [num_users=1] = call_function[target=torch.ops.aten.empty_like.default](args = (%x,), kwargs = {memory_format: torch.contiguous_format})
    %fb : [num_users=1] = call_function[target=torch.ops.aten.full_like.default](args = (%x, 0.5), kwargs = {dtype: torch.bool})
    %zs : [num_users=1] = call_function[target=torch.ops.aten.zeros.default](args = ([2, 3],), kwargs = {dtype: torch.int8})
    %os : [num_users=1] = call_function[target=torch.ops.aten.ones.default](args = ([3, 2],), kwargs = {})
    %em : [num_users=1] = call_function[target=torch.ops.aten.empty.memory_format](args = ([2, 3, 4, 5],), kwargs = {memory_format: torch.channels_last})
    %es : [num_users=1] = call_function[target=torch.ops.aten.empty_strided.default](args = ([3, 4], [1, 3]), kwargs = {dtype: torch.float16})
)";
  std::string text = graphText({"x: f32[4, 6][1, 4]cpu"}, body, "z, o, f, e, fb, zs, os, em, es");
  expectAgrees(text);
  auto inputs = values({fromValues({4, 6}, std::vector<double>(24, 1.0))});
  LoopRun r = runLoops(text, inputs);
  ASSERT_EQ(r.strides.size(), 9u);
  EXPECT_EQ(stridesText(r.strides[0]), "[1, 4]");
  EXPECT_EQ(stridesText(r.strides[1]), "[1, 4]");
  EXPECT_EQ(stridesText(r.strides[2]), "[1, 4]");
  EXPECT_EQ(stridesText(r.strides[3]), "[6, 1]");
  EXPECT_EQ(stridesText(r.strides[7]), "[60, 1, 15, 3]");
  EXPECT_EQ(stridesText(r.strides[8]), "[1, 3]");
  expectValues(*r.outputs[2].tensor(), std::vector<double>(24, 2.5));
  expectValues(*r.outputs[4].tensor(), std::vector<double>(24, 1));
  EXPECT_EQ(r.outputs[4].tensor()->dtype(), DType::Bool);
  expectValues(*r.outputs[7].tensor(), std::vector<double>(120, 0));
}

TEST(CreationNormLowering, FillConvertsItsValueToTheResultsDtype) {
  std::string body =
      R"(    %a : [num_users=1] = call_function[target=torch.ops.aten.fill.Scalar](args = (%i, 2.7), kwargs = {})
    %b : [num_users=1] = call_function[target=torch.ops.aten.fill.Scalar](args = (%i, -9000000000000), kwargs = {})
    %c : [num_users=1] = call_function[target=torch.ops.aten.fill.Tensor](args = (%i, %v), kwargs = {})
    %d : [num_users=1] = call_function[target=torch.ops.aten.fill.Tensor](args = (%x, %v), kwargs = {})
    %e : [num_users=1] = call_function[target=torch.ops.aten.fill.Scalar](args = (%x, True), kwargs = {})
)";
  std::string text = graphText({"i: i64[3, 5][1, 3]cpu", "v: f32[][]cpu", "x: b8[2, 2][2, 1]cpu"},
                               body, "a, b, c, d, e");
  auto inputs = values({fromValues({3, 5}, std::vector<double>(15, 4), DType::Int64),
                        fromValues({}, {-3.75}), fromValues({2, 2}, {0, 1, 0, 1}, DType::Bool)});
  expectAgrees(text, {}, &inputs);
  LoopRun r = runLoops(text, inputs);
  ASSERT_EQ(r.outputs.size(), 5u);
  expectValues(*r.outputs[0].tensor(), std::vector<double>(15, 2), 0);
  expectValues(*r.outputs[1].tensor(), std::vector<double>(15, -9e12), 0);
  expectValues(*r.outputs[2].tensor(), std::vector<double>(15, -3), 0); // truncated
  expectValues(*r.outputs[3].tensor(), std::vector<double>(4, 1), 0);   // non-zero: true
  EXPECT_EQ(stridesText(r.strides[0]), "[1, 3]");
}

// ---- Copies ----

TEST(CreationNormLowering, ToCopyConvertsAsATenDoes) {
  std::string body =
      R"(    %a : [num_users=1] = call_function[target=torch.ops.aten._to_copy.default](args = (%x,), kwargs = {dtype: torch.int32})
    %b : [num_users=1] = call_function[target=torch.ops.aten._to_copy.default](args = (%x,), kwargs = {dtype: torch.bool})
    %c : [num_users=1] = call_function[target=torch.ops.aten._to_copy.default](args = (%x,), kwargs = {dtype: torch.float16, memory_format: torch.contiguous_format})
    %d : [num_users=1] = call_function[target=torch.ops.aten._to_copy.default](args = (%x,), kwargs = {dtype: torch.int64})
    %e : [num_users=1] = call_function[target=torch.ops.aten._to_copy.default](args = (%b,), kwargs = {dtype: torch.float32})
    %f : [num_users=1] = call_function[target=torch.ops.aten._to_copy.default](args = (%x,), kwargs = {dtype: torch.float64, layout: torch.strided, device: cpu})
)";
  std::string text = graphText({"x: f32[2, 4][1, 2]cpu"}, body, "a, b, c, d, e, f");
  auto inputs = values(
      {permuted(fromValues({4, 2}, {-2.7, 3.9, 0.0, -0.0, 1e3, -1e-3, 200.5, 7.5}), {1, 0})});
  expectAgrees(text, {}, &inputs);
  LoopRun r = runLoops(text, inputs);
  ASSERT_EQ(r.outputs.size(), 6u);
  // Row-major over the [2, 4] result: x is the transpose of the [4, 2] values.
  expectValues(*r.outputs[0].tensor(), {-2, 0, 1000, 200, 3, 0, 0, 7}, 0);
  expectValues(*r.outputs[1].tensor(), {1, 0, 1, 1, 1, 0, 1, 1}, 0);
  expectValues(*r.outputs[3].tensor(), {-2, 0, 1000, 200, 3, 0, 0, 7}, 0);
  expectValues(*r.outputs[4].tensor(), {1, 0, 1, 1, 1, 0, 1, 1}, 0);
  EXPECT_EQ(stridesText(r.strides[0]), "[1, 2]"); // preserve_format keeps x's strides
  EXPECT_EQ(stridesText(r.strides[2]), "[4, 1]");
}

TEST(CreationNormLowering, CopyBroadcastsAndConverts) {
  std::string body =
      R"(    %c : [num_users=1] = call_function[target=torch.ops.aten.copy.default](args = (%self, %src), kwargs = {})
    %l : [num_users=1] = call_function[target=torch.ops.aten.lift_fresh_copy.default](args = (%self,), kwargs = {})
    %t : [num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%src, [1, 0]), kwargs = {})
    %c2 : [num_users=1] = call_function[target=torch.ops.aten.copy.default](args = (%self2, %t), kwargs = {})
)";
  std::string text = graphText(
      {"self: i32[2, 3, 4][1, 8, 2]cpu", "src: f32[3, 1][1, 1]cpu", "self2: f16[1, 3][3, 1]cpu"},
      body, "c, l, c2");
  auto inputs =
      values({fromValues({2, 3, 4}, std::vector<double>(24, 5), DType::Int32),
              fromValues({3, 1}, {-1.5, 2.5, 1e9}), fromValues({1, 3}, {0, 0, 0}, DType::Float16)});
  // The inputs' strides are what the placeholders declare.
  inputs[0] = RuntimeValue{
      permuted(fromValues({4, 3, 2}, std::vector<double>(24, 5), DType::Int32), {2, 1, 0})};
  expectAgrees(text, {}, &inputs);
  LoopRun r = runLoops(text, inputs);
  ASSERT_EQ(r.outputs.size(), 3u);
  std::vector<double> expected;
  for (int i = 0; i < 2; ++i)
    for (double v : {-1.0, 2.0, 1e9})
      for (int k = 0; k < 4; ++k)
        expected.push_back(v);
  expectValues(*r.outputs[0].tensor(), expected, 0);
  EXPECT_EQ(stridesText(r.strides[0]), "[1, 8, 2]");
  EXPECT_EQ(stridesText(r.strides[1]), "[12, 4, 1]");
}

TEST(CreationNormLowering, ViewCopies) {
  std::string body =
      R"(    %a : [num_users=1] = call_function[target=torch.ops.aten.as_strided_copy.default](args = (%x, [3, 2], [1, 5], 2), kwargs = {})
    %b : [num_users=1] = call_function[target=torch.ops.aten.diagonal_copy.default](args = (%x, 1), kwargs = {})
    %c : [num_users=1] = call_function[target=torch.ops.aten.diagonal_copy.default](args = (%y, -1, 2, 0), kwargs = {})
    %d : [num_users=1] = call_function[target=torch.ops.aten.squeeze_copy.default](args = (%y,), kwargs = {})
    %e : [num_users=1] = call_function[target=torch.ops.aten.squeeze_copy.dim](args = (%y, 1), kwargs = {})
    %f : [num_users=1] = call_function[target=torch.ops.aten.squeeze_copy.dims](args = (%y, [1, 3]), kwargs = {})
    %g : [num_users=1] = call_function[target=torch.ops.aten.as_strided_copy.default](args = (%x, [2, 2], [5, 1]), kwargs = {})
)";
  std::string text = graphText({"x: f32[4, 5][5, 1]cpu", "y: f32[3, 1, 4, 1][1, 3, 3, 12]cpu"},
                               body, "a, b, c, d, e, f, g");
  expectAgrees(text);
  std::vector<double> xs;
  for (int i = 0; i < 20; ++i)
    xs.push_back(i);
  auto inputs = values({fromValues({4, 5}, xs), fromValues({3, 1, 4, 1}, std::vector<double>(12))});
  inputs[1] =
      RuntimeValue{permuted(fromValues({1, 4, 1, 3}, std::vector<double>(12, 1)), {3, 2, 1, 0})};
  LoopRun r = runLoops(text, inputs);
  ASSERT_EQ(r.outputs.size(), 7u);
  expectValues(*r.outputs[0].tensor(), {2, 7, 3, 8, 4, 9}, 0);
  expectValues(*r.outputs[1].tensor(), {1, 7, 13, 19}, 0);
  expectValues(*r.outputs[6].tensor(), {0, 1, 5, 6}, 0);
  EXPECT_EQ(r.outputs[3].tensor()->sizes(), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(r.outputs[5].tensor()->sizes(), (std::vector<int64_t>{3, 4}));
}

// ---- softmax ----

/// A [3, 4, 5] input with a -inf row along each dim, a row of -inf only, and a NaN.
Tensor softmaxInput(DType dtype) {
  std::vector<double> v;
  for (int i = 0; i < 60; ++i)
    v.push_back(std::sin(i * 1.3) * 4);
  for (int k = 0; k < 5; ++k)
    v[k] = -kInf; // [0, 0, :] all -inf
  v[5 * 1 + 20 * 1] = -kInf;
  v[5 * 2 + 20 * 2 + 3] = -kInf;
  v[5 * 3 + 2] = kNaN;
  return fromValues({3, 4, 5}, v, dtype);
}

TEST(CreationNormLowering, SoftmaxOverEachDimWithInfiniteRows) {
  for (const char *dtype : {"f32", "f64", "f16"}) {
    for (int dim : {0, 1, 2, -1}) {
      std::string d = std::to_string(dim);
      std::string body = "    %s : [num_users=1] = "
                         "call_function[target=torch.ops.aten._softmax.default](args = (%x, " +
                         d +
                         ", False), kwargs = {})\n    %l : [num_users=1] = "
                         "call_function[target=torch.ops.aten._log_softmax.default](args = (%x, " +
                         d + ", False), kwargs = {})\n";
      std::string text =
          graphText({std::string("x: ") + dtype + "[3, 4, 5][20, 5, 1]cpu"}, body, "s, l");
      DType dt = dtype == std::string("f32")   ? DType::Float32
                 : dtype == std::string("f64") ? DType::Float64
                                               : DType::Float16;
      auto inputs = values({softmaxInput(dt)});
      expectAgrees(text, {}, &inputs);
      EXPECT_EQ(lowerCounts(text).reduction, 2); // one online-softmax pass per node
    }
  }
  // By hand: a row of -inf gives NaN, softmax([0, log 3]) = [1/4, 3/4].
  std::string body =
      R"(    %s : [num_users=1] = call_function[target=torch.ops.aten._softmax.default](args = (%x, 1, False), kwargs = {})
)";
  std::string text = graphText({"x: f32[2, 2][2, 1]cpu"}, body, "s");
  LoopRun r = runLoops(text, values({fromValues({2, 2}, {-kInf, -kInf, 0, std::log(3.0)})}));
  ASSERT_EQ(r.outputs.size(), 1u);
  expectValues(*r.outputs[0].tensor(), {kNaN, kNaN, 0.25, 0.75});
}

TEST(CreationNormLowering, SoftmaxHalfToFloatNonContiguousAndSymbolic) {
  std::string half =
      R"(    %s : [num_users=1] = call_function[target=torch.ops.aten._softmax.default](args = (%x, 0, True), kwargs = {})
    %l : [num_users=1] = call_function[target=torch.ops.aten._log_softmax.default](args = (%x, 1, True), kwargs = {})
)";
  expectAgrees(graphText({"x: f16[6, 9][1, 6]cpu"}, half, "s, l"));
  std::string sym =
      R"(    %s : [num_users=1] = call_function[target=torch.ops.aten._softmax.default](args = (%x, -1, False), kwargs = {})
    %l : [num_users=1] = call_function[target=torch.ops.aten._log_softmax.default](args = (%x, 0, False), kwargs = {})
)";
  expectAgrees(graphText({"x: f32[s0, s1][1, s0]cpu"}, sym, "s, l"), {{"s0", 7}, {"s1", 33}});
  std::string scalar =
      R"(    %s : [num_users=1] = call_function[target=torch.ops.aten._softmax.default](args = (%x, 0, False), kwargs = {})
)";
  expectAgrees(graphText({"x: f32[][]cpu"}, scalar, "s"));
}

TEST(CreationNormLowering, SoftmaxBackward) {
  for (const char *types : {"f32", "f16"}) {
    std::string t = types;
    std::string input = t == "f16" ? "torch.float16" : "torch.float32";
    std::string body =
        "    %s : [num_users=1] = "
        "call_function[target=torch.ops.aten._softmax_backward_data.default](args = (%g, %y, 1, " +
        input +
        "), kwargs = {})\n    %l : [num_users=1] = "
        "call_function[target=torch.ops.aten._log_softmax_backward_data.default](args = (%g, %y, "
        "0, " +
        input + "), kwargs = {})\n";
    expectAgrees(
        graphText({"g: " + t + "[5, 12][12, 1]cpu", "y: " + t + "[5, 12][1, 5]cpu"}, body, "s, l"));
  }
  // Gradients in float32 of a float16 softmax (input_dtype converts the result).
  std::string mixed =
      R"(    %s : [num_users=1] = call_function[target=torch.ops.aten._softmax_backward_data.default](args = (%g, %y, -1, torch.float16), kwargs = {})
)";
  expectAgrees(graphText({"g: f32[s0, 8][8, 1]cpu", "y: f32[s0, 8][8, 1]cpu"}, mixed, "s"),
               {{"s0", 5}});
}

// ---- Normalisations ----

TEST(CreationNormLowering, LayerNorm) {
  const std::string ln = "torch.ops.aten.native_layer_norm.default";
  auto layerNorm = [&](const std::string &args) {
    return "    %ln : [num_users=3] = call_function[target=" + ln + "](args = (" + args +
           "), kwargs = {})\n"
           "    %o : [num_users=1] = call_function[target=operator.getitem](args = (%ln, 0), "
           "kwargs = {})\n"
           "    %m : [num_users=1] = call_function[target=operator.getitem](args = (%ln, 1), "
           "kwargs = {})\n"
           "    %r : [num_users=1] = call_function[target=operator.getitem](args = (%ln, 2), "
           "kwargs = {})\n";
  };
  // Weight and bias, either, neither; two normalised dims; a transposed input.
  expectAgrees(graphText({"x: f32[3, 5, 8][40, 8, 1]cpu", "w: f32[8][1]cpu", "b: f32[8][1]cpu"},
                         layerNorm("%x, [8], %w, %b, 1e-05"), "o, m, r"));
  expectAgrees(graphText({"x: f32[3, 5, 8][1, 24, 3]cpu", "w: f32[5, 8][8, 1]cpu"},
                         layerNorm("%x, [5, 8], %w, None, 1e-05"), "o, m, r"));
  expectAgrees(graphText({"x: f32[4, 6][6, 1]cpu", "b: f32[6][1]cpu"},
                         layerNorm("%x, [6], None, %b, 0.1"), "o, m, r"));
  expectAgrees(
      graphText({"x: f64[4, 6][1, 4]cpu"}, layerNorm("%x, [4, 6], None, None, 1e-05"), "o, m, r"));
  // float16: computed in float32, results converted.
  expectAgrees(graphText({"x: f16[7, 16][16, 1]cpu", "w: f16[16][1]cpu", "b: f16[16][1]cpu"},
                         layerNorm("%x, [16], %w, %b, 1e-05"), "o, m, r"));
  // Symbolic rows and row length.
  expectAgrees(
      graphText(
          {"x: f32[s0, s1][s1, 1]cpu", "w: f32[s1][1]cpu", "b: f32[s1][1]cpu"},
          layerNorm("%x, [%n], %w, %b, 1e-05")
              .insert(
                  0,
                  "    %n : [num_users=1] = call_function[target=torch.ops.aten.sym_size.int](args "
                  "= (%x, 1), kwargs = {})\n"),
          "o, m, r"),
      {{"s0", 5}, {"s1", 37}});
  // By hand: [1, 3] normalises to [-1, 1] (mean 2, biased variance 1).
  LoopRun r = runLoops(
      graphText({"x: f32[1, 2][2, 1]cpu"}, layerNorm("%x, [2], None, None, 0.0"), "o, m, r"),
      values({fromValues({1, 2}, {1, 3})}));
  ASSERT_EQ(r.outputs.size(), 3u);
  expectValues(*r.outputs[0].tensor(), {-1, 1});
  expectValues(*r.outputs[1].tensor(), {2});
  expectValues(*r.outputs[2].tensor(), {1});
  EXPECT_EQ(r.outputs[1].tensor()->sizes(), (std::vector<int64_t>{1, 1}));
}

std::string getitems(const std::string &node, int count) {
  std::string out;
  for (int i = 0; i < count; ++i)
    out += "    %" + node + std::to_string(i) +
           " : [num_users=1] = call_function[target=operator.getitem](args = (%" + node + ", " +
           std::to_string(i) + "), kwargs = {})\n";
  return out;
}

TEST(CreationNormLowering, GroupNorm) {
  auto groupNorm = [](const std::string &args) {
    return "    %gn : [num_users=3] = "
           "call_function[target=torch.ops.aten.native_group_norm.default](args = (" +
           args + "), kwargs = {})\n" + getitems("gn", 3);
  };
  expectAgrees(
      graphText({"x: f32[2, 6, 3, 5][90, 15, 5, 1]cpu", "w: f32[6][1]cpu", "b: f32[6][1]cpu"},
                groupNorm("%x, %w, %b, 2, 6, 15, 3, 1e-05"), "gn0, gn1, gn2"));
  // channels_last input (the result keeps its layout), no weight; one group; a group per
  // channel; a 2-d input.
  expectAgrees(graphText({"x: f32[2, 6, 3, 5][90, 1, 30, 6]cpu", "b: f32[6][1]cpu"},
                         groupNorm("%x, None, %b, 2, 6, 15, 2, 1e-05"), "gn0, gn1, gn2"));
  expectAgrees(graphText({"x: f32[3, 4, 7][28, 7, 1]cpu"},
                         groupNorm("%x, None, None, 3, 4, 7, 1, 1e-05"), "gn0, gn1, gn2"));
  expectAgrees(graphText({"x: f32[3, 4, 7][28, 7, 1]cpu", "w: f32[4][1]cpu"},
                         groupNorm("%x, %w, None, 3, 4, 7, 4, 1e-05"), "gn0, gn1, gn2"));
  expectAgrees(graphText({"x: f64[5, 8][8, 1]cpu", "w: f64[8][1]cpu", "b: f64[8][1]cpu"},
                         groupNorm("%x, %w, %b, 5, 8, 1, 4, 0.001"), "gn0, gn1, gn2"));
  expectAgrees(graphText({"x: f16[2, 4, 9][36, 9, 1]cpu", "w: f16[4][1]cpu", "b: f16[4][1]cpu"},
                         groupNorm("%x, %w, %b, 2, 4, 9, 2, 1e-05"), "gn0, gn1, gn2"));
  // A symbolic batch.
  std::string sym =
      "    %n : [num_users=1] = call_function[target=torch.ops.aten.sym_size.int](args = (%x, 0), "
      "kwargs = {})\n" +
      groupNorm("%x, %w, %b, %n, 6, 4, 3, 1e-05");
  expectAgrees(graphText({"x: f32[s0, 6, 4][24, 4, 1]cpu", "w: f32[6][1]cpu", "b: f32[6][1]cpu"},
                         sym, "gn0, gn1, gn2"),
               {{"s0", 3}});
  // The normalised result fuses with the statistics' reduction (same rows).
  auto graph =
      parseFxText(graphText({"x: f32[2, 6, 3, 5][90, 15, 5, 1]cpu"},
                            groupNorm("%x, None, None, 2, 6, 15, 3, 1e-05"), "gn0, gn1, gn2"),
                  "<test>");
  ASSERT_TRUE(graph);
  ASSERT_TRUE(inferShapes(*graph));
  auto program = lowerGraph(*graph);
  ASSERT_TRUE(program) << program.error().str();
  auto fused = fuseLoopProgram(*program);
  ASSERT_TRUE(fused) << fused.error().str();
  EXPECT_EQ(fused->kernels.size(), 1u);
}

TEST(CreationNormLowering, BatchNorm) {
  auto call = [](const std::string &target, const std::string &args, int results) {
    return "    %bn : [num_users=" + std::to_string(results) +
           "] = call_function[target=torch.ops.aten." + target + "](args = (" + args +
           "), kwargs = {})\n" + getitems("bn", results);
  };
  std::vector<std::string> params = {"x: f32[4, 3, 5, 2][30, 10, 2, 1]cpu", "w: f32[3][1]cpu",
                                     "b: f32[3][1]cpu", "rm: f32[3][1]cpu", "rv: f32[3][1]cpu"};
  // Evaluation: the running statistics (made positive: a variance).
  std::string eval =
      "    %v : [num_users=1] = call_function[target=torch.ops.aten.abs.default](args = (%rv,), "
      "kwargs = {})\n";
  expectAgrees(graphText(params,
                         eval + call("_native_batch_norm_legit_no_training.default",
                                     "%x, %w, %b, %rm, %v, 0.1, 1e-05", 3),
                         "bn0, bn1, bn2"));
  expectAgrees(
      graphText(params,
                eval +
                    call("_native_batch_norm_legit_no_training.default",
                         "%x, None, None, %rm, %v, 0.1, 1e-05", 3) +
                    "    %u : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args "
                    "= (%w, %b), kwargs = {})\n",
                "bn0, u"));
  expectAgrees(graphText(params,
                         eval + call("_native_batch_norm_legit.default",
                                     "%x, %w, None, %rm, %v, False, 0.1, 1e-05", 3),
                         "bn0, bn1, bn2"));
  // Training: batch statistics; no running statistics, or updated ones (functional).
  expectAgrees(
      graphText({"x: f32[4, 3, 5, 2][30, 1, 6, 3]cpu", "w: f32[3][1]cpu", "b: f32[3][1]cpu"},
                call("_native_batch_norm_legit.no_stats", "%x, %w, %b, True, 0.1, 1e-05", 3),
                "bn0, bn1, bn2"));
  expectAgrees(graphText(params,
                         call("_native_batch_norm_legit_functional.default",
                              "%x, %w, %b, %rm, %rv, True, 0.1, 1e-05", 5),
                         "bn0, bn1, bn2, bn3, bn4"));
  expectAgrees(graphText(params,
                         eval + call("_native_batch_norm_legit_functional.default",
                                     "%x, None, %b, %rm, %v, False, 0.1, 1e-05", 5),
                         "bn0, bn1, bn2, bn3, bn4"));
  expectAgrees(
      graphText({"x: f16[6, 4][4, 1]cpu", "w: f16[4][1]cpu", "b: f16[4][1]cpu"},
                call("_native_batch_norm_legit.no_stats", "%x, %w, %b, True, 0.1, 1e-05", 3),
                "bn0, bn1, bn2"));
  expectAgrees(graphText({"x: f32[s0, 3, 7][21, 7, 1]cpu", "rm: f32[3][1]cpu", "rv: f32[3][1]cpu"},
                         call("_native_batch_norm_legit_functional.default",
                              "%x, None, None, %rm, %rv, True, 0.3, 1e-05", 5),
                         "bn0, bn1, bn2, bn3, bn4"),
               {{"s0", 6}});
  // Training that updates running_mean/var in place stays an extern call.
  OpCounts c = lowerCounts(graphText(
      params, call("_native_batch_norm_legit.default", "%x, %w, %b, %rm, %rv, True, 0.1, 1e-05", 3),
      "bn0, bn1, bn2"));
  EXPECT_EQ(c.externs, 1);
  // By hand: channel values [1, 3] (training) normalise to [-1, 1]; the running variance takes
  // the unbiased variance 2: 0.5 * 2 + 0.5 * 1 = 1.5.
  LoopRun r =
      runLoops(graphText({"x: f32[2, 1][1, 1]cpu", "rm: f32[1][1]cpu", "rv: f32[1][1]cpu"},
                         call("_native_batch_norm_legit_functional.default",
                              "%x, None, None, %rm, %rv, True, 0.5, 0.0", 5),
                         "bn0, bn1, bn2, bn3, bn4"),
               values({fromValues({2, 1}, {1, 3}), fromValues({1}, {0}), fromValues({1}, {1})}));
  ASSERT_EQ(r.outputs.size(), 5u);
  expectValues(*r.outputs[0].tensor(), {-1, 1});
  expectValues(*r.outputs[1].tensor(), {2});
  expectValues(*r.outputs[3].tensor(), {1});
  expectValues(*r.outputs[4].tensor(), {1.5});
}

} // namespace

namespace {

/// A backward's output_mask as Python text ("True, False, True"), the getitem lines that take
/// each output it asks for from node %n, and their names as a returned tuple ("o0, o2, ").
struct MaskedOutputs {
  std::string maskText, getitems, outputs;
};

MaskedOutputs maskedOutputs(const std::vector<bool> &mask) {
  MaskedOutputs m;
  for (size_t i = 0; i < mask.size(); ++i) {
    m.maskText += std::string(i ? ", " : "") + (mask[i] ? "True" : "False");
    if (!mask[i])
      continue;
    std::string o = "o" + std::to_string(i);
    m.getitems += "    %" + o +
                  " : [num_users=1] = call_function[target=operator.getitem](args = (%n, " +
                  std::to_string(i) + "), kwargs = {})\n";
    m.outputs += o + ", ";
  }
  return m;
}

/// A norm backward's graph `text` agrees with the reference interpreter on the loop
/// interpreter, OpenCL and LLVM, and lowers to loops only.
void expectBackwardAgrees(const std::string &text) {
  SCOPED_TRACE(text);
  DifferentialOptions options;
  options.llvm = true;
  options.formats = false;
  auto failure = checkGraphDifferentially(text, {}, options);
  EXPECT_FALSE(failure) << diffStageName(failure->stage) << ": " << failure->message;
  expectLowersToLoops(text);
}

/// native_layer_norm_backward lowers to row sums, column sums and a pointwise op (no extern)
/// and agrees on every backend, for each output_mask, with and without weight, over a
/// transposed input.
TEST(CreationNormLowering, LayerNormBackwardEveryMask) {
  struct Case {
    std::vector<bool> mask;
    bool weight;
  };
  for (const Case &c : {Case{{true, true, true}, true}, Case{{true, false, false}, true},
                        Case{{false, true, true}, true}, Case{{true, false, true}, false}}) {
    auto [maskText, getitems, outputs] = maskedOutputs(c.mask);
    std::string text = std::string(R"(graph():
    %g : Tensor "f32[3, 4, 5][20, 5, 1]cpu"[num_users=1] = placeholder[target=g]
    %x : Tensor "f32[3, 4, 5][20, 5, 1]cpu"[num_users=1] = placeholder[target=x]
    %m : Tensor "f32[3, 1, 1][1, 1, 1]cpu"[num_users=1] = placeholder[target=m]
    %r : Tensor "f32[3, 1, 1][1, 1, 1]cpu"[num_users=1] = placeholder[target=r]
    %w : Tensor "f32[4, 5][5, 1]cpu"[num_users=)") +
                       (c.weight ? "1" : "0") + R"(] = placeholder[target=w]
    %b : Tensor "f32[4, 5][5, 1]cpu"[num_users=1] = placeholder[target=b]
    %n : [num_users=3] = call_function[target=torch.ops.aten.native_layer_norm_backward.default](args = (%g, %x, [4, 5], %m, %r, )" +
                       (c.weight ? "%w" : "None") + ", %b, [" + maskText + R"(]), kwargs = {})
)" + getitems + "    return (" +
                       outputs + ")\n";
    expectBackwardAgrees(text);
  }
}

/// native_group_norm_backward: channel, group and batch sums and the pointwise dX, for each
/// output_mask, with and without weight (4 channels in 2 groups, 2-d spatial points).
TEST(CreationNormLowering, GroupNormBackwardEveryMask) {
  struct Case {
    std::vector<bool> mask;
    bool weight;
  };
  for (const Case &c : {Case{{true, true, true}, true}, Case{{true, false, false}, false},
                        Case{{false, true, true}, true}}) {
    auto [maskText, getitems, outputs] = maskedOutputs(c.mask);
    std::string text = std::string(R"(graph():
    %g : Tensor "f32[2, 4, 3, 2][24, 6, 2, 1]cpu"[num_users=1] = placeholder[target=g]
    %x : Tensor "f32[2, 4, 3, 2][24, 6, 2, 1]cpu"[num_users=1] = placeholder[target=x]
    %m : Tensor "f32[2, 2][2, 1]cpu"[num_users=1] = placeholder[target=m]
    %r : Tensor "f32[2, 2][2, 1]cpu"[num_users=1] = placeholder[target=r]
    %w : Tensor "f32[4][1]cpu"[num_users=)") +
                       (c.weight ? "1" : "0") + R"(] = placeholder[target=w]
    %n : [num_users=3] = call_function[target=torch.ops.aten.native_group_norm_backward.default](args = (%g, %x, %m, %r, )" +
                       (c.weight ? "%w" : "None") + ", 2, 4, 6, 2, [" + maskText +
                       R"(]), kwargs = {})
)" + getitems + "    return (" +
                       outputs + ")\n";
    expectBackwardAgrees(text);
  }
}

} // namespace
