#include "importers/inductor/SchedulerDump.h"

#include "ir/Try.h"
#include "ir/Verifier.h"
#include "support/PyLexer.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace fxkit {

using namespace inductor;

namespace inductor {

std::string_view scheduleNodeKindName(ScheduleNodeKind kind) {
  switch (kind) {
  case ScheduleNodeKind::Scheduler:
    return "SchedulerNode";
  case ScheduleNodeKind::ExternKernel:
    return "ExternKernelSchedulerNode";
  case ScheduleNodeKind::NopKernel:
    return "NopKernelSchedulerNode";
  case ScheduleNodeKind::Fused:
    return "FusedSchedulerNode";
  case ScheduleNodeKind::Foreach:
    return "ForeachKernelSchedulerNode";
  }
  return "?";
}

std::vector<const ScheduleDep *> ScheduleNode::reads() const {
  std::vector<const ScheduleDep *> out;
  for (const ScheduleDep &d : unmetDependencies)
    out.push_back(&d);
  for (const ScheduleDep &d : metDependencies)
    out.push_back(&d);
  return out;
}

void ScheduleNode::leaves(std::vector<const ScheduleNode *> &out) const {
  if (!isGroup()) {
    out.push_back(this);
    return;
  }
  // Groups nest at most a few levels (the parser limits the depth), so recursion is bounded.
  for (const ScheduleNode &m : members)
    m.leaves(out);
}

} // namespace inductor

std::vector<const ScheduleNode *> InductorSchedule::leaves() const {
  std::vector<const ScheduleNode *> out;
  for (const ScheduleNode &n : nodes)
    n.leaves(out);
  return out;
}

size_t InductorSchedule::groupCount() const {
  return static_cast<size_t>(
      std::count_if(nodes.begin(), nodes.end(), [](const ScheduleNode &n) { return n.isGroup(); }));
}

namespace {

/// Scheduler nodes nest only as FusedSchedulerNode members (and, for foreach kernels, one
/// more level); anything deeper is not a dump Inductor writes.
constexpr int kMaxNodeDepth = 8;
/// Brackets inside one printed value (a layout, a dependency): Inductor's are a few deep.
constexpr int kMaxBracketDepth = 64;

std::optional<ScheduleNodeKind> parseNodeKind(std::string_view s) {
  if (s == "SchedulerNode")
    return ScheduleNodeKind::Scheduler;
  if (s == "ExternKernelSchedulerNode")
    return ScheduleNodeKind::ExternKernel;
  if (s == "NopKernelSchedulerNode")
    return ScheduleNodeKind::NopKernel;
  if (s == "FusedSchedulerNode")
    return ScheduleNodeKind::Fused;
  if (s == "ForeachKernelSchedulerNode")
    return ScheduleNodeKind::Foreach;
  return std::nullopt;
}

bool isIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Reads the dump with a cursor over the whole text. The dump is line-structured (one field
/// per line, node after node), but pformat wraps long values over several lines, so values are
/// read with a cursor that skips newlines inside brackets.
class DumpReader {
public:
  DumpReader(std::string_view text, const std::string &file) : text_(text), file_(file) {
    lineStarts_.push_back(0);
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n')
        lineStarts_.push_back(i + 1);
  }

  Expected<InductorSchedule> read();

private:
  // --- positions and errors ---
  int lineOf(size_t pos) const {
    auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), pos);
    return static_cast<int>(it - lineStarts_.begin());
  }
  int colOf(size_t pos) const { return static_cast<int>(pos - lineStarts_[lineOf(pos) - 1]) + 1; }
  Error error(size_t pos, std::string message) const {
    int line = lineOf(pos);
    return Error(std::move(message), SourceLoc{file_, line, colOf(pos)},
                 std::string(sourceLine(text_, line)));
  }
  /// What is at pos, for messages.
  std::string found(size_t pos) const {
    if (pos >= text_.size())
      return "end of file";
    if (text_[pos] == '\n' || text_[pos] == '\r')
      return "end of line";
    return "'" + std::string(1, text_[pos]) + "'";
  }

  // --- lines ---
  bool atEnd() const { return pos_ >= text_.size(); }
  size_t lineEnd(size_t p) const {
    size_t e = text_.find('\n', p);
    return e == std::string_view::npos ? text_.size() : e;
  }
  std::string_view lineAt(size_t p) const {
    std::string_view l = text_.substr(p, lineEnd(p) - p);
    if (!l.empty() && l.back() == '\r')
      l.remove_suffix(1);
    return l;
  }
  bool lineIsBlank(size_t p) const {
    return lineAt(p).find_first_not_of(" \t") == std::string_view::npos;
  }
  void nextLine() {
    size_t e = lineEnd(pos_);
    pos_ = e == text_.size() ? e : e + 1;
  }
  void skipBlankLines() {
    while (!atEnd() && lineIsBlank(pos_))
      nextLine();
  }
  /// The rest of the current line, trimmed at the end; moves to the next line.
  std::string restOfLine() {
    std::string_view l = lineAt(pos_);
    size_t last = l.find_last_not_of(" \t");
    std::string out(last == std::string_view::npos ? std::string_view() : l.substr(0, last + 1));
    nextLine();
    return out;
  }

