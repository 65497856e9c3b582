/// Inductor's provenance mapping (inductor_provenance_tracking_node_mappings.json): every shape
/// of the file reads, malformed files fail with file:line:col, and the mapping lands on the
/// nodes of each stage (kernel calls of a wrapper, post-grad and pre-grad graphs), survives
/// clone and fxkit JSON, and shows in `info`'s text and the DOT picture.
#include "importers/json/Provenance.h"
#include "exporters/DotWriter.h"
#include "exporters/ProvenanceText.h"
#include "exporters/json/FxkitJsonWriter.h"
#include "importers/Import.h"
#include "importers/json/FxkitJsonReader.h"
#include "support/InductorProvenance.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace fxkit;
namespace fs = std::filesystem;

namespace {

/// The mapping Inductor would write for tests/data/inductor-wrapper/small_wrapper.py: a Triton
/// kernel computing add and mul, extern mm, and a var_mean fallback whose call in the wrapper
/// has no debug handle comment (so its node has no `provenance=N`).
constexpr std::string_view kMapping =
    R"({"preToPost": {"x_1": ["add", "mul"], "matmul": ["mm"], "stats": ["var_mean"]},
 "postToPre": {"add": ["x_1"], "mul": ["x_1"], "mm": ["matmul"], "var_mean": ["stats"]},
 "cppCodeToPost": {"triton_poi_fused_add_mul_0:1": ["mul", "add"], "extern_kernels.mm:2": ["mm"],
                   "torch.ops.aten.var_mean.correction:3": ["var_mean"]},
 "postToCppCode": {"mul": ["triton_poi_fused_add_mul_0:1"], "add": ["triton_poi_fused_add_mul_0:1"],
                   "mm": ["extern_kernels.mm:2"], "var_mean": ["torch.ops.aten.var_mean.correction:3"]}}
)";

/// The post-grad graph of that compile (ATen overloads).
constexpr std::string_view kPostGrad = R"(graph():
    %arg0_1 : [num_users=2] = placeholder[target=arg0_1]
    %arg1_1 : [num_users=1] = placeholder[target=arg1_1]
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg0_1, 1.0), kwargs = {})
    %mul : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add, 2.0), kwargs = {})
    %mm : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%mul, %arg1_1), kwargs = {})
    %var_mean : [num_users=0] = call_function[target=torch.ops.aten.var_mean.correction](args = (%mm, [1]), kwargs = {correction: 0, keepdim: True})
    return (mm,)
)";

/// The pre-grad graph Dynamo captured (torch-level calls): its node names overlap the post-grad
/// ones (`add`-like names are common), which the stage choice must not be fooled by.
constexpr std::string_view kPreGrad = R"(graph():
    %l_x_ : torch.Tensor [num_users=1] = placeholder[target=L_x_]
    %l_w_ : torch.Tensor [num_users=1] = placeholder[target=L_w_]
    %x_1 : [num_users=1] = call_function[target=operator.mul](args = (%l_x_, 2.0), kwargs = {})
    %matmul : [num_users=1] = call_function[target=torch.matmul](args = (%x_1, %l_w_), kwargs = {})
    %stats : [num_users=1] = call_function[target=torch.var_mean](args = (%matmul, 1), kwargs = {})
    return (matmul,)
)";

InductorProvenance parse(std::string_view text) {
  auto m = parseInductorProvenance(text, "m.json");
  EXPECT_TRUE(m) << m.error().str();
  return m ? m.take() : InductorProvenance();
}

Error parseError(std::string_view text) {
  auto m = parseInductorProvenance(text, "bad.json");
  EXPECT_FALSE(m) << text;
  return m ? Error("parsed") : m.error();
}

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Graph smallWrapper() {
  fs::path file = fs::path(FXKIT_TEST_DATA) / "inductor-wrapper" / "small_wrapper.py";
  auto g = importGraph(readFile(file), GraphFormat::InductorPy, file.string());
  EXPECT_TRUE(g) << g.error().str();
  return g ? g.take() : Graph();
}

Graph fx(std::string_view text) {
  auto g = importGraph(text, GraphFormat::FxText, "g.graph.txt");
  EXPECT_TRUE(g) << g.error().str();
  return g ? g.take() : Graph();
}

