#include "exporters/FxTextPrinter.h"
#include "exporters/ReadablePyPrinter.h"
#include "importers/ReadablePyParser.h"

#include <gtest/gtest.h>

using namespace fxkit;

namespace {

void expectRoundTrip(const std::string &text) {
  auto g = parseReadablePy(text, "t.py");
  ASSERT_TRUE(g) << g.error().str();
  EXPECT_EQ(printReadablePy(*g), text);
}

TEST(ReadablePy, RoundTripsOperatorsMethodsAndFrees) {
  expectRoundTrip(R"PY(class GraphModule(torch.nn.Module):
    def forward(self, s77: "Sym(s77)", L_x_: "f32[s77, 4][4, 1]cuda:0", L_y_: "f32[4][1]cuda:0"):
        l_x_ = L_x_
        l_y_ = L_y_
        unsqueeze: "f32[s77, 1, 4][4, 4, 1]cuda:0" = l_x_.unsqueeze(1);  l_x_ = None
        add: "f32[s77, 1, 4][4, 4, 1]cuda:0" = unsqueeze + l_y_;  unsqueeze = l_y_ = None
        neg: "f32[s77, 1, 4][4, 4, 1]cuda:0" = -add
        sum_1: "f32[s77, 1][1, 1]cuda:0" = add.sum(-1);  add = None
        mul: "f32[s77, 1][1, 1]cuda:0" = sum_1 * s77;  sum_1 = s77 = None
        shape = neg.shape;  neg = shape = None
        return (mul,)
)PY");
}

// A method whose name is not an identifier, as FX's _format_target writes it, reads back as
// that call_method (the probe of issue 19 found fxkit writing what it could not read).
TEST(ReadablePy, MethodNamesThatAreNotIdentifiersRoundTrip) {
  expectRoundTrip(R"PY(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[4][1]cpu"):
        c: "f32[4][1]cpu" = getattr(x, "con[t]")(2, dim = 0);  x = None
        return (c,)
)PY");
  auto g = parseReadablePy(R"PY(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[4][1]cpu"):
        c: "f32[4][1]cpu" = getattr(x, "con[t]")();  x = None
        return (c,)
)PY",
                           "t.py");
  ASSERT_TRUE(g) << g.error().str();
  const Node *c = g->find("c");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->op(), OpKind::CallMethod);
  EXPECT_EQ(c->target(), "con[t]");
}

// A module whose name is not an identifier: getattr(self, "name") (FX's _format_target).
TEST(ReadablePy, ModuleNamesThatAreNotIdentifiersRoundTrip) {
  expectRoundTrip(R"PY(class GraphModule(torch.nn.Module):
    def forward(self, x):
        layers_0 = getattr(self, "layers[0]")(x);  x = None
        return (layers_0,)
)PY");
}

// Keywords that are not Python names (FX text can hold them: printFxText quotes such keys) go
// in one **{...}, from the first of them on so that their order stays (the probe of issue 19
// found fxkit writing `cons{{ = 0`, which no reader accepts).
TEST(ReadablePy, KeywordsThatAreNotNamesRoundTrip) {
  expectRoundTrip(R"PY(class GraphModule(torch.nn.Module):
    def forward(self, x):
        f = torch.nn.functional.relu(x, a = 1, **{'b-c': 2, 'd': 3, '': 'e'});  x = None
        return (f,)
)PY");
  auto g = parseReadablePy(R"PY(class GraphModule(torch.nn.Module):
    def forward(self, x):
        f = torch.nn.functional.relu(x, **{'b c': 2,});  x = None
        return (f,)
)PY",
                           "t.py");
  ASSERT_TRUE(g) << g.error().str();
  EXPECT_EQ(g->find("f")->kwargs().dictKey(0), "b c");
}

