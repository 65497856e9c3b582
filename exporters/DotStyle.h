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

} // namespace fxkit
