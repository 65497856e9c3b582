#include "exporters/json/FxkitJsonWriter.h"
#include "support/JsonWriter.h"

#include <charconv>
#include <cmath>

namespace fxkit {

namespace {

/// Appends `s` as a JSON string; backspace and form feed as \u0008 and \u000c, as fxkit JSON
/// files have always spelled them.
void appendString(std::string &out, std::string_view s) { appendJsonString(out, s, false); }

void appendInt(std::string &out, int64_t v) {
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, res.ptr);
}

/// `{"tag": "text"}`: the tagged single-key objects of the argument encoding.
void appendTagged(std::string &out, const char *tag, std::string_view text) {
  out += "{\"";
  out += tag;
  out += "\": ";
  appendString(out, text);
  out.push_back('}');
}

/// One pending piece of output: a literal, a dict key, or an argument to print.
struct Work {
  const Argument *arg = nullptr;
  const char *literal = nullptr;
  bool isKey = false;
};

/// Pushes the children of a List/Tuple/Dict (in reverse, so they pop in order) between
/// `open` (appended now) and `close`.
void pushChildren(std::string &out, std::vector<Work> &stack, const Argument &arg, const char *open,
                  const char *close) {
  out += open;
  stack.push_back({nullptr, close});
  const auto &items = arg.items();
  bool dict = arg.kind() == Argument::Kind::Dict;
  size_t step = dict ? 2 : 1;
  for (size_t i = items.size(); i >= step; i -= step) {
    stack.push_back({&items[i - 1]});
    if (dict)
      stack.push_back({&items[i - 2], nullptr, /*isKey=*/true});
    if (i > step)
      stack.push_back({nullptr, ", "});
  }
}

/// Prints an argument tree with an explicit stack: trees built in memory can nest deeper
/// than the call stack allows. Top-level args print as an array, top-level kwargs as an
/// object (see docs/json-format.md).
void appendArgument(std::string &out, const Argument &root, bool topLevel,
                    std::vector<Work> &stack) {
  stack.clear();
  if (topLevel) {
    if (root.kind() == Argument::Kind::Dict)
      pushChildren(out, stack, root, "{", "}");
    else
      pushChildren(out, stack, root, "[", "]");
  } else {
    stack.push_back({&root});
  }
  while (!stack.empty()) {
    Work w = stack.back();
    stack.pop_back();
    if (w.literal) {
      out += w.literal;
      continue;
    }
    const Argument &a = *w.arg;
    if (w.isKey) {
      appendString(out, a.asString());
      out += ": ";
      continue;
    }
    using K = Argument::Kind;
    switch (a.kind()) {
    case K::None:
      out += "null";
      break;
    case K::Bool:
      out += a.asBool() ? "true" : "false";
      break;
    case K::Int:
      appendInt(out, a.asInt());
      break;
    case K::Float:
      // Finite floats always print with '.' or an exponent, which keeps them apart from ints.
      if (std::isfinite(a.asFloat()))
        out += pyFloatRepr(a.asFloat());
      else
        appendTagged(out, "float", pyFloatRepr(a.asFloat()));
      break;
    case K::String:
      appendString(out, a.asString());
      break;
    case K::NodeRef:
      appendTagged(out, "node", a.asNode()->name());
      break;
    case K::List:
      pushChildren(out, stack, a, "[", "]");
      break;
    case K::Tuple:
      pushChildren(out, stack, a, "{\"tuple\": [", "]}");
      break;
    case K::Dict:
      pushChildren(out, stack, a, "{\"dict\": {", "}}");
      break;
    case K::DType:
      appendTagged(out, "dtype", dtypeName(a.asDType()));
      break;
    case K::Device:
      appendTagged(out, "device", a.asDevice().str());
      break;
    case K::Layout:
      appendTagged(out, "layout", a.asString());
      break;
    case K::MemoryFormat:
      appendTagged(out, "memory_format", a.asString());
      break;
    case K::Sym:
      appendTagged(out, "sym", a.asSym().str());
      break;
    case K::Opaque:
      appendTagged(out, "opaque", a.asString());
      break;
    case K::Slice:
      pushChildren(out, stack, a, "{\"slice\": [", "]}");
      break;
    }
  }
}

void appendSymList(std::string &out, const std::vector<SymExpr> &xs, std::string &tmp) {
  out.push_back('[');
  for (size_t i = 0; i < xs.size(); ++i) {
    if (i)
      out += ", ";
    tmp.clear();
    xs[i].print(tmp);
    appendString(out, tmp);
  }
  out.push_back(']');
}

void appendTensor(std::string &out, const TensorType &t, std::string &tmp) {
  out += "{\"dtype\": ";
  appendString(out, dtypeName(t.dtype));
  out += ", \"shape\": ";
  appendSymList(out, t.sizes, tmp);
  if (t.hasStrides) { // absent when unknown (FX's `f32[8, 128]` annotations)
    out += ", \"stride\": ";
    appendSymList(out, t.strides, tmp);
  }
  if (t.hasDevice) {
    out += ", \"device\": ";
    appendString(out, t.device.str());
  }
  out.push_back('}');
}

void appendValue(std::string &out, const NodeValue &v, std::string &tmp) {
  if (const TensorType *t = v.tensor()) {
    appendTensor(out, *t, tmp);
  } else if (const auto *ts = v.tensors()) {
    out.push_back('[');
    for (size_t i = 0; i < ts->size(); ++i) {
      if (i)
        out += ", ";
      if ((*ts)[i])
        appendTensor(out, *(*ts)[i], tmp);
      else
        out += "null";
    }
    out.push_back(']');
  } else if (const SymExpr *s = v.sym()) {
    appendString(out, s->str());
  } else if (const auto *items = v.items()) {
    out.push_back('[');
    for (size_t i = 0; i < items->size(); ++i) {
      if (i)
        out += ", ";
      if ((*items)[i].empty())
        out += "null";
      else
        appendValue(out, (*items)[i], tmp);
    }
    out.push_back(']');
  }
}

/// `{"pre_grad": [..], "post_grad": [..], "kernels": [..]}`, empty lists left out.
void appendProvenance(std::string &out, const NodeProvenance &p) {
  const std::pair<const char *, const std::vector<std::string> *> lists[] = {
      {"pre_grad", &p.preGrad}, {"post_grad", &p.postGrad}, {"kernels", &p.kernels}};
  out.push_back('{');
  bool first = true;
  for (const auto &[key, names] : lists) {
    if (names->empty())
      continue;
    out += first ? "\"" : ", \"";
    first = false;
    out += key;
    out += "\": [";
    for (size_t i = 0; i < names->size(); ++i) {
      if (i)
        out += ", ";
      appendString(out, (*names)[i]);
    }
    out.push_back(']');
  }
  out.push_back('}');
}

/// The fields of one graph from "module" on, each line indented by `indent` spaces: the nodes one
/// per line (diffs of two graphs then read node by node), then the child graphs, each an object
/// of the same fields indented one level deeper (recursively), in order.
void appendGraph(std::string &out, const Graph &graph, size_t indent, std::vector<Work> &stack,
                 std::string &tmp) {
  const std::string pad(indent, ' ');
  out += pad;
  out += "\"module\": ";
  appendString(out, graph.moduleName);
  out += ",\n";
  out += pad;
  out += "\"nodes\": [";
  for (Node *n : graph) {
    out += n == graph.front() ? "\n" : ",\n";
    out += pad;
    out += "  {\"name\": ";
    appendString(out, n->name());
    out += ", \"op\": \"";
    out += opKindName(n->op());
    out += "\", \"target\": ";
    appendString(out, n->target());
    if (!n->pythonType().empty()) {
      out += ", \"type\": ";
      appendString(out, n->pythonType());
    }
    if (!n->args().items().empty()) {
      out += ", \"args\": ";
      appendArgument(out, n->args(), /*topLevel=*/true, stack);
    }
    if (!n->kwargs().items().empty()) {
      out += ", \"kwargs\": ";
      appendArgument(out, n->kwargs(), /*topLevel=*/true, stack);
    }
    if (!n->value().empty()) {
      out += ", \"val\": ";
      appendValue(out, n->value(), tmp);
    }
    if (const NodeProvenance *p = n->provenance()) {
      out += ", \"provenance\": ";
      appendProvenance(out, *p);
    }
    out.push_back('}');
  }
  if (!graph.empty()) {
    out += "\n";
    out += pad;
  }
  out += "]";
  if (graph.submodules.empty())
    return;
  out += ",\n";
  out += pad;
  out += "\"submodules\": [";
  for (size_t i = 0; i < graph.submodules.size(); ++i) {
    out += i ? ",\n" : "\n";
    out += pad;
    out += "  {\n";
    appendGraph(out, *graph.submodules[i], indent + 4, stack, tmp);
    out += "\n";
    out += pad;
    out += "  }";
  }
  out += "\n";
  out += pad;
  out += "]";
}

} // namespace

std::string printFxkitJson(const Graph &graph) {
  std::string out;
  out.reserve(64 + graph.size() * 160);
  out += "{\n  \"format\": \"fxkit.graph\",\n  \"version\": 1,\n";
  std::vector<Work> stack;
  std::string tmp;
  appendGraph(out, graph, 2, stack, tmp);
  out += "\n}\n";
  return out;
}

} // namespace fxkit
