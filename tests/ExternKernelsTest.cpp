/// Reference kernels of the Extern ops: each against values computed independently here
/// (hand-worked numbers, or naive loops over contiguous copies), plus the corpus graph that is a
/// single _transformer_encoder_layer_fwd call run on its recorded inputs.

#include "backends/interp/ExternKernels.h"
#include "backends/interp/KernelContext.h"
#include "importers/FxTextParser.h"
#include "importers/json/Safetensors.h"
#include "ir/Graph.h"
#include "ir/ops/OpRegistry.h"
#include "transforms/ShapeInference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace fxkit;
namespace fs = std::filesystem;

namespace {

/// Parses `text` (placeholders, one call_function, output), gives the placeholders `inputs` in
/// order, infers shapes, and runs the call's registered kernel.
Expected<RuntimeValue> runOp(std::string_view text, const std::vector<Tensor> &inputs) {
  registerExternKernels();
  auto graph = parseFxText(text, "<test>");
  if (!graph)
    return graph.takeError();
  std::map<const Node *, RuntimeValue> values;
  size_t next = 0;
  const Node *call = nullptr;
  for (Node *n : *graph) {
    if (n->op() == OpKind::Placeholder) {
      if (next >= inputs.size())
        return Error("more placeholders than inputs");
      n->value() = NodeValue{inputs[next].typeOf()};
      values[n] = RuntimeValue{inputs[next++]};
    } else if (n->op() == OpKind::CallFunction) {
      call = n;
    }
  }
  if (!call)
    return Error("no call_function node");
  if (Status s = inferShapes(*graph); !s)
    return s.takeError();
  const OpInfo *op = OpRegistry::instance().lookup(call->target());
  if (!op || !op->kernel)
    return Error("no kernel for " + std::string(call->target()));
  auto bound = bindArgs(*call, *op);
  if (!bound)
    return bound.takeError();
  SymExpr::Bindings bindings;
  std::function<const RuntimeValue *(const Node *)> valueOf =
      [&](const Node *n) -> const RuntimeValue * {
    auto it = values.find(n);
    return it == values.end() ? nullptr : &it->second;
  };
  KernelContext ctx(*bound, bindings, valueOf);
  if (Status s = op->kernel(ctx); !s)
    return s.takeError();
  // The kernel's result must have the inferred layout.
  auto types = ctx.outputTypes();
  if (!types)
    return types.takeError();
  std::vector<const Tensor *> results;
  if (const Tensor *t = ctx.result.tensor())
    results.push_back(t);
  else if (const auto *ts = ctx.result.tensors())
    for (const auto &t : *ts)
      results.push_back(t ? &*t : nullptr);
  if (results.size() != types->size())
    return Error("kernel gave " + std::to_string(results.size()) + " results, inference " +
                 std::to_string(types->size()));
  for (size_t i = 0; i < results.size(); ++i)
    if (!results[i] || results[i]->typeOf((*types)[i].device) != (*types)[i])
      return Error("result " + std::to_string(i) + " differs from its inferred type");
  return std::move(ctx.result);
}

Tensor randomTensor(std::vector<int64_t> sizes, uint64_t seed, DType dtype = DType::Float32) {
  auto t = Tensor::random(dtype, std::move(sizes), seed);
  EXPECT_TRUE(t);
  return t.take();
}

/// A contiguous float64 tensor from values (row-major).
Tensor fromValues(std::vector<int64_t> sizes, const std::vector<double> &values,
                  DType dtype = DType::Float64) {
  auto t = Tensor::zeros(dtype, sizes);
  EXPECT_TRUE(t);
  size_t i = 0;
  Tensor::forEachIndex(
      sizes, [&](std::span<const int64_t> index) { t->setDouble(index, values.at(i++)); });
  return t.take();
}

/// The elements of t in row-major order of its sizes (whatever its strides).
std::vector<double> flat(const Tensor &t) {
  std::vector<double> out;
  Tensor::forEachIndex(t.sizes(),
                       [&](std::span<const int64_t> index) { out.push_back(t.getDouble(index)); });
  return out;
}

/// A permuted view of t (dims[i] is the source dimension of result dimension i).
Tensor permuted(const Tensor &t, const std::vector<int64_t> &dims) {
  std::vector<int64_t> sizes, strides;
  for (int64_t d : dims) {
    sizes.push_back(t.size(d));
    strides.push_back(t.stride(d));
  }
  auto v = t.asStrided(sizes, strides, t.storageOffset());
  EXPECT_TRUE(v);
  return v.take();
}

void expectClose(const Tensor &actual, const std::vector<double> &expected, double tol = 1e-5) {
  std::vector<double> got = flat(actual);
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], expected[i], tol * (1 + std::abs(expected[i]))) << "element " << i;
}

