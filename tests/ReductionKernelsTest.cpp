/// Reference kernels of the reductions (sum, mean, amax, amin, var_mean,
/// prims.prepare_softmax_online), run through the interpreter on one-op and small multi-op
/// graphs. Expected values are worked out by hand (or by closed formulas over the input's
/// values), never by the kernel's own loops.

#include "InterpreterTestSupport.h"

#include <cmath>
#include <limits>

using namespace fxkit;
using namespace fxkit::testing;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// A one-op graph over a single placeholder `x`: `target(x, args...)` with kwargs.
std::string unary(const std::string &target, const std::string &args = "",
                  const std::string &kwargs = "{}") {
  return oneOpGraph({"x"}, target + "](args = (%x" + (args.empty() ? "," : ", " + args) +
                               "), kwargs = " + kwargs + ")");
}

/// 2x3 float32 [[1, 2, 3], [4, 5, 6]].
Tensor small() { return fromValues({2, 3}, {1, 2, 3, 4, 5, 6}); }

/// Runs a one-op graph that must fail and returns the message (which must name node `r`).
std::string errorOf(const std::string &text, const std::vector<Tensor> &inputs) {
  std::vector<RuntimeValue> values;
  for (const Tensor &t : inputs)
    values.push_back(RuntimeValue{t});
  auto r = runText(text, values);
  if (r) {
    ADD_FAILURE() << "expected an error";
    return "";
  }
  std::string message = r.error().message;
  EXPECT_NE(message.find("node 'r'"), std::string::npos) << message;
  return message;
}

/// The two tensors of a multi-result output.
std::pair<Tensor, Tensor> runPair(const std::string &text, const Tensor &x) {
  auto r = runText(text, {RuntimeValue{x}});
  EXPECT_TRUE(r) << (r ? "" : r.error().str());
  if (!r || r->outputs.size() != 1 || !r->outputs[0].tensors() ||
      r->outputs[0].tensors()->size() != 2) {
    ADD_FAILURE() << "expected one output of two tensors";
    return {};
  }
  const auto &ts = *r->outputs[0].tensors();
  return {*ts[0], *ts[1]};
}

const std::string kSumDim = "torch.ops.aten.sum.dim_IntList";
const std::string kMeanDim = "torch.ops.aten.mean.dim";
const std::string kAmax = "torch.ops.aten.amax.default";
const std::string kAmin = "torch.ops.aten.amin.default";
const std::string kVarMean = "torch.ops.aten.var_mean.correction";
const std::string kSoftmax = "torch.ops.prims.prepare_softmax_online.default";

TEST(ReductionKernels, SumOverDims) {
  Tensor x = small();
  Tensor rows = runSingle(unary(kSumDim, "[1]"), {x});
  EXPECT_EQ(rows.sizes(), (std::vector<int64_t>{2}));
  expectValues(rows, {6, 15});
  // Negative dim with keepdim: the reduced dim stays with size 1.
  Tensor cols = runSingle(unary(kSumDim, "[-2], True"), {x});
  EXPECT_EQ(cols.sizes(), (std::vector<int64_t>{1, 3}));
  expectValues(cols, {5, 7, 9});
  // None and [] reduce every dim.
  for (const char *dims : {"None", "[]"}) {
    Tensor all = runSingle(unary(kSumDim, dims), {x});
    EXPECT_EQ(all.dim(), 0);
    expectValues(all, {21});
  }
  Tensor both = runSingle(unary(kSumDim, "[0, -1], True"), {x});
  EXPECT_EQ(both.sizes(), (std::vector<int64_t>{1, 1}));
  expectValues(both, {21});
  expectValues(runSingle(unary("torch.ops.aten.sum.default"), {x}), {21});
}

