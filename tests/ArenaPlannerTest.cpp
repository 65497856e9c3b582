// The memory planner (transforms/ArenaPlanner.h), its validator, the MiniMalloc CSV reader and
// writer, and every problem of tests/data/minimalloc. Results never depend on timing: the
// searches that could run long get a node budget and a time limit far beyond it.
#include "transforms/ArenaPlanner.h"
#include "exporters/MiniMallocCsvWriter.h"
#include "importers/MiniMallocCsv.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <random>
#include <string>

using namespace fxkit;

namespace {

/// Parses CSV text that the test knows to be valid.
std::vector<BufferLifetime> parse(std::string_view text) {
  auto problem = parseMiniMallocCsv(text, "test.csv");
  EXPECT_TRUE(problem) << problem.error().str();
  return problem ? problem->buffers : std::vector<BufferLifetime>{};
}

/// Options whose outcome depends on the node budget only.
ArenaPlanOptions deterministic(std::optional<int64_t> capacity, uint64_t nodes = 1000000) {
  ArenaPlanOptions options;
  options.capacity = capacity;
  options.maxSearchNodes = nodes;
  options.timeLimitSeconds = 1e6;
  return options;
}

ArenaPlan planOrDie(std::span<const BufferLifetime> buffers, const ArenaPlanOptions &options) {
  auto plan = planArena(buffers, options);
  EXPECT_TRUE(plan) << plan.error().str();
  if (!plan)
    return {};
  Status valid = validateArenaPlan(buffers, *plan, std::nullopt, options.alignment);
  EXPECT_TRUE(valid) << valid.error().str();
  return *plan;
}

/// MiniMalloc's own example (benchmarks/examples): capacity 12, which is the lower bound.
constexpr std::string_view kExample = R"(id,lower,upper,size
b1,0,3,4
b2,3,9,4
b3,0,9,4
b4,9,21,4
b5,0,21,4
)";

/// Every greedy order the planner tries needs 6 here, the lower bound is 5, and the search
/// reaches it.
constexpr std::string_view kGreedyFails = R"(id,lower,upper,size
0,4,8,2
1,4,8,1
2,1,5,1
3,0,2,2
4,2,4,4
5,1,2,1
6,5,8,2
)";

/// Lower bound 20, but the best packing needs 21 (checked by an exhaustive search over
/// placement orders, outside this suite): only the search can prove 20 impossible.
constexpr std::string_view kAboveLowerBound = R"(id,lower,upper,size
0,1,7,3
1,1,5,6
2,2,6,5
3,7,13,5
4,8,9,5
5,6,8,3
6,5,11,8
7,3,9,2
8,3,4,3
9,9,13,3
10,9,14,4
11,0,6,1
12,4,8,1
)";

// ---- Lower bound ----

TEST(ArenaPlanner, LowerBoundUsesHalfOpenLifetimes) {
  std::vector<BufferLifetime> touching = {{0, 0, 2, 5}, {1, 2, 4, 7}};
  EXPECT_EQ(liveBytesLowerBound(touching), 7);
  std::vector<BufferLifetime> overlapping = {{0, 0, 3, 5}, {1, 2, 4, 7}, {2, 3, 9, 1}};
  EXPECT_EQ(liveBytesLowerBound(overlapping), 12);
  EXPECT_EQ(liveBytesLowerBound({}), 0);
}

// ---- Hand-made plans with known optima ----

TEST(ArenaPlanner, EmptyAndSingle) {
  ArenaPlan empty = planOrDie({}, {});
  EXPECT_EQ(empty.poolSize, 0);
  EXPECT_TRUE(empty.fits);
  EXPECT_TRUE(empty.provedOptimal);

  std::vector<BufferLifetime> one = {{7, 3, 4, 100}};
  ArenaPlan plan = planOrDie(one, {});
  EXPECT_EQ(plan.offsets, std::vector<int64_t>{0});
  EXPECT_EQ(plan.poolSize, 100);
  EXPECT_TRUE(plan.provedOptimal);
}