  // --- tokens ---
  void skipSpaces() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t'))
      ++pos_;
  }
  /// Spaces and line breaks: inside brackets pformat may break lines anywhere.
  void skipWs() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }
  bool accept(std::string_view s) {
    if (text_.substr(pos_, s.size()) != s)
      return false;
    pos_ += s.size();
    return true;
  }
  Status expect(std::string_view s) {
    if (accept(s))
      return Status::ok();
    return error(pos_, "expected '" + std::string(s) + "', found " + found(pos_));
  }
  Expected<std::string> ident(std::string_view what = "a name") {
    size_t start = pos_;
    if (pos_ >= text_.size() || !isIdentStart(text_[pos_]))
      return error(pos_, "expected " + std::string(what) + ", found " + found(pos_));
    while (pos_ < text_.size() && isIdentChar(text_[pos_]))
      ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }
  /// `'...'` as Python's repr prints names: no escapes occur in buffer or node names, but a
  /// backslash is taken as an escape so the string ends where Python's would.
  Expected<std::string> pyString() {
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"'))
      return error(pos_, "expected a quoted string, found " + found(pos_));
    size_t start = pos_;
    char q = text_[pos_++];
    while (pos_ < text_.size() && text_[pos_] != q && text_[pos_] != '\n')
      pos_ += text_[pos_] == '\\' ? 2 : 1;
    if (pos_ >= text_.size() || text_[pos_] != q)
      return error(start, "unterminated string");
    ++pos_;
    auto v = decodePyString(text_.substr(start, pos_ - start));
    if (!v)
      return error(start, v.error().message);
    return v.take();
  }
  /// A quoted buffer name (`'buf0'`, `'primals_1'`): Inductor names buffers as the Python
  /// variables of its wrapper, so anything but an identifier is a damaged file (and would make
  /// a graph node whose name FX text cannot print back).
  Expected<std::string> bufferName() {
    size_t start = pos_;
    FXKIT_ASSIGN_OR_RETURN(auto name, pyString());
    bool ok = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
    for (char c : name)
      ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
    if (!ok)
      return error(start, "buffer name " + std::string(text_.substr(start, pos_ - start)) +
                              " is not an identifier");
    return name;
  }
  /// Text up to a top-level character of `stops`, a closing bracket that closes an enclosing
  /// value, or the end of the line; brackets inside are balanced. Trailing spaces dropped.
  Expected<std::string_view> raw(std::string_view stops, std::string_view what) {
    size_t start = pos_;
    std::string closers;
    while (pos_ < text_.size() && text_[pos_] != '\n' && text_[pos_] != '\r') {
      char c = text_[pos_];
      if (closers.empty() && stops.find(c) != std::string_view::npos)
        break;
      if (c == '(' || c == '[' || c == '{') {
        if (closers.size() >= kMaxBracketDepth)
          return error(pos_, "brackets nested too deeply");
        closers.push_back(c == '(' ? ')' : c == '[' ? ']' : '}');
      } else if (c == ')' || c == ']' || c == '}') {
        if (closers.empty())
          break;
        if (c != closers.back())
          return error(pos_, "unbalanced '" + std::string(1, c) + "'");
        closers.pop_back();
      } else if (c == '\'' || c == '"') {
        FXKIT_TRY(pyString());
        continue;
      }
      ++pos_;
    }
    if (!closers.empty())
      return error(pos_, "expected '" + std::string(1, closers.back()) + "', found " + found(pos_));
    std::string_view out = text_.substr(start, pos_ - start);
    size_t last = out.find_last_not_of(" \t");
    out = last == std::string_view::npos ? std::string_view() : out.substr(0, last + 1);
    if (out.empty())
      return error(start, "expected " + std::string(what) + ", found " + found(start));
    return out;
  }
  /// A sympy expression as Inductor prints it (`1024*d0 + d1`, `ModularIndexing(c0, 1, 64)`).
  Expected<SymExpr> symExpr(std::string *spelling = nullptr) {
    size_t start = pos_;
    FXKIT_ASSIGN_OR_RETURN(auto text, raw(",:)]}", "a symbolic expression"));
    auto e = SymExpr::parse(text);
    if (!e)
      return error(start + std::max(e.error().loc.col, 1) - 1, e.error().message);
    if (spelling)
      *spelling = std::string(text);
    return e.take();
  }
  Expected<bool> boolean() {
    if (accept("True"))
      return true;
    if (accept("False"))
      return false;
    return error(pos_, "expected True or False, found " + found(pos_));
  }
  /// Spaces, then the end of the line (consumed).
  Status endOfLine() {
    skipSpaces();
    if (accept("\r\n") || accept("\n") || atEnd())
      return Status::ok();
    return error(pos_, "unexpected " + found(pos_) + " at the end of the line");
  }
  /// After `= `: pformat puts a value that does not fit on the line on the next one.
  void valueStart() {
    skipSpaces();
    if (pos_ < text_.size() && (text_[pos_] == '\n' || text_[pos_] == '\r'))
      skipWs();
  }
  /// `(a, b)`, `[a, b]`, `(a,)`, `()` of symbolic expressions.
  Expected<std::vector<SymExpr>> symSequence() {
    char close;
    if (accept("("))
      close = ')';
    else if (accept("["))
      close = ']';
    else
      return error(pos_, "expected '(' or '[', found " + found(pos_));
    std::vector<SymExpr> out;
    FXKIT_TRY(itemsUntil(close, [&]() -> Status {
      FXKIT_ASSIGN_OR_RETURN(auto e, symExpr());
      out.push_back(e);
      return Status::ok();
    }));
    return out;
  }
  /// `item, item, ...` up to `close` (consumed), after the opening bracket, with an optional
  /// trailing comma, over any number of lines; item() consumes one item.
  template <typename Fn> Status itemsUntil(char close, Fn &&item) {
    skipWs();
    while (!accept(std::string_view(&close, 1))) {
      FXKIT_TRY(item());
      skipWs();
      if (accept(",")) {
        skipWs();
        continue;
      }
      if (pos_ >= text_.size() || text_[pos_] != close)
        return error(pos_, "expected ',' or '" + std::string(1, close) + "', found " + found(pos_));
    }
    return Status::ok();
  }
  /// `[item, item, ...]` with an optional trailing comma, over any number of lines.
  template <typename Fn> Status list(Fn &&item) {
    FXKIT_TRY(expect("["));
    return itemsUntil(']', item);
  }
  /// `key=value, ...)` of a dataclass repr, after its '('; calls fn(key, keyPos) with the cursor
  /// at the value, which fn consumes.
  template <typename Fn> Status keywords(Fn &&fn) {
    return itemsUntil(')', [&]() -> Status {
      size_t keyPos = pos_;
      FXKIT_ASSIGN_OR_RETURN(auto key, ident("a keyword"));
      FXKIT_TRY(expect("="));
      return fn(key, keyPos);
    });
  }

  // --- values of the dump ---
  Expected<ScheduleDep> dep();
  Expected<std::vector<ScheduleDep>> deps();
  Expected<ScheduleLayout> layout();
  Status users(ScheduleBuffer &b);
  Expected<std::vector<std::string>> stringList();
  Status outputs(ScheduleNode &n);
  std::string loopBody();

  Expected<ScheduleNode> node(int depth, std::string_view parentPrefix);
  Status field(ScheduleNode &n, std::string_view name, size_t fieldPos, int depth,
               std::set<std::string> &seen);

  std::string_view text_;
  const std::string &file_;
  std::vector<size_t> lineStarts_;
  size_t pos_ = 0;
  std::set<std::string, std::less<>> names_; ///< every node name seen, to reject repeats
};

