/// Pictures: the compiled-program DOT (kernel clusters, extern calls, refused fusions, byte
/// labels, collapsed views), Inductor wrapper graphs drawn with their kernels' fused ops,
/// module paths, the memory timeline SVG (golden), the HTML report's structure and escaping,
/// and PNG/PDF through libgvc where the build has it.

#include "exporters/DotWriter.h"
#include "exporters/GraphvizRender.h"
#include "exporters/HtmlReport.h"
#include "exporters/MemoryTimeline.h"
#include "exporters/ModulePath.h"
#include "exporters/ProgramDot.h"
#include "exporters/wrapper/GraphRender.h"
#include "importers/FxTextParser.h"
#include "importers/Import.h"
#include "ir/Node.h"
#include "transforms/CompilationState.h"
#include "transforms/Pass.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

using namespace fxkit;

namespace {

/// A softmax after a matrix product: one extern call, fused pointwise/reduction kernels, and
/// refused fusions (the extern call is never fused).
const char *kSoftmaxAfterMm = R"(graph():
    %x : Tensor "f32[8, 16][16, 1]cpu"[num_users=1] = placeholder[target=x]
    %w : Tensor "f32[16, 16][16, 1]cpu"[num_users=1] = placeholder[target=w]
    %mm : [num_users=2] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %amax : [num_users=1] = call_function[target=torch.ops.aten.amax.default](args = (%mm, [1], True), kwargs = {})
    %sub : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%mm, %amax), kwargs = {})
    %exp : [num_users=2] = call_function[target=torch.ops.aten.exp.default](args = (%sub,), kwargs = {})
    %sum_1 : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%exp, [1], True), kwargs = {})
    %div : [num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%exp, %sum_1), kwargs = {})
    return (div,)
)";

Graph compiled(const char *text,
               const std::vector<std::string> &passes = {"lower", "fuse", "plan", "wrapper"}) {
  auto graph = parseFxText(text, "test");
  EXPECT_TRUE(graph) << graph.error().str();
  auto runs = runPipeline(*graph, passes);
  EXPECT_TRUE(runs) << runs.error().str();
  return graph.take();
}

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

const CompilationState &state(Graph &g) {
  const CompilationState *s = compilationState(g);
  EXPECT_TRUE(s && s->program && s->fused);
  return *s;
}

} // namespace

TEST(ProgramDot, KernelsAreClustersWithTheirOpsAndExternCallsStandOut) {
  Graph g = compiled(kSoftmaxAfterMm);
  const CompilationState &s = state(g);
  auto dot = graphDot(g);
  ASSERT_TRUE(dot) << dot.error().str();
  size_t generated = 0;
  for (const loop::Kernel &k : s.fused->kernels) {
    if (k.isExtern)
      continue;
    ++generated;
    EXPECT_NE(dot->find("label=\"#"), std::string::npos);
    EXPECT_NE(dot->find(k.name), std::string::npos) << k.name;
  }
  EXPECT_EQ(count(*dot, "subgraph \"cluster_k"), generated);
  EXPECT_EQ(count(*dot, "shape=hexagon"), 1u); // the mm
  // Every loop op is drawn once with its op and result type; edges carry bytes.
  for (const loop::LoopOp &op : s.program->ops)
    EXPECT_EQ(count(*dot, "  \"" + op.name + "\" [label="), 1u) << op.name;
  EXPECT_NE(dot->find("f32[8, 16]"), std::string::npos);
  EXPECT_NE(dot->find(": 512 B\""), std::string::npos) << *dot; // an [8, 16] f32 buffer
  EXPECT_EQ(count(*dot, "{"), count(*dot, "}"));
  // No refused fusion is drawn unless asked for.
  EXPECT_EQ(dot->find("style=dashed"), std::string::npos);
}

