/// The Nn op family (ir/ops/NnOps.cpp, backends/interp/NnKernels.cpp): pooling, Inductor's
/// low-memory max-pool prims, convolution backward, upsampling, grid sampling, col2im,
/// distances and embedding bags. Values are worked out by hand or computed here by naive
/// loops (or, for the linear backward ops, checked through the adjoint identity
/// <f(x), g> = <x, f'(g)> against an independent forward kernel); inference is checked for
/// sizes (symbolic too), dtypes and strides, and bad arguments for PyTorch's errors.

#include "InterpreterTestSupport.h"
#include "ir/ops/ShapeRules.h"
#include "transforms/ShapeInference.h"

#include <limits>

using namespace fxkit;
using namespace fxkit::testing;

namespace {

using Ints = std::vector<int64_t>;
const double kNaN = std::numeric_limits<double>::quiet_NaN();

/// 0, 1, ..., n-1 (or its negation) in row-major order of `sizes`.
Tensor iota(const Ints &sizes, DType dtype = DType::Float32, double sign = 1) {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  std::vector<double> values;
  for (int64_t i = 0; i < n; ++i)
    values.push_back(sign * static_cast<double>(i));
  return fromValues(sizes, values, dtype);
}

Tensor random(const Ints &sizes, uint64_t seed, DType dtype = DType::Float32) {
  auto t = Tensor::random(dtype, sizes, seed);
  EXPECT_TRUE(t);
  return t.take();
}

/// A channels-last (NHWC) copy of a 4-d tensor: same values, permuted storage.
Tensor channelsLast(const Tensor &t) {
  Tensor nhwc = permuted(t, {0, 2, 3, 1}).contiguous();
  return permuted(nhwc, {0, 3, 1, 2});
}

/// A graph `r = target(args)` over placeholders (each "name" or "name:type", the type as FX
/// prints it, "f32[s0, 3][3, 1]cpu"), returning r itself (items empty) or getitem(r, i) for
/// each of `items`.
std::string graph(const std::vector<std::string> &placeholders, const std::string &target,
                  const std::string &args, const std::vector<int> &items = {}) {
  std::string text = "graph():\n";
  for (const std::string &p : placeholders) {
    size_t colon = p.find(':');
    std::string name = p.substr(0, colon);
    std::string type = colon == std::string::npos ? "" : "Tensor \"" + p.substr(colon + 1) + "\"";
    text += "    %" + name + " : " + type + "[num_users=1] = placeholder[target=" + name + "]\n";
  }
  text += "    %r : [num_users=1] = call_function[target=" + target + "](args = (" + args +
          "), kwargs = {})\n";
  std::string ret;
  for (int i : items) {
    std::string g = "g" + std::to_string(i);
    text += "    %" + g + " : [num_users=1] = call_function[target=operator.getitem](args = (%r, " +
            std::to_string(i) + "), kwargs = {})\n";
    ret += (ret.empty() ? "" : ", ") + g;
  }
  return text + "    return (" + (items.empty() ? "r," : ret) + ")\n";
}

std::string aten(const std::string &op) { return "torch.ops.aten." + op; }

/// Runs a graph; expects success and returns its tensor outputs.
std::vector<Tensor> run(const std::string &text, const std::vector<Tensor> &inputs) {
  std::vector<RuntimeValue> values;
  for (const Tensor &t : inputs)
    values.push_back(RuntimeValue{t});
  auto r = runText(text, values);
  EXPECT_TRUE(r) << (r ? "" : r.error().str()) << "\n" << text;
  std::vector<Tensor> out;
  if (r)
    for (const RuntimeValue &v : r->outputs)
      out.push_back(v.tensor() ? *v.tensor() : Tensor());
  return out;
}

/// Runs a graph expecting an error (at inference or in the kernel) containing `part`.
void expectError(const std::string &text, const std::vector<Tensor> &inputs,
                 const std::string &part) {
  std::vector<RuntimeValue> values;
  for (const Tensor &t : inputs)
    values.push_back(RuntimeValue{t});
  auto r = runText(text, values);
  ASSERT_FALSE(r) << "expected an error containing '" << part << "'\n" << text;
  EXPECT_NE(r.error().message.find(part), std::string::npos) << r.error().message;
}

/// Shape inference of node r over typed placeholders.
Expected<NodeValue> infer(const std::string &text) {
  auto g = parseFxText(text, "<test>");
  if (!g)
    return g.takeError();
  if (Status s = inferShapes(*g); !s)
    return s.takeError();
  return g->find("r")->value();
}

/// A symbolic expression evaluated at the given bindings.
int64_t eval(const SymExpr &e, const SymExpr::Bindings &b) {
  auto v = e.evaluate(b);
  EXPECT_TRUE(v) << e.str();
  return v ? *v : -1;
}

Ints evalAll(const std::vector<SymExpr> &v, const SymExpr::Bindings &b) {
  Ints out;
  for (const SymExpr &e : v)
    out.push_back(eval(e, b));
  return out;
}

double dot(const Tensor &a, const Tensor &b) {
  std::vector<double> x = flat(a), y = flat(b);
  EXPECT_EQ(x.size(), y.size());
  double s = 0;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i)
    s += x[i] * y[i];
  return s;
}

std::string maxPool(const std::string &args) {
  return graph({"x"}, aten("max_pool2d_with_indices.default"), "%x, " + args, {0, 1});
}

// ---- max_pool2d_with_indices ----

TEST(NnOps, MaxPool2dValuesAndFirstMaxIndices) {
  Tensor x = fromValues({1, 1, 4, 4}, {1, 5, 2, 0, 3, 4, 7, 7, 9, 8, 6, 1, 2, 9, 0, 6});
  auto out = run(maxPool("[2, 2], [2, 2]"), {x});
  ASSERT_EQ(out.size(), 2u);
  expectValues(out[0], {5, 7, 9, 6});
  // Ties keep the first maximum in row-major window order.
  expectValues(out[1], {1, 6, 8, 10});
  EXPECT_EQ(out[1].dtype(), DType::Int64);
  // A non-contiguous view of the same values gives the same result.
  Tensor xt = permuted(permuted(x, {0, 1, 3, 2}).contiguous(), {0, 1, 3, 2});
  auto outT = run(maxPool("[2, 2], [2, 2]"), {xt});
  expectValues(outT[0], {5, 7, 9, 6});
  expectValues(outT[1], {1, 6, 8, 10});
  // Integer tensors are compared exactly.
  Tensor xi =
      fromValues({1, 1, 4, 4}, {1, 5, 2, 0, 3, 4, 7, 7, 9, 8, 6, 1, 2, 9, 0, 6}, DType::Int64);
  auto outI = run(maxPool("[2, 2], [2, 2]"), {xi});
  EXPECT_EQ(outI[0].dtype(), DType::Int64);
  expectValues(outI[0], {5, 7, 9, 6});
}

TEST(NnOps, MaxPool2dNanWinsAtItsLastOccurrence) {
  Tensor x = fromValues({1, 1, 2, 4}, {1, kNaN, -1, -2, 3, kNaN, -3, -4});
  auto out = run(maxPool("[2, 2], [2, 2]"), {x});
  expectValues(out[0], {kNaN, -1});
  expectValues(out[1], {5, 2});
}

TEST(NnOps, MaxPool2dPaddingCeilModeAndDilation) {
  // Padding never wins: windows are clipped to the input (all values negative here).
  auto padded = run(maxPool("[3, 3], [2, 2], [1, 1]"), {iota({1, 1, 3, 3}, DType::Float32, -1)});
  expectValues(padded[0], {0, -1, -3, -4});
  expectValues(padded[1], {0, 1, 3, 4});
  auto padded2 = run(maxPool("[3, 3], [2, 2], [1, 1]"), {iota({1, 1, 3, 3})});
  expectValues(padded2[0], {4, 5, 7, 8});
  // ceil_mode adds partial windows at the end: 5 -> 3.
  auto ceil = run(maxPool("[2, 2], [2, 2], [0, 0], [1, 1], True"), {iota({1, 1, 5, 5})});
  EXPECT_EQ(ceil[0].sizes(), (Ints{1, 1, 3, 3}));
  expectValues(ceil[0], {6, 8, 9, 16, 18, 19, 21, 23, 24});
  expectValues(ceil[1], {6, 8, 9, 16, 18, 19, 21, 23, 24});
  auto dilated = run(maxPool("[2, 2], [1, 1], [0, 0], [2, 2]"), {iota({1, 1, 4, 4})});
  expectValues(dilated[0], {10, 11, 14, 15});
  // A 3-d input (no batch) and a single int for the stride.
  auto unbatched = run(maxPool("[2, 2], [2]"), {iota({2, 2, 2})});
  EXPECT_EQ(unbatched[0].sizes(), (Ints{2, 1, 1}));
  expectValues(unbatched[0], {3, 7});
  expectValues(unbatched[1], {3, 3});
}

