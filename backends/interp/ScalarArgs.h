#pragma once
/// \file Python number arguments of the creation and tensor kernels, kept exact, and c10's
/// checked conversion of them to a dtype; internal to the interpreter.

#include "backends/interp/KernelContext.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

namespace fxkit::kernels {

/// A Python number argument, exact: integers (symbolic ones evaluated) and bools stay int64.
struct Number {
  bool isFloat = false;
  int64_t i = 0;
  double f = 0;
  double asDouble() const { return isFloat ? f : static_cast<double>(i); }
  /// Scalar::to<int64_t>: floats truncate toward zero.
  int64_t truncated() const { return isFloat ? static_cast<int64_t>(std::trunc(f)) : i; }
  /// The value as std::to_string writes it, for messages.
  std::string str() const { return isFloat ? std::to_string(f) : std::to_string(i); }
};

/// The number argument `name`: an int, bool or float literal, a symbolic integer, or a node
/// holding a number.
Expected<Number> numberArg(const KernelContext &ctx, std::string_view name);

/// The largest finite value of a floating dtype.
double floatMax(DType dtype);

/// Whether c10's checked conversion (Scalar::to, c10::overflows) refuses v for dtype: a
/// finite value beyond a floating dtype's range, a value beyond an integer dtype's, NaN for an
/// integer. Bool takes any value (v != 0).
bool overflows(const Number &v, DType dtype);

/// Stores v at a storage offset of out: an int into an integral dtype exactly, into a floating
/// one rounded once from the exact value (through float below float64, as c10's int-to-float
/// casts do, not via double).
void storeNumber(Tensor &out, int64_t offset, const Number &v);

} // namespace fxkit::kernels
