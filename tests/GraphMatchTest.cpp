// The node matcher behind `fxkit diff` (ir/GraphMatch.h): renamed nodes, an inserted node, an
// op decomposed into two, a changed shape, an edited op, Inductor's provenance, and a long
// renamed chain paired without recursion.
#include "ir/GraphMatch.h"
#include "importers/FxTextParser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fxkit {
namespace {

Graph parse(std::string_view text) {
  auto g = parseFxText(text);
  EXPECT_TRUE(g) << g.error().str();
  return g ? std::move(*g) : Graph();
}

std::vector<std::string> names(const std::vector<const Node *> &nodes) {
  std::vector<std::string> out;
  for (const Node *n : nodes)
    out.push_back(n->name());
  return out;
}

/// The pair holding B's node `b`, as "a1,a2>b1,b2:why".
std::string pairOf(const GraphMatch &m, const Graph &b, std::string_view name) {
  const Node *n = b.find(name);
  auto it = m.pairOf.find(n);
  if (it == m.pairOf.end())
    return "unpaired";
  const NodeMatchPair &p = m.pairs[it->second];
  std::string out;
  for (const Node *x : p.a)
    out += (out.empty() ? "" : ",") + x->name();
  out += ">";
  for (size_t i = 0; i < p.b.size(); ++i)
    out += (i ? "," : "") + p.b[i]->name();
  return out + ":" + std::string(matchReasonName(p.reason));
}

constexpr std::string_view kBase = R"(graph():
    %x : Tensor "f32[4, 8][8, 1]cpu" = placeholder[target=x]
    %y : Tensor "f32[4, 8][8, 1]cpu" = placeholder[target=y]
    %relu : Tensor "f32[4, 8][8, 1]cpu" = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})
    %add : Tensor "f32[4, 8][8, 1]cpu" = call_function[target=torch.ops.aten.add.Tensor](args = (%relu, %y), kwargs = {})
    %mul : Tensor "f32[4, 8][8, 1]cpu" = call_function[target=torch.ops.aten.mul.Tensor](args = (%add, 2), kwargs = {})
    return (mul,)
)";

TEST(GraphMatch, SameGraphPairsEveryNodeByName) {
  Graph a = parse(kBase);
  GraphMatch m = matchGraphs(a, a);
  EXPECT_EQ(m.pairs.size(), a.size());
  EXPECT_TRUE(m.removed.empty());
  EXPECT_TRUE(m.added.empty());
  for (size_t i = 0; i < m.pairs.size(); ++i) {
    EXPECT_EQ(m.pairs[i].reason, MatchReason::Name);
    EXPECT_FALSE(m.change(i).any()) << m.pairs[i].a.front()->name();
  }
}

TEST(GraphMatch, RenamedNodesPairByStructure) {
  Graph a = parse(kBase);
  Graph b = parse(R"(graph():
    %x : Tensor "f32[4, 8][8, 1]cpu" = placeholder[target=x]
    %y : Tensor "f32[4, 8][8, 1]cpu" = placeholder[target=y]
    %r : Tensor "f32[4, 8][8, 1]cpu" = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})
    %s : Tensor "f32[4, 8][8, 1]cpu" = call_function[target=torch.ops.aten.add.Tensor](args = (%r, %y), kwargs = {})
    %t : Tensor "f32[4, 8][8, 1]cpu" = call_function[target=torch.ops.aten.mul.Tensor](args = (%s, 2), kwargs = {})
    return (t,)
)");
  GraphMatch m = matchGraphs(a, b);
  EXPECT_TRUE(m.removed.empty()) << names(m.removed).size();
  EXPECT_TRUE(m.added.empty());
  EXPECT_EQ(pairOf(m, b, "r"), "relu>r:structure");
  EXPECT_EQ(pairOf(m, b, "s"), "add>s:structure");
  EXPECT_EQ(pairOf(m, b, "t"), "mul>t:structure");
  for (size_t i = 0; i < m.pairs.size(); ++i)
    EXPECT_FALSE(m.change(i).any()) << i; // the output's (t,) is (mul,) through the pairs
  // Names alone see three removed and three added nodes.
  GraphMatch byName = matchGraphs(a, b, MatchStrategy::Name);
  EXPECT_EQ(names(byName.removed), (std::vector<std::string>{"relu", "add", "mul"}));
  EXPECT_EQ(names(byName.added), (std::vector<std::string>{"r", "s", "t"}));
}

