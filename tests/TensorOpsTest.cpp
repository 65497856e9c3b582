/// The tensor op family (ir/ops/TensorOps.cpp, backends/interp/TensorKernels.cpp): inference
/// (dtype, symbolic sizes, strides, errors) on graphs written as FX text, and reference kernels
/// run through the interpreter (which checks every result against its inferred type) against
/// hand-worked values or naive loops written here. The attention backward ops are checked
/// against central finite differences of a naive double-precision forward.

#include "InterpreterTestSupport.h"
#include "ir/ops/OpRegistry.h"
#include "transforms/ShapeInference.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

using namespace fxkit;
using namespace fxkit::testing;

namespace {

// ---- Inference helpers ----

/// The printed value of `r = target(args, **kwargs)`: a tensor type, results joined by " | ",
/// a symbolic integer, or "error: <message>".
std::string inferOne(const std::vector<std::string> &inputs, const std::string &target,
                     const std::string &args, const std::string &kwargs = "{}") {
  return inferredValue(inputs,
                       "    %r : [num_users=1] = call_function[target=torch.ops.aten." + target +
                           "](args = (" + args + "), kwargs = " + kwargs + ")\n",
                       "r");
}

/// Expects inference to fail with a message containing `part`.
void expectInferError(const std::vector<std::string> &inputs, const std::string &target,
                      const std::string &args, const std::string &part,
                      const std::string &kwargs = "{}") {
  std::string got = inferOne(inputs, target, args, kwargs);
  EXPECT_EQ(got.rfind("error: ", 0), 0u) << got;
  EXPECT_NE(got.find(part), std::string::npos) << got;
}

// ---- Kernel helpers ----

/// `r = aten.<call>` over placeholders named `names`.
std::string graphOf(const std::vector<std::string> &names, const std::string &call) {
  return oneOpGraph(names, "torch.ops.aten." + call);
}

/// Runs `text` with tensor inputs and returns every output.
std::vector<RuntimeValue> runAll(const std::string &text, const std::vector<RuntimeValue> &inputs) {
  auto r = runText(text, inputs);
  EXPECT_TRUE(r) << (r ? "" : r.error().str());
  return r ? r->outputs : std::vector<RuntimeValue>{};
}

/// Expects running `text` to fail with a message naming node r and containing `part`.
void expectRunError(const std::string &text, const std::vector<RuntimeValue> &inputs,
                    const std::string &part) {
  auto r = runText(text, inputs);
  ASSERT_FALSE(r) << "expected an error containing '" << part << "'";
  EXPECT_NE(r.error().message.find("node 'r'"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find(part), std::string::npos) << r.error().message;
}

Tensor randomTensor(std::vector<int64_t> sizes, uint64_t seed, DType dtype = DType::Float32) {
  auto t = Tensor::random(dtype, std::move(sizes), seed);
  EXPECT_TRUE(t);
  return t.take();
}

std::vector<double> iotaValues(int64_t n, double start = 0) {
  std::vector<double> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), start);
  return v;
}

RuntimeValue rv(const Tensor &t) { return RuntimeValue{t}; }

// ---- baddbmm and the out= products ----

TEST(TensorOps, BaddbmmInference) {
  EXPECT_EQ(inferOne({"f32[s0, 1, 5][5, 5, 1]cpu", "f32[s0, 3, 4][12, 4, 1]cpu",
                      "f32[s0, 4, 5][20, 1, 4]cpu"},
                     "baddbmm.default", "%a, %b, %c", "{beta: 1.0, alpha: 0.25}"),
            "f32[s0, 3, 5][15, 5, 1]cpu");
  EXPECT_EQ(inferOne({"f64[5][1]cpu", "f64[2, 3, 4][12, 4, 1]cpu", "f64[2, 4, 5][20, 5, 1]cpu"},
                     "baddbmm.default", "%a, %b, %c"),
            "f64[2, 3, 5][15, 5, 1]cpu");
  expectInferError({"f32[5][1]cpu", "f64[2, 3, 4][12, 4, 1]cpu", "f64[2, 4, 5][20, 5, 1]cpu"},
                   "baddbmm.default", "%a, %b, %c",
                   "Input dtypes must be the same, got: input: float32, batch1: float64");
  expectInferError({"f32[5][1]cpu", "f32[2, 3, 4][12, 4, 1]cpu", "f32[2, 3, 5][15, 5, 1]cpu"},
                   "baddbmm.default", "%a, %b, %c",
                   "Expected size for first two dimensions of batch2 tensor to be: [2, 4] but "
                   "got: [2, 3].");
  expectInferError({"f32[4][1]cpu", "f32[2, 3, 4][12, 4, 1]cpu", "f32[2, 4, 5][20, 5, 1]cpu"},
                   "baddbmm.default", "%a, %b, %c", "cannot be expanded");
  expectInferError({"f32[5][1]cpu", "f32[3, 4][4, 1]cpu", "f32[2, 4, 5][20, 5, 1]cpu"},
                   "baddbmm.default", "%a, %b, %c", "batch1 must be a 3D tensor");
}

/// Naive beta * self + alpha * b1 @ b2 over row-major values (self already full-sized).
std::vector<double> naiveBaddbmm(const std::vector<double> &self, const std::vector<double> &b1,
                                 const std::vector<double> &b2, int64_t n, int64_t m, int64_t k,
                                 int64_t p, double beta, double alpha) {
  std::vector<double> out(n * m * p);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < p; ++j) {
        double acc = 0;
        for (int64_t q = 0; q < k; ++q)
          acc += b1[(b * m + i) * k + q] * b2[(b * k + q) * p + j];
        out[(b * m + i) * p + j] = beta * self[(b * m + i) * p + j] + alpha * acc;
      }
  return out;
}

TEST(TensorOps, BaddbmmHandWorked) {
  // [[1, 2], [3, 4]] @ [[5, 6], [7, 8]] = [[19, 22], [43, 50]]; 0.5 * that + 2 * [10, 20].
  Tensor self = fromValues({2}, {10, 20});
  Tensor b1 = fromValues({1, 2, 2}, {1, 2, 3, 4});
  Tensor b2 = fromValues({1, 2, 2}, {5, 6, 7, 8});
  Tensor r = runSingle(graphOf({"s", "b1", "b2"}, "baddbmm.default](args = (%s, %b1, %b2), "
                                                  "kwargs = {beta: 2, alpha: 0.5})"),
                       {self, b1, b2});
  expectValues(r, {29.5, 51, 41.5, 65});
}

TEST(TensorOps, BaddbmmNonContiguousOperands) {
  // batch1 (3, 2, 4) from a (2, 3, 4) buffer; batch2 (3, 4, 5) from (5, 4, 3); self (1, 2, 5)
  // broadcast over the batch.
  Tensor b1 = permuted(randomTensor({2, 3, 4}, 1), {1, 0, 2});
  Tensor b2 = permuted(randomTensor({5, 4, 3}, 2), {2, 1, 0});
  Tensor self = randomTensor({1, 2, 5}, 3);
  Tensor r = runSingle(graphOf({"s", "b1", "b2"}, "baddbmm.default](args = (%s, %b1, %b2), "
                                                  "kwargs = {beta: 1.0, alpha: 0.25})"),
                       {self, b1, b2});
  EXPECT_EQ(r.strides(), (std::vector<int64_t>{10, 5, 1}));
  std::vector<double> full, s = flat(self);
  for (int b = 0; b < 3; ++b)
    full.insert(full.end(), s.begin(), s.end());
  expectValues(r, naiveBaddbmm(full, flat(b1), flat(b2), 3, 2, 4, 5, 1.0, 0.25), 1e-5);
}

