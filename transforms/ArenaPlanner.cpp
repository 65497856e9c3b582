#include "transforms/ArenaPlanner.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <map>
#include <numeric>
#include <string>
#include <string_view>

// The search follows MiniMalloc (google/minimalloc, src/solver.cc and src/sweeper.cc, Apache
// License 2.0; Moffitt, ASPLOS 2023): canonical solutions, section-based lower bounds,
// dominance and "hatless" pruning, dynamic temporal decomposition and round-robin restarts over
// static preorderings. The code is fxkit's own; twin symmetry breaking, the greedy fast path
// and the minimising mode are additions.

namespace fxkit {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

int64_t alignUp(int64_t value, int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

std::string idText(int64_t id) { return "buffer " + std::to_string(id); }

// ---------------------------------------------------------------------------------------------
// The problem as the search sees it.
// ---------------------------------------------------------------------------------------------

/// A set of buffers whose lifetimes, taken together, cover one connected stretch of time
/// [secLo, secHi) of sections: no buffer outside it is live then, so it is packed on its own.
struct Partition {
  std::vector<int> buffers;
  int secLo = 0, secHi = 0;
};

/// The positive-size buffers (zero-size ones occupy nothing and go to offset 0), their sizes
/// rounded up to the alignment, and the time structure of one sweep:
///  - sections: the distinct "cross sections" of live buffers. A section is recorded at each
///    time some buffer dies (after time has advanced), holding every buffer live just before.
///    Every buffer is in a contiguous range [secLo, secHi) of them, and every instant's live
///    set is a subset of some section, so the section sums bound the pool from below;
///  - overlaps: pairs of buffers live at the same time;
///  - partitions: see Partition;
///  - twins: buffers with identical lifetime and size, which are interchangeable.
struct Problem {
  int64_t alignment = 1;
  std::vector<int> original; ///< index into the caller's buffers
  std::vector<int64_t> lower, upper, size;
  std::vector<int> secLo, secHi;
  std::vector<int> sectionStart, sectionBuffers; ///< CSR: buffers of each section
  std::vector<int> overlapStart, overlapBuffers; ///< CSR: buffers overlapping each buffer
  std::vector<Partition> partitions;
  std::vector<int> twinBefore; ///< the previous identical buffer, or -1
  int64_t sectionMax = 0;      ///< largest section sum (rounded sizes)

  int count() const { return static_cast<int>(size.size()); }
  int numSections() const { return static_cast<int>(sectionStart.size()) - 1; }
  std::span<const int> overlaps(int b) const {
    return {overlapBuffers.data() + overlapStart[b],
            static_cast<size_t>(overlapStart[b + 1] - overlapStart[b])};
  }
  std::span<const int> section(int s) const {
    return {sectionBuffers.data() + sectionStart[s],
            static_cast<size_t>(sectionStart[s + 1] - sectionStart[s])};
  }
};

Problem buildProblem(std::span<const BufferLifetime> buffers, int64_t alignment) {
  Problem p;
  p.alignment = alignment;
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i].size == 0)
      continue;
    p.original.push_back(static_cast<int>(i));
    p.lower.push_back(buffers[i].lower);
    p.upper.push_back(buffers[i].upper);
    p.size.push_back(alignUp(buffers[i].size, alignment));
  }
  const int n = p.count();
  p.secLo.assign(n, 0);
  p.secHi.assign(n, 0);
  p.twinBefore.assign(n, -1);

  // Sweep: deaths sort before births at the same instant (lifetimes are half-open).
  struct Point {
    int64_t time;
    int birth; // 0: death, 1: birth
    int buffer;
  };
  std::vector<Point> points;
  points.reserve(2 * static_cast<size_t>(n));
  for (int b = 0; b < n; ++b) {
    points.push_back({p.lower[b], 1, b});
    points.push_back({p.upper[b], 0, b});
  }
  std::sort(points.begin(), points.end(), [](const Point &a, const Point &b) {
    if (a.time != b.time)
      return a.time < b.time;
    if (a.birth != b.birth)
      return a.birth < b.birth;
    return a.buffer < b.buffer;
  });

  std::vector<int> live, livePos(n, -1);
  std::vector<std::vector<int>> overlaps(n);
  p.sectionStart.push_back(0);
  int64_t lastSectionTime = points.empty() ? 0 : points.front().time;
  int64_t liveSum = 0;
  for (const Point &pt : points) {
    const int b = pt.buffer;
    const int sections = p.numSections();
    if (!pt.birth) {
      if (lastSectionTime < pt.time) {
        lastSectionTime = pt.time;
        p.sectionBuffers.insert(p.sectionBuffers.end(), live.begin(), live.end());
        p.sectionStart.push_back(static_cast<int>(p.sectionBuffers.size()));
        p.sectionMax = std::max(p.sectionMax, liveSum);
      }
      int pos = livePos[b];
      live[pos] = live.back();
      livePos[live[pos]] = pos;
      live.pop_back();
      liveSum -= p.size[b];
      p.secHi[b] = p.numSections();
      if (live.empty())
        p.partitions.back().secHi = p.numSections();
    } else {
      if (live.empty())
        p.partitions.push_back({{}, sections, sections});
      p.partitions.back().buffers.push_back(b);
      for (int other : live) {
        overlaps[other].push_back(b);
        overlaps[b].push_back(other);
      }
      livePos[b] = static_cast<int>(live.size());
      live.push_back(b);
      liveSum += p.size[b];
      p.secLo[b] = sections;
    }
  }
  p.overlapStart.push_back(0);
  for (int b = 0; b < n; ++b) {
    p.overlapBuffers.insert(p.overlapBuffers.end(), overlaps[b].begin(), overlaps[b].end());
    p.overlapStart.push_back(static_cast<int>(p.overlapBuffers.size()));
  }

  std::vector<int> byShape(n);
  std::iota(byShape.begin(), byShape.end(), 0);
  auto shape = [&](int b) { return std::make_tuple(p.lower[b], p.upper[b], p.size[b], b); };
  std::sort(byShape.begin(), byShape.end(), [&](int a, int b) { return shape(a) < shape(b); });
  for (int i = 1; i < n; ++i) {
    int a = byShape[i - 1], b = byShape[i];
    if (p.lower[a] == p.lower[b] && p.upper[a] == p.upper[b] && p.size[a] == p.size[b])
      p.twinBefore[b] = a;
  }
  return p;
}

