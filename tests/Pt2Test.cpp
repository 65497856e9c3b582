// torch.export archives (.pt2): the zip reader and writer, the ExportedProgram reader against
// PyTorch 2.11's own archives (tests/data/pt2, PROVENANCE.md there) and a hand-built one in
// PyTorch's format, the writer (archive -> fxkit -> archive gives the same program; FX text ->
// archive -> FX text), located errors, and no crash on truncated or corrupt archives.
#ifdef FXKIT_HAVE_PT2

#include "exporters/FxTextPrinter.h"
#include "exporters/pt2/Pt2Writer.h"
#include "importers/FxTextParser.h"
#include "importers/Import.h"
#include "importers/pt2/Pt2Reader.h"
#include "support/pt2/ExportedProgram.h"
#include "support/pt2/Zip.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <zlib.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

using namespace fxkit;
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

std::string readBytes(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path dataDir() { return fs::path(FXKIT_TEST_DATA) / "pt2"; }

std::vector<fs::path> archives() {
  std::vector<fs::path> out;
  for (const auto &e : fs::directory_iterator(dataDir()))
    if (e.path().extension() == ".pt2")
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

Graph importFile(const fs::path &path) {
  auto g = importGraphFile(path.string());
  EXPECT_TRUE(g) << (g ? "" : g.error().str());
  return g ? g.take() : Graph();
}

Graph roundTrip(const Graph &g, const std::string &name = "rt") {
  auto bytes = writePt2(g, name);
  EXPECT_TRUE(bytes) << (bytes ? "" : bytes.error().str());
  if (!bytes)
    return Graph();
  auto back = importPt2(*bytes, name + ".pt2");
  EXPECT_TRUE(back) << (back ? "" : back.error().str());
  return back ? back.take() : Graph();
}

// ---- zip ----

TEST(Zip, WriterReaderRoundTripAlignsData) {
  zip::Writer w;
  w.add("a/one", "hello");
  w.add("a/two", std::string(1000, 'x'));
  w.add("a/empty", "");
  auto bytes = w.finish();
  ASSERT_TRUE(bytes);
  auto r = zip::Reader::open(*bytes, "t.zip");
  ASSERT_TRUE(r) << r.error().str();
  ASSERT_EQ(r->entries().size(), 3u);
  for (const zip::Entry &e : r->entries())
    EXPECT_EQ(e.dataOffset % 64, 0u) << e.name;
  EXPECT_EQ(*r->read(*r->find("a/one")), "hello");
  EXPECT_EQ(*r->read(*r->find("a/two")), std::string(1000, 'x'));
  EXPECT_EQ(*r->read(*r->find("a/empty")), "");
  EXPECT_EQ(r->find("a/three"), nullptr);
}

/// A one-entry archive whose entry is raw-deflated (method 8), as zipfile writes with
/// ZIP_DEFLATED.
std::string deflatedArchive(const std::string &name, const std::string &data) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, 9, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string packed(deflateBound(&zs, data.size()), '\0');
  zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef *>(packed.data());
  zs.avail_out = static_cast<uInt>(packed.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  packed.resize(zs.total_out);
  deflateEnd(&zs);
  auto le = [](std::string &o, uint64_t v, int n) {
    for (int i = 0; i < n; ++i)
      o += static_cast<char>((v >> (8 * i)) & 0xff);
  };
  uint32_t crc = zip::crc32(data);
  std::string out;
  le(out, 0x04034b50, 4);
  le(out, 20, 2);
  le(out, 0, 2);
  le(out, 8, 2);
  le(out, 0, 4);
  le(out, crc, 4);
  le(out, packed.size(), 4);
  le(out, data.size(), 4);
  le(out, name.size(), 2);
  le(out, 0, 2);
  out += name + packed;
  size_t cd = out.size();
  le(out, 0x02014b50, 4);
  le(out, 20, 2);
  le(out, 20, 2);
  le(out, 0, 2);
  le(out, 8, 2);
  le(out, 0, 4);
  le(out, crc, 4);
  le(out, packed.size(), 4);
  le(out, data.size(), 4);
  le(out, name.size(), 2);
  out.append(2 * 4 + 4, '\0'); // extra, comment, disk, internal and external attributes
  le(out, 0, 4);
  out += name;
  size_t cdSize = out.size() - cd;
  le(out, 0x06054b50, 4);
  le(out, 0, 4);
  le(out, 1, 2);
  le(out, 1, 2);
  le(out, cdSize, 4);
  le(out, cd, 4);
  le(out, 0, 2);
  return out;
}

TEST(Zip, ReadsDeflatedEntries) {
  std::string text;
  for (int i = 0; i < 200; ++i)
    text += "line " + std::to_string(i) + " of a compressible text\n";
  std::string archive = deflatedArchive("d/f.txt", text);
  auto r = zip::Reader::open(archive, "d.zip");
  ASSERT_TRUE(r) << r.error().str();
  EXPECT_EQ(r->entries()[0].method, 8);
  auto data = r->read(r->entries()[0]);
  ASSERT_TRUE(data) << data.error().str();
  EXPECT_EQ(*data, text);
}

TEST(Zip, CorruptDataIsALocatedError) {
  zip::Writer w;
  w.add("a/x", "0123456789");
  std::string bytes = *w.finish();
  size_t at = bytes.find("0123456789");
  bytes[at + 3] = 'X';
  auto r = zip::Reader::open(bytes, "c.zip");
  ASSERT_TRUE(r);
  auto data = r->read(r->entries()[0]);
  ASSERT_FALSE(data);
  EXPECT_NE(data.error().str().find("c.zip: error: corrupt zip archive at byte"), std::string::npos)
      << data.error().str();
  EXPECT_NE(data.error().message.find("CRC-32 mismatch"), std::string::npos);
}

TEST(Zip, BadDirectoriesAreErrors) {
  EXPECT_FALSE(zip::Reader::open("", "e.zip"));
  EXPECT_FALSE(zip::Reader::open("PK\x05\x06", "e.zip"));
  auto err = zip::Reader::open(std::string(100, 'z'), "e.zip");
  ASSERT_FALSE(err);
  EXPECT_NE(err.error().message.find("no end-of-central-directory record"), std::string::npos);
  // An end record pointing past the archive.
  zip::Writer w;
  w.add("a/x", "data");
  std::string bytes = *w.finish();
  std::string bad = bytes;
  bad[bad.size() - 6] = '\x7f'; // central directory offset
  auto r = zip::Reader::open(bad, "e.zip");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("outside the archive"), std::string::npos) << r.error().message;
}

TEST(Pt2Format, NamedAndDetected) {
  EXPECT_EQ(parseGraphFormat("pt2"), GraphFormat::Pt2);
  EXPECT_EQ(graphFormatName(GraphFormat::Pt2), "pt2");
  EXPECT_EQ(detectGraphFormat("model.pt2", ""), GraphFormat::Pt2);
  EXPECT_EQ(detectGraphFormat("-", std::string_view("PK\x03\x04....", 8)), GraphFormat::Pt2);
  EXPECT_EQ(pt2ArchiveName("out/bert.core.pt2"), "bert.core");
  EXPECT_EQ(pt2ArchiveName("-"), "archive");
}

// ---- sympy expressions ----

TEST(Pt2Sympy, ParsesPyTorchsSrepr) {
  auto e = parseSympyRepr("Mul(Integer(32), Symbol('s10', positive=True, integer=True))");
  ASSERT_TRUE(e) << e.error().str();
  EXPECT_EQ(e->str(), "32*s10");
  e = parseSympyRepr("Add(Integer(-1), Symbol('s0', positive=True, integer=True))");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->str(), "s0 - 1");
  e = parseSympyRepr("FloorDiv(Add(Symbol('s0', integer=True), Integer(1)), Integer(2))");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->str(), "(s0 + 1)//2");
  e = parseSympyRepr("Max(Integer(1), Mul(Integer(-1), Symbol('u0', integer=True)))");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->str(), "Max(1, -u0)");
  auto bad = parseSympyRepr("Mul(Integer(2), ");
  ASSERT_FALSE(bad);
  EXPECT_GT(bad.error().loc.col, 10);
  EXPECT_FALSE(parseSympyRepr("Integer(99999999999999999999)"));
  EXPECT_FALSE(parseSympyRepr("Symbol()"));
}

