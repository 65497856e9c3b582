/// The reference interpreter's contract: how inputs bind to placeholders (types, symbols,
/// layouts), what it returns, its errors, random inputs, and the safetensors binding of inputs
/// and outputs used by `fxkit run`.

#include "backends/interp/Interpreter.h"
#include "InterpreterTestSupport.h"
#include "backends/interp/json/ReferenceIO.h"

#include <gtest/gtest.h>

using namespace fxkit;
using namespace fxkit::testing;

namespace {

const char *kSymbolicMm = R"(graph():
    %a : Tensor "f32[s0, s1][s1, 1]cpu"[num_users=1] = placeholder[target=a]
    %b : Tensor "f32[s1, 2][2, 1]cpu"[num_users=1] = placeholder[target=b]
    %n : [num_users=0] = placeholder[target=n]
    %mm : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%a, %b), kwargs = {})
    return (mm, n, None)
)";

/// kSymbolicMm with `n` typed as the symbol s0 (FX text has no spelling for that: the
/// nodes.json sidecar gives such types).
Expected<Graph> symbolicMm() {
  auto graph = parseFxText(kSymbolicMm, "<test>");
  if (graph)
    graph->find("n")->value() = NodeValue{SymExpr::symbol("s0")};
  return graph;
}

Expected<InterpretResult> run(const char *text, std::vector<RuntimeValue> inputs) {
  if (text != kSymbolicMm)
    return runText(text, inputs);
  auto graph = symbolicMm();
  if (!graph)
    return graph.takeError();
  return interpretGraph(*graph, inputs);
}

TEST(Interpreter, BindsSymbolsFromInputSizesAndReturnsEveryOutput) {
  Tensor a = fromValues({3, 2}, {1, 2, 3, 4, 5, 6});
  Tensor b = fromValues({2, 2}, {1, 0, 0, 2});
  auto r = run(kSymbolicMm, {RuntimeValue{a}, RuntimeValue{b}, RuntimeValue{int64_t(3)}});
  ASSERT_TRUE(r) << r.error().str();
  EXPECT_EQ(r->bindings.at("s0"), 3);
  EXPECT_EQ(r->bindings.at("s1"), 2);
  ASSERT_EQ(r->outputs.size(), 3u);
  expectValues(*r->outputs[0].tensor(), {1, 4, 3, 8, 5, 12});
  EXPECT_EQ(*r->outputs[1].integer(), 3);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(r->outputs[2].v));
}

TEST(Interpreter, InconsistentSymbolIsAnError) {
  Tensor a = fromValues({3, 2}, {1, 2, 3, 4, 5, 6});
  Tensor b = fromValues({3, 2}, {1, 0, 0, 2, 0, 0}); // s1 = 2 from a, but b has 3 rows
  auto r = run(kSymbolicMm, {RuntimeValue{a}, RuntimeValue{b}, RuntimeValue{int64_t(3)}});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("input 1 ('b') has sizes [3, 2], the graph expects [2, 2]"),
            std::string::npos)
      << r.error().message;
}

TEST(Interpreter, IntegerInputMustEqualItsSymbol) {
  Tensor a = fromValues({3, 2}, {1, 2, 3, 4, 5, 6});
  Tensor b = fromValues({2, 2}, {1, 0, 0, 2});
  auto r = run(kSymbolicMm, {RuntimeValue{a}, RuntimeValue{b}, RuntimeValue{int64_t(4)}});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("input 2 ('n') is 4, the graph expects s0 = 3"),
            std::string::npos)
      << r.error().message;
}

TEST(Interpreter, WrongInputCountDtypeAndKindAreErrors) {
  Tensor a = fromValues({3, 2}, {1, 2, 3, 4, 5, 6});
  Tensor b = fromValues({2, 2}, {1, 0, 0, 2});
  auto few = run(kSymbolicMm, {RuntimeValue{a}});
  ASSERT_FALSE(few);
  EXPECT_NE(few.error().message.find("the graph has 3 inputs (a, b, n), got 1"), std::string::npos)
      << few.error().message;

  Tensor b64 = fromValues({2, 2}, {1, 0, 0, 2}, DType::Float64);
  auto dtype = run(kSymbolicMm, {RuntimeValue{a}, RuntimeValue{b64}, RuntimeValue{int64_t(3)}});
  ASSERT_FALSE(dtype);
  EXPECT_NE(dtype.error().message.find("input 1 ('b') has dtype float64"), std::string::npos)
      << dtype.error().message;

  auto kind = run(kSymbolicMm, {RuntimeValue{a}, RuntimeValue{b}, RuntimeValue{a}});
  ASSERT_FALSE(kind);
  EXPECT_NE(kind.error().message.find("must be an integer"), std::string::npos);

  Tensor rank3 = fromValues({1, 3, 2}, {1, 2, 3, 4, 5, 6});
  auto rank = run(kSymbolicMm, {RuntimeValue{rank3}, RuntimeValue{b}, RuntimeValue{int64_t(3)}});
  ASSERT_FALSE(rank);
  EXPECT_NE(rank.error().message.find("input 0 ('a') has sizes [1, 3, 2]"), std::string::npos)
      << rank.error().message;
}

