#include "transforms/MemoryPlanning.h"

#include "ir/ops/ShapeRules.h"
#include "transforms/ArenaPlanner.h"

#include <algorithm>
#include <map>
#include <optional>
#include <queue>
#include <sstream>
#include <unordered_map>

namespace fxkit {

using namespace loop;
using Kind = BufferPlacement::Kind;

namespace {

// ---------------------------------------------------------------------------------------------
// Liveness.
// ---------------------------------------------------------------------------------------------

/// What the kernels do with one buffer, in schedule positions.
struct Usage {
  int32_t firstWrite = -1; ///< first kernel that writes it
  int32_t firstRead = -1;  ///< first kernel that reads it
  int32_t last = -1;       ///< last kernel that reads or writes it
  bool internal = false;   ///< some kernel keeps it internal
};

/// Usage of every buffer, checking that kernels name only ops and buffers the program has.
Expected<std::vector<Usage>> usageOf(const LoopProgram &p, const FusedProgram &f) {
  std::vector<Usage> usage(p.buffers.size());
  auto inRange = [&](int32_t b) { return b >= 0 && static_cast<size_t>(b) < p.buffers.size(); };
  for (size_t ki = 0; ki < f.kernels.size(); ++ki) {
    const Kernel &k = f.kernels[ki];
    const auto t = static_cast<int32_t>(ki);
    for (int32_t o : k.ops) {
      if (o < 0 || static_cast<size_t>(o) >= p.ops.size())
        return Error("kernel " + k.name + " names loop op " + std::to_string(o) +
                     ", which the program lacks");
      const LoopOp &op = p.ops[o];
      // The buffers of writes() and reads(), visited in place (those build a list per op).
      // An extern op's non-tensor results are -1: nothing to allocate.
      auto write = [&](int32_t b) -> Status {
        if (b < 0)
          return Status::ok();
        if (!inRange(b))
          return Error("op " + op.name + " writes buffer " + std::to_string(b) +
                       ", which the program lacks");
        if (usage[b].firstWrite < 0)
          usage[b].firstWrite = t;
        usage[b].last = std::max(usage[b].last, t);
        return Status::ok();
      };
      auto read = [&](int32_t b) -> Status {
        if (b < 0)
          return Status::ok();
        if (!inRange(b))
          return Error("op " + op.name + " reads buffer " + std::to_string(b) +
                       ", which the program lacks");
        if (usage[b].firstRead < 0)
          usage[b].firstRead = t;
        usage[b].last = std::max(usage[b].last, t);
        return Status::ok();
      };
      for (const Store &s : op.stores)
        if (Status st = write(s.buffer); !st)
          return st.takeError();
      for (int32_t b : op.externOutputs)
        if (Status st = write(b); !st)
          return st.takeError();
      for (const ScalarInstr &in : op.body)
        if (in.op == ScalarOp::Load)
          if (Status st = read(in.buffer); !st)
            return st.takeError();
      for (const BufferView &v : op.externInputs)
        if (Status st = read(v.buffer); !st)
          return st.takeError();
    }
    for (int32_t b : k.internal) {
      if (!inRange(b))
        return Error("kernel " + k.name + " keeps buffer " + std::to_string(b) +
                     " internal, which the program lacks");
      usage[b].internal = true;
    }
  }
  return usage;
}

/// Whether the program allocates `b`: a kernel writes it, and it leaves that kernel.
bool isAllocated(const Buffer &b, const Usage &u) {
  return !b.isInput && u.firstWrite >= 0 && !u.internal;
}

bool isAllocatedKind(Kind k) {
  return k == Kind::Pool || k == Kind::InPlace || k == Kind::Own || k == Kind::Unbacked;
}

/// Buffer::storageBytes, computed once per distinct layout (dtype, sizes, strides): the
/// buffers of a repeated block share a few layouts, and the symbolic arithmetic per buffer was
/// a sixth of planning.
class StorageBytes {
public:
  const SymExpr &of(const Buffer &b) {
    auto it = memo_.find(&b);
    if (it == memo_.end())
      it = memo_.emplace(&b, b.storageBytes()).first;
    return it->second;
  }

private:
  struct Hash {
    size_t operator()(const Buffer *b) const {
      size_t h = static_cast<size_t>(b->type.dtype);
      for (const SymExpr &e : b->type.sizes)
        h = h * 1000003 ^ e.hash();
      for (const SymExpr &e : b->type.strides)
        h = h * 1000003 ^ e.hash();
      return h;
    }
  };
  struct SameLayout {
    bool operator()(const Buffer *a, const Buffer *b) const {
      return a->type.dtype == b->type.dtype && a->type.sizes == b->type.sizes &&
             a->type.strides == b->type.strides;
    }
  };
  std::unordered_map<const Buffer *, SymExpr, Hash, SameLayout> memo_;
};

Status validatePlan(const LoopProgram &program, const FusedProgram &fused, const MemoryPlan &plan,
                    const std::vector<Usage> &usage, StorageBytes &bytes);

// ---------------------------------------------------------------------------------------------
// In place.
// ---------------------------------------------------------------------------------------------

using VarMap = std::map<std::string, SymExpr, std::less<>>;

bool sameRanges(const std::vector<SymExpr> &a, const std::vector<SymExpr> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!symEq(a[i], b[i]))
      return false;
  return true;
}

/// Renaming of `op`'s variables into its kernel's (x0.. rows, r0.. reduced) when the op spans
/// the kernel's dimensions as they are: Row (ranges == X, a reduction's reductionRanges == R)
/// or Full (ranges == X ++ R, so its x{n+j} is the kernel's r{j}). Ops whose dimensions group
/// the kernel's (or Flat ones) get nullopt: comparing their indices would need fusion's
/// unflattening, so in place then needs the load and the store in one op.
std::optional<VarMap> kernelCoordinates(const LoopOp &op, Placement placement, const Kernel &k) {
  VarMap map;
  if (placement == Placement::Row && sameRanges(op.ranges, k.ranges) &&
      ((op.kind != LoopOpKind::Reduction && op.kind != LoopOpKind::Scan) ||
       sameRanges(op.reductionRanges, k.reductionRanges)))
    return map;
  if (placement == Placement::Full &&
      op.ranges.size() == k.ranges.size() + k.reductionRanges.size()) {
    std::vector<SymExpr> full = k.ranges;
    full.insert(full.end(), k.reductionRanges.begin(), k.reductionRanges.end());
    if (!sameRanges(op.ranges, full))
      return std::nullopt;
    for (size_t j = 0; j < k.reductionRanges.size(); ++j)
      map[loopVarName(false, k.ranges.size() + j)] = loopVar(true, j);
    return map;
  }
  return std::nullopt;
}

SymExpr inKernel(const SymExpr &index, const VarMap &map) {
  return map.empty() ? index : index.substitute(map).simplify();
}

/// Whether generated kernel `k` may store `b` over `a` (an input of it of equal size and
/// dtype that dies in it). Sound when `b` has one store in the kernel and every load of `a`
/// reads the element that store writes at the same kernel point, in the writing op or in an
/// op before it: a kernel runs its ops in order within a row (all of an op's points before the
/// next op), and a store index is one-to-one, so each element of `a` is read before `b`
/// overwrites it and never after. This is Inductor's rule (a read dependency with the index of
/// the single write) carried over kernels made of several loop ops.
bool storesOver(const LoopProgram &p, const Kernel &k, int32_t a, int32_t b) {
  int writer = -1;
  const Store *store = nullptr;
  for (size_t i = 0; i < k.ops.size(); ++i)
    for (const Store &s : p.ops[k.ops[i]].stores)
      if (s.buffer == b) {
        if (store)
          return false; // several stores: no single point where an element changes hands
        writer = static_cast<int>(i);
        store = &s;
      }
  if (!store)
    return false;
  const LoopOp &writerOp = p.ops[k.ops[writer]];
  std::optional<VarMap> writerVars = kernelCoordinates(writerOp, k.placements[writer], k);
  std::optional<SymExpr> written;
  if (writerVars)
    written = inKernel(store->index, *writerVars);
  bool loaded = false;
  for (size_t i = 0; i < k.ops.size(); ++i) {
    const LoopOp &op = p.ops[k.ops[i]];
    std::optional<VarMap> vars;
    bool varsDone = false;
    for (const ScalarInstr &in : op.body) {
      if (in.op != ScalarOp::Load || in.buffer != a)
        continue;
      loaded = true;
      // A load after the op that overwrites the element would see the new value.
      if (static_cast<int>(i) > writer)
        return false;
      if (static_cast<int>(i) == writer) {
        if (!symEq(in.index, store->index))
          return false;
        continue;
      }
      if (!varsDone) {
        vars = kernelCoordinates(op, k.placements[i], k);
        varsDone = true;
      }
      if (!vars || !written || !symEq(inKernel(in.index, *vars), *written))
        return false;
    }
  }
  return loaded;
}

// ---------------------------------------------------------------------------------------------
// Planning.
// ---------------------------------------------------------------------------------------------

/// The buffer whose storage `b` ends up in, following in-place links (and reuse links when
/// `followReuse`); -1 for a cycle (a corrupted plan).
int32_t storageRoot(const MemoryPlan &plan, int32_t b, bool followReuse) {
  for (size_t steps = 0; steps <= plan.buffers.size(); ++steps) {
    const BufferPlacement &pl = plan.buffers[b];
    int32_t next = -1;
    if (pl.kind == Kind::InPlace)
      next = pl.inPlaceOf;
    else if (followReuse && pl.kind == Kind::Own)
      next = pl.reuseOf;
    if (next < 0 || static_cast<size_t>(next) >= plan.buffers.size())
      return b;
    b = next;
  }
  return -1;
}

/// One lifetime per storage (root of the links), at the size hint for symbolic sizes.
std::vector<BufferLifetime> storageLifetimes(const MemoryPlan &plan, bool followReuse) {
  std::map<int32_t, BufferLifetime> byRoot;
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    const BufferPlacement &pl = plan.buffers[i];
    if (!isAllocatedKind(pl.kind) || pl.kind == Kind::Unbacked)
      continue;
    int32_t root = storageRoot(plan, static_cast<int32_t>(i), followReuse);
    auto [it, fresh] = byRoot.try_emplace(root);
    BufferLifetime &l = it->second;
    if (fresh) {
      l.id = root;
      l.lower = pl.firstKernel;
      l.upper = pl.lastKernel + 1;
      l.size = symHint(plan.buffers[root].bytes);
      continue;
    }
    l.lower = std::min<int64_t>(l.lower, pl.firstKernel);
    l.upper = std::max<int64_t>(l.upper, pl.lastKernel + 1);
  }
  std::vector<BufferLifetime> out;
  for (auto &[root, l] : byRoot)
    out.push_back(l);
  return out;
}