Expected<ScheduleDep> DumpReader::dep() {
  ScheduleDep d;
  d.line = lineOf(pos_);
  d.col = colOf(pos_);
  size_t kindPos = pos_;
  FXKIT_ASSIGN_OR_RETURN(auto kind, ident("a dependency (MemoryDep, StarDep, WeakDep)"));
  FXKIT_TRY(expect("("));
  skipWs();
  if (kind == "MemoryDep") {
    // MemoryDep('buf0', 1024*d0 + d1, {d0: 4096, d1: 1024}[, mode])
    d.kind = DepKind::Memory;
    FXKIT_ASSIGN_OR_RETURN(auto name, bufferName());
    d.buffer = std::move(name);
    skipWs();
    FXKIT_TRY(expect(","));
    skipWs();
    FXKIT_ASSIGN_OR_RETURN(auto index, symExpr(&d.indexText));
    d.index = index;
    skipWs();
    FXKIT_TRY(expect(","));
    skipWs();
    FXKIT_TRY(expect("{"));
    skipWs();
    while (!accept("}")) {
      FXKIT_ASSIGN_OR_RETURN(auto var, ident("a range variable"));
      skipWs();
      FXKIT_TRY(expect(":"));
      skipWs();
      FXKIT_ASSIGN_OR_RETURN(auto size, symExpr());
      d.ranges.emplace_back(std::move(var), size);
      skipWs();
      if (accept(",")) {
        skipWs();
        continue;
      }
      if (pos_ >= text_.size() || text_[pos_] != '}')
        return error(pos_, "expected ',' or '}', found " + found(pos_));
    }
    skipWs();
    if (accept(",")) {
      skipWs();
      FXKIT_ASSIGN_OR_RETURN(auto mode, raw(",)", "a dependency mode"));
      d.mode = std::string(mode);
      skipWs();
    }
    FXKIT_TRY(expect(")"));
    return d;
  }
  bool star = kind == "StarDep";
  if (!star && kind != "WeakDep")
    return error(kindPos, "unknown dependency '" + kind +
                              "' (expected MemoryDep, StarDep or "
                              "WeakDep)");
  // StarDep(name='buf0', mode=None), WeakDep(name='buf0', mutating_buf='buf1', is_fake=False)
  d.kind = star ? DepKind::Star : DepKind::Weak;
  FXKIT_TRY(keywords([&](const std::string &key, size_t keyPos) -> Status {
    if (key == "name") {
      FXKIT_ASSIGN_OR_RETURN(auto v, bufferName());
      d.buffer = std::move(v);
    } else if (star && key == "mode") {
      FXKIT_ASSIGN_OR_RETURN(auto v, raw(",)", "a mode"));
      d.mode = std::string(v);
    } else if (!star && key == "mutating_buf") {
      FXKIT_ASSIGN_OR_RETURN(auto v, bufferName());
      d.mode = std::move(v);
    } else if (!star && key == "is_fake") {
      FXKIT_ASSIGN_OR_RETURN(auto v, boolean());
      d.isFake = v;
    } else {
      return error(keyPos, "unknown field '" + key + "' of " + kind);
    }
    return Status::ok();
  }));
  if (d.buffer.empty())
    return error(kindPos, kind + " without name=");
  return d;
}

Expected<std::vector<ScheduleDep>> DumpReader::deps() {
  std::vector<ScheduleDep> out;
  FXKIT_TRY(list([&]() -> Status {
    FXKIT_ASSIGN_OR_RETURN(auto d, dep());
    out.push_back(std::move(d));
    return Status::ok();
  }));
  return out;
}

