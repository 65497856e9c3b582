/// Importing Inductor's scheduler dumps (ir_pre_fusion.txt, ir_post_fusion.txt): every dump of
/// the corpus imports and agrees with facts counted on its text, with its pre/post partner and
/// with the wrapper code and meta.json beside it; a hand-written dump gives a pinned schedule
/// and FX text; bad input fails with file:line:col.
#include "importers/inductor/SchedulerDump.h"

#include "exporters/FxTextPrinter.h"
#include "importers/FxTextParser.h"
#include "importers/Import.h"
#include "ir/Verifier.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <set>
#include <sstream>

using namespace fxkit;
using namespace fxkit::inductor;
namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path testCorpus() { return fs::path(FXKIT_TEST_DATA) / "corpus" / "inductor"; }
/// The shared corpus next to the repository (`../shared/corpus`), when this checkout has one.
fs::path sharedCorpus() {
  return fs::path(FXKIT_TEST_DATA).parent_path().parent_path().parent_path() / "shared" / "corpus" /
         "inductor";
}

/// Every `debug/<graph>/` folder under root holding both dumps, sorted; empty when absent.
std::vector<fs::path> dumpFolders(const fs::path &root) {
  std::vector<fs::path> out;
  std::error_code ec;
  if (!fs::is_directory(root, ec))
    return out;
  for (const auto &e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file() && e.path().filename() == "ir_post_fusion.txt" &&
        fs::exists(e.path().parent_path() / "ir_pre_fusion.txt"))
      out.push_back(e.path().parent_path());
  std::sort(out.begin(), out.end());
  return out;
}

size_t countOf(const std::string &text, const std::string &needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++n;
  return n;
}

/// Lines that start a scheduler node (`op0: SchedulerNode(`, members of fused nodes included),
/// counted on the text: an unindented `name: Kind(`.
size_t headerLines(const std::string &text) {
  static const std::regex header("^[A-Za-z0-9_]+: [A-Za-z]+\\(.*");
  size_t n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    n += std::regex_match(line, header);
  return n;
}

/// Counts over every node of the schedule, members included.
struct Totals {
  size_t nodes = 0, memoryDeps = 0, otherDeps = 0, users = 0, layouts = 0, tensorLayouts = 0,
         loopBodies = 0;
};
void total(const ScheduleNode &n, Totals &t) {
  ++t.nodes;
  for (const auto *deps : {&n.writes, &n.unmetDependencies, &n.metDependencies})
    for (const ScheduleDep &d : *deps)
      ++(d.kind == DepKind::Memory ? t.memoryDeps : t.otherDeps);
  auto layout = [&](const ScheduleLayout &l) {
    ++t.layouts;
    t.tensorLayouts += l.tensor.has_value();
  };
  for (const ScheduleBuffer &b : n.outputs) {
    t.users += b.users.size();
    layout(b.layout);
  }
  for (const auto &[name, l] : n.bufferLayouts)
    layout(l);
  t.loopBodies += !n.loopBody.empty();
  for (const ScheduleNode &m : n.members)
    total(m, t);
}

