#include "backends/opencl/runtime/DeviceExterns.h"

#include "backends/opencl/codegen/OpenCLKernelGen.h"
#include "backends/opencl/runtime/DeviceExternSupport.h"
#include "ir/Node.h"
#include "ir/Tensor.h"
#include "ir/Try.h"

#include <bit>
#include <cstdlib>
#include <functional>
#include <map>

namespace fxkit::opencl {

using namespace loop;
using namespace device_externs;

namespace {

/// Loads and stores by dtype code, shared by every family (after GeneratedProgram's prelude,
/// which has the bfloat16 conversions, and the variant's macros).
constexpr std::string_view kCommonSource = R"CL(
// fxkit device extern kernels: loads and stores by dtype code.
#define FX_DT_F32 0
#define FX_DT_F16 1
#define FX_DT_BF16 2
#define FX_DT_F64 3
#define FX_DT_I64 4
#define FX_DT_I32 5
#define FX_DT_I16 6
#define FX_DT_I8 7
#define FX_DT_U8 8
#define FX_DT_BOOL 9

/// A tensor parameter t of a kernel, as bufferArg passes it: the buffer and the tensor's byte
/// offset in it (FX_IN read, FX_OUT written); FX_AT(t) is the tensor's first byte.
#define FX_IN(t) __global const uchar *t##_base, const ulong t##_off
#define FX_OUT(t) __global uchar *t##_base, const ulong t##_off
#define FX_AT(t) (t##_base + t##_off)
/// The strides of tensor parameter t, in elements: ts0, ts1, ...
#define FX_STRIDES3(t) const long t##s0, const long t##s1, const long t##s2
#define FX_STRIDES4(t) FX_STRIDES3(t), const long t##s3
#define FX_STRIDES5(t) FX_STRIDES4(t), const long t##s4

/// Element i of a tensor of dtype code dt as float (integers converted, bool 0 or 1).
inline float fx_ldf(__global const uchar *p, long i, long dt) {
  switch (dt) {
  case FX_DT_F16: return vload_half(i, (__global const half *)p);
  case FX_DT_BF16: return fx_bf16_to_float(((__global const ushort *)p)[i]);
  case FX_DT_I64: return (float)((__global const long *)p)[i];
  case FX_DT_I32: return (float)((__global const int *)p)[i];
  case FX_DT_I16: return (float)((__global const short *)p)[i];
  case FX_DT_I8: return (float)((__global const char *)p)[i];
  case FX_DT_U8:
  case FX_DT_BOOL: return (float)p[i];
  default: return ((__global const float *)p)[i];
  }
}
/// Stores v, rounded to nearest even, into a float32, float16 or bfloat16 element.
inline void fx_stf(__global uchar *p, long i, long dt, float v) {
  switch (dt) {
  case FX_DT_F16: vstore_half_rte(v, i, (__global half *)p); break;
  case FX_DT_BF16: ((__global ushort *)p)[i] = fx_float_to_bf16(v); break;
  default: ((__global float *)p)[i] = v; break;
  }
}
/// Element i of an integer or bool tensor, exactly.
inline long fx_ldl(__global const uchar *p, long i, long dt) {
  switch (dt) {
  case FX_DT_I32: return ((__global const int *)p)[i];
  case FX_DT_I16: return ((__global const short *)p)[i];
  case FX_DT_I8: return ((__global const char *)p)[i];
  case FX_DT_U8:
  case FX_DT_BOOL: return p[i];
  default: return ((__global const long *)p)[i];
  }
}
#ifdef FX_FP64
inline double fx_ldd(__global const uchar *p, long i, long dt) {
  switch (dt) {
  case FX_DT_F64: return ((__global const double *)p)[i];
  case FX_DT_I64: return (double)((__global const long *)p)[i];
  case FX_DT_I32: return (double)((__global const int *)p)[i];
  default: return (double)fx_ldf(p, i, dt);
  }
}
/// Float64 results; float32 ones (the attention logsumexp) rounded once.
inline void fx_std(__global uchar *p, long i, long dt, double v) {
  if (dt == FX_DT_F64)
    ((__global double *)p)[i] = v;
  else
    fx_stf(p, i, dt, (float)v);
}
#endif
/// Compensated (Kahan) summation, sum += x with the rounding error carried in c: the long
/// per-channel and per-weight sums of the extern kernels (thousands of terms) stay within a few
/// ulps of the reference's double sums. Kernels build without fast-math, so it is kept.
#define FX_KAHAN_ADD(sum, c, x)                                                                    \
  do {                                                                                             \
    const FX_ACC y_ = (x) - (c);                                                                   \
    const FX_ACC t_ = (sum) + y_;                                                                  \
    (c) = (t_ - (sum)) - y_;                                                                       \
    (sum) = t_;                                                                                    \
  } while (0)
/// Copies one element of `size` bytes, bits unchanged.
inline void fx_copy(__global uchar *dst, long di, __global const uchar *src, long si, long size) {
  switch (size) {
  case 8: ((__global ulong *)dst)[di] = ((__global const ulong *)src)[si]; break;
  case 4: ((__global uint *)dst)[di] = ((__global const uint *)src)[si]; break;
  case 2: ((__global ushort *)dst)[di] = ((__global const ushort *)src)[si]; break;
  default: dst[di] = src[si]; break;
  }
}
)CL";

/// The options every family's definitions are built with.
std::string familyBuildOptions() {
  std::string options = "-cl-std=CL1.2 -DFX_INDEX_T=long";
  if (const char *extra = std::getenv("FXKIT_OPENCL_BUILD_OPTIONS"); extra && *extra)
    options += " " + std::string(extra); // experiments, as for generated kernels
  return options;
}

/// The macros of a variant (DeviceExternSupport.h, Variant).
std::string variantDefines(Variant v) {
  switch (v) {
  case Variant::Float:
    return "#define FX_ACC float\n#define FX_LD fx_ldf\n#define FX_ST fx_stf\n"
           "#define FX_KEY float\n#define FX_LDKEY fx_ldf\n#define FX_KEY_ISNAN(x) isnan(x)\n"
           "#define FX_BITS(b) as_float((uint)(b))\n#define FX_NAME(n) n##_f\n";
  case Variant::Double:
    return "#define FX_FP64 1\n#define FX_ACC double\n#define FX_LD fx_ldd\n#define FX_ST fx_std\n"
           "#define FX_KEY double\n#define FX_LDKEY fx_ldd\n#define FX_KEY_ISNAN(x) isnan(x)\n"
           "#define FX_BITS(b) as_double(b)\n#define FX_NAME(n) n##_d\n";
  case Variant::Long:
    return "#define FX_ACC float\n#define FX_LD fx_ldf\n#define FX_ST fx_stf\n"
           "#define FX_KEY long\n#define FX_LDKEY fx_ldl\n#define FX_KEY_ISNAN(x) false\n"
           "#define FX_BITS(b) as_float((uint)(b))\n#define FX_NAME(n) n##_l\n";
  }
  return "";
}

/// The source files of the families: sort and topk share one.
enum class Source : uint8_t {
  Attention,
  AttentionBackward,
  Sort,
  Convolution,
  Matmul,
  BatchNorm,
  EmbeddingBag,
  Fft,
  IndexPut,
  Gemm
};

Source sourceOf(DeviceExternFamily family) {
  switch (family) {
  case DeviceExternFamily::Attention:
    return Source::Attention;
  case DeviceExternFamily::AttentionBackward:
    return Source::AttentionBackward;
  case DeviceExternFamily::Sort:
  case DeviceExternFamily::TopK:
    return Source::Sort;
  case DeviceExternFamily::Convolution:
  case DeviceExternFamily::ConvolutionBackward:
  case DeviceExternFamily::Col2im:
    return Source::Convolution;
  case DeviceExternFamily::Matmul:
    return Source::Matmul;
  case DeviceExternFamily::BatchNorm:
  case DeviceExternFamily::BatchNormBackward:
    return Source::BatchNorm;
  case DeviceExternFamily::EmbeddingBag:
    return Source::EmbeddingBag;
  case DeviceExternFamily::Fft:
  case DeviceExternFamily::ComplexView:
    return Source::Fft;
  case DeviceExternFamily::IndexPut:
    return Source::IndexPut;
  }
  return Source::Attention;
}

FamilySource sourceText(Source s) {
  switch (s) {
  case Source::Attention:
    return attentionSource();
  case Source::AttentionBackward:
    return attentionBackwardSource();
  case Source::Sort:
    return sortSource();
  case Source::Convolution:
    return convolutionSource();
  case Source::Matmul:
    return matmulSource();
  case Source::BatchNorm:
    return batchNormSource();
  case Source::EmbeddingBag:
    return embeddingBagSource();
  case Source::Fft:
    return fftSource();
  case Source::IndexPut:
    return indexPutSource();
  case Source::Gemm:
    return gemmSource();
  }
  return {};
}

std::string_view sourceName(Source s) {
  switch (s) {
  case Source::Attention:
    return "attention";
  case Source::AttentionBackward:
    return "attention backward";
  case Source::Sort:
    return "sort";
  case Source::Convolution:
    return "convolution";
  case Source::Matmul:
    return "matmul";
  case Source::BatchNorm:
    return "batch norm";
  case Source::EmbeddingBag:
    return "embedding bag";
  case Source::Fft:
    return "fft";
  case Source::IndexPut:
    return "index_put";
  case Source::Gemm:
    return "GEMM template";
  }
  return "";
}

} // namespace

