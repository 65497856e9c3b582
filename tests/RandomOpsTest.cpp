/// Random numbers compiled like Inductor's (ir/loop/Philox.h, ir/ops/RandomOps.cpp,
/// backends/interp/RandomKernels.cpp, transforms/lowering/RandomLowering.cpp): Philox-4x32-10
/// against Random123's known answers, the uniform/normal/randint conversions' distributions,
/// the prims' inference and errors, and the same bits from the reference interpreter, the loop
/// interpreter, OpenCL and LLVM for rand, randn, randint, native_dropout (float32, float16) and
/// an Inductor post-grad graph with seeds, which also compiles to both wrappers.

#include "CompileTestSupport.h"
#include "InterpreterTestSupport.h"

#include "backends/interp/LoopInterpreter.h"
#include "exporters/wrapper/WrapperCppWriter.h"
#include "exporters/wrapper/WrapperPyWriter.h"
#include "importers/Import.h"
#include "ir/loop/Philox.h"
#include "transforms/Pass.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace fxkit;
using namespace fxkit::testing;
namespace philox = fxkit::loop::philox;

namespace {

// ---- Philox and its conversions ----

// Random123's kat_vectors (philox4x32 10: counter, key -> output).
static_assert(philox::philox4x32(0, 0, 0, 0, 0, 0) ==
              std::array<uint32_t, 4>{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8});

TEST(RandomOps, PhiloxKnownAnswers) {
  EXPECT_EQ(
      philox::philox4x32(0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff),
      (std::array<uint32_t, 4>{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(
      philox::philox4x32(0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0),
      (std::array<uint32_t, 4>{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
  // tl.randint4x(seed, offset): counter (offset, 0, 0, 0), key (seed low word, high word).
  EXPECT_EQ(philox::randint4x(0xa4093822ull | (0x299f31d0ull << 32), 7),
            philox::philox4x32(7, 0, 0, 0, 0xa4093822, 0x299f31d0));
}

TEST(RandomOps, UniformConversionAsTriton) {
  // The word as int32, negatives folded to -x - 1, times 4.6566127342e-10 in float.
  EXPECT_EQ(philox::uniformFloat(0), 0.0f);
  EXPECT_EQ(philox::uniformFloat(0xffffffff), 0.0f); // -1 -> 0
  EXPECT_EQ(philox::uniformFloat(1), 4.6566127342e-10f);
  EXPECT_EQ(philox::uniformFloat(0x7fffffff), philox::uniformFloat(0x80000000)); // folded
  EXPECT_LT(philox::uniformFloat(0x7fffffff), 1.0f);
  // rand(seed 0, offset 0) is the KAT's first word: 0x6627e8d5 = 1713891541.
  EXPECT_EQ(philox::rand(0, 0), 1713891541.0f * 4.6566127342e-10f);
  EXPECT_NEAR(philox::rand(0, 0), 0.7980929, 1e-7);
  // randint64: words 0 and 1 as one uint64 modulo the size.
  const uint64_t bits = 0x6627e8d5ull | (0xe169c58dull << 32);
  EXPECT_EQ(philox::randint64(0, 0, 1000), static_cast<int64_t>(bits % 1000));
  EXPECT_EQ(philox::randint64(0, 0, 1), 0);
}

TEST(RandomOps, Distributions) {
  const int n = 200000;
  const uint64_t seed = 20261126;
  std::vector<double> u(n), z(n);
  std::vector<int> counts(7, 0);
  for (int i = 0; i < n; ++i) {
    u[i] = philox::rand(seed, static_cast<uint32_t>(i));
    z[i] = philox::randn(seed, static_cast<uint32_t>(i));
    int64_t r = philox::randint64(seed, static_cast<uint32_t>(i), 7);
    ASSERT_TRUE(r >= 0 && r < 7);
    ++counts[r];
  }
  auto moments = [&](const std::vector<double> &v) {
    double mean = 0, var = 0;
    for (double x : v)
      mean += x;
    mean /= n;
    for (double x : v)
      var += (x - mean) * (x - mean);
    return std::pair{mean, var / (n - 1)};
  };
  // Uniform: mean 1/2 (sd sqrt(1/12 n)), variance 1/12 (sd sqrt(1/180 n)), all in [0, 1).
  auto [um, uv] = moments(u);
  EXPECT_NEAR(um, 0.5, 4 * std::sqrt(1.0 / 12 / n));
  EXPECT_NEAR(uv, 1.0 / 12, 4 * std::sqrt(1.0 / 180 / n));
  EXPECT_TRUE(std::all_of(u.begin(), u.end(), [](double x) { return x >= 0 && x < 1; }));
  // Kolmogorov-Smirnov against U(0, 1): D below the 0.1% critical value 1.95 / sqrt(n).
  std::vector<double> sorted = u;
  std::sort(sorted.begin(), sorted.end());
  double d = 0;
  for (int i = 0; i < n; ++i)
    d = std::max({d, (i + 1.0) / n - sorted[i], sorted[i] - static_cast<double>(i) / n});
  EXPECT_LT(d, 1.95 / std::sqrt(n));
  // Normal: mean 0 (sd 1/sqrt(n)), variance 1 (sd sqrt(2/n)), fourth moment 3 (sd sqrt(96/n)).
  auto [zm, zv] = moments(z);
  EXPECT_NEAR(zm, 0, 4 / std::sqrt(n));
  EXPECT_NEAR(zv, 1, 4 * std::sqrt(2.0 / n));
  double m4 = 0;
  for (double x : z)
    m4 += x * x * x * x;
  EXPECT_NEAR(m4 / n, 3, 4 * std::sqrt(96.0 / n));
  // randint in [0, 7): each value n/7 times within 4 sd.
  for (int c : counts)
    EXPECT_NEAR(c, n / 7.0, 4 * std::sqrt(n * (1 / 7.0) * (6 / 7.0)));
  // Seeds differ in both key words; offsets give distinct values.
  EXPECT_NE(philox::rand(1, 0), philox::rand(uint64_t(1) << 32, 0));
  EXPECT_NE(philox::rand(seed, 0), philox::rand(seed, 1));
  EXPECT_NE(philox::nodeSeed("rand"), philox::nodeSeed("rand_1"));
  EXPECT_LT(philox::nodeSeed("rand"), int64_t(1) << 53);
}

// ---- Inference ----

TEST(RandomOps, PrimsInference) {
  const std::string seeds = "i64[3][1]cpu", seed = "i64[][]cpu";
  EXPECT_EQ(inferredValue({},
                          "    %r : [num_users=1] = "
                          "call_function[target=torch.ops.prims.inductor_seeds.default](args = (3, "
                          "cpu), kwargs = {})\n",
                          "r"),
            "i64[3][1]cpu");
  EXPECT_EQ(inferredValue({seeds},
                          "    %r : [num_users=1] = "
                          "call_function[target=torch.ops.prims.inductor_lookup_seed.default](args "
                          "= (%a, 2), kwargs = {})\n",
                          "r"),
            "i64[][]cpu");
  EXPECT_EQ(inferredValue({seed},
                          "    %r : [num_users=1] = "
                          "call_function[target=torch.ops.prims.inductor_random.default](args = "
                          "([2, 7], %a, randn), kwargs = {})\n",
                          "r"),
            "f32[2, 7][7, 1]cpu");
  EXPECT_EQ(inferredValue({seed},
                          "    %r : [num_users=1] = "
                          "call_function[target=torch.ops.prims.inductor_randint.default](args = "
                          "(-5, 5, [4], %a), kwargs = {})\n",
                          "r"),
            "i64[4][1]cpu");
  EXPECT_EQ(inferredValue({seeds},
                          "    %r : [num_users=1] = "
                          "call_function[target=torch.ops.prims.inductor_lookup_seed.default](args "
                          "= (%a, 3), kwargs = {})\n",
                          "r"),
            "error: node 'r' (torch.ops.prims.inductor_lookup_seed.default): index 3 is out of "
            "bounds for seeds of size 3");
  EXPECT_EQ(inferredValue({seed},
                          "    %r : [num_users=1] = "
                          "call_function[target=torch.ops.prims.inductor_random.default](args = "
                          "([2], %a, uniform), kwargs = {})\n",
                          "r"),
            "error: node 'r' (torch.ops.prims.inductor_random.default): mode must be 'rand' or "
            "'randn'");
  EXPECT_EQ(inferredValue({seed},
                          "    %r : [num_users=1] = "
                          "call_function[target=torch.ops.prims.inductor_randint.default](args = "
                          "(5, 5, [4], %a), kwargs = {})\n",
                          "r"),
            "error: node 'r' (torch.ops.prims.inductor_randint.default): random_ expects 'from' "
            "to be less than 'to', but got from=5 >= to=5");
}

// ---- The same bits on every backend ----

/// Whether two values hold the same bits: same dtype, sizes and every element's stored bytes.
::testing::AssertionResult sameBits(const RuntimeValue &a, const RuntimeValue &b) {
  const Tensor *x = a.tensor(), *y = b.tensor();
  if (!x || !y)
    return ::testing::AssertionFailure() << "not tensors";
  if (x->dtype() != y->dtype() || x->sizes() != y->sizes())
    return ::testing::AssertionFailure() << "dtype or sizes differ";
  std::string diff;
  int64_t i = 0;
  Tensor::forEachIndex(x->sizes(), [&](std::span<const int64_t> index) {
    const size_t item = static_cast<size_t>(x->itemSize());
    const auto *p = x->storage()->data() + x->offsetOf(index) * item;
    const auto *q = y->storage()->data() + y->offsetOf(index) * item;
    if (diff.empty() && std::memcmp(p, q, item) != 0)
      diff = "element " + std::to_string(i) + ": " + std::to_string(x->getDouble(index)) + " vs " +
             std::to_string(y->getDouble(index));
    ++i;
  });
  if (!diff.empty())
    return ::testing::AssertionFailure() << diff;
  return ::testing::AssertionSuccess();
}

/// Runs `text` on the reference interpreter, then compiled on the loop interpreter, OpenCL and
/// LLVM; every output must hold the reference's bits. Returns the reference's outputs.
std::vector<RuntimeValue> expectSameBitsEverywhere(const std::string &text,
                                                   const std::vector<Tensor> &inputs,
                                                   bool loops = true) {
  SCOPED_TRACE(text);
  std::vector<RuntimeValue> values;
  for (const Tensor &t : inputs)
    values.push_back(RuntimeValue{t});
  auto ref = runText(text, values);
  EXPECT_TRUE(ref) << (ref ? "" : ref.error().str());
  if (!ref)
    return {};
  Compiled c;
  EXPECT_TRUE(compile(text, c));
  LoopBackendChoice choice;
  choice.interpreter = loops;
  auto results = resultsOnEveryLoopBackend(c, values, choice);
  for (const auto &[backend, r] : results) {
    EXPECT_EQ(r.outputs.size(), ref->outputs.size()) << backend;
    for (size_t i = 0; i < r.outputs.size() && i < ref->outputs.size(); ++i)
      EXPECT_TRUE(sameBits(ref->outputs[i], r.outputs[i])) << backend << ", output " << i;
  }
  return ref->outputs;
}

/// An Inductor post-grad graph with dropout, as PyTorch prints it (seeds are an input here so
/// that the loop interpreter runs it without the seeds' extern call).
constexpr const char *kSeededGraph = R"(graph():
    %seeds : Tensor "i64[2][1]cpu"[num_users=2] = placeholder[target=seeds]
    %x : Tensor "f32[6, 10][10, 1]cpu"[num_users=1] = placeholder[target=x]
    %inductor_lookup_seed_default : [num_users=1] = call_function[target=torch.ops.prims.inductor_lookup_seed.default](args = (%seeds, 0), kwargs = {})
    %inductor_random_default : [num_users=1] = call_function[target=torch.ops.prims.inductor_random.default](args = ([6, 10], %inductor_lookup_seed_default, rand), kwargs = {})
    %gt : [num_users=2] = call_function[target=torch.ops.aten.gt.Scalar](args = (%inductor_random_default, 0.1), kwargs = {})
    %mul : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%gt, %x), kwargs = {})
    %mul_1 : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul, 1.1111111111111112), kwargs = {})
    %inductor_lookup_seed_default_1 : [num_users=2] = call_function[target=torch.ops.prims.inductor_lookup_seed.default](args = (%seeds, 1), kwargs = {})
    %inductor_random_default_1 : [num_users=1] = call_function[target=torch.ops.prims.inductor_random.default](args = ([3, 7], %inductor_lookup_seed_default_1, randn), kwargs = {})
    %inductor_randint_default : [num_users=1] = call_function[target=torch.ops.prims.inductor_randint.default](args = (-4, 9, [5, 3], %inductor_lookup_seed_default_1), kwargs = {})
    return (mul_1, gt, inductor_random_default_1, inductor_randint_default)
)";

Tensor ramp(std::vector<int64_t> sizes, DType dtype = DType::Float32) {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i)
    v.push_back(std::sin(static_cast<double>(i) * 0.37) * 3);
  return fromValues(std::move(sizes), v, dtype);
}

TEST(RandomOps, InductorPrimsSameBitsOnEveryBackend) {
  // A seed above 2^32 (both key words) and a negative one (its high word all ones).
  Tensor seeds = fromValues({2}, {double(int64_t(0x123456789abcdll)), -987654321.0}, DType::Int64);
  auto out = expectSameBitsEverywhere(kSeededGraph, {seeds, ramp({6, 10})});
  ASSERT_EQ(out.size(), 4u);
  // By hand: element i of the first random tensor is philox::rand(seed 0, i).
  const uint64_t s0 = 0x123456789abcdull, s1 = static_cast<uint64_t>(int64_t(-987654321));
  std::vector<double> mask = flat(*out[1].tensor()), dropped = flat(*out[0].tensor());
  std::vector<double> x = flat(ramp({6, 10}));
  for (uint32_t i = 0; i < 60; ++i) {
    const bool keep = philox::rand(s0, i) > 0.1f;
    EXPECT_EQ(mask[i], keep ? 1 : 0) << i;
    EXPECT_EQ(dropped[i], keep ? double(float(x[i]) * 1.1111111111111112f) : 0.0) << i;
  }
  std::vector<double> normal = flat(*out[2].tensor()), ints = flat(*out[3].tensor());
  for (uint32_t i = 0; i < 21; ++i)
    EXPECT_EQ(normal[i], double(philox::randn(s1, i))) << i;
  for (uint32_t i = 0; i < 15; ++i) {
    EXPECT_EQ(ints[i], double(philox::randint64(s1, i, 13) - 4)) << i;
    EXPECT_TRUE(ints[i] >= -4 && ints[i] < 9);
  }
}

TEST(RandomOps, SeedsExternAndAtenOpsSameBitsOnEveryBackend) {
  // inductor_seeds runs as an extern call on the host (the reference kernel everywhere).
  const std::string text = R"(graph():
    %x : Tensor "f32[5, 4][1, 5]cpu"[num_users=1] = placeholder[target=x]
    %h : Tensor "f16[3, 8][8, 1]cpu"[num_users=1] = placeholder[target=h]
    %inductor_seeds_default : [num_users=1] = call_function[target=torch.ops.prims.inductor_seeds.default](args = (1, cpu), kwargs = {})
    %inductor_lookup_seed_default : [num_users=1] = call_function[target=torch.ops.prims.inductor_lookup_seed.default](args = (%inductor_seeds_default, 0), kwargs = {})
    %inductor_random_default : [num_users=1] = call_function[target=torch.ops.prims.inductor_random.default](args = ([4, 4], %inductor_lookup_seed_default, randn), kwargs = {})
    %rand : [num_users=1] = call_function[target=torch.ops.aten.rand.default](args = ([3, 5],), kwargs = {dtype: torch.float16, device: cpu, pin_memory: False})
    %randn : [num_users=1] = call_function[target=torch.ops.aten.randn.default](args = ([2, 9],), kwargs = {device: cpu, pin_memory: False})
    %native_dropout : [num_users=2] = call_function[target=torch.ops.aten.native_dropout.default](args = (%x, 0.3, True), kwargs = {})
    %getitem : [num_users=1] = call_function[target=operator.getitem](args = (%native_dropout, 0), kwargs = {})
    %getitem_1 : [num_users=1] = call_function[target=operator.getitem](args = (%native_dropout, 1), kwargs = {})
    %native_dropout_1 : [num_users=2] = call_function[target=torch.ops.aten.native_dropout.default](args = (%h, 0.5, True), kwargs = {})
    %getitem_2 : [num_users=1] = call_function[target=operator.getitem](args = (%native_dropout_1, 0), kwargs = {})
    %getitem_3 : [num_users=1] = call_function[target=operator.getitem](args = (%native_dropout_1, 1), kwargs = {})
    return (inductor_random_default, rand, randn, getitem, getitem_1, getitem_2, getitem_3)
)";
  Tensor x = permuted(ramp({4, 5}), {1, 0}); // a transposed input: offsets are row-major
  expectSameBitsEverywhere(text, {x, ramp({3, 8}, DType::Float16)});
  // The aten ops lower to loops; only the seeds are an extern call.
  Compiled c;
  ASSERT_TRUE(compile(text, c));
  int externs = 0;
  for (const loop::LoopOp &op : c.program.ops)
    externs += op.kind == loop::LoopOpKind::Extern;
  EXPECT_EQ(externs, 1) << c.program.str();
}

