/// The reduction op family (ir/ops/ReductionOps.cpp, backends/interp/ReductionFamilyKernels.cpp):
/// inference (dtype, sizes, strides, symbolic sizes, errors) and reference kernels, each op run
/// alone on inputs with hand-worked results or on the inputs of a PyTorch 2.11 reference run
/// (sin(0.37 i + offset) * scale, see wave()), whose eager CPU results (and FakeTensor layouts)
/// are written out here. Every kernel result is checked against its inferred type.

#include "InterpreterTestSupport.h"
#include "backends/interp/KernelContext.h"
#include "backends/interp/OpFamilyKernels.h"
#include "ir/ops/OpFamilies.h"
#include "transforms/ShapeInference.h"

#include <cmath>
#include <limits>
#include <map>
#include <set>

using namespace fxkit;
using namespace fxkit::testing;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// sin(0.37 i + offset) * scale in row-major order, rounded to dtype: the inputs of the
/// PyTorch reference run.
Tensor wave(std::vector<int64_t> sizes, double scale = 1, double offset = 0,
            DType dtype = DType::Float32) {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  std::vector<double> values(n);
  for (int64_t i = 0; i < n; ++i)
    values[i] = std::sin(static_cast<double>(i) * 0.37 + offset) * scale;
  return fromValues(std::move(sizes), values, dtype);
}

/// The last two dims swapped (a strided view).
Tensor transposed(const Tensor &t) {
  std::vector<int64_t> dims(t.dim());
  for (int64_t d = 0; d < t.dim(); ++d)
    dims[d] = d;
  std::swap(dims[t.dim() - 2], dims[t.dim() - 1]);
  return permuted(t, dims);
}

/// A copy of 4-d `t` laid out channels-last.
Tensor channelsLast(const Tensor &t) {
  auto base = Tensor::zeros(t.dtype(), {t.size(0), t.size(2), t.size(3), t.size(1)});
  Tensor view = permuted(*base, {0, 3, 1, 2});
  Tensor::forEachIndex(t.sizes(),
                       [&](std::span<const int64_t> i) { view.setDouble(i, t.getDouble(i)); });
  return view;
}

/// A graph of placeholders x, y, z, w, u, v, t, q (as many as `inputs`; typed by the inputs
/// when run) and `r = target(args)`.
std::string graph(size_t inputs, const std::string &target, const std::string &args,
                  const std::string &kwargs = "{}") {
  static const char *const kNames[] = {"x", "y", "z", "w", "u", "v", "t", "q"};
  std::vector<std::string> names(kNames, kNames + inputs);
  return oneOpGraph(names, "torch.ops.aten." + target + "](args = (" + args +
                               "), kwargs = " + kwargs + ")");
}

/// Parses `text`, types its placeholders by `inputs`, infers, runs node r's kernel and checks
/// every tensor result against its inferred type (dtype, sizes, strides).
Expected<RuntimeValue> runOp(const std::string &text, const std::vector<Tensor> &inputs) {
  registerReductionFamilyKernels();
  registerRandomKernels(); // native_dropout
  auto g = parseFxText(text, "<test>");
  if (!g)
    return g.takeError();
  std::map<const Node *, RuntimeValue> values;
  size_t next = 0;
  for (Node *n : *g)
    if (n->op() == OpKind::Placeholder) {
      n->value() = NodeValue{inputs.at(next).typeOf()};
      values[n] = RuntimeValue{inputs.at(next++)};
    }
  if (Status s = inferShapes(*g); !s)
    return s.takeError();
  Node *call = g->find("r");
  const OpInfo *op = OpRegistry::instance().lookup(call->target());
  if (!op || !op->kernel)
    return Error("no kernel for " + std::string(call->target()));
  auto bound = bindArgs(*call, *op);
  if (!bound)
    return bound.takeError();
  SymExpr::Bindings bindings;
  std::function<const RuntimeValue *(const Node *)> valueOf = [&](const Node *n) {
    auto it = values.find(n);
    return it == values.end() ? nullptr : &it->second;
  };
  KernelContext ctx(*bound, bindings, valueOf);
  if (Status s = op->kernel(ctx); !s)
    return s.takeError();
  const NodeValue &v = call->value();
  std::vector<std::optional<TensorType>> types;
  std::vector<std::optional<Tensor>> results;
  if (v.tensor()) {
    types.push_back(*v.tensor());
    results.push_back(ctx.result.tensor() ? std::optional(*ctx.result.tensor()) : std::nullopt);
  } else if (v.tensors()) {
    types = *v.tensors();
    if (ctx.result.tensors())
      results = *ctx.result.tensors();
  }
  if (results.size() != types.size())
    return Error("the kernel gave " + std::to_string(results.size()) + " results, inference " +
                 std::to_string(types.size()));
  for (size_t i = 0; i < types.size(); ++i)
    if (types[i].has_value() != results[i].has_value() ||
        (results[i] && results[i]->typeOf(types[i]->device) != *types[i]))
      return Error("result " + std::to_string(i) + " is " +
                   (results[i] ? results[i]->typeOf().str() : "None") + ", inference says " +
                   (types[i] ? types[i]->str() : "None"));
  return std::move(ctx.result);
}

RuntimeValue run(const std::string &text, const std::vector<Tensor> &inputs) {
  auto r = runOp(text, inputs);
  EXPECT_TRUE(r) << (r ? "" : r.error().message) << "\n" << text;
  return r ? r.take() : RuntimeValue{};
}

/// Result `i` of a multi-result op (an empty tensor when missing, after a failure).
Tensor part(const RuntimeValue &v, size_t i) {
  const auto *ts = v.tensors();
  if (!ts || i >= ts->size() || !(*ts)[i]) {
    ADD_FAILURE() << "no tensor result " << i;
    return Tensor();
  }
  return *(*ts)[i];
}

Tensor single(const RuntimeValue &v) {
  if (!v.tensor()) {
    ADD_FAILURE() << "no tensor result";
    return Tensor();
  }
  return *v.tensor();
}

/// The error of inference or the kernel (which must name node r).
std::string failure(const std::string &text, const std::vector<Tensor> &inputs) {
  auto r = runOp(text, inputs);
  if (r) {
    ADD_FAILURE() << "expected an error:\n" << text;
    return "";
  }
  return r.error().message;
}

/// Expects running `text` to fail with `what` in the message.
void expectFailure(const std::string &text, const std::vector<Tensor> &inputs,
                   const std::string &what) {
  std::string e = failure(text, inputs);
  EXPECT_NE(e.find(what), std::string::npos) << e << "\n" << text;
}

/// "f32[2, 3][3, 1]cpu" of a tensor.
std::string typeOf(const Tensor &t) { return t.typeOf().str(); }

/// The inferred value of node r (results joined by " | ", None for a missing one) for
/// placeholders of the given types (`x`, `y`, ...); an untyped placeholder `s0` holds the
/// symbol s0.
std::string inferred(const std::vector<std::string> &types, const std::string &target,
                     const std::string &args, const std::string &kwargs = "{}") {
  std::string text = "graph():\n    %s0 : [num_users=1] = placeholder[target=s0]\n";
  for (size_t i = 0; i < types.size(); ++i) {
    std::string name(1, static_cast<char>('x' + i));
    text += "    %" + name + " : Tensor \"" + types[i] +
            "\"[num_users=1] = placeholder[target=" + name + "]\n";
  }
  text += "    %r : [num_users=1] = call_function[target=torch.ops.aten." + target + "](args = (" +
          args + "), kwargs = " + kwargs + ")\n    return (r,)\n";
  auto g = parseFxText(text, "<test>");
  if (!g)
    return "error: " + g.error().message;
  g->find("s0")->value().v = SymExpr::symbol("s0");
  if (Status s = inferShapes(*g); !s)
    return "error: " + s.error().message;
  const NodeValue &v = g->find("r")->value();
  if (const TensorType *t = v.tensor())
    return t->str();
  if (const SymExpr *e = v.sym())
    return "sym " + e->str();
  std::string out;
  for (const auto &t : *v.tensors())
    out += (out.empty() ? "" : " | ") + (t ? t->str() : std::string("None"));
  return out;
}

/// [[1, 0, 3], [0, 0, 2]] as float32 (or another dtype).
Tensor x23(DType dtype = DType::Float32) { return fromValues({2, 3}, {1, 0, 3, 0, 0, 2}, dtype); }

Tensor scalar(double v, DType dtype = DType::Float32) { return fromValues({}, {v}, dtype); }

constexpr double kTol = 2e-5;  ///< float32 results against PyTorch's float32 arithmetic
constexpr double kHalf = 2e-3; ///< float16 results

} // namespace

// ---- any / all ----

TEST(ReductionOps, AnyAllReduceDims) {
  for (const char *op : {"any", "all"}) {
    bool any = std::string(op) == "any";
    SCOPED_TRACE(op);
    std::string o = op;
    Tensor r = single(run(graph(1, o + ".dim", "%x, 1"), {x23()}));
    EXPECT_EQ(typeOf(r), "b8[2][1]cpu");
    expectValues(r, any ? std::vector<double>{1, 1} : std::vector<double>{0, 0});
    // A transposed view, keepdim, negative dim: rows [1, 0], [0, 0], [3, 2].
    r = single(run(graph(1, o + ".dim", "%x, -1, True"), {transposed(x23())}));
    EXPECT_EQ(typeOf(r), "b8[3, 1][1, 1]cpu");
    expectValues(r, any ? std::vector<double>{1, 0, 1} : std::vector<double>{0, 0, 1});
    // Bool and integer inputs.
    expectValues(single(run(graph(1, o + ".dim", "%x, 0"), {x23(DType::Bool)})),
                 any ? std::vector<double>{1, 0, 1} : std::vector<double>{0, 0, 1});
    expectValues(single(run(graph(1, o + ".dim", "%x, 0"), {x23(DType::Int32)})),
                 any ? std::vector<double>{1, 0, 1} : std::vector<double>{0, 0, 1});
    // .dims: a list, None with keepdim (all dims kept as 1), and [] which reduces nothing.
    r = single(run(graph(1, o + ".dims", "%x, [0, 1]"), {x23()}));
    EXPECT_EQ(typeOf(r), "b8[][]cpu");
    expectValues(r, {any ? 1.0 : 0.0});
    r = single(run(graph(1, o + ".dims", "%x, None, True"), {x23()}));
    EXPECT_EQ(typeOf(r), "b8[1, 1][1, 1]cpu");
    r = single(run(graph(1, o + ".dims", "%x, []"), {transposed(x23())}));
    EXPECT_EQ(typeOf(r), "b8[3, 2][1, 3]cpu");
    expectValues(r, {1, 0, 0, 0, 1, 1});
    r = single(run(graph(1, o + ".default", "%x"), {x23()}));
    EXPECT_EQ(typeOf(r), "b8[][]cpu");
    expectValues(r, {any ? 1.0 : 0.0});
    // 0-d input, dim -1.
    expectValues(single(run(graph(1, o + ".dim", "%x, -1"), {scalar(2.5)})), {1});
  }
}

