/// \file Reference kernels of the elementwise ops. One driver (runPointwise) reads the operands
/// broadcast over the output's index space, casts each element to the dtype the op computes in
/// and stores the result through the output's strides; each op only supplies what it does to
/// one element, once for integral compute dtypes (exact int64) and once for floating ones
/// (double).

#include "backends/interp/PointwiseKernels.h"
#include "backends/interp/KernelSupport.h"
#include "ir/Try.h"
#include "ir/loop/ScalarEval.h"
#include "ir/loop/ScalarMath.h"
#include "ir/ops/PointwiseOps.h"
#include "ir/ops/ShapeRules.h"

#include <cassert>

#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace fxkit {
namespace pointwise_kernels {

namespace {

using kernels::broadcastOffset;
using kernels::broadcastsTo;
using kernels::sizesStr;

// ---- Casts, as c10 performs them ----

/// An integer cast to a floating dtype. Not through double for the narrower types: int64 ->
/// float is rounded once from the exact value, as static_cast<float> in c10 (double first would
/// round twice beyond 2^53).
double intToFloat(DType dtype, int64_t v) {
  if (dtype == DType::Float64)
    return static_cast<double>(v);
  return roundToFloating(static_cast<float>(v), dtype);
}

/// A float cast to an integral dtype: bool is x != 0 (NaN is true, as in c10); integers
/// truncate toward zero. Out of range (undefined in C++ and PyTorch) saturates, NaN gives 0.
int64_t floatToInt(DType dtype, double x) {
  if (dtype == DType::Bool)
    return x != 0;
  if (std::isnan(x))
    return 0;
  double lo = dtype == DType::Int32 ? std::numeric_limits<int32_t>::min() : -0x1p63;
  double hi = dtype == DType::Int32 ? std::numeric_limits<int32_t>::max() : 0x1p63;
  if (x <= lo)
    return static_cast<int64_t>(lo);
  if (x >= hi)
    return dtype == DType::Int32 ? std::numeric_limits<int32_t>::max()
                                 : std::numeric_limits<int64_t>::max();
  // int16, int8 and uint8 take the truncated value modulo their range, as x86 conversions
  // through int32 do in PyTorch's kernels.
  return wrapToIntegral(dtype, static_cast<int64_t>(x));
}

/// The type PyTorch's CPU kernels compute a dtype in (at::opmath_type): float for the 16-bit
/// floats, the dtype itself otherwise.
DType opmath(DType dtype) {
  return dtype == DType::Float16 || dtype == DType::BFloat16 ? DType::Float32 : dtype;
}

// Integer ops wrap around like PyTorch's; signed overflow is undefined in C++, unsigned is not.
int64_t wrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
int64_t wrapSub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
int64_t wrapMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

// ---- Operands ----

/// A Python number argument, kept exact: ints (symbolic ones evaluated) as int64, floats as
/// double, bools as 0/1 in i.
struct Number {
  ScalarKind kind = ScalarKind::Int;
  int64_t i = 0;
  double f = 0;
  double asDouble() const { return kind == ScalarKind::Float ? f : static_cast<double>(i); }
};

/// v cast to the integral dtype `to`.
int64_t castToInt(const Number &v, DType to) {
  return v.kind == ScalarKind::Float ? floatToInt(to, v.f) : wrapToIntegral(to, v.i);
}
/// v cast to the floating dtype `to`.
double castToFloat(const Number &v, DType to) {
  return v.kind == ScalarKind::Float ? roundToFloating(v.f, to) : intToFloat(to, v.i);
}

/// The number an argument holds, or nullopt when it holds a tensor. Read from the argument
/// itself rather than ctx.tensor(): a wrapped number must keep its full precision (an int
/// beyond 2^53, a float64 constant) and its kind (it ranks last in type promotion).
Expected<std::optional<Number>> numberArg(const KernelContext &ctx, std::string_view name) {
  const Argument &a = ctx.args.get(name);
  switch (a.kind()) {
  case Argument::Kind::Int:
    return std::optional<Number>(Number{ScalarKind::Int, a.asInt(), 0});
  case Argument::Kind::Float:
    return std::optional<Number>(Number{ScalarKind::Float, 0, a.asFloat()});
  case Argument::Kind::Bool:
    return std::optional<Number>(Number{ScalarKind::Bool, a.asBool() ? 1 : 0, 0});
  case Argument::Kind::Sym: {
    FXKIT_ASSIGN_OR_RETURN(auto v, ctx.integer(name));
    return std::optional<Number>(Number{ScalarKind::Int, v, 0});
  }
  case Argument::Kind::NodeRef: {
    const RuntimeValue *v = ctx.valueOf(a.asNode());
    if (v && v->integer())
      return std::optional<Number>(Number{ScalarKind::Int, *v->integer(), 0});
    if (v && std::holds_alternative<double>(v->v))
      return std::optional<Number>(Number{ScalarKind::Float, 0, std::get<double>(v->v)});
    if (v && std::holds_alternative<bool>(v->v))
      return std::optional<Number>(Number{ScalarKind::Bool, std::get<bool>(v->v) ? 1 : 0, 0});
    return std::optional<Number>();
  }
  default:
    return std::optional<Number>();
  }
}

/// One input of an elementwise op: a tensor, or a Python number when `tensor` is empty.
struct Operand {
  std::optional<Tensor> tensor;
  Number number;