// ---------------------------------------------------------------------------------------------
// Greedy packing: the fast path, and the fallback plan when the search finds nothing better.
// ---------------------------------------------------------------------------------------------

/// Places buffers one at a time in `order`, each into the gap among the already placed
/// buffers it overlaps in time that fits it best (the smallest gap it fits, lowest first), or
/// on top of them. Returns the offsets (indexed like the problem's buffers).
std::vector<int64_t> greedyPack(const Problem &p, const std::vector<int> &order, bool bestFit) {
  const int n = p.count();
  std::vector<int64_t> offset(n, -1);
  std::vector<std::pair<int64_t, int64_t>> taken; // [begin, end) of placed overlapping buffers
  for (int b : order) {
    taken.clear();
    for (int o : p.overlaps(b))
      if (offset[o] >= 0)
        taken.push_back({offset[o], offset[o] + p.size[o]});
    std::sort(taken.begin(), taken.end());
    int64_t best = -1, bestGap = kInt64Max, cursor = 0;
    for (const auto &[begin, end] : taken) {
      int64_t at = alignUp(cursor, p.alignment);
      if (begin > at && begin - at >= p.size[b] && begin - cursor < bestGap) {
        best = at;
        bestGap = begin - cursor;
        if (!bestFit)
          break;
      }
      cursor = std::max(cursor, end);
    }
    offset[b] = best >= 0 ? best : alignUp(cursor, p.alignment);
  }
  return offset;
}

int64_t poolOf(const Problem &p, const std::vector<int64_t> &offset) {
  int64_t pool = 0;
  for (int b = 0; b < p.count(); ++b)
    pool = std::max(pool, offset[b] + p.size[b]);
  return pool;
}

/// The best of a few greedy orders (largest first, longest first, largest area first,
/// earliest first), first-fit and best-fit.
std::vector<int64_t> bestGreedy(const Problem &p) {
  const int n = p.count();
  std::vector<int> base(n);
  std::iota(base.begin(), base.end(), 0);
  auto width = [&](int b) { return static_cast<double>(p.upper[b]) - p.lower[b]; };
  auto area = [&](int b) { return width(b) * static_cast<double>(p.size[b]); };
  std::vector<std::vector<int>> orders;
  auto add = [&](auto key) {
    std::vector<int> o = base;
    std::stable_sort(o.begin(), o.end(), [&](int a, int b) { return key(a) > key(b); });
    orders.push_back(std::move(o));
  };
  add([&](int b) { return std::make_pair(static_cast<double>(p.size[b]), width(b)); });
  add([&](int b) { return std::make_pair(width(b), static_cast<double>(p.size[b])); });
  add([&](int b) { return std::make_pair(area(b), static_cast<double>(p.size[b])); });
  add([&](int b) { return std::make_pair(-static_cast<double>(p.lower[b]), width(b)); });
  std::vector<int64_t> best;
  int64_t bestPool = kInt64Max;
  for (const auto &order : orders)
    for (bool fit : {true, false}) {
      std::vector<int64_t> offset = greedyPack(p, order, fit);
      int64_t pool = poolOf(p, offset);
      if (pool < bestPool) {
        bestPool = pool;
        best = std::move(offset);
      }
    }
  return best;
}

