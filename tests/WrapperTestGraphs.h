#pragma once
/// \file Small graphs the wrapper writers' tests share (FX text).

#include <string_view>

namespace fxkit::testgraphs {

/// A row reduction feeding pointwise ops: relu(x / sum(x, 1)), one fused reduction kernel.
inline constexpr std::string_view kSumDivRelu = R"(graph():
    %arg0_1 : Tensor "f32[4, 8][8, 1]cpu"[num_users=2] = placeholder[target=arg0_1]
    %sum_1 : Tensor "f32[4, 1][1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%arg0_1, [1], True), kwargs = {})
    %div : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%arg0_1, %sum_1), kwargs = {})
    %relu : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%div,), kwargs = {})
    return (relu,))";

} // namespace fxkit::testgraphs
