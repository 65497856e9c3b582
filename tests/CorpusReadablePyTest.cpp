// Every annotated-Python file of the corpus (print_readable(), fx_graph_readable.py,
// fx_graph_transformed.py) parses, verifies, and prints back with every code line identical
// (comment lines and blank lines are the documented losses). Where a graph.txt sits beside a
// readable.py, both describe the same graph.
#include "exporters/FxTextPrinter.h"
#include "exporters/ReadablePyPrinter.h"
#include "importers/FxTextParser.h"
#include "importers/Import.h"
#include "importers/ReadablePyParser.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

using namespace fxkit;
namespace fs = std::filesystem;

namespace {

/// The lines of text without comment-only and blank lines.
std::string codeLines(const std::string &text) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) {
    size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#')
      continue;
    out += line + "\n";
  }
  return out;
}

std::vector<fs::path> readableFiles() {
  std::vector<fs::path> out;
  for (const auto &e : fs::recursive_directory_iterator(std::string(FXKIT_TEST_DATA) + "/corpus")) {
    std::string name = e.path().filename().string();
    if (name.ends_with(".readable.py") || name == "fx_graph_readable.py" ||
        name == "fx_graph_transformed.py")
      out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(CorpusReadablePy, EveryFileRoundTripsItsCodeLines) {
  auto files = readableFiles();
  ASSERT_GE(files.size(), 70u);
  for (const fs::path &path : files) {
    auto text = readTextFile(path.string());
    ASSERT_TRUE(text) << text.error().str();
    auto g = parseReadablePy(*text, path.string());
    ASSERT_TRUE(g) << g.error().str();
    EXPECT_EQ(codeLines(printReadablePy(*g)), codeLines(*text)) << path;
  }
}

TEST(CorpusReadablePy, ReadableAndGraphTextDescribeTheSameGraph) {
  size_t pairs = 0;
  for (const fs::path &py : readableFiles()) {
    std::string name = py.filename().string();
    if (!name.ends_with(".readable.py"))
      continue;
    fs::path txt = py.parent_path() / (name.substr(0, name.size() - 12) + ".graph.txt");
    if (!fs::exists(txt))
      continue;
    auto a = parseReadablePy(*readTextFile(py.string()), py.string());
    auto b = parseFxText(*readTextFile(txt.string()), txt.string());
    ASSERT_TRUE(a) << a.error().str();
    ASSERT_TRUE(b) << b.error().str();
    // FX text carries Dynamo's Python types and no meta; the Python form the reverse. The
    // printed FX text without types must agree.
    for (Node *n : *b)
      n->setPythonType("");
    EXPECT_EQ(printFxText(*a), printFxText(*b)) << py;
    ++pairs;
  }
  EXPECT_GE(pairs, 25u);
}

} // namespace