TEST(ReadablePy, SlicesAndEllipsisReadAsFxTextKeepsThem) {
  // Dynamo's subscripts (`x[:, :1]`, `x[..., None]`): the same graph as its FX text, and back.
  std::string text = R"PY(class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[2, 3][3, 1]cpu"):
        l_x_ = L_x_
        getitem: "f32[2, 1][3, 1]cpu" = l_x_[(slice(None, None, None), slice(None, 1, None))]
        getitem_1: "f32[2, 3, 1][3, 1, 1]cpu" = l_x_[(Ellipsis, None)];  l_x_ = None
        return (getitem, getitem_1)
)PY";
  expectRoundTrip(text);
  auto g = parseReadablePy(text, "t.py");
  ASSERT_TRUE(g);
  std::string fx = printFxText(*g);
  EXPECT_NE(fx.find("args = (%l_x_, (slice(None, None, None), slice(None, 1, None)))"),
            std::string::npos)
      << fx;
  EXPECT_NE(fx.find("args = (%l_x_, (Ellipsis, None))"), std::string::npos) << fx;
  auto bad = parseReadablePy("class M(torch.nn.Module):\n    def forward(self, x):\n        y = "
                             "x[(slice(None, 1, None]\n        return y\n",
                             "bad.py");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().loc.line, 3);
}

TEST(ReadablePy, RoundTripsAtenCallsWithKwargsAndMultiOutputs) {
  expectRoundTrip(R"PY(class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[2, 8][8, 1]cpu"):
        var_mean = torch.ops.aten.var_mean.correction(arg0_1, [1], correction = 0, keepdim = True)
        getitem: "f32[2, 1][1, 1]cpu" = var_mean[0]
        getitem_1: "f32[2, 1][1, 1]cpu" = var_mean[1];  var_mean = None
        clone: "f32[2, 8][8, 1]cpu" = torch.ops.aten.clone.default(arg0_1, memory_format = torch.contiguous_format);  arg0_1 = None
        full: "f32[2][1]cpu" = torch.ops.aten.full.default([2], -inf, dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        gelu: "f32[2, 8][8, 1]cpu" = torch._C._nn.gelu(clone, approximate = 'tanh');  clone = None
        cat: "f32[4, 8][8, 1]cpu" = torch.cat([gelu, gelu], dim = 0);  gelu = None
        reshape: "f32[32][1]cpu" = torch.reshape(cat, (-1,));  cat = None
        return (reshape, getitem, getitem_1, full)
)PY");
}

TEST(ReadablePy, KeepsArgumentKinds) {
  auto g = parseReadablePy(R"PY(class M(torch.nn.Module):
    def forward(self, x: "f32[4][1]cuda:1"):
        full = torch.ops.aten.full.default([4], 1e-05, dtype = torch.bfloat16, device = device(type='cuda', index=1), layout = torch.strided)
        return full
)PY",
                           "t.py");
  ASSERT_TRUE(g) << g.error().str();
  const Node *full = g->find("full");
  ASSERT_NE(full, nullptr);
  EXPECT_EQ(full->args().items()[1].asFloat(), 1e-05);
  EXPECT_EQ(full->kwargs().find("dtype")->asDType(), DType::BFloat16);
  EXPECT_EQ(full->kwargs().find("device")->asDevice().str(), "cuda:1");
  EXPECT_EQ(full->kwargs().find("layout")->kind(), Argument::Kind::Layout);
  EXPECT_EQ(g->find("x")->value().tensor()->device.index, 1);
  // The same graph as FX text: targets and args carry over.
  EXPECT_NE(printFxText(*g).find("call_function[target=torch.ops.aten.full.default](args = ([4], "
                                 "1e-05), kwargs = {dtype: torch.bfloat16, device: cuda:1, "
                                 "layout: torch.strided})"),
            std::string::npos)
      << printFxText(*g);
}

TEST(ReadablePy, SizesOnlyAnnotationsRoundTrip) {
  expectRoundTrip(R"PY(class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[8, 128]"):
        relu: "f32[8, 128]" = torch.ops.aten.relu.default(primals_1);  primals_1 = None
        return (relu,)
)PY");
}