TEST(ArenaPlanner, MiniMallocExample) {
  auto buffers = parse(kExample);
  ASSERT_EQ(buffers.size(), 5u);
  ArenaPlan minimised = planOrDie(buffers, deterministic(std::nullopt));
  EXPECT_EQ(minimised.lowerBound, 12);
  EXPECT_EQ(minimised.poolSize, 12);
  EXPECT_TRUE(minimised.provedOptimal);

  ArenaPlan fitted = planOrDie(buffers, deterministic(12));
  EXPECT_TRUE(fitted.fits);
  EXPECT_TRUE(validateArenaPlan(buffers, fitted, 12));
}

TEST(ArenaPlanner, SearchSucceedsWhereGreedyFails) {
  auto buffers = parse(kGreedyFails);
  ArenaPlanOptions greedyOnly;
  greedyOnly.timeLimitSeconds = 0;
  ArenaPlan greedy = planOrDie(buffers, greedyOnly);
  EXPECT_EQ(greedy.lowerBound, 5);
  EXPECT_GT(greedy.poolSize, 5);
  EXPECT_EQ(greedy.searchNodes, 0u);

  ArenaPlan searched = planOrDie(buffers, deterministic(5));
  EXPECT_TRUE(searched.fits);
  EXPECT_EQ(searched.poolSize, 5);
  EXPECT_GT(searched.searchNodes, 0u);
  EXPECT_TRUE(validateArenaPlan(buffers, searched, 5));

  ArenaPlan minimised = planOrDie(buffers, deterministic(std::nullopt));
  EXPECT_EQ(minimised.poolSize, 5);
  EXPECT_TRUE(minimised.provedOptimal);
}

TEST(ArenaPlanner, ProvesThatNothingFitsBelowTheOptimum) {
  auto buffers = parse(kAboveLowerBound);
  ArenaPlan tight = planOrDie(buffers, deterministic(20));
  EXPECT_EQ(tight.lowerBound, 20);
  EXPECT_FALSE(tight.fits);
  EXPECT_TRUE(tight.provedOptimal); // proved: no plan fits
  EXPECT_GT(tight.poolSize, 20);    // the best plan found is still returned

  ArenaPlan fitted = planOrDie(buffers, deterministic(21));
  EXPECT_TRUE(fitted.fits);
  EXPECT_EQ(fitted.poolSize, 21);

  ArenaPlan minimised = planOrDie(buffers, deterministic(std::nullopt));
  EXPECT_EQ(minimised.poolSize, 21);
  EXPECT_TRUE(minimised.provedOptimal);
}

TEST(ArenaPlanner, CapacityBelowLowerBoundIsProvedWithoutSearch) {
  auto buffers = parse(kExample);
  ArenaPlan plan = planOrDie(buffers, deterministic(11));
  EXPECT_FALSE(plan.fits);
  EXPECT_TRUE(plan.provedOptimal);
  EXPECT_EQ(plan.searchNodes, 0u);
  EXPECT_EQ(plan.poolSize, 12);
}

TEST(ArenaPlanner, ZeroSizeBuffersOccupyNothing) {
  std::vector<BufferLifetime> buffers = {{0, 0, 10, 0}, {1, 0, 5, 8}, {2, 2, 8, 0}, {3, 5, 9, 8}};
  ArenaPlan plan = planOrDie(buffers, deterministic(8));
  EXPECT_TRUE(plan.fits);
  EXPECT_EQ(plan.poolSize, 8);
  EXPECT_EQ(plan.offsets[0], 0);
  EXPECT_EQ(plan.offsets[2], 0);
}

TEST(ArenaPlanner, IdenticalBuffersAreInterchangeable) {
  // kAboveLowerBound with buffer 6 (5,11,8) split into eight identical 1-byte buffers: still
  // no plan within 20 (checked exhaustively outside this suite). Symmetry breaking places
  // identical buffers in one order only, instead of 8! orders.
  auto buffers = parse(kAboveLowerBound);
  buffers.erase(buffers.begin() + 6);
  for (int64_t i = 0; i < 8; ++i)
    buffers.push_back({100 + i, 5, 11, 1});
  ArenaPlan tight = planOrDie(buffers, deterministic(20));
  EXPECT_FALSE(tight.fits);
  EXPECT_TRUE(tight.provedOptimal);
  ArenaPlan minimised = planOrDie(buffers, deterministic(std::nullopt));
  EXPECT_EQ(minimised.poolSize, 21);
  EXPECT_TRUE(minimised.provedOptimal);
}