/// Reads one dump and checks it against what its text says; returns the schedule.
InductorSchedule checkDump(const fs::path &path) {
  SCOPED_TRACE(path.string());
  std::string text = readFile(path);
  EXPECT_TRUE(looksLikeSchedulerDump(text));
  EXPECT_EQ(detectGraphFormat(path.string(), text), GraphFormat::InductorIr);
  auto s = parseInductorSchedule(text, path.string());
  EXPECT_TRUE(s) << s.error().str();
  if (!s)
    return {};
  // Nothing the text holds is dropped: every header, dependency, user, layout and loop body
  // counted on the text is in the schedule.
  Totals t;
  for (const ScheduleNode &n : s->nodes)
    total(n, t);
  EXPECT_EQ(t.nodes, headerLines(text));
  EXPECT_EQ(t.memoryDeps, countOf(text, "MemoryDep("));
  EXPECT_EQ(t.otherDeps, countOf(text, "StarDep(") + countOf(text, "WeakDep("));
  EXPECT_EQ(t.users, countOf(text, "NodeUser("));
  EXPECT_EQ(t.layouts, countOf(text, "Layout("));
  EXPECT_EQ(t.tensorLayouts, countOf(text, "FixedLayout("));
  EXPECT_EQ(t.loopBodies, countOf(text, "_loop_body:\n"));
  for (const ScheduleNode *n : s->leaves()) {
    // Inductor prints one loop body per SchedulerNode, a kernel per extern node.
    EXPECT_EQ(!n->loopBody.empty(), n->kind == ScheduleNodeKind::Scheduler) << n->name;
    EXPECT_EQ(n->kernel.has_value(), n->kind == ScheduleNodeKind::ExternKernel) << n->name;
    if (n->kind == ScheduleNodeKind::Scheduler) {
      EXPECT_EQ(n->iteration.size(), 2u) << n->name;
      EXPECT_EQ(n->sizes.size(), 2u) << n->name;
      EXPECT_EQ(n->device, "cuda:0") << n->name;
    }
  }
  // As a graph: a placeholder per input buffer, a node per top-level scheduler node, an output.
  auto g = importGraphFile(path.string());
  EXPECT_TRUE(g) << g.error().str();
  if (!g)
    return s.take();
  EXPECT_TRUE(verifyGraph(*g));
  size_t placeholders = static_cast<size_t>(std::count_if(
      g->begin(), g->end(), [](const Node *n) { return n->op() == OpKind::Placeholder; }));
  EXPECT_EQ(g->size(), placeholders + s->nodes.size() + 1);
  EXPECT_NE(inductorScheduleOf(*g), nullptr);
  size_t i = 0;
  for (const Node *n : *g)
    if (n->op() == OpKind::CallFunction) {
      EXPECT_EQ(n->name(), s->nodes[i++].name);
    }
  // The FX text re-parses to the same text.
  std::string fx = printFxText(*g);
  auto again = parseFxText(fx, "reparsed");
  EXPECT_TRUE(again) << again.error().str();
  if (again) {
    EXPECT_EQ(printFxText(*again), fx);
  }
  return s.take();
}

int metaCount(const fs::path &dir, const std::string &key) {
  std::string meta = readFile(dir / "meta.json");
  std::smatch m;
  if (!std::regex_search(meta, m, std::regex("\"" + key + "\": ([0-9]+)")))
    return -1;
  return std::stoi(m[1]);
}

/// Checks both dumps of one debug folder and how they relate; returns post-fusion kernels.
void checkFolder(const fs::path &dir) {
  SCOPED_TRACE(dir.string());
  InductorSchedule pre = checkDump(dir / "ir_pre_fusion.txt");
  InductorSchedule post = checkDump(dir / "ir_post_fusion.txt");
  // Before fusion there are no groups: one top-level node per header.
  EXPECT_EQ(pre.nodes.size(), headerLines(readFile(dir / "ir_pre_fusion.txt")));
  EXPECT_EQ(pre.groupCount(), 0u);
  // After fusion every pre-fusion node is in exactly one post-fusion node, and the same buffers
  // are written (compareFusion lists any difference).
  FusionComparison c = compareFusion(post, pre);
  EXPECT_TRUE(c.problems.empty()) << printFusionComparison(c);
  std::multiset<std::string> preNames, postMembers;
  for (const ScheduleNode &n : pre.nodes)
    preNames.insert(n.name);
  for (const ScheduleNode *n : post.leaves())
    postMembers.insert(n->name);
  EXPECT_EQ(preNames, postMembers);
  // Each post-fusion kernel node is one kernel launch in the wrapper code of the same graph
  // (`.run(` in debug/<graph>/output_code.py): the scheduler's last word is the code.
  std::string code = readFile(dir / "output_code.py");
  EXPECT_EQ(c.postKernels, countOf(code, ".run("));
  // Inductor defines identical kernels once (deep_mlp launches one LayerNorm-GELU kernel 64
  // times), so definitions can only be fewer than kernel nodes, never more.
  EXPECT_LE(countOf(code, "async_compile.triton("), c.postKernels);
}

