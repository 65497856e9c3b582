#include "ir/loop/ScalarEval.h"
#include "ir/loop/ScalarMath.h"

#include <cmath>
#include <limits>

namespace fxkit::loop {

/// The case labels of the ops whose value does not come from operands (loads, constants,
/// index values, casts, indirect indices): neither evaluator computes them, and both switches
/// stay exhaustive.
#define FXKIT_VALUELESS_SCALAR_OPS                                                                 \
  case ScalarOp::Load:                                                                             \
  case ScalarOp::Constant:                                                                         \
  case ScalarOp::IndexValue:                                                                       \
  case ScalarOp::Cast:                                                                             \
  case ScalarOp::IndirectIndex

double evalScalarFloat(ScalarOp op, double a, double b, double c) {
  switch (op) {
  FXKIT_VALUELESS_SCALAR_OPS:
    return std::numeric_limits<double>::quiet_NaN();
#define FXKIT_SCALAR_OP(Id, name, arity, kind, floatValue, ...)                                    \
  case ScalarOp::Id:                                                                               \
    return static_cast<double>(floatValue);
#include "ir/loop/ScalarOps.def"
  }
  return std::numeric_limits<double>::quiet_NaN();
}

double evalScalarFloatIn(ScalarOp op, DType dtype, double a, double b, double c) {
  if (op == ScalarOp::Nextafter && dtype != DType::Float64)
    return std::nextafter(static_cast<float>(a), static_cast<float>(b));
  return evalScalarFloat(op, a, b, c);
}

bool hasIntForm(ScalarOp op) {
  ScalarOpKind kind = scalarOpKind(op);
  return kind == ScalarOpKind::Arith || kind == ScalarOpKind::Predicate;
}

std::optional<int64_t> evalScalarInt(ScalarOp op, DType dtype, int64_t i, int64_t j, int64_t k) {
  [[maybe_unused]] const bool isBool = dtype == DType::Bool;
  switch (op) {
  FXKIT_VALUELESS_SCALAR_OPS:
    return std::nullopt;
#define FXKIT_SCALAR_OP(Id, name, arity, kind, floatValue, intValue, ...)                          \
  case ScalarOp::Id:                                                                               \
    return intValue;
#include "ir/loop/ScalarOps.def"
  }
  return std::nullopt;
}

#undef FXKIT_VALUELESS_SCALAR_OPS

} // namespace fxkit::loop