TEST(ArenaPlanner, AlignmentRoundsOffsets) {
  std::vector<BufferLifetime> buffers = {{0, 0, 4, 5}, {1, 1, 3, 3}, {2, 2, 6, 9}};
  ArenaPlanOptions options = deterministic(std::nullopt);
  options.alignment = 8;
  ArenaPlan plan = planOrDie(buffers, options);
  for (int64_t offset : plan.offsets)
    EXPECT_EQ(offset % 8, 0);
  EXPECT_TRUE(validateArenaPlan(buffers, plan, std::nullopt, 8));
  // All three are live at time 2; rounded to 8, 8 and 16 bytes they stack up to 32, and the
  // one on top may end early.
  EXPECT_GE(plan.poolSize, 8 + 8 + 9);
  EXPECT_LE(plan.poolSize, 32);
}

TEST(ArenaPlanner, DisjointPartitionsShareTheBottom) {
  // Two phases that never overlap in time reuse the same bytes.
  std::vector<BufferLifetime> buffers = {
      {0, 0, 2, 4}, {1, 1, 3, 4}, {2, 10, 12, 6}, {3, 11, 13, 2}};
  ArenaPlan plan = planOrDie(buffers, deterministic(std::nullopt));
  EXPECT_EQ(plan.poolSize, 8);
  EXPECT_TRUE(plan.provedOptimal);
}

TEST(ArenaPlanner, NodeBudgetIsDeterministic) {
  auto text = readMiniMallocCsvFile(std::string(FXKIT_TEST_DATA) + "/minimalloc/A.1048576.csv");
  ASSERT_TRUE(text) << text.error().str();
  ArenaPlan first = planOrDie(text->buffers, deterministic(1048576, 500));
  ArenaPlan second = planOrDie(text->buffers, deterministic(1048576, 500));
  EXPECT_EQ(first.offsets, second.offsets);
  EXPECT_EQ(first.searchNodes, second.searchNodes);
  EXPECT_LE(first.searchNodes, 500u);
  if (!first.fits) {
    EXPECT_FALSE(first.provedOptimal); // ran out of budget: nothing proved
  }
}

/// The smallest pool by brute force: every placement order, each buffer at the lowest offset
/// where it fits among those placed. Complete: in a packing where no buffer can move to any
/// lower free position, placing the buffers by offset this way rebuilds it (a later, higher
/// buffer cannot block a lower position that would overlap it).
int64_t exhaustiveOptimum(const std::vector<BufferLifetime> &buffers) {
  const size_t n = buffers.size();
  std::vector<int64_t> offset(n, -1);
  int64_t best = std::numeric_limits<int64_t>::max();
  auto dfs = [&](auto &&self, size_t placed, int64_t pool) -> void {
    if (pool >= best)
      return;
    if (placed == n) {
      best = pool;
      return;
    }
    for (size_t b = 0; b < n; ++b) {
      if (offset[b] >= 0)
        continue;
      std::vector<std::pair<int64_t, int64_t>> taken;
      for (size_t o = 0; o < n; ++o)
        if (offset[o] >= 0 && buffers[o].lower < buffers[b].upper &&
            buffers[b].lower < buffers[o].upper)
          taken.push_back({offset[o], offset[o] + buffers[o].size});
      std::sort(taken.begin(), taken.end());
      int64_t at = 0;
      for (const auto &[begin, end] : taken) {
        if (begin - at >= buffers[b].size)
          break;
        at = std::max(at, end);
      }
      offset[b] = at;
      self(self, placed + 1, std::max(pool, at + buffers[b].size));
      offset[b] = -1;
    }
  };
  dfs(dfs, 0, 0);
  return best;
}

