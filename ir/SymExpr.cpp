#include "ir/SymExpr.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstring>
#include <deque>
#include <mutex>
#include <unordered_set>

namespace fxkit {
namespace {

/// A node with what the arena keeps beside it: simplify()'s result, filled on the first call.
/// Nodes never change, and lowering and fusion simplify the same few index expressions over
/// and over. Atomics because nodes are shared between threads; racing writers store the same
/// value, and the flag is set last.
struct ArenaNode : SymNode {
  ArenaNode(SymExpr::Kind k, std::string_view n, std::span<const SymExpr> ops)
      : SymNode{k, n, std::vector<SymExpr>(ops.begin(), ops.end())} {}
  mutable std::atomic<bool> hasSimplified{false};
  mutable std::atomic<const SymNode *> simplifiedNode{nullptr};
  mutable std::atomic<int64_t> simplifiedValue{0};
};

/// What identifies a node: its kind, name and operands (looked up without building a node).
struct NodeKey {
  SymExpr::Kind kind;
  std::string_view name;
  std::span<const SymExpr> ops;
};

struct NodeHash {
  using is_transparent = void;
  size_t operator()(const NodeKey &k) const {
    size_t h = std::hash<std::string_view>()(k.name) * 31 + static_cast<size_t>(k.kind);
    for (const SymExpr &op : k.ops)
      h = h * 1000003 ^ op.hash();
    return h;
  }
  size_t operator()(const SymNode *n) const {
    return (*this)(NodeKey{n->kind, n->name, n->operands});
  }
};

struct NodeEq {
  using is_transparent = void;
  static bool same(const NodeKey &a, const NodeKey &b) {
    return a.kind == b.kind && a.name == b.name &&
           std::equal(a.ops.begin(), a.ops.end(), b.ops.begin(), b.ops.end());
  }
  static NodeKey key(const SymNode *n) { return {n->kind, n->name, n->operands}; }
  bool operator()(const SymNode *a, const SymNode *b) const { return a == b; }
  bool operator()(const NodeKey &a, const SymNode *b) const { return same(a, key(b)); }
  bool operator()(const SymNode *a, const NodeKey &b) const { return same(key(a), b); }
};

/// Process-wide uniquing arena for symbolic nodes. Nodes live until exit: sizes are few and
/// shared by many tensors, so uniquing saves far more than it keeps alive. Lookups hash the
/// kind, name and operands in place (no key string to allocate per expression built).
class SymArena {
public:
  const SymNode *get(SymExpr::Kind kind, std::string_view name, std::span<const SymExpr> ops) {
    NodeKey key{kind, name, ops};
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = set_.find(key);
    if (it != set_.end())
      return *it;
    std::string_view storedName;
    if (!name.empty()) {
      names_.emplace_back(name);
      storedName = names_.back();
    }
    const SymNode *node = &nodes_.emplace_back(kind, storedName, ops);
    set_.insert(node);
    return node;
  }

private:
  std::mutex mutex_;
  std::deque<ArenaNode> nodes_;
  std::deque<std::string> names_;
  std::unordered_set<const SymNode *, NodeHash, NodeEq> set_;
};

SymArena &arena() {
  static SymArena *instance = new SymArena(); // intentionally leaked: outlives all users
  return *instance;
}

using K = SymExpr::Kind;

int precedence(const SymExpr &e) {
  if (e.isConstant())
    return e.constant() < 0 ? 3 : 6;
  switch (e.kind()) {
  case K::Add:
  case K::Sub:
    return 1;
  case K::Mul:
  case K::TrueDiv:
  case K::FloorDiv:
  case K::Mod:
    return 2;
  case K::Neg:
    return 3;
  case K::Pow:
    return 4;
  default:
    return 6;
  }
}

const char *opSpelling(K kind) {
  switch (kind) {
  case K::Add:
    return " + ";
  case K::Sub:
    return " - ";
  case K::Mul:
    return "*";
  case K::TrueDiv:
    return "/";
  case K::FloorDiv:
    return "//";
  case K::Mod:
    return " % ";
  case K::Pow:
    return "**";
  default:
    return "?";
  }
}

void printWithParens(const SymExpr &e, bool parens, std::string &out) {
  if (parens)
    out.push_back('(');
  e.print(out);
  if (parens)
    out.push_back(')');
}

// ---- Parser -------------------------------------------------------------------------------

class SymParser {
public:
  explicit SymParser(std::string_view text) : text_(text) {}

