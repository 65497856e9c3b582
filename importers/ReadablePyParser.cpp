#include "importers/ReadablePyParser.h"

#include "importers/PyLexer.h"
#include "ir/Verifier.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_map>

namespace fxkit {

namespace {

using TK = Token::Kind;

/// Python operators FX prints for operator.* targets (torch.fx magic_methods). `/` reads as
/// operator.truediv (FX prints operator.div the same way).
struct BinaryOp {
  std::string_view token;
  int precedence;
  std::string_view target;
};
constexpr BinaryOp kBinaryOps[] = {
    {"==", 1, "operator.eq"},       {"!=", 1, "operator.ne"},     {"<", 1, "operator.lt"},
    {">", 1, "operator.gt"},        {"<=", 1, "operator.le"},     {">=", 1, "operator.ge"},
    {"|", 2, "operator.or_"},       {"^", 3, "operator.xor"},     {"&", 4, "operator.and_"},
    {"<<", 5, "operator.lshift"},   {">>", 5, "operator.rshift"}, {"+", 6, "operator.add"},
    {"-", 6, "operator.sub"},       {"*", 7, "operator.mul"},     {"/", 7, "operator.truediv"},
    {"//", 7, "operator.floordiv"}, {"%", 7, "operator.mod"},     {"@", 7, "operator.matmul"},
    {"**", 9, "operator.pow"}};

const BinaryOp *binaryOp(const Token &t) {
  if (t.kind != TK::Punct)
    return nullptr;
  for (const BinaryOp &op : kBinaryOps)
    if (op.token == t.text)
      return &op;
  return nullptr;
}

class ReadableParser {
public:
  ReadableParser(std::string_view text, const std::string &fileName)
      : text_(text), file_(fileName) {}

  Expected<Graph> parse() {
    auto toks = lexPython(text_, file_);
    if (!toks)
      return toks.takeError();
    // Logical lines without comments.
    std::vector<Token> line;
    for (const Token &t : *toks) {
      if (t.kind == TK::Comment)
        continue;
      if (t.kind == TK::Newline || t.kind == TK::End) {
        if (!line.empty()) {
          if (Status st = statement(line); !st)
            return st.takeError();
          line.clear();
        }
        if (t.kind == TK::End)
          break;
        continue;
      }
      line.push_back(t);
    }
    if (stage_ == Stage::Start)
      return Error("expected 'class <name>(torch.nn.Module):'", SourceLoc{file_, 1, 1},
                   std::string(sourceLine(text_, 1)));
    if (stage_ != Stage::Done)
      return Error("the forward function has no return statement", SourceLoc{file_, lastLine_, 1},
                   std::string(sourceLine(text_, lastLine_)));
    if (Status st = verifyGraph(graph_); !st) {
      Error err = st.takeError();
      err.loc.file = file_;
      return err;
    }
    return std::move(graph_);
  }

private:
  enum class Stage { Start, Class, Body, Done };
  static constexpr int kMaxDepth = 256;

  Error errorAt(const Token &t, std::string msg) const {
    return Error(std::move(msg), SourceLoc{file_, t.line, t.col},
                 std::string(sourceLine(text_, t.line)));
  }

  // ---- token cursor over one logical line --------------------------------------------------
  const std::vector<Token> *toks_ = nullptr;
  size_t pos_ = 0;
  const Token &peek(size_t ahead = 0) const {
    size_t i = pos_ + ahead;
    if (i < toks_->size())
      return (*toks_)[i];
    // Past the end: an End token just after the line's last token, for error positions.
    const Token &last = toks_->back();
    endToken_ = Token{TK::End, {}, last.line, last.col + static_cast<int>(last.text.size())};
    return endToken_;
  }
  bool atEnd() const { return pos_ >= toks_->size(); }
  bool eatPunct(std::string_view p) {
    if (peek().is(p)) {
      ++pos_;
      return true;
    }
    return false;
  }
  Status expectPunct(std::string_view p) {
    if (eatPunct(p))
      return Status::ok();
    return errorAt(peek(), "expected '" + std::string(p) + "'" + found());
  }
  std::string found() const {
    return atEnd() ? " at the end of the line" : ", found '" + std::string(peek().text) + "'";
  }