/// meta.json counts the Triton kernel definitions of output_code_0.py, which is one of the
/// workload's compiles (forward or inference): it equals the definitions of one debug folder,
/// and is at most the kernel nodes of that folder's post-fusion dump (see checkFolder).
void checkMeta(const fs::path &workload) {
  SCOPED_TRACE(workload.string());
  int defs = metaCount(workload, "triton_kernel_defs");
  ASSERT_GE(defs, 0);
  bool matched = false;
  for (const fs::path &dir : dumpFolders(workload / "debug")) {
    auto post = parseInductorSchedule(readFile(dir / "ir_post_fusion.txt"), dir.string());
    ASSERT_TRUE(post);
    size_t definitions = countOf(readFile(dir / "output_code.py"), "async_compile.triton(");
    size_t kernels = compareFusion(*post, *post).postKernels;
    matched = matched ||
              (definitions == static_cast<size_t>(defs) && kernels >= static_cast<size_t>(defs));
  }
  EXPECT_TRUE(matched);
}

void checkCorpus(const fs::path &root, size_t expectFolders) {
  std::vector<fs::path> dirs = dumpFolders(root);
  if (expectFolders) {
    EXPECT_EQ(dirs.size(), expectFolders);
  }
  for (const fs::path &d : dirs)
    checkFolder(d);
  std::set<fs::path> workloads;
  for (const fs::path &d : dirs)
    workloads.insert(d.parent_path().parent_path());
  for (const fs::path &w : workloads)
    checkMeta(w);
}

// --- a small hand-written dump covering every form --------------------------------------------

const char *kSmall = R"(op0: SchedulerNode(ComputedBuffer)
op0.writes = [MemoryDep('buf0', c0, {c0: 8*s0})]
op0.unmet_dependencies = []
op0.met_dependencies = [MemoryDep('arg0_1', c0, {c0: 8*s0})]
op0.outputs = [
    buf0: ComputedBuffer
    buf0.layout = FixedLayout('cuda:0', torch.float16, size=[s0, 8], stride=[8, 1])
    buf0.users = [
        NodeUser(node=ExternKernelSchedulerNode(name='op1'), can_inplace=False, is_weak=False),
        NodeUser(node=SchedulerNode(name='op3'), can_inplace=True, is_weak=False),
    ]
]
op0.group.device = cuda:0
op0.group.iteration = (8*s0, 1)
op0.sizes = ([8*s0], [])
arg0_1_layout = FixedLayout('cuda:0', torch.float16, size=[s0, 8], stride=[8, 1])
buf0_layout = FixedLayout('cuda:0', torch.float16, size=[s0, 8], stride=[8, 1])
class op0_loop_body:
    var_ranges = {p0: 8*s0}
    index0 = p0
    def body(self, ops):
        get_index = self.get_index('index0')
        load = ops.load('arg0_1', get_index)
        get_index_1 = self.get_index('index0')
        store = ops.store('buf0', get_index_1, load, None)
        return store


op1: ExternKernelSchedulerNode(ExternKernelOut)
op1.writes = [StarDep(name='buf1', mode=None)]
op1.unmet_dependencies = [StarDep(name='buf0', mode=None)]
op1.met_dependencies = [StarDep(name='arg1_1', mode=None)]
op1.outputs = [
    buf1: ExternKernelOut
    buf1.layout = FixedLayout('cuda:0', torch.float16, size=[s0, 8], stride=[8, 1], offset=4)
    buf1.aliases = ['buf0']
    buf1.users = [NodeUser(node=OUTPUT, can_inplace=False, is_weak=False)]
]
op1.node.kernel = extern_kernels.mm


op2: NopKernelSchedulerNode(ComputedBuffer)
op2.writes = [StarDep(name='buf2', mode=None)]
op2.unmet_dependencies = []
op2.met_dependencies = [StarDep(name='arg0_1', mode=None)]
op2.outputs = [
    buf2: ComputedBuffer
    buf2.layout = MultiOutputLayout(device=device(type='cuda', index=0))
    buf2.users = []
]


op3_op4: FusedSchedulerNode(SchedulerNode,SchedulerNode)
op3_op4.writes = 
    [   MemoryDep('buf3', c0, {c0: 8*s0}),
        MemoryDep('buf4', 8*c0 + c1, {c0: s0, c1: 8}, atomic_add)]
op3_op4.unmet_dependencies = 
    [   MemoryDep('buf0', c0, {c0: 8*s0}),
        WeakDep(name='buf1', mutating_buf='buf4', is_fake=False)]
