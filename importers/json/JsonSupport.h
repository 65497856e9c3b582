#pragma once
/// \file Internal helpers shared by fxkit's JSON readers: parsing without exceptions, error
/// locations (file:line:col and the offending line) and the tensor-value encoding that both
/// the fxkit format and the corpus's nodes.json sidecars use.

#include "ir/Error.h"
#include "ir/Node.h"
#include "ir/TensorType.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit::json {

/// Object keys keep their order: kwargs and dict arguments are ordered in the IR.
using Json = nlohmann::ordered_json;

/// One step of a path into a JSON document: an object key or an array index. Keys are views
/// (of literals or of the parsed document): paths live only while an error is built.
struct PathStep {
  PathStep(std::string_view k) : key(k), isKey(true) {}   // NOLINT: implicit by design
  PathStep(const char *k) : key(k), isKey(true) {}        // NOLINT
  PathStep(const std::string &k) : key(k), isKey(true) {} // NOLINT
  PathStep(size_t i) : index(i) {}                        // NOLINT
  std::string_view key;
  size_t index = 0;
  bool isKey = false;
};
using Path = std::vector<PathStep>;

/// Location of the byte at `offset` in `text` (1-based line and column) with its line.
Error errorAt(std::string message, std::string_view text, size_t offset,
              const std::string &fileName);

/// Default of maxJsonDepth(). Every document fxkit writes nests far less (a graph at the
/// deepest submodule nesting fxkit reads, 256 levels, with arguments at their deepest, 200
/// levels, stays under 1000), while a DOM this deep is still safe for nlohmann's recursive
/// copies, comparisons and dump() on any thread's stack.
inline constexpr size_t kDefaultMaxJsonDepth = 1000;

/// Deepest nesting of arrays and objects that fxkit's JSON readers accept: the environment
/// variable FXKIT_JSON_MAX_DEPTH (a positive integer) where set, else kDefaultMaxJsonDepth.
/// Read once per process.
size_t maxJsonDepth();

/// Refuses `text` when its arrays and objects nest deeper than `maxDepth`, with an error at the
/// bracket that goes one level too deep (file:line:col). A linear scan without recursion that
/// skips strings (escapes included) and checks nothing else: it runs before any parse, because
/// nlohmann's DOM is recursive to copy, compare, print and check, and ~50k levels exhaust the
/// stack. Every JSON input fxkit reads (fxkit JSON, nodes.json, safetensors headers, pt2
/// archives, provenance maps, meta.json) goes through here, mostly via parseJson.
Status checkJsonDepth(std::string_view text, const std::string &fileName,
                      size_t maxDepth = maxJsonDepth());

/// Parses `text`; a syntax error (empty and truncated input included) carries file:line:col,
/// and so does nesting deeper than maxJsonDepth() (checkJsonDepth, before the parse).
Expected<Json> parseJson(std::string_view text, const std::string &fileName);

/// nlohmann's exception text without its "[json.exception...] parse error at ...: " prefix
/// (fxkit reports the location itself).
std::string shortMessage(const std::string &what);

/// Byte offset of the value at `path` in `text` (already known to be valid JSON); when the
/// path leads nowhere, the offset of the deepest value found along it.
size_t locate(std::string_view text, const Path &path);

/// An error located at the value `path` leads to.
Error errorAtPath(std::string message, std::string_view text, const Path &path,
                  const std::string &fileName);

/// Decodes {"dtype", "shape", "stride", "device"}; on failure returns the message and sets
/// `where` to the key (and index) of the offending field, relative to `j`.
Expected<TensorType> tensorFromJson(const Json &j, Path &where);

/// Decodes a node's value as both the fxkit format and nodes.json write it (the sidecar
/// writes str() of every non-tensor): null; a tensor object; an array of tensors and nulls;
/// a string holding a SymInt/SymFloat/SymBool (`"s0"`, `"u0 >= 0"`, `"0.5"`, `"True"`); an
/// array mixing them, nested. On failure `where` leads to the offending
/// item, relative to `j`.
Expected<NodeValue> nodeValueFromJson(const Json &j, Path &where);

/// JSON type name for messages ("string", "array", ...).
std::string typeName(const Json &j);

} // namespace fxkit::json
