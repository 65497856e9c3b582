/// \file FX graph text writer, following torch/fx/node.py (`Node.format_node`, `_format_arg`)
/// and torch/fx/graph.py (`Graph.__str__`).

#include "exporters/FxTextPrinter.h"

#include "support/FxTextSyntax.h"
#include "support/PyLexer.h"

#include <charconv>

namespace fxkit {

namespace {

void appendInt(std::string &out, int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

/// One argument as FX prints it. `repr` selects Python's repr() (the `return` line prints
/// `str(args[0])`, so nodes appear by bare name and strings quoted) instead of _format_arg
/// (nodes as `%name`, strings bare, dict keys bare). Printing is canonical and reads back
/// (parseFxText(printFxText(g)) == g): a string or key that would not read back bare (spaces,
/// commas, brackets, quotes, empty, a number's spelling) is quoted; a device's spelling stays
/// bare as in str(graph) (fxStringPrintsBare says why).
void printArg(std::string &out, const Argument &a, bool repr) {
  using K = Argument::Kind;
  switch (a.kind()) {
  case K::None:
    out += "None";
    return;
  case K::Bool:
    out += a.asBool() ? "True" : "False";
    return;
  case K::Int:
    appendInt(out, a.asInt());
    return;
  case K::Float:
    out += pyFloatRepr(a.asFloat());
    return;
  case K::String:
    if (repr || !fxStringPrintsBare(a.asString()))
      out += pyStringRepr(a.asString());
    else
      out += a.asString();
    return;
  case K::NodeRef:
    if (!repr)
      out += '%';
    out += a.asNode()->name();
    return;
  case K::List:
  case K::Tuple: {
    bool list = a.kind() == K::List;
    out += list ? '[' : '(';
    const auto &items = a.items();
    for (size_t i = 0; i < items.size(); ++i) {
      if (i)
        out += ", ";
      printArg(out, items[i], repr);
    }
    if (!list && items.size() == 1)
      out += ',';
    out += list ? ']' : ')';
    return;
  }
  case K::Dict:
    out += '{';
    for (size_t i = 0; i < a.dictSize(); ++i) {
      if (i)
        out += ", ";
      if (repr || !fxBareDictKeyReadsBack(a.dictKey(i)))
        out += pyStringRepr(a.dictKey(i));
      else
        out += a.dictKey(i);
      out += ": ";
      printArg(out, a.dictValue(i), repr);
    }
    out += '}';
    return;
  case K::DType:
    out += "torch.";
    out += dtypeName(a.asDType());
    return;
  case K::Device:
    out += repr ? a.asDevice().pyRepr() : a.asDevice().str();
    return;
  case K::Layout:
  case K::MemoryFormat:
    out += "torch.";
    out += a.asString();
    return;
  case K::Sym:
    a.asSym().print(out);
    return;
  case K::Opaque:
    out += a.asString();
    return;
  case K::Slice: // str(slice(...)) shows its parts' repr: nodes by bare name
    out += "slice(";
    for (size_t i = 0; i < a.items().size(); ++i) {
      if (i)
        out += ", ";
      printArg(out, a.items()[i], /*repr=*/true);
    }
    out += ')';
    return;
  }
}

void printNode(std::string &out, const Node &n, const FxTextOptions &options) {
  out += "\n    ";
  if (n.op() == OpKind::Output) {
    out += "return ";
    if (n.args().items().empty())
      out += "None";
    else
      printArg(out, n.args().items()[0], /*repr=*/true);
    return;
  }
  out += '%';
  out += n.name();
  out += " : ";
  // A node read typed (Python type kFxTensorAnnotationType) prints typed; once its value is
  // gone (set-meta, a pass), plainly, as format_node prints a node without a tensor value.
  // The same for symbolic values (kFxSymAnnotationType): `%s : Sym(s0)[num_users=1]`.
  const TensorType *t = n.value().tensor();
  const SymExpr *sym = n.value().sym();
  const bool annotated =
      n.pythonType() == kFxTensorAnnotationType || n.pythonType() == kFxSymAnnotationType;
  if (t && (options.tensorTypes || annotated)) {
    out += "Tensor \"";
    t->print(out);
    out += '"';
  } else if (sym && (options.tensorTypes || annotated)) {
    out += "Sym(";
    sym->print(out);
    out += ')';
  } else if (!n.pythonType().empty() && !annotated) {
    out += n.pythonType();
    out += ' ';
  }
  out += "[num_users=";
  appendInt(out, static_cast<int64_t>(n.users().size()));
  out += "] = ";
  out += opKindName(n.op());
  out += "[target=";
  out += n.target();
  out += ']';
  switch (n.op()) {
  case OpKind::Placeholder:
    if (!n.args().items().empty()) {
      out += "(default=";
      printArg(out, n.args().items()[0], false);
      out += ')';
    }
    break;
  case OpKind::GetAttr:
  case OpKind::Output:
    break;
  case OpKind::CallFunction:
  case OpKind::CallMethod:
  case OpKind::CallModule:
    out += "(args = ";
    printArg(out, n.args(), false);
    out += ", kwargs = ";
    printArg(out, n.kwargs(), false);
    out += ')';
    break;
  }
}

} // namespace

std::string printFxText(const Graph &graph, const FxTextOptions &options) {
  std::string out = "graph():";
  // About 120 bytes per node in real graphs: one growth step instead of many.
  out.reserve(16 + graph.size() * 128);
  for (Node *n : graph)
    printNode(out, *n, options);
  return out;
}

} // namespace fxkit
