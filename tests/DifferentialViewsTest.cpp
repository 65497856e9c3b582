/// Ops that move data without computing. The view ops AOT graphs use (transpose.int, t, detach,
/// diagonal): values by hand through the reference interpreter, and every backend against it
/// (the lowering folds each view into the index expressions of its readers, diagonal with its
/// storage offset). Padding, flip, repeat, slice_scatter and select_scatter: every backend
/// against the reference kernels (the lowering makes one pointwise op of moved, masked loads).

#include "InterpreterTestSupport.h"
#include "tests/gen/Differential.h"

#include <gtest/gtest.h>

using namespace fxkit;
using namespace fxkit::testing;

namespace {

/// A graph reading view `call` of x (f32[3, 4, 5]) through a multiplication.
std::string viewGraph(const std::string &call) {
  return R"(graph():
    %x : Tensor "f32[3, 4, 5][20, 5, 1]cpu"[num_users=1] = placeholder[target=x]
    %v : [num_users=1] = call_function[target=)" +
         call + R"()
    %r : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%v, %v), kwargs = {})
    return (r,)
)";
}

TEST(DifferentialViews, EveryBackendAgrees) {
  const char *calls[] = {
      "torch.ops.aten.transpose.int](args = (%x, 0, 2), kwargs = {}",
      "torch.ops.aten.transpose.int](args = (%x, -1, 1), kwargs = {}",
      "torch.ops.aten.detach.default](args = (%x,), kwargs = {}",
      "torch.ops.aten.diagonal.default](args = (%x,), kwargs = {}",
      "torch.ops.aten.diagonal.default](args = (%x, 1, 1, 2), kwargs = {}",
      "torch.ops.aten.diagonal.default](args = (%x, -2, 2, 0), kwargs = {}",
      "torch.ops.aten.diagonal.default](args = (%x, 7, 1, 2), kwargs = {}",
  };
  for (const char *call : calls) {
    std::string text = viewGraph(call);
    SCOPED_TRACE(text);
    auto failure = checkGraphDifferentially(text, {});
    EXPECT_FALSE(failure) << diffStageName(failure->stage) << ": " << failure->message;
  }
  std::string t = R"(graph():
    %m : Tensor "f32[3, 4][4, 1]cpu"[num_users=1] = placeholder[target=m]
    %v : [num_users=1] = call_function[target=torch.ops.aten.t.default](args = (%m,), kwargs = {})
    %r : [num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%v,), kwargs = {})
    return (r,)
)";
  auto failure = checkGraphDifferentially(t, {});
  EXPECT_FALSE(failure) << diffStageName(failure->stage) << ": " << failure->message;
}

TEST(DifferentialViews, DtypeViewsAgree) {
  // view.dtype to another element size or type: the reference kernel's view as an extern call
  // on compiled backends, its bits then read by a loop kernel.
  for (const char *dtype : {"torch.int32", "torch.uint8", "torch.int16"}) {
    std::string text = std::string(R"(graph():
    %x : Tensor "f32[3, 4, 5][20, 5, 1]cpu"[num_users=1] = placeholder[target=x]
    %v : [num_users=1] = call_function[target=torch.ops.aten.view.dtype](args = (%x, )") +
                       dtype + R"(), kwargs = {})
    %r : [num_users=1] = call_function[target=torch.ops.aten.bitwise_and.Scalar](args = (%v, 1023), kwargs = {})
    return (r,)
)";
    SCOPED_TRACE(text);
    auto failure = checkGraphDifferentially(text, {});
    EXPECT_FALSE(failure) << diffStageName(failure->stage) << ": " << failure->message;
  }
}

/// For each `call` v (a call_function target and its arguments) over x (f32[3, 4, 5]) and the
/// `others` placeholders, every backend agrees with the reference interpreter on v * v.
void expectEveryBackendAgrees(const std::string &others,
                              std::initializer_list<const char *> calls) {
  for (const char *call : calls) {
    std::string text = std::string(R"(graph():
    %x : Tensor "f32[3, 4, 5][20, 5, 1]cpu"[num_users=1] = placeholder[target=x]
)") + others +
                       "    %v : [num_users=1] = call_function[target=" + call + R"()
    %r : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%v, %v), kwargs = {})
    return (r,)
)";
    SCOPED_TRACE(text);
    auto failure = checkGraphDifferentially(text, {});
    EXPECT_FALSE(failure) << diffStageName(failure->stage) << ": " << failure->message;
  }
}

