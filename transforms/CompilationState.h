#pragma once
/// \file What the compiler passes (lower, fuse, plan, wrapper) leave on the graph they work on:
/// the ATen graph the program came from, the loop program, its kernels and its memory plan.

#include "ir/Graph.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"
#include "ir/loop/MemoryPlan.h"

#include <memory>
#include <optional>

namespace fxkit {

struct CompilationState : GraphAttachment {
  /// The ATen graph lowering read (extern loop ops point at its nodes), kept alive here
  /// because the wrapper pass replaces the graph's own nodes. Null from lowering until the
  /// wrapper pass: then the source is the graph that holds this state (lowering does not copy
  /// it; a clone, an erase or a shared holder's destruction copies it first, see detachFrom),
  /// and the wrapper pass moves the replaced graph here.
  std::shared_ptr<const Graph> source;
  std::optional<loop::LoopProgram> program;
  std::optional<loop::FusedProgram> fused;
  std::optional<loop::MemoryPlan> plan;

  /// The ATen graph of `holder`, a graph holding this state: `source`, or `holder` itself.
  const Graph &sourceOf(const Graph &holder) const { return source ? *source : holder; }
  /// When the extern loop ops point into `graph`'s nodes: copies the graph into `source` and
  /// points them at the copy's nodes.
  void detachFrom(const Graph &graph) override;
};

/// The key of CompilationState in Graph::attachments.
inline constexpr const char *kCompilationStateKey = "compilation";

/// The graph's compilation state, or null when no compiler pass ran on it.
CompilationState *compilationState(Graph &graph);
/// The graph's compilation state, created empty when missing.
CompilationState &ensureCompilationState(Graph &graph);

} // namespace fxkit
