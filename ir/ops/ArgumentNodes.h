#pragma once
/// \file The nodes a call's arguments refer to, in schema order, with those inside list
/// arguments (`cat([%a, %b])`) in place: the order extern ops list their tensor inputs.

#include "ir/ops/OpRegistry.h"

#include <vector>

namespace fxkit {

/// Nodes among the bound arguments and the items of list/tuple arguments, in order.
inline std::vector<const Node *> argumentNodes(const BoundArgs &args) {
  std::vector<const Node *> out;
  for (size_t i = 0; i < args.size(); ++i) {
    const Argument &a = args.at(i);
    if (a.isNode())
      out.push_back(a.asNode());
    else if (a.kind() == Argument::Kind::List || a.kind() == Argument::Kind::Tuple)
      for (const Argument &item : a.items())
        if (item.isNode())
          out.push_back(item.asNode());
  }
  return out;
}

} // namespace fxkit
