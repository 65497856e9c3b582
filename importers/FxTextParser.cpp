/// \file FX graph text reader: a line-at-a-time recursive-descent parser.
///
/// Every FX node is one physical line, so the parser scans each line directly instead of
/// building a token vector for the whole file: errors stay on the line they belong to
/// (an unbalanced bracket cannot swallow the rest of the file, as Python's implicit line
/// joining would), and memory stays at the graph itself (no 32-byte token per word).
/// The UTF-8 check is PyLexer's; string literals in `return` lines use PyLexer's decoder.

#include "importers/FxTextParser.h"

#include <algorithm>

#include "ir/StringPool.h"
#include "ir/Try.h"
#include "ir/UnknownOpPositions.h"
#include "ir/Verifier.h"
#include "ir/ops/OpRegistry.h"
#include "support/FxTextSyntax.h"
#include "support/PyLexer.h"

#include <array>
#include <charconv>
#include <cstring>
#include <optional>

namespace fxkit {

namespace {

bool isIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
bool isDigit(char c) { return c >= '0' && c <= '9'; }

/// Device types PyTorch knows; a bare word of this form is a device even outside `device=`.
bool isDeviceType(std::string_view t) {
  static constexpr std::string_view kTypes[] = {"cpu", "cuda", "meta", "mps",  "xpu",
                                                "hip", "xla",  "mtia", "hpu",  "privateuseone",
                                                "ipu", "lazy", "maia", "fpga", "vulkan"};
  for (std::string_view k : kTypes)
    if (k == t)
      return true;
  return false;
}

/// A bare word FX text reads as a device: any word under the key `device`, else one whose
/// type PyTorch knows (`cuda:0`); only canonical spellings.
bool readsAsDevice(std::string_view t, std::string_view key) {
  if (key != "device" && !isDeviceType(t.substr(0, t.find(':'))))
    return false;
  auto d = Device::parse(t);
  return d && d->str() == t;
}

/// Snippets of pathological lines (a 10 MB line) are cut, as sourceLine() does.
std::string snippetOf(std::string_view line) {
  return std::string(line.substr(0, std::min<size_t>(line.size(), 200)));
}

/// Parses one graph text; holds the state shared by the line parsers.
class Parser {
public:
  Parser(std::string_view text, const std::string &file, const FxTextParseOptions &options,
         Graph &graph)
      : text_(text), file_(file), options_(options), graph_(graph) {}

  /// Fills the graph given to the constructor.
  Status run();

private:
  // ---- errors ----
  /// Records an error at byte `at` of the current line; returns false for `return fail(..)`.
  bool fail(std::string msg, size_t at) {
    if (!err_)
      err_ = Error(std::move(msg), SourceLoc{file_, lineNo_, static_cast<int>(at) + 1},
                   snippetOf(line_));
    return false;
  }

  // ---- character helpers on the current line ----
  bool atEnd() const { return pos_ >= line_.size(); }
  char peek() const { return pos_ < line_.size() ? line_[pos_] : '\0'; }
  bool consume(std::string_view lit) {
    if (line_.substr(pos_, lit.size()) != lit)
      return false;
    pos_ += lit.size();
    return true;
  }
  bool expect(std::string_view lit, const char *what) {
    if (consume(lit))
      return true;
    // A line cut inside the literal is a truncated line, not a wrong word.
    if (lit.starts_with(line_.substr(pos_)))
      return fail(std::string("unexpected end of line: expected ") + what, line_.size());
    return fail(std::string("expected ") + what, pos_);
  }
  std::string_view identAt(size_t start) const {
    size_t e = start;
    while (e < line_.size() && isIdentChar(line_[e]))
      ++e;
    return line_.substr(start, e - start);
  }

  // ---- grammar ----
  bool parseNodeLine();
  bool parseReturnLine();
  bool parseValue(Argument &out, int depth, std::string_view key, bool repr);
  bool parseContainer(Argument &out, int depth, bool repr);
  bool parseScalar(Argument &out, std::string_view key, bool repr);
  bool classify(Argument &out, std::string_view t, std::string_view key, bool repr, size_t at);
  bool classifySlice(Argument &out, std::string_view t, size_t at);
  bool lookupNode(std::string_view name, size_t at, Node *&out);
  /// The dict key printFxText quotes (one that would not read back bare), spelled as Python's
  /// repr from pos_ to `end` and followed by ": "; nullopt for anything else (bare text).
  std::optional<std::string> quotedKeyAt(size_t end) const {
    if (end == std::string_view::npos || line_.substr(end + 1, 2) != ": ")
      return std::nullopt;
    std::string_view spelling = line_.substr(pos_, end + 1 - pos_);
    auto key = decodePyString(spelling);
    if (!key || fxBareDictKeyReadsBack(*key) || pyStringRepr(*key) != spelling)
      return std::nullopt;
    return *key;
  }

