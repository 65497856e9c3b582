#include "exporters/FxTextPrinter.h"
#include "importers/FxTextParser.h"
#include "ir/Verifier.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace fxkit;

namespace {

/// Parses `text`, failing the test with the parser's message on error.
Graph parseOk(std::string_view text) {
  auto g = parseFxText(text, "test.txt");
  EXPECT_TRUE(g) << (g ? "" : g.error().str());
  return g ? g.take() : Graph();
}

/// Asserts that parsing fails at line:col with a message containing `msg`, and that the
/// snippet is the offending line (cut to 200 bytes).
void expectError(std::string_view text, int line, int col, std::string_view msg) {
  auto g = parseFxText(text, "bad.txt");
  ASSERT_FALSE(g) << "parsed: " << text;
  const Error &e = g.error();
  EXPECT_EQ(e.loc.file, "bad.txt");
  EXPECT_EQ(e.loc.line, line) << e.str();
  EXPECT_EQ(e.loc.col, col) << e.str();
  EXPECT_NE(e.message.find(msg), std::string::npos) << e.str();
  std::string_view rest = text;
  for (int l = 1; l < line && !rest.empty(); ++l) {
    size_t nl = rest.find('\n');
    rest = nl == rest.npos ? std::string_view() : rest.substr(nl + 1);
  }
  std::string_view expected = rest.substr(0, rest.find('\n'));
  EXPECT_EQ(e.snippet, expected.substr(0, 200)) << e.str();
}

void expectRoundTrip(std::string_view text) {
  Graph g = parseOk(text);
  EXPECT_EQ(printFxText(g), text);
  EXPECT_TRUE(verifyGraph(g));
}

constexpr std::string_view kBasic = R"(graph():
    %arg0_1 : [num_users=2] = placeholder[target=arg0_1]
    %s77 : torch.SymInt [num_users=1] = placeholder[target=s77]
    %sum_1 : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%arg0_1, [-1]), kwargs = {})
    %buf0 : [num_users=2] = call_function[target=torch.empty_strided](args = ([12288], [1]), kwargs = {dtype: torch.float32, device: cuda})
    %t : [num_users=0] = call_function[target=torch.ops.higher_order.triton_kernel_wrapper_mutation](args = (), kwargs = {kernel_idx: 0, grid: [(48, 1, 1)], tma_descriptor_metadata: {}, kwargs: {in_ptr0: %arg0_1, xnumel: %s77, XBLOCK: 256, out: %buf0}})
    %mul_11 : [num_users=1] = call_function[target=operator.mul](args = (%sum_1, %buf0), kwargs = {})
    return (mul_11,))";

TEST(FxText, RoundTripBasic) { expectRoundTrip(kBasic); }

TEST(FxText, RoundTripOpsAndReturnForms) {
  expectRoundTrip(R"(graph():
    %x : torch.Tensor [num_users=2] = placeholder[target=L_x_]
    %w : torch.nn.parameter.Parameter [num_users=1] = get_attr[target=fn.weight]
    %lin : [num_users=1] = call_module[target=fn.linear](args = (%x,), kwargs = {})
    %view : [num_users=1] = call_method[target=view](args = (%lin, -1), kwargs = {})
    %add : [num_users=1] = call_function[target=<built-in function add>](args = (%view, %w), kwargs = {})
    %sl : [num_users=1] = call_function[target=operator.getitem](args = (%add, (slice(None, None, None), Ellipsis, None)), kwargs = {})
    return [sl, x, None])");
  expectRoundTrip(R"(graph():
    %x : [num_users=1] = placeholder[target=x]
    return x)");
  expectRoundTrip(R"(graph():
    %x : [num_users=1] = placeholder[target=x]
    return {'a': x, 'b': (1, "it's")})");
}

