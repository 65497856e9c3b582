#pragma once
/// \file The Python scalar ops of FX graphs with symbolic shapes: `operator.*` on SymInt,
/// SymFloat and SymBool (`operator.ge` of a runtime assertion, `operator.mul` of a size),
/// `torch.sym_*`, `math.*`, and the ATen ops that assert or constrain them
/// (`_assert_scalar`, `sym_constrain_range[_for_size]`, `_assert_async.msg`).
///
/// Each such op computes one SymExpr from its operands' SymExprs (symbolicOpExpr); inference
/// keeps that expression as the node's value, and the reference kernel evaluates the same
/// expression on the runtime numbers, so the op's meaning (Python's int/float/bool rules, as
/// SymExpr::evaluateNumber implements them) has one home.

#include "ir/SymExpr.h"
#include "ir/ops/OpRegistry.h"

#include <span>
#include <string_view>

namespace fxkit {

/// Whether `target` is one of the scalar ops symbolicOpExpr computes.
bool isSymbolicScalarOp(std::string_view target);

/// The expression `target` computes from its operands (in schema order; sym_sum's items).
/// Integer results simplify as sizes do, constant operands fold to a constant (`3 >= 0` is
/// True). An error names a wrong operand count.
Expected<SymExpr> symbolicOpExpr(std::string_view target, std::span<const SymExpr> operands);

/// A Python number as a constant expression: an int, a float (Python's repr) or a bool.
SymExpr numberExpr(const SymExpr::Number &n);

/// The text of an assertion's `assert_msg`: FX text prints strings bare, so a message with
/// spaces (`Runtime assertion failed for expression u0 >= 0 on node 'ge_1'`) may read back as
/// opaque text rather than a string; either is the message. Empty for anything else.
std::string assertMessage(const Argument &msg);

} // namespace fxkit
