#include "backends/opencl/runtime/OpenCLProgram.h"

#include "backends/interp/ExternLoopOp.h"
#include "backends/interp/KernelContext.h"
#include "backends/opencl/runtime/BlasExtern.h"
#include "backends/opencl/runtime/DeviceBuffer.h"
#include "backends/opencl/runtime/DeviceExterns.h"
#include "backends/opencl/runtime/KernelSet.h"
#include "ir/FaultInjection.h"
#include "ir/ops/ShapeRules.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace fxkit::opencl {

using namespace loop;

struct OpenCLProgram::Impl {
  OpenCLContext *ctx = nullptr;
  const LoopProgram *program = nullptr;
  const FusedProgram *fused = nullptr;
  const MemoryPlan *plan = nullptr;
  OpenCLOptions options;
  GeneratedProgram generated;
  std::unique_ptr<KernelSet> kernels;
  std::vector<int> definitionOf; ///< per fused kernel, -1 for extern
  /// Per fused kernel: the buffers its extern op writes in place (mutatedBuffers), empty for
  /// the others.
  std::vector<std::vector<int32_t>> mutatedOf;

  // Per run.
  SymExpr::Bindings bindings;
  std::vector<DeviceBuffer> buffers;
  std::vector<cl_mem> allocations;
  std::span<const RuntimeValue> callerInputs; ///< the run's inputs (returnMutatedInputs)

  ~Impl() { releaseBuffers(); }
  Status bindInputs(std::span<const RuntimeValue> inputs);
  Status allocate(std::span<const RuntimeValue> inputs);
  Status launch(size_t kernelIndex);
  Status runExtern(size_t kernelIndex);
  /// Copies the graph inputs that extern kernel `k` wrote in place from the device into the
  /// caller's tensors, as the reference interpreter's kernels write into its inputs' storage.
  /// Right after the op: the memory plan may reuse an input's storage once nothing reads it.
  Status returnMutatedInputs(size_t kernelIndex);
  /// Allocates an Unbacked buffer (MemoryPlan) once the symbols of its size are bound; nothing
  /// for other buffers or while a symbol is unbound.
  Status allocateUnbacked(int32_t buffer);
  /// Allocates the Unbacked buffers kernel `k` first writes, before it runs.
  Status allocateUnbackedOf(size_t k);
  /// Releases the Unbacked buffers whose last use kernel `k` is (MemoryPlan::freedAfter).
  void releaseUnbackedAfter(size_t k);
  Expected<Tensor> download(int32_t buffer);
  Status upload(int32_t buffer, const Tensor &host);
  void releaseBuffers();
  Expected<int64_t> eval(const SymExpr &e) const {
    auto v = e.evaluate(bindings);
    if (!v)
      return Error("OpenCL program: " + v.error().message);
    return v;
  }
};

void OpenCLProgram::Impl::releaseBuffers() {
  for (cl_mem m : allocations)
    clReleaseMemObject(m);
  allocations.clear();
  buffers.clear();
}

Status OpenCLProgram::Impl::bindInputs(std::span<const RuntimeValue> inputs) {
  const LoopProgram &p = *program;
  if (inputs.size() != p.inputs.size())
    return Error("the program has " + std::to_string(p.inputs.size()) + " inputs, got " +
                 std::to_string(inputs.size()));
  bindings.clear();
  for (size_t i = 0; i < inputs.size(); ++i) {
    int32_t b = p.inputs[i];
    if (b < 0) {
      const int64_t *v = inputs[i].integer();
      if (!v)
        return Error("input " + std::to_string(i) + " must be an integer");
      auto sym = SymExpr::parse(p.inputSymbols[i]);
      if (sym && sym->kind() == SymExpr::Kind::Symbol)
        bindings.emplace(std::string(sym->name()), *v);
      continue;
    }
    const Tensor *t = inputs[i].tensor();
    const TensorType &type = p.buffers[b].type;
    if (!t || t->dim() != static_cast<int64_t>(type.sizes.size()))
      return Error("input " + std::to_string(i) + " must be a tensor of type " + type.str());
    if (t->dtype() != type.dtype)
      return Error("input " + std::to_string(i) + " has dtype " +
                   std::string(dtypeName(t->dtype())) + ", the program expects " + type.str());
    for (size_t d = 0; d < type.sizes.size(); ++d)
      if (!type.sizes[d].isConstant() && type.sizes[d].kind() == SymExpr::Kind::Symbol)
        bindings.emplace(std::string(type.sizes[d].name()), t->size(d));
  }
  return Status::ok();
}

