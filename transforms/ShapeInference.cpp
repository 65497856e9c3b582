#include "transforms/ShapeInference.h"

#include "ir/ops/OpRegistry.h"

namespace fxkit {

namespace {

/// The output node's value: one entry per returned value (nullopt for non-tensors).
NodeValue outputValue(const Node &node) {
  std::vector<std::optional<TensorType>> outs;
  const std::vector<Argument> &args = node.args().items();
  if (args.empty())
    return {};
  const Argument &ret = args[0];
  // `return (a, b)` prints its tuple; a bare `return a` returns one value.
  std::vector<Argument> single;
  const std::vector<Argument> *items = &ret.items();
  if (!ret.isContainer()) {
    single.push_back(ret);
    items = &single;
  }
  for (const Argument &a : *items) {
    const TensorType *t = a.isNode() ? a.asNode()->value().tensor() : nullptr;
    outs.push_back(t ? std::optional<TensorType>(*t) : std::nullopt);
  }
  return NodeValue{std::move(outs)};
}

} // namespace

Status inferShapes(Graph &graph) {
  for (Node *node : graph) {
    switch (node->op()) {
    case OpKind::Placeholder:
      if (node->value().empty())
        return Error("placeholder '" + node->name() + "' has no value to infer shapes from");
      break;
    case OpKind::CallFunction: {
      auto value = inferNodeValue(*node);
      if (!value)
        return value.takeError();
      node->value() = value.take();
      break;
    }
    case OpKind::Output:
      node->value() = outputValue(*node);
      break;
    case OpKind::GetAttr:
      // Constants carry their value from the importer; nothing to compute.
      if (node->value().empty())
        return Error("get_attr node '" + node->name() + "' has no value");
      break;
    default:
      return Error("node '" + node->name() + "': shape inference does not support " +
                   std::string(opKindName(node->op())) + " nodes");
    }
  }
  return Status::ok();
}

} // namespace fxkit
