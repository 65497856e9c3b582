#include "transforms/SplitReductions.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fxkit {

namespace {

using namespace loop;

/// Below this many reduced points in all, one kernel's launch costs more than the idle lanes do.
constexpr int64_t kMinPoints = int64_t(1) << 22;
/// Rows (work-items) that fill a large GPU when each row gets one or a few lanes (an H100: 132
/// multiprocessors of 2,048 threads), as Inductor's outer_reduction_splits aims at.
constexpr int64_t kTargetRowsAcross = int64_t(1) << 18;
/// Rows that fill it when each row gets a work-group of lanes (inner_reduction_splits).
constexpr int64_t kTargetRowsAlong = int64_t(1) << 10;
/// Points each block keeps at least, so that the partials [splits, rows] cost at most 1/256 of
/// the reduction's own traffic.
constexpr int64_t kMinBlock = 256;
constexpr int64_t kMaxSplits = 1024;

std::optional<int64_t> constantOf(const std::vector<SymExpr> &dims) {
  int64_t n = 1;
  for (const SymExpr &d : dims) {
    SymExpr s = d.simplify();
    if (!s.isConstant() || s.constant() < 1 || n > (int64_t(1) << 62) / s.constant())
      return std::nullopt;
    n *= s.constant();
  }
  return n;
}

/// The coefficient of variable `var` in `index` when `index` is linear in it, else nullopt.
std::optional<int64_t> coefficient(const SymExpr &index, const SymExpr &var) {
  std::map<std::string, SymExpr, std::less<>> shift{
      {std::string(var.name()), SymExpr::binary(SymExpr::Kind::Add, var, SymExpr(1))}};
  SymExpr d = SymExpr::binary(SymExpr::Kind::Sub, index.substitute(shift), index).simplify();
  if (!d.isConstant())
    return std::nullopt;
  return d.constant();
}

/// Whether the reduction reads across rows: no load steps by one with its innermost reduced
/// variable and some load steps by one with its innermost kept variable (the OpenCL code
/// generator's rows-fastest form, KernelPlan::rowsFastest).
bool readsAcrossRows(const LoopOp &op) {
  if (op.ranges.empty() || op.reductionRanges.empty())
    return false;
  SymExpr r = loopVar(true, op.reductionRanges.size() - 1);
  SymExpr x = loopVar(false, op.ranges.size() - 1);
  int unitReduced = 0, unitRow = 0;
  for (const ScalarInstr &in : op.body) {
    if (in.op != ScalarOp::Load)
      continue;
    unitReduced += coefficient(in.index, r) == 1;
    unitRow += coefficient(in.index, x) == 1;
  }
  return unitReduced == 0 && unitRow > 0;
}

/// Why `op` has no split form, or empty when it has one.
std::string unsplittable(const LoopProgram &program, const LoopOp &op, int64_t points) {
  switch (op.reduction) {
  case ReductionKind::Sum:
  case ReductionKind::Mean: // blocks of equal size: the mean of their means
  case ReductionKind::Max:
  case ReductionKind::Min:
  case ReductionKind::Prod:
  case ReductionKind::Any:
  case ReductionKind::All:
    break;
  case ReductionKind::VarMean:
  case ReductionKind::OnlineSoftmax:
  case ReductionKind::ArgMax:
  case ReductionKind::ArgMin:
  case ReductionKind::LogSumExp:
    return "no split form for " + std::string(reductionKindName(op.reduction)) +
           " (its partials are more than one value)";
  }
  if (op.reducedIndex >= 0)
    return "it numbers its reduced points";
  for (const Store &s : op.stores)
    if (s.scatter || s.value != 0)
      return "it scatters its result";
  // A pointwise producer over the reduced points can fuse into the reduction as its prologue
  // (saving its write and read), which the split's blocks would refuse.
  for (const ScalarInstr &in : op.body)
    if (in.op == ScalarOp::Load && in.buffer >= 0) {
      int32_t producer = program.buffers[in.buffer].producer;
      if (producer < 0 || program.ops[producer].kind != LoopOpKind::Pointwise)
        continue;
      if (constantOf(program.ops[producer].ranges) == points)
        return "its pointwise producer " + program.ops[producer].name + " may fuse into it";
    }
  return {};
}

/// `index` with x_i renamed x_{i+1} and r0 replaced by x0 * block + r0: the first op's variables.
SymExpr blockIndex(const SymExpr &index, size_t keptDims, int64_t block) {
  std::map<std::string, SymExpr, std::less<>> m;
  for (size_t i = 0; i < keptDims; ++i)
    m.emplace(loopVarName(false, i), loopVar(false, i + 1));
  m.emplace(loopVarName(true, 0),
            SymExpr::binary(SymExpr::Kind::Add,
                            SymExpr::binary(SymExpr::Kind::Mul, loopVar(false, 0), SymExpr(block)),
                            loopVar(true, 0)));
  return index.substitute(m).simplify();
}

/// The row-major offset of the kept point (x_first .. x_{first+n-1}) over `ranges`.
SymExpr flatIndex(const std::vector<SymExpr> &ranges, size_t first) {
  SymExpr out(0);
  int64_t stride = 1;
  for (size_t i = ranges.size(); i-- > 0;) {
    out = SymExpr::binary(
        SymExpr::Kind::Add, out,
        SymExpr::binary(SymExpr::Kind::Mul, loopVar(false, first + i), SymExpr(stride)));
    stride *= ranges[i].simplify().constant();
  }
  return out.simplify();
}

std::string newBufferName(const LoopProgram &program) {
  int64_t next = 0;
  for (const Buffer &b : program.buffers)
    if (b.name.size() > 3 && b.name.starts_with("buf") &&
        std::all_of(b.name.begin() + 3, b.name.end(), [](char c) { return c >= '0' && c <= '9'; }))
      next = std::max<int64_t>(next, std::stoll(b.name.substr(3)) + 1);
  return "buf" + std::to_string(next);
}

} // namespace