/// One family's kernels on a context: each definition (kernel and variant) loaded, and built in
/// the background, on its first launch, so a context builds only what its programs launch.
struct FamilyKernels {
  std::mutex mutex; ///< held for a whole call: KernelSet launches are not thread-safe
  std::map<std::string, std::unique_ptr<KernelSet>> sets; ///< by definition name
  GemmChoices gemmChoices; ///< Source::Gemm: the template's choice per shape
  FamilyState state;       ///< what the family's calls keep between them
};

struct DeviceExternKernels {
  std::map<Source, FamilyKernels> families;
};

namespace {

FamilyKernels &familyOf(OpenCLContext &ctx, Source s);

} // namespace

std::vector<std::pair<std::string, std::string>> gemmChoicesUsed(OpenCLContext &ctx) {
  std::vector<std::pair<std::string, std::string>> out;
  {
    std::lock_guard<std::mutex> lock(ctx.deviceExternMutex());
    if (!ctx.deviceExterns())
      return out;
  }
  FamilyKernels &f = familyOf(ctx, Source::Gemm);
  std::lock_guard<std::mutex> lock(f.mutex);
  out.assign(f.gemmChoices.used.begin(), f.gemmChoices.used.end()); // in key order
  return out;
}

namespace {

FamilyKernels &familyOf(OpenCLContext &ctx, Source s) {
  std::lock_guard<std::mutex> lock(ctx.deviceExternMutex());
  if (!ctx.deviceExterns())
    ctx.deviceExterns() = std::make_shared<DeviceExternKernels>();
  return ctx.deviceExterns()->families[s];
}

Expected<KernelSet *> loadKernel(OpenCLContext &ctx, const OpenCLOptions &options, Source s,
                                 FamilyKernels &f, const std::string &definition) {
  if (auto it = f.sets.find(definition); it != f.sets.end())
    return it->second.get();
  FamilySource src = sourceText(s);
  for (Variant v : src.variants)
    for (const auto &[name, reduction] : src.kernels) {
      if (std::string(name) + std::string(variantSuffix(v)) != definition)
        continue;
      if (v == Variant::Double && !ctx.device().hasFp64)
        return Error("device extern kernel " + definition + " needs cl_khr_fp64");
      // The definition's kernel is named as a macro (FX_DEFINITION_<name>), so a family can
      // guard a kernel that is costly to build from its other definitions (the tiled
      // attention's unrolled loops cost PoCL ~20 s where only the row kernel is launched).
      std::string source = familyPrelude(v) + src.defines + "#define FX_DEFINITION_" +
                           std::string(name) + "\n" + std::string(src.body);
      std::vector<KernelSpec> specs{{definition, std::move(source), reduction, {}}};
      auto set = KernelSet::load(ctx, std::move(specs), familyBuildOptions(), options);
      if (!set)
        return Error("device " + std::string(sourceName(s)) + " kernels: " + set.error().message);
      return (f.sets[definition] = set.take()).get();
    }
  return Error("no device extern kernel " + definition + " (internal error)");
}

} // namespace

