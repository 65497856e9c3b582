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

TEST(SymExpr, UniquedNodesCompareByIdentity) {
  EXPECT_EQ(*SymExpr::parse("s0*s1"), *SymExpr::parse("s0*s1"));
  EXPECT_NE(*SymExpr::parse("s0*s1"), *SymExpr::parse("s1*s0"));
  EXPECT_EQ(SymExpr(3), *SymExpr::parse("3"));
}

} // namespace