TEST(Pt2Sympy, PrintsWhatItParses) {
  for (const char *text : {"s0", "32*s10", "s0 - 1", "(s0 + 1)//2", "s0*s1 + 7", "-s3", "s0 % 4",
                           "Max(2, s0)", "s0**2"}) {
    auto e = SymExpr::parse(text);
    ASSERT_TRUE(e) << text;
    auto back = parseSympyRepr(sympyRepr(*e));
    ASSERT_TRUE(back) << sympyRepr(*e);
    EXPECT_EQ(back->simplify(), e->simplify()) << text << " -> " << sympyRepr(*e);
  }
  // SymFloat and SymBool expressions and guards: every kind SymExpr parses has a sympy form.
  for (const char *text :
       {"1.0*s0", "s0 >= 2", "(u0 >= 0) & (u0 <= 128)", "s0 < 3", "s0 > 3", "s0 <= 3", "s0 != 3",
        "s0 == 3", "(s0 > 1) | (s1 > 1)", "Piecewise((1, s0 > 2), (0, True))", "int_oo", "False",
        "~(s0 > 2)", "(s0 > 1) ^ (s1 > 1)", "nan", "zoo", "oo"}) {
    auto e = SymExpr::parse(text);
    ASSERT_TRUE(e) << text;
    std::string repr = sympyRepr(*e);
    auto back = parseSympyRepr(repr);
    ASSERT_TRUE(back) << text << " -> " << repr << ": " << back.error().str();
    EXPECT_EQ(back->str(), e->str()) << text << " -> " << repr;
  }
  EXPECT_EQ(sympyRepr(*SymExpr::parse("s0 >= 2")),
            "GreaterThan(Symbol('s0', positive=True, integer=True), Integer(2))");
  EXPECT_EQ(sympyRepr(*SymExpr::parse("0.5")), "Float('0.5', precision=53)");
  EXPECT_EQ(sympyRepr(*SymExpr::parse("True")), "true");
  EXPECT_EQ(sympyRepr(*SymExpr::parse("int_oo")), "IntInfinity()");
  EXPECT_FALSE(parseSympyRepr("Float('s0')"));
  EXPECT_FALSE(parseSympyRepr("StrictLessThan(Integer(1))"));
  EXPECT_EQ(sympyRepr(SymExpr::symbol("s7")), "Symbol('s7', positive=True, integer=True)");
  EXPECT_EQ(sympyRepr(SymExpr::symbol("u0")), "Symbol('u0', integer=True)");
}

