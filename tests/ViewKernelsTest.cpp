/// Reference kernels of the view ops (which must alias their input's storage with the layout
/// inference gives), the copies clone and cat, and the symbolic/other ops (getitem, integer
/// operator.*, sym_size). Expected values are worked out by hand from the inputs' row-major
/// values.

#include "InterpreterTestSupport.h"

using namespace fxkit;
using namespace fxkit::testing;

namespace {

using Sizes = std::vector<int64_t>;

/// 0, 1, ..., n-1 as a float32 tensor of `sizes`.
Tensor iota(const Sizes &sizes, DType dtype = DType::Float32) {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  std::vector<double> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    values[i] = static_cast<double>(i);
  return fromValues(sizes, values, dtype);
}

/// `r = target(%x, rest)` over one placeholder x.
std::string op(const std::string &target, const std::string &rest,
               const std::string &kwargs = "{}") {
  return oneOpGraph({"x"}, "torch.ops.aten." + target + "](args = (%x, " + rest +
                               "), kwargs = " + kwargs + ")");
}

/// Runs `text` on `inputs`; expects failure with a message naming node r and containing `part`.
void expectError(const std::string &text, const std::vector<RuntimeValue> &inputs,
                 const std::string &part) {
  auto r = runText(text, inputs);
  ASSERT_FALSE(r) << "expected an error containing '" << part << "'";
  const std::string &m = r.error().message;
  EXPECT_NE(m.find("node 'r'"), std::string::npos) << m;
  EXPECT_NE(m.find(part), std::string::npos) << m;
}

/// The result of `text` on x, which must be a view of x with these sizes and strides.
Tensor expectView(const std::string &text, const Tensor &x, const Sizes &sizes,
                  const Sizes &strides) {
  Tensor v = runSingle(text, {x});
  EXPECT_TRUE(v.sharesStorageWith(x));
  EXPECT_EQ(v.sizes(), sizes);
  EXPECT_EQ(v.strides(), strides);
  return v;
}

/// The tensors of a multi-result single output.
std::vector<Tensor> runList(const std::string &text, const std::vector<Tensor> &inputs) {
  std::vector<RuntimeValue> values;
  for (const Tensor &t : inputs)
    values.push_back(RuntimeValue{t});
  auto r = runText(text, values);
  EXPECT_TRUE(r) << (r ? "" : r.error().str());
  std::vector<Tensor> out;
  if (r && r->outputs.size() == 1 && r->outputs[0].tensors())
    for (const auto &t : *r->outputs[0].tensors())
      out.push_back(t ? *t : Tensor());
  return out;
}

// ---- Views ----

TEST(ViewKernels, View) {
  Tensor x = iota({2, 3});
  Tensor v = expectView(op("view.default", "[3, -1]"), x, {3, 2}, {2, 1});
  expectValues(v, {0, 1, 2, 3, 4, 5});
  expectView(op("_unsafe_view.default", "[6]"), x, {6}, {1});
  // A transposed input splits its dims but cannot merge them.
  Tensor t = permuted(iota({4, 6}), {1, 0}); // [6, 4], strides [1, 6]
  Tensor split = expectView(op("view.default", "[2, 3, 4]"), t, {2, 3, 4}, {3, 1, 6});
  EXPECT_EQ(split.getDouble(std::vector<int64_t>{1, 2, 3}), 3 * 6 + 5); // t[5][3] = base[3][5]
  expectError(op("view.default", "[24]"), {RuntimeValue{t}}, "view");
  expectError(op("view.default", "[4, 2]"), {RuntimeValue{x}}, "invalid");
}

TEST(ViewKernels, ViewSizeCheckedAtRunTime) {
  // Inference only knows x is f32[s0]; the kernel checks [4, -1] against the real size.
  std::string text = R"(graph():
    %x : Tensor "f32[s0][1]cpu"[num_users=1] = placeholder[target=x]
    %r : [num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%x, [4, -1]), kwargs = {})
    return (r,))";
  expectView(text, iota({8}), {4, 2}, {2, 1});
  expectError(text, {RuntimeValue{iota({6})}}, "invalid for an input of 6 elements");
}

