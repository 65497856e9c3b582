#include "exporters/ReadablePyPrinter.h"

#include "exporters/PyRepr.h"

#include <string_view>
#include <unordered_map>
#include <vector>

namespace fxkit {

namespace {

/// torch.fx's magic_methods: operator.* targets printed as Python operators.
const char *binaryOperator(std::string_view target) {
  static const std::pair<std::string_view, const char *> kOps[] = {
      {"operator.add", " + "},       {"operator.sub", " - "},     {"operator.mul", " * "},
      {"operator.floordiv", " // "}, {"operator.truediv", " / "}, {"operator.div", " / "},
      {"operator.mod", " % "},       {"operator.pow", " ** "},    {"operator.lshift", " << "},
      {"operator.rshift", " >> "},   {"operator.and_", " & "},    {"operator.or_", " | "},
      {"operator.xor", " ^ "},       {"operator.matmul", " @ "},  {"operator.eq", " == "},
      {"operator.ne", " != "},       {"operator.lt", " < "},      {"operator.gt", " > "},
      {"operator.le", " <= "},       {"operator.ge", " >= "}};
  for (const auto &[name, op] : kOps)
    if (name == target)
      return op;
  return nullptr;
}

const char *unaryOperator(std::string_view target) {
  if (target == "operator.neg")
    return "-";
  if (target == "operator.pos")
    return "+";
  if (target == "operator.invert")
    return "~";
  return nullptr;
}

/// `a, b, k = v` as FX's _format_args writes them.
void printCallArgs(std::string &out, const Argument &args, size_t skip, const Argument &kwargs) {
  bool first = true;
  const auto &items = args.items();
  for (size_t i = skip; i < items.size(); ++i) {
    if (!first)
      out += ", ";
    first = false;
    printPyArg(out, items[i]);
  }
  for (size_t i = 0; i < kwargs.dictSize(); ++i) {
    if (!first)
      out += ", ";
    first = false;
    out += kwargs.dictKey(i);
    out += " = ";
    printPyArg(out, kwargs.dictValue(i));
  }
}

/// FX's delete_unused_values: for each node, the inputs whose last use it is, in the order the
/// node's args then kwargs mention them (computed walking the graph backwards).
std::unordered_map<const Node *, std::vector<const Node *>> lastUses(const Graph &graph) {
  std::unordered_map<const Node *, std::vector<const Node *>> byUser;
  std::unordered_map<const Node *, bool> seen;
  seen.reserve(graph.size());
  for (Node *n = graph.back(); n; n = n->prev()) {
    auto visit = [&](Node *input) {
      if (seen.emplace(input, true).second)
        byUser[n].push_back(input);
    };
    n->args().forEachNode(visit);
    n->kwargs().forEachNode(visit);
  }
  return byUser;
}

} // namespace

std::string printReadablePy(const Graph &graph) {
  std::string out = "class " + graph.moduleName + "(torch.nn.Module):\n    def forward(self";
  std::string body;
  auto uses = lastUses(graph);
  for (Node *n : graph) {
    std::string annotation = pyValueAnnotation(n->value());
    std::string typed = annotation.empty() ? "" : ": \"" + annotation + "\"";
    if (n->op() == OpKind::Placeholder) {
      out += ", ";
      out += n->target();
      out += typed;
      if (!n->args().items().empty()) {
        out += " = ";
        printPyArg(out, n->args().items()[0]);
      }
      if (n->target() != n->name()) {
        body += "        " + n->name() + " = ";
        body += n->target();
        body += "\n";
      }
      continue;
    }
    body += "        ";
    if (n->op() == OpKind::Output) {
      body += "return ";
      if (!n->args().items().empty())
        printPyArg(body, n->args().items()[0]);
      else
        body += "None";
      body += "\n";
      continue;
    }
    body += n->name() + typed + " = ";
    const auto &args = n->args().items();
    std::string_view target = n->target();
    switch (n->op()) {
    case OpKind::CallMethod:
      if (!args.empty())
        printPyArg(body, args[0]);
      body += ".";
      body += target;
      body += "(";
      printCallArgs(body, n->args(), 1, n->kwargs());
      body += ")";
      break;
    case OpKind::CallModule:
      body += "self.";
      body += target;
      body += "(";
      printCallArgs(body, n->args(), 0, n->kwargs());
      body += ")";
      break;
    case OpKind::GetAttr:
      body += "self.";
      body += target;
      break;
    default: { // call_function
      const char *bin = binaryOperator(target);
      const char *un = unaryOperator(target);
      if (target == "operator.getitem" && args.size() == 2 && n->kwargs().dictSize() == 0) {
        printPyArg(body, args[0]);
        body += "[";
        printPyArg(body, args[1]);
        body += "]";
      } else if (bin && args.size() == 2 && n->kwargs().dictSize() == 0) {
        printPyArg(body, args[0]);
        body += bin;
        printPyArg(body, args[1]);
      } else if (un && args.size() == 1 && n->kwargs().dictSize() == 0) {
        body += un;
        printPyArg(body, args[0]);
      } else if (target == "getattr" && args.size() == 2 &&
                 args[1].kind() == Argument::Kind::String) {
        printPyArg(body, args[0]);
        body += ".";
        body += args[1].asString();
      } else {
        body += target;
        body += "(";
        printCallArgs(body, n->args(), 0, n->kwargs());
        body += ")";
      }
    }
    }
    // Frees after the last use, plus the node itself when nothing uses it (FX frees unused
    // results right away).
    std::vector<const Node *> dead;
    if (auto it = uses.find(n); it != uses.end())
      dead = it->second;
    if (n->users().empty())
      dead.push_back(n);
    if (!dead.empty()) {
      body += ";  ";
      for (const Node *d : dead)
        body += d->name() + " = ";
      body += "None";
    }
    body += "\n";
  }
  out += "):\n";
  out += body;
  return out;
}

} // namespace fxkit
