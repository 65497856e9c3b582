#include "repl/ReplCompletion.h"

#include "backends/Backend.h"
#include "ir/ops/OpRegistry.h"
#include "repl/OutputFormats.h"
#include "repl/ReplCommands.h"
#include "repl/ReplQuery.h"
#include "repl/ReplSession.h"
#include "transforms/Pass.h"

#include <algorithm>
#include <filesystem>

namespace fxkit {
namespace {

/// The words of the command being typed, before the word being completed.
std::vector<std::string_view> wordsBefore(std::string_view before) {
  size_t semi = before.find_last_of(';');
  if (semi != std::string_view::npos)
    before = before.substr(semi + 1);
  // Quotes in the words before the cursor are rare enough to ignore here.
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < before.size()) {
    size_t start = before.find_first_not_of(" \t", i);
    if (start == std::string_view::npos)
      break;
    size_t end = before.find_first_of(" \t", start);
    words.push_back(before.substr(start, end == std::string_view::npos ? end : end - start));
    i = end == std::string_view::npos ? before.size() : end;
  }
  return words;
}

void addNodeNames(const ReplSession &session, std::vector<std::string> &out) {
  if (auto cur = session.current())
    for (Node *n : (*cur)->graph)
      out.push_back(n->name());
}

/// The `--options` a command's usage line names (`slice [--backward|--forward] ... [--depth N]`).
void addOptions(const ReplCommand &command, std::vector<std::string> &out) {
  std::string_view usage = command.usage;
  for (size_t at = usage.find("--"); at != std::string_view::npos; at = usage.find("--", at)) {
    size_t end = usage.find_first_of(" |]", at);
    out.emplace_back(usage.substr(at, end == std::string_view::npos ? end : end - at));
    at = end == std::string_view::npos ? usage.size() : end;
  }
}

/// `$NAME` for every `let` variable.
void addVariables(const ReplSession &session, std::vector<std::string> &out) {
  for (const auto &[name, v] : session.variables())
    out.push_back("$" + name);
}

/// Entries of the folder `word` names, as `word` would continue (folders with a `/`).
void addPaths(std::string_view word, std::vector<std::string> &out) {
  namespace fs = std::filesystem;
  size_t slash = word.find_last_of('/');
  std::string dir = slash == std::string_view::npos ? "" : std::string(word.substr(0, slash + 1));
  std::error_code ec;
  fs::directory_iterator it(dir.empty() ? fs::path(".") : fs::path(dir), ec);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    std::string name = it->path().filename().string();
    std::error_code dirEc;
    out.push_back(dir + name + (it->is_directory(dirEc) ? "/" : ""));
  }
}

void addFindTerms(const ReplSession &session, std::string_view word,
                  std::vector<std::string> &out) {
  if (word.starts_with("op=")) {
    for (const OpInfo &op : OpRegistry::instance().ops()) {
      std::string_view t = op.target;
      out.push_back("op=" + std::string(t.starts_with("torch.ops.") ? t.substr(10) : t));
    }
  } else if (word.starts_with("name=")) {
    std::vector<std::string> names;
    addNodeNames(session, names);
    for (const std::string &n : names)
      out.push_back("name=" + n);
  } else if (word.starts_with("kind=")) {
    for (std::string_view k :
         {"placeholder", "call_function", "call_method", "call_module", "get_attr", "output"})
      out.push_back("kind=" + std::string(k));
  } else if (word.starts_with('$')) { // a domain: `find op=... $x`
    addVariables(session, out);
  } else {
    for (std::string_view k : {"op=", "name=", "kind=", "type=", "dtype=", "users", "inputs",
                               "kernel=", "post=", "pre="})
      out.emplace_back(k);
  }
}

/// In an insert's node line: op targets (with or without `torch.ops.`) for dotted words,
/// node names otherwise.
void addInsertWords(const ReplSession &session, std::string_view word,
                    std::vector<std::string> &out) {
  if (word.find('.') == std::string_view::npos && !word.starts_with('%')) {
    addNodeNames(session, out);
    return;
  }
  for (const OpInfo &op : OpRegistry::instance().ops()) {
    std::string_view t = op.target;
    out.emplace_back(t);
    if (t.starts_with("torch.ops."))
      out.emplace_back(t.substr(10));
  }
}

} // namespace

std::string_view replWordBreaks(std::string_view before) {
  std::vector<std::string_view> words = wordsBefore(before);
  if (words.size() >= 3 && words[0] == "insert")
    return " \t\n\"\\'`@$><=;|&{(,"; // readline's default, and ','
  return " \t\n;";
}

std::vector<std::string> replCompletions(const ReplSession &session, std::string_view before,
                                         std::string_view word) {
  std::vector<std::string_view> words = wordsBefore(before);
  std::vector<std::string> out;
  // `let NAME = QUERY ...`: `=`, then the query names, then the query's own arguments.
  if (!words.empty() && words[0] == "let") {
    if (words.size() == 2)
      out.push_back("=");
    if (words.size() == 3)
      for (std::string_view q : replQueryNames())
        out.emplace_back(q);
    if (words.size() < 4) {
      std::erase_if(out, [&](const std::string &c) { return !c.starts_with(word); });
      return out;
    }
    words.erase(words.begin(), words.begin() + 3);
  }
  const ReplCommand *command = words.empty() ? nullptr : findReplCommand(words[0]);
  ReplArgKind kind = ReplArgKind::None;
  if (words.empty())
    kind = ReplArgKind::Command;
  else if (command && command->name == "find")
    addFindTerms(session, word, out);
  else if (command && words.back() == "--backend")
    kind = ReplArgKind::Backend;
  else if (command && command->name == "insert" && words.size() >= 3)
    addInsertWords(session, word, out);
  else if (command && !(command->name == "load" && words.size() == 2))
    kind = words.size() == 1 ? command->firstArg : command->otherArgs;
  switch (kind) {
  case ReplArgKind::Command:
    for (const ReplCommand &c : replCommands())
      out.emplace_back(c.name);
    break;
  case ReplArgKind::Pass:
    registerBuiltinPasses();
    for (const PassInfo &p : PassRegistry::instance().all())
      out.push_back(p.name);
    break;
  case ReplArgKind::Format:
    for (std::string &name : outputFormatNames(OutputUse::Shell))
      out.push_back(std::move(name));
    if (word.find_first_of("./") != std::string_view::npos) // `export model.json`
      addPaths(word, out);
    break;
  case ReplArgKind::Graph:
    for (const auto &g : session.graphs())
      out.push_back(g->name);
    break;
  case ReplArgKind::Node:
    addNodeNames(session, out);
    addVariables(session, out);
    if (command && word.starts_with('-'))
      addOptions(*command, out);
    break;
  case ReplArgKind::Variable:
    addVariables(session, out);
    break;
  case ReplArgKind::File:
    addPaths(word, out);
    break;
  case ReplArgKind::Position:
    out = {"after", "before"};
    break;
  case ReplArgKind::MetaKey:
    out = {"val", "type", "python_type"};
    break;
  case ReplArgKind::Backend:
    for (const auto &backend : backendRegistry())
      out.push_back(backend->name());
    break;
  case ReplArgKind::None:
    break;
  }
  std::erase_if(out, [&](const std::string &c) { return !c.starts_with(word); });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

} // namespace fxkit