// ---- PyTorch's archives ----

TEST(Pt2Archives, GraphsEqualPyTorchsStrOfTheGraph) {
  auto files = archives();
  ASSERT_EQ(files.size(), 4u) << "tests/data/pt2";
  for (const fs::path &f : files) {
    SCOPED_TRACE(f.filename().string());
    Graph g = importFile(f);
    fs::path txt = f;
    txt.replace_extension(".graph.txt");
    EXPECT_EQ(printFxText(g), readBytes(txt));
    ASSERT_NE(exportedProgramOf(g), nullptr);
  }
}

TEST(Pt2Archives, DynamicShapesSymbolsAndRanges) {
  Graph g = importFile(dataDir() / "misc_ops.dyn.pt2");
  const ExportedProgram *p = exportedProgramOf(g);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(g.find("a_0")->value().tensor()->str(), "f32[s10, 32][32, 1]cpu");
  ASSERT_NE(g.find("sym_size_int_2")->value().sym(), nullptr);
  EXPECT_EQ(g.find("sym_size_int_2")->value().sym()->str(), "s10");
  ASSERT_EQ(p->ranges.size(), 3u);
  EXPECT_EQ(p->ranges.at("s10"), (RangeConstraint{8, std::nullopt}));
  EXPECT_EQ(p->ranges.at("s86"), (RangeConstraint{2, std::nullopt}));
  EXPECT_EQ(p->hints.at("s10"), 16);
  EXPECT_EQ(p->userInputCount(), 3u);
  EXPECT_EQ(p->schemaMajor, 8);
  EXPECT_EQ(p->schemaMinor, 17);
  EXPECT_EQ(p->torchVersion, "2.11.0+cu130");
}

TEST(Pt2Archives, WeightsAreTheArchivesBytes) {
  std::string bytes = readBytes(dataDir() / "vit.core.pt2");
  auto g = importPt2(bytes, "vit.core.pt2");
  ASSERT_TRUE(g) << g.error().str();
  const ExportedProgram *p = exportedProgramOf(*g);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->inputs.size(), 41u);
  EXPECT_EQ(p->userInputCount(), 1u);
  EXPECT_EQ(p->weights.size(), 40u);
  const ProgramInputSpec *spec = p->inputSpec("p_m0_embeddings_cls_token");
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(spec->kind, InputKind::Parameter);
  EXPECT_EQ(spec->target, "m0.embeddings.cls_token");
  const ProgramWeight &w = p->weights.at("m0.embeddings.cls_token");
  ASSERT_TRUE(w.tensor);
  EXPECT_TRUE(w.isParameter);
  EXPECT_TRUE(w.requiresGrad);
  EXPECT_EQ(w.tensor->typeOf().str(), "f32[1, 1, 64][64, 64, 1]cpu");
  // The first float of data/weights/weight_0, as PyTorch stored it.
  auto zip = zip::Reader::open(bytes, "vit.core.pt2");
  ASSERT_TRUE(zip);
  std::string raw = *zip->read(*zip->find("vit.core/data/weights/weight_0"));
  float first;
  std::memcpy(&first, raw.data(), sizeof first);
  int64_t zero[3] = {0, 0, 0};
  EXPECT_EQ(w.tensor->getDouble(zero), static_cast<double>(first));
  for (const ProgramOutputSpec &o : p->outputs)
    EXPECT_EQ(o.kind, OutputKind::UserOutput);
}

TEST(Pt2Archives, ArchiveToFxkitToArchiveIsTheSameProgram) {
  for (const fs::path &f : archives()) {
    SCOPED_TRACE(f.filename().string());
    Graph g = importFile(f);
    Graph back = roundTrip(g, f.stem().string());
    std::string why;
    EXPECT_TRUE(graphsEqual(g, back, &why)) << why;
    EXPECT_EQ(printFxText(back), printFxText(g));
    const ExportedProgram *a = exportedProgramOf(g), *b = exportedProgramOf(back);
    ASSERT_TRUE(a && b);
    ASSERT_EQ(a->inputs.size(), b->inputs.size());
    for (size_t i = 0; i < a->inputs.size(); ++i) {
      EXPECT_EQ(a->inputs[i].kind, b->inputs[i].kind);
      EXPECT_EQ(a->inputs[i].name, b->inputs[i].name);
      EXPECT_EQ(a->inputs[i].target, b->inputs[i].target);
      EXPECT_EQ(a->inputs[i].persistent, b->inputs[i].persistent);
    }
    ASSERT_EQ(a->outputs.size(), b->outputs.size());
    EXPECT_EQ(a->ranges, b->ranges);
    EXPECT_EQ(a->hints, b->hints);
    EXPECT_EQ(a->moduleCallGraph, b->moduleCallGraph);
    EXPECT_EQ(a->sampleInputs, b->sampleInputs);
    ASSERT_EQ(a->weights.size(), b->weights.size());
    for (const auto &w : a->weights) {
      const ProgramWeight &x = w.second, &y = b->weights.at(w.first);
      ASSERT_TRUE(x.tensor && y.tensor) << w.first;
      EXPECT_TRUE(x.tensor->bitwiseEqual(*y.tensor)) << w.first;
      EXPECT_EQ(x.tensor->strides(), y.tensor->strides()) << w.first;
      EXPECT_EQ(x.isParameter, y.isParameter);
    }
  }
}

