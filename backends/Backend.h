#pragma once
/// \file The backend interface: what `fxkit run --backend NAME`, the REPL's `run` and `bench`
/// and the tests execute a graph on. A backend has a name, a description, says whether it is
/// usable in this build (and why not), and prepares a graph or its compiled program into an
/// `Executable` that runs many times and reports its statistics. The command line dispatches
/// through `backendRegistry()` (Backends.cpp) and has no `#if` of its own: a backend that is
/// not built is still listed, and `available()` says what to install.
///
/// Adding a backend: its own folder under backends/ with a class implementing `Backend`, and
/// one registration line in Backends.cpp (ARCHITECTURE.md, "A backend").

#include "backends/interp/Interpreter.h"
#include "backends/interp/KernelTap.h"
#include "backends/program/CallStats.h"
#include "ir/Error.h"
#include "ir/Graph.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"
#include "ir/loop/MemoryPlan.h"

#include <csignal>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <vector>

namespace fxkit {

/// Settings a backend may read; each ignores what it has no use for.
struct BackendOptions {
  std::string device;   ///< OpenCL device: cpu, gpu or a device number; empty: the default
  bool tune = true;     ///< autotune launch configurations
  bool cache = true;    ///< use the on-disk kernel cache
  std::string cacheDir; ///< the cache folder; empty: the default
  bool profile = false; ///< time kernels (printed with the statistics)
  std::string wrapper;  ///< cpp-wrapper: a folder `compile -o DIR --build` wrote
  std::string name;     ///< cpp-wrapper: the wrapper's name when it is written to the cache
  /// When it becomes non-zero, a run of the interpreters stops with "interrupted".
  const volatile std::sig_atomic_t *interrupt = nullptr;
};

/// What a backend is given: the graph (types inferred) and, where the backend needs it
/// (`Backend::needsProgram`), the graph compiled to kernels. Everything here outlives the
/// executable prepared from it.
struct BackendInput {
  Graph *graph = nullptr;
  const loop::LoopProgram *program = nullptr;
  const loop::FusedProgram *fused = nullptr;
  const loop::MemoryPlan *plan = nullptr;
};

/// Wall times of the runs of one executable, for its statistics.
struct RunTimes {
  int repeat = 1;          ///< how many runs
  double firstRun = 0;     ///< seconds of the first run (with the load, where it counts it)
  double total = 0;        ///< seconds of all runs
  double firstKernels = 0; ///< kernel seconds after the first run (with profile)
  /// Device seconds of each run from queue timestamps around it (Executable::callSeconds),
  /// where the backend measures them.
  std::vector<double> deviceCalls;
};

/// A graph made ready on one backend: run it as often as needed.
class Executable {
public:
  virtual ~Executable() = default;
  /// Runs once on `inputs` (one per placeholder).
  virtual Expected<InterpretResult> run(std::span<const RuntimeValue> inputs) = 0;
  /// Runs once, handing the buffers each kernel of the compiled program wrote to `tap` right
  /// after it ran (`fxkit bisect`). A backend that runs the program as a whole (a compiled C++
  /// wrapper) just runs: the tap is never called, and bisect compares the outputs only.
  virtual Expected<InterpretResult> runTapped(std::span<const RuntimeValue> inputs,
                                              const KernelTap &) {
    return run(inputs);
  }
  /// Whether the first run's time counts the load (the backend's load starts compiling in
  /// the background and returns at once, so the first run waits for it).
  virtual bool firstRunCountsLoad() const { return false; }
  /// Kernel seconds measured so far (with profile), for RunTimes::firstKernels.
  virtual double kernelSeconds() const { return 0; }
  /// Warnings that do not fail the run (a kernel cache that could not be written), printed
  /// whether or not statistics are asked for.
  virtual void printWarnings(std::ostream &) const {}
  /// `--stats`: what was built, cached, launched, and the times.
  virtual void printStats(std::ostream &, const RunTimes &, const BackendOptions &) const {}

