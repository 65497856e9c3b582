/// Pooling, padding and upsampling lowered to loops (transforms/lowering/PoolingLowering.cpp):
/// every op compiles to loop ops only (no extern call) and agrees with the reference
/// interpreter on the loop interpreter, OpenCL (the default device: PoCL here) and the LLVM
/// JIT, for the windows' corners: ceil_mode, padding, dilation, stride, count_include_pad,
/// divisor_override, NaN in a window, ties, non-contiguous and channels-last inputs, float16,
/// integers, adaptive sizes that do not divide, upsampling with and without scales and both
/// align_corners, symbolic batch sizes. A few values are worked out by hand.

#include "CompileTestSupport.h"
#include "InterpreterTestSupport.h"
#include "backends/interp/LoopInterpreter.h"

#include <limits>
#include <sstream>

using namespace fxkit;
using namespace fxkit::testing;

namespace {

using Ints = std::vector<int64_t>;
const double kNaN = std::numeric_limits<double>::quiet_NaN();

Tensor random(const Ints &sizes, uint64_t seed, DType dtype = DType::Float32) {
  auto t = Tensor::random(dtype, sizes, seed);
  EXPECT_TRUE(t);
  return t.take();
}

/// Small integers 0..levels-1 (as `dtype`): windows full of ties.
Tensor levels(const Ints &sizes, int64_t levels, DType dtype = DType::Float32) {
  Tensor r = random(sizes, 7);
  std::vector<double> values;
  for (double v : flat(r))
    values.push_back(std::floor(std::abs(v) * 1000));
  for (double &v : values)
    v = std::fmod(v, static_cast<double>(levels));
  return fromValues(sizes, values, dtype);
}

/// `t` with NaN at every `every`-th element (row-major).
Tensor withNaNs(const Tensor &t, size_t every) {
  std::vector<double> values = flat(t);
  for (size_t i = 3; i < values.size(); i += every)
    values[i] = kNaN;
  return fromValues(t.sizes(), values, t.dtype());
}

/// A channels-last (NHWC) copy of a 4-d tensor: same values, permuted storage.
Tensor channelsLast(const Tensor &t) {
  Tensor nhwc = permuted(t, {0, 2, 3, 1}).contiguous();
  return permuted(nhwc, {0, 3, 1, 2});
}

/// A view of a 4-d tensor's last two dims swapped (non-contiguous: H and W strides exchanged).
Tensor transposedView(const Tensor &t) {
  return permuted(permuted(t, {0, 1, 3, 2}).contiguous(), {0, 1, 3, 2});
}

/// A graph over placeholders x0, x1, ... (typed as their inputs, or as `types` says where it
/// has an entry) computing each of `calls` (FX call text after `target=`, arguments naming
/// %x0 ...) and returning each result, or getitem(result, i) for i in `items`.
std::string graphOf(const std::vector<Tensor> &inputs, const std::vector<std::string> &calls,
                    const std::vector<int> &items = {},
                    const std::vector<std::string> &types = {}) {
  std::string text = "graph():\n";
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string type = i < types.size() && !types[i].empty() ? types[i] : inputs[i].typeOf().str();
    text += "    %x" + std::to_string(i) + " : Tensor \"" + type +
            "\"[num_users=1] = placeholder[target=x" + std::to_string(i) + "]\n";
  }
  std::string ret;
  for (size_t c = 0; c < calls.size(); ++c) {
    std::string r = "r" + std::to_string(c);
    text += "    %" + r + " : [num_users=1] = call_function[target=" + calls[c] + ")\n";
    if (items.empty())
      ret += r + ", ";
    for (int i : items) {
      std::string g = r + "_" + std::to_string(i);
      text += "    %" + g + " : [num_users=1] = call_function[target=operator.getitem](args = (%" +
              r + ", " + std::to_string(i) + "), kwargs = {})\n";
      ret += g + ", ";
    }
  }
  ret.pop_back(); // "a, b," as FX prints a tuple
  return text + "    return (" + ret + ")\n";
}

std::string aten(const std::string &op, const std::string &args) {
  return "torch.ops.aten." + op + "](args = (" + args + "), kwargs = {}";
}

