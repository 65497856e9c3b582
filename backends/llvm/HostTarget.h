#pragma once
/// \file The machine the LLVM backend compiles for: the host's triple, CPU and features (so
/// kernels use every vector extension the host has), one per process. Its description is part
/// of every cache key: an object compiled for one CPU is never loaded on another.

#include "ir/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class TargetMachine;
namespace orc {
class LLJIT;
} // namespace orc
} // namespace llvm

namespace fxkit::llvmjit {

struct HostTarget {
  std::string triple;   ///< "x86_64-pc-linux-gnu"
  std::string cpu;      ///< "skylake-avx512"
  std::string features; ///< "+avx2,+fma,..." (LLVM's subtarget feature string)
  std::string llvmVersion;
  /// glibc's vector math library is loaded: the vectoriser may call its SIMD exp, log, sin,
  /// cos and pow (x86-64 only).
  bool libmvec = false;
  /// "x86_64-pc-linux-gnu skylake-avx512 LLVM 15.0.6 libmvec": for reports and cache keys.
  std::string str() const;
  /// A target machine for this host at -O3, small code model, position independent (the
  /// objects are loaded by ORC at any address). One per thread: target machines are not
  /// thread-safe.
  Expected<std::unique_ptr<llvm::TargetMachine>> createTargetMachine() const;
  /// `features` one per entry ("+avx2", "+fma", ...), as Clang's target options take them.
  std::vector<std::string> featureList() const;
  /// An ORC LLJIT for this host's CPU (the objects it loads were compiled for it).
  Expected<std::unique_ptr<llvm::orc::LLJIT>> createJit() const;
};

/// The host (initialises LLVM's native target on first use).
const HostTarget &hostTarget();

} // namespace fxkit::llvmjit
