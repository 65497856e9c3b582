/// The symbolic scalar ops of dynamic-shape graphs (ir/ops/SymbolicOps.h): operator.* on
/// SymInt/SymFloat/SymBool, torch.sym_*, math.*, _assert_scalar, sym_constrain_range; their
/// inference (the SymExpr each node's value is), the reference interpreter (Python's numbers),
/// the compiled backends (host-side size arithmetic) and the refusal of data-dependent values.

#include "ir/ops/SymbolicOps.h"
#include "InterpreterTestSupport.h"
#include "gen/Differential.h"
#include "ir/ops/OpRegistry.h"
#include "transforms/Lowering.h"

#include <gtest/gtest.h>

using namespace fxkit;
using namespace fxkit::testing;

namespace {

/// The values shape inference gives each named node, as text.
std::string inferred(Graph &g, const std::string &name) {
  if (Status s = inferShapes(g); !s)
    return "error: " + s.error().message;
  const Node *n = g.find(name);
  if (!n)
    return "no node";
  if (const SymExpr *s = n->value().sym())
    return s->str();
  return n->value().empty() ? "empty" : "not a symbol";
}

// Sizes s0 = a.size(0); every scalar op of the table on them. Values are hand-worked for
// s0 = 6 (see the test below).
const char *kScalarOps = R"(graph():
    %a : Tensor "f32[s0, 4][4, 1]cpu"[num_users=1] = placeholder[target=a]
    %s : [num_users=12] = call_function[target=torch.ops.aten.sym_size.int](args = (%a, 0), kwargs = {})
    %ge : [num_users=1] = call_function[target=operator.ge](args = (%s, 2), kwargs = {})
    %assert : [num_users=0] = call_function[target=torch.ops.aten._assert_scalar.default](args = (%ge, Runtime assertion failed for expression s0 >= 2 on node 'ge'), kwargs = {})
    %constrain : [num_users=0] = call_function[target=torch.ops.aten.sym_constrain_range_for_size.default](args = (%s,), kwargs = {min: 2, max: 64})
    %f : [num_users=3] = call_function[target=torch.sym_float](args = (%s,), kwargs = {})
    %half : [num_users=1] = call_function[target=operator.truediv](args = (%f, 4), kwargs = {})
    %floor : [num_users=1] = call_function[target=math.floor](args = (%half,), kwargs = {})
    %ceil : [num_users=1] = call_function[target=math.ceil](args = (%half,), kwargs = {})
    %fd : [num_users=1] = call_function[target=operator.floordiv](args = (%s, 4), kwargs = {})
    %mod : [num_users=1] = call_function[target=operator.mod](args = (%s, -4), kwargs = {})
    %neg : [num_users=1] = call_function[target=operator.neg](args = (%s,), kwargs = {})
    %pow : [num_users=1] = call_function[target=operator.pow](args = (%s, 2), kwargs = {})
    %mx : [num_users=1] = call_function[target=torch.sym_max](args = (%s, 9), kwargs = {})
    %mn : [num_users=1] = call_function[target=torch.sym_min](args = (%s, 9), kwargs = {})
    %sum : [num_users=1] = call_function[target=torch.sym_sum](args = ([%s, %s, 1],), kwargs = {})
    %lt : [num_users=2] = call_function[target=operator.lt](args = (%s, 5), kwargs = {})
    %not : [num_users=1] = call_function[target=torch.sym_not](args = (%lt,), kwargs = {})
    %ite : [num_users=1] = call_function[target=torch.sym_ite](args = (%lt, %s, 0), kwargs = {})
    %eq : [num_users=1] = call_function[target=operator.eq](args = (%f, 6.0), kwargs = {})
    %sqrt : [num_users=1] = call_function[target=math.sqrt](args = (%f,), kwargs = {})
    return (floor, ceil, fd, mod, neg, pow, mx, mn, sum, not, ite, eq, sqrt)
)";