Expected<ScheduleLayout> DumpReader::layout() {
  ScheduleLayout l;
  size_t start = pos_;
  FXKIT_ASSIGN_OR_RETURN(auto kind, ident("a layout"));
  l.kind = kind;
  FXKIT_TRY(expect("("));
  // Layout.__str__: Kind('cuda:0', torch.float32, size=[..], stride=[..][, offset=N]
  // [, is_pinned=True]); dataclass layouts (MultiOutputLayout, NoneLayout) print keywords only.
  std::optional<Device> device;
  std::optional<DType> dtype;
  std::optional<std::vector<SymExpr>> sizes, strides;
  skipWs();
  int positional = 0;
  while (!accept(")")) {
    size_t argPos = pos_;
    size_t save = pos_;
    std::string key;
    if (auto k = ident(); k && pos_ < text_.size() && text_[pos_] == '=')
      key = k.take(), ++pos_;
    else
      pos_ = save;
    if (key.empty()) {
      if (positional == 0) {
        FXKIT_ASSIGN_OR_RETURN(auto s, pyString());
        auto d = Device::parse(s);
        if (!d)
          return error(argPos, "bad device '" + s + "' in layout");
        device = *d;
      } else if (positional == 1) {
        FXKIT_ASSIGN_OR_RETURN(auto t, raw(",)", "a dtype"));
        dtype = parseDType(t);
        if (!dtype)
          return error(argPos, "unknown dtype '" + std::string(t) + "' in layout");
      } else {
        return error(argPos, "unexpected argument in " + l.kind);
      }
      ++positional;
    } else if (key == "size" || key == "stride") {
      FXKIT_ASSIGN_OR_RETURN(auto seq, symSequence());
      (key == "size" ? sizes : strides) = std::move(seq);
    } else if (key == "offset") {
      FXKIT_ASSIGN_OR_RETURN(auto e, symExpr());
      l.offset = e;
    } else if (key == "device" || key == "is_pinned" || key == "dtype") {
      // device=device(type='cuda', index=0) in dataclass layouts; is_pinned only matters to the
      // allocator. Both stay in `text`.
      FXKIT_ASSIGN_OR_RETURN(auto t, raw(",)", "a value"));
      if (key == "dtype") {
        dtype = parseDType(t);
        if (!dtype)
          return error(argPos, "unknown dtype '" + std::string(t) + "' in layout");
      }
    } else {
      return error(argPos, "unknown field '" + key + "' of " + l.kind);
    }
    skipWs();
    if (accept(",")) {
      skipWs();
      continue;
    }
    if (pos_ >= text_.size() || text_[pos_] != ')')
      return error(pos_, "expected ',' or ')', found " + found(pos_));
  }
  l.text = std::string(text_.substr(start, pos_ - start));
  if (sizes.has_value() != strides.has_value())
    return error(start, l.kind + " with size but no stride (or stride but no size)");
  if (sizes && sizes->size() != strides->size())
    return error(start, l.kind + " has " + std::to_string(sizes->size()) + " sizes but " +
                            std::to_string(strides->size()) + " strides");
  if (device && dtype && sizes) {
    TensorType t;
    t.dtype = *dtype;
    t.sizes = std::move(*sizes);
    t.strides = std::move(*strides);
    t.device = *device;
    l.tensor = std::move(t);
  }
  return l;
}

Status DumpReader::users(ScheduleBuffer &b) {
  // NodeUser(node=SchedulerNode(name='op2'), can_inplace=False, is_weak=False) or node=OUTPUT
  return list([&]() -> Status {
    size_t start = pos_;
    FXKIT_ASSIGN_OR_RETURN(auto kind, ident("NodeUser"));
    if (kind != "NodeUser")
      return error(start, "expected NodeUser(...), found '" + kind + "'");
    FXKIT_TRY(expect("("));
    ScheduleUser u;
    bool haveNode = false;
    FXKIT_TRY(keywords([&](const std::string &key, size_t keyPos) -> Status {
      if (key == "node") {
        FXKIT_ASSIGN_OR_RETURN(auto k, ident("a scheduler node"));
        haveNode = true;
        if (k == "OUTPUT") {
          u.node = "OUTPUT";
          return Status::ok();
        }
        u.nodeKind = std::move(k);
        FXKIT_TRY(expect("(name="));
        FXKIT_ASSIGN_OR_RETURN(auto n, pyString());
        u.node = std::move(n);
        return expect(")");
      }
      if (key == "can_inplace" || key == "is_weak") {
        FXKIT_ASSIGN_OR_RETURN(auto v, boolean());
        (key == "can_inplace" ? u.canInplace : u.isWeak) = v;
        return Status::ok();
      }
      return error(keyPos, "unknown field '" + key + "' of NodeUser");
    }));
    if (!haveNode)
      return error(start, "NodeUser without node=");
    b.users.push_back(std::move(u));
    return Status::ok();
  });
}

Expected<std::vector<std::string>> DumpReader::stringList() {
  std::vector<std::string> out;
  FXKIT_TRY(list([&]() -> Status {
    FXKIT_ASSIGN_OR_RETURN(auto s, pyString());
    out.push_back(std::move(s));
    return Status::ok();
  }));
  return out;
}

