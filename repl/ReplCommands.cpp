#include "repl/ReplCommands.h"

#include "backends/Backend.h"
#include "backends/interp/Interpreter.h"
#include "exporters/Export.h"
#include "exporters/FxTextPrinter.h"
#include "exporters/GraphSummary.h"
#include "importers/Import.h"
#include "ir/FaultInjection.h"
#include "ir/Try.h"
#include "ir/Verifier.h"
#include "repl/OutputFormats.h"
#include "repl/ReplCommandSupport.h"
#include "repl/ReplInspect.h"
#include "repl/ReplMatcher.h"
#include "repl/ReplQuery.h"
#include "repl/ReplSession.h"
#include "repl/RunCommand.h"
#include "support/DidYouMean.h"
#include "support/InductorProvenance.h"
#include "transforms/CompilationState.h"
#include "transforms/Pass.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <deque>
#include <thread>
#include <unordered_map>

namespace fxkit {
namespace {

const ReplCommand &commandNamed(std::string_view name) { return *findReplCommand(name); }

/// Help text built once from the registries, kept alive for the table's string_views.
std::string_view keepText(std::string text) {
  static std::deque<std::string> texts;
  return texts.emplace_back(std::move(text));
}

Status arity(const ReplWords &words, size_t min, size_t max) { return replArity(words, min, max); }

std::string joinWords(const ReplWords &words) { return joinReplWords(words); }

Expected<Node *> nodeNamed(const ReplGraph &g, std::string_view name) {
  return replNodeNamed(g, name);
}

bool isIdentifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])))
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

