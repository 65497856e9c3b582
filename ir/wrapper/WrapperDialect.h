#pragma once
/// \file The wrapper dialect: the one definition of the call_function targets a wrapper graph
/// (the planned program as an FX graph, transforms/WrapperGraph.h; Inductor's wrapper code as
/// imported by importers/inductor/CallGraphBuilder.cpp) is made of, with builders that spell
/// each line and typed views that read one back. Every producer and every writer of wrapper
/// graphs names these ops through this header, as Inductor's Python, C++ and FX wrapper
/// codegens consume one wrapper-line IR:
///
///   torch.empty_strided(sizes, strides, dtype=, device=)    an allocation (or the pool)
///   fxkit.alloc_from_pool(pool, byte_offset, dtype, sizes, strides)
///   torch.as_strided(base, sizes, strides, offset[, reuse=donor])   a view, or reused storage
///   operator.add|sub|mul|floordiv|mod|neg, aten.sym_size.int   size arithmetic
///   fxkit.kernel(name=, launch=, args={..}, origins=[..])  a generated kernel's launch
///   fxkit.extern(op=, inputs=(..), out=[..], origins=[..]) an extern (ATen) call
///   fxkit.free(buffer)                                      the plan frees a buffer
///   fxkit.assert_size_stride / fxkit.assert_alignment       Inductor's input checks

#include "ir/Argument.h"
#include "ir/Node.h"
#include "ir/SymExpr.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fxkit::wrapper {

/// The targets of the dialect's ops.
inline constexpr std::string_view kEmptyStrided = "torch.empty_strided";
inline constexpr std::string_view kAsStrided = "torch.as_strided";
inline constexpr std::string_view kAllocFromPool = "fxkit.alloc_from_pool";
inline constexpr std::string_view kKernel = "fxkit.kernel";
inline constexpr std::string_view kExtern = "fxkit.extern";
inline constexpr std::string_view kFree = "fxkit.free";
inline constexpr std::string_view kAssertSizeStride = "fxkit.assert_size_stride";
inline constexpr std::string_view kAssertAlignment = "fxkit.assert_alignment";
inline constexpr std::string_view kSymSize = "torch.ops.aten.sym_size.int";
inline constexpr std::string_view kSymStride = "torch.ops.aten.sym_stride.int";
inline constexpr std::string_view kAssertScalar = "torch.ops.aten._assert_scalar.default";
inline constexpr std::string_view kGetItem = "operator.getitem";
/// The prefix of Python's operator module, whose functions compute scalars (sizes).
inline constexpr std::string_view kOperatorPrefix = "operator.";
/// The prefix of fxkit's own ops (`fxkit.kernel`, ...).
inline constexpr std::string_view kFxkitPrefix = "fxkit.";

/// What a node of a wrapper graph does.
enum class WrapperOp {
  Placeholder,      ///< an input: a tensor or a size symbol
  Output,           ///< the program's results
  EmptyStrided,     ///< an allocation of its own (or the pool)
  AllocFromPool,    ///< a buffer at a byte offset of the pool
  Reuse,            ///< torch.as_strided with `reuse=`: a buffer in another's storage
  View,             ///< torch.as_strided without `reuse=`: a view of a buffer
  SizeArith,        ///< operator.* over sizes
  SymSize,          ///< a tensor's size (binds a symbol)
  Kernel,           ///< a generated kernel's launch
  Extern,           ///< an extern call
  Free,             ///< the end of a buffer's life
  AssertSizeStride, ///< Inductor's input size/stride check
  AssertAlignment,  ///< Inductor's input alignment check
  Other,            ///< anything else (getitem, asserts, scalar ops of imported wrappers)
};

/// The op of `n`.
WrapperOp wrapperOpOf(const Node &n);

/// An operator.* node of size arithmetic: the SymExpr kind it computes, its usual node name
/// and its target.
struct SizeArithOp {
  SymExpr::Kind kind;
  std::string_view base;   ///< `mul`
  std::string_view target; ///< `operator.mul`
};
/// The size arithmetic op computing `kind` (Add, Sub, Mul, FloorDiv, Mod, Neg), or null.
const SizeArithOp *sizeArithOp(SymExpr::Kind kind);
/// The size arithmetic op with target `target` (`operator.mul`), or null.
const SizeArithOp *sizeArithOp(std::string_view target);

/// The expression a size node computes (a placeholder or sym_size node with a SymExpr value,
/// or operator.* over such nodes and integers), or nullopt for other nodes. `known` caches
/// the nodes already resolved.
std::optional<SymExpr> sizeExprOf(const Node &n, const std::map<const Node *, SymExpr> &known = {});
/// The expression an argument of a size position holds: an integer, a Sym, or a size node.
std::optional<SymExpr> sizeExprOf(const Argument &a,
                                  const std::map<const Node *, SymExpr> &known = {});

