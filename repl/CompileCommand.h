#pragma once
/// \file `fxkit compile`: runs a pipeline of passes (default: lower, fuse, plan, wrapper) on a
/// graph and writes the result, by default the wrapper program as FX text. Pictures
/// (`--to dot|svg|png|pdf`) show the compiled loop program with its kernels as clusters;
/// `--to timeline` is the memory plan as an SVG picture.

#include "repl/GraphInput.h"

#include <string>

namespace fxkit {

struct CompileCommandOptions : GraphInputOptions {
  std::string passes = "lower,fuse,plan,wrapper";
  bool timePasses = false;
  std::string output = "-";
  std::string to;
  /// wrapper-cpp: the program's identifier (namespace, file and target names); default: the
  /// graph file's name up to its first dot.
  std::string name;
  bool fusion = false;           ///< pictures: refused fusions as dashed edges
  std::string collapse;          ///< pictures: "kernel" or "module" (exporters/RenderOptions.h)
  std::string gpuArch = "sm_80"; ///< ptx: the NVIDIA GPU architecture
  /// wrapper-cpp: also compile the wrapper in process into DIR/NAME.o (needs LLVM), skipped
  /// when up to date; `fxkit run --backend cpp-wrapper --wrapper DIR` loads it.
  bool build = false;
};

/// Returns the exit code (0 ok, 2 bad input or a failing pass).
int runCompileCommand(const CompileCommandOptions &options);

/// The C++ wrapper's default name for a graph file: its name up to the first dot, made an
/// identifier (`model_` in front where it would start with a digit or be empty).
std::string wrapperNameFor(const std::string &graphPath);

} // namespace fxkit
