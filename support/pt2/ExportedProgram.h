#pragma once
/// \file What a torch.export program has beyond its graph: the graph signature (which
/// placeholders are user inputs, parameters, buffers, tensor constants, ...; which outputs are
/// user outputs, buffer mutations, ...), the range constraints of its symbols, the weights, and
/// the parts of the archive fxkit keeps only to write them back (module call graph, sample
/// inputs). PT2 archives (importers/pt2/Pt2Reader.h) attach it to the graph they import, and
/// the writer (exporters/pt2/Pt2Writer.h) and `fxkit run` read it. The names of specs and
/// enums follow torch/_export/serde/schema.py.

#include "ir/DType.h"
#include "ir/Error.h"
#include "ir/Graph.h"
#include "ir/SymExpr.h"
#include "ir/Tensor.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

/// What a placeholder of an exported program is (schema.py's InputSpec union).
enum class InputKind : uint8_t {
  UserInput,      ///< an argument of forward()
  Parameter,      ///< a parameter of the module (in the state dict)
  Buffer,         ///< a buffer (persistent ones in the state dict, the others among constants)
  TensorConstant, ///< a lifted tensor constant
  CustomObj,      ///< a TorchBind object
  Token,          ///< an effect token
  ConstantInput,  ///< a non-tensor constant forward() argument
};

/// What an output of an exported program is (schema.py's OutputSpec union).
enum class OutputKind : uint8_t {
  UserOutput,
  LossOutput,
  BufferMutation,
  GradientToParameter,
  GradientToUserInput,
  UserInputMutation,
  Token,
  ParameterMutation,
};

/// The union member names of the JSON schema: "user_input", "parameter", ...
std::string_view inputKindName(InputKind kind);
std::string_view outputKindName(OutputKind kind);

struct ProgramInputSpec {
  InputKind kind = InputKind::UserInput;
  std::string name;       ///< the placeholder
  std::string target;     ///< parameter/buffer/constant/object FQN (`m1.fc.weight`); empty else
  bool persistent = true; ///< buffers only
  std::string classFqn;   ///< custom objects only
  /// Constant inputs only: the value as the archive's ConstantValue JSON (`{"as_int": 3}`).
  std::string constantValue;
};

struct ProgramOutputSpec {
  OutputKind kind = OutputKind::UserOutput;
  std::string name;   ///< the returned node; empty for a constant output
  std::string target; ///< mutated buffer/parameter/user input, or the gradient's parameter
};

/// `[min, max]` of a symbol; nullopt is unbounded (PyTorch's int_oo).
struct RangeConstraint {
  std::optional<int64_t> min, max;
  bool operator==(const RangeConstraint &) const = default;
};

/// A weight (parameter, buffer or tensor constant) as the archive holds it.
struct ProgramWeight {
  /// The tensor, a view of storage shared with the weights that alias it (tied weights).
  std::optional<Tensor> tensor;
  bool isParameter = false;
  bool requiresGrad = false;
  /// Why `tensor` is missing (a pickled tensor subclass, a custom object): fxkit reads raw
  /// tensor payloads only. Running a graph that needs it fails with this reason.
  std::string unavailable;
};

/// How an op that fxkit's registry does not know was called, as the archive recorded it: the
/// schema's argument names of its inputs, so that the writer can name them again.
struct RecordedCall {
  std::vector<std::string> argNames; ///< one per arg, then one per kwarg
  bool returnsTensorList = false;    ///< `-> Tensor[]` (outputs as one `as_tensors`)
};

/// The program around an imported graph. Attached under kExportedProgramKey.
struct ExportedProgram : GraphAttachment {
  std::vector<ProgramInputSpec> inputs;   ///< one per placeholder, in order
  std::vector<ProgramOutputSpec> outputs; ///< one per returned value, in order
  std::map<std::string, RangeConstraint, std::less<>> ranges;
  /// Example values of symbols (the `hint` of their expressions), used where a run has no
  /// inputs to bind them from.
  std::map<std::string, int64_t, std::less<>> hints;
  /// By FQN (ProgramInputSpec::target).
  std::map<std::string, ProgramWeight, std::less<>> weights;
  /// Calls of ops outside the registry, by node name (root graph only).
  std::map<std::string, RecordedCall, std::less<>> calls;

  // Kept to be written back unchanged.
  std::string moduleCallGraph; ///< the `module_call_graph` JSON array, as text
  std::string sampleInputs;    ///< `data/sample_inputs/<model>.pt` bytes (torch.save pickle)
  std::string torchVersion;
  std::map<std::string, int64_t> opsetVersion;
  std::vector<std::string> verifiers;
  int schemaMajor = 0, schemaMinor = 0;

  /// The spec of the placeholder named `name`, or null.
  const ProgramInputSpec *inputSpec(std::string_view name) const;
  /// How many placeholders are user inputs (what `fxkit run --inputs` provides).
  size_t userInputCount() const;
};

inline constexpr std::string_view kExportedProgramKey = "exported-program";

/// The program attached to `graph`, or null.
const ExportedProgram *exportedProgramOf(const Graph &graph);

/// torch/_export/serde/schema.py's ScalarType codes.
std::optional<DType> dtypeFromScalarType(int64_t code);
int64_t scalarTypeOf(DType dtype);

/// A sympy expression in `srepr` form, as PyTorch serializes symbolic sizes
/// (`Mul(Integer(32), Symbol('s10', positive=True, integer=True))`), as a SymExpr. Sympy's
/// Add/Mul/Pow/Integer/Rational/Symbol and torch's integer functions (FloorDiv, PythonMod,
/// Mod, CeilDiv, Max, Min, ModularIndexing, ...) are understood; errors give the column.
Expected<SymExpr> parseSympyRepr(std::string_view text);
/// The inverse: `srepr` of an integer expression, with PyTorch's symbol assumptions
/// (`s*` sizes positive integers, other symbols integers).
std::string sympyRepr(const SymExpr &expr);

} // namespace fxkit
