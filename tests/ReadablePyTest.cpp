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
      {"class M(torch.nn.Module):\n    class Sub(torch.nn.Module):\n", 2, 5, "nested classes"},
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