TEST(ViewKernels, ViewDtype) {
  // The same bytes: 1.0f is 0x3f800000, and its little-endian bytes 0, 0, 128, 63.
  Tensor ones = fromValues({2, 2}, {1, 1, 1, 1});
  expectValues(expectView(op("view.dtype", "torch.int32"), ones, {2, 2}, {2, 1}),
               {1065353216, 1065353216, 1065353216, 1065353216});
  Tensor bytes = expectView(op("view.dtype", "torch.uint8"), ones, {2, 8}, {8, 1});
  expectValues(bytes, {0, 0, 128, 63, 0, 0, 128, 63, 0, 0, 128, 63, 0, 0, 128, 63});
  // Wider elements from narrower: 0x3c00 is half's 1.0.
  Tensor halves = fromValues({1, 4}, {0, 60, 0, 60}, DType::UInt8);
  expectValues(expectView(op("view.dtype", "torch.float16"), halves, {1, 2}, {2, 1}), {1, 1});
  // Same element size: any layout, as it is.
  Tensor t = permuted(iota({2, 3}), {1, 0});
  expectView(op("view.dtype", "torch.int32"), t, {3, 2}, {1, 3});
  // view_dtype's checks.
  expectError(
      op("view.dtype", "torch.uint8"), {RuntimeValue{t}},
      "self.stride(-1) must be 1 to view Float as Byte (different element sizes), but got 3");
  expectError(op("view.dtype", "torch.float32"), {RuntimeValue{iota({2, 3}, DType::UInt8)}},
              "self.size(-1) must be divisible by 4 to view Byte as Float (different element "
              "sizes), but got 3");
  expectError(op("view.dtype", "torch.uint8"), {RuntimeValue{fromValues({}, {1})}},
              "self.dim() cannot be 0 to view Float as Byte (different element sizes)");
  const std::string offset = R"(graph():
    %x : [num_users=1] = placeholder[target=x]
    %s : [num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%x, 0, 1), kwargs = {})
    %r : [num_users=1] = call_function[target=torch.ops.aten.view.dtype](args = (%s, torch.int32), kwargs = {})
    return (r,))";
  expectError(offset, {RuntimeValue{iota({7}, DType::Int16)}},
              "self.storage_offset() must be divisible by 2 to view Short as Int (different "
              "element sizes), but got 1");
}

TEST(ViewKernels, Reshape) {
  Tensor x = iota({2, 3});
  expectView(op("reshape.default", "[-1]"), x, {6}, {1});
  // Not viewable: a contiguous copy in x^T's row-major order.
  Tensor t = permuted(x, {1, 0});
  Tensor r = runSingle(op("reshape.default", "[6]"), {t});
  EXPECT_FALSE(r.sharesStorageWith(t));
  EXPECT_TRUE(r.isContiguous());
  expectValues(r, {0, 3, 1, 4, 2, 5});
  // Viewable on a transposed input: splitting a dim.
  expectView(op("reshape.default", "[3, 2, 1]"), t, {3, 2, 1}, {1, 3, 3});
}

TEST(ViewKernels, Permute) {
  Tensor x = iota({2, 3, 4});
  Tensor p = expectView(op("permute.default", "[-1, 0, 1]"), x, {4, 2, 3}, {1, 12, 4});
  EXPECT_EQ(p.getDouble(std::vector<int64_t>{3, 1, 2}), 12 + 8 + 3); // x[1][2][3]
  expectError(op("permute.default", "[0, 0, 1]"), {RuntimeValue{x}}, "repeat");
}

