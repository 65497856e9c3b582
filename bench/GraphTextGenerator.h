#pragma once
/// \file Generates realistic FX graph text of any size for benchmarks: the op mix of a
/// transformer MLP block (addmm, permute, var_mean + getitem, rsqrt, mul/add, erf).

#include <string>

namespace fxkit::bench {

inline std::string generateFxText(size_t targetNodes) {
  std::string out = "graph():\n";
  out.reserve(targetNodes * 130);
  // 4 placeholders, blocks of 8 nodes, the output: num_users printed as FX would.
  const size_t blocks = targetNodes > 13 ? (targetNodes - 5) / 8 : 1;
  const size_t users[4] = {1, blocks, blocks, 0};
  for (int i = 0; i < 4; ++i)
    out += "    %arg" + std::to_string(i) + "_1 : [num_users=" + std::to_string(users[i]) +
           "] = placeholder[target=arg" + std::to_string(i) + "_1]\n";
  std::string prev = "arg0_1";
  size_t n = 4;
  size_t block = 0;
  auto emit = [&](const std::string &name, const std::string &target, const std::string &args,
                  const std::string &kwargs = "{}") {
    out += "    %" + name + " : [num_users=1] = call_function[target=" + target + "](args = (" +
           args + "), kwargs = " + kwargs + ")\n";
    ++n;
  };
  while (block < blocks) {
    std::string b = std::to_string(block++);
    emit("permute_" + b, "torch.ops.aten.permute.default", "%arg1_1, [1, 0]");
    emit("addmm_" + b, "torch.ops.aten.addmm.default", "%arg2_1, %" + prev + ", %permute_" + b);
    emit("var_mean_" + b, "torch.ops.aten.var_mean.correction", "%addmm_" + b + ", [1]",
         "{correction: 0, keepdim: True}");
    emit("getitem_" + b, "operator.getitem", "%var_mean_" + b + ", 0");
    emit("add_" + b, "torch.ops.aten.add.Tensor", "%getitem_" + b + ", 1e-05");
    emit("rsqrt_" + b, "torch.ops.aten.rsqrt.default", "%add_" + b + ",");
    emit("mul_" + b, "torch.ops.aten.mul.Tensor", "%rsqrt_" + b + ", 0.7071067811865476");
    emit("erf_" + b, "torch.ops.aten.erf.default", "%mul_" + b + ",");
    prev = "erf_" + b;
  }
  out += "    return (" + prev + ",)";
  return out;
}

} // namespace fxkit::bench