  Expected<SymExpr> parseAll() {
    auto e = parseAdditive();
    if (!e)
      return e;
    skipSpace();
    if (pos_ != text_.size())
      return fail("unexpected '" + std::string(1, text_[pos_]) + "' in symbolic expression");
    return e;
  }

private:
  static constexpr int kMaxDepth = 200;

  Error fail(std::string msg) const {
    Error err(std::move(msg));
    err.loc.col = static_cast<int>(pos_) + 1;
    return err;
  }
  void skipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t'))
      ++pos_;
  }
  bool eat(std::string_view tok) {
    skipSpace();
    if (text_.substr(pos_, tok.size()) == tok) {
      pos_ += tok.size();
      return true;
    }
    return false;
  }
  char peek() {
    skipSpace();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }

  Expected<SymExpr> parseAdditive() {
    auto lhs = parseMultiplicative();
    if (!lhs)
      return lhs;
    SymExpr acc = *lhs;
    for (;;) {
      char c = peek();
      if (c != '+' && c != '-')
        return acc;
      ++pos_;
      auto rhs = parseMultiplicative();
      if (!rhs)
        return rhs;
      acc = SymExpr::binary(c == '+' ? K::Add : K::Sub, acc, *rhs);
    }
  }

  Expected<SymExpr> parseMultiplicative() {
    auto lhs = parseUnary();
    if (!lhs)
      return lhs;
    SymExpr acc = *lhs;
    for (;;) {
      K kind;
      if (eat("//"))
        kind = K::FloorDiv;
      else if (peek() == '*' && text_.substr(pos_, 2) != "**") {
        ++pos_;
        kind = K::Mul;
      } else if (peek() == '/') {
        ++pos_;
        kind = K::TrueDiv;
      } else if (peek() == '%') {
        ++pos_;
        kind = K::Mod;
      } else
        return acc;
      auto rhs = parseUnary();
      if (!rhs)
        return rhs;
      acc = SymExpr::binary(kind, acc, *rhs);
    }
  }

  Expected<SymExpr> parseUnary() {
    if (peek() == '-') {
      ++pos_;
      if (++depth_ > kMaxDepth)
        return fail("symbolic expression nested too deeply");
      auto operand = parseUnary();
      --depth_;
      if (!operand)
        return operand;
      return SymExpr::neg(*operand);
    }
    if (peek() == '+') {
      ++pos_;
      return parseUnary();
    }
    return parsePower();
  }

  Expected<SymExpr> parsePower() {
    auto base = parsePrimary();
    if (!base)
      return base;
    if (eat("**")) {
      if (++depth_ > kMaxDepth)
        return fail("symbolic expression nested too deeply");
      auto exponent = parseUnary(); // right-associative, binds a unary minus on its right
      --depth_;
      if (!exponent)
        return exponent;
      return SymExpr::binary(K::Pow, *base, *exponent);
    }
    return base;
  }

  Expected<SymExpr> parsePrimary() {
    char c = peek();
    if (c == '(') {
      ++pos_;
      if (++depth_ > kMaxDepth)
        return fail("symbolic expression nested too deeply");
      auto inner = parseAdditive();
      --depth_;
      if (!inner)
        return inner;
      if (!eat(")"))
        return fail("expected ')' in symbolic expression");
      return SymExpr::paren(*inner);
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t start = pos_;
      int64_t value = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        int digit = text_[pos_] - '0';
        if (value > (INT64_MAX - digit) / 10) {
          pos_ = start;
          return fail("integer literal out of range in symbolic expression");
        }
        value = value * 10 + digit;
        ++pos_;
      }
      return SymExpr(value);
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = pos_;
      while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) ||
                                     text_[pos_] == '_' || text_[pos_] == '.'))
        ++pos_;
      std::string_view name = text_.substr(start, pos_ - start);
      if (peek() == '(') {
        ++pos_;
        if (++depth_ > kMaxDepth)
          return fail("symbolic expression nested too deeply");
        std::vector<SymExpr> args;
        if (peek() != ')') {
          for (;;) {
            auto arg = parseAdditive();
            if (!arg)
              return arg;
            args.push_back(*arg);
            if (eat(","))
              continue;
            break;
          }
        }
        --depth_;
        if (!eat(")"))
          return fail("expected ')' after arguments of '" + std::string(name) + "'");
        return SymExpr::call(name, args);
      }
      return SymExpr::symbol(name);
    }
    if (c == '\0')
      return fail("symbolic expression ends unexpectedly");
    return fail("unexpected '" + std::string(1, c) + "' in symbolic expression");
  }

  std::string_view text_;
  size_t pos_ = 0;
  int depth_ = 0;
};

