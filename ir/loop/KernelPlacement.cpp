#include "ir/loop/KernelPlacement.h"

#include "ir/ops/ShapeRules.h"

namespace fxkit::loop {

namespace {

std::vector<SymExpr> concat(const std::vector<SymExpr> &a, const std::vector<SymExpr> &b) {
  std::vector<SymExpr> out = a;
  out.insert(out.end(), b.begin(), b.end());
  return out;
}

void addVars(OpPlace &p, const std::vector<SymExpr> &mapped, bool reduction) {
  for (size_t i = 0; i < mapped.size(); ++i)
    p.toKernel[loopVarName(reduction, i)] = mapped[i];
}

} // namespace

std::vector<SymExpr> loopVars(size_t n, bool reduction, size_t first) {
  std::vector<SymExpr> out;
  for (size_t i = 0; i < n; ++i)
    out.push_back(loopVar(reduction, first + i));
  return out;
}

std::optional<std::vector<SymExpr>> groupOnto(const std::vector<SymExpr> &ranges,
                                              const std::vector<SymExpr> &target,
                                              const std::vector<SymExpr> &targetVars) {
  std::vector<SymExpr> out;
  size_t j = 0;
  for (const SymExpr &size : ranges) {
    SymExpr product = 1, var = 0;
    while (j < target.size() && !symEq(product, size)) {
      if (!product.isConstant() || product.constant() != 1)
        if (symHint(product) > symHint(size))
          return std::nullopt;
      var = symAdd(symMul(var, target[j]), targetVars[j]);
      product = symMul(product, target[j]);
      ++j;
    }
    if (!symEq(product, size))
      return std::nullopt;
    out.push_back(var);
  }
  // Trailing size-1 dimensions of the target (a reduction over one point) group onto nothing.
  while (j < target.size() && target[j].isConstant() && target[j].constant() == 1)
    ++j;
  if (j != target.size())
    return std::nullopt;
  return out;
}

std::optional<OpPlace> placeOp(const LoopOp &op, const std::vector<SymExpr> &x,
                               const std::vector<SymExpr> &r) {
  OpPlace place;
  std::vector<SymExpr> xv = loopVars(x.size(), false), rv = loopVars(r.size(), true);
  // A scan sits like a reduction: its kept space on X, its scanned dimension on R.
  if (op.kind == LoopOpKind::Reduction || op.kind == LoopOpKind::Scan) {
    if (r.empty())
      return std::nullopt;
    auto kept = groupOnto(op.ranges, x, xv);
    auto reduced = groupOnto(op.reductionRanges, r, rv);
    if (!kept || !reduced)
      return std::nullopt;
    addVars(place, *kept, false);
    addVars(place, *reduced, true);
    return place;
  }
  if (auto rows = groupOnto(op.ranges, x, xv)) {
    addVars(place, *rows, false);
    return place;
  }
  if (!r.empty()) {
    std::vector<SymExpr> allVars = xv;
    allVars.insert(allVars.end(), rv.begin(), rv.end());
    if (auto full = groupOnto(op.ranges, concat(x, r), allVars)) {
      place.placement = Placement::Full;
      addVars(place, *full, false);
      return place;
    }
  }
  if (r.empty() && symEq(op.numel(), symProduct(x))) {
    place.placement = Placement::Flat;
    return place;
  }
  return std::nullopt;
}

SymExpr toKernelCoordinates(const SymExpr &index, const OpPlace &place) {
  return index.substitute(place.toKernel).simplify();
}

} // namespace fxkit::loop