TEST(TensorOps, BaddbmmBetaZeroIgnoresNaN) {
  Tensor self = fromValues({1, 1, 2}, {NAN, INFINITY});
  Tensor b1 = fromValues({1, 1, 2}, {1, 2});
  Tensor b2 = fromValues({1, 2, 2}, {1, 0, 0, 1});
  Tensor r = runSingle(graphOf({"s", "b1", "b2"}, "baddbmm.default](args = (%s, %b1, %b2), "
                                                  "kwargs = {beta: 0})"),
                       {self, b1, b2});
  expectValues(r, {1, 2});
  // beta != 0 propagates them.
  Tensor p = runSingle(graphOf({"s", "b1", "b2"}, "baddbmm.default](args = (%s, %b1, %b2), "
                                                  "kwargs = {})"),
                       {self, b1, b2});
  EXPECT_TRUE(std::isnan(flat(p)[0]));
  EXPECT_TRUE(std::isinf(flat(p)[1]));
}

TEST(TensorOps, BaddbmmIntegersExact) {
  // 2^40 * 3 + 1: beyond float32, exact in int64.
  Tensor self = fromValues({1}, {1}, DType::Int64);
  auto b1 = Tensor::zeros(DType::Int64, {1, 1, 1});
  auto b2 = Tensor::zeros(DType::Int64, {1, 1, 1});
  b1->storeInt(0, int64_t(1) << 40);
  b2->storeInt(0, 3);
  Tensor r = runSingle(graphOf({"s", "b1", "b2"}, "baddbmm.default](args = (%s, %b1, %b2), "
                                                  "kwargs = {})"),
                       {self, *b1, *b2});
  EXPECT_EQ(r.dtype(), DType::Int64);
  EXPECT_EQ(r.loadInt(0), (int64_t(3) << 40) + 1);
}

TEST(TensorOps, BaddbmmBoolIsAnError) {
  Tensor t = fromValues({1, 1, 1}, {1}, DType::Bool);
  expectRunError(graphOf({"s", "b1", "b2"}, "baddbmm.default](args = (%s, %b1, %b2), "
                                            "kwargs = {})"),
                 {rv(t), rv(t), rv(t)}, "\"baddbmm\" not implemented for 'Bool'");
}

TEST(TensorOps, BaddbmmOutWritesIntoOut) {
  Tensor self = fromValues({2}, {10, 20});
  Tensor b1 = fromValues({1, 2, 2}, {1, 2, 3, 4});
  Tensor b2 = fromValues({1, 2, 2}, {5, 6, 7, 8});
  Tensor out = randomTensor({1, 2, 2}, 4);
  Tensor r = runSingle(graphOf({"s", "b1", "b2", "o"},
                               "baddbmm.out](args = (%s, %b1, %b2), kwargs = {alpha: 0.5, beta: "
                               "2.0, out: %o})"),
                       {self, b1, b2, out});
  EXPECT_TRUE(r.sharesStorageWith(out));
  expectValues(out, {29.5, 51, 41.5, 65});
}