/// Whether `s` is a Python and C++ identifier (letters, digits, underscores, not a digit first):
/// names of wrapper values must be.
bool isIdentifier(std::string_view s);

/// One line of the dialect before it is placed in a graph: each producer names the node its
/// own way (`add(name, call)`).
struct Call {
  std::string_view target;
  std::vector<Argument> args;
  std::vector<std::pair<std::string, Argument>> kwargs;
};

/// Builders, one per op.
Call emptyStrided(Argument sizes, Argument strides,
                  std::vector<std::pair<std::string, Argument>> kwargs);
Call allocFromPool(Argument pool, int64_t byteOffset, DType dtype, Argument sizes,
                   Argument strides);
/// `base` as sizes/strides at `offset` elements from its storage start; `reuseOf` (the donor's
/// buffer name) marks a buffer placed in the donor's storage.
Call asStrided(Argument base, Argument sizes, Argument strides, Argument offset,
               std::optional<std::string> reuseOf = std::nullopt);
Call kernelCall(std::vector<std::pair<std::string, Argument>> kwargs);
Call externCall(std::vector<std::pair<std::string, Argument>> kwargs);
Call freeBuffer(Argument buffer, bool atReturn = false);
Call symSize(Argument tensor, int64_t dim);
Call sizeArith(SymExpr::Kind kind, std::vector<Argument> operands);
Call getItem(Argument tuple, int64_t index);
Call assertScalar(Argument condition, std::string message);

/// `a` rebuilt with each leaf (not a list, tuple or dict) replaced by `leaf(leaf)`: how a writer
/// carries a wrapper node's arguments into the graph it builds.
Argument mapArgumentLeaves(const Argument &a,
                           const std::function<Argument(const Argument &)> &leaf);

/// A keyword argument of `n` by name, or null.
const Argument *kwarg(const Node &n, std::string_view key);

/// Whether `n` is the pool: the allocation without a tensor value of its own (the wrapper pass
/// types every buffer it allocates; the pool is the raw bytes that pool buffers are cut from).
bool isPool(const Node &n);

/// A typed view of a Reuse node (torch.as_strided with `reuse=`): a buffer placed in the
/// storage of another (the donor).
struct Reuse {
  Node *donor = nullptr;      ///< the donor's node
  std::string_view donorName; ///< the donor's buffer name (`reuse=`)
  /// In place: the launch that writes this buffer reads the donor, which the plan hands over
  /// instead of freeing it (the donor has no fxkit.free). Otherwise the donor died earlier (its
  /// fxkit.free comes before) and its storage is taken over.
  bool inPlace = false;
};
std::optional<Reuse> asReuse(const Node &n);

/// A typed view of an fxkit.kernel node.
struct KernelCall {
  std::string_view name;
  int64_t launch = -1;            ///< index into the fused program's kernels; -1 when imported
  const Argument *args = nullptr; ///< {in_ptr0: buf, ..., xnumel: size}
  const Argument *origins = nullptr;
};
std::optional<KernelCall> asKernelCall(const Node &n);

/// A typed view of an fxkit.extern node.
struct ExternCall {
  std::string_view op;              ///< `torch.ops.aten.mm.default`
  const Argument *inputs = nullptr; ///< tuple of tensors (views) and values
  const Argument *out = nullptr;    ///< list of written buffers (None: the call returns it)
  const Argument *origins = nullptr;
};
std::optional<ExternCall> asExternCall(const Node &n);

/// What follows an fxkit.extern call that binds unbacked symbols (Inductor's
/// codegen_unbacked_symbol_defs): the results it sizes (no buffer exists before the call), the
/// symbols read from them, and the checks those decide.
struct ExternResults {
  /// Output index -> the call itself (one result) or operator.getitem of it.
  std::map<int64_t, const Node *> sized;
  struct Symbol {
    std::string_view name;
    int64_t output = -1; ///< -1: the call's value itself (`u0 = x.item()`)
    int64_t dim = 0;     ///< otherwise the size of output `output` in dimension `dim`
  };
  std::vector<Symbol> symbols;
  std::vector<const Node *> checks; ///< _assert_scalar(condition, message)
  std::vector<const Node *> nodes;  ///< the nodes after the call that these are, in order
  bool empty() const { return sized.empty() && symbols.empty() && checks.empty(); }
};
ExternResults externResults(const Node &call);

} // namespace fxkit::wrapper
