#pragma once
/// \file What the device extern kernel tests (DeviceExternsTest.cpp, DeviceExterns2Test.cpp)
/// share: a graph run on the OpenCL device and in the reference interpreter, its outputs
/// compared within PyTorch's per-dtype tolerances, and the stats that say where the externs ran.

#include "CompileTestSupport.h"
#include "InterpreterTestSupport.h"
#include "backends/interp/Interpreter.h"
#include "backends/opencl/runtime/OpenCLProgram.h"
#include "importers/FxTextParser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace fxkit::testing::device_tests {

using namespace fxkit;
using namespace fxkit::opencl;
using namespace fxkit::testing;

/// Tolerances as PyTorch's testing uses them per dtype (float32 sums in another order than the
/// interpreter's double ones; float16 and bfloat16 results rounded once more or less).
struct Tolerance {
  double rtol = 1e-4, atol = 1e-5;
};
inline Tolerance toleranceFor(DType dtype) {
  switch (dtype) {
  case DType::Float16:
    return {2e-3, 1e-3};
  case DType::BFloat16:
    return {1.6e-2, 1e-2};
  case DType::Float64:
    return {1e-10, 1e-12};
  default:
    return {1e-4, 1e-5};
  }
}

/// Expects `got` to equal `want` within the dtype's tolerance (NaN equal to NaN, infinities
/// exact, integers exact).
inline void expectSame(const RuntimeValue &gotValue, const RuntimeValue &wantValue, size_t index) {
  const Tensor *got = gotValue.tensor(), *want = wantValue.tensor();
  ASSERT_EQ(got == nullptr, want == nullptr) << "output " << index;
  if (!got)
    return;
  ASSERT_EQ(got->dtype(), want->dtype()) << "output " << index;
  ASSERT_EQ(got->sizes(), want->sizes()) << "output " << index;
  Tolerance tol = toleranceFor(got->dtype());
  bool exact = !dtypeIsFloating(got->dtype());
  size_t bad = 0;
  Tensor::forEachIndex(want->sizes(), [&](std::span<const int64_t> idx) {
    bool same;
    if (exact) {
      same = got->getInt(idx) == want->getInt(idx);
    } else {
      double x = got->getDouble(idx), y = want->getDouble(idx);
      same = (std::isnan(x) && std::isnan(y)) || x == y ||
             (std::isfinite(y) && std::abs(x - y) <= tol.atol + tol.rtol * std::abs(y));
    }
    if (!same && bad++ < 5) {
      std::string at;
      for (int64_t i : idx)
        at += std::to_string(i) + ",";
      ADD_FAILURE() << "output " << index << " at [" << at << "]: "
                    << (exact ? std::to_string(got->getInt(idx))
                              : std::to_string(got->getDouble(idx)))
                    << " vs "
                    << (exact ? std::to_string(want->getInt(idx))
                              : std::to_string(want->getDouble(idx)));
    }
  });
  EXPECT_EQ(bad, 0u) << "output " << index << ": " << bad << " elements differ";
}

/// A copy of `t` with storage of its own and the same sizes, strides and storage offset.
inline Tensor layoutPreservingCopy(const Tensor &t) {
  int64_t extent = t.storageOffset() + 1;
  for (size_t d = 0; d < t.sizes().size(); ++d)
    extent += t.sizes()[d] == 0 ? 0 : (t.sizes()[d] - 1) * t.stride(d);
  auto storage = Tensor::zeros(t.dtype(), {extent});
  auto copy = storage ? storage->asStrided(t.sizes(), t.strides(), t.storageOffset())
                      : Expected<Tensor>(storage.takeError());
  EXPECT_TRUE(copy);
  if (!copy)
    return t;
  Tensor::forEachIndex(t.sizes(), [&](std::span<const int64_t> idx) {
    int64_t from = t.offsetOf(idx), to = copy->offsetOf(idx);
    if (t.dtype() == DType::Complex64 || t.dtype() == DType::Complex128)
      copy->storeComplex(to, t.loadComplex(from));
    else if (dtypeIsFloating(t.dtype()))
      copy->storeDouble(to, t.loadDouble(from));
    else
      copy->storeInt(to, t.loadInt(from));
  });
  return copy.take();
}

