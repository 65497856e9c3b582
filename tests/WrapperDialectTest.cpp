/// The wrapper dialect's typed views over graphs the wrapper pass builds, checked against the
/// memory plan and loop program they were built from: the pool, reused storage (in place or
/// taken over from a dead buffer), and what follows an extern call that binds unbacked symbols.

#include "ir/wrapper/WrapperDialect.h"
#include "exporters/wrapper/WrapperSignature.h"
#include "importers/Import.h"
#include "ir/Node.h"
#include "transforms/CompilationState.h"
#include "transforms/Pass.h"
#include "transforms/WrapperGraph.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

using namespace fxkit;
namespace fs = std::filesystem;

namespace {

struct Compiled {
  Graph source;  ///< holds the compilation state
  Graph wrapper; ///< built from it
  const CompilationState *state = nullptr;
};

Compiled compile(const std::string &rel) {
  Compiled c;
  auto graph = importGraphFile((fs::path(FXKIT_TEST_DATA) / rel).string());
  EXPECT_TRUE(graph) << graph.error().str();
  c.source = graph.take();
  auto runs = runPipeline(c.source, {"lower", "fuse", "plan"});
  EXPECT_TRUE(runs) << runs.error().str();
  c.state = compilationState(c.source);
  auto w = buildWrapperGraph(*c.state->program, *c.state->fused, &*c.state->plan);
  EXPECT_TRUE(w) << w.error().str();
  c.wrapper = w.take();
  return c;
}

TEST(WrapperDialect, ReuseIsInPlaceExactlyWhereThePlanHandsTheDonorOver) {
  Compiled c = compile("dyn/inductor/bert_dyn/aten_post_1.graph.txt");
  const loop::LoopProgram &p = *c.state->program;
  const loop::MemoryPlan &plan = *c.state->plan;
  std::map<std::string, int32_t> buffer;
  for (size_t b = 0; b < p.buffers.size(); ++b)
    buffer[p.buffers[b].name] = static_cast<int32_t>(b);
  int inPlace = 0, takenOver = 0;
  for (const Node *n : c.wrapper) {
    auto r = wrapper::asReuse(*n);
    if (!r)
      continue;
    ASSERT_TRUE(buffer.count(n->name())) << n->name();
    const loop::BufferPlacement &place = plan.buffers[buffer[n->name()]];
    bool planInPlace = place.kind == loop::BufferPlacement::Kind::InPlace;
    EXPECT_EQ(r->inPlace, planInPlace) << n->name();
    int32_t donor = planInPlace ? place.inPlaceOf : place.reuseOf;
    EXPECT_EQ(r->donorName, p.buffers[donor].name) << n->name();
    EXPECT_EQ(r->donor->name(), p.buffers[donor].name) << n->name();
    (r->inPlace ? inPlace : takenOver)++;
  }
  EXPECT_GT(inPlace, 0);
  EXPECT_GT(takenOver, 0);
}

TEST(WrapperDialect, ThePoolIsTheOneUntypedAllocation) {
  Compiled c = compile("dyn/inductor/unbacked_ops/aten_post_0.graph.txt");
  const loop::MemoryPlan &plan = *c.state->plan;
  ASSERT_FALSE(plan.symbolic);
  ASSERT_GT(plan.poolBytes, 0);
  int pools = 0, allocations = 0;
  for (const Node *n : c.wrapper) {
    if (wrapper::isPool(*n)) {
      ++pools;
      EXPECT_EQ(n->args().items()[0].items()[0].asInt(), plan.poolBytes);
    } else if (wrapper::wrapperOpOf(*n) == wrapper::WrapperOp::AllocFromPool) {
      ++allocations;
      EXPECT_EQ(n->args().items()[0].asNode()->name(), "pool");
    }
  }
  EXPECT_EQ(pools, 1);
  EXPECT_GT(allocations, 0);
}

TEST(WrapperDialect, ExternResultsAreTheSymbolsAndChecksTheCallDefines) {
  Compiled c = compile("dyn/inductor/unbacked_ops/aten_post_0.graph.txt");
  const loop::LoopProgram &p = *c.state->program;
  std::vector<size_t> launches = externLaunches(*c.state->fused);
  size_t next = 0, defining = 0;
  for (const Node *n : c.wrapper) {
    if (wrapper::wrapperOpOf(*n) != wrapper::WrapperOp::Extern)
      continue;
    ASSERT_LT(next, launches.size());
    const loop::LoopOp &op = p.ops[c.state->fused->kernels[launches[next++]].ops.front()];
    wrapper::ExternResults r = wrapper::externResults(*n);
    EXPECT_EQ(r.symbols.size(), op.defines.size()) << op.name;
    EXPECT_EQ(r.checks.size(), op.defines.empty() ? 0 : op.checks.size()) << op.name;
    for (size_t i = 0; i < r.symbols.size() && i < op.defines.size(); ++i) {
      EXPECT_EQ(r.symbols[i].name, op.defines[i].symbol);
      EXPECT_EQ(r.symbols[i].output, op.defines[i].output);
      if (op.defines[i].output >= 0) {
        EXPECT_EQ(r.symbols[i].dim, op.defines[i].dim);
      }
    }
    for (const auto &[i, result] : r.sized) {
      ASSERT_LT(static_cast<size_t>(i), op.externOutputs.size());
      EXPECT_TRUE(op.definesSizeOf(static_cast<size_t>(i))) << op.name;
      EXPECT_NE(result->value().tensor(), nullptr);
    }
    defining += !op.defines.empty();
  }
  EXPECT_EQ(next, launches.size());
  EXPECT_GT(defining, 0u);
}

} // namespace
