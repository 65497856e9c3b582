#include "tests/fuzz/FuzzTargets.h"

#include "importers/FxTextParser.h"
#include "importers/Import.h"
#include "importers/MiniMallocCsv.h"
#include "ir/Verifier.h"
#ifdef FXKIT_HAVE_JSON
#include "importers/json/NodesJson.h"
#include "importers/json/Provenance.h"
#include "importers/json/Safetensors.h"
#endif
#ifdef FXKIT_HAVE_PT2
#include "support/pt2/Zip.h"
#endif
#ifdef FXKIT_FUZZ_HAVE_REPL
#include "repl/ReplLexer.h"
#include "repl/ReplSession.h"

#include <filesystem>
#include <sstream>
#endif

#include <cstdio>
#include <cstdlib>
#include <string>

namespace fxkit::fuzz {
namespace {

[[noreturn]] void fail(const char *what, const std::string &detail) {
  std::fprintf(stderr, "fxkit fuzz: %s\n%s\n", what, detail.c_str());
  std::abort();
}

/// Any input either fails with a message or gives a graph that passes the verifier.
template <typename T> void checkError(const Expected<T> &result) {
  if (!result && result.error().message.empty())
    fail("an error without a message", "");
}

void checkImport(std::string_view input, GraphFormat format) {
  auto graph = importGraph(input, format, "<fuzz>");
  checkError(graph);
  if (graph)
    if (Status s = verifyGraph(*graph); !s)
      fail("an imported graph fails the verifier", s.error().str());
}

void fuzzFxText(std::string_view in) { checkImport(in, GraphFormat::FxText); }
void fuzzFxPy(std::string_view in) { checkImport(in, GraphFormat::FxPy); }
void fuzzInductorPy(std::string_view in) { checkImport(in, GraphFormat::InductorPy); }
void fuzzInductorCpp(std::string_view in) { checkImport(in, GraphFormat::InductorCpp); }
void fuzzInductorIr(std::string_view in) { checkImport(in, GraphFormat::InductorIr); }

void fuzzMiniMallocCsv(std::string_view in) { checkError(parseMiniMallocCsv(in, "<fuzz>")); }

#ifdef FXKIT_HAVE_JSON
void fuzzJson(std::string_view in) { checkImport(in, GraphFormat::Json); }

void fuzzSafetensors(std::string_view in) { checkError(parseSafetensors(in, "<fuzz>")); }

/// The input is FX graph text, a NUL byte, then the graph's nodes.json sidecar (the seeds pair
/// each corpus graph with its sidecar), so the sidecar's entries can name real nodes.
void fuzzNodesJson(std::string_view in) {
  size_t nul = in.find('\0');
  if (nul == std::string_view::npos)
    return;
  auto graph = parseFxText(in.substr(0, nul), "<fuzz>.graph.txt");
  if (!graph)
    return;
  Status attached = attachNodesJson(*graph, in.substr(nul + 1), "<fuzz>.nodes.json");
  if (!attached && attached.error().message.empty())
    fail("an error without a message", "");
  if (Status s = verifyGraph(*graph); !s)
    fail("attaching a sidecar breaks the graph", s.error().str());
}

/// Inductor's provenance mapping, attached to a post-grad graph and to wrapper IR whose kernel
/// calls the seeds' handles name (`triton_poi_fused_gelu_0:2`, `extern_kernels.addmm:1`).
void fuzzProvenance(std::string_view in) {
  auto mapping = parseInductorProvenance(in, "<fuzz>.json");
  checkError(mapping);
  if (!mapping)
    return;
  static const Graph post = [] {
    auto g = parseFxText(R"(graph():
    %arg0_1 : [num_users=1] = placeholder[target=arg0_1]
    %mul : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%arg0_1, 0.5), kwargs = {})
    %addmm : [num_users=1] = call_function[target=torch.ops.aten.addmm.default](args = (%mul, %mul, %mul), kwargs = {})
    return (addmm,)
)",
                         "post.graph.txt");
    if (!g)
      fail("the provenance target's graph does not parse", g.error().str());
    return g.take();
  }();
  Graph wrapper;
  Node *x = wrapper.create(OpKind::Placeholder, "x", "x");
  for (auto [name, id] : {std::pair<const char *, int64_t>{"triton_poi_fused_gelu_0", 2},
                          {"extern_kernels.addmm", 1},
                          {"triton_poi_fused_gelu_0", -1}})
    wrapper.create(OpKind::CallFunction, wrapper.uniqueName("k"),
                   name[0] == 'e' ? "fxkit.extern" : "fxkit.kernel", Argument::tuple({}),
                   Argument::dict({{name[0] == 'e' ? "op" : "name", Argument::string(name)},
                                   {id < 0 ? "grid" : "provenance", Argument::integer(id)}}));
  wrapper.create(OpKind::Output, "output", "output", Argument::tuple({Argument::node(x)}));
  Graph graphs[] = {post.clone(), std::move(wrapper)};
  for (Graph &g : graphs) {
    attachInductorProvenance(g, *mapping);
    if (Status s = verifyGraph(g); !s)
      fail("attaching provenance breaks the graph", s.error().str());
  }
}
#endif