// print_readable() prints each child GraphModule (a higher-order op's body) as a class nested in
// its parent after forward; children nest in turn.
TEST(ReadablePy, NestedClassesAreSubmodules) {
  std::string text = R"PY(class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4, 8][8, 1]cuda:0"):
        l_x_ = L_x_
        sum_1: "f32[][]cuda:0" = l_x_.sum()
        gt: "b8[][]cuda:0" = sum_1 > 0;  sum_1 = None
        cond_true_0 = self.cond_true_0
        cond_false_0 = self.cond_false_0
        cond = torch.ops.higher_order.cond(gt, cond_true_0, cond_false_0, (l_x_,));  gt = cond_true_0 = cond_false_0 = l_x_ = None
        getitem: "f32[4, 8][8, 1]cuda:0" = cond[0];  cond = None
        return (getitem,)

    class cond_true_0(torch.nn.Module):
        def forward(self, l_x_: "f32[4, 8][8, 1]cuda:0"):
            l_x__1 = l_x_
            wrap_body_0 = self.wrap_body_0
            wrap = torch.ops.higher_order.wrap(wrap_body_0, l_x__1);  wrap_body_0 = l_x__1 = None
            getitem: "f32[4, 8][8, 1]cuda:0" = wrap[0];  wrap = None
            return (getitem,)

        class wrap_body_0(torch.nn.Module):
            def forward(self, l_x_: "f32[4, 8][8, 1]cuda:0"):
                sin: "f32[4, 8][8, 1]cuda:0" = l_x_.sin();  l_x_ = None
                return (sin,)

    class cond_false_0(torch.nn.Module):
        def forward(self, l_x_: "f32[4, 8][8, 1]cuda:0"):
            l_x__1 = l_x_
            cos: "f32[4, 8][8, 1]cuda:0" = l_x__1.cos();  l_x__1 = None
            return (cos,)
)PY";
  expectRoundTrip(text);
  auto g = parseReadablePy(text, "t.py");
  ASSERT_TRUE(g) << g.error().str();
  ASSERT_EQ(g->submodules.size(), 2u);
  const Graph *t = g->submodule("cond_true_0");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->size(), 5u);
  ASSERT_EQ(t->submodules.size(), 1u);
  EXPECT_EQ(t->submodules[0]->moduleName, "wrap_body_0");
  EXPECT_EQ(t->submodules[0]->find("sin")->value().tensor()->str(), "f32[4, 8][8, 1]cuda:0");
  EXPECT_EQ(g->submodule("cond_false_0")->front()->name(), "l_x__1");
  EXPECT_EQ(g->submodule("cond_false_0")->front()->target(), "l_x_");
  // FX text shows the top-level graph only, as str(graph) does.
  EXPECT_EQ(printFxText(*g).find("sin"), std::string::npos);
  // A class may also come before forward.
  auto before = parseReadablePy(R"PY(class M(torch.nn.Module):
    class body(torch.nn.Module):
        def forward(self, x):
            return (x,)
    def forward(self, x):
        body = self.body
        return (body,)
)PY",
                                "t.py");
  ASSERT_TRUE(before) << before.error().str();
  EXPECT_EQ(before->submodules.size(), 1u);
  EXPECT_EQ(before->find("body")->op(), OpKind::GetAttr);
}

