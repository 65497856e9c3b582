#pragma once
/// \file A graph text as the fusion and memory-planning tests need it: parsed, shapes inferred,
/// lowered and fused with the given options, each step's error failing the test.

#include "importers/FxTextParser.h"
#include "transforms/Fusion.h"
#include "transforms/Lowering.h"
#include "transforms/ShapeInference.h"

#include <gtest/gtest.h>

#include <string_view>

namespace fxkit::testing {

struct FusedText {
  Graph graph;
  loop::LoopProgram program;
  loop::FusedProgram fused;
};

inline FusedText fuseText(std::string_view text, FusionOptions options = {}) {
  auto graph = parseFxText(text, "<test>");
  EXPECT_TRUE(graph) << graph.error().str();
  FusedText c{graph.take(), {}, {}};
  Status s = inferShapes(c.graph);
  EXPECT_TRUE(s) << (s ? "" : s.error().str());
  auto program = lowerGraph(c.graph);
  EXPECT_TRUE(program) << (program ? "" : program.error().str());
  c.program = program.take();
  auto fused = fuseLoopProgram(c.program, options);
  EXPECT_TRUE(fused) << (fused ? "" : fused.error().str());
  c.fused = fused.take();
  return c;
}

} // namespace fxkit::testing
