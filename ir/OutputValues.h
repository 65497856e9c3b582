#pragma once
/// \file What an output node returns, as a list: FX prints `return (a, b)` as a tuple and a
/// bare `return a` as one value; every consumer wants the elements.

#include "ir/Node.h"

#include <vector>

namespace fxkit {

/// The values `output` returns, in order (empty when it returns nothing).
inline std::vector<Argument> returnedValues(const Node &output) {
  const std::vector<Argument> &args = output.args().items();
  if (args.empty())
    return {};
  if (args[0].isContainer())
    return args[0].items();
  return {args[0]};
}

} // namespace fxkit
