#pragma once
/// \file `fxkit run`: executes a graph (with the reference interpreter, the compiled loop
/// program, or compiled OpenCL kernels) on inputs from a safetensors file (or seeded random
/// ones), optionally checks the outputs and writes them. `fxkit devices` lists OpenCL devices.

#include "backends/interp/Interpreter.h"
#include "backends/interp/RunIO.h" // bindProgramInputs, for the REPL
#include "repl/GraphInput.h"

#include <csignal>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace fxkit {

class Executable;

struct RunCommandOptions : GraphInputOptions {
  std::string inputs; ///< safetensors inputs (arg_<i>); empty: seeded random inputs
  std::string check;  ///< safetensors expected outputs (out_<i>); empty: no check
  std::string output; ///< safetensors file for the outputs; empty: none written
  std::optional<double> rtol, atol;
  std::vector<std::string> symbols; ///< NAME=VALUE bindings for random inputs
  uint64_t seed = 0;
  /// "interp" (the reference interpreter), "loops" (the compiled loop program, interpreted),
  /// "opencl" (compiled kernels on an OpenCL device), "llvm" (the kernels compiled for this
  /// CPU) or "cpp-wrapper" (the exported C++ wrapper compiled and loaded in process).
  std::string backend = "interp";
  std::string wrapper;  ///< cpp-wrapper: the folder `compile -o DIR --build` wrote
  std::string device;   ///< OpenCL: cpu, gpu or a device number; empty: the default
  bool tune = true;     ///< OpenCL: autotune launch configurations
  bool cache = true;    ///< OpenCL: use the on-disk kernel cache
  std::string cacheDir; ///< OpenCL: cache folder; empty: the default
  bool stats = false;   ///< OpenCL: print build, tuning and launch counts (stderr)
  bool profile = false; ///< OpenCL: time kernels with device events (printed with --stats)
  int repeat = 1;       ///< run this many times (a loaded program runs warm after the first)
  /// OpenCL: inputs stay on the device between runs, outputs are read after the last only
  /// (runRepeated's `resident`)
  bool resident = false;
};

/// `--sym s77=33`: binds s77 to 33 in `bindings`; an error naming the option otherwise.
Status parseSymbol(const std::string &text, SymExpr::Bindings &bindings);

/// The inputs `fxkit run` gives `graph` (and `fxkit bisect`): from the safetensors file
/// `inputsPath`, or seeded random ones (`symbols` binds their sizes; a torch.export program
/// adds its size hints); tensor constants the graph reads by get_attr but does not hold become
/// inputs after its own (lifted in `graph`), and an exported program's weights are bound.
Expected<std::vector<RuntimeValue>> prepareRunInputs(Graph &graph, const std::string &inputsPath,
                                                     SymExpr::Bindings symbols, uint64_t seed);

/// Runs the command; returns the exit code (0 ok, 1 a checked output differs, 2 bad input).
/// Prints one line per output to stdout and errors to stderr.
int runRunCommand(const RunCommandOptions &options);

/// A graph made ready to run many times on one backend (the REPL's `run` and `bench`): a copy
/// of it, compiled once where the backend needs the program, prepared on the backend once.
class PreparedRun {
public:
  /// `backend`: a name of the backend registry (backends/Backend.h); `device`: as `--device`
  /// (empty: the default). When `interrupt` becomes non-zero, the compilation stops between
  /// passes, the backend is not prepared, and a run of interp or loops stops with "interrupted".
  static Expected<std::unique_ptr<PreparedRun>>
  prepare(const Graph &graph, const std::string &backend, const std::string &device = "",
          const volatile std::sig_atomic_t *interrupt = nullptr);
  ~PreparedRun();
  /// Runs once on `inputs` (one per placeholder).
  Expected<InterpretResult> run(std::span<const RuntimeValue> inputs);
  /// The backend's executable: device residency and device times (backends/Backend.h).
  Executable &executable();
  /// The graph as prepared (types filled in): random inputs are made from it.
  const Graph &graph() const;

private:
  struct Impl;
  PreparedRun();
  std::unique_ptr<Impl> impl_;
};

/// `fxkit devices`: prints every OpenCL platform and device, one per line, numbered for
/// `--device N`; the default device is marked. Returns 0, or 2 when OpenCL is missing.
int runDevicesCommand();

} // namespace fxkit
