#include "repl/DiffCommand.h"

#include "exporters/DiffDot.h"
#include "exporters/Export.h"
#include "exporters/FxTextPrinter.h"
#include "exporters/GraphvizRender.h"
#include "ir/Try.h"
#include "repl/Cli.h"
#include "repl/OutputFormats.h"
#include "support/JsonWriter.h"

#include <CLI/CLI.hpp>

#include <iomanip>
#include <iostream>
#include <sstream>
#include <unordered_map>

namespace fxkit {
namespace {

/// Each node's FX text line (with types, without the derived `[num_users=N]`, so that a new
/// use does not change its input), by node.
std::unordered_map<const Node *, std::string> nodeLines(const Graph &graph) {
  FxTextOptions options;
  options.tensorTypes = true;
  std::string text = printFxText(graph, options);
  std::unordered_map<const Node *, std::string> lines;
  lines.reserve(graph.size());
  size_t pos = text.find('\n'); // skip `graph():`
  pos = pos == std::string::npos ? text.size() : pos + 1;
  Graph::iterator node = graph.begin();
  while (pos < text.size() && node != graph.end()) {
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
    lines.emplace(*node, std::move(line));
    ++node;
  }
  return lines;
}

std::string names(const std::vector<const Node *> &nodes) {
  std::string out;
  for (const Node *n : nodes)
    out += (out.empty() ? "" : ", ") + n->name();
  return out;
}

std::vector<std::string> nameList(const std::vector<const Node *> &nodes) {
  std::vector<std::string> out;
  for (const Node *n : nodes)
    out.push_back(n->name());
  return out;
}

std::string pairNames(const NodeMatchPair &p) {
  std::string a = names(p.a), b = names(p.b);
  return a == b ? a : a + " -> " + b;
}

std::string percent(size_t part, size_t whole) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(1) << (whole ? 100.0 * part / whole : 100.0) << "%";
  return os.str();
}

/// "dot, svg, png, pdf": the picture formats of the output-format table.
std::string pictureFormatList() {
  std::string out;
  for (const std::string &name : outputFormatNames(OutputUse::Picture))
    out += (out.empty() ? "" : ", ") + name;
  return out;
}

} // namespace

DiffPairKind diffPairKind(const GraphMatch &match, size_t i, NodeChange *change) {
  const NodeMatchPair &p = match.pairs[i];
  if (p.a.size() != 1 || p.b.size() != 1)
    return DiffPairKind::Region;
  NodeChange c = match.change(i);
  if (change)
    *change = c;
  if (c.any())
    return DiffPairKind::Changed;
  return p.a.front()->name() == p.b.front()->name() ? DiffPairKind::Same : DiffPairKind::Renamed;
}

std::vector<std::string> changedParts(const NodeChange &c) {
  std::vector<std::string> parts;
  if (c.target)
    parts.push_back("target");
  if (c.args)
    parts.push_back("args");
  if (c.type)
    parts.push_back("type");
  return parts;
}

GraphDiffSummary summarizeGraphDiff(const GraphMatch &match, const Graph &a, const Graph &b) {
  GraphDiffSummary s;
  s.pairs = match.pairs.size();
  for (size_t i = 0; i < match.pairs.size(); ++i) {
    s.byReason[static_cast<size_t>(match.pairs[i].reason)] += 1;
    switch (diffPairKind(match, i)) {
    case DiffPairKind::Same:
      break;
    case DiffPairKind::Renamed:
      ++s.renamed;
      break;
    case DiffPairKind::Changed:
      ++s.changed;
      break;
    case DiffPairKind::Region:
      ++s.regions;
      break;
    }
  }
  s.removed = match.removed.size();
  s.added = match.added.size();
  auto count = [&](const Graph &g, size_t &nodes, size_t &paired, size_t &calls,
                   size_t &callsPaired) {
    for (const Node *n : g) {
      bool p = match.pairOf.contains(n);
      ++nodes;
      paired += p;
      if (n->op() == OpKind::CallFunction) {
        ++calls;
        callsPaired += p;
      }
    }
  };
  count(a, s.aNodes, s.aPaired, s.aCalls, s.aCallsPaired);
  count(b, s.bNodes, s.bPaired, s.bCalls, s.bCallsPaired);
  return s;
}