// FX writes operator.iadd and friends as the statement, then binds the node to the updated
// operand; operator.setitem likewise (PyTorch 2.11's Dynamo output).
TEST(ReadablePy, InplaceStatementsAreNodes) {
  std::string text = R"PY(class GraphModule(torch.nn.Module):
    def forward(self, s77: "Sym(s77)", L_x_: "f32[s77, 4][4, 1]cuda:0"):
        l_x_ = L_x_
        h: "f32[s77, 2][2, 1]cuda:0" = l_x_.new_zeros(s77, 2);  s77 = None
        h[0] = 1.0;  setitem = h;  setitem = None
        k: "f32[s77, 4][4, 1]cuda:0" = l_x_.clone();  l_x_ = None
        k += 1;  k_1: "f32[s77, 4][4, 1]cuda:0" = k;  k = None
        k_1 //= 2;  ifloordiv = k_1;  k_1 = None
        return (h, ifloordiv)
)PY";
  expectRoundTrip(text);
  auto g = parseReadablePy(text, "t.py");
  ASSERT_TRUE(g) << g.error().str();
  std::string fx = printFxText(*g);
  EXPECT_NE(fx.find("%setitem : [num_users=0] = call_function[target=operator.setitem](args = "
                    "(%h, 0, 1.0), kwargs = {})"),
            std::string::npos)
      << fx;
  EXPECT_NE(fx.find("%k_1 : [num_users=1] = call_function[target=operator.iadd](args = (%k, 1)"),
            std::string::npos)
      << fx;
  EXPECT_NE(fx.find("target=operator.ifloordiv](args = (%k_1, 2)"), std::string::npos) << fx;
  EXPECT_EQ(g->find("k_1")->value().tensor()->str(), "f32[s77, 4][4, 1]cuda:0");
}

// torch.fx.symbolic_trace's code: Python types where nodes have no value, defaults, *args,
// module paths through getattr for names that are not identifiers, builtins by bare name.
TEST(ReadablePy, TypesDefaultsVarargsModulePathsAndBuiltins) {
  std::string text = R"PY(class annotated(torch.nn.Module):
    def forward(self, x : torch.Tensor, n : int = 3, *rest):
        _rest = rest
        relu = torch.relu(x);  x = None
        layers_0 = getattr(self.layers, "0")(relu);  relu = None
        weight : torch.nn.parameter.Parameter = getattr(self.layers, "1").weight
        len_1 = len(layers_0)
        not_1 = _operator_not_(n);  n = not_1 = None
        mul = layers_0 * len_1;  layers_0 = len_1 = None
        add = mul + weight;  mul = weight = None
        return add
)PY";
  expectRoundTrip(text);
  auto g = parseReadablePy(text, "t.py");
  ASSERT_TRUE(g) << g.error().str();
  EXPECT_EQ(printFxText(*g), R"(graph():
    %x : torch.Tensor [num_users=1] = placeholder[target=x]
    %n : int [num_users=1] = placeholder[target=n](default=3)
    %_rest : [num_users=0] = placeholder[target=*rest]
    %relu : [num_users=1] = call_function[target=torch.relu](args = (%x,), kwargs = {})
    %layers_0 : [num_users=2] = call_module[target=layers.0](args = (%relu,), kwargs = {})
    %weight : torch.nn.parameter.Parameter [num_users=1] = get_attr[target=layers.1.weight]
    %len_1 : [num_users=1] = call_function[target=builtins.len](args = (%layers_0,), kwargs = {})
    %not_1 : [num_users=0] = call_function[target=operator.not_](args = (%n,), kwargs = {})
    %mul : [num_users=1] = call_function[target=operator.mul](args = (%layers_0, %len_1), kwargs = {})
    %add : [num_users=1] = call_function[target=operator.add](args = (%mul, %weight), kwargs = {})
    return add)");
}

