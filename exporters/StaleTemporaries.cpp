#include "exporters/StaleTemporaries.h"

#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <mutex>
#include <set>
#include <unistd.h>

namespace fxkit {

namespace fs = std::filesystem;

namespace {

/// How old a temporary without a process id in its name must be to count as stale: no output
/// takes an hour to write.
constexpr std::chrono::hours kAgeOfUnownedTemporary{1};

bool allOf(std::string_view s, int (*pred)(int)) {
  for (char c : s)
    if (!pred(static_cast<unsigned char>(c)))
      return false;
  return !s.empty();
}

/// The process id in a temporary's name: 0 when the name has none (an older fxkit's
/// `.NAME.tmp.XXXXXX`), -1 when it is not a temporary's name at all.
long ownerOf(std::string_view name) {
  if (name.size() < 2 || name[0] != '.')
    return -1;
  if (name.size() > 4 && name.substr(name.size() - 4) == ".old")
    name.remove_suffix(4);
  size_t tmp = name.rfind(".tmp.");
  if (tmp == std::string_view::npos || tmp == 0)
    return -1;
  std::string_view rest = name.substr(tmp + 5); // PID.XXXXXX or XXXXXX
  size_t dot = rest.find('.');
  if (dot == std::string_view::npos)
    return rest.size() == 6 && allOf(rest, isalnum) ? 0 : -1;
  std::string_view pid = rest.substr(0, dot), random = rest.substr(dot + 1);
  if (!allOf(pid, isdigit) || pid.size() > 9 || random.size() != 6 || !allOf(random, isalnum))
    return -1;
  return std::stol(std::string(pid));
}

bool processGone(long pid) {
  return pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

} // namespace

std::string temporaryTemplate(const fs::path &dir, const std::string &name) {
  return (dir / ("." + name + ".tmp." + std::to_string(::getpid()) + ".XXXXXX")).string();
}

bool isStaleTemporaryName(const std::string &filename) { return processGone(ownerOf(filename)); }

void sweepStaleTemporaries(const fs::path &dir) {
  static std::mutex mutex;
  static std::set<std::string> swept;
  std::error_code ec;
  fs::path key = fs::absolute(dir.empty() ? fs::path(".") : dir, ec).lexically_normal();
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!swept.insert(key.string()).second)
      return;
  }
  auto now = fs::file_time_type::clock::now();
  for (fs::directory_iterator it(key, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    long owner = ownerOf(name);
    bool stale = owner > 0 ? processGone(owner) : false;
    if (owner == 0) {
      std::error_code timeError;
      auto written = fs::last_write_time(it->path(), timeError);
      stale = !timeError && now - written > kAgeOfUnownedTemporary;
    }
    if (stale) {
      std::error_code ignored;
      fs::remove_all(it->path(), ignored);
    }
  }
}

} // namespace fxkit
