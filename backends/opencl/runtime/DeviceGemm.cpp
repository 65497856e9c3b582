/// \file The GEMM template (GemmTemplate.h): its OpenCL C, its tile shapes, and the choice
/// among them and the BLAS library per shape.
///
/// The kernel is the classic register-blocked SGEMM (as in CLBlast's Xgemm and Triton's matmul
/// tutorial): each step, the work-group copies a TM x TK slice of A and a TK x TN slice of B
/// into local memory (stored k-major, padded so neither the copy nor the reads conflict on
/// banks), then every work-item accumulates its WM x WN block from float4 reads of them with
/// fused multiply-adds. The next step's slices are read from global memory into registers while
/// the current one is computed. A work-item's rows are WM / 4 groups of 4 consecutive rows,
/// spaced a quarter-tile apart, so the float4 reads of a warp fall on distinct banks.

#include "backends/opencl/runtime/GemmTemplate.h"

#include "backends/opencl/runtime/CallTimer.h"
#include "backends/opencl/runtime/DeviceExternSupport.h"
#include "backends/opencl/runtime/KernelCache.h"

#include "ir/TextTemplate.h"
#include "ir/Try.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>

namespace fxkit::opencl {

using namespace device_externs;

namespace {

/// One definition's macros (TA, TB: A or B stored transposed).
constexpr std::string_view kInstance = R"CL(
#ifdef FX_DEFINITION_{{NAME}}
#define FX_GEMM_NAME {{NAME}}
#define FX_GEMM_TM {{TM}}
#define FX_GEMM_TN {{TN}}
#define FX_GEMM_TK {{TK}}
#define FX_GEMM_WM {{WM}}
#define FX_GEMM_WN {{WN}}
#define FX_GEMM_TA {{TA}}
#define FX_GEMM_TB {{TB}}
#endif
)CL";

constexpr std::string_view kBody = R"CL(
#ifdef FX_GEMM_NAME
#define FX_GEMM_KERNEL(n) FX_NAME(n)
#define FX_GEMM_TX (FX_GEMM_TN / FX_GEMM_WN)
#define FX_GEMM_TY (FX_GEMM_TM / FX_GEMM_WM)
#define FX_GEMM_THREADS (FX_GEMM_TX * FX_GEMM_TY)
#define FX_GEMM_LA (FX_GEMM_TM * FX_GEMM_TK / FX_GEMM_THREADS)
#define FX_GEMM_LB (FX_GEMM_TN * FX_GEMM_TK / FX_GEMM_THREADS)
#define FX_GEMM_PAD 4
#define FX_GEMM_AROW (FX_GEMM_TM + FX_GEMM_PAD)
#define FX_GEMM_BROW (FX_GEMM_TN + FX_GEMM_PAD)
// Element r of this work-item's share of a slice: (row or column, depth) within the tile.
#define FX_GEMM_E(r) (tid + (r) * FX_GEMM_THREADS)
#if FX_GEMM_TA
#define FX_GEMM_A_MM(r) (FX_GEMM_E(r) % FX_GEMM_TM)
#define FX_GEMM_A_KK(r) (FX_GEMM_E(r) / FX_GEMM_TM)
#define FX_GEMM_A_AT(row, p) A[(p) * lda + (row)]
#else
#define FX_GEMM_A_MM(r) (FX_GEMM_E(r) / FX_GEMM_TK)
#define FX_GEMM_A_KK(r) (FX_GEMM_E(r) % FX_GEMM_TK)
#define FX_GEMM_A_AT(row, p) A[(row) * lda + (p)]
#endif
#if FX_GEMM_TB
#define FX_GEMM_B_NN(r) (FX_GEMM_E(r) / FX_GEMM_TK)
#define FX_GEMM_B_KK(r) (FX_GEMM_E(r) % FX_GEMM_TK)
#define FX_GEMM_B_AT(p, col) B[(col) * ldb + (p)]
#else
#define FX_GEMM_B_NN(r) (FX_GEMM_E(r) % FX_GEMM_TN)
#define FX_GEMM_B_KK(r) (FX_GEMM_E(r) / FX_GEMM_TN)
#define FX_GEMM_B_AT(p, col) B[(p) * ldb + (col)]
#endif
#define FX_GEMM_LOAD(k0)                                                                       \
  for (int r = 0; r < FX_GEMM_LA; ++r) {                                                       \
    const int row = m0 + FX_GEMM_A_MM(r), p = (k0) + FX_GEMM_A_KK(r);                          \
    ra[r] = row < M && p < K ? FX_GEMM_A_AT(row, p) : 0.0f;                                    \
  }                                                                                            \
  for (int r = 0; r < FX_GEMM_LB; ++r) {                                                       \
    const int col = n0 + FX_GEMM_B_NN(r), p = (k0) + FX_GEMM_B_KK(r);                          \
    rb[r] = col < N && p < K ? FX_GEMM_B_AT(p, col) : 0.0f;                                    \
  }

// C = alpha * op(A) @ op(B) + beta * C over `batches` matrices; C is not read when beta is 0.
// Offsets within one matrix are int (the host checks that they fit); batches step in long.
__kernel __attribute__((reqd_work_group_size(FX_GEMM_THREADS, 1, 1)))
void FX_GEMM_KERNEL(FX_GEMM_NAME)(FX_IN(a), FX_IN(b), FX_OUT(c), const long M_, const long N_,
    const long K_, const long lda_, const long ldb_, const long ldc_, const long sa, const long sb,
    const long sc, const long batches, const long alpha_bits, const long beta_bits) {
  const int M = (int)M_, N = (int)N_, K = (int)K_;
  const int lda = (int)lda_, ldb = (int)ldb_, ldc = (int)ldc_;
  // float4 rows, so the compute loop's reads are 128-bit loads of local memory.
  __local float4 As4[FX_GEMM_TK][FX_GEMM_AROW / 4];
  __local float4 Bs4[FX_GEMM_TK][FX_GEMM_BROW / 4];
  __local float *As = (__local float *)As4;
  __local float *Bs = (__local float *)Bs4;
  const float alpha = FX_BITS(alpha_bits), beta = FX_BITS(beta_bits);
  const int tid = get_local_id(0);
  const int tx = tid % FX_GEMM_TX, ty = tid / FX_GEMM_TX;
  const int tilesN = (N + FX_GEMM_TN - 1) / FX_GEMM_TN;
  const int tilesM = (M + FX_GEMM_TM - 1) / FX_GEMM_TM;
  const long tiles = (long)tilesN * tilesM, groups = tiles * batches;
  for (long g = get_group_id(0); g < groups; g += get_num_groups(0)) {
    const int tile = (int)(g % tiles);
    const long bt = g / tiles;
    const int m0 = (tile / tilesN) * FX_GEMM_TM, n0 = (tile % tilesN) * FX_GEMM_TN;
    __global const float *A = (__global const float *)FX_AT(a) + bt * sa;
    __global const float *B = (__global const float *)FX_AT(b) + bt * sb;
    __global float *C = (__global float *)FX_AT(c) + bt * sc;
    float acc[FX_GEMM_WM][FX_GEMM_WN];
    for (int i = 0; i < FX_GEMM_WM; ++i)
      for (int j = 0; j < FX_GEMM_WN; ++j)
        acc[i][j] = 0.0f;
    float ra[FX_GEMM_LA], rb[FX_GEMM_LB];
    FX_GEMM_LOAD(0)
    for (int k0 = 0; k0 < K; k0 += FX_GEMM_TK) {
      barrier(CLK_LOCAL_MEM_FENCE); // the previous step's reads are done
      for (int r = 0; r < FX_GEMM_LA; ++r)
        As[FX_GEMM_A_KK(r) * FX_GEMM_AROW + FX_GEMM_A_MM(r)] = ra[r];
      for (int r = 0; r < FX_GEMM_LB; ++r)
        Bs[FX_GEMM_B_KK(r) * FX_GEMM_BROW + FX_GEMM_B_NN(r)] = rb[r];
      barrier(CLK_LOCAL_MEM_FENCE);
      if (k0 + FX_GEMM_TK < K) {
        FX_GEMM_LOAD(k0 + FX_GEMM_TK)
      }
#pragma unroll
      for (int kk = 0; kk < FX_GEMM_TK; ++kk) {
        float av[FX_GEMM_WM], bv[FX_GEMM_WN];
        for (int q = 0; q < FX_GEMM_WM / 4; ++q) {
          const float4 v = As4[kk][q * FX_GEMM_TY + ty];
          av[4 * q] = v.x, av[4 * q + 1] = v.y, av[4 * q + 2] = v.z, av[4 * q + 3] = v.w;
        }
        for (int q = 0; q < FX_GEMM_WN / 4; ++q) {
          const float4 v = Bs4[kk][q * FX_GEMM_TX + tx];
          bv[4 * q] = v.x, bv[4 * q + 1] = v.y, bv[4 * q + 2] = v.z, bv[4 * q + 3] = v.w;
        }
        for (int i = 0; i < FX_GEMM_WM; ++i)
          for (int j = 0; j < FX_GEMM_WN; ++j)
            acc[i][j] = fma(av[i], bv[j], acc[i][j]);
      }
    }
    for (int i = 0; i < FX_GEMM_WM; ++i) {
      const int row = m0 + (i / 4) * FX_GEMM_TY * 4 + ty * 4 + i % 4;
      if (row >= M)
        continue;
      for (int j = 0; j < FX_GEMM_WN; ++j) {
        const int col = n0 + (j / 4) * FX_GEMM_TX * 4 + tx * 4 + j % 4;
        if (col >= N)
          continue;
        float v = alpha * acc[i][j];
        if (beta != 0.0f)
          v += beta * C[row * ldc + col];
        C[row * ldc + col] = v;
      }
    }
  }
}
#endif
)CL";

