#include "repl/CompileCommand.h"

#include "exporters/Export.h"
#include "importers/Import.h"
#include "repl/Cli.h"
#include "transforms/Pass.h"

#include <cstdio>
#include <iostream>
#include <sstream>

namespace fxkit {

int runCompileCommand(const CompileCommandOptions &options) {
  auto fail = [](const Error &e) {
    std::cerr << "fxkit: " << e.str() << "\n";
    return kExitBadInput;
  };
  std::optional<GraphFormat> in, out;
  if (!options.from.empty() && !(in = parseGraphFormat(options.from)))
    return fail(Error("unknown format '" + options.from + "' for --from"));
  if (!options.to.empty() && !(out = parseGraphFormat(options.to)))
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
  auto graph = importGraphFile(options.graph, in);
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
  auto text = exportGraph(*graph, *out);
  if (!text)
    return fail(text.error());
  if (Status s = writeFileAtomic(options.output, *text); !s)
    return fail(s.error());
  return kExitOk;
}

} // namespace fxkit