  std::string_view text_;
  const std::string &file_;
  FxTextParseOptions options_;
  Graph &graph_;
  std::optional<Error> err_;
  std::string_view line_; ///< current line, without its newline
  int lineNo_ = 0;
  std::string_view lastLine_; ///< last non-blank line, where a missing `return` is reported
  int lastLineNo_ = 0;
  size_t pos_ = 0;
  bool seenReturn_ = false;
  /// The last nodes defined, most recent at recent_[recentNext_ - 1] (a ring).
  std::array<Node *, 8> recent_{};
  size_t recentNext_ = 0;
  /// Items of the containers being parsed, innermost last: each container then allocates
  /// its exact size once instead of growing a vector of its own.
  std::vector<Argument> stack_;
};

bool Parser::lookupNode(std::string_view name, size_t at, Node *&out) {
  // Most uses name one of the last few nodes (chains of pointwise ops): checking those first
  // saves a cache-missing hash lookup in graphs of millions of nodes.
  for (Node *r : recent_)
    if (r && r->name() == name) {
      out = r;
      return true;
    }
  out = graph_.find(name);
  if (out)
    return true;
  if (name.empty())
    return fail("expected a node name after '%'", at + 1);
  if (!options_.partial)
    return fail("use of undefined node '%" + std::string(name) + "'", at);
  // Fragments reference nodes printed elsewhere: stand in placeholders, ahead of everything.
  out = graph_.create(OpKind::Placeholder, std::string(name), name, Argument(), Argument(),
                      graph_.front());
  return true;
}

bool Parser::parseValue(Argument &out, int depth, std::string_view key, bool repr) {
  char c = peek();
  if (c == '[' || c == '(' || c == '{') {
    if (depth >= kFxTextMaxNesting)
      return fail("brackets nested too deeply (more than " + std::to_string(kFxTextMaxNesting) +
                      " levels)",
                  pos_);
    return parseContainer(out, depth + 1, repr);
  }
  if (c == '%' && !repr) {
    size_t at = pos_;
    std::string_view name = identAt(pos_ + 1);
    Node *n;
    if (!lookupNode(name, at, n))
      return false;
    pos_ += 1 + name.size();
    out = Argument::node(n);
    return true;
  }
  return parseScalar(out, key, repr);
}

bool Parser::parseContainer(Argument &out, int depth, bool repr) {
  size_t open = pos_;
  char o = line_[pos_++];
  char close = o == '[' ? ']' : o == '(' ? ')' : '}';
  size_t base = stack_.size();
  auto unclosed = [&] {
    return fail(std::string("unexpected end of line: unclosed '") + o + "'", open);
  };
  if (consume(std::string_view(&close, 1))) {
    out = o == '[' ? Argument::list({}) : o == '(' ? Argument::tuple({}) : Argument::dict({});
    return true;
  }
  for (;;) {
    if (atEnd())
      return unclosed();
    std::string_view key;
    if (o == '{') {
      // Keys: FX prints str(key) bare; the `return` line prints repr(key), quoted.
      size_t kstart = pos_;
      Argument k;
      size_t kend = peek() == '\'' || peek() == '"' ? pyStringLiteralEnd(line_, pos_)
                                                    : std::string_view::npos;
      if (repr && (peek() == '\'' || peek() == '"')) {
        if (!parseScalar(k, {}, true))
          return false;
      } else if (std::optional<std::string> quoted = quotedKeyAt(kend)) {
        // A key fxkit quoted because it would not read back bare (printFxText).
        k = Argument::string(*quoted);
        pos_ = kend + 1;
      } else {
        size_t colon = line_.find(':', pos_);
        if (colon == std::string_view::npos)
          return atEnd() ? unclosed() : fail("expected 'key: value' in a dict", pos_);
        k = Argument::string(line_.substr(pos_, colon - pos_));
        pos_ = colon;
      }
      if (k.kind() != Argument::Kind::String)
        return fail("dict keys must be names or strings", kstart);
      key = k.asString();
      if (!consume(": "))
        return atEnd() ? unclosed() : fail("expected ': ' after a dict key", pos_);
      stack_.push_back(std::move(k));
    }
    if (atEnd())
      return unclosed();
    Argument v;
    if (!parseValue(v, depth, key, repr))
      return false;
    stack_.push_back(std::move(v));
    if (consume(std::string_view(&close, 1)))
      break;
    if (consume(",")) {
      consume(" ");
      // `(a,)`: the 1-tuple's trailing comma.
      if (o == '(' && consume(")"))
        break;
      continue;
    }
    if (atEnd())
      return unclosed();
    char c = peek();
    if (c == ')' || c == ']' || c == '}')
      return fail(std::string("mismatched '") + c + "': expected '" + close + "' to close the '" +
                      o + "' at column " + std::to_string(open + 1),
                  pos_);
    return fail(std::string("expected ',' or '") + close + "'", pos_);
  }
  std::vector<Argument> items(std::make_move_iterator(stack_.begin() + base),
                              std::make_move_iterator(stack_.end()));
  stack_.resize(base);
  if (o == '[') {
    out = Argument::list(std::move(items));
  } else if (o == '(') {
    out = Argument::tuple(std::move(items));
  } else {
    out = Argument::dict({});
    out.items() = std::move(items);
  }
  return true;
}

bool Parser::parseScalar(Argument &out, std::string_view key, bool repr) {
  size_t start = pos_;
  char c = peek();
  // A Python string literal: the `return` line prints repr(); elsewhere FX prints str() bare,
  // and fxkit quotes the strings that would not read back bare (printFxText). Outside `return`,
  // only what printFxText writes is a literal (Python's repr of a string that needs quotes, right
  // before a delimiter); any other quote is bare text as str() printed it, so that such text
  // still prints back byte for byte.
  size_t i = c == '\'' || c == '"' ? pyStringLiteralEnd(line_, pos_) : std::string_view::npos;
  if (repr && (c == '\'' || c == '"') && i == std::string_view::npos)
    return fail("unterminated string", start);
  if (!repr && i != std::string_view::npos && i + 1 < line_.size() &&
      std::string_view(",)]}").find(line_[i + 1]) == std::string_view::npos)
    i = std::string_view::npos;
  if (i != std::string_view::npos) {
    std::string_view spelling = line_.substr(start, i + 1 - start);
    auto s = decodePyString(spelling);
    if (repr && !s)
      return fail(s.error().message, start);
    if (repr || (s && !fxStringPrintsBare(*s) && pyStringRepr(*s) == spelling)) {
      pos_ = i + 1;
      out = Argument::string(*s);
      return true;
    }
  }
  // FX prints scalars with str(): the text runs to the next ',' or closing bracket outside
  // any brackets of its own (`slice(None, None, None)`).
  int depth = 0;
  i = pos_;
  size_t lastOpen = 0;
  for (; i < line_.size(); ++i) {
    char d = line_[i];
    if (d == '(' || d == '[' || d == '{') {
      if (depth == 0)
        lastOpen = i;
      ++depth;
    } else if (d == ')' || d == ']' || d == '}') {
      if (depth == 0)
        break;
      --depth;
    } else if (d == ',' && depth == 0) {
      break;
    }
  }
  if (depth > 0)
    return fail(std::string("unexpected end of line: unclosed '") + line_[lastOpen] + "'",
                lastOpen);
  std::string_view t = line_.substr(start, i - start);
  if (t.empty())
    return fail(atEnd() ? "unexpected end of line: expected a value" : "expected a value", start);
  if (!classify(out, t, key, repr, start))
    return false;
  pos_ = i;
  return true;
}

bool Parser::classify(Argument &out, std::string_view t, std::string_view key, bool repr,
                      size_t at) {
  char c0 = t[0];
  if (isDigit(c0) || c0 == '-' || c0 == '.' || t == "inf" || t == "nan") {
    size_t digits = c0 == '-' ? 1 : 0;
    bool allDigits = t.size() > digits;
    for (size_t k = digits; k < t.size() && allDigits; ++k)
      allDigits = isDigit(t[k]);
    if (allDigits) {
      int64_t v = 0;
      auto r = std::from_chars(t.data(), t.data() + t.size(), v);
      char buf[24];
      auto w = std::to_chars(buf, buf + sizeof buf, v);
      // Out-of-range or non-canonical integers (Python ints are unbounded) stay verbatim.
      if (r.ec == std::errc() && std::string_view(buf, w.ptr - buf) == t)
        out = Argument::integer(v);
      else
        out = Argument::opaque(t);
      return true;
    }
    bool floatChars = true;
    for (char d : t)
      floatChars = floatChars && (isDigit(d) || d == '.' || d == 'e' || d == 'E' || d == '+' ||
                                  d == '-' || d == 'i' || d == 'n' || d == 'f' || d == 'a');
    if (floatChars) {
      double v = 0;
      auto r = std::from_chars(t.data(), t.data() + t.size(), v);
      if (r.ec == std::errc() && r.ptr == t.data() + t.size() && pyFloatRepr(v) == t) {
        out = Argument::floating(v);
        return true;
      }
    }
    out = Argument::opaque(t);
    return true;
  }
  if (t == "True" || t == "False") {
    out = Argument::boolean(t[0] == 'T');
    return true;
  }
  if (t == "None") {
    out = Argument::none();
    return true;
  }
  if (repr && isIdentChar(c0) && identAt(at).size() == t.size()) {
    // In `return (a, b)` nodes print by name, without '%'.
    Node *n;
    if (!lookupNode(t, at, n))
      return false;
    out = Argument::node(n);
    return true;
  }
  if (t.starts_with("torch."))
    if (auto c = fxTorchConstant(t.substr(6))) {
      out = std::move(*c);
      return true;
    }
  if (readsAsDevice(t, key)) {
    out = Argument::device(*Device::parse(t));
    return true;
  }
  if (t.starts_with("slice(") && t.ends_with(")"))
    return classifySlice(out, t, at);
  if (t == "Ellipsis" || t.find_first_of(kFxNotInBareString) != std::string_view::npos) {
    out = Argument::opaque(t);
    return true;
  }
  out = Argument::string(t);
  return true;
}

/// `slice(0, s27, None)`: FX prints a slice with str(), so its parts appear as repr() does,
/// nodes by bare name (Dynamo's subscripts with symbolic bounds). Anything but three plain
/// parts stays opaque text.
bool Parser::classifySlice(Argument &out, std::string_view t, size_t at) {
  constexpr size_t open = 6; // "slice("
  std::string_view inner = t.substr(open, t.size() - open - 1);
  if (inner.find_first_of("()[]{}'\"") != std::string_view::npos) {
    out = Argument::opaque(t);
    return true;
  }
  Argument parts[3];
  size_t begin = 0;
  for (int k = 0; k < 3; ++k) {
    size_t comma = inner.find(',', begin);
    if ((k < 2) != (comma != std::string_view::npos)) {
      out = Argument::opaque(t);
      return true;
    }
    size_t end = k < 2 ? comma : inner.size();
    size_t from = begin;
    while (from < end && inner[from] == ' ')
      ++from;
    std::string_view part = inner.substr(from, end - from);
    if (part.empty() || part.back() == ' ') {
      out = Argument::opaque(t);
      return true;
    }
    if (!classify(parts[k], part, "", /*repr=*/true, at + open + from))
      return false;
    begin = end + 1;
  }
  out = Argument::slice(std::move(parts[0]), std::move(parts[1]), std::move(parts[2]));
  return true;
}

bool Parser::parseNodeLine() {
  size_t at = pos_;
  ++pos_; // '%'
  std::string_view name = identAt(pos_);
  if (name.empty())
    return fail("expected a node name after '%'", pos_);
  pos_ += name.size();
  if (graph_.find(name)) {
    // A partial graph may have made a stand-in placeholder for a forward use.
    return fail("node '%" + std::string(name) + "' is defined twice", at);
  }
  if (!expect(" : ", "' : ' after the node name"))
    return false;

  // Optional type: `Tensor "<TensorType>"` (Inductor comments) or a Python type name.
  std::optional<TensorType> tensorType;
  std::optional<SymExpr> symValue;
  std::string_view pythonType;
  if (consume("Tensor \"")) {
    size_t q = line_.find('"', pos_);
    if (q == std::string_view::npos)
      return fail("unterminated tensor type annotation", pos_ - 1);
    auto tt = TensorType::parse(line_.substr(pos_, q - pos_));
    if (!tt) {
      const Error &e = tt.error();
      return fail(e.message, pos_ + static_cast<size_t>(std::max(e.loc.col, 1) - 1));
    }
    tensorType = tt.take();
    pos_ = q + 1;
  } else if (consume("Sym(")) {
    // `Sym(<expr>)`: the expression may hold parentheses (`Sym(Max(1, s0))`).
    size_t open = pos_ - 1, q = pos_;
    for (int depth = 1; depth > 0; ++q) {
      if (q >= line_.size())
        return fail("unterminated Sym(...) annotation", open - 3);
      depth += line_[q] == '(' ? 1 : line_[q] == ')' ? -1 : 0;
    }
    auto e = SymExpr::parse(line_.substr(pos_, q - 1 - pos_));
    if (!e) {
      const Error &err = e.error();
      return fail("bad Sym(...) annotation: " + err.message,
                  pos_ + static_cast<size_t>(std::max(err.loc.col, 1) - 1));
    }
    symValue = e.take();
    pos_ = q;
  } else if (peek() != '[') {
    size_t nu = line_.find(" [num_users=", pos_);
    size_t eq = line_.find(" = ", pos_);
    size_t end = std::min(nu, eq);
    if (end == std::string_view::npos)
      return fail("expected '[num_users=N]' or ' = ' after the node type", pos_);
    pythonType = line_.substr(pos_, end - pos_);
    pos_ = end + (end == nu ? 1 : 0);
  }
  // `[num_users=N]` is informational (FX recomputes users), and Inductor's comments leave
  // it out on placeholders: read it, do not hold the graph to it.
  if (consume("[num_users=")) {
    size_t d = pos_;
    while (isDigit(peek()))
      ++pos_;
    if (d == pos_)
      return fail("expected a number after 'num_users='", pos_);
    if (!expect("]", "']' after num_users"))
      return false;
  }
  if (!expect(" = ", "' = ' before the op"))
    return false;

  size_t opAt = pos_;
  std::string_view opText = identAt(pos_);
  std::optional<OpKind> op = opText == "PlaceHolder" ? OpKind::Placeholder : parseOpKind(opText);
  if (!op || *op == OpKind::Output)
    return fail("unknown op kind '" + std::string(opText) + "'", opAt);
  // A placeholder may follow other nodes (torch.export's unlifted module reads its get_attr
  // nodes first): Graph.lint allows it, and so does verifyGraph.
  pos_ += opText.size();
  if (!expect("[target=", "'[target=' after the op"))
    return false;

  // The target is printed verbatim and may hold brackets; find where the node's tail starts.
  std::string_view target;
  Argument args, kwargs;
  bool calls =
      *op == OpKind::CallFunction || *op == OpKind::CallMethod || *op == OpKind::CallModule;
  if (calls) {
    size_t e = line_.find("](args = ", pos_);
    if (e == std::string_view::npos)
      return fail("expected '](args = ...' after the target", pos_);
    target = line_.substr(pos_, e - pos_);
    pos_ = e + 9;
    if (peek() != '(')
      return fail(atEnd() ? "unexpected end of line: expected the args tuple"
                          : "expected the args tuple",
                  pos_);
    if (!parseValue(args, 0, {}, false))
      return false;
    if (!expect(", kwargs = ", "', kwargs = '"))
      return false;
    if (peek() != '{')
      return fail(atEnd() ? "unexpected end of line: expected the kwargs dict"
                          : "expected the kwargs dict",
                  pos_);
    if (!parseValue(kwargs, 0, {}, false))
      return false;
    if (!expect(")", "')' after the kwargs"))
      return false;
  } else {
    size_t e = *op == OpKind::Placeholder ? line_.find("](default=", pos_) : line_.npos;
    if (e != std::string_view::npos) {
      target = line_.substr(pos_, e - pos_);
      pos_ = e + 10;
      Argument def;
      if (!parseValue(def, 0, {}, false))
        return false;
      if (!expect(")", "')' after the default value"))
        return false;
      std::vector<Argument> one;
      one.push_back(std::move(def));
      args = Argument::tuple(std::move(one));
    } else {
      if (line_.empty() || line_.back() != ']' || line_.size() - 1 < pos_)
        return fail("unexpected end of line: expected ']' after the target", line_.size());
      target = line_.substr(pos_, line_.size() - 1 - pos_);
      pos_ = line_.size();
    }
  }
  if (!atEnd())
    return fail("unexpected text after the node", pos_);
  if (target.empty())
    return fail("empty target", opAt + opText.size() + 8);

  Node *n = graph_.create(*op, std::string(name), target, std::move(args), std::move(kwargs));
  recent_[recentNext_++ % recent_.size()] = n;
  // A target the op table does not know: where it is, for shape inference's error.
  if (*op == OpKind::CallFunction && !OpRegistry::instance().lookup(n->target()))
    recordUnknownOp(graph_, n->name(),
                    SourceLoc{file_, lineNo_, static_cast<int>(opAt + opText.size() + 8) + 1});
  if (!pythonType.empty())
    n->setPythonType(pythonType);
  if (tensorType) {
    n->setPythonType(kFxTensorAnnotationType);
    n->value().v = std::move(*tensorType);
  }
  if (symValue) {
    n->setPythonType(kFxSymAnnotationType);
    n->value().v = std::move(*symValue);
  }
  return true;
}

bool Parser::parseReturnLine() {
  Argument v;
  if (atEnd())
    return fail("unexpected end of line: expected the returned value", pos_);
  if (!parseValue(v, 0, {}, true))
    return false;
  if (!atEnd())
    return fail("unexpected text after the returned value", pos_);
  std::vector<Argument> one;
  one.push_back(std::move(v));
  graph_.create(OpKind::Output, graph_.find("output") ? graph_.uniqueName("output") : "output",
                "output", Argument::tuple(std::move(one)));
  seenReturn_ = true;
  return true;
}

Status Parser::run() {
  FXKIT_TRY(validateUtf8(text_, file_));
  bool seenHeader = false;
  size_t start = 0;
  while (start <= text_.size()) {
    size_t nl = text_.find('\n', start);
    size_t end = nl == std::string_view::npos ? text_.size() : nl;
    line_ = text_.substr(start, end - start);
    ++lineNo_;
    start = end + 1;
    if (!line_.empty() && line_.back() == '\r')
      line_.remove_suffix(1);
    pos_ = 0;
    while (pos_ < line_.size() && (line_[pos_] == ' ' || line_[pos_] == '\t'))
      ++pos_;
    if (atEnd() || (options_.partial && peek() == '#'))
      continue; // blank line
    lastLine_ = line_;
    lastLineNo_ = lineNo_;
    if (!seenHeader) {
      seenHeader = true;
      if (pos_ == 0 && line_ == "graph():")
        continue;
      if (!options_.partial) {
        fail("expected 'graph():' at the start of FX graph text", pos_);
        return Status(std::move(*err_));
      }
    }
    if (seenReturn_) {
      fail("unexpected text after the 'return' line", pos_);
      return Status(std::move(*err_));
    }
    bool ok;
    if (peek() == '%')
      ok = parseNodeLine();
    else if (consume("return ") || line_.substr(pos_) == "return")
      ok = parseReturnLine();
    else
      ok = fail("expected a node ('%name : ...') or 'return'", pos_);
    if (!ok)
      return Status(std::move(*err_));
  }
  if (!seenHeader && !options_.partial)
    return Error("empty input: expected 'graph():'", SourceLoc{file_, 1, 1}, "");
  if (options_.partial)
    return Status::ok();
  if (!seenReturn_) {
    line_ = lastLine_;
    lineNo_ = lastLineNo_;
    fail("missing 'return' line at the end of the graph", line_.size());
    return Status(std::move(*err_));
  }
  if (Status st = verifyGraph(graph_); !st) {
    Error e = st.takeError();
    e.loc.file = file_;
    return e;
  }
  return Status::ok();
}

} // namespace

Expected<Graph> parseFxText(std::string_view text, const std::string &fileName,
                            const FxTextParseOptions &options) {
  // The graph is built inside the result and returned by NRVO: moving a Graph walks all of
  // its nodes (each points back at its graph), a measurable cost at a million nodes.
  Expected<Graph> result{Graph()};
  result->reserve(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1);
  Parser p(text, fileName, options, *result);
  if (Status st = p.run(); !st)
    result = Expected<Graph>(st.takeError());
  return result;
}

Expected<Graph> parseFxText(std::string_view text, const std::string &fileName) {
  return parseFxText(text, fileName, FxTextParseOptions());
}

} // namespace fxkit