std::vector<std::string> names(std::initializer_list<const char *> xs) {
  return {xs.begin(), xs.end()};
}

} // namespace

TEST(Provenance, ReadsTheFourMapsInOrder) {
  InductorProvenance m = parse(kMapping);
  ASSERT_EQ(m.preToPost.size(), 3u);
  EXPECT_EQ(m.preToPost[0].first, "x_1");
  EXPECT_EQ(m.preToPost[0].second, names({"add", "mul"}));
  ASSERT_EQ(m.kernelToPost.size(), 3u);
  EXPECT_EQ(m.kernelToPost[0].first, "triton_poi_fused_add_mul_0:1");
  EXPECT_EQ(m.kernelToPost[0].second, names({"mul", "add"})); // the file's order, not sorted
  EXPECT_EQ(m.kernelToPost[2].first, "torch.ops.aten.var_mean.correction:3");
  EXPECT_EQ(m.postToKernel.size(), 4u);
  EXPECT_EQ(m.postToPre.size(), 4u);
}

TEST(Provenance, SplitsKernelHandles) {
  using P = std::pair<std::string_view, int64_t>;
  EXPECT_EQ(splitKernelHandle("triton_poi_fused_add_0:3"), P("triton_poi_fused_add_0", 3));
  EXPECT_EQ(splitKernelHandle("extern_kernels.mm:12"), P("extern_kernels.mm", 12));
  EXPECT_EQ(splitKernelHandle("torch.ops.aten.ceil.default:2"),
            P("torch.ops.aten.ceil.default", 2));
  EXPECT_EQ(splitKernelHandle("triton_poi_fused_mul_0"), P("triton_poi_fused_mul_0", -1));
  EXPECT_EQ(splitKernelHandle("odd:name"), P("odd:name", -1));
  EXPECT_EQ(splitKernelHandle("k:"), P("k:", -1));
  EXPECT_EQ(splitKernelHandle("k:-1"), P("k:-1", -1));
}

TEST(Provenance, EveryShapePyTorchWritesReads) {
  // Inductor's mapping failed: four empty maps.
  EXPECT_TRUE(
      parse(R"({"preToPost": {}, "postToPre": {}, "cppCodeToPost": {}, "postToCppCode": {}})")
          .empty());
  EXPECT_TRUE(parse("{}").empty());
  // Only the kernel pair (the pre-grad mapping never made); its inverse derived when missing.
  InductorProvenance k = parse(R"({"cppCodeToPost": {"a:1": ["x", "y"], "b:2": ["y"]}})");
  EXPECT_TRUE(k.preToPost.empty());
  ASSERT_EQ(k.postToKernel.size(), 2u);
  EXPECT_EQ(k.postToKernel[0].first, "x");
  EXPECT_EQ(k.postToKernel[1].second, names({"a:1", "b:2"}));
  // postToPre alone gives preToPost, and the reverse.
  InductorProvenance pre = parse(R"({"postToPre": {"p": ["q", "r"]}})");
  ASSERT_EQ(pre.preToPost.size(), 2u);
  EXPECT_EQ(pre.preToPost[1].first, "r");
  EXPECT_EQ(pre.preToPost[1].second, names({"p"}));
  // The structured-trace artifact's version, and keys later versions may add, are skipped.
  InductorProvenance v =
      parse(R"({"version": 2.0, "cppCodeToPost": {"a:1": ["x"]}, "pyCodeToPost": [1, 2]})");
  EXPECT_EQ(v.kernelToPost.size(), 1u);
  // The bare kernel map of inductor_generated_kernel_to_post_grad_nodes.json, keys without
  // debug handles as before PyTorch had them.
  InductorProvenance bare =
      parse(R"({"triton_poi_fused_mul_0": ["mul"], "extern_kernels.addmm": ["addmm"]})");
  ASSERT_EQ(bare.kernelToPost.size(), 2u);
  EXPECT_EQ(bare.kernelToPost[1].first, "extern_kernels.addmm");
  EXPECT_EQ(bare.postToKernel[0].second, names({"triton_poi_fused_mul_0"}));
}

