#include "repl/ReplQuery.h"

#include "exporters/FxTextPrinter.h"
#include "exporters/GraphSummary.h"
#include "exporters/PyRepr.h"
#include "importers/Import.h"
#include "ir/OutputValues.h"
#include "ir/Try.h"
#include "ir/Verifier.h"
#include "ir/ops/OpRegistry.h"
#include "ir/wrapper/WrapperDialect.h"
#include "repl/ReplCommandSupport.h"
#include "repl/ReplInspect.h"
#include "repl/ReplLexer.h"
#include "repl/ReplMatcher.h"
#include "repl/ReplRewrite.h"
#include "repl/ReplSession.h"
#include "support/DidYouMean.h"
#include "support/InductorProvenance.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <deque>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace fxkit {
namespace {

constexpr std::string_view kTorchOps = "torch.ops.";
/// Node names listed inline (set, pass summaries) before `... N more`.
constexpr size_t kInlineNames = 8;

/// Gives every node its position in scratch().
void numberNodes(const Graph &graph) {
  uint32_t position = 0;
  for (Node *n : graph)
    n->scratch() = position++;
}

/// Sorts by graph position (numberNodes first) and drops duplicates.
void sortByPosition(NodeSet &nodes) {
  std::sort(nodes.begin(), nodes.end(),
            [](const Node *a, const Node *b) { return a->scratch() < b->scratch(); });
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
}

/// `%mul = torch.ops.aten.mul.Tensor : f32[4][1]cpu`: one line per node in listings.
std::string describeNode(const Node &n, bool full) {
  std::string out = "%" + n.name() + " = ";
  if (n.op() == OpKind::CallFunction || n.op() == OpKind::CallMethod ||
      n.op() == OpKind::CallModule || n.op() == OpKind::GetAttr)
    out += n.target();
  else
    out += opKindName(n.op());
  std::string type = valueTypeString(n.value());
  if (!type.empty())
    out += " : " + (full ? type : elideLongLists(type));
  return out;
}

std::string joinNames(const NodeSet &nodes, size_t max) {
  std::string out;
  for (size_t i = 0; i < nodes.size() && i < max; ++i)
    out += (i ? ", " : "") + nodes[i]->name();
  if (nodes.size() > max)
    out += ", ... " + std::to_string(nodes.size() - max) + " more";
  return out;
}

/// Removes `--full` from the words; returns whether it was there.
bool takeFlag(ReplWords &words, std::string_view flag) {
  auto it = std::find(words.begin() + 1, words.end(), flag);
  if (it == words.end())
    return false;
  words.erase(it);
  return true;
}

/// Removes `--NAME N` from the words; -1 when absent.
Expected<int64_t> takeCount(ReplWords &words, std::string_view option) {
  auto it = std::find(words.begin() + 1, words.end(), option);
  if (it == words.end())
    return int64_t{-1};
  if (it + 1 == words.end())
    return Error(std::string(option) + " takes a whole number");
  const std::string &v = *(it + 1);
  int64_t n = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || end != v.data() + v.size() || n < 0)
    return Error(std::string(option) + " takes a whole number, not '" + v + "'");
  words.erase(it, it + 2);
  return n;
}

/// The union of the node sets of `words` (names or `$vars`), in graph order.
Expected<NodeSet> resolveAll(const ReplSession &s, const ReplGraph &g,
                             const std::vector<std::string> &words) {
  NodeSet all;
  for (const std::string &w : words) {
    FXKIT_ASSIGN_OR_RETURN(auto nodes, resolveReplNodes(s, g, w));
    all.insert(all.end(), nodes.begin(), nodes.end());
  }
  numberNodes(g.graph);
  sortByPosition(all);
  return all;
}

/// What a query answers: its nodes, and how to print them.
struct QueryResult {
  NodeSet nodes;
  /// Printed instead of one line per node when set (paths, matches).
  std::optional<std::vector<std::string>> lines;
  std::string whenEmpty; ///< printed when there are no nodes ("(no users)")
  std::string status;    ///< the status line ("3 of 8 nodes match")
  std::string hint;      ///< a did-you-mean line on the status stream
};

using QueryFn = Expected<QueryResult> (*)(ReplSession &, ReplGraph &, ReplWords &);

/// `op=mul` matching nothing: the ops it may have meant (the graph's first, then the table's).
std::string opHint(const Graph &graph, std::string_view value) {
  if (value.find_first_of("*?") != std::string_view::npos)
    return "";
  std::set<std::string_view> inGraph;
  for (Node *n : graph)
    if (n->op() == OpKind::CallFunction || n->op() == OpKind::CallMethod)
      inGraph.insert(n->target().starts_with(kTorchOps) ? n->target().substr(kTorchOps.size())
                                                        : n->target());
  auto suggest = [&](const std::vector<std::string_view> &targets) {
    std::vector<std::string> named; // the op's name part equals the word: aten.mul.Tensor
    for (std::string_view t : targets) {
      size_t dot = t.find('.');
      std::string_view op = dot == std::string_view::npos ? t : t.substr(dot + 1);
      op = op.substr(0, op.find('.'));
      if (op == value && named.size() < 4)
        named.emplace_back(t);
    }
    return named.empty() ? closestSpellings(value, targets) : named;
  };
  std::vector<std::string> s = suggest({inGraph.begin(), inGraph.end()});
  if (!s.empty())
    return "op=" + std::string(value) + " names no op of this graph; " + didYouMean(s);
  std::vector<std::string_view> table;
  for (const OpInfo &op : OpRegistry::instance().ops())
    table.push_back(std::string_view(op.target).starts_with(kTorchOps)
                        ? std::string_view(op.target).substr(kTorchOps.size())
                        : std::string_view(op.target));
  s = suggest(table);
  if (s.empty())
    return "";
  return "op=" + std::string(value) +
         " names no op of this graph, nor one close to it; in the "
         "op table: " +
         didYouMean(s);
}

