/// Pooling, padding and upsampling as loops (Inductor's lowerings of avg_pool2d,
/// _adaptive_avg_pool2d, adaptive_max_pool2d/3d, _low_memory_max_pool_with_offsets,
/// reflection/replication pads and
/// upsample_nearest2d/bilinear2d). Each is one pointwise op over the result whose body reads
/// the input through index expressions: a window's taps unrolled (kernel sizes are constant
/// ints), masked where a tap may fall in the padding or past an adaptive window's end; the
/// average of a window larger than Inductor's unrolling limit is a sum reduction over the
/// window instead. Max pooling gives its values and its indices (or window offsets) as two
/// ops that read alike (fusion puts them in one kernel; an unused one is dropped). The
/// pooling gradients gather rather than scatter: each input point sums over the (few) outputs
/// whose windows may cover it.
///
/// The windows are PyTorch's CPU kernels' (ir/ops/PoolingWindows.h, shared with the reference
/// kernels): the first of equal maxima, the last NaN of a window, indices flattened over the
/// input plane, divisors with or without the padding. Upsampling's source indices are
/// computed in float by PyTorch; for constant spatial sizes the lowering finds an index
/// expression that equals them at every output position and otherwise leaves the op to its
/// reference kernel (extern).

#include "ir/FirstError.h"
#include "ir/Try.h"
#include "ir/ops/PoolingWindows.h"
#include "ir/ops/ShapeRules.h"
#include "transforms/lowering/Lowerer.h"
#include "transforms/lowering/LoweringRules.h"

#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <map>

namespace fxkit::lowering {

namespace {

/// Steps multi-index `k` to the next one in row-major order (the last digit fastest), digit d
/// below `count(d)`; false, with `k` back at zeros, once every one was visited.
template <class Count> bool nextMultiIndex(std::vector<int64_t> &k, Count &&count) {
  for (size_t d = k.size(); d-- > 0;) {
    if (++k[d] < count(d))
      return true;
    k[d] = 0;
  }
  return false;
}

/// Inductor unrolls an average window up to 25 taps (larger ones: a reduction here).
constexpr int64_t kMaxUnrolledAverageTaps = 25;
/// Max pooling has no reduction form (its index is an argmax): larger windows stay extern.
constexpr int64_t kMaxUnrolledMaxTaps = 256;

SymExpr symMax(const SymExpr &a, const SymExpr &b) {
  if (a.isConstant() && b.isConstant())
    return SymExpr(std::max(a.constant(), b.constant()));
  SymExpr args[2] = {a, b};
  return SymExpr::call("Max", args);
}

SymExpr symMin(const SymExpr &a, const SymExpr &b) {
  if (a.isConstant() && b.isConstant())
    return SymExpr(std::min(a.constant(), b.constant()));
  SymExpr args[2] = {a, b};
  return SymExpr::call("Min", args);
}

bool isConstantAtMost(const SymExpr &e, int64_t v) { return e.isConstant() && e.constant() <= v; }

/// The dtype a window is combined in: float32 for float32 and narrower floats (rounded once
/// when stored), float64, int64 for integers.
DType computeDType(DType d) {
  if (dtypeIsFloating(d))
    return d == DType::Float64 ? DType::Float64 : DType::Float32;
  return DType::Int64;
}

DType storedDType(const Lowerer &l, const BufferView &v) {
  return l.program_.buffers[v.buffer].type.dtype;
}

/// One spatial dim of a window: output position o reads taps k = 0 .. taps - 1 at input
/// position start + k * dil. Taps k < lowUntil may fall before the input (checked pos >= 0),
/// taps k >= highFrom at or past `limit` (checked pos < limit); the others never do.
struct Axis {
  SymExpr start;
  int64_t taps = 1; ///< the largest window's extent (unrolled), or
  SymExpr range;    ///< ... as a size (a reduction over the window; may be symbolic)
  int64_t dil = 1;
  int64_t lowUntil = 0;
  int64_t highFrom = 1;
  SymExpr limit;
  SymExpr count; ///< elements the window counts (average pooling's divisor factor)
};

/// The axis of a fixed window (kernel k, stride s, padding p, dilation dil) over an input of
/// `in` elements pooled to `out`. Which taps need checks follows from the output size: every
/// window starts before the input's end (pooling_output_shape drops one starting in the right
/// padding) and, without ceil_mode, ends by in + p.
Axis fixedAxis(const SymExpr &o, const SymExpr &in, const SymExpr &out, int64_t k, int64_t s,
               int64_t p, int64_t dil, bool ceil, bool countPadding) {
  Axis a;
  a.start = symSub(symMul(o, SymExpr(s)), SymExpr(p));
  a.taps = k;
  a.range = SymExpr(k);
  a.dil = dil;
  a.lowUntil = std::min(k, (p + dil - 1) / dil);
  a.limit = in;
  bool sized = in.isConstant() && out.isConstant();
  // The last window's first position (sized), else what the output size guarantees: without
  // ceil_mode, lastStart <= in + p - span.
  int64_t lastStart = sized ? (out.constant() - 1) * s - p : 0;
  a.highFrom = k;
  for (int64_t t = 0; t < k; ++t) {
    bool safe = sized ? lastStart + t * dil < in.constant()
                      : t == 0 || (!ceil && t * dil + p <= dil * (k - 1));
    if (!safe) {
      a.highFrom = t;
      break;
    }
  }
  // The divisor's factor (average pooling: dil is 1): the window clipped to [-p, in + p)
  // (count_include_pad) or to the input.
  SymExpr end = symAdd(a.start, SymExpr(k));
  bool endsInPadding = sized ? lastStart + k <= in.constant() + p : !ceil;
  bool endsInInput = sized ? lastStart + k <= in.constant() : !ceil && p == 0;
  if (countPadding) {
    a.count = endsInPadding ? SymExpr(k) : symSub(symMin(end, symAdd(in, SymExpr(p))), a.start);
  } else {
    SymExpr clippedEnd = endsInInput ? end : symMin(end, in);
    SymExpr clippedStart = p == 0 ? a.start : symMax(a.start, SymExpr(0));
    a.count = symSub(clippedEnd, clippedStart);
  }
  return a;
}

/// The axis of an adaptive window: [floor(o in / out), ceil((o + 1) in / out)). Needs constant
/// sizes, or an output of 1 (the window is the whole dim, of any size).
std::optional<Axis> adaptiveAxis(const SymExpr &o, const SymExpr &in, const SymExpr &out) {
  Axis a;
  if (symIs(out, 1)) {
    a.start = SymExpr(0);
    a.range = in;
    a.taps = in.isConstant() ? in.constant() : -1;
    a.highFrom = a.taps;
    a.limit = in;
    a.count = in;
    return a;
  }
  if (!in.isConstant() || !out.isConstant() || out.constant() <= 0)
    return std::nullopt;
  int64_t inN = in.constant(), outN = out.constant(), smallest = inN, largest = 0;
  for (int64_t i = 0; i < outN; ++i) {
    auto [start, end] = adaptiveRange(i, inN, outN);
    smallest = std::min(smallest, end - start);
    largest = std::max(largest, end - start);
  }
  a.start = symFloorDiv(symMul(o, in), out);
  SymExpr end = symFloorDiv(symAdd(symMul(symAdd(o, SymExpr(1)), in), SymExpr(outN - 1)), out);
  a.taps = largest;
  a.range = SymExpr(largest);
  a.highFrom = smallest;
  a.limit = end;
  a.count = smallest == largest ? SymExpr(largest) : symSub(end, a.start);
  return a;
}

/// The product of window counts as a body value in `dtype`: constants folded, each other count
/// one index value (their product as one expression would be expanded into a sum of products).
int32_t countProduct(BodyBuilder &b, const std::vector<SymExpr> &counts, DType dtype) {
  int64_t constant = 1;
  int32_t product = -1;
  for (const SymExpr &c : counts) {
    if (c.isConstant()) {
      constant *= c.constant();
      continue;
    }
    int32_t v = b.indexValue(c, dtype);
    product = product < 0 ? v : b.op(ScalarOp::Mul, dtype, product, v);
  }
  if (constant != 1 || product < 0) {
    int32_t k = dtypeIsFloating(dtype) ? b.constant(static_cast<double>(constant), dtype)
                                       : b.intConstant(constant, dtype);
    product = product < 0 ? k : b.op(ScalarOp::Mul, dtype, product, k);
  }
  return product;
}

/// Reads an input view through window axes inside one op's body: masks per tap and loads.
class WindowReader {
public:
  WindowReader(Lowerer &l, LoopOp &op, BodyBuilder &b, const BufferView &in,
               const std::vector<SymExpr> &outVars, std::vector<Axis> axes, DType compute)
      : l_(l), op_(op), b_(b), in_(in), outVars_(outVars), axes_(std::move(axes)),
        compute_(compute), lead_(in.sizes.size() - axes_.size()) {}