TEST(TensorOps, MmOutAndBmmOut) {
  Tensor a = fromValues({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor b = permuted(fromValues({2, 3}, {7, 9, 11, 8, 10, 12}), {1, 0}); // (3, 2)
  Tensor out = randomTensor({2, 2}, 5);
  Tensor r = runSingle(graphOf({"a", "b", "o"}, "mm.out](args = (%a, %b), kwargs = {out: %o})"),
                       {a, b, out});
  EXPECT_TRUE(r.sharesStorageWith(out));
  expectValues(out, {58, 64, 139, 154});

  Tensor ba = fromValues({2, 1, 2}, {1, 2, 3, 4});
  Tensor bb = fromValues({2, 2, 1}, {5, 6, 7, 8});
  // out with a transposed layout: the inferred result is out itself, strides included.
  Tensor bout = permuted(randomTensor({1, 1, 2}, 6), {2, 0, 1});
  Tensor br = runSingle(graphOf({"a", "b", "o"}, "bmm.out](args = (%a, %b), kwargs = {out: %o})"),
                        {ba, bb, bout});
  EXPECT_TRUE(br.sharesStorageWith(bout));
  expectValues(bout, {17, 53});
}

TEST(TensorOps, OutVariantsInferenceAndErrors) {
  EXPECT_EQ(inferOne({"f32[s0, 3][3, 1]cpu", "f32[3, 4][4, 1]cpu", "f32[s0, 4][1, s0]cpu"},
                     "mm.out", "%a, %b", "{out: %c}"),
            "f32[s0, 4][1, s0]cpu");
  expectInferError({"f32[2, 3][3, 1]cpu", "f32[3, 4][4, 1]cpu", "f64[2, 4][4, 1]cpu"}, "mm.out",
                   "%a, %b", "Expected out tensor to have dtype float32, but got float64 instead",
                   "{out: %c}");
  expectInferError(
      {"f32[2, 2, 3][6, 3, 1]cpu", "f32[2, 3, 4][12, 4, 1]cpu", "f32[2, 4, 4][16, 4, 1]cpu"},
      "bmm.out", "%a, %b", "out= tensors are not resized", "{out: %c}");
  expectInferError({"f32[2, 3][3, 1]cpu", "f32[4, 4][4, 1]cpu", "f32[2, 4][4, 1]cpu"}, "mm.out",
                   "%a, %b", "cannot be multiplied", "{out: %c}");
}

// ---- Attention backward ----

/// Attention problem sizes and a naive double-precision forward over row-major vectors.
struct Problem {
  int64_t B = 1, H = 2, M = 3, N = 4, E = 3, Ev = 2;
  double scale = 0.4;
  bool causal = false;
  std::vector<double> mask; ///< (B, H, M, N) additive, empty for none
  std::vector<bool> keep;   ///< (B, H, M, N) boolean, empty for none

  size_t qi(int64_t b, int64_t h, int64_t i, int64_t c) const {
    return ((b * H + h) * M + i) * E + c;
  }
  size_t ki(int64_t b, int64_t h, int64_t j, int64_t c) const {
    return ((b * H + h) * N + j) * E + c;
  }
  size_t vi(int64_t b, int64_t h, int64_t j, int64_t c) const {
    return ((b * H + h) * N + j) * Ev + c;
  }
  size_t oi(int64_t b, int64_t h, int64_t i, int64_t c) const {
    return ((b * H + h) * M + i) * Ev + c;
  }
  size_t si(int64_t b, int64_t h, int64_t i, int64_t j) const {
    return ((b * H + h) * M + i) * N + j;
  }

  /// Output (B, H, M, Ev) and logsumexp (B, H, M).
  std::pair<std::vector<double>, std::vector<double>>
  forward(const std::vector<double> &q, const std::vector<double> &k, const std::vector<double> &v,
          const std::vector<double> &addMask) const {
    std::vector<double> out(B * H * M * Ev), lse(B * H * M);
    for (int64_t b = 0; b < B; ++b)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t i = 0; i < M; ++i) {
          std::vector<double> s(N, -INFINITY);
          for (int64_t j = 0; j < N; ++j) {
            if ((causal && j > i) || (!keep.empty() && !keep[si(b, h, i, j)]))
              continue;
            double dot = 0;
            for (int64_t c = 0; c < E; ++c)
              dot += q[qi(b, h, i, c)] * k[ki(b, h, j, c)];
            s[j] = dot * scale + (addMask.empty() ? 0 : addMask[si(b, h, i, j)]);
          }
          double mx = *std::max_element(s.begin(), s.end()), sum = 0;
          for (double x : s)
            sum += std::exp(x - mx);
          lse[(b * H + h) * M + i] = mx + std::log(sum);
          for (int64_t c = 0; c < Ev; ++c) {
            double acc = 0;
            for (int64_t j = 0; j < N; ++j)
              acc += std::exp(s[j] - mx) / sum * v[vi(b, h, j, c)];
            out[oi(b, h, i, c)] = acc;
          }
        }
    return {out, lse};
  }
};

/// Central differences of L = sum(gradOut * forward) with respect to every element of `x`.
std::vector<double> numericGrad(const std::function<double()> &loss, std::vector<double> &x) {
  const double eps = 1e-6;
  std::vector<double> g(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    double keep = x[i];
    x[i] = keep + eps;
    double up = loss();
    x[i] = keep - eps;
    double down = loss();
    x[i] = keep;
    g[i] = (up - down) / (2 * eps);
  }
  return g;
}

std::vector<double> randomValues(size_t n, uint64_t seed) {
  Tensor t = randomTensor({static_cast<int64_t>(n)}, seed, DType::Float64);
  return flat(t);
}

/// The four numeric gradients (q, k, v, additive mask) of problem p.
struct Grads {
  std::vector<double> q, k, v, mask;
};

Grads numericGrads(const Problem &p, std::vector<double> q, std::vector<double> k,
                   std::vector<double> v, std::vector<double> mask, const std::vector<double> &g) {
  auto loss = [&] {
    auto [out, lse] = p.forward(q, k, v, mask);
    double l = 0;
    for (size_t i = 0; i < out.size(); ++i)
      l += out[i] * g[i];
    return l;
  };
  Grads r;
  r.q = numericGrad(loss, q);
  r.k = numericGrad(loss, k);
  r.v = numericGrad(loss, v);
  if (!mask.empty())
    r.mask = numericGrad(loss, mask);
  return r;
}

/// (B, H, L, D) layout as (B, L, H, D): the strides the backward ops give their gradients.
std::vector<int64_t> bhldStrides(int64_t H, int64_t L, int64_t D) {
  return {L * H * D, D, H * D, 1};
}

TEST(TensorOps, FlashAttentionCpuBackwardMatchesFiniteDifferences) {
  Problem p;
  p.B = 2;
  p.mask = randomValues(p.B * p.H * p.M * p.N, 10);
  std::vector<double> q = randomValues(p.B * p.H * p.M * p.E, 11);
  std::vector<double> k = randomValues(p.B * p.H * p.N * p.E, 12);
  std::vector<double> v = randomValues(p.B * p.H * p.N * p.Ev, 13);
  std::vector<double> g = randomValues(p.B * p.H * p.M * p.Ev, 14);
  auto [out, lse] = p.forward(q, k, v, p.mask);
  Grads want = numericGrads(p, q, k, v, p.mask, g);
  auto t = [](std::vector<int64_t> s, const std::vector<double> &x) {
    return fromValues(std::move(s), x, DType::Float64);
  };
  // key given through a (B, N, H, E) buffer: a non-contiguous (B, H, N, E) view.
  std::vector<double> bnhe;
  for (int64_t b = 0; b < p.B; ++b)
    for (int64_t j = 0; j < p.N; ++j)
      for (int64_t h = 0; h < p.H; ++h)
        for (int64_t c = 0; c < p.E; ++c)
          bnhe.push_back(k[p.ki(b, h, j, c)]);
  Tensor key = permuted(t({p.B, p.N, p.H, p.E}, bnhe), {0, 2, 1, 3});
  std::string text =
      graphOf({"g", "q", "k", "v", "o", "l", "m"},
              "_scaled_dot_product_flash_attention_for_cpu_backward.default](args = (%g, %q, %k, "
              "%v, %o, %l, 0.0, False), kwargs = {attn_mask: %m, scale: 0.4})");
  std::vector<RuntimeValue> outs =
      runAll(text, {rv(t({p.B, p.H, p.M, p.Ev}, g)), rv(t({p.B, p.H, p.M, p.E}, q)), rv(key),
                    rv(t({p.B, p.H, p.N, p.Ev}, v)), rv(t({p.B, p.H, p.M, p.Ev}, out)),
                    rv(t({p.B, p.H, p.M}, lse)), rv(t({p.B, p.H, p.M, p.N}, p.mask))});
  ASSERT_EQ(outs.size(), 1u);
  const auto &ts = *outs[0].tensors();
  ASSERT_EQ(ts.size(), 3u);
  EXPECT_EQ(ts[0]->strides(), bhldStrides(p.H, p.M, p.E));
  EXPECT_EQ(ts[1]->strides(), bhldStrides(p.H, p.N, p.E));
  EXPECT_EQ(ts[2]->strides(), bhldStrides(p.H, p.N, p.Ev));
  expectValues(*ts[0], want.q, 1e-6);
  expectValues(*ts[1], want.k, 1e-6);
  expectValues(*ts[2], want.v, 1e-6);
}

TEST(TensorOps, FlashAttentionCpuBackwardCausalBoolMaskDefaultScale) {
  Problem p;
  p.M = 4;
  p.causal = true;
  p.scale = 1.0 / std::sqrt(3.0);
  p.keep.assign(p.B * p.H * p.M * p.N, true);
  p.keep[p.si(0, 1, 2, 0)] = false; // one more masked key beyond the causal ones
  std::vector<double> q = randomValues(p.B * p.H * p.M * p.E, 21);
  std::vector<double> k = randomValues(p.B * p.H * p.N * p.E, 22);
  std::vector<double> v = randomValues(p.B * p.H * p.N * p.Ev, 23);
  std::vector<double> g = randomValues(p.B * p.H * p.M * p.Ev, 24);
  auto [out, lse] = p.forward(q, k, v, {});
  Grads want = numericGrads(p, q, k, v, {}, g);
  std::vector<double> keep(p.keep.begin(), p.keep.end());
  auto t = [](std::vector<int64_t> s, const std::vector<double> &x, DType d = DType::Float64) {
    return fromValues(std::move(s), x, d);
  };
  std::string text =
      graphOf({"g", "q", "k", "v", "o", "l", "m"},
              "_scaled_dot_product_flash_attention_for_cpu_backward.default](args = (%g, %q, %k, "
              "%v, %o, %l, 0.0, True), kwargs = {attn_mask: %m})");
  std::vector<RuntimeValue> outs =
      runAll(text, {rv(t({p.B, p.H, p.M, p.Ev}, g)), rv(t({p.B, p.H, p.M, p.E}, q)),
                    rv(t({p.B, p.H, p.N, p.E}, k)), rv(t({p.B, p.H, p.N, p.Ev}, v)),
                    rv(t({p.B, p.H, p.M, p.Ev}, out)), rv(t({p.B, p.H, p.M}, lse)),
                    rv(t({1, p.H, p.M, p.N}, keep, DType::Bool))});
  ASSERT_EQ(outs.size(), 1u);
  const auto &ts = *outs[0].tensors();
  expectValues(*ts[0], want.q, 1e-6);
  expectValues(*ts[1], want.k, 1e-6);
  expectValues(*ts[2], want.v, 1e-6);
}

TEST(TensorOps, EfficientAttentionBackwardWithBiasGradient) {
  Problem p;
  p.N = 5;
  p.causal = true;
  p.mask = randomValues(p.B * p.H * p.M * p.N, 30);
  std::vector<double> q = randomValues(p.B * p.H * p.M * p.E, 31);
  std::vector<double> k = randomValues(p.B * p.H * p.N * p.E, 32);
  std::vector<double> v = randomValues(p.B * p.H * p.N * p.Ev, 33);
  std::vector<double> g = randomValues(p.B * p.H * p.M * p.Ev, 34);
  auto [out, lse] = p.forward(q, k, v, p.mask);
  Grads want = numericGrads(p, q, k, v, p.mask, g);
  auto t = [](std::vector<int64_t> s, const std::vector<double> &x) {
    return fromValues(std::move(s), x, DType::Float64);
  };
  // The CUTLASS logsumexp has rows padded to 32 (+inf beyond M).
  std::vector<double> padded(p.B * p.H * 32, INFINITY);
  for (int64_t h = 0; h < p.H; ++h)
    for (int64_t i = 0; i < p.M; ++i)
      padded[h * 32 + i] = lse[h * p.M + i];
  Tensor seed = fromValues({}, {0}, DType::Int64);
  std::string text =
      graphOf({"g", "q", "k", "v", "bias", "o", "l", "s1", "s2"},
              "_scaled_dot_product_efficient_attention_backward.default](args = (%g, %q, %k, %v, "
              "%bias, %o, %l, %s1, %s2, 0.0, [True, True, True, True]), kwargs = {is_causal: "
              "True, scale: 0.4})");
  std::vector<RuntimeValue> outs =
      runAll(text, {rv(t({p.B, p.H, p.M, p.Ev}, g)), rv(t({p.B, p.H, p.M, p.E}, q)),
                    rv(t({p.B, p.H, p.N, p.E}, k)), rv(t({p.B, p.H, p.N, p.Ev}, v)),
                    rv(t({p.B, p.H, p.M, p.N}, p.mask)), rv(t({p.B, p.H, p.M, p.Ev}, out)),
                    rv(t({p.B, p.H, 32}, padded)), rv(seed), rv(seed)});
  ASSERT_EQ(outs.size(), 1u);
  const auto &ts = *outs[0].tensors();
  ASSERT_EQ(ts.size(), 4u);
  expectValues(*ts[0], want.q, 1e-6);
  expectValues(*ts[1], want.k, 1e-6);
  expectValues(*ts[2], want.v, 1e-6);
  ASSERT_TRUE(ts[3]);
  EXPECT_EQ(ts[3]->strides(), (std::vector<int64_t>{96, 48, 16, 1})); // rows padded to 16
  expectValues(*ts[3], want.mask, 1e-6);
}

TEST(TensorOps, AttentionBackwardOfTheForwardKernel) {
  // Forward by the registered flash-attention kernel (float32, additive mask), then backward
  // from its outputs: gradients agree with finite differences to float32 precision.
  Problem p;
  p.mask = randomValues(p.B * p.H * p.M * p.N, 40);
  std::vector<double> q = randomValues(p.B * p.H * p.M * p.E, 41);
  std::vector<double> k = randomValues(p.B * p.H * p.N * p.E, 42);
  std::vector<double> v = randomValues(p.B * p.H * p.N * p.Ev, 43);
  std::vector<double> g = randomValues(p.B * p.H * p.M * p.Ev, 44);
  // Values rounded to float32 first so that both sides see the same inputs.
  for (auto *x : {&q, &k, &v, &g, &p.mask})
    for (double &e : *x)
      e = static_cast<float>(e);
  Grads want = numericGrads(p, q, k, v, p.mask, g);
  std::string text =
      "graph():\n"
      "    %q : [num_users=2] = placeholder[target=q]\n"
      "    %k : [num_users=2] = placeholder[target=k]\n"
      "    %v : [num_users=2] = placeholder[target=v]\n"
      "    %m : [num_users=2] = placeholder[target=m]\n"
      "    %g : [num_users=1] = placeholder[target=g]\n"
      "    %f : [num_users=2] = call_function[target=torch.ops.aten._scaled_dot_product_flash_"
      "attention_for_cpu.default](args = (%q, %k, %v), kwargs = {attn_mask: %m, scale: 0.4})\n"
      "    %o : [num_users=1] = call_function[target=operator.getitem](args = (%f, 0), kwargs = "
      "{})\n"
      "    %l : [num_users=1] = call_function[target=operator.getitem](args = (%f, 1), kwargs = "
      "{})\n"
      "    %r : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_flash_"
      "attention_for_cpu_backward.default](args = (%g, %q, %k, %v, %o, %l, 0.0, False), kwargs "
      "= {attn_mask: %m, scale: 0.4})\n"
      "    return (r,)\n";
  std::vector<RuntimeValue> outs = runAll(
      text, {rv(fromValues({p.B, p.H, p.M, p.E}, q)), rv(fromValues({p.B, p.H, p.N, p.E}, k)),
             rv(fromValues({p.B, p.H, p.N, p.Ev}, v)), rv(fromValues({p.B, p.H, p.M, p.N}, p.mask)),
             rv(fromValues({p.B, p.H, p.M, p.Ev}, g))});
  ASSERT_EQ(outs.size(), 1u);
  const auto &ts = *outs[0].tensors();
  EXPECT_EQ(ts[0]->dtype(), DType::Float32);
  expectValues(*ts[0], want.q, 2e-5);
  expectValues(*ts[1], want.k, 2e-5);
  expectValues(*ts[2], want.v, 2e-5);
}

TEST(TensorOps, AttentionBackwardInference) {
  std::vector<std::string> in{"f32[s0, 4, 16, 8][512, 128, 8, 1]cpu", // grad_out
                              "f32[s0, 4, 16, 8][512, 128, 8, 1]cpu", // query
                              "f32[s0, 4, 16, 8][512, 128, 8, 1]cpu", // key
                              "f32[s0, 4, 16, 8][512, 128, 8, 1]cpu", // value
                              "f32[s0, 4, 16, 20][0, 0, 20, 1]cpu",   // attn_bias
                              "f32[s0, 4, 16, 8][512, 8, 32, 1]cpu",  // out
                              "f32[s0, 4, 32][128, 32, 1]cpu",        // logsumexp
                              "i64[][]cpu",
                              "i64[][]cpu"};
  std::string grads = "f32[s0, 4, 16, 8][512, 8, 32, 1]cpu";
  EXPECT_EQ(inferOne(in, "_scaled_dot_product_efficient_attention_backward.default",
                     "%a, %b, %c, %d, %e, %f, %g, %h, %i, 0.0, [True, True, True, False]",
                     "{scale: 0.25}"),
            grads + " | " + grads + " | " + grads + " | None");
  EXPECT_EQ(inferOne(in, "_scaled_dot_product_efficient_attention_backward.default",
                     "%a, %b, %c, %d, %e, %f, %g, %h, %i, 0.0, [True, True, True, True]"),
            grads + " | " + grads + " | " + grads + " | f32[s0, 4, 16, 20][2048, 512, 32, 1]cpu");
  EXPECT_EQ(inferOne({"bf16[2, 3, 5, 8][120, 40, 8, 1]cpu", "bf16[2, 3, 5, 8][120, 40, 8, 1]cpu",
                      "bf16[2, 3, 7, 8][168, 56, 8, 1]cpu", "bf16[2, 3, 7, 8][168, 56, 8, 1]cpu",
                      "bf16[2, 3, 5, 8][120, 8, 24, 1]cpu", "f32[2, 3, 5][15, 1, 3]cpu"},
                     "_scaled_dot_product_flash_attention_for_cpu_backward.default",
                     "%a, %b, %c, %d, %e, %f, 0.0, False"),
            "bf16[2, 3, 5, 8][120, 8, 24, 1]cpu | bf16[2, 3, 7, 8][168, 8, 24, 1]cpu | "
            "bf16[2, 3, 7, 8][168, 8, 24, 1]cpu");
  expectInferError({"f32[2, 3, 5, 8][120, 40, 8, 1]cpu", "f32[2, 3, 5, 8][120, 40, 8, 1]cpu",
                    "f32[2, 3, 7, 4][84, 28, 4, 1]cpu", "f32[2, 3, 7, 8][168, 56, 8, 1]cpu",
                    "f32[2, 3, 5, 8][120, 8, 24, 1]cpu", "f32[2, 3, 5][15, 1, 3]cpu"},
                   "_scaled_dot_product_flash_attention_for_cpu_backward.default",
                   "%a, %b, %c, %d, %e, %f, 0.0, False", "shapes do not match");
}

TEST(TensorOps, AttentionBackwardRefusesDropout) {
  Tensor x = randomTensor({1, 1, 2, 2}, 50), l = randomTensor({1, 1, 2}, 51);
  expectRunError(graphOf({"g", "q", "k", "v", "o", "l"},
                         "_scaled_dot_product_flash_attention_for_cpu_backward.default](args = "
                         "(%g, %q, %k, %v, %o, %l, 0.5, False), kwargs = {})"),
                 {rv(x), rv(x), rv(x), rv(x), rv(x), rv(l)}, "dropout_p");
}

// ---- Copies ----

TEST(TensorOps, LiftFreshCopyIsContiguousCopy) {
  Tensor base = fromValues({2, 3}, {0, 1, 2, 3, 4, 5});
  Tensor x = permuted(base, {1, 0}); // (3, 2), strides (1, 3)
  Tensor r = runSingle(graphOf({"x"}, "lift_fresh_copy.default](args = (%x,), kwargs = {})"), {x});
  EXPECT_FALSE(r.sharesStorageWith(x));
  EXPECT_EQ(r.strides(), (std::vector<int64_t>{2, 1}));
  expectValues(r, {0, 3, 1, 4, 2, 5});
  EXPECT_EQ(inferOne({"f32[s0, 4][1, s0]cpu"}, "lift_fresh_copy.default", "%a"),
            "f32[s0, 4][4, 1]cpu");
}

TEST(TensorOps, CopyBroadcastsAndConvertsIntoSelfsLayout) {
  Tensor self = permuted(fromValues({3, 2}, {0, 0, 0, 0, 0, 0}, DType::Int32), {1, 0}); // (2, 3)
  Tensor src = fromValues({3}, {1.9, -2.7, 3.5}, DType::Float64);
  Tensor r =
      runSingle(graphOf({"s", "x"}, "copy.default](args = (%s, %x), kwargs = {})"), {self, src});
  EXPECT_EQ(r.dtype(), DType::Int32);
  EXPECT_EQ(r.strides(), (std::vector<int64_t>{1, 2}));
  expectValues(r, {1, -2, 3, 1, -2, 3}); // truncation toward zero
  // Every other column of a (3, 8) buffer: the result keeps the gaps.
  Tensor gappy = *randomTensor({3, 8}, 61).asStrided({3, 4}, {8, 2}, 0);
  Tensor g = runSingle(graphOf({"s", "x"}, "copy.default](args = (%s, %x), kwargs = {})"),
                       {gappy, fromValues({3, 1}, {1, 2, 3})});
  EXPECT_EQ(g.strides(), (std::vector<int64_t>{8, 2}));
  expectValues(g, {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3});
  EXPECT_EQ(inferOne({"f16[s0, 4][4, 1]cpu", "f32[4][1]cpu"}, "copy.default", "%a, %b"),
            "f16[s0, 4][4, 1]cpu");
  // A non-dense self keeps its strides (clone_preserve_strides); an overlapping one is cloned.
  EXPECT_EQ(inferOne({"f32[3, 4][8, 2]cpu", "f32[4][1]cpu"}, "copy.default", "%a, %b"),
            "f32[3, 4][8, 2]cpu");
  EXPECT_EQ(inferOne({"f32[3, 4][1, 0]cpu", "f32[4][1]cpu"}, "copy.default", "%a, %b"),
            "f32[3, 4][4, 1]cpu");
  expectInferError({"f32[2, 4][4, 1]cpu", "f32[3][1]cpu"}, "copy.default", "%a, %b",
                   "cannot be broadcast");
}

TEST(TensorOps, ToCopyDtypeAndMemoryFormat) {
  Tensor x = fromValues({2, 2}, {0.0, 2.5, -1.0, NAN});
  Tensor b = runSingle(graphOf({"x"}, "_to_copy.default](args = (%x,), kwargs = {dtype: "
                                      "torch.bool})"),
                       {x});
  EXPECT_EQ(b.dtype(), DType::Bool);
  expectValues(b, {0, 1, 1, 1});
  Tensor i = runSingle(graphOf({"x"}, "_to_copy.default](args = (%x,), kwargs = {dtype: "
                                      "torch.int64})"),
                       {fromValues({3}, {2.9, -2.9, 7})});
  EXPECT_EQ(i.getInt(std::vector<int64_t>{1}), -2);
  Tensor img = randomTensor({1, 2, 2, 3}, 60);
  Tensor cl = runSingle(graphOf({"x"}, "_to_copy.default](args = (%x,), kwargs = {dtype: "
                                       "torch.float64, memory_format: torch.channels_last})"),
                        {img});
  EXPECT_EQ(cl.strides(), (std::vector<int64_t>{12, 1, 6, 2}));
  expectValues(cl, flat(img));
  EXPECT_EQ(inferOne({"f32[s0, 3][1, s0]cpu"}, "_to_copy.default", "%a",
                     "{dtype: torch.bfloat16, device: cuda:0}"),
            "bf16[s0, 3][1, s0]cuda:0");
  expectInferError({"f32[2, 3][3, 1]cpu"}, "_to_copy.default", "%a", "required rank 4",
                   "{memory_format: torch.channels_last}");
}

TEST(TensorOps, CopiesOfViews) {
  Tensor x = fromValues({2, 1, 3}, {0, 1, 2, 3, 4, 5});
  Tensor s = runSingle(graphOf({"x"}, "squeeze_copy.dim](args = (%x, -2), kwargs = {})"), {x});
  EXPECT_FALSE(s.sharesStorageWith(x));
  EXPECT_EQ(s.sizes(), (std::vector<int64_t>{2, 3}));
  expectValues(s, {0, 1, 2, 3, 4, 5});
  Tensor all = runSingle(graphOf({"x"}, "squeeze_copy.default](args = (%x,), kwargs = {})"), {x});
  EXPECT_EQ(all.sizes(), (std::vector<int64_t>{2, 3}));
  Tensor dims =
      runSingle(graphOf({"x"}, "squeeze_copy.dims](args = (%x, [0, 1]), kwargs = {})"), {x});
  EXPECT_EQ(dims.sizes(), (std::vector<int64_t>{2, 3}));
  // as_strided_copy: a transposed window, copied contiguous.
  Tensor a = runSingle(graphOf({"x"}, "as_strided_copy.default](args = (%x, [3, 2], [1, 3], 0), "
                                      "kwargs = {})"),
                       {x});
  EXPECT_EQ(a.strides(), (std::vector<int64_t>{2, 1}));
  expectValues(a, {0, 3, 1, 4, 2, 5});
  EXPECT_EQ(inferOne({"f32[s0, 1, 4][4, 4, 1]cpu"}, "squeeze_copy.dim", "%a, 1"),
            "f32[s0, 4][4, 1]cpu");
  EXPECT_EQ(inferOne({"f32[8][1]cpu"}, "as_strided_copy.default", "%a, [2, 2], [1, 2]"),
            "f32[2, 2][2, 1]cpu");
}

TEST(TensorOps, DiagonalCopy) {
  Tensor x = fromValues({3, 4}, iotaValues(12));
  auto run = [&](const std::string &args) {
    return runSingle(
        graphOf({"x"}, "diagonal_copy.default](args = (%x, " + args + "), kwargs = {})"), {x});
  };
  expectValues(run("0"), {0, 5, 10});
  expectValues(run("1"), {1, 6, 11});
  expectValues(run("-1"), {4, 9});
  expectValues(run("0, 1, 0"), {0, 5, 10});
  EXPECT_EQ(run("5").numel(), 0);
  // Batched: dims 0 and 2 of (2, 3, 2) leave dim 1 first.
  Tensor y = fromValues({2, 3, 2}, iotaValues(12));
  Tensor d = runSingle(graphOf({"x"}, "diagonal_copy.default](args = (%x, 0, 0, 2), kwargs = "
                                      "{})"),
                       {y});
  EXPECT_EQ(d.sizes(), (std::vector<int64_t>{3, 2}));
  expectValues(d, {0, 7, 2, 9, 4, 11});
  EXPECT_EQ(inferOne({"f32[s0, s0, 5][5*s0, 5, 1]cpu"}, "diagonal_copy.default", "%a"),
            "f32[5, s0][s0, 1]cpu");
  expectInferError({"f32[3, 3][3, 1]cpu"}, "diagonal_copy.default", "%a, 0, 1, -1",
                   "diagonal dimensions cannot be identical");
}

TEST(TensorOps, UnsafeIndexIsIndex) {
  Tensor x = fromValues({3, 2}, iotaValues(6));
  Tensor idx = fromValues({2, 2}, {2, 0, 1, 2}, DType::Int64);
  Tensor r = runSingle(graphOf({"x", "i"}, "_unsafe_index.Tensor](args = (%x, [%i]), kwargs = "
                                           "{})"),
                       {x, idx});
  EXPECT_EQ(r.sizes(), (std::vector<int64_t>{2, 2, 2}));
  expectValues(r, {4, 5, 0, 1, 2, 3, 4, 5});
  Tensor c = runSingle(graphOf({"x", "i"}, "_unsafe_index.Tensor](args = (%x, [None, %i]), "
                                           "kwargs = {})"),
                       {x, fromValues({1}, {1}, DType::Int64)});
  expectValues(c, {1, 3, 5});
  EXPECT_EQ(
      inferOne({"f32[s0, 4][4, 1]cpu", "i64[3][1]cpu"}, "_unsafe_index.Tensor", "%a, [None, %b]"),
      "f32[s0, 3][3, 1]cpu");
}

// ---- Filling and *_like ----

TEST(TensorOps, FillScalarAndTensor) {
  Tensor x = permuted(randomTensor({3, 2}, 70), {1, 0});
  Tensor r = runSingle(graphOf({"x"}, "fill.Scalar](args = (%x, 2.5), kwargs = {})"), {x});
  EXPECT_EQ(r.strides(), x.strides());
  expectValues(r, std::vector<double>(6, 2.5));
  Tensor i = runSingle(graphOf({"x"}, "fill.Scalar](args = (%x, 2.9), kwargs = {})"),
                       {fromValues({2}, {0, 0}, DType::Int32)});
  expectValues(i, {2, 2});
  Tensor v = fromValues({}, {-3}, DType::Int64);
  Tensor t = runSingle(graphOf({"x", "v"}, "fill.Tensor](args = (%x, %v), kwargs = {})"),
                       {fromValues({2}, {0, 0}, DType::Float16), v});
  EXPECT_EQ(t.dtype(), DType::Float16);
  expectValues(t, {-3, -3});
  expectRunError(graphOf({"x"}, "fill.Scalar](args = (%x, 10000000000), kwargs = {})"),
                 {rv(fromValues({2}, {0, 0}, DType::Int32))}, "without overflow");
  expectInferError({"f32[2][1]cpu", "f32[1][1]cpu"}, "fill.Tensor", "%a, %b",
                   "fill_ only supports 0-dimension value tensor but got tensor with 1 "
                   "dimensions.");
}

TEST(TensorOps, LikeCreation) {
  Tensor x = permuted(randomTensor({3, 2}, 80), {1, 0}); // (2, 3), strides (1, 2)
  Tensor f = runSingle(graphOf({"x"}, "full_like.default](args = (%x, 7), kwargs = {dtype: "
                                      "torch.int32})"),
                       {x});
  EXPECT_EQ(f.dtype(), DType::Int32);
  EXPECT_EQ(f.strides(), (std::vector<int64_t>{1, 2}));
  expectValues(f, std::vector<double>(6, 7));
  Tensor o = runSingle(graphOf({"x"}, "ones_like.default](args = (%x,), kwargs = {memory_format: "
                                      "torch.contiguous_format})"),
                       {x});
  EXPECT_EQ(o.strides(), (std::vector<int64_t>{3, 1}));
  expectValues(o, std::vector<double>(6, 1));
  Tensor z = runSingle(graphOf({"x"}, "zeros_like.default](args = (%x,), kwargs = {})"), {x});
  expectValues(z, std::vector<double>(6, 0));
  Tensor e = runSingle(graphOf({"x"}, "empty_like.default](args = (%x,), kwargs = {dtype: "
                                      "torch.bool})"),
                       {x});
  EXPECT_EQ(e.dtype(), DType::Bool);
  expectValues(e, std::vector<double>(6, 0)); // defined: zeros
  // A float fill of an integer full_like truncates; full_like's dtype is self's, not the value's.
  EXPECT_EQ(inferOne({"i64[s0, 4][4, 1]cpu"}, "full_like.default", "%a, 1.5"),
            "i64[s0, 4][4, 1]cpu");
  // Expanded (overlapping) input: dense strides in its stride order.
  EXPECT_EQ(inferOne({"f32[3, 4][0, 1]cpu"}, "zeros_like.default", "%a"), "f32[3, 4][4, 1]cpu");
  EXPECT_EQ(inferOne({"f32[2, 3][3, 1]cpu"}, "empty_like.default", "%a", "{device: cuda}"),
            "f32[2, 3][3, 1]cuda");
}

// ---- Factories ----

TEST(TensorOps, Factories) {
  EXPECT_EQ(inferOne({"s0"}, "zeros.default", "[%a, 3]"), "f32[s0, 3][3, 1]cpu");
  EXPECT_EQ(inferOne({}, "ones.default", "[2, 3]", "{dtype: torch.int64, device: cuda:0}"),
            "i64[2, 3][3, 1]cuda:0");
  EXPECT_EQ(
      inferOne({}, "empty.memory_format", "[2, 3, 4, 5]", "{memory_format: torch.channels_last}"),
      "f32[2, 3, 4, 5][60, 1, 15, 3]cpu");
  EXPECT_EQ(inferOne({"s0"}, "empty_strided.default", "[%a, 4], [1, %a]", "{dtype: torch.float16}"),
            "f16[s0, 4][1, s0]cpu");
  expectInferError({}, "empty.memory_format", "[2, 3]", "unsupported memory format",
                   "{memory_format: torch.preserve_format}");
  expectInferError({}, "zeros.default", "[2, -1]",
                   "Trying to create tensor with negative dimension -1: [2, -1]");
  expectInferError({}, "empty_strided.default", "[2, 3], [1]",
                   "dimensionality of sizes (2) must match dimensionality of strides (1)");

  Tensor ones = runSingle(graphOf({}, "ones.default](args = ([2, 2],), kwargs = {dtype: "
                                      "torch.bfloat16})"),
                          {});
  EXPECT_EQ(ones.dtype(), DType::BFloat16);
  expectValues(ones, {1, 1, 1, 1});
  Tensor es = runSingle(graphOf({}, "empty_strided.default](args = ([2, 3], [1, 2]), kwargs = "
                                    "{})"),
                        {});
  EXPECT_EQ(es.strides(), (std::vector<int64_t>{1, 2}));
  expectValues(es, std::vector<double>(6, 0));
  // A symbolic size bound at run time.
  auto r = runText(
      "graph():\n    %n : [num_users=1] = placeholder[target=n]\n"
      "    %r : [num_users=1] = call_function[target=torch.ops.aten.zeros.default](args = ([%n, "
      "2],), kwargs = {dtype: torch.int32})\n    return (r,)\n",
      {RuntimeValue{int64_t(3)}});
  ASSERT_TRUE(r) << r.error().str();
  EXPECT_EQ(r->outputs[0].tensor()->sizes(), (std::vector<int64_t>{3, 2}));
  expectRunError(
      "graph():\n    %n : [num_users=1] = placeholder[target=n]\n"
      "    %r : [num_users=1] = call_function[target=torch.ops.aten.ones.default](args = ([%n],), "
      "kwargs = {})\n    return (r,)\n",
      {RuntimeValue{int64_t(-2)}}, "negative dimension");
}

TEST(TensorOps, ArangeDtypesAndLengths) {
  EXPECT_EQ(inferOne({}, "arange.default", "5"), "i64[5][1]cpu");
  EXPECT_EQ(inferOne({}, "arange.default", "5.0"), "f32[5][1]cpu");
  EXPECT_EQ(inferOne({}, "arange.start_step", "0, 1, 0.1"), "f32[10][1]cpu");
  EXPECT_EQ(inferOne({}, "arange.start_step", "10, 0, -3"), "i64[4][1]cpu");
  EXPECT_EQ(inferOne({}, "arange.start", "0.5, 5.5", "{dtype: torch.int64}"), "i64[5][1]cpu");
  // Only int64 truncates the bounds before the length: int32 takes ceil((2.5 + 0.5) / 1).
  EXPECT_EQ(inferOne({}, "arange.start_step", "-0.5, 2.5, 1", "{dtype: torch.int32}"),
            "i32[3][1]cpu");
  EXPECT_EQ(inferOne({}, "arange.start_step", "-0.5, 2.5, 1", "{dtype: torch.int64}"),
            "i64[2][1]cpu");
  EXPECT_EQ(inferOne({}, "arange.start", "2, 2"), "i64[0][1]cpu");
  EXPECT_EQ(inferOne({"s0"}, "arange.default", "%a"), "i64[s0][1]cpu");
  EXPECT_EQ(inferOne({"s0"}, "arange.start_step", "1, %a, 2", "{dtype: torch.float32}"),
            "f32[s0//2][1]cpu");
  expectInferError({}, "arange.start_step", "0, 5, 0", "step must be nonzero");
  expectInferError({}, "arange.start_step", "0, 5, -1",
                   "upper bound and lower bound inconsistent with step sign");
  expectInferError({}, "arange.start_step", "0, 1, 0.5", "step must be nonzero",
                   "{dtype: torch.int64}"); // the step truncates to 0
  expectInferError({}, "arange.default", "3", "\"arange_cpu\" not implemented for 'Bool'",
                   "{dtype: torch.bool}");

  auto run = [](const std::string &call) { return runSingle(graphOf({}, "arange." + call), {}); };
  expectValues(run("start_step](args = (10, 0, -3), kwargs = {})"), {10, 7, 4, 1});
  expectValues(run("start_step](args = (1, 2.5, 0.5), kwargs = {})"), {1, 1.5, 2});
  expectValues(run("start](args = (-1.5, 2.2), kwargs = {dtype: torch.int64})"), {-1, 0, 1});
  expectValues(run("start_step](args = (-0.5, 2.5, 1), kwargs = {dtype: torch.int32})"), {0, 1, 2});
  Tensor tenth = run("start_step](args = (0, 1, 0.1), kwargs = {dtype: torch.float64})");
  EXPECT_EQ(tenth.getDouble(std::vector<int64_t>{3}), 0.1 * 3); // start + step * i in double
  Tensor h = run("default](args = (4,), kwargs = {dtype: torch.float16})");
  EXPECT_EQ(h.dtype(), DType::Float16);
  expectValues(h, {0, 1, 2, 3});
  auto sym = runText(
      "graph():\n    %n : [num_users=1] = placeholder[target=n]\n"
      "    %r : [num_users=1] = call_function[target=torch.ops.aten.arange.start_step](args = "
      "(1, %n, 2), kwargs = {})\n    return (r,)\n",
      {RuntimeValue{int64_t(8)}});
  ASSERT_TRUE(sym) << sym.error().str();
  expectValues(*sym->outputs[0].tensor(), {1, 3, 5, 7});
}

TEST(TensorOps, RandAndRandn) {
  std::string rand = graphOf({}, "rand.default](args = ([100, 100],), kwargs = {})");
  Tensor u = runSingle(rand, {});
  EXPECT_EQ(u.dtype(), DType::Float32);
  std::vector<double> uv = flat(u);
  EXPECT_TRUE(std::all_of(uv.begin(), uv.end(), [](double x) { return x >= 0 && x < 1; }));
  double mean = std::accumulate(uv.begin(), uv.end(), 0.0) / uv.size();
  EXPECT_NEAR(mean, 0.5, 0.01);
  // Deterministic: the same graph draws the same values.
  EXPECT_TRUE(runSingle(rand, {}).bitwiseEqual(u));
  Tensor h = runSingle(graphOf({}, "rand.default](args = ([1000],), kwargs = {dtype: "
                                   "torch.float16})"),
                       {});
  std::vector<double> hv = flat(h);
  EXPECT_TRUE(std::all_of(hv.begin(), hv.end(), [](double x) { return x >= 0 && x < 1; }));

  Tensor n = runSingle(graphOf({}, "randn.default](args = ([20000],), kwargs = {dtype: "
                                   "torch.float64})"),
                       {});
  std::vector<double> nv = flat(n);
  double m = std::accumulate(nv.begin(), nv.end(), 0.0) / nv.size(), var = 0;
  for (double x : nv)
    var += (x - m) * (x - m);
  var /= nv.size();
  EXPECT_NEAR(m, 0.0, 0.03);
  EXPECT_NEAR(var, 1.0, 0.05);
  EXPECT_EQ(inferOne({"s0"}, "randn.default", "[%a, 2]"), "f32[s0, 2][2, 1]cpu");
  expectInferError({}, "rand.default", "[2]", "\"check_uniform_bounds\" not implemented for 'Long'",
                   "{dtype: torch.int64}");
  expectInferError({}, "randn.default", "[2]", "\"normal_kernel_cpu\" not implemented for 'Int'",
                   "{dtype: torch.int32}");
}

TEST(TensorOps, Randperm) {
  Tensor p = runSingle(graphOf({}, "randperm.default](args = (50,), kwargs = {})"), {});
  EXPECT_EQ(p.dtype(), DType::Int64);
  std::vector<double> v = flat(p);
  std::vector<double> sorted = v;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, iotaValues(50));
  EXPECT_NE(v, iotaValues(50));
  Tensor f = runSingle(graphOf({}, "randperm.default](args = (5,), kwargs = {dtype: "
                                   "torch.float32})"),
                       {});
  EXPECT_EQ(f.dtype(), DType::Float32);
  EXPECT_EQ(runSingle(graphOf({}, "randperm.default](args = (0,), kwargs = {})"), {}).numel(), 0);
  EXPECT_EQ(inferOne({"s0"}, "randperm.default", "%a"), "i64[s0][1]cpu");
  expectInferError({}, "randperm.default", "3000", "cannot be greater than 2049",
                   "{dtype: torch.float16}");
  expectInferError({}, "randperm.default", "-1", "n must be non-negative");
}

