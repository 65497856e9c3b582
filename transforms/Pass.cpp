#include "transforms/Pass.h"

#include "ir/FaultInjection.h"
#include "ir/Verifier.h"
#include "transforms/CompilerPasses.h"
#include "transforms/DeadCodeElimination.h"
#include "transforms/Decompose.h"
#include "transforms/LiftConstants.h"
#include "transforms/ShapeInference.h"

#include <charconv>
#include <chrono>
#include <cmath>
#include <mutex>
#include <set>
#include <thread>

namespace fxkit {

PassRegistry &PassRegistry::instance() {
  static PassRegistry registry;
  return registry;
}

void PassRegistry::add(PassInfo info) {
  for (PassInfo &p : passes_)
    if (p.name == info.name) {
      p = std::move(info);
      return;
    }
  passes_.push_back(std::move(info));
}

const PassInfo *PassRegistry::find(std::string_view name) const {
  for (const PassInfo &p : passes_)
    if (p.name == name)
      return &p;
  return nullptr;
}

std::string_view passLevelName(PassLevel level) {
  switch (level) {
  case PassLevel::Graph:
    return "graph";
  case PassLevel::LoopProgram:
    return "loops";
  case PassLevel::Kernels:
    return "kernels";
  case PassLevel::Plan:
    return "plan";
  case PassLevel::Wrapper:
    return "wrapper";
  }
  return "?";
}

PassOptions &PassOptions::set(std::string name, std::string value) {
  values_[std::move(name)] = std::move(value);
  return *this;
}

const std::string *PassOptions::find(std::string_view name) const {
  auto it = values_.find(name);
  return it == values_.end() ? nullptr : &it->second;
}

Expected<bool> PassOptions::flag(std::string_view name, bool fallback) const {
  const std::string *v = find(name);
  if (!v)
    return fallback;
  if (*v == "true" || *v == "1" || *v == "on")
    return true;
  if (*v == "false" || *v == "0" || *v == "off")
    return false;
  return Error("pass option '" + std::string(name) + "': expected true or false, got '" + *v + "'");
}

Expected<int64_t> PassOptions::integer(std::string_view name, int64_t fallback) const {
  const std::string *v = find(name);
  if (!v)
    return fallback;
  int64_t out = 0;
  const char *first = v->data(), *last = v->data() + v->size();
  auto [end, ec] = std::from_chars(first, last, out);
  if (ec != std::errc() || end != last || first == last)
    return Error("pass option '" + std::string(name) + "': expected an integer, got '" + *v + "'");
  return out;
}

Expected<double> PassOptions::number(std::string_view name, double fallback) const {
  const std::string *v = find(name);
  if (!v)
    return fallback;
  double out = 0;
  const char *first = v->data(), *last = v->data() + v->size();
  auto [end, ec] = std::from_chars(first, last, out);
  if (ec != std::errc() || end != last || first == last || !std::isfinite(out))
    return Error("pass option '" + std::string(name) + "': expected a number, got '" + *v + "'");
  return out;
}

Expected<PassOptions> PassOptions::parse(std::string_view text) {
  PassOptions options;
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (item.empty())
      continue;
    size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0)
      return Error("pass option '" + std::string(item) + "': expected NAME=VALUE");
    options.set(std::string(item.substr(0, eq)), std::string(item.substr(eq + 1)));
  }
  return options;
}

PassFn withoutOptions(std::function<PassResult(Graph &)> fn) {
  return [fn = std::move(fn)](Graph &graph, const PassOptions &) { return fn(graph); };
}

void registerBuiltinPasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    PassRegistry &r = PassRegistry::instance();
    r.add({"dce", "remove nodes whose results are unused and that have no side effects",
           withoutOptions(eliminateDeadCode)});
    r.add({"infer-shapes",
           "compute every node's dtype, symbolic sizes and strides from the inputs' types",
           withoutOptions([](Graph &graph) -> PassResult {
             bool changed = false;
             if (Status st = inferShapes(graph, changed); !st)
               return st.takeError();
             return changed;
           })});
    r.add({"decompose",
           "rewrite composite ops (linear, conv2d, layer_norm, scaled_dot_product_attention, "
           "to.dtype, relu_, ...) into the ops they are made of, as run_decompositions() does",
           withoutOptions(decomposeCompositeOps)});
    r.add({"lift-constants",
           "turn get_attr reads of tensors the graph does not hold (_tensor_constant0) into "
           "inputs after the graph's own, so a run can give their values",
           withoutOptions([](Graph &graph) -> PassResult {
             std::vector<std::string> targets = tensorConstantTargets(graph);
             if (Status st = liftTensorConstants(graph, targets); !st)
               return st.takeError();
             return !targets.empty();
           })});
    registerCompilerPasses(r);
  });
}

