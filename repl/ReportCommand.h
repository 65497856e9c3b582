#pragma once
/// \file `fxkit report G -o report.html`: compiles a graph (lower, fuse, plan, wrapper, timing
/// each pass) and writes one self-contained HTML page (exporters/HtmlReport.h): the compiled
/// program's picture, the kernels with their OpenCL C, the fusion decisions with reasons, the
/// memory timeline and the pass times.

#include "exporters/HtmlReport.h"
#include "ir/Error.h"
#include "ir/Graph.h"
#include "repl/GraphInput.h"

#include <cstddef>
#include <string>

namespace fxkit {

struct ReportCommandOptions : GraphInputOptions {
  std::string output = "report.html";
  /// Programs with more loop ops than this are pictured one box per kernel.
  size_t collapseAbove = 400;
};

/// Compiles `graph` in place (lower, fuse, plan, wrapper) and gathers the report's contents;
/// `title` names the input.
Expected<HtmlReport> buildCompilationReport(Graph &graph, const std::string &title,
                                            size_t collapseAbove = 400);

/// Returns the exit code (0 ok, 2 bad input or a failing pass; nothing is written then).
int runReportCommand(const ReportCommandOptions &options);

} // namespace fxkit
