#include "importers/inductor/CppWrapperSyntax.h"

#include "ir/Try.h"
#include "support/PyLexer.h"

#include <cctype>
#include <cstdlib>
#include <set>

namespace fxkit::inductor {

namespace {

bool identStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// An operator node (binary, ternary, call, index, member, postfix ++/--): it starts where its
/// first operand does, and its operands are its kids in order.
template <class... Rest>
CExpr operatorExpr(CExpr::Kind kind, std::string text, CExpr first, Rest &&...rest) {
  CExpr e;
  e.kind = kind;
  e.text = std::move(text);
  e.line = first.line;
  e.col = first.col;
  e.kids.push_back(std::move(first));
  (e.kids.push_back(std::forward<Rest>(rest)), ...);
  return e;
}

class Lexer {
public:
  Lexer(std::string_view text, size_t begin, size_t end, int line, const std::string &file)
      : text_(text), i_(begin), end_(end), line_(line), file_(file) {
    lineStart_ = begin;
    while (lineStart_ > 0 && text_[lineStart_ - 1] != '\n')
      --lineStart_;
  }

  Expected<std::vector<CTok>> run() {
    while (i_ < end_) {
      char c = text_[i_];
      if (c == '\n') {
        newline(i_ + 1);
        continue;
      }
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i_;
        continue;
      }
      CTok t;
      t.line = line_;
      t.col = col();
      if (c == '/' && peek(1) == '/') {
        size_t stop = i_;
        while (stop < end_ && text_[stop] != '\n')
          ++stop;
        t.kind = CTok::Comment;
        t.text = std::string(text_.substr(i_ + 2, stop - i_ - 2));
        i_ = stop;
      } else if (c == '/' && peek(1) == '*') {
        size_t close = text_.find("*/", i_ + 2);
        if (close == std::string_view::npos || close + 2 > end_)
          return error(t, "unterminated comment");
        t.kind = CTok::Comment;
        t.text = std::string(text_.substr(i_ + 2, close - i_ - 2));
        advanceTo(close + 2);
      } else if (c == 'R' && peek(1) == '"') {
        FXKIT_TRY(rawString(t));
      } else if (identStart(c)) {
        size_t j = i_;
        while (j < end_ &&
               (identChar(text_[j]) || (text_[j] == ':' && j + 2 < end_ && text_[j + 1] == ':' &&
                                        identStart(text_[j + 2]))))
          j += text_[j] == ':' ? 2 : 1;
        t.kind = CTok::Ident;
        t.text = std::string(text_.substr(i_, j - i_));
        i_ = j;
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))))) {
        FXKIT_TRY(number(t));
      } else if (c == '"' || c == '\'') {
        FXKIT_TRY(quoted(t, c));
      } else {
        static constexpr std::string_view kTwo[] = {"::", "->", "==", "!=", "<=", ">=", "&&",
                                                    "||", "++", "--", "+=", "-=", "*=", "/="};
        t.kind = CTok::Punct;
        for (std::string_view two : kTwo)
          if (text_.substr(i_, 2) == two && i_ + 2 <= end_)
            t.text = std::string(two);
        if (t.text.empty()) {
          if (std::string_view("(){}[],;&*+-/%<>.=!?:~|^").find(c) == std::string_view::npos)
            return error(t, std::string("unexpected character '") + c + "' in C++ code");
          t.text = std::string(1, c);
        }
        i_ += t.text.size();
      }
      out_.push_back(std::move(t));
    }
    CTok end;
    end.line = line_;
    end.col = col();
    out_.push_back(end);
    return std::move(out_);
  }

