#include "exporters/wrapper/PySymExpr.h"

#include "ir/TextTemplate.h"

namespace fxkit {

namespace {

using K = SymExpr::Kind;

/// Python binding strength: 1 `+ -`, 2 `* // %`, 3 unary minus, 4 `**`, 6 atoms.
/// `e` without explicit parentheses (Paren nodes of parsed text): they are re-derived here.
SymExpr unparen(SymExpr e) {
  while (!e.isConstant() && e.kind() == K::Paren)
    e = e.operands()[0];
  return e;
}

int precedence(const SymExpr &raw) {
  SymExpr e = unparen(raw);
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

void print(const SymExpr &e, std::string &out);

void printOperand(const SymExpr &e, bool parens, std::string &out) {
  if (parens)
    out += '(';
  print(e, out);
  if (parens)
    out += ')';
}

void print(const SymExpr &raw, std::string &out) {
  SymExpr e = unparen(raw);
  if (e.isConstant()) {
    out += std::to_string(e.constant());
    return;
  }
  auto ops = e.operands();
  switch (e.kind()) {
  case K::Symbol:
    out += e.name();
    return;
  case K::Paren:
    print(ops[0], out);
    return;
  case K::Neg:
    out += '-';
    // `-(a*b)` keeps floor-division groupings intact: only atoms and powers go bare.
    printOperand(ops[0], precedence(ops[0]) < 4, out);
    return;
  case K::Pow:
    printOperand(ops[0], precedence(ops[0]) <= 4, out);
    out += "**";
    printOperand(ops[1], precedence(ops[1]) < 3, out);
    return;
  case K::Add:
  case K::Sub:
  case K::Mul:
  case K::TrueDiv:
  case K::FloorDiv:
  case K::Mod: {
    int p = precedence(e);
    const char *spelling = e.kind() == K::Add   ? " + "
                           : e.kind() == K::Sub ? " - "
                           : e.kind() == K::Mul ? "*"
                           : e.kind() == K::Mod ? " % "
                                                : "//";
    printOperand(ops[0], precedence(ops[0]) < p, out);
    out += spelling;
    // Left-associative: a right operand of equal strength needs parentheses (a*(b//c)
    // differs from a*b//c under floor division), except for the associative + and *.
    bool assoc = e.kind() == K::Add || e.kind() == K::Mul;
    int q = precedence(ops[1]);
    SymExpr right = unparen(ops[1]);
    bool sameKind = !right.isConstant() && right.kind() == e.kind();
    bool rightParens = q < p || (q == p && !(assoc && sameKind));
    if (e.kind() == K::Mul && sameKind)
      rightParens = false;
    printOperand(ops[1], rightParens, out);
    return;
  }
  case K::Call: {
    out += e.name();
    out += '(';
    for (size_t i = 0; i < ops.size(); ++i) {
      if (i)
        out += ", ";
      print(ops[i], out);
    }
    out += ')';
    return;
  }
  default:
    out += e.str();
  }
}

} // namespace

std::string pySymExpr(const SymExpr &e) {
  std::string out;
  print(e, out);
  return out;
}

namespace {

/// Max or Min of Python numbers (the builtin {{builtin}}) or of tensors (folded with torch's
/// NaN-propagating torch.{{elementwise}}).
constexpr std::string_view kExtremum = R"PY(def {{name}}(*xs):
    ts = _as_tensors(xs)
    if ts is None:
        return {{builtin}}(xs)
    out = ts[0]
    for t in ts[1:]:
        out = torch.{{elementwise}}(out, t)
    return out
)PY";

std::string extremum(std::string name, std::string builtin, std::string elementwise) {
  const std::pair<std::string_view, std::string> keys[] = {{"name", std::move(name)},
                                                           {"builtin", std::move(builtin)},
                                                           {"elementwise", std::move(elementwise)}};
  return substituteKeys(kExtremum, keys);
}

} // namespace

const std::string kPySymHelpers = R"PY(def _as_tensors(xs):
    device = next((x.device for x in xs if isinstance(x, torch.Tensor)), None)
    return [torch.as_tensor(x, device=device) for x in xs] if device is not None else None


)PY" + extremum("Max", "max", "maximum") +
                                  "\n\n" + extremum("Min", "min", "minimum") + R"PY(

def FloorDiv(a, b):
    return a // b


def CeilDiv(a, b):
    return -((-a) // b)


def ModularIndexing(x, div, mod):
    return (x // div) % mod


def Mod(a, b):
    return a % b


PythonMod = Mod


def Abs(a):
    return abs(a)
)PY";

} // namespace fxkit