Expected<QueryResult> queryFind(ReplSession &s, ReplGraph &g, ReplWords &w) {
  std::vector<std::string> terms, domains;
  for (size_t i = 1; i < w.size(); ++i)
    (w[i].starts_with('$') ? domains : terms).push_back(w[i]);
  FXKIT_ASSIGN_OR_RETURN(auto matcher, parseNodeMatcher(terms));
  std::optional<KernelView> kernels;
  if (matcher.needsKernels() && hasProvenance(g.graph)) {
    matcher.inductorKernels = true; // the kernels Inductor recorded, not fxkit's own
  } else if (matcher.needsKernels()) {
    auto view = buildKernelView(g.graph, &ReplSession::interrupted); // Ctrl-C: between passes
    if (!view && ReplSession::interrupted)
      return view.takeError();
    if (!view)
      return Error("kernel= needs the graph lowered and fused: " + view.error().message);
    kernels = view.take();
    matcher.kernels = &kernels->kernelsOfNode;
  }
  QueryResult r;
  size_t searched = g.graph.size();
  if (domains.empty()) {
    for (Node *n : g.graph)
      if (matcher.matches(*n))
        r.nodes.push_back(n);
  } else {
    // `find TERM... $a $b`: among the nodes of the variables (their union).
    FXKIT_ASSIGN_OR_RETURN(auto domain, resolveAll(s, g, domains));
    searched = domain.size();
    for (Node *n : domain)
      if (matcher.matches(*n))
        r.nodes.push_back(n);
  }
  r.status = std::to_string(r.nodes.size()) + " of " + std::to_string(searched) + " nodes match";
  if (r.nodes.empty())
    for (const NodeMatchTerm &t : matcher.terms) {
      if (t.cmp != NodeMatchTerm::Cmp::Eq)
        continue;
      if (t.key == NodeMatchTerm::Key::Op)
        r.hint = opHint(g.graph, t.value);
      else if (t.key == NodeMatchTerm::Key::Name &&
               t.value.find_first_of("*?") == std::string::npos) {
        std::vector<std::string_view> names;
        for (Node *n : g.graph)
          names.push_back(n->name());
        if (auto close = closestSpellings(t.value, names); !close.empty())
          r.hint = "name=" + t.value + ": " + didYouMean(close);
      }
      if (!r.hint.empty())
        break;
    }
  return r;
}

/// `users NODE|$var...` and `inputs NODE|$var...`.
Expected<QueryResult> queryNeighbours(ReplSession &s, ReplGraph &g, ReplWords &w) {
  bool users = w[0] == "users";
  if (w.size() < 2)
    return Error("usage: " + std::string(findReplCommand(w[0])->usage));
  FXKIT_ASSIGN_OR_RETURN(auto seeds, resolveAll(s, g, {w.begin() + 1, w.end()}));
  QueryResult r;
  r.whenEmpty = users ? "(no users)" : "(no inputs)";
  if (seeds.size() == 1 && !users) {
    r.nodes = seeds.front()->inputs(); // one node: in argument order, as FX lists them
    return r;
  }
  for (Node *n : seeds)
    for (Node *m : users ? n->users() : n->inputs())
      r.nodes.push_back(m);
  sortByPosition(r.nodes);
  return r;
}

/// The `NODE|$var... [--depth N]` of ancestors, descendants and slice: where a walk starts and
/// how many edges it may take (-1: any).
struct ReachArgs {
  NodeSet seeds;
  int64_t depth;
};

Expected<ReachArgs> reachArgs(ReplSession &s, ReplGraph &g, ReplWords &w) {
  FXKIT_ASSIGN_OR_RETURN(auto depth, takeCount(w, "--depth"));
  if (w.size() < 2)
    return Error("usage: " + std::string(findReplCommand(w[0])->usage));
  FXKIT_ASSIGN_OR_RETURN(auto seeds, resolveAll(s, g, {w.begin() + 1, w.end()}));
  return ReachArgs{std::move(seeds), depth};
}

/// `ancestors|descendants NODE|$var... [--depth N]`.
Expected<QueryResult> queryReach(ReplSession &s, ReplGraph &g, ReplWords &w) {
  bool forward = w[0] == "descendants";
  FXKIT_ASSIGN_OR_RETURN(auto reach, reachArgs(s, g, w));
  const auto &[seeds, depth] = reach;
  QueryResult r;
  r.nodes = reachableNodes(g.graph, seeds, forward, depth);
  r.whenEmpty = forward ? "(no descendants)" : "(no ancestors)";
  r.status = std::to_string(r.nodes.size()) + (forward ? " descendants" : " ancestors") + " of " +
             joinNames(seeds, 3) +
             (depth >= 0 ? " within " + std::to_string(depth) + " edges" : "");
  return r;
}

