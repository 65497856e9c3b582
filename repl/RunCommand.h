#pragma once
/// \file `fxkit run`: executes a graph with the reference interpreter on inputs from a
/// safetensors file (or seeded random ones), optionally checks the outputs and writes them.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fxkit {

struct RunCommandOptions {
  std::string graph;  ///< graph file (format from name or content; sidecar attached)
  std::string from;   ///< input format name, empty to detect
  std::string inputs; ///< safetensors inputs (arg_<i>); empty: seeded random inputs
  std::string check;  ///< safetensors expected outputs (out_<i>); empty: no check
  std::string output; ///< safetensors file for the outputs; empty: none written
  std::optional<double> rtol, atol;
  std::vector<std::string> symbols; ///< NAME=VALUE bindings for random inputs
  uint64_t seed = 0;
};

/// Runs the command; returns the exit code (0 ok, 1 a checked output differs, 2 bad input).
/// Prints one line per output to stdout and errors to stderr.
int runRunCommand(const RunCommandOptions &options);

} // namespace fxkit