const Tensor &single(const RuntimeValue &v) { return *v.tensor(); }
const Tensor &part(const RuntimeValue &v, size_t i) { return *(*v.tensors())[i]; }

std::string graphOf(const std::vector<std::string> &placeholders, const std::string &call) {
  std::string text = "graph():\n";
  for (const std::string &p : placeholders)
    text += "    %" + p + " : [num_users=1] = placeholder[target=" + p + "]\n";
  text += "    %r : [num_users=1] = call_function[target=" + call + "\n";
  text += "    return (r,)\n";
  return text;
}

// ---- Matrix products ----

/// Reference product of row-major matrices: k outermost, unlike the kernel.
std::vector<double> product(const std::vector<double> &a, const std::vector<double> &b, int64_t m,
                            int64_t k, int64_t n) {
  std::vector<double> c(m * n, 0.0);
  for (int64_t p = 0; p < k; ++p)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        c[i * n + j] += a[i * k + p] * b[p * n + j];
  return c;
}

TEST(ExternKernels, MmHandWorked) {
  Tensor a = fromValues({2, 3}, {1, 2, 3, 4, 5, 6}, DType::Float32);
  Tensor b = fromValues({3, 2}, {7, 8, 9, 10, 11, 12}, DType::Float32);
  auto r = runOp(graphOf({"a", "b"}, "torch.ops.aten.mm.default](args = (%a, %b), kwargs = {})"),
                 {a, b});
  ASSERT_TRUE(r) << r.error().str();
  expectClose(single(*r), {58, 64, 139, 154});
}

TEST(ExternKernels, MmTransposedOperands) {
  Tensor at = randomTensor({4, 3}, 1); // a = at^T: (3, 4), column-major
  Tensor b = randomTensor({5, 4}, 2);
  Tensor bt = permuted(b, {1, 0}); // (4, 5)
  Tensor a = permuted(at, {1, 0});
  auto r = runOp(graphOf({"a", "b"}, "torch.ops.aten.mm.default](args = (%a, %b), kwargs = {})"),
                 {a, bt});
  ASSERT_TRUE(r) << r.error().str();
  expectClose(single(*r), product(flat(a), flat(bt), 3, 4, 5));
}

TEST(ExternKernels, AddmmBetaAlphaBroadcastBias) {
  Tensor bias = randomTensor({5}, 3);
  Tensor m1 = permuted(randomTensor({4, 3}, 4), {1, 0});
  Tensor m2 = randomTensor({4, 5}, 5);
  auto r = runOp(graphOf({"bias", "m1", "m2"},
                         "torch.ops.aten.addmm.default](args = (%bias, %m1, %m2), kwargs = "
                         "{beta: 0.5, alpha: 2})"),
                 {bias, m1, m2});
  ASSERT_TRUE(r) << r.error().str();
  std::vector<double> expected = product(flat(m1), flat(m2), 3, 4, 5), b = flat(bias);
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 5; ++j)
      expected[i * 5 + j] = 2 * expected[i * 5 + j] + 0.5 * b[j];
  expectClose(single(*r), expected);
}

TEST(ExternKernels, AddmmBetaZeroIgnoresNaNBias) {
  Tensor bias = fromValues({2, 1}, {NAN, 1}, DType::Float32);
  Tensor m1 = fromValues({2, 2}, {1, 2, 3, 4}, DType::Float32);
  Tensor m2 = fromValues({2, 2}, {1, 0, 0, 1}, DType::Float32);
  auto r = runOp(graphOf({"bias", "m1", "m2"},
                         "torch.ops.aten.addmm.default](args = (%bias, %m1, %m2), kwargs = "
                         "{beta: 0})"),
                 {bias, m1, m2});
  ASSERT_TRUE(r) << r.error().str();
  expectClose(single(*r), {1, 2, 3, 4});
}

TEST(ExternKernels, AddmmOutWritesIntoOut) {
  Tensor bias = fromValues({1, 2}, {10, 20}, DType::Float32);
  Tensor m1 = fromValues({2, 2}, {1, 2, 3, 4}, DType::Float32);
  Tensor m2 = fromValues({2, 2}, {5, 6, 7, 8}, DType::Float32);
  Tensor out = randomTensor({2, 2}, 19);
  auto r = runOp(graphOf({"bias", "m1", "m2", "out"},
                         "torch.ops.aten.addmm.out](args = (%bias, %m1, %m2), kwargs = {alpha: 1, "
                         "beta: 1, out: %out})"),
                 {bias, m1, m2, out});
  ASSERT_TRUE(r) << r.error().str();
  // [[19, 22], [43, 50]] + [10, 20], in the given buffer (which is also the result).
  expectClose(single(*r), {29, 42, 53, 70});
  EXPECT_TRUE(single(*r).sharesStorageWith(out));
  expectClose(out, {29, 42, 53, 70});
}

