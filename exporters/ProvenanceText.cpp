#include "exporters/ProvenanceText.h"

#include "support/InductorProvenance.h"

namespace fxkit {

std::vector<std::string> provenanceLines(const NodeProvenance &p, size_t limit) {
  std::vector<std::string> lines;
  const std::pair<const char *, const std::vector<std::string> *> lists[] = {
      {"kernels", &p.kernels}, {"post-grad", &p.postGrad}, {"pre-grad", &p.preGrad}};
  for (const auto &[title, names] : lists) {
    if (names->empty())
      continue;
    std::string line = std::string(title) + ":";
    size_t shown = limit && names->size() > limit ? limit : names->size();
    for (size_t i = 0; i < shown; ++i)
      line += (i ? ", " : " ") + (*names)[i];
    if (shown < names->size())
      line += ", ... (" + std::to_string(names->size() - shown) + " more)";
    lines.push_back(std::move(line));
  }
  return lines;
}

std::string printProvenanceSection(const Graph &graph) {
  size_t annotated = 0;
  for (const Node *n : graph)
    annotated += n->provenance() != nullptr;
  const ProvenanceAttachResult *source = provenanceAttachResult(graph);
  if (!annotated && !source)
    return "";
  std::string out = "provenance: ";
  out += source && !source->file.empty() ? source->file : std::string("(kept on the nodes)");
  out += "\n  ";
  std::string count =
      std::to_string(annotated) + " of " + std::to_string(graph.size()) + " nodes carry provenance";
  if (!source) {
    out += count + "\n";
  } else {
    std::string entries = std::to_string(source->fileEntries);
    switch (source->stage) {
    case ProvenanceStage::Kernels:
      out += "kernel calls: " + count + "; the file has " + entries + " kernel handles, " +
             (source->unmatchedHandles.empty()
                  ? std::string("every one taken by a call")
                  : std::to_string(source->unmatchedHandles.size()) + " taken by no call");
      break;
    case ProvenanceStage::PostGrad:
      out += "post-grad graph: " + count + "; the file names " + entries + " post-grad nodes";
      break;
    case ProvenanceStage::PreGrad:
      out += "pre-grad graph: " + count + "; the file names " + entries + " pre-grad nodes";
      break;
    }
    out += "\n";
    for (const std::string &h : source->unmatchedHandles)
      out += "    no call: " + h + "\n";
  }
  for (const Node *n : graph) {
    const NodeProvenance *p = n->provenance();
    if (!p)
      continue;
    out += "  " + n->name() + "\n";
    for (const std::string &line : provenanceLines(*p))
      out += "    " + line + "\n";
  }
  return out;
}

} // namespace fxkit
