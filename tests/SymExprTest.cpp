#include "ir/SymExpr.h"

#include <gtest/gtest.h>

using namespace fxkit;

namespace {

std::string roundTrip(std::string_view text) {
  auto e = SymExpr::parse(text);
  EXPECT_TRUE(e) << (e ? "" : e.error().str());
  return e ? e->str() : "";
}

TEST(SymExpr, PrintsBackExactly) {
  for (std::string_view s : {"s77", "s77*s17", "-((-s6)//8)", "s17*s27 + 1", "2*s0 - 1",
                             "(s0 + 1)//2", "Max(1, s0)", "s0**2", "ModularIndexing(x0, 1, 4)",
                             "-s0", "s0 - (s1 - s2)", "(s0)", "s0 % 3", "-5", "a*-3"})
    EXPECT_EQ(roundTrip(s), s);
}

TEST(SymExpr, BuiltTreesGetNeededParentheses) {
  SymExpr a = SymExpr::symbol("a"), b = SymExpr::symbol("b"), c = SymExpr::symbol("c");
  using K = SymExpr::Kind;
  EXPECT_EQ(SymExpr::binary(K::Mul, SymExpr::binary(K::Add, a, b), c).str(), "(a + b)*c");
  EXPECT_EQ(SymExpr::binary(K::Sub, a, SymExpr::binary(K::Sub, b, c)).str(), "a - (b - c)");
  EXPECT_EQ(SymExpr::binary(K::FloorDiv, a, SymExpr::binary(K::Mul, b, c)).str(), "a//(b*c)");
  EXPECT_EQ(SymExpr::neg(SymExpr::binary(K::Add, a, b)).str(), "-(a + b)");
}

TEST(SymExpr, EvaluatesWithPythonSemantics) {
  SymExpr::Bindings env{{"s6", 17}, {"s0", -7}};
  EXPECT_EQ(*SymExpr::parse("-((-s6)//8)")->evaluate(env), 3); // ceil(17/8)
  EXPECT_EQ(*SymExpr::parse("s0//2")->evaluate(env), -4);
  EXPECT_EQ(*SymExpr::parse("s0 % 3")->evaluate(env), 2);
  EXPECT_EQ(*SymExpr::parse("Max(s0, 2)*s6")->evaluate(env), 34);
  auto unbound = SymExpr::parse("s1 + 1")->evaluate(env);
  ASSERT_FALSE(unbound);
  EXPECT_NE(unbound.error().message.find("s1"), std::string::npos);
}

TEST(SymExpr, SimplifyGivesCanonicalPolynomials) {
  auto simp = [](std::string_view s) { return SymExpr::parse(s)->simplify().str(); };
  EXPECT_EQ(simp("s27*s17"), simp("s17*s27"));
  EXPECT_EQ(simp("(s0 + 1)*(s0 - 1)"), simp("s0**2 - 1"));
  EXPECT_EQ(simp("(4*s0 + 8)//4"), "s0 + 2");
  EXPECT_EQ(simp("2*3 + s0 - s0"), "6");
  EXPECT_EQ(simp("s17*s27 + 1"), "s17*s27 + 1");
  EXPECT_EQ(simp("-(s0)"), "-s0");
}

TEST(SymExpr, SubstituteReplacesSymbols) {
  auto e = *SymExpr::parse("s0*s1 + 1");
  auto r = e.substitute({{"s0", *SymExpr::parse("ks0 + 2")}});
  EXPECT_EQ(r.str(), "(ks0 + 2)*s1 + 1");
  EXPECT_EQ(r.symbols(), (std::vector<std::string>{"ks0", "s1"}));
}

TEST(SymExpr, ErrorsCarryColumns) {
  auto e = SymExpr::parse("s0 + * 2");
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().loc.col, 6);
  EXPECT_FALSE(SymExpr::parse("(s0 + 1"));
  EXPECT_FALSE(SymExpr::parse(""));
  EXPECT_FALSE(SymExpr::parse("99999999999999999999"));
  std::string deep(1000, '(');
  EXPECT_FALSE(SymExpr::parse(deep + "1" + std::string(1000, ')'))); // depth limit, no crash
}

