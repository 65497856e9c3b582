#include "importers/json/JsonSupport.h"

#include "ir/Try.h"
#include "support/PyLexer.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <optional>
#include <unordered_map>
#include <utility>

namespace fxkit::json {

Error errorAt(std::string message, std::string_view text, size_t offset,
              const std::string &fileName) {
  offset = std::min(offset, text.size());
  int line = 1;
  size_t lineStart = 0;
  for (size_t i = 0; i < offset; ++i)
    if (text[i] == '\n') {
      ++line;
      lineStart = i + 1;
    }
  int col = static_cast<int>(offset - lineStart) + 1;
  return Error(std::move(message), SourceLoc{fileName, line, col},
               std::string(sourceLine(text, line)));
}

namespace {

/// Builds the DOM as nlohmann's own parser does (a duplicate key's later value replaces the
/// earlier one, in its place), but finds an object's keys through a hash index once it has more
/// than a few: ordered_json's operator[] searches linearly, so an object of n keys (a
/// safetensors header of 40,000 tensors, a provenance map of a large graph) parsed in O(n^2)
/// time (2.9 s at 40,000; the fuzzer's megabyte inputs timed out on it).
class DomBuilder : public nlohmann::json_sax<Json> {
public:
  bool null() override { return put(nullptr); }
  bool boolean(bool v) override { return put(v); }
  bool number_integer(number_integer_t v) override { return put(v); }
  bool number_unsigned(number_unsigned_t v) override { return put(v); }
  bool number_float(number_float_t v, const string_t &) override { return put(v); }
  bool string(string_t &v) override { return put(std::move(v)); }
  bool binary(binary_t &v) override { return put(Json::binary(std::move(v))); }
  bool start_object(std::size_t) override {
    stack_.push_back({place(Json::object()), {}});
    return true;
  }
  bool key(string_t &k) override {
    Frame &f = stack_.back();
    Json::object_t &object = f.value->get_ref<Json::object_t &>();
    Json::object_t::Container &entries = object; // the vector, without ordered_map's search
    if (f.index.empty() && entries.size() >= kIndexFrom)
      for (size_t i = 0; i < entries.size(); ++i)
        f.index.emplace(entries[i].first, i);
    std::optional<size_t> at;
    if (f.index.empty()) {
      for (size_t i = 0; i < entries.size() && !at; ++i)
        if (entries[i].first == k)
          at = i;
    } else if (auto it = f.index.find(k); it != f.index.end()) {
      at = it->second;
    }
    if (!at) {
      at = entries.size();
      if (!f.index.empty()) // else built whole once the object reaches kIndexFrom keys
        f.index.emplace(k, *at);
      entries.emplace_back(std::move(k), nullptr);
    }
    slot_ = &entries[*at].second;
    return true;
  }
  bool end_object() override {
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t) override {
    stack_.push_back({place(Json::array()), {}});
    return true;
  }
  bool end_array() override {
    stack_.pop_back();
    return true;
  }
  bool parse_error(std::size_t position, const std::string &,
                   const nlohmann::detail::exception &ex) override {
    failed = true;
    this->position = position;
    message = ex.what();
    return false;
  }

