#include "support/InductorProvenance.h"

#include <algorithm>
#include <charconv>
#include <unordered_map>
#include <unordered_set>

namespace fxkit {
namespace {

using Lists = std::unordered_map<std::string_view, const std::vector<std::string> *>;

Lists index(const InductorProvenance::Map &map) {
  Lists out;
  out.reserve(map.size());
  for (const auto &entry : map)
    out.emplace(entry.first, &entry.second); // a repeated key: the first one counts
  return out;
}

const std::vector<std::string> *lookup(const Lists &lists, std::string_view key) {
  auto it = lists.find(key);
  return it == lists.end() ? nullptr : it->second;
}

/// Appends the names not yet in `out` (order of first appearance).
void appendNew(std::vector<std::string> &out, std::unordered_set<std::string> &seen,
               const std::vector<std::string> *names) {
  if (!names)
    return;
  for (const std::string &n : *names)
    if (seen.insert(n).second)
      out.push_back(n);
}

/// The kernel a call launches: `name=` of a launch, `op=` of an extern call; empty for others.
std::string_view calledKernel(const Node &node) {
  const char *key = node.target() == "fxkit.kernel"   ? "name"
                    : node.target() == "fxkit.extern" ? "op"
                                                      : nullptr;
  if (!key || node.op() != OpKind::CallFunction)
    return {};
  const Argument *a = node.kwargs().find(key);
  return a && a->kind() == Argument::Kind::String ? a->asString() : std::string_view();
}

void attachKernels(Graph &graph, const InductorProvenance &m, ProvenanceAttachResult &result) {
  Lists kernelToPost = index(m.kernelToPost);
  Lists postToPre = index(m.postToPre);
  std::unordered_map<std::string_view, std::vector<std::string_view>> handlesByName;
  for (const auto &entry : m.kernelToPost)
    handlesByName[splitKernelHandle(entry.first).first].push_back(entry.first);
  std::unordered_set<std::string_view> taken;
  for (Node *n : graph) {
    std::string_view name = calledKernel(*n);
    if (name.empty())
      continue;
    int64_t id = -1;
    if (const Argument *p = n->kwargs().find("provenance"); p && p->kind() == Argument::Kind::Int)
      id = p->asInt();
    std::vector<std::string_view> handles;
    std::string exact = std::string(name) + ":" + std::to_string(id);
    if (id >= 0 && kernelToPost.count(exact)) {
      handles.push_back(kernelToPost.find(exact)->first);
    } else if (auto bare = kernelToPost.find(name); bare != kernelToPost.end()) {
      handles.push_back(bare->first);
    } else if (id < 0) {
      if (auto it = handlesByName.find(name); it != handlesByName.end())
        handles = it->second;
    }
    if (handles.empty())
      continue;
    NodeProvenance p;
    std::unordered_set<std::string> post, pre;
    for (std::string_view h : handles) {
      taken.insert(h);
      p.kernels.emplace_back(h);
      appendNew(p.postGrad, post, lookup(kernelToPost, h));
    }
    for (const std::string &q : p.postGrad)
      appendNew(p.preGrad, pre, lookup(postToPre, q));
    n->setProvenance(std::move(p));
    ++result.annotated;
  }
  result.fileEntries = m.kernelToPost.size();
  for (const auto &entry : m.kernelToPost)
    if (!taken.count(entry.first))
      result.unmatchedHandles.push_back(entry.first);
}

} // namespace

std::pair<std::string_view, int64_t> splitKernelHandle(std::string_view handle) {
  size_t colon = handle.rfind(':');
  if (colon == std::string_view::npos || colon + 1 == handle.size())
    return {handle, -1};
  int64_t id = 0;
  const char *first = handle.data() + colon + 1, *last = handle.data() + handle.size();
  auto [end, ec] = std::from_chars(first, last, id);
  if (ec != std::errc() || end != last || id < 0)
    return {handle, -1};
  return {handle.substr(0, colon), id};
}

std::string_view provenanceStageName(ProvenanceStage stage) {
  switch (stage) {
  case ProvenanceStage::Kernels:
    return "kernel calls";
  case ProvenanceStage::PostGrad:
    return "post-grad";
  case ProvenanceStage::PreGrad:
    return "pre-grad";
  }
  return "?";
}

ProvenanceAttachResult attachInductorProvenance(Graph &graph, const InductorProvenance &m) {
  ProvenanceAttachResult result;
  bool kernelGraph = std::any_of(graph.begin(), graph.end(),
                                 [](const Node *n) { return !calledKernel(*n).empty(); });
  if (kernelGraph) {
    result.stage = ProvenanceStage::Kernels;
    attachKernels(graph, m, result);
    return result;
  }
  Lists preToPost = index(m.preToPost), postToPre = index(m.postToPre),
        postToKernel = index(m.postToKernel);
  // Both graphs often share node names (`mul`, `add`): the kind of graph decides. Post-grad
  // graphs call ATen and prims overloads (`torch.ops.*`), Dynamo's graphs torch-level
  // functions, methods and modules. The other side wins only where this one names no node.
  size_t preHits = 0, postHits = 0, calls = 0, atenCalls = 0;
  for (const Node *n : graph) {
    preHits += preToPost.count(n->name());
    postHits += postToPre.count(n->name()) || postToKernel.count(n->name());
    if (n->op() == OpKind::CallFunction || n->op() == OpKind::CallMethod ||
        n->op() == OpKind::CallModule) {
      ++calls;
      atenCalls += n->op() == OpKind::CallFunction && n->target().starts_with("torch.ops.");
    }
  }
  bool aten = 2 * atenCalls >= calls;
  result.stage = aten ? ProvenanceStage::PostGrad : ProvenanceStage::PreGrad;
  if (aten ? (postHits == 0 && preHits > 0) : (preHits == 0 && postHits > 0))
    result.stage = aten ? ProvenanceStage::PreGrad : ProvenanceStage::PostGrad;
  if (result.stage == ProvenanceStage::PostGrad) {
    std::unordered_set<std::string_view> keys;
    for (const auto &e : m.postToPre)
      keys.insert(e.first);
    for (const auto &e : m.postToKernel)
      keys.insert(e.first);
    result.fileEntries = keys.size();
  } else {
    result.fileEntries = m.preToPost.size();
  }
  for (Node *n : graph) {
    NodeProvenance p;
    std::unordered_set<std::string> seen;
    if (result.stage == ProvenanceStage::PostGrad) {
      appendNew(p.kernels, seen, lookup(postToKernel, n->name()));
      seen.clear();
      appendNew(p.preGrad, seen, lookup(postToPre, n->name()));
    } else {
      appendNew(p.postGrad, seen, lookup(preToPost, n->name()));
      seen.clear();
      for (const std::string &q : p.postGrad)
        appendNew(p.kernels, seen, lookup(postToKernel, q));
    }
    if (p.empty())
      continue;
    n->setProvenance(std::move(p));
    ++result.annotated;
  }
  return result;
}

const ProvenanceAttachResult *provenanceAttachResult(const Graph &graph) {
  auto it = graph.attachments.find(kInductorProvenanceAttachment);
  return it == graph.attachments.end()
             ? nullptr
             : dynamic_cast<const ProvenanceAttachResult *>(it->second.get());
}

bool hasProvenance(const Graph &graph) {
  return std::any_of(graph.begin(), graph.end(),
                     [](const Node *n) { return n->provenance() != nullptr; });
}

} // namespace fxkit
