/// Reductions give right numbers where a naive float32 kernel silently does not (issue 19):
/// - cascade summation (backends/opencl/codegen, kCascadeBlock): a float sum over a long row is
///   not one serial accumulator, so 2^25 ones sum to 2^25 (a serial float32 sum stops at
///   2^24) and mean(x * x) of 2^24 N(0, 1) points is within 1e-5 of its float64 value;
/// - the same for the running sums of online softmax and logsumexp, and for float cumsum;
/// - the Welford merge (welfordCombine) is exact for empty and constant blocks: a constant row
///   of 2e19 (whose squared distance to an empty lane's mean 0 overflows float32) has variance
///   0, and layer norm of inputs scaled by 1e20 is finite.
/// Every backend: the reference interpreter, the loop interpreter, OpenCL (PoCL on the CPU,
/// under launch configurations that take each loop form, and autotuned) and LLVM.

#include "CompileTestSupport.h"
#include "InterpreterTestSupport.h"
#include "backends/interp/LoopInterpreter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

using namespace fxkit;
using namespace fxkit::testing;

namespace {

/// OpenCL launch configurations: one lane (a row's points in one serial loop, the cascade's
/// blocks and groups), lanes combining in local memory (more lanes than a short row has
/// points: empty lanes), and 256 lanes holding a row in registers (persistent form).
const char *const kConfigs[] = {"lanes=1,rows=8", "lanes=4,rows=16", "lanes=64,rows=1",
                                "lanes=256,rows=1"};

/// One backend's outputs, named for messages.
struct BackendResult {
  std::string backend;
  std::vector<Tensor> outputs;
};

/// Runs `text` on `inputs` on every backend (the reference interpreter first) and returns
/// each one's outputs; a backend that fails fails the test.
std::vector<BackendResult> runEverywhere(const std::string &text, const std::vector<Tensor> &inputs,
                                         bool tunedOpenCL = true) {
  std::vector<RuntimeValue> values;
  for (const Tensor &t : inputs)
    values.push_back(RuntimeValue{t});
  std::vector<BackendResult> out;
  auto take = [&](const std::string &backend, const InterpretResult &r) {
    BackendResult b{backend, {}};
    for (const RuntimeValue &v : r.outputs) {
      EXPECT_TRUE(v.tensor()) << backend;
      if (v.tensor())
        b.outputs.push_back(*v.tensor());
    }
    out.push_back(std::move(b));
  };
  auto want = runText(text, values);
  EXPECT_TRUE(want) << want.error().str();
  if (!want)
    return out;
  take("interpreter", *want);
  Compiled c;
  EXPECT_TRUE(compile(text, inputs, c));
  expectNoExterns(c.program);
  LoopBackendChoice choice{.openclConfigs = {std::begin(kConfigs), std::end(kConfigs)},
                           .openclTuned = tunedOpenCL,
                           .llvmThreads = 2};
  for (auto &[backend, got] : resultsOnEveryLoopBackend(c, values, choice))
    take(backend, got);
  return out;
}

/// Calls `check(backend, output i's elements)` for every backend's output `i`.
void forEachBackend(
    const std::vector<BackendResult> &results, size_t i,
    const std::function<void(const std::string &, const std::vector<double> &)> &check) {
  for (const BackendResult &r : results) {
    ASSERT_LT(i, r.outputs.size()) << r.backend;
    SCOPED_TRACE(r.backend + ", output " + std::to_string(i));
    check(r.backend, flat(r.outputs[i]));
  }
}

/// Deterministic N(0, 1) samples (a 64-bit LCG through Box-Muller), the same on every host.
std::vector<double> normals(size_t n, uint64_t seed) {
  std::vector<double> v(n);
  uint64_t s = seed;
  auto uniform = [&s] {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (static_cast<double>(s >> 11) + 0.5) * 0x1p-53; // in (0, 1)
  };
  for (size_t i = 0; i < n; i += 2) {
    double r = std::sqrt(-2 * std::log(uniform())), t = 2 * M_PI * uniform();
    v[i] = r * std::cos(t);
    if (i + 1 < n)
      v[i + 1] = r * std::sin(t);
  }
  return v;
}

} // namespace