TEST(Interpreter, InputsTakeTheLayoutTheGraphDeclares) {
  // `a` is declared column-major (a transposed weight); a contiguous input is copied into that
  // layout, so every inferred stride downstream holds, and the values are unchanged.
  const char *text = R"(graph():
    %a : Tensor "f32[2, 3][1, 2]cpu"[num_users=1] = placeholder[target=a]
    %b : Tensor "f32[3, 1][1, 1]cpu"[num_users=1] = placeholder[target=b]
    %mm : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%a, %b), kwargs = {})
    return (mm,)
)";
  Tensor a = fromValues({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor b = fromValues({3, 1}, {1, 10, 100});
  auto r = run(text, {RuntimeValue{a}, RuntimeValue{b}});
  ASSERT_TRUE(r) << r.error().str();
  expectValues(*r->outputs[0].tensor(), {321, 654});
}

TEST(Interpreter, UntypedPlaceholdersTakeTheirInputsTypes) {
  const char *text = R"(graph():
    %a : [num_users=1] = placeholder[target=a]
    %b : [num_users=1] = placeholder[target=b]
    %mm : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%a, %b), kwargs = {})
    return (mm,)
)";
  auto graph = parseFxText(text, "<test>");
  ASSERT_TRUE(graph);
  std::vector<RuntimeValue> in{RuntimeValue{fromValues({1, 2}, {1, 2})},
                               RuntimeValue{fromValues({2, 1}, {3, 4})}};
  auto r = interpretGraph(*graph, in);
  ASSERT_TRUE(r) << r.error().str();
  expectValues(*r->outputs[0].tensor(), {11});
  // Shape inference filled in the types from the inputs.
  ASSERT_TRUE(graph->find("mm")->value().tensor());
  EXPECT_EQ(graph->find("mm")->value().tensor()->str(), "f32[1, 1][1, 1]cpu");
}

TEST(Interpreter, UnknownOpsAndUnsupportedNodesNameTheNode) {
  const char *unknown = R"(graph():
    %a : [num_users=1] = placeholder[target=a]
    %f : [num_users=1] = call_function[target=torch.ops.aten.frobnicate.default](args = (%a,), kwargs = {})
    return (f,)
)";
  auto r = run(unknown, {RuntimeValue{fromValues({1}, {1})}});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("'f'"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("frobnicate"), std::string::npos) << r.error().message;

  const char *module = R"(graph():
    %a : [num_users=1] = placeholder[target=a]
    %m : [num_users=1] = call_module[target=linear](args = (%a,), kwargs = {})
    return (m,)
)";
  auto m = run(module, {RuntimeValue{fromValues({1}, {1})}});
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("call_module"), std::string::npos) << m.error().message;
}

TEST(Interpreter, KernelErrorsNameTheNodeAndOp) {
  const char *text = R"(graph():
    %a : [num_users=1] = placeholder[target=a]
    %b : [num_users=1] = placeholder[target=b]
    %mm : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%a, %b), kwargs = {})
    return (mm,)
)";
  // Shape inference already refuses [1, 2] @ [3, 1].
  auto r = run(text, {RuntimeValue{fromValues({1, 2}, {1, 2})},
                      RuntimeValue{fromValues({3, 1}, {1, 2, 3})}});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("'mm'"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("aten.mm"), std::string::npos) << r.error().message;
}

