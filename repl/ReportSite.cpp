#include "repl/ReportSite.h"

#include "exporters/FolderOutput.h"
#include "exporters/HtmlReport.h"
#include "exporters/ModulePath.h"
#include "exporters/XmlEscape.h"
#include "exporters/report/GraphViewer.h"
#include "exporters/wrapper/FxIrWriter.h"
#include "exporters/wrapper/InductorFxIr.h"
#include "importers/Import.h"
#include "importers/inductor/InductorMeta.h"
#include "importers/inductor/InductorWrapper.h"
#include "importers/inductor/WrapperAnalysis.h"
#include "importers/json/Provenance.h"
#include "ir/wrapper/WrapperDialect.h"
#include "repl/Cli.h"
#include "repl/ReportCommand.h"
#include "repl/ReportSiteDiff.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <string_view>

namespace fxkit {
namespace {

namespace fs = std::filesystem;

/// The stages of one compile, in the order the compiler goes through them.
enum class Stage {
  Dynamo,
  AtenPre,
  PostGrad,
  SchedulerPre,
  SchedulerPost,
  Wrapper,
  CppWrapper,
  FxIr
};
constexpr Stage kStages[] = {Stage::Dynamo,       Stage::AtenPre,       Stage::PostGrad,
                             Stage::SchedulerPre, Stage::SchedulerPost, Stage::Wrapper,
                             Stage::CppWrapper,   Stage::FxIr};

std::string_view stageName(Stage s) {
  switch (s) {
  case Stage::Dynamo:
    return "Dynamo graph (pre-grad)";
  case Stage::AtenPre:
    return "ATen, before post-grad passes";
  case Stage::PostGrad:
    return "ATen post-grad (what Inductor lowers)";
  case Stage::SchedulerPre:
    return "scheduler nodes before fusion";
  case Stage::SchedulerPost:
    return "scheduler nodes after fusion";
  case Stage::Wrapper:
    return "Inductor's Python wrapper (kernels)";
  case Stage::CppWrapper:
    return "Inductor's C++ wrapper";
  case Stage::FxIr:
    return "Inductor's FX IR of the wrapper";
  }
  return "";
}

/// The short name in the navigation bar.
std::string_view stageShort(Stage s) {
  switch (s) {
  case Stage::Dynamo:
    return "Dynamo";
  case Stage::AtenPre:
    return "ATen pre";
  case Stage::PostGrad:
    return "post-grad";
  case Stage::SchedulerPre:
    return "scheduler pre";
  case Stage::SchedulerPost:
    return "scheduler post";
  case Stage::Wrapper:
    return "kernels";
  case Stage::CppWrapper:
    return "C++ wrapper";
  case Stage::FxIr:
    return "FX IR";
  }
  return "";
}

/// The debug folder's files and their stages.
struct DebugFileKind {
  std::string_view name;
  Stage stage;
};
constexpr DebugFileKind kDebugFiles[] = {
    {"fx_graph_readable.py", Stage::AtenPre},   {"fx_graph_transformed.py", Stage::PostGrad},
    {"ir_pre_fusion.txt", Stage::SchedulerPre}, {"ir_post_fusion.txt", Stage::SchedulerPost},
    {"output_code.py", Stage::Wrapper},
};

/// One graph file of the site and what reading it found.
struct GraphFile {
  std::string rel; ///< path below the input folder
  Stage stage = Stage::Dynamo;
  int index = -1; ///< the `_i` of a zoo file (Dynamo: its N)
  std::string page;
  std::optional<Graph> graph;
  std::string error; ///< why it could not be read
  double readMs = 0;
  size_t nodes = 0, calls = 0, kernelLaunches = 0, externCalls = 0;
  std::map<std::string, size_t> ops;
  std::set<std::string> names; ///< node names as anchors (anchorId)
  std::vector<const Node *> order;
};

/// One Inductor compile: a debug folder and the zoo files of the same index.
struct Compile {
  std::string label;
  std::string debugRel; ///< empty: no debug folder
  int dynamo = -1;      ///< the Dynamo graph N it comes from
  std::map<Stage, std::vector<size_t>> files;
  std::optional<InductorProvenance> provenance;
  std::string provenanceRel, provenanceError;
  // The page each kind of provenance link goes to (indices into the files; -1: none).
  long post = -1, pre = -1, kernels = -1;
  std::vector<size_t> diffs; ///< its diff pages (indices into SiteBuilder::diffs_)
};

/// A diff page of one compile (repl/ReportSiteDiff.h).
enum class DiffKind {
  PrePost, ///< the pre-grad ATen graph against the post-grad graph
  FxIr,    ///< Inductor's FX IR of its wrapper against fxkit's FX IR of its own wrapper
};

/// One diff page: its two graphs (as files of the site), its page, and what building it found.
struct DiffPage {
  DiffKind kind = DiffKind::PrePost;
  size_t compile = 0;
  long a = -1;       ///< A's file: the pre-grad graph, or Inductor's FX IR (-1: converted)
  long b = -1;       ///< the post-grad graph (FxIr: the graph fxkit compiles)
  long wrapper = -1; ///< FxIr without an FX IR file: the output_code.py converted instead
  std::string page;
  GraphDiffSummary summary;
  std::string error; ///< why there is no diff (fxkit could not compile the post-grad graph)
  double ms = 0;
  std::string content; ///< the page, built before the pages of the graphs it links
  /// The files whose pages the two sides link (-1: a side listed on the diff page itself), and
  /// each side's node name -> its row: those pages link every node back to its row.
  long pageA = -1, pageB = -1;
  std::map<std::string, SiteDiffRow> rowsA, rowsB;
};

/// The diff's name in a node's back-link ("pre/post: changed").
std::string_view diffShortTitle(DiffKind kind) {
  switch (kind) {
  case DiffKind::PrePost:
    return "pre/post";
  case DiffKind::FxIr:
    return "FX IR";
  }
  return "";
}

/// The diff's name on the index and in the navigation bar.
std::string_view diffTitle(DiffKind kind) {
  switch (kind) {
  case DiffKind::PrePost:
    return "pre-grad / post-grad";
  case DiffKind::FxIr:
    return "FX IR: Inductor / fxkit";
  }
  return "";
}

} // namespace

std::string siteAnchorId(std::string_view name) {
  std::string out;
  for (char c : name)
    out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ':' ||
            c == '-')
               ? c
               : '_';
  return out;
}