/// Whether `conflict` holds for some two of `buffers` that share bytes of storage: `extent`
/// gives a buffer's [begin, end) in its storage. A sweep over kernels with the live buffers
/// ordered by offset, O(n log n) where comparing all pairs that overlap in the pool is
/// quadratic (thousands of buffers take the same few offsets at different times). Exact: two
/// buffers both live meet when the later one starts, and the live set stays pairwise disjoint
/// or identical (`conflict` exempts only an in-place pair, and the link checks before it have
/// put such a pair at one offset with one size), so scanning down from the new buffer's end
/// stops at the first buffer that ends before it begins.
template <class Extent, class Conflict>
bool anyConflict(const MemoryPlan &plan, std::vector<int32_t> buffers, const Extent &extent,
                 const Conflict &conflict) {
  std::sort(buffers.begin(), buffers.end(), [&](int32_t x, int32_t y) {
    return plan.buffers[x].firstKernel < plan.buffers[y].firstKernel;
  });
  using Live = std::multimap<int64_t, int32_t>; // begin -> buffer
  Live live;
  std::vector<Live::iterator> entry(buffers.size()); // by position in `buffers`
  using Ending = std::pair<int32_t, size_t>;         // (last kernel, position)
  std::priority_queue<Ending, std::vector<Ending>, std::greater<>> endings;
  for (size_t i = 0; i < buffers.size(); ++i) {
    int32_t b = buffers[i];
    const BufferPlacement &pl = plan.buffers[b];
    while (!endings.empty() && endings.top().first < pl.firstKernel) {
      live.erase(entry[endings.top().second]);
      endings.pop();
    }
    auto [begin, end] = extent(b);
    for (auto it = live.lower_bound(end); it != live.begin();) {
      --it;
      if (extent(it->second).second <= begin)
        break;
      if (conflict(it->second, b))
        return true;
    }
    entry[i] = live.emplace(begin, b);
    endings.push({pl.lastKernel, i});
  }
  return false;
}

} // namespace

