#include "exporters/PyRepr.h"

#include "support/PyLexer.h"

#include <vector>

namespace fxkit {

void printPyArg(std::string &out, const Argument &root) {
  // Explicit stack of (argument, next child) frames: argument trees can be deep.
  struct Frame {
    const Argument *arg;
    size_t next;
  };
  std::vector<Frame> stack{{&root, 0}};
  while (!stack.empty()) {
    Frame &f = stack.back();
    const Argument &a = *f.arg;
    using K = Argument::Kind;
    if (!a.isContainer() && a.kind() != K::Slice) {
      switch (a.kind()) {
      case K::None:
        out += "None";
        break;
      case K::Bool:
        out += a.asBool() ? "True" : "False";
        break;
      case K::Int:
        out += std::to_string(a.asInt());
        break;
      case K::Float:
        out += pyFloatRepr(a.asFloat());
        break;
      case K::String:
        out += pyStringRepr(a.asString());
        break;
      case K::NodeRef:
        out += a.asNode()->name();
        break;
      case K::DType:
        out += "torch.";
        out += dtypeName(a.asDType());
        break;
      case K::Device:
        out += a.asDevice().pyRepr();
        break;
      case K::Layout:
      case K::MemoryFormat:
        out += "torch.";
        out += a.asString();
        break;
      case K::Sym:
        a.asSym().print(out);
        break;
      case K::Opaque:
        out += a.asString();
        break;
      default:
        break;
      }
      stack.pop_back();
      continue;
    }
    const auto &items = a.items();
    bool isDict = a.kind() == K::Dict;
    size_t step = isDict ? 2 : 1;
    if (f.next == 0)
      out += a.kind() == K::List ? "[" : isDict ? "{" : a.kind() == K::Slice ? "slice(" : "(";
    if (f.next >= items.size()) {
      if (a.kind() == K::Tuple && items.size() == 1)
        out += ",";
      out += a.kind() == K::List ? "]" : isDict ? "}" : ")";
      stack.pop_back();
      continue;
    }
    if (f.next > 0)
      out += ", ";
    size_t i = f.next;
    f.next += step;
    if (isDict) {
      out += pyStringRepr(items[i].asString());
      out += ": ";
      stack.push_back({&items[i + 1], 0});
    } else {
      stack.push_back({&items[i], 0});
    }
  }
}

std::string pyValueAnnotation(const NodeValue &value) {
  if (const TensorType *t = value.tensor())
    return t->str();
  if (const SymExpr *s = value.sym())
    return "Sym(" + s->str() + ")";
  return "";
}

} // namespace fxkit
