#pragma once
/// \file Tensor constants as inputs. An FX graph captured by a Dynamo backend reads tensors it
/// does not hold (`%_tensor_constant0 = get_attr[target=_tensor_constant0]`, made from
/// `torch.tensor(0.0)` in the model); the graph text carries only their types. To run such a
/// graph, the values come from the caller (`fxkit run --inputs` under the target's name) and
/// the get_attr nodes become placeholders after the graph's own, so every backend takes them
/// like any other input.

#include "ir/Error.h"
#include "ir/Graph.h"

#include <string>
#include <vector>

namespace fxkit {

/// The targets of the get_attr nodes that read a tensor (not a submodule of a higher-order op)
/// and have users, in program order, each once.
std::vector<std::string> tensorConstantTargets(const Graph &graph);

/// Turns every get_attr node reading one of `targets` into a placeholder of the same name and
/// type, placed after the existing placeholders in the order of `targets`. Errors when a
/// target is not read by any get_attr node.
Status liftTensorConstants(Graph &graph, const std::vector<std::string> &targets);

} // namespace fxkit