TEST(ReductionKernels, SumDtypes) {
  // Integers and bools sum to int64.
  Tensor ints = fromValues({2, 3}, {1, -2, 3, 4, 5, -6}, DType::Int32);
  Tensor s = runSingle(unary(kSumDim, "[1]"), {ints});
  EXPECT_EQ(s.dtype(), DType::Int64);
  expectValues(s, {2, 3});
  Tensor flags = fromValues({4}, {1, 0, 1, 1}, DType::Bool);
  Tensor count = runSingle(unary("torch.ops.aten.sum.default"), {flags});
  EXPECT_EQ(count.dtype(), DType::Int64);
  expectValues(count, {3});
  // dtype= converts: an int32 input summed as float64.
  Tensor f = runSingle(unary(kSumDim, "[0]", "{dtype: torch.float64}"), {ints});
  EXPECT_EQ(f.dtype(), DType::Float64);
  expectValues(f, {5, 3, -3});
  // float16 results are rounded once from the double accumulator: 2048 + 1 + 1 is 2050
  // (a float16 running sum would stay at 2048).
  Tensor halves = fromValues({3}, {2048, 1, 1}, DType::Float16);
  expectValues(runSingle(unary("torch.ops.aten.sum.default"), {halves}), {2050});
}

TEST(ReductionKernels, IntegerSumIsExactBeyond2To53) {
  auto x = Tensor::zeros(DType::Int64, {3});
  ASSERT_TRUE(x);
  int64_t big = (int64_t(1) << 53) + 1; // not a double
  x->storeInt(0, big);
  x->storeInt(1, big);
  x->storeInt(2, 1);
  Tensor s = runSingle(unary("torch.ops.aten.sum.default"), {*x});
  EXPECT_EQ(s.getInt({}), (int64_t(1) << 54) + 3);
}

TEST(ReductionKernels, MeanOverDims) {
  Tensor x = small();
  expectValues(runSingle(unary(kMeanDim, "[1]"), {x}), {2, 5});
  Tensor keep = runSingle(unary(kMeanDim, "[-2], True"), {x});
  EXPECT_EQ(keep.sizes(), (std::vector<int64_t>{1, 3}));
  expectValues(keep, {2.5, 3.5, 4.5});
  expectValues(runSingle(unary(kMeanDim, "None"), {x}), {3.5});
  expectValues(runSingle(unary("torch.ops.aten.mean.default"), {x}), {3.5});
  // An integer input needs dtype=.
  Tensor ints = fromValues({4}, {1, 2, 3, 5}, DType::Int64);
  expectValues(runSingle(unary(kMeanDim, "[0]", "{dtype: torch.float32}"), {ints}), {2.75});
  EXPECT_NE(errorOf(unary(kMeanDim, "[0]"), {ints}).find("floating"), std::string::npos);
  // The mean of nothing is NaN; the sum of nothing is 0.
  auto empty = Tensor::zeros(DType::Float32, {2, 0});
  ASSERT_TRUE(empty);
  expectValues(runSingle(unary(kMeanDim, "[1]"), {*empty}), {kNaN, kNaN});
  expectValues(runSingle(unary(kSumDim, "[1]"), {*empty}), {0, 0});
}

TEST(ReductionKernels, PermutedInput) {
  // base[i][j][k] = 12i + 4j + k; the view v[k][i][j] = base[i][j][k] has strides [1, 12, 4].
  std::vector<double> values(24);
  for (int i = 0; i < 24; ++i)
    values[i] = i;
  Tensor base = fromValues({2, 3, 4}, values);
  Tensor v = permuted(base, {2, 0, 1});
  ASSERT_FALSE(v.isContiguous());
  // Sum over v's dim 1 (base's i): r[k][j] = (4j + k) + (12 + 4j + k) = 12 + 8j + 2k.
  Tensor s = runSingle(unary(kSumDim, "[1]"), {v});
  EXPECT_EQ(s.sizes(), (std::vector<int64_t>{4, 3}));
  std::vector<double> expected;
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 3; ++j)
      expected.push_back(12 + 8 * j + 2 * k);
  expectValues(s, expected);
  // amax over v's dims -1 and 0 (base's j and k): base[i][2][3] = 12i + 11.
  expectValues(runSingle(unary(kAmax, "[-1, 0]"), {v}), {11, 23});
  // mean over v's last dim (base's j): 12i + 4 + k, laid out [k][i].
  expectValues(runSingle(unary(kMeanDim, "[2]"), {v}), {4, 16, 5, 17, 6, 18, 7, 19});
}

