#pragma once
/// \file The lowering's working state, shared by transforms/Lowering.cpp (the walk over the
/// graph, the default lowering of each op category, inlining) and the per-family lowering
/// rules of transforms/lowering/ (LoweringRules.h). Internal to the transforms library.

#include "ir/Graph.h"
#include "ir/Tensor.h"
#include "ir/loop/LoopIR.h"
#include "ir/ops/OpRegistry.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fxkit::lowering {

using namespace loop;

/// What a graph node lowered to.
struct Lowered {
  enum class Kind : uint8_t { None, Tensor, Tensors, Sym } kind = Kind::None;
  /// Tensor: where the value is. When `whole`, only view.buffer is set: the value is the whole
  /// buffer as laid out (most values; their sizes and strides are the buffer's, not copied).
  BufferView view;
  bool whole = false;
  std::vector<std::optional<BufferView>> views;
  SymExpr sym;
};

/// "add" of `torch.ops.aten.add.Tensor`, "getitem" of `operator.getitem`.
std::string shortOpName(std::string_view target);

/// The variables of a loop over `sizes`: one per dimension, 0 for a dimension of size 1 (no
/// loop: every kernel sees the same iteration space whatever size-1 dimensions a tensor has).
/// The sizes that get a variable are appended to `ranges`.
std::vector<SymExpr> iterate(const std::vector<SymExpr> &sizes, std::vector<SymExpr> &ranges,
                             bool reduction);

/// offset + sum of vars[j] * strides[j] over the dimensions that are not size 1 (`vars` holds
/// one variable per dimension).
SymExpr linearIndex(const SymExpr &offset, const std::vector<SymExpr> &sizes,
                    const std::vector<SymExpr> &strides, const SymExpr *vars);
SymExpr linearIndex(const SymExpr &offset, const std::vector<SymExpr> &sizes,
                    const std::vector<SymExpr> &strides, const std::vector<SymExpr> &vars);

/// Builds one loop op's body.
class BodyBuilder {
public:
  explicit BodyBuilder(LoopOp &op) : op_(op) {}

  int32_t add(ScalarInstr in) {
    op_.body.push_back(std::move(in));
    return static_cast<int32_t>(op_.body.size() - 1);
  }
  int32_t load(int32_t buffer, SymExpr index, DType dtype) {
    ScalarInstr in;
    in.op = ScalarOp::Load;
    in.dtype = dtype;
    in.buffer = buffer;
    in.index = std::move(index);
    return add(std::move(in));
  }
  int32_t constant(double v, DType dtype) {
    ScalarInstr in;
    in.op = ScalarOp::Constant;
    in.dtype = dtype;
    if (dtypeIsFloating(dtype))
      in.constant = v;
    else
      in.intConstant = dtype == DType::Bool ? (v != 0) : static_cast<int64_t>(v);
    return add(std::move(in));
  }
  int32_t intConstant(int64_t v, DType dtype) {
    ScalarInstr in;
    in.op = ScalarOp::Constant;
    in.dtype = dtype;
    in.intConstant = v;
    in.constant = static_cast<double>(v);
    return add(std::move(in));
  }
  int32_t indexValue(SymExpr e, DType dtype) {
    ScalarInstr in;
    in.op = ScalarOp::IndexValue;
    in.dtype = dtype;
    in.index = std::move(e);
    return add(std::move(in));
  }
  int32_t op(ScalarOp op, DType dtype, int32_t a, int32_t b = -1, int32_t c = -1) {
    ScalarInstr in;
    in.op = op;
    in.dtype = dtype;
    in.operands[0] = a;
    in.operands[1] = b;
    in.operands[2] = c;
    return add(std::move(in));
  }
  /// `a` converted to dtype (no instruction when it already has it).
  int32_t cast(int32_t a, DType dtype) {
    if (op_.body[a].dtype == dtype)
      return a;
    return op(ScalarOp::Cast, dtype, a);
  }

private:
  LoopOp &op_;
};

/// An index as offset + sum of coefficient * variable, when it is that: every term has at
/// most one loop variable, to the first power, outside any division.
struct LinearIndex {
  SymExpr offset = 0;
  std::map<std::string, SymExpr, std::less<>> coefficients; ///< loop variable -> coefficient
};

struct SymExprHash {
  size_t operator()(const SymExpr &e) const { return e.hash(); }
};

/// Lowers one graph. Lowering rules (LoweringRules.h) use its building blocks: the value
/// each node lowered to, new buffers and ops, loads through views.
class Lowerer {
public:
  explicit Lowerer(const Graph &graph) : graph_(graph) {}

  Expected<LoopProgram> run();

  Error nodeError(const Node &n, const std::string &message) const {
    return Error("node '" + n.name() + "' (" + std::string(n.target()) + "): " + message);
  }
  /// Nodes are numbered in their scratch slots (program order) while lowering runs.
  Lowered &valueOf(const Node *n) { return values_[n->scratch()]; }

