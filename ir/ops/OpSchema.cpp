/// \file Schema parsing, argument binding and the typed readers of BoundArgs.

#include "ir/Try.h"
#include "ir/ops/NodeSymValue.h"
#include "ir/ops/OpRegistry.h"
#include "ir/ops/ShapeRules.h"

#include <cctype>
#include <charconv>

namespace fxkit {

std::string_view opCategoryName(OpCategory category) {
  switch (category) {
  case OpCategory::Pointwise:
    return "pointwise";
  case OpCategory::Reduction:
    return "reduction";
  case OpCategory::View:
    return "view";
  case OpCategory::Extern:
    return "extern";
  case OpCategory::Creation:
    return "creation";
  case OpCategory::Composite:
    return "composite";
  case OpCategory::Other:
    break;
  }
  return "other";
}

namespace {

struct TypeName {
  std::string_view name;
  ArgType type;
};
constexpr TypeName kTypeNames[] = {
    {"Tensor", ArgType::Tensor},
    {"Scalar", ArgType::Scalar},
    {"int", ArgType::Int},
    {"SymInt", ArgType::SymInt},
    {"float", ArgType::Float},
    {"bool", ArgType::Bool},
    {"ScalarType", ArgType::ScalarType},
    {"Layout", ArgType::Layout},
    {"Device", ArgType::Device},
    {"MemoryFormat", ArgType::MemoryFormat},
    {"str", ArgType::Str},
    {"SymBool", ArgType::Bool},
    {"complex", ArgType::Complex},
    {"Any", ArgType::Any}, // first of the untyped names: argTypeName prints it
    {"Generator", ArgType::Any},
    {"Storage", ArgType::Any},
    {"Stream", ArgType::Any},
    {"Dimname", ArgType::Str},
    {"QScheme", ArgType::Any},
    {"AnyEnumType", ArgType::Any},
    {"t", ArgType::Any}, // a type variable of TorchScript's list and dict builtins
};

/// Types PyTorch writes with a prefix (containers, TorchScript classes): values fxkit passes
/// through untyped.
bool isOpaqueType(std::string_view text) {
  for (std::string_view prefix : {"Dict(", "Future(", "Await(", "Union(", "__torch__."})
    if (text.starts_with(prefix))
      return true;
  return false;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

/// Splits at top-level commas (brackets and parentheses nest).
std::vector<std::string_view> splitTopLevel(std::string_view s) {
  std::vector<std::string_view> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '(' || c == '[')
      ++depth;
    else if (c == ')' || c == ']')
      --depth;
    else if (c == ',' && depth == 0) {
      parts.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (!trim(s.substr(start)).empty())
    parts.push_back(trim(s.substr(start)));
  return parts;
}

/// Parses `Tensor(a!)?`, `int[1]?`, `Tensor[]` into spec fields; returns false if unknown.
bool parseType(std::string_view text, ArgType &type, bool &optional, bool &isList, int &size) {
  optional = false;
  isList = false;
  size = 0;
  // A list's alias annotation follows its brackets: `Tensor[](a!)`, `t[](a)`; a dict's its
  // parentheses: `Dict(str, t)(a)`.
  if (!text.empty() && text.back() == ')') {
    size_t open = text.rfind('(');
    if (open != std::string_view::npos && open > 0 &&
        (text[open - 1] == ']' || text[open - 1] == ')'))
      text = text.substr(0, open);
  }
  if (isOpaqueType(text)) {
    type = ArgType::Any;
    return true;
  }
  if (!text.empty() && text.back() == '?') {
    optional = true;
    text.remove_suffix(1);
  }
  if (text.size() > 1 && text.back() == ']') {
    size_t open = text.rfind('[');
    if (open == std::string_view::npos)
      return false;
    std::string_view n = text.substr(open + 1, text.size() - open - 2);
    if (!n.empty())
      std::from_chars(n.data(), n.data() + n.size(), size);
    isList = true;
    text = text.substr(0, open);
  }
  // `Tensor?[]`: a list whose items may be None (index, index_put).
  bool optionalItems = isList && !text.empty() && text.back() == '?';
  if (optionalItems)
    text.remove_suffix(1);
  // Alias annotation: Tensor(a), Tensor(a!), Tensor(a -> *).
  if (size_t paren = text.find('('); paren != std::string_view::npos)
    text = text.substr(0, paren);
  for (const TypeName &t : kTypeNames)
    if (t.name == text) {
      type = t.type;
      if (!isList)
        return true;
      switch (type) {
      case ArgType::Tensor:
        type = optionalItems ? ArgType::OptionalTensorList : ArgType::TensorList;
        return true;
      case ArgType::Int:
        type = ArgType::IntList;
        return !optionalItems;
      case ArgType::SymInt:
        type = ArgType::SymIntList;
        return !optionalItems;
      case ArgType::Float:
        type = ArgType::FloatList;
        return !optionalItems;
      case ArgType::Bool:
        type = ArgType::BoolList;
        return !optionalItems;
      case ArgType::Scalar:
        type = ArgType::ScalarList;
        return !optionalItems;
      case ArgType::Str:
        type = ArgType::StrList;
        return true;
      case ArgType::Complex:
        type = ArgType::ComplexList;
        return !optionalItems;
      case ArgType::Any:
        return true;
      default:
        return false;
      }
    }
  return false;
}

Expected<Argument> parseDefault(std::string_view text) {
  if (text == "None")
    return Argument::none();
  if (text == "True" || text == "False")
    return Argument::boolean(text == "True");
  if (text.size() >= 2 && (text.front() == '\'' || text.front() == '"'))
    return Argument::string(text.substr(1, text.size() - 2));
  if (text.front() == '[') {
    std::vector<Argument> items;
    for (std::string_view part : splitTopLevel(text.substr(1, text.size() - 2))) {
      auto item = parseDefault(part);
      if (!item)
        return item;
      items.push_back(item.take());
    }
    return Argument::list(std::move(items));
  }
  if (std::isdigit(static_cast<unsigned char>(text.front())) || text.front() == '-') {
    if (text.find_first_of(".e") != std::string_view::npos)
      return Argument::floating(std::stod(std::string(text)));
    int64_t v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size())
      return Error("bad default '" + std::string(text) + "'");
    return Argument::integer(v);
  }
  if (text == "contiguous_format" || text == "channels_last" || text == "preserve_format")
    return Argument::memoryFormat(text);
  if (auto d = parseDType(text))
    return Argument::dtype(*d);
  return Error("bad default '" + std::string(text) + "'");
}

} // namespace

std::string_view argTypeName(ArgType type) {
  switch (type) {
  case ArgType::TensorList:
    return "Tensor[]";
  case ArgType::IntList:
    return "int[]";
  case ArgType::SymIntList:
    return "SymInt[]";
  case ArgType::OptionalTensorList:
    return "Tensor?[]";
  case ArgType::FloatList:
    return "float[]";
  case ArgType::BoolList:
    return "bool[]";
  case ArgType::ScalarList:
    return "Scalar[]";
  case ArgType::StrList:
    return "str[]";
  case ArgType::ComplexList:
    return "complex[]";
  default:
    break;
  }
  for (const TypeName &t : kTypeNames)
    if (t.type == type)
      return t.name;
  return "Any";
}

int OpSchema::indexOf(std::string_view name) const {
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].name == name)
      return static_cast<int>(i);
  return -1;
}

