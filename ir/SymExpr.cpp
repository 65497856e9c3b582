#include "ir/SymExpr.h"
#include "ir/Argument.h"

#include "ir/Try.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <limits>
#include <mutex>
#include <unordered_set>

namespace fxkit {

/// The case labels of the six comparisons, which every switch over kinds in this file treats
/// alike (the switches stay exhaustive).
#define FXKIT_SYM_COMPARISON_CASES                                                                 \
  case SymExpr::Kind::Lt:                                                                          \
  case SymExpr::Kind::Le:                                                                          \
  case SymExpr::Kind::Gt:                                                                          \
  case SymExpr::Kind::Ge:                                                                          \
  case SymExpr::Kind::Eq:                                                                          \
  case SymExpr::Kind::Ne
/// The same for the binary arithmetic operators but Pow.
#define FXKIT_SYM_ARITHMETIC_CASES                                                                 \
  case SymExpr::Kind::Add:                                                                         \
  case SymExpr::Kind::Sub:                                                                         \
  case SymExpr::Kind::Mul:                                                                         \
  case SymExpr::Kind::TrueDiv:                                                                     \
  case SymExpr::Kind::FloorDiv:                                                                    \
  case SymExpr::Kind::Mod

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

/// Python's binding strengths, weakest first; atoms bind tightest.
enum Prec : int {
  kOr = 1,
  kAnd,
  kNot,
  kCompare,
  kBitOr,
  kBitXor,
  kBitAnd,
  kAdd,
  kMul,
  kUnary,
  kPow,
  kAtom,
};

int precedence(const SymExpr &e) {
  if (e.isConstant())
    return e.constant() < 0 ? kUnary : kAtom;
  switch (e.kind()) {
  case K::Or:
    return kOr;
  case K::And:
    return kAnd;
  case K::Not:
    return kNot;
  FXKIT_SYM_COMPARISON_CASES:
    return kCompare;
  case K::BitOr:
    return kBitOr;
  case K::BitXor:
    return kBitXor;
  case K::BitAnd:
    return kBitAnd;
  case K::Add:
  case K::Sub:
    return kAdd;
  case K::Mul:
  case K::TrueDiv:
  case K::FloorDiv:
  case K::Mod:
    return kMul;
  case K::Neg:
  case K::Invert:
    return kUnary;
  case K::Pow:
    return kPow;
  case K::Float:
    return e.name().starts_with('-') ? kUnary : kAtom;
  case K::Int:
  case K::Symbol:
  case K::Paren:
  case K::Call:
  case K::Named:
  case K::Tuple:
    return kAtom;
  }
  return kAtom;
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
  case K::Lt:
    return " < ";
  case K::Le:
    return " <= ";
  case K::Gt:
    return " > ";
  case K::Ge:
    return " >= ";
  case K::Eq:
    return " == ";
  case K::Ne:
    return " != ";
  case K::BitAnd:
    return " & ";
  case K::BitOr:
    return " | ";
  case K::BitXor:
    return " ^ ";
  case K::And:
    return " and ";
  case K::Or:
    return " or ";
  case K::Int:
  case K::Symbol:
  case K::Neg:
  case K::Paren:
  case K::Call:
  case K::Float:
  case K::Named:
  case K::Tuple:
  case K::Invert:
  case K::Not:
    break;
  }
  return "?";
}

/// The named constants sympy prints (never free symbols).
bool isNamedConstant(std::string_view name) {
  return name == "True" || name == "False" || name == "oo" || name == "int_oo" || name == "zoo" ||
         name == "nan" || name == "math.inf";
}

void printWithParens(const SymExpr &e, bool parens, std::string &out) {
  if (parens)
    out.push_back('(');
  e.print(out);
  if (parens)
    out.push_back(')');
}

// ---- Parser -------------------------------------------------------------------------------

/// Recursive descent over Python's expression grammar (the part sympy's StrPrinter and
/// PyTorch's PythonPrinter write). Every rule that can recurse into a nested expression
/// counts depth, so hostile input fails with an error instead of exhausting the stack.
class SymParser {
public:
  explicit SymParser(std::string_view text) : text_(text), logical_(hasLogic(text)) {}

  Expected<SymExpr> parseAll() {
    auto e = parseOr();
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
  /// ASCII only, without the locale (std::isalnum): sizes are parsed by the million.
  static bool identChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }
  /// A keyword (`and`, `or`, `not`) as a whole word.
  bool eatKeyword(std::string_view word) {
    skipSpace();
    if (text_.substr(pos_, word.size()) != word)
      return false;
    size_t after = pos_ + word.size();
    if (after < text_.size() && identChar(text_[after]))
      return false;
    pos_ = after;
    return true;
  }
  Status enter() {
    if (++depth_ > kMaxDepth)
      return fail("symbolic expression nested too deeply");
    return Status::ok();
  }

  /// Left-associative binary level: `next (op next)*` for one operator spelling.
  template <typename Next>
  Expected<SymExpr> leftAssoc(Next next, K kind, bool (SymParser::*match)()) {
    auto lhs = (this->*next)();
    if (!lhs)
      return lhs;
    SymExpr acc = *lhs;
    while ((this->*match)()) {
      auto rhs = (this->*next)();
      if (!rhs)
        return rhs;
      acc = SymExpr::binary(kind, acc, *rhs);
    }
    return acc;
  }
  bool matchOr() { return eatKeyword("or"); }
  bool matchAnd() { return eatKeyword("and"); }
  bool matchBitOr() { return peek() == '|' && (++pos_, true); }
  bool matchBitXor() { return peek() == '^' && (++pos_, true); }
  bool matchBitAnd() { return peek() == '&' && (++pos_, true); }

