#pragma once
/// \file The ATen op registry: one entry per op overload (schema, category, shape/dtype/stride
/// inference, and a slot for a reference kernel), keyed by the target as FX prints it
/// (`torch.ops.aten.add.Tensor`, `torch.ops.prims.convert_element_type.default`,
/// `operator.getitem`).
///
/// All entries live in one table (ir/ops/OpTable.cpp). Schemas are written exactly as PyTorch
/// declares them (native_functions.yaml, torch/_prims, torch/_inductor/inductor_prims.py) and
/// parsed once when the registry is first used, so argument names, order, kwarg-only markers and
/// defaults are PyTorch's own. bindArgs() matches a node's args/kwargs against the schema so that
/// inference and kernels read arguments by name, with defaults filled in.

#include "ir/Argument.h"
#include "ir/Error.h"
#include "ir/Node.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fxkit {

/// What kind of computation an op is; passes and backends group ops by it.
enum class OpCategory : uint8_t {
  Pointwise, ///< elementwise with broadcasting (add, relu, where, convert_element_type)
  Reduction, ///< reduces dimensions (sum, amax, var_mean, prepare_softmax_online)
  View,      ///< result aliases its input's storage (view, permute, expand, split)
  Extern,    ///< library calls: matmul, convolution, attention, topk, embedding
  Creation,  ///< makes a tensor from scalars (full, scalar_tensor, iota)
  Other,     ///< everything else (clone, cat, getitem, symbolic integer arithmetic)
  /// Defined by its decomposition into other ops (linear, conv2d, layer_norm, to.dtype, relu_):
  /// the ops torch.export keeps and run_decompositions() rewrites. Passes and backends never
  /// see one: the decompose pass (transforms/Decompose.h) rewrites it first.
  Composite,
};
std::string_view opCategoryName(OpCategory category);

/// Argument types of a schema, as spelled in native_functions.yaml.
enum class ArgType : uint8_t {
  Tensor,             ///< Tensor (a Python number is accepted too: it becomes a wrapped scalar)
  TensorList,         ///< Tensor[]
  Scalar,             ///< Scalar: a Python number or a symbolic integer
  Int,                ///< int
  SymInt,             ///< SymInt: an int, a symbolic expression or a node holding one
  IntList,            ///< int[] / int[N]
  SymIntList,         ///< SymInt[] / SymInt[N]
  OptionalTensorList, ///< Tensor?[]: items may be None (index, index_put)
  FloatList,          ///< float[] / float[N]
  BoolList,           ///< bool[] / bool[N]
  ScalarList,         ///< Scalar[]
  StrList,            ///< str[] (dimension names)
  Complex,            ///< complex: a Python complex number
  ComplexList,        ///< complex[]
  Float,              ///< float
  Bool,               ///< bool
  ScalarType,         ///< ScalarType (a dtype)
  Layout,             ///< Layout
  Device,             ///< Device
  MemoryFormat,       ///< MemoryFormat
  Str,                ///< str
  Any,                ///< untyped Python value (operator.* targets)
};
std::string_view argTypeName(ArgType type);

/// One declared argument.
struct ArgSpec {
  std::string name;
  ArgType type = ArgType::Any;
  bool optional = false;  ///< `Type?`: None is allowed
  bool kwargOnly = false; ///< declared after `*`
  int listSize = 0;       ///< N of `int[N]` (a single int then stands for N copies); 0 if none
  bool hasDefault = false;
  Argument defaultValue; ///< valid when hasDefault
  /// `Tensor(a!)`, `Tensor(a!)[]`: the op writes this argument in place (running_mean of a
  /// training batch norm, self of index_put_). Backends that run the op on copies of its
  /// buffers write these back (runExternLoopOp's callers).
  bool mutated = false;
};

/// One declared result.
struct ReturnSpec {
  std::string name; ///< empty when unnamed
  ArgType type = ArgType::Tensor;
  bool isList = false; ///< `Tensor[]`: a list of unknown length
};

/// A parsed schema such as `add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor`.
struct OpSchema {
  std::string name;     ///< `add`
  std::string overload; ///< `Tensor`; empty for the default overload
  std::vector<ArgSpec> args;
  std::vector<ReturnSpec> returns;

  /// Index of the argument called `name`, or -1.
  int indexOf(std::string_view name) const;
  /// Back to schema text (canonical spacing).
  std::string str() const;
};

/// Parses the native_functions.yaml form: `name[.overload](args) -> returns`. Alias
/// annotations (`Tensor(a!)`, `Tensor(a -> *)`) are accepted; of them only an argument's write
/// mark `!` is kept (ArgSpec::mutated).
Expected<OpSchema> parseSchema(std::string_view text);

struct OpInfo;
class BoundArgs;

/// Computes a node's value (dtype, symbolic sizes, strides, device of every result; or a
/// symbolic integer) from its bound arguments, whose input nodes already have values.
using InferFn = Expected<NodeValue> (*)(const BoundArgs &args);

/// The reference kernel slot. KernelContext is defined by the interpreter (not part of the IR
/// library): it gives the kernel its bound arguments, input buffers and output buffers. The
/// registry only stores the pointer so that every piece of an op's semantics has one home;
/// the interpreter fills it with OpRegistry::setKernel() when it starts.
struct KernelContext;
using KernelFn = Status (*)(KernelContext &ctx);

