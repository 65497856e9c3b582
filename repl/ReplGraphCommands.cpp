// The REPL's commands beyond the basics: why, diff, insert, set-meta, replace-pattern, render,
// bench (see their help texts in ReplCommands.cpp).
#include "backends/Backend.h"
#include "exporters/Export.h"
#include "exporters/GraphSummary.h"
#include "exporters/ProvenanceText.h"
#include "importers/Import.h"
#include "ir/Try.h"
#include "repl/DiffCommand.h"
#include "repl/OutputFormats.h"
#include "repl/ReplCommandSupport.h"
#include "repl/ReplInspect.h"
#include "repl/ReplRewrite.h"
#include "repl/RunCommand.h"
#include "support/InductorProvenance.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>

namespace fxkit {
namespace {

template <typename T> bool parseNumber(std::string_view text, T &value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

/// `g`, `@-1` (the current graph one edit ago) or `g@-2`: a graph or one of its versions.
struct GraphRef {
  const Graph *graph = nullptr;
  std::string label;
};

Expected<GraphRef> resolveGraphRef(const ReplSession &s, std::string_view ref) {
  size_t at = ref.find('@');
  std::string name(ref.substr(0, at));
  if (name.empty()) {
    FXKIT_ASSIGN_OR_RETURN(auto cur, s.current());
    name = cur->name;
  }
  const ReplGraph *g = s.findGraph(name);
  if (!g)
    return Error("no graph named '" + name + "' (see 'list')");
  if (at == std::string_view::npos)
    return GraphRef{&g->graph, name};
  std::string_view version = ref.substr(at + 1);
  size_t back = 0;
  if (!version.starts_with('-') || !parseNumber(version.substr(1), back) || back == 0)
    return Error("bad graph version '" + std::string(ref) +
                 "': expected NAME@-N or @-N (N edits ago, N >= 1)");
  const Graph *old = s.previousVersion(name, back);
  if (!old)
    return Error("'" + std::string(ref) + "': the undo history of '" + name + "' has fewer than " +
                 std::to_string(back) + " edits");
  return GraphRef{old, name + "@-" + std::to_string(back)};
}

} // namespace

Expected<ReplRunOptions> parseReplRunOptions(const ReplWords &w, size_t first, bool allowCount) {
  ReplRunOptions options;
  auto bad = [&](const std::string &word) {
    return Error("bad argument '" + word +
                 "'; usage: " + std::string(findReplCommand(w[0])->usage));
  };
  for (size_t i = first; i < w.size(); ++i) {
    const std::string &word = w[i];
    bool hasValue = i + 1 < w.size();
    int64_t value = 0;
    size_t eq = word.find('=');
    if (word == "--seed" && hasValue && parseNumber(w[i + 1], options.seed))
      ++i;
    else if (word == "--backend" && hasValue)
      options.backend = w[++i];
    else if (word == "--device" && hasValue)
      options.device = w[++i];
    else if (allowCount && options.count < 0 && parseNumber(word, value) && value > 0)
      options.count = value;
    else if (allowCount && word == "--resident")
      options.resident = true;
    else if (eq != std::string::npos && eq > 0 && parseNumber(word.substr(eq + 1), value))
      options.symbols[word.substr(0, eq)] = value;
    else
      return bad(word);
  }
  FXKIT_TRY(findBackend(options.backend));
  return options;
}

Status replCmdWhy(ReplSession &s, const ReplWords &w) {
  FXKIT_TRY(replArity(w, 1, 1));
  FXKIT_ASSIGN_OR_RETURN(auto cur, s.current());
  FXKIT_ASSIGN_OR_RETURN(auto node, replNodeNamed(*cur, w[1]));
  // Inductor's own answer first, where the graph was read with its provenance mapping.
  const Graph &graph = cur->graph;
  const bool inductor = hasProvenance(graph);
  if (const NodeProvenance *p = node->provenance()) {
    s.out() << node->name() << ": Inductor provenance\n";
    for (const std::string &line : provenanceLines(*p))
      s.out() << "  " << line << "\n";
  } else if (inductor) {
    s.out() << node->name() << ": no Inductor provenance (the mapping does not name it)\n";
  }
  // Ctrl-C stops the compilation of the copy between passes; the graph is untouched.
  auto view = buildKernelView(graph, &ReplSession::interrupted);
  if (!view && ReplSession::interrupted)
    return view.takeError();
  if (!view) {
    if (inductor) // wrapper IR: nothing of fxkit's own to explain
      return Status::ok();
    return Error("cannot lower and fuse '" + cur->name + "': " + view.error().message);
  }
  FXKIT_ASSIGN_OR_RETURN(auto text, explainNodeFusion(*view, graph, node->name()));
  s.out() << text;
  return Status::ok();
}

Status replCmdDiff(ReplSession &s, const ReplWords &w) {
  GraphDiffOptions options;
  ReplWords refs{w[0]};
  for (size_t i = 1; i < w.size(); ++i) {
    if (w[i] == "--all") {
      options.all = true;
    } else if (w[i] == "--by") {
      auto by = i + 1 < w.size() ? parseMatchStrategy(w[i + 1]) : std::nullopt;
      if (!by)
        return Error("diff --by: expected " + matchStrategyList());
      options.by = *by;
      ++i;
    } else {
      refs.push_back(w[i]);
    }
  }
  FXKIT_TRY(replArity(refs, 0, 2));
  FXKIT_ASSIGN_OR_RETURN(auto before,
                         resolveGraphRef(s, refs.size() >= 2 ? std::string_view(refs[1]) : "@-1"));
  FXKIT_ASSIGN_OR_RETURN(auto after,
                         resolveGraphRef(s, refs.size() == 3 ? std::string_view(refs[2]) : ""));
  GraphMatch match = matchGraphs(*before.graph, *after.graph, options.by);
  s.out() << formatGraphDiff(*before.graph, *after.graph, match, before.label, after.label,
                             options);
  return Status::ok();
}

Status replCmdInsert(ReplSession &s, const ReplWords &w) {
  if (w.size() < 4 || (w[1] != "after" && w[1] != "before"))
    return Error("usage: " + std::string(findReplCommand(w[0])->usage));
  std::string anchor = w[2];
  size_t first = 3;
  if (anchor.ends_with(':'))
    anchor.pop_back();
  else if (w[3] == ":")
    first = 4;
  if (anchor.starts_with('%'))
    anchor.erase(0, 1);
  std::string line;
  for (size_t i = first; i < w.size(); ++i)
    line += (line.empty() ? "" : " ") + w[i];
  std::string name, type;
  Status st = s.edit(joinReplWords(w), [&](Graph &graph) -> Status {
    FXKIT_ASSIGN_OR_RETURN(auto node, insertNodeFromText(graph, anchor, w[1] == "before", line));
    name = node->name();
    type = valueTypeString(node->value());
    return Status::ok();
  });
  if (st)
    s.status() << "inserted " << name << " " << w[1] << " " << anchor << " : "
               << (type.empty() ? "type unknown" : type) << "\n";
  return st;
}

Status replCmdSetMeta(ReplSession &s, const ReplWords &w) {
  if (w.size() < 4)
    return Error("usage: " + std::string(findReplCommand(w[0])->usage));
  std::string value;
  for (size_t i = 3; i < w.size(); ++i)
    value += (value.empty() ? "" : " ") + w[i];
  std::string node = w[1].starts_with('%') ? w[1].substr(1) : w[1];
  std::string shown;
  Status st = s.edit(joinReplWords(w), [&](Graph &graph) -> Status {
    FXKIT_TRY(setNodeMeta(graph, node, w[2], value));
    const Node *n = graph.find(node);
    shown = w[2] == "python_type" ? std::string(n->pythonType()) : valueTypeString(n->value());
    return Status::ok();
  });
  if (st)
    s.status() << "set " << node << " " << w[2] << " = " << (shown.empty() ? "none" : shown)
               << "\n";
  return st;
}

Status replCmdReplacePattern(ReplSession &s, const ReplWords &w) {
  FXKIT_TRY(replArity(w, 2, 2));
  FXKIT_ASSIGN_OR_RETURN(auto pattern, importGraphFile(w[1]));
  FXKIT_ASSIGN_OR_RETURN(auto replacement, importGraphFile(w[2]));
  ReplaceReport report;
  Status st = s.edit(joinReplWords(w), [&](Graph &graph) -> Status {
    FXKIT_ASSIGN_OR_RETURN(auto r, replacePattern(graph, pattern, replacement));
    report = r;
    return Status::ok();
  });
  if (!st)
    return st;
  s.status() << "replaced " << report.replaced << (report.replaced == 1 ? " match" : " matches");
  if (report.refusedEscaping)
    s.status() << "; " << report.refusedEscaping
               << (report.refusedEscaping == 1 ? " match" : " matches")
               << " left alone (an inner node is used outside the match)";
  s.status() << "\n";
  return Status::ok();
}

/// `render [FILE]`: the picture `export` writes (the output-format table's picture rows), its
/// format named by FILE's extension; DOT text here without FILE.
Status replCmdRender(ReplSession &s, const ReplWords &w) {
  FXKIT_TRY(replArity(w, 0, 1));
  FXKIT_ASSIGN_OR_RETURN(auto cur, s.current());
  OutputRequest request;
  request.input = cur->name;
  if (w.size() == 1) {
    FXKIT_ASSIGN_OR_RETURN(auto dot, findOutputFormat("dot")->write(cur->graph, request));
    s.out() << *dot.text;
    return Status::ok();
  }
  const std::string &file = w[1];
  size_t dot = file.find_last_of('.');
  std::string extension = dot == std::string::npos ? "" : file.substr(dot + 1);
  std::string pictures, extensions;
  for (const std::string &name : outputFormatNames(OutputUse::Picture)) {
    pictures += (pictures.empty() ? "" : ", ") + name;
    extensions += (extensions.empty() ? "." : ", .") + name;
  }
  if (extension.empty())
    return Error("render: '" + file + "' has no extension (" + extensions + ")");
  const OutputFormat *format = outputFormatForPath(file);
  if (!format || !format->picture)
    return Error("cannot render '" + extension + "' pictures (formats: " + pictures + ")");
  request.output = file;
  FXKIT_ASSIGN_OR_RETURN(auto picture, format->write(cur->graph, request));
  FXKIT_TRY(writeFileAtomic(file, *picture.text));
  if (!picture.note.empty()) // Graphviz's warnings, in fxkit's words
    s.err() << picture.note << "\n";
  s.status() << "wrote " << file << " (" << format->name << ", " << cur->graph.size()
             << " nodes)\n";
  return Status::ok();
}

Expected<ReplRun> prepareReplRun(const ReplGraph &graph, const ReplWords &w, bool allowCount) {
  ReplRun r;
  FXKIT_ASSIGN_OR_RETURN(r.options, parseReplRunOptions(w, 1, allowCount));
  FXKIT_ASSIGN_OR_RETURN(r.prepared,
                         PreparedRun::prepare(graph.graph, r.options.backend, r.options.device,
                                              &ReplSession::interrupted));
  FXKIT_ASSIGN_OR_RETURN(r.inputs,
                         makeRandomInputs(r.prepared->graph(), r.options.symbols, r.options.seed));
  FXKIT_ASSIGN_OR_RETURN(r.inputs, bindProgramInputs(r.prepared->graph(), std::move(r.inputs)));
  return r;
}

Status replCmdBench(ReplSession &s, const ReplWords &w) {
  FXKIT_ASSIGN_OR_RETURN(auto cur, s.current());
  FXKIT_ASSIGN_OR_RETURN(auto bench, prepareReplRun(*cur, w, /*allowCount=*/true));
  const ReplRunOptions &options = bench.options;
  int64_t runs = options.count < 0 ? 10 : options.count;
  PreparedRun &prepared = *bench.prepared;
  const std::vector<RuntimeValue> &inputs = bench.inputs;
  Executable &exe = prepared.executable();
  // --resident: the inputs stay on the device after the untimed run, the outputs are left
  // there; a timed run ends when the device has finished it.
  if (options.resident)
    if (Status st = exe.setResidentInputs(std::vector<bool>(inputs.size(), true)); !st)
      return Error("bench --resident: " + st.error().message);
  auto runOnce = [&]() -> Status {
    if (!options.resident) {
      FXKIT_TRY(prepared.run(inputs));
      return Status::ok();
    }
    FXKIT_TRY(exe.runOnDevice(inputs));
    exe.synchronize();
    return Status::ok();
  };
  // One untimed run: OpenCL builds and tunes its kernels on the first launch.
  FXKIT_TRY(runOnce());
  const size_t untimed = exe.callSeconds().size();
  std::vector<double> seconds;
  seconds.reserve(static_cast<size_t>(runs));
  for (int64_t i = 0; i < runs; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    Status result = ReplSession::interrupted ? Status(Error("interrupted")) : runOnce();
    if (!result && ReplSession::interrupted)
      return Error("interrupted after " + std::to_string(i) + " of " + std::to_string(runs) +
                   " runs");
    if (!result)
      return result;
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(seconds.begin(), seconds.end());
  double median = seconds.size() % 2
                      ? seconds[seconds.size() / 2]
                      : (seconds[seconds.size() / 2 - 1] + seconds[seconds.size() / 2]) / 2;
  char line[160];
  std::snprintf(line, sizeof line,
                "%s: %lld runs on %s: min %.3f ms, median %.3f ms, max %.3f ms\n",
                cur->name.c_str(), static_cast<long long>(runs), options.backend.c_str(),
                seconds.front() * 1e3, median * 1e3, seconds.back() * 1e3);
  s.out() << line;
  // Where the backend stamps its runs on a device queue: their device time too.
  exe.synchronize();
  std::vector<double> device = exe.callSeconds();
  if (device.size() >= untimed + static_cast<size_t>(runs)) {
    device.erase(device.begin(), device.end() - runs);
    std::sort(device.begin(), device.end());
    double mid = device.size() % 2
                     ? device[device.size() / 2]
                     : (device[device.size() / 2 - 1] + device[device.size() / 2]) / 2;
    std::snprintf(line, sizeof line,
                  "%s: device time per run (queue events): min %.3f ms, median %.3f ms, max "
                  "%.3f ms%s\n",
                  cur->name.c_str(), device.front() * 1e3, mid * 1e3, device.back() * 1e3,
                  options.resident ? ", inputs kept on the device" : "");
    s.out() << line;
  }
  return Status::ok();
}

} // namespace fxkit