TEST(ReductionOps, AnyAllEdgeCases) {
  // NaN is non-zero.
  Tensor nan = fromValues({2}, {0, kNaN});
  expectValues(single(run(graph(1, "any.default", "%x"), {nan})), {1});
  expectValues(single(run(graph(1, "all.default", "%x"), {nan})), {0});
  expectValues(single(run(graph(1, "all.default", "%x"), {fromValues({1}, {kNaN})})), {1});
  // Zero elements: any is false, all is true; a reduced size-0 dim gives an empty result.
  auto empty = Tensor::zeros(DType::Float32, {0, 3});
  expectValues(single(run(graph(1, "any.dim", "%x, 0"), {*empty})), {0, 0, 0});
  expectValues(single(run(graph(1, "all.dim", "%x, 0"), {*empty})), {1, 1, 1});
  EXPECT_EQ(typeOf(single(run(graph(1, "any.dim", "%x, 1"), {*empty}))), "b8[0][1]cpu");
  // Errors as PyTorch's.
  expectFailure(graph(1, "any.dims", "%x, [1, -1]"), {x23()},
                "dim 1 appears multiple times in the list of dims");
  expectFailure(graph(1, "all.dim", "%x, 2"), {x23()}, "out of range");
  // uint8 keeps its dtype (a legacy mask type); other dtypes give bool.
  Tensor u = single(run(graph(1, "all.dim", "%x, 0"), {x23(DType::UInt8)}));
  EXPECT_EQ(typeOf(u), "u8[3][1]cpu");
  expectValues(u, {0, 0, 1});
  EXPECT_EQ(inferred({"f32[s0, 3][3, 1]cpu"}, "any.dim", "%x, 0, True"), "b8[1, 3][3, 1]cpu");
  EXPECT_EQ(inferred({"i8[s0, 3][3, 1]cpu"}, "any.dims", "%x, [1]"), "b8[s0][1]cpu");
}

// ---- argmax / argmin ----

TEST(ReductionOps, ArgMaxMin) {
  const std::string amax = "argmax.default", amin = "argmin.default";
  // dim=None flattens: x23 = [1, 0, 3, 0, 0, 2].
  Tensor r = single(run(graph(1, amax, "%x"), {x23()}));
  EXPECT_EQ(typeOf(r), "i64[][]cpu");
  expectValues(r, {2});
  expectValues(single(run(graph(1, amin, "%x"), {x23()})), {1});
  r = single(run(graph(1, amax, "%x, None, True"), {x23()}));
  EXPECT_EQ(typeOf(r), "i64[1, 1][1, 1]cpu");
  expectValues(r, {2});
  // Along a dim of a transposed view: rows [1, 0], [0, 0], [3, 2]; ties take the first.
  expectValues(single(run(graph(1, amax, "%x, -1"), {transposed(x23())})), {0, 0, 0});
  expectValues(single(run(graph(1, amin, "%x, -1"), {transposed(x23())})), {1, 0, 1});
  r = single(run(graph(1, amax, "%x, 0, True"), {x23()}));
  EXPECT_EQ(typeOf(r), "i64[1, 3][3, 1]cpu");
  expectValues(r, {0, 0, 0});
  // NaN counts as the extremum for both, at its first occurrence.
  Tensor nan = fromValues({3, 3}, {1, kNaN, 3, kNaN, 5, kNaN, 2, 2, 2});
  expectValues(single(run(graph(1, amax, "%x, 1"), {nan})), {1, 0, 0});
  expectValues(single(run(graph(1, amin, "%x, 1"), {nan})), {1, 0, 0});
  Tensor infs = fromValues({3}, {-kInf, kInf, -kInf});
  expectValues(single(run(graph(1, amax, "%x, 0"), {infs})), {1});
  expectValues(single(run(graph(1, amin, "%x, 0"), {infs})), {0});
  // Integers compare exactly (these two are equal as doubles).
  auto big = Tensor::zeros(DType::Int64, {2});
  big->storeInt(0, (int64_t(1) << 60) + 1);
  big->storeInt(1, (int64_t(1) << 60) + 2);
  expectValues(single(run(graph(1, amax, "%x"), {*big})), {1});
  expectValues(single(run(graph(1, amin, "%x, 1"), {x23(DType::Int32)})), {1, 0});
  // 0-d.
  expectValues(single(run(graph(1, amax, "%x, 0"), {scalar(2.5)})), {0});
}

TEST(ReductionOps, ArgMaxMinErrors) {
  expectFailure(graph(1, "argmax.default", "%x, 0"), {x23(DType::Bool)},
                "argmax(): does not support bool input");
  auto empty = Tensor::zeros(DType::Float32, {0, 3});
  expectFailure(graph(1, "argmin.default", "%x"), {*empty},
                "argmin(): Expected reduction dim to be specified for input.numel() == 0.");
  expectFailure(graph(1, "argmax.default", "%x, 0"), {*empty},
                "argmax(): Expected reduction dim 0 to have non-zero size.");
  EXPECT_EQ(typeOf(single(run(graph(1, "argmax.default", "%x, 1"), {*empty}))), "i64[0][1]cpu");
  expectFailure(graph(1, "argmax.default", "%x, 1"), {scalar(1)}, "out of range");
}

// ---- cumsum / cumprod ----

TEST(ReductionOps, CumsumCumprod) {
  Tensor r = single(run(graph(1, "cumsum.default", "%x, 1"), {x23()}));
  EXPECT_EQ(typeOf(r), "f32[2, 3][3, 1]cpu");
  expectValues(r, {1, 1, 4, 0, 0, 2});
  // A transposed view along dim 0 gives a contiguous result: [[1, 0], [1, 0], [4, 2]].
  r = single(run(graph(1, "cumsum.default", "%x, 0"), {transposed(x23())}));
  EXPECT_EQ(typeOf(r), "f32[3, 2][2, 1]cpu");
  expectValues(r, {1, 0, 1, 0, 4, 2});
  // Integers and bools accumulate in int64; dtype= converts first.
  r = single(run(graph(1, "cumsum.default", "%x, -1"), {x23(DType::Int32)}));
  EXPECT_EQ(typeOf(r), "i64[2, 3][3, 1]cpu");
  expectValues(r, {1, 1, 4, 0, 0, 2});
  expectValues(single(run(graph(1, "cumsum.default", "%x, 1"), {x23(DType::Bool)})),
               {1, 1, 2, 0, 0, 1});
  r = single(
      run(graph(1, "cumsum.default", "%x, 1", "{dtype: torch.float64}"), {x23(DType::Int32)}));
  EXPECT_EQ(typeOf(r), "f64[2, 3][3, 1]cpu");
  Tensor fractions = fromValues({3}, {1.7, -2.9, 0.5});
  r = single(run(graph(1, "cumsum.default", "%x, 0", "{dtype: torch.int32}"), {fractions}));
  EXPECT_EQ(typeOf(r), "i32[3][1]cpu");
  expectValues(r, {1, -1, -1}); // truncated to 1, -2, 0 first
  expectValues(single(run(graph(1, "cumprod.default", "%x, 1"), {x23(DType::Int32)})),
               {1, 0, 0, 0, 0, 0});
  expectValues(single(run(graph(1, "cumprod.default", "%x, 0"), {fromValues({3}, {2, -3, 0.5})})),
               {2, -6, -3});
  // NaN propagates; 0-d works; channels-last input, contiguous result.
  expectValues(single(run(graph(1, "cumsum.default", "%x, 0"), {fromValues({3}, {1, kNaN, 2})})),
               {1, kNaN, kNaN});
  expectValues(single(run(graph(1, "cumprod.default", "%x, 0"), {scalar(2.5)})), {2.5});
  r = single(run(graph(1, "cumsum.default", "%x, 1"), {channelsLast(wave({2, 3, 2, 2}))}));
  EXPECT_EQ(typeOf(r), "f32[2, 3, 2, 2][12, 4, 2, 1]cpu");
  expectValues(r,
               {0,
                0.361615419,
                0.674287915,
                0.895698667,
                0.995880842,
                1.32289064,
                1.47085333,
                1.41974306,
                1.17647707,
                1.13559604,
                0.94101727,
                0.619076192,
                -0.963130951,
                -0.995239854,
                -0.892647684,
                -0.669239879,
                -1.31838453,
                -0.988425195,
                -0.524687171,
                0.0100647807,
                -0.419676393,
                0.00805042312,
                0.434687674,
                0.802491963},
               kTol);
  expectFailure(graph(1, "cumsum.default", "%x, 2"), {x23()}, "out of range");
}

TEST(ReductionOps, CumulativeRoundingAndWrapping) {
  // float16 accumulates wide and rounds each result (PyTorch: these values).
  Tensor h = wave({3, 4}, 100, 0, DType::Float16);
  expectValues(single(run(graph(1, "cumsum.default", "%x, 0"), {h})),
               {0, 36.15625, 67.4375, 89.5625, 99.5625, 132.25, 147.125, 142, 117.625, 113.5625,
                94.125, 61.90625},
               kHalf);
  expectValues(single(run(graph(1, "cumprod.default", "%x, 0"), {h})),
               {0, 36.15625, 67.4375, 89.5625, 0, 3476, 5372, 4692, 0, -65120, -kInf, -kInf},
               kHalf);
  // int64 products wrap modulo 2^64: 2^62 * 4 = 0.
  auto big = Tensor::zeros(DType::Int64, {2});
  big->storeInt(0, int64_t(1) << 62);
  big->storeInt(1, 4);
  Tensor r = single(run(graph(1, "cumprod.default", "%x, 0"), {*big}));
  EXPECT_EQ(r.loadInt(r.storageOffset() + 1), 0);
}

// ---- sort ----

TEST(ReductionOps, SortOrdersNaNAndKeepsTies) {
  Tensor x = fromValues({2, 4}, {3, kNaN, 1, 2, -kInf, kNaN, kInf, 2});
  RuntimeValue v = run(graph(1, "sort.default", "%x"), {x});
  EXPECT_EQ(typeOf(part(v, 0)), "f32[2, 4][4, 1]cpu");
  EXPECT_EQ(typeOf(part(v, 1)), "i64[2, 4][4, 1]cpu");
  expectValues(part(v, 0), {1, 2, 3, kNaN, -kInf, 2, kInf, kNaN});
  expectValues(part(v, 1), {2, 3, 0, 1, 0, 3, 2, 1});
  v = run(graph(1, "sort.default", "%x, 1, True"), {x});
  expectValues(part(v, 0), {kNaN, 3, 2, 1, kNaN, kInf, 2, -kInf});
  expectValues(part(v, 1), {1, 0, 3, 2, 1, 2, 3, 0});
  // Equal keys keep their order, descending too (and -0.0 equals 0.0).
  Tensor ties = fromValues({6}, {1, 2, 1, 2, 1, 2});
  v = run(graph(1, "sort.default", "%x, -1, True"), {ties});
  expectValues(part(v, 1), {1, 3, 5, 0, 2, 4});
  v = run(graph(1, "sort.stable", "%x", "{stable: True, dim: 0, descending: True}"), {ties});
  expectValues(part(v, 0), {2, 2, 2, 1, 1, 1});
  expectValues(part(v, 1), {1, 3, 5, 0, 2, 4});
  v = run(graph(1, "sort.default", "%x, 0"), {fromValues({4}, {0.0, -0.0, 0.0, -0.0})});
  expectValues(part(v, 1), {0, 1, 2, 3});
  EXPECT_TRUE(std::signbit(part(v, 0).getDouble(std::vector<int64_t>{1})));
}

