/// Shape inference against the corpus: every graph with a nodes.json sidecar is re-inferred
/// from its placeholders and must reproduce the recorded dtype, sizes and strides of every node.

#include "transforms/ShapeInference.h"
#include "importers/FxTextParser.h"
#include "importers/json/NodesJson.h"
#include "ir/ops/OpRegistry.h"
#include "ir/ops/ShapeRules.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace fxkit;
namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path corpusDir() { return fs::path(FXKIT_TEST_DATA) / "corpus"; }

bool sameSimplified(const std::vector<SymExpr> &a, const std::vector<SymExpr> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].simplify() != b[i].simplify())
      return false;
  return true;
}

bool sameTensor(const TensorType &a, const TensorType &b) {
  return a.dtype == b.dtype && sameSimplified(a.sizes, b.sizes) &&
         sameSimplified(a.strides, b.strides);
}

/// Empty when equal, else a description of the difference.
std::string compareValues(const NodeValue &expected, const NodeValue &actual) {
  if (const TensorType *e = expected.tensor()) {
    const TensorType *a = actual.tensor();
    if (!a)
      return "expected a tensor " + e->str();
    return sameTensor(*e, *a) ? "" : "expected " + e->str() + ", inferred " + a->str();
  }
  if (const auto *es = expected.tensors()) {
    const auto *as = actual.tensors();
    if (!as || as->size() != es->size())
      return "expected " + std::to_string(es->size()) + " results";
    for (size_t i = 0; i < es->size(); ++i) {
      if (!(*es)[i])
        continue; // not a tensor in the recording (a symbolic integer output)
      if (!(*as)[i])
        return "result " + std::to_string(i) + ": expected " + (*es)[i]->str();
      if (!sameTensor(*(*es)[i], *(*as)[i]))
        return "result " + std::to_string(i) + ": expected " + (*es)[i]->str() + ", inferred " +
               (*as)[i]->str();
    }
    return "";
  }
  if (const SymExpr *e = expected.sym()) {
    const SymExpr *a = actual.sym();
    if (!a || e->simplify() != a->simplify())
      return "expected symbolic integer " + e->str();
  }
  return "";
}

TEST(ShapeInference, CorpusGraphsReproduceRecordedValues) {
  size_t graphs = 0, checked = 0;
  std::map<std::string, size_t> byTarget;
  for (const auto &entry : fs::recursive_directory_iterator(corpusDir())) {
    std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || !name.ends_with(".nodes.json"))
      continue;
    fs::path graphPath = entry.path();
    graphPath.replace_filename(name.substr(0, name.size() - 11) + ".graph.txt");
    if (!fs::exists(graphPath))
      continue;
    SCOPED_TRACE(graphPath.string());
    auto g = parseFxText(readFile(graphPath), graphPath.string());
    ASSERT_TRUE(g) << g.error().str();
    Status st = attachNodesJson(*g, readFile(entry.path()), entry.path().string());
    ASSERT_TRUE(st) << st.error().str();
    ++graphs;

    std::map<const Node *, NodeValue> expected;
    for (Node *n : *g)
      if (n->op() != OpKind::Placeholder) {
        expected[n] = n->value();
        n->value() = NodeValue();
      }
    st = inferShapes(*g);
    ASSERT_TRUE(st) << st.error().str();
    for (Node *n : *g) {
      if (n->op() == OpKind::Placeholder)
        continue;
      const NodeValue &want = expected[n];
      if (want.empty())
        continue;
      std::string diff = compareValues(want, n->value());
      EXPECT_EQ(diff, "") << "node '" << n->name() << "' (" << n->target() << ")";
      ++checked;
      ++byTarget[std::string(n->target())];
    }
  }
  EXPECT_GE(graphs, 40u);
  EXPECT_GT(checked, 3000u);
  std::string summary;
  for (const auto &[target, count] : byTarget)
    summary += "  " + target + ": " + std::to_string(count) + "\n";
  std::cout << "checked " << checked << " nodes in " << graphs << " graphs\n" << summary;
}

