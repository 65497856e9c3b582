#pragma once
/// \file `fxkit bisect`: which kernel of a compiled backend computes a wrong value. The graph
/// runs in the reference interpreter (every FX node's value kept) and on the backend kernel by
/// kernel (backends/interp/KernelTap.h: each kernel's written buffers read back right after
/// it); in schedule order, the first kernel whose output disagrees with the interpreter's
/// value of the FX node it holds is the culprit (every kernel before it agreed, so its inputs
/// did). Tolerances are `run --check`'s, per dtype (defaultTolerance, ir/Tensor.h).
/// `--minimize` then cuts the graph down by delta debugging (transforms/GraphReduction.h) to a
/// small one that still fails, written with its inputs.

#include "backends/Backend.h"
#include "ir/DType.h"
#include "ir/Graph.h"
#include "ir/Tensor.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace CLI {
class App;
} // namespace CLI

namespace fxkit {

struct BisectCommandOptions {
  std::string graph;                ///< graph file
  std::string from;                 ///< input format name, empty to detect
  std::string inputs;               ///< safetensors inputs (arg_<i>); empty: seeded random ones
  std::vector<std::string> symbols; ///< NAME=VALUE bindings for random inputs
  uint64_t seed = 0;
  std::string backend = "opencl"; ///< a compiled backend of the registry
  std::string device;             ///< OpenCL: cpu, gpu or a device number
  std::optional<double> rtol, atol;
  bool minimize = false;
  std::string output; ///< --minimize: the folder for graph.txt and inputs.safetensors
};

/// Adds the `bisect` subcommand to `app`, filling `options` when it is parsed.
CLI::App *addBisectSubcommand(CLI::App &app, BisectCommandOptions &options);

/// Runs the command: 0 everything agrees, 1 a disagreement was found (printed), 2 bad input.
int runBisectCommand(const BisectCommandOptions &options);

/// What one bisection found.
struct BisectFinding {
  size_t kernels = 0;          ///< kernels of the compiled program
  size_t buffersCompared = 0;  ///< buffers compared with the interpreter's values
  bool kernelByKernel = false; ///< false: the backend ran the program as a whole
  bool mismatch = false;
  /// The first bad kernel (index in the fused program; -1 when only an output disagreed).
  int64_t kernel = -1;
  std::string kernelName;
  bool externKernel = false;
  std::vector<std::string> kernelNodes; ///< the FX nodes the kernel computes
  std::string buffer;                   ///< the buffer that disagreed ("buf3")
  std::string node;                     ///< the FX node whose value it holds
  int64_t output = -1;                  ///< or: the graph output that disagreed
  std::string type;                     ///< "f32[4, 8]"
  int64_t elements = 0;                 ///< of that value
  DType dtype = DType::Float32;
  double rtol = 0, atol = 0;
  TensorComparison comparison;
};

struct BisectOptions {
  std::optional<double> rtol, atol; ///< unset: defaultTolerance of each dtype
  /// Filled with the interpreter's value of every tensor FX node, by name (--minimize gives
  /// them to the inputs that replace nodes).
  std::map<std::string, RuntimeValue> *referenceValues = nullptr;
};

/// Compiles `graph` (decomposed and typed in place, as `run` does), runs it in the reference
/// interpreter and on `backend` (which must need the compiled program), and finds the first
/// kernel whose output disagrees; with a backend that runs the program as a whole, compares
/// the outputs only. Errors: a graph that does not compile or run.
Expected<BisectFinding> bisectGraph(Graph &graph, std::span<const RuntimeValue> inputs,
                                    const Backend &backend, const BackendOptions &backendOptions,
                                    const BisectOptions &options = {});

/// The finding as the command prints it.
std::string formatBisectFinding(const BisectFinding &finding, const std::string &backend);

} // namespace fxkit
