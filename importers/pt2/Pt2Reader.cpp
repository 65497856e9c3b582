#include "importers/pt2/Pt2Reader.h"

#include "importers/json/JsonSupport.h"
#include "ir/Try.h"
#include "ir/ops/OpRegistry.h"
#include "support/pt2/ExportedProgram.h"
#include "support/pt2/Zip.h"

#include <cmath>
#include <limits>
#include <memory>
#include <unordered_map>
#include <unordered_set>

namespace fxkit {
namespace {

using json::Json;
using json::Path;

/// Python's reserved words: an argument with such a name cannot be passed as a keyword, so
/// PyTorch's deserializer passes it positionally (aten.random_.from's `from`).
bool isPythonKeyword(std::string_view s) {
  static const std::unordered_set<std::string_view> kw = {
      "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
      "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
      "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
      "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
  return kw.count(s) > 0;
}

/// FX's name for a node whose target is `target` when none is given (torch.fx.Graph's
/// `_target_to_str`: the callable's `__name__`, magic methods unwrapped, snake case, then
/// characters Python does not allow in names replaced by `_`).
std::string fxNameForTarget(std::string_view target) {
  std::string_view op = target;
  constexpr std::string_view ops = "torch.ops.";
  if (op.starts_with(ops)) {
    op.remove_prefix(ops.size());
    size_t dot = op.find('.'); // namespace
    if (dot != std::string_view::npos)
      op.remove_prefix(dot + 1); // `add.Tensor`: OpOverload's __name__
  } else if (size_t dot = op.rfind('.'); dot != std::string_view::npos) {
    op.remove_prefix(dot + 1);
  }
  if (op.size() > 4 && op.starts_with("__") && op.ends_with("__"))
    op = op.substr(2, op.size() - 4);
  std::string out;
  bool prevLower = false;
  for (char c : op) {
    bool upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z';
    if (prevLower && upper)
      out += '_';
    char l = upper ? static_cast<char>(c - 'A' + 'a') : c;
    bool ok = (l >= 'a' && l <= 'z') || (l >= '0' && l <= '9') || l == '_';
    out += ok ? l : '_';
    prevLower = lower;
  }
  if (out.empty() || (out[0] >= '0' && out[0] <= '9'))
    out.insert(out.begin(), '_');
  return out;
}

/// How FX text spells a serialized target: PyTorch serializes `operator.add` as
/// `_operator.add` (the function's module).
std::string fxTarget(std::string_view serialized) {
  constexpr std::string_view uop = "_operator.";
  if (serialized.starts_with(uop))
    return "operator." + std::string(serialized.substr(uop.size()));
  return std::string(serialized);
}

/// Targets PyTorch deserializes as symbolic-integer ops (serialize.py's _SYM_OPS, plus
/// aten.item): every input positional, named after its output.
bool isSymOpTarget(std::string_view t) {
  return t.starts_with("_operator.") || t.starts_with("operator.") || t == "math.trunc" ||
         t.starts_with("torch.sym_") || t == "torch.ops.aten.item.default";
}

/// Pushes a path step for the lifetime of the scope.
class PathScope {
public:
  PathScope(Path &path, json::PathStep step) : path_(path) { path_.push_back(step); }
  ~PathScope() { path_.pop_back(); }
  PathScope(const PathScope &) = delete;
  PathScope &operator=(const PathScope &) = delete;

private:
  Path &path_;
};

/// The names, values and nodes of one graph being built (the root or a subgraph).
struct GraphState {
  Graph *graph = nullptr;
  std::unordered_map<std::string, Node *> nodes;
  std::unordered_map<std::string, TensorType> tensors;
  std::unordered_map<std::string, SymExpr> symInts;
  std::unordered_set<std::string> otherSyms; ///< sym bools and floats: no IR value
};

/// Builds graphs from one JSON document (a `models/<name>.json`).
class ProgramReader {
public:
  ProgramReader(std::string_view text, std::string fileName, ExportedProgram &program)
      : text_(text), fileName_(std::move(fileName)), program_(program) {}

  Error fail(const std::string &message) const {
    return json::errorAtPath(message, text_, path_, fileName_);
  }

  /// `obj[key]` (null when absent); fails when obj is not an object.
  Expected<const Json *> member(const Json &obj, std::string_view key, bool required = true) {
    if (!obj.is_object())
      return fail("expected an object, not " + json::typeName(obj));
    auto it = obj.find(key);
    if (it == obj.end()) {
      if (required)
        return fail("missing field '" + std::string(key) + "'");
      return static_cast<const Json *>(nullptr);
    }
    return &*it;
  }

  /// The one member of a union object (`{"as_tensor": {...}}`).
  Expected<std::pair<std::string_view, const Json *>> unionMember(const Json &u,
                                                                  std::string_view what) {
    if (!u.is_object() || u.size() != 1)
      return fail("expected a " + std::string(what) + " (an object with one field), not " +
                  (u.is_object() ? std::to_string(u.size()) + " fields" : json::typeName(u)));
    auto it = u.begin();
    return std::pair<std::string_view, const Json *>(it.key(), &it.value());
  }

  Expected<int64_t> integer(const Json &j) {
    if (j.is_number_integer() &&
        !(j.is_number_unsigned() &&
          j.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())))
      return j.get<int64_t>();
    return fail("expected an integer, not " + json::typeName(j));
  }
  /// A float: a JSON number, or PyTorch's spelling of the values JSON lacks.
  Expected<double> floating(const Json &j) {
    if (j.is_number())
      return j.get<double>();
    if (j.is_string()) {
      const std::string &s = j.get_ref<const std::string &>();
      if (s == "Infinity" || s == "inf")
        return std::numeric_limits<double>::infinity();
      if (s == "-Infinity" || s == "-inf")
        return -std::numeric_limits<double>::infinity();
      if (s == "NaN" || s == "nan")
        return std::numeric_limits<double>::quiet_NaN();
    }
    return fail("expected a float, not " + json::typeName(j));
  }
  Expected<bool> boolean(const Json &j) {
    if (j.is_boolean())
      return j.get<bool>();
    return fail("expected a boolean, not " + json::typeName(j));
  }
  Expected<std::string> string(const Json &j) {
    if (j.is_string())
      return j.get<std::string>();
    return fail("expected a string, not " + json::typeName(j));
  }
  Expected<std::string> stringField(const Json &obj, std::string_view key) {
    FXKIT_ASSIGN_OR_RETURN(auto m, member(obj, key));
    PathScope s(path_, key);
    return string(*m);
  }
  Status array(const Json &j) {
    if (!j.is_array())
      return fail("expected an array, not " + json::typeName(j));
    return Status::ok();
  }

  /// A SymInt union (`as_int` or `as_expr`); a bare symbol's hint is recorded.
  Expected<SymExpr> symInt(const Json &j) {
    FXKIT_ASSIGN_OR_RETURN(auto u, unionMember(j, "SymInt"));
    PathScope s(path_, u.first);
    if (u.first == "as_int") {
      FXKIT_ASSIGN_OR_RETURN(auto v, integer(*u.second));
      return SymExpr(v);
    }
    if (u.first != "as_expr")
      return fail("expected as_int or as_expr, not '" + std::string(u.first) + "'");
    FXKIT_ASSIGN_OR_RETURN(auto exprStr, stringField(*u.second, "expr_str"));
    auto e = parseSympyRepr(exprStr);
    if (!e) {
      PathScope es(path_, "expr_str");
      return fail(e.error().message + " (at column " + std::to_string(e.error().loc.col) + ")");
    }
    FXKIT_ASSIGN_OR_RETURN(auto hint, member(*u.second, "hint", false));
    if (hint && !hint->is_null() && e->kind() == SymExpr::Kind::Symbol) {
      PathScope hs(path_, "hint");
      FXKIT_ASSIGN_OR_RETURN(auto hu, unionMember(*hint, "SymExprHint"));
      if (hu.first == "as_int" && hu.second->is_number_integer())
        program_.hints.emplace(std::string(e->name()), hu.second->get<int64_t>());
    }
    return *e;
  }

  Expected<Device> device(const Json &j) {
    FXKIT_ASSIGN_OR_RETURN(auto type, stringField(j, "type"));
    FXKIT_ASSIGN_OR_RETURN(auto index, member(j, "index", false));
    std::string spelled = type;
    if (index && !index->is_null()) {
      PathScope s(path_, "index");
      FXKIT_ASSIGN_OR_RETURN(auto i, integer(*index));
      spelled += ":" + std::to_string(i);
    }
    auto d = Device::parse(spelled);
    if (!d)
      return fail("bad device '" + spelled + "': " + d.error().message);
    return *d;
  }

  Expected<DType> dtype(const Json &j) {
    FXKIT_ASSIGN_OR_RETURN(auto code, integer(j));
    auto d = dtypeFromScalarType(code);
    if (!d)
      return fail("ScalarType " + std::to_string(code) + " has no fxkit dtype");
    return *d;
  }

  Expected<std::vector<SymExpr>> symIntList(const Json &obj, std::string_view key) {
    FXKIT_ASSIGN_OR_RETURN(auto m, member(obj, key));
    PathScope s(path_, key);
    FXKIT_TRY(array(*m));
    std::vector<SymExpr> out;
    for (size_t i = 0; i < m->size(); ++i) {
      PathScope is(path_, i);
      FXKIT_ASSIGN_OR_RETURN(auto e, symInt((*m)[i]));
      out.push_back(e);
    }
    return out;
  }

  /// A TensorMeta: dtype, sizes, strides and device (storage offset and layout are not part
  /// of fxkit's tensor types).
  Expected<TensorType> tensorMeta(const Json &j) {
    TensorType t;
    FXKIT_ASSIGN_OR_RETURN(auto dt, member(j, "dtype"));
    {
      PathScope s(path_, "dtype");
      FXKIT_ASSIGN_OR_RETURN(auto d, dtype(*dt));
      t.dtype = d;
    }
    FXKIT_ASSIGN_OR_RETURN(auto sizes, symIntList(j, "sizes"));
    FXKIT_ASSIGN_OR_RETURN(auto strides, symIntList(j, "strides"));
    if (sizes.size() != strides.size())
      return fail(std::to_string(sizes.size()) + " sizes but " + std::to_string(strides.size()) +
                  " strides");
    t.sizes = std::move(sizes);
    t.strides = std::move(strides);
    FXKIT_ASSIGN_OR_RETURN(auto dev, member(j, "device"));
    PathScope s(path_, "device");
    FXKIT_ASSIGN_OR_RETURN(auto d, device(*dev));
    t.device = d;
    return t;
  }

  Expected<Node *> nodeNamed(GraphState &gs, const std::string &name) {
    auto it = gs.nodes.find(name);
    if (it == gs.nodes.end())
      return fail("'" + name + "' names no value defined before this use");
    return it->second;
  }
  Expected<Node *> nameField(GraphState &gs, const Json &obj, std::string_view key) {
    FXKIT_ASSIGN_OR_RETURN(auto n, stringField(obj, key));
    PathScope s(path_, key);
    return nodeNamed(gs, n);
  }

  /// A list union member (`as_ints`, `as_tensors`, ...) item by item.
  template <typename Fn> Expected<Argument> listOf(const Json &items, Fn &&item) {
    FXKIT_TRY(array(items));
    std::vector<Argument> out;
    out.reserve(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
      PathScope s(path_, i);
      FXKIT_ASSIGN_OR_RETURN(auto a, item(items[i]));
      out.push_back(std::move(a));
    }
    return Argument::list(std::move(out));
  }

  /// `{"as_name": ...}` or `{"as_int"|"as_float"|"as_bool": ...}` of SymInt/SymFloat/SymBool
  /// arguments.
  Expected<Argument> symArgument(GraphState &gs, const Json &j) {
    FXKIT_ASSIGN_OR_RETURN(auto u, unionMember(j, "symbolic argument"));
    PathScope s(path_, u.first);
    if (u.first == "as_name") {
      FXKIT_ASSIGN_OR_RETURN(auto name, string(*u.second));
      FXKIT_ASSIGN_OR_RETURN(auto n, nodeNamed(gs, name));
      return Argument::node(n);
    }
    if (u.first == "as_int") {
      FXKIT_ASSIGN_OR_RETURN(auto v, integer(*u.second));
      return Argument::integer(v);
    }
    if (u.first == "as_float") {
      FXKIT_ASSIGN_OR_RETURN(auto v, floating(*u.second));
      return Argument::floating(v);
    }
    if (u.first == "as_bool") {
      FXKIT_ASSIGN_OR_RETURN(auto v, boolean(*u.second));
      return Argument::boolean(v);
    }
    return fail("unknown symbolic argument '" + std::string(u.first) + "'");
  }

  Expected<Argument> optionalTensor(GraphState &gs, const Json &j) {
    FXKIT_ASSIGN_OR_RETURN(auto u, unionMember(j, "OptionalTensorArgument"));
    PathScope s(path_, u.first);
    if (u.first == "as_none")
      return Argument::none();
    if (u.first != "as_tensor")
      return fail("expected as_tensor or as_none, not '" + std::string(u.first) + "'");
    FXKIT_ASSIGN_OR_RETURN(auto n, nameField(gs, *u.second, "name"));
    return Argument::node(n);
  }

  /// An Argument union (serialize.py's deserialize_input).
  Expected<Argument> argument(GraphState &gs, const Json &j, int depth = 0) {
    if (depth > 64)
      return fail("arguments nested too deeply");
    FXKIT_ASSIGN_OR_RETURN(auto u, unionMember(j, "Argument"));
    std::string_view kind = u.first;
    const Json &v = *u.second;
    PathScope s(path_, kind);
    if (kind == "as_none")
      return Argument::none();
    if (kind == "as_tensor") {
      FXKIT_ASSIGN_OR_RETURN(auto n, nameField(gs, v, "name"));
      return Argument::node(n);
    }
    if (kind == "as_tensors")
      return listOf(v, [&](const Json &t) -> Expected<Argument> {
        FXKIT_ASSIGN_OR_RETURN(auto n, nameField(gs, t, "name"));
        return Argument::node(n);
      });
    if (kind == "as_int" || kind == "as_sym_int" || kind == "as_sym_float" ||
        kind == "as_sym_bool") {
      if (kind != "as_int")
        return symArgument(gs, v);
      FXKIT_ASSIGN_OR_RETURN(auto i, integer(v));
      return Argument::integer(i);
    }
    if (kind == "as_ints")
      return listOf(v, [&](const Json &x) -> Expected<Argument> {
        FXKIT_ASSIGN_OR_RETURN(auto i, integer(x));
        return Argument::integer(i);
      });
    if (kind == "as_float") {
      FXKIT_ASSIGN_OR_RETURN(auto f, floating(v));
      return Argument::floating(f);
    }
    if (kind == "as_floats")
      return listOf(v, [&](const Json &x) -> Expected<Argument> {
        FXKIT_ASSIGN_OR_RETURN(auto f, floating(x));
        return Argument::floating(f);
      });
    if (kind == "as_bool") {
      FXKIT_ASSIGN_OR_RETURN(auto b, boolean(v));
      return Argument::boolean(b);
    }
    if (kind == "as_bools")
      return listOf(v, [&](const Json &x) -> Expected<Argument> {
        FXKIT_ASSIGN_OR_RETURN(auto b, boolean(x));
        return Argument::boolean(b);
      });
    if (kind == "as_string") {
      FXKIT_ASSIGN_OR_RETURN(auto str, string(v));
      return Argument::string(str);
    }
    if (kind == "as_strings")
      return listOf(v, [&](const Json &x) -> Expected<Argument> {
        FXKIT_ASSIGN_OR_RETURN(auto str, string(x));
        return Argument::string(str);
      });
    if (kind == "as_sym_ints" || kind == "as_sym_floats" || kind == "as_sym_bools")
      return listOf(v, [&](const Json &x) { return symArgument(gs, x); });
    if (kind == "as_optional_tensors")
      return listOf(v, [&](const Json &x) { return optionalTensor(gs, x); });
    if (kind == "as_optional_tensor")
      return optionalTensor(gs, v);
    if (kind == "as_scalar_type") {
      FXKIT_ASSIGN_OR_RETURN(auto d, dtype(v));
      return Argument::dtype(d);
    }
    if (kind == "as_layout") {
      static constexpr std::string_view kLayouts[] = {"",           "sparse_coo", "sparse_csr",
                                                      "sparse_csc", "sparse_bsr", "sparse_bsc",
                                                      "_mkldnn",    "strided"};
      FXKIT_ASSIGN_OR_RETURN(auto code, integer(v));
      if (code < 1 || code > 7)
        return fail("unknown Layout " + std::to_string(code));
      return Argument::layout(kLayouts[code]);
    }
    if (kind == "as_memory_format") {
      static constexpr std::string_view kFormats[] = {"", "contiguous_format", "channels_last",
                                                      "channels_last_3d", "preserve_format"};
      FXKIT_ASSIGN_OR_RETURN(auto code, integer(v));
      if (code < 1 || code > 4)
        return fail("unknown MemoryFormat " + std::to_string(code));
      return Argument::memoryFormat(kFormats[code]);
    }
    if (kind == "as_device") {
      FXKIT_ASSIGN_OR_RETURN(auto d, device(v));
      return Argument::device(d);
    }
    if (kind == "as_graph")
      return graphArgument(gs, v, depth);
    if (kind == "as_custom_obj") {
      FXKIT_ASSIGN_OR_RETURN(auto name, stringField(v, "name"));
      auto it = gs.nodes.find(name);
      if (it == gs.nodes.end())
        return fail("custom object '" + name +
                    "' is not a graph input (fxkit cannot hold TorchBind objects)");
      return Argument::node(it->second);
    }
    if (kind == "as_operator") {
      // FX prints an OpOverload argument as str(op): `aten.add.Tensor`.
      FXKIT_ASSIGN_OR_RETURN(auto op, string(v));
      std::string_view t = op;
      if (t.starts_with("torch.ops."))
        t.remove_prefix(std::string_view("torch.ops.").size());
      return Argument::opaque(t);
    }
    if (kind == "as_complex") {
      FXKIT_ASSIGN_OR_RETURN(auto re, member(v, "real"));
      FXKIT_ASSIGN_OR_RETURN(auto im, member(v, "imag"));
      auto r = floating(*re), i = floating(*im);
      FXKIT_TRY(r);
      FXKIT_TRY(i);
      // Python's repr of a complex: `(1+2j)`.
      std::string imag = pyFloatRepr(*i);
      std::string text = "(" + pyFloatRepr(*r) + (std::signbit(*i) ? "" : "+") + imag + "j)";
      return Argument::opaque(text);
    }
    if (kind == "as_int_lists")
      return listOf(v, [&](const Json &x) {
        return listOf(x, [&](const Json &y) -> Expected<Argument> {
          FXKIT_ASSIGN_OR_RETURN(auto i, integer(y));
          return Argument::integer(i);
        });
      });
    if (kind == "as_string_to_argument") {
      if (!v.is_object())
        return fail("expected an object, not " + json::typeName(v));
      std::vector<std::pair<std::string, Argument>> entries;
      for (auto it = v.begin(); it != v.end(); ++it) {
        PathScope ks(path_, it.key());
        FXKIT_ASSIGN_OR_RETURN(auto a, argument(gs, it.value(), depth + 1));
        entries.emplace_back(it.key(), std::move(a));
      }
      return Argument::dict(std::move(entries));
    }
    return fail("unknown argument kind '" + std::string(kind) + "'");
  }

  /// `as_graph`: the subgraph of a higher-order op becomes a child module of the graph and a
  /// get_attr node naming it, placed before the op (as PyTorch's deserializer places it).
  Expected<Argument> graphArgument(GraphState &gs, const Json &v, int depth) {
    FXKIT_ASSIGN_OR_RETURN(auto name, stringField(v, "name"));
    FXKIT_ASSIGN_OR_RETURN(auto g, member(v, "graph"));
    if (depth > 16 || subgraphDepth_ > 16)
      return fail("higher-order op graphs nested too deeply");
    Graph sub;
    sub.moduleName = name;
    {
      PathScope s(path_, "graph");
      ++subgraphDepth_;
      Status st = readGraph(*g, sub, nullptr);
      --subgraphDepth_;
      FXKIT_TRY(st);
    }
    if (!gs.graph->submodule(name))
      gs.graph->submodules.push_back(std::make_shared<const Graph>(std::move(sub)));
    Node *attr = gs.graph->create(OpKind::GetAttr, gs.graph->uniqueName(name), name);
    return Argument::node(attr);
  }

  /// Registers `node` under `name`, with the value its meta gives.
  Status define(GraphState &gs, const std::string &name, Node *node) {
    if (!gs.nodes.emplace(name, node).second)
      return fail("'" + name + "' is defined twice");
    if (auto t = gs.tensors.find(name); t != gs.tensors.end())
      node->value().v = t->second;
    else if (auto e = gs.symInts.find(name); e != gs.symInts.end())
      node->value().v = e->second;
    return Status::ok();
  }

  /// A fresh node name: `want` itself (errors when taken: PyTorch's deserializer refuses it).
  Expected<std::string> freshName(GraphState &gs, const std::string &want) {
    if (want.empty())
      return fail("empty value name");
    if (gs.graph->find(want))
      return fail("'" + want + "' is defined twice");
    return want;
  }

  /// The value name of a one-element output (`as_tensor`, `as_sym_int`, ...), or empty.
  std::string singleOutputName(const Json &out, std::string_view &kind) {
    if (!out.is_object() || out.size() != 1)
      return {};
    auto it = out.begin();
    kind = it.key();
    const Json &v = it.value();
    if (kind == "as_tensor" && v.is_object() && v.contains("name") && v["name"].is_string())
      return v["name"].get<std::string>();
    if ((kind == "as_sym_int" || kind == "as_sym_bool" || kind == "as_sym_float") &&
        v.is_object() && v.contains("as_name") && v["as_name"].is_string())
      return v["as_name"].get<std::string>();
    return {};
  }

  /// The getitem nodes of a node with several results (deserialize_multiple_outputs).
  Status getitems(GraphState &gs, Node *producer, const Json &outs,
                  std::vector<std::optional<TensorType>> &values, int depth) {
    FXKIT_TRY(array(outs));
    if (depth > 4)
      return fail("results nested too deeply");
    for (size_t i = 0; i < outs.size(); ++i) {
      PathScope s(path_, i);
      const Json &o = outs[i];
      Argument index = Argument::integer(static_cast<int64_t>(i));
      // Items of an `as_tensors` result are TensorArguments ({"name": ...}), those of
      // `as_sym_ints` SymIntArguments ({"as_name": ...}).
      if (o.is_object() && o.size() == 1 && (o.contains("name") || o.contains("as_name"))) {
        FXKIT_ASSIGN_OR_RETURN(auto name, stringField(o, o.contains("name") ? "name" : "as_name"));
        FXKIT_TRY(getitem(gs, producer, i, name, values));
        continue;
      }
      FXKIT_ASSIGN_OR_RETURN(auto u, unionMember(o, "result"));
      PathScope us(path_, u.first);
      std::string_view kind = u.first;
      if (kind == "as_tensor" || kind == "as_sym_int" || kind == "as_sym_float" ||
          kind == "as_sym_bool") {
        FXKIT_ASSIGN_OR_RETURN(auto name, kind == "as_tensor" ? stringField(*u.second, "name")
                                                              : stringField(*u.second, "as_name"));
        FXKIT_TRY(getitem(gs, producer, i, name, values));
      } else if (kind == "as_none") {
        Node *n = gs.graph->create(OpKind::CallFunction, gs.graph->uniqueName("as_none"),
                                   "operator.getitem",
                                   Argument::tuple({Argument::node(producer), index}));
        (void)n;
        values.push_back(std::nullopt);
      } else if (kind == "as_tensors" || kind == "as_sym_ints" || kind == "as_sym_floats" ||
                 kind == "as_sym_bools") {
        Node *list = gs.graph->create(OpKind::CallFunction, gs.graph->uniqueName("getitem"),
                                      "operator.getitem",
                                      Argument::tuple({Argument::node(producer), index}));
        std::vector<std::optional<TensorType>> inner;
        FXKIT_TRY(getitems(gs, list, *u.second, inner, depth + 1));
        list->value().v = inner;
        values.push_back(std::nullopt);
      } else {
        return fail("unsupported result kind '" + std::string(kind) + "'");
      }
    }
    return Status::ok();
  }

  Status getitem(GraphState &gs, Node *producer, size_t index, const std::string &name,
                 std::vector<std::optional<TensorType>> &values) {
    FXKIT_ASSIGN_OR_RETURN(auto fresh, freshName(gs, name));
    Node *n = gs.graph->create(OpKind::CallFunction, fresh, "operator.getitem",
                               Argument::tuple({Argument::node(producer),
                                                Argument::integer(static_cast<int64_t>(index))}));
    FXKIT_TRY(define(gs, name, n));
    values.push_back(n->value().tensor() ? std::optional<TensorType>(*n->value().tensor())
                                         : std::nullopt);
    return Status::ok();
  }

  /// One serialized node (deserialize_node).
  Status node(GraphState &gs, const Json &n, bool root) {
    FXKIT_ASSIGN_OR_RETURN(auto targetStr, stringField(n, "target"));
    const std::string &serialized = targetStr;
    if (serialized.starts_with("#")) {
      PathScope s(path_, "target");
      return fail("extension operator '" + serialized + "' is not supported");
    }
    std::string target = fxTarget(serialized);
    bool hop = serialized.starts_with("torch.ops.higher_order.");
    bool symOp = isSymOpTarget(serialized);
    const OpInfo *op = OpRegistry::instance().lookup(target);

    FXKIT_ASSIGN_OR_RETURN(auto inputs, member(n, "inputs"));
    FXKIT_ASSIGN_OR_RETURN(auto outputs, member(n, "outputs"));
    {
      PathScope s(path_, "outputs");
      FXKIT_TRY(array(*outputs));
    }
    std::vector<Argument> args;
    std::vector<std::pair<std::string, Argument>> kwargs;
    RecordedCall recorded;
    {
      PathScope s(path_, "inputs");
      FXKIT_TRY(array(*inputs));
      for (size_t i = 0; i < inputs->size(); ++i) {
        PathScope is(path_, i);
        const Json &in = (*inputs)[i];
        FXKIT_ASSIGN_OR_RETURN(auto name, stringField(in, "name"));
        FXKIT_ASSIGN_OR_RETURN(auto a, member(in, "arg"));
        FXKIT_ASSIGN_OR_RETURN(auto kindJ, member(in, "kind", false));
        int64_t kind = 0;
        if (kindJ && !kindJ->is_null()) {
          PathScope ks(path_, "kind");
          FXKIT_ASSIGN_OR_RETURN(auto k, integer(*kindJ));
          kind = k;
        }
        Expected<Argument> value = Error("");
        {
          PathScope as(path_, "arg");
          value = argument(gs, *a);
        }
        FXKIT_TRY(value);
        bool positional;
        if (symOp)
          positional = true;
        else if (hop)
          positional = name.empty();
        else if (kind == 1)
          positional = true;
        else if (kind == 2)
          positional = isPythonKeyword(name);
        else if (op) {
          // Archives older than ArgumentKind: positional when the schema says so.
          int idx = op->schema.indexOf(name);
          positional =
              idx < 0 || (!op->schema.args[idx].hasDefault && !op->schema.args[idx].kwargOnly);
        } else {
          positional = true;
        }
        if (positional) {
          if (!kwargs.empty())
            return fail("positional argument '" + name + "' after keyword arguments");
          args.push_back(value.take());
        } else {
          for (const auto &kv : kwargs)
            if (kv.first == name)
              return fail("keyword argument '" + name + "' given twice");
          kwargs.emplace_back(name, value.take());
        }
        recorded.argNames.push_back(name);
      }
    }

    // The node's name: its single result's, else the recorded name, else FX's default.
    const Json &outs = *outputs;
    std::string_view singleKind;
    std::string single = outs.size() == 1 ? singleOutputName(outs[0], singleKind) : "";
    FXKIT_ASSIGN_OR_RETURN(auto hopSingle, member(n, "is_hop_single_tensor_return", false));
    bool hopTuple = hop && hopSingle && hopSingle->is_boolean() && !hopSingle->get<bool>();
    bool named = !single.empty() && !(singleKind == "as_tensor" && hopTuple);
    bool listResult = outs.size() == 1 && outs[0].is_object() && outs[0].contains("as_tensors");
    std::string name;
    if (named) {
      PathScope s(path_, "outputs");
      FXKIT_ASSIGN_OR_RETURN(auto fresh, freshName(gs, single));
      name = fresh;
    } else {
      FXKIT_ASSIGN_OR_RETURN(auto recordedName, member(n, "name", false));
      if (recordedName && recordedName->is_string() &&
          !recordedName->get_ref<const std::string &>().empty()) {
        PathScope s(path_, "name");
        FXKIT_ASSIGN_OR_RETURN(auto fresh, freshName(gs, recordedName->get<std::string>()));
        name = fresh;
      } else {
        std::string base = fxNameForTarget(target);
        if (outs.size() == 1 && singleKind == "as_none")
          base += "_unused";
        name = gs.graph->uniqueName(base);
      }
    }
    Node *fx =
        gs.graph->create(OpKind::CallFunction, name, target, Argument::tuple(std::move(args)),
                         Argument::dict(std::move(kwargs)));
    if (root && !op && !hop && !symOp) {
      recorded.returnsTensorList = listResult;
      program_.calls.emplace(name, std::move(recorded));
    }
    PathScope s(path_, "outputs");
    if (named) {
      std::string_view k = singleKind;
      if (k == "as_tensor" && !gs.tensors.count(single)) {
        PathScope os(path_, size_t{0});
        return fail("no tensor_values entry for '" + single + "'");
      }
      return define(gs, single, fx);
    }
    if (outs.empty() || (outs.size() == 1 && singleKind == "as_none"))
      return Status::ok();
    std::vector<std::optional<TensorType>> values;
    Status st = Status::ok();
    if (listResult) {
      PathScope ls(path_, size_t{0});
      PathScope ts(path_, "as_tensors");
      st = getitems(gs, fx, outs[0]["as_tensors"], values, 0);
    } else if (hopTuple && outs.size() == 1 && singleKind == "as_tensor") {
      PathScope ls(path_, size_t{0});
      PathScope ts(path_, "as_tensor");
      FXKIT_ASSIGN_OR_RETURN(auto nm, stringField(outs[0]["as_tensor"], "name"));
      st = getitem(gs, fx, 0, nm, values);
    } else {
      st = getitems(gs, fx, outs, values, 0);
    }
    FXKIT_TRY(st);
    fx->value().v = std::move(values);
    return Status::ok();
  }

  /// Reads `tensor_values`, `sym_int_values`, ... of a graph into gs.
  Status metas(GraphState &gs, const Json &g) {
    FXKIT_ASSIGN_OR_RETURN(auto tv, member(g, "tensor_values"));
    {
      PathScope s(path_, "tensor_values");
      if (!tv->is_object())
        return fail("expected an object, not " + json::typeName(*tv));
      for (auto it = tv->begin(); it != tv->end(); ++it) {
        PathScope ks(path_, it.key());
        FXKIT_ASSIGN_OR_RETURN(auto t, tensorMeta(it.value()));
        gs.tensors.emplace(it.key(), std::move(t));
      }
    }
    FXKIT_ASSIGN_OR_RETURN(auto si, member(g, "sym_int_values", false));
    if (si) {
      PathScope s(path_, "sym_int_values");
      if (!si->is_object())
        return fail("expected an object, not " + json::typeName(*si));
      for (auto it = si->begin(); it != si->end(); ++it) {
        PathScope ks(path_, it.key());
        FXKIT_ASSIGN_OR_RETURN(auto e, symInt(it.value()));
        gs.symInts.emplace(it.key(), e);
      }
    }
    for (std::string_view key : {"sym_bool_values", "sym_float_values", "custom_obj_values"}) {
      FXKIT_ASSIGN_OR_RETURN(auto m, member(g, key, false));
      if (m && m->is_object())
        for (auto it = m->begin(); it != m->end(); ++it)
          gs.otherSyms.insert(it.key());
    }
    return Status::ok();
  }

  /// A Graph (deserialize_graph); `signature` is the root graph's GraphSignature, which names
  /// the placeholders of constant inputs.
  Status readGraph(const Json &g, Graph &out, const Json *signature) {
    GraphState gs;
    gs.graph = &out;
    FXKIT_TRY(metas(gs, g));
    FXKIT_ASSIGN_OR_RETURN(auto inputs, member(g, "inputs"));
    {
      PathScope s(path_, "inputs");
      FXKIT_TRY(array(*inputs));
      for (size_t i = 0; i < inputs->size(); ++i) {
        PathScope is(path_, i);
        FXKIT_ASSIGN_OR_RETURN(auto u, unionMember((*inputs)[i], "graph input"));
        PathScope us(path_, u.first);
        std::string name;
        if (u.first == "as_tensor" || u.first == "as_custom_obj" || u.first == "as_token") {
          FXKIT_ASSIGN_OR_RETURN(auto nm, stringField(*u.second, "name"));
          name = nm;
        } else if (u.first == "as_sym_int" || u.first == "as_sym_float" ||
                   u.first == "as_sym_bool") {
          FXKIT_ASSIGN_OR_RETURN(auto nm, stringField(*u.second, "as_name"));
          name = nm;
        } else if (signature && i < program_.inputs.size()) {
          name = program_.inputs[i].name; // a constant input: named by its spec
          if (name.empty())
            return fail("constant graph input " + std::to_string(i) + " has no name");
        } else {
          return fail("unsupported graph input '" + std::string(u.first) + "'");
        }
        FXKIT_TRY(freshName(gs, name));
        Node *p = out.create(OpKind::Placeholder, name, name);
        FXKIT_TRY(define(gs, name, p));
      }
    }
    FXKIT_ASSIGN_OR_RETURN(auto nodes, member(g, "nodes"));
    {
      PathScope s(path_, "nodes");
      FXKIT_TRY(array(*nodes));
      out.reserve(nodes->size() + inputs->size() + 1);
      for (size_t i = 0; i < nodes->size(); ++i) {
        PathScope is(path_, i);
        FXKIT_TRY(node(gs, (*nodes)[i], signature != nullptr));
      }
    }
    FXKIT_ASSIGN_OR_RETURN(auto outputs, member(g, "outputs"));
    std::vector<Argument> returned;
    {
      PathScope s(path_, "outputs");
      FXKIT_TRY(array(*outputs));
      for (size_t i = 0; i < outputs->size(); ++i) {
        PathScope is(path_, i);
        FXKIT_ASSIGN_OR_RETURN(auto a, argument(gs, (*outputs)[i]));
        returned.push_back(std::move(a));
      }
    }
    FXKIT_ASSIGN_OR_RETURN(auto single, member(g, "is_single_tensor_return", false));
    Argument payload;
    if (single && single->is_boolean() && single->get<bool>()) {
      if (returned.size() != 1) {
        PathScope s(path_, "is_single_tensor_return");
        return fail("a single tensor return with " + std::to_string(returned.size()) + " outputs");
      }
      payload = returned[0];
    } else {
      payload = Argument::tuple(std::move(returned));
    }
    out.create(OpKind::Output, out.uniqueName("output"), "output", Argument::tuple({payload}));
    dropUnusedGetitems(out);
    return Status::ok();
  }

  /// The serializer names results nobody uses `<node>_unused_<i>`; PyTorch's deserializer makes
  /// getitem nodes for them, which the saved graph never had.
  static void dropUnusedGetitems(Graph &g) {
    std::vector<Node *> drop;
    for (Node *n : g) {
      if (n->op() != OpKind::CallFunction || n->target() != "operator.getitem" ||
          !n->users().empty() || n->args().items().empty() || !n->args().items()[0].isNode())
        continue;
      std::string prefix = n->args().items()[0].asNode()->name() + "_unused_";
      const std::string &name = n->name();
      if (name.size() > prefix.size() && name.starts_with(prefix) &&
          name.find_first_not_of("0123456789", prefix.size()) == std::string::npos)
        drop.push_back(n);
    }
    for (Node *n : drop)
      g.erase(n);
  }

  Status signature(const Json &sig) {
    FXKIT_ASSIGN_OR_RETURN(auto ins, member(sig, "input_specs"));
    {
      PathScope s(path_, "input_specs");
      FXKIT_TRY(array(*ins));
      for (size_t i = 0; i < ins->size(); ++i) {
        PathScope is(path_, i);
        FXKIT_ASSIGN_OR_RETURN(auto u, unionMember((*ins)[i], "InputSpec"));
        PathScope us(path_, u.first);
        const Json &v = *u.second;
        ProgramInputSpec spec;
        std::string_view k = u.first;
        auto argName = [&](std::string_view field) -> Status {
          FXKIT_ASSIGN_OR_RETURN(auto a, member(v, "arg"));
          PathScope as(path_, "arg");
          FXKIT_ASSIGN_OR_RETURN(auto nm, stringField(*a, field));
          spec.name = nm;
          return Status::ok();
        };
        auto targetField = [&](std::string_view field) -> Status {
          FXKIT_ASSIGN_OR_RETURN(auto t, stringField(v, field));
          spec.target = t;
          return Status::ok();
        };
        Status st = Status::ok();
        if (k == "user_input") {
          spec.kind = InputKind::UserInput;
          FXKIT_ASSIGN_OR_RETURN(auto a, member(v, "arg"));
          PathScope as(path_, "arg");
          FXKIT_ASSIGN_OR_RETURN(auto au, unionMember(*a, "Argument"));
          const Json &av = *au.second;
          if (av.is_object() && av.contains("name") && av["name"].is_string())
            spec.name = av["name"].get<std::string>();
          else if (av.is_object() && av.contains("as_name") && av["as_name"].is_string())
            spec.name = av["as_name"].get<std::string>();
        } else if (k == "parameter") {
          spec.kind = InputKind::Parameter;
          st = argName("name");
          if (st)
            st = targetField("parameter_name");
        } else if (k == "buffer") {
          spec.kind = InputKind::Buffer;
          st = argName("name");
          if (st)
            st = targetField("buffer_name");
          FXKIT_ASSIGN_OR_RETURN(auto p, member(v, "persistent", false));
          spec.persistent = !p || !p->is_boolean() || p->get<bool>();
        } else if (k == "tensor_constant") {
          spec.kind = InputKind::TensorConstant;
          st = argName("name");
          if (st)
            st = targetField("tensor_constant_name");
        } else if (k == "custom_obj") {
          spec.kind = InputKind::CustomObj;
          st = argName("name");
          if (st)
            st = targetField("custom_obj_name");
          if (st) {
            auto a = member(v, "arg");
            if (a && (*a)->is_object() && (*a)->contains("class_fqn") &&
                (**a)["class_fqn"].is_string())
              spec.classFqn = (**a)["class_fqn"].get<std::string>();
          }
        } else if (k == "token") {
          spec.kind = InputKind::Token;
          st = argName("name");
        } else if (k == "constant_input") {
          spec.kind = InputKind::ConstantInput;
          FXKIT_ASSIGN_OR_RETURN(auto nm, stringField(v, "name"));
          spec.name = nm;
          FXKIT_ASSIGN_OR_RETURN(auto value, member(v, "value"));
          spec.constantValue = value->dump();
        } else {
          return fail("unknown input spec '" + std::string(k) + "'");
        }
        FXKIT_TRY(st);
        program_.inputs.push_back(std::move(spec));
      }
    }
    FXKIT_ASSIGN_OR_RETURN(auto outs, member(sig, "output_specs"));
    PathScope s(path_, "output_specs");
    FXKIT_TRY(array(*outs));
    static const std::pair<std::string_view, OutputKind> kKinds[] = {
        {"user_output", OutputKind::UserOutput},
        {"loss_output", OutputKind::LossOutput},
        {"buffer_mutation", OutputKind::BufferMutation},
        {"gradient_to_parameter", OutputKind::GradientToParameter},
        {"gradient_to_user_input", OutputKind::GradientToUserInput},
        {"user_input_mutation", OutputKind::UserInputMutation},
        {"token", OutputKind::Token},
        {"parameter_mutation", OutputKind::ParameterMutation},
    };
    static const std::pair<OutputKind, std::string_view> kTargets[] = {
        {OutputKind::BufferMutation, "buffer_name"},
        {OutputKind::GradientToParameter, "parameter_name"},
        {OutputKind::GradientToUserInput, "user_input_name"},
        {OutputKind::UserInputMutation, "user_input_name"},
        {OutputKind::ParameterMutation, "parameter_name"},
    };
    for (size_t i = 0; i < outs->size(); ++i) {
      PathScope is(path_, i);
      FXKIT_ASSIGN_OR_RETURN(auto u, unionMember((*outs)[i], "OutputSpec"));
      PathScope us(path_, u.first);
      ProgramOutputSpec spec;
      bool known = false;
      for (const auto &kk : kKinds)
        if (kk.first == u.first) {
          spec.kind = kk.second;
          known = true;
        }
      if (!known)
        return fail("unknown output spec '" + std::string(u.first) + "'");
      FXKIT_ASSIGN_OR_RETURN(auto a, member(*u.second, "arg"));
      const Json &av = *a;
      // user_output's arg is an Argument union; the others a TensorArgument/TokenArgument.
      const Json *holder = &av;
      if (spec.kind == OutputKind::UserOutput && av.is_object() && av.size() == 1)
        holder = &av.begin().value();
      if (holder->is_object() && holder->contains("name") && (*holder)["name"].is_string())
        spec.name = (*holder)["name"].get<std::string>();
      else if (holder->is_object() && holder->contains("as_name") &&
               (*holder)["as_name"].is_string())
        spec.name = (*holder)["as_name"].get<std::string>();
      for (const auto &kt : kTargets)
        if (kt.first == spec.kind) {
          FXKIT_ASSIGN_OR_RETURN(auto t, stringField(*u.second, kt.second));
          spec.target = t;
        }
      program_.outputs.push_back(std::move(spec));
    }
    return Status::ok();
  }

  Status rangeConstraints(const Json &rc) {
    if (!rc.is_object())
      return fail("expected an object, not " + json::typeName(rc));
    for (auto it = rc.begin(); it != rc.end(); ++it) {
      PathScope s(path_, it.key());
      RangeConstraint r;
      for (std::string_view key : {"min_val", "max_val"}) {
        FXKIT_ASSIGN_OR_RETURN(auto m, member(it.value(), key, false));
        if (!m || m->is_null())
          continue;
        PathScope ks(path_, key);
        FXKIT_ASSIGN_OR_RETURN(auto v, integer(*m));
        (key == "min_val" ? r.min : r.max) = v;
      }
      program_.ranges[it.key()] = r;
    }
    return Status::ok();
  }

  Expected<Graph> program(const Json &root) {
    Graph g;
    FXKIT_ASSIGN_OR_RETURN(auto version, member(root, "schema_version"));
    {
      PathScope s(path_, "schema_version");
      FXKIT_ASSIGN_OR_RETURN(auto major, member(*version, "major"));
      FXKIT_ASSIGN_OR_RETURN(auto minor, member(*version, "minor"));
      auto ma = integer(*major), mi = integer(*minor);
      FXKIT_TRY(ma);
      FXKIT_TRY(mi);
      if (*ma != 8)
        return fail("schema version " + std::to_string(*ma) + "." + std::to_string(*mi) +
                    ": fxkit reads major version 8");
      program_.schemaMajor = static_cast<int>(*ma);
      program_.schemaMinor = static_cast<int>(*mi);
    }
    if (auto tv = member(root, "torch_version", false); tv && *tv && (*tv)->is_string())
      program_.torchVersion = (*tv)->get<std::string>();
    if (auto ov = member(root, "opset_version", false); ov && *ov && (*ov)->is_object())
      for (auto it = (*ov)->begin(); it != (*ov)->end(); ++it)
        if (it.value().is_number_integer())
          program_.opsetVersion[it.key()] = it.value().get<int64_t>();
    if (auto vs = member(root, "verifiers", false); vs && *vs && (*vs)->is_array())
      for (const Json &v : **vs)
        if (v.is_string())
          program_.verifiers.push_back(v.get<std::string>());
    FXKIT_ASSIGN_OR_RETURN(auto rc, member(root, "range_constraints", false));
    if (rc) {
      PathScope s(path_, "range_constraints");
      FXKIT_TRY(rangeConstraints(*rc));
    }
    FXKIT_ASSIGN_OR_RETURN(auto gm, member(root, "graph_module"));
    PathScope s(path_, "graph_module");
    FXKIT_ASSIGN_OR_RETURN(auto sig, member(*gm, "signature"));
    {
      PathScope ss(path_, "signature");
      FXKIT_TRY(signature(*sig));
    }
    if (auto mcg = member(*gm, "module_call_graph", false); mcg && *mcg)
      program_.moduleCallGraph = (*mcg)->dump();
    FXKIT_ASSIGN_OR_RETURN(auto graph, member(*gm, "graph"));
    {
      PathScope gs(path_, "graph");
      FXKIT_TRY(readGraph(*graph, g, sig));
    }
    // The signature names every placeholder and every returned value, in order.
    std::vector<Node *> placeholders;
    for (Node *n : g)
      if (n->op() == OpKind::Placeholder)
        placeholders.push_back(n);
    PathScope ss(path_, "signature");
    if (placeholders.size() != program_.inputs.size()) {
      PathScope is(path_, "input_specs");
      return fail(std::to_string(program_.inputs.size()) + " input specs for " +
                  std::to_string(placeholders.size()) + " graph inputs");
    }
    for (size_t i = 0; i < placeholders.size(); ++i)
      if (program_.inputs[i].name != placeholders[i]->name()) {
        PathScope is(path_, "input_specs");
        PathScope ii(path_, i);
        return fail("input spec " + std::to_string(i) + " names '" + program_.inputs[i].name +
                    "' but graph input " + std::to_string(i) + " is '" + placeholders[i]->name() +
                    "'");
      }
    size_t returned = 0;
    if (Node *out = g.outputNode(); out && !out->args().items().empty()) {
      const Argument &payload = out->args().items()[0];
      returned = payload.kind() == Argument::Kind::Tuple ? payload.items().size() : 1;
    }
    if (returned != program_.outputs.size()) {
      PathScope os(path_, "output_specs");
      return fail(std::to_string(program_.outputs.size()) + " output specs for " +
                  std::to_string(returned) + " graph outputs");
    }
    return g;
  }

  const Path &path() const { return path_; }

private:
  std::string_view text_;
  std::string fileName_;
  ExportedProgram &program_;
  Path path_;
  int subgraphDepth_ = 0;
};

/// Reads `<dir><config file>`'s payloads (weights or constants) into program.weights.
Status readPayloads(const zip::Reader &zip, const std::string &root, const std::string &dir,
                    const std::string &configName, const std::string &displayName,
                    ExportedProgram &program) {
  const zip::Entry *cfgEntry = zip.find(root + dir + configName);
  if (!cfgEntry) {
    // Archives before the payload configs pickled the whole state dict (`<model>.pt`).
    return Status::ok();
  }
  FXKIT_ASSIGN_OR_RETURN(auto text, zip.read(*cfgEntry));
  std::string cfgFile = displayName + "[" + cfgEntry->name + "]";
  FXKIT_ASSIGN_OR_RETURN(auto parsed, json::parseJson(text, cfgFile));
  ExportedProgram scratch; // hints of weight metadata are not program symbols
  ProgramReader r(text, cfgFile, scratch);
  Path path;
  FXKIT_ASSIGN_OR_RETURN(auto config, r.member(parsed, "config"));
  if (!config->is_object())
    return json::errorAtPath("expected an object", text, {"config"}, cfgFile);
  std::unordered_map<std::string, Tensor> files; // path_name -> flat storage
  for (auto it = config->begin(); it != config->end(); ++it) {
    const Json &meta = it.value();
    auto at = [&](const std::string &msg, std::string_view key = {}) {
      Path p{"config", it.key()};
      if (!key.empty())
        p.push_back(key);
      return json::errorAtPath(msg, text, p, cfgFile);
    };
    if (!meta.is_object() || !meta.contains("path_name") || !meta["path_name"].is_string())
      return at("expected a PayloadMeta with a path_name");
    std::string pathName = meta["path_name"].get<std::string>();
    ProgramWeight w;
    w.isParameter =
        meta.contains("is_param") && meta["is_param"].is_boolean() && meta["is_param"].get<bool>();
    bool pickled = meta.contains("use_pickle") && meta["use_pickle"].is_boolean() &&
                   meta["use_pickle"].get<bool>();
    if (pickled || !meta.contains("tensor_meta") || meta["tensor_meta"].is_null()) {
      w.unavailable =
          "'" + it.key() + "' is a pickled payload (" + pathName + "), which fxkit does not read";
      program.weights[it.key()] = std::move(w);
      continue;
    }
    auto type = r.tensorMeta(meta["tensor_meta"]);
    if (!type) {
      Error e = at(type.error().message, "tensor_meta");
      return e;
    }
    const Json &tm = meta["tensor_meta"];
    w.requiresGrad = tm.contains("requires_grad") && tm["requires_grad"].is_boolean() &&
                     tm["requires_grad"].get<bool>();
    int64_t offset = 0;
    if (tm.contains("storage_offset") && tm["storage_offset"].is_object() &&
        tm["storage_offset"].contains("as_int") &&
        tm["storage_offset"]["as_int"].is_number_integer())
      offset = tm["storage_offset"]["as_int"].get<int64_t>();
    std::vector<int64_t> sizes, strides;
    for (size_t d = 0; d < type->sizes.size(); ++d) {
      if (!type->sizes[d].isConstant() || !type->strides[d].isConstant())
        return at("a weight with symbolic sizes", "tensor_meta");
      sizes.push_back(type->sizes[d].constant());
      strides.push_back(type->strides[d].constant());
    }
    auto file = files.find(pathName);
    if (file == files.end()) {
      const zip::Entry *e = zip.find(root + dir + pathName);
      if (!e)
        return at("payload '" + root + dir + pathName + "' is not in the archive", "path_name");
      FXKIT_ASSIGN_OR_RETURN(auto bytes, zip.read(*e));
      int item = dtypeItemSize(type->dtype);
      if (bytes.size() % static_cast<size_t>(item) != 0)
        return at("payload " + pathName + " has " + std::to_string(bytes.size()) +
                      " bytes, not a multiple of the element size " + std::to_string(item),
                  "path_name");
      int64_t numel = static_cast<int64_t>(bytes.size() / static_cast<size_t>(item));
      Expected<Tensor> flat = Error("");
      if (numel == 0) {
        // PyTorch stores no bytes for an empty tensor, nor for a fake one (a program exported
        // without real weights), and loads zeros of its size. An empty tensor is made here; a
        // fake one is reported, not allocated: its zeros are no weights to run with.
        int64_t elements = 1;
        for (int64_t s : sizes)
          elements = s == 0 ? 0 : elements;
        if (elements != 0) {
          w.unavailable = "'" + it.key() + "' is stored without data (a fake tensor)";
          program.weights[it.key()] = std::move(w);
          continue;
        }
        flat = Tensor::zeros(type->dtype, sizes);
        if (flat) {
          w.tensor = flat.take();
          program.weights[it.key()] = std::move(w);
          continue;
        }
      } else {
        flat =
            Tensor::fromBytes(type->dtype, {numel},
                              std::span<const std::byte>(
                                  reinterpret_cast<const std::byte *>(bytes.data()), bytes.size()));
      }
      if (!flat)
        return at(flat.error().message, "tensor_meta");
      file = files.emplace(pathName, flat.take()).first;
    }
    if (file->second.dtype() != type->dtype)
      return at("payload " + pathName + " is shared by weights of different dtypes", "tensor_meta");
    auto view = file->second.asStrided(sizes, strides, offset);
    if (!view)
      return at("'" + it.key() + "' does not fit its payload: " + view.error().message,
                "tensor_meta");
    w.tensor = view.take();
    program.weights[it.key()] = std::move(w);
  }
  return Status::ok();
}

} // namespace

Expected<Graph> importPt2(std::string_view bytes, const std::string &fileName) {
  auto zip = zip::Reader::open(bytes, fileName);
  FXKIT_TRY(zip);
  if (zip->entries().empty())
    return Error("not a PT2 archive: the zip archive is empty", SourceLoc{fileName, 0, 0});
  // Like PyTorchStreamReader: every record lives under the folder of the first entry.
  const std::string &first = zip->entries()[0].name;
  size_t slash = first.find('/');
  if (slash == std::string::npos)
    return Error("not a PT2 archive: entry '" + first + "' is not in a top-level folder",
                 SourceLoc{fileName, 0, 0});
  std::string root = first.substr(0, slash + 1);
  auto readText = [&](const std::string &name) -> Expected<std::string> {
    const zip::Entry *e = zip->find(root + name);
    if (!e)
      return Error("not a PT2 archive: no '" + root + name + "'", SourceLoc{fileName, 0, 0});
    return zip->read(*e);
  };
  FXKIT_ASSIGN_OR_RETURN(auto format, readText("archive_format"));
  if (format != "pt2")
    return Error("not a PT2 archive: archive_format is '" + format.substr(0, 40) +
                     "', expected 'pt2'",
                 SourceLoc{fileName, 0, 0});
  if (const zip::Entry *v = zip->find(root + "archive_version")) {
    FXKIT_ASSIGN_OR_RETURN(auto version, zip->read(*v));
    if (version != "0")
      return Error("PT2 archive version '" + version.substr(0, 40) + "': fxkit reads version 0",
                   SourceLoc{fileName, 0, 0});
  }
  // The models: `models/<name>.json`; torch.export.load returns "model".
  std::vector<std::string> models;
  const std::string modelsDir = root + "models/";
  for (const zip::Entry &e : zip->entries())
    if (e.name.starts_with(modelsDir) && e.name.ends_with(".json") &&
        e.name.find('/', modelsDir.size()) == std::string::npos)
      models.push_back(e.name.substr(modelsDir.size(), e.name.size() - modelsDir.size() - 5));
  std::string model;
  for (const std::string &m : models)
    if (m == "model")
      model = m;
  if (model.empty() && models.size() == 1)
    model = models[0];
  if (model.empty()) {
    std::string names;
    for (const std::string &m : models)
      names += (names.empty() ? "" : ", ") + m;
    return Error(models.empty()
                     ? std::string("PT2 archive without an exported program "
                                   "(no models/<name>.json; AOTInductor-only "
                                   "archives are not read)")
                     : "PT2 archive with several programs and none named 'model': " + names,
                 SourceLoc{fileName, 0, 0});
  }
  const zip::Entry *modelEntry = zip->find(modelsDir + model + ".json");
  FXKIT_ASSIGN_OR_RETURN(auto text, zip->read(*modelEntry));
  std::string jsonFile = fileName + "[" + modelEntry->name + "]";
  FXKIT_ASSIGN_OR_RETURN(auto parsed, json::parseJson(text, jsonFile));
  auto program = std::make_shared<ExportedProgram>();
  ProgramReader reader(text, jsonFile, *program);
  auto graph = reader.program(parsed);
  if (!graph)
    return graph;
  FXKIT_TRY(readPayloads(*zip, root, "data/weights/", model + "_weights_config.json", fileName,
                         *program));
  FXKIT_TRY(readPayloads(*zip, root, "data/constants/", model + "_constants_config.json", fileName,
                         *program));
  if (const zip::Entry *e = zip->find(root + "data/sample_inputs/" + model + ".pt")) {
    FXKIT_ASSIGN_OR_RETURN(auto si, zip->read(*e));
    program->sampleInputs = std::move(si);
  }
  // Every parameter, buffer and constant the signature names must have its weight entry.
  for (const ProgramInputSpec &s : program->inputs) {
    bool needsWeight = s.kind == InputKind::Parameter || s.kind == InputKind::Buffer ||
                       s.kind == InputKind::TensorConstant;
    if (needsWeight && !program->weights.count(s.target)) {
      ProgramWeight w;
      w.unavailable = "'" + s.target + "' (input '" + s.name +
                      "') has no payload in the archive's weights or constants";
      program->weights[s.target] = std::move(w);
    }
  }
  graph->attachments[std::string(kExportedProgramKey)] = std::move(program);
  return graph;
}

} // namespace fxkit
