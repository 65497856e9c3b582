#include "backends/opencl/runtime/OpenCLProgram.h"

#include "backends/interp/ExternLoopOp.h"
#include "backends/interp/KernelContext.h"
#include "backends/opencl/runtime/BlasExtern.h"
#include "backends/opencl/runtime/DeviceBuffer.h"
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

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// One distinct kernel definition: its program, built on a worker thread.
struct Definition {
  std::string name;
  std::string source; ///< prelude + the kernel
  std::string options;
  std::string cacheKey;
  bool isReduction = false;
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
  std::promise<Status> built;
  std::shared_future<Status> ready = built.get_future().share();
  /// Tuned configurations per shape key, and whether they changed since loading.
  std::map<std::string, LaunchConfig> configs;
  bool tuningDirty = false;
  bool tuningLoaded = false;
  std::set<std::string> fromDisk; ///< shapes loaded from the cache and not used yet
};

} // namespace

struct OpenCLProgram::Impl {
  OpenCLContext *ctx = nullptr;
  const LoopProgram *program = nullptr;
  const FusedProgram *fused = nullptr;
  const MemoryPlan *plan = nullptr;
  OpenCLOptions options;
  GeneratedProgram generated;
  KernelCache cache;
  std::vector<std::unique_ptr<Definition>> definitions;
  std::vector<int> definitionOf; ///< per fused kernel, -1 for extern
  std::vector<std::thread> workers;
  std::atomic<size_t> nextToBuild{0};
  std::mutex statsMutex;
  OpenCLStats stats;

  // Per run.
  SymExpr::Bindings bindings;
  std::vector<DeviceBuffer> buffers;
  std::vector<cl_mem> allocations;