TEST(ShapeInference, EveryCorpusTargetIsRegistered) {
  size_t targets = 0;
  for (const auto &entry : fs::recursive_directory_iterator(corpusDir())) {
    std::string name = entry.path().filename().string();
    bool aten =
        name.starts_with("aten_pre_") || name.starts_with("aten_post_") || name.starts_with("fw_");
    if (!entry.is_regular_file() || !aten || !name.ends_with(".graph.txt"))
      continue;
    auto g = parseFxText(readFile(entry.path()), entry.path().string());
    ASSERT_TRUE(g) << g.error().str();
    for (Node *n : *g)
      if (n->op() == OpKind::CallFunction) {
        EXPECT_NE(OpRegistry::instance().lookup(n->target()), nullptr)
            << entry.path() << ": " << n->target();
        ++targets;
      }
  }
  EXPECT_GT(targets, 1000u);
}

TEST(ShapeInference, PlaceholderWithoutValueIsAnError) {
  auto g = parseFxText("graph():\n"
                       "    %x : [num_users=1] = placeholder[target=x]\n"
                       "    %r : [num_users=1] = call_function[target=torch.ops.aten.relu.default]"
                       "(args = (%x,), kwargs = {})\n"
                       "    return (r,)\n");
  ASSERT_TRUE(g) << g.error().str();
  Status st = inferShapes(*g);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("'x'"), std::string::npos) << st.error().message;
}

TEST(ShapeInference, ErrorNamesNodeAndOp) {
  auto g = parseFxText("graph():\n"
                       "    %x : [num_users=1] = placeholder[target=x]\n"
                       "    %r : [num_users=1] = call_function[target=torch.ops.aten.frobnicate."
                       "default](args = (%x,), kwargs = {})\n"
                       "    return (r,)\n");
  ASSERT_TRUE(g) << g.error().str();
  g->find("x")->value().v = *TensorType::parse("f32[4][1]cpu");
  Status st = inferShapes(*g);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("'r'"), std::string::npos) << st.error().message;
  EXPECT_NE(st.error().message.find("torch.ops.aten.frobnicate.default"), std::string::npos);
}

// ---- Graphs PyTorch refuses: inference reports them before anything runs ----

