#pragma once
/// \file What `fxkit run` and the REPL read and write around a run, in every build: inputs and
/// outputs as safetensors files (backends/interp/json/ReferenceIO.h, which needs
/// nlohmann-json: without it these return "not available in this build: ...") and the inputs,
/// outputs and size hints of torch.export programs (importers/pt2/, which need zlib: without
/// it a graph is never an exported program and these pass values through).

#include "backends/interp/RuntimeValue.h"
#include "ir/Error.h"
#include "ir/Graph.h"
#include "ir/SymExpr.h"

#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

namespace fxkit {

/// Ok where safetensors files can be read and written; else why not.
Status safetensorsAvailable();

/// The `placeholders` graph inputs stored in the safetensors file `path`, then the tensors the
/// graph reads by get_attr (`constants`, by target name) from the same file.
Expected<std::vector<RuntimeValue>> readRunInputs(const std::string &path, size_t placeholders,
                                                  const std::vector<std::string> &constants);

/// `--check`: compares `outputs` with `out_<i>` of the safetensors file `path`, prints one
/// line per output and a summary to `out`; returns whether every output matched.
Expected<bool> printOutputChecks(std::span<const RuntimeValue> outputs, const std::string &path,
                                 std::optional<double> rtol, std::optional<double> atol,
                                 std::ostream &out);

/// `-o FILE`: the outputs as `out_<i>` of a safetensors file.
Status writeRunOutputs(const std::string &path, std::span<const RuntimeValue> outputs);

/// The bytes of a safetensors file holding `inputs` as `--inputs` reads them (arg_<i>).
Expected<std::string> runInputsBytes(std::span<const RuntimeValue> inputs);

/// For a graph read from a torch.export archive (support/pt2/ExportedProgram.h): the values
/// of all its placeholders, the user inputs from `inputs` and the parameters, buffers and
/// constants from the archive's weights. `inputs` holds one value per user input, or one per
/// placeholder (random inputs, whose weights are replaced). Other graphs get `inputs` back.
Expected<std::vector<RuntimeValue>> bindProgramInputs(const Graph &graph,
                                                      std::vector<RuntimeValue> inputs);

/// A placeholder without a type (FX text as `str(graph)` prints it, with no sidecar or
/// annotation) takes the dtype, sizes and strides of the tensor given for it, with no device:
/// what the caller passes is the program's input type, as torch.compile specialises on the
/// first call's inputs. Typed placeholders and non-tensor values are left as they are.
void typeUntypedPlaceholders(Graph &graph, std::span<const RuntimeValue> inputs);

/// The outputs a user of the program sees: an exported program also returns buffer and input
/// mutations (and tokens) before them, which eager PyTorch's outputs do not include.
std::vector<RuntimeValue> userOutputs(const Graph &graph, std::vector<RuntimeValue> outputs);

/// Example values of a program's symbols, for random inputs where --sym gives none.
void addProgramHints(const Graph &graph, SymExpr::Bindings &symbols);

/// How many inputs a caller gives: an exported program's user inputs (it takes its weights
/// from the archive), else `placeholders`.
size_t userInputCount(const Graph &graph, size_t placeholders);

} // namespace fxkit