// ---- a hand-built archive in PyTorch's format ----

Json symbolJson(const std::string &name, int64_t hint) {
  return Json{{"as_expr", Json{{"expr_str", "Symbol('" + name + "', positive=True, integer=True)"},
                               {"hint", Json{{"as_int", hint}}}}}};
}

Json meta(std::vector<Json> sizes, std::vector<Json> strides, int dtype = 7) {
  return Json{{"dtype", dtype},
              {"sizes", sizes},
              {"requires_grad", false},
              {"device", Json{{"type", "cpu"}, {"index", nullptr}}},
              {"strides", strides},
              {"storage_offset", Json{{"as_int", 0}}},
              {"layout", 7}};
}
Json i(int64_t v) { return Json{{"as_int", v}}; }
Json t(const std::string &name) { return Json{{"as_tensor", Json{{"name", name}}}}; }
Json in(const std::string &name, Json arg, int kind = 1) {
  return Json{{"name", name}, {"arg", std::move(arg)}, {"kind", kind}};
}
Json node(const std::string &target, Json inputs, Json outputs, const std::string &name,
          Json hopSingle = nullptr) {
  return Json{{"target", target},
              {"inputs", std::move(inputs)},
              {"outputs", outputs},
              {"metadata", Json{{"stack_trace", "File x"}}},
              {"is_hop_single_tensor_return", hopSingle},
              {"name", name}};
}

/// The model.json of a program over x: f32[s0, 8] (s0 in [2, 64]), a parameter w (f32[8]), a
/// tied parameter w_tied viewing w's storage, and a non-persistent buffer inv (f32[2]):
/// native_layer_norm (two unused results), sym_size, expand by a symbolic list, a float
/// -Infinity, wrap_with_set_grad_enabled over a subgraph, split_with_sizes (a Tensor[] result),
/// cat of a tensor list, full with keyword arguments, and add of the buffer.
Json handBuiltProgram() {
  Json s0 = symbolJson("s0", 4);
  Json tv = Json::object();
  tv["p_w"] = meta({i(8)}, {i(1)});
  tv["p_w_tied"] = meta({i(4)}, {i(2)});
  tv["b_inv"] = meta({i(2)}, {i(1)});
  tv["x"] = meta({s0, i(8)}, {i(8), i(1)});
  for (const char *n : {"getitem", "expand", "mul", "getitem_1", "cat"})
    tv[n] = meta({s0, i(8)}, {i(8), i(1)});
  tv["native_layer_norm_unused_1"] = meta({s0, i(1)}, {i(1), i(1)});
  tv["native_layer_norm_unused_2"] = meta({s0, i(1)}, {i(1), i(1)});
  tv["getitem_2"] = meta({s0, i(2)}, {i(8), i(1)});
  tv["getitem_3"] = meta({s0, i(6)}, {i(8), i(1)});
  tv["full"] = meta({i(2)}, {i(1)});
  tv["add"] = meta({i(2)}, {i(1)});
  Json sub = Json{
      {"inputs", Json::array({t("a")})},
      {"outputs", Json::array({t("neg")})},
      {"nodes", Json::array({node("torch.ops.aten.neg.default", Json::array({in("self", t("a"))}),
                                  Json::array({t("neg")}), "neg")})},
      {"tensor_values",
       Json{{"a", meta({s0, i(8)}, {i(8), i(1)})}, {"neg", meta({s0, i(8)}, {i(8), i(1)})}}},
      {"sym_int_values", Json::object()},
      {"sym_bool_values", Json::object()},
      {"is_single_tensor_return", false},
      {"custom_obj_values", Json::object()},
      {"sym_float_values", Json::object()}};
  Json nodes = Json::array({
      node("torch.ops.aten.native_layer_norm.default",
           Json::array({in("input", t("x")), in("normalized_shape", Json{{"as_ints", {8}}}),
                        in("weight", t("p_w")), in("bias", Json{{"as_none", true}}),
                        in("eps", Json{{"as_float", 1e-5}})}),
           Json::array(
               {t("getitem"), t("native_layer_norm_unused_1"), t("native_layer_norm_unused_2")}),
           "native_layer_norm"),
      node("torch.ops.aten.sym_size.int", Json::array({in("self", t("x")), in("dim", i(0))}),
           Json::array({Json{{"as_sym_int", Json{{"as_name", "sym_size_int"}}}}}), "sym_size_int"),
      node("torch.ops.aten.expand.default",
           Json::array(
               {in("self", t("getitem")),
                in("size", Json{{"as_sym_ints", Json::array({Json{{"as_name", "sym_size_int"}},
                                                             Json{{"as_int", 8}}})}})}),
           Json::array({t("expand")}), "expand"),
      node("torch.ops.aten.mul.Tensor",
           Json::array({in("self", t("expand")), in("other", Json{{"as_float", "-Infinity"}})}),
           Json::array({t("mul")}), "mul"),
      node("torch.ops.higher_order.wrap_with_set_grad_enabled",
           Json::array({in("", Json{{"as_bool", false}}),
                        in("", Json{{"as_graph", Json{{"name", "submod_1"}, {"graph", sub}}}}),
                        in("", t("mul"))}),
           Json::array({t("getitem_1")}), "wrap_with_set_grad_enabled", false),
      node("torch.ops.aten.split_with_sizes.default",
           Json::array({in("self", t("getitem_1")), in("split_sizes", Json{{"as_ints", {2, 6}}}),
                        in("dim", i(1))}),
           Json::array({Json{{"as_tensors", Json::array({Json{{"name", "getitem_2"}},
                                                         Json{{"name", "getitem_3"}}})}}}),
           "split_with_sizes"),
      node("torch.ops.aten.cat.default",
           Json::array(
               {in("tensors", Json{{"as_tensors", Json::array({Json{{"name", "getitem_3"}},
                                                               Json{{"name", "getitem_2"}}})}}),
                in("dim", i(1))}),
           Json::array({t("cat")}), "cat"),
      node(
          "torch.ops.aten.full.default",
          Json::array(
              {in("size", Json{{"as_ints", {2}}}), in("fill_value", Json{{"as_float", 1.0}}),
               in("dtype", Json{{"as_scalar_type", 7}}, 2), in("layout", Json{{"as_layout", 7}}, 2),
               in("device", Json{{"as_device", Json{{"type", "cpu"}, {"index", nullptr}}}}, 2),
               in("pin_memory", Json{{"as_bool", false}}, 2)}),
          Json::array({t("full")}), "full"),
      node("torch.ops.aten.add.Tensor",
           Json::array({in("self", t("full")), in("other", t("b_inv"))}), Json::array({t("add")}),
           "add"),
  });
  Json graph = Json{{"inputs", Json::array({t("p_w"), t("p_w_tied"), t("b_inv"), t("x")})},
                    {"outputs", Json::array({t("cat"), t("add")})},
                    {"nodes", nodes},
                    {"tensor_values", tv},
                    {"sym_int_values", Json{{"sym_size_int", s0}}},
                    {"sym_bool_values", Json::object()},
                    {"is_single_tensor_return", false},
                    {"custom_obj_values", Json::object()},
                    {"sym_float_values", Json::object()}};
  Json inputSpecs = Json::array(
      {Json{{"parameter", Json{{"arg", Json{{"name", "p_w"}}}, {"parameter_name", "w"}}}},
       Json{{"parameter", Json{{"arg", Json{{"name", "p_w_tied"}}}, {"parameter_name", "w_tied"}}}},
       Json{
           {"buffer",
            Json{{"arg", Json{{"name", "b_inv"}}}, {"buffer_name", "inv"}, {"persistent", false}}}},
       Json{{"user_input", Json{{"arg", t("x")}}}}});
  Json outputSpecs = Json::array({Json{{"user_output", Json{{"arg", t("cat")}}}},
                                  Json{{"user_output", Json{{"arg", t("add")}}}}});
  return Json{{"graph_module",
               Json{{"graph", graph},
                    {"signature", Json{{"input_specs", inputSpecs}, {"output_specs", outputSpecs}}},
                    {"module_call_graph", Json::array()},
                    {"metadata", Json::object()},
                    {"treespec_namedtuple_fields", Json::object()}}},
              {"opset_version", Json{{"aten", 10}}},
              {"range_constraints", Json{{"s0", Json{{"min_val", 2}, {"max_val", 64}}}}},
              {"schema_version", Json{{"major", 8}, {"minor", 17}}},
              {"verifiers", Json::array({"ATEN"})},
              {"torch_version", "2.11.0+cu130"},
              {"guards_code", Json::array()}};
}

