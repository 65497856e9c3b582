#include "repl/OutputFormats.h"

#include "backends/cppwrapper/WrapperBuild.h"
#include "backends/llvm/PtxExport.h"
#include "backends/opencl/codegen/OpenCLKernelGen.h"
#include "exporters/Export.h"
#include "exporters/FolderOutput.h"
#include "exporters/GraphvizRender.h"
#include "exporters/MemoryTimeline.h"
#include "exporters/ModulePath.h"
#include "exporters/report/ModelExplorerJson.h"
#include "exporters/wrapper/FxIrWriter.h"
#include "exporters/wrapper/GraphRender.h"
#include "exporters/wrapper/InductorFxIr.h"
#include "exporters/wrapper/InductorModule.h"
#include "exporters/wrapper/OpenCLSources.h"
#include "exporters/wrapper/WrapperCppWriter.h"
#include "exporters/wrapper/WrapperPyWriter.h"
#include "importers/inductor/InductorWrapper.h"
#include "ir/Try.h"
#include "repl/CompileCommand.h"
#include "support/PyLexer.h"
#include "transforms/CompilationState.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string_view>
#include <unistd.h>

namespace fxkit {

namespace {

using Written = Expected<OutputResult>;

// FXKIT_RUNTIME_CMAKE (repl/CMakeLists.txt, always defined): the package file an exported C++
// wrapper's CMakeLists.txt includes, empty where this build has no wrapper runtime.

Written text(Expected<std::string> t) {
  if (!t)
    return t.takeError();
  return OutputResult{t.take(), {}};
}

Written folderWritten(Status s) {
  if (!s)
    return s.takeError();
  return OutputResult{};
}

template <GraphFormat F> Written writeGraph(Graph &graph, const OutputRequest &request) {
  return text(exportGraph(graph, F, request.output));
}

/// fxpy; of a program read from Inductor's wrapper code with Triton kernels (convert), a module
/// that runs them, where every launch has an FX IR form; otherwise the wrapper graph, with a
/// note saying why.
Written writeFxPy(Graph &graph, const OutputRequest &request) {
  if (request.inductorModule && inductorWrapperInfo(graph)) {
    auto module =
        writeInductorModule(graph, std::filesystem::path(request.input).filename().string());
    if (module)
      return OutputResult{module.take(), {}};
    std::cerr << "fxkit: note: no runnable module (" << module.error().message
              << "); writing the wrapper graph as fxpy\n";
  }
  return text(exportGraph(graph, GraphFormat::FxPy, request.output));
}

/// Graphviz's warnings (a bitmap scaled down to fit) become the note, one a line.
template <RenderFormat F> Written writePicture(Graph &graph, const OutputRequest &request) {
  std::vector<std::string> warnings;
  Written written = text(renderGraph(graph, F, request.render, &warnings));
  if (written)
    for (const std::string &w : warnings)
      written->note += (written->note.empty() ? "" : "\n") + w;
  return written;
}

/// fxir, fxir-code: a program read from Inductor's wrapper code (also after passes such as
/// substitute-size-args) is its own FX IR; fxkit's compiled program is that of its wrapper pass.
template <bool Code> Written writeFxIrOf(Graph &graph, const OutputRequest &request) {
  if (inductorWrapperInfo(graph) || !request.compiled) {
    std::string added;
    FXKIT_ASSIGN_OR_RETURN(auto fx, writeInductorFxIr(graph, Code, added));
    OutputResult result{std::move(fx), {}};
    if (!added.empty())
      result.note = "fxir: node kinds PyTorch's WrapperFxCodegen does not convert: " + added;
    return result;
  }
  return text(Code ? writeFxIrCode(graph) : writeFxIr(graph));
}

Written writeWrapperPyOf(Graph &graph, const OutputRequest &) {
  return text(writeWrapperPy(graph));
}

/// wrapper-cpp: the header, source, driver and CMakeLists.txt, each written atomically, all
/// generated before any is written; with `build`, DIR/NAME.o compiled in process (or found up
/// to date), one line on stderr.
Written writeWrapperCppFolder(Graph &graph, const OutputRequest &request) {
  if (request.output.empty() || request.output == "-")
    return Error("--to wrapper-cpp writes several files: give a folder with -o DIR");
  std::string name = request.name.empty() ? wrapperNameFor(request.input) : request.name;
  FXKIT_ASSIGN_OR_RETURN(auto files, writeWrapperCpp(graph, name, FXKIT_RUNTIME_CMAKE));
  const FolderFile folder[] = {{files.name + ".h", files.header},
                               {files.name + ".cpp", files.source},
                               {"driver.cpp", files.driver},
                               {"CMakeLists.txt", files.cmake}};
  // `--build` adds the object and its stamp, which say themselves whether they are up to date
  // (a key of the sources): kept for the next `--build`, like `cmake -S DIR -B DIR/build` (the
  // README's way to build it), which is the user's. Objects of other names are replaced.
  const std::string object = files.name + ".o", stamp = object + ".stamp";
  const std::string_view owned[] = {".o", ".o.stamp"};
  const std::string_view kept[] = {"build", object, stamp};
  FXKIT_TRY(writeFolderAtomic(request.output, folder, owned, kept));
  if (!request.build)
    return OutputResult{};
  if constexpr (cppwrapper::kHaveWrapperBuild) {
    FXKIT_ASSIGN_OR_RETURN(auto built, cppwrapper::buildWrapper(request.output, files.name));
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.3f", built.seconds);
    if (built.cached)
      std::cerr << "fxkit: " << built.objectPath << ": cached (up to date)\n";
    else
      std::cerr << "fxkit: " << built.objectPath << ": built in " << seconds << " s ("
                << cppwrapper::wrapperCompilerDescription() << ")"
                << (built.replacedCorrupt ? "; replaced a corrupt object" : "") << "\n";
    return OutputResult{};
  } else {
    return Error(std::string(kNoWrapperBuildMessage));
  }
}

/// opencl: the kernels' OpenCL C in one file (stdout or `-o X.cl`), else a folder of one .cl
/// file per kernel and manifest.json, all generated before any is written.
Written writeOpenCLOf(Graph &graph, const OutputRequest &request) {
  CompilationState *state = compilationState(graph);
  if (!state || !state->program || !state->fused)
    return Error("--to opencl needs the lower and fuse passes");
  if (request.output == "-" || request.output.ends_with(".cl")) {
    FXKIT_ASSIGN_OR_RETURN(auto code, opencl::generateOpenCL(*state->program, *state->fused));
    return OutputResult{code.source(), {}};
  }
  if constexpr (kHaveJsonFormats) {
    auto files =
        writeOpenCLSources(*state->program, *state->fused, state->plan ? &*state->plan : nullptr);
    if (!files)
      return files.takeError();
    std::vector<FolderFile> folder;
    for (const auto &[file, source] : *files)
      folder.push_back({file, source});
    const std::string_view owned[] = {".cl"};
    return folderWritten(writeFolderAtomic(request.output, folder, owned));
  } else {
    return Error("--to opencl -o DIR writes a JSON manifest: this fxkit was built without "
                 "nlohmann-json; use -o FILE.cl");
  }
}

/// ptx: one .ptx per kernel and manifest.json, all compiled before any is written.
Written writePtxFolder(Graph &graph, const OutputRequest &request) {
  if constexpr (llvmjit::kHavePtxExport) {
    if (request.output.empty() || request.output == "-")
      return Error("--to ptx writes several files: give a folder with -o DIR");
    CompilationState *state = compilationState(graph);
    if (!state || !state->program || !state->fused)
      return Error("--to ptx needs the lower and fuse passes");
    llvmjit::PtxExportOptions options;
    options.arch = request.gpuArch;
    FXKIT_ASSIGN_OR_RETURN(auto files, llvmjit::exportPtx(*state->program, *state->fused, options));
    std::vector<FolderFile> folder;
    for (const llvmjit::PtxFile &f : files)
      folder.push_back({f.name, f.text});
    const std::string_view owned[] = {".ptx"};
    return folderWritten(writeFolderAtomic(request.output, folder, owned));
  } else {
    (void)graph;
    (void)request;
    return Error("--to ptx needs a build with LLVM (install llvm-15-dev libclang-15-dev)");
  }
}

/// model-explorer: the graph with the report viewer's overlays; fxkit's kernels where the
/// graph's loop ops were fused (their origins name its nodes).
Written writeModelExplorer(Graph &graph, const OutputRequest &request) {
  ViewerGraph viewer = viewerGraphOf(graph, modulePaths(graph));
  if (const CompilationState *state = compilationState(graph);
      state && state->program && state->fused)
    addFxkitKernels(viewer, *state->program, *state->fused);
  std::string label = std::filesystem::path(request.input).filename().string();
  return OutputResult{writeModelExplorerJson(viewer, label.empty() ? "graph" : label), {}};
}

Written writeTimeline(Graph &graph, const OutputRequest &request) {
  FXKIT_ASSIGN_OR_RETURN(auto timeline, memoryTimelineOf(graph));
  timeline.title = "memory plan of " + request.input;
  return text(writeMemoryTimelineSvg(timeline));
}

constexpr std::string_view kGraph = "the graph";
constexpr std::string_view kPicture = "its picture; of a compiled program, its kernels";
constexpr std::string_view kFxIr =
    "the wrapper program as PyTorch's FX IR: of Inductor's wrapper code or a compiled graph";

std::vector<OutputFormat> makeTable() {
  using L = OutputLevel;
  const std::string_view noJson =
      kHaveJsonFormats ? "" : "needs nlohmann-json (install nlohmann-json3-dev)";
  const std::string_view noPt2 =
      kHavePt2Archives ? "" : "needs nlohmann-json and zlib (install zlib1g-dev)";
  const std::string_view noGraphviz =
      haveGraphviz() ? "" : "needs Graphviz's libgvc (install libgraphviz-dev)";
  const std::string_view noLlvm =
      llvmjit::kHavePtxExport ? "" : "needs LLVM (install llvm-15-dev libclang-15-dev)";
  // name, extensions, level, --help group, convert, picture, unavailable, writer
  return {
      {"fx",
       {".graph.txt", ".txt", ".fx"},
       L::Graph,
       kGraph,
       true,
       false,
       "",
       writeGraph<GraphFormat::FxText>},
      {"fxpy", {".py"}, L::Graph, kGraph, true, false, "", writeFxPy},
      {"json", {".json"}, L::Graph, kGraph, true, false, noJson, writeGraph<GraphFormat::Json>},
      {"pt2", {".pt2"}, L::Graph, kGraph, true, false, noPt2, writeGraph<GraphFormat::Pt2>},
      {"dot", {".dot", ".gv"}, L::Graph, kPicture, true, true, "", writePicture<RenderFormat::Dot>},
      {"svg",
       {".svg"},
       L::Graph,
       kPicture,
       true,
       true,
       noGraphviz,
       writePicture<RenderFormat::Svg>},
      {"png",
       {".png"},
       L::Graph,
       kPicture,
       true,
       true,
       noGraphviz,
       writePicture<RenderFormat::Png>},
      {"pdf",
       {".pdf"},
       L::Graph,
       kPicture,
       true,
       true,
       noGraphviz,
       writePicture<RenderFormat::Pdf>},
      {"model-explorer",
       {},
       L::Graph,
       "the graph as Google Model Explorer's graph JSON",
       true,
       false,
       "",
       writeModelExplorer},
      {"fxir", {}, L::Program, kFxIr, true, false, "", writeFxIrOf<false>},
      {"fxir-code", {}, L::Program, kFxIr, true, false, "", writeFxIrOf<true>},
      {"wrapper-py",
       {},
       L::Program,
       "the compiled program as a Python wrapper",
       false,
       false,
       "",
       writeWrapperPyOf},
      {"wrapper-cpp",
       {},
       L::Folder,
       "the compiled program as a C++ wrapper, a folder",
       false,
       false,
       "",
       writeWrapperCppFolder},
      {"opencl",
       {".cl"},
       L::Program,
       "its kernels as OpenCL C; a folder unless -o names a .cl",
       false,
       false,
       "",
       writeOpenCLOf},
      {"ptx", {}, L::Folder, "its kernels as PTX, a folder", false, false, noLlvm, writePtxFolder},
      {"timeline", {}, L::Program, "the memory plan as SVG", false, false, "", writeTimeline},
  };
}

std::string joinNames(const std::vector<std::string> &names, std::string_view last) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i)
    out += std::string(i == 0 ? "" : i + 1 == names.size() ? last : ", ") + names[i];
  return out;
}

} // namespace

