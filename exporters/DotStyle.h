#pragma once
/// \file How fxkit's DOT pictures look, shared by the graph view (DotWriter.h) and the
/// compiled-program view (viz/ProgramDot.h): string escaping, the kernel palette, byte labels,
/// and the graph header with the cheap layout settings for large graphs.

#include "exporters/RenderOptions.h"
#include "ir/SymExpr.h"
#include "ir/TensorType.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

/// DOT string literal contents: quotes and backslashes escaped, newlines as `\n`.
std::string dotEscape(std::string_view s);

/// Fill colour number `i` of a fixed palette of light colours (black text stays readable).
const char *kernelColour(size_t i);
/// Fill of extern calls (library kernels), distinct from every kernel colour.
inline constexpr const char *kExternColour = "#ffd92f";

/// Bytes of a tensor whose sizes are all constants; none for symbolic sizes.
std::optional<int64_t> tensorBytes(const TensorType &t);
/// "4096 B", "16 KiB" style is avoided on purpose: exact bytes, as `fuse --explain` prints.
std::string formatBytes(int64_t n);
/// Constant bytes as formatBytes, symbolic ones as their expression ("16*s77 B").
std::string formatBytes(const SymExpr &bytes);

/// `digraph fxkit {` and the node/edge defaults; from options.largeGraphNodes drawn nodes on,
/// also the cheap layout settings.
std::string dotHeader(size_t drawnNodes, const RenderOptions &options);
/// True when a picture of `drawnNodes` nodes uses the cheap layout.
bool isLargeGraph(size_t drawnNodes, const RenderOptions &options);
/// An edge's label attribute: a `label` normally, only a tooltip in the cheap layout (edge
/// labels become extra nodes to dot's layout and dominate its time).
std::string dotEdgeLabel(std::string_view text, bool large);

/// `items` joined with ", ": the first `most`, then "+N more" (labels of nodes with hundreds of
/// values stay one line wide).
std::string elidedList(const std::vector<std::string> &items, size_t most);

/// Whether a program returning values from `producers` distinct drawn nodes draws one edge per
/// producer into its output node; else (RenderOptions::outputEdgesUpTo) each producer carries
/// an outputMark and the output node a markedOutputLabel.
bool drawsOutputEdges(size_t producers, const RenderOptions &options);
/// The label line of a returned node: "-> output[0, 3]" (its first 4 positions, then "...").
std::string outputMark(const std::vector<size_t> &positions);
/// What a returned node adds to its attributes beside its mark: a double border.
inline constexpr std::string_view kReturnedAttrs = ", peripheries=2";
/// The label of an output node whose values are marked on their producers (raw text, not
/// escaped): "output", the count of `values`, and the first RenderOptions::typesShown `types`
/// (none: untyped).
std::string markedOutputLabel(size_t values, const std::vector<std::string> &types,
                              const RenderOptions &options);

} // namespace fxkit
