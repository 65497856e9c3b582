#include "exporters/pt2/Pt2Writer.h"

#include "ir/OutputValues.h"
#include "ir/ops/OpRegistry.h"
#include "support/pt2/ExportedProgram.h"
#include "support/pt2/Zip.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <unordered_map>

namespace fxkit {
namespace {

using Json = nlohmann::ordered_json;

/// The schema version PyTorch 2.11 writes and reads (torch/_export/serde/schema.py).
constexpr int kSchemaMajor = 8, kSchemaMinor = 17;
/// `torch._C._get_max_operator_version()` of PyTorch 2.11: the aten opset of its archives.
constexpr int kAtenOpset = 10;

Json floatJson(double v) {
  if (std::isnan(v))
    return "NaN";
  if (std::isinf(v))
    return v > 0 ? "Infinity" : "-Infinity";
  return v;
}

Json tensorArg(const std::string &name) { return Json{{"name", name}}; }

bool isSymOpTarget(std::string_view t) {
  return t.starts_with("operator.") || t == "math.trunc" || t.starts_with("torch.sym_") ||
         t == "torch.ops.aten.item.default";
}

/// How PyTorch names a target in the archive (`operator.add` is `_operator.add`).
std::string serializedTarget(std::string_view t) {
  if (t.starts_with("operator."))
    return "_" + std::string(t);
  return std::string(t);
}

/// What kind of value a node holds, for choosing its argument encoding.
enum class ValueKind { Tensor, SymInt, SymFloat, SymBool, CustomObj, Other };

/// Serializes one graph (the root or a subgraph): GraphModuleSerializer's GraphState.
class GraphWriter {
public:
  using Hints = std::map<std::string, int64_t, std::less<>>;
  GraphWriter(const Graph &graph, const ExportedProgram *program, const Hints &hints, bool root)
      : g_(graph), program_(program), hints_(hints), root_(root) {}

  Expected<Json> write() {
    for (Node *n : g_)
      if (Status st = visit(*n); !st)
        return st.takeError();
    Json out = Json::object();
    out["inputs"] = std::move(inputs_);
    out["outputs"] = std::move(outputs_);
    out["nodes"] = std::move(nodes_);
    out["tensor_values"] = std::move(tensorValues_);
    out["sym_int_values"] = std::move(symIntValues_);
    out["sym_bool_values"] = std::move(symBoolValues_);
    out["is_single_tensor_return"] = singleTensorReturn_;
    out["custom_obj_values"] = std::move(customObjValues_);
    out["sym_float_values"] = std::move(symFloatValues_);
    return out;
  }

  /// A SymInt union: `as_int`, or the expression with its hint where every symbol has one.
  Json symInt(const SymExpr &e) const {
    if (e.isConstant())
      return Json{{"as_int", e.constant()}};
    Json hint = nullptr;
    SymExpr::Bindings b;
    for (const std::string &s : e.symbols())
      if (auto h = hints_.find(s); h != hints_.end())
        b[s] = h->second;
    if (auto v = e.evaluate(b))
      hint = Json{{"as_int", *v}};
    return Json{{"as_expr", Json{{"expr_str", sympyRepr(e)}, {"hint", hint}}}};
  }

  Json tensorMeta(const TensorType &t, bool requiresGrad) const {
    Json sizes = Json::array(), strides = Json::array();
    std::vector<SymExpr> st = t.hasStrides && t.strides.size() == t.sizes.size()
                                  ? t.strides
                                  : TensorType::contiguousStrides(t.sizes);
    for (const SymExpr &s : t.sizes)
      sizes.push_back(symInt(s));
    for (const SymExpr &s : st)
      strides.push_back(symInt(s));
    Device d = t.hasDevice ? t.device : Device{};
    return Json{{"dtype", scalarTypeOf(t.dtype)},
                {"sizes", std::move(sizes)},
                {"requires_grad", requiresGrad},
                {"device", deviceJson(d)},
                {"strides", std::move(strides)},
                {"storage_offset", Json{{"as_int", 0}}},
                {"layout", 7}};
  }

  static Json deviceJson(const Device &d) {
    return Json{{"type", std::string(d.type)},
                {"index", d.index < 0 ? Json(nullptr) : Json(d.index)}};
  }

private:
  Error fail(const Node &n, const std::string &message) const {
    return Error("cannot write node '" + n.name() + "' (" + std::string(n.target()) +
                 ") to a PT2 archive: " + message);
  }

  ValueKind kindOf(const Node &n) const {
    std::string_view py = n.pythonType();
    if (py == "torch.SymInt" || n.value().sym())
      return ValueKind::SymInt;
    if (py == "torch.SymFloat")
      return ValueKind::SymFloat;
    if (py == "torch.SymBool")
      return ValueKind::SymBool;
    if (program_ && root_ && n.op() == OpKind::Placeholder)
      if (const ProgramInputSpec *s = program_->inputSpec(n.name());
          s && s->kind == InputKind::CustomObj)
        return ValueKind::CustomObj;
    if (n.value().tensor())
      return ValueKind::Tensor;
    return ValueKind::Other;
  }