TEST(ViewKernels, Expand) {
  Tensor x = fromValues({3, 1}, {7, 8, 9});
  Tensor e = expectView(op("expand.default", "[2, -1, 4]"), x, {2, 3, 4}, {0, 1, 0});
  std::vector<double> expected;
  for (int i = 0; i < 2; ++i)
    for (double v : {7, 8, 9})
      for (int k = 0; k < 4; ++k)
        expected.push_back(v);
  expectValues(e, expected);
  // Same sizes keep strides; -1 too.
  expectView(op("expand.default", "[3, 1]"), x, {3, 1}, {1, 1});
  expectError(op("expand.default", "[2, 4]"), {RuntimeValue{x}}, "expand");
}

TEST(ViewKernels, UnsqueezeSqueeze) {
  Tensor x = iota({2, 3});
  expectView(op("unsqueeze.default", "0"), x, {1, 2, 3}, {6, 3, 1});
  expectView(op("unsqueeze.default", "-1"), x, {2, 3, 1}, {3, 1, 1});
  expectView(op("unsqueeze.default", "-2"), x, {2, 1, 3}, {3, 3, 1});
  Tensor y = iota({1, 3, 1});
  expectView(op("squeeze.dim", "0"), y, {3, 1}, {1, 1});
  expectView(op("squeeze.dim", "1"), y, {1, 3, 1}, {3, 1, 1}); // size 3: kept
  expectView(op("squeeze.dims", "[0, -1]"), y, {3}, {1});
  expectView(oneOpGraph({"x"}, "torch.ops.aten.squeeze.default](args = (%x,), kwargs = {})"), y,
             {3}, {1});
  expectError(op("squeeze.dim", "3"), {RuntimeValue{y}}, "out of range");
}

TEST(ViewKernels, Select) {
  Tensor x = iota({2, 3});
  Tensor col = expectView(op("select.int", "1, -1"), x, {2}, {3});
  EXPECT_EQ(col.storageOffset(), 2);
  expectValues(col, {2, 5});
  Tensor row = expectView(op("select.int", "-2, 1"), x, {3}, {1});
  expectValues(row, {3, 4, 5});
  // Selecting from a view adds to its offset.
  Tensor t = permuted(x, {1, 0});
  expectValues(expectView(op("select.int", "0, 2"), t, {2}, {3}), {2, 5});
  expectError(op("select.int", "1, 3"), {RuntimeValue{x}}, "out of range");
  expectError(op("select.int", "0, -3"), {RuntimeValue{x}}, "out of range");
}

TEST(ViewKernels, Slice) {
  Tensor x = iota({3, 10});
  // x[:, 2:] with PyTorch's "to the end" (2^63 - 1).
  Tensor tail = expectView(op("slice.Tensor", "1, 2, 9223372036854775807"), x, {3, 8}, {10, 1});
  EXPECT_EQ(tail.storageOffset(), 2);
  // x[:, -5:-1:2]: columns 5 and 7.
  expectValues(expectView(op("slice.Tensor", "1, -5, -1, 2"), x, {3, 2}, {10, 2}),
               {5, 7, 15, 17, 25, 27});
  // x[1:], and bounds past either end clamp (x[:, 8:20], x[:, -20:1]); an empty slice.
  expectValues(expectView(op("slice.Tensor", "0, 1"), x, {2, 10}, {10, 1}),
               {10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29});
  expectValues(expectView(op("slice.Tensor", "1, 8, 20"), x, {3, 2}, {10, 1}),
               {8, 9, 18, 19, 28, 29});
  expectValues(expectView(op("slice.Tensor", "1, -20, 1"), x, {3, 1}, {10, 1}), {0, 10, 20});
  expectView(op("slice.Tensor", "1, 7, 3"), x, {3, 0}, {10, 1});
  // x[:, ::3] of a transposed view: its own strides, times 3.
  Tensor t = permuted(x, {1, 0}); // [10, 3], strides [1, 10]
  expectValues(expectView(op("slice.Tensor", "0, 0, 9223372036854775807, 3"), t, {4, 3}, {3, 10}),
               {0, 10, 20, 3, 13, 23, 6, 16, 26, 9, 19, 29});
  expectError(op("slice.Tensor", "1, 0, 5, 0"), {RuntimeValue{x}}, "step must be positive");
}