TEST(GraphMatch, RenamedInputsPairByPosition) {
  Graph a = parse(kBase);
  Graph b = parse(R"(graph():
    %p : Tensor "f32[4, 8][8, 1]cpu" = placeholder[target=p]
    %q : Tensor "f32[4, 8][8, 1]cpu" = placeholder[target=q]
    %relu : Tensor "f32[4, 8][8, 1]cpu" = call_function[target=torch.ops.aten.relu.default](args = (%p,), kwargs = {})
    %add : Tensor "f32[4, 8][8, 1]cpu" = call_function[target=torch.ops.aten.add.Tensor](args = (%relu, %q), kwargs = {})
    %mul : Tensor "f32[4, 8][8, 1]cpu" = call_function[target=torch.ops.aten.mul.Tensor](args = (%add, 2), kwargs = {})
    return (mul,)
)");
  GraphMatch m = matchGraphs(a, b);
  EXPECT_EQ(pairOf(m, b, "p"), "x>p:structure");
  EXPECT_EQ(pairOf(m, b, "q"), "y>q:structure");
  EXPECT_EQ(pairOf(m, b, "add"), "add>add:name");
  EXPECT_FALSE(m.change(m.pairOf.at(b.find("add"))).any());
}

TEST(GraphMatch, InsertedNodeIsAddedAndItsUserChanged) {
  Graph a = parse(kBase);
  Graph b = parse(R"(graph():
    %x : Tensor "f32[4, 8][8, 1]cpu" = placeholder[target=x]
    %y : Tensor "f32[4, 8][8, 1]cpu" = placeholder[target=y]
    %relu : Tensor "f32[4, 8][8, 1]cpu" = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})
    %neg : Tensor "f32[4, 8][8, 1]cpu" = call_function[target=torch.ops.aten.neg.default](args = (%relu,), kwargs = {})
    %add : Tensor "f32[4, 8][8, 1]cpu" = call_function[target=torch.ops.aten.add.Tensor](args = (%neg, %y), kwargs = {})
    %mul : Tensor "f32[4, 8][8, 1]cpu" = call_function[target=torch.ops.aten.mul.Tensor](args = (%add, 2), kwargs = {})
    return (mul,)
)");
  GraphMatch m = matchGraphs(a, b);
  EXPECT_TRUE(m.removed.empty());
  EXPECT_EQ(names(m.added), std::vector<std::string>{"neg"});
  size_t add = m.pairOf.at(b.find("add"));
  EXPECT_EQ(m.pairs[add].reason, MatchReason::Name);
  NodeChange c = m.change(add);
  EXPECT_TRUE(c.args);
  EXPECT_FALSE(c.target);
  EXPECT_FALSE(c.type);
  EXPECT_FALSE(m.change(m.pairOf.at(b.find("mul"))).any());
}

TEST(GraphMatch, EditedOpKeepsItsNameAndChangedShapeIsReported) {
  Graph a = parse(kBase);
  Graph b = parse(R"(graph():
    %x : Tensor "f32[4, 8][8, 1]cpu" = placeholder[target=x]
    %y : Tensor "f32[4, 8][8, 1]cpu" = placeholder[target=y]
    %relu : Tensor "f32[4, 8][8, 1]cpu" = call_function[target=torch.ops.aten.gelu.default](args = (%x,), kwargs = {})
    %add : Tensor "f32[4, 8][8, 1]cpu" = call_function[target=torch.ops.aten.add.Tensor](args = (%relu, %y), kwargs = {})
    %mul : Tensor "f16[4, 8][8, 1]cpu" = call_function[target=torch.ops.aten.mul.Tensor](args = (%add, 3), kwargs = {})
    return (mul,)
)");
  GraphMatch m = matchGraphs(a, b);
  EXPECT_TRUE(m.removed.empty());
  EXPECT_TRUE(m.added.empty());
  size_t relu = m.pairOf.at(b.find("relu"));
  EXPECT_EQ(pairOf(m, b, "relu"), "relu>relu:name");
  EXPECT_TRUE(m.change(relu).target);
  EXPECT_FALSE(m.change(relu).args);
  NodeChange mul = m.change(m.pairOf.at(b.find("mul")));
  EXPECT_TRUE(mul.type);
  EXPECT_TRUE(mul.args); // 2 -> 3
  EXPECT_FALSE(mul.target);
}