TEST(ExternKernels, BmmPermutedOperands) {
  // a: (2, 3, 4) viewed from a (3, 2, 4) buffer; b: (2, 4, 5) from a (5, 4, 2) buffer.
  Tensor a = permuted(randomTensor({3, 2, 4}, 6), {1, 0, 2});
  Tensor b = permuted(randomTensor({5, 4, 2}, 7), {2, 1, 0});
  auto r = runOp(graphOf({"a", "b"}, "torch.ops.aten.bmm.default](args = (%a, %b), kwargs = {})"),
                 {a, b});
  ASSERT_TRUE(r) << r.error().str();
  std::vector<double> fa = flat(a), fb = flat(b), expected;
  for (int64_t n = 0; n < 2; ++n) {
    std::vector<double> sa(fa.begin() + n * 12, fa.begin() + (n + 1) * 12);
    std::vector<double> sb(fb.begin() + n * 20, fb.begin() + (n + 1) * 20);
    std::vector<double> c = product(sa, sb, 3, 4, 5);
    expected.insert(expected.end(), c.begin(), c.end());
  }
  expectClose(single(*r), expected);
}

TEST(ExternKernels, MmShapeMismatchIsAnError) {
  Tensor a = randomTensor({2, 3}, 8), b = randomTensor({3, 2}, 9);
  // Inference sees matching types; the runtime tensors differ from them.
  registerExternKernels();
  auto graph =
      parseFxText(graphOf({"a", "b"}, "torch.ops.aten.mm.default](args = (%a, %b), kwargs = {})"));
  ASSERT_TRUE(graph);
  Node *pa = graph->find("a"), *pb = graph->find("b"), *call = graph->find("r");
  pa->value() = NodeValue{a.typeOf()};
  pb->value() = NodeValue{b.typeOf()};
  ASSERT_TRUE(inferShapes(*graph));
  Tensor wrong = randomTensor({4, 2}, 10);
  RuntimeValue va{a}, vb{wrong};
  std::function<const RuntimeValue *(const Node *)> valueOf =
      [&](const Node *n) -> const RuntimeValue * { return n == pa ? &va : &vb; };
  const OpInfo *op = OpRegistry::instance().lookup(call->target());
  auto bound = bindArgs(*call, *op);
  ASSERT_TRUE(bound);
  SymExpr::Bindings bindings;
  KernelContext ctx(*bound, bindings, valueOf);
  Status s = op->kernel(ctx);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("node 'r'"), std::string::npos) << s.error().message;
}

// ---- Convolution ----

TEST(ExternKernels, Conv2dStridePaddingDilationGroupsBias) {
  const int64_t N = 2, C = 4, H = 7, W = 6, O = 6, G = 2, KH = 3, KW = 2;
  const int64_t SH = 2, SW = 1, PH = 1, PW = 2, DH = 1, DW = 2;
  Tensor x = randomTensor({N, C, H, W}, 11);
  Tensor w = randomTensor({O, C / G, KH, KW}, 12);
  Tensor b = randomTensor({O}, 13);
  auto r = runOp(graphOf({"x", "w", "b"},
                         "torch.ops.aten.convolution.default](args = (%x, %w, %b, [2, 1], [1, 2], "
                         "[1, 2], False, [0, 0], 2), kwargs = {})"),
                 {x, w, b});
  ASSERT_TRUE(r) << r.error().str();
  const int64_t OH = (H + 2 * PH - DH * (KH - 1) - 1) / SH + 1;
  const int64_t OW = (W + 2 * PW - DW * (KW - 1) - 1) / SW + 1;
  ASSERT_EQ(single(*r).sizes(), (std::vector<int64_t>{N, O, OH, OW}));
  // Zero-padded input, then a plain gather per output element.
  std::vector<double> padded((size_t)(N * C * (H + 2 * PH) * (W + 2 * PW)), 0.0);
  auto pIdx = [&](int64_t n, int64_t c, int64_t h, int64_t ww) {
    return ((n * C + c) * (H + 2 * PH) + h) * (W + 2 * PW) + ww;
  };
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t ww = 0; ww < W; ++ww)
          padded[pIdx(n, c, h + PH, ww + PW)] = x.getDouble(std::vector<int64_t>{n, c, h, ww});
  std::vector<double> expected;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t o = 0; o < O; ++o)
      for (int64_t oh = 0; oh < OH; ++oh)
        for (int64_t ow = 0; ow < OW; ++ow) {
          double acc = b.getDouble(std::vector<int64_t>{o});
          int64_t g = o / (O / G);
          for (int64_t c = 0; c < C / G; ++c)
            for (int64_t kh = 0; kh < KH; ++kh)
              for (int64_t kw = 0; kw < KW; ++kw)
                acc += padded[pIdx(n, g * (C / G) + c, oh * SH + kh * DH, ow * SW + kw * DW)] *
                       w.getDouble(std::vector<int64_t>{o, c, kh, kw});
          expected.push_back(acc);
        }
  expectClose(single(*r), expected);
}

