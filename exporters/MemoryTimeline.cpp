#include "exporters/MemoryTimeline.h"

#include "exporters/XmlEscape.h"
#include "ir/ops/ShapeRules.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace fxkit {
namespace {

using loop::BufferPlacement;

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

/// "1536 B (1.5 KiB)": exact bytes, and a readable size when large.
std::string bytesText(int64_t n) {
  std::string out = std::to_string(n) + " B";
  const char *units[] = {"KiB", "MiB", "GiB"};
  double v = static_cast<double>(n);
  int u = -1;
  while (v >= 1024 && u < 2) {
    v /= 1024;
    ++u;
  }
  if (u >= 0) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " (%.1f %s)", v, units[u]);
    out += buf;
  }
  return out;
}

/// Storage root of buffer `b`: follow in-place and reuse links to the first allocation.
int32_t storageRoot(const loop::MemoryPlan &plan, int32_t b) {
  for (size_t guard = 0; guard <= plan.buffers.size(); ++guard) {
    const BufferPlacement &p = plan.buffers[b];
    if (p.kind == BufferPlacement::Kind::InPlace && p.inPlaceOf >= 0)
      b = p.inPlaceOf;
    else if (p.kind == BufferPlacement::Kind::Own && p.reuseOf >= 0)
      b = p.reuseOf;
    else
      return b;
  }
  return b; // a cycle would be a planner bug; validateMemoryPlan rules it out
}

} // namespace

MemoryTimeline memoryTimelineOfPlan(const loop::LoopProgram &program,
                                    const loop::FusedProgram &fused, const loop::MemoryPlan &plan) {
  MemoryTimeline t;
  t.title = "memory plan";
  t.stepName = "kernel";
  t.steps = static_cast<int64_t>(fused.kernels.size()) + 1; // the last step: after the program
  for (const loop::Kernel &k : fused.kernels)
    t.stepLabels.push_back(k.name);
  t.stepLabels.push_back("(outputs returned)");
  std::vector<int32_t> rootOf(plan.buffers.size(), -1);
  for (size_t b = 0; b < plan.buffers.size(); ++b) {
    const BufferPlacement &p = plan.buffers[b];
    if (p.kind == BufferPlacement::Kind::Input || p.kind == BufferPlacement::Kind::Internal)
      continue;
    rootOf[b] = storageRoot(plan, static_cast<int32_t>(b));
    TimelineBuffer tb;
    tb.name = program.buffers[b].name;
    tb.begin = std::max<int32_t>(p.firstKernel, 0);
    tb.end = std::max<int64_t>(p.lastKernel + 1, tb.begin + 1);
    tb.bytes = p.bytes.isConstant() ? p.bytes.constant() : symHint(p.bytes);
    tb.storage = rootOf[b];
    tb.inPlace = p.kind == BufferPlacement::Kind::InPlace;
    switch (p.kind) {
    case BufferPlacement::Kind::Pool:
      tb.how = "pool";
      break;
    case BufferPlacement::Kind::InPlace:
      tb.how = "in place of " + program.buffers[p.inPlaceOf].name;
      break;
    case BufferPlacement::Kind::Own:
      tb.how = p.reuseOf >= 0 ? "reuses the allocation of " + program.buffers[p.reuseOf].name
                              : "own allocation";
      break;
    case BufferPlacement::Kind::Unbacked:
      tb.how = "own allocation, sized by an unbacked symbol";
      break;
    case BufferPlacement::Kind::Input:
    case BufferPlacement::Kind::Internal:
      break;
    }
    if (program.buffers[b].isOutput)
      tb.how += ", graph output";
    t.buffers.push_back(std::move(tb));
  }
  // Offsets: the pool's, shared along in-place links; symbolic plans stack their allocations
  // (storage roots, each held over the union of its buffers' lifetimes) first-fit.
  if (!plan.symbolic) {
    for (TimelineBuffer &tb : t.buffers)
      tb.offset = plan.buffers[tb.storage].offset;
    t.poolBytes = plan.poolBytes;
    t.note = "pool " + bytesText(plan.poolBytes) + ", lower bound " + bytesText(plan.lowerBound) +
             ", without reuse " + bytesText(plan.unplannedBytes);
  } else {
    struct Allocation {
      int32_t root;
      int64_t begin, end, bytes, offset = 0;
    };
    std::vector<Allocation> allocs;
    std::vector<int32_t> allocOf(plan.buffers.size(), -1);
    for (const TimelineBuffer &tb : t.buffers) {
      int32_t &a = allocOf[tb.storage];
      if (a < 0) {
        a = static_cast<int32_t>(allocs.size());
        allocs.push_back({tb.storage, tb.begin, tb.end, tb.bytes});
      }
      Allocation &al = allocs[a];
      al.begin = std::min(al.begin, tb.begin);
      al.end = std::max(al.end, tb.end);
      al.bytes = std::max(al.bytes, tb.bytes);
    }
    std::vector<size_t> order(allocs.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return allocs[a].begin < allocs[b].begin; });
    std::vector<size_t> placed;
    for (size_t i : order) {
      Allocation &a = allocs[i];
      // Candidate offsets: 0 and the top of every placed allocation overlapping in time.
      std::vector<int64_t> candidates{0};
      for (size_t j : placed)
        if (allocs[j].begin < a.end && a.begin < allocs[j].end)
          candidates.push_back(allocs[j].offset + allocs[j].bytes);
      std::sort(candidates.begin(), candidates.end());
      for (int64_t c : candidates) {
        bool fits = true;
        for (size_t j : placed)
          if (allocs[j].begin < a.end && a.begin < allocs[j].end &&
              c < allocs[j].offset + allocs[j].bytes && allocs[j].offset < c + a.bytes)
            fits = false;
        if (fits) {
          a.offset = c;
          break;
        }
      }
      placed.push_back(i);
      t.poolBytes = std::max(t.poolBytes, a.offset + a.bytes);
    }
    for (TimelineBuffer &tb : t.buffers)
      tb.offset = allocs[allocOf[tb.storage]].offset;
    t.note = "symbolic sizes (every symbol at " + std::to_string(kSymbolHint) +
             "): no pool, each allocation drawn stacked at its size hint; peak " +
             bytesText(plan.poolBytes);
  }
  return t;
}

