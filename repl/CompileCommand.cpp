#include "repl/CompileCommand.h"

#include "backends/opencl/codegen/OpenCLKernelGen.h"
#ifdef FXKIT_HAVE_CPP_WRAPPER_BUILD
#include "backends/cppwrapper/WrapperBuild.h"
#endif
#ifdef FXKIT_HAVE_LLVM
#include "backends/llvm/PtxExport.h"
#endif
#include "exporters/Export.h"
#include "exporters/FolderOutput.h"
#include "exporters/MemoryTimeline.h"
#include "exporters/wrapper/FxIrWriter.h"
#include "exporters/wrapper/GraphRender.h"
#include "exporters/wrapper/InductorFxIr.h"
#include "exporters/wrapper/OpenCLSources.h"
#include "exporters/wrapper/WrapperCppWriter.h"
#include "exporters/wrapper/WrapperPyWriter.h"
#include "importers/Import.h"
#include "importers/inductor/InductorWrapper.h"
#include "repl/Cli.h"
#include "transforms/CompilationState.h"
#include "transforms/Pass.h"

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace fxkit {

namespace {

/// The OpenCL C of the compiled program's kernels (`--to opencl`).
Expected<std::string> openclSource(Graph &graph) {
  CompilationState *state = compilationState(graph);
  if (!state || !state->program || !state->fused)
    return Error("--to opencl needs the lower and fuse passes");
  auto code = opencl::generateOpenCL(*state->program, *state->fused);
  if (!code)
    return code.takeError();
  return code->source();
}

#ifndef FXKIT_RUNTIME_CMAKE
#define FXKIT_RUNTIME_CMAKE ""
#endif

/// `--to wrapper-cpp -o DIR`: the header, source, driver and CMakeLists.txt, each written
/// atomically, all generated before any is written. Returns the wrapper's name.
Expected<std::string> writeWrapperCppFolder(Graph &graph, const CompileCommandOptions &options) {
  if (options.output.empty() || options.output == "-")
    return Error("--to wrapper-cpp writes several files: give a folder with -o DIR");
  std::string name = options.name.empty() ? wrapperNameFor(options.graph) : options.name;
  auto files = writeWrapperCpp(graph, name, FXKIT_RUNTIME_CMAKE);
  if (!files)
    return files.takeError();
  const FolderFile folder[] = {{files->name + ".h", files->header},
                               {files->name + ".cpp", files->source},
                               {"driver.cpp", files->driver},
                               {"CMakeLists.txt", files->cmake}};
  // `--build` adds the object and its stamp, which say themselves whether they are up to date
  // (a key of the sources): kept for the next `--build`, like `cmake -S DIR -B DIR/build` (the
  // README's way to build it), which is the user's. Objects of other names are replaced.
  const std::string object = files->name + ".o", stamp = object + ".stamp";
  const std::string_view owned[] = {".o", ".o.stamp"};
  const std::string_view kept[] = {"build", object, stamp};
  if (Status s = writeFolderAtomic(options.output, folder, owned, kept); !s)
    return s.takeError();
  return files->name;
}

/// `--build`: DIR/NAME.o compiled in process (or found up to date); one line on stderr.
Status buildWrapperObject(const std::string &dir, const std::string &name) {
#ifdef FXKIT_HAVE_CPP_WRAPPER_BUILD
  auto built = cppwrapper::buildWrapper(dir, name);
  if (!built)
    return built.takeError();
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.3f", built->seconds);
  if (built->cached)
    std::cerr << "fxkit: " << built->objectPath << ": cached (up to date)\n";
  else
    std::cerr << "fxkit: " << built->objectPath << ": built in " << seconds << " s ("
              << cppwrapper::wrapperCompilerDescription() << ")"
              << (built->replacedCorrupt ? "; replaced a corrupt object" : "") << "\n";
  return Status::ok();
#else
  (void)dir;
  (void)name;
  return Error("--build compiles the C++ wrapper with the LLVM component: this fxkit was built "
               "without it (install llvm-15-dev libclang-15-dev and rebuild)");
#endif
}

/// `--to opencl -o DIR` (a path not ending in .cl): a .cl file per kernel and manifest.json,
/// all generated before any is written.
Status writeOpenCLFolder(Graph &graph, const std::string &dir) {
#ifdef FXKIT_HAVE_JSON
  CompilationState *state = compilationState(graph);
  if (!state || !state->program || !state->fused)
    return Error("--to opencl needs the lower and fuse passes");
  auto files =
      writeOpenCLSources(*state->program, *state->fused, state->plan ? &*state->plan : nullptr);
  if (!files)
    return files.takeError();
  std::vector<FolderFile> folder;
  for (const auto &[file, text] : *files)
    folder.push_back({file, text});
  const std::string_view owned[] = {".cl"};
  return writeFolderAtomic(dir, folder, owned);
#else
  return Error("--to opencl -o DIR writes a JSON manifest: this fxkit was built without "
               "nlohmann-json; use -o FILE.cl");
#endif
}

/// `--to dot|svg|png|pdf`: the picture of the compiled program (or of the graph, when no
/// compiler pass ran).
Expected<std::string> picture(const Graph &graph, GraphFormat format,
                              const CompileCommandOptions &options) {
  RenderOptions render;
  render.fusion = options.fusion;
  if (!options.collapse.empty()) {
    auto mode = parseCollapseMode(options.collapse);
    if (!mode)
      return Error("unknown --collapse '" + options.collapse + "' (expected kernel or module)");
    render.collapse = *mode;
  }
  RenderFormat f = format == GraphFormat::Svg   ? RenderFormat::Svg
                   : format == GraphFormat::Png ? RenderFormat::Png
                   : format == GraphFormat::Pdf ? RenderFormat::Pdf
                                                : RenderFormat::Dot;
  return renderGraph(graph, f, render);
}

Expected<std::string> timelineSvg(const Graph &graph, const std::string &input) {
  auto timeline = memoryTimelineOf(graph);
  if (!timeline)
    return timeline.takeError();
  timeline->title = "memory plan of " + input;
  return writeMemoryTimelineSvg(*timeline);
}

bool isPicture(GraphFormat f) {
  return f == GraphFormat::Dot || f == GraphFormat::Svg || f == GraphFormat::Png ||
         f == GraphFormat::Pdf;
}

/// `--to ptx -o DIR`: one .ptx per kernel and manifest.json, all compiled before any is written.
Status writePtxFolder(Graph &graph, const CompileCommandOptions &options) {
#ifdef FXKIT_HAVE_LLVM
  if (options.output.empty() || options.output == "-")
    return Error("--to ptx writes several files: give a folder with -o DIR");
  CompilationState *state = compilationState(graph);
  if (!state || !state->program || !state->fused)
    return Error("--to ptx needs the lower and fuse passes");
  llvmjit::PtxExportOptions ptxOptions;
  ptxOptions.arch = options.gpuArch;
  auto files = llvmjit::exportPtx(*state->program, *state->fused, ptxOptions);
  if (!files)
    return files.takeError();
  std::vector<FolderFile> folder;
  for (const llvmjit::PtxFile &f : *files)
    folder.push_back({f.name, f.text});
  const std::string_view owned[] = {".ptx"};
  return writeFolderAtomic(options.output, folder, owned);
#else
  return Error("--to ptx needs a build with LLVM (install llvm-15-dev libclang-15-dev)");
#endif
}

} // namespace

std::string wrapperNameFor(const std::string &graphPath) {
  std::string name = std::filesystem::path(graphPath).filename().string();
  name = name.substr(0, name.find('.'));
  for (char &c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])))
    name = "model_" + name;
  return name;
}