Status OpenCLProgram::Impl::upload(int32_t b, const Tensor &host) {
  const DeviceBuffer &d = buffers[b];
  size_t n = std::min(d.bytes, host.storage()->size());
  if (n == 0)
    return Status::ok();
  cl_int err = clEnqueueWriteBuffer(ctx->queue(), d.mem, CL_TRUE, d.offset, n,
                                    host.storage()->data(), 0, nullptr, nullptr);
  if (err != CL_SUCCESS)
    return clError("writing " + program->buffers[b].name + " to the device", err);
  return Status::ok();
}

Expected<Tensor> OpenCLProgram::Impl::download(int32_t b) {
  auto host = allocateTensor(program->buffers[b].type, bindings);
  if (!host)
    return host.takeError();
  const DeviceBuffer &d = buffers[b];
  size_t n = std::min(d.bytes, host->storage()->size());
  if (n == 0)
    return host;
  cl_int err = clEnqueueReadBuffer(ctx->queue(), d.mem, CL_TRUE, d.offset, n,
                                   host->storage()->data(), 0, nullptr, nullptr);
  if (err != CL_SUCCESS)
    return clError("reading " + program->buffers[b].name + " from the device", err);
  return host;
}

Status OpenCLProgram::Impl::allocate(std::span<const RuntimeValue> inputs) {
  const LoopProgram &p = *program;
  releaseBuffers();
  buffers.assign(p.buffers.size(), {});
  auto create = [&](size_t bytes, const void *host) -> Expected<cl_mem> {
    cl_int err = CL_SUCCESS;
    cl_mem m = nullptr;
    if (faultInjected("alloc")) // FXKIT_FAULT=alloc: the device is out of memory
      err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
    else
      m = clCreateBuffer(ctx->context(), CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0),
                         std::max<size_t>(bytes, 1), const_cast<void *>(host), &err);
    if (err != CL_SUCCESS)
      return clError(
          "allocating " + std::to_string(bytes) + " bytes on " + ctx->device().deviceName, err);
    allocations.push_back(m);
    return m;
  };
  // Inputs, copied into the layout the program declares for them.
  for (size_t i = 0; i < inputs.size(); ++i) {
    int32_t b = p.inputs[i];
    if (b < 0)
      continue;
    const Tensor &t = *inputs[i].tensor();
    auto declared = allocateTensor(p.buffers[b].type, bindings);
    if (!declared)
      return declared.takeError();
    if (declared->sizes() != t.sizes())
      return Error("input " + std::to_string(i) + " does not have the sizes of " +
                   p.buffers[b].type.str());
    if (t.strides() == declared->strides() && t.storageOffset() == 0 &&
        t.storage()->size() >= declared->storage()->size()) {
      declared = t;
    } else {
      declared->copyElementsFrom(t);
    }
    auto m = create(declared->storage()->size(), declared->storage()->data());
    if (!m)
      return m.takeError();
    buffers[b] = {*m, 0, declared->storage()->size()};
  }
  // The pool, then the buffers that own or share storage, in plan order.
  cl_mem pool = nullptr;
  for (size_t b = 0; b < p.buffers.size(); ++b)
    if (plan->buffers[b].kind == BufferPlacement::Kind::Pool && !pool) {
      auto m = create(static_cast<size_t>(std::max<int64_t>(plan->poolBytes, 1)), nullptr);
      if (!m)
        return m.takeError();
      pool = *m;
    }
  // In-place and reuse links point at buffers that may come later in index order: resolve
  // by following links until a buffer with its own storage.
  for (size_t b = 0; b < p.buffers.size(); ++b) {
    const BufferPlacement &pl = plan->buffers[b];
    // Unbacked: allocated when its symbols are bound (allocateUnbacked); internal buffers
    // (which may be sized by one) have no storage.
    if (pl.kind == BufferPlacement::Kind::Unbacked || pl.kind == BufferPlacement::Kind::Internal)
      continue;
    auto bytes = eval(p.buffers[b].storageBytes());
    if (!bytes)
      return bytes.takeError();
    switch (pl.kind) {
    case BufferPlacement::Kind::Input:
    case BufferPlacement::Kind::Internal:
    case BufferPlacement::Kind::Unbacked:
      break;
    case BufferPlacement::Kind::Pool:
      buffers[b] = {pool, static_cast<size_t>(pl.offset), static_cast<size_t>(*bytes)};
      break;
    case BufferPlacement::Kind::Own:
      if (pl.reuseOf < 0) {
        auto m = create(static_cast<size_t>(*bytes), nullptr);
        if (!m)
          return m.takeError();
        buffers[b] = {*m, 0, static_cast<size_t>(*bytes)};
      }
      break;
    case BufferPlacement::Kind::InPlace:
      break;
    }
  }
  for (size_t b = 0; b < p.buffers.size(); ++b) {
    const BufferPlacement &pl = plan->buffers[b];
    if (pl.kind != BufferPlacement::Kind::InPlace &&
        !(pl.kind == BufferPlacement::Kind::Own && pl.reuseOf >= 0))
      continue;
    int32_t src = static_cast<int32_t>(b);
    for (size_t hops = 0; hops <= p.buffers.size(); ++hops) {
      const BufferPlacement &s = plan->buffers[src];
      if (s.kind == BufferPlacement::Kind::InPlace)
        src = s.inPlaceOf;
      else if (s.kind == BufferPlacement::Kind::Own && s.reuseOf >= 0)
        src = s.reuseOf;
      else
        break;
    }
    if (!buffers[src].mem)
      return Error("memory plan: " + p.buffers[b].name + " shares storage that has none");
    auto bytes = eval(p.buffers[b].storageBytes());
    if (!bytes)
      return bytes.takeError();
    buffers[b] = {buffers[src].mem, buffers[src].offset, static_cast<size_t>(*bytes)};
  }
  return Status::ok();
}

