#include "importers/inductor/PyStatements.h"

#include "ir/Try.h"

#include <set>

namespace fxkit::inductor {

namespace {

using TK = Token::Kind;

/// One logical line: tokens [begin, end) without the trailing comment and the newline.
struct Line {
  size_t begin = 0;
  size_t end = 0;
  int line = 0;
  int indent = 0;
  bool commentOnly = false;
  std::string_view comment; ///< '#...' of a comment-only line or after the code
};

std::vector<Line> splitLines(const std::vector<Token> &toks) {
  std::vector<Line> lines;
  size_t i = 0;
  while (i < toks.size() && toks[i].kind != TK::End) {
    if (toks[i].kind == TK::Newline) {
      ++i;
      continue;
    }
    Line l;
    l.begin = i;
    l.line = toks[i].line;
    l.indent = toks[i].col - 1;
    size_t j = i;
    while (j < toks.size() && toks[j].kind != TK::Newline && toks[j].kind != TK::End)
      ++j;
    l.end = j;
    if (l.end > l.begin && toks[l.end - 1].kind == TK::Comment) {
      l.comment = toks[l.end - 1].text;
      --l.end;
    }
    l.commentOnly = l.end == l.begin;
    lines.push_back(l);
    i = j;
  }
  return lines;
}

std::string commentText(std::string_view c) {
  c.remove_prefix(1); // '#'
  if (!c.empty() && c.front() == ' ')
    c.remove_prefix(1);
  while (!c.empty() && (c.back() == ' ' || c.back() == '\r'))
    c.remove_suffix(1);
  return std::string(c);
}

const std::set<std::string_view> kCompound = {"def", "class", "with", "if",     "elif",    "else",
                                              "for", "while", "try",  "except", "finally", "async"};

class StatementParser {
public:
  StatementParser(const std::vector<Token> &toks, std::string_view text, const std::string &file,
                  const BodyFilter &filter, int maxDepth)
      : toks_(toks), text_(text), file_(file), filter_(filter), maxDepth_(maxDepth),
        expr_(toks, text, file, maxDepth), lines_(splitLines(toks)) {}

  Expected<std::vector<PyStmt>> module() {
    std::vector<PyStmt> out;
    size_t li = 0;
    FXKIT_TRY(block(li, 0, 0, out));
    return out;
  }

private:
  Error errorAtLine(const Line &l, std::string message) const {
    return Error(std::move(message), SourceLoc{file_, l.line, l.indent + 1},
                 std::string(sourceLine(text_, l.line)));
  }

  /// Statements of one block: lines at exactly `indent`, until a line indented less.
  Status block(size_t &li, int indent, int depth, std::vector<PyStmt> &out) {
    if (depth > maxDepth_)
      return errorAtLine(lines_[li],
                         "blocks nested too deeply (limit " + std::to_string(maxDepth_) + ")");
    while (li < lines_.size()) {
      const Line &l = lines_[li];
      if (l.commentOnly) {
        pending_.push_back(commentText(l.comment));
        ++li;
        continue;
      }
      if (l.indent < indent)
        return Status::ok();
      if (l.indent > indent)
        return errorAtLine(l, "unexpected indentation");
      FXKIT_TRY(logicalLine(li, depth, out));
    }
    return Status::ok();
  }

  Status logicalLine(size_t &li, int depth, std::vector<PyStmt> &out) {
    const Line &l = lines_[li];
    size_t pos = l.begin;
    const Token &first = toks_[pos];
    if (first.kind == TK::Ident && kCompound.count(first.text)) {
      PyStmt s = start(l, pos);
      FXKIT_TRY(header(l, pos, s));
      ++li;
      if (!filter_(s, depth)) {
        s.bodySkipped = true;
        s.bodyEndLine = l.line;
        while (li < lines_.size() && (lines_[li].commentOnly || lines_[li].indent > l.indent)) {
          if (!lines_[li].commentOnly)
            s.bodyEndLine = lines_[li].line;
          ++li;
        }
        pending_.clear(); // comments inside a skipped body belong to it
        out.push_back(std::move(s));
        return Status::ok();
      }
      // The body: the next code line, indented deeper.
      size_t next = li;
      while (next < lines_.size() && lines_[next].commentOnly)
        ++next;
      if (next >= lines_.size() || lines_[next].indent <= l.indent)
        return errorAtLine(next < lines_.size() ? lines_[next] : l,
                           "expected an indented block after '" + s.keyword + "' on line " +
                               std::to_string(l.line));
      FXKIT_TRY(block(li, lines_[next].indent, depth + 1, s.body));
      s.bodyEndLine = li > 0 ? lines_[li - 1].line : l.line;
      out.push_back(std::move(s));
      return Status::ok();
    }
    size_t firstOfLine = out.size();
    int index = 0;
    for (;;) {
      PyStmt s = start(l, pos);
      s.indexInLine = index++;
      FXKIT_TRY(simple(l, pos, s));
      out.push_back(std::move(s));
      if (pos < l.end && toks_[pos].is(";")) {
        ++pos;
        if (pos < l.end)
          continue;
      }
      if (pos != l.end)
        return expr_.errorAt(pos, "unexpected '" + std::string(toks_[pos].text.substr(0, 40)) +
                                      "' after the statement");
      break;
    }
    if (!l.comment.empty())
      for (size_t i = firstOfLine; i < out.size(); ++i)
        out[i].trailingComment = commentText(l.comment);
    ++li;
    return Status::ok();
  }

