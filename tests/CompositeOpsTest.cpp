/// Composite ops (ir/ops/Decomposer.h) and the `decompose` pass (transforms/Decompose.h): each
/// composite op written in torch.export's default IR runs as the same program written in Core
/// ATen by hand (reference interpreter, random inputs), its decomposition agrees with the
/// reference on the loop interpreter, OpenCL and LLVM, and hand-worked values, in-place
/// semantics (later readers of a written tensor), dynamic sizes, the inlined
/// wrap_with_set_grad_enabled body, PyTorch's error messages, the registry's bookkeeping, and
/// every op of the zoo models' exported programs (tests/data/composite-ops).

#include "CompileTestSupport.h"
#include "InterpreterTestSupport.h"
#include "backends/interp/Interpreter.h"
#include "exporters/FxTextPrinter.h"
#include "importers/FxTextParser.h"
#include "ir/ops/Decomposer.h"
#include "ir/ops/OpCoverage.h"
#include "ir/ops/PoolingWindows.h"
#include "transforms/Decompose.h"
#include "transforms/Lowering.h"
#include "transforms/Pass.h"
#include "transforms/ShapeInference.h"

#ifdef FXKIT_HAVE_JSON
#include "backends/interp/json/ReferenceIO.h"
#include "importers/json/Safetensors.h"

#include <nlohmann/json.hpp>
#endif

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

using namespace fxkit;
using namespace fxkit::testing;
namespace fs = std::filesystem;

