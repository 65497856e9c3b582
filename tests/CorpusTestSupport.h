#pragma once
/// \file Finding corpus files in tests: every FX graph under a part of tests/data/corpus, and
/// the files recorded beside a graph (its inputs, outputs, sidecar).

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace fxkit::testing {

/// Every `*.graph.txt` under tests/data/corpus/<sub> whose name starts with `prefix`, sorted.
inline std::vector<std::filesystem::path> corpusGraphs(const std::string &sub,
                                                       const std::string &prefix = "") {
  std::vector<std::filesystem::path> out;
  std::filesystem::path root = std::filesystem::path(FXKIT_TEST_DATA) / "corpus" / sub;
  for (const auto &e : std::filesystem::recursive_directory_iterator(root)) {
    std::string name = e.path().filename().string();
    if (e.is_regular_file() && name.ends_with(".graph.txt") && name.starts_with(prefix))
      out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// `X.graph.txt` -> `X.<suffix>` (e.g. ".inputs.safetensors").
inline std::filesystem::path sibling(const std::filesystem::path &graph,
                                     const std::string &suffix) {
  std::string name = graph.filename().string();
  return graph.parent_path() / (name.substr(0, name.size() - strlen(".graph.txt")) + suffix);
}

} // namespace fxkit::testing
