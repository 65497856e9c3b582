#pragma once
/// \file NVIDIA's OpenCL compiler prints "1 warning generated." straight to the process's
/// standard error when it builds a kernel that warns, with no kernel name and no warning: the
/// build log the program can read has the details, but libraries that build their own kernels
/// (CLBlast's convolution kernels, seen on resnet_block and mobilenet_v2) never show them. This
/// filter keeps such bare counts off fxkit's stderr, where a user would take them for fxkit's
/// and could do nothing about them, and passes anything else on, labelled.

#include <string>

namespace fxkit::opencl {

/// While alive, what the process writes to file descriptor 2 goes to a temporary file. When
/// it ends, stderr is restored; lines that are only a compiler's warning count ("1 warning
/// generated.", "3 warnings generated.") are dropped and every other line is written to
/// stderr after `label` ("CLBlast: "). Only the thread that calls into the library should
/// write to stderr meanwhile (fxkit prints its own messages after a run). Where the
/// temporary cannot be made, nothing is redirected.
class CompilerStderrFilter {
public:
  explicit CompilerStderrFilter(std::string label);
  ~CompilerStderrFilter();
  CompilerStderrFilter(const CompilerStderrFilter &) = delete;
  CompilerStderrFilter &operator=(const CompilerStderrFilter &) = delete;

private:
  std::string label_;
  int saved_ = -1;    ///< the original fd 2
  int captured_ = -1; ///< the temporary file fd 2 points at meanwhile
};

/// Whether `line` is a compiler's bare warning count, "N warning(s) generated.".
bool isBareWarningCount(const std::string &line);

} // namespace fxkit::opencl