TEST(DifferentialViews, AsStridedScatterAgrees) {
  // as_strided_scatter lowers to a copy of self and a scattering store at the view's positions
  // (positions without overlap: which of several writes lands is the device's choice), from a
  // src of another dtype.
  expectEveryBackendAgrees(
      R"(    %s : Tensor "f64[3, 4][4, 1]cpu"[num_users=1] = placeholder[target=s]
)",
      {
          "torch.ops.aten.as_strided_scatter.default](args = (%x, %s, [3, 4], [20, 2], 1), "
          "kwargs = {}",
          "torch.ops.aten.as_strided_scatter.default](args = (%x, %s, [3, 4], [1, 15], 3), "
          "kwargs = {}",
          "torch.ops.aten.as_strided_scatter.default](args = (%x, %s, [3, 4], [4, 1]), kwargs = {}",
      });
}

TEST(DifferentialViews, RearrangementsLowerToLoopsThatAgree) {
  expectEveryBackendAgrees(
      R"(    %s1 : Tensor "f32[3, 3, 5][15, 5, 1]cpu"[num_users=1] = placeholder[target=s1]
    %s2 : Tensor "f32[3, 4, 3][12, 3, 1]cpu"[num_users=1] = placeholder[target=s2]
    %s3 : Tensor "f32[4, 5][1, 4]cpu"[num_users=1] = placeholder[target=s3]
)",
      {
          "torch.ops.aten.flip.default](args = (%x, [0, -1]), kwargs = {}",
          "torch.ops.aten.repeat.default](args = (%x, [2, 1, 3, 2]), kwargs = {}",
          "torch.ops.aten.constant_pad_nd.default](args = (%x, [1, 2, 0, 3]), kwargs = {}",
          "torch.ops.aten.constant_pad_nd.default](args = (%x, [-1, 2, 1, -2], 1.5), kwargs = {}",
          "torch.ops.aten.slice_scatter.default](args = (%x, %s1, 1, 1, 4), kwargs = {}",
          "torch.ops.aten.slice_scatter.default](args = (%x, %s2, 2, 0, 5, 2), kwargs = {}",
          "torch.ops.aten.slice_scatter.default](args = (%x, %s2, -1, -5, None, 2), kwargs = {}",
          "torch.ops.aten.select_scatter.default](args = (%x, %s3, 0, -1), kwargs = {}",
      });
}

TEST(DifferentialViews, DiagonalValuesByHand) {
  // m = [[0, 1, 2], [3, 4, 5]]: diagonal 0 is [0, 4], 1 is [1, 5], -1 is [3], 5 is empty.
  Tensor m = fromValues({2, 3}, {0, 1, 2, 3, 4, 5});
  auto diag = [&](const std::string &args) {
    return runSingle(
        oneOpGraph({"a"}, "torch.ops.aten.diagonal.default](args = (%a" + args + "), kwargs = {})"),
        {m});
  };
  expectValues(diag(""), {0, 4});
  expectValues(diag(", 1"), {1, 5});
  expectValues(diag(", -1"), {3});
  EXPECT_EQ(diag(", 5").numel(), 0);
  // Dims reversed: the diagonal of the transpose.
  expectValues(diag(", 1, 1, 0"), {3});
  Tensor t = runSingle(
      oneOpGraph({"a"}, "torch.ops.aten.transpose.int](args = (%a, 0, 1), kwargs = {})"), {m});
  EXPECT_EQ(t.sizes(), (std::vector<int64_t>{3, 2}));
  expectValues(t, {0, 3, 1, 4, 2, 5});
}

TEST(DifferentialViews, SymIsContiguousAsksTheLayout) {
  Tensor m = fromValues({2, 3}, {0, 1, 2, 3, 4, 5});
  auto ask = [&](const Tensor &t, const std::string &format) {
    auto r = runText(oneOpGraph({"a"}, "torch.ops.aten.sym_is_contiguous.default](args = (%a" +
                                           format + "), kwargs = {})"),
                     {RuntimeValue{t}});
    EXPECT_TRUE(r) << (r ? "" : r.error().str());
    const bool *b = r ? std::get_if<bool>(&r->outputs[0].v) : nullptr;
    return b && *b;
  };
  EXPECT_TRUE(ask(m, ""));
  EXPECT_FALSE(ask(permuted(m, {1, 0}), ""));
  // NHWC data seen as NCHW: strides [8, 1, 4, 2] are channels-last, not contiguous.
  Tensor nhwc = fromValues({1, 2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  Tensor cl = permuted(nhwc, {0, 3, 1, 2});
  EXPECT_EQ(cl.strides(), (std::vector<int64_t>{8, 1, 4, 2}));
  EXPECT_TRUE(ask(cl, ", torch.channels_last"));
  EXPECT_FALSE(ask(cl, ""));
  EXPECT_FALSE(ask(m, ", torch.channels_last"));
}

} // namespace