TEST(ReductionAccuracy, SumOfTwoToThe25OnesIsExact) {
  // A scalar expanded to 8192 x 4096 (no memory): a serial float32 sum stalls at 2^24, where
  // adding 1 rounds back to the sum. Whole-tensor sum and mean (one row of 2^25 points). Not
  // autotuned: tuning times configurations that run this one row on every work-item of a group.
  auto results = runEverywhere(R"(graph():
    %a : [num_users=2] = placeholder[target=a]
    %e : [num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%a, [8192, 4096]), kwargs = {})
    %s : [num_users=1] = call_function[target=torch.ops.aten.sum.default](args = (%e,), kwargs = {})
    %m : [num_users=1] = call_function[target=torch.ops.aten.mean.default](args = (%e,), kwargs = {})
    return (s, m)
)",
                               {fromValues({1}, {1})}, /*tunedOpenCL=*/false);
  ASSERT_GE(results.size(), 2u);
  forEachBackend(results, 0, [](const std::string &, const std::vector<double> &v) {
    EXPECT_EQ(v, std::vector<double>{33554432});
  });
  forEachBackend(results, 1, [](const std::string &, const std::vector<double> &v) {
    EXPECT_EQ(v, std::vector<double>{1});
  });
}

TEST(ReductionAccuracy, MeanOfSquaresOfALongVectorMatchesFloat64) {
  // 2^24 N(0, 1) points: a serial float32 sum of their squares loses about 1% (its rounding
  // error grows with the sum); the cascade keeps within 1e-5 of the float64 mean of the float32
  // squares. The same for var_mean (Welford's running mean drifts alike without blocks).
  constexpr size_t n = size_t(1) << 24;
  std::vector<double> x = normals(n, 19);
  double want = 0, mean = 0, m2 = 0;
  for (double &v : x) {
    v = static_cast<float>(v);
    want += static_cast<double>(static_cast<float>(v * v));
    mean += v;
  }
  want /= static_cast<double>(n);
  mean /= static_cast<double>(n);
  for (double v : x)
    m2 += (v - mean) * (v - mean);
  double var = m2 / static_cast<double>(n);
  auto results = runEverywhere(R"(graph():
    %a : [num_users=2] = placeholder[target=a]
    %sq : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%a, %a), kwargs = {})
    %m : [num_users=1] = call_function[target=torch.ops.aten.mean.default](args = (%sq,), kwargs = {})
    %vm : [num_users=1] = call_function[target=torch.ops.aten.var_mean.correction](args = (%a,), kwargs = {correction: 0})
    %v : [num_users=1] = call_function[target=operator.getitem](args = (%vm, 0), kwargs = {})
    return (m, v)
)",
                               {fromValues({static_cast<int64_t>(n)}, x)}, /*tunedOpenCL=*/false);
  ASSERT_GE(results.size(), 2u);
  forEachBackend(results, 0, [&](const std::string &, const std::vector<double> &v) {
    ASSERT_EQ(v.size(), 1u);
    EXPECT_NEAR(v[0], want, 1e-5 * want);
  });
  forEachBackend(results, 1, [&](const std::string &, const std::vector<double> &v) {
    ASSERT_EQ(v.size(), 1u);
    EXPECT_NEAR(v[0], var, 1e-5 * var);
  });
}