// What sympy's StrPrinter and PyTorch's printers write for SymBool/SymFloat values, guards
// and sizes (readable.py `Sym(...)`, nodes.json, scheduler dumps, wrapper code).
TEST(SymExpr, ReadsEveryPrintedFormBack) {
  for (std::string_view s : {"u0 >= 0",
                             "u1 <= 128",
                             "s0 < 5",
                             "s0 > 5",
                             "Eq(s0, 2)",
                             "Ne(s27, 1)",
                             "(u0 >= 0) & (u0 <= 128)",
                             "(s0 > 2) | Eq(s1, 3)",
                             "~(s0 > 2)",
                             "~Eq(s0, 1)",
                             "s0 == 2",
                             "s0 != 2",
                             "s0 >= 2 and s1 < 4",
                             "not s0 > 2",
                             "a or b and c",
                             "1.00000000000000E-12",
                             "0.100000000000000",
                             "1.0*s0",
                             "-0.5*s0",
                             "s0/2",
                             "1/s0",
                             "sqrt(s0)",
                             "s0**(1/2)",
                             "s0**0.5",
                             "Piecewise((1, s0 > 2), (0, True))",
                             "(s0,)",
                             "()",
                             "FloorDiv(s0, 2)",
                             "((s0 + 1)//2)",
                             "CeilDiv(s0, 8)",
                             "PythonMod(s0, 8)",
                             "Mod(s27, 8)",
                             "8 - (Mod(s27, 8))",
                             "TruncToInt(1.0*s0)",
                             "ToFloat(s0)",
                             "IntTrueDiv(s0, 3)",
                             "FloatTrueDiv(zf0, 2.0)",
                             "OpaqueUnaryFn_sqrt(s0)",
                             "Identity(s0)",
                             "IsNonOverlappingAndDenseIndicator(s0, 4, 4, 1)",
                             "Where(s0 > 1, s0, 1)",
                             "zf55",
                             "zuf0",
                             "ps0",
                             "u10",
                             "math.floor(s0/2)",
                             "-math.inf",
                             "True",
                             "False",
                             "int_oo",
                             "-oo",
                             "1e-05",
                             "2.5e+20",
                             "Max(s0, 2.0)",
                             "Min(u0, s1)",
                             "s0 ^ s1",
                             "Abs(s0 - 4)"})
    EXPECT_EQ(roundTrip(s), s);
}

TEST(SymExpr, KnowsIntFloatAndBoolExpressions) {
  using T = SymExpr::Type;
  auto type = [](std::string_view s) { return SymExpr::parse(s)->type(); };
  EXPECT_EQ(type("s0*s1 + 1"), T::Int);
  EXPECT_EQ(type("u0 >= 0"), T::Bool);
  EXPECT_EQ(type("(u0 >= 0) & (u0 <= 128)"), T::Bool);
  EXPECT_EQ(type("Eq(s0, 2)"), T::Bool);
  EXPECT_EQ(type("1.0*s0"), T::Float);
  EXPECT_EQ(type("zf55"), T::Float);
  EXPECT_EQ(type("s0/2"), T::Float);
  EXPECT_EQ(type("TruncToInt(1.0*s0)"), T::Int);
  EXPECT_EQ(type("True"), T::Bool);
  EXPECT_EQ(type("Mod(s27, 8)"), T::Int);
}

