#pragma once
/// \file Test-only fault injection: the environment variable FXKIT_FAULT names faults to
/// simulate (comma-separated), so tests can drive failure paths that a healthy machine never
/// takes, and check that each gives a clear error, no partial output and no corrupt cache:
///
///   alloc   OpenCL buffer allocation fails (CL_MEM_OBJECT_ALLOCATION_FAILURE)
///   build   every generated OpenCL kernel fails to build (a line the compiler rejects)
///   enospc  file output (writeFileAtomic, kernel cache entries) fails with ENOSPC half-way
///   slow    batch conversion sleeps 100 ms per input, every pass of a pipeline 300 ms before
///           it runs, the REPL's `load` 1 s after reading the file (so a test can interrupt
///           them mid-way)
///   corrupt-kernel:K  after the first launch of generated kernel K (its index in the fused
///           program, its name, or its name without the trailing number: fused_add_relu), the
///           program executor and the loops backend add 1 to every element it wrote (bools
///           flip): a wrong kernel on purpose, for `fxkit bisect` to find
///
/// Read once per process; unknown names are ignored.

#include <optional>
#include <string>
#include <string_view>

namespace fxkit {

/// Whether FXKIT_FAULT names `fault`.
bool faultInjected(std::string_view fault);

/// The argument of a fault written `fault:ARG` in FXKIT_FAULT (the first such), or nullopt.
std::optional<std::string> faultArgument(std::string_view fault);

} // namespace fxkit
