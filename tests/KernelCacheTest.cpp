/// The kernel cache heals instead of trusting what it finds: entries carry and verify their
/// full key, so two entries that exchanged contents are both found and rebuilt (a layer norm
/// once ran another graph's kernel from a swapped entry); a folder, a FIFO or a symbolic link
/// (to /dev/zero) in place of an entry is replaced without being read; a truncated or oversized
/// entry is rebuilt; an entry that verifies but does not load (the OpenCL driver or the JIT
/// refuses it) is evicted and rebuilt once; stale temporaries of interrupted writes are swept
/// when the cache is opened, fresh ones kept. On the cache alone, then through OpenCL (PoCL's
/// CPU device) and LLVM where they are built, with results checked against hand-worked values.

#include "backends/opencl/runtime/KernelCache.h"
#include "CompileTestSupport.h"
#include "InterpreterTestSupport.h"

#ifdef FXKIT_HAVE_LLVM
#include "backends/llvm/KernelCompiler.h"
#include "backends/llvm/KernelEntry.h"
#endif

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

using namespace fxkit;
using namespace fxkit::testing;
using opencl::CacheKey;
using opencl::KernelCache;
namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void writeFile(const fs::path &p, const std::string &bytes) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

/// The files of the cache folder, by name.
std::set<std::string> entries(const fs::path &dir) {
  std::set<std::string> out;
  std::error_code ec;
  for (const auto &e : fs::directory_iterator(dir, ec))
    out.insert(e.path().filename().string());
  return out;
}

void swapFiles(const fs::path &a, const fs::path &b) {
  fs::path tmp = a.string() + ".swap";
  fs::rename(a, tmp);
  fs::rename(b, a);
  fs::rename(tmp, b);
}

/// The key an entry file says it holds (its header's FILEKEY and CHECK), to plant entries
/// that verify but hold something else.
CacheKey keyOfEntry(const fs::path &p) {
  std::istringstream h(readFile(p));
  std::string magic;
  CacheKey key;
  h >> magic >> key.file >> key.check;
  return key;
}

/// What can stand in place of an entry: each must be replaced, never read.
enum class Intruder { Folder, Fifo, LinkToDevZero, DanglingLink };

const char *name(Intruder i) {
  switch (i) {
  case Intruder::Folder:
    return "folder";
  case Intruder::Fifo:
    return "FIFO";
  case Intruder::LinkToDevZero:
    return "symbolic link to /dev/zero";
  case Intruder::DanglingLink:
    return "dangling symbolic link";
  }
  return "?";
}

void plant(Intruder i, const fs::path &p) {
  fs::remove(p);
  switch (i) {
  case Intruder::Folder:
    fs::create_directories(p / "inside");
    writeFile(p / "inside" / "file", "x");
    return;
  case Intruder::Fifo:
    ASSERT_EQ(::mkfifo(p.c_str(), 0644), 0);
    return;
  case Intruder::LinkToDevZero:
    fs::create_symlink("/dev/zero", p);
    return;
  case Intruder::DanglingLink:
    fs::create_symlink(p.string() + ".nowhere", p);
    return;
  }
}

constexpr Intruder kIntruders[] = {Intruder::Folder, Intruder::Fifo, Intruder::LinkToDevZero,
                                   Intruder::DanglingLink};

std::vector<unsigned char> toBytes(const std::string &s) { return {s.begin(), s.end()}; }

/// The payload `cache` serves under `key`, or "<miss>".
std::string loaded(KernelCache &cache, const CacheKey &key) {
  auto b = cache.loadBinary(key);
  return b ? std::string(b->begin(), b->end()) : "<miss>";
}

// ---- The cache on its own. ----

