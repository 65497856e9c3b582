#pragma once
/// \file Read-only questions the REPL asks about a graph: which kernel each node ended up in and
/// why (`why`, `find kernel=`). The REPL's `diff` is repl/DiffCommand.h's.

#include "ir/Error.h"
#include "ir/Graph.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"

#include <csignal>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

/// The graph compiled far enough to answer questions about kernels: lowered and fused.
struct KernelView {
  loop::LoopProgram program;
  loop::FusedProgram fused;
  /// Source node name -> names of the kernels that compute it (several when lowering split or
  /// duplicated it), in execution order. Nodes no loop op computes are absent.
  std::map<std::string, std::vector<std::string>, std::less<>> kernelsOfNode;
};

/// Lowers and fuses a copy of `graph` (shape inference first; the graph itself is not changed),
/// with the options of `pass fuse`. When `interrupt` becomes non-zero (the shell's Ctrl-C) it
/// stops between passes with "interrupted before pass ...".
Expected<KernelView> buildKernelView(const Graph &graph,
                                     const volatile std::sig_atomic_t *interrupt = nullptr);

/// `why NODE`: the loop ops computing the node, the kernels they ended up in, and every fusion
/// decision that involved those ops (taken or refused, with the reason and the bytes saved).
Expected<std::string> explainNodeFusion(const KernelView &view, const Graph &graph,
                                        std::string_view node);

} // namespace fxkit
