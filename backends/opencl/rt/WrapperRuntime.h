#pragma once
/// \file The runtime library of the C++ wrapper fxkit exports (`fxkit compile G --to wrapper-cpp
/// -o DIR`). The generated translation unit is C++17 and sees only this header: an OpenCL
/// device (Runtime), device storage and tensors, the program's kernels built lazily in the
/// background with launch configurations autotuned on first use and cached on disk (the same
/// KernelSet fxkit's own runner uses), and extern ops run on the device by CLBlast or fxkit's
/// device kernels where they take them, otherwise on the host by fxkit's reference kernels.
/// Errors are Status values, never exceptions.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fxkit::rt {

/// Success, or what failed.
class Status {
public:
  static Status ok() { return Status(); }
  static Status error(std::string message) {
    Status s;
    s.failed_ = true;
    s.message_ = std::move(message);
    return s;
  }
  explicit operator bool() const { return !failed_; }
  const std::string &message() const { return message_; }

private:
  bool failed_ = false;
  std::string message_;
};

/// A CPU tensor: a strided view (in elements) of shared bytes. `dtype` is fxkit's name
/// ("float32", "float16", "int64", "bool", ...).
struct HostTensor {
  std::string dtype = "float32";
  std::vector<int64_t> sizes, strides;
  int64_t offset = 0;
  std::shared_ptr<std::vector<std::byte>> storage;
};

/// A graph input or output: a tensor, an integer (a size symbol), or None.
struct Value {
  enum class Kind { None, Tensor, Integer } kind = Kind::None;
  HostTensor tensor;
  int64_t integer = 0;
  static Value of(HostTensor t) {
    Value v;
    v.kind = Kind::Tensor;
    v.tensor = std::move(t);
    return v;
  }
  static Value of(int64_t i) {
    Value v;
    v.kind = Kind::Integer;
    v.integer = i;
    return v;
  }
};

/// One device allocation; released when the last Storage referring to it goes.
struct Allocation;

/// Bytes on the device: `bytes` from `offset` of an allocation.
struct Storage {
  std::shared_ptr<Allocation> allocation;
  size_t offset = 0;
  size_t bytes = 0;
};

/// A tensor on the device: a strided view (elements) of storage.
struct DeviceTensor {
  Storage storage;
  std::string dtype;
  std::vector<int64_t> sizes, strides;
  int64_t offset = 0;
};

/// One argument of a generated kernel launch, in the kernel's parameter order.
struct KernelArg {
  enum class Kind { Buffer, Long, Lanes, Rows, Scratch } kind = Kind::Long;
  Storage buffer;
  bool written = false;
  int64_t value = 0;
  static KernelArg in(Storage s) { return {Kind::Buffer, std::move(s), false, 0}; }
  static KernelArg out(Storage s) { return {Kind::Buffer, std::move(s), true, 0}; }
  static KernelArg size(int64_t v) { return {Kind::Long, {}, false, v}; }
  static KernelArg lanes() { return {Kind::Lanes, {}, false, 0}; }
  static KernelArg rows() { return {Kind::Rows, {}, false, 0}; }
  /// Local memory of `bytesPerItem` per work-item.
  static KernelArg scratch(int bytesPerItem) { return {Kind::Scratch, {}, false, bytesPerItem}; }
};

/// A kernel definition of a generated program.
struct KernelSource {
  const char *name;
  const char *source; ///< prelude and the kernel
  bool isReduction;
  /// Multi-kernel (Inductor's `MultiKernelCall`): the name of the kernel, an earlier entry, that
  /// this definition is a variant of, timed against it on the first launch of each shape where
  /// the runtime uses variants (a GPU, or FXKIT_MULTI_KERNEL=1); null for a kernel. Variants
  /// follow every kernel, so a launch's index names a kernel.
  const char *variantOf = nullptr;
  int persistentPoints = 0; ///< a variant's: rows fit it where rnumel <= this * lanes
  /// A pointwise kernel's points per work-item and step (its vector form; opencl::KernelSpec).
  int pointsPerStep = 1;
  /// A kernel fusion made the epilogue of the matrix product before it: its body at one point
  /// (opencl::GeneratedKernel::pointFunction), that function's parameters before the point and
  /// their names, and whether it computes in double; null for other kernels.
  const char *pointFunction = nullptr;
  const char *pointParams = nullptr;
  const char *pointArgs = nullptr;
  bool usesDouble = false;
};

/// An extern op's input: a device tensor or an integer, in the op's argument order.
struct ExternInput {
  bool isTensor = true;
  DeviceTensor tensor;
  int64_t integer = 0;
  static ExternInput of(DeviceTensor t) { return {true, std::move(t), 0}; }
  static ExternInput of(int64_t i) { return {false, {}, i}; }
};

/// What an extern op that defines unbacked symbols returned (nonzero, `.item()`, a
/// boolean-mask index): its sizes or its number decide the symbols, and its tensors wait on the
/// host until the wrapper, knowing their sizes, uploads them (Runtime::upload).
struct ExternResult {
  int64_t value = 0;               ///< an integer or bool result (`.item()`)
  std::vector<HostTensor> tensors; ///< tensor results in order (a missing one is empty)
};

