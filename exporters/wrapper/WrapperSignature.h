#pragma once
/// \file The entry point of a compiled program as its wrapper graph declares it, shared by every
/// wrapper flavour (as PyTorch split `_write_wrapper_signature` out of its wrapper generators):
/// one parameter per input placeholder, in order, a tensor or an integer that binds a size
/// symbol; then the sizes of tensor inputs that bind the other symbols.

#include "ir/Error.h"
#include "ir/Graph.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"
#include "ir/wrapper/WrapperDialect.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace fxkit {

struct WrapperParam {
  const Node *node = nullptr; ///< the placeholder: typed as a tensor, or a size (Sym value)
  std::string name;           ///< a unique identifier: the input's name, or argN / symN
};

struct WrapperEntry {
  std::vector<WrapperParam> params;
  std::vector<const Node *> inputSizes; ///< sym_size nodes of inputs, each binding a symbol
  const Node *body = nullptr;           ///< the first node of the program after them
};

/// The entry point of `wrapper` (a graph the wrapper pass built, transforms/WrapperGraph.h).
WrapperEntry wrapperEntry(const Graph &wrapper);

/// The index in `fused.kernels` of each extern launch, in order: the wrapper graph's extern
/// calls come in launch order, and the loop op of each gives the ATen call it makes.
std::vector<size_t> externLaunches(const loop::FusedProgram &fused);

/// One distinct node an extern call's ATen call reads, in schema order (the order the runtimes
/// pass them): a size (`input` null) or a tensor with the wrapper argument the call passes for
/// it (`input`, the extern call's next input).
struct ExternOperand {
  const Node *node = nullptr;
  const Argument *input = nullptr;
};
/// The operands of extern call `call`, whose loop op `op` holds its ATen node: both wrapper
/// writers pass an extern op's arguments this way. Errors start with `what` (`wrapper-py`).
Expected<std::vector<ExternOperand>> externOperands(const wrapper::ExternCall &call,
                                                    const loop::LoopOp &op, std::string_view what);

/// The walk every wrapper writer makes over a wrapper graph's program (the nodes after the
/// entry point), one hook per op, with what a printer needs resolved on the way: the expression
/// of each size node, how many buffers are still to take a dead donor's storage, the loop op
/// of each extern call (its ATen call) and the nodes that read an extern call's results.
class WrapperWalk {
public:
  /// `what` (`wrapper-py`) starts the walk's errors.
  WrapperWalk(const loop::LoopProgram &p, const loop::FusedProgram &f, const Graph &w,
              std::string_view what)
      : p_(p), f_(f), w_(w), what_(what) {}
  virtual ~WrapperWalk() = default;

protected:
  /// Calls the hooks for the nodes from `from` on, in order.
  Status walk(const Node *from);
  /// The pool of `bytes` bytes.
  virtual Status pool(int64_t bytes) = 0;
  /// A buffer of its own (torch.empty_strided), in the pool, or in a donor's storage (Reuse).
  virtual Status allocation(const Node &n) = 0;
  virtual Status kernel(const Node &n, const wrapper::KernelCall &call,
                        const loop::Kernel &kernel) = 0;
  /// An extern call, `op` its loop op (with the ATen node), `results` what follows it.
  virtual Status externCall(const Node &n, const wrapper::ExternCall &call, const loop::LoopOp &op,
                            const wrapper::ExternResults &results) = 0;
  /// The plan frees `buffer` (not an input, and no later buffer takes its storage): released
  /// when the printer wrote it.
  Status free(const Node &buffer) {
    if (auto it = values_.find(&buffer); it != values_.end())
      release(it->second);
    return Status::ok();
  }
  /// Prints the release of a buffer whose printed form is `value` (`del buf0`, `buf0 = {};`).
  virtual void release(const std::string &value) = 0;
  virtual Status output(const Node &n) = 0;
  /// A size expression in the printer's language.
  virtual Expected<std::string> printSize(const SymExpr &e) const = 0;

  /// The expression a size argument holds (an integer, an expression, or a size node).
  std::optional<SymExpr> sizeOf(const Argument &a) const;
  /// A size argument of the graph (an integer, an expression, or a node computing one),
  /// printed (printSize).
  Expected<std::string> sizeText(const Argument &a) const;
  /// The printed form of a value node (a Python name, a C++ Storage): what the printer stored
  /// in `values_` when it wrote the node.
  Expected<std::string> valueOf(const Node *n) const;
  /// Buffers still to take `donor`'s storage after it died (the last one frees it).
  int reusersLeft(const Node *donor) const {
    auto it = reusers_.find(donor);
    return it == reusers_.end() ? 0 : it->second;
  }

  const loop::LoopProgram &p_;
  const loop::FusedProgram &f_;
  const Graph &w_;
  size_t launches_ = 0, externs_ = 0; ///< kernel launches and extern calls walked
  int64_t poolBytes_ = -1;            ///< the pool's size, -1 without one
  const std::string what_;
  std::unordered_map<const Node *, std::string> values_; ///< value node -> its printed form

private:
  std::map<const Node *, SymExpr> known_;         ///< size node -> its expression
  std::unordered_map<const Node *, int> reusers_; ///< donor -> buffers yet to take its storage
};

} // namespace fxkit
