#include "support/pt2/ExportedProgram.h"

#include "ir/Try.h"

#include <cassert>
#include <cctype>
#include <charconv>

namespace fxkit {

std::string_view inputKindName(InputKind kind) {
  switch (kind) {
  case InputKind::UserInput:
    return "user_input";
  case InputKind::Parameter:
    return "parameter";
  case InputKind::Buffer:
    return "buffer";
  case InputKind::TensorConstant:
    return "tensor_constant";
  case InputKind::CustomObj:
    return "custom_obj";
  case InputKind::Token:
    return "token";
  case InputKind::ConstantInput:
    return "constant_input";
  }
  return "?";
}

std::string_view outputKindName(OutputKind kind) {
  switch (kind) {
  case OutputKind::UserOutput:
    return "user_output";
  case OutputKind::LossOutput:
    return "loss_output";
  case OutputKind::BufferMutation:
    return "buffer_mutation";
  case OutputKind::GradientToParameter:
    return "gradient_to_parameter";
  case OutputKind::GradientToUserInput:
    return "gradient_to_user_input";
  case OutputKind::UserInputMutation:
    return "user_input_mutation";
  case OutputKind::Token:
    return "token";
  case OutputKind::ParameterMutation:
    return "parameter_mutation";
  }
  return "?";
}

const ProgramInputSpec *ExportedProgram::inputSpec(std::string_view name) const {
  for (const ProgramInputSpec &s : inputs)
    if (s.name == name)
      return &s;
  return nullptr;
}

size_t ExportedProgram::userInputCount() const {
  size_t n = 0;
  for (const ProgramInputSpec &s : inputs)
    n += s.kind == InputKind::UserInput;
  return n;
}

const ExportedProgram *exportedProgramOf(const Graph &graph) {
  auto it = graph.attachments.find(kExportedProgramKey);
  if (it == graph.attachments.end())
    return nullptr;
  return dynamic_cast<const ExportedProgram *>(it->second.get());
}

namespace {

struct ScalarTypeCode {
  int64_t code;
  DType dtype;
};
constexpr ScalarTypeCode kScalarTypes[] = {
    {1, DType::UInt8},         {2, DType::Int8},        {3, DType::Int16},   {4, DType::Int32},
    {5, DType::Int64},         {6, DType::Float16},     {7, DType::Float32}, {8, DType::Float64},
    {10, DType::Complex64},    {11, DType::Complex128}, {12, DType::Bool},   {13, DType::BFloat16},
    {29, DType::Float8E4M3FN}, {30, DType::Float8E5M2},
};

} // namespace

std::optional<DType> dtypeFromScalarType(int64_t code) {
  for (const ScalarTypeCode &c : kScalarTypes)
    if (c.code == code)
      return c.dtype;
  return std::nullopt;
}

int64_t scalarTypeOf(DType dtype) {
  switch (dtype) {
  case DType::UInt8:
    return 1;
  case DType::Int8:
    return 2;
  case DType::Int16:
    return 3;
  case DType::Int32:
    return 4;
  case DType::Int64:
    return 5;
  case DType::Float16:
    return 6;
  case DType::Float32:
    return 7;
  case DType::Float64:
    return 8;
  case DType::Complex64:
    return 10;
  case DType::Complex128:
    return 11;
  case DType::Bool:
    return 12;
  case DType::BFloat16:
    return 13;
  case DType::Float8E4M3FN:
    return 29;
  case DType::Float8E5M2:
    return 30;
  }
  return 0;
}

namespace {

/// sympy's singletons as srepr writes them, and the name SymExpr parses for each.
constexpr std::pair<std::string_view, std::string_view> kSympySingletons[] = {
    {"true", "True"}, {"false", "False"}, {"oo", "oo"}, {"zoo", "zoo"}, {"nan", "nan"}};

/// sympy's relational and logic classes, and the binary kind each is.
constexpr std::pair<SymExpr::Kind, std::string_view> kSympyBinaries[] = {
    {SymExpr::Kind::Lt, "StrictLessThan"},
    {SymExpr::Kind::Le, "LessThan"},
    {SymExpr::Kind::Gt, "StrictGreaterThan"},
    {SymExpr::Kind::Ge, "GreaterThan"},
    {SymExpr::Kind::Eq, "Equality"},
    {SymExpr::Kind::Ne, "Unequality"},
    {SymExpr::Kind::BitAnd, "And"},
    {SymExpr::Kind::BitOr, "Or"},
    {SymExpr::Kind::BitXor, "Xor"}};

/// Recursive descent over sympy's srepr: calls `Name(arg, ..., key=value)`, integers and
/// quoted strings.
class SreprParser {
public:
  explicit SreprParser(std::string_view text) : t_(text) {}