TEST(ViewKernels, Split) {
  Tensor x = iota({5, 2});
  std::vector<Tensor> parts = runList(op("split.Tensor", "2"), {x});
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[2].sizes(), (Sizes{1, 2}));
  expectValues(parts[0], {0, 1, 2, 3});
  expectValues(parts[1], {4, 5, 6, 7});
  expectValues(parts[2], {8, 9});
  for (const Tensor &p : parts)
    EXPECT_TRUE(p.sharesStorageWith(x));
  std::vector<Tensor> cols = runList(op("split.Tensor", "1, -1"), {x});
  ASSERT_EQ(cols.size(), 2u);
  expectValues(cols[1], {1, 3, 5, 7, 9});
  EXPECT_EQ(cols[1].strides(), (Sizes{2, 1}));
  std::vector<Tensor> sized = runList(op("split_with_sizes.default", "[1, 4], -2"), {x});
  ASSERT_EQ(sized.size(), 2u);
  EXPECT_EQ(sized[1].sizes(), (Sizes{4, 2}));
  EXPECT_EQ(sized[1].storageOffset(), 2);
  expectValues(sized[0], {0, 1});
  expectValues(sized[1], {2, 3, 4, 5, 6, 7, 8, 9});
  expectError(op("split_with_sizes.default", "[2, 2]"), {RuntimeValue{x}}, "add up");
}

TEST(ViewKernels, SplitThenGetitem) {
  // attention's pattern: split, then a getitem per part feeding a view.
  std::string text = R"(graph():
    %x : [num_users=1] = placeholder[target=x]
    %split : [num_users=2] = call_function[target=torch.ops.aten.split.Tensor](args = (%x, 2, -1), kwargs = {})
    %getitem : [num_users=0] = call_function[target=operator.getitem](args = (%split, 0), kwargs = {})
    %getitem_1 : [num_users=1] = call_function[target=operator.getitem](args = (%split, -1), kwargs = {})
    %view : [num_users=1] = call_function[target=torch.ops.aten.view.default](args = (%getitem_1, [2, 1, 2]), kwargs = {})
    return (view,))";
  Tensor x = iota({2, 4});
  Tensor v = runSingle(text, {x});
  EXPECT_TRUE(v.sharesStorageWith(x));
  EXPECT_EQ(v.strides(), (Sizes{4, 2, 1}));
  expectValues(v, {2, 3, 6, 7});
  expectError(oneOpGraph({"x"}, "operator.getitem](args = (%x, 0), kwargs = {})"),
              {RuntimeValue{x}}, "getitem");
}

TEST(ViewKernels, AliasAsStrided) {
  Tensor x = iota({2, 3});
  expectValues(expectView(oneOpGraph({"x"}, "torch.ops.aten.alias.default](args = (%x,), "
                                            "kwargs = {})"),
                          x, {2, 3}, {3, 1}),
               {0, 1, 2, 3, 4, 5});
  // The storage offset defaults to the input's (here 1).
  auto shifted = x.asStrided({5}, {1}, 1);
  ASSERT_TRUE(shifted);
  Tensor a = expectView(op("as_strided.default", "[2, 2], [1, 2]"), *shifted, {2, 2}, {1, 2});
  EXPECT_EQ(a.storageOffset(), 1);
  expectValues(a, {1, 3, 2, 4});
  Tensor b = expectView(op("as_strided.default", "[2], [3], 2"), x, {2}, {3});
  expectValues(b, {2, 5});
  expectError(op("as_strided.default", "[3], [3], 0"), {RuntimeValue{x}}, "storage");
}

// ---- Copies ----