/// `slice [--backward|--forward] NODE|$var... [--depth N]`: the nodes and what computes them
/// (or what they feed).
Expected<QueryResult> querySlice(ReplSession &s, ReplGraph &g, ReplWords &w) {
  bool forward = takeFlag(w, "--forward");
  bool backward = takeFlag(w, "--backward");
  if (forward && backward)
    return Error("slice: --backward or --forward, not both");
  FXKIT_ASSIGN_OR_RETURN(auto reach, reachArgs(s, g, w));
  const auto &[seeds, depth] = reach;
  QueryResult r;
  r.nodes = reachableNodes(g.graph, seeds, forward, depth);
  r.nodes.insert(r.nodes.end(), seeds.begin(), seeds.end());
  sortByPosition(r.nodes);
  r.status = std::string(forward ? "forward" : "backward") + " slice of " + joinNames(seeds, 3) +
             ": " + std::to_string(r.nodes.size()) + " nodes";
  return r;
}

/// `path A B [--all] [--limit N]`.
Expected<QueryResult> queryPath(ReplSession &s, ReplGraph &g, ReplWords &w) {
  bool all = takeFlag(w, "--all");
  FXKIT_ASSIGN_OR_RETURN(auto limit, takeCount(w, "--limit"));
  if (w.size() != 3)
    return Error("usage: " + std::string(findReplCommand(w[0])->usage));
  Node *ends[2];
  for (int i = 0; i < 2; ++i) {
    FXKIT_ASSIGN_OR_RETURN(auto n, resolveReplNodes(s, g, w[1 + i]));
    if (n.size() != 1)
      return Error("path takes two nodes; '" + w[1 + i] + "' names " + std::to_string(n.size()));
    ends[i] = n.front();
  }
  QueryResult r;
  std::string between = " from " + ends[0]->name() + " to " + ends[1]->name();
  if (!all) {
    r.nodes = shortestDataPath(g.graph, ends[0], ends[1]);
    if (r.nodes.empty()) {
      bool reverse = !shortestDataPath(g.graph, ends[1], ends[0]).empty();
      r.whenEmpty = "(no data path" + between + ")";
      if (reverse)
        r.hint = ends[0]->name() + " depends on " + ends[1]->name() + ": try 'path " +
                 ends[1]->name() + " " + ends[0]->name() + "'";
    } else {
      r.status = "a shortest path" + between + ": " + std::to_string(r.nodes.size() - 1) +
                 (r.nodes.size() == 2 ? " edge" : " edges");
    }
    return r;
  }
  size_t max = limit < 0 ? 20 : static_cast<size_t>(limit);
  std::vector<NodeSet> paths = dataPaths(g.graph, ends[0], ends[1], max);
  r.lines.emplace();
  for (const NodeSet &p : paths) {
    std::string line;
    for (Node *n : p)
      line += (line.empty() ? "" : " -> ") + n->name();
    r.lines->push_back(std::move(line));
    r.nodes.insert(r.nodes.end(), p.begin(), p.end());
  }
  numberNodes(g.graph);
  sortByPosition(r.nodes);
  r.whenEmpty = "(no data path" + between + ")";
  r.status = std::to_string(paths.size()) + (paths.size() == 1 ? " path" : " paths") + between;
  if (paths.size() == max)
    r.status += " (the first " + std::to_string(max) + "; --limit N for more)";
  return r;
}

/// `match PATTERN [TERM...]`: PATTERN is a graph file or inline text (repl/ReplRewrite.h).
Expected<QueryResult> queryMatch(ReplSession &s, ReplGraph &g, ReplWords &w) {
  if (w.size() < 2)
    return Error("usage: " + std::string(findReplCommand(w[0])->usage));
  std::error_code ec;
  bool file = w[1].find('(') == std::string::npos && std::filesystem::is_regular_file(w[1], ec);
  FXKIT_ASSIGN_OR_RETURN(auto pattern, file ? importGraphFile(w[1]) : parseInlinePattern(w[1]));
  FXKIT_ASSIGN_OR_RETURN(auto matcher, parseNodeMatcher({w.begin() + 2, w.end()}));
  if (matcher.needsKernels())
    return Error(
        "match: kernel= terms are for 'find' (try 'let m = match ...; find kernel=... $m')");
  FXKIT_ASSIGN_OR_RETURN(auto matches, findPatternMatches(g.graph, pattern));
  QueryResult r;
  r.lines.emplace();
  size_t kept = 0;
  for (const PatternMatch &m : matches) {
    if (!matcher.matches(*m.root))
      continue;
    ++kept;
    std::string bound;
    for (const auto &[p, n] : m.bindings) {
      if (p->op() == OpKind::Placeholder)
        bound += (bound.empty() ? "" : ", ") + p->name() + "=" + n->name();
      else
        r.nodes.push_back(n);
    }
    r.lines->push_back(describeNode(*m.root, false) + (bound.empty() ? "" : "  {" + bound + "}"));
  }
  numberNodes(g.graph);
  sortByPosition(r.nodes);
  r.whenEmpty = "(no match)";
  r.status = std::to_string(kept) + (kept == 1 ? " match" : " matches") + " (" +
             std::to_string(r.nodes.size()) + " nodes)";
  return r;
}

/// The kernels computing each node: on a graph read with Inductor's provenance, the kernel
/// calls Inductor recorded (NodeProvenance::kernels, `name:N`); else fxkit's own kernels, the
/// graph lowered and fused on a copy as `find kernel=` does.
struct NodeKernels {
  bool inductor = false;
  std::optional<KernelView> view;