private:
  char peek(size_t k) const { return i_ + k < end_ ? text_[i_ + k] : '\0'; }
  int col() const { return static_cast<int>(i_ - lineStart_) + 1; }
  void newline(size_t next) {
    ++line_;
    lineStart_ = next;
    i_ = next;
  }
  /// Moves to `to`, counting the newlines passed.
  void advanceTo(size_t to) {
    while (i_ < to) {
      if (text_[i_] == '\n')
        newline(i_ + 1);
      else
        ++i_;
    }
  }
  Error error(const CTok &t, std::string message) const {
    return Error(std::move(message), SourceLoc{file_, t.line, t.col},
                 std::string(sourceLine(text_, t.line)));
  }

  Status rawString(CTok &t) {
    size_t open = text_.find('(', i_ + 2);
    if (open == std::string_view::npos || open >= end_ || open - i_ - 2 > 16)
      return Status(error(t, "malformed raw string literal"));
    std::string close = ")" + std::string(text_.substr(i_ + 2, open - i_ - 2)) + "\"";
    size_t stop = text_.find(close, open + 1);
    if (stop == std::string_view::npos || stop + close.size() > end_)
      return Status(error(t, "unterminated raw string literal"));
    t.kind = CTok::String;
    t.text = std::string(text_.substr(open + 1, stop - open - 1));
    advanceTo(stop + close.size());
    return Status::ok();
  }

  Status number(CTok &t) {
    size_t j = i_;
    bool hex = false;
    if (text_[j] == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
      hex = true;
      j += 2;
      while (j < end_ && std::isxdigit(static_cast<unsigned char>(text_[j])))
        ++j;
    } else {
      while (j < end_ && std::isdigit(static_cast<unsigned char>(text_[j])))
        ++j;
      if (j < end_ && text_[j] == '.') {
        t.isFloat = true;
        ++j;
        while (j < end_ && std::isdigit(static_cast<unsigned char>(text_[j])))
          ++j;
      }
      if (j < end_ && (text_[j] == 'e' || text_[j] == 'E')) {
        size_t k = j + 1;
        if (k < end_ && (text_[k] == '+' || text_[k] == '-'))
          ++k;
        if (k < end_ && std::isdigit(static_cast<unsigned char>(text_[k]))) {
          t.isFloat = true;
          j = k;
          while (j < end_ && std::isdigit(static_cast<unsigned char>(text_[j])))
            ++j;
        }
      }
    }
    size_t digitsEnd = j;
    while (j < end_ && std::string_view("uUlLfF").find(text_[j]) != std::string_view::npos) {
      if ((text_[j] == 'f' || text_[j] == 'F') && !hex)
        t.isFloat = true;
      ++j;
    }
    if (j < end_ && identChar(text_[j]))
      return Status(error(t, "malformed number"));
    t.kind = CTok::Number;
    t.text = std::string(text_.substr(i_, digitsEnd - i_));
    if (hex)
      t.text = std::to_string(std::strtoull(t.text.c_str() + 2, nullptr, 16));
    i_ = j;
    return Status::ok();
  }

  Status quoted(CTok &t, char quote) {
    size_t j = i_ + 1;
    std::string value;
    while (j < end_ && text_[j] != quote) {
      char c = text_[j];
      if (c == '\n')
        break;
      if (c == '\\' && j + 1 < end_) {
        char e = text_[j + 1];
        switch (e) {
        case 'n':
          value += '\n';
          break;
        case 't':
          value += '\t';
          break;
        case 'r':
          value += '\r';
          break;
        case '0':
          value += '\0';
          break;
        default:
          value += e;
        }
        j += 2;
        continue;
      }
      value += c;
      ++j;
    }
    if (j >= end_ || text_[j] != quote)
      return Status(error(t, quote == '"' ? "unterminated string literal"
                                          : "unterminated character literal"));
    t.kind = quote == '"' ? CTok::String : CTok::Char;
    t.text = std::move(value);
    i_ = j + 1;
    return Status::ok();
  }

  std::string_view text_;
  size_t i_, end_;
  int line_;
  size_t lineStart_ = 0;
  const std::string &file_;
  std::vector<CTok> out_;
};

/// Type names a parenthesized cast can start with: `(float*)(x.data_ptr())`, `(void**)&s`.
const std::set<std::string_view> kCastTypes = {
    "void",         "float",       "double",          "int",       "long",          "bool",
    "char",         "short",       "unsigned",        "signed",    "int64_t",       "int32_t",
    "int16_t",      "int8_t",      "uint64_t",        "uint32_t",  "uint16_t",      "uint8_t",
    "size_t",       "half",        "bfloat16",        "c10::Half", "c10::BFloat16", "at::Half",
    "at::BFloat16", "CUdeviceptr", "AtenTensorHandle"};

