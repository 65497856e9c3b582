#include "exporters/FxTextPrinter.h"
#include "importers/FxTextParser.h"
#include "ir/Verifier.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace fxkit;
namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path corpusDir() { return fs::path(FXKIT_TEST_DATA) / "corpus"; }

bool endsWith(const std::string &s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

TEST(CorpusFxText, EveryGraphRoundTripsByteForByte) {
  size_t files = 0, nodes = 0;
  for (const auto &entry : fs::recursive_directory_iterator(corpusDir())) {
    std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || !endsWith(name, ".graph.txt"))
      continue;
    ++files;
    std::string text = readFile(entry.path());
    auto g = parseFxText(text, entry.path().string());
    ASSERT_TRUE(g) << g.error().str();
    Status st = verifyGraph(*g);
    EXPECT_TRUE(st) << entry.path() << ": " << (st ? "" : st.error().str());
    EXPECT_EQ(printFxText(*g), text) << entry.path();
    nodes += g->size();
  }
  EXPECT_GE(files, 77u);
  EXPECT_GT(nodes, 1000u);
}

/// Inductor's output code quotes the FX nodes of each kernel as comments
/// (`#   %add : Tensor "f32[..][..]cuda:0"[num_users=1] = call_function[...]`). Each one must
/// parse as a fragment, with its annotation read into the node's TensorType exactly.
TEST(CorpusFxText, OutputCodeNodeCommentsParse) {
  size_t files = 0, lines = 0, typed = 0;
  for (const auto &entry : fs::recursive_directory_iterator(corpusDir())) {
    std::string name = entry.path().filename().string();
    bool isOutputCode = name.starts_with("output_code") && endsWith(name, ".py");
    if (!entry.is_regular_file() || !isOutputCode)
      continue;
    ++files;
    std::istringstream in(readFile(entry.path()));
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
      ++lineNo;
      if (!line.starts_with("#   %"))
        continue;
      ++lines;
      std::string body = "    " + line.substr(4);
      FxTextParseOptions opts;
      opts.partial = true;
      std::string where = entry.path().string() + ":" + std::to_string(lineNo);
      auto g = parseFxText(body, where, opts);
      ASSERT_TRUE(g) << g.error().str();
      Node *n = g->back();
      ASSERT_TRUE(n);
      EXPECT_EQ("%" + n->name(), body.substr(4, n->name().size() + 1)) << where;
      size_t q = line.find(" : Tensor \"");
      if (q == std::string::npos) {
        EXPECT_TRUE(n->value().empty()) << where;
        continue;
      }
      ++typed;
      size_t start = q + 11;
      std::string annotation = line.substr(start, line.find('"', start) - start);
      const TensorType *t = n->value().tensor();
      ASSERT_TRUE(t) << where;
      EXPECT_EQ(t->str(), annotation) << where;
      auto direct = TensorType::parse(annotation);
      ASSERT_TRUE(direct) << where;
      EXPECT_EQ(*direct, *t) << where;
      // The typed printer reproduces the header up to num_users (which counts only the
      // users inside this one-line fragment).
      std::string printed = printFxText(*g, FxTextOptions{true});
      std::string header = line.substr(4, line.find('"', start) + 1 - 4);
      EXPECT_NE(printed.find(header), std::string::npos) << where << "\n" << printed;
    }
  }
  EXPECT_GE(files, 10u);
  EXPECT_GE(lines, 600u);
  EXPECT_GE(typed, 600u);
}

} // namespace
