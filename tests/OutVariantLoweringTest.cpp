/// out= variants (a keyword-only `out` the op writes and returns) compile as their functional
/// form when nothing else reads `out`, and agree with the reference interpreter on every
/// backend; one whose `out` is read elsewhere is refused with the reason.

#include "InterpreterTestSupport.h"
#include "tests/gen/Differential.h"
#include "transforms/Lowering.h"

#include <gtest/gtest.h>

using namespace fxkit;
using namespace fxkit::testing;

namespace {

TEST(OutVariantLowering, CompilesWhereOutIsPrivate) {
  const char *texts[] = {
      R"(graph():
    %x : Tensor "f32[4, 3][3, 1]cpu"[num_users=1] = placeholder[target=x]
    %y : Tensor "f32[4, 3][3, 1]cpu"[num_users=1] = placeholder[target=y]
    %o : Tensor "f32[4, 3][3, 1]cpu"[num_users=1] = placeholder[target=o]
    %a : [num_users=1] = call_function[target=torch.ops.aten.atan2.out](args = (%x, %y), kwargs = {out: %o})
    return (a,)
)",
      R"(graph():
    %x : Tensor "f32[4, 3][3, 1]cpu"[num_users=1] = placeholder[target=x]
    %y : Tensor "f32[3, 5][5, 1]cpu"[num_users=1] = placeholder[target=y]
    %o : Tensor "f32[4, 5][5, 1]cpu"[num_users=1] = placeholder[target=o]
    %a : [num_users=1] = call_function[target=torch.ops.aten.mm.out](args = (%x, %y), kwargs = {out: %o})
    return (a,)
)"};
  for (const char *text : texts) {
    SCOPED_TRACE(text);
    DifferentialOptions options;
    options.llvm = true;
    auto failure = checkGraphDifferentially(text, {}, options);
    EXPECT_FALSE(failure) << diffStageName(failure->stage) << ": " << failure->message;
  }
}

TEST(OutVariantLowering, RefusedWhereOutIsReadElsewhere) {
  auto graph = parseFxText(R"(graph():
    %x : Tensor "f32[4][1]cpu"[num_users=1] = placeholder[target=x]
    %y : Tensor "f32[4][1]cpu"[num_users=1] = placeholder[target=y]
    %o : Tensor "f32[4][1]cpu"[num_users=2] = placeholder[target=o]
    %a : [num_users=1] = call_function[target=torch.ops.aten.atan2.out](args = (%x, %y), kwargs = {out: %o})
    %b : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%a, %o), kwargs = {})
    return (b,)
)",
                           "<test>");
  ASSERT_TRUE(graph);
  ASSERT_TRUE(inferShapes(*graph));
  auto program = lowerGraph(*graph);
  ASSERT_FALSE(program);
  EXPECT_NE(program.error().message.find("also read elsewhere"), std::string::npos)
      << program.error().message;
}

} // namespace
