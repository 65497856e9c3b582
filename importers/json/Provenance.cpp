#include "importers/json/Provenance.h"

#include "importers/Import.h"
#include "importers/json/JsonSupport.h"
#include "ir/Try.h"

#include <algorithm>
#include <array>
#include <unordered_map>

namespace fxkit {
namespace {

using json::Json;
using json::Path;

/// The file's keys and the maps they fill.
struct KeySpec {
  std::string_view key;
  InductorProvenance::Map InductorProvenance::*map;
};
constexpr std::array<KeySpec, 4> kKeys = {{
    {"preToPost", &InductorProvenance::preToPost},
    {"postToPre", &InductorProvenance::postToPre},
    {"cppCodeToPost", &InductorProvenance::kernelToPost},
    {"postToCppCode", &InductorProvenance::postToKernel},
}};

class Reader {
public:
  Reader(std::string_view text, const std::string &file) : text_(text), file_(file) {}

  Error fail(std::string message, const Path &path) const {
    return json::errorAtPath(std::move(message), text_, path, file_);
  }

  /// `{name: [names]}` at `path` (the object's own key, for messages, is `what`).
  Status map(const Json &j, const std::string &what, Path path, InductorProvenance::Map &out) {
    if (!j.is_object())
      return fail(what + " must be an object of names to lists of names, not " + json::typeName(j),
                  path);
    out.reserve(j.size());
    for (auto it = j.begin(); it != j.end(); ++it) {
      const Json &list = it.value();
      path.push_back(it.key());
      if (!list.is_array())
        return fail(what + "[\"" + it.key() + "\"] must be a list of names, not " +
                        json::typeName(list),
                    path);
      std::vector<std::string> names;
      names.reserve(list.size());
      for (size_t i = 0; i < list.size(); ++i) {
        if (!list[i].is_string()) {
          path.push_back(i);
          return fail(what + "[\"" + it.key() + "\"][" + std::to_string(i) +
                          "] must be a name (a string), not " + json::typeName(list[i]),
                      path);
        }
        names.push_back(list[i].get<std::string>());
      }
      if (it.key().empty())
        return fail(what + " has an empty name as a key", path);
      out.emplace_back(it.key(), std::move(names));
      path.pop_back();
    }
    return Status::ok();
  }

  Expected<InductorProvenance> read() {
    FXKIT_ASSIGN_OR_RETURN(auto parsed, json::parseJson(text_, file_));
    const Json &root = parsed;
    if (!root.is_object())
      return fail("a provenance mapping must be a JSON object (preToPost, postToPre, "
                  "cppCodeToPost, postToCppCode), not " +
                      json::typeName(root),
                  {});
    InductorProvenance out;
    bool mappingFile = false;
    std::array<bool, kKeys.size()> present{};
    for (auto it = root.begin(); it != root.end(); ++it) {
      mappingFile = mappingFile || it.key() == "version";
      for (const KeySpec &k : kKeys)
        mappingFile = mappingFile || it.key() == k.key;
    }
    if (!mappingFile) {
      // The bare kernel map (inductor_generated_kernel_to_post_grad_nodes.json).
      FXKIT_TRY(map(root, "the kernel map", {}, out.kernelToPost));
    } else {
      for (auto it = root.begin(); it != root.end(); ++it) {
        const std::string &key = it.key();
        if (key == "version") {
          if (!it.value().is_number())
            return fail("'version' must be a number, not " + json::typeName(it.value()), {key});
          continue;
        }
        for (size_t k = 0; k < kKeys.size(); ++k)
          if (key == kKeys[k].key) {
            present[k] = true;
            FXKIT_TRY(map(it.value(), "'" + key + "'", {key}, out.*kKeys[k].map));
          }
      }
    }
    // PyTorch writes each map with its inverse; one written alone gets it derived.
    auto derive = [](const InductorProvenance::Map &from, InductorProvenance::Map &to) {
      std::unordered_map<std::string, size_t> at;
      for (const auto &[key, names] : from)
        for (const std::string &n : names) {
          auto [it, fresh] = at.emplace(n, to.size());
          if (fresh)
            to.push_back({n, {}});
          std::vector<std::string> &back = to[it->second].second;
          if (std::find(back.begin(), back.end(), key) == back.end())
            back.push_back(key);
        }
    };
    if (!present[0] && present[1])
      derive(out.postToPre, out.preToPost);
    if (!present[1] && present[0])
      derive(out.preToPost, out.postToPre);
    if (!present[3])
      derive(out.kernelToPost, out.postToKernel);
    return out;
  }

private:
  std::string_view text_;
  const std::string &file_;
};

} // namespace

Expected<InductorProvenance> parseInductorProvenance(std::string_view text,
                                                     const std::string &fileName) {
  return Reader(text, fileName).read();
}

Expected<ProvenanceAttachResult> attachInductorProvenanceFile(Graph &graph, const std::string &path,
                                                              bool explicitly) {
  FXKIT_ASSIGN_OR_RETURN(auto text, readTextFile(path));
  FXKIT_ASSIGN_OR_RETURN(auto mapping, parseInductorProvenance(text, path));
  auto result = std::make_shared<ProvenanceAttachResult>(attachInductorProvenance(graph, mapping));
  result->file = path;
  if (explicitly && result->annotated == 0 && !mapping.empty())
    return Error("the provenance mapping " + path +
                 " names none of the graph's nodes (it maps the kernel calls of an Inductor "
                 "wrapper, the post-grad graph Inductor lowered, or the pre-grad graph Dynamo "
                 "captured, of the same compile)");
  graph.attachments[std::string(kInductorProvenanceAttachment)] = result;
  return *result;
}

} // namespace fxkit
