/// \file Reference kernels of the reduction op family (ir/ops/ReductionOps.cpp): any/all,
/// argmax/argmin, max/min.dim, prod, var, logsumexp, cumsum/cumprod, sort, softmax and its
/// backward, layer/group/batch normalisation and their backward, dropout, _local_scalar_dense.
///
/// Every kernel splits its input into groups (the elements one result combines, or one lane
/// of a scan) through the input's own strides, accumulates in double (integers exactly in
/// int64, wrapping as PyTorch does) and rounds once when it stores into the dtype inference
/// chose, so float16/bfloat16 results match eager up to its float accumulation.

#include "backends/interp/KernelSupport.h"
#include "backends/interp/OpFamilyKernels.h"
#include "ir/Try.h"
#include "ir/ops/ShapeRules.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

namespace fxkit {
namespace reduction_family_kernels {

namespace {

/// Storage offsets of the elements of `t` over the dims where `select` is true, in row-major
/// order of those dims; relative to the tensor's storage offset unless `withBase`.
std::vector<int64_t> offsetsOver(const Tensor &t, const std::vector<bool> &select, bool withBase) {
  std::vector<int64_t> sizes, strides, out;
  for (int64_t d = 0; d < t.dim(); ++d)
    if (select[d]) {
      sizes.push_back(t.size(d));
      strides.push_back(t.stride(d));
    }
  int64_t base = withBase ? t.storageOffset() : 0;
  Tensor::forEachIndex(sizes, [&](std::span<const int64_t> index) {
    int64_t offset = base;
    for (size_t i = 0; i < index.size(); ++i)
      offset += index[i] * strides[i];
    out.push_back(offset);
  });
  return out;
}

/// Storage offsets of every element of `t`, in row-major order of its sizes.
std::vector<int64_t> elementOffsets(const Tensor &t) {
  return offsetsOver(t, std::vector<bool>(t.dim(), true), true);
}

/// A tensor split for a reduction or a scan: `outer` holds the storage offset of each group's
/// first element (row-major over the kept dims, which is also the order of a reduction's
/// results with or without keepdim), `inner` the offsets of a group's elements relative to it
/// (row-major over the reduced dims).
struct Groups {
  std::vector<int64_t> outer, inner;
};

Groups groupsOf(const Tensor &t, const std::vector<bool> &reduced) {
  std::vector<bool> kept(reduced.size());
  for (size_t d = 0; d < reduced.size(); ++d)
    kept[d] = !reduced[d];
  return {offsetsOver(t, kept, true), offsetsOver(t, reduced, false)};
}

/// Which dims a reduction over `dims` reduces (nullopt or empty: all). Errors as PyTorch's for
/// a dim out of range or listed twice; a 0-d tensor takes 0 and -1 (and has nothing to mark).
Expected<std::vector<bool>> reducedDims(const KernelContext &ctx, int64_t rank,
                                        const std::optional<std::vector<int64_t>> &dims) {
  std::vector<bool> reduced(rank, !dims || dims->empty());
  std::vector<bool> seen(std::max<int64_t>(rank, 1), false);
  for (int64_t dim : dims ? *dims : std::vector<int64_t>{}) {
    auto d = normalizeDim(dim, static_cast<size_t>(rank));
    if (!d)
      return ctx.error(d.error().message);
    if (seen[*d])
      return ctx.error("dim " + std::to_string(*d) + " appears multiple times in the list of dims");
    seen[*d] = true;
    if (rank > 0)
      reduced[*d] = true;
  }
  return reduced;
}

/// One dim (or everything for a 0-d tensor) as a reduction mask.
Expected<std::vector<bool>> oneDim(const KernelContext &ctx, int64_t rank, int64_t dim) {
  return reducedDims(ctx, rank, std::vector<int64_t>{dim});
}

/// Copies one element between tensors: floats through double (exact for every float dtype),
/// integers and bools exactly.
void copyElement(const Tensor &from, int64_t fromOffset, Tensor &to, int64_t toOffset) {
  if (dtypeIsFloating(from.dtype()))
    to.storeDouble(toOffset, from.loadDouble(fromOffset));
  else
    to.storeInt(toOffset, from.loadInt(fromOffset));
}

/// `t` converted to `dtype` when it differs (the `dtype=` of sum-like ops converts first).
Expected<Tensor> convertedTo(const Tensor &t, DType dtype) {
  return t.dtype() == dtype ? Expected<Tensor>(t) : t.to(dtype);
}

/// Errors unless every group has elements (reductions without identity: max, argmax).
Status requireElements(const KernelContext &ctx, const Groups &g, const Tensor &t) {
  if (!g.inner.empty() || g.outer.empty())
    return Status::ok();
  return ctx.error(ctx.args.op().schema.name +
                   "(): Expected reduction dim to have non-zero size (input of size " +
                   kernels::sizesStr(t.sizes()) + ")");
}

/// A kernel's result of several tensors.
void setResults(KernelContext &ctx, std::vector<std::optional<Tensor>> results) {
  ctx.result.v = std::move(results);
}

// ---- any, all ----

/// any/all (.dim, .dims, .default): whether any (all) element of a group is non-zero (NaN
/// counts as non-zero). `.dims` with an explicit empty list reduces nothing.
template <bool all> Status anyAllKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  const std::string &overload = ctx.args.op().schema.overload;
  std::optional<std::vector<int64_t>> dims;
  std::vector<bool> reduced;
  if (overload == "dim") {
    FXKIT_ASSIGN_OR_RETURN(auto dim, ctx.integer("dim"));
    dims = std::vector<int64_t>{dim};
  } else if (overload == "dims") {
    FXKIT_ASSIGN_OR_RETURN(auto d, ctx.optionalIntList("dim"));
    dims = std::move(d);
  }
  if (dims && dims->empty()) {
    reduced.assign(self.dim(), false);
  } else {
    FXKIT_ASSIGN_OR_RETURN(auto r, reducedDims(ctx, self.dim(), dims));
    reduced = std::move(r);
  }
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  Groups g = groupsOf(self, reduced);
  std::vector<int64_t> at = elementOffsets(out);
  for (size_t i = 0; i < g.outer.size(); ++i) {
    bool result = all;
    for (int64_t offset : g.inner)
      if ((self.loadDouble(g.outer[i] + offset) != 0) != all) {
        result = !all;
        break;
      }
    out.storeInt(at[i], result ? 1 : 0);
  }
  ctx.result.v = std::move(out);
  return Status::ok();
}

// ---- argmax, argmin, max.dim, min.dim ----

bool isNan(double x) { return std::isnan(x); }
bool isNan(int64_t) { return false; }

/// Position in `inner` of the first maximum (or minimum) of a group; a NaN wins at its first
/// occurrence, as in PyTorch.
template <bool isMax, typename T, typename Load>
int64_t bestPosition(const std::vector<int64_t> &inner, int64_t first, Load load) {
  T best = load(first + inner[0]);
  int64_t position = 0;
  for (size_t k = 0; k < inner.size() && !isNan(best); ++k) {
    T x = load(first + inner[k]);
    if (isNan(x) || (isMax ? x > best : x < best)) {
      best = x;
      position = static_cast<int64_t>(k);
    }
  }
  return position;
}

/// bestPosition with exact integer comparison for integer and bool tensors.
template <bool isMax>
int64_t bestOf(const Tensor &t, int64_t first, const std::vector<int64_t> &inner) {
  if (dtypeIsFloating(t.dtype()))
    return bestPosition<isMax, double>(inner, first, [&](int64_t o) { return t.loadDouble(o); });
  return bestPosition<isMax, int64_t>(inner, first, [&](int64_t o) { return t.loadInt(o); });
}

/// argmax/argmin: int64 position of the first extremum along dim, or in the flattened input
/// for dim=None. Bool inputs are refused as eager refuses them.
template <bool isMax> Status argKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, ctx.optionalInteger("dim"));
  const std::string &fn = ctx.args.op().schema.name;
  if (self.dtype() == DType::Bool)
    return ctx.error(fn + "(): does not support bool input");
  std::optional<std::vector<int64_t>> dims;
  if (dim)
    dims = std::vector<int64_t>{*dim};
  FXKIT_ASSIGN_OR_RETURN(auto reduced, reducedDims(ctx, self.dim(), dims));
  Groups g = groupsOf(self, reduced);
  FXKIT_TRY(requireElements(ctx, g, self));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  std::vector<int64_t> at = elementOffsets(out);
  for (size_t i = 0; i < g.outer.size(); ++i)
    out.storeInt(at[i], bestOf<isMax>(self, g.outer[i], g.inner));
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// max.dim/min.dim: (values, int64 indices) of the first extremum along dim.
template <bool isMax> Status extremumDimKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, ctx.integer("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto reduced, oneDim(ctx, self.dim(), dim));
  Groups g = groupsOf(self, reduced);
  FXKIT_TRY(requireElements(ctx, g, self));
  FXKIT_ASSIGN_OR_RETURN(auto values, ctx.allocateOutput(0));
  FXKIT_ASSIGN_OR_RETURN(auto indices, ctx.allocateOutput(1));
  std::vector<int64_t> valueAt = elementOffsets(values), indexAt = elementOffsets(indices);
  for (size_t i = 0; i < g.outer.size(); ++i) {
    int64_t k = bestOf<isMax>(self, g.outer[i], g.inner);
    copyElement(self, g.outer[i] + g.inner[k], values, valueAt[i]);
    indices.storeInt(indexAt[i], k);
  }
  setResults(ctx, {std::move(values), std::move(indices)});
  return Status::ok();
}

// ---- prod, cumsum, cumprod ----

/// Sum or product of int64 values, wrapping modulo 2^64 as PyTorch's int64 arithmetic does.
uint64_t combineInt(uint64_t acc, int64_t x, bool product) {
  return product ? acc * static_cast<uint64_t>(x) : acc + static_cast<uint64_t>(x);
}

/// prims.xor_sum: the XOR of each group's int64 values (0 for an empty group), stored in the
/// result dtype (wrapping to it, as the XOR of narrower integers does).
Status xorSumKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto inp, ctx.tensor("inp"));
  FXKIT_ASSIGN_OR_RETURN(auto dims, ctx.optionalIntList("dims"));
  FXKIT_ASSIGN_OR_RETURN(auto reduced, reducedDims(ctx, inp.dim(), dims));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  Groups g = groupsOf(inp, reduced);
  std::vector<int64_t> at = elementOffsets(out);
  for (size_t i = 0; i < g.outer.size(); ++i) {
    int64_t acc = 0;
    for (int64_t offset : g.inner)
      acc ^= inp.loadInt(g.outer[i] + offset);
    out.storeInt(at[i], acc);
  }
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// prod.default/prod.dim_int in the result dtype (the input converted to it first).
Status prodKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  std::optional<std::vector<int64_t>> dims;
  if (ctx.args.op().schema.overload == "dim_int") {
    FXKIT_ASSIGN_OR_RETURN(auto dim, ctx.integer("dim"));
    dims = std::vector<int64_t>{dim};
  }
  FXKIT_ASSIGN_OR_RETURN(auto reduced, reducedDims(ctx, self.dim(), dims));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  FXKIT_ASSIGN_OR_RETURN(auto in, convertedTo(self, out.dtype()));
  Groups g = groupsOf(in, reduced);
  std::vector<int64_t> at = elementOffsets(out);
  bool integral = !dtypeIsFloating(out.dtype());
  for (size_t i = 0; i < g.outer.size(); ++i) {
    uint64_t exact = 1;
    double acc = 1;
    for (int64_t offset : g.inner) {
      if (integral)
        exact = combineInt(exact, in.loadInt(g.outer[i] + offset), true);
      else
        acc *= in.loadDouble(g.outer[i] + offset);
    }
    if (integral)
      out.storeInt(at[i], static_cast<int64_t>(exact));
    else
      out.storeDouble(at[i], acc);
  }
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// cumsum/cumprod along dim in the result dtype (integers and bools accumulate in int64).
template <bool product> Status cumulativeKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, ctx.integer("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto reduced, oneDim(ctx, self.dim(), dim));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  FXKIT_ASSIGN_OR_RETURN(auto in, convertedTo(self, out.dtype()));
  Groups gi = groupsOf(in, reduced), go = groupsOf(out, reduced);
  bool integral = !dtypeIsFloating(out.dtype());
  for (size_t i = 0; i < gi.outer.size(); ++i) {
    uint64_t exact = product ? 1 : 0;
    double acc = product ? 1 : 0;
    for (size_t k = 0; k < gi.inner.size(); ++k) {
      int64_t from = gi.outer[i] + gi.inner[k], to = go.outer[i] + go.inner[k];
      if (integral) {
        exact = combineInt(exact, in.loadInt(from), product);
        out.storeInt(to, static_cast<int64_t>(exact));
      } else {
        double x = in.loadDouble(from);
        acc = product ? acc * x : acc + x;
        out.storeDouble(to, acc);
      }
    }
  }
  ctx.result.v = std::move(out);
  return Status::ok();
}

