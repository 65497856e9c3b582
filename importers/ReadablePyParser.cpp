/// \file Reader for `print_readable()` code, following what torch/fx/graph.py
/// (`CodeGen._gen_python_code`, `_PyTreeCodeGen`, `_BoxedCodeGen`) and torch/fx/graph_module.py
/// (`_print_readable`: nested classes for child GraphModules) write.
///
/// The text is lexed once; each logical line (brackets join physical lines) is one or more
/// statements separated by `;`. Nesting is by indentation, as in Python: a `class` line opens a
/// module whose forward function and child classes are indented below it; a line at or left
/// of a class's column closes that class, which becomes a submodule of the class around it.
#include "importers/ReadablePyParser.h"

#include "ir/Try.h"
#include "ir/Verifier.h"
#include "support/PyLexer.h"
#include "support/PyOperators.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>
#include <optional>

namespace fxkit {

namespace {

using TK = Token::Kind;

const PyOperator *binaryOp(const Token &t) {
  return t.kind == TK::Punct ? findPyOperatorByToken(kPyBinaryOperators, t.text) : nullptr;
}
const PyOperator *inplaceOp(const Token &t) {
  return t.kind == TK::Punct ? findPyOperatorByToken(kPyInplaceOperators, t.text) : nullptr;
}

bool isOpen(const Token &t) { return t.is("(") || t.is("[") || t.is("{"); }
bool isClose(const Token &t) { return t.is(")") || t.is("]") || t.is("}"); }

/// A placeholder's name in the body: its target without the `*` of `*args` (FX's raw_name).
std::string rawName(std::string_view target) {
  std::string out;
  for (char c : target)
    if (c != '*')
      out += c;
  return out;
}

class ReadableParser {
public:
  ReadableParser(std::string_view text, const std::string &fileName)
      : text_(text), file_(fileName) {}

  Expected<Graph> parse() {
    FXKIT_ASSIGN_OR_RETURN(auto toks, lexPython(text_, file_));
    // Logical lines without comments.
    std::vector<Token> line;
    for (const Token &t : toks) {
      if (t.kind == TK::Comment)
        continue;
      if (t.kind == TK::Newline || t.kind == TK::End) {
        if (!line.empty()) {
          FXKIT_TRY(logicalLine(line));
          line.clear();
        }
        if (t.kind == TK::End)
          break;
        continue;
      }
      line.push_back(t);
    }
    while (!frames_.empty())
      FXKIT_TRY(closeFrame());
    if (!root_)
      return Error("expected 'class <name>(torch.nn.Module):'", SourceLoc{file_, 1, 1},
                   std::string(sourceLine(text_, 1)));
    return std::move(*root_);
  }

private:
  enum class Stage { Class, Body, Done };
  static constexpr int kMaxDepth = 256;

  /// What an annotation says: a value (`"f32[4][1]cpu"`, `"Sym(s0)"`) or a Python type
  /// (`torch.Tensor`, as FX writes node.type where the node has no value).
  struct Annotation {
    NodeValue value;
    std::string pythonType;
  };
  struct Pending {
    std::string name;
    std::string target;
    Annotation annotation;
    Argument defaultValue;
    bool hasDefault = false;
  };
  /// One class being read: the top-level module or a nested child GraphModule.
  struct Frame {
    Graph graph;
    int classCol = 0;  ///< column of `class`
    int memberCol = 0; ///< column of the class body's lines (0: none yet)
    int lastLine = 0;  ///< last line read into this class, where a missing return is reported
    Stage stage = Stage::Class;
    std::vector<Pending> pending; ///< parameters until the first node statement
    bool flushed = false;
    /// _PyTreeCodeGen's `x: "f32[3]"; y: "f32[3]";` line before the flattening.
    std::vector<std::pair<std::string, Annotation>> declared;
    /// _BoxedCodeGen: `args_iter = iter(args_list)`, then `x = next(args_iter)` per input.
    std::string boxedIter;
    bool boxed = false;
    /// _ExportCodeGen: the names `pytree.tree_leaves` binds, passed first to the output.
    std::vector<std::string> treeLeaves;
  };

  Error errorAt(const Token &t, std::string msg) const {
    return Error(std::move(msg), SourceLoc{file_, t.line, t.col},
                 std::string(sourceLine(text_, t.line)));
  }
  Error errorAtLine(int line, std::string msg) const {
    return Error(std::move(msg), SourceLoc{file_, line, 1}, std::string(sourceLine(text_, line)));
  }

  Frame &cur() { return *frames_.back(); }
  Graph &graph() { return cur().graph; }