TEST(ReductionOps, SortLayoutsAndDtypes) {
  // empty_like: a transposed (dense) input's strides are kept, for both results.
  Tensor t = transposed(fromValues({2, 3}, {3, 1, 1, 2, 5, 0}));
  RuntimeValue v = run(graph(1, "sort.default", "%x, 0"), {t});
  EXPECT_EQ(typeOf(part(v, 0)), "f32[3, 2][1, 3]cpu");
  EXPECT_EQ(typeOf(part(v, 1)), "i64[3, 2][1, 3]cpu");
  expectValues(part(v, 0), {1, 0, 1, 2, 3, 5});
  expectValues(part(v, 1), {1, 2, 2, 0, 0, 1});
  v = run(graph(1, "sort.default", "%x, 1"), {channelsLast(wave({2, 3, 2, 2}))});
  EXPECT_EQ(typeOf(part(v, 0)), "f32[2, 3, 2, 2][12, 1, 6, 3]cpu");
  // An expanded (overlapping) input gets dense strides.
  auto row = fromValues({1, 4}, {4, 1, 3, 2});
  auto expanded = row.asStrided({3, 4}, {0, 1}, 0);
  v = run(graph(1, "sort.default", "%x, 1"), {*expanded});
  EXPECT_EQ(typeOf(part(v, 0)), "f32[3, 4][4, 1]cpu");
  expectValues(part(v, 1), {1, 3, 2, 0, 1, 3, 2, 0, 1, 3, 2, 0});
  // Bools and integers sort exactly; 0-d gives index 0.
  v = run(graph(1, "sort.default", "%x, 1"), {x23(DType::Bool)});
  EXPECT_EQ(typeOf(part(v, 0)), "b8[2, 3][3, 1]cpu");
  expectValues(part(v, 0), {0, 1, 1, 0, 0, 1});
  expectValues(part(v, 1), {1, 0, 2, 0, 1, 2});
  v = run(graph(1, "sort.default", "%x, 1, True"), {x23(DType::Int32)});
  expectValues(part(v, 0), {3, 1, 0, 2, 0, 0});
  expectValues(part(v, 1), {2, 0, 1, 2, 0, 1});
  v = run(graph(1, "sort.default", "%x, 0"), {scalar(2.5)});
  expectValues(part(v, 1), {0});
  expectFailure(graph(1, "sort.default", "%x, 2"), {x23()}, "out of range");
}

// ---- max.dim / min.dim ----

TEST(ReductionOps, MaxMinDim) {
  Tensor nan = fromValues({3, 3}, {1, kNaN, 3, kNaN, 5, kNaN, 2, 2, 2});
  for (const char *op : {"max.dim", "min.dim"}) {
    RuntimeValue v = run(graph(1, op, "%x, 1"), {nan});
    EXPECT_EQ(typeOf(part(v, 0)), "f32[3][1]cpu");
    EXPECT_EQ(typeOf(part(v, 1)), "i64[3][1]cpu");
    expectValues(part(v, 0), {kNaN, kNaN, 2});
    expectValues(part(v, 1), {1, 0, 0});
  }
  // keepdim over a transposed view (rows [1, 0], [0, 0], [3, 2] reduced along dim 0).
  RuntimeValue v = run(graph(1, "max.dim", "%x, 0, True"), {transposed(x23())});
  EXPECT_EQ(typeOf(part(v, 0)), "f32[1, 2][2, 1]cpu");
  expectValues(part(v, 0), {3, 2});
  expectValues(part(v, 1), {2, 2});
  v = run(graph(1, "min.dim", "%x, 0, True"), {transposed(x23())});
  expectValues(part(v, 0), {0, 0});
  expectValues(part(v, 1), {1, 0});
  // Bools and integers; 0-d.
  v = run(graph(1, "max.dim", "%x, 1"), {x23(DType::Bool)});
  EXPECT_EQ(typeOf(part(v, 0)), "b8[2][1]cpu");
  expectValues(part(v, 0), {1, 1});
  expectValues(part(v, 1), {0, 2});
  v = run(graph(1, "min.dim", "%x, 1"), {x23(DType::Int32)});
  EXPECT_EQ(typeOf(part(v, 0)), "i32[2][1]cpu");
  expectValues(part(v, 0), {0, 0});
  expectValues(part(v, 1), {1, 0});
  v = run(graph(1, "max.dim", "%x, 0"), {scalar(2.5)});
  expectValues(part(v, 0), {2.5});
  expectValues(part(v, 1), {0});
  // A reduced size-0 dim has no maximum; other size-0 dims just give empty results.
  auto empty = Tensor::zeros(DType::Float32, {3, 0, 2});
  expectFailure(graph(1, "max.dim", "%x, 1"), {*empty},
                "max(): Expected reduction dim 1 to have non-zero size.");
  auto rows = Tensor::zeros(DType::Float32, {0, 3});
  v = run(graph(1, "min.dim", "%x, 1"), {*rows});
  EXPECT_EQ(typeOf(part(v, 0)), "f32[0][1]cpu");
}

TEST(ReductionOps, MaxMinOfEverything) {
  Tensor r = single(run(graph(1, "max.default", "%x"), {transposed(x23())}));
  EXPECT_EQ(typeOf(r), "f32[][]cpu");
  expectValues(r, {3});
  expectValues(single(run(graph(1, "min.default", "%x"), {x23(DType::Int32)})), {0});
  expectValues(single(run(graph(1, "min.default", "%x"), {fromValues({3}, {1, kNaN, -kInf})})),
               {kNaN});
  EXPECT_EQ(typeOf(single(run(graph(1, "max.default", "%x"), {x23(DType::Bool)}))), "b8[][]cpu");
  auto empty = Tensor::zeros(DType::Float32, {0, 3});
  expectFailure(graph(1, "max.default", "%x"), {*empty},
                "max(): Expected reduction dim to be specified for input.numel() == 0.");
}

// ---- prod ----

TEST(ReductionOps, Prod) {
  Tensor r = single(run(graph(1, "prod.default", "%x"), {fromValues({2, 2}, {1.5, -2, 3, 0.5})}));
  EXPECT_EQ(typeOf(r), "f32[][]cpu");
  expectValues(r, {-4.5});
  r = single(run(graph(1, "prod.default", "%x"), {fromValues({3}, {2, 3, 4}, DType::Int32)}));
  EXPECT_EQ(typeOf(r), "i64[][]cpu");
  expectValues(r, {24});
  r = single(run(graph(1, "prod.default", "%x"), {x23(DType::Bool)}));
  EXPECT_EQ(typeOf(r), "i64[][]cpu");
  expectValues(r, {0});
  r = single(run(graph(1, "prod.default", "%x", "{dtype: torch.float64}"), {x23(DType::Int32)}));
  EXPECT_EQ(typeOf(r), "f64[][]cpu");
  // dim_int with keepdim on a transposed view: rows [1, 0], [0, 0], [3, 2].
  r = single(run(graph(1, "prod.dim_int", "%x, 1, True"), {transposed(x23())}));
  EXPECT_EQ(typeOf(r), "f32[3, 1][1, 1]cpu");
  expectValues(r, {0, 0, 6});
  expectValues(
      single(run(graph(1, "prod.dim_int", "%x, 0"), {wave({3, 4}, 10, 0, DType::Float16)})),
      {0, -65.0625, -284.5, -375.75}, kHalf);
  // The product of nothing is 1; 0-d; int64 wraps.
  auto empty = Tensor::zeros(DType::Float32, {0, 3});
  expectValues(single(run(graph(1, "prod.dim_int", "%x, 0"), {*empty})), {1, 1, 1});
  expectValues(single(run(graph(1, "prod.dim_int", "%x, -1"), {scalar(2.5)})), {2.5});
  auto big = Tensor::zeros(DType::Int64, {2});
  big->storeInt(0, int64_t(1) << 62);
  big->storeInt(1, 4);
  r = single(run(graph(1, "prod.default", "%x"), {*big}));
  EXPECT_EQ(r.loadInt(r.storageOffset()), 0);
}

// ---- var ----

TEST(ReductionOps, Var) {
  Tensor x = wave({3, 4});
  Tensor r = single(run(graph(1, "var.correction", "%x"), {x}));
  EXPECT_EQ(typeOf(r), "f32[][]cpu");
  expectValues(r, {0.359335363}, kTol);
  r = single(run(graph(1, "var.correction", "%x, [0]", "{correction: 0, keepdim: True}"),
                 {transposed(x)}));
  EXPECT_EQ(typeOf(r), "f32[1, 3][3, 1]cpu");
  expectValues(r, {0.113733605, 0.0347576104, 0.135615274}, kTol);
  expectValues(single(run(graph(1, "var.correction", "%x, [1]", "{correction: 2}"), {x})),
               {0.227467209, 0.0695152208, 0.271230549}, kTol);
  expectValues(single(run(graph(1, "var.correction", "%x, [1]", "{correction: 0.5}"), {x})),
               {0.129981264, 0.0397229828, 0.154988885}, kTol);
  expectValues(single(run(graph(1, "var.correction", "%x, []"), {x})), {0.359335363}, kTol);
  r = single(run(graph(1, "var.dim", "%x, [0, 1], False, True"), {x}));
  EXPECT_EQ(typeOf(r), "f32[1, 1][1, 1]cpu");
  expectValues(r, {0.329390734}, kTol);
  expectValues(single(run(graph(1, "var.dim", "%x, None"), {x})), {0.359335363}, kTol);
  r = single(run(graph(1, "var.correction", "%x, [1]"), {wave({3, 4}, 1, 0, DType::Float16)}));
  EXPECT_EQ(typeOf(r), "f16[3][1]cpu");
  expectValues(r, {0.151611328, 0.0464172363, 0.180786133}, kHalf);
  // One element with correction 1, zero elements, 0-d: NaN as in PyTorch.
  expectValues(single(run(graph(1, "var.correction", "%x, [1]"), {wave({3, 1})})),
               {kNaN, kNaN, kNaN});
  auto empty = Tensor::zeros(DType::Float32, {0, 3});
  expectValues(single(run(graph(1, "var.correction", "%x, [0]"), {*empty})), {kNaN, kNaN, kNaN});
  expectValues(single(run(graph(1, "var.correction", "%x"), {scalar(2.5)})), {kNaN});
  expectFailure(graph(1, "var.correction", "%x, [1]"), {x23(DType::Int32)},
                "std and var only support floating point and complex dtypes");
}

// ---- logsumexp ----