// ---- sort ----

/// Stable order of a lane's keys: ascending puts NaN last, descending puts it first (as
/// PyTorch, whose sort treats NaN as larger than every number).
template <typename T>
void stableOrder(std::vector<int64_t> &order, const std::vector<T> &keys, bool descending) {
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    T x = keys[a], y = keys[b];
    if (descending)
      return !isNan(y) && (isNan(x) || x > y);
    return !isNan(x) && (isNan(y) || x < y);
  });
}

/// sort.default/sort.stable: always stable (a valid result for stable=False too).
Status sortKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, ctx.integer("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto descending, ctx.boolean("descending"));
  FXKIT_ASSIGN_OR_RETURN(auto reduced, oneDim(ctx, self.dim(), dim));
  FXKIT_ASSIGN_OR_RETURN(auto values, ctx.allocateOutput(0));
  FXKIT_ASSIGN_OR_RETURN(auto indices, ctx.allocateOutput(1));
  Groups gs = groupsOf(self, reduced), gv = groupsOf(values, reduced),
         gx = groupsOf(indices, reduced);
  size_t n = gs.inner.size();
  std::vector<int64_t> order(n);
  std::vector<double> floats(n);
  std::vector<int64_t> ints(n);
  bool floating = dtypeIsFloating(self.dtype());
  for (size_t i = 0; i < gs.outer.size(); ++i) {
    for (size_t k = 0; k < n; ++k) {
      int64_t at = gs.outer[i] + gs.inner[k];
      if (floating)
        floats[k] = self.loadDouble(at);
      else
        ints[k] = self.loadInt(at);
    }
    if (floating)
      stableOrder(order, floats, descending);
    else
      stableOrder(order, ints, descending);
    for (size_t k = 0; k < n; ++k) {
      copyElement(self, gs.outer[i] + gs.inner[order[k]], values, gv.outer[i] + gv.inner[k]);
      indices.storeInt(gx.outer[i] + gx.inner[k], order[k]);
    }
  }
  setResults(ctx, {std::move(values), std::move(indices)});
  return Status::ok();
}

