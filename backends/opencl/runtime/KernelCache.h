#pragma once
/// \file The persistent kernel cache: program binaries, LLVM objects and autotuned launch
/// configurations on disk, keyed by a hash of the kernel source, build options, device and
/// driver version, so a second process skips building and tuning. The cache only saves time,
/// so it never trusts what it finds and never fails a run:
///
///  - Every entry carries its full key (the file key and a second hash of the identity text,
///    under another seed) and a checksum over key and payload; an entry that does not verify
///    (truncated, edited, from another version, or holding another entry's contents after a
///    swap) is removed with a warning on stderr and rebuilt.
///  - Something other than a regular file in place of an entry (a folder, a FIFO, a device, a
///    symbolic link to anything) is never opened for reading: it is checked with lstat first
///    (and opened with O_NOFOLLOW | O_NONBLOCK, then checked again with fstat), removed with a
///    warning and replaced. Entries larger than kMaxEntryBytes are removed unread.
///  - An entry that verifies but that the consumer cannot load (the OpenCL driver refuses the
///    binary, the JIT refuses the object) is evicted with evictBinary() and rebuilt once.
///  - Entries are written to a hidden temporary file (".NAME.tmp.PID.N") and renamed, so a
///    crash or a full disk never leaves a partial entry; temporaries older than
///    kStaleTemporaryAge (left by a killed process) are removed when a process first opens
///    the cache.
///  - No exception escapes: std::filesystem is called with error codes, files through POSIX.
///
/// Entry layout: one header line "fxkit-cache-v2 FILEKEY CHECK SIZE HASH", then SIZE payload
/// bytes; HASH is stableHash of the payload seeded with the hash of "FILEKEY CHECK".

#include "ir/Error.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit::opencl {

/// 64-bit FNV-1a: stable across runs, platforms and compilers (std::hash is not).
uint64_t stableHash(std::string_view data, uint64_t seed = 0xcbf29ce484222325ull);
/// 16 hex digits.
std::string hashHex(uint64_t h);

/// What an entry is stored and verified under. `file` names the entry (NAME-HASH, HASH the
/// 64-bit hash of the identity text); `check` is a second hash of the same text under another
/// seed. Both are written into the entry and compared on load, so an entry copied or renamed
/// onto another key, or two keys whose file hashes collide, never serve the wrong kernel.
struct CacheKey {
  std::string file;
  std::string check;
  /// The key of the kernel `name` whose build depends on exactly `identity` (source, options,
  /// device, driver).
  static CacheKey of(std::string_view name, std::string_view identity);
};

class KernelCache {
public:
  /// Entries larger than this are removed unread (a program binary is a few MiB at most).
  static constexpr uint64_t kMaxEntryBytes = 256ull << 20;
  /// Temporaries of interrupted writes older than this are removed when the cache is opened
  /// (a live writer renames its temporary within seconds).
  static constexpr std::chrono::seconds kStaleTemporaryAge{3600};

  /// A cache in `dir`; empty: $FXKIT_CACHE_DIR, else $XDG_CACHE_HOME/fxkit, else
  /// ~/.cache/fxkit. `enabled` false: every lookup misses and nothing is written (nor
  /// swept). The first enabled cache of a folder in a process removes its stale temporaries.
  explicit KernelCache(std::string dir = "", bool enabled = true);
  KernelCache(const KernelCache &other);
  KernelCache &operator=(const KernelCache &other);

  const std::string &dir() const { return dir_; }
  bool enabled() const { return enabled_; }

  /// The binary stored under `key`, or nullopt (missing, or corrupt and now removed).
  /// Thread-safe, like every member but assignment.
  std::optional<std::vector<unsigned char>> loadBinary(const CacheKey &key);
  /// Stores a binary; errors (unwritable directory, full disk) leave no entry behind.
  Status storeBinary(const CacheKey &key, const std::vector<unsigned char> &binary);
  /// Removes the binary stored under `key` that verified but could not be loaded (`why`),
  /// with a warning; counted with the corrupt entries.
  void evictBinary(const CacheKey &key, const std::string &why);

  /// Tuned configurations of a kernel: shape key ("x1024_r512") -> configuration text.
  std::map<std::string, std::string> loadTuning(const CacheKey &key);
  Status storeTuning(const CacheKey &key, const std::map<std::string, std::string> &configs);

  /// Entries found corrupt (or not loadable, or not regular files) and removed since
  /// construction.
  int corruptEntriesRemoved() const { return corrupt_.load(); }
  /// Stale temporaries removed when this cache was opened.
  int staleTemporariesRemoved() const { return stale_; }

  /// The bytes of an entry holding `payload` under `key` (tests plant entries with it).
  static std::string encodeEntry(const CacheKey &key, std::string_view payload);

private:
  std::optional<std::string> readEntry(const std::string &path, const CacheKey &key);
  Status writeEntry(const std::string &path, const CacheKey &key, std::string_view payload);
  void evictPath(const std::string &path, const std::string &why);
  void sweepStaleTemporaries();
  std::string dir_;
  bool enabled_ = true;
  std::atomic<int> corrupt_{0};
  int stale_ = 0;
};

} // namespace fxkit::opencl
