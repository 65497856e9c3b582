#pragma once
/// \file Helpers the REPL's command files share (argument counts, node lookup, echoing a
/// command for the undo history) and the commands defined outside ReplCommands.cpp.

#include "ir/Error.h"
#include "ir/SymExpr.h"
#include "repl/ReplCommands.h"
#include "repl/ReplSession.h"
#include "repl/RunCommand.h"
#include "support/DidYouMean.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

/// Checks the number of arguments (words after the command name) against [min, max].
inline Status replArity(const ReplWords &words, size_t min, size_t max) {
  size_t n = words.size() - 1;
  if (n < min || n > max)
    return Error("usage: " + std::string(findReplCommand(words[0])->usage));
  return Status::ok();
}

/// The command line again (quoted as needed), for undo/redo descriptions.
inline std::string joinReplWords(const ReplWords &words) {
  std::string out;
  for (const std::string &w : words)
    out += (out.empty() ? "" : " ") + quoteReplWord(w);
  return out;
}

/// A node of a session graph by name (`%x` is accepted as FX prints it).
inline Expected<Node *> replNodeNamed(const ReplGraph &g, std::string_view name) {
  if (name.starts_with('%'))
    name.remove_prefix(1);
  if (Node *n = g.graph.find(name))
    return n;
  std::vector<std::string_view> names;
  names.reserve(g.graph.size());
  for (Node *n : g.graph)
    names.push_back(n->name());
  std::string hint = didYouMean(closestSpellings(name, names));
  return Error("no node named '" + std::string(name) + "' in graph '" + g.name + "'" +
               (hint.empty() ? "" : " (" + hint + ")"));
}

/// Options of `run` and `bench`: `--backend B`, `--device D`, `--seed N`, `SYM=N`, and for
/// `bench` a bare run count and `--resident`.
struct ReplRunOptions {
  std::string backend = "interp";
  std::string device;
  uint64_t seed = 0;
  SymExpr::Bindings symbols;
  int64_t count = -1;    ///< a bare number (bench); -1 when none
  bool resident = false; ///< bench: inputs kept on the device, outputs left there
};
/// Parses words[first...] (a bare number only when `allowCount`).
Expected<ReplRunOptions> parseReplRunOptions(const ReplWords &words, size_t first,
                                             bool allowCount = false);

/// What `run` and `bench` both start from: their options, the graph prepared on the backend
/// they name (Ctrl-C stops its compilation) and the seeded random inputs it runs on, a
/// torch.export program's weights bound from its archive.
struct ReplRun {
  ReplRunOptions options;
  std::unique_ptr<PreparedRun> prepared;
  std::vector<RuntimeValue> inputs;
};
/// `words[1...]` as parseReplRunOptions reads them, then `graph` prepared.
Expected<ReplRun> prepareReplRun(const ReplGraph &graph, const ReplWords &words,
                                 bool allowCount = false);

// Commands of ReplGraphCommands.cpp (inspection and rewriting beyond the basics).
Status replCmdWhy(ReplSession &s, const ReplWords &w);
Status replCmdDiff(ReplSession &s, const ReplWords &w);
Status replCmdInsert(ReplSession &s, const ReplWords &w);
Status replCmdSetMeta(ReplSession &s, const ReplWords &w);
Status replCmdReplacePattern(ReplSession &s, const ReplWords &w);
Status replCmdRender(ReplSession &s, const ReplWords &w);
Status replCmdBench(ReplSession &s, const ReplWords &w);
/// `bisect [--backend B] [--seed N] [SYM=N...]` (BisectCommand.cpp).
Status replCmdBisect(ReplSession &s, const ReplWords &w);

} // namespace fxkit
