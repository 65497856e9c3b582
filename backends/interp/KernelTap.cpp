#include "backends/interp/KernelTap.h"

#include "backends/interp/ExternLoopOp.h"
#include "ir/FaultInjection.h"

#include <algorithm>
#include <optional>

namespace fxkit {

std::vector<int32_t> kernelWrittenBuffers(const loop::LoopProgram &program, const loop::Kernel &k) {
  if (!k.isExtern)
    return k.outputs;
  const loop::LoopOp &op = program.ops[k.ops.front()];
  std::vector<int32_t> out = mutatedBuffers(op);
  for (int32_t b : op.externOutputs)
    if (b >= 0 && std::find(out.begin(), out.end(), b) == out.end())
      out.push_back(b);
  return out;
}

namespace {

/// "fused_add_relu_3" -> "fused_add_relu"; other names unchanged.
std::string withoutCounter(const std::string &name) {
  size_t us = name.rfind('_');
  if (us == std::string::npos || us + 1 == name.size())
    return name;
  for (size_t i = us + 1; i < name.size(); ++i)
    if (name[i] < '0' || name[i] > '9')
      return name;
  return name.substr(0, us);
}

/// The kernel corrupt-kernel:K picks in `fused`, or -1.
int64_t corruptedKernel(const loop::FusedProgram &fused, const std::string &k) {
  for (size_t i = 0; i < fused.kernels.size(); ++i) {
    const loop::Kernel &kernel = fused.kernels[i];
    if (kernel.isExtern)
      continue;
    if (k == std::to_string(i) || k == kernel.name || k == withoutCounter(kernel.name))
      return static_cast<int64_t>(i);
  }
  return -1;
}

} // namespace

bool kernelCorruptionInjected(const loop::FusedProgram &fused, size_t index) {
  static const std::optional<std::string> k = faultArgument("corrupt-kernel");
  if (!k)
    return false;
  return corruptedKernel(fused, *k) == static_cast<int64_t>(index);
}

void corruptTensor(Tensor &t) {
  if (t.dtype() == DType::Complex64 || t.dtype() == DType::Complex128)
    return;
  const bool isBool = t.dtype() == DType::Bool;
  const bool floating = dtypeIsFloating(t.dtype());
  Tensor::forEachIndex(t.sizes(), [&](std::span<const int64_t> idx) {
    if (floating)
      t.setDouble(idx, t.getDouble(idx) + 1);
    else if (isBool)
      t.setInt(idx, t.getInt(idx) ? 0 : 1);
    else
      t.setInt(idx, t.getInt(idx) + 1);
  });
}

} // namespace fxkit
