#pragma once
/// \file Seeded random ATen graphs for differential testing of the compiler.
///
/// A graph is generated as FX text (so that every checked graph also goes through the FX text
/// parser) from ops the op registry knows: pointwise ops (unary, binary with broadcasting and
/// scalars, where, comparisons, casts), reductions (sum, mean, amax, amin, var_mean over random
/// dims with and without keepdim, softmax and log_softmax as PyTorch decomposes them), views
/// (view, reshape, permute, transpose as permute, expand, unsqueeze, squeeze, select, slicing
/// as split + getitem), cat, mm, bmm and addmm. Shapes are random with size-1 dimensions,
/// placeholders may be permuted, padded (gapped rows) or broadcast (stride 0 on size-1 dims),
/// sizes may be symbols (s0, s1, ...) bound at run time, and dtypes are float32, float16, int64
/// and bool where the op allows.
///
/// The generator keeps values finite and comparable: every value carries a bound on its
/// magnitude and values that would grow past it are squashed with tanh first; log, sqrt,
/// rsqrt, reciprocal and division see operands shifted away from zero; float values are
/// compared with or cast to integers only when every backend computes them exactly (views,
/// neg, abs, relu, maximum, ... of inputs), so a 1-ulp difference cannot flip a result.
///
/// It lives with the tests (not in ir/ or transforms/): it is a test-input generator whose
/// choices (which values to squash, which casts to avoid) only make sense against an oracle.

#include "ir/SymExpr.h"

#include <cstdint>
#include <string>

namespace fxkit::testing {

struct RandomGraphOptions {
  int minOps = 2; ///< generated op groups (an op group may emit several nodes)
  int maxOps = 10;
  bool symbolic = true;                  ///< allow symbolic sizes on placeholders
  bool float16 = true;                   ///< allow float16 values
  bool matmul = true;                    ///< allow mm, bmm and addmm
  int64_t maxPlaceholderElements = 4096; ///< keeps the reference interpreter fast
};

struct RandomGraph {
  uint64_t seed = 0;
  std::string fxText;        ///< `graph():` ... `return (...)`, placeholders typed
  SymExpr::Bindings symbols; ///< values of the symbols in placeholder types
};

/// The graph for `seed` (deterministic across platforms: std::mt19937_64 and integer draws).
RandomGraph generateRandomGraph(uint64_t seed, const RandomGraphOptions &options = {});

} // namespace fxkit::testing
