#include "exporters/wrapper/WrapperSignature.h"

#include "ir/wrapper/WrapperDialect.h"

#include <set>

namespace fxkit {

std::vector<WrapperParam> wrapperSignature(const loop::LoopProgram &p) {
  std::vector<WrapperParam> params;
  std::set<std::string, std::less<>> used;
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    int32_t b = p.inputs[i];
    std::string name = b >= 0 ? p.buffers[b].name : p.inputSymbols[i];
    if (!wrapper::isIdentifier(name) || used.count(name))
      name = (b >= 0 ? "arg" : "sym") + std::to_string(i);
    used.insert(name);
    params.push_back({name, b});
  }
  return params;
}

LaunchWrites launchWrites(const loop::LoopProgram &p, const loop::Kernel &k) {
  LaunchWrites w;
  w.buffers = k.outputs;
  if (!k.isExtern)
    return w;
  const loop::LoopOp &op = p.ops[k.ops.front()];
  for (int32_t b : op.externOutputs)
    if (b >= 0)
      w.buffers.push_back(b);
  for (size_t i = 0; i < op.externOutputs.size(); ++i)
    if (op.externOutputs[i] >= 0 && op.definesSizeOf(i))
      w.sizedByCall.insert(op.externOutputs[i]);
  return w;
}

} // namespace fxkit