TEST(KernelCache, EntriesCarryTheirKeyAndSwappedEntriesAreBothRejected) {
  TempDir dir;
  KernelCache cache(dir.path.string());
  CacheKey a = CacheKey::of("k_a", "source of a"), b = CacheKey::of("k_b", "source of b");
  EXPECT_NE(a.check, b.check);
  ASSERT_TRUE(cache.storeBinary(a, toBytes("binary of a")));
  ASSERT_TRUE(cache.storeBinary(b, toBytes("binary of b")));
  ASSERT_EQ(loaded(cache, a), "binary of a");
  // Each file names its key inside, so the checksum alone (which still verifies) is not enough.
  EXPECT_NE(readFile(dir.path / (a.file + ".bin")).find(a.file + " " + a.check), std::string::npos);
  swapFiles(dir.path / (a.file + ".bin"), dir.path / (b.file + ".bin"));
  EXPECT_FALSE(cache.loadBinary(a));
  EXPECT_FALSE(cache.loadBinary(b));
  EXPECT_EQ(cache.corruptEntriesRemoved(), 2);
  EXPECT_TRUE(entries(dir.path).empty()) << "swapped entries were not removed";
  // Rebuilt entries serve again.
  ASSERT_TRUE(cache.storeBinary(a, toBytes("binary of a")));
  EXPECT_EQ(loaded(cache, a), "binary of a");

  // Tuned configurations too.
  ASSERT_TRUE(cache.storeTuning(a, {{"x4_r1", "local=64,per_item=1"}}));
  ASSERT_TRUE(cache.storeTuning(b, {{"x8_r1", "local=32,per_item=2"}}));
  swapFiles(dir.path / (a.file + ".tune"), dir.path / (b.file + ".tune"));
  EXPECT_TRUE(cache.loadTuning(a).empty());
  EXPECT_TRUE(cache.loadTuning(b).empty());
  EXPECT_EQ(cache.corruptEntriesRemoved(), 4);
}

TEST(KernelCache, AFileHashCollisionIsCaughtByTheSecondHash) {
  TempDir dir;
  KernelCache cache(dir.path.string());
  CacheKey stored{"k-0123456789abcdef", "1111111111111111"};
  CacheKey other{"k-0123456789abcdef", "2222222222222222"}; // same file, other identity
  ASSERT_TRUE(cache.storeBinary(stored, toBytes("a")));
  EXPECT_FALSE(cache.loadBinary(other));
  EXPECT_EQ(cache.corruptEntriesRemoved(), 1);
}

TEST(KernelCache, NonRegularFilesInPlaceOfAnEntryAreReplacedUnread) {
  for (Intruder i : kIntruders) {
    SCOPED_TRACE(name(i));
    TempDir dir;
    fs::create_directories(dir.path);
    KernelCache cache(dir.path.string());
    CacheKey k = CacheKey::of("k", "identity");
    fs::path p = dir.path / (k.file + ".bin");
    plant(i, p);
    // No exception, no hang on the FIFO, no endless read of /dev/zero.
    EXPECT_FALSE(cache.loadBinary(k));
    EXPECT_EQ(cache.corruptEntriesRemoved(), 1);
    std::error_code ec;
    EXPECT_FALSE(fs::exists(fs::symlink_status(p, ec))) << "not removed";
    ASSERT_TRUE(cache.storeBinary(k, toBytes("fresh")));
    EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(p, ec)));
    EXPECT_EQ(loaded(cache, k), "fresh");
    // A store over an intruder replaces it directly too.
    plant(i, p);
    ASSERT_TRUE(cache.storeBinary(k, toBytes("again")));
    EXPECT_EQ(loaded(cache, k), "again");
    EXPECT_TRUE(fs::exists("/dev/zero")) << "the link's target was removed";
  }
}

TEST(KernelCache, TruncatedOversizedAndOldEntriesAreRemoved) {
  TempDir dir;
  KernelCache cache(dir.path.string());
  CacheKey k = CacheKey::of("k", "identity");
  fs::path p = dir.path / (k.file + ".bin");
  std::string payload(1000, 'z');
  ASSERT_TRUE(cache.storeBinary(k, toBytes(payload)));
  fs::resize_file(p, fs::file_size(p) / 2);
  EXPECT_FALSE(cache.loadBinary(k));
  EXPECT_FALSE(fs::exists(p));
  // Empty, header only, garbage, a version-1 entry.
  for (std::string content :
       {std::string(), std::string("fxkit-cache-v2\n"),
        std::string("\x7f"
                    "ELF garbage"),
        "fxkit-cache-v1 1 " + opencl::hashHex(opencl::stableHash("z")) + "\nz"}) {
    writeFile(p, content);
    EXPECT_FALSE(cache.loadBinary(k)) << content;
    EXPECT_FALSE(fs::exists(p)) << content;
  }
  // Larger than any binary: removed without being read (a sparse file, no disk used).
  writeFile(p, "x");
  fs::resize_file(p, KernelCache::kMaxEntryBytes + 1);
  EXPECT_FALSE(cache.loadBinary(k));
  EXPECT_FALSE(fs::exists(p));
  // Another version's entry is replaced quietly (an upgrade is no fault).
  EXPECT_EQ(cache.corruptEntriesRemoved(), 5);
}