/// Naive max pooling of a contiguous (N, C, H, W) tensor: padded positions are skipped.
std::pair<std::vector<double>, std::vector<double>> naiveMaxPool2d(const Tensor &x, Ints k, Ints s,
                                                                   Ints p, Ints d, Ints out) {
  std::vector<double> v = flat(x), values, indices;
  int64_t planes = x.size(0) * x.size(1), H = x.size(2), W = x.size(3);
  for (int64_t pl = 0; pl < planes; ++pl)
    for (int64_t oh = 0; oh < out[0]; ++oh)
      for (int64_t ow = 0; ow < out[1]; ++ow) {
        double best = -INFINITY;
        int64_t where = -1;
        for (int64_t i = 0; i < k[0]; ++i)
          for (int64_t j = 0; j < k[1]; ++j) {
            int64_t h = oh * s[0] - p[0] + i * d[0], w = ow * s[1] - p[1] + j * d[1];
            if (h < 0 || h >= H || w < 0 || w >= W)
              continue;
            double e = v[pl * H * W + h * W + w];
            if (where < 0 || e > best || std::isnan(e)) {
              best = e;
              where = h * W + w;
            }
          }
        values.push_back(best);
        indices.push_back(static_cast<double>(where));
      }
  return {values, indices};
}

TEST(NnOps, MaxPool2dMatchesNaiveLoopsInEveryLayout) {
  Tensor x = random({2, 3, 7, 6}, 11);
  auto [values, indices] = naiveMaxPool2d(x, {3, 2}, {2, 1}, {1, 1}, {1, 2}, {4, 6});
  auto out = run(maxPool("[3, 2], [2, 1], [1, 1], [1, 2], True"), {x});
  EXPECT_EQ(out[0].sizes(), (Ints{2, 3, 4, 6}));
  expectValues(out[0], values);
  expectValues(out[1], indices);
  // Channels-last input: channels-last results with the same values.
  auto cl = run(maxPool("[3, 2], [2, 1], [1, 1], [1, 2], True"), {channelsLast(x)});
  expectValues(cl[0], values);
  expectValues(cl[1], indices);
  EXPECT_EQ(cl[0].strides(), (Ints{72, 1, 18, 3}));
  EXPECT_EQ(cl[1].strides(), (Ints{72, 1, 18, 3}));
}

TEST(NnOps, MaxPool2dInferenceWithSymbolicSizes) {
  std::string text =
      graph({"x:f32[s0, 3, s1, s1][3*s1**2, s1**2, s1, 1]cpu"},
            aten("max_pool2d_with_indices.default"), "%x, [3, 3], [2, 2], [1, 1]", {0, 1});
  auto value = infer(text);
  ASSERT_TRUE(value) << value.error().str();
  const auto *ts = value->tensors();
  ASSERT_TRUE(ts && ts->size() == 2);
  for (int64_t s1 : {5, 6, 9}) {
    SymExpr::Bindings b{{"s0", 2}, {"s1", s1}};
    int64_t o = (s1 - 1) / 2 + 1;
    EXPECT_EQ(evalAll((*ts)[0]->sizes, b), (Ints{2, 3, o, o}));
    EXPECT_EQ(evalAll((*ts)[0]->strides, b), (Ints{3 * o * o, o * o, o, 1}));
    EXPECT_EQ(evalAll((*ts)[1]->sizes, b), (Ints{2, 3, o, o}));
  }
  EXPECT_EQ((*ts)[0]->dtype, DType::Float32);
  EXPECT_EQ((*ts)[1]->dtype, DType::Int64);
  // ceil_mode drops a last window that would start in the right padding: 5 -> 2, not 3.
  auto ceil =
      infer(graph({"x:f32[1, 1, 5, 5][25, 25, 5, 1]cpu"}, aten("max_pool2d_with_indices.default"),
                  "%x, [2, 2], [4, 4], [1, 1], [1, 1], True", {0}));
  ASSERT_TRUE(ceil) << ceil.error().str();
  EXPECT_EQ(evalAll(ceil->tensors()->at(0)->sizes, {}), (Ints{1, 1, 2, 2}));
}

/// PyTorch's pooling_output_shape, step by step (ceil mode drops a window starting in the
/// right padding).
int64_t referenceOutputSize(int64_t in, int64_t k, int64_t p, int64_t s, int64_t d, bool ceil) {
  int64_t n = in + 2 * p - d * (k - 1) - 1 + (ceil ? s - 1 : 0);
  int64_t out = (n >= 0 ? n / s : -((-n + s - 1) / s)) + 1;
  if (ceil && (out - 1) * s >= in + p)
    --out;
  return out;
}

TEST(NnOps, PoolingOutputSizeIsExactForEverySymbolicSize) {
  // One expression must serve every value of the symbol, ceil mode included (PyTorch guards on
  // the traced value instead).
  struct Window {
    int64_t k, s, p, d;
    bool ceil;
  };
  for (const Window &w :
       {Window{2, 3, 1, 1, true}, Window{4, 3, 2, 1, true}, Window{3, 2, 1, 1, true},
        Window{3, 2, 0, 2, true}, Window{5, 4, 2, 1, true}, Window{3, 2, 1, 1, false}}) {
    std::string args = "%x, [" + std::to_string(w.k) + ", 1], [" + std::to_string(w.s) + ", 1], [" +
                       std::to_string(w.p) + ", 0], [" + std::to_string(w.d) + ", 1], " +
                       (w.ceil ? "True" : "False");
    SCOPED_TRACE(args);
    auto v = infer(graph({"x:f32[1, 1, s0, 4][4*s0, 4*s0, 4, 1]cpu"},
                         aten("max_pool2d_with_indices.default"), args, {0}));
    ASSERT_TRUE(v) << v.error().str();
    for (int64_t in = w.d * (w.k - 1) + 1; in < 40; ++in)
      EXPECT_EQ(eval(v->tensors()->at(0)->sizes[2], {{"s0", in}}),
                referenceOutputSize(in, w.k, w.p, w.s, w.d, w.ceil))
          << "s0 = " << in;
  }
}

TEST(NnOps, MaxPool2dErrorsAsPyTorch) {
  Tensor x = iota({1, 1, 4, 4});
  expectError(maxPool("[2, 2], [2, 2], [2, 2]"), {x},
              "pad should be at most half of effective kernel size, but got pad=2, "
              "kernel_size=2 and dilation=1");
  expectError(maxPool("[2, 2], [0, 1]"), {x}, "stride should not be zero");
  expectError(maxPool("[2, 2, 2]"), {x},
              "max_pool2d: kernel_size must either be a single int, or a tuple of two ints");
  expectError(maxPool("[2, 2]"), {iota({4, 4})},
              "non-empty 3D or 4D (batch mode) tensor expected for input");
  expectError(maxPool("[5, 5]"), {x}, "Output size is too small");
  expectError(maxPool("[2, 2], [-1, 1]"), {x}, "stride should be greater than zero");
}

// ---- max_pool3d_with_indices ----

TEST(NnOps, MaxPool3dValuesIndicesAndLayout) {
  auto out = run(graph({"x"}, aten("max_pool3d_with_indices.default"), "%x, [2, 2, 2]", {0, 1}),
                 {iota({1, 1, 4, 4, 4})});
  EXPECT_EQ(out[0].sizes(), (Ints{1, 1, 2, 2, 2}));
  expectValues(out[0], {21, 23, 29, 31, 53, 55, 61, 63});
  expectValues(out[1], {21, 23, 29, 31, 53, 55, 61, 63});
  // Padding with a 4-d (unbatched) input: windows clip to the input.
  auto padded = run(graph({"x"}, aten("max_pool3d_with_indices.default"),
                          "%x, [3, 3, 3], [2, 2, 2], [1, 1, 1]", {0, 1}),
                    {iota({1, 3, 3, 3}, DType::Float32, -1)});
  EXPECT_EQ(padded[0].sizes(), (Ints{1, 2, 2, 2}));
  expectValues(padded[0], {0, -1, -3, -4, -9, -10, -12, -13});
  auto text = graph({"x:f32[2, 3, 4, 4, 4][192, 1, 48, 12, 3]cpu"},
                    aten("max_pool3d_with_indices.default"), "%x, [2, 2, 2]", {0});
  auto v = infer(text);
  ASSERT_TRUE(v) << v.error().str();
  EXPECT_EQ(evalAll(v->tensors()->at(0)->strides, {}), (Ints{24, 1, 12, 6, 3}));
  expectError(graph({"x"}, aten("max_pool3d_with_indices.default"), "%x, [2, 2]", {0}),
              {iota({1, 1, 4, 4, 4})},
              "max_pool3d: kernel_size must either be a single int, or a tuple of three ints");
}

