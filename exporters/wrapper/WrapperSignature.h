#pragma once
/// \file The parameters of a compiled program's entry point, shared by every wrapper flavour
/// (as PyTorch split `_write_wrapper_signature` out of its wrapper generators): one per graph
/// input, in order, a tensor buffer or an integer that binds a size symbol.

#include "ir/loop/LoopIR.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

struct WrapperParam {
  std::string name;    ///< a unique identifier: the input's name, or the symbol it binds
  int32_t buffer = -1; ///< the input's buffer; -1 for an integer input
};

/// The entry point's parameters of `program`.
std::vector<WrapperParam> wrapperSignature(const loop::LoopProgram &program);

/// Whether `s` is a Python and C++ identifier (letters, digits, underscores, not a digit first).
bool isIdentifier(std::string_view s);

} // namespace fxkit
