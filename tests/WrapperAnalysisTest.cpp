/// `fxkit info` on Inductor wrapper code: kernels with their fused source ops, allocations,
/// frees, extern calls and the peak of the allocations simulated in call order. A hand-made
/// wrapper gives a pinned text; every wrapper file of the corpus is analysed and its numbers
/// agree with counts taken from the text and with an independent sweep over lifetimes.
#include "importers/inductor/WrapperAnalysis.h"

#include "importers/Import.h"
#include "importers/inductor/InductorWrapper.h"
#include "transforms/ArenaPlanner.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

using namespace fxkit;
namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Lines of `def call(...)` that are code (not comments), up to the end of the function.
std::vector<std::string> callCode(const std::string &text) {
  std::vector<std::string> out;
  size_t start = text.find("def call(");
  std::istringstream in(text.substr(start));
  std::string line;
  std::getline(in, line); // the def line
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != ' ')
      break;
    size_t first = line.find_first_not_of(' ');
    if (first == std::string::npos || line[first] == '#')
      continue;
    if (line.find("def ") != std::string::npos && first <= 4)
      break; // the next method of the Runner class
    out.push_back(line);
  }
  return out;
}

size_t countMatches(const std::vector<std::string> &lines, const std::regex &re) {
  size_t n = 0;
  for (const auto &l : lines)
    n += std::distance(std::sregex_iterator(l.begin(), l.end(), re), std::sregex_iterator());
  return n;
}

TEST(WrapperAnalysisGolden, SmallHandWrittenWrapper) {
  fs::path dir = fs::path(FXKIT_TEST_DATA) / "inductor-wrapper";
  auto g = importGraphFile((dir / "small_wrapper.py").string());
  ASSERT_TRUE(g) << g.error().str();
  auto a = analyzeInductorWrapper(*g);
  ASSERT_TRUE(a) << a.error().str();
  EXPECT_EQ(printWrapperAnalysis(*a), readFile(dir / "small_wrapper.info.txt"));
  EXPECT_EQ(a->peakBytes, 256);
  EXPECT_EQ(a->unknownSizes, 1u);
}

TEST(WrapperAnalysis, GraphsNotFromWrapperCodeAreRefused) {
  auto g = importGraph("graph():\n    %x : [num_users=1] = placeholder[target=x]\n    return x",
                       GraphFormat::FxText, "x.graph.txt");
  ASSERT_TRUE(g);
  EXPECT_FALSE(analyzeInductorWrapper(*g));
}

TEST(WrapperAnalysisCorpus, EveryWrapperFileIsAnalysed) {
  fs::path root = fs::path(FXKIT_TEST_DATA) / "corpus" / "inductor";
  std::vector<fs::path> files;
  for (const auto &e : fs::recursive_directory_iterator(root)) {
    std::string name = e.path().filename().string();
    if (e.is_regular_file() && name.ends_with(".py") &&
        (name.starts_with("output_code") || name.starts_with("cpu_output_code")))
      files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  // 10 output_code_0.py, 4 cpu_output_code_0.py, 20 debug/*/output_code.py.
  ASSERT_EQ(files.size(), 34u);
  const std::regex emptyStrided(R"(\bempty_strided_\w+\()");
  size_t peaksAboveZero = 0;
  for (const fs::path &f : files) {
    SCOPED_TRACE(f.string());
    auto g = importGraphFile(f.string(), GraphFormat::InductorPy);
    ASSERT_TRUE(g) << g.error().str();
    auto a = analyzeInductorWrapper(*g);
    ASSERT_TRUE(a) << a.error().str();
    std::string text = readFile(f);
    std::vector<std::string> code = callCode(text);
    // Kernels: one per async_compile definition, launched as often as the text says.
    const InductorWrapperInfo *info = inductorWrapperInfo(*g);
    ASSERT_EQ(a->kernels.size(), info->kernels.size());
    for (const auto &k : a->kernels) {
      std::regex launch("\\b" + k.name + "(\\.run)?\\(");
      EXPECT_EQ(k.launches, countMatches(code, launch)) << k.name;
      // GPU wrappers name the fused source nodes above each definition (CPU ones do not).
      if (text.find("# Topologically Sorted Source Nodes") != std::string::npos)
        EXPECT_FALSE(k.sourceNodes.empty()) << k.name << ": no fused source nodes";
    }
    // Allocations made by empty_strided_* are exactly the ones the text makes.
    size_t made = 0;
    int64_t largest = 0, total = 0;
    for (const auto &s : a->storages) {
      made += s.how == "torch.empty_strided" ? 1 : 0;
      largest = std::max(largest, s.bytes);
      total += s.bytes;
    }
    EXPECT_EQ(made, countMatches(code, emptyStrided));
    EXPECT_EQ(a->externs.size(), countMatches(code, std::regex(R"(\bextern_kernels\.\w+\()")) +
                                     countMatches(code, std::regex(R"(= torch\.ops\.)")));
    // The peak: at least the largest allocation, at most all of them, and equal to the live
    // bytes a sweep over [allocation, free) lifetimes finds (independent of the simulation).
    EXPECT_GE(a->peakBytes, largest);
    EXPECT_LE(a->peakBytes, total);
    std::vector<BufferLifetime> lifetimes;
    for (size_t i = 0; i < a->storages.size(); ++i) {
      const auto &s = a->storages[i];
      int64_t lower = static_cast<int64_t>(s.allocatedAt);
      int64_t upper =
          s.freedAt ? static_cast<int64_t>(*s.freedAt) : static_cast<int64_t>(a->statements);
      lifetimes.push_back({static_cast<int64_t>(i), lower, upper, s.bytes});
    }
    EXPECT_EQ(liveBytesLowerBound(lifetimes), a->peakBytes);
    peaksAboveZero += a->peakBytes > 0 ? 1 : 0;
  }
  EXPECT_EQ(peaksAboveZero, files.size());
}

} // namespace
