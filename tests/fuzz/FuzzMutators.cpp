#include "tests/fuzz/FuzzMutators.h"

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#ifdef FXKIT_HAVE_JSON
#include <nlohmann/json.hpp>
#endif

namespace fxkit::fuzz {
namespace {

using Rng = std::mt19937;

size_t pick(Rng &rng, size_t n) {
  return n == 0 ? 0 : std::uniform_int_distribution<size_t>(0, n - 1)(rng);
}

/// Tokens that sit at the edges of what readers handle: integer and float limits, empty and
/// unbalanced syntax, a long name. Shared by the text and JSON mutators.
const std::vector<std::string> &extremeTokens() {
  static const std::vector<std::string> tokens = {"0",
                                                  "-1",
                                                  "1",
                                                  "2147483648",
                                                  "4294967296",
                                                  "9007199254740993",
                                                  "9223372036854775807",
                                                  "-9223372036854775808",
                                                  "18446744073709551616",
                                                  "1e309",
                                                  "-1e309",
                                                  "1e-320",
                                                  "nan",
                                                  "inf",
                                                  "-0.0",
                                                  "''",
                                                  "\"\"",
                                                  "(",
                                                  ")",
                                                  "[",
                                                  "]",
                                                  "{",
                                                  "}",
                                                  ",",
                                                  ":",
                                                  "None",
                                                  "True",
                                                  "s0",
                                                  "u0",
                                                  "torch.float64",
                                                  "torch.bool",
                                                  std::string(300, 'x')};
  return tokens;
}

/// Writes `bytes` into data (capacity maxSize), truncated to fit; returns the size written.
size_t store(const std::string &bytes, uint8_t *data, size_t maxSize) {
  size_t n = std::min(bytes.size(), maxSize);
  std::memcpy(data, bytes.data(), n);
  return n;
}

/// Runs libFuzzer's byte mutator over a copy of `text` (so a part of a larger input can be
/// mutated alone).
std::string byteMutated(const std::string &text, size_t maxSize,
                        size_t (*byteMutate)(uint8_t *, size_t, size_t)) {
  std::string buffer = text;
  buffer.resize(std::max(maxSize, text.size() + 1));
  size_t n = byteMutate(reinterpret_cast<uint8_t *>(buffer.data()), text.size(), buffer.size());
  buffer.resize(n);
  return buffer;
}

// ---- Text: lines of tokens ----

std::vector<std::string> splitLines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    end = end == std::string_view::npos ? text.size() : end + 1;
    lines.emplace_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

bool isWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

/// The [begin, end) spans of the tokens of `line`: runs of word characters, or one other
/// non-space character.
std::vector<std::pair<size_t, size_t>> tokenSpans(const std::string &line) {
  std::vector<std::pair<size_t, size_t>> spans;
  for (size_t i = 0; i < line.size();) {
    if (std::isspace(static_cast<unsigned char>(line[i]))) {
      ++i;
      continue;
    }
    size_t j = i + 1;
    if (isWordChar(line[i]))
      while (j < line.size() && isWordChar(line[j]))
        ++j;
    spans.emplace_back(i, j);
    i = j;
  }
  return spans;
}

/// A token of a random line of `lines`, or an extreme one.
std::string someToken(Rng &rng, const std::vector<std::string> &lines) {
  if (rng() % 3 == 0 || lines.empty())
    return extremeTokens()[pick(rng, extremeTokens().size())];
  const std::string &line = lines[pick(rng, lines.size())];
  auto spans = tokenSpans(line);
  if (spans.empty())
    return extremeTokens()[pick(rng, extremeTokens().size())];
  auto [b, e] = spans[pick(rng, spans.size())];
  return line.substr(b, e - b);
}

std::string mutateText(std::string_view input, size_t maxSize, Rng &rng,
                       size_t (*byteMutate)(uint8_t *, size_t, size_t)) {
  std::vector<std::string> lines = splitLines(input);
  if (lines.empty())
    return byteMutated(std::string(input), maxSize, byteMutate);
  size_t at = pick(rng, lines.size());
  switch (rng() % 8) {
  case 0: // a line again, elsewhere
    lines.insert(lines.begin() + pick(rng, lines.size() + 1), lines[at]);
    break;
  case 1: // a line less
    lines.erase(lines.begin() + at);
    break;
  case 2: // two lines swapped
    std::swap(lines[at], lines[pick(rng, lines.size())]);
    break;
  case 3:
  case 4: { // one token replaced by another of the input or an extreme one
    auto spans = tokenSpans(lines[at]);
    if (spans.empty())
      break;
    auto [b, e] = spans[pick(rng, spans.size())];
    lines[at].replace(b, e - b, someToken(rng, lines));
    break;
  }
  case 5: { // a block of lines repeated, up to the size limit: inputs of megabytes
    size_t length = 1 + pick(rng, std::min<size_t>(lines.size() - at, 64));
    std::string block;
    for (size_t i = at; i < at + length; ++i)
      block += lines[i];
    size_t times = 1 + pick(rng, 1 + maxSize / std::max<size_t>(block.size() * 4, 1));
    std::string repeated;
    for (size_t i = 0; i < times && repeated.size() + block.size() <= maxSize; ++i)
      repeated += block;
    lines.insert(lines.begin() + at + length, std::move(repeated));
    break;
  }
  case 6: { // indentation changed (Python blocks)
    if (rng() % 2)
      lines[at].insert(0, std::string(1 + pick(rng, 8), ' '));
    else
      lines[at].erase(0, lines[at].find_first_not_of(' ') == std::string::npos
                             ? 0
                             : std::min<size_t>(lines[at].find_first_not_of(' '), 4));
    break;
  }
  default: // one line mutated bytewise
    lines[at] = byteMutated(lines[at], lines[at].size() + 64, byteMutate);
    break;
  }
  std::string out;
  for (const std::string &l : lines)
    out += l;
  return out;
}

#ifdef FXKIT_HAVE_JSON
using Json = nlohmann::ordered_json;

/// Nesting depth of `text` as JSON, counted without parsing (brackets outside strings), so a
/// mutated input nested deeper than nlohmann's recursive parser can take is never parsed here.
size_t jsonDepth(std::string_view text) {
  size_t depth = 0, most = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      most = std::max(most, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return most;
}

/// Every value of the document, found without recursion.
std::vector<Json *> allValues(Json &root) {
  std::vector<Json *> values, stack = {&root};
  while (!stack.empty()) {
    Json *v = stack.back();
    stack.pop_back();
    values.push_back(v);
    if (v->is_structured())
      for (auto &child : *v)
        stack.push_back(&child);
  }
  return values;
}

Json extremeValue(Rng &rng) {
  switch (rng() % 10) {
  case 0:
    return Json(nullptr);
  case 1:
    return Json(rng() % 2 == 0);
  case 2:
    return Json(int64_t(1) << (rng() % 64));
  case 3:
    return Json(-(int64_t(1) << (rng() % 63)));
  case 4:
    return Json(uint64_t(-1));
  case 5:
    return Json(rng() % 2 ? 1e308 : -4.9e-324);
  case 6:
    return Json::array();
  case 7:
    return Json::object();
  case 8:
    return Json(std::string(pick(rng, 2000), 'a' + char(rng() % 26)));
  default:
    return Json(extremeTokens()[pick(rng, extremeTokens().size())]);
  }
}

void mutateJsonValue(Json &root, Rng &rng) {
  std::vector<Json *> values = allValues(root);
  Json &v = *values[pick(rng, values.size())];
  Json &other = *values[pick(rng, values.size())];
  switch (rng() % 8) {
  case 0:
    v = extremeValue(rng);
    break;
  case 1: { // a copy of another place (names that cross-reference, types of other nodes)
    Json copy = other;
    v = std::move(copy);
    break;
  }
  case 2: // nested one level deeper
    v = rng() % 2 ? Json::array({v}) : Json::object({{"value", v}});
    break;
  case 3:
    if (v.is_array() && !v.empty()) {
      size_t i = pick(rng, v.size());
      if (rng() % 2)
        v.erase(v.begin() + i);
      else
        for (size_t k = 0, times = 1 + pick(rng, 64); k < times; ++k)
          v.push_back(v[i]);
    } else if (v.is_object() && !v.empty()) {
      auto it = v.begin();
      std::advance(it, pick(rng, v.size()));
      v.erase(it);
    }
    break;
  case 4:
    if (v.is_number_integer()) // wrapping: INT64_MAX + 1 must not be signed overflow
      v = static_cast<int64_t>(v.get<uint64_t>() + (rng() % 2 ? 1u : ~uint64_t{0}));
    else if (v.is_number_float())
      v = -v.get<double>() * 2;
    else
      v = extremeValue(rng);
    break;
  case 5:
    if (v.is_string() && other.is_string())
      v = other.get<std::string>() + (rng() % 2 ? "" : "_");
    break;
  case 6:
    if (v.is_object() && other.is_object() && !other.empty()) { // a key of another object
      auto it = other.begin();
      std::advance(it, pick(rng, other.size()));
      Json value = it.value();
      v[it.key()] = std::move(value);
    }
    break;
  default:
    if (v.is_array() && v.size() > 1)
      std::swap(v[0], v[v.size() - 1]);
    break;
  }
}

/// The JSON text mutated as JSON, or empty when it does not parse (or nests too deep to parse
/// safely here).
std::string mutatedJsonText(std::string_view text, Rng &rng) {
  if (jsonDepth(text) > 256)
    return {};
  Json doc = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded())
    return {};
  for (unsigned i = 0, n = 1 + rng() % 3; i < n; ++i)
    mutateJsonValue(doc, rng);
  return doc.dump(rng() % 4 == 0 ? 1 : -1, ' ', false, Json::error_handler_t::replace);
}
#endif

std::string mutateJson(std::string_view input, size_t maxSize, Rng &rng,
                       size_t (*byteMutate)(uint8_t *, size_t, size_t)) {
#ifdef FXKIT_HAVE_JSON
  if (std::string out = mutatedJsonText(input, rng); !out.empty())
    return out;
#endif
  return byteMutated(std::string(input), maxSize, byteMutate);
}

std::string mutateSafetensors(std::string_view input, size_t maxSize, Rng &rng,
                              size_t (*byteMutate)(uint8_t *, size_t, size_t)) {
  uint64_t headerSize = 0;
  if (input.size() < 8)
    return byteMutated(std::string(input), maxSize, byteMutate);
  for (int i = 7; i >= 0; --i)
    headerSize = headerSize << 8 | static_cast<uint8_t>(input[i]);
  if (headerSize > input.size() - 8)
    return byteMutated(std::string(input), maxSize, byteMutate);
  std::string header(input.substr(8, headerSize));
  std::string data(input.substr(8 + headerSize));
  switch (rng() % 4) {
  case 0: // the data cut or grown
    data.resize(rng() % 2 ? pick(rng, data.size() + 1) : data.size() + pick(rng, 4096));
    break;
  case 1:
    data = byteMutated(data, data.size() + 64, byteMutate);
    break;
  default:
    header = mutateJson(header, maxSize, rng, byteMutate);
    break;
  }
  std::string out(8, '\0');
  uint64_t n = header.size();
  for (int i = 0; i < 8; ++i)
    out[i] = static_cast<char>(n >> (8 * i));
  return out + header + data;
}

} // namespace

InputShape inputShapeOf(std::string_view name) {
  if (name == "json" || name == "provenance" || name == "pt2")
    return InputShape::Json;
  if (name == "safetensors")
    return InputShape::Safetensors;
  if (name == "nodes-json")
    return InputShape::TextNulJson;
  return InputShape::Text;
}

size_t mutateStructured(InputShape shape, uint8_t *data, size_t size, size_t maxSize, unsigned seed,
                        size_t (*byteMutate)(uint8_t *, size_t, size_t)) {
  Rng rng(seed);
  if (rng() % 2 == 0 || size == 0)
    return byteMutate(data, size, maxSize);
  std::string_view input(reinterpret_cast<const char *>(data), size);
  std::string out;
  switch (shape) {
  case InputShape::Text:
    out = mutateText(input, maxSize, rng, byteMutate);
    break;
  case InputShape::Json:
    // A .pt2 archive (a zip) is mutated bytewise; its model.json alone as JSON.
    out = input.substr(0, 2) == "PK" ? byteMutated(std::string(input), maxSize, byteMutate)
                                     : mutateJson(input, maxSize, rng, byteMutate);
    break;
  case InputShape::Safetensors:
    out = mutateSafetensors(input, maxSize, rng, byteMutate);
    break;
  case InputShape::TextNulJson: {
    size_t nul = input.find('\0');
    if (nul == std::string_view::npos) {
      out = mutateText(input, maxSize, rng, byteMutate);
      break;
    }
    std::string graph(input.substr(0, nul)), sidecar(input.substr(nul + 1));
    if (rng() % 2)
      graph = mutateText(graph, maxSize, rng, byteMutate);
    else
      sidecar = mutateJson(sidecar, maxSize, rng, byteMutate);
    out = graph + '\0' + sidecar;
    break;
  }
  }
  return store(out, data, maxSize);
}

} // namespace fxkit::fuzz
