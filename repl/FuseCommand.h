#pragma once
/// \file `fxkit fuse`: lowers a graph to loop ops, fuses them into kernels and prints the
/// kernels (and, with --explain, every fusion decision with its reason).

#include "repl/GraphInput.h"

#include <string>

namespace fxkit {

struct FuseCommandOptions : GraphInputOptions {
  bool explain = false;  ///< print every decision and kernel
  bool loops = false;    ///< print the lowered loop program
  bool noFusion = false; ///< one kernel per loop op (baseline)
  bool plan = false;     ///< also plan memory and print the plan
};

/// Returns the exit code (0 ok, 2 bad input).
int runFuseCommand(const FuseCommandOptions &options);

} // namespace fxkit