  DType dtype() const { return tensor ? tensor->dtype() : scalarKindDType(number.kind); }

  /// The element that broadcasting maps to the output index (a number itself for a number):
  /// a Float for floating dtypes, an exact Int otherwise.
  Number at(std::span<const int64_t> index) const {
    if (!tensor)
      return number;
    int64_t off = broadcastOffset(*tensor, index);
    if (dtypeIsFloating(tensor->dtype()))
      return Number{ScalarKind::Float, 0, tensor->loadDouble(off)};
    return Number{ScalarKind::Int, tensor->loadInt(off), 0};
  }
};

/// A tensor-or-number argument; tensors must have a computable dtype.
Expected<Operand> operandArg(const KernelContext &ctx, std::string_view name) {
  FXKIT_ASSIGN_OR_RETURN(auto number, numberArg(ctx, name));
  if (number)
    return Operand{std::nullopt, *number};
  FXKIT_ASSIGN_OR_RETURN(auto t, ctx.tensor(name));
  if (Status s = checkComputable(t.dtype(), "argument '" + std::string(name) + "'"); !s)
    return ctx.error(s.error().message);
  return Operand{std::move(t), {}};
}

/// torch.result_type of the operands.
DType commonDType(std::span<const Operand> ops) {
  std::vector<PromotionOperand> prom;
  for (const Operand &op : ops)
    prom.push_back({op.dtype(), op.tensor ? static_cast<size_t>(op.tensor->dim()) : 0, !op.tensor});
  return resultType(prom);
}

// ---- The driver ----

using Ints = std::span<const int64_t>;
using Floats = std::span<const double>;

/// What an op does to one element; operands arrive cast to the compute dtype.
struct ElementFns {
  /// For integral and bool compute dtypes, in exact (wrapping) int64; nullopt reports an
  /// integer division by zero. Empty when the op always computes in a floating dtype.
  std::function<std::optional<int64_t>(Ints)> onInt;
  /// For floating compute dtypes, in double (rounded to the output dtype on store).
  std::function<double(Floats)> onFloat;
};

/// Makes an op's ElementFns once the compute dtype is known, so checks that depend on it
/// (alpha's kind, bool operands) report errors before anything runs.
using Builder = std::function<Expected<ElementFns>(DType compute, std::span<const Operand> ops)>;

enum class ComputeIn : uint8_t {
  Output, ///< the result dtype (arithmetic, math, where, casts)
  Common, ///< the operands' common dtype; the result is bool (comparisons)
};

/// Runs an elementwise op: reads the `names` arguments (tensors or Python numbers), checks
/// that they broadcast to the output that shape inference laid out, and writes each element
/// through the output's strides.
Status runPointwise(KernelContext &ctx, std::span<const std::string_view> names,
                    ComputeIn computeIn, const Builder &build) {
  std::vector<Operand> ops;
  for (std::string_view name : names) {
    FXKIT_ASSIGN_OR_RETURN(auto op, operandArg(ctx, name));
    ops.push_back(std::move(op));
  }
  FXKIT_ASSIGN_OR_RETURN(auto out, ctx.allocateOutput());
  if (Status s = checkComputable(out.dtype(), "result"); !s)
    return ctx.error(s.error().message);
  for (const Operand &op : ops)
    if (op.tensor && !broadcastsTo(*op.tensor, out.sizes()))
      return ctx.error("operand of sizes " + sizesStr(op.tensor->sizes()) +
                       " does not broadcast to the result's " + sizesStr(out.sizes()));
  DType compute = computeIn == ComputeIn::Common ? commonDType(ops) : out.dtype();
  FXKIT_ASSIGN_OR_RETURN(auto fns, build(compute, ops));
  bool integral = !dtypeIsFloating(compute);
  if (integral ? !fns.onInt : !fns.onFloat)
    return ctx.error("not supported for dtype " + std::string(dtypeName(compute)));
  // Every operand is cast to the compute dtype, as TensorIterator does, except that arithmetic
  // reads a Python number in the opmath type: PyTorch's kernels take a scalar operand's
  // original value as float when computing in float16/bfloat16. Comparisons cast it too.
  std::vector<DType> castTo;
  for (const Operand &op : ops)
    castTo.push_back(!op.tensor && computeIn == ComputeIn::Output ? opmath(compute) : compute);
  std::vector<int64_t> ints(ops.size());
  std::vector<double> floats(ops.size());
  bool divisionByZero = false;
  Tensor::forEachIndex(out.sizes(), [&](std::span<const int64_t> index) {
    int64_t off = out.offsetOf(index);
    if (!integral) {
      for (size_t i = 0; i < ops.size(); ++i)
        floats[i] = castToFloat(ops[i].at(index), castTo[i]);
      out.storeDouble(off, fns.onFloat(floats));
      return;
    }
    for (size_t i = 0; i < ops.size(); ++i)
      ints[i] = castToInt(ops[i].at(index), compute);
    std::optional<int64_t> r = fns.onInt(ints);
    if (!r)
      divisionByZero = true;
    else if (dtypeIsFloating(out.dtype()))
      out.storeDouble(off, intToFloat(out.dtype(), *r));
    else
      out.storeInt(off, *r);
  });
  if (divisionByZero)
    return ctx.error("integer division by zero");
  ctx.result.v = std::move(out);
  return Status::ok();
}

Status runPointwise(KernelContext &ctx, std::initializer_list<std::string_view> names,
                    ComputeIn computeIn, const Builder &build) {
  return runPointwise(ctx, std::span<const std::string_view>(names.begin(), names.size()),
                      computeIn, build);
}

/// fn applied to the first one or two elements of v, whichever fn takes.
template <typename Fn, typename T> auto applyTo(const Fn &fn, std::span<const T> v) {
  if constexpr (std::is_invocable_v<Fn, T>)
    return fn(v[0]);
  else
    return fn(v[0], v[1]);
}

/// A Builder for unary and binary ops without checks (intFn nullptr: floating only).
template <typename IntFn, typename FloatFn> Builder simple(IntFn intFn, FloatFn floatFn) {
  return [=](DType, std::span<const Operand>) -> Expected<ElementFns> {
    ElementFns fns;
    if constexpr (!std::is_same_v<IntFn, std::nullptr_t>)
      fns.onInt = [=](Ints v) -> std::optional<int64_t> { return applyTo(intFn, v); };
    fns.onFloat = [=](Floats v) -> double { return applyTo(floatFn, v); };
    return fns;
  };
}

/// An error when any operand is bool (PyTorch refuses subtraction with bools outright).
Status errorOnBool(const KernelContext &ctx, std::span<const Operand> ops,
                   const std::string &what) {
  for (const Operand &op : ops)
    if (op.dtype() == DType::Bool)
      return ctx.error(what + " is not supported for bool operands (as in PyTorch)");
  return Status::ok();
}

// ---- Arithmetic ----

/// add/sub/rsub: first + Sign * alpha * second, where rsub (Reverse) takes self second.
template <int Sign, bool Reverse> Status addKernel(KernelContext &ctx) {
  return runPointwise(
      ctx, {"self", "other"}, ComputeIn::Output,
      [&ctx](DType dt, std::span<const Operand> ops) -> Expected<ElementFns> {
        FXKIT_TRY(Sign < 0 ? errorOnBool(ctx, ops, "subtraction") : Status::ok());
        FXKIT_ASSIGN_OR_RETURN(auto alpha, numberArg(ctx, "alpha"));
        if (!alpha)
          return ctx.error("alpha must be a number");
        // PyTorch's alpha_check.
        if (alpha->kind == ScalarKind::Bool && dt != DType::Bool)
          return ctx.error("boolean alpha is only supported for bool results");
        if (!dtypeIsFloating(dt) && alpha->kind == ScalarKind::Float)
          return ctx.error("alpha must not be a floating-point number for integral inputs");
        int64_t alphaInt = wrapMul(Sign, alpha->i);
        double alphaFloat = Sign * roundToFloating(alpha->asDouble(), opmath(dt));
        size_t first = Reverse ? 1 : 0, second = 1 - first;
        return ElementFns{[=](Ints v) -> std::optional<int64_t> {
                            return wrapAdd(v[first], wrapMul(alphaInt, v[second]));
                          },
                          [=](Floats v) { return v[first] + alphaFloat * v[second]; }};
      });
}

/// c10's div_floor_floating: floor(a / b) via fmod so that a quotient which rounds up to an
/// integer does not floor one too high; in T, the type PyTorch computes in.
template <typename T> T divFloorFloating(T a, T b) {
  if (b == 0)
    return a / b;
  T mod = std::fmod(a, b);
  T div = (a - mod) / b;
  if (mod != 0 && (b < 0) != (mod < 0))
    div -= T(1);
  if (div == 0)
    return std::copysign(T(0), a / b);
  T floordiv = std::floor(div);
  if (div - floordiv > T(0.5))
    floordiv += T(1);
  return floordiv;
}

/// Integer division rounded toward zero or down; nullopt on a zero divisor.
std::optional<int64_t> divInt(int64_t a, int64_t b, bool floor) {
  if (b == 0)
    return std::nullopt;
  if (b == -1) // INT64_MIN / -1 overflows in C++; it wraps in two's complement
    return wrapSub(0, a);
  int64_t q = a / b;
  if (floor && a % b != 0 && (a < 0) != (b < 0))
    --q;
  return q;
}

/// A float quotient rounded toward zero or down, computed in T: rounding a quotient to an
/// integer is not tolerant of the last bit, so it must happen in PyTorch's own precision.
template <typename T> double divRounded(double a, double b, bool floor) {
  T x = static_cast<T>(a), y = static_cast<T>(b);
  return floor ? divFloorFloating(x, y) : std::trunc(x / y);
}

/// div.Tensor, div.Scalar (true division) and div.Tensor_mode (rounding_mode None, 'trunc',
/// 'floor'; with a mode, integers divide exactly and a zero divisor is an error).
Status divKernel(KernelContext &ctx) {
  std::string mode;
  if (ctx.args.op().schema.indexOf("rounding_mode") >= 0) {
    const Argument &m = ctx.args.get("rounding_mode");
    if (!m.isNone()) {
      if (m.kind() != Argument::Kind::String ||
          (m.asString() != "trunc" && m.asString() != "floor"))
        return ctx.error("rounding_mode must be None, 'trunc' or 'floor'");
      mode = m.asString();
    }
  }
  return runPointwise(ctx, {"self", "other"}, ComputeIn::Output,
                      [&ctx, mode](DType dt, std::span<const Operand>) -> Expected<ElementFns> {
                        if (mode.empty())
                          return ElementFns{{}, [](Floats v) { return v[0] / v[1]; }};
                        if (dt == DType::Bool)
                          return ctx.error("div with rounding_mode='" + mode +
                                           "' is not supported for bool");
                        bool floor = mode == "floor";
                        bool inFloat = opmath(dt) == DType::Float32;
                        return ElementFns{[floor](Ints v) { return divInt(v[0], v[1], floor); },
                                          [floor, inFloat](Floats v) {
                                            return inFloat ? divRounded<float>(v[0], v[1], floor)
                                                           : divRounded<double>(v[0], v[1], floor);
                                          }};
                      });
}

Status whereKernel(KernelContext &ctx) {
  return runPointwise(ctx, {"condition", "self", "other"}, ComputeIn::Output,
                      [&ctx](DType, std::span<const Operand> ops) -> Expected<ElementFns> {
                        if (ops[0].dtype() != DType::Bool)
                          return ctx.error("where expects a bool condition, got " +
                                           std::string(dtypeName(ops[0].dtype())));
                        // The condition arrives cast to the compute dtype too: 0 or 1.
                        return ElementFns{
                            [](Ints v) -> std::optional<int64_t> { return v[0] ? v[1] : v[2]; },
                            [](Floats v) { return v[0] != 0 ? v[1] : v[2]; }};
                      });
}

/// gelu with approximate 'none' (the erf form) or 'tanh'.
Status geluKernel(KernelContext &ctx) {
  const Argument &a = ctx.args.get("approximate");
  std::string_view mode = a.kind() == Argument::Kind::String ? a.asString() : "";
  if (mode != "none" && mode != "tanh")
    return ctx.error("approximate must be 'none' or 'tanh'");
  return runPointwise(ctx, {"self"}, ComputeIn::Output,
                      mode == "none" ? simple(nullptr, loop::math::gelu)
                                     : simple(nullptr, loop::math::geluTanh));
}

/// prims.convert_element_type: the driver's cast to the output dtype is the whole op.
Status convertElementTypeKernel(KernelContext &ctx) {
  return runPointwise(ctx, {"a"}, ComputeIn::Output,
                      simple([](int64_t x) { return x; }, [](double x) { return x; }));
}

/// clamp (both overloads) and hardtanh: max(self, min) then min(., max), NaN-propagating, in the
/// result dtype; a bound that is None is left out.
Status clampKernel(KernelContext &ctx) {
  bool hardtanh = ctx.args.op().schema.name == "hardtanh";
  const std::string_view bounds[2] = {hardtanh ? "min_val" : "min", hardtanh ? "max_val" : "max"};
  std::vector<std::string_view> names{"self"};
  int at[2] = {-1, -1}; // where min and max are among the operands
  for (int k = 0; k < 2; ++k)
    if (!ctx.args.get(bounds[k]).isNone()) {
      at[k] = static_cast<int>(names.size());
      names.push_back(bounds[k]);
    }
  int lo = at[0], hi = at[1];
  return runPointwise(ctx, names, ComputeIn::Output,
                      [lo, hi](DType, std::span<const Operand>) -> Expected<ElementFns> {
                        return ElementFns{[lo, hi](Ints v) -> std::optional<int64_t> {
                                            int64_t x = v[0];
                                            if (lo >= 0)
                                              x = std::max(x, v[lo]);
                                            if (hi >= 0)
                                              x = std::min(x, v[hi]);
                                            return x;
                                          },
                                          [lo, hi](Floats v) {
                                            double x = v[0];
                                            if (lo >= 0)
                                              x = loop::math::nanMax(x, v[lo]);
                                            if (hi >= 0)
                                              x = loop::math::nanMin(x, v[hi]);
                                            return x;
                                          }};
                      });
}

/// leaky_relu: x for x > 0, else x * negative_slope (in the result dtype).
Status leakyReluKernel(KernelContext &ctx) {
  return runPointwise(
      ctx, {"self", "negative_slope"}, ComputeIn::Output,
      simple(nullptr, [](double x, double slope) { return x > 0 ? x : x * slope; }));
}

/// elu: scale * x for x > 0, else scale * alpha * (exp(x * input_scale) - 1).
Status eluKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto alpha, ctx.scalar("alpha"));
  FXKIT_ASSIGN_OR_RETURN(auto scale, ctx.scalar("scale"));
  FXKIT_ASSIGN_OR_RETURN(auto inputScale, ctx.scalar("input_scale"));
  return runPointwise(ctx, {"self"}, ComputeIn::Output, simple(nullptr, [=](double x) {
                        return x > 0 ? x * scale : std::expm1(x * inputScale) * alpha * scale;
                      }));
}

