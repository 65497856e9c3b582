#include "importers/json/FxkitJsonReader.h"

#include "importers/json/JsonSupport.h"
#include "ir/Try.h"
#include "ir/Verifier.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>

namespace fxkit {

namespace {

using json::Json;
using json::Path;

/// Argument trees deeper than this are rejected instead of exhausting the call stack.
constexpr int kMaxArgumentDepth = 200;
/// Child graphs nested deeper than this below the document's graph are rejected, for the same
/// reason: each level is read by a recursive call. The same limit as print_readable()'s nested
/// classes (ReadablePyParser), so every graph fxkit reads from Python converts to JSON and back.
constexpr int kMaxSubmoduleDepth = 256;

class Reader {
public:
  Reader(std::string_view text, const std::string &fileName) : text_(text), file_(fileName) {}

  Expected<Graph> read();

private:
  /// An error located at `path_` (the value being decoded), prefixed with the child graph and
  /// the node, if any.
  Error fail(const std::string &message) {
    std::string full = message;
    if (inNode_)
      full = (nodeName_ ? "node '" + *nodeName_ + "' (nodes[" : "nodes[") +
             std::to_string(nodeIndex_) + "]" + (nodeName_ ? ")" : "") + ": " + message;
    if (!scope_.empty())
      full = scope_ + ": " + full;
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
  Status provenance(const Json &j, NodeProvenance &out);
  Status readNode(const Json &j, size_t index);
  Status topLevel(const std::string &key, Json value);
  Status checkHeader();
  /// verifyGraph on the graph read, its error pointed at the node it names.
  Status verify();
  /// Reads a "submodules" array (at base_) into graph_.submodules, each child with a Reader of
  /// its own one level deeper.
  Status readChildren(const Json &list);
  /// Reads one child graph, the object at base_: "module", "nodes" and its own "submodules".
  Expected<Graph> readModule(const Json &j);

  std::string_view text_;
  const std::string &file_;
  Graph graph_;
  Path path_;
  /// Where this graph's fields are: the document itself, or ["submodules", i, ...] for a child.
  Path base_;
  /// How many child levels below the document's graph this one is (0: the document's).
  int depth_ = 0;
  /// The child's module names from the document's graph down, dotted (`cond_true_0.inner`);
  /// empty for the document's graph.
  std::string modulePath_;
  /// What messages start with: "submodule 'a.b'" in a child (empty for the document's graph).
  std::string scope_;
  /// The top-level "submodules" value, read after the nodes (the writer puts it last).
  Json submodules_;
  bool sawSubmodules_ = false;
  /// The node being read, for messages.
  bool inNode_ = false;
  size_t nodeIndex_ = 0;
  const std::string *nodeName_ = nullptr;
  /// Top-level fields, checked when "nodes" starts (the writer puts them first) and at the end.
  Json format_, version_;
  bool headerChecked_ = false;

  friend class SaxReader;
};

Expected<Argument> Reader::items(const Json &j, int depth, bool tuple) {
  std::vector<Argument> out;
  out.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    path_.push_back(i);
    FXKIT_ASSIGN_OR_RETURN(auto a, argument(j[i], depth + 1));
    out.push_back(std::move(a));
    path_.pop_back();
  }
  return tuple ? Argument::tuple(std::move(out)) : Argument::list(std::move(out));
}

Expected<Argument> Reader::dict(const Json &j, int depth) {
  std::vector<std::pair<std::string, Argument>> out;
  out.reserve(j.size());
  for (auto it = j.begin(); it != j.end(); ++it) {
    path_.push_back(it.key());
    FXKIT_ASSIGN_OR_RETURN(auto a, argument(it.value(), depth + 1));
    out.emplace_back(it.key(), std::move(a));
    path_.pop_back();
  }
  return Argument::dict(std::move(out));
}

Expected<Argument> Reader::tagged(const Json &j, int depth) {
  if (j.size() != 1)
    return fail("an object argument must have exactly one key (node, tuple, dict, float, dtype, "
                "device, layout, memory_format, sym, opaque, slice), not " +
                std::to_string(j.size()));
  const std::string &tag = j.begin().key();
  const Json &v = j.begin().value();
  path_.push_back(tag);
  static constexpr std::string_view kTags[] = {"node",  "tuple",  "dict",   "float",
                                               "dtype", "device", "layout", "memory_format",
                                               "sym",   "opaque", "slice"};
  if (std::find(std::begin(kTags), std::end(kTags), tag) == std::end(kTags)) {
    path_.pop_back();
    return fail("unknown argument tag '" + tag + "'");
  }
  if (tag == "slice") {
    if (!v.is_array())
      return fail(typeError("'slice' must be an array (start, stop, step)", v));
    if (v.size() != 3)
      return fail("'slice' must have 3 items (start, stop, step), not " + std::to_string(v.size()));
    auto parts = items(v, depth, /*tuple=*/true);
    if (!parts)
      return parts;
    path_.pop_back();
    auto &p = parts->items();
    return Argument::slice(std::move(p[0]), std::move(p[1]), std::move(p[2]));
  }
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
  } else {
    out = Argument::opaque(s);
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
  auto v = json::nodeValueFromJson(j, where);
  if (!v) {
    path_.insert(path_.end(), where.begin(), where.end());
    return fail(v.error().message);
  }
  out = v.take();
  return Status::ok();
}

Status Reader::provenance(const Json &j, NodeProvenance &out) {
  if (!j.is_object())
    return fail(typeError("'provenance' must be an object (pre_grad, post_grad, kernels)", j));
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string &key = it.key();
    const Json &list = it.value();
    path_.push_back(key);
    std::vector<std::string> *names = key == "pre_grad"    ? &out.preGrad
                                      : key == "post_grad" ? &out.postGrad
                                      : key == "kernels"   ? &out.kernels
                                                           : nullptr;
    if (!names)
      return fail("unknown provenance field '" + key + "' (expected pre_grad, post_grad, kernels)");
    if (!list.is_array())
      return fail(typeError(("'" + key + "' must be an array of names").c_str(), list));
    for (size_t i = 0; i < list.size(); ++i) {
      if (!list[i].is_string()) {
        path_.push_back(i);
        return fail(typeError("a provenance entry must be a string (a name)", list[i]));
      }
      names->push_back(list[i].get<std::string>());
    }
    path_.pop_back();
  }
  return Status::ok();
}

Status Reader::readNode(const Json &j, size_t index) {
  path_ = base_;
  path_.push_back("nodes");
  path_.push_back(index);
  inNode_ = true;
  nodeIndex_ = index;
  nodeName_ = nullptr;
  if (!j.is_object())
    return fail(typeError("a node must be an object", j));
  const Json *name = nullptr, *op = nullptr, *target = nullptr, *type = nullptr, *args = nullptr,
             *kwargs = nullptr, *val = nullptr, *prov = nullptr;
  const std::string *unknown = nullptr;
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
    else if (k == "provenance")
      prov = v;
    else if (!unknown)
      unknown = &k;
  }
  auto field = [&](const Json *f, const char *key, bool required) -> Status {
    if (!f) {
      if (required)
        return fail(std::string("missing '") + key + "'");
      return Status::ok();
    }
    if (!f->is_string()) {
      path_.push_back(key);
      return fail(typeError((std::string("'") + key + "' must be a string").c_str(), *f));
    }
    return Status::ok();
  };
  FXKIT_TRY(field(name, "name", true));
  const std::string &nodeName = name->get_ref<const std::string &>();
  nodeName_ = &nodeName;
  if (unknown) {
    path_.push_back(*unknown);
    return fail("unknown node field '" + *unknown + "'");
  }
  if (nodeName.empty()) {
    path_.push_back("name");
    return fail("empty node name");
  }
  if (Node *first = graph_.find(nodeName)) {
    size_t firstIndex = 0;
    for (Node *n = graph_.front(); n != first; n = n->next())
      ++firstIndex;
    path_.push_back("name");
    return fail("duplicate node name (first defined at nodes[" + std::to_string(firstIndex) + "])");
  }
  FXKIT_TRY(field(op, "op", true));
  FXKIT_TRY(field(target, "target", true));
  // FX text prints the target bare (`[target=...]`): an empty one, or one with a line break,
  // prints text that no FX reader (fxkit's or a person's) reads back.
  if (const std::string &t = target->get_ref<const std::string &>();
      t.empty() || t.find_first_of("\n\r") != std::string::npos) {
    path_.push_back("target");
    return fail(t.empty() ? "empty target" : "target spans lines");
  }
  FXKIT_TRY(field(type, "type", false));
  auto opKind = parseOpKind(op->get_ref<const std::string &>());
  if (!opKind) {
    path_.push_back("op");
    return fail("unknown op '" + op->get<std::string>() + "'");
  }
  Argument argsArg = Argument::tuple({});
  if (args) {
    path_.push_back("args");
    if (!args->is_array())
      return fail(typeError("'args' must be an array", *args));
    auto a = items(*args, 1, /*tuple=*/true);
    FXKIT_TRY(a);
    argsArg = a.take();
    path_.pop_back();
  }
  Argument kwargsArg = Argument::dict({});
  if (kwargs) {
    path_.push_back("kwargs");
    if (!kwargs->is_object())
      return fail(typeError("'kwargs' must be an object", *kwargs));
    FXKIT_ASSIGN_OR_RETURN(auto a, dict(*kwargs, 1));
    kwargsArg = std::move(a);
    path_.pop_back();
  }
  NodeValue nodeValue;
  if (val) {
    path_.push_back("val");
    FXKIT_TRY(value(*val, nodeValue));
    path_.pop_back();
  }
  NodeProvenance nodeProvenance;
  if (prov && !prov->is_null()) {
    path_.push_back("provenance");
    FXKIT_TRY(provenance(*prov, nodeProvenance));
    path_.pop_back();
  }
  Node *n = graph_.create(*opKind, nodeName, target->get_ref<const std::string &>(),
                          std::move(argsArg), std::move(kwargsArg));
  if (type)
    n->setPythonType(type->get_ref<const std::string &>());
  n->value() = std::move(nodeValue);
  n->setProvenance(std::move(nodeProvenance));
  inNode_ = false;
  return Status::ok();
}

