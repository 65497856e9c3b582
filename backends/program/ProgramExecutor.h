#pragma once
/// \file One executor of a compiled program (loop program + fused kernels + memory plan) for
/// every device backend: it binds the inputs' symbols, places buffers as the memory plan says
/// (one pool, own storage, in-place and reused storage, Unbacked buffers allocated once their
/// symbols are bound), runs the kernels in schedule order, runs extern ops (on the device where
/// the backend has a fast path, else the reference kernel on host copies), returns in-place
/// writes to the caller's inputs, and reads the outputs back. The OpenCL and LLVM backends
/// supply only the device hooks: allocate, read, write, launch a kernel, an extern fast path,
/// and what to do between kernels and runs.
///
/// `Buffer` is the backend's view of one buffer: an aggregate {handle, offset, bytes} (the
/// OpenCL backend's DeviceBuffer {cl_mem, ...}, the LLVM backend's HostBuffer {std::byte *,
/// ...}); the handle is shared by buffers placed in one allocation.
///
/// Device-resident execution (issue 23, item 1): a backend whose storage lives from run to run
/// (`keepsStorage`: each allocation request of a run, in the same order as the last run's, gets
/// the same storage back with its contents when it is no larger) allocates nothing in a steady
/// state; inputs marked resident (`setResidentInputs`) are copied to the device only when the
/// caller hands another tensor or says it changed; a run may leave its outputs on the device
/// (`run(..., readOutputs = false)`, then `fetchOutputs`). `transfers()` counts what moved.