  PyStmt start(const Line &l, size_t pos) {
    PyStmt s;
    s.line = toks_[pos].line;
    s.col = toks_[pos].col;
    s.indent = l.indent;
    s.comments = std::move(pending_);
    pending_.clear();
    return s;
  }

  Status header(const Line &l, size_t &pos, PyStmt &s) {
    s.kind = PyStmt::Kind::Compound;
    s.keyword = toks_[pos].text;
    ++pos;
    if (s.keyword == "async")
      return expr_.errorAt(pos - 1, "'async' statements are not supported");
    if (s.keyword == "def" || s.keyword == "class") {
      if (toks_[pos].kind != TK::Ident)
        return expr_.errorAt(pos, "expected a name after '" + s.keyword + "'");
      s.name = toks_[pos].text;
      ++pos;
      if (toks_[pos].is("(")) {
        ++pos;
        while (!toks_[pos].is(")")) {
          if (pos >= l.end)
            return expr_.errorAt(pos, "unbalanced parentheses in the parameter list");
          if (toks_[pos].is("*") || toks_[pos].is("**"))
            ++pos;
          if (toks_[pos].kind != TK::Ident)
            return expr_.errorAt(pos, "expected a parameter name");
          s.params.emplace_back(toks_[pos].text);
          ++pos;
          if (toks_[pos].is(":") || toks_[pos].is("=")) { // annotation or default
            ++pos;
            FXKIT_TRY(expr_.parseExpression(pos));
            if (toks_[pos].is("=")) {
              ++pos;
              FXKIT_TRY(expr_.parseExpression(pos));
            }
          }
          if (toks_[pos].is(","))
            ++pos;
          else if (!toks_[pos].is(")"))
            return expr_.errorAt(pos, "expected ',' or ')' in the parameter list");
        }
        ++pos;
      }
      if (toks_[pos].is("->")) {
        ++pos;
        FXKIT_TRY(expr_.parseExpression(pos));
      }
    } else if (s.keyword == "else" || s.keyword == "try" || s.keyword == "finally") {
      // no header expression
    } else if (s.keyword == "except" && toks_[pos].is(":")) {
    } else {
      FXKIT_ASSIGN_OR_RETURN(auto e, s.keyword == "for" ? expr_.parseForTargets(pos)
                                                        : expr_.parseExpressionList(pos));
      s.value = std::move(e);
      if (s.keyword == "for") {
        if (!toks_[pos].isIdent("in"))
          return expr_.errorAt(pos, "expected 'in' in the for statement");
        ++pos;
        s.targets.push_back(std::move(s.value));
        FXKIT_ASSIGN_OR_RETURN(auto iter, expr_.parseExpressionList(pos));
        s.value = std::move(iter);
      } else if ((s.keyword == "with" || s.keyword == "except") && toks_[pos].isIdent("as")) {
        ++pos;
        if (toks_[pos].kind != TK::Ident)
          return expr_.errorAt(pos, "expected a name after 'as'");
        s.name = toks_[pos].text;
        ++pos;
      }
    }
    if (!toks_[pos].is(":"))
      return expr_.errorAt(pos, "expected ':' at the end of the '" + s.keyword + "' header");
    ++pos;
    if (pos != l.end)
      return expr_.errorAt(pos, "a body on the same line as its '" + s.keyword +
                                    "' header is not supported");
    return Status::ok();
  }

