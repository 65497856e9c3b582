#pragma once
/// \file How compiled programs run on the host CPU through the LLVM backend, and what they
/// report.

#include <string>

namespace fxkit::llvmjit {

struct LLVMOptions {
  std::string cacheDir; ///< empty: KernelCache's default (shared with the OpenCL backend)
  bool cache = true;    ///< use and fill the on-disk object cache
  int threads = 0;      ///< worker threads running work-groups (0: one per hardware thread)
  bool profile = false; ///< time every launch (LLVMStats::kernelSeconds)
};

/// What a program did, for `--stats`, tests and benchmarks.
struct LLVMStats {
  int kernelsCompiled = 0;  ///< definitions compiled from source
  int kernelsFromCache = 0; ///< definitions loaded as cached objects
  int launches = 0;         ///< generated kernel launches
  int matrixProducts = 0;   ///< extern mm/addmm/bmm run by HostBlas
  int hostExterns = 0;      ///< extern ops run with the reference kernels
  int corruptCacheEntries = 0;
  int cacheWriteFailures = 0;  ///< objects not stored (full disk, unwritable folder)
  std::string cacheWriteError; ///< the first such failure, for a warning
  double compileSeconds = 0;   ///< time spent compiling or loading (worker threads, summed)
  double waitSeconds = 0;      ///< time runs waited for compilation
  double kernelSeconds = 0;    ///< wall time of generated kernel launches (with profile)
};

} // namespace fxkit::llvmjit