TEST(FxText, ArgumentKinds) {
  Graph g = parseOk(R"(graph():
    %x : [num_users=1] = placeholder[target=x]
    %f : [num_users=0] = call_function[target=f](args = (%x, 1e-05, inf, -inf, nan, -3, 0.5, True, None, (), (7,), [[1, [2]], {}]), kwargs = {dtype: torch.bfloat16, device: cuda:1, d2: cpu, d3: weird, approximate: none, memory_format: torch.channels_last, layout: torch.strided, big: 123456789012345678901234567890, fn: <function foo at 0x7f00>})
    return None)");
  Node *f = g.find("f");
  ASSERT_TRUE(f);
  const auto &a = f->args().items();
  ASSERT_EQ(a.size(), 12u);
  EXPECT_EQ(a[0].asNode(), g.find("x"));
  EXPECT_EQ(a[1].kind(), Argument::Kind::Float);
  EXPECT_DOUBLE_EQ(a[1].asFloat(), 1e-05);
  EXPECT_TRUE(std::isinf(a[2].asFloat()) && a[2].asFloat() > 0);
  EXPECT_TRUE(std::isinf(a[3].asFloat()) && a[3].asFloat() < 0);
  EXPECT_TRUE(std::isnan(a[4].asFloat()));
  EXPECT_EQ(a[5].asInt(), -3);
  EXPECT_EQ(a[6].asFloat(), 0.5);
  EXPECT_EQ(a[7].kind(), Argument::Kind::Bool);
  EXPECT_TRUE(a[8].isNone());
  EXPECT_EQ(a[9].kind(), Argument::Kind::Tuple);
  EXPECT_TRUE(a[9].items().empty());
  ASSERT_EQ(a[10].items().size(), 1u);
  EXPECT_EQ(a[10].items()[0].asInt(), 7);
  ASSERT_EQ(a[11].kind(), Argument::Kind::List);
  EXPECT_EQ(a[11].items()[0].items()[1].items()[0].asInt(), 2);
  EXPECT_EQ(a[11].items()[1].kind(), Argument::Kind::Dict);

  const Argument &kw = f->kwargs();
  EXPECT_EQ(kw.find("dtype")->asDType(), DType::BFloat16);
  EXPECT_EQ(kw.find("device")->asDevice(), (Device{"cuda", 1}));
  EXPECT_EQ(kw.find("d2")->kind(), Argument::Kind::Device);
  EXPECT_EQ(kw.find("d3")->kind(), Argument::Kind::String);
  EXPECT_EQ(kw.find("approximate")->kind(), Argument::Kind::String);
  EXPECT_EQ(kw.find("approximate")->asString(), "none");
  EXPECT_EQ(kw.find("memory_format")->kind(), Argument::Kind::MemoryFormat);
  EXPECT_EQ(kw.find("layout")->kind(), Argument::Kind::Layout);
  EXPECT_EQ(kw.find("big")->kind(), Argument::Kind::Opaque);
  EXPECT_EQ(kw.find("fn")->asString(), "<function foo at 0x7f00>");
  EXPECT_EQ(printFxText(g).find("d3: weird") != std::string::npos, true);
  // Any bare word is a device where the key says so.
  Graph g2 = parseOk(R"(graph():
    %f : [num_users=0] = call_function[target=f](args = (), kwargs = {device: npu})
    return None)");
  EXPECT_EQ(g2.find("f")->kwargs().find("device")->kind(), Argument::Kind::Device);
}

TEST(FxText, ArgumentKindsRoundTrip) {
  expectRoundTrip(R"(graph():
    %x : [num_users=1] = placeholder[target=x]
    %f : [num_users=0] = call_function[target=f](args = (%x, 1e-05, inf, -inf, nan, -3, 0.5, 2.0, 1e+16, True, None, (), (7,), [[1, [2]], {}]), kwargs = {dtype: torch.bfloat16, device: cuda:1, approximate: none, memory_format: torch.channels_last, layout: torch.strided, big: 123456789012345678901234567890, fn: <function foo at 0x7f00>})
    return None)");
}

TEST(FxText, PlaceholderDefault) {
  constexpr std::string_view text = R"(graph():
    %x : [num_users=1] = placeholder[target=x](default=3)
    %y : [num_users=0] = placeholder[target=y](default=None)
    return x)";
  Graph g = parseOk(text);
  ASSERT_EQ(g.find("x")->args().items().size(), 1u);
  EXPECT_EQ(g.find("x")->args().items()[0].asInt(), 3);
  EXPECT_EQ(printFxText(g), text);
}