/// "nn", "nt", "tn", "tt": A and B stored as they are or transposed.
std::string layoutName(bool ta, bool tb) { return std::string(ta ? "t" : "n") + (tb ? "t" : "n"); }

std::string definitionName(const GemmTile &t, bool ta, bool tb) {
  return "fx_gemm_" + t.str() + "_" + layoutName(ta, tb);
}

/// FXKIT_GEMM=auto|template|library overrides OpenCLOptions::gemm (for experiments).
GemmPolicy policyOf(const OpenCLOptions &options) {
  if (const char *v = std::getenv("FXKIT_GEMM"); v && *v) {
    std::string_view s(v);
    if (s == "template")
      return GemmPolicy::Template;
    if (s == "library" || s == "clblast")
      return GemmPolicy::Library;
    if (s == "auto")
      return GemmPolicy::Auto;
  }
  return options.gemm;
}

bool gemmLog() {
  static const bool on = [] {
    const char *v = std::getenv("FXKIT_TUNE_LOG");
    return v && *v && std::string_view(v) != "0";
  }();
  return on;
}

/// The elements of `m` a problem touches, from its offset: what a trial's scratch C needs.
size_t spanOf(const GemmMatrix &m, int64_t rows, int64_t cols, int64_t batch) {
  return static_cast<size_t>(batch - 1) * m.batchStride + static_cast<size_t>(rows - 1) * m.ld +
         static_cast<size_t>(cols);
}