/// Parses a graph written as FX text and infers it. Placeholders typed in the text
/// (`Tensor "f32[6][1]cpu"`) have their values; an untyped placeholder named like a symbol
/// (`s0`) holds that symbolic integer.
Expected<Graph> parseAndInfer(std::string_view text) {
  auto g = parseFxText(text, "<test>");
  if (!g)
    return g.takeError();
  for (Node *n : *g) {
    const std::string &name = n->name();
    bool symbolName =
        name.size() > 1 && name[0] == 's' &&
        std::all_of(name.begin() + 1, name.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (n->op() == OpKind::Placeholder && n->value().empty() && symbolName)
      n->value().v = *SymExpr::parse(name);
  }
  if (Status st = inferShapes(*g); !st)
    return st.takeError();
  return g;
}

/// "" when the graph infers, else the error message.
std::string inferenceError(std::string_view text) {
  auto g = parseAndInfer(text);
  return g ? "" : g.error().message;
}

/// The inferred value of node `name` as text (a tensor, or results joined by " | ").
std::string inferredValue(std::string_view text, const std::string &name) {
  auto g = parseAndInfer(text);
  if (!g)
    return "error: " + g.error().message;
  const NodeValue &v = g->find(name)->value();
  if (const TensorType *t = v.tensor())
    return t->str();
  std::string out;
  if (const auto *ts = v.tensors())
    for (const auto &t : *ts)
      out += (out.empty() ? "" : " | ") + (t ? t->str() : std::string("None"));
  return out;
}

/// A graph of one placeholder `x` of type `x` (and `y` when given, and symbol `s0` when
/// `symbol`) and one node `r` calling `target` with `args` and `kwargs`.
std::string oneOp(const std::string &x, const std::string &target, const std::string &args,
                  const std::string &kwargs = "{}", const std::string &y = "",
                  bool symbol = false) {
  std::string text = "graph():\n";
  if (symbol)
    text += "    %s0 : [num_users=1] = placeholder[target=s0]\n";
  text += "    %x : Tensor \"" + x + "\"[num_users=1] = placeholder[target=x]\n";
  if (!y.empty())
    text += "    %y : Tensor \"" + y + "\"[num_users=1] = placeholder[target=y]\n";
  text += "    %r : [num_users=1] = call_function[target=" + target + "](args = (" + args +
          "), kwargs = " + kwargs + ")\n    return (r,)\n";
  return text;
}

/// Expects inference of `text` to fail at node `r` of `target` with `what` in the message.
void expectRefused(const std::string &text, const std::string &target, const std::string &what) {
  std::string e = inferenceError(text);
  EXPECT_NE(e.find("node 'r' (" + target + "): "), std::string::npos) << e << "\n" << text;
  EXPECT_NE(e.find(what), std::string::npos) << e << "\n" << text;
}

TEST(ShapeInference, ReshapeWithIndivisibleInferredSizeIsAnError) {
  // PyTorch: "shape '[4, -1]' is invalid for input of size 6" (inference used to round down
  // to f32[4, 1]).
  constexpr std::string_view kGraph = R"(graph():
    %x : Tensor "f32[6][1]cpu"[num_users=1] = placeholder[target=x]
    %r : [num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%x, [4, -1]), kwargs = {})
    return (r,)
)";
  std::string e = inferenceError(kGraph);
  EXPECT_NE(e.find("node 'r' (torch.ops.aten.reshape.default): shape '[4, -1]' is invalid for "
                   "input of size 6"),
            std::string::npos)
      << e;
  const std::string view = "torch.ops.aten.view.default";
  expectRefused(oneOp("f32[2, 3][3, 1]cpu", view, "%x, [4, -1]"), view,
                "shape '[4, -1]' is invalid for input of size 6");
  expectRefused(oneOp("f32[2, 3][3, 1]cpu", view, "%x, [0, -1]"), view,
                "shape '[0, -1]' is invalid for input of size 6");
  expectRefused(oneOp("f32[2, 3][3, 1]cpu", view, "%x, [4, 2]"), view,
                "shape '[4, 2]' is invalid for input of size 6");
  // Zero elements: -1 next to a 0 could be anything.
  expectRefused(oneOp("f32[0, 3][3, 1]cpu", view, "%x, [0, -1]"), view,
                "cannot reshape tensor of 0 elements into shape [0, -1] because the unspecified "
                "dimension size -1 can be any value");
  // A size of 0 counts as 1 in the strides (c10's computeStride for zero elements).
  EXPECT_EQ(inferredValue(oneOp("f32[0, 3][3, 1]cpu", view, "%x, [3, -1]"), "r"),
            "f32[3, 0][1, 1]cpu");
  // Symbolic sizes: refused only where no value of the symbols fits (s0 cancels, 6 % 4 != 0)...
  expectRefused(oneOp("f32[s0, 6][6, 1]cpu", view, "%x, [%s0, 4, -1]", "{}", "", true), view,
                "shape '[s0, 4, -1]' is invalid for input of size 6*s0");
  // ...and otherwise resolved as before.
  EXPECT_EQ(inferredValue(oneOp("f32[s0, 6][6, 1]cpu", view, "%x, [-1, 3]"), "r"),
            "f32[2*s0, 3][3, 1]cpu");
  const std::string reshape = "torch.ops.aten.reshape.default";
  EXPECT_EQ(inferredValue(oneOp("f32[s0, 6][6, 1]cpu", reshape, "%x, [4, -1]"), "r"),
            "f32[4, 6*s0//4][6*s0//4, 1]cpu");
  EXPECT_EQ(inferredValue(oneOp("f32[6][1]cpu", reshape, "%x, [%s0, -1]", "{}", "", true), "r"),
            "f32[s0, 6//s0][6//s0, 1]cpu");
}

TEST(ShapeInference, MeanOfIntegersWithoutFloatingDtypeIsAnError) {
  constexpr std::string_view kGraph = R"(graph():
    %x : Tensor "i64[4, 3][3, 1]cpu"[num_users=1] = placeholder[target=x]
    %r : [num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%x, [1]), kwargs = {})
    return (r,)
)";
  std::string e = inferenceError(kGraph);
  EXPECT_NE(e.find("node 'r' (torch.ops.aten.mean.dim): mean(): could not infer output dtype. "
                   "Input dtype must be either a floating point or complex dtype. Got: int64"),
            std::string::npos)
      << e;
  expectRefused(oneOp("b8[4][1]cpu", "torch.ops.aten.mean.default", "%x"),
                "torch.ops.aten.mean.default", "Input dtype must be either a floating point");
  expectRefused(oneOp("f32[4][1]cpu", "torch.ops.aten.mean.dim", "%x, [0]", "{dtype: torch.int32}"),
                "torch.ops.aten.mean.dim", "Optional dtype must be either a floating point");
  // dtype= makes it fine.
  EXPECT_EQ(inferredValue(oneOp("i64[4, 3][3, 1]cpu", "torch.ops.aten.mean.dim", "%x, [1]",
                                "{dtype: torch.float32}"),
                          "r"),
            "f32[4][1]cpu");
  expectRefused(oneOp("i32[4, 3][3, 1]cpu", "torch.ops.aten.var_mean.correction", "%x, [1]"),
                "torch.ops.aten.var_mean.correction",
                "var_mean only support floating point and complex dtypes");
}

