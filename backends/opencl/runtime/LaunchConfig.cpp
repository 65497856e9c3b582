#include "backends/opencl/runtime/LaunchConfig.h"

#include <algorithm>
#include <cstdio>

namespace fxkit::opencl {

namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

int nextPow2(int64_t n) {
  int p = 1;
  while (p < n && p < (1 << 20))
    p <<= 1;
  return p;
}

/// Grid-stride loops cover the rest: more groups than this only add scheduling overhead.
constexpr int64_t kMaxGroups = 1 << 16;

} // namespace

std::string LaunchConfig::str(bool reduction) const {
  std::string s = reduction
                      ? "lanes=" + std::to_string(lanes) + ",rows=" + std::to_string(rows)
                      : "local=" + std::to_string(local) + ",per_item=" + std::to_string(perItem);
  if (variant > 0)
    s += ",variant=" + std::to_string(variant);
  if (launchConstants && reduction)
    s += ",constants";
  return s;
}

std::optional<LaunchConfig> LaunchConfig::parse(std::string text) {
  LaunchConfig c;
  int a = 0, b = 0, used = 0;
  // The rest: nothing, or ",variant=N" (N > 0), then ",constants" where `reduction`.
  auto variantAt = [&](size_t from, bool reduction) -> bool {
    static constexpr std::string_view kConstants = ",constants";
    if (reduction && text.size() >= from + kConstants.size() &&
        std::string_view(text).substr(text.size() - kConstants.size()) == kConstants) {
      c.launchConstants = true;
      text.resize(text.size() - kConstants.size());
    }
    if (from == text.size())
      return true;
    int v = 0, n = 0;
    if (std::sscanf(text.c_str() + from, ",variant=%d%n", &v, &n) != 1 || v <= 0 ||
        from + static_cast<size_t>(n) != text.size())
      return false;
    c.variant = v;
    return true;
  };
  if (std::sscanf(text.c_str(), "lanes=%d,rows=%d%n", &a, &b, &used) == 2 && a > 0 && b > 0 &&
      (a & (a - 1)) == 0 && int64_t{a} * b <= (1 << 20) && variantAt(used, true)) {
    c.lanes = a;
    c.rows = b;
    c.local = a * b;
    return c;
  }
  used = 0;
  if (std::sscanf(text.c_str(), "local=%d,per_item=%d%n", &a, &b, &used) == 2 && a > 0 && b > 0 &&
      variantAt(used, false)) {
    c.local = a;
    c.perItem = b;
    return c;
  }
  return std::nullopt;
}

int64_t LaunchConfig::globalSize(bool reduction, int64_t xnumel, int pointsPerStep) const {
  if (reduction)
    return std::min(ceilDiv(xnumel, rows), kMaxGroups) * local;
  return std::min(ceilDiv(xnumel, static_cast<int64_t>(local) * perItem * pointsPerStep),
                  kMaxGroups) *
         local;
}

std::vector<LaunchConfig> candidateConfigs(bool reduction, int64_t xnumel, int64_t rnumel,
                                           int maxWorkGroup, bool gpu, int minLanes) {
  std::vector<LaunchConfig> out;
  if (!reduction) {
    for (int perItem : {1, 4, 16})
      for (int local : {64, 128, 256}) {
        if (local > maxWorkGroup)
          continue;
        LaunchConfig c;
        c.local = local;
        c.perItem = perItem;
        out.push_back(c);
      }
    // Most promising first: few elements per item on GPUs, many on CPUs.
    if (!gpu)
      std::reverse(out.begin(), out.end());
    return out;
  }
  int maxLanes = nextPow2(std::max<int64_t>(rnumel, 1));
  // Work-groups of more rows than the kernel has leave rows idle: not worth a trial.
  int maxRows = nextPow2(std::max<int64_t>(xnumel, 1));
  // On GPUs, wide rows first: a kernel that holds its row in registers (persistent) needs
  // enough lanes for the row, and many lanes per row keep loads coalesced.
  std::vector<std::pair<int, int>> shapes =
      gpu ? std::vector<std::pair<int, int>>{{256, 1}, {512, 1}, {1024, 1}, {64, 4},  {128, 2},
                                             {32, 8},  {8, 32},  {1, 64},   {1, 256}, {4, 64}}
          : std::vector<std::pair<int, int>>{{1, 64},  {32, 8},  {256, 1}, {8, 32}, {64, 4},
                                             {128, 2}, {1, 256}, {4, 64},  {16, 16}};
  if (minLanes > 1) {
    minLanes = nextPow2(minLanes);
    for (int lanes : {minLanes, 2 * minLanes})
      if (std::find(shapes.begin(), shapes.end(), std::pair{lanes, 1}) == shapes.end())
        shapes.push_back({lanes, 1});
  }
  for (auto [lanes, rows] : shapes) {
    if ((lanes > maxLanes && lanes > 1 && lanes > minLanes) || lanes < minLanes)
      continue;
    if (lanes * rows > maxWorkGroup || (rows > maxRows && rows > 1))
      continue;
    LaunchConfig c;
    c.lanes = lanes;
    c.rows = rows;
    c.local = lanes * rows;
    out.push_back(c);
  }
  if (out.empty() && minLanes <= 1)
    out.push_back(LaunchConfig{1, 1, 1, 1});
  return out;
}

std::vector<LaunchConfig> launchConstantConfigs(int64_t xnumel, int64_t rnumel, int maxWorkGroup,
                                                int minLanes) {
  std::vector<LaunchConfig> out;
  if (rnumel <= 1)
    return out;
  const int maxRows = nextPow2(std::max<int64_t>(xnumel, 1));
  // H200 (bench/README.md, session 19): softmax and layer norm over rows of 1024 fastest at 128
  // lanes (8 points each) or 64 x 4, over rows of 8192 at 512 lanes (16); row sums over rows of
  // 8192 at 256 lanes (32).
  for (int64_t points : {8, 16, 32}) {
    int lanes = std::max(nextPow2(ceilDiv(rnumel, points)), nextPow2(std::max(minLanes, 1)));
    if (lanes > maxWorkGroup)
      continue;
    int rows = std::clamp(128 / lanes, 1, std::max(1, std::min(maxRows, maxWorkGroup / lanes)));
    LaunchConfig c;
    c.lanes = lanes;
    c.rows = rows;
    c.local = lanes * rows;
    c.launchConstants = true;
    if (std::none_of(out.begin(), out.end(),
                     [&](const LaunchConfig &o) { return o.lanes == c.lanes && o.rows == c.rows; }))
      out.push_back(c);
  }
  return out;
}

LaunchConfig defaultConfig(bool reduction, int64_t xnumel, int64_t rnumel, int maxWorkGroup,
                           bool gpu) {
  LaunchConfig c;
  if (!reduction) {
    c.local = std::min(gpu ? 256 : 64, maxWorkGroup);
    c.perItem = gpu ? 1 : 16;
    return c;
  }
  int lanes = gpu ? std::min(nextPow2(std::max<int64_t>(rnumel, 1)), 128) : 1;
  lanes = std::min(lanes, std::max(1, maxWorkGroup));
  c.lanes = lanes;
  c.rows = std::max(1, std::min((gpu ? 256 : 64) / lanes, maxWorkGroup / lanes));
  c.local = c.lanes * c.rows;
  return c;
}

} // namespace fxkit::opencl
