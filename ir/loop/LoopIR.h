#pragma once
/// \file The loop-level program an ATen graph lowers to (Inductor's scheduler nodes and loop
/// bodies): buffers, loop ops (a pointwise body over a symbolic iteration space, a reduction,
/// or an extern call), and the kernels that fusion groups them into.
///
/// A loop op's body is a small SSA list of scalar instructions (Inductor's `ops.*`): loads from
/// buffers at symbolic index expressions, constants, arithmetic. Index expressions are SymExprs
/// over the op's iteration variables (`x0, x1, ...` for the kept dimensions, `r0, r1, ...` for
/// the reduced ones) and the graph's size symbols (`s77`). Views never make buffers: lowering
/// folds them into the index expressions of their users.

#include "ir/DType.h"
#include "ir/SymExpr.h"
#include "ir/TensorType.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

class Node;

namespace loop {

/// Scalar operations of a loop body: the leaves and casts here, the rest generated from
/// ir/loop/ScalarOps.def (their one home: meaning and spellings).
enum class ScalarOp : uint8_t {
  Load,       ///< buffer[index]; with a mask operand, 0 where the mask is false (not read)
  Constant,   ///< a number (intConstant for integer dtypes, constant otherwise)
  IndexValue, ///< the value of `index` as a number (iota, index arithmetic)
  Cast,       ///< to the instruction's dtype (float16/bfloat16 round, ints truncate)
  /// A data-dependent index (Inductor's `ops.indirect_indexing`): operands[0], an integer
  /// value, wrapped once if negative (Python's `i + size`) when `constant` is nonzero (advanced
  /// indexing; embedding, gather and index_select reject negatives), and checked against
  /// `index` (the indexed dimension's size). It binds the symbol indirectVarName(intConstant),
  /// which the index expressions of later loads in the same body use.
  IndirectIndex,
#define FXKIT_SCALAR_OP(Id, ...) Id,
#include "ir/loop/ScalarOps.def"
};

/// How a generated scalar op treats dtypes (see ScalarOps.def); leaves and Cast are Special.
enum class ScalarOpKind : uint8_t { Special, Arith, FloatFn, Predicate };
ScalarOpKind scalarOpKind(ScalarOp op);

/// How a generated scalar op is written in each target language (ScalarOps.def's columns).
struct ScalarOpSpelling {
  std::string_view openclFloat; ///< OpenCL C for a floating compute type
  std::string_view openclInt;   ///< for an integral or bool one; empty: openclFloat
  std::string_view python;      ///< torch expression on tensors
};
/// Empty spellings for leaves and Cast (each writer spells those itself).
const ScalarOpSpelling &scalarOpSpelling(ScalarOp op);

/// A spelling with its placeholders ($0, $r0, $b0, $T, $s: see ScalarOps.def) replaced by
/// substitute(placeholder without the '$').
std::string expandSpelling(std::string_view spelling,
                           const std::function<std::string(std::string_view)> &substitute);

std::string_view scalarOpName(ScalarOp op);
/// Number of value operands (0 for leaves, 1 unary, 2 binary, 3 for Where); a Load's optional
/// mask is its operands[0].
int scalarOpArity(ScalarOp op);

/// One SSA instruction; operands index earlier instructions of the same body.
struct ScalarInstr {
  ScalarOp op = ScalarOp::Constant;
  DType dtype = DType::Float32; ///< the result's dtype
  int32_t operands[3] = {-1, -1, -1};
  int32_t buffer = -1;     ///< Load: the buffer read
  SymExpr index;           ///< Load: storage offset in the buffer; IndexValue: the value
  double constant = 0;     ///< Constant of a floating dtype (inf and nan allowed)
  int64_t intConstant = 0; ///< Constant of an integer or bool dtype (exact)
};

/// How a reduction combines its values.
enum class ReductionKind : uint8_t {
  Sum,
  Mean,
  Max, ///< NaN-propagating
  Min, ///< NaN-propagating
  /// Mean and variance in one pass (Welford); results: variance (with `correction`), mean.
  VarMean,
  /// prims.prepare_softmax_online: results max and sum(exp(x - max)).
  OnlineSoftmax,
  /// The product; identity 1 (prod of nothing), integers wrap as int64 arithmetic does.
  Prod,
  /// Whether any value is nonzero (NaN is): 1 or 0; identity 0. The reduced value is a bool.
  Any,
  /// Whether every value is nonzero: 1 or 0; identity 1 (all of nothing).
  All,
  /// The first maximum and its number: results value, index (`reducedIndex`'s value at that
  /// point). NaN is larger than every number; among equal values (-0 == 0) the lower index
  /// wins, so a row's first maximum wins whatever order its points are combined in.
  ArgMax,
  /// ArgMax's rule for the minimum (NaN still wins: it is smaller than every number too).
  ArgMin,
  /// torch.logsumexp: log(sum(exp(x - m))) + m with m the maximum, in one pass as
  /// OnlineSoftmax's (max, sum); an infinite maximum is the result (a row of -inf gives -inf,
  /// one holding +inf gives inf), NaN propagates, no points give -inf.
  LogSumExp,
};
std::string_view reductionKindName(ReductionKind kind);
/// How many results the reduction has (VarMean, OnlineSoftmax, ArgMax, ArgMin: 2).
int reductionResultCount(ReductionKind kind);

/// A strided view of a buffer: how a tensor value of the graph sits in memory. Lowering folds
/// every view op (view, permute, expand, select, split, ...) into one of these.
struct BufferView {
  int32_t buffer = -1;
  std::vector<SymExpr> sizes;
  std::vector<SymExpr> strides;
  SymExpr offset; ///< storage offset, in elements
};

/// How a scattering store meets the element already there (Store::combine). Max and Min
/// propagate NaN, as scatter_reduce's amax and amin do.
enum class ScatterCombine : uint8_t { Replace, Add, Mul, Max, Min };
std::string_view scatterCombineName(ScatterCombine combine);
/// The element after `combine` of `old` with `value` (doubles holding either dtype).
double combineScatter(ScatterCombine combine, double old, double value);

/// Where a loop op writes: result `value` (a body instruction for pointwise ops, the result
/// number for reductions) to `buffer` at `index` (over the op's kept variables only).
struct Store {
  int32_t buffer = -1;
  SymExpr index;
  int32_t value = 0;
  /// Whether the store scatters into a buffer that another op made (its producer), rather than
  /// making the buffer: index_put and scatter copy their input first, then store through
  /// indirect indices. A scattering op runs after the buffer's producer, in a kernel of its own.
  bool scatter = false;
  /// With `scatter`: how the value meets the element (atomically, as several points may hit
  /// one element): replaced, or combined with it (index_put's accumulate, scatter_add,
  /// scatter_reduce's sum/prod/amax/amin).
  ScatterCombine combine = ScatterCombine::Replace;
};

/// How a scan combines the values along its scanned dimension (Inductor's `ir.Scan`
/// combine_fn). Its own enum, not ReductionKind: a scan stores every running value, and the
/// kinds a reduction has (mean, var_mean, online softmax) have no running form here.
enum class ScanKind : uint8_t {
  Sum,  ///< cumsum
  Prod, ///< cumprod
};
std::string_view scanKindName(ScanKind kind);

enum class LoopOpKind : uint8_t {
  Pointwise, ///< stores body values at every point of `ranges`
  Reduction, ///< reduces body value `reduced` over `reductionRanges`, stores per kept point
  /// Scans body value `reduced` along `reductionRanges` (in order, the last variable fastest)
  /// per kept point and stores the running value (result 0) at every (x, r) point: its stores
  /// index over both variable sets (Inductor's `ir.Scan`: cumsum, cumprod).
  Scan,
  Extern, ///< a library call (matmul, convolution, attention, ...) on whole buffers
};
std::string_view loopOpKindName(LoopOpKind kind);

/// A symbol that an extern op defines when it runs (PyTorch's unbacked `u0`): Inductor's
/// `u0 = buf3.item()` after `_local_scalar_dense`, `u1 = buf4.size(0)` after nonzero or a
/// boolean-mask index. Later kernels take it as a size argument; buffers sized by it are
/// allocated once it is bound (BufferPlacement::Kind::Unbacked).
struct SymbolDef {
  std::string symbol; ///< "u0"
  /// The extern result it reads: externOutputs[output]'s size along `dim`; output -1: the op's
  /// scalar result (an int or bool of `.item()`).
  int32_t output = -1;
  int32_t dim = -1;
};

/// A run-time check of a condition over unbacked symbols (`_assert_scalar`, `torch._check`,
/// `sym_constrain_range[_for_size]`), evaluated as soon as the op holding it has bound its
/// symbols: a false condition stops the run with `message`, naming the graph node.
struct RuntimeCheck {
  SymExpr condition;   ///< a SymBool over bound symbols
  std::string node;    ///< the assertion's graph node
  std::string message; ///< PyTorch's message ("Runtime assertion failed for expression ...")
};

/// One loop nest (Inductor's SchedulerNode).
struct LoopOp {
  std::string name; ///< "op3"
  LoopOpKind kind = LoopOpKind::Pointwise;
  /// Kept iteration space: variables x0 .. x{n-1}.
  std::vector<SymExpr> ranges;
  /// Reduced iteration space (Reduction only): variables r0 .. r{m-1}.
  std::vector<SymExpr> reductionRanges;
  std::vector<ScalarInstr> body;
  std::vector<Store> stores;