TEST(ExternKernels, Conv1dNoBiasHandWorked) {
  // [1, 2, 3, 4] * [1, -1] with padding 1: [-1, -1, -1, -1, 4].
  Tensor x = fromValues({1, 1, 4}, {1, 2, 3, 4}, DType::Float32);
  Tensor w = fromValues({1, 1, 2}, {1, -1}, DType::Float32);
  auto r = runOp(graphOf({"x", "w"}, "torch.ops.aten.convolution.default](args = (%x, %w, None, "
                                     "[1], [1], [1], False, [0], 1), kwargs = {})"),
                 {x, w});
  ASSERT_TRUE(r) << r.error().str();
  expectClose(single(*r), {-1, -1, -1, -1, 4});
}

TEST(ExternKernels, Conv3dHandWorked) {
  // A 2x2x2 box filter over ones: every output is 8; padding 1 at the corners sees one input.
  Tensor x = fromValues({1, 1, 2, 2, 2}, std::vector<double>(8, 1.0), DType::Float32);
  Tensor w = fromValues({1, 1, 2, 2, 2}, std::vector<double>(8, 1.0), DType::Float32);
  auto r = runOp(graphOf({"x", "w"}, "torch.ops.aten.convolution.default](args = (%x, %w, None, "
                                     "[1, 1, 1], [0, 0, 0], [1, 1, 1], False, [0, 0, 0], 1), "
                                     "kwargs = {})"),
                 {x, w});
  ASSERT_TRUE(r) << r.error().str();
  expectClose(single(*r), {8});
  auto p = runOp(graphOf({"x", "w"}, "torch.ops.aten.convolution.default](args = (%x, %w, None, "
                                     "[2, 2, 2], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), "
                                     "kwargs = {})"),
                 {x, w});
  ASSERT_TRUE(p) << p.error().str();
  EXPECT_EQ(single(*p).sizes(), (std::vector<int64_t>{1, 1, 2, 2, 2}));
  expectClose(single(*p), std::vector<double>(8, 1.0));
}

TEST(ExternKernels, ConvTransposed1dHandWorked) {
  // Stride 2 scatters x[i] * w[k] to 2i + k: [1, 10, 2, 20, 3, 30], plus bias 0.5.
  Tensor x = fromValues({1, 1, 3}, {1, 2, 3}, DType::Float32);
  Tensor w = fromValues({1, 1, 2}, {1, 10}, DType::Float32);
  Tensor b = fromValues({1}, {0.5}, DType::Float32);
  auto r = runOp(graphOf({"x", "w", "b"}, "torch.ops.aten.convolution.default](args = (%x, %w, "
                                          "%b, [2], [0], [1], True, [0], 1), kwargs = {})"),
                 {x, w, b});
  ASSERT_TRUE(r) << r.error().str();
  expectClose(single(*r), {1.5, 10.5, 2.5, 20.5, 3.5, 30.5});
}

TEST(ExternKernels, ConvTransposed2dGroupsPaddingMatchesAdjoint) {
  // A transposed convolution is the adjoint of the convolution with the same parameters:
  // <convT(y), x> == <y, conv(x)> for every x and y.
  const int64_t C = 4, O = 2, G = 2;
  Tensor w = randomTensor({C, O / G, 3, 2}, 14); // (in, out / groups, kh, kw)
  Tensor y = randomTensor({1, C, 3, 4}, 15);
  auto r = runOp(graphOf({"y", "w"}, "torch.ops.aten.convolution.default](args = (%y, %w, None, "
                                     "[2, 1], [1, 0], [1, 1], True, [1, 0], 2), kwargs = {})"),
                 {y, w});
  ASSERT_TRUE(r) << r.error().str();
  const Tensor &t = single(*r);
  ASSERT_EQ(t.sizes(), (std::vector<int64_t>{1, O, 6, 5}));
  Tensor x = randomTensor({1, O, 6, 5}, 16);
  auto c = runOp(graphOf({"x", "w"}, "torch.ops.aten.convolution.default](args = (%x, %w, None, "
                                     "[2, 1], [1, 0], [1, 1], False, [0, 0], 2), kwargs = {})"),
                 {x, w});
  ASSERT_TRUE(c) << c.error().str();
  ASSERT_EQ(single(*c).sizes(), y.sizes());
  double lhs = 0, rhs = 0;
  std::vector<double> ft = flat(t), fx = flat(x), fy = flat(y), fc = flat(single(*c));
  for (size_t i = 0; i < ft.size(); ++i)
    lhs += ft[i] * fx[i];
  for (size_t i = 0; i < fy.size(); ++i)
    rhs += fy[i] * fc[i];
  EXPECT_NEAR(lhs, rhs, 1e-4 * (1 + std::abs(rhs)));
}