// ---- var, logsumexp ----

/// Mean and sum of squared deviations of a group, in two passes.
std::pair<double, double> meanAndSquares(const Tensor &t, int64_t first,
                                         const std::vector<int64_t> &inner) {
  double sum = 0, squares = 0;
  for (int64_t offset : inner)
    sum += t.loadDouble(first + offset);
  double mean = sum / static_cast<double>(inner.size());
  for (int64_t offset : inner) {
    double d = t.loadDouble(first + offset) - mean;
    squares += d * d;
  }
  return {mean, squares};
}

/// var.correction/var.dim: squares / max(0, N - correction), so N <= correction gives inf or
/// NaN as in PyTorch (correction defaults to 1; var.dim's unbiased=False is 0).
Status varKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dims, ctx.optionalIntList("dim"));
  double correction = 1;
  if (ctx.args.op().schema.overload == "dim") {
    FXKIT_ASSIGN_OR_RETURN(auto unbiased, ctx.boolean("unbiased"));
    correction = unbiased ? 1 : 0;
  } else if (!ctx.args.get("correction").isNone()) {
    FXKIT_ASSIGN_OR_RETURN(auto c, ctx.scalar("correction"));
    correction = c;
  }
  if (!dtypeIsFloating(self.dtype()))
    return ctx.error("std and var only support floating point and complex dtypes");
  FXKIT_ASSIGN_OR_RETURN(auto reduced, reducedDims(ctx, self.dim(), dims));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  Groups g = groupsOf(self, reduced);
  std::vector<int64_t> at = elementOffsets(out);
  double divisor = std::max(0.0, static_cast<double>(g.inner.size()) - correction);
  for (size_t i = 0; i < g.outer.size(); ++i)
    out.storeDouble(at[i], meanAndSquares(self, g.outer[i], g.inner).second / divisor);
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// The maximum of a group with NaN winning (amax's semantics); -inf for no elements.
double groupMax(const Tensor &t, int64_t first, const std::vector<int64_t> &inner) {
  double best = -std::numeric_limits<double>::infinity();
  for (int64_t offset : inner) {
    double x = t.loadDouble(first + offset);
    if (std::isnan(x))
      return x;
    best = std::max(best, x);
  }
  return best;
}

/// logsumexp as torch._refs.logsumexp: log(sum(exp(x - m))) + m with m the max, taken as 0
/// where it is infinite (a row of -inf gives -inf, one holding +inf gives inf); NaN
/// propagates; zero elements give -inf.
Status logsumexpKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dims, ctx.optionalIntList("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto reduced, reducedDims(ctx, self.dim(), dims));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  Groups g = groupsOf(self, reduced);
  std::vector<int64_t> at = elementOffsets(out);
  for (size_t i = 0; i < g.outer.size(); ++i) {
    double m = groupMax(self, g.outer[i], g.inner);
    if (std::isinf(m))
      m = 0;
    double sum = 0;
    for (int64_t offset : g.inner)
      sum += std::exp(self.loadDouble(g.outer[i] + offset) - m);
    out.storeDouble(at[i], std::log(sum) + m);
  }
  ctx.result.v = std::move(out);
  return Status::ok();
}

// ---- softmax ----