// ---- Inductor's low-memory max-pool prims ----

TEST(NnOps, LowMemoryMaxPoolOffsetsAndBackToIndices) {
  const std::string prim = "torch.ops.prims._low_memory_max_pool_with_offsets.default";
  const std::string back = "torch.ops.prims._low_memory_max_pool_offsets_to_indices.default";
  Tensor x = fromValues({1, 1, 4, 4}, {1, 5, 2, 0, 3, 4, 7, 7, 9, 8, 6, 1, 2, 9, 0, 6});
  // Offsets within the window (row-major taps) become input-plane indices.
  auto idx = run(graph({"o"}, back, "%o, [2, 2], [4, 4], [2, 2], [0, 0], [1, 1]"),
                 {fromValues({1, 1, 2, 2}, {1, 2, 0, 0}, DType::Int64)});
  EXPECT_EQ(idx[0].dtype(), DType::Int64);
  expectValues(idx[0], {1, 6, 8, 10});
  auto idxPadded = run(graph({"o"}, back, "%o, [3, 3], [3, 3], [2, 2], [1, 1], [1, 1]"),
                       {fromValues({1, 1, 2, 2}, {8, 7, 5, 4}, DType::Int64)});
  expectValues(idxPadded[0], {4, 5, 7, 8});
  // The prim itself gives int8 offsets (needs int8 tensors).
  auto out = run(graph({"x"}, prim, "%x, [2, 2], [2, 2], [0, 0], [1, 1], False", {0, 1}), {x});
  ASSERT_EQ(out.size(), 2u);
  expectValues(out[0], {5, 7, 9, 6});
  EXPECT_EQ(out[1].dtype(), DType::Int8);
  expectValues(out[1], {1, 2, 0, 0});
  auto padded = run(graph({"x"}, prim, "%x, [3, 3], [2, 2], [1, 1], [1, 1], False", {0, 1}),
                    {iota({1, 1, 3, 3})});
  expectValues(padded[0], {4, 5, 7, 8});
  expectValues(padded[1], {8, 7, 5, 4});
}

TEST(NnOps, LowMemoryMaxPoolInference) {
  const std::string prim = "torch.ops.prims._low_memory_max_pool_with_offsets.default";
  auto v = infer(graph({"x:f32[2, 64, 16, 16][16384, 256, 16, 1]cuda:0"}, prim,
                       "%x, [3, 3], [2, 2], [1, 1], [1, 1], False", {0, 1}));
  ASSERT_TRUE(v) << v.error().str();
  const auto *ts = v->tensors();
  ASSERT_TRUE(ts && ts->size() == 2);
  // As resnet18's aten_post_0.nodes.json records it.
  EXPECT_EQ((*ts)[0]->str(), "f32[2, 64, 8, 8][4096, 64, 8, 1]cuda:0");
  EXPECT_EQ((*ts)[1]->str(), "i8[2, 64, 8, 8][4096, 64, 8, 1]cuda:0");
  auto v3 = infer(graph({"x:f32[1, 2, 6, 6, 6][432, 216, 36, 6, 1]cpu"}, prim,
                        "%x, [2, 2, 2], [2, 2, 2], [0, 0, 0], [1, 1, 1], False", {0}));
  ASSERT_TRUE(v3) << v3.error().str();
  EXPECT_EQ(evalAll(v3->tensors()->at(0)->sizes, {}), (Ints{1, 2, 3, 3, 3}));
  auto back = infer(graph({"o:i8[2, 3, s0, 4][12*s0, 4*s0, 4, 1]cpu"},
                          "torch.ops.prims._low_memory_max_pool_offsets_to_indices.default",
                          "%o, [2, 2], [8, 8], [2, 2], [0, 0], [1, 1]"));
  ASSERT_TRUE(back) << back.error().str();
  EXPECT_EQ(back->tensor()->dtype, DType::Int64);
  EXPECT_EQ(evalAll(back->tensor()->strides, {{"s0", 5}}), (Ints{60, 20, 4, 1}));
}

// ---- max_pool2d_with_indices_backward ----

TEST(NnOps, MaxPool2dBackwardScattersToIndicesAndAccumulates) {
  // Overlapping windows (kernel 3, stride 1) pick the centre twice.
  Tensor x = fromValues({1, 1, 3, 4}, {0, 0, 0, 0, 0, 9, 9, 0, 0, 0, 0, 0});
  auto fwd = run(maxPool("[3, 3], [1, 1]"), {x});
  expectValues(fwd[1], {5, 5});
  Tensor g = fromValues({1, 1, 1, 2}, {1.5, 2});
  auto grad = run(graph({"g", "x", "i"}, aten("max_pool2d_with_indices_backward.default"),
                        "%g, %x, [3, 3], [1, 1], [0, 0], [1, 1], False, %i"),
                  {g, x, fwd[1]});
  expectValues(grad[0], {0, 0, 0, 0, 0, 3.5, 0, 0, 0, 0, 0, 0});
  // Random input, channels-last: each gradient lands at its max.
  Tensor xr = channelsLast(random({2, 3, 5, 5}, 3));
  auto f = run(maxPool("[2, 2], [2, 2], [1, 1]"), {xr});
  Tensor gr = random({2, 3, 3, 3}, 4);
  auto back = run(graph({"g", "x", "i"}, aten("max_pool2d_with_indices_backward.default"),
                        "%g, %x, [2, 2], [2, 2], [1, 1], [1, 1], False, %i"),
                  {gr, xr, f[1]});
  EXPECT_EQ(back[0].strides(), (Ints{75, 1, 15, 3}));
  std::vector<double> expected(2 * 3 * 25, 0.0), gv = flat(gr), iv = flat(f[1]);
  for (size_t k = 0; k < gv.size(); ++k)
    expected[(k / 9) * 25 + static_cast<size_t>(iv[k])] += gv[k];
  expectValues(back[0], expected);
}

TEST(NnOps, MaxPool2dBackwardErrors) {
  Tensor x = iota({1, 1, 4, 4});
  std::string text = graph({"g", "x", "i"}, aten("max_pool2d_with_indices_backward.default"),
                           "%g, %x, [2, 2], [2, 2], [0, 0], [1, 1], False, %i");
  expectError(text, {iota({1, 1, 3, 2}), x, iota({1, 1, 2, 2}, DType::Int64)},
              "Expected a tensor of dimension 4 and tensor.size[2] == 2 but got: dimension 4 "
              "and tensor.size[2] = 3");
  expectError(text, {iota({1, 1, 2, 2}, DType::Float64), x, iota({1, 1, 2, 2}, DType::Int64)},
              "Expected dtype float32 for `gradOutput` but got dtype float64");
  expectError(text, {iota({1, 1, 2, 2}), x, fromValues({1, 1, 2, 2}, {0, 1, 2, 16}, DType::Int64)},
              "index 16 out of range");
}

// ---- avg_pool ----

std::string avgPool(const std::string &args) {
  return graph({"x"}, aten("avg_pool2d.default"), "%x, " + args);
}

