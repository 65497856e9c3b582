#pragma once
/// \file The memory timeline picture: pool offset (up) against schedule step (right), one
/// rectangle per buffer over its lifetime, as an SVG document written directly (no Graphviz).
/// Buffers sharing storage (in-place results, reused allocations) share a colour, and in-place
/// ones are hatched; each rectangle has a tooltip (name, bytes, offset, lifetime, how it is
/// stored) and a label where it is wide enough. Built from a compiled program's memory plan
/// (`fxkit compile --to timeline`) or from a MiniMalloc problem and its solution
/// (`fxkit plan --timeline`).

#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"
#include "ir/loop/MemoryPlan.h"
#include "ir/BufferLifetime.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace fxkit {

struct TimelineBuffer {
  std::string name;
  int64_t begin = 0, end = 0; ///< schedule steps [begin, end)
  int64_t offset = 0, bytes = 0;
  int32_t storage = 0;  ///< buffers with equal storage share one allocation over time
  bool inPlace = false; ///< written over the storage of a buffer that dies where it starts
  std::string how;      ///< "pool", "in place of buf1", "reuses buf2", ... (tooltip)
};

struct MemoryTimeline {
  std::string title;
  std::string stepName = "kernel"; ///< the x axis's unit
  /// Labels of the steps (kernel names), shown in the axis tooltips; may be empty.
  std::vector<std::string> stepLabels;
  int64_t steps = 0;     ///< x axis: [0, steps)
  int64_t poolBytes = 0; ///< y axis: [0, poolBytes)
  std::vector<TimelineBuffer> buffers;
  std::string note; ///< one line under the title ("symbolic sizes shown at s=4099", ...)
};

/// The allocated buffers of a memory plan (inputs and kernel-internal values have no storage).
/// Symbolic plans have no pool: allocations are drawn at the size hint, stacked first-fit.
MemoryTimeline memoryTimelineOfPlan(const loop::LoopProgram &program,
                                    const loop::FusedProgram &fused, const loop::MemoryPlan &plan);

/// A MiniMalloc problem and its offsets; `names` as printMiniMallocCsv takes them.
MemoryTimeline memoryTimelineOfArena(std::span<const BufferLifetime> buffers,
                                     std::span<const int64_t> offsets,
                                     std::span<const std::string> names = {});

/// The picture as a standalone SVG document (`<svg xmlns=...>`), deterministic.
std::string writeMemoryTimelineSvg(const MemoryTimeline &timeline);

} // namespace fxkit