/// _softmax/_log_softmax along dim, as the decomposition: x - max (NaN and a lane of -inf give
/// NaN), exp, normalise. half_to_float's float32 result comes from inference.
template <bool log> Status softmaxKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, ctx.integer("dim"));
  if (!dtypeIsFloating(self.dtype()))
    return ctx.error(std::string(log ? "log_softmax" : "softmax") + " is not implemented for " +
                     std::string(dtypeName(self.dtype())) +
                     " tensors (PyTorch's kernels take floating-point inputs)");
  FXKIT_ASSIGN_OR_RETURN(auto reduced, oneDim(ctx, self.dim(), dim));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  Groups gi = groupsOf(self, reduced), go = groupsOf(out, reduced);
  std::vector<double> shifted(gi.inner.size());
  for (size_t i = 0; i < gi.outer.size(); ++i) {
    double m = groupMax(self, gi.outer[i], gi.inner), sum = 0;
    for (size_t k = 0; k < shifted.size(); ++k) {
      shifted[k] = self.loadDouble(gi.outer[i] + gi.inner[k]) - m;
      sum += std::exp(shifted[k]);
    }
    for (size_t k = 0; k < shifted.size(); ++k)
      out.storeDouble(go.outer[i] + go.inner[k],
                      log ? shifted[k] - std::log(sum) : std::exp(shifted[k]) / sum);
  }
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// _softmax_backward_data: y * (g - sum(g * y)); _log_softmax_backward_data:
/// g - exp(y) * sum(g), along dim, in input_dtype (from inference).
template <bool log> Status softmaxBackwardKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto grad, ctx.tensor("grad_output"));
  FXKIT_ASSIGN_OR_RETURN(auto output, ctx.tensor("output"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, ctx.integer("dim"));
  if (grad.sizes() != output.sizes())
    return ctx.error("grad_output " + kernels::sizesStr(grad.sizes()) + " and output " +
                     kernels::sizesStr(output.sizes()) + " differ in size");
  FXKIT_ASSIGN_OR_RETURN(auto reduced, oneDim(ctx, grad.dim(), dim));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  Groups gg = groupsOf(grad, reduced), gy = groupsOf(output, reduced), go = groupsOf(out, reduced);
  size_t n = gg.inner.size();
  for (size_t i = 0; i < gg.outer.size(); ++i) {
    auto g = [&](size_t k) { return grad.loadDouble(gg.outer[i] + gg.inner[k]); };
    auto y = [&](size_t k) { return output.loadDouble(gy.outer[i] + gy.inner[k]); };
    double sum = 0;
    for (size_t k = 0; k < n; ++k)
      sum += log ? g(k) : g(k) * y(k);
    for (size_t k = 0; k < n; ++k)
      out.storeDouble(go.outer[i] + go.inner[k],
                      log ? g(k) - std::exp(y(k)) * sum : g(k) * y(k) - y(k) * sum);
  }
  ctx.result.v = std::move(out);
  return Status::ok();
}

// ---- Normalisations ----

/// The results of a node whose value may hold None (masked gradients): a zero-filled tensor
/// laid out as inferred for each tensor result, nullopt for the others.
Expected<std::vector<std::optional<Tensor>>> allocateResults(const KernelContext &ctx) {
  const auto *types = ctx.node().value().tensors();
  if (!types)
    return ctx.error("shape inference gave no list of results for this node");
  std::vector<std::optional<Tensor>> out;
  for (const auto &type : *types) {
    if (!type) {
      out.emplace_back();
      continue;
    }
    auto t = allocateTensor(*type, ctx.bindings);
    if (!t)
      return ctx.error(t.error().message);
    out.emplace_back(t.take());
  }
  return out;
}

/// Element `i` (row-major) of an optional parameter, or `fallback` without one.
struct Param {
  std::optional<Tensor> t;
  std::vector<int64_t> at;
  double fallback = 1;

  double operator[](size_t i) const { return t ? t->loadDouble(at[i]) : fallback; }
};

Expected<Param> paramArg(const KernelContext &ctx, std::string_view name, double fallback,
                         int64_t count) {
  FXKIT_ASSIGN_OR_RETURN(auto t, ctx.optionalTensor(name));
  Param p{t, t ? elementOffsets(*t) : std::vector<int64_t>{}, fallback};
  if (t && static_cast<int64_t>(p.at.size()) != count)
    return ctx.error(std::string(name) + " has " + std::to_string(p.at.size()) +
                     " elements, expected " + std::to_string(count));
  return p;
}

/// The dims native_layer_norm normalises: the trailing ones matching normalized_shape.
Expected<std::vector<bool>> layerNormDims(const KernelContext &ctx, const Tensor &input) {
  FXKIT_ASSIGN_OR_RETURN(auto normalized, ctx.intList("normalized_shape"));
  int64_t k = static_cast<int64_t>(normalized.size()), axis = input.dim() - k;
  bool ok = k >= 1 && axis >= 0 &&
            std::equal(normalized.begin(), normalized.end(), input.sizes().begin() + axis);
  if (!ok)
    return ctx.error("normalized_shape " + kernels::sizesStr(normalized) +
                     " does not match the trailing sizes of input " +
                     kernels::sizesStr(input.sizes()));
  std::vector<bool> reduced(input.dim(), false);
  std::fill(reduced.begin() + axis, reduced.end(), true);
  return reduced;
}

/// native_layer_norm: (x - mean) * rstd * weight + bias over the trailing dims, with the
/// biased variance and rstd = 1 / sqrt(var + eps).
Status layerNormKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto input, ctx.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto eps, ctx.scalar("eps"));
  FXKIT_ASSIGN_OR_RETURN(auto reduced, layerNormDims(ctx, input));
  Groups gi = groupsOf(input, reduced);
  auto n = static_cast<int64_t>(gi.inner.size());
  FXKIT_ASSIGN_OR_RETURN(auto weight, paramArg(ctx, "weight", 1, n));
  FXKIT_ASSIGN_OR_RETURN(auto bias, paramArg(ctx, "bias", 0, n));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput(0));
  FXKIT_ASSIGN_OR_RETURN(auto mean, ctx.allocateOutput(1));
  FXKIT_ASSIGN_OR_RETURN(auto rstd, ctx.allocateOutput(2));
  Groups go = groupsOf(out, reduced);
  std::vector<int64_t> meanAt = elementOffsets(mean), rstdAt = elementOffsets(rstd);
  for (size_t i = 0; i < gi.outer.size(); ++i) {
    auto [mu, squares] = meanAndSquares(input, gi.outer[i], gi.inner);
    double r = 1 / std::sqrt(squares / static_cast<double>(n) + eps);
    for (size_t j = 0; j < gi.inner.size(); ++j) {
      double x = input.loadDouble(gi.outer[i] + gi.inner[j]);
      out.storeDouble(go.outer[i] + go.inner[j], (x - mu) * r * weight[j] + bias[j]);
    }
    mean.storeDouble(meanAt[i], mu);
    rstd.storeDouble(rstdAt[i], r);
  }
  setResults(ctx, {std::move(out), std::move(mean), std::move(rstd)});
  return Status::ok();
}