TEST(ReductionOps, Logsumexp) {
  Tensor x = fromValues({3, 3}, {1, 2, 3, -kInf, -kInf, -kInf, kInf, 1, 2});
  Tensor r = single(run(graph(1, "logsumexp.default", "%x, [1]"), {x}));
  EXPECT_EQ(typeOf(r), "f32[3][1]cpu");
  expectValues(r, {3.40760589, -kInf, kInf}, kTol);
  r = single(run(graph(1, "logsumexp.default", "%x, [0], True"), {transposed(wave({3, 4}))}));
  EXPECT_EQ(typeOf(r), "f32[1, 3][3, 1]cpu");
  expectValues(r, {1.92385852, 2.22233915, 1.12000239}, kTol);
  // Integers and bools give float32.
  r = single(run(graph(1, "logsumexp.default", "%x, [1]"), {x23(DType::Int32)}));
  EXPECT_EQ(typeOf(r), "f32[2][1]cpu");
  expectValues(r, {3.16984606, 2.23954463}, kTol);
  expectValues(single(run(graph(1, "logsumexp.default", "%x, [1]"), {x23(DType::Bool)})),
               {1.86199474, 1.55144471}, kTol); // log(2e + 1), log(2 + e)
  expectValues(
      single(run(graph(1, "logsumexp.default", "%x, [1]"), {wave({3, 4}, 5, 0, DType::Float16)})),
      {4.8203125, 5.8125, 1.08105469}, kHalf);
  // Zero elements give -inf; NaN propagates.
  auto empty = Tensor::zeros(DType::Float32, {0, 3});
  expectValues(single(run(graph(1, "logsumexp.default", "%x, [0]"), {*empty})),
               {-kInf, -kInf, -kInf});
  expectValues(
      single(run(graph(1, "logsumexp.default", "%x, [0]"), {fromValues({3}, {1, kNaN, kInf})})),
      {kNaN});
  expectFailure(graph(1, "logsumexp.default", "%x, []"), {x}, "empty dim list");
}

// ---- softmax ----

TEST(ReductionOps, Softmax) {
  Tensor x = fromValues({3, 3}, {1, 2, 3, -kInf, -kInf, -kInf, kInf, 1, 2});
  // A row of -inf or one holding +inf gives NaN, as in PyTorch.
  expectValues(single(run(graph(1, "_softmax.default", "%x, 1, False"), {x})),
               {0.0900305733, 0.244728476, 0.665240943, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN}, kTol);
  expectValues(single(run(graph(1, "_log_softmax.default", "%x, 1, False"), {x})),
               {-2.40760589, -1.40760589, -0.407605946, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN}, kTol);
  // A transposed input gives a contiguous result.
  Tensor t = transposed(wave({3, 4}));
  Tensor r = single(run(graph(1, "_softmax.default", "%x, 0, False"), {t}));
  EXPECT_EQ(typeOf(r), "f32[4, 3][3, 1]cpu");
  expectValues(r,
               {0.146042377, 0.293329686, 0.390859872, 0.209665254, 0.283352464, 0.27055034,
                0.286627859, 0.2403225, 0.192080915, 0.357664526, 0.182995319, 0.146508887},
               kTol);
  expectValues(single(run(graph(1, "_log_softmax.default", "%x, 0, False"), {t})),
               {-1.92385852, -1.22645819, -0.939406157, -1.5622431, -1.26106381, -1.30729711,
                -1.24957061, -1.42577362, -1.64983857, -1.02815986, -1.69829464, -1.9206692},
               kTol);
  r = single(run(graph(1, "_softmax.default", "%x, 1, False"), {channelsLast(wave({2, 3, 2, 2}))}));
  EXPECT_EQ(typeOf(r), "f32[2, 3, 2, 2][12, 4, 2, 1]cpu");
  // float16 in, float16 out; half_to_float gives float32 (PyTorch CUDA: these values).
  Tensor h = wave({3, 4}, 3, 0, DType::Float16);
  expectValues(single(run(graph(1, "_softmax.default", "%x, 1, False"), {h})),
               {0.0381469727, 0.112854004, 0.288574219, 0.560546875, 0.37109375, 0.334716797,
                0.204101562, 0.0900878906, 0.665527344, 0.220581055, 0.078918457, 0.0350341797},
               kHalf);
  r = single(
      run(graph(1, "_softmax.default", "%x, 1, True"), {wave({3, 4}, 1, 0, DType::Float16)}));
  EXPECT_EQ(typeOf(r), "f32[3, 4][4, 1]cpu");
  expectValues(r,
               {0.146052465, 0.209670693, 0.286655843, 0.357620984, 0.29338026, 0.283383667,
                0.24026984, 0.182966247, 0.390845597, 0.270565629, 0.192094103, 0.146494716},
               1e-6);
  // 0-d and empty inputs.
  expectValues(single(run(graph(1, "_softmax.default", "%x, 0, False"), {scalar(2.5)})), {1});
  expectValues(single(run(graph(1, "_log_softmax.default", "%x, -1, False"), {scalar(2.5)})), {0});
  auto empty = Tensor::zeros(DType::Float32, {0, 3});
  EXPECT_EQ(typeOf(single(run(graph(1, "_softmax.default", "%x, 1, False"), {*empty}))),
            "f32[0, 3][3, 1]cpu");
}

TEST(ReductionOps, SoftmaxErrors) {
  expectFailure(graph(1, "_softmax.default", "%x, 1, True"), {wave({3, 4})},
                "half_to_float is True but x.dtype is float32, expected half or bfloat16");
  expectFailure(graph(1, "_log_softmax.default", "%x, 1, True"),
                {wave({3, 4}, 1, 0, DType::BFloat16)},
                "half_to_float is True but x.dtype is bfloat16, expected half");
  EXPECT_EQ(inferred({"bf16[3, 4][4, 1]cuda:0"}, "_softmax.default", "%x, 1, True"),
            "f32[3, 4][4, 1]cuda:0");
  // The meta function lets integers through; the kernel refuses them as eager does.
  EXPECT_EQ(inferred({"i32[2, 3][3, 1]cpu"}, "_softmax.default", "%x, 1, False"),
            "i32[2, 3][3, 1]cpu");
  expectFailure(graph(1, "_softmax.default", "%x, 1, False"), {x23(DType::Int32)},
                "softmax is not implemented for int32");
  expectFailure(graph(1, "_log_softmax.default", "%x, 2, False"), {x23()}, "out of range");
}

TEST(ReductionOps, SoftmaxBackward) {
  Tensor g = wave({3, 4}, 1, 1);
  Tensor y = single(run(graph(1, "_softmax.default", "%x, 1, False"), {wave({3, 4}, 1, 2)}));
  Tensor r =
      single(run(graph(2, "_softmax_backward_data.default", "%x, %y, 1, torch.float32"), {g, y}));
  EXPECT_EQ(typeOf(r), "f32[3, 4][4, 1]cpu");
  std::vector<double> expected{-0.0257510711, 0.0188788641,   0.0151236886,  -0.00825158413,
                               0.148138478,   0.0234599914,   -0.0562407188, -0.115357757,
                               0.0319333263,  -0.00237347791, -0.0219344441, -0.00762536749};
  expectValues(r, expected, 1e-4);
  // Transposed operands: the softmax gradient is contiguous.
  r = single(run(graph(2, "_softmax_backward_data.default", "%x, %y, 0, torch.float32"),
                 {transposed(g), transposed(y)}));
  EXPECT_EQ(typeOf(r), "f32[4, 3][3, 1]cpu");
  // input_dtype float16 casts the result (PyTorch CUDA: float16 values of the same gradient).
  r = single(run(graph(2, "_softmax_backward_data.default", "%x, %y, 1, torch.float16"), {g, y}));
  EXPECT_EQ(typeOf(r), "f16[3, 4][4, 1]cpu");
  expectValues(r, expected, kHalf);

  Tensor ly = single(run(graph(1, "_log_softmax.default", "%x, 1, False"), {wave({3, 4}, 1, 2)}));
  r = single(
      run(graph(2, "_log_softmax_backward_data.default", "%x, %y, 1, torch.float32"), {g, ly}));
  expectValues(r,
               {-0.458182991, -0.0714455172, 0.211820677, 0.317807674, 0.476132929, 0.186957568,
                -0.158147514, -0.504942954, -0.112529859, -0.207264036, -0.0611814223, 0.380975783},
               1e-4);
  // Its decomposition is pointwise: transposed operands keep their layout (FakeTensor: [1, 4]).
  r = single(run(graph(2, "_log_softmax_backward_data.default", "%x, %y, 0, torch.float32"),
                 {transposed(g), transposed(ly)}));
  EXPECT_EQ(typeOf(r), "f32[4, 3][1, 4]cpu");
  expectValues(r,
               {-0.45818311, 0.476132929, -0.112529859, -0.0714455172, 0.186957568, -0.207264096,
                0.211820677, -0.158147514, -0.0611814223, 0.317807674, -0.504942954, 0.380975783},
               1e-4);
  expectFailure(graph(2, "_softmax_backward_data.default", "%x, %y, 1, torch.float32"),
                {g, wave({3, 3})},
                "Expected tensor for argument #1 'grad' to have same size as tensor for "
                "argument #2 'output'; but [3, 4] does not equal [3, 3]");
}

// ---- Layer norm ----

namespace {

/// The inputs of the layer-norm reference run.
Tensor lnInput() { return wave({2, 3, 4}, 2); }
Tensor lnGrad() { return wave({2, 3, 4}, 1, 0.3); }
Tensor w4() { return wave({4}, 1, 0.5); }
Tensor b4() { return wave({4}, 1, 1.5); }

const std::string kLayerNorm = "native_layer_norm.default";
const std::string kLayerNormBw = "native_layer_norm_backward.default";

} // namespace