/// Names whose `<` opens template arguments.
const std::set<std::string_view> kTemplates = {"static_cast",
                                               "reinterpret_cast",
                                               "const_cast",
                                               "dynamic_cast",
                                               "to",
                                               "from",
                                               "std::array",
                                               "std::vector",
                                               "std::optional",
                                               "std::get",
                                               "std::tuple",
                                               "std::pair",
                                               "std::numeric_limits",
                                               "c10::complex",
                                               "c10::convert",
                                               "std::unique_ptr",
                                               "std::shared_ptr",
                                               "std::unordered_map"};

/// Words that start a declaration.
const std::set<std::string_view> kDeclWords = {
    "static",   "constexpr", "const",  "thread_local", "inline", "alignas", "decltype", "auto",
    "volatile", "unsigned",  "signed", "struct",       "extern", "mutable", "register"};

/// Specifiers before a declaration's type.
const std::set<std::string_view> kSpecifiers = {"static",       "constexpr", "const",
                                                "thread_local", "inline",    "volatile",
                                                "extern",       "mutable",   "register"};

class Parser {
public:
  Parser(const std::vector<CTok> &toks, std::string_view text, const std::string &file,
         int maxDepth)
      : toks_(toks), text_(text), file_(file), maxDepth_(maxDepth) {}

  Expected<std::vector<CStmt>> run() {
    std::vector<CStmt> out;
    FXKIT_TRY(statements(out, 0, false));
    return out;
  }

private:
  Error error(const CTok &t, std::string message) const {
    return Error(std::move(message), SourceLoc{file_, t.line, t.col},
                 std::string(sourceLine(text_, t.line)));
  }
  Error errorHere(std::string message) { return error(cur(), std::move(message)); }

  /// The current token, skipping comments inside a statement.
  const CTok &cur() {
    while (toks_[pos_].kind == CTok::Comment)
      ++pos_;
    return toks_[pos_];
  }
  /// The token k places after the current one (comments skipped).
  const CTok &ahead(size_t k) {
    cur();
    size_t p = pos_;
    while (k > 0) {
      if (toks_[p].kind == CTok::End)
        return toks_[p];
      ++p;
      while (toks_[p].kind == CTok::Comment)
        ++p;
      --k;
    }
    return toks_[p];
  }
  bool is(std::string_view punct) {
    const CTok &t = cur();
    return t.kind == CTok::Punct && t.text == punct;
  }
  bool isWord(std::string_view word) {
    const CTok &t = cur();
    return t.kind == CTok::Ident && t.text == word;
  }
  const CTok &take() {
    const CTok &t = cur();
    if (t.kind != CTok::End)
      ++pos_;
    return t;
  }
  Status expect(std::string_view punct, std::string_view what) {
    if (!is(punct))
      return Status(errorHere("expected '" + std::string(punct) + "' " + std::string(what) +
                              ", found '" + cur().text + "'"));
    take();
    return Status::ok();
  }

  /// Statements up to the closing brace (inBlock) or the end. Comments on a line of their own
  /// become Comment statements; a comment after a statement's last token is its comment.
  Status statements(std::vector<CStmt> &out, int depth, bool inBlock) {
    for (;;) {
      const CTok &raw = toks_[pos_];
      if (raw.kind == CTok::Comment) {
        if (!out.empty() && out.back().kind != CStmt::Comment && out.back().endLine == raw.line &&
            out.back().comment.empty()) {
          out.back().comment = raw.text;
        } else {
          CStmt c;
          c.kind = CStmt::Comment;
          c.line = c.endLine = raw.line;
          c.col = raw.col;
          c.comment = raw.text;
          out.push_back(std::move(c));
        }
        ++pos_;
        continue;
      }
      if (raw.kind == CTok::End) {
        if (inBlock)
          return Status(error(raw, "missing '}'"));
        return Status::ok();
      }
      if (inBlock && raw.kind == CTok::Punct && raw.text == "}")
        return Status::ok();
      CStmt s;
      FXKIT_TRY(statement(s, depth));
      out.push_back(std::move(s));
    }
  }