TEST(FxText, TypedForm) {
  constexpr std::string_view text = R"(graph():
    %arg2_1 : Tensor "f32[s77, s27][s27, 1]cuda:0"[num_users=1] = placeholder[target=arg2_1]
    %add_7 : Tensor "f32[s77, s17][s17, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg2_1, 1), kwargs = {})
    return (add_7,))";
  Graph g = parseOk(text);
  const TensorType *t = g.find("add_7")->value().tensor();
  ASSERT_TRUE(t);
  EXPECT_EQ(t->str(), "f32[s77, s17][s17, 1]cuda:0");
  EXPECT_EQ(printFxText(g, FxTextOptions{true}), text);
  // Nodes read typed print typed again; without the annotation's type, plainly.
  EXPECT_EQ(printFxText(g), text);
  EXPECT_EQ(g.find("add_7")->pythonType(), kFxTensorAnnotationType);
  for (Node *n : g)
    n->setPythonType("");
  EXPECT_EQ(printFxText(g).find("Tensor \""), std::string::npos);

  // Inductor's placeholder comment: no num_users, `PlaceHolder`.
  Graph p = parseOk(R"(graph():
    %arg2_1 : Tensor "f32[s77, s27][s27, 1]cuda:0" = PlaceHolder[target=arg2_1]
    return arg2_1)");
  EXPECT_EQ(p.find("arg2_1")->op(), OpKind::Placeholder);
  EXPECT_EQ(p.find("arg2_1")->value().tensor()->str(), "f32[s77, s27][s27, 1]cuda:0");
}

// Graph.__str__ with format_node(include_tensor_metadata=True), as PyTorch 2.11 printed it
// (tests/data/fx-capture/cond/aot_fw_0.typed.graph.txt and syntax_dynamic's first lines): call
// nodes with a tensor value typed, placeholders, get_attr and a tuple-valued cond as str(graph)
// prints them, Dynamo's Python types kept.
TEST(FxText, TypedFormAsPyTorchPrintsItRoundTrips) {
  for (std::string_view text : {std::string_view(R"(graph():
    %primals_1 : [num_users=3] = placeholder[target=primals_1]
    %primals_2 : [num_users=2] = placeholder[target=primals_2]
    %sum_1 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.default](args = (%primals_1,), kwargs = {})
    %gt : Tensor "b8[][]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.gt.Scalar](args = (%sum_1, 0), kwargs = {})
    %true_graph_0 : [num_users=1] = get_attr[target=true_graph_0]
    %false_graph_0 : [num_users=1] = get_attr[target=false_graph_0]
    %cond : [num_users=1] = call_function[target=torch.ops.higher_order.cond](args = (%gt, %true_graph_0, %false_graph_0, (%primals_1, %primals_2)), kwargs = {})
    %getitem : Tensor "f32[4, 8][8, 1]cuda:0"[num_users=1] = call_function[target=operator.getitem](args = (%cond, 0), kwargs = {})
    return (getitem, primals_1, primals_2, gt))"),
                                std::string_view(R"(graph():
    %s77 : torch.SymInt [num_users=2] = placeholder[target=s77]
    %s27 : torch.SymInt [num_users=0] = placeholder[target=s27]
    %l_x_ : torch.Tensor [num_users=1] = placeholder[target=L_x_]
    %getitem : Tensor "f32[s77, 1, s27 - 1][s27, s27, 1]cuda:0"[num_users=1] = call_function[target=operator.getitem](args = (%l_x_, (Ellipsis, None, slice(1, None, None))), kwargs = {})
    %a : Tensor "f32[s77, 1, s27 - 1][Max(1, s27 - 1), Max(1, s27 - 1), 1]cuda:0"[num_users=1] = call_function[target=operator.mul](args = (%getitem, 2), kwargs = {})
    %b : Tensor "f32[s77, s27 - 1][Max(1, s27 - 1), 1]cuda:0"[num_users=1] = call_method[target=reshape](args = (%a, %s77, -1), kwargs = {})
    %z : Tensor "f16[3][1]cuda:0"[num_users=0] = call_function[target=torch.zeros](args = (3,), kwargs = {dtype: torch.float16, device: cuda:0})
    %mul_1 : torch.SymInt [num_users=1] = call_function[target=operator.mul](args = (%s77, 2), kwargs = {})
    return (b, mul_1))")}) {
    Graph g = parseOk(text);
    EXPECT_EQ(printFxText(g), text);
    auto again = parseFxText(printFxText(g), "again.txt");
    ASSERT_TRUE(again) << again.error().str();
    std::string why;
    EXPECT_TRUE(graphsEqual(g, *again, &why)) << why;
  }
  Graph g = parseOk(R"(graph():
    %x : [num_users=1] = placeholder[target=x]
    %b : Tensor "f32[s77, s27 - 1][Max(1, s27 - 1), 1]cuda:0"[num_users=1] = call_method[target=reshape](args = (%x, -1), kwargs = {})
    return (b,))");
  const TensorType *t = g.find("b")->value().tensor();
  ASSERT_TRUE(t);
  EXPECT_EQ(t->dtype, DType::Float32);
  EXPECT_EQ(t->strides[0].str(), "Max(1, s27 - 1)");
  EXPECT_EQ(t->device.str(), "cuda:0");
  EXPECT_TRUE(g.find("x")->pythonType().empty());
}