  std::vector<std::string> of(const Node &n) const {
    if (inductor) {
      const NodeProvenance *p = n.provenance();
      return p ? p->kernels : std::vector<std::string>{};
    }
    auto it = view->kernelsOfNode.find(n.name());
    return it == view->kernelsOfNode.end() ? std::vector<std::string>{} : it->second;
  }
  const char *source() const { return inductor ? "Inductor's provenance" : "fxkit's fusion"; }
};

Expected<NodeKernels> nodeKernels(const Graph &graph) {
  NodeKernels k;
  if (hasProvenance(graph)) {
    k.inductor = true;
    return k;
  }
  for (const Node *n : graph)
    if (wrapper::asKernelCall(*n) || wrapper::asExternCall(*n))
      return Error("a compiled program: its kernel calls are nodes ('find op=fxkit.kernel'); "
                   "load it with Inductor's provenance mapping (load FILE --provenance MAP) to "
                   "see the post-grad nodes each computes");
  auto view = buildKernelView(graph, &ReplSession::interrupted); // Ctrl-C: between passes
  if (!view && ReplSession::interrupted)
    return view.takeError();
  if (!view)
    return Error("kernels need the graph lowered and fused: " + view.error().message);
  k.view = view.take();
  return k;
}

/// One line per kernel: `kernel: [node, node, ...]` (long lists elided unless --full).
std::vector<std::string> kernelLines(const std::vector<std::string> &kernels,
                                     const std::map<std::string, NodeSet> &members) {
  std::vector<std::string> lines;
  for (const std::string &k : kernels) {
    std::string l = k + ": [";
    const NodeSet &nodes = members.at(k);
    for (size_t i = 0; i < nodes.size(); ++i)
      l += (i ? ", " : "") + nodes[i]->name();
    lines.push_back(l + "]");
  }
  return lines;
}

/// `kernel-of NODE|$var...`: the kernels computing the nodes, each with every node it
/// computes; as a set, those nodes.
Expected<QueryResult> queryKernelOf(ReplSession &s, ReplGraph &g, ReplWords &w) {
  if (w.size() < 2)
    return Error("usage: " + std::string(findReplCommand(w[0])->usage));
  FXKIT_ASSIGN_OR_RETURN(auto seeds, resolveAll(s, g, {w.begin() + 1, w.end()}));
  FXKIT_ASSIGN_OR_RETURN(auto kernels, nodeKernels(g.graph));
  std::vector<std::string> found;
  std::set<std::string, std::less<>> seen;
  for (Node *n : seeds)
    for (const std::string &k : kernels.of(*n))
      if (seen.insert(k).second)
        found.push_back(k);
  std::map<std::string, NodeSet> members;
  QueryResult r;
  for (Node *n : g.graph) {
    bool in = false;
    for (const std::string &k : kernels.of(*n))
      if (seen.count(k)) {
        members[k].push_back(n);
        in = true;
      }
    if (in)
      r.nodes.push_back(n);
  }
  r.lines = kernelLines(found, members);
  r.whenEmpty = std::string("(no kernel computes it: ") +
                (kernels.inductor ? "Inductor's mapping names none for it)"
                                  : "inputs, views and outputs are no kernel's)");
  r.status = std::to_string(found.size()) + (found.size() == 1 ? " kernel" : " kernels") + " (" +
             kernels.source() + "), " + std::to_string(r.nodes.size()) +
             (r.nodes.size() == 1 ? " node" : " nodes");
  return r;
}

/// `computes KERNEL...`: the nodes each kernel computes (names, `name:N` handles or globs).
Expected<QueryResult> queryComputes(ReplSession &, ReplGraph &g, ReplWords &w) {
  if (w.size() < 2)
    return Error("usage: " + std::string(findReplCommand(w[0])->usage));
  FXKIT_ASSIGN_OR_RETURN(auto kernels, nodeKernels(g.graph));
  std::vector<std::string> found, all;
  std::set<std::string, std::less<>> seen, allSeen;
  std::map<std::string, NodeSet> members;
  QueryResult r;
  for (Node *n : g.graph) {
    bool in = false;
    for (const std::string &k : kernels.of(*n)) {
      if (allSeen.insert(k).second)
        all.push_back(k);
      bool named = false;
      for (size_t i = 1; i < w.size() && !named; ++i)
        named =
            globMatch(w[i], k) || (kernels.inductor && globMatch(w[i], splitKernelHandle(k).first));
      if (!named)
        continue;
      if (seen.insert(k).second)
        found.push_back(k);
      members[k].push_back(n);
      in = true;
    }
    if (in)
      r.nodes.push_back(n);
  }
  r.lines = kernelLines(found, members);
  r.whenEmpty = "(no kernel of that name)";
  r.status = std::to_string(r.nodes.size()) + (r.nodes.size() == 1 ? " node" : " nodes") + " of " +
             std::to_string(found.size()) + " of " + std::to_string(all.size()) + " kernels (" +
             kernels.source() + ")";
  if (found.empty()) {
    std::vector<std::string_view> names(all.begin(), all.end());
    if (auto close = closestSpellings(w[1], names); !close.empty())
      r.hint = didYouMean(close);
  }
  return r;
}

struct QueryRow {
  std::string_view name;
  QueryFn run;
};

const std::vector<QueryRow> &queries() {
  static const std::vector<QueryRow> rows = {
      {"find", queryFind},         {"users", queryNeighbours},  {"inputs", queryNeighbours},
      {"ancestors", queryReach},   {"descendants", queryReach}, {"path", queryPath},
      {"slice", querySlice},       {"match", queryMatch},       {"kernel-of", queryKernelOf},
      {"computes", queryComputes},
  };
  return rows;
}