TEST(KernelCache, StaleTemporariesAreSweptWhenTheCacheIsOpened) {
  TempDir dir;
  fs::create_directories(dir.path);
  auto old =
      fs::file_time_type::clock::now() - KernelCache::kStaleTemporaryAge - std::chrono::minutes(5);
  auto recent = fs::file_time_type::clock::now() - std::chrono::minutes(5);
  auto make = [&](const std::string &name, fs::file_time_type when) {
    writeFile(dir.path / name, "partial");
    fs::last_write_time(dir.path / name, when);
  };
  make(".k-1.bin.tmp.123.0", old);     // a killed writer's, long ago
  make("k-2.bin.tmp.456", old);        // an older version's naming
  make(".k-3.tune.tmp.789.4", recent); // a write that may be in progress
  make("k-4.bin", old);                // an entry: old entries are kept
  fs::create_directories(dir.path / ".k-5.bin.tmp.1.1");
  fs::last_write_time(dir.path / ".k-5.bin.tmp.1.1", old);
  KernelCache cache(dir.path.string());
  EXPECT_EQ(cache.staleTemporariesRemoved(), 3);
  EXPECT_EQ(entries(dir.path), (std::set<std::string>{".k-3.tune.tmp.789.4", "k-4.bin"}));
  // A disabled cache touches nothing.
  make(".k-6.bin.tmp.1.2", old);
  KernelCache disabled(dir.path.string(), false);
  EXPECT_TRUE(fs::exists(dir.path / ".k-6.bin.tmp.1.2"));
  // Writes leave no temporary behind.
  ASSERT_TRUE(cache.storeBinary(CacheKey::of("k", "i"), toBytes("b")));
  for (const std::string &n : entries(dir.path))
    EXPECT_TRUE(n.find(".tmp.") == std::string::npos || n == ".k-3.tune.tmp.789.4" ||
                n == ".k-6.bin.tmp.1.2")
        << n;
}

TEST(KernelCache, AnUnwritableFolderIsAnErrorNotAnException) {
  TempDir dir;
  fs::create_directories(dir.path);
  writeFile(dir.path / "file", "not a folder");
  KernelCache cache((dir.path / "file" / "cache").string());
  CacheKey k = CacheKey::of("k", "i");
  EXPECT_FALSE(cache.loadBinary(k));
  Status st = cache.storeBinary(k, toBytes("b"));
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("kernel cache"), std::string::npos) << st.error().message;
}

// ---- Through the backends: two graphs whose single kernels take and give one f32[4, 8]. ----

const char *kGraphA = R"(graph():
    %x : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = placeholder[target=x]
    %mul : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, 2.0), kwargs = {})
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul, 1.0), kwargs = {})
    return (add,)
)";
const char *kGraphB = R"(graph():
    %x : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = placeholder[target=x]
    %sin : [num_users=1] = call_function[target=torch.ops.aten.sin.default](args = (%x,), kwargs = {})
    return (sin,)
)";

std::vector<double> inputValues() {
  std::vector<double> v;
  for (int i = 0; i < 32; ++i)
    v.push_back(0.25 * i - 3.0);
  return v;
}

std::vector<double> expectedA() {
  std::vector<double> v = inputValues();
  for (double &x : v)
    x = 2 * x + 1;
  return v;
}

std::vector<double> expectedB() {
  std::vector<double> v = inputValues();
  for (double &x : v)
    x = std::sin(x);
  return v;
}

/// What one run of a graph through a backend reported.
struct RunReport {
  int built = 0, fromCache = 0, corrupt = 0;
};

/// Runs graph `text` through `runner` (OpenCL or LLVM) and checks its output against `want`.
template <typename Runner>
RunReport runAndCheck(const char *text, const std::vector<double> &want, Runner runner) {
  Compiled c;
  EXPECT_TRUE(compile(text, c));
  std::vector<RuntimeValue> inputs{RuntimeValue{fromValues({4, 8}, inputValues())}};
  RunReport report;
  std::optional<InterpretResult> result = runner(c, inputs, report);
  EXPECT_TRUE(result);
  if (!result || result->outputs.size() != 1 || !result->outputs[0].tensor()) {
    ADD_FAILURE() << "no output";
    return report;
  }
  expectValues(*result->outputs[0].tensor(), want, 1e-5);
  return report;
}