// ---------------------------------------------------------------------------------------------
// Branch and bound.
// ---------------------------------------------------------------------------------------------

/// Search effort shared by every probe of one planArena call.
struct Budget {
  uint64_t nodes = 0;        ///< nodes used so far
  bool nodesLimited = false; ///< whether maxNodes applies
  uint64_t maxNodes = 0;     ///< node count at which the budget is exhausted
  Clock::time_point deadline;
  bool exhausted = false; ///< latched once either limit is hit

  bool spend() {
    if ((nodesLimited && nodes >= maxNodes) || ((nodes & 255) == 0 && Clock::now() > deadline))
      exhausted = true;
    else
      ++nodes;
    return !exhausted;
  }
};

enum class Outcome {
  Found,      ///< a complete packing within the capacity
  NotFound,   ///< the subtree holds none (a proof, when it comes from the root)
  Aborted,    ///< this restart's node limit ran out
  OutOfBudget ///< the planner's time or node budget ran out
};

/// Static preorderings tried round-robin (MiniMalloc's defaults): W = longest lifetime,
/// A = largest area, T = largest section total, each descending.
constexpr std::string_view kHeuristics[] = {"WAT", "TAW", "TWA"};

/// Partitions with more buffers than this are packed greedily only: the search's recursion
/// depth grows with a partition's buffers, and its candidate lists with their square.
constexpr size_t kMaxSearchBuffers = 2048;

/// Section totals with range add and range max, both O(log sections): the section bound of
/// every search node in logarithmic time instead of a pass over all sections.
class RangeMaxTree {
public:
  explicit RangeMaxTree(const std::vector<int64_t> &values)
      : n_(static_cast<int>(values.size())), max_(4 * values.size() + 4, 0),
        add_(4 * values.size() + 4, 0) {
    if (n_ > 0)
      build(1, 0, n_, values);
  }
  /// Adds delta to every value in [lo, hi).
  void add(int lo, int hi, int64_t delta) {
    if (lo < hi)
      add(1, 0, n_, lo, hi, delta);
  }
  /// The largest value in [lo, hi) (lo < hi).
  int64_t max(int lo, int hi) const { return max(1, 0, n_, lo, hi); }

private:
  void build(int node, int l, int r, const std::vector<int64_t> &values) {
    if (r - l == 1) {
      max_[node] = values[l];
      return;
    }
    int m = (l + r) / 2;
    build(2 * node, l, m, values);
    build(2 * node + 1, m, r, values);
    max_[node] = std::max(max_[2 * node], max_[2 * node + 1]);
  }
  void add(int node, int l, int r, int lo, int hi, int64_t delta) {
    if (lo <= l && r <= hi) {
      max_[node] += delta;
      add_[node] += delta;
      return;
    }
    int m = (l + r) / 2;
    if (lo < m)
      add(2 * node, l, m, lo, hi, delta);
    if (hi > m)
      add(2 * node + 1, m, r, lo, hi, delta);
    max_[node] = std::max(max_[2 * node], max_[2 * node + 1]) + add_[node];
  }
  int64_t max(int node, int l, int r, int lo, int hi) const {
    if (lo <= l && r <= hi)
      return max_[node];
    int m = (l + r) / 2;
    int64_t best = std::numeric_limits<int64_t>::min();
    if (lo < m)
      best = std::max(best, max(2 * node, l, m, lo, hi));
    if (hi > m)
      best = std::max(best, max(2 * node + 1, m, r, lo, hi));
    return best + add_[node];
  }

  int n_;
  std::vector<int64_t> max_, add_; ///< subtree max including add_[node]; pending adds
};

