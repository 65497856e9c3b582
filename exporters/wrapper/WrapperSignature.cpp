#include "exporters/wrapper/WrapperSignature.h"

#include "ir/Node.h"
#include "ir/wrapper/WrapperDialect.h"

#include <set>

namespace fxkit {

WrapperEntry wrapperEntry(const Graph &wrapper) {
  WrapperEntry entry;
  std::set<std::string, std::less<>> used;
  const Node *n = wrapper.front();
  for (; n && n->op() == OpKind::Placeholder; n = n->next()) {
    std::string name = n->name();
    if (!wrapper::isIdentifier(name) || used.count(name))
      name = (n->value().tensor() ? "arg" : "sym") + std::to_string(entry.params.size());
    used.insert(name);
    entry.params.push_back({n, name});
  }
  for (; n && wrapper::wrapperOpOf(*n) == wrapper::WrapperOp::SymSize && n->value().sym() &&
         n->args().items().size() == 2 && n->args().items()[0].isNode() &&
         n->args().items()[0].asNode()->op() == OpKind::Placeholder;
       n = n->next())
    entry.inputSizes.push_back(n);
  entry.body = n;
  return entry;
}

std::vector<size_t> externLaunches(const loop::FusedProgram &fused) {
  std::vector<size_t> launches;
  for (size_t i = 0; i < fused.kernels.size(); ++i)
    if (fused.kernels[i].isExtern)
      launches.push_back(i);
  return launches;
}

} // namespace fxkit