TEST(GraphMatch, DecomposedOpIsOneRegion) {
  // Pre-grad addmm becomes post-grad mm + add (Inductor's decomposition), renamed as Inductor
  // names them; the view reading its result keeps its name.
  Graph a = parse(R"(graph():
    %x : Tensor "f32[4, 8][8, 1]cpu" = placeholder[target=x]
    %w : Tensor "f32[8, 16][16, 1]cpu" = placeholder[target=w]
    %bias : Tensor "f32[16][1]cpu" = placeholder[target=bias]
    %addmm : Tensor "f32[4, 16][16, 1]cpu" = call_function[target=torch.ops.aten.addmm.default](args = (%bias, %x, %w), kwargs = {})
    %view : Tensor "f32[2, 2, 16][32, 16, 1]cpu" = call_function[target=torch.ops.aten.view.default](args = (%addmm, [2, 2, 16]), kwargs = {})
    %relu : Tensor "f32[2, 2, 16][32, 16, 1]cpu" = call_function[target=torch.ops.aten.relu.default](args = (%view,), kwargs = {})
    return (relu,)
)");
  Graph b = parse(R"(graph():
    %x : Tensor "f32[4, 8][8, 1]cpu" = placeholder[target=x]
    %w : Tensor "f32[8, 16][16, 1]cpu" = placeholder[target=w]
    %bias : Tensor "f32[16][1]cpu" = placeholder[target=bias]
    %mm_default : Tensor "f32[4, 16][16, 1]cpu" = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %add_tensor : Tensor "f32[4, 16][16, 1]cpu" = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_default, %bias), kwargs = {})
    %view : Tensor "f32[2, 2, 16][32, 16, 1]cpu" = call_function[target=torch.ops.aten.view.default](args = (%add_tensor, [2, 2, 16]), kwargs = {})
    %relu : Tensor "f32[2, 2, 16][32, 16, 1]cpu" = call_function[target=torch.ops.aten.relu.default](args = (%view,), kwargs = {})
    return (relu,)
)");
  GraphMatch m = matchGraphs(a, b);
  EXPECT_TRUE(m.removed.empty()) << names(m.removed).front();
  EXPECT_TRUE(m.added.empty()) << names(m.added).front();
  EXPECT_EQ(pairOf(m, b, "mm_default"), "addmm>mm_default,add_tensor:region");
  EXPECT_EQ(pairOf(m, b, "add_tensor"), "addmm>mm_default,add_tensor:region");
  EXPECT_FALSE(m.change(m.pairOf.at(b.find("mm_default"))).any()); // a region reports none
  EXPECT_FALSE(m.change(m.pairOf.at(b.find("view"))).any());       // its input is addmm's region
  // Structure alone finds the same region (names ignored: inputs by position).
  GraphMatch s = matchGraphs(a, b, MatchStrategy::Structure);
  EXPECT_EQ(pairOf(s, b, "add_tensor"), "addmm>mm_default,add_tensor:region");
  EXPECT_EQ(pairOf(s, b, "relu"), "relu>relu:structure");
}

