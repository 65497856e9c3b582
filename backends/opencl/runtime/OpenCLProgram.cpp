#include "backends/opencl/runtime/OpenCLProgram.h"

#include "backends/interp/ExternLoopOp.h"
#include "backends/interp/KernelContext.h"
#include "backends/opencl/runtime/BlasExtern.h"
#include "backends/opencl/runtime/CallTimer.h"
#include "backends/opencl/runtime/DeviceBuffer.h"
#include "backends/opencl/runtime/DeviceExterns.h"
#include "backends/opencl/runtime/KernelSet.h"
#include "backends/program/ProgramExecutor.h"
#include "ir/FaultInjection.h"
#include "ir/Try.h"
#include "ir/ops/ShapeRules.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

namespace fxkit::opencl {

using namespace loop;

/// The OpenCL backend's device hooks: the program's storage (inputs, the pool, own buffers)
/// allocated on the first run and kept (slots, reused in allocation order while large
/// enough), Unbacked buffers per run, kernels from KernelSet (built lazily, autotuned), extern
/// ops through CLBlast or the device externs. Commands are enqueued without waiting between
/// kernels; a run that reads its outputs waits once, before reading them. Every run is
/// bracketed by two timestamp commands on the queue (CallTimer), as CUDA events time PyTorch.
struct OpenCLProgram::Impl : ProgramExecutor<DeviceBuffer> {
  Impl(OpenCLContext &context, const LoopProgram &program, const FusedProgram &fused,
       const MemoryPlan &plan)
      : ProgramExecutor(program, fused, plan, "OpenCL program"), ctx(&context) {}
  ~Impl() override {
    releaseBuffers();
    for (cl_mem m : slots)
      if (m)
        clReleaseMemObject(m);
    timer.release();
    externTimer.release();
  }

  OpenCLContext *ctx = nullptr;
  OpenCLOptions options;
  GeneratedProgram generated;
  std::unique_ptr<KernelSet> kernels;
  std::vector<int> definitionOf; ///< per fused kernel, -1 for extern
  bool intIndex = false;         ///< the generated kernels index in int (indexFitsInt)
  /// The program's storage, kept from run to run: the n-th allocation of a run gets slot n.
  std::vector<cl_mem> slots;
  std::vector<size_t> slotBytes;
  size_t slotsUsed = 0;
  std::vector<cl_mem> perRun; ///< Unbacked buffers of the last run
  CallTimer timer;
  /// With profile: a span per extern op, labelled run * 3 + kind (0 template, 1 CLBlast,
  /// 2 device kernels).
  CallTimer externTimer;
  int runIndex = -1;
  /// The kernel that ran as the epilogue of the product before it (not launched again), or
  /// SIZE_MAX.
  size_t ranAsEpilogue = SIZE_MAX;