std::string OpSchema::str() const {
  std::string out = name;
  if (!overload.empty())
    out += "." + overload;
  out += "(";
  bool star = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const ArgSpec &a = args[i];
    if (i)
      out += ", ";
    if (a.kwargOnly && !star) {
      out += "*, ";
      star = true;
    }
    std::string_view t = argTypeName(a.type);
    if (a.listSize > 0 && t.ends_with("[]")) {
      out += std::string(t.substr(0, t.size() - 1)) + std::to_string(a.listSize) + "]";
    } else {
      out += t;
    }
    if (a.optional)
      out += "?";
    out += " " + a.name;
    if (a.hasDefault) {
      out += "=";
      switch (a.defaultValue.kind()) {
      case Argument::Kind::None:
        out += "None";
        break;
      case Argument::Kind::Bool:
        out += a.defaultValue.asBool() ? "True" : "False";
        break;
      case Argument::Kind::Int:
        out += std::to_string(a.defaultValue.asInt());
        break;
      case Argument::Kind::Float:
        out += pyFloatRepr(a.defaultValue.asFloat());
        break;
      case Argument::Kind::String:
        out += "'" + std::string(a.defaultValue.asString()) + "'";
        break;
      case Argument::Kind::List: {
        out += "[";
        for (size_t k = 0; k < a.defaultValue.items().size(); ++k)
          out += (k ? ", " : "") + std::to_string(a.defaultValue.items()[k].asInt());
        out += "]";
        break;
      }
      case Argument::Kind::DType:
        out += dtypeName(a.defaultValue.asDType());
        break;
      default:
        out += a.defaultValue.asString();
        break;
      }
    }
  }
  out += ") -> ";
  if (returns.size() == 1 && returns[0].name.empty()) {
    out += argTypeName(returns[0].type);
  } else {
    out += "(";
    for (size_t i = 0; i < returns.size(); ++i) {
      out += (i ? ", " : "") + std::string(argTypeName(returns[i].type));
      if (!returns[i].name.empty())
        out += " " + returns[i].name;
    }
    out += ")";
  }
  return out;
}

