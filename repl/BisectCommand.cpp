#include "repl/BisectCommand.h"

#include "backends/interp/RunIO.h"
#include "exporters/FolderOutput.h"
#include "exporters/FxTextPrinter.h"
#include "importers/Import.h"
#include "ir/Try.h"
#include "repl/Cli.h"
#include "repl/GraphInput.h"
#include "repl/ReplCommandSupport.h"
#include "repl/ReplSession.h"
#include "repl/RunCommand.h"
#include "support/GraphFormat.h"
#include "transforms/GraphReduction.h"
#include "transforms/Pipeline.h"
#include "transforms/ShapeInference.h"

#include <CLI/CLI.hpp>

#include <charconv>
#include <iostream>
#include <sstream>

namespace fxkit {

namespace {

/// The error that stops a tapped run at the first bad kernel (not a failure of the run).
constexpr const char *kStop = "bisect: first bad kernel found";

std::string formatIndex(const std::vector<int64_t> &idx) {
  std::string s = "[";
  for (size_t i = 0; i < idx.size(); ++i)
    s += (i ? ", " : "") + std::to_string(idx[i]);
  return s + "]";
}

/// "f32[2, 16]": the dtype and sizes (the layout is the program's business).
std::string shortType(const Tensor &t) {
  return std::string(dtypeShortName(t.dtype())) + formatIndex(t.sizes());
}

std::string numberText(double v) {
  std::ostringstream os;
  os.precision(8);
  os << v;
  return os.str();
}

/// The graph node whose value loop buffer `b` holds, by name: the last origin of the op that
/// makes it (the op's own node; inlined producers come first), or for an extern op the node
/// (or its getitem user) of that result. Empty when none is known.
std::string nodeOfBuffer(const loop::LoopProgram &program, const Graph &graph, int32_t b) {
  int32_t producer = program.buffers[b].producer;
  if (producer < 0)
    return "";
  const loop::LoopOp &op = program.ops[producer];
  if (op.kind != loop::LoopOpKind::Extern)
    return op.origins.empty() ? "" : op.origins.back();
  if (!op.externNode)
    return "";
  const Node *n = graph.find(op.externNode->name());
  if (!n)
    return "";
  for (size_t i = 0; i < op.externOutputs.size(); ++i) {
    if (op.externOutputs[i] != b)
      continue;
    if (n->value().tensor())
      return i == 0 ? n->name() : "";
    for (const Node *u : n->users())
      if (u->target() == "operator.getitem" && u->args().items().size() == 2 &&
          u->args().items()[1].kind() == Argument::Kind::Int &&
          u->args().items()[1].asInt() == static_cast<int64_t>(i))
        return u->name();
  }
  return "";
}

/// The reference interpreter's value of every call node with one tensor value, by name, and
/// the graph's outputs (first in `outputs`).
Status interpretEveryNode(const Graph &graph, std::span<const RuntimeValue> inputs,
                          std::map<std::string, RuntimeValue> &values,
                          std::vector<RuntimeValue> &outputs) {
  Graph reference = graph.clone();
  Node *out = reference.outputNode();
  if (!out || out->args().items().size() != 1)
    return Error("the graph has no output node");
  std::vector<Argument> items;
  const Argument &returned = out->args().items()[0];
  if (returned.isContainer())
    items = returned.items();
  else
    items.push_back(returned);
  const size_t returnedCount = items.size();
  std::vector<std::string> names;
  for (Node *n : reference)
    if (n->op() == OpKind::CallFunction && n->value().tensor()) {
      items.push_back(Argument::node(n));
      names.push_back(n->name());
    }
  out->setArgs(Argument::tuple({Argument::tuple(std::move(items))}));
  out->value() = NodeValue{};
  FXKIT_ASSIGN_OR_RETURN(InterpretResult result, interpretGraph(reference, inputs));
  if (result.outputs.size() != returnedCount + names.size())
    return Error("the reference interpreter returned " + std::to_string(result.outputs.size()) +
                 " values, expected " + std::to_string(returnedCount + names.size()));
  outputs.assign(result.outputs.begin(), result.outputs.begin() + returnedCount);
  for (size_t i = 0; i < names.size(); ++i)
    values[names[i]] = result.outputs[returnedCount + i];
  return Status::ok();
}

/// Compares `got` with `want` as bisect does; nullopt when they are not comparable (dtype or
/// sizes differ, or a dtype compareTensors does not take).
std::optional<TensorComparison> compareAs(const Tensor &got, const Tensor &want,
                                          const BisectOptions &options, double &rtol,
                                          double &atol) {
  if (got.dtype() != want.dtype() || got.sizes() != want.sizes())
    return std::nullopt;
  auto [r, a] = defaultTolerance(want.dtype());
  rtol = options.rtol.value_or(r);
  atol = options.atol.value_or(a);
  auto cmp = compareTensors(got, want, rtol, atol);
  if (!cmp)
    return std::nullopt;
  return cmp.take();
}

} // namespace

Expected<BisectFinding> bisectGraph(Graph &graph, std::span<const RuntimeValue> inputs,
                                    const Backend &backend, const BackendOptions &backendOptions,
                                    const BisectOptions &options) {
  FXKIT_TRY(backend.available());
  if (!backend.needsProgram(backendOptions))
    return Error("bisect compares a compiled backend with the reference interpreter: the " +
                 backend.name() +
                 " backend runs no compiled kernels (use opencl, llvm, loops "
                 "or cpp-wrapper)");
  registerReferenceKernels();
  FXKIT_TRY(inferShapes(graph));
  FXKIT_TRY(compile(graph, PipelineSpec::toPlan()));
  FXKIT_ASSIGN_OR_RETURN(CompiledProgram compiled, takeCompiledProgram(graph));
  const loop::LoopProgram &program = compiled.program;
  const loop::FusedProgram &fused = compiled.fused;

  std::map<std::string, RuntimeValue> ownValues;
  std::map<std::string, RuntimeValue> &values =
      options.referenceValues ? *options.referenceValues : ownValues;
  std::vector<RuntimeValue> expectedOutputs;
  FXKIT_TRY(interpretEveryNode(graph, inputs, values, expectedOutputs));

  BisectFinding finding;
  finding.kernels = fused.kernels.size();
  // The disagreement found, with the expected value it was measured against (a kernel's buffer
  // or an output).
  auto mismatch = [&](const Tensor &expected, double rtol, double atol,
                      const TensorComparison &comparison) {
    finding.mismatch = true;
    finding.type = shortType(expected);
    finding.elements = expected.numel();
    finding.dtype = expected.dtype();
    finding.rtol = rtol;
    finding.atol = atol;
    finding.comparison = comparison;
  };
  // Each buffer is compared after the last kernel that writes it (a buffer that several
  // kernels fill, as cat's pieces, is whole only then).
  std::vector<int64_t> lastWriter(program.buffers.size(), -1);
  for (size_t k = 0; k < fused.kernels.size(); ++k)
    for (int32_t b : kernelWrittenBuffers(program, fused.kernels[k]))
      lastWriter[b] = static_cast<int64_t>(k);
  std::vector<std::string> nodeOf(program.buffers.size());
  for (size_t b = 0; b < program.buffers.size(); ++b)
    nodeOf[b] = nodeOfBuffer(program, graph, static_cast<int32_t>(b));

  BackendInput in;
  in.graph = &graph;
  in.program = &program;
  in.fused = &fused;
  in.plan = compiled.plan ? &*compiled.plan : nullptr;
  FXKIT_ASSIGN_OR_RETURN(std::unique_ptr<Executable> exe, backend.prepare(in, backendOptions));

  KernelTap tap = [&](size_t k, int32_t b, const Tensor &got) -> Status {
    finding.kernelByKernel = true;
    if (lastWriter[b] != static_cast<int64_t>(k) || nodeOf[b].empty())
      return Status::ok();
    auto it = values.find(nodeOf[b]);
    const Tensor *want = it == values.end() ? nullptr : it->second.tensor();
    if (!want)
      return Status::ok();
    double rtol = 0, atol = 0;
    auto cmp = compareAs(got, *want, options, rtol, atol);
    if (!cmp)
      return Status::ok();
    ++finding.buffersCompared;
    if (cmp->allClose)
      return Status::ok();
    const loop::Kernel &kernel = fused.kernels[k];
    mismatch(*want, rtol, atol, *cmp);
    finding.kernel = static_cast<int64_t>(k);
    finding.kernelName = kernel.name;
    finding.externKernel = kernel.isExtern;
    for (int32_t op : kernel.ops)
      for (const std::string &origin : program.ops[op].origins)
        if (std::find(finding.kernelNodes.begin(), finding.kernelNodes.end(), origin) ==
            finding.kernelNodes.end())
          finding.kernelNodes.push_back(origin);
    finding.buffer = program.buffers[b].name;
    finding.node = nodeOf[b];
    return Error(kStop);
  };
  auto got = exe->runTapped(inputs, tap);
  if (finding.mismatch)
    return finding;
  if (!got)
    return got.takeError();
  // Every kernel agreed (or the backend ran as a whole): the outputs.
  for (size_t i = 0; i < got->outputs.size() && i < expectedOutputs.size(); ++i) {
    const Tensor *a = got->outputs[i].tensor();
    const Tensor *e = expectedOutputs[i].tensor();
    if (!a || !e)
      continue;
    double rtol = 0, atol = 0;
    auto cmp = compareAs(*a, *e, options, rtol, atol);
    if (!cmp || cmp->allClose)
      continue;
    mismatch(*e, rtol, atol, *cmp);
    finding.output = static_cast<int64_t>(i);
    break;
  }
  return finding;
}

std::string formatBisectFinding(const BisectFinding &f, const std::string &backend) {
  std::ostringstream os;
  os << "bisect: " << backend << " against the reference interpreter, " << f.kernels << " kernel"
     << (f.kernels == 1 ? "" : "s");
  if (f.kernelByKernel)
    os << " run one by one, " << f.buffersCompared << " buffer"
       << (f.buffersCompared == 1 ? "" : "s") << " compared\n";
  else
    os << " (the " << backend << " backend runs the program as a whole: outputs compared)\n";
  if (!f.mismatch) {
    os << "every " << (f.kernelByKernel ? "kernel" : "output")
       << " agrees with the reference interpreter\n";
    return os.str();
  }
  const TensorComparison &c = f.comparison;
  if (f.kernel >= 0) {
    os << "first bad kernel: #" << f.kernel << " " << f.kernelName
       << (f.externKernel ? " (extern)" : "") << "\n";
    os << "  FX nodes it computes:";
    for (const std::string &n : f.kernelNodes)
      os << " %" << n;
    os << "\n  " << f.buffer << " holds %" << f.node << " " << f.type << ": ";
  } else {
    os << "every kernel agrees, but output " << f.output << " " << f.type << " does not: ";
  }
  os << c.mismatches << " of " << f.elements << " elements not close\n";
  os << "  worst element " << formatIndex(c.worstMismatch) << ": expected "
     << numberText(c.worstExpected) << ", got " << numberText(c.worstActual) << "\n";
  if (dtypeIsFloating(f.dtype))
    os << "  tolerance (" << dtypeName(f.dtype) << "): rtol " << f.rtol << ", atol " << f.atol
       << "\n";
  else
    os << "  tolerance (" << dtypeName(f.dtype) << "): exact\n";
  return os.str();
}

namespace {

/// Values for the inputs of a reduced graph: an input of the original graph keeps its value, an
/// input that replaced node X (`in_X`) gets the interpreter's value of X, and anything else a
/// seeded random one.
Expected<std::vector<RuntimeValue>>
inputsOfReduced(const Graph &reduced, const std::map<std::string, RuntimeValue> &original,
                const std::map<std::string, RuntimeValue> &nodeValues, uint64_t seed) {
  std::vector<RuntimeValue> out;
  std::optional<std::vector<RuntimeValue>> random;
  size_t index = 0;
  for (const Node *n : reduced) {
    if (n->op() != OpKind::Placeholder)
      continue;
    const std::string &name = n->name();
    if (auto it = original.find(name); it != original.end()) {
      out.push_back(it->second);
    } else if (auto v =
                   name.starts_with("in_") ? nodeValues.find(name.substr(3)) : nodeValues.end();
               v != nodeValues.end()) {
      out.push_back(v->second);
    } else {
      if (!random) {
        FXKIT_ASSIGN_OR_RETURN(auto r, makeRandomInputs(reduced, {}, seed));
        random = std::move(r);
      }
      out.push_back((*random)[index]);
    }
    ++index;
  }
  return out;
}

size_t callNodeCount(const Graph &g) {
  size_t n = 0;
  for (const Node *node : g)
    n += node->op() == OpKind::CallFunction;
  return n;
}

} // namespace

Status replCmdBisect(ReplSession &s, const ReplWords &w) {
  FXKIT_ASSIGN_OR_RETURN(auto cur, s.current());
  FXKIT_ASSIGN_OR_RETURN(ReplRunOptions options, parseReplRunOptions(w, 1));
  // Bisecting the interpreter against itself says nothing: without --backend, opencl.
  if (std::find(w.begin(), w.end(), "--backend") == w.end())
    options.backend = "opencl";
  FXKIT_ASSIGN_OR_RETURN(const Backend *backend, findBackend(options.backend));
  Graph graph = cur->graph.clone(); // compiled in place: the session's graph stays as it is
  FXKIT_ASSIGN_OR_RETURN(auto inputs, makeRandomInputs(graph, options.symbols, options.seed));
  FXKIT_ASSIGN_OR_RETURN(inputs, bindProgramInputs(graph, std::move(inputs)));
  BackendOptions backendOptions;
  backendOptions.device = options.device;
  backendOptions.tune = false;
  backendOptions.interrupt = &ReplSession::interrupted;
  FXKIT_ASSIGN_OR_RETURN(BisectFinding finding,
                         bisectGraph(graph, inputs, *backend, backendOptions));
  s.out() << formatBisectFinding(finding, options.backend);
  return Status::ok();
}

CLI::App *addBisectSubcommand(CLI::App &app, BisectCommandOptions &options) {
  CLI::App *bisect = app.add_subcommand(
      "bisect", "Find the first kernel of a backend whose output disagrees with the reference "
                "interpreter; --minimize cuts the graph down to a small one that still fails");
  bisect->add_option("graph", options.graph, "Graph file (- for stdin)")->required();
  bisect->add_option("--from", options.from, "Input format: " + inputFormatList());
  bisect->add_option("--inputs", options.inputs,
                     "Inputs as safetensors (arg_<i>); default: seeded random ones");
  bisect->add_option("--sym", options.symbols, "Symbol value for random inputs: s77=33");
  bisect->add_option("--seed", options.seed, "Seed of the random inputs (default 0)");
  bisect->add_option("--backend", options.backend,
                     "The backend checked (default opencl): " + backendHelp());
  bisect->add_option("--device", options.device, "OpenCL: cpu, gpu or a device number");
  bisect->add_option("--rtol", options.rtol, "Relative tolerance (default per dtype, as run)");
  bisect->add_option("--atol", options.atol, "Absolute tolerance (default per dtype, as run)");
  bisect->add_flag("--minimize", options.minimize,
                   "Reduce a failing graph to a small one that still fails (delta debugging)");
  bisect->add_option("-o,--output", options.output,
                     "--minimize: folder for the small graph (graph.txt) and its inputs "
                     "(inputs.safetensors)");
  bisect->footer("Examples:\n  fxkit bisect model.graph.txt --inputs in.safetensors\n"
                 "  fxkit bisect model.graph.txt --backend llvm --minimize -o small/");
  return bisect;
}

int runBisectCommand(const BisectCommandOptions &options) {
  auto format = inputFormatOption(options.from);
  if (!format)
    return reportError(format.error());
  if (!options.output.empty() && !options.minimize)
    return reportError(Error("-o names where --minimize writes the small graph: give --minimize"));
  SymExpr::Bindings symbols;
  for (const std::string &s : options.symbols)
    if (Status st = parseSymbol(s, symbols); !st)
      return reportError(st.error());
  auto backend = findBackend(options.backend);
  if (!backend)
    return reportError(backend.error());
  if (!options.inputs.empty() || !options.output.empty())
    if (Status st = safetensorsAvailable(); !st)
      return reportError(st.error());
  auto graph = importGraphFile(options.graph, *format, true);
  if (!graph)
    return reportError(graph.error());
  auto inputs = prepareRunInputs(*graph, options.inputs, symbols, options.seed);
  if (!inputs)
    return reportError(inputs.error());

  BackendOptions backendOptions;
  backendOptions.device = options.device;
  backendOptions.tune = false; // launch configurations do not change values
  BisectOptions bisectOptions;
  bisectOptions.rtol = options.rtol;
  bisectOptions.atol = options.atol;
  std::map<std::string, RuntimeValue> nodeValues;
  bisectOptions.referenceValues = &nodeValues;
  auto finding = bisectGraph(*graph, *inputs, **backend, backendOptions, bisectOptions);
  if (!finding)
    return reportError(finding.error());
  std::cout << formatBisectFinding(*finding, options.backend);
  if (!finding->mismatch)
    return kExitOk;
  if (!options.minimize)
    return kExitCheckFailed;

  // The graph as it was compiled (decomposed, typed), each input's value by name.
  Graph decomposed = graph->clone();
  std::map<std::string, RuntimeValue> original;
  size_t index = 0;
  for (const Node *n : decomposed)
    if (n->op() == OpKind::Placeholder && index < inputs->size())
      original[n->name()] = (*inputs)[index++];
  BisectOptions quiet = bisectOptions;
  quiet.referenceValues = nullptr;
  auto stillFails = [&](const Graph &candidate) {
    Graph g = candidate.clone();
    auto in = inputsOfReduced(g, original, nodeValues, options.seed);
    if (!in)
      return false;
    auto f = bisectGraph(g, *in, **backend, backendOptions, quiet);
    return f && f->mismatch;
  };
  Graph small = reduceFailingGraph(decomposed, stillFails);
  auto smallInputs = inputsOfReduced(small, original, nodeValues, options.seed);
  if (!smallInputs)
    return reportError(smallInputs.error());
  FxTextOptions text;
  text.tensorTypes = true;
  std::string fx = printFxText(small, text);
  if (!fx.ends_with('\n'))
    fx += '\n';
  std::cout << "minimized: " << callNodeCount(small) << " call nodes (from "
            << callNodeCount(decomposed) << ")\n";
  Graph rerun = small.clone();
  if (auto f = bisectGraph(rerun, *smallInputs, **backend, backendOptions, quiet))
    std::cout << formatBisectFinding(*f, options.backend);
  if (!options.output.empty()) {
    auto bytes = runInputsBytes(*smallInputs);
    if (!bytes)
      return reportError(bytes.error());
    std::vector<FolderFile> files = {{"graph.txt", fx}, {"inputs.safetensors", *bytes}};
    if (Status st = writeFolderAtomic(options.output, files); !st)
      return reportError(st.error());
    std::cout << "wrote " << options.output << "/graph.txt and " << options.output
              << "/inputs.safetensors\n";
  } else {
    std::cout << fx;
  }
  return kExitCheckFailed;
}

} // namespace fxkit
