#pragma once
/// \file The parameters of a compiled program's entry point, shared by every wrapper flavour
/// (as PyTorch split `_write_wrapper_signature` out of its wrapper generators): one per graph
/// input, in order, a tensor buffer or an integer that binds a size symbol.

#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace fxkit {

struct WrapperParam {
  std::string name;    ///< a unique identifier: the input's name, or the symbol it binds
  int32_t buffer = -1; ///< the input's buffer; -1 for an integer input
};

/// The entry point's parameters of `program`.
std::vector<WrapperParam> wrapperSignature(const loop::LoopProgram &program);

/// The buffers launch `kernel` writes, in order, and which of them a call sizes (an extern
/// output sized by a symbol the call binds: allocated or uploaded after the call, not before).
struct LaunchWrites {
  std::vector<int32_t> buffers;
  std::set<int32_t> sizedByCall;
};
LaunchWrites launchWrites(const loop::LoopProgram &program, const loop::Kernel &kernel);

} // namespace fxkit