Expected<QueryResult> runQuery(ReplSession &s, ReplWords w) {
  FXKIT_ASSIGN_OR_RETURN(auto cur, s.current());
  for (const QueryRow &q : queries())
    if (q.name == w[0])
      return q.run(s, *cur, w);
  std::string known;
  for (const QueryRow &q : queries())
    known += (known.empty() ? "" : ", ") + std::string(q.name);
  return Error("'" + w[0] + "' does not answer with nodes (queries: " + known + ")");
}

/// FX text lines of `nodes` as `show` prints them (str(graph)'s lines, types included).
std::vector<std::string> fxLinesOf(const Graph &graph, const NodeSet &nodes) {
  FxTextOptions options;
  options.tensorTypes = true;
  std::string text = printFxText(graph, options);
  // One line per node after `graph():`, in graph order.
  std::vector<std::string_view> lines;
  lines.reserve(graph.size());
  size_t pos = text.find('\n');
  pos = pos == std::string::npos ? text.size() : pos + 1;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    std::string_view l(text.data() + pos, (eol == std::string::npos ? text.size() : eol) - pos);
    pos = eol == std::string::npos ? text.size() : eol + 1;
    size_t first = l.find_first_not_of(' ');
    if (first != std::string_view::npos)
      lines.push_back(l.substr(first));
  }
  numberNodes(graph);
  std::vector<std::string> out;
  for (Node *n : nodes) {
    std::string prefix = n->op() == OpKind::Output ? "return " : "%" + n->name() + " ";
    std::string_view line;
    if (n->scratch() < lines.size() && lines[n->scratch()].starts_with(prefix))
      line = lines[n->scratch()];
    else // a node printed on several lines: look for it
      for (std::string_view l : lines)
        if (l.starts_with(prefix)) {
          line = l;
          break;
        }
    out.emplace_back(line);
  }
  return out;
}

/// Prints a query's result: lines or one line per node to out(), its status to status().
void printResult(ReplSession &s, const QueryResult &r, bool full) {
  if (r.lines) {
    for (const std::string &l : *r.lines)
      s.out() << (full ? l : elideLongLists(l)) << "\n";
  } else {
    for (Node *n : r.nodes)
      s.out() << describeNode(*n, full) << "\n";
  }
  if (r.nodes.empty() && !r.whenEmpty.empty())
    s.out() << r.whenEmpty << "\n";
  if (!r.status.empty())
    s.status() << r.status << "\n";
  if (!r.hint.empty())
    s.status() << "hint: " << r.hint << "\n";
}

/// Nodes named by words[first...] (all nodes when none), the output node included.
Expected<NodeSet> nodesOrAll(const ReplSession &s, const ReplGraph &g, const ReplWords &w,
                             size_t first) {
  if (w.size() > first)
    return resolveAll(s, g, {w.begin() + static_cast<std::ptrdiff_t>(first), w.end()});
  NodeSet all;
  all.reserve(g.graph.size());
  for (Node *n : g.graph)
    all.push_back(n);
  return all;
}

bool isIdentifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])))
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

} // namespace

Expected<NodeSet> resolveReplNodes(const ReplSession &session, const ReplGraph &g,
                                   std::string_view word) {
  if (!word.starts_with('$')) {
    FXKIT_ASSIGN_OR_RETURN(auto n, replNodeNamed(g, word));
    return NodeSet{n};
  }
  std::string_view name = word.substr(1);
  auto it = session.variables().find(name);
  if (it == session.variables().end()) {
    std::vector<std::string_view> names;
    for (const auto &[v, _] : session.variables())
      names.push_back(v);
    std::vector<std::string> close = closestSpellings(name, names);
    for (std::string &c : close)
      c = "$" + c;
    return Error("no variable '" + std::string(word) + "' (" +
                 (close.empty() ? std::string("define one with 'let NAME = find ...'; 'set' lists "
                                              "them")
                                : didYouMean(close)) +
                 ")");
  }
  const ReplVariable &v = it->second;
  if (v.graph != g.name)
    return Error("'" + std::string(word) + "' holds nodes of graph '" + v.graph +
                 "', not of the current graph '" + g.name + "' (use " + v.graph + ")");
  NodeSet out;
  out.reserve(v.nodes.size());
  size_t missing = 0;
  std::string firstMissing;
  for (const std::string &n : v.nodes) {
    if (Node *node = g.graph.find(n))
      out.push_back(node);
    else if (missing++ == 0)
      firstMissing = n;
  }
  if (missing)
    return Error("'" + std::string(word) + "': " + std::to_string(missing) + " of its " +
                 std::to_string(v.nodes.size()) + " nodes are no longer in '" + g.name +
                 "' (first: " + firstMissing + "); run its 'let' again");
  return out;
}