TEST(RandomOps, SeedPrimsDrawPerNodeSeeds) {
  // inductor_seed (before Inductor's fuse_seed_creation_pass) and inductor_seeds: seed k of a
  // node is philox::nodeSeed(name, k), 53 bits, distinct.
  const std::string text = R"(graph():
    %inductor_seed : [num_users=1] = call_function[target=torch.ops.prims.inductor_seed.default](args = (cpu,), kwargs = {})
    %inductor_seeds : [num_users=1] = call_function[target=torch.ops.prims.inductor_seeds.default](args = (4, cpu), kwargs = {})
    %inductor_random : [num_users=1] = call_function[target=torch.ops.prims.inductor_random.default](args = ([5], %inductor_seed, rand), kwargs = {})
    return (inductor_seed, inductor_seeds, inductor_random)
)";
  auto out = expectSameBitsEverywhere(text, {});
  ASSERT_EQ(out.size(), 3u);
  const int64_t seed = philox::nodeSeed("inductor_seed");
  EXPECT_EQ(flat(*out[0].tensor()), std::vector<double>{double(seed)});
  std::vector<double> seeds = flat(*out[1].tensor());
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(seeds[k], double(philox::nodeSeed("inductor_seeds", k)));
    EXPECT_LT(seeds[k], std::ldexp(1.0, 53));
    for (int j = 0; j < k; ++j)
      EXPECT_NE(seeds[j], seeds[k]);
  }
  std::vector<double> values = flat(*out[2].tensor());
  for (uint32_t i = 0; i < 5; ++i)
    EXPECT_EQ(values[i], double(philox::rand(static_cast<uint64_t>(seed), i)));
}

