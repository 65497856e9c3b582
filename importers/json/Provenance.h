#pragma once
/// \file Reader of Inductor's provenance tracking file,
/// `inductor_provenance_tracking_node_mappings.json`, which TORCH_COMPILE_DEBUG=1
/// (`config.trace.enabled`) writes into each debug folder beside `output_code.py`
/// (torch/_inductor/debug.py, `dump_inductor_provenance_info`):
///
///   {"preToPost":     {pre-grad node: [post-grad nodes]},   from the nodes' `from_node` chains
///    "postToPre":     {post-grad node: [pre-grad nodes]},
///    "cppCodeToPost": {kernel handle: [post-grad nodes]},    one entry per kernel call
///    "postToCppCode": {post-grad node: [kernel handles]}}
///
/// (what the names mean: support/InductorProvenance.h). Every shape PyTorch writes reads: the
/// four keys (an empty object each when Inductor's mapping failed), a subset of them (the
/// pre/post pair is missing when the pre-grad mapping was never made; a missing inverse map is
/// derived as PyTorch derives it), `"version": 2.0` as the structured-trace artifact (tlparse's
/// `inductor_provenance_tracking_node_mappings_N.json`) carries it, kernel keys without `:N`
/// (versions before debug handles), and the bare kernel map of
/// `inductor_generated_kernel_to_post_grad_nodes.json` (earlier
/// `inductor_triton_kernel_to_post_grad_nodes.json`): an object of kernel -> post-grad nodes.
/// Other top-level keys are skipped (later versions may add some). Anything else, and a wrong
/// JSON type anywhere, is an error with file:line:col and the offending line.

#include "ir/Error.h"
#include "support/InductorProvenance.h"

#include <string>
#include <string_view>

namespace fxkit {

/// The name Inductor gives the file in each debug folder.
inline constexpr std::string_view kInductorProvenanceFileName =
    "inductor_provenance_tracking_node_mappings.json";

/// Parses the file's text.
Expected<InductorProvenance> parseInductorProvenance(std::string_view text,
                                                     const std::string &fileName);

/// Reads `path`, attaches it (attachInductorProvenance) and keeps the result on the graph.
/// `explicitly`: the user named the file, so a mapping that names none of the graph's nodes
/// (while not empty) is an error rather than a file that happened to lie beside it.
Expected<ProvenanceAttachResult> attachInductorProvenanceFile(Graph &graph, const std::string &path,
                                                              bool explicitly);

} // namespace fxkit
