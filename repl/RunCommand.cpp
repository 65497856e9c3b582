#include "repl/RunCommand.h"

#include "backends/Backend.h"
#include "backends/interp/Interpreter.h"
#include "backends/interp/RunIO.h"
#include "importers/Import.h"
#include "ir/Try.h"
#include "repl/Cli.h"
#include "repl/CompileCommand.h"
#include "repl/GraphInput.h"
#include "transforms/Decompose.h"
#include "transforms/Fusion.h"
#include "transforms/LiftConstants.h"
#include "transforms/Lowering.h"
#include "transforms/MemoryPlanning.h"
#include "transforms/Pipeline.h"
#include "transforms/ShapeInference.h"
#include "transforms/SizeArgs.h"

#include <charconv>
#include <chrono>
#include <iostream>

namespace fxkit {

Status parseSymbol(const std::string &text, SymExpr::Bindings &bindings) {
  size_t eq = text.find('=');
  int64_t v = 0;
  if (eq != std::string::npos && eq > 0) {
    const char *first = text.data() + eq + 1, *last = text.data() + text.size();
    auto [end, ec] = std::from_chars(first, last, v);
    if (ec == std::errc() && end == last && first != last) {
      bindings[text.substr(0, eq)] = v;
      return Status::ok();
    }
  }
  return Error("--sym '" + text + "': expected NAME=INTEGER, e.g. --sym s77=33");
}

namespace {

std::string describe(const RuntimeValue &v) {
  if (const Tensor *t = v.tensor())
    return t->typeOf().str();
  if (const int64_t *i = v.integer())
    return std::to_string(*i);
  if (const double *d = std::get_if<double>(&v.v))
    return std::to_string(*d);
  if (const bool *b = std::get_if<bool>(&v.v))
    return *b ? "True" : "False";
  return "None";
}

/// The graph compiled to kernels: loop program, fusion and memory plan.
struct Compiled {
  loop::LoopProgram program;
  loop::FusedProgram fused;
  loop::MemoryPlan plan;
};

Expected<Compiled> compileGraph(Graph &graph, const volatile std::sig_atomic_t *interrupt) {
  // The graph decomposed and typed in place (it stays the ATen graph the run reads), then
  // lowered, fused and planned; Ctrl-C (`interrupt`, the REPL's) stops between passes.
  PipelineSpec spec = PipelineSpec::toPlan();
  spec.options.setInterrupt(interrupt);
  FXKIT_TRY(compile(graph, spec));
  FXKIT_ASSIGN_OR_RETURN(auto program, takeCompiledProgram(graph));
  return Compiled{std::move(program.program), std::move(program.fused), std::move(*program.plan)};
}

/// The backend options of the command line.
BackendOptions backendOptionsOf(const RunCommandOptions &options) {
  return {.device = options.device,
          .tune = options.tune,
          .cache = options.cache,
          .cacheDir = options.cacheDir,
          .profile = options.profile,
          .wrapper = options.wrapper,
          .name = wrapperNameFor(options.graph)};
}

/// A graph prepared on a backend: the compiled program it was given (if it needed one) lives
/// as long as the executable. Declared before it: the executable is destroyed first.
struct Prepared {
  std::unique_ptr<Compiled> compiled;
  std::unique_ptr<Executable> executable;
  double seconds = 0; ///< how long the backend's prepare took (not the compilation)
};

/// Compiles `graph` if `backend` needs its program, then prepares it there.
Expected<Prepared> prepareOn(const Backend &backend, Graph &graph, const BackendOptions &options) {
  FXKIT_TRY(backend.available());
  Prepared out;
  BackendInput in;
  in.graph = &graph;
  if (backend.needsProgram(options)) {
    FXKIT_ASSIGN_OR_RETURN(Compiled compiled, compileGraph(graph, options.interrupt));
    out.compiled = std::make_unique<Compiled>(std::move(compiled));
    in.program = &out.compiled->program;
    in.fused = &out.compiled->fused;
    in.plan = &out.compiled->plan;
  }
  if (options.interrupt && *options.interrupt) // before the backend builds its kernels
    return Error("interrupted before the " + std::string(backend.name()) + " backend prepared it");
  auto started = std::chrono::steady_clock::now();
  FXKIT_ASSIGN_OR_RETURN(out.executable, backend.prepare(in, options));
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

/// Runs `graph` on the chosen backend, `repeat` times; the last run's result.
Expected<InterpretResult> execute(Graph &graph, const std::vector<RuntimeValue> &inputs,
                                  const RunCommandOptions &options) {
  FXKIT_ASSIGN_OR_RETURN(auto backend, findBackend(options.backend));
  const BackendOptions backendOptions = backendOptionsOf(options);
  FXKIT_ASSIGN_OR_RETURN(auto prepared, prepareOn(*backend, graph, backendOptions));
  return runRepeated(*prepared.executable, inputs, options.repeat, prepared.seconds, options.stats,
                     backendOptions, std::cerr, options.resident);
}

} // namespace

struct PreparedRun::Impl {
  Graph graph;
  Prepared prepared;
};

PreparedRun::PreparedRun() : impl_(std::make_unique<Impl>()) {}
PreparedRun::~PreparedRun() = default;

const Graph &PreparedRun::graph() const { return impl_->graph; }

Expected<std::unique_ptr<PreparedRun>>
PreparedRun::prepare(const Graph &graph, const std::string &backend, const std::string &device,
                     const volatile std::sig_atomic_t *interrupt) {
  FXKIT_ASSIGN_OR_RETURN(auto found, findBackend(backend));
  std::unique_ptr<PreparedRun> run(new PreparedRun());
  Impl &impl = *run->impl_;
  impl.graph = graph.clone();
  registerReferenceKernels();
  FXKIT_TRY(inferShapes(impl.graph));
  BackendOptions options;
  options.device = device;
  options.interrupt = interrupt;
  options.name = wrapperNameFor("repl");
  FXKIT_ASSIGN_OR_RETURN(impl.prepared, prepareOn(*found, impl.graph, options));
  return run;
}

Expected<InterpretResult> PreparedRun::run(std::span<const RuntimeValue> inputs) {
  return impl_->prepared.executable->run(inputs);
}

Executable &PreparedRun::executable() { return *impl_->prepared.executable; }

int runDevicesCommand() {
  auto backend = findBackend("opencl");
  if (!backend)
    return reportError(backend.error());
  auto lines = (*backend)->devices();
  if (!lines)
    return reportError(lines.error());
  for (const std::string &line : *lines)
    std::cout << line << "\n";
  return kExitOk;
}

Expected<std::vector<RuntimeValue>> prepareRunInputs(Graph &graph, const std::string &inputsPath,
                                                     SymExpr::Bindings symbols, uint64_t seed) {
  std::vector<RuntimeValue> inputs;
  size_t placeholders = 0;
  for (Node *n : graph)
    placeholders += n->op() == OpKind::Placeholder;
  // An exported program takes its user inputs from the file, its weights from the archive.
  placeholders = userInputCount(graph, placeholders);
  addProgramHints(graph, symbols);
  // Tensors the graph reads by get_attr but does not hold become inputs after its own.
  const std::vector<std::string> constants = tensorConstantTargets(graph);
  FXKIT_TRY(liftTensorConstants(graph, constants));
  if (!inputsPath.empty()) {
    FXKIT_ASSIGN_OR_RETURN(inputs, readRunInputs(inputsPath, placeholders, constants));
  } else {
    for (const std::string &target : constants)
      std::cerr << "note: tensor constant '" << target
                << "' is not in the graph file: it gets a random value like the inputs\n";
    FXKIT_ASSIGN_OR_RETURN(inputs, makeRandomInputs(graph, symbols, seed));
  }
  FXKIT_ASSIGN_OR_RETURN(inputs, bindProgramInputs(graph, std::move(inputs)));
  typeUntypedPlaceholders(graph, inputs);
  return inputs;
}

int runRunCommand(const RunCommandOptions &options) {
  auto format = inputFormatOption(options.from);
  if (!format)
    return reportError(format.error());
  SymExpr::Bindings symbols;
  for (const std::string &s : options.symbols)
    if (Status st = parseSymbol(s, symbols); !st)
      return reportError(st.error());
  if (!options.inputs.empty() || !options.check.empty() || !options.output.empty())
    if (Status st = safetensorsAvailable(); !st)
      return reportError(st.error());
  auto graph = importGraphFile(options.graph, *format, true, options.provenance);
  if (!graph)
    return reportError(graph.error());
  auto in = prepareRunInputs(*graph, options.inputs, std::move(symbols), options.seed);
  if (!in)
    return reportError(in.error());
  const std::vector<RuntimeValue> inputs = in.take();

  auto result = execute(*graph, inputs, options);
  if (!result)
    return reportError(result.error());
  const std::vector<RuntimeValue> outputs = userOutputs(*graph, std::move(result->outputs));

  int status = kExitOk;
  if (!options.check.empty()) {
    auto passed = printOutputChecks(outputs, options.check, options.rtol, options.atol, std::cout);
    if (!passed)
      return reportError(passed.error());
    if (!*passed)
      status = kExitCheckFailed;
  } else {
    for (size_t i = 0; i < outputs.size(); ++i)
      std::cout << "out_" << i << ": " << describe(outputs[i]) << "\n";
  }
  if (!options.output.empty())
    if (Status st = writeRunOutputs(options.output, outputs); !st)
      return reportError(st.error());
  return status;
}

} // namespace fxkit
