#include "importers/inductor/PyExpr.h"

#include "ir/Try.h"

#include <array>
#include <charconv>

namespace fxkit::inductor {

using TK = Token::Kind;

std::string PyExpr::dotted() const {
  if (kind == Kind::Name)
    return text;
  if (kind != Kind::Attribute)
    return {};
  std::string base = items[0].dotted();
  return base.empty() ? std::string() : base + "." + text;
}

const PyExpr *PyExpr::keyword(std::string_view name) const {
  for (const PyExpr &k : keywords)
    if (k.key == name)
      return &k;
  return nullptr;
}

const Token &PyExprParser::tok(size_t pos) const {
  // The lexer always ends with an End token; never read past it.
  return pos < toks_.size() ? toks_[pos] : toks_.back();
}

void PyExprParser::skipComments(size_t &pos) const {
  while (pos < toks_.size() && toks_[pos].kind == TK::Comment)
    ++pos;
}

Error PyExprParser::errorAt(size_t pos, std::string message) const {
  const Token &t = tok(pos);
  return Error(std::move(message), SourceLoc{file_, t.line, t.col},
               std::string(sourceLine(text_, t.line)));
}

namespace {

std::string describe(const Token &t) {
  switch (t.kind) {
  case TK::Newline:
    return "end of line";
  case TK::End:
    return "end of input";
  default:
    return "'" + std::string(t.text.substr(0, 40)) + "'";
  }
}

PyExpr make(PyExpr::Kind kind, const Token &at) {
  PyExpr e;
  e.kind = kind;
  e.line = at.line;
  e.col = at.col;
  return e;
}

/// A binary operation `op` (spelled by token `t`) of lhs and rhs, placed where lhs starts, as
/// Python's ast places a BinOp, BoolOp or Compare.
PyExpr binaryNode(const Token &t, std::string_view op, PyExpr lhs, PyExpr rhs) {
  PyExpr e = make(PyExpr::Kind::Binary, t);
  e.line = lhs.line;
  e.col = lhs.col;
  e.text = op;
  e.items.push_back(std::move(lhs));
  e.items.push_back(std::move(rhs));
  return e;
}

/// Tokens that end an expression list: a trailing comma before them makes a tuple.
bool endsList(const Token &t) {
  return t.kind == TK::Newline || t.kind == TK::End || t.kind == TK::Comment || t.is("=") ||
         t.is(")") || t.is("]") || t.is("}") || t.is(":") || t.is(";");
}

} // namespace

Expected<PyExpr> PyExprParser::parseExpressionList(size_t &pos) { return expressionList(pos, 0); }

Expected<PyExpr> PyExprParser::expressionList(size_t &pos, int depth) {
  size_t start = pos;
  auto first = conditional(pos, depth);
  if (!first)
    return first;
  if (!tok(pos).is(","))
    return first;
  PyExpr tuple = make(PyExpr::Kind::Tuple, tok(start));
  tuple.items.push_back(first.take());
  while (tok(pos).is(",")) {
    ++pos;
    if (endsList(tok(pos)))
      break;
    auto next = conditional(pos, depth);
    if (!next)
      return next;
    tuple.items.push_back(next.take());
  }
  return tuple;
}

Expected<PyExpr> PyExprParser::parseExpression(size_t &pos) { return conditional(pos, 0); }

Expected<PyExpr> PyExprParser::parseForTargets(size_t &pos) {
  inIsOperator_ = false;
  auto e = parseExpressionList(pos);
  inIsOperator_ = true;
  return e;
}

Error PyExprParser::insideBrackets(size_t open, size_t pos, std::string message) const {
  const Token &o = tok(open);
  if (tok(pos).line != o.line)
    return errorAt(open,
                   std::string(o.is("(") ? "unbalanced parentheses: '" : "unbalanced brackets: '") +
                       std::string(o.text) + "' is never closed");
  return errorAt(pos, std::move(message));
}

Expected<PyExpr> PyExprParser::conditional(size_t &pos, int depth) {
  if (depth > maxDepth_)
    return errorAt(pos, "expression nested too deeply (limit " + std::to_string(maxDepth_) + ")");
  auto body = logical(pos, 0, depth);
  if (!body || !tok(pos).isIdent("if"))
    return body;
  const Token &t = tok(pos);
  ++pos;
  auto test = logical(pos, 0, depth + 1);
  if (!test)
    return test;
  if (!tok(pos).isIdent("else"))
    return errorAt(pos,
                   "expected 'else' in the conditional expression, found " + describe(tok(pos)));
  ++pos;
  auto orelse = conditional(pos, depth + 1);
  if (!orelse)
    return orelse;
  PyExpr e = make(PyExpr::Kind::IfExp, t);
  e.line = body->line;
  e.col = body->col;
  e.items.push_back(body.take());
  e.items.push_back(test.take());
  e.items.push_back(orelse.take());
  return e;
}

Expected<PyExpr> PyExprParser::logical(size_t &pos, int level, int depth) {
  // level 0: or, level 1: and, then `not`.
  if (level == 2)
    return inversion(pos, depth);
  std::string_view op = level == 0 ? "or" : "and";
  auto lhs = logical(pos, level + 1, depth);
  if (!lhs)
    return lhs;
  while (tok(pos).isIdent(op)) {
    const Token &t = tok(pos);
    ++pos;
    auto rhs = logical(pos, level + 1, depth + 1);
    if (!rhs)
      return rhs;
    lhs = binaryNode(t, op, lhs.take(), rhs.take());
  }
  return lhs;
}

Expected<PyExpr> PyExprParser::inversion(size_t &pos, int depth) {
  const Token &t = tok(pos);
  if (!t.isIdent("not"))
    return comparison(pos, depth);
  return prefixOperator(pos, depth, "not", &PyExprParser::inversion);
}

Expected<PyExpr> PyExprParser::prefixOperator(size_t &pos, int depth, std::string text,
                                              Expected<PyExpr> (PyExprParser::*operand)(size_t &,
                                                                                        int)) {
  const Token &t = tok(pos);
  if (depth > maxDepth_)
    return errorAt(pos, "expression nested too deeply (limit " + std::to_string(maxDepth_) + ")");
  ++pos;
  auto sub = (this->*operand)(pos, depth + 1);
  if (!sub)
    return sub;
  PyExpr e = make(PyExpr::Kind::Unary, t);
  e.text = std::move(text);
  e.items.push_back(sub.take());
  return e;
}

Expected<PyExpr> PyExprParser::comparison(size_t &pos, int depth) {
  if (depth > maxDepth_)
    return errorAt(pos, "expression nested too deeply (limit " + std::to_string(maxDepth_) + ")");
  auto lhs = binary(pos, 0, depth);
  if (!lhs)
    return lhs;
  static constexpr std::array<std::string_view, 6> kCompare = {"==", "!=", "<", ">", "<=", ">="};
  for (;;) {
    const Token &t = tok(pos);
    std::string op;
    for (std::string_view c : kCompare)
      if (t.is(c))
        op = c;
    if ((t.isIdent("in") && inIsOperator_) || t.isIdent("is"))
      op = t.text;
    if (op.empty())
      return lhs;
    ++pos;
    auto rhs = binary(pos, 0, depth + 1);
    if (!rhs)
      return rhs;
    lhs = binaryNode(t, op, lhs.take(), rhs.take());
  }
}

Expected<PyExpr> PyExprParser::binary(size_t &pos, int level, int depth) {
  // Python's precedence, loosest first; the last level leads to unary operators.
  static const std::vector<std::vector<std::string_view>> kLevels = {
      {"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"}};
  if (level == static_cast<int>(kLevels.size()))
    return unary(pos, depth);
  auto lhs = binary(pos, level + 1, depth);
  if (!lhs)
    return lhs;
  for (;;) {
    const Token &t = tok(pos);
    bool match = false;
    for (std::string_view op : kLevels[level])
      match = match || t.is(op);
    if (!match)
      return lhs;
    ++pos;
    auto rhs = binary(pos, level + 1, depth);
    if (!rhs)
      return rhs;
    lhs = binaryNode(t, t.text, lhs.take(), rhs.take());
  }
}

Expected<PyExpr> PyExprParser::unary(size_t &pos, int depth) {
  const Token &t = tok(pos);
  if (t.is("-") || t.is("+") || t.is("~"))
    return prefixOperator(pos, depth, std::string(t.text), &PyExprParser::unary);
  return power(pos, depth);
}

Expected<PyExpr> PyExprParser::power(size_t &pos, int depth) {
  auto base = postfix(pos, depth);
  if (!base || !tok(pos).is("**"))
    return base;
  const Token &t = tok(pos);
  ++pos;
  auto exponent = unary(pos, depth + 1);
  if (!exponent)
    return exponent;
  return binaryNode(t, "**", base.take(), exponent.take());
}

Expected<PyExpr> PyExprParser::postfix(size_t &pos, int depth) {
  auto lhs = atom(pos, depth);
  if (!lhs)
    return lhs;
  for (;;) {
    const Token &t = tok(pos);
    if (t.is(".")) {
      const Token &name = tok(pos + 1);
      if (name.kind != TK::Ident)
        return errorAt(pos + 1, "expected an attribute name after '.', found " + describe(name));
      PyExpr e = make(PyExpr::Kind::Attribute, t);
      e.line = lhs->line;
      e.col = lhs->col;
      e.text = name.text;
      e.items.push_back(lhs.take());
      lhs = std::move(e);
      pos += 2;
    } else if (t.is("(")) {
      if (depth + 1 > maxDepth_)
        return errorAt(pos,
                       "expression nested too deeply (limit " + std::to_string(maxDepth_) + ")");
      PyExpr e = make(PyExpr::Kind::Call, t);
      e.line = lhs->line;
      e.col = lhs->col;
      e.items.push_back(lhs.take());
      ++pos;
      FXKIT_TRY(callArguments(pos, depth + 1, e));
      lhs = std::move(e);
    } else if (t.is("[")) {
      if (depth + 1 > maxDepth_)
        return errorAt(pos,
                       "expression nested too deeply (limit " + std::to_string(maxDepth_) + ")");
      size_t pos0 = pos;
      ++pos;
      skipComments(pos);
      auto index = expressionList(pos, depth + 1);
      if (!index)
        return index;
      skipComments(pos);
      if (!tok(pos).is("]"))
        return insideBrackets(pos0, pos,
                              "expected ']' to close the subscript, found " + describe(tok(pos)));
      ++pos;
      PyExpr e = make(PyExpr::Kind::Subscript, t);
      e.line = lhs->line;
      e.col = lhs->col;
      e.items.push_back(lhs.take());
      e.items.push_back(index.take());
      lhs = std::move(e);
    } else {
      return lhs;
    }
  }
}

Status PyExprParser::callArguments(size_t &pos, int depth, PyExpr &call) {
  size_t open = pos - 1;
  for (;;) {
    skipComments(pos);
    if (tok(pos).is(")")) {
      ++pos;
      return Status::ok();
    }
    const Token &t = tok(pos);
    if (t.kind == TK::Ident && tok(pos + 1).is("=")) {
      pos += 2;
      FXKIT_ASSIGN_OR_RETURN(auto value, conditional(pos, depth));
      if (call.keyword(t.text))
        return errorAt(pos, "keyword argument '" + std::string(t.text) + "' repeated");
      PyExpr kw = std::move(value);
      kw.key = t.text;
      call.keywords.push_back(std::move(kw));
    } else if (t.is("*") || t.is("**")) {
      ++pos;
      FXKIT_ASSIGN_OR_RETURN(auto value, conditional(pos, depth));
      PyExpr star = make(PyExpr::Kind::Starred, t);
      star.text = t.text;
      star.items.push_back(std::move(value));
      call.items.push_back(std::move(star));
    } else {
      if (t.kind == TK::End || t.kind == TK::Newline)
        return errorAt(open, "unbalanced parentheses: '(' is never closed");
      FXKIT_ASSIGN_OR_RETURN(auto value, conditional(pos, depth));
      if (!call.keywords.empty())
        return errorAt(pos, "positional argument after keyword arguments");
      call.items.push_back(std::move(value));
    }
    FXKIT_ASSIGN_OR_RETURN(bool more, listSeparator(pos, open, ")",
                                                    "unbalanced parentheses: '(' is never closed",
                                                    "expected ',' or ')' in the call's arguments"));
    if (!more)
      return Status::ok();
  }
}

Status PyExprParser::sequence(size_t &pos, std::string_view close, int depth,
                              std::vector<PyExpr> &items, bool &trailingComma) {
  size_t open = pos - 1;
  const std::string unclosed =
      "unbalanced brackets: '" + std::string(tok(open).text) + "' is never closed";
  trailingComma = false;
  for (;;) {
    skipComments(pos);
    if (tok(pos).is(close)) {
      ++pos;
      return Status::ok();
    }
    if (tok(pos).kind == TK::End || tok(pos).kind == TK::Newline)
      return errorAt(open, unclosed);
    Expected<PyExpr> item = Error("");
    if (tok(pos).is("*")) {
      const Token &t = tok(pos);
      ++pos;
      FXKIT_ASSIGN_OR_RETURN(auto value, conditional(pos, depth));
      PyExpr star = make(PyExpr::Kind::Starred, t);
      star.text = "*";
      star.items.push_back(std::move(value));
      item = std::move(star);
    } else {
      item = conditional(pos, depth);
    }
    FXKIT_TRY(item);
    items.push_back(item.take());
    FXKIT_ASSIGN_OR_RETURN(
        trailingComma,
        listSeparator(pos, open, close, unclosed, "expected ',' or '" + std::string(close) + "'"));
    if (!trailingComma)
      return Status::ok();
  }
}

Expected<bool> PyExprParser::listSeparator(size_t &pos, size_t open, std::string_view close,
                                           const std::string &unclosed,
                                           const std::string &expected) {
  skipComments(pos);
  if (tok(pos).is(",")) {
    ++pos;
    return true;
  }
  if (tok(pos).is(close)) {
    ++pos;
    return false;
  }
  if (tok(pos).kind == TK::End || tok(pos).kind == TK::Newline)
    return errorAt(open, unclosed);
  return insideBrackets(open, pos, expected + ", found " + describe(tok(pos)));
}

Expected<PyExpr> PyExprParser::atom(size_t &pos, int depth) {
  if (depth > maxDepth_)
    return errorAt(pos, "expression nested too deeply (limit " + std::to_string(maxDepth_) + ")");
  skipComments(pos);
  const Token &t = tok(pos);
  switch (t.kind) {
  case TK::Ident: {
    if (t.text == "lambda" || t.text == "yield" || t.text == "await")
      return errorAt(pos, "'" + std::string(t.text) + "' expressions are not supported here");
    bool isConst = t.text == "None" || t.text == "True" || t.text == "False";
    PyExpr e = make(isConst ? PyExpr::Kind::Const : PyExpr::Kind::Name, t);
    e.text = t.text;
    ++pos;
    return e;
  }
  case TK::Int: {
    PyExpr e = make(PyExpr::Kind::Int, t);
    e.text = t.text;
    std::string digits;
    for (char c : t.text)
      if (c != '_')
        digits.push_back(c);
    int base = 10;
    size_t skip = 0;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
      base = 16;
      skip = 2;
    }
    auto [end, ec] =
        std::from_chars(digits.data() + skip, digits.data() + digits.size(), e.value, base);
    if (ec != std::errc() || end != digits.data() + digits.size())
      return errorAt(pos, "integer '" + std::string(t.text) + "' does not fit in 64 bits");
    ++pos;
    return e;
  }
  case TK::Float: {
    PyExpr e = make(PyExpr::Kind::Float, t);
    e.text = t.text;
    ++pos;
    return e;
  }
  case TK::String: {
    PyExpr e = make(PyExpr::Kind::String, t);
    while (tok(pos).kind == TK::String) { // 'a' 'b' concatenates
      auto value = decodePyString(tok(pos).text);
      if (!value)
        return errorAt(pos, value.error().message);
      e.text += *value;
      ++pos;
    }
    return e;
  }
  case TK::Punct:
    break;
  default:
    return errorAt(pos, "expected an expression, found " + describe(t));
  }
  if (t.is("...")) {
    PyExpr e = make(PyExpr::Kind::Const, t);
    e.text = "...";
    ++pos;
    return e;
  }
  if (t.is("(")) {
    ++pos;
    skipComments(pos);
    if (tok(pos).is(")")) {
      ++pos;
      PyExpr e = make(PyExpr::Kind::Tuple, t);
      e.parenthesized = true;
      return e;
    }
    std::vector<PyExpr> items;
    bool trailingComma = false;
    FXKIT_TRY(sequence(pos, ")", depth + 1, items, trailingComma));
    if (items.size() == 1 && !trailingComma) {
      PyExpr inner = std::move(items[0]);
      inner.parenthesized = true;
      return inner;
    }
    PyExpr e = make(PyExpr::Kind::Tuple, t);
    e.parenthesized = true;
    e.items = std::move(items);
    return e;
  }
  if (t.is("[")) {
    ++pos;
    PyExpr e = make(PyExpr::Kind::List, t);
    bool trailingComma = false;
    FXKIT_TRY(sequence(pos, "]", depth + 1, e.items, trailingComma));
    return e;
  }
  if (t.is("{")) {
    size_t open = pos;
    ++pos;
    skipComments(pos);
    PyExpr e = make(PyExpr::Kind::Dict, t);
    if (tok(pos).is("}")) {
      ++pos;
      return e;
    }
    // A dict when the first item is followed by ':', a set otherwise.
    bool first = true;
    for (;;) {
      skipComments(pos);
      if (tok(pos).is("}")) {
        ++pos;
        return e;
      }
      if (tok(pos).kind == TK::End || tok(pos).kind == TK::Newline)
        return errorAt(open, "unbalanced brackets: '{' is never closed");
      auto key = conditional(pos, depth + 1);
      if (!key)
        return key;
      skipComments(pos);
      if (first && !tok(pos).is(":"))
        e.kind = PyExpr::Kind::Set;
      first = false;
      e.items.push_back(key.take());
      if (e.kind == PyExpr::Kind::Dict) {
        if (!tok(pos).is(":"))
          return errorAt(pos, "expected ':' after a dict key, found " + describe(tok(pos)));
        ++pos;
        auto value = conditional(pos, depth + 1);
        if (!value)
          return value;
        e.items.push_back(value.take());
      }
      FXKIT_ASSIGN_OR_RETURN(bool more, listSeparator(pos, open, "}",
                                                      "unbalanced brackets: '{' is never closed",
                                                      "expected ',' or '}'"));
      if (!more)
        return e;
    }
  }
  if (t.is(")") || t.is("]") || t.is("}"))
    return errorAt(pos, "unbalanced brackets: unexpected '" + std::string(t.text) + "'");
  return errorAt(pos, "expected an expression, found " + describe(t));
}

} // namespace fxkit::inductor
