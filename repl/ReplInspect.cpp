#include "repl/ReplInspect.h"

#include "ir/Try.h"
#include "transforms/Pipeline.h"

#include <set>
#include <sstream>
#include <unordered_map>

namespace fxkit {

Expected<KernelView> buildKernelView(const Graph &graph,
                                     const volatile std::sig_atomic_t *interrupt) {
  // Always from the graph as it is now: a `fuse` pass's recorded result may predate edits.
  KernelView view;
  Graph copy = graph.clone();
  copy.attachments.clear();
  PipelineSpec spec = PipelineSpec::toKernels();
  spec.options.setInterrupt(interrupt);
  FXKIT_ASSIGN_OR_RETURN(auto compiled, compile(copy, spec));
  view.program = std::move(*compiled.state->program);
  view.fused = std::move(*compiled.state->fused);
  for (const loop::Kernel &k : view.fused.kernels)
    for (int32_t op : k.ops)
      for (const std::string &origin : view.program.ops[op].origins) {
        std::vector<std::string> &names = view.kernelsOfNode[origin];
        if (names.empty() || names.back() != k.name)
          names.push_back(k.name);
      }
  return view;
}

Expected<std::string> explainNodeFusion(const KernelView &view, const Graph &graph,
                                        std::string_view node) {
  const Node *n = graph.find(node);
  if (!n)
    return Error("no node named '" + std::string(node) + "'");
  std::set<std::string, std::less<>> ops; // loop ops computing the node
  std::unordered_map<std::string, std::string> kernelOfOp;
  for (const loop::Kernel &k : view.fused.kernels)
    for (int32_t op : k.ops) {
      const loop::LoopOp &o = view.program.ops[op];
      kernelOfOp[o.name] = k.name;
      for (const std::string &origin : o.origins)
        if (origin == node)
          ops.insert(o.name);
    }
  std::ostringstream os;
  if (ops.empty()) {
    os << n->name() << ": no loop op computes it ("
       << (n->op() == OpKind::Placeholder ? "a graph input"
           : n->op() == OpKind::Output    ? "the output node"
                                          : "a view folded into its users' indexing, a size "
                                            "computation or a dead node")
       << ")\n";
    return os.str();
  }
  os << n->name() << ": computed by";
  for (const std::string &op : ops)
    os << " " << op << " (kernel " << kernelOfOp[op] << ")";
  os << "\n";
  size_t taken = 0, refused = 0;
  std::ostringstream decisions;
  for (const loop::FusionDecision &d : view.fused.decisions) {
    if (!ops.contains(d.op) && !ops.contains(d.kernelOp))
      continue;
    (d.fused ? taken : refused) += 1;
    decisions << "  " << (d.fused ? "fused  " : "refused") << " " << d.op << " into kernel of "
              << d.kernelOp << " (" << loop::fusionKindName(d.kind) << ", " << d.bytesSaved.str()
              << " bytes saved): " << d.reason << "\n";
  }
  if (taken + refused == 0)
    os << "no fusion decision involved it\n";
  else
    os << taken << " fusion" << (taken == 1 ? "" : "s") << " taken, " << refused << " refused:\n"
       << decisions.str();
  return os.str();
}

} // namespace fxkit