  /// Whether `text` has a comparison, a bitwise or logical operator, or an `and`/`or`/`not`
  /// word: sizes have none, and skip those grammar levels (parsing sizes is a hot path).
  static bool hasLogic(std::string_view text) {
    for (size_t i = 0; i < text.size(); ++i) {
      switch (text[i]) {
      case '<':
      case '>':
      case '=':
      case '!':
      case '&':
      case '|':
      case '^':
      case '~':
        return true;
      case 'a':
      case 'o':
      case 'n':
        if (i == 0 || !(identChar(text[i - 1]) || text[i - 1] == '.')) {
          size_t end = i;
          while (end < text.size() && identChar(text[end]))
            ++end;
          std::string_view word = text.substr(i, end - i);
          if (word == "and" || word == "or" || word == "not")
            return true;
        }
        break;
      default:
        break;
      }
    }
    return false;
  }

  Expected<SymExpr> parseOr() {
    if (!logical_)
      return parseAdditive();
    return leftAssoc(&SymParser::parseAnd, K::Or, &SymParser::matchOr);
  }
  Expected<SymExpr> parseAnd() {
    return leftAssoc(&SymParser::parseNot, K::And, &SymParser::matchAnd);
  }
  Expected<SymExpr> parseNot() {
    if (!eatKeyword("not"))
      return parseComparison();
    FXKIT_TRY(enter());
    auto operand = parseNot();
    --depth_;
    if (!operand)
      return operand;
    return SymExpr::unary(K::Not, *operand);
  }
  /// One comparison. Python chains `a < b < c` into `a < b and b < c`; no printer of PyTorch
  /// writes a chain, so one is refused rather than read with the wrong meaning.
  std::optional<K> comparisonOp() {
    skipSpace();
    std::string_view rest = text_.substr(pos_);
    static constexpr std::pair<std::string_view, K> kOps[] = {
        {"<=", K::Le}, {">=", K::Ge}, {"==", K::Eq}, {"!=", K::Ne}, {"<", K::Lt}, {">", K::Gt}};
    for (const auto &[spelling, kind] : kOps)
      if (rest.starts_with(spelling)) {
        pos_ += spelling.size();
        return kind;
      }
    return std::nullopt;
  }
  Expected<SymExpr> parseComparison() {
    auto lhs = parseBitOr();
    if (!lhs)
      return lhs;
    auto op = comparisonOp();
    if (!op)
      return lhs;
    auto rhs = parseBitOr();
    if (!rhs)
      return rhs;
    size_t at = pos_;
    if (comparisonOp()) {
      pos_ = at;
      skipSpace();
      return fail("chained comparison in symbolic expression (parenthesize each comparison)");
    }
    return SymExpr::binary(*op, *lhs, *rhs);
  }
  Expected<SymExpr> parseBitOr() {
    return leftAssoc(&SymParser::parseBitXor, K::BitOr, &SymParser::matchBitOr);
  }
  Expected<SymExpr> parseBitXor() {
    return leftAssoc(&SymParser::parseBitAnd, K::BitXor, &SymParser::matchBitXor);
  }
  Expected<SymExpr> parseBitAnd() {
    return leftAssoc(&SymParser::parseAdditive, K::BitAnd, &SymParser::matchBitAnd);
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
    char c = peek();
    if (c == '-' || c == '~' || c == '+') {
      ++pos_;
      FXKIT_TRY(enter());
      auto operand = parseUnary();
      --depth_;
      if (!operand || c == '+')
        return operand;
      return SymExpr::unary(c == '-' ? K::Neg : K::Invert, *operand);
    }
    return parsePower();
  }

  Expected<SymExpr> parsePower() {
    auto base = parsePrimary();
    if (!base)
      return base;
    if (eat("**")) {
      FXKIT_TRY(enter());
      auto exponent = parseUnary(); // right-associative, binds a unary minus on its right
      --depth_;
      if (!exponent)
        return exponent;
      return SymExpr::binary(K::Pow, *base, *exponent);
    }
    return base;
  }

  /// `(a)`, or a tuple `(a, b)`, `(a,)`, `()` (Piecewise's pairs).
  Expected<SymExpr> parseParenthesized() {
    ++pos_;
    FXKIT_TRY(enter());
    std::vector<SymExpr> items;
    bool comma = false;
    while (peek() != ')') {
      auto item = parseOr();
      if (!item)
        return item;
      items.push_back(*item);
      if (!eat(","))
        break;
      comma = true;
    }
    --depth_;
    if (!eat(")"))
      return fail(peek() == '\0' ? "expected ')' in symbolic expression"
                                 : "expected ',' or ')' in symbolic expression, found '" +
                                       std::string(1, text_[pos_]) + "'");
    if (items.size() == 1 && !comma)
      return SymExpr::paren(items[0]);
    return SymExpr::tuple(items);
  }