  // ---- statements ----------------------------------------------------------------------------
  Status statement(const std::vector<Token> &line) {
    toks_ = &line;
    pos_ = 0;
    lastLine_ = line.front().line;
    const Token &first = line.front();
    if (stage_ == Stage::Done)
      return errorAt(first, "statement after the return statement");
    if (first.isIdent("class")) {
      if (stage_ != Stage::Start)
        return errorAt(first, "nested classes (submodules) are not supported");
      return classLine(line);
    }
    if (stage_ == Stage::Start)
      return errorAt(first, "expected 'class <name>(torch.nn.Module):'");
    if (first.isIdent("def")) {
      if (stage_ != Stage::Class)
        return errorAt(first, "only one function, forward, is supported");
      return defLine();
    }
    if (stage_ != Stage::Body)
      return errorAt(first, "expected 'def forward(self, ...):'");
    if (first.isIdent("return"))
      return returnLine();
    return assignment();
  }

  Status classLine(const std::vector<Token> &line) {
    // class <name>(torch.nn.Module):  -- the name may be `<lambda>`.
    size_t open = 1;
    while (open < line.size() && !line[open].is("("))
      ++open;
    if (open == 1 || open >= line.size())
      return errorAt(line.back(), "expected 'class <name>(torch.nn.Module):'");
    std::string name;
    for (size_t i = 1; i < open; ++i)
      name += line[i].text;
    graph_.moduleName = name;
    pos_ = open;
    if (!eatPunct("("))
      return errorAt(peek(), "expected '('");
    while (!atEnd() && !peek().is(")"))
      ++pos_;
    if (Status st = expectPunct(")"); !st)
      return st;
    if (Status st = expectPunct(":"); !st)
      return st;
    if (!atEnd())
      return errorAt(peek(), "unexpected text after the class line");
    stage_ = Stage::Class;
    return Status::ok();
  }

  Status defLine() {
    ++pos_; // def
    if (!peek().isIdent("forward"))
      return errorAt(peek(), "expected 'forward'" + found());
    ++pos_;
    if (Status st = expectPunct("("); !st)
      return st;
    if (!peek().isIdent("self"))
      return errorAt(peek(), "expected 'self' as the first parameter" + found());
    ++pos_;
    while (eatPunct(",")) {
      if (peek().is(")"))
        break;
      const Token &name = peek();
      if (name.kind != TK::Ident)
        return errorAt(name, "expected a parameter name" + found());
      ++pos_;
      for (const Pending &p : pending_)
        if (p.target == name.text)
          return errorAt(name, "parameter '" + std::string(name.text) + "' defined twice");
      Pending p{std::string(name.text), std::string(name.text), {}, Argument(), false};
      if (eatPunct(":")) {
        auto v = annotation();
        if (!v)
          return v.takeError();
        p.value = v.take();
      }
      if (eatPunct("=")) {
        if (Status st = value(p.defaultValue, 0); !st)
          return st;
        p.hasDefault = true;
      }
      pending_.push_back(std::move(p));
    }
    if (Status st = expectPunct(")"); !st)
      return st;
    if (eatPunct("->")) // a return annotation carries nothing the graph keeps
      while (!atEnd() && !peek().is(":"))
        ++pos_;
    if (Status st = expectPunct(":"); !st)
      return st;
    if (!atEnd())
      return errorAt(peek(), "unexpected text after the forward signature");
    stage_ = Stage::Body;
    return Status::ok();
  }

  /// Creates the placeholders once the rename lines (`l_x_ = L_x_`) are behind us.
  void flushPlaceholders() {
    if (flushed_)
      return;
    flushed_ = true;
    for (Pending &p : pending_) {
      Node *n = graph_.create(OpKind::Placeholder, p.name, p.target);
      if (p.hasDefault)
        n->setArgs(Argument::tuple({p.defaultValue}));
      n->value() = std::move(p.value);
    }
  }

