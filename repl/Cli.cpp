#include "repl/Cli.h"
#include "repl/OpsCommand.h"

#include "backends/Backend.h"
#include "exporters/Export.h"
#include "exporters/GraphSummary.h"
#include "exporters/ProvenanceText.h"
#include "exporters/wrapper/GraphRender.h"
#include "importers/Import.h"
#include "importers/inductor/InductorWrapper.h"
#include "importers/inductor/WrapperAnalysis.h"
#include "ir/PrintableText.h"
#include "repl/BatchConvert.h"
#include "repl/BisectCommand.h"
#include "repl/CliOptionRows.h"
#include "repl/CompileCommand.h"
#include "repl/DiffCommand.h"
#include "repl/FuseCommand.h"
#include "repl/GraphInput.h"
#include "repl/OutputFormats.h"
#include "repl/PlanCommand.h"
#include "repl/ReplShell.h"
#include "repl/ReportCommand.h"
#include "repl/RunCommand.h"
#include "support/DidYouMean.h"
#include "support/InductorProvenance.h"
#include "transforms/Pass.h"

#include <CLI/CLI.hpp>

#include "support/JsonWriter.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <new>
#include <optional>
#include <string>
#include <vector>

namespace fxkit {
int reportError(const Error &err) {
  std::cerr << "fxkit: " << err.str() << "\n";
  return kExitBadInput;
}

namespace {

/// `--from NAME`: an input format; a picture's name is refused as one (it cannot be read back).
std::optional<GraphFormat> formatOption(const std::string &name, int &status) {
  auto f = inputFormatOption(name);
  if (!f) {
    status = reportError(f.error());
    return std::nullopt;
  }
  return *f;
}

/// `--to NAME` of convert (`use`: one input or a batch); nullptr when unset.
const OutputFormat *outputOption(const std::string &name, OutputUse use, int &status) {
  if (name.empty())
    return nullptr;
  const OutputFormat *f = findOutputFormat(name);
  if (!f || !outputFormatOffered(*f, OutputUse::Convert)) {
    std::cerr << "fxkit: " << unknownOutputFormat(name, "--to", OutputUse::Convert).str() << "\n";
    status = kExitBadInput;
    return nullptr;
  }
  if (!outputFormatOffered(*f, use)) { // fxir, fxir-code: of one Inductor wrapper file
    std::cerr << "fxkit: " << Error("--to " + name + " converts one wrapper file at a time").str()
              << "\n";
    status = kExitBadInput;
    return nullptr;
  }
  return f;
}

int runConvert(const std::string &input, const std::string &output, const std::string &from,
               const std::string &to, const RenderOptions &render, const std::string &provenance) {
  int status = kExitOk;
  auto inFormat = formatOption(from, status);
  const OutputFormat *outFormat = outputOption(to, OutputUse::Convert, status);
  if (status != kExitOk)
    return status;
  if (!outFormat) {
    outFormat = output == "-" ? findOutputFormat("fx") : outputFormatForPath(output);
    if (outFormat && !outputFormatOffered(*outFormat, OutputUse::Convert))
      outFormat = nullptr;
  }
  std::error_code ec;
  if (output != "-" && (!outFormat || outFormat->level != OutputLevel::Folder) &&
      (output.ends_with('/') || std::filesystem::is_directory(output, ec)))
    return reportError(Error("-o " + output + " is a folder: name the output file (e.g. " +
                             (std::filesystem::path(output) / "NAME").string() +
                             (outFormat && !outFormat->extensions.empty()
                                  ? std::string(outFormat->extensions.front())
                                  : std::string(".json")) +
                             "), or give several inputs to convert them into the folder"));
  if (!outFormat)
    return reportError(Error("cannot tell the output format from '" + output + "': use --to"));
  auto graph = importGraphFile(input, inFormat, true, provenance);
  if (!graph)
    return reportError(graph.error());
  OutputRequest request;
  request.output = output;
  request.input = input;
  request.render = render;
  request.inductorModule = true;
  if (Status st = writeOutput(*outFormat, *graph, request); !st)
    return reportError(st.error());
  return kExitOk;
}

int runBatch(const std::vector<std::string> &inputs, const std::string &output,
             const std::string &from, const std::string &to, unsigned jobs, BatchLayout layout) {
  int status = kExitOk;
  BatchConvertOptions options;
  if (const OutputFormat *f = findOutputFormat(to);
      f && outputFormatOffered(*f, OutputUse::Convert) &&
      !outputFormatOffered(*f, OutputUse::BatchConvert))
    return reportError(Error("--to " + to + " converts one wrapper file at a time"));
  options.from = formatOption(from, status);
  const OutputFormat *outFormat = outputOption(to, OutputUse::BatchConvert, status);
  if (status != kExitOk)
    return status;
  // A folder has no extension to tell the format from.
  if (!outFormat) {
    std::cerr << "fxkit: error: converting several inputs needs --to FMT\n";
    return kExitBadInput;
  }
  options.inputs = inputs;
  options.outputDir = output;
  options.to = outFormat;
  options.jobs = jobs;
  options.layout = layout;
  return runBatchConvert(options);
}

int runInfo(const std::string &input, const std::string &from, bool json,
            const std::string &provenance) {
  int status = kExitOk;
  auto inFormat = formatOption(from, status);
  if (status != kExitOk)
    return status;
  auto graph = importGraphFile(input, inFormat, true, provenance);
  if (!graph)
    return reportError(graph.error());
  GraphSummary s = summarizeGraph(*graph);
  // Inductor wrapper code: also its kernels, allocations, frees, extern calls and peak.
  std::optional<WrapperAnalysis> wrapper;
  if (inductorWrapperInfo(*graph)) {
    auto w = analyzeInductorWrapper(*graph);
    if (!w)
      return reportError(w.error());
    wrapper = w.take();
  }
  if (!json) {
    std::cout << "graph: " << (input == "-" ? "<stdin>" : input) << "\n";
    if (const NodesJsonSidecar *sidecar = nodesJsonSidecar(*graph))
      std::cout << "types from: " << printableText(sidecar->file) << "\n";
    std::cout << printGraphSummary(s);
    if (wrapper)
      std::cout << printWrapperAnalysis(*wrapper);
    std::cout << printProvenanceSection(*graph);
    return kExitOk;
  }
  JsonValue j;
  j["graph"] = input == "-" ? "<stdin>" : input;
  if (const NodesJsonSidecar *sidecar = nodesJsonSidecar(*graph))
    j["types_from"] = sidecar->file;
  j["nodes"] = s.nodeCount;
  j["op_kinds"] = s.opKindCounts;
  auto values = [](const std::vector<GraphSummary::Value> &vs) {
    JsonValue arr = JsonValue::array();
    for (const auto &v : vs)
      arr.push_back(JsonValue::object({{"name", v.name}, {"type", v.type}}));
    return arr;
  };
  j["inputs"] = values(s.inputs);
  j["outputs"] = values(s.outputs);
  j["symbols"] = s.symbols;
  JsonValue ops = JsonValue::array();
  for (const auto &[target, count] : s.targetCounts)
    ops.push_back(JsonValue::object({{"target", target}, {"count", count}}));
  j["ops"] = ops;
  if (wrapper) {
    JsonValue kernels = JsonValue::array();
    for (const auto &k : wrapper->kernels)
      kernels.push_back(JsonValue::object({{"name", k.name},
                                           {"kind", k.kind},
                                           {"launches", k.launches},
                                           {"fuses", k.sourceNodes},
                                           {"aten", k.atenOps}}));
    JsonValue storages = JsonValue::array();
    for (const auto &st : wrapper->storages)
      storages.push_back(JsonValue::object({{"name", st.name},
                                            {"type", st.type},
                                            {"bytes", st.bytes},
                                            {"reused_as", st.reusedAs},
                                            {"freed", st.freedAt.has_value()}}));
    JsonValue externs = JsonValue::array();
    for (const auto &e : wrapper->externs)
      externs.push_back(JsonValue::object({{"op", e.op}, {"out", e.outs}}));
    j["wrapper"] = JsonValue::object({{"kernels", kernels},
                                      {"allocations", storages},
                                      {"frees", wrapper->frees},
                                      {"extern_calls", externs},
                                      {"peak_bytes", wrapper->peakBytes}});
  }
  if (const ProvenanceAttachResult *source = provenanceAttachResult(*graph);
      source || hasProvenance(*graph)) {
    JsonValue p;
    if (source) {
      p["file"] = source->file;
      p["stage"] = provenanceStageName(source->stage);
      p["file_entries"] = source->fileEntries;
      p["unmatched_handles"] = source->unmatchedHandles;
    }
    JsonValue nodes = JsonValue::array();
    for (const Node *n : *graph)
      if (const NodeProvenance *np = n->provenance())
        nodes.push_back(JsonValue::object({{"name", n->name()},
                                           {"kernels", np->kernels},
                                           {"post_grad", np->postGrad},
                                           {"pre_grad", np->preGrad}}));
    p["nodes"] = nodes;
    j["provenance"] = p;
  }
  std::cout << j.dump(2) << "\n";
  return kExitOk;
}

} // namespace

namespace {
int runCliUnguarded(int argc, char **argv);
} // namespace

int runCli(int argc, char **argv) {
  // The last guard: fxkit's libraries return errors as values and check sizes before they
  // allocate, but an allocation the checks did not foresee must still end in an error and
  // exit code 2, not in std::terminate (SIGABRT) with a core dump.
  try {
    return runCliUnguarded(argc, argv);
  } catch (const std::bad_alloc &) {
    std::cerr << "fxkit: error: out of memory (a tensor or graph larger than this machine "
                 "can hold)\n";
    return kExitBadInput;
  }
}

namespace {

int runCliUnguarded(int argc, char **argv) {
  // The REPL's command language has its own small front end (repl/ReplShell.h).
  if (isReplInvocation(argc, argv))
    return runReplCli(argc, argv);
  CLI::App app{"fxkit: read, transform and write PyTorch compiler graphs"};
  app.footer("Shell: fxkit repl [FILE...], fxkit -c \"CMD; CMD\" [FILE...], fxkit -f SCRIPT "
             "[FILE...] (see `help` inside)");
  app.require_subcommand(1);
  app.set_version_flag("--version", "fxkit 0.1.0");

  std::string input, output = "-", from, to, provenance;
  bool json = false;

  // Several inputs (shell globs arrive expanded) make a batch into the folder -o names.
  std::vector<std::string> convertInputs;
  unsigned convertJobs = 0;
  CLI::App *convert = app.add_subcommand("convert", "Convert graphs between formats");
  convert->add_option("input", convertInputs, "Input graph files (- for stdin)")->required();
  convert->add_option("-o,--output", output,
                      "Output file (- for stdout, the default); with several inputs, a folder "
                      "(created if missing)");
  convert
      ->add_option("--jobs", convertJobs, "Several inputs: worker threads (default: one per core)")
      ->check(CLI::PositiveNumber);
  bool convertKeepTree = false, convertFlat = false;
  auto *keepTree = convert->add_flag(
      "--keep-tree", convertKeepTree,
      "Several inputs: write each at its input's path below the inputs' common folder, "
      "sub-folders created (the default when two inputs share a name)");
  convert
      ->add_flag("--flat", convertFlat,
                 "Several inputs: write every output directly in the folder (two inputs with one "
                 "name are refused)")
      ->excludes(keepTree);
  convert->add_option("--from", from,
                      "Input format: " + inputFormatList() + " (default: from name/content)");
  convert->add_option("--to", to,
                      "Output format: " + outputFormatHelp(OutputUse::Convert) +
                          " (default: from the output name)");
  addProvenanceOption(convert, provenance);
  RenderOptions render;
  std::string collapse;
  auto addPictureOptions = [&](CLI::App *cmd) {
    cmd->add_flag("--fusion", render.fusion,
                  "Pictures of compiled programs: refused fusions as dashed edges with reasons");
    cmd->add_option("--collapse", collapse,
                    "Pictures: one box per kernel or per module path (kernel, module)")
        ->check(CLI::IsMember({"kernel", "module", "none"}));
  };
  addPictureOptions(convert);
  std::string modules;
  convert->add_option("--modules", modules,
                      "Pictures, --collapse module of a post-grad graph: the Dynamo graph it was "
                      "traced from (dynamo_N.graph.txt), whose modules its nodes take through "
                      "Inductor's provenance (--provenance)");

  CLI::App *info = app.add_subcommand("info", "Summarize a graph: nodes, ops, inputs, outputs");
  info->add_option("input", input, "Input graph file (- for stdin)")->required();
  info->add_option("--from", from, "Input format: " + inputFormatList());
  info->add_flag("--json", json, "Print JSON");
  addProvenanceOption(info, provenance);

  RunCommandOptions runOptions;
  CLI::App *run = app.add_subcommand(
      "run", "Run a graph: reference interpreter, compiled loop program, or OpenCL kernels");
  addGraphInputOptions(run, runOptions);
  addOptionRows(
      run,
      {{"--inputs", &runOptions.inputs,
        "Inputs as safetensors (arg_<i>; integers in __metadata__); default: seeded random "
        "inputs from the placeholders' types"},
       {"--check", &runOptions.check,
        "Expected outputs as safetensors (out_<i>): print errors, exit 1 on mismatch"},
       {"--rtol", &runOptions.rtol, "Relative tolerance (default 1e-4; f16 1e-3, bf16 1.6e-2)"},
       {"--atol", &runOptions.atol, "Absolute tolerance (default 1e-4; f16/bf16 1e-3)"},
       {"-o,--output", &runOptions.output, "Write the outputs as safetensors (out_<i>)"},
       {"--sym", &runOptions.symbols, "Symbol value for random inputs: s77=33"},
       {"--seed", &runOptions.seed, "Seed of the random inputs (default 0)"},
       {"--backend", &runOptions.backend, backendHelp()},
       {"--wrapper", &runOptions.wrapper,
        "cpp-wrapper: the folder `fxkit compile G -o DIR --build` wrote (rebuilt first if its "
        "sources changed or its object is corrupt); default: the graph's own wrapper, written "
        "and built in the kernel cache"},
       {"--device", &runOptions.device,
        "OpenCL device: cpu, gpu or a number from `fxkit devices` (default: "
        "$FXKIT_OPENCL_DEVICE, else the first GPU, else the first device)"},
       {"!--no-tune", &runOptions.tune, "OpenCL: do not autotune launch configurations"},
       {"!--no-cache", &runOptions.cache, "OpenCL: do not use the on-disk kernel cache"},
       {"--cache-dir", &runOptions.cacheDir,
        "OpenCL kernel cache (default $FXKIT_CACHE_DIR, else $XDG_CACHE_HOME/fxkit)"},
       {"--stats", &runOptions.stats, "OpenCL: print build, tuning and launch counts"},
       {"--repeat", &runOptions.repeat, "Run this many times (default 1)"},
       {"--profile", &runOptions.profile,
        "OpenCL: time kernels with device events (shown with --stats)"},
       {"--resident", &runOptions.resident,
        "OpenCL: keep the inputs on the device after the first run (with the memory pool and "
        "the kernels) and read the outputs once, after the last: the steady state --repeat "
        "times, as torch.compile is timed on inputs already on the GPU"}});

  CLI::App *devices = app.add_subcommand("devices", "List OpenCL platforms and devices");
  CLI::App *passes = app.add_subcommand(
      "passes", "List the registered passes: the level each reads and writes (graph, loops, "
                "kernels, plan, wrapper), pipelines' steps, options");

  OpsCommandOptions opsOptions;
  CLI::App *ops = app.add_subcommand(
      "ops", "List the op registry: per overload its category, inference, reference kernel, "
             "compiled form and Core ATen membership");
  auto *opsJson = ops->add_flag("--json", opsOptions.json, "Print JSON");
  ops->add_flag("--markdown", opsOptions.markdown, "Print the coverage table of docs/ops.md")
      ->excludes(opsJson);
  ops->add_flag("--core", opsOptions.coreOnly, "Only Core ATen overloads");

  PlanCommandOptions planOptions;
  CLI::App *plan = addPlanSubcommand(app, planOptions);

  BisectCommandOptions bisectOptions;
  CLI::App *bisect = addBisectSubcommand(app, bisectOptions);

  DiffCommandOptions diffOptions;
  CLI::App *diff = addDiffSubcommand(app, diffOptions);

  FuseCommandOptions fuseOptions;
  CLI::App *fuse =
      app.add_subcommand("fuse", "Lower a graph to loop ops and fuse them into kernels");
  addGraphInputOptions(fuse, fuseOptions);
  addOptionRows(
      fuse, {{"--explain", &fuseOptions.explain,
              "Print every fusion decision (taken or refused, with its reason) and the kernels"},
             {"--loops", &fuseOptions.loops, "Print the lowered loop program"},
             {"--no-fusion", &fuseOptions.noFusion, "One kernel per loop op (the baseline)"},
             {"--plan", &fuseOptions.plan,
              "Plan memory and print where every buffer lives (offsets, in-place, lifetimes)"}});

  CompileCommandOptions compileOptions;
  CLI::App *compile =
      app.add_subcommand("compile", "Run compiler passes on a graph and write the result");
  addGraphInputOptions(compile, compileOptions);
  addOptionRows(
      compile,
      {{"--passes", &compileOptions.passes,
        "Comma-separated passes (default lower,fuse,plan,wrapper)"},
       {"--time-passes", &compileOptions.timePasses, "Print each pass's time"},
       {"-o,--output", &compileOptions.output,
        "Output file (- for stdout); a folder for wrapper-cpp"},
       {"--name", &compileOptions.name,
        "wrapper-cpp: the program's name (namespace, files, CMake targets)"},
       {"--to", &compileOptions.to,
        "Output format: " + outputFormatHelp(OutputUse::Compile) +
            " (default: from the output name)"},
       {"--gpu-arch", &compileOptions.gpuArch, "ptx: the NVIDIA architecture (default sm_80)"},
       {"--build", &compileOptions.build,
        "wrapper-cpp (implied): also compile the wrapper in process with Clang into DIR/NAME.o, "
        "skipped when up to date; run it with `fxkit run G --backend cpp-wrapper --wrapper DIR` "
        "(needs LLVM)"}});
  addPictureOptions(compile);

  ReportCommandOptions reportOptions;
  CLI::App *report = app.add_subcommand(
      "report", "Compile a graph and write a self-contained HTML report (picture, kernels, "
                "fusion decisions, memory timeline, pass times); for a folder (TORCH_COMPILE_DEBUG "
                "or a zoo model), an offline site of every graph of every stage with provenance "
                "links");
  addGraphInputOptions(report, reportOptions);
  report->add_option("-o,--output", reportOptions.output,
                     "HTML file (default report.html); for a folder input, the site's folder "
                     "(default report)");

  // Listed with the others; `fxkit repl ...` is taken before this parser (isReplInvocation).
  app.add_subcommand("repl", "The interactive shell: load, inspect, edit with undo, export "
                             "(fxkit repl --help; scripts: fxkit -c, fxkit -f)");
  std::string helpTopic;
  CLI::App *help = app.add_subcommand("help", "Help on fxkit or one subcommand: fxkit help CMD");
  help->add_option("command", helpTopic, "The subcommand");

  convert->footer("Examples:\n  fxkit convert model.graph.txt -o model.json\n"
                  "  fxkit convert output_code.py --to svg -o program.svg\n"
                  "  fxkit convert debug/*.graph.txt -o out/ --to json --jobs 2\n"
                  "  fxkit convert $(find zoo -name '*.graph.txt') -o out/ --to json "
                  "--keep-tree");
  info->footer("Examples:\n  fxkit info model.graph.txt\n  fxkit info output_code.py --json");
  run->footer("Examples:\n  fxkit run model.graph.txt --sym s0=8\n"
              "  fxkit run model.graph.txt --backend opencl --inputs in.safetensors "
              "--check out.safetensors");
  devices->footer("Example:\n  fxkit devices");
  passes->footer("Example:\n  fxkit passes");
  ops->footer("Examples:\n  fxkit ops --core\n  fxkit ops --json > ops.json");
  plan->footer("Examples:\n  fxkit plan --wrapper output_code.py --timeline plan.svg\n"
               "  fxkit plan --intervals buffers.csv --capacity 1048576 -o offsets.csv");
  fuse->footer("Examples:\n  fxkit fuse model.graph.txt --explain\n"
               "  fxkit fuse model.graph.txt --plan");
  compile->footer("Examples:\n  fxkit compile model.graph.txt -o model_wrapper.py\n"
                  "  fxkit compile model.graph.txt --to wrapper-cpp -o out/ --build\n"
                  "  fxkit compile model.graph.txt --passes lower,fuse --to svg -o kernels.svg");
  report->footer("Examples:\n  fxkit report model.graph.txt -o report.html\n"
                 "  fxkit report torch_compile_debug/run_1/torchinductor -o site/");

  auto findSub = [&app](std::string_view name) -> CLI::App * {
    for (CLI::App *sub : app.get_subcommands([](CLI::App *) { return true; }))
      if (sub->get_name() == name)
        return sub;
    return nullptr;
  };
  std::vector<std::string> subcommandNames;
  std::vector<std::string_view> subcommandViews;
  for (const CLI::App *sub : app.get_subcommands([](const CLI::App *) { return true; }))
    subcommandNames.push_back(sub->get_name());
  subcommandViews.assign(subcommandNames.begin(), subcommandNames.end());
  // `fxkit conver x`: CLI11 would only say that a subcommand is required.
  if (argc >= 2 && argv[1][0] != '-' &&
      std::find(subcommandNames.begin(), subcommandNames.end(), argv[1]) == subcommandNames.end()) {
    std::cerr << "fxkit: error: unknown command '" << printableText(argv[1]) << "'";
    if (std::string hint = didYouMean(closestSpellings(argv[1], subcommandViews)); !hint.empty())
      std::cerr << "; " << hint;
    std::cerr << " (commands: ";
    for (size_t i = 0; i < subcommandNames.size(); ++i)
      std::cerr << (i ? ", " : "") << subcommandNames[i];
    std::cerr << "; fxkit help CMD)\n";
    return kExitBadInput;
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success &e) {
    app.exit(e);
    return kExitOk;
  } catch (const CLI::ParseError &e) {
    app.exit(e);
    // An option that is not one: the closest options of the subcommand it was given to.
    CLI::App *sub = argc >= 2 ? findSub(argv[1]) : nullptr;
    if (sub && (dynamic_cast<const CLI::ExtrasError *>(&e) ||
                dynamic_cast<const CLI::ArgumentMismatch *>(&e))) {
      std::vector<std::string> names;
      for (const CLI::Option *o : sub->get_options()) {
        for (const std::string &l : o->get_lnames())
          names.push_back("--" + l);
      }
      std::vector<std::string_view> views(names.begin(), names.end());
      for (int i = 2; i < argc; ++i) {
        std::string_view a = argv[i];
        a = a.substr(0, a.find('='));
        if (!a.starts_with("--") || sub->get_option_no_throw(std::string(a)))
          continue;
        if (std::string hint = didYouMean(closestSpellings(a, views)); !hint.empty())
          std::cerr << "fxkit: unknown option '" << a << "'; " << hint << "\n";
      }
    }
    return kExitBadInput;
  }
  if (help->parsed()) {
    // CLI11's help() of an app shows its parsed subcommand's: format the app itself.
    auto printHelp = [](std::string text) {
      std::cout << text << (text.ends_with('\n') ? "" : "\n");
    };
    if (helpTopic.empty()) {
      printHelp(app.get_formatter()->make_help(&app, "fxkit", CLI::AppFormatMode::Normal));
      return kExitOk;
    }
    if (helpTopic == "repl") {
      std::cout << replHelpText();
      return kExitOk;
    }
    if (CLI::App *sub = findSub(helpTopic); sub && sub != help) {
      printHelp(sub->help("fxkit"));
      return kExitOk;
    }
    std::cerr << "fxkit: error: no command named '" << printableText(helpTopic) << "'";
    if (std::string hint = didYouMean(closestSpellings(helpTopic, subcommandViews)); !hint.empty())
      std::cerr << "; " << hint;
    std::cerr << "\n";
    return kExitBadInput;
  }
  if (!collapse.empty())
    render.collapse = *parseCollapseMode(collapse);
  if (convert->parsed()) {
    std::optional<Graph> moduleSource;
    if (!modules.empty()) {
      if (convertInputs.size() != 1)
        return reportError(Error("--modules names one graph's Dynamo graph: convert one input "
                                 "with it"));
      auto dynamo = importGraphFile(modules);
      if (!dynamo)
        return reportError(dynamo.error());
      moduleSource = dynamo.take();
      render.moduleSource = &*moduleSource;
    }
    if (convertInputs.size() == 1)
      return runConvert(convertInputs.front(), output, from, to, render, provenance);
    if (!provenance.empty())
      return reportError(Error("--provenance names one graph's mapping: convert one input with "
                               "it (with several, each wrapper takes the mapping of its own "
                               "debug folder)"));
    return runBatch(convertInputs, output, from, to, convertJobs,
                    convertKeepTree ? BatchLayout::KeepTree
                    : convertFlat   ? BatchLayout::Flat
                                    : BatchLayout::Auto);
  }
  if (info->parsed())
    return runInfo(input, from, json, provenance);
  if (run->parsed())
    return runRunCommand(runOptions);
  if (devices->parsed())
    return runDevicesCommand();
  if (passes->parsed()) {
    std::cout << describePasses();
    return kExitOk;
  }
  if (ops->parsed())
    return runOpsCommand(opsOptions);
  if (plan->parsed())
    return runPlanCommand(planOptions);
  if (fuse->parsed())
    return runFuseCommand(fuseOptions);
  if (compile->parsed()) {
    compileOptions.fusion = render.fusion;
    compileOptions.collapse = collapse;
    return runCompileCommand(compileOptions);
  }
  if (report->parsed())
    return runReportCommand(reportOptions);
  if (bisect->parsed())
    return runBisectCommand(bisectOptions);
  if (diff->parsed())
    return runDiffCommand(diffOptions);
  return kExitBadInput;
}

} // namespace

} // namespace fxkit