TEST(ExternKernels, ConvChannelsLastOutputLayout) {
  // A channels-last input gives a channels-last output; values do not depend on layout.
  Tensor base = randomTensor({1, 3, 3, 2}, 17); // (N, H, W, C)
  Tensor x = permuted(base, {0, 3, 1, 2});      // (N, C, H, W), channels-last strides
  Tensor w = randomTensor({2, 2, 1, 1}, 18);
  auto r = runOp(graphOf({"x", "w"}, "torch.ops.aten.convolution.default](args = (%x, %w, None, "
                                     "[1, 1], [0, 0], [1, 1], False, [0, 0], 1), kwargs = {})"),
                 {x, w});
  ASSERT_TRUE(r) << r.error().str();
  EXPECT_EQ(single(*r).strides(), (std::vector<int64_t>{18, 1, 6, 2}));
  std::vector<double> expected;
  for (int64_t o = 0; o < 2; ++o)
    for (int64_t h = 0; h < 3; ++h)
      for (int64_t ww = 0; ww < 3; ++ww) {
        double acc = 0;
        for (int64_t c = 0; c < 2; ++c)
          acc += base.getDouble(std::vector<int64_t>{0, h, ww, c}) *
                 w.getDouble(std::vector<int64_t>{o, c, 0, 0});
        expected.push_back(acc);
      }
  expectClose(single(*r), expected);
}

// ---- Embedding and topk ----

TEST(ExternKernels, Embedding) {
  Tensor weight = fromValues({4, 2}, {0, 1, 10, 11, 20, 21, 30, 31}, DType::Float32);
  Tensor idx = fromValues({2, 2}, {3, 0, 2, 3}, DType::Int64);
  auto r =
      runOp(graphOf({"w", "i"}, "torch.ops.aten.embedding.default](args = (%w, %i), kwargs = {})"),
            {weight, idx});
  ASSERT_TRUE(r) << r.error().str();
  EXPECT_EQ(single(*r).sizes(), (std::vector<int64_t>{2, 2, 2}));
  expectClose(single(*r), {30, 31, 0, 1, 20, 21, 30, 31});

  Tensor bad = fromValues({1}, {4}, DType::Int64);
  auto e =
      runOp(graphOf({"w", "i"}, "torch.ops.aten.embedding.default](args = (%w, %i), kwargs = {})"),
            {weight, bad});
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("out of range"), std::string::npos);
}

TEST(ExternKernels, TopkLargestAndSmallest) {
  Tensor x = fromValues({2, 5}, {3, 1, 4, 1, 5, 2, 7, 1, 8, 2}, DType::Float32);
  auto r = runOp(graphOf({"x"}, "torch.ops.aten.topk.default](args = (%x, 3), kwargs = {})"), {x});
  ASSERT_TRUE(r) << r.error().str();
  expectClose(part(*r, 0), {5, 4, 3, 8, 7, 2});
  EXPECT_EQ(part(*r, 1).dtype(), DType::Int64);
  expectClose(part(*r, 1), {4, 2, 0, 3, 1, 0});

  // Smallest along dim 1; equal values keep the lower index first.
  auto s = runOp(graphOf({"x"}, "torch.ops.aten.topk.default](args = (%x, 2, 1, False), kwargs "
                                "= {})"),
                 {x});
  ASSERT_TRUE(s) << s.error().str();
  expectClose(part(*s, 0), {1, 1, 1, 2});
  expectClose(part(*s, 1), {1, 3, 2, 0});
}

