#include "repl/RunCommand.h"

#include "backends/interp/Interpreter.h"
#include "importers/Import.h"
#include "repl/Cli.h"

#ifdef FXKIT_HAVE_JSON
#include "backends/interp/json/ReferenceIO.h"
#include "exporters/json/SafetensorsWriter.h"
#endif

#include <charconv>
#include <iostream>

namespace fxkit {

namespace {

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

} // namespace

int runRunCommand(const RunCommandOptions &options) {
  std::optional<GraphFormat> format;
  if (!options.from.empty()) {
    format = parseGraphFormat(options.from);
    if (!format)
      return fail(Error("unknown format '" + options.from +
                        "' for --from (expected fx, fxpy or "
                        "json)"));
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
  auto graph = importGraphFile(options.graph, format);
  if (!graph)
    return fail(graph.error());

  std::vector<RuntimeValue> inputs;
  size_t placeholders = 0;
  for (Node *n : *graph)
    placeholders += n->op() == OpKind::Placeholder;
#ifdef FXKIT_HAVE_JSON
  if (!options.inputs.empty()) {
    auto file = readSafetensors(options.inputs);
    if (!file)
      return fail(file.error());
    auto in = readGraphInputs(*file, placeholders, options.inputs);
    if (!in)
      return fail(in.error());
    inputs = in.take();
  }
#endif
  if (options.inputs.empty()) {
    auto in = makeRandomInputs(*graph, symbols, options.seed);
    if (!in)
      return fail(in.error());
    inputs = in.take();
  }

  auto result = interpretGraph(*graph, inputs);
  if (!result)
    return fail(result.error());
  const std::vector<RuntimeValue> &outputs = result->outputs;

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