Json payload(const std::string &path, bool param, std::vector<int64_t> sizes,
             std::vector<int64_t> strides, int64_t offset) {
  Json sz = Json::array(), st = Json::array();
  for (int64_t v : sizes)
    sz.push_back(i(v));
  for (int64_t v : strides)
    st.push_back(i(v));
  Json m = meta({}, {});
  m["sizes"] = sz;
  m["strides"] = st;
  m["storage_offset"] = i(offset);
  m["requires_grad"] = param;
  return Json{{"path_name", path}, {"is_param", param}, {"use_pickle", false}, {"tensor_meta", m}};
}

std::string floats(std::vector<float> v) {
  return std::string(reinterpret_cast<const char *>(v.data()), v.size() * sizeof(float));
}

/// The archive around a model.json, in torch.export.save's layout.
std::string archiveWith(const std::string &modelJson, const std::string &root = "hand") {
  zip::Writer w;
  w.add(root + "/data/weights/weight_0", floats({1, 2, 3, 4, 5, 6, 7, 8}));
  Json weights = Json{{"config", Json{{"w", payload("weight_0", true, {8}, {1}, 0)},
                                      {"w_tied", payload("weight_0", true, {4}, {2}, 1)}}}};
  w.add(root + "/data/weights/model_weights_config.json", weights.dump());
  w.add(root + "/data/constants/tensor_0", floats({0.5f, -0.5f}));
  Json constants = Json{{"config", Json{{"inv", payload("tensor_0", false, {2}, {1}, 0)}}}};
  w.add(root + "/data/constants/model_constants_config.json", constants.dump());
  w.add(root + "/models/model.json", modelJson);
  w.add(root + "/data/sample_inputs/model.pt", "");
  w.add(root + "/archive_format", "pt2");
  w.add(root + "/archive_version", "0");
  w.add(root + "/.data/version", "6\n");
  return *w.finish();
}

