#include "backends/llvm/LLVMProgram.h"

#include "backends/interp/ExternLoopOp.h"
#include "backends/interp/KernelContext.h"
#include "backends/llvm/HostBlas.h"
#include "backends/llvm/HostTarget.h"
#include "backends/llvm/LLVMKernelSet.h"

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

struct LLVMProgram::Impl {
  const LoopProgram *program = nullptr;
  const FusedProgram *fused = nullptr;
  const MemoryPlan *plan = nullptr;
  LLVMOptions options;
  GeneratedProgram generated;
  std::unique_ptr<LLVMKernelSet> kernels;
  std::vector<int> definitionOf; ///< per fused kernel, -1 for extern
  /// Per fused kernel: the buffers its extern op writes in place (mutatedBuffers), empty for
  /// the others.
  std::vector<std::vector<int32_t>> mutatedOf;

  // Per run.
  SymExpr::Bindings bindings;
  std::vector<HostBuffer> buffers;
  std::span<const RuntimeValue> callerInputs; ///< the run's inputs (returnMutatedInputs)
  /// Kept from run to run (reused in order where large enough): fresh pages would cost a
  /// page fault per 4 KiB on every run.
  std::vector<std::unique_ptr<Allocation>> allocations;
  size_t allocationsUsed = 0;
  std::vector<uint64_t> args;

  Status bindInputs(std::span<const RuntimeValue> inputs);
  Status allocate(std::span<const RuntimeValue> inputs);
  Status launch(size_t kernelIndex);
  Status runExtern(size_t kernelIndex);
  /// Copies the graph inputs that extern kernel `k` wrote in place into the caller's tensors,
  /// as the reference interpreter's kernels write into its inputs' storage. Right after the
  /// op: the memory plan may reuse an input's storage once nothing reads it.
  Status returnMutatedInputs(size_t kernelIndex);
  /// Allocates an Unbacked buffer (MemoryPlan) once the symbols of its size are bound; nothing
  /// for other buffers or while a symbol is unbound.
  Status allocateUnbacked(int32_t buffer);
  /// Allocates the Unbacked buffers kernel `k` writes, before it runs.
  Status allocateUnbackedOf(size_t k);
  Expected<Tensor> download(int32_t buffer);
  void upload(int32_t buffer, const Tensor &host);
  Expected<std::byte *> allocation(size_t bytes) {
    size_t slot = allocationsUsed++;
    if (slot < allocations.size() && allocations[slot]->capacity >= bytes)
      return allocations[slot]->data;
    auto a = std::make_unique<Allocation>(bytes);
    if (!a->data)
      return Error("cannot allocate " + std::to_string(bytes) + " bytes of host memory");
    if (slot < allocations.size())
      allocations[slot] = std::move(a);
    else
      allocations.push_back(std::move(a));
    return allocations[slot]->data;
  }
  Expected<int64_t> eval(const SymExpr &e) const {
    auto v = e.evaluate(bindings);
    if (!v)
      return Error("LLVM program: " + v.error().message);
    return v;
  }
};

Status LLVMProgram::Impl::bindInputs(std::span<const RuntimeValue> inputs) {
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

void LLVMProgram::Impl::upload(int32_t b, const Tensor &host) {
  const HostBuffer &d = buffers[b];
  size_t n = std::min(d.bytes, host.storage()->size());
  if (n > 0)
    std::memcpy(d.base + d.offset, host.storage()->data(), n);
}

Expected<Tensor> LLVMProgram::Impl::download(int32_t b) {
  auto host = allocateTensor(program->buffers[b].type, bindings);
  if (!host)
    return host.takeError();
  const HostBuffer &d = buffers[b];
  size_t n = std::min(d.bytes, host->storage()->size());
  if (n > 0)
    std::memcpy(host->storage()->data(), d.base + d.offset, n);
  return host;
}

Status LLVMProgram::Impl::allocate(std::span<const RuntimeValue> inputs) {
  const LoopProgram &p = *program;
  allocationsUsed = 0;
  buffers.assign(p.buffers.size(), {});
  // Inputs, copied into the layout the program declares for them (kernels may write over an
  // input whose storage the plan reuses: the caller's tensors see only the in-place writes of
  // extern ops, returnMutatedInputs).
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
    size_t bytes = declared->storage()->size();
    auto m = allocation(bytes);
    if (!m)
      return m.takeError();
    if (bytes)
      std::memcpy(*m, declared->storage()->data(), bytes);
    buffers[b] = {*m, 0, bytes};
  }
  std::byte *pool = nullptr;
  for (size_t b = 0; b < p.buffers.size(); ++b)
    if (plan->buffers[b].kind == BufferPlacement::Kind::Pool && !pool) {
      auto m = allocation(static_cast<size_t>(std::max<int64_t>(plan->poolBytes, 1)));
      if (!m)
        return m.takeError();
      pool = *m;
    }
  for (size_t b = 0; b < p.buffers.size(); ++b) {
    const BufferPlacement &pl = plan->buffers[b];
    // Unbacked: allocated when its symbols are bound (allocateUnbacked); internal buffers
    // (which may be sized by one) have no storage.
    if (pl.kind == BufferPlacement::Kind::Unbacked || pl.kind == BufferPlacement::Kind::Internal)
      continue;
    auto bytes = eval(p.buffers[b].storageBytes());
    if (!bytes)
      return bytes.takeError();
    if (pl.kind == BufferPlacement::Kind::Pool) {
      buffers[b] = {pool, static_cast<size_t>(pl.offset), static_cast<size_t>(*bytes)};
    } else if (pl.kind == BufferPlacement::Kind::Own && pl.reuseOf < 0) {
      auto m = allocation(static_cast<size_t>(*bytes));
      if (!m)
        return m.takeError();
      buffers[b] = {*m, 0, static_cast<size_t>(*bytes)};
    }
  }
  // In-place and reuse links may point forward: follow them to a buffer with storage.
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
    if (!buffers[src].base)
      return Error("memory plan: " + p.buffers[b].name + " shares storage that has none");
    auto bytes = eval(p.buffers[b].storageBytes());
    if (!bytes)
      return bytes.takeError();
    buffers[b] = {buffers[src].base, buffers[src].offset, static_cast<size_t>(*bytes)};
  }
  return Status::ok();
}

