#include "exporters/wrapper/WrapperSignature.h"

#include "ir/Node.h"
#include "ir/Try.h"
#include "ir/ops/ArgumentNodes.h"
#include "ir/ops/OpRegistry.h"
#include "ir/wrapper/WrapperDialect.h"

#include <set>

namespace fxkit {

WrapperEntry wrapperEntry(const Graph &wrapper) {
  WrapperEntry entry;
  std::set<std::string, std::less<>> used;
  const Node *n = wrapper.front();
  for (; n && n->op() == OpKind::Placeholder; n = n->next()) {
    std::string name = n->name();
    if (!wrapper::isIdentifier(name) || used.count(name))
      name = (n->value().tensor() ? "arg" : "sym") + std::to_string(entry.params.size());
    used.insert(name);
    entry.params.push_back({n, name});
  }
  for (; n && wrapper::wrapperOpOf(*n) == wrapper::WrapperOp::SymSize && n->value().sym() &&
         n->args().items().size() == 2 && n->args().items()[0].isNode() &&
         n->args().items()[0].asNode()->op() == OpKind::Placeholder;
       n = n->next())
    entry.inputSizes.push_back(n);
  entry.body = n;
  return entry;
}

std::vector<size_t> externLaunches(const loop::FusedProgram &fused) {
  std::vector<size_t> launches;
  for (size_t i = 0; i < fused.kernels.size(); ++i)
    if (fused.kernels[i].isExtern)
      launches.push_back(i);
  return launches;
}

Expected<std::vector<ExternOperand>> externOperands(const wrapper::ExternCall &call,
                                                    const loop::LoopOp &op, std::string_view what) {
  const Node *node = op.externNode;
  const OpInfo *info = OpRegistry::instance().lookup(node->target());
  if (!info)
    return Error(std::string(what) + ": unknown extern op " + std::string(node->target()));
  FXKIT_ASSIGN_OR_RETURN(BoundArgs bound, bindArgs(*node, *info));
  std::vector<ExternOperand> operands;
  std::set<const Node *> seen;
  const auto &inputs = call.inputs->items();
  size_t next = 0;
  for (const Node *in : argumentNodes(bound)) {
    if (!seen.insert(in).second)
      continue;
    ExternOperand &o = operands.emplace_back(ExternOperand{in, nullptr});
    if (in->value().sym())
      continue;
    if (next >= inputs.size())
      return Error(std::string(what) + ": extern op '" + node->name() +
                   "' has more inputs than lowered");
    o.input = &inputs[next++];
  }
  return operands;
}

std::optional<SymExpr> WrapperWalk::sizeOf(const Argument &a) const {
  if (a.isNode())
    if (const SymExpr *s = a.asNode()->value().sym())
      return *s;
  return wrapper::sizeExprOf(a, known_);
}

Expected<std::string> WrapperWalk::sizeText(const Argument &a) const {
  if (auto e = sizeOf(a))
    return printSize(*e);
  return Error(what_ + ": a size argument that is neither an integer nor an expression");
}

Expected<std::string> WrapperWalk::valueOf(const Node *n) const {
  auto it = values_.find(n);
  if (it == values_.end())
    return Error(what_ + ": '" + n->name() + "' is used before it is written");
  return it->second;
}

Status WrapperWalk::walk(const Node *from) {
  const std::string prefix = what_ + ": ";
  for (const Node *n : w_) {
    if (const SymExpr *s = n->value().sym())
      known_[n] = *s;
    if (auto r = wrapper::asReuse(*n); r && !r->inPlace)
      ++reusers_[r->donor];
  }
  std::vector<size_t> externs = externLaunches(f_);
  std::unordered_set<const Node *> consumed; // read with the extern call they follow
  bool started = false;
  for (const Node *n : w_) {
    started = started || n == from;
    if (!started || consumed.count(n))
      continue;
    using W = wrapper::WrapperOp;
    Status s = Status::ok();
    switch (wrapper::wrapperOpOf(*n)) {
    case W::EmptyStrided:
      if (wrapper::isPool(*n)) {
        const auto &a = n->args().items();
        if (a.empty() || a[0].items().size() != 1 || a[0].items()[0].kind() != Argument::Kind::Int)
          return Error(prefix + "the pool '" + n->name() + "' has no size in bytes");
        poolBytes_ = a[0].items()[0].asInt();
        s = pool(poolBytes_);
        break;
      }
      [[fallthrough]];
    case W::AllocFromPool:
    case W::Reuse:
      if (auto r = wrapper::asReuse(*n); r && !r->inPlace)
        --reusers_[r->donor];
      s = allocation(*n);
      break;
    case W::View: // read where it is used
      continue;
    case W::SizeArith:
      if (auto e = wrapper::sizeExprOf(*n, known_))
        known_[n] = *e;
      continue;
    case W::Kernel: {
      auto call = wrapper::asKernelCall(*n);
      if (!call->args || call->launch < 0 ||
          call->launch >= static_cast<int64_t>(f_.kernels.size()))
        return Error(prefix + "kernel node '" + n->name() + "' names no launch");
      ++launches_;
      s = kernel(*n, *call, f_.kernels[call->launch]);
      break;
    }
    case W::Extern: {
      auto call = wrapper::asExternCall(*n);
      if (!call->inputs || !call->out)
        return Error(prefix + "extern node '" + n->name() + "' has no inputs or outputs");
      if (externs_ >= externs.size())
        return Error(prefix + "more extern calls than extern kernels");
      const loop::Kernel &k = f_.kernels[externs[externs_++]];
      const loop::LoopOp &op = p_.ops[k.ops.front()];
      if (!op.externNode)
        return Error(prefix + "extern kernel " + k.name + " has no ATen node");
      wrapper::ExternResults results = wrapper::externResults(*n);
      consumed.insert(results.nodes.begin(), results.nodes.end());
      s = externCall(*n, *call, op, results);
      break;
    }
    case W::Free: {
      const auto &a = n->args().items();
      const Node *b = !a.empty() && a[0].isNode() ? a[0].asNode() : nullptr;
      if (b && b->op() != OpKind::Placeholder && reusersLeft(b) == 0)
        s = free(*b);
      break;
    }
    case W::Output:
      s = output(*n);
      break;
    case W::SymSize:
    case W::Placeholder:
    case W::AssertSizeStride:
    case W::AssertAlignment:
    case W::Other:
      return Error(prefix + "cannot print wrapper node '" + n->name() + "' (" +
                   std::string(n->target()) + ")");
    }
    if (!s)
      return s;
  }
  return Status::ok();
}

} // namespace fxkit
