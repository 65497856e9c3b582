#include "backends/interp/ReductionKernels.h"
#include "backends/interp/KernelSupport.h"
#include "ir/ops/ShapeRules.h"

#include "ir/Try.h"

#include <cmath>
#include <limits>

namespace fxkit {
namespace reduction_kernels {

namespace {

/// Which input elements each result element of a reduction combines. Every result element
/// reads the input at `first + inner[k]`, where `first` is the storage offset of its first
/// input element, so any strided (permuted, expanded) input is read as it is.
struct ReductionPlan {
  Tensor self;
  std::vector<bool> reduced; ///< per input dimension
  bool keepdim = false;
  std::vector<int64_t> inner; ///< storage offsets of the reduced elements, relative to `first`

  /// Calls fn(first, resultIndex) for every result element, in row-major order of the result.
  template <typename Fn> void forEachResult(Fn fn) const {
    std::vector<int64_t> outer = self.sizes(), resultIndex;
    for (size_t d = 0; d < outer.size(); ++d)
      if (reduced[d])
        outer[d] = 1;
    Tensor::forEachIndex(outer, [&](std::span<const int64_t> index) {
      int64_t first = self.storageOffset();
      resultIndex.clear();
      for (size_t d = 0; d < index.size(); ++d) {
        first += index[d] * self.stride(d);
        if (keepdim || !reduced[d])
          resultIndex.push_back(index[d]);
      }
      fn(first, std::span<const int64_t>(resultIndex));
    });
  }
};

/// Validates `dims` against self's rank (nullopt or empty reduces every dimension) and lists
/// the offsets of the reduced elements. Errors as PyTorch does: a dim out of range or repeated.
Expected<ReductionPlan> planReduction(const KernelContext &ctx, const Tensor &self,
                                      const std::optional<std::vector<int64_t>> &dims,
                                      bool keepdim) {
  ReductionPlan plan{self, std::vector<bool>(self.dim(), !dims || dims->empty()), keepdim, {}};
  if (dims) {
    std::vector<bool> seen(std::max<int64_t>(self.dim(), 1), false);
    for (int64_t dim : *dims) {
      auto d = normalizeDim(dim, static_cast<size_t>(self.dim()));
      if (!d)
        return ctx.error(d.error().message);
      if (seen[*d])
        return ctx.error("dim " + std::to_string(*d) +
                         " appears multiple times in the list of dims");
      seen[*d] = true;
      if (self.dim() > 0) // a 0-d tensor accepts dim 0 / -1 and reduces its single element
        plan.reduced[*d] = true;
    }
  }
  std::vector<int64_t> sizes, strides;
  for (int64_t d = 0; d < self.dim(); ++d)
    if (plan.reduced[d]) {
      sizes.push_back(self.size(d));
      strides.push_back(self.stride(d));
    }
  Tensor::forEachIndex(sizes, [&](std::span<const int64_t> index) {
    int64_t offset = 0;
    for (size_t i = 0; i < index.size(); ++i)
      offset += index[i] * strides[i];
    plan.inner.push_back(offset);
  });
  return plan;
}

/// The reduction arguments every sum/mean/amax/amin overload shares: `dim` and `keepdim` where
/// the schema declares them (sum.default and mean.default reduce everything).
Expected<ReductionPlan> planFromArgs(const KernelContext &ctx, const Tensor &self) {
  const OpSchema &schema = ctx.args.op().schema;
  std::optional<std::vector<int64_t>> dims;
  if (schema.indexOf("dim") >= 0) {
    FXKIT_ASSIGN_OR_RETURN(auto d, ctx.optionalIntList("dim"));
    dims = std::move(d);
  }
  bool keepdim = false;
  if (schema.indexOf("keepdim") >= 0) {
    FXKIT_ASSIGN_OR_RETURN(auto k, ctx.boolean("keepdim"));
    keepdim = k;
  }
  return planReduction(ctx, self, dims, keepdim);
}

/// amax/amin over no elements has no identity; PyTorch refuses it.
Status requireElements(const KernelContext &ctx, const ReductionPlan &plan) {
  if (!plan.inner.empty())
    return Status::ok();
  return ctx.error("cannot take the maximum or minimum of zero elements (a reduced dimension of " +
                   kernels::sizesStr(plan.self.sizes()) + " has size 0)");
}

/// var_mean and prepare_softmax_online are defined for floating-point inputs only.
Status requireFloating(const KernelContext &ctx, DType dtype, std::string_view what) {
  if (dtypeIsFloating(dtype))
    return Status::ok();
  return ctx.error(std::string(what) + " expects a floating-point tensor, got " +
                   std::string(dtypeName(dtype)));
}

/// Max (or min) of the elements at first + inner[k]; a NaN wins, as in PyTorch's amax/amin.
double extremum(const Tensor &self, int64_t first, const std::vector<int64_t> &inner, bool max) {
  double best = self.loadDouble(first + inner[0]);
  for (int64_t offset : inner) {
    double x = self.loadDouble(first + offset);
    if (std::isnan(x))
      return x;
    best = max ? std::max(best, x) : std::min(best, x);
  }
  return best;
}

enum class Reduce : uint8_t { Sum, Mean, Max, Min };

/// sum, mean, amax and amin. The result dtype comes from inference (sum of integers and bools
/// is int64, or the dtype kwarg). Integer results are computed exactly in int64 (wrapping on
/// overflow as PyTorch does, the input converted to the result dtype first as `dtype=` does);
/// floating results accumulate in double and round once on store.
template <Reduce kind> Status reduceKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto plan, planFromArgs(ctx, self));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  bool integral = !dtypeIsFloating(out.dtype());
  if (kind == Reduce::Mean && integral)
    return ctx.error("mean(): could not infer output dtype; the input dtype or dtype= must be "
                     "floating point, got " +
                     std::string(dtypeName(out.dtype())));
  if (kind == Reduce::Max || kind == Reduce::Min)
    FXKIT_TRY(requireElements(ctx, plan));
  plan.forEachResult([&](int64_t first, std::span<const int64_t> index) {
    int64_t at = out.offsetOf(index);
    if (integral && kind == Reduce::Sum) {
      uint64_t acc = 0; // unsigned: wraps modulo 2^64 without undefined behaviour
      for (int64_t offset : plan.inner)
        acc += static_cast<uint64_t>(self.loadInt(first + offset));
      out.storeInt(at, static_cast<int64_t>(acc));
    } else if (integral) {
      int64_t best = self.loadInt(first + plan.inner[0]);
      for (int64_t offset : plan.inner) {
        int64_t x = self.loadInt(first + offset);
        best = kind == Reduce::Max ? std::max(best, x) : std::min(best, x);
      }
      out.storeInt(at, best);
    } else if (kind == Reduce::Max || kind == Reduce::Min) {
      out.storeDouble(at, extremum(self, first, plan.inner, kind == Reduce::Max));
    } else {
      double acc = 0;
      for (int64_t offset : plan.inner)
        acc += self.loadDouble(first + offset);
      // Mean of zero elements is 0/0 = NaN, as in PyTorch.
      out.storeDouble(at,
                      kind == Reduce::Mean ? acc / static_cast<double>(plan.inner.size()) : acc);
    }
  });
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// var_mean.correction: (var, mean) in two passes in double. The divisor is
/// max(0, N - correction) (correction defaults to 1), so N <= correction gives inf or NaN as
/// in PyTorch.
Status varMeanKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("self"));
  FXKIT_ASSIGN_OR_RETURN(auto dims, ctx.optionalIntList("dim"));
  FXKIT_ASSIGN_OR_RETURN(auto keepdim, ctx.boolean("keepdim"));
  double correction = 1;
  if (!ctx.args.get("correction").isNone()) {
    FXKIT_ASSIGN_OR_RETURN(auto c, ctx.scalar("correction"));
    correction = c;
  }
  FXKIT_TRY(requireFloating(ctx, self.dtype(), "var_mean"));
  FXKIT_ASSIGN_OR_RETURN(auto plan, planReduction(ctx, self, dims, keepdim));
  FXKIT_ASSIGN_OR_RETURN(auto var, ctx.allocateOutput(0));
  FXKIT_ASSIGN_OR_RETURN(auto mean, ctx.allocateOutput(1));
  auto n = static_cast<double>(plan.inner.size());
  double divisor = std::max(0.0, n - correction);
  plan.forEachResult([&](int64_t first, std::span<const int64_t> index) {
    double sum = 0;
    for (int64_t offset : plan.inner)
      sum += self.loadDouble(first + offset);
    double m = sum / n, squares = 0;
    for (int64_t offset : plan.inner) {
      double dev = self.loadDouble(first + offset) - m;
      squares += dev * dev;
    }
    var.setDouble(index, squares / divisor);
    mean.setDouble(index, m);
  });
  ctx.result.v = std::vector<std::optional<Tensor>>{std::move(var), std::move(mean)};
  return Status::ok();
}