TEST(NnOps, AvgPool2dPaddingDivisorsAndCeilMode) {
  Tensor x1 = fromValues({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  expectValues(run(avgPool("[2, 2], [1, 1]"), {x1})[0], {3, 4, 6, 7});
  // count_include_pad counts the padding in the window (3 x 3 = 9).
  expectValues(run(avgPool("[3, 3], [2, 2], [1, 1]"), {x1})[0],
               {12.0 / 9, 16.0 / 9, 24.0 / 9, 28.0 / 9});
  expectValues(run(avgPool("[3, 3], [2, 2], [1, 1], False, False"), {x1})[0], {3, 4, 6, 7});
  expectValues(run(avgPool("[3, 3], [2, 2], [1, 1], False, True, 2"), {x1})[0], {6, 8, 12, 14});
  // ceil_mode: partial windows past the input divide by what lies inside the padded input.
  auto ceil = run(avgPool("[2, 2], [2, 2], [0, 0], True"), {x1});
  EXPECT_EQ(ceil[0].sizes(), (Ints{1, 1, 2, 2}));
  expectValues(ceil[0], {3, 4.5, 7.5, 9});
}

TEST(NnOps, AvgPool2dIntegersTruncateAndLayoutsAgree) {
  auto pos = run(avgPool("[2, 2]"), {fromValues({1, 1, 2, 2}, {1, 2, 3, 5}, DType::Int64)});
  EXPECT_EQ(pos[0].dtype(), DType::Int64);
  expectValues(pos[0], {2});
  auto neg = run(avgPool("[2, 2]"), {fromValues({1, 1, 2, 2}, {-1, -2, -3, -5}, DType::Int64)});
  expectValues(neg[0], {-2}); // C++ division truncates toward zero
  Tensor x = random({2, 3, 6, 5}, 5);
  auto plain = run(avgPool("[3, 2], [2, 2], [1, 1], True, False"), {x});
  auto cl = run(avgPool("[3, 2], [2, 2], [1, 1], True, False"), {channelsLast(x)});
  EXPECT_EQ(cl[0].strides(), (Ints{36, 1, 9, 3}));
  expectValues(cl[0], flat(plain[0]));
  // Naive: zero-padded windows, divided by the count inside the input.
  std::vector<double> v = flat(x), expected;
  for (int64_t pl = 0; pl < 6; ++pl)
    for (int64_t oh = 0; oh < plain[0].size(2); ++oh)
      for (int64_t ow = 0; ow < plain[0].size(3); ++ow) {
        double sum = 0;
        int count = 0;
        for (int64_t h = oh * 2 - 1; h < oh * 2 - 1 + 3; ++h)
          for (int64_t w = ow * 2 - 1; w < ow * 2 - 1 + 2; ++w)
            if (h >= 0 && h < 6 && w >= 0 && w < 5) {
              sum += v[pl * 30 + h * 5 + w];
              ++count;
            }
        expected.push_back(sum / count);
      }
  expectValues(plain[0], expected);
}

TEST(NnOps, AvgPool2dInferenceAndErrors) {
  auto v = infer(graph({"x:f32[s0, 8, s1, s1][8*s1**2, 1, 8*s1, 8]cpu"}, aten("avg_pool2d.default"),
                       "%x, [2, 2]"));
  ASSERT_TRUE(v) << v.error().str();
  SymExpr::Bindings b{{"s0", 2}, {"s1", 9}};
  EXPECT_EQ(evalAll(v->tensor()->sizes, b), (Ints{2, 8, 4, 4}));
  EXPECT_EQ(evalAll(v->tensor()->strides, b), (Ints{128, 1, 32, 8}));
  Tensor x = iota({1, 1, 4, 4});
  expectError(avgPool("[2, 2], [2, 2], [0, 0], False, True, 0"), {x}, "divisor must be not zero");
  expectError(avgPool("[2, 2, 2]"), {x},
              "avg_pool2d: kernel_size must either be a single int, or a tuple of two ints");
  expectError(avgPool("[2, 2]"), {iota({1, 1, 1, 4, 4})},
              "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input");
  expectError(avgPool("[3, 3], [1, 1], [2, 2]"), {x},
              "pad should be at most half of effective kernel size");
}

TEST(NnOps, AvgPool2dBackwardIsTheAdjointOfTheForward) {
  Tensor x = random({2, 3, 7, 6}, 7), g = random({2, 3, 4, 3}, 8);
  for (std::string rest :
       {"[3, 3], [2, 2], [1, 1], False, True, None", "[3, 3], [2, 2], [1, 1], False, False, None",
        "[2, 3], [2, 2], [1, 0], True, True, 5"}) {
    SCOPED_TRACE(rest);
    auto y = run(avgPool(rest), {x});
    ASSERT_EQ(y[0].sizes(), g.sizes());
    auto back =
        run(graph({"g", "x"}, aten("avg_pool2d_backward.default"), "%g, %x, " + rest), {g, x});
    EXPECT_EQ(back[0].sizes(), x.sizes());
    EXPECT_NEAR(dot(y[0], g), dot(x, back[0]), 1e-4);
  }
  auto hand = run(graph({"g", "x"}, aten("avg_pool2d_backward.default"),
                        "%g, %x, [2, 2], [2, 2], [0, 0], False, True, None"),
                  {fromValues({1, 1, 1, 1}, {4}), iota({1, 1, 2, 2})});
  expectValues(hand[0], {1, 1, 1, 1});
}

TEST(NnOps, AvgPool1dAnd3d) {
  auto one = run(graph({"x"}, aten("avg_pool1d.default"), "%x, [2], [1], [1], False, False"),
                 {fromValues({1, 1, 3}, {1, 2, 4})});
  EXPECT_EQ(one[0].sizes(), (Ints{1, 1, 4}));
  expectValues(one[0], {1, 1.5, 3, 4});
  auto oneInclude = run(graph({"x"}, aten("avg_pool1d.default"), "%x, [2], [1], [1]"),
                        {fromValues({1, 3}, {1, 2, 4})});
  EXPECT_EQ(oneInclude[0].sizes(), (Ints{1, 4}));
  expectValues(oneInclude[0], {0.5, 1.5, 3, 2});
  expectError(graph({"x"}, aten("avg_pool1d.default"), "%x, [2, 2]"), {iota({1, 1, 4})},
              "avg_pool1d() argument 'kernel_size' should contain one int (got 2)");
  expectError(graph({"x"}, aten("avg_pool1d.default"), "%x, [2]"), {iota({1, 1, 1, 4})},
              "Expected 2D to 3D tensor, but got 4D tensor for argument #1 'self'");
  auto three =
      run(graph({"x"}, aten("avg_pool3d.default"), "%x, [2, 2, 2]"), {iota({1, 1, 2, 2, 4})});
  EXPECT_EQ(three[0].sizes(), (Ints{1, 1, 1, 1, 2}));
  expectValues(three[0], {(0 + 1 + 4 + 5 + 8 + 9 + 12 + 13) / 8.0,
                          (2 + 3 + 6 + 7 + 10 + 11 + 14 + 15) / 8.0});
  // avg_pool3d's result is contiguous even for a channels-last-3d input.
  auto v = infer(graph({"x:f32[2, 3, 4, 4, 4][192, 1, 48, 12, 3]cpu"}, aten("avg_pool3d.default"),
                       "%x, [2, 2, 2]"));
  ASSERT_TRUE(v) << v.error().str();
  EXPECT_EQ(evalAll(v->tensor()->strides, {}), (Ints{24, 8, 4, 2, 1}));
  expectError(graph({"x"}, aten("avg_pool3d.default"), "%x, [3, 3, 3]"), {iota({1, 1, 2, 4, 4})},
              "smaller than kernel size");
}

// ---- adaptive average pooling ----

TEST(NnOps, AdaptiveAvgPoolWindowsOverlapWhereSizesDoNotDivide) {
  Tensor x = fromValues({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  expectValues(run(graph({"x"}, aten("_adaptive_avg_pool2d.default"), "%x, [2, 2]"), {x})[0],
               {3, 4, 6, 7});
  expectValues(run(graph({"x"}, aten("_adaptive_avg_pool2d.default"), "%x, [1, 1]"), {x})[0], {5});
  auto one = run(graph({"x"}, aten("adaptive_avg_pool1d.default"), "%x, [3]"),
                 {fromValues({1, 1, 5}, {1, 2, 3, 4, 5})});
  EXPECT_EQ(one[0].sizes(), (Ints{1, 1, 3}));
  expectValues(one[0], {1.5, 3, 4.5});
  auto three = run(graph({"x"}, aten("_adaptive_avg_pool3d.default"), "%x, [1, 1, 2]"),
                   {iota({2, 2, 2, 2})});
  EXPECT_EQ(three[0].sizes(), (Ints{2, 1, 1, 2}));
  expectValues(three[0], {3, 4, 11, 12});
  // Naive: mean over [floor(o*in/out), ceil((o+1)*in/out)) along each dim.
  Tensor r = channelsLast(random({2, 3, 7, 5}, 9));
  auto out = run(graph({"x"}, aten("_adaptive_avg_pool2d.default"), "%x, [3, 4]"), {r});
  EXPECT_EQ(out[0].strides(), (Ints{36, 1, 12, 3}));
  std::vector<double> expected;
  for (int64_t pl = 0; pl < 6; ++pl)
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 4; ++j) {
        int64_t h0 = i * 7 / 3, h1 = ((i + 1) * 7 + 2) / 3, w0 = j * 5 / 4,
                w1 = ((j + 1) * 5 + 3) / 4;
        double sum = 0;
        for (int64_t h = h0; h < h1; ++h)
          for (int64_t w = w0; w < w1; ++w)
            sum += r.getDouble(std::vector<int64_t>{pl / 3, pl % 3, h, w});
        expected.push_back(sum / static_cast<double>((h1 - h0) * (w1 - w0)));
      }
  expectValues(out[0], expected);
}

TEST(NnOps, AdaptiveAvgPoolInferenceBackwardAndErrors) {
  auto c = infer(graph({"x:f32[s0, 3, 8, 8][192, 64, 8, 1]cpu"},
                       aten("_adaptive_avg_pool2d.default"), "%x, [4, 2]"));
  ASSERT_TRUE(c) << c.error().str();
  EXPECT_EQ(evalAll(c->tensor()->sizes, {{"s0", 5}}), (Ints{5, 3, 4, 2}));
  Tensor x = random({2, 3, 7, 5}, 12), g = random({2, 3, 3, 2}, 13);
  auto y = run(graph({"x"}, aten("_adaptive_avg_pool2d.default"), "%x, [3, 2]"), {x});
  auto back =
      run(graph({"g", "x"}, aten("_adaptive_avg_pool2d_backward.default"), "%g, %x"), {g, x});
  EXPECT_EQ(back[0].sizes(), x.sizes());
  EXPECT_NEAR(dot(y[0], g), dot(x, back[0]), 1e-4);
  expectError(graph({"x"}, aten("_adaptive_avg_pool2d.default"), "%x, [2, 2]"),
              {iota({1, 2, 0, 4})},
              "Expected input to have non-zero size for non-batch dimensions");
  // Zero channels are fine: only the pooled dims must be non-empty.
  EXPECT_EQ(
      run(graph({"x"}, aten("_adaptive_avg_pool2d.default"), "%x, [2, 2]"), {iota({2, 0, 4, 4})})[0]
          .sizes(),
      (Ints{2, 0, 2, 2}));
  expectError(graph({"x"}, aten("_adaptive_avg_pool2d.default"), "%x, [2, 2]"), {iota({4, 4})},
              "adaptive_avg_pool2d(): Expected 3D or 4D tensor");
  expectError(graph({"g", "x"}, aten("_adaptive_avg_pool2d_backward.default"), "%g, %x"),
              {iota({1, 1, 2, 2}, DType::Float64), iota({1, 1, 4, 4})},
              "expected dtype float32 for `grad_output` but got dtype float64");
}

TEST(NnOps, AdaptiveMaxPoolLayoutIndicesAndErrors) {
  // Naive: the first maximum over [floor(o*in/out), ceil((o+1)*in/out)) along each dim, its
  // index flattened over the plane; channels-last in, channels-last out (values and indices).
  Tensor r = channelsLast(random({2, 3, 7, 5}, 21));
  auto out = run(graph({"x"}, aten("adaptive_max_pool2d.default"), "%x, [3, 4]", {0, 1}), {r});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].strides(), (Ints{36, 1, 12, 3}));
  EXPECT_EQ(out[1].strides(), (Ints{36, 1, 12, 3}));
  EXPECT_EQ(out[1].dtype(), DType::Int64);
  std::vector<double> values, indices;
  for (int64_t pl = 0; pl < 6; ++pl)
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 4; ++j) {
        int64_t h0 = i * 7 / 3, h1 = ((i + 1) * 7 + 2) / 3, w0 = j * 5 / 4,
                w1 = ((j + 1) * 5 + 3) / 4;
        double best = -INFINITY;
        int64_t at = h0 * 5 + w0;
        for (int64_t h = h0; h < h1; ++h)
          for (int64_t w = w0; w < w1; ++w) {
            double v = r.getDouble(std::vector<int64_t>{pl / 3, pl % 3, h, w});
            if (v > best)
              best = v, at = h * 5 + w;
          }
        values.push_back(best);
        indices.push_back(static_cast<double>(at));
      }
  expectValues(out[0], values);
  expectValues(out[1], indices);
  expectError(graph({"x"}, aten("adaptive_max_pool2d.default"), "%x, [2, 2]"), {iota({1, 0, 4, 4})},
              "Expected input to have non-zero size for non-batch dimensions, but input has sizes "
              "[1, 0, 4, 4] with dimension 1 being empty");
  expectError(graph({"x"}, aten("adaptive_max_pool2d.default"), "%x, [2, 2]"), {iota({4, 4})},
              "adaptive_max_pool2d(): Expected 3D or 4D tensor");
  expectError(graph({"x"}, aten("adaptive_max_pool2d.default"), "%x, [2, 2]"),
              {iota({1, 1, 4, 4}, DType::Int64)},
              "\"adaptive_max_pool2d\" not implemented for 'Long'");
  // 3-d: the first maximum of each volume's window, contiguous results whatever the layout.
  Tensor v = fromValues({1, 1, 2, 2, 2}, {1, 8, 3, 8, 5, 6, 7, 2});
  auto v3 = run(graph({"x"}, aten("adaptive_max_pool3d.default"), "%x, [1, 1, 2]", {0, 1}), {v});
  ASSERT_EQ(v3.size(), 2u);
  expectValues(v3[0], {7, 8}); // column 0: 1, 3, 5, 7; column 1: 8 first at 1
  expectValues(v3[1], {6, 1});
  auto c3 = infer(graph({"x:f32[2, 3, 4, 4, 4][192, 1, 48, 12, 3]cpu"},
                        aten("adaptive_max_pool3d.default"), "%x, [2, 2, 2]", {0, 1}));
  ASSERT_TRUE(c3) << c3.error().str();
  EXPECT_EQ(c3->tensors()->at(0)->str(), "f32[2, 3, 2, 2, 2][24, 8, 4, 2, 1]cpu");
  expectError(graph({"x"}, aten("adaptive_max_pool3d.default"), "%x, [2, 2, 2]"), {iota({4, 4, 4})},
              "adaptive_max_pool3d(): Expected 4D or 5D tensor");
}