/// Every output of `got` equals `want`'s: integers exactly, floats within tol of the value
/// (relative to the output's largest magnitude too), NaN where NaN.
void expectSame(const InterpretResult &got, const InterpretResult &want, double tol,
                const std::string &backend) {
  ASSERT_EQ(got.outputs.size(), want.outputs.size()) << backend;
  for (size_t i = 0; i < want.outputs.size(); ++i) {
    const Tensor *a = got.outputs[i].tensor(), *b = want.outputs[i].tensor();
    ASSERT_TRUE(a && b) << backend << " output " << i;
    ASSERT_EQ(a->dtype(), b->dtype()) << backend << " output " << i;
    ASSERT_EQ(a->sizes(), b->sizes()) << backend << " output " << i;
    std::vector<double> x = flat(*a), y = flat(*b);
    double scale = 0;
    for (double v : y)
      if (std::isfinite(v))
        scale = std::max(scale, std::abs(v));
    int reported = 0;
    for (size_t k = 0; k < y.size() && reported < 5; ++k) {
      bool same = dtypeIsFloating(b->dtype())
                      ? (std::isnan(y[k]) ? std::isnan(x[k])
                         : std::isinf(y[k])
                             ? x[k] == y[k]
                             : std::abs(x[k] - y[k]) <= tol * (1 + scale) + tol * std::abs(y[k]))
                      : x[k] == y[k];
      if (!same) {
        ++reported;
        ADD_FAILURE() << backend << " output " << i << " element " << k << ": got " << x[k]
                      << ", expected " << y[k];
      }
    }
  }
}

/// Compiles `text` (its placeholders typed), checks that it lowered to loops only, and runs it
/// on the loop interpreter, OpenCL and LLVM: each must give the reference interpreter's
/// outputs. Returns the reference outputs.
InterpretResult expectBackendsAgree(const std::string &text, const std::vector<Tensor> &inputs,
                                    double tol = 1e-5) {
  SCOPED_TRACE(text);
  registerReferenceKernels();
  std::vector<RuntimeValue> values;
  for (const Tensor &t : inputs)
    values.push_back(RuntimeValue{t});
  auto parsed = parseFxText(text, "<test>");
  EXPECT_TRUE(parsed) << (parsed ? "" : parsed.error().str());
  if (!parsed)
    return {};
  Graph reference = parsed->clone();
  auto want = interpretGraph(reference, values);
  EXPECT_TRUE(want) << (want ? "" : want.error().str());
  if (!want)
    return {};
  Compiled c;
  ::testing::AssertionResult compiled = compile(parsed->clone(), c);
  EXPECT_TRUE(compiled);
  expectNoExterns(c.program);
  if (!compiled)
    return want.take();
  for (auto &[backend, got] : resultsOnEveryLoopBackend(c, values))
    expectSame(got, *want, tol, backend);
  return want.take();
}

const Tensor &output(const InterpretResult &r, size_t i) {
  static const Tensor empty;
  return i < r.outputs.size() && r.outputs[i].tensor() ? *r.outputs[i].tensor() : empty;
}

// ---- Max pooling ----

const char *const kMaxPool2dArgs[] = {
    "[3, 3], [2, 2], [1, 1]",               // resnet's stem
    "[2, 2]",                               // stride defaults to the kernel
    "[3, 3], [2, 2], [1, 1], [2, 2], True", // dilation, ceil_mode
    "[3, 2], [1, 2], [1, 0], [1, 1], True", // uneven window
    "[2, 3], [3, 1], [1, 1], [1, 2], False",
};

std::vector<std::string> maxPool2dCalls(const std::string &op = "max_pool2d_with_indices.default") {
  std::vector<std::string> calls;
  for (const char *args : kMaxPool2dArgs)
    calls.push_back(aten(op, std::string("%x0, ") + args));
  return calls;
}

TEST(PoolingLowering, MaxPool2dAgreesOnEveryBackend) {
  Tensor x = random({2, 3, 9, 11}, 1);
  expectBackendsAgree(graphOf({x}, maxPool2dCalls(), {0, 1}), {x});
  // Ties everywhere: the first index of the maximum.
  Tensor ties = levels({1, 2, 8, 7}, 3);
  expectBackendsAgree(graphOf({ties}, maxPool2dCalls(), {0, 1}), {ties});
  // NaN wins its window (the last NaN's index).
  Tensor nan = withNaNs(random({1, 2, 9, 9}, 2), 5);
  expectBackendsAgree(graphOf({nan}, maxPool2dCalls(), {0, 1}), {nan});
}