op3_op4.met_dependencies = []
op3_op4.outputs = [
    buf3: ComputedBuffer
    buf3.layout = FixedLayout('cuda:0', torch.float32, size=[s0, 8], stride=[8, 1])
    buf3.users = [NodeUser(node=SchedulerNode(name='op4'), can_inplace=True, is_weak=False)]
    buf4: ComputedBuffer
    buf4.layout = FixedLayout('cuda:0', torch.float32, size=[s0, 8], stride=[8, 1])
    buf4.mutations = ['buf3']
    buf4.users = [NodeUser(node=OUTPUT, can_inplace=False, is_weak=False)]
]
op3_op4.snodes[0] =
op3: SchedulerNode(ComputedBuffer)
op3.writes = [MemoryDep('buf3', c0, {c0: 8*s0})]
op3.unmet_dependencies = [MemoryDep('buf0', c0, {c0: 8*s0})]
op3.met_dependencies = []
op3.outputs = [
    buf3: ComputedBuffer
    buf3.layout = FixedLayout('cuda:0', torch.float32, size=[s0, 8], stride=[8, 1])
    buf3.users = [NodeUser(node=SchedulerNode(name='op4'), can_inplace=True, is_weak=False)]
]
op3.group.device = cuda:0
op3.group.iteration = (8*s0, 1)
op3.sizes = ((s0, 8), ())
class op3_loop_body:
    var_ranges = {p0: s0, p1: 8}
    index0 = 8*p0 + p1
    def body(self, ops):
        masked_subblock1 = self.masked_subblock1(None, 0.0)
        get_index = self.get_index('index0')
        store = ops.store('buf3', get_index, masked_subblock1, None)
        return store

    def masked_subblock1(self, ops):
        constant = ops.constant(1.0, torch.float32)
        return constant
op3_op4.snodes[1] =
op4: SchedulerNode(ComputedBuffer)
op4.writes = [MemoryDep('buf4', 8*c0 + c1, {c0: s0, c1: 8}, atomic_add)]
op4.unmet_dependencies = 
    [   MemoryDep('buf3', (ModularIndexing(c0, 1, 8)) + 8*((c0//8)), {c0: 8*s0}),
        WeakDep(name='buf1', mutating_buf='buf4', is_fake=False)]
op4.met_dependencies = []
op4.outputs = [
    buf4: ComputedBuffer
    buf4.layout = FixedLayout('cuda:0', torch.float32, size=[s0, 8], stride=[8, 1])
    buf4.mutations = ['buf3']
    buf4.users = [NodeUser(node=OUTPUT, can_inplace=False, is_weak=False)]
]
op4.group.device = cuda:0
op4.group.iteration = (8*s0, 1)
op4.sizes = ([s0, 8], [])
class op4_loop_body:
    var_ranges = {p0: s0, p1: 8}
    index0 = 8*p0 + p1
    def body(self, ops):
        get_index = self.get_index('index0')
        load = ops.load('buf3', get_index)
        store = ops.store('buf4', get_index, load, 'atomic_add')
        return store


)";

/// The first line of the error importing `text` as `bad.txt`, or "" when it imports.
std::string importError(const std::string &text) {
  auto g = importInductorSchedule(text, "bad.txt");
  if (g)
    return "";
  std::string s = g.error().str();
  return s.substr(0, s.find('\n'));
}

/// kSmall with the first occurrence of `from` replaced by `to`.
std::string smallWith(const std::string &from, const std::string &to) {
  std::string s = kSmall;
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos)
    s.replace(at, from.size(), to);
  return s;
}

} // namespace

TEST(InductorScheduleCorpus, EveryDumpOfTheTestCorpusImports) {
  // 10 workloads, two compiled graphs each (forward/inference), pre and post each: 40 files.
  checkCorpus(testCorpus(), 20);
}

TEST(InductorScheduleCorpus, EveryDumpOfTheSharedCorpusImports) {
  if (dumpFolders(sharedCorpus()).empty())
    GTEST_SKIP() << "no shared corpus at " << sharedCorpus();
  checkCorpus(sharedCorpus(), 0);
}