int runCompileCommand(const CompileCommandOptions &given) {
  CompileCommandOptions options = given;
  auto fail = [](const Error &e) {
    std::cerr << "fxkit: " << e.str() << "\n";
    return kExitBadInput;
  };
  if (options.build && !options.to.empty() && options.to != "wrapper-cpp")
    return fail(Error("--build compiles the C++ wrapper: it goes with --to wrapper-cpp, not '" +
                      options.to + "'"));
  if (options.build) {
#ifndef FXKIT_HAVE_CPP_WRAPPER_BUILD
    return fail(Error("--build compiles the C++ wrapper with the LLVM component: this fxkit was "
                      "built without it (install llvm-15-dev libclang-15-dev and rebuild)"));
#endif
    options.to = "wrapper-cpp";
  }
  std::optional<GraphFormat> in, out;
  if (!options.from.empty() && !(in = parseGraphFormat(options.from)))
    return fail(Error("unknown format '" + options.from + "' for --from"));
  // Program writers (they read the compiled program, not only the graph).
  const bool program = options.to == "wrapper-py" || options.to == "wrapper-cpp" ||
                       options.to == "fxir" || options.to == "fxir-code" ||
                       options.to == "opencl" || options.to == "timeline" || options.to == "ptx";
  if (program)
    out = GraphFormat::FxText;
  else if (!options.to.empty() && !(out = parseGraphFormat(options.to)))
    return fail(Error("unknown format '" + options.to + "' for --to"));
  if (!out)
    out = options.output == "-" ? GraphFormat::FxText : detectGraphFormat(options.output, {});
  if (!out)
    return fail(Error("cannot tell the output format from '" + options.output + "': use --to"));
  std::vector<std::string> passes;
  std::stringstream list(options.passes);
  for (std::string name; std::getline(list, name, ',');)
    if (!name.empty())
      passes.push_back(name);
  auto graph = importGraphFile(options.graph, in, true, options.provenance);
  if (!graph)
    return fail(graph.error());
  auto runs = runPipeline(*graph, passes);
  if (!runs)
    return fail(runs.error());
  if (options.timePasses) {
    double total = 0;
    for (const PassRun &r : *runs) {
      std::fprintf(stderr, "%-22s %10.3f ms  %s\n", r.name.c_str(), r.seconds * 1e3,
                   r.changed ? "changed" : "unchanged");
      total += r.seconds;
    }
    std::fprintf(stderr, "%-22s %10.3f ms\n", "total", total * 1e3);
  }
  if (options.to == "opencl" && options.output != "-" && !options.output.ends_with(".cl")) {
    if (Status s = writeOpenCLFolder(*graph, options.output); !s)
      return fail(s.error());
    return kExitOk;
  }
  if (options.to == "ptx") {
    if (Status s = writePtxFolder(*graph, options); !s)
      return fail(s.error());
    return kExitOk;
  }
  if (options.to == "wrapper-cpp") {
    auto name = writeWrapperCppFolder(*graph, options);
    if (!name)
      return fail(name.error());
    if (options.build)
      if (Status s = buildWrapperObject(options.output, *name); !s)
        return fail(s.error());
    return kExitOk;
  }
  if ((options.to == "fxir" || options.to == "fxir-code") && inductorWrapperInfo(*graph)) {
    // A program imported from Inductor's wrapper code (after passes such as
    // substitute-size-args): its own FX IR, not that of an fxkit compilation.
    std::string added;
    auto fx = writeInductorFxIr(*graph, options.to == "fxir-code", added);
    if (!fx)
      return fail(fx.error());
    if (Status s = writeFileAtomic(options.output, *fx); !s)
      return fail(s.error());
    if (!added.empty())
      std::cerr << "fxkit: fxir: node kinds PyTorch's WrapperFxCodegen does not convert: " << added
                << "\n";
    return kExitOk;
  }
  auto text = options.to == "wrapper-py"  ? writeWrapperPy(*graph)
              : options.to == "fxir"      ? writeFxIr(*graph)
              : options.to == "fxir-code" ? writeFxIrCode(*graph)
              : options.to == "opencl"    ? openclSource(*graph)
              : options.to == "timeline"  ? timelineSvg(*graph, options.graph)
              : isPicture(*out)           ? picture(*graph, *out, options)
                                          : exportGraph(*graph, *out);
  if (!text)
    return fail(text.error());
  if (Status s = writeFileAtomic(options.output, *text); !s)
    return fail(s.error());
  return kExitOk;
}

} // namespace fxkit