TEST(RandomOps, DropoutKeepFractionAndScale) {
  const std::string text = R"(graph():
    %x : Tensor "f32[100, 100][100, 1]cpu"[num_users=1] = placeholder[target=x]
    %native_dropout : [num_users=2] = call_function[target=torch.ops.aten.native_dropout.default](args = (%x, 0.25, True), kwargs = {})
    %getitem : [num_users=1] = call_function[target=operator.getitem](args = (%native_dropout, 0), kwargs = {})
    %getitem_1 : [num_users=1] = call_function[target=operator.getitem](args = (%native_dropout, 1), kwargs = {})
    return (getitem, getitem_1)
)";
  Tensor x = fromValues({100, 100}, std::vector<double>(10000, 3.0));
  auto out = expectSameBitsEverywhere(text, {x});
  ASSERT_EQ(out.size(), 2u);
  std::vector<double> values = flat(*out[0].tensor()), mask = flat(*out[1].tensor());
  int kept = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    kept += mask[i] != 0;
    EXPECT_EQ(values[i], mask[i] != 0 ? double(3.0f * float(1 / 0.75)) : 0.0) << i;
  }
  // Keep fraction 0.75 within 4 sd of a binomial.
  EXPECT_NEAR(kept, 7500, 4 * std::sqrt(10000 * 0.75 * 0.25));
  // Evaluation mode is the identity with an all-true mask, on every backend too.
  std::string eval = text;
  eval.replace(eval.find("0.25, True"), 10, "0.25, False");
  auto same = expectSameBitsEverywhere(eval, {x});
  ASSERT_EQ(same.size(), 2u);
  EXPECT_EQ(flat(*same[0].tensor()), flat(x));
}