#include "backends/interp/ExternLoopOp.h"
#include "backends/interp/Interpreter.h"
#include "backends/interp/KernelContext.h"
#include "backends/interp/KernelTap.h"
#include "backends/program/CallStats.h"
#include "ir/loop/BoundSizes.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"
#include "ir/loop/MemoryPlan.h"

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace fxkit {

template <class Buffer> class ProgramExecutor {
public:
  /// `label` starts errors of size evaluation ("OpenCL program"). The program, fusion and plan
  /// must outlive the executor.
  ProgramExecutor(const loop::LoopProgram &program, const loop::FusedProgram &fused,
                  const loop::MemoryPlan &plan, std::string label)
      : program_(&program), fused_(&fused), plan_(&plan), label_(std::move(label)) {
    for (const loop::Kernel &k : fused.kernels)
      mutatedOf_.push_back(k.isExtern ? mutatedBuffers(program.ops[k.ops.front()])
                                      : std::vector<int32_t>{});
    // The inputs whose storage a run writes: in place (an extern op's mutation), or through a
    // buffer the plan places over a dying input. Their device copy cannot outlive a run.
    std::vector<bool> written(program.buffers.size(), false);
    for (const loop::Kernel &k : fused.kernels)
      for (int32_t b : kernelWrittenBuffers(program, k))
        if (int32_t root = storageRoot(b); root >= 0)
          written[static_cast<size_t>(root)] = true;
    for (int32_t b : program.inputs)
      writtenInput_.push_back(b >= 0 && written[static_cast<size_t>(b)]);
  }
  virtual ~ProgramExecutor() = default;

  /// Runs the program on `inputs` (one per graph placeholder); with a `tap`, the buffers each
  /// kernel wrote are read back after it and handed to the tap (`fxkit bisect`). Without
  /// `readOutputs` the outputs stay on the device and the run does not wait for it: the result
  /// has the bindings but no outputs, and `fetchOutputs` reads them until the next run.
  Expected<InterpretResult> run(std::span<const RuntimeValue> inputs,
                                const KernelTap *tap = nullptr, bool readOutputs = true);
  /// The outputs of the last run, which left them on the device; waits for it.
  Expected<InterpretResult> fetchOutputs();

  /// Per graph input (a shorter list leaves the rest off): whether its device copy stays
  /// between runs, as a PyTorch module's parameters live on the GPU and only its inputs move.
  /// A resident input is copied again when the caller hands another tensor (other storage, or
  /// another view of it), after `inputChanged`, and on every run where the program writes
  /// over its storage (an in-place op, or a buffer the plan places there). Refused where the
  /// backend does not keep storage between runs.
  Status setResidentInputs(std::vector<bool> which) {
    if (!keepsStorage())
      return Error(label_ + ": this backend does not keep storage between runs");
    resident_ = std::move(which);
    residentCopy_.assign(program_->inputs.size(), std::nullopt);
    return Status::ok();
  }
  /// Input `i` changed in place on the host (PyTorch's `param.copy_(...)`): the next run
  /// copies it to the device again.
  void inputChanged(size_t i) {
    if (i < residentCopy_.size())
      residentCopy_[i].reset();
  }
  /// Whether the program writes over input `i`'s storage (then it is copied every run).
  bool writesInput(size_t i) const { return i < writtenInput_.size() && writtenInput_[i]; }
  const TransferStats &transfers() const { return transfers_; }

protected:
  // The device hooks.
  /// Forgets the previous run's buffers (before allocating this run's).
  virtual void beginRun() = 0;
  /// New storage of `bytes` (at least one byte is allocated), filled from `init` when given.
  /// `buffer` is the buffer it is for (Unbacked ones), or -1 (inputs, the pool, own storage).
  virtual Expected<Buffer> allocate(size_t bytes, const void *init, int32_t buffer) = 0;
  /// Whether the storage `allocate` gives for `buffer` -1 lives from run to run: the n-th such
  /// request of a run gets the n-th of the last run's storage, contents kept, when it is no
  /// larger (resident inputs rely on it).
  virtual bool keepsStorage() const { return false; }
  virtual bool hasStorage(const Buffer &b) const = 0;
  /// Copies `n` bytes between host memory and the start of buffer `b`'s storage.
  virtual Status write(int32_t b, const void *from, size_t n) = 0;
  virtual Status read(int32_t b, void *to, size_t n) = 0;
  /// Launches generated kernel `k` (not an extern one).
  virtual Status launch(size_t k) = 0;
  /// Extern op `op` (kernel `k`) on the device, where the backend can: true when it ran. Not
  /// asked for ops that bind unbacked symbols (their results decide them: on the host).
  virtual Expected<bool> externOnDevice(size_t k, const loop::LoopOp &op) = 0;
  /// An extern op ran with the reference kernel on the host (statistics).
  virtual void countHostExtern() = 0;
  /// After kernel `k` (the plan's frees of Unbacked buffers).
  virtual void afterKernel(size_t) {}
  /// After the last kernel, before reading the outputs (waits for the device).
  virtual void finishKernels() {}
  /// After the last command of a run (and after its outputs are read, where it reads them):
  /// release per-run storage, update statistics.
  virtual void endRun() {}

  Expected<int64_t> eval(const SymExpr &e) const {
    auto v = e.evaluate(bindings_);
    if (!v)
      return Error(label_ + ": " + v.error().message);
    return v;
  }

  const loop::LoopProgram *program_;
  const loop::FusedProgram *fused_;
  const loop::MemoryPlan *plan_;
  std::string label_;
  /// Per fused kernel: the buffers its extern op writes in place (mutatedBuffers), empty for
  /// the others.
  std::vector<std::vector<int32_t>> mutatedOf_;

  /// What the runs moved; backends add the allocations they make.
  TransferStats transfers_;

  // Per run.
  SymExpr::Bindings bindings_;
  std::vector<Buffer> buffers_;
  std::span<const RuntimeValue> callerInputs_; ///< the run's inputs (returnMutatedInputs)

private:
  /// The buffer whose storage `b` uses (following in-place and reuse links), or -1.
  int32_t storageRoot(int32_t b) const {
    using Kind = loop::BufferPlacement::Kind;
    for (size_t hops = 0; b >= 0 && hops <= plan_->buffers.size(); ++hops) {
      const loop::BufferPlacement &s = plan_->buffers[static_cast<size_t>(b)];
      if (s.kind == Kind::InPlace)
        b = s.inPlaceOf;
      else if (s.kind == Kind::Own && s.reuseOf >= 0)
        b = s.reuseOf;
      else
        return b;
    }
    return -1;
  }
  /// Whether input `i`'s device copy from an earlier run is still `t`'s value.
  bool keptOnDevice(size_t i, const Tensor &t) const {
    if (i >= resident_.size() || !resident_[i] || writesInput(i) || i >= residentCopy_.size() ||
        !residentCopy_[i])
      return false;
    const Tensor &had = *residentCopy_[i];
    return had.sharesStorageWith(t) && had.dtype() == t.dtype() && had.sizes() == t.sizes() &&
           had.strides() == t.strides() && had.storageOffset() == t.storageOffset();
  }

  std::vector<bool> writtenInput_; ///< per graph input: a run writes over its storage
  std::vector<bool> resident_;     ///< per graph input: kept on the device between runs
  /// Per graph input: the caller's tensor whose value its device copy holds (resident ones).
  std::vector<std::optional<Tensor>> residentCopy_;
  bool outputsOnDevice_ = false; ///< the last run left its outputs there (fetchOutputs)

  Status bindInputs(std::span<const RuntimeValue> inputs);
  Status allocateBuffers(std::span<const RuntimeValue> inputs);
  /// Allocates an Unbacked buffer (MemoryPlan) once the symbols of its size are bound; nothing
  /// for other buffers or while a symbol is unbound.
  Status allocateUnbacked(int32_t buffer);
  /// Allocates the Unbacked buffers kernel `k` writes, before it runs.
  Status allocateUnbackedOf(size_t k);
  Status runExtern(size_t k);
  /// Copies the graph inputs that extern kernel `k` wrote in place into the caller's tensors,
  /// as the reference interpreter's kernels write into its inputs' storage. Right after the
  /// op: the memory plan may reuse an input's storage once nothing reads it.
  Status returnMutatedInputs(size_t k);
  /// Copies buffer `b` to a new host tensor; `output`: counted as an output read.
  Expected<Tensor> download(int32_t b, bool output = false);
  Status upload(int32_t b, const Tensor &host);
  Expected<InterpretResult> readOutputs();
  /// After kernel `k`: FXKIT_FAULT=corrupt-kernel, then the tap.
  Status observeKernel(size_t k, const KernelTap *tap);
};

template <class Buffer>
Status ProgramExecutor<Buffer>::bindInputs(std::span<const RuntimeValue> inputs) {
  const loop::LoopProgram &p = *program_;
  if (inputs.size() != p.inputs.size())
    return Error("the program has " + std::to_string(p.inputs.size()) + " inputs, got " +
                 std::to_string(inputs.size()));
  bindings_.clear();
  for (size_t i = 0; i < inputs.size(); ++i) {
    int32_t b = p.inputs[i];
    if (b < 0) {
      const int64_t *v = inputs[i].integer();
      if (!v)
        return Error("input " + std::to_string(i) + " must be an integer");
      auto sym = SymExpr::parse(p.inputSymbols[i]);
      if (sym && sym->kind() == SymExpr::Kind::Symbol)
        bindings_.emplace(std::string(sym->name()), *v);
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
        bindings_.emplace(std::string(type.sizes[d].name()), t->size(d));
  }
  return loop::checkBoundBufferSizes(p, bindings_);
}

template <class Buffer> Status ProgramExecutor<Buffer>::upload(int32_t b, const Tensor &host) {
  size_t n = std::min(buffers_[b].bytes, host.storage()->size());
  if (n == 0)
    return Status::ok();
  ++transfers_.otherCopies;
  transfers_.otherCopyBytes += static_cast<int64_t>(n);
  return write(b, host.storage()->data(), n);
}

template <class Buffer> Expected<Tensor> ProgramExecutor<Buffer>::download(int32_t b, bool output) {
  auto host = allocateTensor(program_->buffers[b].type, bindings_);
  if (!host)
    return host.takeError();
  size_t n = std::min(buffers_[b].bytes, host->storage()->size());
  if (n == 0)
    return host;
  ++(output ? transfers_.outputReads : transfers_.otherCopies);
  (output ? transfers_.outputReadBytes : transfers_.otherCopyBytes) += static_cast<int64_t>(n);
  if (Status s = read(b, host->storage()->data(), n); !s)
    return s.takeError();
  return host;
}

template <class Buffer>
Status ProgramExecutor<Buffer>::allocateBuffers(std::span<const RuntimeValue> inputs) {
  using Kind = loop::BufferPlacement::Kind;
  const loop::LoopProgram &p = *program_;
  buffers_.assign(p.buffers.size(), {});
  // Inputs, copied into the layout the program declares for them (kernels may write over an
  // input whose storage the plan reuses: the caller's tensors see only the in-place writes of
  // extern ops, returnMutatedInputs).
  for (size_t i = 0; i < inputs.size(); ++i) {
    int32_t b = p.inputs[i];
    if (b < 0)
      continue;
    const Tensor &t = *inputs[i].tensor();
    // The declared layout, computed without allocating it: a host tensor the input's size,
    // zero-filled on every call only to be compared, cost more than the kernels (0.3 s a call
    // for two 8192 x 8192 inputs on an H200).
    auto layout = concreteLayout(p.buffers[b].type, bindings_);
    if (!layout)
      return layout.takeError();
    if (layout->sizes != t.sizes())
      return Error("input " + std::to_string(i) + " does not have the sizes of " +
                   p.buffers[b].type.str());
    const size_t bytes =
        static_cast<size_t>(layout->extentElements) * dtypeItemSize(p.buffers[b].type.dtype);
    // A resident input whose device copy is still its value: the same storage, not copied.
    const bool kept = keptOnDevice(i, t);
    // The caller's storage goes up as it is when its layout is the declared one; otherwise (and
    // only when it is copied) into a tensor of the declared layout.
    Tensor declared = t;
    if (!kept && !(t.strides() == layout->strides && t.storageOffset() == 0 &&
                   t.storage()->size() >= bytes)) {
      auto copy = allocateTensor(p.buffers[b].type, bindings_);
      if (!copy)
        return copy.takeError();
      copy->copyElementsFrom(t);
      declared = copy.take();
    }
    if (i < residentCopy_.size())
      residentCopy_[i].reset();
    auto m = allocate(bytes, kept ? nullptr : declared.storage()->data(), -1);
    if (!m)
      return m.takeError();
    if (kept) {
      ++transfers_.inputsKept;
    } else {
      ++transfers_.inputUploads;
      transfers_.inputUploadBytes += static_cast<int64_t>(bytes);
    }
    if (i < resident_.size() && resident_[i] && !writesInput(i))
      residentCopy_[i] = t;
    buffers_[b] = *m;
    buffers_[b].offset = 0;
    buffers_[b].bytes = bytes;
  }
  // The pool, then the buffers that own storage, in plan order.
  Buffer pool{};
  for (size_t b = 0; b < p.buffers.size(); ++b)
    if (plan_->buffers[b].kind == Kind::Pool && !hasStorage(pool)) {
      auto m = allocate(static_cast<size_t>(std::max<int64_t>(plan_->poolBytes, 1)), nullptr, -1);
      if (!m)
        return m.takeError();
      pool = *m;
    }
  for (size_t b = 0; b < p.buffers.size(); ++b) {
    const loop::BufferPlacement &pl = plan_->buffers[b];
    // Unbacked: allocated when its symbols are bound (allocateUnbacked); internal buffers
    // (which may be sized by one) have no storage.
    if (pl.kind == Kind::Unbacked || pl.kind == Kind::Internal)
      continue;
    auto bytes = eval(p.buffers[b].storageBytes());
    if (!bytes)
      return bytes.takeError();
    switch (pl.kind) {
    case Kind::Input:
    case Kind::Internal:
    case Kind::Unbacked:
    case Kind::InPlace:
      break;
    case Kind::Pool:
      buffers_[b] = pool;
      buffers_[b].offset = static_cast<size_t>(pl.offset);
      buffers_[b].bytes = static_cast<size_t>(*bytes);
      break;
    case Kind::Own:
      if (pl.reuseOf < 0) {
        auto m = allocate(static_cast<size_t>(*bytes), nullptr, -1);
        if (!m)
          return m.takeError();
        buffers_[b] = *m;
        buffers_[b].offset = 0;
        buffers_[b].bytes = static_cast<size_t>(*bytes);
      }
      break;
    }
  }
  // In-place and reuse links may point forward: follow them to a buffer with storage.
  for (size_t b = 0; b < p.buffers.size(); ++b) {
    const loop::BufferPlacement &pl = plan_->buffers[b];
    if (pl.kind != Kind::InPlace && !(pl.kind == Kind::Own && pl.reuseOf >= 0))
      continue;
    int32_t src = static_cast<int32_t>(b);
    for (size_t hops = 0; hops <= p.buffers.size(); ++hops) {
      const loop::BufferPlacement &s = plan_->buffers[src];
      if (s.kind == Kind::InPlace)
        src = s.inPlaceOf;
      else if (s.kind == Kind::Own && s.reuseOf >= 0)
        src = s.reuseOf;
      else
        break;
    }
    if (!hasStorage(buffers_[src]))
      return Error("memory plan: " + p.buffers[b].name + " shares storage that has none");
    auto bytes = eval(p.buffers[b].storageBytes());
    if (!bytes)
      return bytes.takeError();
    buffers_[b] = buffers_[src];
    buffers_[b].bytes = static_cast<size_t>(*bytes);
  }
  return Status::ok();
}

template <class Buffer> Status ProgramExecutor<Buffer>::allocateUnbacked(int32_t b) {
  if (plan_->buffers[b].kind != loop::BufferPlacement::Kind::Unbacked || hasStorage(buffers_[b]))
    return Status::ok();
  SymExpr bytesExpr = program_->buffers[b].storageBytes();
  for (const std::string &s : bytesExpr.symbols())
    if (!bindings_.count(s))
      return Status::ok();
  auto bytes = eval(bytesExpr);
  if (!bytes)
    return bytes.takeError();
  auto m = allocate(static_cast<size_t>(std::max<int64_t>(*bytes, 1)), nullptr, b);
  if (!m)
    return m.takeError();
  buffers_[b] = *m;
  buffers_[b].offset = 0;
  buffers_[b].bytes = static_cast<size_t>(*bytes);
  return Status::ok();
}

template <class Buffer> Status ProgramExecutor<Buffer>::allocateUnbackedOf(size_t k) {
  for (int32_t op : fused_->kernels[k].ops) {
    for (int32_t b : program_->ops[op].writes())
      if (Status s = allocateUnbacked(b); !s)
        return s;
    for (int32_t b : program_->ops[op].externOutputs)
      if (b >= 0)
        if (Status s = allocateUnbacked(b); !s)
          return s;
  }
  return Status::ok();
}

template <class Buffer> Status ProgramExecutor<Buffer>::runExtern(size_t k) {
  const loop::Kernel &kernel = fused_->kernels[k];
  const loop::LoopOp &op = program_->ops[kernel.ops.front()];
  // An op that binds unbacked symbols runs on the host (as Inductor falls back for nonzero and
  // item()): its result decides their values and the sizes of its outputs.
  if (op.defines.empty()) {
    auto done = externOnDevice(k, op);
    if (!done)
      return done.takeError();
    if (*done)
      return returnMutatedInputs(k);
  }
  // On the host with the reference kernel: copy the op's buffers over and back.
  std::vector<Tensor> storage(program_->buffers.size());
  std::vector<int32_t> used;
  for (const loop::BufferView &v : op.externInputs)
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
  size_t boundBefore = bindings_.size();
  if (Status s = runExternLoopOp(op, storage, bindings_); !s)
    return s;
  if (bindings_.size() != boundBefore) // it bound unbacked symbols: checked before allocation
    if (Status s = loop::checkBoundBufferSizes(*program_, bindings_); !s)
      return s;
  // The inputs it wrote in place first: an output placed in a dead input's storage wins.
  for (int32_t b : mutatedOf_[k])
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
  countHostExtern();
  return returnMutatedInputs(k);
}

template <class Buffer> Status ProgramExecutor<Buffer>::returnMutatedInputs(size_t k) {
  for (int32_t b : mutatedOf_[k])
    for (size_t i = 0; i < program_->inputs.size() && i < callerInputs_.size(); ++i) {
      if (program_->inputs[i] != b || !callerInputs_[i].tensor())
        continue;
      auto host = download(b);
      if (!host)
        return host.takeError();
      Tensor caller = *callerInputs_[i].tensor(); // shares the caller's storage
      caller.copyElementsFrom(*host);
    }
  return Status::ok();
}

template <class Buffer> Expected<InterpretResult> ProgramExecutor<Buffer>::readOutputs() {
  InterpretResult result;
  for (const loop::LoopProgram::Output &o : program_->outputs) {
    if (o.isNone) {
      result.outputs.push_back(RuntimeValue{});
      continue;
    }
    if (o.view.buffer < 0) {
      auto v = eval(o.symbol);
      if (!v)
        return v.takeError();
      result.outputs.push_back(RuntimeValue{*v});
      continue;
    }
    auto host = download(o.view.buffer, /*output=*/true);
    if (!host)
      return host.takeError();
    std::vector<int64_t> sizes, strides;
    for (const SymExpr &e : o.view.sizes) {
      auto v = eval(e);
      if (!v)
        return v.takeError();
      sizes.push_back(*v);
    }
    for (const SymExpr &e : o.view.strides) {
      auto v = eval(e);
      if (!v)
        return v.takeError();
      strides.push_back(*v);
    }
    auto offset = eval(o.view.offset);
    if (!offset)
      return offset.takeError();
    auto t = host->asStrided(sizes, strides, *offset);
    if (!t)
      return t.takeError();
    result.outputs.push_back(RuntimeValue{t.take()});
  }
  result.bindings = bindings_;
  return result;
}

template <class Buffer>
Status ProgramExecutor<Buffer>::observeKernel(size_t k, const KernelTap *tap) {
  const bool corrupt = kernelCorruptionInjected(*fused_, k);
  if (!corrupt && !tap)
    return Status::ok();
  for (int32_t b : kernelWrittenBuffers(*program_, fused_->kernels[k])) {
    if (!hasStorage(buffers_[b]))
      continue;
    auto value = download(b);
    if (!value)
      return value.takeError();
    if (corrupt) {
      corruptTensor(*value);
      if (Status s = upload(b, *value); !s)
        return s;
    }
    if (tap)
      if (Status s = (*tap)(k, b, *value); !s)
        return s;
  }
  return Status::ok();
}

template <class Buffer> Expected<InterpretResult> ProgramExecutor<Buffer>::fetchOutputs() {
  if (!outputsOnDevice_)
    return Error(label_ + ": no run left its outputs on the device");
  finishKernels();
  ++transfers_.hostWaits;
  return readOutputs();
}

template <class Buffer>
Expected<InterpretResult> ProgramExecutor<Buffer>::run(std::span<const RuntimeValue> inputs,
                                                       const KernelTap *tap, bool readOutputs) {
  callerInputs_ = inputs;
  outputsOnDevice_ = false;
  if (Status s = bindInputs(inputs); !s)
    return s.takeError();
  ++transfers_.calls;
  beginRun();
  if (Status s = allocateBuffers(inputs); !s)
    return s.takeError();
  for (size_t k = 0; k < fused_->kernels.size(); ++k) {
    if (Status s = allocateUnbackedOf(k); !s)
      return s.takeError();
    Status s = fused_->kernels[k].isExtern ? runExtern(k) : launch(k);
    if (!s)
      return s.takeError();
    if (Status o = observeKernel(k, tap); !o)
      return o.takeError();
    afterKernel(k);
  }
  if (!readOutputs) {
    // The buffers stay for fetchOutputs; no wait.
    callerInputs_ = {};
    endRun();
    outputsOnDevice_ = true;
    InterpretResult result;
    result.bindings = bindings_;
    return result;
  }
  finishKernels();
  ++transfers_.hostWaits;
  auto result = this->readOutputs();
  if (!result)
    return result;
  endRun();
  buffers_.clear();
  callerInputs_ = {};
  return result;
}

} // namespace fxkit