/// Whether every element offset within one matrix of `p` fits the kernel's int arithmetic.
bool offsetsFitInt(const GemmProblem &p) {
  constexpr int64_t kLimit = int64_t{1} << 31;
  auto extent = [](const GemmMatrix &x, int64_t rows, int64_t cols) {
    int64_t outer = x.transposed ? cols : rows, inner = x.transposed ? rows : cols;
    return (outer - 1) * static_cast<int64_t>(x.ld) + inner;
  };
  return p.m < kLimit && p.n < kLimit && p.k < kLimit && extent(p.a, p.m, p.k) < kLimit &&
         extent(p.b, p.k, p.n) < kLimit && extent(p.c, p.m, p.n) < kLimit &&
         static_cast<int64_t>(p.a.ld) < kLimit && static_cast<int64_t>(p.b.ld) < kLimit &&
         static_cast<int64_t>(p.c.ld) < kLimit;
}

/// The tile shapes worth timing for `p`: those not much larger than the problem.
std::vector<GemmTile> candidatesFor(const GemmProblem &p) {
  std::vector<GemmTile> out;
  for (const GemmTile &t : gemmTiles())
    if ((t.tm <= 32 || p.m > t.tm / 2) && (t.tn <= 32 || p.n > t.tn / 2))
      out.push_back(t);
  return out;
}