  Status statement(CStmt &s, int depth) {
    const CTok &t = cur();
    s.line = t.line;
    s.col = t.col;
    if (depth > maxDepth_)
      return Status(error(t, "C++ statements nested too deeply"));
    if (t.kind == CTok::Punct && t.text == "{") {
      take();
      s.kind = CStmt::Block;
      FXKIT_TRY(statements(s.body, depth + 1, true));
      s.endLine = take().line;
      return Status::ok();
    }
    if (t.kind == CTok::Punct && t.text == ";") {
      s.kind = CStmt::Empty;
      s.endLine = take().line;
      return Status::ok();
    }
    if (t.kind == CTok::Ident) {
      if (t.text == "if" || t.text == "while") {
        s.kind = t.text == "if" ? CStmt::If : CStmt::While;
        take();
        if (Status st =
                expect("(", "after '" + std::string(s.kind == CStmt::If ? "if" : "while") + "'");
            !st)
          return st;
        FXKIT_ASSIGN_OR_RETURN(auto c, expr(depth + 1));
        s.exprs.push_back(std::move(c));
        FXKIT_TRY(expect(")", "after the condition"));
        FXKIT_TRY(substatement(s.body, depth));
        s.endLine = toks_[pos_ - 1].line;
        if (s.kind == CStmt::If && isWord("else")) {
          take();
          s.hasElse = true;
          FXKIT_TRY(substatement(s.orelse, depth));
          s.endLine = toks_[pos_ - 1].line;
        }
        return Status::ok();
      }
      if (t.text == "for") {
        s.kind = CStmt::For;
        take();
        FXKIT_TRY(expect("(", "after 'for'"));
        if (!is(";")) {
          CStmt init;
          FXKIT_TRY(simple(init, depth + 1));
          s.orelse.push_back(std::move(init)); // For keeps its init statement in orelse
        } else {
          take();
        }
        for (std::string_view close : {";", ")"}) {
          if (!is(close)) {
            FXKIT_ASSIGN_OR_RETURN(auto e, expr(depth + 1));
            s.exprs.push_back(std::move(e));
          } else {
            // No condition: true; no step: an empty name.
            CExpr none;
            none.kind = close == ";" ? CExpr::Number : CExpr::Name;
            none.text = close == ";" ? "1" : "";
            none.line = cur().line;
            none.col = cur().col;
            s.exprs.push_back(none);
          }
          FXKIT_TRY(expect(close, "in the for header"));
        }
        FXKIT_TRY(substatement(s.body, depth));
        s.endLine = toks_[pos_ - 1].line;
        return Status::ok();
      }
      if (t.text == "break" || t.text == "continue") {
        s.kind = t.text == "break" ? CStmt::Break : CStmt::Continue;
        take();
        s.endLine = cur().line;
        return expect(";",
                      "after '" + std::string(s.kind == CStmt::Break ? "break" : "continue") + "'");
      }
      if (t.text == "return" || t.text == "throw") {
        s.kind = t.text == "return" ? CStmt::Return : CStmt::Throw;
        take();
        if (!(s.kind == CStmt::Return && is(";"))) {
          FXKIT_ASSIGN_OR_RETURN(auto e, expr(depth + 1));
          s.exprs.push_back(std::move(e));
        }
        s.endLine = cur().line;
        return expect(";", "at the end of the statement");
      }
      if (t.text == "else")
        return Status(error(t, "'else' without 'if'"));
      if (t.text == "do" || t.text == "switch" || t.text == "goto" || t.text == "case")
        return Status(error(t, "unsupported '" + t.text + "' statement"));
    }
    return simple(s, depth);
  }

  /// The body of if/else/while/for: a block's statements, or one statement.
  Status substatement(std::vector<CStmt> &out, int depth) {
    if (is("{")) {
      take();
      FXKIT_TRY(statements(out, depth + 1, true));
      take();
      return Status::ok();
    }
    CStmt s;
    FXKIT_TRY(statement(s, depth + 1));
    out.push_back(std::move(s));
    return Status::ok();
  }

