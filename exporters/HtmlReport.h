#pragma once
/// \file The compilation report (`fxkit report`): one self-contained HTML page in the spirit of
/// PyTorch's tlparse, with the graph picture, the kernels and their generated source, every
/// fusion decision with its reason, the memory timeline and the time of each pass. Nothing is
/// fetched: pictures are inline SVG, the style sheet is inline, the one script (the interactive
/// graph's, exporters/report/GraphViewer.h) is inline. Every text taken from the graph is
/// HTML-escaped.

#include <string>
#include <vector>

namespace fxkit {

struct HtmlReport {
  std::string title;              ///< the input's file name
  std::vector<std::string> facts; ///< summary lines ("loop ops: 12", ...)
  std::string graphSvg;           ///< an SVG document (an XML prolog is dropped); empty: see note
  std::string graphNote;          ///< why there is no picture, or how it was simplified
  /// The interactive graph (exporters/report/GraphViewer.h graphViewerHtml), put above the
  /// picture: trusted HTML with its script; empty: none.
  std::string graphViewer;
  struct Kernel {
    std::string name;
    bool isExtern = false;
    std::string ops;      ///< the loop ops and ATen ops it computes
    std::string detail;   ///< iteration space, bytes
    std::string source;   ///< generated code (OpenCL C); empty for extern calls
    std::string inductor; ///< Inductor's kernel calls computing the same nodes (provenance)
  };
  std::vector<Kernel> kernels;
  std::string sourceNote; ///< why there is no source (code generation failed)
  struct Decision {
    bool fused = false;
    std::string op, kernelOp, kind, bytesSaved, reason;
  };
  std::vector<Decision> decisions;
  std::string timelineSvg; ///< an SVG document; empty: see timelineNote
  std::string timelineNote;
  /// Inductor's kernel calls, where the graph was read with its provenance mapping
  /// (ir/Node.h NodeProvenance): what each computes and which of fxkit's kernels compute the
  /// same nodes. Empty: no provenance, and the section is left out.
  struct InductorKernel {
    std::string handle;  ///< `name:N`
    std::string nodes;   ///< the graph's nodes it computes
    std::string preGrad; ///< the pre-grad nodes behind them
    std::string fxkit;   ///< fxkit's kernels computing those nodes
  };
  std::vector<InductorKernel> inductorKernels;
  struct Pass {
    std::string name;
    double seconds = 0;
    bool changed = false;
  };
  std::vector<Pass> passes;
  /// False for a graph the report shows without compiling it (a Dynamo graph, a wrapper, a
  /// scheduler dump in `fxkit report DIR`'s site): the kernels, fusion, memory and pass
  /// sections are left out.
  bool compiled = true;
  /// What a site of several pages (`fxkit report DIR`, repl/ReportSite.h) adds to a page; all
  /// empty for a lone report. `head`: elements inside <head>; `navigation`: HTML right below
  /// the title (links between the pages); `script`: the page's script, before </body>.
  std::string head, navigation, script;
  /// Sections the site adds after the report's own, each trusted HTML with its anchor `id`.
  struct Section {
    std::string id, title, html;
  };
  std::vector<Section> extraSections;
};

/// The page. Deterministic for equal input.
std::string writeHtmlReport(const HtmlReport &report);

/// `svg` without what precedes its `<svg` element (XML prolog, DOCTYPE, comments), for
/// inlining into HTML.
std::string inlineSvg(const std::string &svg);

} // namespace fxkit
