#pragma once
/// \file The meaning of each generated scalar op (ir/loop/ScalarOps.def's value columns), for
/// the interpreters: the loop interpreter and the reference kernels of pointwise ATen ops.

#include "ir/loop/LoopIR.h"

#include <cstdint>
#include <optional>

namespace fxkit::loop {

/// The value of `op` on doubles, before rounding to the instruction's floating dtype. NaN for
/// leaves, Cast (the caller's), and integer-only ops.
double evalScalarFloat(ScalarOp op, double a, double b = 0, double c = 0);

/// evalScalarFloat computed in the floating `dtype` where the value depends on it: nextafter
/// steps to the neighbour in that dtype's format (float32 or double; the 16-bit formats step
/// in float32), every other op is evalScalarFloat.
double evalScalarFloatIn(ScalarOp op, DType dtype, double a, double b = 0, double c = 0);

/// Whether `op` has an exact integer form (every Arith and Predicate op; not FloatFn ones).
bool hasIntForm(ScalarOp op);

/// The value of `op` on integers of `dtype` (wrapping as PyTorch's int64; bools are 0 and 1);
/// nullopt for an integer division by zero or an op without an integer form.
std::optional<int64_t> evalScalarInt(ScalarOp op, DType dtype, int64_t i, int64_t j = 0,
                                     int64_t k = 0);

} // namespace fxkit::loop
