#include "repl/ReportCommand.h"

#include "backends/opencl/codegen/OpenCLKernelGen.h"
#include "exporters/Export.h"
#include "exporters/GraphvizRender.h"
#include "exporters/HtmlReport.h"
#include "exporters/MemoryTimeline.h"
#include "exporters/ModulePath.h"
#include "exporters/report/GraphViewer.h"
#include "exporters/wrapper/GraphRender.h"
#include "importers/Import.h"
#include "ir/Try.h"
#include "repl/Cli.h"
#include "repl/GraphInput.h"
#include "repl/ReportSite.h"
#include "transforms/CompilationState.h"
#include "transforms/Pass.h"

#include <filesystem>
#include <iostream>
#include <map>
#include <set>

namespace fxkit {
namespace {

/// Graphs with more nodes than this get only the interactive graph, no Graphviz picture.
constexpr size_t kPictureUpTo = 5000;

std::string rangesText(const std::vector<SymExpr> &r) {
  std::string s = "[";
  for (size_t i = 0; i < r.size(); ++i)
    s += (i ? ", " : "") + r[i].str();
  return s + "]";
}

void addKernels(HtmlReport &report, const CompilationState &state) {
  const loop::LoopProgram &p = *state.program;
  const loop::FusedProgram &f = *state.fused;
  auto code = opencl::generateOpenCL(p, f);
  if (!code)
    report.sourceNote = "no OpenCL C: " + code.error().str();
  for (size_t k = 0; k < f.kernels.size(); ++k) {
    const loop::Kernel &kernel = f.kernels[k];
    HtmlReport::Kernel item;
    item.name = kernel.name;
    item.isExtern = kernel.isExtern;
    for (int32_t o : kernel.ops) {
      const loop::LoopOp &op = p.ops[o];
      item.ops += (item.ops.empty() ? "" : "; ") + op.name + " (";
      for (size_t j = 0; j < op.origins.size(); ++j)
        item.ops += (j ? " " : "") + op.origins[j];
      item.ops += ")";
    }
    item.detail = rangesText(kernel.ranges);
    if (!kernel.reductionRanges.empty())
      item.detail += " x " + rangesText(kernel.reductionRanges);
    if (!kernel.isExtern)
      item.detail +=
          "; reads " + kernel.bytesRead.str() + " B, writes " + kernel.bytesWritten.str() + " B";
    if (code && k < code->launches.size())
      item.source = code->launches[k].source;
    report.kernels.push_back(std::move(item));
  }
  for (const loop::FusionDecision &d : f.decisions)
    report.decisions.push_back({d.fused, d.op, d.kernelOp,
                                std::string(loop::fusionKindName(d.kind)), d.bytesSaved.str(),
                                d.reason});
}

/// Names joined with ", ", each once, in order.
std::string joinUnique(const std::vector<std::string> &names) {
  std::string out;
  std::set<std::string_view> seen;
  for (const std::string &n : names)
    if (seen.insert(n).second)
      out += (out.empty() ? "" : ", ") + n;
  return out;
}

/// Inductor's kernel calls (from the provenance the graph's nodes had before compiling) beside
/// fxkit's kernels: both computing the same source nodes.
void addInductorKernels(HtmlReport &report,
                        const std::map<std::string, NodeProvenance, std::less<>> &provenance,
                        const std::vector<std::string> &order, const CompilationState &state) {
  const loop::LoopProgram &p = *state.program;
  const loop::FusedProgram &f = *state.fused;
  std::map<std::string, std::vector<std::string>, std::less<>> fxkitOf; // source node -> kernels
  for (size_t k = 0; k < f.kernels.size(); ++k) {
    std::vector<std::string> inductor;
    for (int32_t o : f.kernels[k].ops)
      for (const std::string &origin : p.ops[o].origins) {
        fxkitOf[origin].push_back(f.kernels[k].name);
        if (auto it = provenance.find(origin); it != provenance.end())
          inductor.insert(inductor.end(), it->second.kernels.begin(), it->second.kernels.end());
      }
    if (k < report.kernels.size())
      report.kernels[k].inductor = joinUnique(inductor);
  }
  struct Row {
    std::vector<std::string> nodes, preGrad, fxkit;
  };
  std::map<std::string, Row> rows;
  std::vector<std::string> handles; // in order of first appearance
  for (const std::string &name : order) {
    const NodeProvenance &np = provenance.at(name);
    for (const std::string &h : np.kernels) {
      auto [it, fresh] = rows.try_emplace(h);
      if (fresh)
        handles.push_back(h);
      it->second.nodes.push_back(name);
      it->second.preGrad.insert(it->second.preGrad.end(), np.preGrad.begin(), np.preGrad.end());
      if (auto fx = fxkitOf.find(name); fx != fxkitOf.end())
        it->second.fxkit.insert(it->second.fxkit.end(), fx->second.begin(), fx->second.end());
    }
  }
  for (const std::string &h : handles) {
    const Row &r = rows.at(h);
    report.inductorKernels.push_back({h, joinUnique(r.nodes), joinUnique(r.preGrad),
                                      r.fxkit.empty() ? std::string("(none: views, inputs or "
                                                                    "nodes fxkit folds away)")
                                                      : joinUnique(r.fxkit)});
  }
}

} // namespace

Expected<HtmlReport> buildCompilationReport(Graph &graph, const std::string &title,
                                            size_t collapseAbove, KernelsOfNode *kernelsOfNode,
                                            const std::vector<std::string> *modules) {
  HtmlReport report;
  report.title = title;
  report.facts.push_back("input: " + title + " (" + std::to_string(graph.size()) + " nodes)");
  // Inductor's provenance, kept before the passes replace the graph's nodes.
  std::map<std::string, NodeProvenance, std::less<>> provenance;
  std::vector<std::string> provenanceOrder;
  for (const Node *n : graph)
    if (const NodeProvenance *np = n->provenance()) {
      provenance.emplace(n->name(), *np);
      provenanceOrder.push_back(n->name());
    }
  // The interactive graph shows the nodes as read, with fxkit's kernels added after fusion.
  ViewerGraph viewer = viewerGraphOf(graph, modules ? *modules : modulePaths(graph));
  FXKIT_ASSIGN_OR_RETURN(auto runs, runPipeline(graph, {"lower", "fuse", "plan", "wrapper"}));
  for (const PassRun &r : runs)
    report.passes.push_back({r.name, r.seconds, r.changed});
  const CompilationState *state = compilationState(graph);
  if (!state || !state->program || !state->fused || !state->plan)
    return Error("internal error: the compiler passes left no program");
  const loop::LoopProgram &p = *state->program;
  const loop::FusedProgram &f = *state->fused;
  size_t externs = 0;
  for (const loop::Kernel &k : f.kernels)
    externs += k.isExtern ? 1 : 0;
  report.facts.push_back("loop ops: " + std::to_string(p.ops.size()) +
                         ", kernel launches: " + std::to_string(f.kernels.size() - externs) + " (" +
                         std::to_string(f.distinctKernels()) +
                         " distinct), extern calls: " + std::to_string(externs));
  report.facts.push_back("generated kernels read+write " + f.generatedKernelBytes().str() +
                         " bytes; wrapper program: " + std::to_string(graph.size()) + " nodes");
  addKernels(report, *state);
  if (kernelsOfNode)
    for (const loop::Kernel &k : f.kernels)
      for (int32_t op : k.ops)
        for (const std::string &origin : p.ops[op].origins) {
          std::vector<std::string> &names = (*kernelsOfNode)[origin];
          if (names.empty() || names.back() != k.name)
            names.push_back(k.name);
        }
  addFxkitKernels(viewer, p, f);
  report.graphViewer = graphViewerHtml(viewer);
  if (!provenance.empty()) {
    addInductorKernels(report, provenance, provenanceOrder, *state);
    report.facts.push_back("Inductor's provenance: " + std::to_string(provenance.size()) +
                           " nodes, " + std::to_string(report.inductorKernels.size()) +
                           " of Inductor's kernel calls compute them");
  }

  RenderOptions render;
  render.fusion = true;
  if (p.ops.size() > collapseAbove) {
    render.collapse = CollapseMode::Kernel;
    report.graphNote = std::to_string(p.ops.size()) + " loop ops: drawn one box per kernel (" +
                       "fxkit compile G --to svg draws every op)";
  }
  if (viewer.size() > kPictureUpTo) {
    report.graphNote = std::to_string(viewer.size()) + " nodes: no Graphviz picture (past " +
                       std::to_string(kPictureUpTo) +
                       " nodes it takes long and cannot be read); the interactive graph above "
                       "draws every node";
  } else if (!haveGraphviz()) {
    report.graphNote = "no picture: this fxkit was built without Graphviz's libgvc (install "
                       "libgraphviz-dev and rebuild); `fxkit compile G --to dot` writes the DOT";
  } else if (auto svg = renderGraph(graph, RenderFormat::Svg, render); !svg) {
    report.graphNote = "no picture: " + svg.error().str();
  } else {
    report.graphSvg = svg.take();
    if (report.graphNote.empty())
      report.graphNote = "loop ops in kernel clusters; dashed red edges: refused fusions (hover "
                         "for the reason); grey edges: values that stay inside a kernel";
  }
  if (auto timeline = memoryTimelineOf(graph); !timeline) {
    report.timelineNote = "no memory timeline: " + timeline.error().str();
  } else {
    timeline->title = "memory plan";
    report.timelineSvg = writeMemoryTimelineSvg(*timeline);
    report.timelineNote = "one rectangle per allocated buffer: pool offset against kernel; "
                          "hatched: written in place over a dying input; hover for details";
  }
  return report;
}

int runReportCommand(const ReportCommandOptions &options) {
  if (std::error_code ec; std::filesystem::is_directory(options.graph, ec)) {
    if (!options.from.empty() || !options.provenance.empty())
      return reportError(Error("--from and --provenance name one graph's format and mapping: a "
                               "folder's site reads each file as its name says, with the mapping "
                               "of its debug folder"));
    return runReportSite(options.graph,
                         options.output == "report.html" ? "report" : options.output);
  }
  auto graph = readGraphInput(options);
  if (!graph)
    return reportError(graph.error());
  auto report = buildCompilationReport(*graph, options.graph == "-" ? "<stdin>" : options.graph,
                                       options.collapseAbove);
  if (!report)
    return reportError(report.error());
  if (Status s = writeFileAtomic(options.output, writeHtmlReport(*report)); !s)
    return reportError(s.error());
  return kExitOk;
}

} // namespace fxkit