  // Reduction only.
  ReductionKind reduction = ReductionKind::Sum;
  int32_t reduced = -1; ///< the body instruction whose values are reduced (Scan: scanned)
  DType accumulator = DType::Float32; ///< Reduction and Scan: the dtype values combine in
  double correction = 0;              ///< VarMean: divisor is count - correction
  /// ArgMax/ArgMin: the body instruction (int64) numbering the reduced points, row-major over
  /// the reduced dims as PyTorch counts them; ties go to the lower number. -1 otherwise.
  int32_t reducedIndex = -1;

  /// Whether the split-reductions pass (transforms/SplitReductions.h) has decided about this op:
  /// it kept it (recorded), or the op is one of the two a split reduction became. A second run
  /// leaves such ops alone, so the pass is idempotent.
  bool splitDecided = false;

  // Scan only (with `reduced` and `accumulator`).
  ScanKind scan = ScanKind::Sum;

  // Extern only: the ATen node computed as a whole, on strided views of whole buffers.
  const Node *externNode = nullptr;
  /// The node's tensor inputs in argument order (tensor lists flattened).
  std::vector<BufferView> externInputs;
  /// Buffers of the node's tensor results in order (-1 for a non-tensor result).
  std::vector<int32_t> externOutputs;
  /// Unbacked symbols this extern op binds when it has run, and the checks that become
  /// decidable then (Inductor's codegen_unbacked_symbol_defs and runtime asserts).
  std::vector<SymbolDef> defines;
  std::vector<RuntimeCheck> checks;
  /// Whether externOutputs[output] is sized by a symbol this op defines: it cannot be
  /// allocated before the call, only from its result.
  bool definesSizeOf(size_t output) const {
    for (const SymbolDef &d : defines)
      if (d.output == static_cast<int32_t>(output))
        return true;
    return false;
  }

