#include "ir/Verifier.h"

#include <algorithm>

namespace fxkit {

Status verifyGraph(const Graph &graph) {
  // Linear in nodes + edges with no hash maps: program order goes into each node's scratch
  // slot (graphs can have millions of nodes).
  auto fail = [](const Node *n, const std::string &msg) {
    return Status(Error("node '" + n->name() + "': " + msg));
  };
  uint32_t index = 0;
  for (Node *n : graph) {
    if (n->graph() != &graph)
      return fail(n, "belongs to another graph");
    n->scratch() = ++index;
  }
  size_t outputs = 0;
  size_t edges = 0;
  size_t listed = 0; // users listed, counted in the main loop (a third walk over the nodes was
                     // a fifth of the verifier on large graphs: every node is a cache miss)
  std::vector<Node *> inputs;
  // The inputs of nodes with many of them, sorted, found through a slot per node (program
  // order): a node is checked against each user it lists, and scanning the arguments of a user
  // with thousands of inputs (the output node of a graph with thousands of outputs) for every one
  // of them was quadratic.
  constexpr size_t kManyInputs = 16;
  std::vector<int32_t> sortedSlot(index + 1, -1);
  std::vector<std::vector<const Node *>> sortedInputs;
  std::vector<const Node *> userInputs;
  auto uses = [&](Node *user, const Node *x) {
    int32_t &slot = sortedSlot[user->scratch()];
    if (slot < 0) {
      // Most users have a few inputs: scanned in place, the keyword arguments only when the
      // positional ones lack `x` (collecting every user's inputs first, and sorting every
      // node's inputs below, made the verifier 12% slower on bench/pipeline_bench's graphs).
      size_t count = 0;
      bool found = false;
      auto check = [&](Node *y) {
        found = found || y == x;
        ++count;
      };
      user->args().forEachNode(check);
      if (found && count <= kManyInputs)
        return true;
      user->kwargs().forEachNode(check);
      if (count <= kManyInputs)
        return found;
      userInputs.clear();
      auto collect = [&](Node *y) { userInputs.push_back(y); };
      user->args().forEachNode(collect);
      user->kwargs().forEachNode(collect);
      std::sort(userInputs.begin(), userInputs.end());
      slot = static_cast<int32_t>(sortedInputs.size());
      sortedInputs.push_back(userInputs);
    }
    const std::vector<const Node *> &sorted = sortedInputs[slot];
    return std::binary_search(sorted.begin(), sorted.end(), x);
  };
  // The name index is checked as a whole; only when that fails is each node looked up, to
  // name the one at fault (a lookup per node was a tenth of the verifier's time).
  if (!graph.nameIndexMatchesNodes()) {
    for (Node *n : graph)
      if (graph.find(n->name()) != n)
        return fail(n, "name defined twice or missing from the name index");
    return Status(Error("the name index lists nodes that are not in the graph"));
  }
  for (Node *n : graph) {
    if (n->op() == OpKind::Output) {
      ++outputs;
      if (n != graph.back())
        return fail(n, "output node is not the last node");
    }
    inputs.clear();
    Status bad;
    auto visit = [&](Node *input) {
      if (!bad)
        return; // report the first problem only
      if (input->graph() != &graph)
        bad = fail(n, "uses '" + input->name() + "' of another graph");
      else if (input->scratch() >= n->scratch())
        bad = fail(n, "uses '" + input->name() + "' before it is defined");
      else if (inputs.size() > kManyInputs ||
               std::find(inputs.begin(), inputs.end(), input) == inputs.end())
        inputs.push_back(input);
    };
    n->args().forEachNode(visit);
    n->kwargs().forEachNode(visit);
    if (!bad)
      return bad;
    // Distinct inputs: a few are searched as they come, many are sorted once (thousands for an
    // output node).
    if (inputs.size() > kManyInputs) {
      std::sort(inputs.begin(), inputs.end());
      inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
    }
    edges += inputs.size();
    const auto &users = n->users();
    listed += users.size();
    for (Node *user : users) {
      if (user->graph() != &graph || user->scratch() <= n->scratch())
        return fail(n, "lists user '" + user->name() + "' that does not come after it");
      if (!uses(user, n))
        return fail(n, "lists user '" + user->name() + "' that does not use it");
    }
    if (users.size() == 2 && users[0] == users[1])
      return fail(n, "lists a user twice");
    if (users.size() > 2) { // two are compared above, without a sorted copy
      std::vector<const Node *> sorted(users.begin(), users.end());
      std::sort(sorted.begin(), sorted.end());
      if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
        return fail(n, "lists a user twice");
    }
  }
  if (outputs != 1)
    return Status(Error("graph has " + std::to_string(outputs) + " output nodes, expected 1"));
  // Every listed user is a real, distinct edge; equal counts mean no edge is missing.
  if (listed != edges) {
    for (Node *n : graph)
      for (Node *input : n->inputs()) {
        const auto &users = input->users();
        if (std::find(users.begin(), users.end(), n) == users.end())
          return fail(n, "missing from the users of its input '" + input->name() + "'");
      }
  }
  return Status::ok();
}

} // namespace fxkit