#ifdef FXKIT_HAVE_PT2
/// A PT2 archive (input starting with "PK"), or else the `models/model.json` of one, packed
/// with the other records into an archive whose CRCs are right, so that mutations reach the
/// ExportedProgram reader instead of stopping at the zip's checksums.
void fuzzPt2(std::string_view in) {
  if (in.starts_with("PK")) {
    checkImport(in, GraphFormat::Pt2);
    return;
  }
  zip::Writer w;
  w.add("f/archive_format", "pt2");
  w.add("f/archive_version", "0");
  w.add("f/models/model.json", in);
  w.add("f/data/weights/model_weights_config.json", R"({"config": {}})");
  w.add("f/data/constants/model_constants_config.json", R"({"config": {}})");
  auto bytes = w.finish();
  if (!bytes)
    fail("cannot pack an archive", bytes.error().str());
  checkImport(*bytes, GraphFormat::Pt2);
}
#endif

#ifdef FXKIT_FUZZ_HAVE_REPL
/// The graph every REPL input starts from (tests/data/repl/small.graph.txt).
constexpr std::string_view kReplGraph = R"(graph():
    %x : Tensor "f32[4, 8][8, 1]cpu"[num_users=2] = placeholder[target=x]
    %y : Tensor "f16[4, 8][8, 1]cpu"[num_users=1] = placeholder[target=y]
    %mul : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, %x), kwargs = {})
    %convert : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%y, torch.float32), kwargs = {})
    %add : Tensor "f32[4, 8][8, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul, %x), kwargs = {})
    %relu : Tensor "f32[4, 8][8, 1]cpu"[num_users=0] = call_function[target=torch.ops.aten.relu.default](args = (%add,), kwargs = {})
    %add_1 : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add, %convert), kwargs = {})
    return (add_1,)
)";

/// The folder the REPL's `load` and `export` may touch: made for each input and removed after
/// it, so that every input runs the same. Not made the working directory: libFuzzer reads and
/// writes its corpus by relative paths.
struct ReplSandbox {
  ReplSandbox() {
    std::string pattern = std::filesystem::temp_directory_path() / "fxkit-fuzz-repl-XXXXXX";
    if (!mkdtemp(pattern.data()))
      fail("cannot make the REPL's sandbox folder", pattern);
    dir = pattern;
  }
  ~ReplSandbox() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  std::filesystem::path dir;
};

/// The path in the sandbox for a file argument: a plain name there (no folders, not `.`/`..`,
/// not `-`, which is stdin and would block, not empty).
std::string sandboxed(const std::filesystem::path &dir, std::string word) {
  for (char &c : word)
    if (c == '/')
      c = '_';
  if (word.empty() || word == "." || word == ".." || word == "-")
    word = "_" + word;
  return (dir / word).string();
}