  bool requiresGrad(const Node &n) const {
    if (!program_ || !root_ || n.op() != OpKind::Placeholder)
      return false;
    const ProgramInputSpec *s = program_->inputSpec(n.name());
    if (!s || s->kind != InputKind::Parameter)
      return false;
    auto w = program_->weights.find(s->target);
    return w == program_->weights.end() || w->second.requiresGrad;
  }

  /// Registers a tensor result (serialize_tensor_output).
  Status tensorOutput(const Node &n, const std::string &name, const TensorType &t) {
    if (tensorValues_.contains(name))
      return fail(n, "the value name '" + name + "' is used twice");
    tensorValues_[name] = tensorMeta(t, requiresGrad(n));
    return Status::ok();
  }

  /// The name a node is referred to by (a duplicate getitem by the first one).
  std::string refName(const Node *n) const {
    auto it = dedup_.find(n);
    return it == dedup_.end() ? n->name() : it->second;
  }

  /// serialize_input: an argument, `type` guiding empty lists.
  Expected<Json> argument(const Node &owner, const Argument &a, const ArgSpec *spec) {
    using K = Argument::Kind;
    switch (a.kind()) {
    case K::None:
      return Json{{"as_none", true}};
    case K::Bool:
      return Json{{"as_bool", a.asBool()}};
    case K::Int:
      return Json{{"as_int", a.asInt()}};
    case K::Float:
      return Json{{"as_float", floatJson(a.asFloat())}};
    case K::String:
      return Json{{"as_string", std::string(a.asString())}};
    case K::DType:
      return Json{{"as_scalar_type", scalarTypeOf(a.asDType())}};
    case K::Device:
      return Json{{"as_device", deviceJson(a.asDevice())}};
    case K::Layout: {
      static constexpr std::string_view kLayouts[] = {"",           "sparse_coo", "sparse_csr",
                                                      "sparse_csc", "sparse_bsr", "sparse_bsc",
                                                      "_mkldnn",    "strided"};
      for (int i = 1; i < 8; ++i)
        if (a.asString() == kLayouts[i])
          return Json{{"as_layout", i}};
      return fail(owner, "unknown layout torch." + std::string(a.asString()));
    }
    case K::MemoryFormat: {
      static constexpr std::string_view kFormats[] = {"", "contiguous_format", "channels_last",
                                                      "channels_last_3d", "preserve_format"};
      for (int i = 1; i < 5; ++i)
        if (a.asString() == kFormats[i])
          return Json{{"as_memory_format", i}};
      return fail(owner, "unknown memory format torch." + std::string(a.asString()));
    }
    case K::NodeRef:
      return nodeArgument(owner, *a.asNode());
    case K::List:
    case K::Tuple:
      return listArgument(owner, a, spec);
    case K::Dict: {
      Json d = Json::object();
      for (size_t i = 0; i < a.dictSize(); ++i) {
        auto v = argument(owner, a.dictValue(i), nullptr);
        if (!v)
          return v;
        d[std::string(a.dictKey(i))] = v.take();
      }
      return Json{{"as_string_to_argument", std::move(d)}};
    }
    case K::Sym:
      return fail(owner, "a symbolic expression argument (" + a.asSym().str() +
                             "): the archive passes symbolic values as nodes");
    case K::Opaque: {
      std::string_view t = a.asString();
      if (t.starts_with("aten.") || t.starts_with("prims.") || t.starts_with("higher_order."))
        return Json{{"as_operator", "torch.ops." + std::string(t)}};
      return fail(owner, "the Python value '" + std::string(t) + "' has no archive encoding");
    }
    case K::Slice: // torch/_export/serde/schema.py's Argument has no slice
      return fail(owner, "a slice argument has no archive encoding");
    }
    return fail(owner, "unknown argument kind");
  }

  Expected<Json> nodeArgument(const Node &owner, const Node &n) {
    if (n.op() == OpKind::GetAttr) {
      const Graph *sub = g_.submodule(n.target());
      if (!sub)
        return fail(owner, "get_attr '" + n.name() +
                               "' names no submodule (the archive holds "
                               "tensors as inputs, not attributes)");
      GraphWriter w(*sub, program_, hints_, false);
      auto graph = w.write();
      if (!graph)
        return graph;
      return Json{{"as_graph", Json{{"name", std::string(n.target())}, {"graph", graph.take()}}}};
    }
    switch (kindOf(n)) {
    case ValueKind::SymInt:
      return Json{{"as_sym_int", Json{{"as_name", refName(&n)}}}};
    case ValueKind::SymFloat:
      return Json{{"as_sym_float", Json{{"as_name", refName(&n)}}}};
    case ValueKind::SymBool:
      return Json{{"as_sym_bool", Json{{"as_name", refName(&n)}}}};
    case ValueKind::CustomObj: {
      const ProgramInputSpec *s = program_->inputSpec(n.name());
      return Json{{"as_custom_obj", Json{{"name", n.name()}, {"class_fqn", s->classFqn}}}};
    }
    case ValueKind::Tensor:
    case ValueKind::Other:
      break;
    }
    return Json{{"as_tensor", tensorArg(refName(&n))}};
  }