TEST(ReductionOps, LayerNorm) {
  RuntimeValue v = run(graph(3, kLayerNorm, "%x, [4], %y, %z, 1e-05"), {lnInput(), w4(), b4()});
  EXPECT_EQ(typeOf(part(v, 0)), "f32[2, 3, 4][12, 4, 1]cpu");
  EXPECT_EQ(typeOf(part(v, 1)), "f32[2, 3, 1][3, 1, 1]cpu");
  EXPECT_EQ(typeOf(part(v, 2)), "f32[2, 3, 1][3, 1, 1]cpu");
  expectValues(part(v, 0),
               {0.311012238, 0.680694461, 1.32104623,  1.72998655, 1.45120275,  1.53703105,
                0.668269753, -1.07627892, 1.66781616,  1.26068127, 0.282135427, -0.758514583,
                0.684560657, 0.263825923, 0.690799952, 2.16227531, 0.342030376, 0.624520481,
                1.25584149,  1.80766559,  0.916567445, 1.79400074, 1.36750722,  -1.03667533},
               kTol);
  expectValues(part(v, 1),
               {0.965801001, 1.63888288, -0.668600678, -1.76012921, 0.349413097, 1.82349288}, kTol);
  expectValues(part(v, 2), {1.48258913, 2.68181896, 1.35772467, 3.92895412, 1.28989661, 6.47325993},
               kTol);
  // Two normalised dims.
  v = run(graph(3, kLayerNorm, "%x, [3, 4], %y, %z, 1e-05"),
          {lnInput(), wave({3, 4}, 1, 0.5), wave({3, 4}, 1, 1.5)});
  EXPECT_EQ(typeOf(part(v, 1)), "f32[2, 1, 1][1, 1, 1]cpu");
  expectValues(part(v, 1), {0.645361125, 0.137592226}, kTol);
  expectValues(part(v, 2), {0.871189594, 0.646479189}, kTol);
  expectValues(part(v, 0),
               {0.727946639,  1.00742304,    1.36373472,   1.50455451,   1.23701763,   0.58473593,
                -0.208808154, -0.794394732,  -0.890817404, -0.428576052, 0.411190271,  1.2832427,
                0.357826829,  -0.0959572718, -0.391394585, -0.446609735, -0.342121273, -0.263919055,
                -0.388404101, -0.771780849,  -1.30423903,  -1.75511277,  -1.8870579,   -1.58040226},
               kTol);
  // No weight or bias; a transposed input (the result is contiguous).
  v = run(graph(1, kLayerNorm, "%x, [4], None, None, 1e-05"), {lnInput()});
  expectValues(part(v, 0),
               {-1.43188608,  -0.359631896, 0.56749779,    1.22402012,  0.946357071,  0.760745049,
                -0.122698389, -1.58440316,  1.39817572,    0.399186462, -0.530967474, -1.2663945,
                -0.652727723, -0.905036509, -0.0988766626, 1.65664136,  -1.3671875,   -0.43312639,
                0.498555273,  1.30175889,   -0.168801099,  1.09694815,  0.61662209,   -1.54476917},
               kTol);
  v = run(graph(3, kLayerNorm, "%x, [3], %y, %z, 1e-05"),
          {transposed(lnInput()), wave({3}), wave({3}, 1, 1)});
  EXPECT_EQ(typeOf(part(v, 0)), "f32[2, 4, 3][12, 3, 1]cpu");
  expectValues(part(v, 1),
               {0.784318089, 0.757063985, 0.627344787, 0.412717462, -0.279784203, 0.00536698103,
                0.289791763, 0.534994662},
               kTol);
  // Zero rows.
  auto empty = Tensor::zeros(DType::Float32, {0, 4});
  v = run(graph(1, kLayerNorm, "%x, [4], None, None, 1e-05"), {*empty});
  EXPECT_EQ(typeOf(part(v, 1)), "f32[0, 1][1, 1]cpu");
}

TEST(ReductionOps, LayerNormDtypesAndErrors) {
  // float16: the statistics stay float16 on CPU, float32 elsewhere (torch._refs).
  EXPECT_EQ(inferred({"f16[s0, 3, 4][12, 4, 1]cpu", "f16[4][1]cpu"}, kLayerNorm,
                     "%x, [4], %y, None, 1e-05"),
            "f16[s0, 3, 4][12, 4, 1]cpu | f16[s0, 3, 1][3, 1, 1]cpu | f16[s0, 3, 1][3, 1, 1]cpu");
  EXPECT_EQ(
      inferred({"bf16[2, s0, 4][4*s0, 4, 1]cuda:0"}, kLayerNorm, "%x, [4], None, None, 1e-05"),
      "bf16[2, s0, 4][4*s0, 4, 1]cuda:0 | f32[2, s0, 1][s0, 1, 1]cuda:0 | "
      "f32[2, s0, 1][s0, 1, 1]cuda:0");
  auto half = [](const Tensor &t) { return *t.to(DType::Float16); };
  RuntimeValue v = run(graph(3, kLayerNorm, "%x, [4], %y, %z, 1e-05"),
                       {half(lnInput()), half(w4()), half(b4())});
  EXPECT_EQ(typeOf(part(v, 1)), "f16[2, 3, 1][3, 1, 1]cpu");
  expectValues(part(v, 0),
               {0.311035156, 0.680664062, 1.32128906,  1.72949219, 1.45117188,  1.53710938,
                0.666992188, -1.07519531, 1.66796875,  1.26074219, 0.282226562, -0.758300781,
                0.685058594, 0.263427734, 0.690429688, 2.16210938, 0.342041016, 0.624511719,
                1.25585938,  1.80761719,  0.917480469, 1.79394531, 1.3671875,   -1.03710938},
               kHalf);
  expectValues(part(v, 1),
               {0.965820312, 1.63867188, -0.668457031, -1.75976562, 0.349365234, 1.82421875},
               kHalf);
  expectValues(part(v, 2), {1.48242188, 2.6796875, 1.35742188, 3.93359375, 1.29003906, 6.47265625},
               kHalf);
  expectFailure(graph(2, kLayerNorm, "%x, [4], %y, None, 1e-05"), {lnInput(), wave({3})},
                "Expected weight to be of same shape as normalized_shape, but got weight of "
                "shape [3] and normalized_shape = [4]");
  expectFailure(graph(1, kLayerNorm, "%x, [3], None, None, 1e-05"), {lnInput()},
                "Given normalized_shape=[3], expected input with shape [*, 3], but got input "
                "of size[2, 3, 4]");
  expectFailure(graph(1, kLayerNorm, "%x, [], None, None, 1e-05"), {lnInput()},
                "Expected normalized_shape to be at least 1-dimensional");
  expectFailure(graph(1, kLayerNorm, "%x, [3], None, None, 1e-05"), {x23(DType::Int32)},
                "Input dtype must be either a floating point or complex dtype. Got: int32");
}

TEST(ReductionOps, LayerNormBackward) {
  RuntimeValue fw = run(graph(3, kLayerNorm, "%x, [4], %y, %z, 1e-05"), {lnInput(), w4(), b4()});
  std::vector<Tensor> in{lnGrad(), lnInput(), part(fw, 1), part(fw, 2), w4(), b4()};
  std::string all = graph(6, kLayerNormBw, "%x, %y, [4], %z, %w, %u, %v, [True, True, True]");
  RuntimeValue v = run(all, in);
  EXPECT_EQ(typeOf(part(v, 0)), "f32[2, 3, 4][12, 4, 1]cpu");
  EXPECT_EQ(typeOf(part(v, 1)), "f32[4][1]cpu");
  std::vector<double> dInput{
      0.00186023116, -0.0198120326, 0.0401999056,  -0.022247985, -0.319036782,  0.197063416,
      0.236265421,   -0.11429213,   -0.0140329897, 0.0335872769, -0.0251783133, 0.00562387705,
      0.567558646,   -0.238208428,  -0.39913404,   0.0697840005, 0.0271659493,  -0.046558857,
      0.0102593601,  0.00913324952, -1.02462912,   0.0560586452, 0.584200025,   0.384371042};
  expectValues(part(v, 0), dInput, 1e-4);
  expectValues(part(v, 1), {0.909407854, 2.00110626, 1.71693754, 1.5474062}, 1e-4);
  expectValues(part(v, 2), {1.0809921, 1.34545827, 1.42782307, 1.31693864}, 1e-4);
  // Masked results and a missing weight/bias are None.
  v = run(graph(6, kLayerNormBw, "%x, %y, [4], %z, %w, %u, %v, [True, False, False]"), in);
  expectValues(part(v, 0), dInput, 1e-4);
  EXPECT_FALSE((*v.tensors())[1]);
  EXPECT_FALSE((*v.tensors())[2]);
  v = run(graph(6, kLayerNormBw, "%x, %y, [4], %z, %w, %u, %v, [False, True, True]"), in);
  EXPECT_FALSE((*v.tensors())[0]);
  expectValues(part(v, 2), {1.0809921, 1.34545827, 1.42782307, 1.31693864}, 1e-4);
  EXPECT_EQ(inferred({"f32[2, 3, 4][12, 4, 1]cpu", "f32[2, 3, 1][3, 1, 1]cpu"}, kLayerNormBw,
                     "%x, %x, [4], %y, %y, None, None, [True, True, True]"),
            "f32[2, 3, 4][12, 4, 1]cpu | None | None");
  // Transposed operands: grad_input keeps their layout (FakeTensor's), the sums are contiguous.
  RuntimeValue tfw = run(graph(3, kLayerNorm, "%x, [3], %y, %z, 1e-05"),
                         {transposed(lnInput()), wave({3}), wave({3}, 1, 1)});
  v = run(graph(6, kLayerNormBw, "%x, %y, [3], %z, %w, %u, %v, [True, True, True]"),
          {transposed(lnGrad()), transposed(lnInput()), part(tfw, 1), part(tfw, 2), wave({3}),
           wave({3}, 1, 1)});
  EXPECT_EQ(typeOf(part(v, 0)), "f32[2, 4, 3][12, 1, 4]cpu");
  expectValues(part(v, 0),
               {0.079776898,    0.0176759586,  -0.0974528044, 0.0145961493,  -0.00697186589,
                -0.00762429833, -0.0656951368, 0.0596411526,  0.00605396926, -0.0741363466,
                0.0949372351,   -0.0208008587, 0.0669278949,  -0.0993737206, 0.032445848,
                0.0452479124,   -0.0910639614, 0.0458160639,  0.0205890089,  -0.0644771084,
                0.043888092,    0.00143353641, -0.0185358375, 0.0171022713},
               1e-4);
  expectValues(part(v, 1), {4.91620922, 3.71832943, 6.84542274}, 1e-4);
  expectValues(part(v, 2), {-0.294932574, 4.37739992, 1.08874464}, 1e-4);
  // float16: a contiguous copy in float32 is computed, so grad_input is contiguous.
  EXPECT_EQ(inferred({"f16[4, 3][1, 4]cpu", "f16[4, 1][1, 1]cpu", "f16[3][1]cpu"}, kLayerNormBw,
                     "%x, %x, [3], %y, %y, %z, %z, [True, True, True]"),
            "f16[4, 3][3, 1]cpu | f16[3][1]cpu | f16[3][1]cpu");
}

// ---- Group norm ----

namespace {
const std::string kGroupNorm = "native_group_norm.default";
const std::string kGroupNormBw = "native_group_norm_backward.default";
} // namespace