  /// An integer, or a float (`0.5`, `1.00000000000000E-12`, `1e-05`, `2.`) kept as spelled.
  Expected<SymExpr> parseNumber() {
    size_t start = pos_;
    auto digits = [&] {
      size_t from = pos_;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])))
        ++pos_;
      return pos_ > from;
    };
    digits();
    bool isFloat = false;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      digits();
      isFloat = true;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      size_t mark = pos_++;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-'))
        ++pos_;
      if (!digits()) {
        pos_ = mark;
        return fail("bad exponent in number in symbolic expression");
      }
      isFloat = true;
    }
    std::string_view spelling = text_.substr(start, pos_ - start);
    if (isFloat)
      return SymExpr::floating(spelling);
    int64_t value = 0;
    for (char d : spelling) {
      int digit = d - '0';
      if (value > (INT64_MAX - digit) / 10) {
        pos_ = start;
        return fail("integer literal out of range in symbolic expression");
      }
      value = value * 10 + digit;
    }
    return SymExpr(value);
  }

  Expected<SymExpr> parsePrimary() {
    char c = peek();
    if (c == '(')
      return parseParenthesized();
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && pos_ + 1 < text_.size() &&
         std::isdigit(static_cast<unsigned char>(text_[pos_ + 1]))))
      return parseNumber();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = pos_;
      while (pos_ < text_.size() && (identChar(text_[pos_]) || text_[pos_] == '.'))
        ++pos_;
      std::string_view name = text_.substr(start, pos_ - start);
      bool keyword =
          name.size() <= 4 && std::string_view("aonie").find(name[0]) != name.npos &&
          (name == "and" || name == "or" || name == "not" || name == "if" || name == "else");
      if (keyword || name.ends_with('.')) {
        pos_ = start;
        return fail("unexpected '" + std::string(name) + "' in symbolic expression");
      }
      if (peek() == '(') {
        ++pos_;
        FXKIT_TRY(enter());
        std::vector<SymExpr> args;
        while (peek() != ')') {
          auto arg = parseOr();
          if (!arg)
            return arg;
          args.push_back(*arg);
          if (!eat(","))
            break;
        }
        --depth_;
        if (!eat(")"))
          return fail("expected ')' after arguments of '" + std::string(name) + "'");
        return SymExpr::call(name, args);
      }
      if (std::string_view("TFoizmn").find(name[0]) != std::string_view::npos &&
          isNamedConstant(name))
        return SymExpr::fromNode(arena().get(K::Named, name, {}));
      return SymExpr::symbol(name);
    }
    if (c == '\0')
      return fail("symbolic expression ends unexpectedly");
    return fail("unexpected '" + std::string(1, c) + "' in symbolic expression");
  }

  std::string_view text_;
  bool logical_ = true;
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

/// Set when a coefficient of the polynomial simplify() is building leaves int64 (sizes from a
/// fuzzed type such as f32[2**62, 4]): simplify() then keeps the expression as written, and
/// evaluating it reports the overflow (checked arithmetic) instead of wrapping silently.
thread_local bool tPolyOverflow = false;

int64_t mulCoefficient(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r))
    tPolyOverflow = true;
  return r;
}
int64_t negCoefficient(int64_t c) {
  if (c == std::numeric_limits<int64_t>::min()) {
    tPolyOverflow = true;
    return c;
  }
  return -c;
}

void addTerm(Poly &p, const Monomial &m, int64_t c) {
  if (c == 0)
    return;
  auto &slot = p[m];
  if (__builtin_add_overflow(slot, c, &slot))
    tPolyOverflow = true;
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
      addTerm(out, m, mulCoefficient(ca, cb));
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
      c = negCoefficient(c);
    return p;
  }
  case K::Add:
  case K::Sub: {
    Poly p = toPoly(ops[0]);
    for (const auto &[m, c] : toPoly(ops[1]))
      addTerm(p, m, e.kind() == K::Add ? c : negCoefficient(c));
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
    // INT64_MIN / -1 leaves int64 (and % traps): such a quotient stays as written.
    if (d && *d != 0 && *d != -1) {
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
  case K::Tuple: {
    std::vector<SymExpr> items;
    for (const SymExpr &op : ops)
      items.push_back(op.simplify());
    return atomPoly(SymExpr::tuple(items));
  }
  case K::Invert:
  case K::Not:
    return atomPoly(SymExpr::unary(e.kind(), ops[0].simplify()));
  FXKIT_SYM_COMPARISON_CASES:
  case K::BitAnd:
  case K::BitOr:
  case K::BitXor:
  case K::And:
  case K::Or:
    // Booleans are not polynomials: their operands are simplified, they stay atoms.
    return atomPoly(SymExpr::binary(e.kind(), ops[0].simplify(), ops[1].simplify()));
  case K::Int:
  case K::Float:
  case K::Named:
    return atomPoly(e);
  }
  return atomPoly(e);
}

// ---- Evaluation ----------------------------------------------------------------------------

using Number = SymExpr::Number;
using T = SymExpr::Type;

Number intNumber(int64_t v) { return Number{T::Int, v, 0}; }
Number floatNumber(double v) { return Number{T::Float, 0, v}; }
Number boolNumber(bool v) { return Number{T::Bool, v ? 1 : 0, 0}; }

/// Evaluates with Python's semantics for int, float and bool, and sympy's functions as
/// torch/utils/_sympy/functions.py defines them. Integers that leave int64 are errors (Python's
/// would grow), never wrapped.
class Evaluator {
public:
  Evaluator(const SymExpr &root, const SymExpr::Bindings &bindings)
      : root_(root), bindings_(bindings) {}