/// atan2.out: atan2 of self and other into the given `out` (laid out as inference said, which is
/// out's own type), which is also the result.
Status atan2OutKernel(KernelContext &ctx) {
  FXKIT_ASSIGN_OR_RETURN(auto given, ctx.tensor("out"));
  FXKIT_TRY(runPointwise(ctx, {"self", "other"}, ComputeIn::Output,
                         simple(nullptr, [](double y, double x) { return std::atan2(y, x); })));
  const Tensor *computed = ctx.result.tensor();
  if (!computed || computed->sizes() != given.sizes())
    return ctx.error("atan2.out: the result does not fit out");
  Tensor out = given;
  Tensor::forEachIndex(out.sizes(), [&](std::span<const int64_t> index) {
    out.storeDouble(out.offsetOf(index), computed->loadDouble(computed->offsetOf(index)));
  });
  ctx.result.v = std::move(out);
  return Status::ok();
}

/// The reference kernel of every PointwiseOps.def op: its scalar op (ScalarOps.def's value
/// columns) on each element. Predicates compare in their operands' common dtype; every other op
/// computes in its result dtype, exactly in int64 for integers where the op has an integer form.
Status scalarOpKernel(KernelContext &ctx) {
  const PointwiseOp *row = pointwiseOpOf(ctx.args.op().target);
  if (!row)
    return ctx.error("not a pointwise op of PointwiseOps.def");
  const loop::ScalarOp op = row->scalarOp;
  const auto &args = ctx.args.op().schema.args;
  std::vector<std::string_view> names;
  for (int k = 0; k < loop::scalarOpArity(op); ++k)
    names.push_back(args[k].name);
  bool predicate = loop::scalarOpKind(op) == loop::ScalarOpKind::Predicate;
  return runPointwise(ctx, names, predicate ? ComputeIn::Common : ComputeIn::Output,
                      [op](DType compute, std::span<const Operand>) -> Expected<ElementFns> {
                        ElementFns fns;
                        if (loop::hasIntForm(op))
                          fns.onInt = [op, compute](Ints v) {
                            return loop::evalScalarInt(op, compute, v[0], v.size() > 1 ? v[1] : 0,
                                                       v.size() > 2 ? v[2] : 0);
                          };
                        fns.onFloat = [op, compute](Floats v) {
                          return loop::evalScalarFloatIn(op, compute, v[0], v.size() > 1 ? v[1] : 0,
                                                         v.size() > 2 ? v[2] : 0);
                        };
                        return fns;
                      });
}

} // namespace
} // namespace pointwise_kernels