TEST(ReductionOps, GroupNorm) {
  Tensor x = wave({2, 4, 3}, 2);
  RuntimeValue v = run(graph(3, kGroupNorm, "%x, %y, %z, 2, 4, 3, 2, 1e-05"), {x, w4(), b4()});
  EXPECT_EQ(typeOf(part(v, 0)), "f32[2, 4, 3][12, 3, 1]cpu");
  EXPECT_EQ(typeOf(part(v, 1)), "f32[2, 2][2, 1]cpu");
  expectValues(part(v, 0),
               {0.137420952, 0.617290437, 1.0322119,   1.47933781,  1.69128406,   1.61807215,
                2.12824941,  1.67005324,  1.09260595,  0.179120347, -0.429348886, -0.910435617,
                0.578104436, 0.535804272, 0.670958817, 0.904205203, 1.56366193,   2.32410359,
                -1.05255198, 0.327462167, 1.29995477,  1.50952291,  1.33578277,   0.553979635},
               kTol);
  expectValues(part(v, 1), {1.29625261, -0.00553047657, -1.2895658, 1.56475031}, kTol);
  expectValues(part(v, 2), {1.38396478, 0.888851702, 1.37393212, 2.3432622}, kTol);
  v = run(graph(1, kGroupNorm, "%x, None, None, 2, 4, 3, 2, 1e-05"), {x});
  expectValues(part(v, 0),
               {-1.79396796,  -0.793041945, 0.0724134967, 0.685262859,   0.962560058,  0.866774142,
                1.42097294,   0.936511159,  0.325962365,  -0.328038573,  -0.936975718, -1.41843235,
                -0.874777198, -0.963008106, -0.681098759, -0.0672044531, 0.795587361,  1.79050159,
                -1.9421643,   -0.483042389, 0.545197189,  1.00338709,    0.829513371,  0.04710906},
               kTol);
  // Channels-last input: the result keeps the layout.
  v = run(graph(3, kGroupNorm, "%x, %y, %z, 2, 4, 4, 4, 1e-05"),
          {channelsLast(wave({2, 4, 2, 2})), w4(), b4()});
  EXPECT_EQ(typeOf(part(v, 0)), "f32[2, 4, 2, 2][16, 1, 8, 4]cpu");
  expectValues(part(v, 1),
               {0.4829005, 0.819441438, -0.334300339, -0.880064607, 0.174706563, 0.911746502,
                -0.00936750323, -0.913445175},
               kTol);
  expectValues(part(v, 2),
               {2.9650805, 5.36305857, 2.71537423, 7.85610819, 2.57972884, 12.9384794, 2.53390408,
                13.5895538},
               1e-4);
  EXPECT_EQ(inferred({"f16[s0, 4, 3][12, 3, 1]cuda:0"}, kGroupNorm,
                     "%x, None, None, %s0, 4, 3, 2, 1e-05"),
            "f16[s0, 4, 3][12, 3, 1]cuda:0 | f16[s0, 2][2, 1]cuda:0 | f16[s0, 2][2, 1]cuda:0");
  expectFailure(graph(1, kGroupNorm, "%x, None, None, 2, 4, 3, 3, 1e-05"), {x},
                "Expected number of channels in input to be divisible by num_groups, but got "
                "input of shape [2, 4, 3] and num_groups=3");
  expectFailure(graph(2, kGroupNorm, "%x, %y, None, 2, 4, 3, 2, 1e-05"), {x, wave({3})},
                "Expected weight to be a vector of size equal to the number of channels");
  expectFailure(graph(1, kGroupNorm, "%x, None, None, 2, 4, 1, 2, 1e-05"), {x},
                "group norm of an input of size [2, 4, 3]");
}

TEST(ReductionOps, GroupNormBackward) {
  Tensor x = wave({2, 4, 3}, 2), g = wave({2, 4, 3}, 1, 0.3);
  RuntimeValue fw = run(graph(3, kGroupNorm, "%x, %y, %z, 2, 4, 3, 2, 1e-05"), {x, w4(), b4()});
  std::vector<Tensor> in{g, x, part(fw, 1), part(fw, 2), w4()};
  RuntimeValue v =
      run(graph(5, kGroupNormBw, "%x, %y, %z, %w, %u, 2, 4, 3, 2, [True, True, True]"), in);
  EXPECT_EQ(typeOf(part(v, 0)), "f32[2, 4, 3][12, 3, 1]cpu");
  EXPECT_EQ(typeOf(part(v, 1)), "f32[4][1]cpu");
  expectValues(part(v, 0),
               {0.0560117513,  -0.0352859199, -0.140765429,   0.143059433,   0.0485214144,
                -0.0715413615, 0.0444772542,  -0.00869867206, -0.0310975015, -0.0419788808,
                -0.0119667947, 0.0492648035,  -0.0410950631,  0.039868027,   0.077894479,
                -0.0964740813, -0.0136584938, 0.0334650278,   0.041543901,   0.195950925,
                0.201805651,   0.180646598,   -0.110753119,   -0.509194255},
               1e-4);
  expectValues(part(v, 1), {1.29225385, 2.86214638, -0.0737789497, 3.89747405}, 1e-4);
  expectValues(part(v, 2), {-0.862268686, 2.6213119, 3.19346189, 0.218707323}, 1e-4);
  // Without gamma the results are those of a gamma of ones, and still all three (the meta's).
  RuntimeValue none =
      run(graph(4, kGroupNormBw, "%x, %y, %z, %w, None, 2, 4, 3, 2, [True, True, True]"),
          {g, x, part(fw, 1), part(fw, 2)});
  RuntimeValue ones =
      run(graph(5, kGroupNormBw, "%x, %y, %z, %w, %u, 2, 4, 3, 2, [True, True, True]"),
          {g, x, part(fw, 1), part(fw, 2), fromValues({4}, {1, 1, 1, 1})});
  for (size_t i = 0; i < 3; ++i)
    expectValues(part(none, i), flat(part(ones, i)), 1e-12);
  v = run(graph(5, kGroupNormBw, "%x, %y, %z, %w, %u, 2, 4, 3, 2, [True, False, False]"), in);
  EXPECT_FALSE((*v.tensors())[1]);
  // Channels-last operands keep their layout.
  Tensor xc = channelsLast(wave({2, 4, 2, 2})), gc = channelsLast(wave({2, 4, 2, 2}, 1, 0.3));
  RuntimeValue cfw = run(graph(3, kGroupNorm, "%x, %y, %z, 2, 4, 4, 2, 1e-05"), {xc, w4(), b4()});
  v = run(graph(5, kGroupNormBw, "%x, %y, %z, %w, %u, 2, 4, 4, 2, [True, True, True]"),
          {gc, xc, part(cfw, 1), part(cfw, 2), w4()});
  EXPECT_EQ(typeOf(part(v, 0)), "f32[2, 4, 2, 2][16, 1, 8, 4]cpu");
  expectValues(part(v, 0),
               {0.234089315,   0.111132145,  -0.0550576597, -0.24198696,   0.445830733,
                0.167008936,   -0.162608087, -0.498408258,  0.0658195615,  -0.169850886,
                -0.293396115,  -0.28809464,  -0.292439103,  -0.0382393599, 0.310272634,
                0.705927491,   0.0745645761, 0.0253433287,  -0.0651598424, -0.18469575,
                0.291606009,   0.157252073,  -0.0362369567, -0.262673438,  0.141563475,
                -0.0265674889, -0.131764501, -0.159789592,  -0.201395124,  -0.0801812708,
                0.111222953,   0.346911907},
               1e-4);
  expectValues(part(v, 1), {-0.556592643, 4.80578756, -0.265164316, 5.47876596}, 1e-4);
  expectValues(part(v, 2), {4.49703789, 6.02122593, -3.40512919, -6.63872337}, 1e-4);
}

// ---- Batch norm ----

namespace {

const std::string kBatchNorm = "_native_batch_norm_legit.default";
const std::string kBatchNormBw = "native_batch_norm_backward.default";

Tensor bnInput() { return wave({2, 3, 2, 2}, 2); }
Tensor bnGrad() { return wave({2, 3, 2, 2}, 1, 0.3); }
Tensor w3() { return wave({3}, 1, 0.5); }
Tensor b3() { return wave({3}, 1, 1.5); }
Tensor runningMean() { return wave({3}, 0.3, 2.5); }
/// |sin(0.37 i + 3.5)| + 0.5 in float32 arithmetic, as the reference run made it.
Tensor runningVar() {
  std::vector<double> v;
  for (int i = 0; i < 3; ++i)
    v.push_back(std::fabs(static_cast<float>(std::sin(i * 0.37 + 3.5))) + 0.5f);
  return fromValues({3}, v);
}

const std::vector<double> kBnTrainOut{
    1.12834561,  1.36662292,  1.57265043,  1.71854353,  1.81579328,   1.75611389,
    1.47206223,  1.00208342,  0.633362651, 0.119758777, -0.35845533,  -0.736555696,
    0.493714958, 0.472557604, 0.540158093, 0.687367022, -0.514317453, 0.110090412,
    0.732907712, 1.26983905,  1.63590181,  1.77239275,  1.72059715,   1.48752546};
const std::vector<double> kBnEvalOut{
    0.904175103,   1.28008699,  1.60512102,   1.83528531,  2.30861926,    2.25962281,
    2.02641773,    1.64056778,  1.09765482,   0.507512867, -0.0419653952, -0.476410836,
    -0.0970332772, -0.13041161, -0.023763448, 0.208476797, 0.39561069,    0.908246279,
    1.41957593,    1.86039364,  2.24959373,   2.40642476,  2.34691048,    2.07910609};

} // namespace

TEST(ReductionOps, BatchNormTrainingUpdatesRunningStats) {
  Tensor mean = runningMean(), var = runningVar();
  RuntimeValue v = run(graph(5, kBatchNorm, "%x, %y, %z, %w, %u, True, 0.1, 1e-05"),
                       {bnInput(), w3(), b3(), mean, var});
  EXPECT_EQ(typeOf(part(v, 0)), "f32[2, 3, 2, 2][12, 4, 2, 1]cpu");
  EXPECT_EQ(typeOf(part(v, 1)), "f32[3][1]cpu");
  expectValues(part(v, 0), kBnTrainOut, kTol);
  expectValues(part(v, 1), {-0.397164106, 0.994148016, 0.577446103}, kTol);
  expectValues(part(v, 2), {0.687202215, 1.12815225, 0.738052547}, kTol);
  // In place, as Tensor(a!) says: momentum * batch + (1 - momentum) * running (unbiased var).
  expectValues(mean, {0.121871069, 0.171846628, 0.0312174913}, kTol);
  expectValues(var, {1.00770783, 1.13890851, 1.46124005}, kTol);
  // Channels-last input keeps its layout; the values are the same.
  v = run(graph(5, kBatchNorm, "%x, %y, %z, %w, %u, True, 0.1, 1e-05"),
          {channelsLast(bnInput()), w3(), b3(), runningMean(), runningVar()});
  EXPECT_EQ(typeOf(part(v, 0)), "f32[2, 3, 2, 2][12, 1, 6, 3]cpu");
  expectValues(part(v, 0), kBnTrainOut, kTol);
  // .no_stats: the same statistics without running ones.
  v = run(graph(3, "_native_batch_norm_legit.no_stats", "%x, %y, %z, True, 0.1, 1e-05"),
          {bnInput(), w3(), b3()});
  expectValues(part(v, 0), kBnTrainOut, kTol);
  expectValues(part(v, 2), {0.687202215, 1.12815225, 0.738052547}, kTol);
  // One element per channel: the unbiased running variance is NaN (0 / 0), as in eager.
  mean = runningMean();
  var = runningVar();
  v = run(graph(3, kBatchNorm, "%x, None, None, %y, %z, True, 0.1, 1e-05"),
          {wave({1, 3}), mean, var});
  expectValues(part(v, 0), {0, 0, 0}, kTol);
  expectValues(part(v, 2), {316.227753, 316.227753, 316.227753}, kTol);
  expectValues(mean, {0.161587477, 0.108593374, 0.0409016684}, kTol);
  expectValues(var, {kNaN, kNaN, kNaN});
  // A 2-d input (N, C).
  v = run(graph(3, kBatchNorm, "%x, None, None, %y, %z, True, 0.2, 1e-05"),
          {wave({4, 3}), runningMean(), runningVar()});
  expectValues(part(v, 1), {0.37624234, 0.33792609, 0.25387314}, kTol);
  expectValues(part(v, 2), {2.10156536, 1.80985701, 1.49294055}, kTol);
}