int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}
int64_t pyMod(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

// ---- Polynomial normal form ----------------------------------------------------------------

/// A monomial is a sorted list of atoms (symbols or opaque simplified terms).
using Monomial = std::vector<SymExpr>;
struct MonomialLess {
  bool operator()(const Monomial &a, const Monomial &b) const {
    if (a.size() != b.size())
      return a.size() > b.size(); // higher degree first, constants last (sympy's order)
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i] == b[i]) // uniqued: the same atom prints the same
        continue;
      std::string sa = a[i].str(), sb = b[i].str();
      if (sa != sb)
        return sa < sb;
    }
    return false;
  }
};
using Poly = std::map<Monomial, int64_t, MonomialLess>;

void addTerm(Poly &p, const Monomial &m, int64_t c) {
  if (c == 0)
    return;
  auto &slot = p[m];
  slot += c;
  if (slot == 0)
    p.erase(m);
}

Poly mulPoly(const Poly &a, const Poly &b) {
  Poly out;
  for (const auto &[ma, ca] : a)
    for (const auto &[mb, cb] : b) {
      Monomial m = ma;
      m.insert(m.end(), mb.begin(), mb.end());
      std::sort(m.begin(), m.end(),
                [](const SymExpr &x, const SymExpr &y) { return x.str() < y.str(); });
      addTerm(out, m, ca * cb);
    }
  return out;
}

std::optional<int64_t> constantOf(const Poly &p) {
  if (p.empty())
    return 0;
  if (p.size() == 1 && p.begin()->first.empty())
    return p.begin()->second;
  return std::nullopt;
}

SymExpr polyToExpr(const Poly &p) {
  if (p.empty())
    return SymExpr(0);
  std::optional<SymExpr> acc;
  for (const auto &[mono, coeff] : p) {
    int64_t mag = coeff < 0 ? -coeff : coeff;
    std::optional<SymExpr> term;
    if (mono.empty() || mag != 1)
      term = SymExpr(mag);
    for (const SymExpr &atom : mono)
      term = term ? SymExpr::binary(K::Mul, *term, atom) : atom;
    if (!acc)
      acc = coeff < 0 ? (mono.empty() ? SymExpr(coeff) : SymExpr::neg(*term)) : *term;
    else
      acc = SymExpr::binary(coeff < 0 ? K::Sub : K::Add, *acc, *term);
  }
  return *acc;
}

Poly toPoly(const SymExpr &e);

Poly atomPoly(const SymExpr &atom) { return Poly{{Monomial{atom}, 1}}; }

Poly toPoly(const SymExpr &e) {
  if (e.isConstant()) {
    Poly p;
    addTerm(p, {}, e.constant());
    return p;
  }
  auto ops = e.operands();
  switch (e.kind()) {
  case K::Symbol:
    return atomPoly(e);
  case K::Paren:
    return toPoly(ops[0]);
  case K::Neg: {
    Poly p = toPoly(ops[0]);
    for (auto &[m, c] : p)
      c = -c;
    return p;
  }
  case K::Add:
  case K::Sub: {
    Poly p = toPoly(ops[0]);
    for (const auto &[m, c] : toPoly(ops[1]))
      addTerm(p, m, e.kind() == K::Add ? c : -c);
    return p;
  }
  case K::Mul:
    return mulPoly(toPoly(ops[0]), toPoly(ops[1]));
  case K::Pow: {
    Poly base = toPoly(ops[0]);
    Poly exp = toPoly(ops[1]);
    auto n = constantOf(exp);
    if (n && *n >= 0 && *n <= 16) {
      Poly acc;
      addTerm(acc, {}, 1);
      for (int64_t i = 0; i < *n; ++i)
        acc = mulPoly(acc, base);
      return acc;
    }
    return atomPoly(SymExpr::binary(K::Pow, polyToExpr(base), polyToExpr(exp)));
  }
  case K::FloorDiv:
  case K::Mod:
  case K::TrueDiv: {
    Poly num = toPoly(ops[0]);
    Poly den = toPoly(ops[1]);
    auto n = constantOf(num);
    auto d = constantOf(den);
    if (d && *d != 0) {
      if (n && e.kind() != K::TrueDiv) {
        Poly p;
        addTerm(p, {}, e.kind() == K::FloorDiv ? floorDiv(*n, *d) : pyMod(*n, *d));
        return p;
      }
      bool divisible = std::all_of(num.begin(), num.end(),
                                   [&](const auto &term) { return term.second % *d == 0; });
      if (divisible) {
        if (e.kind() == K::Mod)
          return Poly{};
        for (auto &[m, c] : num)
          c /= *d;
        return num;
      }
    }
    return atomPoly(SymExpr::binary(e.kind(), polyToExpr(num), polyToExpr(den)));
  }
  case K::Call: {
    std::vector<SymExpr> args;
    bool allConst = !ops.empty();
    for (const SymExpr &op : ops) {
      args.push_back(op.simplify());
      allConst = allConst && args.back().isConstant();
    }
    std::string_view name = e.name();
    if (allConst && (name == "Max" || name == "Min")) {
      int64_t v = args[0].constant();
      for (const SymExpr &a : args)
        v = name == "Max" ? std::max(v, a.constant()) : std::min(v, a.constant());
      Poly p;
      addTerm(p, {}, v);
      return p;
    }
    return atomPoly(SymExpr::call(name, args));
  }
  default:
    return atomPoly(e);
  }
}

} // namespace