/// A composite op's decomposition: writes the op's replacement through the Decomposer
/// (ir/ops/Decomposer.h), which also derives the op's inference from it.
class Decomposer;
using DecomposeFn = Status (*)(Decomposer &d);

/// One row of an op table: how an op family declares an overload. The registry parses the
/// schema once and checks that no target is declared twice.
struct OpRow {
  std::string_view target; ///< as FX prints it: `torch.ops.aten.gather.default`
  std::string_view schema; ///< native_functions.yaml form, as PyTorch declares it
  OpCategory category;
  InferFn infer;
  /// The decomposition of a Composite op (null for every other category).
  DecomposeFn decompose = nullptr;
};

/// One op overload.
struct OpInfo {
  std::string_view target; ///< as FX prints it: `torch.ops.aten.add.Tensor`
  OpSchema schema;
  OpCategory category = OpCategory::Other;
  InferFn infer = nullptr;
  /// Reference kernel; null until the interpreter registers one (see KernelFn).
  KernelFn kernel = nullptr;
  /// How a Composite op decomposes (OpRow::decompose); null for the others.
  DecomposeFn decompose = nullptr;
};

/// A node's arguments matched against its op's schema: one value per schema argument, the
/// explicit one or the declared default (None for an optional argument without default).
/// Typed readers return errors that name the node, the op and the argument.
class BoundArgs {
public:
  BoundArgs(const Node &node, const OpInfo &op) : node_(&node), op_(&op) {}

  const Node &node() const { return *node_; }
  const OpInfo &op() const { return *op_; }
  /// The bound value of the argument called `name` (None if the schema has no such argument).
  const Argument &get(std::string_view name) const;
  const Argument &at(size_t index) const { return values_[index]; }
  size_t size() const { return values_.size(); }
  /// Whether the node spelled the argument out (rather than taking the default).
  bool isExplicit(std::string_view name) const;

  /// The value of a tensor argument (a node whose value is one tensor).
  Expected<TensorType> tensor(std::string_view name) const;
  /// nullopt for None.
  Expected<std::optional<TensorType>> optionalTensor(std::string_view name) const;
  Expected<std::vector<TensorType>> tensorList(std::string_view name) const;
  Expected<int64_t> integer(std::string_view name) const;
  Expected<std::optional<int64_t>> optionalInteger(std::string_view name) const;
  /// An int, a symbolic expression, or a node whose value is a symbolic integer.
  Expected<SymExpr> symInt(std::string_view name) const;
  /// nullopt for None.
  Expected<std::optional<SymExpr>> optionalSymInt(std::string_view name) const;
  /// A list of SymInts (a single value is repeated listSize times for `int[N]`).
  Expected<std::vector<SymExpr>> symIntList(std::string_view name) const;
  /// A list of plain ints; nullopt for None.
  Expected<std::optional<std::vector<int64_t>>> intList(std::string_view name) const;
  Expected<double> floating(std::string_view name) const;
  Expected<bool> boolean(std::string_view name) const;
  /// A `bool[N]` list of exactly n entries (ints taken as 0/1), such as an output mask.
  Expected<std::vector<bool>> boolList(std::string_view name, size_t n) const;
  /// nullopt for None.
  Expected<std::optional<DType>> dtype(std::string_view name) const;
  /// nullopt for None; the name without `torch.` (`contiguous_format`, `channels_last`).
  Expected<std::optional<std::string_view>> memoryFormat(std::string_view name) const;
  /// nullopt for None.
  Expected<std::optional<Device>> device(std::string_view name) const;

  /// "node 'add' (torch.ops.aten.add.Tensor): <message>".
  Error error(const std::string &message) const;

private:
  friend Expected<BoundArgs> bindArgs(const Node &node, const OpInfo &op);
  const ArgSpec *spec(std::string_view name) const;
  Expected<const Argument *> require(std::string_view name) const;

  const Node *node_;
  const OpInfo *op_;
  std::vector<Argument> values_;
  std::vector<bool> explicit_;
};

/// Matches args (positionally, to arguments before `*`) and kwargs (by name) to the schema and
/// fills in defaults. Errors: too many positional arguments, an unknown or repeated keyword, a
/// missing required argument; each names the node and the op.
Expected<BoundArgs> bindArgs(const Node &node, const OpInfo &op);

/// The process-wide table of ops.
class OpRegistry {
public:
  /// Built (and every schema parsed) on first use; thread-safe.
  static OpRegistry &instance();

  /// The op for an FX target, or null.
  const OpInfo *lookup(std::string_view target) const;
  const std::vector<OpInfo> &ops() const { return ops_; }
  /// Fills the kernel slot of `target` (the interpreter calls this). Errors for unknown targets.
  Status setKernel(std::string_view target, KernelFn kernel);

private:
  OpRegistry();
  std::vector<OpInfo> ops_;
  /// target -> index into ops_ (targets are string literals of the table).
  std::unordered_map<std::string_view, size_t> index_;
};

/// The dtypes shape inference accepts: float32, float16, bfloat16, float64, int64, int32, int16,
/// int8, uint8, bool, and complex64/complex128 for the ops that take complex (the views and
/// the FFT family; inferNodeValue refuses them elsewhere).
bool isSupportedDType(DType dtype);

/// Looks up the node's op, binds its arguments and runs the op's inference. Errors name the node
/// and the target: unknown op, bad arguments, inputs without values, unsupported dtypes.
Expected<NodeValue> inferNodeValue(const Node &node);

} // namespace fxkit
