#include "importers/json/FxkitJsonReader.h"

#include "importers/json/JsonSupport.h"
#include "ir/Verifier.h"

#include <cmath>
#include <limits>
#include <unordered_map>

namespace fxkit {

namespace {

using json::Json;
using json::Path;

/// Argument trees deeper than this are rejected instead of exhausting the call stack.
constexpr int kMaxArgumentDepth = 200;

class Reader {
public:
  Reader(std::string_view text, const std::string &fileName) : text_(text), file_(fileName) {}

  Expected<Graph> read();

private:
  /// An error located at `path_` (the value being decoded), prefixed with the node, if any.
  Error fail(const std::string &message) {
    std::string full = nodeContext_.empty() ? message : nodeContext_ + ": " + message;
    return json::errorAtPath(std::move(full), text_, path_, file_);
  }
  std::string typeError(const char *what, const Json &j) {
    return std::string(what) + ", not " + json::typeName(j);
  }

  Expected<Argument> argument(const Json &j, int depth);
  Expected<Argument> items(const Json &j, int depth, bool tuple);
  Expected<Argument> dict(const Json &j, int depth);
  Expected<Argument> tagged(const Json &j, int depth);
  Status value(const Json &j, NodeValue &out);
  Status readNode(const Json &j, size_t index);

