#include "backends/interp/LoopInterpreter.h"

#include "backends/interp/ExternLoopOp.h"
#include "backends/interp/KernelContext.h"

#include "ir/Try.h"
#include "ir/loop/BoundSizes.h"
#include "ir/loop/ScalarEval.h"
#include "ir/loop/ScalarMath.h"

#include <cmath>
#include <limits>
#include <optional>

namespace fxkit {

using namespace loop;
namespace math = loop::math;

namespace {

/// The value `v` takes when stored as `dtype` (every instruction's result is rounded so, as
/// eager PyTorch rounds every op's result).
double roundTo(double v, DType dtype) {
  switch (dtype) {
  case DType::Float32:
  case DType::Float16:
  case DType::BFloat16:
  case DType::Float64:
    return roundToFloating(v, dtype);
  case DType::Bool:
    return v != 0 ? 1 : 0;
  case DType::Int16:
    return std::isnan(v) ? 0 : static_cast<int16_t>(static_cast<int64_t>(std::trunc(v)));
  case DType::Int8:
    return std::isnan(v) ? 0 : static_cast<int8_t>(static_cast<int64_t>(std::trunc(v)));
  case DType::UInt8:
    return std::isnan(v) ? 0 : static_cast<uint8_t>(static_cast<int64_t>(std::trunc(v)));
  default:
    if (std::isnan(v))
      return 0;
    return std::trunc(v);
  }
}

/// One scalar op of a loop body on values held as doubles (ScalarOps.def's semantics): an
/// Arith op of an integral dtype computes exactly in int64 and wraps to the dtype (an integer
/// division by zero gives 0, as the loop interpreter has no error path per point), every other
/// op in double.
double apply(ScalarOp op, DType dtype, double a, double b, double c) {
  if (op == ScalarOp::Cast)
    return a;
  if (!dtypeIsFloating(dtype) && scalarOpKind(op) == ScalarOpKind::Arith) {
    auto v = evalScalarInt(op, dtype, static_cast<int64_t>(a), static_cast<int64_t>(b),
                           static_cast<int64_t>(c));
    return v ? static_cast<double>(wrapToIntegral(dtype, *v)) : 0.0;
  }
  return evalScalarFloatIn(op, dtype, a, b, c);
}

/// Running state of one reduction over a row.
struct Accumulator {
  explicit Accumulator(const LoopOp &op)
      : kind(op.reduction), integral(!dtypeIsFloating(op.accumulator)) {}
  ReductionKind kind;
  bool integral; ///< the accumulator is an integer (Prod multiplies exactly, wrapping)
  double sum = 0, max = -INFINITY, min = INFINITY;
  double mean = 0, m2 = 0; // Welford
  int64_t count = 0;
  std::vector<double> values; // online softmax: kept to take exp(x - max) after the max
  double product = 1;
  uint64_t exactProduct = 1; // integral Prod, modulo 2^64 as int64 arithmetic
  bool flag = false;         // Any: seen a nonzero; All: seen a zero
  double best = 0;           // ArgMax/ArgMin: the best value so far and its index
  double bestIndex = -1;

  /// Whether (v, index) replaces the best so far: a better value (NaN beats every number),
  /// or an equal one (NaN equals NaN) at a lower index.
  bool better(double v, double index) const {
    if (bestIndex < 0)
      return true;
    bool vNan = std::isnan(v), bNan = std::isnan(best);
    if (vNan || bNan)
      return vNan && (!bNan || index < bestIndex);
    if (v == best)
      return index < bestIndex;
    return kind == ReductionKind::ArgMax ? v > best : v < best;
  }