Expected<MemoryPlan> planMemory(const LoopProgram &program, const FusedProgram &fused,
                                const MemoryPlanOptions &options) {
  auto usageOr = usageOf(program, fused);
  if (!usageOr)
    return usageOr.takeError();
  const std::vector<Usage> &usage = *usageOr;
  const auto numKernels = static_cast<int32_t>(fused.kernels.size());
  StorageBytes storageBytes;

  MemoryPlan plan;
  plan.buffers.resize(program.buffers.size());
  plan.freedAfter.assign(fused.kernels.size(), {});
  std::vector<int32_t> allocated;
  // Buffers sized by a symbol an extern op binds mid-run: allocated when it is bound.
  std::vector<int32_t> unbacked;
  const std::vector<std::string> unbackedSymbols = program.unbackedSymbols();
  for (size_t i = 0; i < program.buffers.size(); ++i) {
    const Buffer &b = program.buffers[i];
    const Usage &u = usage[i];
    BufferPlacement &pl = plan.buffers[i];
    pl.bytes = storageBytes.of(b);
    if (b.isInput) {
      pl.kind = Kind::Input;
      continue;
    }
    if (u.firstRead >= 0 && (u.firstWrite < 0 || u.firstRead < u.firstWrite))
      return Error("buffer " + b.name + " is read by kernel " + fused.kernels[u.firstRead].name +
                   " before any kernel writes it");
    // Internal buffers live in registers of their kernel; a buffer no kernel touches is dead.
    if (!isAllocated(b, u)) {
      pl.kind = Kind::Internal;
      continue;
    }
    pl.kind = Kind::Pool;
    pl.firstKernel = u.firstWrite;
    pl.lastKernel = b.isOutput ? numKernels : u.last;
    if (LoopProgram::mentionsAny(pl.bytes, unbackedSymbols)) {
      pl.kind = Kind::Unbacked;
      unbacked.push_back(static_cast<int32_t>(i));
      continue;
    }
    allocated.push_back(static_cast<int32_t>(i));
    if (!pl.bytes.isConstant())
      plan.symbolic = true;
  }

  // In place: kernel by kernel, each output first written there may take one dying input.
  std::vector<bool> handedOver(program.buffers.size(), false);
  if (options.inPlace) {
    for (int32_t ki = 0; ki < numKernels; ++ki) {
      const Kernel &k = fused.kernels[ki];
      if (k.isExtern)
        continue;
      for (int32_t b : k.outputs) {
        const BufferPlacement &bp = plan.buffers[b];
        if (!isAllocatedKind(bp.kind) || bp.kind == Kind::Unbacked || bp.firstKernel != ki)
          continue;
        for (int32_t a : k.inputs) {
          const BufferPlacement &ap = plan.buffers[a];
          const Buffer &ab = program.buffers[a];
          if (!isAllocatedKind(ap.kind) || ap.kind == Kind::Unbacked || ab.isOutput ||
              ap.lastKernel != ki || handedOver[a] ||
              ab.type.dtype != program.buffers[b].type.dtype || !symEq(ap.bytes, bp.bytes) ||
              !storesOver(program, k, a, b))
            continue;
          plan.buffers[b].kind = Kind::InPlace;
          plan.buffers[b].inPlaceOf = a;
          handedOver[a] = true;
          break;
        }
      }
    }
  }

  // Storage released after each kernel: not outputs, not handed over to an in-place result.
  for (int32_t b : allocated) {
    const BufferPlacement &pl = plan.buffers[b];
    if (!program.buffers[b].isOutput && !handedOver[b])
      plan.freedAfter[pl.lastKernel].push_back(b);
  }
  for (int32_t b : unbacked)
    if (!program.buffers[b].isOutput)
      plan.freedAfter[plan.buffers[b].lastKernel].push_back(b);

  for (int32_t b : allocated)
    plan.unplannedBytes += symHint(plan.buffers[b].bytes);

  if (!plan.symbolic) {
    std::vector<BufferLifetime> lifetimes = storageLifetimes(plan, false);
    ArenaPlanOptions arena;
    arena.timeLimitSeconds = options.timeLimitSeconds;
    arena.maxSearchNodes = options.maxSearchNodes;
    arena.alignment = options.alignment;
    auto arenaPlan = planArena(lifetimes, arena);
    if (!arenaPlan)
      return arenaPlan.takeError();
    if (Status s = validateArenaPlan(lifetimes, *arenaPlan, std::nullopt, options.alignment); !s)
      return Error("internal error: the pool plan fails validation: " + s.error().message);
    std::map<int32_t, int64_t> offsetOfRoot;
    for (size_t i = 0; i < lifetimes.size(); ++i)
      offsetOfRoot[static_cast<int32_t>(lifetimes[i].id)] = arenaPlan->offsets[i];
    for (int32_t b : allocated)
      plan.buffers[b].offset = offsetOfRoot.at(storageRoot(plan, b, false));
    plan.poolBytes = arenaPlan->poolSize;
    plan.lowerBound = liveBytesLowerBound(lifetimes);
  } else {
    // Own allocations. Before kernel k runs, each buffer it first writes (not in place) takes
    // the most recently freed allocation of equal size and dtype, as Inductor's wrapper pops
    // its reuse pool; storage freed after kernel k is offered from kernel k + 1 on.
    std::vector<int32_t> freePool;
    size_t next = 0; // allocated is in buffer order; visit it in first-kernel order
    std::vector<int32_t> byFirst = allocated;
    std::stable_sort(byFirst.begin(), byFirst.end(), [&](int32_t x, int32_t y) {
      return plan.buffers[x].firstKernel < plan.buffers[y].firstKernel;
    });
    for (int32_t ki = 0; ki < numKernels; ++ki) {
      for (; next < byFirst.size() && plan.buffers[byFirst[next]].firstKernel == ki; ++next) {
        int32_t b = byFirst[next];
        BufferPlacement &pl = plan.buffers[b];
        if (pl.kind == Kind::InPlace)
          continue;
        pl.kind = Kind::Own;
        if (!options.reuse)
          continue;
        for (auto it = freePool.rbegin(); it != freePool.rend(); ++it) {
          const BufferPlacement &freed = plan.buffers[*it];
          if (program.buffers[*it].type.dtype == program.buffers[b].type.dtype &&
              symEq(freed.bytes, pl.bytes)) {
            pl.reuseOf = *it;
            freePool.erase(std::next(it).base());
            break;
          }
        }
      }
      freePool.insert(freePool.end(), plan.freedAfter[ki].begin(), plan.freedAfter[ki].end());
    }
    std::vector<BufferLifetime> held = storageLifetimes(plan, true);
    plan.poolBytes = liveBytesLowerBound(held);
    plan.lowerBound = liveBytesLowerBound(storageLifetimes(plan, false));
  }

  // The usage and sizes computed above, not again.
  if (Status s = validatePlan(program, fused, plan, usage, storageBytes); !s)
    return Error("internal error: the memory plan fails validation: " + s.error().message);
  return plan;
}

