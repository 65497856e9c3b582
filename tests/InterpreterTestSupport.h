#pragma once
/// \file Helpers for tests of the reference interpreter and its kernels: graphs from FX text,
/// tensors from values, flattened results.

#include "backends/interp/Interpreter.h"
#include "importers/FxTextParser.h"
#include "ir/Graph.h"
#include "ir/Tensor.h"
#include "transforms/ShapeInference.h"

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

/// Runs `call` (the text after `call_function[target=`) on inputs named a, b, c, ... in order;
/// expects success and one tensor output.
inline Tensor runCall(const std::string &call, const std::vector<Tensor> &inputs) {
  std::vector<std::string> names;
  for (size_t i = 0; i < inputs.size(); ++i)
    names.push_back(std::string(1, static_cast<char>('a' + i)));
  return runSingle(oneOpGraph(names, call), inputs);
}

/// The error message of running `call` as runCall does, or "" if it succeeded.
inline std::string runCallError(const std::string &call, const std::vector<Tensor> &inputs) {
  std::vector<std::string> names;
  std::vector<RuntimeValue> values;
  for (size_t i = 0; i < inputs.size(); ++i) {
    names.push_back(std::string(1, static_cast<char>('a' + i)));
    values.push_back(RuntimeValue{inputs[i]});
  }
  auto r = runText(oneOpGraph(names, call), values);
  return r ? "" : r.error().str();
}

/// Parses `body` (the node lines of a graph) after placeholders `a`, `b`, ... with the given
/// values: a TensorType annotation (`f32[4, 8][8, 1]cpu`) or a symbolic integer (`s77`); the
/// graph returns `ret`.
inline Graph inputGraph(const std::vector<std::string> &inputs, const std::string &body,
                        const std::string &ret) {
  std::string text = "graph():\n";
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string n(1, static_cast<char>('a' + i));
    text += "    %" + n + " : [num_users=1] = placeholder[target=" + n + "]\n";
  }
  text += body + "    return " + ret + "\n";
  auto g = parseFxText(text);
  EXPECT_TRUE(g) << g.error().str() << "\n" << text;
  if (!g)
    return Graph();
  for (size_t i = 0; i < inputs.size(); ++i) {
    Node *n = g->find(std::string(1, static_cast<char>('a' + i)));
    if (inputs[i].find('[') != std::string::npos) {
      auto t = TensorType::parse(inputs[i]);
      EXPECT_TRUE(t) << inputs[i];
      n->value().v = *t;
    } else {
      n->value().v = *SymExpr::parse(inputs[i]);
    }
  }
  return g.take();
}

/// Infers inputGraph(inputs, body, (name,)) and returns the printed value of node `name` (a
/// tensor, results joined by " | ", or a symbolic integer), or "error: <message>".
inline std::string inferredValue(const std::vector<std::string> &inputs, const std::string &body,
                                 const std::string &name) {
  Graph g = inputGraph(inputs, body, "(" + name + ",)");
  if (Status st = inferShapes(g); !st)
    return "error: " + st.error().message;
  const NodeValue &v = g.find(name)->value();
  if (const TensorType *t = v.tensor())
    return t->str();
  if (const SymExpr *s = v.sym())
    return s->str();
  std::string out;
  if (const auto *ts = v.tensors())
    for (const auto &t : *ts)
      out += (out.empty() ? "" : " | ") + (t ? t->str() : std::string("None"));
  return out;
}

} // namespace fxkit::testing
