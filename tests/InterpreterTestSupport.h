#pragma once
/// \file Helpers for tests of the reference interpreter and its kernels: graphs from FX text,
/// tensors from values, flattened results.

#include "backends/interp/Interpreter.h"
#include "importers/FxTextParser.h"
#include "ir/Tensor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace fxkit::testing {

/// A contiguous tensor holding `values` in row-major order.
inline Tensor fromValues(std::vector<int64_t> sizes, const std::vector<double> &values,
                         DType dtype = DType::Float32) {
  auto t = Tensor::zeros(dtype, sizes);
  EXPECT_TRUE(t);
  size_t i = 0;
  Tensor::forEachIndex(
      sizes, [&](std::span<const int64_t> index) { t->setDouble(index, values.at(i++)); });
  EXPECT_EQ(i, values.size()) << "fromValues: wrong number of values";
  return t.take();
}

/// The elements of t in row-major order of its sizes (whatever its strides).
inline std::vector<double> flat(const Tensor &t) {
  std::vector<double> out;
  Tensor::forEachIndex(t.sizes(),
                       [&](std::span<const int64_t> index) { out.push_back(t.getDouble(index)); });
  return out;
}

/// A view of t with its dimensions reordered (dims[i] is the source of result dimension i).
inline Tensor permuted(const Tensor &t, const std::vector<int64_t> &dims) {
  std::vector<int64_t> sizes, strides;
  for (int64_t d : dims) {
    sizes.push_back(t.size(d));
    strides.push_back(t.stride(d));
  }
  auto v = t.asStrided(sizes, strides, t.storageOffset());
  EXPECT_TRUE(v);
  return v.take();
}

/// Expects t's elements (row-major) to be within tol * (1 + |e|) of `expected`.
inline void expectValues(const Tensor &t, const std::vector<double> &expected, double tol = 1e-6) {
  std::vector<double> got = flat(t);
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(expected[i]))
      EXPECT_TRUE(std::isnan(got[i])) << "element " << i;
    else if (std::isinf(expected[i]))
      EXPECT_EQ(got[i], expected[i]) << "element " << i;
    else
      EXPECT_NEAR(got[i], expected[i], tol * (1 + std::abs(expected[i]))) << "element " << i;
  }
}

/// Parses `text` and runs it on `inputs` (placeholders take their input's type unless the text
/// types them). Errors from parsing or running come back as the error.
inline Expected<InterpretResult> runText(std::string_view text,
                                         const std::vector<RuntimeValue> &inputs) {
  registerReferenceKernels();
  auto graph = parseFxText(text, "<test>");
  if (!graph)
    return graph.takeError();
  return interpretGraph(*graph, inputs);
}

/// runText for tensor inputs, expecting success and exactly one tensor output.
inline Tensor runSingle(std::string_view text, const std::vector<Tensor> &inputs) {
  std::vector<RuntimeValue> values;
  for (const Tensor &t : inputs)
    values.push_back(RuntimeValue{t});
  auto r = runText(text, values);
  EXPECT_TRUE(r) << (r ? "" : r.error().str());
  if (!r || r->outputs.size() != 1 || !r->outputs[0].tensor()) {
    ADD_FAILURE() << "expected one tensor output";
    return Tensor();
  }
  return *r->outputs[0].tensor();
}

/// A graph of placeholders, one call_function `r = <call>` and `return (r,)`; `call` is the
/// text after `call_function[target=`, e.g. "torch.ops.aten.relu.default](args = (%x,), kwargs =
/// {})".
inline std::string oneOpGraph(const std::vector<std::string> &placeholders,
                              const std::string &call) {
  std::string text = "graph():\n";
  for (const std::string &p : placeholders)
    text += "    %" + p + " : [num_users=1] = placeholder[target=" + p + "]\n";
  text += "    %r : [num_users=1] = call_function[target=" + call + "\n";
  text += "    return (r,)\n";
  return text;
}

} // namespace fxkit::testing