  Expected<Number> eval(const SymExpr &e) {
    if (e.isConstant())
      return intNumber(e.constant());
    auto ops = e.operands();
    switch (e.kind()) {
    case K::Int:
      return intNumber(e.constant());
    case K::Symbol: {
      auto it = bindings_.find(e.name());
      if (it == bindings_.end())
        return Error("no value for symbol '" + std::string(e.name()) + "'");
      return intNumber(it->second);
    }
    case K::Float: {
      std::string spelling(e.name());
      char *end = nullptr;
      double v = std::strtod(spelling.c_str(), &end);
      if (end != spelling.c_str() + spelling.size())
        return fail("bad floating literal '" + spelling + "'");
      return floatNumber(v);
    }
    case K::Named:
      if (e.name() == "True" || e.name() == "False")
        return boolNumber(e.name() == "True");
      if (e.name() == "nan")
        return floatNumber(std::numeric_limits<double>::quiet_NaN());
      if (e.name() == "oo" || e.name() == "math.inf")
        return floatNumber(std::numeric_limits<double>::infinity());
      return fail("cannot evaluate '" + std::string(e.name()) + "'");
    case K::Paren:
      return eval(ops[0]);
    case K::Tuple:
      return fail("a tuple has no value");
    case K::And:
    case K::Or: {
      // Python's `and`/`or` give an operand, evaluating the right one only when needed.
      auto a = eval(ops[0]);
      if (!a || a->truthy() == (e.kind() == K::Or))
        return a;
      return eval(ops[1]);
    }
    case K::Call:
      return call(e);
    case K::Neg:
    case K::Invert:
    case K::Not: {
      auto a = eval(ops[0]);
      if (!a)
        return a;
      return unary(e.kind(), *a);
    }
    FXKIT_SYM_ARITHMETIC_CASES:
    case K::Pow:
    FXKIT_SYM_COMPARISON_CASES:
    case K::BitAnd:
    case K::BitOr:
    case K::BitXor: {
      auto a = eval(ops[0]);
      if (!a)
        return a;
      auto b = eval(ops[1]);
      if (!b)
        return b;
      return binary(e.kind(), *a, *b);
    }
    }
    return fail("cannot evaluate");
  }

private:
  Error fail(const std::string &why) const {
    return Error(why + " evaluating '" + root_.str() + "'");
  }
  Expected<int64_t> checked(bool overflow, int64_t v) const {
    if (overflow)
      return fail("integer overflow");
    return v;
  }
  static bool isInt(const Number &n) { return n.type != T::Float; }

  Expected<Number> unary(K kind, const Number &a) {
    switch (kind) {
    case K::Not:
      return boolNumber(!a.truthy());
    case K::Invert:
      // sympy prints its logical Not as `~`: on a bool it is `not`; on an int Python's ~.
      if (a.type == T::Bool)
        return boolNumber(!a.truthy());
      if (a.type == T::Float)
        return fail("bad operand type for unary ~: 'float'");
      return intNumber(~a.i);
    default: // Neg
      if (a.type == T::Float)
        return floatNumber(-a.f);
      if (a.i == std::numeric_limits<int64_t>::min())
        return fail("integer overflow");
      return intNumber(-a.i);
    }
  }

  Expected<Number> binary(K kind, const Number &a, const Number &b) {
    bool ints = isInt(a) && isInt(b);
    double x = a.asDouble(), y = b.asDouble();
    switch (kind) {
    case K::Lt:
      return boolNumber(ints ? a.i < b.i : x < y);
    case K::Le:
      return boolNumber(ints ? a.i <= b.i : x <= y);
    case K::Gt:
      return boolNumber(ints ? a.i > b.i : x > y);
    case K::Ge:
      return boolNumber(ints ? a.i >= b.i : x >= y);
    case K::Eq:
      return boolNumber(ints ? a.i == b.i : x == y);
    case K::Ne:
      return boolNumber(ints ? a.i != b.i : x != y);
    case K::BitAnd:
    case K::BitOr:
    case K::BitXor: {
      if (!ints)
        return fail("bitwise operation on a float");
      int64_t r = kind == K::BitAnd ? (a.i & b.i) : kind == K::BitOr ? (a.i | b.i) : (a.i ^ b.i);
      return a.type == T::Bool && b.type == T::Bool ? boolNumber(r != 0) : intNumber(r);
    }
    case K::Add:
    case K::Sub:
    case K::Mul: {
      if (!ints)
        return floatNumber(kind == K::Add ? x + y : kind == K::Sub ? x - y : x * y);
      int64_t r = 0;
      bool o = kind == K::Add   ? __builtin_add_overflow(a.i, b.i, &r)
               : kind == K::Sub ? __builtin_sub_overflow(a.i, b.i, &r)
                                : __builtin_mul_overflow(a.i, b.i, &r);
      FXKIT_ASSIGN_OR_RETURN(auto v, checked(o, r));
      return intNumber(v);
    }
    case K::TrueDiv:
      if (y == 0)
        return fail("division by zero");
      return floatNumber(x / y);
    case K::FloorDiv:
    case K::Mod:
      if (y == 0)
        return fail("division by zero");
      if (!ints) {
        double q = std::floor(x / y);
        return floatNumber(kind == K::FloorDiv ? q : x - q * y);
      }
      if (kind == K::FloorDiv) {
        if (b.i == -1 && a.i == std::numeric_limits<int64_t>::min())
          return fail("integer overflow");
        return intNumber(floorDiv(a.i, b.i));
      }
      return intNumber(b.i == -1 ? 0 : pyMod(a.i, b.i));
    case K::Pow:
      return power(a, b);
    default:
      return fail("cannot evaluate");
    }
  }

