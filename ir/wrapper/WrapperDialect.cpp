#include "ir/wrapper/WrapperDialect.h"

#include <cctype>

namespace fxkit::wrapper {

namespace {

constexpr SizeArithOp kSizeArithOps[] = {
    {SymExpr::Kind::Add, "add", "operator.add"},
    {SymExpr::Kind::Sub, "sub", "operator.sub"},
    {SymExpr::Kind::Mul, "mul", "operator.mul"},
    {SymExpr::Kind::FloorDiv, "floordiv", "operator.floordiv"},
    {SymExpr::Kind::Mod, "mod", "operator.mod"},
    {SymExpr::Kind::Neg, "neg", "operator.neg"},
};

} // namespace

const SizeArithOp *sizeArithOp(SymExpr::Kind kind) {
  for (const SizeArithOp &op : kSizeArithOps)
    if (op.kind == kind)
      return &op;
  return nullptr;
}

const SizeArithOp *sizeArithOp(std::string_view target) {
  for (const SizeArithOp &op : kSizeArithOps)
    if (op.target == target)
      return &op;
  return nullptr;
}

Argument mapArgumentLeaves(const Argument &a,
                           const std::function<Argument(const Argument &)> &leaf) {
  using K = Argument::Kind;
  switch (a.kind()) {
  case K::List:
  case K::Tuple: {
    std::vector<Argument> items;
    for (const Argument &i : a.items())
      items.push_back(mapArgumentLeaves(i, leaf));
    return a.kind() == K::List ? Argument::list(std::move(items))
                               : Argument::tuple(std::move(items));
  }
  case K::Dict: {
    std::vector<std::pair<std::string, Argument>> entries;
    for (size_t i = 0; i < a.dictSize(); ++i)
      entries.push_back({std::string(a.dictKey(i)), mapArgumentLeaves(a.dictValue(i), leaf)});
    return Argument::dict(std::move(entries));
  }
  case K::None:
  case K::Bool:
  case K::Int:
  case K::Float:
  case K::String:
  case K::NodeRef:
  case K::DType:
  case K::Device:
  case K::Layout:
  case K::MemoryFormat:
  case K::Sym:
  case K::Opaque:
  case K::Slice:
    break;
  }
  return leaf(a);
}

const Argument *kwarg(const Node &n, std::string_view key) {
  const Argument &kw = n.kwargs();
  if (kw.kind() != Argument::Kind::Dict)
    return nullptr;
  for (size_t i = 0; i < kw.dictSize(); ++i)
    if (kw.dictKey(i) == key)
      return &kw.dictValue(i);
  return nullptr;
}

WrapperOp wrapperOpOf(const Node &n) {
  switch (n.op()) {
  case OpKind::Placeholder:
    return WrapperOp::Placeholder;
  case OpKind::Output:
    return WrapperOp::Output;
  case OpKind::CallFunction:
    break;
  case OpKind::CallMethod:
  case OpKind::CallModule:
  case OpKind::GetAttr:
    return WrapperOp::Other;
  }
  std::string_view t = n.target();
  if (t == kEmptyStrided)
    return WrapperOp::EmptyStrided;
  if (t == kAllocFromPool)
    return WrapperOp::AllocFromPool;
  if (t == kAsStrided)
    return kwarg(n, "reuse") ? WrapperOp::Reuse : WrapperOp::View;
  if (t == kKernel)
    return WrapperOp::Kernel;
  if (t == kExtern)
    return WrapperOp::Extern;
  if (t == kFree)
    return WrapperOp::Free;
  if (t == kSymSize)
    return WrapperOp::SymSize;
  if (t == kAssertSizeStride)
    return WrapperOp::AssertSizeStride;
  if (t == kAssertAlignment)
    return WrapperOp::AssertAlignment;
  if (sizeArithOp(t))
    return WrapperOp::SizeArith;
  return WrapperOp::Other;
}

std::optional<SymExpr> sizeExprOf(const Argument &a, const std::map<const Node *, SymExpr> &known) {
  if (a.kind() == Argument::Kind::Int)
    return SymExpr(a.asInt());
  if (a.kind() == Argument::Kind::Sym)
    return a.asSym();
  if (a.isNode())
    return sizeExprOf(*a.asNode(), known);
  return std::nullopt;
}

std::optional<SymExpr> sizeExprOf(const Node &n, const std::map<const Node *, SymExpr> &known) {
  if (auto it = known.find(&n); it != known.end())
    return it->second;
  if (n.op() == OpKind::Placeholder || n.target() == kSymSize) {
    if (const SymExpr *s = n.value().sym())
      return *s;
    return std::nullopt;
  }
  const SizeArithOp *op = n.op() == OpKind::CallFunction ? sizeArithOp(n.target()) : nullptr;
  if (!op)
    return std::nullopt;
  std::vector<SymExpr> operands;
  for (const Argument &a : n.args().items()) {
    auto e = sizeExprOf(a, known);
    if (!e)
      return std::nullopt;
    operands.push_back(*e);
  }
  if (op->kind == SymExpr::Kind::Neg)
    return operands.size() == 1 ? std::optional(SymExpr::neg(operands[0]).simplify())
                                : std::nullopt;
  if (operands.size() != 2)
    return std::nullopt;
  return SymExpr::binary(op->kind, operands[0], operands[1]).simplify();
}

bool isIdentifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
    return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

Call emptyStrided(Argument sizes, Argument strides,
                  std::vector<std::pair<std::string, Argument>> kwargs) {
  return {kEmptyStrided, {std::move(sizes), std::move(strides)}, std::move(kwargs)};
}

Call allocFromPool(Argument pool, int64_t byteOffset, DType dtype, Argument sizes,
                   Argument strides) {
  return {kAllocFromPool,
          {std::move(pool), Argument::integer(byteOffset), Argument::dtype(dtype), std::move(sizes),
           std::move(strides)},
          {}};
}

Call asStrided(Argument base, Argument sizes, Argument strides, Argument offset,
               std::optional<std::string> reuseOf) {
  Call c{
      kAsStrided, {std::move(base), std::move(sizes), std::move(strides), std::move(offset)}, {}};
  if (reuseOf)
    c.kwargs.push_back({"reuse", Argument::string(*reuseOf)});
  return c;
}

Call kernelCall(std::vector<std::pair<std::string, Argument>> kwargs) {
  return {kKernel, {}, std::move(kwargs)};
}

Call externCall(std::vector<std::pair<std::string, Argument>> kwargs) {
  return {kExtern, {}, std::move(kwargs)};
}

Call freeBuffer(Argument buffer, bool atReturn) {
  Call c{kFree, {std::move(buffer)}, {}};
  if (atReturn)
    c.kwargs.push_back({"at_return", Argument::boolean(true)});
  return c;
}

Call symSize(Argument tensor, int64_t dim) {
  return {kSymSize, {std::move(tensor), Argument::integer(dim)}, {}};
}

Call sizeArith(SymExpr::Kind kind, std::vector<Argument> operands) {
  const SizeArithOp *op = sizeArithOp(kind);
  return {op ? op->target : std::string_view(), std::move(operands), {}};
}

Call getItem(Argument tuple, int64_t index) {
  return {kGetItem, {std::move(tuple), Argument::integer(index)}, {}};
}

Call assertScalar(Argument condition, std::string message) {
  return {kAssertScalar, {std::move(condition), Argument::string(message)}, {}};
}

bool isPool(const Node &n) {
  return wrapperOpOf(n) == WrapperOp::EmptyStrided && !n.value().tensor();
}

std::optional<Reuse> asReuse(const Node &n) {
  if (wrapperOpOf(n) != WrapperOp::Reuse || n.args().items().empty() ||
      !n.args().items()[0].isNode())
    return std::nullopt;
  Reuse r;
  r.donor = n.args().items()[0].asNode();
  if (const Argument *name = kwarg(n, "reuse"); name && name->kind() == Argument::Kind::String)
    r.donorName = name->asString();
  r.inPlace = true;
  for (const Node *u : r.donor->users())
    r.inPlace = r.inPlace && wrapperOpOf(*u) != WrapperOp::Free;
  return r;
}

std::optional<KernelCall> asKernelCall(const Node &n) {
  if (n.op() != OpKind::CallFunction || n.target() != kKernel)
    return std::nullopt;
  KernelCall k;
  if (const Argument *name = kwarg(n, "name"); name && name->kind() == Argument::Kind::String)
    k.name = name->asString();
  if (const Argument *launch = kwarg(n, "launch"); launch && launch->kind() == Argument::Kind::Int)
    k.launch = launch->asInt();
  k.args = kwarg(n, "args");
  k.origins = kwarg(n, "origins");
  return k;
}

std::optional<ExternCall> asExternCall(const Node &n) {
  if (n.op() != OpKind::CallFunction || n.target() != kExtern)
    return std::nullopt;
  ExternCall e;
  if (const Argument *op = kwarg(n, "op"); op && op->kind() == Argument::Kind::String)
    e.op = op->asString();
  e.inputs = kwarg(n, "inputs");
  e.out = kwarg(n, "out");
  e.origins = kwarg(n, "origins");
  return e;
}

ExternResults externResults(const Node &call) {
  ExternResults r;
  if (call.value().tensor())
    r.sized[0] = &call;
  if (const SymExpr *s = call.value().sym(); s && s->kind() == SymExpr::Kind::Symbol)
    r.symbols.push_back({s->name(), -1, 0});
  auto outputOf = [&r](const Node *n) -> std::optional<int64_t> {
    for (const auto &[i, result] : r.sized)
      if (result == n)
        return i;
    return std::nullopt;
  };
  for (const Node *n = call.next(); n; n = n->next()) {
    const auto &a = n->args().items();
    const Node *from = a.size() == 2 && a[0].isNode() ? a[0].asNode() : nullptr;
    const SymExpr *sym = n->value().sym();
    if (n->target() == kGetItem && from == &call && a[1].kind() == Argument::Kind::Int)
      r.sized[a[1].asInt()] = n;
    else if (n->target() == kSymSize && from && outputOf(from) && sym &&
             sym->kind() == SymExpr::Kind::Symbol && a[1].kind() == Argument::Kind::Int)
      r.symbols.push_back({sym->name(), *outputOf(from), a[1].asInt()});
    else if (n->target() == kAssertScalar && a.size() == 2 && a[0].kind() == Argument::Kind::Sym &&
             a[1].kind() == Argument::Kind::String)
      r.checks.push_back(n);
    else
      break;
    r.nodes.push_back(n);
  }
  return r;
}

} // namespace fxkit::wrapper