// ---- convolution_backward ----

struct ConvCase {
  Ints x, w;
  std::string stride, padding, dilation;
  bool transposed;
  std::string outputPadding;
  int groups;
};

TEST(NnOps, ConvolutionBackwardIsTheAdjointOfTheConvolution) {
  const ConvCase cases[] = {
      {{2, 3, 7, 6}, {4, 3, 3, 2}, "[2, 1]", "[1, 0]", "[1, 1]", false, "[0, 0]", 1},
      {{1, 4, 9, 8}, {6, 2, 3, 3}, "[1, 1]", "[2, 2]", "[2, 2]", false, "[0, 0]", 2},
      {{2, 2, 9}, {3, 2, 4}, "[2]", "[1]", "[1]", false, "[0]", 1},
      {{1, 2, 4, 5, 4},
       {2, 2, 2, 2, 3},
       "[1, 2, 1]",
       "[1, 0, 1]",
       "[1, 1, 1]",
       false,
       "[0, 0, 0]",
       1},
      {{2, 4, 4, 3}, {4, 3, 3, 3}, "[2, 2]", "[1, 1]", "[1, 1]", true, "[1, 0]", 2},
  };
  uint64_t seed = 20;
  for (const ConvCase &c : cases) {
    SCOPED_TRACE(std::to_string(c.x.size()) + "-d " + c.stride +
                 (c.transposed ? " transposed" : ""));
    Tensor x = random(c.x, seed++), w = random(c.w, seed++);
    std::string geometry = c.stride + ", " + c.padding + ", " + c.dilation + ", " +
                           (c.transposed ? "True" : "False") + ", " + c.outputPadding + ", " +
                           std::to_string(c.groups);
    auto y =
        run(graph({"x", "w"}, aten("convolution.default"), "%x, %w, None, " + geometry), {x, w});
    Tensor g = random(y[0].sizes(), seed++);
    int64_t outChannels = y[0].size(1);
    auto grads = run(graph({"g", "x", "w"}, aten("convolution_backward.default"),
                           "%g, %x, %w, [" + std::to_string(outChannels) + "], " + geometry +
                               ", [True, True, True]",
                           {0, 1, 2}),
                     {g, x, w});
    ASSERT_EQ(grads.size(), 3u);
    EXPECT_EQ(grads[0].sizes(), x.sizes());
    EXPECT_EQ(grads[1].sizes(), w.sizes());
    double yg = dot(y[0], g);
    EXPECT_NEAR(dot(x, grads[0]), yg, 1e-3 * (1 + std::abs(yg)));
    EXPECT_NEAR(dot(w, grads[1]), yg, 1e-3 * (1 + std::abs(yg)));
    // grad_bias: grad_output summed over everything but the channels.
    std::vector<double> gv = flat(g), bias(outChannels, 0.0);
    int64_t plane = g.numel() / (g.size(0) * outChannels);
    for (size_t i = 0; i < gv.size(); ++i)
      bias[(static_cast<int64_t>(i) / plane) % outChannels] += gv[i];
    expectValues(grads[2], bias, 1e-5);
  }
}

