#pragma once
/// \file firstError: the first failure among several results read before any is used (a rule
/// that reads all its arguments, then reports the first that did not bind). A header of its
/// own, as ir/Try.h, so that adopting it rebuilds only the files that use it.

#include "ir/Error.h"

namespace fxkit {

/// The Error of the first of `results` (Expected values or Statuses, in order) that holds one,
/// moved out of it, or ok: `FXKIT_TRY(firstError(a, b, c));` instead of
/// `if (!a || !b || !c) return !a ? a.takeError() : !b ? b.takeError() : c.takeError();`.
template <class... Results> Status firstError(Results &...results) {
  Status first;
  auto take = [&first](auto &result) {
    if (first && !result)
      first = result.takeError();
  };
  (take(results), ...);
  return first;
}

} // namespace fxkit