/// The default tile shape without timing: the largest that the problem fills.
GemmTile defaultTile(const GemmProblem &p) { return candidatesFor(p).front(); }

std::optional<GemmTile> parseTile(std::string_view text) {
  for (const GemmTile &t : gemmTiles())
    if (t.str() == text)
      return t;
  return std::nullopt;
}

} // namespace

std::string GemmProblem::shapeKey() const {
  return "m" + std::to_string(m) + "_n" + std::to_string(n) + "_k" + std::to_string(k) + "_b" +
         std::to_string(batch) + "_" + layoutName(a.transposed, b.transposed) + "_beta" +
         (beta != 0 ? "1" : "0");
}

std::string GemmTile::str() const {
  return std::to_string(tm) + "x" + std::to_string(tn) + "x" + std::to_string(tk) + "_" +
         std::to_string(wm) + "x" + std::to_string(wn);
}

const std::vector<GemmTile> &gemmTiles() {
  // Every shape keeps TM * TK and TN * TK multiples of its work-group size (each work-item
  // copies whole elements of each slice) and WM, WN multiples of 4 (float4 reads).
  static const std::vector<GemmTile> tiles = {
      {128, 128, 8, 8, 8}, {128, 128, 16, 8, 8}, {128, 64, 8, 8, 4}, {64, 128, 8, 4, 8},
      {64, 64, 8, 4, 4},   {64, 64, 16, 8, 8},   {32, 32, 8, 4, 4},
  };
  return tiles;
}

std::string gemmTemplateSource() {
  std::string out;
  for (const GemmTile &t : gemmTiles())
    for (bool ta : {false, true})
      for (bool tb : {false, true}) {
        const std::pair<std::string_view, std::string> keys[] = {
            {"NAME", definitionName(t, ta, tb)},
            {"TM", std::to_string(t.tm)},
            {"TN", std::to_string(t.tn)},
            {"TK", std::to_string(t.tk)},
            {"WM", std::to_string(t.wm)},
            {"WN", std::to_string(t.wn)},
            {"TA", ta ? "1" : "0"},
            {"TB", tb ? "1" : "0"}};
        out += substituteKeys(kInstance, keys);
      }
  out += kBody;
  return out;
}

namespace device_externs {

FamilySource gemmSource() {
  static const std::string body = gemmTemplateSource();
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const GemmTile &t : gemmTiles())
      for (bool ta : {false, true})
        for (bool tb : {false, true})
          out.push_back(definitionName(t, ta, tb));
    return out;
  }();
  FamilySource src{body, {}, {Variant::Float}, ""};
  for (const std::string &n : names)
    src.kernels.push_back({n, false});
  return src;
}