TEST(ExternKernels, TopkAlongDimZeroWithNaN) {
  Tensor x = fromValues({3, 2}, {1, NAN, 5, 2, 3, 9}, DType::Float32);
  auto r =
      runOp(graphOf({"x"}, "torch.ops.aten.topk.default](args = (%x, 2, 0), kwargs = {})"), {x});
  ASSERT_TRUE(r) << r.error().str();
  std::vector<double> v = flat(part(*r, 0));
  EXPECT_EQ(v[0], 5);
  EXPECT_TRUE(std::isnan(v[1])); // NaN is the largest
  EXPECT_EQ(v[2], 3);
  EXPECT_EQ(v[3], 9);
  expectClose(part(*r, 1), {1, 0, 2, 2});
}

// ---- Attention ----

/// softmax(q k^T * scale + bias) v over (B, H, M, E) contiguous copies, with the row
/// logsumexp; causal drops key j > query i.
struct AttentionRef {
  std::vector<double> out, lse;
};
AttentionRef attentionReference(const Tensor &q, const Tensor &k, const Tensor &v,
                                const Tensor *bias, bool causal, double scale) {
  int64_t B = q.size(0), H = q.size(1), M = q.size(2), E = q.size(3), N = k.size(2), D = v.size(3);
  AttentionRef ref;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t i = 0; i < M; ++i) {
        std::vector<double> p(N);
        for (int64_t j = 0; j < N; ++j) {
          double s = 0;
          for (int64_t e = 0; e < E; ++e)
            s += q.getDouble(std::vector<int64_t>{b, h, i, e}) *
                 k.getDouble(std::vector<int64_t>{b, h, j, e});
          s *= scale;
          if (bias)
            s += bias->getDouble(std::vector<int64_t>{0, 0, i, j});
          p[j] = causal && j > i ? -INFINITY : s;
        }
        double total = 0;
        for (double s : p)
          total += std::exp(s);
        ref.lse.push_back(std::log(total));
        for (int64_t d = 0; d < D; ++d) {
          double acc = 0;
          for (int64_t j = 0; j < N; ++j)
            acc += std::exp(p[j]) / total * v.getDouble(std::vector<int64_t>{b, h, j, d});
          ref.out.push_back(acc);
        }
      }
  return ref;
}

TEST(ExternKernels, EfficientAttentionWithBias) {
  Tensor q = randomTensor({2, 2, 3, 4}, 20), k = randomTensor({2, 2, 5, 4}, 21);
  Tensor v = randomTensor({2, 2, 5, 3}, 22), bias = randomTensor({1, 1, 3, 5}, 23);
  auto r = runOp(graphOf({"q", "k", "v", "bias"},
                         "torch.ops.aten._scaled_dot_product_efficient_attention.default](args = "
                         "(%q, %k, %v, %bias, True), kwargs = {})"),
                 {q, k, v, bias});
  ASSERT_TRUE(r) << r.error().str();
  AttentionRef ref = attentionReference(q, k, v, &bias, false, 0.5);
  expectClose(part(*r, 0), ref.out);
  const Tensor &lse = part(*r, 1);
  ASSERT_EQ(lse.sizes(), (std::vector<int64_t>{2, 2, 32}));
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t h = 0; h < 2; ++h)
      for (int64_t i = 0; i < 32; ++i) {
        double got = lse.getDouble(std::vector<int64_t>{b, h, i});
        if (i < 3)
          EXPECT_NEAR(got, ref.lse[(b * 2 + h) * 3 + i], 1e-5);
        else
          EXPECT_EQ(got, INFINITY);
      }
  EXPECT_EQ(part(*r, 2).dim(), 0);
  EXPECT_EQ(part(*r, 3).dtype(), DType::Int64);
}

TEST(ExternKernels, EfficientAttentionCausalScaleNoLse) {
  Tensor q = randomTensor({1, 2, 4, 4}, 24), k = randomTensor({1, 2, 4, 4}, 25);
  Tensor v = randomTensor({1, 2, 4, 2}, 26);
  auto r = runOp(graphOf({"q", "k", "v"},
                         "torch.ops.aten._scaled_dot_product_efficient_attention.default](args = "
                         "(%q, %k, %v, None, False, 0.0, True), kwargs = {scale: 0.25})"),
                 {q, k, v});
  ASSERT_TRUE(r) << r.error().str();
  expectClose(part(*r, 0), attentionReference(q, k, v, nullptr, true, 0.25).out);
  EXPECT_EQ(part(*r, 1).numel(), 0);
}

TEST(ExternKernels, EfficientAttentionDropoutIsAnError) {
  Tensor q = randomTensor({1, 1, 2, 2}, 27);
  auto r = runOp(graphOf({"q", "k", "v"},
                         "torch.ops.aten._scaled_dot_product_efficient_attention.default](args = "
                         "(%q, %k, %v, None, False, 0.1), kwargs = {})"),
                 {q, q, q});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("dropout"), std::string::npos);
}

