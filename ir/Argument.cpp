#include "ir/Argument.h"

#include "ir/Node.h"
#include "ir/StringPool.h"

#include <cassert>
#include <charconv>
#include <cmath>
#include <cstring>

namespace fxkit {

Argument Argument::boolean(bool v) {
  Argument a;
  a.kind_ = Kind::Bool;
  a.i_ = v ? 1 : 0;
  return a;
}
Argument Argument::integer(int64_t v) {
  Argument a;
  a.kind_ = Kind::Int;
  a.i_ = v;
  return a;
}
Argument Argument::floating(double v) {
  Argument a;
  a.kind_ = Kind::Float;
  a.f_ = v;
  return a;
}
Argument Argument::string(std::string_view v) { return text(Kind::String, v); }
Argument Argument::layout(std::string_view v) { return text(Kind::Layout, v); }
Argument Argument::memoryFormat(std::string_view v) { return text(Kind::MemoryFormat, v); }
Argument Argument::opaque(std::string_view v) { return text(Kind::Opaque, v); }

Argument Argument::text(Kind kind, std::string_view v) {
  std::string_view s = intern(v);
  Argument a;
  a.kind_ = kind;
  a.p_ = s.data();
  a.len_ = static_cast<uint32_t>(s.size());
  return a;
}

Argument Argument::node(Node *n) {
  assert(n && "node argument must not be null");
  Argument a;
  a.kind_ = Kind::NodeRef;
  a.p_ = n;
  return a;
}
Argument Argument::list(std::vector<Argument> items) {
  Argument a;
  a.kind_ = Kind::List;
  a.items_ = std::move(items);
  return a;
}
Argument Argument::tuple(std::vector<Argument> items) {
  Argument a;
  a.kind_ = Kind::Tuple;
  a.items_ = std::move(items);
  return a;
}
Argument Argument::slice(Argument start, Argument stop, Argument step) {
  Argument a;
  a.kind_ = Kind::Slice;
  a.items_ = {std::move(start), std::move(stop), std::move(step)};
  return a;
}
Argument Argument::dict(std::vector<std::pair<std::string, Argument>> entries) {
  Argument a;
  a.kind_ = Kind::Dict;
  a.items_.reserve(entries.size() * 2);
  for (auto &[k, v] : entries) {
    a.items_.push_back(string(k));
    a.items_.push_back(std::move(v));
  }
  return a;
}
Argument Argument::dtype(fxkit::DType d) {
  Argument a;
  a.kind_ = Kind::DType;
  a.i_ = static_cast<int64_t>(d);
  return a;
}
Argument Argument::device(const Device &d) {
  Argument a = text(Kind::Device, d.type);
  a.aux_ = d.index;
  return a;
}
Argument Argument::sym(SymExpr e) {
  Argument a;
  a.kind_ = Kind::Sym;
  a.p_ = e.node();
  a.i_ = e.constant();
  return a;
}

bool Argument::asBool() const {
  assert(kind_ == Kind::Bool && "not a bool argument");
  return i_ != 0;
}
int64_t Argument::asInt() const {
  assert(kind_ == Kind::Int && "not an int argument");
  return i_;
}
double Argument::asFloat() const {
  assert(kind_ == Kind::Float && "not a float argument");
  return f_;
}
std::string_view Argument::asString() const {
  assert((kind_ == Kind::String || kind_ == Kind::Layout || kind_ == Kind::MemoryFormat ||
          kind_ == Kind::Opaque || kind_ == Kind::Device) &&
         "not a text argument");
  return {static_cast<const char *>(p_), len_};
}
fxkit::DType Argument::asDType() const {
  assert(kind_ == Kind::DType && "not a dtype argument");
  return static_cast<fxkit::DType>(i_);
}
Device Argument::asDevice() const {
  assert(kind_ == Kind::Device && "not a device argument");
  return Device{asString(), aux_};
}
SymExpr Argument::asSym() const {
  assert(kind_ == Kind::Sym && "not a symbolic argument");
  SymExpr e(i_);
  if (p_)
    e = SymExpr::fromNode(static_cast<const SymNode *>(p_));
  return e;
}

const Argument *Argument::find(std::string_view key) const {
  if (kind_ != Kind::Dict)
    return nullptr;
  for (size_t i = 0; i < dictSize(); ++i)
    if (dictKey(i) == key)
      return &items_[2 * i + 1];
  return nullptr;
}

void Argument::mapNodes(const std::function<Node *(Node *)> &fn) {
  // Flat tuples (almost every node's args) without a work list: this runs on every node
  // when a graph is cloned.
  if (kind_ == Kind::NodeRef) {
    p_ = fn(asNode());
    return;
  }
  bool flat = true;
  for (const Argument &child : items_)
    flat = flat && child.items_.empty();
  if (flat) {
    for (Argument &child : items_)
      if (child.kind_ == Kind::NodeRef)
        child.p_ = fn(child.asNode());
    return;
  }
  std::vector<Argument *> stack{this};
  while (!stack.empty()) {
    Argument *a = stack.back();
    stack.pop_back();
    if (a->kind_ == Kind::NodeRef)
      a->p_ = fn(a->asNode());
    for (auto &child : a->items_)
      stack.push_back(&child);
  }
}

bool Argument::equals(const Argument &other) const {
  std::vector<std::pair<const Argument *, const Argument *>> stack{{this, &other}};
  while (!stack.empty()) {
    auto [a, b] = stack.back();
    stack.pop_back();
    if (a->kind_ != b->kind_ || a->items_.size() != b->items_.size())
      return false;
    switch (a->kind_) {
    case Kind::None:
    case Kind::List:
    case Kind::Tuple:
    case Kind::Dict:
    case Kind::Slice:
      break;
    case Kind::Float:
      if (!(a->f_ == b->f_ || (std::isnan(a->f_) && std::isnan(b->f_))))
        return false;
      break;
    case Kind::NodeRef:
      if (a->asNode()->name() != b->asNode()->name())
        return false;
      break;
    case Kind::String:
    case Kind::Layout:
    case Kind::MemoryFormat:
    case Kind::Opaque:
    case Kind::Device:
      if (a->asString() != b->asString() || a->aux_ != b->aux_)
        return false;
      break;
    case Kind::Sym:
      if (a->asSym() != b->asSym())
        return false;
      break;
    default:
      if (a->i_ != b->i_)
        return false;
    }
    for (size_t i = 0; i < a->items_.size(); ++i)
      stack.push_back({&a->items_[i], &b->items_[i]});
  }
  return true;
}

std::string pyFloatRepr(double v) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v < 0 ? "-inf" : "inf";
  // Shortest round-trip digits (to_chars, scientific), laid out by Python's repr rules:
  // scientific when the exponent is < -4 or >= 16, else positional with at least ".0".
  char sci[40];
  char *end = std::to_chars(sci, sci + sizeof sci, v, std::chars_format::scientific).ptr;
  const char *p = sci;
  char out[64];
  size_t n = 0;
  if (*p == '-')
    out[n++] = *p++;
  char digits[24];
  size_t nd = 0;
  for (; p < end && *p != 'e'; ++p)
    if (*p != '.')
      digits[nd++] = *p;
  int exp = 0;
  bool negExp = false;
  if (p < end) { // 'e'
    ++p;
    negExp = *p == '-';
    if (*p == '-' || *p == '+')
      ++p;
    for (; p < end; ++p)
      exp = exp * 10 + (*p - '0');
    if (negExp)
      exp = -exp;
  }
  if (exp < -4 || exp >= 16) {
    out[n++] = digits[0];
    if (nd > 1) {
      out[n++] = '.';
      for (size_t i = 1; i < nd; ++i)
        out[n++] = digits[i];
    }
    n += static_cast<size_t>(std::snprintf(out + n, sizeof out - n, "e%c%02d", exp < 0 ? '-' : '+',
                                           exp < 0 ? -exp : exp));
    return std::string(out, n);
  }
  if (exp < 0) {
    out[n++] = '0';
    out[n++] = '.';
    for (int i = 0; i < -exp - 1; ++i)
      out[n++] = '0';
    for (size_t i = 0; i < nd; ++i)
      out[n++] = digits[i];
    return std::string(out, n);
  }
  size_t intLen = static_cast<size_t>(exp) + 1;
  for (size_t i = 0; i < intLen; ++i)
    out[n++] = i < nd ? digits[i] : '0';
  out[n++] = '.';
  if (nd <= intLen)
    out[n++] = '0';
  for (size_t i = intLen; i < nd; ++i)
    out[n++] = digits[i];
  return std::string(out, n);
}

} // namespace fxkit
