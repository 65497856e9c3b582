#include "backends/llvm/LLVMProgram.h"

#include "backends/interp/ExternLoopOp.h"
#include "backends/interp/KernelContext.h"
#include "backends/llvm/HostBlas.h"
#include "backends/llvm/HostTarget.h"
#include "backends/llvm/LLVMKernelSet.h"
#include "backends/program/ProgramExecutor.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <thread>

namespace fxkit::llvmjit {

using namespace loop;
using opencl::GeneratedKernel;
using opencl::GeneratedProgram;
using opencl::KernelParam;

namespace {

/// Host memory for one allocation, 64-byte aligned (a cache line, the widest vector). Its
/// contents are undefined until written, as an OpenCL buffer's are.
struct Allocation {
  std::byte *data = nullptr;
  size_t capacity = 0;
  explicit Allocation(size_t bytes) {
    capacity = (std::max<size_t>(bytes, 1) + 63) / 64 * 64;
    data = static_cast<std::byte *>(std::aligned_alloc(64, capacity));
  }
  ~Allocation() { std::free(data); }
  Allocation(const Allocation &) = delete;
  Allocation &operator=(const Allocation &) = delete;
};

} // namespace

/// The LLVM backend's device hooks: host memory kept from run to run, kernels run by
/// LLVMKernelSet on its thread pool, matrix products by HostBlas.
struct LLVMProgram::Impl : ProgramExecutor<HostBuffer> {
  Impl(const LoopProgram &program, const FusedProgram &fused, const MemoryPlan &plan)
      : ProgramExecutor(program, fused, plan, "LLVM program") {}

  LLVMOptions options;
  GeneratedProgram generated;
  std::unique_ptr<LLVMKernelSet> kernels;
  std::vector<int> definitionOf; ///< per fused kernel, -1 for extern
  /// Kept from run to run (reused in order where large enough): fresh pages would cost a
  /// page fault per 4 KiB on every run. The allocation order is the schedule's, the same
  /// every run.
  std::vector<std::unique_ptr<Allocation>> allocations;
  size_t allocationsUsed = 0;
  std::vector<uint64_t> args;

