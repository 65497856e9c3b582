/// The indexing family (ir/ops/IndexingOps.cpp, backends/interp/IndexingKernels.cpp): inference
/// (sizes, strides, dtypes and errors as PyTorch 2.11's FakeTensor records them, checked against
/// it op by op) and the reference kernels, against hand-worked values (several taken from eager
/// PyTorch 2.11 runs, which the comments name) on contiguous and strided inputs.

#include "InterpreterTestSupport.h"

#include "backends/interp/KernelContext.h"
#include "ir/Graph.h"
#include "ir/ops/OpRegistry.h"
#include "transforms/ShapeInference.h"

#include <cmath>
#include <limits>
#include <map>

using namespace fxkit;
using namespace fxkit::testing;

namespace {

using Sizes = std::vector<int64_t>;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// 0, 1, ..., n-1 in `sizes` (float32 unless told).
Tensor iota(const Sizes &sizes, DType dtype = DType::Float32, double from = 0) {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  std::vector<double> values;
  for (int64_t i = 0; i < n; ++i)
    values.push_back(from + static_cast<double>(i));
  return fromValues(sizes, values, dtype);
}

Tensor longs(const Sizes &sizes, const std::vector<double> &values) {
  return fromValues(sizes, values, DType::Int64);
}

Tensor bools(const Sizes &sizes, const std::vector<double> &values) {
  return fromValues(sizes, values, DType::Bool);
}

/// A graph of placeholders `names` and `r = aten.<target>(args)`, returning r.
std::string call(const std::vector<std::string> &names, const std::string &target,
                 const std::string &args, const std::string &kwargs = "{}") {
  return oneOpGraph(names, "torch.ops.aten." + target + "](args = (" + args +
                               "), kwargs = " + kwargs + ")");
}

/// Runs `text` on tensors; expects one tensor result.
Tensor run(const std::string &text, const std::vector<Tensor> &inputs) {
  return runSingle(text, inputs);
}

/// Runs `text`; expects failure with a message naming node r and containing `part`.
void expectError(const std::string &text, const std::vector<Tensor> &inputs,
                 const std::string &part) {
  std::vector<RuntimeValue> values;
  for (const Tensor &t : inputs)
    values.push_back(RuntimeValue{t});
  auto r = runText(text, values);
  ASSERT_FALSE(r) << "expected an error containing '" << part << "'";
  const std::string &m = r.error().message;
  EXPECT_NE(m.find("node 'r'"), std::string::npos) << m;
  EXPECT_NE(m.find(part), std::string::npos) << m;
}

// ---- Inference on typed placeholders ----

/// A graph whose placeholders are typed (name -> `f32[4, s0][s0, 1]cpu`), then `body` (node
/// lines), returning `result`.
std::string typedGraph(const std::vector<std::pair<std::string, std::string>> &inputs,
                       const std::string &body, const std::string &result = "r") {
  std::string text = "graph():\n";
  for (const auto &[name, type] : inputs)
    text += "    %" + name + " : Tensor \"" + type +
            "\"[num_users=1] = placeholder[target=" + name + "]\n";
  bool many = result.find(',') != std::string::npos;
  return text + body + "    return (" + result + (many ? ")\n" : ",)\n");
}

/// One node line `%name = aten.<target>(args)`.
std::string line(const std::string &name, const std::string &target, const std::string &args) {
  return "    %" + name + " : [num_users=1] = call_function[target=torch.ops.aten." + target +
         "](args = (" + args + "), kwargs = {})\n";
}

/// The inferred type of node `node` as FX prints it, or "error: <message>".
std::string inferred(const std::string &text, const std::string &node = "r") {
  auto g = parseFxText(text, "<test>");
  if (!g)
    return "error: " + g.error().message;
  if (Status s = inferShapes(*g); !s)
    return "error: " + s.error().message;
  const TensorType *t = g->find(node)->value().tensor();
  return t ? t->str() : "error: no tensor value";
}

/// `r = aten.<target>(%x, rest)` with x of type `x` (and y, z when given).
std::string inferOne(const std::string &target, const std::string &x, const std::string &args,
                     const std::string &y = "", const std::string &z = "") {
  std::vector<std::pair<std::string, std::string>> inputs{{"x", x}};
  if (!y.empty())
    inputs.emplace_back("y", y);
  if (!z.empty())
    inputs.emplace_back("z", z);
  return inferred(typedGraph(inputs, line("r", target, args)));
}

/// Expects inference to refuse with `part` in the message (naming node r).
void expectRefused(const std::string &result, const std::string &part) {
  EXPECT_EQ(result.rfind("error: ", 0), 0u) << result;
  EXPECT_NE(result.find("node 'r'"), std::string::npos) << result;
  EXPECT_NE(result.find(part), std::string::npos) << result;
}

// ---- A kernel run without the interpreter's result check ----

/// Runs the single call of `text` on `inputs` through its kernel (after inference), with no
/// symbol bound: for ops whose result size only the data decides (nonzero, boolean masks),
/// whose unbacked `u0` the interpreter's result check does not bind.
Expected<Tensor> runKernel(const std::string &text, const std::vector<Tensor> &inputs) {
  registerReferenceKernels();
  auto graph = parseFxText(text, "<test>");
  if (!graph)
    return graph.takeError();
  std::map<const Node *, RuntimeValue> values;
  size_t next = 0;
  const Node *callNode = nullptr;
  for (Node *n : *graph) {
    if (n->op() == OpKind::Placeholder) {
      n->value() = NodeValue{inputs.at(next).typeOf()};
      values[n] = RuntimeValue{inputs.at(next++)};
    } else if (n->op() == OpKind::CallFunction) {
      callNode = n;
    }
  }
  if (Status s = inferShapes(*graph); !s)
    return s.takeError();
  const OpInfo *op = OpRegistry::instance().lookup(callNode->target());
  auto bound = bindArgs(*callNode, *op);
  if (!bound)
    return bound.takeError();
  SymExpr::Bindings bindings;
  std::function<const RuntimeValue *(const Node *)> valueOf = [&](const Node *n) {
    auto it = values.find(n);
    return it == values.end() ? nullptr : &it->second;
  };
  KernelContext ctx(*bound, bindings, valueOf);
  if (Status s = op->kernel(ctx); !s)
    return s.takeError();
  if (!ctx.result.tensor())
    return Error("no tensor result");
  return *ctx.result.tensor();
}

// ==== gather ====

TEST(IndexingOps, GatherPicksAlongDim) {
  Tensor x = fromValues({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor along1 =
      run(call({"x", "i"}, "gather.default", "%x, 1, %i"), {x, longs({2, 2}, {2, 0, 1, 1})});
  expectValues(along1, {3, 1, 5, 5});
  Tensor along0 =
      run(call({"x", "i"}, "gather.default", "%x, -2, %i"), {x, longs({1, 3}, {1, 0, 1})});
  EXPECT_EQ(along0.sizes(), (Sizes{1, 3}));
  expectValues(along0, {4, 2, 6});
  // The index may be longer than self along dim, and int32.
  Tensor wide = run(call({"x", "i"}, "gather.default", "%x, 1, %i"),
                    {x, fromValues({1, 5}, {0, 1, 2, 1, 0}, DType::Int32)});
  expectValues(wide, {1, 2, 3, 2, 1});
}

TEST(IndexingOps, GatherReadsStridedInputsAndKeepsIntegersExact) {
  // x is the transpose of [[1, 2], [3, 4], [5, 6]]: [[1, 3, 5], [2, 4, 6]].
  Tensor x = permuted(fromValues({3, 2}, {1, 2, 3, 4, 5, 6}), {1, 0});
  Tensor i = permuted(longs({2, 2}, {2, 0, 1, 2}), {1, 0}); // [[2, 1], [0, 2]]
  Tensor r = run(call({"x", "i"}, "gather.default", "%x, 1, %i"), {x, i});
  expectValues(r, {5, 3, 2, 6});
  EXPECT_EQ(r.strides(), (Sizes{2, 1}));
  auto big = Tensor::zeros(DType::Int64, {2});
  big->storeInt(0, (int64_t(1) << 53) + 1);
  big->storeInt(1, -7);
  Tensor g = run(call({"x", "i"}, "gather.default", "%x, 0, %i"), {*big, longs({3}, {0, 1, 0})});
  EXPECT_EQ(g.loadInt(0), (int64_t(1) << 53) + 1);
  EXPECT_EQ(g.loadInt(1), -7);
  EXPECT_EQ(g.loadInt(2), (int64_t(1) << 53) + 1);
}

TEST(IndexingOps, GatherEdgeCases) {
  // 0-d self and index; an empty index gives an empty result.
  Tensor scalar =
      run(call({"x", "i"}, "gather.default", "%x, 0, %i"), {fromValues({}, {7}), longs({}, {0})});
  EXPECT_EQ(scalar.dim(), 0);
  expectValues(scalar, {7});
  Tensor empty =
      run(call({"x", "i"}, "gather.default", "%x, 0, %i"), {iota({3, 4}), longs({0, 2}, {})});
  EXPECT_EQ(empty.sizes(), (Sizes{0, 2}));
}

TEST(IndexingOps, GatherErrors) {
  std::string g = call({"x", "i"}, "gather.default", "%x, 1, %i");
  // PyTorch: "index 5 is out of bounds for dimension 1 with size 3"; negative indices too.
  expectError(g, {iota({2, 3}), longs({1, 1}, {5})},
              "index 5 is out of bounds for dimension 1 with size 3");
  expectError(g, {iota({2, 3}), longs({1, 1}, {-1})},
              "index -1 is out of bounds for dimension 1 with size 3");
  expectRefused(inferOne("gather.default", "f32[3, 4][4, 1]cpu", "%x, 1, %y", "f32[3, 2][2, 1]cpu"),
                "gather(): Expected dtype int32/int64 for index, but got torch.float32");
  expectRefused(inferOne("gather.default", "f32[3, 4][4, 1]cpu", "%x, 1, %y", "i64[3][1]cpu"),
                "Index tensor must have the same number of dimensions as input tensor");
  expectRefused(inferOne("gather.default", "f32[3, 4][4, 1]cpu", "%x, 1, %y", "i64[5, 2][2, 1]cpu"),
                "Size does not match at dimension 0 expected index [5, 2] to be no larger than "
                "self [3, 4] apart from dimension 1");
  expectRefused(inferOne("gather.default", "f32[3, 4][4, 1]cpu", "%x, 2, %y", "i64[3, 2][2, 1]cpu"),
                "out of range");
}

TEST(IndexingOps, GatherInference) {
  // FakeTensor: a contiguous tensor of the index's shape, whatever the layouts.
  EXPECT_EQ(inferOne("gather.default", "f32[4, 3][1, 4]cpu", "%x, 1, %y", "i64[3, 2][1, 3]cpu"),
            "f32[3, 2][2, 1]cpu");
  EXPECT_EQ(inferOne("gather.default", "bf16[s0, 4][4, 1]cpu", "%x, 1, %y", "i32[s0, 9][9, 1]cpu"),
            "bf16[s0, 9][9, 1]cpu");
}

// ==== index.Tensor ====

const std::string kIndex = "index.Tensor";

TEST(IndexingOps, IndexWithOneTensorAndNone) {
  Tensor x = iota({2, 3, 4});
  // x[:, [2, 0]]: result [2, 2, 4].
  Tensor r = run(call({"x", "i"}, kIndex, "%x, [None, %i]"), {x, longs({2}, {2, 0})});
  EXPECT_EQ(r.sizes(), (Sizes{2, 2, 4}));
  expectValues(r, {8, 9, 10, 11, 0, 1, 2, 3, 20, 21, 22, 23, 12, 13, 14, 15});
  // Negative indices count from the end; int32 indices.
  Tensor neg = run(call({"x", "i"}, kIndex, "%x, [%i]"),
                   {iota({4}), fromValues({2}, {-1, -4}, DType::Int32)});
  expectValues(neg, {3, 0});
}

TEST(IndexingOps, IndexNonAdjacentTensorsMoveToTheFront) {
  // Eager PyTorch: arange(24.).reshape(2, 3, 4)[[0, 1], :, [1, 2]] = [[1, 5, 9], [14, 18, 22]].
  Tensor r = run(call({"x", "i", "j"}, kIndex, "%x, [%i, None, %j]"),
                 {iota({2, 3, 4}), longs({2}, {0, 1}), longs({2}, {1, 2})});
  EXPECT_EQ(r.sizes(), (Sizes{2, 3}));
  expectValues(r, {1, 5, 9, 14, 18, 22});
}

TEST(IndexingOps, IndexTensorsBroadcast) {
  // i [[0], [1]] and j [2, 0, 1] broadcast to [2, 3]: r[a, b, :] = x[i[a], j[b], :].
  Tensor x = iota({2, 3, 2});
  Tensor r = run(call({"x", "i", "j"}, kIndex, "%x, [%i, %j]"),
                 {x, longs({2, 1}, {0, 1}), longs({3}, {2, 0, 1})});
  EXPECT_EQ(r.sizes(), (Sizes{2, 3, 2}));
  expectValues(r, {4, 5, 0, 1, 2, 3, 10, 11, 6, 7, 8, 9});
  // Strided self: the transpose of iota(3, 2) is [[0, 2, 4], [1, 3, 5]].
  Tensor t = run(call({"x", "i"}, kIndex, "%x, [None, %i]"),
                 {permuted(iota({3, 2}), {1, 0}), longs({2}, {2, 2})});
  expectValues(t, {4, 4, 5, 5});
}

TEST(IndexingOps, IndexWithBoolMasks) {
  Tensor x = iota({2, 3});
  auto whole =
      runKernel(call({"x", "m"}, kIndex, "%x, [%m]"), {x, bools({2, 3}, {1, 0, 1, 0, 1, 0})});
  ASSERT_TRUE(whole) << whole.error().message;
  EXPECT_EQ(whole->sizes(), (Sizes{3}));
  expectValues(*whole, {0, 2, 4});
  auto cols = runKernel(call({"x", "m"}, kIndex, "%x, [None, %m]"), {x, bools({3}, {1, 0, 1})});
  ASSERT_TRUE(cols) << cols.error().message;
  EXPECT_EQ(cols->sizes(), (Sizes{2, 2}));
  expectValues(*cols, {0, 2, 3, 5});
  // All false: an empty result.
  auto none = runKernel(call({"x", "m"}, kIndex, "%x, [%m]"), {x, bools({2}, {0, 0})});
  ASSERT_TRUE(none) << none.error().message;
  EXPECT_EQ(none->sizes(), (Sizes{0, 3}));
}

TEST(IndexingOps, IndexErrors) {
  std::string one = call({"x", "i"}, kIndex, "%x, [%i]");
  // Eager: "index 4 is out of bounds for dimension 0 with size 4" (and for -5).
  expectError(one, {iota({4}), longs({1}, {4})},
              "index 4 is out of bounds for dimension 0 with size 4");
  expectError(one, {iota({4}), longs({1}, {-5})},
              "index -5 is out of bounds for dimension 0 with size 4");
  expectError(call({"x", "i"}, kIndex, "%x, [None, None, %i]"), {iota({4, 5}), longs({1}, {1})},
              "too many indices for tensor of dimension 2 (got 3)");
  std::string f = "f32[4, 5, 6][30, 6, 1]cpu";
  expectRefused(inferOne(kIndex, f, "%x, [%y]", "f32[3][1]cpu"),
                "tensors used as indices must be long, int, byte or bool tensors");
  expectRefused(inferOne(kIndex, f, "%x, [%y]", "b8[4, 6][6, 1]cpu"),
                "The shape of the mask [4, 6] at index 0 does not match the shape of the indexed "
                "tensor [4, 5, 6] at index 1");
  expectRefused(inferOne(kIndex, f, "%x, [%y, %z]", "i64[2][1]cpu", "i64[3][1]cpu"),
                "shape mismatch: indexing tensors could not be broadcast together with shapes "
                "[2], [3]");
  expectRefused(inferOne(kIndex, f, "%x, []"), "at least one index must be provided");
}

TEST(IndexingOps, IndexInferenceFollowsEagerStrides) {
  std::string f = "f32[4, 5, 6][30, 6, 1]cpu";
  // Each expectation is what FakeTensor records in PyTorch 2.11.
  EXPECT_EQ(inferOne(kIndex, f, "%x, [None, %y]", "i64[3][1]cpu"), "f32[4, 3, 6][18, 6, 1]cpu");
  EXPECT_EQ(inferOne(kIndex, f, "%x, [%y, None, %z]", "i64[2, 3][3, 1]cpu", "i64[3][1]cpu"),
            "f32[2, 3, 5][15, 5, 1]cpu");
  EXPECT_EQ(inferOne(kIndex, f, "%x, [%y, %z]", "i64[2, 1][1, 1]cpu", "i64[3][1]cpu"),
            "f32[2, 3, 6][18, 6, 1]cpu");
  // A permuted self: the result follows its layout (eager's TensorIterator).
  EXPECT_EQ(inferOne(kIndex, "f32[4, 5, 6][1, 4, 20]cpu", "%x, [None, %y]", "i64[3][1]cpu"),
            "f32[4, 3, 6][1, 4, 12]cpu");
  EXPECT_EQ(inferOne(kIndex, f, "%x, [None, %y]", "i64[][]cpu"), "f32[4, 6][6, 1]cpu");
  EXPECT_EQ(inferOne(kIndex, f, "%x, [None]"), "f32[4, 5, 6][30, 6, 1]cpu");
  EXPECT_EQ(
      inferOne(kIndex, "f32[4, s0, 6][6*s0, 6, 1]cpu", "%x, [None, %y]", "i64[3, s1][s1, 1]cpu"),
      "f32[4, 3, s1, 6][18*s1, 6*s1, 6, 1]cpu");
}

TEST(IndexingOps, MasksAndNonzeroTakeUnbackedSizes) {
  std::string f = "f32[4, 5, 6][30, 6, 1]cpu";
  EXPECT_EQ(inferOne(kIndex, f, "%x, [%y]", "b8[4, 5][5, 1]cpu"), "f32[u0, 6][6, 1]cpu");
  EXPECT_EQ(inferOne(kIndex, f, "%x, [None, %y]", "b8[5][1]cpu"),
            "f32[4, u0, 6][6*Max(1, u0), 6, 1]cpu");
  // Symbols are numbered in graph order; nonzero of the same tensor again reuses its symbol.
  std::string text =
      typedGraph({{"x", f}, {"m", "b8[4, 5][5, 1]cpu"}},
                 line("a", "nonzero.default", "%x") + line("b", kIndex, "%x, [%m]") +
                     line("c", "nonzero.default", "%x") + line("d", "nonzero.default", "%m"),
                 "a, b, c, d");
  EXPECT_EQ(inferred(text, "a"), "i64[u0, 3][1, u0]cpu");
  EXPECT_EQ(inferred(text, "b"), "f32[u1, 6][6, 1]cpu");
  EXPECT_EQ(inferred(text, "c"), "i64[u0, 3][1, u0]cpu");
  EXPECT_EQ(inferred(text, "d"), "i64[u2, 2][1, u2]cpu");
  // Nothing to count: the size is 0, no symbol.
  EXPECT_EQ(inferOne("nonzero.default", "f32[0, 3][3, 1]cpu", "%x"), "i64[0, 2][1, 0]cpu");
  EXPECT_EQ(inferOne("nonzero.default", "f32[][]cpu", "%x"), "i64[u0, 0][1, u0]cpu");
}

// ==== nonzero ====

TEST(IndexingOps, NonzeroListsCoordinatesColumnMajor) {
  // Eager: nonzero([[0, 1], [2, nan]]) = [[0, 1], [1, 0], [1, 1]] with strides (1, 3).
  auto r = runKernel(call({"x"}, "nonzero.default", "%x"), {fromValues({2, 2}, {0, 1, 2, kNaN})});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->sizes(), (Sizes{3, 2}));
  EXPECT_EQ(r->strides(), (Sizes{1, 3}));
  EXPECT_EQ(r->dtype(), DType::Int64);
  expectValues(*r, {0, 1, 1, 0, 1, 1});
  auto ints = runKernel(call({"x"}, "nonzero.default", "%x"),
                        {permuted(longs({2, 2}, {0, 5, 0, -1}), {1, 0})}); // [[0, 0], [5, -1]]
  ASSERT_TRUE(ints) << ints.error().message;
  expectValues(*ints, {1, 0, 1, 1});
  // 0-d: one row of no coordinates when nonzero (eager: size (1, 0)), none otherwise.
  auto scalar = runKernel(call({"x"}, "nonzero.default", "%x"), {fromValues({}, {3})});
  ASSERT_TRUE(scalar) << scalar.error().message;
  EXPECT_EQ(scalar->sizes(), (Sizes{1, 0}));
  auto zero = runKernel(call({"x"}, "nonzero.default", "%x"), {fromValues({}, {0})});
  ASSERT_TRUE(zero) << zero.error().message;
  EXPECT_EQ(zero->sizes(), (Sizes{0, 0}));
}

// ==== index_put ====

TEST(IndexingOps, IndexPutAssignsOrAccumulates) {
  Tensor zeros = fromValues({4}, {0, 0, 0, 0});
  Tensor i = longs({3}, {1, 1, 3});
  Tensor v = fromValues({3}, {1, 2, 3});
  // Eager: accumulate=True sums repeated positions, [0, 3, 0, 3].
  Tensor acc = run(call({"x", "i", "v"}, "index_put.default", "%x, [%i], %v, True"), {zeros, i, v});
  expectValues(acc, {0, 3, 0, 3});
  Tensor put = run(call({"x", "i", "v"}, "index_put.default", "%x, [%i], %v"), {zeros, i, v});
  expectValues(put, {0, 2, 0, 3});
  expectValues(zeros, {0, 0, 0, 0}); // the functional form leaves self alone
  // Negative indices wrap; integers accumulate exactly; bools accumulate as "or".
  auto big = Tensor::zeros(DType::Int64, {2});
  big->storeInt(1, int64_t(1) << 60);
  Tensor sum = run(call({"x", "i", "v"}, "index_put.default", "%x, [%i], %v, True"),
                   {*big, longs({2}, {-1, -1}), longs({2}, {3, 4})});
  EXPECT_EQ(sum.loadInt(1), (int64_t(1) << 60) + 7);
  Tensor flags = run(call({"x", "i", "v"}, "index_put.default", "%x, [%i], %v, True"),
                     {bools({3}, {0, 0, 0}), longs({2}, {1, 1}), bools({2}, {1, 1})});
  expectValues(flags, {0, 1, 0});
}

TEST(IndexingOps, IndexPutWithNoneMasksAndBroadcastValues) {
  // x[:, [2, 0]] = [1, 2] (values broadcast over the rows).
  Tensor r =
      run(call({"x", "i", "v"}, "index_put.default", "%x, [None, %i], %v"),
          {fromValues({2, 3}, {0, 0, 0, 0, 0, 0}), longs({2}, {2, 0}), fromValues({2}, {1, 2})});
  expectValues(r, {2, 0, 1, 2, 0, 1});
  // Eager: a diagonal mask takes [5, 6]; a row mask broadcasts [5, 6] over its row.
  Tensor diag =
      run(call({"x", "m", "v"}, "index_put.default", "%x, [%m], %v"),
          {fromValues({2, 2}, {0, 0, 0, 0}), bools({2, 2}, {1, 0, 0, 1}), fromValues({2}, {5, 6})});
  expectValues(diag, {5, 0, 0, 6});
  Tensor row = run(call({"x", "m", "v"}, "index_put.default", "%x, [%m], %v"),
                   {fromValues({2, 2}, {0, 0, 0, 0}), bools({2}, {1, 0}), fromValues({2}, {5, 6})});
  expectValues(row, {5, 6, 0, 0});
  // A strided self keeps its layout (empty_like).
  Tensor t = run(call({"x", "i", "v"}, "index_put.default", "%x, [%i], %v"),
                 {permuted(iota({3, 2}), {1, 0}), longs({1}, {1}), fromValues({}, {9})});
  EXPECT_EQ(t.strides(), (Sizes{1, 2}));
  expectValues(t, {0, 2, 4, 9, 9, 9});
}

TEST(IndexingOps, IndexPutInPlaceWritesSelf) {
  Tensor x = fromValues({3}, {1, 1, 1});
  Tensor r = run(call({"x", "i", "v"}, "index_put_.default", "%x, [%i], %v, True"),
                 {x, longs({1}, {2}), fromValues({1}, {4})});
  expectValues(r, {1, 1, 5});
  EXPECT_TRUE(r.sharesStorageWith(x));
  expectValues(x, {1, 1, 5});
}

TEST(IndexingOps, IndexPutInferenceAndErrors) {
  EXPECT_EQ(inferOne("index_put.default", "f32[5, 4][1, 5]cpu", "%x, [%y], %z", "i64[3][1]cpu",
                     "f32[4][1]cpu"),
            "f32[5, 4][1, 5]cpu");
  EXPECT_EQ(inferOne("index_put_.default", "f32[s0, 4][1, s0]cpu", "%x, [%y], %z",
                     "b8[s0, 4][4, 1]cpu", "f32[][]cpu"),
            "f32[s0, 4][1, s0]cpu");
  expectRefused(inferOne("index_put.default", "f32[4, 5][5, 1]cpu", "%x, [%y], %z", "i64[3][1]cpu",
                         "f64[3, 5][5, 1]cpu"),
                "Index put requires the source and destination dtypes match, got Float for the "
                "destination and Double for the source.");
  expectRefused(inferOne("index_put.default", "f32[4, 5][5, 1]cpu", "%x, [%y], %z", "i64[3][1]cpu",
                         "f32[2][1]cpu"),
                "shape mismatch: value tensor of shape [2] cannot be broadcast to indexing result "
                "of shape [3, 5]");
  expectError(call({"x", "i", "v"}, "index_put.default", "%x, [%i], %v"),
              {iota({4}), longs({1}, {4}), fromValues({1}, {1})},
              "index 4 is out of bounds for dimension 0 with size 4");
}

// ==== slice_scatter / select_scatter ====

TEST(IndexingOps, SliceScatterWritesTheSlice) {
  Tensor zeros = fromValues({5}, {0, 0, 0, 0, 0});
  Tensor ones = fromValues({2}, {1, 1});
  // Eager: start -2 counts from the end; step 2 from 1.
  expectValues(run(call({"x", "s"}, "slice_scatter.default", "%x, %s, 0, -2"), {zeros, ones}),
               {0, 0, 0, 1, 1});
  expectValues(
      run(call({"x", "s"}, "slice_scatter.default", "%x, %s, 0, 1, None, 2"), {zeros, ones}),
      {0, 1, 0, 1, 0});
  // The rotary-embedding pattern of the zoo: dim 3, end 2**63 - 1.
  Tensor x = fromValues({1, 1, 1, 4}, {0, 0, 0, 0});
  Tensor half = fromValues({1, 1, 1, 2}, {7, 8});
  expectValues(run(call({"x", "s"}, "slice_scatter.default", "%x, %s, 3, 2, 9223372036854775807"),
                   {x, half}),
               {0, 0, 7, 8});
  // A strided self keeps its strides; src may be strided too.
  Tensor t =
      run(call({"x", "s"}, "slice_scatter.default", "%x, %s, -1, 1, 3"),
          {permuted(iota({3, 2}), {1, 0}), permuted(fromValues({2, 2}, {7, 8, 9, 10}), {1, 0})});
  EXPECT_EQ(t.strides(), (Sizes{1, 2}));
  expectValues(t, {0, 7, 9, 1, 8, 10});
}

// torch.as_strided_scatter(torch.zeros(2, 3), src, size, stride, offset), worked from
// as_strided's positions offset + i * stride[0] + j * stride[1] in the copy's storage.
TEST(IndexingOps, AsStridedScatterWritesTheView) {
  Tensor zeros = fromValues({2, 3}, std::vector<double>(6, 0));
  Tensor src = fromValues({2, 2}, {1, 2, 3, 4});
  // Positions 1, 3, 2, 4.
  expectValues(run(call({"x", "s"}, "as_strided_scatter.default", "%x, %s, [2, 2], [1, 2], 1"),
                   {zeros, src}),
               {0, 1, 3, 2, 4, 0});
  // Without an offset, self's own (0); overlapping positions take the last element written
  // (0 and 1 twice: 3 and 4), as copy_ on the CPU.
  expectValues(
      run(call({"x", "s"}, "as_strided_scatter.default", "%x, %s, [2, 2], [0, 1]"), {zeros, src}),
      {3, 4, 0, 0, 0, 0});
  // A transposed self keeps its strides: storage position 1 is element [1, 0].
  Tensor t =
      run(call({"x", "s"}, "as_strided_scatter.default", "%x, %s, [1], [1], 1"),
          {permuted(fromValues({3, 2}, std::vector<double>(6, 0)), {1, 0}), fromValues({1}, {9})});
  EXPECT_EQ(t.strides(), (Sizes{1, 2}));
  EXPECT_EQ(t.getDouble(std::vector<int64_t>{1, 0}), 9);
  expectError(call({"x", "s"}, "as_strided_scatter.default", "%x, %s, [2, 3], [3, 1]"),
              {zeros, src},
              "expected src to have a size equal to the slice of self. src size = [2, 2], slice "
              "size = [2, 3]");
  expectError(call({"x", "s"}, "as_strided_scatter.default", "%x, %s, [2, 2], [3, 1], 3"),
              {zeros, src}, "as_strided");
  EXPECT_EQ(inferOne("as_strided_scatter.default", "f32[4, 5][1, 4]cpu", "%x, %y, [2], [3]",
                     "f64[2][1]cpu"),
            "f32[4, 5][1, 4]cpu");
}

// torch.diagonal_scatter(torch.zeros(3, 4), src, offset) for offsets 1 and -2 (worked from
// diagonal()'s definition), and offset -1 on a [2, 3, 2] tensor along dims 2 and 0.
TEST(IndexingOps, DiagonalScatterWritesTheDiagonal) {
  Tensor zeros = fromValues({3, 4}, std::vector<double>(12, 0));
  expectValues(run(call({"x", "s"}, "diagonal_scatter.default", "%x, %s, 1"),
                   {zeros, fromValues({3}, {7, 8, 9})}),
               {0, 7, 0, 0, 0, 0, 8, 0, 0, 0, 0, 9});
  expectValues(run(call({"x", "s"}, "diagonal_scatter.default", "%x, %s, -2"),
                   {zeros, fromValues({1}, {5})}),
               {0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0});
  // dims (2, 0) of [2, 3, 2], offset -1: src [3, 1] (dim 1, then the diagonal); element k of
  // the diagonal at dim 2 = k + 1 (dim1, below the main diagonal), dim 0 = k.
  Tensor r =
      run(call({"x", "s"}, "diagonal_scatter.default", "%x, %s, -1, 2, 0"),
          {fromValues({2, 3, 2}, std::vector<double>(12, 0)), fromValues({3, 1}, {1, 2, 3})});
  expectValues(r, {0, 1, 0, 2, 0, 3, 0, 0, 0, 0, 0, 0});
  expectError(call({"x", "s"}, "diagonal_scatter.default", "%x, %s, 0, 1, 1"),
              {zeros, fromValues({3}, {1, 2, 3})}, "diagonal dimensions cannot be identical");
  expectError(call({"x", "s"}, "diagonal_scatter.default", "%x, %s"),
              {zeros, fromValues({4}, {1, 2, 3, 4})},
              "expected src to have a size equal to the slice of self");
}

TEST(IndexingOps, SelectScatterWritesOneIndex) {
  Tensor r = run(call({"x", "s"}, "select_scatter.default", "%x, %s, 1, -1"),
                 {fromValues({2, 3}, {0, 0, 0, 0, 0, 0}), fromValues({2}, {7, 8})});
  expectValues(r, {0, 0, 7, 0, 0, 8});
  Tensor ints = run(call({"x", "s"}, "select_scatter.default", "%x, %s, 0, 0"),
                    {longs({2, 2}, {1, 2, 3, 4}), longs({2}, {-5, 6})});
  EXPECT_EQ(ints.dtype(), DType::Int64);
  expectValues(ints, {-5, 6, 3, 4});
}

TEST(IndexingOps, ScatterSliceInferenceAndErrors) {
  // clone_preserve_strides: self's strides, symbolic or not.
  EXPECT_EQ(inferOne("slice_scatter.default", "f32[4, 5][1, 4]cpu", "%x, %y, 1, 1, 3",
                     "f32[4, 2][2, 1]cpu"),
            "f32[4, 5][1, 4]cpu");
  EXPECT_EQ(inferOne("slice_scatter.default", "f32[4, s0][s0, 1]cpu", "%x, %y, 1, 0, 3",
                     "f32[4, 3][3, 1]cpu"),
            "f32[4, s0][s0, 1]cpu");
  EXPECT_EQ(
      inferOne("select_scatter.default", "f32[4, 5][1, 4]cpu", "%x, %y, 1, 2", "f32[4][1]cpu"),
      "f32[4, 5][1, 4]cpu");
  // An expanded self cannot keep its strides (clone lays it out densely).
  EXPECT_EQ(inferOne("slice_scatter.default", "f32[4, 5][0, 1]cpu", "%x, %y, 1, 0, 2",
                     "f32[4, 2][2, 1]cpu"),
            "f32[4, 5][5, 1]cpu");
  expectRefused(inferOne("slice_scatter.default", "f32[4, 5][5, 1]cpu", "%x, %y, 1, 1, 3",
                         "f32[4, 3][3, 1]cpu"),
                "slice_scatter: expected src to have a size equal to the slice of self. src size "
                "= [4, 3], slice size = [4, 2]");
  expectRefused(
      inferOne("select_scatter.default", "f32[4, 5][5, 1]cpu", "%x, %y, 1, 0", "f32[5][1]cpu"),
      "src size = [5], slice size = [4]");
  expectRefused(
      inferOne("select_scatter.default", "f32[4, 5][5, 1]cpu", "%x, %y, 1, 7", "f32[4][1]cpu"),
      "select(): index 7 out of range for tensor of size [4, 5] at dimension 1");
}

// ==== constant_pad_nd ====

TEST(IndexingOps, ConstantPadPadsAndCrops) {
  Tensor x = fromValues({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor r = run(call({"x"}, "constant_pad_nd.default", "%x, [1, 2], 0.5"), {x});
  EXPECT_EQ(r.sizes(), (Sizes{2, 6}));
  expectValues(r, {0.5, 1, 2, 3, 0.5, 0.5, 0.5, 4, 5, 6, 0.5, 0.5});
  // Negative pads crop: drop the first row, add one column left.
  Tensor mixed = run(call({"x"}, "constant_pad_nd.default", "%x, [1, 0, -1, 0]"), {x});
  EXPECT_EQ(mixed.sizes(), (Sizes{1, 4}));
  expectValues(mixed, {0, 4, 5, 6});
  Tensor crop = run(call({"x"}, "constant_pad_nd.default", "%x, [-1, -1]"), {x});
  expectValues(crop, {2, 5});
  // Eager: integers truncate the value ([2, 1, 2, 2] and [-2, 1, 2, -2]), bools test it.
  expectValues(run(call({"x"}, "constant_pad_nd.default", "%x, [1, 1], 2.7"), {longs({2}, {1, 2})}),
               {2, 1, 2, 2});
  expectValues(
      run(call({"x"}, "constant_pad_nd.default", "%x, [1, 1], -2.7"), {longs({2}, {1, 2})}),
      {-2, 1, 2, -2});
  expectValues(run(call({"x"}, "constant_pad_nd.default", "%x, [1, 0], 0.5"), {bools({1}, {1})}),
               {1, 1});
  // Strided input.
  expectValues(
      run(call({"x"}, "constant_pad_nd.default", "%x, [0, 1]"), {permuted(iota({3, 2}), {1, 0})}),
      {0, 2, 4, 0, 1, 3, 5, 0});
}

TEST(IndexingOps, ConstantPadInferenceAndErrors) {
  std::string pad = "constant_pad_nd.default";
  EXPECT_EQ(inferOne(pad, "f32[4, 5][5, 1]cpu", "%x, [1, 2, -1, 0]"), "f32[3, 8][8, 1]cpu");
  // A channels-last input keeps channels-last; a transposed one does not.
  EXPECT_EQ(inferOne(pad, "f32[2, 3, 4, 5][60, 1, 15, 3]cpu", "%x, [1, 1]"),
            "f32[2, 3, 4, 7][84, 1, 21, 3]cpu");
  EXPECT_EQ(inferOne(pad, "f32[4, 5][1, 4]cpu", "%x, [1, 1]"), "f32[4, 7][7, 1]cpu");
  // Only cropping: a clone of the narrowed view.
  EXPECT_EQ(inferOne(pad, "f32[4, 5][1, 4]cpu", "%x, [-1, -1]"), "f32[4, 3][1, 4]cpu");
  EXPECT_EQ(inferOne(pad, "f32[4, s0][s0, 1]cpu", "%x, [1, 2]"), "f32[4, s0 + 3][s0 + 3, 1]cpu");
  expectRefused(inferOne(pad, "f32[4, 5][5, 1]cpu", "%x, [1]"),
                "Length of pad must be even but instead it equals 1");
  expectRefused(inferOne(pad, "f32[4, 5][5, 1]cpu", "%x, [1, 1, 1, 1, 1, 1]"),
                "Length of pad should be no more than twice the number of dimensions of the "
                "input. Pad length is 6 while the input has 2 dimensions.");
  expectRefused(inferOne(pad, "f32[4, 5][5, 1]cpu", "%x, [-3, -3]"),
                "narrow(): length must be non-negative.");
  expectRefused(inferOne(pad, "f32[4, 5][5, 1]cpu", "%x, [-7, 1]"),
                "The input size 5, plus negative padding -7 and 1 resulted in a negative output "
                "size, which is invalid. Check dimension 1 of your input.");
}

// ==== index_select ====

TEST(IndexingOps, IndexSelectPicksRows) {
  Tensor x = fromValues({3, 2}, {1, 2, 3, 4, 5, 6});
  Tensor rows =
      run(call({"x", "i"}, "index_select.default", "%x, 0, %i"), {x, longs({3}, {2, 0, 2})});
  expectValues(rows, {5, 6, 1, 2, 5, 6});
  Tensor cols = run(call({"x", "i"}, "index_select.default", "%x, -1, %i"),
                    {permuted(x, {1, 0}), fromValues({}, {1}, DType::Int32)});
  EXPECT_EQ(cols.sizes(), (Sizes{2, 1}));
  expectValues(cols, {3, 4});
  // Eager: "index out of range in self" (negative indices too).
  expectError(call({"x", "i"}, "index_select.default", "%x, 0, %i"), {x, longs({1}, {-1})},
              "index out of range in self");
  expectRefused(
      inferOne("index_select.default", "f32[4, 5][5, 1]cpu", "%x, 1, %y", "i64[2, 2][2, 1]cpu"),
      "index_select(): Index is supposed to be a vector");
  EXPECT_EQ(inferOne("index_select.default", "f32[4, 5][1, 4]cpu", "%x, 0, %y", "i64[s0][1]cpu"),
            "f32[s0, 5][5, 1]cpu");
}

// ==== scatter, scatter_add, scatter_reduce ====

const std::string kScatterReduce = "scatter_reduce.two";

/// scatter_reduce of 1-d self, index and src.
Tensor reduce1d(const Tensor &self, const std::vector<double> &index, const Tensor &src,
                const std::string &how, bool includeSelf = true) {
  return run(call({"x", "i", "s"}, kScatterReduce, "%x, 0, %i, %s, " + how,
                  includeSelf ? "{}" : "{include_self: False}"),
             {self, longs({static_cast<int64_t>(index.size())}, index), src});
}

TEST(IndexingOps, ScatterWritesSrcOrValue) {
  // The example of torch.Tensor.scatter_'s documentation.
  Tensor src = iota({2, 5}, DType::Float32, 1);
  Tensor r =
      run(call({"x", "i", "s"}, "scatter.src", "%x, 0, %i, %s"),
          {fromValues({3, 5}, std::vector<double>(15, 0)), longs({1, 4}, {0, 1, 2, 0}), src});
  expectValues(r, {1, 0, 0, 4, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0, 0});
  Tensor v = run(call({"x", "i"}, "scatter.value", "%x, 1, %i, 9.5"),
                 {permuted(longs({3, 2}, {0, 0, 0, 0, 0, 0}), {1, 0}), longs({2, 1}, {2, 0})});
  EXPECT_EQ(v.strides(), (Sizes{3, 1})); // contiguous, whatever self's layout
  expectValues(v, {0, 0, 9, 9, 0, 0});
  Tensor add = run(call({"x", "i", "s"}, "scatter_add.default", "%x, 0, %i, %s"),
                   {fromValues({2}, {1, 1}), longs({3}, {1, 1, 0}), fromValues({3}, {2, 3, 4})});
  expectValues(add, {5, 6});
}

TEST(IndexingOps, ScatterReduceMatchesEager) {
  // Each expectation is eager PyTorch 2.11's result.
  Tensor ints = longs({3}, {-7, 5, 3});
  expectValues(reduce1d(ints, {0, 0, 1}, longs({3}, {2, 2, 4}), "mean"), {-1, 4, 3});
  expectValues(reduce1d(ints, {0, 0, 1}, longs({3}, {-2, 1, 4}), "mean", false), {-1, 4, 3});
  Tensor floats = fromValues({3}, {1, 5, 3});
  expectValues(reduce1d(floats, {0, 0, 1}, fromValues({3}, {2, 2, 4}), "mean"), {5.0 / 3, 4.5, 3});
  expectValues(reduce1d(floats, {0, 0, 1}, fromValues({3}, {-2, -3, 4}), "amax", false),
               {-2, 4, 3});
  expectValues(reduce1d(floats, {0, 0, 1}, fromValues({3}, {2, 3, 4}), "prod", false), {6, 4, 3});
  expectValues(reduce1d(floats, {0, 0}, fromValues({2}, {kNaN, 3}), "amax"), {kNaN, 5, 3});
  expectValues(reduce1d(floats, {2, 2}, fromValues({2}, {0, 4}), "amin"), {1, 5, 0});
  expectValues(reduce1d(floats, {1, 1}, fromValues({2}, {1, 2}), "sum"), {1, 8, 3});
  expectValues(reduce1d(bools({2}, {1, 0}), {0, 1}, bools({2}, {0, 1}), "sum"), {1, 1});
}

TEST(IndexingOps, ScatterInferenceAndErrors) {
  EXPECT_EQ(inferOne("scatter.src", "f32[3, 4][1, 3]cpu", "%x, 1, %y, %z", "i64[3, 2][2, 1]cpu",
                     "f32[3, 2][2, 1]cpu"),
            "f32[3, 4][4, 1]cpu");
  expectRefused(inferOne("scatter.src", "f32[4, 5][5, 1]cpu", "%x, 1, %y, %z", "i64[3, 2][2, 1]cpu",
                         "f64[3, 2][2, 1]cpu"),
                "scatter(): Expected self.dtype to be equal to src.dtype");
  expectRefused(inferOne("scatter.src", "f32[4, 5][5, 1]cpu", "%x, 1, %y, %z", "i64[3, 2][2, 1]cpu",
                         "f32[3, 1][1, 1]cpu"),
                "Expected index [3, 2] to be no larger than src [3, 1]");
  expectRefused(
      inferOne("scatter.value", "f32[4, 5][5, 1]cpu", "%x, 1, %y, 1.0", "f32[3, 2][2, 1]cpu"),
      "scatter(): Expected dtype int32/int64 for index");
  expectRefused(inferOne(kScatterReduce, "f32[4, 5][5, 1]cpu", "%x, 1, %y, %z, max",
                         "i64[3, 2][2, 1]cpu", "f32[3, 2][2, 1]cpu"),
                "reduce argument must be either sum, prod, mean, amax or amin, got max");
  expectRefused(inferOne(kScatterReduce, "b8[4, 5][5, 1]cpu", "%x, 1, %y, %z, mean",
                         "i64[3, 2][2, 1]cpu", "b8[3, 2][2, 1]cpu"),
                "\"scatter_gather_tensor_cpu_reduce_mean\" not implemented for 'Bool'");
  expectError(call({"x", "i"}, "scatter.value", "%x, 1, %i, 1.0"),
              {iota({2, 3}), longs({1, 1}, {3})},
              "index 3 is out of bounds for dimension 1 with size 3");
}

// ==== masked_scatter ====

TEST(IndexingOps, MaskedScatterTakesSourceInOrder) {
  // Eager: zeros(2, 3).masked_scatter([True, False, True], arange(1., 7.)).
  Tensor r = run(call({"x", "m", "s"}, "masked_scatter.default", "%x, %m, %s"),
                 {fromValues({2, 3}, {0, 0, 0, 0, 0, 0}), bools({3}, {1, 0, 1}),
                  iota({6}, DType::Float32, 1)});
  expectValues(r, {1, 0, 2, 3, 0, 4});
  // self broadcasts to the mask's shape.
  Tensor b = run(call({"x", "m", "s"}, "masked_scatter.default", "%x, %m, %s"),
                 {fromValues({2}, {-1, -2}), bools({2, 2}, {0, 1, 1, 0}), iota({2, 2})});
  EXPECT_EQ(b.sizes(), (Sizes{2, 2}));
  expectValues(b, {-1, 0, 1, -2});
  expectError(call({"x", "m", "s"}, "masked_scatter.default", "%x, %m, %s"),
              {fromValues({3}, {0, 0, 0}), bools({3}, {1, 1, 1}), iota({2})},
              "Number of elements of source < number of ones in mask");
  expectRefused(inferOne("masked_scatter.default", "f32[4, 5][5, 1]cpu", "%x, %y, %z",
                         "f32[4, 5][5, 1]cpu", "f32[20][1]cpu"),
                "Mask must be bool or uint8");
  expectRefused(inferOne("masked_scatter.default", "f32[4, 5][5, 1]cpu", "%x, %y, %z",
                         "b8[4, 5][5, 1]cpu", "f64[20][1]cpu"),
                "masked_scatter: expected self and source to have same dtypes but got "
                "torch.float32 and torch.float64");
  EXPECT_EQ(inferOne("masked_scatter.default", "f32[5, 4][1, 5]cpu", "%x, %y, %z",
                     "b8[5, 4][4, 1]cpu", "f32[9][1]cpu"),
            "f32[5, 4][4, 1]cpu");
}

// ==== embedding_dense_backward ====

TEST(IndexingOps, EmbeddingDenseBackwardSumsRows) {
  Tensor grad = iota({4, 2}, DType::Float32, 1); // rows [1, 2], [3, 4], [5, 6], [7, 8]
  Tensor idx = longs({4}, {1, 3, 1, 0});
  std::string edb = "embedding_dense_backward.default";
  // Eager: padding_idx 0 and scale_grad_by_freq give [[0, 0], [3, 4], [0, 0], [3, 4], [0, 0]].
  Tensor scaled = run(call({"g", "i"}, edb, "%g, %i, 5, 0, True"), {grad, idx});
  EXPECT_EQ(scaled.sizes(), (Sizes{5, 2}));
  expectValues(scaled, {0, 0, 3, 4, 0, 0, 3, 4, 0, 0});
  Tensor plain = run(call({"g", "i"}, edb, "%g, %i, 5, -1, False"),
                     {iota({2, 2, 2}, DType::Float32, 1), longs({2, 2}, {1, 3, 1, 0})});
  expectValues(plain, {7, 8, 6, 8, 0, 0, 3, 4, 0, 0});
  expectError(call({"g", "i"}, edb, "%g, %i, 5, -1, False"), {grad, longs({4}, {1, 7, 1, 0})},
              "index 7 is out of range for 5 weights");
  EXPECT_EQ(
      inferOne(edb, "f16[2, 3, 8][24, 8, 1]cpu", "%x, %y, 10, -1, False", "i32[2, 3][3, 1]cpu"),
      "f16[10, 8][8, 1]cpu");
  expectRefused(inferOne(edb, "f32[2, 8][8, 1]cpu", "%x, %y, 10, -1, False", "f32[2][1]cpu"),
                "'indices' to have one of the following scalar types: Long, Int");
}

// ==== flip, repeat ====

TEST(IndexingOps, FlipReversesDims) {
  Tensor x = iota({2, 3}, DType::Int64);
  expectValues(run(call({"x"}, "flip.default", "%x, [0, 1]"), {x}), {5, 4, 3, 2, 1, 0});
  expectValues(run(call({"x"}, "flip.default", "%x, [-1]"), {x}), {2, 1, 0, 5, 4, 3});
  Tensor t = run(call({"x"}, "flip.default", "%x, [0]"), {permuted(iota({3, 2}), {1, 0})});
  EXPECT_EQ(t.strides(), (Sizes{1, 2})); // empty_like keeps the layout
  expectValues(t, {1, 3, 5, 0, 2, 4});
  EXPECT_EQ(inferOne("flip.default", "f32[2, 3, 4, 5][60, 1, 15, 3]cpu", "%x, [1]"),
            "f32[2, 3, 4, 5][60, 1, 15, 3]cpu");
  expectRefused(inferOne("flip.default", "f32[4, 5][5, 1]cpu", "%x, [0, -2]"),
                "duplicate value in the list of dims");
}

TEST(IndexingOps, RepeatTilesAndAddsDims) {
  // Eager: arange(3).repeat(2, 2).
  Tensor r = run(call({"x"}, "repeat.default", "%x, [2, 2]"), {iota({3}, DType::Int64)});
  EXPECT_EQ(r.sizes(), (Sizes{2, 6}));
  expectValues(r, {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2});
  Tensor t = run(call({"x"}, "repeat.default", "%x, [1, 2]"), {permuted(iota({2, 2}), {1, 0})});
  expectValues(t, {0, 2, 0, 2, 1, 3, 1, 3});
  EXPECT_EQ(inferOne("repeat.default", "f32[4, s0][1, 4]cpu", "%x, [2, 1, 3]"),
            "f32[2, 4, 3*s0][12*s0, 3*s0, 1]cpu");
  expectRefused(inferOne("repeat.default", "f32[4, 5][5, 1]cpu", "%x, [2]"),
                "Number of dimensions of repeat dims can not be smaller than number of "
                "dimensions of tensor");
  expectRefused(inferOne("repeat.default", "f32[4, 5][5, 1]cpu", "%x, [2, -1]"),
                "Repeats cannot be negative, found -1 at index 1");
}

// ==== reflection / replication padding ====

TEST(IndexingOps, ReflectionAndReplicationPad) {
  Tensor row = fromValues({1, 4}, {1, 2, 3, 4});
  // Eager results of PyTorch 2.11.
  expectValues(run(call({"x"}, "reflection_pad1d.default", "%x, [3, 2]"), {row}),
               {4, 3, 2, 1, 2, 3, 4, 3, 2});
  expectValues(run(call({"x"}, "reflection_pad1d.default", "%x, [-1, 2]"), {row}), {2, 3, 4, 3, 2});
  expectValues(run(call({"x"}, "replication_pad1d.default", "%x, [-1, 2]"), {row}),
               {2, 3, 4, 4, 4});
  Tensor plane = iota({1, 2, 3}, DType::Float32, 1); // [[1, 2, 3], [4, 5, 6]]
  expectValues(run(call({"x"}, "reflection_pad2d.default", "%x, [1, 0, 1, 1]"), {plane}),
               {5, 4, 5, 6, 2, 1, 2, 3, 5, 4, 5, 6, 2, 1, 2, 3});
  expectValues(run(call({"x"}, "replication_pad2d.default", "%x, [1, 0, 0, 1]"), {plane}),
               {1, 1, 2, 3, 4, 4, 5, 6, 4, 4, 5, 6});
  // 3-d: a [1, 1, 2, 1, 1] volume padded by one everywhere repeats/mirrors along depth.
  Tensor vol = fromValues({1, 1, 2, 1, 1}, {1, 2});
  Tensor rep = run(call({"x"}, "replication_pad3d.default", "%x, [0, 0, 0, 0, 1, 1]"), {vol});
  EXPECT_EQ(rep.sizes(), (Sizes{1, 1, 4, 1, 1}));
  expectValues(rep, {1, 1, 2, 2});
  expectValues(run(call({"x"}, "reflection_pad3d.default", "%x, [0, 0, 0, 0, 1, 1]"), {vol}),
               {2, 1, 2, 1});
  // A strided batch of rows.
  expectValues(
      run(call({"x"}, "reflection_pad1d.default", "%x, [1, 1]"), {permuted(iota({3, 2}), {1, 0})}),
      {2, 0, 2, 4, 2, 3, 1, 3, 5, 3});
}

TEST(IndexingOps, PaddingInferenceAndErrors) {
  // Always contiguous (FakeTensor), even for a channels-last input.
  EXPECT_EQ(
      inferOne("reflection_pad2d.default", "f32[2, 3, 4, 5][60, 1, 15, 3]cpu", "%x, [1, 1, 2, 2]"),
      "f32[2, 3, 8, 7][168, 56, 7, 1]cpu");
  EXPECT_EQ(inferOne("replication_pad3d.default", "f32[2, 3, 4, 5][60, 20, 5, 1]cpu",
                     "%x, [1, 1, 1, 1, 1, 1]"),
            "f32[2, 5, 6, 7][210, 42, 7, 1]cpu");
  EXPECT_EQ(inferOne("reflection_pad1d.default", "f32[4, s0][s0, 1]cpu", "%x, [2, 1]"),
            "f32[4, s0 + 3][s0 + 3, 1]cpu");
  expectRefused(inferOne("reflection_pad1d.default", "f32[3, 5][5, 1]cpu", "%x, [5, 1]"),
                "Argument #4: Padding size should be less than the corresponding input "
                "dimension, but got: padding (5, 1) at dimension 1 of input [3, 5]");
  expectRefused(
      inferOne("reflection_pad2d.default", "f32[2, 0, 4, 5][20, 20, 5, 1]cpu", "%x, [1, 1, 1, 1]"),
      "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other "
      "non-zero dimensions for input, but got: [2, 0, 4, 5]");
  expectRefused(inferOne("replication_pad1d.default", "b8[3, 5][5, 1]cpu", "%x, [1, 1]"),
                "\"replication_pad1d\" not implemented for 'torch.bool'");
  expectRefused(inferOne("reflection_pad2d.default", "f32[3, 4, 5][20, 5, 1]cpu", "%x, [1, 1]"),
                "padding size is expected to be 4, but got: 2");
  expectRefused(
      inferOne("replication_pad2d.default", "f32[3, 2, 2][4, 2, 1]cpu", "%x, [-1, -1, -1, -1]"),
      "input (H: 2 W: 2) is too small. Calculated output H: 0 W: 0");
}

// ==== A zoo graph ====

TEST(IndexingOps, MiscOpsPadIndexPattern) {
  // misc_ops' fw graph: roll through constant_pad_nd and index with a computed int64 index.
  std::string text = "graph():\n"
                     "    %x : [num_users=1] = placeholder[target=x]\n"
                     "    %i : [num_users=1] = placeholder[target=i]\n"
                     "    %p : [num_users=1] = call_function[target=torch.ops.aten."
                     "constant_pad_nd.default](args = (%x, [1, 2], 0.0), kwargs = {})\n"
                     "    %r : [num_users=1] = call_function[target=torch.ops.aten.index.Tensor]"
                     "(args = (%p, [None, %i]), kwargs = {})\n"
                     "    return (r,)\n";
  Tensor r = run(text, {fromValues({1, 2}, {7, 8}), longs({5}, {4, 0, 1, 2, 3})});
  expectValues(r, {0, 0, 7, 8, 0});
}

} // namespace
