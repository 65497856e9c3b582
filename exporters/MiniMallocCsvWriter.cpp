#include "exporters/MiniMallocCsvWriter.h"

#include <cassert>
#include <charconv>

namespace fxkit {

std::string printMiniMallocCsv(std::span<const BufferLifetime> buffers,
                               std::span<const int64_t> offsets,
                               std::span<const std::string> names) {
  assert(buffers.size() == offsets.size() && "one offset per buffer");
  assert((names.empty() || names.size() == buffers.size()) && "one name per buffer");
  std::string out = "id,lower,upper,size,offset\n";
  out.reserve(out.size() + buffers.size() * 40);
  char buf[24];
  auto put = [&](int64_t v, char sep) {
    char *end = std::to_chars(buf, buf + sizeof buf, v).ptr;
    out.append(buf, end);
    out.push_back(sep);
  };
  for (size_t i = 0; i < buffers.size(); ++i) {
    const BufferLifetime &b = buffers[i];
    if (names.empty()) {
      put(b.id, ',');
    } else {
      out += names[i];
      out.push_back(',');
    }
    put(b.lower, ',');
    put(b.upper, ',');
    put(b.size, ',');
    put(offsets[i], '\n');
  }
  return out;
}

} // namespace fxkit