constexpr std::string_view kHandBuiltFx = R"(graph():
    %p_w : [num_users=1] = placeholder[target=p_w]
    %p_w_tied : [num_users=0] = placeholder[target=p_w_tied]
    %b_inv : [num_users=1] = placeholder[target=b_inv]
    %x : [num_users=2] = placeholder[target=x]
    %native_layer_norm : [num_users=1] = call_function[target=torch.ops.aten.native_layer_norm.default](args = (%x, [8], %p_w, None, 1e-05), kwargs = {})
    %getitem : [num_users=1] = call_function[target=operator.getitem](args = (%native_layer_norm, 0), kwargs = {})
    %sym_size_int : [num_users=1] = call_function[target=torch.ops.aten.sym_size.int](args = (%x, 0), kwargs = {})
    %expand : [num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%getitem, [%sym_size_int, 8]), kwargs = {})
    %mul : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%expand, -inf), kwargs = {})
    %submod_1 : [num_users=1] = get_attr[target=submod_1]
    %wrap_with_set_grad_enabled : [num_users=1] = call_function[target=torch.ops.higher_order.wrap_with_set_grad_enabled](args = (False, %submod_1, %mul), kwargs = {})
    %getitem_1 : [num_users=1] = call_function[target=operator.getitem](args = (%wrap_with_set_grad_enabled, 0), kwargs = {})
    %split_with_sizes : [num_users=2] = call_function[target=torch.ops.aten.split_with_sizes.default](args = (%getitem_1, [2, 6], 1), kwargs = {})
    %getitem_2 : [num_users=1] = call_function[target=operator.getitem](args = (%split_with_sizes, 0), kwargs = {})
    %getitem_3 : [num_users=1] = call_function[target=operator.getitem](args = (%split_with_sizes, 1), kwargs = {})
    %cat : [num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%getitem_3, %getitem_2], 1), kwargs = {})
    %full : [num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([2], 1.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cpu, pin_memory: False})
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%full, %b_inv), kwargs = {})
    return (cat, add))";

TEST(Pt2HandBuilt, ReadsEveryEncodingAsPyTorchsDeserializerDoes) {
  auto g = importPt2(archiveWith(handBuiltProgram().dump()), "hand.pt2");
  ASSERT_TRUE(g) << g.error().str();
  EXPECT_EQ(printFxText(*g), kHandBuiltFx);
  // Types from tensor_values, with the symbolic size.
  EXPECT_EQ(g->find("x")->value().tensor()->str(), "f32[s0, 8][8, 1]cpu");
  ASSERT_NE(g->find("native_layer_norm")->value().tensors(), nullptr);
  EXPECT_EQ(g->find("native_layer_norm")->value().tensors()->size(), 3u);
  // The subgraph of the higher-order op.
  const Graph *sub = g->submodule("submod_1");
  ASSERT_NE(sub, nullptr);
  EXPECT_EQ(printFxText(*sub), R"(graph():
    %a : [num_users=1] = placeholder[target=a]
    %neg : [num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%a,), kwargs = {})
    return (neg,))");
  // The program: specs, ranges, hints, weights (the tied one views the same storage).
  const ExportedProgram *p = exportedProgramOf(*g);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->inputs[2].kind, InputKind::Buffer);
  EXPECT_FALSE(p->inputs[2].persistent);
  EXPECT_EQ(p->ranges.at("s0"), (RangeConstraint{2, 64}));
  EXPECT_EQ(p->hints.at("s0"), 4);
  const Tensor &w = *p->weights.at("w").tensor, &tied = *p->weights.at("w_tied").tensor;
  EXPECT_TRUE(w.sharesStorageWith(tied));
  int64_t k = 2;
  EXPECT_EQ(tied.getDouble({&k, 1}), 6.0); // offset 1, stride 2: elements 2, 4, 6, 8
  EXPECT_EQ(p->weights.at("inv").tensor->typeOf().str(), "f32[2][1]cpu");
}

TEST(Pt2HandBuilt, WritesItBackTheSame) {
  auto g = importPt2(archiveWith(handBuiltProgram().dump()), "hand.pt2");
  ASSERT_TRUE(g) << g.error().str();
  auto bytes = writePt2(*g, "hand");
  ASSERT_TRUE(bytes) << bytes.error().str();
  auto back = importPt2(*bytes, "hand.pt2");
  ASSERT_TRUE(back) << back.error().str();
  EXPECT_EQ(printFxText(*back), kHandBuiltFx);
  std::string why;
  EXPECT_TRUE(graphsEqual(*g, *back, &why)) << why;
  const ExportedProgram *p = exportedProgramOf(*back);
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(p->weights.at("w").tensor->sharesStorageWith(*p->weights.at("w_tied").tensor));
  // The written model: node names, PyTorch's unused-result names, the float, keyword kinds.
  auto zip = zip::Reader::open(*bytes, "hand.pt2");
  ASSERT_TRUE(zip);
  EXPECT_EQ(zip->entries()[0].name.substr(0, 5), "hand/");
  Json model = Json::parse(*zip->read(*zip->find("hand/models/model.json")));
  EXPECT_EQ(model["schema_version"], (Json{{"major", 8}, {"minor", 17}}));
  const Json &nodes = model["graph_module"]["graph"]["nodes"];
  EXPECT_EQ(nodes[0]["outputs"][1], t("native_layer_norm_unused_1"));
  EXPECT_EQ(nodes[3]["inputs"][1]["arg"], (Json{{"as_float", "-Infinity"}}));
  EXPECT_EQ(nodes[7]["inputs"][2]["kind"], 2);
  EXPECT_EQ(nodes[4]["is_hop_single_tensor_return"], false);
  // One payload for the two tied weights.
  Json weights = Json::parse(*zip->read(*zip->find("hand/data/weights/model_weights_config.json")));
  EXPECT_EQ(weights["config"]["w"]["path_name"], weights["config"]["w_tied"]["path_name"]);
  EXPECT_EQ(weights["config"]["w_tied"]["tensor_meta"]["storage_offset"], i(1));
  EXPECT_NE(zip->find("hand/data/constants/tensor_0"), nullptr);
}

