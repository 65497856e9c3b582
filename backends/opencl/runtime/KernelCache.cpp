#include "backends/opencl/runtime/KernelCache.h"

#include "ir/FaultInjection.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <set>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fxkit::opencl {

namespace fs = std::filesystem;

namespace {
/// First word of every entry's header line.
constexpr std::string_view kMagic = "fxkit-cache-v2";
/// Header lines are short (two keys, two numbers); a longer first line is not an entry.
constexpr size_t kMaxHeaderBytes = 4096;
/// The seed of CacheKey::check: any basis other than FNV's own gives a second hash.
constexpr uint64_t kCheckSeed = 0x9e3779b97f4a7c15ull;

/// The checksum of an entry: its payload, seeded with its key, so an edited key fails too.
std::string entryHash(const CacheKey &key, std::string_view payload) {
  return hashHex(stableHash(payload, stableHash(key.file + " " + key.check)));
}

/// What is at `path` where an entry was expected, for a warning.
std::string describeFileType(mode_t mode) {
  if (S_ISDIR(mode))
    return "a folder";
  if (S_ISLNK(mode))
    return "a symbolic link";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISSOCK(mode))
    return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode))
    return "a device";
  return "not a regular file";
}

/// Whether a file name in the cache folder is a write's temporary (".NAME.tmp.PID.N"; older
/// versions wrote "NAME.tmp.PID"). Entries end in .bin or .tune, so never match.
bool isTemporaryName(const std::string &name) { return name.find(".tmp.") != std::string::npos; }

/// Writes all of `data` to `fd`; false (errno set) on failure.
bool writeAll(int fd, const char *data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}
} // namespace

uint64_t stableHash(std::string_view data, uint64_t h) {
  for (unsigned char c : data) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string hashHex(uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

CacheKey CacheKey::of(std::string_view name, std::string_view identity) {
  return CacheKey{std::string(name) + "-" + hashHex(stableHash(identity)),
                  hashHex(stableHash(identity, kCheckSeed))};
}

KernelCache::KernelCache(std::string dir, bool enabled) : dir_(std::move(dir)), enabled_(enabled) {
  if (dir_.empty()) {
    if (const char *d = std::getenv("FXKIT_CACHE_DIR"); d && *d)
      dir_ = d;
    else if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x)
      dir_ = std::string(x) + "/fxkit";
    else if (const char *h = std::getenv("HOME"); h && *h)
      dir_ = std::string(h) + "/.cache/fxkit";
    else
      enabled_ = false;
  }
  if (enabled_)
    sweepStaleTemporaries();
}

KernelCache::KernelCache(const KernelCache &other)
    : dir_(other.dir_), enabled_(other.enabled_), corrupt_(other.corrupt_.load()),
      stale_(other.stale_) {}

KernelCache &KernelCache::operator=(const KernelCache &other) {
  dir_ = other.dir_;
  enabled_ = other.enabled_;
  corrupt_ = other.corrupt_.load();
  stale_ = other.stale_;
  return *this;
}

void KernelCache::sweepStaleTemporaries() {
  {
    // Once per folder and process: every kernel set opens the cache, and a folder of many
    // entries need not be listed each time.
    static std::mutex mutex;
    static std::set<std::string> swept;
    std::lock_guard<std::mutex> lock(mutex);
    if (!swept.insert(dir_).second)
      return;
  }
  std::error_code ec;
  fs::directory_iterator it(dir_, ec);
  if (ec)
    return; // no folder yet (or unreadable): nothing to sweep
  std::time_t now = std::time(nullptr);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (!isTemporaryName(name))
      continue;
    struct stat st;
    if (::lstat(it->path().c_str(), &st) != 0)
      continue;
    if (now - st.st_mtime < static_cast<std::time_t>(kStaleTemporaryAge.count()))
      continue; // a write in progress in another process
    std::error_code rm;
    if (S_ISDIR(st.st_mode))
      fs::remove_all(it->path(), rm);
    else
      fs::remove(it->path(), rm);
    if (!rm)
      ++stale_;
  }
}

void KernelCache::evictPath(const std::string &path, const std::string &why) {
  std::error_code ec;
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    fs::remove_all(path, ec);
  else
    fs::remove(path, ec);
  ++corrupt_;
  std::fprintf(stderr, "fxkit: warning: kernel cache entry %s %s; %s, rebuilding it\n",
               path.c_str(), why.c_str(),
               ec ? ("cannot remove it: " + ec.message()).c_str() : "removed");
}

std::string KernelCache::encodeEntry(const CacheKey &key, std::string_view payload) {
  std::string out;
  out += kMagic;
  out += " " + key.file + " " + key.check + " " + std::to_string(payload.size()) + " " +
         entryHash(key, payload) + "\n";
  out += payload;
  return out;
}