TEST(SymExpr, EvaluatesBooleansFloatsAndSympyFunctions) {
  SymExpr::Bindings env{{"s0", 10}, {"u0", 3}, {"s27", 13}};
  auto num = [&](std::string_view s) {
    auto e = SymExpr::parse(s);
    EXPECT_TRUE(e) << s;
    auto v = e->evaluateNumber(env);
    EXPECT_TRUE(v) << s << ": " << (v ? "" : v.error().message);
    return v ? *v : SymExpr::Number{};
  };
  using T = SymExpr::Type;
  auto isBool = [&](std::string_view s, bool want) {
    SymExpr::Number n = num(s);
    EXPECT_EQ(n.type, T::Bool) << s;
    EXPECT_EQ(n.i, want ? 1 : 0) << s;
  };
  auto isFloat = [&](std::string_view s, double want) {
    SymExpr::Number n = num(s);
    EXPECT_EQ(n.type, T::Float) << s;
    EXPECT_DOUBLE_EQ(n.f, want) << s;
  };
  auto isInt = [&](std::string_view s, int64_t want) {
    SymExpr::Number n = num(s);
    EXPECT_EQ(n.type, T::Int) << s;
    EXPECT_EQ(n.i, want) << s;
  };
  isBool("u0 >= 0", true);
  isBool("(u0 >= 0) & (u0 <= 2)", false);
  isBool("(u0 >= 4) | Eq(s0, 10)", true);
  isBool("~(s0 > 2)", false);
  isBool("Ne(s0, 10)", false);
  isBool("not s0 == 10", false);
  isFloat("1.0*s0", 10.0);
  isFloat("s0/4", 2.5);
  isFloat("1.00000000000000E-12", 1e-12);
  isFloat("sqrt(s0 - 1)", 3.0);
  isFloat("ToFloat(u0)", 3.0);
  isFloat("IntTrueDiv(u0, 2)", 1.5);
  isFloat("s0**-1", 0.1);
  isInt("TruncToInt(-2.5)", -2);
  isInt("FloorToInt(-2.5)", -3);
  isInt("CeilToInt(2.5)", 3);
  isInt("RoundToInt(2.5)", 2); // half to even
  isInt("RoundToInt(3.5)", 4);
  isInt("math.ceil(s27 / 4)", 4); // exact, in integers
  isInt("CeilDiv(s27, 4)", 4);
  isInt("((s27 + 1)//2)", 7);
  isInt("8 - (Mod(s27, 8))", 3);
  isInt("PythonMod(-s27, 8)", 3);
  isInt("ModularIndexing(s27, 2, 4)", 2);
  isInt("Piecewise((1, s0 > 20), (2, s0 > 5), (3, True))", 2);
  isInt("Where(u0 > 1, s0, 1)", 10);
  isInt("IsNonOverlappingAndDenseIndicator(2, 3, 3, 1)", 1);
  isInt("IsNonOverlappingAndDenseIndicator(2, 3, 1, 3)", 0);
  isInt("LShift(u0, 2)", 12);
  isInt("RShift(s27, 2)", 3);
  isInt("u0 and s0", 10); // Python's and gives an operand
  isInt("Max(u0, s0, 4)", 10);
  // evaluate() wants integers: a bool is 0/1, an integral float passes, a fraction does not.
  EXPECT_EQ(*SymExpr::parse("u0 >= 0")->evaluate(env), 1);
  EXPECT_EQ(*SymExpr::parse("s0/2")->evaluate(env), 5);
  EXPECT_FALSE(SymExpr::parse("s0/4")->evaluate(env));
  auto overflow = SymExpr::parse("s0**40")->evaluate(env);
  ASSERT_FALSE(overflow);
  EXPECT_NE(overflow.error().message.find("overflow"), std::string::npos);
  EXPECT_FALSE(SymExpr::parse("u0 // 0")->evaluate(env));
  EXPECT_FALSE(SymExpr::parse("Foo(s0)")->evaluate(env));
}