Status DumpReader::outputs(ScheduleNode &n) {
  // After `opN.outputs = [`: buffers, each `    bufN: Kind` then `    bufN.field = ...`
  // lines, until `]` alone on a line.
  ScheduleBuffer *cur = nullptr;
  std::set<std::string> fields;
  while (true) {
    if (atEnd())
      return error(pos_, "end of file inside '" + n.name + ".outputs = [' (no closing ']')");
    std::string_view line = lineAt(pos_);
    if (line == "]") {
      nextLine();
      return Status::ok();
    }
    if (!line.starts_with("    "))
      return error(pos_, "expected an output buffer of '" + n.name + "' or ']'");
    pos_ += 4;
    size_t namePos = pos_;
    FXKIT_ASSIGN_OR_RETURN(auto name, ident("a buffer name"));
    if (accept(": ")) {
      ScheduleBuffer b;
      b.name = std::move(name);
      b.line = lineOf(namePos);
      FXKIT_ASSIGN_OR_RETURN(auto kind, ident("the buffer's IR class"));
      b.irKind = std::move(kind);
      FXKIT_TRY(endOfLine());
      for (const ScheduleBuffer &o : n.outputs)
        if (o.name == b.name)
          return error(namePos, "buffer '" + b.name + "' listed twice in '" + n.name + ".outputs'");
      n.outputs.push_back(std::move(b));
      cur = &n.outputs.back();
      fields.clear();
      continue;
    }
    if (!cur || name != cur->name)
      return error(namePos, "expected '" + (cur ? cur->name + "." : std::string("bufN: ")) +
                                "' (a field of the buffer above, or a new buffer)");
    FXKIT_TRY(expect("."));
    size_t fieldPos = pos_;
    FXKIT_ASSIGN_OR_RETURN(auto field, ident("a buffer field"));
    if (!fields.insert(field).second)
      return error(fieldPos, "'" + cur->name + "." + field + "' given twice");
    FXKIT_TRY(expect(" ="));
    valueStart();
    if (field == "layout") {
      FXKIT_ASSIGN_OR_RETURN(auto l, layout());
      cur->layout = std::move(l);
    } else if (field == "aliases" || field == "mutations") {
      FXKIT_ASSIGN_OR_RETURN(auto l, stringList());
      (field == "aliases" ? cur->aliases : cur->mutations) = std::move(l);
    } else if (field == "users") {
      FXKIT_TRY(users(*cur));
    } else {
      return error(fieldPos, "unknown buffer field '" + field + "'");
    }
    FXKIT_TRY(endOfLine());
  }
}

std::string DumpReader::loopBody() {
  // LoopBody.debug_str() indented by four spaces; textwrap.indent leaves blank lines empty, so
  // a blank line belongs to the body when an indented line follows it.
  std::string body;
  while (!atEnd()) {
    size_t p = pos_;
    while (p < text_.size() && lineIsBlank(p)) {
      size_t e = lineEnd(p);
      p = e == text_.size() ? e : e + 1;
    }
    if (p >= text_.size() || !lineAt(p).starts_with("    "))
      break;
    while (pos_ < p) {
      body += '\n';
      nextLine();
    }
    body += lineAt(pos_).substr(4);
    body += '\n';
    nextLine();
  }
  return body;
}