  std::string_view text_;
  const std::string &file_;
  Graph graph_;
  Path path_;
  std::string nodeContext_;
  std::unordered_map<std::string, size_t> firstIndex_;
};

Expected<Argument> Reader::items(const Json &j, int depth, bool tuple) {
  std::vector<Argument> out;
  out.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    path_.push_back(i);
    auto a = argument(j[i], depth + 1);
    if (!a)
      return a.takeError();
    out.push_back(a.take());
    path_.pop_back();
  }
  return tuple ? Argument::tuple(std::move(out)) : Argument::list(std::move(out));
}

Expected<Argument> Reader::dict(const Json &j, int depth) {
  std::vector<std::pair<std::string, Argument>> out;
  out.reserve(j.size());
  for (auto it = j.begin(); it != j.end(); ++it) {
    path_.push_back(it.key());
    auto a = argument(it.value(), depth + 1);
    if (!a)
      return a.takeError();
    out.emplace_back(it.key(), a.take());
    path_.pop_back();
  }
  return Argument::dict(std::move(out));
}

Expected<Argument> Reader::tagged(const Json &j, int depth) {
  if (j.size() != 1)
    return fail("an object argument must have exactly one key (node, tuple, dict, float, dtype, "
                "device, layout, memory_format, sym, opaque), not " +
                std::to_string(j.size()));
  const std::string &tag = j.begin().key();
  const Json &v = j.begin().value();
  path_.push_back(tag);
  if (tag == "tuple" || tag == "dict") {
    bool isTuple = tag == "tuple";
    if (isTuple ? !v.is_array() : !v.is_object())
      return fail(typeError(isTuple ? "'tuple' must be an array" : "'dict' must be an object", v));
    auto a = isTuple ? items(v, depth, /*tuple=*/true) : dict(v, depth);
    if (a)
      path_.pop_back();
    return a;
  }
  if (!v.is_string())
    return fail(typeError(("'" + tag + "' must be a string").c_str(), v));
  const std::string &s = v.get_ref<const std::string &>();
  Argument out;
  if (tag == "node") {
    Node *n = graph_.find(s);
    if (!n)
      return fail("undefined node reference '" + s + "' (a node must be defined before use)");
    out = Argument::node(n);
  } else if (tag == "float") {
    if (s == "inf")
      out = Argument::floating(std::numeric_limits<double>::infinity());
    else if (s == "-inf")
      out = Argument::floating(-std::numeric_limits<double>::infinity());
    else if (s == "nan")
      out = Argument::floating(std::numeric_limits<double>::quiet_NaN());
    else
      return fail("bad float '" + s + "' (expected \"inf\", \"-inf\" or \"nan\")");
  } else if (tag == "dtype") {
    auto d = parseDType(s);
    if (!d)
      return fail("unknown dtype '" + s + "'");
    out = Argument::dtype(*d);
  } else if (tag == "device") {
    auto d = Device::parse(s);
    if (!d)
      return fail(d.error().message);
    out = Argument::device(*d);
  } else if (tag == "layout" || tag == "memory_format") {
    if (s.empty())
      return fail("empty " + tag);
    out = tag == "layout" ? Argument::layout(s) : Argument::memoryFormat(s);
  } else if (tag == "sym") {
    auto e = SymExpr::parse(s);
    if (!e)
      return fail("bad symbolic expression '" + s + "': " + e.error().message);
    out = Argument::sym(*e);
  } else if (tag == "opaque") {
    out = Argument::opaque(s);
  } else {
    return fail("unknown argument tag '" + tag + "'");
  }
  path_.pop_back();
  return out;
}

Expected<Argument> Reader::argument(const Json &j, int depth) {
  if (depth > kMaxArgumentDepth)
    return fail("arguments nested deeper than " + std::to_string(kMaxArgumentDepth) + " levels");
  switch (j.type()) {
  case Json::value_t::null:
    return Argument::none();
  case Json::value_t::boolean:
    return Argument::boolean(j.get<bool>());
  case Json::value_t::number_integer:
    return Argument::integer(j.get<int64_t>());
  case Json::value_t::number_unsigned:
    if (j.get<uint64_t>() > uint64_t(std::numeric_limits<int64_t>::max()))
      return fail("integer out of the 64-bit range");
    return Argument::integer(static_cast<int64_t>(j.get<uint64_t>()));
  case Json::value_t::number_float:
    return Argument::floating(j.get<double>());
  case Json::value_t::string:
    return Argument::string(j.get_ref<const std::string &>());
  case Json::value_t::array:
    return items(j, depth, /*tuple=*/false);
  case Json::value_t::object:
    return tagged(j, depth);
  default:
    return fail("unexpected JSON " + json::typeName(j) + " as an argument");
  }
}

Status Reader::value(const Json &j, NodeValue &out) {
  Path where;
  auto tensor = [&](const Json &t) -> Expected<TensorType> {
    auto tt = json::tensorFromJson(t, where);
    if (!tt) {
      path_.insert(path_.end(), where.begin(), where.end());
      return fail(tt.error().message);
    }
    return tt;
  };
  if (j.is_null()) {
    out.v = std::monostate();
  } else if (j.is_object()) {
    auto t = tensor(j);
    if (!t)
      return t.takeError();
    out.v = t.take();
  } else if (j.is_array()) {
    std::vector<std::optional<TensorType>> ts;
    ts.reserve(j.size());
    for (size_t i = 0; i < j.size(); ++i) {
      if (j[i].is_null()) {
        ts.emplace_back();
        continue;
      }
      path_.push_back(i);
      auto t = tensor(j[i]);
      if (!t)
        return t.takeError();
      ts.emplace_back(t.take());
      path_.pop_back();
    }
    out.v = std::move(ts);
  } else if (j.is_string()) {
    auto e = SymExpr::parse(j.get_ref<const std::string &>());
    if (!e)
      return fail("bad symbolic expression '" + j.get<std::string>() + "': " + e.error().message);
    out.v = *e;
  } else {
    return fail(typeError("'val' must be an object (tensor), an array (tensors), a string "
                          "(symbolic integer) or null",
                          j));
  }
  return Status::ok();
}

Status Reader::readNode(const Json &j, size_t index) {
  path_ = {std::string("nodes"), index};
  nodeContext_ = "nodes[" + std::to_string(index) + "]";
  if (!j.is_object())
    return fail(typeError("a node must be an object", j));
  const Json *name = nullptr, *op = nullptr, *target = nullptr, *type = nullptr, *args = nullptr,
             *kwargs = nullptr, *val = nullptr;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string &k = it.key();
    const Json *v = &it.value();
    if (k == "name")
      name = v;
    else if (k == "op")
      op = v;
    else if (k == "target")
      target = v;
    else if (k == "type")
      type = v;
    else if (k == "args")
      args = v;
    else if (k == "kwargs")
      kwargs = v;
    else if (k == "val")
      val = v;
    else {
      path_.push_back(k);
      return fail("unknown node field '" + k + "'");
    }
  }
  auto field = [&](const Json *f, const char *key, bool required) -> Status {
    if (!f) {
      if (required)
        return fail(std::string("missing '") + key + "'");
      return Status::ok();
    }
    if (!f->is_string()) {
      path_.push_back(std::string(key));
      return fail(typeError((std::string("'") + key + "' must be a string").c_str(), *f));
    }
    return Status::ok();
  };
  if (Status s = field(name, "name", true); !s)
    return s;
  const std::string &nodeName = name->get_ref<const std::string &>();
  nodeContext_ = "node '" + nodeName + "' (nodes[" + std::to_string(index) + "])";
  if (nodeName.empty()) {
    path_.push_back(std::string("name"));
    return fail("empty node name");
  }
  auto [it, inserted] = firstIndex_.emplace(nodeName, index);
  if (!inserted) {
    path_.push_back(std::string("name"));
    return fail("duplicate node name (first defined at nodes[" + std::to_string(it->second) + "])");
  }
  for (auto [f, key] : {std::pair{op, "op"}, {target, "target"}, {type, "type"}})
    if (Status s = field(f, key, f != type); !s)
      return s;
  auto opKind = parseOpKind(op->get_ref<const std::string &>());
  if (!opKind) {
    path_.push_back(std::string("op"));
    return fail("unknown op '" + op->get<std::string>() + "'");
  }
  Argument argsArg = Argument::tuple({});
  if (args) {
    path_.push_back(std::string("args"));
    if (!args->is_array())
      return fail(typeError("'args' must be an array", *args));
    auto a = items(*args, 1, /*tuple=*/true);
    if (!a)
      return a.takeError();
    argsArg = a.take();
    path_.pop_back();
  }
  Argument kwargsArg = Argument::dict({});
  if (kwargs) {
    path_.push_back(std::string("kwargs"));
    if (!kwargs->is_object())
      return fail(typeError("'kwargs' must be an object", *kwargs));
    auto a = dict(*kwargs, 1);
    if (!a)
      return a.takeError();
    kwargsArg = a.take();
    path_.pop_back();
  }
  NodeValue nodeValue;
  if (val) {
    path_.push_back(std::string("val"));
    if (Status s = value(*val, nodeValue); !s)
      return s;
    path_.pop_back();
  }
  Node *n = graph_.create(*opKind, nodeName, target->get_ref<const std::string &>(),
                          std::move(argsArg), std::move(kwargsArg));
  if (type)
    n->setPythonType(type->get_ref<const std::string &>());
  n->value() = std::move(nodeValue);
  return Status::ok();
}