TEST(Provenance, MalformedFilesFailWithTheirLocation) {
  Error e =
      parseError("{\"preToPost\": {\"a\": [\"b\"]},\n \"cppCodeToPost\": {\"k:1\": [\"x\", 3]}}");
  EXPECT_EQ(e.loc.file, "bad.json");
  EXPECT_EQ(e.loc.line, 2);
  EXPECT_EQ(e.loc.col, 33); // the 3
  EXPECT_NE(e.message.find("'cppCodeToPost'[\"k:1\"][1] must be a name (a string), not integer"),
            std::string::npos)
      << e.str();
  e = parseError(R"({"postToPre": {"a": "b"}})");
  EXPECT_NE(e.message.find("must be a list of names, not string"), std::string::npos) << e.str();
  EXPECT_EQ(e.loc.col, 21);
  e = parseError(R"({"postToCppCode": []})");
  EXPECT_NE(e.message.find("'postToCppCode' must be an object"), std::string::npos) << e.str();
  e = parseError(R"({"version": "2"})");
  EXPECT_NE(e.message.find("'version' must be a number, not string"), std::string::npos);
  e = parseError(R"({"preToPost": {"": ["a"]}})");
  EXPECT_NE(e.message.find("empty name"), std::string::npos) << e.str();
  e = parseError(R"({"kernel": ["a", null]})"); // the bare kernel map
  EXPECT_NE(e.message.find("the kernel map[\"kernel\"][1] must be a name"), std::string::npos)
      << e.str();
  e = parseError("[1, 2]");
  EXPECT_NE(e.message.find("must be a JSON object"), std::string::npos) << e.str();
  e = parseError("{\"preToPost\": {\"a\": [\"b\"]");
  EXPECT_NE(e.message.find("JSON syntax error"), std::string::npos) << e.str();
  EXPECT_EQ(e.loc.line, 1);
  e = parseError("  \n");
  EXPECT_NE(e.message.find("empty input"), std::string::npos) << e.str();
}

TEST(Provenance, DeepNestingIsAnErrorNotACrash) {
  // Far too deep: refused before parsing (json::checkJsonDepth), at the bracket one too deep.
  std::string deeper(200000, '[');
  deeper += std::string(200000, ']');
  Error e = parseError(R"({"k": )" + deeper + "}");
  EXPECT_NE(e.message.find("JSON nested deeper than 1000 levels"), std::string::npos) << e.message;
  EXPECT_EQ(e.loc.line, 1);
  EXPECT_EQ(e.loc.col, 7 + 999);
  // Within the limit, the reader's own type checks.
  std::string deep(900, '[');
  deep += std::string(900, ']');
  e = parseError(deep);
  EXPECT_NE(e.message.find("must be a JSON object"), std::string::npos) << e.message;
  e = parseError(R"({"cppCodeToPost": {"k:1": )" + deep + "}}");
  EXPECT_NE(e.message.find("must be a name (a string), not array"), std::string::npos) << e.message;
  e = parseError(R"({"k": {"x": )" + deep + "}}");
  EXPECT_NE(e.message.find("must be a list of names, not object"), std::string::npos) << e.message;
}

TEST(Provenance, KernelCallsOfAWrapperTakeTheirHandles) {
  Graph g = smallWrapper();
  ProvenanceAttachResult r = attachInductorProvenance(g, parse(kMapping));
  EXPECT_EQ(r.stage, ProvenanceStage::Kernels);
  EXPECT_EQ(r.annotated, 3u);
  EXPECT_EQ(r.fileEntries, 3u);
  EXPECT_TRUE(r.unmatchedHandles.empty());
  const NodeProvenance *k = g.find("triton_poi_fused_add_mul_0")->provenance();
  ASSERT_TRUE(k);
  EXPECT_EQ(k->kernels, names({"triton_poi_fused_add_mul_0:1"}));
  EXPECT_EQ(k->postGrad, names({"mul", "add"}));
  EXPECT_EQ(k->preGrad, names({"x_1"})); // both post-grad nodes come from x_1: listed once
  const NodeProvenance *mm = g.find("mm")->provenance();
  ASSERT_TRUE(mm);
  EXPECT_EQ(mm->kernels, names({"extern_kernels.mm:2"}));
  EXPECT_EQ(mm->postGrad, names({"mm"}));
  EXPECT_EQ(mm->preGrad, names({"matmul"}));
  // The fallback call has no `provenance=N`: the one handle of its name.
  const NodeProvenance *vm = g.find("buf4")->provenance();
  ASSERT_TRUE(vm);
  EXPECT_EQ(vm->kernels, names({"torch.ops.aten.var_mean.correction:3"}));
  EXPECT_EQ(vm->preGrad, names({"stats"}));
  EXPECT_EQ(g.find("buf0")->provenance(), nullptr); // an allocation: no kernel
  EXPECT_EQ(g.find("free")->provenance(), nullptr);
}