TEST(FxText, PartialFragment) {
  FxTextParseOptions opts;
  opts.partial = true;
  auto g = parseFxText(
      R"(    %mul : Tensor "f32[4][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%arg0_1, %z), kwargs = {}))",
      "frag", opts);
  ASSERT_TRUE(g) << g.error().str();
  EXPECT_EQ(g->size(), 3u);
  EXPECT_EQ(g->front()->op(), OpKind::Placeholder);
}

constexpr std::string_view kHead = "graph():\n    %x : [num_users=1] = placeholder[target=x]\n";

std::string withHead(std::string_view body) { return std::string(kHead) + std::string(body); }

TEST(FxTextErrors, UndefinedName) {
  expectError(withHead("    %y : [num_users=0] = call_function[target=f](args = (%x, %zz), "
                       "kwargs = {})\n    return y"),
              3, 62, "undefined node '%zz'");
  expectError(withHead("    return (x, nope)"), 3, 16, "undefined node '%nope'");
}

TEST(FxTextErrors, DuplicateName) {
  expectError(withHead("    %x : [num_users=0] = placeholder[target=x]\n    return x"), 3, 5,
              "defined twice");
}

TEST(FxTextErrors, UnknownOp) {
  expectError(withHead("    %y : [num_users=0] = call_magic[target=f](args = (), kwargs = {})"), 3,
              26, "unknown op kind 'call_magic'");
}

TEST(FxTextErrors, MissingHeader) {
  expectError("    %x : [num_users=1] = placeholder[target=x]\n    return x", 1, 5,
              "expected 'graph():'");
  expectError("\n\ngraf():\n", 3, 1, "expected 'graph():'");
}

TEST(FxTextErrors, EmptyFile) {
  auto g = parseFxText("", "empty.txt");
  ASSERT_FALSE(g);
  EXPECT_EQ(g.error().loc.line, 1);
  EXPECT_EQ(g.error().loc.col, 1);
  EXPECT_NE(g.error().message.find("empty"), std::string::npos);
}

TEST(FxTextErrors, MissingReturn) { expectError(kHead, 2, 47, "missing 'return'"); }

TEST(FxTextErrors, BadTypedAnnotation) {
  expectError(withHead("    %y : Tensor \"q99[4][1]cpu\"[num_users=0] = call_function[target=f]("
                       "args = (), kwargs = {})"),
              3, 18, "unknown dtype 'q99'");
  auto g = parseFxText(withHead("    %y : Tensor \"f32[4+*s0][1]cpu\"[num_users=0] = "
                                "call_function[target=f](args = (), kwargs = {})"),
                       "bad.txt");
  ASSERT_FALSE(g);
  EXPECT_EQ(g.error().loc.line, 3);
  EXPECT_EQ(g.error().loc.col, 24); // the '*' in "4+*s0"
  expectError(withHead("    %y : Tensor \"f32[4][1]cpu[num_users=0] = placeholder[target=y]"), 3,
              17, "unterminated tensor type");
}

TEST(FxTextErrors, UnbalancedBrackets) {
  expectError(withHead("    %y : [num_users=0] = call_function[target=f](args = ([%x, 1), kwargs "
                       "= {})"),
              3, 64, "mismatched ')'");
  expectError(withHead("    %y : [num_users=0] = call_function[target=f](args = ((%x, 1, kwargs "
                       "= {})"),
              3, 57, "unclosed '('");
  expectError(withHead("    %y : [num_users=0] = call_function[target=f](args = (slice(1, 2"), 3,
              63, "unclosed '('");
}

TEST(FxTextErrors, TruncatedLine) {
  expectError(withHead("    %y : [num_users=0] = call_function[target=f](args = (%x, "), 3, 57,
              "unexpected end of line");
  expectError(withHead("    %y : [num_users=0] = call_function[target=f](args = (%x,), kwa"), 3, 67,
              "unexpected end of line: expected ', kwargs = '");
  expectError(withHead("    %y : [num_users=0] = place"), 3, 26, "unknown op kind 'place'");
  expectError(withHead("    %y : [num_users=0"), 3, 22, "']' after num_users");
}

