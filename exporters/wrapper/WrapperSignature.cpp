#include "exporters/wrapper/WrapperSignature.h"

#include <cctype>
#include <set>

namespace fxkit {

bool isIdentifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
    return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

std::vector<WrapperParam> wrapperSignature(const loop::LoopProgram &p) {
  std::vector<WrapperParam> params;
  std::set<std::string, std::less<>> used;
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    int32_t b = p.inputs[i];
    std::string name = b >= 0 ? p.buffers[b].name : p.inputSymbols[i];
    if (!isIdentifier(name) || used.count(name))
      name = (b >= 0 ? "arg" : "sym") + std::to_string(i);
    used.insert(name);
    params.push_back({name, b});
  }
  return params;
}

} // namespace fxkit