  Expected<Number> power(const Number &a, const Number &b) {
    if (!isInt(a) || !isInt(b) || b.i < 0) {
      if (a.asDouble() == 0 && b.asDouble() < 0)
        return fail("0 cannot be raised to a negative power");
      return floatNumber(std::pow(a.asDouble(), b.asDouble()));
    }
    int64_t acc = 1, base = a.i;
    for (int64_t e = b.i; e > 0; e >>= 1) {
      if (e & 1) {
        if (__builtin_mul_overflow(acc, base, &acc))
          return fail("integer overflow");
      }
      if (e > 1 && __builtin_mul_overflow(base, base, &base))
        return fail("integer overflow");
    }
    return intNumber(acc);
  }

  /// A float to an int as Python's int()/math.floor() do: NaN and infinities are errors.
  Expected<Number> toInt(double v) {
    if (std::isnan(v) || std::isinf(v) || v >= 9.2233720368547758e18 || v < -9.2233720368547758e18)
      return fail("cannot convert " + std::to_string(v) + " to an integer");
    return intNumber(static_cast<int64_t>(v));
  }

  /// An integer quotient rounded (floor, ceil, trunc) exactly: `math.ceil(s27 / 32)`,
  /// FloorToInt(IntTrueDiv(a, b)) as PyTorch's printers write integer ceil-division.
  std::optional<Expected<Number>> exactRounding(std::string_view rounding, const SymExpr &arg) {
    SymExpr q = arg;
    while (q.kind() == K::Paren)
      q = q.operands()[0];
    bool trueDiv =
        q.kind() == K::TrueDiv || (q.kind() == K::Call && q.operands().size() == 2 &&
                                   (q.name() == "IntTrueDiv" || q.name() == "FloatTrueDiv"));
    if (!trueDiv)
      return std::nullopt;
    auto a = eval(q.operands()[0]);
    if (!a)
      return Expected<Number>(a.takeError());
    auto b = eval(q.operands()[1]);
    if (!b)
      return Expected<Number>(b.takeError());
    if (!isInt(*a) || !isInt(*b))
      return std::nullopt;
    if (b->i == 0)
      return Expected<Number>(fail("division by zero"));
    if (b->i == -1 && a->i == std::numeric_limits<int64_t>::min())
      return Expected<Number>(fail("integer overflow"));
    int64_t fl = floorDiv(a->i, b->i);
    bool exact = a->i % b->i == 0;
    int64_t r = rounding == "floor"  ? fl
                : rounding == "ceil" ? (exact ? fl : fl + 1)
                                     : ((fl < 0 && !exact) ? fl + 1 : fl); // trunc
    return Expected<Number>(intNumber(r));
  }

  static std::string_view roundingOf(std::string_view n) {
    if (n == "math.ceil" || n == "ceiling" || n == "CeilToInt")
      return "ceil";
    if (n == "math.floor" || n == "floor" || n == "FloorToInt")
      return "floor";
    if (n == "math.trunc" || n == "TruncToInt" || n == "int")
      return "trunc";
    return {};
  }