// ---------------------------------------------------------------------------------------------
// Validation.
// ---------------------------------------------------------------------------------------------

Status validateMemoryPlan(const LoopProgram &program, const FusedProgram &fused,
                          const MemoryPlan &plan) {
  if (plan.buffers.size() != program.buffers.size() ||
      plan.freedAfter.size() != fused.kernels.size()) {
    std::vector<Usage> none;
    StorageBytes bytes;
    return validatePlan(program, fused, plan, none, bytes); // says which count is wrong
  }
  auto usageOr = usageOf(program, fused);
  if (!usageOr)
    return usageOr.takeError();
  StorageBytes bytes;
  return validatePlan(program, fused, plan, *usageOr, bytes);
}

namespace {

Status validatePlan(const LoopProgram &program, const FusedProgram &fused, const MemoryPlan &plan,
                    const std::vector<Usage> &usage, StorageBytes &storageBytes) {
  auto fail = [](std::string message) { return Status(Error(std::move(message))); };
  const size_t n = program.buffers.size();
  const auto numKernels = static_cast<int32_t>(fused.kernels.size());
  if (plan.buffers.size() != n)
    return fail("the plan has " + std::to_string(plan.buffers.size()) + " buffers, the program " +
                std::to_string(n));
  if (plan.freedAfter.size() != fused.kernels.size())
    return fail("freedAfter has " + std::to_string(plan.freedAfter.size()) + " entries for " +
                std::to_string(numKernels) + " kernels");
  auto name = [&](int32_t b) { return program.buffers[b].name; };
  auto valid = [&](int32_t b) { return b >= 0 && static_cast<size_t>(b) < n; };
  const std::vector<std::string> unbacked = program.unbackedSymbols();

  // Kinds and lifetimes against what the kernels do.
  for (size_t i = 0; i < n; ++i) {
    const auto b = static_cast<int32_t>(i);
    const Buffer &buf = program.buffers[i];
    const Usage &u = usage[i];
    const BufferPlacement &pl = plan.buffers[i];
    if (buf.isInput) {
      if (pl.kind != Kind::Input)
        return fail(name(b) + " is a graph input but is planned as allocated or internal");
      continue;
    }
    if (!isAllocated(buf, u)) {
      if (pl.kind != Kind::Internal)
        return fail(name(b) + " never leaves its kernel but is not planned as internal");
      continue;
    }
    if (!isAllocatedKind(pl.kind))
      return fail(name(b) + " is written by kernel " + fused.kernels[u.firstWrite].name +
                  " and leaves it, but is not allocated");
    if ((pl.kind == Kind::Unbacked) != LoopProgram::mentionsAny(storageBytes.of(buf), unbacked))
      return fail(name(b) + (pl.kind == Kind::Unbacked
                                 ? " is planned as sized by an unbacked symbol, but is not"
                                 : " is sized by an unbacked symbol, but is planned before the "
                                   "run"));
    if (plan.symbolic ? pl.kind == Kind::Pool : pl.kind == Kind::Own)
      return fail(name(b) + (plan.symbolic ? " is in a pool, but the plan is symbolic"
                                           : " has its own allocation, but the plan is a pool"));
    if (!symEq(pl.bytes, storageBytes.of(buf)))
      return fail(name(b) + " is planned with " + pl.bytes.str() + " bytes, its storage has " +
                  storageBytes.of(buf).str());
    if (pl.firstKernel < 0 || pl.firstKernel > u.firstWrite ||
        (u.firstRead >= 0 && u.firstRead < pl.firstKernel))
      return fail(
          name(b) + " is used at kernel " +
          std::to_string(u.firstRead >= 0 ? std::min(u.firstRead, u.firstWrite) : u.firstWrite) +
          " but planned from kernel " + std::to_string(pl.firstKernel));
    if (pl.lastKernel < u.last || pl.lastKernel > numKernels)
      return fail(name(b) + " is used until kernel " + std::to_string(u.last) +
                  " but planned until kernel " + std::to_string(pl.lastKernel));
    if (buf.isOutput && pl.lastKernel != numKernels)
      return fail(name(b) + " is a graph output but dies after kernel " +
                  std::to_string(pl.lastKernel));
    if (!plan.symbolic && pl.kind != Kind::Unbacked) {
      if (!pl.bytes.isConstant())
        return fail(name(b) + " has a symbolic size in a pool");
      if (pl.offset < 0 || pl.offset + pl.bytes.constant() > plan.poolBytes)
        return fail(name(b) + " at [" + std::to_string(pl.offset) + ", " +
                    std::to_string(pl.offset + pl.bytes.constant()) +
                    ") lies outside the pool of " + std::to_string(plan.poolBytes) + " bytes");
    }
  }

  // Links: in-place hand-overs and reuse of freed allocations.
  std::vector<int32_t> handedTo(n, -1);
  for (size_t i = 0; i < n; ++i) {
    const auto b = static_cast<int32_t>(i);
    const BufferPlacement &pl = plan.buffers[i];
    if (pl.kind == Kind::InPlace) {
      int32_t a = pl.inPlaceOf;
      if (!valid(a) || a == b || !isAllocatedKind(plan.buffers[a].kind) ||
          plan.buffers[a].kind == Kind::Unbacked)
        return fail(name(b) + " is in place of " + std::to_string(a) +
                    ", which is not an allocated buffer of a size known before the run");
      const BufferPlacement &ap = plan.buffers[a];
      if (handedTo[a] >= 0)
        return fail(name(a) + " is handed over in place to both " + name(handedTo[a]) + " and " +
                    name(b));
      handedTo[a] = b;
      if (program.buffers[a].isOutput)
        return fail(name(b) + " is in place of the graph output " + name(a));
      if (program.buffers[a].type.dtype != program.buffers[b].type.dtype ||
          !symEq(ap.bytes, pl.bytes))
        return fail(name(b) + " is in place of " + name(a) + " of another size or dtype");
      int32_t k = pl.firstKernel;
      const Kernel &kernel = fused.kernels[k];
      auto contains = [](const std::vector<int32_t> &v, int32_t x) {
        return std::find(v.begin(), v.end(), x) != v.end();
      };
      if (ap.lastKernel != k || kernel.isExtern || !contains(kernel.inputs, a) ||
          !contains(kernel.outputs, b))
        return fail(name(b) + " is in place of " + name(a) + ", but kernel " + kernel.name +
                    " does not hand " + name(a) + " over (it must be a generated kernel that " +
                    "reads " + name(a) + " last and writes " + name(b) + " first)");
      if (!plan.symbolic && ap.offset != pl.offset)
        return fail(name(b) + " is in place of " + name(a) + " at another offset");
    } else if (pl.inPlaceOf >= 0) {
      return fail(name(b) + " names an in-place source but is not in place");
    }
    if (pl.kind == Kind::Own && pl.reuseOf >= 0) {
      int32_t a = pl.reuseOf;
      if (!valid(a) || a == b || !isAllocatedKind(plan.buffers[a].kind) ||
          plan.buffers[a].kind == Kind::Unbacked)
        return fail(name(b) + " reuses " + std::to_string(a) +
                    ", which is not allocated before the run");
      const BufferPlacement &ap = plan.buffers[a];
      if (program.buffers[a].isOutput || ap.lastKernel >= pl.firstKernel)
        return fail(name(b) + " reuses " + name(a) + ", which is still live at kernel " +
                    std::to_string(pl.firstKernel));
      if (program.buffers[a].type.dtype != program.buffers[b].type.dtype ||
          !symEq(ap.bytes, pl.bytes))
        return fail(name(b) + " reuses " + name(a) + " of another size or dtype");
    } else if (pl.reuseOf >= 0) {
      return fail(name(b) + " names a reused buffer but is not its own allocation");
    }
  }

  // Storage shared at one kernel: only an in-place pair, in the kernel that hands over.
  auto conflict = [&](int32_t x, int32_t y) -> std::optional<std::string> {
    const BufferPlacement &px = plan.buffers[x], &py = plan.buffers[y];
    int32_t from = std::max(px.firstKernel, py.firstKernel);
    int32_t to = std::min(px.lastKernel, py.lastKernel);
    if (from > to)
      return std::nullopt;
    if ((py.kind == Kind::InPlace && py.inPlaceOf == x && px.lastKernel == py.firstKernel) ||
        (px.kind == Kind::InPlace && px.inPlaceOf == y && py.lastKernel == px.firstKernel))
      return std::nullopt;
    return name(x) + " and " + name(y) + " share storage and are both live at kernel " +
           std::to_string(from);
  };
  // Unbacked allocations share storage with nothing: no conflict to look for.
  std::vector<int32_t> allocatedBuffers;
  for (size_t i = 0; i < n; ++i)
    if (isAllocatedKind(plan.buffers[i].kind) && plan.buffers[i].kind != Kind::Unbacked)
      allocatedBuffers.push_back(static_cast<int32_t>(i));
  if (!plan.symbolic) {
    // Sorted by offset, each buffer meets only those that start before it ends.
    std::vector<int32_t> byOffset;
    for (int32_t b : allocatedBuffers)
      if (plan.buffers[b].bytes.constant() > 0)
        byOffset.push_back(b);
    auto extent = [&](int32_t b) {
      const BufferPlacement &pl = plan.buffers[b];
      return std::pair<int64_t, int64_t>(pl.offset, pl.offset + pl.bytes.constant());
    };
    // The sweep says whether a conflict exists; the pairwise scan below, quadratic but only
    // run on a bad plan, names the same pair as it always did.
    if (!anyConflict(plan, byOffset, extent, conflict))
      byOffset.clear();
    std::sort(byOffset.begin(), byOffset.end(), [&](int32_t x, int32_t y) {
      return plan.buffers[x].offset < plan.buffers[y].offset;
    });
    for (size_t i = 0; i < byOffset.size(); ++i) {
      const BufferPlacement &pi = plan.buffers[byOffset[i]];
      int64_t end = pi.offset + pi.bytes.constant();
      for (size_t j = i + 1; j < byOffset.size() && plan.buffers[byOffset[j]].offset < end; ++j)
        if (auto message = conflict(byOffset[i], byOffset[j]))
          return fail(*message + " (pool bytes [" +
                      std::to_string(plan.buffers[byOffset[j]].offset) + ", " +
                      std::to_string(end) + ") overlap)");
    }
    if (plan.lowerBound > plan.poolBytes)
      return fail("the pool of " + std::to_string(plan.poolBytes) +
                  " bytes is below the lower bound " + std::to_string(plan.lowerBound));
  } else {
    std::map<int32_t, std::vector<int32_t>> byStorage;
    for (int32_t b : allocatedBuffers) {
      int32_t root = storageRoot(plan, b, true);
      if (root < 0)
        return fail(name(b) + " is on a cycle of in-place and reuse links");
      byStorage[root].push_back(b);
    }
    // One allocation reused by many buffers: every member spans the whole allocation.
    auto whole = [](int32_t) { return std::pair<int64_t, int64_t>(0, 1); };
    for (const auto &[root, members] : byStorage) {
      if (!anyConflict(plan, members, whole, conflict))
        continue;
      for (size_t i = 0; i < members.size(); ++i)
        for (size_t j = i + 1; j < members.size(); ++j)
          if (auto message = conflict(members[i], members[j]))
            return fail(*message + " (one allocation)");
    }
  }

  // freedAfter: each released storage once, after its last kernel.
  std::vector<int> listed(n, 0);
  for (int32_t k = 0; k < numKernels; ++k)
    for (int32_t b : plan.freedAfter[k]) {
      if (!valid(b) || !isAllocatedKind(plan.buffers[b].kind))
        return fail("kernel " + std::to_string(k) + " frees " + std::to_string(b) +
                    ", which is not allocated");
      if (plan.buffers[b].lastKernel != k)
        return fail(name(b) + " is freed after kernel " + std::to_string(k) +
                    " but lives until kernel " + std::to_string(plan.buffers[b].lastKernel));
      ++listed[b];
    }
  for (size_t i = 0; i < n; ++i) {
    const auto b = static_cast<int32_t>(i);
    if (!isAllocatedKind(plan.buffers[b].kind))
      continue;
    int expected = program.buffers[b].isOutput || handedTo[b] >= 0 ? 0 : 1;
    if (listed[b] != expected)
      return fail(name(b) + " is freed " + std::to_string(listed[b]) + " times, expected " +
                  std::to_string(expected));
  }
  return Status::ok();
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Text.
// ---------------------------------------------------------------------------------------------

std::string describeMemoryPlan(const LoopProgram &program, const FusedProgram &fused,
                               const MemoryPlan &plan) {
  const auto numKernels = static_cast<int32_t>(fused.kernels.size());
  struct Row {
    std::string name, dtype, bytes, where, life;
  };
  std::vector<Row> rows;
  size_t count = 0, reused = 0, unbackedCount = 0;
  const std::vector<std::string> unbacked = program.unbackedSymbols();
  for (size_t i = 0; i < plan.buffers.size() && i < program.buffers.size(); ++i) {
    const BufferPlacement &pl = plan.buffers[i];
    if (!isAllocatedKind(pl.kind))
      continue;
    count += pl.kind != Kind::Unbacked; // counted on their own line
    const Buffer &b = program.buffers[i];
    auto other = [&](int32_t x) {
      return x >= 0 && static_cast<size_t>(x) < program.buffers.size() ? program.buffers[x].name
                                                                       : std::to_string(x);
    };
    Row r;
    r.name = b.name;
    r.dtype = std::string(dtypeShortName(b.type.dtype));
    r.bytes = pl.bytes.str() + " B";
    switch (pl.kind) {
    case Kind::Pool:
      r.where = "pool @" + std::to_string(pl.offset);
      break;
    case Kind::InPlace:
      r.where = "in place of " + other(pl.inPlaceOf);
      if (!plan.symbolic)
        r.where += " @" + std::to_string(pl.offset);
      break;
    case Kind::Unbacked: {
      r.where = "own, allocated when ";
      std::string list;
      for (const std::string &s : pl.bytes.symbols())
        if (std::binary_search(unbacked.begin(), unbacked.end(), s))
          list += (list.empty() ? "" : ", ") + s;
      r.where += list + " is bound";
      ++unbackedCount;
      break;
    }
    case Kind::Own:
      r.where = pl.reuseOf >= 0 ? "own, reuses " + other(pl.reuseOf) : "own";
      reused += pl.reuseOf >= 0;
      break;
    case Kind::Input:
    case Kind::Internal:
      break; // not allocated: skipped above
    }
    r.life =
        "kernels " + std::to_string(pl.firstKernel) + ".." +
        (pl.lastKernel >= numKernels ? std::string("end (output)") : std::to_string(pl.lastKernel));
    rows.push_back(std::move(r));
  }
  size_t w[4] = {0, 0, 0, 0};
  for (const Row &r : rows) {
    w[0] = std::max(w[0], r.name.size());
    w[1] = std::max(w[1], r.dtype.size());
    w[2] = std::max(w[2], r.bytes.size());
    w[3] = std::max(w[3], r.where.size());
  }
  std::ostringstream os;
  auto pad = [](const std::string &s, size_t width) {
    return s + std::string(width - s.size(), ' ');
  };
  for (const Row &r : rows)
    os << pad(r.name, w[0]) << "  " << pad(r.dtype, w[1]) << "  "
       << std::string(w[2] - r.bytes.size(), ' ') << r.bytes << "  " << pad(r.where, w[3]) << "  "
       << r.life << "\n";
  os << count << " buffers allocated";
  if (plan.symbolic)
    os << " (symbolic sizes; bytes at the size hint " << kSymbolHint << ")";
  os << ": " << plan.unplannedBytes << " bytes without reuse, lower bound " << plan.lowerBound;
  if (plan.symbolic)
    os << ", peak of own allocations " << plan.poolBytes << " (" << reused
       << " reuse a freed one)\n";
  else
    os << ", pool " << plan.poolBytes << "\n";
  if (unbackedCount)
    os << unbackedCount << " sized by unbacked symbols (allocated when the extern op that binds "
       << "them has run, not counted above)\n";
  return os.str();
}

} // namespace fxkit