TEST(Provenance, HandlesOfAnotherCompileAreNotTaken) {
  Graph g = smallWrapper();
  // The launch says provenance=1; a file whose handle for that kernel is :7 is not its own.
  ProvenanceAttachResult r = attachInductorProvenance(
      g,
      parse(
          R"({"cppCodeToPost": {"triton_poi_fused_add_mul_0:7": ["add"], "other_kernel:2": ["x"]}})"));
  EXPECT_EQ(r.annotated, 0u);
  EXPECT_EQ(r.unmatchedHandles, names({"triton_poi_fused_add_mul_0:7", "other_kernel:2"}));
  // A file from before debug handles: keys are bare kernel names.
  Graph h = smallWrapper();
  r = attachInductorProvenance(h, parse(R"({"triton_poi_fused_add_mul_0": ["add", "mul"]})"));
  EXPECT_EQ(r.annotated, 1u);
  EXPECT_EQ(h.find("triton_poi_fused_add_mul_0")->provenance()->postGrad, names({"add", "mul"}));
}

TEST(Provenance, PostGradNodesTakeTheirKernels) {
  Graph g = fx(kPostGrad);
  ProvenanceAttachResult r = attachInductorProvenance(g, parse(kMapping));
  EXPECT_EQ(r.stage, ProvenanceStage::PostGrad);
  EXPECT_EQ(r.annotated, 4u);
  EXPECT_EQ(r.fileEntries, 4u);
  const NodeProvenance *add = g.find("add")->provenance();
  ASSERT_TRUE(add);
  EXPECT_EQ(add->kernels, names({"triton_poi_fused_add_mul_0:1"}));
  EXPECT_EQ(add->preGrad, names({"x_1"}));
  EXPECT_TRUE(add->postGrad.empty());
  EXPECT_EQ(g.find("var_mean")->provenance()->kernels,
            names({"torch.ops.aten.var_mean.correction:3"}));
  EXPECT_EQ(g.find("arg0_1")->provenance(), nullptr);
}

TEST(Provenance, PreGradNodesTakeWhatTheyBecame) {
  Graph g = fx(kPreGrad);
  ProvenanceAttachResult r = attachInductorProvenance(g, parse(kMapping));
  EXPECT_EQ(r.stage, ProvenanceStage::PreGrad);
  EXPECT_EQ(r.annotated, 3u);
  const NodeProvenance *x = g.find("x_1")->provenance();
  ASSERT_TRUE(x);
  EXPECT_EQ(x->postGrad, names({"add", "mul"}));
  EXPECT_EQ(x->kernels, names({"triton_poi_fused_add_mul_0:1"}));
  // Same names on both sides (pointwise models): the kind of graph decides, not the names.
  InductorProvenance same = parse(R"({"preToPost": {"mul": ["mul"]}, "postToPre": {"mul": ["mul"]},
      "cppCodeToPost": {"k:1": ["mul"]}})");
  Graph pre = fx(R"(graph():
    %l_x_ : torch.Tensor [num_users=1] = placeholder[target=L_x_]
    %mul : [num_users=1] = call_function[target=operator.mul](args = (%l_x_, 2.0), kwargs = {})
    return (mul,)
)");
  EXPECT_EQ(attachInductorProvenance(pre, same).stage, ProvenanceStage::PreGrad);
  EXPECT_EQ(pre.find("mul")->provenance()->postGrad, names({"mul"}));
  Graph post = fx(R"(graph():
    %arg0_1 : [num_users=1] = placeholder[target=arg0_1]
    %mul : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%arg0_1, 2.0), kwargs = {})
    return (mul,)
)");
  EXPECT_EQ(attachInductorProvenance(post, same).stage, ProvenanceStage::PostGrad);
  EXPECT_EQ(post.find("mul")->provenance()->kernels, names({"k:1"}));
}