/// native_layer_norm_backward (torch._decomp's formulas): with x^ = (x - mean) * rstd and
/// h = g * weight, grad_input = rstd / N * (N h - sum(h) - x^ sum(h x^)), grad_weight =
/// sum over rows of g x^, grad_bias = sum over rows of g. Masked results are None.
Status layerNormBackwardKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto grad, ctx.tensor("grad_out"));
  FXKIT_ASSIGN_OR_RETURN(auto input, ctx.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto meanT, ctx.tensor("mean"));
  FXKIT_ASSIGN_OR_RETURN(auto rstdT, ctx.tensor("rstd"));
  FXKIT_ASSIGN_OR_RETURN(auto reduced, layerNormDims(ctx, input));
  if (grad.sizes() != input.sizes())
    return ctx.error("grad_out and input differ in size");
  Groups gx = groupsOf(input, reduced), gg = groupsOf(grad, reduced);
  size_t n = gx.inner.size(), rows = gx.outer.size();
  FXKIT_ASSIGN_OR_RETURN(auto weight, paramArg(ctx, "weight", 1, static_cast<int64_t>(n)));
  std::vector<int64_t> meanAt = elementOffsets(meanT), rstdAt = elementOffsets(rstdT);
  if (meanAt.size() != rows || rstdAt.size() != rows)
    return ctx.error("mean and rstd must have one element per normalised row");
  FXKIT_ASSIGN_OR_RETURN(auto results, allocateResults(ctx));
  std::optional<Groups> gi;
  if (results[0])
    gi = groupsOf(*results[0], reduced);
  std::vector<double> dWeight(n, 0), dBias(n, 0), xHat(n), h(n);
  for (size_t i = 0; i < rows; ++i) {
    double mu = meanT.loadDouble(meanAt[i]), r = rstdT.loadDouble(rstdAt[i]), sumH = 0, sumHX = 0;
    for (size_t j = 0; j < n; ++j) {
      double g = grad.loadDouble(gg.outer[i] + gg.inner[j]);
      xHat[j] = (input.loadDouble(gx.outer[i] + gx.inner[j]) - mu) * r;
      h[j] = g * weight[j];
      sumH += h[j];
      sumHX += h[j] * xHat[j];
      dWeight[j] += g * xHat[j];
      dBias[j] += g;
    }
    for (size_t j = 0; gi && j < n; ++j)
      results[0]->storeDouble(gi->outer[i] + gi->inner[j],
                              r / static_cast<double>(n) *
                                  (static_cast<double>(n) * h[j] - sumH - xHat[j] * sumHX));
  }
  for (size_t k = 1; k < 3; ++k)
    if (results[k]) {
      std::vector<int64_t> at = elementOffsets(*results[k]);
      for (size_t j = 0; j < at.size() && j < n; ++j)
        results[k]->storeDouble(at[j], k == 1 ? dWeight[j] : dBias[j]);
    }
  setResults(ctx, std::move(results));
  return Status::ok();
}

/// The (N, C, HxW) view of a group-norm input: element (n, c, s) is at
/// base + n * stride(0) + c * stride(1) + spatial[s], spatial running over dims 2.. row-major.
struct GroupNormShape {
  int64_t n = 0, channels = 0, hxw = 0, group = 0, perGroup = 0;
};

Expected<GroupNormShape> groupNormShape(const KernelContext &ctx, const Tensor &input) {
  FXKIT_ASSIGN_OR_RETURN(auto n, ctx.integer("N"));
  FXKIT_ASSIGN_OR_RETURN(auto channels, ctx.integer("C"));
  FXKIT_ASSIGN_OR_RETURN(auto hxw, ctx.integer("HxW"));
  FXKIT_ASSIGN_OR_RETURN(auto group, ctx.integer("group"));
  bool ok = input.dim() >= 2 && input.size(0) == n && input.size(1) == channels && group > 0 &&
            channels % group == 0 && input.numel() == n * channels * hxw;
  if (!ok)
    return ctx.error("group norm of an input of size " + kernels::sizesStr(input.sizes()) +
                     " with N=" + std::to_string(n) + ", C=" + std::to_string(channels) +
                     ", HxW=" + std::to_string(hxw) + ", group=" + std::to_string(group));
  return GroupNormShape{n, channels, hxw, group, channels / group};
}

/// Storage offset of (n, c) of a group-norm input (add spatial offsets for its elements).
int64_t channelBase(const Tensor &t, int64_t n, int64_t c) {
  return t.storageOffset() + n * t.stride(0) + c * t.stride(1);
}

/// Offsets of the spatial elements (dims 2..) of t relative to its (n, c) base.
std::vector<int64_t> spatialOffsets(const Tensor &t) {
  std::vector<bool> select(t.dim(), true);
  select[0] = select[1] = false;
  return offsetsOver(t, select, false);
}

/// native_group_norm: normalises each (n, group) block of perGroup channels x HxW elements,
/// then applies weight[c] and bias[c].
Status groupNormKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto input, ctx.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto eps, ctx.scalar("eps"));
  FXKIT_ASSIGN_OR_RETURN(auto s, groupNormShape(ctx, input));
  FXKIT_ASSIGN_OR_RETURN(auto weight, paramArg(ctx, "weight", 1, s.channels));
  FXKIT_ASSIGN_OR_RETURN(auto bias, paramArg(ctx, "bias", 0, s.channels));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput(0));
  FXKIT_ASSIGN_OR_RETURN(auto mean, ctx.allocateOutput(1));
  FXKIT_ASSIGN_OR_RETURN(auto rstd, ctx.allocateOutput(2));
  std::vector<int64_t> inSpatial = spatialOffsets(input), outSpatial = spatialOffsets(out);
  std::vector<int64_t> meanAt = elementOffsets(mean), rstdAt = elementOffsets(rstd);
  for (int64_t n = 0; n < s.n; ++n)
    for (int64_t gr = 0; gr < s.group; ++gr) {
      double sum = 0, squares = 0;
      auto count = static_cast<double>(s.perGroup * s.hxw);
      auto each = [&](auto fn) {
        for (int64_t c = gr * s.perGroup; c < (gr + 1) * s.perGroup; ++c)
          for (size_t k = 0; k < inSpatial.size(); ++k)
            fn(c, k, input.loadDouble(channelBase(input, n, c) + inSpatial[k]));
      };
      each([&](int64_t, size_t, double x) { sum += x; });
      double mu = sum / count;
      each([&](int64_t, size_t, double x) { squares += (x - mu) * (x - mu); });
      double r = 1 / std::sqrt(squares / count + eps);
      each([&](int64_t c, size_t k, double x) {
        out.storeDouble(channelBase(out, n, c) + outSpatial[k], (x - mu) * r * weight[c] + bias[c]);
      });
      mean.storeDouble(meanAt[n * s.group + gr], mu);
      rstd.storeDouble(rstdAt[n * s.group + gr], r);
    }
  setResults(ctx, {std::move(out), std::move(mean), std::move(rstd)});
  return Status::ok();
}

