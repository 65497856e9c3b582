#pragma once
/// \file Python expressions of Inductor's generated wrapper code, as a small syntax tree, and
/// their recursive-descent parser. The subset is what output_code.py and the `triton_meta`
/// dictionaries of its kernels use: names, attributes, calls with keyword and starred
/// arguments, subscripts, tuples, lists, dicts, sets, literals, unary and binary arithmetic,
/// comparisons, `not`/`and`/`or` and conditional expressions (`a if c else b`, which the
/// wrapper writes for dynamic slice bounds). Lambdas and comprehensions are errors.

#include "ir/Error.h"
#include "support/PyLexer.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit::inductor {

struct PyExpr {
  enum class Kind : uint8_t {
    Name,      ///< text: the identifier (None, True and False are Const)
    Const,     ///< text: None, True, False, ...
    Int,       ///< text: the spelling; value: its value
    Float,     ///< text: the spelling
    String,    ///< text: the decoded value; token: the literal (several when concatenated)
    Attribute, ///< items[0].text
    Call,      ///< items[0](items[1..]; keywords...)
    Subscript, ///< items[0][items[1]]
    Tuple,     ///< (items...)
    List,      ///< [items...]
    Dict,      ///< {items[0]: items[1], ...}
    Set,       ///< {items...}
    Unary,     ///< text: - + ~ not; items[0]
    Binary,    ///< text: the operator (also `and`, `or`, `in`, `is`); items[0] op items[1]
    IfExp,     ///< items[0] if items[1] else items[2]
    Starred,   ///< *items[0] or **items[0] (text: * or **)
  };
  Kind kind = Kind::Const;
  int line = 0; ///< 1-based position of the first token
  int col = 0;
  std::string text;
  int64_t value = 0;
  bool parenthesized = false; ///< written inside its own parentheses
  std::string key;            ///< the keyword, for a keyword argument in Call::keywords
  std::vector<PyExpr> items;
  std::vector<PyExpr> keywords; ///< Call only: keyword arguments (key set)

  /// `torch.ops.aten.mm.default` for a chain of names and attributes, "" otherwise.
  std::string dotted() const;
  bool isName(std::string_view name) const { return kind == Kind::Name && text == name; }
  /// The callee of a Call as a dotted name ("" when not a dotted name).
  std::string callee() const { return kind == Kind::Call ? items[0].dotted() : std::string(); }
  std::span<const PyExpr> args() const { return std::span<const PyExpr>(items).subspan(1); }
  const PyExpr *keyword(std::string_view name) const;
};

/// Parses one expression from tokens[pos..] and advances pos past it. Comment tokens inside
/// brackets are skipped. Nesting deeper than `maxDepth` is an error, so hostile input cannot
/// exhaust the stack (64: each level is about a dozen frames, which must fit a sanitizer
/// build's stack and a worker thread's). Errors name file:line:col and show the source line of
/// `text`.
class PyExprParser {
public:
  PyExprParser(std::span<const Token> tokens, std::string_view text, const std::string &fileName,
               int maxDepth = 64)
      : toks_(tokens), text_(text), file_(fileName), maxDepth_(maxDepth) {}

  /// A full expression, with a top-level tuple when there are commas (`a, b`).
  Expected<PyExpr> parseExpressionList(size_t &pos);
  /// One expression (no top-level tuple).
  Expected<PyExpr> parseExpression(size_t &pos);
  /// The targets of `for targets in ...`: an expression list in which `in` is not an operator.
  Expected<PyExpr> parseForTargets(size_t &pos);

  /// An error at token `pos`.
  Error errorAt(size_t pos, std::string message) const;

private:
  const Token &tok(size_t pos) const;
  void skipComments(size_t &pos) const;
  /// parseExpressionList at `depth`: nested lists (subscripts) count toward the depth limit.
  Expected<PyExpr> expressionList(size_t &pos, int depth);
  /// Python's precedence from the loosest: `a if c else b`, or, and, not, comparisons.
  Expected<PyExpr> conditional(size_t &pos, int depth);
  Expected<PyExpr> logical(size_t &pos, int level, int depth);
  Expected<PyExpr> inversion(size_t &pos, int depth);
  Expected<PyExpr> comparison(size_t &pos, int depth);
  Expected<PyExpr> binary(size_t &pos, int level, int depth);
  Expected<PyExpr> unary(size_t &pos, int depth);
  Expected<PyExpr> power(size_t &pos, int depth);
  Expected<PyExpr> postfix(size_t &pos, int depth);
  Expected<PyExpr> atom(size_t &pos, int depth);
  /// Items up to `close`; sets trailingComma when the last item is followed by a comma.
  Status sequence(size_t &pos, std::string_view close, int depth, std::vector<PyExpr> &items,
                  bool &trailingComma);
  Status callArguments(size_t &pos, int depth, PyExpr &call);
  /// A prefix operator (the token at `pos`; `text` in the tree) over what `operand` parses
  /// after it, one level deeper.
  Expected<PyExpr> prefixOperator(size_t &pos, int depth, std::string text,
                                  Expected<PyExpr> (PyExprParser::*operand)(size_t &, int));
  /// After an item of the list whose bracket is at `open`: true past a `,` (an item may
  /// follow), false past `close` (the list ended). Else an error: `unclosed` at the end of the
  /// line, otherwise `expected` with the token found.
  Expected<bool> listSeparator(size_t &pos, size_t open, std::string_view close,
                               const std::string &unclosed, const std::string &expected);
  /// An unexpected token inside brackets opened at `open`: when it is on a later line, the
  /// bracket was most likely never closed (the lexer joined the following lines), so the error
  /// points at the bracket.
  Error insideBrackets(size_t open, size_t pos, std::string message) const;

  std::span<const Token> toks_;
  std::string_view text_;
  const std::string &file_;
  int maxDepth_;
  bool inIsOperator_ = true;
};

} // namespace fxkit::inductor