TEST(GraphMatch, ProvenancePairsKernelsWithTheNodesTheyCompute) {
  Graph post = parse(kBase);
  // A wrapper-like graph: two kernel calls, each naming the post-grad nodes it computes.
  Graph kernels = parse(R"(graph():
    %x : Tensor "f32[4, 8][8, 1]cpu" = placeholder[target=x]
    %y : Tensor "f32[4, 8][8, 1]cpu" = placeholder[target=y]
    %k0 : Tensor "f32[4, 8][8, 1]cpu" = call_function[target=torch.ops.aten.abs.default](args = (%x,), kwargs = {})
    %k1 : Tensor "f32[4, 8][8, 1]cpu" = call_function[target=torch.ops.aten.add.Tensor](args = (%k0, %y), kwargs = {})
    return (k1,)
)");
  NodeProvenance p0, p1;
  p0.postGrad = {"relu"};
  p1.postGrad = {"add", "mul"};
  p0.kernels = {"triton_poi_fused_relu_0:1"};
  p1.kernels = {"triton_poi_fused_add_mul_1:2"};
  kernels.find("k0")->setProvenance(p0);
  kernels.find("k1")->setProvenance(p1);
  GraphMatch m = matchGraphs(post, kernels);
  EXPECT_EQ(pairOf(m, kernels, "k0"), "relu>k0:provenance");
  EXPECT_EQ(pairOf(m, kernels, "k1"), "add,mul>k1:provenance");
  EXPECT_EQ(pairOf(m, kernels, "x"), "x>x:name");
  EXPECT_TRUE(m.removed.empty());
  // The other way round, the same pairs.
  GraphMatch r = matchGraphs(kernels, post);
  EXPECT_EQ(pairOf(r, post, "mul"), "k1>add,mul:provenance");
  // Provenance alone pairs only what the mapping names (and the outputs).
  GraphMatch only = matchGraphs(post, kernels, MatchStrategy::Provenance);
  EXPECT_EQ(names(only.added), (std::vector<std::string>{"x", "y"}));
}

TEST(GraphMatch, WrapperFxIrFollowsValuesThroughBuffers) {
  // PyTorch's FX IR of two wrappers: Inductor's allocates each buffer, the other carves them out
  // of one pool (buffer names differ, offset 0 reused). Launches write their buffers, so the
  // pairs follow the last writer of each buffer's storage, and the buffers pair by writer.
  Graph a = parse(R"(graph():
    %x : [num_users=2] = placeholder[target=x]
    %buf0 : [num_users=2] = call_function[target=torch.empty_strided](args = ([16], [1]), kwargs = {dtype: torch.float32, device: cuda})
    %k0 : [num_users=0] = call_function[target=torch.ops.higher_order.triton_kernel_wrapper_mutation](args = (), kwargs = {kernel_idx: 0, constant_args_idx: 0, grid: [(1, 1, 1)], tma_descriptor_metadata: {}, kwargs: {in_ptr0: %x, out_ptr0: %buf0, xnumel: 16, XBLOCK: 16}})
    %buf1 : [num_users=2] = call_function[target=torch.empty_strided](args = ([16], [1]), kwargs = {dtype: torch.float32, device: cuda})
    %mm_out : [num_users=0] = call_function[target=torch.ops.aten.mm.out](args = (%buf0, %x), kwargs = {out: %buf1})
    %buf2 : [num_users=2] = call_function[target=torch.empty_strided](args = ([16], [1]), kwargs = {dtype: torch.float32, device: cuda})
    %k1 : [num_users=0] = call_function[target=torch.ops.higher_order.triton_kernel_wrapper_mutation](args = (), kwargs = {kernel_idx: 1, constant_args_idx: 1, grid: [(1, 1, 1)], tma_descriptor_metadata: {}, kwargs: {in_ptr0: %buf1, out_ptr0: %buf2, xnumel: 16, XBLOCK: 16}})
    return (buf2,)
)");
  Graph b = parse(R"(graph():
    %x : [num_users=2] = placeholder[target=x]
    %pool : [num_users=1] = call_function[target=torch.empty_strided](args = ([128], [1]), kwargs = {dtype: torch.uint8, device: cuda})
    %pool_f : [num_users=3] = call_function[target=torch.ops.aten.view.dtype](args = (%pool, torch.float32), kwargs = {})
    %b5 : [num_users=2] = call_function[target=torch.as_strided](args = (%pool_f, [16], [1], 0), kwargs = {})
    %t0 : [num_users=0] = call_function[target=torch.ops.higher_order.triton_kernel_wrapper_mutation](args = (), kwargs = {kernel_idx: 3, constant_args_idx: 3, grid: [(1, 1, 1)], tma_descriptor_metadata: {}, kwargs: {in_ptr0: %x, out_ptr0: %b5, xnumel: 16, XBLOCK: 16}})
    %b6 : [num_users=2] = call_function[target=torch.as_strided](args = (%pool_f, [16], [1], 16), kwargs = {})
    %m : [num_users=0] = call_function[target=torch.ops.aten.mm.out](args = (%b5, %x), kwargs = {out: %b6})
    %b7 : [num_users=2] = call_function[target=torch.as_strided](args = (%pool_f, [16], [1], 0), kwargs = {})
    %t1 : [num_users=0] = call_function[target=torch.ops.higher_order.triton_kernel_wrapper_mutation](args = (), kwargs = {kernel_idx: 4, constant_args_idx: 4, grid: [(1, 1, 1)], tma_descriptor_metadata: {}, kwargs: {in_ptr0: %b6, out_ptr0: %b7, xnumel: 16, XBLOCK: 16}})
    return (b7,)
)");
  GraphMatch m = matchGraphs(a, b);
  EXPECT_EQ(pairOf(m, b, "t0"), "k0>t0:structure");
  EXPECT_EQ(pairOf(m, b, "m"), "mm_out>m:structure");
  EXPECT_EQ(pairOf(m, b, "t1"), "k1>t1:structure");
  EXPECT_EQ(pairOf(m, b, "b5"), "buf0>b5:structure");
  EXPECT_EQ(pairOf(m, b, "b7"), "buf2>b7:structure");
  EXPECT_TRUE(m.removed.empty()) << names(m.removed).front();
  EXPECT_EQ(names(m.added), (std::vector<std::string>{"pool", "pool_f"}));
  EXPECT_FALSE(m.change(m.pairOf.at(b.outputNode())).any()); // returns the paired buffer
  EXPECT_TRUE(m.change(m.pairOf.at(b.find("t0"))).args);     // kernel_idx 0 -> 3
}

