#pragma once
/// \file Launch constants: a generated reduction kernel built for one launch. Built with
/// `launchConstantsOptions(rnumel, lanes, rows)`, its row length, lanes per row and rows per
/// work-group are compile-time constants instead of arguments, as Triton compiles each autotune
/// configuration with its block sizes as `tl.constexpr`: the compiler folds the index arithmetic
/// and the forms a row cannot take, and the kernel needs fewer registers (an H200's softmax over
/// rows of 1024 points at 128 lanes: 0.2249 ms as the argument-sized build, 48 registers, and
/// 0.1428 ms with the sizes constant, 36; bench/README.md, session 19). The kernel still takes the
/// same arguments, so a launch sets them the same way whichever build runs.

#include <cstdint>
#include <string>
#include <string_view>

namespace fxkit::opencl {

/// The macro whose definition switches a generated kernel to its launch constants; every
/// reduction kernel's source tests it (`takesLaunchConstants`).
inline constexpr std::string_view kLaunchLanesMacro = "FX_LAUNCH_L";

/// The build options that fix a reduction kernel's row length, lanes per row and rows per
/// work-group: " -DFX_LAUNCH_R=<rnumel> -DFX_LAUNCH_L=<lanes> -DFX_LAUNCH_W=<rows>".
std::string launchConstantsOptions(int64_t rnumel, int lanes, int rows);

/// Whether `source` holds a kernel that reads launch constants where they are defined (a
/// reduction kernel of the generator); other kernels gain nothing from a build of their own.
bool takesLaunchConstants(std::string_view source);

/// The lines that open a generated reduction kernel's body: its sizes `rnumel`, `fx_L` and `fx_W`
/// from the launch constants where defined, else from the arguments `rnumel_arg`, `fx_L_arg` and
/// `fx_W_arg`.
std::string launchConstantsPrologue();

} // namespace fxkit::opencl