/// Runs A and B, swaps each of A's entries (".bin", and OpenCL's ".tune") with B's of the same
/// kind, and expects both to be found, rebuilt and right, then served from the cache again.
template <typename Runner> void checkSwappedEntries(const fs::path &cache, Runner runner) {
  RunReport a1 = runAndCheck(kGraphA, expectedA(), runner);
  EXPECT_EQ(a1.built, 1);
  std::set<std::string> filesA = entries(cache);
  RunReport b1 = runAndCheck(kGraphB, expectedB(), runner);
  EXPECT_EQ(b1.built, 1);
  std::set<std::string> filesB;
  for (const std::string &f : entries(cache))
    if (!filesA.count(f))
      filesB.insert(f);
  ASSERT_EQ(filesA.size(), filesB.size());
  // Swap every entry of A with the one of B of the same kind.
  int swapped = 0;
  for (const std::string &fa : filesA)
    for (const std::string &fb : filesB)
      if (fs::path(fa).extension() == fs::path(fb).extension()) {
        swapFiles(cache / fa, cache / fb);
        ++swapped;
      }
  ASSERT_EQ(swapped, static_cast<int>(filesA.size()));
  // Both are found, rebuilt, and compute their own graph.
  RunReport a2 = runAndCheck(kGraphA, expectedA(), runner);
  EXPECT_EQ(a2.corrupt, swapped);
  EXPECT_EQ(a2.built, 1);
  EXPECT_EQ(a2.fromCache, 0);
  RunReport b2 = runAndCheck(kGraphB, expectedB(), runner);
  EXPECT_EQ(b2.corrupt, swapped);
  EXPECT_EQ(b2.built, 1);
  // Healed: the next runs read the rebuilt entries.
  RunReport a3 = runAndCheck(kGraphA, expectedA(), runner);
  EXPECT_EQ(a3.fromCache, 1);
  EXPECT_EQ(a3.corrupt, 0);
  RunReport b3 = runAndCheck(kGraphB, expectedB(), runner);
  EXPECT_EQ(b3.fromCache, 1);
  EXPECT_EQ(b3.corrupt, 0);
}

/// The binary entry of graph A, after one run filled the cache.
template <typename Runner> fs::path fillAndFindBinary(const fs::path &cache, Runner runner) {
  runAndCheck(kGraphA, expectedA(), runner);
  for (const std::string &f : entries(cache))
    if (fs::path(f).extension() == ".bin")
      return cache / f;
  ADD_FAILURE() << "no binary entry in " << cache;
  return cache / "missing.bin";
}

/// `damage` applied to graph A's binary entry: the next run rebuilds it (one corrupt entry)
/// with the right result, and the one after reads the rebuilt entry.
template <typename Runner>
void checkHeals(const fs::path &cache, Runner runner,
                const std::function<void(const fs::path &)> &damage) {
  fs::path bin = fillAndFindBinary(cache, runner);
  damage(bin);
  RunReport healed = runAndCheck(kGraphA, expectedA(), runner);
  EXPECT_EQ(healed.corrupt, 1);
  EXPECT_EQ(healed.built, 1);
  std::error_code ec;
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(bin, ec))) << "entry not replaced";
  RunReport again = runAndCheck(kGraphA, expectedA(), runner);
  EXPECT_EQ(again.fromCache, 1);
  EXPECT_EQ(again.corrupt, 0);
}

template <typename Runner> void checkIntrudersAndTruncation(Runner makeRunner) {
  for (Intruder i : kIntruders) {
    SCOPED_TRACE(name(i));
    TempDir cache;
    checkHeals(cache.path, makeRunner(cache.path), [&](const fs::path &p) { plant(i, p); });
  }
  TempDir cache;
  checkHeals(cache.path, makeRunner(cache.path),
             [](const fs::path &p) { fs::resize_file(p, fs::file_size(p) - 7); });
}

/// A verified entry (right key, right checksum) holding `payload`: what the consumer must
/// refuse and evict.
void plantVerified(const fs::path &p, const std::string &payload) {
  CacheKey key = keyOfEntry(p);
  ASSERT_FALSE(key.file.empty());
  writeFile(p, KernelCache::encodeEntry(key, payload));
}

#ifdef FXKIT_HAVE_OPENCL
auto openclRunner(const fs::path &cache) {
  return [dir = cache.string()](const Compiled &c, std::span<const RuntimeValue> inputs,
                                RunReport &report) {
    opencl::OpenCLOptions options;
    options.cacheDir = dir;
    opencl::OpenCLStats stats;
    auto result = runOnOpenCL(c, inputs, options, &stats);
    report = {stats.kernelsBuilt, stats.kernelsFromCache, stats.corruptCacheEntries};
    return result;
  };
}

TEST(KernelCacheOpenCL, SwappedEntriesAreBothRebuiltAndResultsAreRight) {
  REQUIRE_OPENCL_DEVICE();
  TempDir cache;
  checkSwappedEntries(cache.path, openclRunner(cache.path));
}

