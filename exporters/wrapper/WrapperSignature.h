#pragma once
/// \file The entry point of a compiled program as its wrapper graph declares it, shared by every
/// wrapper flavour (as PyTorch split `_write_wrapper_signature` out of its wrapper generators):
/// one parameter per input placeholder, in order, a tensor or an integer that binds a size
/// symbol; then the sizes of tensor inputs that bind the other symbols.

#include "ir/Graph.h"
#include "ir/loop/Kernel.h"

#include <string>
#include <vector>

namespace fxkit {

struct WrapperParam {
  const Node *node = nullptr; ///< the placeholder: typed as a tensor, or a size (Sym value)
  std::string name;           ///< a unique identifier: the input's name, or argN / symN
};

struct WrapperEntry {
  std::vector<WrapperParam> params;
  std::vector<const Node *> inputSizes; ///< sym_size nodes of inputs, each binding a symbol
  const Node *body = nullptr;           ///< the first node of the program after them
};

/// The entry point of `wrapper` (a graph the wrapper pass built, transforms/WrapperGraph.h).
WrapperEntry wrapperEntry(const Graph &wrapper);

/// The index in `fused.kernels` of each extern launch, in order: the wrapper graph's extern
/// calls come in launch order, and the loop op of each gives the ATen call it makes.
std::vector<size_t> externLaunches(const loop::FusedProgram &fused);

} // namespace fxkit
