#include "exporters/wrapper/TritonLaunchConfig.h"

#include <algorithm>
#include <map>

namespace fxkit {

namespace {

// triton_heuristics' constants (torch/_inductor/runtime/hints.py: TRITON_MAX_BLOCK).
constexpr int64_t kMaxBlockX = 4096, kMaxBlockYZ = 1024, kMaxBlockR0 = 4096 * 16;
constexpr int64_t kMaxGrid[3] = {2147483647, 65535, 65535};
constexpr int64_t kMaxPersistentBlockNumel = 4096;

int64_t nextPowerOf2(int64_t n) {
  int64_t p = 1;
  while (p < n)
    p *= 2;
  return p;
}

bool isReductionPrefix(const std::string &p) { return p.size() >= 2 && p[0] == 'r'; }

int64_t product(const std::vector<std::pair<std::string, int64_t>> &v) {
  int64_t p = 1;
  for (const auto &[k, n] : v)
    p *= n;
  return p;
}

/// The parts of a kernel's decorator the heuristics read.
struct Hints {
  std::vector<std::pair<std::string, int64_t>> size; ///< x, y, z, r0_, ... in decorator order
  std::map<std::string, int64_t, std::less<>> meta;
  std::string reductionHint, tileHint;
  int64_t minElemPerThread = 0;
  /// Size arguments among the kernel's parameters (names containing "ks"), as
  /// reduction_common counts them.
  int64_t numDynamic = 0;

