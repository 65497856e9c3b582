#pragma once
/// \file Importer for Inductor's scheduler dumps (`ir_pre_fusion.txt`, `ir_post_fusion.txt` of
/// TORCH_COMPILE_DEBUG=1): every scheduler node with its memory dependencies, output buffers,
/// layouts, iteration group and loop body, and which nodes Inductor fused together.
///
///   op0: SchedulerNode(ComputedBuffer)                    node header: name, kind, IR kind(s)
///   op0.writes = [MemoryDep('buf0', c0, {c0: 4096})]     dependencies (MemoryDep, StarDep,
///   op0.unmet_dependencies = [StarDep(name='buf3', ..)]   WeakDep), possibly pformat-wrapped
///   op0.met_dependencies = []                             over several lines
///   op0.outputs = [ buf0: ComputedBuffer                  output buffers: IR kind, layout,
///       buf0.layout = FixedLayout('cuda:0', ..)           aliases, mutations, users
///       buf0.users = [NodeUser(node=.., ..)] ]
///   op0.group.device = cuda:0                             SchedulerNode only
///   op0.group.iteration = (4096, 1024)
///   op0.sizes = ((4096,), (1024,))
///   arg0_1_layout = FixedLayout(...)                      layouts of the buffers it touches
///   class op0_loop_body: ...                              kept as text
///   op1.node.kernel = extern_kernels.addmm                ExternKernelSchedulerNode only
///   op0_op1.snodes[0] = <node> ...                        members of a FusedSchedulerNode
///
/// The schedule also converts to an FX-style graph (one node per scheduler node, edges from the
/// buffers each node reads), so that `fxkit info` and `fxkit convert` work on a dump. Anything
/// not of these forms is an error with file:line:col.

#include "ir/Error.h"
#include "ir/Graph.h"
#include "ir/SymExpr.h"
#include "ir/TensorType.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fxkit {
namespace inductor {

/// MemoryDep: a buffer accessed at an index over ranges; StarDep: the whole buffer (extern
/// kernels, unknown access); WeakDep: ordering only (a later mutation of the buffer).
enum class DepKind { Memory, Star, Weak };

struct ScheduleDep {
  DepKind kind = DepKind::Memory;
  std::string buffer;
  /// MemoryDep: the index over the range variables, as printed (`1024*d0 + d1`) and parsed.
  std::string indexText;
  SymExpr index;
  /// MemoryDep: `{d0: 4096, d1: 1024}` in order.
  std::vector<std::pair<std::string, SymExpr>> ranges;
  /// MemoryDep's optional mode (`atomic_add`), StarDep's `mode=` ("None" when unset),
  /// WeakDep's `mutating_buf=`.
  std::string mode;
  bool isFake = false; ///< WeakDep's is_fake
  int line = 0;
  int col = 0;
};

/// A buffer layout as Inductor prints it: `FixedLayout('cuda:0', torch.float32, size=[..],
/// stride=[..])` (also FlexibleLayout, NonOwningLayout, CommBufferLayout with an optional
/// `offset=`), `MultiOutputLayout(device=...)` or `NoneLayout(device=..., size=[0], ...)`.
struct ScheduleLayout {
  std::string kind;                 ///< "FixedLayout", "MultiOutputLayout", ...
  std::optional<TensorType> tensor; ///< dtype, sizes, strides, device where printed
  SymExpr offset;                   ///< storage offset (0 unless printed)
  std::string text;                 ///< the layout as printed
};

/// `NodeUser(node=SchedulerNode(name='op2'), can_inplace=False, is_weak=False)`.
struct ScheduleUser {
  std::string node;     ///< scheduler node name, or "OUTPUT" for the graph's output
  std::string nodeKind; ///< "SchedulerNode", ...; empty for OUTPUT
  bool canInplace = false;
  bool isWeak = false;
};

/// One buffer of a node's `outputs = [...]`.
struct ScheduleBuffer {
  std::string name;
  std::string irKind; ///< ComputedBuffer, ExternKernelOut, MultiOutput, ...
  ScheduleLayout layout;
  std::vector<std::string> aliases;
  std::vector<std::string> mutations;
  std::vector<ScheduleUser> users;
  int line = 0;
};

enum class ScheduleNodeKind { Scheduler, ExternKernel, NopKernel, Fused, Foreach };

/// "SchedulerNode", "ExternKernelSchedulerNode", "NopKernelSchedulerNode",
/// "FusedSchedulerNode", "ForeachKernelSchedulerNode".
std::string_view scheduleNodeKindName(ScheduleNodeKind kind);

struct ScheduleNode {
  ScheduleNodeKind kind = ScheduleNodeKind::Scheduler;
  std::string name;
  /// What the header names in parentheses: the IR node's class (`ComputedBuffer`), or for
  /// fused nodes the member kinds (`SchedulerNode,SchedulerNode`).
  std::vector<std::string> irKinds;
  std::vector<ScheduleDep> writes;
  std::vector<ScheduleDep> unmetDependencies;
  std::vector<ScheduleDep> metDependencies;
  std::vector<ScheduleBuffer> outputs;
  std::string device;                      ///< group.device (SchedulerNode)
  std::vector<SymExpr> iteration;          ///< group.iteration: (numel, reduction numel)
  std::vector<std::vector<SymExpr>> sizes; ///< sizes: (pointwise sizes, reduction sizes)
  std::vector<std::pair<std::string, ScheduleLayout>> bufferLayouts; ///< `X_layout = ...`
  std::optional<std::string> kernel; ///< node.kernel of extern nodes ("None" for MultiOutput)
  std::string loopBody; ///< `class opN_loop_body:` body, dedented (LoopBody.debug_str())
  std::vector<ScheduleNode> members; ///< snodes of fused / foreach nodes, in order
  int line = 0;

