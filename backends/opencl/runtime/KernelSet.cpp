#include "backends/opencl/runtime/KernelSet.h"
#include "backends/opencl/codegen/LaunchConstants.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <string_view>
#include <thread>

namespace fxkit::opencl {

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// FXKIT_TUNE_LOG=1: the work-group limit and every tuning trial on stderr, to see why a
/// configuration won.
bool tuneLog() {
  static const bool on = [] {
    const char *v = std::getenv("FXKIT_TUNE_LOG");
    return v && *v && std::string_view(v) != "0";
  }();
  return on;
}

/// A failed build's log as part of fxkit's error: each line indented under the error, and the
/// file name the driver gave the source (pocl's "/root/.cache/pocl/kcache/tempfile_X.cl",
/// NVIDIA's "<kernel>") replaced by `sourcePath`, the copy fxkit wrote, whose line numbers are
/// the log's.
std::string indentedBuildLog(std::string_view log, const std::string &sourcePath) {
  static const std::regex driverFile(R"(([^\s:]+\.cl|<kernel>|<source>)(:\d+:\d+:))");
  std::string replacement; // the path, with regex_replace's `$` escaped, then the position
  for (char c : sourcePath)
    replacement += c == '$' ? std::string("$$") : std::string(1, c);
  replacement += "$2";
  std::string out;
  while (!log.empty()) {
    size_t eol = log.find('\n');
    std::string line(log.substr(0, eol));
    log = eol == std::string_view::npos ? std::string_view() : log.substr(eol + 1);
    if (!line.empty())
      out += "\n  " + std::regex_replace(line, driverFile, replacement);
  }
  return out;
}

/// A program and its one kernel.
struct BuiltKernel {
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
  void release() {
    if (kernel)
      clReleaseKernel(kernel);
    if (program)
      clReleaseProgram(program);
    kernel = nullptr;
    program = nullptr;
  }
};

/// One distinct kernel definition: its program, built on a worker thread.
struct Definition {
  KernelSpec spec;
  /// What its build depends on (source, options, device, driver): its cache key's input.
  std::string identity;
  CacheKey cacheKey;
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
  /// Launch constants: its builds for one configuration and row length, by
  /// launchConstantsOptions' text; a build that failed holds no kernel (the definition's own
  /// build runs instead).
  std::map<std::string, BuiltKernel> constantBuilds;
  std::promise<Status> built;
  std::shared_future<Status> ready = built.get_future().share();
  /// Tuned configurations per shape key, and whether they changed since loading.
  std::map<std::string, LaunchConfig> configs;
  bool tuningDirty = false;
  bool tuningLoaded = false;
  std::set<std::string> fromDisk; ///< shapes loaded from the cache and not used yet
  /// Multi-kernel: its variants' definitions (indices into KernelSet::Impl::definitions), in
  /// KernelSpec::variants' order; empty for a variant itself.
  std::vector<size_t> variants;
  int persistentPoints = 0; ///< a variant's KernelVariantSpec::persistentPoints
  /// Where its tuned configurations are cached: with variants, a key over every variant's source
  /// too, so that a configuration naming variant N never meets another set of variants.
  CacheKey tuningKey;
};

} // namespace

double tuneBudgetSeconds(const OpenCLOptions &options) {
  if (const char *text = std::getenv("FXKIT_TUNE_BUDGET_S")) {
    char *end = nullptr;
    double v = std::strtod(text, &end);
    if (end != text && *end == '\0' && v > 0)
      return v;
  }
  return options.tuneBudgetSeconds;
}

bool resolveGpuDefault(GpuDefault policy, bool isGpu, const char *env) {
  if (const char *v = env ? std::getenv(env) : nullptr; v && *v)
    return std::string_view(v) != "0";
  switch (policy) {
  case GpuDefault::Auto:
    return isGpu;
  case GpuDefault::On:
    return true;
  case GpuDefault::Off:
    return false;
  }
  return false;
}

bool KernelSet::usesVariants(const OpenCLOptions &options, bool isGpu) {
  return resolveGpuDefault(options.multiKernel, isGpu, "FXKIT_MULTI_KERNEL");
}

struct KernelSet::Impl {
  OpenCLContext *ctx = nullptr;
  OpenCLOptions options;
  std::string buildOptions;
  bool launchConstants = false; ///< OpenCLOptions::launchConstants, resolved for the device
  KernelCache cache{"", false}; ///< replaced by load() (a disabled one touches no folder)
  std::vector<std::unique_ptr<Definition>> definitions;
  std::vector<std::thread> workers;
  std::atomic<size_t> nextToBuild{0};
  std::mutex statsMutex;
  OpenCLStats stats;
  /// Profiled launches not yet read (collectProfile): a launch is timed without waiting for it.
  std::vector<cl_event> profiled;
  /// Adds the profiled launches' device time to stats, in launch order; with `finishedOnly`
  /// only the oldest ones that have completed (no wait), else all (waiting for them).
  void readProfiled(bool finishedOnly);

