#include "repl/RunCommand.h"

#include "backends/interp/Interpreter.h"
#include "backends/interp/LoopInterpreter.h"
#include "importers/Import.h"
#include "repl/Cli.h"
#include "transforms/Decompose.h"
#include "transforms/Fusion.h"
#include "transforms/LiftConstants.h"
#include "transforms/Lowering.h"
#include "transforms/MemoryPlanning.h"
#include "transforms/ShapeInference.h"
#include "transforms/SizeArgs.h"

#ifdef FXKIT_HAVE_OPENCL
#include "backends/opencl/runtime/OpenCLProgram.h"
#endif

#ifdef FXKIT_HAVE_LLVM
#include "backends/llvm/LLVMProgram.h"
#endif

#ifdef FXKIT_HAVE_CPP_WRAPPER_BUILD
#include "backends/cppwrapper/WrapperProgram.h"
#include "backends/opencl/runtime/KernelCache.h"
#include "exporters/Export.h"
#include "exporters/wrapper/WrapperCppWriter.h"
#include "repl/CompileCommand.h"

#include <filesystem>
#include <fstream>
#endif

#ifdef FXKIT_HAVE_JSON
#include "backends/interp/json/ReferenceIO.h"
#include "exporters/json/SafetensorsWriter.h"
#endif
#ifdef FXKIT_HAVE_PT2
#include "importers/pt2/ExportedProgram.h"
#endif

#ifndef FXKIT_RUNTIME_CMAKE
#define FXKIT_RUNTIME_CMAKE ""
#endif

#include <charconv>
#include <chrono>
#include <iostream>

