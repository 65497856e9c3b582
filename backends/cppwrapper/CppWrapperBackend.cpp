#include "backends/cppwrapper/CppWrapperBackend.h"

#include "backends/cppwrapper/WrapperProgram.h"
#include "backends/opencl/runtime/KernelCache.h"
#include "exporters/Export.h"
#include "exporters/wrapper/WrapperCppWriter.h"

#include <filesystem>
#include <fstream>

#ifndef FXKIT_RUNTIME_CMAKE
#define FXKIT_RUNTIME_CMAKE ""
#endif

namespace fxkit::cppwrapper {

namespace {

/// The folder of the C++ wrapper of the program in the cache (`cpp-wrapper/NAME-HASH` under
/// the OpenCL kernel cache's folder), written there when absent; its object is then built (and
/// kept) on the first load like any `compile -o DIR --build` folder. The hash covers the
/// generated files, so a changed graph or fxkit gets a folder of its own.
Expected<std::string> cachedWrapperFolder(const BackendInput &in, const BackendOptions &options) {
  std::string root = opencl::KernelCache(options.cacheDir, options.cache).dir();
  if (root.empty() || !options.cache)
    return Error("--backend cpp-wrapper without --wrapper DIR builds the wrapper in the kernel "
                 "cache: give --wrapper DIR, or --cache-dir DIR (no HOME, or --no-cache)");
  auto files = writeWrapperCpp(*in.program, *in.fused, *in.plan, options.name, FXKIT_RUNTIME_CMAKE);
  if (!files)
    return files.takeError();
  uint64_t key = opencl::stableHash(files->header);
  key = opencl::stableHash(files->source, key);
  namespace fs = std::filesystem;
  fs::path dir = fs::path(root) / "cpp-wrapper" / (files->name + "-" + opencl::hashHex(key));
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return Error("cannot create the folder '" + dir.string() + "': " + ec.message());
  // Written atomically, each only when it differs: a concurrent run writes the same bytes.
  for (const auto &[file, text] :
       {std::pair<std::string, const std::string *>{files->name + ".h", &files->header},
        {files->name + ".cpp", &files->source},
        {"driver.cpp", &files->driver},
        {"CMakeLists.txt", &files->cmake}}) {
    fs::path path = dir / file;
    std::ifstream in(path, std::ios::binary);
    std::string have((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in && have == *text)
      continue;
    if (Status s = writeFileAtomic(path.string(), *text); !s)
      return s.takeError();
  }
  return dir.string();
}

class CppWrapperExecutable final : public Executable {
public:
  explicit CppWrapperExecutable(std::unique_ptr<WrapperProgram> program)
      : program_(std::move(program)) {}
  Expected<InterpretResult> run(std::span<const RuntimeValue> inputs) override {
    return program_->run(inputs);
  }
  std::vector<double> callSeconds() const override { return program_->callSeconds(); }
  void printStats(std::ostream &err, const RunTimes &times, const BackendOptions &) const override {
    const WrapperLoadStats &st = program_->stats();
    err << "cpp-wrapper: " << st.build.objectPath << ": ";
    if (st.build.cached)
      err << "cached";
    else
      err << "built in " << st.build.seconds << " s (" << wrapperCompilerDescription() << ")"
          << (st.build.replacedCorrupt ? ", replaced a corrupt object" : "");
    err << "; loaded in " << st.loadSeconds << " s (ORC)\n"
        << "cpp-wrapper: " << program_->deviceName() << "\n"
        << "cpp-wrapper: " << program_->runtimeStats() << "\n";
    printRunTimes(err, "cpp-wrapper", times);
  }

private:
  std::unique_ptr<WrapperProgram> program_;
};

class CppWrapperBackend final : public Backend {
public:
  std::string name() const override { return "cpp-wrapper"; }
  std::string description() const override {
    return "the graph's C++ wrapper compiled in process and loaded; kept in the kernel cache, "
           "or --wrapper DIR";
  }
  Status available() const override { return Status::ok(); }
  /// Only to write the graph's own wrapper: a `--wrapper DIR` folder holds its program.
  bool needsProgram(const BackendOptions &options) const override {
    return options.wrapper.empty();
  }
  Expected<std::unique_ptr<Executable>> prepare(const BackendInput &in,
                                                const BackendOptions &options) const override {
    std::string folder = options.wrapper;
    if (folder.empty()) {
      auto cached = cachedWrapperFolder(in, options);
      if (!cached)
        return cached.takeError();
      folder = cached.take();
    }
    rt::RuntimeOptions rtOptions;
    rtOptions.device = options.device;
    rtOptions.cacheDir = options.cacheDir;
    rtOptions.cache = options.cache;
    rtOptions.tune = options.tune;
    auto program = WrapperProgram::load(folder, rtOptions);
    if (!program)
      return program.takeError();
    return std::unique_ptr<Executable>(new CppWrapperExecutable(program.take()));
  }
};

} // namespace

std::unique_ptr<Backend> makeCppWrapperBackend() { return std::make_unique<CppWrapperBackend>(); }

} // namespace fxkit::cppwrapper