/// Runs `text` (typed placeholders) on the device with `inputs` (seeded random ones when
/// empty) and with the reference interpreter, expects equal outputs, and returns the device
/// run's stats.
inline OpenCLStats expectAgrees(const std::string &text, std::vector<RuntimeValue> inputs = {},
                                OpenCLOptions options = {}, OpenCLContext *ctx = nullptr) {
  OpenCLStats stats;
  registerReferenceKernels();
  auto graph = parseFxText(text, "<test>");
  EXPECT_TRUE(graph) << (graph ? "" : graph.error().str());
  if (!graph)
    return stats;
  if (inputs.empty()) {
    auto random = makeRandomInputs(*graph, {}, 7);
    EXPECT_TRUE(random) << (random ? "" : random.error().str());
    if (!random)
      return stats;
    inputs = random.take();
  }
  auto reference = parseFxText(text, "<test>");
  // The interpreter writes in-place results (batch norm's running statistics) into its
  // inputs: it gets copies, so the device run starts from the same values.
  std::vector<RuntimeValue> referenceInputs;
  for (const RuntimeValue &v : inputs)
    referenceInputs.push_back(v.tensor() ? RuntimeValue{layoutPreservingCopy(*v.tensor())} : v);
  auto expected = interpretGraph(*reference, referenceInputs);
  EXPECT_TRUE(expected) << (expected ? "" : expected.error().str());
  if (!expected)
    return stats;
  Compiled c;
  EXPECT_TRUE(compile(graph.take(), c));
  TempDir cache;
  if (options.cacheDir.empty())
    options.cacheDir = cache.path.string();
  auto result = runOnOpenCL(c, inputs, options, &stats, ctx);
  if (!result)
    return stats;
  EXPECT_EQ(result->outputs.size(), expected->outputs.size());
  for (size_t i = 0; i < result->outputs.size() && i < expected->outputs.size(); ++i)
    expectSame(result->outputs[i], expected->outputs[i], i);
  return stats;
}

/// aten.convolution of placeholders x, w and (unless `b` is empty) b with the arguments after
/// the bias in `rest` (stride, padding, dilation, transposed, output padding, groups).
inline std::string convGraph(const std::string &x, const std::string &w, const std::string &b,
                             const std::string &rest) {
  std::string text = "graph():\n"
                     "    %x : Tensor \"" +
                     x +
                     "\"[num_users=1] = placeholder[target=x]\n"
                     "    %w : Tensor \"" +
                     w + "\"[num_users=1] = placeholder[target=w]\n";
  if (!b.empty())
    text += "    %b : Tensor \"" + b + "\"[num_users=1] = placeholder[target=b]\n";
  text += "    %r : [num_users=1] = call_function[target=torch.ops.aten.convolution.default](args "
          "= (%x, %w, " +
          std::string(b.empty() ? "None" : "%b") + ", " + rest +
          "), kwargs = {})\n    return (r,)\n";
  return text;
}

/// Expects `n` extern ops on the device kernels and none on the host.
#define EXPECT_ON_DEVICE(stats, n)                                                                 \
  do {                                                                                             \
    EXPECT_EQ((stats).deviceExterns, (n));                                                         \
    EXPECT_EQ((stats).hostExterns, 0);                                                             \
  } while (0)

/// A float32 tensor of `sizes` whose elements cycle through `pool` in a scrambled order:
/// ties, NaN and signed zeros where the pool has them.
inline Tensor scrambled(const std::vector<int64_t> &sizes, const std::vector<double> &pool,
                        DType dtype = DType::Float32) {
  auto t = Tensor::zeros(dtype, sizes);
  EXPECT_TRUE(t);
  uint64_t state = 12345;
  Tensor::forEachIndex(sizes, [&](std::span<const int64_t> index) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    t->setDouble(index, pool[(state >> 33) % pool.size()]);
  });
  return t.take();
}

} // namespace fxkit::testing::device_tests
