#include "transforms/Pipeline.h"

#include <cstdio>

namespace fxkit {

PipelineSpec PipelineSpec::full() { return {{"lower", "fuse", "plan", "wrapper"}, {}}; }

PipelineSpec PipelineSpec::toPlan() {
  return {{"decompose", "infer-shapes", "lower", "fuse", "plan"}, {}};
}

PipelineSpec PipelineSpec::toKernels() {
  return {{"decompose", "infer-shapes", "lower", "fuse"}, {}};
}

std::string PipelineSpec::str() const {
  std::string out;
  for (const std::string &p : passes)
    out += (out.empty() ? "" : ",") + p;
  return out;
}

Expected<CompileResult> compile(Graph &graph, const PipelineSpec &spec) {
  auto runs = runPipeline(graph, spec.passes, spec.options);
  if (!runs)
    return runs.takeError();
  CompileResult result;
  result.runs = runs.take();
  result.state = compilationState(graph);
  return result;
}

Expected<CompiledProgram> takeCompiledProgram(Graph &graph) {
  CompilationState *state = compilationState(graph);
  if (!state || !state->program || !state->fused)
    return Error("no compiled program: run the passes 'lower' and 'fuse' first");
  CompiledProgram out{std::move(*state->program), std::move(*state->fused), std::move(state->plan)};
  state->program.reset();
  state->fused.reset();
  state->plan.reset();
  if (!state->source)
    graph.attachments.erase(kCompilationStateKey);
  return out;
}

namespace {

void formatRun(const PassRun &r, int depth, std::string &out) {
  std::string name = std::string(2 * static_cast<size_t>(depth), ' ') + r.name;
  char line[160];
  std::snprintf(line, sizeof line, "%-22s %10.3f ms  %s\n", name.c_str(), r.seconds * 1e3,
                r.changed ? "changed" : "unchanged");
  out += line;
  for (const PassRun &step : r.steps)
    formatRun(step, depth + 1, out);
}

} // namespace

std::string formatPassTimes(const std::vector<PassRun> &runs) {
  std::string out;
  double total = 0;
  for (const PassRun &r : runs) {
    formatRun(r, 0, out);
    total += r.seconds;
  }
  char line[80];
  std::snprintf(line, sizeof line, "%-22s %10.3f ms\n", "total", total * 1e3);
  return out + line;
}

} // namespace fxkit
