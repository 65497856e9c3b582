#pragma once
/// \file `fxkit compile G -o DIR --build`: the exported C++ wrapper (NAME.cpp and NAME.h in DIR)
/// compiled in process by Clang (backends/llvm/CppCompiler: C++17, -O2, this CPU) into
/// DIR/NAME.o, beside DIR/NAME.o.stamp holding the build's key (a hash of the sources, fxkit's
/// runtime header, the flags, Clang's version and the CPU) and a checksum of the object. A build
/// whose key matches an object that verifies is skipped ("cached"); an object that does not
/// verify (truncated, edited) is rebuilt, never loaded. Both files are written atomically, the
/// object first: a failed build leaves the folder as it was.
///
/// Why an object and not a shared library: no linker is linked into fxkit (there is no lld
/// library to link), so ORC (JitObject) links the object at load time against this process,
/// which exports the wrapper runtime's symbols.

#include "ir/Error.h"

#include <string>
#include <vector>

namespace fxkit::cppwrapper {

/// Whether this build compiles wrappers in process (LLVM, the OpenCL runtime and nlohmann-json;
/// CMake defines FXKIT_HAVE_CPP_WRAPPER_BUILD on what links fxkit_cppwrapper): callers guard
/// their calls with `if constexpr`, so a build without it needs no conditional of its own.
#ifdef FXKIT_HAVE_CPP_WRAPPER_BUILD
inline constexpr bool kHaveWrapperBuild = true;
#else
inline constexpr bool kHaveWrapperBuild = false;
#endif

struct WrapperBuildResult {
  std::string name;             ///< the wrapper's identifier
  std::string objectPath;       ///< DIR/NAME.o
  std::vector<char> object;     ///< its bytes (verified)
  bool cached = false;          ///< up to date: nothing compiled
  bool replacedCorrupt = false; ///< an object that failed its checksum was rebuilt
  double seconds = 0; ///< Clang: front end, -O2 pipeline and code generation (0 if cached)
};

/// The wrapper exported into `dir`: the stem of its one NAME.h with a NAME.cpp beside it.
Expected<std::string> wrapperNameIn(const std::string &dir);

/// Builds DIR/NAME.o unless it is up to date (`name` empty: wrapperNameIn). Clang's errors
/// name DIR/NAME.cpp with line and column.
Expected<WrapperBuildResult> buildWrapper(const std::string &dir, const std::string &name = "");

/// "clang 15.0.6, C++17 -O2, x86_64-pc-linux-gnu znver3": what builds the objects.
std::string wrapperCompilerDescription();

} // namespace fxkit::cppwrapper
