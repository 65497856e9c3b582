#include "transforms/Fusion.h"

#include "ir/ListText.h"
#include "ir/loop/KernelPlacement.h"
#include "ir/ops/OpRegistry.h"
#include "ir/ops/ShapeRules.h"
#include "transforms/lowering/Lowerer.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <queue>
#include <set>
#include <span>
#include <unordered_map>

namespace fxkit {

using namespace loop;

namespace {

/// Appends `[a, b, ...]` (no temporary strings: signatures print every op of every kernel).
void appendRanges(std::string &s, const std::vector<SymExpr> &r) {
  appendList(s, r, ", ", [](std::string &s, const SymExpr &e) { e.print(s); });
}

std::string rangesText(const std::vector<SymExpr> &r) {
  std::string s;
  appendRanges(s, r);
  return s;
}

/// Whether `op` reads or writes buffer `b` (reads() and writes() without building the lists).
bool touches(const LoopOp &op, int32_t b) {
  for (const Store &st : op.stores)
    if (st.buffer == b)
      return true;
  for (int32_t w : op.externOutputs)
    if (w == b)
      return true;
  for (const ScalarInstr &in : op.body)
    if (in.op == ScalarOp::Load && in.buffer == b)
      return true;
  for (const BufferView &v : op.externInputs)
    if (v.buffer == b)
      return true;
  return false;
}

/// The passes over the reduced points of a kernel with reductions, as its code runs them: ops at
/// every reduced point join the open pass until one needs a reduction of it; an op once per row
/// ends it. A value of an earlier pass that a pass reads and that never leaves the kernel is made
/// again in that pass (the OpenCL code generator's `valueOf`), with what it is made from.
struct Passes {
  int32_t pass = 0;  ///< passes so far: the open one's number
  bool open = false; ///< the last op runs at every reduced point: the next may join its pass
  std::vector<int32_t> reductions; ///< reductions of the open pass
  std::vector<int32_t> recomputed; ///< ops of earlier passes the open pass makes again
  size_t instructions = 0;         ///< their scalar instructions
};

/// Whether extern op `op` is a float32 matrix product (mm, addmm, bmm, baddbmm) or convolution
/// (an implicit GEMM) whose result a GEMM template computes tile by tile: its pointwise reader
/// may run as the template's epilogue.
bool isTemplateProduct(const LoopProgram &p, const LoopOp &op) {
  if (!op.externNode || op.externOutputs.empty() || op.externOutputs[0] < 0)
    return false;
  const OpInfo *info = OpRegistry::instance().lookup(op.externNode->target());
  if (!info || !info->schema.overload.empty())
    return false;
  const std::string &name = info->schema.name;
  return (name == "mm" || name == "addmm" || name == "bmm" || name == "baddbmm" ||
          name == "convolution") &&
         p.buffers[op.externOutputs[0]].type.dtype == DType::Float32;
}

/// The offset of point (x0, x1, ...) of `ranges` in their dense row-major layout: the point's
/// number in a pointwise kernel's flat row index.
SymExpr denseIndex(const std::vector<SymExpr> &ranges) {
  // As lowering writes indices (linearIndex: no term for a dimension of size 1).
  std::vector<SymExpr> vars;
  for (size_t i = 0; i < ranges.size(); ++i)
    vars.push_back(loopVar(false, i));
  return lowering::linearIndex(SymExpr(0), ranges, TensorType::contiguousStrides(ranges), vars)
      .simplify();
}

/// Whether buffer `b` is stored densely in row-major order (dimensions of size 1 aside).
bool isDense(const Buffer &b) {
  const std::vector<SymExpr> dense = TensorType::contiguousStrides(b.type.sizes);
  if (b.type.strides.size() != dense.size())
    return false;
  for (size_t i = 0; i < dense.size(); ++i)
    if (b.type.sizes[i].simplify() != SymExpr(1) &&
        b.type.strides[i].simplify() != dense[i].simplify())
      return false;
  return true;
}

/// Why generated kernel `k` cannot run as the epilogue of the product that writes buffer
/// `product`, or empty when it can. The GEMM template calls the kernel's body once per element
/// it stores, with the element's number as the point, while other work-groups still compute the
/// rest: so the kernel may read the product's result only at its own point, and writes only
/// its own point of each output (which may then share the result's storage).
std::string gemmEpilogueRefusal(const LoopProgram &p, const Kernel &k, int32_t product) {
  if (!k.reductionRanges.empty())
    return "a reduction: its rows gather elements that other work-groups compute";
  const Buffer &c = p.buffers[product];
  if (!isDense(c))
    return "the product's result " + c.name + " is not stored densely";
  const SymExpr points = symProduct(k.ranges).simplify();
  if (points != symProduct(c.type.sizes).simplify())
    return "its " + points.str() + " points are not the product's elements";
  for (int32_t b : k.outputs)
    if (b == product)
      return "it writes the product's result";
  for (int32_t o : k.ops) {
    const LoopOp &op = p.ops[o];
    if (op.kind != LoopOpKind::Pointwise)
      return "it holds a " + std::string(loopOpKindName(op.kind)) + " (" + op.name + ")";
    const SymExpr point = denseIndex(op.ranges);
    for (const ScalarInstr &in : op.body)
      if (in.op == ScalarOp::Load && in.buffer == product && in.index.simplify() != point)
        return op.name + " reads " + c.name + " at " + in.index.str() + ", not at its own point " +
               point.str();
    for (const Store &st : op.stores) {
      if (st.scatter)
        return op.name + " scatters into " + p.buffers[st.buffer].name;
      if (std::find(k.internal.begin(), k.internal.end(), st.buffer) == k.internal.end() &&
          st.index.simplify() != point)
        return op.name + " stores " + p.buffers[st.buffer].name + " at " + st.index.str() +
               ", not at its own point " + point.str();
    }
  }
  return {};
}

struct Group {
  std::vector<int32_t> ops;
  std::vector<Placement> placements;
  std::vector<SymExpr> x, r;
  /// placeOp of each op over (x, r), kept from the fusion that made them: considering another
  /// op over the same space needs them again (placing every op for every candidate was a
  /// third of fusion).
  std::vector<OpPlace> places;
  bool isExtern = false;
  bool alive = true;
  int32_t minOp = 0, maxOp = 0;
  std::vector<int32_t> deps; ///< groups this one reads from (direct)
  Passes passes;             ///< with reductions (r not empty): its passes so far
};

/// A legal fusion of an op into a group, or the reason it is refused.
struct Candidate {
  bool ok = false;
  FusionKind kind = FusionKind::Vertical;
  std::string reason;
  SymExpr bytesSaved = 0;
  std::vector<SymExpr> x, r;
  std::vector<Placement> existing; ///< new placements of the group's ops
  /// Placements of the group's ops over (x, r): the group's own `places` when its space stays
  /// (placesFromGroup), else placed anew here.
  std::vector<OpPlace> existingPlaces;
  bool placesFromGroup = false;
  Placement placement = Placement::Row;
  OpPlace place; ///< the op's placement over (x, r)
  /// Over reduced points (r not empty): the group's passes with the op in them, and the op's
  /// pass (Fuser::passOf_).
  Passes passes;
  int32_t pass = 0;
};

class Fuser {
public:
  Fuser(const LoopProgram &p, const FusionOptions &o) : p_(p), options_(o) {}
  Expected<FusedProgram> run();

private:
  Candidate consider(int32_t g, int32_t op);
  bool dependsOn(int32_t from, int32_t target);
  /// Puts op `op` of (or offered to) group `g`, placed `placement`, into the passes `s`: the
  /// open pass or a new one; adds to `s` what that pass makes again for it (stopping once past
  /// the limit: the fusion is refused then) and sets passOf_[op]. `offered` is the op being
  /// fused: a buffer read by an op before it in another kernel is stored, not made again.
  void enterPass(Passes &s, int32_t g, int32_t op, Placement placement, int32_t offered);
  /// Puts `op` into group `g` as candidate `c` (taken apart: its spaces and placements move).
  void addToGroup(int32_t g, int32_t op, Candidate &c);
  int32_t newGroup(int32_t op, bool isExtern);
  std::vector<int32_t> producerGroups(int32_t op) const;
  /// The kernel of group `g`, which gives up its op list, placements and ranges to it (the
  /// group is not used again).
  Kernel makeKernel(Group &g) const;
  /// Marks each generated kernel that may run as the epilogue of the matrix product right before
  /// it (Kernel::gemmEpilogueOf), recording the decision for the product's first reader.
  void markGemmEpilogues();
  /// The kernel's signature, written over `s` (one buffer reused for every kernel: growing a
  /// fresh string of a few kilobytes per kernel was most of the cost).
  void signatureOf(const Kernel &k, std::string &s) const;
  /// Appends e.print(): each distinct expression printed once (signatures print the same few
  /// index expressions and ranges for every kernel of a repeated block).
  void appendExpr(std::string &s, const SymExpr &e) const;
  void appendExprs(std::string &s, const std::vector<SymExpr> &r) const;
  /// LoopOp::reads() and writes() of op `op`, listed once for the whole program (fusion asks
  /// for them several times per op; building a list each time was a fifth of its time).
  std::span<const int32_t> readsOf(int32_t op) const {
    return {reads_.data() + readsStart_[op], reads_.data() + readsStart_[op + 1]};
  }
  std::span<const int32_t> writesOf(int32_t op) const {
    return {writes_.data() + writesStart_[op], writes_.data() + writesStart_[op + 1]};
  }

