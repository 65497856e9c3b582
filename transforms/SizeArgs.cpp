#include "transforms/SizeArgs.h"

#include "ir/ops/ShapeRules.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <unordered_map>

namespace fxkit {

using namespace loop;

bool isLoopVariable(std::string_view name) {
  return (name.size() >= 2 && (name[0] == 'x' || name[0] == 'r') &&
          std::all_of(name.begin() + 1, name.end(), [](char c) { return std::isdigit(c); })) ||
         isIndirectVarName(name);
}

namespace {

/// A term of a simplified sum: sign * coefficient * atoms.
struct Term {
  int64_t coefficient = 1;
  std::vector<SymExpr> sizes; ///< size symbols
  std::vector<SymExpr> rest;  ///< loop variables and opaque atoms (floor division, ...)
};

void collectTerms(const SymExpr &e, int64_t sign, std::vector<Term> &out) {
  if (e.isConstant()) {
    out.push_back({sign * e.constant(), {}, {}});
    return;
  }
  auto ops = e.operands();
  switch (e.kind()) {
  case SymExpr::Kind::Add:
    collectTerms(ops[0], sign, out);
    collectTerms(ops[1], sign, out);
    return;
  case SymExpr::Kind::Sub:
    collectTerms(ops[0], sign, out);
    collectTerms(ops[1], -sign, out);
    return;
  case SymExpr::Kind::Neg:
    collectTerms(ops[0], -sign, out);
    return;
  default:
    break;
  }
  Term t;
  t.coefficient = sign;
  std::vector<SymExpr> factors{e};
  while (!factors.empty()) {
    SymExpr f = factors.back();
    factors.pop_back();
    if (f.isConstant())
      t.coefficient *= f.constant();
    else if (f.kind() == SymExpr::Kind::Mul)
      for (const SymExpr &o : f.operands())
        factors.push_back(o);
    else if (f.kind() == SymExpr::Kind::Symbol && !isLoopVariable(f.name()))
      t.sizes.push_back(f);
    else
      t.rest.push_back(f);
  }
  auto byText = [](const SymExpr &a, const SymExpr &b) { return a.str() < b.str(); };
  std::sort(t.sizes.begin(), t.sizes.end(), byText);
  std::sort(t.rest.begin(), t.rest.end(), byText);
  out.push_back(std::move(t));
}

SymExpr product(const std::vector<SymExpr> &xs) {
  SymExpr p = 1;
  for (const SymExpr &x : xs)
    p = symMul(p, x);
  return p;
}

/// Calls fn on every index expression and range of the kernel's ops.
template <typename Fn> void forEachIndex(const LoopProgram &p, const Kernel &k, Fn fn) {
  for (int32_t o : k.ops) {
    const LoopOp &op = p.ops[o];
    for (const ScalarInstr &in : op.body)
      if (in.op == ScalarOp::Load || in.op == ScalarOp::IndexValue)
        fn(in.index);
    for (const Store &s : op.stores)
      fn(s.index);
  }
}

} // namespace

SymExpr useSizeArgs(const SymExpr &index, const Kernel &kernel) {
  std::vector<Term> terms;
  collectTerms(index.simplify(), 1, terms);
  SymExpr out = 0;
  for (const Term &t : terms) {
    SymExpr sizes = product(t.sizes);
    if (t.sizes.size() >= 2)
      for (const SizeArg &a : kernel.sizeArgs)
        if (symEq(a.definition, sizes)) {
          sizes = SymExpr::symbol(a.name);
          break;
        }
    SymExpr term = symMul(SymExpr(t.coefficient), sizes);
    for (const SymExpr &r : t.rest)
      term = symMul(term, r);
    out = symAdd(out, term);
  }
  return out;
}

namespace {

/// What hoisting needs from one index expression: the products of two or more sizes in term
/// order, and the size symbols a kernel reads as they are.
struct IndexSizes {
  std::vector<SymExpr> products;
  std::vector<std::string> symbols;
};

IndexSizes analyseIndex(const SymExpr &index) {
  IndexSizes out;
  std::vector<Term> terms;
  collectTerms(index.simplify(), 1, terms);
  for (const Term &t : terms) {
    if (t.sizes.size() == 1)
      out.symbols.emplace_back(t.sizes[0].name());
    if (t.sizes.size() >= 2)
      out.products.push_back(product(t.sizes));
  }
  // Sizes inside opaque atoms (x0 // s27) are read as they are.
  for (const std::string &name : index.symbols())
    if (!isLoopVariable(name)) {
      bool inHoisted = false;
      for (const Term &t : terms)
        if (t.sizes.size() >= 2)
          for (const SymExpr &s : t.sizes)
            inHoisted |= s.name() == name;
      if (!inHoisted)
        out.symbols.push_back(name);
    }
  return out;
}

struct SymExprKeyHash {
  size_t operator()(const SymExpr &e) const { return e.hash(); }
};

} // namespace

bool hoistSizeArgs(const LoopProgram &program, FusedProgram &fused) {
  bool changed = false;
  // Kernels index with the same few expressions over and over (uniqued, so equal expressions
  // are equal keys): each is analysed once.
  std::unordered_map<SymExpr, IndexSizes, SymExprKeyHash> analysed;
  for (Kernel &k : fused.kernels) {
    if (k.isExtern)
      continue;
    std::vector<SizeArg> oldSizeArgs = std::move(k.sizeArgs);
    std::vector<std::string> oldSymbolArgs = std::move(k.symbolArgs);
    k.sizeArgs.clear();
    k.symbolArgs.clear();
    std::set<std::string> symbols;
    forEachIndex(program, k, [&](const SymExpr &index) {
      auto it = analysed.find(index);
      if (it == analysed.end())
        it = analysed.emplace(index, analyseIndex(index)).first;
      const IndexSizes &sizes = it->second;
      for (const SymExpr &p : sizes.products) {
        bool known = std::any_of(k.sizeArgs.begin(), k.sizeArgs.end(),
                                 [&](const SizeArg &a) { return symEq(a.definition, p); });
        if (!known)
          k.sizeArgs.push_back({"ks" + std::to_string(k.sizeArgs.size()), p});
      }
      symbols.insert(sizes.symbols.begin(), sizes.symbols.end());
    });
    k.symbolArgs.assign(symbols.begin(), symbols.end());
    bool sameSizeArgs = std::equal(k.sizeArgs.begin(), k.sizeArgs.end(), oldSizeArgs.begin(),
                                   oldSizeArgs.end(), [](const SizeArg &a, const SizeArg &b) {
                                     return a.name == b.name && symEq(a.definition, b.definition);
                                   });
    changed |= !sameSizeArgs || k.symbolArgs != oldSymbolArgs;
  }
  return changed;
}

} // namespace fxkit
