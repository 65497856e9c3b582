#pragma once
/// \file Where a reader found the nodes whose target the op table does not know, kept on the
/// graph (a GraphAttachment) so that shape inference, which refuses them, can say where each
/// one is (file:line:col) without nodes carrying source positions. Only unknown targets are
/// recorded: the known nodes of a million-node graph cost nothing.

#include "ir/Error.h"
#include "ir/Graph.h"

#include <map>
#include <memory>
#include <string>
#include <string_view>

namespace fxkit {

struct UnknownOpPositions : GraphAttachment {
  static constexpr std::string_view kKey = "unknown-op-positions";
  /// By node name: where its target was read.
  std::map<std::string, SourceLoc, std::less<>> byNode;
};

/// Records that node `name` has a target the op table does not know, read at `where`.
inline void recordUnknownOp(Graph &graph, std::string name, SourceLoc where) {
  auto &slot = graph.attachments[std::string(UnknownOpPositions::kKey)];
  if (!slot)
    slot = std::make_shared<UnknownOpPositions>();
  static_cast<UnknownOpPositions &>(*slot).byNode.emplace(std::move(name), std::move(where));
}

/// "file:line:col: " where node `name`'s unknown target was read; "" when not recorded.
inline std::string unknownOpPosition(const Graph &graph, std::string_view name) {
  auto it = graph.attachments.find(UnknownOpPositions::kKey);
  if (it == graph.attachments.end() || !it->second)
    return "";
  const auto &byNode = static_cast<const UnknownOpPositions &>(*it->second).byNode;
  auto pos = byNode.find(name);
  if (pos == byNode.end())
    return "";
  const SourceLoc &loc = pos->second;
  return (loc.file.empty() ? std::string("<input>") : loc.file) + ":" + std::to_string(loc.line) +
         ":" + std::to_string(loc.col) + ": ";
}

} // namespace fxkit
