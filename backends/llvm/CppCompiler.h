#pragma once
/// \file C++ source to a host object file, in process: Clang's driver derives the include
/// paths of this machine (libstdc++, Clang's resource headers) as `clang++ -c` would, the front
/// end compiles at -O2 for the host CPU, and the host code generator emits a position
/// independent object. Made for ORC (JitObject): static constructors and destructors are
/// gathered into `fxkit_jit_init` / `fxkit_jit_fini`, and `__cxa_atexit` / `__dso_handle` are
/// renamed so the JIT, not the process, owns the destructors the code registers.

#include "ir/Error.h"

#include <string>
#include <vector>

namespace fxkit::llvmjit {

struct CppCompileRequest {
  std::string sourcePath;               ///< read from disk; diagnostics name it
  std::vector<std::string> includeDirs; ///< -I, in order (after the source's own folder)
  std::vector<std::string> defines;     ///< -D NAME=VALUE
  std::string standard = "c++17";
  std::string optLevel = "-O2";
};

/// The object file, or an Error whose message holds Clang's diagnostics ("path:line:col:
/// error: ...", with the offending line and a caret).
Expected<std::vector<char>> compileCppToObject(const CppCompileRequest &request);

/// What decides the object besides the sources: flags, the Clang version and the host CPU
/// (for cache keys).
std::string cppCompilerIdentity(const CppCompileRequest &request);

/// "clang 15.0.6 -std=c++17 -O2, x86_64-pc-linux-gnu znver3 LLVM 15.0.6": for reports.
std::string cppCompilerDescription(const CppCompileRequest &request);

/// Symbols the objects of compileCppToObject define or use in place of the C++ ABI's.
inline constexpr const char *kJitInitSymbol = "fxkit_jit_init";
inline constexpr const char *kJitFiniSymbol = "fxkit_jit_fini";
inline constexpr const char *kJitAtExitSymbol = "fxkit_jit_cxa_atexit";
inline constexpr const char *kJitDsoHandleSymbol = "fxkit_jit_dso_handle";

} // namespace fxkit::llvmjit