/// Per (n, c) sums of g * x and of g over the spatial elements (the decomposition's ds, db).
struct ChannelSums {
  std::vector<double> ds, db;
};

ChannelSums channelSums(const Tensor &grad, const Tensor &input, const GroupNormShape &s) {
  ChannelSums sums{std::vector<double>(s.n * s.channels, 0),
                   std::vector<double>(s.n * s.channels, 0)};
  std::vector<int64_t> gSpatial = spatialOffsets(grad), xSpatial = spatialOffsets(input);
  for (int64_t n = 0; n < s.n; ++n)
    for (int64_t c = 0; c < s.channels; ++c)
      for (size_t k = 0; k < gSpatial.size(); ++k) {
        double g = grad.loadDouble(channelBase(grad, n, c) + gSpatial[k]);
        sums.ds[n * s.channels + c] += g * input.loadDouble(channelBase(input, n, c) + xSpatial[k]);
        sums.db[n * s.channels + c] += g;
      }
  return sums;
}

/// native_group_norm_backward with torch._decomp's formulas (c1 = rstd * gamma,
/// c2 = (db' mean - ds') rstd^3 / (HxW cpg), c3 = -c2 mean - db' rstd / (HxW cpg);
/// grad_input = g c1 + x c2 + c3; grad_gamma[c] = sum_n (ds - db mean) rstd; grad_beta = sum_n db).
Status groupNormBackwardKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto grad, ctx.tensor("grad_out"));
  FXKIT_ASSIGN_OR_RETURN(auto input, ctx.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto meanT, ctx.tensor("mean"));
  FXKIT_ASSIGN_OR_RETURN(auto rstdT, ctx.tensor("rstd"));
  FXKIT_ASSIGN_OR_RETURN(auto s, groupNormShape(ctx, input));
  FXKIT_ASSIGN_OR_RETURN(auto gamma, paramArg(ctx, "weight", 1, s.channels));
  if (grad.sizes() != input.sizes() || meanT.numel() != s.n * s.group ||
      rstdT.numel() != s.n * s.group)
    return ctx.error("grad_out must have the input's size, mean and rstd N * group elements");
  FXKIT_ASSIGN_OR_RETURN(auto results, allocateResults(ctx));
  ChannelSums sums = channelSums(grad, input, s);
  std::vector<int64_t> meanAt = elementOffsets(meanT), rstdAt = elementOffsets(rstdT);
  std::vector<int64_t> gSpatial = spatialOffsets(grad), xSpatial = spatialOffsets(input);
  std::vector<double> dGamma(s.channels, 0), dBeta(s.channels, 0);
  double scale = 1.0 / static_cast<double>(s.hxw * s.perGroup);
  for (int64_t n = 0; n < s.n; ++n)
    for (int64_t gr = 0; gr < s.group; ++gr) {
      double mu = meanT.loadDouble(meanAt[n * s.group + gr]);
      double r = rstdT.loadDouble(rstdAt[n * s.group + gr]), dsVal = 0, dbVal = 0;
      for (int64_t c = gr * s.perGroup; c < (gr + 1) * s.perGroup; ++c) {
        dsVal += sums.ds[n * s.channels + c] * gamma[c];
        dbVal += sums.db[n * s.channels + c] * gamma[c];
        dGamma[c] += (sums.ds[n * s.channels + c] - sums.db[n * s.channels + c] * mu) * r;
        dBeta[c] += sums.db[n * s.channels + c];
      }
      double c2 = (dbVal * mu - dsVal) * r * r * r * scale, c3 = -c2 * mu - dbVal * r * scale;
      if (!results[0])
        continue;
      std::vector<int64_t> outSpatial = spatialOffsets(*results[0]);
      for (int64_t c = gr * s.perGroup; c < (gr + 1) * s.perGroup; ++c)
        for (size_t k = 0; k < gSpatial.size(); ++k) {
          double g = grad.loadDouble(channelBase(grad, n, c) + gSpatial[k]);
          double x = input.loadDouble(channelBase(input, n, c) + xSpatial[k]);
          results[0]->storeDouble(channelBase(*results[0], n, c) + outSpatial[k],
                                  g * r * gamma[c] + x * c2 + c3);
        }
    }
  for (size_t k = 1; k < 3; ++k)
    if (results[k]) {
      std::vector<int64_t> at = elementOffsets(*results[k]);
      for (int64_t c = 0; c < s.channels && c < static_cast<int64_t>(at.size()); ++c)
        results[k]->storeDouble(at[c], k == 1 ? dGamma[c] : dBeta[c]);
    }
  setResults(ctx, std::move(results));
  return Status::ok();
}

/// The per-channel groups of a batch-norm tensor: everything but dim 1 is reduced.
Expected<Groups> channelGroups(const KernelContext &ctx, const Tensor &t) {
  if (t.dim() < 2)
    return ctx.error("batch norm expects an input of at least 2 dimensions, got " +
                     kernels::sizesStr(t.sizes()));
  std::vector<bool> reduced(t.dim(), true);
  reduced[1] = false;
  return groupsOf(t, reduced);
}

/// Batch statistics of channel c: mean and biased variance over N and the spatial dims.
std::pair<double, double> batchStats(const Tensor &input, const Groups &g, size_t c) {
  auto [mean, squares] = meanAndSquares(input, g.outer[c], g.inner);
  return {mean, squares / static_cast<double>(g.inner.size())};
}