Status OpenCLProgram::Impl::allocateUnbacked(int32_t b) {
  if (plan->buffers[b].kind != BufferPlacement::Kind::Unbacked || buffers[b].mem)
    return Status::ok();
  SymExpr bytesExpr = program->buffers[b].storageBytes();
  for (const std::string &s : bytesExpr.symbols())
    if (!bindings.count(s))
      return Status::ok();
  auto bytes = eval(bytesExpr);
  if (!bytes)
    return bytes.takeError();
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(ctx->context(), CL_MEM_READ_WRITE,
                            std::max<size_t>(static_cast<size_t>(*bytes), 1), nullptr, &err);
  if (err != CL_SUCCESS)
    return clError("allocating " + std::to_string(*bytes) + " bytes for " +
                       program->buffers[b].name + " on " + ctx->device().deviceName,
                   err);
  allocations.push_back(m);
  buffers[b] = {m, 0, static_cast<size_t>(*bytes)};
  return Status::ok();
}

Status OpenCLProgram::Impl::allocateUnbackedOf(size_t k) {
  for (int32_t op : fused->kernels[k].ops) {
    for (int32_t b : program->ops[op].writes())
      if (Status s = allocateUnbacked(b); !s)
        return s;
    for (int32_t b : program->ops[op].externOutputs)
      if (b >= 0)
        if (Status s = allocateUnbacked(b); !s)
          return s;
  }
  return Status::ok();
}

