#pragma once
/// \file Escaping text for HTML and SVG (XML) documents.

#include <string>
#include <string_view>

namespace fxkit {

/// `&`, `<`, `>`, `"` and `'` as entities, so text is safe in element content and in quoted
/// attribute values.
std::string xmlEscape(std::string_view text);

} // namespace fxkit
