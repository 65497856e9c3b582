/// The backend registry: one line per backend. The `#if`s of the whole command line live here:
/// CMake builds a backend's library only where its dependencies are, and defines its
/// FXKIT_HAVE_* on the libraries that link it; a backend not built is still listed, with what
/// to install.
#include "backends/Backend.h"

#include "backends/interp/InterpBackends.h"

#ifdef FXKIT_HAVE_OPENCL
#include "backends/opencl/runtime/OpenCLBackend.h"
#endif
#ifdef FXKIT_HAVE_LLVM
#include "backends/llvm/LLVMBackend.h"
#endif
#ifdef FXKIT_HAVE_CPP_WRAPPER_BUILD
#include "backends/cppwrapper/CppWrapperBackend.h"
#endif

#include <chrono>

namespace fxkit {

namespace {

/// A backend this fxkit was built without: listed, refused with `reason`.
class MissingBackend final : public Backend {
public:
  MissingBackend(std::string name, std::string description, std::string reason)
      : name_(std::move(name)), description_(std::move(description)), reason_(std::move(reason)) {}
  std::string name() const override { return name_; }
  std::string description() const override { return description_; }
  Status available() const override { return Error(reason_); }
  bool needsProgram(const BackendOptions &) const override { return false; }
  Expected<std::unique_ptr<Executable>> prepare(const BackendInput &,
                                                const BackendOptions &) const override {
    return Error(reason_);
  }
  Expected<std::vector<std::string>> devices() const override { return Error(reason_); }

private:
  std::string name_, description_, reason_;
};

[[maybe_unused]] std::unique_ptr<Backend> missing(const char *name, const char *description,
                                                  const char *reason) {
  return std::make_unique<MissingBackend>(name, description, reason);
}

[[maybe_unused]] constexpr const char *kNoLlvm =
    "this fxkit was built without LLVM (install llvm-15-dev libclang-15-dev and rebuild)";

std::vector<std::unique_ptr<Backend>> makeRegistry() {
  std::vector<std::unique_ptr<Backend>> list;
  list.push_back(makeInterpBackend());
  list.push_back(makeLoopsBackend());
#ifdef FXKIT_HAVE_OPENCL
  list.push_back(opencl::makeOpenCLBackend());
#else
  list.push_back(
      missing("opencl", "compiled kernels",
              "this fxkit was built without OpenCL (install ocl-icd-opencl-dev and rebuild)"));
#endif
#ifdef FXKIT_HAVE_LLVM
  list.push_back(llvmjit::makeLLVMBackend());
#else
  list.push_back(missing("llvm", "the same kernels compiled by Clang for this CPU", kNoLlvm));
#endif
#ifdef FXKIT_HAVE_CPP_WRAPPER_BUILD
  list.push_back(cppwrapper::makeCppWrapperBackend());
#else
  list.push_back(missing(
      "cpp-wrapper",
      "the graph's C++ wrapper compiled in process and loaded; kept in the kernel cache, or "
      "--wrapper DIR",
      "--backend cpp-wrapper compiles the C++ wrapper with the LLVM component: this fxkit was "
      "built without it (install llvm-15-dev libclang-15-dev and rebuild)"));
#endif
  return list;
}

} // namespace

const std::vector<std::unique_ptr<Backend>> &backendRegistry() {
  static const std::vector<std::unique_ptr<Backend>> registry = makeRegistry();
  return registry;
}

std::string backendNames() {
  const auto &list = backendRegistry();
  std::string out;
  for (size_t i = 0; i < list.size(); ++i)
    out += (i == 0 ? "" : i + 1 == list.size() ? " or " : ", ") + list[i]->name();
  return out;
}

std::string backendHelp() {
  const auto &list = backendRegistry();
  std::string out;
  for (size_t i = 0; i < list.size(); ++i)
    out += (i == 0                 ? ""
            : i + 1 == list.size() ? " or "
                                   : ", ") +
           list[i]->name() + " (" + list[i]->description() + ")";
  return out;
}

Expected<const Backend *> findBackend(const std::string &name) {
  for (const auto &b : backendRegistry())
    if (b->name() == name)
      return b.get();
  return Error("unknown backend '" + name + "' (expected " + backendNames() + ")");
}

void printRunTimes(std::ostream &err, const std::string &name, const RunTimes &times,
                   const KernelTimes *kernels) {
  err << name << ": first run " << times.firstRun << " s";
  if (times.repeat > 1)
    err << ", later runs " << (times.total - times.firstRun) / (times.repeat - 1) << " s each";
  if (kernels) {
    err << "; kernel time " << kernels->seconds << " s over " << kernels->launches << " launches";
    if (times.repeat > 1)
      err << ", later runs' kernels "
          << (kernels->seconds - times.firstKernels) / (times.repeat - 1) << " s each";
  }
  err << "\n";
  if (times.deviceCalls.empty())
    return;
  // Queue timestamps around each run, as CUDA events time PyTorch; the wall time beyond them
  // is the host's (enqueueing, copies it waited for, reading results).
  const std::vector<double> &d = times.deviceCalls;
  err << name << ": device time per run (queue events): first " << d.front() << " s";
  if (d.size() > 1) {
    double later = 0;
    for (size_t i = 1; i < d.size(); ++i)
      later += d[i];
    later /= static_cast<double>(d.size() - 1);
    err << ", later runs " << later << " s each";
    if (times.repeat > 1) {
      double wall = (times.total - times.firstRun) / (times.repeat - 1);
      err << "; host beyond the device " << std::max(0.0, wall - later) << " s each";
    }
  }
  err << "\n";
}

void printTransfers(std::ostream &err, const std::string &name, const TransferStats &t) {
  err << name << ": " << t.calls << (t.calls == 1 ? " run" : " runs")
      << ": inputs copied to the device " << t.inputUploads << " (" << t.inputUploadBytes
      << " bytes), kept there " << t.inputsKept << "; outputs read " << t.outputReads << " ("
      << t.outputReadBytes << " bytes); other copies " << t.otherCopies << " (" << t.otherCopyBytes
      << " bytes); device allocations " << t.allocations << "; host waits " << t.hostWaits << "\n";
}

Expected<InterpretResult> runRepeated(Executable &exe, std::span<const RuntimeValue> inputs,
                                      int repeat, double preparedSeconds, bool stats,
                                      const BackendOptions &options, std::ostream &err,
                                      bool resident) {
  using Clock = std::chrono::steady_clock;
  auto seconds = [](Clock::time_point since) {
    return std::chrono::duration<double>(Clock::now() - since).count();
  };
  const double load = exe.firstRunCountsLoad() ? preparedSeconds : 0;
  if (resident)
    if (Status s = exe.setResidentInputs(std::vector<bool>(inputs.size(), true)); !s)
      return Error("--resident: " + s.error().message);
  RunTimes times;
  times.repeat = repeat;
  Expected<InterpretResult> result = Error("no run");
  auto t0 = Clock::now();
  for (int i = 0; i < std::max(1, repeat); ++i) {
    result = resident ? exe.runOnDevice(inputs) : exe.run(inputs);
    if (!result)
      return result;
    if (i == 0) {
      exe.synchronize();
      times.firstRun = load + seconds(t0);
      times.firstKernels = exe.kernelSeconds();
    }
  }
  exe.synchronize();
  times.total = load + seconds(t0);
  times.deviceCalls = exe.callSeconds();
  if (resident) // read once, after the timed runs
    result = exe.fetchOutputs();
  if (!result)
    return result;
  exe.printWarnings(err);
  if (stats)
    exe.printStats(err, times, options);
  return result;
}

} // namespace fxkit
