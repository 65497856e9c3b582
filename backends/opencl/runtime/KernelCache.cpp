#include "backends/opencl/runtime/KernelCache.h"

#include "ir/FaultInjection.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace fxkit::opencl {

namespace fs = std::filesystem;

namespace {
/// First line of every entry: magic, payload size and payload hash.
constexpr const char *kMagic = "fxkit-cache-v1";
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
}

std::optional<std::string> KernelCache::readEntry(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::string header;
  std::getline(in, header);
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::istringstream h(header);
  std::string magic, hash;
  size_t size = 0;
  h >> magic >> size >> hash;
  if (magic != kMagic || size != data.size() || hash != hashHex(stableHash(data))) {
    std::error_code ec;
    fs::remove(path, ec);
    ++corrupt_;
    return std::nullopt;
  }
  return data;
}

Status KernelCache::writeEntry(const std::string &path, const std::string &payload) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec)
    return Error("kernel cache: cannot create " + dir_ + ": " + ec.message());
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << kMagic << " " << payload.size() << " " << hashHex(stableHash(payload)) << "\n";
    // FXKIT_FAULT=enospc: the disk fills up half-way through the entry.
    bool full = faultInjected("enospc");
    out.write(payload.data(),
              static_cast<std::streamsize>(full ? payload.size() / 2 : payload.size()));
    out.flush();
    if (!out || full) {
      out.close();
      fs::remove(tmp, ec);
      return Error("kernel cache: cannot write " + tmp);
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    return Error("kernel cache: cannot write " + path + ": " + ec.message());
  }
  return Status::ok();
}

std::optional<std::vector<unsigned char>> KernelCache::loadBinary(const std::string &key) {
  if (!enabled_)
    return std::nullopt;
  auto data = readEntry(dir_ + "/" + key + ".bin");
  if (!data)
    return std::nullopt;
  return std::vector<unsigned char>(data->begin(), data->end());
}

Status KernelCache::storeBinary(const std::string &key, const std::vector<unsigned char> &binary) {
  if (!enabled_)
    return Status::ok();
  return writeEntry(dir_ + "/" + key + ".bin", std::string(binary.begin(), binary.end()));
}

std::map<std::string, std::string> KernelCache::loadTuning(const std::string &key) {
  std::map<std::string, std::string> out;
  if (!enabled_)
    return out;
  auto data = readEntry(dir_ + "/" + key + ".tune");
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

Status KernelCache::storeTuning(const std::string &key,
                                const std::map<std::string, std::string> &configs) {
  if (!enabled_)
    return Status::ok();
  std::string payload;
  for (const auto &[shape, config] : configs)
    payload += shape + "\t" + config + "\n";
  return writeEntry(dir_ + "/" + key + ".tune", payload);
}

} // namespace fxkit::opencl