Expected<Graph> Reader::read() {
  auto parsed = json::parseJson(text_, file_);
  if (!parsed)
    return parsed.takeError();
  const Json &root = *parsed;
  if (!root.is_object())
    return fail(typeError("the document must be an object", root));
  const Json *format = nullptr, *version = nullptr, *module = nullptr, *nodes = nullptr;
  for (auto it = root.begin(); it != root.end(); ++it) {
    const std::string &k = it.key();
    if (k == "format")
      format = &it.value();
    else if (k == "version")
      version = &it.value();
    else if (k == "module")
      module = &it.value();
    else if (k == "nodes")
      nodes = &it.value();
    else {
      path_ = {k};
      return fail("unknown top-level field '" + k + "'");
    }
  }
  if (!format || !format->is_string() || format->get_ref<const std::string &>() != "fxkit.graph") {
    path_ = {std::string("format")};
    return fail("not an fxkit graph: expected \"format\": \"fxkit.graph\"");
  }
  path_ = {std::string("version")};
  if (!version)
    return fail("missing 'version'");
  if (!version->is_number_integer() || version->get<int64_t>() != 1)
    return fail("unsupported version " + version->dump() + " (this reader knows version 1)");
  if (module) {
    path_ = {std::string("module")};
    if (!module->is_string())
      return fail(typeError("'module' must be a string", *module));
    graph_.moduleName = module->get<std::string>();
  }
  path_ = {std::string("nodes")};
  if (!nodes)
    return fail("missing 'nodes'");
  if (!nodes->is_array())
    return fail(typeError("'nodes' must be an array", *nodes));
  firstIndex_.reserve(nodes->size());
  for (size_t i = 0; i < nodes->size(); ++i)
    if (Status s = readNode((*nodes)[i], i); !s)
      return s.takeError();
  if (Status s = verifyGraph(graph_); !s) {
    Error e = s.takeError();
    e.loc.file = file_;
    e.message = "invalid graph: " + e.message;
    return e;
  }
  return std::move(graph_);
}

} // namespace

Expected<Graph> parseFxkitJson(std::string_view text, const std::string &fileName) {
  return Reader(text, fileName).read();
}

} // namespace fxkit