  /// A declaration or an expression statement, with its `;`.
  Status simple(CStmt &s, int depth) {
    s.line = cur().line;
    s.col = cur().col;
    if (declarationStarts()) {
      FXKIT_TRY(declaration(s, depth));
    } else {
      s.kind = CStmt::Expr;
      FXKIT_ASSIGN_OR_RETURN(auto e, expr(depth + 1));
      s.exprs.push_back(std::move(e));
    }
    s.endLine = cur().line;
    if (!is(";"))
      return Status(errorHere("unexpected '" + cur().text + "' in statement"));
    take();
    return Status::ok();
  }

  /// The index after the `>` that closes the `<` at token index p (comments skipped), or 0.
  size_t closeAngle(size_t p) {
    int angle = 0, paren = 0;
    for (size_t q = p; toks_[q].kind != CTok::End; ++q) {
      const CTok &t = toks_[q];
      if (t.kind != CTok::Punct)
        continue;
      if (t.text == "(" || t.text == "[")
        ++paren;
      else if (t.text == ")" || t.text == "]")
        --paren;
      else if (t.text == ";" || t.text == "{" || t.text == "}" || paren < 0)
        return 0;
      else if (paren == 0 && t.text == "<")
        ++angle;
      else if (paren == 0 && t.text == ">" && --angle == 0)
        return q + 1;
    }
    return 0;
  }
  size_t skipComments(size_t p) const {
    while (toks_[p].kind == CTok::Comment)
      ++p;
    return p;
  }

  bool declarationStarts() {
    size_t p = skipComments(pos_);
    if (toks_[p].kind == CTok::Punct && toks_[p].text == "[" && toks_[p + 1].text == "[")
      return true; // [[maybe_unused]]
    const CTok &t = toks_[p];
    if (t.kind != CTok::Ident)
      return false;
    if (kDeclWords.count(t.text))
      return true;
    size_t q = skipComments(p + 1);
    const CTok &n = toks_[q];
    if (n.kind == CTok::Ident)
      return true;
    if (n.kind == CTok::Punct && n.text == "<") {
      size_t after = closeAngle(q);
      return after && toks_[skipComments(after)].kind == CTok::Ident;
    }
    if (n.kind == CTok::Punct && (n.text == "*" || n.text == "&")) {
      size_t r = q;
      while (toks_[r].kind == CTok::Punct && (toks_[r].text == "*" || toks_[r].text == "&"))
        r = skipComments(r + 1);
      if (toks_[r].kind != CTok::Ident)
        return false;
      const CTok &after = toks_[skipComments(r + 1)];
      return after.kind == CTok::Punct &&
             (after.text == "=" || after.text == ";" || after.text == "[" || after.text == "(" ||
              after.text == "{");
    }
    return false;
  }

  /// Template arguments after the `<` at the current token, as text.
  Expected<std::vector<std::string>> templateArgs() {
    size_t close = closeAngle(pos_);
    if (!close)
      return errorHere("unterminated template argument list");
    take(); // <
    std::vector<std::string> args;
    std::string curArg;
    int depth = 0;
    while (pos_ < close - 1) {
      const CTok &t = toks_[pos_++];
      if (t.kind == CTok::Comment)
        continue;
      if (t.kind == CTok::Punct && (t.text == "<" || t.text == "("))
        ++depth;
      if (t.kind == CTok::Punct && (t.text == ">" || t.text == ")"))
        --depth;
      if (depth == 0 && t.kind == CTok::Punct && t.text == ",") {
        args.push_back(curArg);
        curArg.clear();
        continue;
      }
      if (!curArg.empty() && t.kind == CTok::Ident && identChar(curArg.back()))
        curArg += ' ';
      curArg += t.text;
    }
    args.push_back(curArg);
    ++pos_; // >
    return args;
  }