TEST(TensorOps, ResizeInPlace) {
  Tensor x = fromValues({2, 3}, iotaValues(6));
  Tensor small = runSingle(graphOf({"x"}, "resize_.default](args = (%x, [4]), kwargs = {})"), {x});
  EXPECT_TRUE(small.sharesStorageWith(x));
  expectValues(small, {0, 1, 2, 3});
  Tensor big = runSingle(graphOf({"x"}, "resize_.default](args = (%x, [2, 4]), kwargs = {})"), {x});
  expectValues(big, {0, 1, 2, 3, 4, 5, 0, 0}); // old elements kept, new ones zero
  EXPECT_EQ(inferOne({"f32[2, 3][3, 1]cpu", "s0"}, "resize_.default", "%a, [%b, 2, 2, 2]",
                     "{memory_format: torch.channels_last}"),
            "f32[s0, 2, 2, 2][8, 1, 4, 2]cpu");
}

// ---- Symbolic queries ----

TEST(TensorOps, SymbolicQueriesInference) {
  EXPECT_EQ(inferOne({"f32[s0, 3, s1][3*s1, s1, 1]cpu"}, "sym_numel.default", "%a"), "3*s0*s1");
  EXPECT_EQ(inferOne({"f32[][]cpu"}, "sym_numel.default", "%a"), "1");
  EXPECT_EQ(inferOne({"f32[s0, 3, s1][3*s1, s1, 1]cpu"}, "sym_stride.int", "%a, -3"), "3*s1");
  expectInferError({"f32[][]cpu"}, "sym_stride.int", "%a, 0", "tensor has no dimensions");
  expectInferError({"f32[2][1]cpu"}, "sym_stride.int", "%a, 1", "out of range");
  EXPECT_EQ(inferOne({"f32[4][1]cpu"}, "sym_storage_offset.default", "%a"), "r");
}