TEST(NnOps, ConvolutionBackwardHandValuesMaskAndLayout) {
  // 1-d, kernel 2: y[o] = x[o] w0 + x[o+1] w1.
  Tensor x = fromValues({1, 1, 3}, {1, 2, 3}), w = fromValues({1, 1, 2}, {10, 20});
  Tensor g = fromValues({1, 1, 2}, {1, 2});
  auto grads =
      run(graph({"g", "x", "w"}, aten("convolution_backward.default"),
                "%g, %x, %w, None, [1], [0], [1], False, [0], 1, [True, True, False]", {0, 1}),
          {g, x, w});
  expectValues(grads[0], {10, 40, 40}); // [g0 w0, g0 w1 + g1 w0, g1 w1]
  expectValues(grads[1], {5, 8});       // [g0 x0 + g1 x1, g0 x1 + g1 x2]
  auto v =
      infer(graph({"g:f32[2, 4, 5, 5][100, 1, 20, 4]cuda:0",
                   "x:f32[2, 3, 5, 5][75, 25, 5, 1]cuda:0", "w:f32[4, 3, 1, 1][3, 1, 1, 1]cuda:0"},
                  aten("convolution_backward.default"),
                  "%g, %x, %w, [4], [1, 1], [0, 0], [1, 1], False, [0, 0], 1, "
                  "[False, True, True]"));
  ASSERT_TRUE(v) << v.error().str();
  const auto *ts = v->tensors();
  ASSERT_TRUE(ts && ts->size() == 3);
  EXPECT_FALSE((*ts)[0].has_value());
  // grad_output's layout does not matter: the input and weight are contiguous.
  EXPECT_EQ((*ts)[1]->str(), "f32[4, 3, 1, 1][3, 1, 1, 1]cuda:0");
  EXPECT_EQ((*ts)[2]->str(), "f32[4][1]cuda:0");
  auto cl = infer(graph({"g:f32[2, 4, 5, 5][100, 25, 5, 1]cpu",
                         "x:f32[2, 3, 5, 5][75, 1, 15, 3]cpu", "w:f32[4, 3, 3, 3][27, 9, 3, 1]cpu"},
                        aten("convolution_backward.default"),
                        "%g, %x, %w, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1, "
                        "[True, True, False]"));
  ASSERT_TRUE(cl) << cl.error().str();
  EXPECT_EQ(cl->tensors()->at(0)->str(), "f32[2, 3, 5, 5][75, 1, 15, 3]cpu");
  EXPECT_EQ(cl->tensors()->at(1)->str(), "f32[4, 3, 3, 3][27, 1, 9, 3]cpu");
  expectError(graph({"g", "x", "w"}, aten("convolution_backward.default"),
                    "%g, %x, %w, None, [1], [0], [1], False, [0], 1, [True, True, False]", {0}),
              {fromValues({1, 1, 3}, {1, 2, 3}), x, w},
              "does not have the convolution's output size");
}

// ---- upsampling ----