Status Reader::topLevel(const std::string &key, Json value) {
  path_ = {key};
  if (key == "format") {
    format_ = std::move(value);
  } else if (key == "version") {
    version_ = std::move(value);
  } else if (key == "module") {
    if (!value.is_string())
      return fail(typeError("'module' must be a string", value));
    graph_.moduleName = value.get<std::string>();
  } else if (key == "nodes") {
    return fail(typeError("'nodes' must be an array", value));
  } else if (key == "submodules") {
    submodules_ = std::move(value);
    sawSubmodules_ = true;
  } else {
    return fail("unknown top-level field '" + key + "'");
  }
  return Status::ok();
}

Status Reader::checkHeader() {
  if (headerChecked_)
    return Status::ok();
  headerChecked_ = true;
  if (!format_.is_string() || format_.get_ref<const std::string &>() != "fxkit.graph") {
    path_ = {"format"};
    return fail("not an fxkit graph: expected \"format\": \"fxkit.graph\"");
  }
  path_ = {"version"};
  if (version_.is_null())
    return fail("missing 'version'");
  if (!version_.is_number_integer())
    return fail("'version' is " + version_.dump() + ", " +
                (version_.is_string() ? "a string" : "not an integer") +
                ": expected the number 1 (\"version\": 1)");
  if (version_.get<int64_t>() != 1)
    return fail("unsupported version " + version_.dump() + " (this reader knows version 1)");
  return Status::ok();
}

