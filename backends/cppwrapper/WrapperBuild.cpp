#include "backends/cppwrapper/WrapperBuild.h"

#include "backends/llvm/CppCompiler.h"
#include "backends/opencl/runtime/KernelCache.h"
#include "exporters/Export.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>

#ifndef FXKIT_SOURCE_DIR
#error "FXKIT_SOURCE_DIR must name fxkit's source folder (the wrapper runtime's headers)"
#endif

namespace fxkit::cppwrapper {

namespace fs = std::filesystem;

namespace {

constexpr const char *kStampMagic = "fxkit wrapper object 1";

std::optional<std::string> readFile(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

llvmjit::CppCompileRequest requestFor(const fs::path &source) {
  llvmjit::CppCompileRequest request;
  request.sourcePath = source.string();
  request.includeDirs = {FXKIT_SOURCE_DIR};
  return request;
}

/// "object HASH SIZE" of `bytes`.
std::string objectChecksum(std::string_view bytes) {
  return opencl::hashHex(opencl::stableHash(bytes)) + " " + std::to_string(bytes.size());
}

} // namespace

std::string wrapperCompilerDescription() {
  return llvmjit::cppCompilerDescription(requestFor("wrapper.cpp"));
}

Expected<std::string> wrapperNameIn(const std::string &dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return Error("'" + dir +
                 "' is not a folder written by `fxkit compile G -o DIR --to "
                 "wrapper-cpp`");
  std::vector<std::string> names;
  for (const fs::directory_entry &e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".h" && fs::exists(fs::path(e.path()).replace_extension(".cpp")))
      names.push_back(e.path().stem().string());
  if (ec)
    return Error("cannot list '" + dir + "': " + ec.message());
  if (names.size() != 1)
    return Error("'" + dir + "' holds " + std::to_string(names.size()) +
                 " wrappers (NAME.h with NAME.cpp); expected one, as `fxkit compile G -o DIR "
                 "--to wrapper-cpp` writes");
  return names.front();
}

Expected<WrapperBuildResult> buildWrapper(const std::string &dir, const std::string &nameIn) {
  std::string name = nameIn;
  if (name.empty()) {
    auto found = wrapperNameIn(dir);
    if (!found)
      return found.takeError();
    name = found.take();
  }
  fs::path folder(dir);
  fs::path source = folder / (name + ".cpp"), header = folder / (name + ".h");
  fs::path object = folder / (name + ".o"), stamp = folder / (name + ".o.stamp");
  auto sourceText = readFile(source), headerText = readFile(header);
  if (!sourceText || !headerText)
    return Error("cannot read " + (sourceText ? header : source).string() +
                 ": export the wrapper first (fxkit compile G -o DIR --to wrapper-cpp)");
  auto runtimeHeader = readFile(fs::path(FXKIT_SOURCE_DIR) / "backends/opencl/rt/WrapperRuntime.h");
  if (!runtimeHeader)
    return Error("cannot read fxkit's runtime header under " + std::string(FXKIT_SOURCE_DIR));
  llvmjit::CppCompileRequest request = requestFor(source);
  uint64_t h = opencl::stableHash(*sourceText);
  h = opencl::stableHash(*headerText, h);
  h = opencl::stableHash(*runtimeHeader, h);
  h = opencl::stableHash(llvmjit::cppCompilerIdentity(request), h);
  std::string key = opencl::hashHex(h);

  WrapperBuildResult result;
  result.name = name;
  result.objectPath = object.string();
  // Up to date: the stamp names this key and the object still has its checksum.
  if (auto stampText = readFile(stamp)) {
    std::istringstream in(*stampText);
    std::string magic, keyLine, objectLine;
    std::getline(in, magic);
    std::getline(in, keyLine);
    std::getline(in, objectLine);
    if (magic == kStampMagic && keyLine == "key " + key) {
      auto bytes = readFile(object);
      if (bytes && objectLine == "object " + objectChecksum(*bytes)) {
        result.cached = true;
        result.object.assign(bytes->begin(), bytes->end());
        return result;
      }
      result.replacedCorrupt = bytes.has_value();
    }
  }
  auto t0 = std::chrono::steady_clock::now();
  auto compiled = llvmjit::compileCppToObject(request);
  if (!compiled)
    return compiled.takeError();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  result.object = compiled.take();
  std::string_view bytes(result.object.data(), result.object.size());
  if (Status s = writeFileAtomic(object.string(), bytes); !s)
    return s.takeError();
  if (Status s = writeFileAtomic(stamp.string(), std::string(kStampMagic) + "\nkey " + key +
                                                     "\nobject " + objectChecksum(bytes) + "\n");
      !s)
    return s.takeError();
  return result;
}

} // namespace fxkit::cppwrapper
