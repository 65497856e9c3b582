#pragma once
/// \file The compilation report (`fxkit report`): one self-contained HTML page in the spirit of
/// PyTorch's tlparse, with the graph picture, the kernels and their generated source, every
/// fusion decision with its reason, the memory timeline and the time of each pass. Nothing is
/// fetched: pictures are inline SVG, the style sheet is inline, there is no script. Every
/// text taken from the graph is HTML-escaped.

#include <string>
#include <vector>

namespace fxkit {

struct HtmlReport {
  std::string title;              ///< the input's file name
  std::vector<std::string> facts; ///< summary lines ("loop ops: 12", ...)
  std::string graphSvg;           ///< an SVG document (an XML prolog is dropped); empty: see note
  std::string graphNote;          ///< why there is no picture, or how it was simplified
  struct Kernel {
    std::string name;
    bool isExtern = false;
    std::string ops;    ///< the loop ops and ATen ops it computes
    std::string detail; ///< iteration space, bytes
    std::string source; ///< generated code (OpenCL C); empty for extern calls
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
  struct Pass {
    std::string name;
    double seconds = 0;
    bool changed = false;
  };
  std::vector<Pass> passes;
};

/// The page. Deterministic for equal input.
std::string writeHtmlReport(const HtmlReport &report);

/// `svg` without what precedes its `<svg` element (XML prolog, DOCTYPE, comments), for
/// inlining into HTML.
std::string inlineSvg(const std::string &svg);

} // namespace fxkit