  /// `"f32[4][1]cpu"` or `"Sym(s77)"` after a name.
  Expected<NodeValue> annotation() {
    const Token &t = peek();
    if (t.kind != TK::String)
      return errorAt(t, "expected a type annotation string" + found());
    ++pos_;
    auto s = decodePyString(t.text);
    if (!s)
      return errorAt(t, s.error().message);
    std::string_view a = *s;
    NodeValue v;
    if (a.starts_with("Sym(") && a.ends_with(")")) {
      auto e = SymExpr::parse(a.substr(4, a.size() - 5));
      if (!e)
        return Error("bad symbolic size in annotation: " + e.error().message,
                     SourceLoc{file_, t.line, t.col + 4 + e.error().loc.col},
                     std::string(sourceLine(text_, t.line)));
      v.v = *e;
      return v;
    }
    auto type = TensorType::parse(a);
    if (!type)
      return Error(type.error().message,
                   SourceLoc{file_, t.line, t.col + std::max(type.error().loc.col, 1)},
                   std::string(sourceLine(text_, t.line)));
    v.v = type.take();
    return v;
  }

  Status returnLine() {
    flushPlaceholders();
    ++pos_;
    Argument result;
    if (Status st = value(result, 0); !st)
      return st;
    if (!atEnd())
      return errorAt(peek(), "unexpected text after the return value");
    std::string name = graph_.find("output") ? graph_.uniqueName("output") : "output";
    graph_.create(OpKind::Output, name, "output", Argument::tuple({result}));
    stage_ = Stage::Done;
    return Status::ok();
  }

  Status assignment() {
    const Token &nameTok = peek();
    if (nameTok.kind != TK::Ident)
      return errorAt(nameTok, "expected an assignment 'name = ...'");
    ++pos_;
    std::string name(nameTok.text);
    // `l_x_ = L_x_`: Dynamo's rename of a placeholder, right after the signature.
    if (!flushed_ && peek().is("=") && peek(1).kind == TK::Ident && pos_ + 2 == toks_->size()) {
      // Placeholder names stay unique: a rename to a name another placeholder has is an error.
      auto renames = [&](const Pending &p) {
        return p.target == peek(1).text && p.name == p.target;
      };
      if (std::any_of(pending_.begin(), pending_.end(), renames))
        for (const Pending &p : pending_)
          if (p.name == name)
            return errorAt(nameTok, "'" + name + "' is assigned twice");
      for (Pending &p : pending_)
        if (renames(p)) {
          p.name = name;
          return Status::ok();
        }
    }
    flushPlaceholders();
    if (graph_.find(name))
      return errorAt(nameTok, "'" + name + "' is assigned twice");
    NodeValue val;
    if (eatPunct(":")) {
      auto v = annotation();
      if (!v)
        return v.takeError();
      val = v.take();
    }
    if (Status st = expectPunct("="); !st)
      return st;
    Call call;
    if (Status st = rhs(call); !st)
      return st;
    if (eatPunct(";"))
      if (Status st = frees(name); !st)
        return st;
    if (!atEnd())
      return errorAt(peek(), "unexpected text after the statement");
    Node *n = graph_.create(call.op, name, call.target, Argument::tuple(std::move(call.args)),
                            Argument::dict(std::move(call.kwargs)));
    n->value() = std::move(val);
    return Status::ok();
  }

  /// `;  a = b = None`: FX's frees; every name must be a defined value (or the node itself).
  Status frees(const std::string &self) {
    for (;;) {
      const Token &t = peek();
      if (t.isIdent("None") && !peek(1).is("="))
        break;
      if (t.kind != TK::Ident)
        return errorAt(t, "expected 'name = ... = None'" + found());
      if (t.text != self && !graph_.find(t.text))
        return errorAt(t, "frees undefined name '" + std::string(t.text) + "'");
      ++pos_;
      if (Status st = expectPunct("="); !st)
        return st;
    }
    ++pos_; // None
    return Status::ok();
  }

  struct Call {
    OpKind op = OpKind::CallFunction;
    std::string target;
    std::vector<Argument> args;
    std::vector<std::pair<std::string, Argument>> kwargs;
  };