TEST(InductorScheduleCorpus, SoftmaxFusesThreeNodesIntoOne) {
  fs::path dir = testCorpus() / "softmax" / "debug" / "model__0_inference_0.0";
  auto pre = parseInductorSchedule(readFile(dir / "ir_pre_fusion.txt"), "pre");
  auto post = parseInductorSchedule(readFile(dir / "ir_post_fusion.txt"), "post");
  ASSERT_TRUE(pre && post);
  FusionComparison c = compareFusion(*post, *pre);
  EXPECT_EQ(printFusionComparison(c), "scheduler nodes: 3 before fusion, 1 after (1 kernels, 1 "
                                      "fused groups)\n  op0_op1_op2: op0 op1 op2\n");
  const ScheduleNode &fused = post->nodes[0];
  EXPECT_EQ(fused.kind, ScheduleNodeKind::Fused);
  ASSERT_EQ(fused.writes.size(), 3u);
  EXPECT_EQ(fused.writes[2].indexText, "1024*d0 + d1");
  EXPECT_EQ(fused.writes[2].ranges.size(), 2u);
  EXPECT_EQ(fused.members[2].unmetDependencies.size(), 2u);
  EXPECT_EQ(fused.outputs[0].layout.tensor->str(), "f32[4096, 1][1, 4096]cuda:0");
  EXPECT_EQ(fused.members[0].loopBody.substr(0, 34), "var_ranges = {p0: 4096, p1: 1024}\n");
}

TEST(InductorScheduleGolden, SmallHandWrittenDump) {
  auto s = parseInductorSchedule(kSmall, "small.txt");
  ASSERT_TRUE(s) << s.error().str();
  ASSERT_EQ(s->nodes.size(), 4u);
  const ScheduleNode &op0 = s->nodes[0], &op1 = s->nodes[1], &op2 = s->nodes[2],
                     &fused = s->nodes[3];
  EXPECT_EQ(op0.kind, ScheduleNodeKind::Scheduler);
  EXPECT_EQ(op0.irKinds, std::vector<std::string>{"ComputedBuffer"});
  EXPECT_EQ(op0.metDependencies[0].buffer, "arg0_1");
  EXPECT_EQ(op0.metDependencies[0].ranges[0].second.str(), "8*s0");
  ASSERT_EQ(op0.outputs[0].users.size(), 2u);
  EXPECT_EQ(op0.outputs[0].users[1].node, "op3");
  EXPECT_EQ(op0.outputs[0].users[1].nodeKind, "SchedulerNode");
  EXPECT_TRUE(op0.outputs[0].users[1].canInplace);
  EXPECT_EQ(op0.iteration[0].str(), "8*s0");
  ASSERT_EQ(op0.sizes.size(), 2u);
  EXPECT_EQ(op0.sizes[1].size(), 0u);
  EXPECT_EQ(op0.bufferLayouts.size(), 2u);
  EXPECT_EQ(op0.bufferLayouts[0].first, "arg0_1");
  EXPECT_EQ(op0.bufferLayouts[0].second.tensor->str(), "f16[s0, 8][8, 1]cuda:0");
  EXPECT_EQ(op0.loopBody.substr(0, 22), "var_ranges = {p0: 8*s0");
  EXPECT_EQ(op1.kind, ScheduleNodeKind::ExternKernel);
  EXPECT_EQ(op1.kernel, "extern_kernels.mm");
  EXPECT_EQ(op1.writes[0].kind, DepKind::Star);
  EXPECT_EQ(op1.writes[0].mode, "None");
  EXPECT_EQ(op1.outputs[0].layout.offset, SymExpr(4));
  EXPECT_EQ(op1.outputs[0].aliases, std::vector<std::string>{"buf0"});
  EXPECT_EQ(op1.outputs[0].users[0].node, "OUTPUT");
  EXPECT_EQ(op2.kind, ScheduleNodeKind::NopKernel);
  EXPECT_EQ(op2.outputs[0].layout.kind, "MultiOutputLayout");
  EXPECT_FALSE(op2.outputs[0].layout.tensor);
  EXPECT_EQ(fused.kind, ScheduleNodeKind::Fused);
  ASSERT_EQ(fused.members.size(), 2u);
  EXPECT_EQ(fused.writes[1].mode, "atomic_add");
  EXPECT_EQ(fused.unmetDependencies[1].kind, DepKind::Weak);
  EXPECT_EQ(fused.unmetDependencies[1].mode, "buf4");
  EXPECT_EQ(fused.outputs[1].mutations, std::vector<std::string>{"buf3"});
  const ScheduleNode &op3 = fused.members[0], &op4 = fused.members[1];
  // The blank line inside op3's loop body belongs to it.
  EXPECT_NE(op3.loopBody.find("return store\n\ndef masked_subblock1(self, ops):\n"),
            std::string::npos)
      << op3.loopBody;
  EXPECT_EQ(op4.unmetDependencies[0].indexText, "(ModularIndexing(c0, 1, 8)) + 8*((c0//8))");
  EXPECT_EQ(op4.unmetDependencies[0].index.simplify(),
            SymExpr::parse("ModularIndexing(c0, 1, 8) + 8*(c0//8)")->simplify());
  EXPECT_EQ(s->leaves().size(), 5u);
  EXPECT_EQ(s->groupCount(), 1u);

  auto g = importGraph(kSmall, GraphFormat::InductorIr, "small.txt");
  ASSERT_TRUE(g) << g.error().str();
  EXPECT_EQ(printFxText(*g),
            "graph():\n"
            "    %arg0_1 : [num_users=2] = placeholder[target=arg0_1]\n"
            "    %arg1_1 : [num_users=1] = placeholder[target=arg1_1]\n"
            "    %op0 : [num_users=2] = call_function[target=inductor.scheduler_node](args = "
            "(%arg0_1,), kwargs = {writes: [(buf0, c0)], reads: [(arg0_1, c0)], ir: "
            "ComputedBuffer, iteration: (8*s0, 1)})\n"
            "    %op1 : [num_users=2] = call_function[target=inductor.extern_kernel](args = "
            "(%op0, %arg1_1), kwargs = {writes: [(buf1, *)], reads: [(buf0, *), (arg1_1, *)], ir: "
            "ExternKernelOut, kernel: extern_kernels.mm})\n"
            "    %op2 : [num_users=0] = call_function[target=inductor.nop_kernel](args = "
            "(%arg0_1,), kwargs = {writes: [(buf2, *)], reads: [(arg0_1, *)], ir: "
            "ComputedBuffer})\n"
            "    %op3_op4 : [num_users=1] = call_function[target=inductor.fused_node](args = "
            "(%op0, %op1), kwargs = {writes: [(buf3, c0), (buf4, 8*c0 + c1)], reads: [(buf0, c0), "
            "(buf1, weak)], members: [op3, op4]})\n"
            "    return (op1, op3_op4)");
  const Node *fusedNode = g->find("op3_op4");
  ASSERT_NE(fusedNode, nullptr);
  ASSERT_NE(fusedNode->value().tensors(), nullptr);
  EXPECT_EQ(fusedNode->value().tensors()->size(), 2u);
  EXPECT_EQ(g->find("arg0_1")->value().tensor()->str(), "f16[s0, 8][8, 1]cuda:0");
  EXPECT_EQ(g->find("op2")->value().tensor(), nullptr);
  const InductorSchedule *attached = inductorScheduleOf(*g);
  ASSERT_NE(attached, nullptr);
  EXPECT_EQ(attached->nodes.size(), 4u);
}