  void add(double v, double index) {
    ++count;
    switch (kind) {
    case ReductionKind::Prod:
      if (integral)
        exactProduct *= static_cast<uint64_t>(static_cast<int64_t>(v));
      else
        product *= v;
      break;
    case ReductionKind::Any:
      flag = flag || v != 0;
      break;
    case ReductionKind::All:
      flag = flag || v == 0;
      break;
    case ReductionKind::ArgMax:
    case ReductionKind::ArgMin:
      if (better(v, index)) {
        best = v;
        bestIndex = index;
      }
      break;
    case ReductionKind::LogSumExp:
      max = math::nanMax(max, v);
      values.push_back(v);
      break;
    case ReductionKind::Sum:
    case ReductionKind::Mean:
      sum += v;
      break;
    case ReductionKind::Max:
      max = math::nanMax(max, v);
      break;
    case ReductionKind::Min:
      min = math::nanMin(min, v);
      break;
    case ReductionKind::VarMean: {
      double delta = v - mean;
      mean += delta / static_cast<double>(count);
      m2 += delta * (v - mean);
      break;
    }
    case ReductionKind::OnlineSoftmax:
      max = math::nanMax(max, v);
      values.push_back(v);
      break;
    }
  }
  /// An integer Prod's product, exact (a double holds 53 bits of it).
  std::optional<int64_t> exactResult() const {
    if (kind == ReductionKind::Prod && integral)
      return static_cast<int64_t>(exactProduct);
    return std::nullopt;
  }
  double result(int index, double correction) const {
    switch (kind) {
    case ReductionKind::Prod:
      return integral ? static_cast<double>(static_cast<int64_t>(exactProduct)) : product;
    case ReductionKind::Any:
      return flag ? 1 : 0;
    case ReductionKind::All:
      return flag ? 0 : 1;
    case ReductionKind::ArgMax:
    case ReductionKind::ArgMin:
      return index == 1 ? bestIndex : best;
    case ReductionKind::LogSumExp: {
      // As torch._refs.logsumexp: an infinite max is taken as 0, which leaves it the result.
      if (std::isinf(max) || std::isnan(max))
        return max;
      double s = 0;
      for (double v : values)
        s += std::exp(v - max);
      return std::log(s) + max;
    }
    case ReductionKind::Sum:
      return sum;
    case ReductionKind::Mean:
      return sum / static_cast<double>(count);
    case ReductionKind::Max:
      return max;
    case ReductionKind::Min:
      return min;
    case ReductionKind::VarMean:
      if (index == 1) // the mean of no points is 0 / 0, as var_mean's decomposition gives
        return count == 0 ? NAN : mean;
      return m2 / std::max(0.0, static_cast<double>(count) - correction);
    case ReductionKind::OnlineSoftmax: {
      if (index == 0)
        return max;
      // As eager's definition (amax, then sum(exp(x - amax))): an infinite max makes the sum
      // NaN (inf - inf), where Inductor's Triton helper counts such points as 1.
      double s = 0;
      for (double v : values)
        s += std::exp(v - max);
      return s;
    }
    }
    return NAN;
  }
};

/// Elements from the start of a tensor's storage to one past its last element.
int64_t storageExtent(const Tensor &t) {
  int64_t n = t.storageOffset() + 1;
  for (int64_t d = 0; d < t.dim(); ++d)
    n += (t.size(d) - 1) * t.stride(d);
  return std::max<int64_t>(n, 1);
}

class LoopRunner {
public:
  LoopRunner(const LoopProgram &p, const FusedProgram &f,
             const volatile std::sig_atomic_t *interrupt, const KernelTap *tap)
      : p_(p), f_(f), interrupt_(interrupt), tap_(tap) {}
  Expected<InterpretResult> run(std::span<const RuntimeValue> inputs);

private:
  Status bindInputs(std::span<const RuntimeValue> inputs);
  Status runExtern(const Kernel &k);
  /// Allocates buffer `b` unless it has storage or a symbol of its size is still unbound.
  Status allocateIfSized(int32_t b);
  /// Per buffer: whether storage_ holds its allocation (one sized by an unbacked symbol waits
  /// for the extern op that binds it).
  std::vector<bool> allocated_;
  Status runGenerated(const Kernel &k);
  /// `scanned`: set to the op's scanned value at this point instead of storing (scans).
  Status runOpAt(const Kernel &k, size_t opIndex, int64_t x, int64_t r, Accumulator *acc,
                 double *scanned = nullptr);
  /// Row `x` of scan op `opIndex` (its kept ranges evaluated: `opRanges`).
  Status runScanRow(const Kernel &k, size_t opIndex, int64_t x,
                    const std::vector<int64_t> &opRanges);
  Expected<int64_t> eval(const SymExpr &e) {
    auto v = e.evaluate(bindings_);
    if (!v)
      return Error("loop program: " + v.error().message);
    return v;
  }
  /// Binds op variables (`x0`.. or `r0`..) to the row-major unflattening of `flat` over
  /// `ranges`.
  void bindVars(const std::vector<int64_t> &ranges, int64_t flat, bool reduction,
                size_t first = 0) {
    for (size_t j = ranges.size(); j-- > 0;) {
      int64_t size = ranges[j];
      bindings_[loopVarName(reduction, first + j)] = size > 0 ? flat % size : 0;
      flat = size > 0 ? flat / size : 0;
    }
  }
  Expected<std::vector<int64_t>> evalAll(const std::vector<SymExpr> &xs) {
    std::vector<int64_t> out;
    for (const SymExpr &e : xs) {
      FXKIT_ASSIGN_OR_RETURN(auto v, eval(e));
      out.push_back(v);
    }
    return out;
  }