std::string describePasses() {
  registerBuiltinPasses();
  const std::vector<PassInfo> &all = PassRegistry::instance().all();
  size_t width = 0;
  for (const PassInfo &p : all)
    width = std::max(width, p.name.size());
  std::string out;
  for (const PassInfo &p : all) {
    std::string levels =
        std::string(passLevelName(p.reads)) + " -> " + std::string(passLevelName(p.writes));
    out += "  " + p.name + std::string(width - p.name.size() + 2, ' ') + levels +
           std::string(levels.size() < 20 ? 20 - levels.size() : 1, ' ') + p.description + "\n";
    std::string indent(width + 4, ' ');
    if (!p.steps.empty()) {
      out += indent + "pipeline:";
      for (const std::string &s : p.steps)
        out += " " + s;
      out += "\n";
    }
    for (const PassOptionInfo &o : p.options)
      out += indent + "option " + o.name + "=" + o.defaultValue + ": " + o.description + "\n";
  }
  return out;
}

namespace {

/// A pass resolved for running: its entry, and its steps when it is a pipeline.
struct Planned {
  const PassInfo *info = nullptr;
  std::vector<Planned> steps;
};

/// Resolves `name` (recursively through pipelines), collecting the options its passes read.
Status resolve(const std::string &name, Planned &out, std::set<std::string, std::less<>> &known,
               int depth) {
  const PassInfo *p = PassRegistry::instance().find(name);
  if (!p)
    return Error("unknown pass '" + name + "'");
  if (depth > 8)
    return Error("pass pipeline '" + name +
                 "' nests too deeply (a pipeline that contains itself?)");
  out.info = p;
  for (const PassOptionInfo &o : p->options)
    known.insert(o.name);
  for (const std::string &step : p->steps) {
    out.steps.emplace_back();
    if (Status s = resolve(step, out.steps.back(), known, depth + 1); !s)
      return s;
  }
  return Status::ok();
}

bool writesGraph(const PassInfo &p) {
  switch (p.writes) {
  case PassLevel::Graph:
  case PassLevel::Wrapper:
    return true;
  case PassLevel::LoopProgram:
  case PassLevel::Kernels:
  case PassLevel::Plan:
    return false;
  }
  return true;
}

/// Runs one pass, or a pipeline's steps. Errors name `asked`, the pass the pipeline was given
/// (`pass 'lower': ...`, whichever of its steps failed).
Expected<PassRun> runPlanned(Graph &graph, const Planned &planned, const PassOptions &options,
                             const std::string &asked) {
  const PassInfo &p = *planned.info;
  // Between passes and steps the graph is whole: the safe point for Ctrl-C.
  if (options.interruptRequested())
    return Error("interrupted before pass '" + p.name + "'" +
                 (p.name == asked ? "" : " (of '" + asked + "')"));
  if (planned.steps.empty() && faultInjected("slow")) // FXKIT_FAULT=slow: time to interrupt
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  PassRun run;
  run.name = p.name;
  auto start = std::chrono::steady_clock::now();
  if (!planned.steps.empty()) {
    for (const Planned &step : planned.steps) {
      auto r = runPlanned(graph, step, options, asked);
      if (!r)
        return r.takeError();
      run.changed = run.changed || r->changed;
      run.steps.push_back(r.take());
    }
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return run;
  }
  PassResult changed = p.run(graph, options);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!changed) {
    Error err = changed.takeError();
    err.message = "pass '" + asked + "': " + err.message;
    return err;
  }
  // A pass that changed nothing leaves the graph the last verification saw: as MLIR's pass
  // manager skips verifying after a pass that preserved all analyses.
  if (writesGraph(p) && *changed)
    if (Status st = verifyGraph(graph); !st)
      return Error("pass '" + asked + "' left an invalid graph: " + st.error().message);
  run.changed = *changed;
  return run;
}

} // namespace

Expected<std::vector<PassRun>> runPipeline(Graph &graph, const std::vector<std::string> &names,
                                           const PassOptions &options) {
  registerBuiltinPasses();
  std::vector<Planned> passes(names.size());
  std::set<std::string, std::less<>> known;
  for (size_t i = 0; i < names.size(); ++i)
    if (Status s = resolve(names[i], passes[i], known, 0); !s)
      return s.takeError();
  for (const auto &entry : options.values())
    if (!known.contains(entry.first))
      return Error("no pass of the pipeline reads the option '" + entry.first + "'");
  std::vector<PassRun> runs;
  for (const Planned &p : passes) {
    auto r = runPlanned(graph, p, options, p.info->name);
    if (!r)
      return r.takeError();
    runs.push_back(r.take());
  }
  return runs;
}

} // namespace fxkit