  ~Impl();
  void buildWorker();
  Status build(Definition &d);
  /// Builds `source` with `options` (from the cache under `key` where it has the binary) and
  /// creates its kernel `name`; counts it in the stats as a definition where `definition`.
  Expected<BuiltKernel> buildKernel(const std::string &name, const std::string &source,
                                    const std::string &options, const CacheKey &key,
                                    bool definition);
  /// The kernel that runs `d` in configuration `c` over rows of `rnumel` points: its own, or its
  /// build with launch constants (made now where it is missing; one that fails to build leaves
  /// `c` to the definition's own kernel, nullptr).
  cl_kernel kernelFor(Definition &d, const LaunchConfig &c, int64_t rnumel);
  /// Makes the missing builds with launch constants of `wanted` (definition, configuration) for
  /// rows of `rnumel` points, in parallel.
  void buildConstants(const std::vector<std::pair<Definition *, LaunchConfig>> &wanted,
                      int64_t rnumel);
  Status setArgs(Definition &d, cl_kernel kernel, std::span<const LaunchArg> args,
                 const LaunchConfig &c);
  /// Enqueues a launch of `kernel` (nullptr: d's own); `timed`: waits for it and returns its
  /// device seconds. With `keep`, the launch's event goes there instead (no wait).
  Expected<double> enqueue(Definition &d, std::span<const LaunchArg> args, const LaunchConfig &c,
                           int64_t xnumel, bool timed, cl_event *keep = nullptr,
                           cl_kernel kernel = nullptr);
  Expected<LaunchConfig> tune(Definition &d, std::span<const LaunchArg> args, int64_t xnumel,
                              int64_t rnumel, int maxWg);
};

KernelSet::Impl::~Impl() {
  for (cl_event e : profiled)
    clReleaseEvent(e);
  nextToBuild = definitions.size(); // stop workers from taking more
  for (std::thread &t : workers)
    if (t.joinable())
      t.join();
  for (auto &d : definitions) {
    for (auto &[options, built] : d->constantBuilds)
      built.release();
    if (d->kernel)
      clReleaseKernel(d->kernel);
    if (d->program)
      clReleaseProgram(d->program);
    if (d->tuningDirty) {
      std::map<std::string, std::string> text;
      for (const auto &[shape, c] : d->configs)
        text[shape] = c.str(d->spec.isReduction);
      (void)cache.storeTuning(d->tuningKey, text); // a cache that cannot be written is skipped
    }
  }
}

void KernelSet::Impl::buildWorker() {
  for (;;) {
    size_t i = nextToBuild.fetch_add(1);
    if (i >= definitions.size())
      return;
    Definition &d = *definitions[i];
    d.built.set_value(build(d));
  }
}

Status KernelSet::Impl::build(Definition &d) {
  auto built = buildKernel(d.spec.name, d.spec.source, buildOptions, d.cacheKey, true);
  if (!built)
    return built.takeError();
  d.program = built->program;
  d.kernel = built->kernel;
  return Status::ok();
}

