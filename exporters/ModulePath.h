#pragma once
/// \file The nn.Module each node of a graph belongs to, for `--collapse module`. fxkit's IR
/// keeps no `nn_module_stack` meta (the corpus's FX text and nodes.json carry none), so the
/// path is recovered from what the graph does carry: Dynamo names parameters and buffers
/// after their module (`l_self_modules_layers_modules_0_parameters_weight_` is in
/// `layers.0`; get_attr targets `layers.0.weight` likewise), and a computing node belongs to
/// the module of a parameter it reads directly, else to the module of its most recently
/// defined input (the running module's previous op). Graphs without such names (AOT's
/// `primals_N`) have no modules: every node gets "", unless Inductor's provenance leads back to
/// the Dynamo graph (modulePathsThroughProvenance).

#include "ir/Graph.h"

#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

/// The module path of a Dynamo parameter name or get_attr target ("layers.0"), "" if none.
std::string modulePathOfName(std::string_view name);

/// One module path per node, in graph order ("" for nodes outside any known module).
std::vector<std::string> modulePaths(const Graph &graph);

/// The same for a graph whose names carry no module (Inductor's post-grad graph, primals_N),
/// through Inductor's provenance (NodeProvenance::preGrad: the Dynamo nodes each node came
/// from): a node takes the module modulePaths gives the first of those nodes in `dynamo`, the
/// Dynamo graph it was traced from (dynamo_N.graph.txt); nodes without one follow the rule above.
std::vector<std::string> modulePathsThroughProvenance(const Graph &graph, const Graph &dynamo);

/// modulePathsThroughProvenance with a Dynamo graph, else modulePaths.
std::vector<std::string> modulePathsFor(const Graph &graph, const Graph *dynamo);

} // namespace fxkit
