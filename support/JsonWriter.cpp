#include "support/JsonWriter.h"

namespace fxkit {

void appendJsonString(std::string &out, std::string_view s, bool shortControlEscapes) {
  out += '"';
  for (char c : s) {
    const bool shortControl = shortControlEscapes && (c == '\b' || c == '\f');
    const char letter = c == '"' || c == '\\' ? c
                        : c == '\n'           ? 'n'
                        : c == '\r'           ? 'r'
                        : c == '\t'           ? 't'
                        : shortControl        ? (c == '\b' ? 'b' : 'f')
                                              : '\0';
    if (letter != '\0') {
      out += '\\';
      out += letter;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\u00";
      out += kHex[(c >> 4) & 0xf];
      out += kHex[c & 0xf];
    } else {
      out += c;
    }
  }
  out += '"';
}

JsonValue JsonValue::object(std::vector<std::pair<std::string, JsonValue>> members) {
  JsonValue v(Kind::Object);
  v.members_ = std::move(members);
  return v;
}

JsonValue &JsonValue::operator[](const std::string &key) {
  if (kind_ == Kind::Null)
    kind_ = Kind::Object;
  for (auto &member : members_)
    if (member.first == key)
      return member.second;
  members_.emplace_back(key, JsonValue());
  return members_.back().second;
}

void JsonValue::push_back(JsonValue v) {
  if (kind_ == Kind::Null)
    kind_ = Kind::Array;
  items_.push_back(std::move(v));
}

std::string JsonValue::dump(int indent) const {
  std::string out;
  write(out, indent, 0);
  return out;
}

void JsonValue::write(std::string &out, int indent, int depth) const {
  const bool pretty = indent >= 0;
  auto newline = [&](int level) {
    if (pretty) {
      out += '\n';
      out.append(static_cast<size_t>(indent) * static_cast<size_t>(level), ' ');
    }
  };
  switch (kind_) {
  case Kind::Null:
    out += "null";
    return;
  case Kind::Bool:
    out += bool_ ? "true" : "false";
    return;
  case Kind::Int:
    out += std::to_string(int_);
    return;
  case Kind::UInt:
    out += std::to_string(uint_);
    return;
  case Kind::String:
    appendJsonString(out, string_);
    return;
  case Kind::Array:
    if (items_.empty()) {
      out += "[]";
      return;
    }
    out += '[';
    for (size_t i = 0; i < items_.size(); ++i) {
      if (i)
        out += ',';
      newline(depth + 1);
      items_[i].write(out, indent, depth + 1);
    }
    newline(depth);
    out += ']';
    return;
  case Kind::Object:
    if (members_.empty()) {
      out += "{}";
      return;
    }
    out += '{';
    for (size_t i = 0; i < members_.size(); ++i) {
      if (i)
        out += ',';
      newline(depth + 1);
      appendJsonString(out, members_[i].first);
      out += pretty ? ": " : ":";
      members_[i].second.write(out, indent, depth + 1);
    }
    newline(depth);
    out += '}';
    return;
  }
}

} // namespace fxkit
