/// The exported C++ wrapper built in process (backends/cppwrapper): the first build compiles,
/// the second is a cache hit, a corrupt object and an edited source are rebuilt, a broken
/// source fails with Clang's file:line:col and leaves the last good object; the loaded wrapper
/// computes what the reference interpreter computes (on the default OpenCL device).

#include "backends/cppwrapper/WrapperBuild.h"
#include "backends/cppwrapper/WrapperProgram.h"
#include "exporters/Export.h"
#include "exporters/wrapper/WrapperCppWriter.h"
#include "importers/Import.h"
#include "transforms/Pass.h"

#include "WrapperTestGraphs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

using namespace fxkit;
using namespace fxkit::cppwrapper;
namespace fs = std::filesystem;

namespace {

using fxkit::testgraphs::kSumDivRelu;

/// The wrapper of kSumDivRelu exported into a fresh folder, removed at the end.
struct ExportedWrapper {
  fs::path dir;
  ExportedWrapper() {
    dir = fs::temp_directory_path() /
          ("fxkit-cppwrapper-test-" +
           std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
    auto graph = importGraph(kSumDivRelu, GraphFormat::FxText, "sumdiv.graph.txt");
    EXPECT_TRUE(graph) << graph.error().str();
    auto runs = runPipeline(*graph, {"lower", "fuse", "plan", "wrapper"});
    EXPECT_TRUE(runs) << runs.error().str();
    auto files = writeWrapperCpp(*graph, "sumdiv", "");
    EXPECT_TRUE(files) << files.error().str();
    EXPECT_TRUE(writeFileAtomic((dir / "sumdiv.h").string(), files->header));
    EXPECT_TRUE(writeFileAtomic((dir / "sumdiv.cpp").string(), files->source));
  }
  ~ExportedWrapper() { fs::remove_all(dir); }
  std::string file(const std::string &name) const {
    std::ifstream in(dir / name, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  void append(const std::string &name, const std::string &text) const {
    std::ofstream(dir / name, std::ios::app | std::ios::binary) << text;
  }
};

TEST(CppWrapperBuild, CachedUntilSourcesChangeOrTheObjectIsCorrupt) {
  ExportedWrapper w;
  auto name = wrapperNameIn(w.dir.string());
  ASSERT_TRUE(name) << name.error().str();
  EXPECT_EQ(*name, "sumdiv");

  auto first = buildWrapper(w.dir.string());
  ASSERT_TRUE(first) << first.error().str();
  EXPECT_FALSE(first->cached);
  EXPECT_GT(first->seconds, 0);
  EXPECT_EQ(first->objectPath, (w.dir / "sumdiv.o").string());
  EXPECT_EQ(w.file("sumdiv.o").substr(0, 4), "\x7f"
                                             "ELF");
  EXPECT_EQ(w.file("sumdiv.o").size(), first->object.size());

  auto second = buildWrapper(w.dir.string());
  ASSERT_TRUE(second) << second.error().str();
  EXPECT_TRUE(second->cached);
  EXPECT_EQ(second->seconds, 0);
  EXPECT_EQ(second->object, first->object);

  // One byte changed in the object: detected by its checksum, rebuilt, never loaded.
  {
    std::string bytes = w.file("sumdiv.o");
    bytes[bytes.size() / 2] ^= 0x5a;
    std::ofstream(w.dir / "sumdiv.o", std::ios::binary | std::ios::trunc) << bytes;
  }
  auto repaired = buildWrapper(w.dir.string());
  ASSERT_TRUE(repaired) << repaired.error().str();
  EXPECT_FALSE(repaired->cached);
  EXPECT_TRUE(repaired->replacedCorrupt);
  EXPECT_EQ(w.file("sumdiv.o"), std::string(first->object.begin(), first->object.end()));

  // An edited source is a different key.
  w.append("sumdiv.cpp", "\n// edited\n");
  auto edited = buildWrapper(w.dir.string());
  ASSERT_TRUE(edited) << edited.error().str();
  EXPECT_FALSE(edited->cached);
  EXPECT_FALSE(edited->replacedCorrupt);
}

TEST(CppWrapperBuild, BrokenSourceGivesClangDiagnosticsAndKeepsTheLastObject) {
  ExportedWrapper w;
  auto good = buildWrapper(w.dir.string());
  ASSERT_TRUE(good) << good.error().str();
  std::string object = w.file("sumdiv.o"), stamp = w.file("sumdiv.o.stamp");
  std::string source = w.file("sumdiv.cpp");
  size_t lines = static_cast<size_t>(std::count(source.begin(), source.end(), '\n'));
  w.append("sumdiv.cpp", "int broken() { return no_such_name; }\n");
  auto bad = buildWrapper(w.dir.string());
  ASSERT_FALSE(bad);
  std::string where =
      (w.dir / "sumdiv.cpp").string() + ":" + std::to_string(lines + 1) + ":23: error";
  EXPECT_NE(bad.error().message.find(where), std::string::npos) << bad.error().message;
  EXPECT_EQ(w.file("sumdiv.o"), object);
  EXPECT_EQ(w.file("sumdiv.o.stamp"), stamp);
  for (const fs::directory_entry &e : fs::directory_iterator(w.dir))
    EXPECT_EQ(e.path().string().find(".tmp"), std::string::npos) << e.path();
}

TEST(CppWrapperBuild, NotAWrapperFolder) {
  auto none = buildWrapper((fs::temp_directory_path() / "fxkit-no-such-wrapper-folder").string());
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("is not a folder"), std::string::npos);
}

TEST(CppWrapperProgram, LoadedWrapperMatchesTheInterpreter) {
  ExportedWrapper w;
  rt::RuntimeOptions options;
  options.cacheDir = (w.dir / "cache").string();
  auto program = WrapperProgram::load(w.dir.string(), options);
  if (!program && program.error().message.find("OpenCL") != std::string::npos)
    GTEST_SKIP() << "no OpenCL device: " << program.error().message;
  ASSERT_TRUE(program) << program.error().str();
  EXPECT_FALSE((*program)->stats().build.cached);
  EXPECT_EQ((*program)->numInputs(), 1u);

  registerReferenceKernels();
  auto graph = importGraph(kSumDivRelu, GraphFormat::FxText, "sumdiv.graph.txt");
  ASSERT_TRUE(graph);
  auto inputs = makeRandomInputs(*graph, {}, 7);
  ASSERT_TRUE(inputs) << inputs.error().str();
  auto want = interpretGraph(*graph, *inputs);
  ASSERT_TRUE(want) << want.error().str();
  for (int run = 0; run < 2; ++run) {
    auto got = (*program)->run(*inputs);
    ASSERT_TRUE(got) << got.error().str();
    ASSERT_EQ(got->outputs.size(), 1u);
    const Tensor *a = got->outputs[0].tensor();
    const Tensor *b = want->outputs[0].tensor();
    ASSERT_TRUE(a && b);
    ASSERT_EQ(a->sizes(), b->sizes());
    Tensor::forEachIndex(a->sizes(), [&](std::span<const int64_t> idx) {
      EXPECT_NEAR(a->getDouble(idx), b->getDouble(idx), 1e-5 * (1 + std::abs(b->getDouble(idx))));
    });
  }
  auto wrongArity = (*program)->run({});
  ASSERT_FALSE(wrongArity);
  EXPECT_NE(wrongArity.error().message.find("takes 1 inputs, got 0"), std::string::npos);
}

} // namespace