  const LoopProgram &p_;
  const FusedProgram &f_;
  const volatile std::sig_atomic_t *interrupt_;
  const KernelTap *tap_;
  SymExpr::Bindings bindings_;
  std::vector<Tensor> storage_;
  std::span<const RuntimeValue> inputs_; ///< the run's inputs (in-place writes go back to them)
  /// Per internal buffer of the running kernel: the row stamp of each element's last write.
  std::vector<std::vector<uint64_t>> stamps_;
  std::vector<bool> internal_;
  uint64_t row_ = 0;
  const Kernel *kernel_ = nullptr;
};

Status LoopRunner::bindInputs(std::span<const RuntimeValue> inputs) {
  if (inputs.size() != p_.inputs.size())
    return Error("the program has " + std::to_string(p_.inputs.size()) + " inputs, got " +
                 std::to_string(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i) {
    int32_t b = p_.inputs[i];
    if (b < 0) {
      const int64_t *v = inputs[i].integer();
      if (!v)
        return Error("input " + std::to_string(i) + " must be an integer");
      auto sym = SymExpr::parse(p_.inputSymbols[i]);
      if (sym && !sym->isConstant() && sym->kind() == SymExpr::Kind::Symbol)
        bindings_.emplace(std::string(sym->name()), *v);
      continue;
    }
    const Tensor *t = inputs[i].tensor();
    const TensorType &type = p_.buffers[b].type;
    if (!t || t->dim() != static_cast<int64_t>(type.sizes.size()))
      return Error("input " + std::to_string(i) + " must be a tensor of type " + type.str());
    for (size_t d = 0; d < type.sizes.size(); ++d)
      if (!type.sizes[d].isConstant() && type.sizes[d].kind() == SymExpr::Kind::Symbol)
        bindings_.emplace(std::string(type.sizes[d].name()), t->size(d));
  }
  storage_.resize(p_.buffers.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    int32_t b = p_.inputs[i];
    if (b < 0)
      continue;
    const Tensor &t = *inputs[i].tensor();
    const TensorType &type = p_.buffers[b].type;
    if (t.dtype() != type.dtype)
      return Error("input " + std::to_string(i) + " has dtype " +
                   std::string(dtypeName(t.dtype())) + ", the program expects " + type.str());
    // The program indexes inputs through their declared layout: copy into it.
    FXKIT_ASSIGN_OR_RETURN(auto declared, allocateTensor(type, bindings_));
    if (declared.sizes() != t.sizes())
      return Error("input " + std::to_string(i) + " does not have the sizes of " + type.str());
    Tensor::forEachIndex(t.sizes(), [&](std::span<const int64_t> index) {
      declared.storeDouble(declared.offsetOf(index), t.getDouble(index));
    });
    storage_[b] = std::move(declared);
  }
  FXKIT_TRY(loop::checkBoundBufferSizes(p_, bindings_));
  allocated_.assign(p_.buffers.size(), false);
  for (size_t b = 0; b < p_.buffers.size(); ++b)
    if (!p_.buffers[b].isInput)
      FXKIT_TRY(allocateIfSized(static_cast<int32_t>(b)));
  return Status::ok();
}

Status LoopRunner::allocateIfSized(int32_t b) {
  if (allocated_[b])
    return Status::ok();
  // A buffer sized by an unbacked symbol waits for the extern op that binds it (even one of no
  // elements: nonzero of a 0-d tensor is [u0, 0]).
  const TensorType &type = p_.buffers[b].type;
  for (const std::vector<SymExpr> *dims : {&type.sizes, &type.strides})
    for (const SymExpr &e : *dims)
      for (const std::string &s : e.symbols())
        if (!bindings_.count(s))
          return Status::ok();
  FXKIT_ASSIGN_OR_RETURN(auto t, allocateTensor(p_.buffers[b].type, bindings_));
  storage_[b] = std::move(t);
  allocated_[b] = true;
  return Status::ok();
}

Status LoopRunner::runExtern(const Kernel &k) {
  const LoopOp &op = p_.ops[k.ops.front()];
  for (int32_t b : op.externOutputs)
    if (b >= 0)
      FXKIT_TRY(allocateIfSized(b));
  size_t boundBefore = bindings_.size();
  FXKIT_TRY(runExternLoopOp(op, storage_, bindings_));
  if (bindings_.size() != boundBefore) // it bound unbacked symbols
    FXKIT_TRY(loop::checkBoundBufferSizes(p_, bindings_));
  // Graph inputs it wrote in place go back to the caller's tensors, as the reference
  // interpreter's kernels write into its inputs' storage.
  for (int32_t b : mutatedBuffers(op))
    for (size_t i = 0; i < p_.inputs.size() && i < inputs_.size(); ++i)
      if (p_.inputs[i] == b && inputs_[i].tensor()) {
        Tensor caller = *inputs_[i].tensor(); // shares the caller's storage
        caller.copyElementsFrom(storage_[b]);
      }
  // Outputs sized by the symbols it bound were allocated by it.
  for (int32_t b : op.externOutputs)
    if (b >= 0)
      allocated_[b] = true;
  return Status::ok();
}

Status LoopRunner::runOpAt(const Kernel &k, size_t opIndex, int64_t x, int64_t r, Accumulator *acc,
                           double *scanned) {
  const LoopOp &op = p_.ops[k.ops[opIndex]];
  std::vector<double> v(op.body.size());
  for (size_t i = 0; i < op.body.size(); ++i) {
    const ScalarInstr &in = op.body[i];
    double value = 0;
    switch (in.op) {
    case ScalarOp::Load: {
      if (in.operands[0] >= 0 && v[in.operands[0]] == 0)
        break; // masked off: not read (its index may be out of range)
      FXKIT_ASSIGN_OR_RETURN(auto index, eval(in.index));
      if (internal_[in.buffer] && stamps_[in.buffer][index] != row_)
        return Error("kernel " + k.name + ": " + op.name + " reads " + p_.buffers[in.buffer].name +
                     "[" + std::to_string(index) +
                     "], which this row of the kernel has not written (an illegal fusion)");
      value = storage_[in.buffer].loadDouble(index);
      break;
    }
    case ScalarOp::Constant:
      value = dtypeIsFloating(in.dtype) ? in.constant : static_cast<double>(in.intConstant);
      break;
    case ScalarOp::IndexValue: {
      FXKIT_ASSIGN_OR_RETURN(auto e, eval(in.index));
      value = static_cast<double>(e);
      break;
    }
    case ScalarOp::IndirectIndex: {
      FXKIT_ASSIGN_OR_RETURN(auto size, eval(in.index));
      auto i = static_cast<int64_t>(v[in.operands[0]]);
      if (i < 0 && in.constant != 0)
        i += size;
      if (i < 0 || i >= size)
        return Error("kernel " + k.name + ": " + op.name + ": index " +
                     std::to_string(static_cast<int64_t>(v[in.operands[0]])) +
                     " is out of bounds for dimension with size " + std::to_string(size));
      bindings_[indirectVarName(in.intConstant)] = i;
      value = static_cast<double>(i);
      break;
    }
    default: {
      double a = in.operands[0] >= 0 ? v[in.operands[0]] : 0;
      double b = in.operands[1] >= 0 ? v[in.operands[1]] : 0;
      double c = in.operands[2] >= 0 ? v[in.operands[2]] : 0;
      if ((in.op == ScalarOp::FloorDiv || in.op == ScalarOp::TruncDiv) &&
          !dtypeIsFloating(in.dtype) && b == 0)
        return Error("kernel " + k.name + ": integer division by zero in " + op.name);
      value = apply(in.op, in.dtype, a, b, c);
    }
    }
    v[i] = roundTo(value, in.dtype);
  }
  if (scanned) {
    *scanned = v[op.reduced];
    return Status::ok();
  }
  if (acc) {
    acc->add(v[op.reduced], op.reducedIndex >= 0 ? v[op.reducedIndex] : 0);
    return Status::ok();
  }
  (void)x;
  (void)r;
  for (const Store &s : op.stores) {
    FXKIT_ASSIGN_OR_RETURN(auto index, eval(s.index));
    double stored = v[s.value];
    if (s.scatter && s.combine != ScatterCombine::Replace)
      stored = roundTo(combineScatter(s.combine, storage_[s.buffer].loadDouble(index), stored),
                       p_.buffers[s.buffer].type.dtype);
    storage_[s.buffer].storeDouble(index, stored);
    if (internal_[s.buffer])
      stamps_[s.buffer][index] = row_;
  }
  return Status::ok();
}

Status LoopRunner::runScanRow(const Kernel &k, size_t opIndex, int64_t x,
                              const std::vector<int64_t> &opRanges) {
  const LoopOp &op = p_.ops[k.ops[opIndex]];
  FXKIT_ASSIGN_OR_RETURN(auto scannedRanges, evalAll(op.reductionRanges));
  int64_t points = 1;
  for (int64_t s : scannedRanges)
    points *= s;
  ScalarOp combine = ScalarOp::Add;
  double running = 0; // the identity
  switch (op.scan) {
  case ScanKind::Sum:
    break;
  case ScanKind::Prod:
    combine = ScalarOp::Mul;
    running = 1;
    break;
  }
  bindVars(opRanges, x, false);
  for (int64_t r = 0; r < points; ++r) {
    bindVars(scannedRanges, r, true);
    double value = 0;
    FXKIT_TRY(runOpAt(k, opIndex, x, r, nullptr, &value));
    // In the accumulator's dtype (float16 values run in float32, integers exactly in int64),
    // each running value rounded to the stored dtype.
    running = roundTo(apply(combine, op.accumulator, running, value, 0), op.accumulator);
    for (const Store &s : op.stores) {
      FXKIT_ASSIGN_OR_RETURN(auto index, eval(s.index));
      storage_[s.buffer].storeDouble(index, roundTo(running, p_.buffers[s.buffer].type.dtype));
      if (internal_[s.buffer])
        stamps_[s.buffer][index] = row_;
    }
  }
  return Status::ok();
}

Status LoopRunner::runGenerated(const Kernel &k) {
  for (int32_t op : k.ops)
    for (int32_t b : p_.ops[op].writes())
      FXKIT_TRY(allocateIfSized(b));
  auto xr = evalAll(k.ranges);
  auto rr = evalAll(k.reductionRanges);
  if (!xr || !rr)
    return Error("kernel " + k.name + ": cannot evaluate its iteration space");
  int64_t rows = 1, reduced = 1;
  for (int64_t s : *xr)
    rows *= s;
  for (int64_t s : *rr)
    reduced *= s;
  internal_.assign(p_.buffers.size(), false);
  stamps_.assign(p_.buffers.size(), {});
  for (int32_t b : k.internal) {
    internal_[b] = true;
    stamps_[b].assign(static_cast<size_t>(storageExtent(storage_[b])), 0);
  }
  for (int64_t x = 0; x < rows; ++x) {
    ++row_;
    for (size_t i = 0; i < k.ops.size(); ++i) {
      const LoopOp &op = p_.ops[k.ops[i]];
      FXKIT_ASSIGN_OR_RETURN(auto opRanges, evalAll(op.ranges));
      if (op.kind == LoopOpKind::Scan) {
        FXKIT_TRY(runScanRow(k, i, x, opRanges));
        continue;
      }
      if (op.kind == LoopOpKind::Reduction) {
        FXKIT_ASSIGN_OR_RETURN(auto red, evalAll(op.reductionRanges));
        bindVars(opRanges, x, false);
        Accumulator acc(op);
        for (int64_t r = 0; r < reduced; ++r) {
          bindVars(red, r, true);
          FXKIT_TRY(runOpAt(k, i, x, r, &acc));
        }
        for (const Store &s : op.stores) {
          FXKIT_ASSIGN_OR_RETURN(auto index, eval(s.index));
          DType dtype = p_.buffers[s.buffer].type.dtype;
          if (auto exact = acc.exactResult(); exact && !dtypeIsFloating(dtype))
            storage_[s.buffer].storeInt(index, *exact);
          else
            storage_[s.buffer].storeDouble(index,
                                           roundTo(acc.result(s.value, op.correction), dtype));
          if (internal_[s.buffer])
            stamps_[s.buffer][index] = row_;
        }
        continue;
      }
      if (k.placements[i] == Placement::Full) {
        // The op's dimensions group the kernel's rows and reduced points in row-major order.
        for (int64_t r = 0; r < reduced; ++r) {
          bindVars(opRanges, x * reduced + r, false);
          FXKIT_TRY(runOpAt(k, i, x, r, nullptr));
        }
        continue;
      }
      bindVars(opRanges, x, false);
      FXKIT_TRY(runOpAt(k, i, x, 0, nullptr));
    }
  }
  return Status::ok();
}

Expected<InterpretResult> LoopRunner::run(std::span<const RuntimeValue> inputs) {
  registerReferenceKernels();
  inputs_ = inputs;
  FXKIT_TRY(bindInputs(inputs));
  for (size_t i = 0; i < f_.kernels.size(); ++i) {
    const Kernel &k = f_.kernels[i];
    if (interrupt_ && *interrupt_)
      return Error("interrupted");
    kernel_ = &k;
    FXKIT_TRY(k.isExtern ? runExtern(k) : runGenerated(k));
    const bool corrupt = kernelCorruptionInjected(f_, i);
    if (corrupt || tap_)
      for (int32_t b : kernelWrittenBuffers(p_, k)) {
        if (!allocated_[b])
          continue;
        if (corrupt)
          corruptTensor(storage_[b]);
        if (tap_)
          FXKIT_TRY((*tap_)(i, b, storage_[b]));
      }
  }
  InterpretResult result;
  for (const LoopProgram::Output &o : p_.outputs) {
    if (o.isNone) {
      result.outputs.push_back(RuntimeValue{});
      continue;
    }
    if (o.view.buffer < 0) {
      FXKIT_ASSIGN_OR_RETURN(auto v, eval(o.symbol));
      result.outputs.push_back(RuntimeValue{v});
      continue;
    }
    auto sizes = evalAll(o.view.sizes);
    auto strides = evalAll(o.view.strides);
    auto offset = eval(o.view.offset);
    if (!sizes || !strides || !offset)
      return Error("cannot evaluate an output view");
    FXKIT_ASSIGN_OR_RETURN(auto t, storage_[o.view.buffer].asStrided(*sizes, *strides, *offset));
    result.outputs.push_back(RuntimeValue{std::move(t)});
  }
  for (const auto &[name, value] : bindings_)
    if (!name.empty() && name[0] != 'x' && name[0] != 'r' && !isIndirectVarName(name))
      result.bindings[name] = value;
  return result;
}

} // namespace

Expected<InterpretResult> interpretLoopProgram(const LoopProgram &program,
                                               const FusedProgram &fused,
                                               std::span<const RuntimeValue> inputs,
                                               const volatile std::sig_atomic_t *interrupt,
                                               const KernelTap *tap) {
  return LoopRunner(program, fused, interrupt, tap).run(inputs);
}

} // namespace fxkit