// ---- Compiled forms ----

TEST(RandomOps, InductorGraphCompilesToWrappers) {
  auto graph = importGraph(kSeededGraph, GraphFormat::FxText, "random.graph.txt");
  ASSERT_TRUE(graph) << graph.error().str();
  auto runs = runPipeline(*graph, {"lower", "fuse", "plan", "wrapper"});
  ASSERT_TRUE(runs) << runs.error().str();
  auto py = writeWrapperPy(*graph);
  ASSERT_TRUE(py) << py.error().str();
  // The Python prelude computes the same Philox on int64 tensors; kernels call it.
  EXPECT_NE(py->find("def _fx_philox(seed, offset):"), std::string::npos);
  EXPECT_NE(py->find("= fx_rand("), std::string::npos);
  EXPECT_NE(py->find("= fx_randn("), std::string::npos);
  EXPECT_NE(py->find("= fx_randint64("), std::string::npos);
  auto g2 = importGraph(kSeededGraph, GraphFormat::FxText, "random.graph.txt");
  ASSERT_TRUE(g2);
  ASSERT_TRUE(runPipeline(*g2, {"lower", "fuse", "plan"}));
  auto cpp = writeWrapperCpp(*g2, "random", "fxkit-runtime.cmake");
  ASSERT_TRUE(cpp) << cpp.error().str();
  // The OpenCL kernels the C++ wrapper embeds call the prelude's Philox.
  EXPECT_NE(cpp->source.find("fx_rand("), std::string::npos);
  EXPECT_NE(cpp->source.find("fx_randn("), std::string::npos);
}

} // namespace