/// A depth-first search over canonical solutions: buffers are placed in non-decreasing order
/// of offset (ties by preorder), each at the lowest offset above every placed buffer it
/// overlaps in time. Every packing can be pushed down into such a "canonical" one, so the
/// search is complete; the rules below only skip subtrees that cannot hold a canonical
/// solution missing elsewhere:
///  - dominance: a buffer is not placed at or above the point where some unplaced buffer
///    could already end (that buffer would fit underneath, so it comes first);
///  - section inference: in every section, the unplaced buffers stack up above the section's
///    floor, which is at least the top of the buffers placed there, the current offset (later
///    placements are never lower) and the lowest offset any of its unplaced buffers can take;
///    floor plus unplaced sizes must fit the capacity;
///  - hatless pruning: when the placed buffer overlaps no unplaced one and the subtree fails,
///    no sibling can succeed either (it would end up at the same offset);
///  - twins: of identical buffers, the first (by index) is placed first;
///  - dynamic decomposition: once no unplaced buffer spans a section boundary, each side is an
///    independent problem, searched on its own (a failure on either side fails both).
class PackingSearch {
public:
  PackingSearch(const Problem &p, Budget &budget)
      : p_(p), budget_(budget), total_(initialTotals(p)), totals_(total_) {
    const int n = p.count(), s = p.numSections();
    offset_.assign(n, -1);
    solution_.assign(n, -1);
    minOffset_.assign(n, 0);
    cuts_.assign(std::max(s - 1, 0), 0);
    for (int b = 0; b < n; ++b)
      for (int i = p.secLo[b]; i + 1 < p.secHi[b]; ++i)
        ++cuts_[i];
    levels_.resize(n + 2);
    pieces_.resize(n + 2);
  }

  /// Searches for a packing within `capacity`, restarting with a doubled node limit and the
  /// next preordering whenever one runs out (MiniMalloc's round robin).
  Outcome solve(int64_t capacity) {
    capacity_ = capacity;
    for (const Partition &part : p_.partitions)
      if (part.buffers.size() > kMaxSearchBuffers)
        return Outcome::OutOfBudget;
    uint64_t limit = std::max(p_.count(), 1);
    while (true) {
      limit *= 2;
      for (std::string_view heuristic : kHeuristics) {
        heuristic_ = heuristic;
        runNodesLeft_ = limit;
        Outcome outcome = Outcome::Found;
        for (const Partition &part : p_.partitions) {
          outcome = subSolve(part, 0);
          if (outcome != Outcome::Found)
            break;
        }
        if (outcome != Outcome::Aborted)
          return outcome;
      }
    }
  }

  const std::vector<int64_t> &solution() const { return solution_; }

private:
  struct Candidate {
    int64_t offset;
    int pre; ///< preorder index
    bool operator<(const Candidate &o) const {
      return offset != o.offset ? offset < o.offset : pre < o.pre;
    }
  };
  struct Change {
    int index;
    int64_t old;
  };

  static std::vector<int64_t> initialTotals(const Problem &p) {
    std::vector<int64_t> total(p.numSections(), 0);
    for (int b = 0; b < p.count(); ++b)
      for (int s = p.secLo[b]; s < p.secHi[b]; ++s)
        total[s] += p.size[b];
    return total;
  }

  // The recursion is subSolve -> search -> place -> decompose -> search or subSolve, one level
  // per placed buffer. Everything else is kept out of those four functions (noinline), so
  // that a level stays small on the stack: a few hundred bytes (about 1 KB with AddressSanitizer).

  /// A partition's buffers in preorder, and the root candidate list of its search.
  struct Ordered {
    std::vector<int> order;
    std::vector<Candidate> initial;
  };

  /// Sorts a partition's (unplaced) buffers by the current heuristic.
  [[gnu::noinline]] Ordered preorder(const Partition &part) const {
    struct Key {
      double width, area;
      int64_t total;
      int buffer;
    };
    std::vector<Key> keys;
    keys.reserve(part.buffers.size());
    for (int b : part.buffers) {
      int64_t total = totals_.max(p_.secLo[b], p_.secHi[b]);
      double width = static_cast<double>(p_.upper[b]) - static_cast<double>(p_.lower[b]);
      keys.push_back({width, width * static_cast<double>(p_.size[b]), total, b});
    }
    std::string_view h = heuristic_;
    std::sort(keys.begin(), keys.end(), [h](const Key &a, const Key &b) {
      for (char c : h) {
        if (c == 'W' && a.width != b.width)
          return a.width > b.width;
        if (c == 'A' && a.area != b.area)
          return a.area > b.area;
        if (c == 'T' && a.total != b.total)
          return a.total > b.total;
      }
      return a.buffer < b.buffer;
    });
    Ordered ordered{std::vector<int>(keys.size()), std::vector<Candidate>(keys.size())};
    for (size_t i = 0; i < keys.size(); ++i) {
      ordered.order[i] = keys[i].buffer;
      ordered.initial[i] = {minOffset_[keys[i].buffer], static_cast<int>(i)};
    }
    std::sort(ordered.initial.begin(), ordered.initial.end());
    return ordered;
  }

  /// Preorders a partition and searches it.
  Outcome subSolve(const Partition &part, int depth) {
    const Ordered ordered = preorder(part);
    return search(part, ordered.order, ordered.initial, 0, 0, depth);
  }

