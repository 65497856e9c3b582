#pragma once
/// \file A node of an FX graph: op kind, name, target, args/kwargs, users and meta.

#include "ir/Argument.h"
#include "ir/SymExpr.h"
#include "ir/TensorType.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace fxkit {

class Graph;

enum class OpKind : uint8_t { Placeholder, CallFunction, CallMethod, CallModule, GetAttr, Output };

/// "placeholder", "call_function", ... as FX prints them.
std::string_view opKindName(OpKind op);
std::optional<OpKind> parseOpKind(std::string_view text);

/// What a node's value is known to be (FX's `meta["val"]`).
struct NodeValue {
  /// One tensor, several (split, var_mean; nullopt for a non-tensor element), a symbolic
  /// scalar (SymInt, SymFloat or SymBool: placeholders such as `s77`, `sym_size` results,
  /// `u0 >= 0`; SymExpr::type() tells which), or a list whose items are not all tensors (an
  /// output returning tensors and SymInts, nested lists), each item a NodeValue.
  using Variant = std::variant<std::monostate, TensorType, std::vector<std::optional<TensorType>>,
                               SymExpr, std::vector<NodeValue>>;
  Variant v;

  bool empty() const { return std::holds_alternative<std::monostate>(v); }
  const TensorType *tensor() const { return std::get_if<TensorType>(&v); }
  const std::vector<std::optional<TensorType>> *tensors() const {
    return std::get_if<std::vector<std::optional<TensorType>>>(&v);
  }
  const SymExpr *sym() const { return std::get_if<SymExpr>(&v); }
  const std::vector<NodeValue> *items() const { return std::get_if<std::vector<NodeValue>>(&v); }
  bool operator==(const NodeValue &) const = default;
};

/// How a node relates to the other stages of one Inductor compile, as Inductor's provenance
/// tracking records it (`inductor_provenance_tracking_node_mappings.json`, read by
/// importers/json/Provenance.h, attached by importers/InductorProvenance.h). The stages are the
/// pre-grad graph (the one Dynamo captured), the post-grad graph (what Inductor lowers:
/// `fx_graph_transformed.py`, `aten_post_*.graph.txt`) and the kernel calls of the generated
/// code. Each list names the nodes of another stage that this node corresponds to, in the
/// file's order: names, not pointers, since those stages are other graphs that are seldom
/// loaded together. Which lists a node fills depends on its stage: a kernel call has its own
/// debug handle in `kernels` and what it computes in `postGrad` (and `preGrad` behind them); a
/// post-grad node the kernels computing it and its pre-grad nodes; a pre-grad node the
/// post-grad nodes it became and their kernels.
struct NodeProvenance {
  std::vector<std::string> preGrad;  ///< Dynamo graph node names
  std::vector<std::string> postGrad; ///< post-grad graph node names
  /// Kernel calls as Inductor's debug handles, `name:N` (`triton_poi_fused_add_0:3`,
  /// `extern_kernels.mm:4`, `torch.ops.aten.ceil.default:2`; plain `name` from PyTorch
  /// versions before debug handles). N is the `provenance=N` of the call in wrapper IR.
  std::vector<std::string> kernels;

  bool empty() const { return preGrad.empty() && postGrad.empty() && kernels.empty(); }
  bool operator==(const NodeProvenance &) const = default;
};

class Node {
public:
  OpKind op() const { return op_; }
  const std::string &name() const { return name_; }
  std::string_view target() const { return target_; }
  void setTarget(std::string_view target);

  /// Positional arguments: always a Tuple.
  const Argument &args() const { return args_; }
  /// Keyword arguments: always a Dict.
  const Argument &kwargs() const { return kwargs_; }
  /// Replaces the arguments and keeps users of old and new inputs consistent.
  void setArgs(Argument args);
  void setKwargs(Argument kwargs);

  /// Distinct nodes that use this one, in the order they started using it (FX's users).
  const std::vector<Node *> &users() const { return users_; }
  /// Distinct input nodes, in order of first appearance in args then kwargs.
  std::vector<Node *> inputs() const;

  NodeValue &value() { return value_; }
  const NodeValue &value() const { return value_; }

  /// The Python type FX prints after the name (`torch.SymInt`, `torch.nn.parameter.Parameter`);
  /// empty when none.
  std::string_view pythonType() const { return pythonType_; }
  void setPythonType(std::string_view type);

  /// What Inductor's provenance tracking says about this node; null when nothing is known
  /// (most graphs). Shared and immutable, so copies of a graph share it.
  const NodeProvenance *provenance() const { return provenance_.get(); }
  /// Replaces it; an empty one clears it.
  void setProvenance(NodeProvenance provenance);

  /// Scratch slot for analyses that need a per-node number without a hash map (the verifier
  /// stores program order here). Its value is meaningful only during that analysis.
  uint32_t &scratch() const { return scratch_; }

  Node *next() const { return next_; }
  Node *prev() const { return prev_; }
  Graph *graph() const { return graph_; }

private:
  friend class Graph;
  Node(Graph *graph, OpKind op, std::string name, std::string_view target)
      : op_(op), name_(std::move(name)), target_(target), graph_(graph) {}
  void dropUses();
  void addUses();

  OpKind op_;
  mutable uint32_t scratch_ = 0;
  std::string name_;
  std::string_view target_; ///< interned
  std::string_view pythonType_;
  std::shared_ptr<const NodeProvenance> provenance_;
  Argument args_ = Argument::tuple({});
  Argument kwargs_ = Argument::dict({});
  std::vector<Node *> users_;
  NodeValue value_;
  Graph *graph_;
  Node *prev_ = nullptr;
  Node *next_ = nullptr;
};

} // namespace fxkit
