#include "repl/ReportSiteDiff.h"

#include "exporters/XmlEscape.h"
#include "ir/GraphMatch.h"
#include "repl/ReportSite.h"

#include <string_view>
#include <unordered_map>

namespace fxkit {
namespace {

/// A link to node `n` of `side`: its row on the graph's page, or in the list on this page
/// (anchored `prefix` + its id).
std::string nodeLink(const SiteDiffSide &side, std::string_view prefix, const Node *n) {
  std::string id = siteAnchorId(n->name());
  std::string href = side.page.empty() ? "#" + std::string(prefix) + id : side.page + "#n-" + id;
  return "<a href=\"" + xmlEscape(href) + "\">" + xmlEscape(n->name()) + "</a>";
}

std::string nodeLinks(const SiteDiffSide &side, std::string_view prefix,
                      const std::vector<const Node *> &nodes) {
  std::string h;
  for (const Node *n : nodes)
    h += (h.empty() ? "" : " ") + nodeLink(side, prefix, n);
  return h;
}

/// The nodes of a side without a page of its own, anchored `prefix` + id.
std::string nodeList(const SiteDiffSide &side, std::string_view prefix, const GraphMatch &match) {
  std::string h = "<table>\n<tr><th>#</th><th>node</th><th>op</th><th>target</th><th>paired "
                  "with</th></tr>\n";
  size_t i = 0;
  for (const Node *n : *side.graph) {
    std::string paired = "-";
    if (auto it = match.pairOf.find(n); it != match.pairOf.end())
      paired = std::string(matchReasonName(match.pairs[it->second].reason));
    h += "<tr id=\"" + xmlEscape(std::string(prefix) + siteAnchorId(n->name())) +
         "\"><td class=\"n\">" + std::to_string(i++) + "</td><td class=\"m\">" +
         xmlEscape(n->name()) + "</td><td>" + xmlEscape(opKindName(n->op())) +
         "</td><td class=\"m\">" + xmlEscape(n->target()) + "</td><td>" + xmlEscape(paired) +
         "</td></tr>\n";
  }
  return h + "</table>\n";
}

/// Identical pairs listed on a page at most (every difference is listed): past this a graph of
/// 100k nodes would make a page of tens of megabytes that says "the same" 100k times.
constexpr size_t kSameListed = 5000;

std::string sideTitle(const SiteDiffSide &side) { return side.what + " (" + side.file + ")"; }

} // namespace

SiteDiff buildSiteDiff(const SiteDiffSide &a, const SiteDiffSide &b) {
  const Graph &ga = *a.graph, &gb = *b.graph;
  GraphMatch match = matchGraphs(ga, gb, MatchStrategy::Auto);
  SiteDiff out;
  out.summary = summarizeGraphDiff(match, ga, gb);
  std::string text = formatGraphDiff(ga, gb, match, a.file, b.file);
  size_t last = text.rfind("summary: ");
  out.summaryLine = last == std::string::npos ? std::string() : text.substr(last);
  while (!out.summaryLine.empty() && out.summaryLine.back() == '\n')
    out.summaryLine.pop_back();
  out.facts.push_back("A: " + sideTitle(a) + ", " + std::to_string(ga.size()) + " nodes");
  out.facts.push_back("B: " + sideTitle(b) + ", " + std::to_string(gb.size()) + " nodes");
  out.facts.push_back(out.summaryLine);

  // The differences in the text's order: removed in A's order, then added and pairs in B's.
  const std::string head = "<table>\n<tr><th></th><th>A: " + xmlEscape(a.what) +
                           "</th><th>B: " + xmlEscape(b.what) +
                           "</th><th>paired by</th><th>differs in</th></tr>\n";
  std::string diffs, same;
  size_t diffRows = 0, sameRows = 0;
  // A row anchored `d-a-` + A's node (removed) or `d-b-` + its first node of B; each of its
  // nodes is recorded in rowsA/rowsB with the row's class.
  auto row = [&out](std::string_view mark, std::string_view cls,
                    const std::vector<const Node *> &as, const std::vector<const Node *> &bs,
                    const std::string &aCell, const std::string &bCell, std::string_view why,
                    const std::string &what) {
    std::string anchor = bs.empty() ? "d-a-" + siteAnchorId(as.front()->name())
                                    : "d-b-" + siteAnchorId(bs.front()->name());
    for (const Node *n : as)
      out.rowsA[n->name()] = {anchor, cls};
    for (const Node *n : bs)
      out.rowsB[n->name()] = {anchor, cls};
    return "<tr id=\"" + xmlEscape(anchor) + "\" class=\"" + std::string(cls) +
           "\"><td class=\"m\">" + std::string(mark) + "</td><td class=\"m\">" + aCell +
           "</td><td class=\"m\">" + bCell + "</td><td>" + std::string(why) + "</td><td>" + what +
           "</td></tr>\n";
  };
  for (const Node *n : match.removed) {
    diffs += row("-", "removed", {n}, {}, nodeLink(a, "a-", n), "", "", "removed");
    ++diffRows;
  }
  std::unordered_map<const Node *, size_t> firstOfPair;
  for (size_t i = 0; i < match.pairs.size(); ++i)
    firstOfPair.emplace(match.pairs[i].b.front(), i);
  for (const Node *n : gb) {
    auto it = firstOfPair.find(n);
    if (it == firstOfPair.end()) {
      if (!match.pairOf.contains(n)) {
        diffs += row("+", "added", {}, {n}, "", nodeLink(b, "b-", n), "", "added");
        ++diffRows;
      }
      continue;
    }
    size_t i = it->second;
    const NodeMatchPair &p = match.pairs[i];
    std::string why(matchReasonName(p.reason));
    NodeChange change;
    const DiffPairKind kind = diffPairKind(match, i, &change);
    if (kind == DiffPairKind::Same && sameRows >= kSameListed) {
      for (const Node *m : p.a)
        out.rowsA[m->name()] = {"same", "same"};
      for (const Node *m : p.b)
        out.rowsB[m->name()] = {"same", "same"};
      ++sameRows;
      continue;
    }
    std::string aCell = nodeLinks(a, "a-", p.a), bCell = nodeLinks(b, "b-", p.b);
    switch (kind) {
    case DiffPairKind::Same:
      same += row("=", "same", p.a, p.b, aCell, bCell, why, "");
      ++sameRows;
      break;
    case DiffPairKind::Renamed:
      diffs += row("=", "renamed", p.a, p.b, aCell, bCell, why, "name");
      ++diffRows;
      break;
    case DiffPairKind::Region:
      diffs += row("~", "region", p.a, p.b, aCell, bCell, why,
                   "region: " + std::to_string(p.a.size()) + " node" +
                       (p.a.size() == 1 ? "" : "s") + " became " + std::to_string(p.b.size()));
      ++diffRows;
      break;
    case DiffPairKind::Changed: {
      std::string parts;
      for (const std::string &part : changedParts(change))
        parts += (parts.empty() ? "" : ", ") + part;
      diffs += row("~", "changed", p.a, p.b, aCell, bCell, why, xmlEscape(parts));
      ++diffRows;
      break;
    }
    }
  }
  const GraphDiffSummary &s = out.summary;
  std::string note = "<p class=\"note\">Paired by the node matcher of <code>fxkit diff</code> "
                     "(Inductor's provenance, then names, then structure; an op and what it "
                     "decomposed into as one region). " +
                     std::to_string(s.removed) + " removed, " + std::to_string(s.added) +
                     " added, " + std::to_string(s.changed) + " changed, " +
                     std::to_string(s.renamed) + " renamed, " + std::to_string(s.regions) +
                     " regions. Node names link to their rows";
  note += a.page.empty() && b.page.empty()   ? " below"
          : a.page.empty() || b.page.empty() ? " on the graph's page or below"
                                             : " on the two graphs' pages";
  note += ".</p>\n";
  out.sections.push_back(
      {"differences", "Differences (" + std::to_string(diffRows) + ")",
       note + (diffRows ? head + diffs + "</table>\n" : std::string("<p>No differences.</p>\n"))});
  out.sections.push_back(
      {"same", "Identical pairs (" + std::to_string(sameRows) + ")",
       sameRows ? "<details><summary>" + std::to_string(sameRows) +
                      " pairs of the same node under the same name" +
                      (sameRows > kSameListed ? " (the first " + std::to_string(kSameListed) +
                                                    " listed; fxkit diff --all lists every one)"
                                              : std::string()) +
                      "</summary>\n" + head + same + "</table>\n</details>\n"
                : std::string("<p>None.</p>\n")});
  out.sections.push_back(
      {"text", "As fxkit diff prints it", "<pre>" + xmlEscape(text) + "</pre>\n"});
  if (a.page.empty())
    out.sections.push_back({"nodes-a", "A's nodes: " + a.what, nodeList(a, "a-", match)});
  if (b.page.empty())
    out.sections.push_back({"nodes-b", "B's nodes: " + b.what, nodeList(b, "b-", match)});
  return out;
}

} // namespace fxkit