TEST(ExternKernels, FlashAttentionCpuCausalAndMask) {
  Tensor q = randomTensor({1, 3, 4, 2}, 28), k = randomTensor({1, 3, 4, 2}, 29);
  Tensor v = randomTensor({1, 3, 4, 5}, 30);
  auto r = runOp(graphOf({"q", "k", "v"},
                         "torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default]("
                         "args = (%q, %k, %v, 0.0, True), kwargs = {})"),
                 {q, k, v});
  ASSERT_TRUE(r) << r.error().str();
  AttentionRef ref = attentionReference(q, k, v, nullptr, true, 1 / std::sqrt(2.0));
  expectClose(part(*r, 0), ref.out);
  expectClose(part(*r, 1), ref.lse);

  // A bool mask keeps where true; the same as an additive mask of 0 and -inf.
  Tensor keep = fromValues({4, 4}, {1, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1}, DType::Bool);
  std::vector<double> additive;
  for (double kv : flat(keep))
    additive.push_back(kv != 0 ? 0.0 : -INFINITY);
  Tensor bias = fromValues({1, 1, 4, 4}, additive);
  auto m = runOp(graphOf({"q", "k", "v", "mask"},
                         "torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default]("
                         "args = (%q, %k, %v), kwargs = {attn_mask: %mask})"),
                 {q, k, v, keep});
  ASSERT_TRUE(m) << m.error().str();
  AttentionRef masked = attentionReference(q, k, v, &bias, false, 1 / std::sqrt(2.0));
  expectClose(part(*m, 0), masked.out);
  expectClose(part(*m, 1), masked.lse);
}

// ---- Transformer encoder layer ----

std::string transformerGraph(bool useGelu, bool normFirst, bool withMask) {
  std::vector<std::string> names;
  for (int i = 0; i < (withMask ? 14 : 13); ++i)
    names.push_back("p" + std::to_string(i));
  std::string args = "%p0, 8, 2, %p1, %p2, %p3, %p4, " + std::string(useGelu ? "True" : "False") +
                     ", " + (normFirst ? "True" : "False") +
                     ", 1e-05, %p5, %p6, %p7, %p8, %p9, %p10, %p11, %p12";
  if (withMask)
    args += ", %p13, 1";
  return graphOf(names, "torch.ops.aten._transformer_encoder_layer_fwd.default](args = (" + args +
                            "), kwargs = {})");
}

/// nn.TransformerEncoderLayer written out with per-head matrices: src (B, T, E).
std::vector<double> transformerReference(const std::vector<Tensor> &in, bool useGelu,
                                         bool normFirst, const Tensor *padding) {
  const Tensor &src = in[0];
  int64_t B = src.size(0), T = src.size(1), E = src.size(2), H = 2, D = E / H;
  using Mat = std::vector<std::vector<double>>;
  auto vec = [](const Tensor &t) { return flat(t); };
  auto lin = [&](const Mat &x, const Tensor &w, const Tensor &b) {
    std::vector<double> fw = vec(w), fb = vec(b);
    int64_t out = w.size(0), inDim = w.size(1);
    Mat y(x.size(), std::vector<double>(out));
    for (size_t r = 0; r < x.size(); ++r)
      for (int64_t o = 0; o < out; ++o) {
        y[r][o] = fb[o];
        for (int64_t c = 0; c < inDim; ++c)
          y[r][o] += fw[o * inDim + c] * x[r][c];
      }
    return y;
  };
  auto norm = [&](const Mat &x, const Tensor &w, const Tensor &b) {
    std::vector<double> fw = vec(w), fb = vec(b);
    Mat y = x;
    for (auto &row : y) {
      double mean = 0, sq = 0;
      for (double e : row)
        mean += e / row.size();
      for (double e : row)
        sq += (e - mean) * (e - mean) / row.size();
      for (size_t c = 0; c < row.size(); ++c)
        row[c] = (row[c] - mean) / std::sqrt(sq + 1e-5) * fw[c] + fb[c];
    }
    return y;
  };
  Mat result;
  for (int64_t b = 0; b < B; ++b) {
    Mat s(T, std::vector<double>(E));
    for (int64_t t = 0; t < T; ++t)
      for (int64_t e = 0; e < E; ++e)
        s[t][e] = src.getDouble(std::vector<int64_t>{b, t, e});
    Mat x = normFirst ? norm(s, in[5], in[6]) : s;
    Mat qkv = lin(x, in[1], in[2]);
    Mat attn(T, std::vector<double>(E, 0.0));
    for (int64_t h = 0; h < H; ++h)
      for (int64_t i = 0; i < T; ++i) {
        std::vector<double> w(T);
        double total = 0;
        for (int64_t j = 0; j < T; ++j) {
          bool masked = padding && padding->getDouble(std::vector<int64_t>{b, j}) != 0;
          double dot = 0;
          for (int64_t d = 0; d < D; ++d)
            dot += qkv[i][h * D + d] * qkv[j][E + h * D + d];
          w[j] = masked ? 0.0 : std::exp(dot / std::sqrt(double(D)));
          total += w[j];
        }
        for (int64_t j = 0; j < T; ++j)
          for (int64_t d = 0; d < D; ++d)
            attn[i][h * D + d] += w[j] / total * qkv[j][2 * E + h * D + d];
      }
    Mat y = lin(attn, in[3], in[4]);
    for (int64_t t = 0; t < T; ++t)
      for (int64_t e = 0; e < E; ++e)
        y[t][e] += s[t][e];
    if (!normFirst)
      y = norm(y, in[5], in[6]);
    Mat f = lin(normFirst ? norm(y, in[7], in[8]) : y, in[9], in[10]);
    for (auto &row : f)
      for (double &e : row)
        e = useGelu ? e * 0.5 * std::erfc(-e / std::sqrt(2.0)) : (e > 0 ? e : 0);
    Mat z = lin(f, in[11], in[12]);
    for (int64_t t = 0; t < T; ++t)
      for (int64_t e = 0; e < E; ++e)
        z[t][e] += y[t][e];
    if (!normFirst)
      z = norm(z, in[7], in[8]);
    result.insert(result.end(), z.begin(), z.end());
  }
  std::vector<double> out;
  for (const auto &row : result)
    out.insert(out.end(), row.begin(), row.end());
  return out;
}