TEST(ReductionOps, BatchNormFunctionalReturnsRunningStats) {
  const std::string op = "_native_batch_norm_legit_functional.default";
  Tensor mean = runningMean(), var = runningVar();
  RuntimeValue v =
      run(graph(5, op, "%x, %y, %z, %w, %u, True, 0.1, 1e-05"), {bnInput(), w3(), b3(), mean, var});
  ASSERT_EQ(v.tensors()->size(), 5u);
  expectValues(part(v, 0), kBnTrainOut, kTol);
  expectValues(part(v, 3), {0.121871069, 0.171846628, 0.0312174913}, kTol);
  expectValues(part(v, 4), {1.00770783, 1.13890851, 1.46124005}, kTol);
  expectValues(mean, flat(runningMean())); // functional: the inputs are left alone
  expectValues(var, flat(runningVar()));
  // Evaluation returns the running statistics (copies in the computation dtype).
  v = run(graph(5, op, "%x, %y, %z, %w, %u, False, 0.1, 1e-05"),
          {bnInput(), w3(), b3(), mean, var});
  expectValues(part(v, 0), kBnEvalOut, kTol);
  expectValues(part(v, 3), flat(runningMean()));
  EXPECT_EQ(inferred({"f16[s0, 3, 2, 2][12, 1, 6, 3]cpu", "f32[3][1]cpu"}, op,
                     "%x, None, None, %y, %y, True, 0.1, 1e-05"),
            "f16[s0, 3, 2, 2][12, 1, 6, 3]cpu | f16[3][1]cpu | f16[3][1]cpu | f32[3][1]cpu | "
            "f32[3][1]cpu");
}

TEST(ReductionOps, BatchNormEvaluation) {
  Tensor mean = runningMean(), var = runningVar();
  RuntimeValue v = run(graph(5, kBatchNorm, "%x, %y, %z, %w, %u, False, 0.1, 1e-05"),
                       {bnInput(), w3(), b3(), mean, var});
  // CPU: empty saved statistics, running statistics untouched.
  EXPECT_EQ(typeOf(part(v, 1)), "f32[0][1]cpu");
  expectValues(part(v, 0), kBnEvalOut, kTol);
  expectValues(mean, flat(runningMean()));
  v = run(
      graph(5, "_native_batch_norm_legit_no_training.default", "%x, %y, %z, %w, %u, 0.1, 1e-05"),
      {channelsLast(bnInput()), w3(), b3(), runningMean(), runningVar()});
  EXPECT_EQ(typeOf(part(v, 0)), "f32[2, 3, 2, 2][12, 1, 6, 3]cpu");
  expectValues(part(v, 0), kBnEvalOut, kTol);
  // Elsewhere the saved statistics are the running ones, in the computation dtype.
  EXPECT_EQ(inferred({"f16[s0, 3, 2, 2][12, 4, 2, 1]cuda:0", "f32[3][1]cuda:0"}, kBatchNorm,
                     "%x, %y, %y, %y, %y, False, 0.1, 1e-05"),
            "f16[s0, 3, 2, 2][12, 4, 2, 1]cuda:0 | f32[3][1]cuda:0 | f32[3][1]cuda:0");
  EXPECT_EQ(inferred({"f16[s0, 3, 2, 2][12, 4, 2, 1]cpu", "f32[3][1]cpu"}, kBatchNorm,
                     "%x, %y, %y, %y, %y, True, 0.1, 1e-05"),
            "f16[s0, 3, 2, 2][12, 4, 2, 1]cpu | f16[3][1]cpu | f16[3][1]cpu");
}

TEST(ReductionOps, BatchNormErrors) {
  expectFailure(graph(3, kBatchNorm, "%x, None, None, %y, %z, True, 0.1, 1e-05"),
                {wave({3}), runningMean(), runningVar()},
                "batch norm expects an input of at least 2 dimensions");
  expectFailure(graph(4, kBatchNorm, "%x, %y, None, %z, %w, True, 0.1, 1e-05"),
                {bnInput(), w4(), runningMean(), runningVar()},
                "Expected weight to be a vector of size equal to the number of channels");
  expectFailure(graph(1, "_native_batch_norm_legit.no_stats", "%x, None, None, False, 0.1, 1e-05"),
                {bnInput()}, "running_mean and running_var must not be None in eval mode");
}

TEST(ReductionOps, BatchNormBackward) {
  RuntimeValue fw = run(graph(5, kBatchNorm, "%x, %y, %z, %w, %u, True, 0.1, 1e-05"),
                        {bnInput(), w3(), b3(), runningMean(), runningVar()});
  std::vector<Tensor> in{bnGrad(),     bnInput(),   w3(),       runningMean(),
                         runningVar(), part(fw, 1), part(fw, 2)};
  std::vector<double> dWeight{6.09583187, 2.34701419, 5.94150543},
      dBias{-0.294932604, 4.3774004, 1.08874464};
  RuntimeValue v = run(graph(7, kBatchNormBw,
                             "%x, %y, %z, %w, %u, %v, %t, True, 1e-05, "
                             "[True, True, True]"),
                       in);
  EXPECT_EQ(typeOf(part(v, 0)), "f32[2, 3, 2, 2][12, 4, 2, 1]cpu");
  std::vector<double> dInput{
      0.0409911461,  0.0234498382,  -0.00489492435, -0.0402068011, 0.0869503021,  -0.0151355825,
      -0.140630856,  -0.272550315,  -0.0947140679,  -0.0582594238, 0.0031266748,  0.0811359435,
      -0.0533943847, -0.0167394783, 0.0145514021,   0.0362431817,  -0.0397703536, 0.0684429556,
      0.141934901,   0.170758754,   0.12799035,     0.045209419,   -0.0266439933, -0.077844955};
  expectValues(part(v, 0), dInput, 1e-4);
  expectValues(part(v, 1), dWeight, 1e-4);
  expectValues(part(v, 2), dBias, 1e-4);
  // grad_input is always computed (the decomposition's); masked weight/bias grads are None.
  v = run(graph(7, kBatchNormBw, "%x, %y, %z, %w, %u, %v, %t, True, 1e-05, [False, False, False]"),
          in);
  expectValues(part(v, 0), dInput, 1e-4);
  EXPECT_FALSE((*v.tensors())[1]);
  // Evaluation: the running statistics.
  v = run(graph(5, kBatchNormBw,
                "%x, %y, %z, %w, %u, None, None, False, 1e-05, "
                "[True, True, True]"),
          {bnGrad(), bnInput(), w3(), runningMean(), runningVar()});
  expectValues(part(v, 0), {0.15360181,   0.32276836,    0.448249727,  0.513062596,   0.692491651,
                            0.592463195,  0.412247509,   0.176236123,  -0.0947481617, -0.376343131,
                            -0.607001841, -0.755505621,  -0.519569397, -0.479219764,  -0.374009967,
                            -0.218179703, -0.0447008237, 0.213810638,  0.443383813,   0.612947106,
                            0.792571247,  0.783420026,   0.668236613,  0.462610483},
               1e-4);
  expectValues(part(v, 1), {9.80133057, 5.63124371, 7.38728619}, 1e-4);
  // Without weight; channels-last operands keep their layout.
  v = run(graph(7, kBatchNormBw, "%x, %y, None, %w, %u, %v, %t, True, 1e-05, [True, True, True]"),
          {bnGrad(), bnInput(), w3(), runningMean(), runningVar(), part(fw, 1), part(fw, 2)});
  expectValues(part(v, 0),
               {0.0855005458,  0.048912365,   -0.0102099786, -0.0838645324, 0.113760315,
                -0.0198024455, -0.18399258,   -0.356587708,  -0.100143448,  -0.0615990832,
                0.00330590806, 0.0857869759,  -0.111371592,  -0.0349157006, 0.030351745,
                0.0755971,     -0.0520330332, 0.0895464644,  0.185698718,   0.223410025,
                0.13532725,    0.0478009991,  -0.0281713307, -0.0823073313},
               1e-4);
  v = run(graph(7, kBatchNormBw, "%x, %y, %z, %w, %u, %v, %t, True, 1e-05, [True, True, True]"),
          {channelsLast(bnGrad()), channelsLast(bnInput()), w3(), runningMean(), runningVar(),
           part(fw, 1), part(fw, 2)});
  EXPECT_EQ(typeOf(part(v, 0)), "f32[2, 3, 2, 2][12, 1, 6, 3]cpu");
  expectValues(part(v, 0), dInput, 1e-4);
  // float16 input, float32 weight: the parameter grads take the weight's dtype.
  EXPECT_EQ(inferred({"f16[2, 3, 2, 2][12, 4, 2, 1]cpu", "f32[3][1]cpu"}, kBatchNormBw,
                     "%x, %x, %y, %y, %y, %y, %y, True, 1e-05, [True, True, True]"),
            "f16[2, 3, 2, 2][12, 4, 2, 1]cpu | f32[3][1]cpu | f32[3][1]cpu");
  expectFailure(graph(2, kBatchNormBw,
                      "%x, %y, None, None, None, None, None, True, 1e-05, "
                      "[True, True, True]"),
                {bnGrad(), bnInput()}, "mean and invstd must not be None in training mode");
}

// ---- Dropout ----

TEST(ReductionOps, DropoutIdentityUnlessTraining) {
  const std::string op = "native_dropout.default";
  for (const char *args : {"%x, 0.5, False", "%x, 0.0, True", "%x, 0.5, None"}) {
    RuntimeValue v = run(graph(1, op, args), {transposed(x23())});
    EXPECT_EQ(typeOf(part(v, 0)), "f32[3, 2][1, 3]cpu") << args;
    EXPECT_EQ(typeOf(part(v, 1)), "b8[3, 2][1, 3]cpu") << args;
    expectValues(part(v, 0), {1, 0, 0, 0, 3, 2});
    expectValues(part(v, 1), {1, 1, 1, 1, 1, 1});
  }
  // The identity returns the input's own strides (an expanded input too); the mask is dense.
  auto expanded = fromValues({1, 4}, {1, 2, 3, 4}).asStrided({3, 4}, {0, 1}, 0);
  RuntimeValue v = run(graph(1, op, "%x, 0.5, False"), {*expanded});
  EXPECT_EQ(typeOf(part(v, 0)), "f32[3, 4][0, 1]cpu");
  EXPECT_EQ(typeOf(part(v, 1)), "b8[3, 4][4, 1]cpu");
  expectValues(part(v, 0), {1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4});
  v = run(graph(1, op, "%x, 0.5, False"), {x23(DType::Int32)});
  EXPECT_EQ(typeOf(part(v, 0)), "i32[2, 3][3, 1]cpu");
  // p = 1 drops everything.
  v = run(graph(1, op, "%x, 1.0, True"), {x23()});
  expectValues(part(v, 0), {0, 0, 0, 0, 0, 0});
  expectValues(part(v, 1), {0, 0, 0, 0, 0, 0});
  expectFailure(graph(1, op, "%x, 0.5, True"), {x23(DType::Int32)},
                "result type Float can't be cast to the desired output type int32");
  expectFailure(graph(1, op, "%x, 1.5, True"), {x23()}, "dropout probability");
}

