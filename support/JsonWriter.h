#pragma once
/// \file An ordered JSON document built in memory and printed, in every build (no
/// nlohmann-json): what `fxkit info --json` and `fxkit ops --json` print. Objects keep their
/// keys in insertion order; `dump(2)` prints exactly what nlohmann::ordered_json's `dump(2)`
/// prints for the same document (checked in JsonWriterTest), so the outputs did not change
/// when they moved here. Strings are written as given (UTF-8), with `"`, `\` and control
/// characters escaped.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fxkit {

class JsonValue {
public:
  JsonValue() = default; ///< null
  JsonValue(bool b) : kind_(Kind::Bool), bool_(b) {}
  JsonValue(int v) : JsonValue(static_cast<int64_t>(v)) {}
  JsonValue(long v) : kind_(Kind::Int), int_(v) {}
  JsonValue(long long v) : kind_(Kind::Int), int_(v) {}
  JsonValue(unsigned long v) : kind_(Kind::UInt), uint_(v) {}
  JsonValue(unsigned long long v) : kind_(Kind::UInt), uint_(v) {}
  JsonValue(std::string s) : kind_(Kind::String), string_(std::move(s)) {}
  JsonValue(std::string_view s) : JsonValue(std::string(s)) {}
  JsonValue(const char *s) : JsonValue(std::string(s)) {}
  /// An array of strings (or of anything a JsonValue is made from).
  template <class T> JsonValue(const std::vector<T> &items) : kind_(Kind::Array) {
    for (const T &item : items)
      items_.emplace_back(item);
  }
  /// An object, in the map's order.
  template <class T, class C>
  JsonValue(const std::map<std::string, T, C> &map) : kind_(Kind::Object) {
    for (const auto &entry : map)
      members_.emplace_back(entry.first, JsonValue(entry.second));
  }

  static JsonValue array() { return JsonValue(Kind::Array); }
  static JsonValue object() { return JsonValue(Kind::Object); }
  /// An object of the given members, in order.
  static JsonValue object(std::vector<std::pair<std::string, JsonValue>> members);

  /// The member `key` of an object (added, null, where absent); a null value becomes an object.
  JsonValue &operator[](const std::string &key);
  /// Appends to an array; a null value becomes an array.
  void push_back(JsonValue v);

  /// The text: compact without `indent`, else one member or element per line.
  std::string dump(int indent = -1) const;

private:
  enum class Kind { Null, Bool, Int, UInt, String, Array, Object };
  explicit JsonValue(Kind kind) : kind_(kind) {}
  void write(std::string &out, int indent, int depth) const;

  Kind kind_ = Kind::Null;
  bool bool_ = false;
  int64_t int_ = 0;
  uint64_t uint_ = 0;
  std::string string_;
  std::vector<JsonValue> items_;
  std::vector<std::pair<std::string, JsonValue>> members_;
};

/// Appends `s` as a JSON string, quotes included. `"`, `\`, newline, carriage return and tab
/// get their two-character escapes, and so do backspace and form feed where
/// `shortControlEscapes` (as nlohmann-json writes them; fxkit JSON files spell them \u0008 and
/// \u000c); other control characters are \u00XX. Bytes >= 0x80 pass through (UTF-8). The one
/// JSON string writer of JsonValue and the fxkit JSON exporter.
void appendJsonString(std::string &out, std::string_view s, bool shortControlEscapes = true);

} // namespace fxkit
