#include "repl/ReplRewrite.h"

#include "importers/FxTextParser.h"
#include "importers/ReadablePyParser.h"
#include "ir/OutputValues.h"
#include "ir/Try.h"
#include "ir/ops/OpRegistry.h"
#include "repl/ReplLexer.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>
#include <unordered_set>

namespace fxkit {
namespace {

bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Identifiers of a Python line outside string literals (the names it may use).
std::vector<std::string> identifiersOf(std::string_view line) {
  std::vector<std::string> out;
  char quote = 0;
  for (size_t i = 0; i < line.size();) {
    char c = line[i];
    if (quote) {
      quote = c == '\\' ? (++i, quote) : (c == quote ? 0 : quote);
      ++i;
    } else if (c == '"' || c == '\'') {
      quote = c;
      ++i;
    } else if (isIdentChar(c) && !std::isdigit(static_cast<unsigned char>(c)) &&
               (i == 0 || line[i - 1] != '.')) {
      size_t start = i;
      while (i < line.size() && (isIdentChar(line[i]) || line[i] == '.'))
        ++i;
      std::string_view word = line.substr(start, i - start);
      if (word.find('.') == std::string_view::npos)
        out.emplace_back(word);
    } else {
      ++i;
    }
  }
  return out;
}

/// Parses one node line into a small graph: placeholders for the names it uses, the node.
Expected<Graph> parseNodeLine(const Graph &graph, std::string_view line) {
  size_t first = line.find_first_not_of(" \t");
  if (first == std::string_view::npos)
    return Error("no node to insert (expected `%name = call_function[...](...)` or "
                 "`name = torch.ops.aten.OP(...)`)");
  line = line.substr(first);
  if (line.starts_with('%')) {
    FxTextParseOptions options;
    options.partial = true;
    // FX text always has ` : [num_users=N]` after the name; a line typed without it gets it.
    std::string text(line);
    size_t nameEnd = text.find_first_of(" =", 1);
    if (nameEnd != std::string::npos && text.compare(nameEnd, 3, " = ") == 0)
      text.insert(nameEnd, " : [num_users=0]");
    else if (nameEnd != std::string::npos && text.compare(nameEnd, 1, "=") == 0)
      text.insert(nameEnd, " : [num_users=0] ");
    return parseFxText(text, "<insert>", options);
  }
  // The Python form: a forward() taking the graph nodes the line names.
  std::string text(line);
  size_t eq = text.find('=');
  if (eq != std::string::npos) {
    size_t call = text.find_first_not_of(' ', eq + 1);
    for (std::string_view ns : {"aten.", "prims."})
      if (call != std::string::npos && std::string_view(text).substr(call).starts_with(ns))
        text.insert(call, "torch.ops.");
  }
  std::string params = "self";
  std::unordered_set<std::string> seen;
  std::string self = identifiersOf(text).empty() ? "" : identifiersOf(text).front();
  for (const std::string &id : identifiersOf(text))
    if (id != self && graph.find(id) && seen.insert(id).second)
      params += ", " + id;
  std::string module = "class GraphModule(torch.nn.Module):\n    def forward(" + params +
                       "):\n        " + text + "\n        return (" + self + ",)\n";
  return parseReadablePy(module, "<insert>");
}

/// Gives a new call node its type by shape inference when all its inputs have types.
Status inferIfTyped(Node &node) {
  if (node.op() != OpKind::CallFunction)
    return Status::ok();
  for (Node *in : node.inputs())
    if (in->value().empty())
      return Status::ok();
  if (!OpRegistry::instance().lookup(node.target()))
    return Error("unknown op '" + std::string(node.target()) + "' for '" + node.name() +
                 "' (no schema to infer its type)");
  FXKIT_ASSIGN_OR_RETURN(auto value, inferNodeValue(node));
  node.value() = std::move(value);
  return Status::ok();
}

} // namespace

Expected<Node *> insertNodeFromText(Graph &graph, std::string_view anchor, bool before,
                                    std::string_view line) {
  Node *at = graph.find(anchor);
  if (!at)
    return Error("no node named '" + std::string(anchor) + "'");
  FXKIT_ASSIGN_OR_RETURN(auto parsed, parseNodeLine(graph, line));
  Node *def = nullptr;
  for (Node *n : parsed)
    if (n->op() != OpKind::Placeholder && n->op() != OpKind::Output) {
      if (def)
        return Error("insert takes one node; the text defines '" + def->name() + "' and '" +
                     n->name() + "'");
      def = n;
    }
  if (!def)
    return Error("the text defines no node to insert (placeholders and outputs are not inserted "
                 "this way)");
  if (graph.find(def->name()))
    return Error("a node named '" + def->name() + "' exists already");
  std::string missing;
  Argument args = def->args(), kwargs = def->kwargs();
  auto remap = [&](Node *n) -> Node * {
    Node *g = graph.find(n->name());
    if (!g && missing.empty())
      missing = n->name();
    return g ? g : n;
  };
  args.mapNodes(remap);
  kwargs.mapNodes(remap);
  if (!missing.empty())
    return Error("'" + def->name() + "' uses '" + missing + "', which is not a node of the graph");
  if (at->op() == OpKind::Output && !before)
    return Error("nothing can come after the output node; insert before it");
  Node *node = graph.create(def->op(), def->name(), def->target(), std::move(args),
                            std::move(kwargs), before ? at : at->next());
  node->setPythonType(def->pythonType());
  node->value() = def->value();
  FXKIT_TRY(inferIfTyped(*node));
  return node;
}

Status setNodeMeta(Graph &graph, std::string_view name, std::string_view key,
                   std::string_view value) {
  Node *node = graph.find(name);
  if (!node)
    return Error("no node named '" + std::string(name) + "'");
  if (key == "val" || key == "type") {
    if (value == "none" || value == "None") {
      node->value() = NodeValue{};
      return Status::ok();
    }
    if (auto t = TensorType::parse(value)) {
      node->value().v = t.take();
      return Status::ok();
    }
    auto tensorError = TensorType::parse(value).takeError();
    if (value.find('[') == std::string_view::npos)
      if (auto sym = SymExpr::parse(value)) {
        node->value().v = sym.take();
        return Status::ok();
      }
    return Error("bad value for " + std::string(key) + ": '" + std::string(value) +
                 "': " + tensorError.message +
                 " (expected a tensor type such as f32[4, 8][8, 1]cpu, a "
                 "symbolic integer such as s77, or none)");
  }
  if (key == "python_type") {
    node->setPythonType(value == "none" || value == "None" ? std::string_view() : value);
    return Status::ok();
  }
  return Error("the IR keeps no '" + std::string(key) +
               "' metadata (keys: " + std::string(kNodeMetaKeys) + ")");
}

namespace {

/// The nodes a graph returns, or an error naming `what`.
Expected<std::vector<Node *>> returnedNodes(const Graph &g, const char *what) {
  Node *out = g.outputNode();
  if (!out)
    return Error(std::string(what) + " has no output node");
  std::vector<Node *> nodes;
  for (const Argument &v : returnedValues(*out)) {
    if (!v.isNode())
      return Error(std::string(what) + " must return nodes only");
    nodes.push_back(v.asNode());
  }
  if (nodes.empty())
    return Error(std::string(what) + " returns nothing");
  return nodes;
}

std::vector<Node *> placeholdersOf(const Graph &g) {
  std::vector<Node *> out;
  for (Node *n : g)
    if (n->op() == OpKind::Placeholder)
      out.push_back(n);
  return out;
}

/// A match under construction: pattern node -> graph node, and back for call nodes (two
/// pattern calls never match one graph node).
struct Match {
  std::unordered_map<const Node *, Node *> forward;
  std::unordered_map<Node *, const Node *> reverse;
};

/// Extends `match` by matching pattern node `p` with graph node `g` and, walking back, their
/// inputs (a worklist over node pairs and argument trees; nothing recurses). `taken`: graph
/// nodes of earlier matches. On failure `match` is partly extended: callers retry on a copy.
bool extendMatch(const Node *p, Node *g, const std::unordered_set<Node *> &taken, Match &match) {
  std::vector<std::pair<const Node *, Node *>> nodes{{p, g}};
  std::vector<std::pair<const Argument *, const Argument *>> args;
  while (!nodes.empty()) {
    auto [pn, gn] = nodes.back();
    nodes.pop_back();
    if (auto it = match.forward.find(pn); it != match.forward.end()) {
      if (it->second != gn)
        return false;
      continue;
    }
    match.forward.emplace(pn, gn);
    if (pn->op() == OpKind::Placeholder)
      continue;
    if (gn->op() != pn->op() || gn->target() != pn->target() || taken.contains(gn) ||
        !match.reverse.emplace(gn, pn).second)
      return false;
    args = {{&pn->args(), &gn->args()}, {&pn->kwargs(), &gn->kwargs()}};
    while (!args.empty()) {
      auto [pa, ga] = args.back();
      args.pop_back();
      if (pa->kind() != ga->kind())
        return false;
      if (pa->isNode()) {
        nodes.emplace_back(pa->asNode(), ga->asNode());
      } else if (pa->isContainer()) {
        if (pa->items().size() != ga->items().size())
          return false;
        for (size_t i = 0; i < pa->items().size(); ++i)
          args.emplace_back(&pa->items()[i], &ga->items()[i]);
      } else if (!pa->equals(*ga)) {
        return false;
      }
    }
  }
  return true;
}

/// Matches the pattern's returned nodes `outs` with `anchor` for outs[0]. Every other returned
/// node that the walk back from outs[0] did not reach is looked for among the users of the
/// graph nodes its inputs matched (siblings such as the getitems of one var_mean); the first
/// candidate that extends the match is taken.
bool matchAt(const std::vector<Node *> &outs, Node *anchor, const std::unordered_set<Node *> &taken,
             Match &match) {
  match = Match{};
  if (!extendMatch(outs[0], anchor, taken, match))
    return false;
  for (size_t i = 1; i < outs.size(); ++i) {
    if (match.forward.contains(outs[i]))
      continue;
    std::vector<Node *> candidates;
    for (Node *in : outs[i]->inputs())
      if (auto it = match.forward.find(in); it != match.forward.end()) {
        candidates = it->second->users();
        break;
      }
    bool found = false;
    for (Node *c : candidates) {
      Match attempt = match;
      if (extendMatch(outs[i], c, taken, attempt)) {
        match = std::move(attempt);
        found = true;
        break;
      }
    }
    if (!found)
      return false;
  }
  return true;
}

/// Gives every node its program position in scratch() (for ordering matched nodes).
void numberNodes(const Graph &graph) {
  uint32_t position = 0;
  for (Node *n : graph)
    n->scratch() = position++;
}

} // namespace

Expected<ReplaceReport> replacePattern(Graph &graph, const Graph &pattern,
                                       const Graph &replacement) {
  FXKIT_ASSIGN_OR_RETURN(auto patternOuts, returnedNodes(pattern, "the pattern"));
  FXKIT_ASSIGN_OR_RETURN(auto replacementOuts, returnedNodes(replacement, "the replacement"));
  if (patternOuts.size() != replacementOuts.size())
    return Error("the pattern returns " + std::to_string(patternOuts.size()) +
                 " values and the replacement " + std::to_string(replacementOuts.size()) +
                 "; they must have the same outputs");
  std::vector<Node *> patternInputs = placeholdersOf(pattern);
  std::vector<Node *> replacementInputs = placeholdersOf(replacement);
  if (patternInputs.size() != replacementInputs.size())
    return Error("the pattern has " + std::to_string(patternInputs.size()) +
                 " placeholders and the replacement " + std::to_string(replacementInputs.size()) +
                 "; they must have the same inputs");
  for (Node *out : patternOuts)
    if (out->op() == OpKind::Placeholder)
      return Error("the pattern returns placeholder '" + out->name() +
                   "': it would match every node");
  const Node *anchorPattern = patternOuts.front();

  // Find every match first (on the unchanged graph), then rewrite.
  numberNodes(graph);
  ReplaceReport report;
  std::unordered_set<Node *> taken;
  std::vector<Match> matches;
  Match match;
  for (Node *candidate : graph) {
    if (candidate->op() != anchorPattern->op() || candidate->target() != anchorPattern->target() ||
        taken.contains(candidate))
      continue;
    if (!matchAt(patternOuts, candidate, taken, match))
      continue;
    std::unordered_set<Node *> returned;
    for (Node *out : patternOuts)
      returned.insert(match.forward.at(out));
    bool escapes = false;
    for (const auto &[g, p] : match.reverse)
      if (!returned.contains(g))
        for (Node *user : g->users())
          escapes = escapes || !match.reverse.contains(user);
    if (escapes) {
      ++report.refusedEscaping;
      continue;
    }
    for (const auto &[g, p] : match.reverse)
      taken.insert(g);
    matches.push_back(std::move(match));
  }

  // A later match may take an earlier one's output as an input: follow the replacement.
  std::unordered_map<Node *, Node *> replacedBy;
  auto resolve = [&](Node *n) {
    for (auto it = replacedBy.find(n); it != replacedBy.end(); it = replacedBy.find(n))
      n = it->second;
    return n;
  };
  for (const Match &m : matches) {
    // The replacement goes before the first returned node: the matched nodes' inputs are
    // defined before it and the returned nodes' users come after it.
    Node *insertAt = nullptr;
    for (Node *out : patternOuts) {
      Node *g = m.forward.at(out);
      if (!insertAt || g->scratch() < insertAt->scratch())
        insertAt = g;
    }
    std::unordered_map<const Node *, Node *> copies;
    for (size_t i = 0; i < replacementInputs.size(); ++i) {
      auto bound = m.forward.find(patternInputs[i]);
      if (bound == m.forward.end())
        return Error("pattern placeholder '" + patternInputs[i]->name() +
                     "' is not used by the pattern's outputs; every input must be");
      copies.emplace(replacementInputs[i], resolve(bound->second));
    }
    for (Node *r : replacement) {
      if (r->op() == OpKind::Placeholder || r->op() == OpKind::Output)
        continue;
      Argument args = r->args(), kwargs = r->kwargs();
      auto remap = [&](Node *n) { return copies.at(n); };
      args.mapNodes(remap);
      kwargs.mapNodes(remap);
      Node *copy = graph.create(r->op(), graph.uniqueName(r->name()), r->target(), std::move(args),
                                std::move(kwargs), insertAt);
      copy->setPythonType(r->pythonType());
      copy->value() = r->value();
      FXKIT_TRY(inferIfTyped(*copy));
      copies.emplace(r, copy);
    }
    for (size_t i = 0; i < patternOuts.size(); ++i) {
      Node *old = m.forward.at(patternOuts[i]);
      Node *result = copies.at(replacementOuts[i]);
      graph.replaceAllUsesWith(old, result);
      replacedBy.emplace(old, result);
    }
    // Erase the matched nodes, users before what they use.
    std::vector<Node *> dead;
    for (const auto &[g, p] : m.reverse)
      dead.push_back(g);
    std::sort(dead.begin(), dead.end(),
              [](const Node *a, const Node *b) { return a->scratch() > b->scratch(); });
    for (Node *g : dead) {
      if (!g->users().empty())
        return Error("internal: matched node '" + g->name() + "' still has users");
      graph.erase(g);
    }
    ++report.replaced;
  }
  return report;
}

Expected<std::vector<PatternMatch>> findPatternMatches(const Graph &graph, const Graph &pattern) {
  FXKIT_ASSIGN_OR_RETURN(auto outs, returnedNodes(pattern, "the pattern"));
  for (Node *out : outs)
    if (out->op() == OpKind::Placeholder)
      return Error("the pattern returns placeholder '" + out->name() +
                   "': it would match every node");
  const Node *anchor = outs.front();
  std::vector<PatternMatch> found;
  const std::unordered_set<Node *> taken;
  Match match;
  for (Node *candidate : graph) {
    if (candidate->op() != anchor->op() || candidate->target() != anchor->target() ||
        !matchAt(outs, candidate, taken, match))
      continue;
    PatternMatch m;
    m.root = candidate;
    for (Node *p : pattern)
      if (auto it = match.forward.find(p); it != match.forward.end())
        m.bindings.emplace_back(p, it->second);
    found.push_back(std::move(m));
  }
  return found;
}

namespace {

/// The statements of an inline pattern: split at `;` and newlines outside brackets and quotes.
std::vector<std::string> patternStatements(std::string_view text) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  BracketScan scan;
  auto flush = [&] {
    size_t a = cur.find_first_not_of(" \t\r");
    if (a != std::string::npos)
      out.push_back(cur.substr(a, cur.find_last_not_of(" \t\r") + 1 - a));
    cur.clear();
  };
  for (char c : text) {
    BracketScan::Char kind = scan.next(c);
    if (kind == BracketScan::Char::Open) {
      ++depth;
    } else if (kind == BracketScan::Char::Close) {
      --depth;
    } else if (kind == BracketScan::Char::Other && (c == ';' || c == '\n') && depth <= 0) {
      flush();
      continue;
    }
    cur += c;
  }
  flush();
  return out;
}

/// The position of a statement's assignment `=` (not `==`, not a keyword argument's), or npos.
size_t assignmentAt(std::string_view stmt) {
  for (size_t i = 0; i < stmt.size(); ++i) {
    char c = stmt[i];
    if (c == '(' || c == '[' || c == '{' || c == '"' || c == '\'')
      return std::string_view::npos;
    if (c == '=' && (i + 1 >= stmt.size() || stmt[i + 1] != '=') &&
        (i == 0 || std::string_view("=!<>").find(stmt[i - 1]) == std::string_view::npos))
      return i;
  }
  return std::string_view::npos;
}

/// Names of keyword arguments in a statement (`keepdim` in `sum(x, [1], keepdim=True)`).
std::unordered_set<std::string> keywordNames(std::string_view stmt) {
  std::unordered_set<std::string> out;
  for (size_t i = 0; i < stmt.size(); ++i) {
    if (stmt[i] != '=' || (i + 1 < stmt.size() && stmt[i + 1] == '=') ||
        (i > 0 && std::string_view("=!<>").find(stmt[i - 1]) != std::string_view::npos))
      continue;
    size_t end = i;
    while (end > 0 && stmt[end - 1] == ' ')
      --end;
    size_t start = end;
    while (start > 0 && isIdentChar(stmt[start - 1]))
      --start;
    if (start < end)
      out.emplace(stmt.substr(start, end - start));
  }
  return out;
}

/// An FX text node line with the ` : [num_users=N]` that str(graph) always prints.
std::string withNumUsers(std::string_view line) {
  std::string text(line);
  size_t nameEnd = text.find_first_of(" =:", 1);
  if (nameEnd != std::string::npos && text.compare(nameEnd, 3, " = ") == 0)
    text.insert(nameEnd, " : [num_users=0]");
  else if (nameEnd != std::string::npos && text.compare(nameEnd, 1, "=") == 0)
    text.insert(nameEnd, " : [num_users=0] ");
  return text;
}

} // namespace

