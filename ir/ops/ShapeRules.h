#pragma once
/// \file PyTorch's shape, dtype and stride rules over symbolic sizes: broadcasting, type
/// promotion (with Python scalars), TensorIterator's output strides, view strides, memory
/// formats. Shared by the op table's inference functions and, later, the reference kernels.
///
/// Symbolic sizes follow PyTorch's assumptions for unbacked-free dynamic shapes: a symbol is
/// never 0 or 1 (0/1 specialization), and where an order is needed (stride sorting, view
/// chunking) expressions are compared at a size hint (every symbol taken as kSymbolHint).

#include "ir/Argument.h"
#include "ir/DType.h"
#include "ir/Error.h"
#include "ir/SymExpr.h"
#include "ir/TensorType.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

/// The value every symbol takes when symbolic expressions must be ordered.
inline constexpr int64_t kSymbolHint = 4099;

// ---- Symbolic integer helpers (results are simplified) ----
SymExpr symAdd(const SymExpr &a, const SymExpr &b);
SymExpr symSub(const SymExpr &a, const SymExpr &b);
SymExpr symMul(const SymExpr &a, const SymExpr &b);
SymExpr symFloorDiv(const SymExpr &a, const SymExpr &b);
SymExpr symProduct(const std::vector<SymExpr> &xs);
/// Equal as polynomials.
bool symEq(const SymExpr &a, const SymExpr &b);
/// Equal lengths and every size equal as polynomials.
bool sameSizes(const std::vector<SymExpr> &a, const std::vector<SymExpr> &b);
/// Whether `e` is the constant `v`.
bool symIs(const SymExpr &e, int64_t v);
/// Value at the size hint (constants exactly).
int64_t symHint(const SymExpr &e);
/// Orders at the size hint after an exact equality check: -1, 0, 1.
int symCompare(const SymExpr &a, const SymExpr &b);
/// "[2, s0, 3]", as PyTorch prints sizes in messages.
std::string sizesText(const std::vector<SymExpr> &sizes);

// ---- Dimensions ----
/// Wraps a possibly negative dim into [0, rank) (rank 0 accepts -1 and 0, like PyTorch).
Expected<int64_t> normalizeDim(int64_t dim, size_t rank);

/// Where aten.slice.Tensor's view starts along a dimension of `size` and how many elements it
/// keeps, with Python's clamping: a negative start or end counts from the end, and both are
/// clamped to [0, size] (end >= 2^62, PyTorch's "to the end", is `size`). Symbolic bounds are
/// taken as given, as Inductor's guards would have them; `step` must be a positive constant.
struct SliceBounds {
  SymExpr start, size;
};
Expected<SliceBounds> sliceBounds(const SymExpr &size, std::optional<SymExpr> start,
                                  std::optional<SymExpr> end, int64_t step);

// ---- Broadcasting ----
/// The length of the diagonal `offset` of a (size1 x size2) matrix (at::diagonal): symbolic
/// only where both sizes are the same expression and offset is 0; an error otherwise.
Expected<SymExpr> diagonalSize(const SymExpr &size1, const SymExpr &size2, int64_t offset);
/// Its first element's storage offset relative to the matrix's.
SymExpr diagonalOffset(const SymExpr &stride1, const SymExpr &stride2, int64_t offset);

/// Broadcasts shapes right-aligned; a size-1 constant stretches. Errors name the mismatch.
Expected<std::vector<SymExpr>> broadcastShapes(const std::vector<std::vector<SymExpr>> &shapes);

// ---- Type promotion ----
/// Kinds of Python scalars (wrapped numbers) in type promotion.
enum class ScalarKind : uint8_t { Bool, Int, Float };
/// torch.promote_types.
DType promoteTypes(DType a, DType b);
/// The dtype of a Python scalar of that kind when it becomes a tensor (bool, int64, float32).
DType scalarKindDType(ScalarKind kind);

/// One operand of type promotion: a tensor (its dtype and rank) or a Python scalar.
struct PromotionOperand {
  DType dtype = DType::Float32;
  size_t rank = 0;
  bool isScalar = false; ///< a wrapped number: dtype is scalarKindDType(kind)
};
/// torch.result_type: dimensioned tensors, then zero-dim tensors, then wrapped scalars, where a
/// lower priority group only wins with a higher category (bool < integral < floating).
DType resultType(const std::vector<PromotionOperand> &operands);

// ---- Strides ----
bool isContiguous(const std::vector<SymExpr> &sizes, const std::vector<SymExpr> &strides);
/// The memory format a `MemoryFormat` argument names: "contiguous_format", "channels_last",
/// "channels_last_3d" or "preserve_format", spelt or given as c10's number (0, 2, 3, 1).
std::optional<std::string_view> memoryFormatName(const Argument &a);
bool isChannelsLastContiguous(const std::vector<SymExpr> &sizes,
                              const std::vector<SymExpr> &strides);
bool isNonOverlappingAndDense(const std::vector<SymExpr> &sizes,
                              const std::vector<SymExpr> &strides);
/// torch._prims_common.are_strides_like_channels_last (4-d and 5-d).
bool stridesLikeChannelsLast(const std::vector<SymExpr> &sizes,
                             const std::vector<SymExpr> &strides);
/// Channels-last strides (NHWC order for 4-d, NDHWC for 5-d).
std::vector<SymExpr> channelsLastStrides(const std::vector<SymExpr> &sizes);
/// Strides for a memory format name (`contiguous_format`, `channels_last`,
/// `channels_last_3d`); nullopt for `preserve_format`/unknown.
std::optional<std::vector<SymExpr>> memoryFormatStrides(std::string_view format,
                                                        const std::vector<SymExpr> &sizes);

/// Output strides of a TensorIterator op of `shape` over the tensor `inputs` (already known to
/// broadcast to `shape`): the fast paths (all contiguous, all channels-last, all the same dense
/// layout) and otherwise the permutation sort of TensorIterator::reorder_dimensions.
std::vector<SymExpr> elementwiseStrides(const std::vector<SymExpr> &shape,
                                        const std::vector<const TensorType *> &inputs);
/// Strides of a `preserve_format` copy (clone, empty_like): the input's strides if it is
/// non-overlapping and dense, else dense strides in the input's stride order.
std::vector<SymExpr> preserveFormatStrides(const TensorType &input);

/// at::detail::computeStride: strides of `view(newSizes)`, or nullopt when the view cannot be
/// expressed on the input's strides (reshape then copies).
std::optional<std::vector<SymExpr>> viewStrides(const std::vector<SymExpr> &oldSizes,
                                                const std::vector<SymExpr> &oldStrides,
                                                const std::vector<SymExpr> &newSizes);
/// infer_size: resolves one -1 in `sizes` against the element count of `oldSizes`. Errors as
/// PyTorch's: more than one -1, a size below -1, sizes whose product is not the count (compared
/// as polynomials), and a -1 that the other sizes do not divide or that sits next to a 0 (any
/// value would do). With symbolic sizes a -1 only errors where no value of the symbols (never 0
/// or 1) fits; otherwise it becomes the floor division PyTorch would guard on.
Expected<std::vector<SymExpr>> inferViewSizes(const std::vector<SymExpr> &oldSizes,
                                              const std::vector<SymExpr> &sizes);

} // namespace fxkit