Status DumpReader::field(ScheduleNode &n, std::string_view name, size_t fieldPos, int depth,
                         std::set<std::string> &seen) {
  std::string key(name);
  if (name.starts_with("snodes["))
    key = "snodes[]";
  if (key != "snodes[]" && !seen.insert(key).second)
    return error(fieldPos, "'" + n.name + "." + key + "' given twice");
  bool group = n.isGroup();
  auto only = [&](bool ok, std::string_view kinds) -> Status {
    if (ok)
      return Status::ok();
    return error(fieldPos, "'" + key + "' on a " + std::string(scheduleNodeKindName(n.kind)) +
                               " (only " + std::string(kinds) + " have it)");
  };
  if (name == "writes" || name == "unmet_dependencies" || name == "met_dependencies") {
    FXKIT_TRY(expect(" ="));
    valueStart();
    FXKIT_ASSIGN_OR_RETURN(auto d, deps());
    (name == "writes"               ? n.writes
     : name == "unmet_dependencies" ? n.unmetDependencies
                                    : n.metDependencies) = std::move(d);
    return endOfLine();
  }
  if (name == "outputs") {
    FXKIT_TRY(expect(" = ["));
    FXKIT_TRY(endOfLine());
    return outputs(n);
  }
  if (name == "group.device" || name == "node.kernel") {
    FXKIT_TRY(only(name == "node.kernel" ? n.kind == ScheduleNodeKind::ExternKernel
                                         : n.kind == ScheduleNodeKind::Scheduler,
                   name == "node.kernel" ? "ExternKernelSchedulerNode" : "SchedulerNode"));
    FXKIT_TRY(expect(" = "));
    size_t valuePos = pos_;
    std::string v = restOfLine();
    if (v.empty())
      return error(valuePos, "expected a value after '='");
    (name == "node.kernel" ? n.kernel.emplace() : n.device) = std::move(v);
    return Status::ok();
  }
  if (name == "group.iteration" || name == "sizes") {
    FXKIT_TRY(only(n.kind == ScheduleNodeKind::Scheduler, "SchedulerNode"));
    FXKIT_TRY(expect(" = "));
    if (name == "group.iteration") {
      FXKIT_ASSIGN_OR_RETURN(auto seq, symSequence());
      n.iteration = std::move(seq);
      return endOfLine();
    }
    // ([pointwise sizes], [reduction sizes]) as lists or tuples
    FXKIT_TRY(expect("("));
    for (int i = 0; i < 2; ++i) {
      if (i == 1) {
        FXKIT_TRY(expect(", "));
      }
      FXKIT_ASSIGN_OR_RETURN(auto seq, symSequence());
      n.sizes.push_back(std::move(seq));
    }
    FXKIT_TRY(expect(")"));
    return endOfLine();
  }
  if (name.starts_with("snodes[") && name.ends_with("]")) {
    FXKIT_TRY(only(group, "FusedSchedulerNode and ForeachKernelSchedulerNode"));
    std::string_view digits = name.substr(7, name.size() - 8);
    bool numeric = !digits.empty() && digits.size() < 6 &&
                   std::all_of(digits.begin(), digits.end(),
                               [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    if (!numeric || std::stoul(std::string(digits)) != n.members.size())
      return error(fieldPos, "expected '" + n.name + ".snodes[" + std::to_string(n.members.size()) +
                                 "]' (members are numbered in order)");
    FXKIT_TRY(expect(" ="));
    FXKIT_TRY(endOfLine());
    FXKIT_ASSIGN_OR_RETURN(auto m, node(depth + 1, n.name + "."));
    n.members.push_back(std::move(m));
    return Status::ok();
  }
  return error(fieldPos,
               "unknown field '" + std::string(name) + "' of scheduler node '" + n.name + "'");
}

Expected<ScheduleNode> DumpReader::node(int depth, std::string_view parentPrefix) {
  if (depth > kMaxNodeDepth)
    return error(pos_, "scheduler nodes nested more than " + std::to_string(kMaxNodeDepth) +
                           " levels deep");
  ScheduleNode n;
  size_t headerPos = pos_;
  n.line = lineOf(pos_);
  FXKIT_ASSIGN_OR_RETURN(
      auto name, ident("a scheduler node header such as 'op0: SchedulerNode(ComputedBuffer)'"));
  n.name = std::move(name);
  FXKIT_TRY(expect(": "));
  size_t kindPos = pos_;
  FXKIT_ASSIGN_OR_RETURN(auto kindName, ident("a scheduler node kind"));
  auto kind = parseNodeKind(kindName);
  if (!kind)
    return error(kindPos, "unknown scheduler node kind '" + kindName + "'");
  n.kind = *kind;
  FXKIT_TRY(expect("("));
  while (true) {
    FXKIT_ASSIGN_OR_RETURN(auto k, ident("a class name"));
    n.irKinds.push_back(std::move(k));
    if (!accept(","))
      break;
  }
  FXKIT_TRY(expect(")"));
  FXKIT_TRY(endOfLine());
  if (!names_.insert(n.name).second)
    return error(headerPos, "scheduler node '" + n.name + "' appears twice");

  const std::string prefix = n.name + ".";
  std::string loopClass = "class " + n.name;
  std::replace(loopClass.begin() + 6, loopClass.end(), '.', '_');
  loopClass += "_loop_body:";
  std::set<std::string> seen;
  while (!atEnd() && !lineIsBlank(pos_)) {
    std::string_view line = lineAt(pos_);
    if (line.starts_with(prefix)) {
      pos_ += prefix.size();
      size_t fieldPos = pos_;
      while (pos_ < text_.size() && text_[pos_] != ' ' && text_[pos_] != '\n')
        ++pos_;
      FXKIT_TRY(field(n, text_.substr(fieldPos, pos_ - fieldPos), fieldPos, depth, seen));
      continue;
    }
    if (line == loopClass) {
      if (!n.loopBody.empty())
        return error(pos_, "a second loop body for '" + n.name + "'");
      nextLine();
      n.loopBody = loopBody();
      if (n.loopBody.empty())
        return error(pos_, "empty loop body of '" + n.name + "'");
      continue;
    }
    if (size_t eq = line.find("_layout = ");
        eq != std::string_view::npos && eq > 0 &&
        std::all_of(line.begin(), line.begin() + eq, isIdentChar)) {
      std::string buffer(line.substr(0, eq));
      pos_ += eq + 10;
      FXKIT_ASSIGN_OR_RETURN(auto l, layout());
      n.bufferLayouts.emplace_back(std::move(buffer), std::move(l));
      FXKIT_TRY(endOfLine());
      continue;
    }
    if (!parentPrefix.empty() && line.starts_with(parentPrefix))
      break; // the next member of the enclosing fused node
    return error(pos_, "unexpected line in scheduler node '" + n.name + "'");
  }
  for (std::string_view required : {"writes", "unmet_dependencies", "met_dependencies", "outputs"})
    if (!seen.count(std::string(required)))
      return error(headerPos, "scheduler node '" + n.name + "' has no '" + prefix +
                                  std::string(required) + "' line");
  if (n.isGroup()) {
    if (n.members.empty())
      return error(headerPos, "'" + n.name + "' has no members (" + prefix + "snodes[0])");
    if (n.members.size() != n.irKinds.size())
      return error(headerPos, "'" + n.name + "' names " + std::to_string(n.irKinds.size()) +
                                  " member kinds but has " + std::to_string(n.members.size()) +
                                  " members");
    std::string joined;
    for (size_t i = 0; i < n.members.size(); ++i) {
      if (scheduleNodeKindName(n.members[i].kind) != n.irKinds[i])
        return error(n.members[i].line > 0 ? lineStarts_[n.members[i].line - 1] : headerPos,
                     "member " + std::to_string(i) + " of '" + n.name + "' is a " +
                         std::string(scheduleNodeKindName(n.members[i].kind)) +
                         ", the header says " + n.irKinds[i]);
      joined += (i ? "_" : "") + n.members[i].name;
    }
    // FusedSchedulerNode.get_name() joins its members' names: a mismatch means the members
    // were not read as Inductor wrote them.
    if (n.kind == ScheduleNodeKind::Fused && joined != n.name)
      return error(headerPos,
                   "fused node '" + n.name + "' does not match its members '" + joined + "'");
  } else if (n.irKinds.size() != 1) {
    return error(headerPos, "a " + std::string(scheduleNodeKindName(n.kind)) +
                                " names one IR class in parentheses");
  }
  return n;
}

Expected<InductorSchedule> DumpReader::read() {
  FXKIT_TRY(validateUtf8(text_, file_));
  InductorSchedule s;
  skipBlankLines();
  while (!atEnd()) {
    FXKIT_ASSIGN_OR_RETURN(auto n, node(0, ""));
    s.nodes.push_back(std::move(n));
    skipBlankLines();
  }
  return s;
}

Argument depValue(const ScheduleDep &d) {
  switch (d.kind) {
  case DepKind::Memory:
    return Argument::sym(d.index);
  case DepKind::Star:
    return Argument::string("*");
  case DepKind::Weak:
    return Argument::string("weak");
  }
  return Argument();
}

std::string_view targetOf(ScheduleNodeKind kind) {
  switch (kind) {
  case ScheduleNodeKind::Scheduler:
    return "inductor.scheduler_node";
  case ScheduleNodeKind::ExternKernel:
    return "inductor.extern_kernel";
  case ScheduleNodeKind::NopKernel:
    return "inductor.nop_kernel";
  case ScheduleNodeKind::Fused:
    return "inductor.fused_node";
  case ScheduleNodeKind::Foreach:
    return "inductor.foreach_node";
  }
  return "?";
}

/// Buffers a top-level node writes: its write dependencies and its output buffers.
std::vector<std::string> writtenBuffers(const ScheduleNode &n) {
  std::vector<std::string> out;
  auto add = [&](const std::string &b) {
    if (std::find(out.begin(), out.end(), b) == out.end())
      out.push_back(b);
  };
  for (const ScheduleDep &d : n.writes)
    add(d.buffer);
  for (const ScheduleBuffer &b : n.outputs)
    add(b.name);
  return out;
}

/// Layouts of every buffer the dump mentions: output buffers first (they are the buffers'
/// own), then the `X_layout` lines (graph inputs appear only there).
void collectLayouts(const ScheduleNode &n,
                    std::map<std::string, const ScheduleLayout *, std::less<>> &out, bool own) {
  if (own) {
    for (const ScheduleBuffer &b : n.outputs)
      out.emplace(b.name, &b.layout);
  } else {
    for (const auto &[name, l] : n.bufferLayouts)
      out.emplace(name, &l);
  }
  for (const ScheduleNode &m : n.members)
    collectLayouts(m, out, own);
}

} // namespace

bool looksLikeSchedulerDump(std::string_view content) {
  size_t start = content.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos)
    return false;
  std::string_view line = content.substr(start, content.find('\n', start) - start);
  size_t colon = line.find(": ");
  if (colon == std::string_view::npos || colon == 0 ||
      !std::all_of(line.begin(), line.begin() + colon, isIdentChar))
    return false;
  std::string_view rest = line.substr(colon + 2);
  size_t paren = rest.find('(');
  return paren != std::string_view::npos && parseNodeKind(rest.substr(0, paren)).has_value();
}