Expected<Graph> parseInlinePattern(std::string_view text) {
  std::vector<std::string> stmts = patternStatements(text);
  if (stmts.empty())
    return Error("empty pattern (expected e.g. 'aten.mul.Tensor(a, b)' or "
                 "'m = aten.mul.Tensor(a, b); aten.add.Tensor(m, c)')");
  if (stmts.front().starts_with('%') || stmts.front().starts_with("graph():")) {
    // FX text lines: the parser's partial mode makes undefined `%names` placeholders.
    std::string fx = "graph():\n";
    Node *last = nullptr;
    for (const std::string &s : stmts)
      if (s != "graph():")
        fx += "    " + (s.starts_with('%') ? withNumUsers(s) : s) + "\n";
    FxTextParseOptions options;
    options.partial = true;
    FXKIT_ASSIGN_OR_RETURN(auto g, parseFxText(fx, "<pattern>", options));
    if (!g.outputNode()) {
      for (Node *n : g)
        if (n->op() != OpKind::Placeholder)
          last = n;
      if (!last)
        return Error("the pattern defines no node to match");
      g.create(OpKind::Output, "output", "output",
               Argument::tuple({Argument::tuple({Argument::node(last)})}));
    }
    return g;
  }
  // The Python form: a forward() whose parameters are the names used and not defined.
  std::vector<std::string> params;
  std::unordered_set<std::string> defined, seen;
  static const std::unordered_set<std::string> kConstants = {"True", "False", "None",
                                                             "inf",  "nan",   "torch"};
  std::string body, last;
  for (size_t i = 0; i < stmts.size(); ++i) {
    std::string stmt = stmts[i];
    size_t eq = assignmentAt(stmt);
    if (eq == std::string::npos) {
      if (i + 1 < stmts.size())
        return Error("pattern statement '" + stmt +
                     "' assigns no name (only the last one may be a bare expression)");
      stmt = "_pattern_root = " + stmt;
      eq = assignmentAt(stmt);
    }
    std::string lhs = stmt.substr(0, eq);
    lhs.erase(lhs.find_last_not_of(' ') + 1);
    size_t call = stmt.find_first_not_of(' ', eq + 1);
    for (std::string_view ns : {"aten.", "prims."})
      if (call != std::string::npos && std::string_view(stmt).substr(call).starts_with(ns))
        stmt.insert(call, "torch.ops.");
    std::unordered_set<std::string> keywords = keywordNames(stmt.substr(eq + 1));
    for (const std::string &id : identifiersOf(std::string_view(stmt).substr(eq + 1)))
      if (!defined.contains(id) && !keywords.contains(id) && !kConstants.contains(id) &&
          seen.insert(id).second)
        params.push_back(id);
    defined.insert(lhs);
    body += "        " + stmt + "\n";
    last = lhs;
  }
  std::string module = "class GraphModule(torch.nn.Module):\n    def forward(self";
  for (const std::string &p : params)
    module += ", " + p;
  module += "):\n" + body + "        return (" + last + ",)\n";
  FXKIT_ASSIGN_OR_RETURN(auto g, parseReadablePy(module, "<pattern>"));
  // The Python reader keeps a call nested in an argument as opaque text: name it instead.
  for (Node *n : g) {
    std::string nested;
    auto find = [&](const Argument &a) {
      std::vector<const Argument *> stack{&a};
      while (!stack.empty() && nested.empty()) {
        const Argument *x = stack.back();
        stack.pop_back();
        if (x->kind() == Argument::Kind::Opaque && x->asString().find('(') != std::string::npos)
          nested = std::string(x->asString());
        for (const Argument &item : x->items())
          stack.push_back(&item);
      }
    };
    find(n->args());
    find(n->kwargs());
    if (!nested.empty())
      return Error("pattern: '" + nested +
                   "' is a call inside an argument; give it a name of its own (m = " +
                   nested.substr(nested.find("torch.ops.") == 0 ? 10 : 0) + "; ...)");
  }
  return g;
}

} // namespace fxkit
