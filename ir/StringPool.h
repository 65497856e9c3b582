#pragma once
/// \file Interned strings: op targets, Python type names and string arguments repeat across
/// millions of nodes, so each distinct spelling is stored once for the life of the process.

#include <string_view>

namespace fxkit {

/// Returns a view whose storage lives until exit; equal inputs return the same pointer.
std::string_view intern(std::string_view text);

} // namespace fxkit