std::string formatGraphDiff(const Graph &a, const Graph &b, const GraphMatch &match,
                            std::string_view aName, std::string_view bName,
                            const GraphDiffOptions &options) {
  auto aLines = nodeLines(a);
  auto bLines = nodeLines(b);
  GraphDiffSummary s = summarizeGraphDiff(match, a, b);
  std::ostringstream os;
  os << "--- " << aName << " (" << a.size() << " nodes)\n+++ " << bName << " (" << b.size()
     << " nodes)\n";
  for (const Node *n : match.removed)
    os << "- " << aLines[n] << "\n";
  // Added nodes and pairs interleaved in B's order.
  std::unordered_map<const Node *, size_t> firstOfPair;
  for (size_t i = 0; i < match.pairs.size(); ++i)
    firstOfPair.emplace(match.pairs[i].b.front(), i);
  for (const Node *n : b) {
    auto it = firstOfPair.find(n);
    if (it == firstOfPair.end()) {
      if (!match.pairOf.contains(n))
        os << "+ " << bLines[n] << "\n";
      continue;
    }
    size_t i = it->second;
    const NodeMatchPair &p = match.pairs[i];
    NodeChange change;
    std::string why = std::string(matchReasonName(p.reason));
    switch (diffPairKind(match, i, &change)) {
    case DiffPairKind::Same:
      if (options.all)
        os << "= " << pairNames(p) << " (" << why << ")\n";
      break;
    case DiffPairKind::Renamed:
      os << "= " << pairNames(p) << " (" << why << ")\n";
      break;
    case DiffPairKind::Region:
      os << "~ " << pairNames(p) << " (" << why << ")\n";
      break;
    case DiffPairKind::Changed: {
      std::string parts;
      for (const std::string &part : changedParts(change))
        parts += (parts.empty() ? "" : ", ") + part;
      os << "~ " << pairNames(p) << " (" << why << "): " << parts << "\n    - "
         << aLines[p.a.front()] << "\n    + " << bLines[p.b.front()] << "\n";
      break;
    }
    }
  }
  if (!s.differ())
    os << "no differences\n";
  os << "summary: " << s.pairs << " pairs (provenance "
     << s.byReason[static_cast<size_t>(MatchReason::Provenance)] << ", name "
     << s.byReason[static_cast<size_t>(MatchReason::Name)] << ", structure "
     << s.byReason[static_cast<size_t>(MatchReason::Structure)] << ", region "
     << s.byReason[static_cast<size_t>(MatchReason::Region)] << "), " << s.changed << " changed, "
     << s.renamed << " renamed, " << s.regions << " regions, " << s.removed << " removed, "
     << s.added << " added; call nodes paired: " << s.aCallsPaired << " of " << s.aCalls << " ("
     << percent(s.aCallsPaired, s.aCalls) << ") and " << s.bCallsPaired << " of " << s.bCalls
     << " (" << percent(s.bCallsPaired, s.bCalls) << ")\n";
  return os.str();
}

std::string formatGraphDiffJson(const Graph &a, const Graph &b, const GraphMatch &match,
                                std::string_view aName, std::string_view bName,
                                const GraphDiffOptions &options) {
  GraphDiffSummary s = summarizeGraphDiff(match, a, b);
  JsonValue doc = JsonValue::object();
  doc["a"] = JsonValue::object({{"name", aName}, {"nodes", a.size()}});
  doc["b"] = JsonValue::object({{"name", bName}, {"nodes", b.size()}});
  JsonValue pairs = JsonValue::array();
  for (size_t i = 0; i < match.pairs.size(); ++i) {
    NodeChange change;
    DiffPairKind kind = diffPairKind(match, i, &change);
    if (kind == DiffPairKind::Same && !options.all)
      continue;
    const NodeMatchPair &p = match.pairs[i];
    std::string_view status = kind == DiffPairKind::Same      ? "same"
                              : kind == DiffPairKind::Renamed ? "renamed"
                              : kind == DiffPairKind::Changed ? "changed"
                                                              : "region";
    JsonValue entry = JsonValue::object({{"a", nameList(p.a)},
                                         {"b", nameList(p.b)},
                                         {"why", matchReasonName(p.reason)},
                                         {"status", status}});
    if (kind == DiffPairKind::Changed)
      entry["changed"] = changedParts(change);
    pairs.push_back(std::move(entry));
  }
  doc["pairs"] = std::move(pairs);
  doc["removed"] = nameList(match.removed);
  doc["added"] = nameList(match.added);
  doc["summary"] = JsonValue::object({
      {"pairs", s.pairs},
      {"provenance", s.byReason[static_cast<size_t>(MatchReason::Provenance)]},
      {"name", s.byReason[static_cast<size_t>(MatchReason::Name)]},
      {"structure", s.byReason[static_cast<size_t>(MatchReason::Structure)]},
      {"region", s.byReason[static_cast<size_t>(MatchReason::Region)]},
      {"changed", s.changed},
      {"renamed", s.renamed},
      {"regions", s.regions},
      {"removed", s.removed},
      {"added", s.added},
      {"a_calls", s.aCalls},
      {"a_calls_paired", s.aCallsPaired},
      {"b_calls", s.bCalls},
      {"b_calls_paired", s.bCallsPaired},
      {"differ", s.differ()},
  });
  return doc.dump(1) + "\n";
}