Expected<BuiltKernel> KernelSet::Impl::buildKernel(const std::string &name,
                                                   const std::string &source,
                                                   const std::string &options, const CacheKey &key,
                                                   bool definition) {
  auto t0 = std::chrono::steady_clock::now();
  cl_int err = CL_SUCCESS;
  const DeviceInfo &dev = ctx->device();
  BuiltKernel d;
  bool fromCache = false;
  if (auto binary = cache.loadBinary(key)) {
    const unsigned char *bytes = binary->data();
    size_t size = binary->size();
    cl_int status = CL_SUCCESS;
    d.program =
        clCreateProgramWithBinary(ctx->context(), 1, &dev.device, &size, &bytes, &status, &err);
    cl_int built = CL_INVALID_BINARY;
    if (err == CL_SUCCESS && status == CL_SUCCESS)
      built = clBuildProgram(d.program, 1, &dev.device, options.c_str(), nullptr, nullptr);
    if (built == CL_SUCCESS)
      d.kernel = clCreateKernel(d.program, name.c_str(), &built); // it holds this kernel
    if (built == CL_SUCCESS) {
      fromCache = true;
    } else {
      // A binary that verified but that the driver refuses (another driver build, a damaged
      // file with a good checksum): evicted, and built once from source below.
      d.release();
      cl_int why = err != CL_SUCCESS ? err : status != CL_SUCCESS ? status : built;
      cache.evictBinary(key, "the driver refuses it: " + clErrorName(why));
    }
  }
  if (!fromCache) {
    // FXKIT_OPENCL_DUMP_DIR=dir: every program built from source is also written to
    // dir/<kernel>.cl, its build options on the first line, to build and time it alone (with
    // NVIDIA's -cl-nv-verbose, bench/opencl/reference's harnesses).
    if (const char *dir = std::getenv("FXKIT_OPENCL_DUMP_DIR"); dir && *dir) {
      std::ofstream out(std::filesystem::path(dir) / (name + ".cl"));
      out << "// build options: " << options << "\n" << source;
    }
    const char *src = source.c_str();
    size_t len = source.size();
    d.program = clCreateProgramWithSource(ctx->context(), 1, &src, &len, &err);
    if (err != CL_SUCCESS)
      return clError("kernel " + name + ": creating the program", err);
    err = clBuildProgram(d.program, 1, &dev.device, options.c_str(), nullptr, nullptr);
    size_t n = 0;
    clGetProgramBuildInfo(d.program, dev.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
    std::string log(n, '\0');
    clGetProgramBuildInfo(d.program, dev.device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
    while (!log.empty() &&
           (log.back() == '\0' || std::isspace(static_cast<unsigned char>(log.back()))))
      log.pop_back();
    // FXKIT_OPENCL_BUILD_LOG=1: every build's log on stderr (with NVIDIA's -cl-nv-verbose in
    // FXKIT_OPENCL_BUILD_OPTIONS, each kernel's registers and spills).
    if (const char *v = std::getenv("FXKIT_OPENCL_BUILD_LOG");
        v && *v && std::string_view(v) != "0" && !log.empty())
      std::fprintf(stderr, "fxkit: build log of %s%s:\n%s\n", name.c_str(),
                   definition ? "" : (" (" + options.substr(buildOptions.size()) + ")").c_str(),
                   log.c_str());
    if (err == CL_SUCCESS && log.find("warning") != std::string::npos) {
      std::lock_guard<std::mutex> lock(statsMutex);
      if (stats.kernelsWithWarnings++ == 0)
        stats.firstWarning = name + ": " + log.substr(0, 2000);
    }
    if (err != CL_SUCCESS) {
      d.release();
      // The source goes to a file of its own (never into the cache), so the log's line
      // numbers can be read against it.
      std::string path =
          (std::filesystem::temp_directory_path() / ("fxkit-" + key.file + ".cl")).string();
      std::ofstream(path) << source;
      return Error("kernel " + name + " does not build on " + dev.deviceName + " (" +
                   clErrorName(err) + "); source: " + path +
                   (log.empty() ? "" : "; the compiler's log:" + indentedBuildLog(log, path)));
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
        if (Status st = cache.storeBinary(key, binary); !st) {
          std::lock_guard<std::mutex> lock(statsMutex);
          if (stats.cacheWriteFailures++ == 0)
            stats.cacheWriteError = st.error().message;
        }
      }
    }
    d.kernel = clCreateKernel(d.program, name.c_str(), &err);
    if (err != CL_SUCCESS) {
      d.release();
      return clError("kernel " + name + ": creating the kernel", err);
    }
  }
  std::lock_guard<std::mutex> lock(statsMutex);
  if (definition)
    (fromCache ? stats.kernelsFromCache : stats.kernelsBuilt)++;
  else
    ++stats.constantBuilds;
  stats.buildSeconds += secondsSince(t0);
  return d;
}

void KernelSet::Impl::buildConstants(
    const std::vector<std::pair<Definition *, LaunchConfig>> &wanted, int64_t rnumel) {
  struct Job {
    Definition *d;
    std::string options;
    std::future<Expected<BuiltKernel>> result;
  };
  std::vector<Job> jobs;
  for (const auto &w : wanted) {
    Definition *d = w.first; // not a structured binding: lambdas capture it (clang 15)
    std::string constants = launchConstantsOptions(rnumel, w.second.lanes, w.second.rows);
    if (d->constantBuilds.count(constants) ||
        std::any_of(jobs.begin(), jobs.end(),
                    [&](const Job &j) { return j.d == d && j.options == constants; }))
      continue;
    std::string options = buildOptions + constants;
    CacheKey key = CacheKey::of(d->spec.name, d->identity + "\n" + constants);
    jobs.push_back({d, constants, std::async(std::launch::async, [this, d, options, key] {
                      return buildKernel(d->spec.name, d->spec.source, options, key, false);
                    })});
  }
  for (Job &j : jobs) {
    auto built = j.result.get();
    if (!built && tuneLog())
      std::fprintf(stderr, "fxkit: tune %s: no build with%s (%s)\n", j.d->spec.name.c_str(),
                   j.options.c_str(), built.error().message.c_str());
    j.d->constantBuilds[j.options] = built ? *built : BuiltKernel{};
  }
}

cl_kernel KernelSet::Impl::kernelFor(Definition &d, const LaunchConfig &c, int64_t rnumel) {
  if (!c.launchConstants)
    return d.kernel;
  std::string constants = launchConstantsOptions(rnumel, c.lanes, c.rows);
  if (!d.constantBuilds.count(constants))
    buildConstants({{&d, c}}, rnumel);
  return d.constantBuilds.at(constants).kernel;
}

Status KernelSet::Impl::setArgs(Definition &d, cl_kernel kernel, std::span<const LaunchArg> args,
                                const LaunchConfig &c) {
  cl_uint arg = 0;
  auto set = [&](size_t size, const void *value) -> Status {
    cl_int err = clSetKernelArg(kernel, arg, size, value);
    if (err != CL_SUCCESS)
      return clError("kernel " + d.spec.name + ": argument " + std::to_string(arg), err);
    ++arg;
    return Status::ok();
  };
  for (const LaunchArg &a : args) {
    Status s = Status::ok();
    switch (a.kind) {
    case LaunchArg::Kind::Buffer: {
      if (!a.buffer.mem)
        return Error("kernel " + d.spec.name + ": argument " + std::to_string(arg) +
                     " has no device storage");
      cl_ulong offset = a.buffer.offset;
      if (Status t = set(sizeof(cl_mem), &a.buffer.mem); !t)
        return t;
      s = set(sizeof offset, &offset);
      break;
    }
    case LaunchArg::Kind::Long: {
      cl_long value = a.value;
      s = set(sizeof value, &value);
      break;
    }
    case LaunchArg::Kind::Lanes:
    case LaunchArg::Kind::Rows: {
      cl_int value = a.kind == LaunchArg::Kind::Lanes ? c.lanes : c.rows;
      s = set(sizeof value, &value);
      break;
    }
    case LaunchArg::Kind::Scratch:
      s = set(static_cast<size_t>(a.scratchBytesPerItem) * c.lanes * c.rows, nullptr);
      break;
    }
    if (!s)
      return s;
  }
  return Status::ok();
}

Expected<double> KernelSet::Impl::enqueue(Definition &d, std::span<const LaunchArg> args,
                                          const LaunchConfig &c, int64_t xnumel, bool timed,
                                          cl_event *keep, cl_kernel kernel) {
  if (!kernel)
    kernel = d.kernel;
  if (Status s = setArgs(d, kernel, args, c); !s)
    return s.takeError();
  size_t global =
      static_cast<size_t>(c.globalSize(d.spec.isReduction, xnumel, d.spec.pointsPerStep));
  size_t local = static_cast<size_t>(c.local);
  cl_event event = nullptr;
  cl_int err = clEnqueueNDRangeKernel(ctx->queue(), kernel, 1, nullptr, &global, &local, 0, nullptr,
                                      timed || keep ? &event : nullptr);
  if (err != CL_SUCCESS)
    return clError("launching kernel " + d.spec.name + " (" + c.str(d.spec.isReduction) + ")", err);
  if (keep && !timed) {
    *keep = event;
    return 0.0;
  }
  if (!timed)
    return 0.0;
  clWaitForEvents(1, &event);
  cl_ulong start = 0, end = 0;
  clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr);
  clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr);
  clReleaseEvent(event);
  return static_cast<double>(end - start) * 1e-9;
}