/// The line with every `load`/`export` file argument made a path in the sandbox folder `dir`,
/// so no command reads or writes outside it. Lines the lexer rejects are kept (the session
/// reports them).
std::string sandboxLine(std::string_view line, const std::filesystem::path &dir) {
  auto commands = lexReplLine(line);
  if (!commands)
    return std::string(line);
  std::string out;
  for (ReplWords &words : *commands) {
    // Pictures become their DOT text: Graphviz lays out in a forked child
    // (exporters/GraphvizRender.h), and forking this sanitized, instrumented process takes
    // seconds (libFuzzer's timeout hit it in fork). The layout is libgvc's, tested by
    // RenderTest, GraphvizRender and cli.pictures.
    bool picture = words[0] == "render" && words.size() > 1;
    for (size_t i = 1; words[0] == "export" && i < words.size(); ++i)
      for (std::string_view ext : {"svg", "png", "pdf"})
        if (words[i] == ext || words[i].ends_with("." + std::string(ext)))
          picture = true;
    if (picture)
      words = {"render"};
    if (words[0] == "load" && words.size() > 1)
      for (size_t i = 1; i < words.size(); ++i) // the file and a --provenance mapping
        if (i == 1 || words[i - 1] == "--provenance")
          words[i] = sandboxed(dir, words[i]);
    if (words[0] == "export" && words.size() > 2)
      words[2] = sandboxed(dir, words[2]);
    // `export FILE` (the format from the name: any word with a dot) wrote into the working
    // folder: fuzzed names such as `kind=graph.txt` appeared beside the build.
    if (words[0] == "export" && words.size() == 2 && words[1].find('.') != std::string::npos)
      words[1] = sandboxed(dir, words[1]);
    if (!out.empty())
      out += "; ";
    for (size_t i = 0; i < words.size(); ++i)
      out += (i ? " " : "") + quoteReplWord(words[i]);
  }
  return out;
}

/// Random command lines to one session over a loaded graph: no command may crash the shell
/// or leave a graph the verifier rejects.
void fuzzRepl(std::string_view in) {
  const ReplSandbox sandbox;
  static const Graph start = [] {
    auto graph = parseFxText(kReplGraph, "small.graph.txt");
    if (!graph)
      fail("the REPL's start graph does not parse", graph.error().str());
    return graph.take();
  }();
  std::ostringstream out, err;
  ReplSession session(out, err);
  session.addGraph("small", "", start.clone());
  auto check = [](const ReplGraph &g, const std::string &line) {
    if (Status s = verifyGraph(g.graph); !s)
      fail("a REPL command leaves a graph the verifier rejects",
           "after: " + line + "\n" + s.error().str());
  };
  // After each line the current graph and the graphs the line added are verified (commands
  // edit the current graph; extract and load add one), every graph at the end: verifying all
  // of them after every line made a long session quadratic (1,131 extracted graphs).
  std::string line;
  while (!in.empty() && !session.quitRequested()) {
    size_t eol = in.find('\n');
    line = sandboxLine(in.substr(0, eol), sandbox.dir);
    in = eol == std::string_view::npos ? std::string_view() : in.substr(eol + 1);
    size_t before = session.graphs().size();
    session.runLine(line);
    if (auto cur = session.current())
      check(**cur, line);
    for (size_t i = std::min(before, session.graphs().size()); i < session.graphs().size(); ++i)
      check(*session.graphs()[i], line);
    out.str({});
    err.str({});
  }
  for (const auto &g : session.graphs())
    check(*g, "the last line: " + line);
}
#endif

} // namespace

const std::vector<FuzzTarget> &fuzzTargets() {
  static const std::vector<FuzzTarget> targets = {
      {"fx-text", fuzzFxText},
      {"fxpy", fuzzFxPy},
#ifdef FXKIT_HAVE_JSON
      {"json", fuzzJson},
      {"nodes-json", fuzzNodesJson},
      {"provenance", fuzzProvenance},
      {"safetensors", fuzzSafetensors},
#endif
#ifdef FXKIT_HAVE_PT2
      {"pt2", fuzzPt2},
#endif
      {"inductor-py", fuzzInductorPy},
      {"inductor-cpp", fuzzInductorCpp},
      {"inductor-ir", fuzzInductorIr},
      {"minimalloc-csv", fuzzMiniMallocCsv},
#ifdef FXKIT_FUZZ_HAVE_REPL
      {"repl", fuzzRepl},
#endif
  };
  return targets;
}

const FuzzTarget &fuzzTarget(std::string_view name) {
  for (const FuzzTarget &t : fuzzTargets())
    if (t.name == name)
      return t;
  fail("no fuzz target named", std::string(name));
}

} // namespace fxkit::fuzz