namespace {

/// `debug/model__0_forward_1.0/output_code.py` -> `debug-model__0_forward_1_0-output_code_py.html`.
std::string pageName(const std::string &rel) {
  std::string out;
  for (char c : rel)
    out += c == '/' ? '-' : (c == '.' ? '_' : c);
  return out + ".html";
}

std::string msText(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", ms);
  return buf;
}

constexpr const char *kSiteStyle = R"CSS(<style>
nav.site { background: #f0f3f8; padding: 0.4em 0.6em; border: 1px solid #d8dee8; margin-bottom: 0.6em; }
nav.site a, nav.site span { margin-right: 0.8em; } nav.site .here { font-weight: bold; }
tr.hl td { background: #ffe08a; } tr.sel td { background: #ffc94a; } tr[data-nodes], tr[data-kernels] { cursor: pointer; }
:target td { outline: 1px solid #c90; }
td.p a { margin-right: 0.5em; } .missing { color: #888; }
tr.removed td { background: #fde2e2; } tr.added td { background: #e0f5e0; } tr.changed td { background: #fff0d0; }
tr.region td { background: #ece6ff; } tr.renamed td { background: #e2ecfb; }
</style>
)CSS";

/// Selecting a row (a click, or a link to its anchor) highlights the rows it names: a kernel's
/// nodes (data-nodes -> #n-...), a node's kernels (data-kernels -> #k-...).
constexpr const char *kSiteScript = R"JS(<script>
(function () {
  function clear() { document.querySelectorAll('tr.hl, tr.sel').forEach(function (e) { e.classList.remove('hl', 'sel'); }); }
  function mark(list, prefix) {
    if (!list) return;
    list.split(' ').forEach(function (n) { var t = document.getElementById(prefix + n); if (t) t.classList.add('hl'); });
  }
  function select(el) {
    if (!el || el.tagName !== 'TR') return;
    clear(); el.classList.add('sel'); mark(el.dataset.nodes, 'n-'); mark(el.dataset.kernels, 'k-');
  }
  function fromHash() { if (location.hash.length > 1) select(document.getElementById(decodeURIComponent(location.hash.slice(1)))); }
  window.addEventListener('hashchange', fromHash);
  document.addEventListener('click', function (e) {
    if (e.target.closest('a')) return;
    var tr = e.target.closest('tr[data-nodes], tr[data-kernels]');
    if (tr) select(tr);
  });
  fromHash();
})();
</script>
)JS";

class SiteBuilder {
public:
  explicit SiteBuilder(fs::path dir) : dir_(std::move(dir)) {}

  Expected<ReportSite> build();

private:
  void discover();
  void readAll();
  void readOne(GraphFile &f, const std::string &provenance);
  long firstRead(const Compile &c, Stage s) const;
  void planDiffs();
  std::string diffPageOf(DiffPage &d);
  std::string moduleSection(size_t file, const std::vector<std::string> &paths, long dynamo) const;
  std::string linkTo(long file, std::string_view anchorPrefix, std::string_view name,
                     std::string_view text = {}) const;
  std::string navigation(const std::vector<const Compile *> &compiles, long file,
                         std::string_view diffPage = {}) const;
  std::vector<HtmlReport::Section> provenanceSections(size_t file, const Compile &c) const;
  std::string nodesTable(size_t file, const KernelsOfNode *fxkit = nullptr) const;
  std::string inductorMemory(long file);
  std::string kernelCode(size_t file) const;
  std::string pageOf(size_t file);
  std::string indexPage() const;
  std::vector<const Compile *> compilesOf(size_t file) const;

  fs::path dir_;
  std::vector<GraphFile> files_;
  std::vector<Compile> compiles_;
  std::map<int, size_t> dynamo_; ///< N -> file
  std::vector<std::pair<std::string, std::string>> unreadable_, meta_, notes_;
  std::map<size_t, std::string> compiledFacts_; ///< file -> kernels column of a compiled page
  std::map<size_t, double> compileMs_;
  std::map<long, std::string> memoryHtml_;
  std::vector<DiffPage> diffs_;
  /// Post-grad file -> fxkit's FX IR of its compile (for the FX IR diffs), or why there is none.
  std::map<size_t, Graph> fxkitFxIr_;
  std::map<size_t, std::string> fxkitFxIrError_;
};

void SiteBuilder::discover() {
  static const std::regex zoo(
      R"(^(dynamo|aten_pre|aten_post|fxir)_(\d+)\.graph\.txt$|^(output_code|cpu_output_code|cpp_wrapper)_(\d+)\.py$)");
  std::error_code ec;
  int maxIndex = -1;
  std::vector<size_t> topLevel;
  for (const fs::directory_entry &e : fs::directory_iterator(dir_, ec)) {
    if (!e.is_regular_file(ec))
      continue;
    std::string name = e.path().filename().string();
    std::smatch m;
    if (name == "meta.json") {
      meta_ = inductorMetaFields(e.path().string());
      continue;
    }
    if (name == "fxir_failed.txt") {
      auto read = readTextFile(e.path().string());
      std::string text = read ? *read : std::string();
      notes_.emplace_back(name, text.substr(0, text.find('\n')));
      continue;
    }
    if (!std::regex_match(name, m, zoo))
      continue;
    std::string kind = m[1].matched ? m[1].str() : m[3].str();
    int index = std::stoi(m[1].matched ? m[2].str() : m[4].str());
    GraphFile f;
    f.rel = name;
    f.index = index;
    f.stage = kind == "dynamo"        ? Stage::Dynamo
              : kind == "aten_pre"    ? Stage::AtenPre
              : kind == "aten_post"   ? Stage::PostGrad
              : kind == "fxir"        ? Stage::FxIr
              : kind == "cpp_wrapper" ? Stage::CppWrapper
                                      : Stage::Wrapper;
    if (f.stage == Stage::Dynamo)
      dynamo_[index] = files_.size();
    else
      maxIndex = std::max(maxIndex, index);
    topLevel.push_back(files_.size());
    files_.push_back(std::move(f));
  }
  // Debug folders: any folder below (or being) the input that holds a debug file.
  std::vector<fs::path> debugDirs;
  auto isDebugDir = [](const fs::path &p) {
    std::error_code e;
    for (const DebugFileKind &k : kDebugFiles)
      if (fs::is_regular_file(p / k.name, e))
        return true;
    return fs::is_regular_file(p / kInductorProvenanceFileName, e);
  };
  if (isDebugDir(dir_))
    debugDirs.push_back(dir_);
  for (auto it = fs::recursive_directory_iterator(dir_, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it.depth() > 6) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_directory(ec) && !it->is_symlink(ec) && isDebugDir(it->path()))
      debugDirs.push_back(it->path());
  }
  // Inductor numbers its graphs `<model>__N_<kind>_M.K`: M.K orders them.
  static const std::regex debugName(R"(__(\d+)_[A-Za-z]+_(\d+)\.(\d+)$)");
  struct Key {
    long m = -1, k = -1;
    int n = -1;
  };
  auto keyOf = [](const fs::path &p) {
    Key key;
    std::smatch m;
    std::string name = p.filename().string();
    if (std::regex_search(name, m, debugName)) {
      key.n = std::stoi(m[1].str());
      key.m = std::stol(m[2].str());
      key.k = std::stol(m[3].str());
    }
    return key;
  };
  std::stable_sort(debugDirs.begin(), debugDirs.end(), [&](const fs::path &a, const fs::path &b) {
    Key ka = keyOf(a), kb = keyOf(b);
    if (ka.m != kb.m || ka.k != kb.k)
      return std::pair(ka.m, ka.k) < std::pair(kb.m, kb.k);
    return a < b;
  });
  size_t count = std::max<size_t>(debugDirs.size(), static_cast<size_t>(maxIndex + 1));
  for (size_t i = 0; i < count; ++i) {
    Compile c;
    c.label = "compile " + std::to_string(i);
    if (i < debugDirs.size()) {
      const fs::path &d = debugDirs[i];
      std::string rel = fs::relative(d, dir_, ec).generic_string();
      c.debugRel = rel == "." ? "" : rel;
      c.label += " (" + (c.debugRel.empty() ? d.filename().string() : c.debugRel) + ")";
      c.dynamo = keyOf(d).n;
      for (const DebugFileKind &k : kDebugFiles) {
        if (!fs::is_regular_file(d / k.name, ec))
          continue;
        GraphFile f;
        f.rel = c.debugRel.empty() ? std::string(k.name) : c.debugRel + "/" + std::string(k.name);
        f.stage = k.stage;
        c.files[k.stage].push_back(files_.size());
        files_.push_back(std::move(f));
      }
      if (fs::is_regular_file(d / kInductorProvenanceFileName, ec)) {
        c.provenanceRel =
            (c.debugRel.empty() ? "" : c.debugRel + "/") + std::string(kInductorProvenanceFileName);
        auto text = readTextFile((dir_ / c.provenanceRel).string());
        auto parsed = text ? parseProvenanceMapping(*text, c.provenanceRel)
                           : Expected<InductorProvenance>(text.error());
        if (parsed)
          c.provenance = parsed.take();
        else
          c.provenanceError = parsed.error().str();
      }
    }
    if (c.dynamo < 0)
      c.dynamo = static_cast<int>(i);
    for (size_t t : topLevel)
      if (files_[t].stage != Stage::Dynamo && files_[t].index == static_cast<int>(i)) {
        auto &list = c.files[files_[t].stage];
        list.insert(list.begin(), t); // the zoo's file first: it has the nodes.json types
      }
    compiles_.push_back(std::move(c));
  }
  for (GraphFile &f : files_)
    f.page = pageName(f.rel);
}

void SiteBuilder::readOne(GraphFile &f, const std::string &provenance) {
  auto start = std::chrono::steady_clock::now();
  std::string path = (dir_ / f.rel).string();
  auto graph = importGraphFile(path, std::nullopt, true, provenance);
  if (!graph && !provenance.empty())
    graph = importGraphFile(path); // a mapping that names none of its nodes: read it without
  if (!graph) {
    // A broken sidecar (nodes.json, a provenance mapping) must not lose the graph itself.
    Error first = graph.error();
    graph = importGraphFile(path, std::nullopt, false);
    if (graph)
      notes_.emplace_back(f.rel, "read without the files beside it: " + first.str());
    else
      graph = std::move(first);
  }
  f.readMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!graph) {
    f.error = graph.error().str();
    unreadable_.emplace_back(f.rel, f.error);
    return;
  }
  f.graph = graph.take();
  for (const Node *n : *f.graph) {
    ++f.nodes;
    f.order.push_back(n);
    f.names.insert(siteAnchorId(n->name()));
    if (n->op() == OpKind::CallFunction || n->op() == OpKind::CallMethod ||
        n->op() == OpKind::CallModule) {
      ++f.calls;
      ++f.ops[std::string(n->target())];
      if (wrapper::asKernelCall(*n))
        ++f.kernelLaunches;
      else if (wrapper::asExternCall(*n))
        ++f.externCalls;
    }
  }
}

void SiteBuilder::readAll() {
  for (auto &[n, file] : dynamo_)
    readOne(files_[file], "");
  for (Compile &c : compiles_) {
    for (auto &[stage, list] : c.files)
      for (size_t file : list) {
        // The zoo's post-grad graph takes the debug folder's mapping (the debug copy finds it).
        // The zoo's post-grad graph and GPU wrapper take the debug folder's mapping (the debug
        // folder's own copies find it beside them).
        const GraphFile &g = files_[file];
        bool zoo = (stage == Stage::PostGrad || stage == Stage::Wrapper) && g.index >= 0 &&
                   c.provenance && g.rel.rfind("cpu_output_code", 0) != 0;
        readOne(files_[file], zoo ? (dir_ / c.provenanceRel).string() : "");
      }
    c.post = firstRead(c, Stage::PostGrad);
    c.kernels = firstRead(c, Stage::Wrapper);
    if (auto it = dynamo_.find(c.dynamo); it != dynamo_.end() && files_[it->second].graph)
      c.pre = static_cast<long>(it->second);
  }
}

long SiteBuilder::firstRead(const Compile &c, Stage s) const {
  if (auto it = c.files.find(s); it != c.files.end())
    for (size_t file : it->second)
      if (files_[file].graph)
        return static_cast<long>(file);
  return -1;
}

/// Each compile with a post-grad graph: against its pre-grad graph, and (where Inductor's wrapper
/// is here, as FX IR or as output_code.py) Inductor's FX IR against fxkit's.
void SiteBuilder::planDiffs() {
  for (size_t ci = 0; ci < compiles_.size(); ++ci) {
    Compile &c = compiles_[ci];
    if (c.post < 0)
      continue;
    const std::string prefix = "diff-" + std::to_string(ci) + "-";
    auto add = [&](DiffKind kind, long a, long wrapper, const std::string &page) {
      DiffPage d;
      d.kind = kind;
      d.compile = ci;
      d.a = a;
      d.b = c.post;
      d.wrapper = wrapper;
      d.page = page;
      c.diffs.push_back(diffs_.size());
      diffs_.push_back(std::move(d));
    };
    if (long pre = firstRead(c, Stage::AtenPre); pre >= 0)
      add(DiffKind::PrePost, pre, -1, prefix + "pre-post.html");
    long fxir = firstRead(c, Stage::FxIr), wrapper = -1;
    if (fxir < 0)
      if (auto it = c.files.find(Stage::Wrapper); it != c.files.end())
        for (size_t file : it->second)
          if (files_[file].graph && files_[file].rel.rfind("cpu_output_code", 0) != 0) {
            wrapper = static_cast<long>(file);
            break;
          }
    if (fxir >= 0 || wrapper >= 0)
      add(DiffKind::FxIr, fxir, wrapper, prefix + "fxir.html");
  }
}

std::vector<const Compile *> SiteBuilder::compilesOf(size_t file) const {
  std::vector<const Compile *> out;
  for (const Compile &c : compiles_) {
    if (files_[file].stage == Stage::Dynamo) {
      if (auto it = dynamo_.find(c.dynamo); it != dynamo_.end() && it->second == file)
        out.push_back(&c);
      continue;
    }
    for (auto &[stage, list] : c.files)
      if (std::find(list.begin(), list.end(), file) != list.end())
        out.push_back(&c);
  }
  return out;
}

/// A link to the anchor `prefix+name` of page `file` when that page has it; the name alone
/// (greyed) when not, so that every link of the site resolves.
std::string SiteBuilder::linkTo(long file, std::string_view prefix, std::string_view name,
                                std::string_view text) const {
  std::string shown = xmlEscape(text.empty() ? name : text);
  std::string id = siteAnchorId(name);
  bool has = file >= 0 && (prefix != "n-" || files_[file].names.count(id));
  if (!has)
    return "<span class=\"missing\" title=\"not a node of that graph\">" + shown + "</span>";
  return "<a href=\"" + xmlEscape(files_[file].page) + "#" + xmlEscape(std::string(prefix) + id) +
         "\">" + shown + "</a>";
}

std::string SiteBuilder::navigation(const std::vector<const Compile *> &compiles, long file,
                                    std::string_view diffPage) const {
  std::string h = "<nav class=\"site\"><a href=\"index.html\">index</a>";
  for (const Compile *c : compiles) {
    h += "<span>" + xmlEscape(c->label) + ":</span>";
    for (Stage s : kStages) {
      std::vector<size_t> list;
      if (s == Stage::Dynamo) {
        if (auto it = dynamo_.find(c->dynamo); it != dynamo_.end())
          list.push_back(it->second);
      } else if (auto it = c->files.find(s); it != c->files.end()) {
        list = it->second;
      }
      for (size_t i = 0; i < list.size(); ++i) {
        const GraphFile &f = files_[list[i]];
        std::string text = std::string(stageShort(s)) + (i ? " (" + f.rel + ")" : "");
        if (static_cast<long>(list[i]) == file)
          h += "<span class=\"here\">" + xmlEscape(text) + "</span>";
        else if (!f.graph)
          h += "<span class=\"missing\" title=\"not read: see the index\">" + xmlEscape(text) +
               "</span>";
        else
          h += "<a href=\"" + xmlEscape(f.page) + "\" title=\"" + xmlEscape(f.rel) + "\">" +
               xmlEscape(text) + "</a>";
      }
    }
    for (size_t d : c->diffs) {
      std::string text = "diff " + std::string(diffTitle(diffs_[d].kind));
      if (diffs_[d].page == diffPage)
        h += "<span class=\"here\">" + xmlEscape(text) + "</span>";
      else
        h += "<a href=\"" + xmlEscape(diffs_[d].page) + "\">" + xmlEscape(text) + "</a>";
    }
  }
  return h + "</nav>\n";
}

std::vector<HtmlReport::Section> SiteBuilder::provenanceSections(size_t file,
                                                                 const Compile &c) const {
  std::vector<HtmlReport::Section> out;
  if (!c.provenance)
    return out;
  const InductorProvenance &p = *c.provenance;
  const Stage stage = files_[file].stage;
  if (stage != Stage::PostGrad && stage != Stage::Wrapper)
    return out;
  // The mapping is the GPU compile's: a CPU compile of the same workload has other kernels.
  if (files_[file].rel.rfind("cpu_output_code", 0) == 0)
    return out;
  std::map<std::string_view, const std::vector<std::string> *> postToPre;
  for (const auto &[post, pre] : p.postToPre)
    postToPre.emplace(post, &pre);
  const long self = static_cast<long>(file);
  // Kernel handle -> the kernel's name, for its code on the wrapper page.
  std::set<std::string> sources;
  if (c.kernels >= 0 && files_[c.kernels].graph)
    if (auto it = files_[c.kernels].graph->attachments.find(kInductorWrapperAttachment);
        it != files_[c.kernels].graph->attachments.end())
      if (auto *info = dynamic_cast<const InductorWrapperInfo *>(it->second.get()))
        for (const inductor::InductorKernel &k : info->kernels)
          sources.insert(k.name);
  std::string h = "<p class=\"note\">From " + xmlEscape(c.provenanceRel) +
                  ". Select a row to highlight its nodes";
  h += stage == Stage::PostGrad ? " in the node table below" : " on the post-grad page";
  h += ".</p>\n<table>\n<tr><th>kernel call</th><th>post-grad nodes</th><th>pre-grad "
       "nodes</th></tr>\n";
  for (const auto &[handle, posts] : p.kernelToPost) {
    std::string nodes;
    std::string postLinks, preLinks;
    std::set<std::string> preSeen;
    for (const std::string &n : posts) {
      nodes += (nodes.empty() ? "" : " ") + siteAnchorId(n);
      postLinks += linkTo(stage == Stage::PostGrad ? self : c.post, "n-", n) + " ";
      if (auto it = postToPre.find(n); it != postToPre.end())
        for (const std::string &pre : *it->second)
          if (preSeen.insert(pre).second)
            preLinks += linkTo(c.pre, "n-", pre) + " ";
    }
    std::string kernelName(splitKernelHandle(handle).first);
    std::string cell = xmlEscape(handle);
    if (sources.count(kernelName) && c.kernels >= 0)
      cell = "<a href=\"" + xmlEscape(files_[c.kernels].page) + "#src-" +
             xmlEscape(siteAnchorId(kernelName)) + "\">" + cell + "</a>";
    if (stage == Stage::Wrapper && c.post >= 0)
      cell += " <a href=\"" + xmlEscape(files_[c.post].page) + "#k-" +
              xmlEscape(siteAnchorId(handle)) +
              "\" title=\"its nodes, highlighted\">&#8594; nodes</a>";
    else if (stage == Stage::PostGrad && c.kernels >= 0)
      cell += " <a href=\"" + xmlEscape(files_[c.kernels].page) + "#k-" +
              xmlEscape(siteAnchorId(handle)) +
              "\" title=\"the kernel call in the wrapper\">&#8594; "
              "wrapper</a>";
    h += "<tr id=\"k-" + xmlEscape(siteAnchorId(handle)) + "\"" +
         (stage == Stage::PostGrad ? " data-nodes=\"" + xmlEscape(nodes) + "\"" : "") +
         "><td class=\"m\">" + cell + "</td><td class=\"m p\">" + postLinks +
         "</td><td class=\"m p\">" + preLinks + "</td></tr>\n";
  }
  h += "</table>\n";
  out.push_back({"provenance",
                 "Inductor's kernels and their nodes (" + std::to_string(p.kernelToPost.size()) +
                     " kernel calls)",
                 std::move(h)});
  return out;
}

/// Every node of the graph with its anchor and, where Inductor's mapping names it, links to
/// the kernels and the nodes of the other stages.
std::string SiteBuilder::nodesTable(size_t file, const KernelsOfNode *fxkit) const {
  const GraphFile &f = files_[file];
  const Stage stage = f.stage;
  struct Maps {
    const Compile *c;
    std::map<std::string_view, const std::vector<std::string> *> pre, post, kernels;
  };
  std::vector<Maps> maps;
  if (stage == Stage::Dynamo || stage == Stage::PostGrad)
    for (const Compile *c : compilesOf(file))
      if (c->provenance) {
        Maps m{c, {}, {}, {}};
        for (const auto &[k, v] : c->provenance->postToPre)
          m.pre.emplace(k, &v);
        for (const auto &[k, v] : c->provenance->preToPost)
          m.post.emplace(k, &v);
        for (const auto &[k, v] : c->provenance->postToKernel)
          m.kernels.emplace(k, &v);
        maps.push_back(std::move(m));
      }
  const bool several = maps.size() > 1;
  // A wrapper's kernel calls link to their row of the provenance section on the same page.
  bool calls = false;
  if (stage == Stage::Wrapper && f.rel.rfind("cpu_output_code", 0) != 0)
    for (const Compile *c : compilesOf(file))
      calls = calls || c->provenance.has_value();
  std::string h = "<table>\n<tr><th>#</th><th>node</th><th>op</th><th>target</th>";
  if (calls)
    h += "<th>Inductor's kernel call (provenance)</th>";
  if (fxkit)
    h += "<th>fxkit's kernels</th>";
  if (stage == Stage::PostGrad && !maps.empty())
    h += "<th>Inductor's kernels</th><th>pre-grad nodes</th>";
  if (stage == Stage::Dynamo && !maps.empty())
    h += "<th>post-grad nodes</th><th>Inductor's kernels</th>";
  // The diff pages that pair this graph's nodes: each node links to its row there.
  std::vector<std::pair<const DiffPage *, const std::map<std::string, SiteDiffRow> *>> diffRows;
  for (const DiffPage &d : diffs_) {
    if (d.pageA == static_cast<long>(file))
      diffRows.emplace_back(&d, &d.rowsA);
    if (d.pageB == static_cast<long>(file))
      diffRows.emplace_back(&d, &d.rowsB);
  }
  if (!diffRows.empty())
    h += "<th>diff</th>";
  h += "</tr>\n";
  size_t i = 0;
  for (const Node *n : f.order) {
    std::string id = siteAnchorId(n->name());
    std::string kernels, a, b;
    for (const Maps &m : maps) {
      std::string prefix = several ? xmlEscape(m.c->label) + ": " : "";
      if (stage == Stage::PostGrad) {
        std::string ks, ps;
        if (auto it = m.kernels.find(n->name()); it != m.kernels.end())
          for (const std::string &k : *it->second) {
            kernels += (kernels.empty() ? "" : " ") + siteAnchorId(k);
            ks += linkTo(static_cast<long>(file), "k-", k) + " ";
          }
        if (auto it = m.pre.find(n->name()); it != m.pre.end())
          for (const std::string &p : *it->second)
            ps += linkTo(m.c->pre, "n-", p) + " ";
        a += ks.empty() ? "" : prefix + ks;
        b += ps.empty() ? "" : prefix + ps;
      } else {
        std::string ps, ks;
        std::set<std::string> seen;
        if (auto it = m.post.find(n->name()); it != m.post.end())
          for (const std::string &p : *it->second) {
            ps += linkTo(m.c->post, "n-", p) + " ";
            if (auto k = m.kernels.find(p); k != m.kernels.end())
              for (const std::string &handle : *k->second)
                if (seen.insert(handle).second)
                  ks += linkTo(m.c->post, "k-", handle) + " ";
          }
        a += ps.empty() ? "" : prefix + ps;
        b += ks.empty() ? "" : prefix + ks;
      }
    }
    if (calls)
      if (const NodeProvenance *p = n->provenance())
        for (const std::string &k : p->kernels)
          kernels += (kernels.empty() ? "" : " ") + siteAnchorId(k);
    h += "<tr id=\"n-" + xmlEscape(id) + "\"" +
         (kernels.empty() ? "" : " data-kernels=\"" + xmlEscape(kernels) + "\"") +
         "><td class=\"n\">" + std::to_string(i++) + "</td><td class=\"m\">" +
         xmlEscape(n->name()) + "</td><td>" + xmlEscape(opKindName(n->op())) +
         "</td><td class=\"m\">" + xmlEscape(n->target()) + "</td>";
    if (!maps.empty())
      h += "<td class=\"m p\">" + a + "</td><td class=\"m p\">" + b + "</td>";
    if (fxkit) {
      h += "<td class=\"m\">";
      if (auto it = fxkit->find(n->name()); it != fxkit->end())
        for (size_t k = 0; k < it->second.size(); ++k)
          h += (k ? " " : "") + xmlEscape(it->second[k]);
      h += "</td>";
    }
    if (calls) {
      h += "<td class=\"m p\">";
      if (const NodeProvenance *p = n->provenance())
        for (const std::string &k : p->kernels)
          h += linkTo(static_cast<long>(file), "k-", k) + " ";
      h += "</td>";
    }
    if (!diffRows.empty()) {
      h += "<td class=\"p\">";
      for (const auto &[d, rows] : diffRows)
        if (auto it = rows->find(n->name()); it != rows->end())
          h += "<a href=\"" + xmlEscape(d->page) + "#" + xmlEscape(it->second.anchor) + "\">" +
               std::string(diffShortTitle(d->kind)) + ": " + std::string(it->second.kind) + "</a>";
      h += "</td>";
    }
    h += "</tr>\n";
  }
  return h + "</table>\n";
}

/// Inductor's allocations in call order (importers/inductor/WrapperAnalysis.h), once per
/// wrapper.
std::string SiteBuilder::inductorMemory(long file) {
  if (file < 0 || !files_[file].graph)
    return "";
  if (auto it = memoryHtml_.find(file); it != memoryHtml_.end())
    return it->second;
  std::string h;
  auto a = analyzeInductorWrapper(*files_[file].graph);
  if (!a) {
    h = "<p class=\"note\">no memory plan: " + xmlEscape(a.error().str()) + "</p>\n";
  } else {
    h = "<p>From <a href=\"" + xmlEscape(files_[file].page) + "\">" + xmlEscape(files_[file].rel) +
        "</a>: " + std::to_string(a->storages.size()) + " allocations, peak " +
        std::to_string(a->peakBytes) + " bytes" +
        (a->peakAt.empty() ? "" : " at " + xmlEscape(a->peakAt)) + " (inputs not counted).</p>\n";
    h += "<table>\n<tr><th>buffer</th><th>type</th><th>how</th><th>bytes</th><th>allocated "
         "at</th><th>freed at</th><th>reused as</th></tr>\n";
    for (const WrapperAnalysis::Storage &s : a->storages) {
      std::string reused;
      for (const std::string &r : s.reusedAs)
        reused += (reused.empty() ? "" : ", ") + r;
      h += "<tr><td class=\"m\">" + xmlEscape(s.name) + "</td><td class=\"m\">" +
           xmlEscape(s.type) + "</td><td class=\"m\">" + xmlEscape(s.how) +
           "</td><td class=\"n\">" + (s.sizeKnown ? std::to_string(s.bytes) : "?") +
           "</td><td class=\"n\">" + std::to_string(s.allocatedAt) + "</td><td class=\"n\">" +
           (s.freedAt    ? std::to_string(*s.freedAt)
            : s.isOutput ? "output"
                         : "live") +
           "</td><td class=\"m\">" + xmlEscape(reused) + "</td></tr>\n";
    }
    h += "</table>\n";
  }
  memoryHtml_[file] = h;
  return h;
}

/// The kernels' source code an Inductor wrapper defines, each folded, anchored `src-NAME`.
std::string SiteBuilder::kernelCode(size_t file) const {
  const GraphFile &f = files_[file];
  auto it = f.graph->attachments.find(kInductorWrapperAttachment);
  if (it == f.graph->attachments.end())
    return "";
  auto *info = dynamic_cast<const InductorWrapperInfo *>(it->second.get());
  if (!info || info->kernels.empty())
    return "";
  std::string h;
  for (const inductor::InductorKernel &k : info->kernels) {
    std::string nodes;
    for (const std::string &n : k.sourceNodes)
      nodes += (nodes.empty() ? "" : ", ") + n;
    h += "<details id=\"src-" + xmlEscape(siteAnchorId(k.name)) + "\"><summary><code>" +
         xmlEscape(k.name) + "</code>" + (nodes.empty() ? "" : ": " + xmlEscape(nodes)) +
         "</summary>\n<pre>" + xmlEscape(k.source) + "</pre>\n</details>\n";
  }
  return h;
}

/// The graph's nodes grouped by module path (`paths`: modulePathsFor, in graph order), in the
/// order the modules first run, each group linking its nodes in the node table (selecting its
/// row highlights them); where no node has a path, why not.
std::string SiteBuilder::moduleSection(size_t file, const std::vector<std::string> &paths,
                                       long dynamo) const {
  const GraphFile &f = files_[file];
  struct Group {
    std::string path;
    std::vector<const Node *> nodes;
    size_t calls = 0;
  };
  std::vector<Group> groups;
  std::map<std::string, size_t, std::less<>> groupOf;
  Group none{"(no module)", {}, 0};
  size_t calls = 0, callsWithPath = 0, withPath = 0, traced = 0;
  for (size_t i = 0; i < f.order.size(); ++i) {
    const Node *n = f.order[i];
    const bool call = n->op() == OpKind::CallFunction || n->op() == OpKind::CallMethod ||
                      n->op() == OpKind::CallModule;
    calls += call;
    if (const NodeProvenance *p = n->provenance(); p && !p->preGrad.empty())
      ++traced;
    const std::string path = i < paths.size() ? paths[i] : std::string();
    Group *g = &none;
    if (!path.empty()) {
      ++withPath;
      callsWithPath += call;
      auto [it, fresh] = groupOf.try_emplace(path, groups.size());
      if (fresh)
        groups.push_back({path, {}, 0});
      g = &groups[it->second];
    }
    g->nodes.push_back(n);
    g->calls += call;
  }
  const std::string noStack = "Post-grad FX text and its nodes.json carry no nn_module_stack";
  if (withPath == 0) {
    std::string why;
    if (dynamo < 0)
      why = "this folder has no Dynamo graph of this compile (dynamo_N.graph.txt) to follow "
            "Inductor's provenance into, and the graph's own names (primals_N) carry none";
    else if (traced == 0)
      why = "its nodes carry no Inductor provenance (this compile has no "
            "inductor_provenance_tracking_node_mappings.json, or it names none of them), so "
            "they cannot be followed into the Dynamo graph " +
            files_[dynamo].rel;
    else if (std::vector<std::string> d = modulePaths(*files_[dynamo].graph);
             std::all_of(d.begin(), d.end(), [](const std::string &p) { return p.empty(); }))
      why = "the Dynamo graph " + files_[dynamo].rel +
            " has no module paths either (its inputs are not named after an nn.Module's "
            "parameters)";
    else
      why = "none of the Dynamo nodes its provenance names has a module path";
    return "<p class=\"note\">No module path could be recovered for this graph: " + xmlEscape(why) +
           ". " + noStack + ".</p>\n";
  }
  std::string h = "<p>" + std::to_string(callsWithPath) + " of " + std::to_string(calls) +
                  " call nodes (" + std::to_string(withPath) + " of " + std::to_string(f.nodes) +
                  " nodes) in " + std::to_string(groups.size()) + " modules, ";
  if (dynamo >= 0 && traced > 0)
    h += "recovered through Inductor's provenance (" + std::to_string(traced) +
         " nodes name the Dynamo nodes they came from) into <a href=\"" +
         xmlEscape(files_[dynamo].page) + "\">" + xmlEscape(files_[dynamo].rel) +
         "</a>, whose parameter names carry their module; a node that reads no parameter takes "
         "the module of its latest input (so the ops of a module without parameters, an "
         "activation, count in the module before it).";
  else
    h += "recovered from the graph's own names (parameters named after their module); a node "
         "that reads no parameter takes the module of its latest input.";
  h += " " + noStack +
       ". Modules in the order they first run, each under its parent; a parent's row counts "
       "its submodules' nodes too (\"in all\") and selecting it highlights them.</p>\n";
  h += "<table>\n<tr><th>module</th><th>nodes</th><th>calls</th><th>in all</th><th>its "
       "nodes</th></tr>\n";
  // The module tree: each path after its parents (a parent without nodes of its own gets a row
  // too), in the order the modules first run.
  struct Row {
    std::string path;
    long group = -1;           ///< its own nodes, or -1
    std::vector<size_t> under; ///< the groups at or below it
  };
  std::vector<Row> rows;
  std::map<std::string, size_t, std::less<>> rowOf;
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    const std::string &path = groups[gi].path;
    for (size_t end = 0; end != std::string::npos;) {
      end = path.find('.', end + 1);
      std::string prefix = path.substr(0, end);
      auto [it, fresh] = rowOf.try_emplace(prefix, rows.size());
      if (fresh)
        rows.push_back({prefix, -1, {}});
      Row &r = rows[it->second];
      r.under.push_back(gi);
      if (end == std::string::npos)
        r.group = static_cast<long>(gi);
    }
  }
  if (!none.nodes.empty()) {
    groups.push_back(std::move(none));
    rows.push_back({groups.back().path, static_cast<long>(groups.size() - 1), {groups.size() - 1}});
  }
  for (const Row &r : rows) {
    std::string ids, links;
    size_t all = 0;
    for (size_t gi : r.under)
      for (const Node *n : groups[gi].nodes) {
        ids += (ids.empty() ? "" : " ") + siteAnchorId(n->name());
        ++all;
      }
    const Group *own = r.group >= 0 ? &groups[r.group] : nullptr;
    if (own)
      for (const Node *n : own->nodes)
        links += linkTo(static_cast<long>(file), "n-", n->name()) + " ";
    std::string indent; // two spaces a level
    for (char ch : r.path)
      indent += ch == '.' ? "&#160;&#160;" : "";
    h += "<tr data-nodes=\"" + xmlEscape(ids) + "\"><td class=\"m\">" + indent + xmlEscape(r.path) +
         "</td><td class=\"n\">" + std::to_string(own ? own->nodes.size() : 0) +
         "</td><td class=\"n\">" + std::to_string(own ? own->calls : 0) + "</td><td class=\"n\">" +
         std::to_string(all) + "</td><td class=\"m p\">" + links + "</td></tr>\n";
  }
  return h + "</table>\n";
}

std::string SiteBuilder::pageOf(size_t file) {
  GraphFile &f = files_[file];
  std::vector<const Compile *> compiles = compilesOf(file);
  const Compile *c = compiles.empty() ? nullptr : compiles.front();
  const bool primaryPost = c && f.stage == Stage::PostGrad && c->post == static_cast<long>(file);
  HtmlReport report;
  std::string compileNote;
  KernelsOfNode fxkitKernels;
  // Module paths through the Dynamo graph the compile came from (its own page: its names).
  const Graph *dynamo =
      c && c->pre >= 0 && c->pre != static_cast<long>(file) ? &*files_[c->pre].graph : nullptr;
  const std::vector<std::string> paths = modulePathsFor(*f.graph, dynamo);
  if (primaryPost) {
    auto start = std::chrono::steady_clock::now();
    Graph copy = f.graph->clone(); // the node table below reads the graph as read
    auto compiled = buildCompilationReport(copy, f.rel, 400, &fxkitKernels, &paths);
    compileMs_[file] =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    // fxkit's FX IR of its wrapper, for the FX IR diff of this compile.
    bool fxIrWanted = false;
    for (const DiffPage &d : diffs_)
      fxIrWanted = fxIrWanted || (d.kind == DiffKind::FxIr && d.b == static_cast<long>(file));
    if (fxIrWanted && compiled) {
      if (auto fx = buildFxIr(copy))
        fxkitFxIr_.emplace(file, fx.take());
      else
        fxkitFxIrError_[file] = "fxkit's FX IR could not be built: " + fx.error().str();
    } else if (fxIrWanted) {
      fxkitFxIrError_[file] = "fxkit could not compile " + f.rel + ": " + compiled.error().str();
    }
    if (compiled) {
      report = compiled.take();
      size_t externs = 0;
      for (const HtmlReport::Kernel &k : report.kernels)
        externs += k.isExtern ? 1 : 0;
      compiledFacts_[file] = "fxkit: " + std::to_string(report.kernels.size() - externs) +
                             " kernels, " + std::to_string(externs) + " extern calls";
    } else {
      compileNote = "fxkit could not compile it: " + compiled.error().str();
      compiledFacts_[file] = "fxkit: not compiled";
    }
  }
  std::string nodes =
      nodesTable(file, primaryPost && compileNote.empty() ? &fxkitKernels : nullptr);
  if (!primaryPost || !compileNote.empty()) {
    report = HtmlReport{};
    report.compiled = false;
    report.title = f.rel;
    report.graphViewer = graphViewerHtml(viewerGraphOf(*f.graph, paths));
    report.graphNote =
        "no Graphviz picture in the site: `fxkit convert " + f.rel + " --to svg` draws one";
    if (!compileNote.empty())
      report.facts.push_back(compileNote);
  }
  report.title = f.rel;
  report.facts.insert(report.facts.begin(), std::string(stageName(f.stage)) + ": " +
                                                std::to_string(f.nodes) + " nodes, " +
                                                std::to_string(f.calls) + " calls of " +
                                                std::to_string(f.ops.size()) + " ops");
  if (f.kernelLaunches + f.externCalls)
    report.facts.push_back("kernel launches: " + std::to_string(f.kernelLaunches) +
                           ", extern calls: " + std::to_string(f.externCalls));
  if (c && f.stage == Stage::PostGrad && c->post != static_cast<long>(file) && c->post >= 0)
    report.facts.push_back("the same graph as " + files_[c->post].rel +
                           ", whose page has fxkit's compile of it");
  report.head = kSiteStyle;
  report.navigation = navigation(compiles, static_cast<long>(file));
  report.script = kSiteScript;
  for (const Compile *cc : compiles)
    for (HtmlReport::Section &s : provenanceSections(file, *cc))
      report.extraSections.push_back(std::move(s));
  if (primaryPost && c->kernels >= 0)
    report.extraSections.push_back(
        {"inductor-memory", "Inductor's memory plan", inductorMemory(c->kernels)});
  if (f.stage == Stage::Wrapper) {
    report.extraSections.push_back(
        {"inductor-memory", "Inductor's memory plan", inductorMemory(static_cast<long>(file))});
    if (std::string code = kernelCode(file); !code.empty())
      report.extraSections.push_back({"code", "Kernel code", std::move(code)});
  }
  if (f.stage == Stage::PostGrad)
    report.extraSections.push_back(
        {"modules", "Modules", moduleSection(file, paths, dynamo ? c->pre : -1)});
  report.extraSections.push_back(
      {"nodes", "Nodes (" + std::to_string(f.nodes) + ")", std::move(nodes)});
  return writeHtmlReport(report);
}

/// A diff page: the two graphs paired by fxkit diff's matcher (repl/ReportSiteDiff.h), or why
/// there is no diff.
std::string SiteBuilder::diffPageOf(DiffPage &d) {
  auto start = std::chrono::steady_clock::now();
  const Compile &c = compiles_[d.compile];
  const GraphFile &post = files_[d.b];
  HtmlReport report;
  report.compiled = false;
  report.head = kSiteStyle;
  report.script = kSiteScript;
  report.navigation = navigation({&c}, -1, d.page);
  std::optional<SiteDiffSide> a, b;
  std::string reproduce;
  std::optional<InductorFxIr> converted;
  // The post-grad graph of a zoo folder is read with its debug folder's mapping (readAll).
  const bool postMapping = post.index >= 0 && c.provenance;
  const std::string provenanceB = postMapping ? " --provenance-b " + c.provenanceRel : "";
  switch (d.kind) {
  case DiffKind::PrePost: {
    const GraphFile &pre = files_[d.a];
    report.title = "diff: " + pre.rel + " against " + post.rel;
    a = SiteDiffSide{&*pre.graph, "pre-grad ATen", pre.rel, pre.page};
    b = SiteDiffSide{&*post.graph, "post-grad ATen", post.rel, post.page};
    reproduce = "fxkit diff " + pre.rel + " " + post.rel + provenanceB;
    break;
  }
  case DiffKind::FxIr: {
    const std::string compileCmd = "fxkit compile " + post.rel + " --to fxir -o fxkit.fxir.txt";
    std::string inductorFile;
    if (d.a >= 0) {
      const GraphFile &fx = files_[d.a];
      inductorFile = fx.rel;
      a = SiteDiffSide{&*fx.graph, "Inductor's FX IR", fx.rel, fx.page};
      reproduce = compileCmd + " && fxkit diff " + fx.rel + " fxkit.fxir.txt";
    } else {
      const GraphFile &w = files_[d.wrapper];
      inductorFile = w.rel;
      if (auto conv = buildInductorFxIr(*w.graph)) {
        converted = conv.take();
        a = SiteDiffSide{&converted->graph,
                         "Inductor's FX IR (fxkit's conversion of " + w.rel + ")",
                         "inductor.fxir.txt", ""};
        reproduce = "fxkit convert " + w.rel + " --to fxir -o inductor.fxir.txt && " + compileCmd +
                    " && fxkit diff inductor.fxir.txt fxkit.fxir.txt";
      } else {
        d.error = w.rel + " could not be converted to FX IR: " + conv.error().str();
      }
    }
    report.title =
        "diff: Inductor's FX IR (" + inductorFile + ") against fxkit's FX IR of " + post.rel;
    if (auto it = fxkitFxIr_.find(static_cast<size_t>(d.b)); it != fxkitFxIr_.end())
      b = SiteDiffSide{&it->second, "fxkit's FX IR of " + post.rel, "fxkit.fxir.txt", ""};
    else if (d.error.empty())
      d.error = fxkitFxIrError_.count(d.b) ? fxkitFxIrError_.at(d.b)
                                           : "fxkit did not compile " + post.rel;
    break;
  }
  }
  if (a && b) {
    SiteDiff diff = buildSiteDiff(*a, *b);
    d.summary = diff.summary;
    d.pageA = a->page.empty() ? -1 : d.a;
    d.pageB = b->page.empty() ? -1 : d.b;
    d.rowsA = std::move(diff.rowsA);
    d.rowsB = std::move(diff.rowsB);
    report.facts = std::move(diff.facts);
    report.facts.push_back("the same text from the command line, in the folder: " + reproduce);
    report.extraSections = std::move(diff.sections);
    report.graphNote = "`fxkit diff A B -o diff.svg` draws the two graphs side by side";
  } else {
    report.facts.push_back("no diff: " + d.error);
    report.graphNote = "no diff: " + d.error;
  }
  d.ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return writeHtmlReport(report);
}

std::string SiteBuilder::indexPage() const {
  std::error_code ec;
  // `fxkit report .` and `DIR/` are named after the folder itself.
  std::string title = fs::weakly_canonical(fs::absolute(dir_, ec), ec).filename().string();
  if (title.empty())
    title = dir_.string();
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                  "<title>fxkit report: " +
                  xmlEscape(title) +
                  "</title>\n<style>\nbody { font-family: system-ui, sans-serif; margin: 1.5em; "
                  "color: #222; }\nh1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: "
                  "1.6em; border-bottom: 1px solid #ccc; }\ncode, td.m { font-family: "
                  "ui-monospace, monospace; font-size: 0.85em; }\ntable { border-collapse: "
                  "collapse; } td, th { border: 1px solid #ddd; padding: 2px 6px; text-align: "
                  "left; vertical-align: top; }\nth { background: #eee; } td.n, td.t { "
                  "text-align: right; }\n.note { color: #666; font-style: italic; }\n</style>\n"
                  "</head>\n<body>\n<h1>fxkit report: <code>" +
                  xmlEscape(title) + "</code></h1>\n";
  size_t graphs = 0;
  for (const GraphFile &f : files_)
    graphs += f.graph ? 1 : 0;
  h += "<p>" + std::to_string(graphs) + " graphs in " + std::to_string(compiles_.size()) +
       " compiles" +
       (unreadable_.empty() ? "" : ", " + std::to_string(unreadable_.size()) + " files not read") +
       ". Each graph's page links the stages of its compile; Inductor's provenance links "
       "kernels to post-grad nodes to pre-grad nodes and back; each compile's diff pages pair "
       "the nodes of its pre-grad and post-grad graphs, and of Inductor's FX IR and fxkit's, as "
       "fxkit diff does.</p>\n";
  if (!meta_.empty()) {
    h += "<ul id=\"meta\">\n";
    for (const auto &[k, v] : meta_)
      h += "<li><code>" + xmlEscape(k) + "</code>: " + xmlEscape(v) + "</li>\n";
    h += "</ul>\n";
  }
  auto row = [&](size_t file, std::string_view stage, std::string_view kernels) {
    const GraphFile &f = files_[file];
    std::string ops;
    std::vector<std::pair<size_t, std::string>> top;
    for (const auto &[op, n] : f.ops)
      top.emplace_back(n, op);
    std::stable_sort(top.begin(), top.end(), [](auto &a, auto &b) { return a.first > b.first; });
    for (size_t i = 0; i < top.size() && i < 3; ++i)
      ops += (i ? ", " : "") + top[i].second + " " + std::to_string(top[i].first);
    std::string time = msText(f.readMs);
    if (auto it = compileMs_.find(file); it != compileMs_.end())
      time += " + " + msText(it->second);
    std::string r = "<tr><td>" + xmlEscape(stage) + "</td><td class=\"m\">";
    if (f.graph)
      r += "<a href=\"" + xmlEscape(f.page) + "\">" + xmlEscape(f.rel) +
           "</a></td><td class=\"n\">" + std::to_string(f.nodes) + "</td><td class=\"n\">" +
           std::to_string(f.calls) + "</td><td class=\"n\">" + std::to_string(f.ops.size()) +
           "</td><td class=\"m\">" + xmlEscape(ops) + "</td><td>" + xmlEscape(kernels) +
           "</td><td class=\"t\">" + time + "</td></tr>\n";
    else
      r += xmlEscape(f.rel) + "</td><td colspan=\"6\">not read (see below)</td></tr>\n";
    return r;
  };
  const std::string head = "<table>\n<tr><th>stage</th><th>file</th><th>nodes</th><th>calls</th>"
                           "<th>ops</th><th>most called</th><th>kernels</th><th>read + compile "
                           "(ms)</th></tr>\n";
  for (size_t ci = 0; ci < compiles_.size(); ++ci) {
    const Compile &c = compiles_[ci];
    h += "<h2 id=\"compile-" + std::to_string(ci) + "\">" + xmlEscape(c.label) + "</h2>\n";
    if (c.provenance)
      h += "<p>Provenance: " + xmlEscape(c.provenanceRel) + " (" +
           std::to_string(c.provenance->kernelToPost.size()) + " kernel calls, " +
           std::to_string(c.provenance->postToPre.size()) + " post-grad nodes mapped)</p>\n";
    else if (!c.provenanceError.empty())
      h += "<p class=\"note\">Provenance not read: " + xmlEscape(c.provenanceError) + "</p>\n";
    h += head;
    for (Stage s : kStages) {
      std::vector<size_t> list;
      if (s == Stage::Dynamo) {
        if (auto it = dynamo_.find(c.dynamo); it != dynamo_.end())
          list.push_back(it->second);
      } else if (auto it = c.files.find(s); it != c.files.end()) {
        list = it->second;
      }
      for (size_t file : list) {
        const GraphFile &f = files_[file];
        std::string kernels;
        if (auto it = compiledFacts_.find(file); it != compiledFacts_.end())
          kernels = it->second;
        if (s == Stage::PostGrad && c.provenance && c.post == static_cast<long>(file))
          kernels += (kernels.empty() ? "" : "; ") + std::string("Inductor: ") +
                     std::to_string(c.provenance->kernelToPost.size()) + " kernel calls";
        if (f.kernelLaunches + f.externCalls)
          kernels = std::to_string(f.kernelLaunches) + " launches, " +
                    std::to_string(f.externCalls) + " extern calls";
        h += row(file, stageShort(s), kernels);
      }
    }
    h += "</table>\n";
    if (c.diffs.empty())
      continue;
    h += "<table class=\"diffs\">\n<tr><th>diff (fxkit diff A B)</th><th>A</th><th>B</th>"
         "<th>pairs</th><th>changed</th><th>renamed</th><th>regions</th><th>removed</th>"
         "<th>added</th><th>call nodes paired</th><th>time (ms)</th></tr>\n";
    for (size_t di : c.diffs) {
      const DiffPage &d = diffs_[di];
      // The graphs, each linked to its page (Inductor's FX IR converted: its wrapper's).
      auto page = [&](long f) {
        return "<a href=\"" + xmlEscape(files_[f].page) + "\">" + xmlEscape(files_[f].rel) + "</a>";
      };
      std::string aCell = d.a >= 0 ? page(d.a) : page(d.wrapper) + " as FX IR";
      std::string bCell = (d.kind == DiffKind::FxIr ? "fxkit&#39;s FX IR of " : "") + page(d.b);
      h += "<tr><td><a href=\"" + xmlEscape(d.page) + "\">" + xmlEscape(diffTitle(d.kind)) +
           "</a></td><td class=\"m\">" + aCell + "</td><td class=\"m\">" + bCell + "</td>";
      const GraphDiffSummary &s = d.summary;
      if (!d.error.empty())
        h += "<td colspan=\"7\">" + xmlEscape(d.error) + "</td>";
      else
        h += "<td class=\"n\">" + std::to_string(s.pairs) + "</td><td class=\"n\">" +
             std::to_string(s.changed) + "</td><td class=\"n\">" + std::to_string(s.renamed) +
             "</td><td class=\"n\">" + std::to_string(s.regions) + "</td><td class=\"n\">" +
             std::to_string(s.removed) + "</td><td class=\"n\">" + std::to_string(s.added) +
             "</td><td class=\"n\">" + std::to_string(s.aCallsPaired) + " of " +
             std::to_string(s.aCalls) + ", " + std::to_string(s.bCallsPaired) + " of " +
             std::to_string(s.bCalls) + "</td>";
      h += "<td class=\"t\">" + msText(d.ms) + "</td></tr>\n";
    }
    h += "</table>\n";
  }
  // Dynamo graphs no compile came from.
  std::string lone;
  for (const auto &[n, file] : dynamo_) {
    bool used = false;
    for (const Compile &c : compiles_)
      used = used || c.dynamo == n;
    if (!used)
      lone += row(file, stageShort(Stage::Dynamo), "");
  }
  if (!lone.empty())
    h += "<h2 id=\"dynamo\">Dynamo graphs without an Inductor compile here</h2>\n" + head + lone +
         "</table>\n";
  if (!notes_.empty()) {
    h += "<h2 id=\"notes\">Notes</h2>\n<ul>\n";
    for (const auto &[file, text] : notes_)
      h += "<li><code>" + xmlEscape(file) + "</code>: " + xmlEscape(text) + "</li>\n";
    h += "</ul>\n";
  }
  if (!unreadable_.empty()) {
    h += "<h2 id=\"unreadable\">Files not read (" + std::to_string(unreadable_.size()) +
         ")</h2>\n<table>\n<tr><th>file</th><th>error</th></tr>\n";
    for (const auto &[file, error] : unreadable_)
      h += "<tr><td class=\"m\">" + xmlEscape(file) + "</td><td class=\"m\"><pre>" +
           xmlEscape(error) + "</pre></td></tr>\n";
    h += "</table>\n";
  }
  return h + "</body>\n</html>\n";
}

Expected<ReportSite> SiteBuilder::build() {
  std::error_code ec;
  if (!fs::is_directory(dir_, ec))
    return Error(dir_.string() + ": not a folder");
  discover();
  if (files_.empty())
    return Error(dir_.string() +
                 ": no compile artifacts (a TORCH_COMPILE_DEBUG folder with output_code.py, "
                 "fx_graph_*.py, ir_*_fusion.txt, or a zoo model folder with dynamo_N, "
                 "aten_pre_N, aten_post_N, output_code_N.py)");
  readAll();
  planDiffs();
  // A diff page is built before the pages of the graphs it links, whose node tables link back
  // to its rows; the FX IR diffs need fxkit's FX IR, which the post-grad pages' compiles make.
  // So: the pre/post diffs, the pages of every graph but Inductor's FX IR files (the FX IR
  // diffs' A), the FX IR diffs, the FX IR files' pages.
  std::set<long> fxIrA;
  for (DiffPage &d : diffs_) {
    if (d.kind == DiffKind::PrePost)
      d.content = diffPageOf(d);
    else if (d.a >= 0)
      fxIrA.insert(d.a);
  }
  std::vector<std::string> pages(files_.size());
  for (size_t i = 0; i < files_.size(); ++i)
    if (files_[i].graph && !fxIrA.count(static_cast<long>(i)))
      pages[i] = pageOf(i);
  for (DiffPage &d : diffs_)
    if (d.kind == DiffKind::FxIr)
      d.content = diffPageOf(d);
  for (long i : fxIrA)
    pages[i] = pageOf(static_cast<size_t>(i));
  ReportSite site;
  site.pages.push_back({"index.html", ""});
  for (size_t i = 0; i < files_.size(); ++i)
    if (files_[i].graph) {
      site.pages.push_back({files_[i].page, std::move(pages[i])});
      ++site.graphs;
    }
  for (DiffPage &d : diffs_) {
    site.pages.push_back({d.page, std::move(d.content)});
    ++site.diffs;
  }
  site.unreadable = unreadable_.size();
  site.pages.front().content = indexPage();
  return site;
}

} // namespace

Expected<ReportSite> buildReportSite(const std::string &dir) {
  return SiteBuilder(fs::path(dir)).build();
}

int runReportSite(const std::string &dir, const std::string &output) {
  auto site = buildReportSite(dir);
  if (!site)
    return reportError(site.error());
  std::vector<FolderFile> files;
  for (const SitePage &p : site->pages)
    files.push_back({p.name, p.content});
  static constexpr std::string_view kOwned[] = {".html"};
  if (Status s = writeFolderAtomic(output, files, kOwned); !s)
    return reportError(s.error());
  std::cerr << "fxkit report: " << site->graphs << " graph pages, " << site->diffs
            << " diff pages and index.html in " << output
            << (site->unreadable ? ", " + std::to_string(site->unreadable) + " files not read"
                                 : std::string())
            << "\n";
  return kExitOk;
}

} // namespace fxkit