NodeSet reachableNodes(const Graph &graph, const NodeSet &seeds, bool forward, int64_t depth) {
  numberNodes(graph);
  // Depth of each node from the seeds; -1 unseen. A breadth-first walk: depths are minimal.
  std::vector<int64_t> seen(graph.size(), -1);
  std::deque<Node *> queue;
  for (Node *n : seeds)
    if (seen[n->scratch()] < 0) {
      seen[n->scratch()] = 0;
      queue.push_back(n);
    }
  std::vector<char> reached(graph.size(), 0);
  NodeSet out;
  while (!queue.empty()) {
    Node *n = queue.front();
    queue.pop_front();
    int64_t d = seen[n->scratch()];
    if (depth >= 0 && d >= depth)
      continue;
    auto visit = [&](Node *m) {
      if (!reached[m->scratch()]) {
        reached[m->scratch()] = 1;
        out.push_back(m);
      }
      if (seen[m->scratch()] < 0) {
        seen[m->scratch()] = d + 1;
        queue.push_back(m);
      }
    };
    if (forward) {
      for (Node *m : n->users())
        visit(m);
    } else { // the argument trees, without building inputs()'s vector for every node
      n->args().forEachNode(visit);
      n->kwargs().forEachNode(visit);
    }
  }
  sortByPosition(out); // graph order, O(k log k) for k nodes found
  return out;
}

NodeSet shortestDataPath(const Graph &graph, Node *from, Node *to) {
  if (from == to)
    return {from};
  numberNodes(graph);
  // Breadth-first over users; each node's parent on a shortest path from `from`.
  std::vector<Node *> parent(graph.size(), nullptr);
  std::deque<Node *> queue{from};
  parent[from->scratch()] = from;
  while (!queue.empty() && !parent[to->scratch()]) {
    Node *n = queue.front();
    queue.pop_front();
    for (Node *u : n->users())
      if (!parent[u->scratch()]) {
        parent[u->scratch()] = n;
        queue.push_back(u);
      }
  }
  if (!parent[to->scratch()])
    return {};
  NodeSet path;
  for (Node *at = to; at != from; at = parent[at->scratch()])
    path.push_back(at);
  path.push_back(from);
  std::reverse(path.begin(), path.end());
  return path;
}

std::vector<NodeSet> dataPaths(const Graph &graph, Node *from, Node *to, size_t limit) {
  // The walk from `from` only enters ancestors of `to`: every branch of it then ends at `to`.
  NodeSet up = reachableNodes(graph, {to}, false, -1); // numbers the nodes too
  std::vector<char> between(graph.size(), 0);
  for (Node *n : up)
    between[n->scratch()] = 1;
  between[to->scratch()] = 1;
  if (!between[from->scratch()] && from != to)
    return {};
  std::vector<NodeSet> paths;
  if (limit == 0)
    return paths;
  // Depth-first with an explicit stack: (node, index of the next user to try).
  std::vector<std::pair<Node *, size_t>> stack{{from, 0}};
  while (!stack.empty() && paths.size() < limit) {
    auto &[n, next] = stack.back();
    if (n == to) {
      NodeSet p;
      for (const auto &[m, _] : stack)
        p.push_back(m);
      paths.push_back(std::move(p));
      stack.pop_back();
      continue;
    }
    const std::vector<Node *> &users = n->users();
    while (next < users.size() && !between[users[next]->scratch()])
      ++next;
    if (next == users.size()) {
      stack.pop_back();
      continue;
    }
    Node *u = users[next++];
    stack.emplace_back(u, 0);
  }
  return paths;
}

Expected<Graph> extractSubgraph(const Graph &graph, const NodeSet &nodes) {
  numberNodes(graph);
  std::vector<char> inSet(graph.size(), 0);
  NodeSet body; // the set in graph order, without the output node
  for (Node *n : nodes)
    if (n->op() != OpKind::Output && !inSet[n->scratch()]) {
      inSet[n->scratch()] = 1;
      body.push_back(n);
    }
  sortByPosition(body);
  if (body.empty())
    return Error("nothing to extract (the set is empty or only the output node)");
  // Placeholders: the set's own and one per value used from outside, in graph order.
  NodeSet inputs;
  std::vector<char> isInput(graph.size(), 0);
  for (Node *n : body) {
    if (n->op() == OpKind::Placeholder && !isInput[n->scratch()]) {
      isInput[n->scratch()] = 1;
      inputs.push_back(n);
    }
    for (Node *in : n->inputs())
      if (!inSet[in->scratch()] && !isInput[in->scratch()]) {
        isInput[in->scratch()] = 1;
        inputs.push_back(in);
      }
  }
  sortByPosition(inputs);
  Graph out;
  out.moduleName = graph.moduleName;
  out.submodules = graph.submodules;
  out.reserve(body.size() + inputs.size() + 1);
  std::unordered_map<const Node *, Node *> copies;
  for (Node *in : inputs) {
    Node *p = out.create(OpKind::Placeholder, in->name(), in->name());
    p->value() = in->value();
    p->setPythonType(in->pythonType());
    copies.emplace(in, p);
  }
  NodeSet returned;
  for (Node *n : body) {
    bool usedOutside = false, usedInside = false;
    for (Node *u : n->users())
      (inSet[u->scratch()] ? usedInside : usedOutside) = true;
    if (usedOutside || !usedInside)
      returned.push_back(n);
    if (n->op() == OpKind::Placeholder)
      continue;
    Argument args = n->args(), kwargs = n->kwargs();
    auto remap = [&](Node *m) { return copies.at(m); };
    args.mapNodes(remap);
    kwargs.mapNodes(remap);
    Node *copy = out.create(n->op(), n->name(), n->target(), std::move(args), std::move(kwargs));
    copy->setPythonType(n->pythonType());
    copy->value() = n->value();
    if (const NodeProvenance *p = n->provenance())
      copy->setProvenance(*p);
    copies.emplace(n, copy);
  }
  std::vector<Argument> results;
  for (Node *n : returned)
    results.push_back(Argument::node(copies.at(n)));
  out.create(OpKind::Output, out.find("output") ? out.uniqueName("output") : "output", "output",
             Argument::tuple({Argument::tuple(std::move(results))}));
  if (Status v = verifyGraph(out); !v)
    return Error("the extracted graph does not verify: " + v.error().message);
  return out;
}