TEST(ProgramDot, RefusedFusionsAreDashedEdgesWithTheirReason) {
  Graph g = compiled(kSoftmaxAfterMm);
  const CompilationState &s = state(g);
  RenderOptions options;
  options.fusion = true;
  auto dot = graphDot(g, options);
  ASSERT_TRUE(dot);
  size_t refused = 0;
  for (const loop::FusionDecision &d : s.fused->decisions) {
    if (d.fused)
      continue;
    ++refused;
    std::string edge = "  \"" + d.kernelOp + "\" -> \"" + d.op + "\" [style=dashed";
    EXPECT_NE(dot->find(edge), std::string::npos) << edge << "\n" << *dot;
  }
  ASSERT_GT(refused, 0u) << "the test graph must have a refused fusion";
  EXPECT_EQ(count(*dot, "style=dashed"), refused);
  EXPECT_EQ(count(*dot, "constraint=false"), refused);
}

TEST(ProgramDot, CollapsedOneBoxPerKernel) {
  Graph g = compiled(kSoftmaxAfterMm);
  const CompilationState &s = state(g);
  RenderOptions options;
  options.collapse = CollapseMode::Kernel;
  auto dot = graphDot(g, options);
  ASSERT_TRUE(dot);
  EXPECT_EQ(dot->find("subgraph"), std::string::npos);
  for (size_t k = 0; k < s.fused->kernels.size(); ++k)
    EXPECT_EQ(count(*dot, "  \"k" + std::to_string(k) + "\" [label="), 1u);
  for (const loop::LoopOp &op : s.program->ops)
    EXPECT_EQ(dot->find("\"" + op.name + "\""), std::string::npos) << op.name;
}

TEST(ProgramDot, LargeProgramsGetTheCheapLayoutAndLabelsAsTooltips) {
  Graph g = compiled(kSoftmaxAfterMm);
  RenderOptions options;
  options.largeGraphNodes = 3;
  auto dot = graphDot(g, options);
  ASSERT_TRUE(dot);
  EXPECT_NE(dot->find("splines=line"), std::string::npos);
  EXPECT_NE(dot->find("nslimit="), std::string::npos);
  EXPECT_EQ(dot->find("label=\"buf"), std::string::npos);
  EXPECT_NE(dot->find("tooltip=\"buf"), std::string::npos);
}

TEST(GraphRender, PlainGraphsKeepTheGraphViewAndKernelCollapseNeedsKernels) {
  auto g = parseFxText(kSoftmaxAfterMm, "test");
  ASSERT_TRUE(g);
  auto dot = graphDot(*g);
  ASSERT_TRUE(dot);
  EXPECT_EQ(*dot, writeDot(*g));
  RenderOptions options;
  options.collapse = CollapseMode::Kernel;
  auto refused = graphDot(*g, options);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().str().find("needs kernels"), std::string::npos);
}

TEST(DotWriter, InductorKernelsDrawTheirFusedOpsInOneCluster) {
  auto path = std::filesystem::path(FXKIT_TEST_DATA) / "corpus/inductor/softmax/output_code_0.py";
  auto g = importGraphFile(path.string());
  ASSERT_TRUE(g) << g.error().str();
  size_t launches = 0, withOrigins = 0;
  for (const Node *n : *g)
    if (n->target() == "fxkit.kernel") {
      ++launches;
      const Argument *o = n->kwargs().find("origins");
      withOrigins += o && o->kind() == Argument::Kind::List && !o->items().empty();
    }
  ASSERT_GT(launches, 0u);
  std::string dot = writeDot(*g);
  EXPECT_EQ(count(dot, "subgraph \"cluster_"), withOrigins);
  EXPECT_NE(dot.find("style=\"filled,dashed\""), std::string::npos);
  RenderOptions options;
  options.collapse = CollapseMode::Kernel;
  EXPECT_EQ(writeDot(*g, options).find("subgraph"), std::string::npos);
}

