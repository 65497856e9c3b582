#include "transforms/Pass.h"

#include "ir/Verifier.h"
#include "transforms/CompilerPasses.h"
#include "transforms/DeadCodeElimination.h"
#include "transforms/Decompose.h"
#include "transforms/LiftConstants.h"
#include "transforms/ShapeInference.h"

#include <chrono>
#include <mutex>

namespace fxkit {

PassRegistry &PassRegistry::instance() {
  static PassRegistry registry;
  return registry;
}

void PassRegistry::add(PassInfo info) {
  for (PassInfo &p : passes_)
    if (p.name == info.name) {
      p = std::move(info);
      return;
    }
  passes_.push_back(std::move(info));
}

const PassInfo *PassRegistry::find(std::string_view name) const {
  for (const PassInfo &p : passes_)
    if (p.name == name)
      return &p;
  return nullptr;
}

void registerBuiltinPasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    PassRegistry &r = PassRegistry::instance();
    r.add({"dce", "remove nodes whose results are unused and that have no side effects",
           eliminateDeadCode});
    r.add({"infer-shapes",
           "compute every node's dtype, symbolic sizes and strides from the inputs' types",
           [](Graph &graph) -> PassResult {
             bool changed = false;
             if (Status st = inferShapes(graph, changed); !st)
               return st.takeError();
             return changed;
           }});
    r.add({"decompose",
           "rewrite composite ops (linear, conv2d, layer_norm, scaled_dot_product_attention, "
           "to.dtype, relu_, ...) into the ops they are made of, as run_decompositions() does",
           decomposeCompositeOps});
    r.add({"lift-constants",
           "turn get_attr reads of tensors the graph does not hold (_tensor_constant0) into "
           "inputs after the graph's own, so a run can give their values",
           [](Graph &graph) -> PassResult {
             std::vector<std::string> targets = tensorConstantTargets(graph);
             if (Status st = liftTensorConstants(graph, targets); !st)
               return st.takeError();
             return !targets.empty();
           }});
    registerCompilerPasses(r);
  });
}

Expected<std::vector<PassRun>> runPipeline(Graph &graph, const std::vector<std::string> &names) {
  registerBuiltinPasses();
  std::vector<const PassInfo *> passes;
  for (const std::string &name : names) {
    const PassInfo *p = PassRegistry::instance().find(name);
    if (!p)
      return Error("unknown pass '" + name + "'");
    passes.push_back(p);
  }
  std::vector<PassRun> runs;
  for (const PassInfo *p : passes) {
    auto start = std::chrono::steady_clock::now();
    PassResult changed = p->run(graph);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!changed) {
      Error err = changed.takeError();
      err.message = "pass '" + p->name + "': " + err.message;
      return err;
    }
    if (Status st = verifyGraph(graph); !st)
      return Error("pass '" + p->name + "' left an invalid graph: " + st.error().message);
    runs.push_back({p->name, *changed, secs});
  }
  return runs;
}

} // namespace fxkit
