#pragma once
/// \file Size expressions as wrapper nodes: the one walk that turns a SymExpr into the
/// argument computing it (an integer, a bound symbol, operator.* nodes over those, or the
/// expression itself where the dialect has no op for it). Both producers of wrapper graphs
/// make sizes this way (the wrapper pass, transforms/WrapperGraph.cpp; the Inductor importers,
/// importers/inductor/CallGraphBuilder.cpp); each says how it binds symbols and names nodes.

#include "ir/Argument.h"
#include "ir/Error.h"
#include "ir/SymExpr.h"
#include "ir/wrapper/WrapperDialect.h"

#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace fxkit::wrapper {

/// What a producer supplies to sizeArgument.
struct SizeNodeHooks {
  /// The argument a size symbol is bound to, or why it is not bound.
  std::function<Expected<Argument>(std::string_view symbol)> symbol;
  /// An operand or a parenthesized expression made by the producer's own size() (which may
  /// simplify or cache); `name` is passed on for a parenthesized one, empty for operands.
  std::function<Expected<Argument>(const SymExpr &e, std::string_view name)> operand;
  /// Places `call` (operator.* computing `e`) in the graph as a node named after `name`.
  std::function<Node *(const SymExpr &e, Call call, std::string_view name)> emit;
};

/// The argument computing `e`: a constant as an integer, a symbol through `hooks.symbol`,
/// + - * // % and negation as an operator.* node over its operands, anything else (Max, a/b,
/// ModularIndexing) kept as the expression for its consumer to evaluate. `memo` (expression
/// text -> argument) makes each distinct expression once; the new node is named `name`, or
/// after its op (`mul`) when `name` is empty.
Expected<Argument> sizeArgument(const SymExpr &e, std::string_view name,
                                std::map<std::string, Argument, std::less<>> &memo,
                                const SizeNodeHooks &hooks);

} // namespace fxkit::wrapper