  Expected<SymExpr> parseAll() {
    auto e = expr(0);
    if (!e)
      return e;
    skipWs();
    if (p_ != t_.size())
      return fail("unexpected text after the expression");
    return e;
  }

private:
  Error fail(const std::string &what) const {
    return Error("sympy expression: " + what, SourceLoc{"", 1, static_cast<int>(p_) + 1},
                 std::string(t_.substr(0, 200)));
  }
  void skipWs() {
    while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\n' || t_[p_] == '\t'))
      ++p_;
  }
  bool eat(char c) {
    skipWs();
    if (p_ < t_.size() && t_[p_] == c) {
      ++p_;
      return true;
    }
    return false;
  }
  std::string_view identifier() {
    skipWs();
    size_t s = p_;
    while (p_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[p_])) || t_[p_] == '_'))
      ++p_;
    return t_.substr(s, p_ - s);
  }
  Expected<int64_t> integer() {
    skipWs();
    size_t s = p_;
    if (p_ < t_.size() && (t_[p_] == '-' || t_[p_] == '+'))
      ++p_;
    while (p_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[p_])))
      ++p_;
    int64_t v = 0;
    const char *first = t_.data() + s + (p_ > s && t_[s] == '+' ? 1 : 0);
    auto [end, ec] = std::from_chars(first, t_.data() + p_, v);
    if (ec != std::errc() || end != t_.data() + p_) {
      p_ = s;
      return fail("expected an integer that fits 64 bits");
    }
    return v;
  }
  Expected<std::string> quoted() {
    skipWs();
    if (p_ >= t_.size() || (t_[p_] != '\'' && t_[p_] != '"'))
      return fail("expected a quoted name");
    char q = t_[p_++];
    size_t s = p_;
    while (p_ < t_.size() && t_[p_] != q)
      ++p_;
    if (p_ >= t_.size())
      return fail("unterminated string");
    return std::string(t_.substr(s, p_++ - s));
  }
  /// Skips `key=value` assumptions (`positive=True`).
  Status keywordArg() {
    size_t s = p_;
    std::string_view key = identifier();
    if (key.empty() || !eat('=')) {
      p_ = s;
      return fail("expected an argument");
    }
    if (identifier().empty())
      return fail("expected a value after '" + std::string(key) + "='");
    return Status::ok();
  }
  bool atKeyword() {
    skipWs();
    size_t s = p_;
    std::string_view id = identifier();
    skipWs();
    bool kw = !id.empty() && p_ < t_.size() && t_[p_] == '=';
    p_ = s;
    return kw;
  }

  bool atOpenParen() {
    skipWs();
    return p_ < t_.size() && t_[p_] == '(';
  }
  /// The value of a singleton sympy prints as a bare name.
  static std::optional<SymExpr> sympySingleton(std::string_view name) {
    for (auto [srepr, fx] : kSympySingletons)
      if (name == srepr)
        return *SymExpr::parse(fx);
    return std::nullopt;
  }
  static std::optional<SymExpr::Kind> sympyBinaryKind(std::string_view name) {
    for (auto [kind, srepr] : kSympyBinaries)
      if (name == srepr)
        return kind;
    return std::nullopt;
  }

  static SymExpr fold(SymExpr::Kind kind, const std::vector<SymExpr> &items) {
    SymExpr acc = items[0];
    for (size_t i = 1; i < items.size(); ++i)
      acc = SymExpr::binary(kind, acc, items[i]);
    return acc;
  }
  /// `x` for a term that is `-x` (a negative constant, -1*x, c*x with c < 0, or Neg(x)).
  static std::optional<SymExpr> negatedTerm(const SymExpr &t) {
    if (t.isConstant())
      return t.constant() < 0 ? std::optional<SymExpr>(SymExpr(-t.constant())) : std::nullopt;
    if (t.kind() == SymExpr::Kind::Neg)
      return t.operands()[0];
    if (t.kind() == SymExpr::Kind::Mul && t.operands()[0].isConstant() &&
        t.operands()[0].constant() < 0) {
      int64_t c = -t.operands()[0].constant();
      return c == 1 ? t.operands()[1] : SymExpr::binary(SymExpr::Kind::Mul, c, t.operands()[1]);
    }
    return std::nullopt;
  }

  Expected<SymExpr> expr(int depth) {
    if (depth > 200)
      return fail("expression nested too deeply");
    skipWs();
    size_t start = p_;
    std::string_view name = identifier();
    if (name.empty())
      return fail("expected a sympy expression such as Symbol('s0') or Integer(2)");
    // sympy's singletons print as bare names: true, false, oo, zoo, nan.
    if (auto singleton = sympySingleton(name); singleton && !atOpenParen())
      return *singleton;
    if (!eat('('))
      return fail("expected '(' after '" + std::string(name) + "'");
    if (name == "Symbol") {
      FXKIT_ASSIGN_OR_RETURN(auto n, quoted());
      if (n.empty())
        return fail("empty symbol name");
      while (eat(','))
        FXKIT_TRY(keywordArg());
      if (!eat(')'))
        return fail("expected ')'");
      return SymExpr::symbol(n);
    }
    if (name == "Integer") {
      FXKIT_ASSIGN_OR_RETURN(auto v, integer());
      if (!eat(')'))
        return fail("expected ')'");
      return SymExpr(v);
    }
    if (name == "Float") { // Float('0.100000000000000', precision=53)
      FXKIT_ASSIGN_OR_RETURN(auto spelling, quoted());
      auto parsed = SymExpr::parse(spelling);
      if (!parsed || parsed->kind() != SymExpr::Kind::Float) {
        p_ = start;
        return fail("Float of '" + spelling + "' is not a floating literal");
      }
      while (eat(','))
        FXKIT_TRY(keywordArg());
      if (!eat(')'))
        return fail("expected ')'");
      return *parsed;
    }
    std::vector<SymExpr> args;
    if (!eat(')')) {
      do {
        if (atKeyword()) {
          FXKIT_TRY(keywordArg());
          continue;
        }
        auto a = expr(depth + 1);
        if (!a)
          return a;
        args.push_back(*a);
      } while (eat(','));
      if (!eat(')'))
        return fail("expected ',' or ')'");
    }
    auto arity = [&](size_t n) -> Status {
      if (args.size() != n) {
        p_ = start;
        return fail(std::string(name) + " takes " + std::to_string(n) + " arguments, not " +
                    std::to_string(args.size()));
      }
      return Status::ok();
    };
    using K = SymExpr::Kind;
    if (name == "Rational") {
      FXKIT_TRY(arity(2));
      return SymExpr::paren(SymExpr::binary(K::TrueDiv, args[0], args[1]));
    }
    if (name == "Add" || name == "Mul") {
      if (args.empty()) {
        p_ = start;
        return fail(std::string(name) + " without arguments");
      }
      if (name == "Mul") {
        // Constant coefficient first (sympy orders it so): -1*x is -x.
        if (args.size() >= 2 && args[0].isConstant() && args[0].constant() == -1) {
          std::vector<SymExpr> rest(args.begin() + 1, args.end());
          return SymExpr::neg(fold(K::Mul, rest));
        }
        return fold(K::Mul, args);
      }
      // Symbolic terms first, constants last (as sympy prints `s0 + 1`); negative terms
      // become subtractions.
      std::vector<SymExpr> terms;
      for (const SymExpr &a : args)
        if (!a.isConstant())
          terms.push_back(a);
      for (const SymExpr &a : args)
        if (a.isConstant())
          terms.push_back(a);
      SymExpr acc = terms[0];
      for (size_t i = 1; i < terms.size(); ++i) {
        if (auto n = negatedTerm(terms[i]))
          acc = SymExpr::binary(K::Sub, acc, *n);
        else
          acc = SymExpr::binary(K::Add, acc, terms[i]);
      }
      return acc;
    }
    if (name == "Pow") {
      FXKIT_TRY(arity(2));
      return SymExpr::binary(K::Pow, args[0], args[1]);
    }
    if (name == "FloorDiv") {
      FXKIT_TRY(arity(2));
      return SymExpr::binary(K::FloorDiv, args[0], args[1]);
    }
    if (name == "PythonMod" || name == "Mod") {
      FXKIT_TRY(arity(2));
      return SymExpr::binary(K::Mod, args[0], args[1]);
    }
    if (auto kind = sympyBinaryKind(name)) {
      // Relationals take two arguments; And, Or and Xor take two or more.
      bool relational = *kind != K::BitAnd && *kind != K::BitOr && *kind != K::BitXor;
      if (relational)
        FXKIT_TRY(arity(2));
      else if (args.size() < 2) {
        p_ = start;
        return fail(std::string(name) + " takes two or more arguments");
      }
      return fold(*kind, args);
    }
    if (name == "Not") {
      FXKIT_TRY(arity(1));
      return SymExpr::unary(K::Invert, args[0]);
    }
    if (name == "Tuple")
      return SymExpr::tuple(args);
    if (name == "IntInfinity" || name == "NegativeIntInfinity") {
      FXKIT_TRY(arity(0));
      SymExpr inf = *SymExpr::parse("int_oo");
      return name == "IntInfinity" ? inf : SymExpr::neg(inf);
    }
    return SymExpr::call(name, args);
  }

  std::string_view t_;
  size_t p_ = 0;
};