TEST(FxTextErrors, TrailingGarbage) {
  expectError(withHead("    %y : [num_users=0] = call_function[target=f](args = (), kwargs = {}) "
                       "x\n    return y"),
              3, 73, "unexpected text after the node");
  expectError(withHead("    return x\n    %z : [num_users=0] = placeholder[target=z]"), 4, 5,
              "after the 'return' line");
}

TEST(FxTextErrors, HugeSingleLine) {
  std::string text = withHead("    %y : [num_users=0] = call_function[target=f](args = (");
  text.append(10 * 1024 * 1024, '7');
  auto g = parseFxText(text, "big.txt");
  ASSERT_FALSE(g);
  EXPECT_EQ(g.error().loc.line, 3);
  EXPECT_LE(g.error().snippet.size(), 200u);
  EXPECT_NE(g.error().message.find("unclosed '('"), std::string::npos) << g.error().str();
}

TEST(FxTextErrors, InvalidUtf8) {
  std::string text = withHead("    %y : [num_users=0] = call_function[target=f\xff](args = (), "
                              "kwargs = {})\n    return y");
  auto g = parseFxText(text, "utf.txt");
  ASSERT_FALSE(g);
  EXPECT_EQ(g.error().loc.line, 3);
  EXPECT_EQ(g.error().loc.col, 48);
  EXPECT_NE(g.error().message.find("UTF-8"), std::string::npos);
}

TEST(FxTextErrors, DepthLimit) {
  std::string body = "    %y : [num_users=0] = call_function[target=f](args = (";
  size_t open = body.size();
  body.append(100000, '[');
  body.append(100000, ']');
  body += "), kwargs = {})\n    return y";
  // The tuple itself is level 1, so the 256th '[' is the first one too many.
  expectError(withHead(body), 3, static_cast<int>(open) + 256, "nested too deeply");
}

/// torch.fx.Graph.lint accepts placeholders after other nodes (torch.export's unlifted module
/// reads its get_attr nodes first; graph.placeholder() appends where the graph ends): they read,
/// verify and print back as they were. A use before the definition is still refused.
TEST(FxText, PlaceholderAfterOtherNodes) {
  expectRoundTrip(R"(graph():
    %w : [num_users=1] = get_attr[target=layers.0.weight]
    %x : [num_users=1] = placeholder[target=x]
    %y : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, %w), kwargs = {})
    %z : [num_users=1] = placeholder[target=z]
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%y, %z), kwargs = {})
    return (add,))");
  Graph g =
      parseOk(withHead("    %y : [num_users=0] = call_function[target=f](args = (), kwargs = {})\n"
                       "    %z : [num_users=0] = placeholder[target=z]\n    return y"));
  ASSERT_EQ(g.size(), 4u);
  EXPECT_EQ(g.find("z")->prev()->name(), "y");
  expectError(
      withHead("    %y : [num_users=0] = call_function[target=f](args = (%z,), kwargs = {})\n"
               "    %z : [num_users=1] = placeholder[target=z]\n    return y"),
      3, 58, "undefined node '%z'");
}

} // namespace

