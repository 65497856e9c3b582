#include "backends/opencl/runtime/OpenCLBackend.h"

#include "backends/opencl/runtime/OpenCLProgram.h"

namespace fxkit::opencl {

namespace {

class OpenCLExecutable final : public Executable {
public:
  Expected<InterpretResult> run(std::span<const RuntimeValue> inputs) override {
    return program->run(inputs);
  }
  Expected<InterpretResult> runTapped(std::span<const RuntimeValue> inputs,
                                      const KernelTap &tap) override {
    return program->run(inputs, tap);
  }
  double kernelSeconds() const override { return program->stats().kernelSeconds; }
  Status setResidentInputs(std::vector<bool> which) override {
    return program->setResidentInputs(std::move(which));
  }
  void inputChanged(size_t i) override { program->inputChanged(i); }
  Expected<InterpretResult> runOnDevice(std::span<const RuntimeValue> inputs) override {
    return program->runOnDevice(inputs);
  }
  Expected<InterpretResult> fetchOutputs() override { return program->fetchOutputs(); }
  void synchronize() override { program->sync(); }
  std::vector<double> callSeconds() const override { return program->callSeconds(); }
  const TransferStats *transfers() const override { return &program->transfers(); }
  void printWarnings(std::ostream &err) const override {
    if (const OpenCLStats &st = program->stats(); st.cacheWriteFailures > 0)
      err << "fxkit: warning: " << st.cacheWriteError << " (" << st.cacheWriteFailures
          << " kernel binaries not cached; the run is unaffected)\n";
    if (const OpenCLStats &st = program->stats(); st.kernelsWithWarnings > 0)
      err << "fxkit: warning: the OpenCL compiler warned on " << st.kernelsWithWarnings
          << " generated kernel" << (st.kernelsWithWarnings == 1 ? "" : "s")
          << " (the results are unaffected; please report it), first " << st.firstWarning << "\n";
  }
  void printStats(std::ostream &err, const RunTimes &times,
                  const BackendOptions &options) const override {
    const OpenCLStats &st = program->stats();
    err << "opencl: " << device.str() << "\n"
        << "opencl: kernels built " << st.kernelsBuilt << ", from cache " << st.kernelsFromCache
        << "; configurations tuned " << st.configsTuned << ", from cache " << st.configsFromCache
        << "; launches " << st.launches << "; CLBlast calls " << st.blasCalls
        << ", GEMM template calls " << st.gemmTemplateCalls << " (split along k "
        << st.gemmSplitCalls << ", epilogues fused " << st.gemmEpilogues
        << "), device extern calls " << st.deviceExterns << ", host extern calls " << st.hostExterns
        << "; corrupt cache entries " << st.corruptCacheEntries << "; build " << st.buildSeconds
        << " s, waited " << st.waitSeconds << " s\n";
    if (st.variantsTimed > 0)
      err << "opencl: multi-kernel: " << st.variantsTimed
          << " kernel shapes timed against their variants, a variant faster in "
          << st.variantsChosen << "\n";
    if (st.constantBuilds > 0)
      err << "opencl: launch constants: " << st.constantBuilds
          << " builds for one configuration, kept for " << st.constantsChosen << " kernel shapes\n";
    KernelTimes kernels{st.kernelSeconds, st.launches};
    printRunTimes(err, "opencl", times, options.profile ? &kernels : nullptr);
    // Where a call's time goes besides the generated kernels: the extern ops by what ran them,
    // per run after the first (whose shapes were tuned), or the first where it ran alone.
    if (options.profile && !st.externSecondsByRun.empty()) {
      const auto &runs = st.externSecondsByRun;
      size_t from = runs.size() > 1 ? 1 : 0;
      OpenCLStats::ExternSeconds mean;
      for (size_t r = from; r < runs.size(); ++r) {
        mean.gemmTemplate += runs[r].gemmTemplate;
        mean.blas += runs[r].blas;
        mean.deviceKernels += runs[r].deviceKernels;
      }
      double n = static_cast<double>(runs.size() - from);
      err << "opencl: " << (from ? "later runs' " : "the run's ") << "extern ops (device time"
          << (from ? ", each" : "") << "): GEMM template " << mean.gemmTemplate / n
          << " s, CLBlast " << mean.blas / n << " s, device kernels " << mean.deviceKernels / n
          << " s\n";
    }
    printTransfers(err, "opencl", program->transfers());
    for (const auto &[kernel, config] : program->chosenConfigs())
      err << "opencl: " << kernel << ": " << config << "\n";
  }

  DeviceInfo device;
  // Declared before the program: the program is destroyed first.
  std::unique_ptr<OpenCLContext> context;
  std::unique_ptr<OpenCLProgram> program;
};

class OpenCLBackend final : public Backend {
public:
  std::string name() const override { return "opencl"; }
  std::string description() const override { return "compiled kernels"; }
  Status available() const override { return Status::ok(); }
  bool needsProgram(const BackendOptions &) const override { return true; }
  Expected<std::unique_ptr<Executable>> prepare(const BackendInput &in,
                                                const BackendOptions &options) const override {
    auto device = selectDevice(options.device);
    if (!device)
      return device.takeError();
    auto context = OpenCLContext::create(*device);
    if (!context)
      return context.takeError();
    auto exe = std::make_unique<OpenCLExecutable>();
    exe->device = device.take();
    exe->context = context.take();
    OpenCLOptions clOptions;
    clOptions.tune = options.tune;
    clOptions.cache = options.cache;
    clOptions.cacheDir = options.cacheDir;
    clOptions.profile = options.profile;
    auto program = OpenCLProgram::load(*exe->context, *in.program, *in.fused, *in.plan, clOptions);
    if (!program)
      return program.takeError();
    exe->program = program.take();
    return std::unique_ptr<Executable>(std::move(exe));
  }
  Expected<std::vector<std::string>> devices() const override {
    auto devices = listDevices();
    if (!devices)
      return devices.takeError();
    if (devices->empty())
      return std::vector<std::string>{
          "no OpenCL devices (no platform is registered with the ICD loader)"};
    auto chosen = selectDevice("");
    std::vector<std::string> lines;
    for (const DeviceInfo &d : *devices)
      lines.push_back(d.str() + (chosen && chosen->index == d.index ? "  [default]" : ""));
    return lines;
  }
};

} // namespace

std::unique_ptr<Backend> makeOpenCLBackend() { return std::make_unique<OpenCLBackend>(); }

} // namespace fxkit::opencl
