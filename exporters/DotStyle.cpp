#include "exporters/DotStyle.h"

#include "exporters/StringEscape.h"
#include "ir/DType.h"

#include <iterator>

namespace fxkit {

std::string dotEscape(std::string_view s) { return backslashEscape(s); }

const char *kernelColour(size_t i) {
  static constexpr const char *kPalette[] = {"#a6cee3", "#b2df8a", "#fb9a99", "#fdbf6f", "#cab2d6",
                                             "#ffff99", "#8dd3c7", "#bebada", "#fccde5", "#d9d9d9"};
  return kPalette[i % std::size(kPalette)];
}

std::optional<int64_t> tensorBytes(const TensorType &t) {
  int64_t n = dtypeItemSize(t.dtype);
  for (const SymExpr &s : t.sizes) {
    if (!s.isConstant())
      return std::nullopt;
    n *= s.constant();
  }
  return n;
}

std::string formatBytes(int64_t n) { return std::to_string(n) + " B"; }

std::string formatBytes(const SymExpr &bytes) {
  if (bytes.isConstant())
    return formatBytes(bytes.constant());
  return bytes.str() + " B";
}

bool isLargeGraph(size_t drawnNodes, const RenderOptions &options) {
  return drawnNodes >= options.largeGraphNodes;
}

std::string dotHeader(size_t drawnNodes, const RenderOptions &options) {
  std::string out = "digraph fxkit {\n";
  if (isLargeGraph(drawnNodes, options))
    // Measured in bench/render_bench.cpp: straight edges skip spline routing, newrank with
    // bounded network simplex (nslimit) and crossing minimisation (mclimit) bound the passes
    // that grow superlinearly; remincross would rerun crossing minimisation.
    out += "  graph [splines=line, newrank=true, nslimit=2, nslimit1=2, mclimit=0.2, "
           "remincross=false, searchsize=10];\n";
  out += "  node [shape=box, fontname=\"monospace\", fontsize=10];\n"
         "  edge [fontname=\"monospace\", fontsize=9];\n";
  return out;
}

std::string dotEdgeLabel(std::string_view text, bool large) {
  if (text.empty())
    return "";
  return (large ? "tooltip=\"" : "label=\"") + dotEscape(text) + "\"";
}

std::string elidedList(const std::vector<std::string> &items, size_t most) {
  std::string out;
  for (size_t i = 0; i < items.size() && i < most; ++i)
    out += (i ? ", " : "") + items[i];
  if (items.size() > most)
    out += (most ? ", +" : "+") + std::to_string(items.size() - most) + " more";
  return out;
}

bool drawsOutputEdges(size_t producers, const RenderOptions &options) {
  return producers <= options.outputEdgesUpTo;
}

std::string outputMark(const std::vector<size_t> &positions) {
  std::string out = "-> output[";
  for (size_t i = 0; i < positions.size() && i < 4; ++i)
    out += (i ? ", " : "") + std::to_string(positions[i]);
  return out + (positions.size() > 4 ? ", ...]" : "]");
}

std::string markedOutputLabel(size_t values, const std::vector<std::string> &types,
                              const RenderOptions &options) {
  std::string out = "output\n" + std::to_string(values) + " values, marked -> output[i]";
  if (!types.empty())
    out += "\n(" + elidedList(types, options.typesShown) + ")";
  return out;
}

} // namespace fxkit
