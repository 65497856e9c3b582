// Mutated corpus files never crash an importer: each either parses (and then verifies) or
// returns one error with a location. Deterministic (fixed seeds), so a failure reproduces; the
// sanitizer stage of CI runs it too. Fuzzing at scale lives in the reliability issue.
#include "importers/Import.h"
#include "ir/Verifier.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>

using namespace fxkit;
namespace fs = std::filesystem;

namespace {

std::vector<std::pair<fs::path, GraphFormat>> corpusFiles() {
  std::vector<std::pair<fs::path, GraphFormat>> out;
  for (const auto &e : fs::recursive_directory_iterator(std::string(FXKIT_TEST_DATA) + "/corpus")) {
    std::string name = e.path().filename().string();
    if (name.ends_with(".graph.txt"))
      out.push_back({e.path(), GraphFormat::FxText});
    else if (name.ends_with(".readable.py") || name.starts_with("fx_graph_"))
      out.push_back({e.path(), GraphFormat::FxPy});
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// One of: truncate, flip a byte, delete a span, duplicate a line, insert a bracket.
std::string mutate(const std::string &text, std::mt19937_64 &rng) {
  std::string s = text;
  if (s.empty())
    return s;
  std::uniform_int_distribution<size_t> pos(0, s.size() - 1);
  switch (rng() % 5) {
  case 0:
    s.resize(pos(rng));
    break;
  case 1:
    s[pos(rng)] = static_cast<char>(rng() & 0xFF);
    break;
  case 2: {
    size_t a = pos(rng);
    s.erase(a, std::min<size_t>(rng() % 40, s.size() - a));
    break;
  }
  case 3: {
    size_t a = s.rfind('\n', pos(rng));
    a = a == std::string::npos ? 0 : a + 1;
    size_t b = s.find('\n', a);
    s.insert(a, s.substr(a, b == std::string::npos ? std::string::npos : b - a + 1));
    break;
  }
  default:
    s.insert(pos(rng), 1, "([{)]}\"'%,:="[rng() % 12]);
  }
  return s;
}

TEST(ImporterRobustness, MutatedCorpusFilesGiveErrorsNotCrashes) {
  auto files = corpusFiles();
  ASSERT_GE(files.size(), 130u);
  size_t parsed = 0, rejected = 0;
  std::mt19937_64 rng(20261122);
  for (const auto &[path, format] : files) {
    auto text = readTextFile(path.string());
    ASSERT_TRUE(text) << text.error().str();
    for (int i = 0; i < 12; ++i) {
      std::string m = mutate(*text, rng);
      auto g = importGraph(m, format, path.filename().string());
      if (g) {
        ++parsed;
        EXPECT_TRUE(verifyGraph(*g)) << path;
      } else {
        ++rejected;
        const Error &err = g.error();
        EXPECT_FALSE(err.message.empty());
        EXPECT_EQ(err.loc.file, path.filename().string()) << err.str();
      }
    }
  }
  EXPECT_GT(rejected, 0u);
  EXPECT_GT(parsed + rejected, 1500u);
}

} // namespace