Expected<bool> runDeviceExtern(OpenCLContext &ctx, const OpenCLOptions &options,
                               const LoopProgram &program, const LoopOp &op,
                               const SymExpr::Bindings &bindings,
                               std::span<const DeviceBuffer> buffers, GemmEpilogue *epilogue) {
  if (!op.externNode)
    return false;
  std::optional<DeviceExternFamily> family = deviceExternFamily(op.externNode->target());
  if (!family)
    return false;
  std::optional<Call> call = Call::make(ctx, options, program, op, bindings, buffers);
  if (!call || call->outputsOverlapInputs())
    return false;
  call->setEpilogue(epilogue);
  Source source = sourceOf(*family);
  FamilyKernels &f = familyOf(ctx, source);
  std::lock_guard<std::mutex> lock(f.mutex);
  LauncherFor launcher = [&](Variant v) -> Expected<Launcher> {
    return Launcher(
        [&](const std::string &definition) {
          return loadKernel(ctx, options, source, f, definition);
        },
        v);
  };
  switch (*family) {
  case DeviceExternFamily::Attention:
    return runAttention(*call, launcher, ctx, f.state);
  case DeviceExternFamily::AttentionBackward:
    return runAttentionBackward(*call, launcher);
  case DeviceExternFamily::Sort:
    return runSort(*call, launcher, false);
  case DeviceExternFamily::TopK:
    return runSort(*call, launcher, true);
  case DeviceExternFamily::Convolution:
    return runConvolution(*call, launcher);
  case DeviceExternFamily::ConvolutionBackward:
    return runConvolutionBackward(*call, launcher);
  case DeviceExternFamily::Col2im:
    return runCol2im(*call, launcher);
  case DeviceExternFamily::Matmul:
    return runMatmul(*call, launcher, call->args().op().schema.name, ctx);
  case DeviceExternFamily::BatchNorm:
    return runBatchNorm(*call, launcher);
  case DeviceExternFamily::BatchNormBackward:
    return runBatchNormBackward(*call, launcher);
  case DeviceExternFamily::EmbeddingBag:
    return runEmbeddingBag(*call, launcher);
  case DeviceExternFamily::Fft:
    return runFft(*call, launcher, call->args().op().schema.name);
  case DeviceExternFamily::ComplexView:
    return runComplexView(*call, launcher, call->args().op().schema.name == "view_as_real");
  case DeviceExternFamily::IndexPut:
    return runIndexPut(*call, launcher);
  }
  return false;
}