  /// IsNonOverlappingAndDenseIndicator(sizes..., strides...): symbolic_shapes'
  /// _eval_is_non_overlapping_and_dense.
  static bool nonOverlappingAndDense(std::vector<int64_t> sizes, std::vector<int64_t> strides) {
    size_t dim = sizes.size();
    if (dim == 1)
      return strides[0] == 1 || sizes[0] < 2;
    std::vector<size_t> order(dim);
    for (size_t i = 0; i < dim; ++i)
      order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t p, size_t q) { return strides[p] < strides[q]; });
    int64_t expected = 1;
    for (size_t i : order) {
      if (sizes[i] == 1)
        continue;
      if (strides[i] != expected)
        return false;
      expected *= sizes[i];
    }
    return true;
  }

  Expected<Number> call(const SymExpr &e) {
    std::string_view n = e.name();
    auto ops = e.operands();
    std::string_view rounding = roundingOf(n);
    if (!rounding.empty() && ops.size() == 1)
      if (auto exact = exactRounding(rounding, ops[0]))
        return std::move(*exact);
    if (n == "Piecewise") {
      // Piecewise((value, condition), ...): the first pair whose condition holds.
      for (const SymExpr &pair : ops) {
        if (pair.kind() != K::Tuple || pair.operands().size() != 2)
          return fail("Piecewise takes (value, condition) pairs");
        auto c = eval(pair.operands()[1]);
        if (!c)
          return c;
        if (c->truthy())
          return eval(pair.operands()[0]);
      }
      return fail("no condition of Piecewise holds");
    }
    if (n == "Where" && ops.size() == 3) {
      auto c = eval(ops[0]);
      if (!c)
        return c;
      return eval(ops[c->truthy() ? 1 : 2]);
    }
    std::vector<Number> v;
    for (const SymExpr &op : ops) {
      auto x = eval(op);
      if (!x)
        return x;
      v.push_back(*x);
    }
    auto arity = [&](size_t k) { return v.size() == k; };
    bool ints = std::all_of(v.begin(), v.end(), [](const Number &x) { return isInt(x); });
    if ((n == "Max" || n == "Min" || n == "max" || n == "min" || n == "sym_max" ||
         n == "sym_min") &&
        !v.empty()) {
      bool isMax = n == "Max" || n == "max" || n == "sym_max";
      Number best = v[0];
      for (const Number &x : v) {
        bool better =
            ints ? (isMax ? x.i > best.i : x.i < best.i)
                 : (isMax ? x.asDouble() > best.asDouble() : x.asDouble() < best.asDouble());
        if (better)
          best = x;
      }
      if (!ints && best.type != T::Float)
        best = floatNumber(best.asDouble()); // sympy's Max of a float and an int is a float
      return best;
    }
    if ((n == "FloorDiv" || n == "floordiv" || n == "CleanDiv") && arity(2))
      return binary(K::FloorDiv, v[0], v[1]);
    if (n == "CeilDiv" && arity(2)) {
      // CeilDiv(a, b) is FloorDiv(a + (b - 1), b).
      auto num = binary(K::Add, v[0], intNumber(-1));
      if (!num)
        return num;
      auto sum = binary(K::Add, *num, v[1]);
      if (!sum)
        return sum;
      return binary(K::FloorDiv, *sum, v[1]);
    }
    if (n == "ModularIndexing" && arity(3)) {
      auto q = binary(K::FloorDiv, v[0], v[1]);
      if (!q)
        return q;
      return binary(K::Mod, *q, v[2]);
    }
    if ((n == "Mod" || n == "PythonMod" || n == "mod") && arity(2))
      return binary(K::Mod, v[0], v[1]);
    if ((n == "IntTrueDiv" || n == "FloatTrueDiv" || n == "truediv") && arity(2))
      return binary(K::TrueDiv, v[0], v[1]);
    if ((n == "PowByNatural" || n == "FloatPow" || n == "pow") && arity(2)) {
      if (n == "FloatPow")
        return floatNumber(std::pow(v[0].asDouble(), v[1].asDouble()));
      return power(v[0], v[1]);
    }
    if ((n == "Eq" || n == "Ne" || n == "Lt" || n == "Le" || n == "Gt" || n == "Ge" ||
         n == "StrictLessThan" || n == "StrictGreaterThan" || n == "LessThan" ||
         n == "GreaterThan") &&
        arity(2)) {
      K k = n == "Eq"                               ? K::Eq
            : n == "Ne"                             ? K::Ne
            : n == "Lt" || n == "StrictLessThan"    ? K::Lt
            : n == "Le" || n == "LessThan"          ? K::Le
            : n == "Gt" || n == "StrictGreaterThan" ? K::Gt
                                                    : K::Ge;
      return binary(k, v[0], v[1]);
    }
    if ((n == "And" || n == "Or" || n == "Xor") && !v.empty()) {
      bool acc = n == "And";
      bool x = false;
      for (const Number &a : v) {
        if (n == "And")
          acc = acc && a.truthy();
        else if (n == "Or")
          acc = acc || a.truthy();
        else
          x = x != a.truthy();
      }
      return boolNumber(n == "Xor" ? x : acc);
    }
    if ((n == "Not" || n == "sym_not") && arity(1))
      return boolNumber(!v[0].truthy());
    if ((n == "Abs" || n == "abs") && arity(1)) {
      if (v[0].type == T::Float)
        return floatNumber(std::fabs(v[0].f));
      if (v[0].i < 0)
        return unary(K::Neg, v[0]);
      return intNumber(v[0].i);
    }
    if ((n == "Identity" || n == "Paren") && arity(1))
      return v[0];
    if ((n == "ToFloat" || n == "float" || n == "sym_float") && arity(1))
      return floatNumber(v[0].asDouble());
    if (n == "TruncToFloat" && arity(1))
      return floatNumber(std::trunc(v[0].asDouble()));
    if (!rounding.empty() && arity(1)) {
      if (isInt(v[0]))
        return intNumber(v[0].i);
      double x = v[0].f;
      return toInt(rounding == "floor"  ? std::floor(x)
                   : rounding == "ceil" ? std::ceil(x)
                                        : std::trunc(x));
    }
    if ((n == "RoundToInt" || n == "round") && arity(1)) {
      if (isInt(v[0]))
        return intNumber(v[0].i);
      return toInt(std::nearbyint(v[0].f)); // half to even, as Python's round
    }
    if (n == "RoundDecimal" && arity(2) && isInt(v[1])) {
      double scale = std::pow(10.0, static_cast<double>(v[1].i));
      return floatNumber(std::nearbyint(v[0].asDouble() * scale) / scale);
    }
    if ((n == "LShift" || n == "RShift") && arity(2) && ints) {
      if (v[1].i < 0)
        return fail("negative shift count");
      if (n == "RShift")
        return intNumber(v[1].i >= 63 ? (v[0].i < 0 ? -1 : 0) : v[0].i >> v[1].i);
      auto p = power(intNumber(2), v[1]);
      if (!p)
        return p;
      return binary(K::Mul, v[0], *p);
    }
    if (n.starts_with("BitwiseFn_bitwise_") && arity(2)) {
      std::string_view op = n.substr(18);
      K k = op == "and" ? K::BitAnd : op == "or" ? K::BitOr : K::BitXor;
      if (op == "and" || op == "or" || op == "xor")
        return binary(k, v[0], v[1]);
    }
    if (n == "IsNonOverlappingAndDenseIndicator" && v.size() % 2 == 0 && ints) {
      std::vector<int64_t> sizes, strides;
      for (size_t i = 0; i < v.size(); ++i)
        (i < v.size() / 2 ? sizes : strides).push_back(v[i].i);
      return intNumber(nonOverlappingAndDense(sizes, strides) ? 1 : 0);
    }
    // sympy's sqrt, OpaqueUnaryFn_<math function>, math.<function>.
    std::string_view fn = n;
    if (fn.starts_with("OpaqueUnaryFn_"))
      fn = fn.substr(14);
    else if (fn.starts_with("math."))
      fn = fn.substr(5);
    if (arity(1)) {
      double x = v[0].asDouble();
      static const std::pair<std::string_view, double (*)(double)> kMath[] = {
          {"sqrt", [](double a) { return std::sqrt(a); }},
          {"exp", [](double a) { return std::exp(a); }},
          {"log", [](double a) { return std::log(a); }},
          {"log2", [](double a) { return std::log2(a); }},
          {"sin", [](double a) { return std::sin(a); }},
          {"cos", [](double a) { return std::cos(a); }},
          {"tan", [](double a) { return std::tan(a); }},
          {"asin", [](double a) { return std::asin(a); }},
          {"acos", [](double a) { return std::acos(a); }},
          {"atan", [](double a) { return std::atan(a); }},
          {"sinh", [](double a) { return std::sinh(a); }},
          {"cosh", [](double a) { return std::cosh(a); }},
          {"tanh", [](double a) { return std::tanh(a); }},
          {"asinh", [](double a) { return std::asinh(a); }},
      };
      for (const auto &[name, f] : kMath)
        if (fn == name)
          return floatNumber(f(x));
    }
    return fail("cannot evaluate function '" + std::string(n) + "'");
  }

  const SymExpr &root_;
  const SymExpr::Bindings &bindings_;
};

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
SymExpr SymExpr::floating(std::string_view spelling) {
  return fromNode(arena().get(Kind::Float, spelling, {}));
}
SymExpr SymExpr::floating(double value) { return floating(pyFloatRepr(value)); }
SymExpr SymExpr::boolean(bool value) {
  return fromNode(arena().get(Kind::Named, value ? "True" : "False", {}));
}
SymExpr SymExpr::unary(Kind kind, SymExpr operand) {
  return fromNode(arena().get(kind, {}, {&operand, 1}));
}
SymExpr SymExpr::tuple(std::span<const SymExpr> items) {
  return fromNode(arena().get(Kind::Tuple, {}, items));
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
  case Kind::Float:
  case Kind::Named:
    out += node_->name;
    return;
  case Kind::Paren:
    printWithParens(ops[0], true, out);
    return;
  case Kind::Neg:
  case Kind::Invert:
    out.push_back(node_->kind == Kind::Neg ? '-' : '~');
    printWithParens(
        ops[0], precedence(ops[0]) < kUnary || (ops[0].isConstant() && ops[0].constant() < 0), out);
    return;
  case Kind::Not:
    out += "not ";
    printWithParens(ops[0], precedence(ops[0]) < kNot, out);
    return;
  case Kind::Call:
  case Kind::Tuple:
    out += node_->name;
    out.push_back('(');
    for (size_t i = 0; i < ops.size(); ++i) {
      if (i)
        out += ", ";
      ops[i].print(out);
    }
    if (node_->kind == Kind::Tuple && ops.size() == 1)
      out.push_back(',');
    out.push_back(')');
    return;
  case Kind::Pow:
    printWithParens(ops[0], precedence(ops[0]) <= kPow, out);
    out += "**";
    printWithParens(ops[1], precedence(ops[1]) < kUnary, out);
    return;
  FXKIT_SYM_COMPARISON_CASES:
    // Not associative (Python would chain them): both sides parenthesize a comparison.
    printWithParens(ops[0], precedence(ops[0]) <= kCompare, out);
    out += opSpelling(node_->kind);
    printWithParens(ops[1], precedence(ops[1]) <= kCompare, out);
    return;
  FXKIT_SYM_ARITHMETIC_CASES:
  case Kind::BitAnd:
  case Kind::BitOr:
  case Kind::BitXor:
  case Kind::And:
  case Kind::Or: {
    int prec = precedence(*this);
    printWithParens(ops[0], precedence(ops[0]) < prec, out);
    out += opSpelling(node_->kind);
    printWithParens(ops[1], precedence(ops[1]) <= prec, out);
    return;
  }
  }
}

