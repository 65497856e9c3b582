#include "ir/ops/Decomposer.h"

#include "ir/Try.h"
#include "ir/ops/InferSupport.h"

#include <algorithm>
#include <unordered_map>

namespace fxkit {

namespace {

/// The name FX gives a call of `op`: the op's name (`addmm`, `_softmax`), the overload added
/// for the symbolic queries (`sym_size_int`), the function's for operator.* (`mul`).
std::string nodeBaseName(const OpInfo &op) {
  std::string_view t = op.target;
  if (t.starts_with("operator."))
    return std::string(t.substr(9));
  std::string name = op.schema.name;
  if (name.starts_with("sym_") && !op.schema.overload.empty())
    name += "_" + op.schema.overload;
  return name;
}

/// c10::canCast: no complex to real, floating to integral or anything but bool to bool.
bool canCast(DType from, DType to) {
  auto isComplex = [](DType d) { return d == DType::Complex64 || d == DType::Complex128; };
  if (isComplex(from) && !isComplex(to))
    return false;
  if (dtypeIsFloating(from) && !dtypeIsFloating(to) && !isComplex(to))
    return false;
  return from == DType::Bool || to != DType::Bool;
}

} // namespace

Argument intListArg(const std::vector<int64_t> &values) {
  std::vector<Argument> items;
  for (int64_t v : values)
    items.push_back(Argument::integer(v));
  return Argument::list(std::move(items));
}

Decomposer::Decomposer(Graph &graph, Node &node, BoundArgs args)
    : graph_(&graph), node_(&node), args_(std::move(args)) {}

Expected<Argument> Decomposer::call(std::string_view target, std::vector<Argument> args,
                                    Kwargs kwargs) {
  std::string full(target);
  if (!target.starts_with("operator.") && !target.starts_with("torch."))
    full = "torch.ops." + full;
  const OpInfo *op = OpRegistry::instance().lookup(full);
  if (!op)
    return error("its decomposition calls '" + full + "', which fxkit does not know");
  Node *n =
      graph_->create(OpKind::CallFunction, graph_->uniqueName(nodeBaseName(*op)), full,
                     Argument::tuple(std::move(args)), Argument::dict(std::move(kwargs)), node_);
  made_.push_back(n);
  if (!out_.first)
    out_.first = n;
  auto value = inferNodeValue(*n);
  if (!value)
    return error("in its decomposition, " + value.error().message);
  n->value() = value.take();
  return Argument::node(n);
}

Expected<Argument> Decomposer::getitem(const Argument &value, int64_t index) {
  return call("operator.getitem", {value, Argument::integer(index)});
}

Expected<TensorType> Decomposer::type(const Argument &tensor) const {
  if (tensor.isNode())
    if (const TensorType *t = tensor.asNode()->value().tensor())
      return *t;
  return error("expected a tensor in its decomposition");
}

Expected<SymExpr> Decomposer::symValue(const Argument &a) const {
  switch (a.kind()) {
  case Argument::Kind::Int:
  case Argument::Kind::Bool:
    return SymExpr(a.asInt());
  case Argument::Kind::Sym:
    return a.asSym();
  case Argument::Kind::NodeRef:
    if (const SymExpr *s = a.asNode()->value().sym())
      return *s;
    break;
  default:
    break;
  }
  return error("expected an integer in its decomposition");
}

Expected<Argument> Decomposer::size(const Argument &tensor, int64_t dim) {
  FXKIT_ASSIGN_OR_RETURN(auto t, type(tensor));
  auto d = normalizeDim(dim, t.sizes.size());
  if (!d || t.sizes.empty())
    return error(d ? "size of a 0-d tensor" : d.error().message);
  const SymExpr &s = t.sizes[*d];
  if (s.isConstant())
    return Argument::integer(s.constant());
  return call("aten.sym_size.int", {tensor, Argument::integer(*d)});
}

Expected<std::vector<Argument>> Decomposer::sizes(const Argument &tensor) {
  FXKIT_ASSIGN_OR_RETURN(auto t, type(tensor));
  std::vector<Argument> out;
  for (size_t i = 0; i < t.sizes.size(); ++i) {
    FXKIT_ASSIGN_OR_RETURN(auto s, size(tensor, static_cast<int64_t>(i)));
    out.push_back(std::move(s));
  }
  return out;
}

Expected<Argument> Decomposer::symBinary(SymExpr::Kind kind, const Argument &a, const Argument &b) {
  bool aInt = a.kind() == Argument::Kind::Int, bInt = b.kind() == Argument::Kind::Int;
  if (aInt && bInt) {
    int64_t x = a.asInt(), y = b.asInt();
    switch (kind) {
    case SymExpr::Kind::Add:
      return Argument::integer(x + y);
    case SymExpr::Kind::Sub:
      return Argument::integer(x - y);
    case SymExpr::Kind::Mul:
      return Argument::integer(x * y);
    case SymExpr::Kind::FloorDiv:
      if (y == 0)
        return error("division by zero in its decomposition");
      return Argument::integer(x / y - ((x % y != 0) && ((x < 0) != (y < 0)) ? 1 : 0));
    case SymExpr::Kind::Mod:
      if (y == 0)
        return error("modulo by zero in its decomposition");
      return Argument::integer(((x % y) + y) % y);
    default:
      return error("internal: unexpected integer operation");
    }
  }
  // Identities keep the graph free of `s0 * 1` nodes.
  if (bInt && kind != SymExpr::Kind::Mod &&
      b.asInt() == (kind == SymExpr::Kind::Mul || kind == SymExpr::Kind::FloorDiv ? 1 : 0))
    return a;
  if (aInt && kind == SymExpr::Kind::Mul && a.asInt() == 1)
    return b;
  if (aInt && kind == SymExpr::Kind::Add && a.asInt() == 0)
    return b;
  const char *target = kind == SymExpr::Kind::Add        ? "operator.add"
                       : kind == SymExpr::Kind::Sub      ? "operator.sub"
                       : kind == SymExpr::Kind::Mul      ? "operator.mul"
                       : kind == SymExpr::Kind::FloorDiv ? "operator.floordiv"
                                                         : "operator.mod";
  return call(target, {a, b});
}

Expected<Argument> Decomposer::add(const Argument &a, const Argument &b) {
  return symBinary(SymExpr::Kind::Add, a, b);
}
Expected<Argument> Decomposer::sub(const Argument &a, const Argument &b) {
  return symBinary(SymExpr::Kind::Sub, a, b);
}
Expected<Argument> Decomposer::mul(const Argument &a, const Argument &b) {
  return symBinary(SymExpr::Kind::Mul, a, b);
}
Expected<Argument> Decomposer::floorDiv(const Argument &a, const Argument &b) {
  return symBinary(SymExpr::Kind::FloorDiv, a, b);
}
Expected<Argument> Decomposer::mod(const Argument &a, const Argument &b) {
  return symBinary(SymExpr::Kind::Mod, a, b);
}

Expected<Argument> Decomposer::reshape(const Argument &x, std::vector<Argument> sizes) {
  FXKIT_ASSIGN_OR_RETURN(auto t, type(x));
  std::vector<SymExpr> want;
  for (const Argument &a : sizes) {
    FXKIT_ASSIGN_OR_RETURN(auto s, symValue(a));
    want.push_back(s);
  }
  auto resolved = inferViewSizes(t.sizes, want);
  if (!resolved)
    return error(resolved.error().message);
  Argument list = Argument::list(std::move(sizes));
  if (viewStrides(t.sizes, t.strides, *resolved))
    return call("aten.view.default", {x, list});
  FXKIT_ASSIGN_OR_RETURN(auto copy,
                         call("aten.clone.default", {x},
                              {{"memory_format", Argument::memoryFormat("contiguous_format")}}));
  return call("aten.view.default", {copy, list});
}

Expected<Argument> Decomposer::convert(const Argument &x, DType dtype) {
  FXKIT_ASSIGN_OR_RETURN(auto t, type(x));
  if (t.dtype == dtype)
    return x;
  return call("aten._to_copy.default", {x}, {{"dtype", Argument::dtype(dtype)}});
}

Expected<Argument> Decomposer::contiguous(const Argument &x, std::string_view memoryFormat) {
  FXKIT_ASSIGN_OR_RETURN(auto t, type(x));
  bool already = false;
  if (memoryFormat == "contiguous_format")
    already = isContiguous(t.sizes, t.strides);
  else if (memoryFormat == "channels_last" || memoryFormat == "channels_last_3d")
    already = (memoryFormat == "channels_last" ? t.sizes.size() == 4 : t.sizes.size() == 5) &&
              isChannelsLastContiguous(t.sizes, t.strides);
  else
    return error("preserve memory format is unsupported by the contiguous operator");
  if (already)
    return x;
  return call("aten.clone.default", {x}, {{"memory_format", Argument::memoryFormat(memoryFormat)}});
}

Expected<Argument> Decomposer::scalarTensor(const Argument &value, DType dtype,
                                            const Device &device) {
  return call("aten.scalar_tensor.default", {value},
              {{"dtype", Argument::dtype(dtype)},
               {"layout", Argument::layout("strided")},
               {"device", Argument::device(device)}});
}

Expected<Argument> Decomposer::arange(const Argument &n, const Device &device,
                                      std::optional<DType> dtype) {
  Kwargs kw;
  if (dtype)
    kw.emplace_back("dtype", Argument::dtype(*dtype));
  kw.emplace_back("layout", Argument::layout("strided"));
  kw.emplace_back("device", Argument::device(device));
  kw.emplace_back("pin_memory", Argument::boolean(false));
  return call("aten.arange.start_step", {Argument::integer(0), n}, std::move(kw));
}

Expected<Node *> Decomposer::resultNode(const Argument &value, std::string_view what) const {
  if (!value.isNode())
    return error("internal: the " + std::string(what) + " of its decomposition is not a node");
  return value.asNode();
}

Status Decomposer::result(const Argument &value) {
  FXKIT_ASSIGN_OR_RETURN(auto n, resultNode(value, "result"));
  out_.kind = Decomposition::Kind::Value;
  out_.value = n;
  finished_ = true;
  return Status::ok();
}

Status Decomposer::results(std::vector<Argument> items) {
  out_.kind = Decomposition::Kind::Items;
  for (const Argument &a : items) {
    FXKIT_ASSIGN_OR_RETURN(auto n, resultNode(a, "result"));
    out_.items.push_back(n);
  }
  finished_ = true;
  return Status::ok();
}

Status Decomposer::noResult() {
  out_.kind = Decomposition::Kind::None;
  finished_ = true;
  return Status::ok();
}

Status Decomposer::mutates(const Argument &mutated, const Argument &written) {
  FXKIT_ASSIGN_OR_RETURN(auto m, resultNode(mutated, "mutated tensor"));
  FXKIT_ASSIGN_OR_RETURN(auto w, resultNode(written, "written value"));
  out_.mutated = m;
  out_.written = w;
  return Status::ok();
}

void Decomposer::rollBack() {
  for (auto it = made_.rbegin(); it != made_.rend(); ++it)
    if ((*it)->users().empty())
      graph_->erase(*it);
  made_.clear();
  out_ = Decomposition();
  finished_ = false;
}

Expected<Decomposition> decomposeNode(Graph &graph, Node &node) {
  const OpInfo *op = OpRegistry::instance().lookup(node.target());
  if (!op || !op->decompose)
    return Error("node '" + node.name() + "': '" + std::string(node.target()) +
                 "' is not a composite op");
  FXKIT_ASSIGN_OR_RETURN(auto bound, bindArgs(node, *op));
  Decomposer d(graph, node, std::move(bound));
  Status s = op->decompose(d);
  if (s && !d.finished())
    s = d.error("internal: its decomposition gave no result");
  if (!s) {
    d.rollBack();
    return s.takeError();
  }
  return d.take();
}

Expected<NodeValue> inferComposite(const BoundArgs &args) {
  const Node &node = args.node();
  Graph scratch;
  std::unordered_map<const Node *, Node *> remap;
  for (Node *in : node.inputs()) {
    Node *p = scratch.create(OpKind::Placeholder, in->name(), in->name());
    p->value() = in->value();
    remap.emplace(in, p);
  }
  auto toScratch = [&remap](Node *n) { return remap.at(n); };
  Argument a = node.args(), k = node.kwargs();
  a.mapNodes(toScratch);
  k.mapNodes(toScratch);
  Node *copy =
      scratch.create(OpKind::CallFunction, node.name(), node.target(), std::move(a), std::move(k));
  FXKIT_ASSIGN_OR_RETURN(auto d, decomposeNode(scratch, *copy));
  switch (d.kind) {
  case Decomposition::Kind::Value:
    return d.value->value();
  case Decomposition::Kind::Items: {
    std::vector<std::optional<TensorType>> items;
    for (Node *n : d.items) {
      const TensorType *t = n->value().tensor();
      items.push_back(t ? std::optional<TensorType>(*t) : std::nullopt);
    }
    return NodeValue{std::move(items)};
  }
  case Decomposition::Kind::None:
    return NodeValue{};
  }
  return NodeValue{};
}

Status decomposeInPlace(Decomposer &d) {
  std::string_view target = d.args().op().target;
  size_t dot = target.rfind('.');
  if (!target.starts_with("torch.ops.") || dot == std::string_view::npos || dot == 0 ||
      target[dot - 1] != '_')
    return d.error("internal: not an in-place op");
  std::string functional =
      std::string(target.substr(10, dot - 1 - 10)) + std::string(target.substr(dot));
  FXKIT_ASSIGN_OR_RETURN(auto self, d.args().tensor("self"));
  // at::assert_no_internal_overlap: a broadcast view has no place to write each element.
  for (size_t i = 0; i < self.sizes.size(); ++i)
    if (symIs(self.strides[i], 0) && !symIs(self.sizes[i], 1) && !symIs(self.sizes[i], 0))
      return d.error("unsupported operation: more than one element of the written-to tensor "
                     "refers to a single memory location. Please clone() the tensor before "
                     "performing the operation.");
  Kwargs kwargs;
  const Argument &kw = d.node().kwargs();
  for (size_t i = 0; i < kw.dictSize(); ++i)
    kwargs.emplace_back(std::string(kw.dictKey(i)), kw.dictValue(i));
  FXKIT_ASSIGN_OR_RETURN(auto out, d.call(functional, d.node().args().items(), std::move(kwargs)));
  FXKIT_ASSIGN_OR_RETURN(auto type, d.type(out));
  if (!sameSizes(type.sizes, self.sizes))
    return d.error("output with shape " + sizesText(self.sizes) +
                   " doesn't match the broadcast shape " + sizesText(type.sizes));
  if (!canCast(type.dtype, self.dtype))
    return d.error("result type " + std::string(dtypeScalarTypeName(type.dtype)) +
                   " can't be cast to the desired output type " +
                   std::string(dtypeScalarTypeName(self.dtype)));
  FXKIT_ASSIGN_OR_RETURN(auto written, d.convert(out, self.dtype));
  FXKIT_TRY(d.mutates(d.arg("self"), written));
  return d.result(written);
}

} // namespace fxkit
