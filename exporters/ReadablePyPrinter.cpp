#include "exporters/ReadablePyPrinter.h"

#include "ir/UnknownOpPositions.h"

#include "exporters/PyRepr.h"
#include "support/FxTextSyntax.h"
#include "support/PyLexer.h"
#include "support/PyOperators.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fxkit {

namespace {

/// The operator FX prints for a binary operator.* target (operator.div as `/` too).
std::string_view binaryOperator(std::string_view target) {
  if (target == "operator.div")
    return "/";
  const PyOperator *op = findPyOperatorByTarget(kPyBinaryOperators, target);
  return op ? op->token : std::string_view();
}

/// torch.fx's _format_target: `self.a.b`, with `getattr(self.a, "0")` for parts that are not
/// identifiers.
std::string formatTarget(std::string base, std::string_view target) {
  size_t start = 0;
  for (;;) {
    size_t dot = target.find('.', start);
    std::string_view part = target.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (isPyIdentifier(part))
      base += "." + std::string(part);
    else
      base = "getattr(" + base + ", \"" + std::string(part) + "\")";
    if (dot == std::string_view::npos)
      return base;
    start = dot + 1;
  }
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
  // A keyword that is not a Python name, and every one after it (their order is kept), go in
  // one `**{'key': value, ...}`: Python's spelling of any string keyword.
  size_t spread = kwargs.dictSize();
  for (size_t i = 0; i < kwargs.dictSize() && spread == kwargs.dictSize(); ++i)
    if (!isPyIdentifier(kwargs.dictKey(i)))
      spread = i;
  for (size_t i = 0; i < kwargs.dictSize(); ++i) {
    if (!first)
      out += ", ";
    first = false;
    if (i < spread) {
      out += kwargs.dictKey(i);
      out += " = ";
    } else {
      out += i == spread ? "**{" : "";
      out += pyStringRepr(kwargs.dictKey(i));
      out += ": ";
    }
    printPyArg(out, kwargs.dictValue(i));
  }
  if (spread < kwargs.dictSize())
    out += "}";
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

namespace {

/// One class: `class Name(torch.nn.Module):`, forward, then the child GraphModules' classes
/// indented one level (torch/fx/graph_module.py's _print_readable).
std::string printModule(const Graph &graph) {
  std::string out = "class " + graph.moduleName + "(torch.nn.Module):\n    def forward(self";
  std::string body;
  auto uses = lastUses(graph);
  for (Node *n : graph) {
    std::string annotation = pyValueAnnotation(n->value());
    // The value's annotation, else the node's Python type as FX writes node.type (not the
    // mark of typed FX text, which is no Python type).
    std::string_view pythonType = n->pythonType();
    if (pythonType == kFxTensorAnnotationType || pythonType == kFxSymAnnotationType)
      pythonType = {};
    std::string typed = !annotation.empty()   ? ": \"" + annotation + "\""
                        : !pythonType.empty() ? " : " + std::string(pythonType)
                                              : "";
    if (n->op() == OpKind::Placeholder) {
      out += ", ";
      out += n->target();
      out += typed;
      if (!n->args().items().empty()) {
        out += " = ";
        printPyArg(out, n->args().items()[0]);
      }
      std::string raw;
      for (char c : n->target())
        if (c != '*')
          raw += c;
      if (raw != n->name())
        body += "        " + n->name() + " = " + raw + "\n";
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
    const auto &args = n->args().items();
    std::string_view target = n->target();
    const bool noKwargs = n->kwargs().dictSize() == 0;
    const PyOperator *inplace = findPyOperatorByTarget(kPyInplaceOperators, target);
    if (inplace && args.size() == 2 && noKwargs) {
      // `a += b;  iadd = a`
      printPyArg(body, args[0]);
      body += " " + std::string(inplace->token) + " ";
      printPyArg(body, args[1]);
      body += ";  " + n->name() + typed + " = ";
      printPyArg(body, args[0]);
    } else if (target == "operator.setitem" && args.size() == 3 && noKwargs) {
      // `a[i] = v;  setitem = a`
      printPyArg(body, args[0]);
      body += "[";
      printPyArg(body, args[1]);
      body += "] = ";
      printPyArg(body, args[2]);
      body += ";  " + n->name() + typed + " = ";
      printPyArg(body, args[0]);
    } else {
      body += n->name() + typed + " = ";
      switch (n->op()) {
      case OpKind::CallMethod: {
        std::string self;
        if (!args.empty())
          printPyArg(self, args[0]);
        body += formatTarget(self, target);
        body += "(";
        printCallArgs(body, n->args(), 1, n->kwargs());
        body += ")";
        break;
      }
      case OpKind::CallModule:
        body += formatTarget("self", target);
        body += "(";
        printCallArgs(body, n->args(), 0, n->kwargs());
        body += ")";
        break;
      case OpKind::GetAttr:
        body += formatTarget("self", target);
        break;
      case OpKind::CallFunction: {
        std::string_view bin = binaryOperator(target);
        const PyOperator *un = findPyOperatorByTarget(kPyUnaryOperators, target);
        if (target == "operator.getitem" && args.size() == 2 && noKwargs) {
          printPyArg(body, args[0]);
          body += "[";
          printPyArg(body, args[1]);
          body += "]";
        } else if (!bin.empty() && args.size() == 2 && noKwargs) {
          printPyArg(body, args[0]);
          body += " " + std::string(bin) + " ";
          printPyArg(body, args[1]);
        } else if (un && args.size() == 1 && noKwargs) {
          body += un->token;
          printPyArg(body, args[0]);
        } else if ((target == "builtins.getattr" || target == "getattr") && args.size() == 2 &&
                   args[1].kind() == Argument::Kind::String && isPyIdentifier(args[1].asString())) {
          std::string self;
          printPyArg(self, args[0]);
          body += formatTarget(self, args[1].asString());
        } else {
          // Builtins by their bare names; operator.* functions FX has no operator for under
          // the name its add_global gives them (`_operator_not_`).
          if (target.starts_with("builtins.") && isPyBuiltinFunction(target.substr(9)))
            body += target.substr(9);
          else if (target.starts_with("operator."))
            body += "_operator_" + std::string(target.substr(9));
          else
            body += target;
          body += "(";
          printCallArgs(body, n->args(), 0, n->kwargs());
          body += ")";
        }
        break;
      }
      case OpKind::Placeholder:
      case OpKind::Output:
        break; // handled above
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
  for (const auto &child : graph.submodules) {
    std::string inner = printModule(*child);
    out += "\n";
    size_t pos = 0;
    while (pos < inner.size()) {
      size_t eol = inner.find('\n', pos);
      size_t end = eol == std::string::npos ? inner.size() : eol + 1;
      if (end - pos > 1)
        out += "    ";
      out.append(inner, pos, end - pos);
      pos = end;
    }
  }
  return out;
}

} // namespace

std::string printReadablePy(const Graph &graph) { return printModule(graph); }

Status checkReadablePyTargets(const Graph &graph) {
  std::vector<const Graph *> todo{&graph};
  while (!todo.empty()) {
    const Graph *g = todo.back();
    todo.pop_back();
    for (const Node *n : *g) {
      if (n->op() != OpKind::CallFunction)
        continue;
      std::string_view target = n->target();
      bool dotted = !target.empty();
      for (size_t start = 0; dotted;) {
        size_t dot = target.find('.', start);
        dotted = isPyIdentifier(target.substr(start, dot == target.npos ? dot : dot - start));
        if (dot == target.npos)
          break;
        start = dot + 1;
      }
      if (!dotted) {
        // Where the reader found it: an unknown target's position is kept on the graph.
        SourceLoc where;
        if (auto it = g->attachments.find(UnknownOpPositions::kKey);
            it != g->attachments.end() && it->second) {
          const auto &byNode = static_cast<const UnknownOpPositions &>(*it->second).byNode;
          if (auto pos = byNode.find(n->name()); pos != byNode.end())
            where = pos->second;
        }
        std::string shown(target.substr(0, 80));
        if (target.size() > 80)
          shown += "... (" + std::to_string(target.size()) + " characters)";
        return Error("node '" + n->name() + "': target '" + shown +
                         "' is not a dotted Python name, so readable Python cannot call it "
                         "(write fx or json instead)",
                     where);
      }
    }
    for (const auto &child : g->submodules)
      todo.push_back(child.get());
  }
  return Status::ok();
}

} // namespace fxkit