SymExpr::Type SymExpr::type() const {
  if (!node_)
    return Type::Int;
  const auto &ops = node_->operands;
  auto anyFloat = [&] {
    return std::any_of(ops.begin(), ops.end(),
                       [](const SymExpr &op) { return op.type() == Type::Float; });
  };
  switch (node_->kind) {
  case Kind::Int:
  case Kind::Tuple:
    return Type::Int;
  case Kind::Symbol:
    // PyTorch names float symbols zf<N> (backed) and zuf<N> (unbacked).
    return node_->name.starts_with("zf") || node_->name.starts_with("zuf") ? Type::Float
                                                                           : Type::Int;
  case Kind::Float:
    return Type::Float;
  case Kind::Named:
    return node_->name == "True" || node_->name == "False" ? Type::Bool
           : node_->name == "int_oo"                       ? Type::Int
                                                           : Type::Float;
  case Kind::Paren:
    return ops[0].type();
  FXKIT_SYM_COMPARISON_CASES:
  case Kind::Not:
  case Kind::And:
  case Kind::Or:
    return Type::Bool;
  case Kind::Invert:
    return ops[0].type() == Type::Bool ? Type::Bool : Type::Int;
  case Kind::BitAnd:
  case Kind::BitOr:
  case Kind::BitXor:
    return ops[0].type() == Type::Bool && ops[1].type() == Type::Bool ? Type::Bool : Type::Int;
  case Kind::TrueDiv:
    return Type::Float;
  case Kind::Pow:
    if (ops[1].isConstant() && ops[1].constant() < 0)
      return Type::Float;
    return anyFloat() ? Type::Float : Type::Int;
  case Kind::Add:
  case Kind::Sub:
  case Kind::Mul:
  case Kind::FloorDiv:
  case Kind::Mod:
  case Kind::Neg:
    return anyFloat() ? Type::Float : Type::Int;
  case Kind::Call: {
    std::string_view n = node_->name;
    static constexpr std::string_view kBool[] = {"Eq",
                                                 "Ne",
                                                 "Lt",
                                                 "Le",
                                                 "Gt",
                                                 "Ge",
                                                 "And",
                                                 "Or",
                                                 "Not",
                                                 "Xor",
                                                 "sym_not",
                                                 "StrictLessThan",
                                                 "StrictGreaterThan",
                                                 "LessThan",
                                                 "GreaterThan"};
    static constexpr std::string_view kFloat[] = {
        "ToFloat",      "TruncToFloat", "FloatTrueDiv", "IntTrueDiv", "FloatPow",
        "RoundDecimal", "sqrt",         "float",        "sym_float",  "truediv"};
    for (std::string_view b : kBool)
      if (n == b)
        return Type::Bool;
    for (std::string_view f : kFloat)
      if (n == f)
        return Type::Float;
    if (n.starts_with("OpaqueUnaryFn_"))
      return Type::Float;
    if (n.starts_with("math.")) {
      std::string_view fn = n.substr(5);
      return fn == "floor" || fn == "ceil" || fn == "trunc" ? Type::Int : Type::Float;
    }
    if (n == "Max" || n == "Min" || n == "Abs" || n == "Identity" || n == "max" || n == "min" ||
        n == "sym_max" || n == "sym_min" || n == "abs")
      return anyFloat() ? Type::Float : ops.empty() ? Type::Int : ops[0].type();
    if (n == "Where" && ops.size() == 3)
      return ops[1].type() == Type::Float || ops[2].type() == Type::Float ? Type::Float
                                                                          : ops[1].type();
    if (n == "Piecewise" && !ops.empty() && ops[0].kind() == Kind::Tuple &&
        !ops[0].operands().empty())
      return ops[0].operands()[0].type();
    return Type::Int;
  }
  }
  return Type::Int;
}

