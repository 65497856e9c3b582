#pragma once
/// \file The persistent kernel cache: program binaries and autotuned launch configurations on
/// disk, keyed by a hash of the kernel source, build options, device and driver version, so a
/// second process skips building and tuning. Every entry carries a checksum of its contents; an
/// entry that does not verify (truncated, edited, from another version) is removed and rebuilt,
/// never trusted. Entries are written to a temporary file and renamed, so a crash or a full disk
/// never leaves a partial entry.

#include "ir/Error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fxkit::opencl {

/// 64-bit FNV-1a: stable across runs, platforms and compilers (std::hash is not).
uint64_t stableHash(std::string_view data, uint64_t seed = 0xcbf29ce484222325ull);
/// 16 hex digits.
std::string hashHex(uint64_t h);

class KernelCache {
public:
  /// A cache in `dir`; empty: $FXKIT_CACHE_DIR, else $XDG_CACHE_HOME/fxkit, else
  /// ~/.cache/fxkit. `enabled` false: every lookup misses and nothing is written.
  explicit KernelCache(std::string dir = "", bool enabled = true);

  const std::string &dir() const { return dir_; }
  bool enabled() const { return enabled_; }

  /// The binary stored under `key`, or nullopt (missing, or corrupt and now removed).
  std::optional<std::vector<unsigned char>> loadBinary(const std::string &key);
  /// Stores a binary; errors (unwritable directory, full disk) leave no entry behind.
  Status storeBinary(const std::string &key, const std::vector<unsigned char> &binary);

  /// Tuned configurations of a kernel: shape key ("x1024_r512") -> configuration text.
  std::map<std::string, std::string> loadTuning(const std::string &key);
  Status storeTuning(const std::string &key, const std::map<std::string, std::string> &configs);

  /// Entries found corrupt and removed since construction.
  int corruptEntriesRemoved() const { return corrupt_; }

private:
  std::optional<std::string> readEntry(const std::string &path);
  Status writeEntry(const std::string &path, const std::string &payload);
  std::string dir_;
  bool enabled_ = true;
  int corrupt_ = 0;
};

} // namespace fxkit::opencl