std::span<const OutputFormat> outputFormats() {
  static const std::vector<OutputFormat> table = makeTable();
  return table;
}

const OutputFormat *findOutputFormat(std::string_view name) {
  for (const OutputFormat &f : outputFormats())
    if (f.name == name)
      return &f;
  return nullptr;
}

const OutputFormat *outputFormatForPath(std::string_view path) {
  for (const OutputFormat &f : outputFormats())
    for (std::string_view extension : f.extensions)
      if (path.size() > extension.size() && path.ends_with(extension))
        return &f;
  return nullptr;
}

bool outputFormatOffered(const OutputFormat &format, OutputUse use) {
  switch (use) {
  case OutputUse::Convert:
    return format.convert;
  case OutputUse::BatchConvert:
    return format.convert && format.level == OutputLevel::Graph;
  case OutputUse::Compile:
    return true;
  case OutputUse::Shell:
    return format.level != OutputLevel::Folder;
  case OutputUse::Picture:
    return format.picture;
  }
  return false;
}

std::vector<std::string> outputFormatNames(OutputUse use) {
  std::vector<std::string> names;
  for (const OutputFormat &f : outputFormats())
    if (outputFormatOffered(f, use))
      names.emplace_back(f.name);
  return names;
}

std::string outputFormatList(OutputUse use) { return joinNames(outputFormatNames(use), " or "); }

