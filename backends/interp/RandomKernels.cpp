/// Reference kernels of the random ops: Inductor's prims (inductor_seeds, inductor_seed,
/// inductor_lookup_seed, inductor_random, inductor_randint; ir/ops/RandomOps.cpp) and the ATen
/// ops that compile to the same loops (rand, randn, native_dropout). Every value is Philox of
/// (seed, the element's row-major index) through ir/loop/Philox.h, the functions the loop
/// interpreter, OpenCL, LLVM and the Python wrapper compute too, so all of them give the same
/// bits (tests/RandomOpsTest.cpp).
///
/// Seeds: a seeds buffer (inductor_seeds) is drawn per node as philox::nodeSeed(node name,
/// k) for its k-th seed, and the ATen ops take philox::nodeSeed(node name): deterministic per
/// node and run, the same for every backend (the extern seeds call runs this kernel on each);
/// PyTorch's generator stream is not reproduced.

#include "backends/interp/KernelSupport.h"
#include "backends/interp/OpFamilyKernels.h"

#include "ir/loop/Philox.h"

#include <cmath>

namespace fxkit {
namespace random_kernels {
namespace {

namespace philox = loop::philox;

/// Fills `out` (any layout) in row-major element order: element i gets value(i).
template <typename F> void fillRowMajor(Tensor &out, F value) {
  int64_t i = 0;
  Tensor::forEachIndex(out.sizes(), [&](std::span<const int64_t> index) {
    out.setDouble(index, value(static_cast<uint32_t>(static_cast<uint64_t>(i++))));
  });
}

/// The seed a tensor argument holds (its one element, as int64).
Expected<uint64_t> seedArg(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto seed, ctx.tensor("seed"));
  if (seed.numel() != 1)
    return ctx.error("seed must have one element");
  return static_cast<uint64_t>(seed.loadInt(seed.storageOffset()));
}

Status seedsKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  for (int64_t k = 0; k < out.numel(); ++k)
    out.storeInt(out.storageOffset() + k * (out.dim() ? out.stride(0) : 0),
                 philox::nodeSeed(ctx.node().name(), static_cast<uint64_t>(k)));
  ctx.result.v = std::move(out);
  return Status::ok();
}

Status lookupSeedKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto seeds, ctx.tensor("seeds"));
  FXKIT_ASSIGN_OR_RETURN(auto index, ctx.integer("index"));
  if (seeds.dim() != 1 || index < 0 || index >= seeds.size(0))
    return ctx.error("index " + std::to_string(index) + " is out of bounds for the seeds");
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  out.storeInt(out.storageOffset(), seeds.loadInt(seeds.storageOffset() + index * seeds.stride(0)));
  ctx.result.v = std::move(out);
  return Status::ok();
}

Status inductorRandomKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto seed, seedArg(ctx));
  const bool normal = ctx.args.get("mode").asString() == "randn";
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  fillRowMajor(out, [&](uint32_t i) {
    return static_cast<double>(normal ? philox::randn(seed, i) : philox::rand(seed, i));
  });
  ctx.result.v = std::move(out);
  return Status::ok();
}

Status inductorRandintKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto seed, seedArg(ctx));
  FXKIT_ASSIGN_OR_RETURN(auto low, ctx.integer("low"));
  FXKIT_ASSIGN_OR_RETURN(auto high, ctx.integer("high"));
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  const int64_t size =
      static_cast<int64_t>(static_cast<uint64_t>(high) - static_cast<uint64_t>(low));
  int64_t i = 0;
  Tensor::forEachIndex(out.sizes(), [&](std::span<const int64_t> index) {
    const auto offset = static_cast<uint32_t>(static_cast<uint64_t>(i++));
    out.storeInt(out.offsetOf(index),
                 static_cast<int64_t>(static_cast<uint64_t>(philox::randint64(seed, offset, size)) +
                                      static_cast<uint64_t>(low)));
  });
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// aten.rand / aten.randn: inductor_random(size, seed, mode).to(dtype) with the node's seed,
/// as Inductor's replace_random rewrites them.
template <bool Normal> Status atenRandomKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  if (!dtypeIsFloating(out.dtype()) || !dtypeIsComputable(out.dtype()))
    return ctx.error("random values of dtype " + std::string(dtypeName(out.dtype())));
  const auto seed = static_cast<uint64_t>(philox::nodeSeed(ctx.node().name()));
  fillRowMajor(out, [&](uint32_t i) {
    return static_cast<double>(Normal ? philox::randn(seed, i) : philox::rand(seed, i));
  });
  ctx.result.v = std::move(out);
  return Status::ok();
}

} // namespace

/// native_dropout (torch/_decomp's decomposition, what compiled graphs run): train=False or
/// None, or p == 0, copies the input with an all-true mask; p == 1 gives zeros and an all-false
/// mask; otherwise u = rand_like(input) (Philox float32 of the node's seed at the row-major
/// index, rounded to input's dtype), mask = u > p (p rounded to that dtype too), out =
/// mask * x * (1 / (1 - p)) in the dtype's compute type (float for float16/bfloat16), so a
/// dropped NaN stays NaN.
Status nativeDropoutKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto input, ctx.tensor("input"));
  FXKIT_ASSIGN_OR_RETURN(auto p, ctx.scalar("p"));
  bool train = false;
  if (!ctx.args.get("train").isNone()) {
    FXKIT_ASSIGN_OR_RETURN(auto t, ctx.boolean("train"));
    train = t;
  }
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput(0));
  FXKIT_ASSIGN_OR_RETURN(auto mask, ctx.allocateOutput(1));
  const DType dt = input.dtype();
  const DType compute = dt == DType::Float64 ? DType::Float64 : DType::Float32;
  const auto seed = static_cast<uint64_t>(philox::nodeSeed(ctx.node().name()));
  const double threshold = roundToFloating(p, dt);
  const double scale = roundToFloating(p < 1 ? 1 / (1 - p) : 0, compute);
  uint64_t i = 0;
  Tensor::forEachIndex(input.sizes(), [&](std::span<const int64_t> index) {
    const double x = input.getDouble(index);
    const auto offset = static_cast<uint32_t>(i++);
    if (!train || p == 0) {
      out.setDouble(index, x);
      mask.setDouble(index, 1);
    } else if (p >= 1) {
      out.setDouble(index, 0);
      mask.setDouble(index, 0);
    } else {
      const bool keep = roundToFloating(philox::rand(seed, offset), dt) > threshold;
      out.setDouble(index, roundToFloating(roundToFloating((keep ? 1.0 : 0.0) * x, compute) * scale,
                                           compute));
      mask.setDouble(index, keep ? 1 : 0);
    }
  });
  ctx.result.v = std::vector<std::optional<Tensor>>{std::move(out), std::move(mask)};
  return Status::ok();
}

} // namespace random_kernels

void registerRandomKernels() {
  using namespace random_kernels;
  static const std::pair<std::string_view, KernelFn> table[] = {
      {"torch.ops.prims.inductor_seeds.default", seedsKernel},
      {"torch.ops.prims.inductor_seed.default", seedsKernel},
      {"torch.ops.prims.inductor_lookup_seed.default", lookupSeedKernel},
      {"torch.ops.prims.inductor_random.default", inductorRandomKernel},
      {"torch.ops.prims.inductor_randint.default", inductorRandintKernel},
      {"torch.ops.aten.rand.default", atenRandomKernel<false>},
      {"torch.ops.aten.randn.default", atenRandomKernel<true>},
      {"torch.ops.aten.native_dropout.default", nativeDropoutKernel},
  };
  kernels::registerKernelList(table);
}

} // namespace fxkit