  Expected<Json> listArgument(const Node &owner, const Argument &a, const ArgSpec *spec) {
    const std::vector<Argument> &items = a.items();
    using K = Argument::Kind;
    if (items.empty()) {
      ArgType t = spec ? spec->type : ArgType::TensorList;
      switch (t) {
      case ArgType::BoolList:
        return Json{{"as_bools", Json::array()}};
      case ArgType::IntList:
      case ArgType::SymIntList:
        return Json{{"as_ints", Json::array()}};
      case ArgType::FloatList:
        return Json{{"as_floats", Json::array()}};
      case ArgType::StrList:
        return Json{{"as_strings", Json::array()}};
      default:
        return Json{{"as_tensors", Json::array()}};
      }
    }
    auto all = [&](auto pred) {
      return std::all_of(items.begin(), items.end(), [&](const Argument &x) { return pred(x); });
    };
    auto nodeOf = [](const Argument &x, ValueKind want, const GraphWriter &w) {
      return x.isNode() && w.kindOf(*x.asNode()) == want;
    };
    Json out = Json::array();
    if (all([](const Argument &x) { return x.kind() == K::Bool; })) {
      for (const Argument &x : items)
        out.push_back(x.asBool());
      return Json{{"as_bools", std::move(out)}};
    }
    if (all([](const Argument &x) { return x.kind() == K::Int; })) {
      for (const Argument &x : items)
        out.push_back(x.asInt());
      return Json{{"as_ints", std::move(out)}};
    }
    if (all([](const Argument &x) { return x.kind() == K::Float; })) {
      for (const Argument &x : items)
        out.push_back(floatJson(x.asFloat()));
      return Json{{"as_floats", std::move(out)}};
    }
    if (all([](const Argument &x) { return x.kind() == K::String; })) {
      for (const Argument &x : items)
        out.push_back(std::string(x.asString()));
      return Json{{"as_strings", std::move(out)}};
    }
    if (all([&](const Argument &x) {
          return x.kind() == K::Int || nodeOf(x, ValueKind::SymInt, *this);
        })) {
      for (const Argument &x : items)
        out.push_back(x.isNode() ? Json{{"as_name", refName(x.asNode())}}
                                 : Json{{"as_int", x.asInt()}});
      return Json{{"as_sym_ints", std::move(out)}};
    }
    if (all([&](const Argument &x) {
          return x.kind() == K::Float || nodeOf(x, ValueKind::SymFloat, *this);
        })) {
      for (const Argument &x : items)
        out.push_back(x.isNode() ? Json{{"as_name", refName(x.asNode())}}
                                 : Json{{"as_float", floatJson(x.asFloat())}});
      return Json{{"as_sym_floats", std::move(out)}};
    }
    if (all([&](const Argument &x) {
          return x.kind() == K::Bool || nodeOf(x, ValueKind::SymBool, *this);
        })) {
      for (const Argument &x : items)
        out.push_back(x.isNode() ? Json{{"as_name", refName(x.asNode())}}
                                 : Json{{"as_bool", x.asBool()}});
      return Json{{"as_sym_bools", std::move(out)}};
    }
    if (all([](const Argument &x) { return x.isNode(); })) {
      for (const Argument &x : items)
        out.push_back(tensorArg(refName(x.asNode())));
      return Json{{"as_tensors", std::move(out)}};
    }
    if (all([](const Argument &x) { return x.isNode() || x.isNone(); })) {
      for (const Argument &x : items)
        out.push_back(x.isNode() ? Json{{"as_tensor", tensorArg(refName(x.asNode()))}}
                                 : Json{{"as_none", true}});
      return Json{{"as_optional_tensors", std::move(out)}};
    }
    if (all([](const Argument &x) {
          return x.kind() == K::List &&
                 std::all_of(x.items().begin(), x.items().end(),
                             [](const Argument &y) { return y.kind() == K::Int; });
        })) {
      for (const Argument &x : items) {
        Json inner = Json::array();
        for (const Argument &y : x.items())
          inner.push_back(y.asInt());
        out.push_back(std::move(inner));
      }
      return Json{{"as_int_lists", std::move(out)}};
    }
    return fail(owner, "a list mixing kinds of values has no archive encoding");
  }

  /// serialize_output: a single result named `name`.
  Expected<Json> output(const Node &n, const std::string &name, const NodeValue &value) {
    switch (kindOf(n)) {
    case ValueKind::SymInt: {
      if (symIntValues_.contains(name))
        return fail(n, "the value name '" + name + "' is used twice");
      const SymExpr *e = value.sym();
      if (!e)
        return fail(n, "a SymInt without its expression");
      symIntValues_[name] = symInt(*e);
      return Json{{"as_sym_int", Json{{"as_name", name}}}};
    }
    case ValueKind::SymFloat:
    case ValueKind::SymBool:
      return fail(n, "symbolic floats and bools have no value fxkit can write");
    case ValueKind::CustomObj:
      return fail(n, "a custom object result");
    case ValueKind::Tensor:
      break;
    case ValueKind::Other:
      if (value.empty())
        return Json{{"as_none", true}};
      return fail(n, "a result without a tensor type");
    }
    if (Status st = tensorOutput(n, name, *value.tensor()); !st)
      return st.takeError();
    return Json{{"as_tensor", tensorArg(name)}};
  }

  /// The getitem user of `n` for result `index` (later duplicates are mapped to it), or null.
  const Node *getitemUser(const Node &n, int64_t index) {
    const Node *found = nullptr;
    for (const Node *u : n.users()) {
      if (u->target() != "operator.getitem" || u->args().items().size() != 2 ||
          u->args().items()[1].kind() != Argument::Kind::Int ||
          u->args().items()[1].asInt() != index)
        continue;
      if (!found)
        found = u;
      else
        dedup_[u] = found->name();
    }
    return found;
  }

