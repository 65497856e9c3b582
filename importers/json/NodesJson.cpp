#include "importers/json/NodesJson.h"

#include "importers/json/JsonSupport.h"
#include "ir/Try.h"

#include <unordered_map>

namespace fxkit {

namespace {

using json::Json;
using json::Path;

/// Spells a target the way the sidecar does: FX text writes `torch.ops.aten.mul.Tensor` and
/// `operator.getitem` where the sidecar has `aten.mul.Tensor` and
/// `<built-in function getitem>`.
std::string_view normalizeTarget(std::string_view t, std::string &buf) {
  constexpr std::string_view ops = "torch.ops.", builtin = "<built-in function ",
                             uoper = "_operator.";
  if (t.starts_with(ops))
    return t.substr(ops.size());
  if (t.starts_with(builtin) && t.ends_with(">")) {
    buf = "operator.";
    buf += t.substr(builtin.size(), t.size() - builtin.size() - 1);
    return buf;
  }
  if (t.starts_with(uoper)) {
    buf = "operator.";
    buf += t.substr(uoper.size());
    return buf;
  }
  return t;
}

/// Whether the sidecar's `str(target)` names the FX text target: equal once normalized, or a
/// Python function printed as `<built-in function floor>` / `<function sym_float at 0x...>`
/// whose name is the last part of the FX target (`math.floor`, `torch.sym_float`).
bool sameTarget(std::string_view fx, std::string_view sidecar, std::string &buf1,
                std::string &buf2) {
  if (normalizeTarget(fx, buf1) == normalizeTarget(sidecar, buf2))
    return true;
  std::string_view name;
  for (std::string_view prefix : {"<built-in function ", "<function "})
    if (sidecar.starts_with(prefix) && sidecar.ends_with(">")) {
      name = sidecar.substr(prefix.size(), sidecar.size() - prefix.size() - 1);
      name = name.substr(0, name.find(' ')); // `<function f at 0x7f...>`
    }
  return !name.empty() && fx.size() > name.size() && fx.ends_with(name) &&
         fx[fx.size() - name.size() - 1] == '.';
}

} // namespace

Status attachNodesJson(Graph &graph, std::string_view text, const std::string &fileName) {
  FXKIT_ASSIGN_OR_RETURN(auto parsed, json::parseJson(text, fileName));
  const Json &root = parsed;
  if (!root.is_array())
    return json::errorAtPath("a nodes.json file must be an array of node entries, not " +
                                 json::typeName(root),
                             text, {}, fileName);
  std::unordered_map<const Node *, size_t> seen;
  seen.reserve(root.size());
  std::string buf1, buf2;
  for (size_t i = 0; i < root.size(); ++i) {
    const Json &e = root[i];
    std::string context = "entry " + std::to_string(i);
    auto fail = [&](const std::string &msg, Path path) {
      path.insert(path.begin(), i);
      return Status(json::errorAtPath(context + ": " + msg, text, path, fileName));
    };
    if (!e.is_object())
      return fail("an entry must be an object, not " + json::typeName(e), {});
    auto str = [&](const char *key, const std::string *&out) -> Status {
      auto it = e.find(key);
      if (it == e.end())
        return fail(std::string("missing '") + key + "'", {});
      if (!it->is_string())
        return fail(std::string("'") + key + "' must be a string, not " + json::typeName(*it),
                    {key});
      out = &it->get_ref<const std::string &>();
      return Status::ok();
    };
    const std::string *name = nullptr, *op = nullptr, *target = nullptr;
    FXKIT_TRY(str("name", name));
    context += " ('" + *name + "')";
    FXKIT_TRY(str("op", op));
    FXKIT_TRY(str("target", target));
    // args/kwargs are Python spellings kept for people; when present they must be strings.
    for (const char *key : {"args", "kwargs"}) {
      auto it = e.find(key);
      if (it != e.end() && !it->is_string())
        return fail(std::string("'") + key + "' must be a string, not " + json::typeName(*it),
                    {key});
    }
    Node *node = graph.find(*name);
    if (!node)
      return fail("no node named '" + *name + "' in the graph", {"name"});
    auto [prev, fresh] = seen.emplace(node, i);
    if (!fresh)
      return fail("node '" + *name + "' already described by entry " + std::to_string(prev->second),
                  {"name"});
    if (opKindName(node->op()) != *op)
      return fail("op '" + *op + "' does not match node '" + *name + "', which is a " +
                      std::string(opKindName(node->op())),
                  {"op"});
    if (!sameTarget(node->target(), *target, buf1, buf2))
      return fail("target '" + *target + "' does not match node '" + *name +
                      "', whose target is '" + std::string(node->target()) + "'",
                  {"target"});

    NodeValue value;
    auto valIt = e.find("val");
    if (valIt != e.end()) {
      Path where;
      auto v = json::nodeValueFromJson(*valIt, where);
      if (!v) {
        where.insert(where.begin(), "val");
        return fail(v.error().message, where);
      }
      value = v.take();
    }
    node->value() = std::move(value);
  }
  return Status::ok();
}

} // namespace fxkit
