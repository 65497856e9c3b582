#pragma once
/// \file Symbolic integer expressions (sizes such as `s77`, `s17*s27 + 1`, `-((-s6)//8)`).
///
/// A SymExpr is a small value: an inline constant or a pointer to an immutable, uniqued
/// node owned by a process-wide arena (like MLIR's uniqued affine expressions), so equal
/// trees share storage and copying is free. Parsing keeps explicit parentheses as Paren
/// nodes, so `print(parse(s)) == s` for any canonically spaced input.

#include "ir/Error.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

struct SymNode;

class SymExpr {
public:
  enum class Kind : uint8_t {
    Int,      ///< integer constant
    Symbol,   ///< free symbol: s77, ks0, u0
    Add,      ///< a + b
    Sub,      ///< a - b
    Mul,      ///< a*b
    TrueDiv,  ///< a/b
    FloorDiv, ///< a//b (Python floor division)
    Mod,      ///< a%b (Python modulo: sign of the divisor)
    Pow,      ///< a**b
    Neg,      ///< -a
    Paren,    ///< (a): kept so that printing reproduces the input
    Call,     ///< Name(a, b, ...): Max, Min, FloorDiv, ModularIndexing, ...
  };

  SymExpr() = default;
  SymExpr(int64_t value) : value_(value) {} // NOLINT: constants convert implicitly

  static SymExpr symbol(std::string_view name);
  static SymExpr binary(Kind kind, SymExpr lhs, SymExpr rhs);
  static SymExpr neg(SymExpr operand);
  static SymExpr paren(SymExpr operand);
  static SymExpr call(std::string_view name, std::span<const SymExpr> args);

  /// Parses Python/sympy integer syntax. Errors carry the 1-based column in loc.col.
  static Expected<SymExpr> parse(std::string_view text);

  Kind kind() const;
  bool isConstant() const { return node_ == nullptr; }
  int64_t constant() const { return value_; }
  /// Symbol or call name.
  std::string_view name() const;
  std::span<const SymExpr> operands() const;

  /// Exact printing: the parsed spelling for parsed expressions (spacing canonical).
  std::string str() const;
  void print(std::string &out) const;

  using Bindings = std::map<std::string, int64_t, std::less<>>;
  /// Evaluates with Python semantics; an error names the first unbound symbol or a bad op.
  Expected<int64_t> evaluate(const Bindings &bindings) const;
  /// Replaces symbols by expressions.
  SymExpr substitute(const std::map<std::string, SymExpr, std::less<>> &replacements) const;
  /// Canonical form: a sum of monomials with integer coefficients, constants folded,
  /// parentheses dropped. Two expressions are equal as polynomials iff their simplified
  /// forms are identical.
  SymExpr simplify() const;
  /// Free symbols, sorted and unique.
  std::vector<std::string> symbols() const;

  /// Structural identity (uniqued nodes compare by pointer).
  bool operator==(const SymExpr &other) const {
    return node_ == other.node_ && value_ == other.value_;
  }
  bool operator!=(const SymExpr &other) const { return !(*this == other); }
  size_t hash() const;

  const SymNode *node() const { return node_; }
  /// Rebuilds a SymExpr from node() (nullptr is not allowed: use the constant).
  static SymExpr fromNode(const SymNode *node) { return SymExpr(node, NodeTag{}); }

private:
  struct NodeTag {};
  SymExpr(const SymNode *node, NodeTag) : node_(node) {}
  const SymNode *node_ = nullptr;
  int64_t value_ = 0;
};

/// Node storage; public only so the arena can define it.
struct SymNode {
  SymExpr::Kind kind;
  std::string_view name; ///< owned by the arena
  std::vector<SymExpr> operands;
};

} // namespace fxkit