TEST(ReductionKernels, AmaxAmin) {
  Tensor x = fromValues({2, 3}, {3, -1, 7, -5, 2, 0});
  expectValues(runSingle(unary(kAmax, "[1]"), {x}), {7, 2});
  expectValues(runSingle(unary(kAmin, "[-1]"), {x}), {-1, -5});
  Tensor keep = runSingle(unary(kAmin, "[0], True"), {x});
  EXPECT_EQ(keep.sizes(), (std::vector<int64_t>{1, 3}));
  expectValues(keep, {-5, -1, 0});
  // The default dim=[] reduces everything.
  expectValues(runSingle(unary(kAmax), {x}), {7});
  expectValues(runSingle(unary(kAmin, "[]"), {x}), {-5});
  // Integers compare exactly.
  auto big = Tensor::zeros(DType::Int64, {2});
  ASSERT_TRUE(big);
  big->storeInt(0, (int64_t(1) << 60) + 1);
  big->storeInt(1, (int64_t(1) << 60));
  EXPECT_EQ(runSingle(unary(kAmax, "[0]"), {*big}).getInt({}), (int64_t(1) << 60) + 1);
  EXPECT_EQ(runSingle(unary(kAmin, "[0]"), {*big}).getInt({}), int64_t(1) << 60);
}

TEST(ReductionKernels, AmaxPropagatesNaN) {
  Tensor x = fromValues({2, 3}, {1, kNaN, 3, -kInf, 2, kInf});
  expectValues(runSingle(unary(kAmax, "[1]"), {x}), {kNaN, kInf});
  expectValues(runSingle(unary(kAmin, "[1]"), {x}), {kNaN, -kInf});
  expectValues(runSingle(unary(kAmax, "[0]"), {x}), {1, kNaN, kInf});
  expectValues(runSingle(unary(kAmax), {x}), {kNaN});
}

TEST(ReductionKernels, VarMean) {
  Tensor x = fromValues({2, 4}, {1, 2, 3, 4, 2, 4, 6, 8});
  // Row 0: mean 2.5, squared deviations 2.25 + 0.25 + 0.25 + 2.25 = 5; row 1: mean 5, 20.
  auto [var1, mean1] = runPair(unary(kVarMean, "[1]"), x); // correction defaults to 1
  expectValues(var1, {5.0 / 3, 20.0 / 3});
  expectValues(mean1, {2.5, 5});
  auto [var0, mean0] = runPair(unary(kVarMean, "[-1]", "{correction: 0, keepdim: True}"), x);
  EXPECT_EQ(var0.sizes(), (std::vector<int64_t>{2, 1}));
  expectValues(var0, {1.25, 5});
  expectValues(mean0, {2.5, 5});
  // dim None: all 8 values, mean 30 / 8 = 3.75; squared deviations sum to 37.5.
  auto [varAll, meanAll] = runPair(unary(kVarMean, "None", "{correction: 1}"), x);
  EXPECT_EQ(varAll.dim(), 0);
  expectValues(varAll, {37.5 / 7});
  expectValues(meanAll, {3.75});
  // One element with correction 1: 0 / 0.
  auto [varOne, meanOne] = runPair(unary(kVarMean, "[0]"), fromValues({1, 2}, {4, 9}));
  expectValues(varOne, {kNaN, kNaN});
  expectValues(meanOne, {4, 9});
  // A permuted input: columns of the original.
  auto [varCols, meanCols] =
      runPair(unary(kVarMean, "[1]", "{correction: 0}"), permuted(x, {1, 0}));
  expectValues(meanCols, {1.5, 3, 4.5, 6});
  expectValues(varCols, {0.25, 1, 2.25, 4});
}