int64_t splitReductionDecision(int64_t rows, int64_t reduced, int64_t firstReduced, bool acrossRows,
                               std::string &reason) {
  std::string shape = std::to_string(rows) + " rows of " + std::to_string(reduced) + " points";
  int64_t target = acrossRows ? kTargetRowsAcross : kTargetRowsAlong;
  if (rows >= target / 2) {
    reason = shape + " fill the device (split under " + std::to_string(target / 2) + " rows" +
             (acrossRows ? ", read across rows)" : ")");
    return 1;
  }
  int64_t splits = 1;
  while (splits * 2 <= kMaxSplits && rows * splits * 2 <= target &&
         firstReduced % (splits * 2) == 0 && firstReduced / (splits * 2) >= kMinBlock)
    splits *= 2;
  if (splits < 2) {
    reason = shape + ": no blocks of " + std::to_string(kMinBlock) +
             " points or more divide the first reduced dimension (" + std::to_string(firstReduced) +
             ")";
    return 1;
  }
  reason = shape + (acrossRows ? ", read across rows" : "") + ": " + std::to_string(splits) +
           " blocks of " + std::to_string(firstReduced / splits) + " give " +
           std::to_string(rows * splits) + " rows";
  return splits;
}

bool splitReductions(LoopProgram &program, const SplitReductionOptions &options) {
  if (options.splits == 1)
    return false;
  struct Split {
    int64_t splits = 1;
    std::string reason;
    bool record = false;
  };
  std::vector<Split> plan(program.ops.size());
  bool any = false;
  for (size_t i = 0; i < program.ops.size(); ++i) {
    const LoopOp &op = program.ops[i];
    if (op.kind != LoopOpKind::Reduction || op.reductionRanges.empty() || op.splitDecided)
      continue;
    auto rows = constantOf(op.ranges), reduced = constantOf(op.reductionRanges);
    auto first = constantOf({op.reductionRanges[0]});
    if (!rows || !reduced || !first)
      continue; // symbolic sizes: splits must divide the reduced points
    Split &s = plan[i];
    bool forced = options.splits > 1;
    s.record = forced || *rows * *reduced >= kMinPoints;
    if (!s.record)
      continue;
    s.reason = unsplittable(program, op, *rows * *reduced);
    if (!s.reason.empty())
      continue;
    if (forced) {
      if (*first % options.splits != 0) {
        s.reason = "the first reduced dimension (" + std::to_string(*first) +
                   ") is not a multiple of " + std::to_string(options.splits);
        continue;
      }
      s.splits = options.splits;
      s.reason = std::to_string(s.splits) + " blocks asked for (pass option reduction-splits)";
    } else {
      s.splits = splitReductionDecision(*rows, *reduced, *first, readsAcrossRows(op), s.reason);
    }
    any = any || s.splits > 1;
  }
  if (!any && std::none_of(plan.begin(), plan.end(), [](const Split &s) { return s.record; }))
    return false;

  size_t buffersBefore = program.buffers.size();
  std::vector<LoopOp> ops;
  ops.reserve(program.ops.size() + 4);
  std::vector<int32_t> newIndex(program.ops.size(), -1);
  std::vector<ReductionSplit> decisions;
  for (size_t i = 0; i < program.ops.size(); ++i) {
    LoopOp &op = program.ops[i];
    const Split &s = plan[i];
    if (s.splits < 2) {
      if (s.record) {
        decisions.push_back({op.name, false, 0, s.reason});
        op.splitDecided = true;
      }
      newIndex[i] = static_cast<int32_t>(ops.size());
      ops.push_back(std::move(op));
      continue;
    }
    int64_t block = op.reductionRanges[0].simplify().constant() / s.splits;
    // The partial results, [splits, rows] in the accumulator's dtype.
    Buffer partial;
    partial.name = newBufferName(program);
    partial.type.dtype = op.accumulator;
    partial.type.sizes.push_back(SymExpr(s.splits));
    for (const SymExpr &r : op.ranges)
      partial.type.sizes.push_back(r.simplify());
    partial.type.strides = TensorType::contiguousStrides(partial.type.sizes);
    if (!op.stores.empty())
      partial.type.device = program.buffers[op.stores[0].buffer].type.device;
    partial.producer = static_cast<int32_t>(ops.size());
    program.buffers.push_back(partial);
    int32_t partialBuffer = static_cast<int32_t>(program.buffers.size() - 1);

    LoopOp blocks = op; // reduces each block of the first reduced dimension
    blocks.ranges.insert(blocks.ranges.begin(), SymExpr(s.splits));
    blocks.reductionRanges[0] = SymExpr(block);
    for (ScalarInstr &in : blocks.body)
      if (!in.index.isConstant())
        in.index = blockIndex(in.index, op.ranges.size(), block);
    blocks.stores = {Store{partialBuffer, flatIndex(blocks.ranges, 0), 0}};
    blocks.splitDecided = true;

    LoopOp total; // reduces the partials of each row
    total.kind = LoopOpKind::Reduction;
    total.ranges = op.ranges;
    total.reductionRanges = {SymExpr(s.splits)};
    ScalarInstr load;
    load.op = ScalarOp::Load;
    load.dtype = op.accumulator;
    load.buffer = partialBuffer;
    int64_t rows = *constantOf(op.ranges);
    load.index =
        SymExpr::binary(SymExpr::Kind::Add,
                        SymExpr::binary(SymExpr::Kind::Mul, loopVar(true, 0), SymExpr(rows)),
                        flatIndex(op.ranges, 0))
            .simplify();
    total.body = {load};
    total.reduced = 0;
    total.reduction = op.reduction;
    total.accumulator = op.accumulator;
    total.stores = std::move(op.stores);
    total.origins = op.origins;
    total.originOps = op.originOps;
    total.splitDecided = true;

    std::string name = op.name;
    newIndex[i] = static_cast<int32_t>(ops.size() + 1);
    ops.push_back(std::move(blocks));
    ops.push_back(std::move(total));
    decisions.push_back({name, true, s.splits, s.reason});
  }
  // Names follow positions; producers of the buffers that were there move with their ops.
  for (size_t k = 0; k < ops.size(); ++k)
    ops[k].name = "op" + std::to_string(k);
  for (size_t b = 0; b < buffersBefore; ++b)
    if (program.buffers[b].producer >= 0)
      program.buffers[b].producer = newIndex[program.buffers[b].producer];
  for (size_t i = 0, d = 0; i < plan.size(); ++i) {
    if (!plan[i].record)
      continue;
    ReductionSplit &r = decisions[d++];
    int32_t at = newIndex[i];
    r.op = ops[at].name;
    if (r.split)
      r.reason +=
          " (" + ops[at - 1].name + " reduces the blocks, " + ops[at].name + " their partials)";
  }
  program.ops = std::move(ops);
  program.reductionSplits.insert(program.reductionSplits.end(), decisions.begin(), decisions.end());
  return any;
}

} // namespace fxkit
