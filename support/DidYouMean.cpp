#include "support/DidYouMean.h"

#include <algorithm>

namespace fxkit {

size_t editDistance(std::string_view a, std::string_view b, size_t limit) {
  size_t la = a.size(), lb = b.size();
  if ((la > lb ? la - lb : lb - la) > limit)
    return limit + 1;
  // Three rows of the Damerau-Levenshtein (optimal string alignment) table, kept between calls:
  // a did-you-mean over a million node names calls this a million times.
  thread_local std::vector<size_t> prev2, prev, row;
  prev2.assign(lb + 1, 0);
  prev.assign(lb + 1, 0);
  row.assign(lb + 1, 0);
  for (size_t j = 0; j <= lb; ++j)
    prev[j] = j;
  for (size_t i = 1; i <= la; ++i) {
    row[0] = i;
    size_t best = row[0];
    for (size_t j = 1; j <= lb; ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        row[j] = std::min(row[j], prev2[j - 2] + 1);
      best = std::min(best, row[j]);
    }
    if (best > limit)
      return limit + 1;
    std::swap(prev2, prev);
    std::swap(prev, row);
  }
  return std::min(prev[lb], limit + 1);
}

std::vector<std::string> closestSpellings(std::string_view word,
                                          const std::vector<std::string_view> &candidates,
                                          size_t max) {
  size_t limit = std::clamp<size_t>(word.size() / 3, 1, 3);
  std::vector<std::pair<size_t, size_t>> scored; // (distance, candidate index)
  for (size_t i = 0; i < candidates.size(); ++i) {
    std::string_view c = candidates[i];
    if (c == word)
      continue;
    size_t d = editDistance(word, c, limit);
    if (d > limit && word.size() >= 3 && c.starts_with(word))
      d = limit; // a prefix: as close as the farthest typo
    if (d <= limit)
      scored.emplace_back(d, i);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto &x, const auto &y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (size_t k = 0; k < scored.size() && out.size() < max; ++k) {
    std::string_view c = candidates[scored[k].second];
    if (std::find(out.begin(), out.end(), c) == out.end())
      out.emplace_back(c);
  }
  return out;
}

std::string didYouMean(const std::vector<std::string> &suggestions) {
  if (suggestions.empty())
    return "";
  std::string out = "did you mean ";
  for (size_t i = 0; i < suggestions.size(); ++i) {
    if (i)
      out += i + 1 == suggestions.size() ? " or " : ", ";
    out += "'" + suggestions[i] + "'";
  }
  return out + "?";
}

} // namespace fxkit