TEST(ReductionKernels, VarMeanThenGetitem) {
  // deep_mlp's layer norm pattern: var_mean, then getitem for each result.
  std::string text = R"(graph():
    %x : [num_users=1] = placeholder[target=x]
    %var_mean : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%x, [1]), kwargs = {correction: 0, keepdim: True})
    %getitem : [num_users=1] = call_function[target=operator.getitem](args = (%var_mean, 0), kwargs = {})
    %getitem_1 : [num_users=1] = call_function[target=operator.getitem](args = (%var_mean, -1), kwargs = {})
    return (getitem, getitem_1))";
  auto r = runText(text, {RuntimeValue{fromValues({2, 2}, {1, 3, 10, 20})}});
  ASSERT_TRUE(r) << r.error().str();
  ASSERT_EQ(r->outputs.size(), 2u);
  ASSERT_TRUE(r->outputs[0].tensor() && r->outputs[1].tensor());
  expectValues(*r->outputs[0].tensor(), {1, 25});
  expectValues(*r->outputs[1].tensor(), {2, 15});
}

TEST(ReductionKernels, PrepareSoftmaxOnline) {
  Tensor x = fromValues({3, 3}, {1, 2, 3, -kInf, -kInf, -kInf, 0, kNaN, 1});
  auto [max, sum] = runPair(unary(kSoftmax, "1"), x);
  EXPECT_EQ(max.sizes(), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(sum.sizes(), (std::vector<int64_t>{3, 1}));
  // Row 0: max 3, sum e^-2 + e^-1 + 1. Row 1 (all -inf): eager amax gives -inf and
  // exp(-inf - -inf) = exp(NaN), so the sum is NaN. Row 2: a NaN makes both NaN.
  expectValues(max, {3, -kInf, kNaN});
  expectValues(sum, {std::exp(-2.0) + std::exp(-1.0) + 1, kNaN, kNaN});
  // Along dim 0 with a negative dim, on a row with one -inf (which contributes 0).
  Tensor y = fromValues({2, 2}, {0, -kInf, std::log(3.0), 5});
  auto [colMax, colSum] = runPair(unary(kSoftmax, "-2"), y);
  EXPECT_EQ(colMax.sizes(), (std::vector<int64_t>{1, 2}));
  expectValues(colMax, {std::log(3.0), 5});
  expectValues(colSum, {1 + 1.0 / 3, 1}, 1e-6);
}

TEST(ReductionKernels, Errors) {
  Tensor x = small();
  EXPECT_NE(errorOf(unary(kSumDim, "[2]"), {x}).find("out of range"), std::string::npos);
  EXPECT_NE(errorOf(unary(kAmax, "[-3]"), {x}).find("out of range"), std::string::npos);
  std::string repeated = errorOf(unary(kSumDim, "[1, -1]"), {x});
  EXPECT_NE(repeated.find("multiple times"), std::string::npos) << repeated;
  EXPECT_NE(repeated.find("sum.dim_IntList"), std::string::npos) << repeated;
  auto empty = Tensor::zeros(DType::Float32, {2, 0});
  ASSERT_TRUE(empty);
  EXPECT_NE(errorOf(unary(kAmax, "[1]"), {*empty}).find("zero elements"), std::string::npos);
  EXPECT_NE(errorOf(unary(kSoftmax, "1"), {*empty}).find("zero elements"), std::string::npos);
  // amax along the non-empty dim of an empty tensor is fine (an empty result).
  EXPECT_EQ(runSingle(unary(kAmax, "[0]"), {*empty}).numel(), 0);
  Tensor ints = fromValues({2}, {1, 2}, DType::Int64);
  EXPECT_NE(errorOf(unary(kVarMean, "[0]"), {ints}).find("floating"), std::string::npos);
}

} // namespace
