#include "ir/Verifier.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace fxkit {

Status verifyGraph(const Graph &graph) {
  std::unordered_map<const Node *, size_t> position;
  std::unordered_set<std::string_view> names;
  size_t outputs = 0;
  size_t index = 0;
  bool seenNonPlaceholder = false;
  for (Node *n : graph) {
    auto fail = [n](const std::string &msg) {
      return Status(Error("node '" + n->name() + "': " + msg));
    };
    if (n->graph() != &graph)
      return fail("belongs to another graph");
    if (!names.insert(n->name()).second)
      return fail("name defined twice");
    if (graph.find(n->name()) != n)
      return fail("name index out of date");
    if (n->op() == OpKind::Placeholder && seenNonPlaceholder)
      return fail("placeholder after a non-placeholder node");
    if (n->op() != OpKind::Placeholder)
      seenNonPlaceholder = true;
    if (n->op() == OpKind::Output) {
      ++outputs;
      if (n != graph.back())
        return fail("output node is not the last node");
    }
    for (Node *input : n->inputs()) {
      auto it = position.find(input);
      if (it == position.end())
        return fail("uses '" + input->name() + "' before it is defined");
      const auto &users = input->users();
      if (std::find(users.begin(), users.end(), n) == users.end())
        return fail("missing from the users of its input '" + input->name() + "'");
    }
    for (Node *user : n->users()) {
      auto ins = user->inputs();
      if (std::find(ins.begin(), ins.end(), n) == ins.end())
        return fail("lists user '" + user->name() + "' that does not use it");
    }
    std::unordered_set<const Node *> seenUsers;
    for (Node *user : n->users())
      if (!seenUsers.insert(user).second)
        return fail("lists user '" + user->name() + "' twice");
    position.emplace(n, index++);
  }
  if (outputs != 1)
    return Status(Error("graph has " + std::to_string(outputs) + " output nodes, expected 1"));
  return Status::ok();
}

} // namespace fxkit