Expected<OpSchema> parseSchema(std::string_view text) {
  auto fail = [&](const std::string &why) {
    return Error("bad schema '" + std::string(text) + "': " + why);
  };
  OpSchema schema;
  size_t open = text.find('(');
  size_t arrow = text.rfind("->");
  if (open == std::string_view::npos || arrow == std::string_view::npos || arrow < open)
    return fail("expected 'name(args) -> returns'");
  size_t close = text.rfind(')', arrow);
  if (close == std::string_view::npos || close < open)
    return fail("unbalanced parentheses");
  std::string_view qual = trim(text.substr(0, open));
  size_t dot = qual.find('.');
  schema.name = std::string(qual.substr(0, dot));
  if (dot != std::string_view::npos)
    schema.overload = std::string(qual.substr(dot + 1));
  bool kwargOnly = false;
  for (std::string_view part : splitTopLevel(text.substr(open + 1, close - open - 1))) {
    if (part == "*") {
      kwargOnly = true;
      continue;
    }
    if (part == "...") { // TorchScript varargs (einsum.sublist): any further positional values
      ArgSpec rest;
      rest.name = "...";
      rest.optional = true;
      schema.args.push_back(std::move(rest));
      continue;
    }
    ArgSpec spec;
    spec.kwargOnly = kwargOnly;
    std::string_view decl = part;
    if (size_t eq = part.find('='); eq != std::string_view::npos) {
      decl = trim(part.substr(0, eq));
      auto def = parseDefault(trim(part.substr(eq + 1)));
      if (!def)
        return fail(def.error().message);
      spec.hasDefault = true;
      spec.defaultValue = def.take();
    }
    size_t space = decl.rfind(' ');
    if (space == std::string_view::npos)
      return fail("argument '" + std::string(decl) + "' has no name");
    spec.name = std::string(trim(decl.substr(space + 1)));
    bool isList = false;
    std::string_view typeText = trim(decl.substr(0, space));
    if (!parseType(typeText, spec.type, spec.optional, isList, spec.listSize))
      return fail("unknown type in '" + std::string(decl) + "'");
    // `!` appears only in an alias annotation's write mark: `Tensor(a!)`, `Tensor(b!)[]`.
    spec.mutated = typeText.find('!') != std::string_view::npos;
    // An optional argument without a default is None when omitted.
    if (spec.optional && !spec.hasDefault) {
      spec.hasDefault = true;
      spec.defaultValue = Argument::none();
    }
    schema.args.push_back(std::move(spec));
  }
  std::string_view rets = trim(text.substr(arrow + 2));
  if (!rets.empty() && rets.front() == '(' && rets.back() == ')')
    rets = rets.substr(1, rets.size() - 2);
  for (std::string_view part : splitTopLevel(rets)) {
    ReturnSpec r;
    std::string_view typeText = part;
    // A named result: the type's alias annotation may hold spaces (`Tensor(a -> *)[]`).
    size_t space = part.rfind(' ');
    if (space != std::string_view::npos && part.find(')', space) == std::string_view::npos &&
        part.find(']', space) == std::string_view::npos) {
      typeText = trim(part.substr(0, space));
      r.name = std::string(trim(part.substr(space + 1)));
    }
    bool optional = false;
    int size = 0;
    if (!parseType(typeText, r.type, optional, r.isList, size))
      return fail("unknown result type '" + std::string(typeText) + "'");
    schema.returns.push_back(std::move(r));
  }
  return schema;
}

