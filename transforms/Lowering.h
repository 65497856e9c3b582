#pragma once
/// \file Lowering: an ATen graph with node values (run inferShapes first) becomes a
/// LoopProgram. Pointwise and creation ops become pointwise loop ops, reductions become
/// reduction loop ops, matmul/convolution/attention/topk/embedding become extern ops on
/// strided views, and views are folded into the index expressions of their users (a reshape
/// that cannot be a view becomes a copy). Dead loop ops are dropped and small pointwise
/// producers inlined into their readers, each also a pass of its own.

#include "ir/Error.h"
#include "ir/Graph.h"
#include "ir/loop/LoopIR.h"

#include <span>
#include <string_view>

namespace fxkit {

/// Lowers every node of `graph`. Errors name the node and its op: an op without a lowering,
/// a node without a value (shape inference did not run), an unsupported argument. The same as
/// the `lower` pass with default options: lowerGraphOps, then loweringSteps().
Expected<loop::LoopProgram> lowerGraph(const Graph &graph);

/// A rewrite of the loop program that `lower` runs after lowerGraphOps: its pass's name and the
/// rewrite (with the pass's default options; it returns whether it changed the program).
struct LoweringStep {
  std::string_view pass;
  bool (*rewrite)(loop::LoopProgram &);
};
/// The steps of `lower` after `lower-ops`, in order: the `lower` pipeline
/// (transforms/CompilerPasses.cpp) lists their passes and lowerGraph runs them, so a new step of
/// lowering is one row here (and its pass registered).
std::span<const LoweringStep> loweringSteps();

/// Lowering alone (the `lower-ops` pass): one or more loop ops per node, dead ones included.
Expected<loop::LoopProgram> lowerGraphOps(const Graph &graph);

/// Drops the loop ops whose results reach no output, that bind no symbol and that write no
/// graph input (the `loop-dce` pass); the ops before the first dropped one keep their names.
/// Returns whether it dropped any.
bool eliminateDeadLoopOps(loop::LoopProgram &program);

/// Inlines pointwise producers into the ops that read them, as Inductor inlines pointwise
/// nodes (the `inline-producers` pass): a per-channel or per-row vector into up to 8 readers,
/// another producer into its only reader when every read inverts its store index. The
/// producers stay, dead: run eliminateDeadLoopOps after. Returns whether it inlined any.
bool inlineSmallProducers(loop::LoopProgram &program);

} // namespace fxkit