// ---- FX text -> archive -> FX text ----

TEST(Pt2Writer, FxTextGraphBecomesAProgramOfUserInputs) {
  constexpr std::string_view text = R"(graph():
    %s0 : [num_users=1] = placeholder[target=s0]
    %x : Tensor "f32[s0, 8][8, 1]cpu"[num_users=2] = placeholder[target=x]
    %w : Tensor "f32[8][1]cpu"[num_users=1] = placeholder[target=w]
    %var_mean : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%x, [1]), kwargs = {correction: 0, keepdim: True})
    %getitem : [num_users=1] = call_function[target=operator.getitem](args = (%var_mean, 0), kwargs = {})
    %getitem_1 : [num_users=1] = call_function[target=operator.getitem](args = (%var_mean, 1), kwargs = {})
    %sub : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x, %getitem_1), kwargs = {})
    %mul : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub, %w), kwargs = {})
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul, %getitem), kwargs = {})
    %mul_1 : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add, %s0), kwargs = {})
    return (mul_1,))";
  auto g = parseFxText(text, "t.graph.txt");
  ASSERT_TRUE(g) << g.error().str();
  g->find("s0")->value().v = SymExpr::symbol("s0");
  Graph back = roundTrip(*g);
  // The same graph; its types are values now, which plain FX text does not print (as
  // str(ep.graph) does not).
  std::string plain(text);
  for (std::string_view annotation :
       {R"(Tensor "f32[s0, 8][8, 1]cpu")", R"(Tensor "f32[8][1]cpu")"})
    plain.erase(plain.find(annotation), annotation.size());
  EXPECT_EQ(printFxText(back), plain);
  const ExportedProgram *p = exportedProgramOf(back);
  ASSERT_NE(p, nullptr);
  ASSERT_EQ(p->inputs.size(), 3u);
  for (const ProgramInputSpec &s : p->inputs)
    EXPECT_EQ(s.kind, InputKind::UserInput);
  // Inferred types were written; the symbol got PyTorch's default range and an example value.
  EXPECT_EQ(back.find("mul_1")->value().tensor()->str(), "f32[s0, 8][8, 1]cpu");
  EXPECT_EQ(back.find("s0")->value().sym()->str(), "s0");
  EXPECT_EQ(p->ranges.at("s0"), (RangeConstraint{2, std::nullopt}));
  EXPECT_EQ(p->hints.at("s0"), 17);
  // What torch.export.load needs to call it: a module call signature with the inputs.
  Json mcg = Json::parse(p->moduleCallGraph);
  EXPECT_EQ(mcg[0]["signature"]["forward_arg_names"], (Json{"s0", "x", "w"}));
}

TEST(Pt2Writer, RefusesWhatTheFormatCannotHold) {
  auto g = parseFxText(R"(graph():
    %x : Tensor "f32[4][1]cpu"[num_users=1] = placeholder[target=x]
    %y : [num_users=1] = call_method[target=relu](args = (%x,), kwargs = {})
    return (y,))");
  ASSERT_TRUE(g);
  auto bytes = writePt2(*g);
  ASSERT_FALSE(bytes);
  EXPECT_NE(bytes.error().message.find("node 'y'"), std::string::npos) << bytes.error().message;
  auto untyped = parseFxText(R"(graph():
    %x : [num_users=1] = placeholder[target=x]
    %y : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})
    return (y,))");
  ASSERT_TRUE(untyped);
  EXPECT_FALSE(writePt2(*untyped));
}

// ---- errors ----

TEST(Pt2Errors, AreLocated) {
  Json bad = handBuiltProgram();
  bad["graph_module"]["graph"]["nodes"][2]["inputs"][1]["arg"] = Json{{"as_pony", 1}};
  auto g = importPt2(archiveWith(bad.dump(1)), "bad.pt2");
  ASSERT_FALSE(g);
  EXPECT_NE(g.error().str().find("bad.pt2[hand/models/model.json]:"), std::string::npos)
      << g.error().str();
  EXPECT_NE(g.error().message.find("unknown argument kind 'as_pony'"), std::string::npos);
  EXPECT_GT(g.error().loc.line, 1);

  auto syntax = importPt2(archiveWith("{\"graph_module\": ["), "s.pt2");
  ASSERT_FALSE(syntax);
  EXPECT_EQ(syntax.error().loc.file, "s.pt2[hand/models/model.json]");
  EXPECT_EQ(syntax.error().loc.line, 1);

  Json v9 = handBuiltProgram();
  v9["schema_version"]["major"] = 9;
  auto major = importPt2(archiveWith(v9.dump()), "v.pt2");
  ASSERT_FALSE(major);
  EXPECT_NE(major.error().message.find("schema version 9.17"), std::string::npos);

  Json undefined = handBuiltProgram();
  undefined["graph_module"]["graph"]["nodes"][3]["inputs"][0]["arg"] = t("nowhere");
  auto u = importPt2(archiveWith(undefined.dump()), "u.pt2");
  ASSERT_FALSE(u);
  EXPECT_NE(u.error().message.find("'nowhere' names no value"), std::string::npos);

  zip::Writer w;
  w.add("r/models/model.json", "{}");
  auto noFormat = importPt2(*w.finish(), "n.pt2");
  ASSERT_FALSE(noFormat);
  EXPECT_NE(noFormat.error().message.find("no 'r/archive_format'"), std::string::npos);
  EXPECT_FALSE(importPt2("PK\x03\x04 not really", "z.pt2"));
}

