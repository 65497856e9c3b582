#include "transforms/OnlineSoftmax.h"

#include "ir/Node.h"
#include "ir/ops/OpRegistry.h"
#include "ir/ops/ShapeRules.h"

#include <optional>
#include <set>

namespace fxkit {

namespace {

std::optional<BoundArgs> bound(const Node &n, std::string_view target) {
  if (n.op() != OpKind::CallFunction || n.target() != target)
    return std::nullopt;
  const OpInfo *op = OpRegistry::instance().lookup(target);
  if (!op)
    return std::nullopt;
  auto args = bindArgs(n, *op);
  if (!args)
    return std::nullopt;
  return args.take();
}

/// The normalised reduced dimensions of a keepdim=True reduction of `self`, or nullopt.
std::optional<std::set<int64_t>> keptReducedDims(const BoundArgs &args, const Node &self) {
  const TensorType *t = self.value().tensor();
  auto keepdim = args.boolean("keepdim");
  auto dims = args.intList("dim");
  if (!t || !keepdim || !*keepdim || !dims || !*dims || (*dims)->empty())
    return std::nullopt;
  std::set<int64_t> out;
  for (int64_t d : **dims) {
    auto nd = normalizeDim(d, t->sizes.size());
    if (!nd)
      return std::nullopt;
    out.insert(*nd);
  }
  return out;
}

bool onlineDType(const Node &n) {
  const TensorType *t = n.value().tensor();
  return t && (t->dtype == DType::Float32 || t->dtype == DType::Float64);
}

} // namespace

const Node *matchOnlineSoftmaxSum(const Node &amax) {
  auto a = bound(amax, "torch.ops.aten.amax.default");
  if (!a || !a->get("self").isNode())
    return nullptr;
  const Node *x = a->get("self").asNode();
  auto dims = keptReducedDims(*a, *x);
  if (!dims || !onlineDType(*x) || !onlineDType(amax) ||
      amax.value().tensor()->dtype != x->value().tensor()->dtype)
    return nullptr;
  for (const Node *sub : amax.users()) {
    auto s = bound(*sub, "torch.ops.aten.sub.Tensor");
    if (!s || !s->get("self").isNode() || s->get("self").asNode() != x ||
        !s->get("other").isNode() || s->get("other").asNode() != &amax)
      continue;
    auto alpha = s->floating("alpha");
    if (!alpha || *alpha != 1)
      continue;
    for (const Node *exp : sub->users()) {
      auto e = bound(*exp, "torch.ops.aten.exp.default");
      if (!e || !e->get("self").isNode() || e->get("self").asNode() != sub)
        continue;
      for (const Node *sum : exp->users()) {
        auto r = bound(*sum, "torch.ops.aten.sum.dim_IntList");
        if (!r || !r->get("self").isNode() || r->get("self").asNode() != exp)
          continue;
        auto dtype = r->dtype("dtype");
        auto sumDims = keptReducedDims(*r, *exp);
        if (dtype && !*dtype && sumDims && *sumDims == *dims && onlineDType(*sum) &&
            sum->value().tensor()->dtype == x->value().tensor()->dtype)
          return sum;
      }
    }
  }
  return nullptr;
}

} // namespace fxkit