void OpenCLProgram::Impl::releaseUnbackedAfter(size_t k) {
  for (int32_t b : plan->freedAfter[k]) {
    if (plan->buffers[b].kind != BufferPlacement::Kind::Unbacked || !buffers[b].mem)
      continue;
    clFinish(ctx->queue()); // the kernels that read it have finished
    auto it = std::find(allocations.begin(), allocations.end(), buffers[b].mem);
    if (it != allocations.end()) {
      clReleaseMemObject(*it);
      allocations.erase(it);
    }
    buffers[b] = {};
  }
}

Status OpenCLProgram::Impl::launch(size_t k) {
  const GeneratedKernel &g = generated.launches[k];
  std::vector<LaunchArg> args;
  args.reserve(g.params.size());
  for (const KernelParam &p : g.params) {
    LaunchArg a;
    switch (p.kind) {
    case KernelParam::Kind::Buffer:
      a.kind = LaunchArg::Kind::Buffer;
      a.buffer = buffers[p.buffer];
      a.written = p.written;
      if (!a.buffer.mem)
        return Error("kernel " + g.name + ": " + program->buffers[p.buffer].name +
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
  auto xnumel = eval(g.xnumel);
  auto rnumel = eval(g.rnumel);
  if (!xnumel || !rnumel)
    return Error("kernel " + g.name + ": cannot evaluate its iteration space");
  return kernels->launch(static_cast<size_t>(definitionOf[k]), args, *xnumel, *rnumel);
}

Status OpenCLProgram::Impl::runExtern(size_t k) {
  const Kernel &kernel = fused->kernels[k];
  const LoopOp &op = program->ops[kernel.ops.front()];
  // An op that binds unbacked symbols runs on the host (as Inductor falls back for nonzero and
  // item()): its result decides their values and the sizes of its outputs.
  const bool binds = !op.defines.empty();
  if (options.useBlas && !binds) {
    auto done = runBlasExtern(*ctx, *program, op, bindings, buffers);
    if (!done)
      return done.takeError();
    if (*done) {
      ++kernels->stats().blasCalls;
      return returnMutatedInputs(k);
    }
  }
  // Hand-written kernels for what CLBlast does not take (attention, sort, convolution, ...).
  auto onDevice = binds ? Expected<bool>(false)
                        : runDeviceExtern(*ctx, options, *program, op, bindings, buffers);
  if (!onDevice)
    return onDevice.takeError();
  if (*onDevice) {
    ++kernels->stats().deviceExterns;
    return returnMutatedInputs(k);
  }
  // On the host with the reference kernel: copy the op's buffers over and back.
  std::vector<Tensor> storage(program->buffers.size());
  std::vector<int32_t> used;
  for (const BufferView &v : op.externInputs)
    used.push_back(v.buffer);
  // An output sized by a symbol this op binds is allocated by runExternLoopOp.
  for (size_t i = 0; i < op.externOutputs.size(); ++i)
    if (op.externOutputs[i] >= 0 && !op.definesSizeOf(i))
      used.push_back(op.externOutputs[i]);
  for (int32_t b : used) {
    auto t = download(b);
    if (!t)
      return t.takeError();
    storage[b] = t.take();
  }
  if (Status s = runExternLoopOp(op, storage, bindings); !s)
    return s;
  // The inputs it wrote in place first: an output placed in a dead input's storage wins.
  for (int32_t b : mutatedOf[k])
    if (Status s = upload(b, storage[b]); !s)
      return s;
  for (int32_t b : op.externOutputs) {
    if (b < 0)
      continue;
    if (Status s = allocateUnbacked(b); !s)
      return s;
    if (Status s = upload(b, storage[b]); !s)
      return s;
  }
  ++kernels->stats().hostExterns;
  return returnMutatedInputs(k);
}

Status OpenCLProgram::Impl::returnMutatedInputs(size_t k) {
  for (int32_t b : mutatedOf[k])
    for (size_t i = 0; i < program->inputs.size() && i < callerInputs.size(); ++i) {
      if (program->inputs[i] != b || !callerInputs[i].tensor())
        continue;
      auto host = download(b);
      if (!host)
        return host.takeError();
      Tensor caller = *callerInputs[i].tensor(); // shares the caller's storage
      caller.copyElementsFrom(*host);
    }
  return Status::ok();
}

OpenCLProgram::OpenCLProgram() : impl_(std::make_unique<Impl>()) {}
OpenCLProgram::~OpenCLProgram() = default;

Expected<std::unique_ptr<OpenCLProgram>>
OpenCLProgram::load(OpenCLContext &context, const LoopProgram &program, const FusedProgram &fused,
                    const MemoryPlan &plan, const OpenCLOptions &options) {
  std::unique_ptr<OpenCLProgram> out(new OpenCLProgram());
  Impl &im = *out->impl_;
  im.ctx = &context;
  im.program = &program;
  im.fused = &fused;
  im.plan = &plan;
  im.options = options;
  auto gen = generateOpenCL(program, fused);
  if (!gen)
    return gen.takeError();
  im.generated = gen.take();
  for (const Kernel &k : fused.kernels)
    im.mutatedOf.push_back(k.isExtern ? mutatedBuffers(program.ops[k.ops.front()])
                                      : std::vector<int32_t>{});
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
    specs.push_back({g.name, std::move(source), g.isReduction});
  }
  auto kernels = KernelSet::load(context, std::move(specs),
                                 openclBuildOptions(program, im.generated), options);
  if (!kernels)
    return kernels.takeError();
  im.kernels = kernels.take();
  return out;
}

Expected<InterpretResult> OpenCLProgram::run(std::span<const RuntimeValue> inputs) {
  Impl &im = *impl_;
  im.callerInputs = inputs;
  if (Status s = im.bindInputs(inputs); !s)
    return s.takeError();
  if (Status s = im.allocate(inputs); !s)
    return s.takeError();
  for (size_t k = 0; k < im.fused->kernels.size(); ++k) {
    if (Status s = im.allocateUnbackedOf(k); !s)
      return s.takeError();
    Status s = im.fused->kernels[k].isExtern ? im.runExtern(k) : im.launch(k);
    if (!s)
      return s.takeError();
    im.releaseUnbackedAfter(k);
  }
  clFinish(im.ctx->queue());
  InterpretResult result;
  for (const LoopProgram::Output &o : im.program->outputs) {
    if (o.isNone) {
      result.outputs.push_back(RuntimeValue{});
      continue;
    }
    if (o.view.buffer < 0) {
      auto v = im.eval(o.symbol);
      if (!v)
        return v.takeError();
      result.outputs.push_back(RuntimeValue{*v});
      continue;
    }
    auto host = im.download(o.view.buffer);
    if (!host)
      return host.takeError();
    std::vector<int64_t> sizes, strides;
    for (const SymExpr &e : o.view.sizes) {
      auto v = im.eval(e);
      if (!v)
        return v.takeError();
      sizes.push_back(*v);
    }
    for (const SymExpr &e : o.view.strides) {
      auto v = im.eval(e);
      if (!v)
        return v.takeError();
      strides.push_back(*v);
    }
    auto offset = im.eval(o.view.offset);
    if (!offset)
      return offset.takeError();
    auto t = host->asStrided(sizes, strides, *offset);
    if (!t)
      return t.takeError();
    result.outputs.push_back(RuntimeValue{t.take()});
  }
  result.bindings = im.bindings;
  im.kernels->stats().corruptCacheEntries = im.kernels->cache().corruptEntriesRemoved();
  im.releaseBuffers();
  im.callerInputs = {};
  return result;
}

const GeneratedProgram &OpenCLProgram::generated() const { return impl_->generated; }
const OpenCLStats &OpenCLProgram::stats() const { return impl_->kernels->stats(); }

std::vector<std::pair<std::string, std::string>> OpenCLProgram::chosenConfigs() const {
  return impl_->kernels->chosenConfigs();
}

} // namespace fxkit::opencl
