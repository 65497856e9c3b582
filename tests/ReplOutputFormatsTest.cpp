// The output-format table (repl/OutputFormats.h): lookups by name and extension, the lists that
// errors, completion and --help print, and that every command's picture is renderGraph's.
#include "exporters/Export.h"
#include "exporters/wrapper/GraphRender.h"
#include "importers/Import.h"
#include "repl/OutputFormats.h"
#include "transforms/Pass.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

namespace fxkit {
namespace {

/// A typed corpus graph (softmax: pointwise and reduction kernels).
Graph typedGraph() {
  auto graph = importGraphFile((std::filesystem::path(FXKIT_TEST_DATA) / "corpus" / "reference" /
                                "softmax" / "fw_0.graph.txt")
                                   .string());
  EXPECT_TRUE(graph) << graph.error().str();
  return graph ? graph.take() : Graph();
}

TEST(OutputFormats, NamesAreUniqueAndEveryRowHasAWriter) {
  std::set<std::string_view> names, extensions;
  for (const OutputFormat &f : outputFormats()) {
    EXPECT_TRUE(names.insert(f.name).second) << f.name;
    EXPECT_NE(f.write, nullptr) << f.name;
    EXPECT_FALSE(f.description.empty()) << f.name;
    for (std::string_view e : f.extensions)
      EXPECT_TRUE(extensions.insert(e).second) << e << " names two formats";
  }
  EXPECT_EQ(names.size(), 16u); // model-explorer is the 16th
}

TEST(OutputFormats, ByNameAndByExtension) {
  ASSERT_NE(findOutputFormat("svg"), nullptr);
  EXPECT_EQ(findOutputFormat("yaml"), nullptr);
  EXPECT_EQ(outputFormatForPath("model.graph.txt")->name, "fx");
  EXPECT_EQ(outputFormatForPath("a/b.txt")->name, "fx");
  EXPECT_EQ(outputFormatForPath("m.py")->name, "fxpy");
  EXPECT_EQ(outputFormatForPath("m.json")->name, "json");
  EXPECT_EQ(outputFormatForPath("m.gv")->name, "dot");
  EXPECT_EQ(outputFormatForPath("m.pdf")->name, "pdf");
  EXPECT_EQ(outputFormatForPath("kernels.cl")->name, "opencl");
  EXPECT_EQ(outputFormatForPath("m.yaml"), nullptr);
  EXPECT_EQ(outputFormatForPath(".json"), nullptr); // a name, not an extension
  EXPECT_EQ(findOutputFormat("wrapper-cpp")->level, OutputLevel::Folder);
  EXPECT_EQ(findOutputFormat("fxir")->level, OutputLevel::Program);
}

TEST(OutputFormats, ListsPerCommand) {
  EXPECT_EQ(outputFormatList(OutputUse::Convert),
            "fx, fxpy, json, pt2, dot, svg, png, pdf, model-explorer, fxir or fxir-code");
  EXPECT_EQ(outputFormatList(OutputUse::BatchConvert),
            "fx, fxpy, json, pt2, dot, svg, png, pdf or model-explorer");
  EXPECT_EQ(outputFormatList(OutputUse::Compile),
            "fx, fxpy, json, pt2, dot, svg, png, pdf, model-explorer, fxir, fxir-code, wrapper-py, "
            "wrapper-cpp, "
            "opencl, ptx or timeline");
  EXPECT_EQ(outputFormatList(OutputUse::Shell),
            "fx, fxpy, json, pt2, dot, svg, png, pdf, model-explorer, fxir, fxir-code, wrapper-py, "
            "opencl or "
            "timeline");
  EXPECT_EQ(outputFormatList(OutputUse::Picture), "dot, svg, png or pdf");
  EXPECT_EQ(unknownOutputFormat("yaml", "--to", OutputUse::BatchConvert).message,
            "unknown format 'yaml' for --to (expected fx, fxpy, json, pt2, dot, svg, png, pdf or "
            "model-explorer)");
  EXPECT_EQ(unknownOutputFormat("gif", "", OutputUse::Picture).message,
            "unknown format 'gif' (expected dot, svg, png or pdf)");
  // --help: grouped by description, every offered name once.
  std::string help = outputFormatHelp(OutputUse::Convert);
  EXPECT_EQ(help.rfind("fx, fxpy, json, pt2 (the graph); dot, svg, png, pdf (its picture", 0), 0u)
      << help;
  for (const std::string &name : outputFormatNames(OutputUse::Convert))
    EXPECT_NE(help.find(name), std::string::npos) << name;
  EXPECT_EQ(outputFormatHelp(OutputUse::Compile).find("timeline (the memory plan as SVG)") ==
                std::string::npos,
            false);
}

TEST(OutputFormats, GraphWritersAreExportGraphs) {
  Graph graph = typedGraph();
  OutputRequest request;
  for (auto [name, format] : {std::pair{"fx", GraphFormat::FxText}, {"fxpy", GraphFormat::FxPy}}) {
    auto written = findOutputFormat(name)->write(graph, request);
    ASSERT_TRUE(written) << written.error().str();
    auto expected = exportGraph(graph, format);
    ASSERT_TRUE(expected);
    EXPECT_EQ(*written->text, *expected) << name;
  }
}

/// One picture path: `export dot`, `render`, `convert --to dot` and `compile --to dot` all draw
/// through renderGraph, so a compiled graph is drawn as its kernels everywhere.
TEST(OutputFormats, PicturesOfACompiledGraphShowItsKernels) {
  Graph graph = typedGraph();
  OutputRequest request;
  auto plain = findOutputFormat("dot")->write(graph, request);
  ASSERT_TRUE(plain) << plain.error().str();
  EXPECT_EQ(plain->text->find("cluster_k"), std::string::npos);
  auto runs = runPipeline(graph, {"lower", "fuse"});
  ASSERT_TRUE(runs) << runs.error().str();
  auto compiled = findOutputFormat("dot")->write(graph, request);
  ASSERT_TRUE(compiled) << compiled.error().str();
  auto expected = renderGraph(graph, RenderFormat::Dot, {});
  ASSERT_TRUE(expected);
  EXPECT_EQ(*compiled->text, *expected);
  EXPECT_NE(compiled->text->find("cluster_k"), std::string::npos) << *compiled->text;
}

TEST(OutputFormats, ProgramFormatsNeedTheCompiledProgram) {
  Graph graph = typedGraph();
  OutputRequest request;
  request.compiled = true;
  auto py = findOutputFormat("wrapper-py")->write(graph, request);
  ASSERT_FALSE(py);
  EXPECT_NE(py.error().message.find("needs the compiled program"), std::string::npos)
      << py.error().str();
  // Without compiler passes (convert), fxir is Inductor's only.
  request.compiled = false;
  auto fxir = findOutputFormat("fxir")->write(graph, request);
  ASSERT_FALSE(fxir);
  EXPECT_NE(fxir.error().message.find("not read from Inductor's wrapper code"), std::string::npos);
}

} // namespace
} // namespace fxkit