TEST(ModulePath, RecoveredFromDynamoParameterNames) {
  EXPECT_EQ(modulePathOfName("l_self_modules_layers_modules_0_parameters_weight_"), "layers.0");
  EXPECT_EQ(modulePathOfName("l_fn_modules_12_parameters_bias_"), "12");
  EXPECT_EQ(modulePathOfName("L_self_modules_attn_modules_q_proj_parameters_weight_"),
            "attn.q_proj");
  EXPECT_EQ(modulePathOfName("encoder.layer1.weight"), "encoder.layer1");
  EXPECT_EQ(modulePathOfName("primals_1"), "");
  auto g = parseFxText(R"(graph():
    %l_fn_modules_0_parameters_weight_ : torch.nn.parameter.Parameter [num_users=1] = placeholder[target=L_fn_modules_0_parameters_weight_]
    %l_args_0_ : torch.Tensor [num_users=1] = placeholder[target=L_args_0_]
    %l_fn_modules_2_parameters_weight_ : torch.nn.parameter.Parameter [num_users=1] = placeholder[target=L_fn_modules_2_parameters_weight_]
    %linear : [num_users=1] = call_function[target=torch._C._nn.linear](args = (%l_args_0_, %l_fn_modules_0_parameters_weight_), kwargs = {})
    %relu : [num_users=1] = call_function[target=torch.relu](args = (%linear,), kwargs = {})
    %linear_1 : [num_users=1] = call_function[target=torch._C._nn.linear](args = (%relu, %l_fn_modules_2_parameters_weight_), kwargs = {})
    return (linear_1,)
)",
                       "test");
  ASSERT_TRUE(g) << g.error().str();
  std::vector<std::string> paths = modulePaths(*g);
  EXPECT_EQ(paths, (std::vector<std::string>{"0", "", "2", "0", "0", "2", ""}));
  RenderOptions options;
  options.collapse = CollapseMode::Module;
  std::string dot = writeDot(*g, options);
  EXPECT_NE(dot.find("\"0\" [label=\"0\\n3 nodes"), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"0\" -> \"2\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"(inputs)\" -> \"0\""), std::string::npos) << dot;
}

TEST(MemoryTimeline, OneRectanglePerAllocatedBufferWithInPlaceHatched) {
  Graph g = compiled(R"(graph():
    %x : Tensor "f32[8, 16][16, 1]cpu"[num_users=1] = placeholder[target=x]
    %w : Tensor "f32[16, 16][16, 1]cpu"[num_users=2] = placeholder[target=w]
    %mm : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %r : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%mm,), kwargs = {})
    %mm2 : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%r, %w), kwargs = {})
    %s : [num_users=1] = call_function[target=torch.ops.aten.sigmoid.default](args = (%mm2,), kwargs = {})
    return (s,)
)");
  const CompilationState &s = state(g);
  auto timeline = memoryTimelineOf(g);
  ASSERT_TRUE(timeline) << timeline.error().str();
  size_t allocated = 0, inPlace = 0;
  for (const loop::BufferPlacement &p : s.plan->buffers) {
    allocated += p.kind != loop::BufferPlacement::Kind::Input &&
                 p.kind != loop::BufferPlacement::Kind::Internal;
    inPlace += p.kind == loop::BufferPlacement::Kind::InPlace;
  }
  ASSERT_EQ(timeline->buffers.size(), allocated);
  ASSERT_GT(inPlace, 0u) << "relu and sigmoid write over the dying matmul results";
  EXPECT_EQ(timeline->poolBytes, s.plan->poolBytes);
  for (const TimelineBuffer &b : timeline->buffers) {
    EXPECT_LT(b.begin, b.end) << b.name;
    EXPECT_LE(b.offset + b.bytes, timeline->poolBytes) << b.name;
  }
  std::string svg = writeMemoryTimelineSvg(*timeline);
  EXPECT_EQ(count(svg, "<g class=\"buffer\">"), allocated);
  EXPECT_EQ(count(svg, "fill=\"url(#inplace)\""), inPlace);
  EXPECT_NE(svg.find("in place of "), std::string::npos);
}

const char *kArenaGolden =
    R"SVG(<svg xmlns="http://www.w3.org/2000/svg" width="1010.0" height="530.0" viewBox="0 0 1010.0 530.0" font-family="monospace" font-size="10">