CLI::App *addDiffSubcommand(CLI::App &app, DiffCommandOptions &options) {
  CLI::App *diff = app.add_subcommand(
      "diff", "Compare two graphs node by node, following nodes across stages by Inductor's "
              "provenance, names and structure (an op and what it decomposed into paired)");
  diff->add_option("a", options.a.graph, "The first graph (- for stdin)")->required();
  diff->add_option("b", options.b.graph, "The second graph")->required();
  diff->add_option("--from", options.a.from, "Input format of both: " + inputFormatList());
  diff->add_option("--provenance", options.provenance,
                   "Inductor's provenance mapping to attach to both graphs (one compile's "
                   "mapping names its pre-grad, post-grad and kernel nodes)");
  diff->add_option("--provenance-a", options.a.provenance,
                   "A provenance mapping for the first graph only");
  diff->add_option("--provenance-b", options.b.provenance,
                   "A provenance mapping for the second graph only");
  diff->add_option("--by", options.by,
                   "Evidence used to pair nodes: " + matchStrategyList() +
                       " (default auto: provenance, then names, then structure)");
  diff->add_flag("--all", options.all, "Also list the pairs that are identical");
  diff->add_flag("--json", options.json, "Print JSON");
  diff->add_option("-o,--output", options.output,
                   "Also draw the two graphs side by side, pairs linked and coloured (the "
                   "picture's format from its extension: " +
                       pictureFormatList() + ")");
  diff->footer("Exit code 0 when the graphs are the same, 1 when they differ.\n"
               "Examples:\n  fxkit diff aten_pre_0.graph.txt aten_post_0.graph.txt\n"
               "  fxkit diff fxir_0.graph.txt mine.fxir.txt --by structure --json");
  return diff;
}

int runDiffCommand(const DiffCommandOptions &options) {
  auto by = parseMatchStrategy(options.by);
  if (!by)
    return reportError(
        Error("unknown --by '" + options.by + "' (expected " + matchStrategyList() + ")"));
  if (options.a.graph == "-" && options.b.graph == "-")
    return reportError(Error("only one of the two graphs can be read from stdin"));
  GraphInputOptions a = options.a, b = options.b;
  b.from = a.from;
  for (GraphInputOptions *side : {&a, &b})
    if (side->provenance.empty())
      side->provenance = options.provenance;
    else if (!options.provenance.empty())
      return reportError(Error("give --provenance or --provenance-a/-b, not both"));
  std::optional<RenderFormat> picture;
  if (!options.output.empty()) {
    const OutputFormat *format = outputFormatForPath(options.output);
    if (format && format->picture)
      picture = parseRenderFormat(format->name);
    if (!picture)
      return reportError(Error("diff -o: cannot draw '" + options.output +
                               "' (formats: " + pictureFormatList() + ")"));
  }
  auto ga = readGraphInput(a);
  if (!ga)
    return reportError(ga.error());
  auto gb = readGraphInput(b);
  if (!gb)
    return reportError(gb.error());
  GraphMatch match = matchGraphs(*ga, *gb, *by);
  // The picture first: a failure leaves neither it nor the text.
  std::vector<std::string> warnings;
  if (picture) {
    auto drawn = renderDot(diffDot(*ga, *gb, match, a.graph, b.graph), *picture, "dot", &warnings);
    if (!drawn)
      return reportError(drawn.error());
    if (Status st = writeFileAtomic(options.output, *drawn); !st)
      return reportError(st.error());
  }
  for (const std::string &w : warnings)
    std::cerr << "fxkit: " << w << "\n";
  GraphDiffOptions diffOptions{.by = *by, .all = options.all};
  std::cout << (options.json ? formatGraphDiffJson(*ga, *gb, match, a.graph, b.graph, diffOptions)
                             : formatGraphDiff(*ga, *gb, match, a.graph, b.graph, diffOptions));
  std::cout.flush();
  return summarizeGraphDiff(match, *ga, *gb).differ() ? kExitCheckFailed : kExitOk;
}

} // namespace fxkit