TEST(ViewKernels, Clone) {
  Tensor x = iota({2, 3});
  Tensor t = permuted(x, {1, 0});
  // preserve_format keeps a dense transposed layout.
  Tensor c = runSingle(oneOpGraph({"x"}, "torch.ops.aten.clone.default](args = (%x,), "
                                         "kwargs = {})"),
                       {t});
  EXPECT_FALSE(c.sharesStorageWith(t));
  EXPECT_EQ(c.strides(), (Sizes{1, 3}));
  expectValues(c, {0, 3, 1, 4, 2, 5});
  Tensor d = runSingle(oneOpGraph({"x"}, "torch.ops.aten.clone.default](args = (%x,), "
                                         "kwargs = {memory_format: torch.contiguous_format})"),
                       {t});
  EXPECT_EQ(d.strides(), (Sizes{2, 1}));
  expectValues(d, {0, 3, 1, 4, 2, 5});
  // An expanded input becomes dense.
  auto e = fromValues({2}, {7, 8}).asStrided({3, 2}, {0, 1}, 0);
  ASSERT_TRUE(e);
  Tensor f = runSingle(oneOpGraph({"x"}, "torch.ops.aten.clone.default](args = (%x,), "
                                         "kwargs = {})"),
                       {*e});
  EXPECT_EQ(f.strides(), (Sizes{2, 1}));
  expectValues(f, {7, 8, 7, 8, 7, 8});
}

TEST(ViewKernels, Cat) {
  std::string cat1 =
      oneOpGraph({"a", "b"}, "torch.ops.aten.cat.default](args = ([%a, %b], -1), kwargs = {})");
  Tensor a = iota({2, 2});
  Tensor b = fromValues({2, 1}, {10, 11});
  Tensor c = runSingle(cat1, {a, b});
  EXPECT_FALSE(c.sharesStorageWith(a));
  EXPECT_EQ(c.sizes(), (Sizes{2, 3}));
  expectValues(c, {0, 1, 10, 2, 3, 11});
  // Along dim 0, a permuted input, and a legacy empty [0] tensor that is skipped.
  std::string cat3 = oneOpGraph({"a", "b", "e"},
                                "torch.ops.aten.cat.default](args = ([%a, %e, %b],), kwargs = {})");
  auto empty = Tensor::zeros(DType::Float32, {0});
  ASSERT_TRUE(empty);
  Tensor d = runSingle(cat3, {permuted(a, {1, 0}), iota({1, 2}), *empty});
  EXPECT_EQ(d.sizes(), (Sizes{3, 2}));
  expectValues(d, {0, 2, 1, 3, 0, 1});
  // Promotion: int64 with float32 gives float32.
  Tensor ints = fromValues({2, 1}, {-3, 4}, DType::Int64);
  Tensor p = runSingle(cat1, {a, ints});
  EXPECT_EQ(p.dtype(), DType::Float32);
  expectValues(p, {0, 1, -3, 2, 3, 4});
  expectError(cat1, {RuntimeValue{a}, RuntimeValue{iota({3, 1})}}, "cat");
}

// ---- Symbolic and other ----

/// `r = operator.<name>(%a, rhs)` run on integer inputs; the integer or double it gives.
RuntimeValue arith(const std::string &name, int64_t a, int64_t b) {
  auto r = runText(oneOpGraph({"a", "b"}, "operator." + name + "](args = (%a, %b), kwargs = {})"),
                   {RuntimeValue{a}, RuntimeValue{b}});
  EXPECT_TRUE(r) << name << ": " << (r ? "" : r.error().str());
  return r && r->outputs.size() == 1 ? r->outputs[0] : RuntimeValue{};
}

int64_t intOf(const RuntimeValue &v) {
  EXPECT_TRUE(v.integer());
  return v.integer() ? *v.integer() : -999;
}

