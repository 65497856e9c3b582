#pragma once
/// \file Building blocks of shape/dtype/stride inference shared by every op family file
/// (ir/ops/*Ops.cpp): result constructors, operands that may be Python numbers, pointwise
/// inference with PyTorch's type promotion kinds, and reduced shapes.

#include "ir/Try.h"
#include "ir/ops/OpRegistry.h"
#include "ir/ops/ShapeRules.h"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <vector>

namespace fxkit {

using Sizes = std::vector<SymExpr>;

/// A node value of one tensor.
inline NodeValue one(TensorType t) { return NodeValue{std::move(t)}; }

/// A node value of several tensors (an op with several results).
inline NodeValue many(std::vector<TensorType> ts) {
  std::vector<std::optional<TensorType>> out(ts.begin(), ts.end());
  return NodeValue{std::move(out)};
}

inline TensorType make(DType dtype, Sizes sizes, Sizes strides, Device device) {
  TensorType t;
  t.dtype = dtype;
  t.sizes = std::move(sizes);
  t.strides = std::move(strides);
  t.device = device;
  return t;
}

/// A contiguous (row-major) tensor type.
inline TensorType contiguous(DType dtype, Sizes sizes, Device device) {
  Sizes strides = TensorType::contiguousStrides(sizes);
  return make(dtype, std::move(sizes), std::move(strides), device);
}

/// An input of a pointwise op: a tensor or a Python scalar (number or symbolic integer).
struct Operand {
  std::optional<TensorType> tensor;
  ScalarKind scalar = ScalarKind::Float;
};

/// Reads argument `name` as a tensor or a Python number.
Expected<Operand> operand(const BoundArgs &b, std::string_view name);

/// How a pointwise op's result dtype follows from the promoted input dtype
/// (torch._prims_common.ELEMENTWISE_TYPE_PROMOTION_KIND).
enum class Promote : uint8_t {
  Default,        ///< the promoted dtype
  IntToFloat,     ///< integral and bool promote to the default float dtype
  AlwaysBool,     ///< comparisons, logical ops, isnan
  NoOpMath,       ///< the dtype of the first tensor (no promotion: abs, clone)
  NoOpMathNoBool, ///< NoOpMath, and a bool first tensor is refused (neg, relu)
  IntOnly,        ///< the promoted dtype, which must be integral or bool (bitwise ops)
  IntNoBool,      ///< the promoted dtype, which must be integral, not bool (shifts)
  Prim,           ///< prims: no promotion, operands of one dtype and one shape, result that dtype
  PrimBool,       ///< prims comparisons and signbit: as Prim, the result bool
};

/// TensorIterator's inference over the arguments `names`: broadcast shape, promoted dtype by
/// `promote`, strides that follow the inputs' layout, the first dimensioned tensor's device.
Expected<NodeValue> pointwise(const BoundArgs &b, std::initializer_list<std::string_view> names,
                              Promote promote);

/// Reduced shape; `dims` empty or absent reduces everything. A dim may appear once
/// (at::dim_list_to_bitset; on a 0-d tensor 0 and -1 are the same dim).
Expected<Sizes> reducedShape(const BoundArgs &b, const Sizes &sizes,
                             const std::optional<std::vector<int64_t>> &dims, bool keepdim);

/// The device argument `name`, or the default (CPU) for None.
Expected<Device> deviceOr(const BoundArgs &b, std::string_view name);

} // namespace fxkit