TEST(ArenaPlanner, MatchesExhaustiveSearchOnSmallProblems) {
  std::mt19937 rng(2024); // fixed: the same problems everywhere
  for (int iter = 0; iter < 300; ++iter) {
    std::vector<BufferLifetime> buffers;
    const int n = 2 + static_cast<int>(rng() % 5);
    for (int i = 0; i < n; ++i) {
      int64_t lower = rng() % 8, length = 1 + rng() % 5, size = rng() % 8;
      buffers.push_back({i, lower, lower + length, size});
    }
    if (iter % 3 == 0) // a twin
      buffers.push_back(buffers[rng() % buffers.size()]);
    SCOPED_TRACE("problem " + std::to_string(iter));
    const int64_t optimum = exhaustiveOptimum(buffers);
    ArenaPlan plan = planOrDie(buffers, deterministic(std::nullopt));
    EXPECT_EQ(plan.poolSize, optimum);
    EXPECT_TRUE(plan.provedOptimal);
    for (int64_t capacity : {optimum - 1, optimum}) {
      if (capacity < 0)
        continue;
      ArenaPlan fitted = planOrDie(buffers, deterministic(capacity));
      EXPECT_EQ(fitted.fits, capacity == optimum);
      EXPECT_TRUE(fitted.provedOptimal);
    }
  }
}

/// `n` random buffers over [0, span) time: lifetimes up to 200 long, sizes up to 1000.
std::vector<BufferLifetime> randomBuffers(int n, int64_t span, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<BufferLifetime> buffers;
  for (int i = 0; i < n; ++i) {
    const int64_t lower = static_cast<int64_t>(rng() % span);
    const int64_t length = 1 + static_cast<int64_t>(rng() % 200);
    buffers.push_back({i, lower, lower + length, 1 + static_cast<int64_t>(rng() % 1000)});
  }
  return buffers;
}

TEST(ArenaPlanner, LargeProblemsStayValid) {
  // One partition of 2,000 buffers: the search runs (deep recursion, long candidate lists)
  // until its node budget is spent.
  auto searched = randomBuffers(2000, 4000, 7);
  ArenaPlan plan = planOrDie(searched, deterministic(std::nullopt, 20000));
  EXPECT_GE(plan.poolSize, plan.lowerBound);
  EXPECT_LE(plan.searchNodes, 20000u);

  // A partition of more than 2,048 buffers is packed greedily only.
  auto greedy = randomBuffers(6000, 12000, 8);
  ArenaPlan big = planOrDie(greedy, deterministic(std::nullopt, 20000));
  EXPECT_EQ(big.searchNodes, 0u);
  EXPECT_GE(big.poolSize, big.lowerBound);
}

// ---- Input errors ----

TEST(ArenaPlanner, RejectsBadInput) {
  auto message = [](std::vector<BufferLifetime> buffers, ArenaPlanOptions options = {}) {
    auto plan = planArena(buffers, options);
    return plan ? std::string("(no error)") : plan.error().message;
  };
  EXPECT_NE(message({{4, 3, 3, 1}}).find("buffer 4: upper (3) must be greater than lower (3)"),
            std::string::npos);
  EXPECT_NE(message({{5, 0, 3, -1}}).find("buffer 5: negative size"), std::string::npos);
  ArenaPlanOptions negativeCapacity;
  negativeCapacity.capacity = -1;
  EXPECT_NE(message({}, negativeCapacity).find("capacity"), std::string::npos);
  ArenaPlanOptions badAlignment;
  badAlignment.alignment = 0;
  EXPECT_NE(message({}, badAlignment).find("alignment"), std::string::npos);
  ArenaPlanOptions badTime;
  badTime.timeLimitSeconds = -1;
  EXPECT_NE(message({}, badTime).find("time limit"), std::string::npos);
  const int64_t huge = int64_t(1) << 61;
  EXPECT_NE(message({{0, 0, 1, huge}, {1, 0, 1, huge}}).find("add up"), std::string::npos);
}

// ---- Validator ----