  /// The results of a node with several (serialize_outputs after its single-result cases).
  Expected<Json> multipleOutputs(const Node &n, bool listReturn) {
    const auto *values = n.value().tensors();
    if (!values)
      return fail(n, "several results but no types for them");
    Json outs = Json::array();
    Json list = Json::array();
    for (size_t i = 0; i < values->size(); ++i) {
      const Node *user = getitemUser(n, static_cast<int64_t>(i));
      std::string name = user ? user->name() : n.name() + "_unused_" + std::to_string(i);
      const auto &t = (*values)[i];
      if (!t) {
        if (listReturn)
          continue;
        if (user && !user->value().empty() && kindOf(*user) == ValueKind::SymInt) {
          auto o = output(*user, name, user->value());
          if (!o)
            return o;
          outs.push_back(o.take());
          continue;
        }
        outs.push_back(Json{{"as_none", true}});
        continue;
      }
      if (Status st = tensorOutput(n, name, *t); !st)
        return st.takeError();
      if (listReturn)
        list.push_back(tensorArg(name));
      else
        outs.push_back(Json{{"as_tensor", tensorArg(name)}});
    }
    if (listReturn)
      outs.push_back(Json{{"as_tensors", std::move(list)}});
    return outs;
  }

  Status visit(const Node &n) {
    switch (n.op()) {
    case OpKind::Placeholder:
      return placeholder(n);
    case OpKind::GetAttr:
      return Status::ok(); // written where an op uses it (as_graph)
    case OpKind::Output:
      return outputNode(n);
    case OpKind::CallMethod:
    case OpKind::CallModule:
      return fail(n, "call_method and call_module nodes have no archive form (export first)");
    case OpKind::CallFunction:
      break;
    }
    std::string_view t = n.target();
    if (t == "operator.getitem")
      return Status::ok(); // its producer names it
    Json node;
    node["target"] = serializedTarget(t);
    if (isSymOpTarget(t) ||
        (kindOf(n) == ValueKind::SymInt && !t.starts_with("torch.ops.higher"))) {
      if (n.kwargs().dictSize() != 0)
        return fail(n, "a symbolic op with keyword arguments");
      const OpInfo *op = OpRegistry::instance().lookup(t);
      Json inputs = Json::array();
      const auto &args = n.args().items();
      for (size_t i = 0; i < args.size(); ++i) {
        const ArgSpec *spec = op && i < op->schema.args.size() ? &op->schema.args[i] : nullptr;
        auto a = argument(n, args[i], spec);
        if (!a)
          return a.takeError();
        std::string name = spec ? spec->name : std::string(1, static_cast<char>('a' + i % 26));
        inputs.push_back(Json{{"name", name}, {"arg", a.take()}, {"kind", 1}});
      }
      auto o = output(n, n.name(), n.value());
      if (!o)
        return o.takeError();
      node["inputs"] = std::move(inputs);
      node["outputs"] = Json::array({o.take()});
      node["metadata"] = Json::object();
      node["is_hop_single_tensor_return"] = nullptr;
      node["name"] = n.name();
      nodes_.push_back(std::move(node));
      return Status::ok();
    }
    if (t.starts_with("torch.ops.higher_order."))
      return higherOrder(n, std::move(node));
    if (!t.starts_with("torch.ops."))
      return fail(n, "only torch.ops targets and symbolic integer ops can be written");
    const OpInfo *op = OpRegistry::instance().lookup(t);
    const RecordedCall *recorded = nullptr;
    if (!op && program_ && root_)
      if (auto it = program_->calls.find(n.name()); it != program_->calls.end())
        recorded = &it->second;
    if (!op && !recorded)
      return fail(n, "fxkit's op registry has no schema for it, so its arguments cannot be "
                     "named (fxkit ops lists the known ones)");
    Json inputs = Json::array();
    const auto &args = n.args().items();
    if (op && args.size() > op->schema.args.size())
      return fail(n, std::to_string(args.size()) + " positional arguments for a schema of " +
                         std::to_string(op->schema.args.size()));
    for (size_t i = 0; i < args.size(); ++i) {
      const ArgSpec *spec = op ? &op->schema.args[i] : nullptr;
      if (!op && i >= recorded->argNames.size())
        return fail(n, "more arguments than the archive recorded");
      auto a = argument(n, args[i], spec);
      if (!a)
        return a.takeError();
      inputs.push_back(
          Json{{"name", op ? spec->name : recorded->argNames[i]}, {"arg", a.take()}, {"kind", 1}});
    }
    // Keyword arguments in schema order, as GraphModuleSerializer walks the schema.
    std::vector<size_t> order(n.kwargs().dictSize());
    for (size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    if (op)
      std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
        return op->schema.indexOf(n.kwargs().dictKey(x)) <
               op->schema.indexOf(n.kwargs().dictKey(y));
      });
    for (size_t i : order) {
      std::string key(n.kwargs().dictKey(i));
      const ArgSpec *spec = nullptr;
      if (op) {
        int idx = op->schema.indexOf(key);
        if (idx < 0)
          return fail(n, "keyword '" + key + "' is not an argument of " + op->schema.str());
        spec = &op->schema.args[idx];
      }
      auto a = argument(n, n.kwargs().dictValue(i), spec);
      if (!a)
        return a.takeError();
      inputs.push_back(Json{{"name", key}, {"arg", a.take()}, {"kind", 2}});
    }
    node["inputs"] = std::move(inputs);
    // Results, by the schema's returns (or, for recorded ops, by the node's value).
    Json outs = Json::array();
    bool listReturn = op ? op->schema.returns.size() == 1 && op->schema.returns[0].isList
                         : recorded->returnsTensorList;
    size_t returns =
        op ? op->schema.returns.size()
           : (n.value().tensors() ? n.value().tensors()->size() : (n.value().empty() ? 0 : 1));
    if (listReturn || returns > 1) {
      auto o = multipleOutputs(n, listReturn);
      if (!o)
        return o.takeError();
      outs = o.take();
    } else if (returns == 1) {
      auto o = output(n, n.name(), n.value());
      if (!o)
        return o.takeError();
      outs.push_back(o.take());
    }
    node["outputs"] = std::move(outs);
    node["metadata"] = Json::object();
    node["is_hop_single_tensor_return"] = nullptr;
    node["name"] = n.name();
    nodes_.push_back(std::move(node));
    return Status::ok();
  }

