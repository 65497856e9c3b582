#include "backends/llvm/LLVMKernelSet.h"

#include "backends/llvm/HostTarget.h"
#include "backends/llvm/KernelCompiler.h"
#include "backends/llvm/ThreadPool.h"

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <atomic>
#include <cassert>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <thread>

namespace fxkit::llvmjit {

using opencl::GeneratedKernel;

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string llvmMessage(llvm::Error err) { return llvm::toString(std::move(err)); }

/// One distinct kernel definition, compiled on a worker thread.
struct Definition {
  GeneratedKernel kernel;
  std::string unit; ///< the translation unit
  opencl::CacheKey cacheKey;
  KernelEntryFn entry = nullptr;
  std::promise<Status> built;
  std::shared_future<Status> ready = built.get_future().share();
};

/// Rows per work-group: enough work per group to hide the dispatch (a few thousand points),
/// enough groups to balance the threads (4 per thread where the kernel is big enough).
int64_t rowsPerGroup(int64_t xnumel, int64_t rnumel, size_t threads) {
  constexpr int64_t kMinPoints = 4096;
  int64_t perRow = std::max<int64_t>(rnumel, 1);
  int64_t minRows = std::max<int64_t>(1, kMinPoints / perRow);
  int64_t balanced =
      (xnumel + static_cast<int64_t>(threads) * 4 - 1) / (static_cast<int64_t>(threads) * 4);
  return std::max(minRows, balanced);
}

} // namespace

struct LLVMKernelSet::Impl {
  LLVMOptions options;
  std::string buildOptions;
  opencl::KernelCache cache{"", false}; ///< replaced by load() (a disabled one touches nothing)
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::mutex jitMutex;
  std::vector<std::unique_ptr<Definition>> definitions;
  std::vector<std::thread> workers;
  std::atomic<size_t> nextToBuild{0};
  std::unique_ptr<ThreadPool> pool;
  std::mutex statsMutex;
  LLVMStats stats;

  ~Impl() {
    nextToBuild = definitions.size();
    for (std::thread &t : workers)
      if (t.joinable())
        t.join();
    // Definitions never taken by a worker still hold an unset promise: fine to destroy.
  }
  void buildWorker() {
    for (;;) {
      size_t i = nextToBuild.fetch_add(1);
      if (i >= definitions.size())
        return;
      definitions[i]->built.set_value(build(*definitions[i]));
    }
  }
  Status build(Definition &d);
  Status compile(Definition &d, std::vector<char> &object);
  Status link(Definition &d, const std::vector<char> &object, bool fresh);
};

namespace {

/// Why a cached object cannot be this kernel's: empty when it parses as an object file and
/// defines `entry`. Checked before the JIT sees it, so a wrong object never reaches the linker.
std::string objectProblem(const std::vector<char> &object, const std::string &entry) {
  llvm::MemoryBufferRef ref(llvm::StringRef(object.data(), object.size()), "cached");
  auto file = llvm::object::ObjectFile::createObjectFile(ref);
  if (!file)
    return "not an object file: " + llvmMessage(file.takeError());
  for (const llvm::object::SymbolRef &sym : (*file)->symbols()) {
    auto name = sym.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    auto flags = sym.getFlags();
    if (!flags) {
      llvm::consumeError(flags.takeError());
      continue;
    }
    if (*name == entry && !(*flags & llvm::object::SymbolRef::SF_Undefined))
      return "";
  }
  return "it does not define " + entry;
}

} // namespace

Status LLVMKernelSet::Impl::compile(Definition &d, std::vector<char> &object) {
  // Diagnostics name the file the source is written to when compilation fails.
  std::string path =
      (std::filesystem::temp_directory_path() / ("fxkit-" + d.cacheKey.file + ".cl")).string();
  CompileRequest request{d.unit, path, buildOptions, {entryName(d.kernel)}};
  auto compiled = compileToObject(request);
  if (!compiled) {
    std::ofstream(path) << d.unit;
    return Error("kernel " + d.kernel.name + " does not compile for " + hostTarget().str() +
                 "; source: " + path + "\n" + compiled.error().message);
  }
  object = compiled.take();
  // Best effort: a full disk only costs time; the failure is counted for a warning.
  if (Status st =
          cache.storeBinary(d.cacheKey, std::vector<unsigned char>(object.begin(), object.end()));
      !st) {
    std::lock_guard<std::mutex> lock(statsMutex);
    if (stats.cacheWriteFailures++ == 0)
      stats.cacheWriteError = st.error().message;
  }
  return Status::ok();
}

Status LLVMKernelSet::Impl::link(Definition &d, const std::vector<char> &object, bool fresh) {
  std::lock_guard<std::mutex> lock(jitMutex);
  // `fresh`: after a cached object failed to link, its symbols may linger in the main
  // library; the rebuilt object goes into a library of its own, which sees the process's.
  llvm::orc::JITDylib *lib = &jit->getMainJITDylib();
  if (fresh) {
    auto created = jit->createJITDylib("rebuilt-" + d.cacheKey.file);
    if (!created)
      return Error("kernel " + d.kernel.name + ": " + llvmMessage(created.takeError()));
    lib = &*created;
    auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
        jit->getDataLayout().getGlobalPrefix());
    if (!process)
      return Error("LLVM JIT: " + llvmMessage(process.takeError()));
    lib->addGenerator(std::move(*process));
  }
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(object.data(), object.size()),
                                                     d.cacheKey.file + ".o");
  if (llvm::Error err = jit->addObjectFile(*lib, std::move(buffer)))
    return Error("kernel " + d.kernel.name +
                 ": the JIT refuses its object: " + llvmMessage(std::move(err)));
  auto symbol = jit->lookup(*lib, entryName(d.kernel));
  if (!symbol)
    return Error("kernel " + d.kernel.name + ": " + llvmMessage(symbol.takeError()));
  d.entry = symbol->toPtr<KernelEntryFn>();
  return Status::ok();
}