SymExpr SymExpr::symbol(std::string_view name) {
  return fromNode(arena().get(Kind::Symbol, name, {}));
}
SymExpr SymExpr::binary(Kind kind, SymExpr lhs, SymExpr rhs) {
  SymExpr ops[2] = {lhs, rhs};
  return fromNode(arena().get(kind, {}, ops));
}
SymExpr SymExpr::neg(SymExpr operand) {
  return fromNode(arena().get(Kind::Neg, {}, {&operand, 1}));
}
SymExpr SymExpr::paren(SymExpr operand) {
  return fromNode(arena().get(Kind::Paren, {}, {&operand, 1}));
}
SymExpr SymExpr::call(std::string_view name, std::span<const SymExpr> args) {
  return fromNode(arena().get(Kind::Call, name, args));
}

Expected<SymExpr> SymExpr::parse(std::string_view text) { return SymParser(text).parseAll(); }

SymExpr::Kind SymExpr::kind() const { return node_ ? node_->kind : Kind::Int; }
std::string_view SymExpr::name() const { return node_ ? node_->name : std::string_view(); }
std::span<const SymExpr> SymExpr::operands() const {
  return node_ ? std::span<const SymExpr>(node_->operands) : std::span<const SymExpr>();
}

std::string SymExpr::str() const {
  std::string out;
  print(out);
  return out;
}

void SymExpr::print(std::string &out) const {
  if (!node_) {
    out += std::to_string(value_);
    return;
  }
  const auto &ops = node_->operands;
  switch (node_->kind) {
  case Kind::Int:
    out += std::to_string(value_);
    return;
  case Kind::Symbol:
    out += node_->name;
    return;
  case Kind::Paren:
    printWithParens(ops[0], true, out);
    return;
  case Kind::Neg:
    out.push_back('-');
    printWithParens(ops[0],
                    precedence(ops[0]) < 3 || (ops[0].isConstant() && ops[0].constant() < 0), out);
    return;
  case Kind::Call:
    out += node_->name;
    out.push_back('(');
    for (size_t i = 0; i < ops.size(); ++i) {
      if (i)
        out += ", ";
      ops[i].print(out);
    }
    out.push_back(')');
    return;
  case Kind::Pow:
    printWithParens(ops[0], precedence(ops[0]) <= 4, out);
    out += "**";
    printWithParens(ops[1], precedence(ops[1]) < 3, out);
    return;
  default: {
    int prec = precedence(*this);
    printWithParens(ops[0], precedence(ops[0]) < prec, out);
    out += opSpelling(node_->kind);
    printWithParens(ops[1], precedence(ops[1]) <= prec, out);
    return;
  }
  }
}