namespace {

// ---- Writing graphs ----

/// A contiguous type annotation: ty("f32", {2, 3}) = "f32[2, 3][3, 1]cpu".
std::string ty(const std::string &dtype, const std::vector<int64_t> &sizes) {
  std::string s = dtype + "[", st = "[";
  std::vector<int64_t> strides(sizes.size(), 1);
  for (size_t i = sizes.size(); i-- > 1;)
    strides[i - 1] = strides[i] * sizes[i];
  for (size_t i = 0; i < sizes.size(); ++i) {
    s += (i ? ", " : "") + std::to_string(sizes[i]);
    st += (i ? ", " : "") + std::to_string(strides[i]);
  }
  return s + "]" + st + "]cpu";
}

/// A call line: `%name = target(args, kwargs)` as FX prints it (`target` without `torch.ops.`
/// for ATen; a one-element args tuple gets its trailing comma).
std::string N(const std::string &name, const std::string &target, const std::string &args,
              const std::string &kwargs = "") {
  int depth = 0;
  bool comma = false;
  for (char c : args) {
    depth += (c == '[' || c == '(') - (c == ']' || c == ')');
    comma = comma || (c == ',' && depth == 0);
  }
  std::string full = target.starts_with("operator.") ? target : "torch.ops." + target;
  return "    %" + name + " : [num_users=1] = call_function[target=" + full + "](args = (" + args +
         (comma || args.empty() ? "" : ",") + "), kwargs = {" + kwargs + "})\n";
}

struct Input {
  std::string name;
  std::string type; ///< a tensor annotation, or empty: typed by the caller's values
};

/// A graph of typed placeholders, the node lines `body`, returning `ret` (`r` or `a, b`).
std::string program(const std::vector<Input> &inputs, const std::string &body,
                    const std::string &ret = "r") {
  std::string text = "graph():\n";
  for (const Input &in : inputs)
    text += "    %" + in.name + " : " + (in.type.empty() ? "" : "Tensor \"" + in.type + "\"") +
            "[num_users=1] = placeholder[target=" + in.name + "]\n";
  return text + body + "    return (" + ret + (ret.find(',') == std::string::npos ? ",)" : ")") +
         "\n";
}

/// Parses `text`. FX text prints strings bare, so an einsum equation with commas reads as
/// several arguments: the tests write its commas as ';', put back here.
Graph parsed(const std::string &text) {
  auto g = parseFxText(text, "<test>");
  EXPECT_TRUE(g) << (g ? "" : g.error().str()) << "\n" << text;
  if (!g)
    return Graph();
  for (Node *n : *g) {
    if (n->target() != "torch.ops.aten.einsum.default")
      continue;
    Argument args = n->args();
    std::string eq(args.items()[0].asString());
    std::replace(eq.begin(), eq.end(), ';', ',');
    args.items()[0] = Argument::string(eq);
    n->setArgs(std::move(args));
  }
  return g.take();
}

// ---- Comparing ----

/// Expects `got` and `want` to hold the same values: integers and bools exactly, floats within
/// `rtol` (NaN matches NaN).
void expectClose(const RuntimeValue &got, const RuntimeValue &want, const std::string &what,
                 double rtol = 2e-5) {
  const Tensor *a = got.tensor(), *b = want.tensor();
  ASSERT_TRUE(a && b) << what << ": expected tensors";
  ASSERT_EQ(a->dtype(), b->dtype()) << what;
  ASSERT_EQ(a->sizes(), b->sizes()) << what;
  double tol = dtypeIsFloating(b->dtype()) ? rtol : 0;
  size_t bad = 0;
  Tensor::forEachIndex(b->sizes(), [&](std::span<const int64_t> idx) {
    double x = a->getDouble(idx), y = b->getDouble(idx);
    bool same =
        (std::isnan(x) && std::isnan(y)) || x == y || std::abs(x - y) <= tol * (1 + std::abs(y));
    if (!same && bad++ < 3)
      ADD_FAILURE() << what << ": element " << a->offsetOf(idx) << " is " << x << ", expected "
                    << y;
  });
}

/// The outputs of `text` run by the reference interpreter on `inputs`.
std::vector<RuntimeValue> run(const std::string &text, const std::vector<RuntimeValue> &inputs) {
  registerReferenceKernels();
  Graph g = parsed(text);
  auto r = interpretGraph(g, inputs);
  EXPECT_TRUE(r) << (r ? "" : r.error().str()) << "\n" << text;
  return r ? r->outputs : std::vector<RuntimeValue>{};
}

/// Seeded random inputs of `text`'s placeholder types; integer inputs in [lo, hi].
std::vector<RuntimeValue> randomInputs(const std::string &text, uint64_t seed, int64_t lo = 0,
                                       int64_t hi = 3) {
  Graph g = parsed(text);
  std::vector<RuntimeValue> out;
  for (Node *n : g)
    if (n->op() == OpKind::Placeholder) {
      const TensorType *t = n->value().tensor();
      EXPECT_TRUE(t) << n->name() << " has no type";
      if (!t)
        return out;
      std::vector<int64_t> sizes;
      for (const SymExpr &s : t->sizes)
        sizes.push_back(s.constant());
      auto r = Tensor::random(t->dtype, sizes, seed++, lo, hi);
      EXPECT_TRUE(r);
      RuntimeValue v{r.take()};
      // A declared non-contiguous layout: the interpreter copies the input into it.
      out.push_back(std::move(v));
    }
  return out;
}

/// The decompose pass's error message on `text` ("" where it succeeds).
std::string error(const std::string &text) {
  Graph g = parsed(text);
  auto r = decomposeCompositeOps(g);
  return r ? std::string() : r.error().message;
}

/// Expects `part` in `message`.
void has(const std::string &message, const std::string &part) {
  EXPECT_NE(message.find(part), std::string::npos) << message;
}

/// `text` decomposed (the pass, on its placeholders' types) and printed with types.
std::string decomposed(const std::string &text) {
  Graph g = parsed(text);
  auto changed = decomposeCompositeOps(g);
  EXPECT_TRUE(changed) << (changed ? "" : changed.error().str()) << "\n" << text;
  EXPECT_FALSE(hasCompositeOps(g)) << printFxText(g);
  if (Status s = inferShapes(g); !s)
    ADD_FAILURE() << s.error().str();
  FxTextOptions options;
  options.tensorTypes = true;
  return printFxText(g, options);
}

/// One composite program and the same program written in Core ATen by hand.
struct Case {
  std::string name;
  std::vector<Input> inputs;
  std::string composite; ///< node lines; the result is %r (or `ret`)
  std::string core;
  std::string ret = "r";
  int64_t lo = 0, hi = 3; ///< range of random integer inputs
};

/// Runs the composite program and its Core ATen form on the same random inputs and expects the
/// same outputs; then checks the decomposed program on the loop interpreter, OpenCL and LLVM
/// against the reference interpreter.
void checkCase(const Case &c, bool compiled = true) {
  SCOPED_TRACE(c.name);
  std::string composite = program(c.inputs, c.composite, c.ret);
  std::string core = program(c.inputs, c.core, c.ret);
  std::vector<RuntimeValue> inputs = randomInputs(composite, 7, c.lo, c.hi);
  std::vector<RuntimeValue> got = run(composite, inputs), want = run(core, inputs);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    expectClose(got[i], want[i], c.name + " output " + std::to_string(i));
  if (!compiled)
    return;
  std::string text = decomposed(composite);
  DifferentialOptions options;
  options.llvm = true;
  options.formats = false;
  options.inputs = &inputs;
  auto failure = checkGraphDifferentially(text, {}, options);
  EXPECT_FALSE(failure) << diffStageName(failure->stage) << ": " << failure->message << "\n"
                        << text;
}

std::string f32(const std::vector<int64_t> &s) { return ty("f32", s); }

// ---- Layers ----

TEST(CompositeOps, LinearAgreesWithCoreAten) {
  checkCase({"linear 3-d with bias: flattened addmm",
             {{"x", f32({2, 3, 4})}, {"w", f32({5, 4})}, {"b", f32({5})}},
             N("r", "aten.linear.default", "%x, %w, %b"),
             N("wt", "aten.permute.default", "%w, [1, 0]") +
                 N("xv", "aten.view.default", "%x, [6, 4]") +
                 N("mm", "aten.addmm.default", "%b, %xv, %wt") +
                 N("r", "aten.view.default", "%mm, [2, 3, 5]")});
  checkCase({"linear 2-d without bias: mm",
             {{"x", f32({3, 4})}, {"w", f32({5, 4})}},
             N("r", "aten.linear.default", "%x, %w"),
             N("wt", "aten.permute.default", "%w, [1, 0]") + N("r", "aten.mm.default", "%x, %wt")});
  checkCase(
      {"linear of a transposed input: matmul and add",
       {{"x", "f32[2, 3, 4][4, 8, 1]cpu"}, {"w", f32({5, 4})}, {"b", f32({5})}},
       N("r", "aten.linear.default", "%x, %w, %b"),
       N("c", "aten.clone.default", "%x", "memory_format: torch.contiguous_format") +
           N("v", "aten.view.default", "%c, [6, 4]") +
           N("wt", "aten.permute.default", "%w, [1, 0]") + N("m", "aten.mm.default", "%v, %wt") +
           N("v2", "aten.view.default", "%m, [2, 3, 5]") + N("r", "aten.add.Tensor", "%v2, %b")});
  checkCase({"linear of a vector",
             {{"x", f32({4})}, {"w", f32({5, 4})}, {"b", f32({5})}},
             N("r", "aten.linear.default", "%x, %w, %b"),
             N("wt", "aten.permute.default", "%w, [1, 0]") +
                 N("u", "aten.unsqueeze.default", "%x, 0") + N("m", "aten.mm.default", "%u, %wt") +
                 N("s", "aten.squeeze.dim", "%m, 0") + N("r", "aten.add.Tensor", "%s, %b")});
}

TEST(CompositeOps, ConvolutionsAgreeWithCoreAten) {
  checkCase(
      {"conv2d",
       {{"x", f32({2, 3, 8, 8})}, {"w", f32({4, 3, 3, 3})}, {"b", f32({4})}},
       N("r", "aten.conv2d.default", "%x, %w, %b, [2, 2], [1, 1]"),
       N("r", "aten.convolution.default", "%x, %w, %b, [2, 2], [1, 1], [1, 1], False, [0, 0], 1")});
  checkCase({"conv1d of an unbatched input",
             {{"x", f32({3, 10})}, {"w", f32({4, 3, 3})}},
             N("r", "aten.conv1d.default", "%x, %w"),
             N("u", "aten.unsqueeze.default", "%x, 0") +
                 N("c", "aten.convolution.default", "%u, %w, None, [1], [0], [1], False, [0], 1") +
                 N("r", "aten.squeeze.dim", "%c, 0")});
  checkCase({"conv3d, groups and dilation",
             {{"x", f32({1, 4, 5, 5, 5})}, {"w", f32({2, 2, 2, 2, 2})}},
             N("r", "aten.conv3d.default", "%x, %w, None, 1, 1, 2, 2"),
             N("r", "aten.convolution.default",
               "%x, %w, None, [1, 1, 1], [1, 1, 1], [2, 2, 2], False, [0, 0, 0], 2")});
  checkCase({"conv2d padding='same' with even kernels: an asymmetric pad first",
             {{"x", f32({1, 2, 5, 6})}, {"w", f32({3, 2, 2, 4})}},
             N("r", "aten.conv2d.padding", "%x, %w, None, [1, 1], same"),
             N("p", "aten.constant_pad_nd.default", "%x, [0, 1, 0, 1], 0") +
                 N("r", "aten.convolution.default",
                   "%p, %w, None, [1, 1], [0, 1], [1, 1], False, [0, 0], 1")});
  checkCase({"conv1d padding='valid'",
             {{"x", f32({2, 3, 9})}, {"w", f32({4, 3, 3})}, {"b", f32({4})}},
             N("r", "aten.conv1d.padding", "%x, %w, %b, [2], valid"),
             N("r", "aten.convolution.default", "%x, %w, %b, [2], [0], [1], False, [0], 1")});
  checkCase(
      {"conv_transpose2d",
       {{"x", f32({1, 4, 5, 5})}, {"w", f32({4, 2, 3, 3})}, {"b", f32({2})}},
       N("r", "aten.conv_transpose2d.input", "%x, %w, %b, [2, 2], [1, 1], [1, 1]"),
       N("r", "aten.convolution.default", "%x, %w, %b, [2, 2], [1, 1], [1, 1], True, [1, 1], 1")});
  checkCase({"conv_transpose1d with groups",
             {{"x", f32({2, 4, 6})}, {"w", f32({4, 3, 2})}},
             N("r", "aten.conv_transpose1d.default", "%x, %w, None, [1], [0], [0], 2"),
             N("r", "aten.convolution.default", "%x, %w, None, [1], [0], [1], True, [0], 2")});
}

TEST(CompositeOps, NormalisationsAgreeWithCoreAten) {
  // Running variances must be positive: both programs take abs of a random input.
  std::string absVar = N("rv2", "aten.abs.default", "%rv");
  std::vector<Input> bn{{"x", f32({2, 3, 4, 4})},
                        {"w", f32({3})},
                        {"b", f32({3})},
                        {"rm", f32({3})},
                        {"rv", f32({3})}};
  checkCase({"batch_norm in evaluation", bn,
             absVar + N("r", "aten.batch_norm.default",
                        "%x, %w, %b, %rm, %rv2, False, 0.1, 1e-05, False"),
             absVar +
                 N("n", "aten._native_batch_norm_legit_no_training.default",
                   "%x, %w, %b, %rm, %rv2, 0.1, 1e-05") +
                 N("r", "operator.getitem", "%n, 0")});
  // Training: the batch's statistics, with or without running ones.
  std::string manual =
      N("vm", "aten.var_mean.correction", "%x, [0, 2, 3]", "correction: 0, keepdim: True") +
      N("var", "operator.getitem", "%vm, 0") + N("mean", "operator.getitem", "%vm, 1") +
      N("ve", "aten.add.Tensor", "%var, 1e-05") + N("rs", "aten.rsqrt.default", "%ve") +
      N("xc", "aten.sub.Tensor", "%x, %mean") + N("xn", "aten.mul.Tensor", "%xc, %rs") +
      N("wv", "aten.view.default", "%w, [1, 3, 1, 1]") +
      N("bv", "aten.view.default", "%b, [1, 3, 1, 1]") + N("xw", "aten.mul.Tensor", "%xn, %wv") +
      N("r", "aten.add.Tensor", "%xw, %bv");
  checkCase(
      {"batch_norm in training with running statistics", bn,
       absVar + N("r", "aten.batch_norm.default", "%x, %w, %b, %rm, %rv2, True, 0.1, 1e-05, False"),
       manual});
  checkCase({"batch_norm in training without running statistics", bn,
             N("r", "aten.batch_norm.default", "%x, %w, %b, None, None, True, 0.1, 1e-05, False"),
             manual});
  checkCase(
      {"instance_norm with the input's statistics",
       {{"x", f32({2, 3, 4, 5})}, {"w", f32({3})}, {"b", f32({3})}},
       N("r", "aten.instance_norm.default", "%x, %w, %b, None, None, True, 0.1, 1e-05, False"),
       N("vm", "aten.var_mean.correction", "%x, [2, 3]", "correction: 0, keepdim: True") +
           N("var", "operator.getitem", "%vm, 0") + N("mean", "operator.getitem", "%vm, 1") +
           N("ve", "aten.add.Tensor", "%var, 1e-05") + N("rs", "aten.rsqrt.default", "%ve") +
           N("xc", "aten.sub.Tensor", "%x, %mean") + N("xn", "aten.mul.Tensor", "%xc, %rs") +
           N("wv", "aten.view.default", "%w, [1, 3, 1, 1]") +
           N("bv", "aten.view.default", "%b, [1, 3, 1, 1]") +
           N("xw", "aten.mul.Tensor", "%xn, %wv") + N("r", "aten.add.Tensor", "%xw, %bv")});
  checkCase({"group_norm",
             {{"x", f32({2, 4, 3, 3})}, {"w", f32({4})}, {"b", f32({4})}},
             N("r", "aten.group_norm.default", "%x, 2, %w, %b, 1e-05"),
             N("xv", "aten.view.default", "%x, [2, 2, 18]") +
                 N("vm", "aten.var_mean.correction", "%xv, [2]", "correction: 0, keepdim: True") +
                 N("var", "operator.getitem", "%vm, 0") + N("mean", "operator.getitem", "%vm, 1") +
                 N("ve", "aten.add.Tensor", "%var, 1e-05") + N("rs", "aten.rsqrt.default", "%ve") +
                 N("xc", "aten.sub.Tensor", "%xv, %mean") + N("xn", "aten.mul.Tensor", "%xc, %rs") +
                 N("x4", "aten.view.default", "%xn, [2, 4, 3, 3]") +
                 N("wv", "aten.view.default", "%w, [1, 4, 1, 1]") +
                 N("bv", "aten.view.default", "%b, [1, 4, 1, 1]") +
                 N("xw", "aten.mul.Tensor", "%x4, %wv") + N("r", "aten.add.Tensor", "%xw, %bv")});
  checkCase({"layer_norm",
             {{"x", f32({2, 3, 8})}, {"w", f32({8})}, {"b", f32({8})}},
             N("r", "aten.layer_norm.default", "%x, [8], %w, %b, 1e-05, False"),
             N("vm", "aten.var_mean.correction", "%x, [2]", "correction: 0, keepdim: True") +
                 N("var", "operator.getitem", "%vm, 0") + N("mean", "operator.getitem", "%vm, 1") +
                 N("ve", "aten.add.Tensor", "%var, 1e-05") + N("rs", "aten.rsqrt.default", "%ve") +
                 N("xc", "aten.sub.Tensor", "%x, %mean") + N("xn", "aten.mul.Tensor", "%xc, %rs") +
                 N("xw", "aten.mul.Tensor", "%xn, %w") + N("r", "aten.add.Tensor", "%xw, %b")});
  checkCase({"rms_norm",
             {{"x", f32({2, 3, 8})}, {"w", f32({8})}},
             N("r", "aten.rms_norm.default", "%x, [8], %w, 1e-06"),
             N("sq", "aten.mul.Tensor", "%x, %x") + N("m", "aten.mean.dim", "%sq, [-1], True") +
                 N("me", "aten.add.Tensor", "%m, 1e-06") + N("rs", "aten.rsqrt.default", "%me") +
                 N("xn", "aten.mul.Tensor", "%x, %rs") + N("r", "aten.mul.Tensor", "%xn, %w")});
}

TEST(CompositeOps, ActivationsAgreeWithCoreAten) {
  std::vector<Input> x{{"x", f32({3, 5})}};
  checkCase({"silu", x, N("r", "aten.silu.default", "%x"),
             N("s", "aten.sigmoid.default", "%x") + N("r", "aten.mul.Tensor", "%x, %s")});
  checkCase({"silu of bfloat16 computes in float32",
             {{"x", ty("bf16", {3, 5})}},
             N("r", "aten.silu.default", "%x"),
             N("f", "aten._to_copy.default", "%x", "dtype: torch.float32") +
                 N("s", "aten.sigmoid.default", "%f") + N("m", "aten.mul.Tensor", "%f, %s") +
                 N("r", "aten._to_copy.default", "%m", "dtype: torch.bfloat16")});
  checkCase({"hardswish", x, N("r", "aten.hardswish.default", "%x"),
             N("p", "aten.add.Tensor", "%x, 3") + N("c", "aten.clamp.default", "%p, 0, 6") +
                 N("m", "aten.mul.Tensor", "%x, %c") + N("r", "aten.div.Tensor", "%m, 6")});
  checkCase({"hardsigmoid", x, N("r", "aten.hardsigmoid.default", "%x"),
             N("p", "aten.add.Tensor", "%x, 3") + N("c", "aten.clamp.default", "%p, 0, 6") +
                 N("r", "aten.div.Tensor", "%c, 6")});
  checkCase(
      {"relu6", x, N("r", "aten.relu6.default", "%x"), N("r", "aten.clamp.default", "%x, 0, 6")});
  checkCase({"softplus with beta and threshold", x, N("r", "aten.softplus.default", "%x, 2, 1"),
             N("s", "aten.mul.Tensor", "%x, 2") + N("e", "aten.exp.default", "%s") +
                 N("l", "aten.log1p.default", "%e") + N("q", "aten.div.Tensor", "%l, 2") +
                 N("g", "aten.gt.Scalar", "%s, 1") + N("r", "aten.where.self", "%g, %x, %q")});
  checkCase({"mish", x, N("r", "aten.mish.default", "%x"),
             N("e", "aten.exp.default", "%x") + N("l", "aten.log1p.default", "%e") +
                 N("g", "aten.gt.Scalar", "%x, 20") + N("sp", "aten.where.self", "%g, %x, %l") +
                 N("t", "aten.tanh.default", "%sp") + N("r", "aten.mul.Tensor", "%x, %t")});
  checkCase({"prelu with a weight per channel",
             {{"x", f32({2, 3, 4})}, {"w", f32({3})}},
             N("r", "aten.prelu.default", "%x, %w"),
             N("wv", "aten.view.default", "%w, [1, 3, 1]") + N("g", "aten.gt.Scalar", "%x, 0") +
                 N("m", "aten.mul.Tensor", "%wv, %x") + N("r", "aten.where.self", "%g, %x, %m")});
  checkCase(
      {"square", x, N("r", "aten.square.default", "%x"), N("r", "aten.mul.Tensor", "%x, %x")});
  checkCase({"dropout in evaluation: a copy", x, N("r", "aten.dropout.default", "%x, 0.5, False"),
             N("r", "aten.clone.default", "%x")});
  checkCase({"feature_alpha_dropout in evaluation: the input", x,
             N("d", "aten.feature_alpha_dropout.default", "%x, 0.3, False") +
                 N("r", "aten.mul.Tensor", "%d, 2"),
             N("r", "aten.mul.Tensor", "%x, 2")});
}

TEST(CompositeOps, SoftmaxAndAttentionAgreeWithCoreAten) {
  std::vector<Input> x{{"x", f32({3, 5})}};
  checkCase({"softmax with a dtype", x, N("r", "aten.softmax.int", "%x, -1, torch.float64"),
             N("c", "aten._to_copy.default", "%x", "dtype: torch.float64") +
                 N("r", "aten._softmax.default", "%c, -1, False")});
  checkCase({"log_softmax", x, N("r", "aten.log_softmax.int", "%x, 0"),
             N("r", "aten._log_softmax.default", "%x, 0, False")});
  // The mask keeps (col - row) <= 1: every row attends somewhere.
  std::string mask = N("row", "aten.arange.default", "3") + N("col", "aten.arange.default", "5") +
                     N("r2", "aten.unsqueeze.default", "%row, 1") +
                     N("d", "aten.sub.Tensor", "%col, %r2") + N("m", "aten.le.Scalar", "%d, 1");
  std::string additive = N("zero", "aten.scalar_tensor.default", "0.0", "dtype: torch.float32") +
                         N("ninf", "aten.scalar_tensor.default", "-inf", "dtype: torch.float32") +
                         N("mf", "aten.where.self", "%m, %zero, %ninf");
  // Core ATen attention over B*H = 2 batches of (L, S) = (3, 5), scale 0.5.
  std::string attention =
      N("q3", "aten.view.default", "%q, [2, 3, 4]") +
      N("kt", "aten.permute.default", "%k, [0, 1, 3, 2]") +
      N("ktc", "aten.clone.default", "%kt", "memory_format: torch.contiguous_format") +
      N("kt3", "aten.view.default", "%ktc, [2, 4, 5]") + N("s", "aten.bmm.default", "%q3, %kt3") +
      N("s4", "aten.view.default", "%s, [1, 2, 3, 5]") + N("ss", "aten.mul.Tensor", "%s4, 0.5") +
      N("sm", "aten.add.Tensor", "%ss, %mf") + N("p", "aten._softmax.default", "%sm, -1, False") +
      N("p3", "aten.view.default", "%p, [2, 3, 5]") +
      N("v3", "aten.view.default", "%v, [2, 5, 4]") + N("o", "aten.bmm.default", "%p3, %v3") +
      N("r", "aten.view.default", "%o, [1, 2, 3, 4]");
  std::vector<Input> qkv{
      {"q", f32({1, 2, 3, 4})}, {"k", f32({1, 2, 5, 4})}, {"v", f32({1, 2, 5, 4})}};
  checkCase({"scaled_dot_product_attention with a bool mask (the CPU flash kernel)", qkv,
             mask + N("r", "aten.scaled_dot_product_attention.default", "%q, %k, %v, %m"),
             mask + additive + attention});
  std::vector<Input> qkvMask = qkv;
  qkvMask.push_back({"mf", f32({1, 1, 3, 5})});
  checkCase({"scaled_dot_product_attention with an additive mask and a scale", qkvMask,
             N("r", "aten.scaled_dot_product_attention.default", "%q, %k, %v, %mf", "scale: 0.5"),
             attention});
  // Grouped-query attention: 2 query heads share each key/value head; the math form repeats them.
  std::string repeated =
      N("ku", "aten.unsqueeze.default", "%k, 2") +
      N("ke", "aten.expand.default", "%ku, [1, 1, 2, 5, 4]") +
      N("kc", "aten.clone.default", "%ke", "memory_format: torch.contiguous_format") +
      N("k2", "aten.view.default", "%kc, [1, 2, 5, 4]") +
      N("vu", "aten.unsqueeze.default", "%v, 2") +
      N("ve", "aten.expand.default", "%vu, [1, 1, 2, 5, 4]") +
      N("vc", "aten.clone.default", "%ve", "memory_format: torch.contiguous_format") +
      N("v2", "aten.view.default", "%vc, [1, 2, 5, 4]");
  std::string gqaAttention = attention;
  for (auto [from, to] :
       {std::pair<std::string, std::string>{"%k, [0, 1, 3, 2]", "%k2, [0, 1, 3, 2]"},
        {"%v, [2, 5, 4]", "%v2, [2, 5, 4]"}})
    gqaAttention.replace(gqaAttention.find(from), from.size(), to);
  checkCase({"scaled_dot_product_attention with enable_gqa (the math form)",
             {{"q", f32({1, 2, 3, 4})}, {"k", f32({1, 1, 5, 4})}, {"v", f32({1, 1, 5, 4})}},
             mask + N("r", "aten.scaled_dot_product_attention.default", "%q, %k, %v, %m",
                      "enable_gqa: True"),
             mask + additive + repeated + gqaAttention});
  checkCase({"scaled_dot_product_attention of 3-d inputs, causal (the math form)",
             {{"q", f32({2, 3, 4})}, {"k", f32({2, 3, 4})}, {"v", f32({2, 3, 4})}},
             N("r", "aten.scaled_dot_product_attention.default", "%q, %k, %v, None, 0.0, True"),
             N("row", "aten.arange.default", "3") + N("col", "aten.arange.default", "3") +
                 N("r2", "aten.unsqueeze.default", "%row, 1") +
                 N("d", "aten.sub.Tensor", "%col, %r2") + N("m", "aten.le.Scalar", "%d, 0") +
                 additive + N("kt", "aten.permute.default", "%k, [0, 2, 1]") +
                 N("s", "aten.bmm.default", "%q, %kt") + N("ss", "aten.mul.Tensor", "%s, 0.5") +
                 N("sm", "aten.add.Tensor", "%ss, %mf") +
                 N("p", "aten._softmax.default", "%sm, -1, False") +
                 N("r", "aten.bmm.default", "%p, %v")});
}

TEST(CompositeOps, AttentionPicksTheBackendAtenWould) {
  auto targets = [](const std::string &text) {
    std::set<std::string> out;
    Graph g = parsed(decomposed(text));
    for (const Node *n : g)
      out.insert(std::string(n->target()));
    return out;
  };
  const std::string flash = "torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default";
  auto sdpa = [](const std::string &q, const std::string &k, const std::string &kw = "") {
    return program({{"q", q}, {"k", k}, {"v", k}},
                   N("r", "aten.scaled_dot_product_attention.default", "%q, %k, %v", kw));
  };
  EXPECT_TRUE(targets(sdpa(f32({1, 2, 3, 4}), f32({1, 2, 5, 4}))).count(flash));
  EXPECT_TRUE(targets(sdpa(f32({1, 2, 3, 4}), f32({1, 2, 5, 4}), "is_causal: True")).count(flash));
  // Dropout, 3-d inputs, different head counts, a head dim of stride 2: the math form.
  for (const std::string &text :
       {sdpa(f32({1, 2, 3, 4}), f32({1, 2, 5, 4}), "dropout_p: 0.0, scale: 0.25"),
        sdpa(f32({2, 3, 4}), f32({2, 5, 4})),
        sdpa(f32({1, 4, 3, 4}), f32({1, 2, 5, 4}), "enable_gqa: True"),
        sdpa("f32[1, 2, 3, 4][48, 24, 8, 2]cpu", f32({1, 2, 5, 4}))}) {
    bool fused = targets(text).count(flash) > 0;
    bool dropoutOnly = text.find("dropout_p: 0.0") != std::string::npos;
    EXPECT_EQ(fused, dropoutOnly) << text;
  }
}

TEST(CompositeOps, PoolingPaddingAndResamplingAgreeWithCoreAten) {
  checkCase({"max_pool2d",
             {{"x", f32({1, 2, 6, 6})}},
             N("r", "aten.max_pool2d.default", "%x, [3, 3], [2, 2], [1, 1]"),
             N("p", "aten.max_pool2d_with_indices.default", "%x, [3, 3], [2, 2], [1, 1]") +
                 N("r", "operator.getitem", "%p, 0")});
  checkCase({"max_pool1d through the 2-d op",
             {{"x", f32({2, 3, 9})}},
             N("r", "aten.max_pool1d.default", "%x, [3], [2], [1]"),
             N("u", "aten.unsqueeze.default", "%x, -2") +
                 N("p", "aten.max_pool2d_with_indices.default",
                   "%u, [1, 3], [1, 2], [0, 1], [1, 1], False") +
                 N("g", "operator.getitem", "%p, 0") + N("r", "aten.squeeze.dim", "%g, -2")});
  checkCase({"max_pool3d",
             {{"x", f32({1, 2, 4, 4, 4})}},
             N("r", "aten.max_pool3d.default", "%x, [2, 2, 2]"),
             N("p", "aten.max_pool3d_with_indices.default", "%x, [2, 2, 2]") +
                 N("r", "operator.getitem", "%p, 0")});
  checkCase({"adaptive_avg_pool2d to 1x1: a mean",
             {{"x", f32({2, 3, 5, 4})}},
             N("r", "aten.adaptive_avg_pool2d.default", "%x, [1, 1]"),
             N("r", "aten.mean.dim", "%x, [-1, -2], True")});
  checkCase({"adaptive_avg_pool2d to 2x3",
             {{"x", f32({2, 3, 5, 7})}},
             N("r", "aten.adaptive_avg_pool2d.default", "%x, [2, 3]"),
             N("r", "aten._adaptive_avg_pool2d.default", "%x, [2, 3]")});
  checkCase({"pad, constant",
             {{"x", f32({2, 3})}},
             N("r", "aten.pad.default", "%x, [1, 2], constant, 0.5"),
             N("r", "aten.constant_pad_nd.default", "%x, [1, 2], 0.5")});
  checkCase({"pad, reflect",
             {{"x", f32({1, 2, 5})}},
             N("r", "aten.pad.default", "%x, [2, 1], reflect"),
             N("r", "aten.reflection_pad1d.default", "%x, [2, 1]")});
  checkCase({"pad, replicate 2-d",
             {{"x", f32({1, 2, 4, 5})}},
             N("r", "aten.pad.default", "%x, [1, 1, 2, 0], replicate"),
             N("r", "aten.replication_pad2d.default", "%x, [1, 1, 2, 0]")});
  checkCase({"pad, circular",
             {{"x", f32({1, 2, 5})}},
             N("r", "aten.pad.default", "%x, [2, 1], circular"),
             N("a", "aten.slice.Tensor", "%x, 2, 3, 5") +
                 N("b", "aten.slice.Tensor", "%x, 2, 0, 1") +
                 N("r", "aten.cat.default", "[%a, %x, %b], 2")});
  checkCase({"pixel_shuffle",
             {{"x", f32({1, 8, 2, 3})}},
             N("r", "aten.pixel_shuffle.default", "%x, 2"),
             N("v", "aten.view.default", "%x, [1, 2, 2, 2, 2, 3]") +
                 N("p", "aten.permute.default", "%v, [0, 1, 4, 2, 5, 3]") +
                 N("c", "aten.clone.default", "%p", "memory_format: torch.contiguous_format") +
                 N("r", "aten.view.default", "%c, [1, 2, 4, 6]")});
  checkCase({"pixel_unshuffle undoes pixel_shuffle",
             {{"x", f32({1, 8, 2, 3})}},
             N("s", "aten.pixel_shuffle.default", "%x, 2") +
                 N("r", "aten.pixel_unshuffle.default", "%s, 2"),
             N("r", "aten.clone.default", "%x")});
  checkCase({"upsample_nearest1d by scale",
             {{"x", f32({1, 2, 4})}},
             N("r", "aten.upsample_nearest1d.vec", "%x, None, [2.0]"),
             N("i", "aten.arange.default", "8") +
                 N("h", "aten.div.Tensor_mode", "%i, 2", "rounding_mode: floor") +
                 N("r", "aten.index_select.default", "%x, 2, %h")});
  // The .default forms, as the .vec forms' decompositions call them: with scales, the .vec form
  // with its scale factors; without, with its output size (values: HandWorkedValues).
  checkCase({"upsample_nearest2d.default with scales",
             {{"x", f32({1, 2, 5, 4})}},
             N("r", "aten.upsample_nearest2d.default", "%x, [7, 8], 1.5, 2.0"),
             N("r", "aten.upsample_nearest2d.vec", "%x, None, [1.5, 2.0]")});
  checkCase({"upsample_nearest2d.default with an output size",
             {{"x", f32({1, 2, 5, 4})}},
             N("r", "aten.upsample_nearest2d.default", "%x, [7, 3]"),
             N("r", "aten.upsample_nearest2d.vec", "%x, [7, 3], None")});
  checkCase({"upsample_bilinear2d.default with scales",
             {{"x", f32({1, 2, 5, 4})}},
             N("r", "aten.upsample_bilinear2d.default", "%x, [11, 9], False, 2.3, 2.3"),
             N("r", "aten.upsample_bilinear2d.vec", "%x, None, False, [2.3, 2.3]")});
  checkCase({"upsample_nearest1d.default and upsample_linear1d.default",
             {{"x", f32({1, 2, 5})}},
             N("a", "aten.upsample_nearest1d.default", "%x, [7], 1.5") +
                 N("b", "aten.upsample_linear1d.default", "%x, [9], True") +
                 N("r", "aten.add.Tensor", "%a, %a"),
             N("a", "aten.upsample_nearest1d.vec", "%x, None, [1.5]") +
                 N("b", "aten.upsample_linear1d.vec", "%x, [9], True, None") +
                 N("r", "aten.add.Tensor", "%a, %a")});
  checkCase({"upsample_linear1d aligned corners",
             {{"x", f32({1, 2, 3})}},
             N("r", "aten.upsample_linear1d.vec", "%x, [5], True, None"),
             // Output j samples input position j/2: the even ones exactly, the odd ones between.
             N("a", "aten.slice.Tensor", "%x, 2, 0, 2") +
                 N("b", "aten.slice.Tensor", "%x, 2, 1, 3") + N("s", "aten.add.Tensor", "%a, %b") +
                 N("m", "aten.mul.Tensor", "%s, 0.5") + N("xu", "aten.unsqueeze.default", "%x, 3") +
                 N("mp", "aten.constant_pad_nd.default", "%m, [0, 1], 0.0") +
                 N("mu", "aten.unsqueeze.default", "%mp, 3") +
                 N("c", "aten.cat.default", "[%xu, %mu], 3") +
                 N("v", "aten.view.default", "%c, [1, 2, 6]") +
                 N("r", "aten.slice.Tensor", "%v, 2, 0, 5")});
}

// ---- Tensor ops ----

TEST(CompositeOps, ConversionsAndReshapesAgreeWithCoreAten) {
  std::vector<Input> x{{"x", f32({2, 3, 4})}};
  checkCase({"to.dtype", x, N("r", "aten.to.dtype", "%x, torch.int64"),
             N("r", "aten._to_copy.default", "%x", "dtype: torch.int64")});
  checkCase({"to.dtype to the tensor's own dtype: the tensor", x,
             N("t", "aten.to.dtype", "%x, torch.float32") + N("r", "aten.mul.Tensor", "%t, 2"),
             N("r", "aten.mul.Tensor", "%x, 2")});
  checkCase({"to.dtype_layout", x,
             N("r", "aten.to.dtype_layout", "%x",
               "dtype: torch.float64, layout: torch.strided, device: cpu"),
             N("r", "aten._to_copy.default", "%x", "dtype: torch.float64")});
  checkCase({"to.device with a dtype", x, N("r", "aten.to.device", "%x, cpu, torch.float16"),
             N("r", "aten._to_copy.default", "%x", "dtype: torch.float16")});
  checkCase({"to.other and type_as",
             {{"x", f32({2, 3})}, {"i", ty("i32", {3})}},
             N("a", "aten.to.other", "%x, %i") + N("b", "aten.type_as.default", "%i, %x"),
             N("a", "aten._to_copy.default", "%x", "dtype: torch.int32") +
                 N("b", "aten._to_copy.default", "%i", "dtype: torch.float32"),
             "a, b"});
  checkCase({"to with copy=True copies", x,
             N("r", "aten.to.dtype", "%x, torch.float32, False, True"),
             N("r", "aten.clone.default", "%x")});
  checkCase({"contiguous of a transposed tensor",
             {{"x", "f32[3, 2][1, 3]cpu"}},
             N("r", "aten.contiguous.default", "%x"),
             N("r", "aten.clone.default", "%x", "memory_format: torch.contiguous_format")});
  checkCase({"flatten",
             {{"x", f32({2, 3, 4, 5})}},
             N("r", "aten.flatten.using_ints", "%x, 1, 2"),
             N("r", "aten.view.default", "%x, [2, 12, 5]")});
  checkCase({"flatten of a transposed tensor copies",
             {{"x", "f32[3, 2][1, 3]cpu"}},
             N("r", "aten.flatten.using_ints", "%x"),
             N("c", "aten.clone.default", "%x", "memory_format: torch.contiguous_format") +
                 N("r", "aten.view.default", "%c, [6]")});
  checkCase({"unflatten with -1",
             {{"x", f32({2, 12})}},
             N("r", "aten.unflatten.int", "%x, 1, [3, -1]"),
             N("r", "aten.view.default", "%x, [2, 3, 4]")});
  checkCase({"expand_as, view_as, reshape_as",
             {{"x", f32({3, 1})}, {"y", f32({2, 3, 4})}, {"z", f32({3})}},
             N("a", "aten.expand_as.default", "%x, %y") + N("b", "aten.view_as.default", "%z, %x") +
                 N("c", "aten.reshape_as.default", "%z, %x"),
             N("a", "aten.expand.default", "%x, [2, 3, 4]") +
                 N("b", "aten.view.default", "%z, [3, 1]") +
                 N("c", "aten.view.default", "%z, [3, 1]"),
             "a, b"});
  checkCase({"movedim and swapaxes", x,
             N("a", "aten.movedim.int", "%x, 0, 2") + N("b", "aten.swapaxes.default", "%x, 0, 2") +
                 N("c", "aten.movedim.intlist", "%x, [0, 1], [2, 0]"),
             N("a", "aten.permute.default", "%x, [1, 2, 0]") +
                 N("b", "aten.permute.default", "%x, [2, 1, 0]") +
                 N("c", "aten.permute.default", "%x, [1, 2, 0]"),
             "a, b, c"});
  checkCase({"narrow from the end",
             {{"x", f32({2, 5})}},
             N("r", "aten.narrow.default", "%x, 1, -3, 2"),
             N("r", "aten.slice.Tensor", "%x, 1, 2, 4")});
  checkCase({"atleast_2d",
             {{"x", f32({3})}},
             N("r", "aten.atleast_2d.default", "%x"),
             N("r", "aten.unsqueeze.default", "%x, 0")});
}

TEST(CompositeOps, SplitsJoinsAndFactoriesAgreeWithCoreAten) {
  checkCase({"chunk of 7 into 3: sizes 3, 3, 1",
             {{"x", f32({2, 7})}},
             N("c", "aten.chunk.default", "%x, 3, 1") + N("a", "operator.getitem", "%c, 0") +
                 N("b", "operator.getitem", "%c, 1") + N("d", "operator.getitem", "%c, 2"),
             N("a", "aten.slice.Tensor", "%x, 1, 0, 3") +
                 N("b", "aten.slice.Tensor", "%x, 1, 3, 6") +
                 N("d", "aten.slice.Tensor", "%x, 1, 6, 7"),
             "a, b, d"});
  checkCase(
      {"split.sizes",
       {{"x", f32({7, 2})}},
       N("c", "aten.split.sizes", "%x, [2, 5]") + N("a", "operator.getitem", "%c, 0") +
           N("b", "operator.getitem", "%c, 1"),
       N("a", "aten.slice.Tensor", "%x, 0, 0, 2") + N("b", "aten.slice.Tensor", "%x, 0, 2, 7"),
       "a, b"});
  checkCase({"unbind",
             {{"x", f32({3, 4})}},
             N("c", "aten.unbind.int", "%x, 1") + N("a", "operator.getitem", "%c, 0") +
                 N("b", "operator.getitem", "%c, -1"),
             N("a", "aten.select.int", "%x, 1, 0") + N("b", "aten.select.int", "%x, 1, 3"),
             "a, b"});
  checkCase({"stack",
             {{"x", f32({2, 3})}, {"y", f32({2, 3})}},
             N("r", "aten.stack.default", "[%x, %y], -1"),
             N("a", "aten.unsqueeze.default", "%x, 2") + N("b", "aten.unsqueeze.default", "%y, 2") +
                 N("r", "aten.cat.default", "[%a, %b], 2")});
  checkCase({"hstack and vstack of vectors",
             {{"x", f32({3})}, {"y", f32({3})}},
             N("a", "aten.hstack.default", "[%x, %y]") + N("b", "aten.vstack.default", "[%x, %y]"),
             N("a", "aten.cat.default", "[%x, %y]") + N("u", "aten.unsqueeze.default", "%x, 0") +
                 N("w", "aten.unsqueeze.default", "%y, 0") + N("b", "aten.cat.default", "[%u, %w]"),
             "a, b"});
  checkCase({"new_ones, new_zeros, new_full",
             {{"x", f32({2})}},
             N("a", "aten.new_ones.default", "%x, [2, 3]", "dtype: torch.bool, pin_memory: False") +
                 N("b", "aten.new_zeros.default", "%x, [3]") +
                 N("c", "aten.new_full.default", "%x, [2], 7", "dtype: torch.int64"),
             N("a", "aten.full.default", "[2, 3], True", "dtype: torch.bool") +
                 N("b", "aten.full.default", "[3], 0.0", "dtype: torch.float32") +
                 N("c", "aten.full.default", "[2], 7", "dtype: torch.int64"),
             "a, b, c"});
  {
    // new_empty_strided: empty_strided with self's dtype and device (its values unspecified).
    std::string text = decomposed(program(
        {{"x", ty("f16", {2})}}, N("r", "aten.new_empty_strided.default", "%x, [2, 3], [1, 2]")));
    EXPECT_NE(text.find("f16[2, 3][1, 2]cpu"), std::string::npos) << text;
    EXPECT_NE(text.find("aten.empty_strided.default"), std::string::npos) << text;
  }
  checkCase({"tile and repeat_interleave",
             {{"x", f32({2, 3})}},
             N("a", "aten.tile.default", "%x, [2]") +
                 N("b", "aten.repeat_interleave.self_int", "%x, 2, 1"),
             N("a", "aten.repeat.default", "%x, [1, 2]") +
                 N("u", "aten.unsqueeze.default", "%x, 2") +
                 N("e", "aten.expand.default", "%u, [2, 3, 2]") +
                 N("c", "aten.clone.default", "%e", "memory_format: torch.contiguous_format") +
                 N("b", "aten.view.default", "%c, [2, 6]"),
             "a, b"});
  checkCase({"repeat_interleave without a dim flattens",
             {{"x", f32({2, 2})}},
             N("r", "aten.repeat_interleave.self_int", "%x, 3"),
             N("f", "aten.view.default", "%x, [4]") + N("u", "aten.unsqueeze.default", "%f, 1") +
                 N("e", "aten.expand.default", "%u, [4, 3]") +
                 N("c", "aten.clone.default", "%e", "memory_format: torch.contiguous_format") +
                 N("r", "aten.view.default", "%c, [12]")});
}

TEST(CompositeOps, IndexPatternsAgreeWithCoreAten) {
  checkCase(
      {"diff of order 2 with a prepended column",
       {{"x", f32({2, 5})}, {"p", f32({2, 1})}},
       N("r", "aten.diff.default", "%x, 2, -1, %p"),
       N("c", "aten.cat.default", "[%p, %x], 1") + N("h", "aten.slice.Tensor", "%c, 1, 1, 6") +
           N("l", "aten.slice.Tensor", "%c, 1, 0, 5") + N("d", "aten.sub.Tensor", "%h, %l") +
           N("h2", "aten.slice.Tensor", "%d, 1, 1, 5") +
           N("l2", "aten.slice.Tensor", "%d, 1, 0, 4") + N("r", "aten.sub.Tensor", "%h2, %l2")});
  checkCase({"diff of bools: logical_xor",
             {{"x", ty("b8", {6})}},
             N("r", "aten.diff.default", "%x"),
             N("h", "aten.slice.Tensor", "%x, 0, 1, 6") +
                 N("l", "aten.slice.Tensor", "%x, 0, 0, 5") +
                 N("r", "aten.logical_xor.default", "%h, %l")});
  checkCase({"roll along two dims",
             {{"x", f32({3, 4})}},
             N("r", "aten.roll.default", "%x, [1, -1], [0, 1]"),
             // Rows: 2, 0, 1; columns: 1, 2, 3, 0.
             N("a", "aten.slice.Tensor", "%x, 0, 2, 3") +
                 N("b", "aten.slice.Tensor", "%x, 0, 0, 2") +
                 N("rows", "aten.cat.default", "[%a, %b]") +
                 N("c", "aten.slice.Tensor", "%rows, 1, 1, 4") +
                 N("d", "aten.slice.Tensor", "%rows, 1, 0, 1") +
                 N("r", "aten.cat.default", "[%c, %d], 1")});
  checkCase({"roll without dims rolls the flattened tensor",
             {{"x", f32({2, 3})}},
             N("r", "aten.roll.default", "%x, [2]"),
             N("f", "aten.view.default", "%x, [6]") + N("a", "aten.slice.Tensor", "%f, 0, 4, 6") +
                 N("b", "aten.slice.Tensor", "%f, 0, 0, 4") +
                 N("c", "aten.cat.default", "[%a, %b]") +
                 N("r", "aten.view.default", "%c, [2, 3]")});
  // tril(x, 1) of 3x4 keeps (row, col) with col <= row + 1; triu(x, -1) keeps col >= row - 1.
  std::string rowCol = N("row", "aten.arange.default", "3") + N("col", "aten.arange.default", "4") +
                       N("r2", "aten.unsqueeze.default", "%row, 1") +
                       N("d", "aten.sub.Tensor", "%col, %r2") +
                       N("zero", "aten.scalar_tensor.default", "0.0", "dtype: torch.float32");
  checkCase({"tril and triu with diagonals",
             {{"x", f32({2, 3, 4})}},
             N("a", "aten.tril.default", "%x, 1") + N("b", "aten.triu.default", "%x, -1"),
             rowCol + N("lo", "aten.le.Scalar", "%d, 1") +
                 N("a", "aten.where.self", "%lo, %x, %zero") + N("hi", "aten.ge.Scalar", "%d, -1") +
                 N("b", "aten.where.self", "%hi, %x, %zero"),
             "a, b"});
  checkCase({"one_hot",
             {{"x", ty("i64", {2, 3})}},
             N("r", "aten.one_hot.default", "%x, 5"),
             N("i", "aten.arange.default", "5") + N("u", "aten.unsqueeze.default", "%x, -1") +
                 N("e", "aten.eq.Tensor", "%u, %i") +
                 N("r", "aten._to_copy.default", "%e", "dtype: torch.int64"),
             "r",
             0,
             4});
}

TEST(CompositeOps, MatrixProductsAgreeWithCoreAten) {
  checkCase({"matmul of vectors: dot",
             {{"a", f32({4})}, {"b", f32({4})}},
             N("r", "aten.matmul.default", "%a, %b"),
             N("m", "aten.mul.Tensor", "%a, %b") + N("r", "aten.sum.default", "%m")});
  checkCase({"matmul matrix-vector: mv",
             {{"a", f32({3, 4})}, {"b", f32({4})}},
             N("r", "aten.matmul.default", "%a, %b"),
             N("m", "aten.mul.Tensor", "%a, %b") + N("r", "aten.sum.dim_IntList", "%m, [1]")});
  checkCase({"matmul 3-d by 2-d: folded into mm",
             {{"a", f32({2, 3, 4})}, {"b", f32({4, 5})}},
             N("r", "aten.matmul.default", "%a, %b"),
             N("v", "aten.view.default", "%a, [6, 4]") + N("m", "aten.mm.default", "%v, %b") +
                 N("r", "aten.view.default", "%m, [2, 3, 5]")});
  checkCase(
      {"matmul 2-d by 3-d: bmm",
       {{"a", f32({3, 4})}, {"b", f32({2, 4, 5})}},
       N("r", "aten.matmul.default", "%a, %b"),
       N("e", "aten.expand.default", "%a, [2, 3, 4]") + N("r", "aten.bmm.default", "%e, %b")});
  checkCase({"matmul vector by batch: folded through the transpose",
             {{"a", f32({4})}, {"b", f32({2, 4, 5})}},
             N("r", "aten.matmul.default", "%a, %b"),
             N("e", "aten.expand.default", "%a, [2, 1, 4]") + N("m", "aten.bmm.default", "%e, %b") +
                 N("r", "aten.squeeze.dim", "%m, 1")});
  checkCase({"matmul batch by vector",
             {{"a", f32({2, 3, 4})}, {"b", f32({4})}},
             N("r", "aten.matmul.default", "%a, %b"),
             N("m", "aten.mul.Tensor", "%a, %b") + N("r", "aten.sum.dim_IntList", "%m, [2]")});
  checkCase({"matmul with broadcast batches",
             {{"a", f32({2, 1, 3, 4})}, {"b", f32({1, 5, 4, 6})}},
             N("r", "aten.matmul.default", "%a, %b"),
             N("ea", "aten.expand.default", "%a, [2, 5, 3, 4]") +
                 N("ca", "aten.clone.default", "%ea", "memory_format: torch.contiguous_format") +
                 N("va", "aten.view.default", "%ca, [10, 3, 4]") +
                 N("eb", "aten.expand.default", "%b, [2, 5, 4, 6]") +
                 N("cb", "aten.clone.default", "%eb", "memory_format: torch.contiguous_format") +
                 N("vb", "aten.view.default", "%cb, [10, 4, 6]") +
                 N("m", "aten.bmm.default", "%va, %vb") +
                 N("r", "aten.view.default", "%m, [2, 5, 3, 6]")});
  checkCase({"dot, mv, outer",
             {{"a", f32({3})}, {"b", f32({3})}, {"m", f32({2, 3})}},
             N("d", "aten.dot.default", "%a, %b") + N("v", "aten.mv.default", "%m, %a") +
                 N("o", "aten.outer.default", "%a, %b"),
             N("p", "aten.mul.Tensor", "%a, %b") + N("d", "aten.sum.default", "%p") +
                 N("q", "aten.mul.Tensor", "%m, %a") + N("v", "aten.sum.dim_IntList", "%q, [1]") +
                 N("u", "aten.unsqueeze.default", "%a, 1") + N("o", "aten.mul.Tensor", "%u, %b"),
             "d, v, o"});
}

TEST(CompositeOps, EinsumAgreesWithCoreAten) {
  checkCase({"einsum batched matrix product",
             {{"a", f32({2, 3, 4})}, {"b", f32({2, 4, 5})}},
             N("r", "aten.einsum.default", "bij;bjk->bik, [%a, %b]"),
             N("r", "aten.bmm.default", "%a, %b")});
  checkCase({"einsum attention scores",
             {{"q", f32({2, 3, 4, 8})}, {"k", f32({2, 3, 5, 8})}},
             N("r", "aten.einsum.default", "bhqd;bhkd->bhqk, [%q, %k]"),
             N("q3", "aten.view.default", "%q, [6, 4, 8]") +
                 N("kt", "aten.permute.default", "%k, [0, 1, 3, 2]") +
                 N("kc", "aten.clone.default", "%kt", "memory_format: torch.contiguous_format") +
                 N("k3", "aten.view.default", "%kc, [6, 8, 5]") +
                 N("s", "aten.bmm.default", "%q3, %k3") +
                 N("r", "aten.view.default", "%s, [2, 3, 4, 5]")});
  checkCase({"einsum with one operand: transpose, diagonal, total",
             {{"a", f32({3, 3})}, {"b", f32({2, 3, 4})}},
             N("t", "aten.einsum.default", "ij->ji, [%a]") +
                 N("g", "aten.einsum.default", "ii->i, [%a]") +
                 N("s", "aten.einsum.default", "ijk->, [%b]"),
             N("t", "aten.permute.default", "%a, [1, 0]") + N("g", "aten.diagonal.default", "%a") +
                 N("s", "aten.sum.default", "%b"),
             "t, g, s"});
  checkCase({"einsum outer product and implicit output with an ellipsis",
             {{"a", f32({3})}, {"b", f32({4})}, {"x", f32({2, 3, 4})}, {"y", f32({4, 5})}},
             N("o", "aten.einsum.default", "i;j->ij, [%a, %b]") +
                 N("m", "aten.einsum.default", "...ij;jk, [%x, %y]"),
             N("u", "aten.unsqueeze.default", "%a, 1") + N("o", "aten.mul.Tensor", "%u, %b") +
                 N("v", "aten.view.default", "%x, [6, 4]") + N("mm", "aten.mm.default", "%v, %y") +
                 N("m", "aten.view.default", "%mm, [2, 3, 5]"),
             "o, m"});
  checkCase({"einsum of three operands, with and without a path",
             {{"a", f32({2, 3})}, {"b", f32({3, 4})}, {"c", f32({4, 5})}},
             N("p", "aten.einsum.default", "ij;jk;kl->il, [%a, %b, %c]") +
                 N("q", "aten.einsum.default", "ij;jk;kl->il, [%a, %b, %c]", "path: [1, 2, 0, 1]"),
             N("ab", "aten.mm.default", "%a, %b") + N("p", "aten.mm.default", "%ab, %c") +
                 N("bc", "aten.mm.default", "%b, %c") + N("q", "aten.mm.default", "%a, %bc"),
             "p, q"});
}

TEST(CompositeOps, ReductionsAgreeWithCoreAten) {
  std::vector<Input> x{{"x", f32({3, 5})}};
  checkCase({"std and var", x,
             N("a", "aten.std.correction", "%x, [1]", "correction: 0, keepdim: True") +
                 N("b", "aten.std.dim", "%x, [0]") + N("c", "aten.var.default", "%x"),
             N("va", "aten.var.correction", "%x, [1]", "correction: 0, keepdim: True") +
                 N("a", "aten.sqrt.default", "%va") +
                 N("vb", "aten.var.correction", "%x, [0]", "correction: 1") +
                 N("b", "aten.sqrt.default", "%vb") +
                 N("c", "aten.var.correction", "%x, None", "correction: 1"),
             "a, b, c"});
  checkCase({"std_mean", x,
             N("sm", "aten.std_mean.correction", "%x, [1]") + N("a", "operator.getitem", "%sm, 0") +
                 N("b", "operator.getitem", "%sm, 1"),
             N("va", "aten.var.correction", "%x, [1]", "correction: 1") +
                 N("a", "aten.sqrt.default", "%va") + N("b", "aten.mean.dim", "%x, [1]"),
             "a, b"});
  checkCase({"vector norms", x,
             N("a", "aten.linalg_vector_norm.default", "%x, 2, [1]") +
                 N("b", "aten.linalg_vector_norm.default", "%x, 1") +
                 N("c", "aten.linalg_vector_norm.default", "%x, inf, [0], True") +
                 N("d", "aten.norm.ScalarOpt_dim", "%x, 3, [1]") + N("e", "aten.norm.Scalar", "%x"),
             N("sq", "aten.mul.Tensor", "%x, %x") + N("s2", "aten.sum.dim_IntList", "%sq, [1]") +
                 N("a", "aten.sqrt.default", "%s2") + N("ab", "aten.abs.default", "%x") +
                 N("b", "aten.sum.default", "%ab") + N("c", "aten.amax.default", "%ab, [0], True") +
                 N("cu", "aten.pow.Tensor_Scalar", "%ab, 3") +
                 N("s3", "aten.sum.dim_IntList", "%cu, [1]") +
                 N("d", "aten.pow.Tensor_Scalar", "%s3, 0.3333333333333333") +
                 N("s4", "aten.sum.default", "%sq") + N("e", "aten.sqrt.default", "%s4"),
             "a, b, c, d, e"});
}

// ---- Pointwise spellings ----

TEST(CompositeOps, ScalarFormsAndSpellingsAgreeWithCoreAten) {
  std::vector<Input> xyc{{"x", f32({2, 3})}, {"y", f32({2, 3})}, {"c", ty("b8", {2, 3})}};
  checkCase({"where with scalars", xyc,
             N("a", "aten.where.ScalarOther", "%c, %x, 2.5") +
                 N("b", "aten.where.ScalarSelf", "%c, -1, %y") +
                 N("d", "aten.where.Scalar", "%c, 1, 2"),
             N("s", "aten.scalar_tensor.default", "2.5", "dtype: torch.float32") +
                 N("a", "aten.where.self", "%c, %x, %s") +
                 N("t", "aten.scalar_tensor.default", "-1", "dtype: torch.float32") +
                 N("b", "aten.where.self", "%c, %t, %y") +
                 N("one", "aten.scalar_tensor.default", "1", "dtype: torch.int64") +
                 N("two", "aten.scalar_tensor.default", "2", "dtype: torch.int64") +
                 N("d", "aten.where.self", "%c, %one, %two"),
             "a, b, d"});
  checkCase({"masked_fill",
             {{"x", f32({2, 3})}, {"c", ty("b8", {2, 3})}, {"v", ty("f64", {})}},
             N("a", "aten.masked_fill.Scalar", "%x, %c, -1.0") +
                 N("b", "aten.masked_fill.Tensor", "%x, %c, %v"),
             N("s", "aten.scalar_tensor.default", "-1.0", "dtype: torch.float32") +
                 N("a", "aten.where.self", "%c, %s, %x") +
                 N("vf", "aten._to_copy.default", "%v", "dtype: torch.float32") +
                 N("b", "aten.where.self", "%c, %vf, %x"),
             "a, b"});
  checkCase({"masked_fill of an integer tensor truncates the value",
             {{"x", ty("i64", {4})}, {"c", ty("b8", {4})}},
             N("r", "aten.masked_fill.Scalar", "%x, %c, 2.7"),
             N("s", "aten.scalar_tensor.default", "2", "dtype: torch.int64") +
                 N("r", "aten.where.self", "%c, %s, %x")});
  checkCase({"operator spellings",
             {{"p", ty("b8", {4})}, {"q", ty("b8", {4})}, {"x", f32({4})}, {"y", f32({4})}},
             N("a", "aten.__and__.Tensor", "%p, %q") + N("b", "aten.__or__.Tensor", "%p, %q") +
                 N("c", "aten.__xor__.Scalar", "%p, True") + N("d", "aten.min.other", "%x, %y") +
                 N("e", "aten.max.other", "%x, %y") + N("f", "aten.multiply.Tensor", "%x, %y") +
                 N("g", "aten.clip.default", "%x, -0.5, 0.5") +
                 N("h", "aten.greater_equal.Scalar", "%x, 0"),
             N("a", "aten.bitwise_and.Tensor", "%p, %q") +
                 N("b", "aten.bitwise_or.Tensor", "%p, %q") +
                 N("c", "aten.bitwise_xor.Scalar", "%p, True") +
                 N("d", "aten.minimum.default", "%x, %y") +
                 N("e", "aten.maximum.default", "%x, %y") + N("f", "aten.mul.Tensor", "%x, %y") +
                 N("g", "aten.clamp.default", "%x, -0.5, 0.5") + N("h", "aten.ge.Scalar", "%x, 0"),
             "a, b, c, d, e, f, g, h"});
  checkCase({"rsub and floor_divide",
             {{"x", f32({4})}, {"y", f32({4})}},
             N("a", "aten.rsub.Tensor", "%x, %y", "alpha: 2") +
                 N("b", "aten.floor_divide.default", "%x, %y"),
             N("m", "aten.mul.Tensor", "%x, 2") + N("a", "aten.sub.Tensor", "%y, %m") +
                 N("q", "aten.div.Tensor", "%x, %y") + N("b", "aten.floor.default", "%q"),
             "a, b"});
}

// ---- In-place ops ----

TEST(CompositeOps, InPlaceOpsBecomeFunctionalForLaterReaders) {
  checkCase({"relu_ of an intermediate read again later",
             {{"x", f32({2, 3})}},
             N("a", "aten.add.Tensor", "%x, 1") + N("b", "aten.relu_.default", "%a") +
                 N("c", "aten.mul.Tensor", "%a, 2"),
             N("a", "aten.add.Tensor", "%x, 1") + N("b", "aten.relu.default", "%a") +
                 N("c", "aten.mul.Tensor", "%b, 2"),
             "b, c"});
  checkCase({"add_ into a graph input",
             {{"x", f32({2, 3})}, {"z", f32({3})}},
             N("y", "aten.add_.Tensor", "%x, %z", "alpha: 2") + N("w", "aten.mul.Tensor", "%x, 3"),
             N("y", "aten.add.Tensor", "%x, %z", "alpha: 2") + N("w", "aten.mul.Tensor", "%y, 3"),
             "y, w"});
  checkCase({"a chain: hardtanh_, masked_fill_, mul_",
             {{"x", f32({4})}, {"c", ty("b8", {4})}},
             N("a", "aten.clone.default", "%x") +
                 N("b", "aten.hardtanh_.default", "%a, -0.5, 0.5") +
                 N("d", "aten.masked_fill_.Scalar", "%a, %c, 2.0") +
                 N("e", "aten.mul_.Scalar", "%a, 3") + N("r", "aten.add.Tensor", "%a, 0"),
             N("b", "aten.clamp.default", "%x, -0.5, 0.5") +
                 N("s", "aten.scalar_tensor.default", "2.0", "dtype: torch.float32") +
                 N("d", "aten.where.self", "%c, %s, %b") + N("e", "aten.mul.Tensor", "%d, 3") +
                 N("r", "aten.add.Tensor", "%e, 0")});
  checkCase({"a comparison in place keeps the tensor's dtype",
             {{"x", f32({5})}},
             N("a", "aten.clone.default", "%x") + N("b", "aten.ge_.Scalar", "%a, 0"),
             N("g", "aten.ge.Scalar", "%x, 0") +
                 N("b", "aten._to_copy.default", "%g", "dtype: torch.float32"),
             "b"});
  checkCase({"zero_, fill_ and copy_",
             {{"x", f32({2, 3})}, {"s", f32({3})}},
             N("a", "aten.clone.default", "%x") + N("z", "aten.zero_.default", "%a") +
                 N("b", "aten.add.Tensor", "%a, 1") + N("c", "aten.clone.default", "%x") +
                 N("d", "aten.copy_.default", "%c, %s") + N("e", "aten.mul.Tensor", "%c, 1") +
                 N("f", "aten.clone.default", "%x") + N("g", "aten.fill_.Scalar", "%f, 4") +
                 N("h", "aten.detach_.default", "%g"),
             N("b", "aten.full.default", "[2, 3], 1.0", "dtype: torch.float32") +
                 N("e", "aten.expand.default", "%s, [2, 3]") +
                 N("h", "aten.full.default", "[2, 3], 4.0", "dtype: torch.float32"),
             "b, e, h"});
}

TEST(CompositeOps, UpsamplingDefaultFormsRefuseWhatTheVecFormsCannotSay) {
  // An output size other than the scale's (floor(5 x 1.5) = 7), a scale for one dimension only.
  EXPECT_NE(error(program({{"x", f32({1, 2, 5, 4})}},
                          N("r", "aten.upsample_nearest2d.default", "%x, [8, 8], 1.5, 2.0")))
                .find("the size the scale gives differs"),
            std::string::npos);
  EXPECT_NE(error(program({{"x", f32({1, 2, 5, 4})}},
                          N("r", "aten.upsample_nearest2d.default", "%x, [7, 8], 1.5")))
                .find("a scale for only some of its dimensions is not supported"),
            std::string::npos);
}

TEST(CompositeOps, InPlaceErrorsArePyTorchs) {
  EXPECT_NE(
      error(program({{"x", ty("i64", {3})}, {"y", f32({3})}}, N("r", "aten.add_.Tensor", "%x, %y")))
          .find("result type Float can't be cast to the desired output type Long"),
      std::string::npos);
  EXPECT_NE(
      error(program({{"x", f32({3})}, {"y", f32({2, 3})}}, N("r", "aten.add_.Tensor", "%x, %y")))
          .find("output with shape [3] doesn't match the broadcast shape [2, 3]"),
      std::string::npos);
  // A write through a broadcast view has no functional form (PyTorch refuses it too).
  std::string expanded =
      error(program({{"x", f32({3})}}, N("e", "aten.expand.default", "%x, [2, 3]") +
                                           N("r", "aten.relu_.default", "%e")));
  EXPECT_NE(expanded.find("unsupported operation: more than one element of the written-to "
                          "tensor refers to a single memory location"),
            std::string::npos)
      << expanded;
  // A view fxkit cannot write back through (a diagonal) whose base is read later.
  std::string diagonal =
      error(program({{"x", f32({3, 3})}},
                    N("a", "aten.clone.default", "%x") + N("g", "aten.diagonal.default", "%a") +
                        N("b", "aten.relu_.default", "%g") + N("r", "aten.add.Tensor", "%a, 1")));
  EXPECT_NE(diagonal.find("an in-place write through a view made by "
                          "'torch.ops.aten.diagonal.default' ('g') is not supported"),
            std::string::npos)
      << diagonal;
}

TEST(CompositeOps, WritesThroughViewsUpdateEveryAlias) {
  checkCase({"a view made before the write, read after it",
             {{"x", f32({2, 3})}},
             N("a", "aten.clone.default", "%x") + N("v", "aten.view.default", "%a, [6]") +
                 N("b", "aten.relu_.default", "%a") + N("r", "aten.mul.Tensor", "%v, 2"),
             N("b", "aten.relu.default", "%x") + N("v", "aten.view.default", "%b, [6]") +
                 N("r", "aten.mul.Tensor", "%v, 2")});
  checkCase({"a write through a select updates its base",
             {{"x", f32({2, 3})}},
             N("a", "aten.clone.default", "%x") + N("v", "aten.select.int", "%a, 0, 1") +
                 N("b", "aten.relu_.default", "%v") + N("r", "aten.mul.Tensor", "%a, 2"),
             N("s", "aten.select.int", "%x, 0, 1") + N("l", "aten.relu.default", "%s") +
                 N("u", "aten.select_scatter.default", "%x, %l, 0, 1") +
                 N("r", "aten.mul.Tensor", "%u, 2")});
  checkCase({"a write through a transposed slice, its sibling view read later",
             {{"x", f32({3, 4})}},
             N("a", "aten.clone.default", "%x") + N("t", "aten.permute.default", "%a, [1, 0]") +
                 N("s", "aten.slice.Tensor", "%t, 0, 1, 3") +
                 N("w", "aten.select.int", "%a, 1, 0") + N("m", "aten.mul_.Scalar", "%s, 10") +
                 N("r", "aten.add.Tensor", "%w, 0") + N("q", "aten.add.Tensor", "%a, 0"),
             // Columns 1 and 2 of x scaled by 10; the sibling view (column 0) is unchanged.
             N("c", "aten.slice.Tensor", "%x, 1, 1, 3") + N("c10", "aten.mul.Tensor", "%c, 10") +
                 N("q", "aten.slice_scatter.default", "%x, %c10, 1, 1, 3") +
                 N("w", "aten.select.int", "%q, 1, 0") + N("r", "aten.add.Tensor", "%w, 0"),
             "r, q"});
  // BART's shift_tokens_right: zeros, a copy into a slice, a fill of a select made later, a
  // masked_fill_ of the whole.
  checkCase({"shift_tokens_right",
             {{"x", ty("i64", {2, 5})}, {"s", ty("i64", {})}},
             N("z", "aten.new_zeros.default", "%x, [2, 5]") +
                 N("p", "aten.slice.Tensor", "%x, 1, 0, -1") + N("c", "aten.clone.default", "%p") +
                 N("t", "aten.slice.Tensor", "%z, 1, 1, 9223372036854775807") +
                 N("cp", "aten.copy_.default", "%t, %c") + N("f", "aten.select.int", "%z, 1, 0") +
                 N("fl", "aten.fill_.Tensor", "%f, %s") + N("e", "aten.eq.Scalar", "%z, 2") +
                 N("r", "aten.masked_fill_.Scalar", "%z, %e, 1"),
             N("p", "aten.slice.Tensor", "%x, 1, 0, 4") +
                 N("st", "aten.unsqueeze.default", "%s, 0") +
                 N("se", "aten.expand.default", "%st, [2]") +
                 N("su", "aten.unsqueeze.default", "%se, 1") +
                 N("sh", "aten.cat.default", "[%su, %p], 1") + N("e", "aten.eq.Scalar", "%sh, 2") +
                 N("one", "aten.scalar_tensor.default", "1", "dtype: torch.int64") +
                 N("r", "aten.where.self", "%e, %one, %sh"),
             "r",
             0,
             3});
}

TEST(CompositeOps, NamedTransposesAndWeightNormAgreeWithCoreAten) {
  checkCase({"x.T, x.mT, x.H",
             {{"x", f32({2, 3, 4})}, {"m", f32({3, 4})}},
             N("a", "aten.numpy_T.default", "%x") + N("b", "aten.mT.default", "%x") +
                 N("c", "aten.matrix_H.default", "%m") + N("d", "aten.adjoint.default", "%m"),
             N("a", "aten.permute.default", "%x, [2, 1, 0]") +
                 N("b", "aten.permute.default", "%x, [0, 2, 1]") +
                 N("c", "aten.permute.default", "%m, [1, 0]") +
                 N("d", "aten.permute.default", "%m, [1, 0]"),
             "a, b, c, d"});
  std::string manual = N("sq", "aten.mul.Tensor", "%v, %v") +
                       N("ss", "aten.sum.dim_IntList", "%sq, [0, 1], True") +
                       N("n", "aten.sqrt.default", "%ss") + N("q", "aten.div.Tensor", "%g, %n");
  checkCase({"_weight_norm over the last dim (the fused interface)",
             {{"v", f32({4, 3, 5})}, {"g", f32({1, 1, 5})}},
             N("r", "aten._weight_norm.default", "%v, %g, 2"),
             manual + N("r", "aten.mul.Tensor", "%v, %q")});
  checkCase({"_weight_norm over a middle dim (norm_except_dim)",
             {{"v", f32({4, 3, 5})}, {"g", f32({1, 3, 1})}},
             N("r", "aten._weight_norm.default", "%v, %g, 1"),
             N("sq", "aten.mul.Tensor", "%v, %v") +
                 N("ss", "aten.sum.dim_IntList", "%sq, [0, 2], True") +
                 N("n", "aten.sqrt.default", "%ss") + N("q", "aten.div.Tensor", "%g, %n") +
                 N("r", "aten.mul.Tensor", "%v, %q")});
}

// ---- Hand-worked values ----

TEST(CompositeOps, HandWorkedValues) {
  Tensor x23 = fromValues({2, 3}, {-2, -0.5, 0, 0.5, 2, 7});
  // silu(x) = x * sigmoid(x).
  Tensor s = runSingle(program({{"x", ""}}, N("r", "aten.silu.default", "%x")), {x23});
  std::vector<double> silu;
  for (double v : flat(x23))
    silu.push_back(v / (1 + std::exp(-v)));
  expectValues(s, silu);
  // relu6, hardtanh_ on a copy.
  expectValues(runSingle(program({{"x", ""}}, N("r", "aten.relu6.default", "%x")), {x23}),
               {0, 0, 0, 0.5, 2, 6});
  // linear: [[1, 2], [3, 4]] @ [[1, 0], [1, 1], [0, 2]]^T + [10, 20, 30].
  Tensor a = fromValues({2, 2}, {1, 2, 3, 4}), w = fromValues({3, 2}, {1, 0, 1, 1, 0, 2}),
         b = fromValues({3}, {10, 20, 30});
  expectValues(runSingle(program({{"a", ""}, {"w", ""}, {"b", ""}},
                                 N("r", "aten.linear.default", "%a, %w, %b")),
                         {a, w, b}),
               {11, 23, 34, 13, 27, 38});
  // batch_norm in evaluation: (x - mean) / sqrt(var + eps) * w + b per channel.
  Tensor x = fromValues({1, 2, 2}, {1, 3, 5, 9}), mean = fromValues({2}, {2, 7}),
         var = fromValues({2}, {4, 1}), scale = fromValues({2}, {1, 2}),
         shift = fromValues({2}, {0, 1});
  expectValues(runSingle(program({{"x", ""}, {"m", ""}, {"v", ""}, {"w", ""}, {"b", ""}},
                                 N("r", "aten.batch_norm.default",
                                   "%x, %w, %b, %m, %v, False, 0.1, 0.0, False")),
                         {x, mean, var, scale, shift}),
               {-0.5, 0.5, -3, 5}, 1e-6);
  // one_hot, roll, tril.
  Tensor idx = fromValues({3}, {2, 0, 1}, DType::Int64);
  expectValues(runSingle(program({{"i", ""}}, N("r", "aten.one_hot.default", "%i, 3")), {idx}),
               {0, 0, 1, 1, 0, 0, 0, 1, 0});
  Tensor r6 = fromValues({6}, {0, 1, 2, 3, 4, 5});
  expectValues(runSingle(program({{"x", ""}}, N("r", "aten.roll.default", "%x, [2]")), {r6}),
               {4, 5, 0, 1, 2, 3});
  expectValues(runSingle(program({{"x", ""}}, N("r", "aten.roll.default", "%x, [-8]")), {r6}),
               {2, 3, 4, 5, 0, 1});
  Tensor m33 = fromValues({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  expectValues(runSingle(program({{"x", ""}}, N("r", "aten.tril.default", "%x")), {m33}),
               {1, 0, 0, 4, 5, 0, 7, 8, 9});
  expectValues(runSingle(program({{"x", ""}}, N("r", "aten.triu.default", "%x, 1")), {m33}),
               {0, 2, 3, 0, 0, 6, 0, 0, 0});
  // diff and pad (circular, reflect).
  expectValues(runSingle(program({{"x", ""}}, N("r", "aten.diff.default", "%x, 2")),
                         {fromValues({4}, {1, 4, 9, 16})}),
               {2, 2});
  Tensor p = fromValues({1, 1, 4}, {1, 2, 3, 4});
  expectValues(
      runSingle(program({{"x", ""}}, N("r", "aten.pad.default", "%x, [2, 1], circular")), {p}),
      {3, 4, 1, 2, 3, 4, 1});
  expectValues(
      runSingle(program({{"x", ""}}, N("r", "aten.pad.default", "%x, [2, 1], reflect")), {p}),
      {3, 2, 1, 2, 3, 4, 3});
  // _safe_softmax: a row of -inf gives zeros, not NaN.
  Tensor rows = fromValues({2, 2}, {0, 0, -INFINITY, -INFINITY});
  expectValues(
      runSingle(program({{"x", ""}}, N("r", "aten._safe_softmax.default", "%x, -1")), {rows}),
      {0.5, 0.5, 0, 0});
  // lerp picks its form by the weight: 0 + 0.25 * 10 and 20 - 10 * 0.25.
  Tensor from = fromValues({2}, {0, 10}), to = fromValues({2}, {10, 20});
  expectValues(
      runSingle(program({{"s", ""}, {"e", ""}}, N("r", "aten.lerp.Scalar", "%s, %e, 0.25")),
                {from, to}),
      {2.5, 12.5});
  expectValues(
      runSingle(program({{"s", ""}, {"e", ""}}, N("r", "aten.lerp.Scalar", "%s, %e, 0.75")),
                {from, to}),
      {7.5, 17.5});
  // upsample_nearest2d.default reads source floor(o / scale) where a scale is given (5 -> 6 at
  // 1.3: 0, 0, 1, 2, 3, 3) and floor(o * 5 / 6) without (0, 0, 1, 2, 3, 4), as PyTorch does.
  Tensor row = fromValues({1, 1, 1, 5}, {0, 1, 2, 3, 4});
  expectValues(runSingle(program({{"x", ""}},
                                 N("r", "aten.upsample_nearest2d.default", "%x, [1, 6], 1.0, 1.3")),
                         {row}),
               {0, 0, 1, 2, 3, 3});
  expectValues(
      runSingle(program({{"x", ""}}, N("r", "aten.upsample_nearest2d.default", "%x, [1, 6]")),
                {row}),
      {0, 0, 1, 2, 3, 4});
  // nearest-exact reads floor((o + 0.5) * scale): 0, 1, 2, 2, 3, 4 at 5 / 6; 0, 1, 1, 2, 3, 4
  // at 1 / 1.3; and its 1-d form likewise.
  expectValues(runSingle(program({{"x", ""}},
                                 N("r", "aten._upsample_nearest_exact2d.default", "%x, [1, 6]")),
                         {row}),
               {0, 1, 2, 2, 3, 4});
  expectValues(runSingle(program({{"x", ""}}, N("r", "aten._upsample_nearest_exact2d.default",
                                                "%x, [1, 6], 1.0, 1.3")),
                         {row}),
               {0, 1, 1, 2, 3, 4});
  expectValues(
      runSingle(program({{"x", ""}}, N("r", "aten._upsample_nearest_exact1d.vec", "%x, [6], None")),
                {fromValues({1, 1, 5}, {0, 1, 2, 3, 4})}),
      {0, 1, 2, 2, 3, 4});
  // Their gradients add each output's gradient at the pixel it copied: a doubling (sources 0, 0,
  // 1, 1), 2 -> 3 (nearest 0, 0, 1; exact 0, 1, 1) and 5 -> 6 at scale 1.3 (0, 0, 1, 2, 3, 3).
  auto backward = [&](const std::string &op, const Tensor &g, const std::string &rest) {
    return runSingle(program({{"g", ""}}, N("r", op, "%g, " + rest)), {g});
  };
  expectValues(backward("aten.upsample_nearest2d_backward.default",
                        fromValues({1, 1, 1, 4}, {1, 2, 3, 4}), "[1, 4], [1, 1, 1, 2]"),
               {3, 7});
  Tensor g3 = fromValues({1, 1, 1, 3}, {1, 2, 3});
  expectValues(backward("aten.upsample_nearest2d_backward.default", g3, "[1, 3], [1, 1, 1, 2]"),
               {3, 3});
  expectValues(
      backward("aten._upsample_nearest_exact2d_backward.default", g3, "[1, 3], [1, 1, 1, 2]"),
      {1, 5});
  expectValues(backward("aten.upsample_nearest2d_backward.default",
                        fromValues({1, 1, 1, 6}, {1, 2, 3, 4, 5, 6}),
                        "[1, 6], [1, 1, 1, 5], 1.0, 1.3"),
               {3, 3, 4, 11, 0});
  // And each is the adjoint of its forward: <up(x), g> = <x, up_backward(g)>.
  for (const char *mode : {"upsample_nearest2d", "_upsample_nearest_exact2d"}) {
    Tensor x = Tensor::random(DType::Float64, {2, 3, 5, 7}, 21).take();
    Tensor g = Tensor::random(DType::Float64, {2, 3, 9, 12}, 22).take();
    Tensor y = runSingle(
        program({{"x", ""}}, N("r", "aten." + std::string(mode) + ".vec", "%x, [9, 12], None")),
        {x});
    Tensor back =
        backward("aten." + std::string(mode) + "_backward.default", g, "[9, 12], [2, 3, 5, 7]");
    double left = 0, right = 0;
    Tensor::forEachIndex(y.sizes(), [&](std::span<const int64_t> i) {
      left += y.getDouble(std::vector<int64_t>(i.begin(), i.end())) *
              g.getDouble(std::vector<int64_t>(i.begin(), i.end()));
    });
    Tensor::forEachIndex(x.sizes(), [&](std::span<const int64_t> i) {
      right += x.getDouble(std::vector<int64_t>(i.begin(), i.end())) *
               back.getDouble(std::vector<int64_t>(i.begin(), i.end()));
    });
    EXPECT_NEAR(left, right, 1e-9) << mode;
  }
  // upsample_nearest1d doubles each element.
  expectValues(
      runSingle(program({{"x", ""}}, N("r", "aten.upsample_nearest1d.vec", "%x, [6], None")),
                {fromValues({1, 1, 3}, {1, 2, 3})}),
      {1, 1, 2, 2, 3, 3});
  // upsample_nearest3d: depth and width of [1, 1, 2, 1, 2] (values 2d + w) to 4 each read
  // sources 0, 0, 1, 1 in both.
  Tensor cube = fromValues({1, 1, 2, 1, 2}, {0, 1, 2, 3});
  expectValues(
      runSingle(program({{"x", ""}}, N("r", "aten.upsample_nearest3d.vec", "%x, [4, 1, 4], None")),
                {cube}),
      {0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3});
  // With scales (1.5, 1, 1.3) on [1, 1, 2, 1, 5] (values 5d + w): depth 3 from sources
  // floor(o / 1.5) = 0, 0, 1 and width 6 from floor(o / 1.3) = 0, 0, 1, 2, 3, 3; the .default
  // form with the same scales and sizes alike.
  Tensor slab = fromValues({1, 1, 2, 1, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  const std::vector<double> scaled = {0, 0, 1, 2, 3, 3, 0, 0, 1, 2, 3, 3, 5, 5, 6, 7, 8, 8};
  expectValues(runSingle(program({{"x", ""}}, N("r", "aten.upsample_nearest3d.vec",
                                                "%x, None, [1.5, 1.0, 1.3]")),
                         {slab}),
               scaled);
  expectValues(runSingle(program({{"x", ""}}, N("r", "aten.upsample_nearest3d.default",
                                                "%x, [3, 1, 6], 1.5, 1.0, 1.3")),
                         {slab}),
               scaled);
  // upsample_trilinear3d: a linear function of depth and width stays one (align_corners:
  // sources 0, 0.5, 1 along both).
  expectValues(runSingle(program({{"x", ""}}, N("r", "aten.upsample_trilinear3d.vec",
                                                "%x, [3, 1, 3], True, None")),
                         {cube}),
               {0, 0.5, 1, 1, 1.5, 2, 2, 2.5, 3});
  // Half-pixel centres on random values against trilinear interpolation written out (three
  // axes of linearSource: i0, i1 and lambda per axis, eight corners).
  {
    Tensor v = Tensor::random(DType::Float64, {1, 2, 3, 4, 5}, 17).take();
    Tensor got = runSingle(
        program({{"x", ""}}, N("r", "aten.upsample_trilinear3d.vec", "%x, [5, 3, 8], False, None")),
        {v});
    const int64_t in[3] = {3, 4, 5}, out[3] = {5, 3, 8};
    std::vector<double> want;
    for (int64_t c = 0; c < 2; ++c)
      for (int64_t od = 0; od < 5; ++od)
        for (int64_t oh = 0; oh < 3; ++oh)
          for (int64_t ow = 0; ow < 8; ++ow) {
            const int64_t o[3] = {od, oh, ow};
            LinearSource<double> s[3];
            for (int a = 0; a < 3; ++a)
              s[a] = linearSource<double>(o[a], in[a], out[a], false, std::nullopt);
            double sum = 0;
            for (int corner = 0; corner < 8; ++corner) {
              double w = 1;
              int64_t at[3];
              for (int a = 0; a < 3; ++a) {
                const bool second = (corner >> a) & 1;
                at[a] = second ? s[a].i1 : s[a].i0;
                w *= second ? s[a].lambda1 : 1 - s[a].lambda1;
              }
              sum += w * v.getDouble(std::vector<int64_t>{0, c, at[0], at[1], at[2]});
            }
            want.push_back(sum);
          }
    expectValues(got, want, 1e-12);
  }
  // A channels-last input gives a channels-last result, as PyTorch's kernels suggest.
  std::string last =
      decomposed(program({{"x", "f32[1, 2, 2, 2, 2][16, 1, 8, 4, 2]cpu"}},
                         N("r", "aten.upsample_nearest3d.vec", "%x, [4, 4, 4], None")));
  EXPECT_NE(last.find("channels_last_3d"), std::string::npos) << last;
  // nearest-exact in 3-d: depth 2 -> 3 reads floor((o + 0.5) * 2 / 3) = 0, 1, 1, width 5 -> 6
  // reads 0, 1, 2, 2, 3, 4.
  expectValues(runSingle(program({{"x", ""}},
                                 N("r", "aten._upsample_nearest_exact3d.default", "%x, [3, 1, 6]")),
                         {slab}),
               {0, 1, 2, 2, 3, 4, 5, 6, 7, 7, 8, 9, 5, 6, 7, 7, 8, 9});
  // adaptive_max_pool2d of a 3 x 5 plane to 2 x 3: rows 0-1 and 1-2 (floor(o * 3 / 2) to
  // ceil((o + 1) * 3 / 2)), columns 0-1, 1-3 and 3-4; indices flattened over the plane, the
  // first of equal maxima.
  Tensor plane = fromValues({1, 1, 3, 5}, {1, 5, 2, 0, 3, 4, 0, 6, 1, 1, 2, 2, 0, 9, -1});
  auto pooled = [&](const Tensor &x, const std::string &size, int item) {
    return runSingle(
        program({{"x", ""}}, N("p", "aten.adaptive_max_pool2d.default", "%x, " + size) +
                                 N("r", "operator.getitem", "%p, " + std::to_string(item))),
        {x});
  };
  expectValues(pooled(plane, "[2, 3]", 0), {5, 6, 3, 4, 9, 9});
  expectValues(pooled(plane, "[2, 3]", 1), {1, 7, 4, 5, 13, 13});
  // Windows of two: one of -inf keeps its first position; a NaN wins (the last NaN).
  Tensor special = fromValues({1, 1, 1, 6}, {-INFINITY, -INFINITY, NAN, NAN, 1, NAN});
  Tensor specialValues = pooled(special, "[1, 3]", 0);
  EXPECT_EQ(specialValues.getDouble(std::vector<int64_t>{0, 0, 0, 0}), -INFINITY);
  EXPECT_TRUE(std::isnan(specialValues.getDouble(std::vector<int64_t>{0, 0, 0, 1})));
  EXPECT_TRUE(std::isnan(specialValues.getDouble(std::vector<int64_t>{0, 0, 0, 2})));
  expectValues(pooled(special, "[1, 3]", 1), {0, 3, 5});
  // Its backward adds each output's gradient at its index (13 twice: 5 + 6).
  expectValues(
      runSingle(program({{"g", ""}, {"x", ""}, {"i", ""}},
                        N("r", "aten.adaptive_max_pool2d_backward.default", "%g, %x, %i")),
                {fromValues({1, 1, 2, 3}, {1, 2, 3, 4, 5, 6}), plane, pooled(plane, "[2, 3]", 1)}),
      {0, 1, 0, 0, 3, 4, 0, 2, 0, 0, 0, 0, 0, 11, 0});
  // adaptive_max_pool1d: 5 to 2 reads 0-2 and 2-4.
  Tensor line = fromValues({1, 1, 5}, {3, 1, 4, 1, 5});
  for (int item : {0, 1})
    expectValues(runSingle(program({{"x", ""}},
                                   N("p", "aten.adaptive_max_pool1d.default", "%x, [2]") +
                                       N("r", "operator.getitem", "%p, " + std::to_string(item))),
                           {line}),
                 item == 0 ? std::vector<double>{4, 5} : std::vector<double>{2, 4});
  // A fully masked attention row: the flash kernel and the math form agree on finite rows.
  Tensor q = fromValues({1, 1, 1, 2}, {1, 0}), k = fromValues({1, 1, 2, 2}, {1, 0, 0, 1}),
         v = fromValues({1, 1, 2, 2}, {10, 0, 0, 10});
  // scores [1, 0] * scale 1 -> softmax [e/(e+1), 1/(e+1)].
  double e = std::exp(1.0);
  expectValues(runSingle(program({{"q", ""}, {"k", ""}, {"v", ""}},
                                 N("r", "aten.scaled_dot_product_attention.default", "%q, %k, %v",
                                   "scale: 1.0")),
                         {q, k, v}),
               {10 * e / (e + 1), 10 / (e + 1)});
}

// ---- Dynamic sizes ----

TEST(CompositeOps, SymbolicSizesBecomeSymSizeNodes) {
  // linear over a batch of symbolic size: the flattened row count is s0 * 3, as export writes it.
  std::string text =
      program({{"x", "f32[s0, 3, 4][12, 4, 1]cpu"}, {"w", f32({5, 4})}, {"b", f32({5})}},
              N("r", "aten.linear.default", "%x, %w, %b"));
  std::string out = decomposed(text);
  EXPECT_NE(out.find("torch.ops.aten.sym_size.int](args = (%x, 0)"), std::string::npos) << out;
  EXPECT_NE(out.find("operator.mul"), std::string::npos) << out;
  Tensor x = Tensor::random(DType::Float32, {2, 3, 4}, 1).take();
  Tensor w = Tensor::random(DType::Float32, {5, 4}, 2).take();
  Tensor b = Tensor::random(DType::Float32, {5}, 3).take();
  std::vector<RuntimeValue> in{RuntimeValue{x}, RuntimeValue{w}, RuntimeValue{b}};
  std::string core =
      program({{"x", ""}, {"w", ""}, {"b", ""}}, N("wt", "aten.permute.default", "%w, [1, 0]") +
                                                     N("v", "aten.view.default", "%x, [-1, 4]") +
                                                     N("m", "aten.addmm.default", "%b, %v, %wt") +
                                                     N("r", "aten.view.default", "%m, [2, 3, 5]"));
  expectClose(run(text, in).at(0), run(core, in).at(0), "symbolic linear");
  // chunk along a static dim of a tensor with a symbolic batch: split_with_sizes.
  std::string chunk =
      decomposed(program({{"x", "f32[s0, 6][6, 1]cpu"}}, N("c", "aten.chunk.default", "%x, 3, 1") +
                                                             N("r", "operator.getitem", "%c, 2")));
  EXPECT_NE(chunk.find("split_with_sizes.default](args = (%x, [2, 2, 2], 1)"), std::string::npos)
      << chunk;
  // Along a symbolic dim the number of pieces depends on its value, which PyTorch guards on.
  Graph g =
      parsed(program({{"x", "f32[s0, 2][2, 1]cpu"}},
                     N("c", "aten.chunk.default", "%x, 3") + N("r", "operator.getitem", "%c, 0")));
  auto r = decomposeCompositeOps(g);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("chunk of a dimension of symbolic size s0"), std::string::npos)
      << r.error().message;
}

// ---- Higher-order wrappers ----

TEST(CompositeOps, WrapWithSetGradEnabledIsInlined) {
  std::string main =
      "graph():\n"
      "    %x : [num_users=1] = placeholder[target=x]\n"
      "    %y : [num_users=1] = placeholder[target=y]\n"
      "    %submod_1 : [num_users=1] = get_attr[target=submod_1]\n"
      "    %w : [num_users=2] = call_function[target=torch.ops.higher_order."
      "wrap_with_set_grad_enabled](args = (False, %submod_1, %x, %y), kwargs = {})\n"
      "    %a : [num_users=1] = call_function[target=operator.getitem](args = (%w, 0), "
      "kwargs = {})\n"
      "    %b : [num_users=1] = call_function[target=operator.getitem](args = (%w, 1), "
      "kwargs = {})\n"
      "    %r : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = "
      "(%a, %b), kwargs = {})\n"
      "    return (r,)\n";
  std::string body =
      program({{"x_1", ""}, {"y_1", ""}},
              N("mul", "aten.mul.Tensor", "%x_1, %y_1") + N("lin", "aten.silu.default", "%mul") +
                  N("sub", "aten.sub.Tensor", "%x_1, %y_1"),
              "lin, sub");
  Graph g = parsed(main);
  // Without its body (FX text carries no submodules) the wrapper cannot be inlined.
  {
    Graph bare = g.clone();
    auto r = decomposeCompositeOps(bare);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("submodule 'submod_1', is not in the graph"),
              std::string::npos);
  }
  Graph sub = parsed(body);
  sub.moduleName = "submod_1";
  g.submodules.push_back(std::make_shared<const Graph>(std::move(sub)));
  Tensor x = fromValues({3}, {1, 2, 3}), y = fromValues({3}, {2, 0, -1});
  registerReferenceKernels();
  Graph copy = g.clone();
  std::vector<RuntimeValue> in{RuntimeValue{x}, RuntimeValue{y}};
  auto r = interpretGraph(copy, in);
  ASSERT_TRUE(r) << r.error().str();
  std::vector<double> want;
  for (size_t i = 0; i < 3; ++i) {
    double m = flat(x)[i] * flat(y)[i];
    want.push_back(m / (1 + std::exp(-m)) + flat(x)[i] - flat(y)[i]);
  }
  expectValues(*r->outputs.at(0).tensor(), want);
  for (const Node *n : copy)
    EXPECT_EQ(n->target().find("higher_order"), std::string_view::npos) << n->name();
  EXPECT_EQ(copy.find("submod_1"), nullptr);
}

// ---- Errors ----

TEST(CompositeOps, ErrorsArePyTorchs) {
  has(error(program({{"x", ty("f32", {})}, {"w", f32({3, 2})}},
                    N("r", "aten.linear.default", "%x, %w"))),
      "both arguments to linear need to be at least 1D, but they are 0D and 2D");
  has(error(program({{"x", ty("i64", {3})}}, N("r", "aten.one_hot.default", "%x"))),
      "num_classes=-1");
  has(error(program({{"x", f32({3})}}, N("r", "aten.one_hot.default", "%x, 4"))),
      "one_hot is only applicable to index tensor of type LongTensor.");
  has(error(program({{"x", f32({4})}},
                    N("c", "aten.chunk.default", "%x, 0") + N("r", "operator.getitem", "%c, 0"))),
      "chunk expects `chunks` to be greater than 0, got: 0");
  has(error(program({{"x", f32({1, 2, 3, 4, 5})}, {"w", f32({1, 2, 3, 3})}},
                    N("r", "aten.conv2d.default", "%x, %w"))),
      "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [1, 2, 3, "
      "4, 5]");
  has(error(program(
          {{"q", f32({1, 1, 2, 2})}, {"m", ty("b8", {2, 2})}},
          N("r", "aten.scaled_dot_product_attention.default", "%q, %q, %q, %m, 0.0, True"))),
      "Explicit attn_mask should not be set when is_causal=True");
  has(error(program({{"x", f32({2})}},
                    N("r", "aten._assert_tensor_metadata.default", "%x", "dtype: torch.int64"))),
      "Tensor dtype mismatch! Expected: Long, Got: Float");
  has(error(program({{"x", f32({2})}}, N("r", "aten.dropout.default", "%x, 1.5, False"))),
      "dropout probability has to be between 0 and 1, but got 1.5");
  has(error(program({{"x", f32({2, 3})}}, N("r", "aten.pad.default", "%x, [1], reflect"))),
      "Padding length must be divisible by 2");
  has(error(program({{"x", f32({2, 6})}}, N("r", "aten.group_norm.default", "%x, 4"))),
      "Expected number of channels in input to be divisible by num_groups");
  // The errors name the composite node and the op.
  has(error(program({{"x", f32({2})}}, N("bad", "aten.dropout.default", "%x, 1.5, False"), "bad")),
      "node 'bad' (torch.ops.aten.dropout.default)");
  // An untyped graph: decompose needs the types.
  has(error(program({{"x", ""}}, N("r", "aten.silu.default", "%x"))),
      "decompose needs the graph's types");
  // A composite op that reaches lowering (without the pass) says so.
  Graph g = parsed(program({{"x", f32({2})}}, N("r", "aten.silu.default", "%x")));
  ASSERT_TRUE(inferShapes(g));
  auto lowered = lowerGraph(g);
  ASSERT_FALSE(lowered);
  has(lowered.error().message, "the decompose pass rewrites it");
}

// ---- Masked indexing, gates and windows ----

TEST(CompositeOps, MaskedIndexingScatterReductionsGluAndUnfoldAgreeWithCoreAten) {
  checkCase({"_unsafe_masked_index: index, then fill where the mask is false",
             {{"x", f32({6})}, {"m", ty("b8", {4})}, {"i", ty("i64", {4})}},
             N("r", "aten._unsafe_masked_index.default", "%x, %m, [%i], 1.5"),
             N("g", "aten.index.Tensor", "%x, [%i]") + N("n", "aten.logical_not.default", "%m") +
                 N("r", "aten.masked_fill.Scalar", "%g, %n, 1.5")});
  checkCase({"_unsafe_masked_index along dim 1 (slice_scatter's form: None first)",
             {{"x", f32({3, 5})}, {"m", ty("b8", {1, 4})}, {"i", ty("i64", {4})}},
             N("r", "aten._unsafe_masked_index.default", "%x, %m, [None, %i], 0.0"),
             N("g", "aten.index.Tensor", "%x, [None, %i]") +
                 N("n", "aten.logical_not.default", "%m") +
                 N("r", "aten.masked_fill.Scalar", "%g, %n, 0.0")});
  checkCase({"_unsafe_masked_index_put_accumulate: add the kept values",
             {{"s", f32({5})}, {"m", ty("b8", {3})}, {"i", ty("i64", {3})}, {"v", f32({3})}},
             N("r", "aten._unsafe_masked_index_put_accumulate.default", "%s, %m, [%i], %v"),
             N("n", "aten.logical_not.default", "%m") +
                 N("k", "aten.masked_fill.Scalar", "%v, %n, 0") +
                 N("r", "aten.index_put.default", "%s, [%i], %k, True")});
  checkCase({"scatter's older reduce add: scatter_reduce sum with self",
             {{"s", f32({3, 4})}, {"i", ty("i64", {2, 4})}, {"v", f32({2, 4})}},
             N("r", "aten.scatter.reduce", "%s, 0, %i, %v", "reduce: add"),
             N("r", "aten.scatter_reduce.two", "%s, 0, %i, %v, sum", "include_self: True"),
             "r",
             0,
             2});
  checkCase({"scatter's older reduce multiply of a value",
             {{"s", f32({3, 4})}, {"i", ty("i64", {3, 2})}},
             N("r", "aten.scatter.value_reduce", "%s, 1, %i, 2.0", "reduce: multiply"),
             N("f", "aten.full_like.default", "%i, 2.0", "dtype: torch.float32") +
                 N("r", "aten.scatter_reduce.two", "%s, 1, %i, %f, prod", "include_self: True"),
             "r",
             0,
             2});
  checkCase({"glu along the last dim",
             {{"x", f32({2, 6})}},
             N("r", "aten.glu.default", "%x"),
             N("a", "aten.slice.Tensor", "%x, 1, 0, 3") +
                 N("b", "aten.slice.Tensor", "%x, 1, 3, 6") + N("g", "aten.sigmoid.default", "%b") +
                 N("r", "aten.mul.Tensor", "%a, %g")});
  checkCase({"glu along dim 0",
             {{"x", f32({4, 3})}},
             N("r", "aten.glu.default", "%x, 0"),
             N("a", "aten.slice.Tensor", "%x, 0, 0, 2") +
                 N("b", "aten.slice.Tensor", "%x, 0, 2, 4") + N("g", "aten.sigmoid.default", "%b") +
                 N("r", "aten.mul.Tensor", "%a, %g")});
  checkCase({"unfold: windows of 3, 2 apart",
             {{"x", f32({10})}},
             N("r", "aten.unfold.default", "%x, 0, 3, 2"),
             N("r", "aten.as_strided.default", "%x, [4, 3], [2, 1]")});
  checkCase(
      {"unfold of a slice: as_strided keeps its storage offset",
       {{"x", f32({10})}},
       N("s", "aten.slice.Tensor", "%x, 0, 3, 10") + N("r", "aten.unfold.default", "%s, 0, 3, 2"),
       N("s", "aten.slice.Tensor", "%x, 0, 3, 10") +
           N("r", "aten.as_strided.default", "%s, [3, 3], [2, 1]")});
  checkCase({"unfold of a transposed matrix along its last dim",
             {{"x", "f32[3, 4][1, 3]cpu"}},
             N("r", "aten.unfold.default", "%x, -1, 2, 1"),
             N("r", "aten.as_strided.default", "%x, [3, 3, 2], [1, 3, 3]")});
}

TEST(CompositeOps, TwinsLiftsSplitsLdexpAndCopysignCallTheirOps) {
  checkCase({"index's TorchScript twin",
             {{"x", f32({6})}, {"i", ty("i64", {3})}},
             N("r", "aten.index.Tensor_hacked_twin", "%x, [%i]"),
             N("r", "aten.index.Tensor", "%x, [%i]")});
  checkCase({"index_put's TorchScript twin, accumulating",
             {{"s", f32({5})}, {"i", ty("i64", {3})}, {"v", f32({3})}},
             N("r", "aten.index_put.hacked_twin", "%s, [%i], %v, True"),
             N("r", "aten.index_put.default", "%s, [%i], %v, True")});
  checkCase({"split with sizes (aten.split.default)",
             {{"x", f32({6, 2})}},
             N("p", "aten.split.default", "%x, [2, 4]") + N("r", "operator.getitem", "%p, 1"),
             N("p", "aten.split_with_sizes.default", "%x, [2, 4]") +
                 N("r", "operator.getitem", "%p, 1")});
  checkCase({"lift_fresh: the tensor itself",
             {{"x", f32({3})}},
             N("r", "aten.lift_fresh.default", "%x"),
             N("r", "aten.alias.default", "%x")});
  checkCase({"copysign of two tensors",
             {{"x", f32({4})}, {"y", f32({4})}},
             N("r", "aten.copysign.Tensor", "%x, %y"),
             N("a", "aten.abs.default", "%x") + N("n", "aten.neg.default", "%a") +
                 N("s", "aten.signbit.default", "%y") + N("r", "aten.where.self", "%s, %n, %a")});
  checkCase({"copysign of integers by a negative number: float32",
             {{"x", ty("i64", {3})}},
             N("r", "aten.copysign.Scalar", "%x, -1.5"),
             N("f", "aten._to_copy.default", "%x", "dtype: torch.float32") +
                 N("a", "aten.abs.default", "%f") + N("r", "aten.neg.default", "%a")});
  checkCase({"ldexp of integer exponents: a float power",
             {{"x", f32({4})}, {"e", ty("i64", {4})}},
             N("r", "aten.ldexp.Tensor", "%x, %e"),
             N("p", "aten.pow.Scalar", "2.0, %e") + N("r", "aten.mul.Tensor", "%x, %p")});
}

TEST(CompositeOps, AddcmulAddcdivLerpAndUnbiasedMomentsAgreeWithCoreAten) {
  checkCase({"addcmul: (value * tensor1) * tensor2 + self",
             {{"s", f32({2, 3})}, {"a", f32({3})}, {"b", f32({2, 1})}},
             N("r", "aten.addcmul.default", "%s, %a, %b", "value: 0.5"),
             N("m", "aten.mul.Tensor", "%a, 0.5") + N("p", "aten.mul.Tensor", "%m, %b") +
                 N("r", "aten.add.Tensor", "%s, %p")});
  checkCase({"addcdiv of half: in float32, rounded once",
             {{"s", ty("f16", {4})}, {"a", ty("f16", {4})}, {"b", ty("f16", {4})}},
             N("r", "aten.addcdiv.default", "%s, %a, %b", "value: 2"),
             N("sf", "aten._to_copy.default", "%s", "dtype: torch.float32") +
                 N("af", "aten._to_copy.default", "%a", "dtype: torch.float32") +
                 N("bf", "aten._to_copy.default", "%b", "dtype: torch.float32") +
                 N("q", "aten.div.Tensor", "%af, %bf") + N("m", "aten.mul.Tensor", "%q, 2") +
                 N("t", "aten.add.Tensor", "%sf, %m") +
                 N("r", "aten._to_copy.default", "%t", "dtype: torch.float16"),
             "r",
             1,
             4});
  checkCase({"addcmul of integers promoted with a float tensor",
             {{"s", ty("i64", {3})}, {"a", ty("i32", {3})}, {"b", f32({3})}},
             N("r", "aten.addcmul.default", "%s, %a, %b", "value: 3"),
             N("m", "aten.mul.Tensor", "%a, 3") + N("p", "aten.mul.Tensor", "%m, %b") +
                 N("r", "aten.add.Tensor", "%s, %p")});
  checkCase({"lerp by a Python weight below and above one half",
             {{"s", f32({5})}, {"e", f32({5})}},
             N("a", "aten.lerp.Scalar", "%s, %e, 0.25") +
                 N("b", "aten.lerp.Scalar", "%s, %e, 0.75") + N("r", "aten.add.Tensor", "%a, %b"),
             N("d", "aten.sub.Tensor", "%e, %s") + N("x", "aten.mul.Tensor", "%d, 0.25") +
                 N("a", "aten.add.Tensor", "%x, %s") + N("y", "aten.mul.Tensor", "%d, -0.25") +
                 N("b", "aten.add.Tensor", "%y, %e") + N("r", "aten.add.Tensor", "%a, %b")});
  checkCase({"lerp by a weight tensor",
             {{"s", f32({2, 4})}, {"e", f32({2, 4})}, {"w", f32({4})}},
             N("r", "aten.lerp.Tensor", "%s, %e, %w"),
             N("d", "aten.sub.Tensor", "%e, %s") + N("m", "aten.abs.default", "%w") +
                 N("k", "aten.ge.Scalar", "%m, 0.5") + N("w1", "aten.sub.Tensor", "%w, 1") +
                 N("c", "aten.where.self", "%k, %w1, %w") +
                 N("b", "aten.where.self", "%k, %e, %s") + N("p", "aten.mul.Tensor", "%c, %d") +
                 N("r", "aten.add.Tensor", "%p, %b")});
  checkCase(
      {"lerp_ and addcmul_: written back into self",
       {{"s", f32({4})}, {"e", f32({4})}},
       N("c", "aten.clone.default", "%s") + N("l", "aten.lerp_.Scalar", "%c, %e, 0.3") +
           N("r", "aten.addcmul_.default", "%c, %e, %e"),
       N("l", "aten.lerp.Scalar", "%s, %e, 0.3") + N("r", "aten.addcmul.default", "%l, %e, %e")});
  checkCase({"var_mean and std_mean with unbiased",
             {{"x", f32({3, 5})}},
             N("v", "aten.var_mean.dim", "%x, [1], False, True") +
                 N("s", "aten.std_mean.default", "%x") + N("a", "operator.getitem", "%v, 0") +
                 N("b", "operator.getitem", "%s, 0") + N("r", "aten.add.Tensor", "%a, %b"),
             N("v", "aten.var_mean.correction", "%x, [1]", "correction: 0, keepdim: True") +
                 N("s", "aten.std_mean.correction", "%x, None", "correction: 1") +
                 N("a", "operator.getitem", "%v, 0") + N("b", "operator.getitem", "%s, 0") +
                 N("r", "aten.add.Tensor", "%a, %b")});
  checkCase({"lift: a copy",
             {{"x", f32({3})}},
             N("r", "aten.lift.default", "%x"),
             N("r", "aten.clone.default", "%x")});
  // PyTorch's refusals.
  has(error(program({{"s", f32({3})}, {"a", ty("i64", {3})}, {"b", ty("i64", {3})}},
                    N("r", "aten.addcdiv.default", "%s, %a, %b"))),
      "Integer division with addcdiv is no longer supported");
  has(error(program({{"s", ty("i64", {3})}, {"a", ty("i64", {3})}, {"b", ty("i64", {3})}},
                    N("r", "aten.addcmul.default", "%s, %a, %b", "value: 0.5"))),
      "value argument of type float cannot be safely cast to type int!");
  has(error(program({{"s", ty("b8", {3})}, {"a", ty("b8", {3})}, {"b", ty("b8", {3})}},
                    N("r", "aten.addcmul.default", "%s, %a, %b", "value: 2"))),
      "value argument of type int cannot be safely cast to type bool!");
  has(error(program({{"s", f32({3})}, {"e", ty("f64", {3})}},
                    N("r", "aten.lerp.Scalar", "%s, %e, 0.5"))),
      "expected dtype float for `end` but got dtype double");
  has(error(program({{"s", ty("i64", {3})}, {"e", ty("i64", {3})}},
                    N("r", "aten.lerp.Scalar", "%s, %e, 1"))),
      "\"lerp_kernel_scalar\" not implemented for 'Long'");
}

TEST(CompositeOps, SearchsortedAndBucketizeCountTheEntriesBefore) {
  checkCase({"bucketize: the boundaries no value reaches",
             {{"x", f32({2, 3})}, {"b", f32({4})}},
             N("r", "aten.bucketize.Tensor", "%x, %b"),
             N("c", "aten.unsqueeze.default", "%x, -1") + N("s", "aten.ge.Tensor", "%b, %c") +
                 N("n", "aten.logical_not.default", "%s") +
                 N("r", "aten.sum.dim_IntList", "%n, [-1], False", "dtype: torch.int64")});
  checkCase(
      {"searchsorted of batched rows by a sorter, side right, int32",
       {{"q", f32({2, 5})}, {"o", ty("i64", {2, 5})}, {"x", f32({2, 3})}},
       N("r", "aten.searchsorted.Tensor", "%q, %x", "out_int32: True, side: right, sorter: %o"),
       N("g", "aten.gather.default", "%q, -1, %o") + N("c", "aten.unsqueeze.default", "%x, -1") +
           N("u", "aten.unsqueeze.default", "%g, -2") + N("s", "aten.gt.Tensor", "%u, %c") +
           N("n", "aten.logical_not.default", "%s") +
           N("r", "aten.sum.dim_IntList", "%n, [-1], False", "dtype: torch.int32"),
       "r",
       0,
       4});
  // PyTorch's values: NaN goes past the end.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Tensor values = fromValues({6}, {0, 1, 3.5, 9, 10, nan});
  Tensor bounds = fromValues({5}, {1, 3, 5, 7, 9});
  expectValues(runSingle(program({{"x", ""}, {"b", ""}}, N("r", "aten.bucketize.Tensor", "%x, %b")),
                         {values, bounds}),
               {0, 0, 2, 4, 5, 5});
  expectValues(runSingle(program({{"x", ""}, {"b", ""}},
                                 N("r", "aten.bucketize.Tensor", "%x, %b", "right: True")),
                         {values, bounds}),
               {0, 1, 2, 5, 5, 5});
  has(error(program({{"q", f32({3, 5})}, {"x", f32({2, 3})}},
                    N("r", "aten.searchsorted.Tensor", "%q, %x"))),
      "boundaries tensor should be 1 dimension or the first N-1 dimensions");
  has(error(program({{"q", f32({5})}, {"x", f32({3})}},
                    N("r", "aten.searchsorted.Tensor", "%q, %x", "right: True, side: left"))),
      "side and right can't be set to opposites");
  has(error(program({{"x", f32({2, 3})}, {"b", f32({2, 4})}},
                    N("r", "aten.bucketize.Tensor", "%x, %b"))),
      "boundaries tensor must be 1 dimension, but got dim(2)");
}

TEST(CompositeOps, MaskedIndexingLeavesDroppedIndicesUnread) {
  // PyTorch's inductor test values: index 9 is out of range and -2 wraps, where kept.
  Tensor x = fromValues({8}, {0, 1, 2, 3, 4, 5, 6, 7});
  Tensor m = fromValues({3}, {1, 0, 1}, DType::Bool);
  Tensor i = fromValues({3}, {3, 9, -2}, DType::Int64);
  // copysign takes the sign bit: -0.0 and -inf are negative.
  expectValues(runCall("torch.ops.aten.copysign.Tensor](args = (%a, %b), kwargs = {})",
                       {fromValues({4}, {1, -2, 3, 0}), fromValues({4}, {-0.0, 1, -INFINITY, -1})}),
               {-1, 2, -3, -0.0});
  const std::string index =
      "torch.ops.aten._unsafe_masked_index.default](args = (%a, %b, [%c], 1.5), kwargs = {})";
  expectValues(runCall(index, {x, m, i}), {3, 1.5, 6});
  // An empty self (as PyTorch's eager kernel: every element the fill, in the indexing's shape:
  // [3] indices over an empty [0, 2] give [3, 2]), whatever the mask and the indices.
  Tensor e = runCall(index, {Tensor::zeros(DType::Float32, {0, 2}).take(), m, i});
  EXPECT_EQ(e.sizes(), (std::vector<int64_t>{3, 2}));
  expectValues(e, {1.5, 1.5, 1.5, 1.5, 1.5, 1.5});
  Tensor s = fromValues({5}, {0, 0, 0, 0, 0});
  Tensor j = fromValues({3}, {1, 7, 1}, DType::Int64);
  Tensor v = fromValues({3}, {2, 100, 3});
  const std::string put = "torch.ops.aten._unsafe_masked_index_put_accumulate.default](args = "
                          "(%a, %b, [%c], %d), kwargs = {})";
  expectValues(runCall(put, {s, m, j, v}), {0, 5, 0, 0, 0});
  // The same values through the loop interpreter, OpenCL and LLVM.
  for (const auto &[call, values] : {std::pair{index, std::vector<Tensor>{x, m, i}},
                                     std::pair{put, std::vector<Tensor>{s, m, j, v}}}) {
    std::vector<RuntimeValue> inputs;
    std::vector<Input> typed;
    const char *names[] = {"a", "b", "c", "d"};
    for (size_t k = 0; k < values.size(); ++k) {
      inputs.push_back(RuntimeValue{values[k]});
      typed.push_back(
          {names[k], ty(std::string(dtypeShortName(values[k].dtype())), values[k].sizes())});
    }
    std::string text =
        decomposed(program(typed, "    %r : [num_users=1] = call_function[target=" + call + "\n"));
    DifferentialOptions options;
    options.llvm = true;
    options.formats = false;
    options.inputs = &inputs;
    auto failure = checkGraphDifferentially(text, {}, options);
    EXPECT_FALSE(failure) << diffStageName(failure->stage) << ": " << failure->message << "\n"
                          << text;
  }
  // PyTorch's errors: an odd halving dimension, windows larger than the dim.
  has(error(program({{"x", f32({2, 5})}}, N("r", "aten.glu.default", "%x"))),
      "Halving dimension must be even, but dimension 1 is size 5");
  has(error(program({{"x", f32({4})}}, N("r", "aten.unfold.default", "%x, 0, 5, 1"))),
      "maximum size for tensor at dimension 0 is 4 but size is 5");
  has(error(program({{"s", f32({3})}, {"i", ty("i64", {3})}, {"v", f32({3})}},
                    N("r", "aten.scatter.reduce", "%s, 0, %i, %v", "reduce: mean"))),
      "reduce argument must be either add or multiply.");
}

// ---- The pass, the registry and the commands ----

TEST(CompositeOps, ThePassIsRegisteredAndAssertionsAreCheckedThenDropped) {
  registerBuiltinPasses();
  ASSERT_NE(PassRegistry::instance().find("decompose"), nullptr);
  Graph g = parsed(
      program({{"x", f32({2, 3})}}, N("ok", "aten._assert_tensor_metadata.default", "%x",
                                      "dtype: torch.float32, device: cpu, layout: torch.strided") +
                                        N("l", "aten.flatten.using_ints", "%x") +
                                        N("r", "aten.silu.default", "%l")));
  auto runs = runPipeline(g, {"decompose"});
  ASSERT_TRUE(runs) << runs.error().str();
  EXPECT_TRUE(runs->at(0).changed);
  EXPECT_EQ(g.find("ok"), nullptr);
  EXPECT_FALSE(hasCompositeOps(g));
  // A graph without composite ops is left alone (and needs no types).
  Graph plain = parsed(program({{"x", ""}}, N("r", "aten.relu.default", "%x")));
  auto again = runPipeline(plain, {"decompose"});
  ASSERT_TRUE(again) << again.error().str();
  EXPECT_FALSE(again->at(0).changed);
  // DCE keeps assertions: they are checks.
  Graph withAssert =
      parsed(program({{"x", f32({2})}}, N("a", "aten._assert_tensor_metadata.default", "%x") +
                                            N("r", "aten.relu.default", "%x")));
  ASSERT_TRUE(runPipeline(withAssert, {"dce"}));
  EXPECT_NE(withAssert.find("a"), nullptr);
  // The lower pass decomposes a copy, leaving the graph as it was.
  Graph lowered = parsed(program({{"x", f32({2, 3})}}, N("r", "aten.silu.default", "%x")));
  ASSERT_TRUE(runPipeline(lowered, {"lower", "fuse"}));
  EXPECT_NE(lowered.find("r"), nullptr);
  EXPECT_EQ(lowered.find("r")->target(), "torch.ops.aten.silu.default");
}

TEST(CompositeOps, RegistryRows) {
  size_t composite = 0, inPlace = 0;
  for (const OpInfo &op : OpRegistry::instance().ops()) {
    EXPECT_EQ(op.category == OpCategory::Composite, op.decompose != nullptr) << op.target;
    if (op.category != OpCategory::Composite)
      continue;
    ++composite;
    EXPECT_EQ(op.infer, &inferComposite) << op.target;
    EXPECT_FALSE(isCoreAten(op.target)) << op.target;
    // An in-place variant's functional op is registered.
    if (op.decompose == &decomposeInPlace) {
      ++inPlace;
      std::string t(op.target);
      size_t dot = t.rfind('.');
      std::string functional = t.substr(0, dot - 1) + t.substr(dot);
      EXPECT_NE(OpRegistry::instance().lookup(functional), nullptr) << t;
    }
  }
  EXPECT_GE(composite, 250u);
  EXPECT_GE(inPlace, 100u);
  for (const OpCoverage &c : opCoverage()) {
    if (c.category == OpCategory::Composite) {
      EXPECT_EQ(c.compiled, CompiledForm::Decomposed) << c.target;
    }
  }
  EXPECT_EQ(opCategoryName(OpCategory::Composite), "composite");
  EXPECT_EQ(compiledFormName(CompiledForm::Decomposed), "decomposed");
}

// ---- The zoo's exported programs ----

/// tests/data/composite-ops/<model>.graph.txt: `str(ep.graph)` of torch.export.export of every
/// zoo model (see PROVENANCE.md).
std::vector<fs::path> exportedGraphs() {
  std::vector<fs::path> out;
  for (const auto &e : fs::directory_iterator(fs::path(FXKIT_TEST_DATA) / "composite-ops"))
    if (e.path().string().ends_with(".graph.txt"))
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(CompositeOps, EveryOpOfTheZoosExportedProgramsIsKnown) {
  std::set<std::string> composite;
  size_t files = 0;
  for (const fs::path &path : exportedGraphs()) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    auto g = parseFxText(text.str(), path.string());
    ASSERT_TRUE(g) << g.error().str();
    ++files;
    for (const Node *n : *g) {
      if (n->op() != OpKind::CallFunction)
        continue;
      if (n->target() == "torch.ops.higher_order.wrap_with_set_grad_enabled")
        continue; // inlined by the pass (WrapWithSetGradEnabledIsInlined)
      const OpInfo *op = OpRegistry::instance().lookup(n->target());
      EXPECT_NE(op, nullptr) << path.filename() << ": " << n->target();
      if (op && op->category == OpCategory::Composite)
        composite.insert(std::string(n->target()));
    }
  }
  EXPECT_EQ(files, 12u);
  // linear, conv2d, batch_norm, layer_norm, dropout, scaled_dot_product_attention, to.*, pad,
  // relu_, ... (30 distinct).
  EXPECT_GE(composite.size(), 30u);
}

#ifdef FXKIT_HAVE_JSON
TEST(CompositeOps, EveryOpOfMoreRealModelsIsKnown) {
  // exported-ops.json: the ops of torch.export's default IR of 39 more real models (torchvision,
  // timm and Hugging Face classes; tests/composite-ops/capture.py).
  std::ifstream in(fs::path(FXKIT_TEST_DATA) / "composite-ops" / "exported-ops.json");
  auto facts = nlohmann::json::parse(in, nullptr, false);
  ASSERT_FALSE(facts.is_discarded());
  size_t models = 0, composite = 0;
  std::set<std::string> seen;
  for (auto &[model, entry] : facts["models"].items()) {
    ++models;
    for (const auto &op : entry["ops"]) {
      std::string target = op.get<std::string>();
      if (target.starts_with("<built-in function") || target == "wrap_with_set_grad_enabled")
        continue; // operator.getitem; the wrapper the pass inlines
      if (target.starts_with("aten.") || target.starts_with("prims."))
        target = "torch.ops." + target;
      const OpInfo *info = OpRegistry::instance().lookup(target);
      EXPECT_NE(info, nullptr) << model << ": " << target;
      if (info && info->category == OpCategory::Composite && seen.insert(target).second)
        ++composite;
    }
  }
  EXPECT_EQ(models, 39u);
  EXPECT_GE(composite, 45u);
}

TEST(CompositeOps, MiscOpsExportedProgramMatchesEagerPyTorch) {
  // misc_ops (pad, roll, tril, masked_fill, one_hot, to.dtype, _assert_tensor_metadata, ...):
  // torch.export's default IR run on the eager inputs, against eager PyTorch's outputs.
  fs::path dir = fs::path(FXKIT_TEST_DATA) / "composite-ops";
  std::ifstream in(dir / "misc_ops.graph.txt");
  std::stringstream text;
  text << in.rdbuf();
  auto inputsFile = readSafetensors((dir / "misc_ops.inputs.safetensors").string());
  ASSERT_TRUE(inputsFile) << inputsFile.error().str();
  auto inputs = readGraphInputs(*inputsFile, 3, "misc_ops.inputs.safetensors");
  ASSERT_TRUE(inputs) << inputs.error().str();
  auto expected = readSafetensors((dir / "misc_ops.outputs.safetensors").string());
  ASSERT_TRUE(expected) << expected.error().str();
  registerReferenceKernels();
  Graph g = parsed(text.str());
  auto r = interpretGraph(g, *inputs);
  ASSERT_TRUE(r) << r.error().str();
  auto checks = checkGraphOutputs(r->outputs, *expected, {1e-5, 1e-5});
  ASSERT_TRUE(checks) << checks.error().str();
  ASSERT_EQ(checks->size(), 9u);
  for (const OutputCheck &c : *checks)
    EXPECT_TRUE(c.ok) << c.name << ": " << c.detail;
  // The decomposed program (typed by the run) on the compiled backends.
  EXPECT_FALSE(hasCompositeOps(g));
  FxTextOptions options;
  options.tensorTypes = true;
  DifferentialOptions diff;
  diff.llvm = true;
  diff.formats = false;
  diff.inputs = &*inputs;
  auto failure = checkGraphDifferentially(printFxText(g, options), {}, diff);
  EXPECT_FALSE(failure) << diffStageName(failure->stage) << ": " << failure->message;
}
#endif

} // namespace