TEST(SymbolicKernels, IntegerArithmetic) {
  EXPECT_EQ(intOf(arith("add", 5, 3)), 8);
  EXPECT_EQ(intOf(arith("sub", 5, 8)), -3);
  EXPECT_EQ(intOf(arith("mul", -5, 3)), -15);
  // Python floors: -7 // 2 = -4, 7 // -2 = -4; % takes the divisor's sign.
  EXPECT_EQ(intOf(arith("floordiv", 7, 2)), 3);
  EXPECT_EQ(intOf(arith("floordiv", -7, 2)), -4);
  EXPECT_EQ(intOf(arith("floordiv", 7, -2)), -4);
  EXPECT_EQ(intOf(arith("floordiv", -8, 2)), -4);
  EXPECT_EQ(intOf(arith("mod", -7, 2)), 1);
  EXPECT_EQ(intOf(arith("mod", 7, -2)), -1);
  EXPECT_EQ(intOf(arith("mod", -8, 2)), 0);
  RuntimeValue q = arith("truediv", 7, 2);
  ASSERT_TRUE(std::holds_alternative<double>(q.v));
  EXPECT_EQ(std::get<double>(q.v), 3.5);
}

TEST(SymbolicKernels, ArithmeticErrors) {
  for (const char *name : {"floordiv", "mod", "truediv"})
    expectError(
        oneOpGraph({"a", "b"}, std::string("operator.") + name + "](args = (%a, %b), kwargs = {})"),
        {RuntimeValue{int64_t(5)}, RuntimeValue{int64_t(0)}}, "division by zero");
  expectError(oneOpGraph({"a", "b"}, "operator.mul](args = (%a, %b), kwargs = {})"),
              {RuntimeValue{int64_t(1) << 62}, RuntimeValue{int64_t(4)}}, "overflow");
}

TEST(SymbolicKernels, SymSizeFeedsAView) {
  std::string text = R"(graph():
    %x : Tensor "f32[s0, s1][s1, 1]cpu"[num_users=2] = placeholder[target=x]
    %sym_size_int : [num_users=2] = call_function[target=torch.ops.aten.sym_size.int](args = (%x, -1), kwargs = {})
    %mul : [num_users=1] = call_function[target=operator.mul](args = (%sym_size_int, 2), kwargs = {})
    %view : [num_users=1] = call_function[target=torch.ops.aten.view.default](args = (%x, [%sym_size_int, -1]), kwargs = {})
    return (mul, view))";
  Tensor x = iota({2, 3});
  auto r = runText(text, {RuntimeValue{x}});
  ASSERT_TRUE(r) << r.error().str();
  ASSERT_EQ(r->outputs.size(), 2u);
  EXPECT_EQ(intOf(r->outputs[0]), 6);
  ASSERT_TRUE(r->outputs[1].tensor());
  EXPECT_EQ(r->outputs[1].tensor()->sizes(), (Sizes{3, 2}));
  EXPECT_TRUE(r->outputs[1].tensor()->sharesStorageWith(x));
  EXPECT_EQ(r->bindings.at("s1"), 3);
}

TEST(SymbolicKernels, GetitemOfAList) {
  std::string text = oneOpGraph({"a", "b"}, "operator.getitem](args = ([%a, 5, %b], -2), "
                                            "kwargs = {})");
  auto r = runText(text, {RuntimeValue{int64_t(2)}, RuntimeValue{int64_t(3)}});
  ASSERT_TRUE(r) << r.error().str();
  EXPECT_EQ(intOf(r->outputs[0]), 5);
  std::string first = oneOpGraph({"a", "b"}, "operator.getitem](args = ([%a, 5, %b], 0), "
                                             "kwargs = {})");
  auto s = runText(first, {RuntimeValue{int64_t(2)}, RuntimeValue{int64_t(3)}});
  ASSERT_TRUE(s) << s.error().str();
  EXPECT_EQ(intOf(s->outputs[0]), 2);
}

} // namespace
