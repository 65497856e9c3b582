#include "ir/wrapper/SizeNodes.h"

#include <vector>

namespace fxkit::wrapper {

Expected<Argument> sizeArgument(const SymExpr &e, std::string_view name,
                                std::map<std::string, Argument, std::less<>> &memo,
                                const SizeNodeHooks &hooks) {
  if (e.isConstant())
    return Argument::integer(e.constant());
  std::string key = e.str();
  if (auto it = memo.find(key); it != memo.end())
    return it->second;
  auto ops = e.operands();
  Argument out;
  switch (e.kind()) {
  case SymExpr::Kind::Symbol:
    return hooks.symbol(e.name());
  case SymExpr::Kind::Paren:
    return hooks.operand(ops[0], name);
  case SymExpr::Kind::Neg:
  case SymExpr::Kind::Add:
  case SymExpr::Kind::Sub:
  case SymExpr::Kind::Mul:
  case SymExpr::Kind::FloorDiv:
  case SymExpr::Kind::Mod: {
    std::vector<Argument> operands;
    for (const SymExpr &o : ops) {
      auto a = hooks.operand(o, "");
      if (!a)
        return a.takeError();
      operands.push_back(a.take());
    }
    std::string_view base = name.empty() ? sizeArithOp(e.kind())->base : name;
    out = Argument::node(hooks.emit(e, sizeArith(e.kind(), std::move(operands)), base));
    break;
  }
  default:
    out = Argument::sym(e);
  }
  memo[key] = out;
  return out;
}

} // namespace fxkit::wrapper