  Status higherOrder(const Node &n, Json node) {
    Json inputs = Json::array();
    for (const Argument &a : n.args().items()) {
      auto j = argument(n, a, nullptr);
      if (!j)
        return j.takeError();
      inputs.push_back(Json{{"name", ""}, {"arg", j.take()}, {"kind", 1}});
    }
    for (size_t i = 0; i < n.kwargs().dictSize(); ++i) {
      auto j = argument(n, n.kwargs().dictValue(i), nullptr);
      if (!j)
        return j.takeError();
      inputs.push_back(
          Json{{"name", std::string(n.kwargs().dictKey(i))}, {"arg", j.take()}, {"kind", 2}});
    }
    node["inputs"] = std::move(inputs);
    bool single = n.value().tensor() != nullptr;
    if (single) {
      auto o = output(n, n.name(), n.value());
      if (!o)
        return o.takeError();
      node["outputs"] = Json::array({o.take()});
    } else if (n.value().tensors()) {
      auto o = multipleOutputs(n, false);
      if (!o)
        return o.takeError();
      node["outputs"] = o.take();
    } else {
      node["outputs"] = Json::array();
    }
    node["metadata"] = Json::object();
    node["is_hop_single_tensor_return"] = single;
    node["name"] = n.name();
    nodes_.push_back(std::move(node));
    return Status::ok();
  }

  Status placeholder(const Node &n) {
    const ProgramInputSpec *spec = program_ && root_ ? program_->inputSpec(n.name()) : nullptr;
    if (spec && spec->kind == InputKind::ConstantInput) {
      inputs_.push_back(Json::parse(spec->constantValue, nullptr, false));
      return Status::ok();
    }
    switch (kindOf(n)) {
    case ValueKind::Tensor:
      if (Status st = tensorOutput(n, n.name(), *n.value().tensor()); !st)
        return st;
      inputs_.push_back(Json{{"as_tensor", tensorArg(n.name())}});
      return Status::ok();
    case ValueKind::SymInt: {
      auto o = output(n, n.name(), n.value());
      if (!o)
        return o.takeError();
      inputs_.push_back(o.take());
      return Status::ok();
    }
    case ValueKind::CustomObj:
      customObjValues_[n.name()] = Json{{"name", n.name()}, {"class_fqn", spec->classFqn}};
      inputs_.push_back(
          Json{{"as_custom_obj", Json{{"name", n.name()}, {"class_fqn", spec->classFqn}}}});
      return Status::ok();
    case ValueKind::SymFloat:
    case ValueKind::SymBool:
    case ValueKind::Other:
      break;
    }
    return fail(n, "a graph input needs a tensor type or a SymInt value (give the graph typed "
                   "placeholders or a nodes.json sidecar)");
  }

  Status outputNode(const Node &n) {
    if (n.args().items().empty())
      return fail(n, "an output node without a value");
    const Argument &payload = n.args().items()[0];
    singleTensorReturn_ = payload.isNode();
    for (const Argument &a : returnedValues(n)) {
      auto j = argument(n, a, nullptr);
      if (!j)
        return j.takeError();
      outputs_.push_back(j.take());
    }
    return Status::ok();
  }

