#pragma once
/// \file Graphviz's library (libgvc, no `dot` executable needed): lays out DOT text and renders
/// it as SVG, PNG or PDF. The layout runs in a forked child process, so a crash in Graphviz
/// (2.43's dot plugin double-frees on clustered graphs with edge labels) is an error, never the
/// end of fxkit. PNG and PDF use the cairo renderer when the installed Graphviz has it (Debian's
/// libgvplugin-pango), else whatever renderer Graphviz picks for the format. Optional: without
/// libgvc at build time every call returns an error that says so. Pictures of graphs:
/// renderGraph (exporters/wrapper/GraphRender.h), the one way every command draws.

#include "exporters/RenderOptions.h"
#include "ir/Error.h"

#include <csignal>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

/// True where this build links libgvc.
bool haveGraphviz();

/// The device formats ("svg", "png", "pdf", ...) and renderers ("cairo", "svg", ...) of the
/// installed Graphviz, for messages and `--help`; empty without libgvc.
std::vector<std::string> graphvizPlugins(const char *kind);

/// Lays `dot` out with `engine` ("dot", "sfdp", ...) and renders it (RenderFormat::Dot: the text
/// itself, no layout). Binary formats come back as bytes in the string. Graphviz's own messages
/// (syntax errors) are part of the error; a Graphviz crash is the error "graphviz crashed while
/// laying out the picture ...".
Expected<std::string> renderDot(std::string_view dot, RenderFormat format,
                                const char *engine = "dot");

/// A flag a SIGINT handler sets (the shell's Ctrl-C): while a layout runs, a signal that
/// interrupts the wait with this flag set kills the layout process and renderDot fails with
/// "interrupted: ..."; other signals (a terminal resize) do not. Null (the default): layouts
/// always run to the end (batches finish the file they are writing).
void setRenderInterruptFlag(const volatile std::sig_atomic_t *flag);

} // namespace fxkit
