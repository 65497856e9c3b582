/// C++ compiled in process (backends/llvm/CppCompiler) and loaded by ORC (JitObject): a TU that
/// uses libstdc++ runs, its static constructors run at load and its destructors (global,
/// function-local through __cxa_atexit, and __attribute__((destructor))) run at unload in the
/// C++ order, and a broken TU fails with Clang's diagnostics naming file:line:col.

#include "backends/llvm/CppCompiler.h"
#include "backends/llvm/JitObject.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace fxkit;
using namespace fxkit::llvmjit;
namespace fs = std::filesystem;

namespace {

/// A source file in a fresh temporary folder, removed at the end.
struct TempSource {
  fs::path dir, path;
  explicit TempSource(const std::string &text) {
    dir = fs::temp_directory_path() /
          ("fxkit-cpp-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
           "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
    path = dir / "unit.cpp";
    std::ofstream(path) << text;
  }
  ~TempSource() { fs::remove_all(dir); }
};

constexpr const char *kStructors = R"(#include <string>
#include <vector>
extern "C" {
int *sink = nullptr; // the test's counter: each destructor appends its digit
int initialised = 0;
}
namespace {
struct Probe {
  std::string text;
  Probe() : text("constructed") { initialised = static_cast<int>(text.size()); }
  ~Probe() { if (sink) *sink = *sink * 10 + 1; }
} probe;
struct Local {
  ~Local() { if (sink) *sink = *sink * 10 + 2; }
};
__attribute__((destructor)) void last() { if (sink) *sink = *sink * 10 + 3; }
} // namespace
extern "C" int joinedLength(int n) {
  static Local local; // registered with __cxa_atexit on first call
  std::vector<std::string> words(static_cast<size_t>(n), "ab");
  std::string all;
  for (const std::string &w : words)
    all += w;
  return static_cast<int>(all.size());
}
)";

TEST(CppCompiler, StaticConstructorsAndDestructorsRunInTheJit) {
  TempSource src(kStructors);
  CppCompileRequest request;
  request.sourcePath = src.path.string();
  auto object = compileCppToObject(request);
  ASSERT_TRUE(object) << object.error().str();
  int counter = 0;
  {
    auto jit = JitObject::load(*object, "unit.o");
    ASSERT_TRUE(jit) << jit.error().str();
    auto initialised = (*jit)->lookup("initialised");
    auto sink = (*jit)->lookup("sink");
    auto joined = (*jit)->lookup("joinedLength");
    ASSERT_TRUE(initialised && sink && joined);
    EXPECT_EQ(*static_cast<int *>(*initialised), 11) << "the global constructor did not run";
    *static_cast<int **>(*sink) = &counter;
    EXPECT_EQ(reinterpret_cast<int (*)(int)>(*joined)(5), 10);
    EXPECT_EQ(counter, 0) << "nothing is destroyed before unload";
  }
  // As exit() orders them: objects in reverse order of construction (the function-local static,
  // then the global), then `__attribute__((destructor))` functions.
  EXPECT_EQ(counter, 213);
  auto missing = JitObject::load(*object, "unit.o");
  ASSERT_TRUE(missing);
  EXPECT_FALSE((*missing)->lookup("noSuchSymbol"));
}

TEST(CppCompiler, DiagnosticsNameFileLineAndColumn) {
  TempSource src("int ok() { return 1; }\n\nint broken() {\n  return undeclared_name;\n}\n");
  CppCompileRequest request;
  request.sourcePath = src.path.string();
  auto object = compileCppToObject(request);
  ASSERT_FALSE(object);
  const std::string &message = object.error().message;
  EXPECT_NE(message.find(src.path.string() + ":4:10: error: use of undeclared identifier "
                                             "'undeclared_name'"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("(1 error)"), std::string::npos) << message;
}

TEST(CppCompiler, UnresolvedSymbolsAreALinkError) {
  TempSource src("extern \"C\" int fxkit_nowhere_defined(int);\n"
                 "extern \"C\" int call(int x) { return fxkit_nowhere_defined(x); }\n");
  CppCompileRequest request;
  request.sourcePath = src.path.string();
  auto object = compileCppToObject(request);
  ASSERT_TRUE(object) << object.error().str();
  auto jit = JitObject::load(*object, "unit.o");
  Expected<void *> call = jit ? (*jit)->lookup("call") : Expected<void *>(jit.error());
  ASSERT_FALSE(call);
  EXPECT_NE(call.error().message.find("fxkit_nowhere_defined"), std::string::npos)
      << call.error().message;
}

TEST(CppCompiler, IdentityChangesWithFlags) {
  CppCompileRequest a, b;
  a.sourcePath = b.sourcePath = "x.cpp";
  b.optLevel = "-O0";
  EXPECT_NE(cppCompilerIdentity(a), cppCompilerIdentity(b));
  EXPECT_NE(cppCompilerDescription(a).find("-std=c++17 -O2"), std::string::npos);
}

} // namespace