namespace {

/// Runs `run` with the GEMM template's launcher and choices on `ctx` (the family locked; its
/// choices loaded from the kernel cache first, and stored back when `run` made new ones).
Expected<GemmRoute>
withGemmFamily(OpenCLContext &ctx, const OpenCLOptions &options,
               const std::function<Expected<GemmRoute>(const LauncherFor &, const SourceLoader &,
                                                       GemmChoices &)> &run) {
  FamilyKernels &f = familyOf(ctx, Source::Gemm);
  std::lock_guard<std::mutex> lock(f.mutex);
  // The choices are cached per device and driver, and per template source: a changed template
  // times its shapes again. Read once per context; written when a call made new ones.
  GemmChoices &choices = f.gemmChoices;
  auto cacheKey = [&] {
    const DeviceInfo &dev = ctx.device();
    return CacheKey::of("fx_gemm_choices", gemmTemplateSource() + "\n" + dev.platformName + "\n" +
                                               dev.deviceName + "\n" + dev.deviceVersion + "\n" +
                                               dev.driverVersion);
  };
  if (!choices.loaded) {
    choices.loaded = true;
    choices.byShape = KernelCache(options.cacheDir, options.cache).loadTuning(cacheKey());
  }
  LauncherFor launcher = [&](Variant v) -> Expected<Launcher> {
    return Launcher(
        [&](const std::string &definition) {
          return loadKernel(ctx, options, Source::Gemm, f, definition);
        },
        v);
  };
  SourceLoader loadSource =
      [&](const std::string &definition,
          const std::function<std::string()> &source) -> Expected<KernelSet *> {
    if (auto it = f.sets.find(definition); it != f.sets.end())
      return it->second.get();
    std::vector<KernelSpec> specs{{definition, source(), false, {}}};
    // The template's 256 work-items at 128 registers each run two work-groups per NVIDIA SM;
    // an epilogue inlined at its 64 stores must not take registers from its main loop (measured
    // on an H100: uncapped, the products with an epilogue ran slower than without it).
    std::string buildOptions = familyBuildOptions();
    if (ctx.device().hasNvCompilerOptions)
      buildOptions += " -cl-nv-maxrregcount=128";
    auto set = KernelSet::load(ctx, std::move(specs), buildOptions, options);
    if (!set)
      return Error("GEMM template with an epilogue: " + set.error().message);
    return (f.sets[definition] = set.take()).get();
  };
  auto route = run(launcher, loadSource, choices);
  if (choices.dirty) {
    choices.dirty = false;
    // The cache only saves time: a failed write is ignored.
    (void)KernelCache(options.cacheDir, options.cache).storeTuning(cacheKey(), choices.byShape);
  }
  return route;
}

} // namespace