  const Graph &g_;
  const ExportedProgram *program_;
  const Hints &hints_;
  bool root_;
  Json inputs_ = Json::array(), outputs_ = Json::array(), nodes_ = Json::array();
  Json tensorValues_ = Json::object(), symIntValues_ = Json::object(),
       symBoolValues_ = Json::object(), symFloatValues_ = Json::object(),
       customObjValues_ = Json::object();
  bool singleTensorReturn_ = false;
  std::unordered_map<const Node *, std::string> dedup_;

public:
  /// serialize_argument_spec of a returned value or a user input.
  Expected<Json> argumentSpec(const Node &owner, const Argument &a) {
    return argument(owner, a, nullptr);
  }
};

/// The treespec of `n` positional leaves and no keyword arguments (`(args, kwargs)`), and of a
/// tuple of `m` leaves, as torch.utils._pytree.treespec_dumps writes them (protocol 1).
std::string leavesSpec(size_t n) {
  Json leaf = Json{{"type", nullptr}, {"context", nullptr}, {"children_spec", Json::array()}};
  Json kids = Json::array();
  for (size_t i = 0; i < n; ++i)
    kids.push_back(leaf);
  return Json{{"type", "builtins.tuple"}, {"context", "null"}, {"children_spec", kids}}.dump();
}
std::string inSpec(size_t n) {
  Json args = Json::parse(leavesSpec(n));
  Json kwargs =
      Json{{"type", "builtins.dict"}, {"context", "[]"}, {"children_spec", Json::array()}};
  Json top = Json{{"type", "builtins.tuple"},
                  {"context", "null"},
                  {"children_spec", Json::array({args, kwargs})}};
  return Json::array({1, top}).dump();
}
/// A bare returned value is a leaf; a tuple of m values a tuple of leaves.
std::string outSpec(size_t m, bool bare) {
  if (bare)
    return Json::array(
               {1, Json{{"type", nullptr}, {"context", nullptr}, {"children_spec", Json::array()}}})
        .dump();
  return Json::array({1, Json::parse(leavesSpec(m))}).dump();
}

Json weightMeta(const Tensor &t, bool requiresGrad) {
  Json sizes = Json::array(), strides = Json::array();
  for (int64_t s : t.sizes())
    sizes.push_back(Json{{"as_int", s}});
  for (int64_t s : t.strides())
    strides.push_back(Json{{"as_int", s}});
  return Json{{"dtype", scalarTypeOf(t.dtype())},
              {"sizes", std::move(sizes)},
              {"requires_grad", requiresGrad},
              {"device", Json{{"type", "cpu"}, {"index", nullptr}}},
              {"strides", std::move(strides)},
              {"storage_offset", Json{{"as_int", t.storageOffset()}}},
              {"layout", 7}};
}

/// 40 decimal digits derived from the content, standing in for the random id
/// PyTorchStreamWriter writes (so that writing the same program twice gives the same bytes).
std::string serializationId(std::string_view content) {
  uint64_t h1 = 1469598103934665603ull, h2 = 0x9e3779b97f4a7c15ull;
  for (char c : content) {
    h1 = (h1 ^ static_cast<uint8_t>(c)) * 1099511628211ull;
    h2 = (h2 ^ static_cast<uint8_t>(c)) * 0x100000001b3ull + (h2 >> 29);
  }
  std::string a = std::to_string(h1), b = std::to_string(h2);
  std::string id = std::string(20 - std::min<size_t>(20, a.size()), '0') + a +
                   std::string(20 - std::min<size_t>(20, b.size()), '0') + b;
  return id.substr(0, 40);
}

} // namespace

std::string pt2ArchiveName(std::string_view path) {
  if (path.empty() || path == "-")
    return "archive";
  std::string name = std::filesystem::path(std::string(path)).filename().string();
  if (name.size() > 4 && name.ends_with(".pt2"))
    name.resize(name.size() - 4);
  return name.empty() ? "archive" : name;
}