namespace fxkit {

namespace {

[[maybe_unused]] constexpr const char *kNoLlvm =
    "this fxkit was built without LLVM (install llvm-15-dev libclang-15-dev and rebuild)";
[[maybe_unused]] constexpr const char *kNoCppWrapperBuild =
    "--backend cpp-wrapper compiles the C++ wrapper with the LLVM component: this fxkit was "
    "built without it (install llvm-15-dev libclang-15-dev and rebuild)";

int fail(const Error &err) {
  std::cerr << "fxkit: " << err.str() << "\n";
  return kExitBadInput;
}

/// "s77=33" -> bindings["s77"] = 33.
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

Expected<Compiled> compileGraph(Graph &graph) {
  if (hasCompositeOps(graph))
    if (auto d = decomposeCompositeOps(graph); !d)
      return d.takeError();
  if (Status s = inferShapes(graph); !s)
    return s.takeError();
  auto program = lowerGraph(graph);
  if (!program)
    return program.takeError();
  auto fused = fuseLoopProgram(*program);
  if (!fused)
    return fused.takeError();
  hoistSizeArgs(*program, *fused);
  auto plan = planMemory(*program, *fused);
  if (!plan)
    return plan.takeError();
  return Compiled{program.take(), fused.take(), plan.take()};
}

/// `--backend llvm`: the OpenCL C kernels compiled by Clang for the host CPU.
Expected<InterpretResult> executeLLVM(const Compiled &compiled,
                                      const std::vector<RuntimeValue> &inputs,
                                      const RunCommandOptions &options) {
#ifdef FXKIT_HAVE_LLVM
  llvmjit::LLVMOptions llvmOptions;
  llvmOptions.cache = options.cache;
  llvmOptions.cacheDir = options.cacheDir;
  llvmOptions.profile = options.profile;
  auto t0 = std::chrono::steady_clock::now();
  auto program =
      llvmjit::LLVMProgram::load(compiled.program, compiled.fused, compiled.plan, llvmOptions);
  if (!program)
    return program.takeError();
  Expected<InterpretResult> result = Error("no run");
  double firstRun = 0, firstKernels = 0;
  for (int i = 0; i < std::max(1, options.repeat); ++i) {
    result = (*program)->run(inputs);
    if (!result)
      return result;
    if (i == 0) {
      firstRun = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      firstKernels = (*program)->stats().kernelSeconds;
    }
  }
  double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (const llvmjit::LLVMStats &st = (*program)->stats(); st.cacheWriteFailures > 0)
    std::cerr << "fxkit: warning: " << st.cacheWriteError << " (" << st.cacheWriteFailures
              << " kernel objects not cached; the run is unaffected)\n";
  if (options.stats) {
    const llvmjit::LLVMStats &st = (*program)->stats();
    std::cerr << "llvm: " << (*program)->deviceDescription() << "\n"
              << "llvm: kernels compiled " << st.kernelsCompiled << ", from cache "
              << st.kernelsFromCache << "; launches " << st.launches << ", matrix products "
              << st.matrixProducts << ", reference extern calls " << st.hostExterns
              << "; corrupt cache entries " << st.corruptCacheEntries << "; compile "
              << st.compileSeconds << " s, waited " << st.waitSeconds << " s\n"
              << "llvm: first run " << firstRun << " s";
    if (options.repeat > 1)
      std::cerr << ", later runs " << (total - firstRun) / (options.repeat - 1) << " s each";
    if (options.profile) {
      std::cerr << "; kernel time " << st.kernelSeconds << " s over " << st.launches << " launches";
      if (options.repeat > 1)
        std::cerr << ", later runs' kernels "
                  << (st.kernelSeconds - firstKernels) / (options.repeat - 1) << " s each";
    }
    std::cerr << "\n";
  }
  return result;
#else
  return Error(kNoLlvm);
#endif
}

#ifdef FXKIT_HAVE_CPP_WRAPPER_BUILD
/// The folder of the C++ wrapper of `graph` in the cache (`cpp-wrapper/NAME-HASH` under the
/// OpenCL kernel cache's folder), written there when absent; its object is then built (and
/// kept) on the first load like any `compile -o DIR --build` folder. The hash covers the
/// generated files, so a changed graph or fxkit gets a folder of its own.
Expected<std::string> cachedWrapperFolder(const Compiled &compiled,
                                          const RunCommandOptions &options) {
  std::string root = opencl::KernelCache(options.cacheDir, options.cache).dir();
  if (root.empty() || !options.cache)
    return Error("--backend cpp-wrapper without --wrapper DIR builds the wrapper in the kernel "
                 "cache: give --wrapper DIR, or --cache-dir DIR (no HOME, or --no-cache)");
  std::string name = wrapperNameFor(options.graph);
  auto files =
      writeWrapperCpp(compiled.program, compiled.fused, compiled.plan, name, FXKIT_RUNTIME_CMAKE);
  if (!files)
    return files.takeError();
  uint64_t key = opencl::stableHash(files->header);
  key = opencl::stableHash(files->source, key);
  namespace fs = std::filesystem;
  fs::path dir = fs::path(root) / "cpp-wrapper" / (files->name + "-" + opencl::hashHex(key));
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return Error("cannot create the folder '" + dir.string() + "': " + ec.message());
  // Written atomically, each only when it differs: a concurrent run writes the same bytes.
  for (const auto &[file, text] :
       {std::pair<std::string, const std::string *>{files->name + ".h", &files->header},
        {files->name + ".cpp", &files->source},
        {"driver.cpp", &files->driver},
        {"CMakeLists.txt", &files->cmake}}) {
    fs::path path = dir / file;
    std::ifstream in(path, std::ios::binary);
    std::string have((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in && have == *text)
      continue;
    if (Status s = writeFileAtomic(path.string(), *text); !s)
      return s.takeError();
  }
  return dir.string();
}
#endif

/// `--backend cpp-wrapper`: the wrapper in `--wrapper DIR` (or, without it, the graph's own
/// wrapper in the cache), built if needed, loaded by ORC.
Expected<InterpretResult> executeCppWrapper(Graph &graph, const std::vector<RuntimeValue> &inputs,
                                            const RunCommandOptions &options) {
#ifdef FXKIT_HAVE_CPP_WRAPPER_BUILD
  std::string folder = options.wrapper;
  if (folder.empty()) {
    auto compiled = compileGraph(graph);
    if (!compiled)
      return compiled.takeError();
    auto cached = cachedWrapperFolder(*compiled, options);
    if (!cached)
      return cached.takeError();
    folder = cached.take();
  }
  rt::RuntimeOptions rtOptions;
  rtOptions.device = options.device;
  rtOptions.cacheDir = options.cacheDir;
  rtOptions.cache = options.cache;
  rtOptions.tune = options.tune;
  auto program = cppwrapper::WrapperProgram::load(folder, rtOptions);
  if (!program)
    return program.takeError();
  Expected<InterpretResult> result = Error("no run");
  auto t0 = std::chrono::steady_clock::now();
  double firstRun = 0;
  for (int i = 0; i < std::max(1, options.repeat); ++i) {
    result = (*program)->run(inputs);
    if (!result)
      return result;
    if (i == 0)
      firstRun = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (options.stats) {
    const cppwrapper::WrapperLoadStats &st = (*program)->stats();
    std::cerr << "cpp-wrapper: " << st.build.objectPath << ": ";
    if (st.build.cached)
      std::cerr << "cached";
    else
      std::cerr << "built in " << st.build.seconds << " s ("
                << cppwrapper::wrapperCompilerDescription() << ")"
                << (st.build.replacedCorrupt ? ", replaced a corrupt object" : "");
    std::cerr << "; loaded in " << st.loadSeconds << " s (ORC)\n"
              << "cpp-wrapper: " << (*program)->deviceName() << "\n"
              << "cpp-wrapper: " << (*program)->runtimeStats() << "\n"
              << "cpp-wrapper: first run " << firstRun << " s";
    if (options.repeat > 1)
      std::cerr << ", later runs " << (total - firstRun) / (options.repeat - 1) << " s each";
    std::cerr << "\n";
  }
  return result;
#else
  (void)graph;
  (void)inputs;
  (void)options;
  return Error(kNoCppWrapperBuild);
#endif
}

/// Runs `graph` on the chosen backend, `repeat` times; the last run's result.
Expected<InterpretResult> execute(Graph &graph, const std::vector<RuntimeValue> &inputs,
                                  const RunCommandOptions &options) {
  if (options.backend == "interp")
    return interpretGraph(graph, inputs);
  if (options.backend == "cpp-wrapper")
    return executeCppWrapper(graph, inputs, options);
  if (options.backend != "loops" && options.backend != "opencl" && options.backend != "llvm")
    return Error("unknown backend '" + options.backend +
                 "' (expected interp, loops, opencl, llvm or cpp-wrapper)");
  auto compiled = compileGraph(graph);
  if (!compiled)
    return compiled.takeError();
  if (options.backend == "loops")
    return interpretLoopProgram(compiled->program, compiled->fused, inputs);
  if (options.backend == "llvm")
    return executeLLVM(*compiled, inputs, options);
#ifdef FXKIT_HAVE_OPENCL
  auto device = opencl::selectDevice(options.device);
  if (!device)
    return device.takeError();
  auto context = opencl::OpenCLContext::create(*device);
  if (!context)
    return context.takeError();
  opencl::OpenCLOptions clOptions;
  clOptions.tune = options.tune;
  clOptions.cache = options.cache;
  clOptions.cacheDir = options.cacheDir;
  clOptions.profile = options.profile;
  auto program = opencl::OpenCLProgram::load(**context, compiled->program, compiled->fused,
                                             compiled->plan, clOptions);
  if (!program)
    return program.takeError();
  Expected<InterpretResult> result = Error("no run");
  auto t0 = std::chrono::steady_clock::now();
  double firstRun = 0, firstKernels = 0;
  for (int i = 0; i < std::max(1, options.repeat); ++i) {
    result = (*program)->run(inputs);
    if (!result)
      return result;
    if (i == 0) {
      firstRun = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      firstKernels = (*program)->stats().kernelSeconds;
    }
  }
  double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (const opencl::OpenCLStats &st = (*program)->stats(); st.cacheWriteFailures > 0)
    std::cerr << "fxkit: warning: " << st.cacheWriteError << " (" << st.cacheWriteFailures
              << " kernel binaries not cached; the run is unaffected)\n";
  if (options.stats) {
    const opencl::OpenCLStats &st = (*program)->stats();
    std::cerr << "opencl: " << device->str() << "\n"
              << "opencl: kernels built " << st.kernelsBuilt << ", from cache "
              << st.kernelsFromCache << "; configurations tuned " << st.configsTuned
              << ", from cache " << st.configsFromCache << "; launches " << st.launches
              << "; CLBlast calls " << st.blasCalls << ", device extern calls " << st.deviceExterns
              << ", host extern calls " << st.hostExterns << "; corrupt cache entries "
              << st.corruptCacheEntries << "; build " << st.buildSeconds << " s, waited "
              << st.waitSeconds << " s\n"
              << "opencl: first run " << firstRun << " s";
    if (options.repeat > 1)
      std::cerr << ", later runs " << (total - firstRun) / (options.repeat - 1) << " s each";
    if (options.profile) {
      std::cerr << "; kernel time " << st.kernelSeconds << " s over " << st.launches << " launches";
      if (options.repeat > 1)
        std::cerr << ", later runs' kernels "
                  << (st.kernelSeconds - firstKernels) / (options.repeat - 1) << " s each";
    }
    std::cerr << "\n";
    for (const auto &[kernel, config] : (*program)->chosenConfigs())
      std::cerr << "opencl: " << kernel << ": " << config << "\n";
  }
  return result;
#else
  return Error("this fxkit was built without OpenCL (install ocl-icd-opencl-dev and rebuild)");
#endif
}

} // namespace

struct PreparedRun::Impl {
  std::string backend;
  const volatile std::sig_atomic_t *interrupt = nullptr;
  Graph graph;
  std::optional<Compiled> compiled;
#ifdef FXKIT_HAVE_OPENCL
  // Declared before the program: the program is destroyed first.
  std::unique_ptr<opencl::OpenCLContext> context;
  std::unique_ptr<opencl::OpenCLProgram> program;
#endif
#ifdef FXKIT_HAVE_LLVM
  std::unique_ptr<llvmjit::LLVMProgram> llvmProgram;
#endif
#ifdef FXKIT_HAVE_CPP_WRAPPER_BUILD
  std::unique_ptr<cppwrapper::WrapperProgram> wrapperProgram;
#endif
};

PreparedRun::PreparedRun() : impl_(std::make_unique<Impl>()) {}
PreparedRun::~PreparedRun() = default;

const Graph &PreparedRun::graph() const { return impl_->graph; }

Expected<std::unique_ptr<PreparedRun>>
PreparedRun::prepare(const Graph &graph, const std::string &backend, const std::string &device,
                     const volatile std::sig_atomic_t *interrupt) {
  if (backend != "interp" && backend != "loops" && backend != "opencl" && backend != "llvm" &&
      backend != "cpp-wrapper")
    return Error("unknown backend '" + backend +
                 "' (expected interp, loops, opencl, llvm or cpp-wrapper)");
  std::unique_ptr<PreparedRun> run(new PreparedRun());
  Impl &impl = *run->impl_;
  impl.backend = backend;
  impl.interrupt = interrupt;
  impl.graph = graph.clone();
  registerReferenceKernels();
  if (Status s = inferShapes(impl.graph); !s)
    return s.takeError();
  if (backend == "interp")
    return run;
  auto compiled = compileGraph(impl.graph);
  if (!compiled)
    return compiled.takeError();
  impl.compiled = compiled.take();
  if (backend == "loops")
    return run;
  if (backend == "llvm") {
#ifdef FXKIT_HAVE_LLVM
    auto program = llvmjit::LLVMProgram::load(impl.compiled->program, impl.compiled->fused,
                                              impl.compiled->plan, {});
    if (!program)
      return program.takeError();
    impl.llvmProgram = program.take();
    return run;
#else
    return Error(kNoLlvm);
#endif
  }
  if (backend == "cpp-wrapper") {
#ifdef FXKIT_HAVE_CPP_WRAPPER_BUILD
    RunCommandOptions options;
    options.graph = "repl";
    auto folder = cachedWrapperFolder(*impl.compiled, options);
    if (!folder)
      return folder.takeError();
    rt::RuntimeOptions rtOptions;
    rtOptions.device = device;
    auto program = cppwrapper::WrapperProgram::load(*folder, rtOptions);
    if (!program)
      return program.takeError();
    impl.wrapperProgram = program.take();
    return run;
#else
    return Error(kNoCppWrapperBuild);
#endif
  }
#ifdef FXKIT_HAVE_OPENCL
  auto info = opencl::selectDevice(device);
  if (!info)
    return info.takeError();
  auto context = opencl::OpenCLContext::create(*info);
  if (!context)
    return context.takeError();
  impl.context = context.take();
  auto program = opencl::OpenCLProgram::load(*impl.context, impl.compiled->program,
                                             impl.compiled->fused, impl.compiled->plan, {});
  if (!program)
    return program.takeError();
  impl.program = program.take();
  return run;
#else
  (void)device;
  return Error("this fxkit was built without OpenCL (install ocl-icd-opencl-dev and rebuild)");
#endif
}

Expected<InterpretResult> PreparedRun::run(std::span<const RuntimeValue> inputs) {
  Impl &impl = *impl_;
  if (impl.backend == "interp") {
    InterpretOptions options;
    options.interrupt = impl.interrupt;
    return interpretGraph(impl.graph, inputs, options);
  }
  if (impl.backend == "loops")
    return interpretLoopProgram(impl.compiled->program, impl.compiled->fused, inputs,
                                impl.interrupt);
#ifdef FXKIT_HAVE_LLVM
  if (impl.llvmProgram)
    return impl.llvmProgram->run(inputs);
#endif
#ifdef FXKIT_HAVE_CPP_WRAPPER_BUILD
  if (impl.wrapperProgram)
    return impl.wrapperProgram->run(inputs);
#endif
#ifdef FXKIT_HAVE_OPENCL
  return impl.program->run(inputs);
#else
  return Error("this fxkit was built without OpenCL");
#endif
}

Expected<std::vector<RuntimeValue>> bindProgramInputs(const Graph &graph,
                                                      std::vector<RuntimeValue> inputs) {
#ifdef FXKIT_HAVE_PT2
  const ExportedProgram *program = exportedProgramOf(graph);
  if (!program)
    return inputs;
  std::vector<const Node *> placeholders;
  for (const Node *n : graph)
    if (n->op() == OpKind::Placeholder)
      placeholders.push_back(n);
  size_t users = 0;
  for (const Node *p : placeholders) {
    const ProgramInputSpec *s = program->inputSpec(p->name());
    users += !s || s->kind == InputKind::UserInput;
  }
  bool all = inputs.size() == placeholders.size();
  if (!all && inputs.size() != users)
    return Error(std::to_string(inputs.size()) + " inputs for a program of " +
                 std::to_string(users) + " user inputs");
  std::vector<RuntimeValue> out;
  out.reserve(placeholders.size());
  size_t next = 0;
  for (size_t i = 0; i < placeholders.size(); ++i) {
    const ProgramInputSpec *s = program->inputSpec(placeholders[i]->name());
    bool weight = s && (s->kind == InputKind::Parameter || s->kind == InputKind::Buffer ||
                        s->kind == InputKind::TensorConstant);
    if (!weight && (!s || s->kind == InputKind::UserInput)) {
      out.push_back(std::move(inputs[all ? i : next++]));
      continue;
    }
    if (!weight)
      return Error("input '" + placeholders[i]->name() + "' is a " +
                   std::string(inputKindName(s->kind)) + ", which fxkit cannot run");
    auto w = program->weights.find(s->target);
    if (w == program->weights.end() || !w->second.tensor)
      return Error("input '" + s->name + "' needs the weight '" + s->target + "'" +
                   (w == program->weights.end() ? std::string(", which the archive lacks")
                                                : ": " + w->second.unavailable));
    out.push_back(RuntimeValue{*w->second.tensor});
  }
  return out;
#else
  (void)graph;
  return inputs;
#endif
}

namespace {

/// The outputs a user of the program sees: an exported program also returns buffer and input
/// mutations (and tokens) before them, which eager PyTorch's outputs do not include.
std::vector<RuntimeValue> userOutputs(const Graph &graph, std::vector<RuntimeValue> outputs) {
#ifdef FXKIT_HAVE_PT2
  const ExportedProgram *program = exportedProgramOf(graph);
  if (!program || program->outputs.size() != outputs.size())
    return outputs;
  std::vector<RuntimeValue> kept;
  for (size_t i = 0; i < outputs.size(); ++i)
    if (program->outputs[i].kind == OutputKind::UserOutput ||
        program->outputs[i].kind == OutputKind::LossOutput)
      kept.push_back(std::move(outputs[i]));
  return kept;
#else
  (void)graph;
  return outputs;
#endif
}

/// Example values of a program's symbols, for random inputs where --sym gives none.
void addProgramHints(const Graph &graph, SymExpr::Bindings &symbols) {
#ifdef FXKIT_HAVE_PT2
  if (const ExportedProgram *program = exportedProgramOf(graph))
    for (const auto &hint : program->hints)
      symbols.emplace(hint.first, hint.second);
#else
  (void)graph;
  (void)symbols;
#endif
}

} // namespace

int runDevicesCommand() {
#ifdef FXKIT_HAVE_OPENCL
  auto devices = opencl::listDevices();
  if (!devices)
    return fail(devices.error());
  if (devices->empty()) {
    std::cout << "no OpenCL devices (no platform is registered with the ICD loader)\n";
    return kExitOk;
  }
  auto chosen = opencl::selectDevice("");
  for (const opencl::DeviceInfo &d : *devices)
    std::cout << d.str() << (chosen && chosen->index == d.index ? "  [default]" : "") << "\n";
  return kExitOk;
#else
  return fail(Error("this fxkit was built without OpenCL (install ocl-icd-opencl-dev)"));
#endif
}

int runRunCommand(const RunCommandOptions &options) {
  std::optional<GraphFormat> format;
  if (!options.from.empty()) {
    format = parseGraphFormat(options.from);
    if (!format)
      return fail(
          Error("unknown format '" + options.from + "' for --from (expected fx, fxpy or json)"));
  }
  SymExpr::Bindings symbols;
  for (const std::string &s : options.symbols)
    if (Status st = parseSymbol(s, symbols); !st)
      return fail(st.error());
#ifndef FXKIT_HAVE_JSON
  if (!options.inputs.empty() || !options.check.empty() || !options.output.empty())
    return fail(Error("--inputs, --check and -o need safetensors, which needs a build with "
                      "nlohmann-json"));
#endif
  auto graph = importGraphFile(options.graph, format, true, options.provenance);
  if (!graph)
    return fail(graph.error());

  std::vector<RuntimeValue> inputs;
  size_t placeholders = 0;
  for (Node *n : *graph)
    placeholders += n->op() == OpKind::Placeholder;
#ifdef FXKIT_HAVE_PT2
  // An exported program takes its user inputs from the file, its weights from the archive.
  if (const ExportedProgram *program = exportedProgramOf(*graph))
    placeholders = program->userInputCount();
#endif
  addProgramHints(*graph, symbols);
  // Tensors the graph reads by get_attr but does not hold become inputs after its own.
  const std::vector<std::string> constants = tensorConstantTargets(*graph);
  if (Status st = liftTensorConstants(*graph, constants); !st)
    return fail(st.error());
#ifdef FXKIT_HAVE_JSON
  if (!options.inputs.empty()) {
    auto file = readSafetensors(options.inputs);
    if (!file)
      return fail(file.error());
    auto in = readGraphInputs(*file, placeholders, options.inputs);
    if (!in)
      return fail(in.error());
    inputs = in.take();
    for (const std::string &target : constants) {
      const Tensor *value = file->find(target);
      if (!value)
        return fail(Error(options.inputs + ": no tensor '" + target +
                          "': the graph reads it with get_attr and its file holds only its type; "
                          "store the value under that name beside arg_<i>"));
      inputs.push_back(RuntimeValue{*value});
    }
  }
#endif
  if (options.inputs.empty()) {
    for (const std::string &target : constants)
      std::cerr << "note: tensor constant '" << target
                << "' is not in the graph file: it gets a random value like the inputs\n";
    auto in = makeRandomInputs(*graph, symbols, options.seed);
    if (!in)
      return fail(in.error());
    inputs = in.take();
  }
  if (auto bound = bindProgramInputs(*graph, std::move(inputs)); bound)
    inputs = bound.take();
  else
    return fail(bound.error());

  auto result = execute(*graph, inputs, options);
  if (!result)
    return fail(result.error());
  const std::vector<RuntimeValue> outputs = userOutputs(*graph, std::move(result->outputs));

  int status = kExitOk;
#ifdef FXKIT_HAVE_JSON
  if (!options.check.empty()) {
    auto expected = readSafetensors(options.check);
    if (!expected)
      return fail(expected.error());
    auto checks = checkGraphOutputs(outputs, *expected, {options.rtol, options.atol});
    if (!checks)
      return fail(checks.error());
    size_t failed = 0;
    for (const OutputCheck &c : *checks) {
      std::cout << c.name << ": " << c.actual << ": " << (c.ok ? "ok" : "MISMATCH")
                << (c.detail.empty() ? "" : ": " + c.detail) << "\n";
      failed += !c.ok;
    }
    std::cout << (failed ? "check failed: " : "check passed: ") << checks->size() - failed << " of "
              << checks->size() << " outputs match\n";
    if (failed)
      status = kExitCheckFailed;
  }
#endif
  if (options.check.empty())
    for (size_t i = 0; i < outputs.size(); ++i)
      std::cout << "out_" << i << ": " << describe(outputs[i]) << "\n";
#ifdef FXKIT_HAVE_JSON
  if (!options.output.empty())
    if (Status st = writeSafetensors(options.output, graphOutputsFile(outputs)); !st)
      return fail(st.error());
#endif
  return status;
}

} // namespace fxkit