TEST(ArenaPlanValidator, CatchesOverlapsAndBadPlans) {
  std::vector<BufferLifetime> buffers = {{10, 0, 4, 4}, {11, 2, 6, 4}, {12, 4, 8, 4}};
  ArenaPlan plan;
  plan.offsets = {0, 4, 0}; // 10 and 12 touch in time only: fine
  plan.poolSize = 8;
  EXPECT_TRUE(validateArenaPlan(buffers, plan, 8));

  ArenaPlan overlap = plan;
  overlap.offsets = {0, 2, 0};
  overlap.poolSize = 6;
  Status st = validateArenaPlan(buffers, overlap, std::nullopt);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("buffer 10 [0, 4) and buffer 11 [2, 6) overlap"),
            std::string::npos)
      << st.error().message;

  ArenaPlan above = plan; // 11 sits below 10: the neighbour above is checked too
  above.offsets = {3, 0, 0};
  above.poolSize = 7;
  EXPECT_FALSE(validateArenaPlan(buffers, above, std::nullopt));

  EXPECT_FALSE(validateArenaPlan(buffers, plan, 7)); // beyond the capacity
  ArenaPlan wrongPool = plan;
  wrongPool.poolSize = 9;
  EXPECT_FALSE(validateArenaPlan(buffers, wrongPool, std::nullopt));
  ArenaPlan misaligned = plan;
  EXPECT_FALSE(validateArenaPlan(buffers, misaligned, std::nullopt, 8));
  ArenaPlan negative = plan;
  negative.offsets[2] = -4;
  EXPECT_FALSE(validateArenaPlan(buffers, negative, std::nullopt));
  ArenaPlan short_ = plan;
  short_.offsets.pop_back();
  EXPECT_FALSE(validateArenaPlan(buffers, short_, std::nullopt));
}

TEST(ArenaPlanValidator, ScalesToManyBuffers) {
  // 200,000 buffers in a staircase: an O(n^2) validator would take minutes.
  std::vector<BufferLifetime> buffers;
  ArenaPlan plan;
  for (int64_t i = 0; i < 200000; ++i) {
    buffers.push_back({i, i, i + 64, 16});
    plan.offsets.push_back((i % 64) * 16);
  }
  plan.poolSize = 64 * 16;
  EXPECT_TRUE(validateArenaPlan(buffers, plan, 1024));
  plan.offsets[100000] = plan.offsets[100001];
  EXPECT_FALSE(validateArenaPlan(buffers, plan, 1024));
}

// ---- CSV reader and writer ----

/// The error of parsing `text`, as "line:col: message".
std::string csvError(std::string_view text) {
  auto problem = parseMiniMallocCsv(text, "in.csv");
  if (problem)
    return "(no error)";
  const Error &e = problem.error();
  EXPECT_EQ(e.loc.file, "in.csv");
  return std::to_string(e.loc.line) + ":" + std::to_string(e.loc.col) + ": " + e.message;
}