TEST(ReductionOps, DropoutTrainingIsSeededAndScaled) {
  const std::string op = "native_dropout.default";
  Tensor x = fromValues({1000}, std::vector<double>(1000, 3.0));
  RuntimeValue a = run(graph(1, op, "%x, 0.25, True"), {x});
  RuntimeValue b = run(graph(1, op, "%x, 0.25, True"), {x});
  std::vector<double> out = flat(part(a, 0)), mask = flat(part(a, 1));
  EXPECT_EQ(out, flat(part(b, 0))); // deterministic for a node
  int kept = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    kept += mask[i] != 0;
    EXPECT_DOUBLE_EQ(out[i], mask[i] != 0 ? 4.0 : 0.0) << i; // 3 / (1 - 0.25)
  }
  EXPECT_GT(kept, 700);
  EXPECT_LT(kept, 800);
  // A dropped NaN stays NaN (mask * x * scale).
  RuntimeValue n =
      run(graph(1, op, "%x, 0.5, True"), {fromValues({64}, std::vector<double>(64, kNaN))});
  for (double y : flat(part(n, 0)))
    EXPECT_TRUE(std::isnan(y));
  // Channels-last input: both results keep the layout.
  RuntimeValue c = run(graph(1, op, "%x, 0.5, True"), {channelsLast(wave({2, 3, 2, 2}))});
  EXPECT_EQ(typeOf(part(c, 0)), "f32[2, 3, 2, 2][12, 1, 6, 3]cpu");
  EXPECT_EQ(typeOf(part(c, 1)), "b8[2, 3, 2, 2][12, 1, 6, 3]cpu");
}

// ---- _local_scalar_dense ----

TEST(ReductionOps, LocalScalarDense) {
  const std::string op = "_local_scalar_dense.default";
  RuntimeValue v = run(graph(1, op, "%x"), {scalar(2.5)});
  ASSERT_TRUE(std::holds_alternative<double>(v.v));
  EXPECT_EQ(std::get<double>(v.v), 2.5);
  v = run(graph(1, op, "%x"), {fromValues({1, 1}, {7}, DType::Int64)});
  ASSERT_TRUE(v.integer());
  EXPECT_EQ(*v.integer(), 7);
  v = run(graph(1, op, "%x"), {scalar(1, DType::Bool)});
  ASSERT_TRUE(std::holds_alternative<bool>(v.v));
  EXPECT_TRUE(std::get<bool>(v.v));
  v = run(graph(1, op, "%x"), {scalar(0.1, DType::Float16)});
  EXPECT_EQ(std::get<double>(v.v), 0.0999755859375);
  // Like PyTorch's, it takes the first element of a bigger tensor (item() checks, not it).
  v = run(graph(1, op, "%x"), {transposed(fromValues({2, 2}, {5, 6, 7, 8}))});
  EXPECT_EQ(std::get<double>(v.v), 5);
  auto empty = Tensor::zeros(DType::Float32, {0, 3});
  expectFailure(graph(1, op, "%x"), {*empty}, "_local_scalar_dense: Empty tensor not supported");
  // Inference: a symbol named after the node, bound when it runs; or the unbacked symbol the
  // graph recorded for it (FakeTensor's u0).
  EXPECT_EQ(inferred({"i64[][]cpu"}, op, "%x"), "sym r");
  auto g = parseFxText(graph(1, op, "%x"), "<test>");
  ASSERT_TRUE(g);
  g->find("x")->value() = NodeValue{scalar(1, DType::Int64).typeOf()};
  g->find("r")->value().v = SymExpr::symbol("u0");
  ASSERT_TRUE(inferShapes(*g));
  EXPECT_EQ(g->find("r")->value().sym()->str(), "u0");
}

// ---- Symbolic sizes, and the table ----

TEST(ReductionOps, SymbolicInference) {
  const std::string x = "f32[s0, 4][4, 1]cpu";
  EXPECT_EQ(inferred({x}, "cumsum.default", "%x, 0"), "f32[s0, 4][4, 1]cpu");
  EXPECT_EQ(inferred({"i32[s0, 4][4, 1]cpu"}, "cumprod.default", "%x, 1"), "i64[s0, 4][4, 1]cpu");
  EXPECT_EQ(inferred({x}, "argmax.default", "%x, None, True"), "i64[1, 1][1, 1]cpu");
  EXPECT_EQ(inferred({x}, "argmin.default", "%x, 1"), "i64[s0][1]cpu");
  EXPECT_EQ(inferred({"f32[4, s0][1, 4]cpu"}, "sort.default", "%x"),
            "f32[4, s0][1, 4]cpu | i64[4, s0][1, 4]cpu");
  EXPECT_EQ(inferred({x}, "max.dim", "%x, 1, True"), "f32[s0, 1][1, 1]cpu | i64[s0, 1][1, 1]cpu");
  EXPECT_EQ(inferred({x}, "prod.dim_int", "%x, 0"), "f32[4][1]cpu");
  EXPECT_EQ(inferred({x}, "var.correction", "%x, [1]", "{keepdim: True}"), "f32[s0, 1][1, 1]cpu");
  EXPECT_EQ(inferred({x}, "logsumexp.default", "%x, [0]"), "f32[4][1]cpu");
  EXPECT_EQ(inferred({"f32[4, s0][1, 4]cpu"}, "_log_softmax.default", "%x, 0, False"),
            "f32[4, s0][s0, 1]cpu");
  EXPECT_EQ(inferred({x}, "all.dims", "%x, [0]"), "b8[4][1]cpu");
  EXPECT_EQ(inferred({x}, "native_dropout.default", "%x, 0.5, True"),
            "f32[s0, 4][4, 1]cpu | b8[s0, 4][4, 1]cpu");
  EXPECT_EQ(inferred({"f32[s0, 3, 4][12, 4, 1]cpu"}, kLayerNorm, "%x, [3, 4], None, None, 1e-05"),
            "f32[s0, 3, 4][12, 4, 1]cpu | f32[s0, 1, 1][1, 1, 1]cpu | f32[s0, 1, 1][1, 1, 1]cpu");
  // A dim of size 0 has no maximum; errors name the node and the op.
  EXPECT_EQ(inferred({"f32[s0, 0][1, 1]cpu"}, "max.dim", "%x, 1"),
            "error: node 'r' (torch.ops.aten.max.dim): max(): Expected reduction dim 1 to have "
            "non-zero size.");
}

TEST(ReductionOps, EveryRowHasAKernelAndParses) {
  registerReductionFamilyKernels();
  for (const OpRow &row : reductionOpRows()) {
    const OpInfo *op = OpRegistry::instance().lookup(row.target);
    ASSERT_TRUE(op) << row.target;
    EXPECT_TRUE(op->kernel) << row.target;
    // Scans lower to loop ops (transforms/lowering/ScanLowering.cpp), and so do the
    // reductions of transforms/lowering/ReductionLowering.cpp.
    std::string_view target = row.target;
    bool scan =
        target == "torch.ops.aten.cumsum.default" || target == "torch.ops.aten.cumprod.default";
    static const std::set<std::string_view> kLoopReductions = {
        "torch.ops.aten.any.dim",          "torch.ops.aten.any.dims",
        "torch.ops.aten.any.default",      "torch.ops.aten.all.dim",
        "torch.ops.aten.all.dims",         "torch.ops.aten.all.default",
        "torch.ops.aten.argmax.default",   "torch.ops.aten.argmin.default",
        "torch.ops.aten.max.dim",          "torch.ops.aten.min.dim",
        "torch.ops.aten.max.default",      "torch.ops.aten.min.default",
        "torch.ops.aten.prod.default",     "torch.ops.aten.prod.dim_int",
        "torch.ops.aten.var.correction",   "torch.ops.aten.var.dim",
        "torch.ops.aten.logsumexp.default"};
    // softmax and the normalisations (transforms/lowering/NormLowering.cpp); the batch norm
    // that updates its running statistics in place stays extern.
    static const std::set<std::string_view> kNormReductions = {
        "torch.ops.aten._softmax.default",
        "torch.ops.aten._log_softmax.default",
        "torch.ops.aten._softmax_backward_data.default",
        "torch.ops.aten._log_softmax_backward_data.default",
        "torch.ops.aten.native_layer_norm.default",
        "torch.ops.aten.native_group_norm.default",
        "torch.ops.aten.native_layer_norm_backward.default",
        "torch.ops.aten.native_group_norm_backward.default",
        "torch.ops.aten._native_batch_norm_legit.no_stats",
        "torch.ops.aten._native_batch_norm_legit_no_training.default",
        "torch.ops.aten._native_batch_norm_legit_functional.default"};
    bool loops = scan || kLoopReductions.count(target) > 0 || kNormReductions.count(target) > 0;
    // native_dropout is one pointwise loop of Philox random numbers (RandomLowering.cpp).
    const bool randomLoop = target == "torch.ops.aten.native_dropout.default";
    EXPECT_EQ(op->category, randomLoop ? OpCategory::Other
                            : loops    ? OpCategory::Reduction
                                       : OpCategory::Extern)
        << row.target;
    auto schema = parseSchema(row.schema);
    ASSERT_TRUE(schema) << row.target;
    EXPECT_EQ(schema->str(), op->schema.str());
    EXPECT_NE(std::string(row.target).find("." + schema->name + "."), std::string::npos)
        << row.target;
  }
}

TEST(ReductionOps, ThroughTheInterpreter) {
  // sort's results through getitem, and an item() whose value sizes a later tensor (the
  // interpreter binds the node's symbol to the kernel's integer).
  constexpr std::string_view kGraph = R"(graph():
    %x : [num_users=1] = placeholder[target=x]
    %k : [num_users=1] = placeholder[target=k]
    %sort : [num_users=1] = call_function[target=torch.ops.aten.sort.default](args = (%x, 0, True), kwargs = {})
    %values : [num_users=1] = call_function[target=operator.getitem](args = (%sort, 0), kwargs = {})
    %n : [num_users=1] = call_function[target=torch.ops.aten._local_scalar_dense.default](args = (%k,), kwargs = {})
    %full : [num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([%n], 2.0), kwargs = {})
    return (values, full)
)";
  auto r = runText(kGraph, {RuntimeValue{fromValues({4}, {3, kNaN, 1, 2})},
                            RuntimeValue{fromValues({}, {3}, DType::Int64)}});
  ASSERT_TRUE(r) << r.error().str();
  expectValues(*r->outputs[0].tensor(), {kNaN, 3, 2, 1});
  EXPECT_EQ(typeOf(*r->outputs[1].tensor()), "f32[3][1]cpu");
  expectValues(*r->outputs[1].tensor(), {2, 2, 2});
}
