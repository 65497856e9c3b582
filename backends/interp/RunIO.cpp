#include "backends/interp/RunIO.h"

// Declarations only: what a build without nlohmann-json or zlib lacks is their definitions,
// and every call of them below stays behind FXKIT_HAVE_JSON / FXKIT_HAVE_PT2.
#include "backends/interp/json/ReferenceIO.h"
#include "exporters/json/SafetensorsWriter.h"
#include "support/pt2/ExportedProgram.h"

namespace fxkit {

namespace {

[[maybe_unused]] constexpr const char *kNoSafetensors =
    "--inputs, --check and -o need safetensors, which needs a build with nlohmann-json";

} // namespace

Status safetensorsAvailable() {
#ifdef FXKIT_HAVE_JSON
  return Status::ok();
#else
  return Error(kNoSafetensors);
#endif
}

Expected<std::vector<RuntimeValue>> readRunInputs(const std::string &path, size_t placeholders,
                                                  const std::vector<std::string> &constants) {
#ifdef FXKIT_HAVE_JSON
  auto file = readSafetensors(path);
  if (!file)
    return file.takeError();
  auto in = readGraphInputs(*file, placeholders, path);
  if (!in)
    return in.takeError();
  std::vector<RuntimeValue> inputs = in.take();
  for (const std::string &target : constants) {
    const Tensor *value = file->find(target);
    if (!value)
      return Error(path + ": no tensor '" + target +
                   "': the graph reads it with get_attr and its file holds only its type; "
                   "store the value under that name beside arg_<i>");
    inputs.push_back(RuntimeValue{*value});
  }
  return inputs;
#else
  (void)path;
  (void)placeholders;
  (void)constants;
  return Error(kNoSafetensors);
#endif
}

Expected<bool> printOutputChecks(std::span<const RuntimeValue> outputs, const std::string &path,
                                 std::optional<double> rtol, std::optional<double> atol,
                                 std::ostream &out) {
#ifdef FXKIT_HAVE_JSON
  auto expected = readSafetensors(path);
  if (!expected)
    return expected.takeError();
  auto checks = checkGraphOutputs(outputs, *expected, {rtol, atol});
  if (!checks)
    return checks.takeError();
  size_t failed = 0;
  for (const OutputCheck &c : *checks) {
    out << c.name << ": " << c.actual << ": " << (c.ok ? "ok" : "MISMATCH")
        << (c.detail.empty() ? "" : ": " + c.detail) << "\n";
    failed += !c.ok;
  }
  out << (failed ? "check failed: " : "check passed: ") << checks->size() - failed << " of "
      << checks->size() << " outputs match\n";
  return failed == 0;
#else
  (void)outputs;
  (void)path;
  (void)rtol;
  (void)atol;
  (void)out;
  return Error(kNoSafetensors);
#endif
}

Status writeRunOutputs(const std::string &path, std::span<const RuntimeValue> outputs) {
#ifdef FXKIT_HAVE_JSON
  return writeSafetensors(path, graphOutputsFile(outputs));
#else
  (void)path;
  (void)outputs;
  return Error(kNoSafetensors);
#endif
}

Expected<std::string> runInputsBytes(std::span<const RuntimeValue> inputs) {
#ifdef FXKIT_HAVE_JSON
  return serializeSafetensors(graphOutputsFile(inputs, "arg_"));
#else
  (void)inputs;
  return Error(kNoSafetensors);
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

void typeUntypedPlaceholders(Graph &graph, std::span<const RuntimeValue> inputs) {
  size_t i = 0;
  for (Node *n : graph) {
    if (n->op() != OpKind::Placeholder)
      continue;
    if (i >= inputs.size())
      return;
    const Tensor *t = inputs[i++].tensor();
    if (!t || !n->value().empty())
      continue;
    TensorType type;
    type.dtype = t->dtype();
    type.sizes.assign(t->sizes().begin(), t->sizes().end());
    type.strides.assign(t->strides().begin(), t->strides().end());
    type.hasDevice = false;
    n->value().v = std::move(type);
  }
}

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

size_t userInputCount(const Graph &graph, size_t placeholders) {
#ifdef FXKIT_HAVE_PT2
  if (const ExportedProgram *program = exportedProgramOf(graph))
    return program->userInputCount();
#else
  (void)graph;
#endif
  return placeholders;
}

} // namespace fxkit