Expected<GemmRoute> runGemm(OpenCLContext &ctx, const OpenCLOptions &options, const GemmProblem &p,
                            const GemmLibrary *library) {
  return withGemmFamily(
      ctx, options,
      [&](const LauncherFor &launcher, const SourceLoader &loadSource, GemmChoices &choices) {
        return runGemmTemplate(launcher, loadSource, choices, ctx, options, p, library);
      });
}

Expected<std::vector<int32_t>> gemmSpecialRows(OpenCLContext &ctx, const OpenCLOptions &options,
                                               const GemmProblem &p) {
  std::vector<int32_t> rows;
  FXKIT_ASSIGN_OR_RETURN(GemmRoute unused,
                         withGemmFamily(ctx, options,
                                        [&](const LauncherFor &launcher, const SourceLoader &,
                                            GemmChoices &choices) -> Expected<GemmRoute> {
                                          FXKIT_ASSIGN_OR_RETURN(
                                              rows, gemmSpecialRowsOf(launcher, choices, ctx, p));
                                          return GemmRoute::Template;
                                        }));
  (void)unused;
  return rows;
}

Expected<GemmRoute> runConvolutionGemm(OpenCLContext &ctx, const OpenCLOptions &options,
                                       const ConvProblem &p, const GemmLibrary *library) {
  return withGemmFamily(
      ctx, options,
      [&](const LauncherFor &launcher, const SourceLoader &loadSource, GemmChoices &choices) {
        return runConvolutionGemmTemplate(launcher, loadSource, choices, ctx, options, p, library);
      });
}

// ---- DeviceExternSupport.h ----