TEST(MiniMallocCsv, ReadsNamesCrlfAndBlankLines) {
  auto problem = parseMiniMallocCsv("id,lower,upper,size\r\nx,0,3,4\r\n\r\n y , 1 , 2 , 0 \n\n");
  ASSERT_TRUE(problem) << problem.error().str();
  ASSERT_EQ(problem->buffers.size(), 2u);
  EXPECT_EQ(problem->names, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(problem->buffers[1], (BufferLifetime{1, 1, 2, 0}));

  // Columns by name, in any order.
  auto reordered = parseMiniMallocCsv("size,id,upper,lower\n8,a,9,2\n");
  ASSERT_TRUE(reordered) << reordered.error().str();
  EXPECT_EQ(reordered->buffers[0], (BufferLifetime{0, 2, 9, 8}));

  auto headerOnly = parseMiniMallocCsv("id,lower,upper,size\n");
  ASSERT_TRUE(headerOnly);
  EXPECT_TRUE(headerOnly->buffers.empty());
}

TEST(MiniMallocCsv, ErrorsNameLineAndColumn) {
  EXPECT_EQ(csvError(""), "1:1: empty input: expected the header 'id,lower,upper,size'");
  EXPECT_EQ(csvError("0,0,3,4\n"),
            "1:1: missing header line: expected the header 'id,lower,upper,size'");
  EXPECT_EQ(csvError("id,lower,upper\n0,0,3\n"),
            "1:15: missing column 'size': expected the header 'id,lower,upper,size'");
  EXPECT_EQ(csvError("id,lower,upper,size,offset\n"),
            "1:21: column 'offset': this looks like a plan (solver output), not a problem; "
            "remove the offsets to plan it again");
  EXPECT_EQ(csvError("id,lower,start,size\n"),
            "1:10: unknown column 'start': expected the header 'id,lower,upper,size'");
  EXPECT_EQ(csvError("id,lower,upper,size,id\n"), "1:21: column 'id' appears twice");
  EXPECT_EQ(csvError("id,lower,upper,size\n0,0,3,4\n1,0,x3,4\n"),
            "3:5: 'x3' is not an integer (column 'upper')");
  EXPECT_EQ(csvError("id,lower,upper,size\n0,0,3,4.5\n"),
            "2:7: '4.5' is not an integer (column 'size')");
  EXPECT_EQ(csvError("id,lower,upper,size\n0,0,3\n"),
            "2:6: missing field 'size': expected 4 fields (id,lower,upper,size)");
  EXPECT_EQ(csvError("id,lower,upper,size\n0,0,3,4,7\n"),
            "2:9: extra field: expected 4 fields (id,lower,upper,size)");
  EXPECT_EQ(csvError("id,lower,upper,size\n0,0,3,4\n0,1,3,4\n"),
            "3:1: duplicate id '0' (first on line 2)");
  EXPECT_EQ(csvError("id,lower,upper,size\n0,5,5,4\n"),
            "2:5: upper (5) must be greater than lower (5)");
  EXPECT_EQ(csvError("id,lower,upper,size\n0,0,3,-4\n"), "2:7: negative size -4");
  EXPECT_EQ(csvError("id,lower,upper,size\n,0,3,4\n"), "2:1: empty field 'id'");
  EXPECT_EQ(csvError("id,lower,upper,size\n0,0,99999999999999999999,4\n"),
            "2:5: '99999999999999999999' is out of range for 'upper'");
}

TEST(MiniMallocCsv, WriterAppendsOffsetsInInputOrder) {
  auto problem = parseMiniMallocCsv(kExample);
  ASSERT_TRUE(problem);
  std::vector<int64_t> offsets = {8, 8, 4, 4, 0};
  EXPECT_EQ(printMiniMallocCsv(problem->buffers, offsets, problem->names),
            "id,lower,upper,size,offset\nb1,0,3,4,8\nb2,3,9,4,8\nb3,0,9,4,4\nb4,9,21,4,4\n"
            "b5,0,21,4,0\n");
  std::vector<BufferLifetime> numbered = {{3, 0, 1, 2}};
  std::vector<int64_t> zero = {0};
  EXPECT_EQ(printMiniMallocCsv(numbered, zero), "id,lower,upper,size,offset\n3,0,1,2,0\n");
}

// ---- Every problem of tests/data/minimalloc ----

/// "A.1048576.csv" -> 1048576.
int64_t capacityFromName(const std::string &name) {
  size_t dot = name.find('.');
  return std::stoll(name.substr(dot + 1, name.rfind('.') - dot - 1));
}

TEST(ArenaPlannerCorpus, EveryProblemFitsItsCapacity) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (const auto &entry : fs::directory_iterator(std::string(FXKIT_TEST_DATA) + "/minimalloc"))
    if (entry.path().extension() == ".csv")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  ASSERT_EQ(files.size(), 12u) << "tests/data/minimalloc should hold A..K and the example";

  for (const fs::path &file : files) {
    SCOPED_TRACE(file.filename().string());
    auto problem = readMiniMallocCsvFile(file.string());
    ASSERT_TRUE(problem) << problem.error().str();
    const int64_t capacity = capacityFromName(file.filename().string());
    // Every problem here fits; the largest needs about 155,000 nodes.
    ArenaPlan plan = planOrDie(problem->buffers, deterministic(capacity, 2000000));
    EXPECT_TRUE(validateArenaPlan(problem->buffers, plan, capacity));
    EXPECT_TRUE(plan.fits) << "pool " << plan.poolSize << ", lower bound " << plan.lowerBound;
    EXPECT_TRUE(plan.provedOptimal);
    EXPECT_LE(plan.lowerBound, capacity);
  }
}

} // namespace