TEST(PoolingLowering, MaxPool2dLayoutsDtypesAndShapes) {
  Tensor x = random({2, 3, 9, 11}, 3);
  expectBackendsAgree(graphOf({channelsLast(x)}, maxPool2dCalls(), {0, 1}), {channelsLast(x)});
  expectBackendsAgree(graphOf({transposedView(x)}, maxPool2dCalls(), {0, 1}), {transposedView(x)});
  Tensor half = random({1, 3, 8, 9}, 4, DType::Float16);
  expectBackendsAgree(graphOf({half}, maxPool2dCalls(), {0, 1}), {half}, 1e-3);
  Tensor ints = levels({1, 2, 7, 8}, 50, DType::Int64);
  expectBackendsAgree(graphOf({ints}, maxPool2dCalls(), {0, 1}), {ints});
  // No batch dim.
  Tensor chw = random({3, 7, 7}, 5);
  expectBackendsAgree(graphOf({chw}, maxPool2dCalls(), {0, 1}), {chw});
  // A symbolic batch.
  Tensor batch = random({3, 2, 8, 8}, 6);
  expectBackendsAgree(
      graphOf({batch}, maxPool2dCalls(), {0, 1}, {"f32[s0, 2, 8, 8][128, 64, 8, 1]cpu"}), {batch});
}

TEST(PoolingLowering, MaxPoolValuesByHand) {
  // A -inf window keeps its first inside tap; NaN beats everything; ties keep the first.
  double inf = std::numeric_limits<double>::infinity();
  Tensor x = fromValues({1, 1, 2, 4}, {-inf, -inf, 1, kNaN, -inf, -inf, 1, 2});
  InterpretResult r =
      expectBackendsAgree(graphOf({x},
                                  {aten("max_pool2d_with_indices.default",
                                        "%x0, [2, 2], [2, 2], [0, 1], [1, 1], True")},
                                  {0, 1}),
                          {x});
  // Windows over cols [-1, 0], [1, 2], [3, 4]: all -inf (the first inside tap, 0); 1 first at
  // 2 (its tie at 6 comes later); NaN at 3 (2 at 7 does not beat it).
  expectValues(output(r, 0), {-inf, 1, kNaN});
  expectValues(output(r, 1), {0, 2, 3});
}

TEST(PoolingLowering, AdaptiveMaxPoolAgreesOnEveryBackend) {
  // Adaptive windows that overlap and vary in size, one window (the whole plane), more outputs
  // than inputs along H, and a 1-d pool through its composite; values and indices.
  std::vector<std::string> calls = {
      aten("adaptive_max_pool2d.default", "%x0, [3, 4]"),
      aten("adaptive_max_pool2d.default", "%x0, [1, 1]"),
      aten("adaptive_max_pool2d.default", "%x0, [10, 2]"),
  };
  Tensor x = random({2, 3, 7, 9}, 12);
  expectBackendsAgree(graphOf({x}, calls, {0, 1}), {x});
  expectBackendsAgree(graphOf({channelsLast(x)}, calls, {0, 1}), {channelsLast(x)});
  // Ties keep the first; NaN wins (the last NaN); no batch dim.
  Tensor ties = levels({1, 2, 8, 7}, 3);
  expectBackendsAgree(graphOf({ties}, calls, {0, 1}), {ties});
  Tensor nan = withNaNs(random({2, 7, 9}, 13), 4);
  expectBackendsAgree(graphOf({nan}, calls, {0, 1}), {nan});
  Tensor line = random({2, 3, 11}, 14);
  expectBackendsAgree(graphOf({line}, {aten("adaptive_max_pool1d.default", "%x0, [4]")}, {0, 1}),
                      {line});
  // 3-d: volumes with overlapping windows, and NaN.
  std::vector<std::string> calls3 = {aten("adaptive_max_pool3d.default", "%x0, [3, 2, 4]"),
                                     aten("adaptive_max_pool3d.default", "%x0, [1, 1, 1]")};
  Tensor v = random({2, 2, 5, 4, 7}, 16);
  expectBackendsAgree(graphOf({v}, calls3, {0, 1}), {v});
  Tensor vnan = withNaNs(random({2, 5, 4, 7}, 17), 6);
  expectBackendsAgree(graphOf({vnan}, calls3, {0, 1}), {vnan});
}

