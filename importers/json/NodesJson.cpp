#include "importers/json/NodesJson.h"

#include "importers/json/JsonSupport.h"

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

} // namespace

Status attachNodesJson(Graph &graph, std::string_view text, const std::string &fileName) {
  auto parsed = json::parseJson(text, fileName);
  if (!parsed)
    return parsed.takeError();
  const Json &root = *parsed;
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
    if (Status s = str("name", name); !s)
      return s;
    context += " ('" + *name + "')";
    if (Status s = str("op", op); !s)
      return s;
    if (Status s = str("target", target); !s)
      return s;
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
    if (normalizeTarget(node->target(), buf1) != normalizeTarget(*target, buf2))
      return fail("target '" + *target + "' does not match node '" + *name +
                      "', whose target is '" + std::string(node->target()) + "'",
                  {"target"});

    NodeValue value;
    auto valIt = e.find("val");
    if (valIt != e.end() && !valIt->is_null()) {
      const Json &v = *valIt;
      Path where;
      if (v.is_object()) {
        auto t = json::tensorFromJson(v, where);
        if (!t) {
          where.insert(where.begin(), "val");
          return fail(t.error().message, where);
        }
        value.v = t.take();
      } else if (v.is_array()) {
        std::vector<std::optional<TensorType>> ts;
        ts.reserve(v.size());
        for (size_t k = 0; k < v.size(); ++k) {
          if (v[k].is_null()) {
            ts.emplace_back();
            continue;
          }
          auto t = json::tensorFromJson(v[k], where);
          if (!t) {
            where.insert(where.begin(), {"val", k});
            return fail(t.error().message, where);
          }
          ts.emplace_back(t.take());
        }
        value.v = std::move(ts);
      } else if (v.is_string()) {
        auto s = SymExpr::parse(v.get_ref<const std::string &>());
        if (!s)
          return fail("bad symbolic expression '" + v.get<std::string>() +
                          "': " + s.error().message,
                      {"val"});
        value.v = *s;
      } else {
        return fail("'val' must be an object, an array, a string or null, not " + json::typeName(v),
                    {"val"});
      }
    }
    node->value() = std::move(value);
  }
  return Status::ok();
}

} // namespace fxkit
