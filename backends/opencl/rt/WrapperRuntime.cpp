#include "backends/opencl/rt/WrapperRuntime.h"

#include "backends/interp/Interpreter.h"
#include "backends/opencl/rt/HostTensorConversion.h"
#include "backends/opencl/runtime/BlasExtern.h"
#include "backends/opencl/runtime/CallTimer.h"
#include "backends/opencl/runtime/DeviceExterns.h"
#include "backends/opencl/runtime/GemmTemplate.h"
#include "backends/opencl/runtime/KernelSet.h"
#include "backends/opencl/runtime/OpenCLDevice.h"
#include "importers/FxTextParser.h"
#include "ir/Node.h"
#include "ir/Tensor.h"
#include "ir/loop/BoundSizes.h"
#include "ir/loop/LoopIR.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <string_view>
#include <utility>

namespace fxkit::rt {

using opencl::DeviceBuffer;
using opencl::KernelSet;
using opencl::LaunchArg;

/// Device buffers no Storage refers to any more, by size, for the next allocation of that size
/// (PyTorch's caching allocator, in its simplest form): a wrapper allocates its pool and its
/// inputs on every call, and after the first call takes them from here instead of the driver.
/// Released with the runtime (or when the last allocation using it goes).
struct FreeBuffers {
  std::mutex mutex;
  std::multimap<size_t, cl_mem> bySize;
  int64_t created = 0, reused = 0;
  ~FreeBuffers() {
    for (auto &[bytes, mem] : bySize)
      clReleaseMemObject(mem);
  }
};

struct Allocation {
  cl_mem mem = nullptr;
  size_t bytes = 0;
  std::shared_ptr<FreeBuffers> cache; ///< where `mem` goes back to
  ~Allocation() {
    if (!mem)
      return;
    if (cache) {
      std::lock_guard<std::mutex> lock(cache->mutex);
      cache->bySize.emplace(bytes, mem);
    } else {
      clReleaseMemObject(mem);
    }
  }
};

/// A kernel's body at one point, for the GEMM template to run as a product's epilogue
/// (KernelSource::pointFunction).
struct EpiloguePoint {
  std::string function, params, args;
  bool usesDouble = false;
};

class Kernels {
public:
  std::unique_ptr<KernelSet> set;
  Status loadError = Status::ok();
  std::vector<std::string> names;              ///< by launch index
  std::map<std::string, EpiloguePoint> points; ///< kernels with a body at one point, by name
  bool intIndex = false;                       ///< built with int indices (-DFX_INDEX_T=int)
};

struct Runtime::Impl {
  std::unique_ptr<opencl::OpenCLContext> ctx;
  opencl::OpenCLOptions options;
  /// Extern graphs parsed once per program text.
  std::mutex externMutex;
  std::map<const char *, std::unique_ptr<Graph>> externGraphs;
  std::vector<std::weak_ptr<Kernels>> kernelSets; ///< for statsLine
  int blasCalls = 0, gemmTemplateCalls = 0, gemmSplitCalls = 0, deviceExterns = 0, hostExterns = 0;
  std::shared_ptr<FreeBuffers> freeBuffers = std::make_shared<FreeBuffers>();
  opencl::CallTimer timer;
  bool nanAsserts = false;
  /// A matrix product waiting for the launch of its epilogue kernel (callExtern), and the error
  /// of one that ran where no caller could hear it (endCall), reported by the next call.
  struct PendingProduct {
    const char *graph = nullptr;
    std::vector<ExternInput> inputs;
    std::vector<DeviceTensor> outputs;
    std::string epilogueKernel;
  };
  std::optional<PendingProduct> pending;
  Status pendingError = Status::ok();
  int gemmEpilogues = 0; ///< kernels that ran inside the GEMM template
  ~Impl() { timer.release(); }
};

namespace {

/// Runs an extern op now (callExtern's body), with `epilogue` where the product may run it.
Status runExtern(Runtime &rt, Runtime::Impl &impl, const char *graphText,
                 const std::vector<ExternInput> &inputs, const std::vector<DeviceTensor> &outputs,
                 opencl::GemmEpilogue *epilogue);
/// Runs the product waiting for its epilogue kernel, if any, without it; else returns the error
/// of one that ran in endCall.
Status flushPending(Runtime &rt, Runtime::Impl &impl);
/// Runs the waiting product with `kernel` (launch arguments `args`, `points` points) as its
/// epilogue where it can; `*ran` says whether the kernel ran inside it.
Status runPendingWith(Runtime &rt, Runtime::Impl &impl, Kernels &kernels, const std::string &kernel,
                      const std::vector<LaunchArg> &args, int64_t points, bool *ran);

Status fail(const Error &e) { return Status::error(e.message); }

Expected<DType> dtypeOf(const std::string &name) {
  auto d = parseDType(name);
  if (!d)
    return Error("unknown dtype '" + name + "'");
  return *d;
}

DeviceBuffer deviceBuffer(const Storage &s) {
  return {s.allocation ? s.allocation->mem : nullptr, s.offset, s.bytes};
}

/// Copies the elements of `from` into `to` (same sizes), converting as setDouble does; integers
/// are copied exactly.
void copyElements(const Tensor &from, Tensor &to) {
  bool exact = !dtypeIsFloating(from.dtype()) && !dtypeIsFloating(to.dtype());
  Tensor::forEachIndex(from.sizes(), [&](std::span<const int64_t> index) {
    if (exact)
      to.storeInt(to.offsetOf(index), from.getInt(index));
    else
      to.storeDouble(to.offsetOf(index), from.getDouble(index));
  });
}

std::vector<SymExpr> constants(const std::vector<int64_t> &xs) {
  std::vector<SymExpr> out;
  for (int64_t x : xs)
    out.push_back(SymExpr(x));
  return out;
}

/// The op as an extern loop op over its device tensors, for CLBlast (BlasExtern.h) and the
/// device kernels (DeviceExterns.h): the tensors become buffers of a one-op program, viewed as
/// the wrapper passes them.
struct DeviceCall {
  loop::LoopProgram program;
  loop::LoopOp op;
  std::vector<DeviceBuffer> buffers;
  int32_t add(const DeviceTensor &t) {
    auto dtype = parseDType(t.dtype);
    loop::Buffer b;
    b.name = "t" + std::to_string(program.buffers.size());
    b.type.dtype = dtype ? *dtype : DType::Float32;
    b.type.sizes = constants(t.sizes);
    b.type.strides = constants(t.strides);
    program.buffers.push_back(b);
    buffers.push_back(deviceBuffer(t.storage));
    return static_cast<int32_t>(program.buffers.size() - 1);
  }
};

} // namespace

Runtime::Runtime() : impl_(std::make_unique<Impl>()) {}
Runtime::~Runtime() = default;

std::unique_ptr<Runtime> Runtime::open(const RuntimeOptions &options, Status *status) {
  auto device = opencl::selectDevice(options.device);
  if (!device) {
    *status = fail(device.error());
    return nullptr;
  }
  auto ctx = opencl::OpenCLContext::create(*device);
  if (!ctx) {
    *status = fail(ctx.error());
    return nullptr;
  }
  std::unique_ptr<Runtime> rt(new Runtime());
  rt->impl_->ctx = ctx.take();
  rt->impl_->options.cacheDir = options.cacheDir;
  rt->impl_->options.cache = options.cache;
  rt->impl_->options.tune = options.tune;
  const char *nan = std::getenv("FXKIT_NAN_ASSERTS");
  rt->impl_->nanAsserts = options.nanAsserts || (nan && *nan && std::string_view(nan) != "0");
  registerReferenceKernels();
  *status = Status::ok();
  return rt;
}

std::string Runtime::deviceName() const {
  const auto &d = impl_->ctx->device();
  return d.platformName + " / " + d.deviceName;
}

std::shared_ptr<Kernels> Runtime::loadKernels(const std::vector<KernelSource> &kernels,
                                              const std::string &buildOptions) {
  std::vector<opencl::KernelSpec> specs;
  auto out = std::make_shared<Kernels>();
  // A launch names its kernel by index among the kernels, so variants follow every kernel.
  std::string malformed;
  bool variantSeen = false;
  for (const KernelSource &k : kernels) {
    if (!k.variantOf) {
      if (variantSeen && malformed.empty())
        malformed = std::string("kernel ") + k.name + " follows a variant";
      specs.push_back({k.name, k.source, k.isReduction, {}, std::max(1, k.pointsPerStep)});
      out->names.emplace_back(k.name);
      if (k.pointFunction && k.pointParams && k.pointArgs)
        out->points[k.name] = {k.pointFunction, k.pointParams, k.pointArgs, k.usesDouble};
      continue;
    }
    variantSeen = true;
    auto of = std::find_if(specs.begin(), specs.end(),
                           [&](const opencl::KernelSpec &s) { return s.name == k.variantOf; });
    if (of != specs.end())
      of->variants.push_back({k.name, k.source, k.persistentPoints});
    else if (malformed.empty())
      malformed = std::string("kernel variant ") + k.name + " names kernel " + k.variantOf +
                  ", which no earlier entry defines";
  }
  out->intIndex = buildOptions.find("-DFX_INDEX_T=int") != std::string::npos;
  impl_->kernelSets.push_back(out);
  if (!malformed.empty()) {
    out->loadError = Status::error("the kernel table is malformed: " + malformed);
    return out;
  }
  auto set = KernelSet::load(*impl_->ctx, std::move(specs), buildOptions, impl_->options);
  if (set)
    out->set = set.take();
  else
    out->loadError = fail(set.error());
  return out;
}

namespace {

/// A launch's arguments as KernelSet takes them.
std::vector<LaunchArg> launchArgsOf(const std::vector<KernelArg> &args) {
  std::vector<LaunchArg> launch;
  launch.reserve(args.size());
  for (const KernelArg &a : args) {
    LaunchArg l;
    switch (a.kind) {
    case KernelArg::Kind::Buffer:
      l.kind = LaunchArg::Kind::Buffer;
      l.buffer = deviceBuffer(a.buffer);
      l.written = a.written;
      break;
    case KernelArg::Kind::Long:
      l.value = a.value;
      break;
    case KernelArg::Kind::Lanes:
      l.kind = LaunchArg::Kind::Lanes;
      break;
    case KernelArg::Kind::Rows:
      l.kind = LaunchArg::Kind::Rows;
      break;
    case KernelArg::Kind::Scratch:
      l.kind = LaunchArg::Kind::Scratch;
      l.scratchBytesPerItem = static_cast<int>(a.value);
      break;
    }
    launch.push_back(l);
  }
  return launch;
}

} // namespace

Status Runtime::launch(Kernels &kernels, size_t index, const std::vector<KernelArg> &args,
                       int64_t xnumel, int64_t rnumel) {
  if (!kernels.set)
    return kernels.loadError;
  std::vector<LaunchArg> launch = launchArgsOf(args);
  if (impl_->pending) {
    if (index < kernels.names.size() && impl_->pending->epilogueKernel == kernels.names[index]) {
      bool ran = false;
      if (Status s =
              runPendingWith(*this, *impl_, kernels, kernels.names[index], launch, xnumel, &ran);
          !s)
        return s;
      if (ran)
        return Status::ok(); // it ran inside the product
    } else if (Status s = flushPending(*this, *impl_); !s) {
      return s;
    }
  }
  if (fxkit::Status s = kernels.set->launch(index, launch, xnumel, rnumel); !s)
    return fail(s.error());
  return Status::ok();
}

Status Runtime::allocate(size_t bytes, Storage *out) {
  cl_int err = CL_SUCCESS;
  auto a = std::make_shared<Allocation>();
  a->bytes = std::max<size_t>(bytes, 1);
  a->cache = impl_->freeBuffers;
  {
    // A freed buffer of this size: commands still using it are enqueued before anything the
    // caller enqueues on it next (one in-order queue).
    FreeBuffers &f = *impl_->freeBuffers;
    std::lock_guard<std::mutex> lock(f.mutex);
    if (auto it = f.bySize.find(a->bytes); it != f.bySize.end()) {
      a->mem = it->second;
      f.bySize.erase(it);
      ++f.reused;
      *out = {std::move(a), 0, bytes};
      return Status::ok();
    }
    ++f.created;
  }
  a->mem = clCreateBuffer(impl_->ctx->context(), CL_MEM_READ_WRITE, a->bytes, nullptr, &err);
  if (err != CL_SUCCESS)
    return fail(opencl::clError("allocating " + std::to_string(bytes) + " bytes on " +
                                    impl_->ctx->device().deviceName,
                                err));
  *out = {std::move(a), 0, bytes};
  return Status::ok();
}

Status Runtime::checkBound(const std::string &buffer, const std::string &type,
                           const std::vector<std::pair<std::string, int64_t>> &symbols) {
  auto parsed = TensorType::parse(type);
  if (!parsed)
    return fail(parsed.error());
  SymExpr::Bindings bindings;
  for (const auto &[name, value] : symbols)
    bindings[name] = value;
  if (fxkit::Status s = loop::checkBoundTensor("buffer " + buffer, *parsed, bindings); !s)
    return fail(s.error());
  return Status::ok();
}

Status Runtime::upload(const HostTensor &host, const std::string &name, const std::string &dtype,
                       const std::vector<int64_t> &sizes, const std::vector<int64_t> &strides,
                       size_t bytes, DeviceTensor *out) {
  if (host.dtype != dtype)
    return Status::error(name + ": expected dtype " + dtype + ", got " + host.dtype);
  if (host.sizes != sizes) {
    // As Inductor's assert_size_stride says it.
    auto text = [](const std::vector<int64_t> &xs) {
      std::string out = "[";
      for (size_t i = 0; i < xs.size(); ++i)
        out += (i ? ", " : "") + std::to_string(xs[i]);
      return out + "]";
    };
    return Status::error(name + ": expected size " + text(sizes) + ", got " + text(host.sizes));
  }
  // Already in the program's layout: copied as it is, without an element-wise host copy.
  if (host.strides == strides && host.offset == 0 && host.storage &&
      host.storage->size() >= bytes) {
    Storage storage;
    if (Status s = allocate(bytes, &storage); !s)
      return s;
    if (bytes > 0)
      if (cl_int err = clEnqueueWriteBuffer(impl_->ctx->queue(), storage.allocation->mem, CL_TRUE,
                                            0, bytes, host.storage->data(), 0, nullptr, nullptr);
          err != CL_SUCCESS)
        return fail(opencl::clError("writing " + name + " to the device", err));
    *out = {std::move(storage), dtype, sizes, strides, 0};
    return Status::ok();
  }
  auto t = toTensor(host);
  if (!t)
    return fail(t.error());
  auto d = dtypeOf(dtype);
  if (!d)
    return fail(d.error());
  int64_t item = dtypeItemSize(*d);
  auto laid = Tensor::zeros(*d, {static_cast<int64_t>(bytes) / item});
  if (!laid)
    return fail(laid.error());
  auto view = laid->asStrided(sizes, strides, 0);
  if (!view)
    return fail(view.error());
  copyElements(*t, *view);
  Storage storage;
  if (Status s = allocate(bytes, &storage); !s)
    return s;
  if (bytes > 0)
    if (cl_int err = clEnqueueWriteBuffer(impl_->ctx->queue(), storage.allocation->mem, CL_TRUE, 0,
                                          bytes, laid->storage()->data(), 0, nullptr, nullptr);
        err != CL_SUCCESS)
      return fail(opencl::clError("writing " + name + " to the device", err));
  *out = {std::move(storage), dtype, sizes, strides, 0};
  return Status::ok();
}

Status Runtime::download(const DeviceTensor &tensor, HostTensor *out) {
  if (Status s = flushPending(*this, *impl_); !s)
    return s;
  HostTensor h;
  h.dtype = tensor.dtype;
  h.sizes = tensor.sizes;
  h.strides = tensor.strides;
  h.offset = tensor.offset;
  h.storage = std::make_shared<std::vector<std::byte>>(tensor.storage.bytes);
  if (tensor.storage.bytes > 0)
    if (cl_int err = clEnqueueReadBuffer(impl_->ctx->queue(), tensor.storage.allocation->mem,
                                         CL_TRUE, tensor.storage.offset, tensor.storage.bytes,
                                         h.storage->data(), 0, nullptr, nullptr);
        err != CL_SUCCESS)
      return fail(opencl::clError("reading a result from the device", err));
  *out = std::move(h);
  return Status::ok();
}

namespace {

/// The graph of an extern call's FX text, parsed once per text.
Status parseExtern(Runtime::Impl &impl, const char *graphText, Graph **graph) {
  std::lock_guard<std::mutex> lock(impl.externMutex);
  auto &slot = impl.externGraphs[graphText];
  if (!slot) {
    auto g = parseFxText(graphText, "<extern op>");
    if (!g)
      return fail(g.error());
    slot = std::make_unique<Graph>(g.take());
  }
  *graph = slot.get();
  return Status::ok();
}

/// Runs an extern call's graph on the host with the reference kernels, its tensor inputs
/// downloaded from the device.
Status runOnHost(Runtime &rt, Runtime::Impl &impl, Graph &graph,
                 const std::vector<ExternInput> &inputs, Expected<InterpretResult> *result) {
  std::vector<RuntimeValue> values;
  for (const ExternInput &in : inputs) {
    if (!in.isTensor) {
      values.push_back(RuntimeValue{in.integer});
      continue;
    }
    HostTensor h;
    if (Status s = rt.download(in.tensor, &h); !s)
      return s;
    auto t = toTensor(h);
    if (!t)
      return fail(t.error());
    values.push_back(RuntimeValue{t.take()});
  }
  ++impl.hostExterns;
  *result = interpretGraph(graph, values);
  if (!*result)
    return fail(result->error());
  return Status::ok();
}

} // namespace

Status Runtime::callExternOnHost(const char *graphText, const std::vector<ExternInput> &inputs,
                                 ExternResult *out) {
  if (Status s = flushPending(*this, *impl_); !s)
    return s;
  Graph *graph = nullptr;
  if (Status s = parseExtern(*impl_, graphText, &graph); !s)
    return s;
  Expected<InterpretResult> result = Error("extern op: not run");
  if (Status s = runOnHost(*this, *impl_, *graph, inputs, &result); !s)
    return s;
  *out = {};
  for (const RuntimeValue &v : result->outputs) {
    if (const Tensor *t = v.tensor())
      out->tensors.push_back(toHostTensor(*t));
    else if (const auto *ts = v.tensors())
      for (const auto &t : *ts)
        out->tensors.push_back(t ? toHostTensor(*t) : HostTensor{});
    else if (const int64_t *i = v.integer())
      out->value = *i;
    else if (const bool *b = std::get_if<bool>(&v.v))
      out->value = *b ? 1 : 0;
    else
      return Status::error("extern op: a result that is neither a tensor nor an integer");
  }
  return Status::ok();
}

Status Runtime::callExtern(const char *graphText, const std::vector<ExternInput> &inputs,
                           const std::vector<DeviceTensor> &outputs, const char *epilogueKernel) {
  if (Status s = flushPending(*this, *impl_); !s)
    return s;
  static const bool epiloguesOff = [] {
    const char *v = std::getenv("FXKIT_GEMM_EPILOGUE");
    return v && std::string_view(v) == "0";
  }();
  if (epilogueKernel && impl_->options.gemmEpilogues && !epiloguesOff) {
    impl_->pending = Impl::PendingProduct{graphText, inputs, outputs, epilogueKernel};
    return Status::ok();
  }
  return runExtern(*this, *impl_, graphText, inputs, outputs, nullptr);
}

namespace {

Status flushPending(Runtime &rt, Runtime::Impl &impl) {
  if (!impl.pending)
    return std::exchange(impl.pendingError, Status::ok());
  Runtime::Impl::PendingProduct p = std::move(*impl.pending);
  impl.pending.reset();
  return runExtern(rt, impl, p.graph, p.inputs, p.outputs, nullptr);
}

Status runPendingWith(Runtime &rt, Runtime::Impl &impl, Kernels &kernels, const std::string &kernel,
                      const std::vector<LaunchArg> &args, int64_t points, bool *ran) {
  Runtime::Impl::PendingProduct p = std::move(*impl.pending);
  impl.pending.reset();
  *ran = false;
  // As OpenCLProgram's epilogueAfter: the template's work-groups read A and B while others run
  // the epilogue, so its writes must not reach their storage, and C's only at the element being
  // stored (the same bytes: the result itself, in place).
  auto it = kernels.points.find(kernel);
  bool fits = it != kernels.points.end() && !p.outputs.empty() && p.outputs[0].storage.allocation &&
              !(it->second.usesDouble && !impl.ctx->device().hasFp64);
  const DeviceBuffer c = fits ? deviceBuffer(p.outputs[0].storage) : DeviceBuffer{};
  for (const LaunchArg &a : args) {
    if (!fits || a.kind != LaunchArg::Kind::Buffer || !a.written)
      continue;
    for (const ExternInput &in : p.inputs)
      fits = fits && !(in.isTensor && opencl::overlaps(a.buffer, deviceBuffer(in.tensor.storage)));
    fits = fits && (!opencl::overlaps(a.buffer, c) ||
                    (a.buffer.offset == c.offset && a.buffer.bytes == c.bytes));
  }
  if (!fits)
    return runExtern(rt, impl, p.graph, p.inputs, p.outputs, nullptr);
  opencl::GemmEpilogue e;
  e.function = it->second.function;
  e.kernel = it->first;
  e.params = it->second.params;
  e.args = it->second.args;
  e.launchArgs = args;
  e.points = points;
  e.usesDouble = it->second.usesDouble;
  e.intIndex = kernels.intIndex;
  if (Status s = runExtern(rt, impl, p.graph, p.inputs, p.outputs, &e); !s)
    return s;
  *ran = e.ran;
  impl.gemmEpilogues += e.ran ? 1 : 0;
  return Status::ok();
}

} // namespace

namespace {

Status runExtern(Runtime &rt, Runtime::Impl &impl, const char *graphText,
                 const std::vector<ExternInput> &inputs, const std::vector<DeviceTensor> &outputs,
                 opencl::GemmEpilogue *epilogue) {
  Graph *graph = nullptr;
  if (Status s = parseExtern(impl, graphText, &graph); !s)
    return s;
  // On the device where CLBlast or a device kernel takes the op.
  const Node *call = graph->outputNode() ? graph->outputNode()->prev() : nullptr;
  if (call && call->op() == OpKind::CallFunction) {
    DeviceCall one;
    one.op.kind = loop::LoopOpKind::Extern;
    one.op.externNode = call;
    bool tensorsOnly = true;
    for (const ExternInput &in : inputs) {
      if (!in.isTensor) {
        tensorsOnly = false;
        break;
      }
      int32_t b = one.add(in.tensor);
      one.op.externInputs.push_back(
          {b, constants(in.tensor.sizes), constants(in.tensor.strides), SymExpr(in.tensor.offset)});
    }
    // A result is the whole of its buffer's layout: one with a storage offset stays on the host.
    for (const DeviceTensor &o : outputs) {
      tensorsOnly = tensorsOnly && o.offset == 0;
      one.op.externOutputs.push_back(o.storage.allocation ? one.add(o) : -1);
    }
    if (tensorsOnly && opencl::haveBlas()) {
      opencl::GemmRoute route = opencl::GemmRoute::Library;
      auto done = opencl::runBlasExtern(*impl.ctx, impl.options, one.program, one.op, {},
                                        one.buffers, &route, epilogue);
      if (!done)
        return fail(done.error());
      if (*done) {
        ++(route != opencl::GemmRoute::Library ? impl.gemmTemplateCalls : impl.blasCalls);
        impl.gemmSplitCalls += route == opencl::GemmRoute::TemplateSplit ? 1 : 0;
        return Status::ok();
      }
    }
    // Integer inputs are placeholders without a symbolic value here, which the device kernels
    // cannot tell from tensors: such calls stay on the host.
    if (tensorsOnly) {
      auto done = opencl::runDeviceExtern(*impl.ctx, impl.options, one.program, one.op, {},
                                          one.buffers, epilogue);
      if (!done)
        return fail(done.error());
      if (*done) {
        ++impl.deviceExterns;
        return Status::ok();
      }
    }
  }
  Expected<InterpretResult> result = Error("extern op: not run");
  if (Status s = runOnHost(rt, impl, *graph, inputs, &result); !s)
    return s;
  std::vector<const Tensor *> results;
  for (const RuntimeValue &v : result->outputs) {
    if (const Tensor *t = v.tensor())
      results.push_back(t);
    else if (const auto *ts = v.tensors())
      for (const auto &t : *ts)
        results.push_back(t ? &*t : nullptr);
    else
      results.push_back(nullptr);
  }
  if (results.size() < outputs.size())
    return Status::error("extern op: " + std::to_string(results.size()) + " results for " +
                         std::to_string(outputs.size()) + " outputs");
  for (size_t i = 0; i < outputs.size(); ++i) {
    const DeviceTensor &o = outputs[i];
    if (!o.storage.allocation || !results[i])
      continue;
    // Read, write the elements into the output's view, write back: the view may not cover
    // its storage densely.
    HostTensor h;
    if (Status s = rt.download(o, &h); !s)
      return s;
    auto target = toTensor(h);
    if (!target)
      return fail(target.error());
    if (target->sizes() != results[i]->sizes())
      return Status::error("extern op: result " + std::to_string(i) +
                           " does not have the planned sizes");
    copyElements(*results[i], *target);
    size_t n = std::min(o.storage.bytes, target->storage()->size());
    if (cl_int err = clEnqueueWriteBuffer(impl.ctx->queue(), o.storage.allocation->mem, CL_TRUE,
                                          o.storage.offset, n, target->storage()->data(), 0,
                                          nullptr, nullptr);
        err != CL_SUCCESS)
      return fail(opencl::clError("writing an extern op's result to the device", err));
  }
  return Status::ok();
}

} // namespace

std::string Runtime::statsLine() const {
  opencl::OpenCLStats total;
  for (const auto &weak : impl_->kernelSets)
    if (auto k = weak.lock(); k && k->set) {
      const opencl::OpenCLStats &s = k->set->stats();
      total.kernelsBuilt += s.kernelsBuilt;
      total.kernelsFromCache += s.kernelsFromCache;
      total.configsTuned += s.configsTuned;
      total.configsFromCache += s.configsFromCache;
      total.launches += s.launches;
      total.variantsTimed += s.variantsTimed;
      total.variantsChosen += s.variantsChosen;
      total.constantBuilds += s.constantBuilds;
      total.constantsChosen += s.constantsChosen;
    }
  std::string multiKernel;
  if (total.variantsTimed > 0)
    multiKernel = "; multi-kernel: " + std::to_string(total.variantsTimed) +
                  " shapes timed against variants, a variant faster in " +
                  std::to_string(total.variantsChosen);
  if (total.constantBuilds > 0)
    multiKernel += "; launch constants: " + std::to_string(total.constantBuilds) +
                   " builds, kept for " + std::to_string(total.constantsChosen) + " shapes";
  return "kernels: " + std::to_string(total.kernelsBuilt) + " built, " +
         std::to_string(total.kernelsFromCache) +
         " from cache; configurations: " + std::to_string(total.configsTuned) + " tuned, " +
         std::to_string(total.configsFromCache) +
         " from cache; launches: " + std::to_string(total.launches) + multiKernel +
         "; extern ops: " + std::to_string(impl_->blasCalls) + " by CLBlast, " +
         std::to_string(impl_->gemmTemplateCalls) + " by the GEMM template, " +
         std::to_string(impl_->deviceExterns) + " by device kernels, " +
         std::to_string(impl_->hostExterns) + " on the host, " +
         std::to_string(impl_->gemmEpilogues) + " with their epilogue kernel inside, " +
         std::to_string(impl_->gemmSplitCalls) +
         " split along k; device buffers: " + std::to_string(impl_->freeBuffers->created) +
         " allocated, " + std::to_string(impl_->freeBuffers->reused) + " reused";
}

bool Runtime::nanAsserts() const { return impl_->nanAsserts; }

Status Runtime::checkFinite(const DeviceTensor &tensor, const char *buffer, const char *kernel) {
  HostTensor h;
  if (Status s = download(tensor, &h); !s)
    return s;
  auto t = toTensor(h);
  if (!t)
    return fail(t.error());
  std::string found;
  Tensor::forEachIndex(t->sizes(), [&](std::span<const int64_t> index) {
    if (!found.empty())
      return;
    double v = t->getDouble(index);
    if (std::isfinite(v))
      return;
    found = std::string(std::isnan(v) ? "NaN" : v > 0 ? "inf" : "-inf") + " at [";
    for (size_t d = 0; d < index.size(); ++d)
      found += (d ? ", " : "") + std::to_string(index[d]);
    found += "]";
  });
  if (found.empty())
    return Status::ok();
  return Status::error(std::string("nan_asserts: buffer ") + buffer + " written by kernel " +
                       kernel + " holds " + found);
}

void Runtime::beginCall() { impl_->timer.begin(*impl_->ctx); }

void Runtime::endCall() {
  // A product still waiting runs inside the call it belongs to; its error goes to the next call.
  if (Status s = flushPending(*this, *impl_); !s)
    impl_->pendingError = s;
  impl_->timer.end(*impl_->ctx);
}

std::vector<double> Runtime::callSeconds() {
  impl_->timer.collect();
  return impl_->timer.seconds();
}

Status Runtime::finish() {
  if (Status s = flushPending(*this, *impl_); !s)
    return s;
  if (cl_int err = clFinish(impl_->ctx->queue()); err != CL_SUCCESS)
    return fail(opencl::clError("finishing the queue", err));
  return Status::ok();
}

} // namespace fxkit::rt