// The code generators of torch.export (_PyTreeCodeGen) and of boxed calls (_BoxedCodeGen) bind
// the inputs in the body; they read into the same graph, which prints in the plain form.
TEST(ReadablePy, PytreeAndBoxedCodegensBindTheInputs) {
  auto pytree = parseReadablePy(R"PY(class GraphModule(torch.nn.Module):
    def forward(self, x, y):
        x: "f32[2, 8][8, 1]cuda:0"; y: "f32[8][1]cuda:0";

        x, y, = fx_pytree.tree_flatten_spec(([x, y], {}), self._in_spec)
        add: "f32[2, 8][8, 1]cuda:0" = torch.ops.aten.add.Tensor(x, y);  x = y = None
        return pytree.tree_unflatten((add,), self._out_spec)
)PY",
                                "t.py");
  ASSERT_TRUE(pytree) << pytree.error().str();
  EXPECT_EQ(pytree->find("y")->op(), OpKind::Placeholder);
  EXPECT_EQ(pytree->find("y")->value().tensor()->str(), "f32[8][1]cuda:0");
  EXPECT_EQ(printReadablePy(*pytree), R"PY(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 8][8, 1]cuda:0", y: "f32[8][1]cuda:0"):
        add: "f32[2, 8][8, 1]cuda:0" = torch.ops.aten.add.Tensor(x, y);  x = y = None
        return (add,)
)PY");
  auto exported = parseReadablePy(R"PY(class GraphModule(torch.nn.Module):
    def forward(self, x):
        x_0, = pytree.tree_leaves((self, x,))
        x, = self._in_shuffle_graph(x_0)
        relu = torch.ops.aten.relu.default(x);  x = None
        return pytree.tree_unflatten(self._out_shuffle_graph(x_0, relu), self._out_spec)
)PY",
                                  "t.py");
  ASSERT_TRUE(exported) << exported.error().str();
  EXPECT_NE(printFxText(*exported).find("return (relu,)"), std::string::npos);
  auto boxed = parseReadablePy(R"PY(class GraphModule(torch.nn.Module):
    def forward(self, args_list):
        args_iter = iter(args_list)
        a = next(args_iter)
        b = next(args_iter)
        args_list.clear()
        mul = a * b;  a = b = None
        return (mul,)
)PY",
                               "t.py");
  ASSERT_TRUE(boxed) << boxed.error().str();
  EXPECT_EQ(printReadablePy(*boxed), R"PY(class GraphModule(torch.nn.Module):
    def forward(self, a, b):
        mul = a * b;  a = b = None
        return (mul,)
)PY");
}

// What else print_readable() writes around the code: FX's wrap() registrations, meta blocks
// (FX_GRAPH_SHOW_META), the expanded signature with descriptions, complex and tensor constants.
TEST(ReadablePy, ReadsWrapCallsMetaBlocksExpandedSignaturesAndConstants) {
  auto g = parseReadablePy(R"PY(class GraphModule(torch.nn.Module):
    torch.fx._symbolic_trace.wrap("my_len")
    def forward(
        self,
        x: "f32[4][1]cpu",  # user input
        s0: "Sym(s0 < 5)",
    ):
        """
        stack_trace: 'File "m.py", line 1'
        """
        mul: "c64[4][1]cpu" = x * 2j;  x = None
        add = mul + (1+2j);  mul = None
        full = torch.full_like(add, torch.Tensor(size=[1], dtype=float32));  add = None
        return (
            full,  # user output
        )
)PY",
                           "t.py");
  ASSERT_TRUE(g) << g.error().str();
  EXPECT_EQ(g->find("s0")->op(), OpKind::Placeholder); // a SymBool
  EXPECT_NE(printFxText(*g).find("args = (%x, 2j)"), std::string::npos) << printFxText(*g);
  EXPECT_NE(printFxText(*g).find("args = (%mul, (1+2j))"), std::string::npos);
  EXPECT_NE(printFxText(*g).find("torch.Tensor(size=[1], dtype=float32)"), std::string::npos);
  EXPECT_NE(printFxText(*g).find("return (full,)"), std::string::npos);
}

struct BadCase {
  const char *text;
  int line, col;
  const char *message;
};

