#include "importers/Import.h"

#include "importers/FxTextParser.h"
#include "importers/PyLexer.h"
#include "importers/ReadablePyParser.h"
#include "ir/Verifier.h"
#ifdef FXKIT_HAVE_JSON
#include "importers/json/FxkitJsonReader.h"
#include "importers/json/NodesJson.h"
#endif

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace fxkit {

std::string_view graphFormatName(GraphFormat format) {
  switch (format) {
  case GraphFormat::FxText:
    return "fx";
  case GraphFormat::FxPy:
    return "fxpy";
  case GraphFormat::Json:
    return "json";
  }
  return "?";
}

std::optional<GraphFormat> parseGraphFormat(std::string_view name) {
  if (name == "fx" || name == "txt")
    return GraphFormat::FxText;
  if (name == "fxpy" || name == "py")
    return GraphFormat::FxPy;
  if (name == "json")
    return GraphFormat::Json;
  return std::nullopt;
}

std::optional<GraphFormat> detectGraphFormat(const std::string &path, std::string_view content) {
  auto endsWith = [&path](std::string_view suffix) {
    return path.size() >= suffix.size() &&
           path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (endsWith(".graph.txt") || endsWith(".fx") || endsWith(".txt"))
    return GraphFormat::FxText;
  if (endsWith(".py"))
    return GraphFormat::FxPy;
  if (endsWith(".json"))
    return GraphFormat::Json;
  size_t start = content.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos)
    return std::nullopt;
  content.remove_prefix(start);
  if (content.starts_with("graph("))
    return GraphFormat::FxText;
  if (content.starts_with("class ") || content.starts_with("#") || content.starts_with("import "))
    return GraphFormat::FxPy;
  if (content.starts_with("{"))
    return GraphFormat::Json;
  return std::nullopt;
}

Expected<std::string> readTextFile(const std::string &path) {
  if (path == "-") {
    std::string data((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    return data;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return Error("'" + path + "' is a directory, expected a file");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Error("cannot open '" + path + "': " + std::strerror(errno));
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad())
    return Error("cannot read '" + path + "'");
  return buf.str();
}

Expected<Graph> importGraph(std::string_view text, GraphFormat format,
                            const std::string &fileName) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    return Error("empty input: expected a graph", SourceLoc{fileName, 1, 1});
  Expected<Graph> graph = Error("unsupported format");
  switch (format) {
  case GraphFormat::FxText:
    graph = parseFxText(text, fileName);
    break;
  case GraphFormat::FxPy:
    graph = parseReadablePy(text, fileName);
    break;
  case GraphFormat::Json:
#ifdef FXKIT_HAVE_JSON
    graph = parseFxkitJson(text, fileName);
#else
    return Error("this fxkit was built without JSON support (nlohmann-json not found)");
#endif
    break;
  }
  if (!graph)
    return graph;
  if (Status st = verifyGraph(*graph); !st) {
    Error err = st.takeError();
    err.loc.file = fileName;
    return err;
  }
  return graph;
}

Expected<Graph> importGraphFile(const std::string &path, std::optional<GraphFormat> format,
                                bool attachSidecar) {
  auto text = readTextFile(path);
  if (!text)
    return text.takeError();
  std::string displayName = path == "-" ? "<stdin>" : path;
  if (!format)
    format = detectGraphFormat(path == "-" ? std::string() : path, *text);
  if (!format)
    return Error("cannot tell the format of '" + displayName + "': use --from fx|fxpy|json");
  auto graph = importGraph(*text, *format, displayName);
  if (!graph)
    return graph;
#ifdef FXKIT_HAVE_JSON
  const std::string suffix = ".graph.txt";
  if (attachSidecar && *format == GraphFormat::FxText && path.size() > suffix.size() &&
      path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0) {
    std::string sidecar = path.substr(0, path.size() - suffix.size()) + ".nodes.json";
    std::error_code ec;
    if (std::filesystem::exists(sidecar, ec)) {
      auto json = readTextFile(sidecar);
      if (!json)
        return json.takeError();
      if (Status st = attachNodesJson(*graph, *json, sidecar); !st)
        return st.takeError();
    }
  }
#endif
  return graph;
}

} // namespace fxkit
