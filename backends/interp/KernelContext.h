#pragma once
/// \file The interface between the reference interpreter and its kernels (ir/ops/OpRegistry.h
/// declares KernelContext and the KernelFn slot; this is its definition).
///
/// A kernel reads its arguments by schema name (already bound, defaults filled in), gets the
/// output type that shape inference computed for the node (so dtype, sizes and strides are
/// decided in one place), computes, and stores the result. Kernels are straightforward loops
/// in double precision (rounded to the output dtype on store), not fast paths: they are the
/// oracle for every backend.

#include "backends/interp/RuntimeValue.h"
#include "ir/SymExpr.h"
#include "ir/Tensor.h"
#include "ir/ops/OpRegistry.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace fxkit {

struct KernelContext {
  KernelContext(const BoundArgs &args, const SymExpr::Bindings &bindings,
                const std::function<const RuntimeValue *(const Node *)> &valueOf)
      : args(args), bindings(bindings), valueOf(valueOf) {}

  const BoundArgs &args;
  /// Values of the graph's symbols (s77 = 33), from integer inputs.
  const SymExpr::Bindings &bindings;
  /// Runtime value of an already executed node.
  const std::function<const RuntimeValue *(const Node *)> &valueOf;

  /// What the kernel produced; the interpreter checks it against the node's inferred type.
  RuntimeValue result;

  const Node &node() const { return args.node(); }

  /// A tensor argument. A Python number passed where a Tensor is declared (a wrapped scalar)
  /// becomes a 0-d tensor of the number's default dtype (int64, float32, bool).
  Expected<Tensor> tensor(std::string_view name) const;
  /// nullopt for None.
  Expected<std::optional<Tensor>> optionalTensor(std::string_view name) const;
  Expected<std::vector<Tensor>> tensorList(std::string_view name) const;
  /// An int, a symbolic expression or a node holding an integer, evaluated with bindings.
  Expected<int64_t> integer(std::string_view name) const;
  Expected<std::optional<int64_t>> optionalInteger(std::string_view name) const;
  /// int[] / SymInt[] evaluated with bindings (a single int repeats for `int[N]`).
  Expected<std::vector<int64_t>> intList(std::string_view name) const;
  /// nullopt for None.
  Expected<std::optional<std::vector<int64_t>>> optionalIntList(std::string_view name) const;
  /// Scalar/float/int/bool argument as a double (a node holding an integer is evaluated).
  Expected<double> scalar(std::string_view name) const;
  Expected<bool> boolean(std::string_view name) const;
  /// A Python number as it is: an int, float or bool literal, a symbolic expression
  /// evaluated with bindings, or a node's runtime int, float or bool (SymInt/SymFloat/SymBool).
  Expected<SymExpr::Number> number(std::string_view name) const;
  Expected<SymExpr::Number> numberOf(const Argument &a) const;

  /// The node's inferred result types with symbols evaluated: one entry per tensor result
  /// (a single-tensor node has one). Errors if shape inference gave no tensor type.
  Expected<std::vector<TensorType>> outputTypes() const;
  /// A zero-filled tensor with the dtype, sizes and strides of result `index` (strides as
  /// inferred, so a kernel that writes through multi-indices produces PyTorch's layout).
  Expected<Tensor> allocateOutput(size_t index = 0) const;

  /// "node 'add' (torch.ops.aten.add.Tensor): <message>".
  Error error(const std::string &message) const { return args.error(message); }
};

/// A symbolic tensor type's layout with its symbols bound: what allocateTensor allocates.
struct ConcreteLayout {
  std::vector<int64_t> sizes, strides;
  int64_t extentElements = 0; ///< storage elements the strided layout reaches (checked)
};
/// The layout of `type` under `bindings`, its element count checked against overflow (sizes
/// bound at run time, an unbacked u of 2^40, must not wrap). Allocates nothing.
Expected<ConcreteLayout> concreteLayout(const TensorType &type, const SymExpr::Bindings &bindings);

/// A zero-filled tensor of `type`'s concrete sizes and strides (concreteLayout).
Expected<Tensor> allocateTensor(const TensorType &type, const SymExpr::Bindings &bindings);

} // namespace fxkit