MemoryTimeline memoryTimelineOfArena(std::span<const BufferLifetime> buffers,
                                     std::span<const int64_t> offsets,
                                     std::span<const std::string> names) {
  MemoryTimeline t;
  t.title = "arena plan";
  t.stepName = "time";
  int64_t first = 0;
  bool any = false;
  for (const BufferLifetime &b : buffers) {
    first = any ? std::min(first, b.lower) : b.lower;
    any = true;
  }
  for (size_t i = 0; i < buffers.size(); ++i) {
    const BufferLifetime &b = buffers[i];
    TimelineBuffer tb;
    tb.name = i < names.size() ? names[i] : std::to_string(b.id);
    tb.begin = b.lower - first;
    tb.end = b.upper - first;
    tb.offset = i < offsets.size() ? offsets[i] : 0;
    tb.bytes = b.size;
    tb.storage = static_cast<int32_t>(i);
    tb.how = "pool";
    t.steps = std::max(t.steps, tb.end);
    t.poolBytes = std::max(t.poolBytes, tb.offset + tb.bytes);
    t.buffers.push_back(std::move(tb));
  }
  t.note = std::to_string(buffers.size()) + " buffers, pool " + bytesText(t.poolBytes) +
           (first ? ", time starts at " + std::to_string(first) : "");
  return t;
}