/// Where the updated running statistics of a training batch norm go: the running tensors
/// themselves (Tensor(a!) of _native_batch_norm_legit) or the functional variant's results 3
/// and 4. Evaluation leaves them as they are (the functional variant returns copies).
struct RunningStats {
  std::optional<Param> mean, var;
  std::optional<Tensor> newMean, newVar; ///< the functional variant's results
  std::vector<int64_t> newMeanAt, newVarAt;

  /// momentum * batch + (1 - momentum) * running; the variance is the unbiased one (NaN for
  /// one element per channel, as in eager).
  void update(size_t c, bool training, double momentum, double mean, double var, double n) {
    double m = (*this->mean)[c], v = (*this->var)[c];
    if (training) {
      m = momentum * mean + (1 - momentum) * m;
      v = momentum * var * n / (n - 1) + (1 - momentum) * v;
    }
    if (newMean) {
      newMean->storeDouble(newMeanAt[c], m);
      newVar->storeDouble(newVarAt[c], v);
    } else if (training) {
      this->mean->t->storeDouble(this->mean->at[c], m);
      this->var->t->storeDouble(this->var->at[c], v);
    }
  }
};

Expected<RunningStats> runningStats(const KernelContext &ctx, int64_t channels) {
  RunningStats s;
  if (ctx.args.op().schema.indexOf("running_mean") < 0)
    return s;
  FXKIT_ASSIGN_OR_RETURN(auto m, paramArg(ctx, "running_mean", 0, channels));
  FXKIT_ASSIGN_OR_RETURN(auto v, paramArg(ctx, "running_var", 1, channels));
  s.mean = std::move(m);
  s.var = std::move(v);
  if (ctx.args.op().schema.name == "_native_batch_norm_legit_functional") {
    FXKIT_ASSIGN_OR_RETURN(auto newMean, ctx.allocateOutput(3));
    FXKIT_ASSIGN_OR_RETURN(auto newVar, ctx.allocateOutput(4));
    s.newMeanAt = elementOffsets(newMean);
    s.newVarAt = elementOffsets(newVar);
    s.newMean = std::move(newMean);
    s.newVar = std::move(newVar);
  }
  return s;
}

/// _native_batch_norm_legit (.default, .no_stats), _native_batch_norm_legit_no_training and
/// _native_batch_norm_legit_functional. Training normalises with the batch statistics (mean,
/// biased variance) and updates the running statistics where given (see RunningStats);
/// evaluation uses the running statistics. save_mean/save_invstd are written where inference
/// gave them C elements (CPU evaluation gives none).
Status batchNormKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto input, ctx.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto momentum, ctx.scalar("momentum"));
  FXKIT_ASSIGN_OR_RETURN(auto eps, ctx.scalar("eps"));
  bool training = false;
  if (ctx.args.op().schema.indexOf("training") >= 0) {
    FXKIT_ASSIGN_OR_RETURN(auto t, ctx.boolean("training"));
    training = t;
  }
  FXKIT_ASSIGN_OR_RETURN(auto gi, channelGroups(ctx, input));
  int64_t channels = input.size(1);
  FXKIT_ASSIGN_OR_RETURN(auto weight, paramArg(ctx, "weight", 1, channels));
  FXKIT_ASSIGN_OR_RETURN(auto bias, paramArg(ctx, "bias", 0, channels));
  FXKIT_ASSIGN_OR_RETURN(auto running, runningStats(ctx, channels));
  if (!training && !running.mean)
    return ctx.error("running_mean and running_var must not be None in eval mode");
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput(0));
  FXKIT_ASSIGN_OR_RETURN(auto saveMean, ctx.allocateOutput(1));
  FXKIT_ASSIGN_OR_RETURN(auto saveInvstd, ctx.allocateOutput(2));
  FXKIT_ASSIGN_OR_RETURN(auto go, channelGroups(ctx, out));
  std::vector<int64_t> saveMeanAt = elementOffsets(saveMean),
                       saveInvstdAt = elementOffsets(saveInvstd);
  for (int64_t c = 0; c < channels; ++c) {
    auto [mean, var] =
        training ? batchStats(input, gi, c) : std::pair{(*running.mean)[c], (*running.var)[c]};
    double invstd = 1 / std::sqrt(var + eps);
    if (running.mean)
      running.update(c, training, momentum, mean, var, static_cast<double>(gi.inner.size()));
    for (size_t k = 0; k < gi.inner.size(); ++k) {
      double x = input.loadDouble(gi.outer[c] + gi.inner[k]);
      out.storeDouble(go.outer[c] + go.inner[k], (x - mean) * invstd * weight[c] + bias[c]);
    }
    if (static_cast<int64_t>(saveMeanAt.size()) == channels) {
      saveMean.storeDouble(saveMeanAt[c], mean);
      saveInvstd.storeDouble(saveInvstdAt[c], invstd);
    }
  }
  std::vector<std::optional<Tensor>> results{std::move(out), std::move(saveMean),
                                             std::move(saveInvstd)};
  if (running.newMean) {
    results.push_back(std::move(running.newMean));
    results.push_back(std::move(running.newVar));
  }
  setResults(ctx, std::move(results));
  return Status::ok();
}

