/// Every `*.nodes.json` of the corpus: build a graph from the sidecar itself (the FX text
/// parser is tested elsewhere), attach the sidecar's values, check them against the JSON,
/// and round-trip the result through fxkit's JSON format.

#include "exporters/json/FxkitJsonWriter.h"
#include "importers/json/FxkitJsonReader.h"
#include "importers/json/NodesJson.h"
#include "ir/Verifier.h"
#include "support/PyLexer.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace fxkit;
namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<fs::path> corpusSidecars() {
  std::vector<fs::path> out;
  fs::path root = fs::path(FXKIT_TEST_DATA) / "corpus";
  for (const auto &e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file() && e.path().string().ends_with(".nodes.json"))
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

/// Test-only reader for the Python spellings of `args`/`kwargs` in the sidecars: node names,
/// numbers, strings, None/True/False, lists, tuples, dicts and `torch.*` constants. Recursive:
/// the corpus nests two levels deep at most.
class ArgParser {
public:
  ArgParser(const Graph &g, std::vector<Token> toks) : g_(g), t_(std::move(toks)) {}

  Expected<Argument> parseAll() {
    auto v = value(0);
    if (v && peek().kind != Token::Kind::End && peek().kind != Token::Kind::Newline)
      return fail("trailing text");
    return v;
  }

private:
  const Token &peek() const { return t_[std::min(i_, t_.size() - 1)]; }
  const Token &next() { return t_[std::min(i_++, t_.size() - 1)]; }
  Error fail(const std::string &msg) const {
    return Error(msg + " at '" + std::string(peek().text) + "'");
  }

  Expected<std::vector<Argument>> seq(std::string_view close, int depth) {
    std::vector<Argument> items;
    while (!peek().is(close)) {
      auto v = value(depth + 1);
      if (!v)
        return v.takeError();
      items.push_back(v.take());
      if (peek().is(","))
        next();
      else if (!peek().is(close))
        return fail("expected ',' or '" + std::string(close) + "'");
    }
    next();
    return items;
  }

  Expected<Argument> value(int depth) {
    if (depth > 50)
      return fail("too deep");
    const Token &t = next();
    if (t.is("(") || t.is("[")) {
      bool tuple = t.is("(");
      auto items = seq(tuple ? ")" : "]", depth);
      if (!items)
        return items.takeError();
      return tuple ? Argument::tuple(items.take()) : Argument::list(items.take());
    }
    if (t.is("{")) {
      std::vector<std::pair<std::string, Argument>> entries;
      while (!peek().is("}")) {
        const Token &k = next();
        auto key = decodePyString(k.text);
        if (k.kind != Token::Kind::String || !key || !next().is(":"))
          return fail("bad dict key");
        auto v = value(depth + 1);
        if (!v)
          return v.takeError();
        entries.emplace_back(*key, v.take());
        if (peek().is(","))
          next();
      }
      next();
      return Argument::dict(std::move(entries));
    }
    bool neg = false;
    const Token *num = &t;
    if (t.is("-")) {
      neg = true;
      num = &next();
    }
    if (num->kind == Token::Kind::Int) {
      int64_t v = 0;
      std::from_chars(num->text.data(), num->text.data() + num->text.size(), v);
      return Argument::integer(neg ? -v : v);
    }
    if (num->kind == Token::Kind::Float || num->isIdent("inf") || num->isIdent("nan")) {
      double v = num->isIdent("inf")   ? INFINITY
                 : num->isIdent("nan") ? NAN
                                       : std::strtod(std::string(num->text).c_str(), nullptr);
      return Argument::floating(neg ? -v : v);
    }
    if (neg)
      return fail("bad number");
    if (t.kind == Token::Kind::String) {
      auto s = decodePyString(t.text);
      if (!s)
        return s.takeError();
      return Argument::string(*s);
    }
    if (t.isIdent("None"))
      return Argument::none();
    if (t.isIdent("True") || t.isIdent("False"))
      return Argument::boolean(t.isIdent("True"));
    if (t.isIdent("torch") && peek().is(".")) {
      next();
      std::string_view name = next().text;
      if (auto d = parseDType(name))
        return Argument::dtype(*d);
      if (name.ends_with("_format"))
        return Argument::memoryFormat(name);
      if (name == "strided" || name.starts_with("sparse"))
        return Argument::layout(name);
      return fail("unknown torch constant");
    }
    if (t.kind == Token::Kind::Ident) {
      if (Node *n = g_.find(t.text))
        return Argument::node(n);
      return Error("undefined node '" + std::string(t.text) + "'");
    }
    return fail("unexpected token");
  }

  const Graph &g_;
  std::vector<Token> t_;
  size_t i_ = 0;
};

/// The FX-text spelling of a sidecar target.
std::string graphTarget(const std::string &op, const std::string &target) {
  if (op != "call_function")
    return target;
  constexpr std::string_view builtin = "<built-in function ";
  if (target.starts_with(builtin))
    return "operator." + target.substr(builtin.size(), target.size() - builtin.size() - 1);
  return "torch.ops." + target;
}

Expected<Argument> parseArgs(const Graph &g, const nlohmann::json &entry, const char *key,
                             const std::string &file) {
  auto it = entry.find(key);
  if (it == entry.end())
    return std::string_view(key) == "args" ? Argument::tuple({}) : Argument::dict({});
  const std::string &src = it->get_ref<const std::string &>(); // tokens view into it
  auto toks = lexPython(src, file);
  if (!toks)
    return toks.takeError();
  return ArgParser(g, toks.take()).parseAll();
}

/// A graph with the sidecar's nodes, targets and arguments (no values yet).
Expected<Graph> graphFromSidecar(const nlohmann::json &doc, const std::string &file) {
  Graph g;
  for (const auto &e : doc) {
    std::string name = e["name"], op = e["op"], target = e["target"];
    auto kind = parseOpKind(op);
    if (!kind)
      return Error(file + ": bad op " + op);
    auto args = parseArgs(g, e, "args", file);
    if (!args)
      return Error(file + ": node " + name + ": " + args.error().message);
    auto kwargs = parseArgs(g, e, "kwargs", file);
    if (!kwargs)
      return Error(file + ": node " + name + ": " + kwargs.error().message);
    if (args->kind() != Argument::Kind::Tuple || kwargs->kind() != Argument::Kind::Dict)
      return Error(file + ": node " + name + ": args not a tuple or kwargs not a dict");
    g.create(*kind, name, graphTarget(op, target), args.take(), kwargs.take());
  }
  return g;
}

std::vector<std::string> strings(const std::vector<SymExpr> &xs) {
  std::vector<std::string> out;
  for (const SymExpr &x : xs)
    out.push_back(x.str());
  return out;
}

/// The attached tensor prints back exactly as the sidecar spells it.
void expectTensor(const TensorType &t, const nlohmann::json &j, const std::string &where) {
  EXPECT_EQ(dtypeName(t.dtype), j["dtype"].get<std::string>()) << where;
  EXPECT_EQ(strings(t.sizes), j["shape"].get<std::vector<std::string>>()) << where;
  EXPECT_EQ(strings(t.strides), j["stride"].get<std::vector<std::string>>()) << where;
  EXPECT_EQ(t.device.str(), j["device"].get<std::string>()) << where;
}

} // namespace

