#pragma once
/// \file Reader for fxkit's JSON exchange format (docs/json-format.md).

#include "ir/Error.h"
#include "ir/Graph.h"

#include <string>
#include <string_view>

namespace fxkit {

Expected<Graph> parseFxkitJson(std::string_view text, const std::string &fileName = "<input>");

} // namespace fxkit