TEST(ShapeInference, PrepareSoftmaxOnlineFollowsItsEagerDefinition) {
  // amax keeps the dtype; exp of an integer tensor is float32; bools cannot be subtracted.
  const std::string target = "torch.ops.prims.prepare_softmax_online.default";
  EXPECT_EQ(inferredValue(oneOp("i64[4, 3][3, 1]cpu", target, "%x, 1"), "r"),
            "i64[4, 1][1, 1]cpu | f32[4, 1][1, 1]cpu");
  EXPECT_EQ(inferredValue(oneOp("f16[4, 3][3, 1]cpu", target, "%x, 1"), "r"),
            "f16[4, 1][1, 1]cpu | f16[4, 1][1, 1]cpu");
  expectRefused(oneOp("b8[4, 3][3, 1]cpu", target, "%x, 1"), target, "bool");
  expectRefused(oneOp("f32[4, 0][1, 1]cpu", target, "%x, -1"), target,
                "amax(): Expected reduction dim -1 to have non-zero size");
}

TEST(ShapeInference, RepeatedReductionDimsAreAnError) {
  constexpr std::string_view kGraph = R"(graph():
    %x : Tensor "f32[4, 3][3, 1]cpu"[num_users=1] = placeholder[target=x]
    %r : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%x, [1, -1]), kwargs = {})
    return (r,)
)";
  std::string e = inferenceError(kGraph);
  EXPECT_NE(e.find("node 'r' (torch.ops.aten.sum.dim_IntList): dim 1 appears multiple times in "
                   "the list of dims"),
            std::string::npos)
      << e;
  for (const char *target : {"torch.ops.aten.mean.dim", "torch.ops.aten.amax.default",
                             "torch.ops.aten.amin.default", "torch.ops.aten.var_mean.correction"})
    expectRefused(oneOp("f32[4, 3][3, 1]cpu", target, "%x, [0, -2]"), target,
                  "dim 0 appears multiple times in the list of dims");
  // On a 0-d tensor 0 and -1 name the same dim.
  expectRefused(oneOp("f32[][]cpu", "torch.ops.aten.sum.dim_IntList", "%x, [0, -1]"),
                "torch.ops.aten.sum.dim_IntList", "dim 0 appears multiple times");
}

TEST(ShapeInference, AmaxOverAnEmptyDimIsAnError) {
  constexpr std::string_view kGraph = R"(graph():
    %x : Tensor "f32[0, 3][3, 1]cpu"[num_users=1] = placeholder[target=x]
    %r : [num_users=1] = call_function[target=torch.ops.aten.amax.default](args = (%x, [0]), kwargs = {})
    return (r,)
)";
  std::string e = inferenceError(kGraph);
  EXPECT_NE(e.find("node 'r' (torch.ops.aten.amax.default): amax(): Expected reduction dim 0 to "
                   "have non-zero size"),
            std::string::npos)
      << e;
  expectRefused(oneOp("f32[3, 0][1, 1]cpu", "torch.ops.aten.amin.default", "%x, [-1]"),
                "torch.ops.aten.amin.default",
                "amin(): Expected reduction dim -1 to have non-zero");
  expectRefused(oneOp("f32[3, 0][1, 1]cpu", "torch.ops.aten.amax.default", "%x"),
                "torch.ops.aten.amax.default", "Expected reduction dim to be specified");
  // Reducing a non-empty dim of an empty tensor is fine, and so is sum over an empty dim.
  EXPECT_EQ(
      inferredValue(oneOp("f32[0, 3][3, 1]cpu", "torch.ops.aten.amax.default", "%x, [1]"), "r"),
      "f32[0][1]cpu");
  EXPECT_EQ(
      inferredValue(oneOp("f32[0, 3][3, 1]cpu", "torch.ops.aten.sum.dim_IntList", "%x, [0]"), "r"),
      "f32[3][1]cpu");
}