<title>arena plan</title>
<defs><pattern id="inplace" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="white" fill-opacity="0"/><line x1="0" y1="0" x2="0" y2="6" stroke="black" stroke-width="1.5" stroke-opacity="0.5"/></pattern></defs>
<rect x="0" y="0" width="1010.0" height="530.0" fill="white"/>
<text x="90.0" y="18" font-size="13" font-weight="bold">arena plan</text>
<text x="90.0" y="34">3 buffers, pool 96 B</text>
<g stroke="#888" fill="none"><rect x="90.0" y="50.0" width="900.0" height="440.0"/></g>
<g fill="#333">
<text x="202.5" y="504.0" text-anchor="middle">0<title>time 0</title></text>
<text x="427.5" y="504.0" text-anchor="middle">1<title>time 1</title></text>
<text x="652.5" y="504.0" text-anchor="middle">2<title>time 2</title></text>
<text x="877.5" y="504.0" text-anchor="middle">3<title>time 3</title></text>
<text x="540.0" y="522.0" text-anchor="middle">time (schedule step)</text>
<text x="84.0" y="493.0" text-anchor="end">0</text>
<text x="84.0" y="383.0" text-anchor="end">24</text>
<text x="84.0" y="273.0" text-anchor="end">48</text>
<text x="84.0" y="163.0" text-anchor="end">72</text>
<text x="84.0" y="53.0" text-anchor="end">96</text>
<text x="14" y="270.0" transform="rotate(-90 14 270.0)" text-anchor="middle">pool offset (bytes)</text>
</g>
<g stroke="#333" stroke-width="0.6">
<g class="buffer"><title>a: 64 B at offset 0, times 0..1 (pool)</title><rect x="90.0" y="196.7" width="450.0" height="293.3" fill="hsl(0,60%,75%)"/><text x="93.0" y="212.7" stroke="none" fill="black">a</text></g>
<g class="buffer"><title>b&lt;&amp;&gt;: 32 B at offset 64, times 1..2 (pool)</title><rect x="315.0" y="50.0" width="450.0" height="146.7" fill="hsl(137,60%,75%)"/><text x="318.0" y="66.0" stroke="none" fill="black">b&lt;&amp;&gt;</text></g>
<g class="buffer"><title>c: 64 B at offset 0, times 2..3 (pool)</title><rect x="540.0" y="196.7" width="450.0" height="293.3" fill="hsl(274,60%,75%)"/><text x="543.0" y="212.7" stroke="none" fill="black">c</text></g>
</g>
</svg>
)SVG";

TEST(MemoryTimeline, ArenaGolden) {
  std::vector<BufferLifetime> buffers = {{1, 0, 2, 64}, {2, 1, 3, 32}, {3, 2, 4, 64}};
  std::vector<int64_t> offsets = {0, 64, 0};
  std::vector<std::string> names = {"a", "b<&>", "c"};
  MemoryTimeline t = memoryTimelineOfArena(buffers, offsets, names);
  EXPECT_EQ(t.steps, 4);
  EXPECT_EQ(t.poolBytes, 96);
  EXPECT_EQ(writeMemoryTimelineSvg(t), kArenaGolden);
}