std::string outputFormatHelp(OutputUse use) {
  std::string help;
  std::vector<std::string> group, missing;
  std::string_view description;
  auto flush = [&] {
    if (!group.empty())
      help += (help.empty() ? "" : "; ") + joinNames(group, ", ") + " (" +
              std::string(description) + ")";
    group.clear();
  };
  for (const OutputFormat &f : outputFormats()) {
    if (!outputFormatOffered(f, use))
      continue;
    if (f.description != description)
      flush();
    description = f.description;
    group.emplace_back(f.name);
    if (!f.unavailable.empty())
      missing.push_back(std::string(f.name) + " " + std::string(f.unavailable));
  }
  flush();
  if (!missing.empty())
    help += ". Not in this build: " + joinNames(missing, ", ");
  return help;
}

Error unknownOutputFormat(std::string_view name, std::string_view flag, OutputUse use) {
  return Error("unknown format '" + std::string(name) + "'" +
               (flag.empty() ? std::string() : " for " + std::string(flag)) + " (expected " +
               outputFormatList(use) + ")");
}

bool isBinaryOutput(std::string_view text) {
  return text.find('\0') != std::string_view::npos || !validateUtf8(text, "");
}

Error binaryToTerminal(const OutputFormat &format) {
  return Error(
      "--to " + std::string(format.name) + " is binary: not written to a terminal; give -o FILE" +
      (format.extensions.empty() ? std::string() : std::string(format.extensions.front())) +
      " or redirect stdout");
}

Status writeOutput(const OutputFormat &format, Graph &graph, const OutputRequest &request) {
  FXKIT_ASSIGN_OR_RETURN(auto result, format.write(graph, request));
  // Binary bytes never go to a terminal (they can leave it in a mode that garbles it).
  if (result.text && request.output == "-" && ::isatty(STDOUT_FILENO) &&
      isBinaryOutput(*result.text))
    return binaryToTerminal(format);
  if (result.text)
    FXKIT_TRY(writeFileAtomic(request.output, *result.text));
  std::cerr << outputNoteLines(result.note);
  return Status::ok();
}

std::string outputNoteLines(std::string_view note, std::string_view input) {
  std::string out;
  for (size_t at = 0; at < note.size();) {
    size_t eol = std::min(note.find('\n', at), note.size());
    out += "fxkit: ";
    if (!input.empty())
      out.append(input).append(": ");
    out.append(note.substr(at, eol - at)).append("\n");
    at = eol + 1;
  }
  return out;
}

} // namespace fxkit