TEST(NnOps, UpsampleNearest2d) {
  Tensor x = fromValues({1, 1, 2, 2}, {1, 2, 3, 4});
  std::string target = aten("upsample_nearest2d.vec");
  expectValues(run(graph({"x"}, target, "%x, [4, 4], None"), {x})[0],
               {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
  // 2 -> 3: source floor(o * 2/3) = 0, 0, 1.
  expectValues(run(graph({"x"}, target, "%x, [3, 3], None"), {x})[0], {1, 1, 2, 1, 1, 2, 3, 3, 4});
  auto scaled = run(graph({"x"}, target, "%x, None, [1.5, 1.0]"), {x});
  EXPECT_EQ(scaled[0].sizes(), (Ints{1, 1, 3, 2}));
  expectValues(scaled[0], {1, 2, 1, 2, 3, 4});
  auto down = run(graph({"x"}, target, "%x, [2, 2], None"), {iota({1, 1, 4, 4}, DType::Int64)});
  expectValues(down[0], {0, 2, 8, 10});
  expectError(graph({"x"}, target, "%x, [4, 4], [2.0, 2.0]"), {x},
              "Must specify exactly one of output_size and scale_factors");
  expectError(graph({"x"}, target, "%x, [4, 0], None"), {x},
              "Input and output sizes should be greater than 0");
  auto v =
      infer(graph({"x:f32[s0, 8, s1, 5][40*s1, 1, 40, 8]cpu"}, target, "%x, None, [2.0, 1.5]"));
  ASSERT_TRUE(v) << v.error().str();
  SymExpr::Bindings b{{"s0", 2}, {"s1", 3}};
  EXPECT_EQ(evalAll(v->tensor()->sizes, b), (Ints{2, 8, 6, 7}));
  EXPECT_EQ(evalAll(v->tensor()->strides, b), (Ints{336, 1, 56, 8}));
}

TEST(NnOps, UpsampleBilinear2d) {
  Tensor x = fromValues({1, 1, 2, 2}, {0, 1, 2, 3});
  std::string target = aten("upsample_bilinear2d.vec");
  expectValues(run(graph({"x"}, target, "%x, [3, 3], True, None"), {x})[0],
               {0, 0.5, 1, 1, 1.5, 2, 2, 2.5, 3});
  // Half-pixel centres: sources -0.25 (clamped to 0), 0.25, 0.75, 1.25 (clamped to the edge).
  std::vector<double> f{0, 0.25, 0.75, 1}, expected;
  for (double r : f)
    for (double c : f)
      expected.push_back(2 * r + c);
  expectValues(run(graph({"x"}, target, "%x, [4, 4], False, None"), {x})[0], expected);
  expectValues(run(graph({"x"}, target, "%x, None, False, [2.0, 2.0]"), {x})[0], expected);
  expectError(graph({"x"}, target, "%x, [4, 4], False, None"), {iota({1, 1, 2, 2}, DType::Int64)},
              "\"upsample_bilinear2d\" not implemented for 'int64'");
}

TEST(NnOps, UpsampleBicubic2d) {
  // Worked from PyTorch's kernel (A = -0.75): near(0.5) = 0.59375, far(1.5) = -0.09375. A ramp
  // 0..3 to 7 columns with align_corners: sources 0, 0.5, ..., 3; inside, the cubic reproduces
  // the ramp (1.5 at 1.5), at the edges the clamped taps do not (0.40625 at 0.5, 2.59375 at
  // 2.5).
  Tensor ramp = fromValues({1, 1, 1, 4}, {0, 1, 2, 3});
  std::string target = aten("upsample_bicubic2d.vec");
  expectValues(run(graph({"x"}, target, "%x, [1, 7], True, None"), {ramp})[0],
               {0, 0.40625, 1, 1.5, 2, 2.59375, 3});
  // Half-pixel centres at scale 2: column 0 reads source -0.25 (taps -2..1 clamped to 0, 0,
  // 0, 1; t = 0.75), whose last weight far(1.25) = -0.10546875 is the value; the .default
  // form with the same scales alike.
  auto doubled = run(graph({"x"}, target, "%x, None, False, [1.0, 2.0]"), {ramp})[0];
  EXPECT_EQ(doubled.sizes(), (Ints{1, 1, 1, 8}));
  EXPECT_NEAR(doubled.getDouble(std::vector<int64_t>{0, 0, 0, 0}), -0.10546875, 1e-7);
  auto viaDefault = run(
      graph({"x"}, aten("upsample_bicubic2d.default"), "%x, [1, 8], False, 1.0, 2.0"), {ramp})[0];
  EXPECT_TRUE(viaDefault.bitwiseEqual(doubled));
  // Channels-last in, channels-last out (its meta, on every device).
  auto cl = infer(graph({"x:f32[2, 3, 4, 4][48, 1, 12, 3]cpu"}, target, "%x, [8, 8], False, None"));
  ASSERT_TRUE(cl) << cl.error().str();
  EXPECT_EQ(cl->tensor()->str(), "f32[2, 3, 8, 8][192, 1, 24, 3]cpu");
  expectError(graph({"x"}, target, "%x, [4, 4], False, None"), {iota({1, 1, 2, 2}, DType::Int64)},
              "\"upsample_bicubic2d_out_frame\" not implemented for 'Long'");
}

// ---- torchvision's roi_align ----

TEST(NnOps, RoiAlignAveragesBilinearSamplesPerBin) {
  // x[h][w] = 4h + w: bilinear samples are exact, so a bin's average is 4 mean(y) + mean(x).
  Tensor x = iota({1, 1, 4, 4}, DType::Float32);
  const std::string target = "torch.ops.torchvision.roi_align.default";
  auto one = [&](std::vector<double> box, const std::string &args) {
    return run(graph({"x", "b"}, target, "%x, %b, " + args), {x, fromValues({1, 5}, box)})[0];
  };
  // Box (0, 0)-(3, 3), one bin, 2 x 2 samples at 0.75 and 2.25: 4 x 1.5 + 1.5.
  expectValues(one({0, 0, 0, 3, 3}, "1.0, 1, 1, 2, False"), {7.5});
  // Aligned: shifted by half a pixel, samples at 0.25 and 1.75.
  expectValues(one({0, 0, 0, 3, 3}, "1.0, 1, 1, 2, True"), {5});
  // An adaptive grid (ceil(3 / 1) = 3 samples a side: 0.5, 1.5, 2.5), and the box scaled by 0.5.
  expectValues(one({0, 0, 0, 3, 3}, "1.0, 1, 1, -1, False"), {7.5});
  expectValues(one({0, 0, 0, 6, 6}, "0.5, 1, 1, 2, False"), {7.5});
  // Past the border: samples at 3 and 5; 5 lies outside [-1, 4] and weighs 0, 3 reads the last
  // row and column: 15 / 4.
  expectValues(one({0, 2, 2, 6, 6}, "1.0, 1, 1, 2, False"), {3.75});
  // Two bins a side of the 4 x 4 box (0, 0)-(4, 4), one sample each at 1 and 3.
  expectValues(one({0, 0, 0, 4, 4}, "1.0, 2, 2, 1, False"), {5, 7, 13, 15});
  // Types and PyTorch's refusals.
  auto v = infer(graph({"x:f32[2, 3, 8, 8][192, 64, 8, 1]cpu", "b:f32[s0, 5][5, 1]cpu"}, target,
                       "%x, %b, 0.25, 7, 7, 2, True"));
  ASSERT_TRUE(v) << v.error().str();
  EXPECT_EQ(evalAll(v->tensor()->sizes, {{"s0", 4}}), (Ints{4, 3, 7, 7}));
  expectError(graph({"x", "b"}, target, "%x, %b, 1.0, 1, 1, 2, False"),
              {x, fromValues({1, 4}, {0, 0, 0, 3})}, "rois must have shape as Tensor[K, 5]");
  expectError(graph({"x", "b"}, target, "%x, %b, 1.0, 1, 1, 2, False"),
              {x, fromValues({1, 5}, {3, 0, 0, 3, 3})}, "names batch index 3");
}

// ---- grid_sampler_2d ----

TEST(NnOps, GridSampler2dModesAndPadding) {
  Tensor x = fromValues({1, 1, 2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor grid = fromValues({1, 1, 6, 2}, {-1, -1, 0, -1, 1, 1, 0, 0, 0.5, 1, 2, 0});
  std::string target = aten("grid_sampler_2d.default");
  // align_corners: -1 and 1 are the corner pixels' centres; (2, 0) lies past the right edge.
  expectValues(run(graph({"x", "g"}, target, "%x, %g, 0, 0, True"), {x, grid})[0],
               {1, 2, 6, 3.5, 5.5, 0});
  expectValues(run(graph({"x", "g"}, target, "%x, %g, 0, 1, True"), {x, grid})[0],
               {1, 2, 6, 3.5, 5.5, 4.5});
  expectValues(run(graph({"x", "g"}, target, "%x, %g, 0, 2, True"), {x, grid})[0],
               {1, 2, 6, 3.5, 5.5, 3.5});
  // Nearest rounds half to even: x = 1.5 -> 2, y = 0.5 -> 0.
  expectValues(run(graph({"x", "g"}, target, "%x, %g, 1, 0, True"), {x, grid})[0],
               {1, 2, 6, 2, 6, 0});
  // Bicubic reproduces the pixels at pixel centres.
  Tensor centres = fromValues({1, 1, 2, 2}, {-1, -1, 1, 1});
  expectValues(run(graph({"x", "g"}, target, "%x, %g, 2, 1, True"), {x, centres})[0], {1, 6});
  // Between pixels 1 and 2 of x^2 = [0, 1, 4, 9] the cubic weights (A = -0.75) at t = 0.5 are
  // [-3/32, 19/32, 19/32, -3/32]: 19/32 * 5 - 3/32 * 9 = 2.125.
  expectValues(run(graph({"x", "g"}, target, "%x, %g, 2, 1, True"),
                   {fromValues({1, 1, 1, 4}, {0, 1, 4, 9}), fromValues({1, 1, 1, 2}, {0, 0})})[0],
               {2.125});
  // Without align_corners, -1 is the outer edge: pixel 0 spans [-1, -1 + 2/3].
  Tensor edge = fromValues({1, 1, 1, 2}, {-1 + 1.0 / 3, -0.5});
  expectValues(run(graph({"x", "g"}, target, "%x, %g, 0, 0, False"), {x, edge})[0], {1});
  auto v =
      infer(graph({"x:f32[s0, 3, 8, 8][192, 64, 8, 1]cpu", "g:f32[s0, 5, 7, 2][70, 14, 2, 1]cpu"},
                  target, "%x, %g, 0, 0, False"));
  ASSERT_TRUE(v) << v.error().str();
  EXPECT_EQ(evalAll(v->tensor()->sizes, {{"s0", 2}}), (Ints{2, 3, 5, 7}));
  expectError(graph({"x", "g"}, target, "%x, %g, 0, 0, False"),
              {x, fromValues({1, 1, 1, 3}, {0, 0, 0})},
              "grid_sampler(): expected grid to have size 2 in last dimension");
  // Coordinates are computed in the grid's precision, as PyTorch's kernels compute them in
  // scalar_t: a float32 grid of 1e9 (reflection, no align_corners) unnormalizes to 2.5e9 and
  // 2e9 in float, which reflect onto pixel (0, 0); in double to (1.5, 2), between 7 and 12.
  std::vector<double> ramp(20);
  for (size_t i = 0; i < ramp.size(); ++i)
    ramp[i] = static_cast<double>(i);
  Tensor x45 = fromValues({1, 1, 4, 5}, ramp);
  expectValues(run(graph({"x", "g"}, target, "%x, %g, 0, 2, False"),
                   {x45, fromValues({1, 1, 1, 2}, {1e9, 1e9})})[0],
               {0});
  expectValues(run(graph({"x", "g"}, target, "%x, %g, 0, 2, False"),
                   {fromValues({1, 1, 4, 5}, ramp, DType::Float64),
                    fromValues({1, 1, 1, 2}, {1e9, 1e9}, DType::Float64)})[0],
               {9.5});
}

// ---- col2im ----

TEST(NnOps, Col2imSumsOverlappingBlocks) {
  std::vector<double> ones(16, 1.0);
  auto out = run(graph({"c"}, aten("col2im.default"), "%c, [3, 3], [2, 2], [1, 1], [0, 0], [1, 1]"),
                 {fromValues({4, 4}, ones)});
  EXPECT_EQ(out[0].sizes(), (Ints{1, 3, 3}));
  expectValues(out[0], {1, 2, 1, 2, 4, 2, 1, 2, 1});
  // Adjoint of a naive im2col, with stride, padding and dilation.
  int64_t C = 2, H = 5, W = 6, kh = 2, kw = 3, s = 2, p = 1, d = 1;
  int64_t bh = (H + 2 * p - d * (kh - 1) - 1) / s + 1, bw = (W + 2 * p - d * (kw - 1) - 1) / s + 1;
  Tensor img = random({2, C, H, W}, 30), cols = random({2, C * kh * kw, bh * bw}, 31);
  double expected = 0;
  for (int64_t n = 0; n < 2; ++n)
    for (int64_t row = 0; row < C * kh * kw; ++row)
      for (int64_t blk = 0; blk < bh * bw; ++blk) {
        int64_t c = row / (kh * kw), i = (row / kw) % kh, j = row % kw;
        int64_t h = (blk / bw) * s - p + i * d, w = (blk % bw) * s - p + j * d;
        if (h >= 0 && h < H && w >= 0 && w < W)
          expected += cols.getDouble(Ints{n, row, blk}) * img.getDouble(Ints{n, c, h, w});
      }
  auto back = run(
      graph({"c"}, aten("col2im.default"), "%c, [5, 6], [2, 3], [1, 1], [1, 1], [2, 2]"), {cols});
  EXPECT_NEAR(dot(back[0], img), expected, 1e-4);
  expectError(graph({"c"}, aten("col2im.default"), "%c, [3, 3], [2, 2], [1, 1], [0, 0], [1, 1]"),
              {iota({4, 5})}, "expected input.size(-1) to be 4 but got 5");
  expectError(graph({"c"}, aten("col2im.default"), "%c, [3, 3], [2, 2], [1, 1], [0, 0], [1, 1]"),
              {iota({3, 4})}, "divisible by the product of kernel_size");
}

// ---- distances ----

TEST(NnOps, CdistAndPdist) {
  Tensor a = fromValues({2, 2}, {0, 0, 1, 1}), b = fromValues({2, 2}, {1, 0, 3, 4});
  std::string cdist = aten("_cdist_forward.default");
  expectValues(run(graph({"a", "b"}, cdist, "%a, %b, 2.0, None"), {a, b})[0],
               {1, 5, 1, std::sqrt(13.0)});
  expectValues(run(graph({"a", "b"}, cdist, "%a, %b, 1.0, None"), {a, b})[0], {1, 7, 1, 5});
  expectValues(run(graph({"a", "b"}, cdist, "%a, %b, 0.0, None"), {a, b})[0], {1, 2, 1, 2});
  expectValues(run(graph({"a", "b"}, cdist, "%a, %b, inf, None"), {a, b})[0], {1, 4, 1, 3});
  expectValues(run(graph({"a", "b"}, cdist, "%a, %b, 3.0, None"), {a, b})[0],
               {1, std::cbrt(27.0 + 64), 1, std::cbrt(8.0 + 27)});
  // Batch dims broadcast: (2, 1, 2) x (2, 2) -> (2, 1, 2).
  auto batched =
      run(graph({"a", "b"}, cdist, "%a, %b, 2.0, None"), {fromValues({2, 1, 2}, {0, 0, 1, 1}), b});
  EXPECT_EQ(batched[0].sizes(), (Ints{2, 1, 2}));
  expectValues(batched[0], {1, 5, 1, std::sqrt(13.0)});
  expectError(graph({"a", "b"}, cdist, "%a, %b, 2.0, None"), {a, iota({2, 3})},
              "X1 and X2 must have the same number of columns");
  expectError(graph({"a", "b"}, cdist, "%a, %b, -1.0, None"), {a, b},
              "cdist only supports non-negative p values");
  std::string pdist = aten("_pdist_forward.default");
  expectValues(run(graph({"a"}, pdist, "%a"), {fromValues({3, 2}, {0, 0, 3, 4, 6, 8})})[0],
               {5, 10, 5});
  EXPECT_EQ(run(graph({"a"}, pdist, "%a, 2.0"), {iota({1, 3})})[0].sizes(), (Ints{0}));
  auto v = infer(graph({"a:f32[s0, 4][4, 1]cpu"}, pdist, "%a"));
  ASSERT_TRUE(v) << v.error().str();
  EXPECT_EQ(evalAll(v->tensor()->sizes, {{"s0", 7}}), (Ints{21}));
  expectError(graph({"a"}, pdist, "%a"), {permuted(iota({3, 2}), {1, 0})},
              "_pdist_forward requires contiguous input");
}

// ---- _embedding_bag ----

std::string bag(const std::string &rest) {
  return graph({"w", "i", "o"}, aten("_embedding_bag.default"), "%w, %i, %o, " + rest,
               {0, 1, 2, 3});
}

TEST(NnOps, EmbeddingBagModes) {
  Tensor w = fromValues({4, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  Tensor i = fromValues({5}, {0, 2, 1, 3, 3}, DType::Int64);
  Tensor o = fromValues({3}, {0, 2, 2}, DType::Int64);
  auto sum = run(bag("False, 0"), {w, i, o});
  ASSERT_EQ(sum.size(), 4u);
  expectValues(sum[0], {6, 8, 0, 0, 17, 20});
  EXPECT_EQ(sum[1].numel(), 0);    // the CPU fast path computes no offset2bag
  expectValues(sum[2], {0, 0, 0}); // nor bag sizes
  auto mean = run(bag("False, 1"), {w, i, o});
  expectValues(mean[0], {3, 4, 0, 0, 17.0 / 3, 20.0 / 3});
  expectValues(mean[1], {0, 0, 2, 2, 2});
  expectValues(mean[2], {2, 0, 3});
  expectValues(mean[3], {2, 0, 3}); // max_indices repeats the bag sizes outside max mode
  auto max = run(bag("False, 2"), {w, i, o});
  expectValues(max[0], {5, 6, 0, 0, 7, 8});
  expectValues(max[3], {2, 2, 0, 0, 3, 3});
  // padding_idx rows are skipped and not counted.
  auto padded = run(bag("False, 1, False, None, False, 3"), {w, i, o});
  expectValues(padded[0], {3, 4, 0, 0, 3, 4});
  expectValues(padded[2], {2, 0, 1});
  auto weighted = run(graph({"w", "i", "o", "p"}, aten("_embedding_bag.default"),
                            "%w, %i, %o, False, 0, False, %p", {0}),
                      {w, i, o, fromValues({5}, {1, 2, 1, 0.5, 1})});
  expectValues(weighted[0], {11, 14, 0, 0, 13.5, 16});
  auto last =
      run(bag("False, 0, False, None, True"), {w, i, fromValues({3}, {0, 2, 5}, DType::Int64)});
  EXPECT_EQ(last[0].sizes(), (Ints{2, 2}));
  expectValues(last[0], {6, 8, 17, 20});
}

TEST(NnOps, EmbeddingBagInferenceAndErrors) {
  auto v = infer(graph({"w:f32[10, 3][3, 1]cpu", "i:i64[s0][1]cpu", "o:i64[4][1]cpu"},
                       aten("_embedding_bag.default"), "%w, %i, %o, False, 1"));
  ASSERT_TRUE(v) << v.error().str();
  const auto *ts = v->tensors();
  ASSERT_TRUE(ts && ts->size() == 4);
  EXPECT_EQ((*ts)[0]->str(), "f32[4, 3][3, 1]cpu");
  EXPECT_EQ((*ts)[1]->str(), "i64[s0][1]cpu");
  EXPECT_EQ((*ts)[2]->str(), "i64[4][1]cpu");
  EXPECT_EQ((*ts)[3]->str(), "i64[4][1]cpu");
  Tensor w = iota({4, 2});
  expectError(bag("False, 0"),
              {w, fromValues({2}, {0, 9}, DType::Int64), fromValues({1}, {0}, DType::Int64)},
              "Index 1 of input takes value 9 which is not in the valid range [0, 4)");
  expectError(bag("False, 0"),
              {w, fromValues({2}, {0, 1}, DType::Int64), fromValues({1}, {1}, DType::Int64)},
              "offsets[0] has to be 0");
  expectError(bag("False, 0"), {w, fromValues({2}, {0, 1}), fromValues({1}, {0}, DType::Int64)},
              "expected indices to be long or int, got float32");
}

} // namespace
