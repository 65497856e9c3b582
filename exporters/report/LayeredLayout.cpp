#include "exporters/report/LayeredLayout.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace fxkit {
namespace {

/// Graphs up to this deep stay one column: they read top to bottom without wrapping.
constexpr int32_t kUnwrappedLayers = 150;

} // namespace

LayeredLayout layeredLayout(const LayoutGraph &g, int sweeps) {
  const size_t n = g.size();
  LayeredLayout out;
  out.x.assign(n, 0);
  out.y.assign(n, 0);
  if (n == 0)
    return out;
  auto forward = [&](uint32_t node, uint32_t edge) { return g.inputs[edge] < node; };
  // Users (forward edges only), as offsets into one array.
  std::vector<uint32_t> outStart(n + 1, 0), users;
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t e = g.inStart[i]; e < g.inStart[i + 1]; ++e)
      if (forward(i, e))
        ++outStart[g.inputs[e] + 1];
  std::partial_sum(outStart.begin(), outStart.end(), outStart.begin());
  users.resize(outStart[n]);
  {
    std::vector<uint32_t> fill(outStart.begin(), outStart.end() - 1);
    for (uint32_t i = 0; i < n; ++i)
      for (uint32_t e = g.inStart[i]; e < g.inStart[i + 1]; ++e)
        if (forward(i, e))
          users[fill[g.inputs[e]]++] = i;
  }
  // Longest-path layers; a source (an input, a parameter) sits just above its first user.
  std::vector<int32_t> layer(n, 0);
  std::vector<bool> source(n, true);
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t e = g.inStart[i]; e < g.inStart[i + 1]; ++e)
      if (forward(i, e)) {
        layer[i] = std::max(layer[i], layer[g.inputs[e]] + 1);
        source[i] = false;
      }
  for (uint32_t i = 0; i < n; ++i)
    if (source[i] && outStart[i] < outStart[i + 1]) {
      int32_t first = layer[users[outStart[i]]];
      for (uint32_t e = outStart[i]; e < outStart[i + 1]; ++e)
        first = std::min(first, layer[users[e]]);
      layer[i] = first - 1;
    }
  const int32_t layers = *std::max_element(layer.begin(), layer.end()) + 1;
  // Each layer's nodes, initially in graph order (a counting sort).
  std::vector<uint32_t> layerStart(layers + 1, 0), order(n);
  for (uint32_t i = 0; i < n; ++i)
    ++layerStart[layer[i] + 1];
  std::partial_sum(layerStart.begin(), layerStart.end(), layerStart.begin());
  {
    std::vector<uint32_t> fill(layerStart.begin(), layerStart.end() - 1);
    for (uint32_t i = 0; i < n; ++i)
      order[fill[layer[i]]++] = i;
  }
  std::vector<double> pos(n), key(n);
  auto place = [&](int32_t l) {
    const uint32_t begin = layerStart[l], width = layerStart[l + 1] - begin;
    for (uint32_t k = 0; k < width; ++k)
      pos[order[begin + k]] = k - (width - 1) / 2.0;
  };
  for (int32_t l = 0; l < layers; ++l)
    place(l);
  // Barycentre sweeps: down orders a layer by its nodes' inputs, up by their users.
  for (int s = 0; s < sweeps; ++s) {
    const bool down = s % 2 == 0;
    for (int32_t step = 1; step < layers; ++step) {
      const int32_t l = down ? step : layers - 1 - step;
      const uint32_t begin = layerStart[l], end = layerStart[l + 1];
      for (uint32_t k = begin; k < end; ++k) {
        const uint32_t v = order[k];
        double sum = 0;
        uint32_t count = 0;
        if (down) {
          for (uint32_t e = g.inStart[v]; e < g.inStart[v + 1]; ++e)
            if (forward(v, e)) {
              sum += pos[g.inputs[e]];
              ++count;
            }
        } else {
          for (uint32_t e = outStart[v]; e < outStart[v + 1]; ++e) {
            sum += pos[users[e]];
            ++count;
          }
        }
        key[v] = count ? sum / count : pos[v];
      }
      std::stable_sort(order.begin() + begin, order.begin() + end,
                       [&](uint32_t a, uint32_t b) { return key[a] < key[b]; });
      place(l);
    }
  }
  // A deep, narrow graph is wrapped into columns so the picture is about square (rows are
  // drawn 1.5 node widths apart; columns are the widest layer plus 2 apart).
  uint32_t widest = 1;
  for (int32_t l = 0; l < layers; ++l)
    widest = std::max(widest, layerStart[l + 1] - layerStart[l]);
  const double columnWidth = widest + 2.0;
  const int32_t columns =
      layers <= kUnwrappedLayers
          ? 1
          : std::max<int32_t>(
                1, static_cast<int32_t>(std::lround(std::sqrt(1.5 * layers / columnWidth))));
  const int32_t rows = (layers + columns - 1) / columns;
  for (uint32_t i = 0; i < n; ++i) {
    const int32_t column = layer[i] / rows;
    out.y[i] = layer[i] - column * rows;
    out.x[i] = static_cast<int32_t>(std::lround(2 * pos[i] + column * 2 * columnWidth));
  }
  return out;
}

} // namespace fxkit