  // ---- token cursor over one statement -----------------------------------------------------
  const std::vector<Token> *toks_ = nullptr;
  size_t pos_ = 0;
  void setCursor(const std::vector<Token> &toks) {
    toks_ = &toks;
    pos_ = 0;
  }
  const Token &peek(size_t ahead = 0) const {
    size_t i = pos_ + ahead;
    if (i < toks_->size())
      return (*toks_)[i];
    // Past the end: an End token just after the statement's last token, for error positions.
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
  /// The source text from token `first` to the token before the cursor, as written.
  std::string_view spanFrom(size_t first) const {
    const Token &a = (*toks_)[first];
    const Token &b = (*toks_)[pos_ - 1];
    return std::string_view(a.text.data(),
                            static_cast<size_t>(b.text.data() + b.text.size() - a.text.data()));
  }
  /// Moves past a bracketed group starting at the cursor; false at an unbalanced end.
  bool skipGroup() {
    int depth = 0;
    do {
      if (atEnd())
        return false;
      if (isOpen(peek()))
        ++depth;
      else if (isClose(peek()))
        --depth;
      ++pos_;
    } while (depth > 0);
    return true;
  }

  // ---- classes and indentation --------------------------------------------------------------
  Status logicalLine(const std::vector<Token> &line) {
    setCursor(line);
    const Token &first = line.front();
    int col = first.col;
    while (!frames_.empty() && col <= cur().classCol)
      FXKIT_TRY(closeFrame());
    if (frames_.empty()) {
      if (root_)
        return errorAt(first, "unexpected text after the module's class");
      if (!first.isIdent("class"))
        return errorAt(first, "expected 'class <name>(torch.nn.Module):'");
      return classLine(line);
    }
    Frame &f = cur();
    if (f.memberCol == 0)
      f.memberCol = col;
    if (col < f.memberCol)
      return errorAt(first, "unindent does not match any outer indentation level");
    if (col == f.memberCol)
      return member(line);
    switch (f.stage) {
    case Stage::Class:
      return errorAt(first, "expected 'def forward(self, ...):'");
    case Stage::Done:
      return errorAt(first, "statement after the return statement");
    case Stage::Body:
      break;
    }
    f.lastLine = line.back().line;
    return bodyLine(line);
  }

  /// A line in a class body: `def forward`, a nested class, or FX's `wrap("f")` calls.
  Status member(const std::vector<Token> &line) {
    Frame &f = cur();
    const Token &first = line.front();
    if (f.stage == Stage::Body)
      return errorAtLine(f.lastLine, "the forward function has no return statement");
    if (first.isIdent("class"))
      return classLine(line);
    if (first.isIdent("def")) {
      if (f.stage != Stage::Class)
        return errorAt(first, "only one function, forward, is supported");
      f.lastLine = line.back().line;
      return defLine();
    }
    // `torch.fx._symbolic_trace.wrap("len")`: registers a function FX must not trace into.
    std::string callee;
    if (first.kind == TK::Ident && dottedName(callee) &&
        (callee == "wrap" || callee.ends_with(".wrap")) && peek().is("(")) {
      if (!skipGroup() || !atEnd())
        return errorAt(first, "unexpected text after the wrap(...) call");
      return Status::ok();
    }
    return errorAt(first, f.stage == Stage::Class
                              ? "expected 'def forward(self, ...):' or a nested class"
                              : "statement after the return statement");
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
    pos_ = open;
    if (!skipGroup())
      return errorAt(line[open], "unbalanced '('");
    FXKIT_TRY(expectPunct(":"));
    if (!atEnd())
      return errorAt(peek(), "unexpected text after the class line");
    if (!frames_.empty())
      for (const auto &sub : cur().graph.submodules)
        if (sub->moduleName == name)
          return errorAt(line[1], "class '" + name + "' is defined twice");
    if (frames_.size() > kMaxDepth)
      return errorAt(line.front(),
                     "classes nested more than " + std::to_string(kMaxDepth) + " levels deep");
    auto f = std::make_unique<Frame>();
    f->graph.moduleName = name;
    f->classCol = line.front().col;
    f->lastLine = line.back().line;
    frames_.push_back(std::move(f));
    return Status::ok();
  }

  /// Ends the innermost class: it must have returned; it becomes a child of the class around
  /// it, or the result.
  Status closeFrame() {
    std::unique_ptr<Frame> f = std::move(frames_.back());
    frames_.pop_back();
    switch (f->stage) {
    case Stage::Class:
      return errorAtLine(f->lastLine,
                         "class '" + f->graph.moduleName + "' has no forward function");
    case Stage::Body:
      return errorAtLine(f->lastLine, "the forward function has no return statement");
    case Stage::Done:
      break;
    }
    if (Status st = verifyGraph(f->graph); !st) {
      Error err = st.takeError();
      err.loc.file = file_;
      if (!frames_.empty() || !f->graph.submodules.empty())
        err.message = "class '" + f->graph.moduleName + "': " + err.message;
      return err;
    }
    if (frames_.empty())
      root_ = std::move(f->graph);
    else
      cur().graph.submodules.push_back(std::make_shared<const Graph>(std::move(f->graph)));
    return Status::ok();
  }

  Status defLine() {
    Frame &f = cur();
    ++pos_; // def
    if (!peek().isIdent("forward"))
      return errorAt(peek(), "expected 'forward'" + found());
    ++pos_;
    FXKIT_TRY(expectPunct("("));
    if (!peek().isIdent("self"))
      return errorAt(peek(), "expected 'self' as the first parameter" + found());
    ++pos_;
    while (eatPunct(",")) {
      if (peek().is(")"))
        break;
      std::string stars; // `*args`, `**kwargs`: the target keeps them
      while (peek().is("*") || peek().is("**")) {
        stars += peek().text;
        ++pos_;
      }
      const Token &name = peek();
      if (name.kind != TK::Ident)
        return errorAt(name, "expected a parameter name" + found());
      ++pos_;
      std::string target = stars + std::string(name.text);
      for (const Pending &p : f.pending)
        if (rawName(p.target) == name.text)
          return errorAt(name, "parameter '" + std::string(name.text) + "' defined twice");
      Pending p{std::string(name.text), target, {}, Argument(), false};
      if (eatPunct(":")) {
        FXKIT_ASSIGN_OR_RETURN(auto a, annotation());
        p.annotation = std::move(a);
      }
      if (eatPunct("=")) {
        FXKIT_TRY(value(p.defaultValue, 0));
        p.hasDefault = true;
      }
      f.pending.push_back(std::move(p));
    }
    FXKIT_TRY(expectPunct(")"));
    if (eatPunct("->")) // a return annotation carries nothing the graph keeps
      while (!atEnd() && !peek().is(":"))
        ++pos_;
    FXKIT_TRY(expectPunct(":"));
    if (!atEnd())
      return errorAt(peek(), "unexpected text after the forward signature");
    f.stage = Stage::Body;
    return Status::ok();
  }

  /// Creates the placeholders once the lines that bind the inputs (`l_x_ = L_x_`, pytree's
  /// flattening, the boxed calling convention's `next(args_iter)`) are behind us.
  void flushPlaceholders() {
    Frame &f = cur();
    if (f.flushed)
      return;
    f.flushed = true;
    for (Pending &p : f.pending) {
      Node *n = f.graph.create(OpKind::Placeholder, p.name, p.target);
      if (p.hasDefault)
        n->setArgs(Argument::tuple({p.defaultValue}));
      n->value() = std::move(p.annotation.value);
      n->setPythonType(p.annotation.pythonType);
    }
  }

  /// After a name: `"f32[4][1]cpu"`, `"f32[4]"`, `"Sym(s77)"`, `"Cls(f32[4][1]cpu)"` (a tensor
  /// subclass; the class is not kept), or a type expression (`torch.Tensor`,
  /// `typing_List[torch.Tensor]`, kept as the node's Python type).
  Expected<Annotation> annotation() {
    const Token &t = peek();
    Annotation out;
    if (t.kind == TK::Ident) {
      size_t start = pos_;
      std::string name;
      if (!dottedName(name))
        return errorAt(t, "expected a type");
      if (peek().is("[") && !skipGroup())
        return errorAt(t, "unbalanced '[' in the type");
      out.pythonType = std::string(spanFrom(start));
      return out;
    }
    if (t.kind != TK::String)
      return errorAt(t, "expected a type annotation" + found());
    ++pos_;
    auto s = decodePyString(t.text);
    if (!s)
      return errorAt(t, s.error().message);
    std::string_view a = *s;
    // Column of a's first character: after the quote (and a string prefix, which FX never
    // writes).
    int col0 = t.col + static_cast<int>(t.text.find_first_of("'\"")) + 1;
    if (a.starts_with("Sym(") && a.ends_with(")")) {
      // Symbolic integers parse; SymBool relations and SymFloats (`Sym(s0 < 5)`,
      // `Sym(0.5*s0)`) are outside SymExpr's integer grammar and read as no value.
      if (auto e = SymExpr::parse(a.substr(4, a.size() - 5)))
        out.value.v = *e;
      return out;
    }
    std::string_view core = a;
    size_t paren = a.find('(');
    if (paren != std::string_view::npos && paren > 0 && a.ends_with(")") &&
        std::all_of(a.begin(), a.begin() + paren, [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
        })) {
      // `DTensor(f32[4][1]cuda:0, S(0))`, `Float8Tensor(f32[4][1]cuda:0)`: the tensor
      // type runs to the first ", " outside brackets.
      core = a.substr(paren + 1, a.size() - paren - 2);
      int depth = 0;
      for (size_t i = 0; i < core.size(); ++i) {
        depth += core[i] == '[' ? 1 : core[i] == ']' ? -1 : 0;
        if (depth == 0 && core.substr(i, 2) == ", ") {
          core = core.substr(0, i);
          break;
        }
      }
      col0 += static_cast<int>(paren) + 1;
    }
    auto type = TensorType::parse(core);
    if (!type)
      return Error(type.error().message,
                   SourceLoc{file_, t.line, col0 - 1 + std::max(type.error().loc.col, 1)},
                   std::string(sourceLine(text_, t.line)));
    out.value.v = type.take();
    return out;
  }

  // ---- statements in forward --------------------------------------------------------------
  /// A pending in-place statement (`a += b`, `a[i] = v`) waiting for the node bound to `a`.
  struct Inplace {
    std::string target;
    std::vector<Argument> args;
    const Token *at = nullptr;
  };

  Status bodyLine(const std::vector<Token> &line) {
    // Statements separated by top-level `;`.
    std::vector<std::vector<Token>> stmts(1);
    int depth = 0;
    for (const Token &t : line) {
      if (isOpen(t))
        ++depth;
      else if (isClose(t))
        --depth;
      if (depth == 0 && t.is(";")) {
        stmts.emplace_back();
        continue;
      }
      stmts.back().push_back(t);
    }
    std::optional<Inplace> inplace;
    Node *lastNode = nullptr;
    for (size_t k = 0; k < stmts.size(); ++k) {
      const std::vector<Token> &s = stmts[k];
      if (s.empty()) {
        if (k + 1 == stmts.size() && k > 0)
          break; // a trailing `;` (pytree's annotation line ends with one)
        return errorAt(k == 0 ? line.front() : stmts[k - 1].back(), "empty statement");
      }
      setCursor(s);
      if (cur().stage == Stage::Done)
        return errorAt(s.front(), "statement after the return statement");
      if (k > 0 && !inplace && isFrees(s)) {
        FXKIT_TRY(frees(lastNode));
        continue;
      }
      if (inplace) {
        FXKIT_ASSIGN_OR_RETURN(auto n, inplaceBinding(*inplace));
        lastNode = n;
        inplace.reset();
        continue;
      }
      Node *made = nullptr;
      FXKIT_TRY(statement(inplace, made));
      if (made)
        lastNode = made;
    }
    if (inplace)
      return errorAt(line.back(), "expected '; name = ...' binding the in-place operation's "
                                  "result");
    return Status::ok();
  }

  /// `a = b = None`: FX's frees.
  bool isFrees(const std::vector<Token> &s) const {
    if (s.size() < 3 || !s.back().isIdent("None"))
      return false;
    for (size_t i = 0; i + 1 < s.size(); i += 2)
      if (s[i].kind != TK::Ident || !s[i + 1].is("="))
        return false;
    return s.size() % 2 == 1;
  }

  /// Every name freed must be a defined value (or the node of this line).
  Status frees(Node *self) {
    for (; pos_ + 1 < toks_->size(); pos_ += 2) {
      const Token &t = peek();
      Node *n = graph().find(t.text);
      if (!n && !(self && self->name() == t.text))
        return errorAt(t, "frees undefined name '" + std::string(t.text) + "'");
    }
    return Status::ok();
  }

  /// Position of the first top-level token satisfying `pred`, or npos.
  template <typename Pred> size_t findTopLevel(Pred pred) const {
    int depth = 0;
    for (size_t i = 0; i < toks_->size(); ++i) {
      const Token &t = (*toks_)[i];
      if (depth == 0 && pred(t))
        return i;
      if (isOpen(t))
        ++depth;
      else if (isClose(t))
        --depth;
    }
    return std::string::npos;
  }

  Status statement(std::optional<Inplace> &inplace, Node *&made) {
    Frame &f = cur();
    const Token &first = peek();
    // A bare string: FX_GRAPH_SHOW_META's `"""meta"""` blocks.
    if (first.kind == TK::String && toks_->size() == 1)
      return Status::ok();
    if (first.isIdent("return"))
      return returnStatement();
    // `a += b`: the node follows as `; iadd = a`.
    if (size_t at = findTopLevel([](const Token &t) { return inplaceOp(t) != nullptr; });
        at != std::string::npos) {
      Inplace ip{std::string(inplaceOp((*toks_)[at])->target), {}, &(*toks_)[at]};
      flushPlaceholders();
      Argument a, b;
      FXKIT_TRY(value(a, 0));
      if (pos_ != at)
        return errorAt(peek(), "expected '" + std::string((*toks_)[at].text) + "'" + found());
      ++pos_;
      FXKIT_TRY(value(b, 0));
      if (!atEnd())
        return errorAt(peek(), "unexpected text after the in-place operation");
      ip.args = {std::move(a), std::move(b)};
      inplace = std::move(ip);
      return Status::ok();
    }
    size_t eq = findTopLevel([](const Token &t) { return t.is("="); });
    // `x[i] = v`: operator.setitem, bound on as `; setitem = x`.
    if (eq != std::string::npos && first.kind == TK::Ident && peek(1).is("[")) {
      flushPlaceholders();
      Argument base, index, v;
      FXKIT_TRY(value(base, 0));
      FXKIT_TRY(expectPunct("["));
      FXKIT_TRY(value(index, 0));
      FXKIT_TRY(expectPunct("]"));
      FXKIT_TRY(expectPunct("="));
      FXKIT_TRY(value(v, 0));
      if (!atEnd())
        return errorAt(peek(), "unexpected text after the subscript assignment");
      inplace =
          Inplace{"operator.setitem", {std::move(base), std::move(index), std::move(v)}, &first};
      return Status::ok();
    }
    // `a, b, = fx_pytree.tree_flatten_spec(...)` and the other codegens' input bindings.
    if (first.kind == TK::Ident && peek(1).is(","))
      return tupleBinding();
    // `x: "f32[3]"` alone: _PyTreeCodeGen's annotations of the inputs it flattens next.
    if (eq == std::string::npos && first.kind == TK::Ident && peek(1).is(":")) {
      if (f.flushed)
        return errorAt(first, "annotation without a value after the inputs are bound");
      pos_ += 2;
      FXKIT_ASSIGN_OR_RETURN(auto a, annotation());
      if (!atEnd())
        return errorAt(peek(), "unexpected text after the annotation");
      f.declared.emplace_back(std::string(first.text), std::move(a));
      return Status::ok();
    }
    // `args_list.clear()` of the boxed calling convention.
    if (f.boxed && first.kind == TK::Ident && peek(1).is(".") && peek(2).isIdent("clear") &&
        peek(3).is("(") && peek(4).is(")") && toks_->size() == 5)
      return Status::ok();
    if (eq == std::string::npos)
      return errorAt(first, "expected an assignment 'name = ...'");
    return assignment(made);
  }

  /// What follows a bound name: refused if the graph has the name already, then an optional
  /// `: annotation` and `=`. The annotation (empty when absent).
  Expected<Annotation> bindingHead(const Token &nameTok, const std::string &name) {
    if (graph().find(name))
      return errorAt(nameTok, "'" + name + "' is assigned twice");
    Annotation a;
    if (eatPunct(":")) {
      FXKIT_ASSIGN_OR_RETURN(auto v, annotation());
      a = std::move(v);
    }
    FXKIT_TRY(expectPunct("="));
    return a;
  }

  /// The node of a binding, with its annotation's value and Python type.
  Node *createBound(OpKind op, const std::string &name, std::string_view target, Argument args,
                    Argument kwargs, Annotation &a) {
    Node *n = graph().create(op, name, target, std::move(args), std::move(kwargs));
    n->value() = std::move(a.value);
    n->setPythonType(a.pythonType);
    return n;
  }

  /// `name = a` after an in-place statement on `a`: the node.
  Expected<Node *> inplaceBinding(Inplace &ip) {
    const Token &nameTok = peek();
    if (nameTok.kind != TK::Ident)
      return errorAt(nameTok, "expected the name bound to the in-place operation's result");
    ++pos_;
    std::string name(nameTok.text);
    FXKIT_ASSIGN_OR_RETURN(Annotation a, bindingHead(nameTok, name));
    Argument bound;
    FXKIT_TRY(value(bound, 0));
    if (!atEnd())
      return errorAt(peek(), "unexpected text after the binding");
    if (!bound.equals(ip.args[0]))
      return errorAt(nameTok, "the in-place operation's result must be bound to its first "
                              "operand");
    return createBound(OpKind::CallFunction, name, ip.target, Argument::tuple(std::move(ip.args)),
                       Argument::dict({}), a);
  }

  /// `a, b, = CALL(...)`: the inputs as _PyTreeCodeGen (`fx_pytree.tree_flatten_spec`) and
  /// _ExportCodeGen (`pytree.tree_leaves`, then `self._in_shuffle_graph`) bind them.
  Status tupleBinding() {
    Frame &f = cur();
    const Token &first = peek();
    std::vector<std::string> names;
    while (peek().kind == TK::Ident) {
      names.emplace_back(peek().text);
      ++pos_;
      if (!eatPunct(","))
        break;
    }
    FXKIT_TRY(expectPunct("="));
    if (f.flushed)
      return errorAt(first, "tuple assignment after the inputs are bound");
    size_t calleeAt = pos_;
    std::string callee;
    if (peek().isIdent("self")) {
      pos_ += 2;
      if (!(*toks_)[calleeAt + 1].is(".") || peek().kind != TK::Ident)
        return errorAt((*toks_)[calleeAt], "expected a call");
      callee = "self." + std::string(peek().text);
      ++pos_;
    } else if (!dottedName(callee)) {
      return errorAt(peek(), "expected a call" + found());
    }
    if (!peek().is("(") || !skipGroup() || !atEnd())
      return errorAt((*toks_)[calleeAt], "expected '" + callee + "(...)' alone");
    if (callee == "pytree.tree_leaves") {
      f.treeLeaves = std::move(names);
      return Status::ok();
    }
    if (callee != "fx_pytree.tree_flatten_spec" && callee != "self._in_shuffle_graph")
      return errorAt((*toks_)[calleeAt], "unsupported tuple assignment from '" + callee + "'");
    // The flattened names are the placeholders; the signature's parameters are the module's
    // original arguments.
    std::vector<Pending> inputs;
    for (const std::string &n : names) {
      Pending p{n, n, {}, Argument(), false};
      for (auto &[d, a] : f.declared)
        if (d == n)
          p.annotation = a;
      inputs.push_back(std::move(p));
    }
    f.pending = std::move(inputs);
    return Status::ok();
  }

  Status returnStatement() {
    Frame &f = cur();
    flushPlaceholders();
    ++pos_;
    Argument result;
    if (atEnd()) {
      result = Argument();
    } else if (peek().isIdent("pytree") && peek(1).is(".") && peek(2).isIdent("tree_unflatten") &&
               peek(3).is("(")) {
      // `return pytree.tree_unflatten(out, self._out_spec)`
      pos_ += 4;
      if (peek().isIdent("self") && peek(1).is(".") && peek(2).isIdent("_out_shuffle_graph") &&
          peek(3).is("(")) {
        // _ExportCodeGen: `self._out_shuffle_graph(leaves..., outputs...)`; the leaves are
        // the names `pytree.tree_leaves` bound, not nodes.
        pos_ += 4;
        for (const std::string &leaf : f.treeLeaves) {
          if (!peek().isIdent(leaf))
            return errorAt(peek(), "expected the input leaf '" + leaf + "'" + found());
          ++pos_;
          if (!peek().is(")"))
            FXKIT_TRY(expectPunct(","));
        }
        std::vector<Argument> items;
        while (!eatPunct(")")) {
          Argument v;
          FXKIT_TRY(value(v, 0));
          items.push_back(std::move(v));
          if (!peek().is(")"))
            FXKIT_TRY(expectPunct(","));
        }
        result = Argument::tuple(std::move(items));
      } else if (Status st = value(result, 0); !st) {
        return st;
      }
      FXKIT_TRY(expectPunct(","));
      if (!(peek().isIdent("self") && peek(1).is(".") && peek(2).isIdent("_out_spec")))
        return errorAt(peek(), "expected 'self._out_spec'" + found());
      pos_ += 3;
      FXKIT_TRY(expectPunct(")"));
    } else if (Status st = value(result, 0); !st) {
      return st;
    }
    if (!atEnd())
      return errorAt(peek(), "unexpected text after the return value");
    std::string name = graph().find("output") ? graph().uniqueName("output") : "output";
    graph().create(OpKind::Output, name, "output", Argument::tuple({result}));
    f.stage = Stage::Done;
    return Status::ok();
  }

  Status assignment(Node *&made) {
    Frame &f = cur();
    const Token &nameTok = peek();
    if (nameTok.kind != TK::Ident)
      return errorAt(nameTok, "expected an assignment 'name = ...'");
    ++pos_;
    std::string name(nameTok.text);
    if (!f.flushed && peek().is("=") && peek(1).kind == TK::Ident && pos_ + 2 == toks_->size()) {
      // `l_x_ = L_x_`: Dynamo's rename of a placeholder, right after the signature (FX writes
      // `name = raw_name` where a placeholder's name is not its target).
      std::string_view from = peek(1).text;
      auto renames = [&](const Pending &p) { return rawName(p.target) == from && p.name == from; };
      if (std::any_of(f.pending.begin(), f.pending.end(), renames)) {
        for (const Pending &p : f.pending)
          if (p.name == name)
            return errorAt(nameTok, "'" + name + "' is assigned twice");
        for (Pending &p : f.pending)
          if (renames(p)) {
            p.name = name;
            return Status::ok();
          }
      }
    }
    if (!f.flushed && peek().is("=") && peek(1).isIdent("iter") && peek(2).is("(") &&
        peek(3).kind == TK::Ident && peek(4).is(")") && pos_ + 5 == toks_->size()) {
      // _BoxedCodeGen: `args_iter = iter(args_list)`; the inputs follow as next(args_iter).
      std::string_view list = peek(3).text;
      auto isList = [&](const Pending &p) { return p.target == list; };
      if (std::any_of(f.pending.begin(), f.pending.end(), isList)) {
        f.boxed = true;
        f.boxedIter = name;
        f.pending.clear();
        return Status::ok();
      }
    }
    if (!f.flushed && f.boxed && peek().is("=") && peek(1).isIdent("next") && peek(2).is("(") &&
        peek(3).isIdent(f.boxedIter) && peek(4).is(")") && pos_ + 5 == toks_->size()) {
      for (const Pending &p : f.pending)
        if (p.name == name)
          return errorAt(nameTok, "'" + name + "' is assigned twice");
      f.pending.push_back(Pending{name, name, {}, Argument(), false});
      return Status::ok();
    }
    flushPlaceholders();
    FXKIT_ASSIGN_OR_RETURN(Annotation a, bindingHead(nameTok, name));
    Call call;
    FXKIT_TRY(rhs(call));
    if (!atEnd())
      return errorAt(peek(), "unexpected text after the statement");
    made = createBound(call.op, name, call.target, Argument::tuple(std::move(call.args)),
                       Argument::dict(std::move(call.kwargs)), a);
    return Status::ok();
  }

  struct Call {
    OpKind op = OpKind::CallFunction;
    std::string target;
    std::vector<Argument> args;
    std::vector<std::pair<std::string, Argument>> kwargs;
  };

  /// `self.a.b` or `getattr(self.a, "0").b`: FX's _format_target of a module path.
  bool atModulePath() const {
    return (peek().isIdent("self") && peek(1).is(".")) ||
           (peek().isIdent("getattr") && peek(1).is("(") &&
            (peek(2).isIdent("self") || peek(2).isIdent("getattr")));
  }
  Status modulePath(std::string &out, int depth) {
    if (depth > kMaxDepth)
      return errorAt(peek(), "module path nested too deeply");
    out.clear();
    if (peek().isIdent("getattr")) {
      pos_ += 2;
      FXKIT_TRY(modulePath(out, depth + 1));
      FXKIT_TRY(expectPunct(","));
      const Token &s = peek();
      if (s.kind != TK::String)
        return errorAt(s, "expected an attribute name string" + found());
      ++pos_;
      auto attr = decodePyString(s.text);
      if (!attr)
        return errorAt(s, attr.error().message);
      out += (out.empty() ? "" : ".") + *attr;
      FXKIT_TRY(expectPunct(")"));
    } else {
      ++pos_; // self
    }
    while (peek().is(".") && peek(1).kind == TK::Ident) {
      out += (out.empty() ? "" : ".") + std::string(peek(1).text);
      pos_ += 2;
    }
    // Bare `self` only inside getattr(self, "name"): FX's _format_target of a name that is not an
    // identifier.
    if (out.empty() && depth == 0)
      return errorAt(peek(), "expected an attribute of self" + found());
    return Status::ok();
  }

  /// Right-hand side of a node statement, as FX's code generator writes it.
  Status rhs(Call &call) {
    const Token &t = peek();
    // Unary operators (`-1 * x` is a negative constant times x instead).
    if (const PyOperator *un = findPyOperatorByToken(kPyUnaryOperators, t.text);
        un && t.kind == TK::Punct) {
      size_t start = pos_;
      ++pos_;
      Argument operand;
      FXKIT_TRY(value(operand, 0));
      if (atEnd()) {
        call.target = std::string(un->target);
        call.args.push_back(std::move(operand));
        return Status::ok();
      }
      pos_ = start;
    } else if (atModulePath()) {
      std::string target;
      FXKIT_TRY(modulePath(target, 0));
      call.target = target;
      if (eatPunct("(")) {
        call.op = OpKind::CallModule;
        return callArgs(call);
      }
      call.op = OpKind::GetAttr;
      return Status::ok();
    } else if (t.kind == TK::Ident && graph().find(t.text)) {
      // A value followed by `.method(`, `.attr` or `[index]`.
      Node *base = graph().find(t.text);
      if (peek(1).is(".") && peek(2).kind == TK::Ident) {
        pos_ += 3;
        std::string_view member = (*toks_)[pos_ - 1].text;
        if (eatPunct("(")) {
          call.op = OpKind::CallMethod;
          call.target = std::string(member);
          call.args.push_back(Argument::node(base));
          return callArgs(call);
        }
        call.target = "builtins.getattr";
        call.args = {Argument::node(base), Argument::string(member)};
        return Status::ok();
      }
      if (peek(1).is("[")) {
        pos_ += 2;
        Argument index;
        FXKIT_TRY(value(index, 0));
        FXKIT_TRY(expectPunct("]"));
        call.target = "operator.getitem";
        call.args = {Argument::node(base), std::move(index)};
        return Status::ok();
      }
    } else if (t.isIdent("getattr") && peek(1).is("(") && peek(2).kind == TK::Ident &&
               graph().find(peek(2).text) && peek(3).is(",") && peek(4).kind == TK::String &&
               peek(5).is(")") && peek(6).is("(")) {
      // `getattr(x, "name")(...)`: a method whose name is not an identifier, as FX's
      // _format_target writes it.
      auto method = decodePyString(peek(4).text);
      if (!method)
        return errorAt(peek(4), method.error().message);
      call.op = OpKind::CallMethod;
      call.target = *method;
      call.args.push_back(Argument::node(graph().find(peek(2).text)));
      pos_ += 7;
      return callArgs(call);
    } else if (t.kind == TK::Ident && !isLiteralName(t.text) &&
               (peek(1).is(".") || peek(1).is("("))) {
      // A function call: `torch.ops.aten.add.Tensor(...)`, `getattr(x, 'y')`.
      std::string target;
      dottedName(target);
      if (!eatPunct("("))
        return errorAt(peek(), "expected '(' after '" + target + "'" + found());
      // Names FX's add_global gave: builtins keep theirs (`len`: builtins.len in
      // str(graph)), `_operator.not_` became `_operator_not_`.
      if (isPyBuiltinFunction(target))
        target = "builtins." + target;
      else if (target.starts_with("_operator_") && target.find('.') == std::string::npos)
        target = "operator." + target.substr(10);
      call.target = target;
      return callArgs(call);
    }
    // Binary operator between two values.
    Argument lhs;
    FXKIT_TRY(value(lhs, 0));
    if (peek().is("[") && !atEnd()) {
      // A subscript of a constant: `(a, b)[0]`.
      ++pos_;
      Argument index;
      FXKIT_TRY(value(index, 0));
      FXKIT_TRY(expectPunct("]"));
      call.target = "operator.getitem";
      call.args = {std::move(lhs), std::move(index)};
      return Status::ok();
    }
    const PyOperator *op = binaryOp(peek());
    if (!op) {
      if (atEnd())
        return errorAt(t, "expected a call or an operator expression");
      return errorAt(peek(), "expected an operator" + found());
    }
    ++pos_;
    Argument rhsValue;
    FXKIT_TRY(value(rhsValue, 0));
    call.target = std::string(op->target);
    call.args = {std::move(lhs), std::move(rhsValue)};
    return Status::ok();
  }

  static bool isLiteralName(std::string_view n) {
    return n == "None" || n == "True" || n == "False" || n == "inf" || n == "nan" ||
           n == "device" || n == "slice" || n == "Ellipsis";
  }

  bool dottedName(std::string &out) {
    const Token &first = peek();
    if (first.kind != TK::Ident)
      return false;
    out = std::string(first.text);
    ++pos_;
    while (peek().is(".") && peek(1).kind == TK::Ident) {
      out += ".";
      out += peek(1).text;
      pos_ += 2;
    }
    return true;
  }

  /// `a, b, k = v)` after the '(' of a call.
  Status callArgs(Call &call) {
    if (eatPunct(")"))
      return Status::ok();
    for (;;) {
      if (peek().is("**") && peek(1).is("{")) {
        // `**{'key': value, ...}`: keywords that are not Python names, last in the call.
        const Token &open = peek(1);
        ++pos_;
        Argument spread;
        FXKIT_TRY(value(spread, 1));
        if (spread.kind() != Argument::Kind::Dict)
          return errorAt(open, "expected a dict of keywords after '**'");
        for (size_t i = 0; i < spread.dictSize(); ++i) {
          std::string key(spread.dictKey(i));
          for (const auto &[name, existing] : call.kwargs)
            if (name == key)
              return errorAt(open, "keyword argument '" + key + "' repeated");
          call.kwargs.emplace_back(std::move(key), spread.dictValue(i));
        }
        return expectPunct(")");
      }
      if (peek().kind == TK::Ident && peek(1).is("=")) {
        std::string key(peek().text);
        pos_ += 2;
        Argument v;
        FXKIT_TRY(value(v, 1));
        for (const auto &[k, existing] : call.kwargs)
          if (k == key)
            return errorAt((*toks_)[pos_ - 1], "keyword argument '" + key + "' repeated");
        call.kwargs.emplace_back(std::move(key), std::move(v));
      } else {
        if (!call.kwargs.empty())
          return errorAt(peek(), "positional argument after keyword arguments");
        Argument v;
        FXKIT_TRY(value(v, 1));
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
      if (isOpen(t))
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
        return sliceValue(out, depth);
      if (t.text == "Ellipsis") { // `x[..., 0]` prints `(Ellipsis, 0)`
        ++pos_;
        out = Argument::opaque("Ellipsis");
        return Status::ok();
      }
      if (Node *n = graph().find(t.text); n && !peek(1).is(".") && !peek(1).is("(")) {
        ++pos_;
        out = Argument::node(n);
        return Status::ok();
      }
      if (peek(1).is(".") || peek(1).is("("))
        return namedValue(out);
      for (const Pending &p : cur().pending)
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

  /// A dotted name, perhaps called: `torch.float16`, `torch.contiguous_format`,
  /// `torch.strided`, or another global FX wrote by name (`torch.ops.aten.add.Tensor` as an
  /// argument, an enum member, `torch.Tensor(size=[2], dtype=float32)` for a tensor constant),
  /// kept as written.
  Status namedValue(Argument &out) {
    const Token &t = peek();
    size_t start = pos_;
    std::string name;
    dottedName(name);
    if (peek().is("(")) {
      if (!skipGroup())
        return errorAt((*toks_)[start], "unclosed '(' after '" + name + "'");
      out = Argument::opaque(spanFrom(start));
      return Status::ok();
    }
    if (name.find('.') == std::string::npos)
      return errorAt(t, "undefined name '" + name + "'");
    if (name == "torch.")
      return errorAt(t, "expected a name after 'torch.'");
    if (name.starts_with("torch.")) {
      std::string_view rest = std::string_view(name).substr(6);
      if (auto d = parseDType(rest); d && rest.find('.') == std::string_view::npos) {
        out = Argument::dtype(*d);
        return Status::ok();
      }
      if (rest.ends_with("_format") || rest == "channels_last" || rest == "channels_last_3d") {
        out = Argument::memoryFormat(rest);
        return Status::ok();
      }
      if (rest == "strided" || rest.starts_with("sparse_") || rest == "_mkldnn" ||
          rest == "jagged") {
        out = Argument::layout(rest);
        return Status::ok();
      }
    }
    out = Argument::opaque(name);
    return Status::ok();
  }

  Status number(const Token &t, bool negative, Argument &out) {
    std::string text = (negative ? "-" : "") + std::string(t.text);
    if (t.text.ends_with("j") || t.text.ends_with("J")) {
      out = Argument::opaque(text); // an imaginary literal, kept as written
      return Status::ok();
    }
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
    size_t start = pos_;
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
        FXKIT_TRY(expectPunct(":"));
        Argument v;
        FXKIT_TRY(value(v, depth + 1));
        entries.emplace_back(key.take(), std::move(v));
      } else {
        Argument v;
        FXKIT_TRY(value(v, depth + 1));
        // `(1+2j)`: Python's repr of a complex number, kept as written.
        if (open.is("(") && items.empty() && (peek().is("+") || peek().is("-")) &&
            (peek(1).kind == TK::Float &&
             (peek(1).text.ends_with("j") || peek(1).text.ends_with("J"))) &&
            peek(2).is(")")) {
          pos_ += 3;
          out = Argument::opaque(spanFrom(start));
          return Status::ok();
        }
        items.push_back(std::move(v));
      }
      if (eatPunct(",")) {
        sawComma = true;
        continue;
      }
      FXKIT_TRY(expectPunct(close));
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

  /// slice(start, stop, step), which Dynamo graphs index with (`x[:, :s27]` prints
  /// `l_x_[(slice(None, None, None), slice(None, s27, None))]`): its parts are values, nodes
  /// included, as FX text reads them.
  Status sliceValue(Argument &out, int depth) {
    const Token &start = peek();
    pos_ += 2;
    Argument parts[3];
    for (int k = 0; k < 3; ++k) {
      if (k > 0)
        FXKIT_TRY(expectPunct(","));
      if (atEnd())
        return errorAt(start, "unclosed slice(...)");
      FXKIT_TRY(value(parts[k], depth + 1));
    }
    FXKIT_TRY(expectPunct(")"));
    out = Argument::slice(std::move(parts[0]), std::move(parts[1]), std::move(parts[2]));
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
      } else if (k.text == "index" && v.kind == TK::Int && v.text.size() < 10) {
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

  std::string_view text_;
  std::string file_;
  std::vector<std::unique_ptr<Frame>> frames_;
  std::optional<Graph> root_;
  mutable Token endToken_{TK::End, {}, 0, 0};
};

} // namespace

Expected<Graph> parseReadablePy(std::string_view text, const std::string &fileName) {
  return ReadableParser(text, fileName).parse();
}

} // namespace fxkit