namespace {

TEST(FxText, ErrorStringNamesFileLineColumn) {
  auto g =
      parseFxText(withHead("    %y : [num_users=0] = call_magic[target=f](args = (), kwargs = {})"),
                  "model.graph.txt");
  ASSERT_FALSE(g);
  std::string s = g.error().str();
  EXPECT_NE(s.find("model.graph.txt:3:26"), std::string::npos) << s;
  EXPECT_NE(s.find("call_magic[target=f]"), std::string::npos) << s;
}

// Dynamo's `x[:, :s27]` with a SymInt bound: FX prints the slice with str(), the node by bare
// name, and counts it as a use (num_users=2 for s27).
TEST(FxText, NodesInsideSlicesAreUses) {
  constexpr std::string_view text = R"(graph():
    %s27 : torch.SymInt [num_users=2] = placeholder[target=s27]
    %x : torch.Tensor [num_users=1] = placeholder[target=L_x_]
    %getitem : [num_users=1] = call_function[target=operator.getitem](args = (%x, (slice(None, None, None), slice(0, s27, None))), kwargs = {})
    %add : [num_users=1] = call_function[target=operator.add](args = (%s27, 1), kwargs = {})
    return (getitem, add))";
  expectRoundTrip(text);
  Graph g = parseOk(text);
  const Argument &index = g.find("getitem")->args().items()[1];
  ASSERT_EQ(index.items().size(), 2u);
  const Argument &slice = index.items()[1];
  ASSERT_EQ(slice.kind(), Argument::Kind::Slice);
  EXPECT_EQ(slice.items()[0].asInt(), 0);
  ASSERT_TRUE(slice.items()[1].isNode());
  EXPECT_EQ(slice.items()[1].asNode()->name(), "s27");
  EXPECT_TRUE(slice.items()[2].isNone());
  EXPECT_EQ(g.find("s27")->users().size(), 2u);
  // Anything but three plain parts stays opaque text; an unknown name is an error.
  Graph odd = parseOk(R"(graph():
    %x : [num_users=1] = placeholder[target=x]
    %g : [num_users=1] = call_function[target=operator.getitem](args = (%x, slice(0, [1], None)), kwargs = {})
    return g)");
  EXPECT_EQ(odd.find("g")->args().items()[1].kind(), Argument::Kind::Opaque);
  expectError(withHead("    %g : [num_users=0] = call_function[target=f](args = (slice(0, s99, "
                       "None),), kwargs = {})\n    return None"),
              3, 67, "undefined node '%s99'");
}

TEST(FxText, NumUsersIsInformational) {
  // Inductor's comments show partial graphs: a stale count is not an error, and the printer
  // writes the real one.
  Graph g = parseOk(R"(graph():
    %x : [num_users=5] = placeholder[target=x]
    return x)");
  EXPECT_EQ(printFxText(g),
            "graph():\n    %x : [num_users=1] = placeholder[target=x]\n    return x");
}

TEST(FxText, OutputNameClash) {
  Graph g = parseOk(R"(graph():
    %output : [num_users=1] = placeholder[target=output]
    return output)");
  EXPECT_EQ(g.back()->op(), OpKind::Output);
  EXPECT_EQ(g.back()->name(), "output_1");
  EXPECT_EQ(g.back()->args().items()[0].asNode(), g.find("output"));
}

TEST(FxText, LargeGeneratedGraphRoundTrips) {
  std::string text = "graph():\n    %x : [num_users=1] = placeholder[target=x]";
  std::string prev = "x";
  for (int i = 0; i < 20000; ++i) {
    std::string name = "mul_" + std::to_string(i);
    text += "\n    %" + name +
            " : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%" + prev +
            ", 0.5), kwargs = {})";
    prev = name;
  }
  text += "\n    return (" + prev + ",)";
  Graph g = parseOk(text);
  EXPECT_EQ(g.size(), 20002u);
  EXPECT_EQ(printFxText(g), text);
}

} // namespace

// ---- text fxkit writes must read back (issue 19) ----

/// Only well-formed UTF-8 reads (what JSON readers and Python accept): surrogates, overlong
/// forms and code points beyond U+10FFFF are located errors, in strings and names alike.
TEST(FxTextErrors, IllFormedUtf8) {
  struct Case {
    std::string bytes;
    const char *why;
  };
  const Case cases[] = {
      {"\xed\xa0\x80", "0xED (UTF-16 surrogate)"},
      {"\xed\xbf\xbf", "0xED (UTF-16 surrogate)"},
      {"\xc0\xaf", "0xC0 (overlong encoding)"},
      {"\xc1\xbf", "0xC1 (overlong encoding)"},
      {"\xe0\x80\xaf", "0xE0 (overlong encoding)"},
      {"\xe0\x9f\xbf", "0xE0 (overlong encoding)"},
      {"\xf0\x80\x80\xaf", "0xF0 (overlong encoding)"},
      {"\xf0\x8f\xbf\xbf", "0xF0 (overlong encoding)"},
      {"\xf4\x90\x80\x80", "0xF4 (beyond U+10FFFF)"},
      {"\xf5\x80\x80\x80", "0xF5 (beyond U+10FFFF)"},
  };
  for (const Case &c : cases) {
    // In a bare string argument, and in a node name.
    std::string text = withHead("    %y : [num_users=1] = call_function[target=f](args = (%x, a" +
                                c.bytes + "b), kwargs = {})\n    return y");
    std::string name = withHead("    %y" + c.bytes +
                                " : [num_users=0] = call_function[target=f](args = (), kwargs = "
                                "{})\n    return x");
    for (const auto &[input, col] : {std::pair{text, 63}, std::pair{name, 7}}) {
      auto g = parseFxText(input, "utf.txt");
      ASSERT_FALSE(g) << c.why;
      EXPECT_EQ(g.error().loc.file, "utf.txt");
      EXPECT_EQ(g.error().loc.line, 3);
      EXPECT_EQ(g.error().loc.col, col) << g.error().str();
      EXPECT_NE(g.error().message.find(std::string("invalid UTF-8 byte ") + c.why),
                std::string::npos)
          << g.error().str();
    }
  }
  // The well-formed neighbours read: U+0080, U+07FF, U+0800, U+D7FF, U+E000, U+10000, U+10FFFF.
  for (std::string ok : {"\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80", "\xed\x9f\xbf", "\xee\x80\x80",
                         "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf"})
    parseOk(withHead("    %y : [num_users=1] = call_function[target=f](args = (%x, a" + ok +
                     "b), kwargs = {})\n    return y"));
}