  /// ATen nodes this op computes (for names, provenance comments and `why`).
  std::vector<std::string> origins;
  /// Their ops' short names ("add", "var_mean"), for kernel names.
  std::vector<std::string> originOps;

  /// Buffers read (distinct, in first-read order).
  std::vector<int32_t> reads() const;
  /// Buffers written (distinct, in store order).
  std::vector<int32_t> writes() const;
  /// Product of ranges (and of reductionRanges), simplified.
  SymExpr numel() const;
  SymExpr reductionNumel() const;
};

/// A tensor in memory: a graph input, or the result of a loop op.
struct Buffer {
  std::string name;      ///< the graph input's name, or "buf<N>"
  TensorType type;       ///< dtype, symbolic sizes and strides of the stored layout
  bool isInput = false;  ///< a graph input (not allocated by the program)
  bool isOutput = false; ///< returned by the graph (must be materialized)
  int32_t producer = -1; ///< the loop op that writes it; -1 for inputs
  /// Elements the storage spans (max offset + 1), for allocation and traffic.
  SymExpr storageNumel() const;
  /// Bytes of the storage.
  SymExpr storageBytes() const;
};

/// The symbol an IndirectIndex instruction binds: "ind<id>". Ids are unique in a program, so
/// bodies copied into others (inlining) keep their meaning without renaming.
std::string indirectVarName(int64_t id);
/// Whether `name` is such a symbol (a value of the running point, not a size).
bool isIndirectVarName(std::string_view name);

/// Name of iteration variable `i` of the kept ("x") or reduced ("r") space.
std::string loopVarName(bool reduction, size_t i);
/// The symbol loopVarName(reduction, i), built once per process for the first few dozen
/// (lowering and fusion ask for them for every op).
SymExpr loopVar(bool reduction, size_t i);

/// Whether a large reduction was split over several work-groups (Inductor's split reduction,
/// `Reduction.create_multilayer`): a first op reduces blocks of the reduced points into partial
/// results [splits, rows], a second reduces the partials. Recorded for `fuse --explain`, taken or
/// refused, with the reason.
struct ReductionSplit {
  std::string op;     ///< the reduction's loop op name before the split ("op3")
  bool split = false; ///< whether it was split
  int64_t splits = 0; ///< blocks of reduced points (when split)
  std::string reason;
};

/// The whole lowered program.
struct LoopProgram {
  std::vector<Buffer> buffers;
  std::vector<LoopOp> ops; ///< in a valid execution order
  /// Graph inputs in placeholder order: a buffer index, or -1 for a symbolic-size input.
  std::vector<int32_t> inputs;
  std::vector<std::string> inputSymbols; ///< for -1 inputs: the symbol they bind ("s77")
  /// The split-reductions pass's decisions (transforms/SplitReductions.h), in program order.
  std::vector<ReductionSplit> reductionSplits;
  /// What the graph returns, in order: a buffer viewed with sizes/strides/offset (outputs that
  /// are views of computed buffers stay views), or a symbol.
  struct Output {
    BufferView view; ///< view.buffer -1: a symbolic integer or None
    SymExpr symbol;  ///< the integer, when view.buffer is -1 and not isNone
    bool isNone = false;
  };
  std::vector<Output> outputs;

  /// Text form for tests and `--explain` (one op per block, Inductor-like).
  std::string str() const;
  /// The symbols the extern ops bind at run time (every LoopOp::defines), sorted.
  std::vector<std::string> unbackedSymbols() const;
  /// Whether `e` mentions one of `unbacked` (unbackedSymbols()).
  static bool mentionsAny(const SymExpr &e, const std::vector<std::string> &unbacked);
};

} // namespace loop
} // namespace fxkit