TEST(ShapeInference, SelectIndexOutOfRangeIsAnError) {
  constexpr std::string_view kGraph = R"(graph():
    %x : Tensor "f32[3][1]cpu"[num_users=1] = placeholder[target=x]
    %r : [num_users=1] = call_function[target=torch.ops.aten.select.int](args = (%x, 0, 5), kwargs = {})
    return (r,)
)";
  std::string e = inferenceError(kGraph);
  EXPECT_NE(e.find("node 'r' (torch.ops.aten.select.int): select(): index 5 out of range for "
                   "tensor of size [3] at dimension 0"),
            std::string::npos)
      << e;
  const std::string select = "torch.ops.aten.select.int";
  expectRefused(oneOp("f32[2, 3][3, 1]cpu", select, "%x, -1, -4"), select,
                "select(): index -4 out of range for tensor of size [2, 3] at dimension 1");
  EXPECT_EQ(inferredValue(oneOp("f32[2, 3][3, 1]cpu", select, "%x, -1, -3"), "r"), "f32[2][3]cpu");
  // A symbolic size may be large enough.
  EXPECT_EQ(inferredValue(oneOp("f32[s0][1]cpu", select, "%x, 0, 5"), "r"), "f32[][]cpu");
}

TEST(ShapeInference, BoolArithmeticPyTorchRefusesIsAnError) {
  constexpr std::string_view kGraph = R"(graph():
    %x : Tensor "b8[4][1]cpu"[num_users=2] = placeholder[target=x]
    %r : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x, %x), kwargs = {})
    return (r,)
)";
  std::string e = inferenceError(kGraph);
  EXPECT_NE(e.find("node 'r' (torch.ops.aten.sub.Tensor): Subtraction, the `-` operator, with two "
                   "bool tensors is not supported"),
            std::string::npos)
      << e;
  const std::string sub = "torch.ops.aten.sub.Tensor";
  expectRefused(oneOp("f32[4][1]cpu", sub, "%x, %y", "{}", "b8[4][1]cpu"), sub,
                "Subtraction, the `-` operator, with a bool tensor is not supported");
  // A Python bool is a bool tensor to sub_check.
  expectRefused(oneOp("f32[4][1]cpu", sub, "%x, True"), sub, "with a bool tensor");
  expectRefused(oneOp("b8[4][1]cpu", "torch.ops.aten.rsub.Scalar", "%x, 1"),
                "torch.ops.aten.rsub.Scalar", "with a bool tensor is not supported");
  expectRefused(oneOp("b8[4][1]cpu", "torch.ops.aten.sub.Scalar", "%x, True"),
                "torch.ops.aten.sub.Scalar", "with two bool tensors");
  expectRefused(oneOp("b8[4][1]cpu", "torch.ops.aten.neg.default", "%x"),
                "torch.ops.aten.neg.default",
                "Negation, the `-` operator, on a bool tensor is not supported");
  expectRefused(oneOp("b8[4][1]cpu", "torch.ops.aten.relu.default", "%x"),
                "torch.ops.aten.relu.default", "Boolean inputs not supported for relu");
  // div with a rounding mode has no bool kernel; without one, bools divide to float32.
  const std::string div = "torch.ops.aten.div.Tensor_mode";
  expectRefused(oneOp("b8[4][1]cpu", div, "%x, %x", "{rounding_mode: trunc}"), div,
                "not implemented for 'Bool'");
  expectRefused(oneOp("f32[4][1]cpu", div, "%x, %x", "{rounding_mode: round}"), div,
                "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                "'round'");
  EXPECT_EQ(inferredValue(oneOp("b8[4][1]cpu", div, "%x, 2", "{rounding_mode: floor}"), "r"),
            "i64[4][1]cpu");
  EXPECT_EQ(inferredValue(oneOp("b8[4][1]cpu", div, "%x, %x", "{rounding_mode: None}"), "r"),
            "f32[4][1]cpu");
  // Bools still add.
  EXPECT_EQ(inferredValue(oneOp("b8[4][1]cpu", "torch.ops.aten.add.Tensor", "%x, %x"), "r"),
            "b8[4][1]cpu");
}