TEST(Interpreter, RandomInputsFollowTypesSymbolsAndSeed) {
  auto graph = symbolicMm();
  ASSERT_TRUE(graph);
  SymExpr::Bindings symbols{{"s0", 4}, {"s1", 5}};
  auto first = makeRandomInputs(*graph, symbols, 7);
  auto again = makeRandomInputs(*graph, symbols, 7);
  auto other = makeRandomInputs(*graph, symbols, 8);
  ASSERT_TRUE(first && again && other);
  ASSERT_EQ(first->size(), 3u);
  EXPECT_EQ((*first)[0].tensor()->sizes(), (std::vector<int64_t>{4, 5}));
  EXPECT_EQ((*first)[1].tensor()->sizes(), (std::vector<int64_t>{5, 2}));
  EXPECT_EQ(*(*first)[2].integer(), 4);
  EXPECT_TRUE((*first)[0].tensor()->bitwiseEqual(*(*again)[0].tensor()));
  EXPECT_FALSE((*first)[0].tensor()->bitwiseEqual(*(*other)[0].tensor()));
  // And they run.
  auto r = interpretGraph(*graph, *first);
  ASSERT_TRUE(r) << r.error().str();

  auto missing = makeRandomInputs(*graph, {{"s0", 4}}, 0);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("s1"), std::string::npos) << missing.error().message;
  EXPECT_NE(missing.error().message.find("--sym"), std::string::npos);
}

// ---- Safetensors binding (fxkit run --inputs / --check / -o) ----

TEST(ReferenceIO, InputsByPlaceholderIndexWithIntegersInMetadata) {
  SafetensorsFile file;
  file.tensors.emplace_back("arg_0", fromValues({2}, {1, 2}));
  file.metadata["arg_1"] = "17";
  auto in = readGraphInputs(file, 2, "in.safetensors");
  ASSERT_TRUE(in) << in.error().str();
  EXPECT_EQ((*in)[0].tensor()->sizes(), (std::vector<int64_t>{2}));
  EXPECT_EQ(*(*in)[1].integer(), 17);

  auto missing = readGraphInputs(file, 3, "in.safetensors");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("no input 'arg_2'"), std::string::npos);
  auto extra = readGraphInputs(file, 1, "in.safetensors");
  ASSERT_FALSE(extra);
  EXPECT_NE(extra.error().message.find("more inputs than the graph's 1"), std::string::npos);
  file.metadata["arg_1"] = "seventeen";
  auto bad = readGraphInputs(file, 2, "in.safetensors");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("expected an integer"), std::string::npos);
}

TEST(ReferenceIO, OutputsRoundTripAndCompare) {
  std::vector<RuntimeValue> outs{RuntimeValue{fromValues({2}, {1, 2})}, RuntimeValue{int64_t(5)},
                                 RuntimeValue{}};
  SafetensorsFile file = graphOutputsFile(outs);
  ASSERT_EQ(file.tensors.size(), 1u);
  EXPECT_EQ(file.metadata.at("out_1"), "5");
  auto checks = checkGraphOutputs(outs, file, {});
  ASSERT_TRUE(checks);
  ASSERT_EQ(checks->size(), 3u);
  for (const OutputCheck &c : *checks)
    EXPECT_TRUE(c.ok) << c.name << ": " << c.detail;

  // A value just outside the tolerance, a wrong integer, and an expected output too many.
  std::vector<RuntimeValue> off{RuntimeValue{fromValues({2}, {1, 2.001})}, RuntimeValue{int64_t(6)},
                                RuntimeValue{}};
  file.metadata["out_3"] = "1";
  auto bad = checkGraphOutputs(off, file, {});
  ASSERT_TRUE(bad);
  ASSERT_EQ(bad->size(), 4u);
  EXPECT_FALSE((*bad)[0].ok);
  EXPECT_NE((*bad)[0].detail.find("1 element not close"), std::string::npos) << (*bad)[0].detail;
  EXPECT_FALSE((*bad)[1].ok);
  EXPECT_EQ((*bad)[1].detail, "expected 5");
  EXPECT_TRUE((*bad)[2].ok);
  EXPECT_FALSE((*bad)[3].ok);
  // A looser tolerance accepts the first.
  auto loose = checkGraphOutputs(off, file, {1e-3, 1e-3});
  ASSERT_TRUE(loose);
  EXPECT_TRUE((*loose)[0].ok) << (*loose)[0].detail;
}

TEST(ReferenceIO, DefaultTolerancesByDtype) {
  EXPECT_EQ(defaultTolerance(DType::Float32), (std::pair<double, double>{1e-4, 1e-4}));
  EXPECT_EQ(defaultTolerance(DType::Float16), (std::pair<double, double>{1e-3, 1e-3}));
  EXPECT_EQ(defaultTolerance(DType::BFloat16), (std::pair<double, double>{1.6e-2, 1e-3}));
}

} // namespace