Expected<LaunchConfig> KernelSet::Impl::tune(Definition &d, std::span<const LaunchArg> args,
                                             int64_t xnumel, int64_t rnumel, int maxWg) {
  const DeviceInfo &dev = ctx->device();
  bool reduction = d.spec.isReduction;
  LaunchConfig best = defaultConfig(reduction, xnumel, rnumel, maxWg, dev.isGpu);
  // Trials must not change what the real launch computes: every buffer the kernel writes is
  // saved first and restored after every trial. Not only in-place kernels need it: a kernel that
  // accumulates into its output (index_put with accumulate, scatter_add, a reduction that adds
  // to an earlier kernel's partial) reads what it writes through the same argument, and each
  // trial would add once more (llama's training backward came out wrong after tuning).
  std::vector<std::pair<const DeviceBuffer *, cl_mem>> saved;
  auto release = [&] {
    for (auto &[b, copy] : saved)
      clReleaseMemObject(copy);
  };
  for (const LaunchArg &a : args) {
    if (a.kind != LaunchArg::Kind::Buffer || !a.written || a.buffer.bytes == 0)
      continue;
    const DeviceBuffer &b = a.buffer;
    cl_int err = CL_SUCCESS;
    cl_mem copy = clCreateBuffer(ctx->context(), CL_MEM_READ_WRITE, b.bytes, nullptr, &err);
    if (err == CL_SUCCESS)
      err =
          clEnqueueCopyBuffer(ctx->queue(), b.mem, copy, b.offset, 0, b.bytes, 0, nullptr, nullptr);
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
  const double budget = tuneBudgetSeconds(options);
  const bool log = tuneLog();
  // One trial: a warm-up launch, then the faster of two timed ones (one launch alone is at the
  // mercy of noise); a configuration the device refuses is not a candidate.
  auto trial = [&](Definition &dv, const LaunchConfig &c, cl_kernel kernel) -> Status {
    auto warm = enqueue(dv, args, c, xnumel, true, nullptr, kernel);
    if (Status r1 = restore(); !r1)
      return r1;
    if (!warm) {
      if (log)
        std::fprintf(stderr, "fxkit: tune %s x%lld_r%lld %s: refused by the device (%s)\n",
                     dv.spec.name.c_str(), static_cast<long long>(xnumel),
                     static_cast<long long>(rnumel), c.str(reduction).c_str(),
                     warm.error().message.c_str());
      return Status::ok();
    }
    double fastest = -1;
    for (int rep = 0; rep < 2; ++rep) {
      auto t = enqueue(dv, args, c, xnumel, true, nullptr, kernel);
      if (Status r2 = restore(); !r2)
        return r2;
      if (t && (fastest < 0 || *t < fastest))
        fastest = *t;
    }
    if (log && fastest >= 0)
      std::fprintf(stderr, "fxkit: tune %s x%lld_r%lld %s: %.4f ms\n", dv.spec.name.c_str(),
                   static_cast<long long>(xnumel), static_cast<long long>(rnumel),
                   c.str(reduction).c_str(), fastest * 1e3);
    if (fastest >= 0 && (bestTime < 0 || fastest < bestTime)) {
      bestTime = fastest;
      best = c;
    }
    return Status::ok();
  };
  // Whether a definition's trials have spent the budget (once one configuration has a time).
  auto spent = [&](const Definition &dv, std::chrono::steady_clock::time_point started,
                   int trials) {
    if (bestTime < 0 || secondsSince(started) <= budget)
      return false;
    if (log)
      std::fprintf(stderr,
                   "fxkit: tune %s x%lld_r%lld: budget of %.1f s spent after %d configurations\n",
                   dv.spec.name.c_str(), static_cast<long long>(xnumel),
                   static_cast<long long>(rnumel), budget, trials);
    return true;
  };
  // The kernel, then each multi-kernel variant (one with a persistent form only with the lanes
  // its row needs, else it would run the kernel's own looped form); each with its own trials
  // and budget. Then, where launch constants are on, builds of each for one configuration.
  std::vector<int> minLanesOf(d.variants.size() + 1, 1);
  auto definitionOf = [&](size_t variant) -> Definition & {
    return variant == 0 ? d : *definitions[d.variants[variant - 1]];
  };
  for (size_t variant = 0; variant <= d.variants.size(); ++variant) {
    Definition &dv = definitionOf(variant);
    int &minLanes = minLanesOf[variant];
    if (dv.persistentPoints > 0)
      minLanes = static_cast<int>(
          std::min<int64_t>((rnumel + dv.persistentPoints - 1) / dv.persistentPoints, 1 << 20));
    if (variant > 0) {
      if (Status built = dv.ready.get(); !built) {
        if (log)
          std::fprintf(stderr, "fxkit: tune %s: variant %s not built (%s)\n", d.spec.name.c_str(),
                       dv.spec.name.c_str(), built.error().message.c_str());
        minLanes = -1; // the kernel itself still runs
        continue;
      }
    }
    int trials = 0;
    const auto started = std::chrono::steady_clock::now();
    for (LaunchConfig c : candidateConfigs(reduction, xnumel, rnumel, maxWg, dev.isGpu, minLanes)) {
      c.variant = static_cast<int>(variant);
      if (trials++ >= options.maxTrials || spent(dv, started, trials - 1))
        break;
      if (Status s = trial(dv, c, dv.kernel); !s) {
        release();
        return s.takeError();
      }
    }
  }
  if (reduction && launchConstants && rnumel > 1) {
    // The configurations worth their own build: the fastest so far, then per definition those
    // of launchConstantConfigs; as many as the trials allow.
    std::vector<std::pair<Definition *, LaunchConfig>> wanted;
    if (bestTime >= 0 && takesLaunchConstants(definitionOf(best.variant).spec.source)) {
      LaunchConfig c = best;
      c.launchConstants = true;
      wanted.push_back({&definitionOf(best.variant), c});
    }
    for (size_t variant = 0; variant <= d.variants.size(); ++variant) {
      Definition &dv = definitionOf(variant);
      if (minLanesOf[variant] < 0 || !takesLaunchConstants(dv.spec.source))
        continue;
      for (LaunchConfig c : launchConstantConfigs(xnumel, rnumel, maxWg, minLanesOf[variant])) {
        c.variant = static_cast<int>(variant);
        if (std::none_of(wanted.begin(), wanted.end(), [&](const auto &w) {
              return w.second.variant == c.variant && w.second.lanes == c.lanes &&
                     w.second.rows == c.rows;
            }))
          wanted.push_back({&dv, c});
      }
    }
    if (wanted.size() > static_cast<size_t>(std::max(options.maxTrials, 0)))
      wanted.resize(static_cast<size_t>(std::max(options.maxTrials, 0)));
    buildConstants(wanted, rnumel);
    const auto started = std::chrono::steady_clock::now();
    int trials = 0;
    for (const auto &[dv, c] : wanted) {
      if (spent(*dv, started, trials++))
        break;
      if (cl_kernel k = kernelFor(*dv, c, rnumel))
        if (Status s = trial(*dv, c, k); !s) {
          release();
          return s.takeError();
        }
    }
    if (best.launchConstants) {
      std::lock_guard<std::mutex> lock(statsMutex);
      ++stats.constantsChosen;
    }
  }
  if (!d.variants.empty()) {
    std::lock_guard<std::mutex> lock(statsMutex);
    ++stats.variantsTimed;
    stats.variantsChosen += best.variant > 0 ? 1 : 0;
  }
  clFinish(ctx->queue());
  release();
  return best;
}

KernelSet::KernelSet() : impl_(std::make_unique<Impl>()) {}
KernelSet::~KernelSet() = default;

Expected<std::unique_ptr<KernelSet>> KernelSet::load(OpenCLContext &context,
                                                     std::vector<KernelSpec> kernels,
                                                     std::string buildOptions,
                                                     const OpenCLOptions &options) {
  std::unique_ptr<KernelSet> out(new KernelSet());
  Impl &im = *out->impl_;
  im.ctx = &context;
  im.options = options;
  im.buildOptions = std::move(buildOptions);
  im.cache = KernelCache(options.cacheDir, options.cache);
  const DeviceInfo &dev = context.device();
  // Part of every definition's build options, so of its cache key too.
  if (resolveGpuDefault(options.fastExp, dev.isGpu, "FXKIT_FAST_EXP"))
    im.buildOptions += " -DFX_FAST_EXP";
  // Lanes combine through PTX warp shuffles on NVIDIA GPUs (prelude.cl); FXKIT_WARP_SHUFFLE=0
  // keeps the local-memory tree there too.
  const char *shuffle = std::getenv("FXKIT_WARP_SHUFFLE");
  if (dev.isGpu && dev.nvWarpSize == 32 && !(shuffle && std::string(shuffle) == "0"))
    im.buildOptions += " -DFX_WARP_SHUFFLE";
  im.launchConstants =
      resolveGpuDefault(options.launchConstants, dev.isGpu, "FXKIT_LAUNCH_CONSTANTS");
  const bool variants = usesVariants(options, dev.isGpu);
  std::set<std::string> names;
  auto identityOf = [&](const std::string &source) {
    return source + "\n" + im.buildOptions + "\n" + dev.platformName + "\n" + dev.deviceName +
           "\n" + dev.deviceVersion + "\n" + dev.driverVersion;
  };
  // Variants go after every kernel: the workers build in order, and a kernel is needed first.
  std::vector<std::unique_ptr<Definition>> variantDefinitions;
  for (KernelSpec &k : kernels) {
    if (!names.insert(k.name).second)
      return Error("kernel " + k.name + ": two definitions with one name (internal error)");
    auto d = std::make_unique<Definition>();
    std::string identity = identityOf(k.source);
    d->identity = identity;
    d->cacheKey = CacheKey::of(k.name, identity);
    d->tuningKey = d->cacheKey;
    if (variants && !k.variants.empty()) {
      for (KernelVariantSpec &v : k.variants) {
        if (!names.insert(v.name).second)
          return Error("kernel " + v.name + ": two definitions with one name (internal error)");
        identity += "\nvariant " + std::to_string(v.persistentPoints) + "\n" + v.source;
        auto vd = std::make_unique<Definition>();
        vd->identity = identityOf(v.source);
        vd->cacheKey = CacheKey::of(v.name, vd->identity);
        vd->tuningKey = vd->cacheKey;
        vd->persistentPoints = v.persistentPoints;
        vd->spec = KernelSpec{std::move(v.name), std::move(v.source), k.isReduction, {}};
        d->variants.push_back(kernels.size() + variantDefinitions.size());
        variantDefinitions.push_back(std::move(vd));
      }
      d->tuningKey = CacheKey::of(k.name, identity);
    }
    k.variants.clear();
    d->spec = std::move(k);
    im.definitions.push_back(std::move(d));
  }
  for (auto &vd : variantDefinitions)
    im.definitions.push_back(std::move(vd));
  size_t threads = std::max<size_t>(
      1, std::min<size_t>(std::thread::hardware_concurrency(), im.definitions.size()));
  for (size_t t = 0; t < threads && !im.definitions.empty(); ++t)
    im.workers.emplace_back([&im] { im.buildWorker(); });
  return out;
}

int KernelSet::find(const std::string &name) const {
  for (size_t i = 0; i < impl_->definitions.size(); ++i)
    if (impl_->definitions[i]->spec.name == name)
      return static_cast<int>(i);
  return -1;
}

Status KernelSet::launch(size_t index, std::span<const LaunchArg> args, int64_t xnumel,
                         int64_t rnumel) {
  Impl &im = *impl_;
  assert(index < im.definitions.size() && "KernelSet::launch: no such definition");
  Definition &d = *im.definitions[index];
  const std::string &name = d.spec.name;
  bool reduction = d.spec.isReduction;
  auto t0 = std::chrono::steady_clock::now();
  if (Status s = d.ready.get(); !s)
    return s;
  im.stats.waitSeconds += secondsSince(t0);
  if (xnumel <= 0)
    return Status::ok();
  const DeviceInfo &dev = im.ctx->device();
  int deviceWg = static_cast<int>(std::min<size_t>(dev.maxWorkGroupSize, 1024));
  int maxWg = deviceWg; // what the driver promises for this kernel
  size_t kernelWg = 0;
  if (clGetKernelWorkGroupInfo(d.kernel, dev.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernelWg,
                               &kernelWg, nullptr) == CL_SUCCESS &&
      kernelWg > 0)
    maxWg = std::min<int>(maxWg, static_cast<int>(kernelWg));
  // What tuning tries: NVIDIA's OpenCL reports 256 for every kernel (even one of 10 registers),
  // yet launches up to the device's 1024 where registers allow, and softmax over 8192-point rows
  // is fastest at 512 lanes. A launch the device refuses is no candidate, so on GPUs tuning
  // tries up to the device's limit; untuned launches keep the promised one.
  int tryWg = dev.isGpu ? deviceWg : maxWg;
  std::string shape = "x" + std::to_string(xnumel) + "_r" + std::to_string(rnumel);
  if (!d.tuningLoaded) {
    d.tuningLoaded = true;
    for (const auto &[key, text] : im.cache.loadTuning(d.tuningKey))
      // A configuration naming a variant this set lacks is not trusted: the shape is tuned again.
      if (auto c = LaunchConfig::parse(text);
          c && static_cast<size_t>(c->variant) <= d.variants.size()) {
        d.configs[key] = *c;
        d.fromDisk.insert(key);
      }
  }
  const std::string &force = im.options.forceConfig;
  if (!force.empty()) {
    auto forced = LaunchConfig::parse(force);
    bool reductionConfig = force.starts_with("lanes=");
    if (!forced)
      return Error("bad launch configuration '" + force +
                   "' (expected lanes=L,rows=W or local=N,per_item=K, with \",variant=V\" to run a "
                   "kernel's V-th multi-kernel variant, then \",constants\" to run a reduction's "
                   "build with launch constants)");
    if (reductionConfig == reduction) {
      if (forced->local > tryWg)
        return Error("launch configuration '" + force + "' needs " + std::to_string(forced->local) +
                     " work-items per group; kernel " + name + " allows " + std::to_string(tryWg));
      // A forced variant runs where the kernel has it; a kernel with fewer runs its own form.
      Definition *runs = &d;
      if (forced->variant > 0 && static_cast<size_t>(forced->variant) <= d.variants.size()) {
        runs = im.definitions[d.variants[static_cast<size_t>(forced->variant) - 1]].get();
        if (Status built = runs->ready.get(); !built)
          return built;
      }
      cl_kernel kernel = reduction ? im.kernelFor(*runs, *forced, rnumel) : runs->kernel;
      if (!kernel)
        return Error("kernel " + runs->spec.name + " does not build for launch configuration '" +
                     force + "' (FXKIT_TUNE_LOG=1 shows why)");
      auto r = im.enqueue(*runs, args, *forced, xnumel, false, nullptr, kernel);
      if (!r)
        return r.takeError();
      ++im.stats.launches;
      return Status::ok();
    }
  }
  auto it = d.configs.find(shape);
  if (it != d.configs.end() && it->second.local <= tryWg) {
    if (d.fromDisk.erase(shape))
      ++im.stats.configsFromCache;
  } else {
    LaunchConfig best = defaultConfig(reduction, xnumel, rnumel, maxWg, dev.isGpu);
    if (im.options.tune) {
      if (tuneLog())
        std::fprintf(stderr,
                     "fxkit: tune %s: work-group limit %d (device %zu, kernel %zu), trying up to "
                     "%d\n",
                     name.c_str(), maxWg, dev.maxWorkGroupSize, kernelWg, tryWg);
      auto tuned = im.tune(d, args, xnumel, rnumel, tryWg);
      if (!tuned)
        return tuned.takeError();
      best = *tuned;
      ++im.stats.configsTuned;
      d.tuningDirty = true;
    }
    it = d.configs.insert_or_assign(shape, best).first;
  }
  // A variant's launch: it was built when it was timed, or is built now for a cached choice; one
  // that does not build leaves the shape to the kernel itself, in the same configuration.
  Definition *runs = &d;
  if (int v = it->second.variant; v > 0) {
    Definition &variant = *im.definitions[d.variants[static_cast<size_t>(v) - 1]];
    if (Status built = variant.ready.get(); built) {
      runs = &variant;
    } else {
      it->second.variant = 0;
      d.tuningDirty = true;
    }
  }
  // A build with launch constants: made when it was timed, or now (from the cache) for a cached
  // choice; one that does not build leaves the shape to the definition's own build.
  cl_kernel kernel = runs->kernel;
  if (it->second.launchConstants) {
    kernel = reduction ? im.kernelFor(*runs, it->second, rnumel) : nullptr;
    if (!kernel) {
      kernel = runs->kernel;
      it->second.launchConstants = false;
      d.tuningDirty = true;
    }
  }
  // Profiled launches are read after the run's wait (collectProfile): waiting for each one
  // here would put a host synchronisation between kernels.
  cl_event event = nullptr;
  auto r = im.enqueue(*runs, args, it->second, xnumel, false, im.options.profile ? &event : nullptr,
                      kernel);
  if (!r)
    return r.takeError();
  if (event)
    im.profiled.push_back(event);
  if (im.profiled.size() >= 4096) // runs that never wait: read what has finished
    im.readProfiled(true);
  ++im.stats.launches;
  return Status::ok();
}

Expected<double> KernelSet::launchWith(size_t index, std::span<const LaunchArg> args,
                                       int64_t xnumel, const LaunchConfig &config, bool timed) {
  Impl &im = *impl_;
  assert(index < im.definitions.size() && "KernelSet::launchWith: no such definition");
  Definition &d = *im.definitions[index];
  auto t0 = std::chrono::steady_clock::now();
  if (Status s = d.ready.get(); !s)
    return s.takeError();
  im.stats.waitSeconds += secondsSince(t0);
  if (xnumel <= 0)
    return 0.0;
  if (timed)
    return im.enqueue(d, args, config, xnumel, true);
  cl_event event = nullptr;
  auto r = im.enqueue(d, args, config, xnumel, false, im.options.profile ? &event : nullptr);
  if (!r)
    return r.takeError();
  if (event)
    im.profiled.push_back(event);
  if (im.profiled.size() >= 4096)
    im.readProfiled(true);
  ++im.stats.launches;
  return 0.0;
}

void KernelSet::collectProfile() { impl_->readProfiled(false); }

void KernelSet::Impl::readProfiled(bool finishedOnly) {
  size_t done = 0;
  for (cl_event e : profiled) {
    cl_int status = CL_QUEUED;
    if (finishedOnly && (clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                                        &status, nullptr) != CL_SUCCESS ||
                         status != CL_COMPLETE))
      break;
    ++done;
    clWaitForEvents(1, &e);
    cl_ulong start = 0, end = 0;
    if (clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr) ==
            CL_SUCCESS &&
        clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) ==
            CL_SUCCESS &&
        end >= start)
      stats.kernelSeconds += static_cast<double>(end - start) * 1e-9;
    clReleaseEvent(e);
  }
  profiled.erase(profiled.begin(), profiled.begin() + static_cast<std::ptrdiff_t>(done));
}

OpenCLStats &KernelSet::stats() { return impl_->stats; }

const KernelCache &KernelSet::cache() const { return impl_->cache; }

std::vector<std::pair<std::string, std::string>> KernelSet::chosenConfigs() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto &d : impl_->definitions)
    for (const auto &[shape, c] : d->configs) {
      std::string config = c.str(d->spec.isReduction);
      if (c.variant > 0 && static_cast<size_t>(c.variant) <= d->variants.size())
        config += " (" + impl_->definitions[d->variants[c.variant - 1]]->spec.name + ")";
      out.push_back({d->spec.name + " " + shape, config});
    }
  return out;
}

} // namespace fxkit::opencl