Expected<InductorSchedule> parseInductorSchedule(std::string_view text,
                                                 const std::string &fileName) {
  return DumpReader(text, fileName).read();
}

Expected<Graph> scheduleToGraph(InductorSchedule schedule, const std::string &fileName) {
  auto info = std::make_shared<InductorScheduleInfo>();
  info->schedule = std::move(schedule);
  const std::vector<ScheduleNode> &nodes = info->schedule.nodes;
  auto depError = [&](const ScheduleDep &d, std::string message) {
    return Error(std::move(message), SourceLoc{fileName, d.line, d.col});
  };

  std::map<std::string, const ScheduleLayout *, std::less<>> layouts;
  for (const ScheduleNode &n : nodes)
    collectLayouts(n, layouts, true);
  for (const ScheduleNode &n : nodes)
    collectLayouts(n, layouts, false);

  // Which node writes each buffer first; buffers read before any node wrote them are inputs.
  std::map<std::string, size_t, std::less<>> firstWriter;
  std::set<std::string, std::less<>> nodeNames;
  for (size_t i = 0; i < nodes.size(); ++i) {
    nodeNames.insert(nodes[i].name);
    for (const std::string &b : writtenBuffers(nodes[i]))
      firstWriter.emplace(b, i);
  }
  // A node that reads a buffer it writes itself (a mutated input) reads the input.
  std::vector<std::string> inputs;
  std::set<std::string, std::less<>> inputSet;
  for (size_t i = 0; i < nodes.size(); ++i)
    for (const ScheduleDep *d : nodes[i].reads()) {
      auto w = firstWriter.find(d->buffer);
      if (w != firstWriter.end() && w->second > i)
        return depError(*d, "'" + nodes[i].name + "' reads '" + d->buffer +
                                "', which only the later node '" + nodes[w->second].name +
                                "' writes");
      if ((w == firstWriter.end() || w->second == i) && inputSet.insert(d->buffer).second)
        inputs.push_back(d->buffer);
    }

  Graph g;
  g.reserve(inputs.size() + nodes.size() + 1);
  std::map<std::string, Node *, std::less<>> producer;
  auto setValue = [&](Node *gn, const std::vector<std::string> &buffers) {
    std::vector<std::optional<TensorType>> types;
    for (const std::string &b : buffers) {
      auto l = layouts.find(b);
      types.push_back(l != layouts.end() ? l->second->tensor : std::nullopt);
    }
    if (types.size() == 1 && types[0])
      gn->value().v = *types[0];
    else if (types.size() > 1)
      gn->value().v = std::move(types);
  };
  // Inputs and the output share the graph's namespace with the scheduler nodes, whose names are
  // kept as they are; a buffer named like a node (or `output`) gets a fresh name.
  auto freshName = [&](const std::string &base, bool isOutput = false) {
    std::string name = base;
    for (size_t i = 1; nodeNames.count(name) || g.find(name) || (!isOutput && name == "output");
         ++i)
      name = base + "_" + std::to_string(i);
    return name;
  };
  for (const std::string &b : inputs) {
    std::string name = nodeNames.count(b) ? freshName(b + "_input") : freshName(b);
    Node *p = g.create(OpKind::Placeholder, name, b);
    setValue(p, {b});
    producer[b] = p;
  }

  std::vector<Argument> outs;
  for (const ScheduleNode &n : nodes) {
    std::vector<Argument> args;
    std::set<Node *> seen;
    std::vector<Argument> reads, writes;
    for (const ScheduleDep *d : n.reads()) {
      Node *p = producer.at(d->buffer); // every read is an input or an earlier write (above)
      if (seen.insert(p).second)
        args.push_back(Argument::node(p));
      reads.push_back(Argument::tuple({Argument::string(d->buffer), depValue(*d)}));
    }
    for (const ScheduleDep &d : n.writes)
      writes.push_back(Argument::tuple({Argument::string(d.buffer), depValue(d)}));
    std::vector<std::pair<std::string, Argument>> kw;
    kw.emplace_back("writes", Argument::list(std::move(writes)));
    kw.emplace_back("reads", Argument::list(std::move(reads)));
    if (n.isGroup()) {
      std::vector<const ScheduleNode *> leaves;
      n.leaves(leaves);
      std::vector<Argument> members;
      for (const ScheduleNode *m : leaves)
        members.push_back(Argument::string(m->name));
      kw.emplace_back("members", Argument::list(std::move(members)));
    } else {
      kw.emplace_back("ir", Argument::string(n.irKinds.front()));
    }
    if (n.kernel) // MultiOutput nodes print `node.kernel = None`
      kw.emplace_back("kernel",
                      *n.kernel == "None" ? Argument::none() : Argument::string(*n.kernel));
    if (!n.iteration.empty()) {
      std::vector<Argument> it;
      for (const SymExpr &e : n.iteration)
        it.push_back(Argument::sym(e));
      kw.emplace_back("iteration", Argument::tuple(std::move(it)));
    }
    if (g.find(n.name))
      return Error("scheduler node '" + n.name + "' is defined twice",
                   SourceLoc{fileName, n.line, 1});
    Node *gn = g.create(OpKind::CallFunction, n.name, targetOf(n.kind), Argument::tuple(args),
                        Argument::dict(std::move(kw)));
    std::vector<std::string> buffers;
    for (const ScheduleBuffer &b : n.outputs)
      buffers.push_back(b.name);
    setValue(gn, buffers);
    for (const std::string &b : writtenBuffers(n))
      producer[b] = gn;
    for (const ScheduleBuffer &b : n.outputs)
      for (const ScheduleUser &u : b.users)
        if (u.node == "OUTPUT") {
          outs.push_back(Argument::node(gn));
          break;
        }
  }
  g.create(OpKind::Output, freshName("output", true), "output",
           Argument::tuple({Argument::tuple(std::move(outs))}));
  if (Status st = verifyGraph(g); !st) {
    Error err = st.takeError();
    err.loc.file = fileName;
    return err;
  }
  g.attachments[std::string(kInductorScheduleAttachment)] = info;
  return g;
}