TEST(ShapeInference, AlphaMustFitTheResultDtype) {
  const std::string add = "torch.ops.aten.add.Tensor";
  expectRefused(oneOp("i64[4][1]cpu", add, "%x, %x", "{alpha: 0.5}"), add,
                "For integral input tensors, argument alpha must not be a floating point number");
  expectRefused(oneOp("f32[4][1]cpu", "torch.ops.aten.sub.Tensor", "%x, %x", "{alpha: True}"),
                "torch.ops.aten.sub.Tensor", "Boolean alpha only supported for Boolean results");
  EXPECT_EQ(inferredValue(oneOp("i64[4][1]cpu", add, "%x, 1.5", "{alpha: 0.5}"), "r"),
            "f32[4][1]cpu");
}

TEST(ShapeInference, IntegerToNegativeIntegerPowerIsAnError) {
  constexpr std::string_view kGraph = R"(graph():
    %x : Tensor "i64[4][1]cpu"[num_users=1] = placeholder[target=x]
    %r : [num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%x, -2), kwargs = {})
    return (r,)
)";
  std::string e = inferenceError(kGraph);
  EXPECT_NE(e.find("node 'r' (torch.ops.aten.pow.Tensor_Scalar): Integers to negative integer "
                   "powers are not allowed"),
            std::string::npos)
      << e;
  const std::string pow = "torch.ops.aten.pow.Tensor_Scalar";
  expectRefused(oneOp("b8[4][1]cpu", pow, "%x, -1"), pow, "negative integer powers");
  // A float exponent, or a floating base, is fine.
  EXPECT_EQ(inferredValue(oneOp("i64[4][1]cpu", pow, "%x, -2.0"), "r"), "f32[4][1]cpu");
  EXPECT_EQ(inferredValue(oneOp("f32[4][1]cpu", pow, "%x, -2"), "r"), "f32[4][1]cpu");
  EXPECT_EQ(inferredValue(oneOp("i32[4][1]cpu", pow, "%x, 2"), "r"), "i32[4][1]cpu");
}

TEST(ShapeInference, WhereWithNonBoolConditionIsAnError) {
  constexpr std::string_view kGraph = R"(graph():
    %c : Tensor "f32[4][1]cpu"[num_users=1] = placeholder[target=c]
    %x : Tensor "f32[4][1]cpu"[num_users=1] = placeholder[target=x]
    %r : [num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%c, %x, 0.0), kwargs = {})
    return (r,)
)";
  std::string e = inferenceError(kGraph);
  EXPECT_NE(e.find("node 'r' (torch.ops.aten.where.self): where expected condition to be a "
                   "boolean tensor, but got a tensor with dtype float32"),
            std::string::npos)
      << e;
}

TEST(ShapeInference, MatmulOperandsMustShareADtype) {
  expectRefused(oneOp("f32[4, 8][8, 1]cpu", "torch.ops.aten.mm.default", "%x, %y", "{}",
                      "f64[8, 2][2, 1]cpu"),
                "torch.ops.aten.mm.default",
                "expected mat1 and mat2 to have the same dtype, but got: float32 != float64");
  expectRefused(oneOp("f16[2, 4, 8][32, 8, 1]cpu", "torch.ops.aten.bmm.default", "%x, %y", "{}",
                      "f32[2, 8, 2][16, 2, 1]cpu"),
                "torch.ops.aten.bmm.default", "to have the same dtype");
}

TEST(ShapeInference, TopkBeyondTheDimIsAnError) {
  const std::string topk = "torch.ops.aten.topk.default";
  expectRefused(oneOp("f32[4, 3][3, 1]cpu", topk, "%x, 4"), topk, "selected index k out of range");
  EXPECT_EQ(inferredValue(oneOp("f32[4, 3][3, 1]cpu", topk, "%x, 3"), "r"),
            "f32[4, 3][3, 1]cpu | i64[4, 3][3, 1]cpu");
  // A symbolic dim may be large enough.
  EXPECT_EQ(inferenceError(oneOp("f32[4, s0][s0, 1]cpu", topk, "%x, 8")), "");
}

} // namespace