Expected<std::string> writePt2(const Graph &input, std::string_view archiveName) {
  const ExportedProgram *program = exportedProgramOf(input);
  // Values the graph lacks come from the op registry's inference, on a copy.
  const Graph *graph = &input;
  Graph typed;
  bool missing = false;
  for (Node *n : input)
    missing = missing || (n->op() == OpKind::CallFunction && n->value().empty() &&
                          n->target() != "operator.getitem");
  if (missing) {
    typed = input.clone();
    for (Node *n : typed) {
      if (n->op() != OpKind::CallFunction || !n->value().empty())
        continue;
      auto v = inferNodeValue(*n);
      if (!v)
        return Error("cannot write a PT2 archive: node '" + n->name() +
                     "' has no type and inference gives none: " + v.error().message);
      n->value() = v.take();
    }
    graph = &typed;
  }

  // Symbols: their ranges (the program's; else PyTorch's default for a dynamic size, >= 2)
  // and example values (hints), which PyTorch's deserializer needs to make fake tensors: the
  // program's, else distinct primes from 17 up (never 0 or 1, no accidental equalities).
  std::set<std::string> symbols;
  for (Node *n : *graph) {
    auto collect = [&](const TensorType &t) {
      for (const SymExpr &e : t.sizes)
        for (const std::string &x : e.symbols())
          symbols.insert(x);
    };
    if (const TensorType *t = n->value().tensor())
      collect(*t);
    else if (const auto *ts = n->value().tensors()) {
      for (const auto &t : *ts)
        if (t)
          collect(*t);
    } else if (const SymExpr *e = n->value().sym()) {
      for (const std::string &x : e->symbols())
        symbols.insert(x);
    }
  }
  if (program)
    for (const auto &r : program->ranges)
      symbols.insert(r.first);
  Json ranges = Json::object();
  GraphWriter::Hints hints;
  int64_t nextPrime = 17;
  auto prime = [&]() {
    auto isPrime = [](int64_t v) {
      for (int64_t d = 2; d * d <= v; ++d)
        if (v % d == 0)
          return false;
      return true;
    };
    while (!isPrime(nextPrime))
      ++nextPrime;
    return nextPrime++;
  };
  for (const std::string &sym : symbols) {
    // Unbacked symbols (u0: data-dependent sizes) have no example value and may be 0 or 1.
    bool unbacked = sym.size() > 1 && sym[0] == 'u' &&
                    sym.find_first_not_of("0123456789", 1) == std::string::npos;
    RangeConstraint r{unbacked ? 0 : 2, std::nullopt};
    if (program)
      if (auto it = program->ranges.find(sym); it != program->ranges.end())
        r = it->second;
    ranges[sym] = Json{{"min_val", r.min ? Json(*r.min) : Json(nullptr)},
                       {"max_val", r.max ? Json(*r.max) : Json(nullptr)}};
    if (program)
      if (auto h = program->hints.find(sym); h != program->hints.end()) {
        hints[sym] = h->second;
        continue;
      }
    if (unbacked)
      continue;
    int64_t h = prime();
    if (r.min && h < *r.min)
      h = *r.min;
    if (r.max && h > *r.max)
      h = *r.max;
    hints[sym] = h;
  }

  GraphWriter writer(*graph, program, hints, true);
  auto graphJson = writer.write();
  if (!graphJson)
    return graphJson.takeError();

  // The signature: the program's specs for the placeholders and results they still name,
  // user inputs and outputs for everything else.
  std::vector<Node *> placeholders;
  for (Node *n : *graph)
    if (n->op() == OpKind::Placeholder)
      placeholders.push_back(n);
  Json inputSpecs = Json::array();
  std::vector<const ProgramInputSpec *> specs;
  std::vector<std::string> userInputs;
  for (Node *p : placeholders) {
    const ProgramInputSpec *s = program ? program->inputSpec(p->name()) : nullptr;
    specs.push_back(s);
    InputKind kind = s ? s->kind : InputKind::UserInput;
    Json arg = Json{{"name", p->name()}};
    switch (kind) {
    case InputKind::UserInput: {
      auto a = writer.argumentSpec(*p, Argument::node(p));
      if (!a)
        return a.takeError();
      inputSpecs.push_back(Json{{"user_input", Json{{"arg", a.take()}}}});
      userInputs.push_back(p->name());
      break;
    }
    case InputKind::Parameter:
      inputSpecs.push_back(Json{{"parameter", Json{{"arg", arg}, {"parameter_name", s->target}}}});
      break;
    case InputKind::Buffer:
      inputSpecs.push_back(
          Json{{"buffer",
                Json{{"arg", arg}, {"buffer_name", s->target}, {"persistent", s->persistent}}}});
      break;
    case InputKind::TensorConstant:
      inputSpecs.push_back(
          Json{{"tensor_constant", Json{{"arg", arg}, {"tensor_constant_name", s->target}}}});
      break;
    case InputKind::CustomObj:
      inputSpecs.push_back(
          Json{{"custom_obj", Json{{"arg", Json{{"name", p->name()}, {"class_fqn", s->classFqn}}},
                                   {"custom_obj_name", s->target}}}});
      break;
    case InputKind::Token:
      inputSpecs.push_back(Json{{"token", Json{{"arg", arg}}}});
      break;
    case InputKind::ConstantInput:
      inputSpecs.push_back(
          Json{{"constant_input", Json{{"name", p->name()},
                                       {"value", Json::parse(s->constantValue, nullptr, false)}}}});
      userInputs.push_back(p->name());
      break;
    }
  }
  Json outputSpecs = Json::array();
  std::vector<Argument> returned;
  bool bareReturn = false;
  if (Node *out = graph->outputNode()) {
    returned = returnedValues(*out);
    bareReturn = !out->args().items().empty() && out->args().items()[0].isNode();
  }
  bool keepOutputKinds = program && program->outputs.size() == returned.size();
  size_t userOutputs = 0;
  for (size_t i = 0; i < returned.size(); ++i) {
    OutputKind kind = keepOutputKinds ? program->outputs[i].kind : OutputKind::UserOutput;
    const std::string &target = keepOutputKinds ? program->outputs[i].target : std::string();
    const Argument &r = returned[i];
    if (kind != OutputKind::UserOutput && kind != OutputKind::LossOutput && !r.isNode())
      kind = OutputKind::UserOutput;
    Json arg = r.isNode() ? Json{{"name", r.asNode()->name()}} : Json();
    auto key = std::string(outputKindName(kind));
    switch (kind) {
    case OutputKind::UserOutput: {
      auto a = writer.argumentSpec(*graph->outputNode(), r);
      if (!a)
        return a.takeError();
      outputSpecs.push_back(Json{{key, Json{{"arg", a.take()}}}});
      ++userOutputs;
      break;
    }
    case OutputKind::LossOutput:
    case OutputKind::Token:
      outputSpecs.push_back(Json{{key, Json{{"arg", arg}}}});
      userOutputs += kind == OutputKind::LossOutput;
      break;
    case OutputKind::BufferMutation:
      outputSpecs.push_back(Json{{key, Json{{"arg", arg}, {"buffer_name", target}}}});
      break;
    case OutputKind::GradientToParameter:
    case OutputKind::ParameterMutation:
      outputSpecs.push_back(Json{{key, Json{{"arg", arg}, {"parameter_name", target}}}});
      break;
    case OutputKind::GradientToUserInput:
    case OutputKind::UserInputMutation:
      outputSpecs.push_back(Json{{key, Json{{"arg", arg}, {"user_input_name", target}}}});
      break;
    }
  }

  // The module call graph: the program's, while its inputs and outputs are unchanged.
  Json moduleCallGraph;
  bool sameSignature = program && !program->moduleCallGraph.empty() &&
                       program->userInputCount() == userInputs.size() && keepOutputKinds;
  if (sameSignature)
    moduleCallGraph = Json::parse(program->moduleCallGraph, nullptr, false);
  if (!sameSignature || moduleCallGraph.is_discarded()) {
    Json names = Json::array();
    for (const std::string &n : userInputs)
      names.push_back(n);
    moduleCallGraph =
        Json::array({Json{{"fqn", ""},
                          {"signature", Json{{"inputs", Json::array()},
                                             {"outputs", Json::array()},
                                             {"in_spec", inSpec(userInputs.size())},
                                             {"out_spec", outSpec(userOutputs, bareReturn)},
                                             {"forward_arg_names", std::move(names)}}}}});
  }

  Json opset = Json::object();
  if (program && !program->opsetVersion.empty())
    for (const auto &o : program->opsetVersion)
      opset[o.first] = o.second;
  else
    opset["aten"] = kAtenOpset;
  Json verifiers = Json::array();
  if (program && !program->verifiers.empty())
    for (const std::string &v : program->verifiers)
      verifiers.push_back(v);
  else
    verifiers.push_back("ATEN");

  Json ep = Json::object();
  ep["graph_module"] = Json{{"graph", graphJson.take()},
                            {"signature", Json{{"input_specs", std::move(inputSpecs)},
                                               {"output_specs", std::move(outputSpecs)}}},
                            {"module_call_graph", std::move(moduleCallGraph)},
                            {"metadata", Json::object()},
                            {"treespec_namedtuple_fields", Json::object()}};
  ep["opset_version"] = std::move(opset);
  ep["range_constraints"] = std::move(ranges);
  ep["schema_version"] = Json{{"major", kSchemaMajor}, {"minor", kSchemaMinor}};
  ep["verifiers"] = std::move(verifiers);
  ep["torch_version"] =
      program && !program->torchVersion.empty() ? program->torchVersion : std::string("2.11.0");
  ep["guards_code"] = Json::array();
  std::string modelJson = ep.dump();

  // Weights (parameters, persistent buffers) and constants (tensor constants, other buffers):
  // one payload per storage, the whole storage, so weights that alias stay aliased.
  std::string root = std::string(archiveName.empty() ? "archive" : archiveName) + "/";
  zip::Writer zip;
  Json weightsConfig = Json::object(), constantsConfig = Json::object();
  std::map<const TensorStorage *, std::string> weightFiles, constantFiles;
  for (size_t i = 0; i < placeholders.size(); ++i) {
    const ProgramInputSpec *s = specs[i];
    if (!s || (s->kind != InputKind::Parameter && s->kind != InputKind::Buffer &&
               s->kind != InputKind::TensorConstant))
      continue;
    auto w = program->weights.find(s->target);
    if (w == program->weights.end() || !w->second.tensor)
      return Error(
          "cannot write a PT2 archive: the weight '" + s->target + "' of input '" + s->name +
          "' is not available" +
          (w == program->weights.end() ? std::string() : " (" + w->second.unavailable + ")"));
    const Tensor &t = *w->second.tensor;
    bool isWeight =
        s->kind == InputKind::Parameter || (s->kind == InputKind::Buffer && s->persistent);
    auto &files = isWeight ? weightFiles : constantFiles;
    Json &config = isWeight ? weightsConfig : constantsConfig;
    if (config.contains(s->target))
      continue;
    const TensorStorage *storage = t.storage().get();
    auto f = files.find(storage);
    if (f == files.end()) {
      std::string pathName = (isWeight ? "weight_" : "tensor_") + std::to_string(files.size());
      f = files.emplace(storage, pathName).first;
      std::string_view bytes(reinterpret_cast<const char *>(storage->data()), storage->size());
      zip.add(root + (isWeight ? "data/weights/" : "data/constants/") + pathName, bytes);
    }
    config[s->target] = Json{{"path_name", f->second},
                             {"is_param", s->kind == InputKind::Parameter},
                             {"use_pickle", false},
                             {"tensor_meta", weightMeta(t, w->second.requiresGrad)}};
  }
  zip.add(root + "data/weights/model_weights_config.json",
          Json{{"config", std::move(weightsConfig)}}.dump());
  zip.add(root + "data/constants/model_constants_config.json",
          Json{{"config", std::move(constantsConfig)}}.dump());
  zip.add(root + "models/model.json", modelJson);
  // The program's example inputs fit it only while its user inputs are unchanged.
  zip.add(root + "data/sample_inputs/model.pt",
          sameSignature ? program->sampleInputs : std::string());
  zip.add(root + "archive_format", "pt2");
  zip.add(root + "archive_version", "0");
  zip.add(root + ".data/version", "6\n");
  zip.add(root + "byteorder", "little");
  zip.add(root + ".data/serialization_id", serializationId(modelJson));
  return zip.finish();
}

} // namespace fxkit