  // Device-resident execution (issue 23, item 1), where the backend runs on a device.
  /// Per input: whether its device copy stays between runs (a parameter; see
  /// ProgramExecutor::setResidentInputs for when it is copied again). An error where the
  /// backend keeps nothing on a device.
  virtual Status setResidentInputs(std::vector<bool>) {
    return Error("this backend keeps nothing on a device between runs");
  }
  /// Input `i` changed in place on the host: copied to the device again on the next run.
  virtual void inputChanged(size_t) {}
  /// Runs once, leaving the outputs on the device and not waiting for it; `fetchOutputs` reads
  /// them (until the next run). Backends without a device return the outputs here.
  virtual Expected<InterpretResult> runOnDevice(std::span<const RuntimeValue> inputs) {
    return run(inputs);
  }
  /// The outputs the last runOnDevice left on the device.
  virtual Expected<InterpretResult> fetchOutputs() {
    return Error("this backend leaves no outputs on a device");
  }
  /// Waits for everything enqueued (and reads the device's timestamps).
  virtual void synchronize() {}
  /// Device seconds of every run so far, from queue timestamps around each (as CUDA events
  /// time PyTorch); empty where the backend does not measure them.
  virtual std::vector<double> callSeconds() const { return {}; }
  /// What the runs copied between host and device and allocated; null where nothing moves.
  virtual const TransferStats *transfers() const { return nullptr; }
};

class Backend {
public:
  virtual ~Backend() = default;
  /// The `--backend` value.
  virtual std::string name() const = 0;
  /// A few words for `--help`: "reference interpreter, the default".
  virtual std::string description() const = 0;
  /// Ok when built in and usable here, else why not ("this fxkit was built without ...").
  virtual Status available() const = 0;
  /// Whether prepare needs the compiled program (BackendInput::program, fused, plan).
  virtual bool needsProgram(const BackendOptions &) const = 0;
  virtual Expected<std::unique_ptr<Executable>> prepare(const BackendInput &,
                                                        const BackendOptions &) const = 0;
  /// `fxkit devices`: one line per device it can run on; an error where it has no such list.
  virtual Expected<std::vector<std::string>> devices() const {
    return Error("the " + name() + " backend has no devices to list");
  }
};

/// Every backend fxkit knows, built in or not, in `--help` order.
const std::vector<std::unique_ptr<Backend>> &backendRegistry();
/// The backend named `name`; an error listing the names when there is none.
Expected<const Backend *> findBackend(const std::string &name);
/// "interp, loops, opencl, llvm or cpp-wrapper".
std::string backendNames();
/// "interp (reference interpreter, the default), loops (...) ... or cpp-wrapper (...)".
std::string backendHelp();

/// The times line of `--stats`: "NAME: first run X s[, later runs Y s each]", with profiled
/// kernels "; kernel time K s over L launches[, later runs' kernels Z s each]", then "\n".
struct KernelTimes {
  double seconds = 0; ///< all runs' kernel time
  int launches = 0;
};
void printRunTimes(std::ostream &err, const std::string &name, const RunTimes &times,
                   const KernelTimes *kernels = nullptr);

/// The one repeat/timing/`--stats` loop: runs `exe` `repeat` times (at least once) on
/// `inputs` and returns the last run's result. `preparedSeconds` (how long prepare took) counts
/// in the first run where the executable says so. Prints the executable's warnings, and its
/// statistics when `stats`, to `err`. The first run is waited for; later ones are timed
/// together up to a wait after the last. `resident` (`--resident`): every input stays on the
/// device after the first run and the outputs are read once, after the timed runs (the steady
/// state of a compiled model whose inputs and results live on the GPU).
Expected<InterpretResult> runRepeated(Executable &exe, std::span<const RuntimeValue> inputs,
                                      int repeat, double preparedSeconds, bool stats,
                                      const BackendOptions &options, std::ostream &err,
                                      bool resident = false);

/// The `--stats` line of what the runs moved: "NAME: N runs: inputs copied to the device U (B
/// bytes), kept there K; outputs read R (B bytes); other copies C (B bytes); device
/// allocations A; host waits W".
void printTransfers(std::ostream &err, const std::string &name, const TransferStats &t);

} // namespace fxkit