  Status declaration(CStmt &s, int depth) {
    s.kind = CStmt::Decl;
    for (;;) {
      if (is("[") && ahead(1).kind == CTok::Punct && ahead(1).text == "[") {
        // [[maybe_unused]]: an attribute says nothing about the program.
        while (!(is("]") && ahead(1).kind == CTok::Punct && ahead(1).text == "]")) {
          if (cur().kind == CTok::End)
            return Status(errorHere("unterminated attribute"));
          take();
        }
        take();
        take();
        continue;
      }
      if (cur().kind == CTok::Ident && kSpecifiers.count(cur().text)) {
        s.specifiers.push_back(take().text);
        continue;
      }
      if (isWord("alignas")) {
        take();
        FXKIT_TRY(expect("(", "after 'alignas'"));
        FXKIT_TRY(expr(depth + 1));
        FXKIT_TRY(expect(")", "after the alignment"));
        s.specifiers.push_back("alignas");
        continue;
      }
      break;
    }
    // The type.
    if (isWord("decltype")) {
      take();
      FXKIT_TRY(expect("(", "after 'decltype'"));
      s.type = "decltype(" + cur().text + ")";
      take();
      FXKIT_TRY(expect(")", "after decltype's argument"));
    } else {
      while (isWord("unsigned") || isWord("signed"))
        s.type += take().text + " ";
      if (cur().kind != CTok::Ident)
        return Status(errorHere("expected a type, found '" + cur().text + "'"));
      s.type += take().text;
      if (is("<")) {
        FXKIT_ASSIGN_OR_RETURN(auto targs, templateArgs());
        s.type += "<";
        for (size_t k = 0; k < targs.size(); ++k)
          s.type += (k ? ", " : "") + targs[k];
        s.type += ">";
      }
      while (is("::") && ahead(1).kind == CTok::Ident) {
        take();
        s.type += "::" + take().text;
      }
    }
    while (is("*") || is("&") || isWord("const")) {
      std::string q = take().text;
      s.type += q == "const" ? " const" : q;
    }
    if (cur().kind != CTok::Ident)
      return Status(errorHere("expected a name in the declaration, found '" + cur().text + "'"));
    s.name = take().text;
    if (is("[")) {
      take();
      if (!is("]")) {
        FXKIT_TRY(expr(depth + 1));
      }
      FXKIT_TRY(expect("]", "after the array size"));
      s.isArray = true;
    }
    if (is("=")) {
      take();
      s.init = CStmt::Assign;
      FXKIT_ASSIGN_OR_RETURN(auto v, expr(depth + 1));
      s.exprs.push_back(std::move(v));
    } else if (is("(") || is("{")) {
      bool paren = is("(");
      std::string close = paren ? ")" : "}";
      s.init = paren ? CStmt::Ctor : CStmt::Brace;
      take();
      while (!is(close)) {
        FXKIT_ASSIGN_OR_RETURN(auto a, expr(depth + 1));
        s.exprs.push_back(std::move(a));
        if (is(","))
          take();
        else if (!is(close))
          return Status(errorHere("expected ',' or '" + close + "' in the initializer"));
      }
      take();
    }
    if (is(","))
      return Status(errorHere("several names in one declaration are not supported"));
    return Status::ok();
  }

  // --- expressions -----------------------------------------------------------------------

  Expected<CExpr> expr(int depth) {
    if (depth > maxDepth_)
      return errorHere("C++ expression nested too deeply");
    auto lhs = ternary(depth);
    if (!lhs)
      return lhs;
    const CTok &t = cur();
    if (t.kind == CTok::Punct &&
        (t.text == "=" || t.text == "+=" || t.text == "-=" || t.text == "*=" || t.text == "/=")) {
      std::string op = take().text;
      auto rhs = expr(depth + 1);
      if (!rhs)
        return rhs;
      return operatorExpr(CExpr::Binary, std::move(op), lhs.take(), rhs.take());
    }
    return lhs;
  }

  Expected<CExpr> ternary(int depth) {
    auto c = binary(0, depth);
    if (!c)
      return c;
    if (!is("?"))
      return c;
    take();
    auto a = expr(depth + 1);
    if (!a)
      return a;
    FXKIT_TRY(expect(":", "in the conditional expression"));
    auto b = ternary(depth + 1);
    if (!b)
      return b;
    return operatorExpr(CExpr::Ternary, "", c.take(), a.take(), b.take());
  }