/// prims.prepare_softmax_online: (max, sum(exp(x - max))) over `dim`, keepdim-shaped. Computed
/// exactly as its eager definition (inductor_prims.eager_prepare_softmax: amax, then sum of
/// exp(x - amax)), so a row of -inf gives max -inf and sum NaN (-inf - -inf is NaN), and a NaN
/// in a row makes both NaN, as in PyTorch.
Status prepareSoftmaxOnlineKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto self, ctx.tensor("a"));
  FXKIT_ASSIGN_OR_RETURN(auto dim, ctx.integer("dim"));
  FXKIT_TRY(requireFloating(ctx, self.dtype(), "prepare_softmax_online"));
  FXKIT_ASSIGN_OR_RETURN(auto plan, planReduction(ctx, self, std::vector<int64_t>{dim}, true));
  FXKIT_TRY(requireElements(ctx, plan));
  FXKIT_ASSIGN_OR_RETURN(auto max, ctx.allocateOutput(0));
  FXKIT_ASSIGN_OR_RETURN(auto sum, ctx.allocateOutput(1));
  plan.forEachResult([&](int64_t first, std::span<const int64_t> index) {
    // The max is rounded to the dtype before the subtraction, as amax's result is in eager.
    max.setDouble(index, extremum(self, first, plan.inner, true));
    double m = max.getDouble(index), acc = 0;
    for (int64_t offset : plan.inner)
      acc += std::exp(self.loadDouble(first + offset) - m);
    sum.setDouble(index, acc);
  });
  ctx.result.v = std::vector<std::optional<Tensor>>{std::move(max), std::move(sum)};
  return Status::ok();
}

} // namespace
} // namespace reduction_kernels

void registerReductionKernels() {
  using namespace reduction_kernels;
  static const std::pair<std::string_view, KernelFn> table[] = {
      {"torch.ops.aten.sum.dim_IntList", reduceKernel<Reduce::Sum>},
      {"torch.ops.aten.sum.default", reduceKernel<Reduce::Sum>},
      {"torch.ops.aten.mean.dim", reduceKernel<Reduce::Mean>},
      {"torch.ops.aten.mean.default", reduceKernel<Reduce::Mean>},
      {"torch.ops.aten.amax.default", reduceKernel<Reduce::Max>},
      {"torch.ops.aten.amin.default", reduceKernel<Reduce::Min>},
      {"torch.ops.aten.var_mean.correction", varMeanKernel},
      {"torch.ops.prims.prepare_softmax_online.default", prepareSoftmaxOnlineKernel},
  };
  kernels::registerKernelList(table);
}

} // namespace fxkit