Status LLVMProgram::Impl::allocateUnbacked(int32_t b) {
  if (plan->buffers[b].kind != BufferPlacement::Kind::Unbacked || buffers[b].base)
    return Status::ok();
  SymExpr bytesExpr = program->buffers[b].storageBytes();
  for (const std::string &s : bytesExpr.symbols())
    if (!bindings.count(s))
      return Status::ok();
  auto bytes = eval(bytesExpr);
  if (!bytes)
    return bytes.takeError();
  // From the run-to-run slots: the allocation order is the schedule's, the same every run.
  auto m = allocation(static_cast<size_t>(std::max<int64_t>(*bytes, 1)));
  if (!m)
    return m.takeError();
  buffers[b] = {*m, 0, static_cast<size_t>(*bytes)};
  return Status::ok();
}

Status LLVMProgram::Impl::allocateUnbackedOf(size_t k) {
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

Status LLVMProgram::Impl::launch(size_t k) {
  const GeneratedKernel &g = generated.launches[k];
  args.clear();
  for (const KernelParam &p : g.params) {
    switch (p.kind) {
    case KernelParam::Kind::Buffer: {
      const HostBuffer &b = buffers[p.buffer];
      if (!b.base)
        return Error("kernel " + g.name + ": " + program->buffers[p.buffer].name +
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

Status LLVMProgram::Impl::runExtern(size_t k) {
  const Kernel &kernel = fused->kernels[k];
  const LoopOp &op = program->ops[kernel.ops.front()];
  // An op that binds unbacked symbols runs its reference kernel: its result decides them.
  auto done = op.defines.empty() ? runHostBlas(*program, op, bindings, buffers, kernels->pool())
                                 : Expected<bool>(false);
  if (!done)
    return done.takeError();
  if (*done) {
    ++kernels->stats().matrixProducts;
    return returnMutatedInputs(k);
  }
  // The reference kernel, on copies of the op's buffers.
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
    upload(b, storage[b]);
  for (int32_t b : op.externOutputs) {
    if (b < 0)
      continue;
    if (Status s = allocateUnbacked(b); !s)
      return s;
    upload(b, storage[b]);
  }
  ++kernels->stats().hostExterns;
  return returnMutatedInputs(k);
}

Status LLVMProgram::Impl::returnMutatedInputs(size_t k) {
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

LLVMProgram::LLVMProgram() : impl_(std::make_unique<Impl>()) {}
LLVMProgram::~LLVMProgram() = default;

Expected<std::unique_ptr<LLVMProgram>> LLVMProgram::load(const LoopProgram &program,
                                                         const FusedProgram &fused,
                                                         const MemoryPlan &plan,
                                                         const LLVMOptions &options) {
  std::unique_ptr<LLVMProgram> out(new LLVMProgram());
  Impl &im = *out->impl_;
  im.program = &program;
  im.fused = &fused;
  im.plan = &plan;
  im.options = options;
  auto gen = opencl::generateOpenCL(program, fused);
  if (!gen)
    return gen.takeError();
  im.generated = gen.take();
  for (const Kernel &k : fused.kernels)
    im.mutatedOf.push_back(k.isExtern ? mutatedBuffers(program.ops[k.ops.front()])
                                      : std::vector<int32_t>{});
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
  }
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
  im.buffers.clear();
  im.callerInputs = {};
  return result;
}

const GeneratedProgram &LLVMProgram::generated() const { return impl_->generated; }
const LLVMStats &LLVMProgram::stats() const { return impl_->kernels->stats(); }

std::string LLVMProgram::deviceDescription() const {
  unsigned threads = impl_->options.threads > 0 ? static_cast<unsigned>(impl_->options.threads)
                                                : std::max(1u, std::thread::hardware_concurrency());
  return hostTarget().str() + ", " + std::to_string(threads) + " threads";
}

} // namespace fxkit::llvmjit
