#pragma once
/// \file Split reductions (Inductor's `Reduction.num_splits` and `create_multilayer`): a large
/// reduction with too few rows to fill a GPU becomes two loop ops, a first one reducing blocks of
/// its reduced points into partial results [splits, rows] and a second one reducing the partials.
/// A column sum of an N x N tensor has N rows (columns) each reading across rows: one work-item
/// per column is coalesced but leaves the device mostly idle, several lanes per column read
/// across rows; split in 32, it has 32 N rows of N / 32 points, every warp's loads contiguous.
///
/// It rewrites the loop program before fusion, so every backend that runs loop programs (the loop
/// interpreter, OpenCL, LLVM) runs the same two ops. Each large reduction's decision, taken or
/// refused, is recorded with its reason in LoopProgram::reductionSplits (`fuse --explain`).
/// Only reductions whose sizes are known are considered (the splits must divide the reduced
/// points); combining kinds without a blockwise form of one result (var_mean, online softmax,
/// argmax, logsumexp) are kept.

#include "ir/loop/LoopIR.h"

#include <cstdint>

namespace fxkit {

struct SplitReductionOptions {
  /// 0: decide from the sizes (splitReductionDecision); 1: never split; N > 1: split every
  /// reduction that can be split in N blocks (tests and experiments).
  int64_t splits = 0;
};

/// The number of blocks (>= 2) a reduction of `rows` rows of `reduced` points, whose first
/// reduced dimension has `firstReduced` points, is split into, or 1 (kept) with the reason in
/// `reason`. `acrossRows`: its loads read across rows (a column sum: the rows' points adjacent,
/// the reduced ones far apart), so each row gets few lanes; otherwise a row's lanes read it
/// contiguously and fewer rows suffice.
int64_t splitReductionDecision(int64_t rows, int64_t reduced, int64_t firstReduced, bool acrossRows,
                               std::string &reason);

/// Splits the reductions of `program` as decided (the `split-reductions` pass, a step of
/// `lower`); returns whether it split any. Loop ops after a split one are renumbered (their
/// names follow their positions, as after loop-dce).
bool splitReductions(loop::LoopProgram &program, const SplitReductionOptions &options = {});

} // namespace fxkit
