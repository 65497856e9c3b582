#pragma once
/// \file The tensor types a node's value holds, in result order: what a reduction lowers its
/// results into (transforms/Lowering.cpp and lowering/ReductionLowering.cpp).

#include "ir/Node.h"
#include "ir/TensorType.h"

#include <vector>

namespace fxkit {

/// The node's tensor, or each of its tensors (a tuple value); empty for any other value.
inline std::vector<TensorType> tensorResults(const Node &n) {
  std::vector<TensorType> outs;
  if (const TensorType *t = n.value().tensor())
    outs.push_back(*t);
  else if (const auto *ts = n.value().tensors())
    for (const auto &t : *ts)
      outs.push_back(*t);
  return outs;
}

} // namespace fxkit