// ---- Binding ----

Expected<BoundArgs> bindArgs(const Node &node, const OpInfo &op) {
  BoundArgs bound(node, op);
  const OpSchema &schema = op.schema;
  size_t n = schema.args.size();
  bound.values_.assign(n, Argument());
  bound.explicit_.assign(n, false);
  const std::vector<Argument> &positional = node.args().items();
  size_t numPositional = 0;
  while (numPositional < n && !schema.args[numPositional].kwargOnly)
    ++numPositional;
  if (positional.size() > numPositional)
    return bound.error("takes " + std::to_string(numPositional) + " positional argument(s) but " +
                       std::to_string(positional.size()) + " were given");
  for (size_t i = 0; i < positional.size(); ++i) {
    bound.values_[i] = positional[i];
    bound.explicit_[i] = true;
  }
  const Argument &kwargs = node.kwargs();
  for (size_t k = 0; k < kwargs.dictSize(); ++k) {
    std::string_view key = kwargs.dictKey(k);
    int idx = schema.indexOf(key);
    if (idx < 0)
      return bound.error("unexpected keyword argument '" + std::string(key) + "'");
    if (bound.explicit_[idx])
      return bound.error("argument '" + std::string(key) + "' given twice");
    bound.values_[idx] = kwargs.dictValue(k);
    bound.explicit_[idx] = true;
  }
  for (size_t i = 0; i < n; ++i) {
    if (bound.explicit_[i])
      continue;
    const ArgSpec &spec = schema.args[i];
    if (!spec.hasDefault)
      return bound.error("missing required argument '" + spec.name + "'");
    bound.values_[i] = spec.defaultValue;
  }
  return bound;
}

// ---- BoundArgs readers ----

Error BoundArgs::error(const std::string &message) const {
  return Error("node '" + node_->name() + "' (" + std::string(op_->target) + "): " + message);
}

const ArgSpec *BoundArgs::spec(std::string_view name) const {
  int idx = op_->schema.indexOf(name);
  return idx < 0 ? nullptr : &op_->schema.args[idx];
}

const Argument &BoundArgs::get(std::string_view name) const {
  static const Argument kNone{};
  int idx = op_->schema.indexOf(name);
  return idx < 0 ? kNone : values_[idx];
}

bool BoundArgs::isExplicit(std::string_view name) const {
  int idx = op_->schema.indexOf(name);
  return idx >= 0 && explicit_[idx];
}

Expected<const Argument *> BoundArgs::require(std::string_view name) const {
  int idx = op_->schema.indexOf(name);
  if (idx < 0)
    return error("the schema has no argument '" + std::string(name) + "'");
  return &values_[idx];
}