  int64_t get(std::string_view prefix) const {
    for (const auto &[k, n] : size)
      if (k == prefix)
        return n;
    return 0;
  }
  bool has(std::string_view prefix) const { return get(prefix) != 0; }
  int64_t metaInt(std::string_view key) const {
    auto it = meta.find(key);
    return it == meta.end() ? 0 : it->second;
  }
  int64_t reductionNumel() const {
    int64_t p = 1;
    for (const auto &[k, n] : size)
      if (isReductionPrefix(k))
        p *= n;
    return p;
  }
};

/// triton_config(size_hints, x, y, z, min_elem_per_thread): a pointwise config.
TritonLaunchConfig pointwiseConfig(const Hints &h, int64_t x, int64_t y, int64_t z) {
  auto blockProduct = [&] { return x * (y ? y : 1) * (z ? z : 1); };
  int64_t target = blockProduct();
  if (product(h.size) < target)
    target /= 8;
  x = std::min(x, h.get("x"));
  if (y)
    y = std::min(y, h.get("y"));
  if (z)
    z = std::min(z, h.get("z"));
  while (x < std::min(h.get("x"), kMaxBlockX) &&
         (x * kMaxGrid[0] < h.get("x") || blockProduct() < target))
    x *= 2;
  while (y && y < std::min(h.get("y"), kMaxBlockYZ) &&
         (y * kMaxGrid[1] < h.get("y") || blockProduct() < target))
    y *= 2;
  while (z && z < std::min(h.get("z"), kMaxBlockYZ) &&
         (z * kMaxGrid[2] < h.get("z") || blockProduct() < target))
    z *= 2;
  // num_warps only matters through min_elem_per_thread: _num_warps(numel // 256, min 1, max 8),
  // at least 4 once the block has 128 elements.
  int64_t warps = std::clamp<int64_t>(blockProduct() / 256, 1, 8);
  int64_t pow2 = 1;
  while (pow2 < warps)
    pow2 *= 2;
  warps = pow2;
  if (blockProduct() >= 128)
    warps = std::max<int64_t>(warps, 4);
  int64_t base = blockProduct();
  int64_t blockSize = std::max(base, h.minElemPerThread * 32 * warps);
  x *= (blockSize + base - 1) / base;
  x = std::min(x, h.get("x"));
  TritonLaunchConfig c;
  c.blocks.push_back({"XBLOCK", x});
  if (y)
    c.blocks.push_back({"YBLOCK", y});
  if (z)
    c.blocks.push_back({"ZBLOCK", z});
  return c;
}

/// triton_config_reduction(size_hints, x, r): one reduction dimension (r0_).
TritonLaunchConfig reductionConfig(const Hints &h, int64_t x, int64_t r) {
  int64_t rHint = h.get("r0_");
  r = std::min({r, rHint, kMaxBlockR0});
  x = std::min(x, h.get("x"));
  int64_t target = x * r;
  if (product(h.size) < target)
    target /= 8;
  while (x < h.get("x") && x * r < target)
    x *= 2;
  while (r < rHint && x * r < target)
    r *= 2;
  while (x * r > target && r > 1)
    r /= 2;
  TritonLaunchConfig c;
  c.blocks = {{"XBLOCK", x}, {"R0_BLOCK", r}};
  return c;
}

Expected<TritonLaunchConfig> reduction(const Hints &h) {
  int64_t rnumel = h.reductionNumel();
  int64_t maxR = 2048;
  int64_t loadsAndReductions = h.metaInt("num_load") + h.metaInt("num_reduction");
  if (h.get("x") >= 1024 && loadsAndReductions >= 10)
    maxR = 1024;
  if (h.metaInt("add_persistent_rblock") && loadsAndReductions <= 8)
    return reductionConfig(h, std::max<int64_t>(4096 / rnumel, 1),
                           std::min<int64_t>(rnumel, 32768));
  if (h.reductionHint == "OUTER") {
    // outer_config_opt() for CUDA.
    int64_t x = h.get("x"), xBlock = 64, rBlock = 0, loads = h.metaInt("num_load");
    if (x <= 1024) {
      xBlock = std::max<int64_t>(std::min<int64_t>(x / 128, 8), 2);
      rBlock = std::min<int64_t>(rnumel, 64);
    } else if (x / 4096 <= 8) {
      xBlock = 16;
      rBlock = 512 / xBlock;
    } else if (h.numDynamic > 1) {
      rBlock = std::max<int64_t>(std::min<int64_t>(rnumel / 64, 64), 8);
    } else if (h.numDynamic == 1) {
      rBlock =
          loads >= 3 ? 1 : std::min<int64_t>(nextPowerOf2(std::max<int64_t>(rnumel, 128) / 128), 8);
    } else {
      xBlock = std::max<int64_t>(std::min<int64_t>(256, nextPowerOf2(x / 4096)), xBlock);
      if (loads < 4 || rnumel <= 128) {
        rBlock = 512 / xBlock;
      } else {
        rBlock = rnumel >= 2048 ? 64 : 32;
        xBlock = std::min<int64_t>(xBlock, 32);
      }
    }
    return reductionConfig(h, xBlock, rBlock);
  }
  if (h.reductionHint == "OUTER_TINY")
    return reductionConfig(h, rnumel <= 256 ? 2 * (256 / rnumel) : 1, std::min(rnumel, maxR));
  // INNER, DEFAULT (its first config is the contiguous one).
  return reductionConfig(h, rnumel <= 2048 ? 2 : 1, std::min(rnumel, maxR));
}

Expected<TritonLaunchConfig> persistentReduction(const Hints &h) {
  int64_t xnumel = h.get("x"), rnumel = h.reductionNumel();
  if (h.metaInt("RSPLIT_SIZE"))
    return Error("persistent reductions with RSPLIT_SIZE are not emulated");
  std::vector<int64_t> xBlocks;
  for (int64_t xb : {1, 8, 32, 128})
    if (xb == 1 || (rnumel * xb <= kMaxPersistentBlockNumel && xb <= xnumel))
      xBlocks.push_back(xb);
  int64_t xBlock = xBlocks.front();
  if (h.reductionHint == "INNER" && rnumel >= 256) {
    if (!(rnumel > 1024 || xnumel / 8 < 128))
      xBlock = std::min<int64_t>(1024 / rnumel, 8); // CUDA
  } else if (h.reductionHint == "OUTER") {
    xBlock = xBlocks.back();
  } else if (h.reductionHint == "OUTER_TINY") {
    xBlock = rnumel <= 256 ? 2 * (256 / rnumel) : 1;
  }
  TritonLaunchConfig c = reductionConfig(h, xBlock, rnumel);
  c.blocks.resize(1); // the kernel computes its R0_BLOCK
  return c;
}

} // namespace

int64_t TritonLaunchConfig::block(std::string_view name) const {
  for (const auto &[k, v] : blocks)
    if (k == name)
      return v;
  return 0;
}

Expected<TritonLaunchConfig> firstTritonConfig(const inductor::InductorKernel &kernel) {
  auto fail = [&](const std::string &why) { return Error("kernel '" + kernel.name + "': " + why); };
  if (kernel.kind != inductor::InductorKernel::Kind::Triton)
    return fail("not a Triton kernel");
  Hints h;
  h.size = kernel.sizeHints;
  for (const auto &[k, v] : kernel.inductorMetaInts)
    h.meta[k] = v;
  h.reductionHint = kernel.reductionHint;
  h.tileHint = kernel.tileHint;
  h.minElemPerThread = kernel.minElemPerThread;
  for (const auto &p : kernel.params)
    h.numDynamic += p.name.find("ks") != std::string::npos ? 1 : 0;
  if (h.size.empty() || !h.has("x"))
    return fail("the decorator has no size_hints with an 'x' entry");
  if (h.metaInt("max_autotune") || h.metaInt("max_autotune_pointwise"))
    return fail("max-autotune kernels have several configs; which one runs is decided by "
                "benchmarks, not by the wrapper code");
  std::string gridType = "Grid1D";
  size_t dims = 0;
  for (const auto &[k, n] : h.size)
    dims += isReductionPrefix(k) ? 0 : 1;
  gridType = "Grid" + std::to_string(dims) + "D";
  Expected<TritonLaunchConfig> c = Error("");
  const std::string &heuristic = kernel.heuristic;
  if (heuristic == "pointwise") {
    if (dims == 1) {
      int64_t numel = product(h.size);
      c = pointwiseConfig(h, std::max<int64_t>(256, std::min<int64_t>(numel / 128, 1024)), 0, 0);
    } else if (dims == 2) {
      c = pointwiseConfig(h, 32, 32, 0);
    } else if (dims == 3) {
      c = pointwiseConfig(h, 16, 16, 16);
    } else {
      return fail("pointwise size_hints with " + std::to_string(dims) + " dimensions");
    }
  } else if (heuristic == "reduction" || heuristic == "persistent_reduction") {
    if (dims != 1 || h.size.size() != 2 || !h.has("r0_"))
      return fail("tiled or multi-dimensional reductions (size_hints other than x, r0_) are "
                  "not emulated");
    if (h.metaInt("no_x_dim"))
      for (auto &[k, n] : h.size)
        if (k == "x")
          n = 1;
    c = heuristic == "reduction" ? reduction(h) : persistentReduction(h);
  } else {
    return fail("the '" + heuristic + "' heuristic is not emulated");
  }
  if (!c)
    return fail(c.error().message);
  c->gridType = gridType;
  return c;
}

} // namespace fxkit