std::string elideLongLists(std::string_view text, size_t keep) {
  // A stack of the open brackets: items seen and where the output is cut when there are many.
  struct Open {
    size_t items = 0;
    bool content = false;
    size_t cut = std::string::npos;
  };
  std::vector<Open> open;
  std::string out;
  out.reserve(std::min(text.size(), size_t{4096}));
  BracketScan scan;
  for (char c : text) {
    BracketScan::Char kind = scan.next(c);
    if (kind == BracketScan::Char::Open) {
      if (!open.empty())
        open.back().content = true;
      out += c;
      open.push_back({});
      continue;
    }
    if (kind == BracketScan::Char::Close && !open.empty()) {
      Open o = open.back();
      open.pop_back();
      size_t items = o.items + (o.content ? 1 : 0);
      if (items > keep + 4 && o.cut != std::string::npos) {
        out.resize(o.cut);
        out += "... " + std::to_string(items - keep) + " more";
      }
      out += c;
      continue;
    }
    if (kind == BracketScan::Char::Other && c == ',' && !open.empty()) {
      Open &o = open.back();
      ++o.items;
      o.content = false;
      out += c;
      if (o.items == keep)
        o.cut = out.size() + 1; // after the space that follows
      continue;
    }
    if (!open.empty() && c != ' ')
      open.back().content = true;
    out += c;
  }
  return out;
}

std::string printTabular(const NodeSet &nodes, bool full) {
  std::vector<std::array<std::string, 5>> rows;
  rows.push_back({"opcode", "name", "target", "args", "kwargs"});
  rows.reserve(nodes.size() + 1);
  for (Node *n : nodes) {
    std::string target = n->op() == OpKind::Placeholder ? n->name()
                         : n->op() == OpKind::Output    ? std::string("output")
                                                        : std::string(n->target());
    if (std::string_view(target).starts_with(kTorchOps))
      target.erase(0, kTorchOps.size());
    // Python's repr of the arguments, as torch.fx's print_tabular shows them.
    std::string args, kwargs;
    printPyArg(args, n->args());
    printPyArg(kwargs, n->kwargs());
    if (!full) {
      args = elideLongLists(args);
      kwargs = elideLongLists(kwargs);
    }
    rows.push_back({std::string(opKindName(n->op())), n->name(), target, args, kwargs});
  }
  std::array<size_t, 5> width{};
  for (const auto &r : rows)
    for (size_t c = 0; c < 5; ++c)
      width[c] = std::max(width[c], r[c].size());
  std::string out;
  auto line = [&](const std::array<std::string, 5> &r) {
    std::string l;
    for (size_t c = 0; c < 5; ++c)
      l += r[c] + std::string(c + 1 < 5 ? width[c] - r[c].size() + 2 : 0, ' ');
    l.erase(l.find_last_not_of(' ') + 1);
    out += l + "\n";
  };
  line(rows[0]);
  std::array<std::string, 5> rule;
  for (size_t c = 0; c < 5; ++c)
    rule[c] = std::string(width[c], '-');
  line(rule);
  for (size_t i = 1; i < rows.size(); ++i)
    line(rows[i]);
  return out;
}

bool isReplQuery(std::string_view name) {
  for (const QueryRow &q : queries())
    if (q.name == name)
      return true;
  return false;
}

std::vector<std::string_view> replQueryNames() {
  std::vector<std::string_view> out;
  for (const QueryRow &q : queries())
    out.push_back(q.name);
  return out;
}

Status replCmdQuery(ReplSession &s, const ReplWords &w) {
  ReplWords words = w;
  bool full = takeFlag(words, "--full");
  FXKIT_ASSIGN_OR_RETURN(auto r, runQuery(s, std::move(words)));
  printResult(s, r, full);
  return Status::ok();
}

Status replCmdShow(ReplSession &s, const ReplWords &w) {
  ReplWords words = w;
  bool full = takeFlag(words, "--full");
  FXKIT_ASSIGN_OR_RETURN(auto cur, s.current());
  if (words.size() == 1) {
    FxTextOptions options;
    options.tensorTypes = true;
    std::string text = printFxText(cur->graph, options);
    // str(graph) has no final newline; a shell's output does.
    s.out() << text << (text.ends_with('\n') ? "" : "\n");
    return Status::ok();
  }
  FXKIT_ASSIGN_OR_RETURN(auto nodes, resolveAll(s, *cur, {words.begin() + 1, words.end()}));
  for (const std::string &line : fxLinesOf(cur->graph, nodes))
    s.out() << (full ? line : elideLongLists(line)) << "\n";
  // One node by name: its type too, as `show x` always printed.
  if (words.size() == 2 && !words[1].starts_with('$') && nodes.size() == 1) {
    std::string type = valueTypeString(nodes.front()->value());
    s.out() << "type: " << (type.empty() ? "unknown" : full ? type : elideLongLists(type)) << "\n";
  }
  if (words.size() > 2 || words[1].starts_with('$'))
    s.status() << nodes.size() << (nodes.size() == 1 ? " node" : " nodes") << "\n";
  return Status::ok();
}