/// Strings that would not read back bare print quoted (Python's repr), and read back as the
/// same strings: parse(print(g)) == g and printing is canonical.
TEST(FxText, StringsThatWouldNotReadBackBarePrintQuoted) {
  Graph g;
  Node *x = g.create(OpKind::Placeholder, "x", "x");
  const char *msg = "Runtime assertion failed for expression Eq(s0, 4) on node 'eq'";
  g.create(OpKind::CallFunction, "assert_1", "torch.ops.aten._assert_scalar.default",
           Argument::tuple({Argument::node(x), Argument::string(msg)}));
  std::vector<Argument> nasty;
  for (const char *s : {"",
                        "a b",
                        "a,b",
                        "1",
                        "-x",
                        "1.5",
                        "inf",
                        "True",
                        "None",
                        "Ellipsis",
                        "%x",
                        "'q'",
                        "\"q\"",
                        "it's",
                        "a\nb",
                        "tab\there",
                        "x)",
                        "[y",
                        "torch.float32",
                        "torch.channels_last",
                        "a:b",
                        "plain",
                        "sum_1.default",
                        "strided",
                        "\xc3\xa9t\xc3\xa9"})
    nasty.push_back(Argument::string(s));
  Node *f =
      g.create(OpKind::CallFunction, "f", "f", Argument::tuple({Argument::list(std::move(nasty))}),
               Argument::dict({{"other", Argument::string("cpu ")},
                               {"", Argument::string("empty key")},
                               {"a: b", Argument::string("k")},
                               {"'k'", Argument::string("")},
                               {"dim", Argument::integer(1)}}));
  g.create(OpKind::Output, "output", "output",
           Argument::tuple({Argument::tuple({Argument::node(f), Argument::string("a b")})}));
  ASSERT_TRUE(verifyGraph(g));
  std::string text = printFxText(g);
  EXPECT_NE(
      text.find(
          R"((args = (%x, "Runtime assertion failed for expression Eq(s0, 4) on node 'eq'"), kwargs = {}))"),
      std::string::npos)
      << text;
  EXPECT_NE(
      text.find(
          R"(['', 'a b', 'a,b', '1', '-x', '1.5', 'inf', 'True', 'None', 'Ellipsis', '%x', "'q'", '"q"', "it's", 'a\nb', 'tab\there', 'x)', '[y', 'torch.float32', 'torch.channels_last', a:b, plain, sum_1.default, strided, )"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find(R"(kwargs = {other: 'cpu ', '': 'empty key', 'a: b': k, 'k': '', dim: 1})"),
            std::string::npos)
      << text;
  auto back = parseFxText(text, "strings.txt");
  ASSERT_TRUE(back) << back.error().str() << "\n" << text;
  std::string why;
  EXPECT_TRUE(graphsEqual(g, *back, &why)) << why << "\n" << text;
  EXPECT_EQ(printFxText(*back), text);
  // FX text's one ambiguity: the str 'cuda' (WrapperFxCodegen's `device='cuda'`) prints bare as
  // str(graph) prints it, and reads back as the device, which prints the same.
  Graph d;
  d.create(OpKind::CallFunction, "e", "torch.empty_strided",
           Argument::tuple(
               {Argument::list({Argument::integer(2)}), Argument::list({Argument::integer(1)})}),
           Argument::dict(
               {{"device", Argument::string("cuda")}, {"other", Argument::string("cuda:0")}}));
  d.create(OpKind::Output, "output", "output", Argument::tuple({Argument::none()}));
  std::string dt = printFxText(d);
  EXPECT_NE(dt.find("kwargs = {device: cuda, other: cuda:0})"), std::string::npos) << dt;
  Graph dback = parseOk(dt);
  EXPECT_EQ(dback.find("e")->kwargs().dictValue(0).kind(), Argument::Kind::Device);
  EXPECT_EQ(printFxText(dback), dt);
  // A quote reads as a string literal only where printFxText writes one (Python's repr of a
  // string that needs quotes, right before a delimiter); other quotes are bare text as str()
  // printed it. Either way the text prints back byte for byte.
  const std::string quotes =
      withHead("    %y : [num_users=1] = call_function[target=f](args = (%x, 'a' b, 'c'd, 'e', "
               "\"a b\", 'a b', '', plain), kwargs = {'k': 1, 'a b': 2})\n    return y");
  Graph p = parseOk(quotes);
  const Argument &args = p.find("y")->args();
  using K = Argument::Kind;
  const std::pair<K, std::string_view> want[] = {
      {K::Opaque, "'a' b"}, {K::Opaque, "'c'd"}, {K::Opaque, "'e'"},  {K::Opaque, "\"a b\""},
      {K::String, "a b"},   {K::String, ""},     {K::String, "plain"}};
  ASSERT_EQ(args.items().size(), 8u);
  for (size_t k = 0; k < 7; ++k) {
    EXPECT_EQ(args.items()[k + 1].kind(), want[k].first) << k;
    EXPECT_EQ(args.items()[k + 1].asString(), want[k].second) << k;
  }
  EXPECT_EQ(p.find("y")->kwargs().dictKey(0), "'k'");
  EXPECT_EQ(p.find("y")->kwargs().dictKey(1), "'a b'");
  EXPECT_EQ(printFxText(p), quotes);
}

/// fxkit's typed form carries symbolic values as print_readable() annotates them: a node read
/// `%s : Sym(s0)` has the value and prints back the same, typed or not.
TEST(FxText, SymbolicValuesInTheTypedForm) {
  const std::string text = R"(graph():
    %a : Tensor "f32[s0, 4][4, 1]cpu"[num_users=2] = placeholder[target=a]
    %s : Sym(s0)[num_users=4] = call_function[target=torch.ops.aten.sym_size.int](args = (%a, 0), kwargs = {})
    %ge : Sym(s0 >= 2)[num_users=0] = call_function[target=operator.ge](args = (%s, 2), kwargs = {})
    %m : Sym(Max(1, s0))[num_users=0] = call_function[target=torch.sym_max](args = (1, %s), kwargs = {})
    %f : Sym(s0/4)[num_users=0] = call_function[target=operator.truediv](args = (%s, 4), kwargs = {})
    %x : torch.SymInt [num_users=0] = call_function[target=operator.mul](args = (%s, 2), kwargs = {})
    return (a,))";
  Graph g = parseOk(text);
  ASSERT_TRUE(g.find("s")->value().sym());
  EXPECT_EQ(g.find("s")->value().sym()->str(), "s0");
  EXPECT_EQ(g.find("s")->pythonType(), kFxSymAnnotationType);
  EXPECT_EQ(g.find("ge")->value().sym()->type(), SymExpr::Type::Bool);
  EXPECT_EQ(g.find("m")->value().sym()->str(), "Max(1, s0)");
  EXPECT_EQ(g.find("x")->pythonType(), "torch.SymInt");
  EXPECT_TRUE(g.find("x")->value().empty());
  EXPECT_EQ(printFxText(g), text);
  EXPECT_EQ(printFxText(g, {true}), text);
  // A value set later prints typed with tensorTypes (replacing the Python type, as tensors do).
  g.find("x")->value().v = *SymExpr::parse("2*s0");
  EXPECT_NE(printFxText(g, {true}).find("%x : Sym(2*s0)[num_users=0]"), std::string::npos);
  EXPECT_NE(printFxText(g).find("%x : torch.SymInt [num_users=0]"), std::string::npos);
  expectError(withHead("    %y : Sym(s0 [num_users=0] = placeholder[target=y]\n    return x"), 3,
              10, "unterminated Sym(...) annotation");
  expectError(withHead("    %y : Sym(s0 +)[num_users=0] = placeholder[target=y]\n    return x"), 3,
              18, "bad Sym(...) annotation: symbolic expression ends unexpectedly");
}
