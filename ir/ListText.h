#pragma once
/// \file A list printed as text: the one loop behind "[a, b, c]" in the printers (fusion
/// signatures and reasons, the report viewer's JSON columns), so that each says only how an
/// item is spelled.

#include <cstddef>
#include <string>
#include <string_view>

namespace fxkit {

/// Appends `open`, the items of `items` with `separator` between them, each appended by
/// `print(out, item)`, then `close`.
template <typename Range, typename Print>
void appendList(std::string &out, const Range &items, std::string_view separator, Print print,
                char open = '[', char close = ']') {
  out += open;
  bool first = true;
  for (const auto &item : items) {
    if (!first)
      out += separator;
    first = false;
    print(out, item);
  }
  out += close;
}

} // namespace fxkit
