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
#include <map>
#include <string>
#include <vector>

namespace fxkit {

struct ReportCommandOptions : GraphInputOptions {
  std::string output = "report.html";
  /// Programs with more loop ops than this are pictured one box per kernel.
  size_t collapseAbove = 400;
};

/// Source node -> the names of fxkit's kernels computing it, in launch order.
using KernelsOfNode = std::map<std::string, std::vector<std::string>, std::less<>>;

/// Compiles `graph` in place (lower, fuse, plan, wrapper) and gathers the report's contents;
/// `title` names the input. `kernelsOfNode`, when given, receives which of fxkit's kernels
/// compute each node of the input (the site's node tables set them beside Inductor's).
/// `modules`, when given, is each node's module path for the interactive graph (the site
/// recovers them through the Dynamo graph, exporters/ModulePath.h modulePathsFor); else the
/// graph's own names give them (modulePaths).
Expected<HtmlReport> buildCompilationReport(Graph &graph, const std::string &title,
                                            size_t collapseAbove = 400,
                                            KernelsOfNode *kernelsOfNode = nullptr,
                                            const std::vector<std::string> *modules = nullptr);

/// Returns the exit code (0 ok, 2 bad input or a failing pass; nothing is written then).
int runReportCommand(const ReportCommandOptions &options);

} // namespace fxkit