/// `dir/softmax.graph.txt` -> `softmax`: the default name of a loaded graph.
std::string graphNameFromPath(std::string_view path) {
  size_t slash = path.find_last_of('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  for (std::string_view ext : {".graph.txt", ".nodes.json"})
    if (base.ends_with(ext))
      return std::string(base.substr(0, base.size() - ext.size()));
  size_t dot = base.find_last_of('.');
  return std::string(dot == 0 || dot == std::string_view::npos ? base : base.substr(0, dot));
}

/// A copy of `g` with one node renamed. Graph has no rename (names are its index keys), so the
/// graph is rebuilt in order; every other field is copied as is.
Expected<Graph> withRenamedNode(const Graph &g, const Node *target, const std::string &name) {
  Graph out;
  out.moduleName = g.moduleName;
  out.attachments = g.attachments;
  out.submodules = g.submodules;
  out.reserve(g.size());
  std::unordered_map<const Node *, Node *> copies;
  bool dangling = false;
  auto remap = [&](Node *n) {
    auto it = copies.find(n);
    dangling = dangling || it == copies.end();
    return it == copies.end() ? n : it->second;
  };
  for (Node *n : g) {
    Argument args = n->args();
    Argument kwargs = n->kwargs();
    args.mapNodes(remap);
    kwargs.mapNodes(remap);
    if (dangling)
      return Error("node '" + n->name() + "' uses a node defined after it (run 'verify')");
    Node *copy = out.create(n->op(), n == target ? name : n->name(), n->target(), std::move(args),
                            std::move(kwargs));
    copy->setPythonType(n->pythonType());
    copy->value() = n->value();
    if (const NodeProvenance *p = n->provenance())
      copy->setProvenance(*p);
    copies.emplace(n, copy);
  }
  return out;
}

Status cmdLoad(ReplSession &s, const ReplWords &line) {
  std::string name, provenance, from;
  // `--force` (anywhere after FILE): replace a graph of that name even with unsaved edits.
  ReplWords w = line;
  bool force = std::erase(w, std::string("--force")) > 0;
  for (size_t i = 2; i < w.size(); i += 2) {
    if (i + 1 >= w.size() || (w[i] != "as" && w[i] != "--provenance" && w[i] != "--from"))
      return Error("usage: " + std::string(commandNamed(w[0]).usage));
    std::string &slot = w[i] == "as" ? name : w[i] == "--from" ? from : provenance;
    if (!slot.empty())
      return Error("usage: " + std::string(commandNamed(w[0]).usage));
    slot = w[i + 1];
  }
  if (w.size() < 2)
    return Error("usage: " + std::string(commandNamed(w[0]).usage));
  // `--from FORMAT` as the command line's: the reader by name instead of by the file's name.
  std::optional<GraphFormat> format;
  if (!from.empty() && !(format = parseGraphFormat(from)))
    return Error("unknown input format '" + from + "' (formats: " + inputFormatList() + ")");
  if (name.empty())
    name = graphNameFromPath(w[1]);
  FXKIT_TRY(s.checkReplace(name, force));
  auto graph = importGraphFile(w[1], format, true, provenance);
  if (faultInjected("slow")) // FXKIT_FAULT=slow: a long read, for the Ctrl-C test
    std::this_thread::sleep_for(std::chrono::seconds(1));
  // Ctrl-C during the read: the graph is dropped whole, the session is as it was.
  if (ReplSession::interrupted)
    return Error("interrupted: '" + w[1] + "' was not loaded");
  if (!graph)
    return graph.takeError();
  ReplGraph &g = s.addGraph(name, w[1], graph.take());
  s.status() << "loaded " << g.name << ": " << g.graph.size() << " nodes from " << w[1];
  if (const NodesJsonSidecar *sidecar = nodesJsonSidecar(g.graph))
    s.status() << " (types from " << sidecar->file << ")";
  s.status() << "\n";
  return Status::ok();
}

Status cmdList(ReplSession &s, const ReplWords &w) {
  FXKIT_TRY(arity(w, 0, 0));
  auto cur = s.current();
  if (s.graphs().empty())
    s.out() << "no graphs loaded\n";
  for (const auto &g : s.graphs()) {
    s.out() << (cur && *cur == g.get() ? "* " : "  ") << g->name << ": " << g->graph.size()
            << " nodes";
    if (!g->path.empty())
      s.out() << " (" << g->path << ")";
    s.out() << "\n";
  }
  return Status::ok();
}

Status cmdUse(ReplSession &s, const ReplWords &w) {
  FXKIT_TRY(arity(w, 1, 1));
  FXKIT_TRY(s.use(w[1]));
  s.status() << "current graph: " << w[1] << "\n";
  return Status::ok();
}

Status cmdInfo(ReplSession &s, const ReplWords &w) {
  FXKIT_TRY(arity(w, 0, 0));
  FXKIT_ASSIGN_OR_RETURN(auto cur, s.current());
  s.out() << "graph: " << cur->name;
  if (!cur->path.empty())
    s.out() << " (" << cur->path << ")";
  s.out() << "\n" << printGraphSummary(summarizeGraph(cur->graph));
  return Status::ok();
}

Status cmdRename(ReplSession &s, const ReplWords &w) {
  FXKIT_TRY(arity(w, 2, 2));
  if (!isIdentifier(w[2]))
    return Error("'" + w[2] + "' is not a valid node name (letters, digits and _)");
  Status st = s.edit(joinWords(w), [&](Graph &graph) -> Status {
    auto cur = s.current();
    FXKIT_ASSIGN_OR_RETURN(auto node, nodeNamed(**cur, w[1]));
    if (graph.find(w[2]) && graph.find(w[2]) != node)
      return Error("a node named '" + w[2] + "' exists already");
    FXKIT_ASSIGN_OR_RETURN(auto renamed, withRenamedNode(graph, node, w[2]));
    graph = std::move(renamed);
    return Status::ok();
  });
  if (st)
    s.status() << "renamed " << w[1] << " to " << w[2] << "\n";
  return st;
}

Status cmdReplaceUses(ReplSession &s, const ReplWords &w) {
  FXKIT_TRY(arity(w, 2, 2));
  size_t count = 0;
  Status st = s.edit(joinWords(w), [&](Graph &graph) -> Status {
    auto cur = s.current();
    FXKIT_ASSIGN_OR_RETURN(auto from, nodeNamed(**cur, w[1]));
    FXKIT_ASSIGN_OR_RETURN(auto to, nodeNamed(**cur, w[2]));
    if (from == to)
      return Error("a node cannot replace itself");
    count = from->users().size();
    graph.replaceAllUsesWith(from, to);
    return Status::ok();
  });
  if (st)
    s.status() << "replaced " << w[1] << " with " << w[2] << " in " << count
               << (count == 1 ? " user" : " users") << "\n";
  return st;
}

Status cmdErase(ReplSession &s, const ReplWords &w) {
  FXKIT_TRY(arity(w, 1, 1));
  Status st = s.edit(joinWords(w), [&](Graph &graph) -> Status {
    auto cur = s.current();
    FXKIT_ASSIGN_OR_RETURN(auto node, nodeNamed(**cur, w[1]));
    const std::vector<Node *> &users = node->users();
    if (!users.empty()) {
      std::string names;
      for (Node *u : users)
        names += (names.empty() ? "" : ", ") + u->name();
      return Error("cannot erase '" + node->name() + "': it has " + std::to_string(users.size()) +
                   (users.size() == 1 ? " user" : " users") + " (" + names +
                   "); use 'replace-uses' first");
    }
    if (node->op() == OpKind::Output)
      return Error("cannot erase the output node: a graph needs one");
    graph.erase(node);
    return Status::ok();
  });
  if (st)
    s.status() << "erased " << w[1] << "\n";
  return st;
}

Status cmdPass(ReplSession &s, const ReplWords &w) {
  if (w.size() < 2) { // the list, as `fxkit passes` prints it
    s.out() << describePasses();
    return Status::ok();
  }
  registerBuiltinPasses();
  // `pass dce,infer-shapes` as in `fxkit compile --passes` works too.
  std::vector<std::string> names;
  for (size_t i = 1; i < w.size(); ++i) {
    std::string_view rest = w[i];
    while (!rest.empty()) {
      size_t comma = rest.find(',');
      if (comma != 0)
        names.emplace_back(rest.substr(0, comma));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
  }
  for (const std::string &n : names)
    if (!PassRegistry::instance().find(n)) {
      std::string known;
      for (const PassInfo &p : PassRegistry::instance().all())
        known += (known.empty() ? "" : ", ") + p.name;
      std::vector<std::string_view> passes;
      for (const PassInfo &p : PassRegistry::instance().all())
        passes.push_back(p.name);
      std::string hint = didYouMean(closestSpellings(n, passes));
      return Error("unknown pass '" + n + "' (" + (hint.empty() ? "" : hint + " ") +
                   "passes: " + known + ")");
    }
  std::vector<PassRun> runs;
  // The nodes each pass removed, by name (`pass dce` says which).
  std::vector<std::pair<std::string, std::vector<std::string>>> removed;
  Status st = s.edit(joinWords(w), [&](Graph &graph) -> Status {
    // One pass at a time (to tell what each removed). Ctrl-C stops runPipeline between passes
    // and pipeline steps, and the edit rolls back.
    PassOptions options;
    options.setInterrupt(&ReplSession::interrupted);
    for (const std::string &name : names) {
      std::vector<std::string> before;
      before.reserve(graph.size());
      for (Node *n : graph)
        before.push_back(n->name());
      auto r = runPipeline(graph, {name}, options);
      if (!r && ReplSession::interrupted)
        return Error(r.error().message + "; the graph is as it was");
      if (!r)
        return r.takeError();
      runs.insert(runs.end(), r->begin(), r->end());
      std::erase_if(before, [&](const std::string &n) { return graph.find(n) != nullptr; });
      removed.emplace_back(name, std::move(before));
    }
    return Status::ok();
  });
  if (!st) {
    runs.clear();
    removed.clear();
  }
  for (const PassRun &r : runs)
    s.status() << r.name << ": " << (r.changed ? "changed" : "no change") << "\n";
  for (const auto &[name, gone] : removed) {
    if (gone.empty())
      continue;
    s.status() << name << " removed " << gone.size() << (gone.size() == 1 ? " node: " : " nodes: ");
    for (size_t i = 0; i < gone.size() && i < 10; ++i)
      s.status() << (i ? ", " : "") << gone[i];
    if (gone.size() > 10)
      s.status() << ", ... " << gone.size() - 10 << " more";
    s.status() << "\n";
  }
  return st;
}

Status cmdVerify(ReplSession &s, const ReplWords &w) {
  FXKIT_TRY(arity(w, 0, 0));
  FXKIT_ASSIGN_OR_RETURN(auto cur, s.current());
  FXKIT_TRY(verifyGraph(cur->graph));
  s.out() << "ok: " << cur->name << " verifies\n";
  return Status::ok();
}

Status cmdUndo(ReplSession &s, const ReplWords &w) {
  FXKIT_TRY(arity(w, 0, 0));
  bool undo = w[0] == "undo";
  FXKIT_ASSIGN_OR_RETURN(auto what, undo ? s.undo() : s.redo());
  s.status() << (undo ? "undone: " : "redone: ") << what << "\n";
  return Status::ok();
}

/// `export FORMAT [FILE]`, or `export FILE` with the format its extension names.
Status cmdExport(ReplSession &s, const ReplWords &w) {
  FXKIT_TRY(arity(w, 1, 2));
  FXKIT_ASSIGN_OR_RETURN(auto cur, s.current());
  const OutputFormat *format = findOutputFormat(w[1]);
  std::string file = w.size() > 2 ? w[2] : std::string();
  if (!format && w.size() == 2 && (format = outputFormatForPath(w[1])))
    file = w[1];
  if (!format || !outputFormatOffered(*format, OutputUse::Shell))
    return unknownOutputFormat(w[1], "", OutputUse::Shell);
  if (format->name == "pt2" && file.empty())
    return Error("pt2 archives are binary: give a file, e.g. export pt2 model.pt2");
  OutputRequest request;
  request.output = file.empty() ? "-" : file;
  request.input = cur->name;
  request.compiled = compilationState(cur->graph) != nullptr;
  FXKIT_ASSIGN_OR_RETURN(auto written, format->write(cur->graph, request));
  if (written.text && file.empty() && s.outputIsTerminal() && isBinaryOutput(*written.text))
    return Error(std::string(format->name) +
                 " is binary: not written to a terminal; give a file, e.g. export " +
                 std::string(format->name) + " graph" +
                 (format->extensions.empty() ? "" : std::string(format->extensions.front())));
  if (written.text && file.empty()) {
    s.out() << *written.text << (written.text->ends_with('\n') ? "" : "\n");
  } else if (written.text) {
    FXKIT_TRY(writeFileAtomic(file, *written.text));
  }
  if (!written.note.empty())
    s.err() << written.note << "\n";
  if (!file.empty()) {
    s.markSaved(*cur);
    s.status() << "wrote " << file << " (" << format->name << ")\n";
  }
  return Status::ok();
}

Status cmdRun(ReplSession &s, const ReplWords &w) {
  FXKIT_ASSIGN_OR_RETURN(auto cur, s.current());
  FXKIT_ASSIGN_OR_RETURN(auto run, prepareReplRun(*cur, w));
  FXKIT_ASSIGN_OR_RETURN(auto result, run.prepared->run(run.inputs));
  for (size_t i = 0; i < result.outputs.size(); ++i) {
    const RuntimeValue &v = result.outputs[i];
    s.out() << "out_" << i << ": ";
    if (const Tensor *t = v.tensor())
      s.out() << t->typeOf().str();
    else if (const int64_t *n = v.integer())
      s.out() << *n;
    else if (const auto *ts = v.tensors())
      s.out() << ts->size() << " tensors";
    else if (const double *d = std::get_if<double>(&v.v))
      s.out() << *d;
    else if (const bool *b = std::get_if<bool>(&v.v))
      s.out() << (*b ? "True" : "False");
    else
      s.out() << "None";
    s.out() << "\n";
  }
  return Status::ok();
}

Status cmdHelp(ReplSession &s, const ReplWords &w) {
  FXKIT_TRY(arity(w, 0, 1));
  if (w.size() == 2 && w[1] != "--markdown") {
    const ReplCommand *c = findReplCommand(w[1]);
    if (!c)
      return Error("no command named '" + w[1] + "' (" + replCommandHint(w[1]) + ")");
    s.out() << "usage: " << c->usage << "\n" << c->summary << "\n";
    if (!c->details.empty())
      s.out() << c->details;
    s.out() << "example: " << c->example << "\n";
    return Status::ok();
  }
  // The README's table of commands is this output (tests/cli/repl_help.sh checks it).
  if (w.size() == 2 && w[1] == "--markdown") {
    s.out() << "| command | what it does | example |\n| --- | --- | --- |\n";
    auto cell = [](std::string_view text) {
      std::string out;
      for (char ch : text)
        out += ch == '|' ? std::string("\\|") : std::string(1, ch);
      return out;
    };
    for (const ReplCommand &c : replCommands())
      s.out() << "| `" << cell(c.usage) << "` | " << cell(c.summary) << " | `" << cell(c.example)
              << "` |\n";
    return Status::ok();
  }
  size_t width = 0;
  for (const ReplCommand &c : replCommands())
    width = std::max(width, c.usage.size());
  for (const ReplCommand &c : replCommands())
    s.out() << "  " << c.usage << std::string(width - c.usage.size() + 2, ' ') << c.summary << "\n";
  s.out() << "Commands are separated by ';'; quote words with spaces; '#' starts a comment.\n";
  return Status::ok();
}

Status cmdQuit(ReplSession &s, const ReplWords &w) {
  FXKIT_TRY(arity(w, 0, 0));
  s.requestQuit();
  return Status::ok();
}

} // namespace

const std::vector<ReplCommand> &replCommands() {
  using K = ReplArgKind;
  // The formats come from the output-format table (repl/OutputFormats.h).
  static const std::string exportDetails =
      "Formats: " + outputFormatList(OutputUse::Shell) +
      ".\nWithout FILE the text is printed here. 'export model.json' picks the format\n"
      "from the extension. Pictures draw a compiled graph's kernels, as 'render' does.\n";
  // The input formats (support/GraphFormat.h), passes and backends from their registries.
  static const std::string loadFormats = "Formats: " + inputFormatList() + ".\n";
  static const std::string passNames = [] {
    registerBuiltinPasses();
    std::string names;
    for (const PassInfo &p : PassRegistry::instance().all())
      names += (names.empty() ? "" : ", ") + p.name;
    return "Passes: " + names + ".\n";
  }();
  static const std::string runBackends = "Backends: " + backendHelp() + ".\n";
  static const std::vector<ReplCommand> commands = {
      {"load", "load FILE [as NAME] [--from FORMAT] [--provenance MAP] [--force]",
       "Load a graph (any input format: see 'help load') and use it",
       keepText(
           loadFormats +
           "The name defaults to the file name without its extension; loading a name again\n"
           "replaces that graph, unless it has unsaved edits (then --force is needed).\n"
           "MAP is Inductor's provenance mapping\n"
           "(inductor_provenance_tracking_node_mappings.json) to attach; an output_code.py or\n"
           "fx_graph_transformed.py takes the one of its debug folder by itself. See 'why'.\n"
           "--from FORMAT picks the reader when the file's name does not say it.\n"),
       K::File, K::None, cmdLoad, "load model.graph.txt as m"},
      {"list", "list", "List the graphs loaded (* marks the current one)", "", K::None, K::None,
       cmdList, "list"},
      {"use", "use NAME", "Make a loaded graph the current one", "", K::Graph, K::None, cmdUse,
       "use m"},
      {"show", "show [NODE|$VAR...] [--full]",
       "Print the graph as FX text, or the lines of some nodes",
       "  show            the whole graph (str(graph) with types)\n"
       "  show add        one node's line and its type\n"
       "  show $m         the lines of every node of a 'let' variable\n"
       "Lists of more than 12 items (the output node's values and types) are cut after 8\n"
       "('... 347 more'); --full prints them whole.\n",
       K::Node, K::Node, replCmdShow, "show add_1 mul"},
      {"users", "users NODE|$VAR... [--full]", "List the nodes that use NODE",
       "With several nodes or a variable: the users of any of them, in graph order.\n", K::Node,
       K::Node, replCmdQuery, "users mul"},
      {"inputs", "inputs NODE|$VAR... [--full]", "List the nodes NODE uses",
       "One node's inputs in argument order; several: all their inputs, in graph order.\n", K::Node,
       K::Node, replCmdQuery, "inputs add_1"},
      {"info", "info", "Summarize the graph: counts, ops, inputs, outputs, symbols", "", K::None,
       K::None, cmdInfo, "info"},
      {"find", "find TERM...", "List the nodes for which every TERM holds",
       "Terms are KEY=VALUE, KEY!=VALUE, or for counts KEY<N, KEY<=N, KEY>N, KEY>=N:\n"
       "  op=aten.mul.Tensor  the target, with or without torch.ops.; * and ? are globs\n"
       "  name=add*           the node name\n"
       "  kind=placeholder    placeholder, call_function, call_method, get_attr, output\n"
       "  type=f32[*          the value's type as FX prints it\n"
       "  dtype=f16           the value's dtype (f32, float16, torch.half, ...)\n"
       "  users>1, inputs=2   the number of distinct users or inputs\n"
       "  kernel=fused_*      the kernel computing the node once the graph is lowered and\n"
       "                      fused (as 'pass fuse' would; see 'why NODE'); on a graph\n"
       "                      read with Inductor's provenance, the kernel calls Inductor\n"
       "                      recorded for it (kernel=triton_poi_fused_add_0:3, or the name)\n"
       "  post=add_3         Inductor provenance: the post-grad nodes of the node (on a\n"
       "                      wrapper: the kernel calls computing post-grad node add_3)\n"
       "  pre=linear         Inductor provenance: the pre-grad (Dynamo) nodes behind it\n"
       "A word $VAR searches only the nodes of that 'let' variable. When op= or name=\n"
       "matches nothing, close op and node names are suggested.\n",
       K::None, K::None, replCmdQuery, "find op=aten.add.* users>1"},
      {"ancestors", "ancestors NODE|$VAR... [--depth N]",
       "List the nodes NODE depends on, transitively",
       "Every node whose value flows into NODE, in graph order; --depth N stops N edges\n"
       "back (--depth 1 is 'inputs'). Walks are iterative: graphs of millions of nodes.\n",
       K::Node, K::Node, replCmdQuery, "ancestors add_1 --depth 2"},
      {"descendants", "descendants NODE|$VAR... [--depth N]",
       "List the nodes that depend on NODE, transitively",
       "Every node NODE's value flows into, in graph order; --depth N stops N edges on.\n", K::Node,
       K::Node, replCmdQuery, "descendants mul"},
      {"path", "path A B [--all] [--limit N]", "Show a shortest data path from A to B",
       "  path x add_1            one shortest path, one node a line\n"
       "  path x add_1 --all      every path (the first 20; --limit N), one a line:\n"
       "                          x -> mul -> add -> add_1\n"
       "B must depend on A; when A depends on B, the hint says so.\n",
       K::Node, K::Node, replCmdQuery, "path x add_1 --all"},
      {"slice", "slice [--backward|--forward] NODE|$VAR... [--depth N]",
       "The subgraph that computes NODE (or that NODE feeds)",
       "--backward (default): NODE and its ancestors, what 'extract' needs to recompute it;\n"
       "--forward: NODE and its descendants.\n",
       K::Node, K::Node, replCmdQuery, "slice --backward add"},
      {"match", "match PATTERN [TERM...]", "Find every match of a pattern graph",
       "PATTERN is a graph file or inline text: print_readable() Python statements or FX\n"
       "text node lines, separated by ';' (quote it). Names used and not defined match any\n"
       "node; the last statement is the root:\n"
       "  match 'aten.relu.default(a)'\n"
       "  match 'm = aten.mul.Tensor(a, a); aten.add.Tensor(m, b)' users=1\n"
       "One call a statement (name inner calls); other arguments must be equal. Matching\n"
       "is replace-pattern's. Prints each match's root and what the names bound; find\n"
       "TERMs filter the roots. As a set ('let'), the nodes of every match.\n",
       K::File, K::None, replCmdQuery, "match 'm = aten.mul.Tensor(a, a); aten.add.Tensor(m, b)'"},
      {"kernel-of", "kernel-of NODE|$VAR...",
       "Which kernels compute NODE, and what else each computes",
       "One line per kernel: its name and every node it computes. On a graph read with\n"
       "Inductor's provenance (fx_graph_transformed.py, output_code.py, --provenance), the\n"
       "kernel calls Inductor recorded (name:N); else fxkit's own kernels, the graph lowered\n"
       "and fused on a copy (see 'why NODE'). As a set ('let'), the nodes of those kernels.\n",
       K::Node, K::Node, replCmdQuery, "kernel-of relu"},
      {"computes", "computes KERNEL...", "What a kernel computes: its nodes",
       "KERNEL is a kernel's name, Inductor's handle name:N, or a glob (triton_poi_*);\n"
       "the kernels are those of 'kernel-of'. One line per kernel with its nodes; as a set\n"
       "('let'), the nodes.\n",
       K::None, K::None, replCmdQuery, "computes triton_poi_fused_*"},
      {"let", "let NAME = QUERY", "Keep the nodes a query answers as $NAME",
       "QUERY is find, users, inputs, ancestors, descendants, path, slice, match,\n"
       "kernel-of or computes, or\n"
       "$A $B... (a union). Every command that takes nodes takes $NAME:\n"
       "  let m = find op=aten.mul.Tensor; descendants $m; extract $m as muls\n"
       "A variable belongs to the graph it was computed on and keeps node names.\n",
       K::None, K::Command, replCmdLet, "let a = ancestors add_1"},
      {"set", "set [NAME]", "List the variables 'let' defined, or one's nodes", "", K::Variable,
       K::None, replCmdSet, "set a"},
      {"extract", "extract NODE|$VAR... [as NAME]", "Make a new graph of some nodes",
       "The new graph (NAME, default GRAPH_extract) holds the nodes, a placeholder typed as\n"
       "the original for each value they use from outside, and an output of the values\n"
       "used outside or by none of them. It is verified and becomes the current graph:\n"
       "  let s = slice --backward add_1; extract $s as part; export part.fx\n",
       K::Node, K::Node, replCmdExtract, "extract $a as part"},
      {"print_tabular", "print_tabular [NODE|$VAR...] [--full]",
       "Print nodes as torch.fx's graph.print_tabular() does",
       "Columns opcode, name, target, args, kwargs; every node when none is given.\n", K::Node,
       K::Node, replCmdPrintTabular, "print_tabular mul add"},
      {"rename", "rename NODE NEW", "Rename a node", "", K::Node, K::None, cmdRename,
       "rename mul square"},
      {"replace-uses", "replace-uses A B", "Make every user of A use B instead", "", K::Node,
       K::Node, cmdReplaceUses, "replace-uses convert y"},
      {"erase", "erase NODE", "Erase a node that has no users", "", K::Node, K::None, cmdErase,
       "erase relu"},
      {"pass", "pass [NAME...]", "Run registered passes in order (see 'help pass')",
       keepText(
           passNames +
           "'pass' alone lists them all with the level each reads\n"
           "and writes, the steps of pipelines (lower, fuse) and their options. The graph is\n"
           "verified after each pass that rewrites it. Ctrl-C stops between passes and leaves\n"
           "the graph as it was.\n"),
       K::Pass, K::Pass, cmdPass, "pass dce"},
      {"verify", "verify", "Check the graph's structure", "", K::None, K::None, cmdVerify,
       "verify"},
      {"insert", "insert after|before NODE: LINE", "Insert one node written as FX text or Python",
       "LINE is one node line of FX text or of print_readable()'s Python:\n"
       "  insert after add: %r = call_function[target=torch.ops.aten.relu.default](args = "
       "(%add,), kwargs = {})\n"
       "  insert after add: r = torch.ops.aten.relu.default(add)    (or aten.relu.default)\n"
       "The names it uses must be nodes of the graph. Its type comes from shape inference;\n"
       "the graph is verified (inputs defined before it) and the edit can be undone.\n"
       "Quote LINE when it has quotes, ';' or '#' in it.\n",
       K::Position, K::Node, replCmdInsert,
       "insert after mul: neg = torch.ops.aten.neg.default(mul)"},
      {"set-meta", "set-meta NODE KEY VALUE", "Set a node's metadata (val/type, python_type)",
       "  set-meta add val f32[4, 8][8, 1]cpu   the value's type (FX's meta['val'])\n"
       "  set-meta n val s77                    a symbolic integer value\n"
       "  set-meta add val none                 forget the type\n"
       "  set-meta x python_type torch.SymInt   the Python type FX prints after the name\n"
       "The IR keeps no other meta (stack_trace, nn_module_stack): those are refused.\n"
       "Inductor's provenance comes from its mapping file only (load ... --provenance).\n",
       K::Node, K::MetaKey, replCmdSetMeta, "set-meta mul val f32[4, 8]"},
      {"replace-pattern", "replace-pattern PATTERN REPLACEMENT",
       "Rewrite every match of a pattern graph (like torch.fx's replace_pattern)",
       "PATTERN and REPLACEMENT are graph files (FX text, ...) with the same placeholders\n"
       "and the same number of returned nodes. Matches are anchored at the pattern's first\n"
       "returned node, do not overlap, and their inner nodes must have no users outside the\n"
       "match. Prints how many were replaced; the graph is verified and the edit can be\n"
       "undone.\n",
       K::File, K::File, replCmdReplacePattern,
       "replace-pattern 'aten.mul.Tensor(a, a)' 'aten.pow.Tensor_Scalar(a, 2)'"},
      {"undo", "undo", "Undo the last edit (rename, replace-uses, erase, insert, pass, ...)", "",
       K::None, K::None, cmdUndo, "undo"},
      {"redo", "redo", "Redo the last undone edit", "", K::None, K::None, cmdUndo, "redo"},
      {"diff", "diff [A [B]] [--by S] [--all]", "Diff two graphs or versions, node by node",
       "A and B are loaded graphs (NAME), or versions of one from its undo history\n"
       "(NAME@-N or @-N: N edits ago). B defaults to the current graph, A to @-1:\n"
       "  diff            what the last edit changed\n"
       "  diff @-3        what the last 3 edits changed\n"
       "  diff g h        graph g against graph h\n"
       "Nodes are paired as `fxkit diff` pairs them: by Inductor's provenance, names,\n"
       "structure (a renamed node) and regions (an op and what it decomposed into);\n"
       "--by auto|name|structure|provenance chooses. One line per difference: '-' removed\n"
       "and '+' added (their FX lines, num_users left out), '~' changed (both FX lines\n"
       "below) or a region, '=' renamed (--all: also the identical pairs), and a summary.\n",
       K::Graph, K::Graph, replCmdDiff, "diff @-2"},
      {"why", "why NODE", "Show the fusion decisions about a node and its kernel",
       "Lowers and fuses a copy of the graph (as 'pass lower,fuse' would) and prints\n"
       "the loop ops computing NODE, the kernels they are in, and every fusion decision\n"
       "involving them: taken or refused, the reason, and the bytes it saves.\n"
       "On a graph read with Inductor's provenance mapping, first what Inductor recorded:\n"
       "for a kernel call of a wrapper, the post-grad nodes it computes and the pre-grad\n"
       "nodes behind them; for a post-grad node, the kernel calls computing it.\n"
       "Ctrl-C stops the compilation between passes.\n",
       K::Node, K::None, replCmdWhy, "why add"},
      {"render", "render [FILE.svg|.png|.pdf|.dot]", "Draw the graph (DOT text here without FILE)",
       "Writes the picture of 'fxkit convert --to svg|dot' to FILE (atomically).\n", K::File,
       K::None, replCmdRender, "render m.svg"},
      {"export", "export FORMAT [FILE] | export FILE",
       "Write the graph (format by name or by FILE's extension)", exportDetails, K::Format, K::File,
       cmdExport, "export out.json"},
      {"run", "run [--backend B] [--seed N] [SYM=N...]", "Run the graph on seeded random inputs",
       keepText(
           "Prints the type of every output. Symbolic sizes of the inputs need a value: s77=33.\n" +
           runBackends + "--device cpu|gpu|N picks the OpenCL device. Ctrl-C stops it.\n"),
       K::None, K::None, cmdRun, "run --backend opencl --seed 1"},
      {"bench", "bench [N] [--backend B] [--resident] [SYM=N...]",
       "Time N runs of the graph (default 10): min, median, max",
       "Same options (--backend, --device, --seed) and inputs as 'run'. One untimed run\n"
       "comes first (OpenCL builds and tunes its kernels then). Ctrl-C stops between runs.\n"
       "On a device, the runs' device time from queue events too. --resident: the inputs\n"
       "stay on the device after the first run and the outputs are not read back.\n",
       K::None, K::None, replCmdBench, "bench 20 --backend llvm"},
      {"bisect", "bisect [--backend B] [--seed N] [SYM=N...]",
       "The first kernel of a backend (default opencl) that disagrees with the interpreter",
       "Same options and inputs as 'run'. Runs the compiled graph kernel by kernel and compares\n"
       "every kernel's output with the reference interpreter's value of its FX node, as\n"
       "'fxkit bisect' does (which also minimizes the graph).\n",
       K::None, K::None, replCmdBisect, "bisect --backend opencl"},
      {"help", "help [COMMAND]", "List the commands, or explain one", "", K::Command, K::None,
       cmdHelp, "help find"},
      {"quit", "quit", "Leave the shell (also: exit, Ctrl-D)", "", K::None, K::None, cmdQuit,
       "quit"},
      {"exit", "exit", "Leave the shell", "", K::None, K::None, cmdQuit, "exit"},
  };
  return commands;
}

std::string replCommandHint(std::string_view name) {
  std::vector<std::string_view> names;
  for (const ReplCommand &c : replCommands())
    names.push_back(c.name);
  std::string hint = didYouMean(closestSpellings(name, names));
  return (hint.empty() ? "" : hint + " ") + "try 'help'";
}

const ReplCommand *findReplCommand(std::string_view name) {
  for (const ReplCommand &c : replCommands())
    if (c.name == name)
      return &c;
  return nullptr;
}

} // namespace fxkit