TEST(Provenance, SurvivesCloneAndFxkitJson) {
  Graph g = smallWrapper();
  attachInductorProvenance(g, parse(kMapping));
  Graph copy = g.clone();
  std::string why;
  EXPECT_TRUE(graphsEqual(g, copy, &why)) << why;
  EXPECT_EQ(copy.find("mm")->provenance()->postGrad, names({"mm"}));
  copy.find("mm")->setProvenance({});
  EXPECT_FALSE(graphsEqual(g, copy, &why));
  EXPECT_EQ(why, "node 'mm': provenance differs");

  std::string json = printFxkitJson(g);
  EXPECT_NE(
      json.find(
          R"("provenance": {"pre_grad": ["x_1"], "post_grad": ["mul", "add"], "kernels": ["triton_poi_fused_add_mul_0:1"]})"),
      std::string::npos)
      << json;
  auto back = parseFxkitJson(json, "g.json");
  ASSERT_TRUE(back) << back.error().str();
  EXPECT_TRUE(graphsEqual(g, *back, &why)) << why;
  EXPECT_EQ(printFxkitJson(*back), json);

  Graph post = fx(kPostGrad);
  attachInductorProvenance(post, parse(kMapping));
  auto postBack = parseFxkitJson(printFxkitJson(post), "post.json");
  ASSERT_TRUE(postBack) << postBack.error().str();
  EXPECT_TRUE(graphsEqual(post, *postBack, &why)) << why;
}

TEST(Provenance, FxkitJsonRejectsBadProvenance) {
  auto read = [](std::string_view provenance) {
    return parseFxkitJson(std::string(R"({"format": "fxkit.graph", "version": 1, "nodes": [
    {"name": "x", "op": "placeholder", "target": "x", "provenance": )") +
                              std::string(provenance) + R"(},
    {"name": "output", "op": "output", "target": "output", "args": [{"node": "x"}]}]})",
                          "p.json");
  };
  auto bad = read(R"({"kernel": ["a:1"]})");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("unknown provenance field 'kernel'"), std::string::npos)
      << bad.error().str();
  EXPECT_EQ(bad.error().loc.line, 2);
  bad = read(R"({"kernels": ["a:1", 2]})");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("a provenance entry must be a string"), std::string::npos);
  bad = read(R"(["a"])");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("'provenance' must be an object"), std::string::npos);
  auto empty = read("{}"); // nothing known: no provenance
  ASSERT_TRUE(empty) << empty.error().str();
  EXPECT_EQ(empty->find("x")->provenance(), nullptr);
}

