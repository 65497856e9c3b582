/// _cdist_forward and _pdist_forward lower to a reduction over the columns and a root
/// (transforms/lowering/DistanceLowering.cpp): every p form (0, 1, 2, inf, fractional) agrees
/// with the reference kernels on the loop interpreter, OpenCL and LLVM, with broadcast batches,
/// a transposed input and a NaN; pdist's pair order is checked by hand.

#include "CompileTestSupport.h"
#include "InterpreterTestSupport.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace fxkit;
using namespace fxkit::testing;

namespace {

Tensor ramp(std::vector<int64_t> sizes, double scale) {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i)
    v.push_back(std::sin(static_cast<double>(i) * scale) * 2);
  return fromValues(std::move(sizes), v);
}

void expectAgrees(const std::string &text, const std::vector<RuntimeValue> &inputs) {
  SCOPED_TRACE(text);
  expectLowersToLoops(text);
  DifferentialOptions options;
  options.inputs = &inputs;
  options.llvm = true;
  auto failure = checkGraphDifferentially(text, {}, options);
  EXPECT_FALSE(failure) << diffStageName(failure->stage) << ": " << failure->message;
}

TEST(DistanceLowering, CdistEveryPAndBroadcastBatches) {
  Tensor x1 = ramp({2, 3, 4}, 0.7);
  x1.setDouble(std::vector<int64_t>{1, 2, 3}, NAN);
  for (const char *p : {"0.0", "1.0", "2.0", "inf", "1.5"}) {
    std::string text = std::string(R"(graph():
    %a : Tensor "f32[2, 3, 4][12, 4, 1]cpu"[num_users=1] = placeholder[target=a]
    %b : Tensor "f32[1, 5, 4][20, 4, 1]cpu"[num_users=1] = placeholder[target=b]
    %r : [num_users=1] = call_function[target=torch.ops.aten._cdist_forward.default](args = (%a, %b, )") +
                       p + R"(, None), kwargs = {})
    return (r,)
)";
    expectAgrees(text, {RuntimeValue{x1}, RuntimeValue{ramp({1, 5, 4}, 1.3)}});
  }
}

TEST(DistanceLowering, PdistPairsInRowMajorOrder) {
  for (const char *p : {"2.0", "1.0", "inf", "0.0", "3.0"}) {
    std::string text = std::string(R"(graph():
    %a : Tensor "f32[5, 3][3, 1]cpu"[num_users=1] = placeholder[target=a]
    %r : [num_users=1] = call_function[target=torch.ops.aten._pdist_forward.default](args = (%a, )") +
                       p + R"(), kwargs = {})
    return (r,)
)";
    expectAgrees(text, {RuntimeValue{ramp({5, 3}, 0.9)}});
  }
  // By hand: rows 0..2 of [[0, 0], [3, 4], [6, 8]]: pairs (0,1), (0,2), (1,2) = 5, 10, 5.
  std::string text = R"(graph():
    %a : Tensor "f32[3, 2][2, 1]cpu"[num_users=1] = placeholder[target=a]
    %r : [num_users=1] = call_function[target=torch.ops.aten._pdist_forward.default](args = (%a,), kwargs = {})
    return (r,)
)";
  Tensor rows = fromValues({3, 2}, {0, 0, 3, 4, 6, 8});
  expectAgrees(text, {RuntimeValue{rows}});
  expectValues(runSingle(text, {rows}), {5, 10, 5});
}

} // namespace