TEST(GraphMatch, LongRenamedChainWithoutRecursion) {
  // 20,000 nodes renamed: paired by forward propagation in one walk, no recursion over edges.
  constexpr int kNodes = 20000;
  std::string a = "graph():\n    %x : Tensor \"f32[4][1]cpu\" = placeholder[target=x]\n";
  std::string b = a;
  for (int i = 0; i < kNodes; ++i) {
    std::string prevA = i ? "n" + std::to_string(i - 1) : "x";
    std::string prevB = i ? "m" + std::to_string(i - 1) : "x";
    std::string op = i % 3 == 0 ? "relu" : i % 3 == 1 ? "neg" : "abs";
    auto line = [&](const std::string &name, const std::string &prev) {
      return "    %" + name + " : Tensor \"f32[4][1]cpu\" = call_function[target=torch.ops.aten." +
             op + ".default](args = (%" + prev + ",), kwargs = {})\n";
    };
    a += line("n" + std::to_string(i), prevA);
    b += line("m" + std::to_string(i), prevB);
  }
  a += "    return (n" + std::to_string(kNodes - 1) + ",)\n";
  b += "    return (m" + std::to_string(kNodes - 1) + ",)\n";
  Graph ga = parse(a), gb = parse(b);
  GraphMatch m = matchGraphs(ga, gb);
  EXPECT_TRUE(m.removed.empty());
  EXPECT_TRUE(m.added.empty());
  EXPECT_EQ(m.pairs.size(), static_cast<size_t>(kNodes + 2));
  EXPECT_EQ(pairOf(m, gb, "m19999"), "n19999>m19999:structure");
}

TEST(GraphMatch, StrategyNames) {
  for (std::string_view s : {"auto", "name", "structure", "provenance"})
    EXPECT_EQ(matchStrategyName(*parseMatchStrategy(s)), s);
  EXPECT_FALSE(parseMatchStrategy("names"));
  EXPECT_EQ(matchStrategyList(), "auto, name, structure or provenance");
}

} // namespace
} // namespace fxkit