TEST(SymExpr, BooleanTreesPrintWithPythonPrecedence) {
  using K = SymExpr::Kind;
  SymExpr u0 = SymExpr::symbol("u0");
  SymExpr ge = SymExpr::binary(K::Ge, u0, 0), le = SymExpr::binary(K::Le, u0, 128);
  EXPECT_EQ(SymExpr::binary(K::BitAnd, ge, le).str(), "(u0 >= 0) & (u0 <= 128)");
  EXPECT_EQ(SymExpr::binary(K::And, ge, le).str(), "u0 >= 0 and u0 <= 128");
  EXPECT_EQ(SymExpr::unary(K::Not, ge).str(), "not u0 >= 0");
  EXPECT_EQ(SymExpr::unary(K::Invert, ge).str(), "~(u0 >= 0)");
  EXPECT_EQ(SymExpr::binary(K::Ge, SymExpr::binary(K::Add, u0, 1), 0).str(), "u0 + 1 >= 0");
  EXPECT_EQ(SymExpr::floating(0.5).str(), "0.5");
  EXPECT_EQ(SymExpr::boolean(true).str(), "True");
  // simplify() keeps booleans as atoms over simplified operands.
  EXPECT_EQ(SymExpr::parse("(u0 + 0 >= (0))")->simplify().str(), "u0 >= 0");
  // substitute() rebuilds every kind.
  auto e = SymExpr::parse("Piecewise((s0, s0 > 2), (0, True)) + (not s1)")
               ->substitute({{"s0", SymExpr(7)}, {"s1", SymExpr::symbol("u3")}});
  EXPECT_EQ(e.str(), "Piecewise((7, 7 > 2), (0, True)) + (not u3)");
  EXPECT_EQ(SymExpr::parse("s0 >= 0 and True")->symbols(), std::vector<std::string>{"s0"});
}

TEST(SymExpr, RefusesWhatItCannotReadWithAColumn) {
  auto chained = SymExpr::parse("0 <= u0 <= 128");
  ASSERT_FALSE(chained);
  EXPECT_NE(chained.error().message.find("chained comparison"), std::string::npos);
  EXPECT_EQ(chained.error().loc.col, 9);
  auto dangling = SymExpr::parse("u0 >= ");
  ASSERT_FALSE(dangling);
  EXPECT_EQ(dangling.error().loc.col, 7);
  auto keyword = SymExpr::parse("s0 + and");
  ASSERT_FALSE(keyword);
  EXPECT_EQ(keyword.error().loc.col, 6);
  EXPECT_FALSE(SymExpr::parse("1e+"));
  EXPECT_FALSE(SymExpr::parse("Piecewise((1, True)"));
  EXPECT_FALSE(SymExpr::parse("(1, 2"));
  for (std::string_view op : {"not ", "~", "-"}) { // unary chains hit the depth limit
    std::string deep;
    for (int i = 0; i < 1000; ++i)
      deep += op;
    EXPECT_FALSE(SymExpr::parse(deep + "s0"));
  }
  std::string calls;
  for (int i = 0; i < 1000; ++i)
    calls += "Max(";
  EXPECT_FALSE(SymExpr::parse(calls));
}

TEST(SymExpr, UniquedNodesCompareByIdentity) {
  EXPECT_EQ(*SymExpr::parse("s0*s1"), *SymExpr::parse("s0*s1"));
  EXPECT_NE(*SymExpr::parse("s0*s1"), *SymExpr::parse("s1*s0"));
  EXPECT_EQ(SymExpr(3), *SymExpr::parse("3"));
}

} // namespace

// Simplifying a product whose coefficient leaves int64 keeps the expression as written (the
// fuzzer found signed overflow on a type annotation f32[2**62-ish, 4]); evaluating it reports
// the overflow instead of wrapping.
TEST(SymExpr, SimplifyKeepsAnExpressionWhoseCoefficientsOverflow) {
  auto e = SymExpr::parse("4611686018427387904*s0*4");
  ASSERT_TRUE(e);
  SymExpr s = e->simplify();
  EXPECT_EQ(s.str(), "4611686018427387904*s0*4");
  auto v = s.evaluate({{"s0", 1}});
  EXPECT_FALSE(v);
  auto small = SymExpr::parse("3*s0*4");
  ASSERT_TRUE(small);
  EXPECT_EQ(small->simplify().str(), "12*s0");
  auto neg = SymExpr::parse("-(-9223372036854775807 - 1 + s0)");
  ASSERT_TRUE(neg);
  EXPECT_EQ(neg->simplify().str(), neg->str());
}