  /// Fills levels_[depth] with the unplaced buffers of `parent` by lowest possible offset, then
  /// preorder (the dynamic ordering). Only the buffers the last placement pushed up have
  /// moved: they are sorted apart and merged back into the rest.
  [[gnu::noinline]] void collectCandidates(const std::vector<int> &order,
                                           std::span<const Candidate> parent, int depth) {
    std::vector<Candidate> &cands = levels_[depth];
    cands.clear();
    moved_.clear();
    for (const Candidate &c : parent) {
      const int b = order[c.pre];
      if (offset_[b] >= 0)
        continue;
      if (minOffset_[b] == c.offset)
        cands.push_back(c);
      else
        moved_.push_back({minOffset_[b], c.pre});
    }
    if (moved_.empty())
      return;
    std::sort(moved_.begin(), moved_.end());
    merged_.resize(cands.size() + moved_.size());
    std::merge(cands.begin(), cands.end(), moved_.begin(), moved_.end(), merged_.begin());
    cands.swap(merged_);
  }

  /// `parent` is the parent node's candidate list, sorted by its offsets at the time.
  Outcome search(const Partition &part, const std::vector<int> &order,
                 std::span<const Candidate> parent, int64_t lastOffset, int lastPre, int depth) {
    if (runNodesLeft_ == 0)
      return Outcome::Aborted;
    --runNodesLeft_;
    if (!budget_.spend())
      return Outcome::OutOfBudget;
    collectCandidates(order, parent, depth);
    const std::vector<Candidate> &cands = levels_[depth];
    if (cands.empty())
      return Outcome::Found;
    int64_t minHeight = kInt64Max;
    for (const Candidate &c : cands)
      minHeight = std::min(minHeight, c.offset + p_.size[order[c.pre]]);
    // Section inference, placed floors and offset: placing b at o raises the floor of b's
    // sections to o + size(b), where size(b) leaves the unplaced total, and puts every other
    // section at o or higher; those sections' own floors passed when they were set. So a
    // placement at o passes iff o + (largest unplaced total in the partition) <= capacity.
    const int64_t highest = capacity_ - totals_.max(part.secLo, part.secHi);

    for (size_t i = 0; i < cands.size(); ++i) {
      const Candidate c = cands[i];
      if (c.offset >= minHeight || c.offset > highest)
        break; // dominance or bound: sorted by offset, so every later candidate fails too
      if (c.offset < lastOffset || (c.offset == lastOffset && c.pre < lastPre))
        continue; // not canonical
      const int b = order[c.pre];
      if (p_.twinBefore[b] >= 0 && offset_[p_.twinBefore[b]] < 0)
        continue;
      const Placement tried = place(part, order, b, c, depth);
      if (tried.outcome != Outcome::NotFound)
        return tried.outcome;
      if (tried.hatless)
        break;
    }
    return Outcome::NotFound;
  }

  struct Placement {
    Outcome outcome;
    bool hatless; ///< the buffer overlapped no unplaced buffer
  };

  /// Places b at c.offset, propagates, checks the bounds, recurses, and undoes it all.
  Placement place(const Partition &part, const std::vector<int> &order, int b, Candidate c,
                  int depth) {
    const size_t minMark = minTrail_.size(), rangeMark = raised_.size();
    const bool hatless = propagate(b, c.offset);
    const bool fits = fitsRaisedSections(rangeMark);
    raised_.resize(rangeMark);
    const Outcome outcome = fits ? decompose(part, order, b, c, depth) : Outcome::NotFound;
    unplace(b, minMark);
    return {outcome, hatless};
  }

  /// Puts b at `offset`: raises the lowest offsets of the unplaced buffers it overlaps
  /// (recording their section ranges in raised_) and takes it out of its sections' totals.
  /// Returns whether b overlaps no unplaced buffer.
  [[gnu::noinline]] bool propagate(int b, int64_t offset) {
    const int64_t top = offset + p_.size[b];
    offset_[b] = offset;
    solution_[b] = offset; // the successful path writes last
    bool hatless = true;
    for (int u : p_.overlaps(b)) {
      if (offset_[u] >= 0)
        continue;
      hatless = false;
      if (minOffset_[u] >= top)
        continue;
      minTrail_.push_back({u, minOffset_[u]});
      minOffset_[u] = alignUp(top, p_.alignment);
      raised_.push_back({p_.secLo[u], p_.secHi[u]});
    }
    for (int s = p_.secLo[b]; s < p_.secHi[b]; ++s)
      total_[s] -= p_.size[b];
    totals_.add(p_.secLo[b], p_.secHi[b], -p_.size[b]);
    return hatless;
  }