// CPU scheduler nodes group by (pointwise sizes, reduction sizes), a pair of tuples
// (CppScheduling.group_fn), not (numel, rnumel): `((), ())` for a 0-d buffer.
TEST(InductorScheduleGolden, CpuIterationGroupsAreTuplesOfSizes) {
  auto cpu = parseInductorSchedule(
      smallWith("op0.group.iteration = (8*s0, 1)", "op0.group.iteration = ((s0, 8), (4*s1,))"),
      "cpu.txt");
  ASSERT_TRUE(cpu) << cpu.error().str();
  const ScheduleNode &op0 = cpu->nodes[0];
  ASSERT_EQ(op0.iteration.size(), 2u);
  EXPECT_EQ(op0.iteration[0].kind(), SymExpr::Kind::Tuple);
  EXPECT_EQ(op0.iteration[0].str(), "(s0, 8)");
  EXPECT_EQ(op0.iteration[1].str(), "(4*s1,)");
  auto empty = parseInductorSchedule(
      smallWith("op0.group.iteration = (8*s0, 1)", "op0.group.iteration = ((), ())"), "cpu.txt");
  ASSERT_TRUE(empty) << empty.error().str();
  EXPECT_EQ(empty->nodes[0].iteration[0].str(), "()");
  auto g = scheduleToGraph(*cpu, "cpu.txt");
  ASSERT_TRUE(g) << g.error().str();
  EXPECT_NE(printFxText(*g).find("iteration: ((s0, 8), (4*s1,))"), std::string::npos);
  EXPECT_EQ(importError(smallWith("op0.group.iteration = (8*s0, 1)",
                                  "op0.group.iteration = ((s0, 8), (4*s1,)")),
            "bad.txt:15:1: error: expected ',' or ')', found 'o'");
}

