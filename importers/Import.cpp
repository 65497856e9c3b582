#include "importers/Import.h"

#include "importers/FxTextParser.h"
#include "importers/ReadablePyParser.h"
#include "importers/inductor/InductorCppWrapper.h"
#include "importers/inductor/InductorWrapper.h"
#include "importers/inductor/SchedulerDump.h"
#include "ir/Verifier.h"
#include "support/PyLexer.h"
#ifdef FXKIT_HAVE_JSON
#include "importers/json/FxkitJsonReader.h"
#include "importers/json/NodesJson.h"
#include "importers/json/Provenance.h"
#endif
#ifdef FXKIT_HAVE_PT2
#include "importers/pt2/Pt2Reader.h"
#endif

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <sstream>
#include <utility>

namespace fxkit {

namespace {

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

} // namespace

std::optional<Error> pictureInputError(std::string_view nameOrPath) {
  // (name, extension): what exporters/GraphvizRender.h draws; `.gv` is Graphviz's other name.
  static constexpr std::pair<std::string_view, std::string_view> pictures[] = {
      {"dot", ".dot"}, {"dot", ".gv"}, {"svg", ".svg"}, {"png", ".png"}, {"pdf", ".pdf"}};
  const bool isPath = nameOrPath.find_first_of("./") != std::string_view::npos;
  for (const auto &[name, extension] : pictures)
    if (isPath ? endsWith(nameOrPath, extension) : nameOrPath == name)
      return Error(std::string(name) + " is an output format only (read " + inputFormatList() +
                   ")");
  return std::nullopt;
}

std::optional<GraphFormat> detectGraphFormat(const std::string &path, std::string_view content) {
  if (endsWith(path, ".txt") && !endsWith(path, ".graph.txt") && looksLikeSchedulerDump(content))
    return GraphFormat::InductorIr;
  if (endsWith(path, ".graph.txt") || endsWith(path, ".fx") || endsWith(path, ".txt"))
    return GraphFormat::FxText;
  if (endsWith(path, ".py") && looksLikeInductorCppWrapper(content))
    return GraphFormat::InductorCpp;
  if (endsWith(path, ".py"))
    return looksLikeInductorWrapper(content) ? GraphFormat::InductorPy : GraphFormat::FxPy;
  if (endsWith(path, ".json"))
    return GraphFormat::Json;
  if (pictureInputError(path))
    return std::nullopt; // a picture's name: importGraphFile says it cannot be read
  if (endsWith(path, ".pt2") || content.starts_with("PK\x03\x04") ||
      content.starts_with("PK\x05\x06"))
    return GraphFormat::Pt2; // torch.export archives are zips
  size_t start = content.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos)
    return std::nullopt;
  content.remove_prefix(start);
  if (content.starts_with("graph("))
    return GraphFormat::FxText;
  if (looksLikeInductorCppWrapper(content))
    return GraphFormat::InductorCpp;
  if (looksLikeInductorWrapper(content))
    return GraphFormat::InductorPy;
  if (looksLikeSchedulerDump(content))
    return GraphFormat::InductorIr;
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
  case GraphFormat::InductorPy: {
    auto wrapper = importInductorWrapper(text, fileName);
    if (!wrapper)
      return wrapper.takeError();
    return std::move(wrapper->graph);
  }
  case GraphFormat::InductorCpp: {
    auto wrapper = importInductorCppWrapper(text, fileName);
    if (!wrapper)
      return wrapper.takeError();
    return std::move(wrapper->graph);
  }
  case GraphFormat::InductorIr:
    return importInductorSchedule(text, fileName); // verified there
  case GraphFormat::Pt2:
#ifdef FXKIT_HAVE_PT2
    graph = importPt2(text, fileName);
    break;
#else
    return Error("this fxkit was built without PT2 archive support (needs nlohmann-json and "
                 "zlib1g-dev)");
#endif
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

const NodesJsonSidecar *nodesJsonSidecar(const Graph &graph) {
  auto it = graph.attachments.find(kNodesJsonSidecarKey);
  return it == graph.attachments.end() ? nullptr
                                       : dynamic_cast<const NodesJsonSidecar *>(it->second.get());
}

std::optional<std::string> findNodesJsonSidecar(const std::string &path) {
  namespace fs = std::filesystem;
  constexpr std::string_view suffix = ".graph.txt";
  auto beside = [&](const std::string &graphPath) -> std::optional<std::string> {
    if (graphPath.size() <= suffix.size() || !endsWith(graphPath, suffix))
      return std::nullopt;
    std::string sidecar = graphPath.substr(0, graphPath.size() - suffix.size()) + ".nodes.json";
    std::error_code ec;
    if (fs::exists(sidecar, ec))
      return sidecar;
    return std::nullopt;
  };
  if (auto sidecar = beside(path))
    return sidecar;
  // Through a symlink (the file's or a folder's): the sidecar beside the real file.
  std::error_code ec;
  fs::path target = fs::canonical(path, ec);
  if (ec)
    return std::nullopt;
  fs::path given = fs::absolute(path, ec).lexically_normal();
  if (ec || target == given)
    return std::nullopt;
  return beside(target.string());
}

Expected<Graph> importGraphFile(const std::string &path, std::optional<GraphFormat> format,
                                bool attachSidecar, const std::string &provenance) {
  auto text = readTextFile(path);
  if (!text)
    return text.takeError();
  std::string displayName = path == "-" ? "<stdin>" : path;
  if (!format && path != "-")
    if (auto picture = pictureInputError(path))
      return *picture;
  if (!format)
    format = detectGraphFormat(path == "-" ? std::string() : path, *text);
  if (!format)
    return Error("cannot tell the format of '" + displayName + "': use --from FORMAT (" +
                 inputFormatList() + ")");
  auto graph = importGraph(*text, *format, displayName);
  if (!graph)
    return graph;
#ifdef FXKIT_HAVE_JSON
  if (attachSidecar && *format == GraphFormat::FxText && path != "-") {
    if (std::optional<std::string> sidecar = findNodesJsonSidecar(path)) {
      auto json = readTextFile(*sidecar);
      if (!json)
        return json.takeError();
      if (Status st = attachNodesJson(*graph, *json, *sidecar); !st)
        return st.takeError();
      auto record = std::make_shared<NodesJsonSidecar>();
      record->file = *sidecar;
      graph->attachments[std::string(kNodesJsonSidecarKey)] = std::move(record);
    }
  }
  // Inductor's provenance mapping: named, or the one in the wrapper's debug folder.
  std::string mapping = provenance;
  if (mapping.empty() && attachSidecar && path != "-" &&
      (*format == GraphFormat::InductorPy || *format == GraphFormat::InductorCpp ||
       std::filesystem::path(path).filename() == "fx_graph_transformed.py")) {
    std::error_code ec;
    auto beside = std::filesystem::path(path).parent_path() / kInductorProvenanceFileName;
    if (std::filesystem::is_regular_file(beside, ec))
      mapping = beside.string();
  }
  if (!mapping.empty())
    if (auto attached = attachInductorProvenanceFile(*graph, mapping, !provenance.empty());
        !attached)
      return attached.takeError();
#else
  if (!provenance.empty())
    return Error("--provenance reads JSON: this fxkit was built without nlohmann-json");
#endif
  return graph;
}

Expected<InductorProvenance> parseProvenanceMapping(std::string_view text,
                                                    const std::string &path) {
#ifdef FXKIT_HAVE_JSON
  return parseInductorProvenance(text, path);
#else
  (void)text;
  return Error(path + ": this fxkit was built without JSON support (nlohmann-json not found): "
                      "provenance mappings cannot be read");
#endif
}

} // namespace fxkit
