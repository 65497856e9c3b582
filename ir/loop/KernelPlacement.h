#pragma once
/// \file Where a loop op sits in a kernel's iteration space (X kept points by R reduced ones),
/// and its iteration variables in the kernel's coordinates. Fusion uses it to decide whether an
/// op fits a kernel; code generators use it to index every op of a kernel from the kernel's own
/// variables (x0.. for rows, r0.. for reduced points).

#include "ir/SymExpr.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fxkit::loop {

/// An op's placement, and each of its variables (`x0`, `r1`) as an expression over the kernel's.
/// Flat placements map nothing: the op's variables unflatten the kernel's flat row index.
struct OpPlace {
  Placement placement = Placement::Row;
  std::map<std::string, SymExpr, std::less<>> toKernel;
};

/// Variables x0.. (or r0..) for `n` dimensions, starting at `first`.
std::vector<SymExpr> loopVars(size_t n, bool reduction, size_t first = 0);

/// When every dimension of `ranges` is the product of consecutive dimensions of `target`
/// (row-major, so [1024, 256] over [8, 128, 256]), each dimension's variable as a combination
/// of `targetVars` (x0 of [1024] is 128*x0 + x1 of [8, 128]); otherwise nullopt.
std::optional<std::vector<SymExpr>> groupOnto(const std::vector<SymExpr> &ranges,
                                              const std::vector<SymExpr> &target,
                                              const std::vector<SymExpr> &targetVars);

/// Where `op` sits in a kernel over X (rows) by R (reduced points), if anywhere.
std::optional<OpPlace> placeOp(const LoopOp &op, const std::vector<SymExpr> &x,
                               const std::vector<SymExpr> &r);

/// `index` (over the op's variables) in kernel coordinates.
SymExpr toKernelCoordinates(const SymExpr &index, const OpPlace &place);

} // namespace fxkit::loop