TEST(InductorScheduleGolden, FormatNameAndDetection) {
  EXPECT_EQ(parseGraphFormat("inductor-ir"), GraphFormat::InductorIr);
  EXPECT_EQ(graphFormatName(GraphFormat::InductorIr), "inductor-ir");
  EXPECT_EQ(detectGraphFormat("ir_post_fusion.txt", kSmall), GraphFormat::InductorIr);
  EXPECT_EQ(detectGraphFormat("-", std::string("\n\n") + kSmall), GraphFormat::InductorIr);
  EXPECT_EQ(detectGraphFormat("x.graph.txt", kSmall), GraphFormat::FxText);
  EXPECT_EQ(detectGraphFormat("x.txt", "graph():\n    return ()\n"), GraphFormat::FxText);
  EXPECT_FALSE(looksLikeSchedulerDump("op0: Something(ComputedBuffer)\n"));
  EXPECT_TRUE(looksLikeSchedulerDump("op0_op1: FusedSchedulerNode(SchedulerNode)\n"));
  // An empty dump is an empty schedule; as a graph file it is an error like any empty input.
  auto empty = parseInductorSchedule("\n\n", "e.txt");
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->nodes.empty());
}

TEST(InductorScheduleErrors, MessagesNameFileLineAndColumn) {
  struct Case {
    std::string text;
    std::string error; ///< the first line of the message
  };
  std::vector<Case> cases = {
      {smallWith("op2: NopKernelSchedulerNode(", "op2: MysterySchedulerNode("),
       "bad.txt:42:6: error: unknown scheduler node kind 'MysterySchedulerNode'"},
      {smallWith("op0.group.device", "op0.group.colour"),
       "bad.txt:13:5: error: unknown field 'group.colour' of scheduler node 'op0'"},
      {smallWith("MemoryDep('arg0_1'", "MemoryDap('arg0_1'"),
       "bad.txt:4:25: error: unknown dependency 'MemoryDap' (expected MemoryDep, StarDep or "
       "WeakDep)"},
      {smallWith("{c0: 8*s0})]\nop0.unmet", "{c0: 8*s0)]\nop0.unmet"),
       "bad.txt:2:46: error: expected ',' or '}', found ')'"},
      {smallWith("(8*s0, 1)", "(8*s0 +, 1)"),
       "bad.txt:14:30: error: symbolic expression ends unexpectedly"},
      {smallWith("stride=[8, 1], offset=4)", "stride=[8], offset=4)"),
       "bad.txt:35:19: error: FixedLayout has 2 sizes but 1 strides"},
      {smallWith("torch.float16, size=[s0, 8], stride=[8, 1])\n    buf0.users",
                 "torch.float99, size=[s0, 8], stride=[8, 1])\n    buf0.users"),
       "bad.txt:7:41: error: unknown dtype 'torch.float99' in layout"},
      {smallWith("    buf1.aliases", "    buf1.colour"),
       "bad.txt:36:10: error: unknown buffer field 'colour'"},
      {smallWith("is_weak=False)]\n]\nop1.node", "is_weak=False)]\nop1.node"),
       "bad.txt:38:1: error: expected an output buffer of 'op1' or ']'"},
      {smallWith("op1.node.kernel", "op1.group.device"),
       "bad.txt:39:5: error: 'group.device' on a ExternKernelSchedulerNode (only SchedulerNode "
       "have it)"},
      {smallWith("op3_op4.snodes[1]", "op3_op4.snodes[2]"),
       "bad.txt:95:9: error: expected 'op3_op4.snodes[1]' (members are numbered in order)"},
      {smallWith("op3_op4: FusedSchedulerNode(SchedulerNode,SchedulerNode)",
                 "op3_op4: FusedSchedulerNode(SchedulerNode)"),
       "bad.txt:53:1: error: 'op3_op4' names 1 member kinds but has 2 members"},
      {smallWith("op0.unmet_dependencies = []\n", ""),
       "bad.txt:1:1: error: scheduler node 'op0' has no 'op0.unmet_dependencies' line"},
      {smallWith("op1.unmet_dependencies = [StarDep(name='buf0', mode=None)]",
                 "op1.unmet_dependencies = [StarDep(name='buf3', mode=None)]"),
       "bad.txt:31:27: error: 'op1' reads 'buf3', which only the later node 'op3_op4' writes"},
      {smallWith("op2: NopKernelSchedulerNode(ComputedBuffer)\nop2",
                 "op2: NopKernelSchedulerNode(ComputedBuffer)\nstray line\nop2"),
       "bad.txt:43:1: error: unexpected line in scheduler node 'op2'"},
      {smallWith("op1: ExternKernelSchedulerNode", "op0: ExternKernelSchedulerNode"),
       "bad.txt:29:1: error: scheduler node 'op0' appears twice"},
      {smallWith("NodeUser(node=OUTPUT", "NodeUser(node=OUTPUT, colour=1"),
       "bad.txt:37:41: error: unknown field 'colour' of NodeUser"},
      // Truncated inside the fused node's outputs.
      {std::string(kSmall).substr(0, std::string(kSmall).find("]\nop3_op4.snodes[0]")),
       "bad.txt:69:1: error: end of file inside 'op3_op4.outputs = [' (no closing ']')"},
      {"op0: SchedulerNode(ComputedBuffer)\nop0.writes = [MemoryDep('buf0, c0, {c0: 4})]\n",
       "bad.txt:2:25: error: unterminated string"},
      // Unbalanced brackets: the index swallows the ranges (a tuple whose second item is the
      // dict), then the list ends too early.
      {"op0: SchedulerNode(ComputedBuffer)\nop0.writes = [MemoryDep('b', (c0, {c0: 4})]\n",
       "bad.txt:2:35: error: unexpected '{' in symbolic expression"},
      {"op0: SchedulerNode(ComputedBuffer)\nop0.writes = [MemoryDep('b', c0, {c0: (4})]\n",
       "bad.txt:2:41: error: unbalanced '}'"},
  };
  for (const Case &c : cases) {
    EXPECT_EQ(importError(c.text), c.error) << c.text;
  }
}