  static constexpr int32_t kAlways = -1; ///< a mask that always holds: none
  static constexpr int32_t kNever = -2;  ///< a tap that never falls inside: not read

  /// The position of tap k along axis d.
  SymExpr position(size_t d, const SymExpr &k) const {
    const Axis &a = axes_[d];
    return symAdd(a.start, symMul(k, SymExpr(a.dil)));
  }

  /// Whether position `pos` is inside along axis d (checks as the axis says are needed).
  int32_t mask(size_t d, const SymExpr &pos, bool low, bool high) {
    const SymExpr &limit = axes_[d].limit;
    if (pos.isConstant()) {
      if (low && pos.constant() < 0)
        return kNever;
      low = false;
      if (high && limit.isConstant()) {
        if (pos.constant() >= limit.constant())
          return kNever;
        high = false;
      }
    }
    int32_t m = kAlways;
    if (!low && !high)
      return m;
    int32_t at = b_.indexValue(pos, DType::Int64);
    if (low) {
      if (zero_ < 0)
        zero_ = b_.intConstant(0, DType::Int64);
      m = b_.op(ScalarOp::Ge, DType::Bool, at, zero_);
    }
    if (high) {
      auto [it, fresh] = limits_.try_emplace(d, -1);
      if (fresh)
        it->second = b_.indexValue(limit, DType::Int64);
      int32_t below = b_.op(ScalarOp::Lt, DType::Bool, at, it->second);
      m = m == kAlways ? below : b_.op(ScalarOp::LogicalAnd, DType::Bool, m, below);
    }
    return m;
  }

  /// The mask of unrolled tap k along axis d (cached).
  int32_t tapMask(size_t d, int64_t k) {
    auto key = std::make_pair(d, k);
    if (auto it = tapMasks_.find(key); it != tapMasks_.end())
      return it->second;
    const Axis &a = axes_[d];
    int32_t m = mask(d, position(d, SymExpr(k)), k < a.lowUntil, k >= a.highFrom);
    tapMasks_[key] = m;
    return m;
  }

  /// Both masks, or whichever is a real one.
  int32_t both(int32_t a, int32_t c) {
    if (a == kNever || c == kNever)
      return kNever;
    if (a == kAlways)
      return c;
    if (c == kAlways)
      return a;
    return b_.op(ScalarOp::LogicalAnd, DType::Bool, a, c);
  }

  /// The input at spatial positions `pos` (leading dims at the output's point), in the
  /// compute dtype; not read (0) where `mask` is false.
  int32_t load(const std::vector<SymExpr> &pos, int32_t mask) {
    std::vector<SymExpr> at(outVars_.begin(),
                            outVars_.begin() + static_cast<std::ptrdiff_t>(lead_));
    at.insert(at.end(), pos.begin(), pos.end());
    int32_t v = b_.load(in_.buffer, linearIndex(in_.offset, in_.sizes, in_.strides, at),
                        storedDType(l_, in_));
    if (mask >= 0)
      op_.body[v].operands[0] = mask;
    return b_.cast(v, compute_);
  }

  /// Calls fn(k, mask) for every unrolled tap (multi-index k, row-major) that may fall inside.
  void forEachTap(const std::function<void(const std::vector<int64_t> &, int32_t)> &fn) {
    std::vector<int64_t> k(axes_.size(), 0);
    for (const Axis &a : axes_)
      if (a.taps <= 0)
        return;
    do {
      int32_t m = kAlways;
      for (size_t d = 0; d < axes_.size() && m != kNever; ++d)
        m = both(m, tapMask(d, k[d]));
      if (m != kNever)
        fn(k, m);
    } while (nextMultiIndex(k, [&](size_t d) { return axes_[d].taps; }));
  }