std::optional<std::string> KernelCache::readEntry(const std::string &path, const CacheKey &key) {
  // Never open what is not a regular file: a FIFO blocks, a folder or /dev/zero throws or
  // allocates without bound in a stream read.
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno != ENOENT && errno != ENOTDIR)
      std::fprintf(stderr, "fxkit: warning: kernel cache entry %s: %s; not used\n", path.c_str(),
                   std::strerror(errno));
    return std::nullopt;
  }
  if (!S_ISREG(st.st_mode)) {
    evictPath(path, "is " + describeFileType(st.st_mode) + ", not an entry");
    return std::nullopt;
  }
  if (static_cast<uint64_t>(st.st_size) > kMaxEntryBytes) {
    evictPath(path, "is too large (" + std::to_string(st.st_size) + " bytes)");
    return std::nullopt;
  }
  // O_NOFOLLOW and O_NONBLOCK: what was swapped in since lstat does not block or redirect us.
  int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT)
      return std::nullopt; // removed by another process since
    if (errno == ELOOP || errno == ENXIO)
      evictPath(path, "is not a regular file");
    else
      std::fprintf(stderr, "fxkit: warning: kernel cache entry %s: %s; not used\n", path.c_str(),
                   std::strerror(errno));
    return std::nullopt;
  }
  std::string bytes;
  bool ok = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
            static_cast<uint64_t>(st.st_size) <= kMaxEntryBytes;
  if (ok) {
    bytes.resize(static_cast<size_t>(st.st_size));
    size_t got = 0;
    while (got < bytes.size()) {
      ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      got += static_cast<size_t>(n);
    }
    bytes.resize(got); // a file that shrank since fstat fails the size check below
  }
  ::close(fd);
  if (!ok) {
    evictPath(path, "changed while being opened");
    return std::nullopt;
  }
  size_t eol = bytes.find('\n');
  if (eol == std::string::npos || eol > kMaxHeaderBytes) {
    evictPath(path, "has no header (not a cache entry)");
    return std::nullopt;
  }
  std::istringstream h(bytes.substr(0, eol));
  std::string magic, file, check, hash, extra;
  uint64_t size = 0;
  h >> magic >> file >> check >> size >> hash;
  if (magic != kMagic && magic.starts_with("fxkit-cache-v")) {
    // Another version's entry: expected after an upgrade, replaced without a warning.
    std::error_code ec;
    fs::remove(path, ec);
    return std::nullopt;
  }
  if (!h || (h >> extra) || magic != kMagic) {
    evictPath(path, "has a bad header (not a cache entry)");
    return std::nullopt;
  }
  if (file != key.file || check != key.check) {
    evictPath(path, "holds the entry of another key (" + file + ")");
    return std::nullopt;
  }
  std::string_view payload = std::string_view(bytes).substr(eol + 1);
  if (size != payload.size() || hash != entryHash(key, payload)) {
    evictPath(path, "is truncated or changed (checksum mismatch)");
    return std::nullopt;
  }
  return std::string(payload);
}

Status KernelCache::writeEntry(const std::string &path, const CacheKey &key,
                               std::string_view payload) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec)
    return Error("kernel cache: cannot create " + dir_ + ": " + ec.message());
  static std::atomic<unsigned> counter{0};
  fs::path p(path);
  std::string tmp =
      (p.parent_path() / ("." + p.filename().string() + ".tmp." + std::to_string(::getpid()) + "." +
                          std::to_string(counter.fetch_add(1))))
          .string();
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0)
    return Error("kernel cache: cannot write " + tmp + ": " + std::strerror(errno));
  std::string bytes = encodeEntry(key, payload);
  // FXKIT_FAULT=enospc: the disk fills up half-way through the entry.
  bool full = faultInjected("enospc");
  bool ok = writeAll(fd, bytes.data(), full ? bytes.size() / 2 : bytes.size()) && !full;
  int err = full ? ENOSPC : errno;
  ok = (::close(fd) == 0) && ok;
  if (!ok) {
    fs::remove(tmp, ec);
    return Error("kernel cache: cannot write " + tmp + ": " + std::strerror(err));
  }
  // rename() replaces a file, a symbolic link or a FIFO, but not a folder.
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    fs::remove_all(path, ec);
  fs::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    return Error("kernel cache: cannot write " + path + ": " + ec.message());
  }
  return Status::ok();
}

std::optional<std::vector<unsigned char>> KernelCache::loadBinary(const CacheKey &key) {
  if (!enabled_)
    return std::nullopt;
  auto data = readEntry(dir_ + "/" + key.file + ".bin", key);
  if (!data)
    return std::nullopt;
  return std::vector<unsigned char>(data->begin(), data->end());
}

Status KernelCache::storeBinary(const CacheKey &key, const std::vector<unsigned char> &binary) {
  if (!enabled_)
    return Status::ok();
  return writeEntry(dir_ + "/" + key.file + ".bin", key,
                    std::string_view(reinterpret_cast<const char *>(binary.data()), binary.size()));
}

void KernelCache::evictBinary(const CacheKey &key, const std::string &why) {
  if (enabled_)
    evictPath(dir_ + "/" + key.file + ".bin", "cannot be loaded (" + why + ")");
}

std::map<std::string, std::string> KernelCache::loadTuning(const CacheKey &key) {
  std::map<std::string, std::string> out;
  if (!enabled_)
    return out;
  auto data = readEntry(dir_ + "/" + key.file + ".tune", key);
  if (!data)
    return out;
  std::istringstream in(*data);
  std::string line;
  while (std::getline(in, line)) {
    size_t tab = line.find('\t');
    if (tab != std::string::npos)
      out[line.substr(0, tab)] = line.substr(tab + 1);
  }
  return out;
}

Status KernelCache::storeTuning(const CacheKey &key,
                                const std::map<std::string, std::string> &configs) {
  if (!enabled_)
    return Status::ok();
  std::string payload;
  for (const auto &[shape, config] : configs)
    payload += shape + "\t" + config + "\n";
  return writeEntry(dir_ + "/" + key.file + ".tune", key, payload);
}

} // namespace fxkit::opencl