TEST(ReductionAccuracy, VarMeanOfAConstantHugeRowIsExact) {
  // 2e19 everywhere: (2e19 - 0)^2 overflows float32, so a Welford merge with an empty state (a
  // lane's first block, a lane past a short row's end) that multiplies it by the empty side's
  // weight 0 gives NaN. Rows of 100 points (fewer than 256 lanes), 1000 (vector form) and
  // 40000 (many cascade blocks per lane).
  const std::vector<int64_t> lengths = {100, 1000, 40000};
  std::vector<Tensor> inputs;
  for (int64_t n : lengths)
    inputs.push_back(fromValues({3, n}, std::vector<double>(static_cast<size_t>(3 * n), 2e19)));
  std::string text = "graph():\n";
  std::string outputs;
  for (size_t i = 0; i < lengths.size(); ++i) {
    std::string a = "%a" + std::to_string(i), s = std::to_string(i);
    text += "    " + a + " : [num_users=2] = placeholder[target=a" + s + "]\n";
  }
  for (size_t i = 0; i < lengths.size(); ++i) {
    std::string a = "%a" + std::to_string(i), s = std::to_string(i);
    text += "    %vm" + s +
            " : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = "
            "(" +
            a + ", [1]), kwargs = {correction: 0, keepdim: True})\n";
    text += "    %v" + s + " : [num_users=1] = call_function[target=operator.getitem](args = (%vm" +
            s + ", 0), kwargs = {})\n";
    text += "    %m" + s + " : [num_users=1] = call_function[target=operator.getitem](args = (%vm" +
            s + ", 1), kwargs = {})\n";
    text += "    %u" + s +
            " : [num_users=1] = call_function[target=torch.ops.aten.var.correction](args = (" + a +
            ", [1]), kwargs = {correction: 1})\n";
    outputs += (i ? ", v" : "v") + s + ", m" + s + ", u" + s;
  }
  text += "    return (" + outputs + ")\n";
  auto results = runEverywhere(text, inputs);
  ASSERT_GE(results.size(), 2u);
  const double big = static_cast<float>(2e19);
  for (size_t i = 0; i < lengths.size(); ++i) {
    SCOPED_TRACE("rows of " + std::to_string(lengths[i]));
    for (size_t var : {3 * i, 3 * i + 2})
      forEachBackend(results, var, [](const std::string &, const std::vector<double> &v) {
        EXPECT_EQ(v, std::vector<double>(3, 0.0));
      });
    forEachBackend(results, 3 * i + 1, [&](const std::string &, const std::vector<double> &v) {
      EXPECT_EQ(v, std::vector<double>(3, big));
    });
  }
}

TEST(ReductionAccuracy, LayerNormOfHugeInputsIsFinite) {
  // N(0, 1) scaled by 1e20: the variance (about 1e40) overflows float32, so, as in PyTorch's
  // float32 kernels (ATen's RowwiseMoments, Inductor's Welford), rstd = 1 / sqrt(inf + eps) = 0
  // and the output is the bias; no merge may turn an overflowed inf * 0 into NaN. The reference
  // interpreter computes in double, where the variance fits: only its mean is compared.
  constexpr int64_t rows = 8, cols = 1024;
  std::vector<double> x = normals(rows * cols, 7);
  for (double &v : x)
    v *= 1e20;
  std::vector<double> w = normals(cols, 8), b = normals(cols, 9);
  for (double &v : b)
    v = static_cast<float>(v);
  auto results =
      runEverywhere(R"(graph():
    %a : [num_users=1] = placeholder[target=a]
    %w : [num_users=1] = placeholder[target=w]
    %b : [num_users=1] = placeholder[target=b]
    %ln : [num_users=3] = call_function[target=torch.ops.aten.native_layer_norm.default](args = (%a, [1024], %w, %b, 1e-05), kwargs = {})
    %o : [num_users=1] = call_function[target=operator.getitem](args = (%ln, 0), kwargs = {})
    %mu : [num_users=1] = call_function[target=operator.getitem](args = (%ln, 1), kwargs = {})
    %r : [num_users=1] = call_function[target=operator.getitem](args = (%ln, 2), kwargs = {})
    return (o, mu, r)
)",
                    {fromValues({rows, cols}, x), fromValues({cols}, w), fromValues({cols}, b)});
  ASSERT_GE(results.size(), 2u);
  std::vector<double> bias;
  for (int64_t r = 0; r < rows; ++r)
    bias.insert(bias.end(), b.begin(), b.end());
  std::vector<double> mean = flat(results[0].outputs.at(1));
  forEachBackend(results, 1, [&](const std::string &, const std::vector<double> &v) {
    ASSERT_EQ(v.size(), mean.size());
    for (size_t k = 0; k < v.size(); ++k)
      EXPECT_NEAR(v[k], mean[k], 1e-5 * 1e20) << "row " << k;
  });
  for (const BackendResult &r : results) {
    if (r.backend == "interpreter")
      continue;
    SCOPED_TRACE(r.backend);
    EXPECT_EQ(flat(r.outputs.at(0)), bias);
    EXPECT_EQ(flat(r.outputs.at(2)), std::vector<double>(rows, 0.0));
  }
}

