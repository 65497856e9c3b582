/// The view ops AOT graphs use (transpose.int, t, detach, diagonal): values by hand through the
/// reference interpreter, and every backend against it (the lowering folds each view into the
/// index expressions of its readers, diagonal with its storage offset).

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

} // namespace
