// The fuzzers' structure-aware mutators (tests/fuzz/FuzzMutators.h): they keep the framing
// they promise (JSON stays JSON, the safetensors length prefix stays right, the nodes-json NUL
// separator stays), grow text inputs to megabytes, stay within the size limit, and depend only
// on the seed.
#include "tests/fuzz/FuzzMutators.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#ifdef FXKIT_HAVE_JSON
#include <nlohmann/json.hpp>
#endif

using namespace fxkit::fuzz;

namespace {

/// libFuzzer's byte mutator stands in as "flip the first byte", so a test can tell which
/// mutator ran.
size_t flipFirstByte(uint8_t *data, size_t size, size_t maxSize) {
  if (size > 0)
    data[0] ^= 0x20;
  return size;
}

std::string mutate(InputShape shape, const std::string &input, size_t maxSize, unsigned seed) {
  std::vector<uint8_t> buffer(std::max(maxSize, input.size()));
  std::memcpy(buffer.data(), input.data(), input.size());
  size_t n = mutateStructured(shape, buffer.data(), input.size(), maxSize, seed, flipFirstByte);
  EXPECT_LE(n, maxSize);
  return std::string(reinterpret_cast<const char *>(buffer.data()), n);
}

const char *kGraph = R"(graph():
    %x : [num_users=1] = placeholder[target=x]
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x, 1), kwargs = {})
    %mul : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add, %x), kwargs = {})
    return (mul,)
)";

TEST(FuzzMutatorsTest, SameSeedSameMutation) {
  for (unsigned seed = 0; seed < 50; ++seed)
    EXPECT_EQ(mutate(InputShape::Text, kGraph, 1 << 16, seed),
              mutate(InputShape::Text, kGraph, 1 << 16, seed));
}

TEST(FuzzMutatorsTest, TextMutationsVaryAndGrowToTheLimit) {
  std::set<std::string> outputs;
  size_t largest = 0;
  const size_t limit = 4 << 20;
  for (unsigned seed = 0; seed < 2000; ++seed) {
    std::string out = mutate(InputShape::Text, kGraph, limit, seed);
    largest = std::max(largest, out.size());
    outputs.insert(out);
  }
  EXPECT_GT(outputs.size(), 300u);     // many different mutations (half are the stub's one)
  EXPECT_GT(largest, size_t(1) << 19); // repeated blocks reach the megabyte range
  EXPECT_LE(largest, limit);
}

#ifdef FXKIT_HAVE_JSON
TEST(FuzzMutatorsTest, JsonStaysJson) {
  std::string doc = R"({"format": "fxkit.graph", "version": 1, "nodes": [
    {"name": "x", "op": "placeholder", "value": {"dtype": "float32", "shape": [4, 8]}},
    {"name": "y", "op": "call_function", "target": "aten.relu.default", "args": [{"node": "x"}]}]})";
  int structured = 0;
  for (unsigned seed = 0; seed < 500; ++seed) {
    std::string out = mutate(InputShape::Json, doc, 1 << 20, seed);
    if (out.size() == doc.size() && out[0] == ('{' ^ 0x20) && out.substr(1) == doc.substr(1))
      continue; // the byte mutator ran
    ++structured;
    EXPECT_FALSE(nlohmann::json::parse(out, nullptr, false).is_discarded()) << out;
  }
  EXPECT_GT(structured, 150);
}

TEST(FuzzMutatorsTest, SafetensorsKeepsItsLengthPrefix) {
  std::string header = R"({"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}})";
  std::string file(8, '\0');
  for (int i = 0; i < 8; ++i)
    file[i] = static_cast<char>(uint64_t(header.size()) >> (8 * i));
  file += header + std::string(8, '\1');
  int structured = 0;
  for (unsigned seed = 0; seed < 500; ++seed) {
    std::string out = mutate(InputShape::Safetensors, file, 1 << 20, seed);
    if (out[0] != file[0] && out.substr(1) == file.substr(1))
      continue; // the byte mutator ran
    ++structured;
    ASSERT_GE(out.size(), 8u);
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i)
      n = n << 8 | static_cast<uint8_t>(out[i]);
    ASSERT_LE(n, out.size() - 8);
    EXPECT_FALSE(nlohmann::json::parse(out.substr(8, n), nullptr, false).is_discarded());
  }
  EXPECT_GT(structured, 150);
}

TEST(FuzzMutatorsTest, NodesJsonKeepsItsSeparator) {
  std::string input = std::string(kGraph) + '\0' + R"({"nodes": {"x": {"dtype": "f32"}}})";
  for (unsigned seed = 0; seed < 300; ++seed) {
    std::string out = mutate(InputShape::TextNulJson, input, 1 << 20, seed);
    if (out[0] != input[0])
      continue; // the byte mutator ran over the whole input
    EXPECT_NE(out.find('\0'), std::string::npos);
  }
}
#endif

TEST(FuzzMutatorsTest, ShapesOfTheTargets) {
  EXPECT_EQ(inputShapeOf("json"), InputShape::Json);
  EXPECT_EQ(inputShapeOf("pt2"), InputShape::Json);
  EXPECT_EQ(inputShapeOf("provenance"), InputShape::Json);
  EXPECT_EQ(inputShapeOf("safetensors"), InputShape::Safetensors);
  EXPECT_EQ(inputShapeOf("nodes-json"), InputShape::TextNulJson);
  EXPECT_EQ(inputShapeOf("fx-text"), InputShape::Text);
  EXPECT_EQ(inputShapeOf("repl"), InputShape::Text);
}

} // namespace