  int32_t newBuffer(const TensorType &type, int32_t producer) {
    Buffer b;
    b.name = "buf" + std::to_string(nextBuffer_++);
    b.type = type;
    b.producer = producer;
    program_.buffers.push_back(std::move(b));
    return static_cast<int32_t>(program_.buffers.size() - 1);
  }
  /// A new op at the end of the program, built in place (ops are reserved for one per node, so
  /// references stay valid while a node lowers).
  LoopOp &newOp(LoopOpKind kind, const Node &origin) {
    LoopOp &op = program_.ops.emplace_back();
    op.name = "op" + std::to_string(program_.ops.size() - 1);
    if (kind != LoopOpKind::Extern)
      op.body.reserve(4); // a load or two, the op, a cast: one allocation, not three
    op.kind = kind;
    op.origins.push_back(origin.name());
    op.originOps.push_back(shortOpName(origin.target()));
    return op;
  }
  int32_t currentOp() const { return static_cast<int32_t>(program_.ops.size() - 1); }
  static BufferView wholeView(int32_t buffer, const TensorType &type) {
    return {buffer, type.sizes, type.strides, SymExpr(0)};
  }
  /// A Tensor value that is the whole of `buffer`.
  static Lowered wholeValue(int32_t buffer) {
    Lowered v;
    v.kind = Lowered::Kind::Tensor;
    v.view.buffer = buffer;
    v.whole = true;
    return v;
  }
  /// The view of a Tensor value, sizes and strides spelled out.
  BufferView viewOf(const Lowered &v) const {
    return v.whole ? wholeView(v.view.buffer, program_.buffers[v.view.buffer].type) : v.view;
  }

  /// A tensor argument as a body value broadcast to `outSizes` (variables x0..), converted to
  /// `dtype`: a load through the argument's view, a constant for a Python number, or the value
  /// of a symbolic integer.
  /// A SymInt, SymFloat or SymBool operand computed in the loop body: integer size
  /// arithmetic as an index value (the wrapper's host-side sizes), the float and boolean parts
  /// (`ToFloat(s0)/4`, `s0 >= 2`) as scalar ops over it.
  Expected<int32_t> scalarExpr(BodyBuilder &b, const Node &n, const SymExpr &e);
  Expected<int32_t> operand(BodyBuilder &b, const Node &n, const Argument &a,
                            const std::vector<SymExpr> &outVars, DType dtype);
  /// Stores `value` at every point (variables `outVars`) of a pointwise op over `type` into a
  /// new buffer.
  Lowered finishPointwise(LoopOp &op, BodyBuilder &b, int32_t value, const TensorType &type,
                          const std::vector<SymExpr> &outVars);

  /// An indirect index into a dimension of `size` from body value `value` (an integer): the
  /// symbol that later loads of the body put in their index expressions. `wrapNegative`: -1 is
  /// the last element (advanced indexing), rather than out of range.
  SymExpr indirectIndex(BodyBuilder &b, int32_t value, const SymExpr &size, bool wrapNegative) {
    ScalarInstr in;
    in.op = ScalarOp::IndirectIndex;
    in.dtype = DType::Int64;
    in.operands[0] = value;
    in.index = size;
    in.constant = wrapNegative ? 1 : 0;
    const int64_t id = nextIndirect_++;
    in.intConstant = id;
    b.add(std::move(in));
    return SymExpr::symbol(indirectVarName(id));
  }

  Status lowerNode(const Node &n);
  Status lowerPointwise(const Node &n, const BoundArgs &args, const TensorType &out);
  Status lowerCreation(const Node &n, const BoundArgs &args, const TensorType &out);
  Status lowerView(const Node &n, const BoundArgs &args);
  Status lowerReduction(const Node &n, const BoundArgs &args);
  Status lowerExtern(const Node &n, const BoundArgs &args);
  Status lowerOther(const Node &n, const BoundArgs &args);
  Status lowerRearrangement(const Node &n, const BoundArgs &args, const TensorType &out);
  /// A copy of `in` into a new buffer of layout `out` (clone, reshape that cannot view).
  Lowered copyInto(const Node &n, const BufferView &in, const TensorType &out);
  Expected<BufferView> tensorArg(const Node &n, const Argument &a);
  Status lowerOutput(const Node &n);
  /// Refuses a node whose value holds a symbol that neither the inputs nor an earlier extern op
  /// (definedSymbols_) bind, except the fresh ones `defines` lists, which `n` itself binds.
  Status checkBacked(const Node &n, const std::vector<SymbolDef> &defines) const;
  /// The unbacked symbols `n` introduces (PyTorch's u0 of item(), nonzero's or a boolean mask's
  /// length): its integer scalar value, or its result sizes, when a bare symbol nothing binds
  /// yet. Such a node runs as an extern op that binds them at run time.
  std::vector<SymbolDef> freshSymbols(const Node &n) const;
  /// _assert_scalar, sym_constrain_range[_for_size] on a value that depends on unbacked
  /// symbols: a RuntimeCheck on the extern op that binds the last of them. Others (decided by
  /// the graph's guards) are assumptions.
  Status lowerAssertion(const Node &n, const BoundArgs &args);

  const Graph &graph_;
  LoopProgram program_;
  std::vector<Lowered> values_;
  /// The symbols the program's inputs bind (placeholders' sizes, strides and SymInts).
  std::set<std::string, std::less<>> inputSymbols_;
  /// Unbacked symbols an extern op defines (SymbolDef), with that op's index.
  std::map<std::string, int32_t, std::less<>> definedSymbols_;
  int nextBuffer_ = 0;
  int64_t nextIndirect_ = 0; ///< ids of IndirectIndex symbols, unique in the program
  /// sum nodes of online softmaxes (matchOnlineSoftmaxSum) -> the buffer their amax's op
  /// stores the sum to.
  std::unordered_map<const Node *, int32_t> onlineSums_;
};

} // namespace fxkit::lowering