namespace device_externs {

std::string familyPrelude(Variant v, bool fp64) {
  return GeneratedProgram::prelude(fp64 || v == Variant::Double) + "\n" + variantDefines(v) +
         std::string(kCommonSource);
}

std::string_view variantSuffix(Variant v) {
  switch (v) {
  case Variant::Float:
    return "_f";
  case Variant::Double:
    return "_d";
  case Variant::Long:
    return "_l";
  }
  return "";
}

std::optional<Variant> floatingVariant(DType dtype, const DeviceInfo &device) {
  // Not integers or bools; not complex or float8 either (not computable: no kernel loads them).
  if (!dtypeIsFloating(dtype) || !dtypeIsComputable(dtype))
    return std::nullopt;
  if (dtype == DType::Float64)
    return device.hasFp64 ? std::optional(Variant::Double) : std::nullopt;
  return Variant::Float; // float16 and bfloat16 load as float
}

int dtypeCode(DType dtype) {
  switch (dtype) {
  case DType::Float32:
    return 0;
  case DType::Float16:
    return 1;
  case DType::BFloat16:
    return 2;
  case DType::Float64:
    return 3;
  case DType::Int64:
    return 4;
  case DType::Int32:
    return 5;
  case DType::Int16:
    return 6;
  case DType::Int8:
    return 7;
  case DType::UInt8:
    return 8;
  case DType::Bool:
    return 9;
  case DType::Complex64:
  case DType::Complex128:
  case DType::Float8E4M3FN:
  case DType::Float8E5M2:
    return -1;
  }
  return -1;
}

int64_t Operand::numel() const {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  return n;
}

std::optional<Call> Call::make(const OpenCLContext &ctx, const OpenCLOptions &options,
                               const LoopProgram &program, const LoopOp &op,
                               const SymExpr::Bindings &bindings,
                               std::span<const DeviceBuffer> buffers) {
  const OpInfo *info = OpRegistry::instance().lookup(op.externNode->target());
  if (!info)
    return std::nullopt;
  auto args = bindArgs(*op.externNode, *info);
  if (!args)
    return std::nullopt;
  Call c;
  c.program_ = &program;
  c.op_ = &op;
  c.bindings_ = &bindings;
  c.ctx_ = &ctx;
  c.options_ = &options;
  c.buffers_ = buffers;
  c.args_.emplace(args.take());
  return c;
}

std::optional<Operand> Call::view(const BufferView &v) const {
  if (v.buffer < 0 || static_cast<size_t>(v.buffer) >= buffers_.size() ||
      static_cast<size_t>(v.buffer) >= program_->buffers.size())
    return std::nullopt;
  Operand o;
  o.dtype = program_->buffers[v.buffer].type.dtype;
  // Complex tensors are views too (the FFT family reads and writes them); float8 ones not.
  bool complex = o.dtype == DType::Complex64 || o.dtype == DType::Complex128;
  if ((dtypeCode(o.dtype) < 0 && !complex) || v.sizes.size() != v.strides.size())
    return std::nullopt;
  int64_t extent = 1; // elements from the first to one past the last
  for (size_t d = 0; d < v.sizes.size(); ++d) {
    auto n = v.sizes[d].evaluate(*bindings_);
    auto s = v.strides[d].evaluate(*bindings_);
    if (!n || !s || *n < 0 || *s < 0)
      return std::nullopt;
    o.sizes.push_back(*n);
    o.strides.push_back(*s);
    extent += (*n - 1) * *s;
  }
  auto offset = v.offset.evaluate(*bindings_);
  if (!offset || *offset < 0)
    return std::nullopt;
  const DeviceBuffer &storage = buffers_[v.buffer];
  size_t item = static_cast<size_t>(dtypeItemSize(o.dtype));
  if (!storage.mem || storage.offset % item != 0)
    return std::nullopt;
  o.buffer.mem = storage.mem;
  o.buffer.offset = storage.offset + static_cast<size_t>(*offset) * item;
  o.buffer.bytes = o.numel() == 0 ? 0 : static_cast<size_t>(extent) * item;
  // The view must lie inside its storage.
  if (static_cast<size_t>(*offset) * item + o.buffer.bytes > storage.bytes)
    return std::nullopt;
  return o;
}

namespace {
/// Whether argument `a` is an extern input buffer: a node, but not a symbolic integer (those
/// are passed by value; ArgumentNodes.h lists the inputs in this order).
bool isBuffer(const Argument &a) { return a.isNode() && !a.asNode()->value().sym(); }
} // namespace

bool Call::isNone(std::string_view name) const { return args_->get(name).isNone(); }

std::optional<Operand> Call::input(std::string_view name) const {
  const OpSchema &schema = args_->op().schema;
  size_t next = 0; // the tensor inputs in the order lowering listed them
  for (size_t i = 0; i < args_->size() && i < schema.args.size(); ++i) {
    const Argument &a = args_->at(i);
    if (a.isNode()) {
      if (!isBuffer(a))
        continue;
      if (schema.args[i].name == name)
        return next < op_->externInputs.size() ? view(op_->externInputs[next]) : std::nullopt;
      ++next;
    } else if (a.kind() == Argument::Kind::List || a.kind() == Argument::Kind::Tuple) {
      for (const Argument &item : a.items())
        next += isBuffer(item);
    }
  }
  return std::nullopt;
}

std::optional<std::vector<std::optional<Operand>>> Call::inputList(std::string_view name) const {
  const OpSchema &schema = args_->op().schema;
  size_t next = 0;
  for (size_t i = 0; i < args_->size() && i < schema.args.size(); ++i) {
    const Argument &a = args_->at(i);
    if (a.isNode()) {
      next += isBuffer(a);
    } else if (a.kind() == Argument::Kind::List || a.kind() == Argument::Kind::Tuple) {
      if (schema.args[i].name != name) {
        for (const Argument &item : a.items())
          next += isBuffer(item);
        continue;
      }
      std::vector<std::optional<Operand>> out;
      for (const Argument &item : a.items()) {
        if (item.isNone()) {
          out.emplace_back();
          continue;
        }
        if (!isBuffer(item) || next >= op_->externInputs.size())
          return std::nullopt;
        auto v = view(op_->externInputs[next++]);
        if (!v)
          return std::nullopt;
        out.push_back(std::move(v));
      }
      return out;
    }
  }
  return std::nullopt;
}

std::optional<Operand> Call::output(size_t i) const {
  if (i >= op_->externOutputs.size() || op_->externOutputs[i] < 0)
    return std::nullopt;
  int32_t b = op_->externOutputs[i];
  BufferView v;
  v.buffer = b;
  v.sizes = program_->buffers[b].type.sizes;
  v.strides = program_->buffers[b].type.strides;
  v.offset = SymExpr(0);
  return view(v);
}

std::optional<int64_t> Call::integer(std::string_view name) const {
  auto e = args_->symInt(name);
  if (!e)
    return std::nullopt;
  auto v = e->evaluate(*bindings_);
  if (!v)
    return std::nullopt;
  return *v;
}

bool Call::outputsOverlapInputs() const {
  auto range = [&](const BufferView &v) -> std::optional<DeviceBuffer> {
    auto o = view(v);
    if (!o)
      return std::nullopt;
    return o->buffer;
  };
  for (size_t i = 0; i < op_->externOutputs.size(); ++i) {
    auto out = output(i);
    if (!out)
      continue;
    for (const BufferView &v : op_->externInputs) {
      auto in = range(v);
      if (!in)
        return true; // cannot tell: decline
      if (overlaps(out->buffer, *in))
        return true;
    }
  }
  return false;
}

LaunchArg bufferArg(const DeviceBuffer &buffer, bool written) {
  LaunchArg a;
  a.kind = LaunchArg::Kind::Buffer;
  a.buffer = buffer;
  a.written = written;
  return a;
}

LaunchArg bufferArg(const Operand &operand, bool written) {
  return bufferArg(operand.buffer, written);
}

LaunchArg longArg(int64_t value) {
  LaunchArg a;
  a.kind = LaunchArg::Kind::Long;
  a.value = value;
  return a;
}

LaunchArg floatArg(double value, Variant variant) {
  if (variant == Variant::Double)
    return longArg(std::bit_cast<int64_t>(value));
  return longArg(static_cast<int64_t>(std::bit_cast<uint32_t>(static_cast<float>(value))));
}

LaunchArg lanesArg() {
  LaunchArg a;
  a.kind = LaunchArg::Kind::Lanes;
  return a;
}

LaunchArg rowsArg() {
  LaunchArg a;
  a.kind = LaunchArg::Kind::Rows;
  return a;
}

LaunchArg scratchArg(int bytesPerItem) {
  LaunchArg a;
  a.kind = LaunchArg::Kind::Scratch;
  a.scratchBytesPerItem = bytesPerItem;
  return a;
}

Status Launcher::launch(std::string_view name, std::span<const LaunchArg> args, int64_t xnumel,
                        int64_t rnumel) {
  FXKIT_ASSIGN_OR_RETURN(auto set,
                         loader_(std::string(name) + std::string(variantSuffix(variant_))));
  return (set)->launch(0, args, xnumel, rnumel);
}

Expected<double> Launcher::launchWith(std::string_view name, std::span<const LaunchArg> args,
                                      int64_t xnumel, const LaunchConfig &config, bool timed) {
  FXKIT_ASSIGN_OR_RETURN(auto set,
                         loader_(std::string(name) + std::string(variantSuffix(variant_))));
  return set->launchWith(0, args, xnumel, config, timed);
}

Expected<TempBuffer> TempBuffer::fromHost(const OpenCLContext &ctx,
                                          std::span<const int64_t> values) {
  cl_int err = CL_SUCCESS;
  size_t bytes = std::max<size_t>(values.size_bytes(), sizeof(int64_t));
  int64_t zero = 0;
  cl_mem m = clCreateBuffer(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes,
                            values.empty() ? &zero : const_cast<int64_t *>(values.data()), &err);
  if (err != CL_SUCCESS)
    return clError("allocating " + std::to_string(bytes) + " bytes of an extern op's arguments",
                   err);
  return TempBuffer(m, bytes);
}

Expected<TempBuffer> TempBuffer::fromHostBytes(const OpenCLContext &ctx, const void *data,
                                               size_t bytes) {
  cl_int err = CL_SUCCESS;
  unsigned char zero = 0;
  cl_mem m =
      clCreateBuffer(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                     std::max<size_t>(bytes, 1), bytes ? const_cast<void *>(data) : &zero, &err);
  if (err != CL_SUCCESS)
    return clError("allocating " + std::to_string(bytes) + " bytes of an extern op's tables", err);
  return TempBuffer(m, std::max<size_t>(bytes, 1));
}

Expected<TempBuffer> TempBuffer::create(const OpenCLContext &ctx, size_t bytes) {
  cl_int err = CL_SUCCESS;
  cl_mem m =
      clCreateBuffer(ctx.context(), CL_MEM_READ_WRITE, std::max<size_t>(bytes, 1), nullptr, &err);
  if (err != CL_SUCCESS)
    return clError("allocating " + std::to_string(bytes) + " bytes of scratch for an extern op",
                   err);
  return TempBuffer(m, bytes);
}

bool Call::gpuForms() const {
  static const bool forced = [] {
    const char *v = std::getenv("FXKIT_GPU_EXTERN_FORMS");
    return v && std::string_view(v) == "1";
  }();
  return ctx_->device().isGpu || options_->gpuExternForms || forced;
}

Expected<DeviceBuffer> ScratchBuffer::get(const OpenCLContext &ctx, size_t bytes) {
  if (!buffer_ || bytes_ < bytes) {
    buffer_.reset();
    FXKIT_ASSIGN_OR_RETURN(auto fresh, TempBuffer::create(ctx, bytes));
    buffer_.emplace(std::move(fresh));
    bytes_ = bytes;
  }
  return buffer_->buffer();
}

TempBuffer::~TempBuffer() {
  if (mem_)
    clReleaseMemObject(mem_);
}

Status fillZeros(const OpenCLContext &ctx, const DeviceBuffer &buffer) {
  if (buffer.bytes == 0)
    return Status::ok();
  cl_uchar zero = 0;
  cl_int err = clEnqueueFillBuffer(ctx.queue(), buffer.mem, &zero, 1, buffer.offset, buffer.bytes,
                                   0, nullptr, nullptr);
  if (err != CL_SUCCESS)
    return clError("zeroing an extern op's result", err);
  return Status::ok();
}

} // namespace device_externs

} // namespace fxkit::opencl
