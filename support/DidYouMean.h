#pragma once
/// \file "Did you mean ...?" for names a user typed (node names, op names, commands, options):
/// the candidates within a few edits of the word, closest first. One home for every such hint.

#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

/// Levenshtein distance with an adjacent transposition counted as one edit, or `limit + 1` when
/// it is larger than `limit` (the computation stops early then).
size_t editDistance(std::string_view a, std::string_view b, size_t limit);

/// Up to `max` candidates closest to `word`: within max(1, |word| / 3) edits (at most 3),
/// closest first, ties in candidate order; a candidate that starts with `word` counts as close
/// too when `word` has at least 3 characters. Duplicates are listed once.
std::vector<std::string> closestSpellings(std::string_view word,
                                          const std::vector<std::string_view> &candidates,
                                          size_t max = 3);

/// `did you mean 'a' or 'b'?` for the suggestions ("" when none).
std::string didYouMean(const std::vector<std::string> &suggestions);

} // namespace fxkit