TEST(Pt2Errors, DeepJsonIsALocatedErrorNotACrash) {
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  auto g = importPt2(archiveWith(R"({"graph_module": )" + deep + "}"), "deep.pt2");
  ASSERT_FALSE(g);
  EXPECT_EQ(g.error().loc.file, "deep.pt2[hand/models/model.json]");
  EXPECT_NE(g.error().message.find("JSON nested deeper than 1000 levels"), std::string::npos)
      << g.error().str();
  EXPECT_EQ(g.error().loc.col, 18 + 999);
}

TEST(Pt2Errors, MissingPayloadIsKeptAsAReasonNotAnImportError) {
  zip::Writer w;
  w.add("m/models/model.json", handBuiltProgram().dump());
  w.add("m/archive_format", "pt2");
  Json constants = Json{{"config", Json{{"inv", payload("tensor_0", false, {2}, {1}, 0)}}}};
  w.add("m/data/constants/model_constants_config.json", constants.dump());
  w.add("m/data/constants/tensor_0", floats({1, 2}));
  auto g = importPt2(*w.finish(), "m.pt2");
  ASSERT_TRUE(g) << g.error().str();
  const ExportedProgram *p = exportedProgramOf(*g);
  EXPECT_FALSE(p->weights.at("w").tensor);
  EXPECT_NE(p->weights.at("w").unavailable.find("no payload"), std::string::npos);
  EXPECT_FALSE(writePt2(*g)); // the weight is needed to write the program again
}

/// Every truncation and thousands of random corruptions of archives, and of a model.json
/// packed with right CRCs: each import returns (an error or a graph); none crashes.
TEST(Pt2Errors, TruncatedAndCorruptArchivesNeverCrash) {
  std::string hand = archiveWith(handBuiltProgram().dump());
  for (size_t n = 0; n < hand.size(); n += 7)
    EXPECT_FALSE(importPt2(std::string_view(hand).substr(0, n), "t.pt2")) << n;
  std::string real = readBytes(dataDir() / "misc_ops.core.pt2");
  for (size_t n = 0; n < real.size(); n += real.size() / 97)
    EXPECT_FALSE(importPt2(std::string_view(real).substr(0, n), "t.pt2")) << n;
  std::mt19937 rng(7);
  for (int round = 0; round < 3000; ++round) {
    std::string bytes = hand;
    for (int k = 0, flips = 1 + static_cast<int>(rng() % 4); k < flips; ++k)
      bytes[rng() % bytes.size()] = static_cast<char>(rng());
    (void)importPt2(bytes, "c.pt2");
  }
  std::string model = handBuiltProgram().dump();
  size_t ok = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string m = model;
    for (int k = 0, flips = 1 + static_cast<int>(rng() % 3); k < flips; ++k)
      m[rng() % m.size()] = "{}[]\",:0123456789-aeE. x"[rng() % 24];
    ok += static_cast<bool>(importPt2(archiveWith(m), "j.pt2"));
  }
  EXPECT_LT(ok, 3000u); // most mutations break it; every one returned
}

void pointers(const Json &j, const std::string &at, std::vector<std::string> &out) {
  out.push_back(at);
  if (j.is_object())
    for (auto it = j.begin(); it != j.end(); ++it)
      pointers(it.value(), at + "/" + it.key(), out);
  else if (j.is_array())
    for (size_t k = 0; k < j.size(); ++k)
      pointers(j[k], at + "/" + std::to_string(k), out);
}

/// Every value of the model replaced by a value of each other kind: the reader checks each
/// field's type before using it, so each import returns an error or a graph.
TEST(Pt2Errors, EveryFieldOfTheWrongKindIsAnError) {
  Json model = handBuiltProgram();
  std::vector<std::string> paths;
  pointers(model, "", paths);
  const Json replacements[] = {
      nullptr, 7, -1, "s", Json::array(), Json::object(), Json{{"as_tensor", Json{{"name", "x"}}}},
      1e300};
  size_t imports = 0, errors = 0;
  for (const std::string &p : paths) {
    if (p.empty())
      continue;
    for (const Json &r : replacements) {
      Json m = model;
      m[Json::json_pointer(p)] = r;
      auto g = importPt2(archiveWith(m.dump()), "w.pt2");
      ++imports;
      if (!g) {
        ++errors;
        EXPECT_FALSE(g.error().message.empty()) << p;
      }
    }
  }
  EXPECT_GT(imports, 3000u);
  EXPECT_GT(errors, imports / 2);
}

} // namespace

#else

#include <gtest/gtest.h>

TEST(Pt2, NotBuilt) { GTEST_SKIP() << "PT2 archives need nlohmann-json and zlib"; }

#endif