  void releaseBuffers() {
    for (cl_mem m : perRun)
      clReleaseMemObject(m);
    perRun.clear();
    buffers_.clear();
  }
  void beginRun() override {
    releaseBuffers();
    slotsUsed = 0;
    ranAsEpilogue = SIZE_MAX; // a failed run may have left it set
    ++runIndex;
    timer.begin(*ctx);
  }
  bool keepsStorage() const override { return true; }
  Expected<DeviceBuffer> allocate(size_t bytes, const void *init, int32_t buffer) override {
    cl_int err = CL_SUCCESS;
    size_t slot = buffer < 0 ? slotsUsed++ : 0;
    cl_mem m = nullptr;
    if (buffer < 0 && slot < slots.size() && slotBytes[slot] >= std::max<size_t>(bytes, 1)) {
      m = slots[slot];
    } else {
      if (buffer < 0 && faultInjected("alloc")) // FXKIT_FAULT=alloc: the device is out of memory
        err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
      else
        m = clCreateBuffer(ctx->context(), CL_MEM_READ_WRITE, std::max<size_t>(bytes, 1), nullptr,
                           &err);
      if (err != CL_SUCCESS)
        return clError("allocating " + std::to_string(bytes) + " bytes " +
                           (buffer >= 0 ? "for " + program_->buffers[buffer].name + " " : "") +
                           "on " + ctx->device().deviceName,
                       err);
      ++transfers_.allocations;
      if (buffer >= 0) {
        perRun.push_back(m);
      } else {
        if (slot >= slots.size()) {
          slots.resize(slot + 1, nullptr);
          slotBytes.resize(slot + 1, 0);
        }
        if (slots[slot]) // released once the commands using it have finished
          clReleaseMemObject(slots[slot]);
        slots[slot] = m;
        slotBytes[slot] = std::max<size_t>(bytes, 1);
      }
    }
    // Blocking: the caller's memory may change once the run returns.
    if (init && bytes > 0)
      if (cl_int werr =
              clEnqueueWriteBuffer(ctx->queue(), m, CL_TRUE, 0, bytes, init, 0, nullptr, nullptr);
          werr != CL_SUCCESS)
        return clError("writing " + std::to_string(bytes) + " bytes to the device", werr);
    return DeviceBuffer{m, 0, bytes};
  }
  bool hasStorage(const DeviceBuffer &b) const override { return b.mem != nullptr; }
  Status write(int32_t b, const void *from, size_t n) override {
    const DeviceBuffer &d = buffers_[b];
    cl_int err =
        clEnqueueWriteBuffer(ctx->queue(), d.mem, CL_TRUE, d.offset, n, from, 0, nullptr, nullptr);
    if (err != CL_SUCCESS)
      return clError("writing " + program_->buffers[b].name + " to the device", err);
    return Status::ok();
  }
  Status read(int32_t b, void *to, size_t n) override {
    const DeviceBuffer &d = buffers_[b];
    cl_int err =
        clEnqueueReadBuffer(ctx->queue(), d.mem, CL_TRUE, d.offset, n, to, 0, nullptr, nullptr);
    if (err != CL_SUCCESS)
      return clError("reading " + program_->buffers[b].name + " from the device", err);
    return Status::ok();
  }
  Status launch(size_t kernelIndex) override;
  /// Generated kernel `k`'s launch arguments.
  Expected<std::vector<LaunchArg>> launchArgs(size_t k);
  /// Kernel k + 1 as the epilogue of product `op` (kernel k), where fusion marked it and its
  /// writes leave the product's operands alone; nullopt otherwise.
  std::optional<GemmEpilogue> epilogueAfter(size_t k, const LoopOp &op);
  Expected<bool> externOnDevice(size_t k, const LoopOp &op) override {
    std::optional<GemmEpilogue> epilogue = epilogueAfter(k, op);
    GemmEpilogue *ep = epilogue ? &*epilogue : nullptr;
    auto ranEpilogue = [&] {
      if (ep && ep->ran) {
        ranAsEpilogue = k + 1;
        ++kernels->stats().gemmEpilogues;
      }
    };
    if (options.useBlas) {
      if (options.profile)
        externTimer.begin(*ctx);
      GemmRoute route = GemmRoute::Library;
      auto done = runBlasExtern(*ctx, options, *program_, op, bindings_, buffers_, &route, ep);
      if (!done || *done) {
        if (done) {
          const bool byTemplate = route != GemmRoute::Library;
          ++(byTemplate ? kernels->stats().gemmTemplateCalls : kernels->stats().blasCalls);
          kernels->stats().gemmSplitCalls += route == GemmRoute::TemplateSplit ? 1 : 0;
          if (options.profile)
            externTimer.end(*ctx, runIndex * 3 + (byTemplate ? 0 : 1));
          ranEpilogue();
        }
        return done;
      }
    }
    // Hand-written kernels for what CLBlast does not take (attention, sort, convolution, ...).
    if (options.profile)
      externTimer.begin(*ctx);
    auto onDevice = runDeviceExtern(*ctx, options, *program_, op, bindings_, buffers_, ep);
    if (onDevice && *onDevice) {
      ++kernels->stats().deviceExterns;
      if (options.profile)
        externTimer.end(*ctx, runIndex * 3 + 2);
      ranEpilogue();
    }
    return onDevice;
  }
  void countHostExtern() override { ++kernels->stats().hostExterns; }
  /// Releases the Unbacked buffers whose last use kernel `k` is (MemoryPlan::freedAfter).
  /// OpenCL deletes a released buffer once the enqueued commands using it have finished: no
  /// wait here.
  void afterKernel(size_t k) override {
    for (int32_t b : plan_->freedAfter[k]) {
      if (plan_->buffers[b].kind != BufferPlacement::Kind::Unbacked || !buffers_[b].mem)
        continue;
      auto it = std::find(perRun.begin(), perRun.end(), buffers_[b].mem);
      if (it != perRun.end()) {
        clReleaseMemObject(*it);
        perRun.erase(it);
      }
      buffers_[b] = {};
    }
  }
  void finishKernels() override { sync(); }
  void endRun() override {
    kernels->stats().corruptCacheEntries = kernels->cache().corruptEntriesRemoved();
    timer.end(*ctx);
  }
  /// Waits for every enqueued command, then reads the profiled launches and calls.
  void sync() {
    clFinish(ctx->queue());
    kernels->collectProfile();
    timer.collect();
    externTimer.collect();
    auto &byRun = kernels->stats().externSecondsByRun;
    for (size_t i = 0; i < externTimer.seconds().size(); ++i) {
      int label = externTimer.labels()[i];
      size_t run = static_cast<size_t>(label / 3);
      if (byRun.size() <= run)
        byRun.resize(run + 1);
      double &slot = label % 3 == 0   ? byRun[run].gemmTemplate
                     : label % 3 == 1 ? byRun[run].blas
                                      : byRun[run].deviceKernels;
      slot += externTimer.seconds()[i];
    }
    externTimer.clearCollected();
  }
};

std::optional<GemmEpilogue> OpenCLProgram::Impl::epilogueAfter(size_t k, const LoopOp &op) {
  static const bool disabled = [] {
    const char *v = std::getenv("FXKIT_GEMM_EPILOGUE");
    return v && std::string_view(v) == "0";
  }();
  if (!options.gemmEpilogues || disabled || k + 1 >= fused_->kernels.size() ||
      fused_->kernels[k + 1].gemmEpilogueOf < 0 || op.externOutputs.empty() ||
      op.externOutputs[0] < 0)
    return std::nullopt;
  const GeneratedKernel &g = generated.launches[k + 1];
  if (g.pointFunction.empty() || (g.usesDouble && !ctx->device().hasFp64))
    return std::nullopt;
  auto args = launchArgs(k + 1);
  auto points = eval(g.xnumel);
  if (!args || !points)
    return std::nullopt;
  // The template's work-groups read A and B while others run the epilogue: its writes must not
  // reach their storage. C's it may write only at the element being stored: the same offset
  // and element size (fusion checked that it stores at its own point).
  const DeviceBuffer &c = buffers_[op.externOutputs[0]];
  for (const KernelParam &p : g.params) {
    if (p.kind != KernelParam::Kind::Buffer || !p.written)
      continue;
    const DeviceBuffer &w = buffers_[p.buffer];
    for (const BufferView &in : op.externInputs)
      if (overlaps(w, buffers_[in.buffer]))
        return std::nullopt;
    if (overlaps(w, c) &&
        (w.offset != c.offset || dtypeItemSize(program_->buffers[p.buffer].type.dtype) != 4))
      return std::nullopt;
  }
  GemmEpilogue e;
  e.function = g.pointFunction;
  e.kernel = g.name;
  e.params = g.pointParams;
  e.args = g.pointArgs;
  e.launchArgs = args.take();
  e.points = *points;
  e.usesDouble = g.usesDouble;
  e.intIndex = intIndex;
  return e;
}

Expected<std::vector<LaunchArg>> OpenCLProgram::Impl::launchArgs(size_t k) {
  const GeneratedKernel &g = generated.launches[k];
  std::vector<LaunchArg> args;
  args.reserve(g.params.size());
  for (const KernelParam &p : g.params) {
    LaunchArg a;
    switch (p.kind) {
    case KernelParam::Kind::Buffer:
      a.kind = LaunchArg::Kind::Buffer;
      a.buffer = buffers_[p.buffer];
      a.written = p.written;
      if (!a.buffer.mem)
        return Error("kernel " + g.name + ": " + program_->buffers[p.buffer].name +
                     " has no device storage");
      break;
    case KernelParam::Kind::Size:
    case KernelParam::Kind::Numel: {
      auto v = eval(p.value);
      if (!v)
        return v.takeError();
      a.value = *v;
      break;
    }
    case KernelParam::Kind::Lanes:
      a.kind = p.name == "fx_L" ? LaunchArg::Kind::Lanes : LaunchArg::Kind::Rows;
      break;
    case KernelParam::Kind::Scratch:
      a.kind = LaunchArg::Kind::Scratch;
      a.scratchBytesPerItem = g.scratchBytesPerItem;
      break;
    }
    args.push_back(a);
  }
  return args;
}

Status OpenCLProgram::Impl::launch(size_t k) {
  if (ranAsEpilogue == k) { // it ran inside the product before it
    ranAsEpilogue = SIZE_MAX;
    return Status::ok();
  }
  const GeneratedKernel &g = generated.launches[k];
  FXKIT_ASSIGN_OR_RETURN(std::vector<LaunchArg> args, launchArgs(k));
  auto xnumel = eval(g.xnumel);
  auto rnumel = eval(g.rnumel);
  if (!xnumel || !rnumel)
    return Error("kernel " + g.name + ": cannot evaluate its iteration space");
  return kernels->launch(static_cast<size_t>(definitionOf[k]), args, *xnumel, *rnumel);
}

OpenCLProgram::OpenCLProgram() = default;
OpenCLProgram::~OpenCLProgram() = default;

Expected<std::unique_ptr<OpenCLProgram>>
OpenCLProgram::load(OpenCLContext &context, const LoopProgram &program, const FusedProgram &fused,
                    const MemoryPlan &plan, const OpenCLOptions &options) {
  std::unique_ptr<OpenCLProgram> out(new OpenCLProgram());
  out->impl_ = std::make_unique<Impl>(context, program, fused, plan);
  Impl &im = *out->impl_;
  im.options = options;
  GenerateOptions generateOptions;
  generateOptions.variants = KernelSet::usesVariants(options, context.device().isGpu);
  auto gen = generateOpenCL(program, fused, generateOptions);
  if (!gen)
    return gen.takeError();
  im.generated = gen.take();
  const DeviceInfo &dev = context.device();
  for (const GeneratedKernel &g : im.generated.launches)
    if (g.usesDouble && !dev.hasFp64)
      return Error("kernel " + g.name + " computes in float64, which " + dev.deviceName +
                   " does not support (cl_khr_fp64)");

  std::vector<KernelSpec> specs;
  std::map<std::string, int> byName;
  for (const GeneratedKernel &g : im.generated.launches) {
    if (g.name.empty()) {
      im.definitionOf.push_back(-1);
      continue;
    }
    std::string source = GeneratedProgram::prelude(g.usesDouble) + "\n" + g.source;
    // FXKIT_FAULT=build: a kernel the device compiler rejects (its cache key differs, so a
    // healthy run never sees it).
    if (faultInjected("build"))
      source +=
          "\n__kernel void fx_fault_injected(void) { fx_undeclared_by_fault_injection = 1; }\n";
    auto found = byName.find(g.name);
    if (found != byName.end()) {
      if (specs[found->second].source != source)
        return Error("kernel " + g.name + ": two definitions with one name (internal error)");
      im.definitionOf.push_back(found->second);
      continue;
    }
    byName[g.name] = static_cast<int>(specs.size());
    im.definitionOf.push_back(static_cast<int>(specs.size()));
    KernelSpec spec{g.name, std::move(source), g.isReduction, {}};
    spec.pointsPerStep = g.isReduction ? 1 : std::max(1, g.vectorWidth);
    for (const KernelVariant &v : g.variants)
      spec.variants.push_back(
          {v.name, GeneratedProgram::prelude(g.usesDouble) + "\n" + v.source, v.persistentPoints});
    specs.push_back(std::move(spec));
  }
  im.intIndex = indexFitsInt(program, im.generated);
  auto kernels = KernelSet::load(context, std::move(specs),
                                 openclBuildOptions(program, im.generated), options);
  if (!kernels)
    return kernels.takeError();
  im.kernels = kernels.take();
  return out;
}

Expected<InterpretResult> OpenCLProgram::run(std::span<const RuntimeValue> inputs) {
  return impl_->run(inputs);
}

Expected<InterpretResult> OpenCLProgram::run(std::span<const RuntimeValue> inputs,
                                             const KernelTap &tap) {
  return impl_->run(inputs, &tap);
}

Expected<InterpretResult> OpenCLProgram::runOnDevice(std::span<const RuntimeValue> inputs) {
  return impl_->run(inputs, nullptr, /*readOutputs=*/false);
}

Expected<InterpretResult> OpenCLProgram::fetchOutputs() { return impl_->fetchOutputs(); }

Status OpenCLProgram::setResidentInputs(std::vector<bool> which) {
  return impl_->setResidentInputs(std::move(which));
}

void OpenCLProgram::inputChanged(size_t i) { impl_->inputChanged(i); }

bool OpenCLProgram::writesInput(size_t i) const { return impl_->writesInput(i); }

void OpenCLProgram::sync() { impl_->sync(); }

const TransferStats &OpenCLProgram::transfers() const { return impl_->transfers(); }

const std::vector<double> &OpenCLProgram::callSeconds() const { return impl_->timer.seconds(); }

const GeneratedProgram &OpenCLProgram::generated() const { return impl_->generated; }
const OpenCLStats &OpenCLProgram::stats() const { return impl_->kernels->stats(); }

std::vector<std::pair<std::string, std::string>> OpenCLProgram::chosenConfigs() const {
  std::vector<std::pair<std::string, std::string>> out = impl_->kernels->chosenConfigs();
  for (auto &[shape, plan] : gemmChoicesUsed(*impl_->ctx))
    out.push_back({"gemm " + shape, plan});
  return out;
}

} // namespace fxkit::opencl