  ~Impl();
  void buildWorker();
  Status build(Definition &d);
  Status bindInputs(std::span<const RuntimeValue> inputs);
  Status allocate(std::span<const RuntimeValue> inputs);
  Status launch(size_t kernelIndex);
  Status runExtern(size_t kernelIndex);
  Status setArgs(Definition &d, const GeneratedKernel &g, const LaunchConfig &c);
  Expected<double> enqueue(Definition &d, const GeneratedKernel &g, const LaunchConfig &c,
                           int64_t xnumel, bool timed);
  bool aliasesAnInput(const GeneratedKernel &g) const;
  Expected<LaunchConfig> tune(Definition &d, const GeneratedKernel &g, int64_t xnumel,
                              int64_t rnumel, int maxWg);
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

OpenCLProgram::Impl::~Impl() {
  nextToBuild = definitions.size(); // stop workers from taking more
  for (std::thread &t : workers)
    if (t.joinable())
      t.join();
  releaseBuffers();
  for (auto &d : definitions) {
    if (d->kernel)
      clReleaseKernel(d->kernel);
    if (d->program)
      clReleaseProgram(d->program);
    if (d->tuningDirty) {
      std::map<std::string, std::string> text;
      for (const auto &[shape, c] : d->configs)
        text[shape] = c.str(d->isReduction);
      (void)cache.storeTuning(d->cacheKey, text); // a cache that cannot be written is skipped
    }
  }
}

void OpenCLProgram::Impl::releaseBuffers() {
  for (cl_mem m : allocations)
    clReleaseMemObject(m);
  allocations.clear();
  buffers.clear();
}

void OpenCLProgram::Impl::buildWorker() {
  for (;;) {
    size_t i = nextToBuild.fetch_add(1);
    if (i >= definitions.size())
      return;
    Definition &d = *definitions[i];
    d.built.set_value(build(d));
  }
}

Status OpenCLProgram::Impl::build(Definition &d) {
  auto t0 = std::chrono::steady_clock::now();
  cl_int err = CL_SUCCESS;
  const DeviceInfo &dev = ctx->device();
  bool fromCache = false;
  if (auto binary = cache.loadBinary(d.cacheKey)) {
    const unsigned char *bytes = binary->data();
    size_t size = binary->size();
    cl_int status = CL_SUCCESS;
    d.program =
        clCreateProgramWithBinary(ctx->context(), 1, &dev.device, &size, &bytes, &status, &err);
    if (err == CL_SUCCESS && status == CL_SUCCESS &&
        clBuildProgram(d.program, 1, &dev.device, d.options.c_str(), nullptr, nullptr) ==
            CL_SUCCESS) {
      fromCache = true;
    } else if (d.program) {
      clReleaseProgram(d.program);
      d.program = nullptr;
    }
  }
  if (!fromCache) {
    const char *src = d.source.c_str();
    size_t len = d.source.size();
    d.program = clCreateProgramWithSource(ctx->context(), 1, &src, &len, &err);
    if (err != CL_SUCCESS)
      return clError("kernel " + d.name + ": creating the program", err);
    err = clBuildProgram(d.program, 1, &dev.device, d.options.c_str(), nullptr, nullptr);
    if (err != CL_SUCCESS) {
      size_t n = 0;
      clGetProgramBuildInfo(d.program, dev.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
      std::string log(n, '\0');
      clGetProgramBuildInfo(d.program, dev.device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
      // The source goes to a file of its own (never into the cache), so the log's line
      // numbers can be read against it.
      std::string path =
          (std::filesystem::temp_directory_path() / ("fxkit-" + d.cacheKey + ".cl")).string();
      std::ofstream(path) << d.source;
      return Error("kernel " + d.name + " does not build on " + dev.deviceName + " (" +
                   clErrorName(err) + "); source: " + path + "\n" + log);
    }
    size_t binSize = 0;
    if (cache.enabled() &&
        clGetProgramInfo(d.program, CL_PROGRAM_BINARY_SIZES, sizeof binSize, &binSize, nullptr) ==
            CL_SUCCESS &&
        binSize > 0) {
      std::vector<unsigned char> binary(binSize);
      unsigned char *ptr = binary.data();
      if (clGetProgramInfo(d.program, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr) ==
          CL_SUCCESS) {
        // Best effort: a full disk only costs time; the failure is counted for a warning.
        if (Status st = cache.storeBinary(d.cacheKey, binary); !st) {
          std::lock_guard<std::mutex> lock(statsMutex);
          if (stats.cacheWriteFailures++ == 0)
            stats.cacheWriteError = st.error().message;
        }
      }
    }
  }
  d.kernel = clCreateKernel(d.program, d.name.c_str(), &err);
  if (err != CL_SUCCESS)
    return clError("kernel " + d.name + ": creating the kernel", err);
  std::lock_guard<std::mutex> lock(statsMutex);
  (fromCache ? stats.kernelsFromCache : stats.kernelsBuilt)++;
  stats.buildSeconds += secondsSince(t0);
  return Status::ok();
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
      Tensor::forEachIndex(t.sizes(), [&](std::span<const int64_t> index) {
        declared->storeDouble(declared->offsetOf(index), t.getDouble(index));
      });
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
    auto bytes = eval(p.buffers[b].storageBytes());
    if (!bytes)
      return bytes.takeError();
    switch (pl.kind) {
    case BufferPlacement::Kind::Input:
    case BufferPlacement::Kind::Internal:
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

Status OpenCLProgram::Impl::setArgs(Definition &d, const GeneratedKernel &g,
                                    const LaunchConfig &c) {
  cl_uint arg = 0;
  auto set = [&](size_t size, const void *value) -> Status {
    cl_int err = clSetKernelArg(d.kernel, arg, size, value);
    if (err != CL_SUCCESS)
      return clError("kernel " + d.name + ": argument " + std::to_string(arg), err);
    ++arg;
    return Status::ok();
  };
  for (const KernelParam &p : g.params) {
    Status s = Status::ok();
    switch (p.kind) {
    case KernelParam::Kind::Buffer: {
      const DeviceBuffer &b = buffers[p.buffer];
      if (!b.mem)
        return Error("kernel " + d.name + ": " + program->buffers[p.buffer].name +
                     " has no device storage");
      cl_ulong offset = b.offset;
      if (Status t = set(sizeof(cl_mem), &b.mem); !t)
        return t;
      s = set(sizeof offset, &offset);
      break;
    }
    case KernelParam::Kind::Size:
    case KernelParam::Kind::Numel: {
      auto v = eval(p.value);
      if (!v)
        return v.takeError();
      cl_long value = *v;
      s = set(sizeof value, &value);
      break;
    }
    case KernelParam::Kind::Lanes: {
      cl_int value = p.name == "fx_L" ? c.lanes : c.rows;
      s = set(sizeof value, &value);
      break;
    }
    case KernelParam::Kind::Scratch:
      s = set(static_cast<size_t>(g.scratchBytesPerItem) * c.lanes * c.rows, nullptr);
      break;
    }
    if (!s)
      return s;
  }
  return Status::ok();
}

Expected<double> OpenCLProgram::Impl::enqueue(Definition &d, const GeneratedKernel &g,
                                              const LaunchConfig &c, int64_t xnumel, bool timed) {
  if (Status s = setArgs(d, g, c); !s)
    return s.takeError();
  size_t global = static_cast<size_t>(c.globalSize(g.isReduction, xnumel));
  size_t local = static_cast<size_t>(c.local);
  cl_event event = nullptr;
  cl_int err = clEnqueueNDRangeKernel(ctx->queue(), d.kernel, 1, nullptr, &global, &local, 0,
                                      nullptr, timed ? &event : nullptr);
  if (err != CL_SUCCESS)
    return clError("launching kernel " + d.name + " (" + c.str(g.isReduction) + ")", err);
  if (!timed)
    return 0.0;
  clWaitForEvents(1, &event);
  cl_ulong start = 0, end = 0;
  clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr);
  clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr);
  clReleaseEvent(event);
  return static_cast<double>(end - start) * 1e-9;
}

bool OpenCLProgram::Impl::aliasesAnInput(const GeneratedKernel &g) const {
  for (const KernelParam &w : g.params) {
    if (w.kind != KernelParam::Kind::Buffer || !w.written)
      continue;
    const DeviceBuffer &a = buffers[w.buffer];
    for (const KernelParam &r : g.params) {
      if (r.kind != KernelParam::Kind::Buffer || r.written)
        continue;
      const DeviceBuffer &b = buffers[r.buffer];
      if (a.mem == b.mem && a.offset < b.offset + b.bytes && b.offset < a.offset + a.bytes)
        return true;
    }
  }
  return false;
}

Expected<LaunchConfig> OpenCLProgram::Impl::tune(Definition &d, const GeneratedKernel &g,
                                                 int64_t xnumel, int64_t rnumel, int maxWg) {
  const DeviceInfo &dev = ctx->device();
  LaunchConfig best = defaultConfig(g.isReduction, xnumel, rnumel, maxWg, dev.isGpu);
  // Trials must not change what the real launch computes: a kernel that writes over its own
  // input (in place) gets the written bytes saved first and restored after every trial.
  std::vector<std::pair<const DeviceBuffer *, cl_mem>> saved;
  auto release = [&] {
    for (auto &[b, copy] : saved)
      clReleaseMemObject(copy);
  };
  if (aliasesAnInput(g))
    for (const KernelParam &p : g.params) {
      if (p.kind != KernelParam::Kind::Buffer || !p.written || buffers[p.buffer].bytes == 0)
        continue;
      const DeviceBuffer &b = buffers[p.buffer];
      cl_int err = CL_SUCCESS;
      cl_mem copy = clCreateBuffer(ctx->context(), CL_MEM_READ_WRITE, b.bytes, nullptr, &err);
      if (err == CL_SUCCESS)
        err = clEnqueueCopyBuffer(ctx->queue(), b.mem, copy, b.offset, 0, b.bytes, 0, nullptr,
                                  nullptr);
      if (err != CL_SUCCESS) {
        if (copy)
          clReleaseMemObject(copy);
        release();
        return best; // no room to tune safely: the default configuration
      }
      saved.push_back({&b, copy});
    }
  auto restore = [&]() -> Status {
    for (auto &[b, copy] : saved)
      if (cl_int err = clEnqueueCopyBuffer(ctx->queue(), copy, b->mem, 0, b->offset, b->bytes, 0,
                                           nullptr, nullptr);
          err != CL_SUCCESS)
        return clError("restoring a buffer after a tuning trial", err);
    return Status::ok();
  };
  double bestTime = -1;
  int trials = 0;
  for (const LaunchConfig &c : candidateConfigs(g.isReduction, xnumel, rnumel, maxWg, dev.isGpu)) {
    if (trials++ >= options.maxTrials)
      break;
    auto warm = enqueue(d, g, c, xnumel, true);
    Status r1 = restore();
    if (!r1) {
      release();
      return r1.takeError();
    }
    if (!warm)
      continue; // a configuration the device refuses is not a candidate
    // The faster of two timed launches: one launch alone is at the mercy of noise.
    double fastest = -1;
    for (int rep = 0; rep < 2; ++rep) {
      auto t = enqueue(d, g, c, xnumel, true);
      Status r2 = restore();
      if (!r2) {
        release();
        return r2.takeError();
      }
      if (t && (fastest < 0 || *t < fastest))
        fastest = *t;
    }
    if (fastest >= 0 && (bestTime < 0 || fastest < bestTime)) {
      bestTime = fastest;
      best = c;
    }
  }
  clFinish(ctx->queue());
  release();
  return best;
}

Status OpenCLProgram::Impl::launch(size_t k) {
  const GeneratedKernel &g = generated.launches[k];
  Definition &d = *definitions[definitionOf[k]];
  auto t0 = std::chrono::steady_clock::now();
  if (Status s = d.ready.get(); !s)
    return s;
  stats.waitSeconds += secondsSince(t0);
  auto xnumel = eval(g.xnumel);
  auto rnumel = eval(g.rnumel);
  if (!xnumel || !rnumel)
    return Error("kernel " + d.name + ": cannot evaluate its iteration space");
  if (*xnumel <= 0)
    return Status::ok();
  const DeviceInfo &dev = ctx->device();
  int maxWg = static_cast<int>(std::min<size_t>(dev.maxWorkGroupSize, 1024));
  size_t kernelWg = 0;
  if (clGetKernelWorkGroupInfo(d.kernel, dev.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernelWg,
                               &kernelWg, nullptr) == CL_SUCCESS &&
      kernelWg > 0)
    maxWg = std::min<int>(maxWg, static_cast<int>(kernelWg));
  std::string shape = "x" + std::to_string(*xnumel) + "_r" + std::to_string(*rnumel);
  if (!d.tuningLoaded) {
    d.tuningLoaded = true;
    for (const auto &[key, text] : cache.loadTuning(d.cacheKey))
      if (auto c = LaunchConfig::parse(text)) {
        d.configs[key] = *c;
        d.fromDisk.insert(key);
      }
  }
  if (!options.forceConfig.empty()) {
    auto forced = LaunchConfig::parse(options.forceConfig);
    bool reductionConfig = options.forceConfig.starts_with("lanes=");
    if (!forced)
      return Error("bad launch configuration '" + options.forceConfig +
                   "' (expected lanes=L,rows=W or local=N,per_item=K)");
    if (reductionConfig == g.isReduction) {
      if (forced->local > maxWg)
        return Error("launch configuration '" + options.forceConfig + "' needs " +
                     std::to_string(forced->local) + " work-items per group; kernel " + d.name +
                     " allows " + std::to_string(maxWg));
      auto r = enqueue(d, g, *forced, *xnumel, false);
      if (!r)
        return r.takeError();
      ++stats.launches;
      return Status::ok();
    }
  }
  auto it = d.configs.find(shape);
  if (it != d.configs.end() && it->second.local <= maxWg) {
    if (d.fromDisk.erase(shape))
      ++stats.configsFromCache;
  } else {
    LaunchConfig best = defaultConfig(g.isReduction, *xnumel, *rnumel, maxWg, dev.isGpu);
    if (options.tune) {
      auto tuned = tune(d, g, *xnumel, *rnumel, maxWg);
      if (!tuned)
        return tuned.takeError();
      best = *tuned;
      ++stats.configsTuned;
      d.tuningDirty = true;
    }
    it = d.configs.insert_or_assign(shape, best).first;
  }
  auto r = enqueue(d, g, it->second, *xnumel, options.profile);
  if (!r)
    return r.takeError();
  stats.kernelSeconds += *r;
  ++stats.launches;
  return Status::ok();
}

Status OpenCLProgram::Impl::runExtern(size_t k) {
  const Kernel &kernel = fused->kernels[k];
  const LoopOp &op = program->ops[kernel.ops.front()];
  if (options.useBlas) {
    auto done = runBlasExtern(*ctx, *program, op, bindings, buffers);
    if (!done)
      return done.takeError();
    if (*done) {
      ++stats.blasCalls;
      return Status::ok();
    }
  }
  // On the host with the reference kernel: copy the op's buffers over and back.
  std::vector<Tensor> storage(program->buffers.size());
  std::vector<int32_t> used;
  for (const BufferView &v : op.externInputs)
    used.push_back(v.buffer);
  for (int32_t b : op.externOutputs)
    if (b >= 0)
      used.push_back(b);
  for (int32_t b : used) {
    auto t = download(b);
    if (!t)
      return t.takeError();
    storage[b] = t.take();
  }
  if (Status s = runExternLoopOp(op, storage, bindings); !s)
    return s;
  for (int32_t b : op.externOutputs)
    if (b >= 0)
      if (Status s = upload(b, storage[b]); !s)
        return s;
  ++stats.hostExterns;
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
  im.cache = KernelCache(options.cacheDir, options.cache);
  auto gen = generateOpenCL(program, fused);
  if (!gen)
    return gen.takeError();
  im.generated = gen.take();
  const DeviceInfo &dev = context.device();
  for (const GeneratedKernel &g : im.generated.launches)
    if (g.usesDouble && !dev.hasFp64)
      return Error("kernel " + g.name + " computes in float64, which " + dev.deviceName +
                   " does not support (cl_khr_fp64)");

  // 32-bit indexing when every size is known and every index fits.
  bool smallIndex = true;
  for (const Buffer &b : program.buffers) {
    SymExpr n = b.storageNumel();
    smallIndex = smallIndex && n.isConstant() && n.constant() < (int64_t(1) << 31);
  }
  for (const GeneratedKernel &g : im.generated.launches) {
    if (g.name.empty())
      continue;
    SymExpr n = symMul(g.xnumel, g.rnumel).simplify();
    smallIndex = smallIndex && n.isConstant() && n.constant() < (int64_t(1) << 31);
  }
  std::string buildOptions =
      std::string("-cl-std=CL1.2 -DFX_INDEX_T=") + (smallIndex ? "int" : "long");
  if (const char *extra = std::getenv("FXKIT_OPENCL_BUILD_OPTIONS"); extra && *extra)
    buildOptions += std::string(" ") + extra; // for experiments; part of the cache key

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
      if (im.definitions[found->second]->source != source)
        return Error("kernel " + g.name + ": two definitions with one name (internal error)");
      im.definitionOf.push_back(found->second);
      continue;
    }
    auto d = std::make_unique<Definition>();
    d->name = g.name;
    d->source = std::move(source);
    d->options = buildOptions;
    d->isReduction = g.isReduction;
    std::string identity = d->source + "\n" + d->options + "\n" + dev.platformName + "\n" +
                           dev.deviceName + "\n" + dev.deviceVersion + "\n" + dev.driverVersion;
    d->cacheKey = g.name + "-" + hashHex(stableHash(identity));
    byName[g.name] = static_cast<int>(im.definitions.size());
    im.definitionOf.push_back(static_cast<int>(im.definitions.size()));
    im.definitions.push_back(std::move(d));
  }
  size_t threads = std::max<size_t>(
      1, std::min<size_t>(std::thread::hardware_concurrency(), im.definitions.size()));
  for (size_t t = 0; t < threads && !im.definitions.empty(); ++t)
    im.workers.emplace_back([&im] { im.buildWorker(); });
  return out;
}

Expected<InterpretResult> OpenCLProgram::run(std::span<const RuntimeValue> inputs) {
  Impl &im = *impl_;
  if (Status s = im.bindInputs(inputs); !s)
    return s.takeError();
  if (Status s = im.allocate(inputs); !s)
    return s.takeError();
  for (size_t k = 0; k < im.fused->kernels.size(); ++k) {
    Status s = im.fused->kernels[k].isExtern ? im.runExtern(k) : im.launch(k);
    if (!s)
      return s.takeError();
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
  im.stats.corruptCacheEntries = im.cache.corruptEntriesRemoved();
  im.releaseBuffers();
  return result;
}

const GeneratedProgram &OpenCLProgram::generated() const { return impl_->generated; }
const OpenCLStats &OpenCLProgram::stats() const { return impl_->stats; }

std::vector<std::pair<std::string, std::string>> OpenCLProgram::chosenConfigs() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto &d : impl_->definitions)
    for (const auto &[shape, c] : d->configs)
      out.push_back({d->name + " " + shape, c.str(d->isReduction)});
  return out;
}

} // namespace fxkit::opencl
