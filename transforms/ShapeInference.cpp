#include "transforms/ShapeInference.h"

#include "ir/OutputValues.h"
#include "ir/UnknownOpPositions.h"
#include "ir/ops/OpRegistry.h"

namespace fxkit {

namespace {

/// The output node's value: one entry per returned value (nullopt for non-tensors).
NodeValue outputValue(const Node &node) {
  if (node.args().items().empty())
    return {};
  std::vector<std::optional<TensorType>> outs;
  for (const Argument &a : returnedValues(node)) {
    const TensorType *t = a.isNode() ? a.asNode()->value().tensor() : nullptr;
    outs.push_back(t ? std::optional<TensorType>(*t) : std::nullopt);
  }
  return NodeValue{std::move(outs)};
}

/// Every concrete tensor type of `value` fits int64 counts (checkTensorExtent), or an error
/// naming the node.
Status checkExtents(const Node &node, const NodeValue &value) {
  auto check = [&](const TensorType &t) -> Status {
    if (Status s = checkTensorExtent(t); !s)
      return Error("node '" + node.name() + "': " + s.error().message);
    return Status::ok();
  };
  if (const TensorType *t = value.tensor())
    return check(*t);
  if (const auto *ts = value.tensors())
    for (const auto &t : *ts)
      if (t)
        if (Status s = check(*t); !s)
          return s;
  if (const auto *items = value.items())
    for (const NodeValue &item : *items)
      if (Status s = checkExtents(node, item); !s)
        return s;
  return Status::ok();
}

} // namespace

Status inferShapes(Graph &graph) {
  bool changed = false;
  return inferShapes(graph, changed);
}

Status inferShapes(Graph &graph, bool &changed) {
  // Every unknown op at once, not one per run: a graph from a newer PyTorch often has several.
  std::string unknown;
  size_t unknownCount = 0;
  for (const Node *node : graph)
    if (node->op() == OpKind::CallFunction && !OpRegistry::instance().lookup(node->target()) &&
        ++unknownCount <= 20)
      unknown += (unknown.empty() ? "" : "; ") + unknownOpPosition(graph, node->name()) + "node '" +
                 node->name() + "': unknown op '" + std::string(node->target()) + "'";
  if (unknownCount > 20)
    unknown += "; and " + std::to_string(unknownCount - 20) + " more nodes of unknown ops";
  if (unknownCount > 0)
    return Error(unknown);
  auto assign = [&changed](Node &node, NodeValue value) {
    if (!changed && !(node.value() == value))
      changed = true;
    node.value() = std::move(value);
  };
  for (Node *node : graph) {
    switch (node->op()) {
    case OpKind::Placeholder:
      if (node->value().empty())
        return Error("placeholder '" + node->name() + "' has no value to infer shapes from");
      if (Status s = checkExtents(*node, node->value()); !s)
        return s;
      break;
    case OpKind::CallFunction: {
      auto value = inferNodeValue(*node);
      if (!value)
        return value.takeError();
      if (Status s = checkExtents(*node, *value); !s)
        return s;
      assign(*node, value.take());
      break;
    }
    case OpKind::Output:
      assign(*node, outputValue(*node));
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