/// Streams the document: top-level fields and each element of "nodes" are built as small
/// DOMs, one at a time, and handed to the Reader. A 100k-node file never exists as one DOM,
/// which halves the reading time. Returning false stops nlohmann's parser.
class SaxReader : public nlohmann::json_sax<Json> {
public:
  explicit SaxReader(Reader &r) : r_(r) {}

  bool null() override { return scalar(Json()); }
  bool boolean(bool v) override { return scalar(Json(v)); }
  bool number_integer(number_integer_t v) override { return scalar(Json(v)); }
  bool number_unsigned(number_unsigned_t v) override { return scalar(Json(v)); }
  bool number_float(number_float_t v, const string_t &spelling) override {
    // nlohmann turns integers beyond 64 bits into doubles; fxkit keeps ints and floats apart.
    if (spelling.find_first_of(".eE") == std::string::npos)
      return fail(json::errorAt("integer " + spelling + " out of the 64-bit range", r_.text_,
                                r_.text_.find(spelling), r_.file_));
    return scalar(Json(v));
  }
  bool string(string_t &v) override { return scalar(Json(std::move(v))); }
  bool binary(binary_t &) override { return fail(Error("binary values are not JSON")); }
  bool start_object(std::size_t) override { return open(Json::value_t::object); }
  bool start_array(std::size_t) override { return open(Json::value_t::array); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool key(string_t &k) override {
    if (!stack_.empty())
      pendingKey_ = std::move(k);
    else
      topKey_ = std::move(k);
    return true;
  }
  bool parse_error(std::size_t position, const std::string &,
                   const nlohmann::detail::exception &ex) override {
    syntaxError = true;
    this->position = position;
    message = ex.what();
    return false;
  }

  std::optional<Error> error;
  bool syntaxError = false;
  size_t position = 0;
  std::string message;
  bool sawRoot = false;
  bool sawNodes = false;

private:
  bool fail(Error e) {
    error = std::move(e);
    return false;
  }
  bool fail(Status s) { return fail(s.takeError()); }

  /// Where a value that is not part of a captured DOM goes.
  bool atCaptureStart() const { return stack_.empty() && (depth_ == 1 || inNodes_); }

  bool scalar(Json v) {
    if (!stack_.empty()) {
      insert(std::move(v));
      return true;
    }
    if (depth_ == 0)
      return fail(r_.fail(r_.typeError("the document must be an object", v)));
    captured_ = std::move(v);
    return finish();
  }

  Json &insert(Json v) {
    Json &top = *stack_.back();
    if (top.is_array()) {
      top.get_ref<Json::array_t &>().push_back(std::move(v));
      return top.get_ref<Json::array_t &>().back();
    }
    Json &slot = top[pendingKey_];
    slot = std::move(v);
    return slot;
  }

  bool open(Json::value_t type) {
    if (!stack_.empty()) {
      stack_.push_back(&insert(Json(type)));
      return true;
    }
    if (depth_ == 0) {
      sawRoot = true;
      if (type != Json::value_t::object)
        return fail(r_.fail(r_.typeError("the document must be an object", Json(type))));
      depth_ = 1;
      return true;
    }
    if (depth_ == 1 && topKey_ == "nodes" && type == Json::value_t::array && !inNodes_) {
      sawNodes = true;
      // Checked here too so a wrong version is reported before any node error.
      if (!r_.format_.is_null() && !r_.version_.is_null())
        if (Status s = r_.checkHeader(); !s)
          return fail(std::move(s));
      inNodes_ = true;
      return true;
    }
    captured_ = Json(type);
    stack_.push_back(&captured_);
    return true;
  }

  bool close() {
    if (!stack_.empty()) {
      stack_.pop_back();
      return stack_.empty() ? finish() : true;
    }
    if (inNodes_)
      inNodes_ = false;
    else
      depth_ = 0;
    return true;
  }

  /// A top-level field or a node is complete.
  bool finish() {
    if (inNodes_) {
      if (Status s = r_.readNode(captured_, nodeIndex_++); !s)
        return fail(std::move(s));
      return true;
    }
    if (Status s = r_.topLevel(topKey_, std::move(captured_)); !s)
      return fail(std::move(s));
    return true;
  }

  Reader &r_;
  int depth_ = 0; ///< 1 inside the root object
  bool inNodes_ = false;
  size_t nodeIndex_ = 0;
  std::string topKey_, pendingKey_;
  Json captured_;
  std::vector<Json *> stack_;
};

Expected<Graph> Reader::read() {
  // The streaming reader's own limits (arguments, submodules) hold for what it decodes, but
  // other fields are kept as DOMs and printed in messages: refuse extreme nesting first.
  FXKIT_TRY(json::checkJsonDepth(text_, file_));
  SaxReader sax(*this);
  Json::sax_parse(text_.begin(), text_.end(), &sax);
  if (sax.syntaxError) {
    // nlohmann counts characters read, so the offending one is the last read.
    size_t offset = sax.position > 0 ? sax.position - 1 : 0;
    std::string why = text_.find_first_not_of(" \t\r\n") == std::string_view::npos
                          ? "empty input, expected a JSON document"
                          : "JSON syntax error: " + json::shortMessage(sax.message);
    return json::errorAt(std::move(why), text_, offset, file_);
  }
  if (sax.error)
    return std::move(*sax.error);
  inNode_ = false;
  FXKIT_TRY(checkHeader());
  if (!sax.sawNodes) {
    path_ = {"nodes"};
    return fail("missing 'nodes'");
  }
  FXKIT_TRY(verify());
  if (sawSubmodules_)
    FXKIT_TRY(readChildren(submodules_));
  return std::move(graph_);
}

Status Reader::verify() {
  Status s = verifyGraph(graph_);
  if (s)
    return s;
  inNode_ = false;
  // The verifier names the node ("node 'x': ..."): point at its line when we can.
  std::string message = "invalid graph: " + s.error().message;
  constexpr std::string_view prefix = "node '";
  std::string_view m = s.error().message;
  size_t end = m.find('\'', prefix.size());
  if (m.starts_with(prefix) && end != std::string_view::npos) {
    size_t index = 0;
    for (Node *n = graph_.front(); n; n = n->next(), ++index)
      if (n->name() == m.substr(prefix.size(), end - prefix.size())) {
        path_ = base_;
        path_.push_back("nodes");
        path_.push_back(index);
        return fail(message);
      }
  }
  if (depth_ == 0)
    return Status(Error(std::move(message), SourceLoc{file_, 0, 0}));
  path_ = base_;
  return fail(message);
}

Status Reader::readChildren(const Json &list) {
  path_ = base_;
  path_.push_back("submodules");
  if (!list.is_array())
    return fail(typeError("'submodules' must be an array", list));
  graph_.submodules.reserve(list.size());
  for (size_t i = 0; i < list.size(); ++i) {
    Path at = base_;
    at.push_back("submodules");
    at.push_back(i);
    if (depth_ >= kMaxSubmoduleDepth) {
      path_ = at;
      return fail("submodules nested more than " + std::to_string(kMaxSubmoduleDepth) +
                  " levels deep");
    }
    Reader child(text_, file_);
    child.base_ = at;
    child.depth_ = depth_ + 1;
    child.modulePath_ = modulePath_;
    child.scope_ = scope_.empty() ? "submodules[" + std::to_string(i) + "]"
                                  : scope_ + ": submodules[" + std::to_string(i) + "]";
    FXKIT_ASSIGN_OR_RETURN(auto g, child.readModule(list[i]));
    for (size_t k = 0; k < graph_.submodules.size(); ++k)
      if (graph_.submodules[k]->moduleName == g.moduleName) {
        path_ = at;
        path_.push_back("module");
        return fail("submodule '" + g.moduleName + "' is defined twice (first at submodules[" +
                    std::to_string(k) + "])");
      }
    graph_.submodules.push_back(std::make_shared<const Graph>(std::move(g)));
  }
  return Status::ok();
}

Expected<Graph> Reader::readModule(const Json &j) {
  path_ = base_;
  if (!j.is_object())
    return fail(typeError("a submodule must be an object (module, nodes, submodules)", j));
  const Json *module = nullptr, *nodes = nullptr, *children = nullptr;
  const std::string *unknown = nullptr;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string &k = it.key();
    if (k == "module")
      module = &it.value();
    else if (k == "nodes")
      nodes = &it.value();
    else if (k == "submodules")
      children = &it.value();
    else if (!unknown)
      unknown = &k;
  }
  // Named by its module where it has one (a misspelt "module" is reported as such).
  auto unknownField = [&] {
    path_ = base_;
    path_.push_back(*unknown);
    return fail("unknown submodule field '" + *unknown + "' (expected module, nodes, submodules)");
  };
  if (!module)
    return unknown ? unknownField()
                   : fail("missing 'module' (the attribute name its get_attr and call_module "
                          "nodes use)");
  path_.push_back("module");
  if (!module->is_string())
    return fail(typeError("'module' must be a string", *module));
  const std::string &name = module->get_ref<const std::string &>();
  if (name.empty())
    return fail("empty module name");
  modulePath_ = modulePath_.empty() ? name : modulePath_ + "." + name;
  scope_ = "submodule '" + modulePath_ + "'";
  graph_.moduleName = name;
  if (unknown)
    return unknownField();
  path_ = base_;
  if (!nodes)
    return fail("missing 'nodes'");
  if (!nodes->is_array()) {
    path_.push_back("nodes");
    return fail(typeError("'nodes' must be an array", *nodes));
  }
  graph_.reserve(nodes->size());
  for (size_t i = 0; i < nodes->size(); ++i)
    FXKIT_TRY(readNode((*nodes)[i], i));
  inNode_ = false;
  FXKIT_TRY(verify());
  if (children)
    FXKIT_TRY(readChildren(*children));
  return std::move(graph_);
}

} // namespace

Expected<Graph> parseFxkitJson(std::string_view text, const std::string &fileName) {
  return Reader(text, fileName).read();
}

} // namespace fxkit