TEST(ReductionAccuracy, SoftmaxAndLogSumExpOfALongRowAreExact) {
  // A row of 2^25 zeros: the running sum of exp(x - max) of an online softmax is 2^25 ones, which
  // a serial float32 accumulator stops at 2^24 (logsumexp log(2^24), softmax values 2^-24 that
  // sum to 2). In cascade it is 2^25: logsumexp = 25 log 2, and the softmax sums to 1.
  auto results = runEverywhere(R"(graph():
    %a : [num_users=1] = placeholder[target=a]
    %e : [num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%a, [1, 33554432]), kwargs = {})
    %l : [num_users=1] = call_function[target=torch.ops.aten.logsumexp.default](args = (%e, [1]), kwargs = {})
    %s : [num_users=1] = call_function[target=torch.ops.aten._softmax.default](args = (%e, 1, False), kwargs = {})
    %t : [num_users=1] = call_function[target=torch.ops.aten.sum.default](args = (%s,), kwargs = {})
    return (l, t)
)",
                               {fromValues({1, 1}, {0})}, /*tunedOpenCL=*/false);
  ASSERT_GE(results.size(), 2u);
  forEachBackend(results, 0, [](const std::string &, const std::vector<double> &v) {
    ASSERT_EQ(v.size(), 1u);
    EXPECT_NEAR(v[0], 25 * std::log(2.0), 1e-5);
  });
  forEachBackend(results, 1, [](const std::string &, const std::vector<double> &v) {
    ASSERT_EQ(v.size(), 1u);
    EXPECT_NEAR(v[0], 1.0, 1e-5);
  });
}

TEST(ReductionAccuracy, CumsumOfALongRowIsExact) {
  // cumsum of 2^25 ones: a serial float32 prefix stops at 2^24; in cascade (blocks, groups, the
  // running total) every prefix is exact. The last value and one past 2^24 (even: float32 has
  // no odd integers there) are compared.
  auto results = runEverywhere(R"(graph():
    %a : [num_users=1] = placeholder[target=a]
    %e : [num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%a, [33554432]), kwargs = {})
    %c : [num_users=2] = call_function[target=torch.ops.aten.cumsum.default](args = (%e, 0), kwargs = {})
    %last : [num_users=1] = call_function[target=torch.ops.aten.select.int](args = (%c, 0, -1), kwargs = {})
    %mid : [num_users=1] = call_function[target=torch.ops.aten.select.int](args = (%c, 0, 16777221), kwargs = {})
    return (last, mid)
)",
                               {fromValues({1}, {1})}, /*tunedOpenCL=*/false);
  ASSERT_GE(results.size(), 2u);
  forEachBackend(results, 0, [](const std::string &, const std::vector<double> &v) {
    EXPECT_EQ(v, std::vector<double>{33554432});
  });
  forEachBackend(results, 1, [](const std::string &, const std::vector<double> &v) {
    EXPECT_EQ(v, std::vector<double>{16777222});
  });
}
