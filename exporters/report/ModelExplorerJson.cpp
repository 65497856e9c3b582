#include "exporters/report/ModelExplorerJson.h"

#include "exporters/report/JsonText.h"

namespace fxkit {
namespace {

void keyValue(std::string &out, bool &first, std::string_view key, std::string_view value) {
  out += first ? "" : ",";
  first = false;
  out += "{\"key\":";
  appendJsonString(out, key);
  out += ",\"value\":";
  appendJsonString(out, value);
  out += '}';
}

/// `layers.0.attn` -> `layers/0/attn`: Model Explorer nests layers at each `/`.
std::string namespaceOf(std::string_view module) {
  std::string out(module);
  for (char &c : out)
    if (c == '.')
      c = '/';
  return out;
}

} // namespace

std::string writeModelExplorerJson(const ViewerGraph &g, std::string_view label) {
  std::string out = "{\"label\":";
  appendJsonString(out, label);
  out += ",\"graphs\":[{\"id\":";
  appendJsonString(out, label);
  out += ",\"nodes\":[";
  for (uint32_t i = 0; i < g.size(); ++i) {
    out += i ? ",\n" : "\n";
    out += "{\"id\":";
    appendJsonString(out, g.name[i]);
    out += ",\"label\":";
    appendJsonString(out, g.op[i]);
    out += ",\"namespace\":";
    appendJsonString(out, namespaceOf(g.module[i]));
    out += ",\"attrs\":[";
    bool first = true;
    keyValue(out, first, "name", g.name[i]);
    keyValue(out, first, "op", g.op[i]);
    if (g.bytes[i] >= 0)
      keyValue(out, first, "bytes", std::to_string(g.bytes[i]));
    if (!g.module[i].empty())
      keyValue(out, first, "module", g.module[i]);
    if (!g.kernel[i].empty())
      keyValue(out, first, "fxkit_kernel", g.kernel[i]);
    if (!g.inductor[i].empty())
      keyValue(out, first, "inductor_kernel", g.inductor[i]);
    out += "],\"incomingEdges\":[";
    for (uint32_t e = g.edges.inStart[i]; e < g.edges.inStart[i + 1]; ++e) {
      out += e == g.edges.inStart[i] ? "" : ",";
      out += "{\"sourceNodeId\":";
      appendJsonString(out, g.name[g.edges.inputs[e]]);
      out += ",\"sourceNodeOutputId\":\"0\",\"targetNodeInputId\":\"" +
             std::to_string(e - g.edges.inStart[i]) + "\"}";
    }
    out += "],\"outputsMetadata\":[";
    if (!g.type[i].empty()) {
      out += "{\"id\":\"0\",\"attrs\":[";
      first = true;
      keyValue(out, first, "tensor_shape", g.type[i]);
      if (g.bytes[i] >= 0)
        keyValue(out, first, "bytes", std::to_string(g.bytes[i]));
      out += "]}";
    }
    out += "]}";
  }
  out += "\n]}]}\n";
  return out;
}

} // namespace fxkit
