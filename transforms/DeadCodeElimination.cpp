#include "transforms/DeadCodeElimination.h"

namespace fxkit {

bool hasSideEffects(const Node &node) {
  switch (node.op()) {
  case OpKind::Placeholder:
  case OpKind::Output:
  case OpKind::CallModule: // a module may hold state; without its code we cannot tell
    return true;
  case OpKind::GetAttr:
    return false;
  case OpKind::CallMethod: {
    std::string_view m = node.target();
    return m.ends_with("_") && !m.ends_with("__"); // add_, copy_, ...
  }
  case OpKind::CallFunction: {
    std::string_view t = node.target();
    if (t.find("triton_kernel_wrapper_mutation") != std::string_view::npos ||
        t.starts_with("extern_kernels.") || t.find("auto_functionalized") != std::string_view::npos)
      return true;
    if (t.ends_with(".out") || t.find(".out_") != std::string_view::npos)
      return true;
    // ATen overload names look like torch.ops.aten.<op>.<overload>; an op ending in '_' mutates.
    if (t.starts_with("torch.ops.")) {
      size_t overloadDot = t.rfind('.');
      std::string_view op = t.substr(0, overloadDot);
      op = op.substr(op.rfind('.') + 1);
      // Assertions (_assert_tensor_metadata, _assert_scalar) are kept for their check.
      return (op.ends_with("_") && !op.ends_with("__")) || op.starts_with("_assert");
    }
    return t == "print" || t == "builtins.print";
  }
  }
  return true;
}

PassResult eliminateDeadCode(Graph &graph) {
  bool changed = false;
  for (Node *n = graph.back(); n;) {
    Node *prev = n->prev();
    if (n->users().empty() && !hasSideEffects(*n)) {
      graph.erase(n);
      changed = true;
    }
    n = prev;
  }
  return changed;
}

} // namespace fxkit