TEST(SymbolicOps, InferenceBuildsSympysExpressions) {
  auto g = parseFxText(kScalarOps, "<test>");
  ASSERT_TRUE(g) << g.error().str();
  EXPECT_EQ(inferred(*g, "ge"), "s0 >= 2");
  EXPECT_EQ(inferred(*g, "assert"), "empty");
  EXPECT_EQ(inferred(*g, "constrain"), "empty");
  EXPECT_EQ(inferred(*g, "f"), "ToFloat(s0)");
  EXPECT_EQ(inferred(*g, "half"), "ToFloat(s0)/4");
  EXPECT_EQ(inferred(*g, "floor"), "FloorToInt(ToFloat(s0)/4)");
  EXPECT_EQ(inferred(*g, "fd"), "s0//4");
  EXPECT_EQ(inferred(*g, "neg"), "-s0");
  EXPECT_EQ(inferred(*g, "mx"), "Max(s0, 9)");
  EXPECT_EQ(inferred(*g, "sum"), "2*s0 + 1");
  EXPECT_EQ(inferred(*g, "not"), "~(s0 < 5)");
  EXPECT_EQ(inferred(*g, "ite"), "Piecewise((s0, s0 < 5), (0, True))");
  EXPECT_EQ(inferred(*g, "eq"), "ToFloat(s0) == 6.0");
  EXPECT_EQ(inferred(*g, "sqrt"), "OpaqueUnaryFn_sqrt(ToFloat(s0))");
  EXPECT_EQ(g->find("ge")->value().sym()->type(), SymExpr::Type::Bool);
  EXPECT_EQ(g->find("half")->value().sym()->type(), SymExpr::Type::Float);
  EXPECT_EQ(g->find("floor")->value().sym()->type(), SymExpr::Type::Int);
}

TEST(SymbolicOps, ConstantOperandsFoldAndBadOnesFail) {
  SymExpr three(3), zero(0), half = SymExpr::floating(0.5);
  SymExpr ge[2] = {three, zero};
  EXPECT_EQ(symbolicOpExpr("operator.ge", ge)->str(), "True");
  SymExpr mul[2] = {three, half};
  EXPECT_EQ(symbolicOpExpr("operator.mul", mul)->str(), "1.5");
  SymExpr div[2] = {three, zero};
  auto byZero = symbolicOpExpr("operator.floordiv", div);
  ASSERT_FALSE(byZero);
  EXPECT_NE(byZero.error().message.find("division by zero"), std::string::npos);
  auto arity = symbolicOpExpr("operator.neg", div);
  ASSERT_FALSE(arity);
  EXPECT_NE(arity.error().message.find("takes 1 operands"), std::string::npos);
  EXPECT_FALSE(symbolicOpExpr("operator.matmul", div));
  // A constant assertion that is false fails at inference, as PyTorch fails at trace time.
  auto g = parseFxText(R"(graph():
    %a : Tensor "f32[3][1]cpu"[num_users=1] = placeholder[target=a]
    %s : [num_users=1] = call_function[target=torch.ops.aten.sym_size.int](args = (%a, 0), kwargs = {})
    %ge : [num_users=1] = call_function[target=operator.ge](args = (%s, 4), kwargs = {})
    %assert : [num_users=0] = call_function[target=torch.ops.aten._assert_scalar.default](args = (%ge, size too small), kwargs = {})
    return (a,)
)",
                       "<test>");
  ASSERT_TRUE(g);
  auto s = inferShapes(*g);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("size too small"), std::string::npos) << s.error().message;
}

