// support/JsonWriter.h: the documents `fxkit info --json` and `fxkit ops --json` print, byte
// for byte what nlohmann::ordered_json's dump printed before (compared where fxkit is built
// with nlohmann-json), and hand-written text in every build.
#include "support/JsonWriter.h"

#ifdef FXKIT_HAVE_JSON
#include <nlohmann/json.hpp>
#endif

#include <gtest/gtest.h>

#include <map>

namespace fxkit {
namespace {

TEST(JsonWriterTest, PrettyAndCompactText) {
  JsonValue j;
  j["graph"] = "a\"b\\c\n\t\x01";
  j["nodes"] = size_t{3};
  j["neg"] = int64_t{-7};
  j["kinds"] = std::map<std::string, size_t>{{"output", 1}, {"call_function", 2}};
  j["empty"] = JsonValue::array();
  j["none"] = JsonValue::object();
  JsonValue list = JsonValue::array();
  list.push_back(JsonValue::object({{"ok", true}, {"names", std::vector<std::string>{"x", "y"}}}));
  j["list"] = list;
  EXPECT_EQ(j.dump(2), R"({
  "graph": "a\"b\\c\n\t\u0001",
  "nodes": 3,
  "neg": -7,
  "kinds": {
    "call_function": 2,
    "output": 1
  },
  "empty": [],
  "none": {},
  "list": [
    {
      "ok": true,
      "names": [
        "x",
        "y"
      ]
    }
  ]
})");
  EXPECT_EQ(list.dump(), R"([{"ok":true,"names":["x","y"]}])");
  EXPECT_EQ(JsonValue().dump(), "null");
}

#ifdef FXKIT_HAVE_JSON
TEST(JsonWriterTest, SameTextAsNlohmann) {
  using nj = nlohmann::ordered_json;
  std::vector<std::string> names{"x", "", "é\x1f"};
  std::map<std::string, size_t> counts{{"b", 2}, {"a", 1}};
  JsonValue mine;
  nj theirs;
  mine["s"] = "q\"\\\b\f\r";
  theirs["s"] = "q\"\\\b\f\r";
  mine["counts"] = counts;
  theirs["counts"] = counts;
  mine["names"] = names;
  theirs["names"] = names;
  mine["no_names"] = std::vector<std::string>{};
  theirs["no_names"] = std::vector<std::string>{};
  mine["big"] = int64_t{-9007199254740993};
  theirs["big"] = int64_t{-9007199254740993};
  mine["items"] = JsonValue::array();
  theirs["items"] = nj::array();
  for (size_t i = 0; i < 2; ++i) {
    mine["items"].push_back(JsonValue::object({{"i", i}, {"odd", i % 2 == 1}}));
    theirs["items"].push_back({{"i", i}, {"odd", i % 2 == 1}});
  }
  EXPECT_EQ(mine.dump(2), theirs.dump(2));
  EXPECT_EQ(mine.dump(), theirs.dump());
}
#endif

} // namespace
} // namespace fxkit