TEST(TensorOps, SymbolicQueriesAtRunTime) {
  // A slice starting at row 1 of a (3, 4) tensor: offset 4, stride 4, 8 elements.
  std::string text =
      "graph():\n    %x : [num_users=1] = placeholder[target=x]\n"
      "    %s : [num_users=3] = call_function[target=torch.ops.aten.slice.Tensor](args = (%x, 0, "
      "1), kwargs = {})\n"
      "    %n : [num_users=1] = call_function[target=torch.ops.aten.sym_numel.default](args = "
      "(%s,), kwargs = {})\n"
      "    %st : [num_users=1] = call_function[target=torch.ops.aten.sym_stride.int](args = (%s, "
      "0), kwargs = {})\n"
      "    %o : [num_users=1] = call_function[target=torch.ops.aten.sym_storage_offset.default]"
      "(args = (%s,), kwargs = {})\n"
      "    return (n, st, o)\n";
  auto r = runText(text, {RuntimeValue{randomTensor({3, 4}, 90)}});
  ASSERT_TRUE(r) << r.error().str();
  ASSERT_EQ(r->outputs.size(), 3u);
  EXPECT_EQ(*r->outputs[0].integer(), 8);
  EXPECT_EQ(*r->outputs[1].integer(), 4);
  EXPECT_EQ(*r->outputs[2].integer(), 4);
}

TEST(TensorOps, EverySchemaParses) {
  // Each row's schema parsed into its declared name and overload (a bad schema leaves them
  // empty).
  for (const char *target :
       {"torch.ops.aten._scaled_dot_product_efficient_attention_backward.default",
        "torch.ops.aten.randperm.default", "torch.ops.aten.baddbmm.out",
        "torch.ops.aten.arange.start_step", "torch.ops.aten.resize_.default"}) {
    const OpInfo *op = OpRegistry::instance().lookup(target);
    ASSERT_TRUE(op) << target;
    EXPECT_FALSE(op->schema.name.empty()) << target;
    EXPECT_FALSE(op->schema.args.empty()) << target;
  }
}

} // namespace
