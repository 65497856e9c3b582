#pragma once
/// \file The diff pages of `fxkit report DIR`'s site (repl/ReportSite.h; issue 22 item 3, "and
/// in the report"): two graphs of one compile (pre-grad against post-grad ATen; Inductor's FX IR
/// of its wrapper against fxkit's FX IR of its own wrapper of the same post-grad graph) paired
/// by the node matcher `fxkit diff` uses (ir/GraphMatch.h, matchGraphs) and shown as
/// `fxkit diff` counts and prints them (repl/DiffCommand.h): the summary, every difference
/// (removed, added, changed, renamed, regions) and every identical pair as rows whose nodes
/// link to their anchors (`n-NAME`) on the two graphs' pages, and the text `fxkit diff` prints;
/// each row has an anchor, so the graphs' pages link every node back to its row (`SiteDiffRow`).
/// A graph without a page of its own (fxkit's FX IR, Inductor's FX IR converted from
/// output_code.py) has its nodes listed on the diff page, anchored `a-NAME` or `b-NAME`.

#include "exporters/HtmlReport.h"
#include "ir/Graph.h"
#include "repl/DiffCommand.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

/// One side of a diff page.
struct SiteDiffSide {
  const Graph *graph = nullptr;
  std::string what; ///< the stage, for people ("pre-grad ATen", "fxkit's FX IR")
  std::string file; ///< what `fxkit diff` would be given (a path below the site's folder)
  /// The site's page of this graph, whose node table anchors every node `n-NAME`; empty: the
  /// diff page lists the nodes itself.
  std::string page;
};

/// Where a node of one side is on the diff page, for the back-links of the graphs' pages: the
/// row that lists it, anchored `d-a-NAME` (a removed node) or `d-b-NAME` (every other row, by
/// its first node of B), or the section "same" for an identical pair past those listed.
struct SiteDiffRow {
  std::string anchor;
  std::string_view kind; ///< what the row says: same, renamed, region, changed, removed, added
};

/// A diff page's contents, beside the page around them (navigation, style, script: the
/// site's).
struct SiteDiff {
  GraphDiffSummary summary;
  std::string summaryLine; ///< `fxkit diff`'s last line ("summary: 6 pairs (...)")
  std::vector<std::string> facts;
  std::vector<HtmlReport::Section> sections;
  std::map<std::string, SiteDiffRow> rowsA, rowsB; ///< each side's node name -> its row
};

/// Pairs the nodes of `a` and `b` (matchGraphs, MatchStrategy::Auto) and writes the sections.
SiteDiff buildSiteDiff(const SiteDiffSide &a, const SiteDiffSide &b);

} // namespace fxkit