  void beginRun() override { allocationsUsed = 0; }
  Expected<HostBuffer> allocate(size_t bytes, const void *init, int32_t) override {
    size_t slot = allocationsUsed++;
    if (slot >= allocations.size() || allocations[slot]->capacity < bytes) {
      auto a = std::make_unique<Allocation>(bytes);
      if (!a->data)
        return Error("cannot allocate " + std::to_string(bytes) + " bytes of host memory");
      if (slot < allocations.size())
        allocations[slot] = std::move(a);
      else
        allocations.push_back(std::move(a));
    }
    std::byte *data = allocations[slot]->data;
    if (init && bytes)
      std::memcpy(data, init, bytes);
    return HostBuffer{data, 0, bytes};
  }
  bool hasStorage(const HostBuffer &b) const override { return b.base != nullptr; }
  Status write(int32_t b, const void *from, size_t n) override {
    std::memcpy(buffers_[b].base + buffers_[b].offset, from, n);
    return Status::ok();
  }
  Status read(int32_t b, void *to, size_t n) override {
    std::memcpy(to, buffers_[b].base + buffers_[b].offset, n);
    return Status::ok();
  }
  Status launch(size_t kernelIndex) override;
  Expected<bool> externOnDevice(size_t, const LoopOp &op) override {
    auto done = runHostBlas(*program_, op, bindings_, buffers_, kernels->pool());
    if (done && *done)
      ++kernels->stats().matrixProducts;
    return done;
  }
  void countHostExtern() override { ++kernels->stats().hostExterns; }
  void endRun() override {
    kernels->stats().corruptCacheEntries = kernels->cache().corruptEntriesRemoved();
  }
};

Status LLVMProgram::Impl::launch(size_t k) {
  const GeneratedKernel &g = generated.launches[k];
  args.clear();
  for (const KernelParam &p : g.params) {
    switch (p.kind) {
    case KernelParam::Kind::Buffer: {
      const HostBuffer &b = buffers_[p.buffer];
      if (!b.base)
        return Error("kernel " + g.name + ": " + program_->buffers[p.buffer].name +
                     " has no storage");
      args.push_back(reinterpret_cast<uint64_t>(b.base));
      args.push_back(b.offset);
      break;
    }
    case KernelParam::Kind::Size:
    case KernelParam::Kind::Numel: {
      if (p.name == "xnumel")
        break; // the entry passes each work-group's end
      auto v = eval(p.value);
      if (!v)
        return v.takeError();
      args.push_back(static_cast<uint64_t>(*v));
      break;
    }
    case KernelParam::Kind::Lanes:
    case KernelParam::Kind::Scratch:
      break;
    }
  }
  auto xnumel = eval(g.xnumel);
  auto rnumel = eval(g.rnumel);
  if (!xnumel || !rnumel)
    return Error("kernel " + g.name + ": cannot evaluate its iteration space");
  return kernels->launch(static_cast<size_t>(definitionOf[k]), args, *xnumel, *rnumel);
}

LLVMProgram::LLVMProgram() = default;
LLVMProgram::~LLVMProgram() = default;

Expected<std::unique_ptr<LLVMProgram>> LLVMProgram::load(const LoopProgram &program,
                                                         const FusedProgram &fused,
                                                         const MemoryPlan &plan,
                                                         const LLVMOptions &options) {
  std::unique_ptr<LLVMProgram> out(new LLVMProgram());
  out->impl_ = std::make_unique<Impl>(program, fused, plan);
  Impl &im = *out->impl_;
  im.options = options;
  // One call runs a chunk of points as one work-item (KernelEntry): no pointwise vector form,
  // whose work-items take groups of 4 points.
  opencl::GenerateOptions generateOptions;
  generateOptions.pointwiseVectors = false;
  auto gen = opencl::generateOpenCL(program, fused, generateOptions);
  if (!gen)
    return gen.takeError();
  im.generated = gen.take();
  std::vector<GeneratedKernel> definitions;
  std::map<std::string, int> byName;
  for (const GeneratedKernel &g : im.generated.launches) {
    if (g.name.empty()) {
      im.definitionOf.push_back(-1);
      continue;
    }
    auto found = byName.find(g.name);
    if (found != byName.end()) {
      if (definitions[found->second].source != g.source)
        return Error("kernel " + g.name + ": two definitions with one name (internal error)");
      im.definitionOf.push_back(found->second);
      continue;
    }
    byName[g.name] = static_cast<int>(definitions.size());
    im.definitionOf.push_back(static_cast<int>(definitions.size()));
    definitions.push_back(g);
  }
  // 64-bit indices: free on a 64-bit CPU, and they keep the row loop countable (with a
  // 32-bit index the vectoriser cannot prove `x < end` terminates without wrapping).
  std::string buildOptions = opencl::openclBuildOptions(program, im.generated);
  if (size_t at = buildOptions.find("-DFX_INDEX_T=int"); at != std::string::npos)
    buildOptions.replace(at, 16, "-DFX_INDEX_T=long");
  auto kernels = LLVMKernelSet::load(std::move(definitions), buildOptions, options);
  if (!kernels)
    return kernels.takeError();
  im.kernels = kernels.take();
  return out;
}

Status LLVMProgram::waitForCompilation() { return impl_->kernels->waitAll(); }

Expected<InterpretResult> LLVMProgram::run(std::span<const RuntimeValue> inputs) {
  return impl_->run(inputs);
}

Expected<InterpretResult> LLVMProgram::run(std::span<const RuntimeValue> inputs,
                                           const KernelTap &tap) {
  return impl_->run(inputs, &tap);
}

const GeneratedProgram &LLVMProgram::generated() const { return impl_->generated; }
const LLVMStats &LLVMProgram::stats() const { return impl_->kernels->stats(); }

std::string LLVMProgram::deviceDescription() const {
  unsigned threads = impl_->options.threads > 0 ? static_cast<unsigned>(impl_->options.threads)
                                                : std::max(1u, std::thread::hardware_concurrency());
  return hostTarget().str() + ", " + std::to_string(threads) + " threads";
}

} // namespace fxkit::llvmjit