std::string writeMemoryTimelineSvg(const MemoryTimeline &t) {
  const double left = 90, right = 20, top = 50, bottom = 40;
  const double plotW = 900, plotH = 440;
  const double width = left + plotW + right, height = top + plotH + bottom;
  const double steps = static_cast<double>(std::max<int64_t>(t.steps, 1));
  const double pool = static_cast<double>(std::max<int64_t>(t.poolBytes, 1));
  auto x = [&](double step) { return left + step * plotW / steps; };
  auto y = [&](double offset) { return top + plotH - offset * plotH / pool; };

  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fmt(width) +
                  "\" height=\"" + fmt(height) + "\" viewBox=\"0 0 " + fmt(width) + " " +
                  fmt(height) + "\" font-family=\"monospace\" font-size=\"10\">\n";
  s += "<title>" + xmlEscape(t.title) + "</title>\n";
  s += "<defs><pattern id=\"inplace\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
       "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"white\" "
       "fill-opacity=\"0\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"black\" "
       "stroke-width=\"1.5\" stroke-opacity=\"0.5\"/></pattern></defs>\n";
  s += "<rect x=\"0\" y=\"0\" width=\"" + fmt(width) + "\" height=\"" + fmt(height) +
       "\" fill=\"white\"/>\n";
  s += "<text x=\"" + fmt(left) + "\" y=\"18\" font-size=\"13\" font-weight=\"bold\">" +
       xmlEscape(t.title) + "</text>\n";
  s += "<text x=\"" + fmt(left) + "\" y=\"34\">" + xmlEscape(t.note) + "</text>\n";
  // Axes and ticks.
  s += "<g stroke=\"#888\" fill=\"none\"><rect x=\"" + fmt(left) + "\" y=\"" + fmt(top) +
       "\" width=\"" + fmt(plotW) + "\" height=\"" + fmt(plotH) + "\"/></g>\n<g fill=\"#333\">\n";
  int64_t stepTick = std::max<int64_t>(1, (t.steps + 19) / 20);
  for (int64_t i = 0; i < t.steps; i += stepTick) {
    std::string tip = t.stepName + " " + std::to_string(i);
    if (i < static_cast<int64_t>(t.stepLabels.size()))
      tip += ": " + t.stepLabels[i];
    s += "<text x=\"" + fmt(x(i + 0.5)) + "\" y=\"" + fmt(top + plotH + 14) +
         "\" text-anchor=\"middle\">" + std::to_string(i) + "<title>" + xmlEscape(tip) +
         "</title></text>\n";
  }
  s += "<text x=\"" + fmt(left + plotW / 2) + "\" y=\"" + fmt(top + plotH + 32) +
       "\" text-anchor=\"middle\">" + xmlEscape(t.stepName) + " (schedule step)</text>\n";
  for (int i = 0; i <= 4; ++i) {
    double offset = pool * i / 4;
    s += "<text x=\"" + fmt(left - 6) + "\" y=\"" + fmt(y(offset) + 3) + "\" text-anchor=\"end\">" +
         std::to_string(static_cast<int64_t>(offset)) + "</text>\n";
  }
  s += "<text x=\"14\" y=\"" + fmt(top + plotH / 2) + "\" transform=\"rotate(-90 14 " +
       fmt(top + plotH / 2) + ")\" text-anchor=\"middle\">pool offset (bytes)</text>\n</g>\n";
  // Buffers.
  s += "<g stroke=\"#333\" stroke-width=\"0.6\">\n";
  for (const TimelineBuffer &b : t.buffers) {
    double x0 = x(static_cast<double>(b.begin)), x1 = x(static_cast<double>(b.end));
    double y1 = y(static_cast<double>(b.offset)), y0 = y(static_cast<double>(b.offset + b.bytes));
    double h = std::max(y1 - y0, 1.0), w = std::max(x1 - x0, 1.0);
    // Hue by storage, spread by the golden angle so neighbours differ.
    int hue = static_cast<int>((static_cast<int64_t>(b.storage) * 137) % 360);
    std::string fill = "hsl(" + std::to_string(hue) + ",60%,75%)";
    std::string tip = b.name + ": " + bytesText(b.bytes) + " at offset " +
                      std::to_string(b.offset) + ", " + t.stepName + "s " +
                      std::to_string(b.begin) + ".." + std::to_string(b.end - 1) + " (" + b.how +
                      ")";
    s += "<g class=\"buffer\"><title>" + xmlEscape(tip) + "</title><rect x=\"" + fmt(x0) +
         "\" y=\"" + fmt(y0) + "\" width=\"" + fmt(w) + "\" height=\"" + fmt(h) + "\" fill=\"" +
         fill + "\"/>";
    if (b.inPlace)
      s += "<rect x=\"" + fmt(x0) + "\" y=\"" + fmt(y0) + "\" width=\"" + fmt(w) + "\" height=\"" +
           fmt(h) + "\" fill=\"url(#inplace)\"/>";
    if (w >= 6.5 * static_cast<double>(b.name.size()) && h >= 12)
      s += "<text x=\"" + fmt(x0 + 3) + "\" y=\"" + fmt(y0 + std::min(h, 24.0) / 2 + 4) +
           "\" stroke=\"none\" fill=\"black\">" + xmlEscape(b.name) + "</text>";
    s += "</g>\n";
  }
  s += "</g>\n</svg>\n";
  return s;
}

} // namespace fxkit
