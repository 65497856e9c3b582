// Every input a fuzzer once broke an importer (or the REPL) with, fed again to the same entry
// point (tests/fuzz/FuzzTargets.cpp): each must now return, with a clean error or a graph that
// verifies. The inputs are tests/data/fuzz-regressions/<target>/ (minimised by libFuzzer); the
// expected file counts keep the test from passing on a missing or emptied folder.
#include "tests/fuzz/FuzzTargets.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

using namespace fxkit;
namespace fs = std::filesystem;

namespace {

/// Regression inputs per target: update when a fuzzer finding is fixed and its input added.
const std::map<std::string_view, size_t> kExpectedFiles = {
    {"fx-text", 0},      {"fxpy", 2},        {"json", 0},
    {"nodes-json", 0},   {"safetensors", 0}, {"inductor-py", 0},
    {"inductor-cpp", 1}, {"inductor-ir", 1}, {"minimalloc-csv", 0},
    {"repl", 1},         {"provenance", 0},
#ifdef FXKIT_HAVE_PT2
    {"pt2", 0},
#endif
};

std::vector<fs::path> regressionInputs(std::string_view target) {
  fs::path dir = fs::path(FXKIT_TEST_DATA) / "fuzz-regressions" / target;
  std::vector<fs::path> files;
  if (fs::is_directory(dir))
    for (const auto &e : fs::directory_iterator(dir))
      if (e.is_regular_file())
        files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string readBytes(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(FuzzRegression, EveryFormatHasATarget) {
  for (const auto &entry : kExpectedFiles) {
    const std::string_view name = entry.first; // clang 15 cannot capture a structured binding
    auto it = std::find_if(fuzz::fuzzTargets().begin(), fuzz::fuzzTargets().end(),
                           [&](const fuzz::FuzzTarget &t) { return t.name == name; });
    EXPECT_NE(it, fuzz::fuzzTargets().end()) << name;
  }
  EXPECT_EQ(fuzz::fuzzTargets().size(), kExpectedFiles.size());
}

TEST(FuzzRegression, FoundInputsNowReturn) {
  size_t total = 0;
  for (const fuzz::FuzzTarget &target : fuzz::fuzzTargets()) {
    auto files = regressionInputs(target.name);
    auto expected = kExpectedFiles.find(target.name);
    ASSERT_NE(expected, kExpectedFiles.end()) << target.name;
    EXPECT_EQ(files.size(), expected->second) << "tests/data/fuzz-regressions/" << target.name;
    for (const fs::path &file : files) {
      SCOPED_TRACE(file.string());
      std::string bytes = readBytes(file);
      ASSERT_FALSE(bytes.empty()) << file;
      target.run(bytes); // aborts (and so fails the test) where the bug is back
      ++total;
    }
  }
  size_t expectedTotal = 0;
  for (const auto &[name, count] : kExpectedFiles)
    expectedTotal += count;
  EXPECT_EQ(total, expectedTotal);
}

} // namespace