struct RuntimeOptions {
  std::string device;   ///< "", "cpu", "gpu" or an index (as `fxkit run --device`)
  std::string cacheDir; ///< empty: $FXKIT_CACHE_DIR, else $XDG_CACHE_HOME/fxkit
  bool cache = true;
  bool tune = true;
  /// Inductor's nan_asserts: after every kernel, each floating-point buffer it wrote is read
  /// back and a NaN or infinity fails the call, naming the buffer and the kernel. Off by
  /// default (it waits for the device after every kernel); also on with FXKIT_NAN_ASSERTS=1.
  bool nanAsserts = false;
};

class Kernels;

/// An OpenCL device and its queue.
class Runtime {
public:
  /// Opens the device; on failure returns null and sets `*status`.
  static std::unique_ptr<Runtime> open(const RuntimeOptions &options, Status *status);
  ~Runtime();
  Runtime(const Runtime &) = delete;
  Runtime &operator=(const Runtime &) = delete;

  /// "Portable Computing Language / cpu-haswell-...".
  std::string deviceName() const;
  /// Starts building `kernels` with `buildOptions` on worker threads and returns at once.
  std::shared_ptr<Kernels> loadKernels(const std::vector<KernelSource> &kernels,
                                       const std::string &buildOptions);
  /// Launches kernel `index` of `kernels` over `xnumel` rows of `rnumel` reduced points,
  /// waiting for its build and tuning its configuration on first use.
  Status launch(Kernels &kernels, size_t index, const std::vector<KernelArg> &args, int64_t xnumel,
                int64_t rnumel);

  /// A new allocation of `bytes` (at least one byte is allocated).
  Status allocate(size_t bytes, Storage *out);
  /// Checks a buffer sized by symbols an extern call has just bound (`type` as TensorType::str
  /// prints it, "f32[u10, 4][4, 1]"; `symbols` their values): refused, naming the buffer and the
  /// values, when its elements or bytes overflow int64 or exceed what one tensor may take, as
  /// every other executor checks (loop::checkBoundTensor). The wrapper calls it before it
  /// computes the buffer's byte count, so a `.item()` of 2^62 never wraps that product.
  Status checkBound(const std::string &buffer, const std::string &type,
                    const std::vector<std::pair<std::string, int64_t>> &symbols);
  /// Copies `host` into new device storage laid out with `strides` (elements, from offset 0;
  /// `bytes` of storage), checking its dtype and sizes against `dtype` and `sizes`.
  Status upload(const HostTensor &host, const std::string &name, const std::string &dtype,
                const std::vector<int64_t> &sizes, const std::vector<int64_t> &strides,
                size_t bytes, DeviceTensor *out);
  /// Copies a device tensor to the host (the view's sizes and strides kept).
  Status download(const DeviceTensor &tensor, HostTensor *out);
  /// Runs an extern op: `graph` is FX text of one ATen call whose placeholders take `inputs` in
  /// order; its result(s) are written into `outputs`. On the device where CLBlast or one of
  /// fxkit's device kernels takes it, otherwise on the host with the reference kernel.
  /// `epilogueKernel`, where given, names the kernel fusion made the product's epilogue, which
  /// the wrapper launches next: the call waits for that launch, and where the product runs on
  /// the GEMM template the kernel runs inside it, at each element of the result as it is stored,
  /// instead of on its own (as `fxkit run` fuses them; opencl::GemmEpilogue).
  Status callExtern(const char *graph, const std::vector<ExternInput> &inputs,
                    const std::vector<DeviceTensor> &outputs, const char *epilogueKernel = nullptr);
  /// Runs an extern op on the host with the reference kernel and returns its results
  /// (Inductor's fallback for ops whose result sizes the data decides).
  Status callExternOnHost(const char *graph, const std::vector<ExternInput> &inputs,
                          ExternResult *out);
  /// Waits for every enqueued command.
  Status finish();
  /// Whether the generated code checks what each kernel wrote (RuntimeOptions::nanAsserts).
  bool nanAsserts() const;
  /// Fails when `tensor` (written by `kernel`) holds a NaN or an infinity: "nan_asserts:
  /// buffer buf0 written by kernel fused_log_0 holds NaN at [0, 3]". Waits for the device.
  Status checkFinite(const DeviceTensor &tensor, const char *buffer, const char *kernel);
  /// Bracket one call of a model with timestamp commands on the queue, as CUDA events time
  /// PyTorch (the driver's --repeat); `callSeconds` reads the device time of each call ended so
  /// far (waiting for its stamps).
  void beginCall();
  void endCall();
  std::vector<double> callSeconds();
  /// What ran so far: "kernels: N built, N from cache; configurations: N tuned, N from cache;
  /// launches: N; extern ops: N by CLBlast, N by the GEMM template, N by device kernels, N on
  /// the host, N with their epilogue kernel inside, N split along k; device buffers: N
  /// allocated, N reused" (freed buffers are kept for the next allocation of their size, so a
  /// model's second call allocates nothing).
  std::string statsLine() const;

  struct Impl;

private:
  Runtime();
  std::unique_ptr<Impl> impl_;
};

/// A compiled program: what the generated code implements and the driver runs.
class Model {
public:
  virtual ~Model() = default;
  /// The program's name.
  virtual const char *name() const = 0;
  /// Number of inputs `run` takes.
  virtual size_t numInputs() const = 0;
  /// Runs the program on `inputs` (one per graph input, in order).
  virtual Status run(const std::vector<Value> &inputs, std::vector<Value> *outputs) = 0;
};

} // namespace fxkit::rt