TEST(PoolingLowering, MaxPool3dAgreesOnEveryBackend) {
  Tensor x = random({2, 2, 6, 7, 5}, 7);
  std::vector<std::string> calls = {
      aten("max_pool3d_with_indices.default", "%x0, [2, 2, 2]"),
      aten("max_pool3d_with_indices.default",
           "%x0, [3, 3, 2], [2, 1, 2], [1, 1, 0], [1, 2, 1], True"),
  };
  expectBackendsAgree(graphOf({x}, calls, {0, 1}), {x});
  Tensor nan = withNaNs(x, 11);
  expectBackendsAgree(graphOf({nan}, calls, {0, 1}), {nan});
}

TEST(PoolingLowering, LowMemoryMaxPoolAndIndicesAgree) {
  // Inductor's pattern: offsets within the window, then indices from the offsets.
  Tensor x = random({2, 4, 10, 9}, 8);
  std::string text = R"(graph():
    %x : Tensor "f32[2, 4, 10, 9][360, 90, 9, 1]cpu"[num_users=1] = placeholder[target=x]
    %relu : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})
    %p : [num_users=2] = call_function[target=torch.ops.prims._low_memory_max_pool_with_offsets.default](args = (%relu, [3, 3], [2, 2], [1, 1], [1, 1], False), kwargs = {})
    %v : [num_users=1] = call_function[target=operator.getitem](args = (%p, 0), kwargs = {})
    %o : [num_users=2] = call_function[target=operator.getitem](args = (%p, 1), kwargs = {})
    %i : [num_users=1] = call_function[target=torch.ops.prims._low_memory_max_pool_offsets_to_indices.default](args = (%o, [3, 3], [10, 9], [2, 2], [1, 1], [1, 1]), kwargs = {})
    %w : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%v, %v), kwargs = {})
    return (w, o, i)
)";
  expectBackendsAgree(text, {x});
  Tensor ties = levels({1, 2, 7, 8}, 2);
  std::vector<std::string> calls = {
      "torch.ops.prims._low_memory_max_pool_with_offsets.default](args = (%x0, [3, 3], [2, 2], "
      "[1, 1], [2, 1], True), kwargs = {}",
      "torch.ops.prims._low_memory_max_pool_with_offsets.default](args = (%x0, [2, 2], [1, 1], "
      "[0, 0], [1, 1], False), kwargs = {}"};
  expectBackendsAgree(graphOf({ties}, calls, {0, 1}), {ties});
}

// ---- Average pooling ----

TEST(PoolingLowering, AvgPool2dAgreesOnEveryBackend) {
  std::vector<std::string> calls = {
      aten("avg_pool2d.default", "%x0, [3, 3], [2, 2], [1, 1]"),
      aten("avg_pool2d.default", "%x0, [3, 3], [2, 2], [1, 1], False, False"),
      aten("avg_pool2d.default", "%x0, [3, 2], [2, 2], [1, 1], True, True"),
      aten("avg_pool2d.default", "%x0, [3, 2], [2, 2], [1, 1], True, False"),
      aten("avg_pool2d.default", "%x0, [2, 2], [1, 1], [0, 0], False, True, 3"),
      aten("avg_pool2d.default", "%x0, [2]"),
  };
  Tensor x = random({2, 3, 9, 8}, 9);
  expectBackendsAgree(graphOf({x}, calls), {x});
  expectBackendsAgree(graphOf({channelsLast(x)}, calls), {channelsLast(x)});
  expectBackendsAgree(graphOf({transposedView(x)}, calls), {transposedView(x)});
  Tensor half = random({1, 2, 9, 8}, 10, DType::Float16);
  expectBackendsAgree(graphOf({half}, calls), {half}, 2e-3);
  Tensor ints = levels({1, 2, 9, 8}, 100, DType::Int64);
  expectBackendsAgree(graphOf({ints}, calls), {ints});
  Tensor batch = random({3, 2, 9, 8}, 11);
  expectBackendsAgree(graphOf({batch}, calls, {}, {"f32[s0, 2, 9, 8][144, 72, 8, 1]cpu"}), {batch});
}