  Json root;
  bool failed = false;
  size_t position = 0;
  std::string message;

private:
  /// Objects up to this many keys are searched linearly (cheaper than hashing).
  static constexpr size_t kIndexFrom = 16;
  struct Frame {
    Json *value;
    std::unordered_map<std::string, size_t> index; ///< key -> entry, once the object is large
  };
  /// Stores `v` where the next value goes (the root, the end of the open array, or the slot of
  /// the last key) and returns it. Pointers into a container stay valid while a child is open:
  /// nothing is added to a container until its open child closes.
  Json *place(Json v) {
    if (stack_.empty()) {
      root = std::move(v);
      return &root;
    }
    Json &top = *stack_.back().value;
    if (top.is_array()) {
      Json::array_t &items = top.get_ref<Json::array_t &>();
      items.push_back(std::move(v));
      return &items.back();
    }
    *slot_ = std::move(v);
    return slot_;
  }
  template <class V> bool put(V &&v) {
    place(Json(std::forward<V>(v)));
    return true;
  }
  std::vector<Frame> stack_;
  Json *slot_ = nullptr;
};

size_t skipWs(std::string_view t, size_t p) {
  while (p < t.size() && (t[p] == ' ' || t[p] == '\n' || t[p] == '\r' || t[p] == '\t'))
    ++p;
  return p;
}

/// `p` at an opening quote; returns the position after the closing one.
size_t skipString(std::string_view t, size_t p) {
  for (++p; p < t.size(); ++p) {
    if (t[p] == '\\')
      ++p;
    else if (t[p] == '"')
      return p + 1;
  }
  return t.size();
}

/// Skips one value by counting brackets (no recursion: documents may nest deeply).
size_t skipValue(std::string_view t, size_t p) {
  if (p >= t.size())
    return p;
  if (t[p] == '"')
    return skipString(t, p);
  if (t[p] != '{' && t[p] != '[') {
    while (p < t.size() && t[p] != ',' && t[p] != '}' && t[p] != ']' && t[p] != ' ' &&
           t[p] != '\n' && t[p] != '\r' && t[p] != '\t')
      ++p;
    return p;
  }
  int depth = 0;
  while (p < t.size()) {
    char c = t[p];
    if (c == '"') {
      p = skipString(t, p);
      continue;
    }
    if (c == '{' || c == '[')
      ++depth;
    else if ((c == '}' || c == ']') && --depth == 0)
      return p + 1;
    ++p;
  }
  return p;
}

} // namespace

size_t maxJsonDepth() {
  static const size_t depth = [] {
    const char *v = std::getenv("FXKIT_JSON_MAX_DEPTH");
    size_t n = 0;
    if (v && *v) {
      std::string_view s(v);
      auto r = std::from_chars(s.data(), s.data() + s.size(), n);
      if (r.ec == std::errc() && r.ptr == s.data() + s.size() && n > 0)
        return n;
    }
    return kDefaultMaxJsonDepth;
  }();
  return depth;
}

Status checkJsonDepth(std::string_view text, const std::string &fileName, size_t maxDepth) {
  size_t depth = 0;
  const size_t n = text.size();
  for (size_t i = 0; i < n; ++i) {
    char c = text[i];
    if (c == '"') {
      // Skip the string: a backslash escapes the next byte (\" and \\ included); an
      // unterminated string ends the scan (the parser reports it).
      for (++i; i < n && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (c == '[' || c == '{') {
      if (++depth > maxDepth)
        return Status(errorAt("JSON nested deeper than " + std::to_string(maxDepth) +
                                  " levels (arrays and objects; the limit is set by "
                                  "FXKIT_JSON_MAX_DEPTH)",
                              text, i, fileName));
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return Status::ok();
}

Expected<Json> parseJson(std::string_view text, const std::string &fileName) {
  FXKIT_TRY(checkJsonDepth(text, fileName));
  DomBuilder finder;
  if (Json::sax_parse(text.begin(), text.end(), &finder) && !finder.failed)
    return std::move(finder.root);
  if (!finder.failed) // Not expected: sax_parse fails only through parse_error.
    return errorAt("invalid JSON", text, 0, fileName);
  // nlohmann counts characters read, so the offending one is the last read.
  size_t offset = finder.position > 0 ? finder.position - 1 : 0;
  std::string why = text.find_first_not_of(" \t\r\n") == std::string_view::npos
                        ? "empty input, expected a JSON document"
                        : "JSON syntax error: " + shortMessage(finder.message);
  return errorAt(std::move(why), text, offset, fileName);
}

std::string shortMessage(const std::string &what) {
  size_t colon = what.find(": ");
  return colon == std::string::npos ? what : what.substr(colon + 2);
}

size_t locate(std::string_view t, const Path &path) {
  size_t p = skipWs(t, 0);
  for (const PathStep &step : path) {
    size_t start = p;
    if (step.isKey) {
      if (p >= t.size() || t[p] != '{')
        return start;
      p = skipWs(t, p + 1);
      bool found = false;
      while (p < t.size() && t[p] == '"') {
        size_t end = skipString(t, p);
        // Keys are compared as spelled; the keys fxkit looks for need no escapes.
        bool match = end - p >= 2 && t.substr(p + 1, end - p - 2) == step.key;
        p = skipWs(t, end);
        if (p < t.size() && t[p] == ':')
          p = skipWs(t, p + 1);
        if (match) {
          found = true;
          break;
        }
        p = skipWs(t, skipValue(t, p));
        if (p < t.size() && t[p] == ',')
          p = skipWs(t, p + 1);
      }
      if (!found)
        return start;
    } else {
      size_t index = step.index;
      if (p >= t.size() || t[p] != '[')
        return start;
      p = skipWs(t, p + 1);
      for (size_t i = 0; i < index; ++i) {
        if (p >= t.size() || t[p] == ']')
          return start;
        p = skipWs(t, skipValue(t, p));
        if (p < t.size() && t[p] == ',')
          p = skipWs(t, p + 1);
      }
      if (p >= t.size() || t[p] == ']')
        return start;
    }
  }
  return p;
}

Error errorAtPath(std::string message, std::string_view text, const Path &path,
                  const std::string &fileName) {
  return errorAt(std::move(message), text, locate(text, path), fileName);
}

std::string typeName(const Json &j) {
  if (j.is_number_float())
    return "float";
  if (j.is_number_integer())
    return "integer";
  return j.type_name();
}

namespace {

Expected<std::vector<SymExpr>> symList(const Json &j, const char *field, Path &where) {
  where = {field};
  if (!j.is_array())
    return Error("'" + std::string(field) + "' must be an array, not " + typeName(j));
  std::vector<SymExpr> out;
  out.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    const Json &e = j[i];
    where = {field, i};
    if (e.is_number_integer() && !e.is_number_unsigned()) {
      out.push_back(SymExpr(e.get<int64_t>()));
      continue;
    }
    if (e.is_number_unsigned() && e.get<uint64_t>() <= uint64_t(INT64_MAX)) {
      out.push_back(SymExpr(static_cast<int64_t>(e.get<uint64_t>())));
      continue;
    }
    if (!e.is_string())
      return Error("'" + std::string(field) + "' entries must be strings (symbolic sizes), not " +
                   typeName(e));
    const std::string &s = e.get_ref<const std::string &>();
    auto expr = SymExpr::parse(s);
    if (!expr)
      return Error("bad symbolic expression '" + s + "' in '" + field +
                   "': " + expr.error().message);
    out.push_back(*expr);
  }
  return out;
}

} // namespace

Expected<TensorType> tensorFromJson(const Json &j, Path &where) {
  where.clear();
  if (!j.is_object())
    return Error("a tensor value must be an object, not " + typeName(j));
  TensorType t;
  bool seen[4] = {false, false, false, false};
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string &k = it.key();
    const Json &v = it.value();
    where = {k};
    if (k == "dtype") {
      seen[0] = true;
      if (!v.is_string())
        return Error("'dtype' must be a string, not " + typeName(v));
      auto d = parseDType(v.get_ref<const std::string &>());
      if (!d)
        return Error("unknown dtype '" + v.get<std::string>() + "'");
      t.dtype = *d;
    } else if (k == "shape" || k == "stride") {
      seen[k == "shape" ? 1 : 2] = true;
      FXKIT_ASSIGN_OR_RETURN(auto list, symList(v, k.c_str(), where));
      (k == "shape" ? t.sizes : t.strides) = std::move(list);
    } else if (k == "device") {
      seen[3] = true;
      if (!v.is_string())
        return Error("'device' must be a string, not " + typeName(v));
      auto d = Device::parse(v.get_ref<const std::string &>());
      if (!d)
        return Error(d.error().message);
      t.device = *d;
    } else {
      return Error("unknown tensor field '" + k + "' (expected dtype, shape, stride, device)");
    }
  }
  where.clear();
  static const char *names[2] = {"dtype", "shape"};
  for (int i = 0; i < 2; ++i)
    if (!seen[i])
      return Error("tensor value lacks '" + std::string(names[i]) + "'");
  // Strides and device may be unknown (FX's `f32[8, 128]` annotations).
  t.hasStrides = seen[2];
  t.hasDevice = seen[3];
  if (!t.hasStrides) // shape rules index strides: assume eager's contiguous layout
    t.strides = TensorType::contiguousStrides(t.sizes);
  if (t.hasStrides && t.sizes.size() != t.strides.size())
    return Error("tensor value has " + std::to_string(t.sizes.size()) + " sizes but " +
                 std::to_string(t.strides.size()) + " strides");
  return t;
}

namespace {

/// Lists nest as deep as Python's values do; a hostile document stops here.
constexpr int kMaxValueDepth = 64;

Expected<NodeValue> nodeValue(const Json &j, Path &where, int depth) {
  where.clear();
  NodeValue out;
  switch (j.type()) {
  case Json::value_t::null:
    return out;
  case Json::value_t::object: {
    FXKIT_ASSIGN_OR_RETURN(auto t, tensorFromJson(j, where));
    out.v = std::move(t);
    return out;
  }
  case Json::value_t::string: {
    const std::string &s = j.get_ref<const std::string &>();
    auto e = SymExpr::parse(s);
    if (!e)
      return Error("bad symbolic expression '" + s + "': " + e.error().message);
    out.v = *e;
    return out;
  }
  case Json::value_t::array:
    break;
  default:
    // Numbers are refused: both writers spell every scalar as a string (str() of the SymInt,
    // SymFloat, SymBool or Python number), so a bare number is a malformed file.
    return Error("'val' must be an object (tensor), an array (of values), a string (symbolic "
                 "scalar) or null, not " +
                 typeName(j));
  }
  if (depth >= kMaxValueDepth)
    return Error("values nested too deeply");
  bool tensorsOnly = std::all_of(
      j.begin(), j.end(), [](const Json &item) { return item.is_null() || item.is_object(); });
  if (tensorsOnly) {
    std::vector<std::optional<TensorType>> ts;
    ts.reserve(j.size());
    for (size_t i = 0; i < j.size(); ++i) {
      if (j[i].is_null()) {
        ts.emplace_back();
        continue;
      }
      auto t = tensorFromJson(j[i], where);
      if (!t) {
        where.insert(where.begin(), i);
        return t.takeError();
      }
      ts.emplace_back(t.take());
    }
    out.v = std::move(ts);
    return out;
  }
  std::vector<NodeValue> items;
  items.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    auto item = nodeValue(j[i], where, depth + 1);
    if (!item) {
      where.insert(where.begin(), i);
      return item.takeError();
    }
    items.push_back(item.take());
  }
  out.v = std::move(items);
  return out;
}

} // namespace

Expected<NodeValue> nodeValueFromJson(const Json &j, Path &where) { return nodeValue(j, where, 0); }

} // namespace fxkit::json