Expected<GemmRoute> runGemmTemplate(const LauncherFor &launcherFor, GemmChoices &choices,
                                    OpenCLContext &ctx, const OpenCLOptions &options,
                                    const GemmProblem &p, const GemmLibrary *library) {
  const GemmPolicy policy = policyOf(options);
  const bool gpu = ctx.device().isGpu;
  // A matrix whose offsets need 64 bits (over 8 GiB of float32) goes to the library.
  if (policy == GemmPolicy::Library || (policy == GemmPolicy::Auto && !gpu && library) ||
      (library && !offsetsFitInt(p))) {
    if (!library)
      return Error("no GEMM library in this build (OpenCLOptions::gemm)");
    FXKIT_TRY((*library)(p));
    return GemmRoute::Library;
  }
  if (!offsetsFitInt(p))
    return Error("a matrix product with offsets beyond 2^31 elements has no GEMM template form");
  FXKIT_ASSIGN_OR_RETURN(Launcher launcher, launcherFor(Variant::Float));
  const bool ta = p.a.transposed, tb = p.b.transposed;
  auto argsFor = [&](const GemmMatrix &c) {
    const size_t item = sizeof(float);
    std::vector<LaunchArg> args{bufferArg(DeviceBuffer{p.a.mem, p.a.offset * item, 0}, false),
                                bufferArg(DeviceBuffer{p.b.mem, p.b.offset * item, 0}, false),
                                bufferArg(DeviceBuffer{c.mem, c.offset * item, 0}, true)};
    appendLongs(args, {p.m, p.n, p.k, static_cast<int64_t>(p.a.ld), static_cast<int64_t>(p.b.ld),
                       static_cast<int64_t>(c.ld), static_cast<int64_t>(p.a.batchStride),
                       static_cast<int64_t>(p.b.batchStride), static_cast<int64_t>(c.batchStride),
                       p.batch});
    args.push_back(floatArg(p.alpha, Variant::Float));
    args.push_back(floatArg(p.beta, Variant::Float));
    return args;
  };
  auto launchTile = [&](const GemmTile &t, const GemmMatrix &c, bool timed) -> Expected<double> {
    int64_t groups = ((p.m + t.tm - 1) / t.tm) * ((p.n + t.tn - 1) / t.tn) * p.batch;
    LaunchConfig config;
    config.local = t.threads();
    std::vector<LaunchArg> args = argsFor(c);
    return launcher.launchWith(definitionName(t, ta, tb), args, groups * t.threads(), config,
                               timed);
  };

  // The choice for this shape: forced, cached, or timed now.
  const std::string key = p.shapeKey();
  std::string choice;
  if (!options.gemmTile.empty()) {
    if (!parseTile(options.gemmTile))
      return Error("unknown GEMM tile '" + options.gemmTile + "'");
    choice = options.gemmTile;
  } else if (auto it = choices.byShape.find(key); it != choices.byShape.end()) {
    choice = it->second;
  } else if (!options.tune) {
    choice = policy == GemmPolicy::Auto && library ? "library" : defaultTile(p).str();
  } else {
    // Trials write a scratch C (the real one may be read: beta != 0, or an input in place).
    size_t elements = spanOf(p.c, p.m, p.n, p.batch);
    FXKIT_ASSIGN_OR_RETURN(TempBuffer scratch, TempBuffer::create(ctx, elements * sizeof(float)));
    GemmProblem trial = p;
    trial.c.mem = scratch.buffer().mem;
    trial.c.offset = 0;
    CallTimer timer;
    auto time = [&](const std::function<Status()> &run) -> Expected<double> {
      FXKIT_TRY(run()); // builds and warms
      timer.begin(ctx);
      for (int rep = 0; rep < 2; ++rep)
        FXKIT_TRY(run());
      timer.end(ctx);
      clFinish(ctx.queue());
      timer.collect();
      if (timer.seconds().empty())
        return -1.0;
      return timer.seconds().back() / 2;
    };
    double best = -1;
    const auto started = std::chrono::steady_clock::now();
    auto consider = [&](const std::string &name, Expected<double> t) {
      if (!t) {
        if (gemmLog())
          std::fprintf(stderr, "fxkit: gemm %s %s: refused (%s)\n", key.c_str(), name.c_str(),
                       t.error().message.c_str());
        return;
      }
      if (gemmLog())
        std::fprintf(stderr, "fxkit: gemm %s %s: %.4f ms\n", key.c_str(), name.c_str(), *t * 1e3);
      if (*t >= 0 && (best < 0 || *t < best)) {
        best = *t;
        choice = name;
      }
    };
    if (library && policy == GemmPolicy::Auto)
      consider("library", time([&] { return (*library)(trial); }));
    for (const GemmTile &t : candidatesFor(p)) {
      double spent =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      if (best >= 0 && spent > options.tuneBudgetSeconds)
        break;
      consider(t.str(), time([&]() -> Status {
                 auto r = launchTile(t, trial.c, false);
                 return r ? Status::ok() : Status(r.takeError());
               }));
    }
    timer.release();
    if (choice.empty()) // nothing ran: the default, whose error the real launch reports
      choice = policy == GemmPolicy::Auto && library ? "library" : defaultTile(p).str();
    choices.byShape[key] = choice;
    choices.dirty = true;
  }
  if (choice == "library" && library) {
    FXKIT_TRY((*library)(p));
    return GemmRoute::Library;
  }
  std::optional<GemmTile> tile = parseTile(choice);
  if (!tile)
    tile = defaultTile(p); // a cached choice this build does not have
  FXKIT_ASSIGN_OR_RETURN(double unused, launchTile(*tile, p.c, false));
  (void)unused;
  return GemmRoute::Template;
}

} // namespace device_externs

} // namespace fxkit::opencl