TEST(InductorScheduleErrors, NestingStopsAtTheLimit) {
  // Fused nodes nested inside each other far deeper than Inductor ever does: an error at the
  // limit, not a stack overflow.
  std::string text;
  for (int i = 0; i < 2000; ++i)
    text += "g" + std::to_string(i) + ": FusedSchedulerNode(FusedSchedulerNode)\ng" +
            std::to_string(i) + ".snodes[0] =\n";
  EXPECT_EQ(importError(text), "bad.txt:19:1: error: scheduler nodes nested more than 8 levels "
                               "deep");
  std::string deep = "op0: SchedulerNode(ComputedBuffer)\nop0.group.iteration = (" +
                     std::string(100, '(') + "1" + std::string(100, ')') + ", 1)\n";
  EXPECT_NE(importError(deep).find("bad.txt:2:"), std::string::npos) << importError(deep);
}

TEST(InductorScheduleErrors, MutatedCorpusDumpsFailWithALocation) {
  // Deterministic mutations (fixed seed) of a real dump: each either imports (and verifies) or
  // fails with one located error; none crashes or hangs.
  std::string text = readFile(testCorpus() / "attention" / "debug" / "model__0_forward_1.0" /
                              "ir_post_fusion.txt");
  ASSERT_FALSE(text.empty());
  std::mt19937_64 rng(11);
  const std::string alphabet = "()[]{},:='\n ._0a";
  for (int i = 0; i < 300; ++i) {
    std::string t = text;
    size_t at = rng() % t.size();
    switch (i % 3) {
    case 0:
      t[at] = alphabet[rng() % alphabet.size()];
      break;
    case 1:
      t.erase(at, 1 + rng() % 20);
      break;
    default:
      t.resize(at);
    }
    auto g = importInductorSchedule(t, "m.txt");
    if (g) {
      EXPECT_TRUE(verifyGraph(*g));
    } else {
      EXPECT_EQ(g.error().loc.file, "m.txt");
      EXPECT_GT(g.error().loc.line, 0) << g.error().str();
      EXPECT_GT(g.error().loc.col, 0) << g.error().str();
    }
  }
}
