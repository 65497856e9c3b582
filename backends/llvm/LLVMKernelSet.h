#pragma once
/// \file The distinct kernel definitions of a program, compiled for the host CPU: compiled
/// lazily on worker threads (or loaded from the on-disk object cache, the OpenCL backend's
/// KernelCache with its checksums), linked into one ORC LLJIT, launched with their rows split
/// into work-groups over a thread pool.

#include "backends/llvm/KernelEntry.h"
#include "backends/llvm/LLVMOptions.h"
#include "backends/llvm/ThreadPool.h"
#include "backends/opencl/codegen/OpenCLKernelGen.h"
#include "backends/opencl/runtime/KernelCache.h"
#include "ir/Error.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace fxkit::llvmjit {

class LLVMKernelSet {
public:
  /// Starts compiling every definition on worker threads and returns at once. The cache key of
  /// a definition hashes its translation unit, `buildOptions`, the host CPU and LLVM's version.
  static Expected<std::unique_ptr<LLVMKernelSet>>
  load(std::vector<opencl::GeneratedKernel> definitions, std::string buildOptions,
       const LLVMOptions &options);
  /// Joins the compile workers.
  ~LLVMKernelSet();
  LLVMKernelSet(const LLVMKernelSet &) = delete;
  LLVMKernelSet &operator=(const LLVMKernelSet &) = delete;

  /// Runs definition `index` over `xnumel` rows of `rnumel` reduced points with the packed
  /// arguments (KernelEntryFn's layout): waits for its compilation, then runs its work-groups
  /// on the thread pool and returns when all are done.
  Status launch(size_t index, std::span<const uint64_t> args, int64_t xnumel, int64_t rnumel);

  /// Waits for every definition; the first compile error, if any.
  Status waitAll();
  LLVMStats &stats();
  /// The threads that run work-groups (shared with the host's matrix products).
  ThreadPool &pool();
  const opencl::KernelCache &cache() const;

private:
  LLVMKernelSet();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace fxkit::llvmjit