Expected<int64_t> SymExpr::evaluate(const Bindings &bindings) const {
  if (!node_)
    return value_;
  const auto &ops = node_->operands;
  if (node_->kind == Kind::Symbol) {
    auto it = bindings.find(node_->name);
    if (it == bindings.end())
      return Error("no value for symbol '" + std::string(node_->name) + "'");
    return it->second;
  }
  std::vector<int64_t> vals;
  for (const SymExpr &op : ops) {
    auto v = op.evaluate(bindings);
    if (!v)
      return v;
    vals.push_back(*v);
  }
  switch (node_->kind) {
  case Kind::Paren:
    return vals[0];
  case Kind::Neg:
    return -vals[0];
  case Kind::Add:
    return vals[0] + vals[1];
  case Kind::Sub:
    return vals[0] - vals[1];
  case Kind::Mul:
    return vals[0] * vals[1];
  case Kind::FloorDiv:
  case Kind::Mod:
  case Kind::TrueDiv:
    if (vals[1] == 0)
      return Error("division by zero evaluating '" + str() + "'");
    if (node_->kind == Kind::TrueDiv && vals[0] % vals[1] != 0)
      return Error("non-integer result evaluating '" + str() + "'");
    if (node_->kind == Kind::Mod)
      return pyMod(vals[0], vals[1]);
    return node_->kind == Kind::TrueDiv ? vals[0] / vals[1] : floorDiv(vals[0], vals[1]);
  case Kind::Pow: {
    if (vals[1] < 0)
      return Error("negative exponent evaluating '" + str() + "'");
    int64_t acc = 1;
    for (int64_t i = 0; i < vals[1]; ++i)
      acc *= vals[0];
    return acc;
  }
  case Kind::Call: {
    std::string_view n = node_->name;
    if ((n == "Max" || n == "Min" || n == "max" || n == "min") && !vals.empty()) {
      int64_t v = vals[0];
      for (int64_t x : vals)
        v = (n == "Max" || n == "max") ? std::max(v, x) : std::min(v, x);
      return v;
    }
    if ((n == "FloorDiv" || n == "CeilDiv" || n == "floordiv") && vals.size() == 2 && vals[1])
      return n == "CeilDiv" ? -floorDiv(-vals[0], vals[1]) : floorDiv(vals[0], vals[1]);
    if (n == "ModularIndexing" && vals.size() == 3 && vals[1] && vals[2])
      return pyMod(floorDiv(vals[0], vals[1]), vals[2]);
    if ((n == "Mod" || n == "PythonMod") && vals.size() == 2 && vals[1])
      return pyMod(vals[0], vals[1]);
    if (n == "Abs" && vals.size() == 1)
      return vals[0] < 0 ? -vals[0] : vals[0];
    return Error("cannot evaluate function '" + std::string(n) + "' in '" + str() + "'");
  }
  default:
    return Error("cannot evaluate '" + str() + "'");
  }
}

SymExpr SymExpr::substitute(const std::map<std::string, SymExpr, std::less<>> &repl) const {
  if (!node_)
    return *this;
  if (node_->kind == Kind::Symbol) {
    auto it = repl.find(node_->name);
    return it == repl.end() ? *this : it->second;
  }
  std::vector<SymExpr> ops;
  bool changed = false;
  for (const SymExpr &op : node_->operands) {
    ops.push_back(op.substitute(repl));
    changed = changed || ops.back() != op;
  }
  if (!changed)
    return *this;
  switch (node_->kind) {
  case Kind::Neg:
    return neg(ops[0]);
  case Kind::Paren:
    return paren(ops[0]);
  case Kind::Call:
    return call(node_->name, ops);
  default:
    // A substituted compound operand may need parentheses; binary() prints them by precedence.
    return binary(node_->kind, ops[0], ops[1]);
  }
}

SymExpr SymExpr::simplify() const {
  if (!node_)
    return *this;
  const auto *node = static_cast<const ArenaNode *>(node_);
  if (node->hasSimplified.load(std::memory_order_acquire)) {
    const SymNode *n = node->simplifiedNode.load(std::memory_order_relaxed);
    return n ? fromNode(n) : SymExpr(node->simplifiedValue.load(std::memory_order_relaxed));
  }
  SymExpr out = polyToExpr(toPoly(*this));
  node->simplifiedNode.store(out.node_, std::memory_order_relaxed);
  node->simplifiedValue.store(out.value_, std::memory_order_relaxed);
  node->hasSimplified.store(true, std::memory_order_release);
  return out;
}

std::vector<std::string> SymExpr::symbols() const {
  std::vector<std::string> out;
  std::vector<SymExpr> work{*this};
  while (!work.empty()) {
    SymExpr e = work.back();
    work.pop_back();
    if (e.kind() == Kind::Symbol)
      out.emplace_back(e.name());
    for (const SymExpr &op : e.operands())
      work.push_back(op);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

size_t SymExpr::hash() const {
  return std::hash<const void *>()(node_) ^ (std::hash<int64_t>()(value_) * 31);
}

} // namespace fxkit