  Status simple(const Line &l, size_t &pos, PyStmt &s) {
    const Token &t = toks_[pos];
    if (t.isIdent("import") || t.isIdent("from")) {
      s.kind = PyStmt::Kind::Import;
      ++pos;
      while (pos < l.end && !toks_[pos].is(";")) {
        const Token &u = toks_[pos];
        if (!(u.kind == TK::Ident || u.is(".") || u.is(",") || u.is("(") || u.is(")") || u.is("*")))
          return expr_.errorAt(pos, "unexpected '" + std::string(u.text) + "' in an import");
        ++pos;
      }
      return Status::ok();
    }
    if (t.isIdent("pass")) {
      s.kind = PyStmt::Kind::Pass;
      ++pos;
      return Status::ok();
    }
    if (t.isIdent("del")) {
      s.kind = PyStmt::Kind::Del;
      ++pos;
      FXKIT_ASSIGN_OR_RETURN(auto e, expr_.parseExpressionList(pos));
      if (e.kind == PyExpr::Kind::Tuple && !e.parenthesized)
        s.targets = std::move(e.items);
      else
        s.targets.push_back(std::move(e));
      return Status::ok();
    }
    if (t.isIdent("assert")) {
      s.kind = PyStmt::Kind::Assert;
      ++pos;
      FXKIT_ASSIGN_OR_RETURN(auto test, expr_.parseExpression(pos));
      s.value = std::move(test);
      s.message.kind = PyExpr::Kind::Const;
      s.message.text = "None";
      if (pos < l.end && toks_[pos].is(",")) {
        ++pos;
        FXKIT_ASSIGN_OR_RETURN(auto msg, expr_.parseExpression(pos));
        s.message = std::move(msg);
      }
      return Status::ok();
    }
    if (t.isIdent("raise")) {
      s.kind = PyStmt::Kind::Raise;
      ++pos;
      if (pos == l.end || toks_[pos].is(";")) {
        s.value.kind = PyExpr::Kind::Const;
        s.value.text = "None";
        return Status::ok();
      }
      FXKIT_ASSIGN_OR_RETURN(auto e, expr_.parseExpression(pos));
      s.value = std::move(e);
      if (pos < l.end && toks_[pos].isIdent("from"))
        return expr_.errorAt(pos, "'raise ... from' is not supported");
      return Status::ok();
    }
    if (t.isIdent("return")) {
      s.kind = PyStmt::Kind::Return;
      ++pos;
      if (pos == l.end || toks_[pos].is(";")) {
        s.value.kind = PyExpr::Kind::Const;
        s.value.text = "None";
        return Status::ok();
      }
      FXKIT_ASSIGN_OR_RETURN(auto e, expr_.parseExpressionList(pos));
      s.value = std::move(e);
      return Status::ok();
    }
    if (t.kind == TK::Ident && kCompound.count(t.text))
      return expr_.errorAt(pos, "'" + std::string(t.text) + "' must start its own line");
    FXKIT_ASSIGN_OR_RETURN(auto e, expr_.parseExpressionList(pos));
    s.kind = PyStmt::Kind::Expr;
    s.value = std::move(e);
    while (pos < l.end && toks_[pos].is("=")) {
      ++pos;
      FXKIT_ASSIGN_OR_RETURN(auto rhs, expr_.parseExpressionList(pos));
      s.kind = PyStmt::Kind::Assign;
      s.targets.push_back(std::move(s.value));
      s.value = std::move(rhs);
    }
    if (pos < l.end && toks_[pos].kind == TK::Punct && toks_[pos].text.size() >= 2 &&
        toks_[pos].text.back() == '=' && toks_[pos].text != "==")
      return expr_.errorAt(pos, "augmented assignment '" + std::string(toks_[pos].text) +
                                    "' is not supported");
    return Status::ok();
  }

  const std::vector<Token> &toks_;
  std::string_view text_;
  const std::string &file_;
  const BodyFilter &filter_;
  int maxDepth_;
  PyExprParser expr_;
  std::vector<Line> lines_;
  std::vector<std::string> pending_;
};

} // namespace

Expected<std::vector<PyStmt>> parsePyModule(const std::vector<Token> &tokens, std::string_view text,
                                            const std::string &fileName, const BodyFilter &filter,
                                            int maxDepth) {
  return StatementParser(tokens, text, fileName, filter, maxDepth).module();
}

} // namespace fxkit::inductor