Status replCmdLet(ReplSession &s, const ReplWords &w) {
  if (w.size() < 4 || w[2] != "=")
    return Error("usage: " + std::string(findReplCommand(w[0])->usage));
  std::string name = w[1].starts_with('$') ? w[1].substr(1) : w[1];
  if (!isIdentifier(name))
    return Error("'" + w[1] + "' is not a valid variable name (letters, digits and _)");
  ReplWords query(w.begin() + 3, w.end());
  if (!isReplQuery(query[0]) && !query[0].starts_with('$')) {
    std::vector<std::string_view> names = replQueryNames();
    std::string known;
    for (std::string_view q : names)
      known += (known.empty() ? "" : ", ") + std::string(q);
    std::vector<std::string> close = closestSpellings(query[0], names);
    return Error("let: '" + query[0] + "' does not answer with nodes (" +
                 (close.empty() ? "queries: " + known : didYouMean(close)) + ")");
  }
  FXKIT_ASSIGN_OR_RETURN(auto cur, s.current());
  NodeSet nodes;
  if (query[0].starts_with('$')) { // `let b = $a $c`: a union
    FXKIT_ASSIGN_OR_RETURN(auto all, resolveAll(s, *cur, query));
    nodes = std::move(all);
  } else {
    takeFlag(query, "--full");
    FXKIT_ASSIGN_OR_RETURN(auto r, runQuery(s, std::move(query)));
    nodes = std::move(r.nodes);
    if (!r.hint.empty())
      s.status() << "hint: " << r.hint << "\n";
  }
  numberNodes(cur->graph);
  sortByPosition(nodes);
  ReplVariable v{cur->name, {}};
  v.nodes.reserve(nodes.size());
  for (Node *n : nodes)
    v.nodes.push_back(n->name());
  s.variables()[name] = std::move(v);
  s.status() << "$" << name << " = " << nodes.size() << (nodes.size() == 1 ? " node" : " nodes")
             << " of " << cur->name << "\n";
  return Status::ok();
}

Status replCmdSet(ReplSession &s, const ReplWords &w) {
  FXKIT_TRY(replArity(w, 0, 1));
  if (w.size() == 2) { // one variable: every node, one a line
    FXKIT_ASSIGN_OR_RETURN(auto cur, s.current());
    FXKIT_ASSIGN_OR_RETURN(auto nodes,
                           resolveReplNodes(s, *cur, w[1].starts_with('$') ? w[1] : "$" + w[1]));
    for (Node *n : nodes)
      s.out() << n->name() << "\n";
    return Status::ok();
  }
  if (s.variables().empty())
    s.status() << "no variables (define one with 'let NAME = find ...')\n";
  for (const auto &[name, v] : s.variables()) {
    s.out() << "$" << name << " = " << v.nodes.size() << (v.nodes.size() == 1 ? " node" : " nodes")
            << " of " << v.graph;
    for (size_t i = 0; i < v.nodes.size() && i < kInlineNames; ++i)
      s.out() << (i ? ", " : ": ") << v.nodes[i];
    if (v.nodes.size() > kInlineNames)
      s.out() << ", ... " << v.nodes.size() - kInlineNames << " more";
    s.out() << "\n";
  }
  return Status::ok();
}

Status replCmdExtract(ReplSession &s, const ReplWords &w) {
  std::vector<std::string> words(w.begin() + 1, w.end());
  std::string name;
  if (words.size() >= 2 && words[words.size() - 2] == "as") {
    name = words.back();
    words.resize(words.size() - 2);
    if (!isIdentifier(name))
      return Error("'" + name + "' is not a valid graph name (letters, digits and _)");
    if (s.findGraph(name))
      return Error("a graph named '" + name + "' exists already (pick another name)");
  }
  if (words.empty())
    return Error("usage: " + std::string(findReplCommand(w[0])->usage));
  FXKIT_ASSIGN_OR_RETURN(auto cur, s.current());
  ReplGraph &from = *cur;
  FXKIT_ASSIGN_OR_RETURN(auto nodes, resolveAll(s, from, words));
  FXKIT_ASSIGN_OR_RETURN(auto graph, extractSubgraph(from.graph, nodes));
  if (name.empty()) {
    name = from.name + "_extract";
    for (int i = 1; s.findGraph(name); ++i)
      name = from.name + "_extract_" + std::to_string(i);
  }
  size_t placeholders = 0, size = graph.size();
  for (Node *n : graph)
    placeholders += n->op() == OpKind::Placeholder;
  size_t outputs = returnedValues(*graph.outputNode()).size();
  std::string fromName = from.name;
  // Made here and never written: unsaved, so that quit and a load over it warn.
  s.addGraph(name, "", std::move(graph)).unsavedEdits = 1;
  s.status() << "extracted " << name << ": " << size << " nodes (" << placeholders
             << (placeholders == 1 ? " input, " : " inputs, ") << outputs
             << (outputs == 1 ? " output" : " outputs") << ") from " << fromName
             << "; current graph: " << name << "\n";
  return Status::ok();
}

Status replCmdPrintTabular(ReplSession &s, const ReplWords &w) {
  ReplWords words = w;
  bool full = takeFlag(words, "--full");
  FXKIT_ASSIGN_OR_RETURN(auto cur, s.current());
  FXKIT_ASSIGN_OR_RETURN(auto nodes, nodesOrAll(s, *cur, words, 1));
  s.out() << printTabular(nodes, full);
  return Status::ok();
}

} // namespace fxkit