TEST(PoolingLowering, LargeAverageWindowsAreReductions) {
  // 7 x 7 windows: a mean over the window (or a sum and a division where windows clip).
  std::vector<std::string> calls = {
      aten("avg_pool2d.default", "%x0, [7, 7]"),
      aten("avg_pool2d.default", "%x0, [7, 7], [3, 3], [3, 3], True, False"),
      aten("avg_pool2d.default", "%x0, [6, 6], [4, 4], [2, 2], True, True, 5"),
  };
  Tensor x = random({2, 3, 14, 13}, 12);
  expectBackendsAgree(graphOf({x}, calls), {x});
  Tensor ints = levels({1, 2, 14, 13}, 100, DType::Int32);
  expectBackendsAgree(graphOf({ints}, calls), {ints});
}

TEST(PoolingLowering, AvgPool1dAnd3d) {
  Tensor x = random({2, 3, 11}, 13);
  expectBackendsAgree(graphOf({x}, {aten("avg_pool1d.default", "%x0, [3], [2], [1]"),
                                    aten("avg_pool1d.default", "%x0, [3], [2], [1], True, False"),
                                    aten("avg_pool1d.default", "%x0, [4]")}),
                      {x});
  Tensor v = random({1, 2, 6, 7, 5}, 14);
  expectBackendsAgree(
      graphOf({v},
              {aten("avg_pool3d.default", "%x0, [2, 2, 2]"),
               aten("avg_pool3d.default", "%x0, [3, 3, 3], [2, 2, 2], [1, 1, 1], True, False"),
               aten("avg_pool3d.default", "%x0, [3, 2, 3], [1, 2, 2], [1, 0, 1], False, True, 7")}),
      {v});
}

