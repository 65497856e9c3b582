#include "exporters/json/SafetensorsWriter.h"
#include "importers/json/Safetensors.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace fxkit;
namespace fs = std::filesystem;

namespace {

std::string readBytes(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<fs::path> corpusFiles() {
  std::vector<fs::path> files;
  for (const auto &entry : fs::recursive_directory_iterator(FXKIT_TEST_DATA "/corpus"))
    if (entry.is_regular_file() && entry.path().extension() == ".safetensors")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

/// prefix followed by one or more decimal digits ("arg_0", "out_12"). Hand-written rather than
/// std::regex, whose GCC 12 headers warn under the sanitizer build.
bool isNumbered(std::string_view name, std::string_view prefix) {
  if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix)
    return false;
  return std::all_of(name.begin() + prefix.size(), name.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

/// A file from a header (padded to 8 bytes as the reference does) and data bytes.
std::string makeFile(std::string header, const std::string &data) {
  header.append((8 - header.size() % 8) % 8, ' ');
  std::string out;
  for (int i = 0; i < 8; ++i)
    out += static_cast<char>((header.size() >> (8 * i)) & 0xff);
  return out + header + data;
}

/// The error message of parsing bytes that must be rejected.
std::string parseError(const std::string &bytes) {
  Expected<SafetensorsFile> f = parseSafetensors(bytes, "bad.safetensors");
  if (f)
    return "<parsed without error>";
  EXPECT_EQ(f.error().loc.file, "bad.safetensors");
  // Errors in the JSON header carry its line and column (bad.safetensors:1:6: error: ...).
  EXPECT_EQ(f.error().str().rfind("bad.safetensors:", 0), 0u) << f.error().str();
  return f.error().message;
}

#define EXPECT_CONTAINS(text, part)                                                                \
  EXPECT_NE(std::string(text).find(part), std::string::npos) << "message: " << (text)

SafetensorsFile tinyFile() {
  SafetensorsFile f;
  std::vector<float> values = {1.0f, -2.0f};
  f.tensors.emplace_back("a",
                         *Tensor::fromBytes(DType::Float32, {2}, std::as_bytes(std::span(values))));
  Tensor b = *Tensor::zeros(DType::Bool, {});
  b.storeInt(0, 1);
  f.tensors.emplace_back("b", b);
  f.metadata["n"] = "3";
  return f;
}

} // namespace

TEST(Safetensors, CorpusReadsAndRoundTripsBitwise) {
  std::vector<fs::path> files = corpusFiles();
  ASSERT_GE(files.size(), 20u);
  fs::path tmp = fs::temp_directory_path() / ("fxkit_safetensors_" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  size_t tensors = 0;
  for (const fs::path &path : files) {
    SCOPED_TRACE(path.string());
    Expected<SafetensorsFile> f = readSafetensors(path.string());
    ASSERT_TRUE(f) << f.error().str();
    bool inputs = path.filename().string().find(".inputs.") != std::string::npos;
    std::string_view prefix = inputs ? "arg_" : "out_";
    EXPECT_FALSE(f->tensors.empty() && f->metadata.empty());
    for (const auto &[name, tensor] : f->tensors) {
      EXPECT_TRUE(isNumbered(name, prefix)) << name;
      EXPECT_TRUE(dtypeIsComputable(tensor.dtype())) << name;
      ++tensors;
    }
    // Tensors and metadata together number the graph's inputs (outputs) 0..n-1.
    std::vector<int64_t> numbers;
    auto number = [&](const std::string &name) {
      if (isNumbered(name, prefix))
        numbers.push_back(std::stoll(name.substr(prefix.size())));
    };
    for (const auto &[name, tensor] : f->tensors)
      number(name);
    for (const auto &[key, value] : f->metadata)
      number(key);
    std::sort(numbers.begin(), numbers.end());
    for (size_t i = 0; i < numbers.size(); ++i)
      EXPECT_EQ(numbers[i], static_cast<int64_t>(i));
    if (inputs) { // one per placeholder of the graph beside it
      std::string stem = path.filename().string();
      stem = stem.substr(0, stem.find(".inputs."));
      std::string graph = readBytes(path.parent_path() / (stem + ".graph.txt"));
      size_t placeholders = 0;
      for (size_t at = graph.find("= placeholder["); at != std::string::npos;
           at = graph.find("= placeholder[", at + 1))
        ++placeholders;
      EXPECT_EQ(numbers.size(), placeholders);
    }
    for (const auto &[key, value] : f->metadata) {
      EXPECT_TRUE(isNumbered(key, prefix)) << key;
      if (inputs) { // integer graph inputs (symbolic sizes)
        int64_t v = -1;
        auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
        EXPECT_TRUE(ec == std::errc() && end == value.data() + value.size() && v >= 0) << value;
      }
    }

    // Write back and re-read: same names, order, metadata and bits.
    fs::path out = tmp / path.filename();
    ASSERT_TRUE(writeSafetensors(out.string(), *f));
    Expected<SafetensorsFile> back = readSafetensors(out.string());
    ASSERT_TRUE(back) << back.error().str();
    EXPECT_EQ(back->metadata, f->metadata);
    ASSERT_EQ(back->tensors.size(), f->tensors.size());
    for (size_t i = 0; i < f->tensors.size(); ++i) {
      EXPECT_EQ(back->tensors[i].first, f->tensors[i].first);
      EXPECT_TRUE(back->tensors[i].second.bitwiseEqual(f->tensors[i].second))
          << f->tensors[i].first;
    }
    // The corpus was written by the reference implementation in placeholder order, so our
    // layout reproduces its files byte for byte.
    EXPECT_TRUE(readBytes(out) == readBytes(path));
  }
  fs::remove_all(tmp);
  EXPECT_GT(tensors, 20u);
}

TEST(Safetensors, CorpusIntegerInputsAreInMetadata) {
  Expected<SafetensorsFile> f = readSafetensors(
      FXKIT_TEST_DATA "/corpus/reference/dynamic_broadcast/fw_0.inputs.safetensors");
  ASSERT_TRUE(f) << f.error().str();
  EXPECT_EQ(f->metadata, (std::map<std::string, std::string>{
                             {"arg_0", "33"}, {"arg_1", "17"}, {"arg_3", "65"}}));
  ASSERT_EQ(f->tensors.size(), 2u);
  const Tensor *t = f->find("arg_2");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->sizes(), (std::vector<int64_t>{33, 17}));
  EXPECT_EQ(f->find("arg_0"), nullptr);
}

TEST(Safetensors, GoldenBytesOfATinyFile) {
  Expected<std::string> bytes = serializeSafetensors(tinyFile());
  ASSERT_TRUE(bytes) << bytes.error().str();
  std::string header = "{\"__metadata__\":{\"n\":\"3\"},"
                       "\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
                       "\"b\":{\"dtype\":\"BOOL\",\"shape\":[],\"data_offsets\":[8,9]}}    ";
  ASSERT_EQ(header.size(), 136u);
  std::string want("\x88\0\0\0\0\0\0\0", 8);
  want += header;
  want += std::string("\x00\x00\x80\x3f\x00\x00\x00\xc0\x01", 9); // 1.0f, -2.0f, true
  EXPECT_EQ(*bytes, want);
}

TEST(Safetensors, WritesViewsContiguouslyAndAtomically) {
  SafetensorsFile f;
  Tensor base = *Tensor::zeros(DType::Int64, {2, 3});
  for (int64_t i = 0; i < 6; ++i)
    base.storeInt(i, i);
  f.tensors.emplace_back("t", *base.asStrided({3, 2}, {1, 3}, 0)); // transpose
  fs::path path =
      fs::temp_directory_path() / ("fxkit_view_" + std::to_string(::getpid()) + ".safetensors");
  ASSERT_TRUE(writeSafetensors(path.string(), f));
  Expected<SafetensorsFile> back = readSafetensors(path.string());
  fs::remove(path);
  ASSERT_TRUE(back) << back.error().str();
  const Tensor &t = back->tensors[0].second;
  EXPECT_TRUE(t.isContiguous());
  std::vector<int64_t> want = {0, 3, 1, 4, 2, 5};
  for (int64_t i = 0; i < 6; ++i)
    EXPECT_EQ(t.loadInt(i), want[i]);

  Status st = writeSafetensors("/nonexistent-dir/x.safetensors", f);
  EXPECT_FALSE(st);
  EXPECT_FALSE(fs::exists("/nonexistent-dir/x.safetensors"));
}

TEST(Safetensors, WriterRejectsWhatTheFormatCannotHold) {
  SafetensorsFile dup = tinyFile();
  dup.tensors.push_back(dup.tensors[0]);
  Expected<std::string> a = serializeSafetensors(dup);
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().message, "safetensors: duplicate tensor name 'a'");
  SafetensorsFile reserved;
  reserved.tensors.emplace_back("__metadata__", *Tensor::zeros(DType::Float32, {1}));
  EXPECT_FALSE(serializeSafetensors(reserved));
  SafetensorsFile complex;
  complex.tensors.emplace_back("c", *Tensor::zeros(DType::Complex128, {1}));
  Expected<std::string> c = serializeSafetensors(complex);
  ASSERT_FALSE(c);
  EXPECT_CONTAINS(c.error().message, "tensor 'c' has dtype complex128");
  SafetensorsFile badName;
  badName.tensors.emplace_back("\xff", *Tensor::zeros(DType::Float32, {1}));
  Expected<std::string> n = serializeSafetensors(badName);
  ASSERT_FALSE(n);
  EXPECT_CONTAINS(n.error().message, "is not valid UTF-8");
  SafetensorsFile badMeta;
  badMeta.metadata["k"] = "\xc3";
  EXPECT_FALSE(serializeSafetensors(badMeta));
  Status st = writeSafetensors("out.safetensors", complex);
  ASSERT_FALSE(st);
  EXPECT_CONTAINS(st.error().message, "out.safetensors: ");
}

TEST(Safetensors, EveryDTypeCodeRoundTrips) {
  for (std::string_view code :
       {"F32", "F16", "BF16", "F64", "I64", "I32", "I16", "I8", "U8", "BOOL"}) {
    std::optional<DType> d = parseSafetensorsDType(code);
    ASSERT_TRUE(d) << code;
    EXPECT_EQ(safetensorsDTypeCode(*d), code);
    SafetensorsFile f;
    f.tensors.emplace_back("x", *Tensor::zeros(*d, {2, 3}));
    Expected<SafetensorsFile> back = parseSafetensors(*serializeSafetensors(f), "x");
    ASSERT_TRUE(back) << back.error().str();
    EXPECT_EQ(back->tensors[0].second.dtype(), *d);
    EXPECT_EQ(back->tensors[0].second.sizes(), (std::vector<int64_t>{2, 3}));
  }
  EXPECT_FALSE(parseSafetensorsDType("U16"));
  // No metadata and no tensors at all is a valid (empty) file.
  Expected<SafetensorsFile> empty = parseSafetensors(makeFile("{}", ""), "empty");
  ASSERT_TRUE(empty) << empty.error().str();
  EXPECT_TRUE(empty->tensors.empty());
}

TEST(Safetensors, RejectsTruncatedFiles) {
  std::string good = *serializeSafetensors(tinyFile());
  ASSERT_TRUE(parseSafetensors(good, "bad.safetensors"));
  EXPECT_CONTAINS(parseError(good.substr(0, 5)),
                  "truncated safetensors file: 5 bytes, too short for the 8-byte header length");
  EXPECT_CONTAINS(parseError(good.substr(0, good.size() - 1)),
                  "safetensors tensor 'b': data_offsets [8,9] go beyond the 8 data bytes "
                  "(file truncated?)");
  EXPECT_CONTAINS(parseError(good.substr(0, 40)), "header length 136 goes beyond the end of "
                                                  "the file (32 bytes follow the length)");
  EXPECT_CONTAINS(parseError(good + "xyz"), "data section has 12 bytes but the tensors cover 9");
}

TEST(Safetensors, DeepHeaderIsALocatedErrorNotACrash) {
  // Issue 19's reproducer: 100k nested arrays in the header exhausted the stack.
  std::string header =
      R"({"zz":)" + std::string(100000, '[') + std::string(100000, ']') + R"(,"yy":1})";
  Expected<SafetensorsFile> f = parseSafetensors(makeFile(header, ""), "deep.safetensors");
  ASSERT_FALSE(f);
  EXPECT_CONTAINS(f.error().message,
                  "safetensors header is not valid JSON: JSON nested deeper than 1000 levels");
  EXPECT_EQ(f.error().loc.file, "deep.safetensors");
  EXPECT_EQ(f.error().loc.line, 1);   // within the header
  EXPECT_EQ(f.error().loc.col, 1006); // the '[' at level 1001
  // Syntax errors are located in the header too.
  Expected<SafetensorsFile> g = parseSafetensors(makeFile("{\n \"a\": ]}", ""), "s.safetensors");
  ASSERT_FALSE(g);
  EXPECT_EQ(g.error().loc.line, 2);
  EXPECT_EQ(g.error().loc.col, 7);
}

TEST(Safetensors, RejectsBadHeaderLengthAndJson) {
  std::string huge("\xff\xff\xff\xff\xff\xff\xff\xff{}", 10);
  EXPECT_CONTAINS(parseError(huge), "header length 18446744073709551615 goes beyond the end");
  EXPECT_CONTAINS(parseError(makeFile("{\"a\":", "")), "safetensors header is not valid JSON");
  EXPECT_CONTAINS(parseError(makeFile("not json", "")), "safetensors header is not valid JSON");
  EXPECT_CONTAINS(parseError(makeFile("", "")), "safetensors header is not valid JSON");
  EXPECT_CONTAINS(parseError(makeFile("[1, 2]", "")),
                  "safetensors header is a JSON array, expected an object of tensors");
  EXPECT_CONTAINS(parseError(makeFile("{\"__metadata__\":[]}", "")),
                  "__metadata__ is not an object of strings");
  EXPECT_CONTAINS(parseError(makeFile("{\"__metadata__\":{\"arg_0\":33}}", "")),
                  "__metadata__ entry 'arg_0' is a JSON number, expected a string");
}

TEST(Safetensors, RejectsBadEntries) {
  auto entry = [](std::string dtype, std::string shape, std::string offsets) {
    return "{\"x\":{\"dtype\":\"" + dtype + "\",\"shape\":" + shape +
           ",\"data_offsets\":" + offsets + "}}";
  };
  std::string data(8, '\0');
  ASSERT_TRUE(parseSafetensors(makeFile(entry("F32", "[2]", "[0,8]"), data), "ok"));
  EXPECT_CONTAINS(parseError(makeFile(entry("Q8", "[2]", "[0,8]"), data)),
                  "safetensors tensor 'x': unknown or unsupported dtype 'Q8'");
  EXPECT_CONTAINS(parseError(makeFile(entry("F32", "[2]", "[0,16]"), data)),
                  "tensor 'x': data_offsets [0,16] go beyond the 8 data bytes");
  EXPECT_CONTAINS(parseError(makeFile(entry("F32", "[3]", "[0,8]"), data)),
                  "tensor 'x': data_offsets [0,8] hold 8 bytes but shape [3] of F32 needs 3 * 4");
  EXPECT_CONTAINS(parseError(makeFile(entry("F32", "[-2]", "[0,8]"), data)),
                  "tensor 'x': shape entry -2 is not a non-negative integer");
  EXPECT_CONTAINS(parseError(makeFile(entry("F32", "[2]", "[8,0]"), data)),
                  "tensor 'x': data_offsets [8,0] are not integers begin <= end");
  EXPECT_CONTAINS(parseError(makeFile(entry("F32", "[2]", "[0]"), data)),
                  "tensor 'x': 'data_offsets' is not an array [begin, end]");
  EXPECT_CONTAINS(
      parseError(makeFile(entry("F32", "[4294967296,4294967296,4294967296]", "[0,8]"), data)),
      "overflows the element count");
  EXPECT_CONTAINS(parseError(makeFile("{\"x\":{\"shape\":[],\"data_offsets\":[0,0]}}", "")),
                  "tensor 'x': missing string 'dtype'");
  EXPECT_CONTAINS(parseError(makeFile("{\"x\":3}", "")), "tensor 'x': entry is not an object");
}

TEST(Safetensors, RejectsOverlapsAndGaps) {
  std::string data(8, '\0');
  EXPECT_CONTAINS(parseError(makeFile("{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":"
                                      "[0,4]},\"b\":{\"dtype\":\"F32\",\"shape\":[1],"
                                      "\"data_offsets\":[2,6]}}",
                                      data)),
                  "safetensors tensors 'a' and 'b' overlap (bytes 2..4)");
  EXPECT_CONTAINS(parseError(makeFile("{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":"
                                      "[4,8]}}",
                                      data)),
                  "safetensors data bytes 0..4 before tensor 'a' belong to no tensor");
}

TEST(Safetensors, ReportsUnreadableFiles) {
  Expected<SafetensorsFile> f = readSafetensors("/nonexistent/x.safetensors");
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().loc.file, "/nonexistent/x.safetensors");
  EXPECT_CONTAINS(f.error().message, "cannot open");
}

TEST(Safetensors, CorruptedBytesNeverCrash) {
  // Every truncation and many single-byte corruptions of a valid file: each must parse or be
  // rejected with a message (run under FXKIT_SANITIZE to check memory safety too).
  std::string good = *serializeSafetensors(tinyFile());
  for (size_t n = 0; n < good.size(); ++n) {
    Expected<SafetensorsFile> f = parseSafetensors(good.substr(0, n), "cut");
    EXPECT_FALSE(f) << n;
  }
  size_t accepted = 0;
  for (size_t i = 0; i < good.size(); ++i)
    for (unsigned char c : {0x00, 0x01, 0x22, 0x30, 0x39, 0x5b, 0x7b, 0x80, 0xff}) {
      std::string bad = good;
      bad[i] = static_cast<char>(c);
      Expected<SafetensorsFile> f = parseSafetensors(bad, "flip");
      if (f)
        ++accepted;
      else
        EXPECT_FALSE(f.error().message.empty());
    }
  EXPECT_GT(accepted, 0u); // corrupting tensor data bytes keeps the file valid
}