void reprInto(const SymExpr &e, std::string &out) {
  using K = SymExpr::Kind;
  if (e.isConstant()) {
    out += "Integer(" + std::to_string(e.constant()) + ")";
    return;
  }
  auto ops = e.operands();
  auto call = [&](std::string_view name, std::span<const SymExpr> args) {
    out += name;
    out += '(';
    for (size_t i = 0; i < args.size(); ++i) {
      if (i)
        out += ", ";
      reprInto(args[i], out);
    }
    out += ')';
  };
  switch (e.kind()) {
  case K::Int:
    out += "Integer(" + std::to_string(e.constant()) + ")";
    return;
  case K::Symbol: {
    std::string_view n = e.name();
    // PyTorch's backed size symbols (s0, s77) are positive integers; unbacked (u0) and other
    // symbols are integers.
    bool size = n.size() > 1 && n[0] == 's' && std::isdigit(static_cast<unsigned char>(n[1]));
    out += "Symbol('";
    out += n;
    out += size ? "', positive=True, integer=True)" : "', integer=True)";
    return;
  }
  case K::Add:
    call("Add", ops);
    return;
  case K::Sub:
    out += "Add(";
    reprInto(ops[0], out);
    out += ", Mul(Integer(-1), ";
    reprInto(ops[1], out);
    out += "))";
    return;
  case K::Mul:
    call("Mul", ops);
    return;
  case K::TrueDiv:
    call("IntTrueDiv", ops);
    return;
  case K::FloorDiv:
    call("FloorDiv", ops);
    return;
  case K::Mod:
    call("PythonMod", ops);
    return;
  case K::Pow:
    call("Pow", ops);
    return;
  case K::Neg:
    out += "Mul(Integer(-1), ";
    reprInto(ops[0], out);
    out += ')';
    return;
  case K::Paren:
    reprInto(ops[0], out);
    return;
  case K::Call:
    call(e.name(), ops);
    return;
  case K::Float:
    out += "Float('";
    out += e.name();
    out += "', precision=53)";
    return;
  case K::Named: {
    std::string_view n = e.name();
    if (n == "int_oo") {
      out += "IntInfinity()";
      return;
    }
    if (n == "math.inf")
      n = "oo";
    for (auto [srepr, fx] : kSympySingletons)
      if (n == fx) {
        out += srepr;
        return;
      }
    assert(false && "every named constant SymExpr parses has a sympy singleton");
    out += n;
    return;
  }
  case K::Tuple:
    call("Tuple", ops);
    return;
  case K::Lt:
  case K::Le:
  case K::Gt:
  case K::Ge:
  case K::Eq:
  case K::Ne:
  case K::BitAnd:
  case K::BitOr:
  case K::BitXor:
    for (auto [kind, srepr] : kSympyBinaries)
      if (kind == e.kind()) {
        call(srepr, ops);
        return;
      }
    return;
  // sympy has one And, Or and Not for Python's `and`/`or`/`not` and the bitwise operators.
  case K::And:
    call("And", ops);
    return;
  case K::Or:
    call("Or", ops);
    return;
  case K::Invert:
  case K::Not:
    call("Not", ops);
    return;
  }
}

} // namespace

Expected<SymExpr> parseSympyRepr(std::string_view text) { return SreprParser(text).parseAll(); }

std::string sympyRepr(const SymExpr &expr) {
  std::string out;
  reprInto(expr, out);
  return out;
}

} // namespace fxkit