TEST(HtmlReport, StructureAndEscaping) {
  HtmlReport r;
  r.title = "<script>alert(1)</script>.graph.txt";
  r.facts = {"loop ops: 3 & more"};
  r.graphSvg = "<?xml version=\"1.0\"?>\n<!DOCTYPE svg>\n<svg id=\"g\"></svg>\n";
  r.kernels.push_back({"k<0>", false, "op0 (add)", "[8]", "__kernel void k(){ a < b; }", ""});
  r.kernels.push_back({"k<0>", false, "op1 (mul)", "[8]", "__kernel void k(){ a < b; }", ""});
  r.kernels.push_back({"mm", true, "op2 (mm)", "[]", "", ""});
  r.decisions.push_back(
      {false, "op2", "op0", "vertical", "0", "extern op \"mm\" is <never> fused"});
  r.decisions.push_back({true, "op1", "op0", "vertical", "64", "fused"});
  r.timelineSvg = "<svg id=\"t\"></svg>";
  r.passes = {{"lower", 0.0015, true}, {"fuse", 0.0005, true}};
  std::string html = writeHtmlReport(r);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  // Sections in order.
  size_t graph = html.find("id=\"graph\""), kernels = html.find("id=\"kernels\""),
         fusion = html.find("id=\"fusion\""), memory = html.find("id=\"memory\""),
         passes = html.find("id=\"passes\"");
  ASSERT_NE(graph, std::string::npos);
  EXPECT_LT(graph, kernels);
  EXPECT_LT(kernels, fusion);
  EXPECT_LT(fusion, memory);
  EXPECT_LT(memory, passes);
  // Pictures inline without their XML prolog; nothing fetched, no script.
  EXPECT_NE(html.find("<svg id=\"g\">"), std::string::npos);
  EXPECT_NE(html.find("<svg id=\"t\">"), std::string::npos);
  EXPECT_EQ(html.find("<?xml"), std::string::npos);
  EXPECT_EQ(html.find("<!DOCTYPE svg"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  // Everything from the graph escaped.
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("loop ops: 3 &amp; more"), std::string::npos);
  EXPECT_NE(html.find("k&lt;0&gt;"), std::string::npos);
  EXPECT_NE(html.find("a &lt; b;"), std::string::npos);
  EXPECT_NE(html.find("extern op &quot;mm&quot; is &lt;never&gt; fused"), std::string::npos);
  // One source per distinct kernel; decisions counted; pass times in ms and a total.
  EXPECT_EQ(count(html, "<details>"), 1u);
  EXPECT_NE(html.find("Fusion decisions (2, 1 refused)"), std::string::npos);
  EXPECT_EQ(count(html, "<tr class=\"refused\">"), 1u);
  EXPECT_NE(html.find(">1.500<"), std::string::npos);
  EXPECT_NE(html.find(">2.000<"), std::string::npos);
}

TEST(HtmlReport, NotesStandInForMissingPictures) {
  HtmlReport r;
  r.title = "g";
  r.graphNote = "no picture: built without libgvc";
  std::string html = writeHtmlReport(r);
  EXPECT_NE(html.find("no picture: built without libgvc"), std::string::npos);
  EXPECT_EQ(html.find("<svg"), std::string::npos);
}

TEST(GraphvizRender, PngAndPdfAreRenderedInProcess) {
  Graph g = compiled(kSoftmaxAfterMm);
  for (RenderFormat f : {RenderFormat::Svg, RenderFormat::Png, RenderFormat::Pdf}) {
    auto bytes = renderGraph(g, f);
    if (!haveGraphviz()) {
      ASSERT_FALSE(bytes);
      EXPECT_NE(bytes.error().str().find("libgvc"), std::string::npos);
      continue;
    }
    ASSERT_TRUE(bytes) << bytes.error().str();
    if (f == RenderFormat::Svg) {
      EXPECT_NE(bytes->find("<svg"), std::string::npos);
    } else if (f == RenderFormat::Png) {
      EXPECT_EQ(bytes->rfind("\x89PNG\r\n\x1a\n", 0), 0u);
    } else {
      EXPECT_EQ(bytes->rfind("%PDF-", 0), 0u);
    }
    EXPECT_GT(bytes->size(), 1000u);
  }
}

TEST(GraphvizRender, BadDotIsAnErrorWithGraphvizsMessage) {
  if (!haveGraphviz())
    GTEST_SKIP() << "built without libgvc";
  auto bytes = renderDot("digraph { a -> }", RenderFormat::Svg);
  ASSERT_FALSE(bytes);
  EXPECT_NE(bytes.error().str().find("graphviz"), std::string::npos);
}

// Reduced from `compile --to svg --fusion` of the corpus resnet_block: Graphviz 2.43's
// gvFreeLayout double-frees on this clustered graph with edge labels (SIGABRT when it ran in
// process). Rendered twice: the process and the next picture survive the first.
TEST(GraphvizRender, ClusteredGraphWithEdgeLabelsRendersRepeatedly) {
  if (!haveGraphviz())
    GTEST_SKIP() << "built without libgvc";
  std::string dot = "digraph g {\n  subgraph cluster_k1 {\n  }\n  subgraph cluster_k3 {\n"
                    "    op4 [style=filled, fillcolor=white];\n  }\n";
  for (const char *edge :
       {"p4 -> op1",     "p5 -> op1",    "op1 -> op2",    "p7 -> op2",     "p2 -> op3",
        "op2 -> op3",    "p8 -> op3",    "p9 -> op3",     "p10 -> op3",    "op3 -> op4",
        "op3 -> output", "p2 -> output", "p4 -> output",  "p5 -> output",  "p7 -> output",
        "p8 -> output",  "p9 -> output", "p10 -> output", "op1 -> output", "op2 -> output",
        "op4 -> output"})
    dot += "  " + std::string(edge) + " [label=x];\n";
  dot += "}\n";
  for (int round = 0; round < 2; ++round) {
    auto svg = renderDot(dot, RenderFormat::Svg);
    ASSERT_TRUE(svg) << svg.error().str();
    EXPECT_NE(svg->find("<title>op4</title>"), std::string::npos);
    EXPECT_NE(svg->find("<title>cluster_k3</title>"), std::string::npos);
    EXPECT_NE(svg->find("<title>op4&#45;&gt;output</title>"), std::string::npos);
    EXPECT_EQ(svg->rfind("</svg>"), svg->size() - 7) << svg->substr(svg->size() - 20);
  }
}

TEST(DotWriter, InputsWithManyUsersAreDrawnBesideEachUser) {
  std::string text = "graph():\n    %w : [num_users=10] = placeholder[target=w]\n";
  std::string prev = "w";
  for (int i = 0; i < 10; ++i) {
    std::string name = "m" + std::to_string(i);
    text += "    %" + name + " : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor]" +
            "(args = (%" + prev + ", %w), kwargs = {})\n";
    prev = name;
  }
  text += "    return (" + prev + ",)\n";
  auto g = parseFxText(text, "test");
  ASSERT_TRUE(g) << g.error().str();
  std::string dot = writeDot(*g);
  EXPECT_EQ(count(dot, "[label=\"w\", shape=ellipse, style=dashed"), 10u) << dot;
  EXPECT_EQ(count(dot, "  \"w\" -> "), 0u);
  EXPECT_EQ(count(dot, "  \"w@m3\" -> \"m3\""), 1u);
  RenderOptions options;
  options.proxyInputsAbove = 10;
  EXPECT_EQ(count(writeDot(*g, options), "  \"w\" -> "), 10u);
}

// Graphviz's messages in fxkit's words (issue 21): cairo's and gd's bitmap scaling as a warning
// with the percentage, cairo's failed surface as fatal, dot's "trouble in init_rank" as a
// warning without its thousands of lines of ranking dump, the spline router's failures as one
// warning, cgraph's "Error: "/"Warning: " lines
// without their labels, anything else passed on after "graphviz: ".
TEST(GraphvizRender, MessagesInFxkitsWords) {
  auto m = describeGraphvizMessages(
      "(null): graph is too large for cairo-renderer bitmaps. Scaling by 0.469401 to fit\n"
      "\n"
      "dot: graph is too large for gd-renderer bitmaps. Scaling by 0.05 to fit\n"
      "(null): failure to create cairo surface: out of memory\n"
      "Error: syntax error in line 1 near '}'\n"
      "Warning: using box for unknown shape blob\n"
      "something new\n"
      "Error: trouble in init_rank\n"
      "\t%0 60\n"
      "\top314 1\n"
      "Warning: odd\n"
      "\tdetail\n"
      "Error: in routesplines, Pshortestpath failed\n"
      "Error: lost op30 op46 edge\n"
      "libpath/shortest.c:324: triangulation failed\n"
      "Error: lost op31 op47 edge\n");
  ASSERT_EQ(m.size(), 9u);
  using Kind = GraphvizMessage::Kind;
  EXPECT_EQ(m[0].kind, Kind::Warning);
  EXPECT_EQ(m[0].text, "warning: picture too large for a bitmap: scaled to 47% (use --to svg, "
                       "or --collapse)");
  EXPECT_EQ(m[1].text, "warning: picture too large for a bitmap: scaled to 5% (use --to svg, "
                       "or --collapse)");
  EXPECT_EQ(m[2].kind, Kind::Fatal);
  EXPECT_EQ(m[2].text, "picture too large for a bitmap: cairo could not make it (out of "
                       "memory); use --to svg, or --collapse");
  EXPECT_EQ(m[3].kind, Kind::Error);
  EXPECT_EQ(m[3].text, "syntax error in line 1 near '}'");
  EXPECT_EQ(m[4].kind, Kind::Warning);
  EXPECT_EQ(m[4].text, "graphviz: using box for unknown shape blob");
  EXPECT_EQ(m[5].kind, Kind::Warning);
  EXPECT_EQ(m[5].text, "graphviz: something new");
  EXPECT_EQ(m[6].kind, Kind::Warning); // dot draws the picture anyway
  EXPECT_EQ(m[6].text, "warning: Graphviz had trouble ranking the picture's nodes ('trouble in "
                       "init_rank'): its layout may be poor (--collapse draws fewer boxes)");
  EXPECT_EQ(m[7].text, "graphviz: odd (1 more line left out)");
  EXPECT_EQ(m[8].kind, Kind::Warning); // the router's messages, one warning
  EXPECT_EQ(m[8].text, "warning: Graphviz could not route every edge of the picture (2 lost): "
                       "some are missing or drawn through boxes (--collapse draws fewer)");
  EXPECT_TRUE(describeGraphvizMessages("").empty());
}

// What the layout process prints on its stderr (cairo's scaling) and cgraph's warnings come
// back as warnings; nothing of them reaches this process's stderr.
TEST(GraphvizRender, WarningsAreCaughtNotPrinted) {
  std::vector<std::string> devices = graphvizPlugins("device");
  if (std::find(devices.begin(), devices.end(), "png") == devices.end())
    GTEST_SKIP() << "no Graphviz PNG device";
  std::string dot = "digraph { rankdir=LR; a [shape=blob];";
  for (int i = 0; i < 600; ++i)
    dot += " n" + std::to_string(i) + " -> n" + std::to_string(i + 1) + ";";
  dot += " }";
  std::vector<std::string> warnings;
  ::testing::internal::CaptureStderr();
  auto png = renderDot(dot, RenderFormat::Png, "dot", &warnings);
  std::string printed = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(png) << png.error().str();
  EXPECT_EQ(png->rfind("\x89PNG", 0), 0u);
  EXPECT_EQ(printed, "");
  bool scaled = false, shape = false;
  for (const std::string &w : warnings) {
    scaled = scaled || w.starts_with("warning: picture too large for a bitmap: scaled to ");
    shape = shape || w == "graphviz: using box for unknown shape blob";
  }
  EXPECT_TRUE(scaled) << ::testing::PrintToString(warnings);
  EXPECT_TRUE(shape) << ::testing::PrintToString(warnings);
}

// A DOT syntax error: the error says what failed and Graphviz's message without its label.
TEST(GraphvizRender, SyntaxErrorInFxkitsWords) {
  if (!haveGraphviz())
    GTEST_SKIP() << "built without libgvc";
  auto bytes = renderDot("digraph { a -> }", RenderFormat::Svg);
  ASSERT_FALSE(bytes);
  EXPECT_EQ(
      bytes.error().message.rfind("graphviz: cannot read the DOT text: syntax error in line 1", 0),
      0u)
      << bytes.error().message;
}