namespace {

/// The tensor value of a node reference, or why not.
Expected<TensorType> tensorOf(const Argument &a) {
  if (!a.isNode())
    return Error("expected a tensor");
  const Node *n = a.asNode();
  if (const TensorType *t = n->value().tensor())
    return *t;
  if (n->value().empty())
    return Error("input '" + n->name() + "' has no value");
  return Error("input '" + n->name() + "' is not a single tensor");
}

Expected<SymExpr> symOf(const Argument &a) {
  switch (a.kind()) {
  case Argument::Kind::Int:
    return SymExpr(a.asInt());
  case Argument::Kind::Bool:
    return SymExpr(a.asBool() ? 1 : 0);
  case Argument::Kind::Sym:
    return a.asSym();
  case Argument::Kind::NodeRef:
    return nodeSymValue(*a.asNode(), "a symbolic integer");
  default:
    return Error("expected an integer");
  }
}

} // namespace

Expected<TensorType> BoundArgs::tensor(std::string_view name) const {
  FXKIT_ASSIGN_OR_RETURN(auto a, require(name));
  auto t = tensorOf(*a);
  if (!t)
    return error("argument '" + std::string(name) + "': " + t.error().message);
  return t;
}

Expected<std::optional<TensorType>> BoundArgs::optionalTensor(std::string_view name) const {
  FXKIT_ASSIGN_OR_RETURN(auto a, require(name));
  if (a->isNone())
    return std::optional<TensorType>();
  FXKIT_ASSIGN_OR_RETURN(auto t, tensor(name));
  return std::optional<TensorType>(std::move(t));
}

Expected<std::vector<TensorType>> BoundArgs::tensorList(std::string_view name) const {
  FXKIT_ASSIGN_OR_RETURN(auto a, require(name));
  if (a->kind() != Argument::Kind::List && a->kind() != Argument::Kind::Tuple)
    return error("argument '" + std::string(name) + "' must be a list of tensors");
  std::vector<TensorType> out;
  for (const Argument &item : a->items()) {
    auto t = tensorOf(item);
    if (!t)
      return error("argument '" + std::string(name) + "': " + t.error().message);
    out.push_back(t.take());
  }
  return out;
}

Expected<int64_t> BoundArgs::integer(std::string_view name) const {
  FXKIT_ASSIGN_OR_RETURN(auto s, symInt(name));
  if (!s.isConstant())
    return error("argument '" + std::string(name) + "' must be a concrete integer, not " + s.str());
  return s.constant();
}

Expected<std::optional<SymExpr>> BoundArgs::optionalSymInt(std::string_view name) const {
  FXKIT_ASSIGN_OR_RETURN(auto a, require(name));
  if (a->isNone())
    return std::optional<SymExpr>();
  FXKIT_ASSIGN_OR_RETURN(auto v, symInt(name));
  return std::optional<SymExpr>(v);
}

Expected<std::optional<int64_t>> BoundArgs::optionalInteger(std::string_view name) const {
  FXKIT_ASSIGN_OR_RETURN(auto a, require(name));
  if (a->isNone())
    return std::optional<int64_t>();
  FXKIT_ASSIGN_OR_RETURN(auto v, integer(name));
  return std::optional<int64_t>(v);
}

Expected<SymExpr> BoundArgs::symInt(std::string_view name) const {
  FXKIT_ASSIGN_OR_RETURN(auto a, require(name));
  auto s = symOf(*a);
  if (!s)
    return error("argument '" + std::string(name) + "': " + s.error().message);
  return s;
}

Expected<std::vector<SymExpr>> BoundArgs::symIntList(std::string_view name) const {
  FXKIT_ASSIGN_OR_RETURN(auto a, require(name));
  const Argument &v = *a;
  std::vector<SymExpr> out;
  if (v.kind() == Argument::Kind::List || v.kind() == Argument::Kind::Tuple) {
    for (const Argument &item : v.items()) {
      auto s = symOf(item);
      if (!s)
        return error("argument '" + std::string(name) + "': " + s.error().message);
      out.push_back(*s);
    }
    return out;
  }
  // `int[2] stride=1`: one value stands for the whole list.
  auto s = symOf(v);
  if (!s)
    return error("argument '" + std::string(name) + "' must be a list of integers");
  const ArgSpec *sp = spec(name);
  out.assign(sp && sp->listSize > 0 ? sp->listSize : 1, *s);
  return out;
}