  Expected<CExpr> binary(int level, int depth) {
    static const std::vector<std::vector<std::string_view>> kLevels = {
        {"||"},     {"&&"},         {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", "<=", ">", ">="},
        {"+", "-"}, {"*", "/", "%"}};
    if (depth > maxDepth_)
      return errorHere("C++ expression nested too deeply");
    if (level == static_cast<int>(kLevels.size()))
      return unary(depth);
    auto lhs = binary(level + 1, depth);
    if (!lhs)
      return lhs;
    CExpr e = lhs.take();
    for (;;) {
      const CTok &t = cur();
      bool match = false;
      for (std::string_view op : kLevels[level])
        match = match || (t.kind == CTok::Punct && t.text == op);
      if (!match)
        return e;
      std::string op = take().text;
      auto rhs = binary(level + 1, depth);
      if (!rhs)
        return rhs;
      e = operatorExpr(CExpr::Binary, std::move(op), std::move(e), rhs.take());
    }
  }

  /// At `(`: the type text of a C-style cast and the index after its `)`, if it is one.
  bool castAhead(std::string &type, size_t &after) {
    size_t p = skipComments(pos_ + 1);
    bool stars = false;
    std::string text;
    if (toks_[p].kind == CTok::Ident && toks_[p].text == "const") {
      text = "const ";
      p = skipComments(p + 1);
    }
    if (toks_[p].kind != CTok::Ident)
      return false;
    std::string base = toks_[p].text;
    text += base;
    p = skipComments(p + 1);
    while (toks_[p].kind == CTok::Punct && (toks_[p].text == "*" || toks_[p].text == "&")) {
      stars = true;
      text += toks_[p].text;
      p = skipComments(p + 1);
    }
    if (toks_[p].kind != CTok::Punct || toks_[p].text != ")")
      return false;
    if (!stars && !kCastTypes.count(base))
      return false;
    type = text;
    after = p + 1;
    return true;
  }

  Expected<CExpr> unary(int depth) {
    if (depth > maxDepth_)
      return errorHere("C++ expression nested too deeply");
    const CTok &t = cur();
    CExpr e;
    e.line = t.line;
    e.col = t.col;
    // ++i and --i are increments (only a statement or a for loop's step uses one).
    if (t.kind == CTok::Punct &&
        (t.text == "-" || t.text == "+" || t.text == "!" || t.text == "~" || t.text == "&" ||
         t.text == "*" || t.text == "++" || t.text == "--")) {
      e.kind = CExpr::Unary;
      e.text = take().text;
      auto sub = unary(depth + 1);
      if (!sub)
        return sub;
      e.kids.push_back(sub.take());
      return e;
    }
    std::string type;
    size_t after = 0;
    if (t.kind == CTok::Punct && t.text == "(" && castAhead(type, after)) {
      pos_ = after;
      e.kind = CExpr::Cast;
      e.text = type;
      auto sub = unary(depth + 1);
      if (!sub)
        return sub;
      e.kids.push_back(sub.take());
      return e;
    }
    return postfix(depth);
  }

  Status braceItems(CExpr &e, int depth) {
    take(); // {
    while (!is("}")) {
      FXKIT_ASSIGN_OR_RETURN(auto x, expr(depth + 1));
      e.kids.push_back(std::move(x));
      if (is(","))
        take();
      else if (!is("}"))
        return Status(errorHere("expected ',' or '}'"));
    }
    take();
    return Status::ok();
  }

  Expected<CExpr> postfix(int depth) {
    auto p = primary(depth);
    if (!p)
      return p;
    CExpr e = p.take();
    for (;;) {
      if (depth > maxDepth_)
        return errorHere("C++ expression nested too deeply");
      if (is("(")) {
        CExpr call = operatorExpr(CExpr::Call, "", std::move(e));
        take();
        while (!is(")")) {
          auto x = expr(depth + 1);
          if (!x)
            return x;
          call.kids.push_back(x.take());
          if (is(","))
            take();
          else if (!is(")"))
            return errorHere("expected ',' or ')' in call");
        }
        take();
        e = std::move(call);
      } else if (is("[")) {
        take();
        auto x = expr(depth + 1);
        if (!x)
          return x;
        if (!is("]"))
          return errorHere("expected ']'");
        take();
        e = operatorExpr(CExpr::Index, "", std::move(e), x.take());
      } else if ((is(".") || is("->")) && ahead(1).kind == CTok::Ident) {
        bool arrow = take().text == "->";
        e = operatorExpr(CExpr::Member, take().text, std::move(e));
        e.arrow = arrow;
      } else if (is("++") || is("--")) {
        // i++: as ++i (the value is never used)
        e = operatorExpr(CExpr::Unary, take().text, std::move(e));
      } else if (is("{") && e.kind == CExpr::Template) {
        // std::array<int64_t, 2>{1L, 2L}, c10::complex<double>{1.0, 2.0}
        CExpr b;
        b.kind = CExpr::Braces;
        b.line = e.line;
        b.col = e.col;
        b.text = e.text;
        b.targs = e.targs;
        FXKIT_TRY(braceItems(b, depth + 1));
        e = std::move(b);
      } else {
        return e;
      }
    }
  }

  Expected<CExpr> primary(int depth) {
    const CTok &t = cur();
    CExpr e;
    e.line = t.line;
    e.col = t.col;
    switch (t.kind) {
    case CTok::Number:
      e.kind = CExpr::Number;
      e.text = t.text;
      e.isFloat = t.isFloat;
      take();
      return e;
    case CTok::String:
      e.kind = CExpr::String;
      while (cur().kind == CTok::String)
        e.text += take().text;
      return e;
    case CTok::Char:
      e.kind = CExpr::Char;
      e.text = take().text;
      return e;
    case CTok::Ident: {
      e.kind = CExpr::Name;
      e.text = take().text;
      if (is("<")) {
        size_t close = closeAngle(pos_);
        const CTok &next = close ? toks_[skipComments(close)] : toks_[pos_];
        bool follows = close && next.kind == CTok::Punct &&
                       (next.text == "(" || next.text == "{" || next.text == "::");
        std::string_view last = e.text;
        if (size_t q = last.rfind("::"); q != std::string_view::npos)
          last = last.substr(q + 2);
        if (kTemplates.count(e.text) || kTemplates.count(last) ||
            (follows && e.text.find("::") != std::string::npos)) {
          FXKIT_ASSIGN_OR_RETURN(auto targs, templateArgs());
          e.kind = CExpr::Template;
          e.targs = std::move(targs);
          if (is("::") && ahead(1).kind == CTok::Ident) {
            // std::numeric_limits<double>::infinity: one name.
            take();
            std::string name = e.text + "<";
            for (size_t k = 0; k < e.targs.size(); ++k)
              name += (k ? ", " : "") + e.targs[k];
            e.kind = CExpr::Name;
            e.text = name + ">::" + take().text;
            e.targs.clear();
          }
        }
      }
      return e;
    }
    case CTok::Punct:
      if (t.text == "(") {
        take();
        auto inner = expr(depth + 1);
        if (!inner)
          return inner;
        if (!is(")"))
          return errorHere("expected ')'");
        take();
        return inner;
      }
      if (t.text == "{") {
        e.kind = CExpr::Braces;
        FXKIT_TRY(braceItems(e, depth + 1));
        return e;
      }
      break;
    default:
      break;
    }
    return error(t, t.kind == CTok::End ? "unexpected end of the C++ code"
                                        : "unexpected '" + t.text + "' in expression");
  }

  const std::vector<CTok> &toks_;
  std::string_view text_;
  const std::string &file_;
  int maxDepth_;
  size_t pos_ = 0;
};

} // namespace

Expected<std::vector<CTok>> tokenizeCpp(std::string_view text, size_t begin, size_t end, int line,
                                        const std::string &fileName) {
  return Lexer(text, begin, end, line, fileName).run();
}

Expected<std::vector<CStmt>> parseCppStatements(const std::vector<CTok> &tokens,
                                                std::string_view text, const std::string &fileName,
                                                int maxDepth) {
  return Parser(tokens, text, fileName, maxDepth).run();
}

} // namespace fxkit::inductor
