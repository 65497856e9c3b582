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
/// itself, no layout). Binary formats come back as bytes in the string. A Graphviz crash is the
/// error "graphviz crashed while laying out the picture ...". Graphviz's own messages, those it
/// reports through cgraph's error function and those its plugins print on stderr (cairo's
/// "graph is too large for cairo-renderer bitmaps"), never reach the terminal raw: they are
/// caught in the layout process and said in fxkit's words (describeGraphvizMessages): errors
/// are part of the error, warnings go to `warnings` (one line each, without "fxkit: "), or,
/// when it is null, to stderr as "fxkit: LINE".
Expected<std::string> renderDot(std::string_view dot, RenderFormat format,
                                const char *engine = "dot",
                                std::vector<std::string> *warnings = nullptr);

/// One of Graphviz's messages in fxkit's words.
struct GraphvizMessage {
  enum class Kind {
    Warning, ///< said after the picture is written
    /// cgraph's "Error: ...": part of the error when the layout or rendering failed; when the
    /// picture came out anyway (dot's "trouble in init_rank"), a warning "graphviz: ...".
    Error,
    Fatal, ///< the picture came out but is unusable (cairo could not make its surface)
  };
  Kind kind = Kind::Warning;
  /// "warning: picture too large for a bitmap: scaled to 47% (use --to svg, or --collapse)";
  /// a message fxkit does not know: "graphviz: " and Graphviz's text (its "(null): " program
  /// name and "Warning: " left out); errors: their text alone (it goes into an Error).
  std::string text;
};

/// What Graphviz wrote (cgraph's "Warning: ..."/"Error: ..." lines and plugins' stderr), one
/// message a line, translated; empty lines are dropped, indented lines (details continuing the
/// message before) counted, not repeated. Known: cairo's and gd's bitmap scaling (a warning
/// with the percentage), cairo's failure to make a surface (fatal), dot's "trouble in
/// init_rank" and its spline router's failures, several lines per edge (one warning each: the
/// picture is drawn anyway).
std::vector<GraphvizMessage> describeGraphvizMessages(std::string_view raw);

/// A flag a SIGINT handler sets (the shell's Ctrl-C): while a layout runs, a signal that
/// interrupts the wait with this flag set kills the layout process and renderDot fails with
/// "interrupted: ..."; other signals (a terminal resize) do not. Null (the default): layouts
/// always run to the end (batches finish the file they are writing).
void setRenderInterruptFlag(const volatile std::sig_atomic_t *flag);

} // namespace fxkit