Expected<SymExpr::Number> SymExpr::evaluateNumber(const Bindings &bindings) const {
  return Evaluator(*this, bindings).eval(*this);
}

Expected<int64_t> SymExpr::evaluate(const Bindings &bindings) const {
  if (!node_)
    return value_;
  if (node_->kind == Kind::Symbol) { // the hot path: a size that is one symbol
    auto it = bindings.find(node_->name);
    if (it == bindings.end())
      return Error("no value for symbol '" + std::string(node_->name) + "'");
    return it->second;
  }
  FXKIT_ASSIGN_OR_RETURN(auto v, evaluateNumber(bindings));
  if (v.type != Type::Float)
    return v.i;
  // A float that is an integer (`s0/2` of an even s0) is accepted where an int is wanted.
  double f = v.f;
  if (std::isfinite(f) && f == std::trunc(f) && std::fabs(f) < 9.007199254740992e15)
    return static_cast<int64_t>(f);
  return Error("non-integer result evaluating '" + str() + "'");
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
  case Kind::Paren:
  case Kind::Invert:
  case Kind::Not:
    return unary(node_->kind, ops[0]);
  case Kind::Call:
    return call(node_->name, ops);
  case Kind::Tuple:
    return tuple(ops);
  case Kind::Int:
  case Kind::Symbol:
  case Kind::Float:
  case Kind::Named:
    return *this; // no operands: unreachable
  FXKIT_SYM_ARITHMETIC_CASES:
  case Kind::Pow:
  FXKIT_SYM_COMPARISON_CASES:
  case Kind::BitAnd:
  case Kind::BitOr:
  case Kind::BitXor:
  case Kind::And:
  case Kind::Or:
    // A substituted compound operand may need parentheses; binary() prints them by precedence.
    return binary(node_->kind, ops[0], ops[1]);
  }
  return *this;
}

SymExpr SymExpr::simplify() const {
  if (!node_)
    return *this;
  const auto *node = static_cast<const ArenaNode *>(node_);
  if (node->hasSimplified.load(std::memory_order_acquire)) {
    const SymNode *n = node->simplifiedNode.load(std::memory_order_relaxed);
    return n ? fromNode(n) : SymExpr(node->simplifiedValue.load(std::memory_order_relaxed));
  }
  // A simplify() inside this one (a call's arguments) keeps its own overflow flag.
  const bool outer = tPolyOverflow;
  tPolyOverflow = false;
  Poly poly = toPoly(*this);
  SymExpr out = tPolyOverflow ? *this : polyToExpr(poly);
  tPolyOverflow = outer;
  node->simplifiedNode.store(out.node_, std::memory_order_relaxed);
  node->simplifiedValue.store(out.value_, std::memory_order_relaxed);
  node->hasSimplified.store(true, std::memory_order_release);
  return out;
}

std::vector<std::string> SymExpr::symbols() const {
  // Most sizes are constants or one symbol: no work list for them (shape checks ask every
  // size and stride of every value).
  if (isConstant())
    return {};
  if (kind() == Kind::Symbol)
    return {std::string(name())};
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

#undef FXKIT_SYM_COMPARISON_CASES
#undef FXKIT_SYM_ARITHMETIC_CASES

} // namespace fxkit