TEST(SymbolicOps, InterpreterComputesPythonNumbers) {
  auto a = fromValues({6, 4}, std::vector<double>(24, 1.0));
  auto r = runText(kScalarOps, {RuntimeValue{a}});
  ASSERT_TRUE(r) << r.error().str();
  const auto &out = r->outputs;
  ASSERT_EQ(out.size(), 13u);
  auto integer = [&](size_t i) { return out[i].integer() ? *out[i].integer() : -999; };
  EXPECT_EQ(integer(0), 1);  // floor(6/4)
  EXPECT_EQ(integer(1), 2);  // ceil(6/4)
  EXPECT_EQ(integer(2), 1);  // 6 // 4
  EXPECT_EQ(integer(3), -2); // 6 % -4: the divisor's sign
  EXPECT_EQ(integer(4), -6);
  EXPECT_EQ(integer(5), 36);
  EXPECT_EQ(integer(6), 9);
  EXPECT_EQ(integer(7), 6);
  EXPECT_EQ(integer(8), 13);
  ASSERT_TRUE(std::holds_alternative<bool>(out[9].v));
  EXPECT_TRUE(std::get<bool>(out[9].v)); // not (6 < 5)
  EXPECT_EQ(integer(10), 0);             // 6 < 5 is false: the else value
  ASSERT_TRUE(std::holds_alternative<bool>(out[11].v));
  EXPECT_TRUE(std::get<bool>(out[11].v));
  ASSERT_TRUE(std::holds_alternative<double>(out[12].v));
  EXPECT_DOUBLE_EQ(std::get<double>(out[12].v), std::sqrt(6.0));
  // The assertion and the range check run: s0 = 1 breaks both.
  auto small = runText(kScalarOps, {RuntimeValue{fromValues({1, 4}, std::vector<double>(4, 1.0))}});
  ASSERT_FALSE(small);
  EXPECT_NE(small.error().message.find("Runtime assertion failed for expression s0 >= 2"),
            std::string::npos)
      << small.error().message;
}

TEST(SymbolicOps, RangeChecksAndAsyncAssertionsRunInTheInterpreter) {
  const char *text = R"(graph():
    %a : Tensor "f32[s0][1]cpu"[num_users=2] = placeholder[target=a]
    %s : [num_users=1] = call_function[target=torch.ops.aten.sym_size.int](args = (%a, 0), kwargs = {})
    %c : [num_users=0] = call_function[target=torch.ops.aten.sym_constrain_range.default](args = (%s,), kwargs = {min: 3, max: 5})
    %sum : [num_users=1] = call_function[target=torch.ops.aten.sum.default](args = (%a,), kwargs = {})
    %assert : [num_users=0] = call_function[target=torch.ops.aten._assert_async.msg](args = (%sum, sum is zero), kwargs = {})
    return (sum,)
)";
  EXPECT_TRUE(runText(text, {RuntimeValue{fromValues({4}, {1, 2, 3, 4})}}));
  auto big = runText(text, {RuntimeValue{fromValues({6}, {1, 1, 1, 1, 1, 1})}});
  ASSERT_FALSE(big);
  EXPECT_NE(big.error().message.find("Invalid value range for 6 between [3, 5]"), std::string::npos)
      << big.error().message;
  auto zero = runText(text, {RuntimeValue{fromValues({4}, {1, -1, 2, -2})}});
  ASSERT_FALSE(zero);
  EXPECT_NE(zero.error().message.find("single nonzero value, but got zero: sum is zero"),
            std::string::npos)
      << zero.error().message;
}

// A SymFloat from item() of a float tensor flows into a pointwise op as a Python float.
TEST(SymbolicOps, SymFloatScalarsPromoteAsFloats) {
  const char *text = R"(graph():
    %x : Tensor "i64[3][1]cpu"[num_users=1] = placeholder[target=x]
    %t : Tensor "f64[][]cpu"[num_users=1] = placeholder[target=t]
    %item : [num_users=1] = call_function[target=torch.ops.aten._local_scalar_dense.default](args = (%t,), kwargs = {})
    %mul : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, %item), kwargs = {})
    return (mul,)
)";
  auto g = parseFxText(text, "<test>");
  ASSERT_TRUE(g);
  g->find("item")->value() = NodeValue{SymExpr::symbol("zuf0")};
  ASSERT_TRUE(inferShapes(*g));
  EXPECT_EQ(g->find("mul")->value().tensor()->dtype, DType::Float32); // int tensor * float
  registerReferenceKernels();
  std::vector<RuntimeValue> inputs{RuntimeValue{fromValues({3}, {1, 2, 3}, DType::Int64)},
                                   RuntimeValue{fromValues({}, {0.5}, DType::Float64)}};
  auto r = interpretGraph(*g, inputs);
  ASSERT_TRUE(r) << r.error().str();
  expectValues(*r->outputs[0].tensor(), {0.5, 1.0, 1.5});
}