TEST(Provenance, InfoTextAndPicture) {
  Graph g = fx(kPostGrad);
  auto result =
      std::make_shared<ProvenanceAttachResult>(attachInductorProvenance(g, parse(kMapping)));
  result->file = "m.json";
  g.attachments[std::string(kInductorProvenanceAttachment)] = result;
  EXPECT_EQ(printProvenanceSection(g),
            "provenance: m.json\n"
            "  post-grad graph: 4 of 7 nodes carry provenance; the file names 4 post-grad nodes\n"
            "  add\n"
            "    kernels: triton_poi_fused_add_mul_0:1\n"
            "    pre-grad: x_1\n"
            "  mul\n"
            "    kernels: triton_poi_fused_add_mul_0:1\n"
            "    pre-grad: x_1\n"
            "  mm\n"
            "    kernels: extern_kernels.mm:2\n"
            "    pre-grad: matmul\n"
            "  var_mean\n"
            "    kernels: torch.ops.aten.var_mean.correction:3\n"
            "    pre-grad: stats\n");
  std::string dot = writeDot(g);
  EXPECT_NE(
      dot.find(
          R"(  "mm" [label="mm\ncall_function torch.ops.aten.mm.default\nkernels: extern_kernels.mm:2", tooltip="kernels: extern_kernels.mm:2\npre-grad: matmul"];)"),
      std::string::npos)
      << dot;
  EXPECT_EQ(provenanceLines(*g.find("add")->provenance(), 1),
            names({"kernels: triton_poi_fused_add_mul_0:1", "pre-grad: x_1"}));
  NodeProvenance many;
  many.postGrad = names({"a", "b", "c", "d"});
  EXPECT_EQ(provenanceLines(many, 2), names({"post-grad: a, b, ... (2 more)"}));

  Graph w = smallWrapper();
  attachInductorProvenance(w, parse(kMapping));
  dot = writeDot(w);
  EXPECT_NE(
      dot.find(
          R"(\ntriton_poi_fused_add_mul_0\npost-grad: mul, add", style=filled, fillcolor=white, penwidth=2, tooltip="kernels: triton_poi_fused_add_mul_0:1\npost-grad: mul, add\npre-grad: x_1"];)"),
      std::string::npos)
      << dot;
  // No provenance, no section.
  EXPECT_EQ(printProvenanceSection(fx(kPreGrad)), "");
}

TEST(Provenance, ImportGraphFileFindsTheMappingOfADebugFolder) {
  fs::path dir =
      fs::path(FXKIT_TEST_DATA) / "corpus" / "inductor" / "mlp" / "debug" / "model__0_forward_1.0";
  auto w = importGraphFile((dir / "output_code.py").string());
  ASSERT_TRUE(w) << w.error().str();
  const ProvenanceAttachResult *r = provenanceAttachResult(*w);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->file, (dir / kInductorProvenanceFileName).string());
  EXPECT_EQ(r->stage, ProvenanceStage::Kernels);
  EXPECT_EQ(r->annotated, 3u);
  EXPECT_EQ(w->find("triton_poi_fused_gelu_0")->provenance()->postGrad,
            names({"mul_2", "mul", "add", "erf", "mul_1"}));
  auto post = importGraphFile((dir / "fx_graph_transformed.py").string());
  ASSERT_TRUE(post) << post.error().str();
  EXPECT_EQ(provenanceAttachResult(*post)->stage, ProvenanceStage::PostGrad);
  EXPECT_EQ(post->find("erf")->provenance()->kernels, names({"triton_poi_fused_gelu_0:2"}));
  // The graph Inductor read (fx_graph_readable.py) is no stage of the mapping: nothing attached.
  auto readable = importGraphFile((dir / "fx_graph_readable.py").string());
  ASSERT_TRUE(readable) << readable.error().str();
  EXPECT_FALSE(hasProvenance(*readable));
  // Without sidecars, none.
  auto plain = importGraphFile((dir / "output_code.py").string(), {}, /*attachSidecar=*/false);
  ASSERT_TRUE(plain);
  EXPECT_FALSE(hasProvenance(*plain));
  // Named explicitly: a post-grad graph of the workload takes it.
  fs::path post0 = dir.parent_path().parent_path() / "aten_post_0.graph.txt";
  auto named =
      importGraphFile(post0.string(), {}, true, (dir / kInductorProvenanceFileName).string());
  ASSERT_TRUE(named) << named.error().str();
  EXPECT_EQ(provenanceAttachResult(*named)->annotated, 9u);
  // A mapping that names none of the graph's nodes, named explicitly, is an error.
  fs::path other = fs::path(FXKIT_TEST_DATA) / "corpus" / "inductor" / "softmax" / "debug" /
                   "model__0_inference_0.0" / kInductorProvenanceFileName;
  auto wrong = importGraphFile(post0.string(), {}, true, other.string());
  ASSERT_FALSE(wrong);
  EXPECT_NE(wrong.error().message.find("names none of the graph's nodes"), std::string::npos)
      << wrong.error().str();
  auto missing = importGraphFile(post0.string(), {}, true, "/nonexistent/m.json");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("cannot open '/nonexistent/m.json'"), std::string::npos);
}