TEST(ReadablePy, BadInputGetsLocatedErrors) {
  const BadCase cases[] = {
      {"", 1, 1, "expected 'class"},
      {"class M(torch.nn.Module):\n    def forward(self, x):\n        y = torch.relu(z)\n        "
       "return y\n",
       3, 24, "undefined name 'z'"},
      {"class M(torch.nn.Module):\n    def forward(self, x):\n        y = torch.relu(x\n", 3, 25,
       "expected ')'"},
      {"class M(torch.nn.Module):\n    def forward(self, x: \"q9[4][1]cpu\"):\n        return x\n",
       2, 27, "unknown dtype"},
      {"class M(torch.nn.Module):\n    def forward(self, x: \"f32[s0 +][1]cpu\"):\n        return "
       "x\n",
       2, 0, "symbolic"},
      {"class M(torch.nn.Module):\n    def forward(self, x):\n        y = x.relu();  q = None\n    "
       " "
       "   return y\n",
       3, 24, "frees undefined name 'q'"},
      {"class M(torch.nn.Module):\n    def forward(self, x):\n        y = x.relu()\n", 3, 1,
       "no return statement"},
      {"class M(torch.nn.Module):\n    def forward(self, x):\n        y = x.relu()\n        y = "
       "x.relu()\n        return y\n",
       4, 9, "assigned twice"},
      {"class M(torch.nn.Module):\n    class Sub(torch.nn.Module):\n", 2, 1,
       "class 'Sub' has no forward function"},
      // A nested class whose forward does not return, closed by the parent's next line.
      {"class M(torch.nn.Module):\n    def forward(self, x):\n        return x\n\n    class "
       "A(torch.nn.Module):\n        def forward(self, y):\n            z = y.relu()\n\n    "
       "class B(torch.nn.Module):\n        def forward(self, y):\n            return y\n",
       7, 1, "no return statement"},
      {"class M(torch.nn.Module):\n    def forward(self, x):\n        return x\n\n    class "
       "A(torch.nn.Module):\n        def forward(self, y):\n            return y\n\n    class "
       "A(torch.nn.Module):\n        def forward(self, y):\n            return y\n",
       9, 11, "class 'A' is defined twice"},
      {"class M(torch.nn.Module):\n    def forward(self, x):\n        return x\n  y = x\n", 4, 3,
       "unindent does not match"},
      {"class M(torch.nn.Module):\n    def forward(self, x):\n        return x\nclass "
       "N(torch.nn.Module):\n",
       4, 1, "unexpected text after the module's class"},
      {"class M(torch.nn.Module):\n    def forward(self, x):\n        x += 1\n        return "
       "x\n",
       3, 14, "binding the in-place operation's result"},
      {"class M(torch.nn.Module):\n    def forward(self, x):\n        x += 1;  y = 2\n        "
       "return y\n",
       3, 18, "must be bound to its first operand"},
      {"class M(torch.nn.Module):\n    def forward(self, x):\n        a, b, = foo(x)\n        "
       "return a\n",
       3, 0, "unsupported tuple assignment from 'foo'"},
      {"class M(torch.nn.Module):\n    def forward(self, x):\n        y = getattr(self.a, 0)(x)\n"
       "        return y\n",
       3, 29, "expected an attribute name string"},
      {"class M(torch.nn.Module):\n    def forward(self, x):\n        y = 'abc\n", 3, 13,
       "unterminated string"},
  };
  for (const BadCase &c : cases) {
    auto g = parseReadablePy(c.text, "bad.py");
    ASSERT_FALSE(g) << c.text;
    const Error &e = g.error();
    EXPECT_EQ(e.loc.file, "bad.py");
    EXPECT_EQ(e.loc.line, c.line) << e.str();
    if (c.col) {
      EXPECT_EQ(e.loc.col, c.col) << e.str();
    }
    EXPECT_NE(e.message.find(c.message), std::string::npos) << e.str();
  }
}

TEST(ReadablePy, DeepNestingIsAnErrorNotACrash) {
  std::string deep = "class M(torch.nn.Module):\n    def forward(self, x):\n        y = torch.f(" +
                     std::string(100000, '[') + "\n";
  auto g = parseReadablePy(deep, "deep.py");
  ASSERT_FALSE(g);
  EXPECT_NE(g.error().message.find("nested"), std::string::npos) << g.error().str();
}

} // namespace