  /// The positions of unrolled tap k.
  std::vector<SymExpr> positions(const std::vector<int64_t> &k) const {
    std::vector<SymExpr> pos;
    for (size_t d = 0; d < axes_.size(); ++d)
      pos.push_back(position(d, SymExpr(k[d])));
    return pos;
  }

private:
  Lowerer &l_;
  LoopOp &op_;
  BodyBuilder &b_;
  BufferView in_;
  std::vector<SymExpr> outVars_;
  std::vector<Axis> axes_;
  DType compute_;
  size_t lead_;
  std::map<std::pair<size_t, int64_t>, int32_t> tapMasks_;
  std::map<size_t, int32_t> limits_; ///< axis -> its limit as a body value
  int32_t zero_ = -1;                ///< the constant 0 the low checks compare with
};

// ---- Max pooling ----

/// Row-major strides of `sizes` (symbolic).
std::vector<SymExpr> denseStrides(const std::vector<SymExpr> &sizes) {
  std::vector<SymExpr> strides(sizes.size(), SymExpr(1));
  for (size_t i = sizes.size(); i-- > 1;)
    strides[i - 1] = symMul(strides[i], sizes[i]);
  return strides;
}

/// One op of max pooling: the window's maximum (`index` false) or where it is (`index`
/// true): its position flattened over the input plane, or (`offsets`) its tap flattened over
/// the kernel. Taps are compared in order; a later tap wins when greater or NaN, as PyTorch's
/// `val > max || isnan(val)`; a window whose inside taps are all -inf keeps its first inside
/// tap.
/// The windows are `axisAt(d, o)` along each of the last nd dims; `offsetKernel` (offsets only)
/// the kernel whose taps they flatten over.
void buildMaxPoolOp(Lowerer &l, const Node &n, const BufferView &self, size_t nd,
                    const std::function<Axis(size_t, const SymExpr &)> &axisAt,
                    const TensorType &out, bool index, const std::vector<int64_t> *offsetKernel) {
  const bool offsets = offsetKernel != nullptr;
  size_t lead = out.sizes.size() - nd;
  LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
  std::vector<SymExpr> vars = iterate(out.sizes, op.ranges, false);
  BodyBuilder b(op);
  DType stored = storedDType(l, self);
  DType compute = computeDType(stored);
  std::vector<Axis> axes;
  for (size_t d = 0; d < nd; ++d)
    axes.push_back(axisAt(d, vars[lead + d]));
  WindowReader reader(l, op, b, self, vars, axes, compute);
  std::vector<SymExpr> inSpatial(self.sizes.begin() + static_cast<std::ptrdiff_t>(lead),
                                 self.sizes.end());
  std::vector<SymExpr> planeStrides = denseStrides(inSpatial);
  std::vector<int64_t> kernelStrides(nd, 1);
  for (size_t d = nd; offsets && d-- > 1;)
    kernelStrides[d - 1] = kernelStrides[d] * (*offsetKernel)[d];
  // Where tap k is, as the op stores it.
  auto where = [&](const std::vector<SymExpr> &k) {
    SymExpr flat(0);
    for (size_t d = 0; d < nd; ++d)
      flat = symAdd(flat, offsets ? symMul(k[d], SymExpr(kernelStrides[d]))
                                  : symMul(reader.position(d, k[d]), planeStrides[d]));
    return b.indexValue(flat, DType::Int64);
  };
  int32_t best = -1, at = -1;
  reader.forEachTap([&](const std::vector<int64_t> &k, int32_t mask) {
    int32_t v = reader.load(reader.positions(k), mask);
    std::vector<SymExpr> tap(k.begin(), k.end());
    if (best < 0 && mask == WindowReader::kAlways) {
      best = v;
      at = index ? where(tap) : -1;
      return;
    }
    if (best < 0) {
      best = dtypeIsFloating(compute)
                 ? b.constant(-std::numeric_limits<double>::infinity(), compute)
                 : b.intConstant(std::numeric_limits<int64_t>::min(), compute);
      if (index) {
        // The first tap inside along each dim.
        std::vector<SymExpr> first;
        for (size_t d = 0; d < nd; ++d) {
          const Axis &a = axes[d];
          first.push_back(a.lowUntil == 0
                              ? SymExpr(0)
                              : symMax(SymExpr(0), symFloorDiv(symSub(SymExpr(a.dil - 1), a.start),
                                                               SymExpr(a.dil))));
        }
        at = where(first);
      }
    }
    int32_t take = b.op(ScalarOp::Gt, DType::Bool, v, best);
    if (dtypeIsFloating(compute))
      take = b.op(ScalarOp::LogicalOr, DType::Bool, take, b.op(ScalarOp::IsNan, DType::Bool, v));
    if (mask >= 0)
      take = b.op(ScalarOp::LogicalAnd, DType::Bool, mask, take);
    best = b.op(ScalarOp::Where, compute, take, v, best);
    if (index)
      at = b.op(ScalarOp::Where, DType::Int64, take, where(tap), at);
  });
  l.finishPointwise(op, b, index ? at : best, out, vars);
}

/// The two ops of max pooling over `axisAt`'s windows, the values and their indices (offsets
/// over `offsetKernel` where given), as the node's two results.
void lowerMaxPoolPair(Lowerer &l, const Node &n, const BufferView &self, size_t nd,
                      const std::function<Axis(size_t, const SymExpr &)> &axisAt,
                      const TensorType &values, const TensorType &indices,
                      const std::vector<int64_t> *offsetKernel) {
  buildMaxPoolOp(l, n, self, nd, axisAt, values, false, offsetKernel);
  int32_t valuesBuffer = static_cast<int32_t>(l.program_.buffers.size() - 1);
  buildMaxPoolOp(l, n, self, nd, axisAt, indices, true, offsetKernel);
  int32_t indicesBuffer = static_cast<int32_t>(l.program_.buffers.size() - 1);
  Lowered result;
  result.kind = Lowered::Kind::Tensors;
  result.views.push_back(Lowerer::wholeView(valuesBuffer, values));
  result.views.push_back(Lowerer::wholeView(indicesBuffer, indices));
  l.values_[n.scratch()] = std::move(result);
}

/// max_pool{2,3}d_with_indices and prims._low_memory_max_pool_with_offsets: two ops over the
/// result, the values and their indices (offsets).
Status lowerMaxPool(Lowerer &l, const Node &n, const BoundArgs &args, size_t nd, bool offsets) {
  FXKIT_ASSIGN_OR_RETURN(auto self, l.tensorArg(n, args.get("self")));
  if (nd == 0) {
    FXKIT_ASSIGN_OR_RETURN(auto kernel, args.intList("kernel_size"));
    nd = kernel ? kernel->size() : 0;
  }
  FXKIT_ASSIGN_OR_RETURN(auto w, readPoolWindow(args, nd));
  const auto *results = n.value().tensors();
  if (!results || results->size() != 2 || !(*results)[0] || !(*results)[1])
    return l.nodeError(n, "expected a value and an index result");
  const TensorType &values = *(*results)[0], &indices = *(*results)[1];
  int64_t taps = 1;
  for (int64_t k : w.kernel)
    taps *= k;
  if (storedDType(l, self) == DType::Bool || taps > kMaxUnrolledMaxTaps ||
      self.sizes.size() != values.sizes.size() || self.sizes.size() < nd + 1)
    return l.lowerExtern(n, args);
  const size_t lead = values.sizes.size() - nd;
  auto axisAt = [&](size_t d, const SymExpr &o) {
    return fixedAxis(o, self.sizes[lead + d], values.sizes[lead + d], w.kernel[d], w.stride[d],
                     w.padding[d], w.dilation[d], w.ceil, true);
  };
  lowerMaxPoolPair(l, n, self, nd, axisAt, values, indices, offsets ? &w.kernel : nullptr);
  return Status::ok();
}

/// adaptive_max_pool{2,3}d: max pooling's two ops over adaptive windows, unrolled up to max
/// pooling's limit of taps (Inductor's lowering unrolls them too), else extern.
template <size_t nd> Status lowerAdaptiveMaxPool(Lowerer &l, const Node &n, const BoundArgs &args) {
  FXKIT_ASSIGN_OR_RETURN(auto self, l.tensorArg(n, args.get("self")));
  const auto *results = n.value().tensors();
  if (!results || results->size() != 2 || !(*results)[0] || !(*results)[1])
    return l.nodeError(n, "expected a value and an index result");
  const TensorType &values = *(*results)[0], &indices = *(*results)[1];
  if (!dtypeIsFloating(storedDType(l, self)) || self.sizes.size() != values.sizes.size() ||
      self.sizes.size() < nd + 1)
    return l.lowerExtern(n, args);
  const size_t lead = values.sizes.size() - nd;
  int64_t taps = 1;
  for (size_t d = 0; d < nd; ++d) {
    auto a = adaptiveAxis(SymExpr(0), self.sizes[lead + d], values.sizes[lead + d]);
    if (!a || a->taps < 0)
      return l.lowerExtern(n, args);
    taps *= a->taps;
  }
  if (taps > kMaxUnrolledMaxTaps)
    return l.lowerExtern(n, args);
  auto axisAt = [&](size_t d, const SymExpr &o) {
    return *adaptiveAxis(o, self.sizes[lead + d], values.sizes[lead + d]);
  };
  lowerMaxPoolPair(l, n, self, nd, axisAt, values, indices, nullptr);
  return Status::ok();
}

Status lowerMaxPool2d(Lowerer &l, const Node &n, const BoundArgs &args) {
  return lowerMaxPool(l, n, args, 2, false);
}
Status lowerMaxPool3d(Lowerer &l, const Node &n, const BoundArgs &args) {
  return lowerMaxPool(l, n, args, 3, false);
}
Status lowerLowMemoryMaxPool(Lowerer &l, const Node &n, const BoundArgs &args) {
  return lowerMaxPool(l, n, args, 0, true);
}

/// prims._low_memory_max_pool_offsets_to_indices: offset -> tap per dim (Python's floor
/// division and modulo over the kernel's row-major strides) -> input position o * stride -
/// padding + tap * dilation -> index flattened over input_size.
Status lowerOffsetsToIndices(Lowerer &l, const Node &n, const BoundArgs &args) {
  FXKIT_ASSIGN_OR_RETURN(auto kernel, args.intList("kernel_size"));
  std::vector<SymExpr> lists[4];
  const char *names[4] = {"input_size", "stride", "padding", "dilation"};
  for (size_t i = 0; i < 4; ++i) {
    FXKIT_ASSIGN_OR_RETURN(auto list, args.symIntList(names[i]));
    lists[i] = std::move(list);
  }
  const auto &[inputSize, stride, padding, dilation] = lists;
  const TensorType *out = n.value().tensor();
  size_t nd = kernel ? kernel->size() : 0;
  if (!out || nd == 0 || out->sizes.size() < nd || inputSize.size() < nd || stride.size() < nd ||
      padding.size() < nd || dilation.size() < nd)
    return l.lowerExtern(n, args);
  const std::vector<int64_t> &k = *kernel;
  std::vector<int64_t> kernelStrides(nd, 1);
  for (size_t d = nd; d-- > 1;)
    kernelStrides[d - 1] = kernelStrides[d] * k[d];
  LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
  std::vector<SymExpr> vars = iterate(out->sizes, op.ranges, false);
  BodyBuilder b(op);
  size_t lead = out->sizes.size() - nd;
  FXKIT_ASSIGN_OR_RETURN(auto offset, l.operand(b, n, args.get("self"), vars, DType::Int64));
  auto constant = [&](int64_t v) { return b.intConstant(v, DType::Int64); };
  int32_t flat = -1;
  for (size_t d = 0; d < nd; ++d) {
    int32_t rest =
        d == 0 ? offset
               : b.op(ScalarOp::Remainder, DType::Int64, offset, constant(kernelStrides[d - 1]));
    int32_t tap = kernelStrides[d] == 1
                      ? rest
                      : b.op(ScalarOp::FloorDiv, DType::Int64, rest, constant(kernelStrides[d]));
    SymExpr base = symSub(symMul(vars[lead + d], stride[d]), padding[d]);
    int32_t pos =
        b.op(ScalarOp::Add, DType::Int64, b.indexValue(base, DType::Int64),
             b.op(ScalarOp::Mul, DType::Int64, tap, b.indexValue(dilation[d], DType::Int64)));
    flat = d == 0 ? pos
                  : b.op(ScalarOp::Add, DType::Int64,
                         b.op(ScalarOp::Mul, DType::Int64, flat,
                              b.indexValue(inputSize[d], DType::Int64)),
                         pos);
  }
  l.values_[n.scratch()] = l.finishPointwise(op, b, flat, *out, vars);
  return Status::ok();
}

// ---- Average pooling ----

/// The average of each output point's window over `axes`: unrolled taps up to Inductor's
/// limit, else a sum (or mean) reduction over the window; divided by `divisorOverride` or the
/// axes' counts (integers with truncation, as PyTorch's integer kernels).
Status lowerWindowAverage(Lowerer &l, const Node &n, const BufferView &self, const TensorType &out,
                          const std::function<std::optional<Axis>(size_t, const SymExpr &)> &axisAt,
                          size_t nd, std::optional<int64_t> divisorOverride) {
  size_t lead = out.sizes.size() - nd;
  DType compute = computeDType(storedDType(l, self));
  bool floating = dtypeIsFloating(compute);
  // The axes over the output's variables (their shape decides the form).
  std::vector<SymExpr> probeRanges;
  std::vector<SymExpr> probeVars = iterate(out.sizes, probeRanges, false);
  std::vector<Axis> probe;
  int64_t taps = 1;
  for (size_t d = 0; d < nd; ++d) {
    auto a = axisAt(d, probeVars[lead + d]);
    if (!a)
      return l.nodeError(n, "a window the lowering cannot express");
    taps = a->taps < 0 || taps < 0 ? -1 : taps * a->taps;
    probe.push_back(*a);
  }
  // The divisor as a body value.
  auto divisor = [&](BodyBuilder &b, const std::vector<Axis> &axes) {
    if (divisorOverride)
      return floating ? b.constant(static_cast<double>(*divisorOverride), compute)
                      : b.intConstant(*divisorOverride, compute);
    std::vector<SymExpr> counts;
    for (const Axis &a : axes)
      counts.push_back(a.count);
    return countProduct(b, counts, compute);
  };
  auto divide = [&](BodyBuilder &b, int32_t sum, const std::vector<Axis> &axes) {
    return b.op(floating ? ScalarOp::TrueDiv : ScalarOp::TruncDiv, compute, sum, divisor(b, axes));
  };
  // The window of each pooled dimension at output position `at` (its last nd coordinates).
  auto windowsAt = [&](const std::vector<SymExpr> &at) {
    std::vector<Axis> axes;
    for (size_t d = 0; d < nd; ++d)
      axes.push_back(*axisAt(d, at[lead + d]));
    return axes;
  };
  if (taps >= 0 && taps <= kMaxUnrolledAverageTaps) {
    LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
    std::vector<SymExpr> vars = iterate(out.sizes, op.ranges, false);
    BodyBuilder b(op);
    std::vector<Axis> axes = windowsAt(vars);
    WindowReader reader(l, op, b, self, vars, axes, compute);
    int32_t sum = -1;
    reader.forEachTap([&](const std::vector<int64_t> &k, int32_t mask) {
      int32_t v = reader.load(reader.positions(k), mask);
      sum = sum < 0 ? v : b.op(ScalarOp::Add, compute, sum, v);
    });
    if (sum < 0)
      sum = floating ? b.constant(0, compute) : b.intConstant(0, compute);
    l.values_[n.scratch()] = l.finishPointwise(op, b, divide(b, sum, axes), out, vars);
    return Status::ok();
  }
  // A reduction over the window: r_d runs over the largest window along each dim. Taps outside
  // the input read as 0, so where every window counts the whole range (no override, no
  // clipped count) the mean over the range is the average.
  bool uniform = !divisorOverride && floating &&
                 std::all_of(probe.begin(), probe.end(),
                             [](const Axis &a) { return symEq(a.count, a.range); });
  LoopOp &red = l.newOp(LoopOpKind::Reduction, n);
  std::vector<SymExpr> kept = iterate(out.sizes, red.ranges, false);
  std::vector<Axis> axes = windowsAt(kept);
  std::vector<SymExpr> rVars;
  for (const Axis &a : axes)
    rVars.push_back(iterate({a.range}, red.reductionRanges, true).front());
  if (red.reductionRanges.empty())
    red.reductionRanges.push_back(SymExpr(1));
  BodyBuilder b(red);
  WindowReader reader(l, red, b, self, kept, axes, compute);
  std::vector<SymExpr> pos;
  int32_t mask = WindowReader::kAlways;
  for (size_t d = 0; d < nd; ++d) {
    const Axis &a = axes[d];
    pos.push_back(reader.position(d, rVars[d]));
    bool high = a.taps >= 0 && a.highFrom < a.taps;
    mask = reader.both(mask, reader.mask(d, pos.back(), a.lowUntil > 0, high));
  }
  red.reduced = mask == WindowReader::kNever
                    ? (floating ? b.constant(0, compute) : b.intConstant(0, compute))
                    : reader.load(pos, mask);
  red.accumulator = compute;
  red.reduction = uniform ? ReductionKind::Mean : ReductionKind::Sum;
  int32_t redIndex = l.currentOp();
  TensorType sumType = out;
  if (!uniform)
    sumType.dtype = compute;
  int32_t sums = l.newBuffer(sumType, redIndex);
  l.program_.ops[redIndex].stores.push_back(
      {sums, linearIndex(SymExpr(0), sumType.sizes, sumType.strides, kept), 0});
  if (uniform) {
    l.values_[n.scratch()] = Lowerer::wholeValue(sums);
    return Status::ok();
  }
  LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
  std::vector<SymExpr> vars = iterate(out.sizes, op.ranges, false);
  BodyBuilder pb(op);
  int32_t sum =
      pb.load(sums, linearIndex(SymExpr(0), sumType.sizes, sumType.strides, vars), compute);
  l.values_[n.scratch()] = l.finishPointwise(op, pb, divide(pb, sum, windowsAt(vars)), out, vars);
  return Status::ok();
}

/// avg_pool{1,2,3}d: fixed windows, count_include_pad, divisor_override.
Status lowerAvgPool(Lowerer &l, const Node &n, const BoundArgs &args, size_t nd) {
  FXKIT_ASSIGN_OR_RETURN(auto self, l.tensorArg(n, args.get("self")));
  auto w = readPoolWindow(args, nd);
  auto includePad = args.boolean("count_include_pad");
  FXKIT_TRY(firstError(w, includePad));
  std::optional<int64_t> divisorOverride;
  if (args.op().schema.indexOf("divisor_override") >= 0) {
    FXKIT_ASSIGN_OR_RETURN(auto d, args.optionalInteger("divisor_override"));
    divisorOverride = d;
  }
  const TensorType *out = n.value().tensor();
  if (!out || storedDType(l, self) == DType::Bool || self.sizes.size() != out->sizes.size() ||
      self.sizes.size() < nd + 1 || (divisorOverride && *divisorOverride == 0))
    return l.lowerExtern(n, args);
  size_t lead = out->sizes.size() - nd;
  auto axisAt = [&](size_t d, const SymExpr &o) -> std::optional<Axis> {
    return fixedAxis(o, self.sizes[lead + d], out->sizes[lead + d], w->kernel[d], w->stride[d],
                     w->padding[d], 1, w->ceil, *includePad);
  };
  return lowerWindowAverage(l, n, self, *out, axisAt, nd, divisorOverride);
}

/// avg_pool{Nd}d, as the table names it.
template <size_t Nd> Status lowerAvgPoolNd(Lowerer &l, const Node &n, const BoundArgs &args) {
  return lowerAvgPool(l, n, args, Nd);
}

/// adaptive_avg_pool1d, _adaptive_avg_pool{2,3}d: adaptive windows; sizes that are symbolic
/// (other than a whole-dim window) stay extern.
Status lowerAdaptiveAvgPool(Lowerer &l, const Node &n, const BoundArgs &args, size_t nd) {
  FXKIT_ASSIGN_OR_RETURN(auto self, l.tensorArg(n, args.get("self")));
  const TensorType *out = n.value().tensor();
  if (!out || storedDType(l, self) == DType::Bool || self.sizes.size() != out->sizes.size() ||
      self.sizes.size() < nd + 1)
    return l.lowerExtern(n, args);
  size_t lead = out->sizes.size() - nd;
  auto axisAt = [&](size_t d, const SymExpr &o) {
    return adaptiveAxis(o, self.sizes[lead + d], out->sizes[lead + d]);
  };
  for (size_t d = 0; d < nd; ++d)
    if (!axisAt(d, SymExpr(0)))
      return l.lowerExtern(n, args);
  return lowerWindowAverage(l, n, self, *out, axisAt, nd, std::nullopt);
}

/// adaptive_avg_pool{Nd}d, as the table names it.
template <size_t Nd>
Status lowerAdaptiveAvgPoolNd(Lowerer &l, const Node &n, const BoundArgs &args) {
  return lowerAdaptiveAvgPool(l, n, args, Nd);
}

// ---- Padding ----

/// reflection_pad{1,2,3}d (mirror without repeating the edge: i -> in - 1 - |in - 1 - |i||)
/// and replication_pad{1,2,3}d (clamp into [0, in)), i = output position - left padding, over
/// the last nd dims. Negative padding crops; a side that does not pad needs no arithmetic.
Status lowerPad(Lowerer &l, const Node &n, const BoundArgs &args, size_t nd, bool reflect) {
  auto self = l.tensorArg(n, args.get("self"));
  auto padding = args.symIntList("padding");
  const TensorType *out = n.value().tensor();
  if (!self || !padding || !out || padding->size() != 2 * nd ||
      self->sizes.size() != out->sizes.size() || self->sizes.size() < nd)
    return l.lowerExtern(n, args);
  LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
  std::vector<SymExpr> vars = iterate(out->sizes, op.ranges, false);
  BodyBuilder b(op);
  size_t rank = out->sizes.size();
  std::vector<SymExpr> at = vars;
  auto abs = [](const SymExpr &e) { return symMax(e, symSub(SymExpr(0), e)); };
  for (size_t j = 0; j < nd; ++j) {
    size_t d = rank - 1 - j;
    const SymExpr &left = (*padding)[2 * j], &right = (*padding)[2 * j + 1];
    SymExpr last = symSub(self->sizes[d], SymExpr(1));
    SymExpr i = symSub(vars[d], left);
    if (reflect) {
      if (!isConstantAtMost(left, 0))
        i = abs(i);
      if (!isConstantAtMost(right, 0))
        i = symSub(last, abs(symSub(last, i)));
    } else {
      if (!isConstantAtMost(left, 0))
        i = symMax(i, SymExpr(0));
      if (!isConstantAtMost(right, 0))
        i = symMin(i, last);
    }
    at[d] = i;
  }
  int32_t v = b.load(self->buffer, linearIndex(self->offset, self->sizes, self->strides, at),
                     storedDType(l, *self));
  l.values_[n.scratch()] = l.finishPointwise(op, b, v, *out, vars);
  return Status::ok();
}

template <size_t nd, bool reflect>
Status lowerPadNd(Lowerer &l, const Node &n, const BoundArgs &args) {
  return lowerPad(l, n, args, nd, reflect);
}

// ---- Upsampling ----

/// floor(o * num / den) for o >= 0, as an integer (Python's floor division for a negative
/// numerator).
int64_t floorRatio(int64_t numerator, int64_t den) {
  int64_t q = numerator / den;
  return (numerator % den != 0 && (numerator < 0) != (den < 0)) ? q - 1 : q;
}

/// A double as m / 2^e with integers m and e >= 0 (every finite double is one), when m and
/// 2^e are small enough that the index expressions built from them (a multiple of the output
/// position, below 4 * outSize * max(m, 2^e)) cannot overflow.
std::optional<std::pair<int64_t, int64_t>> dyadic(double v, int64_t outSize) {
  if (!(v > 0) || !std::isfinite(v))
    return std::nullopt;
  int exponent = 0;
  double scaled = std::frexp(v, &exponent); // v = scaled * 2^exponent, scaled in [0.5, 1)
  int shift = 0;
  while (scaled != std::floor(scaled)) { // at most 53 doublings
    scaled *= 2;
    ++shift;
  }
  int e = shift - exponent; // v = scaled / 2^e
  int64_t limit = (int64_t(1) << 56) / std::max<int64_t>(outSize, 1);
  if (e < -20 || e > 55 || scaled > static_cast<double>(limit))
    return std::nullopt;
  int64_t m = static_cast<int64_t>(scaled);
  for (; e < 0; ++e) // an integer
    m *= 2;
  if (m > limit || (int64_t(1) << e) > limit)
    return std::nullopt;
  return std::make_pair(m, int64_t(1) << e);
}

/// The continued-fraction convergents p / q of v > 0 with q up to maxDen: the best small
/// rationals near v (1 / 2.3 in double is 10 / 23 up to rounding).
std::vector<std::pair<int64_t, int64_t>> convergents(double v, int64_t maxDen) {
  std::vector<std::pair<int64_t, int64_t>> out;
  int64_t p0 = 0, q0 = 1, p1 = 1, q1 = 0;
  double x = v;
  for (int i = 0; i < 40 && std::isfinite(x) && x < 1e15; ++i) {
    auto a = static_cast<int64_t>(std::floor(x));
    int64_t p = a * p1 + p0, q = a * q1 + q0;
    if (q > maxDen || p > maxDen)
      break;
    out.emplace_back(p, q);
    p0 = p1, q0 = q1, p1 = p, q1 = q;
    double frac = x - static_cast<double>(a);
    if (frac <= 0)
      break;
    x = 1 / frac;
  }
  return out;
}

/// An index expression for a source index that is floor((a o + b) / c) at every output
/// position, clamped into [lo, hi] where needed: the first candidate (a, b, c) that equals
/// `want(o)` for every o < out; nullopt if none does.
std::optional<SymExpr> matchSourceIndex(const SymExpr &o, int64_t out,
                                        const std::vector<std::array<int64_t, 3>> &candidates,
                                        int64_t lo, int64_t hi,
                                        const std::function<int64_t(int64_t)> &want) {
  for (const auto &[a, bias, c] : candidates) {
    if (c <= 0)
      continue;
    bool ok = true, clampLow = false, clampHigh = false;
    for (int64_t i = 0; i < out && ok; ++i) {
      int64_t raw = floorRatio(a * i + bias, c);
      clampLow = clampLow || raw < lo;
      clampHigh = clampHigh || raw > hi;
      ok = std::clamp(raw, lo, hi) == want(i);
    }
    if (!ok)
      continue;
    SymExpr e = symFloorDiv(symAdd(symMul(o, SymExpr(a)), SymExpr(bias)), SymExpr(c));
    if (clampLow)
      e = symMax(e, SymExpr(lo));
    if (clampHigh)
      e = symMin(e, SymExpr(hi));
    return e;
  }
  return std::nullopt;
}

/// Constant spatial sizes of an upsampling (input and output), or nullopt.
std::optional<std::array<std::pair<int64_t, int64_t>, 2>> upsampleSizes(const BufferView &in,
                                                                        const TensorType &out) {
  if (in.sizes.size() != 4 || out.sizes.size() != 4)
    return std::nullopt;
  std::array<std::pair<int64_t, int64_t>, 2> sizes;
  for (size_t d = 0; d < 2; ++d) {
    const SymExpr &i = in.sizes[2 + d], &o = out.sizes[2 + d];
    if (!i.isConstant() || !o.isConstant() || i.constant() <= 0 || o.constant() <= 0)
      return std::nullopt;
    sizes[d] = {i.constant(), o.constant()};
  }
  return sizes;
}

/// upsample_nearest2d.vec and _upsample_nearest_exact2d.vec: each output point copies the input
/// at its source indices (nearestSourceIndex: floor(o * scale) in float, or
/// nearestExactSourceIndex: floor((o + 0.5) * scale), matched by an exact index expression).
Status lowerUpsampleNearest2d(Lowerer &l, const Node &n, const BoundArgs &args) {
  const bool exact = args.op().schema.name == "_upsample_nearest_exact2d";
  FXKIT_ASSIGN_OR_RETURN(auto input, l.tensorArg(n, args.get("input")));
  const TensorType *out = n.value().tensor();
  auto sizes = out ? upsampleSizes(input, *out) : std::nullopt;
  if (!sizes)
    return l.lowerExtern(n, args);
  std::optional<double> scales[2];
  for (size_t d = 0; d < 2; ++d) {
    FXKIT_ASSIGN_OR_RETURN(auto s, upsampleScale(args, d));
    scales[d] = s;
  }
  std::vector<SymExpr> ranges;
  std::vector<SymExpr> vars = iterate(out->sizes, ranges, false);
  std::vector<SymExpr> at = vars;
  for (size_t d = 0; d < 2; ++d) {
    const int64_t in = (*sizes)[d].first, outN = (*sizes)[d].second; // captured below
    // Ratios p / q for floor(o p / q); the exact form's floor((o + 0.5) p / q) is
    // floor((2p o + p) / 2q).
    std::vector<std::array<int64_t, 3>> ratios = {{1, 0, 1}, {1, 0, 2}, {in, 0, outN}};
    if (auto m = dyadic(nearestScale(in, outN, scales[d]), outN))
      ratios.push_back({m->first, 0, m->second});
    if (auto f = scales[d] ? dyadic(*scales[d], outN) : std::nullopt) // 1 / scale exactly
      ratios.push_back({f->second, 0, f->first});
    for (auto [p, q] :
         convergents(nearestScale(in, outN, scales[d]), (int64_t(1) << (exact ? 39 : 40)) / outN))
      ratios.push_back({p, 0, q});
    std::vector<std::array<int64_t, 3>> candidates = ratios;
    if (exact)
      for (auto &[p, bias, q] : candidates)
        bias = p, p *= 2, q *= 2;
    auto e = matchSourceIndex(vars[2 + d], outN, candidates, 0, in - 1, [&](int64_t o) {
      return exact ? nearestExactSourceIndex(o, in, outN, scales[d])
                   : nearestSourceIndex(o, in, outN, scales[d]);
    });
    if (!e)
      return l.lowerExtern(n, args);
    at[2 + d] = *e;
  }
  LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
  op.ranges = std::move(ranges);
  BodyBuilder b(op);
  int32_t v = b.load(input.buffer, linearIndex(input.offset, input.sizes, input.strides, at),
                     storedDType(l, input));
  l.values_[n.scratch()] = l.finishPointwise(op, b, v, *out, vars);
  return Status::ok();
}

/// upsample_bilinear2d.vec: the four neighbours at linearSource's indices (matched by exact
/// index expressions), weighted by lambdas computed in the body as PyTorch computes them (in
/// float; double for float64), top and bottom rows first.
Status lowerUpsampleBilinear2d(Lowerer &l, const Node &n, const BoundArgs &args) {
  auto input = l.tensorArg(n, args.get("input"));
  auto alignCorners = args.boolean("align_corners");
  FXKIT_TRY(firstError(input, alignCorners));
  const TensorType *out = n.value().tensor();
  auto sizes = out ? upsampleSizes(*input, *out) : std::nullopt;
  DType stored = storedDType(l, *input);
  if (!sizes || !dtypeIsFloating(stored))
    return l.lowerExtern(n, args);
  bool wide = stored == DType::Float64;
  DType compute = wide ? DType::Float64 : DType::Float32;
  std::vector<SymExpr> ranges;
  std::vector<SymExpr> vars = iterate(out->sizes, ranges, false);
  SymExpr i0[2], i1[2];
  double scale[2];
  for (size_t d = 0; d < 2; ++d) {
    const int64_t in = (*sizes)[d].first, outN = (*sizes)[d].second; // captured below
    FXKIT_ASSIGN_OR_RETURN(auto factor, upsampleScale(args, d));
    auto source = [&](int64_t o) {
      return wide ? linearSource<double>(o, in, outN, *alignCorners, factor).i0
                  : linearSource<float>(o, in, outN, *alignCorners, factor).i0;
    };
    double s = wide ? linearScale<double>(in, outN, *alignCorners, factor)
                    : static_cast<double>(linearScale<float>(in, outN, *alignCorners, factor));
    // i0 = floor(src): src = s o (align_corners) or s (o + 1/2) - 1/2 = (2 s o + s - 1) / 2
    // clamped at 0, with s = in / out, (in - 1) / (out - 1) or the float's exact m / 2^e.
    std::vector<std::array<int64_t, 3>> candidates;
    if (*alignCorners) {
      candidates.push_back({outN > 1 ? in - 1 : 0, 0, std::max<int64_t>(outN - 1, 1)});
      if (auto m = dyadic(s, outN))
        candidates.push_back({m->first, 0, m->second});
      for (auto [p, q] : convergents(s, (int64_t(1) << 40) / outN))
        candidates.push_back({p, 0, q});
    } else {
      candidates.push_back({2 * in, in - outN, 2 * outN});
      if (auto m = dyadic(s, 2 * outN))
        candidates.push_back({2 * m->first, m->first - m->second, 2 * m->second});
      if (auto f = factor ? dyadic(*factor, 2 * outN) : std::nullopt) // s = 1 / scale exactly
        candidates.push_back({2 * f->second, f->second - f->first, 2 * f->first});
      for (auto [p, q] : convergents(s, (int64_t(1) << 40) / outN))
        candidates.push_back({2 * p, p - q, 2 * q});
    }
    auto e = matchSourceIndex(vars[2 + d], outN, candidates, 0, in - 1, source);
    bool inRange = true;
    for (int64_t o = 0; o < outN; ++o)
      inRange = inRange && source(o) >= 0 && source(o) <= in - 1;
    if (!e || !inRange)
      return l.lowerExtern(n, args);
    i0[d] = *e;
    i1[d] = in > 1 ? symMin(symAdd(*e, SymExpr(1)), SymExpr(in - 1)) : *e;
    scale[d] = s;
  }
  LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
  op.ranges = std::move(ranges);
  BodyBuilder b(op);
  // lambda1 = clamp(src - i0, 0, 1), computed as PyTorch does in the kernel's precision.
  int32_t lambda1[2], lambda0[2];
  auto constant = [&](double v) { return b.constant(v, compute); };
  for (size_t d = 0; d < 2; ++d) {
    int32_t o = b.indexValue(vars[2 + d], compute);
    int32_t src;
    if (*alignCorners) {
      src = b.op(ScalarOp::Mul, compute, constant(scale[d]), o);
    } else {
      int32_t half = constant(0.5);
      src = b.op(
          ScalarOp::Sub, compute,
          b.op(ScalarOp::Mul, compute, constant(scale[d]), b.op(ScalarOp::Add, compute, o, half)),
          half);
      src = b.op(ScalarOp::Maximum, compute, src, constant(0));
    }
    int32_t frac = b.op(ScalarOp::Sub, compute, src, b.indexValue(i0[d], compute));
    lambda1[d] = b.op(ScalarOp::Minimum, compute,
                      b.op(ScalarOp::Maximum, compute, frac, constant(0)), constant(1));
    lambda0[d] = b.op(ScalarOp::Sub, compute, constant(1), lambda1[d]);
  }
  auto corner = [&](const SymExpr &h, const SymExpr &w) {
    std::vector<SymExpr> at = {vars[0], vars[1], h, w};
    int32_t v =
        b.load(input->buffer, linearIndex(input->offset, input->sizes, input->strides, at), stored);
    return b.cast(v, compute);
  };
  auto mix = [&](int32_t w0, int32_t a, int32_t w1, int32_t c) {
    return b.op(ScalarOp::Add, compute, b.op(ScalarOp::Mul, compute, w0, a),
                b.op(ScalarOp::Mul, compute, w1, c));
  };
  int32_t top = mix(lambda0[1], corner(i0[0], i0[1]), lambda1[1], corner(i0[0], i1[1]));
  int32_t bottom = mix(lambda0[1], corner(i1[0], i0[1]), lambda1[1], corner(i1[0], i1[1]));
  int32_t value = mix(lambda0[0], top, lambda1[0], bottom);
  l.values_[n.scratch()] = l.finishPointwise(op, b, value, *out, vars);
  return Status::ok();
}

// ---- Pooling gradients ----

/// The outputs of a pooling whose windows may cover input position h along one dim:
/// candidates o = first(h) + j for j < count, the real ones where o >= 0, o <= last(h) and
/// o < out. Each check is kept only where some h needs it (constant sizes: every h is tried).
struct CoverAxis {
  SymExpr first, last;
  int64_t out = 0, count = 0;
  std::vector<bool> checkLow, checkLast, checkOut; ///< per j
};

/// `first` and `last` as index expressions of h and as functions of a known h.
CoverAxis coverAxis(int64_t in, int64_t out, SymExpr first, SymExpr last,
                    const std::function<std::pair<int64_t, int64_t>(int64_t)> &range) {
  CoverAxis c;
  c.first = std::move(first);
  c.last = std::move(last);
  c.out = out;
  for (int64_t h = 0; h < in; ++h) {
    auto [lo, hi] = range(h);
    c.count = std::max(c.count, hi - lo + 1);
  }
  c.checkLow.assign(c.count, false);
  c.checkLast.assign(c.count, false);
  c.checkOut.assign(c.count, false);
  for (int64_t h = 0; h < in; ++h) {
    auto [lo, hi] = range(h);
    for (int64_t j = 0; j < c.count; ++j) {
      c.checkLow[j] = c.checkLow[j] || lo + j < 0;
      c.checkLast[j] = c.checkLast[j] || lo + j > hi;
      c.checkOut[j] = c.checkOut[j] || lo + j >= out;
    }
  }
  return c;
}

/// What a pooling gradient adds for one covering output o (spatial indices `o`, its grad
/// loaded, masked where o is not real): the value to add (where `real` holds).
using CoverTerm = std::function<int32_t(BodyBuilder &b, const std::vector<SymExpr> &o, int32_t grad,
                                        int32_t real)>;

/// A pooling gradient as a gather (Inductor's lowerings of the pooling backwards): each input
/// point sums `term` over the outputs whose windows may cover it, unrolled (constant spatial
/// sizes). Returns false (nothing built) where the candidates are too many.
bool buildCoverSum(Lowerer &l, const Node &n, const BufferView &grad, const TensorType &out,
                   const std::vector<CoverAxis> &axes, DType compute, const CoverTerm &term) {
  int64_t total = 1;
  for (const CoverAxis &c : axes)
    total *= std::max<int64_t>(c.count, 1);
  if (total > kMaxUnrolledMaxTaps)
    return false;
  size_t nd = axes.size(), lead = out.sizes.size() - nd;
  LoopOp &op = l.newOp(LoopOpKind::Pointwise, n);
  std::vector<SymExpr> vars = iterate(out.sizes, op.ranges, false);
  BodyBuilder b(op);
  int32_t zero = b.intConstant(0, DType::Int64);
  // Each axis's masks per j.
  std::vector<std::vector<int32_t>> masks(nd);
  std::vector<std::vector<SymExpr>> candidates(nd);
  auto both = [&](int32_t a, int32_t c) {
    return a < 0 ? c : c < 0 ? a : b.op(ScalarOp::LogicalAnd, DType::Bool, a, c);
  };
  for (size_t d = 0; d < nd; ++d) {
    const CoverAxis &c = axes[d];
    const SymExpr &first = c.first, &last = c.last;
    for (int64_t j = 0; j < c.count; ++j) {
      SymExpr o = symAdd(first, SymExpr(j));
      int32_t m = -1;
      if (c.checkLow[j] || c.checkLast[j] || c.checkOut[j]) {
        int32_t at = b.indexValue(o, DType::Int64);
        if (c.checkLow[j])
          m = both(m, b.op(ScalarOp::Ge, DType::Bool, at, zero));
        if (c.checkLast[j])
          m = both(m, b.op(ScalarOp::Le, DType::Bool, at, b.indexValue(last, DType::Int64)));
        if (c.checkOut[j])
          m = both(m, b.op(ScalarOp::Lt, DType::Bool, at, b.intConstant(c.out, DType::Int64)));
      }
      masks[d].push_back(m);
      candidates[d].push_back(o);
    }
  }
  DType stored = storedDType(l, grad);
  int32_t sum = -1;
  std::vector<int64_t> j(nd, 0);
  do {
    int32_t real = -1;
    std::vector<SymExpr> o, at(vars.begin(), vars.begin() + static_cast<std::ptrdiff_t>(lead));
    for (size_t d = 0; d < nd; ++d) {
      real = both(real, masks[d][j[d]]);
      o.push_back(candidates[d][j[d]]);
    }
    at.insert(at.end(), o.begin(), o.end());
    int32_t g = b.load(grad.buffer, linearIndex(grad.offset, grad.sizes, grad.strides, at), stored);
    op.body[g].operands[0] = real;
    int32_t v = term(b, o, b.cast(g, compute), real);
    sum = sum < 0 ? v : b.op(ScalarOp::Add, compute, sum, v);
  } while (nextMultiIndex(j, [&](size_t d) { return axes[d].count; }));
  l.values_[n.scratch()] = l.finishPointwise(op, b, sum, out, vars);
  return true;
}

/// The gradient's constant spatial sizes (input, output) per dim, or nullopt.
std::optional<std::vector<std::pair<int64_t, int64_t>>>
gradientSizes(const BufferView &grad, const TensorType &out, size_t nd) {
  if (grad.sizes.size() != out.sizes.size() || out.sizes.size() < nd + 1)
    return std::nullopt;
  std::vector<std::pair<int64_t, int64_t>> sizes;
  size_t lead = out.sizes.size() - nd;
  for (size_t d = 0; d < nd; ++d) {
    const SymExpr &i = out.sizes[lead + d], &o = grad.sizes[lead + d];
    if (!i.isConstant() || !o.isConstant() || i.constant() <= 0 || o.constant() <= 0)
      return std::nullopt;
    sizes.emplace_back(i.constant(), o.constant());
  }
  return sizes;
}

/// The outputs of a fixed window (span = dilation (k - 1) + 1) that may cover h: o s - p <= h
/// < o s - p + span.
CoverAxis fixedCover(const SymExpr &h, int64_t in, int64_t out, int64_t span, int64_t s,
                     int64_t p) {
  return coverAxis(in, out,
                   symAdd(symFloorDiv(symAdd(h, SymExpr(p - span)), SymExpr(s)), SymExpr(1)),
                   symFloorDiv(symAdd(h, SymExpr(p)), SymExpr(s)), [&](int64_t i) {
                     return std::make_pair(floorRatio(i + p - span, s) + 1, floorRatio(i + p, s));
                   });
}

/// Where the 2-d pooling backward lowerings start: the result (the input's gradient), the
/// (input, output) size of each spatial dim, the count of leading dims and a variable per
/// result dim (no op's ranges: buildCoverSum makes the op); nullopt where the sizes do not fit.
struct PoolGradient {
  const TensorType *out = nullptr;
  std::vector<std::pair<int64_t, int64_t>> sizes;
  size_t lead = 0;
  std::vector<SymExpr> vars;
};

std::optional<PoolGradient> poolGradient(const Node &n, const BufferView &grad) {
  const TensorType *out = n.value().tensor();
  auto sizes = out ? gradientSizes(grad, *out, 2) : std::nullopt;
  if (!sizes)
    return std::nullopt;
  PoolGradient p{out, std::move(*sizes), out->sizes.size() - 2, {}};
  std::vector<SymExpr> ranges;
  p.vars = iterate(out->sizes, ranges, false);
  return p;
}

/// max_pool2d_with_indices_backward: each input point sums the gradients of the outputs whose
/// recorded index is that point (indices flattened over the input plane).
Status lowerMaxPool2dBackward(Lowerer &l, const Node &n, const BoundArgs &args) {
  auto grad = l.tensorArg(n, args.get("grad_output"));
  auto indices = l.tensorArg(n, args.get("indices"));
  auto w = readPoolWindow(args, 2);
  FXKIT_TRY(firstError(grad, indices, w));
  auto p = poolGradient(n, *grad);
  if (!p || indices->sizes.size() != grad->sizes.size())
    return l.lowerExtern(n, args);
  std::vector<CoverAxis> axes;
  for (size_t d = 0; d < 2; ++d)
    axes.push_back(fixedCover(p->vars[p->lead + d], p->sizes[d].first, p->sizes[d].second,
                              w->dilation[d] * (w->kernel[d] - 1) + 1, w->stride[d],
                              w->padding[d]));
  SymExpr here = symAdd(symMul(p->vars[p->lead], SymExpr(p->sizes[1].first)), p->vars[p->lead + 1]);
  DType compute = computeDType(storedDType(l, *grad));
  DType indexType = storedDType(l, *indices);
  int32_t hereValue = -1;
  CoverTerm term = [&](BodyBuilder &b, const std::vector<SymExpr> &o, int32_t g, int32_t real) {
    std::vector<SymExpr> at(p->vars.begin(),
                            p->vars.begin() + static_cast<std::ptrdiff_t>(p->lead));
    at.insert(at.end(), o.begin(), o.end());
    int32_t index =
        b.load(indices->buffer, linearIndex(indices->offset, indices->sizes, indices->strides, at),
               indexType);
    l.program_.ops.back().body[index].operands[0] = real;
    if (hereValue < 0)
      hereValue = b.indexValue(here, DType::Int64);
    int32_t hit = b.op(ScalarOp::Eq, DType::Bool, b.cast(index, DType::Int64), hereValue);
    if (real >= 0)
      hit = b.op(ScalarOp::LogicalAnd, DType::Bool, real, hit);
    return b.op(ScalarOp::Where, compute, hit, g, b.constant(0, compute));
  };
  if (!buildCoverSum(l, n, *grad, *p->out, axes, compute, term))
    return l.lowerExtern(n, args);
  return Status::ok();
}

/// avg_pool2d_backward: each input point sums grad / divisor over the windows covering it.
Status lowerAvgPool2dBackward(Lowerer &l, const Node &n, const BoundArgs &args) {
  auto grad = l.tensorArg(n, args.get("grad_output"));
  auto w = readPoolWindow(args, 2);
  auto includePad = args.boolean("count_include_pad");
  auto divisorOverride = args.optionalInteger("divisor_override");
  FXKIT_TRY(firstError(grad, w, includePad, divisorOverride));
  auto p = poolGradient(n, *grad);
  if (!p || (*divisorOverride && **divisorOverride == 0))
    return l.lowerExtern(n, args);
  std::vector<CoverAxis> axes;
  for (size_t d = 0; d < 2; ++d)
    axes.push_back(fixedCover(p->vars[p->lead + d], p->sizes[d].first, p->sizes[d].second,
                              w->kernel[d], w->stride[d], w->padding[d]));
  DType compute = computeDType(storedDType(l, *grad));
  bool floating = dtypeIsFloating(compute);
  CoverTerm term = [&](BodyBuilder &b, const std::vector<SymExpr> &o, int32_t g, int32_t real) {
    int32_t divisor;
    if (*divisorOverride) {
      divisor = floating ? b.constant(static_cast<double>(**divisorOverride), compute)
                         : b.intConstant(**divisorOverride, compute);
    } else {
      std::vector<SymExpr> counts;
      for (size_t d = 0; d < 2; ++d)
        counts.push_back(fixedAxis(o[d], SymExpr(p->sizes[d].first), SymExpr(p->sizes[d].second),
                                   w->kernel[d], w->stride[d], w->padding[d], 1, w->ceil,
                                   *includePad)
                             .count);
      divisor = countProduct(b, counts, compute);
    }
    int32_t v = b.op(floating ? ScalarOp::TrueDiv : ScalarOp::TruncDiv, compute, g, divisor);
    // A candidate that is not an output may have no divisor: its term is 0, not 0 / 0.
    return real < 0 ? v
                    : b.op(ScalarOp::Where, compute, real, v,
                           floating ? b.constant(0, compute) : b.intConstant(0, compute));
  };
  if (!floating || !buildCoverSum(l, n, *grad, *p->out, axes, compute, term))
    return l.lowerExtern(n, args);
  return Status::ok();
}

/// _adaptive_avg_pool2d_backward: each input point sums grad / window size over the adaptive
/// windows covering it: o from floor(h out / in) to floor(((h + 1) out - 1) / in).
Status lowerAdaptiveAvgPool2dBackward(Lowerer &l, const Node &n, const BoundArgs &args) {
  FXKIT_ASSIGN_OR_RETURN(auto grad, l.tensorArg(n, args.get("grad_output")));
  auto p = poolGradient(n, grad);
  if (!p || !dtypeIsFloating(storedDType(l, grad)))
    return l.lowerExtern(n, args);
  std::vector<CoverAxis> axes;
  for (size_t d = 0; d < 2; ++d) {
    const int64_t in = p->sizes[d].first, outN = p->sizes[d].second; // captured below
    const SymExpr &h = p->vars[p->lead + d];
    axes.push_back(coverAxis(
        in, outN, symFloorDiv(symMul(h, SymExpr(outN)), SymExpr(in)),
        symFloorDiv(symSub(symMul(symAdd(h, SymExpr(1)), SymExpr(outN)), SymExpr(1)), SymExpr(in)),
        [&](int64_t i) {
          return std::make_pair(floorRatio(i * outN, in), floorRatio((i + 1) * outN - 1, in));
        }));
  }
  DType compute = computeDType(storedDType(l, grad));
  CoverTerm term = [&](BodyBuilder &b, const std::vector<SymExpr> &o, int32_t g, int32_t real) {
    std::vector<SymExpr> counts;
    for (size_t d = 0; d < 2; ++d)
      counts.push_back(
          adaptiveAxis(o[d], SymExpr(p->sizes[d].first), SymExpr(p->sizes[d].second))->count);
    int32_t v = b.op(ScalarOp::TrueDiv, compute, g, countProduct(b, counts, compute));
    return real < 0 ? v : b.op(ScalarOp::Where, compute, real, v, b.constant(0, compute));
  };
  if (!buildCoverSum(l, n, grad, *p->out, axes, compute, term))
    return l.lowerExtern(n, args);
  return Status::ok();
}

const LoweringRule kRules[] = {
    {"torch.ops.aten.max_pool2d_with_indices.default", lowerMaxPool2d},
    {"torch.ops.aten.max_pool3d_with_indices.default", lowerMaxPool3d},
    {"torch.ops.aten.adaptive_max_pool2d.default", lowerAdaptiveMaxPool<2>},
    {"torch.ops.aten.adaptive_max_pool3d.default", lowerAdaptiveMaxPool<3>},
    {"torch.ops.prims._low_memory_max_pool_with_offsets.default", lowerLowMemoryMaxPool},
    {"torch.ops.prims._low_memory_max_pool_offsets_to_indices.default", lowerOffsetsToIndices},
    {"torch.ops.aten.avg_pool1d.default", lowerAvgPoolNd<1>},
    {"torch.ops.aten.avg_pool2d.default", lowerAvgPoolNd<2>},
    {"torch.ops.aten.avg_pool3d.default", lowerAvgPoolNd<3>},
    {"torch.ops.aten.adaptive_avg_pool1d.default", lowerAdaptiveAvgPoolNd<1>},
    {"torch.ops.aten._adaptive_avg_pool2d.default", lowerAdaptiveAvgPoolNd<2>},
    {"torch.ops.aten._adaptive_avg_pool3d.default", lowerAdaptiveAvgPoolNd<3>},
    {"torch.ops.aten.reflection_pad1d.default", lowerPadNd<1, true>},
    {"torch.ops.aten.reflection_pad2d.default", lowerPadNd<2, true>},
    {"torch.ops.aten.reflection_pad3d.default", lowerPadNd<3, true>},
    {"torch.ops.aten.replication_pad1d.default", lowerPadNd<1, false>},
    {"torch.ops.aten.replication_pad2d.default", lowerPadNd<2, false>},
    {"torch.ops.aten.replication_pad3d.default", lowerPadNd<3, false>},
    {"torch.ops.aten.upsample_nearest2d.vec", lowerUpsampleNearest2d},
    {"torch.ops.aten._upsample_nearest_exact2d.vec", lowerUpsampleNearest2d},
    {"torch.ops.aten.upsample_bilinear2d.vec", lowerUpsampleBilinear2d},
    {"torch.ops.aten.max_pool2d_with_indices_backward.default", lowerMaxPool2dBackward},
    {"torch.ops.aten.avg_pool2d_backward.default", lowerAvgPool2dBackward},
    {"torch.ops.aten._adaptive_avg_pool2d_backward.default", lowerAdaptiveAvgPool2dBackward},
};

} // namespace

std::span<const LoweringRule> poolingLoweringRules() { return kRules; }

} // namespace fxkit::lowering
