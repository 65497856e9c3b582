#include "ir/StringPool.h"

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace fxkit {

namespace {

/// An open-addressing set of strings whose characters live in large blocks: every spelling
/// costs one probe sequence and a copy into a block, not a node, a string and a bucket of
/// std::unordered_set (the wrapper pass interns one origin name per kernel launch).
class Pool {
public:
  std::string_view intern(std::string_view text) {
    uint64_t hash = std::hash<std::string_view>()(text);
    std::lock_guard<std::mutex> lock(mutex_);
    if (2 * (count_ + 1) > slots_.size())
      grow();
    size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      Slot &s = slots_[i];
      if (!s.data) {
        s = {hash, store(text), text.size()};
        ++count_;
        return {s.data, s.size};
      }
      if (s.hash == hash && s.size == text.size() && std::memcmp(s.data, text.data(), s.size) == 0)
        return {s.data, s.size};
    }
  }

private:
  struct Slot {
    uint64_t hash = 0;
    const char *data = nullptr; ///< null: empty slot
    size_t size = 0;
  };

  /// A copy of `text` that never moves (NUL-terminated, so an empty string has a pointer too).
  const char *store(std::string_view text) {
    constexpr size_t kBlock = 64 * 1024;
    size_t need = text.size() + 1;
    if (need > kBlock / 4) { // large strings get their own block
      blocks_.push_back(std::make_unique<char[]>(need));
      char *out = blocks_.back().get();
      std::memcpy(out, text.data(), text.size());
      out[text.size()] = '\0';
      return out;
    }
    if (!current_ || used_ + need > kBlock) {
      blocks_.push_back(std::make_unique<char[]>(kBlock));
      current_ = blocks_.back().get();
      used_ = 0;
    }
    char *out = current_ + used_;
    std::memcpy(out, text.data(), text.size());
    out[text.size()] = '\0';
    used_ += need;
    return out;
  }

  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 1024 : 2 * old.size(), Slot());
    size_t mask = slots_.size() - 1;
    for (const Slot &s : old) {
      if (!s.data)
        continue;
      size_t i = s.hash & mask;
      while (slots_[i].data)
        i = (i + 1) & mask;
      slots_[i] = s;
    }
  }

  std::mutex mutex_;
  std::vector<Slot> slots_;
  size_t count_ = 0;
  std::vector<std::unique_ptr<char[]>> blocks_;
  char *current_ = nullptr;
  size_t used_ = 0;
};

} // namespace

std::string_view intern(std::string_view text) {
  static Pool *pool = new Pool(); // intentionally leaked: views must outlive static destructors
  return pool->intern(text);
}

} // namespace fxkit
