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
    Call,     ///< Name(a, b, ...): Max, Min, FloorDiv, ModularIndexing, Eq, Piecewise, ...
    // What sympy and PyTorch's printers write for SymFloat and SymBool values and guards
    // (`1.0*s0`, `u0 >= 0`, `(u0 >= 0) & (u0 <= 128)`, `Piecewise((1, s0 > 2), (0, True))`).
    Float,  ///< floating literal; name() is its spelling (`0.100000000000000`, `1e-05`)
    Named,  ///< named constant: True, False, oo, int_oo, zoo, nan, math.inf (not a symbol)
    Tuple,  ///< (a, b) / (a,) / (): arguments of Piecewise
    Lt,     ///< a < b
    Le,     ///< a <= b
    Gt,     ///< a > b
    Ge,     ///< a >= b
    Eq,     ///< a == b (Python's printer; sympy writes Eq(a, b), a Call)
    Ne,     ///< a != b
    BitAnd, ///< a & b (sympy's And)
    BitOr,  ///< a | b (sympy's Or)
    BitXor, ///< a ^ b
    Invert, ///< ~a (sympy's Not)
    And,    ///< a and b (Python's printer)
    Or,     ///< a or b
    Not,    ///< not a
  };

  /// The Python type an expression's value has: SymInt, SymFloat or SymBool.
  enum class Type : uint8_t { Int, Float, Bool };

  /// A Python number, what evaluateNumber() gives: an int, a float or a bool.
  struct Number {
    Type type = Type::Int;
    int64_t i = 0; ///< Int and Bool (0 or 1)
    double f = 0;  ///< Float
    double asDouble() const { return type == Type::Float ? f : static_cast<double>(i); }
    bool truthy() const { return type == Type::Float ? f != 0 : i != 0; }
  };

  SymExpr() = default;
  SymExpr(int64_t value) : value_(value) {} // NOLINT: constants convert implicitly

  static SymExpr symbol(std::string_view name);
  static SymExpr binary(Kind kind, SymExpr lhs, SymExpr rhs);
  static SymExpr neg(SymExpr operand);
  static SymExpr paren(SymExpr operand);
  static SymExpr call(std::string_view name, std::span<const SymExpr> args);
  /// A floating literal kept in the given spelling (`0.5`, `1.00000000000000E-12`).
  static SymExpr floating(std::string_view spelling);
  /// A floating value in Python's repr (`0.5`, `1e-05`, `inf`).
  static SymExpr floating(double value);
  /// True or False.
  static SymExpr boolean(bool value);
  /// Not, Invert, Neg or Paren of one operand.
  static SymExpr unary(Kind kind, SymExpr operand);
  static SymExpr tuple(std::span<const SymExpr> items);

  /// Parses what sympy's StrPrinter and PyTorch's Python printer write for SymInt, SymFloat
  /// and SymBool expressions (Python's grammar and precedence: `or`, `and`, `not`, one
  /// comparison, `|`, `^`, `&`, `+ -`, `* / // %`, unary `- + ~`, `**`; calls, tuples, integer
  /// and floating literals). Errors carry the 1-based column in loc.col; nesting is limited.
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

  /// SymInt, SymFloat or SymBool, from the operators and functions (a comparison is a bool,
  /// `ToFloat`, a floating literal or a float symbol `zf0`/`zuf0` make a float).
  Type type() const;

  using Bindings = std::map<std::string, int64_t, std::less<>>;
  /// Evaluates with Python semantics to an integer (a bool is 0 or 1; a float result must be
  /// integral); an error names the first unbound symbol or a bad op.
  Expected<int64_t> evaluate(const Bindings &bindings) const;
  /// Evaluates with Python semantics to an int, float or bool (`/` of ints is a float,
  /// comparisons are bools, sympy's functions as torch/utils/_sympy/functions.py defines them).
  Expected<Number> evaluateNumber(const Bindings &bindings) const;
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