// Host-side size arithmetic compiles: the wrapper computes s0 // 2 and s0 - 1 from the input's
// size, kernels take them as size arguments, and the assertion is an assumption. A SymFloat
// (s0 / 4) and a SymBool (s0 / 4 > 1.0) used as tensor operands are computed in the kernel from
// the size argument (float64, as Python's float). (The message
// has no spaces: FX text prints strings bare, and the FX text parser reads one with spaces as
// opaque text, which the annotated Python then prints unquoted.)
TEST(SymbolicOps, BackedScalarArithmeticCompilesOnEveryBackend) {
  const std::string text = R"(graph():
    %a : Tensor "f32[s0, 4][4, 1]cpu"[num_users=2] = placeholder[target=a]
    %s : [num_users=5] = call_function[target=torch.ops.aten.sym_size.int](args = (%a, 0), kwargs = {})
    %ge : [num_users=1] = call_function[target=operator.ge](args = (%s, 2), kwargs = {})
    %assert : [num_users=0] = call_function[target=torch.ops.aten._assert_scalar.default](args = (%ge, s0_is_at_least_2), kwargs = {})
    %half : [num_users=1] = call_function[target=operator.floordiv](args = (%s, 2), kwargs = {})
    %last : [num_users=1] = call_function[target=operator.sub](args = (%s, 1), kwargs = {})
    %slice : [num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%a, 0, %half, %last), kwargs = {})
    %mul : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%slice, %s), kwargs = {})
    %f : [num_users=1] = call_function[target=torch.sym_float](args = (%s,), kwargs = {})
    %q : [num_users=2] = call_function[target=operator.truediv](args = (%f, 4), kwargs = {})
    %mul2 : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul, %q), kwargs = {})
    %big : [num_users=1] = call_function[target=operator.gt](args = (%q, 1.0), kwargs = {})
    %mul3 : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul2, %big), kwargs = {})
    return (mul3,)
)";
  DifferentialOptions options;
  options.llvm = true;
  // The text formats too: typed FX text carries the symbolic values (`%s : Sym(s0)`).
  for (int64_t s0 : {2, 5, 8}) {
    auto failure = checkGraphDifferentially(text, {{"s0", s0}}, options);
    EXPECT_FALSE(failure) << "s0 = " << s0 << ": " << diffStageName(failure->stage) << ": "
                          << failure->message;
  }
}

// Unbacked values (u0 of item(), nonzero's row count) are known only mid-run: the op that makes
// one lowers to an extern call that binds it when it has run (tests/UnbackedCompileTest.cpp),
// and the kernels after it read it like any size; the loop program agrees with the interpreter.
TEST(SymbolicOps, DataDependentValuesAreBoundByTheExternOpThatMakesThem) {
  const char *text = R"(graph():
    %x : Tensor "f32[8][1]cpu"[num_users=2] = placeholder[target=x]
    %gt : [num_users=1] = call_function[target=torch.ops.aten.gt.Scalar](args = (%x, 0), kwargs = {})
    %nonzero : [num_users=1] = call_function[target=torch.ops.aten.nonzero.default](args = (%gt,), kwargs = {})
    %sum : [num_users=1] = call_function[target=torch.ops.aten.sum.default](args = (%nonzero,), kwargs = {})
    return (sum,)
)";
  auto g = parseFxText(text, "<test>");
  ASSERT_TRUE(g);
  ASSERT_TRUE(inferShapes(*g));
  EXPECT_EQ(g->find("nonzero")->value().tensor()->str(), "i64[u0, 1][1, u0]cpu");
  auto lowered = lowerGraph(*g);
  ASSERT_TRUE(lowered) << lowered.error().str();
  EXPECT_EQ(lowered->unbackedSymbols(), std::vector<std::string>{"u0"});
  EXPECT_NE(lowered->str().find("u0 = buf1.size(0)"), std::string::npos) << lowered->str();
  std::vector<RuntimeValue> inputs{RuntimeValue{fromValues({8}, {1, -1, 2, 0, 3, -4, 5, 6})}};
  auto r = runText(text, inputs);
  ASSERT_TRUE(r) << r.error().str();
  expectValues(*r->outputs[0].tensor(), {0 + 2 + 4 + 6 + 7});
  DifferentialOptions options;
  options.inputs = &inputs;
  auto failure = checkGraphDifferentially(text, {}, options);
  EXPECT_FALSE(failure) << diffStageName(failure->stage) << ": " << failure->message;
}

} // namespace