/// max.default/min.default: the extremum of every element (NaN wins), 0-d.
template <bool isMax> Status extremumAllKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  Groups g = groupsOf(self, std::vector<bool>(self.dim(), true));
  if (g.inner.empty())
    return ctx.error(ctx.args.op().schema.name +
                     "(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                     "the reduction dim with the 'dim' argument.");
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  int64_t k = bestOf<isMax>(self, g.outer[0], g.inner);
  copyElement(self, g.outer[0] + g.inner[k], out, out.storageOffset());
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// native_batch_norm_backward with torch._decomp's formulas: per channel, with mean and invstd
/// the saved (training) or running (evaluation) statistics, sum_g = sum(g),
/// dot = sum(g (x - mean)); training grad_input = (g - (x - mean) dot invstd^2 / n - sum_g / n)
/// invstd weight, evaluation g invstd weight; grad_weight = dot invstd, grad_bias = sum_g.
Status batchNormBackwardKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto grad, ctx.tensor("grad_out"));
  FXKIT_ASSIGN_OR_RETURN(auto input, ctx.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto train, ctx.boolean("train"));
  FXKIT_ASSIGN_OR_RETURN(auto eps, ctx.scalar("eps"));
  FXKIT_ASSIGN_OR_RETURN(auto gx, channelGroups(ctx, input));
  FXKIT_ASSIGN_OR_RETURN(auto gg, channelGroups(ctx, grad));
  if (grad.sizes() != input.sizes())
    return ctx.error("grad_out and input differ in size");
  int64_t channels = input.size(1);
  FXKIT_ASSIGN_OR_RETURN(auto weight, paramArg(ctx, "weight", 1, channels));
  FXKIT_ASSIGN_OR_RETURN(auto mean,
                         paramArg(ctx, train ? "save_mean" : "running_mean", 0, channels));
  FXKIT_ASSIGN_OR_RETURN(auto spread,
                         paramArg(ctx, train ? "save_invstd" : "running_var", 0, channels));
  if (!mean.t || !spread.t)
    return ctx.error(train ? "mean and invstd must not be None in training mode"
                           : "running_mean and running_var must not be None in eval mode");
  FXKIT_ASSIGN_OR_RETURN(auto results, allocateResults(ctx));
  FXKIT_ASSIGN_OR_RETURN(auto go, channelGroups(ctx, *results[0]));
  auto n = static_cast<double>(gx.inner.size());
  for (int64_t c = 0; c < channels; ++c) {
    double mu = mean[c], invstd = train ? spread[c] : 1 / std::sqrt(spread[c] + eps);
    double sumG = 0, dot = 0;
    for (size_t k = 0; k < gx.inner.size(); ++k) {
      double g = grad.loadDouble(gg.outer[c] + gg.inner[k]);
      sumG += g;
      dot += g * (input.loadDouble(gx.outer[c] + gx.inner[k]) - mu);
    }
    double scale = invstd * weight[c], proj = dot / n * invstd * invstd;
    for (size_t k = 0; k < gx.inner.size(); ++k) {
      double g = grad.loadDouble(gg.outer[c] + gg.inner[k]);
      double x = input.loadDouble(gx.outer[c] + gx.inner[k]);
      double gi = train ? (g - (x - mu) * proj - sumG / n) * scale : g * scale;
      results[0]->storeDouble(go.outer[c] + go.inner[k], gi);
    }
    for (size_t r = 1; r < 3; ++r)
      if (results[r])
        results[r]->storeDouble(results[r]->storageOffset() + c * results[r]->stride(0),
                                r == 1 ? dot * invstd : sumG);
  }
  setResults(ctx, std::move(results));
  return Status::ok();
}

// ---- Dropout, item ----

/// _local_scalar_dense: the first element as a Python number (a double for floats, an int for
/// integers, a bool for bools); like PyTorch it does not insist on exactly one element.
Status localScalarDenseKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  if (self.numel() == 0)
    return ctx.error("_local_scalar_dense: Empty tensor not supported");
  int64_t first = self.storageOffset();
  if (dtypeIsFloating(self.dtype()))
    ctx.result.v = self.loadDouble(first);
  else if (self.dtype() == DType::Bool)
    ctx.result.v = self.loadInt(first) != 0;
  else
    ctx.result.v = self.loadInt(first);
  return Status::ok();
}

} // namespace
} // namespace reduction_family_kernels

void registerReductionFamilyKernels() {
  using namespace reduction_family_kernels;
  static const std::pair<std::string_view, KernelFn> table[] = {
      {"torch.ops.aten.any.dim", anyAllKernel<false>},
      {"torch.ops.aten.any.dims", anyAllKernel<false>},
      {"torch.ops.aten.any.default", anyAllKernel<false>},
      {"torch.ops.aten.all.dim", anyAllKernel<true>},
      {"torch.ops.aten.all.dims", anyAllKernel<true>},
      {"torch.ops.aten.all.default", anyAllKernel<true>},
      {"torch.ops.aten.argmax.default", argKernel<true>},
      {"torch.ops.aten.argmin.default", argKernel<false>},
      {"torch.ops.aten.cumsum.default", cumulativeKernel<false>},
      {"torch.ops.aten.cumprod.default", cumulativeKernel<true>},
      {"torch.ops.aten.sort.default", sortKernel},
      {"torch.ops.aten.sort.stable", sortKernel},
      {"torch.ops.aten.max.dim", extremumDimKernel<true>},
      {"torch.ops.aten.min.dim", extremumDimKernel<false>},
      {"torch.ops.aten.max.default", extremumAllKernel<true>},
      {"torch.ops.aten.min.default", extremumAllKernel<false>},
      {"torch.ops.aten.prod.default", prodKernel},
      {"torch.ops.prims.xor_sum.default", xorSumKernel},
      {"torch.ops.aten.prod.dim_int", prodKernel},
      {"torch.ops.aten.var.correction", varKernel},
      {"torch.ops.aten.var.dim", varKernel},
      {"torch.ops.aten.logsumexp.default", logsumexpKernel},
      {"torch.ops.aten._softmax.default", softmaxKernel<false>},
      {"torch.ops.aten._log_softmax.default", softmaxKernel<true>},
      {"torch.ops.aten._softmax_backward_data.default", softmaxBackwardKernel<false>},
      {"torch.ops.aten._log_softmax_backward_data.default", softmaxBackwardKernel<true>},
      {"torch.ops.aten.native_layer_norm.default", layerNormKernel},
      {"torch.ops.aten.native_layer_norm_backward.default", layerNormBackwardKernel},
      {"torch.ops.aten.native_group_norm.default", groupNormKernel},
      {"torch.ops.aten.native_group_norm_backward.default", groupNormBackwardKernel},
      {"torch.ops.aten._native_batch_norm_legit.default", batchNormKernel},
      {"torch.ops.aten._native_batch_norm_legit.no_stats", batchNormKernel},
      {"torch.ops.aten._native_batch_norm_legit_no_training.default", batchNormKernel},
      {"torch.ops.aten._native_batch_norm_legit_functional.default", batchNormKernel},
      {"torch.ops.aten.native_batch_norm_backward.default", batchNormBackwardKernel},
      {"torch.ops.aten._local_scalar_dense.default", localScalarDenseKernel},
  };
  kernels::registerKernelList(table);
}

} // namespace fxkit