  /// Right-hand side of a node statement, as FX's code generator writes it.
  Status rhs(Call &call) {
    const Token &t = peek();
    // Unary operators.
    if (t.is("-") || t.is("+") || t.is("~")) {
      Argument operand;
      ++pos_;
      if (Status st = value(operand, 0); !st)
        return st;
      call.target = t.is("-") ? "operator.neg" : t.is("+") ? "operator.pos" : "operator.invert";
      call.args.push_back(std::move(operand));
      return Status::ok();
    }
    if (t.isIdent("self") && peek(1).is(".")) {
      pos_ += 2;
      std::string target;
      if (Status st = dottedName(target); !st)
        return st;
      if (eatPunct("(")) {
        call.op = OpKind::CallModule;
        call.target = target;
        return callArgs(call);
      }
      call.op = OpKind::GetAttr;
      call.target = target;
      return Status::ok();
    }
    // A value followed by `.method(`, `.attr`, `[index]` or a binary operator.
    if (t.kind == TK::Ident && graph_.find(t.text)) {
      Node *base = graph_.find(t.text);
      if (peek(1).is(".") && peek(2).kind == TK::Ident) {
        pos_ += 3;
        std::string_view member = (*toks_)[pos_ - 1].text;
        if (eatPunct("(")) {
          call.op = OpKind::CallMethod;
          call.target = std::string(member);
          call.args.push_back(Argument::node(base));
          return callArgs(call);
        }
        call.target = "getattr";
        call.args = {Argument::node(base), Argument::string(member)};
        return Status::ok();
      }
      if (peek(1).is("[")) {
        pos_ += 2;
        Argument index;
        if (Status st = value(index, 0); !st)
          return st;
        if (Status st = expectPunct("]"); !st)
          return st;
        call.target = "operator.getitem";
        call.args = {Argument::node(base), std::move(index)};
        return Status::ok();
      }
    }
    bool callee = t.kind == TK::Ident && !graph_.find(t.text) && !isLiteralName(t.text) &&
                  (peek(1).is(".") || peek(1).is("("));
    if (callee) {
      std::string target;
      if (Status st = dottedName(target); !st)
        return st;
      if (!eatPunct("("))
        return errorAt(peek(), "expected '(' after '" + target + "'" + found());
      call.target = target;
      return callArgs(call);
    }
    // Binary operator between two values.
    Argument lhs;
    if (Status st = value(lhs, 0); !st)
      return st;
    const BinaryOp *op = binaryOp(peek());
    if (!op) {
      if (atEnd() || peek().is(";"))
        return errorAt(t, "expected a call or an operator expression");
      return errorAt(peek(), "expected an operator" + found());
    }
    ++pos_;
    Argument rhsValue;
    if (Status st = value(rhsValue, 0); !st)
      return st;
    call.target = std::string(op->target);
    call.args = {std::move(lhs), std::move(rhsValue)};
    return Status::ok();
  }

  static bool isLiteralName(std::string_view n) {
    return n == "None" || n == "True" || n == "False" || n == "inf" || n == "nan" || n == "device";
  }

  Status dottedName(std::string &out) {
    const Token &first = peek();
    if (first.kind != TK::Ident)
      return errorAt(first, "expected a name" + found());
    out = std::string(first.text);
    ++pos_;
    while (peek().is(".") && peek(1).kind == TK::Ident) {
      out += ".";
      out += peek(1).text;
      pos_ += 2;
    }
    return Status::ok();
  }

  /// `a, b, k = v)` after the '(' of a call.
  Status callArgs(Call &call) {
    if (eatPunct(")"))
      return Status::ok();
    for (;;) {
      if (peek().kind == TK::Ident && peek(1).is("=")) {
        std::string key(peek().text);
        pos_ += 2;
        Argument v;
        if (Status st = value(v, 1); !st)
          return st;
        for (const auto &[k, existing] : call.kwargs)
          if (k == key)
            return errorAt((*toks_)[pos_ - 1], "keyword argument '" + key + "' repeated");
        call.kwargs.emplace_back(std::move(key), std::move(v));
      } else {
        if (!call.kwargs.empty())
          return errorAt(peek(), "positional argument after keyword arguments");
        Argument v;
        if (Status st = value(v, 1); !st)
          return st;
        call.args.push_back(std::move(v));
      }
      if (eatPunct(","))
        continue;
      return expectPunct(")");
    }
  }

