#include "repl/CompileCommand.h"

#include "backends/cppwrapper/WrapperBuild.h"
#include "importers/Import.h"
#include "repl/Cli.h"
#include "repl/GraphInput.h"
#include "repl/OutputFormats.h"
#include "transforms/Pass.h"

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace fxkit {

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
  if (options.build && !options.to.empty() && options.to != "wrapper-cpp")
    return reportError(
        Error("--build compiles the C++ wrapper: it goes with --to wrapper-cpp, not '" +
              options.to + "'"));
  if (options.build) {
    if (!cppwrapper::kHaveWrapperBuild)
      return reportError(Error(std::string(kNoWrapperBuildMessage)));
    options.to = "wrapper-cpp";
  }
  const OutputFormat *out = nullptr;
  if (!options.to.empty() && !(out = findOutputFormat(options.to)))
    return reportError(unknownOutputFormat(options.to, "--to", OutputUse::Compile));
  if (!out)
    out = options.output == "-" ? findOutputFormat("fx") : outputFormatForPath(options.output);
  if (!out)
    return reportError(
        Error("cannot tell the output format from '" + options.output + "': use --to"));
  std::vector<std::string> passes;
  std::stringstream list(options.passes);
  for (std::string name; std::getline(list, name, ',');)
    if (!name.empty())
      passes.push_back(name);
  auto graph = readGraphInput(options);
  if (!graph)
    return reportError(graph.error());
  auto runs = runPipeline(*graph, passes);
  if (!runs)
    return reportError(runs.error());
  if (options.timePasses) {
    double total = 0;
    for (const PassRun &r : *runs) {
      std::fprintf(stderr, "%-22s %10.3f ms  %s\n", r.name.c_str(), r.seconds * 1e3,
                   r.changed ? "changed" : "unchanged");
      total += r.seconds;
    }
    std::fprintf(stderr, "%-22s %10.3f ms\n", "total", total * 1e3);
  }
  OutputRequest request{.output = options.output,
                        .input = options.graph,
                        .name = options.name,
                        .gpuArch = options.gpuArch,
                        .build = options.build,
                        .compiled = true};
  request.render.fusion = options.fusion;
  if (out->picture && !options.collapse.empty()) {
    auto mode = parseCollapseMode(options.collapse);
    if (!mode)
      return reportError(
          Error("unknown --collapse '" + options.collapse + "' (expected kernel or module)"));
    request.render.collapse = *mode;
  }
  if (Status s = writeOutput(*out, *graph, request); !s)
    return reportError(s.error());
  return kExitOk;
}

} // namespace fxkit