  /// Undoes propagate(b, ...), given minTrail_'s size before it.
  [[gnu::noinline]] void unplace(int b, size_t minMark) {
    totals_.add(p_.secLo[b], p_.secHi[b], p_.size[b]);
    for (int s = p_.secLo[b]; s < p_.secHi[b]; ++s)
      total_[s] += p_.size[b];
    for (size_t i = minTrail_.size(); i-- > minMark;)
      minOffset_[minTrail_[i].index] = minTrail_[i].old;
    minTrail_.resize(minMark);
    offset_[b] = -1;
  }

  /// Section inference, unallocated-floor part: a section's unplaced buffers all start at or
  /// above the lowest offset any of them can take. Checks the sections of the buffers whose
  /// lowest offset just rose (raised_[mark..]): fails if in one of them every unplaced
  /// buffer's lowest offset is above capacity - (unplaced sizes there). Needs no state of its
  /// own: a section that passes now can only fail later through a change that brings it back
  /// here, or through the offset or a placement in it, which search() checks.
  [[gnu::noinline]] bool fitsRaisedSections(size_t mark) {
    if (raised_.size() - mark > 1)
      std::sort(raised_.begin() + static_cast<std::ptrdiff_t>(mark), raised_.end());
    int done = 0; // sections below this are checked
    for (size_t i = mark; i < raised_.size(); ++i) {
      for (int s = std::max(done, raised_[i].first); s < raised_[i].second; ++s) {
        if (total_[s] == 0)
          continue;
        const int64_t limit = capacity_ - total_[s];
        bool possible = false;
        for (int u : p_.section(s))
          if (offset_[u] < 0 && minOffset_[u] <= limit) {
            possible = true;
            break;
          }
        if (!possible)
          return false;
      }
      done = std::max(done, raised_[i].second);
    }
    return true;
  }

  /// After placing b: where no unplaced buffer crosses a section boundary any more, the sides
  /// are solved separately; otherwise the search goes on in this partition.
  Outcome decompose(const Partition &part, const std::vector<int> &order, int b, Candidate c,
                    int depth) {
    Outcome outcome = Outcome::Found;
    if (!cut(part, b, depth)) {
      outcome = search(part, order, levels_[depth], c.offset, c.pre, depth + 1);
    } else {
      for (const Partition &sub : pieces_[depth]) {
        outcome = subSolve(sub, depth + 1);
        if (outcome != Outcome::Found)
          break;
      }
    }
    uncut(b);
    return outcome;
  }

  /// Takes b out of the cut counts. Where one drops to zero, fills pieces_[depth] with the
  /// pieces of `part` between such cuts (those with unplaced buffers) and returns true.
  [[gnu::noinline]] bool cut(const Partition &part, int b, int depth) {
    std::vector<int> &cutpoints = cutpoints_;
    cutpoints.clear();
    for (int s = p_.secLo[b]; s + 1 < p_.secHi[b]; ++s)
      if (--cuts_[s] == 0)
        cutpoints.push_back(s + 1);
    if (cutpoints.empty())
      return false;
    cutpoints.insert(cutpoints.begin(), part.secLo);
    cutpoints.push_back(part.secHi);
    std::vector<Partition> &pieces = pieces_[depth];
    pieces.clear();
    for (size_t k = 1; k < cutpoints.size(); ++k) {
      Partition piece{{}, cutpoints[k - 1], cutpoints[k]};
      for (int u : part.buffers)
        if (offset_[u] < 0 && p_.secLo[u] < piece.secHi && piece.secLo < p_.secHi[u])
          piece.buffers.push_back(u);
      if (!piece.buffers.empty())
        pieces.push_back(std::move(piece));
    }
    return true;
  }

  [[gnu::noinline]] void uncut(int b) {
    for (int s = p_.secLo[b]; s + 1 < p_.secHi[b]; ++s)
      ++cuts_[s];
  }

  const Problem &p_;
  Budget &budget_;
  int64_t capacity_ = 0;
  std::string_view heuristic_;
  uint64_t runNodesLeft_ = 0;

  std::vector<int64_t> offset_, solution_, minOffset_;
  std::vector<int64_t> total_; ///< unplaced bytes per section
  RangeMaxTree totals_;        ///< the same, for range maxima
  std::vector<int> cuts_;      ///< unplaced buffers spanning sections s and s + 1
  std::vector<Change> minTrail_;
  std::vector<std::pair<int, int>> raised_;    ///< section ranges of buffers that rose
  std::vector<std::vector<Candidate>> levels_; ///< candidate lists, one per recursion depth
  std::vector<std::vector<Partition>> pieces_; ///< decompositions, one per recursion depth
  std::vector<Candidate> moved_, merged_;      ///< scratch of collectCandidates()
  std::vector<int> cutpoints_;                 ///< scratch of cut()
};