TEST(PoolingLowering, AvgPoolValuesByHand) {
  // 3 x 3 input 1..9, 2 x 2 windows, stride 2, padding 1: the windows hold {1}, {2, 3}, {4, 7},
  // {5, 6, 8, 9}; count_include_pad divides by 4, otherwise by the elements inside.
  Tensor x = fromValues({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  InterpretResult r = expectBackendsAgree(
      graphOf({x}, {aten("avg_pool2d.default", "%x0, [2, 2], [2, 2], [1, 1]"),
                    aten("avg_pool2d.default", "%x0, [2, 2], [2, 2], [1, 1], False, False")}),
      {x});
  expectValues(output(r, 0), {0.25, 1.25, 2.75, 7});
  expectValues(output(r, 1), {1, 2.5, 5.5, 7});
}

// ---- Adaptive average pooling ----

TEST(PoolingLowering, AdaptiveAvgPoolAgreesOnEveryBackend) {
  std::vector<std::string> calls = {
      aten("_adaptive_avg_pool2d.default", "%x0, [3, 4]"), // windows that overlap, sizes vary
      aten("_adaptive_avg_pool2d.default", "%x0, [1, 1]"), // one window: a mean
      aten("_adaptive_avg_pool2d.default", "%x0, [7, 3]"),
      aten("_adaptive_avg_pool2d.default", "%x0, [10, 2]"), // more outputs than inputs along H
  };
  Tensor x = random({2, 3, 7, 9}, 15);
  expectBackendsAgree(graphOf({x}, calls), {x});
  expectBackendsAgree(graphOf({channelsLast(x)}, calls), {channelsLast(x)});
  Tensor half = random({1, 2, 7, 9}, 16, DType::Float16);
  expectBackendsAgree(graphOf({half}, calls), {half}, 2e-3);
  Tensor ints = levels({1, 2, 7, 9}, 100, DType::Int64);
  expectBackendsAgree(graphOf({ints}, calls), {ints});
  Tensor batch = random({3, 2, 7, 9}, 17);
  expectBackendsAgree(graphOf({batch}, calls, {}, {"f32[s0, 2, 7, 9][126, 63, 9, 1]cpu"}), {batch});
  Tensor one = random({2, 5, 13}, 18);
  expectBackendsAgree(graphOf({one}, {aten("adaptive_avg_pool1d.default", "%x0, [4]"),
                                      aten("adaptive_avg_pool1d.default", "%x0, [1]")}),
                      {one});
  Tensor v = random({1, 2, 5, 6, 7}, 19);
  expectBackendsAgree(graphOf({v}, {aten("_adaptive_avg_pool3d.default", "%x0, [2, 3, 4]"),
                                    aten("_adaptive_avg_pool3d.default", "%x0, [1, 1, 1]")}),
                      {v});
}

TEST(PoolingLowering, GlobalAveragePoolOverSymbolicSizes) {
  // Output 1 x 1 reads the whole plane whatever its size: a mean over symbolic ranges.
  Tensor x = random({2, 3, 6, 5}, 20);
  expectBackendsAgree(graphOf({x}, {aten("_adaptive_avg_pool2d.default", "%x0, [1, 1]")}, {},
                              {"f32[2, 3, s0, s1][3*s0*s1, s0*s1, s1, 1]cpu"}),
                      {x});
}

// ---- Padding ----

TEST(PoolingLowering, ReflectionAndReplicationPadsAgree) {
  Tensor row = random({2, 3, 7}, 21);
  std::vector<std::string> oneD;
  for (const char *op : {"reflection_pad1d.default", "replication_pad1d.default"})
    for (const char *pad : {"[3, 2]", "[-1, 2]", "[2, -3]", "[0, 6]"})
      oneD.push_back(aten(op, std::string("%x0, ") + pad));
  expectBackendsAgree(graphOf({row}, oneD), {row});
  Tensor plane = random({2, 3, 5, 6}, 22);
  std::vector<std::string> twoD;
  for (const char *op : {"reflection_pad2d.default", "replication_pad2d.default"})
    for (const char *pad : {"[1, 2, 3, 4]", "[0, 0, 4, 1]", "[-1, 2, 1, -2]"})
      twoD.push_back(aten(op, std::string("%x0, ") + pad));
  expectBackendsAgree(graphOf({plane}, twoD), {plane});
  expectBackendsAgree(graphOf({channelsLast(plane)}, twoD), {channelsLast(plane)});
  Tensor ints = levels({1, 2, 5, 6}, 100, DType::Int32);
  expectBackendsAgree(graphOf({ints}, twoD), {ints});
  Tensor vol = random({1, 2, 3, 4, 5}, 23);
  std::vector<std::string> threeD;
  for (const char *op : {"reflection_pad3d.default", "replication_pad3d.default"})
    threeD.push_back(aten(op, "%x0, [1, 2, 3, 0, 2, 1]"));
  expectBackendsAgree(graphOf({vol}, threeD), {vol});
  Tensor batch = random({3, 3, 7}, 24);
  expectBackendsAgree(graphOf({batch}, oneD, {}, {"f32[s0, 3, 7][21, 7, 1]cpu"}), {batch});
}

TEST(PoolingLowering, PadValuesByHand) {
  Tensor row = fromValues({1, 4}, {1, 2, 3, 4});
  InterpretResult r =
      expectBackendsAgree(graphOf({row}, {aten("reflection_pad1d.default", "%x0, [2, 3]"),
                                          aten("replication_pad1d.default", "%x0, [2, 3]")}),
                          {row});
  expectValues(output(r, 0), {3, 2, 1, 2, 3, 4, 3, 2, 1});
  expectValues(output(r, 1), {1, 1, 1, 2, 3, 4, 4, 4, 4});
}

// ---- Gradients ----

/// x -> forward pooling `forward` (getitem `items` of it when given) -> g = sin(values) ->
/// `backward` (arguments naming %g, %x and %i, the forward's indices): the gradient of a
/// pooling over computed buffers.
std::string gradientGraph(const Tensor &x, const std::string &forward, bool withIndices,
                          const std::string &backward) {
  std::string text = "graph():\n    %x : Tensor \"" + x.typeOf().str() +
                     "\"[num_users=2] = placeholder[target=x]\n";
  text += "    %p : [num_users=2] = call_function[target=" + forward + ")\n";
  if (withIndices) {
    text += "    %v : [num_users=1] = call_function[target=operator.getitem](args = (%p, 0), "
            "kwargs = {})\n";
    text += "    %i : [num_users=1] = call_function[target=operator.getitem](args = (%p, 1), "
            "kwargs = {})\n";
  }
  text +=
      std::string("    %g : [num_users=1] = call_function[target=torch.ops.aten.sin.default](") +
      "args = (" + (withIndices ? "%v" : "%p") + ",), kwargs = {})\n";
  text += "    %r : [num_users=1] = call_function[target=" + backward + ")\n";
  return text + "    return (r,)\n";
}

TEST(PoolingLowering, AdaptiveMaxPoolGradientsAgree) {
  // adaptive_max_pool2d_backward (a composite: scatter_add at the indices over the flattened
  // planes), with overlapping windows whose maxima repeat, contiguous and channels-last.
  Tensor x = random({2, 3, 7, 9}, 15);
  for (const Tensor &in : {x, channelsLast(x)})
    expectBackendsAgree(gradientGraph(in, aten("adaptive_max_pool2d.default", "%x, [3, 4]"), true,
                                      aten("adaptive_max_pool2d_backward.default", "%g, %x, %i")),
                        {in});
  Tensor v = random({2, 2, 5, 4, 7}, 18);
  expectBackendsAgree(gradientGraph(v, aten("adaptive_max_pool3d.default", "%x, [3, 2, 4]"), true,
                                    aten("adaptive_max_pool3d_backward.default", "%g, %x, %i")),
                      {v});
}

TEST(PoolingLowering, PoolingGradientsAgree) {
  Tensor x = random({2, 3, 9, 8}, 30);
  for (const Tensor &in : {x, channelsLast(x)}) {
    for (const char *w :
         {"[3, 3], [2, 2], [1, 1], [1, 1], False", "[2, 2], [2, 2], [0, 0], [1, 1], False",
          "[3, 2], [1, 2], [1, 0], [2, 1], True"})
      expectBackendsAgree(
          gradientGraph(in, aten("max_pool2d_with_indices.default", std::string("%x, ") + w), true,
                        aten("max_pool2d_with_indices_backward.default",
                             std::string("%g, %x, ") + w + ", %i")),
          {in});
    for (const char *w :
         {"[3, 3], [2, 2], [1, 1], False, True, None", "[3, 3], [2, 2], [1, 1], True, False, None",
          "[2, 3], [1, 2], [1, 0], True, True, 5", "[2, 2], [2, 2], [0, 0], False, True, None"})
      expectBackendsAgree(
          gradientGraph(in, aten("avg_pool2d.default", std::string("%x, ") + w), false,
                        aten("avg_pool2d_backward.default", std::string("%g, %x, ") + w)),
          {in});
    for (const char *size : {"[3, 4]", "[1, 1]", "[4, 8]", "[12, 5]"})
      expectBackendsAgree(
          gradientGraph(in, aten("_adaptive_avg_pool2d.default", std::string("%x, ") + size), false,
                        aten("_adaptive_avg_pool2d_backward.default", "%g, %x")),
          {in});
  }
}

// ---- Upsampling ----

TEST(PoolingLowering, UpsampleNearestExactAgrees) {
  // nearest-exact: floor((o + 0.5) * scale), as floor((2p o + p) / 2q) index expressions.
  std::vector<std::string> calls = {
      aten("_upsample_nearest_exact2d.vec", "%x0, [10, 18], None"),
      aten("_upsample_nearest_exact2d.vec", "%x0, [7, 13], None"),
      aten("_upsample_nearest_exact2d.vec", "%x0, [3, 4], None"),
      aten("_upsample_nearest_exact2d.vec", "%x0, None, [2.0, 3.0]"),
      aten("_upsample_nearest_exact2d.vec", "%x0, None, [1.5, 0.7]"),
      aten("_upsample_nearest_exact2d.vec", "%x0, None, [2.3, 1.1]"),
      // The same sizes (5, 9) by scales other than 1, with no shortcut: the last row and column
      // read rows 3 and 7 (4.5 / 1.15, 8.5 / 1.1).
      aten("_upsample_nearest_exact2d.vec", "%x0, None, [1.15, 1.1]"),
  };
  Tensor x = random({2, 3, 5, 9}, 27);
  expectBackendsAgree(graphOf({x}, calls), {x});
  expectBackendsAgree(graphOf({channelsLast(x)}, calls), {channelsLast(x)});
}

TEST(PoolingLowering, UpsampleNearestAgrees) {
  std::vector<std::string> calls = {
      aten("upsample_nearest2d.vec", "%x0, [10, 18], None"), // exact doubling
      aten("upsample_nearest2d.vec", "%x0, [7, 13], None"),  // in / out in float
      aten("upsample_nearest2d.vec", "%x0, [3, 4], None"),   // down-sampling
      aten("upsample_nearest2d.vec", "%x0, None, [2.0, 3.0]"),
      aten("upsample_nearest2d.vec", "%x0, None, [1.5, 0.7]"), // 1 / scale in float
      aten("upsample_nearest2d.vec", "%x0, None, [2.3, 1.1]"),
  };
  Tensor x = random({2, 3, 5, 9}, 25);
  expectBackendsAgree(graphOf({x}, calls), {x});
  expectBackendsAgree(graphOf({channelsLast(x)}, calls), {channelsLast(x)});
  Tensor bytes = levels({1, 3, 5, 9}, 256, DType::UInt8);
  expectBackendsAgree(graphOf({bytes}, calls), {bytes});
  Tensor batch = random({3, 3, 5, 9}, 26);
  expectBackendsAgree(graphOf({batch}, calls, {}, {"f32[s0, 3, 5, 9][135, 45, 9, 1]cpu"}), {batch});
}

TEST(PoolingLowering, UpsampleBilinearAgrees) {
  std::vector<std::string> calls;
  for (const char *align : {"False", "True"}) {
    std::string a = align;
    calls.push_back(aten("upsample_bilinear2d.vec", "%x0, [10, 18], " + a + ", None"));
    calls.push_back(aten("upsample_bilinear2d.vec", "%x0, [7, 13], " + a + ", None"));
    calls.push_back(aten("upsample_bilinear2d.vec", "%x0, [3, 4], " + a + ", None"));
    calls.push_back(aten("upsample_bilinear2d.vec", "%x0, [1, 1], " + a + ", None"));
    calls.push_back(aten("upsample_bilinear2d.vec", "%x0, None, " + a + ", [1.5, 2.3]"));
  }
  Tensor x = random({2, 3, 5, 9}, 27);
  expectBackendsAgree(graphOf({x}, calls), {x});
  expectBackendsAgree(graphOf({channelsLast(x)}, calls), {channelsLast(x)});
  Tensor half = random({1, 2, 5, 9}, 28, DType::Float16);
  expectBackendsAgree(graphOf({half}, calls), {half}, 2e-3);
  Tensor wide = random({1, 2, 5, 9}, 29, DType::Float64);
  expectBackendsAgree(graphOf({wide}, calls), {wide}, 1e-9);
}

TEST(PoolingLowering, UpsampleBicubicAgrees) {
  // upsample_bicubic2d (lowered with the grid sampler's gathers, IndexingLowering.cpp): up and
  // down, one pixel, scales given, both alignments; half and double inputs, channels-last.
  std::vector<std::string> calls;
  for (const char *align : {"False", "True"}) {
    std::string a = align;
    calls.push_back(aten("upsample_bicubic2d.vec", "%x0, [10, 18], " + a + ", None"));
    calls.push_back(aten("upsample_bicubic2d.vec", "%x0, [3, 4], " + a + ", None"));
    calls.push_back(aten("upsample_bicubic2d.vec", "%x0, [1, 1], " + a + ", None"));
    calls.push_back(aten("upsample_bicubic2d.vec", "%x0, None, " + a + ", [1.5, 2.3]"));
  }
  Tensor x = random({2, 3, 5, 9}, 31);
  expectBackendsAgree(graphOf({x}, calls), {x});
  expectBackendsAgree(graphOf({channelsLast(x)}, calls), {channelsLast(x)});
  Tensor half = random({1, 2, 5, 9}, 32, DType::Float16);
  expectBackendsAgree(graphOf({half}, calls), {half}, 2e-3);
  Tensor wide = random({1, 2, 5, 9}, 33, DType::Float64);
  expectBackendsAgree(graphOf({wide}, calls), {wide}, 1e-9);
}

TEST(PoolingLowering, UpsampleValuesByHand) {
  // [[0, 1], [2, 3]] to 3 x 3 with align_corners: the corners, and midpoints in between.
  Tensor x = fromValues({1, 1, 2, 2}, {0, 1, 2, 3});
  InterpretResult r =
      expectBackendsAgree(graphOf({x}, {aten("upsample_bilinear2d.vec", "%x0, [3, 3], True, None"),
                                        aten("upsample_nearest2d.vec", "%x0, [3, 3], None")}),
                          {x});
  expectValues(output(r, 0), {0, 0.5, 1, 1, 1.5, 2, 2, 2.5, 3});
  // Nearest: src = floor(o * 2 / 3) = 0, 0, 1.
  expectValues(output(r, 1), {0, 0, 1, 0, 0, 1, 2, 2, 3});
}

} // namespace