  /// One Python value as FX's _get_repr writes it.
  Status value(Argument &out, int depth) {
    if (depth > kMaxDepth)
      return errorAt(peek(),
                     "expression nested more than " + std::to_string(kMaxDepth) + " levels deep");
    const Token &t = peek();
    switch (t.kind) {
    case TK::Int:
    case TK::Float:
      ++pos_;
      return number(t, false, out);
    case TK::String: {
      ++pos_;
      auto s = decodePyString(t.text);
      if (!s)
        return errorAt(t, s.error().message);
      out = Argument::string(*s);
      return Status::ok();
    }
    case TK::Punct:
      if (t.is("-") &&
          (peek(1).kind == TK::Int || peek(1).kind == TK::Float || peek(1).isIdent("inf"))) {
        pos_ += 2;
        const Token &num = (*toks_)[pos_ - 1];
        if (num.isIdent("inf")) {
          out = Argument::floating(-INFINITY);
          return Status::ok();
        }
        return number(num, true, out);
      }
      if (t.is("[") || t.is("(") || t.is("{"))
        return container(out, depth);
      break;
    case TK::Ident: {
      if (t.text == "None" || t.text == "True" || t.text == "False") {
        ++pos_;
        out = t.text == "None" ? Argument() : Argument::boolean(t.text == "True");
        return Status::ok();
      }
      if (t.text == "inf" || t.text == "nan") {
        ++pos_;
        out = Argument::floating(t.text == "inf" ? INFINITY : NAN);
        return Status::ok();
      }
      if (t.text == "device" && peek(1).is("("))
        return deviceValue(out);
      if (t.text == "slice" && peek(1).is("("))
        return sliceValue(out);
      if (t.text == "Ellipsis") { // `x[..., 0]` prints `(Ellipsis, 0)`
        ++pos_;
        out = Argument::opaque("Ellipsis");
        return Status::ok();
      }
      if (Node *n = graph_.find(t.text); n && !peek(1).is(".")) {
        ++pos_;
        out = Argument::node(n);
        return Status::ok();
      }
      if (t.text == "torch" && peek(1).is(".")) {
        std::string name;
        if (Status st = dottedName(name); !st)
          return st;
        if (name.size() <= 6) // `torch.` and no name after it
          return errorAt(t, "expected a name after 'torch.'");
        std::string_view rest = std::string_view(name).substr(6);
        if (auto d = parseDType(rest); d && rest.find('.') == std::string_view::npos) {
          out = Argument::dtype(*d);
        } else if (rest.ends_with("_format") || rest == "channels_last" ||
                   rest == "channels_last_3d") {
          out = Argument::memoryFormat(rest);
        } else if (rest == "strided" || rest.starts_with("sparse_") || rest == "_mkldnn") {
          out = Argument::layout(rest);
        } else {
          out = Argument::opaque(name);
        }
        return Status::ok();
      }
      for (const Pending &p : pending_)
        if (p.name == t.text)
          return errorAt(t, "internal: placeholder '" + p.name + "' used before creation");
      return errorAt(t, "undefined name '" + std::string(t.text) + "'");
    }
    default:
      break;
    }
    if (atEnd())
      return errorAt(t, "expected a value at the end of the line");
    return errorAt(t, "unexpected '" + std::string(t.text) + "'");
  }

  Status number(const Token &t, bool negative, Argument &out) {
    std::string text = (negative ? "-" : "") + std::string(t.text);
    if (t.kind == TK::Int) {
      int64_t v = 0;
      auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (ec != std::errc() || p != text.data() + text.size())
        out = Argument::opaque(text); // too large for int64: keep the spelling
      else
        out = Argument::integer(v);
      return Status::ok();
    }
    double v = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || p != text.data() + text.size())
      return errorAt(t, "bad number '" + text + "'");
    out = pyFloatRepr(v) == text ? Argument::floating(v) : Argument::opaque(text);
    return Status::ok();
  }

