#pragma once
/// \file Integer and float helpers that ir/loop/ScalarOps.def's semantics columns call: the
/// cases where C++ and PyTorch differ (Python's modulo, a zero divisor, INT64_MIN / -1) spelt
/// once, as c10 spells them.

#include "ir/loop/Philox.h"
#include "ir/loop/SpecialMath.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

namespace fxkit::loop::math {

/// Integers wrap as in PyTorch; signed overflow is undefined in C++, unsigned is not.
inline int64_t wrapNeg(int64_t a) { return static_cast<int64_t>(0 - static_cast<uint64_t>(a)); }

/// C's a % b (sign of a), as torch.fmod on integers; nullopt for b == 0 (PyTorch raises).
inline std::optional<int64_t> intFmod(int64_t a, int64_t b) {
  if (b == 0)
    return std::nullopt;
  return b == -1 ? 0 : a % b;
}

/// torch.bitwise_left_shift on integers (c10's lshift): 0 for a negative count or one past the
/// width; computed in 64 bits and wrapped to the dtype, which keeps the low bits exactly.
inline int64_t shiftLeft(int64_t a, int64_t b) {
  return b < 0 || b >= 64 ? 0 : static_cast<int64_t>(static_cast<uint64_t>(a) << b);
}

/// torch.bitwise_right_shift on integers (c10's rshift): arithmetic; a negative count or one
/// past the width shifts the sign through (0 or -1; 0 for unsigned values, which are
/// non-negative here).
inline int64_t shiftRight(int64_t a, int64_t b) { return a >> (b < 0 || b >= 64 ? 63 : b); }

/// Python's a % b (sign of b), as torch.remainder on integers; nullopt for b == 0.
inline std::optional<int64_t> intRemainder(int64_t a, int64_t b) {
  if (b == 0)
    return std::nullopt;
  int64_t r = b == -1 ? 0 : a % b;
  return r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
}

/// torch.remainder on floats (c10: fmod, then moved to the divisor's sign).
inline double floatRemainder(double a, double b) {
  double r = std::fmod(a, b);
  return r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
}

/// sign: -1, 0 or 1; 0 for NaN (c10's (0 < a) - (a < 0)).
inline double floatSign(double a) { return (0 < a) - (a < 0); }

/// NaN-propagating maximum and minimum (torch.maximum/minimum, clamp).
inline double nanMax(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? std::numeric_limits<double>::quiet_NaN()
                                        : (a > b ? a : b);
}
inline double nanMin(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? std::numeric_limits<double>::quiet_NaN()
                                        : (a < b ? a : b);
}

/// gelu, exact (erf) and tanh-approximated forms.
inline double gelu(double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }
inline double geluTanh(double x) {
  const double k = std::sqrt(2.0 / M_PI);
  return 0.5 * x * (1 + std::tanh(k * (x + 0.044715 * x * x * x)));
}

/// Floor division and truncating division of integers; nullopt for a zero divisor.
inline std::optional<int64_t> intDiv(int64_t a, int64_t b, bool floor) {
  if (b == 0)
    return std::nullopt;
  if (b == -1)
    return wrapNeg(a);
  int64_t q = a / b;
  if (floor && a % b != 0 && (a < 0) != (b < 0))
    --q;
  return q;
}

/// Integer power by squaring (wrapping); negative exponents as c10's powi: 1 for base 1,
/// +-1 for base -1, else 0.
inline int64_t intPow(int64_t base, int64_t exp) {
  if (exp < 0)
    return base == 1 ? 1 : base == -1 ? (exp % 2 == 0 ? 1 : -1) : 0;
  uint64_t r = 1, b = static_cast<uint64_t>(base);
  for (; exp; exp >>= 1, b *= b)
    if (exp & 1)
      r *= b;
  return static_cast<int64_t>(r);
}

} // namespace fxkit::loop::math
