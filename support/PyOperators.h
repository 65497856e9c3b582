#pragma once
/// \file The Python operators torch.fx's code generator writes for `operator.*` targets
/// (torch/fx/graph.py: `magic_methods`, `inplace_methods`) and the builtins it calls by name:
/// one table for the reader and the writer of `print_readable()` code.

#include <string_view>

namespace fxkit {

struct PyOperator {
  std::string_view token;  ///< `+`, `+=`
  std::string_view target; ///< `operator.add`, `operator.iadd`
};

/// `{} + {}` and friends, `a[b]` aside (getitem prints as a subscript). `/` reads as
/// operator.truediv: FX prints operator.div the same way.
inline constexpr PyOperator kPyBinaryOperators[] = {
    {"==", "operator.eq"},       {"!=", "operator.ne"},     {"<", "operator.lt"},
    {">", "operator.gt"},        {"<=", "operator.le"},     {">=", "operator.ge"},
    {"|", "operator.or_"},       {"^", "operator.xor"},     {"&", "operator.and_"},
    {"<<", "operator.lshift"},   {">>", "operator.rshift"}, {"+", "operator.add"},
    {"-", "operator.sub"},       {"*", "operator.mul"},     {"/", "operator.truediv"},
    {"//", "operator.floordiv"}, {"%", "operator.mod"},     {"@", "operator.matmul"},
    {"**", "operator.pow"}};

/// `-{}`, `+{}`, `~{}`.
inline constexpr PyOperator kPyUnaryOperators[] = {
    {"-", "operator.neg"}, {"+", "operator.pos"}, {"~", "operator.invert"}};

/// In-place operators: FX writes `a += b;  iadd = a` (the statement, then the node bound to
/// the updated first argument); operator.setitem writes `a[i] = v;  setitem = a`.
inline constexpr PyOperator kPyInplaceOperators[] = {
    {"+=", "operator.iadd"},     {"&=", "operator.iand"}, {"//=", "operator.ifloordiv"},
    {"<<=", "operator.ilshift"}, {"%=", "operator.imod"}, {"*=", "operator.imul"},
    {"@=", "operator.imatmul"},  {"|=", "operator.ior"},  {"**=", "operator.ipow"},
    {">>=", "operator.irshift"}, {"-=", "operator.isub"}, {"/=", "operator.itruediv"},
    {"^=", "operator.ixor"}};

/// The operator printed for `target` in `table`, or null.
inline const PyOperator *findPyOperatorByTarget(const auto &table, std::string_view target) {
  for (const PyOperator &op : table)
    if (op.target == target)
      return &op;
  return nullptr;
}

/// The entry of `table` whose token is `token`, or null.
inline const PyOperator *findPyOperatorByToken(const auto &table, std::string_view token) {
  for (const PyOperator &op : table)
    if (op.token == token)
      return &op;
  return nullptr;
}

/// Python's builtin functions: FX's code generator calls them by their bare names (`len(x)`,
/// `getattr(x, 'a')`), `str(graph)` prints their targets as `builtins.len` (Node's
/// _pretty_print_target).
inline bool isPyBuiltinFunction(std::string_view name) {
  static constexpr std::string_view kBuiltins[] = {
      "abs",     "all",     "any",    "ascii",     "bin",    "bool",     "callable",   "chr",
      "complex", "dict",    "divmod", "enumerate", "filter", "float",    "format",     "frozenset",
      "getattr", "hasattr", "hash",   "hex",       "id",     "int",      "isinstance", "issubclass",
      "iter",    "len",     "list",   "map",       "max",    "min",      "next",       "oct",
      "ord",     "pow",     "print",  "range",     "repr",   "reversed", "round",      "set",
      "setattr", "slice",   "sorted", "str",       "sum",    "tuple",    "type",       "zip"};
  for (std::string_view b : kBuiltins)
    if (b == name)
      return true;
  return false;
}

} // namespace fxkit