TEST(KernelCacheOpenCL, FoldersFifosLinksAndTruncatedEntriesAreReplaced) {
  REQUIRE_OPENCL_DEVICE();
  checkIntrudersAndTruncation(openclRunner);
}

TEST(KernelCacheOpenCL, ABinaryTheDriverRefusesIsEvictedAndRebuilt) {
  REQUIRE_OPENCL_DEVICE();
  {
    SCOPED_TRACE("not a program binary");
    TempDir cache;
    checkHeals(cache.path, openclRunner(cache.path), [](const fs::path &p) {
      plantVerified(p, "not a program binary, but with the right key and checksum");
    });
  }
  {
    // A real binary that lacks this kernel (what a hash collision would serve).
    SCOPED_TRACE("graph B's binary under graph A's key");
    TempDir scratch;
    runAndCheck(kGraphB, expectedB(), openclRunner(scratch.path));
    std::string payload;
    for (const std::string &f : entries(scratch.path))
      if (fs::path(f).extension() == ".bin") {
        std::string all = readFile(scratch.path / f);
        payload = all.substr(all.find('\n') + 1);
      }
    ASSERT_FALSE(payload.empty());
    TempDir cache;
    checkHeals(cache.path, openclRunner(cache.path),
               [&](const fs::path &p) { plantVerified(p, payload); });
  }
}
#endif

#ifdef FXKIT_HAVE_LLVM
auto llvmRunner(const fs::path &cache) {
  return [dir = cache.string()](const Compiled &c, std::span<const RuntimeValue> inputs,
                                RunReport &report) {
    llvmjit::LLVMOptions options;
    options.cacheDir = dir;
    llvmjit::LLVMStats stats;
    auto result = runOnLLVM(c, inputs, options, &stats);
    report = {stats.kernelsCompiled, stats.kernelsFromCache, stats.corruptCacheEntries};
    return result;
  };
}

TEST(KernelCacheLLVM, SwappedEntriesAreBothRebuiltAndResultsAreRight) {
  TempDir cache;
  checkSwappedEntries(cache.path, llvmRunner(cache.path));
}

TEST(KernelCacheLLVM, FoldersFifosLinksAndTruncatedEntriesAreReplaced) {
  checkIntrudersAndTruncation(llvmRunner);
}

TEST(KernelCacheLLVM, AVerifiedEntryThatIsNotThisKernelsObjectIsEvictedAndRebuilt) {
  {
    SCOPED_TRACE("not an object file");
    TempDir cache;
    checkHeals(cache.path, llvmRunner(cache.path), [](const fs::path &p) {
      plantVerified(p, "\x7f"
                       "ELF but not really");
    });
  }
  {
    SCOPED_TRACE("graph B's object under graph A's key");
    TempDir cache;
    fs::path other;
    {
      TempDir scratch;
      runAndCheck(kGraphB, expectedB(), llvmRunner(scratch.path));
      for (const std::string &f : entries(scratch.path))
        other = scratch.path / f;
      std::string bytes = readFile(other);
      std::string payload = bytes.substr(bytes.find('\n') + 1);
      checkHeals(cache.path, llvmRunner(cache.path),
                 [&](const fs::path &p) { plantVerified(p, payload); });
    }
  }
}

TEST(KernelCacheLLVM, AnObjectThatDoesNotLinkIsEvictedAndRebuiltOnce) {
  TempDir cache;
  checkHeals(cache.path, llvmRunner(cache.path), [](const fs::path &p) {
    // The entry point it must define, calling a function nothing defines: it parses, names
    // the right symbol, and fails in the JIT's linker.
    std::string file = keyOfEntry(p).file; // llvm-NAME-HASH
    std::string kernel = file.substr(5, file.rfind('-') - 5);
    opencl::GeneratedKernel k;
    k.name = kernel;
    std::string entry = llvmjit::entryName(k);
    llvmjit::CompileRequest request;
    request.source = "void fx_cache_test_missing(long);\n"
                     "void " +
                     entry + "(long begin) {\n  fx_cache_test_missing(begin);\n}\n";
    request.sourcePath = "/tmp/fxkit-cache-test-unlinkable.cl";
    request.options = "-cl-std=CL1.2";
    request.entryPoints = {entry};
    auto object = llvmjit::compileToObject(request);
    ASSERT_TRUE(object) << object.error().str();
    plantVerified(p, std::string(object->begin(), object->end()));
  });
}
#endif

} // namespace