std::vector<Tensor> transformerInputs(uint64_t seed) {
  const int64_t B = 2, T = 3, E = 8, F = 12;
  std::vector<std::vector<int64_t>> shapes = {
      {B, T, E}, {3 * E, E}, {3 * E}, {E, E}, {E}, {E}, {E}, {E}, {E}, {F, E}, {F}, {E, F}, {E}};
  std::vector<Tensor> in;
  for (size_t i = 0; i < shapes.size(); ++i)
    in.push_back(randomTensor(shapes[i], seed + i));
  return in;
}

TEST(ExternKernels, TransformerEncoderLayerPostNormRelu) {
  std::vector<Tensor> in = transformerInputs(40);
  auto r = runOp(transformerGraph(false, false, false), in);
  ASSERT_TRUE(r) << r.error().str();
  expectClose(single(*r), transformerReference(in, false, false, nullptr));
}

TEST(ExternKernels, TransformerEncoderLayerPreNormGeluPaddingMask) {
  std::vector<Tensor> in = transformerInputs(60);
  Tensor padding = fromValues({2, 3}, {0, 0, 1, 0, 1, 0}, DType::Bool);
  in.push_back(padding);
  auto r = runOp(transformerGraph(true, true, true), in);
  ASSERT_TRUE(r) << r.error().str();
  expectClose(single(*r), transformerReference(in, true, true, &padding));
}

// ---- Corpus ----

fs::path corpusReference() { return fs::path(FXKIT_TEST_DATA) / "corpus" / "reference"; }

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Runs a reference graph that is a single extern call on its recorded inputs and compares with
/// its recorded output (1e-4 relative and absolute, the corpus tolerance for float32).
void checkSingleOpReference(const std::string &workload) {
  fs::path dir = corpusReference() / workload;
  auto inputs = readSafetensors((dir / "fw_0.inputs.safetensors").string());
  ASSERT_TRUE(inputs) << inputs.error().str();
  auto outputs = readSafetensors((dir / "fw_0.outputs.safetensors").string());
  ASSERT_TRUE(outputs) << outputs.error().str();
  std::vector<Tensor> args;
  for (size_t i = 0;; ++i) {
    const Tensor *t = inputs->find("arg_" + std::to_string(i));
    if (!t)
      break;
    args.push_back(*t);
  }
  auto r = runOp(readFile(dir / "fw_0.graph.txt"), args);
  ASSERT_TRUE(r) << r.error().str();
  const Tensor *expected = outputs->find("out_0");
  ASSERT_NE(expected, nullptr);
  auto cmp = compareTensors(single(*r), *expected, 1e-4, 1e-4);
  ASSERT_TRUE(cmp) << cmp.error().str();
  EXPECT_TRUE(cmp->allClose) << cmp->str();
  std::cout << "[ corpus ] " << workload << ": " << cmp->str() << "\n";
}

TEST(ExternKernelsCorpus, TransformerLayerReference) {
  checkSingleOpReference("transformer_layer");
}

} // namespace
