/// The compilation state's source graph: lowering a typed graph does not copy it (extern loop
/// ops point into the graph's own nodes until the wrapper pass keeps the replaced graph), and a
/// clone, an erase or the destruction of a holder copies it first, so extern ops never point at
/// freed nodes (run under ASan, a dangling pointer fails these tests).

#include "transforms/CompilationState.h"
#include "exporters/FxTextPrinter.h"
#include "exporters/wrapper/WrapperPyWriter.h"
#include "importers/Import.h"
#include "ir/Node.h"
#include "transforms/Pass.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>

using namespace fxkit;
namespace fs = std::filesystem;

namespace {

/// A typed corpus graph with extern ops (addmm).
Graph mlp() {
  auto graph = importGraphFile(
      (fs::path(FXKIT_TEST_DATA) / "corpus" / "inductor" / "mlp" / "aten_post_0.graph.txt")
          .string());
  EXPECT_TRUE(graph) << graph.error().str();
  return graph ? graph.take() : Graph();
}

std::vector<const Node *> externNodes(const CompilationState &s) {
  std::vector<const Node *> out;
  for (const loop::LoopOp &op : s.program->ops)
    if (op.externNode)
      out.push_back(op.externNode);
  return out;
}

std::string compiledWrapperPy(Graph &g, const std::vector<std::string> &passes) {
  auto runs = runPipeline(g, passes);
  EXPECT_TRUE(runs) << runs.error().str();
  auto text = writeWrapperPy(g);
  EXPECT_TRUE(text) << text.error().str();
  return text ? *text : "";
}

std::string reference() {
  Graph g = mlp();
  return compiledWrapperPy(g, {"lower", "fuse", "plan", "wrapper"});
}

TEST(CompilationState, LoweringBorrowsTheGraphAndTheWrapperPassKeepsIt) {
  Graph g = mlp();
  std::string text = printFxText(g);
  ASSERT_TRUE(runPipeline(g, {"lower"}));
  CompilationState *s = compilationState(g);
  ASSERT_TRUE(s && s->program);
  EXPECT_EQ(s->source, nullptr);
  EXPECT_EQ(&s->sourceOf(g), &g);
  std::vector<const Node *> externs = externNodes(*s);
  ASSERT_FALSE(externs.empty());
  for (const Node *n : externs)
    EXPECT_EQ(n->graph(), &g) << n->name();
  ASSERT_TRUE(runPipeline(g, {"fuse", "plan", "wrapper"}));
  s = compilationState(g);
  ASSERT_TRUE(s && s->source);
  // The replaced ATen graph, with the very nodes the extern ops point at.
  EXPECT_EQ(printFxText(*s->source), text);
  EXPECT_EQ(externNodes(*s), externs);
  for (const Node *n : externs)
    EXPECT_EQ(n->graph(), s->source.get());
  EXPECT_TRUE(s->source->attachments.empty());
}

TEST(CompilationState, ACloneOutlivesTheLoweredOriginal) {
  std::string expected = reference();
  std::optional<Graph> original(mlp());
  ASSERT_TRUE(runPipeline(*original, {"lower"}));
  Graph copy = original->clone();
  CompilationState *s = compilationState(copy);
  ASSERT_TRUE(s && s->source);
  EXPECT_EQ(s, compilationState(*original)); // shared, now owning a copy of the graph
  for (const Node *n : externNodes(*s))
    EXPECT_EQ(n->graph(), s->source.get());
  original.reset();
  EXPECT_EQ(compiledWrapperPy(copy, {"fuse", "plan", "wrapper"}), expected);
}

TEST(CompilationState, TheOriginalOutlivesItsClone) {
  std::string expected = reference();
  Graph g = mlp();
  ASSERT_TRUE(runPipeline(g, {"lower"}));
  { Graph snapshot = g.clone(); } // as a REPL undo snapshot taken and dropped
  EXPECT_EQ(compiledWrapperPy(g, {"fuse", "plan", "wrapper"}), expected);
}

TEST(CompilationState, AnEraseAfterLoweringCopiesTheSourceFirst) {
  std::string expected = reference();
  Graph g = mlp();
  ASSERT_TRUE(runPipeline(g, {"lower"}));
  CompilationState *s = compilationState(g);
  std::vector<const Node *> externs = externNodes(*s);
  ASSERT_FALSE(externs.empty());
  // An unused node, erased from the lowered graph: the state copies the graph before.
  Node *unused =
      g.create(OpKind::CallFunction, g.uniqueName("unused"), "torch.ops.aten.relu.default",
               Argument::tuple({Argument::node(g.front())}), Argument(), g.outputNode());
  EXPECT_EQ(s->source, nullptr);
  g.erase(unused);
  ASSERT_TRUE(s->source);
  for (const Node *n : externNodes(*s))
    EXPECT_EQ(n->graph(), s->source.get());
  EXPECT_EQ(compiledWrapperPy(g, {"fuse", "plan", "wrapper"}), expected);
}

TEST(CompilationState, SharedAttachmentsOutliveTheirGraph) {
  Graph holder;
  {
    Graph g = mlp();
    ASSERT_TRUE(runPipeline(g, {"lower"}));
    holder.attachments = g.attachments; // shared without clone(): g's destruction detaches
  }
  CompilationState *s = compilationState(holder);
  ASSERT_TRUE(s && s->source);
  for (const Node *n : externNodes(*s))
    EXPECT_EQ(n->graph(), s->source.get());
}

} // namespace
