#pragma once
/// \file The wrapper program as PyTorch's own FX IR of a wrapper, in the form Inductor's
/// `WrapperFxCodegen` prints it (`fxir_*.graph.txt`, `fxir_*.code.py`): `torch.empty_strided`
/// allocations, `torch.as_strided` views, `operator.*` size arithmetic, and one
/// `torch.ops.higher_order.triton_kernel_wrapper_mutation` call per kernel launch with its
/// grid and kwargs; extern ops as their `.out` overloads where one exists.

#include "ir/Error.h"
#include "ir/Graph.h"
#include "ir/wrapper/WrapperDialect.h"

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace fxkit {

/// The FX IR graph of the compiled program of `graph` (the compiler passes lower and fuse at
/// least ran on it; plan is used when present).
Expected<Graph> buildFxIr(Graph &graph);

/// buildFxIr as FX text (`str(graph)`).
Expected<std::string> writeFxIr(Graph &graph);

/// buildFxIr as the Python `forward` code torch.fx generates (`gm.code`).
Expected<std::string> writeFxIrCode(Graph &graph);

/// The Python `forward` code torch.fx generates (`gm.code`) for an FX IR graph.
std::string printFxIrCode(const Graph &fxIr);

/// What the FX IR's output node returns for a wrapper graph's `output`: WrapperFxCodegen
/// returns one value bare and several as a list, each value carried over by `remap`. Both FX
/// IR builders (of fxkit's wrapper graphs and of Inductor's, InductorFxIr.h) end this way.
Argument fxIrResult(const Node &output, const std::function<Argument(const Argument &)> &remap);

/// What both FX IR builders (of fxkit's wrapper graphs, buildFxIr, and of Inductor's,
/// InductorFxIr.h) share: the graph they build with FX's names for new nodes, the map from
/// wrapper nodes to its nodes, and the walk over the wrapper graph, one hook per kind of
/// wrapper node, that ends it with the output and drops the frees (FX's generated code frees
/// after last use by itself).
class FxIrConverter {
public:
  virtual ~FxIrConverter() = default;

protected:
  /// FX's Namespace.create_name for a candidate without a numeric suffix.
  std::string fresh(const std::string &base);
  /// A call_function node `name` of `target`.
  Node *call(const std::string &name, std::string_view target, std::vector<Argument> args,
             std::vector<std::pair<std::string, Argument>> kwargs = {}) {
    return graph_.create(OpKind::CallFunction, name, target, Argument::tuple(std::move(args)),
                         Argument::dict(std::move(kwargs)));
  }
  /// Converts the nodes of `wrapper` in order into graph_; the first error of a hook, or the
  /// one a remap left in error_ (reported after its node).
  Status convert(const Graph &wrapper);
  /// A wrapper argument with its nodes replaced by theirs in graph_.
  virtual Argument remap(const Argument &a) = 0;
  virtual Status placeholder(Node &n) = 0;
  /// An allocation: `op` is EmptyStrided, AllocFromPool or Reuse.
  virtual Status allocation(Node &n, wrapper::WrapperOp op) = 0;
  virtual Status view(Node &n) = 0;
  virtual Status kernel(const Node &n) = 0;
  /// An extern call: the node maps to the call (an op that defines unbacked symbols returns
  /// its result, which later nodes read).
  virtual Status externCall(const Node &n) = 0;
  /// Inductor's assert_size_stride and assert_alignment: other() unless overridden.
  virtual Status assertion(Node &n) { return other(n); }
  /// Size arithmetic, sym_size and anything else.
  virtual Status other(Node &n) = 0;

  Graph graph_;
  std::unordered_map<const Node *, Node *> map_; ///< wrapper node -> FX IR node
  std::string error_; ///< the first error of remap, reported after the node

private:
  std::map<std::string, size_t, std::less<>> suffix_;
};

} // namespace fxkit
