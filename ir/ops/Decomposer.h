#pragma once
/// \file Composite ops: the ops torch.export keeps in its default IR (CompositeImplicitAutograd
/// ops such as linear, conv2d, layer_norm, dropout, scaled_dot_product_attention, to.dtype;
/// operator aliases such as __and__; in-place variants such as relu_) and that PyTorch's
/// run_decompositions() rewrites into Core ATen.
///
/// Each composite op has one home: its row in ir/ops/Composite*Ops.cpp, with category
/// Composite and a DecomposeFn beside it that writes the op's replacement through a Decomposer,
/// as PyTorch decomposes it (the CompositeImplicitAutograd kernels of aten/src/ATen/native,
/// torch/_decomp/decompositions.py, torch/_refs). The same function is the op's inference:
/// FakeTensor computes a CompositeImplicitAutograd op's meta by running its decomposition, and
/// inferComposite() does the same on a scratch graph, so a composite node's value is always the
/// value of what it becomes. The `decompose` pass (transforms/Decompose.h) applies the
/// decompositions to a graph; running, fusing and compiling apply it first.

#include "ir/Graph.h"
#include "ir/ops/OpRegistry.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fxkit {

/// Keyword arguments of a call a decomposition makes, in order.
using Kwargs = std::vector<std::pair<std::string, Argument>>;

/// `[1, 0]` as an argument.
Argument intListArg(const std::vector<int64_t> &values);

/// What one composite node became.
struct Decomposition {
  enum class Kind : uint8_t {
    Value, ///< one value (a tensor, or a list of tensors such as split's)
    Items, ///< several values that getitem nodes take apart (unbind, a tuple)
    None,  ///< nothing (an assertion, checked while decomposing)
  };
  Kind kind = Kind::None;
  Node *value = nullptr;     ///< Kind::Value: a new node or one of the op's inputs
  std::vector<Node *> items; ///< Kind::Items
  Node *first = nullptr;     ///< the first node the decomposition made (null: none)
  /// An in-place op (relu_, add_): the tensor it writes and the value written. Uses of
  /// `mutated` after the op read `written` instead, as functionalization has it.
  Node *mutated = nullptr;
  Node *written = nullptr;
};

/// Builds the replacement of one composite node. Every node it makes goes before the composite
/// node (so the graph stays in program order) and is typed as it is made, so a decomposition
/// reads the types of what it has built so far.
class Decomposer {
public:
  Decomposer(Graph &graph, Node &node, BoundArgs args);

  const BoundArgs &args() const { return args_; }
  const Node &node() const { return *node_; }
  /// The bound argument `name` (the explicit value or the schema's default).
  const Argument &arg(std::string_view name) const { return args_.get(name); }
  /// "node 'linear' (torch.ops.aten.linear.default): <message>".
  Error error(const std::string &message) const { return args_.error(message); }

  /// A call of `target` before the composite node, its value inferred; the result is a
  /// reference to the new node. `target` is an ATen or prims overload without `torch.ops.`
  /// (`aten.addmm.default`) or an `operator.*` function. A composite target is fine: the pass
  /// decomposes it in turn. Errors name the composite node and then the new one.
  Expected<Argument> call(std::string_view target, std::vector<Argument> args, Kwargs kwargs = {});
  /// Element `index` of a node with several results (operator.getitem).
  Expected<Argument> getitem(const Argument &value, int64_t index);
  /// The tensor type of a node argument (an input of the op or a node call() made).
  Expected<TensorType> type(const Argument &tensor) const;

  // ---- Symbolic integers, written as torch.export writes them ----
  /// Size `dim` of `tensor`: the integer when static, else a sym_size.int node.
  Expected<Argument> size(const Argument &tensor, int64_t dim);
  /// All sizes of `tensor`, as size() gives each.
  Expected<std::vector<Argument>> sizes(const Argument &tensor);
  /// a + b, a - b, a * b, a // b, a % b (Python's) over ints and SymInt nodes: folded for ints,
  /// else an operator.* node.
  Expected<Argument> add(const Argument &a, const Argument &b);
  Expected<Argument> sub(const Argument &a, const Argument &b);
  Expected<Argument> mul(const Argument &a, const Argument &b);
  Expected<Argument> floorDiv(const Argument &a, const Argument &b);
  Expected<Argument> mod(const Argument &a, const Argument &b);
  /// The symbolic value of an int or SymInt-node argument.
  Expected<SymExpr> symValue(const Argument &a) const;

  // ---- Forms many decompositions share ----
  /// `x.reshape(sizes)` as ATen's reshape decomposes: a view where the strides allow one, else
  /// a contiguous clone and a view of it.
  Expected<Argument> reshape(const Argument &x, std::vector<Argument> sizes);
  /// `x.to(dtype)`: `_to_copy` where the dtype changes, else x itself.
  Expected<Argument> convert(const Argument &x, DType dtype);
  /// `x.contiguous(memory_format)`: x where it already is, else a clone in that format.
  Expected<Argument> contiguous(const Argument &x, std::string_view memoryFormat);
  /// A 0-d tensor of `value` (scalar_tensor) of `dtype` on `device`.
  Expected<Argument> scalarTensor(const Argument &value, DType dtype, const Device &device);
  /// `arange(n)` on `device` as run_decompositions() writes it (arange.start_step; int64 unless
  /// `dtype`).
  Expected<Argument> arange(const Argument &n, const Device &device,
                            std::optional<DType> dtype = std::nullopt);

  // ---- The result (exactly one of these) ----
  /// The op's value is `value`: a node the decomposition made, or one of the op's inputs
  /// (an op that changes nothing, such as a `to` to the tensor's own dtype).
  Status result(const Argument &value);
  /// The op returns several values (unbind): its getitem users take `items[i]`.
  Status results(std::vector<Argument> items);
  /// The op returns nothing (an assertion, checked while decomposing).
  Status noResult();
  /// The op writes `written` into its input `mutated` (an in-place op).
  Status mutates(const Argument &mutated, const Argument &written);

  /// For the driver (decomposeNode): whether a result was given, and what the node became.
  bool finished() const { return finished_; }
  Decomposition take() { return std::move(out_); }
  /// Removes every node the decomposition made (after an error), last first.
  void rollBack();

private:
  Expected<Argument> symBinary(SymExpr::Kind kind, const Argument &a, const Argument &b);
  Expected<Node *> resultNode(const Argument &value, std::string_view what) const;

  Graph *graph_;
  Node *node_;
  BoundArgs args_;
  std::vector<Node *> made_;
  bool finished_ = false;
  Decomposition out_;
};

/// Runs the decomposition of `node` (a call of a Composite op) in `graph`: its replacement is
/// built before it; `node` and its users are left as they are (the decompose pass rewires
/// them). On an error nothing is left behind.
Expected<Decomposition> decomposeNode(Graph &graph, Node &node);

/// The inference of every Composite row: the value of the op's decomposition, built on a
/// scratch graph whose placeholders carry the values of the node's inputs.
Expected<NodeValue> inferComposite(const BoundArgs &args);

/// The in-place variant of an op (relu_, add_.Tensor, masked_fill_.Scalar): its functional op
/// (the name without the trailing `_`), cast back to `self`'s dtype where it differs, written
/// into `self`, as functionalization replaces it. PyTorch's checks come first: the result must
/// keep self's shape, and its dtype must cast to self's.
Status decomposeInPlace(Decomposer &d);

} // namespace fxkit