Status LLVMKernelSet::Impl::build(Definition &d) {
  auto t0 = std::chrono::steady_clock::now();
  std::vector<char> object;
  bool fromCache = false, rebuilt = false;
  if (auto cached = cache.loadBinary(d.cacheKey)) {
    object.assign(cached->begin(), cached->end());
    if (std::string why = objectProblem(object, entryName(d.kernel)); !why.empty()) {
      cache.evictBinary(d.cacheKey, why);
    } else if (Status linked = link(d, object, false); !linked) {
      // An object that verified but does not link: evicted and rebuilt once, below.
      cache.evictBinary(d.cacheKey, linked.error().message);
      rebuilt = true;
    } else {
      fromCache = true;
    }
  }
  if (!fromCache) {
    if (Status st = compile(d, object); !st)
      return st;
    if (Status st = link(d, object, rebuilt); !st)
      return st;
  }
  std::lock_guard<std::mutex> lock(statsMutex);
  (fromCache ? stats.kernelsFromCache : stats.kernelsCompiled)++;
  stats.compileSeconds += secondsSince(t0);
  return Status::ok();
}

LLVMKernelSet::LLVMKernelSet() : impl_(std::make_unique<Impl>()) {}
LLVMKernelSet::~LLVMKernelSet() = default;

Expected<std::unique_ptr<LLVMKernelSet>>
LLVMKernelSet::load(std::vector<GeneratedKernel> definitions, std::string buildOptions,
                    const LLVMOptions &options) {
  std::unique_ptr<LLVMKernelSet> out(new LLVMKernelSet());
  Impl &im = *out->impl_;
  im.options = options;
  im.buildOptions = std::move(buildOptions);
  im.cache = opencl::KernelCache(options.cacheDir, options.cache);
  auto jit = hostTarget().createJit();
  if (!jit)
    return jit.takeError();
  im.jit = jit.take();
  const HostTarget &host = hostTarget();
  // Kernels call libm (expf, tanhf, ...) and memcpy/memset: resolved in this process.
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      im.jit->getDataLayout().getGlobalPrefix());
  if (!process)
    return Error("LLVM JIT: " + llvmMessage(process.takeError()));
  im.jit->getMainJITDylib().addGenerator(std::move(*process));
  for (GeneratedKernel &k : definitions) {
    auto d = std::make_unique<Definition>();
    auto unit = kernelTranslationUnit(k);
    if (!unit)
      return unit.takeError();
    d->unit = unit.take();
    std::string identity =
        d->unit + "\n" + im.buildOptions + "\n" + host.str() + "\n" + host.features;
    d->cacheKey = opencl::CacheKey::of("llvm-" + k.name, identity);
    d->kernel = std::move(k);
    im.definitions.push_back(std::move(d));
  }
  im.pool = std::make_unique<ThreadPool>(static_cast<size_t>(std::max(0, options.threads)));
  size_t threads = std::max<size_t>(
      1, std::min<size_t>(std::thread::hardware_concurrency(), im.definitions.size()));
  for (size_t t = 0; t < threads && !im.definitions.empty(); ++t)
    im.workers.emplace_back([&im] { im.buildWorker(); });
  return out;
}

Status LLVMKernelSet::waitAll() {
  for (auto &d : impl_->definitions)
    if (Status s = d->ready.get(); !s)
      return s;
  return Status::ok();
}

Status LLVMKernelSet::launch(size_t index, std::span<const uint64_t> args, int64_t xnumel,
                             int64_t rnumel) {
  Impl &im = *impl_;
  assert(index < im.definitions.size() && "LLVMKernelSet::launch: no such definition");
  Definition &d = *im.definitions[index];
  auto t0 = std::chrono::steady_clock::now();
  if (Status s = d.ready.get(); !s)
    return s;
  auto t1 = std::chrono::steady_clock::now();
  im.stats.waitSeconds += std::chrono::duration<double>(t1 - t0).count();
  ++im.stats.launches;
  if (xnumel <= 0)
    return Status::ok();
  KernelEntryFn entry = d.entry;
  const uint64_t *words = args.data();
  size_t scratchWords = static_cast<size_t>(std::max(1, d.kernel.scratchBytesPerItem / 8));
  int64_t rows = rowsPerGroup(xnumel, rnumel, im.pool->size());
  size_t groups = static_cast<size_t>((xnumel + rows - 1) / rows);
  im.pool->parallelFor(groups, [&](size_t g) {
    // The work-item's local memory (the lane tree's, which one lane never uses).
    thread_local std::vector<double> scratch;
    if (scratch.size() < scratchWords)
      scratch.resize(scratchWords);
    int64_t begin = static_cast<int64_t>(g) * rows;
    entry(begin, std::min(xnumel, begin + rows), words, scratch.data());
  });
  if (im.options.profile)
    im.stats.kernelSeconds += secondsSince(t1);
  return Status::ok();
}

LLVMStats &LLVMKernelSet::stats() { return impl_->stats; }
ThreadPool &LLVMKernelSet::pool() { return *impl_->pool; }
const opencl::KernelCache &LLVMKernelSet::cache() const { return impl_->cache; }

} // namespace fxkit::llvmjit