  const LoopProgram &p_;
  const FusionOptions &options_;
  std::vector<Group> groups_;
  std::vector<int32_t> opGroup_;
  /// Per buffer, the ops that write (read) it in op order: buffer b's are
  /// [start[b], start[b + 1]) of the list (one list, not a vector per buffer).
  std::vector<int32_t> writerOps_, readerOps_;
  std::vector<size_t> writerStart_, readerStart_;
  std::span<const int32_t> writersOf(int32_t b) const {
    return {writerOps_.data() + writerStart_[b], writerOps_.data() + writerStart_[b + 1]};
  }
  std::span<const int32_t> readersOf(int32_t b) const {
    return {readerOps_.data() + readerStart_[b], readerOps_.data() + readerStart_[b + 1]};
  }
  std::vector<int32_t> reads_, writes_;          ///< per op, concatenated
  std::vector<size_t> readsStart_, writesStart_; ///< op i: [start[i], start[i + 1])
  std::vector<uint32_t> visitStamp_;
  /// Per op of a kernel with reductions, the pass its value is made in when it runs at every
  /// reduced point; 0 for a value per row (an op once per row, a reduction's result). Written
  /// by enterPass; for a kernel without reductions, what consider() last assumed.
  std::vector<int32_t> passOf_;
  /// producerGroups' marks: a group is listed once, without searching the list (an op reading
  /// thousands of buffers, such as a cat of thousands of inputs, made that quadratic).
  mutable std::vector<uint32_t> producerMark_;
  mutable uint32_t producerStamp_ = 0;
  /// The producer groups of the op being fused (producerGroups), for consider: each candidate
  /// checks them for cycles, and a group is vertical when it is one of them (its mark).
  std::vector<int32_t> producers_;
  uint32_t producersStamp_ = 0;
  struct SymExprHash {
    size_t operator()(const SymExpr &e) const { return e.hash(); }
  };
  mutable std::unordered_map<SymExpr, std::string, SymExprHash> printed_;
  /// Buffer::storageBytes per buffer, computed on first use (fusion and kernels ask for each
  /// buffer's size several times; it is symbolic arithmetic each time).
  const SymExpr &bytesOf(int32_t b) const {
    if (!haveBytes_[b]) {
      bytes_[b] = p_.buffers[b].storageBytes();
      haveBytes_[b] = true;
    }
    return bytes_[b];
  }
  mutable std::vector<SymExpr> bytes_;
  mutable std::vector<bool> haveBytes_;
  uint32_t stamp_ = 0;
  FusedProgram out_;
};

std::vector<int32_t> Fuser::producerGroups(int32_t op) const {
  std::vector<int32_t> out;
  ++producerStamp_;
  for (int32_t b : readsOf(op))
    for (int32_t w : writersOf(b))
      if (w < op && opGroup_[w] >= 0 && producerMark_[opGroup_[w]] != producerStamp_) {
        producerMark_[opGroup_[w]] = producerStamp_;
        out.push_back(opGroup_[w]);
      }
  return out;
}

/// Whether `from` reads, directly or through other groups, from `target`.
bool Fuser::dependsOn(int32_t from, int32_t target) {
  ++stamp_;
  std::vector<int32_t> work{from};
  int32_t floor = groups_[target].minOp;
  while (!work.empty()) {
    int32_t g = work.back();
    work.pop_back();
    if (g == target)
      return true;
    if (visitStamp_[g] == stamp_ || groups_[g].maxOp < floor)
      continue; // a group whose every op precedes target's first cannot depend on it
    visitStamp_[g] = stamp_;
    for (int32_t d : groups_[g].deps)
      work.push_back(d);
  }
  return false;
}

Candidate Fuser::consider(int32_t gi, int32_t opIndex) {
  Group &g = groups_[gi];
  const LoopOp &op = p_.ops[opIndex];
  Candidate c;
  // A group is vertical when it writes what the op reads: one of its producers (run() listed
  // them in producers_, and they hold the latest producer mark).
  bool vertical = producerMark_[gi] == producersStamp_;
  const std::span<const int32_t> reads = readsOf(opIndex);
  c.kind = vertical ? FusionKind::Vertical : FusionKind::Horizontal;
  for (int32_t b : reads) {
    bool shared = false;
    for (size_t i = 0; i < g.ops.size() && !shared; ++i)
      shared = touches(p_.ops[g.ops[i]], b);
    if (shared)
      c.bytesSaved = symAdd(c.bytesSaved, bytesOf(b));
  }
  if (g.isExtern) {
    c.reason = "extern op boundary: library calls are not fused";
    return c;
  }
  auto scatters = [](const LoopOp &o) {
    return std::any_of(o.stores.begin(), o.stores.end(), [](const Store &s) { return s.scatter; });
  };
  if (scatters(op) || scatters(p_.ops[g.ops.front()])) {
    // Its points may land anywhere in the buffer: every other op must be done with it first.
    c.reason = "scatters are not fused: a scatter into a buffer runs in a kernel of its own";
    return c;
  }
  if (op.kind == LoopOpKind::Scan || p_.ops[g.ops.front()].kind == LoopOpKind::Scan) {
    // A scan kernel walks each row in order and stores at every point (its own code form in
    // every backend); fusing pointwise prologues or epilogues into it is future work.
    c.reason = "scans are not fused: a scan kernel holds its scan alone";
    return c;
  }
  if (g.ops.size() >= options_.maxOpsPerKernel) {
    c.reason = "too many nodes: the kernel has " + std::to_string(g.ops.size()) + " ops (limit " +
               std::to_string(options_.maxOpsPerKernel) + ")";
    return c;
  }
  for (int32_t h : producers_)
    if (h != gi && dependsOn(h, gi)) {
      c.reason = "would create a cycle: it also reads the kernel of " +
                 p_.ops[groups_[h].ops.front()].name + ", which depends on this one";
      return c;
    }

  // Iteration spaces.
  c.x = g.x;
  c.r = g.r;
  c.existing = g.placements;
  if (op.kind == LoopOpKind::Reduction && g.r.empty()) {
    c.x = op.ranges;
    c.r = op.reductionRanges;
    for (size_t i = 0; i < g.ops.size(); ++i) {
      auto pl = placeOp(p_.ops[g.ops[i]], c.x, c.r);
      if (!pl || pl->placement == Placement::Flat) {
        c.reason = "different iteration spaces: the kernel iterates over " + rangesText(g.x) +
                   ", the reduction over " + rangesText(op.ranges) + " x " +
                   rangesText(op.reductionRanges);
        return c;
      }
      c.existing[i] = pl->placement;
    }
    if (vertical)
      c.kind = FusionKind::ReductionPrologue;
  } else if (op.kind == LoopOpKind::Reduction) {
    c.kind = FusionKind::SameRows;
  } else if (!g.r.empty()) {
    c.kind = FusionKind::ReductionEpilogue;
  } else {
    // A pointwise kernel takes the finer of the two spaces ([8, 128, 256] over
    // [1024, 256]) when its ops group onto it, so their values meet at the same points.
    auto asIs = placeOp(op, g.x, g.r);
    if (!asIs || asIs->placement == Placement::Flat) {
      std::vector<Placement> refined;
      for (int32_t o : g.ops) {
        auto pl = placeOp(p_.ops[o], op.ranges, {});
        if (!pl || pl->placement == Placement::Flat)
          break;
        refined.push_back(pl->placement);
      }
      if (refined.size() == g.ops.size()) {
        c.x = op.ranges;
        c.existing = refined;
      }
    }
  }
  auto placement = placeOp(op, c.x, c.r);
  if (!placement) {
    std::string space = rangesText(op.ranges);
    if (op.kind == LoopOpKind::Reduction)
      space += " x " + rangesText(op.reductionRanges);
    c.reason = "different iteration spaces: the kernel iterates over " + rangesText(c.x) +
               (c.r.empty() ? "" : " x " + rangesText(c.r)) + ", the op over " + space;
    return c;
  }
  c.placement = placement->placement;
  if (g.places.size() == g.ops.size() && c.x == g.x && c.r == g.r) {
    c.placesFromGroup = true;
  } else {
    for (size_t i = 0; i < g.ops.size(); ++i) {
      auto pl = placeOp(p_.ops[g.ops[i]], c.x, c.r);
      if (!pl) {
        c.reason = "internal error: an op of the kernel no longer fits its iteration space";
        return c;
      }
      c.existingPlaces.push_back(*pl);
    }
  }

  // Values made inside the kernel must be read where they are written.
  const std::vector<OpPlace> &existingPlaces = c.placesFromGroup ? g.places : c.existingPlaces;
  for (const ScalarInstr &in : op.body) {
    if (in.op != ScalarOp::Load)
      continue;
    for (size_t i = 0; i < g.ops.size(); ++i) {
      const LoopOp &producer = p_.ops[g.ops[i]];
      for (const Store &s : producer.stores) {
        if (s.buffer != in.buffer)
          continue;
        const std::string &name = p_.buffers[in.buffer].name;
        if (c.existing[i] == Placement::Flat || c.placement == Placement::Flat) {
          c.reason = "reads " + name + " through a reshaped iteration space";
          return c;
        }
        SymExpr written = toKernelCoordinates(s.index, existingPlaces[i]);
        SymExpr read = toKernelCoordinates(in.index, *placement);
        if (!symEq(written, read)) {
          c.reason = "reads " + name + " at " + read.str() + ", where the kernel writes it at " +
                     written.str() + " (another row or point)";
          return c;
        }
      }
    }
  }
  if (!c.r.empty()) {
    // Over reduced points: the passes the kernel's code runs, and what the op's pass recomputes.
    if (g.r.empty()) {
      // The kernel takes the reduction's space: its ops' passes anew, at their new placements.
      for (size_t i = 0; i < g.ops.size(); ++i)
        enterPass(c.passes, gi, g.ops[i], c.existing[i], opIndex);
    } else {
      c.passes = g.passes;
    }
    if (c.passes.instructions <= options_.maxRecompute)
      enterPass(c.passes, gi, opIndex, c.placement, opIndex);
    if (c.passes.instructions > options_.maxRecompute) {
      c.reason = "would recompute too much: the kernel's pass " + std::to_string(c.passes.pass) +
                 " over reduced points would make again " + std::to_string(c.passes.instructions) +
                 " instructions of " + std::to_string(c.passes.recomputed.size()) +
                 " ops that earlier passes made and that never leave the kernel (limit " +
                 std::to_string(options_.maxRecompute) + ")";
      return c;
    }
    c.pass = passOf_[opIndex];
  }
  c.ok = true;
  c.reason = std::string(fusionKindName(c.kind));
  c.place = std::move(*placement);
  return c;
}

void Fuser::enterPass(Passes &s, int32_t gi, int32_t op, Placement placement, int32_t offered) {
  const LoopOp &o = p_.ops[op];
  const bool reduction = o.kind == LoopOpKind::Reduction;
  if (!reduction && placement != Placement::Full) {
    s.open = false; // once per row: the open pass ends here
    passOf_[op] = 0;
    return;
  }
  auto makes = [this](int32_t w, int32_t b) {
    for (int32_t x : writesOf(w))
      if (x == b)
        return true;
    return false;
  };
  if (s.open)
    for (int32_t b : readsOf(op))
      for (int32_t r : s.reductions)
        if (makes(r, b))
          s.open = false; // it needs a result of the open pass
  if (!s.open) {
    s.open = true;
    ++s.pass;
    s.reductions.clear();
    s.recomputed.clear();
    s.instructions = 0;
  }
  // A buffer stays inside the kernel unless the graph returns it or an op of another kernel read
  // it (later readers are not known yet: it is assumed to stay).
  auto leaves = [&](int32_t b) {
    if (p_.buffers[b].isOutput)
      return true;
    for (int32_t r : readersOf(b)) {
      if (r >= offered)
        break;
      if (opGroup_[r] != gi)
        return true;
    }
    return false;
  };
  std::vector<int32_t> work{op};
  while (!work.empty() && s.instructions <= options_.maxRecompute) {
    int32_t x = work.back();
    work.pop_back();
    for (int32_t b : readsOf(x)) {
      bool checked = false, left = false;
      for (int32_t w : writersOf(b)) {
        // Made again: a value at every reduced point of an earlier pass of this kernel.
        if (w >= x || opGroup_[w] != gi || passOf_[w] == 0 || passOf_[w] == s.pass ||
            std::find(s.recomputed.begin(), s.recomputed.end(), w) != s.recomputed.end())
          continue;
        if (!checked) {
          checked = true;
          left = leaves(b);
        }
        if (left)
          break; // stored where it is made, loaded here
        s.recomputed.push_back(w);
        s.instructions += p_.ops[w].body.size();
        work.push_back(w);
      }
    }
  }
  if (reduction)
    s.reductions.push_back(op);
  passOf_[op] = reduction ? 0 : s.pass;
}

int32_t Fuser::newGroup(int32_t op, bool isExtern) {
  Group g;
  g.ops.push_back(op);
  g.placements.push_back(Placement::Row);
  g.x = p_.ops[op].ranges;
  g.r = p_.ops[op].reductionRanges;
  g.isExtern = isExtern;
  g.minOp = g.maxOp = op;
  groups_.push_back(std::move(g));
  visitStamp_.push_back(0);
  int32_t id = static_cast<int32_t>(groups_.size() - 1);
  for (int32_t h : producerGroups(op))
    groups_[id].deps.push_back(h);
  opGroup_[op] = id;
  if (!isExtern && p_.ops[op].kind == LoopOpKind::Reduction)
    enterPass(groups_[id].passes, id, op, Placement::Row, op); // its first pass
  return id;
}

void Fuser::addToGroup(int32_t gi, int32_t op, Candidate &c) {
  std::vector<int32_t> producers = producerGroups(op);
  Group &g = groups_[gi];
  g.ops.push_back(op);
  g.placements = std::move(c.existing);
  g.placements.push_back(c.placement);
  g.x = std::move(c.x);
  g.r = std::move(c.r);
  if (!c.placesFromGroup)
    g.places = std::move(c.existingPlaces);
  g.places.push_back(std::move(c.place));
  g.passes = std::move(c.passes);
  passOf_[op] = c.pass;
  g.maxOp = std::max(g.maxOp, op);
  for (int32_t h : producers)
    if (h != gi && std::find(g.deps.begin(), g.deps.end(), h) == g.deps.end())
      g.deps.push_back(h);
  opGroup_[op] = gi;
}

/// Appends a number exactly and without printf (std::to_string of a double printed "%f": slow,
/// and 1e-7 read as 2e-7).
template <typename T> void appendNumber(std::string &s, T v) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  (void)ec; // 64 characters hold any double or integer
  s.append(buf, end);
}

void Fuser::appendExpr(std::string &s, const SymExpr &e) const {
  auto it = printed_.find(e);
  if (it == printed_.end()) {
    std::string text;
    e.print(text);
    it = printed_.emplace(e, std::move(text)).first;
  }
  s += it->second;
}

void Fuser::appendExprs(std::string &s, const std::vector<SymExpr> &r) const {
  appendList(s, r, ", ", [this](std::string &s, const SymExpr &e) { appendExpr(s, e); });
}

void Fuser::signatureOf(const Kernel &k, std::string &s) const {
  // Buffers become their role and position; everything else is spelled out. A kernel has few
  // buffers: a list searched in order.
  std::vector<int32_t> local;
  auto role = [&](std::string &s, int32_t b) {
    size_t i = std::find(local.begin(), local.end(), b) - local.begin();
    if (i == local.size())
      local.push_back(b);
    s += 'b';
    appendNumber(s, i);
    s += ':';
    s += dtypeShortName(p_.buffers[b].type.dtype);
  };
  // Appended piece by piece: no temporaries per instruction.
  s.clear();
  appendExprs(s, k.ranges);
  s += 'x';
  appendExprs(s, k.reductionRanges);
  s += ';';
  for (size_t i = 0; i < k.ops.size(); ++i) {
    const LoopOp &op = p_.ops[k.ops[i]];
    s += loopOpKindName(op.kind);
    s += '/';
    s += placementName(k.placements[i]);
    s += '/';
    s += reductionKindName(op.reduction);
    s += '/';
    if (op.kind == LoopOpKind::Scan) {
      s += scanKindName(op.scan);
      s += ':';
      s += dtypeShortName(op.accumulator);
      s += ':';
      appendNumber(s, op.reduced);
      s += '/';
    }
    appendNumber(s, op.correction);
    // What a reduction reduces, the dtype it combines in and its index output (argmax): two
    // reductions of one body may differ only here, and their code does.
    if (op.kind == LoopOpKind::Reduction) {
      s += 'r';
      appendNumber(s, op.reduced);
      s += ':';
      s += dtypeShortName(op.accumulator);
      s += ':';
      appendNumber(s, op.reducedIndex);
      s += '/';
    }
    appendExprs(s, op.ranges);
    appendExprs(s, op.reductionRanges);
    s += '{';
    for (const ScalarInstr &in : op.body) {
      s += scalarOpName(in.op);
      s += ':';
      s += dtypeShortName(in.dtype);
      if (in.op == ScalarOp::Load) {
        s += '(';
        role(s, in.buffer);
        s += ',';
        appendExpr(s, in.index);
        s += ')';
      } else if (in.op == ScalarOp::Constant) {
        s += '(';
        // Shortest exact form: "%f" merged kernels whose constants differ below 1e-6 into
        // one definition.
        appendNumber(s, in.constant);
        s += ',';
        appendNumber(s, in.intConstant);
        s += ')';
      } else if (in.op == ScalarOp::IndexValue) {
        s += '(';
        appendExpr(s, in.index);
        s += ')';
      } else if (in.op == ScalarOp::IndirectIndex) {
        s += '(';
        appendExpr(s, in.index);
        s += ',';
        appendNumber(s, in.constant);
        s += ',';
        appendNumber(s, in.intConstant);
        s += ')';
      }
      for (int32_t o : in.operands) {
        s += ',';
        appendNumber(s, o);
      }
      s += ';';
    }
    for (const Store &st : op.stores) {
      s += "store(";
      role(s, st.buffer);
      s += ',';
      appendExpr(s, st.index);
      s += ',';
      appendNumber(s, st.value);
      if (st.scatter)
        s += scatterCombineName(st.combine);
      s += ')';
    }
    s += '}';
  }
  for (int32_t b : k.internal) {
    s += "internal:";
    role(s, b);
  }
}

Kernel Fuser::makeKernel(Group &g) const {
  Kernel k;
  k.isExtern = g.isExtern;
  k.ops = std::move(g.ops);
  k.placements = std::move(g.placements);
  k.ranges = std::move(g.x);
  k.reductionRanges = std::move(g.r);
  std::vector<int32_t> written, read;
  auto addUnique = [](std::vector<int32_t> &v, int32_t b) {
    if (std::find(v.begin(), v.end(), b) == v.end())
      v.push_back(b);
  };
  for (int32_t o : k.ops) {
    for (int32_t b : writesOf(o))
      addUnique(written, b);
    for (int32_t b : readsOf(o))
      addUnique(read, b);
  }
  int32_t self = opGroup_[k.ops.front()];
  for (int32_t b : written) {
    bool inside = !p_.buffers[b].isOutput && !g.isExtern;
    for (int32_t r : readersOf(b))
      inside = inside && opGroup_[r] == self;
    for (int32_t w : writersOf(b))
      inside = inside && opGroup_[w] == self;
    (inside ? k.internal : k.outputs).push_back(b);
  }
  for (int32_t b : read)
    if (std::find(written.begin(), written.end(), b) == written.end())
      k.inputs.push_back(b);
  k.bytesRead = 0;
  k.bytesWritten = 0;
  for (int32_t b : k.inputs)
    k.bytesRead = symAdd(k.bytesRead, bytesOf(b));
  for (int32_t b : k.outputs)
    k.bytesWritten = symAdd(k.bytesWritten, bytesOf(b));
  return k;
}

Expected<FusedProgram> Fuser::run() {
  size_t nOps = p_.ops.size();
  opGroup_.assign(nOps, -1);
  readsStart_.assign(1, 0);
  writesStart_.assign(1, 0);
  readsStart_.reserve(nOps + 1);
  writesStart_.reserve(nOps + 1);
  reads_.reserve(2 * nOps);
  writes_.reserve(nOps);
  // Distinct buffers in first-access order, as reads() and writes() list them.
  auto addDistinct = [](std::vector<int32_t> &all, size_t start, int32_t b) {
    if (b >= 0 &&
        std::find(all.begin() + static_cast<std::ptrdiff_t>(start), all.end(), b) == all.end())
      all.push_back(b);
  };
  size_t nBuffers = p_.buffers.size();
  bytes_.assign(nBuffers, SymExpr());
  haveBytes_.assign(nBuffers, false);
  writerStart_.assign(nBuffers + 1, 0);
  readerStart_.assign(nBuffers + 1, 0);
  for (size_t i = 0; i < nOps; ++i) {
    const LoopOp &op = p_.ops[i];
    size_t r0 = reads_.size(), w0 = writes_.size();
    for (const ScalarInstr &in : op.body)
      if (in.op == ScalarOp::Load)
        addDistinct(reads_, r0, in.buffer);
    for (const BufferView &v : op.externInputs)
      addDistinct(reads_, r0, v.buffer);
    for (const Store &st : op.stores) {
      addDistinct(writes_, w0, st.buffer);
      if (st.scatter) // after the op that made the buffer: a read of what it holds
        addDistinct(reads_, r0, st.buffer);
    }
    for (int32_t b : op.externOutputs)
      addDistinct(writes_, w0, b);
    readsStart_.push_back(reads_.size());
    writesStart_.push_back(writes_.size());
    for (int32_t b : writesOf(static_cast<int32_t>(i)))
      ++writerStart_[b + 1];
    for (int32_t b : readsOf(static_cast<int32_t>(i)))
      ++readerStart_[b + 1];
  }
  // Counts to starts, then each op appended in op order.
  for (size_t b = 0; b < nBuffers; ++b) {
    writerStart_[b + 1] += writerStart_[b];
    readerStart_[b + 1] += readerStart_[b];
  }
  writerOps_.resize(writerStart_[nBuffers]);
  readerOps_.resize(readerStart_[nBuffers]);
  std::vector<size_t> nextWriter(writerStart_.begin(), writerStart_.end() - 1);
  std::vector<size_t> nextReader(readerStart_.begin(), readerStart_.end() - 1);
  for (size_t i = 0; i < nOps; ++i) {
    for (int32_t b : writesOf(static_cast<int32_t>(i)))
      writerOps_[nextWriter[b]++] = static_cast<int32_t>(i);
    for (int32_t b : readsOf(static_cast<int32_t>(i)))
      readerOps_[nextReader[b]++] = static_cast<int32_t>(i);
  }
  // Reserved: growing these moves every group, decision and kernel made so far.
  groups_.reserve(nOps);
  visitStamp_.reserve(nOps);
  producerMark_.assign(nOps, 0);
  passOf_.assign(nOps, 0);
  out_.decisions.reserve(nOps);
  for (size_t i = 0; i < nOps; ++i) {
    if (options_.interrupt && *options_.interrupt)
      return Error("interrupted after " + std::to_string(i) + " of " + std::to_string(nOps) +
                   " loop ops");
    int32_t op = static_cast<int32_t>(i);
    const LoopOp &lop = p_.ops[i];
    if (lop.kind == LoopOpKind::Extern || !options_.enable) {
      newGroup(op, lop.kind == LoopOpKind::Extern);
      continue;
    }
    // Candidates: producers first (vertical; the first maxProducerCandidates in read order),
    // then recent readers of the same buffers.
    producers_ = producerGroups(op);
    producersStamp_ = producerStamp_;
    std::vector<int32_t> candidates(
        producers_.begin(),
        producers_.begin() + static_cast<std::ptrdiff_t>(
                                 std::min(producers_.size(), options_.maxProducerCandidates)));
    std::vector<int32_t> horizontal;
    // Readers are listed in op order: only those before `op` are walked, newest first, and the
    // walk ends when the candidates are full (a buffer read by thousands of ops made this
    // quadratic).
    for (int32_t b : readsOf(op)) {
      std::span<const int32_t> readers = readersOf(b);
      auto end = std::lower_bound(readers.begin(), readers.end(), op);
      for (auto it = end; it != readers.begin() && horizontal.size() < options_.maxCandidates;) {
        --it;
        if (opGroup_[*it] >= 0 &&
            producerMark_[opGroup_[*it]] != producersStamp_ && // not a producer
            std::find(horizontal.begin(), horizontal.end(), opGroup_[*it]) == horizontal.end())
          horizontal.push_back(opGroup_[*it]);
      }
    }
    candidates.insert(candidates.end(), horizontal.begin(), horizontal.end());
    int32_t best = -1;
    size_t bestDecision = 0;
    Candidate bestCandidate;
    int64_t bestSaved = -1;
    std::vector<size_t> legal;
    for (int32_t g : candidates) {
      Candidate c = consider(g, op);
      // The reason moves into the decision: a candidate taken keeps only its placements.
      out_.decisions.push_back({c.kind, lop.name, p_.ops[groups_[g].ops.front()].name, false,
                                std::move(c.reason), c.bytesSaved});
      if (!c.ok)
        continue;
      legal.push_back(out_.decisions.size() - 1);
      int64_t saved = symHint(c.bytesSaved);
      if (saved > bestSaved) {
        best = g;
        bestDecision = out_.decisions.size() - 1;
        bestCandidate = std::move(c);
        bestSaved = saved;
      }
    }
    for (size_t d : legal) {
      out_.decisions[d].fused = d == bestDecision;
      if (d != bestDecision)
        out_.decisions[d].reason += ": legal, but another kernel saves more traffic";
    }
    if (best >= 0)
      addToGroup(best, op, bestCandidate);
    else
      newGroup(op, false);
  }

  // Kernels in a topological order of their groups (earliest first op first).
  size_t nGroups = groups_.size();
  // Each group's users, as one list: group d's are [userStart[d], userStart[d + 1]).
  std::vector<size_t> userStart(nGroups + 1, 0);
  std::vector<int32_t> pending(nGroups, 0);
  for (size_t g = 0; g < nGroups; ++g)
    for (int32_t d : groups_[g].deps) {
      ++userStart[d + 1];
      ++pending[g];
    }
  for (size_t g = 0; g < nGroups; ++g)
    userStart[g + 1] += userStart[g];
  std::vector<int32_t> users(userStart[nGroups]);
  {
    std::vector<size_t> next(userStart.begin(), userStart.end() - 1);
    for (size_t g = 0; g < nGroups; ++g)
      for (int32_t d : groups_[g].deps)
        users[next[d]++] = static_cast<int32_t>(g);
  }
  using Item = std::pair<int32_t, int32_t>; // (first op, group)
  std::priority_queue<Item, std::vector<Item>, std::greater<>> ready;
  for (size_t g = 0; g < nGroups; ++g)
    if (pending[g] == 0)
      ready.push({groups_[g].ops.front(), static_cast<int32_t>(g)});
  std::vector<int32_t> order;
  while (!ready.empty()) {
    int32_t g = ready.top().second;
    ready.pop();
    order.push_back(g);
    for (size_t i = userStart[g]; i < userStart[g + 1]; ++i)
      if (int32_t u = users[i]; --pending[u] == 0)
        ready.push({groups_[u].ops.front(), u});
  }
  if (order.size() != nGroups)
    return Error("fusion made a cycle between kernels (internal error)");

  // Hashed: signatures are long and share long prefixes, so ordered comparisons were slow.
  std::unordered_map<std::string, std::string> names; // signature -> kernel name
  std::string signature;
  out_.kernels.reserve(order.size());
  for (int32_t g : order) {
    Kernel k = makeKernel(groups_[g]);
    if (k.isExtern) {
      k.name = p_.ops[k.ops.front()].originOps.front();
    } else {
      signatureOf(k, signature);
      k.signature = signature;
      auto it = names.find(k.signature);
      if (it != names.end()) {
        k.name = it->second;
      } else {
        std::vector<std::string> parts;
        for (int32_t o : k.ops)
          for (const std::string &name : p_.ops[o].originOps)
            if (std::find(parts.begin(), parts.end(), name) == parts.end() && parts.size() < 4)
              parts.push_back(name);
        k.name = "fused";
        for (const std::string &part : parts)
          k.name += "_" + part;
        k.name += "_" + std::to_string(names.size());
        names[k.signature] = k.name;
      }
    }
    out_.kernels.push_back(std::move(k));
  }
  if (options_.enable)
    markGemmEpilogues();
  return std::move(out_);
}

void Fuser::markGemmEpilogues() {
  std::vector<Kernel> &ks = out_.kernels;
  for (size_t e = 0; e + 1 < ks.size(); ++e) {
    const LoopOp &product = p_.ops[ks[e].ops.front()];
    if (!ks[e].isExtern || !isTemplateProduct(p_, product))
      continue;
    const int32_t c = product.externOutputs[0];
    // The first generated kernel reading the result: only the next one can be its epilogue.
    for (size_t k = e + 1; k < ks.size(); ++k) {
      if (ks[k].isExtern ||
          std::find(ks[k].inputs.begin(), ks[k].inputs.end(), c) == ks[k].inputs.end())
        continue;
      std::string reason = k == e + 1 ? gemmEpilogueRefusal(p_, ks[k], c)
                                      : "another kernel runs between the product and it";
      const bool fused = reason.empty();
      if (fused)
        reason = "runs at each element of " + p_.buffers[c].name +
                 " as the GEMM template stores it (where a template computes the product)";
      ks[k].gemmEpilogueOf = fused ? c : -1;
      out_.decisions.push_back({FusionKind::GemmEpilogue, p_.ops[ks[k].ops.front()].name,
                                product.name, fused, std::move(reason), bytesOf(c)});
      break;
    }
  }
}

} // namespace

Expected<FusedProgram> fuseLoopProgram(const LoopProgram &program, const FusionOptions &options) {
  return Fuser(program, options).run();
}

} // namespace fxkit
