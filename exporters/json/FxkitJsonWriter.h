#pragma once
/// \file Writer for fxkit's JSON exchange format (docs/json-format.md).

#include "ir/Graph.h"

#include <string>

namespace fxkit {

std::string printFxkitJson(const Graph &graph);

} // namespace fxkit
