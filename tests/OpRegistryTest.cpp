/// Unit tests of the op registry: schemas, binding, and the shape/dtype/stride rules on small
/// graphs written as FX text.

#include "ir/ops/OpRegistry.h"
#include "InterpreterTestSupport.h"
#include "backends/interp/KernelContext.h"
#include "importers/FxTextParser.h"
#include "ir/ops/ShapeRules.h"
#include "transforms/ShapeInference.h"

#include <gtest/gtest.h>

#include <map>

using namespace fxkit;
using namespace fxkit::testing;

namespace {

std::string call(const std::string &name, const std::string &target, const std::string &args,
                 const std::string &kwargs = "{}") {
  return "    %" + name + " : [num_users=1] = call_function[target=" + target + "](args = (" +
         args + "), kwargs = " + kwargs + ")\n";
}

std::string inferOne(const std::vector<std::string> &inputs, const std::string &target,
                     const std::string &args, const std::string &kwargs = "{}") {
  return inferredValue(inputs, call("r", target, args, kwargs), "r");
}

// ---- Registry and schemas ----

TEST(OpRegistry, EverySchemaParsesAndHasInference) {
  const auto &ops = OpRegistry::instance().ops();
  EXPECT_GE(ops.size(), 85u);
  for (const OpInfo &op : ops) {
    EXPECT_FALSE(op.schema.name.empty()) << op.target;
    // Only assertions (_assert_tensor_metadata, sym_constrain_range) and the effect-token sink
    // (prims._sink_tokens) return nothing.
    if (!op.schema.name.starts_with("_assert") && !op.schema.name.starts_with("sym_constrain") &&
        op.schema.name != "_sink_tokens") {
      EXPECT_FALSE(op.schema.returns.empty()) << op.target;
    }
    EXPECT_NE(op.infer, nullptr) << op.target;
    EXPECT_EQ(op.kernel, nullptr) << op.target;
    // The overload in the target matches the schema's.
    std::string_view t = op.target;
    if (t.starts_with("torch.ops.")) {
      std::string expect =
          op.schema.name + "." + (op.schema.overload.empty() ? "default" : op.schema.overload);
      EXPECT_TRUE(t.ends_with("." + expect)) << t << " vs " << expect;
    }
    EXPECT_EQ(OpRegistry::instance().lookup(op.target), &op);
  }
  EXPECT_EQ(OpRegistry::instance().lookup("torch.ops.aten.nope.default"), nullptr);
}

TEST(OpRegistry, SchemaDetails) {
  const OpInfo *vm = OpRegistry::instance().lookup("torch.ops.aten.var_mean.correction");
  ASSERT_NE(vm, nullptr);
  EXPECT_EQ(vm->category, OpCategory::Reduction);
  EXPECT_EQ(vm->schema.str(), "var_mean.correction(Tensor self, int[1]? dim=None, *, Scalar? "
                              "correction=None, bool keepdim=False) -> (Tensor, Tensor)");
  ASSERT_EQ(vm->schema.args.size(), 4u);
  EXPECT_TRUE(vm->schema.args[2].kwargOnly);
  EXPECT_EQ(vm->schema.args[1].listSize, 1);
  const OpInfo *split = OpRegistry::instance().lookup("torch.ops.aten.split.Tensor");
  ASSERT_NE(split, nullptr);
  EXPECT_EQ(split->category, OpCategory::View);
  ASSERT_EQ(split->schema.returns.size(), 1u);
  EXPECT_TRUE(split->schema.returns[0].isList);
  const OpInfo *attn = OpRegistry::instance().lookup(
      "torch.ops.aten._scaled_dot_product_efficient_attention.default");
  ASSERT_NE(attn, nullptr);
  EXPECT_EQ(attn->category, OpCategory::Extern);
  ASSERT_EQ(attn->schema.returns.size(), 4u);
  EXPECT_EQ(attn->schema.returns[1].name, "log_sumexp");
  EXPECT_EQ(opCategoryName(OpRegistry::instance().lookup("torch.ops.aten.full.default")->category),
            "creation");
}

TEST(OpRegistry, ParseSchemaErrors) {
  EXPECT_FALSE(parseSchema("add.Tensor(Tensor self"));
  EXPECT_FALSE(parseSchema("add(Widget self) -> Tensor"));
  EXPECT_FALSE(parseSchema("add(Tensor) -> Tensor"));
  auto ok = parseSchema("f(Tensor(a!) self, int[2] k=1, str mode='mean') -> Tensor(a!)");
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(ok->args[1].defaultValue.asInt(), 1);
  EXPECT_EQ(ok->args[2].defaultValue.asString(), "mean");
}

TEST(OpRegistry, KernelSlot) {
  auto kernel = [](KernelContext &) { return Status::ok(); };
  ASSERT_TRUE(OpRegistry::instance().setKernel("torch.ops.aten.relu.default", kernel));
  EXPECT_EQ(OpRegistry::instance().lookup("torch.ops.aten.relu.default")->kernel,
            static_cast<KernelFn>(kernel));
  EXPECT_FALSE(OpRegistry::instance().setKernel("torch.ops.aten.nope.default", kernel));
  ASSERT_TRUE(OpRegistry::instance().setKernel("torch.ops.aten.relu.default", nullptr));
}

// ---- Binding ----

TEST(OpRegistry, BindFillsDefaultsAndReadsKwargs) {
  Graph g =
      inputGraph({"f32[4][1]cpu", "f32[4][1]cpu"},
                 call("r", "torch.ops.aten.add.Tensor", "%a, %b", "{alpha: 2}") +
                     call("v", "torch.ops.aten.var_mean.correction", "%a, [0]", "{correction: 0}"),
                 "(r, v)");
  const OpInfo *add = OpRegistry::instance().lookup("torch.ops.aten.add.Tensor");
  auto b = bindArgs(*g.find("r"), *add);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(b->get("alpha").asInt(), 2);
  EXPECT_TRUE(b->isExplicit("alpha"));
  EXPECT_EQ(b->get("other").asNode()->name(), "b");

  const OpInfo *vm = OpRegistry::instance().lookup("torch.ops.aten.var_mean.correction");
  auto v = bindArgs(*g.find("v"), *vm);
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_FALSE(v->isExplicit("keepdim"));
  EXPECT_EQ(*v->boolean("keepdim"), false);
  EXPECT_EQ((*v->intList("dim"))->at(0), 0);
}

TEST(OpRegistry, BindErrorsNameNodeAndOp) {
  std::string tooMany = inferOne({"f32[4][1]cpu"}, "torch.ops.aten.relu.default", "%a, %a");
  EXPECT_NE(tooMany.find("node 'r' (torch.ops.aten.relu.default)"), std::string::npos) << tooMany;
  EXPECT_NE(tooMany.find("positional"), std::string::npos) << tooMany;
  std::string unknownKw =
      inferOne({"f32[4][1]cpu"}, "torch.ops.aten.relu.default", "%a", "{inplace: True}");
  EXPECT_NE(unknownKw.find("unexpected keyword argument 'inplace'"), std::string::npos)
      << unknownKw;
  std::string missing = inferOne({"f32[4][1]cpu"}, "torch.ops.aten.mm.default", "%a");
  EXPECT_NE(missing.find("missing required argument 'mat2'"), std::string::npos) << missing;
}

// ---- Broadcasting and promotion ----

TEST(OpRegistry, Broadcasting) {
  EXPECT_EQ(inferOne({"f32[4, 1, 3][3, 3, 1]cpu", "f32[5, 1][1, 1]cpu"},
                     "torch.ops.aten.add.Tensor", "%a, %b"),
            "f32[4, 5, 3][15, 3, 1]cpu");
  std::string bad =
      inferOne({"f32[4, 3][3, 1]cpu", "f32[5][1]cpu"}, "torch.ops.aten.mul.Tensor", "%a, %b");
  EXPECT_NE(bad.find("node 'r' (torch.ops.aten.mul.Tensor)"), std::string::npos) << bad;
  EXPECT_NE(bad.find("broadcast"), std::string::npos) << bad;
  // Symbolic sizes broadcast against 1 (the corpus's dynamic_broadcast).
  EXPECT_EQ(inferOne({"f32[s77, 1, s27][s27, s27, 1]cpu", "f32[1, s17, s27][s17*s27, s27, 1]cpu"},
                     "torch.ops.aten.add.Tensor", "%a, %b"),
            "f32[s77, s17, s27][s17*s27, s27, 1]cpu");
}

TEST(OpRegistry, TypePromotion) {
  EXPECT_EQ(promoteTypes(DType::Float16, DType::BFloat16), DType::Float32);
  EXPECT_EQ(promoteTypes(DType::Int32, DType::Int64), DType::Int64);
  EXPECT_EQ(promoteTypes(DType::Bool, DType::Int32), DType::Int32);
  // Python float with an integer tensor: the default float dtype.
  EXPECT_EQ(inferOne({"i64[4][1]cpu"}, "torch.ops.aten.mul.Tensor", "%a, 1.5"), "f32[4][1]cpu");
  // Python float with a half tensor: same category, the tensor wins.
  EXPECT_EQ(inferOne({"f16[4][1]cpu"}, "torch.ops.aten.add.Tensor", "%a, 2.0"), "f16[4][1]cpu");
  // Python int with a bool tensor: int64.
  EXPECT_EQ(inferOne({"b8[4][1]cpu"}, "torch.ops.aten.add.Scalar", "%a, 3"), "i64[4][1]cpu");
  // A zero-dim tensor of the same category does not promote a dimensioned one.
  EXPECT_EQ(inferOne({"i32[4][1]cpu", "i64[][]cpu"}, "torch.ops.aten.add.Tensor", "%a, %b"),
            "i32[4][1]cpu");
  EXPECT_EQ(inferOne({"f16[4][1]cpu", "f32[][]cpu"}, "torch.ops.aten.add.Tensor", "%a, %b"),
            "f16[4][1]cpu");
  // ...but a higher category does.
  EXPECT_EQ(inferOne({"i32[4][1]cpu", "f64[][]cpu"}, "torch.ops.aten.add.Tensor", "%a, %b"),
            "f64[4][1]cpu");
  // True division and float math of integers give float32; comparisons give bool.
  EXPECT_EQ(inferOne({"i64[4][1]cpu", "i64[4][1]cpu"}, "torch.ops.aten.div.Tensor", "%a, %b"),
            "f32[4][1]cpu");
  EXPECT_EQ(inferOne({"i32[4][1]cpu"}, "torch.ops.aten.sqrt.default", "%a"), "f32[4][1]cpu");
  EXPECT_EQ(inferOne({"f32[4][1]cpu"}, "torch.ops.aten.le.Scalar", "%a, 0"), "b8[4][1]cpu");
  EXPECT_EQ(inferOne({"b8[4][1]cpu", "f16[4][1]cpu", "f32[][]cpu"}, "torch.ops.aten.where.self",
                     "%a, %b, %c"),
            "f16[4][1]cpu");
  EXPECT_EQ(inferOne({"f32[4][1]cpu"}, "torch.ops.prims.convert_element_type.default",
                     "%a, torch.bfloat16"),
            "bf16[4][1]cpu");
  // A symbolic integer input counts as a Python int.
  EXPECT_EQ(inferOne({"f32[s0][1]cpu", "s0"}, "torch.ops.aten.mul.Tensor", "%a, %b"),
            "f32[s0][1]cpu");
}

TEST(OpRegistry, UnsupportedDTypeIsAnError) {
  std::string e = inferOne({"c64[4][1]cpu"}, "torch.ops.aten.relu.default", "%a");
  EXPECT_NE(e.find("node 'r' (torch.ops.aten.relu.default)"), std::string::npos) << e;
  EXPECT_NE(e.find("unsupported dtype complex64"), std::string::npos) << e;
  EXPECT_EQ(inferOne({"i8[4][1]cpu"}, "torch.ops.aten.relu.default", "%a"), "i8[4][1]cpu");
  std::string c = inferOne({"f32[4][1]cpu"}, "torch.ops.prims.convert_element_type.default",
                           "%a, torch.complex64");
  EXPECT_NE(c.find("unsupported result dtype complex64"), std::string::npos) << c;
}

TEST(OpRegistry, UnknownOpIsAnError) {
  std::string e = inferOne({"f32[4][1]cpu"}, "torch.ops.aten.frobnicate.default", "%a");
  EXPECT_NE(e.find("node 'r'"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown op 'torch.ops.aten.frobnicate.default'"), std::string::npos) << e;
}

// ---- Output strides of pointwise ops ----

TEST(OpRegistry, ElementwiseStridesFollowInputs) {
  // A transposed input keeps its layout (TensorIterator's permutation).
  EXPECT_EQ(inferOne({"f32[3, 4][1, 3]cpu"}, "torch.ops.aten.relu.default", "%a"),
            "f32[3, 4][1, 3]cpu");
  // Channels-last stays channels-last.
  EXPECT_EQ(inferOne({"f32[2, 3, 4, 5][60, 1, 15, 3]cpu", "f32[2, 3, 4, 5][60, 1, 15, 3]cpu"},
                     "torch.ops.aten.add.Tensor", "%a, %b"),
            "f32[2, 3, 4, 5][60, 1, 15, 3]cpu");
  // An expanded (stride 0) input: the output is dense.
  EXPECT_EQ(inferOne({"f32[3, 4][0, 1]cpu"}, "torch.ops.aten.exp.default", "%a"),
            "f32[3, 4][4, 1]cpu");
  // Mixed layouts: the first operand's order decides ties.
  EXPECT_EQ(
      inferOne({"f32[3, 4][1, 3]cpu", "f32[3, 4][4, 1]cpu"}, "torch.ops.aten.add.Tensor", "%a, %b"),
      "f32[3, 4][1, 3]cpu");
}

TEST(OpRegistry, CloneMemoryFormats) {
  EXPECT_EQ(inferOne({"f32[3, 4][1, 3]cpu"}, "torch.ops.aten.clone.default", "%a"),
            "f32[3, 4][1, 3]cpu");
  EXPECT_EQ(inferOne({"f32[3, 4][1, 3]cpu"}, "torch.ops.aten.clone.default", "%a",
                     "{memory_format: torch.contiguous_format}"),
            "f32[3, 4][4, 1]cpu");
  EXPECT_EQ(inferOne({"f32[2, 3, 4, 5][60, 20, 5, 1]cpu"}, "torch.ops.aten.clone.default", "%a",
                     "{memory_format: torch.channels_last}"),
            "f32[2, 3, 4, 5][60, 1, 15, 3]cpu");
}

// ---- Reductions ----

TEST(OpRegistry, ReductionsKeepdimAndNegativeDims) {
  EXPECT_EQ(
      inferOne({"f32[2, 3, 4][12, 4, 1]cpu"}, "torch.ops.aten.sum.dim_IntList", "%a, [-1], True"),
      "f32[2, 3, 1][3, 1, 1]cpu");
  EXPECT_EQ(
      inferOne({"f32[2, 3, 4][12, 4, 1]cpu"}, "torch.ops.aten.sum.dim_IntList", "%a, [0, -1]"),
      "f32[3][1]cpu");
  EXPECT_EQ(inferOne({"i32[2, 3][3, 1]cpu"}, "torch.ops.aten.sum.dim_IntList", "%a, [1]"),
            "i64[2][1]cpu");
  EXPECT_EQ(inferOne({"f32[2, 3][3, 1]cpu"}, "torch.ops.aten.amax.default", "%a"), "f32[][]cpu");
  EXPECT_EQ(inferOne({"f32[2, 3][3, 1]cpu"}, "torch.ops.aten.mean.default", "%a"), "f32[][]cpu");
  EXPECT_EQ(
      inferOne({"f32[2, 3][3, 1]cpu"}, "torch.ops.aten.mean.dim", "%a, [-2]", "{keepdim: True}"),
      "f32[1, 3][3, 1]cpu");
  std::string bad = inferOne({"f32[2, 3][3, 1]cpu"}, "torch.ops.aten.sum.dim_IntList", "%a, [2]");
  EXPECT_NE(bad.find("out of range"), std::string::npos) << bad;
}

TEST(OpRegistry, VarMeanAndSoftmaxOnlineReturnTwoTensors) {
  std::string body =
      call("v", "torch.ops.aten.var_mean.correction", "%a, [1]", "{correction: 0, keepdim: True}") +
      call("m", "operator.getitem", "%v, 1");
  EXPECT_EQ(inferredValue({"f32[8, 16][16, 1]cpu"}, body, "v"),
            "f32[8, 1][1, 1]cpu | f32[8, 1][1, 1]cpu");
  EXPECT_EQ(inferredValue({"f32[8, 16][16, 1]cpu"}, body, "m"), "f32[8, 1][1, 1]cpu");
  EXPECT_EQ(inferOne({"f32[8, 16][16, 1]cpu"}, "torch.ops.prims.prepare_softmax_online.default",
                     "%a, -1"),
            "f32[8, 1][1, 1]cpu | f32[8, 1][1, 1]cpu");
  std::string outOfRange =
      inferredValue({"f32[8, 16][16, 1]cpu"},
                    call("v", "torch.ops.aten.var_mean.correction", "%a, [1]") +
                        call("m", "operator.getitem", "%v, 2"),
                    "m");
  EXPECT_NE(outOfRange.find("out of range"), std::string::npos) << outOfRange;
}

// ---- Views ----

TEST(OpRegistry, ViewStrides) {
  EXPECT_EQ(
      inferOne({"f32[2, 3, 4][12, 4, 1]cpu"}, "torch.ops.aten.permute.default", "%a, [2, 0, 1]"),
      "f32[4, 2, 3][1, 12, 4]cpu");
  EXPECT_EQ(inferOne({"f32[3, 1][1, 1]cpu"}, "torch.ops.aten.expand.default", "%a, [2, 3, 5]"),
            "f32[2, 3, 5][0, 1, 0]cpu");
  EXPECT_EQ(inferOne({"f32[3, 4][4, 1]cpu"}, "torch.ops.aten.expand.default", "%a, [-1, 4]"),
            "f32[3, 4][4, 1]cpu");
  EXPECT_EQ(inferOne({"f32[8][1]cpu"}, "torch.ops.aten.unsqueeze.default", "%a, -1"),
            "f32[8, 1][1, 1]cpu");
  EXPECT_EQ(inferOne({"f32[3, 4][4, 1]cpu"}, "torch.ops.aten.unsqueeze.default", "%a, 0"),
            "f32[1, 3, 4][12, 4, 1]cpu");
  EXPECT_EQ(inferOne({"f32[3, 1, 4][4, 4, 1]cpu"}, "torch.ops.aten.squeeze.dim", "%a, -2"),
            "f32[3, 4][4, 1]cpu");
  EXPECT_EQ(inferOne({"f32[3, 2, 4][4, 4, 1]cpu"}, "torch.ops.aten.squeeze.dim", "%a, 1"),
            "f32[3, 2, 4][4, 4, 1]cpu");
  EXPECT_EQ(inferOne({"f32[3, 2, 4][8, 4, 1]cpu"}, "torch.ops.aten.select.int", "%a, 1, 0"),
            "f32[3, 4][8, 1]cpu");
  // slice: Python's clamping for constants; a symbolic size takes "to the end" and negative
  // bounds relative to it.
  EXPECT_EQ(inferOne({"f32[3, 10][10, 1]cpu"}, "torch.ops.aten.slice.Tensor",
                     "%a, 1, -5, 9223372036854775807, 2"),
            "f32[3, 3][10, 2]cpu");
  EXPECT_EQ(inferOne({"f32[3, 10][10, 1]cpu"}, "torch.ops.aten.slice.Tensor", "%a, 0, 5"),
            "f32[0, 10][10, 1]cpu");
  EXPECT_EQ(inferOne({"f32[s0, 8][8, 1]cpu"}, "torch.ops.aten.slice.Tensor",
                     "%a, 0, 1, 9223372036854775807"),
            "f32[s0 - 1, 8][8, 1]cpu");
  EXPECT_EQ(inferOne({"f32[s0, 8][8, 1]cpu"}, "torch.ops.aten.slice.Tensor", "%a, 0, -2"),
            "f32[2, 8][8, 1]cpu");
  EXPECT_EQ(inferOne({"f32[2, 3, 4][12, 4, 1]cpu"}, "torch.ops.aten.view.default", "%a, [6, -1]"),
            "f32[6, 4][4, 1]cpu");
  // Splitting a dim of a transposed tensor is a view; merging across the transpose is not.
  EXPECT_EQ(inferOne({"f32[4, 6][1, 4]cpu"}, "torch.ops.aten.view.default", "%a, [4, 2, 3]"),
            "f32[4, 2, 3][1, 12, 4]cpu");
  std::string bad = inferOne({"f32[4, 6][1, 4]cpu"}, "torch.ops.aten.view.default", "%a, [24]");
  EXPECT_NE(bad.find("reshape"), std::string::npos) << bad;
  EXPECT_EQ(inferOne({"f32[4, 6][1, 4]cpu"}, "torch.ops.aten.reshape.default", "%a, [-1]"),
            "f32[24][1]cpu");
  EXPECT_EQ(inferOne({"f32[4, 6][6, 1]cpu"}, "torch.ops.aten.alias.default", "%a"),
            "f32[4, 6][6, 1]cpu");
  EXPECT_EQ(
      inferOne({"f32[4, 6][6, 1]cpu"}, "torch.ops.aten.as_strided.default", "%a, [2, 2], [1, 6]"),
      "f32[2, 2][1, 6]cpu");
}

TEST(OpRegistry, SplitReturnsChunksWithInputStrides) {
  EXPECT_EQ(
      inferOne({"f32[2, 16, 96][1536, 96, 1]cpu"}, "torch.ops.aten.split.Tensor", "%a, 32, -1"),
      "f32[2, 16, 32][1536, 96, 1]cpu | f32[2, 16, 32][1536, 96, 1]cpu | "
      "f32[2, 16, 32][1536, 96, 1]cpu");
  EXPECT_EQ(inferOne({"f32[10][1]cpu"}, "torch.ops.aten.split.Tensor", "%a, 4"),
            "f32[4][1]cpu | f32[4][1]cpu | f32[2][1]cpu");
  EXPECT_EQ(inferOne({"f32[10][1]cpu"}, "torch.ops.aten.split_with_sizes.default", "%a, [3, 7]"),
            "f32[3][1]cpu | f32[7][1]cpu");
}

TEST(OpRegistry, SymbolicSizes) {
  EXPECT_EQ(inferOne({"f32[s77, s27][s27, 1]cpu"}, "torch.ops.aten.view.default", "%a, [-1]"),
            "f32[s27*s77][1]cpu");
  EXPECT_EQ(inferOne({"f32[s77, s27][s27, 1]cpu"}, "torch.ops.aten.unsqueeze.default", "%a, 1"),
            "f32[s77, 1, s27][s27, s27, 1]cpu");
  EXPECT_EQ(inferOne({"f32[s77, s17, s27][s17*s27, s27, 1]cpu"}, "torch.ops.aten.sum.dim_IntList",
                     "%a, [-1]"),
            "f32[s77, s17][s17, 1]cpu");
  // A size read from a node: view(x, [s0, -1]) with the symbol as an input.
  EXPECT_EQ(
      inferOne({"f32[s0, 8][8, 1]cpu", "s0"}, "torch.ops.aten.view.default", "%a, [%b, 2, -1]"),
      "f32[s0, 2, 4][8, 4, 1]cpu");
  // operator.* on symbolic integers.
  EXPECT_EQ(inferOne({"s77", "s27"}, "operator.mul", "%a, %b"), "s27*s77");
  EXPECT_EQ(inferOne({"s77"}, "operator.floordiv", "%a, 1"), "s77");
  EXPECT_EQ(inferOne({"s77"}, "operator.add", "%a, 2"), "s77 + 2");
  EXPECT_EQ(inferOne({"f32[s3, 5][5, 1]cpu"}, "torch.ops.aten.sym_size.int", "%a, 0"), "s3");
}

// ---- Extern, creation, cat ----

TEST(OpRegistry, MatmulConvolutionAttention) {
  EXPECT_EQ(inferOne({"f32[64][1]cpu", "f32[8, 32][32, 1]cpu", "f32[32, 64][1, 32]cpu"},
                     "torch.ops.aten.addmm.default", "%a, %b, %c"),
            "f32[8, 64][64, 1]cpu");
  EXPECT_EQ(inferOne({"f32[8, 4, 5][20, 5, 1]cpu", "f32[8, 5, 6][30, 6, 1]cpu"},
                     "torch.ops.aten.bmm.default", "%a, %b"),
            "f32[8, 4, 6][24, 6, 1]cpu");
  std::string bad =
      inferOne({"f32[4, 5][5, 1]cpu", "f32[4, 5][5, 1]cpu"}, "torch.ops.aten.mm.default", "%a, %b");
  EXPECT_NE(bad.find("cannot be multiplied"), std::string::npos) << bad;
  EXPECT_EQ(inferOne({"f32[2, 8, 10, 10][800, 100, 10, 1]cpu", "f32[16, 8, 3, 3][72, 9, 3, 1]cpu"},
                     "torch.ops.aten.convolution.default",
                     "%a, %b, None, [2, 2], [1, 1], [1, 1], False, [0, 0], 1"),
            "f32[2, 16, 5, 5][400, 25, 5, 1]cpu");
  EXPECT_EQ(inferOne({"f32[2, 8, 10, 10][800, 1, 80, 8]cpu", "f32[16, 8, 3, 3][72, 9, 3, 1]cpu"},
                     "torch.ops.aten.convolution.default",
                     "%a, %b, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1"),
            "f32[2, 16, 10, 10][1600, 1, 160, 16]cpu");
  std::string qkv = "f32[8, 8, 128, 32][32768, 4096, 32, 1]cuda:0";
  EXPECT_EQ(inferOne({qkv, qkv, qkv},
                     "torch.ops.aten._scaled_dot_product_efficient_attention.default",
                     "%a, %b, %c, None, True"),
            "f32[8, 8, 128, 32][32768, 32, 256, 1]cuda:0 | f32[8, 8, 128][1024, 128, 1]cuda:0 | "
            "i64[][]cuda:0 | i64[][]cuda:0");
  std::string q = "f32[2, 4, 16, 8][512, 128, 8, 1]cpu";
  EXPECT_EQ(inferOne({q, q, q},
                     "torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default",
                     "%a, %b, %c"),
            "f32[2, 4, 16, 8][512, 8, 32, 1]cpu | f32[2, 4, 16][64, 1, 4]cpu");
  EXPECT_EQ(inferOne({"f32[10, 4][4, 1]cpu", "i64[2, 3][3, 1]cpu"},
                     "torch.ops.aten.embedding.default", "%a, %b"),
            "f32[2, 3, 4][12, 4, 1]cpu");
  EXPECT_EQ(inferOne({"f32[5, 7][7, 1]cpu"}, "torch.ops.aten.topk.default", "%a, 3"),
            "f32[5, 3][3, 1]cpu | i64[5, 3][3, 1]cpu");
}

TEST(OpRegistry, CreationAndCat) {
  EXPECT_EQ(inferOne({}, "torch.ops.aten.full.default", "[2, 3], 1.5",
                     "{dtype: torch.float16, device: cpu}"),
            "f16[2, 3][3, 1]cpu");
  EXPECT_EQ(inferOne({}, "torch.ops.aten.full.default", "[4], 7"), "i64[4][1]cpu");
  EXPECT_EQ(inferOne({}, "torch.ops.aten.full.default", "[4], False"), "b8[4][1]cpu");
  EXPECT_EQ(inferOne({}, "torch.ops.aten.scalar_tensor.default", "2.0"), "f32[][]cpu");
  EXPECT_EQ(inferOne({}, "torch.ops.prims.iota.default", "16",
                     "{start: 0, step: 1, dtype: torch.int64, device: cuda:0, "
                     "requires_grad: False}"),
            "i64[16][1]cuda:0");
  EXPECT_EQ(inferOne({"f32[2, 3][3, 1]cpu", "f32[4, 3][1, 4]cpu"}, "torch.ops.aten.cat.default",
                     "[%a, %b]"),
            "f32[6, 3][3, 1]cpu");
  EXPECT_EQ(inferOne({"f32[2, 3][3, 1]cpu", "f32[2, 5][5, 1]cpu"}, "torch.ops.aten.cat.default",
                     "[%a, %b], -1"),
            "f32[2, 8][8, 1]cpu");
}

TEST(OpRegistry, ShapeRuleHelpers) {
  auto s = [](const char *text) { return *SymExpr::parse(text); };
  EXPECT_TRUE(symEq(symMul(s("s1"), s("s2")), s("s2*s1")));
  EXPECT_EQ(symCompare(s("s1"), SymExpr(4)), 1);
  EXPECT_EQ(*normalizeDim(-1, 3), 2);
  EXPECT_FALSE(normalizeDim(3, 3));
  EXPECT_TRUE(isContiguous({SymExpr(3), SymExpr(1)}, {SymExpr(1), SymExpr(7)}));
  EXPECT_TRUE(isNonOverlappingAndDense({SymExpr(3), SymExpr(4)}, {SymExpr(1), SymExpr(3)}));
  EXPECT_FALSE(isNonOverlappingAndDense({SymExpr(3), SymExpr(4)}, {SymExpr(0), SymExpr(1)}));
  auto sizes = inferViewSizes({s("s0"), SymExpr(6)}, {SymExpr(2), SymExpr(-1)});
  ASSERT_TRUE(sizes);
  EXPECT_TRUE(symEq((*sizes)[1], s("3*s0")));
  // infer_size's errors, PyTorch's words.
  auto indivisible = inferViewSizes({SymExpr(6)}, {SymExpr(4), SymExpr(-1)});
  ASSERT_FALSE(indivisible);
  EXPECT_EQ(indivisible.error().message, "shape '[4, -1]' is invalid for input of size 6");
  auto ambiguous = inferViewSizes({SymExpr(0), SymExpr(3)}, {SymExpr(0), SymExpr(-1)});
  ASSERT_FALSE(ambiguous);
  EXPECT_EQ(ambiguous.error().message,
            "cannot reshape tensor of 0 elements into shape [0, -1] because the unspecified "
            "dimension size -1 can be any value and is ambiguous");
  EXPECT_FALSE(inferViewSizes({SymExpr(6)}, {SymExpr(-1), SymExpr(-1)}));
  EXPECT_FALSE(inferViewSizes({SymExpr(6)}, {SymExpr(-2), SymExpr(-3)}));
}

// ---- Wrapped numbers at run time ----

TEST(OpRegistry, KernelContextKeepsWrappedNumbersExact) {
  // Inference already applied a wrapped number's category to the result dtype, so a kernel
  // gets the number itself: float64_tensor + 0.1 must see 0.1, not float32's 0.100000001, and
  // an int beyond 2^53 (or a symbolic integer's value) must not round through double.
  const int64_t big = (int64_t(1) << 53) + 1;
  Graph g = inputGraph({"f64[3][1]cpu", "s0"},
                       call("f", "torch.ops.aten.add.Tensor", "%a, 0.1") +
                           call("i", "torch.ops.aten.add.Tensor", "%a, " + std::to_string(big)) +
                           call("s", "torch.ops.aten.add.Tensor", "%a, %b"),
                       "(f, i, s)");
  ASSERT_TRUE(inferShapes(g));
  EXPECT_EQ(g.find("f")->value().tensor()->str(), "f64[3][1]cpu");
  RuntimeValue symbolValue{big + 2};
  std::function<const RuntimeValue *(const Node *)> valueOf =
      [&](const Node *n) -> const RuntimeValue * {
    return n->name() == "b" ? &symbolValue : nullptr;
  };
  SymExpr::Bindings bindings;
  const OpInfo *add = OpRegistry::instance().lookup("torch.ops.aten.add.Tensor");
  auto other = [&](const std::string &node) -> Expected<Tensor> {
    auto b = bindArgs(*g.find(node), *add);
    if (!b)
      return b.takeError();
    KernelContext ctx(*b, bindings, valueOf);
    return ctx.tensor("other");
  };
  auto f = other("f");
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->dtype(), DType::Float64);
  EXPECT_EQ(f->getDouble({}), 0.1);
  auto i = other("i");
  ASSERT_TRUE(i) << i.error().message;
  EXPECT_EQ(i->dtype(), DType::Int64);
  EXPECT_EQ(i->getInt({}), big);
  auto s = other("s");
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->dtype(), DType::Int64);
  EXPECT_EQ(s->getInt({}), big + 2);
}

} // namespace