Expected<std::optional<std::vector<int64_t>>> BoundArgs::intList(std::string_view name) const {
  FXKIT_ASSIGN_OR_RETURN(auto a, require(name));
  if (a->isNone())
    return std::optional<std::vector<int64_t>>();
  FXKIT_ASSIGN_OR_RETURN(auto l, symIntList(name));
  std::vector<int64_t> out;
  for (const SymExpr &s : l) {
    if (!s.isConstant())
      return error("argument '" + std::string(name) + "' must hold concrete integers, not " +
                   s.str());
    out.push_back(s.constant());
  }
  return std::optional<std::vector<int64_t>>(std::move(out));
}

Expected<double> BoundArgs::floating(std::string_view name) const {
  FXKIT_ASSIGN_OR_RETURN(auto a, require(name));
  switch (a->kind()) {
  case Argument::Kind::Float:
    return (a)->asFloat();
  case Argument::Kind::Int:
    return static_cast<double>(a->asInt());
  case Argument::Kind::Bool:
    return (a)->asBool() ? 1.0 : 0.0;
  default:
    return error("argument '" + std::string(name) + "' must be a number");
  }
}

Expected<bool> BoundArgs::boolean(std::string_view name) const {
  FXKIT_ASSIGN_OR_RETURN(auto a, require(name));
  if (a->kind() == Argument::Kind::Bool)
    return (a)->asBool();
  if (a->kind() == Argument::Kind::Int)
    return (a)->asInt() != 0;
  return error("argument '" + std::string(name) + "' must be a bool");
}

Expected<std::vector<bool>> BoundArgs::boolList(std::string_view name, size_t n) const {
  FXKIT_ASSIGN_OR_RETURN(auto a, require(name));
  if (a->kind() != Argument::Kind::List && a->kind() != Argument::Kind::Tuple)
    return error("argument '" + std::string(name) + "' must be a list of bools");
  std::vector<bool> out;
  for (const Argument &item : a->items()) {
    if (item.kind() == Argument::Kind::Bool)
      out.push_back(item.asBool());
    else if (item.kind() == Argument::Kind::Int)
      out.push_back(item.asInt() != 0);
    else
      return error("argument '" + std::string(name) + "' must be a list of bools");
  }
  if (out.size() != n)
    return error("argument '" + std::string(name) + "' must have " + std::to_string(n) +
                 " entries, got " + std::to_string(out.size()));
  return out;
}

Expected<std::optional<DType>> BoundArgs::dtype(std::string_view name) const {
  FXKIT_ASSIGN_OR_RETURN(auto a, require(name));
  if (a->isNone())
    return std::optional<DType>();
  if (a->kind() != Argument::Kind::DType)
    return error("argument '" + std::string(name) + "' must be a dtype");
  return std::optional<DType>(a->asDType());
}

Expected<std::optional<std::string_view>> BoundArgs::memoryFormat(std::string_view name) const {
  FXKIT_ASSIGN_OR_RETURN(auto a, require(name));
  if (a->isNone())
    return std::optional<std::string_view>();
  // A memory format, or c10's number for one (schema defaults such as `memory_format=0`).
  std::optional<std::string_view> format = memoryFormatName(*a);
  if (!format)
    return error("argument '" + std::string(name) + "' must be a memory format");
  return format;
}

Expected<std::optional<Device>> BoundArgs::device(std::string_view name) const {
  FXKIT_ASSIGN_OR_RETURN(auto a, require(name));
  if (a->isNone())
    return std::optional<Device>();
  if (a->kind() != Argument::Kind::Device)
    return error("argument '" + std::string(name) + "' must be a device");
  return std::optional<Device>(a->asDevice());
}

} // namespace fxkit
