#include "backends/llvm/LLVMBackend.h"

#include "backends/llvm/LLVMProgram.h"

namespace fxkit::llvmjit {

namespace {

class LLVMExecutable final : public Executable {
public:
  explicit LLVMExecutable(std::unique_ptr<LLVMProgram> program) : program_(std::move(program)) {}
  Expected<InterpretResult> run(std::span<const RuntimeValue> inputs) override {
    return program_->run(inputs);
  }
  Expected<InterpretResult> runTapped(std::span<const RuntimeValue> inputs,
                                      const KernelTap &tap) override {
    return program_->run(inputs, tap);
  }
  /// load() only starts compiling: the first run waits for it.
  bool firstRunCountsLoad() const override { return true; }
  double kernelSeconds() const override { return program_->stats().kernelSeconds; }
  void printWarnings(std::ostream &err) const override {
    if (const LLVMStats &st = program_->stats(); st.cacheWriteFailures > 0)
      err << "fxkit: warning: " << st.cacheWriteError << " (" << st.cacheWriteFailures
          << " kernel objects not cached; the run is unaffected)\n";
  }
  void printStats(std::ostream &err, const RunTimes &times,
                  const BackendOptions &options) const override {
    const LLVMStats &st = program_->stats();
    err << "llvm: " << program_->deviceDescription() << "\n"
        << "llvm: kernels compiled " << st.kernelsCompiled << ", from cache " << st.kernelsFromCache
        << "; launches " << st.launches << ", matrix products " << st.matrixProducts
        << ", reference extern calls " << st.hostExterns << "; corrupt cache entries "
        << st.corruptCacheEntries << "; compile " << st.compileSeconds << " s, waited "
        << st.waitSeconds << " s\n";
    KernelTimes kernels{st.kernelSeconds, st.launches};
    printRunTimes(err, "llvm", times, options.profile ? &kernels : nullptr);
  }

private:
  std::unique_ptr<LLVMProgram> program_;
};

class LLVMBackend final : public Backend {
public:
  std::string name() const override { return "llvm"; }
  std::string description() const override {
    return "the same kernels compiled by Clang for this CPU";
  }
  Status available() const override { return Status::ok(); }
  bool needsProgram(const BackendOptions &) const override { return true; }
  Expected<std::unique_ptr<Executable>> prepare(const BackendInput &in,
                                                const BackendOptions &options) const override {
    LLVMOptions llvmOptions;
    llvmOptions.cache = options.cache;
    llvmOptions.cacheDir = options.cacheDir;
    llvmOptions.profile = options.profile;
    auto program = LLVMProgram::load(*in.program, *in.fused, *in.plan, llvmOptions);
    if (!program)
      return program.takeError();
    return std::unique_ptr<Executable>(new LLVMExecutable(program.take()));
  }
};

} // namespace

std::unique_ptr<Backend> makeLLVMBackend() { return std::make_unique<LLVMBackend>(); }

} // namespace fxkit::llvmjit