void registerPointwiseKernels() {
  using namespace pointwise_kernels;
  static const std::pair<std::string_view, KernelFn> table[] = {
      {"torch.ops.aten.add.Tensor", addKernel<1, false>},
      {"torch.ops.aten.add.Scalar", addKernel<1, false>},
      {"torch.ops.aten.sub.Tensor", addKernel<-1, false>},
      {"torch.ops.aten.sub.Scalar", addKernel<-1, false>},
      {"torch.ops.aten.rsub.Scalar", addKernel<-1, true>},
      {"torch.ops.aten.div.Tensor_mode", divKernel},
      {"torch.ops.aten.div.Scalar_mode", divKernel},
      {"torch.ops.aten.where.self", whereKernel},
      {"torch.ops.aten.gelu.default", geluKernel},
      {"torch.ops.aten.clamp.default", clampKernel},
      {"torch.ops.aten.clamp.Tensor", clampKernel},
      {"torch.ops.aten.hardtanh.default", clampKernel},
      {"torch.ops.aten.leaky_relu.default", leakyReluKernel},
      {"torch.ops.aten.elu.default", eluKernel},
      {"torch.ops.aten.atan2.out", atan2OutKernel},
      {"torch.ops.prims.convert_element_type.default", convertElementTypeKernel},
  };
  kernels::registerKernelList(table);
  for (const PointwiseOp &op : pointwiseOps()) {
    [[maybe_unused]] Status s = OpRegistry::instance().setKernel(op.target, scalarOpKernel);
    assert(s && "PointwiseOps.def and the registry diverged");
  }
}

} // namespace fxkit