TEST(CorpusJson, EverySidecarAttachesAndRoundTrips) {
  auto files = corpusSidecars();
  ASSERT_GE(files.size(), 40u);
  size_t nodes = 0, tensors = 0, multi = 0, syms = 0, symbolicSizes = 0;
  for (const fs::path &path : files) {
    SCOPED_TRACE(path.string());
    std::string text = readFile(path);
    auto doc = nlohmann::json::parse(text, nullptr, false);
    ASSERT_FALSE(doc.is_discarded());
    auto g = graphFromSidecar(doc, path.string());
    ASSERT_TRUE(g) << g.error().str();
    ASSERT_TRUE(verifyGraph(*g)) << verifyGraph(*g).error().str();

    Status st = attachNodesJson(*g, text, path.string());
    ASSERT_TRUE(st) << st.error().str();

    for (const auto &e : doc) {
      std::string name = e["name"];
      const Node *n = g->find(name);
      ASSERT_TRUE(n) << name;
      const auto &val = e["val"];
      std::string where = path.filename().string() + " " + name;
      ++nodes;
      if (val.is_null()) {
        EXPECT_TRUE(n->value().empty()) << where;
      } else if (val.is_string()) {
        ASSERT_TRUE(n->value().sym()) << where;
        EXPECT_EQ(n->value().sym()->str(), val.get<std::string>()) << where;
        ++syms;
      } else if (val.is_object()) {
        ASSERT_TRUE(n->value().tensor()) << where;
        expectTensor(*n->value().tensor(), val, where);
        for (const SymExpr &s : n->value().tensor()->sizes)
          symbolicSizes += !s.isConstant();
        ++tensors;
      } else {
        const auto *ts = n->value().tensors();
        ASSERT_TRUE(ts) << where;
        ASSERT_EQ(ts->size(), val.size()) << where;
        for (size_t i = 0; i < ts->size(); ++i) {
          ASSERT_EQ((*ts)[i].has_value(), !val[i].is_null()) << where;
          if ((*ts)[i])
            expectTensor(*(*ts)[i], val[i], where + "[" + std::to_string(i) + "]");
        }
        ++multi;
      }
    }

    std::string json = printFxkitJson(*g);
    auto back = parseFxkitJson(json, path.string() + ".fxkit.json");
    ASSERT_TRUE(back) << back.error().str();
    std::string why;
    EXPECT_TRUE(graphsEqual(*g, *back, &why)) << why;
    EXPECT_EQ(printFxkitJson(*back), json);
  }
  // The corpus exercises every value kind, including symbolic sizes.
  EXPECT_GT(tensors, 1000u);
  EXPECT_GT(multi, 10u);
  EXPECT_GT(syms, 5u);
  EXPECT_GT(symbolicSizes, 10u);
  std::cout << "[ corpus   ] " << files.size() << " sidecars, " << nodes << " nodes\n";
}

TEST(CorpusJson, SidecarMismatchAgainstAnotherGraph) {
  // A sidecar attached to a different workload's graph fails on its first differing entry.
  auto files = corpusSidecars();
  ASSERT_GE(files.size(), 2u);
  auto doc = nlohmann::json::parse(readFile(files[0]), nullptr, false);
  auto g = graphFromSidecar(doc, files[0].string());
  ASSERT_TRUE(g);
  fs::path other;
  for (const auto &f : files)
    if (f.filename() != files[0].filename() || f.parent_path() != files[0].parent_path())
      if (readFile(f) != readFile(files[0])) {
        other = f;
        break;
      }
  Status st = attachNodesJson(*g, readFile(other), other.string());
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("entry "), std::string::npos) << st.error().str();
  EXPECT_EQ(st.error().loc.file, other.string());
  EXPECT_GT(st.error().loc.line, 0);
}