  bool isGroup() const {
    return kind == ScheduleNodeKind::Fused || kind == ScheduleNodeKind::Foreach;
  }
  /// A node Inductor generates a kernel for (not extern, not nop).
  bool isKernel() const {
    return kind == ScheduleNodeKind::Scheduler || kind == ScheduleNodeKind::Fused ||
           kind == ScheduleNodeKind::Foreach;
  }
  /// All dependencies read: unmet then met.
  std::vector<const ScheduleDep *> reads() const;
  /// The non-group nodes inside this one (itself when it is not a group), in order.
  void leaves(std::vector<const ScheduleNode *> &out) const;
};

} // namespace inductor

/// A scheduler dump: the nodes at top level, in the order Inductor scheduled them.
struct InductorSchedule {
  std::vector<inductor::ScheduleNode> nodes;

  /// Every non-group node (members of groups included), in order.
  std::vector<const inductor::ScheduleNode *> leaves() const;
  /// Top-level nodes that are groups (fused).
  size_t groupCount() const;
};

/// The schedule attached to a graph made by scheduleToGraph (`graph.attachments`).
struct InductorScheduleInfo : GraphAttachment {
  InductorSchedule schedule;
};

inline constexpr std::string_view kInductorScheduleAttachment = "inductor.schedule";

/// True when the first non-blank line is a scheduler node header (`op0: SchedulerNode(`,
/// `op0_op1: FusedSchedulerNode(`, ...).
bool looksLikeSchedulerDump(std::string_view content);

/// Parses a dump. An empty text is an empty schedule.
Expected<InductorSchedule> parseInductorSchedule(std::string_view text,
                                                 const std::string &fileName);

/// The schedule as a graph: a placeholder per buffer read but written by no node (graph
/// inputs), one call_function per top-level scheduler node (targets `inductor.scheduler_node`,
/// `inductor.extern_kernel`, `inductor.nop_kernel`, `inductor.fused_node`,
/// `inductor.foreach_node`) whose args are the nodes that wrote the buffers it reads and whose
/// kwargs name its buffers (`writes`, `reads`: buffer -> index, `*` for a StarDep, `weak` for a
/// WeakDep), members, kernel and iteration; an output returning the buffers used by OUTPUT.
/// Values are the output buffers' layouts. The graph is verified and the schedule attached.
/// A read of a buffer that only a later node writes is an error (the dump is out of order).
Expected<Graph> scheduleToGraph(InductorSchedule schedule, const std::string &fileName);

/// parseInductorSchedule + scheduleToGraph.
Expected<Graph> importInductorSchedule(std::string_view text, const std::string &fileName);

/// The schedule attached to a graph imported from a dump, or null.
const InductorSchedule *inductorScheduleOf(const Graph &graph);

/// How a post-fusion schedule groups the nodes of the pre-fusion one.
struct FusionComparison {
  struct Group {
    std::string name;                 ///< post-fusion node name (op0_op1_op2)
    std::vector<std::string> members; ///< pre-fusion node names
  };
  std::vector<Group> groups; ///< post-fusion groups with more than one member, in order
  size_t preNodes = 0;       ///< top-level nodes before fusion
  size_t postNodes = 0;      ///< top-level nodes after fusion
  size_t postKernels = 0;    ///< post-fusion nodes that are kernels (not extern, not nop)
  /// Everything that breaks "post-fusion is a partition of pre-fusion with the same buffers":
  /// pre nodes missing or repeated in post, post members unknown before, buffers written in
  /// one and not the other. Empty when the two agree.
  std::vector<std::string> problems;
};

FusionComparison compareFusion(const InductorSchedule &post, const InductorSchedule &pre);

/// Human-readable: node counts, then one line per fused group with its members.
std::string printFusionComparison(const FusionComparison &comparison);

} // namespace fxkit