Expected<Graph> importInductorSchedule(std::string_view text, const std::string &fileName) {
  FXKIT_ASSIGN_OR_RETURN(auto s, parseInductorSchedule(text, fileName));
  return scheduleToGraph(std::move(s), fileName);
}

const InductorSchedule *inductorScheduleOf(const Graph &graph) {
  auto it = graph.attachments.find(kInductorScheduleAttachment);
  if (it == graph.attachments.end())
    return nullptr;
  auto *info = dynamic_cast<const InductorScheduleInfo *>(it->second.get());
  return info ? &info->schedule : nullptr;
}

FusionComparison compareFusion(const InductorSchedule &post, const InductorSchedule &pre) {
  FusionComparison c;
  c.preNodes = pre.nodes.size();
  c.postNodes = post.nodes.size();
  std::map<std::string, int, std::less<>> preCount;
  for (const ScheduleNode *n : pre.leaves())
    ++preCount[n->name];
  std::map<std::string, int, std::less<>> postCount;
  for (const ScheduleNode &n : post.nodes) {
    if (n.isKernel())
      ++c.postKernels;
    std::vector<const ScheduleNode *> leaves;
    n.leaves(leaves);
    for (const ScheduleNode *m : leaves) {
      ++postCount[m->name];
      if (!preCount.count(m->name))
        c.problems.push_back("'" + m->name + "' (in '" + n.name + "') is not a pre-fusion node");
    }
    if (leaves.size() > 1) {
      FusionComparison::Group group{n.name, {}};
      for (const ScheduleNode *m : leaves)
        group.members.push_back(m->name);
      c.groups.push_back(std::move(group));
    }
  }
  for (const auto &[name, count] : preCount)
    if (postCount[name] != 1)
      c.problems.push_back("pre-fusion node '" + name + "' is in " +
                           std::to_string(postCount[name]) + " post-fusion nodes");
  auto written = [](const InductorSchedule &s) {
    std::set<std::string> out;
    for (const ScheduleNode &n : s.nodes)
      for (const std::string &b : writtenBuffers(n))
        out.insert(b);
    return out;
  };
  std::set<std::string> preWritten = written(pre), postWritten = written(post);
  for (const std::string &b : preWritten)
    if (!postWritten.count(b))
      c.problems.push_back("buffer '" + b + "' is written before fusion but not after");
  for (const std::string &b : postWritten)
    if (!preWritten.count(b))
      c.problems.push_back("buffer '" + b + "' is written after fusion but not before");
  return c;
}

std::string printFusionComparison(const FusionComparison &c) {
  std::string out = "scheduler nodes: " + std::to_string(c.preNodes) + " before fusion, " +
                    std::to_string(c.postNodes) + " after (" + std::to_string(c.postKernels) +
                    " kernels, " + std::to_string(c.groups.size()) + " fused groups)\n";
  for (const FusionComparison::Group &g : c.groups) {
    out += "  " + g.name + ":";
    for (const std::string &m : g.members)
      out += " " + m;
    out += "\n";
  }
  for (const std::string &p : c.problems)
    out += "  problem: " + p + "\n";
  return out;
}

} // namespace fxkit
