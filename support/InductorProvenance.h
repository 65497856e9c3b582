#pragma once
/// \file Inductor's provenance mapping attached to a graph: which kernel calls compute which
/// post-grad nodes, and which pre-grad nodes stand behind them (the mapping as data, and how it
/// lands on the nodes of each stage as ir/Node.h's NodeProvenance). The file it comes from is
/// read by importers/json/Provenance.h.
///
/// Pre-grad nodes are those of the graph Dynamo captured (`dynamo_*.graph.txt`); post-grad nodes
/// those of the graph Inductor lowers (`fx_graph_transformed.py`, `aten_post_*.graph.txt`). A
/// kernel handle is `name:N`, N the debug handle the wrapper prints before the call
/// (`# [Provenance debug handles] name:N`), which fxkit's wrapper IR keeps as `provenance=N`.
/// Kernels of every kind have handles: Triton and C++ kernels, extern calls
/// (`extern_kernels.mm:3`), fallback ops (`torch.ops.aten.ceil.default:2`), AOTI shims
/// (`aoti_torch_cuda_mm_out:2`).

#include "ir/Graph.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fxkit {

/// The mapping, each map in the file's key order and its lists in the file's order.
struct InductorProvenance {
  using Map = std::vector<std::pair<std::string, std::vector<std::string>>>;
  Map preToPost;    ///< `preToPost`
  Map postToPre;    ///< `postToPre`
  Map kernelToPost; ///< `cppCodeToPost`
  Map postToKernel; ///< `postToCppCode`

  bool empty() const {
    return preToPost.empty() && postToPre.empty() && kernelToPost.empty() && postToKernel.empty();
  }
};

/// `name:N` -> {name, N}; a handle without a numeric `:N` suffix -> {handle, -1}.
std::pair<std::string_view, int64_t> splitKernelHandle(std::string_view handle);

/// Which stage a graph was taken to be when a mapping was attached to it.
enum class ProvenanceStage {
  Kernels,  ///< wrapper IR: kernel and extern calls (`fxkit.kernel`, `fxkit.extern`)
  PostGrad, ///< the graph Inductor lowers
  PreGrad,  ///< the graph Dynamo captured
};
/// "kernel calls", "post-grad", "pre-grad".
std::string_view provenanceStageName(ProvenanceStage stage);

/// What attaching a mapping did. Also kept on the graph (kInductorProvenanceAttachment) by the
/// file importers, so that `fxkit info` can say where the provenance came from; like every
/// attachment it is not part of the graph's text and JSON forms (the nodes' provenance is).
struct ProvenanceAttachResult : GraphAttachment {
  std::string file; ///< the mapping file, when it came from one
  ProvenanceStage stage = ProvenanceStage::PostGrad;
  size_t annotated = 0;   ///< nodes that received provenance
  size_t fileEntries = 0; ///< entries of the file's map for this stage
  /// Kernel handles of the file that no kernel call of the graph took (kernel stage only).
  std::vector<std::string> unmatchedHandles;
};

inline constexpr std::string_view kInductorProvenanceAttachment = "inductor.provenance";

/// Sets the provenance of the nodes the mapping names (replacing what they had). The graph's
/// stage: wrapper IR when it has kernel or extern calls; else post-grad when most of its calls
/// are ATen or prims overloads (`torch.ops.*`), pre-grad when not (torch-level functions,
/// methods, modules), unless the mapping names none of its nodes on that side and some on the
/// other (both sides often share names such as `mul`, so names alone cannot tell). A kernel call
/// takes the entry of its handle `name:N` (N its `provenance=N`), else the entry keyed by its bare
/// name (files from before debug handles), else, when the call has no `provenance=N`, every handle
/// of that name (one when the kernel is launched once). Other nodes are left as they were.
ProvenanceAttachResult attachInductorProvenance(Graph &graph, const InductorProvenance &mapping);

/// The attach result kept on `graph`, or null.
const ProvenanceAttachResult *provenanceAttachResult(const Graph &graph);

/// Whether any node of `graph` has provenance.
bool hasProvenance(const Graph &graph);

} // namespace fxkit