// ---------------------------------------------------------------------------------------------
// Input checks.
// ---------------------------------------------------------------------------------------------

Status checkBuffers(std::span<const BufferLifetime> buffers, int64_t alignment) {
  // Offsets are sums of (aligned) sizes: keep every sum far from overflow.
  constexpr int64_t kLimit = kInt64Max / 4;
  if (alignment < 1 || alignment > kLimit)
    return Error("alignment must be between 1 and " + std::to_string(kLimit) + ", got " +
                 std::to_string(alignment));
  int64_t sum = 0;
  for (const BufferLifetime &b : buffers) {
    if (b.upper <= b.lower)
      return Error(idText(b.id) + ": upper (" + std::to_string(b.upper) +
                   ") must be greater than lower (" + std::to_string(b.lower) + ")");
    if (b.size < 0)
      return Error(idText(b.id) + ": negative size " + std::to_string(b.size));
    if (b.size > kLimit || alignUp(b.size, alignment) > kLimit - sum)
      return Error("buffer sizes add up to more than " + std::to_string(kLimit));
    sum += alignUp(b.size, alignment);
  }
  return Status::ok();
}

} // namespace

int64_t liveBytesLowerBound(std::span<const BufferLifetime> buffers) {
  std::vector<std::pair<int64_t, int64_t>> events; // (time, +size at birth / -size at death)
  events.reserve(2 * buffers.size());
  for (const BufferLifetime &b : buffers) {
    if (b.size <= 0)
      continue;
    events.push_back({b.lower, b.size});
    events.push_back({b.upper, -b.size});
  }
  // At one instant, deaths (negative) sort before births: lifetimes are half-open.
  std::sort(events.begin(), events.end());
  __int128 live = 0, best = 0;
  for (const auto &[time, delta] : events) {
    live += delta;
    best = std::max(best, live);
  }
  return best > kInt64Max ? kInt64Max : static_cast<int64_t>(best);
}

Expected<ArenaPlan> planArena(std::span<const BufferLifetime> buffers,
                              const ArenaPlanOptions &options) {
  const Clock::time_point start = Clock::now();
  if (Status st = checkBuffers(buffers, options.alignment); !st)
    return st.takeError();
  if (options.capacity && *options.capacity < 0)
    return Error("capacity must not be negative, got " + std::to_string(*options.capacity));
  if (!(options.timeLimitSeconds >= 0))
    return Error("time limit must not be negative");

  ArenaPlan plan;
  plan.lowerBound = liveBytesLowerBound(buffers);
  plan.offsets.assign(buffers.size(), 0);
  const Problem p = buildProblem(buffers, options.alignment);

  Budget budget;
  budget.nodesLimited = options.maxSearchNodes > 0;
  budget.maxNodes = options.maxSearchNodes;
  // Clamp the time limit so the deadline arithmetic cannot overflow (a day is plenty).
  budget.deadline =
      start + std::chrono::duration_cast<Clock::duration>(
                  std::chrono::duration<double>(std::min(options.timeLimitSeconds, 86400.0)));
  const bool searchAllowed = options.timeLimitSeconds > 0;

  std::vector<int64_t> best = bestGreedy(p);
  int64_t bestPool = poolOf(p, best);
  // Pools (in rounded sizes) below provenLow are proven impossible; below searchLow they are
  // proven impossible or given up on.
  int64_t provenLow = p.sectionMax, searchLow = p.sectionMax;

  PackingSearch search(p, budget);
  auto probe = [&](int64_t capacity, double share) {
    // Each probe gets a share of what is left, so a hopeless one cannot starve the rest.
    Budget saved = budget;
    const Clock::time_point now = Clock::now();
    if (budget.deadline > now)
      budget.deadline =
          now + std::chrono::duration_cast<Clock::duration>((budget.deadline - now) * share);
    if (budget.nodesLimited)
      budget.maxNodes =
          budget.nodes +
          static_cast<uint64_t>(static_cast<double>(budget.maxNodes - budget.nodes) * share);
    Outcome outcome = search.solve(capacity);
    saved.nodes = budget.nodes;
    budget = saved;
    if (outcome == Outcome::Found) {
      best = search.solution();
      bestPool = poolOf(p, best);
    } else {
      if (outcome == Outcome::NotFound)
        provenLow = std::max(provenLow, capacity + 1);
      searchLow = std::max(searchLow, capacity + 1);
    }
    return outcome;
  };

  // Whether the search may claim optimality: with alignment > 1 it packs rounded sizes, which
  // is conservative, so only meeting the true lower bound proves anything.
  const bool exact = options.alignment == 1;
  bool proved = false;
  if (options.capacity) {
    const int64_t capacity = *options.capacity;
    if (bestPool > capacity && searchAllowed && p.sectionMax <= capacity) {
      Outcome outcome = probe(capacity, 1.0);
      proved = outcome == Outcome::Found || (exact && outcome == Outcome::NotFound);
    }
  } else if (searchAllowed && bestPool > p.sectionMax) {
    // Minimise: first the lower bound itself (real problems often pack perfectly), then
    // bisect between what is ruled out and the best pool found.
    probe(searchLow, 0.5);
    while (searchLow < bestPool && !budget.exhausted)
      probe(searchLow + (bestPool - 1 - searchLow) / 2, 0.5);
    proved = exact && provenLow >= bestPool;
  }

  for (int b = 0; b < p.count(); ++b)
    plan.offsets[p.original[b]] = best[b];
  plan.poolSize = 0;
  for (size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].size > 0)
      plan.poolSize = std::max(plan.poolSize, plan.offsets[i] + buffers[i].size);
  plan.fits = !options.capacity || plan.poolSize <= *options.capacity;
  plan.provedOptimal = proved || plan.poolSize <= plan.lowerBound ||
                       (options.capacity && (plan.fits || plan.lowerBound > *options.capacity));
  plan.searchNodes = budget.nodes;
  plan.elapsedSeconds = std::chrono::duration<double>(Clock::now() - start).count();
  return plan;
}

