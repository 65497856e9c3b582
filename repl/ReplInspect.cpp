#include "repl/ReplInspect.h"

#include "exporters/FxTextPrinter.h"
#include "ir/Try.h"
#include "transforms/Pipeline.h"

#include <set>
#include <sstream>
#include <unordered_map>

namespace fxkit {
namespace {

/// Each node's FX text line (with types, without `[num_users=N]`), in graph order.
std::vector<std::string> nodeLines(const Graph &graph) {
  FxTextOptions options;
  options.tensorTypes = true;
  std::string text = printFxText(graph, options);
  std::vector<std::string> lines;
  size_t pos = text.find('\n'); // skip `graph():`
  pos = pos == std::string::npos ? text.size() : pos + 1;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    std::string line = text.substr(pos, (eol == std::string::npos ? text.size() : eol) - pos);
    pos = eol == std::string::npos ? text.size() : eol + 1;
    size_t first = line.find_first_not_of(' ');
    if (first == std::string::npos)
      continue;
    line.erase(0, first);
    size_t users = line.find("[num_users=");
    size_t close = users == std::string::npos ? users : line.find(']', users);
    if (close != std::string::npos) {
      size_t from = users > 0 && line[users - 1] == ' ' ? users - 1 : users;
      line.erase(from, close + 1 - from);
      // `%a : [num_users=1] = placeholder` (no type) becomes `%a = placeholder`.
      if (size_t bare = line.find(" : = "); bare != std::string::npos && bare < line.find('('))
        line.erase(bare, 2);
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

/// name -> FX line of every node; the output node is listed as `output`.
std::vector<std::pair<std::string, std::string>> namedLines(const Graph &graph) {
  std::vector<std::string> lines = nodeLines(graph);
  std::vector<std::pair<std::string, std::string>> out;
  out.reserve(graph.size());
  size_t i = 0;
  for (Node *n : graph) {
    std::string line = i < lines.size() ? lines[i] : std::string();
    ++i;
    out.emplace_back(n->name(), std::move(line));
  }
  return out;
}

} // namespace

Expected<KernelView> buildKernelView(const Graph &graph,
                                     const volatile std::sig_atomic_t *interrupt) {
  // Always from the graph as it is now: a `fuse` pass's recorded result may predate edits.
  KernelView view;
  Graph copy = graph.clone();
  copy.attachments.clear();
  PipelineSpec spec = PipelineSpec::toKernels();
  spec.options.setInterrupt(interrupt);
  FXKIT_ASSIGN_OR_RETURN(auto compiled, compile(copy, spec));
  view.program = std::move(*compiled.state->program);
  view.fused = std::move(*compiled.state->fused);
  for (const loop::Kernel &k : view.fused.kernels)
    for (int32_t op : k.ops)
      for (const std::string &origin : view.program.ops[op].origins) {
        std::vector<std::string> &names = view.kernelsOfNode[origin];
        if (names.empty() || names.back() != k.name)
          names.push_back(k.name);
      }
  return view;
}

Expected<std::string> explainNodeFusion(const KernelView &view, const Graph &graph,
                                        std::string_view node) {
  const Node *n = graph.find(node);
  if (!n)
    return Error("no node named '" + std::string(node) + "'");
  std::set<std::string, std::less<>> ops; // loop ops computing the node
  std::unordered_map<std::string, std::string> kernelOfOp;
  for (const loop::Kernel &k : view.fused.kernels)
    for (int32_t op : k.ops) {
      const loop::LoopOp &o = view.program.ops[op];
      kernelOfOp[o.name] = k.name;
      for (const std::string &origin : o.origins)
        if (origin == node)
          ops.insert(o.name);
    }
  std::ostringstream os;
  if (ops.empty()) {
    os << n->name() << ": no loop op computes it ("
       << (n->op() == OpKind::Placeholder ? "a graph input"
           : n->op() == OpKind::Output    ? "the output node"
                                          : "a view folded into its users' indexing, a size "
                                            "computation or a dead node")
       << ")\n";
    return os.str();
  }
  os << n->name() << ": computed by";
  for (const std::string &op : ops)
    os << " " << op << " (kernel " << kernelOfOp[op] << ")";
  os << "\n";
  size_t taken = 0, refused = 0;
  std::ostringstream decisions;
  for (const loop::FusionDecision &d : view.fused.decisions) {
    if (!ops.contains(d.op) && !ops.contains(d.kernelOp))
      continue;
    (d.fused ? taken : refused) += 1;
    decisions << "  " << (d.fused ? "fused  " : "refused") << " " << d.op << " into kernel of "
              << d.kernelOp << " (" << loop::fusionKindName(d.kind) << ", " << d.bytesSaved.str()
              << " bytes saved): " << d.reason << "\n";
  }
  if (taken + refused == 0)
    os << "no fusion decision involved it\n";
  else
    os << taken << " fusion" << (taken == 1 ? "" : "s") << " taken, " << refused << " refused:\n"
       << decisions.str();
  return os.str();
}

std::string diffGraphs(const Graph &before, const Graph &after, std::string_view beforeName,
                       std::string_view afterName) {
  auto a = namedLines(before);
  auto b = namedLines(after);
  std::unordered_map<std::string_view, const std::string *> aLines, bLines;
  for (const auto &[name, line] : a)
    aLines.emplace(name, &line);
  for (const auto &[name, line] : b)
    bLines.emplace(name, &line);
  std::ostringstream removed, added, changed;
  size_t nRemoved = 0, nAdded = 0, nChanged = 0;
  for (const auto &[name, line] : a)
    if (!bLines.contains(name)) {
      removed << "  - " << line << "\n";
      ++nRemoved;
    }
  for (const auto &[name, line] : b) {
    auto it = aLines.find(name);
    if (it == aLines.end()) {
      added << "  + " << line << "\n";
      ++nAdded;
    } else if (*it->second != line) {
      changed << "  - " << *it->second << "\n  + " << line << "\n";
      ++nChanged;
    }
  }
  std::ostringstream os;
  os << "--- " << beforeName << " (" << before.size() << " nodes)\n+++ " << afterName << " ("
     << after.size() << " nodes)\n";
  if (nRemoved + nAdded + nChanged == 0) {
    os << "no differences\n";
    return os.str();
  }
  if (nRemoved)
    os << "removed (" << nRemoved << "):\n" << removed.str();
  if (nAdded)
    os << "added (" << nAdded << "):\n" << added.str();
  if (nChanged)
    os << "changed (" << nChanged << "):\n" << changed.str();
  return os.str();
}

} // namespace fxkit