  Status container(Argument &out, int depth) {
    const Token &open = peek();
    ++pos_;
    std::string_view close = open.is("[") ? "]" : open.is("(") ? ")" : "}";
    std::vector<Argument> items;
    std::vector<std::pair<std::string, Argument>> entries;
    bool sawComma = false;
    while (!eatPunct(close)) {
      if (atEnd())
        return errorAt(open, "unbalanced '" + std::string(open.text) + "'");
      if (open.is("{")) {
        const Token &k = peek();
        if (k.kind != TK::String)
          return errorAt(k, "dictionary keys must be strings" + found());
        ++pos_;
        auto key = decodePyString(k.text);
        if (!key)
          return errorAt(k, key.error().message);
        if (Status st = expectPunct(":"); !st)
          return st;
        Argument v;
        if (Status st = value(v, depth + 1); !st)
          return st;
        entries.emplace_back(key.take(), std::move(v));
      } else {
        Argument v;
        if (Status st = value(v, depth + 1); !st)
          return st;
        items.push_back(std::move(v));
      }
      if (eatPunct(",")) {
        sawComma = true;
        continue;
      }
      if (Status st = expectPunct(close); !st)
        return st;
      break;
    }
    if (open.is("{"))
      out = Argument::dict(std::move(entries));
    else if (open.is("["))
      out = Argument::list(std::move(items));
    else if (items.size() == 1 && !sawComma)
      out = std::move(items[0]); // parentheses around a value
    else
      out = Argument::tuple(std::move(items));
    return Status::ok();
  }

  /// slice(start, stop, step), which Dynamo graphs index with (`x[:, :1]` prints
  /// `getitem(x, (slice(None, None, None), slice(None, 1, None)))`): kept as FX text keeps it,
  /// an opaque value spelled as Python's repr (", " between the parts).
  Status sliceValue(Argument &out) {
    const Token &start = peek();
    pos_ += 2;
    std::string text = "slice(";
    while (!eatPunct(")")) {
      if (atEnd())
        return errorAt(start, "unclosed slice(...)");
      const Token &p = peek();
      if (p.is("(") || p.is("[") || p.is("{"))
        return errorAt(p, "unexpected '" + std::string(p.text) + "' in slice(...)");
      ++pos_;
      text += p.is(",") ? std::string(", ") : std::string(p.text);
    }
    out = Argument::opaque(text + ")");
    return Status::ok();
  }

  /// device(type='cuda', index=0)
  Status deviceValue(Argument &out) {
    const Token &start = peek();
    pos_ += 2;
    std::string type;
    int index = -1;
    while (!eatPunct(")")) {
      const Token &k = peek();
      if (k.kind != TK::Ident || !peek(1).is("="))
        return errorAt(k, "expected type= or index= in device(...)" + found());
      pos_ += 2;
      const Token &v = peek();
      ++pos_;
      if (k.text == "type" && v.kind == TK::String) {
        auto s = decodePyString(v.text);
        if (!s)
          return errorAt(v, s.error().message);
        type = *s;
      } else if (k.text == "index" && v.kind == TK::Int) {
        index = std::stoi(std::string(v.text));
      } else {
        return errorAt(v, "bad device(...) argument");
      }
      eatPunct(",");
    }
    auto d = Device::parse(type.empty() ? "?" : type);
    if (!d)
      return errorAt(start, d.error().message);
    d->index = index;
    out = Argument::device(*d);
    return Status::ok();
  }

  struct Pending {
    std::string name;
    std::string target;
    NodeValue value;
    Argument defaultValue;
    bool hasDefault = false;
  };

  std::string_view text_;
  std::string file_;
  Graph graph_;
  Stage stage_ = Stage::Start;
  int lastLine_ = 1;
  std::vector<Pending> pending_;
  bool flushed_ = false;
  mutable Token endToken_{TK::End, {}, 0, 0};
};

} // namespace

Expected<Graph> parseReadablePy(std::string_view text, const std::string &fileName) {
  return ReadableParser(text, fileName).parse();
}

} // namespace fxkit