Status validateArenaPlan(std::span<const BufferLifetime> buffers, const ArenaPlan &plan,
                         std::optional<int64_t> capacity, int64_t alignment) {
  if (alignment < 1)
    return Error("alignment must be at least 1, got " + std::to_string(alignment));
  if (plan.offsets.size() != buffers.size())
    return Error("the plan has " + std::to_string(plan.offsets.size()) + " offsets for " +
                 std::to_string(buffers.size()) + " buffers");
  int64_t pool = 0;
  for (size_t i = 0; i < buffers.size(); ++i) {
    const BufferLifetime &b = buffers[i];
    const int64_t offset = plan.offsets[i];
    if (b.upper <= b.lower || b.size < 0)
      return Error(idText(b.id) + ": invalid lifetime or size");
    if (offset < 0)
      return Error(idText(b.id) + ": negative offset " + std::to_string(offset));
    if (offset % alignment != 0)
      return Error(idText(b.id) + ": offset " + std::to_string(offset) +
                   " is not a multiple of the alignment " + std::to_string(alignment));
    if (offset > kInt64Max - b.size)
      return Error(idText(b.id) + ": offset + size overflows");
    if (capacity && offset + b.size > *capacity)
      return Error(idText(b.id) + ": ends at " + std::to_string(offset + b.size) +
                   ", beyond the capacity " + std::to_string(*capacity));
    if (b.size > 0)
      pool = std::max(pool, offset + b.size);
  }
  if (plan.poolSize != pool)
    return Error("the plan says its pool is " + std::to_string(plan.poolSize) +
                 " bytes, but its buffers end at " + std::to_string(pool));

  // Sweep over time keeping the live buffers ordered by offset: they never overlap, so a
  // newcomer only needs checking against its neighbours.
  struct Event {
    int64_t time;
    int birth;
    size_t index;
  };
  std::vector<Event> events;
  for (size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].size > 0) {
      events.push_back({buffers[i].lower, 1, i});
      events.push_back({buffers[i].upper, 0, i});
    }
  std::sort(events.begin(), events.end(), [](const Event &a, const Event &b) {
    return a.time != b.time ? a.time < b.time
                            : (a.birth != b.birth ? a.birth < b.birth : a.index < b.index);
  });
  std::map<int64_t, size_t> live; // offset -> buffer index
  auto clash = [&](size_t a, size_t b, int64_t time) {
    auto range = [&](size_t i) {
      return "[" + std::to_string(plan.offsets[i]) + ", " +
             std::to_string(plan.offsets[i] + buffers[i].size) + ")";
    };
    return Error(idText(buffers[a].id) + " " + range(a) + " and " + idText(buffers[b].id) + " " +
                 range(b) + " overlap while both are live at time " + std::to_string(time));
  };
  for (const Event &e : events) {
    const int64_t offset = plan.offsets[e.index];
    if (!e.birth) {
      live.erase(offset);
      continue;
    }
    auto next = live.lower_bound(offset);
    if (next != live.end() && next->first < offset + buffers[e.index].size)
      return clash(next->second, e.index, e.time);
    if (next != live.begin()) {
      auto prev = std::prev(next);
      if (prev->first + buffers[prev->second].size > offset)
        return clash(prev->second, e.index, e.time);
    }
    live.emplace(offset, e.index);
  }
  return Status::ok();
}

} // namespace fxkit
